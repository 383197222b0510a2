/*
 * The differential-test harness shared by the OpenCL kernels' tests: a
 * kernel engine (OpenCL) against its level's golden engine (C model),
 * on the same subjects, in the same modes.  test-ocl-diff.c (ISA kernel
 * vs ref.c) and test-ocl-mic-diff.c (MIC kernel vs mic1.c) are each a
 * struct odiff_level and a main that hands it to odiff_main.
 *
 * Subjects: every sample under programs/, programs/bench and
 * programs/faults (options from NAME.opts, input for core 0 from
 * NAME.input) and 12 programs from a random generator (branches, loops,
 * calls and recursion, arrays, globals, WIDE, COREID / NCORES / BARRIER /
 * race-free ATOMICADD, console I/O, and faults on some cores), at 1, 33
 * (a partial warp) and 1,000 cores.  Steps are the level's steps: ISA
 * instructions, or micro-cycles at the micro levels.
 *
 * Modes:
 *   step    one step per run (K = 1) with stop-on-fault over the
 *           first 400 steps (40 at 1,000 cores), the state compared
 *           after every step: registers, counters, status and
 *           fault of every core, the level's side state (cmp_side),
 *           stacks, globals, heap, output, input position, stop reason,
 *           steps and hit cores;
 *   final   runs of many steps with K = 1, 7 and 100,000 steps per
 *           launch, stopping at every fault; every stop and the state
 *           there compared (K = 1 over the step mode's steps, K = 7
 *           over ODIFF_K7_STEPS, K = 100,000 to the end);
 *   bp      the same with breakpoints (PC ones on label addresses, one on
 *           odd cores only, plus the level's extra_bps), K = 1 and
 *           100,000: same boundary, reason and hit-core list;
 *   more    generated programs also run scheduler-locked (a mask), with
 *           host edits between runs (write_word, read_words, push_cores,
 *           add_input, an interrupt), with the GPU layouts, and with
 *           drift (MICDB_OCL_TEST: cores ignore the stop word, so cuts are
 *           replayed from checkpoints); samples that read and write a
 *           lot run with 4-byte I/O areas; at the end, at least one cut
 *           must have been replayed.
 *
 * Race-free programs must match bit for bit.  A few samples are not race
 * free in the sense of this comparison, and are compared on what the
 * specification does promise (see sample_level in the .c): several cores
 * allocating in the same step get different (equally valid) references,
 *  * and ATOMICADD work queues hand out items in another order (both are
 * races, whose outcome doc/manycore.md leaves to the device).  Those
 * compared on their output (CMP_OUTPUT) run to their end in every mode,
 * at 1 and 33 cores only: at 1,000 cores the bench's MIMD programs took
 * most of the OpenCL tests' time.
 * OCL_DIFF_FULL=1 compares them bit for bit anyway.  OCL_DIFF_DUMP=1
 * prints each generated program's source before it runs, to read the one
 * a failure names (by hand only: the lines are not TAP).
 *
 * Cost (why step mode samples at 1,000 cores): in step mode every step is
 * one launch, and a full comparison reads back the whole device memory
 * (1,000 stacks and a 1 MiB heap) to compare it word by word.  At 1 and
 * 33 cores every step is compared in full, as before.  At 1,000 cores
 * (ODIFF_SAMPLE_CORES) every step still compares the stop (reason,
 * steps, hit cores) and the control state of every core (registers with
 * the level's side state, counters, status, fault, input position,
 * output, heap top), which comes back with the cores anyway; the memory
 * (stacks, globals, heap) is compared every ODIFF_MEM_EVERY-th step, at
 * the last step and when the run finishes.  What is kept: every subject,
 * core count, mode and breakpoint/mask/edit variant still runs at 1,000
 * cores (multi-warp scheduling, every opcode, allocation, fault kind,
 * barrier, atomic), and the memory is compared in full after every
 * stop of the final, bp, masked and edit runs there.  What is given up:
 * only a memory word that differs for fewer than ODIFF_MEM_EVERY steps
 * and is then overwritten with equal values, at 1,000 cores only; the
 * same kernel paths are compared every step at 1 and 33 cores.
 * Nothing here is timed: bounds are step counts.
 *
 * What a level supplies (a PMIC test is a third struct odiff_level):
 *   name                 for the diagnostics ("ISA", "MIC", "PMIC");
 *   setup                once, before any test, with the source tree
 *                        (e.g. assemble the microprogram into ctx);
 *   open_golden          the C model's engine over a machine;
 *   open_kernel          the OpenCL engine over a machine;
 *   set_steps_per_launch K of the kernel engine;
 *   stats                the kernel engine's launch/checkpoint counters;
 *   cmp_side             (may be NULL) compare core c's state beyond
 *                        struct core (micro latches, the MIR...) between
 *                        the golden and kernel engines: 1 if equal, else
 *                        odiff_fail(...) and 0;
 *   extra_bps            (may be NULL) breakpoints added to the PC ones
 *                        (e.g. on the MPC), at most ODIFF_EXTRA_BPS;
 *   extra_tests          (may be NULL) the level's own checks (e.g. the
 *                        divergence records), run with `only` NULL or
 *                        "divergence";
 *   ctx                  passed to every hook.
 * The level file reports with odiff_ok/odiff_diag only: this library
 * holds the TAP counters.
 */
