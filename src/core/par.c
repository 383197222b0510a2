/*
 * Host threads for whole-machine passes (par.h).  A pass runs a few
 * milliseconds, so threads are started per pass and joined: no pool, no
 * state between calls, nothing to clean up on any exit path.
 */
#include <pthread.h>
#include <unistd.h>

#include "par.h"

uint32_t
par_threads(uint64_t n)
{
	static long nproc;
	uint64_t t;

	if (nproc == 0) {
		long v = sysconf(_SC_NPROCESSORS_ONLN);

		nproc = v > PAR_MAX ? PAR_MAX : v > 1 ? v : 1;
	}
	t = n / PAR_MIN_ITEMS;
	if (t > (uint64_t)nproc)
		t = (uint64_t)nproc;
	return t > 1 ? (uint32_t)t : 1;
}

void
par_spread(uint32_t t, void *(*work)(void *), void *parts, size_t size)
{
	pthread_t th[PAR_MAX];
	int started[PAR_MAX] = { 0 };
	char *p = parts;

	if (t > PAR_MAX)
		t = PAR_MAX;
	for (uint32_t i = 1; i < t; i++)
		started[i] = pthread_create(&th[i], NULL, work,
		    p + i * size) == 0;
	work(p);
	for (uint32_t i = 1; i < t; i++) {
		if (started[i])
			pthread_join(th[i], NULL);
		else
			work(p + i * size);
	}
}

void
par_split(uint64_t n, uint32_t t, void *(*work)(void *), void *parts,
    size_t size)
{
	char *p = parts;

	if (t > PAR_MAX)
		t = PAR_MAX;
	for (uint32_t i = 0; i < t; i++) {
		struct par_part *r = (struct par_part *)(void *)(p + i * size);

		r->lo = n * i / t;
		r->hi = n * (i + 1) / t;
	}
	par_spread(t, work, parts, size);
}
