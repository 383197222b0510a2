/*
 * The micro-level part of the context buffer (kernels/mic.cl and
 * src/ocl/engine-ocl-mic.c), next to context.h's layout, which it does not
 * change: the Mic-1 state that struct core has no field for (the
 * mic1_core side state of mic1.h: latches of the READ/FETCH in flight,
 * where MBR came from, the device-word latches) and the MIR of the last
 * micro-instruction every core executed, whole and as fields, for the
 * datapath view.  Only macros, so that C11 and OpenCL C 1.2 include it.
 *
 * The section starts at a word offset the host chooses (after the warp
 * records) and passes to the kernel; field f of core c lives at
 *
 *     mic_off + c * CTXM_CORE_FIELDS + f        (AoS: context core_stride
 *                                                 != 1, CPUs)
 *     mic_off + c + f * field_stride            (SoA: core_stride == 1,
 *                                                 GPUs; field_stride is
 *                                                 the context's)
 *
 * i.e. it follows the layout the context chose for the core blocks.
 */
#ifndef MICDB_CONTEXT_MIC_H
#define MICDB_CONTEXT_MIC_H

/* ---- per-core micro-level fields --------------------------------------- */
#define CTXM_C_MAR_LATCH    0    /* MAR when the pending READ was issued */
#define CTXM_C_PC_LATCH     1    /* PC when the pending FETCH was issued */
#define CTXM_C_MBR_ADDR     2    /* byte address MBR was fetched from */
#define CTXM_C_INSN_PC      3    /* PC at the last instruction boundary */
#define CTXM_C_NEW_REF      4    /* device -7 */
#define CTXM_C_ATOM_ADDR    5    /* device -8 */
#define CTXM_C_ATOM_OLD     6    /* device -9 */
#define CTXM_C_PENDING      7    /* MIC1_PEND_* bits */
#define CTXM_C_MBR_STATE    8    /* enum mic1_mbr */
#define CTXM_C_MIR_LO       9    /* last micro-instruction, bits 0..31 */
#define CTXM_C_MIR_HI       10   /* bits 32..35 */
/* The same MIR as fields (written by the kernel, for the datapath view;
 * the host never sends them down). */
#define CTXM_C_MIR_NEXT     11
#define CTXM_C_MIR_JAM      12
#define CTXM_C_MIR_ALU      13
#define CTXM_C_MIR_C        14
#define CTXM_C_MIR_MEM      15
#define CTXM_C_MIR_B        16
#define CTXM_CORE_FIELDS    17

/* Word index of micro field f of core c (see above). */
#define CTXM_CORE_WORD(mic_off, core_stride, field_stride, c, f) \
	((core_stride) == 1 ? (mic_off) + (c) + (f) * (field_stride) : \
	    (mic_off) + (c) * CTXM_CORE_FIELDS + (f))

/* mic1.h's values, for the kernel */
#define CTXM_PEND_READ      0x1
#define CTXM_PEND_FETCH     0x2
#define CTXM_MBR_RESET      0
#define CTXM_MBR_FETCHED    1
#define CTXM_MBR_INVALID    2

/* ---- the control store, pre-decoded (its own buffer) -------------------
 * Two words per control-store address, D0 and D1: the device words of
 * mic1-word.h (the 36-bit word split, with the B field as a one-hot
 * mask). */
#define CTXM_CS_WORDS       2
#define CTXM_CS_D0          0
#define CTXM_CS_D1          1

/* ---- breakpoint table (its own buffer) ---------------------------------
 * As context.h's, with what the address is compared with. */
#define CTXM_BP_ADDR        0    /* PC or MPC */
#define CTXM_BP_ID          1
#define CTXM_BP_SET         2    /* bitmap offset, CTX_NONE: all cores */
#define CTXM_BP_ON          3    /* CTXM_ON_PC or CTXM_ON_MPC */
#define CTXM_BP_WORDS       4
#define CTXM_ON_PC          0    /* at the instruction boundary */
#define CTXM_ON_MPC         1

/* Kernel paths of the divergence records: the branch-free cycle, and the
 * same plus the guarded slow path (device words, faults). */
#define CTXM_PATH_CYCLE     0
#define CTXM_PATH_SLOW      1
#define CTXM_NPATHS         2

#endif
