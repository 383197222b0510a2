/*
 * The differential-test harness of the OpenCL kernels: see ocl-diff-lib.h
 * for the subjects, the modes, what a level supplies and what the step
 * mode samples at 1,000 cores.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <dirent.h>
#include <signal.h>

#include "asm.h"
#include "engine-ocl.h"
#include "engine.h"
#include "machine.h"
#include "ocl-diff-lib.h"
#include "ocl.h"
#include "program.h"
#include "tap.h"

#define STACK_WORDS ODIFF_STACK_WORDS
#define HEAP_WORDS  ODIFF_HEAP_WORDS

/* One run of the harness: the level under test, and totals over the
 * whole test, to show the replay path ran. */
struct odiff {
	const struct odiff_level *lv;
	struct engine_stats	  totals;
};

/* What a comparison may look at (see the top). */
enum cmp_level {
	CMP_FULL,     /* everything, bit for bit */
	CMP_NOREFS,   /* control state and output: not the values of
			 references (TOS, stacks, heap, globals) */
	CMP_OUTPUT,   /* output and final statuses only */
};

struct subject {
	char		 *name;
	struct program	 *progs;
	const struct program **ptrs;
	size_t		  nprogs;
	uint16_t	 *core_prog;     /* NULL: all run progs[0] */
	uint32_t	  fixed_cores;   /* 0: any core count */
	int		  fork_join;     /* --fork-join */
	uint8_t		 *input;
	size_t		  input_len;
	enum cmp_level	  multi_level;   /* with more than one core */
	int		  edits;         /* also test host edits and masks */
	uint64_t	  limit;         /* instructions per core at most */
};

struct pair {
	struct odiff	*od;
	struct machine	 mr, mo;
	struct engine	 er, eo;
	int		 ok;
};

char *
odiff_path(const char *a, const char *b)
{
	return xasprintf("%s/%s", a, b);
}

/* ---- comparison ------------------------------------------------------- */

int
odiff_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	cond = ok(cond, "%s", msg);
	free(msg);
	return cond;
}

void
odiff_diag(const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	tap_diag("%s", msg);
	free(msg);
}

int
odiff_fail(const char *what, const char *fmt, ...)
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

static int
str_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every line any core wrote, sorted: racy programs may print a line on
 * another core (whoever took ticket 0), but print the same lines. */
static char **
all_lines(const struct machine *m, size_t *n)
{
	char **v = NULL;

	*n = 0;
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct buf *b = &m->io[c].out;
		size_t start = 0;

		for (size_t i = 0; i <= b->len; i++) {
			if (i < b->len && b->data[i] != '\n')
				continue;
			if (i > start || i < b->len) {
				v = xreallocarray(v, *n + 1, sizeof *v);
				v[(*n)++] = xstrndup((const char *)b->data +
				    start, i - start);
			}
			start = i + 1;
		}
	}
	if (*n > 0)
		qsort(v, *n, sizeof *v, str_cmp);
	return v;
}

static int
cmp_lines(const struct machine *a, const struct machine *b, const char *what)
{
	size_t na, nb;
	char **la = all_lines(a, &na), **lb = all_lines(b, &nb);
	int good = na == nb;

	for (size_t i = 0; good && i < na; i++)
		good = strcmp(la[i], lb[i]) == 0;
	if (!good)
		odiff_fail(what, "output lines differ (%zu vs %zu lines)", na, nb);
	for (size_t i = 0; i < na; i++)
		free(la[i]);
	for (size_t i = 0; i < nb; i++)
		free(lb[i]);
	free(la);
	free(lb);
	return good;
}

/* mem: also the memory (stacks, globals, heap), which has to be read
 * back from the device. */
