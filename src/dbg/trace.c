/*
 * The trace writer (trace.h, doc/debugger.md section 5): the options
 * (format, traced cores), the file through struct atomic_file, the rule
 * that a step is recorded once however often the user goes back over it,
 * and the JSON lines format that `micdb run --trace` always wrote.
 *
 * JSON lines: one object per step, {"step":N,"cores":[{"core":0,"pc":..,
 * "sp":..,"lv":..,"tos":..,"status":"running","steps":..}, ...]}, for the
 * traced cores; a mark is {"step":N,"mark":"..."}.  No line for the
 * state at open, so that a run's file has one line per step it ran.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "coreset.h"
#include "par.h"
#include "trace-int.h"
#include "tracebuf.h"

static const struct trace_fmt trace_fmt_jsonl;

static const struct {
	const char		*name;
	enum trace_format	 format;
	const struct trace_fmt	*fmt;
} formats[] = {
	{ "jsonl",    TRACE_JSONL,    &trace_fmt_jsonl },
	{ "perfetto", TRACE_PERFETTO, &trace_fmt_perfetto },
	{ "vcd",      TRACE_VCD,      &trace_fmt_vcd },
	{ "svg",      TRACE_SVG,      &trace_fmt_svg },
};
#define NFORMATS (sizeof formats / sizeof formats[0])

int
trace_format_parse(const char *name, enum trace_format *f, char **cause)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (strcmp(name, formats[i].name) == 0) {
			*f = formats[i].format;
			return 0;
		}
	*cause = xasprintf("unknown trace format '%s' (use jsonl, perfetto, "
	    "vcd or svg)", name);
	return -1;
}

const char *
trace_format_name(enum trace_format f)
{
	return formats[f].name;
}

enum trace_format
trace_format_of(const char *path)
{
	if (ends_with(path, ".json"))
		return TRACE_PERFETTO;
	if (ends_with(path, ".vcd"))
		return TRACE_VCD;
	if (ends_with(path, ".svg"))
		return TRACE_SVG;
	return TRACE_JSONL;
}

/* The traced cores: the set given, else the first warp. */
static int
choose_cores(struct trace *t, const char *cores, char **cause)
{
	uint32_t first = t->width < t->ncores ? t->width : t->ncores;

	if (cores != NULL) {
		char *why = NULL;

		if (coreset_parse(cores, t->ncores, &t->cores, &why) != 0) {
			*cause = xasprintf("trace cores: %s", why);
			free(why);
			return -1;
		}
		t->cores_text = xstrdup(cores);
	} else {
		t->cores = xcalloc(t->ncores, 1);
		memset(t->cores, 1, first);
		t->cores_text = first == 1 ? xstrdup("0") :
		    xasprintf("0-%u", first - 1);
	}
	t->list = xcalloc(t->ncores, sizeof *t->list);
	for (uint32_t c = 0; c < t->ncores; c++)
		if (t->cores[c])
			t->list[t->nlist++] = c;
	if (t->nlist == 0) {
		*cause = xasprintf("the trace's core set '%s' has no core",
		    cores);
		return -1;
	}
	/* every warp of a small machine, else the traced cores' warps and
	 * the summary over all */
	t->warps = xcalloc(t->nwarps, 1);
	if (t->nwarps <= TRACE_ALL_WARPS)
		memset(t->warps, 1, t->nwarps);
	else {
		for (uint32_t i = 0; i < t->nlist; i++)
			t->warps[t->list[i] / t->width] = 1;
		t->summary = 1;
	}
	t->wlist = xcalloc(t->nwarps, sizeof *t->wlist);
	for (uint32_t w = 0; w < t->nwarps; w++)
		if (t->warps[w])
			t->wlist[t->nwlist++] = w;
	return 0;
}

static void
trace_free(struct trace *t)
{
	if (t->fmt != NULL && t->fmt->free != NULL)
		t->fmt->free(t);
	free(t->cores);
	free(t->list);
	free(t->cores_text);
	free(t->warps);
	free(t->wlist);
	free(t->obuf);
	free(t->kcarry);
	free(t->shadow_cores);
	free(t->shadow_k);
	free(t->sums);
	free(t);
}

