/*
 * Checkpoints and replay (ocl-engine.h).
 *
 * A checkpoint is a device-side copy of the context, stacks, globals and
 * heap (of shared stacks: the words in use, on the host, stacks_take),
 * with the host-side state that goes with it (step, output lengths,
 * input positions, a pending barrier release).  Its buffers are allocated
 * (and committed) when the engine is created.  One is taken before the
 * first launch of K > 1 of every run and refreshed when the launches
 * since the last one took more than CKPT_AGE seconds; one-step launches
 * never need one (a one-step launch cannot overshoot).  Output is
 * drained into m->io[].out after every launch and truncated back on a
 * restore (only the cores whose output grew are listed); input positions
 * are rewound.  This checkpoint + deterministic replay is the mechanism
 * reverse execution builds on: a ring of such checkpoints, and replay
 * from the nearest one to any earlier cut.  If the device has no room
 * for a checkpoint, every launch runs one step.
 *
 * Invariant: a valid checkpoint holds a state of this run that the host
 * copy passed through; host edits between runs invalidate it.
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine-ocl.h"
#include "memmap.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"

/* ---- checkpoints ------------------------------------------------------ */

/*
 * Allocate the checkpoint buffers once; 0 if that is impossible.  setup
 * calls it, so that a run() does not pay for it: a driver that commits
 * memory on first use (NVIDIA's) does so in the fill, which also turns a
 * device too full for a checkpoint into "no checkpoint" (every launch
 * one step) here rather than into a failed copy in the middle of a run.
 */
int
ocl_ckpt_alloc(struct ocl_engine *o)
{
	char *cause = NULL;
	cl_mem *c[4] = { &o->c_ctx, &o->c_stacks, &o->c_globals, &o->c_heap };
	size_t bytes[4] = { o->ctx_words * 4, o->stack_words_total * 4,
	    MM_GLOBALS_WORDS * 4, ocl_heap_bytes(o) };
	uint32_t zero = 0;
	int ok = 1;

	if (o->ckpt_ok != 0)
		return o->ckpt_ok > 0;
	for (size_t i = 0; i < 4 && ok; i++)
		/* shared stacks are kept on the host (stacks_take) */
		ok = (c[i] == &o->c_stacks && o->shared_stacks) ||
		    (ocl_mkbuf(o, c[i], bytes[i], CL_MEM_READ_WRITE,
		    &cause) == 0 &&
		    clEnqueueFillBuffer(o->q, *c[i], &zero, sizeof zero, 0,
		    bytes[i], 0, NULL, NULL) == CL_SUCCESS);
	if (ok)
		ok = clFinish(o->q) == CL_SUCCESS;
	if (!ok) {
		free(cause);
		for (size_t i = 0; i < 4; i++)
			if (*c[i] != NULL) {
				clReleaseMemObject(*c[i]);
				*c[i] = NULL;
			}
		o->ckpt_ok = -1;
		return 0;
	}
	o->ck.out_listed = xcalloc(o->ncores, 1);
	o->ckpt_ok = 1;
	return 1;
}

/*
 * Shared stacks (ocl-engine.h) are the host's pages: a checkpoint keeps
 * each core's words in use, as history snapshots do, and a restore
 * writes back those and clears only the words in use since, so that
 * neither copies or faults in the unused stack of a million cores.  The
 * queue is idle here: every launch ends with a blocking read.
 */
static void
stacks_take(struct ocl_engine *o)
{
	struct ocl_ckpt *ck = &o->ck;
	const struct machine *m = o->m;
	uint32_t sw = m->cfg.stack_words;
	size_t total = 0;

	if (ck->slen == NULL)
		ck->slen = xcalloc(o->ncores, sizeof *ck->slen);
	machine_stacks_used(m, ck->slen);
	for (uint32_t c = 0; c < o->ncores; c++) {
		const int32_t *st = m->stacks + (size_t)c * sw;
		uint32_t n = ck->slen[c];

		if (total + n > ck->stack_cap) {
			ck->stack_cap = 2 * (total + n) + 1024;
			ck->stack = xreallocarray(ck->stack, ck->stack_cap,
			    sizeof *ck->stack);
		}
		/* empty stacks so far: ck->stack may still be NULL */
		if (n > 0)
			memcpy(ck->stack + total, st, (size_t)n * sizeof *st);
		total += n;
	}
}

static void
stacks_restore(struct ocl_engine *o)
{
	const struct ocl_ckpt *ck = &o->ck;
	struct machine *m = o->m;
	uint32_t sw = m->cfg.stack_words;
	uint32_t *used = xcalloc(o->ncores, sizeof *used);
	size_t at = 0;

	machine_stacks_used(m, used);
	for (uint32_t c = 0; c < o->ncores; c++) {
		int32_t *st = m->stacks + (size_t)c * sw;
		uint32_t n = ck->slen[c];

		if (n > 0)
			memcpy(st, ck->stack + at, (size_t)n * sizeof *st);
		if (used[c] > n)
			memset(st + n, 0, (size_t)(used[c] - n) * sizeof *st);
		at += n;
	}
	free(used);
}

/*
 * Only the allocated heap (below heap_top) is copied: the kernel writes
 * nothing above it but NEWARRAY's fresh arrays, which a restore zeroes
 * (ocl_ckpt_restore), as the reference has them; a megaword heap copied
 * whole was most of a small machine's checkpoint.  m->heap_top is the
 * device's here: every launch reads it back.
 */
