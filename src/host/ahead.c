/*
 * Run-ahead windows (ahead.h; doc/manycore.md section 4).  Between two
 * steps that touch shared state, a core reads and writes only its
 * registers, its stack and its own console: running those steps early
 * or late changes nothing another core sees.  So within a window of
 * steps each core runs privately (ops->priv) up to its next shared
 * step; the shared ones run one at a time in the reference's order
 * (step, then core id), each followed by that core's next private run.
 * Statuses change only at shared steps, or at a private step whose new
 * status the window keeps back until the reference's order reaches it
 * (AHEAD_STATUS: an ISA core's HALT or BARRIER, a Mic-1 core whose MPC
 * reaches the halt word), so the barrier release at the end of a step
 * sees the reference's statuses.
 *
 * A stop inside the window (a fault under stop_on_fault, a breakpoint)
 * would leave the cores that ran ahead past its step: then the window is
 * undone (registers, the level's side state, stacks and consoles copied
 * at its start, shared words from the undo log) and its steps up to the
 * stop run in lockstep, which stops exactly where the reference does.
 *
 * Stacks are copied only up to a limit per core (lim): a private run
 * treats it as the stack's end, so that its stores stay below it (at a
 * store above it the run stops, and its level either grows the copy and
 * goes on, as the ISA level does, or runs that step as a shared one),
 * and before a shared step the level grows the copy to what that step
 * may store (ahead_grow): nothing stores above the limit, so the words
 * there are still as they were at the window's start.  So a window
 * copies the stacks in use, not the whole regions.
 *
 * Threads (doc/performance.md section 19): private runs touch only
 * their core's registers, stack below its limit, console and side
 * state, and read nothing another core writes in the window before the
 * reference's order reaches their shared step; so they may run at the
 * same time on the pool's threads.  The first private runs of all cores
 * are one parallel pass, which also makes the window's copy, each core's
 * just before its run.  In the loop, a round of step s runs the shared
 * steps of s in core order on the calling thread, then the barrier
 * release, and only then the private runs that follow them, in
 * parallel: a private run after core i's shared step changes nothing
 * that core j's shared step of the same step reads, and nothing that
 * the release reads (a core in a private run stays RUNNING to the
 * others: AHEAD_STATUS), so deferring it to the round's end changes no
 * result.  The undo log and every status decision stay on the calling
 * thread; ahead_grow runs wherever its core's private run or copy does
 * (it touches only that core's copy and limit).  The undo is split by
 * core range over the pool as well.  What stays on the calling thread
 * costs in proportion to the round's cores, not the machine's: the
 * rounds' cores come from a queue, and the barrier's release is looked
 * for only when no core of the window runs.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ahead.h"
#include "ref.h"

void
ahead_free(struct ahead *a)
{
	FREE_ALL(a->t, a->at, a->status, a->scores, a->sstacks, a->lim, a->sout,
	    a->sin, a->sside, a->undo, a->todo, a->qnext, a->qhead, a->qbits,
	    a->cur, a->curbits);
	memset(a, 0, sizeof *a);
}

void
ahead_note(struct ahead *a, int32_t *w, uint32_t n)
{
	if (a->nundo + n > a->capundo) {
		a->capundo = (a->nundo + n) * 2;
		a->undo = xreallocarray(a->undo, a->capundo, sizeof *a->undo);
	}
	for (uint32_t i = 0; i < n; i++) {
		a->undo[a->nundo].word = &w[i];
		a->undo[a->nundo++].old = w[i];
	}
}

void
ahead_grow(struct ahead *a, struct machine *m, uint32_t core, int64_t upto)
{
	const int32_t end = MM_STACK_BASE + (int32_t)m->cfg.stack_words - 1;
	size_t off = (size_t)core * m->cfg.stack_words;
	int32_t from = a->lim[core] + 1;

	if (upto > end)
		upto = end;
	if (upto < from)
		return;
	memcpy(a->sstacks + off + (from - MM_STACK_BASE),
	    m->stacks + off + (from - MM_STACK_BASE),
	    (size_t)(upto - from + 1) * sizeof *m->stacks);
	a->lim[core] = (int32_t)upto;
}

uint32_t ahead_par_items = AHEAD_PAR_ITEMS;

/* A window's pass over its cores, for the pool's threads. */
struct ahead_pass {
	struct ahead		*a;
	struct machine		*m;
	const struct ahead_ops	*ops;
	void			*arg;
	const struct engine_run	*r;
	void			*side;
	size_t			 side_bytes;
	uint64_t		 h;
	int			 back;	/* ahead_copy_part: put back */
};