int
trace_open(struct trace **tp, const char *path, const char *format,
    const char *cores, const struct trace_view *v, char **cause)
{
	struct trace *t = xcalloc(1, sizeof *t);

	t->ncores = v->m->cfg.ncores;
	t->width = v->m->cfg.warp_width;
	t->nwarps = (t->ncores + t->width - 1) / t->width;
	t->level = v->level;
	t->format = trace_format_of(path);
	if (format != NULL && trace_format_parse(format, &t->format,
	    cause) != 0) {
		trace_free(t);
		return -1;
	}
	if (choose_cores(t, cores, cause) != 0) {
		trace_free(t);
		return -1;
	}
	if (atomic_open(&t->af, path, cause) != 0) {
		trace_free(t);
		return -1;
	}
	t->fmt = formats[t->format].fmt;
	t->obuf = xmalloc(TRACE_OBUF);
	t->first_step = t->last_step = v->m->step;
	t->fmt->start(t, v);
	*tp = t;
	return 0;
}

int
trace_record(struct trace *t, const struct trace_view *v)
{
	if (atomic_failed(&t->af))
		return -1;
	if (v->m->step <= t->last_step)
		return 0;	/* recorded already, before the user went back */
	t->fmt->record(t, v);
	t->last_step = v->m->step;
	t->records++;
	return atomic_failed(&t->af) ? -1 : 0;
}

int
trace_engine_start(struct trace *t, const struct trace_view *v,
    uint32_t *max_steps)
{
	struct engine *e = v->e;
	const struct engine_warp_record *rec;
	size_t nrec = 0;
	char *cause = NULL;

	if (e == NULL || e->ops->trace_start == NULL ||
	    e->ops->trace_steps == NULL || e->ops->warps == NULL ||
	    v->level != t->level ||
	    (t->level != LEVEL_ISA && v->level_state == NULL))
		return -1;
	if (e->ops->trace_start(e, t->list, t->nlist, max_steps,
	    &cause) != 0) {
		free(cause);	/* the machine's path serves */
		return -1;
	}
	/* k as the warp records hold it now: a warp none of whose lanes
	 * runs a step keeps it */
	t->kcarry = xcalloc(t->nwarps, sizeof *t->kcarry);
	rec = e->ops->warps(e, &nrec);
	for (uint32_t i = 0; i < t->nwarps && i < nrec; i++)
		t->kcarry[i] = rec[i].last_k;
	t->shadow_cores = xcalloc(t->ncores, sizeof *t->shadow_cores);
	if (t->level == LEVEL_MIC)
		t->shadow_k = xcalloc(t->ncores, sizeof(struct mic1_core));
	else if (t->level == LEVEL_PMIC)
		t->shadow_k = xcalloc(t->ncores, sizeof(struct pmic_core));
	t->engine = 1;
	return 0;
}

/* struct core's 32-bit registers and their words in a traced core's
 * record (tracebuf.h): the first ISA_REGS at every level, the rest at a
 * micro level. */
static const struct {
	unsigned	word;
	size_t		off;
} regs[] = {
	{ TB_C_PC, offsetof(struct core, pc) },
	{ TB_C_SP, offsetof(struct core, sp) },
	{ TB_C_LV, offsetof(struct core, lv) },
	{ TB_C_TOS, offsetof(struct core, tos) },
	{ TB_C_MAR, offsetof(struct core, mar) },
	{ TB_C_MDR, offsetof(struct core, mdr) },
	{ TB_C_MBR, offsetof(struct core, mbr) },
	{ TB_C_CPP, offsetof(struct core, cpp) },
	{ TB_C_OPC, offsetof(struct core, opc) },
	{ TB_C_H, offsetof(struct core, h) },
};
#define ISA_REGS	4
#define ALL_REGS	(sizeof regs / sizeof regs[0])

/* regs[from] .. regs[to - 1] from the record cr into c. */
static void
put_regs(struct core *c, const uint32_t *cr, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		int32_t v = (int32_t)cr[regs[i].word];

		memcpy((char *)c + regs[i].off, &v, sizeof v);
	}
}

/* A traced core's micro-level words (tracebuf.h) into its struct core
 * and its level's side state. */
