/*
 * Differential test of the micro level: every sample program run by the
 * Mic-1 simulator with microcode/mic1.mal must end in the state the
 * reference interpreter (ref.c) leaves - memory (stacks word for word,
 * globals, heap), PC, SP, LV, CPP, status, fault code, instruction counts
 * and output - at 1 core and, for the many-core samples, at 33 and 1,000
 * cores.  Then the same with random switches between the levels at
 * instruction boundaries (mic1.md section 5): running on after any switch
 * must give the state of a run that never switched.
 *
 * Samples come from programs/: NAME.jas with NAME.opts (--cores N,
 * --program FILE:RANGE) and NAME.input (core 0's input).  Fault demos
 * (programs/faults) must fault at both levels, with the same output
 * before the fault, and the same fault code.
 *
 * Under ASan/UBSan the 1,000-core runs and multiply are left out (MD_QUICK).
 *
 * workqueue hands out work with ATOMICADD, which could make the stacks
 * depend on the interleaving of cores; the levels interleave the same
 * way (every core runs the same instruction sequence, in core order), so
 * it is compared strictly too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "mal.h"
#include "mic1.h"
#include "micro-diff-lib.h"
#include "tap.h"

/* Alternate levels at random points; compare with a plain ISA run. */
static void
switch_one(void *ctx, const struct sample *s, uint32_t ncores, uint64_t seed)
{
	const struct micro_level *const levels[] = { &md_mic1 };
	const void *const stores[] = { ctx };
	int switches;
	unsigned used;
	int same = md_switch_one(levels, stores, 1, s, ncores, seed,
	    &switches, &used);

	ok(same, "%s on %u cores: %d random level switches (seed %llu) end "
	    "in the never-switched state", s->name, ncores, switches,
	    (unsigned long long)seed);
}

int
main(void)
{
	static const char *const faults[] = {
		"array_oob", "stack_overflow", "missing_halt",
		"one_core_fails", "return_main", "bad_wide", NULL,
	};
	struct mic1_store cs;
	struct mal_syms syms;
	char *path = md_path("microcode/mic1.mal"), *cause = NULL;
	double t0 = md_now();

	if (mal_assemble_file(path, &cs, &syms, &cause) != 0) {
		ok(0, "microcode/mic1.mal assembles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	ok(1, "microcode/mic1.mal assembles");
	is_int(cs.main1, MIC1_MAIN1, "its Main1 is at 0x02");
	free(path);
	mal_syms_free(&syms);

	md_diff_samples(tap_ok, &md_mic1, &cs, faults);
	/* Faults the microprogram detects before changing anything leave
	 * the state the ISA level leaves. */
	{
		struct sample s;

		if (sample_load(&s, "programs/faults", "return_main") == 0) {
			ok(md_sample_fault_matches(&md_mic1, &cs, &s,
			    FAULT_RETURN_MAIN), "IRETURN from main: same "
			    "fault, PC, SP, LV, steps and stack at both levels");
			sample_free(&s);
		} else {
			ok(0, "faults/return_main loads");
		}
	}
	/* WIDE before every opcode of the ISA without a wide form: fault 3
	 * at the WIDE, nothing changed, as at the ISA level. */
	{
		int bad = 0, fault = 0;

		for (int op = 0; op < 256; op++) {
			uint8_t code[2] = { OP_WIDE, (uint8_t)op };

			if (!md_known_op(op) || op == OP_ILOAD || op == OP_ISTORE ||
			    op == OP_IINC)
				continue;
			if (!md_fault_matches(&md_mic1, &cs, code, 2, &fault)) {
				tap_diag("WIDE 0x%02x: micro fault %d", op, fault);
				bad++;
			}
		}
		ok(bad == 0, "WIDE before each ISA opcode without a wide form "
		    "faults as at the ISA level (%d differ)", bad);
	}
	/* Unknown opcodes: those whose dispatch word is the .default word
	 * must fault 2 as at the ISA level.  The others hold words of
	 * routines (the false targets of ifs, and Main1 at 0x02); they are
	 * listed, and their number must not grow. */
	{
		int bad = 0, gaps = 0, fault = 0;
		uint64_t dflt = 0;
		int best = 0;

		/* The .default word: the commonest in the dispatch table. */
		for (int i = 0; i < 256; i++) {
			int k = 0;

			for (int j = 0; j < 256; j++)
				k += cs.word[j] == cs.word[i];
			if (k > best) {
				best = k;
				dflt = cs.word[i];
			}
		}

		for (int op = 0; op < 256; op++) {
			uint8_t code[1] = { (uint8_t)op };

			if (md_known_op(op))
				continue;
			if (cs.word[op] != dflt) {
				(void)md_fault_matches(&md_mic1, &cs, code, 1, &fault);
				tap_diag("unknown opcode 0x%02x: control-store "
				    "word in use, micro fault %d", op, fault);
				gaps++;
				continue;
			}
			if (!md_fault_matches(&md_mic1, &cs, code, 1, &fault)) {
				tap_diag("unknown opcode 0x%02x: micro fault %d",
				    op, fault);
				bad++;
			}
		}
		ok(bad == 0, "every unknown opcode on a .default word faults "
		    "as at the ISA level (%d differ)", bad);
		ok(gaps <= 17, "at most 17 unknown opcodes reach routine words "
		    "(%d do)", gaps);
	}
	/* Switching, on samples that call methods, use WIDE, arrays,
	 * globals and barriers. */
	md_each_switch(switch_one, &cs);
	tap_diag("total %.1f s", md_now() - t0);
	return done_testing();
}