/* fn over the cores [0, n) on the pool, or here when they are few. */
static void
ahead_par(struct ahead *a, uint64_t n, void (*fn)(void *, uint64_t,
    uint64_t), struct ahead_pass *x)
{
	if (n < (uint64_t)ahead_par_items * par_pool_threads(a->pool))
		fn(x, 0, n);
	else
		par_pool_run(a->pool, n, 0, fn, x);
}

/*
 * The window's copy of cores [lo, hi) and their share of the side state
 * (x->back 0), or the same spans put back (x->back 1): registers and side
 * state both ways, then per core the stack up to its limit (which the
 * copy sets, ahead_grow) and the consoles' positions.
 */
static void
ahead_copy_part(void *xv, uint64_t lo, uint64_t hi)
{
	struct ahead_pass *x = xv;
	struct ahead *a = x->a;
	struct machine *m = x->m;
	uint64_t nc = m->cfg.ncores;
	size_t s0 = (size_t)(x->side_bytes * lo / nc);
	size_t s1 = (size_t)(x->side_bytes * hi / nc);
	struct core *live = m->cores + lo, *copy = a->scores + lo;
	uint8_t *lside = (uint8_t *)x->side + s0, *cside = a->sside + s0;
	int64_t margin = ahead_margin(a);

	memcpy(x->back ? live : copy, x->back ? copy : live,
	    (hi - lo) * sizeof *live);
	if (s1 > s0)
		memcpy(x->back ? lside : cside, x->back ? cside : lside,
		    s1 - s0);
	for (uint64_t i = lo; i < hi; i++) {
		size_t off = (size_t)i * m->cfg.stack_words;
		int32_t top = m->cores[i].sp > m->cores[i].lv ?
		    m->cores[i].sp : m->cores[i].lv;

		if (x->back) {
			memcpy(m->stacks + off, a->sstacks + off,
			    (size_t)(a->lim[i] - MM_STACK_BASE + 1) *
			    sizeof *m->stacks);
			m->io[i].out.len = a->sout[i];
			m->io[i].in_pos = a->sin[i];
			continue;
		}
		a->lim[i] = MM_STACK_BASE - 1;
		ahead_grow(a, m, (uint32_t)i, (int64_t)(top > MM_STACK_BASE ?
		    top : MM_STACK_BASE) + margin);
		a->sout[i] = m->io[i].out.len;
		a->sin[i] = m->io[i].in_pos;
	}
}

/* Fault in, for writing, the pages of [p, p + bytes) without changing
 * a byte: a locked add of 0 to one word per page. */
static void
ahead_touch(void *p, size_t bytes, size_t page)
{
	uintptr_t a = (uintptr_t)p, end = a + bytes;

	if (bytes == 0)
		return;
	for (a -= a % page; a < end; a += page) {
		uintptr_t w = a < (uintptr_t)p ? (uintptr_t)p : a;

		__atomic_fetch_add((uint8_t *)w, 0, __ATOMIC_RELAXED);
	}
}

