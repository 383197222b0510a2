/*
 * The Mic-1 translation into host code (src/host/mic1-jit.c,
 * doc/performance.md section 24.4) runs, and runs right: samples run at
 * one core with the textbook's microprogram (tests/textbook.mal) by the
 * native engine and by the golden model must end in the same state
 * (registers, MPC, N, Z, the cycle and instruction counts, output), and
 * stop alike at a breakpoint on a hot word, set and cleared between runs
 * (the translation's traps, patched in place), and at budgets that end
 * anywhere.  Then the proof that the translation did the work: the
 * cycles it ran (mic1_jit_cycles) must be most of the native engine's
 * where this process may have executable memory, and none where it may
 * not (tests/nojit.sh runs this test under tests/nojit.so too), so the
 * check fails whichever path silently stopped running.
 *
 * The same at 64 cores, with micdb's own microprogram
 * (microcode/mic1.mal: COREID, ATOMICADD, BARRIER), at 1 and 2 host
 * threads: the native engine runs those in run-ahead windows, whose
 * private runs go through the translation (doc/performance.md section
 * 24.8).  Every core must end each run (budgets that end anywhere, a
 * breakpoint on a hot word, the program's end) as the golden model's
 * does, and the translated code must have run most of the native
 * engine's cycles: of the divergent bench program (stack work and
 * constant-pool reads), and of recsum, whose recursion pushes past the
 * part of the stack a window copied.  Last, a private run's bound
 * itself (micro_fast.ahead): recsum's one core run privately with the
 * copied part ending a few words above its stack's top, again and
 * again, must never change a word above it, and must end each run
 * where the golden model ends after as many cycles; bubble's, whose
 * array is on the heap, must complete no READ of a shared word.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-micro.h"
#include "mic1-jit.h"
#include "mic1.h"
#include "micro-fast.h"
#include "microcode.h"
#include "micro-diff-lib.h"
#include "tap.h"
#include "x64.h"

static const void *cstore;
static uint64_t native_cycles;

/* May this process run code it writes? */
static int
exec_allowed(void)
{
	struct x64_buf b;
	int yes;

	if (x64_buf_init(&b, 64) != 0)
		return 0;
	x64_ret(&b);
	yes = x64_seal(&b) == 0;
	x64_buf_free(&b);
	return yes;
}

/* The micro-level state of every core of both machines, and their
 * output. */
static int
same(const struct machine *a, const struct machine *b, const char *what)
{
	if (!md_same_state(a, b, 1, 1))
		return 0;
	for (uint32_t i = 0; i < a->cfg.ncores; i++) {
		const struct core *x = &a->cores[i], *y = &b->cores[i];

		if (x->mpc != y->mpc || x->n != y->n || x->z != y->z ||
		    x->h != y->h || x->opc != y->opc || x->mar != y->mar ||
		    x->mdr != y->mdr || x->mbr != y->mbr ||
		    x->cycles != y->cycles || x->steps != y->steps) {
			tap_diag("%s: core %u: golden mpc %u cycles %llu "
			    "steps %llu, native mpc %u cycles %llu steps "
			    "%llu", what, i, x->mpc,
			    (unsigned long long)x->cycles,
			    (unsigned long long)x->steps, y->mpc,
			    (unsigned long long)y->cycles,
			    (unsigned long long)y->steps);
			return 0;
		}
	}
	return 1;
}

/* The cycles of every core of m. */
static uint64_t
cycles_of(const struct machine *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < m->cfg.ncores; i++)
		n += m->cores[i].cycles;
	return n;
}

/* Run both engines with r; 1 when they stop alike in the same state. */
static int
run_both(struct engine *e, struct machine *m, const struct engine_run *r,
    const char *what)
{
	struct engine_stop s[2];
	char *cause = NULL;
	uint64_t c0 = cycles_of(&m[1]);

	for (int k = 0; k < 2; k++)
		if (e[k].ops->run(&e[k], r, &s[k], &cause) != 0) {
			tap_diag("%s: %s", what, cause);
			free(cause);
			return 0;
		}
	native_cycles += cycles_of(&m[1]) - c0;
	if (s[0].reason != s[1].reason || s[0].steps_run != s[1].steps_run) {
		tap_diag("%s: golden stop %d after %llu, native %d after %llu",
		    what, s[0].reason, (unsigned long long)s[0].steps_run,
		    s[1].reason, (unsigned long long)s[1].steps_run);
		return 0;
	}
	return same(&m[0], &m[1], what);
}

