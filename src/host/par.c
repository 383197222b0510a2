/*
 * Host threads (par.h).  A whole-machine pass runs a few milliseconds,
 * so its threads are started per pass and joined: no state between
 * calls, nothing to clean up on any exit path.
 *
 * A window's rounds (par_pool_run) last microseconds, so the pool's
 * workers stay: between rounds each spins a while on the round counter
 * (the next round usually comes within microseconds), then sleeps on a
 * condition variable.  A round is published as a tag in the high half
 * of the chunk counter, whose low half is the next item: a worker claims
 * a chunk only with a compare-and-swap that names the round's tag, so a
 * worker that wakes late finds the round over and touches nothing of
 * it.  The claim of a round's last chunk closes the counter (PAR_CLOSED)
 * and the next round's parameters are written only while it is closed:
 * a counter left at "item n" would let a late worker that read it, and
 * then the next round's larger n, claim a chunk of the old tag beyond
 * the old end, with the new round's function and data and without
 * having seen their setup (ThreadSanitizer's report, doc/performance.md
 * section 19.2).  Tags are 32 bits and wrap; a claim that names a tag
 * 2^32 rounds old would need a worker stopped for all of them.  The
 * caller takes chunks too and returns when every item is done,
 * without waiting for a worker that never got a chunk: on a machine
 * shared with other jobs a worker may wait long for a processor, and the
 * round must not wait with it.  A worker that the system stops inside
 * its chunk still holds the round up; when the caller waits for such
 * chunks longer than PAR_WAIT_NS beyond a chunk's time, the pool backs
 * off: the rounds of the next while run on the caller alone, a longer
 * while each time it happens again, so that an overloaded machine costs
 * the threads little against one thread.  The while is a time, not a
 * count of rounds: what it avoids costs a time slice, and a window's
 * rounds range from microseconds to the whole run (a first pass, or the
 * one round that follows a step where every core's next step is shared:
 * doc/performance.md section 19.3), so that a count long enough for the
 * short ones would leave a whole run on one thread.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "par.h"
#include "util.h"

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

/* The first line of path, or NULL. */
static char *
par_read_line(const char *path, char *buf, size_t size)
{
	FILE *f;
	char *l;

	if (path == NULL || (f = fopen(path, "r")) == NULL)
		return NULL;
	l = fgets(buf, (int)size, f);
	fclose(f);
	return l;
}

uint32_t
par_cpus_limit(uint32_t ncpu, const char *cpu_max, const char *quota,
    const char *period)
{
	char qb[64], pb[64];
	long long q = -1, per = 0;
	uint64_t t = ncpu > 0 ? ncpu : 1;

	if (par_read_line(cpu_max, qb, sizeof qb) != NULL) {
		if (strncmp(qb, "max", 3) != 0 &&
		    sscanf(qb, "%lld %lld", &q, &per) != 2)
			q = -1;
	} else if (par_read_line(quota, qb, sizeof qb) != NULL &&
	    par_read_line(period, pb, sizeof pb) != NULL) {
		if (sscanf(qb, "%lld", &q) != 1 ||
		    sscanf(pb, "%lld", &per) != 1)
			q = -1;
	}
	if (q > 0 && per > 0 && (uint64_t)((q + per - 1) / per) < t)
		t = (uint64_t)((q + per - 1) / per);
	if (t > PAR_POOL_MAX)
		t = PAR_POOL_MAX;
	return (uint32_t)t;
}

uint32_t
par_cpus(void)
{
	static _Atomic uint32_t cpus;
	uint32_t n = atomic_load_explicit(&cpus, memory_order_relaxed), aff;
	cpu_set_t set;
	long on;

	if (n != 0)
		return n;
	on = sysconf(_SC_NPROCESSORS_ONLN);
	aff = on > 0 ? (uint32_t)on : 1;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		aff = (uint32_t)CPU_COUNT(&set);
	/* the cgroup's own files where a container mounts them */
	n = par_cpus_limit(aff, "/sys/fs/cgroup/cpu.max",
	    "/sys/fs/cgroup/cpu/cpu.cfs_quota_us",
	    "/sys/fs/cgroup/cpu/cpu.cfs_period_us");
	atomic_store_explicit(&cpus, n, memory_order_relaxed);
	return n;
}

