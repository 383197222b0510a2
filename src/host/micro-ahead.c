/*
 * Run-ahead windows of the micro levels' native engines (ahead.c's
 * window; doc/manycore.md section 4, doc/performance.md section 18):
 * engine-micro.c calls micro_ahead when more than one core runs and the
 * machine is not fork-join.  A step is one micro-cycle of each core.
 *
 * A cycle is private when it touches only its core's registers and
 * latches, its own stack, the method area (a FETCH) and the constant
 * pool (a READ of it: both are read-only to every core): the
 * level's fast loop runs those (micro_fast.ahead) and stops before any
 * other.  Shared cycles are the ones that reach memory another core
 * may see at that very cycle: at the Mic-1 level the cycle in which a
 * READ of a global or heap word completes (mic1.c reads the word in
 * the cycle after the issue; issuing only checks the address against
 * the map, which no core changes) and a WRITE of one (stored in the
 * issuing cycle); at the PMIC level a READ or WRITE of one (both done in
 * the issuing cycle, pmic-sim.c); at both, every cycle the golden model
 * runs (devices: console, allocation, atomic add, barrier, halt and
 * error words; faults).  A Mic-1 core whose MPC reaches the halt word
 * halts in a private cycle: the window keeps that status back until
 * the reference's order reaches the cycle (AHEAD_STATUS).
 *
 * Before a shared cycle, the level's model names the words its WRITE
 * may change (micro_model.next_store: the word, the atomic add's word,
 * an allocation's words): the core's stack words grow the window's
 * copy, others go to the undo log.  The cores' side state (latches,
 * memory operations in flight) is copied and undone with the cores.
 *
 * Private runs may run on several threads at once (ahead.c): the fast
 * loop's private run writes only its core's struct core, its entry of
 * the level's state (st->core[core]) and its stack below pw; it reads
 * the decoded store, which a run does not change, and the watch record,
 * empty during a window; micro_ahead_run is read-only to it.  Where the
 * level's store is translated into host code (mic1-jit.h, pmic-jit.h),
 * the private run runs in that code as well, which the engine built
 * (Mic-1: when it decoded the store; PMIC: micro_fast.prepare, which
 * micro_ahead calls before each window) and patches for breakpoints
 * only between runs, on the calling thread; each entry into the code
 * adds its cycles to the translation's count, a slot per thread
 * (par_count, par.h; doc/performance.md sections 24.8 to 24.10).
 */
#include <stdint.h>

#include "ahead.h"
#include "micro-fast.h"
#include "micro-sim.h"

struct micro_ahead_run {
	struct engine		*e;
	struct ahead		*a;
	const struct micro_model *md;
	void			*st;
	const struct micro_fast	*mf;
	void			*fx;
	const struct engine_run	*r;
};

static uint64_t
micro_priv(void *arg, uint32_t core, uint64_t budget, int first,
    enum ahead_ev *ev)
{
	struct micro_ahead_run *x = arg;
	int32_t lim = x->a->lim[core];
	uint32_t pw = lim < MM_STACK_BASE ? 0 :
	    (uint32_t)(lim - MM_STACK_BASE + 1);
	enum micro_fast_ev mev;
	uint64_t k;

	k = x->mf->ahead(x->e, x->fx, x->st, x->r, core, budget, first, pw,
	    &mev);
	switch (mev) {
	case MF_EV_SYNC:	*ev = AHEAD_SYNC; break;
	case MF_EV_BP:		*ev = AHEAD_BP; break;
	case MF_EV_STATUS:	*ev = AHEAD_STATUS; break;
	default:		*ev = AHEAD_END; break;
	}
	return k;
}

static void
micro_shared(void *arg, uint32_t core)
{
	struct micro_ahead_run *x = arg;
	struct machine *m = x->e->m;
	const int32_t *stack = machine_stack_word(m, core, MM_STACK_BASE);
	enum micro_fast_ev ev;
	int32_t *w;
	uint32_t n;

	w = x->md->next_store(x->st, m, core, &n);
	if (n > 0) {
		uintptr_t off = (uintptr_t)w - (uintptr_t)stack;

		if (off < (uintptr_t)m->cfg.stack_words * sizeof *stack)
			ahead_grow(x->a, m, core, MM_STACK_BASE +
			    (int64_t)(off / sizeof *stack) + n - 1);
		else
			ahead_note(x->a, w, n);
	}
	/* its breakpoints were asked where the private run stopped */
	x->mf->exec(x->e, x->fx, x->st, x->r, core, 1, 1, &ev);
}

static const struct ahead_ops micro_ahead_ops = {
	.priv = micro_priv,
	.shared = micro_shared,
};

uint64_t
micro_ahead(struct engine *e, struct ahead *a, const struct micro_model *md,
    void *st, const struct micro_fast *mf, void *fx,
    const struct engine_run *r, uint64_t h, uint64_t *stop_at)
{
	struct micro_ahead_run x = { e, a, md, st, mf, fx, r };
	size_t bytes;
	void *side = md->side(st, &bytes);

	if (mf->prepare != NULL)
		mf->prepare(fx);

	return ahead_window(a, e->m, r, &micro_ahead_ops, &x, side, bytes, h,
	    stop_at);
}
