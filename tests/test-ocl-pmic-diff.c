/*
 * Differential test of the PMIC kernel (engine-ocl-pmic.c over
 * kernels/pmic.cl) against the PMIC C simulator (engine-pmic.c over
 * pmic-sim.c, the golden model), with the project's microprogram
 * (microcode/pmic.pm), on every sample (programs/, programs/bench,
 * programs/faults) at 1, 33 and 1,000 cores (a sample whose .opts fixes
 * its cores at that count only):
 *
 *   cycles  K = 1, the whole state compared after every PMIC cycle for
 *           the first cycles (every register of struct core, counters,
 *           status and fault, the PMIC side state, output, input
 *           position; stacks, globals and heap too up to 33 cores);
 *   runs    with K = 7 (up to 33 cores) and adaptive K, to the end or
 *           a budget of cycles (2M at 1 core, 300k at 33, 30k at 1,000),
 *           stopping at every fault, everything compared at every stop;
 *   bp      a breakpoint on an MPC (the IADD dispatch) with K = 100,000:
 *           cuts that the host must replay to, same step and cores.
 *
 * Samples that are not race free at many cores (atomic tickets, arrays
 * made by several cores in one step) compare as test-ocl-mic-diff.c's
 * do: output and statuses only, or everything but reference values.
 * Self-contained until the shared OpenCL diff harness lands.
 */
/* strtok_r: POSIX, not C11. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-ocl-pmic.h"
#include "engine-pmic.h"
#include "engine.h"
#include "ijvm.h"
#include "machine.h"
#include "mal.h"
#include "pmc.h"
#include "pmic.h"
#include "program.h"
#include "ref.h"
#include "tap.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

#define MAX_PROGS   4
#define HEAP_WORDS  262144	/* sieve on 1000 cores needs 201k */

enum cmp_level { CMP_FULL, CMP_NOREFS, CMP_OUTPUT };

struct sample {
	char		 name[80];
	struct program	 prog[MAX_PROGS];
	const struct program *ptr[MAX_PROGS];
	uint32_t	 first[MAX_PROGS], last[MAX_PROGS];
	size_t		 nprogs;
	uint32_t	 ncores;         /* from .opts, 1 if none */
	int		 fixed_cores;    /* MIMD ranges: only ncores works */
	uint8_t		*input;
	size_t		 input_len;
	enum cmp_level	 multi;          /* at more than one core */
};

struct pair {
	struct machine	 mr, mo;
	struct engine	 er, eo;
};

static struct pmic_store store;

static int
fail(const char *what, const char *fmt, ...) PRINTFLIKE(2, 3);

static int
fail(const char *what, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	tap_diag("%s: %s", what, msg);
	free(msg);
	return 0;
}

/* ---- samples ------------------------------------------------------------ */

static enum cmp_level
sample_level(const char *name)
{
	static const char *const output[] = { "workqueue", "mimd0", "mimd1",
	    "mimd2", "mimd3", NULL };
	/* uniform: every core's ATOMICADD in the same cycle, so the old
	 * values (the device latch, and the word left above SP) depend on
	 * the order the cores ran in */
	static const char *const norefs[] = { "divergent", "array_oob",
	    "barrier", "bubble", "sieve", "reverse", "uniform", NULL };

	for (int i = 0; output[i] != NULL; i++)
		if (strcmp(name, output[i]) == 0)
			return CMP_OUTPUT;
	for (int i = 0; norefs[i] != NULL; i++)
		if (strcmp(name, norefs[i]) == 0)
			return CMP_NOREFS;
	return CMP_FULL;
}

static int
load_program(struct sample *s, const char *rel)
{
	char *p = xasprintf("%s/%s", MICDB_SRCDIR, rel), *cause = NULL;
	int rc = program_load_file(&s->prog[s->nprogs], p, &cause);

	if (rc != 0) {
		tap_diag("%s", cause);
		free(cause);
	} else {
		s->ptr[s->nprogs] = &s->prog[s->nprogs];
		s->nprogs++;
	}
	free(p);
	return rc;
}

