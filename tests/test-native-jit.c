/*
 * The native ISA engine's translation into x86-64 code (native-jit.c,
 * doc/performance.md section 24.6) against the reference engine, on one
 * core, where the translated code runs: the samples, the pairs program
 * (tests/run/pairs.jas), tests/run/iinc-tos.jas (an IINC of the local
 * that is TOS) and tests/run/corrupt-link.jas (an IRETURN through a link
 * a push overwrote) run in runs whose budgets end anywhere
 * (1, 2, 3, 5, 8, ... steps) while the breakpoints change from run to
 * run (none, every even slot, every seventh: each set a translation of
 * its own), and every stop and the whole state (registers, counters,
 * status and fault, the stack region, globals, output) must be the
 * reference's after every run.
 *
 * Then many cores in run-ahead windows, whose private runs run the same
 * translation with the window's stack bound (doc/performance.md section
 * 24.10): the bench workloads and samples on WCORES cores, on one and on
 * two threads, in runs of window-sized budgets with breakpoints
 * changing (a breakpoint in a window undoes it), every core's state the
 * reference's after every run.  And runs that stop at breakpoints of
 * core 0 alone while the other cores ran ahead into recsum's deep calls,
 * past the window's stack copy: a private run's store above the copy
 * survives the undo, which only this shows.
 *
 * And that the translated code ran: where this process can have
 * executable memory on x86-64, most of a whole run's steps are the
 * translated code's (engine_native_translated); where it cannot (under
 * tests/nojit.so, which tests/nojit-isa.sh runs this under, or off
 * x86-64), none are, and the results are the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "asm.h"
#include "engine.h"
#include "machine.h"
#include "memmap.h"
#include "program.h"
#include "tap.h"

#define STACK_WORDS	1024
#define HEAP_WORDS	4096
#define RUNS		3000
#define WCORES		64

/* The windowed runs' programs. */
static const char *const wsamples[] = {
	"programs/bench/divergent.jas", "programs/bench/uniform.jas",
	"programs/bench/barrier.jas", "tests/run/pairs.jas",
	"programs/recsum.jas", "programs/sieve.jas",
};

static const char *const samples[] = {
	"tests/run/pairs.jas", "tests/run/iinc-tos.jas",
	"tests/run/corrupt-link.jas", "programs/fib.jas",
	"programs/recsum.jas",
	"programs/wide.jas", "programs/gcd.jas", "programs/factorial.jas",
	"programs/bubble.jas", "programs/sieve.jas", "programs/multiply.jas",
	"programs/decimal.jas",
};

/* Whether this process can map code: as native-jit.c's buffer is. */
static int
exec_memory(void)
{
#if defined(__x86_64__)
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int good;

	if (p == MAP_FAILED)
		return 0;
	good = mprotect(p, 4096, PROT_READ | PROT_EXEC) == 0;
	munmap(p, 4096);
	return good;
#else
	return 0;
#endif
}

struct pair {
	struct machine	 m[2];
	struct engine	 e[2];   /* the reference's, the native one */
	const struct program *progs[2][1];
};

/* ncores cores each; the native engine on threads threads. */
static int
pair_open(struct pair *p, const struct program *prog, uint32_t ncores,
    uint32_t threads)
{
	struct machine_config cfg = { ncores, STACK_WORDS, HEAP_WORDS, 32 };
	char *cause = NULL;
	int rc = 0;

	memset(p, 0, sizeof *p);
	for (int k = 0; k < 2 && rc == 0; k++) {
		p->progs[k][0] = prog;
		rc = machine_init(&p->m[k], &cfg, p->progs[k], 1, NULL, &cause);
	}
	if (rc == 0)
		rc = engine_ref_create(&p->e[0], &p->m[0], &cause);
	if (rc == 0)
		rc = engine_native_create(&p->e[1], &p->m[1], &cause);
	if (rc == 0)
		engine_set_threads(&p->e[1], threads);
	if (rc != 0) {
		tap_diag("%s", cause != NULL ? cause : "?");
		free(cause);
	}
	return rc;
}