/*
 * A fresh engine's first window writes pages that nothing has written
 * yet: the copy's (cores, side state, stacks) and the machine's stack
 * pages around each SP.  The kernel takes one lock per page table (2
 * MiB of pages) for each such fault, and the first pass hands out a
 * few cores at a time, so at many cores every thread faulted in the
 * same few tables at once and the faults ran one by one
 * (doc/performance.md section 19.4).  So before it, each thread faults
 * in the pages of one contiguous part of the cores, which lie in page
 * tables of their own.  Part i of n: cores [nc * i / n, nc * (i + 1) / n).
 */
static void
ahead_touch_part(void *xv, uint64_t lo, uint64_t hi)
{
	struct ahead_pass *x = xv;
	struct ahead *a = x->a;
	struct machine *m = x->m;
	uint64_t nc = m->cfg.ncores, n = par_pool_threads(a->pool);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int64_t margin = ahead_margin(a);

	for (uint64_t part = lo; part < hi; part++) {
		uint64_t c0 = nc * part / n, c1 = nc * (part + 1) / n;
		size_t s0 = (size_t)(x->side_bytes * c0 / nc);
		size_t s1 = (size_t)(x->side_bytes * c1 / nc);

		ahead_touch(a->scores + c0, (c1 - c0) * sizeof *a->scores,
		    page);
		if (s1 > s0)
			ahead_touch(a->sside + s0, s1 - s0, page);
		for (uint64_t i = c0; i < c1; i++) {
			size_t off = (size_t)i * m->cfg.stack_words;
			int32_t top = m->cores[i].sp > m->cores[i].lv ?
			    m->cores[i].sp : m->cores[i].lv;
			int64_t words = (int64_t)(top > MM_STACK_BASE ? top :
			    MM_STACK_BASE) + margin - MM_STACK_BASE + 1;

			if (words > (int64_t)m->cfg.stack_words)
				words = m->cfg.stack_words;
			ahead_touch(m->stacks + off, (size_t)words *
			    sizeof *m->stacks, page);
			ahead_touch(a->sstacks + off, (size_t)words *
			    sizeof *a->sstacks, page);
		}
	}
}

/* Bytes of a core that a round touches (AHEAD_AHEAD): its registers,
 * the line at its stack's top, its entries in the window's own arrays. */
#define AHEAD_CORE_BYTES (sizeof(struct core) + 64 + 16)

/* Make ready to copy what a window may change, to undo it: the copy
 * itself is core by core, in the first pass (ahead_first_part). */
static void
ahead_snap(struct ahead *a, struct ahead_pass *x)
{
	struct machine *m = x->m;
	uint32_t nc = m->cfg.ncores;
	long l2;

	if (a->t == NULL) {	/* only engines that run ahead pay */
		a->ncores = nc;
		a->t = xcalloc(nc, sizeof *a->t);
		a->at = xcalloc(nc, 1);
		a->status = xcalloc(nc, 1);
		a->scores = xcalloc(nc, sizeof *a->scores);
		a->sstacks = xcalloc((size_t)nc * m->cfg.stack_words,
		    sizeof *a->sstacks);
		a->lim = xcalloc(nc, sizeof *a->lim);
		a->sout = xcalloc(nc, sizeof *a->sout);
		a->sin = xcalloc(nc, sizeof *a->sin);
		a->todo = xcalloc(nc, sizeof *a->todo);
		a->qnext = xcalloc(nc, sizeof *a->qnext);
		a->qhead = xcalloc(AHEAD_QB, sizeof *a->qhead);
		a->qbits = xcalloc(AHEAD_QB / 64, sizeof *a->qbits);
		a->cur = xcalloc(nc, sizeof *a->cur);
		a->curbits = xcalloc(((size_t)nc + 63) / 64,
		    sizeof *a->curbits);
		if (x->side_bytes > 0)
			a->sside = xmalloc(x->side_bytes);
		l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
		a->prefetch = l2 <= 0 ||
		    (uint64_t)nc * AHEAD_CORE_BYTES > (uint64_t)l2;
		if (par_pool_threads(a->pool) > 1 &&
		    nc >= (uint64_t)ahead_par_items * par_pool_threads(a->pool))
			par_pool_run(a->pool, par_pool_threads(a->pool), 1,
			    ahead_touch_part, x);
	}
	x->back = 0;
	a->sheap_top = m->heap_top;
	a->nundo = 0;
}

