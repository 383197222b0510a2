/*
 * Reverse execution over recorded history (see history.h).
 *
 * A snapshot holds everything a cut is made of: struct core of every
 * core, the memory regions (trailing zero words trimmed: the machine
 * starts zeroed, so what is cut off is zero), heap_top, input positions,
 * the session's output counts, the engine's side state (engine.h save)
 * and the scheduler-locking mask of the steps that follow it.
 *
 * Going back to cut T: restore the newest snapshot at or before T into
 * the machine, let the engine take it (engine.h load), and replay T - S
 * steps with no breakpoint and faults not stopping, under the snapshot's
 * mask.  The replay's output was shown when it was first produced: it
 * is only counted.
 *
 * reverse-step at a micro level and reverse-continue look for cuts with
 * a property (the focused core just reached an instruction boundary; a
 * breakpoint or watchpoint would have stopped there) newest segment
 * first: segment k is the cuts after snapshot k up to and including the
 * next snapshot's (the oldest segment includes its own first cut), so a
 * property that compares a cut with the one before is seen once.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "history.h"
#include "ijvm.h"

#define MIB            (1024u * 1024u)
#define RUN_GAP_MIN    1000   /* steps between snapshots within a run */

struct snap {
	uint64_t	 step;
	size_t		 bytes;       /* what it costs, as info history says */
	struct core	*cores;
	uint32_t	*slen;        /* per core: stack words kept */
	int32_t		*stack;       /* those words, core after core */
	uint32_t	 glen;
	int32_t		*globals;
	uint32_t	 hlen;
	int32_t		*heap;
	uint32_t	 heap_top;
	size_t		*in_pos;
	uint64_t	*out_total;
	void		*side;
	size_t		 side_len;
	uint8_t		*lockmask;    /* the steps after it; NULL: all cores */
};

struct history {
	uint32_t	 ncores;
	uint64_t	 limit;       /* bytes; 0: not recording */
	struct snap	*v;           /* oldest first */
	size_t		 n, cap;
	size_t		 bytes;
	uint64_t	*out_total;   /* per core: output bytes up to now */
	uint64_t	*out_high;    /* ... up to the furthest cut shown */
	char		*note;        /* why there is no (more) history */
	int		 too_big;     /* one snapshot exceeds limit */
};

struct history *
history_create(uint32_t ncores)
{
	struct history *h = xcalloc(1, sizeof *h);

	h->ncores = ncores;
	h->limit = (uint64_t)HISTORY_DEFAULT_MIB * MIB;
	h->out_total = xcalloc(ncores, sizeof *h->out_total);
	h->out_high = xcalloc(ncores, sizeof *h->out_high);
	return h;
}

static void
snap_free(struct snap *p)
{
	free(p->cores);
	free(p->slen);
	free(p->stack);
	free(p->globals);
	free(p->heap);
	free(p->in_pos);
	free(p->out_total);
	free(p->side);
	free(p->lockmask);
	memset(p, 0, sizeof *p);
}

static void
drop_oldest(struct history *h)
{
	h->bytes -= h->v[0].bytes;
	snap_free(&h->v[0]);
	memmove(h->v, h->v + 1, (h->n - 1) * sizeof *h->v);
	h->n--;
}

static void
clear(struct history *h)
{
	for (size_t i = 0; i < h->n; i++)
		snap_free(&h->v[i]);
	h->n = 0;
	h->bytes = 0;
}

void
history_free(struct history *h)
{
	if (h == NULL)
		return;
	clear(h);
	free(h->v);
	free(h->out_total);
	free(h->out_high);
	free(h->note);
	free(h);
}

static void
set_note(struct history *h, char *note)
{
	free(h->note);
	h->note = note;
}

void
history_forget(struct session *s, const char *why)
{
	struct history *h = s->hist;

	/* The recorded future is gone: from now on output is news. */
	memcpy(h->out_high, h->out_total, h->ncores * sizeof *h->out_high);
	if (h->n == 0 && h->note == NULL)
		return;
	clear(h);
	set_note(h, xasprintf("%s at step %llu discarded the history before "
	    "it", why, (unsigned long long)s->m.step));
}