static void
pair_close(struct pair *p)
{
	for (int k = 0; k < 2; k++) {
		engine_free(&p->e[k]);
		p->m[k].progs = NULL;
		machine_free(&p->m[k]);
	}
}

/* The whole state alike; else a line that says where it differs. */
static int
same_state(const struct pair *p, char *why, size_t n)
{
	const struct machine *a = &p->m[0], *b = &p->m[1];

	for (uint32_t i = 0; i < a->cfg.ncores; i++) {
		const struct core *x = &a->cores[i], *y = &b->cores[i];

		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->tos != y->tos || x->status != y->status ||
		    x->fault != y->fault || x->fault_pc != y->fault_pc ||
		    x->fault_op != y->fault_op || x->steps != y->steps) {
			snprintf(why, n, "core %u's registers: pc %d/%d sp "
			    "%d/%d lv %d/%d tos %d/%d status %d/%d steps "
			    "%llu/%llu", i, x->pc, y->pc, x->sp, y->sp, x->lv,
			    y->lv, x->tos, y->tos, x->status, y->status,
			    (unsigned long long)x->steps,
			    (unsigned long long)y->steps);
			return 0;
		}
		if (a->io[i].out.len != b->io[i].out.len ||
		    (a->io[i].out.len > 0 && memcmp(a->io[i].out.data,
		    b->io[i].out.data, a->io[i].out.len) != 0)) {
			snprintf(why, n, "core %u's output", i);
			return 0;
		}
	}
	if (memcmp(a->stacks, b->stacks, (size_t)a->cfg.ncores *
	    STACK_WORDS * 4) != 0) {
		snprintf(why, n, "the stack region");
		return 0;
	}
	if (memcmp(a->globals, b->globals, MM_GLOBALS_WORDS * 4) != 0) {
		snprintf(why, n, "globals");
		return 0;
	}
	if (a->heap_top != b->heap_top || memcmp(a->heap, b->heap,
	    HEAP_WORDS * 4) != 0) {
		snprintf(why, n, "the heap");
		return 0;
	}
	return 1;
}

/* The two stops alike (the reference's, the native one's). */
static int
same_stop(const struct engine_stop *st, char *why, size_t n)
{
	if (st[0].reason == st[1].reason && st[0].steps_run == st[1].steps_run)
		return 1;
	snprintf(why, n, "stop %d/%d after %llu/%llu steps", st[0].reason,
	    st[1].reason, (unsigned long long)st[0].steps_run,
	    (unsigned long long)st[1].steps_run);
	return 0;
}

/* top/name loaded, and both engines on ncores cores (the native one on
 * threads threads): 0, or -1 after a failing test point. */
static int
sample_open(const char *top, const char *name, uint32_t ncores,
    uint32_t threads, struct program *prog, struct pair *p)
{
	char path[1024], *cause = NULL;

	snprintf(path, sizeof path, "%s/%s", top, name);
	if (program_load_file(prog, path, &cause) != 0) {
		ok(0, "load %s: %s", name, cause);
		free(cause);
		return -1;
	}
	if (pair_open(p, prog, ncores, threads) != 0) {
		ok(0, "%s: machines", name);
		program_free(prog);
		return -1;
	}
	return 0;
}

/* One run of both engines: 1 if both ran and stopped alike in the same
 * state; else 0 and why says where they part. */
static int
pair_run(struct pair *p, const struct engine_run *r, struct engine_stop *st,
    char *why, size_t n)
{
	char *cause = NULL;

	for (int k = 0; k < 2; k++)
		if (p->e[k].ops->run(&p->e[k], r, &st[k], &cause) != 0) {
			snprintf(why, n, "%s", cause);
			free(cause);
			return 0;
		}
	return same_stop(st, why, n) && same_state(p, why, n);
}

