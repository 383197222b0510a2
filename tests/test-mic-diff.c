/*
 * Differential test of the micro level: every sample program run by the
 * Mic-1 simulator with microcode/mic1.mal must end in the state the
 * reference interpreter (ref.c) leaves - memory (stacks word for word,
 * globals, heap), PC, SP, LV, CPP, status, fault code, instruction counts
 * and output - at 1 core and, for the many-core samples, at 33 and 1,000
 * cores.  Then the same with random switches between the levels at
 * instruction boundaries (doc/mic1.md section 5): running on after any switch
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
#include "microcode.h"
#include "micro-diff-lib.h"
#include "tap.h"

/* A one-core sample from bytes: text, a constant pool and main's locals
 * (the program owns copies, sample_free releases them). */
static void
mk_sample(struct sample *s, const char *name, const uint8_t *text,
    size_t n, const int32_t *cp, size_t ncp, uint32_t nlocals)
{
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	s->prog[0].text = malloc(n);
	s->prog[0].cp = calloc(ncp > 0 ? ncp : 1, sizeof *s->prog[0].cp);
	if (s->prog[0].text == NULL || s->prog[0].cp == NULL) {
		perror("test-mic-diff");
		exit(99);
	}
	memcpy(s->prog[0].text, text, n);
	if (ncp > 0)
		memcpy(s->prog[0].cp, cp, ncp * sizeof *cp);
	s->prog[0].text_size = (uint32_t)n;
	s->prog[0].cp_size = (uint32_t)(ncp > 0 ? ncp : 1);
	s->prog[0].main_nlocals = nlocals;
	s->ptr[0] = &s->prog[0];
	s->last[0] = UINT32_MAX;
	s->nprogs = 1;
	s->ncores = 1;
}

/* s must fault with want at both levels, the micro level leaving the ISA
 * level's fault PC, SP, LV, steps and stack. */
static void
fault_check(const struct mic1_store *cs, struct sample *s, int want,
    const char *what)
{
	ok(md_sample_fault_matches(&md_mic1, cs, s, want), "%s: fault %d, "
	    "same PC, SP, LV, steps and stack at both levels", what, want);
	sample_free(s);
}

/* s must run to the end at both levels, in the same state. */
static void
same_check(const struct mic1_store *cs, struct sample *s, const char *what)
{
	int finished, same;

	md_diff_one(&md_mic1, cs, s, 1, 1, &finished, &same);
	ok(finished && same, "%s: both levels finish in the same state", what);
	sample_free(s);
}

/*
 * Programs that fault on the checks the microprogram makes, next to the
 * same programs one step inside the limit.  A method at byte 6 is called
 * with one argument (OBJREF) from main: BIPUSH 0, INVOKEVIRTUAL 0, HALT.
 */
static void
check_faults(const struct mic1_store *cs)
{
	struct sample s;
	const int32_t meth[] = { 6 };

	/* IRETURN with an empty operand stack: SP is the floor (the saved
	 * LV), so the result would come from the linkage words. */
	{
		const uint8_t t[] = { OP_BIPUSH, 0, OP_INVOKEVIRTUAL, 0, 0,
		    OP_HALT, 0, 1, 0, 0, OP_IRETURN, OP_HALT };

		mk_sample(&s, "ireturn_empty", t, sizeof t, meth, 1, 1);
		fault_check(cs, &s, FAULT_STACK_UNDERFLOW,
		    "IRETURN on an empty method stack");
	}
	/* The same with locals, and one word on the stack: returns. */
	{
		const uint8_t t[] = { OP_BIPUSH, 0, OP_INVOKEVIRTUAL, 0, 0,
		    OP_HALT, 0, 1, 0, 2, OP_BIPUSH, 9, OP_IRETURN, OP_HALT };

		mk_sample(&s, "ireturn_one", t, sizeof t, meth, 1, 1);
		same_check(cs, &s, "IRETURN with one word on a method stack");
	}
	{
		const uint8_t t[] = { OP_BIPUSH, 0, OP_INVOKEVIRTUAL, 0, 0,
		    OP_HALT, 0, 1, 0, 3, OP_IRETURN, OP_HALT };

		mk_sample(&s, "ireturn_empty_locals", t, sizeof t, meth, 1, 3);
		fault_check(cs, &s, FAULT_STACK_UNDERFLOW,
		    "IRETURN on an empty stack above 3 locals");
	}
	/* IRETURN from main, whatever its locals. */
	{
		const uint8_t t[] = { OP_BIPUSH, 7, OP_IRETURN, OP_HALT };

		mk_sample(&s, "return_main3", t, sizeof t, NULL, 0, 3);
		fault_check(cs, &s, FAULT_RETURN_MAIN,
		    "IRETURN from a main with 3 locals");
	}
	/* IALOAD and IASTORE one past the end and at the end of an array of
	 * 3: the index check's fault leaves everything as it was. */
	{
		const uint8_t t[] = { OP_BIPUSH, 9, OP_BIPUSH, 3, OP_NEWARRAY,
		    OP_ISTORE, 0, OP_BIPUSH, 3, OP_ILOAD, 0, OP_IALOAD,
		    OP_HALT };

		mk_sample(&s, "iaload_end", t, sizeof t, NULL, 0, 1);
		fault_check(cs, &s, FAULT_ARRAY_BOUNDS, "IALOAD a[3] of 3");
	}
	{
		const uint8_t t[] = { OP_BIPUSH, 9, OP_BIPUSH, 3, OP_NEWARRAY,
		    OP_ISTORE, 0, OP_BIPUSH, 2, OP_ILOAD, 0, OP_IALOAD,
		    OP_HALT };

		mk_sample(&s, "iaload_last", t, sizeof t, NULL, 0, 1);
		same_check(cs, &s, "IALOAD a[2] of 3");
	}
	{
		const uint8_t t[] = { OP_BIPUSH, 9, OP_BIPUSH, 3, OP_NEWARRAY,
		    OP_ISTORE, 0, OP_BIPUSH, 3, OP_ILOAD, 0, OP_IASTORE,
		    OP_HALT };

		mk_sample(&s, "iastore_end", t, sizeof t, NULL, 0, 1);
		fault_check(cs, &s, FAULT_ARRAY_BOUNDS, "IASTORE a[3] of 3");
	}
}