#ifndef MICDB_OCL_DIFF_LIB_H
#define MICDB_OCL_DIFF_LIB_H

#include <stddef.h>
#include <stdint.h>

#include "engine-ocl.h"
#include "engine.h"
#include "machine.h"
#include "util.h"

#define ODIFF_STACK_WORDS 512
#define ODIFF_HEAP_WORDS  262144	/* sieve on 1000 cores needs 201k */
#define ODIFF_EXTRA_BPS   4
/* At this many cores and more, step mode compares memory every
 * ODIFF_MEM_EVERY-th step (see the top). */
#define ODIFF_SAMPLE_CORES 1000
#define ODIFF_MEM_EVERY    10
/* Steps of a K = 7 run (final mode), 700 launches: the K = 100000 runs
 * cover each program to its end. */
#define ODIFF_K7_STEPS     4900

struct odiff_level {
	const char	*name;
	int	(*setup)(void *ctx, const char *top, char **cause);
	int	(*open_golden)(void *ctx, struct engine *e, struct machine *m,
		    char **cause);
	int	(*open_kernel)(void *ctx, struct engine *e, struct machine *m,
		    char **cause);
	void	(*set_steps_per_launch)(struct engine *e, uint64_t k);
	void	(*stats)(struct engine *e, struct engine_stats *st);
	int	(*cmp_side)(void *ctx, struct engine *golden,
		    struct engine *kernel, uint32_t c, const char *what);
	size_t	(*extra_bps)(void *ctx, struct engine_bp *bps,
		    const uint8_t *odd);
	void	(*extra_tests)(void *ctx, const char *top);
	void	*ctx;
};

/* Runs every check (argv[1]: only "samples", "io", "divergence" or
 * "generated"; argv[2]: only that generated seed) and returns the exit
 * status; 77 (skip) without an OpenCL device. */
int	odiff_main(const struct odiff_level *lv, int argc, char **argv);

int	odiff_ok(int cond, const char *fmt, ...) PRINTFLIKE(2, 3);
void	odiff_diag(const char *fmt, ...) PRINTFLIKE(1, 2);
/* Reports a difference in `what` and returns 0. */
int	odiff_fail(const char *what, const char *fmt, ...) PRINTFLIKE(2, 3);
/* top/file, allocated. */
char	*odiff_path(const char *top, const char *file);
/* A generated program's assembly text from seed (ocl-diff-gen.c), with
 * main's 300 locals when wide; allocated. */
char	*odiff_gen_program(uint64_t seed, int wide);

/*
 * A micro level's divergence records after a run of file on ncores
 * cores, warps of W, nsteps steps, K = k, agree with what ran: a warp's
 * active-lane sum is the cycles its cores ran (the programs used here
 * neither fault nor wait, so every active lane ran one cycle per step),
 * the histogram adds up to the paths counted, and the last step's masks
 * are consistent.  max_k bounds the paths of one step (0: no bound).
 */
void	 odiff_micro_divergence(const struct odiff_level *lv, const char *top,
	    const char *file, uint32_t ncores, uint32_t W, uint64_t nsteps,
	    uint64_t k, unsigned max_k);
/* The same on the micro levels' three subjects (divergent and uniform
 * bench workloads, collatz with warps of 7). */
void	 odiff_micro_divergence_suite(const struct odiff_level *lv,
	    const char *top, unsigned max_k);
/* extra_bps of a micro level: MPC breakpoints on the dispatch words of
 * GOTO and of IADD (the latter on odd cores). */
size_t	 odiff_micro_mpc_bps(void *ctx, struct engine_bp *bps,
	    const uint8_t *odd);

#endif
