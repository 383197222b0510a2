/*
 * Perfetto traces (doc/debugger.md section 5): the Trace Event Format
 * JSON that ui.perfetto.dev and chrome://tracing open, one microsecond of
 * trace time per global step (an ISA step or a micro-cycle), so that the
 * viewer's time axis reads as steps.
 *
 * Process 0, "machine", holds the counters:
 *   "warp W"           active lanes and program paths (div.c) of warp W,
 *                      and k, the kernel paths, when the engine records
 *                      them; written when they change, as a counter track
 *                      holds its value until the next event;
 *   "warps"            min, mean and max of active lanes and paths over
 *                      all warps, when not every warp has its own track;
 *   "SIMD efficiency"  active / (W x paths) over the machine, in percent,
 *                      the "now" of info divergence;
 *   "cores"            running, waiting, halted, faulted and joining
 *                      cores, the counts of info cores;
 * each of them written, like "warp W", only when it changes;
 * and the marks (reverse execution, a level switch) as global instants.
 * Process 1, "cores", has a track per traced core: the method frames as
 * nested B/E slices named by method (opened at the boundary after an
 * INVOKEVIRTUAL, closed at the one after its IRETURN: LV names the
 * frame), barrier and join waits as slices inside them, breakpoints hit
 * and faults as instants; at a micro level each micro-cycle is a one-step
 * slice named by its microinstruction's label (its MAL text when it has
 * none).  The size is bounded by the traced cores and warps (trace.h),
 * not by the machine.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "ijvm.h"
#include "places.h"
#include "trace-int.h"

/* What the track of one traced core remembers between steps. */
struct pf_core {
	int32_t		*lv;        /* the open frames' LVs, outermost first */
	uint32_t	 depth, cap;
	uint8_t		 status;
	uint8_t		 waiting;   /* a wait slice is open */
	uint16_t	 mpc;       /* the micro-instruction it runs next */
	uint64_t	 cycles;
};

struct pf {
	struct pf_core	*core;      /* per traced core (t->list order) */
	uint32_t	*active;    /* per warp: the counters last written */
	uint32_t	*paths;
	uint32_t	*k;
	uint8_t		*written;   /* per warp: any counter written */
	double		 eff;       /* the machine's counters last written */
	struct ref_summary sum;
	struct trace_warp_sums ws;  /* the summary last written */
	int		 machine_written;
	int		 events;    /* events written (comma before the next) */
};

/* Start an event: the separator, then {"ph":"X","pid":P,"ts":T, */
static void
ev(struct trace *t, char ph, int pid, uint64_t ts)
{
	struct pf *pf = t->st;
	char head[] = ",\n{\"ph\":\"X\",\"pid\":0,\"ts\":";

	head[9] = ph;
	head[18] = (char)('0' + pid);
	if (pf->events++)
		trace_put(t, head, sizeof head - 1);
	else
		trace_put(t, head + 2, sizeof head - 3);
	trace_putu(t, ts);
	trace_putc(t, ',');
}

static void
meta(struct trace *t, int pid, int tid, const char *what, const char *name)
{
	struct pf *pf = t->st;

	trace_putf(t, "%s{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":"
	    "\"%s\",\"args\":{\"name\":\"", pf->events++ ? ",\n" : "", pid,
	    tid, what);
	trace_json_text(t, name);
	trace_puts(t, "\"}}");
}

/* A slice begins (B) or ends (E) on core's track. */
static void
slice(struct trace *t, char ph, uint32_t core, uint64_t ts,
    const char *name)
{
	ev(t, ph, 1, ts);
	trace_puts(t, "\"tid\":");
	trace_putu(t, core);
	if (name != NULL) {
		trace_puts(t, ",\"name\":\"");
		trace_json_text(t, name);
		trace_putc(t, '"');
	}
	trace_putc(t, '}');
}