void
history_restart(struct session *s)
{
	struct history *h = s->hist;

	history_forget(s, "run");
	memset(h->out_total, 0, h->ncores * sizeof *h->out_total);
	memset(h->out_high, 0, h->ncores * sizeof *h->out_high);
}

size_t
history_output(struct history *h, uint32_t core, size_t len)
{
	uint64_t t = h->out_total[core], hi = h->out_high[core], shown = 0;

	if (hi > t)
		shown = hi - t < len ? hi - t : len;
	h->out_total[core] = t + len;
	if (h->out_total[core] > hi)
		h->out_high[core] = h->out_total[core];
	return (size_t)shown;
}

uint64_t
history_output_total(const struct session *s, uint32_t core)
{
	return s->hist->out_total[core];
}

uint64_t
history_output_high(const struct session *s, uint32_t core)
{
	return s->hist->out_high[core];
}

/* ---- snapshots ------------------------------------------------------- */

static uint32_t
trimmed(const int32_t *w, uint32_t n)
{
	while (n > 0 && w[n - 1] == 0)
		n--;
	return n;
}

static const uint8_t *
run_mask(const struct session *s)
{
	return s->lock != LOCK_OFF ? s->lockmask : NULL;
}

static int
same_mask(const struct session *s, const struct snap *p)
{
	const uint8_t *m = run_mask(s);

	if (m == NULL || p->lockmask == NULL)
		return m == NULL && p->lockmask == NULL;
	return memcmp(m, p->lockmask, s->m.cfg.ncores) == 0;
}

/* Steps between snapshots at the start of commands: more for machines
 * whose snapshot costs more (about one per MiB-word of stacks). */
static uint64_t
command_gap(const struct session *s)
{
	uint64_t units = (uint64_t)s->m.cfg.ncores *
	    (s->m.cfg.stack_words + 32u);

	return units >> 20 ? units >> 20 : 1;
}

static int
snap_take(struct session *s, struct snap *p, char **cause)
{
	struct machine *m = &s->m;
	uint32_t n = m->cfg.ncores, sw = m->cfg.stack_words;
	size_t total = 0;

	memset(p, 0, sizeof *p);
	if (s->e.ops->sync_memory(&s->e, cause) != 0 ||
	    s->e.ops->save(&s->e, NULL, &p->side_len, cause) != 0)
		return -1;
	if (p->side_len > 0) {
		p->side = xmalloc(p->side_len);
		if (s->e.ops->save(&s->e, p->side, &p->side_len,
		    cause) != 0) {
			snap_free(p);
			return -1;
		}
	}
	p->step = m->step;
	p->cores = xcalloc(n, sizeof *p->cores);
	memcpy(p->cores, m->cores, n * sizeof *p->cores);
	p->slen = xcalloc(n, sizeof *p->slen);
	for (uint32_t c = 0; c < n; c++) {
		p->slen[c] = trimmed(m->stacks + (size_t)c * sw, sw);
		total += p->slen[c];
	}
	p->stack = xcalloc(total ? total : 1, sizeof *p->stack);
	total = 0;
	for (uint32_t c = 0; c < n; c++) {
		memcpy(p->stack + total, m->stacks + (size_t)c * sw,
		    p->slen[c] * sizeof *p->stack);
		total += p->slen[c];
	}
	p->glen = trimmed(m->globals, MM_GLOBALS_WORDS);
	p->globals = xcalloc(p->glen ? p->glen : 1, sizeof *p->globals);
	memcpy(p->globals, m->globals, p->glen * sizeof *p->globals);
	p->hlen = trimmed(m->heap, m->cfg.heap_words);
	p->heap = xcalloc(p->hlen ? p->hlen : 1, sizeof *p->heap);
	memcpy(p->heap, m->heap, p->hlen * sizeof *p->heap);
	p->heap_top = m->heap_top;
	p->in_pos = xcalloc(n, sizeof *p->in_pos);
	for (uint32_t c = 0; c < n; c++)
		p->in_pos[c] = m->io[c].in_pos;
	p->out_total = xcalloc(n, sizeof *p->out_total);
	memcpy(p->out_total, s->hist->out_total, n * sizeof *p->out_total);
	if (run_mask(s) != NULL) {
		p->lockmask = xmalloc(n);
		memcpy(p->lockmask, run_mask(s), n);
	}
	p->bytes = sizeof *p + n * (sizeof *p->cores + sizeof *p->slen +
	    sizeof *p->in_pos + sizeof *p->out_total) +
	    (total + p->glen + p->hlen) * sizeof(int32_t) + p->side_len +
	    (p->lockmask ? n : 0);
	return 0;
}

