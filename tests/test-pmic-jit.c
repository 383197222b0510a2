/*
 * The PMIC translation into x86-64 code (src/host/pmic-jit.c,
 * doc/performance.md section 24.5) runs, and runs as the golden model
 * does.  tests/test-native-pmic compares the native engine with the
 * golden model in every mode; this test shows that those runs went
 * through the translated code at all, which nothing there can see: a
 * translation that never started (or always left at once) would pass
 * them as well as one that ran.
 *
 * For each sample, one core: the reference engine and the native one
 * run it to the end in slices of SLICES' sizes (each slice's end inside
 * the translated run), then with an MPC breakpoint on the word of IADD
 * for a few hits and on to the end (the engine's patch makes the store
 * be translated again), then from the start with a PC breakpoint on the
 * IADD that stopped first, every core register, counter, the side state
 * (ops->save), the stack and the output compared after each run.  The
 * translated cycles (pmic_jit_cycles) must be most of the run's on
 * x86-64, none elsewhere, and none with `--none`, which
 * tests/pmic-jit.sh passes under tests/nojit.so (no executable memory:
 * the engine runs its interpreter, with the same results).
 *
 * Many cores (test_windows): the native engine at 1 and 2 threads runs
 * its run-ahead windows' private runs in the translated code
 * (doc/performance.md 24.9): 64 cores of the divergent workload, a few
 * thousand steps in runs that end inside windows, must end each run as
 * the reference with most of the native engines' cycles translated.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ahead.h"
#include "asm.h"
#include "engine-micro.h"
#include "engine.h"
#include "machine.h"
#include "microcode.h"
#include "pmic-jit.h"
#include "program.h"
#include "tap.h"
#include "x64.h"

static const uint64_t slices[] = { 1, 7, 1000, 54321, 100000000 };

/* The two machines' states are the same (what: the run). */
static int
same(struct machine *m, struct engine *e, const char *what)
{
	size_t n[2];
	void *v[2];
	char *cause = NULL;
	int good = 1;
	const struct core *a = &m[0].cores[0], *b = &m[1].cores[0];

#define F(x) do { if (a->x != b->x) { good = 0;				\
	tap_diag("%s: %s %lld against %lld", what, #x, (long long)a->x,	\
	    (long long)b->x); } } while (0)
	F(pc); F(sp); F(lv); F(cpp); F(tos); F(opc); F(h); F(mar); F(mdr);
	F(mbr); F(mpc); F(n); F(z); F(status); F(fault); F(fault_pc);
	F(steps); F(cycles);
#undef F
	for (int k = 0; k < 2; k++) {
		e[k].ops->save(&e[k], NULL, &n[k], &cause);
		v[k] = xcalloc(n[k] + 1, 1);
		e[k].ops->save(&e[k], v[k], &n[k], &cause);
	}
	if (n[0] != n[1] || memcmp(v[0], v[1], n[0]) != 0) {
		good = 0;
		tap_diag("%s: the side state differs", what);
	}
	free(v[0]);
	free(v[1]);
	if (memcmp(m[0].stacks, m[1].stacks, m[0].cfg.stack_words *
	    sizeof *m[0].stacks) != 0 || m[0].io[0].out.len !=
	    m[1].io[0].out.len || (m[0].io[0].out.len > 0 &&
	    memcmp(m[0].io[0].out.data, m[1].io[0].out.data,
	    m[0].io[0].out.len) != 0)) {
		good = 0;
		tap_diag("%s: the stack or the output differs", what);
	}
	return good;
}

/* Run r on both engines: -1 where they stopped differently, else 1
 * at a breakpoint, 0 elsewhere. */
static int
both(struct engine *e, const struct engine_run *r)
{
	struct engine_stop st[2];
	char *cause = NULL;

	for (int k = 0; k < 2; k++) {
		memset(&st[k], 0, sizeof st[k]);
		if (e[k].ops->run(&e[k], r, &st[k], &cause) != 0) {
			tap_diag("run: %s", cause);
			free(cause);
			return -1;
		}
	}
	if (st[0].reason != st[1].reason ||
	    st[0].steps_run != st[1].steps_run)
		return -1;
	return st[1].reason == STOP_BREAKPOINT;
}