int
ocl_ckpt_take(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;

	/* A micro-level program may write anywhere in the heap region,
	 * above heap_top too: its checkpoints hold the whole heap. */
	o->ck.heap_top = o->lv->whole_heap ? m->cfg.heap_words : m->heap_top;
	if (ocl_ctx_close(o, cause) != 0 ||
	    ocl_copy_buf(o, o->b_ctx, o->c_ctx, o->ctx_words * 4, cause) != 0 ||
	    (!o->shared_stacks && ocl_copy_buf(o, o->b_stacks, o->c_stacks,
	    o->stack_words_total * 4, cause) != 0) ||
	    ocl_copy_buf(o, o->b_globals, o->c_globals, MM_GLOBALS_WORDS * 4,
	    cause) != 0 ||
	    (o->ck.heap_top > 0 && ocl_copy_buf(o, o->b_heap, o->c_heap,
	    (size_t)o->ck.heap_top * 4, cause) != 0))
		return -1;
	if (o->shared_stacks)
		stacks_take(o);
	for (size_t i = 0; i < o->ck.nout; i++)
		o->ck.out_listed[o->ck.out_cores[i]] = 0;
	o->ck.nout = 0;
	o->ck.in_pos = xreallocarray(o->ck.in_pos, o->n_in_cores ?
	    o->n_in_cores : 1, sizeof *o->ck.in_pos);
	for (size_t i = 0; i < o->n_in_cores; i++)
		o->ck.in_pos[i] = m->io[o->in_cores[i]].in_pos;
	o->ck.step = m->step;
	o->ck.pending_release = o->pending_release;
	o->ck.age = 0;
	o->ck.valid = 1;
	o->stats.checkpoints++;
	return 0;
}

int
ocl_ckpt_restore(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;
	uint32_t top = m->heap_top, zero = 0;

	o->ctx_fresh = o->ctx_fresh_cores = 0;
	if (ocl_ctx_close(o, cause) != 0 ||
	    ocl_copy_buf(o, o->c_ctx, o->b_ctx, o->ctx_words * 4, cause) != 0 ||
	    (!o->shared_stacks && ocl_copy_buf(o, o->c_stacks, o->b_stacks,
	    o->stack_words_total * 4, cause) != 0) ||
	    ocl_copy_buf(o, o->c_globals, o->b_globals, MM_GLOBALS_WORDS * 4,
	    cause) != 0 ||
	    (o->ck.heap_top > 0 && ocl_copy_buf(o, o->c_heap, o->b_heap,
	    (size_t)o->ck.heap_top * 4, cause) != 0))
		return -1;
	if (o->shared_stacks)
		stacks_restore(o);
	/* arrays allocated after the checkpoint: unallocated words are 0 */
	if (!o->lv->whole_heap && top > o->ck.heap_top)
		TRY(o, clEnqueueFillBuffer(o->q, o->b_heap, &zero, sizeof zero,
		    (size_t)o->ck.heap_top * 4,
		    (size_t)(top - o->ck.heap_top) * 4, 0, NULL, NULL),
		    "clEnqueueFillBuffer");
	if (ocl_ctx_fetch_cores(o, cause) != 0)
		return -1;
	/* first: the host copy shows a pending release as done already */
	o->pending_release = o->ck.pending_release;
	ocl_ctx_to_cores(o);
	o->stats.restores++;
	for (size_t i = 0; i < o->ck.nout; i++) {
		uint32_t c = o->ck.out_cores[i];

		m->io[c].out.len = o->ck.out_len[i];
		o->ck.out_listed[c] = 0;
	}
	o->ck.nout = 0;
	for (size_t i = 0; i < o->n_in_cores; i++) {
		m->io[o->in_cores[i]].in_pos = o->ck.in_pos[i];
		o->in_dirty[i] = 1;
	}
	m->step = o->ck.step;
	return 0;
}

/*
 * Replay with the stop checks off from the restored checkpoint up to the
 * absolute step target.  Only a full output area or a dry input area can
 * cut a replay launch; one that overshoots is redone from a checkpoint
 * taken just before it, with K lowered to where it was cut (at K = 1
 * nothing can overshoot, so this ends).
 */
int
ocl_replay(struct ocl_engine *o, const struct engine_run *r, uint64_t target,
    char **cause)
{
	struct machine *m = o->m;
	uint32_t kcap = UINT32_MAX;

	while (m->step < target) {
		uint32_t K = ocl_choose_k(o, target - m->step), end;
		int over;

		if (K > kcap)
			K = kcap;
		if (!ocl_any_runnable(o, r->mask))
			break;	/* cannot happen for the same machine */
		if (K > 1 && ocl_ckpt_take(o, cause) != 0)
			return -1;
		if (ocl_launch(o, r, K, 0, cause) != 0)
			return -1;
		if (o->quiet) {
			kcap = UINT32_MAX;
			m->step += K;
			continue;
		}
		end = ocl_launch_end(o, r->mask, K, &over);
		if (over) {
			if (ocl_ckpt_restore(o, cause) != 0)
				return -1;
			kcap = end > 0 ? end : 1;
			continue;
		}
		kcap = UINT32_MAX;
		m->step += end;
		ocl_release_barrier(o);
		ocl_trace_release(o);
		if (end == 0)
			break;
	}
	return 0;
}
