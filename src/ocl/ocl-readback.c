/*
 * The context into struct core and back (ocl-engine.h).
 *
 * Host work is proportional to what launches changed.  The kernels mark,
 * per block of 32 cores, the last launch in which one of them ran and
 * the last in which one had news (context.h block marks, written by
 * launch.h's LAUNCH_NOTE).  A launch with news reads only the statuses
 * (into stat, with cnt) and the stop, event and output words of its news
 * blocks (ocl_absorb_news); their registers wait, with everything else
 * that ran, for the one conversion at the end of run() (ocl_sync_cores;
 * the blocks are marked stale), and a barrier release changes stat
 * alone.  Statuses stay exact on the host, so cnt (cores per status)
 * replaces ref_count, and launch_end, the output drain, barrier release
 * and any_runnable read the news blocks or the counts (every core only
 * when a stop cut the launch short, for the overshoot check); a copied
 * context reads back only what that needs (SoA field spans, not the warp
 * records).  A quiet launch reads back the header alone.  Conversions
 * and news of many cores are split over the tuning table's host threads.
 *
 * Invariants: between runs m->cores is whole (but for the cores that a
 * run's engine_run.current leaves out, engine.h); during a run it may be
 * behind only in the blocks that ran since o->since and in the stale
 * ones, and anything that reads m->cores calls ocl_sync_cores first.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine-ocl.h"
#include "ijvm.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"
#include "par.h"
#include "ref.h"

/* ---- host copy <-> context ------------------------------------------- */

/*
 * struct core <-> context, one list for both directions: the 32-bit
 * fields the ISA kernel writes, and those only a micro level's kernel
 * writes besides (the others' host copy is already right at the ISA
 * level).  STATUS, PROG and the 64-bit counters (two words, low first)
 * are named where they are converted.
 */
#define ISA_FIELDS(X) X(PC, pc) X(SP, sp) X(LV, lv) X(TOS, tos) \
	X(FAULT, fault) X(FAULT_PC, fault_pc) X(FAULT_OP, fault_op) \
	X(FORK, fork)
#define MICRO_FIELDS(X) X(CPP, cpp) X(OPC, opc) X(H, h) X(MAR, mar) \
	X(MDR, mdr) X(MBR, mbr) X(MPC, mpc) X(N, n) X(Z, z)

void
ocl_level_section(const struct ocl_engine *o, struct ocl_section *s)
{
	s->ctx = o->hctx;
	s->off = o->sec_off;
	s->core_stride = o->core_stride;
	s->field_stride = o->field_stride;
	s->nfields = o->lv->section_fields;
	s->ncores = o->ncores;
}

/* A thread's share of ocl_cores_to_ctx: cores lo .. hi - 1, and their
 * counts per status. */
struct put_part {
	struct par_part	 r;           /* cores */
	struct ocl_engine *o;
	uint32_t	 cnt[OCL_NCNT];
};

/* One pass over struct core, each field a stream in a local (as
 * convert_cores): a walk field after field would read every core once
 * per field (doc/performance.md section 17). */
static void *
put_cores(void *arg)
{
	struct put_part *p = arg;
	struct ocl_engine *o = p->o;
	const struct core *restrict k = o->m->cores;
	uint32_t *restrict x = o->hctx + o->cores_off;
	const size_t cs = o->core_stride, fs = o->field_stride;
#define FLD(F, m) uint32_t *restrict f_##F = x + CTX_C_##F * fs;
	ISA_FIELDS(FLD) MICRO_FIELDS(FLD)
	FLD(STATUS, status) FLD(PROG, prog) FLD(STEPS_LO, steps)
	FLD(STEPS_HI, steps) FLD(CYCLES_LO, cycles) FLD(CYCLES_HI, cycles)
#undef FLD
	uint8_t *restrict stat = o->stat;

	for (size_t i = p->r.lo; i < p->r.hi; i++) {
		const size_t j = i * cs;
		const struct core *c = &k[i];

#define PUT(F, m) f_##F[j] = (uint32_t)c->m;
		ISA_FIELDS(PUT) MICRO_FIELDS(PUT)
		PUT(STATUS, status) PUT(PROG, prog)
#undef PUT
		f_STEPS_LO[j] = (uint32_t)c->steps;
		f_STEPS_HI[j] = (uint32_t)(c->steps >> 32);
		f_CYCLES_LO[j] = (uint32_t)c->cycles;
		f_CYCLES_HI[j] = (uint32_t)(c->cycles >> 32);
		stat[i] = c->status;
		p->cnt[c->status & (OCL_NCNT - 1)]++;
	}
	return NULL;
}

