/*
 * Work split over host threads.
 *
 * Whole-machine passes (doc/performance.md section 17): a pass over
 * every struct core is bound by memory traffic, which one thread cannot
 * saturate, and a stop makes several (the read-back's conversion, the
 * divergence sample, the screen's census).  The work is cut into parts
 * of equal size that the caller fills and sums afterwards, so the result
 * does not depend on how many threads ran (par_spread, par_split).
 *
 * Rounds of the native engines' run-ahead windows (doc/performance.md
 * section 19): many short rounds per window, each a few microseconds of
 * work, where starting a thread per round would cost more than the
 * round.  A pool (par_pool_*) keeps its threads between rounds; each
 * round hands out its items in chunks, so the result again does not
 * depend on which thread ran which item.
 */
#ifndef MICDB_PAR_H
#define MICDB_PAR_H

#include <stddef.h>
#include <stdint.h>

/* The most threads a pass uses: the processors of the GPU hosts the
 * conversion was tuned on. */
#define PAR_MAX 16

/* Items per thread below which a thread costs more than it saves: a
 * thread that has to wait for a processor (POCL's workers, other jobs)
 * delays the whole pass (doc/performance.md section 17). */
#define PAR_MIN_ITEMS 131072

/* The threads a pass over n items should use: 1 .. PAR_MAX, no more
 * than the processors online, none below PAR_MIN_ITEMS items each. */
uint32_t par_threads(uint64_t n);

/*
 * work(part) for t parts of size bytes each, laid out one after the
 * other from parts: parts 1 .. t - 1 on threads of their own, part 0 on
 * this one; a thread that cannot be started leaves its part to this one,
 * so the call cannot fail.  t is at most PAR_MAX.
 */
void	 par_spread(uint32_t t, void *(*work)(void *), void *parts,
	    size_t size);

/* The first member of a part for par_split: its items [lo, hi). */
struct par_part {
	uint64_t	 lo, hi;
};

/* par_spread over t parts that begin with a struct par_part, after
 * giving part i items n * i / t .. n * (i + 1) / t - 1. */
void	 par_split(uint64_t n, uint32_t t, void *(*work)(void *),
	    void *parts, size_t size);

/* The most threads a pool has, the caller included. */
#define PAR_POOL_MAX 256

/*
 * The threads this process may use: ncpu (the processors of its CPU
 * affinity) bounded by the cgroup's CPU quota, read from cpu_max (cgroup
 * v2's cpu.max, "QUOTA PERIOD" or "max PERIOD") or else from quota and
 * period (cgroup v1's cpu.cfs_quota_us, -1 for none, and
 * cpu.cfs_period_us), rounded up; a path that is NULL or cannot be read
 * sets no bound.  At least 1, at most PAR_POOL_MAX.
 */
uint32_t par_cpus_limit(uint32_t ncpu, const char *cpu_max,
	    const char *quota, const char *period);
/* par_cpus_limit of this process: its affinity and its cgroup's files
 * (read once). */
uint32_t par_cpus(void);

struct par_pool;

/* A pool of threads threads, the caller's included (clamped to 1 ..
 * PAR_POOL_MAX): threads - 1 workers, fewer when the system refuses
 * one (the caller then does more of the work).  Never NULL. */
struct par_pool *par_pool_new(uint32_t threads);
void	 par_pool_free(struct par_pool *p);
/* The threads of p, the caller's included (1 for NULL). */
uint32_t par_pool_threads(const struct par_pool *p);

/*
 * fn(arg, lo, hi) over the items [0, n) in chunks of at most grain (0:
 * chosen from n and the threads), on p's threads and the caller's;
 * returns when every item is done.  Chunks run in any order at the same
 * time: fn must touch only what its items own.  With p NULL, one
 * thread or one chunk, the caller runs fn(arg, 0, n) itself.
 */
void	 par_pool_run(struct par_pool *p, uint64_t n, uint64_t grain,
	    void (*fn)(void *arg, uint64_t lo, uint64_t hi), void *arg);

/*
 * A count that many threads add to at once, as the translations count
 * the steps their code ran (the tests' proof that it did): a slot per
 * thread, each on a cache line of its own.  One shared count, a line
 * that every private run of a window wrote, cost more than the runs at
 * 16 threads (doc/performance.md 24.10).  More threads than slots share
 * them, which the atomic add allows.
 */
#define PAR_COUNT_SLOTS 64
struct par_count {
	struct {
		_Alignas(64) _Atomic uint64_t n;
	} slot[PAR_COUNT_SLOTS];
};

void	 par_count_add(struct par_count *c, uint64_t n);
uint64_t par_count_sum(const struct par_count *c);

#endif
