/*
 * Differential test of the PMIC level: every sample program run by the
 * PMIC simulator with microcode/pmic.pm must end in the state the
 * reference interpreter leaves - memory, PC, SP, LV, CPP, status, fault
 * code, instruction counts and output - at 1 core and, for the
 * many-core samples, at 33 and 1,000 cores.  Then random switches between
 * the three levels (ISA, Mic-1 with microcode/mic1.mal, PMIC) at
 * instruction boundaries must give the state of a run that never
 * switched.  Built as test-mic-diff.c is (samples, .opts, .input, fault
 * demos, MD_QUICK under the sanitizers); the cycles per instruction of each
 * sample go to the diagnostics.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "mal.h"
#include "mic1.h"
#include "micro-diff-lib.h"
#include "pmc.h"
#include "pmic.h"
#include "tap.h"

/* Sample s at one core count, both levels from the start. */
static void
diff_one(const struct sample *s, const struct pmic_store *cs,
    uint32_t ncores, int strict)
{
	int finished, same;

	md_diff_one(&md_pmic, cs, s, ncores, strict, &finished, &same);
	ok(finished, "%s on %u cores: both levels finish", s->name, ncores);
	ok(same, "%s on %u cores: same final state%s", s->name, ncores,
	    strict ? "" : " (output, status, fault)");
}

/* Alternate the three levels at random points; compare with a plain ISA
 * run. */
static void
switch_one(const struct sample *s, const struct mic1_store *mcs,
    const struct pmic_store *pcs, uint32_t ncores, uint64_t seed)
{
	const struct micro_level *const levels[] = { &md_mic1, &md_pmic };
	const void *const stores[] = { mcs, pcs };
	int switches;
	unsigned used;
	int same = md_switch_one(levels, stores, 2, s, ncores, seed,
	    &switches, &used);

	ok(same, "%s on %u cores: %d random switches across ISA/MIC/PMIC%s "
	    "(seed %llu) end in the never-switched state", s->name, ncores,
	    switches, (used & 4) ? "" : " (PMIC never reached)",
	    (unsigned long long)seed);
}

int
main(void)
{
	static const char *const samples[] = {
		"hello", "echo", "reverse", "multiply", "factorial", "gcd",
		"decimal", "fib", "recsum", "bubble", "sieve", "wide",
		"parsum", "collatz", "workqueue", "matmul", "mimd", NULL,
	};
	static const char *const faults[] = {
		"array_oob", "stack_overflow", "missing_halt",
		"one_core_fails", NULL,
	};
	static const char *const bench[] = {
		"uniform", "divergent", "barrier", "mimd0", "mimd1", "mimd2",
		"mimd3", NULL,
	};
	static struct mic1_store mcs;
	static struct pmic_store cs;
	struct mal_syms syms;
	char *path = md_path("microcode/pmic.pm"), *cause = NULL;
	double t0 = md_now();

	if (pmc_compile_file(path, &cs, &syms, &cause) != 0) {
		ok(0, "microcode/pmic.pm compiles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	ok(1, "microcode/pmic.pm compiles");
	free(path);
	mal_syms_free(&syms);
	path = md_path("microcode/mic1.mal");
	if (mal_assemble_file(path, &mcs, &syms, &cause) != 0) {
		ok(0, "microcode/mic1.mal assembles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	ok(1, "microcode/mic1.mal assembles (for the switches)");
	free(path);
	mal_syms_free(&syms);

	for (int i = 0; samples[i] != NULL; i++) {
		struct sample s;

		if (MD_QUICK && strcmp(samples[i], "multiply") == 0)
			continue;
		if (sample_load(&s, "programs", samples[i]) != 0) {
			ok(0, "%s loads", samples[i]);
			continue;
		}
		diff_one(&s, &cs, s.ncores, 1);
		if (!s.fixed_cores && s.ncores > 1) {
			diff_one(&s, &cs, 1, 1);
			diff_one(&s, &cs, 33, 1);
			if (!MD_QUICK)
				diff_one(&s, &cs, 1000, 1);
		}
		sample_free(&s);
	}
	for (int i = 0; bench[i] != NULL; i++) {
		struct sample s;

		if (sample_load(&s, "programs/bench", bench[i]) != 0) {
			ok(0, "bench/%s loads", bench[i]);
			continue;
		}
		diff_one(&s, &cs, 1, 1);
		diff_one(&s, &cs, 33, 1);
		sample_free(&s);
	}
	for (int i = 0; faults[i] != NULL; i++) {
		struct sample s;

		if (sample_load(&s, "programs/faults", faults[i]) != 0) {
			ok(0, "faults/%s loads", faults[i]);
			continue;
		}
		diff_one(&s, &cs, s.ncores, 0);
		sample_free(&s);
	}
	/* Switching, on samples that call methods, use WIDE, arrays,
	 * globals and barriers. */
	{
		static const struct { const char *name; uint32_t ncores; }
		    sw[] = {
			{ "fib", 1 }, { "wide", 1 }, { "bubble", 1 },
			{ "sieve", 1 }, { "echo", 1 }, { "decimal", 1 },
			{ "parsum", 8 }, { "matmul", 8 }, { "collatz", 32 },
			{ "mimd", 4 }, { NULL, 0 },
		};

		for (int i = 0; sw[i].name != NULL; i++) {
			struct sample s;

			if (sample_load(&s, "programs", sw[i].name) != 0)
				continue;
			for (uint64_t seed = 1; seed <= 3; seed++)
				switch_one(&s, &mcs, &cs, sw[i].ncores,
				    seed * 0x9E3779B97F4A7C15ull + (uint64_t)i);
			sample_free(&s);
		}
	}
	tap_diag("total %.1f s", md_now() - t0);
	return done_testing();
}
