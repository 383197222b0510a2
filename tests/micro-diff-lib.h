/*
 * The differential harness of the micro levels, shared by test-mic-diff
 * (Mic-1) and test-pmic-diff (PMIC): sample loading (programs/NAME.jas,
 * .opts, .input), machines for them, runs to the end, the comparison of
 * final states, runs from the start at one core count, random switches
 * between levels at instruction boundaries, and fault checks of
 * hand-built programs.
 *
 * A micro level is a struct micro_level: its golden model's interface
 * (micro-sim.h), so that one harness drives both (and the switching runs
 * mix them).  The harness returns results; the test programs own the TAP
 * stream (tap.h's counters are per translation unit): the runs both make
 * (md_diff_samples) report through the ok they pass in.
 */
#ifndef MICDB_MICRO_DIFF_LIB_H
#define MICDB_MICRO_DIFF_LIB_H

#include <stddef.h>
#include <stdint.h>

#include "machine.h"
#include "micro-sim.h"
#include "program.h"
#include "ref.h"

#define MD_MAX_PROGS 4

/* Under the sanitizers (the -asan build) everything runs several times
 * slower: the tests skip the 1,000-core runs and the longest sample,
 * which take the same code paths as the rest. */
#if defined(__SANITIZE_ADDRESS__)
#define MD_QUICK 1
#else
#define MD_QUICK 0
#endif

/* One sample: its programs, the core ranges they run on and its input. */
struct sample {
	char		 name[64];
	struct program	 prog[MD_MAX_PROGS];
	const struct program *ptr[MD_MAX_PROGS];
	uint32_t	 first[MD_MAX_PROGS], last[MD_MAX_PROGS];  /* ranges */
	size_t		 nprogs;
	uint32_t	 ncores;         /* from .opts, 1 if none */
	int		 fixed_cores;    /* MIMD ranges: only ncores works */
	int		 fork_join;      /* --fork-join */
	uint8_t		*input;
	size_t		 input_len;
};

/* A micro level's golden model (mic1_model, pmic_model), named. */
struct micro_level {
	const char		 *name;    /* "Mic-1" */
	const char		 *cycles;  /* "micro-cycles", for diagnostics */
	const struct micro_model *md;
};

/* The two levels. */
extern const struct micro_level md_mic1, md_pmic;

/* "# " + text on stdout, as tap_diag. */
void	md_diag(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
/* MICDB_SRCDIR/rel, malloc'd. */
char	*md_path(const char *rel);
double	 md_now(void);
/* A small deterministic generator (xorshift), so failures repeat. */
uint64_t md_rnd(uint64_t *x);
/* Is op in ijvm-ops.def? */
int	 md_known_op(int op);

/* A sample from DIR/NAME(.jas|.opts|.input) under the source tree; 0,
 * or -1 (the cause is in the diagnostics). */
int	 sample_load(struct sample *s, const char *dir, const char *name);
void	 sample_free(struct sample *s);
/* A machine running s on ncores cores, core 0 given s's input. */
int	 md_machine(struct machine *m, const struct sample *s,
	    uint32_t ncores);
int	 md_all_stopped(const struct machine *m);
/* Run to the end: 0, or -1 when the limit of steps ran out. */
int	 md_run_ref(struct machine *m, uint64_t limit);
int	 md_run_micro(const struct micro_level *l, void *st,
	    struct machine *m, uint64_t limit);

/*
 * Compare two final states; the first difference goes to the
 * diagnostics.  Faulted cores are compared by status and fault code
 * only (the levels may fault at different points); with strict off,
 * only output and status; steps compares instruction counts.  1 if the
 * same.
 */
int	 md_same_state(const struct machine *a, const struct machine *b,
	    int strict, int steps);

/* Sample s on ncores cores, from the start, at the ISA level and at
 * level l: *finished whether both ran to the end, *same whether they
 * end in the same state (md_same_state with strict). */
void	 md_diff_one(const struct micro_level *l, const void *cs,
	    const struct sample *s, uint32_t ncores, int strict,
	    int *finished, int *same);

/*
 * Run s on ncores cores switching at random (seed) between the ISA
 * level and the nlevels levels (stores cs[i]) at instruction
 * boundaries, and compare with a run that never switched.  1 when the
 * same and no switch got stuck; *switches counts the switches, *used
 * has bit i+1 set when level i ran (bit 0: the ISA level).
 */
int	 md_switch_one(const struct micro_level *const *levels,
	    const void *const *cs, int nlevels, const struct sample *s,
	    uint32_t ncores, uint64_t seed, int *switches, unsigned *used);

/*
 * A one-core program built from bytes: BIPUSH 7, then code, then HALT
 * after three filler bytes (operands of whatever code ends with).  Both
 * levels run it; the fault, fault_pc, SP, LV, steps and the stack must
 * be the ISA level's.  1 when they are; *fault is level l's fault.
 */
int	 md_fault_matches(const struct micro_level *l, const void *cs,
	    const uint8_t *code, size_t n, int *fault);
/* The same check on a sample run to its end on one core (a fault the
 * microprogram detects before changing anything); want is the fault the
 * ISA level must raise. */
int	 md_sample_fault_matches(const struct micro_level *l, const void *cs,
	    const struct sample *s, int want);

/*
 * The runs both micro-level tests make, reported through their ok
 * (tap.h's tap_ok: the TAP stream and its counters stay the test's).
 */
typedef int (*md_ok_fn)(int cond, const char *fmt, ...);

/* Sample s at one core count, both levels from the start: two checks,
 * both levels finish and the same final state. */
void	 md_diff_check(md_ok_fn ok, const struct micro_level *l,
	    const void *cs, const struct sample *s, uint32_t ncores,
	    int strict);
/* Every sample of programs/ (at its core count and, for the many-core
 * ones, 1, 33 and without MD_QUICK 1,000 cores), programs/bench (1 and 33
 * cores) and the fault demos named in faults (NULL-terminated; output,
 * status and fault only) through md_diff_check. */
void	 md_diff_samples(md_ok_fn ok, const struct micro_level *l,
	    const void *cs, const char *const *faults);
/* The switching runs: samples that call methods, use WIDE, arrays,
 * globals and barriers, three seeds each, handed to fn. */
void	 md_each_switch(void (*fn)(void *ctx, const struct sample *s,
	    uint32_t ncores, uint64_t seed), void *ctx);

#endif
