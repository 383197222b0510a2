/*
 * The engine operations (engine.h struct engine_ops) of every OpenCL
 * level (ocl-engine.h): memory reads and writes of one core, host edits
 * pushed to the device, input, save and load for reverse execution, the
 * warp records, and freeing.
 *
 * Invariants: memory reads keep the host copy in step with what they
 * show; push_cores makes the host copy the device's truth (no stale
 * blocks, no pending release, no valid checkpoint); input reaches a
 * core's area at the next launch (in_dirty).
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine-ocl.h"
#include "ijvm.h"
#include "memmap.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"

/* ---- memory ----------------------------------------------------------- */

/* A device word of a core's view of memory: its buffer and byte offset,
 * or 0 for the constant pool (*cp set) and -1 outside the map. */
static int
locate(struct ocl_engine *o, uint32_t core, int32_t addr, cl_mem *b,
    size_t *off, const int32_t **cp)
{
	const struct machine *m = o->m;
	const struct program *p = m->progs[m->cores[core].prog];
	int64_t a = addr;

	*cp = NULL;
	if (a >= MM_CPP && a < (int64_t)MM_CPP + p->cp_size) {
		*cp = &p->cp[a - MM_CPP];
		return 0;
	}
	if (a >= MM_STACK_BASE && a < (int64_t)MM_STACK_BASE +
	    m->cfg.stack_words) {
		*b = o->b_stacks;
		*off = 4 * CTX_STACK_INDEX(o->interleaved, (size_t)core,
		    (size_t)(a - MM_STACK_BASE), (size_t)o->ncores,
		    (size_t)m->cfg.stack_words);
		return 1;
	}
	if (a >= MM_GLOBALS_BASE && a < MM_GLOBALS_BASE + MM_GLOBALS_WORDS) {
		*b = o->b_globals;
		*off = 4 * (size_t)(a - MM_GLOBALS_BASE);
		return 1;
	}
	if (a >= MM_HEAP_BASE && a < (int64_t)MM_HEAP_BASE +
	    m->cfg.heap_words) {
		*b = o->b_heap;
		*off = 4 * (size_t)(a - MM_HEAP_BASE);
		return 1;
	}
	return -1;
}

static int
ocl_read_words(struct engine *e, uint32_t core, int32_t addr,
    uint32_t nwords, int32_t *out, char **cause)
{
	struct ocl_engine *o = e->impl;
	uint32_t i = 0;

	if (core >= o->ncores) {
		*cause = xasprintf("core %u does not exist (the machine has %u)",
		    core, o->ncores);
		return -1;
	}
	while (i < nwords) {
		int32_t a = (int32_t)((uint32_t)addr + i);
		const int32_t *cp;
		cl_mem b;
		size_t off, off2;
		uint32_t n = 1;
		int where = locate(o, core, a, &b, &off, &cp);

		if (where < 0) {
			*cause = xasprintf("address 0x%x is outside the memory "
			    "core %u can read", (uint32_t)a, core);
			return -1;
		}
		if (where == 0) {
			out[i++] = *cp;
			continue;
		}
		/* shared stacks: the host's pages are the device's (the
		 * queue is idle between runs) */
		if (o->shared_stacks && b == o->b_stacks) {
			out[i++] = *machine_stack_word(e->m, core, a);
			continue;
		}
		/* Extend over words that are contiguous on the device. */
		while (i + n < nwords) {
			cl_mem b2;
			const int32_t *cp2;

			if (locate(o, core, a + (int32_t)n, &b2, &off2,
			    &cp2) != 1 || b2 != b || off2 != off + 4 * n)
				break;
			n++;
		}
		if (ocl_read_buf(o, b, off, 4 * (size_t)n, out + i, cause) != 0)
			return -1;
		/* Keep the host copy in step with what was shown. */
		for (uint32_t j = 0; j < n; j++)
			(void)machine_write_word(e->m, core, a + (int32_t)j,
			    out[i + j]);
		i += n;
	}
	return 0;
}

static int
ocl_write_word(struct engine *e, uint32_t core, int32_t addr, int32_t val,
    char **cause)
{
	struct ocl_engine *o = e->impl;
	const int32_t *cp;
	cl_mem b;
	size_t off;

	if (core >= o->ncores || locate(o, core, addr, &b, &off, &cp) != 1 ||
	    machine_write_word(e->m, core, addr, val) != FAULT_NONE) {
		*cause = xasprintf("address 0x%x is outside the memory core %u "
		    "can write", (uint32_t)addr, core);
		return -1;
	}
	if (o->shared_stacks && b == o->b_stacks)
		return 0;
	return ocl_write_buf(o, b, off, 4, &val, cause);
}

