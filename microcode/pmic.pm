# pmic.pm - micdb's PMIC microprogram: the whole IJVM instruction set
# (ijvm.md) and the many-core extensions (manycore.md) on the parallel
# micro-architecture of the Monzali thesis (pmic.md).
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
#   (pmic_enter in src/core/pmic-sim.c); the cache is checked against memory
#   before a fault is reported, so a stale one costs time, not results.
#
# Timing (pmic.md): a memory operation completes in the cycle that starts
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
# Device words (mic1.md section 4) are built from the constant registers:
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
# In the ISA's order (src/core/ref.c), each before anything is written:
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
#   - WIDE before an opcode other than ILOAD, ISTORE, IINC: every other
#     known opcode has a wide_ block reporting it;
#   - unknown opcodes: see below and "Filling the store" at the end.
# A fault path undoes what its cycles changed in SP and PC, so the core
# stops with the registers the ISA level leaves (TOS excepted where an
# instruction had already loaded it).  The machine itself faults on stack
# overflow, memory outside the map and running off the text.
# Not detected as at the ISA level: a corrupted link pointer (frame
# outside the stack region, ISA fault 15) shows as whatever the bad frame
# leads to; unknown opcodes on conditional fall-throughs.
#
# ---- Unknown opcodes 0x01-0x11 -------------------------------------------
#
# pmic-cc places the fall-through of each conditional at an address below
# 0x100 that no known opcode uses, i.e. where an unknown opcode dispatches.
# This chain of conditionals comes first in the file so that its
# fall-throughs, which report "unknown opcode", take 0x01-0x0F and 0x11;
# the conditionals of the instructions below take the next free ones.
# The chain itself never runs from an instruction.  Every conditional of
# the program also needs a fall-through below 0x100, so 77 unknown
# opcodes (tests/pmic-prog.sh lists them) run the fall-through of some
# check, branch or restart instead of reporting "unknown opcode": the
# word cannot tell a dispatch (MBR0 = its address) from the jump of its
# check, and no register holds a value a dispatch could not leave there.
badop01 { n = zero : next (n) badop02 ; mar = -c2 // mdr = c2 : write : next badop }
badop02 { n = zero : next (n) badop03 ; mar = -c2 // mdr = c2 : write : next badop }
badop03 { n = zero : next (n) badop04 ; mar = -c2 // mdr = c2 : write : next badop }
badop04 { n = zero : next (n) badop05 ; mar = -c2 // mdr = c2 : write : next badop }
badop05 { n = zero : next (n) badop06 ; mar = -c2 // mdr = c2 : write : next badop }
badop06 { n = zero : next (n) badop07 ; mar = -c2 // mdr = c2 : write : next badop }
badop07 { n = zero : next (n) badop08 ; mar = -c2 // mdr = c2 : write : next badop }
badop08 { n = zero : next (n) badop09 ; mar = -c2 // mdr = c2 : write : next badop }
badop09 { n = zero : next (n) badop10 ; mar = -c2 // mdr = c2 : write : next badop }
badop10 { n = zero : next (n) badop11 ; mar = -c2 // mdr = c2 : write : next badop }
badop11 { n = zero : next (n) badop12 ; mar = -c2 // mdr = c2 : write : next badop }
badop12 { n = zero : next (n) badop13 ; mar = -c2 // mdr = c2 : write : next badop }
badop13 { n = zero : next (n) badop14 ; mar = -c2 // mdr = c2 : write : next badop }
badop14 { n = zero : next (n) badop15 ; mar = -c2 // mdr = c2 : write : next badop }
badop15 { n = zero : next (n) badop16 ; mar = -c2 // mdr = c2 : write : next badop }
badop16 { n = zero : next (n) badop17 ; mar = -c2 // mdr = c2 : write : next badop }
badop17 { mar = -c2 // mdr = c2 : write : next badop }

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
    n = mbr12 - cpp // mar = cpp + mbr12 : read : next (n) ldc_w2;
    mar = -c2 // mdr = c2 + c5 : write : next badcp
}
ldc_w2 { mar,sp = sp+one // tos = mdr // pc = pc+c3 : write // fetch }

# DUP pops one word in the ISA table (it needs a top), so it checks the
# floor like POP before it pushes.                       PMIC 2 / Mic-1 3
dup {
    n = sp - g1 : next (n) dup2;
    opc = c4 : next slow
}
dup2 { mar,sp = sp+one // mdr = tos // pc = pc+one : write // fetch }

# POP and OUT read the new top only after the floor check, so that an
# empty stack faults as an underflow, not as a read below the region.
pop {                                                    # PMIC 3 / Mic-1 4
    n = sp - g1 : next (n) pop2;
    opc = c4 : next slow
}
pop2 {
    mar,sp = sp-one // pc = pc+one : read // fetch;
    tos = mdr
}

# SWAP: the old second word goes to SP (and TOS), the old top to SP - 1.
#                                                        PMIC 4 / Mic-1 5
swap {
    n = sp - g1 // h = sp-one : next (n) swap1;
    opc = c4 : next slow
}
swap1 {
    n = h - g1 // mar = h // opc = tos : read : next (n) swap2;
    opc = c4 : next slow
}
swap2 {
    mar = sp // mdr,tos = mdr // pc = pc+one : write // fetch;
    mar = sp-one // mdr = opc : write
}

# The two-operand ALU instructions: SP - 1 >= floor first (which makes the
# read of SP - 1 safe), then SP - 2 >= floor with that read.
#                                                        PMIC 3 / Mic-1 4
iadd {
    n = sp - g1 // h = sp-one : next (n) iadd2;
    opc = c4 : next slow
}
iadd2 {
    n = h - g1 // mar,sp = h // pc = pc+one : read // fetch : next (n) iadd3;
    sp = sp+one // pc = pc-one // opc = c4 : next slow
}
iadd3 { mdr,tos = mdr+tos : write }

isub {
    n = sp - g1 // h = sp-one : next (n) isub2;
    opc = c4 : next slow
}
isub2 {
    n = h - g1 // mar,sp = h // pc = pc+one : read // fetch : next (n) isub3;
    sp = sp+one // pc = pc-one // opc = c4 : next slow
}
isub3 { mdr,tos = mdr-tos : write }

iand {
    n = sp - g1 // h = sp-one : next (n) iand2;
    opc = c4 : next slow
}
iand2 {
    n = h - g1 // mar,sp = h // pc = pc+one : read // fetch : next (n) iand3;
    sp = sp+one // pc = pc-one // opc = c4 : next slow
}
iand3 { mdr,tos = mdr and tos : write }

ior {
    n = sp - g1 // h = sp-one : next (n) ior2;
    opc = c4 : next slow
}
ior2 {
    n = h - g1 // mar,sp = h // pc = pc+one : read // fetch : next (n) ior3;
    sp = sp+one // pc = pc-one // opc = c4 : next slow
}
ior3 { mdr,tos = mdr or tos : write }

# ---- local variables -------------------------------------------------------

# The index is checked against G0 (-nlocals) before the local is read, so
# that a bad index faults as such, never as a read outside the region.
iload {                                                  # PMIC 3 / Mic-1 6
    n = mbr1 + g0 // h = lv + mbr1 : next (n) iload2;
    opc = c4 + c4 : next slow
}
iload2 {
    mar = h // sp = sp+one // pc = pc+c2 : read // fetch;
    mar = sp // tos = mdr : write
}

# ISTORE: the floor (the ISA checks the pop first), then the index with the
# read of the new top; the local's address waits in H.   PMIC 3 / Mic-1 7
istore {
    n = sp - g1 // h = lv + mbr1 : next (n) istore2;
    opc = c4 : next slow
}
istore2 {
    n = mbr1 + g0 // mar,sp = sp-one // pc = pc+c2 : read // fetch : next (n) istore3;
    sp = sp+one // pc = pc-c2 // opc = c4 + c4 : next slow
}
istore3 { tos = mdr // mar = h // mdr = tos : write }

# IINC: the constant is a signed byte and only MBR1 has a signed view, so
# fetch from PC + 1 (MBR1 then holds the constant).      PMIC 3 / Mic-1 7
iinc {
    n = mbr1 + g0 // mar = lv + mbr1 : next (n) iinc2;
    opc = c4 + c4 : next slow
}
iinc2 {
    pc = pc+one : fetch // read;
    mdr = mdr + mbr1s // pc = pc+c2 : write // fetch
}

# WIDE: fetch the next opcode and dispatch on its wide form (0x100 + op);
# H = 1 tells a wide block that WIDE, not a restart (see "slow"), got
# there.  The wide forms take a u16 index (MBR12 after the fetch from
# PC + 1).                                               PMIC 1 / Mic-1 2
wide { pc = pc+one // h = one : fetch : next wide }

# A restart of the narrow form (H = 0) also lands here.  Fault paths keep
# PC at the opcode after the prefix and mark the code (<< 8) as wide.
wide_iload {                                     # PMIC 1+4 / Mic-1 9
    z = h : next (z) iload_re;
    n = mbr12 + g0 // h = lv + mbr12 : next (n) wide_iload2;
    opc = c4 + c4 : next wfail
}
wide_iload2 {
    mar = h // sp = sp+one // pc = pc+c3 : read // fetch;
    mar = sp // tos = mdr : write
}
iload_re { h = h : next iload }

wide_istore {                                    # PMIC 1+4 / Mic-1 10
    z = h : next (z) istore_re;
    n = sp - g1 // h = lv + mbr12 : next (n) wide_istore2;
    opc = c4 << 8 : next slow
}
wide_istore2 {
    n = mbr12 + g0 // mar,sp = sp-one // pc = pc+c3 : read // fetch : next (n) wide_istore3;
    sp = sp+one // pc = pc-c3 // opc = c4 + c4 : next wfail
}
wide_istore3 { tos = mdr // mar = h // mdr = tos : write }
istore_re { h = h : next istore }

# WIDE IINC: the constant stays one byte; fetch from its byte - 1 so that
# MBR1S is the constant.                                 PMIC 1+4 / Mic-1 10
wide_iinc {
    z = h : next (z) iinc_re;
    n = mbr12 + g0 // mar = lv + mbr12 : next (n) wide_iinc2;
    opc = c4 + c4 : next wfail
}
wide_iinc2 {
    pc = pc+c2 : fetch // read;
    mdr = mdr + mbr1s // pc = pc+c2 : write // fetch
}
iinc_re { h = h : next iinc }

wfail { opc = opc << 8 : next slow }

# ---- branches ----------------------------------------------------------------

# The conditional branches check the floor while the taken target
# (PC + s16) goes to H, then test the old top while the new top is read.
ifeq {                                           # PMIC 3 / Mic-1 9 taken, 6 not
    n = sp - g1 // h = pc + mbr12s : next (n) ifeq2;
    opc = c4 : next slow
}
ifeq2 {
    z = tos // mar,sp = sp-one : read : next (z) ifeq_t;
    tos = mdr // pc = pc+c3 : fetch
}
ifeq_t { tos = mdr // pc = h : fetch }

iflt {                                           # PMIC 3 / Mic-1 9 taken, 6 not
    n = sp - g1 // h = pc + mbr12s : next (n) iflt2;
    opc = c4 : next slow
}
iflt2 {
    n = tos // mar,sp = sp-one : read : next (n) iflt_t;
    tos = mdr // pc = pc+c3 : fetch
}
iflt_t { tos = mdr // pc = h : fetch }

if_icmpeq {                                      # PMIC 4 / Mic-1 11 taken, 8 not
    n = sp - g1 // h = pc + mbr12s // opc = sp-one : next (n) icmp1;
    opc = c4 : next slow
}
icmp1 {
    n = opc - g1 // mar = opc : read : next (n) icmp2;
    opc = c4 : next slow
}
icmp2 {
    z = tos - mdr // mar,sp = sp-c2 : read : next (z) icmp_t;
    tos = mdr // pc = pc+c3 : fetch
}
icmp_t { tos = mdr // pc = h : fetch }

goto { pc = pc + mbr12s : fetch }                        # PMIC 1 / Mic-1 7

# ---- methods -------------------------------------------------------------------

# INVOKEVIRTUAL u16.  The frame (Tanenbaum's, as ref.c builds it):
#   LV' = SP - nargs + 1 (the OBJREF slot) holds the link pointer
#   link = SP + nlocals + 1 holds the return PC, link + 1 the caller's LV
#   SP' = link + 1, PC' = method + 4; the callee's locals are not cleared.
# The header is read by fetching: from method - 1, MBR12 is nargs; from
# method + 1, MBR12 is nlocals.  The checks come in the ISA's order:
# pool index, method address (>= 0, and header + one byte inside the text:
# the device word -12 = not 11), nargs > 0, SP - nargs >= floor.  OPC keeps
# the return address and TOS the caller's LV, which ends as mem[SP'].  The
# frame cache is cleared for the callee.                 PMIC 9 / Mic-1 23
invokevirtual {
    n = mbr12 - cpp // mar = cpp + mbr12 // opc = pc+c3 : read : next (n) invoke2;
    mar = -c2 // mdr = c2 + c5 : write : next badcp
}
invoke2 {
    n = not mdr // pc = mdr-one // h = c5 + c5 + one : fetch : next (n) invoke3;
    pc = opc-c3 : next badmethod
}
invoke3 {
    mar = not h // h = pc + c5 : read;                   # H = method + 4
    n = h - mdr // mar = sp+one // tos = lv : next (n) invoke4;
    pc = opc-c3 : next badmethod
}
invoke4 {
    n = -mbr12 // h = sp - mbr12 // mdr = mar - mbr12 : next (n) invoke5;
    h = c5 + c5 // pc = opc-c3 : next badargs
}
invoke5 {
    n = mdr - g1 // pc = pc+c2 : fetch : next (n) invoke6;
    pc = opc-c3 // opc = c4 : next slow
}
invoke6 {
    mdr = sp + mbr12 + one // mar,lv = h+one // pc = pc+c3 : write // fetch;
    mar,sp = mdr // mdr = opc // g1 = zero : write;
    mar,sp = sp+one // mdr = tos // g0 = zero : write
}

# IRETURN: check LV > 0x8000 (not main) before following the link pointer,
# then the floor while the return PC is read and the caller's LV; the
# result (TOS) goes to the old LV, the caller's new top.  G0 = 0 makes the
# caller's first check rebuild the cache (G1 still holds the callee's
# floor, above anything the caller may pop).             PMIC 5 / Mic-1 7
ireturn {
    h = cpp + cpp // mar = lv : read;
    n = h - lv // mar = mdr // opc = mdr+one : next (n) ireturn3;
    mar = -c2 // mdr = c5 + c5 : write : next retmain
}
ireturn3 {
    n = sp - g1 // sp = lv // h = sp : read : next (n) ireturn4;
    sp = h // opc = c4 : next slow
}
ireturn4 {
    pc = mdr // mar = opc // g0 = zero : fetch // read;
    lv = mdr // mar = sp // mdr = tos : write
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
    n = sp - g1 // h = c5 + c5 : next (n) putstatic2;
    opc = c4 : next slow
}
putstatic2 {
    mar,sp = sp-one // opc = tos : read;
    tos = mdr // mar = -h : read;
    mar = mdr + mbr12 // mdr = opc // pc = pc+c3 : write // fetch
}

# ATOMICADD u16: write the global's address to -8, the value to -9 (the
# device adds atomically), and read the old value back from -9 in the same
# cycle (the read follows the write).                    PMIC 5 / Mic-1 14
atomicadd {
    n = sp - g1 // h = c5 + c5 // opc = c4 + c4 : next (n) atomicadd2;
    opc = c4 : next slow
}
atomicadd2 {
    mar = -h // opc = -opc // h = h-one : read;
    mdr = mdr + mbr12 // mar = opc // h = -h : write;
    mar = h // mdr = tos // pc = pc+c3 : write // read // fetch;
    mar = sp // tos = mdr : write
}

# ---- arrays --------------------------------------------------------------------

# NEWARRAY: the device at -7 allocates (and faults on a negative size or a
# full heap); a read of -7 in the same cycle gives the reference.
newarray {                                               # PMIC 3 / Mic-1 9
    n = sp - g1 // h = c5 + c2 // pc = pc+one : fetch : next (n) newarray2;
    pc = pc-one // opc = c4 : next slow
}
newarray2 {
    mar = -h // mdr = tos : write // read;
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
# the fall-throughs pmic-cc puts where unknown opcodes dispatch are fault
# reports, never the middle of an instruction.  G0 and G1 hold the frame
# cache, so OPC = not ref (ref = not OPC, ref + 1 = -OPC), TOS = index
# once the floor is checked, H the element's address at the end.
iaload {                                                 # PMIC 9 / Mic-1 16
    n = sp - g1 // h = cpp << 8 // opc = sp-one : next (n) iaload2;
    opc = c4 : next slow
}
iaload2 {
    n = opc - g1 // mar = opc // h = h >> 1 : read : next (n) iaload3;
    opc = c4 : next slow
}
iaload3 {
    opc = not tos // tos = mdr;                          # H = heap base
    n = opc + h // mar = h : read : next (n) iaload5;
    h = c4 + c4 : next badref
}
iaload5 {
    n = not tos // mar = not opc // h = mdr : read : next (n) iaload6;
    mar = -c2 // mdr = c5 + c5 + one : write : next badbounds
}
iaload6 {
    z = mdr - h // mar = -opc // h = tos - opc : read : next (z) iaload7;
    h = c4 + c4 : next badref
}
iaload7 {                                                # MDR = length
    n = tos - mdr // sp = sp-one // pc = pc+one : fetch : next (n) iaload8;
    sp = sp+one // pc = pc-one : next badbounds
}
iaload8 {
    mar = h + one : read;
    mar = sp // tos = mdr : write
}

iastore {                                                # PMIC 10 / Mic-1 17
    n = sp - g1 // h = cpp << 8 // opc = sp-one : next (n) iastore2;
    opc = c4 : next slow
}
iastore2 {
    n = opc - g1 // mar = opc // h = h >> 1 : read : next (n) iastore3;
    opc = c4 : next slow
}
iastore3 {
    opc = not tos // tos = mdr // mar = sp - c2;
    n = mar - g1 // mar = h : read : next (n) iastore4;
    tos = not opc // opc = c4 : next slow
}
iastore4 {
    n = opc + h // h = mdr : next (n) iastore5;
    h = c4 + c4 : next badref
}
iastore5 {
    n = not tos // mar = not opc : read : next (n) iastore6;
    mar = -c2 // mdr = c5 + c5 + one : write : next badbounds
}
iastore6 {
    z = mdr - h // mar = -opc // h = tos - opc : read : next (z) iastore7;
    h = c4 + c4 : next badref
}
iastore7 {                                               # MDR = length
    n = tos - mdr // mar = sp - c2 // h = h + one : read : next (n) iastore8;
    mar = -c2 // mdr = c5 + c5 + one : write : next badbounds
}
iastore8 {                                               # MDR = the value
    mar,sp = sp-c3 // opc = mdr // pc = pc+one : read // fetch;
    mar = h // mdr = opc // tos = mdr : write
}

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
    n = sp - g1 : next (n) out2;
    opc = c4 : next slow
}
out2 {
    mar,sp = sp-one // pc = pc+one : read // fetch;
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
# starts, fails every check.  A failed check comes here with SP and PC as
# the instruction found them and the fault code in OPC (<< 8 after WIDE):
# the cache is rebuilt from memory; if it was right, the fault is real;
# if not, the instruction restarts with the new cache through its wide
# slot (refetch, JMPC | 0x100 with H = OPC >> 8: 0 restarts the narrow
# form, so the step is not counted twice).  INVOKEVIRTUAL clears the
# cache, IRETURN clears G0.
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
    g0 = mdr // g1 = mar // h = opc >> 8 : fetch : next wide
}
slow_c2 {
    z = mar - g1 : next (z) slow_gen;
    g0 = mdr // g1 = mar // h = opc >> 8 : fetch : next wide
}
slow_gen {
    h = opc >> 8;
    z = h : next (z) slow_gen2;
    mar = -c2 // mdr = h : write : next badop
}
slow_gen2 { mar = -c2 // mdr = opc : write : next badop }

# ---- faults ------------------------------------------------------------------------

# Each writes its fault code to the error word; the core stops there.  The
# first write stops it: the loops only give the blocks a defined next.
badop { mar = -c2 // mdr = c2 : write : next badop }
badwide { mar = -c2 // mdr = c3 : write : next badwide }
badcp { mar = -c2 // mdr = c2 + c5 : write : next badcp }
badmethod { mar = -c2 // mdr = c4 + c5 : write : next badmethod }
retmain { mar = -c2 // mdr = c5 + c5 : write : next retmain }
badbounds { mar = -c2 // mdr = c5 + c5 + one : write : next badbounds }
badref { mar = -c2 // mdr = h + c5 : write : next badref }    # H = 8: 13
badargs { mar = -c2 // mdr = h + c5 + one : write : next badargs } # H = 10: 16

# WIDE before an instruction without a wide form.  Those that can fail a
# frame check also take the restarts of their narrow form (H = 0).
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
wide_pop { z = h : next (z) pop_re ; mar = -c2 // mdr = c3 : write : next badwide }
pop_re { h = h : next pop }
wide_dup { z = h : next (z) dup_re ; mar = -c2 // mdr = c3 : write : next badwide }
dup_re { h = h : next dup }
wide_swap { z = h : next (z) swap_re ; mar = -c2 // mdr = c3 : write : next badwide }
swap_re { h = h : next swap }
wide_iadd { z = h : next (z) iadd_re ; mar = -c2 // mdr = c3 : write : next badwide }
iadd_re { h = h : next iadd }
wide_isub { z = h : next (z) isub_re ; mar = -c2 // mdr = c3 : write : next badwide }
isub_re { h = h : next isub }
wide_iand { z = h : next (z) iand_re ; mar = -c2 // mdr = c3 : write : next badwide }
iand_re { h = h : next iand }
wide_ior { z = h : next (z) ior_re ; mar = -c2 // mdr = c3 : write : next badwide }
ior_re { h = h : next ior }
wide_ifeq { z = h : next (z) ifeq_re ; mar = -c2 // mdr = c3 : write : next badwide }
ifeq_re { h = h : next ifeq }
wide_iflt { z = h : next (z) iflt_re ; mar = -c2 // mdr = c3 : write : next badwide }
iflt_re { h = h : next iflt }
wide_if_icmpeq { z = h : next (z) if_icmpeq_re ; mar = -c2 // mdr = c3 : write : next badwide }
if_icmpeq_re { h = h : next if_icmpeq }
wide_ireturn { z = h : next (z) ireturn_re ; mar = -c2 // mdr = c3 : write : next badwide }
ireturn_re { h = h : next ireturn }
wide_putstatic { z = h : next (z) putstatic_re ; mar = -c2 // mdr = c3 : write : next badwide }
putstatic_re { h = h : next putstatic }
wide_atomicadd { z = h : next (z) atomicadd_re ; mar = -c2 // mdr = c3 : write : next badwide }
atomicadd_re { h = h : next atomicadd }
wide_newarray { z = h : next (z) newarray_re ; mar = -c2 // mdr = c3 : write : next badwide }
newarray_re { h = h : next newarray }
wide_iaload { z = h : next (z) iaload_re ; mar = -c2 // mdr = c3 : write : next badwide }
iaload_re { h = h : next iaload }
wide_iastore { z = h : next (z) iastore_re ; mar = -c2 // mdr = c3 : write : next badwide }
iastore_re { h = h : next iastore }
wide_out { z = h : next (z) out_re ; mar = -c2 // mdr = c3 : write : next badwide }
out_re { h = h : next out }
wide_invokevirtual { z = h : next (z) invokevirtual_re ; mar = -c2 // mdr = c3 : write : next badwide }
invokevirtual_re { h = h : next invokevirtual }

# ---- Filling the store ----------------------------------------------------
#
# pmic-cc places the words of these two blocks after every other one, each
# at the first free address, upper half first, so that no word is left
# empty: WIDE before an unknown opcode (0x100 + op) then reports "WIDE
# before an instruction other than ILOAD, ISTORE or IINC" and an unknown
# opcode "unknown opcode", as at the ISA level, instead of the machine's
# "control store word holds no micro-instruction".  Only the lower-half
# fall-throughs of conditionals (listed by pmic-cc -l) are not fillers;
# the chain at the top keeps 0x01-0x0F and 0x11 among the fillers' kind.
# fill_wide has as many words as the upper half has free ones, fill_op the
# lower half's (84 and 129 now).  When the microprogram grows, pmic-cc
# says "control store full": remove that many words from fill_op (and
# move words between the two blocks if the upper half's share changes).
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
    mar = -c2 // mdr = c2 : write : next badop
}
