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
 * Under ASan/UBSan the 1,000-core runs and multiply are left out (QUICK).
 *
 * workqueue hands out work with ATOMICADD, which could make the stacks
 * depend on the interleaving of cores; the levels interleave the same
 * way (every core runs the same instruction sequence, in core order), so
 * it is compared strictly too.
 */
/* strtok_r, clock_gettime: POSIX, not C11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ijvm.h"
#include "machine.h"
#include "mal.h"
#include "mic1.h"
#include "program.h"
#include "ref.h"
#include "tap.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

#define MAX_PROGS 4

/* Under the sanitizers (the -asan build) everything runs several times
 * slower: skip the 1,000-core runs and the longest sample, which take
 * the same code paths as the rest. */
#if defined(__SANITIZE_ADDRESS__)
#define QUICK 1
#else
#define QUICK 0
#endif

/* One sample: its programs, the core ranges they run on and its input. */
struct sample {
	char		 name[64];
	struct program	 prog[MAX_PROGS];
	const struct program *ptr[MAX_PROGS];
	uint32_t	 first[MAX_PROGS], last[MAX_PROGS];  /* ranges */
	size_t		 nprogs;
	uint32_t	 ncores;         /* from .opts, 1 if none */
	int		 fixed_cores;    /* MIMD ranges: only ncores works */
	uint8_t		*input;
	size_t		 input_len;
};

static char *
path_of(const char *rel)
{
	return xasprintf("%s/%s", MICDB_SRCDIR, rel);
}