/* programs/DIR/NAME(.jas|.opts|.input); 0 or -1. */
static int
sample_load(struct sample *s, const char *dir, const char *name)
{
	char *p, *cause = NULL, *opts = NULL, *save = NULL, *tok;
	uint8_t *data;
	size_t len;

	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	s->ncores = 1;
	s->multi = sample_level(name);
	p = xasprintf("%s/%s/%s.opts", MICDB_SRCDIR, dir, name);
	if (read_file(p, &data, &len, &cause) == 0) {
		opts = xstrndup((const char *)data, len);
		free(data);
	}
	free(cause);
	cause = NULL;
	free(p);
	for (tok = opts ? strtok_r(opts, " \t\n", &save) : NULL; tok != NULL;
	    tok = strtok_r(NULL, " \t\n", &save)) {
		if (strcmp(tok, "--cores") == 0 &&
		    (tok = strtok_r(NULL, " \t\n", &save)) != NULL) {
			s->ncores = (uint32_t)strtoul(tok, NULL, 10);
		} else if (strcmp(tok, "--program") == 0 &&
		    (tok = strtok_r(NULL, " \t\n", &save)) != NULL &&
		    s->nprogs < MAX_PROGS) {
			char *colon = strrchr(tok, ':'), *dash;
			size_t k = s->nprogs;

			if (colon == NULL)
				continue;
			*colon = '\0';
			s->first[k] = (uint32_t)strtoul(colon + 1, &dash, 10);
			s->last[k] = *dash == '-' ?
			    (uint32_t)strtoul(dash + 1, NULL, 10) : s->first[k];
			if (load_program(s, tok) != 0) {
				free(opts);
				return -1;
			}
			s->fixed_cores = 1;
		}
	}
	free(opts);
	if (s->nprogs == 0) {
		p = xasprintf("%s/%s.jas", dir, name);
		s->first[0] = 0;
		s->last[0] = UINT32_MAX;
		if (load_program(s, p) != 0) {
			free(p);
			return -1;
		}
		free(p);
	}
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

/* ---- comparison --------------------------------------------------------- */

static int
cmp_state(struct pair *p, enum cmp_level lvl, int memory, const char *what)
{
	struct machine *a = &p->mr, *b = &p->mo;
	char *cause = NULL;

	/* racy samples: another interleaving may take other steps */
	if (lvl != CMP_OUTPUT && a->step != b->step)
		return fail(what, "global step %llu vs %llu",
		    (unsigned long long)a->step, (unsigned long long)b->step);
	for (uint32_t c = 0; c < a->cfg.ncores; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];
		const struct pmic_core *u = &engine_pmic_state(&p->er)->core[c];
		const struct pmic_core *v =
		    &engine_ocl_pmic_state(&p->eo)->core[c];

		if (x->status != y->status)
			return fail(what, "core %u status %u vs %u (fault %u "
			    "vs %u at pc %d vs %d, mpc 0x%x vs 0x%x)", c,
			    x->status, y->status, x->fault, y->fault,
			    x->fault_pc, y->fault_pc, x->mpc, y->mpc);
		if (lvl == CMP_OUTPUT)
			continue;
		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->fault != y->fault || x->fault_pc != y->fault_pc ||
		    x->fault_op != y->fault_op || x->steps != y->steps ||
		    x->cycles != y->cycles || x->mpc != y->mpc)
			return fail(what, "core %u: pc %d/%d sp %d/%d lv %d/%d "
			    "mpc 0x%x/0x%x fault %u/%u fault_pc %d/%d op %u/%u "
			    "steps %llu/%llu cycles %llu/%llu", c, x->pc, y->pc,
			    x->sp, y->sp, x->lv, y->lv, x->mpc, y->mpc,
			    x->fault, y->fault, x->fault_pc, y->fault_pc,
			    x->fault_op, y->fault_op,
			    (unsigned long long)x->steps,
			    (unsigned long long)y->steps,
			    (unsigned long long)x->cycles,
			    (unsigned long long)y->cycles);
		if (lvl != CMP_FULL)
			continue;
		if (memcmp(x, y, sizeof *x) != 0)
			return fail(what, "core %u: registers differ (tos "
			    "%d/%d h %d/%d opc %d/%d cpp %d/%d mar %d/%d mdr "
			    "%d/%d mbr %08x/%08x n %u/%u z %u/%u)", c, x->tos,
			    y->tos, x->h, y->h, x->opc, y->opc, x->cpp, y->cpp,
			    x->mar, y->mar, x->mdr, y->mdr, (uint32_t)x->mbr,
			    (uint32_t)y->mbr, x->n, y->n, x->z, y->z);
		if (u->g0 != v->g0 || u->g1 != v->g1 ||
		    u->mbr_addr != v->mbr_addr || u->insn_pc != v->insn_pc ||
		    u->new_ref != v->new_ref || u->atom_addr != v->atom_addr ||
		    u->atom_old != v->atom_old ||
		    u->mbr_valid != v->mbr_valid || u->entry != v->entry)
			return fail(what, "core %u: PMIC state differs (g0 "
			    "%d/%d g1 %d/%d mbr from %d/%d valid %x/%x entry "
			    "%u/%u insn_pc %d/%d new_ref %d/%d atom %d,%d/%d,"
			    "%d)", c, u->g0, v->g0, u->g1, v->g1, u->mbr_addr,
			    v->mbr_addr, u->mbr_valid, v->mbr_valid, u->entry,
			    v->entry, u->insn_pc, v->insn_pc, u->new_ref,
			    v->new_ref, u->atom_addr, u->atom_old, v->atom_addr,
			    v->atom_old);
		if (a->io[c].in_pos != b->io[c].in_pos)
			return fail(what, "core %u input position %zu vs %zu",
			    c, a->io[c].in_pos, b->io[c].in_pos);
	}
	for (uint32_t c = 0; c < a->cfg.ncores && lvl != CMP_OUTPUT; c++)
		if (a->io[c].out.len != b->io[c].out.len ||
		    (a->io[c].out.len && memcmp(a->io[c].out.data,
		    b->io[c].out.data, a->io[c].out.len) != 0))
			return fail(what, "core %u output differs (%zu vs %zu "
			    "bytes)", c, a->io[c].out.len, b->io[c].out.len);
	if (lvl != CMP_FULL || !memory)
		return 1;
	if (a->heap_top != b->heap_top)
		return fail(what, "heap top %u vs %u", a->heap_top,
		    b->heap_top);
	if (p->eo.ops->sync_memory(&p->eo, &cause) != 0) {
		fail(what, "sync_memory: %s", cause);
		free(cause);
		return 0;
	}
	for (size_t i = 0; i < (size_t)a->cfg.ncores * a->cfg.stack_words; i++)
		if (a->stacks[i] != b->stacks[i])
			return fail(what, "core %zu stack word %zu: %d vs %d",
			    i / a->cfg.stack_words, i % a->cfg.stack_words,
			    a->stacks[i], b->stacks[i]);
	if (memcmp(a->globals, b->globals, MM_GLOBALS_WORDS * 4) != 0)
		return fail(what, "globals differ");
	for (size_t i = 0; i < a->cfg.heap_words; i++)
		if (a->heap[i] != b->heap[i])
			return fail(what, "heap word %zu: %d vs %d", i,
			    a->heap[i], b->heap[i]);
	return 1;
}