/* Both machines' core back at its start, on fresh engines: 0 or -1. */
static int
reopen(struct machine *m, struct engine *e, const void *cs, int fresh,
    const char *name)
{
	char *cause = NULL;

	for (int k = 0; k < 2; k++) {
		if (!fresh) {
			machine_reset_core(&m[k], 0);
			m[k].io[0].out.len = 0;
			engine_free(&e[k]);
		}
		if ((k == 0 ? engine_micro_create(&e[k], &m[k], LEVEL_PMIC, cs,
		    &cause) : engine_micro_native_create(&e[k], &m[k],
		    LEVEL_PMIC, cs, &cause)) != 0) {
			ok(0, "%s: %s", name, cause);
			free(cause);
			return -1;
		}
	}
	return 0;
}

/* Runs to bp, up to nhit hits (*hits of them; *pc the core's PC at the
 * first), then on to the end without it: 1 where every run ended as
 * the golden model's. */
static int
bp_runs(struct machine *m, struct engine *e, const struct engine_bp *bp,
    int nhit, int *hits, int32_t *pc)
{
	int good = 1;

	*hits = 0;
	for (int n = 0; good && n < nhit &&
	    m[1].cores[0].status == CORE_RUNNING; n++) {
		struct engine_run r = { .max_steps = 100000000,
			.stop_on_fault = 1, .bps = bp, .nbps = 1 };
		int rc = both(e, &r);

		if (rc == 1 && (*hits)++ == 0)
			*pc = m[1].cores[0].pc;
		good = rc >= 0 && same(m, e, "to a breakpoint");
	}
	for (int n = 0; good && n < 100 &&
	    m[1].cores[0].status == CORE_RUNNING; n++) {
		struct engine_run r = { .max_steps = 100000000,
			.stop_on_fault = 1 };

		good = both(e, &r) == 0 && same(m, e, "to the end");
	}
	return good && m[1].cores[0].status != CORE_RUNNING;
}

