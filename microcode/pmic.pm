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
#   LV  = local 0, CPP = 0x4000.  H, OPC, G0, G1, MAR, MDR are scratch:
#   nothing may assume a value left in them by an earlier instruction (a
#   switch from another level enters at any boundary).
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
#   4 operand-stack underflow, 7 constant-pool index, 9 method address,
#   10 IRETURN from main, 11 array index out of bounds, 13 not an array
#   reference, 16 method with nargs 0.
# Checks that cost no cycle are made (a conditional in a cycle that is not
# the last one of its instruction replaces a plain "next"):
#   - underflow: instructions of two or more cycles that pop check SP > LV
#     first (POP, OUT, IADD, ISUB, IAND, IOR, SWAP, IF_ICMPEQ, PUTSTATIC,
#     ATOMICADD, NEWARRAY, IALOAD, IASTORE), and IADD, ISUB, IAND, IOR
#     also SP - 1 > LV (one more cycle, so that programs/faults/
#     underflow.jas faults here as at the ISA level).  That is the ISA's
#     check when main has one local; in methods and in a main with more
#     locals the floor is higher and only this much is checked.  DUP,
#     ISTORE, IFEQ and IFLT, whose cycles are all used, are not checked.
#     A fault path first undoes what its cycle changed in SP and PC, so the
#     core stops with the registers the ISA level leaves;
#   - IRETURN in main (LV = 0x8000) before anything is read through the
#     link pointer;
#   - LDC_W / INVOKEVIRTUAL index >= 0x4000 (past the pool, as mic1.mal),
#     a negative method address, nargs 0;
#   - arrays: the reference lies in the heap, its tag equals the heap's
#     first word (the first array's tag), 0 <= index < length;
#   - WIDE before an opcode other than ILOAD, ISTORE, IINC: every other
#     known opcode has a wide_ block reporting it;
#   - unknown opcodes: see "Filling the store" at the end.
# Not checked (no frame size at hand without extra reads): local variable
# indices, method addresses past the text.  The machine itself faults on
# stack overflow, memory outside the map and running off the text.
#
# ---- Unknown opcodes 0x01-0x11 -------------------------------------------
#
# pmic-cc places the fall-through of each conditional at an address below
# 0x100 that no known opcode uses, i.e. where an unknown opcode dispatches.
# This chain of conditionals comes first in the file so that its
# fall-throughs, which report "unknown opcode", take 0x01-0x0F and 0x11;
# the conditionals of the instructions below take the next free ones.
# The chain itself never runs from an instruction.
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