/* The newest snapshot at or before step t, or -1. */
static long
find_snap(const struct history *h, uint64_t t)
{
	long i;

	for (i = (long)h->n - 1; i >= 0; i--)
		if (h->v[i].step <= t)
			return i;
	return -1;
}

/* Take a snapshot of the present and add it to the ring. */
static void
record(struct session *s)
{
	struct history *h = s->hist;
	struct snap p;
	char *err = NULL;

	if (snap_take(s, &p, &err) != 0) {
		clear(h);
		set_note(h, xasprintf("recording stopped at step %llu: %s",
		    (unsigned long long)s->m.step, err));
		free(err);
		h->too_big = 1;
		return;
	}
	if (p.bytes > h->limit) {
		clear(h);
		set_note(h, xasprintf("one snapshot of this machine takes "
		    "%.1f MiB, more than history-size %llu MiB: nothing is "
		    "recorded (set history-size %llu or more)",
		    (double)p.bytes / MIB, (unsigned long long)(h->limit / MIB),
		    (unsigned long long)((p.bytes + MIB - 1) / MIB)));
		snap_free(&p);
		h->too_big = 1;
		return;
	}
	while (h->n > 0 && h->bytes + p.bytes > h->limit)
		drop_oldest(h);
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 16;
		h->v = xreallocarray(h->v, h->cap, sizeof *h->v);
	}
	h->v[h->n++] = p;
	h->bytes += p.bytes;
}

/*
 * A forward command from the present (after going back, a cut inside the
 * recorded history): the snapshots after it are dropped, since the steps
 * to come are recorded again as they run.  They would be the recorded
 * ones only under the same scheduler-locking masks; where a mask differs
 * the output to come is news (history_output).
 */
void
history_before_run(struct session *s)
{
	struct history *h = s->hist;
	uint64_t t = s->m.step;
	long i = find_snap(h, t);
	struct snap *last;
	int same = 1;

	for (long j = i < 0 ? 0 : i; (size_t)j < h->n; j++)
		same &= same_mask(s, &h->v[j]);
	if (!same)
		memcpy(h->out_high, h->out_total,
		    h->ncores * sizeof *h->out_high);
	while (h->n > 0 && h->v[h->n - 1].step > t) {
		h->bytes -= h->v[h->n - 1].bytes;
		snap_free(&h->v[--h->n]);
	}
	if (h->limit == 0 || h->too_big)
		return;
	last = h->n ? &h->v[h->n - 1] : NULL;
	if (last != NULL && last->step == t) {
		if (same_mask(s, last))
			return;
		/* nothing ran under the old mask since */
		h->bytes -= last->bytes;
		snap_free(last);
		h->n--;
	} else if (last != NULL && same_mask(s, last) &&
	    t - last->step < command_gap(s))
		return;
	record(s);
}

void
history_after_slice(struct session *s)
{
	struct history *h = s->hist;
	uint64_t gap = command_gap(s);

	if (h->limit == 0 || h->too_big || h->n == 0)
		return;
	if (gap < RUN_GAP_MIN)
		gap = RUN_GAP_MIN;
	if (s->m.step - h->v[h->n - 1].step >= gap)
		record(s);
}

