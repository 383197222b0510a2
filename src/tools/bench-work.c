/*
 * micdb bench's workloads and the machines they run on: the table of
 * workloads (programs/bench) and of levels, where the workloads are
 * found and how they load, a fresh machine of n cores for a workload
 * (MIMD: four programs on interleaved warps), an engine over it (the
 * reference or OpenCL with K steps per launch), and a workload's own
 * verdict on a machine after a run (its OK lines, no FAIL, no fault).
 *
 * Nothing here times anything: bench-measure.c does, with what this file
 * makes.  A machine and an engine made here belong to the caller, which
 * frees them (machine_free, engine_free); so do a workload's programs
 * (bench_work_free).
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "bench-int.h"
#include "ijvm.h"
#include "levels.h"
#include "microcode.h"
#include "util.h"

/* ---- workloads and levels --------------------------------------------- */

const struct workload bench_workloads[] = {
	{ "uniform", { "uniform.jas" }, { "uniform OK" }, 1, 0, 0 },
	{ "divergent", { "divergent.jas" }, { "divergent OK" }, 1, 0, 0 },
	{ "mimd", { "mimd0.jas", "mimd1.jas", "mimd2.jas", "mimd3.jas" },
	    { "mimd0 OK", "mimd1 OK", "mimd2 OK", "mimd3 OK" }, 4, 0, 0 },
	{ "barrier", { "barrier.jas" }, { "barrier OK" }, 1, 0, 0 },
	{ "single", { "single.jas" }, { " OK" }, 1, 1, 1 },
};
_Static_assert(sizeof bench_workloads / sizeof bench_workloads[0] ==
    NWORKLOADS, "NWORKLOADS in bench-int.h counts bench_workloads");

const struct bench_level bench_levels[] = {
	{ "isa", 1, LEVEL_ISA },
	{ "mic", 1, LEVEL_MIC },
	{ "pmic", 1, LEVEL_PMIC },
};
_Static_assert(sizeof bench_levels / sizeof bench_levels[0] == NLEVEL,
    "bench_levels has a row for every level (engine.h NLEVEL)");

const uint32_t bench_few_cores[NFEW] = { 1, 2, 4, 32 };

/* Does the n bytes at p contain s? */
static int
contains(const uint8_t *p, size_t n, const char *s)
{
	size_t k = strlen(s);

	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (memcmp(p + i, s, k) == 0)
			return 1;
	return 0;
}

/* ---- programs --------------------------------------------------------- */

/*
 * The workloads' directory: $MICDB_BENCH_DIR, else data_path's
 * programs/bench (the source tree's when this binary runs from it, so
 * that an edited workload is what gets measured).
 */
char *
bench_work_dir(void)
{
	const char *env = getenv("MICDB_BENCH_DIR");

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	return data_path("programs/bench");
}

int
bench_work_load(const struct bench *b, const struct workload *w,
    struct wl_progs *wp, char **cause)
{
	memset(wp, 0, sizeof *wp);
	for (size_t i = 0; i < w->nprogs; i++) {
		char *path = xasprintf("%s/%s", b->dir, w->files[i]);
		char *msg = NULL;

		if (program_load_file(&wp->progs[i], path, &msg) != 0) {
			*cause = xasprintf("cannot load workload %s: %s (set "
			    "MICDB_BENCH_DIR to the directory holding %s)",
			    w->name, msg, w->files[i]);
			free(msg);
			free(path);
			for (size_t j = 0; j < wp->n; j++)
				program_free(&wp->progs[j]);
			return -1;
		}
		free(path);
		wp->ptrs[i] = &wp->progs[i];
		wp->n++;
	}
	return 0;
}

void
bench_work_free(struct wl_progs *wp)
{
	for (size_t i = 0; i < wp->n; i++)
		program_free(&wp->progs[i]);
	wp->n = 0;
}

/* ---- machines and engines --------------------------------------------- */

uint64_t
bench_work_instructions(const struct machine *m)
{
	uint64_t n = 0;

	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		n += m->cores[c].steps;
	return n;
}

