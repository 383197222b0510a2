/*
 * Run-ahead windows of the native ISA engine (doc/manycore.md section 4;
 * engine-native.c calls nat_ahead when more than one core runs and
 * nothing is watched).  Between two instructions that touch shared
 * state, a core reads and writes only its registers, its stack and its
 * own console: running those instructions early or late changes nothing
 * another core sees.  So within a window
 * of steps each core runs privately (pcode) up to its next shared
 * instruction; the shared ones run one at a time in the reference's
 * order (step, then core id), each followed by that core's next private
 * run.  Statuses change only at shared instructions, so the barrier
 * release at the end of a step sees the reference's statuses.
 *
 * A stop inside the window (a fault under stop_on_fault, a breakpoint)
 * would leave the cores that ran ahead past its step: then the window is
 * undone (registers, stacks and consoles copied at its start, shared
 * words from the undo log) and its steps up to the stop run in lockstep,
 * which stops exactly where the reference does.
 */
#include <stdlib.h>
#include <string.h>

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
	if (n->nundo + nw > n->capundo) {
		n->capundo = (n->nundo + nw) * 2;
		n->undo = xreallocarray(n->undo, n->capundo, sizeof *n->undo);
	}
	for (uint32_t i = 0; i < nw; i++) {
		n->undo[n->nundo].word = &w[i];
		n->undo[n->nundo++].old = w[i];
	}
}

/*
 * Stacks are copied only up to a limit per core (lim): a private run
 * treats it as the stack's end, so that its stores stay below it (a push
 * or call above it stops the run: a shared instruction, nat_exec's slow
 * path), and before core's shared instruction the copy grows to what
 * that instruction may store (nat_snap_grow): words above the limit are
 * still as they were at the window's start.  So a window copies the
 * stacks in use, not the whole regions.
 */
/* Grow core's copy to the word upto (clamped to its region). */
static void
nat_snap_grow(struct native *n, struct machine *m, uint32_t core,
    int64_t upto)
{
	const int32_t end = MM_STACK_BASE + (int32_t)m->cfg.stack_words - 1;
	size_t off = (size_t)core * m->cfg.stack_words;
	int32_t from = n->lim[core] + 1;

	if (upto > end)
		upto = end;
	if (upto < from)
		return;
	memcpy(n->sstacks + off + (from - MM_STACK_BASE),
	    m->stacks + off + (from - MM_STACK_BASE),
	    (size_t)(upto - from + 1) * sizeof *m->stacks);
	n->lim[core] = (int32_t)upto;
}

/* Copy what a window may change, to undo it. */
static void
nat_snap(struct native *n, struct machine *m)
{
	uint32_t nc = m->cfg.ncores;

	if (n->sstacks == NULL)	/* only engines that run ahead pay */
		n->sstacks = xcalloc((size_t)nc * m->cfg.stack_words,
		    sizeof *n->sstacks);
	memcpy(n->scores, m->cores, nc * sizeof *m->cores);
	for (uint32_t i = 0; i < nc; i++) {
		int32_t top = m->cores[i].sp > m->cores[i].lv ?
		    m->cores[i].sp : m->cores[i].lv;

		n->lim[i] = MM_STACK_BASE - 1;
		nat_snap_grow(n, m, i, (int64_t)(top > MM_STACK_BASE ? top :
		    MM_STACK_BASE) + NAT_STACK_MARGIN);
	}
	for (uint32_t i = 0; i < nc; i++) {
		n->sout[i] = m->io[i].out.len;
		n->sin[i] = m->io[i].in_pos;
	}
	n->sheap_top = m->heap_top;
	n->nundo = 0;
}

static void
nat_undo(struct native *n, struct machine *m)
{
	uint32_t nc = m->cfg.ncores;

	memcpy(m->cores, n->scores, nc * sizeof *m->cores);
	for (uint32_t i = 0; i < nc; i++) {
		size_t off = (size_t)i * m->cfg.stack_words;

		memcpy(m->stacks + off, n->sstacks + off,
		    (size_t)(n->lim[i] - MM_STACK_BASE + 1) *
		    sizeof *m->stacks);
		m->io[i].out.len = n->sout[i];
		m->io[i].in_pos = n->sin[i];
	}
	m->heap_top = n->sheap_top;
	while (n->nundo > 0) {
		n->nundo--;
		*n->undo[n->nundo].word = n->undo[n->nundo].old;
	}
	memset(n->fvalid, 0, nc);
}

