/*
 * micdb bench's timed measurements (doc/bench.md): for one workload,
 * level and core count, the memory a machine needs, then for each engine
 * a warm-up that sets the step budget, --reps timed runs (the reference's
 * paired with OpenCL's), the interactive step latency and, with a render
 * hook, the render time; from the runs, throughput, SIMD efficiency,
 * kernel paths per warp-step and, at the micro levels, cycles per
 * instruction.  bench_measure appends one struct result per steps per
 * launch to b->res and hands each to bench-report.c as it finishes.
 *
 * A measurement is one (workload, level, cores, steps per launch).  For
 * each engine it is a warm-up run on a fresh machine, then --reps timed
 * runs, each on a fresh machine: only the engine's run() is timed, never
 * program loading, machine set-up or engine creation.  Figures are the
 * median over the timed runs, with min and max.  The two engines' timed
 * runs alternate (paired_runs), for the first steps per launch.
 *
 * Step budgets.  Running every workload to completion is impossible at a
 * million cores on a two-core CPU and pointless to time at one core, so
 * the warm-up also chooses the budget: it runs in doubling chunks (1, 2,
 * 4, ... global steps in all) until the machine is done or the marginal
 * cost of the steps (the difference of two successive chunks, so that
 * what every run() pays once, such as a checkpoint, does not count; two
 * such estimates must agree, and at many cores a native engine's come
 * only from chunks of at least AHEAD_MIN steps, the shortest it runs
 * in windows) says that a run of that many steps lasts
 * --run-seconds, or calibrating took 8 times that; the timed runs then
 * run exactly that many steps (or to completion), so every repetition
 * retires the same instructions.  The single workload always runs to
 * completion (but with --quick): the whole program is the figure.
 * Instructions per second is a rate, so a bounded run measures the real
 * machine, not a subset of its cores, and nothing is extrapolated.  Each
 * engine gets its own budget (a GPU may run 2^12 steps of a million cores
 * in the time the reference runs 2^4).
 *
 * Correctness first.  A run that completes must have printed its
 * workload's "OK" lines; no run may print FAIL, fault or deadlock.  A
 * budgeted run cannot print OK, so the two engines check each other: the
 * instructions retired after 2^k steps (the warm-ups' chunk boundaries)
 * must be equal on both engines at the largest boundary both reached, and
 * every timed run must retire exactly what its warm-up did.  These counts
 * do not depend on the order in which cores run: every workload is
 * race-free in its control flow (atomics return values that it only
 * pops, checks for monotonicity or turns into one reporter per program).
 *
 * Memory.  Device bytes are the engine's own figures
 * (level_ocl_mem_need); core counts that do not fit where the engine's
 * buffers live (level_ocl_mem_limit: the host's memory on a zero-copy
 * device, else the device's global memory and, for the host copies, the
 * host's), or whose buffer exceeds the device's largest, are skipped with
 * a note.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <poll.h>
#include <unistd.h>
#include <sys/wait.h>

#include "ahead.h"
#include "bench-int.h"
#include "bench.h"
#include "engine-ocl.h"
#include "hostmem.h"
#include "levels.h"
#include "ijvm.h"
#include "util.h"

/* ---- small helpers ---------------------------------------------------- */