static void
ahead_undo(struct ahead *a, struct ahead_pass *x)
{
	struct machine *m = x->m;

	x->back = 1;
	ahead_par(a, m->cfg.ncores, ahead_copy_part, x);
	m->heap_top = a->sheap_top;
	while (a->nundo > 0) {
		a->nundo--;
		*a->undo[a->nundo].word = a->undo[a->nundo].old;
	}
}

/* Why a core stands where it does in a window (struct ahead.at). */
enum { AT_IDLE, AT_END, AT_SYNC, AT_BP, AT_STATUS };

/* Run core privately up to its next shared step or the window's end h. */
static void
ahead_core(struct ahead *a, struct machine *m, const struct ahead_ops *ops,
    void *arg, uint32_t core, uint64_t h, int first)
{
	enum ahead_ev ev = AHEAD_END;

	if (a->t[core] < h)
		a->t[core] += ops->priv(arg, core, h - a->t[core], first, &ev);
	switch (ev) {
	case AHEAD_STATUS:
		/* the reference's order sets it (ahead_window) */
		a->status[core] = m->cores[core].status;
		m->cores[core].status = CORE_RUNNING;
		a->at[core] = AT_STATUS;
		break;
	case AHEAD_BP:
		a->at[core] = a->t[core] >= h ? AT_END : AT_BP;
		break;
	default:
		a->at[core] = a->t[core] >= h ? AT_END : AT_SYNC;
		break;
	}
}

/* The step at which core's next event in the window comes. */
static uint64_t
ahead_when(const struct ahead *a, uint32_t core)
{
	return a->at[core] == AT_STATUS ? a->t[core] - 1 : a->t[core];
}

/* Cores copied and then run at a time by ahead_first_part: their stacks
 * and registers (about 40 KiB at 128 stack words) stay in the caches
 * from the copy to the run. */
#define AHEAD_FIRST_BLOCK 64

/*
 * The window's copy of cores [lo, hi), then their first private runs,
 * a block of cores at a time.  Until the first shared step a core's
 * private run changes only its own state (the top of the file), so
 * copying each core's part just before it runs copies what a copy of
 * all cores before any run would: one pass over the cores' memory
 * instead of two, on the same thread and while that memory is in its
 * caches (copying a whole part first, one thread's part being every
 * core, made each run miss on what the copy had loaded:
 * doc/performance.md 24.10).
 */
static void
ahead_first_part(void *xv, uint64_t lo, uint64_t hi)
{
	struct ahead_pass *x = xv;
	struct ahead *a = x->a;
	struct machine *m = x->m;

	for (uint64_t b = lo, e; b < hi; b = e) {
		e = hi - b > AHEAD_FIRST_BLOCK ? b + AHEAD_FIRST_BLOCK : hi;
		ahead_copy_part(x, b, e);
		for (uint64_t i = b; i < e; i++) {
			a->t[i] = 0;
			a->at[i] = AT_IDLE;
			if (m->cores[i].status == CORE_RUNNING &&
			    (x->r->mask == NULL || x->r->mask[i]))
				ahead_core(a, m, x->ops, x->arg, (uint32_t)i,
				    x->h, 1);
		}
	}
}

/*
 * How far the loops over a round's cores look ahead.  At many cores the
 * registers and stacks of a round's cores are not in any cache: each
 * core's shared step or private run begins with a load of its registers,
 * then of its stack's top, that waits for memory, one core after the
 * other.  So the loops ask for both a few cores early: the registers
 * 2 x AHEAD_AHEAD cores ahead, the line at SP AHEAD_AHEAD ahead (by then
 * the registers that say where it is have arrived).  Where those lines
 * of every core fit in a processor's own cache (its L2), they are there
 * already and the requests only cost: ahead_snap decides once per engine
 * (doc/performance.md 24.14).
 */
