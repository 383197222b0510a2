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

/* The stores of the two micro levels, for the switches. */
struct stores {
	const struct mic1_store *mcs;
	const struct pmic_store *pcs;
};

/* Alternate the three levels at random points; compare with a plain ISA
 * run. */
static void
switch_one(void *ctx, const struct sample *s, uint32_t ncores, uint64_t seed)
{
	const struct stores *st = ctx;
	const struct micro_level *const levels[] = { &md_mic1, &md_pmic };
	const void *const stores[] = { st->mcs, st->pcs };
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
	static const char *const faults[] = {
		"array_oob", "stack_overflow", "missing_halt",
		"one_core_fails", NULL,
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

	md_diff_samples(tap_ok, &md_pmic, &cs, faults);
	/* Switching, on samples that call methods, use WIDE, arrays,
	 * globals and barriers. */
	{
		struct stores st = { &mcs, &cs };

		md_each_switch(switch_one, &st);
	}
	tap_diag("total %.1f s", md_now() - t0);
	return done_testing();
}