/* The host copy into the context, and stat and cnt recounted from it:
 * the host copy is the truth (a restore, host edits). */
void
ocl_cores_to_ctx(struct ocl_engine *o)
{
	struct put_part part[PAR_MAX];
	uint32_t t = o->ncores >= o->tune.convert_min ? o->tune.host_threads :
	    1;

	if (t > o->ncores)
		t = o->ncores;
	if (t < 1)
		t = 1;
	memset(part, 0, t * sizeof part[0]);
	for (uint32_t i = 0; i < t; i++)
		part[i].o = o;
	par_split(o->ncores, t, put_cores, part, sizeof part[0]);
	memset(o->cnt, 0, sizeof o->cnt);
	for (uint32_t i = 0; i < t; i++)
		for (int j = 0; j < OCL_NCNT; j++)
			o->cnt[j] += part[i].cnt[j];
	if (o->lv->to_ctx != NULL) {
		struct ocl_section sec;

		ocl_level_section(o, &sec);
		o->lv->to_ctx(o->st, &sec);
	}
}

/* The status the host shows for device status v: a barrier or join
 * release that the device has not seen yet (the next launch does it) as
 * done already. */
static inline uint8_t
host_status(uint32_t v, int pending_release)
{
	return pending_release != 0 && v == (uint32_t)pending_release ?
	    CORE_RUNNING : (uint8_t)v;
}

/*
 * Cores lo .. hi - 1 of the context into struct core and the level's
 * state, keeping cnt.  The fields the ISA kernel writes go straight into
 * struct core: the others (CPP, OPC, H, MAR, MDR, MBR, MPC, N, Z, PROG,
 * CYCLES) only the host writes at the ISA level, so its copy is already
 * right; a micro-level kernel writes them too (all_fields), and its
 * section.  One pointer per field and the strides in locals: in the
 * generic form (CORE_WORD per field, the engine's fields reloaded per
 * core, as struct core stores may alias them) this loop was most of a
 * one-step run at a million cores.  On SoA every field is a stream, on
 * AoS a core's block is two cache lines read in order.  hctx must be
 * open.
 */
static inline void
convert_cores(struct ocl_engine *o, uint32_t lo, uint32_t hi, const int all,
    uint32_t *restrict counts)
{
	struct core *restrict k = o->m->cores;
	const uint32_t *restrict x = o->hctx + o->cores_off;
	const size_t cs = o->core_stride, fs = o->field_stride;
#define FLD(F, m) const uint32_t *restrict f_##F = x + CTX_C_##F * fs;
	ISA_FIELDS(FLD) MICRO_FIELDS(FLD)
	FLD(STATUS, status) FLD(STEPS_LO, steps) FLD(STEPS_HI, steps)
	FLD(CYCLES_LO, cycles) FLD(CYCLES_HI, cycles)
#undef FLD
	uint8_t *restrict stat = o->stat;
	const int release = o->pending_release;
	uint32_t cnt[OCL_NCNT];

	memcpy(cnt, counts, sizeof cnt);
	for (size_t i = lo; i < hi; i++) {
		const size_t j = i * cs;
		struct core *c = &k[i];
		const uint8_t st = host_status(f_STATUS[j], release);

		ocl_set_stat(stat, cnt, (uint32_t)i, st);
		c->status = st;
#define GET(F, m) c->m = f_##F[j];
		ISA_FIELDS(GET)
		c->steps = (uint64_t)f_STEPS_HI[j] << 32 | f_STEPS_LO[j];
		if (!all)
			continue;
		MICRO_FIELDS(GET)
#undef GET
		c->cycles = (uint64_t)f_CYCLES_HI[j] << 32 | f_CYCLES_LO[j];
	}
	memcpy(counts, cnt, sizeof cnt);
}