/* Breakpoint set k on every slot of the text: none, the even slots,
 * every seventh. */
static size_t
bp_set(struct engine_bp *bps, uint32_t size, int k)
{
	size_t n = 0;

	for (uint32_t pc = 0; pc <= size && k > 0; pc++)
		if ((k == 1 && pc % 2 == 0) || (k == 2 && pc % 7 == 3)) {
			bps[n].id = (uint32_t)n + 1;
			bps[n].pc = (int32_t)pc;
			bps[n].cores = NULL;
			bps[n].on = ENGINE_BP_ON_PC;
			n++;
		}
	return n;
}

/* Runs of budgets that end anywhere, breakpoints changing; then the
 * rest in one run.  The steps of that run, and how many of them the
 * translated code ran, go to *whole and *jit. */
static void
test_sample(const char *top, const char *name, uint64_t *whole,
    uint64_t *jit)
{
	static const uint64_t budgets[] = { 1, 2, 3, 5, 8, 13, 21, 100, 999 };
	struct program prog;
	struct pair p;
	struct engine_bp *bps;
	struct engine_run r = { 0 };
	struct engine_stop st[2];
	char why[256] = "";
	int good = 1, i;
	uint64_t before;

	if (sample_open(top, name, 1, 1, &prog, &p) != 0)
		return;
	bps = xcalloc((size_t)prog.text_size + 1, sizeof *bps);
	r.stop_on_fault = 1;
	for (i = 0; i < RUNS && good; i++) {
		r.max_steps = budgets[i % (sizeof budgets / sizeof budgets[0])];
		r.bps = bps;
		r.nbps = bp_set(bps, prog.text_size, (i / 3) % 3);
		good = pair_run(&p, &r, st, why, sizeof why);
		if (st[0].reason == STOP_DONE || st[0].reason == STOP_FAULT)
			break;
	}
	ok(good, "%s: %d runs of budgets ending anywhere, breakpoints "
	    "changing between them: as the reference%s%s", name, i,
	    good ? "" : ": ", why);
	/* the rest, as micdb run runs it */
	r.max_steps = 100000000;
	r.nbps = 0;
	before = engine_native_translated();
	good = pair_run(&p, &r, st, why, sizeof why);
	ok(good, "%s: the rest in one run: as the reference%s%s", name,
	    good ? "" : ": ", why);
	*whole += st[1].steps_run;
	*jit += engine_native_translated() - before;
	free(bps);
	pair_close(&p);
	program_free(&prog);
}

/*
 * prog on WCORES cores and threads threads: runs of budgets from one to
 * a few windows, breakpoints changing (none, every seventh slot: a
 * window that reaches one is undone and its steps run in lockstep),
 * then the rest in one run; or (at_once) every step in one run, whose
 * budget (UINT64_MAX) the windows split.  The steps of the runs without
 * breakpoints, and how many of them the translated code ran, go to
 * *whole and *jit.
 */
static void
test_windows(const char *top, const char *name, uint32_t threads,
    int at_once, uint64_t *whole, uint64_t *jit)
{
	static const uint64_t budgets[] = { 64, 100, 1500, 333, 5000 };
	struct program prog;
	struct pair p;
	struct engine_bp *bps;
	struct engine_run r = { 0 };
	struct engine_stop st[2];
	char why[256] = "";
	int good = 1, i, last = 0;

	if (sample_open(top, name, WCORES, threads, &prog, &p) != 0)
		return;
	bps = xcalloc((size_t)prog.text_size + 1, sizeof *bps);
	r.stop_on_fault = 1;
	r.bps = bps;
	for (i = 0; good && !last; i++) {
		uint64_t before = engine_native_translated();

		last = i == 40 || at_once;
		r.max_steps = last ? UINT64_MAX :
		    budgets[i % (sizeof budgets / sizeof budgets[0])];
		r.nbps = last ? 0 : bp_set(bps, prog.text_size, i % 4 == 3 ?
		    2 : 0);
		good = pair_run(&p, &r, st, why, sizeof why);
		if (r.nbps == 0) {
			*whole += st[1].steps_run * WCORES;
			*jit += engine_native_translated() - before;
		}
		if (st[0].reason == STOP_DONE || st[0].reason == STOP_FAULT)
			break;
	}
	ok(good, "%s on %u cores, %u threads: %s: as the reference%s%s",
	    name, WCORES, threads, at_once ? "every step in one run" :
	    "runs of one to a few windows, breakpoints changing, then the "
	    "rest", good ? "" : ": ", why);
	free(bps);
	pair_close(&p);
	program_free(&prog);
}

