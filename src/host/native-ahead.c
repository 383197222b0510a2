/*
 * Run-ahead windows of the native ISA engine (doc/manycore.md section 4;
 * engine-native.c calls nat_ahead when more than one core runs and
 * nothing is watched): the window itself is ahead.c's; here, the ISA
 * level's part.  A private run is nat_exec over pcode, where every
 * instruction that touches shared state (globals, the heap, the golden
 * model's) is SYNC, HALT and BARRIER end it with their core's new status
 * for the window to apply in order (AHEAD_STATUS), and a store above the
 * window's stack copy stops it
 * (most of it in the program's translation, native-jit.h, which nat_ahead
 * builds before the window's private runs start); the private run then
 * grows its copy and goes on (nat_grow_private).  Before a shared
 * instruction, the stack copy grows to what it may store
 * and the shared words it may write go to the undo log (nat_undo_note).
 *
 * Private runs may run on several threads at once (ahead.c): nat_exec
 * with priv writes only its core's registers, stack, console, step count
 * and frame cache (struct native's floor, nlocals and fvalid, one entry
 * per core), and nat_grow_private only its core's stack copy and limit;
 * the run's record it reads (n->r, the watch flags) does not
 * change during a window, and a window runs only when nothing is
 * watched, so no writer list grows in one.
 */
#include <string.h>

#include "ahead.h"
#include "engine.h"
#include "ijvm.h"
#include "native-int.h"
#include "ref.h"

/* Before core's shared instruction: note the shared words it may write. */
static void
nat_undo_note(struct native *n, struct machine *m, uint32_t core)
{
	const struct core *c = &m->cores[core];
	const struct program *p = m->progs[c->prog];
	const int32_t end = MM_STACK_BASE + (int32_t)m->cfg.stack_words - 1;
	int32_t *w = NULL, addr, below;
	uint32_t nw = 0;

	if (c->pc < 0 || (uint32_t)c->pc >= p->text_size)
		return;
	switch (p->text[c->pc]) {
	case OP_PUTSTATIC:
	case OP_ATOMICADD:
		if ((uint32_t)c->pc + 2 >= p->text_size)
			return;
		w = &m->globals[get_be16(p->text + c->pc + 1)];
		nw = 1;
		break;
	case OP_IASTORE:
		if (c->sp - 1 < MM_STACK_BASE || c->sp - 1 > end)
			return;
		below = *machine_stack_word(m, core, c->sp - 1);
		if (machine_array_elem(m, c->tos, below, &addr) != FAULT_NONE)
			return;
		w = &m->heap[addr - MM_HEAP_BASE];
		nw = 1;
		break;
	case OP_NEWARRAY:
		/* the header and the zeroed elements above heap_top */
		if (c->tos < 0)
			return;
		w = &m->heap[m->heap_top];
		nw = m->cfg.heap_words - m->heap_top;
		if ((uint64_t)c->tos + MM_ARRAY_HDR < nw)
			nw = (uint32_t)c->tos + MM_ARRAY_HDR;
		break;
	default:
		return;
	}
	ahead_note(&n->ahead, w, nw);
}

/*
 * The stack words a window copies above each core's SP or LV.  A private
 * run that would store above its copy grows the copy itself
 * (nat_grow_private), so the copy need not hold every push of a long
 * window, only what most programs use: a window's copy is paid for every
 * core, and micdb run's windows at many cores are short (a thousand
 * steps or so), so it is kept to the words likely to change
 * (doc/performance.md section 24.13 has the figures).
 */
#define NAT_AHEAD_MARGIN 32

/*
 * A private run stopped at core's next instruction, a private one, whose
 * store would pass the window's copy of its stack: grow the copy to hold
 * it and NAT_AHEAD_MARGIN words more.  Returns 1 to go on, 0 when the
 * store is within the copy (the stop was a shared instruction, or a
 * fault: a second stop at the same place, after one growth, lands here)
 * or the copy cannot reach it (the region's end).  Looks at the decoded
 * handler (real), not at a breakpoint patched over it.
 */
static int
nat_grow_private(struct engine *e, uint32_t core)
{
	struct native *n = e->impl;
	const struct core *c = &e->m->cores[core];
	const struct nat_prog *np = &n->progs[c->prog];
	const struct nat_insn *in;
	int64_t need, lim = n->ahead.lim[core];

	if (c->pc < 0 || (uint32_t)c->pc >= np->size)
		return 0;
	in = &np->pcode[c->pc];
	if (in->real == H_SYNC)
		return 0;
	/* its highest store: a push, or a call's frame and link words */
	need = (int64_t)c->sp + 1;
	if (in->real == H_INVOKE)
		need = (int64_t)c->sp + ((uint32_t)in->b >> 16) + 2;
	if (need <= lim)
		return 0;
	ahead_grow(&n->ahead, e->m, core, need + NAT_AHEAD_MARGIN);
	return n->ahead.lim[core] >= need;
}

static uint64_t
nat_priv(void *arg, uint32_t core, uint64_t budget, int first,
    enum ahead_ev *ev)
{
	enum nat_ev nev;
	struct engine *e = arg;
	struct native *n = e->impl;
	uint64_t k = 0;

	for (;;) {
		k += n->exec(e, core, budget - k, first, &nev, 1);
		if (k >= budget || nev != EV_SYNC || !nat_grow_private(e, core))
			break;
		first = 1;	/* where it stopped: its breakpoints were asked */
	}
	/* a HALT or BARRIER ran (EV_STATUS): its status waits for the
	 * reference's order (ahead.h, AHEAD_STATUS) */
	*ev = nev == EV_STATUS ? AHEAD_STATUS : k >= budget ? AHEAD_END :
	    nev == EV_BP ? AHEAD_BP : AHEAD_SYNC;
	return k;
}

static void
nat_shared(void *arg, uint32_t core)
{
	struct engine *e = arg;
	struct native *n = e->impl;
	struct machine *m = e->m;
	const struct core *c = &m->cores[core];
	enum nat_ev ev;

	/* what it may store on its stack: one word above SP, or a call's
	 * frame; and room for the private steps after it */
	ahead_grow(&n->ahead, m, core, c->pc >= 0 && (uint32_t)c->pc <
	    m->progs[c->prog]->text_size &&
	    m->progs[c->prog]->text[c->pc] == OP_INVOKEVIRTUAL ?
	    INT32_MAX : (int64_t)c->sp + ahead_margin(&n->ahead));
	nat_undo_note(n, m, core);
	n->exec(e, core, 1, 1, &ev, 0);
}

static const struct ahead_ops nat_ahead_ops = {
	.priv = nat_priv,
	.shared = nat_shared,
};

uint64_t
nat_ahead(struct engine *e, const struct engine_run *r, uint64_t h,
    uint64_t *stop_at)
{
	struct native *n = e->impl;
	uint64_t k;

	n->ahead.pool = n->pool;
	n->ahead.margin = NAT_AHEAD_MARGIN;
	/* the private runs run translated (native-jit.h): built here,
	 * before they start on the pool's threads */
	for (size_t i = 0; i < e->m->nprogs; i++)
		nat_jit_ready(&n->progs[i], e->m->progs[i]->main_nlocals,
		    e->m->cfg.stack_words);
	k = ahead_window(&n->ahead, e->m, r, &nat_ahead_ops, e, NULL, 0, h,
	    stop_at);

	if (k == 0)	/* undone: the frames nat_exec left are gone */
		memset(n->fvalid, 0, e->m->cfg.ncores);
	return k;
}