static int
ocl_push_cores(struct engine *e, char **cause)
{
	struct ocl_engine *o = e->impl;

	/* all of hctx goes down: its other words must be the device's
	 * (run() read only part of it, ocl_ctx_fetch_cores) */
	if (ocl_ctx_fetch(o, cause) != 0)
		return -1;
	/* The host copy is the truth now, releases included. */
	ocl_cores_to_ctx(o);
	o->hctx[CTX_H_HEAP_TOP] = e->m->heap_top;
	o->since = 0;
	memset(o->stale, 0, o->nblocks);
	o->any_stale = 0;
	o->pending_release = 0;
	o->ck.valid = 0;
	return ocl_ctx_put(o, 0, o->ctx_words, cause);
}

static int
ocl_sync_memory(struct engine *e, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct machine *m = e->m;

	if (ocl_download_stacks(o, cause) != 0 ||
	    ocl_read_buf(o, o->b_globals, 0, MM_GLOBALS_WORDS * 4, m->globals,
	    cause) != 0 ||
	    ocl_read_buf(o, o->b_heap, 0, (size_t)m->cfg.heap_words * 4,
	    m->heap, cause) != 0)
		return -1;
	return 0;
}

static void
ocl_add_input(struct engine *e, uint32_t core, const uint8_t *data,
    size_t len)
{
	struct ocl_engine *o = e->impl;
	size_t i;

	machine_add_input(e->m, core, data, len);
	if (!o->in_listed[core]) {
		o->in_listed[core] = 1;
		o->in_cores = xreallocarray(o->in_cores, o->n_in_cores + 1,
		    sizeof *o->in_cores);
		o->in_dirty = xrealloc(o->in_dirty, o->n_in_cores + 1);
		o->in_cores[o->n_in_cores++] = core;
	}
	for (i = 0; i < o->n_in_cores; i++)
		if (o->in_cores[i] == core)
			o->in_dirty[i] = 1;
}

/* ---- reverse execution (engine.h save/load) --------------------------- */

/*
 * The level's section of the context is its host state in context form
 * (to_ctx/from_ctx convert): a snapshot keeps those words, core-major,
 * whatever layout the device chose.  run() left hctx current.
 */
static int
ocl_save(struct engine *e, void *out, size_t *bytes, char **cause)
{
	struct ocl_engine *o = e->impl;
	size_t nf = o->lv->section_fields;
	uint32_t *w = out;
	struct ocl_section sec;

	*bytes = (size_t)o->ncores * nf * 4;
	if (nf == 0 || out == NULL)
		return 0;
	if (ocl_ctx_fetch_cores(o, cause) != 0)
		return -1;
	ocl_level_section(o, &sec);
	for (uint32_t c = 0; c < o->ncores; c++)
		for (uint32_t f = 0; f < nf; f++)
			w[(size_t)c * nf + f] = OCL_SEC(&sec, c, f);
	return 0;
}

/* The host copy is the whole truth: registers, the level's section,
 * memory and input go down as a fresh engine's would, and the
 * checkpoint is stale (ocl_push_cores). */
static int
ocl_load(struct engine *e, const void *side, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct machine *m = e->m;
	size_t nf = o->lv->section_fields;

	/* before the edits: ocl_push_cores sends all of hctx */
	if (ocl_ctx_fetch(o, cause) != 0)
		return -1;
	if (nf > 0 && side != NULL && o->lv->from_ctx != NULL) {
		const uint32_t *w = side;
		struct ocl_section sec;

		ocl_level_section(o, &sec);
		for (uint32_t c = 0; c < o->ncores; c++)
			for (uint32_t f = 0; f < nf; f++)
				OCL_SEC(&sec, c, f) = w[(size_t)c * nf + f];
		o->lv->from_ctx(o->st, &sec, 0, o->ncores);
	}
	/* the stacks: shared with the host, or sent by load_stacks */
	if (ocl_push_cores(e, cause) != 0 ||
	    ocl_write_buf(o, o->b_globals, 0, MM_GLOBALS_WORDS * 4, m->globals,
	    cause) != 0 ||
	    ocl_write_buf(o, o->b_heap, 0, ocl_heap_bytes(o), m->heap,
	    cause) != 0)
		return -1;
	for (uint32_t c = 0; c < o->ncores; c++)
		o->seen[c] = m->cores[c].status == CORE_ERROR;
	for (size_t i = 0; i < o->n_in_cores; i++)
		o->in_dirty[i] = 1;
	return 0;
}

/* engine.h save_stacks and load_stacks, where the stacks are not
 * shared with the host (ocl_engine_create sets them). */