static void
engine_micro(struct trace *t, uint32_t core, const uint32_t *cr)
{
	struct core *c = &t->shadow_cores[core];

	put_regs(c, cr, ISA_REGS, ALL_REGS);
	c->mpc = (uint16_t)cr[TB_C_MPC];
	c->n = (uint8_t)(cr[TB_C_NZ] & 1);
	c->z = (uint8_t)(cr[TB_C_NZ] >> 1 & 1);
	c->cycles = (uint64_t)cr[TB_C_CYCLES_HI] << 32 | cr[TB_C_CYCLES_LO];
	if (t->level == LEVEL_MIC) {
		struct mic1_core *k = &t->shadow_mic.core[core];

		k->insn_pc = (int32_t)cr[TB_C_INSN_PC];
		k->mbr_addr = (int32_t)cr[TB_C_MBR_ADDR];
		k->mir = (uint64_t)cr[TB_C_MIR_HI] << 32 | cr[TB_C_MIR_LO];
		k->pending = (uint8_t)cr[TB_C_LATCH];
		k->mbr_state = (uint8_t)(cr[TB_C_LATCH] >> 8);
	} else {
		struct pmic_core *k = &t->shadow_pmic.core[core];

		k->insn_pc = (int32_t)cr[TB_C_INSN_PC];
		k->mbr_addr = (int32_t)cr[TB_C_MBR_ADDR];
		k->g0 = (int32_t)cr[TB_C_G0];
		k->g1 = (int32_t)cr[TB_C_G1];
		k->mbr_valid = (uint8_t)cr[TB_C_VALID];
		k->entry = (uint8_t)(cr[TB_C_VALID] >> 8);
	}
}

/* A thread's share of the records' sums (engine_sums): steps lo .. hi
 * - 1 of a run's records, of sw words each. */
struct sums_part {
	struct par_part		 r;
	const struct trace	*t;
	const uint32_t		*recs;
	size_t			 sw;
};

/* Per step, the cores per status and the sums over the warps from the
 * warps' words, read once for both. */
static void *
sums_part(void *arg)
{
	const struct sums_part *p = arg;
	const struct trace *t = p->t;

	for (uint64_t i = p->r.lo; i < p->r.hi; i++) {
		const uint32_t *r = p->recs + i * p->sw;
		struct trace_warp_sums ws = trace_sums_empty;
		uint32_t waiting = 0, halted = 0, faulted = 0, joining = 0;
		struct ref_summary *sum = &t->sums[i].sum;

		for (uint32_t w = 0; w < t->nwarps; w++, r += TB_WARP_WORDS) {
			uint32_t c0 = r[TB_W_COUNTS], c1 = r[TB_W_STATUS];

			trace_sums_add(&ws, c0 & 0xFF, c0 >> 8 & 0xFF);
			waiting += c1 & 0xFF;
			halted += c1 >> 8 & 0xFF;
			faulted += c1 >> 16 & 0xFF;
			joining += c1 >> 24;
		}
		memset(sum, 0, sizeof *sum);
		sum->running = (uint32_t)ws.active;
		sum->waiting = waiting;
		sum->halted = halted;
		sum->faulted = faulted;
		sum->joining = joining;
		t->sums[i].warps = ws;
	}
	return NULL;
}

/*
 * The counters of a run's n recorded steps into t->sums, for a format
 * that reads them: a pass over every warp's words of every step (400
 * KB a step at a million cores), split over host threads by steps, as
 * it is bound by memory traffic (doc/performance.md section 25.4).
 */
static void
engine_sums(struct trace *t, const uint32_t *recs, uint64_t n, size_t sw)
{
	struct sums_part part[PAR_MAX];
	uint32_t nt;

	if (t->fmt->counters == TRACE_NO_COUNTERS || n == 0)
		return;
	if (n > t->nsums) {
		free(t->sums);
		t->sums = xcalloc(n, sizeof *t->sums);
		t->nsums = n;
	}
	nt = par_threads(n * t->nwarps);
	if (nt > n)
		nt = (uint32_t)n;
	for (uint32_t i = 0; i < nt; i++)
		part[i] = (struct sums_part){ .t = t, .recs = recs, .sw = sw };
	par_split(n, nt, sums_part, part, sizeof part[0]);
}

