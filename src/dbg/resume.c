/*
 * Run control: a run begins (resume_begin), advances by slices in
 * session_poll, and ends at a stop with a report.
 *
 * Engines know breakpoints only as a PC on a set of cores.  Everything
 * else is decided here, on the host, each time the engine stops:
 *
 *   - conditions are evaluated for each core at the breakpoint (hit.c's
 *     test, which reverse-continue shares); hits are counted for the
 *     cores whose condition holds; if no breakpoint remains (conditions
 *     false, ignore counts), the run resumes transparently, and the
 *     engine's rule that a run never stops at the boundary it starts
 *     from steps it off the breakpoint;
 *   - next, finish and until add internal breakpoints (struct ibp) for
 *     the focused core: the return address with the frame's LV, the
 *     instructions after the PC, and every HALT so that a core that ends
 *     its program stops the command instead of running the others on;
 *   - watchpoints: an engine that watches (ops->watch: the native
 *     engines of every level) gets the watched words and stops after
 *     the step that changed one, naming that step's writers; any other
 *     engine steps one global step at a time with the writers noted
 *     before each (watch_prepare) or, at a micro level, after it
 *     (watch_micro_writers).  Either way watch.c compares the words
 *     after the slice and reports;
 *   - the step limit (--max-steps) caps every slice;
 *   - at a micro level a global step is a micro-cycle: `step` counts the
 *     focused core's instruction boundaries instead (r->boundaries), one
 *     micro-step per engine call, and a PC breakpoint or internal stop
 *     holds only at a boundary (the engine checks that too: engine.h).
 *
 * Each forward command also lets the history (history.c) take its
 * snapshots, at its start and between slices.
 *
 * Every stop is a consistent cut: the engine guarantees that, and the
 * host only reads and reports.  The report names every core that hit the
 * stop condition in that step, then moves the focus to one of them if
 * the focused core is not among them (cuda-gdb does the same), then says
 * where the focused core is.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "history.h"
#include "ijvm.h"
#include "ref.h"

void
resume_add_ibp(struct session *s, int32_t pc, int32_t lv,
    enum ibp_kind kind)
{
	struct resume *r = &s->run;

	if (r->nibps == r->capibps) {
		r->capibps = r->capibps ? r->capibps * 2 : 16;
		r->ibps = xreallocarray(r->ibps, r->capibps, sizeof *r->ibps);
	}
	r->ibps[r->nibps].pc = pc;
	r->ibps[r->nibps].lv = lv;
	r->ibps[r->nibps].kind = (uint8_t)kind;
	r->nibps++;
}

void
resume_add_halts(struct session *s)
{
	const struct program *p = session_prog(s, s->run.core);
	size_t nstarts = p->nmethods ? p->nmethods : 1;

	for (size_t i = 0; i < nstarts; i++) {
		uint32_t start = p->nmethods ? p->methods[i].addr : 0, *a;
		size_t n;

		if (start != 0)
			start += 4;
		n = loc_insns(p, (int32_t)start, &a);
		for (size_t k = 0; k < n; k++)
			if (p->text[a[k]] == OP_HALT)
				resume_add_ibp(s, (int32_t)a[k], -1, IBP_HALT);
		free(a);
	}
}

/* 1 if a core (of mask, NULL: any) can still run.  It stops at the
 * first, most often core 0, where a count would pass over every core of
 * a million on each command. */
static int
can_run(const struct session *s, const uint8_t *mask)
{
	for (uint32_t c = 0; c < s->m.cfg.ncores; c++) {
		uint8_t st = s->m.cores[c].status;

		if ((st == CORE_RUNNING || st == CORE_WAITING ||
		    st == CORE_JOINING) && (mask == NULL || mask[c]))
			return 1;
	}
	return 0;
}

