/*
 * Differential test of the native engines against the reference engines
 * of the same level: at the ISA level engine-native.c against
 * engine-ref.c (over ref.c, the golden model); built with NATIVE_LEVEL
 * LEVEL_MIC or LEVEL_PMIC (test-native-mic, test-native-pmic), the micro
 * levels' native kind (engine_micro_native_create, micro-fast.h) against
 * their golden models (engine_micro_create over mic1.c, pmic-sim.c), at
 * the Mic-1 level with micdb's microprogram and with the textbook's
 * (tests/textbook.mal), at the PMIC level with microcode/pmic.pm.
 *
 * Subjects: every sample under programs/, programs/bench and
 * programs/faults (--cores and --program from NAME.opts, core 0's input
 * from NAME.input), and mutants of them: the same programs with random
 * text bytes replaced (MUTANTS of each), which reach every fault, corrupted
 * frames, jumps into operands and branches out of the text.  Each runs
 * at 1, 2, 3, 4, 32 and 33 cores (its .opts' count if it names one; 2
 * and 33 in the sanitizer builds and a second microprogram's pass:
 * sample_counts).  Generated racy programs (gen_subject) run at 2, 4, 32
 * and 33 cores, where the native engines run each core ahead to its next
 * shared instruction or micro-cycle (ahead.c): only a wrong order of
 * shared accesses shows there.  `test-native --generated` runs those
 * alone (at a micro level, with each pass's microprogram).
 *
 * Modes, each on a fresh pair of machines, the whole state (every core's
 * registers, counters, status and fault, stacks, globals, the allocated
 * heap, output, input position, global step; runs mode's memory after
 * some runs: RUN_MEM_EVERY) and every stop compared (reason, steps, cores,
 * breakpoint ids):
 *   step    one step per run, stop-on-fault, after every step;
 *   runs    runs of 7, 1,000 and 10^8 steps (runs_cap), stop-on-fault;
 *   bp      breakpoints on labels and method starts, one on odd cores
 *           only and one outside the text;
 *   mask    scheduler-locking: odd cores only for a while, then all;
 *   edits   a snapshot taken, the run continued, the snapshot restored
 *           with load() (history's reverse step), input added mid-run;
 *   watch   watched globals, a heap word, locals and a frame that
 *           returns: the native engine must stop after exactly the step
 *           after which the reference, stepped one step at a time, shows
 *           a change, naming the writers the debugger's one-step watch
 *           names (engine_insn_store before the step at the ISA level,
 *           mic1_writers after it at the Mic-1 level, none at PMIC);
 *   switch  (micro levels) at instruction boundaries, every core leaves
 *           the level, runs at the ISA level a while and enters again
 *           with fresh engines, as the session's level switch does.
 * Host threads (ops->set_threads): a window's private runs go to the
 * native engine's threads (ahead.c), here every round of them, however
 * few (ahead_par_items = 1).  Each sample's modes run at one of 1, 2, 3
 * and 16 threads in turn, its runs mode at every one at 2 cores and at
 * its own count (16: more threads than cores), the generated racy
 * programs' whole runs at every count.  Results must not depend on it.
 * At the micro levels the compared state also holds MPC, N, Z, H, OPC,
 * MAR, MDR, MBR, the micro-cycle counts and the engines' side state
 * (ops->save: latches, memory operations in flight), and breakpoints
 * include MPC ones (Main1, IN's word, one on odd cores only).
 * Nothing here is timed: bounds are step counts.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "ahead.h"
#include "engine-micro.h"
#include "engine.h"
#include "ijvm.h"
#include "machine.h"
#include "mic1.h"
#include "microcode.h"
#include "micro-sim.h"
#include "program.h"
#include "ref.h"
#include "tap.h"

#ifndef NATIVE_LEVEL
#define NATIVE_LEVEL LEVEL_ISA
#endif
static const enum level level = NATIVE_LEVEL;
/* The micro level's control store of the current pass. */
static const void *cstore;

#define STACK_WORDS	1024
#define HEAP_WORDS	(1u << 18)
#define STEP_CAP	3000            /* steps compared one by one */
#define FRAME_LOOK	1009            /* watch mode: steps between looks */

struct subject {
	char		*name;
	struct program	*progs;
	size_t		 nprogs;
	uint16_t	*core_prog;      /* NULL: all run progs[0] */
	uint32_t	 fixed_cores;    /* 0: the test's counts */
	int		 fork_join;      /* --fork-join */
	uint8_t		*input;
	size_t		 input_len;
};

#include "native-suite.h"

struct pair {
	struct machine	 m[2];           /* 0: reference, 1: native */
	struct engine	 e[2];
	int		 open;
};

static char first_diff[512];