/* ---- going back ------------------------------------------------------ */

/* Count (not show) what a replay printed. */
static void
count_output(struct session *s)
{
	for (uint32_t c = 0; c < s->m.cfg.ncores; c++) {
		struct buf *b = &s->m.io[c].out;

		if (b->len > 0)
			(void)history_output(s->hist, c, b->len);
		b->len = 0;
	}
}

/* Run n steps from the present with nothing stopping them. */
static int
replay(struct session *s, const uint8_t *mask, uint64_t n, char **cause)
{
	while (n > 0) {
		struct engine_run er;
		struct engine_stop st;

		memset(&er, 0, sizeof er);
		er.max_steps = n;
		er.mask = mask;
		if (s->e.ops->run(&s->e, &er, &st, cause) != 0)
			return -1;
		count_output(s);
		if (st.steps_run == 0)
			break;
		n -= st.steps_run < n ? st.steps_run : n;
	}
	return 0;
}

static int
restore(struct session *s, const struct snap *p, char **cause)
{
	struct machine *m = &s->m;
	uint32_t n = m->cfg.ncores, sw = m->cfg.stack_words;
	size_t at = 0;

	memcpy(m->cores, p->cores, n * sizeof *m->cores);
	for (uint32_t c = 0; c < n; c++) {
		int32_t *st = m->stacks + (size_t)c * sw;

		memcpy(st, p->stack + at, p->slen[c] * sizeof *st);
		memset(st + p->slen[c], 0, (sw - p->slen[c]) * sizeof *st);
		at += p->slen[c];
		m->io[c].in_pos = p->in_pos[c];
		m->io[c].out.len = 0;
	}
	memcpy(m->globals, p->globals, p->glen * sizeof *m->globals);
	memset(m->globals + p->glen, 0,
	    (MM_GLOBALS_WORDS - p->glen) * sizeof *m->globals);
	memcpy(m->heap, p->heap, p->hlen * sizeof *m->heap);
	memset(m->heap + p->hlen, 0,
	    (m->cfg.heap_words - p->hlen) * sizeof *m->heap);
	m->heap_top = p->heap_top;
	m->step = p->step;
	memcpy(s->hist->out_total, p->out_total, n * sizeof *p->out_total);
	return s->e.ops->load(&s->e, p->side, cause);
}

/* Make the machine the cut at step t (recorded: a snapshot at or before). */
static int
goto_cut(struct session *s, uint64_t t, char **cause)
{
	long i = find_snap(s->hist, t);
	const struct snap *p;

	if (i < 0) {
		*cause = xasprintf("step %llu is not in the recorded history",
		    (unsigned long long)t);
		return -1;
	}
	p = &s->hist->v[i];
	if (restore(s, p, cause) != 0)
		return -1;
	return replay(s, p->lockmask, t - p->step, cause);
}

/* After a reverse command: the stop state of a fresh cut. */
static void
settle(struct session *s)
{
	memset(s->at_bp, 0, s->m.cfg.ncores);
	s->nstop_cores = 0;
	s->last_bp = 0;
	s->list_next = -1;
	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		char *err = NULL;
		int32_t v;

		if (b->kind == BP_WATCH && watch_value(s, b, &v, &err) == 0)
			b->wvalue = v;
		free(err);
	}
}

static int
check_history(struct session *s, const char *what, char **cause)
{
	struct history *h = s->hist;

	if (h->limit == 0) {
		*cause = xasprintf("%s: history recording is off (set "
		    "history-size N, in MiB, to record from the next forward "
		    "command)", what);
		return -1;
	}
	if (h->n > 0 && s->m.step <= h->v[0].step) {
		*cause = xasprintf("%s: at the oldest recorded step %llu: "
		    "nothing to go back to", what,
		    (unsigned long long)h->v[0].step);
		return -1;
	}
	if (h->n == 0) {
		if (h->note != NULL)
			*cause = xasprintf("%s: no recorded history before "
			    "step %llu (%s)", what,
			    (unsigned long long)s->m.step, h->note);
		else
			*cause = xasprintf("%s: no recorded history before "
			    "step %llu: history is recorded from the next "
			    "forward command on", what,
			    (unsigned long long)s->m.step);
		return -1;
	}
	return 0;
}

