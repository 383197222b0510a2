/*
 * The micro levels' differential harness (micro-diff-lib.h).
 */
/* strtok_r, clock_gettime: POSIX, not C11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm.h"
#include "engine.h"
#include "ijvm.h"
#include "micro-diff-lib.h"
#include "mic1.h"
#include "pmic.h"
#include "util.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

/* ---- the two levels ------------------------------------------------------ */

const struct micro_level md_mic1 = { "Mic-1", "micro-cycles", &mic1_model };
const struct micro_level md_pmic = { "PMIC", "PMIC cycles", &pmic_model };

/* A model's state over m with store cs, made and freed here. */
static void *
state_new(const struct micro_level *l, const struct machine *m,
    const void *cs)
{
	void *st = xcalloc(1, l->md->state_size);

	l->md->state_init(st, m, cs);
	return st;
}

static void
state_free(const struct micro_level *l, void *st)
{
	l->md->state_free(st);
	free(st);
}

/* ---- helpers ------------------------------------------------------------- */

void
md_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

char *
md_path(const char *rel)
{
	return xasprintf("%s/%s", MICDB_SRCDIR, rel);
}

double
md_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

uint64_t
md_rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int
md_known_op(int op)
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

/* ---- samples and machines ------------------------------------------------ */

/* A sample from programs/NAME(.jas|.opts|.input); 0 or -1. */
int
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
			} else if (strcmp(tok, "--fork-join") == 0) {
				s->fork_join = 1;
			} else if (strcmp(tok, "--program") == 0 &&
			    (tok = strtok_r(NULL, " \t\n", &save)) != NULL &&
			    s->nprogs < MD_MAX_PROGS) {
				char *colon = strrchr(tok, ':'), *dash, *path;
				size_t k = s->nprogs;

				*colon = '\0';
				s->first[k] = (uint32_t)strtoul(colon + 1, &dash,
				    10);
				s->last[k] = *dash == '-' ?
				    (uint32_t)strtoul(dash + 1, NULL, 10) :
				    s->first[k];
				path = md_path(tok);
				if (program_load_file(&s->prog[k], path,
				    &cause) != 0) {
					md_diag("%s", cause);
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
			md_diag("%s", cause);
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

void
sample_free(struct sample *s)
{
	for (size_t i = 0; i < s->nprogs; i++)
		program_free(&s->prog[i]);
	free(s->input);
}

int
md_machine(struct machine *m, const struct sample *s, uint32_t ncores)
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
		md_diag("%s", cause);
		free(cause);
		return -1;
	}
	if (s->fork_join)
		machine_fork_join(m);
	if (s->input_len > 0)
		machine_add_input(m, 0, s->input, s->input_len);
	return 0;
}

int
md_all_stopped(const struct machine *m)
{
	struct ref_summary sum;

	ref_count(m, &sum);
	return !engine_live(&sum);
}

int
md_run_ref(struct machine *m, uint64_t limit)
{
	while (!md_all_stopped(m)) {
		if (limit-- == 0)
			return -1;
		ref_step(m, NULL, NULL);
	}
	return 0;
}

int
md_run_micro(const struct micro_level *l, void *st, struct machine *m,
    uint64_t limit)
{
	while (!md_all_stopped(m)) {
		if (limit-- == 0)
			return -1;
		l->md->step(st, m, NULL, NULL);
	}
	return 0;
}

