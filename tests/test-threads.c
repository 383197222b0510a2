/*
 * The host threads of the native engines (par.h, ahead.c): built twice,
 * plainly (test-threads) and with ThreadSanitizer (test-threads-tsan,
 * clang -fsanitize=thread, tests/threads.mk), which checks that the
 * threaded windows share nothing they should not.  So the inputs are
 * small: TSan runs every memory access through its checks.
 *
 *   par_cpus_limit  the default thread count from fake affinity counts
 *                   and cgroup files (v2 cpu.max, v1 quota and period,
 *                   absent and malformed files);
 *   par_pool_run    every item of many rounds done exactly once, at 1,
 *                   2, 3 and 16 threads, with rounds of fewer items than
 *                   threads and chunks of any size, and small and large
 *                   rounds in turn (a late worker's claim);
 *   engines         the native engine of each level on 3 threads, every
 *                   round handed to the threads (ahead_par_items = 1),
 *                   against the same engine on one thread and against
 *                   the reference, on racy samples (shared counters, a
 *                   work queue, barriers), in runs of a few thousand
 *                   steps: the whole state must be the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "ahead.h"
#include "engine-micro.h"
#include "engine.h"
#include "machine.h"
#include "microcode.h"
#include "par.h"
#include "program.h"
#include "tap.h"

#define STACK_WORDS	512
#define HEAP_WORDS	(1u << 16)

/* ---- par_cpus_limit ------------------------------------------------- */

/* A file holding text, in dir; its path (static buffer per slot). */
static const char *
fake(const char *dir, int slot, const char *text)
{
	static char paths[3][512];
	FILE *f;

	snprintf(paths[slot], sizeof paths[slot], "%s/thr-%d-%ld", dir, slot,
	    (long)getpid());
	if ((f = fopen(paths[slot], "w")) == NULL)
		return NULL;
	fputs(text, f);
	fclose(f);
	return paths[slot];
}

static void
test_cpus(void)
{
	const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	const char *v2, *q, *p;

	ok(par_cpus_limit(8, NULL, NULL, NULL) == 8, "no cgroup: affinity");
	ok(par_cpus_limit(0, NULL, NULL, NULL) == 1, "no processor: one");
	ok(par_cpus_limit(1000, NULL, NULL, NULL) == PAR_POOL_MAX,
	    "bounded by PAR_POOL_MAX");
	v2 = fake(dir, 0, "max 100000\n");
	ok(par_cpus_limit(8, v2, NULL, NULL) == 8, "cpu.max max: affinity");
	v2 = fake(dir, 0, "150000 100000\n");
	ok(par_cpus_limit(8, v2, NULL, NULL) == 2, "cpu.max 1.5 cpus: 2");
	ok(par_cpus_limit(1, v2, NULL, NULL) == 1, "affinity below quota");
	v2 = fake(dir, 0, "50000 100000\n");
	ok(par_cpus_limit(8, v2, NULL, NULL) == 1, "cpu.max half a cpu: 1");
	v2 = fake(dir, 0, "garbage\n");
	ok(par_cpus_limit(4, v2, NULL, NULL) == 4, "malformed cpu.max: none");
	q = fake(dir, 1, "-1\n");
	p = fake(dir, 2, "100000\n");
	ok(par_cpus_limit(6, "/nonexistent/cpu.max", q, p) == 6,
	    "v1 quota -1: affinity");
	q = fake(dir, 1, "300000\n");
	ok(par_cpus_limit(6, "/nonexistent/cpu.max", q, p) == 3,
	    "v1 quota 3 cpus: 3");
	ok(par_cpus_limit(6, "/nonexistent/cpu.max", q, "/nonexistent/p") == 6,
	    "v1 quota without period: affinity");
	for (int i = 0; i < 3; i++) {
		char path[512];

		snprintf(path, sizeof path, "%s/thr-%d-%ld", dir, i,
		    (long)getpid());
		unlink(path);
	}
	ok(par_cpus() >= 1 && par_cpus() <= PAR_POOL_MAX,
	    "par_cpus: %u threads here", par_cpus());
}

