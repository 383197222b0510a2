/*
 * The reverse commands over the recorded history (history.h): reverse-
 * stepi goes back N global steps; reverse-step at a micro level and
 * reverse-continue search the history for cuts with a property.  The
 * ring (history.c) restores and replays; what a cut is looked at for is
 * decided here, with the same breakpoint test as a forward stop (hit.c)
 * and watchpoint values read as watch.c reads them.
 *
 * A search looks for cuts with a property (the focused core just reached
 * an instruction boundary; a breakpoint or watchpoint would have stopped
 * there) newest segment first: segment k is the cuts after snapshot k up
 * to and including the next snapshot's (the oldest segment includes its
 * own first cut), so a property that compares a cut with the one before
 * is seen once.  Hit and ignore counts are not touched (hit_test
 * counts nothing): a cut found going back is not a stop that counts, and
 * an ignore count does not hide it.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "history.h"
#include "reverse.h"

/* After a reverse command: the stop state of a fresh cut. */
static void
settle(struct session *s)
{
	memset(s->at_bp, 0, s->m.cfg.ncores);
	session_trace_mark(s, "back to step %llu", (unsigned long long)s->m.step);
	s->nstop_cores = 0;
	s->last_bp = 0;
	s->list_next = -1;
	s->list_first = -1;
	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		char *err = NULL;
		int32_t v;

		if (b->kind == BP_WATCH && watch_value(s, b, &v, &err) == 0)
			b->wvalue = v;
		free(err);
	}
}

static void
report_back(struct session *s, uint64_t from, struct buf *out)
{
	uint64_t d = from - s->m.step;

	buf_printf(out, "went back %llu step%s to step %llu\n",
	    (unsigned long long)d, d == 1 ? "" : "s",
	    (unsigned long long)s->m.step);
}

/* Go to step at (from now) and say where the focus stands: the end of a
 * reverse command that lands on a step it chose. */
static int
arrive(struct session *s, uint64_t at, uint64_t now, struct buf *out,
    char **cause)
{
	if (history_goto(s, at, cause) != 0)
		return -1;
	settle(s);
	report_back(s, now, out);
	session_where(s, s->focus, out);
	session_stopped(s, out);
	return 0;
}

/* Back n global steps, for the command what. */
static int
go_back(struct session *s, const char *what, uint64_t n, struct buf *out,
    char **cause)
{
	uint64_t now = s->m.step, oldest;

	if (history_check_back(s, what, cause) != 0)
		return -1;
	oldest = history_snap_step(s->hist, 0);
	if (n > now - oldest) {
		*cause = xasprintf("%s: history goes back %llu step%s only, to "
		    "step %llu (set history-size N, now %llu MiB, to keep "
		    "more)", what, (unsigned long long)(now - oldest),
		    now - oldest == 1 ? "" : "s", (unsigned long long)oldest,
		    (unsigned long long)history_size_mib(s));
		return -1;
	}
	return arrive(s, now - n, now, out, cause);
}

int
reverse_stepi(struct session *s, uint64_t n, struct buf *out, char **cause)
{
	return go_back(s, "reverse-stepi", n, out, cause);
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
			    !hit_test(s, b, c, NULL))
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
		if (out != NULL)
			hit_report(s, b, hc, n, b->on_mpc ?
			    (int32_t)s->m.cores[hc[0]].mpc :
			    s->m.cores[hc[0]].pc, out);
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
	const uint8_t *mask = history_snap_mask(s->hist, (size_t)k);
	int skip = sr->want == WANT_STOP && sr->nwatch == 0;
	int hit;

	sr->nhits = 0;
	if (history_restore(s, (size_t)k, cause) != 0)
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
		history_count_output(s);
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
	const struct history *h = s->hist;
	long k = history_find(h, now - 1);

	*found = 0;
	sr->wval = xcalloc(s->bps.n ? s->bps.n : 1, sizeof *sr->wval);
	sr->wok = xcalloc(s->bps.n ? s->bps.n : 1, 1);
	for (size_t i = 0; i < s->bps.n; i++)
		sr->nwatch += s->bps.v[i].kind == BP_WATCH &&
		    s->bps.v[i].enabled;
	for (; k >= 0; k--) {
		uint64_t hi = (size_t)k + 1 < history_nsnaps(h) &&
		    history_snap_step(h, (size_t)k + 1) <= now - 1 ?
		    history_snap_step(h, (size_t)k + 1) : now - 1;

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
	return history_goto(s, now, cause);
}

int
reverse_step(struct session *s, uint64_t n, struct buf *out, char **cause)
{
	struct search sr;
	uint64_t now = s->m.step, at = 0, found = 0;
	int rc;

	if (s->level == LEVEL_ISA)
		return go_back(s, "reverse-step", n, out, cause);
	if (history_check_back(s, "reverse-step", cause) != 0)
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
			    (unsigned long long)history_snap_step(s->hist, 0),
			    (unsigned long long)n,
			    (unsigned long long)history_size_mib(s));
		return -1;
	}
	return arrive(s, at, now, out, cause);
}

/* Report the watchpoints that changed into the present cut t (> oldest)
 * from t - 1. */
static int
report_watches(struct session *s, uint64_t t, struct buf *out, char **cause)
{
	size_t nb = s->bps.n ? s->bps.n : 1;
	int32_t *old = xcalloc(nb, sizeof *old);
	uint8_t *ok = xcalloc(nb, 1);

	if (history_goto(s, t - 1, cause) != 0) {
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
	if (history_goto(s, t, cause) != 0) {
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
reverse_continue(struct session *s, struct buf *out, char **cause)
{
	struct search sr;
	uint64_t now = s->m.step, at = 0, found = 0, oldest;
	const uint8_t *mask;
	int in = 0, rc;

	if (history_check_back(s, "reverse-continue", cause) != 0)
		return -1;
	oldest = history_snap_step(s->hist, 0);
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
		if (history_goto(s, oldest, cause) != 0)
			return -1;
		settle(s);
		buf_printf(out, "no breakpoint hit in recorded history; at the "
		    "oldest recorded step %llu\n", (unsigned long long)oldest);
		report_back(s, now, out);
		session_where(s, s->focus, out);
		session_stopped(s, out);
		return 0;
	}
	if (at > oldest && report_watches(s, at, out, cause) != 0)
		return -1;
	if (at == oldest && history_goto(s, at, cause) != 0)
		return -1;
	settle(s);
	mask = history_snap_mask(s->hist, (size_t)history_find(s->hist,
	    at > oldest ? at - 1 : at));
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
	session_stopped(s, out);
	return 0;
}