int
md_same_state(const struct machine *a, const struct machine *b, int strict,
    int steps)
{
	uint32_t n = a->cfg.ncores;

	for (uint32_t c = 0; c < n; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];
		const struct buf *ox = &a->io[c].out, *oy = &b->io[c].out;

		if (x->status != y->status || x->fault != y->fault) {
			md_diag("core %u: status %u/%u fault %u/%u", c,
			    x->status, y->status, x->fault, y->fault);
			return 0;
		}
		if (ox->len != oy->len || (ox->len &&
		    memcmp(ox->data, oy->data, ox->len) != 0)) {
			md_diag("core %u: output differs (%zu vs %zu bytes)",
			    c, ox->len, oy->len);
			return 0;
		}
		if (!strict || x->status == CORE_ERROR)
			continue;
		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->cpp != y->cpp) {
			md_diag("core %u: PC %d/%d SP %d/%d LV %d/%d CPP "
			    "%d/%d", c, x->pc, y->pc, x->sp, y->sp, x->lv,
			    y->lv, x->cpp, y->cpp);
			return 0;
		}
		if (steps && x->steps != y->steps) {
			md_diag("core %u: steps %llu/%llu", c,
			    (unsigned long long)x->steps,
			    (unsigned long long)y->steps);
			return 0;
		}
	}
	if (!strict)
		return 1;
	for (size_t i = 0; i < (size_t)n * a->cfg.stack_words; i++)
		if (a->stacks[i] != b->stacks[i]) {
			md_diag("stack word 0x%x of core %zu: %d/%d",
			    MM_STACK_BASE + (unsigned)(i % a->cfg.stack_words),
			    i / a->cfg.stack_words, a->stacks[i],
			    b->stacks[i]);
			return 0;
		}
	if (memcmp(a->globals, b->globals, MM_GLOBALS_WORDS *
	    sizeof *a->globals) != 0) {
		md_diag("globals differ");
		return 0;
	}
	if (a->heap_top != b->heap_top || memcmp(a->heap, b->heap,
	    a->cfg.heap_words * sizeof *a->heap) != 0) {
		md_diag("heap differs (top %u/%u)", a->heap_top, b->heap_top);
		return 0;
	}
	return 1;
}

/* ---- runs ---------------------------------------------------------------- */

static uint64_t
total(const struct machine *m, int cycles)
{
	uint64_t t = 0;

	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		t += cycles ? m->cores[c].cycles : m->cores[c].steps;
	return t;
}

void
md_diff_one(const struct micro_level *l, const void *cs,
    const struct sample *s, uint32_t ncores, int strict, int *finished,
    int *same)
{
	struct machine a, b;
	void *st;
	double t0 = md_now();
	int ra, rb;

	*finished = *same = 0;
	if (md_machine(&a, s, ncores) != 0)
		return;
	if (md_machine(&b, s, ncores) != 0) {
		machine_free(&a);
		return;
	}
	st = state_new(l, &b, cs);
	for (uint32_t c = 0; c < ncores; c++)
		l->md->start_core(st, &b, c);
	ra = md_run_ref(&a, 50000000);
	rb = md_run_micro(l, st, &b, 500000000);
	*finished = ra == 0 && rb == 0;
	*same = md_same_state(&a, &b, strict, strict);
	md_diag("%s x%u: %llu instructions, %llu %s (%.2f per instruction), "
	    "%.2f s", s->name, ncores, (unsigned long long)total(&a, 0),
	    (unsigned long long)total(&b, 1), l->cycles,
	    total(&a, 0) ? (double)total(&b, 1) / (double)total(&a, 0) : 0.0,
	    md_now() - t0);
	state_free(l, st);
	machine_free(&a);
	machine_free(&b);
}

/* Run the cores that are not at a boundary of level l until all are
 * (the debugger's "run the others to their next boundary"). */
static int
to_boundaries(const struct micro_level *l, void *st, struct machine *m)
{
	uint8_t *mask = xcalloc(m->cfg.ncores, 1);
	struct ref_mask rm = { mask };
	int rc = 0;

	for (int guard = 0; ; guard++) {
		int any = 0;

		for (uint32_t c = 0; c < m->cfg.ncores; c++) {
			const struct core *k = &m->cores[c];

			mask[c] = (k->status == CORE_RUNNING) &&
			    !l->md->at_boundary(st, m, c);
			any |= mask[c];
		}
		if (!any)
			break;
		if (guard > 100000) {
			rc = -1;
			break;
		}
		l->md->step(st, m, &rm, NULL);
	}
	free(mask);
	return rc;
}