static int
cmp_state_mem(struct pair *p, enum cmp_level lvl, int mem, const char *what)
{
	struct machine *a = &p->mr, *b = &p->mo;
	char *cause = NULL;

	if (a->step != b->step)
		return odiff_fail(what, "global step %llu vs %llu",
		    (unsigned long long)a->step, (unsigned long long)b->step);
	for (uint32_t c = 0; c < a->cfg.ncores; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];

		if (x->status != y->status)
			return odiff_fail(what, "core %u status %u vs %u "
			    "(fault %u vs %u at pc %d vs %d)", c, x->status,
			    y->status, x->fault, y->fault, x->fault_pc,
			    y->fault_pc);
		if (lvl == CMP_OUTPUT)
			continue;
		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->fault != y->fault || x->fault_pc != y->fault_pc ||
		    x->fault_op != y->fault_op || x->steps != y->steps ||
		    x->prog != y->prog || x->cpp != y->cpp)
			return odiff_fail(what, "core %u: pc %d/%d sp %d/%d lv "
			    "%d/%d fault %u/%u fault_pc %d/%d op %u/%u steps "
			    "%llu/%llu", c, x->pc, y->pc, x->sp, y->sp, x->lv,
			    y->lv, x->fault, y->fault, x->fault_pc, y->fault_pc,
			    x->fault_op, y->fault_op,
			    (unsigned long long)x->steps,
			    (unsigned long long)y->steps);
		if (lvl == CMP_FULL && memcmp(x, y, sizeof *x) != 0)
			return odiff_fail(what, "core %u: registers differ "
			    "(mpc 0x%x/0x%x tos %d/%d h %d/%d mar %d/%d mdr "
			    "%d/%d mbr %d/%d n %u/%u z %u/%u cycles %llu/%llu)",
			    c, x->mpc, y->mpc, x->tos, y->tos, x->h, y->h,
			    x->mar, y->mar, x->mdr, y->mdr, x->mbr, y->mbr,
			    x->n, y->n, x->z, y->z,
			    (unsigned long long)x->cycles,
			    (unsigned long long)y->cycles);
		if (lvl == CMP_FULL && p->od->lv->cmp_side != NULL &&
		    !p->od->lv->cmp_side(p->od->lv->ctx, &p->er, &p->eo, c,
		    what))
			return 0;
		if (a->io[c].in_pos != b->io[c].in_pos)
			return odiff_fail(what, "core %u input position %zu vs "
			    "%zu", c, a->io[c].in_pos, b->io[c].in_pos);
	}
	if (lvl == CMP_OUTPUT)
		return cmp_lines(a, b, what);
	for (uint32_t c = 0; c < a->cfg.ncores; c++)
		if (a->io[c].out.len != b->io[c].out.len ||
		    (a->io[c].out.len && memcmp(a->io[c].out.data,
		    b->io[c].out.data, a->io[c].out.len) != 0))
			return odiff_fail(what, "core %u output differs (%zu vs "
			    "%zu bytes)", c, a->io[c].out.len, b->io[c].out.len);
	if (lvl != CMP_FULL)
		return 1;
	if (a->heap_top != b->heap_top)
		return odiff_fail(what, "heap top %u vs %u", a->heap_top,
		    b->heap_top);
	if (!mem)
		return 1;
	if (p->eo.ops->sync_memory(&p->eo, &cause) != 0) {
		odiff_fail(what, "sync_memory: %s", cause);
		free(cause);
		return 0;
	}
	for (size_t i = 0; i < (size_t)a->cfg.ncores * a->cfg.stack_words; i++)
		if (a->stacks[i] != b->stacks[i])
			return odiff_fail(what, "core %zu stack word 0x%zx: %d vs "
			    "%d", i / a->cfg.stack_words, MM_STACK_BASE +
			    i % a->cfg.stack_words, a->stacks[i], b->stacks[i]);
	for (size_t i = 0; i < MM_GLOBALS_WORDS; i++)
		if (a->globals[i] != b->globals[i])
			return odiff_fail(what, "global %zu: %d vs %d", i,
			    a->globals[i], b->globals[i]);
	for (size_t i = 0; i < a->cfg.heap_words; i++)
		if (a->heap[i] != b->heap[i])
			return odiff_fail(what, "heap word %zu: %d vs %d", i,
			    a->heap[i], b->heap[i]);
	return 1;
}

static int
cmp_state(struct pair *p, enum cmp_level lvl, const char *what)
{
	return cmp_state_mem(p, lvl, 1, what);
}

static int
cmp_stop(const struct engine_stop *x, const struct engine_stop *y,
    const char *what)
{
	if (x->reason != y->reason || x->steps_run != y->steps_run ||
	    x->ncores != y->ncores)
		return odiff_fail(what, "stop reason %d/%d steps %llu/%llu hit "
		    "cores %zu/%zu", x->reason, y->reason,
		    (unsigned long long)x->steps_run,
		    (unsigned long long)y->steps_run, x->ncores, y->ncores);
	for (size_t i = 0; i < x->ncores; i++)
		if (x->cores[i] != y->cores[i] || x->bp_ids[i] != y->bp_ids[i])
			return odiff_fail(what, "hit %zu: core %u bp %u vs core "
			    "%u bp %u", i, x->cores[i], x->bp_ids[i],
			    y->cores[i], y->bp_ids[i]);
	return 1;
}

/* ---- set-up ----------------------------------------------------------- */

static int
pair_init(struct odiff *od, struct pair *p, const struct subject *s,
    uint32_t ncores, uint64_t k)
{
	const struct odiff_level *lv = od->lv;
	struct machine_config cfg = { ncores, STACK_WORDS, HEAP_WORDS, 32 };
	char *cause = NULL;

	memset(p, 0, sizeof *p);
	p->od = od;
	if (machine_init(&p->mr, &cfg, s->ptrs, s->nprogs, s->core_prog,
	    &cause) != 0 || machine_init(&p->mo, &cfg, s->ptrs, s->nprogs,
	    s->core_prog, &cause) != 0) {
		tap_diag("%s: machine_init: %s", s->name, cause);
		free(cause);
		return -1;
	}
	if (s->fork_join) {
		machine_fork_join(&p->mr);
		machine_fork_join(&p->mo);
	}
	if (lv->open_golden(lv->ctx, &p->er, &p->mr, &cause) != 0) {
		tap_diag("%s: %s golden engine: %s", s->name, lv->name, cause);
		free(cause);
		machine_free(&p->mr);
		machine_free(&p->mo);
		return -1;
	}
	if (lv->open_kernel(lv->ctx, &p->eo, &p->mo, &cause) != 0) {
		tap_diag("%s: %s kernel engine: %s", s->name, lv->name, cause);
		free(cause);
		engine_free(&p->er);
		machine_free(&p->mr);
		machine_free(&p->mo);
		return -1;
	}
	lv->set_steps_per_launch(&p->eo, k);
	if (s->input_len > 0) {
		p->er.ops->add_input(&p->er, 0, s->input, s->input_len);
		p->eo.ops->add_input(&p->eo, 0, s->input, s->input_len);
	}
	return 0;
}