static void
report_back(struct session *s, uint64_t from, struct buf *out)
{
	uint64_t d = from - s->m.step;

	buf_printf(out, "went back %llu step%s to step %llu\n",
	    (unsigned long long)d, d == 1 ? "" : "s",
	    (unsigned long long)s->m.step);
}

static int
reverse_steps(struct session *s, const char *what, uint64_t n,
    struct buf *out, char **cause)
{
	struct history *h = s->hist;
	uint64_t now = s->m.step, oldest;

	if (check_history(s, what, cause) != 0)
		return -1;
	oldest = h->v[0].step;
	if (n > now - oldest) {
		*cause = xasprintf("%s: history goes back %llu step%s only, to "
		    "step %llu (set history-size N, now %llu MiB, to keep "
		    "more)", what, (unsigned long long)(now - oldest),
		    now - oldest == 1 ? "" : "s", (unsigned long long)oldest,
		    (unsigned long long)(h->limit / MIB));
		return -1;
	}
	if (goto_cut(s, now - n, cause) != 0)
		return -1;
	settle(s);
	report_back(s, now, out);
	session_where(s, s->focus, out);
	return 0;
}

int
history_reverse_steps(struct session *s, uint64_t n, struct buf *out,
    char **cause)
{
	return reverse_steps(s, "reverse-stepi", n, out, cause);
}

/* ---- searching the history ------------------------------------------ */

enum want { WANT_BOUNDARY, WANT_STOP };

struct search {
	enum want	 want;
	uint32_t	 core;       /* WANT_BOUNDARY: the focused core */
	uint64_t	 cycles;     /* its cycles at the previous cut */
	int32_t		*wval;       /* per bps entry: value at the previous
					cut */
	uint8_t		*wok;        /* ... could be read */
	int		 nwatch;     /* enabled watchpoints */
	uint64_t	*hits;       /* cuts of the segment, ascending */
	size_t		 nhits, cap;
};

/* Breakpoints a core would stop at here (condition included). */
static int
core_hits_bp(struct session *s, const struct bp *b, uint32_t c)
{
	const struct core *k = &s->m.cores[c];
	int32_t v = 1;
	char *err = NULL;
	size_t i;

	if (b->on_mpc && s->level == LEVEL_ISA)
		return 0;
	if (!b->on_mpc && !session_at_boundary(s, c))
		return 0;
	for (i = 0; i < b->nlocs; i++)
		if ((b->on_mpc ? b->locs[i].pc == (int32_t)k->mpc :
		    b->locs[i].prog == k->prog && b->locs[i].pc == k->pc) &&
		    (b->locs[i].mask == NULL || b->locs[i].mask[c]))
			break;
	if (i == b->nlocs)
		return 0;
	if (b->cond != NULL && session_eval(s, c, b->cond, &v, &err) != 0)
		v = 1;	/* an error stops, as going forward */
	free(err);
	return v != 0;
}

/*
 * The breakpoints that would stop at the present cut: how many; with out,
 * report them as a forward stop does and note their cores.
 */