static void
diff(const char *fmt, ...) PRINTFLIKE(1, 2);
static void
diff(const char *fmt, ...)
{
	va_list ap;

	if (first_diff[0] != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(first_diff, sizeof first_diff, fmt, ap);
	va_end(ap);
}

/* The pair's engines at the level under test. */
static int
pair_engines(struct pair *p, char **cause)
{
	if (level == LEVEL_ISA) {
		if ((engine_ref_create(&p->e[0], &p->m[0], cause) |
		    engine_native_create(&p->e[1], &p->m[1], cause)) != 0)
			return -1;
	} else if (engine_micro_create(&p->e[0], &p->m[0], level, cstore,
	    cause) != 0 || engine_micro_native_create(&p->e[1], &p->m[1],
	    level, cstore, cause) != 0)
		return -1;
	engine_set_threads(&p->e[1], nthreads);
	return 0;
}

static int
pair_open(struct pair *p, const struct subject *s, uint32_t ncores)
{
	struct machine_config cfg = { ncores, STACK_WORDS, HEAP_WORDS, 32 };
	const struct program **progs;
	char *cause = NULL;

	memset(p, 0, sizeof *p);
	for (int k = 0; k < 2; k++) {
		/* the machine keeps the array: pair_close frees it */
		progs = xcalloc(s->nprogs, sizeof *progs);
		for (size_t i = 0; i < s->nprogs; i++)
			progs[i] = &s->progs[i];
		if (machine_init(&p->m[k], &cfg, progs, s->nprogs,
		    s->core_prog, &cause) != 0) {
			tap_diag("%s: %s", s->name, cause);
			free(cause);
			free(progs);
			return -1;
		}
		if (s->fork_join)
			machine_fork_join(&p->m[k]);
		if (s->input_len > 0)
			machine_add_input(&p->m[k], 0, s->input, s->input_len);
	}
	if (pair_engines(p, &cause) != 0) {
		tap_diag("%s: %s", s->name, cause);
		free(cause);
		return -1;
	}
	p->open = 1;
	return 0;
}

static void
pair_close(struct pair *p)
{
	if (!p->open)
		return;
	for (int k = 0; k < 2; k++) {
		engine_free(&p->e[k]);
		free(p->m[k].progs);
		p->m[k].progs = NULL;
		machine_free(&p->m[k]);
	}
	p->open = 0;
}

/* The engines' side state (ops->save) is the same. */
static int
cmp_side(struct pair *p, const char *what)
{
	size_t n[2];
	void *v[2];
	char *cause = NULL;
	int same;

	for (int k = 0; k < 2; k++) {
		p->e[k].ops->save(&p->e[k], NULL, &n[k], &cause);
		v[k] = xcalloc(n[k] + 1, 1);
		p->e[k].ops->save(&p->e[k], v[k], &n[k], &cause);
	}
	same = n[0] == n[1] && memcmp(v[0], v[1], n[0]) == 0;
	if (!same)
		diff("%s: side state differs (%zu, %zu bytes)", what, n[0],
		    n[1]);
	free(v[0]);
	free(v[1]);
	return same;
}

static int
cmp_state(struct pair *p, const char *what)
{
	const struct machine *a = &p->m[0], *b = &p->m[1];
	uint32_t n = a->cfg.ncores;

	for (uint32_t c = 0; c < n; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];

		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->tos != y->tos || x->status != y->status ||
		    x->fault != y->fault || x->fault_pc != y->fault_pc ||
		    x->fault_op != y->fault_op || x->steps != y->steps ||
		    x->prog != y->prog || x->cpp != y->cpp) {
			diff("%s: core %u: ref pc %d sp %d lv %d tos %d st %u "
			    "f %u@%d steps %llu; native pc %d sp %d lv %d "
			    "tos %d st %u f %u@%d steps %llu", what, c, x->pc,
			    x->sp, x->lv, x->tos, x->status, x->fault,
			    x->fault_pc, (unsigned long long)x->steps, y->pc,
			    y->sp, y->lv, y->tos, y->status, y->fault,
			    y->fault_pc, (unsigned long long)y->steps);
			return 0;
		}
		if (level != LEVEL_ISA && (x->mpc != y->mpc || x->n != y->n ||
		    x->z != y->z || x->h != y->h || x->opc != y->opc ||
		    x->mar != y->mar || x->mdr != y->mdr || x->mbr != y->mbr ||
		    x->cycles != y->cycles)) {
			diff("%s: core %u: ref mpc 0x%x n%u z%u h %d opc %d "
			    "mar %d mdr %d mbr %d cycles %llu; native mpc 0x%x "
			    "n%u z%u h %d opc %d mar %d mdr %d mbr %d cycles "
			    "%llu", what, c, x->mpc, x->n, x->z, x->h, x->opc,
			    x->mar, x->mdr, x->mbr,
			    (unsigned long long)x->cycles, y->mpc, y->n, y->z,
			    y->h, y->opc, y->mar, y->mdr, y->mbr,
			    (unsigned long long)y->cycles);
			return 0;
		}
		if (a->io[c].in_pos != b->io[c].in_pos ||
		    a->io[c].out.len != b->io[c].out.len ||
		    (a->io[c].out.len > 0 && memcmp(a->io[c].out.data,
		    b->io[c].out.data, a->io[c].out.len) != 0)) {
			diff("%s: core %u: console differs", what, c);
			return 0;
		}
	}
	if (a->step != b->step) {
		diff("%s: step %llu vs %llu", what,
		    (unsigned long long)a->step, (unsigned long long)b->step);
		return 0;
	}
	if (!cmp_memory)
		return cmp_side(p, what);
	if (memcmp(a->stacks, b->stacks, (size_t)n * STACK_WORDS * 4) != 0) {
		diff("%s: stacks differ", what);
		return 0;
	}
	if (memcmp(a->globals, b->globals, MM_GLOBALS_WORDS * 4) != 0) {
		diff("%s: globals differ", what);
		return 0;
	}
	if (a->heap_top != b->heap_top || memcmp(a->heap, b->heap,
	    (size_t)a->heap_top * 4) != 0) {
		diff("%s: heap differs", what);
		return 0;
	}
	return cmp_side(p, what);
}