/*
 * prog on WCORES cores, threads threads, with breakpoints for core 0
 * alone: each run stops where core 0 reaches one, inside a window whose
 * other cores ran ahead of it, which the window's undo then takes back.
 * A private run that stored above the window's stack copy (recsum's
 * calls go deeper than the copy's margin in a window) leaves words of
 * the future behind in those cores' stacks, which the reference's do
 * not hold.
 */
static void
test_undo(const char *top, const char *name, uint32_t threads)
{
	struct program prog;
	struct pair p;
	struct engine_bp *bps;
	struct engine_run r = { 0 };
	struct engine_stop st[2];
	uint8_t only0[WCORES] = { 1 };
	char why[256] = "";
	int good = 1, i;
	size_t n;

	if (sample_open(top, name, WCORES, threads, &prog, &p) != 0)
		return;
	bps = xcalloc((size_t)prog.text_size + 1, sizeof *bps);
	n = bp_set(bps, prog.text_size, 2);
	for (size_t k = 0; k < n; k++)
		bps[k].cores = only0;
	r.stop_on_fault = 1;
	r.bps = bps;
	r.nbps = n;
	r.max_steps = UINT64_MAX;
	for (i = 0; good && i < 2000; i++) {
		good = pair_run(&p, &r, st, why, sizeof why);
		if (st[0].reason != STOP_BREAKPOINT)
			break;
	}
	ok(good && i > 10, "%s on %u cores, %u threads: stops at core 0's "
	    "breakpoints (%d), other cores undone: as the reference%s%s",
	    name, WCORES, threads, i, good ? "" : ": ", why);
	free(bps);
	pair_close(&p);
	program_free(&prog);
}

int
main(void)
{
	const char *top = getenv("top_srcdir");
	uint64_t whole = 0, jit = 0;
	int exec = exec_memory();

	if (top == NULL)
		top = ".";
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
		test_sample(top, samples[i], &whole, &jit);
	tap_diag("whole runs: %llu steps, %llu of them translated",
	    (unsigned long long)whole, (unsigned long long)jit);
	if (exec)
		ok(whole > 0 && jit > whole / 2, "with executable memory, "
		    "the translated code ran most of the whole runs' steps");
	else
		ok(jit == 0, "without executable memory, the interpreter "
		    "ran every step");
	whole = jit = 0;
	for (uint32_t t = 1; t <= 3; t++)
		for (size_t i = 0; i < sizeof wsamples / sizeof wsamples[0];
		    i++)
			test_windows(top, wsamples[i], t < 3 ? t : 2, t == 3,
			    &whole, &jit);
	tap_diag("windowed runs without breakpoints: about %llu core steps, "
	    "%llu of them translated", (unsigned long long)whole,
	    (unsigned long long)jit);
	if (exec)
		ok(whole > 0 && jit > whole / 2, "with executable memory, "
		    "the translated code ran most of the windowed runs' core "
		    "steps");
	else
		ok(jit == 0, "without executable memory, the windows' "
		    "private runs were the interpreter's");
	for (uint32_t t = 1; t <= 2; t++)
		test_undo(top, "programs/recsum.jas", t);
	return done_testing();
}
