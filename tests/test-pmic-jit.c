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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int
main(int argc, char **argv)
{
	static const char *const samples[] = { "collatz.jas", "fib.jas",
		"matmul.jas", "recsum.jas", "sieve.jas", "wide.jas" };
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
	microcode_free(&mc);
	return done_testing();
}