int
resume_begin(struct session *s, enum resume_kind kind, uint64_t steps,
    char **cause)
{
	uint32_t n = s->m.cfg.ncores, w = s->m.cfg.warp_width;
	struct resume *r = &s->run;

	if (can_run(s, NULL) == 0) {
		*cause = xasprintf("no core can run: all have halted or faulted "
		    "(run starts the program again)");
		return -1;
	}
	if (s->lock != LOCK_OFF) {
		uint32_t first = s->lock == LOCK_CORE ? s->focus :
		    s->focus / w * w;
		uint32_t count = s->lock == LOCK_CORE ? 1 : w;

		memset(s->lockmask, 0, n);
		for (uint32_t c = first; c < first + count && c < n; c++)
			s->lockmask[c] = 1;
		if (can_run(s, s->lockmask) == 0) {
			*cause = xasprintf("scheduler-locking %s: %s %u cannot "
			    "run (set scheduler-locking off)",
			    s->lock == LOCK_CORE ? "core" : "warp",
			    s->lock == LOCK_CORE ? "core" : "no core of warp",
			    s->lock == LOCK_CORE ? s->focus : s->focus / w);
			return -1;
		}
	}
	r->core_mask[r->core] = 0;
	r->kind = kind;
	r->left = steps;
	r->core = s->focus;
	r->core_mask[r->core] = 1;
	r->nibps = 0;
	r->boundaries = 0;
	free(r->what);
	r->what = NULL;
	memset(s->at_bp, 0, n);
	s->nstop_cores = 0;
	s->last_bp = 0;
	session_sync_bps(s);
	s->running = 1;
	history_before_run(s);
	return 0;
}

void
resume_end(struct session *s)
{
	s->running = 0;
	s->run.nibps = 0;
}

/*
 * The watched words for an engine that watches, in s->runwatch; 0 if
 * the engine cannot (not ops->watch, or a word that cannot be read:
 * watch_check reports that after every step).
 */
static int
engine_watches(struct session *s, size_t *n)
{
	*n = 0;
	if (!s->e.ops->watch)
		return 0;
	for (size_t i = 0; i < s->bps.n; i++) {
		const struct bp *b = &s->bps.v[i];
		struct engine_watch *w;
		int32_t v;
		char *cause = NULL;

		if (b->kind != BP_WATCH || !b->enabled)
			continue;
		if (watch_value(s, b, &v, &cause) != 0) {
			free(cause);
			return 0;
		}
		s->runwatch = xreallocarray(s->runwatch, *n + 1,
		    sizeof *s->runwatch);
		w = &s->runwatch[(*n)++];
		w->addr = b->waddr;
		w->core = b->wkind == WATCH_LOCAL ? b->wcore : 0;
		w->value = b->wvalue;
		w->frame = b->wkind == WATCH_LOCAL ? b->wframe : INT32_MIN;
	}
	return 1;
}

/* The engine's writers of the step it stopped after, for watch_check. */
static void
engine_writers(struct session *s, const struct engine_stop *st)
{
	s->nwriters = 0;
	if (!st->watched || st->nwriters == 0)
		return;
	if (st->nwriters > s->capwriters) {
		s->capwriters = st->nwriters;
		s->writers = xreallocarray(s->writers, s->capwriters,
		    sizeof *s->writers);
	}
	memcpy(s->writers, st->writers, st->nwriters * sizeof *s->writers);
	s->nwriters = st->nwriters;
}

/* A breakpoint hit: (breakpoint, core), or an error evaluating it. */
struct hit {
	uint32_t	 id;
	uint32_t	 core;
	int32_t		 pc;
	char		*error;
};

static int
hit_cmp(const void *a, const void *b)
{
	const struct hit *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->pc != y->pc)
		return x->pc < y->pc ? -1 : 1;
	return x->core < y->core ? -1 : x->core > y->core;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The user breakpoints core c stops at (hit.c decides): append their
 * hits, with the error of a condition that could not be evaluated.
 */
static void
user_hits(struct session *s, uint32_t c, struct hit **hits, size_t *n,
    size_t *cap)
{
	const struct core *core = &s->m.cores[c];

	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		char *err = NULL;

		if (!hit_test(s, b, c, &err))
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*hits = xreallocarray(*hits, *cap, sizeof **hits);
		}
		(*hits)[*n].id = b->id;
		(*hits)[*n].core = c;
		(*hits)[*n].pc = b->on_mpc ? (int32_t)core->mpc : core->pc;
		(*hits)[(*n)++].error = err;
	}
}

static void
report_value_returned(struct session *s, struct buf *out)
{
	int32_t v = s->m.cores[s->run.core].tos;

	s->values = xreallocarray(s->values, s->nvalues + 1,
	    sizeof *s->values);
	s->values[s->nvalues++] = v;
	buf_printf(out, "run till exit from %s: value returned $%zu = %d\n",
	    s->run.what ? s->run.what : "the method", s->nvalues, v);
}