/* Why a core stands where it does in a window (struct native.at). */
enum { AT_IDLE, AT_END, AT_SYNC, AT_BP };

/* Run core privately up to its next shared instruction or the window's
 * end h. */
static void
nat_ahead_core(struct engine *e, uint32_t core, uint64_t h, int first)
{
	struct native *n = e->impl;
	enum nat_ev ev;

	if (n->t[core] < h)
		n->t[core] += nat_exec(e, core, h - n->t[core], first, &ev,
		    1);
	if (n->t[core] >= h)
		n->at[core] = AT_END;
	else
		n->at[core] = ev == EV_BP ? AT_BP : AT_SYNC;
}

/*
 * One window of at most h steps from a step boundary, where breakpoints
 * were checked already.  Returns the steps it ran (all cores are at
 * that cut), or 0 after undoing it: *stop_at steps from its start, in
 * lockstep, reach the stop the reference makes.
 */
uint64_t
nat_ahead(struct engine *e, const struct engine_run *r, uint64_t h,
    uint64_t *stop_at)
{
	struct native *n = e->impl;
	struct machine *m = e->m;
	uint32_t nc = m->cfg.ncores;

	nat_snap(n, m);
	for (uint32_t i = 0; i < nc; i++) {
		n->t[i] = 0;
		n->at[i] = AT_IDLE;
		if (m->cores[i].status == CORE_RUNNING &&
		    (r->mask == NULL || r->mask[i]))
			nat_ahead_core(e, i, h, 1);
	}
	for (;;) {
		uint64_t s = h;
		int changed = 0, live = 0;

		for (uint32_t i = 0; i < nc; i++)
			if ((n->at[i] == AT_SYNC || n->at[i] == AT_BP) &&
			    n->t[i] < s)
				s = n->t[i];
		if (s == h)
			return h;
		for (uint32_t i = 0; i < nc; i++) {
			struct core *c = &m->cores[i];
			enum nat_ev ev;

			if (n->at[i] == AT_IDLE || n->at[i] == AT_END ||
			    n->t[i] != s)
				continue;
			if (n->at[i] == AT_BP)
				goto undo;
			/* what it may store on its stack: one word above
			 * SP, or a call's frame */
			nat_snap_grow(n, m, i, c->pc >= 0 && (uint32_t)c->pc <
			    m->progs[c->prog]->text_size &&
			    m->progs[c->prog]->text[c->pc] == OP_INVOKEVIRTUAL ?
			    INT32_MAX : (int64_t)c->sp + NAT_STACK_MARGIN);
			nat_undo_note(n, m, i);
			nat_exec(e, i, 1, 1, &ev, 0);
			if (c->status != CORE_RUNNING) {
				n->at[i] = AT_IDLE;
				changed = 1;
				if (c->status == CORE_ERROR && r->stop_on_fault)
					goto undo;
				continue;
			}
			n->t[i] = s + 1;
			nat_ahead_core(e, i, h, 0);
		}
		if (!changed)
			continue;
		/* the end of step s: the barrier may let the waiting go */
		if (ref_barrier_release(m)) {
			for (uint32_t i = 0; i < nc; i++)
				if (n->at[i] == AT_IDLE &&
				    m->cores[i].status == CORE_RUNNING &&
				    (r->mask == NULL || r->mask[i])) {
					n->t[i] = s + 1;
					nat_ahead_core(e, i, h, 0);
				}
		}
		for (uint32_t i = 0; i < nc && !live; i++)
			live = n->at[i] != AT_IDLE;
		if (!live)
			return s + 1;	/* none runs: nobody is ahead */
		continue;
undo:
		nat_undo(n, m);
		*stop_at = s + 1;
		return 0;
	}
}