#define AHEAD_AHEAD 8

/* Ask for what core k of list (of n) will need: see AHEAD_AHEAD.
 * Always inlined: GCC finds a function whose only effect is a prefetch
 * free of side effects and deletes its calls, prefetches and all. */
static inline __attribute__((always_inline)) void
ahead_prefetch(const struct ahead *a, const struct machine *m,
    const uint32_t *list, uint64_t k, uint64_t n)
{
	if (!a->prefetch)
		return;
	if (k + 2 * AHEAD_AHEAD < n)
		__builtin_prefetch(&m->cores[list[k + 2 * AHEAD_AHEAD]], 1);
	if (k + AHEAD_AHEAD < n) {
		uint32_t i = list[k + AHEAD_AHEAD];
		uint32_t w = (uint32_t)m->cores[i].sp -
		    (uint32_t)MM_STACK_BASE;

		if (w < m->cfg.stack_words)
			__builtin_prefetch(m->stacks + (size_t)i *
			    m->cfg.stack_words + w, 1);
	}
}

/* The deferred private runs todo[lo .. hi). */
static void
ahead_todo_part(void *xv, uint64_t lo, uint64_t hi)
{
	struct ahead_pass *x = xv;

	for (uint64_t k = lo; k < hi; k++) {
		ahead_prefetch(x->a, x->m, x->a->todo, k, hi);
		ahead_core(x->a, x->m, x->ops, x->arg, x->a->todo[k], x->h,
		    0);
	}
}

/* No core: the end of a queue list. */
#define AHEAD_NIL UINT32_MAX

/* Queue core for its event at step ahead_when. */
static void
ahead_push(struct ahead *a, uint32_t core)
{
	uint32_t b = (uint32_t)(ahead_when(a, core) & (AHEAD_QB - 1));

	a->qnext[core] = a->qhead[b];
	a->qhead[b] = core;
	a->qbits[b / 64] |= (uint64_t)1 << (b % 64);
	a->nq++;
}

/* The first list at or after list b (circularly) that holds a core;
 * the queue is not empty. */
static uint32_t
ahead_next_list(const struct ahead *a, uint32_t b)
{
	uint32_t w = b / 64;
	uint64_t bits = a->qbits[w] & (~(uint64_t)0 << (b % 64));

	while (bits == 0) {
		w = (w + 1) % (AHEAD_QB / 64);
		bits = a->qbits[w];
	}
	return w * 64 + (uint32_t)__builtin_ctzll(bits);
}

/*
 * The cores whose event comes at the first step at or after *s that has
 * one, taken off the queue into a->cur in core order; sets *s to that
 * step and returns how many.  The queue is not empty, and no core in it
 * waits for a step before *s.  A list holds the cores of its steps
 * modulo AHEAD_QB: those of later laps stay in it.
 */
static uint32_t
ahead_take(struct ahead *a, uint64_t *s)
{
	uint32_t k = 0, lo = UINT32_MAX, hi = 0;

	for (;;) {
		uint32_t b0 = (uint32_t)(*s & (AHEAD_QB - 1));
		uint32_t b = ahead_next_list(a, b0), i, keep = AHEAD_NIL;

		*s += (b - b0) & (AHEAD_QB - 1);
		for (i = a->qhead[b]; i != AHEAD_NIL; ) {
			uint32_t nx = a->qnext[i];

			if (ahead_when(a, i) == *s) {
				a->cur[k++] = i;
				lo = i < lo ? i : lo;
				hi = i > hi ? i : hi;
			} else {
				a->qnext[i] = keep;
				keep = i;
			}
			i = nx;
		}
		a->qhead[b] = keep;
		if (keep == AHEAD_NIL)
			a->qbits[b / 64] &= ~((uint64_t)1 << (b % 64));
		if (k > 0)
			break;
		++*s;
	}
	a->nq -= k;
	/* core order: few by insertion, many by a bit per core */
	if (k <= 32) {
		for (uint32_t j = 1; j < k; j++) {
			uint32_t v = a->cur[j], l = j;

			for (; l > 0 && a->cur[l - 1] > v; l--)
				a->cur[l] = a->cur[l - 1];
			a->cur[l] = v;
		}
	} else {
		uint32_t n = 0;

		for (uint32_t j = 0; j < k; j++)
			a->curbits[a->cur[j] / 64] |=
			    (uint64_t)1 << (a->cur[j] % 64);
		for (uint32_t w = lo / 64; w <= hi / 64; w++) {
			uint64_t bits = a->curbits[w];

			a->curbits[w] = 0;
			while (bits != 0) {
				a->cur[n++] = w * 64 +
				    (uint32_t)__builtin_ctzll(bits);
				bits &= bits - 1;
			}
		}
	}
	return k;
}