/* ---- par_pool_run --------------------------------------------------- */

struct count {
	uint32_t	*hits;
};

static void
count_part(void *arg, uint64_t lo, uint64_t hi)
{
	struct count *c = arg;

	for (uint64_t i = lo; i < hi; i++)
		c->hits[i]++;
}

static void
test_pool(void)
{
	static const uint32_t threads[] = { 1, 2, 3, 16 };
	static const uint64_t sizes[] = { 0, 1, 2, 5, 17, 100, 1000, 4099 };

	for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
		struct par_pool *p = par_pool_new(threads[t]);
		int good = par_pool_threads(p) >= 1 &&
		    par_pool_threads(p) <= threads[t];

		for (int round = 0; round < 300 && good; round++) {
			uint64_t n = sizes[round % 8];
			struct count c = { xcalloc(n + 1, sizeof *c.hits) };

			par_pool_run(p, n, (uint64_t)(round / 8) % 5, count_part,
			    &c);
			for (uint64_t i = 0; i < n; i++)
				good &= c.hits[i] == 1;
			free(c.hits);
		}
		ok(good, "pool of %u threads: every item once in 300 rounds",
		    threads[t]);
		par_pool_free(p);
	}
	/* a small round, then a large one with new data, many times: a
	 * worker late from the small round must not take a chunk of the
	 * large one (beyond the small round's end) before its setup */
	{
		struct par_pool *p = par_pool_new(3);
		int good = 1;

		for (int round = 0; round < 4000 && good; round++) {
			uint64_t n = round % 2 ? 64 : 4;
			struct count c = { xcalloc(n + 64, sizeof *c.hits) };

			par_pool_run(p, n, 1, count_part, &c);
			for (uint64_t i = 0; i < n + 64; i++)
				good &= c.hits[i] == (i < n);
			free(c.hits);
		}
		ok(good, "rounds of 4 and 64 items in turn: each item once, "
		    "nothing beyond");
		par_pool_free(p);
	}
	par_pool_run(NULL, 3, 0, count_part, &(struct count){
	    (uint32_t[3]){ 0 } });
	ok(1, "no pool: the caller runs the round");
}

/* ---- engines -------------------------------------------------------- */

struct machines {
	struct machine	 m[3];      /* reference, 1 thread, 3 threads */
	struct engine	 e[3];
};

static int
open_all(struct machines *x, const struct program *prog, uint32_t ncores,
    enum level level, const void *cs)
{
	struct machine_config cfg = { ncores, STACK_WORDS, HEAP_WORDS, 32 };
	char *cause = NULL;
	int rc = 0;

	memset(x, 0, sizeof *x);
	for (int k = 0; k < 3 && rc == 0; k++) {
		/* the machine keeps the array: close_all frees it */
		const struct program **progs = xcalloc(1, sizeof *progs);

		progs[0] = prog;
		if (machine_init(&x->m[k], &cfg, progs, 1, NULL, &cause) != 0) {
			free(progs);
			rc = -1;
			break;
		}
		if (level == LEVEL_ISA)
			rc = k == 0 ? engine_ref_create(&x->e[k], &x->m[k],
			    &cause) : engine_native_create(&x->e[k], &x->m[k],
			    &cause);
		else
			rc = k == 0 ? engine_micro_create(&x->e[k], &x->m[k],
			    level, cs, &cause) : engine_micro_native_create(
			    &x->e[k], &x->m[k], level, cs, &cause);
	}
	if (rc != 0) {
		tap_diag("%s", cause != NULL ? cause : "?");
		free(cause);
		return -1;
	}
	engine_set_threads(&x->e[2], 3);
	return 0;
}

static void
close_all(struct machines *x)
{
	for (int k = 0; k < 3; k++) {
		engine_free(&x->e[k]);
		free(x->m[k].progs);
		x->m[k].progs = NULL;
		machine_free(&x->m[k]);
	}
}