/* A sample from programs/NAME(.jas|.opts|.input); 0 or -1. */
static int
sample_load(struct sample *s, const char *dir, const char *name)
{
	char *p, *cause = NULL, *opts = NULL;
	uint8_t *data;
	size_t len;

	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	s->ncores = 1;
	p = xasprintf("%s/%s/%s.opts", MICDB_SRCDIR, dir, name);
	if (read_file(p, &data, &len, &cause) == 0) {
		opts = xstrndup((const char *)data, len);
		free(data);
	}
	free(cause);
	cause = NULL;
	free(p);
	if (opts != NULL) {
		char *save = NULL, *tok;

		for (tok = strtok_r(opts, " \t\n", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t\n", &save)) {
			if (strcmp(tok, "--cores") == 0 &&
			    (tok = strtok_r(NULL, " \t\n", &save)) != NULL) {
				s->ncores = (uint32_t)strtoul(tok, NULL, 10);
			} else if (strcmp(tok, "--program") == 0 &&
			    (tok = strtok_r(NULL, " \t\n", &save)) != NULL &&
			    s->nprogs < MAX_PROGS) {
				char *colon = strrchr(tok, ':'), *dash, *path;
				size_t k = s->nprogs;

				*colon = '\0';
				s->first[k] = (uint32_t)strtoul(colon + 1, &dash,
				    10);
				s->last[k] = *dash == '-' ?
				    (uint32_t)strtoul(dash + 1, NULL, 10) :
				    s->first[k];
				path = path_of(tok);
				if (program_load_file(&s->prog[k], path,
				    &cause) != 0) {
					tap_diag("%s", cause);
					free(cause);
					free(path);
					free(opts);
					return -1;
				}
				free(path);
				s->nprogs++;
				s->fixed_cores = 1;
			}
		}
		free(opts);
	}
	if (s->nprogs == 0) {
		p = xasprintf("%s/%s/%s.jas", MICDB_SRCDIR, dir, name);
		if (program_load_file(&s->prog[0], p, &cause) != 0) {
			tap_diag("%s", cause);
			free(cause);
			free(p);
			return -1;
		}
		free(p);
		s->first[0] = 0;
		s->last[0] = UINT32_MAX;
		s->nprogs = 1;
	}
	for (size_t i = 0; i < s->nprogs; i++)
		s->ptr[i] = &s->prog[i];
	p = xasprintf("%s/%s/%s.input", MICDB_SRCDIR, dir, name);
	if (read_file(p, &s->input, &s->input_len, &cause) != 0) {
		free(cause);
		s->input = NULL;
		s->input_len = 0;
	}
	free(p);
	return 0;
}

static void
sample_free(struct sample *s)
{
	for (size_t i = 0; i < s->nprogs; i++)
		program_free(&s->prog[i]);
	free(s->input);
}

static int
machine_for(struct machine *m, const struct sample *s, uint32_t ncores)
{
	struct machine_config cfg = { ncores, MM_DEFAULT_STACK_WORDS,
	    1u << 16, 32 };
	uint16_t *cp = xcalloc(ncores, sizeof *cp);
	char *cause = NULL;
	int rc;

	for (uint32_t c = 0; c < ncores; c++)
		for (size_t i = 0; i < s->nprogs; i++)
			if (c >= s->first[i] && c <= s->last[i]) {
				cp[c] = (uint16_t)i;
				break;
			}
	rc = machine_init(m, &cfg, (const struct program **)s->ptr,
	    s->nprogs, cp, &cause);
	free(cp);
	if (rc != 0) {
		tap_diag("%s", cause);
		free(cause);
		return -1;
	}
	if (s->input_len > 0)
		machine_add_input(m, 0, s->input, s->input_len);
	return 0;
}

static int
all_stopped(const struct machine *m)
{
	struct ref_summary sum;

	ref_count(m, &sum);
	return sum.running + sum.waiting == 0;
}

/* Run to the end: 0, or -1 when the limit ran out. */
static int
run_ref(struct machine *m, uint64_t limit)
{
	while (!all_stopped(m)) {
		if (limit-- == 0)
			return -1;
		ref_step(m, NULL, NULL);
	}
	return 0;
}

static int
run_mic(struct mic1_state *st, struct machine *m, uint64_t limit)
{
	while (!all_stopped(m)) {
		if (limit-- == 0)
			return -1;
		mic1_step(st, m, NULL, NULL);
	}
	return 0;
}

/*
 * Compare two final states; the first difference goes to diag.  Faulted
 * cores are compared by status and fault code only (the levels may fault
 * at different points); with strict off, only output and status.
 */
static int
same_state(const struct machine *a, const struct machine *b, int strict,
    int steps)
{
	uint32_t n = a->cfg.ncores;

	for (uint32_t c = 0; c < n; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];
		const struct buf *ox = &a->io[c].out, *oy = &b->io[c].out;

		if (x->status != y->status || x->fault != y->fault) {
			tap_diag("core %u: status %u/%u fault %u/%u", c,
			    x->status, y->status, x->fault, y->fault);
			return 0;
		}
		if (ox->len != oy->len || (ox->len &&
		    memcmp(ox->data, oy->data, ox->len) != 0)) {
			tap_diag("core %u: output differs (%zu vs %zu bytes)",
			    c, ox->len, oy->len);
			return 0;
		}
		if (!strict || x->status == CORE_ERROR)
			continue;
		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->cpp != y->cpp) {
			tap_diag("core %u: PC %d/%d SP %d/%d LV %d/%d CPP "
			    "%d/%d", c, x->pc, y->pc, x->sp, y->sp, x->lv,
			    y->lv, x->cpp, y->cpp);
			return 0;
		}
		if (steps && x->steps != y->steps) {
			tap_diag("core %u: steps %llu/%llu", c,
			    (unsigned long long)x->steps,
			    (unsigned long long)y->steps);
			return 0;
		}
	}
	if (!strict)
		return 1;
	for (size_t i = 0; i < (size_t)n * a->cfg.stack_words; i++)
		if (a->stacks[i] != b->stacks[i]) {
			tap_diag("stack word 0x%x of core %zu: %d/%d",
			    MM_STACK_BASE + (unsigned)(i % a->cfg.stack_words),
			    i / a->cfg.stack_words, a->stacks[i],
			    b->stacks[i]);
			return 0;
		}
	if (memcmp(a->globals, b->globals, MM_GLOBALS_WORDS *
	    sizeof *a->globals) != 0) {
		tap_diag("globals differ");
		return 0;
	}
	if (a->heap_top != b->heap_top || memcmp(a->heap, b->heap,
	    a->cfg.heap_words * sizeof *a->heap) != 0) {
		tap_diag("heap differs (top %u/%u)", a->heap_top, b->heap_top);
		return 0;
	}
	return 1;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t
total(const struct machine *m, int cycles)
{
	uint64_t t = 0;

	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		t += cycles ? m->cores[c].cycles : m->cores[c].steps;
	return t;
}