/* Recorded step `step` of the run (its words r) into tc: its counters
 * (engine_sums) with the k each warp carries, and its traced cores'
 * registers into the shadow machine's cores. */
static void
engine_step(struct trace *t, uint64_t step, const uint32_t *r,
    struct trace_counts *tc)
{
	const uint32_t *cr = r + (size_t)TB_WARP_WORDS * t->nwarps;
	const uint32_t cw = TB_CORE_WORDS(t->level != LEVEL_ISA);
	uint32_t *restrict kc = t->kcarry;

	if (t->fmt->counters != TRACE_NO_COUNTERS) {
		tc->sum = t->sums[step].sum;
		tc->warps = t->sums[step].warps;
	}
	/* k as the warp records keep it, for the warps whose k is read */
	if (t->fmt->counters == TRACE_EVERY_K)
		for (uint32_t w = 0; w < t->nwarps; w++) {
			uint32_t k = r[(size_t)w * TB_WARP_WORDS +
			    TB_W_COUNTS] >> 16 & 0xFF;

			kc[w] = k != TB_K_NONE ? k : kc[w];
		}
	else if (t->fmt->counters == TRACE_COUNTERS)
		for (uint32_t j = 0; j < t->nwlist; j++) {
			uint32_t w = t->wlist[j], k = r[(size_t)w *
			    TB_WARP_WORDS + TB_W_COUNTS] >> 16 & 0xFF;

			kc[w] = k != TB_K_NONE ? k : kc[w];
		}
	tc->warp = r;
	for (uint32_t i = 0; i < t->nlist; i++, cr += cw) {
		struct core *c = &t->shadow_cores[t->list[i]];

		put_regs(c, cr, 0, ISA_REGS);
		c->status = (uint8_t)cr[TB_C_STATUS];
		c->fault = (uint8_t)cr[TB_C_FAULT];
		c->steps = (uint64_t)cr[TB_C_STEPS_HI] << 32 |
		    cr[TB_C_STEPS_LO];
		if (t->level != LEVEL_ISA)
			engine_micro(t, t->list[i], cr);
	}
}

/* The traced cores' entries of a per-core array (elements of size
 * bytes), from src into dst. */
static void
copy_traced(const struct trace *t, void *dst, const void *src, size_t size)
{
	for (uint32_t i = 0; i < t->nlist; i++)
		memcpy((char *)dst + (size_t)t->list[i] * size,
		    (const char *)src + (size_t)t->list[i] * size, size);
}

int
trace_record_engine(struct trace *t, const struct trace_view *v)
{
	struct engine *e = v->e;
	struct machine m = *v->m;
	struct trace_view sv = *v;
	struct trace_counts tc;
	size_t sw = TB_STEP_WORDS((size_t)t->nwarps, (size_t)t->nlist,
	    TB_CORE_WORDS(t->level != LEVEL_ISA));
	uint64_t first, n;
	const uint32_t *recs;

	if (!t->engine)
		return trace_record(t, v);
	recs = e->ops->trace_steps(e, &first, &n);
	/* what the records do not hold (the program, a micro level's
	 * device latches, ...) is the core's as the run left it */
	copy_traced(t, t->shadow_cores, v->m->cores, sizeof(struct core));
	if (t->level == LEVEL_MIC) {
		t->shadow_mic = *(const struct mic1_state *)v->level_state;
		copy_traced(t, t->shadow_k, t->shadow_mic.core,
		    sizeof(struct mic1_core));
		t->shadow_mic.core = t->shadow_k;
		sv.level_state = &t->shadow_mic;
	} else if (t->level == LEVEL_PMIC) {
		t->shadow_pmic = *(const struct pmic_state *)v->level_state;
		copy_traced(t, t->shadow_k, t->shadow_pmic.core,
		    sizeof(struct pmic_core));
		t->shadow_pmic.core = t->shadow_k;
		sv.level_state = &t->shadow_pmic;
	}
	m.cores = t->shadow_cores;
	sv.m = &m;
	sv.counts = &tc;
	memset(&tc, 0, sizeof tc);
	tc.k = t->kcarry;
	engine_sums(t, recs, n, sw);
	for (uint64_t i = 0; i < n; i++) {
		engine_step(t, i, recs + i * sw, &tc);
		m.step = first + i + 1;
		if (trace_record(t, &sv) != 0)
			return -1;
	}
	return v->m->step > first + n ? trace_record(t, v) : 0;
}