static void
pair_free(struct pair *p)
{
	struct engine_stats st;

	p->od->lv->stats(&p->eo, &st);
	p->od->totals.launches += st.launches;
	p->od->totals.checkpoints += st.checkpoints;
	p->od->totals.restores += st.restores;
	engine_free(&p->er);
	engine_free(&p->eo);
	machine_free(&p->mr);
	machine_free(&p->mo);
}

/* Run both engines once; 1 if they agree on the stop. */
static int
run_both(struct pair *p, const struct engine_run *r, struct engine_stop *sr,
    struct engine_stop *so, enum cmp_level lvl, const char *what)
{
	char *cause = NULL;

	if (p->er.ops->run(&p->er, r, sr, &cause) != 0 ||
	    p->eo.ops->run(&p->eo, r, so, &cause) != 0) {
		odiff_fail(what, "run failed: %s", cause);
		free(cause);
		return 0;
	}
	if (lvl == CMP_OUTPUT)
		return 1;
	return cmp_stop(sr, so, what);
}

static int
finished(const struct engine_stop *s)
{
	return s->reason == STOP_DONE || s->reason == STOP_DEADLOCK;
}

/* Step mode: K = 1, compare everything after every step. */
static void
test_step(struct odiff *od, const struct subject *s, uint32_t ncores,
    uint64_t nsteps, enum cmp_level lvl)
{
	struct pair p;
	struct engine_run r = { .max_steps = 1, .stop_on_fault = 1 };
	struct engine_stop sr, so;
	char what[160];
	int good = 1;
	uint64_t i;

	snprintf(what, sizeof what, "%s, %u cores, step by step%s", s->name,
	    ncores, ncores >= ODIFF_SAMPLE_CORES ? " (memory sampled)" : "");
	if (pair_init(od, &p, s, ncores, 1) != 0) {
		ok(0, "%s", what);
		return;
	}
	for (i = 0; i < nsteps && good; i++) {
		int mem = ncores < ODIFF_SAMPLE_CORES ||
		    i % ODIFF_MEM_EVERY == ODIFF_MEM_EVERY - 1 ||
		    i + 1 == nsteps;

		good = run_both(&p, &r, &sr, &so, lvl, what);
		if (good && finished(&sr))
			mem = 1;
		good = good && cmp_state_mem(&p, lvl, mem, what);
		if (finished(&sr))
			break;
	}
	if (!good)
		tap_diag("at step %llu", (unsigned long long)i);
	ok(good, "%s (%llu steps)", what, (unsigned long long)i);
	pair_free(&p);
}

/* Final mode: long runs with K steps per launch, stopping at every fault
 * (and at breakpoints when bps is given). */
static void
test_runs(struct odiff *od, const struct subject *s, uint32_t ncores,
    uint64_t k, uint64_t budget, const struct engine_bp *bps, size_t nbps,
    const uint8_t *mask, enum cmp_level lvl)
{
	struct pair p;
	struct engine_run r = { .stop_on_fault = 1, .bps = bps, .nbps = nbps,
	    .mask = mask };
	struct engine_stop sr, so;
	char what[160];
	int good = 1, stops = 0;
	uint64_t done = 0;

	snprintf(what, sizeof what, "%s, %u cores, K=%llu%s%s%s", s->name,
	    ncores, (unsigned long long)k, nbps ? ", breakpoints" : "",
	    mask ? ", scheduler-locked" : "",
	    getenv("MICDB_OCL_TEST") != NULL &&
	    strstr(getenv("MICDB_OCL_TEST"), "io_cap") != NULL ?
	    ", small I/O areas" : "");
	if (pair_init(od, &p, s, ncores, k) != 0) {
		ok(0, "%s", what);
		return;
	}
	/* Racy programs: no breakpoints, no mid-run comparison, and the
	 * output only at the end, however long each engine takes there. */
	if (lvl == CMP_OUTPUT) {
		r.nbps = 0;
		r.stop_on_fault = 0;
		budget = UINT64_MAX;
	}
	while (good && done < budget && stops < 60) {
		r.max_steps = budget - done;
		good = run_both(&p, &r, &sr, &so, lvl, what);
		if (lvl != CMP_OUTPUT)
			good = good && cmp_state(&p, lvl, what);
		done += sr.steps_run;
		stops++;
		if (finished(&sr) || sr.steps_run == 0)
			break;
	}
	if (lvl == CMP_OUTPUT && good)
		good = sr.reason == so.reason && cmp_state(&p, lvl, what);
	ok(good, "%s (%d stops, %llu steps)", what, stops,
	    (unsigned long long)done);
	pair_free(&p);
}