/* How long a waiting thread spins before it sleeps (a worker) or
 * yields (the caller): at least PAR_SPIN_NS, and for a worker twice the
 * mean gap between rounds that the caller measures (at thousands of
 * cores the serial part between rounds may take longer than 50 us, and
 * a worker woken from sleep starts late and slow), at most
 * PAR_SPIN_MAX_NS, beyond which a wake-up costs little against the gap
 * (doc/performance.md section 23).
 * Counted in pauses, whose cost differs by CPU, so the count is derived
 * from a timing at start-up (par_spins; section 19.2). */
#define PAR_SPIN_NS 50000
#define PAR_SPIN_MAX_NS 2000000

/* A wait for workers' chunks, beyond the time one chunk takes, after
 * which the pool backs off (well below a scheduler's time slice, which
 * is what a preempted worker costs: doc/performance.md section 19.2),
 * and how long a back-off lasts: the first about a time slice, doubling
 * while they keep coming, up to a second. */
#define PAR_WAIT_NS 200000
#define PAR_BACKOFF_MIN_NS 2000000
#define PAR_BACKOFF_MAX_NS 1000000000

typedef void (*par_fn)(void *, uint64_t, uint64_t);

struct par_pool {
	uint32_t		 threads;     /* the caller's included */
	uint32_t		 nworkers;
	pthread_t		 th[PAR_POOL_MAX];
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	_Atomic uint32_t	 sleeping;
	_Atomic uint32_t	 quit;
	_Atomic uint64_t	 round;       /* rounds published */
	/* tag << 32 | next item of the last round (PAR_CLOSED: none
	 * left); the tag is round's low half */
	_Atomic uint64_t	 next;
	_Atomic uint64_t	 done;        /* items done in it */
	_Atomic uint64_t	 n, grain;
	_Atomic(par_fn)		 fn;
	_Atomic(void *)		 arg;
	/* a worker's spin between rounds, in pauses (par_pool_gap) */
	_Atomic int		 wspin;
	/* the caller's: the end of its back-off (0: none) and the next
	 * back-off's length;
	 * its spins (par_spins); whether its workers may spin longer
	 * (no more threads than processors: else a spinning worker takes
	 * the processor the caller's serial part needs); the end of its
	 * last round and the mean gap since (ns, an eighth weighted) */
	int64_t			 alone_until, backoff_ns;
	int			 spin, adapt;
	int64_t			 last_end, gap_ns;
};

static inline void
par_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static int64_t
par_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The pauses that make PAR_SPIN_NS on this CPU: 2,000 timed once. */
static int
par_spins(void)
{
	static _Atomic int spins;
	int n = atomic_load_explicit(&spins, memory_order_relaxed);
	int64_t t0, ns;

	if (n != 0)
		return n;
	t0 = par_now_ns();
	for (int i = 0; i < 2000; i++)
		par_relax();
	ns = par_now_ns() - t0;
	n = (int)(ns > 0 ? (int64_t)PAR_SPIN_NS * 2000 / ns : 100000);
	n = n < 100 ? 100 : n > 1000000 ? 1000000 : n;
	atomic_store_explicit(&spins, n, memory_order_relaxed);
	return n;
}

/* The low half of next once a round has no chunk left. */
#define PAR_CLOSED 0xffffffffu