static void
instant(struct trace *t, uint32_t core, uint64_t ts, const char *name)
{
	ev(t, 'i', 1, ts);
	trace_puts(t, "\"tid\":");
	trace_putu(t, core);
	trace_puts(t, ",\"s\":\"t\",\"name\":\"");
	trace_json_text(t, name);
	trace_puts(t, "\"}");
}

static void
places_of(const struct trace_view *v, struct places *p)
{
	memset(p, 0, sizeof *p);
	p->m = v->m;
	p->level = v->level;
	p->level_state = v->level_state;
	p->focus = UINT32_MAX;
}

/* The method core runs: its name, or "main" before main's first opcode
 * (the micro levels' start state). */
static const char *
method_of(const struct trace_view *v, uint32_t core)
{
	const struct core *c = &v->m->cores[core];
	struct places p;
	const char *name;

	places_of(v, &p);
	name = places_method_name(v->m->progs[c->prog],
	    places_insn_pc(&p, core));
	return name != NULL ? name : "main";
}

static void
push_frame(struct trace *t, const struct trace_view *v, struct pf_core *pc,
    uint32_t core, uint64_t ts)
{
	if (pc->depth == pc->cap) {
		pc->cap = pc->cap ? 2 * pc->cap : 8;
		pc->lv = xreallocarray(pc->lv, pc->cap, sizeof *pc->lv);
	}
	pc->lv[pc->depth++] = v->m->cores[core].lv;
	slice(t, 'B', core, ts, method_of(v, core));
}

static void
close_wait(struct trace *t, struct pf_core *pc, uint32_t core, uint64_t ts)
{
	if (pc->waiting) {
		slice(t, 'E', core, ts, NULL);
		pc->waiting = 0;
	}
}

static void
close_frames(struct trace *t, struct pf_core *pc, uint32_t core,
    uint32_t depth, uint64_t ts)
{
	for (; pc->depth > depth; pc->depth--)
		slice(t, 'E', core, ts, NULL);
}

static int
ended(int status)
{
	return status == CORE_HALTED || status == CORE_ERROR;
}

/* The frames after a step: a return closes the frames above the one
 * whose LV the core has again, a call opens one. */
static void
frames(struct trace *t, const struct trace_view *v, struct pf_core *pc,
    uint32_t core, uint64_t ts)
{
	int32_t lv = v->m->cores[core].lv;
	uint32_t d;

	if (pc->depth > 0 && pc->lv[pc->depth - 1] == lv)
		return;
	if (!trace_at_boundary(v, core))
		return;
	for (d = pc->depth; d > 0 && pc->lv[d - 1] != lv; d--)
		;
	if (d > 0)
		close_frames(t, pc, core, d, ts);
	else
		push_frame(t, v, pc, core, ts);
}

/* The label of the micro-instruction at mpc, or its text. */
static void
micro_slice(struct trace *t, const struct trace_view *v, uint32_t core,
    uint32_t mpc, uint64_t ts)
{
	const struct mal_sym *sym = v->syms ? mal_syms_at(v->syms, mpc) : NULL;

	ev(t, 'X', 1, ts);
	trace_puts(t, "\"tid\":");
	trace_putu(t, core);
	trace_puts(t, ",\"dur\":1,\"name\":\"");
	if (sym != NULL && sym->label != NULL)
		trace_json_text(t, sym->label);
	else if (sym != NULL && sym->text != NULL)
		trace_json_text(t, sym->text);
	else
		trace_putf(t, "0x%03x", mpc);
	trace_puts(t, "\"}");
}