/* Sample dir/name on ncores cores of two machines, the golden model's
 * engine over m[0] and the native one over m[1] (store cs): 0, or -1
 * reported as a failure of what. */
static int
open_both(struct sample *s, const char *dir, const char *name,
    uint32_t ncores, const void *cs, struct machine *m, struct engine *e,
    const char *what)
{
	char *cause = NULL;

	if (sample_load(s, dir, name) != 0) {
		ok(0, "%s: load", what);
		return -1;
	}
	if (md_machine(&m[0], s, ncores) != 0 ||
	    md_machine(&m[1], s, ncores) != 0 ||
	    engine_micro_create(&e[0], &m[0], LEVEL_MIC, cs, &cause) != 0 ||
	    engine_micro_native_create(&e[1], &m[1], LEVEL_MIC, cs,
	    &cause) != 0) {
		ok(0, "%s: engines: %s", what, cause ? cause : "?");
		free(cause);
		sample_free(s);
		return -1;
	}
	return 0;
}

static void
close_both(struct sample *s, struct machine *m, struct engine *e)
{
	for (int k = 0; k < 2; k++) {
		engine_free(&e[k]);
		machine_free(&m[k]);
	}
	sample_free(s);
}

static void
sample(const char *name)
{
	struct sample s;
	struct machine m[2];
	struct engine e[2];
	struct engine_run r = { .max_steps = 5000, .stop_on_fault = 1 };
	struct engine_bp bp = { .id = 1, .on = ENGINE_BP_ON_MPC };
	int good = 1;

	if (open_both(&s, "programs", name, 1, cstore, m, e, name) != 0)
		return;
	/* 5,000 cycles, then a breakpoint where the core stands (a word
	 * the program comes back to), three times, then cleared */
	good &= run_both(e, m, &r, "5000 cycles");
	bp.pc = m[0].cores[0].mpc;
	r.bps = &bp;
	r.nbps = 1;
	r.max_steps = 1000000;
	for (int i = 0; i < 3; i++)
		good &= run_both(e, m, &r, "to the breakpoint");
	r.bps = NULL;
	r.nbps = 0;
	/* budgets that end anywhere */
	for (uint64_t n = 1; n < 200; n += 37) {
		r.max_steps = n;
		good &= run_both(e, m, &r, "a short budget");
	}
	r.max_steps = UINT64_C(1) << 40;
	good &= run_both(e, m, &r, "to the end");
	ok(good, "%s: the native engine's runs are the golden model's", name);
	close_both(&s, m, e);
}

/*
 * Pass when the translated code ran most of the cycles since before
 * (mic1_jit_cycles) of the native engine's native_cycles, or none where
 * this process may not run code it writes.
 */
static void
jit_ran(uint64_t before, int allowed, const char *what)
{
	uint64_t ran = mic1_jit_cycles() - before;

	tap_diag("%s: translated cycles %llu of %llu", what,
	    (unsigned long long)ran, (unsigned long long)native_cycles);
	if (X64_AVAILABLE && allowed)
		ok(ran > native_cycles / 2,
		    "%s: the translated code ran most cycles (%llu of %llu)",
		    what, (unsigned long long)ran,
		    (unsigned long long)native_cycles);
	else
		ok(ran == 0, "%s: no translated code ran without executable "
		    "memory (%llu cycles)", what, (unsigned long long)ran);
}

/* The address of label (method#label) in p, or -1. */
static int32_t
label_at(const struct program *p, const char *label)
{
	for (size_t i = 0; i < p->nlabels; i++)
		if (strcmp(p->labels[i].name, label) == 0)
			return (int32_t)p->labels[i].addr;
	return -1;
}