/* A thread's share of a conversion; cnt gets its changes to the counts
 * (unsigned: a decrement below 0 wraps, and the sum comes out right). */
struct conv_part {
	struct par_part	 r;           /* cores, from base */
	struct ocl_engine *o;
	uint32_t	 base;
	uint32_t	 cnt[OCL_NCNT];
};

static void *
convert_part(void *arg)
{
	struct conv_part *p = arg;
	const uint32_t lo = p->base + (uint32_t)p->r.lo;
	const uint32_t hi = p->base + (uint32_t)p->r.hi;

	/* one pass over struct core either way: all is a constant in each
	 * call, so each is a loop of its own */
	if (p->o->lv->all_fields)
		convert_cores(p->o, lo, hi, 1, p->cnt);
	else
		convert_cores(p->o, lo, hi, 0, p->cnt);
	return NULL;
}

static void
convert_range(struct ocl_engine *o, uint32_t lo, uint32_t hi)
{
	struct conv_part part[PAR_MAX];
	uint32_t t = hi - lo >= o->tune.convert_min ? o->tune.host_threads : 1;

	if (t > hi - lo)
		t = hi - lo;
	if (t < 1)
		t = 1;
	memset(part, 0, t * sizeof part[0]);
	for (uint32_t i = 0; i < t; i++) {
		part[i].o = o;
		part[i].base = lo;
	}
	par_split(hi - lo, t, convert_part, part, sizeof part[0]);
	for (uint32_t i = 0; i < t; i++)
		for (int j = 0; j < OCL_NCNT; j++)
			o->cnt[j] += part[i].cnt[j];
	if (o->lv->from_ctx != NULL) {
		struct ocl_section sec;

		ocl_level_section(o, &sec);
		o->lv->from_ctx(o->st, &sec, lo, hi);
	}
}

/* Every core (a restore, where anything may have changed). */
void
ocl_ctx_to_cores(struct ocl_engine *o)
{
	convert_range(o, 0, o->ncores);
	o->m->heap_top = o->hctx[CTX_H_HEAP_TOP];
	o->warps_fresh = 0;
	o->since = 0;
	memset(o->stale, 0, o->nblocks);
	o->any_stale = 0;
}

/* The block marks of array arr (CTX_B_*). */
static const uint32_t *
marks(const struct ocl_engine *o, uint32_t arr)
{
	return o->hctx + o->blocks_off + (size_t)arr * o->nblocks;
}

/* Is a mark from launch ids since .. launch_id (wrap-safe)? */
static int
mark_in(const struct ocl_engine *o, uint32_t mark, uint32_t since)
{
	return (uint32_t)(mark - since) <= (uint32_t)(o->launch_id - since);
}

/*
 * Which blocks a pass over the marks wants:
 *   NEWS_NOW  news in the last launch (ocl_absorb_news reads them);
 *   BEHIND    m->cores is behind: ran since launch `since` (0: none
 *             did), or marked stale.
 */
enum { NEWS_NOW, BEHIND };

static int
block_wanted(const struct ocl_engine *o, int what, uint32_t since,
    const uint32_t *ran, const uint32_t *news, uint32_t b)
{
	if (what == NEWS_NOW)
		return news[b] == o->launch_id;
	return o->stale[b] || (since != 0 && mark_in(o, ran[b], since));
}

/*
 * The next run of consecutive blocks from *b on, before block end, that
 * the pass `what` wants, as cores [*lo, *hi); 0 when there is none.
 * hctx must be open.
 */
static int
next_marked(const struct ocl_engine *o, int what, uint32_t since,
    uint32_t end, uint32_t *b, uint32_t *lo, uint32_t *hi)
{
	const uint32_t *ran = marks(o, CTX_B_RAN), *news = marks(o, CTX_B_NEWS);
	uint32_t i = *b, e;

	while (i < end && !block_wanted(o, what, since, ran, news, i))
		i++;
	if (i >= end)
		return 0;
	for (e = i + 1; e < end && block_wanted(o, what, since, ran, news, e);
	    e++)
		;
	*b = e;
	*lo = i << CTX_BLOCK_SHIFT;
	*hi = (uint64_t)e << CTX_BLOCK_SHIFT < o->ncores ?
	    e << CTX_BLOCK_SHIFT : o->ncores;
	return 1;
}

