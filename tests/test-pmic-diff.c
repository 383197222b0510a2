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
#include "microcode.h"
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

/* Run code after BIPUSH 7 in a main of one local (md_fault_matches): the
 * fault, its PC, SP, LV, steps and the stack must be the ISA level's, so
 * a fault path that forgets to undo SP or writes the stack shows here. */
static int
pm_fault(const struct pmic_store *cs, const uint8_t *code, size_t n,
    int want, const char *what)
{
	int fault = 0;
	int same = md_fault_matches(&md_pmic, cs, code, n, &fault);

	if (!same || fault != want)
		tap_diag("%s: PMIC fault %d, want %d", what, fault, want);
	return same && fault == want;
}

static void
fault_cases(const struct pmic_store *cs)
{
	static const struct {
		uint8_t	 op;
		int	 pops;
	} popping[] = {
		{ OP_POP, 1 }, { OP_DUP, 1 }, { OP_SWAP, 2 }, { OP_IADD, 2 },
		{ OP_ISUB, 2 }, { OP_IAND, 2 }, { OP_IOR, 2 }, { OP_ISTORE, 1 },
		{ OP_IFEQ, 1 }, { OP_IFLT, 1 }, { OP_IF_ICMPEQ, 2 },
		{ OP_PUTSTATIC, 1 }, { OP_ATOMICADD, 1 }, { OP_NEWARRAY, 1 },
		{ OP_IALOAD, 2 }, { OP_IASTORE, 3 }, { OP_OUT, 1 },
	};
	int bad = 0;
	char what[64];

	/* One word short: BIPUSH 7 leaves one word, POP none, BIPUSH 0
	 * two. */
	for (size_t i = 0; i < sizeof popping / sizeof popping[0]; i++) {
		uint8_t code[3];
		size_t n = 0;

		if (popping[i].pops == 1)
			code[n++] = OP_POP;
		else if (popping[i].pops == 3) {
			code[n++] = OP_BIPUSH;
			code[n++] = 0;
		}
		code[n++] = popping[i].op;
		snprintf(what, sizeof what, "opcode 0x%02x one word short",
		    popping[i].op);
		bad += !pm_fault(cs, code, n, FAULT_STACK_UNDERFLOW, what);
	}
	ok(bad == 0, "every popping opcode one word short faults as at the "
	    "ISA level, SP, steps and stack untouched (%d differ)", bad);

	/* main has one local: index 1 faults, narrow and WIDE. */
	{
		static const uint8_t load[] = { OP_ILOAD, 1 };
		static const uint8_t store[] = { OP_ISTORE, 1 };
		static const uint8_t inc[] = { OP_IINC, 1, 1 };
		static const uint8_t wload[] = { OP_WIDE, OP_ILOAD, 0, 1 };
		static const uint8_t wstore[] = { OP_WIDE, OP_ISTORE, 0, 1 };
		static const uint8_t winc[] = { OP_WIDE, OP_IINC, 0, 1, 1 };

		bad = !pm_fault(cs, load, sizeof load, FAULT_LOCAL_INDEX,
		    "ILOAD 1") +
		    !pm_fault(cs, store, sizeof store, FAULT_LOCAL_INDEX,
		    "ISTORE 1") +
		    !pm_fault(cs, inc, sizeof inc, FAULT_LOCAL_INDEX,
		    "IINC 1") +
		    !pm_fault(cs, wload, sizeof wload, FAULT_LOCAL_INDEX,
		    "WIDE ILOAD 1") +
		    !pm_fault(cs, wstore, sizeof wstore, FAULT_LOCAL_INDEX,
		    "WIDE ISTORE 1") +
		    !pm_fault(cs, winc, sizeof winc, FAULT_LOCAL_INDEX,
		    "WIDE IINC 1");
		ok(bad == 0, "local index 1 of 1, narrow and WIDE, faults as "
		    "at the ISA level (%d differ)", bad);
	}

	/* WIDE before every opcode of the ISA without a wide form. */
	bad = 0;
	for (int op = 0; op < 256; op++) {
		uint8_t code[2] = { OP_WIDE, (uint8_t)op };

		if (!md_known_op(op) || op == OP_ILOAD || op == OP_ISTORE ||
		    op == OP_IINC)
			continue;
		snprintf(what, sizeof what, "WIDE 0x%02x", op);
		bad += !pm_fault(cs, code, 2, FAULT_BAD_WIDE, what);
	}
	ok(bad == 0, "WIDE before each ISA opcode without a wide form faults "
	    "as at the ISA level (%d differ)", bad);

	/* Every unknown opcode: alone (after BIPUSH 7, the cache clear), after
	 * an ILOAD and an IINC (a valid cache), and after WIDE.  A lower-half
	 * word of a conditional pair that took the dispatch for its
	 * conditional shows here as another fault, a run-on or a changed
	 * SP, PC or stack. */
	bad = 0;
	for (int op = 1; op < 256; op++) {
		const uint8_t alone[1] = { (uint8_t)op };
		const uint8_t cached[6] = { OP_ILOAD, 0, OP_IINC, 0, 1,
		    (uint8_t)op };
		const uint8_t wide[2] = { OP_WIDE, (uint8_t)op };

		if (md_known_op(op))
			continue;
		snprintf(what, sizeof what, "unknown opcode 0x%02x", op);
		bad += !pm_fault(cs, alone, sizeof alone, FAULT_BAD_OPCODE,
		    what);
		snprintf(what, sizeof what, "ILOAD IINC, unknown opcode 0x%02x",
		    op);
		bad += !pm_fault(cs, cached, sizeof cached, FAULT_BAD_OPCODE,
		    what);
		snprintf(what, sizeof what, "WIDE 0x%02x (unknown)", op);
		bad += !pm_fault(cs, wide, sizeof wide, FAULT_BAD_WIDE, what);
	}
	ok(bad == 0, "every unknown opcode faults as at the ISA level, alone, "
	    "with a valid frame cache and after WIDE, SP, steps and stack "
	    "untouched (%d differ)", bad);
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
	struct microcode mc;
	char *path = md_path("microcode/pmic.pm"), *cause = NULL;
	double t0 = md_now();

	if (microcode_load(&mc, LEVEL_PMIC, path, &cause) != 0) {
		ok(0, "microcode/pmic.pm compiles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	ok(1, "microcode/pmic.pm compiles");
	cs = mc.pcs;
	microcode_free(&mc);
	free(path);
	path = md_path("microcode/mic1.mal");
	if (microcode_load(&mc, LEVEL_MIC, path, &cause) != 0) {
		ok(0, "microcode/mic1.mal assembles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	ok(1, "microcode/mic1.mal assembles (for the switches)");
	mcs = mc.cs;
	microcode_free(&mc);
	free(path);

	md_diff_samples(tap_ok, &md_pmic, &cs, faults);
	fault_cases(&cs);
	/* Switching, on samples that call methods, use WIDE, arrays,
	 * globals and barriers. */
	{
		struct stores st = { &mcs, &cs };

		md_each_switch(switch_one, &st);
	}
	tap_diag("total %.1f s", md_now() - t0);
	return done_testing();
}