/* Host edits between runs (write_word, read_words, push_cores,
 * add_input) and an interrupt, applied to both engines alike. */
static void
test_edits(struct odiff *od, const struct subject *s, uint32_t ncores,
    uint64_t budget)
{
	struct pair p;
	struct engine_run r = { .stop_on_fault = 0 };
	struct engine_stop sr, so;
	volatile sig_atomic_t stop_now = 1;
	char what[160], *cause = NULL;
	int32_t want[8], got[8];
	int good;
	uint32_t last = ncores - 1;

	snprintf(what, sizeof what, "%s, %u cores, host edits", s->name,
	    ncores);
	if (pair_init(od, &p, s, ncores, 100000) != 0) {
		ok(0, "%s", what);
		return;
	}
	r.max_steps = 40;	/* generated programs are still running */
	good = run_both(&p, &r, &sr, &so, CMP_FULL, what) &&
	    cmp_state(&p, CMP_FULL, what);
	/* a global, a local of core 0, a register edit, more input */
	for (int i = 0; good && i < 2; i++) {
		struct engine *e = i ? &p.eo : &p.er;
		struct machine *m = i ? &p.mo : &p.mr;

		good = e->ops->write_word(e, 0, MM_GLOBALS_BASE + 2, 77,
		    &cause) == 0 &&
		    e->ops->write_word(e, 0, m->cores[0].lv + 1, 5, &cause) == 0 &&
		    e->ops->write_word(e, last, MM_STACK_BASE + 3, -9,
		    &cause) == 0;
		if (m->cores[last].status == CORE_RUNNING)
			m->cores[last].status = CORE_HALTED;
		m->cores[0].tos = 12345;
		good = good && e->ops->push_cores(e, &cause) == 0;
		e->ops->add_input(e, 0, (const uint8_t *)"more", 4);
	}
	if (!good) {
		odiff_fail(what, "edit failed: %s", cause ? cause : "?");
		free(cause);
	}
	good = good && p.eo.ops->read_words(&p.eo, 0, p.mo.cores[0].lv, 8, got,
	    &cause) == 0 && p.er.ops->read_words(&p.er, 0, p.mr.cores[0].lv, 8,
	    want, &cause) == 0;
	if (good && memcmp(want, got, sizeof want) != 0)
		good = odiff_fail(what, "read_words differs");
	good = good && p.eo.ops->read_words(&p.eo, last, MM_GLOBALS_BASE, 3,
	    got, &cause) == 0 && got[2] == 77;
	/* an interrupt stops before any step */
	r.interrupt = &stop_now;
	good = good && run_both(&p, &r, &sr, &so, CMP_FULL, what) &&
	    (so.reason == STOP_INTERRUPT || so.reason == STOP_DONE) &&
	    so.steps_run == 0;
	r.interrupt = NULL;
	r.max_steps = budget;
	good = good && run_both(&p, &r, &sr, &so, CMP_FULL, what) &&
	    cmp_state(&p, CMP_FULL, what);
	ok(good, "%s", what);
	pair_free(&p);
}

/* Breakpoints for a subject: a few label addresses of the first program,
 * one of them on odd cores only, and the level's own (extra_bps). */
static size_t
pick_bps(struct odiff *od, const struct subject *s, uint32_t ncores,
    struct engine_bp *bps, uint8_t *odd)
{
	const struct program *pr = &s->progs[0];
	size_t n = 0;

	for (uint32_t c = 0; c < ncores; c++)
		odd[c] = c % 2;
	for (size_t i = 0; i < pr->nlabels && n < 3; i += 1 +
	    pr->nlabels / 3) {
		bps[n].id = (uint32_t)n + 1;
		bps[n].pc = (int32_t)pr->labels[i].addr;
		bps[n].cores = n == 1 ? odd : NULL;
		bps[n].on = ENGINE_BP_ON_PC;
		n++;
	}
	if (od->lv->extra_bps != NULL)
		n += od->lv->extra_bps(od->lv->ctx, bps + n, odd);
	return n;
}