/* Sample name at one core; none: no cycle may be translated. */
static void
test_sample(const char *top, const void *cs, const char *name, int none)
{
	struct machine_config cfg = { 1, 4096, 1u << 16, 32 };
	struct machine m[2];
	struct engine e[2];
	struct program prog;
	const struct program *progs[1] = { &prog };
	struct engine_bp bp = { .id = 1, .on = ENGINE_BP_ON_MPC,
		.pc = 0x60 };	/* IADD's word (its opcode) */
	char path[1024], *cause = NULL;
	uint64_t before = pmic_jit_cycles(), ran;
	int good = 1, hits = 0, none_ran = none || !X64_AVAILABLE;
	int32_t pc = -1;

	snprintf(path, sizeof path, "%s/programs/%s", top, name);
	if (program_load_file(&prog, path, &cause) != 0) {
		ok(0, "load %s: %s", name, cause);
		free(cause);
		return;
	}
	for (int k = 0; k < 2; k++)
		if (machine_init(&m[k], &cfg, progs, 1, NULL, &cause) != 0) {
			ok(0, "%s: %s", name, cause);
			free(cause);
			return;
		}
	if (reopen(m, e, cs, 1, name) != 0)
		return;
	/* in slices, each ending inside a translated run */
	for (size_t i = 0, n = 0; good && n < 1000 &&
	    m[1].cores[0].status == CORE_RUNNING; n++,
	    i = (i + 1) % (sizeof slices / sizeof slices[0])) {
		struct engine_run r = { .max_steps = slices[i],
			.stop_on_fault = 1 };

		good = both(e, &r) == 0 && same(m, e, "a slice");
	}
	good = good && m[1].cores[0].status != CORE_RUNNING;
	ran = pmic_jit_cycles() - before;
	ok(good, "%s: the native engine's translated runs end as the "
	    "golden model's, in slices of 1 to 10^8 cycles", name);
	if (none_ran)
		ok(ran == 0, "%s: no cycle translated (%llu)", name,
		    (unsigned long long)ran);
	else
		ok(ran * 2 > m[1].cores[0].cycles, "%s: most cycles "
		    "translated (%llu of %llu)", name,
		    (unsigned long long)ran,
		    (unsigned long long)m[1].cores[0].cycles);

	/* an MPC breakpoint patched in (the store translated again), a
	 * few hits, then out and to the end */
	if (reopen(m, e, cs, 0, name) != 0)
		return;
	before = pmic_jit_cycles();
	good = bp_runs(m, e, &bp, 5, &hits, &pc);
	ran = pmic_jit_cycles() - before;
	ok(good && hits == 5 && (none_ran ? ran == 0 : ran > 0), "%s: an "
	    "MPC breakpoint's hits (%d), then on to the end without it: the "
	    "same state, %llu cycles translated", name, hits,
	    (unsigned long long)ran);

	/* a PC breakpoint on that IADD (the translation leaves only where
	 * a dispatch enters a word): the same from the start */
	if (reopen(m, e, cs, 0, name) != 0)
		return;
	bp.on = ENGINE_BP_ON_PC;
	bp.pc = pc;
	before = pmic_jit_cycles();
	good = bp_runs(m, e, &bp, 3, &hits, &pc);
	ran = pmic_jit_cycles() - before;
	ok(good && hits >= 1 && (none_ran ? ran == 0 : ran > 0), "%s: a PC "
	    "breakpoint's hits (%d), then on to the end without it: the "
	    "same state, %llu cycles translated", name, hits,
	    (unsigned long long)ran);
	for (int k = 0; k < 2; k++) {
		engine_free(&e[k]);
		machine_free(&m[k]);
	}
	program_free(&prog);
}

/* ---- many cores: the windows' private runs ---------------------------- */

#define WCORES	64
#define WSTACK	4096
#define WHEAP	(1u << 16)

/* A recursion DEPTH calls deep, 4 stack words a call, whose only step
 * that another core may see is INVOKEVIRTUAL's device read: its private
 * runs push past a window's copy (AHEAD_STACK_MARGIN words). */
static const char deep_src[] =
	".constant\nOBJREF 0xCAFE\nDEPTH %d\n.end-constant\n"
	".main\n\tLDC_W OBJREF\n\tLDC_W DEPTH\n"
	"\tINVOKEVIRTUAL down\n\tHALT\n.end-main\n"
	".method down(n)\n\tILOAD n\n\tIFEQ base\n\tLDC_W OBJREF\n"
	"\tILOAD n\n\tBIPUSH 1\n\tISUB\n\tINVOKEVIRTUAL down\n"
	"\tIRETURN\nbase:\tBIPUSH 0\n\tIRETURN\n.end-method\n";

/* Sample name (programs/NAME, or "deepN": deep_src, N deep) into p: 0
 * or -1. */
static int
load(const char *top, const char *name, struct program *p)
{
	struct asm_errors errs = { 0 };
	char path[1024], *cause = NULL;
	int depth;

	if (sscanf(name, "deep%d", &depth) == 1) {
		snprintf(path, sizeof path, deep_src, depth);
		if (asm_assemble(name, path, strlen(path), NULL, p,
		    &errs) == 0)
			return 0;
		ok(0, "deep: %s", errs.count > 0 ? errs.msg[0] : "?");
		asm_errors_free(&errs);
		return -1;
	}
	snprintf(path, sizeof path, "%s/programs/%s", top, name);
	if (program_load_file(p, path, &cause) == 0)
		return 0;
	ok(0, "load %s: %s", name, cause);
	free(cause);
	return -1;
}

/* Machine b (its engine eb) is machine a (ea) in every core, word,
 * output and the side state; 1 if so. */