/* Breakpoint stop from the engine: how many reports stop the run. */
static int
resume_breakpoints(struct session *s, const struct engine_stop *st,
    struct buf *out)
{
	struct resume *r = &s->run;
	struct hit *hits = NULL;
	size_t nhits = 0, caphits = 0, i, j;
	uint32_t *cores = xcalloc(st->ncores ? st->ncores : 1, sizeof *cores);
	int reports = 0, internal = -1, skip = 0;
	uint32_t *del = NULL;
	size_t ndel = 0;

	if (st->ncores > 0)
		memcpy(cores, st->cores, st->ncores * sizeof *cores);
	qsort(cores, st->ncores, sizeof *cores, u32_cmp);
	for (i = 0; i < st->ncores; i++) {
		uint32_t c = cores[i];
		const struct core *core = &s->m.cores[c];

		if (c == r->core && session_at_boundary(s, c)) {
			for (j = 0; j < r->nibps; j++)
				if (r->ibps[j].pc == core->pc &&
				    (r->ibps[j].lv < 0 ||
				    r->ibps[j].lv == core->lv) &&
				    (internal < 0 || r->ibps[j].kind ==
				    IBP_DONE))
					internal = r->ibps[j].kind;
		}
		user_hits(s, c, &hits, &nhits, &caphits);
	}
	free(cores);
	if (nhits > 1)
		qsort(hits, nhits, sizeof *hits, hit_cmp);
	for (i = 0; i < nhits; i = j) {
		struct bp *b = bp_find(&s->bps, hits[i].id);
		uint32_t *hc;
		size_t nc = 0, m;
		int err = 0;

		for (j = i; j < nhits && hits[j].id == hits[i].id &&
		    hits[j].pc == hits[i].pc; j++)
			err |= hits[j].error != NULL;
		/* one hit per breakpoint and step, whatever its locations
		 * and cores (hit.c): counted at its first group */
		if (i == 0 || hits[i - 1].id != hits[i].id) {
			for (m = j; m < nhits && hits[m].id == hits[i].id; m++)
				err |= hits[m].error != NULL;
			skip = !hit_count(b, err);
		}
		if (skip)
			continue;
		hc = xcalloc(j - i, sizeof *hc);
		for (size_t k = i; k < j; k++) {
			if (hits[k].error != NULL) {
				buf_printf(out, "error in the condition of "
				    "breakpoint %u on core %u: %s\n", b->id,
				    hits[k].core, hits[k].error);
			}
			hc[nc++] = hits[k].core;
		}
		hit_report(s, b, hc, nc, hits[i].pc, out);
		free(hc);
		if (b->temporary) {
			del = xreallocarray(del, ndel + 1, sizeof *del);
			del[ndel++] = b->id;
		}
		reports++;
	}
	for (i = 0; i < nhits; i++)
		free(hits[i].error);
	free(hits);
	for (i = 0; i < ndel; i++) {
		if (bp_find(&s->bps, del[i]) != NULL)
			bp_delete(&s->bps, del[i]);
		s->bps_dirty = 1;
	}
	free(del);
	if (internal == IBP_DONE) {
		if (r->kind == RESUME_FINISH)
			report_value_returned(s, out);
		stop_note_cores(s, &r->core, 1);
		reports++;
	} else if (internal == IBP_HALT) {
		buf_printf(out, "core %u reached HALT (stopped before it)\n",
		    r->core);
		stop_note_cores(s, &r->core, 1);
		reports++;
	}
	return reports;
}

/* The facts of a group's fault (engine_fault_facts): the group shares
 * the fault and the PC, not necessarily the index, so facts that differ
 * between its cores are those of the first, which is named. */
static void
fault_facts(struct session *s, const uint32_t *group, size_t n,
    struct buf *out)
{
	struct buf first = { 0 }, other = { 0 };
	int same = 1;

	engine_fault_facts(&s->e, group[0], s->level != LEVEL_ISA, &first);
	for (size_t k = 1; k < n && same && first.len > 0; k++) {
		other.len = 0;
		engine_fault_facts(&s->e, group[k], s->level != LEVEL_ISA,
		    &other);
		same = other.len == first.len &&
		    memcmp(other.data, first.data, first.len) == 0;
	}
	if (first.len > 0)
		buf_put(out, first.data, first.len);
	if (!same)
		buf_printf(out, " on core %u", group[0]);
	buf_free(&first);
	buf_free(&other);
}

/* Cores that faulted in the last step, grouped by fault and place. */
static void
report_faults(struct session *s, const struct engine_stop *st,
    struct buf *out)
{
	uint32_t *cores = xcalloc(st->ncores ? st->ncores : 1, sizeof *cores);
	uint8_t *done = xcalloc(st->ncores ? st->ncores : 1, 1);