/* A thread's share of ocl_absorb_news: blocks b0 .. b1 - 1; cnt gets its
 * changes to the counts, as in struct conv_part. */
struct news_part {
	struct ocl_engine *o;
	uint32_t	 b0, b1;
	uint32_t	 cnt[OCL_NCNT];
	uint32_t	 cut, event, out_lo, out_hi;
	int		 any;
};

static void *
absorb_part(void *arg)
{
	struct news_part *p = arg;
	struct ocl_engine *o = p->o;
	/* the fields as streams, in locals: stat's byte stores may alias
	 * anything, so CF() would reload the engine's fields per core */
	const uint32_t *restrict x = o->hctx + o->cores_off;
	const size_t cs = o->core_stride, fs = o->field_stride;
	const uint32_t *restrict f_st = x + CTX_C_STATUS * fs;
	const uint32_t *restrict f_stop = x + CTX_C_STOP_STEP * fs;
	const uint32_t *restrict f_ev = x + CTX_C_EVENT_STEP * fs;
	const uint32_t *restrict f_out = x + CTX_C_OUT_LEN * fs;
	const int release = o->pending_release;
	uint8_t *restrict stat = o->stat;
	uint32_t cnt[OCL_NCNT] = { 0 }, cut = CTX_NONE, event = 0;
	uint32_t out_lo = UINT32_MAX, out_hi = 0, b = p->b0, lo, hi;

	while (next_marked(o, NEWS_NOW, 0, p->b1, &b, &lo, &hi)) {
		memset(o->stale + (lo >> CTX_BLOCK_SHIFT), 1, b -
		    (lo >> CTX_BLOCK_SHIFT));
		for (uint32_t c = lo; c < hi; c++) {
			const size_t j = c * cs;
			ocl_set_stat(stat, cnt, c, host_status(f_st[j],
			    release));
			cut = f_stop[j] < cut ? f_stop[j] : cut;
			event = f_ev[j] > event ? f_ev[j] : event;
			if (f_out[j] != 0) {
				out_lo = out_lo == UINT32_MAX ? c : out_lo;
				out_hi = c;
			}
		}
		p->any = 1;
	}
	memcpy(p->cnt, cnt, sizeof cnt);
	p->cut = cut;
	p->event = event;
	p->out_lo = out_lo;
	p->out_hi = out_hi;
	return NULL;
}

/*
 * After a launch with news: the statuses of the cores of its news blocks
 * (cnt follows), and what ocl_launch_end and ocl_drain_output need from them;
 * nothing outside those blocks has a stop record, an event or output.
 * Their other registers wait for ocl_sync_cores (the blocks are stale).
 * hctx must be open and current.  News of at least tune.convert_min
 * cores is split over the conversion's threads, in shares of equal news
 * (the launch in which a million cores halt is most of a run's news).
 */
void
ocl_absorb_news(struct ocl_engine *o)
{
	struct ocl_news *nw = &o->news;
	struct news_part part[PAR_MAX];
	const uint32_t *news = marks(o, CTX_B_NEWS);
	uint32_t t = 1, nnews = 0;

	if (o->tune.host_threads > 1 && o->ncores >= o->tune.convert_min)
		for (uint32_t b = 0; b < o->nblocks; b++)
			nnews += news[b] == o->launch_id;
	if ((uint64_t)nnews << CTX_BLOCK_SHIFT >= o->tune.convert_min)
		t = o->tune.host_threads;
	for (uint32_t i = 0, b = 0, seen = 0; i < t; i++) {
		/* share i ends after the news block that brings the news
		 * seen to nnews * (i + 1) / t */
		const uint32_t want = (uint32_t)((uint64_t)nnews * (i + 1) / t);

		memset(&part[i], 0, sizeof part[i]);
		part[i].o = o;
		part[i].b0 = b;
		while (i + 1 < t && b < o->nblocks && seen < want)
			seen += news[b++] == o->launch_id;
		part[i].b1 = i + 1 < t ? b : o->nblocks;
	}
	par_spread(t, absorb_part, part, sizeof part[0]);
	nw->cut = CTX_NONE;
	nw->event = 0;
	nw->out_lo = UINT32_MAX;
	nw->out_hi = 0;
	for (uint32_t i = 0; i < t; i++) {
		const struct news_part *p = &part[i];

		for (int j = 0; j < OCL_NCNT; j++)
			o->cnt[j] += p->cnt[j];
		o->any_stale |= p->any;
		nw->cut = p->cut < nw->cut ? p->cut : nw->cut;
		nw->event = p->event > nw->event ? p->event : nw->event;
		if (p->out_lo <= p->out_hi) {
			nw->out_lo = p->out_lo < nw->out_lo ? p->out_lo :
			    nw->out_lo;
			nw->out_hi = p->out_hi > nw->out_hi ? p->out_hi :
			    nw->out_hi;
		}
	}
}

