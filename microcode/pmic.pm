# pmic.pm - micdb's PMIC microprogram: the whole IJVM instruction set
# (doc/ijvm.md) and the many-core extensions (doc/manycore.md) on the parallel
# micro-architecture of the Monzali thesis (doc/pmic.md).
# Compile with:  pmic-cc microcode/pmic.pm  (pmic-cc -l lists the placement)
#
# It is the default microprogram of `micdb run --level pmic`.  Programs that
# do not fault leave exactly the state the ISA level leaves (memory, PC,
# SP, LV, CPP, status, output), so the levels can be switched at any
# instruction boundary.
#
# ---- Conventions ---------------------------------------------------------
#
# Between instructions (the boundary, MPC = the opcode's entry):
#   PC  = byte address of the opcode, MBR = the 4 bytes at PC (MBR0 the
#         opcode, MBR1..MBR3 / MBR1S / MBR12 / MBR12S its operands),
#   SP  = top of stack, TOS = mem[SP] (always, also after INVOKEVIRTUAL),
#   LV  = local 0, CPP = 0x4000.  H, OPC, MAR, MDR are scratch:
#   nothing may assume a value left in them by an earlier instruction (a
#   switch from another level enters at any boundary).  G0 and G1 hold
#   the frame cache (see "The frame cache"): only this level writes them
#   and a core starts, and enters this level from another, with both 0
#   (pmic_enter in src/model/pmic-sim.c); the cache is checked against memory
#   before a fault is reported, so a stale one costs time, not results.
#
# Timing (doc/pmic.md): a memory operation completes in the cycle that starts
# it; at the end of a cycle the ALU results are written first, then write
# (mem[MAR] <- MDR), read (MDR <- mem[MAR]), fetch (MBR <- bytes at PC), so
# every memory operation sees this cycle's MAR, MDR and PC.  All three CUs
# read the registers as they were at the start of the cycle, so
# "tos = mdr // mdr = tos" swaps.  The last micro-instruction of a block
# dispatches on the freshly fetched MBR0: each instruction ends by
# fetching PC + its length (or the branch target), so no Main1 cycle.
# Flags come from CU0: a check is always the first operation.
#
# Cycle counts: "PMIC n / Mic-1 m" counts every cycle of the instruction,
# Mic-1's counts include Main1 and are those of microcode/mic1.mal (taken /
# not taken for branches).
#
# Device words (doc/mic1.md section 4) are built from the constant registers:
#   -1 = -one  -2 = -c2  -3 = -c3  -4 = -c4  -5 = -c5  -6 = not c5
#   -7 = -(c5+c2)  -8 = -(c4+c4)  -9  -10 = -(c5+c5) (globals base)
# and SID is the core id (COREID needs no device read).
#
# ---- Faults ----------------------------------------------------------------
#
# Faults the microprogram detects are written to the error word (-2) as the
# fault codes of src/core/faults.def, so the debugger names them:
#   2 unknown opcode, 3 WIDE before an instruction without a wide form,
#   4 operand-stack underflow, 7 constant-pool index, 8 local variable
#   index, 9 method address, 10 IRETURN from main, 11 array index out of
#   bounds, 13 not an array reference, 16 method with nargs 0.
# In the ISA's order (src/model/ref.c), each before anything is written:
#   - underflow: every instruction that pops in ijvm-ops.def (DUP too)
#     checks SP - pops >= floor of the current frame, and INVOKEVIRTUAL
#     SP - nargs >= floor; reads below SP come after the check that makes
#     them safe, so an empty stack faults as an underflow;
#   - local indices of ILOAD, ISTORE, IINC and their WIDE forms against
#     the frame's nlocals (main: the word -11; a method: link - LV);
#   - IRETURN in main (LV = 0x8000) before anything is read through the
#     link pointer;
#   - LDC_W / INVOKEVIRTUAL index >= 0x4000 (past the pool, as mic1.mal),
#     a method address < 0 or with address + 4 >= the text size (the
#     word -12 = not 11: the header and one byte of code), nargs 0;
#   - arrays: the reference lies in the heap, its tag equals the heap's
#     first word (the first array's tag), 0 <= index < length;
#   - WIDE before an opcode other than ILOAD, ISTORE, IINC: WIDE itself
#     compares the next byte with those three (see "wide");
#   - unknown opcodes: see "Unknown opcodes" below and "Filling the
#     store" at the end.  Every unknown opcode faults 2.
# A fault path undoes what its cycles changed in SP and PC, so the core
# stops with the registers the ISA level leaves (TOS excepted where an
# instruction had already loaded it).  The machine itself faults on stack
# overflow, memory outside the map and running off the text.
# Not detected as at the ISA level: a corrupted link pointer (frame
# outside the stack region, ISA fault 15) shows as whatever the bad frame
# leads to.
#
# ---- Unknown opcodes --------------------------------------------------------
#
# An unknown opcode dispatches to its own control-store word.  Most of
# those words are fillers (see "Filling the store") that report "unknown
# opcode"; the others are the lower halves of conditional pairs: pmic-cc
# puts the word run when the flag is clear (the fall-through) at T xor
# 0x100 below the taken target T, i.e. on an address no known opcode uses.
# Such a word cannot tell from its address whether a dispatch or its
# conditional got there, so the program keeps two rules:
#   - a lower-half word changes only scratch registers (H, OPC, MAR, MDR)
#     and neither writes memory nor fetches, and every path from it tests
#     a mark that only its conditional leaves before it changes anything
#     else; a path that fails the test ends in a word that reports
#     "unknown opcode" with the registers of the dispatch (a "sink", a
#     lower-half word too, right for its own dispatch as well);
#   - the mark: a dispatch has PC >= 0 (a byte address in the text) and
#     SP > 0, and MBR0 is the word's own address.  An instruction
#     marks PC by "pc = not pc" (negative) in the cycle of its first check
#     and keeps it marked through its checks; the continuation undoes the
#     mark in the same operation that moves PC on (-pc = pc + 1 and
#     c2 - pc = pc + 3 of the unmarked value), so the mark costs no cycle.
#     A check whose value is computed before it tests "n = value and pc",
#     negative only when PC is marked.  INVOKEVIRTUAL, which fetches its
#     header through PC, marks SP in the same way (a dispatch has SP > 0);
#     ISTORE, whose last cycle has no free CU, is recognised by MBR0 = 0x36
#     (it fetches only in its last cycle).  PC and SP are therefore not
#     the ISA's while such an instruction runs, only at its boundaries.
# The fault paths (fault, slow, ...) test the mark before they report or
# restart; the conditional branches test it on their not-taken side, which
# costs that side one cycle.

