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
 * (AHEAD_STATUS: a Mic-1 core whose MPC reaches the halt word), so the
 * barrier release at the end of a step sees the reference's statuses.
 *
 * A stop inside the window (a fault under stop_on_fault, a breakpoint)
 * would leave the cores that ran ahead past its step: then the window is
 * undone (registers, the level's side state, stacks and consoles copied
 * at its start, shared words from the undo log) and its steps up to the
 * stop run in lockstep, which stops exactly where the reference does.
 *
 * Stacks are copied only up to a limit per core (lim): a private run
 * treats it as the stack's end, so that its stores stay below it (a
 * store above it is a shared step), and before a shared step the level
 * grows the copy to what that step may store (ahead_grow): words above
 * the limit are still as they were at the window's start.  So a window
 * copies the stacks in use, not the whole regions.
 */
#include <stdlib.h>
#include <string.h>

#include "ahead.h"
#include "ref.h"

void
ahead_free(struct ahead *a)
{
	free(a->t);
	free(a->at);
	free(a->status);
	free(a->scores);
	free(a->sstacks);
	free(a->lim);
	free(a->sout);
	free(a->sin);
	free(a->sside);
	free(a->undo);
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

/* Copy what a window may change, to undo it. */
static void
ahead_snap(struct ahead *a, struct machine *m, const void *side,
    size_t side_bytes)
{
	uint32_t nc = m->cfg.ncores;

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
		if (side_bytes > 0)
			a->sside = xmalloc(side_bytes);
	}
	memcpy(a->scores, m->cores, nc * sizeof *m->cores);
	if (side_bytes > 0)
		memcpy(a->sside, side, side_bytes);
	for (uint32_t i = 0; i < nc; i++) {
		int32_t top = m->cores[i].sp > m->cores[i].lv ?
		    m->cores[i].sp : m->cores[i].lv;

		a->lim[i] = MM_STACK_BASE - 1;
		ahead_grow(a, m, i, (int64_t)(top > MM_STACK_BASE ? top :
		    MM_STACK_BASE) + AHEAD_STACK_MARGIN);
	}
	for (uint32_t i = 0; i < nc; i++) {
		a->sout[i] = m->io[i].out.len;
		a->sin[i] = m->io[i].in_pos;
	}
	a->sheap_top = m->heap_top;
	a->nundo = 0;
}

static void
ahead_undo(struct ahead *a, struct machine *m, void *side, size_t side_bytes)
{
	uint32_t nc = m->cfg.ncores;

	memcpy(m->cores, a->scores, nc * sizeof *m->cores);
	if (side_bytes > 0)
		memcpy(side, a->sside, side_bytes);
	for (uint32_t i = 0; i < nc; i++) {
		size_t off = (size_t)i * m->cfg.stack_words;

		memcpy(m->stacks + off, a->sstacks + off,
		    (size_t)(a->lim[i] - MM_STACK_BASE + 1) *
		    sizeof *m->stacks);
		m->io[i].out.len = a->sout[i];
		m->io[i].in_pos = a->sin[i];
	}
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

uint64_t
ahead_window(struct ahead *a, struct machine *m, const struct engine_run *r,
    const struct ahead_ops *ops, void *arg, void *side, size_t side_bytes,
    uint64_t h, uint64_t *stop_at)
{
	uint32_t nc = m->cfg.ncores;

	ahead_snap(a, m, side, side_bytes);
	for (uint32_t i = 0; i < nc; i++) {
		a->t[i] = 0;
		a->at[i] = AT_IDLE;
		if (m->cores[i].status == CORE_RUNNING &&
		    (r->mask == NULL || r->mask[i]))
			ahead_core(a, m, ops, arg, i, h, 1);
	}
	for (;;) {
		uint64_t s = h;
		int changed = 0, live = 0;

		for (uint32_t i = 0; i < nc; i++)
			if (a->at[i] >= AT_SYNC && ahead_when(a, i) < s)
				s = ahead_when(a, i);
		if (s == h)
			return h;
		for (uint32_t i = 0; i < nc; i++) {
			struct core *c = &m->cores[i];

			if (a->at[i] < AT_SYNC || ahead_when(a, i) != s)
				continue;
			if (a->at[i] == AT_BP)
				goto undo;
			if (a->at[i] == AT_STATUS)
				c->status = a->status[i];
			else
				ops->shared(arg, i);
			if (c->status != CORE_RUNNING) {
				a->at[i] = AT_IDLE;
				changed = 1;
				if (c->status == CORE_ERROR && r->stop_on_fault)
					goto undo;
				continue;
			}
			a->t[i] = s + 1;
			ahead_core(a, m, ops, arg, i, h, 0);
		}
		if (!changed)
			continue;
		/* the end of step s: the barrier may let the waiting go */
		if (ref_barrier_release(m)) {
			for (uint32_t i = 0; i < nc; i++)
				if (a->at[i] == AT_IDLE &&
				    m->cores[i].status == CORE_RUNNING &&
				    (r->mask == NULL || r->mask[i])) {
					a->t[i] = s + 1;
					ahead_core(a, m, ops, arg, i, h, 0);
				}
		}
		for (uint32_t i = 0; i < nc && !live; i++)
			live = a->at[i] != AT_IDLE;
		if (!live)
			return s + 1;	/* none runs: nobody is ahead */
		continue;
undo:
		ahead_undo(a, m, side, side_bytes);
		*stop_at = s + 1;
		return 0;
	}
}