static int
cmp_stop(const struct engine_stop *x, const struct engine_stop *y,
    const char *what)
{
	if (x->reason != y->reason || x->steps_run != y->steps_run ||
	    x->ncores != y->ncores) {
		diff("%s: stop ref reason %d steps %llu cores %zu; native "
		    "reason %d steps %llu cores %zu", what, x->reason,
		    (unsigned long long)x->steps_run, x->ncores, y->reason,
		    (unsigned long long)y->steps_run, y->ncores);
		return 0;
	}
	for (size_t i = 0; i < x->ncores; i++)
		if (x->cores[i] != y->cores[i] || (x->reason ==
		    STOP_BREAKPOINT && x->bp_ids[i] != y->bp_ids[i])) {
			diff("%s: stop core list differs at %zu", what, i);
			return 0;
		}
	return 1;
}

static int
finished(const struct engine_stop *s)
{
	return s->reason == STOP_DONE || s->reason == STOP_DEADLOCK;
}

/* Run both with r and compare; 1 if equal. */
static int
run_both(struct pair *p, const struct engine_run *r, struct engine_stop *st,
    const char *what)
{
	struct engine_stop other;
	char *cause = NULL;

	if (p->e[0].ops->run(&p->e[0], r, &other, &cause) != 0 ||
	    p->e[1].ops->run(&p->e[1], r, st, &cause) != 0) {
		diff("%s: run failed: %s", what, cause ? cause : "?");
		free(cause);
		return 0;
	}
	return cmp_stop(&other, st, what) && cmp_state(p, what);
}

static void
report(int good, const struct subject *s, uint32_t ncores, const char *mode)
{
	if (!ok(good, "%s at %u cores, %u threads: %s", s->name, ncores,
	    nthreads, mode))
		tap_diag("%s", first_diff);
	first_diff[0] = '\0';
}

static void
test_step(const struct subject *s, uint32_t ncores)
{
	struct pair p;
	struct engine_run r = { .max_steps = 1, .stop_on_fault = 1 };
	struct engine_stop st;
	int good = 1;

	if (pair_open(&p, s, ncores) != 0)
		return;
	for (int i = 0; i < STEP_CAP && good; i++) {
		good = run_both(&p, &r, &st, "step");
		if (finished(&st))
			break;
	}
	pair_close(&p);
	report(good, s, ncores, "step");
}

static void
test_runs(const struct subject *s, uint32_t ncores)
{
	static const uint64_t ks[] = { 7, 1000, 100000000 };
	struct engine_run r = { 0 };
	struct engine_stop st;
	int good = 1;

	for (size_t i = 0; i < sizeof ks / sizeof ks[0] && good; i++) {
		struct pair p;
		uint64_t work = 0, cap = runs_cap(ks[i], ncores);

		if (pair_open(&p, s, ncores) != 0)
			return;
		r.max_steps = ks[i] < cap / ncores ? ks[i] : cap / ncores;
		for (int n = 0; good && work < cap; n++) {
			r.stop_on_fault = n % 2 == 0;
			cmp_memory = n < RUN_MEM_FIRST || n % RUN_MEM_EVERY == 0;
			good = run_both(&p, &r, &st, "runs");
			work += (st.steps_run + 1) * ncores;
			if (finished(&st))
				break;
		}
		cmp_memory = 1;		/* and after the last run */
		good = good && cmp_state(&p, "runs: the end");
		pair_close(&p);
	}
	report(good, s, ncores, "runs of 7, 1000, 10^8 steps");
}

static void
test_bps(const struct subject *s, uint32_t ncores)
{
	struct engine_bp bps[12];
	uint8_t *odd = xcalloc(ncores, 1);
	const struct program *pg = &s->progs[0];
	struct engine_run r = { 0 };
	struct engine_stop st;
	struct pair p;
	size_t nb = 0;
	uint64_t work = 0;
	int good = 1;

	for (uint32_t c = 1; c < ncores; c += 2)
		odd[c] = 1;
	for (size_t i = 0; i < pg->nlabels && nb < 4; i += 1 + i % 3)
		bps[nb] = (struct engine_bp){ (uint32_t)nb + 1,
		    (int32_t)pg->labels[i].addr, nb == 1 ? odd : NULL, 0 },
		    nb++;
	for (size_t i = 0; i < pg->nmethods && nb < 6; i++)
		bps[nb] = (struct engine_bp){ (uint32_t)nb + 1,
		    (int32_t)pg->methods[i].addr + 4, NULL, 0 }, nb++;
	bps[nb] = (struct engine_bp){ (uint32_t)nb + 1,
	    (int32_t)pg->text_size, NULL, 0 };
	nb++;
	bps[nb] = (struct engine_bp){ (uint32_t)nb + 1, 2, NULL,
	    ENGINE_BP_ON_MPC };
	nb++;
	if (level != LEVEL_ISA) {
		/* IN's word (micdb run's input breakpoint), a word inside
		 * the microprogram on odd cores, one no MPC reaches */
		bps[nb] = (struct engine_bp){ (uint32_t)nb + 1, OP_IN, NULL,
		    ENGINE_BP_ON_MPC };
		nb++;
		bps[nb] = (struct engine_bp){ (uint32_t)nb + 1, 0x13, odd,
		    ENGINE_BP_ON_MPC };
		nb++;
		bps[nb] = (struct engine_bp){ (uint32_t)nb + 1, 4096, NULL,
		    ENGINE_BP_ON_MPC };
		nb++;
	}
	if (pair_open(&p, s, ncores) != 0) {
		free(odd);
		return;
	}
	r.bps = bps;
	r.nbps = nb;
	r.max_steps = WORK_CAP / ncores;
	for (int n = 0; good && n < BP_RUNS && work < WORK_CAP; n++) {
		r.stop_on_fault = n % 3 != 0;
		good = run_both(&p, &r, &st, "bp");
		work += (st.steps_run + 1) * ncores;
		if (finished(&st))
			break;
	}
	pair_close(&p);
	free(odd);
	report(good, s, ncores, "breakpoints");
}