/* Machine b's state is a's; 1 if so. */
static int
same(const struct machine *a, const struct machine *b)
{
	for (uint32_t c = 0; c < a->cfg.ncores; c++) {
		const struct core *x = &a->cores[c], *y = &b->cores[c];

		if (x->pc != y->pc || x->sp != y->sp || x->lv != y->lv ||
		    x->tos != y->tos || x->status != y->status ||
		    x->steps != y->steps || x->mpc != y->mpc ||
		    x->cycles != y->cycles || x->mdr != y->mdr ||
		    x->mar != y->mar || x->h != y->h ||
		    a->io[c].out.len != b->io[c].out.len ||
		    (a->io[c].out.len > 0 && memcmp(a->io[c].out.data,
		    b->io[c].out.data, a->io[c].out.len) != 0)) {
			tap_diag("core %u differs", c);
			return 0;
		}
	}
	return a->step == b->step && a->heap_top == b->heap_top &&
	    memcmp(a->stacks, b->stacks, (size_t)a->cfg.ncores *
	    STACK_WORDS * sizeof *a->stacks) == 0 &&
	    memcmp(a->globals, b->globals, MM_GLOBALS_WORDS *
	    sizeof *a->globals) == 0 &&
	    memcmp(a->heap, b->heap, HEAP_WORDS * sizeof *a->heap) == 0;
}

static void
test_engine(const char *top, const char *name, uint32_t ncores,
    enum level level, const void *cs)
{
	struct machines x;
	struct program prog;
	char path[1024], *cause = NULL;
	int good = 1, runs = 0;

	snprintf(path, sizeof path, "%s/%s", top, name);
	if (program_load_file(&prog, path, &cause) != 0) {
		ok(0, "load %s: %s", name, cause);
		free(cause);
		return;
	}
	if (open_all(&x, &prog, ncores, level, cs) != 0) {
		ok(0, "engines for %s", name);
		program_free(&prog);
		return;
	}
	for (; good && runs < 12; runs++) {
		struct engine_run r = { .max_steps = 700 + 300 * (uint64_t)runs,
		    .stop_on_fault = 1 };
		struct engine_stop st[3];

		for (int k = 0; k < 3 && good; k++)
			good = x.e[k].ops->run(&x.e[k], &r, &st[k],
			    &cause) == 0;
		good = good && st[0].reason == st[1].reason &&
		    st[0].reason == st[2].reason &&
		    st[0].steps_run == st[2].steps_run &&
		    same(&x.m[0], &x.m[1]) && same(&x.m[0], &x.m[2]);
		if (st[0].reason == STOP_DONE || st[0].reason == STOP_DEADLOCK)
			break;
	}
	ok(good, "%s level %s at %u cores, 3 threads: as the reference in "
	    "%d runs", level_name(level), name, ncores, runs);
	close_all(&x);
	program_free(&prog);
}

int
main(void)
{
	static const struct {
		const char	*name;
		uint32_t	 ncores;
	} samples[] = {
		{ "programs/bench/divergent.jas", 24 },
		{ "programs/bench/barrier.jas", 16 },
		{ "programs/workqueue.jas", 8 },
		{ "programs/parsum.jas", 8 },
	};
	const char *top = getenv("top_srcdir");

	if (top == NULL)
		top = ".";
	test_cpus();
	test_pool();
	ahead_par_items = 1;
	for (int lv = LEVEL_ISA; lv <= LEVEL_PMIC; lv++) {
		struct microcode mc = { .level = (enum level)lv };
		const void *cs = NULL;
		char path[1024], *cause = NULL;

		if (lv != LEVEL_ISA) {
			snprintf(path, sizeof path, "%s/microcode/%s", top,
			    lv == LEVEL_MIC ? "mic1.mal" : "pmic.pm");
			if (microcode_load(&mc, (enum level)lv, path,
			    &cause) != 0) {
				ok(0, "load %s: %s", path, cause);
				free(cause);
				continue;
			}
			cs = microcode_store(&mc);
		}
		for (size_t i = 0; i < sizeof samples / sizeof *samples; i++)
			test_engine(top, samples[i].name, samples[i].ncores,
			    (enum level)lv, cs);
		if (lv != LEVEL_ISA)
			microcode_free(&mc);
	}
	return done_testing();
}