/* A sample at one core count, both levels from the start. */
static void
diff_one(const struct sample *s, const struct mic1_store *cs,
    uint32_t ncores, int strict)
{
	struct machine a, b;
	struct mic1_state st;
	double t0 = now();
	int ra, rb;

	if (machine_for(&a, s, ncores) != 0 || machine_for(&b, s, ncores) != 0) {
		ok(0, "%s on %u cores: machine", s->name, ncores);
		return;
	}
	mic1_state_init(&st, &b, cs);
	for (uint32_t c = 0; c < ncores; c++)
		mic1_start_core(&st, &b, c);
	ra = run_ref(&a, 50000000);
	rb = run_mic(&st, &b, 500000000);
	ok(ra == 0 && rb == 0, "%s on %u cores: both levels finish", s->name,
	    ncores);
	ok(same_state(&a, &b, strict, strict), "%s on %u cores: same final "
	    "state%s", s->name, ncores, strict ? "" : " (output, status, "
	    "fault)");
	tap_diag("%s x%u: %llu instructions, %llu micro-cycles (%.2f per "
	    "instruction), %.2f s", s->name, ncores,
	    (unsigned long long)total(&a, 0),
	    (unsigned long long)total(&b, 1),
	    total(&a, 0) ? (double)total(&b, 1) / (double)total(&a, 0) : 0.0,
	    now() - t0);
	mic1_state_free(&st);
	machine_free(&a);
	machine_free(&b);
}