	if (st->ncores > 0)
		memcpy(cores, st->cores, st->ncores * sizeof *cores);
	qsort(cores, st->ncores, sizeof *cores, u32_cmp);
	for (size_t i = 0; i < st->ncores; i++) {
		const struct core *ci = &s->m.cores[cores[i]];
		uint32_t *group;
		size_t n = 0;

		if (done[i])
			continue;
		group = xcalloc(st->ncores, sizeof *group);
		for (size_t k = i; k < st->ncores; k++) {
			const struct core *ck = &s->m.cores[cores[k]];

			if (!done[k] && ck->fault == ci->fault &&
			    ck->fault_pc == ci->fault_pc &&
			    ck->prog == ci->prog) {
				done[k] = 1;
				group[n++] = cores[k];
			}
		}
		coreset_format_cores(out, group, n, DBG_MAX_LISTED);
		if (s->m.cfg.ncores > 1)
			buf_printf(out, " [%zu of %u]", n, s->m.cfg.ncores);
		buf_printf(out, " faulted: %s", ijvm_fault_message(ci->fault));
		fault_facts(s, group, n, out);
		buf_printf(out, " at ");
		session_describe_pc(s, cores[i], ci->fault_pc, out);
		buf_printf(out, "\n");
		stop_note_cores(s, group, n);
		free(group);
	}
	free(done);
	free(cores);
}

static void
report_done(struct session *s, struct buf *out)
{
	struct ref_summary sum;

	ref_count(&s->m, &sum);
	if (sum.faulted == 0)
		buf_printf(out, "all cores halted\n");
	else if (sum.halted == 0)
		buf_printf(out, "all cores faulted\n");
	else
		buf_printf(out, "all cores stopped: %u halted, %u faulted\n",
		    sum.halted, sum.faulted);
}

static void
report_deadlock(struct session *s, struct buf *out)
{
	uint32_t *w = NULL;
	size_t n = 0;

	for (uint32_t c = 0; c < s->m.cfg.ncores; c++)
		if (s->m.cores[c].status == CORE_WAITING &&
		    (s->lock == LOCK_OFF || s->lockmask[c])) {
			w = xreallocarray(w, n + 1, sizeof *w);
			w[n++] = c;
		}
	buf_printf(out, "deadlock: ");
	if (n > 0) {
		coreset_format_cores(out, w, n, DBG_MAX_LISTED);
		buf_printf(out, " %s at a barrier that cannot complete",
		    n == 1 ? "waits" : "wait");
	} else
		buf_printf(out, "no core can run");
	if (s->lock != LOCK_OFF)
		buf_printf(out, " while scheduler-locking keeps the other "
		    "cores still (set scheduler-locking off)");
	buf_printf(out, "\n");
	free(w);
}

/*
 * step at a micro level: the focused core has finished an instruction
 * in this micro-step (1: it ran a cycle and is at a boundary now), it
 * can run no more (2), or neither (0).
 */
static int
boundary_reached(struct session *s, uint32_t core, uint64_t cycles_before)
{
	const struct core *c = &s->m.cores[core];

	if (c->status == CORE_HALTED || c->status == CORE_ERROR)
		return 2;
	return c->cycles != cycles_before && session_at_boundary(s, core);
}

/* The run is over: focus, divergence sample, where the focus is. */
static void
finish_stop(struct session *s, struct buf *out)
{
	int in = 0;

	resume_end(s);
	if (s->nstop_cores > 0) {
		qsort(s->stop_cores, s->nstop_cores, sizeof *s->stop_cores,
		    u32_cmp);
		for (size_t i = 0; i < s->nstop_cores && !in; i++)
			in = s->stop_cores[i] == s->focus;
		if (!in)
			session_set_focus(s, s->stop_cores[0], out);
	}
	s->list_next = -1;
	s->list_first = -1;
	div_sample(&s->div, &s->m, s->level != LEVEL_ISA);
	session_where(s, s->focus, out);
	session_stopped(s, out);
}