static int
ocl_save_stacks(struct engine *e, uint32_t *slen, int32_t **words,
    size_t *nwords, char **cause)
{
	return ocl_get_stacks(e->impl, slen, words, nwords, cause);
}

static int
ocl_load_stacks(struct engine *e, const uint32_t *slen, const int32_t *words,
    char **cause)
{
	return ocl_put_stacks(e->impl, slen, words, cause);
}

static void
ocl_free(struct engine *e)
{
	if (e->impl != NULL)
		ocl_release_all(e->impl);
	engine_release(e);
}

int
ocl_at_boundary(struct engine *e, uint32_t core)
{
	struct ocl_engine *o = e->impl;

	return o->lv->model->at_boundary(o->st, e->m, core);
}

/* The model's state is the level state's first member (ocl-level.h). */
void *
ocl_level_state(struct engine *e)
{
	struct ocl_engine *o = e->impl;

	return o->lv->model != NULL ? o->st : NULL;
}

/* The last run's trace records (engine.h trace_steps). */
static const uint32_t *
ocl_trace_steps(struct engine *e, uint64_t *first, uint64_t *n)
{
	struct ocl_engine *o = e->impl;

	*first = o->tr_base;
	*n = o->tracing ? o->tr_done : 0;
	return o->tr_host;
}

const struct engine_ops ocl_engine_ops = {
	.name = "opencl",
	.kind = ENGINE_OPENCL,
	.level = LEVEL_ISA,
	.run = ocl_run,
	.read_words = ocl_read_words,
	.write_word = ocl_write_word,
	.push_cores = ocl_push_cores,
	.sync_memory = ocl_sync_memory,
	.sync_cores = ocl_sync_op,
	.add_input = ocl_add_input,
	.save = ocl_save,
	.load = ocl_load,
	.save_stacks = ocl_save_stacks,
	.load_stacks = ocl_load_stacks,
	.warps = engine_ocl_warps,
	.set_steps_per_launch = engine_ocl_set_steps_per_launch,
	.stats = engine_ocl_stats,
	.trace_steps = ocl_trace_steps,
	.free = ocl_free,
};

const struct engine_warp_record *
engine_ocl_warps(struct engine *e, size_t *nwarps)
{
	struct ocl_engine *o = e->impl;

	char *cause = NULL;

	if (nwarps != NULL)
		*nwarps = o->nwarps;
	if (o->warps == NULL)
		o->warps = xcalloc(o->nwarps ? o->nwarps : 1,
		    sizeof *o->warps);
	if (o->warps_fresh)
		return o->warps;
	/* run() reads back no warp records into a copied context
	 * (ocl_ctx_fetch_cores): they come here.  On a failure the records
	 * read as the last ones converted. */
	if (o->zero_copy ? ocl_ctx_open(o, &cause) != 0 : !o->ctx_fresh &&
	    ocl_read_buf(o, o->b_ctx, (size_t)o->warps_off * 4,
	    (size_t)o->nwarps * CTX_WARP_WORDS(o->W) * 4,
	    o->hctx + o->warps_off, &cause) != 0) {
		free(cause);
		return o->warps;
	}
	for (uint32_t w = 0; w < o->nwarps; w++) {
		const uint32_t *r = o->hctx + o->warps_off +
		    (size_t)w * CTX_WARP_WORDS(o->W);
		struct engine_warp_record *d = &o->warps[w];

#define U64(lo) ((uint64_t)r[(lo) + 1] << 32 | r[lo])
		memset(d, 0, sizeof *d);
		d->steps = U64(CTX_W_STEPS_LO);
		d->active = U64(CTX_W_ACTIVE_LO);
		d->kpaths = U64(CTX_W_K_LO);
		d->last_active = U64(CTX_W_LAST_ACT_LO);
		d->last_converged = U64(CTX_W_LAST_CONV_LO);
		d->last_divergent = U64(CTX_W_LAST_DIV_LO);
		d->last_paths = r[CTX_W_LAST_PATHS];
		d->last_k = r[CTX_W_LAST_K];
		for (uint32_t n = 0; n < o->W; n++)
			d->hist[n] = U64(CTX_W_HIST + 2 * n);
#undef U64
	}
	o->warps_fresh = 1;
	return o->warps;
}

void
engine_ocl_set_steps_per_launch(struct engine *e, uint64_t k)
{
	struct ocl_engine *o = e->impl;

	o->k_fixed = k > K_MAX ? K_MAX : k;
}

void
engine_ocl_stats(struct engine *e, struct engine_stats *st)
{
	struct ocl_engine *o = e->impl;

	*st = o->stats;
}

const char *
engine_ocl_device_name(struct engine *e)
{
	struct ocl_engine *o = e->impl;

	return o->devname;
}