int
trace_mark(struct trace *t, const struct trace_view *v, const char *what)
{
	if (atomic_failed(&t->af))
		return -1;
	t->fmt->mark(t, v, what);
	t->marks++;
	return atomic_failed(&t->af) ? -1 : 0;
}

int
trace_close(struct trace *t, char **cause)
{
	int rc;

	if (!atomic_failed(&t->af)) {
		/* the SVG timeline writes straight to the file */
		trace_flush(t);
		t->fmt->finish(t);
		trace_flush(t);
	}
	rc = atomic_commit(&t->af, cause);
	trace_free(t);
	return rc;
}

void
trace_abort(struct trace *t)
{
	if (t == NULL)
		return;
	atomic_abort(&t->af);
	trace_free(t);
}

void
trace_describe(const struct trace *t, struct buf *out)
{
	buf_printf(out, "tracing to %s (%s, core%s %s): %llu step%s recorded "
	    "from step %llu to %llu", t->af.path, t->fmt->name,
	    t->nlist == 1 ? "" : "s", t->cores_text,
	    (unsigned long long)t->records, t->records == 1 ? "" : "s",
	    (unsigned long long)t->first_step,
	    (unsigned long long)t->last_step);
	if (t->marks > 0)
		buf_printf(out, ", %llu mark%s", (unsigned long long)t->marks,
		    t->marks == 1 ? "" : "s");
	buf_printf(out, "\n");
}

const char *
trace_path(const struct trace *t)
{
	return t->af.path;
}

const uint32_t *
trace_cores(const struct trace *t, uint32_t *n)
{
	*n = t->nlist;
	return t->list;
}

/* ---- JSON lines ---------------------------------------------------- */

static const char *
status_name(int status)
{
	switch (status) {
	case CORE_RUNNING: return "running";
	case CORE_HALTED:  return "halted";
	case CORE_ERROR:   return "error";
	case CORE_WAITING: return "waiting";
	case CORE_JOINING: return "joining";
	}
	return "?";
}

static void
jsonl_start(struct trace *t, const struct trace_view *v)
{
	(void)t;
	(void)v;
}

static void
jsonl_record(struct trace *t, const struct trace_view *v)
{
	trace_puts(t, "{\"step\":");
	trace_putu(t, v->m->step);
	trace_puts(t, ",\"cores\":[");
	for (uint32_t i = 0; i < t->nlist; i++) {
		const struct core *c = &v->m->cores[t->list[i]];

		trace_puts(t, i ? ",{\"core\":" : "{\"core\":");
		trace_putu(t, t->list[i]);
		trace_puts(t, ",\"pc\":");
		trace_puti(t, c->pc);
		trace_puts(t, ",\"sp\":");
		trace_puti(t, c->sp);
		trace_puts(t, ",\"lv\":");
		trace_puti(t, c->lv);
		trace_puts(t, ",\"tos\":");
		trace_puti(t, c->tos);
		trace_puts(t, ",\"status\":\"");
		trace_puts(t, status_name(c->status));
		trace_puts(t, "\",\"steps\":");
		trace_putu(t, c->steps);
		trace_putc(t, '}');
	}
	trace_puts(t, "]}\n");
}

static void
jsonl_mark(struct trace *t, const struct trace_view *v, const char *what)
{
	trace_puts(t, "{\"step\":");
	trace_putu(t, v->m->step);
	trace_puts(t, ",\"mark\":\"");
	trace_json_text(t, what);
	trace_puts(t, "\"}\n");
}

static void
jsonl_finish(struct trace *t)
{
	(void)t;
}

static const struct trace_fmt trace_fmt_jsonl = {
	.name = "jsonl",
	.start = jsonl_start,
	.record = jsonl_record,
	.mark = jsonl_mark,
	.finish = jsonl_finish,
};