/* Take and run chunks of round tag until none is left; how many. */
static uint64_t
par_take(struct par_pool *p, uint32_t tag)
{
	uint64_t took = 0;

	for (;;) {
		uint64_t v = atomic_load_explicit(&p->next,
		    memory_order_acquire), lo, hi, n, grain, nv;

		if ((uint32_t)(v >> 32) != tag ||
		    (lo = v & 0xffffffffu) == PAR_CLOSED)
			return took;
		/* this round's, or (a late worker's) a later round's,
		 * whose chunk claim below then fails: the later round's
		 * setup happened after the closing claim */
		n = atomic_load_explicit(&p->n, memory_order_acquire);
		grain = atomic_load_explicit(&p->grain, memory_order_acquire);
		if (lo >= n)
			return took;
		hi = lo + grain < n ? lo + grain : n;
		/* the last chunk closes the round: the counter never rests
		 * at a value that a later round's larger n would reopen */
		nv = (uint64_t)tag << 32 | (hi == n ? PAR_CLOSED : hi);
		if (!atomic_compare_exchange_weak_explicit(&p->next, &v, nv,
		    memory_order_acq_rel, memory_order_relaxed))
			continue;
		/* the chunk is ours: the round lasts until it is done */
		atomic_load_explicit(&p->fn, memory_order_acquire)(
		    atomic_load_explicit(&p->arg, memory_order_acquire), lo, hi);
		atomic_fetch_add_explicit(&p->done, hi - lo,
		    memory_order_release);
		took++;
	}
}

/* The caller's gap before a round that starts at now: the workers'
 * spin follows its mean (gaps beyond PAR_SPIN_MAX_NS count as that, so
 * that a pause of the engine between runs does not keep them spinning). */
static void
par_pool_gap(struct par_pool *p, int64_t now)
{
	int64_t gap, ns;

	if (!p->adapt)
		return;
	if (p->last_end != 0) {
		gap = now - p->last_end;
		if (gap > PAR_SPIN_MAX_NS)
			gap = PAR_SPIN_MAX_NS;
		p->gap_ns += (gap - p->gap_ns) / 8;
	}
	ns = 2 * p->gap_ns;
	ns = ns < PAR_SPIN_NS ? PAR_SPIN_NS : ns > PAR_SPIN_MAX_NS ?
	    PAR_SPIN_MAX_NS : ns;
	atomic_store_explicit(&p->wspin, (int)(ns / 1000 * p->spin /
	    (PAR_SPIN_NS / 1000)), memory_order_relaxed);
}

static void *
par_worker(void *arg)
{
	struct par_pool *p = arg;
	uint64_t seen = 0;

	for (;;) {
		uint64_t r;
		int spins = 0, spin = atomic_load_explicit(&p->wspin,
		    memory_order_relaxed);

		while ((r = atomic_load_explicit(&p->round,
		    memory_order_acquire)) == seen &&
		    !atomic_load_explicit(&p->quit, memory_order_relaxed) &&
		    spins++ < spin)
			par_relax();
		if (r == seen) {
			pthread_mutex_lock(&p->mu);
			atomic_fetch_add(&p->sleeping, 1);
			while ((r = atomic_load(&p->round)) == seen &&
			    !atomic_load(&p->quit))
				pthread_cond_wait(&p->cv, &p->mu);
			atomic_fetch_sub(&p->sleeping, 1);
			pthread_mutex_unlock(&p->mu);
		}
		if (atomic_load(&p->quit))
			return NULL;
		seen = r;
		par_take(p, (uint32_t)r);
	}
}

struct par_pool *
par_pool_new(uint32_t threads)
{
	struct par_pool *p = xcalloc(1, sizeof *p);

	if (threads < 1)
		threads = 1;
	if (threads > PAR_POOL_MAX)
		threads = PAR_POOL_MAX;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	atomic_store(&p->next, PAR_CLOSED);
	p->spin = par_spins();
	atomic_store(&p->wspin, p->spin);
	p->adapt = threads <= par_cpus();
	for (uint32_t i = 0; i + 1 < threads; i++) {
		if (pthread_create(&p->th[p->nworkers], NULL, par_worker,
		    p) != 0)
			break;
		p->nworkers++;
	}
	p->threads = p->nworkers + 1;
	return p;
}

