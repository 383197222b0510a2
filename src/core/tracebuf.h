/*
 * The trace buffer: what a traced launch of the OpenCL engine's step loop
 * leaves for the trace writer (doc/debugger.md section 5, doc/performance.md
 * section 25.1), one record per step of the launch, so that a trace at a
 * million cores reads back this buffer instead of the whole context after
 * every step.  Shared by the host (src/ocl, src/dbg/trace.c) and the
 * kernels (kernels/launch-trace.h), as context.h is: macros and 32-bit
 * words only.
 *
 * A step's record, TB_STEP_WORDS(nwarps, ntraced) words:
 *
 *   per warp (every warp of the machine), TB_WARP_WORDS words:
 *     TB_W_COUNTS  bits 0-7 the active lanes (RUNNING cores) after the
 *                  step, bits 8-15 the program paths among them (distinct
 *                  PCs; div.c's div_warp_counts), bits 16-23 k, the
 *                  kernel paths of the lanes that ran the step, or
 *                  TB_K_NONE when none ran (the warp record's last k
 *                  then stays, as context.h's CTX_W_LAST_K does);
 *     TB_W_STATUS  the lanes waiting, halted, faulted and joining after
 *                  the step, a byte each from bit 0;
 *     TB_W_RELEASE the program paths among the running and waiting
 *                  lanes (bits 0-7), among the running and joining ones
 *                  (bits 8-15): the paths after the host completes a
 *                  barrier or a join at this step (src/ocl's
 *                  ocl_trace_release), which the kernel cannot know;
 *   per traced core, in the order the host gave them,
 *   TB_CORE_WORDS(micro) words: its registers after the step, those the
 *   trace's formats read: at the ISA level TB_ISA_WORDS (struct core's
 *   PC SP LV TOS, status, fault, instructions); at a micro level
 *   (TB_MICRO_WORDS) the same first, then the rest of struct core's
 *   registers and its cycles, and what the level's own state holds that
 *   the formats need (doc/performance.md section 25.2): the instruction
 *   boundary (MPC, MBR's address and the level's words below), the
 *   instruction's PC (the Perfetto frames' method), at Mic-1 the MIR
 *   (the VCD's fields and datapath), at PMIC G0 and G1.  The datapath
 *   itself (ALU inputs and output, the compute units) is not recorded:
 *   the writer derives it from the cycle before and the word, as it
 *   does from the machine.
 *
 * Every warp and not a reduction over them: the writer's sums and
 * extremes over all warps (the "warps" counter, the SVG's rows) are then
 * computed by the host in the same order as from the whole machine, so
 * that the two paths give the same bytes.
 */
#ifndef MICDB_TRACEBUF_H
#define MICDB_TRACEBUF_H

#define TB_WARP_WORDS	3
#define TB_W_COUNTS	0
#define TB_W_STATUS	1
#define TB_W_RELEASE	2
#define TB_K_NONE	0xFFu

#define TB_C_PC		0
#define TB_C_SP		1
#define TB_C_LV		2
#define TB_C_TOS	3
#define TB_C_STATUS	4
#define TB_C_FAULT	5
#define TB_C_STEPS_LO	6
#define TB_C_STEPS_HI	7
#define TB_ISA_WORDS	8
/* the micro levels' words after those */
#define TB_C_MAR	8
#define TB_C_MDR	9
#define TB_C_MBR	10
#define TB_C_CPP	11
#define TB_C_OPC	12
#define TB_C_H		13
#define TB_C_MPC	14
#define TB_C_NZ		15	/* N bit 0, Z bit 1 */
#define TB_C_CYCLES_LO	16
#define TB_C_CYCLES_HI	17
#define TB_C_INSN_PC	18
#define TB_C_MBR_ADDR	19
#define TB_C_MIR_LO	20	/* Mic-1: mic1_core's mir */
#define TB_C_MIR_HI	21
#define TB_C_LATCH	22	/* Mic-1: pending, bits 8-15 mbr_state */
#define TB_C_G0		20	/* PMIC: pmic_core's */
#define TB_C_G1		21
#define TB_C_VALID	22	/* PMIC: mbr_valid, bits 8-15 entry */
#define TB_MICRO_WORDS	23
#define TB_CORE_WORDS(micro)	((micro) ? TB_MICRO_WORDS : TB_ISA_WORDS)

/* A core the trace does not keep (the slot map's entry). */
#define TB_NO_SLOT	0xFFFFFFFFu

/* A step's words, of cw words per traced core (TB_CORE_WORDS). */
#define TB_STEP_WORDS(nwarps, ntraced, cw) \
	(TB_WARP_WORDS * (nwarps) + (cw) * (ntraced))

/* The record of step s (1-based within the launch) in a buffer of
 * records of sw words each. */
#define TB_STEP_OFF(s, sw)	((size_t)((s) - 1) * (sw))

#endif
