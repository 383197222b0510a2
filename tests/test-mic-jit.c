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
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-micro.h"
#include "mic1-jit.h"
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

/* The micro-level state of both cores 0, and their output. */
static int
same(const struct machine *a, const struct machine *b, const char *what)
{
	const struct core *x = &a->cores[0], *y = &b->cores[0];

	if (!md_same_state(a, b, 1, 1) || x->mpc != y->mpc || x->n != y->n ||
	    x->z != y->z || x->h != y->h || x->opc != y->opc ||
	    x->mar != y->mar || x->mdr != y->mdr || x->mbr != y->mbr ||
	    x->cycles != y->cycles || x->steps != y->steps) {
		tap_diag("%s: golden mpc %u cycles %llu steps %llu, native "
		    "mpc %u cycles %llu steps %llu", what, x->mpc,
		    (unsigned long long)x->cycles,
		    (unsigned long long)x->steps, y->mpc,
		    (unsigned long long)y->cycles,
		    (unsigned long long)y->steps);
		return 0;
	}
	return 1;
}

/* Run both engines with r; 1 when they stop alike in the same state. */
static int
run_both(struct engine *e, struct machine *m, const struct engine_run *r,
    const char *what)
{
	struct engine_stop s[2];
	char *cause = NULL;
	uint64_t c0 = m[1].cores[0].cycles;

	for (int k = 0; k < 2; k++)
		if (e[k].ops->run(&e[k], r, &s[k], &cause) != 0) {
			tap_diag("%s: %s", what, cause);
			free(cause);
			return 0;
		}
	native_cycles += m[1].cores[0].cycles - c0;
	if (s[0].reason != s[1].reason || s[0].steps_run != s[1].steps_run) {
		tap_diag("%s: golden stop %d after %llu, native %d after %llu",
		    what, s[0].reason, (unsigned long long)s[0].steps_run,
		    s[1].reason, (unsigned long long)s[1].steps_run);
		return 0;
	}
	return same(&m[0], &m[1], what);
}

static void
sample(const char *name)
{
	struct sample s;
	struct machine m[2];
	struct engine e[2];
	struct engine_run r = { .max_steps = 5000, .stop_on_fault = 1 };
	struct engine_bp bp = { .id = 1, .on = ENGINE_BP_ON_MPC };
	char *cause = NULL;
	int good = 1;

	if (sample_load(&s, "programs", name) != 0) {
		ok(0, "%s: load", name);
		return;
	}
	if (md_machine(&m[0], &s, 1) != 0 || md_machine(&m[1], &s, 1) != 0 ||
	    engine_micro_create(&e[0], &m[0], LEVEL_MIC, cstore, &cause) != 0 ||
	    engine_micro_native_create(&e[1], &m[1], LEVEL_MIC, cstore,
	    &cause) != 0) {
		ok(0, "%s: engines: %s", name, cause ? cause : "?");
		free(cause);
		sample_free(&s);
		return;
	}
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
	for (int k = 0; k < 2; k++) {
		engine_free(&e[k]);
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
	uint64_t before = mic1_jit_cycles(), ran;
	int allowed = exec_allowed();

	if (microcode_load(&mc, LEVEL_MIC, path, &cause) != 0) {
		ok(0, "load %s: %s", path, cause);
		printf("1..%d\n", tap_n);
		return 1;
	}
	cstore = microcode_store(&mc);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		sample(names[i]);
	ran = mic1_jit_cycles() - before;
	tap_diag("translated cycles %llu of %llu", (unsigned long long)ran,
	    (unsigned long long)native_cycles);
	if (X64_AVAILABLE && allowed)
		ok(ran > native_cycles / 2,
		    "the translated code ran most cycles (%llu of %llu)",
		    (unsigned long long)ran,
		    (unsigned long long)native_cycles);
	else
		ok(ran == 0, "no translated code ran without executable "
		    "memory (%llu cycles)", (unsigned long long)ran);
	microcode_free(&mc);
	free(path);
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