static int
bp_hits(struct session *s, const uint8_t *mask, struct buf *out)
{
	int nb = 0;
	uint32_t *hc = NULL;

	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		size_t n = 0;

		if (b->kind != BP_BREAK || !b->enabled)
			continue;
		for (uint32_t c = 0; c < s->m.cfg.ncores; c++) {
			if (s->m.cores[c].status != CORE_RUNNING ||
			    (mask != NULL && !mask[c]) ||
			    !core_hits_bp(s, b, c))
				continue;
			if (out == NULL) {
				n = 1;
				break;
			}
			hc = xreallocarray(hc, n + 1, sizeof *hc);
			hc[n++] = c;
		}
		if (n == 0)
			continue;
		nb++;
		if (out == NULL)
			continue;
		buf_printf(out, "%sbreakpoint %u hit by ",
		    b->temporary ? "temporary " : "", b->id);
		coreset_format_cores(out, hc, n, 8);
		buf_printf(out, " [%zu of %u] at ", n, s->m.cfg.ncores);
		if (b->on_mpc) {
			buf_printf(out, "MPC ");
			session_describe_mpc(s, s->m.cores[hc[0]].mpc, out);
		} else
			session_describe_pc(s, hc[0], s->m.cores[hc[0]].pc,
			    out);
		buf_printf(out, "\n");
		for (size_t k = 0; k < n; k++)
			s->at_bp[hc[k]] = 1;
		stop_note_cores(s, hc, n);
		s->last_bp = b->id;
	}
	free(hc);
	return nb;
}

static int
watch_live(const struct session *s, const struct bp *b)
{
	return b->kind == BP_WATCH && b->enabled &&
	    (b->wkind != WATCH_LOCAL || s->m.cores[b->wcore].lv >= b->wframe);
}

/* Watchpoints whose word changed since the previous cut (sr->wval);
 * sr->wval becomes the present. */
static int
watch_hits(struct session *s, struct search *sr)
{
	int n = 0;

	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		char *err = NULL;
		int32_t v;
		int ok;

		if (b->kind != BP_WATCH || !b->enabled)
			continue;
		ok = watch_live(s, b) && watch_value(s, b, &v, &err) == 0;
		free(err);
		if (ok && sr->wok[i] && v != sr->wval[i])
			n++;
		sr->wok[i] = (uint8_t)ok;
		if (ok)
			sr->wval[i] = v;
	}
	return n;
}

static void
add_hit(struct search *sr, uint64_t t)
{
	if (sr->nhits == sr->cap) {
		sr->cap = sr->cap ? sr->cap * 2 : 64;
		sr->hits = xreallocarray(sr->hits, sr->cap, sizeof *sr->hits);
	}
	sr->hits[sr->nhits++] = t;
}

/* Does the present cut have what the search wants (first: the cut
 * before it is unknown)? */
static int
cut_matches(struct session *s, struct search *sr, const uint8_t *mask,
    int first)
{
	if (sr->want == WANT_BOUNDARY) {
		const struct core *k = &s->m.cores[sr->core];
		int hit = session_at_boundary(s, sr->core) &&
		    (first || k->cycles != sr->cycles);

		sr->cycles = k->cycles;
		return hit;
	}
	/* both looked at: watch_hits keeps the previous values */
	return (sr->nwatch > 0 && watch_hits(s, sr) > 0 && !first) +
	    (bp_hits(s, mask, NULL) > 0) > 0;
}

/*
 * The cuts of segment k (snapshot k's step exclusive, unless it is the
 * oldest, to hi inclusive) that the search wants, into sr->hits.
 */
static int
scan_segment(struct session *s, struct search *sr, long k, uint64_t hi,
    char **cause)
{
	const struct snap *p = &s->hist->v[k];
	const uint8_t *mask = p->lockmask;
	int skip = sr->want == WANT_STOP && sr->nwatch == 0;
	int hit;

	sr->nhits = 0;
	if (restore(s, p, cause) != 0)
		return -1;
	hit = cut_matches(s, sr, mask, 1);
	if (k == 0 && hit)
		add_hit(sr, s->m.step);
	session_sync_bps(s);
	while (s->m.step < hi) {
		struct engine_run er;
		struct engine_stop st;

		memset(&er, 0, sizeof er);
		er.max_steps = skip ? hi - s->m.step : 1;
		er.mask = mask;
		/* only the breakpoints' places: conditions are ours */
		if (skip) {
			er.bps = s->ebps;
			er.nbps = s->nebps;
		}
		if (s->e.ops->run(&s->e, &er, &st, cause) != 0)
			return -1;
		count_output(s);
		if (st.steps_run == 0)
			break;
		if (skip && st.reason != STOP_BREAKPOINT)
			continue;
		if (cut_matches(s, sr, mask, 0))
			add_hit(sr, s->m.step);
	}
	return 0;
}