static void
core_track(struct trace *t, const struct trace_view *v, uint32_t i)
{
	struct pf *pf = t->st;
	struct pf_core *pc = &pf->core[i];
	uint32_t core = t->list[i];
	const struct core *c = &v->m->cores[core];
	uint64_t ts = v->m->step;
	int was_waiting = pc->status == CORE_WAITING ||
	    pc->status == CORE_JOINING;
	int waits = c->status == CORE_WAITING || c->status == CORE_JOINING;

	if (v->level != LEVEL_ISA && c->cycles != pc->cycles && ts > 0)
		micro_slice(t, v, core, pc->mpc, ts - 1);
	if (was_waiting && !waits)
		close_wait(t, pc, core, ts);
	if (v->at_bp != NULL && v->at_bp[core])
		instant(t, core, ts, "breakpoint");
	if (!ended(pc->status)) {
		if (!ended(c->status))
			frames(t, v, pc, core, ts);
		if (c->status == CORE_ERROR) {
			char *what = xasprintf("fault: %s",
			    ijvm_fault_message(c->fault));

			instant(t, core, ts, what);
			free(what);
		}
		if (ended(c->status)) {
			close_wait(t, pc, core, ts);
			close_frames(t, pc, core, 0, ts);
		}
	}
	if (waits && !pc->waiting) {
		slice(t, 'B', core, ts, c->status == CORE_WAITING ?
		    "barrier wait" : "join wait");
		pc->waiting = 1;
	}
	pc->status = c->status;
	pc->mpc = c->mpc;
	pc->cycles = c->cycles;
}

static void
counters(struct trace *t, const struct trace_view *v)
{
	struct pf *pf = t->st;
	struct trace_warps tw;
	uint64_t ts = v->m->step;
	struct trace_warp_sums ws;
	double eff;
	struct ref_summary sum;

	trace_warps_begin(v, &tw);
	/* over every warp first: from the engine's records made with the
	 * records' own pass (doc/performance.md section 25.4) */
	trace_warp_sums(v, &tw, &ws);
	/* then the warps with counters of their own */
	for (uint32_t j = 0; j < t->nwlist; j++) {
		uint32_t i = t->wlist[j], na, np, k;

		(void)trace_warp_at(v, &tw, i, &na, &np, &k);
		if ((pf->written[i] && pf->active[i] == na &&
		    pf->paths[i] == np && pf->k[i] == k))
			continue;
		ev(t, 'C', 0, ts);
		trace_putf(t, "\"name\":\"warp %u\",\"args\":{\"active\":%u,"
		    "\"paths\":%u", i, na, np);
		if (tw.have_k)
			trace_putf(t, ",\"k\":%u", k);
		trace_putf(t, "}}");
		pf->written[i] = 1;
		pf->active[i] = na;
		pf->paths[i] = np;
		pf->k[i] = k;
	}
	/* the summary too only when it changes: a machine in step keeps it
	 * for long stretches */
	if (t->summary && (!pf->machine_written || ws.amin != pf->ws.amin ||
	    ws.amax != pf->ws.amax || ws.pmin != pf->ws.pmin ||
	    ws.pmax != pf->ws.pmax || ws.active != pf->ws.active ||
	    ws.paths != pf->ws.paths)) {
		ev(t, 'C', 0, ts);
		trace_putf(t, "\"name\":\"warps\",\"args\":{\"min active\":%u,"
		    "\"mean active\":%.2f,\"max active\":%u,\"min paths\":%u,"
		    "\"mean paths\":%.2f,\"max paths\":%u}}", ws.amin,
		    (double)ws.active / t->nwarps, ws.amax, ws.pmin,
		    (double)ws.paths / t->nwarps, ws.pmax);
		pf->ws = ws;
	}
	/* info divergence's "now" (cmd-info.c), to its one decimal */
	eff = ws.paths > 0 ? 100.0 * (double)ws.active / ((double)t->width *
	    (double)ws.paths) : 0.0;
	eff = (double)(int64_t)(eff * 10 + 0.5) / 10;
	if (!pf->machine_written || eff != pf->eff) {
		ev(t, 'C', 0, ts);
		trace_putf(t, "\"name\":\"SIMD efficiency\",\"args\":"
		    "{\"percent\":%.1f}}", eff);
	}
	trace_status(v, &sum);
	if (!pf->machine_written || sum.running != pf->sum.running ||
	    sum.waiting != pf->sum.waiting || sum.halted != pf->sum.halted ||
	    sum.faulted != pf->sum.faulted || sum.joining != pf->sum.joining) {
		ev(t, 'C', 0, ts);
		trace_putf(t, "\"name\":\"cores\",\"args\":{\"running\":%u,"
		    "\"waiting\":%u,\"halted\":%u,\"faulted\":%u,"
		    "\"joining\":%u}}", sum.running, sum.waiting, sum.halted,
		    sum.faulted, sum.joining);
	}
	pf->eff = eff;
	pf->sum = sum;
	pf->machine_written = 1;
}