static void
test_mask(const struct subject *s, uint32_t ncores)
{
	uint8_t *odd = xcalloc(ncores, 1);
	struct engine_run r = { .max_steps = 50, .stop_on_fault = 1 };
	struct engine_stop st;
	struct pair p;
	uint64_t work = 0;
	int good = 1;

	for (uint32_t c = 1; c < ncores; c += 2)
		odd[c] = 1;
	odd[0] = ncores == 1;
	if (pair_open(&p, s, ncores) != 0) {
		free(odd);
		return;
	}
	for (int n = 0; good && n < 400 && work < WORK_CAP; n++) {
		r.mask = n < 20 ? odd : NULL;
		r.max_steps = n % 2 ? 50 : 3;
		good = run_both(&p, &r, &st, "mask");
		work += (st.steps_run + 1) * ncores;
		if (finished(&st) && r.mask == NULL)
			break;
	}
	pair_close(&p);
	free(odd);
	report(good, s, ncores, "scheduler-locking mask");
}

/* The parts of a machine a snapshot keeps (history.c keeps the same). */
struct snap {
	struct core	*cores;
	int32_t		*stacks, *globals, *heap;
	uint32_t	 heap_top;
	uint64_t	 step;
	size_t		*in_pos, *out_len;
};

static void
snap_take(struct snap *sn, const struct machine *m)
{
	size_t n = m->cfg.ncores;

	sn->cores = xcalloc(n, sizeof *sn->cores);
	memcpy(sn->cores, m->cores, n * sizeof *sn->cores);
	sn->stacks = xcalloc(n * STACK_WORDS, 4);
	memcpy(sn->stacks, m->stacks, n * STACK_WORDS * 4);
	sn->globals = xcalloc(MM_GLOBALS_WORDS, 4);
	memcpy(sn->globals, m->globals, MM_GLOBALS_WORDS * 4);
	sn->heap = xcalloc(HEAP_WORDS, 4);
	memcpy(sn->heap, m->heap, (size_t)HEAP_WORDS * 4);
	sn->heap_top = m->heap_top;
	sn->step = m->step;
	sn->in_pos = xcalloc(n, sizeof *sn->in_pos);
	sn->out_len = xcalloc(n, sizeof *sn->out_len);
	for (size_t c = 0; c < n; c++) {
		sn->in_pos[c] = m->io[c].in_pos;
		sn->out_len[c] = m->io[c].out.len;
	}
}

static void
snap_put(const struct snap *sn, struct machine *m)
{
	size_t n = m->cfg.ncores;

	memcpy(m->cores, sn->cores, n * sizeof *sn->cores);
	memcpy(m->stacks, sn->stacks, n * STACK_WORDS * 4);
	memcpy(m->globals, sn->globals, MM_GLOBALS_WORDS * 4);
	memcpy(m->heap, sn->heap, (size_t)HEAP_WORDS * 4);
	m->heap_top = sn->heap_top;
	m->step = sn->step;
	for (size_t c = 0; c < n; c++) {
		m->io[c].in_pos = sn->in_pos[c];
		m->io[c].out.len = sn->out_len[c];
	}
}

static void
snap_free(struct snap *sn)
{
	free(sn->cores);
	free(sn->stacks);
	free(sn->globals);
	free(sn->heap);
	free(sn->in_pos);
	free(sn->out_len);
}

static void
test_edits(const struct subject *s, uint32_t ncores)
{
	struct engine_run r = { .max_steps = 37, .stop_on_fault = 1 };
	struct engine_stop st;
	struct pair p;
	struct snap sn;
	char *cause = NULL;
	void *side;
	size_t bytes;
	int good = 1;

	if (pair_open(&p, s, ncores) != 0)
		return;
	good = run_both(&p, &r, &st, "edits: before");
	snap_take(&sn, &p.m[0]);
	/* the side state of the reference (the same, cmp_state said) */
	p.e[0].ops->save(&p.e[0], NULL, &bytes, &cause);
	side = xcalloc(bytes + 1, 1);
	p.e[0].ops->save(&p.e[0], side, &bytes, &cause);
	for (int n = 0; good && n < 20 && !finished(&st); n++) {
		if (n == 5)
			for (int k = 0; k < 2; k++) {
				p.e[k].ops->add_input(&p.e[k], 0,
				    (const uint8_t *)"xy\n", 3);
				p.e[k].ops->write_word(&p.e[k], 0,
				    MM_GLOBALS_BASE + 1, 5, &cause);
			}
		good = run_both(&p, &r, &st, "edits: on");
	}
	for (int k = 0; k < 2 && good; k++) {
		snap_put(&sn, &p.m[k]);
		if (p.e[k].ops->load(&p.e[k], bytes > 0 ? side : NULL,
		    &cause) != 0) {
			diff("load: %s", cause);
			good = 0;
		}
	}
	for (int n = 0; good && n < 20; n++) {
		good = run_both(&p, &r, &st, "edits: after load");
		if (finished(&st))
			break;
	}
	snap_free(&sn);
	free(side);
	pair_close(&p);
	report(good, s, ncores, "snapshot, load, input, write_word");
}