uint64_t
ahead_window(struct ahead *a, struct machine *m, const struct engine_run *r,
    const struct ahead_ops *ops, void *arg, void *side, size_t side_bytes,
    uint64_t h, uint64_t *stop_at)
{
	struct ahead_pass x = { a, m, ops, arg, r, side, side_bytes, h, 0 };
	uint32_t nc = m->cfg.ncores, live = 0;
	uint64_t s = 0;

	a->h = h;
	ahead_snap(a, &x);
	ahead_par(a, nc, ahead_first_part, &x);
	/* the queue, emptied by the last window's end or undo */
	memset(a->qhead, 0xff, AHEAD_QB * sizeof *a->qhead);
	memset(a->qbits, 0, AHEAD_QB / 64 * sizeof *a->qbits);
	a->nq = 0;
	for (uint32_t i = nc; i-- > 0; ) {
		live += a->at[i] != AT_IDLE;
		if (a->at[i] >= AT_SYNC)
			ahead_push(a, i);
	}
	for (;;) {
		uint32_t k;
		int changed = 0;

		if (a->nq == 0)
			return h;
		k = ahead_take(a, &s);
		a->ntodo = 0;
		for (uint32_t j = 0; j < k; j++) {
			uint32_t i = a->cur[j];
			struct core *c = &m->cores[i];

			ahead_prefetch(a, m, a->cur, j, k);

			if (a->at[i] == AT_BP)
				goto undo;
			if (a->at[i] == AT_STATUS)
				c->status = a->status[i];
			else
				ops->shared(arg, i);
			if (c->status != CORE_RUNNING) {
				a->at[i] = AT_IDLE;
				live--;
				changed = 1;
				if (c->status == CORE_ERROR && r->stop_on_fault)
					goto undo;
				continue;
			}
			/* its private run waits for the round's end */
			a->t[i] = s + 1;
			a->at[i] = AT_END;
			a->todo[a->ntodo++] = i;
		}
		/* the end of step s: the barrier may let the waiting go,
		 * but not while a core of the window runs (live counts them;
		 * looking at every core each round that stopped one would
		 * make the rounds cost in proportion to the machine) */
		if (changed && live == 0 && ref_barrier_release(m)) {
			for (uint32_t i = 0; i < nc; i++)
				if (a->at[i] == AT_IDLE &&
				    m->cores[i].status == CORE_RUNNING &&
				    (r->mask == NULL || r->mask[i])) {
					a->t[i] = s + 1;
					a->at[i] = AT_END;
					a->todo[a->ntodo++] = i;
					live++;
				}
		}
		ahead_par(a, a->ntodo, ahead_todo_part, &x);
		for (uint32_t j = 0; j < a->ntodo; j++)
			if (a->at[a->todo[j]] >= AT_SYNC)
				ahead_push(a, a->todo[j]);
		s++;
		if (changed && live == 0)
			return s;	/* none runs: nobody is ahead */
		continue;
undo:
		ahead_undo(a, &x);
		*stop_at = s + 1;
		return 0;
	}
}