static void
pf_start(struct trace *t, const struct trace_view *v)
{
	struct pf *pf = xcalloc(1, sizeof *pf);
	char name[32];

	t->st = pf;
	pf->core = xcalloc(t->nlist, sizeof *pf->core);
	pf->active = xcalloc(t->nwarps, sizeof *pf->active);
	pf->paths = xcalloc(t->nwarps, sizeof *pf->paths);
	pf->k = xcalloc(t->nwarps, sizeof *pf->k);
	pf->written = xcalloc(t->nwarps, 1);
	trace_putf(t, "{\"displayTimeUnit\":\"ns\",\"otherData\":"
	    "{\"generator\":\"micdb\",\"time\":\"1 us per %s\"},"
	    "\"traceEvents\":[\n", v->level == LEVEL_ISA ? "step" :
	    "micro-cycle");
	meta(t, 0, 0, "process_name", "machine");
	meta(t, 1, 0, "process_name", "cores");
	for (uint32_t i = 0; i < t->nlist; i++) {
		snprintf(name, sizeof name, "core %u", t->list[i]);
		meta(t, 1, (int)t->list[i], "thread_name", name);
	}
	counters(t, v);
	for (uint32_t i = 0; i < t->nlist; i++) {
		struct pf_core *pc = &pf->core[i];
		const struct core *c = &v->m->cores[t->list[i]];

		pc->status = c->status;
		pc->mpc = c->mpc;
		pc->cycles = c->cycles;
		if (!ended(c->status))
			push_frame(t, v, pc, t->list[i], v->m->step);
		if (c->status == CORE_WAITING || c->status == CORE_JOINING) {
			slice(t, 'B', t->list[i], v->m->step,
			    c->status == CORE_WAITING ? "barrier wait" :
			    "join wait");
			pc->waiting = 1;
		}
	}
}

static void
pf_record(struct trace *t, const struct trace_view *v)
{
	counters(t, v);
	for (uint32_t i = 0; i < t->nlist; i++)
		core_track(t, v, i);
}

static void
pf_mark(struct trace *t, const struct trace_view *v, const char *what)
{
	/* at the last step recorded: a global instant must not go back */
	(void)v;
	ev(t, 'i', 0, t->last_step);
	trace_putf(t, "\"tid\":0,\"s\":\"g\",\"name\":\"");
	trace_json_text(t, what);
	trace_putf(t, "\"}");
}

static void
pf_finish(struct trace *t)
{
	struct pf *pf = t->st;

	for (uint32_t i = 0; i < t->nlist; i++) {
		close_wait(t, &pf->core[i], t->list[i], t->last_step);
		close_frames(t, &pf->core[i], t->list[i], 0, t->last_step);
	}
	trace_putf(t, "\n]}\n");
}

static void
pf_free(struct trace *t)
{
	struct pf *pf = t->st;

	if (pf == NULL)
		return;
	for (uint32_t i = 0; i < t->nlist; i++)
		free(pf->core[i].lv);
	free(pf->core);
	free(pf->active);
	free(pf->paths);
	free(pf->k);
	free(pf->written);
	free(pf);
	t->st = NULL;
}

const struct trace_fmt trace_fmt_perfetto = {
	.name = "perfetto",
	.start = pf_start,
	.record = pf_record,
	.mark = pf_mark,
	.finish = pf_finish,
	.free = pf_free,
	.counters = TRACE_COUNTERS,
};