dup { mar,sp = sp+one // mdr = tos // pc = pc+one : write // fetch }
                                                         # PMIC 1 / Mic-1 3

# POP and OUT read the new top only after checking SP > LV, so that an
# empty stack faults as an underflow, not as a read below the region.
pop {                                                    # PMIC 3 / Mic-1 4
    n = lv - sp : next (n) pop2;
    mar = -c2 // mdr = c4 : write : next underflow
}
pop2 {
    mar,sp = sp-one // pc = pc+one : read // fetch;
    tos = mdr
}

# SWAP: the old second word goes to SP (and TOS), the old top to SP - 1.
#                                                        PMIC 3 / Mic-1 5
swap {
    n = lv - sp // mar = sp-one // h = tos : read : next (n) swap2;
    mar = -c2 // mdr = c4 : write : next underflow
}
swap2 {
    mar = sp // mdr,tos = mdr // pc = pc+one : write // fetch;
    mar = sp-one // mdr = h : write
}

# The two-operand ALU instructions: pop, read the new top, combine with TOS.
# Two checks: SP > LV, then SP - 1 > LV with the read of SP - 1 (which
# the first check made safe), the ISA's check for main with one local:
# IADD on a one-word stack faults (programs/faults/underflow.jas) and an
# empty stack faults as an underflow, not as a read below the stack
# region.  The checks cost one cycle.                    PMIC 3 / Mic-1 4
iadd {
    n = lv - sp // h = sp-one : next (n) iadd2;
    mar = -c2 // mdr = c4 : write : next underflow
}
iadd2 {
    n = lv - h // mar,sp = h // pc = pc+one : read // fetch : next (n) iadd3;
    sp = sp+one // pc = pc-one : next underflow
}
iadd3 { mdr,tos = mdr+tos : write }

isub {
    n = lv - sp // h = sp-one : next (n) isub2;
    mar = -c2 // mdr = c4 : write : next underflow
}
isub2 {
    n = lv - h // mar,sp = h // pc = pc+one : read // fetch : next (n) isub3;
    sp = sp+one // pc = pc-one : next underflow
}
isub3 { mdr,tos = mdr-tos : write }

iand {
    n = lv - sp // h = sp-one : next (n) iand2;
    mar = -c2 // mdr = c4 : write : next underflow
}
iand2 {
    n = lv - h // mar,sp = h // pc = pc+one : read // fetch : next (n) iand3;
    sp = sp+one // pc = pc-one : next underflow
}
iand3 { mdr,tos = mdr and tos : write }

ior {
    n = lv - sp // h = sp-one : next (n) ior2;
    mar = -c2 // mdr = c4 : write : next underflow
}
ior2 {
    n = lv - h // mar,sp = h // pc = pc+one : read // fetch : next (n) ior3;
    sp = sp+one // pc = pc-one : next underflow
}
ior3 { mdr,tos = mdr or tos : write }

# ---- local variables -------------------------------------------------------

iload {                                                  # PMIC 2 / Mic-1 6
    mar = lv + mbr1 // sp = sp+one // pc = pc+c2 : read // fetch;
    mar = sp // tos = mdr : write
}

# ISTORE: read the new top first (MAR serves one address per cycle), keep
# the local's address in H, then store the old top while TOS takes the new.
istore {                                                 # PMIC 2 / Mic-1 7
    mar,sp = sp-one // h = lv + mbr1 // pc = pc+c2 : read // fetch;
    tos = mdr // mar = h // mdr = tos : write
}

# IINC: the constant is a signed byte and only MBR1 has a signed view, so
# fetch from PC + 1 (MBR1 then holds the constant).      PMIC 2 / Mic-1 7
iinc {
    pc = pc+one // mar = lv + mbr1 : fetch // read;
    mdr = mdr + mbr1s // pc = pc+c2 : write // fetch
}

# WIDE: fetch the next opcode and dispatch on its wide form (0x100 + op).
# The wide forms take a u16 index (MBR12 after the fetch from PC + 1).
wide { pc = pc+one : fetch : next wide }                 # PMIC 1 / Mic-1 2

wide_iload {                                     # PMIC 1+2 / Mic-1 9
    mar = lv + mbr12 // sp = sp+one // pc = pc+c3 : read // fetch;
    mar = sp // tos = mdr : write
}
wide_istore {                                    # PMIC 1+2 / Mic-1 10
    mar,sp = sp-one // h = lv + mbr12 // pc = pc+c3 : read // fetch;
    tos = mdr // mar = h // mdr = tos : write
}
# WIDE IINC: the constant stays one byte; fetch from its byte - 1 so that
# MBR1S is the constant.                                 PMIC 1+2 / Mic-1 10
wide_iinc {
    pc = pc+c2 // mar = lv + mbr12 : fetch // read;
    mdr = mdr + mbr1s // pc = pc+c2 : write // fetch
}

# ---- branches ----------------------------------------------------------------

# The conditional branches test the old top while the new top is read and
# the taken target (PC + s16) is kept in H; both ways take one more cycle.
ifeq {                                           # PMIC 2 / Mic-1 9 taken, 6 not
    z = tos // mar,sp = sp-one // h = pc + mbr12s : read : next (z) ifeq_t;
    tos = mdr // pc = pc+c3 : fetch
}
ifeq_t { tos = mdr // pc = h : fetch }

iflt {                                           # PMIC 2 / Mic-1 9 taken, 6 not
    n = tos // mar,sp = sp-one // h = pc + mbr12s : read : next (n) iflt_t;
    tos = mdr // pc = pc+c3 : fetch
}
iflt_t { tos = mdr // pc = h : fetch }

if_icmpeq {                                      # PMIC 3 / Mic-1 11 taken, 8 not
    n = lv - sp // mar = sp-one // h = pc + mbr12s : read : next (n) icmp2;
    mar = -c2 // mdr = c4 : write : next underflow
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
# method + 1, MBR12 is nlocals.  OPC keeps the return address and TOS the
# caller's LV, which ends as mem[SP'].                   PMIC 6 / Mic-1 23
invokevirtual {
    n = mbr12 - cpp // mar = cpp + mbr12 // opc = pc+c3 : read : next (n) invoke2;
    mar = -c2 // mdr = c2 + c5 : write : next badcp
}
invoke2 {
    n = not mdr // pc = mdr-one // tos = lv : fetch : next (n) invoke3;
    pc = opc-c3 : next badmethod
}
invoke3 {
    n = -mbr12 // h = sp - mbr12 // pc = pc+c2 : fetch : next (n) invoke4;
    h = c5 + c5 // pc = opc-c3 : next badargs
}
invoke4 {
    mdr = sp + mbr12 + one // mar,lv = h+one // pc = pc+c3 : write // fetch;
    mar,sp = mdr // mdr = opc // h = mdr+one : write;
    mar,sp = h // mdr = tos : write
}

# IRETURN: check LV > 0x8000 (not main) before following the link pointer,
# then read the return PC and the caller's LV; the result (TOS) goes to the
# old LV, the caller's new top.                          PMIC 5 / Mic-1 7
ireturn {
    h = cpp + cpp // mar = lv : read;
    n = h - lv // mar = mdr // opc = mdr+one : next (n) ireturn3;
    mar = -c2 // mdr = c5 + c5 : write : next retmain
}
ireturn3 {
    sp = lv : read;
    pc = mdr // mar = opc : fetch // read;
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

putstatic {                                              # PMIC 3 / Mic-1 10
    n = lv - sp // mar,sp = sp-one // h = c5 + c5 : read : next (n) putstatic2;
    sp = sp+one : next underflow
}
putstatic2 {
    tos = mdr // opc = tos // mar = -h : read;
    mar = mdr + mbr12 // mdr = opc // pc = pc+c3 : write // fetch
}

# ATOMICADD u16: write the global's address to -8, the value to -9 (the
# device adds atomically), and read the old value back from -9 in the same
# cycle (the read follows the write).                    PMIC 5 / Mic-1 14
atomicadd {
    n = lv - sp // h = c5 + c5 // opc = c4 + c4 : next (n) atomicadd2;
    mar = -c2 // mdr = c4 : write : next underflow
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
    n = lv - sp // h = c5 + c2 // pc = pc+one : fetch : next (n) newarray2;
    pc = pc-one : next underflow
}
newarray2 {
    mar = -h // mdr = tos : write // read;
    mar = sp // tos = mdr : write
}

# IALOAD and IASTORE check what the ISA level checks (memmap.h: a
# reference is the address of a tag word, then the length, then the
# elements): the reference lies in the heap (not below 0x200000 =
# CPP << 8 >> 1); its tag equals the heap's first word (the tag of the
# first array allocated); 0 <= index < length.  A negative index is
# reported before a bad tag (the ISA level names the tag first).
# Reads are issued back to back, one per cycle, each right after the check
# that makes it safe.  Every check branches to the continuation when its
# flag is set (ref >= base is N of (not ref) + base, index >= 0 is N of
# not index), so that the fall-throughs pmic-cc puts where unknown opcodes
# dispatch are fault reports, never the middle of an instruction.
# G0 = index, G1 = ref + 1, OPC = not ref, then the element's address.
iaload {                                                 # PMIC 8 / Mic-1 16
    n = lv - sp // mar = sp-one // h = cpp << 8 : read : next (n) iaload2;
    mar = -c2 // mdr = c4 : write : next underflow
}
iaload2 {
    h = h >> 1 // g0 = mdr // opc = not tos;             # H = heap base
    n = opc + h // mar = h // g1 = tos+one : read : next (n) iaload4;
    h = c4 + c4 : next badref
}
iaload4 {
    n = not g0 // mar = tos // h = mdr : read : next (n) iaload5;
    mar = -c2 // mdr = c5 + c5 + one : write : next badbounds
}
iaload5 {
    z = mdr - h // mar = g1 // opc = g1 + g0 + one : read : next (z) iaload6;
    h = c4 + c4 : next badref
}
iaload6 {                                                # MDR = length
    n = g0 - mdr // sp = sp-one // pc = pc+one : fetch : next (n) iaload7;
    sp = sp+one // pc = pc-one : next badbounds
}
iaload7 {
    mar = opc : read;
    mar = sp // tos = mdr : write
}

iastore {                                                # PMIC 8 / Mic-1 17
    n = lv - sp // mar = sp-one // h = cpp << 8 : read : next (n) iastore2;
    mar = -c2 // mdr = c4 : write : next underflow
}
iastore2 {
    h = h >> 1 // g0 = mdr // opc = not tos;
    n = opc + h // mar = h // g1 = tos+one : read : next (n) iastore4;
    h = c4 + c4 : next badref
}
iastore4 {
    n = not g0 // mar = tos // h = mdr : read : next (n) iastore5;
    mar = -c2 // mdr = c5 + c5 + one : write : next badbounds
}
iastore5 {
    z = mdr - h // mar = g1 // opc = g1 + g0 + one : read : next (z) iastore6;
    h = c4 + c4 : next badref
}
iastore6 {                                               # MDR = length
    n = g0 - mdr // mar = sp-c2 : read : next (n) iastore7;
    mar = -c2 // mdr = c5 + c5 + one : write : next badbounds
}
iastore7 {                                               # MDR = the value
    mar,sp = sp-c3 // g1 = mdr // pc = pc+one : read // fetch;
    mar = opc // mdr = g1 // tos = mdr : write
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
    n = lv - sp : next (n) out2;
    mar = -c2 // mdr = c4 : write : next underflow
}
out2 {
    mar,sp = sp-one // pc = pc+one : read // fetch;
    tos = mdr // mar = -c3 // mdr = tos : write
}

err { mar = -c2 // mdr = one : write : next err }       # PMIC 1 / Mic-1 3

# HALT moves PC past itself, as the ISA level does.     PMIC 1 / Mic-1 1
halt { mar = -one // pc = pc+one : write : next halt }

# ---- faults ------------------------------------------------------------------------

# Each writes its fault code to the error word; the core stops there.  The
# first write stops it: the loops only give the blocks a defined next.
badop { mar = -c2 // mdr = c2 : write : next badop }
badwide { mar = -c2 // mdr = c3 : write : next badwide }
underflow { mar = -c2 // mdr = c4 : write : next underflow }
badcp { mar = -c2 // mdr = c2 + c5 : write : next badcp }
badmethod { mar = -c2 // mdr = c4 + c5 : write : next badmethod }
retmain { mar = -c2 // mdr = c5 + c5 : write : next retmain }
badbounds { mar = -c2 // mdr = c5 + c5 + one : write : next badbounds }
badref { mar = -c2 // mdr = h + c5 : write : next badref }    # H = 8: 13
badargs { mar = -c2 // mdr = h + c5 + one : write : next badargs } # H = 10: 16

# WIDE before an instruction without a wide form.
wide_nop { mar = -c2 // mdr = c3 : write : next badwide }
wide_bipush { mar = -c2 // mdr = c3 : write : next badwide }
wide_ldc_w { mar = -c2 // mdr = c3 : write : next badwide }
wide_pop { mar = -c2 // mdr = c3 : write : next badwide }
wide_dup { mar = -c2 // mdr = c3 : write : next badwide }
wide_swap { mar = -c2 // mdr = c3 : write : next badwide }
wide_iadd { mar = -c2 // mdr = c3 : write : next badwide }
wide_isub { mar = -c2 // mdr = c3 : write : next badwide }
wide_iand { mar = -c2 // mdr = c3 : write : next badwide }
wide_ifeq { mar = -c2 // mdr = c3 : write : next badwide }
wide_iflt { mar = -c2 // mdr = c3 : write : next badwide }
wide_if_icmpeq { mar = -c2 // mdr = c3 : write : next badwide }
wide_goto { mar = -c2 // mdr = c3 : write : next badwide }
wide_ireturn { mar = -c2 // mdr = c3 : write : next badwide }
wide_ior { mar = -c2 // mdr = c3 : write : next badwide }
wide_getstatic { mar = -c2 // mdr = c3 : write : next badwide }
wide_putstatic { mar = -c2 // mdr = c3 : write : next badwide }
wide_invokevirtual { mar = -c2 // mdr = c3 : write : next badwide }
wide_wide { mar = -c2 // mdr = c3 : write : next badwide }
wide_newarray { mar = -c2 // mdr = c3 : write : next badwide }
wide_iaload { mar = -c2 // mdr = c3 : write : next badwide }
wide_iastore { mar = -c2 // mdr = c3 : write : next badwide }
wide_gc { mar = -c2 // mdr = c3 : write : next badwide }
wide_coreid { mar = -c2 // mdr = c3 : write : next badwide }
wide_ncores { mar = -c2 // mdr = c3 : write : next badwide }
wide_barrier { mar = -c2 // mdr = c3 : write : next badwide }
wide_atomicadd { mar = -c2 // mdr = c3 : write : next badwide }
wide_in { mar = -c2 // mdr = c3 : write : next badwide }
wide_out { mar = -c2 // mdr = c3 : write : next badwide }
wide_err { mar = -c2 // mdr = c3 : write : next badwide }
wide_halt { mar = -c2 // mdr = c3 : write : next badwide }

# ---- Filling the store ----------------------------------------------------
#
# pmic-cc places the words of these two blocks after every other one, each
# at the first free address, upper half first, so that no word is left
# empty: WIDE before an unknown opcode (0x100 + op) then reports "WIDE
# before an instruction other than ILOAD, ISTORE or IINC" and an unknown
# opcode "unknown opcode", as at the ISA level, instead of the machine's
# "control store word holds no micro-instruction".  Only the lower-half
# fall-throughs of conditionals (listed by pmic-cc -l) are not fillers; the
# chain at the top keeps 0x01-0x0F and 0x11 among the fillers' kind.  The
# others (now 0x12-0x34) report the fault of their own check, except the
# not-taken tails of IFEQ, IFLT and IF_ICMPEQ (now 0x1F, 0x20, 0x22): those
# three unknown opcodes run on like a not-taken branch.
# fill_wide has as many words as the upper half has free ones, fill_op the
# lower half's (135 and 173 now).  When the microprogram grows, pmic-cc
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