double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct spread
bench_spread(double *v, size_t n)
{
	struct spread s;

	qsort(v, n, sizeof *v, cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

/* ---- memory ----------------------------------------------------------- */

void
bench_measure_mem_need(const struct bench_device *dev,
    const struct machine_config *cfg, enum level level,
    const struct program *const *progs, size_t nprogs, struct memuse *mu)
{
	struct ocl_mem_need need;

	level_ocl_mem_need(level, cfg, progs, nprogs, dev->is_gpu, dev->max_wg,
	    &need);
	mu->ctx = need.ctx;
	mu->stacks = need.stacks;
	mu->io = need.io;
	mu->shared = need.shared;
	mu->ckpt = need.ckpt;
	/* host: the machine (cores, stacks, I/O, heap) and the engine's */
	mu->host = (uint64_t)cfg->ncores * (sizeof(struct core) +
	    sizeof(struct core_io) + 8) + mu->stacks + mu->shared + need.host;
	mu->ncores = cfg->ncores;
	mu->stacks_shared = need.stacks_shared;
}

/* Device and host bytes of a machine of n cores of this measurement. */
static void
mem_estimate(const struct bench *b, const struct wl_progs *wp, uint32_t n,
    struct memuse *mu)
{
	struct machine_config cfg;

	memset(&cfg, 0, sizeof cfg);
	cfg.ncores = n;
	cfg.stack_words = b->o.stack_words;
	cfg.heap_words = b->o.heap_words;
	cfg.warp_width = b->o.warp_width;
	bench_measure_mem_need(&b->dev, &cfg, bench_levels[b->lv].level,
	    wp->ptrs, wp->n, mu);
}

/* The engine's rule (level_ocl_mem_limit): on a zero-copy device its
 * buffers are host pages and everything counts against what the host can
 * give (shared stacks, the machine's own pages, once); on a GPU the
 * buffers against the device's memory, the host copies against the
 * host's. */
char *
bench_measure_mem_refusal(const struct bench_device *dev,
    const struct memuse *mu)
{
	struct ocl_mem_limit lim;
	uint64_t need = bench_measure_mem_device(mu), twice;
	char *why;

	level_ocl_mem_limit(dev->is_gpu, dev->global_mem, dev->max_alloc,
	    &lim);
	if ((mu->stacks > lim.max_alloc && !mu->stacks_shared) ||
	    mu->ctx > lim.max_alloc)
		return xasprintf("needs a %.0f MiB buffer, the device allows "
		    "%.0f MiB", (mu->stacks > mu->ctx ? mu->stacks : mu->ctx) /
		    1048576.0, lim.max_alloc / 1048576.0);
	if (lim.buffers.host) {
		/* shared stacks are in mu->host, and checkpoints keep only
		 * their words in use */
		twice = mu->stacks_shared ? 2 * mu->stacks : 0;
		return level_ocl_mem_refusal(&lim.buffers, mu->ncores,
		    mu->host + need + mu->ckpt - twice);
	}
	if ((why = level_ocl_mem_refusal(&lim.buffers, mu->ncores, need)) !=
	    NULL)
		return why;
	return level_ocl_mem_refusal(&lim.host, mu->ncores, mu->host);
}

/* ---- one engine run --------------------------------------------------- */

/*
 * One run() of at most max steps (0: to completion), timed; *ran and
 * *done say how far it got.  Faults and deadlocks fail the workload; a
 * run() that fails is the engine's failure (b->engine_failed).
 */
static int
drive(struct bench *b, struct engine *e, uint64_t max, uint64_t *ran,
    int *done, double *secs, char **cause)
{
	struct engine_run r;
	struct engine_stop st;
	double t0;
	int rc;

	memset(&r, 0, sizeof r);
	r.max_steps = max ? max : UINT64_MAX;
	r.stop_on_fault = 1;
	t0 = bench_now();
	rc = e->ops->run(e, &r, &st, cause);
	*secs = bench_now() - t0;
	if (rc != 0) {
		b->engine_failed = 1;
		return -1;
	}
	*ran = st.steps_run;
	*done = 0;
	switch (st.reason) {
	case STOP_STEPS:
		return 0;
	case STOP_DONE:
		*done = 1;
		return 0;
	case STOP_FAULT: {
		const struct core *c = &e->m->cores[st.ncores ? st.cores[0] :
		    0];

		*cause = xasprintf("core %u faulted at pc 0x%04x: %s",
		    st.ncores ? st.cores[0] : 0, (uint32_t)c->fault_pc,
		    ijvm_fault_message(c->fault));
		return -1;
	}
	case STOP_DEADLOCK:
		*cause = xasprintf("deadlock at step %llu: cores wait at a "
		    "barrier that cannot complete",
		    (unsigned long long)e->m->step);
		return -1;
	default:
		*cause = xasprintf("the engine stopped for no reason bench "
		    "knows (%d)", (int)st.reason);
		return -1;
	}
}

/* ---- warm-up, timed runs, latency ------------------------------------- */

/*
 * A warm-up on a fresh machine, which also sets the budget: doubling
 * chunks until done or a run of run_s seconds (see the top of the file).
 */
static int
warm_up(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, enum engine_kind kind, uint64_t K,
    struct warm *wu, char **cause)
{
	struct machine m;
	struct engine e;
	double elapsed = 0, prev = 0, prev_step = 0;
	int rc = -1;

	/* A native engine runs a run of many cores shorter than AHEAD_MIN
	 * steps in lockstep (ahead.h), at 16 threads 35 times slower a
	 * step than the windows of a longer run: costs of chunks that short
	 * say nothing of a timed run's (doc/performance.md section 24.7). */
	uint64_t least = kind == ENGINE_NATIVE && n > 1 ? AHEAD_MIN : 1;

	memset(wu, 0, sizeof *wu);
	if (bench_work_open(b, w, wp, n, kind, K, &m, &e, cause) != 0)
		return -1;
	for (uint64_t boundary = 1;; boundary *= 2) {
		uint64_t ran;
		double secs, per_step;

		if (drive(b, &e, boundary - wu->steps, &ran, &wu->done, &secs,
		    cause) != 0)
			goto out;
		wu->steps += ran;
		/* The first step pays for what a device does once per
		 * configuration (POCL compiles the kernel for a new global
		 * size then, up to a second): it must not shrink the budget. */
		if (boundary > 1)
			elapsed += secs;
		if (wu->done) {
			wu->instr = bench_work_instructions(&m);
			break;
		}
		wu->marks[wu->nmarks++] = bench_work_instructions(&m);
		if (wu->nmarks == MAX_CHUNKS)
			break;
		if (w->whole && n == 1 && !b->o.quick)
			continue;
		/* Chunks of boundary / 2 and boundary / 4 steps: their
		 * difference is the cost of boundary / 4 steps without what
		 * every run() pays (a checkpoint, first launches).  Two
		 * successive estimates must agree, so that a one-time cost
		 * in one chunk (the first checkpoint's allocation) cannot end
		 * the calibration; stop when a run of `boundary` steps costs
		 * run_s by both, or when calibrating has taken long enough. */
		per_step = boundary >= 4 && boundary / 4 >= least &&
		    secs > prev ? (secs - prev) /
		    (double)(boundary / 4) : 0;
		/* nor may the budget stay below it: a timed run that short
		 * would time the lockstep, not the windows (a PMIC run of
		 * 32 steps at 65,536 cores on two threads here) */
		if (boundary >= least &&
		    ((per_step < prev_step ? per_step : prev_step) *
		    (double)boundary >= b->o.run_s ||
		    elapsed >= CALIBRATE_MAX * b->o.run_s))
			break;
		prev = secs;
		prev_step = per_step;
	}
	if (!wu->done)
		wu->instr = wu->marks[wu->nmarks - 1];
	rc = bench_work_check(&m, w, wu->done, cause);
out:
	bench_work_close(&m, &e);
	return rc;
}

/* Instructions after 2^k steps, or -1 when the warm-up did not get
 * there. */
static int64_t
warm_mark(const struct warm *wu, int k)
{
	if (k < wu->nmarks)
		return (int64_t)wu->marks[k];
	return wu->done ? (int64_t)wu->instr : -1;
}

/* The two engines' warm-ups must agree where both got (see the top). */
static int
cross_check(const struct warm *a, const char *aname, const struct warm *r,
    char **cause)
{
	int k;

	if (a->done && r->done) {
		if (a->instr != r->instr || a->steps != r->steps) {
			*cause = xasprintf("the %s engine retired %llu "
			    "instructions in %llu steps, the reference %llu in "
			    "%llu: the engines disagree", aname,
			    (unsigned long long)a->instr,
			    (unsigned long long)a->steps,
			    (unsigned long long)r->instr,
			    (unsigned long long)r->steps);
			return -1;
		}
		return 0;
	}
	k = a->done ? r->nmarks - 1 : r->done ? a->nmarks - 1 :
	    (a->nmarks < r->nmarks ? a->nmarks : r->nmarks) - 1;
	if (k < 0 || warm_mark(a, k) < 0 || warm_mark(r, k) < 0)
		return 0;
	if (warm_mark(a, k) != warm_mark(r, k)) {
		*cause = xasprintf("after %llu steps the %s engine had "
		    "retired %lld instructions, the reference %lld: the "
		    "engines disagree", 1ull << k, aname,
		    (long long)warm_mark(a, k),
		    (long long)warm_mark(r, k));
		return -1;
	}
	return 0;
}

/* What the timed runs of one engine give. */
struct timed {
	struct spread	ips;
	double		simd;      /* OpenCL only */
	double		kpaths;
	double		spl_used;
	double		cpi;       /* micro levels */
};

/* SIMD efficiency and kernel paths per warp-step of the last run, which
 * ran `steps` global steps. */
static void
simd_figures(struct engine *e, uint32_t W, uint64_t steps_run,
    struct timed *t)
{
	size_t nw = 0;
	const struct engine_warp_record *wr = e->ops->warps != NULL ?
	    e->ops->warps(e, &nw) : NULL;
	struct engine_stats st = { 0 };
	uint64_t act = 0, k = 0, steps = 0;

	for (size_t i = 0; i < nw; i++) {
		act += wr[i].active;
		k += wr[i].kpaths;
		steps += wr[i].steps;
	}
	t->simd = k ? (double)act / ((double)W * (double)k) : NAN;
	t->kpaths = steps ? (double)k / (double)steps : NAN;
	if (e->ops->stats != NULL)
		e->ops->stats(e, &st);
	/* steps the machine advanced per launch: launch_steps counts what
	 * launches were asked for, more than a finishing machine runs */
	t->spl_used = st.launches ? (double)steps_run / (double)st.launches :
	    NAN;
}

/* Timed run i (of reps) on a fresh machine, of the warm-up's budget:
 * ips[i], and the SIMD and cycle figures into t. */
static int
timed_run(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, enum engine_kind kind, uint64_t K,
    const struct warm *wu, unsigned i, double *ips, struct timed *t,
    char **cause)
{
	struct machine m;
	struct engine e;
	uint64_t ran;
	int done, rc = -1;
	double secs;

	if (bench_work_open(b, w, wp, n, kind, K, &m, &e, cause) != 0)
		return -1;
	if (drive(b, &e, wu->done ? 0 : wu->steps, &ran, &done, &secs,
	    cause) != 0 || bench_work_check(&m, w, done, cause) != 0)
		goto out;
	if (done != wu->done || ran != wu->steps ||
	    bench_work_instructions(&m) != wu->instr) {
		*cause = xasprintf("repetition %u ran %llu steps and retired "
		    "%llu instructions, the warm-up %llu and %llu: the %s "
		    "engine is not deterministic", i + 1,
		    (unsigned long long)ran,
		    (unsigned long long)bench_work_instructions(&m),
		    (unsigned long long)wu->steps,
		    (unsigned long long)wu->instr,
		    kind == ENGINE_REF ? "reference" : kind == ENGINE_NATIVE ?
		    "native" : "OpenCL");
		goto out;
	}
	/* a run too short for the clock still counts, as a bound */
	ips[i] = (double)wu->instr / (secs > 1e-9 ? secs : 1e-9);
	if (kind == ENGINE_OPENCL && i + 1 == b->o.reps)
		simd_figures(&e, b->o.warp_width, ran, t);
	t->cpi = NAN;
	if (e.ops->at_boundary != NULL && wu->instr > 0) {
		uint64_t cyc = 0;

		for (uint32_t c = 0; c < m.cfg.ncores; c++)
			cyc += m.cores[c].cycles;
		t->cpi = (double)cyc / (double)wu->instr;
	}
	rc = 0;
out:
	bench_work_close(&m, &e);
	return rc;
}

/* reps timed runs of one engine. */
static int
timed_runs(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, enum engine_kind kind, uint64_t K,
    const struct warm *wu, struct timed *t, char **cause)
{
	double *ips = xcalloc(b->o.reps, sizeof *ips);
	int rc = -1;

	for (unsigned i = 0; i < b->o.reps; i++)
		if (timed_run(b, w, wp, n, kind, K, wu, i, ips, t, cause) != 0)
			goto out;
	t->ips = bench_spread(ips, b->o.reps);
	rc = 0;
out:
	free(ips);
	return rc;
}

/*
 * The timed runs of both engines, paired: repetition i of the reference
 * and of OpenCL one after the other (in ABBA order), so that the ratio
 * compares runs made in the same seconds.  On a shared machine whose
 * speed drifts from minute to minute, the reference's five runs and
 * OpenCL's, made a minute apart, could fall in different periods
 * (doc/performance.md section 14 has the figures).  *ref_failed says
 * which one failed.
 */
static int
paired_runs(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, uint64_t K,
    const struct warm *rwu, struct timed *rt, const struct warm *owu,
    struct timed *ot, int *ref_failed, char **cause)
{
	double *rips = xcalloc(b->o.reps, sizeof *rips);
	double *oips = xcalloc(b->o.reps, sizeof *oips);
	int rc = -1;

	for (unsigned i = 0; i < b->o.reps; i++)
		for (int j = 0; j < 2; j++) {
			const int ref = (i % 2 == 0) == (j == 0);

			*ref_failed = ref;
			if (timed_run(b, w, wp, n, ref ? ENGINE_REF :
			    ENGINE_OPENCL, ref ? 0 : K,
			    ref ? rwu : owu, i, ref ? rips : oips,
			    ref ? rt : ot, cause) != 0)
				goto out;
		}
	rt->ips = bench_spread(rips, b->o.reps);
	ot->ips = bench_spread(oips, b->o.reps);
	rc = 0;
out:
	free(rips);
	free(oips);
	return rc;
}

/*
 * Interactive step latency: one run() of one step (a K = 1 launch and
 * the full context read-back) on a fresh OpenCL machine, many times;
 * with a render hook, also one step plus one off-screen render.
 */
static int
latency(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, struct result *r, char **cause)
{
	struct machine m;
	struct engine e;
	double step[LAT_MAX], both[LAT_MAX], spent = 0, secs;
	size_t ns = 0;
	uint64_t ran;
	int done = 0, rc = -1;
	tui_render_fn render = b->hooks != NULL ? b->hooks->render : NULL;

	if (bench_work_open(b, w, wp, n, ENGINE_OPENCL, 0, &m, &e, cause) != 0)
		return -1;
	/* an untimed first step: the first launch of an engine pays for
	 * one-time set-up that an interactive user sees once */
	if (drive(b, &e, 1, &ran, &done, &secs, cause) != 0)
		goto out;
	while (!done && ns < LAT_MAX && (ns < LAT_MIN || spent < b->o.lat_s)) {
		double t0 = bench_now();

		if (drive(b, &e, 1, &ran, &done, &secs, cause) != 0)
			goto out;
		step[ns] = secs * 1e3;
		/* the render reads the machine through the engine */
		if (render != NULL && render(b->hooks->arg, &e, cause) != 0) {
			b->engine_failed = 1;
			goto out;
		}
		both[ns] = (bench_now() - t0) * 1e3;
		spent += bench_now() - t0;
		ns++;
	}
	if (bench_work_check(&m, w, done, cause) != 0)
		goto out;
	if (ns > 0) {
		r->have_lat = 1;
		r->lat_ms = bench_spread(step, ns);
		if (render != NULL) {
			r->have_render = 1;
			r->render_ms = bench_spread(both, ns);
		}
	}
	rc = 0;
out:
	bench_work_close(&m, &e);
	return rc;
}

/* ---- the measurements ------------------------------------------------- */

/*
 * The native engine's figure (nat), or in nat->native_note why there is
 * none: the build or the level has no native engine (level_engine_open
 * says so), or n is above BENCH_NATIVE_MAX_CORES.  Checked against the
 * reference's warm-up (rwarm, NULL with --no-ref) like OpenCL.
 */
static int
native_figure(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, const struct warm *rwarm,
    struct result *nat, char **cause)
{
	struct machine m;
	struct engine e;
	struct warm nwarm;
	struct timed nt;
	char *msg = NULL;

	if (n > BENCH_NATIVE_MAX_CORES) {
		nat->native_note = xasprintf("measured up to %u cores",
		    BENCH_NATIVE_MAX_CORES);
		return 0;
	}
	switch (bench_work_open(b, w, wp, n, ENGINE_NATIVE, 0, &m, &e, &msg)) {
	case -1:
		*cause = msg;
		return -1;
	case -2:
		nat->native_note = msg;
		return 0;
	}
	bench_work_close(&m, &e);
	memset(&nt, 0, sizeof nt);
	if (b->tty)
		fprintf(stderr, "\r\033[Kbench: [%zu/%zu] %s %s, %u cores: "
		    "native ...", b->done + 1, b->total,
		    bench_levels[b->lv].name, w->name, n);
	if (warm_up(b, w, wp, n, ENGINE_NATIVE, 0, &nwarm, cause) != 0 ||
	    (rwarm != NULL && cross_check(&nwarm, "native", rwarm,
	    cause) != 0) ||
	    timed_runs(b, w, wp, n, ENGINE_NATIVE, 0, &nwarm, &nt,
	    cause) != 0)
		return -1;
	nat->have_native = 1;
	nat->native_done = nwarm.done;
	nat->native_ips = nt.ips;
	return 0;
}

static struct result *
new_result(struct bench *b, size_t wl, size_t lv, uint32_t n, uint64_t K)
{
	struct result *r;

	b->res = xreallocarray(b->res, b->nres + 1, sizeof *b->res);
	r = &b->res[b->nres++];
	memset(r, 0, sizeof *r);
	r->wl = wl;
	r->lv = lv;
	r->ncores = n;
	r->spl = K;
	r->simd = r->kpaths = r->spl_used = r->cpi = NAN;
	return r;
}

/* Every K of one workload, level and core count: the reference and the
 * latency do not depend on K, so they are measured once. */
int
bench_measure(struct bench *b, size_t wl, size_t lv, uint32_t n,
    const struct wl_progs *wp, char **cause)
{
	const struct workload *w = &bench_workloads[wl];
	struct memuse mu;
	struct warm rwarm, owarm;
	struct timed rt, ot;
	struct result lat, nat;
	char *why, *msg = NULL;

	mem_estimate(b, wp, n, &mu);
	if ((why = bench_measure_mem_refusal(&b->dev, &mu)) != NULL) {
		for (size_t k = 0; k < b->o.nspl; k++) {
			struct result *r = new_result(b, wl, lv, n,
			    b->o.spl[k]);

			r->note = k ? xstrdup(why) : why;
			r->mem = mu;
			b->done++;
			bench_report_progress(b, r, 0);
		}
		return 0;
	}
	b->lv = lv;
	memset(&rt, 0, sizeof rt);
	memset(&ot, 0, sizeof ot);
	memset(&rwarm, 0, sizeof rwarm);
	memset(&lat, 0, sizeof lat);
	memset(&nat, 0, sizeof nat);
	if (!b->o.no_ref) {
		if (b->tty)
			fprintf(stderr, "\r\033[Kbench: [%zu/%zu] %s %s, %u "
			    "cores: reference ...", b->done + 1, b->total,
			    bench_levels[lv].name, w->name, n);
		if (warm_up(b, w, wp, n, ENGINE_REF, 0, &rwarm, &msg) != 0)
			goto fail_ref;
	}
	for (size_t k = 0; k < b->o.nspl; k++) {
		struct result *r = new_result(b, wl, lv, n, b->o.spl[k]);
		int ref_failed = 0;

		bench_report_progress(b, r, 1);
		r->mem = mu;
		if (warm_up(b, w, wp, n, ENGINE_OPENCL, r->spl, &owarm,
		    &msg) != 0 ||
		    (!b->o.no_ref && cross_check(&owarm, "OpenCL", &rwarm,
		    &msg) != 0))
			goto fail_ocl;
		/* the reference's runs are paired with the first steps
		 * per launch's; the other rows share its figure */
		if (k == 0 && !b->o.no_ref ?
		    paired_runs(b, w, wp, n, r->spl, &rwarm, &rt, &owarm,
		    &ot, &ref_failed, &msg) != 0 :
		    timed_runs(b, w, wp, n, ENGINE_OPENCL, r->spl, &owarm, &ot,
		    &msg) != 0) {
			if (ref_failed)
				goto fail_ref;
			goto fail_ocl;
		}
		if (k == 0 && latency(b, w, wp, n, &lat, &msg) != 0)
			goto fail_ocl;
		if (k == 0 && native_figure(b, w, wp, n, b->o.no_ref ? NULL :
		    &rwarm, &nat, &msg) != 0)
			goto fail_native;
		r->done = owarm.done;
		r->steps = owarm.steps;
		r->instr = owarm.instr;
		r->ips = ot.ips;
		r->simd = ot.simd;
		r->kpaths = ot.kpaths;
		r->spl_used = ot.spl_used;
		r->cpi = ot.cpi;
		if (!b->o.no_ref) {
			r->have_ref = 1;
			r->ref_done = rwarm.done;
			r->ref_steps = rwarm.steps;
			r->ref_instr = rwarm.instr;
			r->ref_ips = rt.ips;
		}
		r->have_lat = lat.have_lat;
		r->lat_ms = lat.lat_ms;
		r->have_render = lat.have_render;
		r->render_ms = lat.render_ms;
		r->have_native = nat.have_native;
		r->native_done = nat.native_done;
		r->native_ips = nat.native_ips;
		if (nat.native_note != NULL)
			r->native_note = k ? xstrdup(nat.native_note) :
			    nat.native_note;
		r->chosen = level_engine_choose(bench_levels[lv].level,
		    ENGINE_DEFAULT, n, b->o.threads, b->o.device);
		b->done++;
		bench_report_progress(b, r, 0);
		if (b->csv != NULL && bench_report_csv_row(b, r, cause) != 0) {
			b->output_failed = 1;
			return -1;
		}
	}
	return 0;
fail_ref:
	*cause = xasprintf("%s %s on %u cores, reference interpreter: %s",
	    bench_levels[lv].name, w->name, n, msg);
	free(msg);
	return -1;
fail_ocl:
	*cause = xasprintf("%s %s on %u cores, OpenCL engine: %s",
	    bench_levels[lv].name, w->name, n, msg);
	free(msg);
	return -1;
fail_native:
	*cause = xasprintf("%s %s on %u cores, native engine: %s",
	    bench_levels[lv].name, w->name, n, msg);
	free(msg);
	return -1;
}

/* ---- thread scaling (--scaling, bench-scaling.c) ------------------------ */

int
bench_measure_threads(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, uint32_t threads,
    const struct warm *given, struct warm *wu, struct spread *ips,
    char **cause)
{
	uint32_t was = b->o.threads;
	struct timed t;
	int rc;

	memset(&t, 0, sizeof t);
	b->o.threads = threads;
	if (given != NULL)
		*wu = *given;
	rc = (given == NULL &&
	    warm_up(b, w, wp, n, ENGINE_NATIVE, 0, wu, cause) != 0) ||
	    timed_runs(b, w, wp, n, ENGINE_NATIVE, 0, wu, &t, cause) != 0 ?
	    -1 : 0;
	b->o.threads = was;
	*ips = t.ips;
	return rc;
}

/* What a copy sends back: one write of less than PIPE_BUF bytes, so
 * that the copies' records never interleave in the one pipe. */
struct copy_record {
	int	ok;
	double	end;      /* bench_now() when its run ended */
	char	why[240];
};

/* One copy, in its own process: before the start, one untimed run of
 * the budget and its runs' machines and engines; then the runs back to
 * back, each of the budget, and its record.  The untimed run is the
 * warm-up the parent's timed runs have had: a forked child's first
 * writes to the heap it shares with the parent each copy a page, which
 * the engine's buffers of a first run would pay inside the time. */
static void
copy_main(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, const struct warm *wu,
    unsigned runs, int ready, int go, int res)
{
	struct copy_record rec;
	struct machine *m = xcalloc(runs, sizeof *m);
	struct engine *e = xcalloc(runs, sizeof *e);
	char *msg = NULL, c = 0;
	unsigned made = 0;

	memset(&rec, 0, sizeof rec);
	b->o.threads = 1;
	if (bench_work_open(b, w, wp, n, ENGINE_NATIVE, 0, &m[0], &e[0],
	    &msg) == 0) {
		uint64_t ran;
		int done;
		double secs;

		if (drive(b, &e[0], wu->done ? 0 : wu->steps, &ran, &done,
		    &secs, &msg) != 0)
			runs = 0;
		bench_work_close(&m[0], &e[0]);
	} else
		runs = 0;
	while (made < runs && bench_work_open(b, w, wp, n, ENGINE_NATIVE, 0,
	    &m[made], &e[made], &msg) == 0)
		made++;
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(1);
	for (unsigned i = 0; runs > 0 && made == runs && i < runs; i++) {
		uint64_t ran;
		int done;
		double secs;

		if (drive(b, &e[i], wu->done ? 0 : wu->steps, &ran, &done,
		    &secs, &msg) != 0)
			break;
		if (ran != wu->steps || done != wu->done ||
		    bench_work_instructions(&m[i]) != wu->instr) {
			msg = xasprintf("a copy ran %llu steps and retired "
			    "%llu instructions, the warm-up %llu and %llu: "
			    "the native engine is not deterministic",
			    (unsigned long long)ran,
			    (unsigned long long)bench_work_instructions(&m[i]),
			    (unsigned long long)wu->steps,
			    (unsigned long long)wu->instr);
			break;
		}
		if (bench_work_check(&m[i], w, done, &msg) != 0)
			break;
		if (i + 1 == runs) {
			rec.ok = 1;
			rec.end = bench_now();
		}
	}
	if (!rec.ok)
		snprintf(rec.why, sizeof rec.why, "%s", msg != NULL ? msg :
		    "the copy failed");
	/* nothing freed: the process ends */
	_exit(write(res, &rec, sizeof rec) == (ssize_t)sizeof rec ? 0 : 1);
}

/* One repetition: `copies` processes, started together once each has
 * made its machine (so that none runs alone while the others allocate),
 * and their instructions over the time from the start to the last one's
 * end (the monotonic clock is the system's, the same in every process):
 * not the sum of each one's rate, which counts a copy that ran while the
 * others waited for a processor as if it had run beside them. */
static int
copies_once(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, uint32_t copies,
    const struct warm *wu, unsigned runs, double one_s, double *rate,
    char **cause)
{
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, res[2] = { -1, -1 };
	int rc = -1;
	/* a copy that hangs must not hang bench: ten times its runs'
	 * expected time, and a minute */
	double deadline;
	pid_t *pids = xcalloc(copies, sizeof *pids);
	uint32_t started = 0, got = 0, nready = 0;
	struct copy_record rec;
	struct sigaction ign, was;
	double t0 = 0, last = 0;
	char c = 0;

	*rate = 0;
	if (pipe(ready) != 0 || pipe(go) != 0 || pipe(res) != 0) {
		*cause = xasprintf("cannot make a pipe for the copies: %s",
		    strerror(errno));
		for (int k = 0; k < 2; k++) {
			if (ready[k] >= 0)
				close(ready[k]);
			if (go[k] >= 0)
				close(go[k]);
			if (res[k] >= 0)
				close(res[k]);
		}
		free(pids);
		return -1;
	}
	/* the children's stdio buffers must not be written twice; a copy
	 * gone when the start is written must fail the figure, not kill
	 * bench with SIGPIPE */
	fflush(NULL);
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &was);
	for (; started < copies; started++) {
		pids[started] = fork();
		if (pids[started] < 0)
			break;
		if (pids[started] == 0) {
			close(ready[0]);
			close(go[1]);
			close(res[0]);
			copy_main(b, w, wp, n, wu, runs, ready[1], go[0],
			    res[1]);
		}
	}
	close(ready[1]);
	close(go[0]);
	close(res[1]);
	if (started < copies) {
		*cause = xasprintf("cannot start copy %u of %u: %s",
		    started + 1, copies, strerror(errno));
		goto out;
	}
	/* a copy that dies before it is ready (the others, waiting to
	 * start, keep the pipe open) is seen by waitpid */
	while (nready < copies) {
		struct pollfd pf = { ready[0], POLLIN, 0 };
		int st;

		if (poll(&pf, 1, 200) > 0) {
			if (read(ready[0], &c, 1) != 1) {
				*cause = xasprintf("the one-thread copies "
				    "ended before their start");
				goto out;
			}
			nready++;
			continue;
		}
		for (uint32_t k = 0; k < copies; k++)
			if (pids[k] > 0 && waitpid(pids[k], &st, WNOHANG) ==
			    pids[k]) {
				pids[k] = -1;
				*cause = xasprintf("a one-thread copy ended "
				    "before its start (%s %d)",
				    WIFSIGNALED(st) ? "signal" : "status",
				    WIFSIGNALED(st) ? WTERMSIG(st) :
				    WEXITSTATUS(st));
				goto out;
			}
	}
	t0 = bench_now();
	for (uint32_t i = 0; i < copies; i++)
		if (write(go[1], &c, 1) != 1) {
			*cause = xasprintf("cannot start the copies: %s",
			    strerror(errno));
			goto out;
		}
	deadline = t0 + 60 + 10 * runs * one_s;
	while (got < copies) {
		struct pollfd pf = { res[0], POLLIN, 0 };
		double left = deadline - bench_now();

		if (left <= 0 || poll(&pf, 1, (int)(left * 1000) + 1) == 0) {
			*cause = xasprintf("%u of %u one-thread copies took "
			    "over %.0f s (ten times their expected time and a "
			    "minute): stopped", copies - got, copies,
			    deadline - t0);
			goto out;
		}
		if (read(res[0], &rec, sizeof rec) != (ssize_t)sizeof rec)
			break;
		got++;
		if (!rec.ok) {
			rec.why[sizeof rec.why - 1] = '\0';
			*cause = xasprintf("one of %u one-thread copies: %s",
			    copies, rec.why);
			goto out;
		}
		if (rec.end > last)
			last = rec.end;
	}
	if (got < copies) {
		*cause = xasprintf("%u of %u one-thread copies ended without "
		    "a figure (crashed?)", copies - got, copies);
		goto out;
	}
	*rate = (double)copies * runs * (double)wu->instr /
	    (last - t0 > 1e-9 ? last - t0 : 1e-9);
	rc = 0;
out:
	close(ready[0]);
	close(go[1]);
	close(res[0]);
	for (uint32_t i = 0; i < started; i++) {
		int st;

		if (pids[i] < 0)
			continue;
		if (rc != 0)
			kill(pids[i], SIGKILL);
		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
	}
	free(pids);
	sigaction(SIGPIPE, &was, NULL);
	return rc;
}

/* A copy runs the budget `runs` times, so that it lasts --run-seconds
 * even where the budget is a whole program of a millisecond: what one
 * copy starts later than another (a wake-up, a time slice) must not be
 * most of the figure. */
#define COPY_MAX_RUNS 64

int
bench_measure_copies(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, uint32_t copies,
    const struct warm *wu, double one_ips, struct spread *rate,
    char **cause)
{
	double *v;
	double one_s = one_ips > 0 ? (double)wu->instr / one_ips : 0;
	unsigned runs = one_s > 0 && one_s < b->o.run_s ?
	    (unsigned)ceil(b->o.run_s / one_s) : 1;
	struct memuse mu;
	struct hostmem hm;
	char *why = NULL, have[16], need[16];
	uint64_t room;
	int rc = 0;

	if (runs > COPY_MAX_RUNS)
		runs = COPY_MAX_RUNS;
	/* every copy keeps its runs' machines: at most half of what the
	 * host can give now (hostmem.h), fewer runs before no copies */
	mem_estimate(b, wp, n, &mu);
	if (hostmem_probe("/", &hm, &why) != 0) {
		*cause = xasprintf("cannot tell the host's memory for the "
		    "copies: %s", why);
		free(why);
		return -1;
	}
	room = hm.bytes / 2 / copies / (mu.host > 0 ? mu.host : 1);
	if (room == 0) {
		*cause = xasprintf("%u one-thread copies of %u cores need "
		    "%s, the host gives %s (%s)", copies, n,
		    hostmem_size((uint64_t)copies * mu.host, need,
		    sizeof need), hostmem_size(hm.bytes / 2, have,
		    sizeof have), hm.name);
		return 1;
	}
	if (runs > room)
		runs = (unsigned)room;
	v = xcalloc(b->o.reps, sizeof *v);
	for (unsigned i = 0; i < b->o.reps && rc == 0; i++)
		rc = copies_once(b, w, wp, n, copies, wu, runs, one_s, &v[i],
		    cause);
	if (rc == 0)
		*rate = bench_spread(v, b->o.reps);
	free(v);
	return rc;
}