/*
 * Unknown opcodes right after instructions that leave other values in the
 * scratch registers (H, OPC, MDR, MAR) and TOS: a negative top, an array
 * element read, a taken and a not-taken branch.  What a
 * dispatch-table word does must not depend on them.
 */
static void
unknown_after(const struct mic1_store *cs)
{
	static const uint8_t prefixes[][16] = {
		/* BIPUSH -1, DUP, IADD (TOS = -2) */
		{ 5, OP_BIPUSH, 0xFF, OP_DUP, OP_IADD, OP_NOP },
		/* a[1] of a new array of 2 */
		{ 10, OP_BIPUSH, 1, OP_BIPUSH, 2, OP_NEWARRAY, OP_IALOAD,
		    OP_POP, OP_BIPUSH, 0x80, OP_NOP },
		/* IFEQ not taken on -5 */
		{ 6, OP_BIPUSH, 0xFB, OP_IFEQ, 0, 3, OP_NOP },
		/* IFLT taken on -5 (to the next byte) */
		{ 6, OP_BIPUSH, 0xFB, OP_IFLT, 0, 3, OP_NOP },
	};
	int gaps = 0, runs = 0;

	for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
		for (int op = 0; op < 256; op++) {
			uint8_t t[24];
			size_t n = prefixes[p][0];
			struct sample s;

			if (md_known_op(op) || op == 0x02)
				continue;
			memcpy(t, prefixes[p] + 1, n);
			t[n++] = (uint8_t)op;
			t[n++] = OP_HALT;
			mk_sample(&s, "unknown_after", t, n, NULL, 0, 1);
			if (!md_sample_fault_matches(&md_mic1, cs, &s,
			    FAULT_BAD_OPCODE)) {
				tap_diag("unknown opcode 0x%02x after prefix "
				    "%zu: not fault 2 as at the ISA level",
				    op, p);
				gaps++;
			}
			sample_free(&s);
			runs++;
		}
	}
	ok(gaps == 0, "unknown opcodes after 4 different instructions fault "
	    "2 as at the ISA level (%d of %d differ)", gaps, runs);
}

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
	struct microcode mc;
	char *path = md_path("microcode/mic1.mal"), *cause = NULL;
	double t0 = md_now();

	if (microcode_load(&mc, LEVEL_MIC, path, &cause) != 0) {
		ok(0, "microcode/mic1.mal assembles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	ok(1, "microcode/mic1.mal assembles");
	cs = mc.cs;
	microcode_free(&mc);
	is_int(cs.main1, MIC1_MAIN1, "its Main1 is at 0x02");
	free(path);

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
	/* WIDE before every byte but ILOAD, ISTORE and IINC, opcodes of the
	 * ISA or not: fault 3 at the WIDE, nothing changed, as at the ISA
	 * level. */
	{
		int bad = 0, fault = 0;

		for (int op = 0; op < 256; op++) {
			uint8_t code[2] = { OP_WIDE, (uint8_t)op };

			if (op == OP_ILOAD || op == OP_ISTORE || op == OP_IINC)
				continue;
			if (!md_fault_matches(&md_mic1, &cs, code, 2, &fault)) {
				tap_diag("WIDE 0x%02x: micro fault %d", op, fault);
				bad++;
			}
		}
		ok(bad == 0, "WIDE before each byte without a wide form, "
		    "known or not, faults as at the ISA level (%d differ)", bad);
	}
	/* Unknown opcodes must fault 2 as at the ISA level, with nothing
	 * changed.  Only 0x02 does not: Main1 is there (doc/mic1.md).  The other
	 * dispatch-table words that routines use (false targets of ifs) tell
	 * themselves from a dispatch: see the header of mic1.mal. */
	{
		int gaps = 0, fault = 0;

		for (int op = 0; op < 256; op++) {
			uint8_t code[1] = { (uint8_t)op };

			if (md_known_op(op))
				continue;
			if (!md_fault_matches(&md_mic1, &cs, code, 1, &fault)) {
				tap_diag("unknown opcode 0x%02x: micro fault %d, "
				    "not as at the ISA level", op, fault);
				gaps++;
			}
		}
		ok(gaps <= 1, "at most 1 unknown opcode (0x02, Main1) does not "
		    "fault as at the ISA level (%d do not)", gaps);
	}
	unknown_after(&cs);
	check_faults(&cs);
	/* Switching, on samples that call methods, use WIDE, arrays,
	 * globals and barriers. */
	md_each_switch(switch_one, &cs);
	tap_diag("total %.1f s", md_now() - t0);
	return done_testing();
}