static int
writer_cmp(const void *x, const void *y)
{
	const struct engine_writer *a = x, *b = y;

	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return (a->pc > b->pc) - (a->pc < b->pc);
}

/* 1 if a watched word changed in the reference machine. */
static int
watch_hit(const struct machine *m, const struct engine_watch *w, size_t nw)
{
	for (size_t i = 0; i < nw; i++) {
		int32_t v;

		if (w[i].frame != INT32_MIN && m->cores[w[i].core].lv <
		    w[i].frame)
			return 1;
		if (machine_read_word(m, w[i].core, w[i].addr, &v) !=
		    FAULT_NONE || v != w[i].value)
			return 1;
	}
	return 0;
}

/* The ISA level's writers of the step the reference machine is about
 * to run, as the debugger names them before it (watch_prepare). */
static void
isa_writers(const struct machine *m, const struct engine_watch *w,
    size_t nw, struct engine_writer **want, size_t *nwant, size_t *cap)
{
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *k = &m->cores[c];
		int32_t addr, below, *bp = NULL;

		if (k->status != CORE_RUNNING)
			continue;
		for (size_t i = 0; i < nw; i++)
			if (w[i].frame != INT32_MIN && w[i].core == c)
				engine_writer_add(want, nwant, cap, c, k->pc,
				    w[i].addr);
		if (machine_read_word(m, c, k->sp - 1, &below) == FAULT_NONE)
			bp = &below;
		if (engine_insn_store(m->progs[k->prog], k, bp, 1, 1, &addr))
			engine_writer_add(want, nwant, cap, c, k->pc, addr);
	}
}

/*
 * The engine named the writers the debugger names: at the ISA level
 * every writer of a changed word (the native engine may name more), at
 * the Mic-1 level exactly mic1_writers' list after the step, at the PMIC
 * level none.
 */
static int
cmp_writers(const struct machine *m, const struct engine_watch *w,
    size_t nw, struct engine_writer *want, size_t nwant,
    const struct engine_stop *sn)
{
	struct engine_writer *got = xcalloc(sn->nwriters + 1, sizeof *got);
	int good = 1;

	if (sn->nwriters > 0) {
		memcpy(got, sn->writers, sn->nwriters * sizeof *got);
		qsort(got, sn->nwriters, sizeof *got, writer_cmp);
	}
	if (nwant > 0)
		qsort(want, nwant, sizeof *want, writer_cmp);
	if (level != LEVEL_ISA && (nwant != sn->nwriters || (nwant > 0 &&
	    memcmp(got, want, nwant * sizeof *want) != 0))) {
		diff("watch: %zu writers named, %zu by the debugger's rule "
		    "(first: core %u addr %d)", sn->nwriters, nwant,
		    nwant > 0 ? want[0].core : 0, nwant > 0 ? want[0].addr : 0);
		good = 0;
	}
	for (size_t i = 0; i < nwant && good && level == LEVEL_ISA; i++) {
		int32_t v;
		size_t j;
		int changed = 0;

		for (size_t k = 0; k < nw; k++)
			if ((w[k].addr == want[i].addr || (want[i].addr ==
			    ENGINE_ANY_HEAP_WORD && w[k].addr >=
			    MM_HEAP_BASE)) && machine_read_word(m, w[k].core,
			    w[k].addr, &v) == FAULT_NONE && v != w[k].value)
				changed = 1;
		if (!changed)
			continue;
		for (j = 0; j < sn->nwriters; j++)
			if (writer_cmp(&got[j], &want[i]) == 0)
				break;
		if (j == sn->nwriters) {
			diff("watch: writer core %u pc %d addr %d not named",
			    want[i].core, want[i].pc, want[i].addr);
			good = 0;
		}
	}
	free(got);
	return good;
}

/*
 * Watched globals, a heap word, a local of core 0's main and, while the
 * last core is inside a call, the first local of that frame, which ends
 * when the frame returns (until there is one, runs of FRAME_LOOK steps
 * look for it).  The native engine runs long; the reference one step at
 * a time, as the debugger does with an engine that cannot watch.
 */