/* A small deterministic generator (xorshift), so failures repeat. */
static uint64_t
rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Run the cores that are not at a boundary until all are (the
 * debugger's "run the others to their next boundary"). */
static int
to_boundaries(struct mic1_state *st, struct machine *m)
{
	uint8_t *mask = xcalloc(m->cfg.ncores, 1);
	struct ref_mask rm = { mask };
	int rc = 0;

	for (int guard = 0; ; guard++) {
		int any = 0;

		for (uint32_t c = 0; c < m->cfg.ncores; c++) {
			const struct core *k = &m->cores[c];

			mask[c] = (k->status == CORE_RUNNING) &&
			    !mic1_at_boundary(st, m, c);
			any |= mask[c];
		}
		if (!any)
			break;
		if (guard > 100000) {
			rc = -1;
			break;
		}
		mic1_step(st, m, &rm, NULL);
	}
	free(mask);
	return rc;
}

/* Alternate levels at random points; compare with a plain ISA run. */
static void
switch_one(const struct sample *s, const struct mic1_store *cs,
    uint32_t ncores, uint64_t seed)
{
	struct machine a, b;
	struct mic1_state st;
	uint64_t x = seed, guard = 0;
	int switches = 0, stuck = 0;

	if (machine_for(&a, s, ncores) != 0 || machine_for(&b, s, ncores) != 0) {
		ok(0, "%s: switching: machine", s->name);
		return;
	}
	mic1_state_init(&st, &b, cs);
	(void)run_ref(&a, 50000000);
	while (!all_stopped(&b) && guard++ < 10000) {
		uint64_t r = rnd(&x) % 3000;

		/* ISA for r steps */
		for (uint64_t i = 0; i < r && !all_stopped(&b); i++)
			ref_step(&b, NULL, NULL);
		if (all_stopped(&b))
			break;
		/* enter, micro-steps, back to boundaries, leave */
		for (uint32_t c = 0; c < ncores; c++)
			mic1_enter(&st, &b, c);
		r = rnd(&x) % 20000;
		for (uint64_t i = 0; i < r && !all_stopped(&b); i++)
			mic1_step(&st, &b, NULL, NULL);
		if (to_boundaries(&st, &b) != 0)
			stuck = 1;
		for (uint32_t c = 0; c < ncores; c++)
			if (mic1_leave(&st, &b, c) != 0)
				stuck = 1;
		switches += 2;
	}
	(void)run_ref(&b, 50000000);
	ok(!stuck && same_state(&a, &b, 1, 1), "%s on %u cores: %d random "
	    "level switches (seed %llu) end in the never-switched state",
	    s->name, ncores, switches, (unsigned long long)seed);
	mic1_state_free(&st);
	machine_free(&a);
	machine_free(&b);
}

/*
 * A one-core program built from bytes: BIPUSH 7, then code, then HALT
 * after three filler bytes (operands of whatever code ends with).  Both
 * levels run it; the fault, fault_pc, SP, LV, steps and the stack must be
 * the ISA level's.  1 when they are.
 */
static int
fault_matches(const struct mic1_store *cs, const uint8_t *code, size_t n,
    int *fault)
{
	struct sample s;
	struct machine a, b;
	struct mic1_state st;
	const struct core *x, *y;
	uint8_t *text = xcalloc(n + 6, 1);
	int same;

	memset(&s, 0, sizeof s);
	text[0] = OP_BIPUSH;
	text[1] = 7;
	memcpy(text + 2, code, n);
	text[n + 5] = OP_HALT;
	s.prog[0].text = text;
	s.prog[0].text_size = (uint32_t)n + 6;
	s.prog[0].cp = xcalloc(1, sizeof *s.prog[0].cp);
	s.prog[0].cp_size = 1;
	s.prog[0].main_nlocals = 1;
	s.ptr[0] = &s.prog[0];
	s.last[0] = UINT32_MAX;
	s.nprogs = 1;
	s.ncores = 1;
	if (machine_for(&a, &s, 1) != 0 || machine_for(&b, &s, 1) != 0) {
		sample_free(&s);
		return 0;
	}
	mic1_state_init(&st, &b, cs);
	mic1_start_core(&st, &b, 0);
	(void)run_ref(&a, 1000);
	(void)run_mic(&st, &b, 100000);
	x = &a.cores[0];
	y = &b.cores[0];
	*fault = y->fault;
	same = x->status == CORE_ERROR && y->status == x->status &&
	    y->fault == x->fault && y->fault_pc == x->fault_pc &&
	    y->sp == x->sp && y->lv == x->lv && y->steps == x->steps &&
	    memcmp(a.stacks, b.stacks, a.cfg.stack_words *
	    sizeof *a.stacks) == 0;
	mic1_state_free(&st);
	machine_free(&a);
	machine_free(&b);
	sample_free(&s);
	return same;
}

/* Is op in ijvm-ops.def? */
static int
known_op(int op)
{
	switch (op) {
#define IJVM_OP(sym, code, k1, k2, pops, pushes, cls, desc) case code:
#include "ijvm-ops.def"
#undef IJVM_OP
		return 1;
	default:
		return 0;
	}
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
		"one_core_fails", "return_main", "bad_wide", NULL,
	};
	static const char *const bench[] = {
		"uniform", "divergent", "barrier", "mimd0", "mimd1", "mimd2",
		"mimd3", NULL,
	};
	struct mic1_store cs;
	struct mal_syms syms;
	char *path = path_of("microcode/mic1.mal"), *cause = NULL;
	double t0 = now();

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

	for (int i = 0; samples[i] != NULL; i++) {
		struct sample s;

		if (QUICK && strcmp(samples[i], "multiply") == 0)
			continue;
		if (sample_load(&s, "programs", samples[i]) != 0) {
			ok(0, "%s loads", samples[i]);
			continue;
		}
		diff_one(&s, &cs, s.ncores, 1);
		if (!s.fixed_cores && s.ncores > 1) {
			diff_one(&s, &cs, 1, 1);
			diff_one(&s, &cs, 33, 1);
			if (!QUICK)
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
	/* Faults the microprogram detects before changing anything leave
	 * the state the ISA level leaves. */
	{
		struct sample s;
		struct machine a, b;
		struct mic1_state st;

		if (sample_load(&s, "programs/faults", "return_main") == 0 &&
		    machine_for(&a, &s, 1) == 0 && machine_for(&b, &s, 1) == 0) {
			const struct core *x = &a.cores[0], *y = &b.cores[0];

			mic1_state_init(&st, &b, &cs);
			mic1_start_core(&st, &b, 0);
			(void)run_ref(&a, 1000000);
			(void)run_mic(&st, &b, 10000000);
			ok(x->fault == FAULT_RETURN_MAIN && y->fault == x->fault &&
			    y->fault_pc == x->fault_pc && y->sp == x->sp &&
			    y->lv == x->lv && y->steps == x->steps &&
			    memcmp(a.stacks, b.stacks, a.cfg.stack_words *
			    sizeof *a.stacks) == 0, "IRETURN from main: same "
			    "fault, PC, SP, LV, steps and stack at both levels");
			mic1_state_free(&st);
			machine_free(&a);
			machine_free(&b);
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

			if (!known_op(op) || op == OP_ILOAD || op == OP_ISTORE ||
			    op == OP_IINC)
				continue;
			if (!fault_matches(&cs, code, 2, &fault)) {
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

			if (known_op(op))
				continue;
			if (cs.word[op] != dflt) {
				(void)fault_matches(&cs, code, 1, &fault);
				tap_diag("unknown opcode 0x%02x: control-store "
				    "word in use, micro fault %d", op, fault);
				gaps++;
				continue;
			}
			if (!fault_matches(&cs, code, 1, &fault)) {
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
				switch_one(&s, &cs, sw[i].ncores,
				    seed * 0x9E3779B97F4A7C15ull + (uint64_t)i);
			sample_free(&s);
		}
	}
	tap_diag("total %.1f s", now() - t0);
	return done_testing();
}
