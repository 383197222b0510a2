/*
 * The PMIC-level part of the context buffer (kernels/pmic.cl and
 * src/ocl/engine-ocl-pmic.c), next to context.h's layout, which it does
 * not change: the per-core PMIC state that struct core has no field for
 * (struct pmic_core of pmic.h: G0, G1, the MBR validity, the dispatch
 * flag and the device-word latches).  Nothing is ever in flight between
 * two PMIC cycles (memory completes in the cycle that issues it), so
 * this is the whole of it.  Only macros, so that C11 and OpenCL C 1.2
 * include it.
 *
 * The section starts at a word offset the host chooses (after the warp
 * records) and passes to the kernel; it follows the layout of the core
 * blocks as context-mic.h's does:
 *
 *     pmic_off + c * CTXP_CORE_FIELDS + f       (AoS, core_stride != 1)
 *     pmic_off + c + f * field_stride           (SoA, core_stride == 1)
 */
#ifndef MICDB_CONTEXT_PMIC_H
#define MICDB_CONTEXT_PMIC_H

/* ---- per-core PMIC fields ----------------------------------------------- */
#define CTXP_C_G0           0
#define CTXP_C_G1           1
#define CTXP_C_MBR_ADDR     2    /* byte address of MBR0 */
#define CTXP_C_INSN_PC      3    /* PC of the ISA instruction running */
#define CTXP_C_NEW_REF      4    /* device -7 */
#define CTXP_C_ATOM_ADDR    5    /* device -8 */
#define CTXP_C_ATOM_OLD     6    /* device -9 */
#define CTXP_C_MBR_VALID    7    /* bit 3 - i: MBRi came from the text */
#define CTXP_C_ENTRY        8    /* MPC was reached by a dispatch */
#define CTXP_CORE_FIELDS    9

#define CTXP_CORE_WORD(pmic_off, core_stride, field_stride, c, f) \
	((core_stride) == 1 ? (pmic_off) + (c) + (f) * (field_stride) : \
	    (pmic_off) + (c) * CTXP_CORE_FIELDS + (f))

/* ---- the control store (its own buffer) ---------------------------------
 * pmic-enc.h's words as they are, four per address: CU0, CU1, CU2, next. */
#define CTXP_CS_WORDS       4

/* ---- breakpoint table: context-mic.h's (CTXM_BP_*), an MPC or a PC at
 * the instruction boundary. */

/* Kernel paths of the divergence records: the branch-free cycle, and the
 * same plus the guarded slow path (device words, faults). */
#define CTXP_PATH_CYCLE     0
#define CTXP_PATH_SLOW      1
#define CTXP_NPATHS         2

#endif