static void
test_watch(const struct subject *s, uint32_t ncores)
{
	struct engine_watch w[5];
	struct engine_writer *want = NULL;
	struct engine_run rn = { .max_steps = WORK_CAP, .stop_on_fault = 1 };
	struct engine_run r1 = { .max_steps = 1, .stop_on_fault = 1 };
	struct engine_stop sr, sn;
	struct ref_summary sum;
	struct pair p;
	size_t nw = 0, nwant = 0, capwant = 0;
	uint64_t work = 0;
	uint32_t last = ncores - 1;
	char *cause = NULL;
	int good = 1, stops = 0;

	if (pair_open(&p, s, ncores) != 0)
		return;
	w[nw++] = (struct engine_watch){ MM_GLOBALS_BASE + 0, 0, 0,
	    INT32_MIN };
	w[nw++] = (struct engine_watch){ MM_GLOBALS_BASE + 1, 0, 0,
	    INT32_MIN };
	w[nw++] = (struct engine_watch){ MM_HEAP_BASE + 3, 0, 0, INT32_MIN };
	/* a local of core 0's main: its last, at the frame's floor */
	w[nw++] = (struct engine_watch){ MM_STACK_BASE + (int32_t)
	    p.m[0].progs[p.m[0].cores[0].prog]->main_nlocals - 1, 0, 0,
	    MM_STACK_BASE };
	rn.watches = w;
	while (good && stops < 600 && work < WORK_CAP) {
		uint64_t steps = 0;
		const struct core *lc = &p.m[0].cores[last];

		nw = 4;
		if (lc->status == CORE_RUNNING && lc->lv > MM_STACK_BASE &&
		    lc->lv < MM_STACK_BASE + STACK_WORDS)
			w[nw++] = (struct engine_watch){ lc->lv, last, 0,
			    lc->lv };
		for (size_t i = 0; i < nw; i++)
			machine_read_word(&p.m[0], w[i].core, w[i].addr,
			    &w[i].value);
		rn.nwatches = nw;
		/* without a frame to watch, short runs look for one */
		rn.max_steps = nw == 5 ? WORK_CAP / ncores : FRAME_LOOK;
		if (p.e[1].ops->run(&p.e[1], &rn, &sn, &cause) != 0)
			break;
		for (;;) {
			nwant = 0;
			if (level == LEVEL_ISA)
				isa_writers(&p.m[0], w, nw, &want, &nwant,
				    &capwant);
			p.e[0].ops->run(&p.e[0], &r1, &sr, &cause);
			if (level == LEVEL_MIC)
				mic1_writers(p.e[0].ops->level_state(&p.e[0]),
				    &p.m[0], NULL, &want, &nwant, &capwant);
			steps += sr.steps_run;
			if (sr.reason != STOP_STEPS || steps == rn.max_steps ||
			    watch_hit(&p.m[0], w, nw))
				break;
		}
		work += (steps + 1) * ncores;
		stops++;
		sr.steps_run = steps;
		if (!cmp_stop(&sr, &sn, "watch") || !cmp_state(&p, "watch")) {
			good = 0;
			break;
		}
		if (sn.watched != watch_hit(&p.m[0], w, nw)) {
			diff("watch: watched %d", sn.watched);
			good = 0;
			break;
		}
		if (sn.watched && !cmp_writers(&p.m[0], w, nw, want, nwant,
		    &sn))
			good = 0;
		/* the debugger runs nothing once no core can run */
		ref_count(&p.m[0], &sum);
		if (finished(&sn) || sum.running + sum.waiting +
		    sum.joining == 0)
			break;
	}
	free(want);
	free(cause);
	pair_close(&p);
	report(good, s, ncores, "watchpoints");
}

/* Every live core of both machines is at an instruction boundary. */
static int
pair_at_boundary(struct pair *p)
{
	for (int k = 0; k < 2; k++)
		for (uint32_t c = 0; c < p->m[k].cfg.ncores; c++) {
			uint8_t st = p->m[k].cores[c].status;

			if ((st == CORE_RUNNING || st == CORE_WAITING) &&
			    !p->e[k].ops->at_boundary(&p->e[k], c))
				return 0;
		}
	return 1;
}

static void
test_switch(const struct subject *s, uint32_t ncores)
{
	const struct micro_model *md = micro_model_of(level);
	struct engine_run r = { .stop_on_fault = 1 };
	struct engine_stop st;
	struct pair p;
	char *cause = NULL;
	int good = 1, switches = 0;

	if (pair_open(&p, s, ncores) != 0)
		return;
	for (int n = 0; good && n < 60; n++) {
		r.max_steps = 1 + (uint64_t)(n * 37 % 101);
		good = run_both(&p, &r, &st, "switch: micro");
		if (finished(&st))
			break;
		/* on to the next cut where every core is between two
		 * instructions */
		r.max_steps = 1;
		for (int i = 0; good && i < 400 && !pair_at_boundary(&p); i++)
			good = run_both(&p, &r, &st, "switch: to boundary");
		if (!good || finished(&st) || !pair_at_boundary(&p))
			continue;
		for (int k = 0; k < 2; k++) {
			for (uint32_t c = 0; c < ncores; c++)
				md->leave(p.e[k].ops->level_state(&p.e[k]),
				    &p.m[k], c);
			engine_free(&p.e[k]);
			engine_ref_create(&p.e[k], &p.m[k], &cause);
		}
		good = cmp_state(&p, "switch: left");
		r.max_steps = 3;
		if (good)
			good = run_both(&p, &r, &st, "switch: isa");
		for (int k = 0; k < 2; k++)
			engine_free(&p.e[k]);
		if (pair_engines(&p, &cause) != 0) {
			diff("switch: %s", cause);
			good = 0;
			break;
		}
		switches++;
		if (good)
			good = cmp_state(&p, "switch: entered");
	}
	free(cause);
	pair_close(&p);
	report(good && switches > 0, s, ncores, "level switches");
}