/* Every byte any core wrote, as a multiset: racy samples print the
 * same lines on other cores. */
static int
cmp_output_bytes(const struct pair *p, const char *what)
{
	uint64_t ha[256] = { 0 }, hb[256] = { 0 };

	for (uint32_t c = 0; c < p->mr.cfg.ncores; c++) {
		for (size_t i = 0; i < p->mr.io[c].out.len; i++)
			ha[(uint8_t)p->mr.io[c].out.data[i]]++;
		for (size_t i = 0; i < p->mo.io[c].out.len; i++)
			hb[(uint8_t)p->mo.io[c].out.data[i]]++;
	}
	if (memcmp(ha, hb, sizeof ha) != 0)
		return fail(what, "the cores wrote different bytes");
	return 1;
}

static int
cmp_stop(const struct engine_stop *x, const struct engine_stop *y,
    const char *what)
{
	if (x->reason != y->reason || x->steps_run != y->steps_run ||
	    x->ncores != y->ncores)
		return fail(what, "stop reason %d/%d steps %llu/%llu hit "
		    "cores %zu/%zu", x->reason, y->reason,
		    (unsigned long long)x->steps_run,
		    (unsigned long long)y->steps_run, x->ncores, y->ncores);
	for (size_t i = 0; i < x->ncores; i++)
		if (x->cores[i] != y->cores[i] || x->bp_ids[i] != y->bp_ids[i])
			return fail(what, "hit %zu: core %u bp %u vs core %u "
			    "bp %u", i, x->cores[i], x->bp_ids[i], y->cores[i],
			    y->bp_ids[i]);
	return 1;
}

