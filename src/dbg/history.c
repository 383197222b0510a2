/*
 * The snapshot ring of reverse execution (see history.h): taking,
 * trimming and restoring snapshots within the byte budget, replaying
 * from one to any later recorded cut, and info history.  What to look for
 * in the recorded past (breakpoints, watchpoints, boundaries) is
 * reverse.c's: the ring knows only the machine, the engine and the
 * scheduler-locking mask.
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
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "history.h"
#include "ijvm.h"

#define MIB            (1024u * 1024u)
#define RUN_GAP_MIN    1000   /* least steps between snapshots in a run */

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
	FREE_ALL(p->cores, p->slen, p->stack, p->globals, p->heap, p->in_pos,
	    p->out_total, p->side, p->lockmask);
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
	/* Recording stopped for good (a snapshot failed or outgrew the
	 * limit): its note stays the reason there is no history. */
	if (h->too_big)
		return;
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

/*
 * The shared regions (globals, heap) into the host copy, for an engine
 * whose stacks a snapshot takes with save_stacks: sync_memory would
 * bring every stack to the host as well.
 */
static int
read_shared(struct session *s, char **cause)
{
	struct machine *m = &s->m;

	if (s->e.ops->read_words(&s->e, 0, MM_GLOBALS_BASE, MM_GLOBALS_WORDS,
	    m->globals, cause) != 0)
		return -1;
	if (m->cfg.heap_words == 0)
		return 0;
	return s->e.ops->read_words(&s->e, 0, MM_HEAP_BASE, m->cfg.heap_words,
	    m->heap, cause);
}

static int
snap_take(struct session *s, struct snap *p, char **cause)
{
	struct machine *m = &s->m;
	uint32_t n = m->cfg.ncores, sw = m->cfg.stack_words;
	size_t total = 0;

	memset(p, 0, sizeof *p);
	if (s->e.ops->save_stacks != NULL ? read_shared(s, cause) != 0 :
	    s->e.ops->sync_memory(&s->e, cause) != 0)
		return -1;
	if (s->e.ops->save(&s->e, NULL, &p->side_len, cause) != 0)
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
	if (s->e.ops->save_stacks != NULL) {
		if (s->e.ops->save_stacks(&s->e, p->slen, &p->stack, &total,
		    cause) != 0) {
			snap_free(p);
			return -1;
		}
	} else {
		machine_stacks_used(m, p->slen);
		for (uint32_t c = 0; c < n; c++)
			total += p->slen[c];
		p->stack = xcalloc(total ? total : 1, sizeof *p->stack);
		total = 0;
		for (uint32_t c = 0; c < n; c++) {
			memcpy(p->stack + total, m->stacks + (size_t)c * sw,
			    p->slen[c] * sizeof *p->stack);
			total += p->slen[c];
		}
	}
	p->glen = machine_words_used(m->globals, MM_GLOBALS_WORDS);
	p->globals = xcalloc(p->glen ? p->glen : 1, sizeof *p->globals);
	memcpy(p->globals, m->globals, p->glen * sizeof *p->globals);
	p->hlen = machine_words_used(m->heap, m->cfg.heap_words);
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

long
history_find(const struct history *h, uint64_t t)
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
	long i = history_find(h, t);
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

/*
 * Steps between snapshots within a run: a snapshot reads every word of
 * the machine (stacks, globals, heap) to trim and copy it, so spacing them
 * by at least four times those words over the cores keeps recording to a
 * small share of a run whatever the engine's speed, and a reverse command
 * replays at most that many steps from the nearest one.
 */
static uint64_t
run_gap(const struct session *s)
{
	const struct machine_config *c = &s->m.cfg;
	uint64_t words = (uint64_t)c->ncores * c->stack_words +
	    c->heap_words + MM_GLOBALS_WORDS;
	uint64_t gap = 4 * words / (c->ncores ? c->ncores : 1);

	return gap > RUN_GAP_MIN ? gap : RUN_GAP_MIN;
}

void
history_after_slice(struct session *s)
{
	struct history *h = s->hist;
	uint64_t gap = run_gap(s);

	if (h->limit == 0 || h->too_big || h->n == 0)
		return;
	if (s->m.step - h->v[h->n - 1].step >= gap)
		record(s);
}

/* ---- going back ------------------------------------------------------ */

void
history_count_output(struct session *s)
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
		history_count_output(s);
		if (st.steps_run == 0)
			break;
		n -= st.steps_run < n ? st.steps_run : n;
	}
	return 0;
}

int
history_restore(struct session *s, size_t i, char **cause)
{
	const struct snap *p = &s->hist->v[i];
	struct machine *m = &s->m;
	uint32_t n = m->cfg.ncores, sw = m->cfg.stack_words;
	size_t at = 0;
	uint32_t *used = NULL;

	memcpy(m->cores, p->cores, n * sizeof *m->cores);
	if (s->e.ops->load_stacks != NULL) {
		if (s->e.ops->load_stacks(&s->e, p->slen, p->stack,
		    cause) != 0)
			return -1;
	} else {
		used = xcalloc(n, sizeof *used);
		machine_stacks_used(m, used);
	}
	for (uint32_t c = 0; c < n; c++) {
		int32_t *st = m->stacks + (size_t)c * sw;

		m->io[c].in_pos = p->in_pos[c];
		m->io[c].out.len = 0;
		/* load_stacks took them: the host copy stays as it is */
		if (used == NULL)
			continue;
		memcpy(st, p->stack + at, p->slen[c] * sizeof *st);
		/* only words in use now: the rest are zero already, and
		 * writing them would fault in a mapped stack's pages */
		if (used[c] > p->slen[c])
			memset(st + p->slen[c], 0, (used[c] - p->slen[c]) *
			    sizeof *st);
		at += p->slen[c];
	}
	free(used);
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

int
history_goto(struct session *s, uint64_t t, char **cause)
{
	long i = history_find(s->hist, t);
	const struct snap *p;

	if (i < 0) {
		*cause = xasprintf("step %llu is not in the recorded history",
		    (unsigned long long)t);
		return -1;
	}
	p = &s->hist->v[i];
	if (history_restore(s, (size_t)i, cause) != 0)
		return -1;
	return replay(s, p->lockmask, t - p->step, cause);
}

int
history_check_back(struct session *s, const char *what, char **cause)
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

size_t
history_nsnaps(const struct history *h)
{
	return h->n;
}

uint64_t
history_snap_step(const struct history *h, size_t i)
{
	return h->v[i].step;
}

const uint8_t *
history_snap_mask(const struct history *h, size_t i)
{
	return h->v[i].lockmask;
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