static int
same_all(struct machine *a, struct engine *ea, struct machine *b,
    struct engine *eb)
{
	size_t n[2];
	void *v[2];
	char *cause = NULL;
	struct engine *e[2] = { ea, eb };
	int good = 1;

	for (uint32_t c = 0; c < a->cfg.ncores && good; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];

		good = x->pc == y->pc && x->sp == y->sp && x->lv == y->lv &&
		    x->cpp == y->cpp && x->tos == y->tos && x->opc == y->opc &&
		    x->h == y->h && x->mar == y->mar && x->mdr == y->mdr &&
		    x->mbr == y->mbr && x->mpc == y->mpc && x->n == y->n &&
		    x->z == y->z && x->status == y->status &&
		    x->steps == y->steps && x->cycles == y->cycles &&
		    a->io[c].out.len == b->io[c].out.len &&
		    (a->io[c].out.len == 0 || memcmp(a->io[c].out.data,
		    b->io[c].out.data, a->io[c].out.len) == 0);
		if (!good)
			tap_diag("core %u differs", c);
	}
	for (int k = 0; k < 2; k++) {
		e[k]->ops->save(e[k], NULL, &n[k], &cause);
		v[k] = xcalloc(n[k] + 1, 1);
		e[k]->ops->save(e[k], v[k], &n[k], &cause);
	}
	if (n[0] != n[1] || memcmp(v[0], v[1], n[0]) != 0) {
		good = 0;
		tap_diag("the side state differs");
	}
	free(v[0]);
	free(v[1]);
	return good && a->step == b->step && a->heap_top == b->heap_top &&
	    memcmp(a->stacks, b->stacks, (size_t)a->cfg.ncores * WSTACK *
	    sizeof *a->stacks) == 0 &&
	    memcmp(a->globals, b->globals, MM_GLOBALS_WORDS *
	    sizeof *a->globals) == 0 &&
	    memcmp(a->heap, b->heap, WHEAP * sizeof *a->heap) == 0;
}

/*
 * WCORES cores, the even ones running sample name[0], the odd ones
 * name[1]: the reference, the native engine on 1 thread and on 2, runs
 * of odd lengths (each ends inside a window), every other one with an
 * MPC breakpoint on word bpw, which one core meets while the others run
 * on: the window is undone, so a private run that stored where the
 * window did not copy (at or above its pw) would leave a word behind.
 * The runs without it count the cycles translated; none: no cycle may
 * be.
 */