/* ---- pairs -------------------------------------------------------------- */

static int
pair_init(struct pair *p, const struct sample *s, uint32_t ncores,
    uint64_t k)
{
	struct machine_config cfg = { ncores, MM_DEFAULT_STACK_WORDS,
	    HEAP_WORDS, 32 };
	uint16_t *cp = xcalloc(ncores, sizeof *cp);
	char *cause = NULL;
	int rc = -1;

	memset(p, 0, sizeof *p);
	for (uint32_t c = 0; c < ncores; c++)
		for (size_t i = 0; i < s->nprogs; i++)
			if (c >= s->first[i] && c <= s->last[i]) {
				cp[c] = (uint16_t)i;
				break;
			}
	if (machine_init(&p->mr, &cfg, (const struct program **)s->ptr,
	    s->nprogs, cp, &cause) != 0 ||
	    machine_init(&p->mo, &cfg, (const struct program **)s->ptr,
	    s->nprogs, cp, &cause) != 0) {
		tap_diag("%s: machine_init: %s", s->name, cause);
	} else if (engine_pmic_create(&p->er, &p->mr, &store, &cause) != 0 ||
	    engine_ocl_pmic_create(&p->eo, &p->mo, &store, NULL,
	    &cause) != 0) {
		tap_diag("%s: engine: %s", s->name, cause);
	} else {
		engine_ocl_set_steps_per_launch(&p->eo, k);
		if (s->input_len > 0) {
			p->er.ops->add_input(&p->er, 0, s->input,
			    s->input_len);
			p->eo.ops->add_input(&p->eo, 0, s->input,
			    s->input_len);
		}
		rc = 0;
	}
	free(cause);
	free(cp);
	return rc;
}

static void
pair_free(struct pair *p)
{
	engine_free(&p->er);
	engine_free(&p->eo);
	machine_free(&p->mr);
	machine_free(&p->mo);
}

static int
run_both(struct pair *p, const struct engine_run *r, struct engine_stop *sr,
    struct engine_stop *so, const char *what)
{
	char *cause = NULL;

	if (p->er.ops->run(&p->er, r, sr, &cause) != 0 ||
	    p->eo.ops->run(&p->eo, r, so, &cause) != 0) {
		fail(what, "run failed: %s", cause);
		free(cause);
		return 0;
	}
	return 1;
}

static int
finished(const struct engine_stop *s)
{
	return s->reason == STOP_DONE || s->reason == STOP_DEADLOCK;
}

/* K = 1, everything after every cycle, for the first ncycles. */
static void
test_cycles(const struct sample *s, uint32_t ncores, uint64_t ncycles,
    enum cmp_level lvl)
{
	struct pair p;
	struct engine_run r = { .max_steps = 1, .stop_on_fault = 1 };
	struct engine_stop sr, so;
	char what[160];
	int good = 1;
	uint64_t i = 0;

	snprintf(what, sizeof what, "%s, %u cores, cycle by cycle", s->name,
	    ncores);
	if (pair_init(&p, s, ncores, 1) != 0) {
		ok(0, "%s", what);
		return;
	}
	for (; i < ncycles && good; i++) {
		good = run_both(&p, &r, &sr, &so, what) &&
		    (lvl == CMP_OUTPUT || cmp_stop(&sr, &so, what)) &&
		    cmp_state(&p, lvl, ncores <= 33, what);
		if (finished(&sr))
			break;
	}
	if (!good)
		tap_diag("at cycle %llu", (unsigned long long)i);
	ok(good, "%s (%llu cycles)", what, (unsigned long long)i);
	pair_free(&p);
}

/* To the end with K per launch (0: adaptive), stopping at every fault
 * and at the breakpoints. */
static void
test_run(const struct sample *s, uint32_t ncores, uint64_t k,
    uint64_t budget, const struct engine_bp *bps, size_t nbps,
    enum cmp_level lvl)
{
	struct pair p;
	struct engine_run r = { .stop_on_fault = 1, .bps = bps,
	    .nbps = nbps };
	struct engine_stop sr, so;
	char what[160];
	int good = 1, stops = 0;
	uint64_t done = 0;