static void
test_subject(const struct subject *s)
{
	static unsigned turn;

	for (size_t i = 0; i < nsample_counts; i++) {
		uint32_t n = s->fixed_cores ? s->fixed_cores :
		    sample_counts[i];

		if (s->fixed_cores && i > 0)
			break;
		/* threads matter only where windows run: many cores; every
		 * count at the fewest and at more than a warp (the suite's
		 * time), one in turn at the others */
		for (size_t t = 0; t < NTHREAD_COUNTS && extra_threads &&
		    n > 1 && (n == 2 || s->fixed_cores); t++) {
			nthreads = thread_counts[t];
			test_runs(s, n);
		}
		nthreads = thread_counts[turn++ % NTHREAD_COUNTS];
		test_step(s, n);
		test_runs(s, n);
		test_bps(s, n);
		test_mask(s, n);
		test_edits(s, n);
		test_watch(s, n);
		if (level != LEVEL_ISA)
			test_switch(s, n);
	}
	nthreads = 1;
}

static void
subject_free(struct subject *s)
{
	for (size_t i = 0; i < s->nprogs; i++)
		program_free(&s->progs[i]);
	free(s->progs);
	free(s->core_prog);
	free(s->input);
	free(s->name);
	memset(s, 0, sizeof *s);
}

static int
load_prog(struct subject *s, const char *path)
{
	char *cause = NULL;

	s->progs = xreallocarray(s->progs, s->nprogs + 1, sizeof *s->progs);
	if (program_load_file(&s->progs[s->nprogs], path, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		return -1;
	}
	s->nprogs++;
	return 0;
}

/* NAME.opts: --cores N, --fork-join and --program FILE:A-B (paths from
 * top). */
static int
load_opts(struct subject *s, const char *top, const char *text)
{
	char *copy = xstrdup(text), *tok, *save = NULL, path[1024];
	int rc = 0;

	for (tok = strtok_r(copy, " \t\n", &save); tok != NULL && rc == 0;
	    tok = strtok_r(NULL, " \t\n", &save)) {
		if (strcmp(tok, "--cores") == 0 &&
		    (tok = strtok_r(NULL, " \t\n", &save)) != NULL)
			s->fixed_cores = (uint32_t)strtoul(tok, NULL, 10);
		else if (strcmp(tok, "--fork-join") == 0)
			s->fork_join = 1;
		else if (strcmp(tok, "--program") == 0 &&
		    (tok = strtok_r(NULL, " \t\n", &save)) != NULL) {
			char *colon = strrchr(tok, ':');
			uint32_t a, b;

			if (colon == NULL || s->fixed_cores == 0)
				return -1;
			*colon = '\0';
			snprintf(path, sizeof path, "%s/%s", top, tok);
			if (s->nprogs > 0 && s->core_prog == NULL) {
				/* the sample itself was loaded first */
				program_free(&s->progs[0]);
				s->nprogs = 0;
			}
			if ((rc = load_prog(s, path)) != 0)
				break;
			a = (uint32_t)strtoul(colon + 1, &colon, 10);
			b = *colon == '-' ? (uint32_t)strtoul(colon + 1, NULL,
			    10) : a;
			if (s->core_prog == NULL)
				s->core_prog = xcalloc(s->fixed_cores,
				    sizeof *s->core_prog);
			for (uint32_t c = a; c <= b && c < s->fixed_cores; c++)
				s->core_prog[c] = (uint16_t)(s->nprogs - 1);
		}
	}
	free(copy);
	return rc;
}

static int
sample_init(struct subject *s, const char *top, const char *dir,
    const char *file)
{
	char path[1024];
	uint8_t *data;
	size_t len, base;
	char *cause = NULL;

	memset(s, 0, sizeof *s);
	s->name = xasprintf("%s/%s", dir, file);
	snprintf(path, sizeof path, "%s/%s/%s", top, dir, file);
	base = strlen(path) - 4;	/* ".jas" */
	if (strcmp(path + base, ".jas") != 0)
		base--;			/* ".opts": a MIMD sample */
	else if (load_prog(s, path) != 0)
		return -1;
	snprintf(path + base, sizeof path - base, ".opts");
	if (read_file(path, &data, &len, &cause) == 0) {
		char *text = xcalloc(len + 1, 1);

		memcpy(text, data, len);
		free(data);
		if (load_opts(s, top, text) != 0) {
			free(text);
			return -1;
		}
		free(text);
	}
	free(cause);
	cause = NULL;
	snprintf(path + base, sizeof path - base, ".input");
	if (read_file(path, &s->input, &s->input_len, &cause) != 0) {
		free(cause);
		s->input = NULL;
		s->input_len = 0;
	}
	return 0;
}

static uint32_t
rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (uint32_t)(*st >> 16);
}

/* A mutant of s: a few text bytes replaced, the first often an
 * instruction's operand. */