int
session_poll(struct session *s, uint64_t budget, struct buf *out,
    char **cause)
{
	struct resume *r = &s->run;

	if (!s->running)
		return 0;
	s->gen++;
	while (budget > 0) {
		struct engine_run er;
		struct engine_stop st;
		size_t nwatch = bp_count(&s->bps, BP_WATCH, 1), nb, nrw = 0;
		uint64_t n = budget, cycles_before = s->m.cores[r->core].cycles;
		int reports = 0, ewatch = 0;

		if (r->left < n)
			n = r->left;
		if (nwatch > 0)
			ewatch = engine_watches(s, &nrw);
		if ((nwatch > 0 && !ewatch) || r->boundaries ||
		    session_tracing(s))
			n = 1;	/* a trace records every step (cmd-trace.c) */
		if (s->cfg.max_steps != 0) {
			if (s->m.step >= s->cfg.max_steps) {
				buf_printf(out, "step limit reached: %llu steps "
				    "(the session's --max-steps, maxSteps in "
				    "DAP: a new session with a larger one goes "
				    "further)\n",
				    (unsigned long long)s->cfg.max_steps);
				finish_stop(s, out);
				return 0;
			}
			if (s->cfg.max_steps - s->m.step < n)
				n = s->cfg.max_steps - s->m.step;
		}
		session_sync_bps(s);
		nb = s->nebps + r->nibps;
		if (nb > s->caprunbps) {
			s->caprunbps = nb;
			s->runbps = xreallocarray(s->runbps, nb,
			    sizeof *s->runbps);
		}
		if (s->nebps > 0)
			memcpy(s->runbps, s->ebps, s->nebps * sizeof *s->ebps);
		for (size_t i = 0; i < r->nibps; i++) {
			struct engine_bp *eb = &s->runbps[s->nebps + i];

			eb->id = IBP_ID | (uint32_t)i;
			eb->pc = r->ibps[i].pc;
			eb->cores = r->core_mask;
			eb->on = ENGINE_BP_ON_PC;
		}
		memset(&er, 0, sizeof er);
		er.max_steps = n;
		er.bps = s->runbps;
		er.nbps = nb;
		er.stop_on_fault = s->stop_on_fault;
		er.mask = s->lock != LOCK_OFF ? s->lockmask : NULL;
		er.interrupt = &s->interrupt;
		if (ewatch) {
			er.watches = s->runwatch;
			er.nwatches = nrw;
		} else if (nwatch > 0)
			watch_prepare(s);
		if (s->e.ops->run(&s->e, &er, &st, cause) != 0) {
			resume_end(s);
			return -1;
		}
		if (st.steps_run > 0)
			s->dirty = 1;
		budget -= st.steps_run < budget ? st.steps_run : budget;
		if (!r->boundaries)
			r->left -= st.steps_run < r->left ? st.steps_run :
			    r->left;
		else if (st.steps_run > 0 && r->left > 0) {
			int b = boundary_reached(s, r->core, cycles_before);

			r->left = b == 2 ? 0 : r->left - (uint64_t)b;
		}
		if (ewatch)
			engine_writers(s, &st);
		else if (nwatch > 0 && s->level != LEVEL_ISA)
			watch_micro_writers(s);
		session_drain_output(s);
		history_after_slice(s);
		if (nwatch > 0)
			reports += watch_check(s, out);
		switch (st.reason) {
		case STOP_BREAKPOINT:
			reports += resume_breakpoints(s, &st, out);
			break;
		case STOP_FAULT:
			report_faults(s, &st, out);
			if (can_run(s, NULL) == 0)
				report_done(s, out);
			reports++;
			break;
		case STOP_DONE:
			report_done(s, out);
			reports++;
			break;
		case STOP_DEADLOCK:
			report_deadlock(s, out);
			reports++;
			break;
		case STOP_INTERRUPT:
			buf_printf(out, "interrupted\n");
			s->interrupt = 0;
			reports++;
			break;
		case STOP_STEPS:
			break;
		}
		if (st.steps_run > 0)
			session_trace_step(s, st.reason == STOP_BREAKPOINT &&
			    reports > 0);
		if (reports == 0 && r->kind == RESUME_STEP && r->left == 0)
			reports++;
		if (reports > 0) {
			finish_stop(s, out);
			return 0;
		}
		if (st.steps_run == 0) {
			/* an engine that neither steps nor stops would
			 * otherwise keep the front end polling forever */
			buf_printf(out, "stopped: the engine ran no step\n");
			finish_stop(s, out);
			return 0;
		}
	}
	return 1;
}

int
session_wait(struct session *s, struct buf *out, char **cause)
{
	int rc;

	/* Fixed slices keep the transcript's output order deterministic. */
	while ((rc = session_poll(s, 1024, out, cause)) == 1)
		;
	return rc;
}