void
par_pool_free(struct par_pool *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	atomic_store(&p->quit, 1);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	for (uint32_t i = 0; i < p->nworkers; i++)
		pthread_join(p->th[i], NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

uint32_t
par_pool_threads(const struct par_pool *p)
{
	return p != NULL ? p->threads : 1;
}

void
par_pool_run(struct par_pool *p, uint64_t n, uint64_t grain,
    void (*fn)(void *arg, uint64_t lo, uint64_t hi), void *arg)
{
	uint32_t tag;
	uint64_t mine;
	int64_t t0;
	int spins = 0;

	if (n == 0)
		return;
	if (grain == 0) {
		/* a few chunks a thread: one slow item delays no one */
		grain = p != NULL ? n / (8 * (uint64_t)p->threads) : n;
		if (grain == 0)
			grain = 1;
	}
	if (p == NULL || p->threads == 1 || grain >= n || n >= PAR_CLOSED) {
		fn(arg, 0, n);
		return;
	}
	if (p->alone_until != 0) {
		if (par_now_ns() < p->alone_until) {
			p->last_end = 0;
			fn(arg, 0, n);
			return;
		}
		p->alone_until = 0;
	}
	par_pool_gap(p, par_now_ns());
	/* next is closed here (every chunk of the last round was
	 * claimed, the last one closing it), so no worker can claim
	 * anything while the round's parameters change; the release
	 * stores let a late worker that reads them see the closing claim
	 * as well (par_take) */
	tag = (uint32_t)(atomic_load_explicit(&p->round,
	    memory_order_relaxed) + 1);
	atomic_store_explicit(&p->n, n, memory_order_release);
	atomic_store_explicit(&p->grain, grain, memory_order_release);
	atomic_store_explicit(&p->fn, fn, memory_order_release);
	atomic_store_explicit(&p->arg, arg, memory_order_release);
	atomic_store_explicit(&p->done, 0, memory_order_relaxed);
	atomic_store_explicit(&p->next, (uint64_t)tag << 32,
	    memory_order_release);
	atomic_fetch_add(&p->round, 1);
	if (atomic_load(&p->sleeping) > 0) {
		pthread_mutex_lock(&p->mu);
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
	t0 = par_now_ns();
	mine = par_take(p, tag);
	/* chunks that workers took */
	if (atomic_load_explicit(&p->done, memory_order_acquire) < n) {
		int64_t t1 = par_now_ns(), ns, chunk;

		while (atomic_load_explicit(&p->done, memory_order_acquire) <
		    n) {
			if (++spins < p->spin)
				par_relax();
			else
				sched_yield();
		}
		ns = par_now_ns() - t1;
		/* a worker's last chunk may end up to a chunk's time after
		 * the caller's, and take up to twice the caller's time (a
		 * processor that slept runs slower at first, its caches
		 * cold): only a wait beyond both says a worker lost its
		 * processor (the caller's chunks tell how long one takes;
		 * with none, the wait alone; section 23) */
		chunk = mine > 0 ? (t1 - t0) / (int64_t)mine : 0;
		ns -= chunk;
		if (ns > PAR_WAIT_NS && ns > chunk) {
			p->backoff_ns = p->backoff_ns < PAR_BACKOFF_MIN_NS ?
			    PAR_BACKOFF_MIN_NS : p->backoff_ns * 2;
			if (p->backoff_ns > PAR_BACKOFF_MAX_NS)
				p->backoff_ns = PAR_BACKOFF_MAX_NS;
			p->alone_until = par_now_ns() + p->backoff_ns;
		} else if (p->backoff_ns > 0)
			p->backoff_ns /= 2;
	}
	if (p->adapt)
		p->last_end = par_now_ns();
}

/* This thread's slot of every struct par_count (PAR_COUNT_SLOTS: none
 * yet): threads take them in turn. */
static _Thread_local uint32_t par_count_slot = PAR_COUNT_SLOTS;

void
par_count_add(struct par_count *c, uint64_t n)
{
	static _Atomic uint32_t taken;

	if (par_count_slot == PAR_COUNT_SLOTS)
		par_count_slot = atomic_fetch_add_explicit(&taken, 1,
		    memory_order_relaxed) % PAR_COUNT_SLOTS;
	atomic_fetch_add_explicit(&c->slot[par_count_slot].n, n,
	    memory_order_relaxed);
}

uint64_t
par_count_sum(const struct par_count *c)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < PAR_COUNT_SLOTS; i++)
		sum += atomic_load_explicit(&c->slot[i].n,
		    memory_order_relaxed);
	return sum;
}