/*
 * 64 cores of dir/name at threads host threads: the native engine's
 * run-ahead windows, whose private runs the translation runs, against
 * the golden model's lockstep.  The breakpoint: with label, a PC
 * breakpoint there on core 0 alone (the others run on past its step in
 * their private runs, and the window is undone), hit three times;
 * without, an MPC breakpoint on all cores at the word core 5 stands on,
 * hit twice.
 */
static void
windows(const void *cs, const char *dir, const char *name,
    const char *label, uint32_t threads, int allowed)
{
	struct sample s;
	struct machine m[2];
	struct engine e[2];
	struct engine_run r = { .stop_on_fault = 1 };
	struct engine_bp bp = { .id = 1, .on = ENGINE_BP_ON_MPC };
	uint8_t only0[64] = { 1 };
	static const uint64_t budgets[] = { 3000, 1, 777, 64, 2500 };
	uint64_t before = mic1_jit_cycles();
	char what[96];
	int good = 1;

	snprintf(what, sizeof what, "%s, 64 cores, %u thread%s", name,
	    threads, threads == 1 ? "" : "s");
	native_cycles = 0;
	if (open_both(&s, dir, name, 64, cs, m, e, what) != 0)
		return;
	engine_set_threads(&e[1], threads);
	for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		r.max_steps = budgets[i];
		good &= run_both(e, m, &r, "a windowed budget");
	}
	bp.pc = m[0].cores[5].mpc;
	if (label != NULL) {
		bp.on = ENGINE_BP_ON_PC;
		bp.pc = label_at(s.ptr[0], label);
		bp.cores = only0;
	}
	r.bps = &bp;
	r.nbps = 1;
	r.max_steps = label != NULL ? UINT64_C(1) << 40 : 4000;
	for (int i = 0; i < (label != NULL ? 3 : 2); i++)
		good &= run_both(e, m, &r, "a windowed breakpoint");
	r.bps = NULL;
	r.nbps = 0;
	r.max_steps = 3000;
	good &= run_both(e, m, &r, "windows after the breakpoint");
	r.max_steps = UINT64_C(1) << 40;
	good &= run_both(e, m, &r, "windows to the end");
	ok(good, "%s: the native engine's windows are the golden model's",
	    what);
	jit_ran(before, allowed, what);
	close_both(&s, m, e);
}

/* Does core 0's next cycle (st: the golden model's state) complete no
 * READ, or one of a word a private run may read (micro-fast.h)? */
static int
read_private(struct machine *m, const struct mic1_state *st)
{
	const struct mic1_core *k = &st->core[0];
	uint32_t a = (uint32_t)k->mar_latch;

	return !(k->pending & MIC1_PEND_READ) ||
	    micro_fast_private(micro_fast_stack(m, 0), a, m->cfg.stack_words) ||
	    micro_fast_const(m->progs[m->cores[0].prog], a);
}

/*
 * Private runs (mic1_fast.ahead) of the one core of programs/name, each
 * with pw (the words the window copied) ending PW_ROOM words above its
 * stack's top: no word from pw up may change (a WRITE there is another
 * step's, which the run must stop before: MF_EV_SYNC), no cycle it ran
 * may complete a READ of a shared word (the heap, a global), and the run
 * must end where the golden model does after as many cycles.  The golden
 * model then runs the cycle it stopped before on both, as the window's
 * shared step would.  recsum's recursion pushes on and on; bubble sorts
 * an array on the heap.
 */