# ---- constants and simple stack operations --------------------------------

nop { pc = pc+one : fetch }                              # PMIC 1 / Mic-1 2

gc { pc = pc+one : fetch }                # never collects: PMIC 1 / Mic-1 2

# push the sign-extended byte                            PMIC 1 / Mic-1 4
bipush { mar,sp = sp+one // mdr,tos = mbr1s // pc = pc+c2 : write // fetch }

# LDC_W u16: cp[index].  The pool ends before the stack region, so an index
# of 0x4000 or more would read a stack word: refuse it (code 7).  The read
# is issued with the check: it can only read this core's own words.
#                                                        PMIC 2 / Mic-1 9
ldc_w {
    n = mbr12 - cpp // mar = cpp + mbr12 // pc = not pc : read : next (n) ldc_w2;
    opc = c2 + c5 : next fault
}
ldc_w2 { mar,sp = sp+one // tos = mdr // pc = c2 - pc : write // fetch }

# DUP pops one word in the ISA table (it needs a top), so it checks the
# floor like POP before it pushes.                       PMIC 2 / Mic-1 3
dup {
    n = sp - g1 // pc = not pc : next (n) dup2;
    opc = c4 : next slow
}
dup2 { mar,sp = sp+one // mdr = tos // pc = -pc : write // fetch }

# POP and OUT read the new top only after the floor check, so that an
# empty stack faults as an underflow, not as a read below the region.
pop {                                                    # PMIC 3 / Mic-1 4
    n = sp - g1 // pc = not pc : next (n) pop2;
    opc = c4 : next slow
}
pop2 {
    mar,sp = sp-one // pc = -pc : read // fetch;
    tos = mdr
}

# SWAP: the old second word goes to SP (and TOS), the old top to SP - 1.
#                                                        PMIC 4 / Mic-1 5
swap {
    n = sp - g1 // h = sp-one // pc = not pc : next (n) swap1;
    opc = c4 : next slow
}
swap1 {
    n = h - g1 // mar = h // opc = tos : read : next (n) swap2;
    opc = c4 : next slow
}
swap2 {
    mar = sp // mdr,tos = mdr // pc = -pc : write // fetch;
    mar = sp-one // mdr = opc : write
}

# The two-operand ALU instructions: SP - 1 >= floor first (which makes the
# read of SP - 1 safe), then SP - 2 >= floor with that read; SP and PC
# move in the last cycle, so the checks leave them as found.
#                                                        PMIC 3 / Mic-1 4
iadd {
    n = sp - g1 // h = sp-one // pc = not pc : next (n) iadd2;
    opc = c4 : next slow
}
iadd2 {
    n = h - g1 // mar = h : read : next (n) iadd3;
    opc = c4 : next slow
}
iadd3 { mdr,tos = mdr+tos // sp = h // pc = -pc : write // fetch }

isub {
    n = sp - g1 // h = sp-one // pc = not pc : next (n) isub2;
    opc = c4 : next slow
}
isub2 {
    n = h - g1 // mar = h : read : next (n) isub3;
    opc = c4 : next slow
}
isub3 { mdr,tos = mdr-tos // sp = h // pc = -pc : write // fetch }

iand {
    n = sp - g1 // h = sp-one // pc = not pc : next (n) iand2;
    opc = c4 : next slow
}
iand2 {
    n = h - g1 // mar = h : read : next (n) iand3;
    opc = c4 : next slow
}
iand3 { mdr,tos = mdr and tos // sp = h // pc = -pc : write // fetch }

ior {
    n = sp - g1 // h = sp-one // pc = not pc : next (n) ior2;
    opc = c4 : next slow
}
ior2 {
    n = h - g1 // mar = h : read : next (n) ior3;
    opc = c4 : next slow
}
ior3 { mdr,tos = mdr or tos // sp = h // pc = -pc : write // fetch }

# ---- local variables -------------------------------------------------------

# The index is checked against G0 (-nlocals) before the local is read, so
# that a bad index faults as such, never as a read outside the region.
iload {                                                  # PMIC 3 / Mic-1 6
    n = mbr1 + g0 // h = lv + mbr1 // pc = not pc : next (n) iload2;
    opc = c4 + c4 : next slow
}
iload2 {
    mar = h // sp = sp+one // pc = -pc : read;
    mar = sp // tos = mdr // pc = pc+one : write // fetch
}

# ISTORE: the floor (the ISA checks the pop first), then the index with the
# read of the new top; the local's address waits in H.  The last cycle
# has no CU left to undo a mark, so the fault paths recognise ISTORE by
# MBR0 (istore_f): it fetches only in that cycle.     PMIC 3 / Mic-1 7
istore {
    n = sp - g1 // h = lv + mbr1 : next (n) istore2;
    opc = c4 // mdr = -one // mar = sp : next istore_f
}
istore2 {
    n = mbr1 + g0 // mar,sp = sp-one // pc = pc+c2 : read : next (n) istore3;
    opc = c4 + c4 // mdr = one // mar = sp+one : next istore_f
}
istore3 { tos = mdr // mar = h // mdr = tos : write // fetch }

# IINC: the constant is a signed byte and only MBR1 has a signed view, so
# fetch from PC + 1 (MBR1 then holds the constant).      PMIC 3 / Mic-1 7
iinc {
    n = mbr1 + g0 // mar = lv + mbr1 // pc = not pc : next (n) iinc2;
    opc = c4 + c4 : next slow
}
iinc2 {
    pc = -pc : fetch // read;
    mdr = mdr + mbr1s // pc = pc+c2 : write // fetch
}

# WIDE: fetch the next opcode and dispatch on its wide form (0x100 + op);
# H = 1 tells a wide block that WIDE, not a restart (see "slow"), got
# there.  The wide forms take a u16 index (MBR12 after the fetch from
# PC + 1).  Only ILOAD (0x15), ISTORE (0x36) and IINC (0x84) are
# dispatched: the upper half holds the taken sides of conditionals and
# the continuations of instructions at 0x100 + an unknown opcode, so WIDE
# compares MBR0 with the three and reports "WIDE before ..." itself for
# any other byte.  The constants are built in scratch registers beside
# the comparisons; the comparisons' fall-throughs are lower-half words,
# so WIDE marks PC and each of them tests the mark.
#                                PMIC 4 ILOAD, 6 ISTORE, 9 IINC / Mic-1 2
wide {
    pc = pc+one // h = c5 + c5 // opc = c3 + c3 : fetch;            # 10, 6
    h = h + h + one // opc = opc + opc + one // pc = not pc;        # 0x15, 13
    z = mbr0 - h // opc = opc + opc + one // mdr = c4 + c4 : next (z) wide_ok1;
    n = pc // h = opc + opc // mdr = mdr + mdr : next (n) wide_2;   # 0x36, 16
    mar = -c2 // mdr = c2 : write : next badop
}
wide_2 {
    z = mbr0 - h // mdr = mdr + mdr + one : next (z) wide_ok2;      # 33
    n = pc // h = mdr + mdr : next (n) wide_3;                      # 66
    mar = -c2 // mdr = c2 : write : next badop
}
wide_3 {
    h = h + h;                                                      # 0x84
    z = mbr0 - h : next (z) wide_ok3;
    opc = c3 : next fault
}
wide_ok1 { pc = not pc // h = one : next wide }
wide_ok2 { pc = not pc // h = one : next wide }
wide_ok3 { pc = not pc // h = one : next wide }

# A restart of the narrow form (H = 0) also lands here.  Fault paths keep
# PC at the opcode after the prefix and mark the code (<< 8) as wide.  The
# check after the restart test is in the lower half: its value is computed
# with that test, so that it can require the mark ("and pc").
wide_iload {                                     # PMIC 4+4 / Mic-1 9
    z = h // opc = mbr12 + g0 // pc = not pc : next (z) iload_re;
    n = opc and pc // h = lv + mbr12 : next (n) wide_iload2;
    opc = c4 + c4 : next wfail
}
wide_iload2 {
    mar = h // sp = sp+one // pc = c2 - pc : read // fetch;
    mar = sp // tos = mdr : write
}
iload_re { pc = not pc : next iload }

wide_istore {                                    # PMIC 6+4 / Mic-1 10
    z = h // opc = sp - g1 // pc = not pc : next (z) istore_re;
    n = opc and pc // h = lv + mbr12 : next (n) wide_istore2;
    opc = c4 << 8 : next slow
}
wide_istore2 {
    n = mbr12 + g0 // mar,sp = sp-one // pc = c2 - pc : read : next (n) wide_istore3;
    opc = c4 + c4 // mdr = c2 // mar = sp+one : next istore_w
}
wide_istore3 { tos = mdr // mar = h // mdr = tos : write // fetch }
istore_re { pc = not pc : next istore }
istore_w { opc = opc << 8 : next istore_f }

# ISTORE's faults: OPC = the code, MAR = SP as the instruction found it,
# MDR = k - 1 where PC = that instruction's PC + k.  Only ISTORE gets here
# with MBR0 = 0x36 (WIDE ISTORE too: its block is at 0x100 + 0x36).
istore_f {
    h = c3 + c3;
    h = h + h + one;
    h = h + h + one;
    h = h + h;                                           # 0x36
    z = mbr0 - h : next (z) istore_f2;
    mar = -c2 // mdr = c2 : write : next badop
}
istore_f2 { sp = mar // pc = mdr - pc : next slow }     # PC marked

# WIDE IINC: the constant stays one byte; fetch from its byte - 1 so that
# MBR1S is the constant.                                 PMIC 9+4 / Mic-1 10
wide_iinc {
    z = h // opc = mbr12 + g0 // pc = not pc : next (z) iinc_re;
    n = opc and pc // mar = lv + mbr12 // h = one : next (n) wide_iinc2;
    opc = c4 + c4 : next wfail
}
wide_iinc2 {                                     # H = 1: PC + 2
    pc = h - pc : fetch // read;
    mdr = mdr + mbr1s // pc = pc+c2 : write // fetch
}
iinc_re { pc = not pc : next iinc }

wfail { opc = opc << 8 : next slow }

# ---- branches ----------------------------------------------------------------

# The conditional branches check the floor, then test the old top while
# the new top is read.  The side in the lower half tests the mark first,
# which costs it a cycle: the taken side for IFEQ and IFLT (loops exit
# through them: the not-taken side runs more often), so IFEQ tests
# N of (TOS or -TOS), negative when TOS is not 0.  H = the taken target
# (PC + s16), or s16 - 1 for H - PC of the marked PC.
ifeq {                                   # PMIC 3 / Mic-1 6 not taken, 4 / 9
    n = sp - g1 // opc = -tos // pc = not pc : next (n) ifeq2;
    opc = c4 : next slow
}
ifeq2 {
    n = tos or opc // mar,sp = sp-one // h = mbr12s - one : read : next (n) ifeq_f;
    n = pc : next (n) ifeq_t;
    mar = -c2 // mdr = c2 : write : next badop
}
ifeq_f { tos = mdr // pc = c2 - pc : fetch }
ifeq_t { tos = mdr // pc = h - pc : fetch }

iflt {                                   # PMIC 3 / Mic-1 6 not taken, 4 / 9
    n = sp - g1 // h = pc + mbr12s // pc = not pc : next (n) iflt2;
    opc = c4 : next slow
}
iflt2 {
    n = not tos // mar,sp = sp-one : read : next (n) iflt_f;
    n = pc : next (n) iflt_t;
    mar = -c2 // mdr = c2 : write : next badop
}
iflt_f { tos = mdr // pc = c2 - pc : fetch }
iflt_t { tos = mdr // pc = h : fetch }

# H = s16 - 1: the taken target is H - PC of the marked PC.
if_icmpeq {                              # PMIC 4 / Mic-1 11 taken, 5 / 8 not
    n = sp - g1 // opc = sp-one // pc = not pc : next (n) icmp1;
    opc = c4 : next slow
}
icmp1 {
    n = opc - g1 // mar = opc // h = mbr12s - one : read : next (n) icmp2;
    opc = c4 : next slow
}
icmp2 {
    z = tos - mdr // mar,sp = sp-c2 : read : next (z) icmp_t;
    n = pc : next (n) icmp_f;
    mar = -c2 // mdr = c2 : write : next badop
}
icmp_t { tos = mdr // pc = h - pc : fetch }
icmp_f { tos = mdr // pc = c2 - pc : fetch }

goto { pc = pc + mbr12s : fetch }                        # PMIC 1 / Mic-1 7

# ---- methods -------------------------------------------------------------------

# INVOKEVIRTUAL u16.  The frame (Tanenbaum's, as ref.c builds it):
#   LV' = SP - nargs + 1 (the OBJREF slot) holds the link pointer
#   link = SP + nlocals + 1 holds the return PC, link + 1 the caller's LV
#   SP' = link + 1, PC' = method + 4; the callee's locals are not cleared.
# The header is read by fetching: from method - 1, MBR12 is nargs; from
# method + 1, MBR12 is nlocals.  The checks come in the ISA's order:
# pool index, method address (>= 0, and header + one byte inside the text:
# the device word -12 = not 11), nargs > 0, SP - nargs >= floor.  PC is
# marked until the header is fetched, SP from then on (invoke6 sets it;
# LV stays the frame's while the instruction runs, for the debugger);
# OPC keeps the return address and TOS the caller's LV, which ends as
# mem[SP'].  The frame cache is cleared for the callee.  PMIC 9 / Mic-1 23
invokevirtual {
    n = mbr12 - cpp // mar = cpp + mbr12 // pc = not pc : read : next (n) invoke2;
    opc = c2 + c5 : next fault
}
invoke2 {
    n = not mdr // opc = c2 - pc // h = c5 + c5 + one : next (n) invoke3;
    opc = c4 + c5 : next fault
}
invoke3 {
    mar = not h // h = mdr + c4 // sp = not sp : read;   # H = method + 4
    n = h - mdr // pc = h - c5 // mar = -sp : fetch : next (n) invoke4;
    h = c4 + c5 : next fault_sp
}
invoke4 {                                                # MAR = SP + 1
    n = -mbr12 // h = mar - mbr12 // mdr = mar - mbr12 : next (n) invoke5;
    h = c5 + c5 : next badargs
}
invoke5 {                                                # H = MDR = LV'
    n = mdr - g1 // pc = pc+c2 // tos = lv : fetch : next (n) invoke6;
    h = c4 : next slow_sp
}
invoke6 {                                        # link = nlocals - not SP
    mdr = mbr12 - sp // mar,lv = h // pc = pc+c3 : write // fetch;
    mar,sp = mdr // mdr = opc // g1 = zero : write;
    mar,sp = sp+one // mdr = tos // g0 = zero : write
}
badargs { h = h + c5 + one : next fault_sp }             # 16

# INVOKEVIRTUAL's faults after the header fetch: SP marked, OPC = the
# return address, H = the code.
fault_sp {
    n = sp : next (n) fault_sp2;
    mar = -c2 // mdr = c2 : write : next badop
}
fault_sp2 {
    sp = not sp // pc = opc - c3 // mdr = h;
    mar = -c2 : write : next badop
}
slow_sp {
    n = sp : next (n) slow_sp2;
    mar = -c2 // mdr = c2 : write : next badop
}
slow_sp2 { sp = not sp // pc = c2 - opc // opc = h : next slow }

# IRETURN: check LV > 0x8000 (not main) before following the link pointer,
# then the floor while the return PC is read and the caller's LV; the
# result (TOS) goes to the old LV, the caller's new top.  G0 = 0 makes the
# caller's first check rebuild the cache (G1 still holds the callee's
# floor, above anything the caller may pop).             PMIC 5 / Mic-1 7
ireturn {
    h = cpp + cpp // mar = lv // pc = not pc : read;
    n = h - lv // mar = mdr // opc = mdr+one : next (n) ireturn3;
    opc = c5 + c5 : next fault
}
ireturn3 {
    n = sp - g1 // h = lv : read : next (n) ireturn4;
    opc = c4 : next slow
}
ireturn4 {
    pc = mdr // mar = opc // g0 = zero : fetch // read;
    lv = mdr // mar,sp = h // mdr = tos : write
}

# ---- shared globals --------------------------------------------------------------

# Globals start at the word the device -10 reads (0x100000).
getstatic {                                              # PMIC 4 / Mic-1 9
    h = c5 + c5;
    mar = -h : read;
    mar = mdr + mbr12 // sp = sp+one // pc = pc+c3 : read // fetch;
    mar = sp // tos = mdr : write
}

putstatic {                                              # PMIC 4 / Mic-1 10
    n = sp - g1 // h = c5 + c5 // pc = not pc : next (n) putstatic2;
    opc = c4 : next slow
}
putstatic2 {
    mar,sp = sp-one // opc = tos : read;
    tos = mdr // mar = -h : read;
    mar = mdr + mbr12 // mdr = opc // pc = c2 - pc : write // fetch
}

# ATOMICADD u16: write the global's address to -8, the value to -9 (the
# device adds atomically), and read the old value back from -9 in the same
# cycle (the read follows the write).                    PMIC 5 / Mic-1 14
atomicadd {
    n = sp - g1 // h = c5 + c5 // pc = not pc : next (n) atomicadd2;
    opc = c4 : next slow
}
atomicadd2 {
    mar = -h // opc = -c4 // h = h-one : read;
    mdr = mdr + mbr12 // mar = opc + opc // h = -h : write;
    mar = h // mdr = tos // pc = c2 - pc : write // read // fetch;
    mar = sp // tos = mdr : write
}

# ---- arrays --------------------------------------------------------------------

# NEWARRAY: the device at -7 allocates (and faults on a negative size or a
# full heap); a read of -7 in the same cycle gives the reference.
newarray {                                               # PMIC 3 / Mic-1 9
    n = sp - g1 // h = c5 + c2 // pc = not pc : next (n) newarray2;
    opc = c4 : next slow
}
newarray2 {
    mar = -h // mdr = tos // pc = -pc : write // read // fetch;
    mar = sp // tos = mdr : write
}

# IALOAD and IASTORE check what the ISA level checks (memmap.h: a
# reference is the address of a tag word, then the length, then the
# elements): the floor, the reference lies in the heap (not below
# 0x200000 = CPP << 8 >> 1); 0 <= index; its tag equals the heap's first
# word (the tag of the first array allocated); index < length.  Reads are
# issued back to back, each right after the check that makes it safe.
# Every check branches to the continuation when its flag is set (ref >=
# base is N of (not ref) + base, index >= 0 is N of not index), so that
# the fall-throughs pmic-cc puts in the lower half are fault reports,
# never the middle of an instruction.  G0 and G1 hold the frame
# cache, so OPC = not ref (ref = not OPC, ref + 1 = -OPC), TOS = index
# once the floor is checked, H the element's address at the end.
iaload {                                                 # PMIC 9 / Mic-1 16
    n = sp - g1 // opc = sp-one // pc = not pc : next (n) iaload2;
    opc = c4 : next slow
}
iaload2 {
    n = opc - g1 // mar = opc // h = cpp << 8 : read : next (n) iaload3;
    opc = c4 : next slow
}
iaload3 {
    opc = not tos // tos = mdr // h = h >> 1;            # H = heap base
    n = opc + h // mar = h : read : next (n) iaload5;
    h = c4 + c4 : next badref
}
iaload5 {
    n = not tos // mar = not opc // h = mdr : read : next (n) iaload6;
    opc = c5 + c5 + one : next fault
}
iaload6 {
    z = mdr - h // mar = -opc // h = tos - opc : read : next (z) iaload7;
    h = c4 + c4 : next badref
}
iaload7 {                                                # MDR = length
    n = tos - mdr : next (n) iaload8;
    opc = c5 + c5 + one : next fault
}
iaload8 {
    mar = h + one // sp = sp-one // pc = -pc : read // fetch;
    mar = sp // tos = mdr : write
}

iastore {                                                # PMIC 10 / Mic-1 17
    n = sp - g1 // opc = sp-one // pc = not pc : next (n) iastore2;
    opc = c4 : next slow
}
iastore2 {
    n = opc - g1 // mar = opc // h = cpp << 8 : read : next (n) iastore3;
    opc = c4 : next slow
}
iastore3 {
    opc = not tos // tos = mdr // mar = sp - c2;
    n = mar - g1 // mar = h >> 1 // h = h >> 1 : read : next (n) iastore4;
    h = c4 : next iastore_f                              # TOS to restore
}
iastore4 {
    n = opc + h // h = mdr : next (n) iastore5;
    h = c4 + c4 : next badref
}
iastore5 {
    n = not tos // mar = not opc : read : next (n) iastore6;
    opc = c5 + c5 + one : next fault
}
iastore6 {
    z = mdr - h // mar = -opc // h = tos - opc : read : next (z) iastore7;
    h = c4 + c4 : next badref
}
iastore7 {                                               # MDR = length
    n = tos - mdr // mar = sp - c2 // h = h + one : read : next (n) iastore8;
    opc = c5 + c5 + one : next fault
}
iastore8 {                                               # MDR = the value
    mar,sp = sp-c3 // opc = mdr // pc = -pc : read // fetch;
    mar = h // mdr = opc // tos = mdr : write
}
iastore_f {
    n = pc : next (n) iastore_f2;
    mar = -c2 // mdr = c2 : write : next badop
}
iastore_f2 { tos = not opc // opc = h : next slow }

# ---- cores ---------------------------------------------------------------------

coreid { mar,sp = sp+one // mdr,tos = sid // pc = pc+one : write // fetch }
                                                         # PMIC 1 / Mic-1 5
ncores {                                                 # PMIC 2 / Mic-1 6
    mar = -c5 // sp = sp+one // pc = pc+one : read // fetch;
    mar = sp // tos = mdr : write
}

# The write to -6 makes the core wait at the next boundary; the machine
# releases it when every running core waits.             PMIC 1 / Mic-1 3
barrier { mar = not c5 // pc = pc+one : write // fetch }

# ---- input, output, stopping --------------------------------------------------------

in {                                                     # PMIC 2 / Mic-1 4
    mar = -c3 // sp = sp+one // pc = pc+one : read // fetch;
    mar = sp // tos = mdr : write
}

out {                                                    # PMIC 3 / Mic-1 6
    n = sp - g1 // pc = not pc : next (n) out2;
    opc = c4 : next slow
}
out2 {
    mar,sp = sp-one // pc = -pc : read // fetch;
    tos = mdr // mar = -c3 // mdr = tos : write
}

err { mar = -c2 // mdr = one : write : next err }       # PMIC 1 / Mic-1 3

# HALT moves PC past itself, as the ISA level does.     PMIC 1 / Mic-1 1
halt { mar = -one // pc = pc+one : write : next halt }

# ---- the frame cache -------------------------------------------------------
#
# G0 = -nlocals and G1 = floor + 1 + 0x80000000 describe the current frame
# (main: nlocals = the word -11, floor = 0x8000 + nlocals - 1; a method:
# link = mem[LV], nlocals = link - LV, floor = link + 1), so that a check
# is one ALU operation on the registers: idx + G0 < 0 (N) for a local,
# x - G1 < 0 (N: the offset turns x - floor - 1 >= 0 into a negative
# number) for x = SP - pops + 1 >= floor + 1.  G0 = G1 = 0, as a core
# starts, fails every check.  A failed check comes here with SP as the
# instruction found it, PC marked (not PC) and the fault code in OPC
# (<< 8 after WIDE): the cache is rebuilt from memory; if it was right,
# the fault is real; if not, the instruction restarts with the new cache
# through its wide slot (refetch, JMPC | 0x100 with H = OPC >> 8: 0
# restarts the narrow form, so the step is not counted twice).  Both ends
# test the mark first: the words up to there only compute into scratch
# registers, and some of them are fall-throughs in the lower half.
# INVOKEVIRTUAL clears the cache, IRETURN clears G0.
slow {
    h = cpp + cpp // mar = lv : read;                    # MDR = mem[LV]
    z = lv - h // mar = mdr // h = c5 + c5 : next (z) slow_m;
    mdr = lv - mar // mar = mar + c2 // h = cpp << 8 : next slow_c
}
slow_m {                                                 # main: H = 10
    mar = not h // h = cpp << 8 : read;                  # MDR = nlocals
    mdr = -mdr // mar = mdr + cpp;
    mar = mar + cpp : next slow_c
}
slow_c {                         # MDR = -nlocals, MAR = floor + 1, H = 0x400000
    h = h << 8;
    h = h + h;
    z = mdr - g0 // mar = mar + h : next (z) slow_c2;
    n = pc // h = opc >> 8 : next (n) slow_new;
    mar = -c2 // mdr = c2 : write : next badop
}
slow_c2 {
    z = mar - g1 : next (z) slow_gen;
    n = pc // h = opc >> 8 : next (n) slow_new2;
    mar = -c2 // mdr = c2 : write : next badop
}
slow_new { g0 = mdr // g1 = mar // pc = not pc : fetch : next wide }
slow_new2 { g0 = mdr // g1 = mar // pc = not pc : fetch : next wide }
slow_gen {                       # the report: OPC >> 8 after WIDE, else OPC
    n = pc // h = opc >> 8 : next (n) slow_gen2;
    mar = -c2 // mdr = c2 : write : next badop
}
slow_gen2 {
    mdr = h << 8 // pc = not pc;
    mdr = opc - mdr;
    mar = -c2 // mdr = mdr + h : write : next badop
}

# ---- faults ------------------------------------------------------------------------

# Each writes its fault code to the error word; the core stops there.  The
# first write stops it: the loops only give the blocks a defined next.
# fault: OPC = the code, PC marked.
fault {
    n = pc : next (n) fault2;
    mar = -c2 // mdr = c2 : write : next badop
}
fault2 { pc = not pc // mar = -c2 // mdr = opc : write : next badop }
badref { opc = h + c5 : next fault }                     # H = 8: 13
badop { mar = -c2 // mdr = c2 : write : next badop }
badwide { mar = -c2 // mdr = c3 : write : next badwide }

# The wide slots of the instructions without a wide form.  WIDE does not
# dispatch to them (it reports "WIDE before ..." itself); those that can
# fail a frame check take the restarts of their narrow form (H = 0) and
# mark PC, so that their lower-half word can report through fault.
wide_nop { mar = -c2 // mdr = c3 : write : next badwide }
wide_bipush { mar = -c2 // mdr = c3 : write : next badwide }
wide_ldc_w { mar = -c2 // mdr = c3 : write : next badwide }
wide_goto { mar = -c2 // mdr = c3 : write : next badwide }
wide_getstatic { mar = -c2 // mdr = c3 : write : next badwide }
wide_wide { mar = -c2 // mdr = c3 : write : next badwide }
wide_gc { mar = -c2 // mdr = c3 : write : next badwide }
wide_coreid { mar = -c2 // mdr = c3 : write : next badwide }
wide_ncores { mar = -c2 // mdr = c3 : write : next badwide }
wide_barrier { mar = -c2 // mdr = c3 : write : next badwide }
wide_in { mar = -c2 // mdr = c3 : write : next badwide }
wide_err { mar = -c2 // mdr = c3 : write : next badwide }
wide_halt { mar = -c2 // mdr = c3 : write : next badwide }
wide_pop { z = h // pc = not pc : next (z) pop_re ; opc = c3 : next fault }
pop_re { pc = not pc : next pop }
wide_dup { z = h // pc = not pc : next (z) dup_re ; opc = c3 : next fault }
dup_re { pc = not pc : next dup }
wide_swap { z = h // pc = not pc : next (z) swap_re ; opc = c3 : next fault }
swap_re { pc = not pc : next swap }
wide_iadd { z = h // pc = not pc : next (z) iadd_re ; opc = c3 : next fault }
iadd_re { pc = not pc : next iadd }
wide_isub { z = h // pc = not pc : next (z) isub_re ; opc = c3 : next fault }
isub_re { pc = not pc : next isub }
wide_iand { z = h // pc = not pc : next (z) iand_re ; opc = c3 : next fault }
iand_re { pc = not pc : next iand }
wide_ior { z = h // pc = not pc : next (z) ior_re ; opc = c3 : next fault }
ior_re { pc = not pc : next ior }
wide_ifeq { z = h // pc = not pc : next (z) ifeq_re ; opc = c3 : next fault }
ifeq_re { pc = not pc : next ifeq }
wide_iflt { z = h // pc = not pc : next (z) iflt_re ; opc = c3 : next fault }
iflt_re { pc = not pc : next iflt }
wide_if_icmpeq { z = h // pc = not pc : next (z) if_icmpeq_re ; opc = c3 : next fault }
if_icmpeq_re { pc = not pc : next if_icmpeq }
wide_ireturn { z = h // pc = not pc : next (z) ireturn_re ; opc = c3 : next fault }
ireturn_re { pc = not pc : next ireturn }
wide_putstatic { z = h // pc = not pc : next (z) putstatic_re ; opc = c3 : next fault }
putstatic_re { pc = not pc : next putstatic }
wide_atomicadd { z = h // pc = not pc : next (z) atomicadd_re ; opc = c3 : next fault }
atomicadd_re { pc = not pc : next atomicadd }
wide_newarray { z = h // pc = not pc : next (z) newarray_re ; opc = c3 : next fault }
newarray_re { pc = not pc : next newarray }
wide_iaload { z = h // pc = not pc : next (z) iaload_re ; opc = c3 : next fault }
iaload_re { pc = not pc : next iaload }
wide_iastore { z = h // pc = not pc : next (z) iastore_re ; opc = c3 : next fault }
iastore_re { pc = not pc : next iastore }
wide_out { z = h // pc = not pc : next (z) out_re ; opc = c3 : next fault }
out_re { pc = not pc : next out }
wide_invokevirtual { z = h // pc = not pc : next (z) invokevirtual_re ; opc = c3 : next fault }
invokevirtual_re { pc = not pc : next invokevirtual }

# ---- Filling the store ----------------------------------------------------
#
# pmic-cc places the words of these two blocks after every other one, each
# at the first free address, upper half first, so that no word is left
# empty: an unknown opcode then reports "unknown opcode", as at the ISA
# level, instead of the machine's "control store word holds no
# micro-instruction" (the other lower-half words are the fall-throughs of
# conditionals, see "Unknown opcodes"); the upper half's report WIDE
# before an instruction without a wide form, though nothing jumps there
# (WIDE dispatches only ILOAD, ISTORE and IINC).  fill_wide has as many
# words as the upper half has free ones, fill_op the lower half's (75 and
# 130 now).  When the microprogram grows, pmic-cc says "control store
# full": remove that many words from fill_op (and move words between the
# two blocks if the upper half's share changes).
fill_wide {
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide;
    mar = -c2 // mdr = c3 : write : next badwide
}
fill_op {
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop;
    mar = -c2 // mdr = c2 : write : next badop
}