	snprintf(what, sizeof what, "%s, %u cores, K=%llu%s", s->name, ncores,
	    (unsigned long long)k, nbps ? ", MPC breakpoint" : "");
	if (pair_init(&p, s, ncores, k) != 0) {
		ok(0, "%s", what);
		return;
	}
	/* Racy samples: no breakpoints, no mid-run comparison, the output
	 * once both finished. */
	if (lvl == CMP_OUTPUT) {
		r.nbps = 0;
		r.stop_on_fault = 0;
		budget = UINT64_MAX;
	}
	while (good && stops < 200 && done < budget) {
		r.max_steps = budget - done;
		good = run_both(&p, &r, &sr, &so, what);
		if (good && lvl != CMP_OUTPUT)
			good = cmp_stop(&sr, &so, what) &&
			    cmp_state(&p, lvl, 1, what);
		done += sr.steps_run;
		stops++;
		if (finished(&sr) || sr.steps_run == 0 ||
		    sr.reason == STOP_STEPS)
			break;
	}
	if (good && lvl == CMP_OUTPUT)
		good = cmp_state(&p, lvl, 0, what) &&
		    cmp_output_bytes(&p, what);
	ok(good, "%s (%d stops, %llu cycles)", what, stops,
	    (unsigned long long)done);
	pair_free(&p);
}

static void
test_sample(const char *dir, const char *name)
{
	static const uint32_t counts[] = { 1, 33, 1000 };
	static const uint64_t cycles[] = { 20000, 3000, 300 };
	/* cycles of a run (samples end sooner, or the comparison is at
	 * the budget) */
	static const uint64_t budgets[] = { 2000000, 300000, 30000 };
	/* the IADD dispatch: every sample adds */
	static const struct engine_bp bp = { .pc = 0x60, .id = 1,
	    .on = ENGINE_BP_ON_MPC };
	struct sample s;

	if (sample_load(&s, dir, name) != 0) {
		ok(0, "%s/%s loads", dir, name);
		return;
	}
	for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
		uint32_t n = counts[i];
		enum cmp_level lvl = n > 1 ? s.multi : CMP_FULL;

		if (s.fixed_cores && n != s.ncores) {
			if (i > 0)
				continue;
			n = s.ncores;
		}
		test_cycles(&s, n, cycles[i], lvl);
		/* Racy samples compare their output once both finished:
		 * at 1,000 cores that takes too long on a CPU device. */
		if (lvl == CMP_OUTPUT && n > 33)
			continue;
		/* many short launches: at 1,000 cores, too slow too */
		if (n <= 33)
			test_run(&s, n, 7, budgets[i], NULL, 0, lvl);
		test_run(&s, n, 0, budgets[i], NULL, 0, lvl);
		if (n <= 33)
			test_run(&s, n, 100000, budgets[i], &bp, 1, lvl);
		if (s.fixed_cores)
			break;
	}
	sample_free(&s);
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
	struct engine e;
	struct machine m;
	struct mal_syms syms;
	struct sample s;
	char *path = xasprintf("%s/microcode/pmic.pm", MICDB_SRCDIR);
	char *cause = NULL;
	struct machine_config cfg = { 1, 64, 64, 32 };

	if (pmc_compile_file(path, &store, &syms, &cause) != 0) {
		ok(0, "microcode/pmic.pm compiles: %s", cause);
		free(cause);
		free(path);
		return done_testing();
	}
	free(path);
	mal_syms_free(&syms);
	if (sample_load(&s, "programs", "hello") != 0 ||
	    machine_init(&m, &cfg, (const struct program **)s.ptr, 1,
	    NULL, &cause) != 0) {
		ok(0, "programs/hello loads: %s", cause ? cause : "");
		free(cause);
		return done_testing();
	}
	if (engine_ocl_pmic_create(&e, &m, &store, NULL, &cause) != 0) {
		ok(0, "engine_ocl_pmic_create: %s", cause);
		free(cause);
		machine_free(&m);
		sample_free(&s);
		return done_testing();
	}
	ok(strcmp(e.ops->name, "opencl-pmic") == 0 &&
	    e.ops->at_boundary != NULL && e.ops->at_boundary(&e, 0),
	    "the engine starts at the instruction boundary");
	engine_free(&e);
	machine_free(&m);
	sample_free(&s);

	for (int i = 0; samples[i] != NULL; i++)
		test_sample("programs", samples[i]);
	for (int i = 0; bench[i] != NULL; i++)
		test_sample("programs/bench", bench[i]);
	for (int i = 0; faults[i] != NULL; i++)
		test_sample("programs/faults", faults[i]);
	return done_testing();
}