/* Leave micro level i (1-based; 0 is the ISA level, nothing to do) at
 * boundaries: 0, or -1 when a core would not get there. */
static int
leave_level(const struct micro_level *const *levels, void **st, int i,
    struct machine *m)
{
	int rc = 0;

	if (i == 0)
		return 0;
	if (to_boundaries(levels[i - 1], st[i - 1], m) != 0)
		rc = -1;
	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		if (levels[i - 1]->md->leave(st[i - 1], m, c) != 0)
			rc = -1;
	return rc;
}

int
md_switch_one(const struct micro_level *const *levels,
    const void *const *cs, int nlevels, const struct sample *s,
    uint32_t ncores, uint64_t seed, int *switches, unsigned *used)
{
	struct machine a, b;
	void *st[4];
	uint64_t x = seed, guard = 0;
	int stuck = 0, level = 0, same;

	*switches = 0;
	*used = 1;
	if (nlevels < 1 || nlevels > 4 || md_machine(&a, s, ncores) != 0)
		return 0;
	if (md_machine(&b, s, ncores) != 0) {
		machine_free(&a);
		return 0;
	}
	for (int i = 0; i < nlevels; i++)
		st[i] = state_new(levels[i], &b, cs[i]);
	(void)md_run_ref(&a, 50000000);
	while (!md_all_stopped(&b) && guard++ < 10000) {
		uint64_t r;
		int next = (int)(md_rnd(&x) % (uint64_t)(nlevels + 1));

		if (next == level)
			next = (level + 1) % (nlevels + 1);
		if (leave_level(levels, st, level, &b) != 0)
			stuck = 1;
		level = next;
		*used |= 1u << level;
		(*switches)++;
		for (uint32_t c = 0; c < ncores && level != 0; c++)
			levels[level - 1]->md->enter(st[level - 1], &b, c);
		r = md_rnd(&x) % (level == 0 ? 3000 : 20000);
		for (uint64_t i = 0; i < r && !md_all_stopped(&b); i++) {
			if (level == 0)
				ref_step(&b, NULL, NULL);
			else
				levels[level - 1]->md->step(st[level - 1], &b,
				    NULL, NULL);
		}
	}
	if (leave_level(levels, st, level, &b) != 0)
		stuck = 1;
	(void)md_run_ref(&b, 50000000);
	same = !stuck && md_same_state(&a, &b, 1, 1);
	for (int i = 0; i < nlevels; i++)
		state_free(levels[i], st[i]);
	machine_free(&a);
	machine_free(&b);
	return same;
}

/* ---- faults -------------------------------------------------------------- */

/* Run s on one core at both levels; 1 when the micro level faults as the
 * ISA level does (want, or any fault when want is FAULT_NONE) and leaves
 * the same fault_pc, SP, LV, steps and stack. */
static int
fault_run(const struct micro_level *l, const void *cs,
    const struct sample *s, int want, uint64_t limit, int *fault)
{
	struct machine a, b;
	void *st;
	const struct core *x, *y;
	int same;

	*fault = FAULT_NONE;
	if (md_machine(&a, s, 1) != 0)
		return 0;
	if (md_machine(&b, s, 1) != 0) {
		machine_free(&a);
		return 0;
	}
	st = state_new(l, &b, cs);
	l->md->start_core(st, &b, 0);
	(void)md_run_ref(&a, limit);
	(void)md_run_micro(l, st, &b, limit * 100);
	x = &a.cores[0];
	y = &b.cores[0];
	*fault = y->fault;
	same = x->status == CORE_ERROR && y->status == x->status &&
	    (want == FAULT_NONE || x->fault == want) &&
	    y->fault == x->fault && y->fault_pc == x->fault_pc &&
	    y->sp == x->sp && y->lv == x->lv && y->steps == x->steps &&
	    memcmp(a.stacks, b.stacks, a.cfg.stack_words *
	    sizeof *a.stacks) == 0;
	state_free(l, st);
	machine_free(&a);
	machine_free(&b);
	return same;
}