#define PW_ROOM	3
static void
private_bound(const void *cs, const char *name, int allowed)
{
	char what[64];

	struct sample s;
	struct machine m[2];
	struct engine e = { 0 };
	struct engine_run r = { .stop_on_fault = 1 };
	void *st[2] = { NULL, NULL }, *fx;
	uint64_t before = mic1_jit_cycles(), runs = 0, syncs = 0;
	int32_t *above;
	int good = 1;

	snprintf(what, sizeof what, "%s's private runs", name);
	native_cycles = 0;
	if (sample_load(&s, "programs", name) != 0) {
		ok(0, "%s: load", what);
		return;
	}
	if (md_machine(&m[0], &s, 1) != 0 || md_machine(&m[1], &s, 1) != 0) {
		ok(0, "%s: machines", what);
		sample_free(&s);
		return;
	}
	for (int k = 0; k < 2; k++) {
		st[k] = xcalloc(1, mic1_model.state_size);
		mic1_model.state_init(st[k], &m[k], cs);
		mic1_model.start_core(st[k], &m[k], 0);
	}
	fx = mic1_fast.create(cs);
	e.m = &m[1];
	above = xcalloc(m[1].cfg.stack_words, sizeof *above);
	while (good && m[1].cores[0].status == CORE_RUNNING) {
		const struct core *c = &m[1].cores[0];
		int32_t top = c->sp > c->lv ? c->sp : c->lv;
		uint32_t pw = (uint32_t)(top - MM_STACK_BASE + 1 + PW_ROOM);
		size_t n = pw < m[1].cfg.stack_words ?
		    m[1].cfg.stack_words - pw : 0;
		enum micro_fast_ev ev;
		uint64_t k;

		memcpy(above, m[1].stacks + pw, n * sizeof *above);
		k = mic1_fast.ahead(&e, fx, st[1], &r, 0, 5000, 1, pw, &ev);
		native_cycles += k;
		runs++;
		for (uint64_t i = 0; i < k; i++) {
			if (!read_private(&m[0], st[0])) {
				tap_diag("private run %llu completed a READ of "
				    "shared word 0x%x", (unsigned long long)runs,
				    (unsigned)((struct mic1_state *)st[0])->
				    core[0].mar_latch);
				good = 0;
			}
			mic1_model.cycle(st[0], &m[0], 0);
		}
		if (memcmp(above, m[1].stacks + pw, n * sizeof *above) != 0) {
			tap_diag("private run %llu wrote above its %u words",
			    (unsigned long long)runs, pw);
			good = 0;
		}
		good &= same(&m[0], &m[1], "a private run");
		if (ev == MF_EV_SYNC) {
			syncs++;
			for (int j = 0; j < 2; j++)
				mic1_model.cycle(st[j], &m[j], 0);
		}
	}
	tap_diag("%s: %llu, stopped before a shared cycle %llu", what,
	    (unsigned long long)runs, (unsigned long long)syncs);
	ok(good && syncs > 0 && m[0].cores[0].status == CORE_HALTED,
	    "%s keep to their own words and end as the golden model", what);
	jit_ran(before, allowed, what);
	free(above);
	mic1_fast.free(fx);
	for (int k = 0; k < 2; k++) {
		mic1_model.state_free(st[k]);
		free(st[k]);
		machine_free(&m[k]);
	}
	sample_free(&s);
}

int
main(void)
{
	static const char *const names[] = { "bubble", "fib", "decimal",
		"gcd", "factorial", "multiply", "recsum", "echo" };
	struct microcode mc = { .level = LEVEL_MIC };
	char *path = md_path("tests/textbook.mal"), *cause = NULL;
	uint64_t before = mic1_jit_cycles();
	int allowed = exec_allowed();

	if (microcode_load(&mc, LEVEL_MIC, path, &cause) != 0) {
		ok(0, "load %s: %s", path, cause);
		free(cause);
		free(path);
		printf("1..%d\n", tap_n);
		return 1;
	}
	cstore = microcode_store(&mc);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		sample(names[i]);
	jit_ran(before, allowed, "one core");
	microcode_free(&mc);
	free(path);
	path = md_path("microcode/mic1.mal");
	if (microcode_load(&mc, LEVEL_MIC, path, &cause) != 0) {
		ok(0, "load %s: %s", path, cause);
		free(cause);
	} else {
		for (uint32_t t = 1; t <= 2; t++) {
			windows(microcode_store(&mc), "programs/bench",
			    "divergent", NULL, t, allowed);
			windows(microcode_store(&mc), "programs", "recsum",
			    "sum#zero", t, allowed);
		}
		private_bound(microcode_store(&mc), "recsum", allowed);
		private_bound(microcode_store(&mc), "bubble", allowed);
		microcode_free(&mc);
	}
	free(path);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