/*
 * The need-th newest wanted cut before the present (now): 0 with *at,
 * 1 if history holds fewer (*found: how many), -1 + *cause.
 */
static int
search(struct session *s, struct search *sr, uint64_t need, uint64_t now,
    uint64_t *at, uint64_t *found, char **cause)
{
	struct history *h = s->hist;
	long k = find_snap(h, now - 1);

	*found = 0;
	sr->wval = xcalloc(s->bps.n ? s->bps.n : 1, sizeof *sr->wval);
	sr->wok = xcalloc(s->bps.n ? s->bps.n : 1, 1);
	for (size_t i = 0; i < s->bps.n; i++)
		sr->nwatch += s->bps.v[i].kind == BP_WATCH &&
		    s->bps.v[i].enabled;
	for (; k >= 0; k--) {
		uint64_t hi = (size_t)k + 1 < h->n && h->v[k + 1].step <= now -
		    1 ? h->v[k + 1].step : now - 1;

		memset(sr->wok, 0, s->bps.n ? s->bps.n : 1);
		if (scan_segment(s, sr, k, hi, cause) != 0)
			return -1;
		if (sr->nhits >= need) {
			*at = sr->hits[sr->nhits - need];
			*found += need;
			return 0;
		}
		need -= sr->nhits;
		*found += sr->nhits;
	}
	return 1;
}

static void
search_free(struct search *sr)
{
	free(sr->wval);
	free(sr->wok);
	free(sr->hits);
}

/* Back to now after a search that found nothing or failed. */
static int
back_to(struct session *s, uint64_t now, char **cause)
{
	return goto_cut(s, now, cause);
}

int
history_reverse_insns(struct session *s, uint64_t n, struct buf *out,
    char **cause)
{
	struct search sr;
	uint64_t now = s->m.step, at = 0, found = 0;
	int rc;

	if (s->level == LEVEL_ISA)
		return reverse_steps(s, "reverse-step", n, out, cause);
	if (check_history(s, "reverse-step", cause) != 0)
		return -1;
	memset(&sr, 0, sizeof sr);
	sr.want = WANT_BOUNDARY;
	sr.core = s->focus;
	rc = search(s, &sr, n, now, &at, &found, cause);
	search_free(&sr);
	if (rc != 0) {
		char *err = NULL;

		if (back_to(s, now, &err) != 0)
			free(err);
		if (rc > 0)
			*cause = xasprintf("core %u reached %llu instruction "
			    "boundar%s in the recorded history (back to step "
			    "%llu), not %llu (set history-size N, now %llu "
			    "MiB, to keep more)", s->focus,
			    (unsigned long long)found, found == 1 ? "y" : "ies",
			    (unsigned long long)s->hist->v[0].step,
			    (unsigned long long)n,
			    (unsigned long long)(s->hist->limit / MIB));
		return -1;
	}
	if (goto_cut(s, at, cause) != 0)
		return -1;
	settle(s);
	report_back(s, now, out);
	session_where(s, s->focus, out);
	return 0;
}

/* Report the watchpoints that changed into the present cut t (> oldest)
 * from t - 1. */
static int
report_watches(struct session *s, uint64_t t, struct buf *out, char **cause)
{
	size_t nb = s->bps.n ? s->bps.n : 1;
	int32_t *old = xcalloc(nb, sizeof *old);
	uint8_t *ok = xcalloc(nb, 1);

	if (goto_cut(s, t - 1, cause) != 0) {
		free(old);
		free(ok);
		return -1;
	}
	for (size_t i = 0; i < s->bps.n; i++) {
		char *err = NULL;

		ok[i] = watch_live(s, &s->bps.v[i]) &&
		    watch_value(s, &s->bps.v[i], &old[i], &err) == 0;
		free(err);
	}
	if (goto_cut(s, t, cause) != 0) {
		free(old);
		free(ok);
		return -1;
	}
	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		char *err = NULL;
		int32_t v;

		if (!ok[i] || !watch_live(s, b) ||
		    watch_value(s, b, &v, &err) != 0 || v == old[i]) {
			free(err);
			continue;
		}
		buf_printf(out, "watchpoint %u: %s changed\n  old value = %d\n"
		    "  new value = %d\n", b->id, b->what, old[i], v);
	}
	free(old);
	free(ok);
	return 0;
}