static void
test_windows(const char *top, const void *cs, const char *const name[2],
    uint32_t bpw, int none)
{
	struct engine_bp bp = { .id = 1, .on = ENGINE_BP_ON_MPC,
		.pc = (int32_t)bpw };
	uint16_t which[WCORES];
	struct machine_config cfg = { WCORES, WSTACK, WHEAP, 32 };
	const struct program *progs[2];
	struct program prog[2];
	struct machine m[3];
	struct engine e[3];
	char *cause = NULL;
	uint64_t ran[3] = { 0 }, cyc[3] = { 0 };
	uint32_t items = ahead_par_items;
	int good = 1, runs = 0, hits = 0, none_ran = none || !X64_AVAILABLE;

	for (int i = 0; i < 2; i++) {
		if (load(top, name[i], &prog[i]) != 0)
			return;
		progs[i] = &prog[i];
	}
	for (uint32_t c = 0; c < WCORES; c++)
		which[c] = (uint16_t)(c % 2);
	for (int k = 0; k < 3; k++)
		if (machine_init(&m[k], &cfg, progs, 2, which, &cause) != 0 ||
		    (k == 0 ? engine_micro_create(&e[k], &m[k], LEVEL_PMIC, cs,
		    &cause) : engine_micro_native_create(&e[k], &m[k],
		    LEVEL_PMIC, cs, &cause)) != 0) {
			ok(0, "%s at %d cores: %s", name[0], WCORES, cause);
			free(cause);
			return;
		}
	engine_set_threads(&e[2], 2);
	ahead_par_items = 1;	/* every round to the threads */
	for (; good && runs < 8; runs++) {
		int at = runs % 2;
		struct engine_run r = { .max_steps = at ? 5000 : 777 + 311 *
		    (uint64_t)runs, .stop_on_fault = 1,
		    .bps = at ? &bp : NULL, .nbps = (size_t)at };
		struct engine_stop st[3];

		for (int k = 0; k < 3 && good; k++) {
			uint64_t before = pmic_jit_cycles(), c0 = 0;

			for (uint32_t c = 0; c < WCORES; c++)
				c0 += m[k].cores[c].cycles;
			memset(&st[k], 0, sizeof st[k]);
			if (e[k].ops->run(&e[k], &r, &st[k], &cause) != 0) {
				tap_diag("run: %s", cause);
				free(cause);
				good = 0;
				break;
			}
			if (at)
				continue;
			ran[k] += pmic_jit_cycles() - before;
			for (uint32_t c = 0; c < WCORES; c++)
				cyc[k] += m[k].cores[c].cycles;
			cyc[k] -= c0;
		}
		hits += st[0].reason == STOP_BREAKPOINT;
		good = good && (st[0].reason == STOP_STEPS ||
		    st[0].reason == STOP_BREAKPOINT) &&
		    st[1].reason == st[0].reason &&
		    st[2].reason == st[0].reason &&
		    st[1].steps_run == st[0].steps_run &&
		    st[2].steps_run == st[0].steps_run &&
		    same_all(&m[0], &e[0], &m[1], &e[1]) &&
		    same_all(&m[0], &e[0], &m[2], &e[2]);
	}
	ahead_par_items = items;
	ok(good && hits > 0, "%s and %s at %d cores, windows at 1 and 2 "
	    "threads: as the reference after each of %d runs (%llu steps, %d "
	    "at a breakpoint)", name[0], name[1], WCORES, runs,
	    (unsigned long long)m[0].step, hits);
	for (int k = 1; k < 3; k++) {
		if (none_ran)
			ok(ran[k] == 0, "%s, %d thread(s): no cycle "
			    "translated (%llu)", name[0], k,
			    (unsigned long long)ran[k]);
		else
			ok(ran[k] * 2 > cyc[k], "%s, %d thread(s): most "
			    "cycles of the windows' private runs translated "
			    "(%llu of %llu)", name[0], k,
			    (unsigned long long)ran[k],
			    (unsigned long long)cyc[k]);
	}
	for (int k = 0; k < 3; k++) {
		engine_free(&e[k]);
		machine_free(&m[k]);
	}
	program_free(&prog[0]);
	program_free(&prog[1]);
}

int
main(int argc, char **argv)
{
	static const char *const samples[] = { "collatz.jas", "fib.jas",
		"matmul.jas", "recsum.jas", "sieve.jas", "wide.jas" };
	/* the breakpoint's word: IADD's, which the divergent workload
	 * meets at once; IRETURN's, which deep100 meets while deep400 is
	 * far past a window's copy */
	static const struct {
		const char	*name[2];
		uint32_t	 bpw;
	} pairs[] = {
		{ { "bench/divergent.jas", "bench/divergent.jas" }, 0x60 },
		{ { "deep400", "deep100" }, 0xAC },
		{ { "fib.jas", "sieve.jas" }, 0x60 },
	};
	const char *top = getenv("top_srcdir");
	struct microcode mc = { .level = LEVEL_PMIC };
	char path[1024], *cause = NULL;
	int none = argc > 1 && strcmp(argv[1], "--none") == 0;

	if (top == NULL)
		top = ".";
	snprintf(path, sizeof path, "%s/microcode/pmic.pm", top);
	if (microcode_load(&mc, LEVEL_PMIC, path, &cause) != 0) {
		ok(0, "load %s: %s", path, cause);
		free(cause);
		return done_testing();
	}
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
		test_sample(top, microcode_store(&mc), samples[i], none);
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		test_windows(top, microcode_store(&mc), pairs[i].name,
		    pairs[i].bpw, none);
	microcode_free(&mc);
	return done_testing();
}