int
md_fault_matches(const struct micro_level *l, const void *cs,
    const uint8_t *code, size_t n, int *fault)
{
	struct sample s;
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
	same = fault_run(l, cs, &s, FAULT_NONE, 1000, fault);
	sample_free(&s);
	return same;
}

int
md_sample_fault_matches(const struct micro_level *l, const void *cs,
    const struct sample *s, int want)
{
	int fault;

	return fault_run(l, cs, s, want, 1000000, &fault);
}

void
md_diff_check(md_ok_fn ok, const struct micro_level *l, const void *cs,
    const struct sample *s, uint32_t ncores, int strict)
{
	int finished, same;

	md_diff_one(l, cs, s, ncores, strict, &finished, &same);
	ok(finished, "%s on %u cores: both levels finish", s->name, ncores);
	ok(same, "%s on %u cores: same final state%s", s->name, ncores,
	    strict ? "" : " (output, status, fault)");
}

void
md_diff_samples(md_ok_fn ok, const struct micro_level *l, const void *cs,
    const char *const *faults)
{
	static const char *const samples[] = {
		"hello", "echo", "reverse", "multiply", "factorial", "gcd",
		"decimal", "fib", "recsum", "bubble", "sieve", "wide",
		"parsum", "collatz", "workqueue", "matmul", "mimd", "forksum",
		"forkcall", NULL,
	};
	static const char *const bench[] = {
		"uniform", "divergent", "barrier", "mimd0", "mimd1", "mimd2",
		"mimd3", NULL,
	};

	for (int i = 0; samples[i] != NULL; i++) {
		struct sample s;

		if (MD_QUICK && strcmp(samples[i], "multiply") == 0)
			continue;
		if (sample_load(&s, "programs", samples[i]) != 0) {
			ok(0, "%s loads", samples[i]);
			continue;
		}
		md_diff_check(ok, l, cs, &s, s.ncores, 1);
		if (!s.fixed_cores && s.ncores > 1) {
			md_diff_check(ok, l, cs, &s, 1, 1);
			md_diff_check(ok, l, cs, &s, 33, 1);
			if (!MD_QUICK)
				md_diff_check(ok, l, cs, &s, 1000, 1);
		}
		sample_free(&s);
	}
	for (int i = 0; bench[i] != NULL; i++) {
		struct sample s;

		if (sample_load(&s, "programs/bench", bench[i]) != 0) {
			ok(0, "bench/%s loads", bench[i]);
			continue;
		}
		md_diff_check(ok, l, cs, &s, 1, 1);
		md_diff_check(ok, l, cs, &s, 33, 1);
		sample_free(&s);
	}
	for (int i = 0; faults[i] != NULL; i++) {
		struct sample s;

		if (sample_load(&s, "programs/faults", faults[i]) != 0) {
			ok(0, "faults/%s loads", faults[i]);
			continue;
		}
		md_diff_check(ok, l, cs, &s, s.ncores, 0);
		sample_free(&s);
	}
}

void
md_each_switch(void (*fn)(void *ctx, const struct sample *s, uint32_t ncores,
    uint64_t seed), void *ctx)
{
	static const struct { const char *name; uint32_t ncores; } sw[] = {
		{ "fib", 1 }, { "wide", 1 }, { "bubble", 1 },
		{ "sieve", 1 }, { "echo", 1 }, { "decimal", 1 },
		{ "parsum", 8 }, { "matmul", 8 }, { "collatz", 32 },
		{ "mimd", 4 }, { "forksum", 8 }, { "forkcall", 8 }, { NULL, 0 },
	};

	for (int i = 0; sw[i].name != NULL; i++) {
		struct sample s;

		if (sample_load(&s, "programs", sw[i].name) != 0)
			continue;
		for (uint64_t seed = 1; seed <= 3; seed++)
			fn(ctx, &s, sw[i].ncores,
			    seed * 0x9E3779B97F4A7C15ull + (uint64_t)i);
		sample_free(&s);
	}
}