int
history_reverse_continue(struct session *s, struct buf *out, char **cause)
{
	struct search sr;
	uint64_t now = s->m.step, at = 0, found = 0, oldest;
	const uint8_t *mask;
	int in = 0, rc;

	if (check_history(s, "reverse-continue", cause) != 0)
		return -1;
	oldest = s->hist->v[0].step;
	memset(&sr, 0, sizeof sr);
	sr.want = WANT_STOP;
	rc = search(s, &sr, 1, now, &at, &found, cause);
	search_free(&sr);
	if (rc < 0) {
		char *err = NULL;

		if (back_to(s, now, &err) != 0)
			free(err);
		return -1;
	}
	if (rc > 0) {
		if (goto_cut(s, oldest, cause) != 0)
			return -1;
		settle(s);
		buf_printf(out, "no breakpoint hit in recorded history; at the "
		    "oldest recorded step %llu\n", (unsigned long long)oldest);
		report_back(s, now, out);
		session_where(s, s->focus, out);
		return 0;
	}
	if (at > oldest && report_watches(s, at, out, cause) != 0)
		return -1;
	if (at == oldest && goto_cut(s, at, cause) != 0)
		return -1;
	settle(s);
	mask = s->hist->v[find_snap(s->hist, at > oldest ? at - 1 :
	    at)].lockmask;
	(void)bp_hits(s, mask, out);
	report_back(s, now, out);
	for (size_t i = 0; i < s->nstop_cores && !in; i++)
		in = s->stop_cores[i] == s->focus;
	if (s->nstop_cores > 0 && !in) {
		uint32_t lo = s->stop_cores[0];

		for (size_t i = 1; i < s->nstop_cores; i++)
			if (s->stop_cores[i] < lo)
				lo = s->stop_cores[i];
		session_set_focus(s, lo, out);
	}
	session_where(s, s->focus, out);
	return 0;
}

/* ---- settings -------------------------------------------------------- */

void
history_set_size(struct session *s, uint64_t mib)
{
	struct history *h = s->hist;

	h->limit = mib * MIB;
	h->too_big = 0;
	if (mib == 0) {
		clear(h);
		set_note(h, xasprintf("recording was turned off at step %llu",
		    (unsigned long long)s->m.step));
		return;
	}
	while (h->n > 0 && h->bytes > h->limit)
		drop_oldest(h);
}

uint64_t
history_size_mib(const struct session *s)
{
	return s->hist->limit / MIB;
}

void
history_info(struct session *s, struct buf *out)
{
	struct history *h = s->hist;

	if (h->limit == 0)
		buf_printf(out, "history recording is off (set history-size "
		    "N to record)\n");
	else
		buf_printf(out, "history: %zu snapshot%s, %zu bytes of %llu "
		    "MiB\n", h->n, h->n == 1 ? "" : "s", h->bytes,
		    (unsigned long long)(h->limit / MIB));
	if (h->note != NULL && (h->n == 0 || h->limit == 0))
		buf_printf(out, "%s\n", h->note);
	if (h->n == 0)
		return;
	buf_printf(out, "  %-12s %s\n", "step", "bytes");
	for (size_t i = 0; i < h->n; i++)
		buf_printf(out, "  %-12llu %zu\n",
		    (unsigned long long)h->v[i].step, h->v[i].bytes);
	buf_printf(out, "now at step %llu; reverse commands reach back to step "
	    "%llu\n", (unsigned long long)s->m.step,
	    (unsigned long long)h->v[0].step);
}