/* Bring m->cores up to date where launches left them behind: the blocks
 * that ran since o->since, and the stale ones (news, a release). */
int
ocl_sync_cores(struct ocl_engine *o, char **cause)
{
	uint32_t b = 0, lo, hi;

	if (o->since == 0 && !o->any_stale)
		return 0;
	if (ocl_ctx_fetch_cores(o, cause) != 0)
		return -1;
	while (next_marked(o, BEHIND, o->since, o->nblocks, &b, &lo, &hi))
		convert_range(o, lo, hi);
	o->warps_fresh = 0;
	o->since = 0;
	memset(o->stale, 0, o->nblocks);
	o->any_stale = 0;
	return 0;
}

/* Only the n cores of list (ascending) up to date, the others left
 * behind as they are (their blocks stay marked for ocl_sync_cores): a
 * run's end where the caller reads those alone (engine.h current). */
int
ocl_sync_some(struct ocl_engine *o, const uint32_t *list, size_t n,
    char **cause)
{
	if (o->since == 0 && !o->any_stale)
		return 0;
	if (ocl_ctx_fetch_cores(o, cause) != 0)
		return -1;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && list[j] == list[j - 1] + 1; j++)
			;
		convert_range(o, list[i], list[j - 1] + 1);
	}
	return 0;
}

/* Output that core c is about to get: its length now goes to the
 * checkpoint's list the first time since the checkpoint. */
void
ocl_ckpt_note_output(struct ocl_engine *o, uint32_t c)
{
	struct ocl_ckpt *ck = &o->ck;

	if (ck->out_listed == NULL || ck->out_listed[c])
		return;
	if (ck->nout == ck->out_cap) {
		ck->out_cap = ck->out_cap ? 2 * ck->out_cap : 64;
		ck->out_cores = xreallocarray(ck->out_cores, ck->out_cap,
		    sizeof *ck->out_cores);
		ck->out_len = xreallocarray(ck->out_len, ck->out_cap,
		    sizeof *ck->out_len);
	}
	ck->out_cores[ck->nout] = c;
	ck->out_len[ck->nout++] = o->m->io[c].out.len;
	ck->out_listed[c] = 1;
}

/* Append what the cores wrote in the last launch to m->io[].out: the
 * writers are in the news blocks (ocl_absorb_news found their span). */
int
ocl_drain_output(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	uint32_t lo = o->news.out_lo, hi = o->news.out_hi;

	if (lo > hi)
		return 0;
	/* One read of the span that holds every writer. */
	if (ocl_read_buf(o, o->b_out, (size_t)lo * o->out_cap,
	    (size_t)(hi - lo + 1) * o->out_cap, o->outbuf, cause) != 0)
		return -1;
	for (uint32_t c = lo; c <= hi; c++) {
		uint32_t n = CF(o, c, CTX_C_OUT_LEN);

		if (n > o->out_cap)
			n = o->out_cap;
		if (n > 0) {
			ocl_ckpt_note_output(o, c);
			buf_put(&m->io[c].out, o->outbuf +
			    (size_t)(c - lo) * o->out_cap, n);
		}
	}
	return 0;
}
