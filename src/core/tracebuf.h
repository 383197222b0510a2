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
 *   per traced core, in the order the host gave them, TB_CORE_WORDS
 *   words: its registers after the step (struct core's, those the
 *   trace's formats read at the ISA level).
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

#define TB_CORE_WORDS	8
#define TB_C_PC		0
#define TB_C_SP		1
#define TB_C_LV		2
#define TB_C_TOS	3
#define TB_C_STATUS	4
#define TB_C_FAULT	5
#define TB_C_STEPS_LO	6
#define TB_C_STEPS_HI	7

/* A core the trace does not keep (the slot map's entry). */
#define TB_NO_SLOT	0xFFFFFFFFu

#define TB_STEP_WORDS(nwarps, ntraced) \
	(TB_WARP_WORDS * (nwarps) + TB_CORE_WORDS * (ntraced))

/* The record of step s (1-based within the launch) in a buffer of
 * records of sw words each. */
#define TB_STEP_OFF(s, sw)	((size_t)((s) - 1) * (sw))

#endif