static void
test_subject(struct odiff *od, const struct subject *s,
    const uint32_t *cores, size_t ncounts, uint64_t instr_budget)
{
	for (size_t i = 0; i < ncounts; i++) {
		uint32_t n = s->fixed_cores ? s->fixed_cores : cores[i];
		enum cmp_level lvl = n > 1 ? s->multi_level : CMP_FULL;
		uint64_t budget = instr_budget / n, steps = budget;
		struct engine_bp bps[3 + ODIFF_EXTRA_BPS];
		uint8_t *odd = xcalloc(n, 1);
		size_t nbps;

		if (budget > s->limit)
			budget = s->limit;
		/* A racy subject (CMP_OUTPUT) runs to its end in every mode,
		 * at 1,000 cores the bench's MIMD programs for tens of
		 * thousands of steps, once with thousands of launches: most
		 * of the OpenCL tests' time (issue 28).  The generated
		 * programs' barriers and atomics run at 1,000 cores. */
		if (lvl == CMP_OUTPUT && n >= ODIFF_SAMPLE_CORES) {
			free(odd);
			continue;
		}
		/* K = 1 and 7 cost a launch per step or so: fewer steps.
		 * The whole runs (K = 100000) compare every sample to its
		 * end; the step-by-step modes cover a program's first 400
		 * steps (40 at 1,000 cores), which on a CPU device are most
		 * of the suite's time (issue 28: 20 minutes on 2 cores). */
		steps = budget < 400 ? budget : 400;
		if (n >= 1000 && steps > 40)
			steps = 40;
		if (lvl != CMP_OUTPUT)
			test_step(od, s, n, steps, lvl);
		if (lvl != CMP_OUTPUT)	/* those run to their end */
			test_runs(od, s, n, 1, steps, NULL, 0, NULL, lvl);
		/* K = 7: 700 launch boundaries inside instructions and
		 * micro-sequences (ODIFF_K7_STEPS) */
		test_runs(od, s, n, 7, budget < ODIFF_K7_STEPS ?
		    budget : ODIFF_K7_STEPS, NULL, 0, NULL, lvl);
		test_runs(od, s, n, 100000, budget, NULL, 0, NULL, lvl);
		nbps = pick_bps(od, s, n, bps, odd);
		if (nbps > 0 && lvl != CMP_OUTPUT) {
			test_runs(od, s, n, 1, steps, bps, nbps, NULL, lvl);
			test_runs(od, s, n, 100000, budget, bps, nbps, NULL,
			    lvl);
		}
		if (s->edits && lvl == CMP_FULL) {
			/* scheduler locking: a third of the cores held */
			uint8_t *mask = xcalloc(n, 1);

			for (uint32_t c = 0; c < n; c++)
				mask[c] = c % 3 != 1;
			test_runs(od, s, n, 1, steps, NULL, 0, mask, lvl);
			test_runs(od, s, n, 100000, budget, bps, nbps, mask, lvl);
			free(mask);
			test_edits(od, s, n, budget);
		}
		free(odd);
		if (s->fixed_cores)
			break;
	}
}

static void
subject_free(struct subject *s)
{
	for (size_t i = 0; i < s->nprogs; i++)
		program_free(&s->progs[i]);
	free(s->progs);
	free(s->ptrs);
	free(s->core_prog);
	free(s->input);
	free(s->name);
	memset(s, 0, sizeof *s);
}

/* ---- samples ---------------------------------------------------------- */

/* How the samples that are not race free compare (see the top). */
static enum cmp_level
sample_level(const char *name)
{
	static const struct {
		const char	*name;
		enum cmp_level	 lvl;
	} t[] = {
		{ "workqueue", CMP_OUTPUT },   /* ATOMICADD work queue */
		{ "mimd0", CMP_OUTPUT },       /* ATOMICADD tickets */
		{ "mimd1", CMP_OUTPUT },
		{ "mimd2", CMP_OUTPUT },
		{ "mimd3", CMP_OUTPUT },
		{ "divergent", CMP_NOREFS },   /* old value left above SP */
		{ "uniform", CMP_NOREFS },     /* the same (and the -9 latch) */
		{ "array_oob", CMP_NOREFS },   /* arrays made in one step */
		{ "barrier", CMP_NOREFS },
		{ "bubble", CMP_NOREFS },      /* arrays made in one step */
		{ "sieve", CMP_NOREFS },
		{ "reverse", CMP_NOREFS },
	};

	if (getenv("OCL_DIFF_FULL") != NULL)
		return CMP_FULL;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(t[i].name, name) == 0)
			return t[i].lvl;
	return CMP_FULL;
}

