/*
 * Whole-machine passes split over host threads (doc/performance.md
 * section 17): a pass over every struct core is bound by memory traffic,
 * which one thread cannot saturate, and a stop makes several (the
 * read-back's conversion, the divergence sample, the screen's census).  The work is cut into parts of equal size that
 * the caller fills and sums afterwards, so the result does not depend on
 * how many threads ran.
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

#endif