static void
mutate(const struct subject *s, struct subject *m, uint64_t seed)
{
	const struct program *p = &s->progs[0];
	struct program *q;

	memset(m, 0, sizeof *m);
	m->name = xasprintf("%s~%llu", s->name, (unsigned long long)seed);
	m->progs = xcalloc(1, sizeof *m->progs);
	q = &m->progs[0];
	q->text_size = p->text_size;
	q->text = xcalloc(p->text_size + 1, 1);
	memcpy(q->text, p->text, p->text_size);
	q->cp_size = p->cp_size;
	q->cp = xcalloc(p->cp_size + 1, sizeof *q->cp);
	memcpy(q->cp, p->cp, p->cp_size * sizeof *q->cp);
	q->main_nlocals = p->main_nlocals;
	m->nprogs = 1;
	for (int i = 0; i < 1 + (int)(seed % 4) && q->text_size > 0; i++) {
		uint32_t at = rnd(&seed) % q->text_size, v = rnd(&seed);

		/* favour small values: local 0, short jumps, real opcodes */
		q->text[at] = (uint8_t)(v % 3 == 0 ? v >> 8 & 3 :
		    v % 3 == 1 ? p->text[rnd(&seed) % p->text_size] : v >> 8);
	}
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
test_dir(const char *top, const char *dir, int mutants)
{
	char path[1024], **names = NULL;
	size_t n = 0;
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof path, "%s/%s", top, dir);
	if ((d = opendir(path)) == NULL) {
		ok(0, "open %s", path);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);

		int jas = l > 4 && strcmp(de->d_name + l - 4, ".jas") == 0;
		char alt[1400];

		/* NAME.opts without NAME.jas names the programs itself */
		if (!jas && l > 5 && strcmp(de->d_name + l - 5, ".opts") ==
		    0) {
			snprintf(alt, sizeof alt, "%s/%.*s.jas", path,
			    (int)(l - 5), de->d_name);
			jas = access(alt, F_OK) != 0;
		}
		if (jas && strncmp(de->d_name, "mimd_", 5) != 0) {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct subject s;

		if (sample_init(&s, top, dir, names[i]) != 0) {
			ok(0, "load %s/%s", dir, names[i]);
			subject_free(&s);
			free(names[i]);
			continue;
		}
		test_subject(&s);
		for (int k = 0; k < mutants && s.core_prog == NULL; k++) {
			struct subject mu;

			mutate(&s, &mu, 1000 * (i + 1) + (uint64_t)k);
			test_step(&mu, 1);
			test_step(&mu, 3);
			test_runs(&mu, 2);
			test_bps(&mu, 1);
			test_bps(&mu, 4);
			subject_free(&mu);
		}
		subject_free(&s);
		free(names[i]);
	}
	free(names);
}

#include "native-gen.h"

/*
 * Cores at the join are not done: the next step lets them go, on every
 * engine (engine_step_stop; the micro native engines once said done).
 * No program leaves a machine there between runs, so the state is made
 * by hand: core 0 halted, core 1 at the join before its first step.
 */
static void
test_join(const char *top)
{
	struct engine_run one = { .max_steps = 1, .stop_on_fault = 1 };
	struct engine_run all = { .max_steps = 10000000, .stop_on_fault = 1 };
	struct engine_stop st;
	struct subject s;
	struct pair p = { 0 };
	int good = sample_init(&s, top, "programs", "hello.jas") == 0 &&
	    pair_open(&p, &s, 2) == 0;

	for (int k = 0; k < 2 && good; k++) {
		p.m[k].cores[0].status = CORE_HALTED;
		p.m[k].cores[1].status = CORE_JOINING;
	}
	good = good && run_both(&p, &one, &st, "a step at the join") &&
	    st.reason != STOP_DONE && run_both(&p, &all, &st, "the rest") &&
	    st.reason == STOP_DONE && p.m[1].cores[1].status == CORE_HALTED;
	if (!ok(good, "cores at the join are not done: both engines let "
	    "them go and run them to the end"))
		tap_diag("%s", first_diff);
	first_diff[0] = '\0';
	pair_close(&p);
	subject_free(&s);
}

/* The microprograms of each level's passes (NULL: none). */
static const char *const stores[][NLEVEL] = {
	{ NULL, "microcode/mic1.mal", "microcode/pmic.pm" },
	{ NULL, "tests/textbook.mal", NULL },
};

int
main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	int generated_only = 0;

	if (top == NULL)
		top = ".";
	ahead_par_items = 1;
	if (argc > 1 && strcmp(argv[1], "--generated") == 0) {
		generated_only = 1;
		if (level == LEVEL_ISA) {
			test_generated();
			return done_testing();
		}
	}
	for (size_t i = 0; i < sizeof stores / sizeof stores[0]; i++) {
		struct microcode mc = { .level = level };
		char path[1024], *cause = NULL;

		if (level != LEVEL_ISA) {
			if (stores[i][level] == NULL)
				continue;
			snprintf(path, sizeof path, "%s/%s", top,
			    stores[i][level]);
			if (microcode_load(&mc, level, path, &cause) != 0) {
				ok(0, "load %s: %s", path, cause);
				free(cause);
				continue;
			}
			cstore = microcode_store(&mc);
			tap_diag("microprogram %s", stores[i][level]);
			if (i > 0) {
				sample_counts = few_counts;
				nsample_counts = sizeof few_counts /
				    sizeof few_counts[0];
			}
		} else if (i > 0)
			break;
		if (generated_only)
			test_generated();
		else if (argc > 1) {
			struct subject s;

			/* one sample, e.g. programs/bench/single.jas */
			if (sample_init(&s, top, ".", argv[1]) == 0)
				test_subject(&s);
			subject_free(&s);
		} else {
			test_join(top);
			test_dir(top, "programs", MUTANTS(6));
			test_dir(top, "programs/faults", MUTANTS(6));
			test_dir(top, "programs/bench", MUTANTS(2));
			/* racy programs the native engine runs ahead on,
			 * with the level's own microprogram (the textbook's
			 * pass has the samples only, for the suite's time) */
			if (level != LEVEL_ISA && i == 0)
				test_generated();
		}
		if (level != LEVEL_ISA)
			microcode_free(&mc);
	}
	/* racy programs the native ISA engine runs ahead on */
	if (level == LEVEL_ISA)
		test_generated();
	return done_testing();
}