/* A fresh machine of n cores for workload w. */
int
bench_work_machine(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, struct machine *m, char **cause)
{
	struct machine_config cfg;
	uint16_t *core_prog = NULL;
	int rc;

	cfg.ncores = n;
	cfg.stack_words = b->o.stack_words;
	cfg.heap_words = b->o.heap_words;
	cfg.warp_width = b->o.warp_width;
	if (w->nprogs > 1) {
		/* MIMD: program (c / W) mod 4 on core c, four programs on
		 * interleaved warps */
		core_prog = xcalloc(n, sizeof *core_prog);
		for (uint32_t c = 0; c < n; c++)
			core_prog[c] = (uint16_t)(c / cfg.warp_width %
			    w->nprogs);
	}
	/* The machine keeps the array (it must outlive it: wp does); it
	 * never writes through it, but its type is not const all the way. */
	rc = machine_init(m, &cfg, (const struct program **)(uintptr_t)wp->ptrs,
	    wp->n, core_prog, cause);
	free(core_prog);
	return rc;
}

/* An engine over m: the reference, or OpenCL with K steps per launch. */
int
bench_work_engine(struct bench *b, int ref, struct machine *m, uint64_t K,
    struct engine *e, char **cause)
{
	return bench_work_engine_kind(b, ref ? ENGINE_REF : ENGINE_OPENCL, m,
	    K, e, cause);
}

/* An engine of kind over m (K: OpenCL's steps per launch).  The native
 * engine of a level comes from level_engine_open like the others, so a
 * level that gains one is measured without a change here; where the
 * build or level has none, *cause says why (the table's "-"), which is
 * no failure.  Any other engine that cannot be made is the engine's
 * failure (b->engine_failed): the OpenCL device's, as in micdb run. */
int
bench_work_engine_kind(struct bench *b, enum engine_kind kind,
    struct machine *m, uint64_t K, struct engine *e, char **cause)
{
	enum level lv = bench_levels[b->lv].level;

	if (level_engine_open(e, m, lv, kind, b->o.device, b->o.threads,
	    lv == LEVEL_MIC ? &b->mc : lv == LEVEL_PMIC ? &b->pmc : NULL,
	    cause) != 0) {
		if (kind != ENGINE_NATIVE)
			b->engine_failed = 1;
		return -1;
	}
	if (e->ops->set_steps_per_launch == NULL)
		return 0;
	/* 0 is the adaptive default: set it anyway, so that a k in
	 * MICDB_OCL_TEST cannot make "auto" a lie */
	e->ops->set_steps_per_launch(e, K);
	return 0;
}

/*
 * The workload's own verdict on m: no core printed FAIL or faulted, and
 * when the run is complete every program that had cores printed its OK.
 */
int
bench_work_check(const struct machine *m, const struct workload *w, int done,
    char **cause)
{
	int ok[4] = { 0, 0, 0, 0 }, has[4] = { 0, 0, 0, 0 };

	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];
		const struct buf *out = &m->io[c].out;

		if (contains(out->data, out->len, "FAIL")) {
			*cause = xasprintf("core %u printed FAIL: the "
			    "workload's self-check failed", c);
			return -1;
		}
		if (core->status == CORE_ERROR) {
			*cause = xasprintf("core %u faulted: %s", c,
			    ijvm_fault_message(core->fault));
			return -1;
		}
		if (core->prog < w->nprogs) {
			has[core->prog] = 1;
			if (contains(out->data, out->len, w->ok[core->prog]))
				ok[core->prog] = 1;
		}
	}
	if (!done)
		return 0;
	for (size_t p = 0; p < w->nprogs; p++)
		if (has[p] && !ok[p]) {
			*cause = xasprintf("the run completed but no core "
			    "printed '%s': the workload's result is wrong",
			    w->ok[p]);
			return -1;
		}
	return 0;
}

int
bench_work_open(struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, enum engine_kind kind, uint64_t K,
    struct machine *m, struct engine *e, char **cause)
{
	if (bench_work_machine(b, w, wp, n, m, cause) != 0)
		return -1;
	if (bench_work_engine_kind(b, kind, m, K, e, cause) != 0) {
		machine_free(m);
		return -2;
	}
	return 0;
}

void
bench_work_close(struct machine *m, struct engine *e)
{
	engine_free(e);
	machine_free(m);
}