static int
load_prog(struct subject *s, const char *path)
{
	char *cause = NULL;

	s->progs = xreallocarray(s->progs, s->nprogs + 1, sizeof *s->progs);
	if (program_load_file(&s->progs[s->nprogs], path, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		return -1;
	}
	s->nprogs++;
	return 0;
}

/* Options of a sample: --cores N and --program FILE:A-B. */
static int
apply_opts(struct subject *s, const char *top, const char *line)
{
	char *copy = xstrdup(line), *tok, *save = NULL;
	uint32_t *first = NULL, *last = NULL;
	size_t nranges = 0;
	int rc = 0;

	for (tok = strtok_r(copy, " \t\n", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t\n", &save)) {
		if (strcmp(tok, "--cores") == 0) {
			tok = strtok_r(NULL, " \t\n", &save);
			if (tok != NULL)
				s->fixed_cores = (uint32_t)strtoul(tok, NULL,
				    10);
		} else if (strcmp(tok, "--fork-join") == 0) {
			s->fork_join = 1;
		} else if (strcmp(tok, "--program") == 0) {
			char *spec = strtok_r(NULL, " \t\n", &save), *colon;
			char *path;

			if (spec == NULL || (colon = strrchr(spec, ':')) ==
			    NULL) {
				rc = -1;
				break;
			}
			*colon = '\0';
			path = odiff_path(top, spec);
			rc = load_prog(s, path);
			free(path);
			if (rc != 0)
				break;
			first = xreallocarray(first, nranges + 1,
			    sizeof *first);
			last = xreallocarray(last, nranges + 1, sizeof *last);
			first[nranges] = (uint32_t)strtoul(colon + 1, &colon,
			    10);
			last[nranges] = *colon == '-' ?
			    (uint32_t)strtoul(colon + 1, NULL, 10) :
			    first[nranges];
			nranges++;
		}
	}
	if (rc == 0 && nranges > 0) {
		uint32_t n = s->fixed_cores;

		s->core_prog = xcalloc(n, sizeof *s->core_prog);
		for (size_t i = 0; i < nranges; i++)
			for (uint32_t c = first[i]; c <= last[i] && c < n; c++)
				s->core_prog[c] = (uint16_t)i;
	}
	free(first);
	free(last);
	free(copy);
	return rc;
}

static char *
read_text(const char *path)
{
	uint8_t *data;
	size_t len;
	char *cause = NULL, *s;

	if (read_file(path, &data, &len, &cause) != 0) {
		free(cause);
		return NULL;
	}
	s = xstrndup((const char *)data, len);
	free(data);
	return s;
}

static int
sample_init(struct subject *s, const char *top, const char *dir,
    const char *name)
{
	char *base = xasprintf("%s/%s/%s", top, dir, name), *path, *opts;
	int rc = 0;

	memset(s, 0, sizeof *s);
	s->name = xasprintf("%s%s%s", strcmp(dir, "programs") ? dir + 9 : "",
	    strcmp(dir, "programs") ? "/" : "", name);
	s->multi_level = sample_level(name);
	s->limit = UINT64_MAX;
	path = xasprintf("%s.opts", base);
	opts = read_text(path);
	free(path);
	if (opts != NULL) {
		char *nl = strchr(opts, '\n');

		if (nl != NULL)
			*nl = '\0';	/* first variant */
		rc = apply_opts(s, top, opts);
		free(opts);
	}
	if (rc == 0 && s->nprogs == 0) {
		path = xasprintf("%s.jas", base);
		rc = load_prog(s, path);
		free(path);
	}
	path = xasprintf("%s.input", base);
	if (rc == 0 && read_file(path, &s->input, &s->input_len, &opts) != 0)
		free(opts);
	free(path);
	free(base);
	if (rc == 0) {
		s->ptrs = xcalloc(s->nprogs, sizeof *s->ptrs);
		for (size_t i = 0; i < s->nprogs; i++)
			s->ptrs[i] = &s->progs[i];
	}
	return rc;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* NAME of every NAME.jas, and of every NAME.opts without one (MIMD). */
static char **
sample_names(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **names = NULL;

	*n = 0;
	if (d == NULL)
		return NULL;
	while ((ent = readdir(d)) != NULL) {
		size_t len = strlen(ent->d_name);
		char *stem, *jas;
		FILE *f;

		if (len > 4 && strcmp(ent->d_name + len - 4, ".jas") == 0) {
			stem = xstrndup(ent->d_name, len - 4);
		} else if (len > 5 && strcmp(ent->d_name + len - 5,
		    ".opts") == 0) {
			stem = xstrndup(ent->d_name, len - 5);
			jas = xasprintf("%s/%s.jas", dir, stem);
			f = fopen(jas, "r");
			free(jas);
			if (f != NULL) {
				fclose(f);
				free(stem);
				continue;
			}
		} else {
			continue;
		}
		names = xreallocarray(names, *n + 1, sizeof *names);
		names[(*n)++] = stem;
	}
	closedir(d);
	qsort(names, *n, sizeof *names, name_cmp);
	return names;
}

/* MIMD sample parts run in the MIMD subject, not alone. */
static int
is_part(const char *name)
{
	return strncmp(name, "mimd_", 5) == 0;
}

static void
test_samples(struct odiff *od, const char *top, const char *dir,
    const uint32_t *cores, size_t ncounts, uint64_t budget)
{
	char *full = odiff_path(top, dir);
	size_t n;
	char **names = sample_names(full, &n);

	if (names == NULL)
		ok(0, "cannot list %s", full);
	for (size_t i = 0; i < n; i++) {
		struct subject s;

		if (is_part(names[i])) {
			free(names[i]);
			continue;
		}
		/* every other sample with the GPU layouts too, every third
		 * one-step launch converting the context where a CPU
		 * device's kernel would write struct core itself */
		if (i % 2 || i % 3 == 2)
			setenv("MICDB_OCL_TEST", i % 2 == 0 ? "mirror=0" :
			    i % 3 == 2 ? "layout=gpu,mirror=0" : "layout=gpu",
			    1);
		if (sample_init(&s, top, dir, names[i]) != 0)
			ok(0, "%s/%s loads", dir, names[i]);
		else {
			if (i % 2 || i % 3 == 2) {
				char *name = xasprintf("%s%s%s", s.name,
				    i % 2 ? ", gpu layout" : "",
				    i % 3 == 2 ? ", no mirror" : "");

				free(s.name);
				s.name = name;
			}
			test_subject(od, &s, cores, ncounts, budget);
		}
		unsetenv("MICDB_OCL_TEST");
		subject_free(&s);
		free(names[i]);
	}
	free(names);
	free(full);
}

static void
test_generated(struct odiff *od, uint64_t seed, const uint32_t *cores,
    size_t ncounts, uint64_t budget)
{
	/* Half of them with the GPU layouts (half of those with the ISA
	 * kernel's template group, the other half with the switch alone:
	 * the device decides otherwise, isa.cl), a third with cores that
	 * run past every cut (so cuts are replayed from checkpoints). */
	char *tune = xasprintf("layout=%s%s,drift=%d%s",
	    seed % 2 ? "cpu" : "gpu", seed % 2 ? "" : seed % 4 == 0 ?
	    ",dispatch=template" : ",dispatch=switch", seed % 3 == 0,
	    seed % 4 == 1 ? ",io_cap=4" : "");

	setenv("MICDB_OCL_TEST", tune, 1);
	free(tune);
	struct subject s;
	struct asm_errors errs = { 0 };
	char *src = odiff_gen_program(seed, seed % 4 == 3);

	memset(&s, 0, sizeof s);
	s.name = xasprintf("generated #%llu%s%s%s", (unsigned long long)seed,
	    seed % 2 ? "" : ", gpu layout", seed % 4 ? "" : ", ISA_PRED",
	    seed % 3 ? "" : ", drift");
	s.progs = xcalloc(1, sizeof *s.progs);
	s.multi_level = CMP_FULL;
	s.edits = 1;
	s.limit = UINT64_MAX;
	s.input = (uint8_t *)xstrdup("generated input");
	s.input_len = strlen((char *)s.input);
	if (asm_assemble(s.name, src, strlen(src), NULL, &s.progs[0],
	    &errs) != 0) {
		ok(0, "%s assembles", s.name);
		for (size_t i = 0; i < errs.count && i < 5; i++)
			tap_diag("%s", errs.msg[i]);
		asm_errors_free(&errs);
		free(src);
		subject_free(&s);
		return;
	}
	s.progs[0].main_nlocals = program_main_nlocals(&s.progs[0]);
	s.nprogs = 1;
	s.ptrs = xcalloc(1, sizeof *s.ptrs);
	s.ptrs[0] = &s.progs[0];
	if (getenv("OCL_DIFF_DUMP") != NULL)
		printf("%s\n", src);
	free(src);
	test_subject(od, &s, cores, ncounts, budget);
	subject_free(&s);
	unsetenv("MICDB_OCL_TEST");
}

/* Samples that read and write a lot, with tiny I/O areas: cores fill
 * them within a launch, which cuts it for the host to drain or refill. */
static void
test_io_areas(struct odiff *od, const char *top)
{
	static const char *const names[] = { "echo", "reverse", "decimal",
	    "hello", "sieve" };

	setenv("MICDB_OCL_TEST", "io_cap=4", 1);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct subject s;

		if (sample_init(&s, top, "programs", names[i]) != 0) {
			ok(0, "%s loads", names[i]);
			continue;
		}
		if (s.input_len > 0) {
			/* more than one area's worth */
			s.input = xrealloc(s.input, s.input_len * 3);
			memcpy(s.input + s.input_len, s.input, s.input_len);
			memcpy(s.input + 2 * s.input_len, s.input,
			    s.input_len);
			s.input_len *= 3;
		}
		test_runs(od, &s, 1, 100000, 1000000, NULL, 0, NULL, CMP_FULL);
		test_runs(od, &s, 33, 7, 100000, NULL, 0, NULL,
		    sample_level(names[i]));
		setenv("MICDB_OCL_TEST", "io_cap=4,drift=1", 1);
		test_runs(od, &s, 33, 100000, 1000000, NULL, 0, NULL,
		    sample_level(names[i]));
		setenv("MICDB_OCL_TEST", "io_cap=4", 1);
		subject_free(&s);
	}
	unsetenv("MICDB_OCL_TEST");
}

int
odiff_main(const struct odiff_level *lv, int argc, char **argv)
{
	static const uint32_t cores[] = { 1, 33, 1000 };
	struct odiff run = { .lv = lv }, *od = &run;
	struct ocl_devices l;
	char *cause = NULL;
	const char *top = getenv("top_srcdir");
	const char *only = argc > 1 ? argv[1] : NULL;

	if (ocl_devices_list(&l, &cause) != 0) {
		printf("1..0 # SKIP %s\n", cause);
		free(cause);
		return 77;
	}
	ocl_devices_free(&l);
	if (top == NULL)
		top = MICDB_SRCDIR;
	if (lv->setup != NULL && lv->setup(lv->ctx, top, &cause) != 0) {
		ok(0, "%s test set-up: %s", lv->name, cause);
		free(cause);
		return done_testing();
	}
	if (only == NULL || strcmp(only, "samples") == 0) {
		test_samples(od, top, "programs", cores, 3, 3000000);
		test_samples(od, top, "programs/bench", cores, 3, 3000000);
		test_samples(od, top, "programs/faults", cores, 3, 1000000);
	}
	if (only == NULL || strcmp(only, "io") == 0)
		test_io_areas(od, top);
	if ((only == NULL || strcmp(only, "divergence") == 0) &&
	    lv->extra_tests != NULL)
		lv->extra_tests(lv->ctx, top);
	if (only == NULL || strcmp(only, "generated") == 0)
		for (uint64_t seed = 1; seed <= 12; seed++)
			if (argc < 3 || strtoull(argv[2], NULL, 10) == seed)
				test_generated(od, seed, cores, 3, 2000000);
	tap_diag("%llu launches, %llu checkpoints, %llu cuts replayed",
	    (unsigned long long)od->totals.launches,
	    (unsigned long long)od->totals.checkpoints,
	    (unsigned long long)od->totals.restores);
	/* A cut that some core overshot must have been repaired at least
	 * once, or the replay path went untested. */
	ok(only != NULL || od->totals.restores > 0,
	    "overshot cuts were replayed");
	return done_testing();
}

void
odiff_micro_divergence(const struct odiff_level *lv, const char *top,
    const char *file, uint32_t ncores, uint32_t W, uint64_t nsteps,
    uint64_t k, unsigned max_k)
{
	struct machine_config cfg = { ncores, ODIFF_STACK_WORDS,
	    ODIFF_HEAP_WORDS, W };
	struct program prog;
	struct machine m;
	struct engine e;
	struct engine_run r = { .max_steps = nsteps, .stop_on_fault = 1 };
	struct engine_stop st;
	const struct engine_warp_record *w;
	char *cause = NULL, *path = odiff_path(top, file), what[160];
	size_t nw = 0;
	int good = 1;

	snprintf(what, sizeof what, "divergence records: %s, %u cores, W=%u, "
	    "K=%llu", file, ncores, W, (unsigned long long)k);
	if (program_load_file(&prog, path, &cause) != 0 ||
	    machine_init(&m, &cfg, (const struct program *[]){ &prog }, 1,
	    NULL, &cause) != 0 ||
	    lv->open_kernel(lv->ctx, &e, &m, &cause) != 0) {
		odiff_ok(0, "%s: %s", what, cause);
		free(cause);
		free(path);
		return;
	}
	free(path);
	lv->set_steps_per_launch(&e, k);
	if (e.ops->run(&e, &r, &st, &cause) != 0) {
		odiff_ok(0, "%s: %s", what, cause);
		free(cause);
		good = 0;
	}
	w = engine_ocl_warps(&e, &nw);
	good = good && nw == (ncores + W - 1) / W;
	for (size_t i = 0; good && i < nw; i++) {
		uint64_t cyc = 0, hsum = 0, lanes = 0;

		for (uint32_t c = (uint32_t)i * W; c < ncores &&
		    c < (uint32_t)(i + 1) * W; c++)
			cyc += m.cores[c].cycles;
		for (uint32_t n = 0; n < W; n++) {
			hsum += w[i].hist[n];
			lanes += (uint64_t)(n + 1) * w[i].hist[n];
		}
		if (w[i].active != cyc || w[i].kpaths < w[i].steps ||
		    (max_k && (w[i].kpaths > max_k * w[i].steps ||
		    w[i].last_k > max_k)) ||
		    hsum != w[i].kpaths || lanes != w[i].active ||
		    w[i].last_k < 1 ||
		    (w[i].last_converged & ~w[i].last_active) != 0 ||
		    (w[i].last_divergent & w[i].last_converged) != 0 ||
		    (w[i].last_divergent | w[i].last_converged) !=
		    w[i].last_active || w[i].last_paths < 1 ||
		    (w[i].last_paths == 1) != (w[i].last_divergent == 0))
			good = odiff_fail(what, "warp %zu: steps %llu active "
			    "%llu (cycles %llu) k %llu hist %llu lanes %llu "
			    "last k %u paths %u", i,
			    (unsigned long long)w[i].steps,
			    (unsigned long long)w[i].active,
			    (unsigned long long)cyc,
			    (unsigned long long)w[i].kpaths,
			    (unsigned long long)hsum,
			    (unsigned long long)lanes, w[i].last_k,
			    w[i].last_paths);
	}
	odiff_ok(good, "%s", what);
	engine_free(&e);
	machine_free(&m);
	program_free(&prog);
}

void
odiff_micro_divergence_suite(const struct odiff_level *lv, const char *top,
    unsigned max_k)
{
	odiff_micro_divergence(lv, top, "programs/bench/divergent.jas", 100,
	    32, 30000, 100000, max_k);
	odiff_micro_divergence(lv, top, "programs/bench/uniform.jas", 64, 32,
	    30000, 7, max_k);
	odiff_micro_divergence(lv, top, "programs/collatz.jas", 50, 7, 30000,
	    100000, max_k);
}

size_t
odiff_micro_mpc_bps(void *ctx, struct engine_bp *bps, const uint8_t *odd)
{
	(void)ctx;
	bps[0].id = 10;
	bps[0].pc = 0xA7;	/* GOTO */
	bps[0].cores = NULL;
	bps[0].on = ENGINE_BP_ON_MPC;
	bps[1].id = 11;
	bps[1].pc = 0x60;	/* IADD */
	bps[1].cores = odd;
	bps[1].on = ENGINE_BP_ON_MPC;
	return 2;
}
