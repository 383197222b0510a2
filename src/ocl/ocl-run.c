/*
 * run() (ocl-engine.h): launches to a consistent cut, stops and the
 * run's tables, above the launch (ocl-launch.c) and the checkpoints
 * (ocl-ckpt.c) it uses.
 *
 * Consistent cuts (doc/manycore.md section 4).  A launch runs up
 * to K steps; K adapts so that the kernel runs 40-100 ms per launch (an
 * interrupt is seen within one launch), K = 1 when one step is asked
 * for.  The kernel cuts a launch short at the lowest boundary where a
 * core met a stop condition (stop_at), but cores that did not see that
 * word in time have run further: the host then restores a checkpoint and
 * replays, with the stop checks off, exactly up to the cut (ocl-ckpt.c).
 * Only then does it look at the stop, on the host copy and in the order
 * engine-ref.c uses (faults, every core done, breakpoints), so both
 * engines report the same reason, step and cores.
 *
 * Barriers complete between launches: a core that arrives stops for the
 * rest of its launch; when a launch ends with no core running and some
 * waiting, every core has stopped running by the largest step at which
 * one did (arrival, halt or fault), the barrier completes at that step,
 * exactly where the reference completes it, and the next launch releases
 * the waiting cores (CTX_F_RELEASE).
 *
 * One-step launches run the level's one-step program (no step loop, a
 * fold kernel for the records) where it has one; on a CPU device that
 * program also writes the registers of the cores that ran into m->cores
 * itself (the mirror), so such a launch leaves nothing to convert but
 * its news blocks.
 *
 * Invariant: what run() returns is a consistent cut, with m->cores whole.
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine-ocl.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"
#include "ref.h"

/* ---- advancing to a cut -------------------------------------------- */

/*
 * One launch of at most K steps with the stop checks on, ending at a
 * consistent cut; *ran gets the steps the machine advanced, *stopped
 * whether a core left a stop record (a breakpoint, a fault that stops).
 */
static int
advance(struct ocl_engine *o, const struct engine_run *r, uint32_t K,
    uint64_t *ran, int *stopped, char **cause)
{
	struct machine *m = o->m;
	uint64_t start = m->step;
	uint32_t end;
	int over;

	if (K > 1 && (!o->ck.valid || o->ck.age >= CKPT_AGE)) {
		if (!ocl_ckpt_alloc(o))
			K = 1;
		else if (ocl_ckpt_take(o, cause) != 0)
			return -1;
	}
	*stopped = 0;
	if (ocl_launch(o, r, K, 1, cause) != 0)
		return -1;
	if (o->quiet) {
		/* every running core ran K steps, nothing else changed */
		m->step = start + K;
		*ran = K;
		return 0;
	}
	end = ocl_launch_end(o, r->mask, K, &over);
	*stopped = o->news.cut != CTX_NONE;
	if (over) {
		if (ocl_ckpt_restore(o, cause) != 0 ||
		    ocl_replay(o, r, start + end, cause) != 0)
			return -1;
		/* the replay's launches were quiet or not, the cut was not */
		o->quiet = 0;
		if (ocl_sync_cores(o, cause) != 0)
			return -1;
	} else {
		m->step = start + end;
		ocl_release_barrier(o);
		ocl_trace_release(o);
	}
	*ran = m->step - start;
	return 0;
}

/* ---- stops, as engine-ref.c reports them ----------------------------- */

/* Build the breakpoint table and upload it (and the mask) if changed. */
static int
upload_run_tables(struct ocl_engine *o, const struct engine_run *r,
    char **cause)
{
	size_t setw = (o->ncores + 31) / 32, nw = 0, nsets = 0;
	size_t bpw = o->lv->bp_words;
	uint32_t *w;

	for (size_t i = 0; i < r->nbps; i++)
		if (r->bps[i].cores != NULL)
			nsets++;
	nw = r->nbps * bpw + nsets * setw;
	w = xcalloc(nw ? nw : 1, sizeof *w);
	nsets = 0;
	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];
		uint32_t *e = &w[i * bpw];

		e[CTX_BP_PC] = (uint32_t)bp->pc;
		e[CTX_BP_ID] = bp->id;
		e[CTX_BP_SET] = CTX_NONE;
		/* the micro levels' fourth word: what it compares */
		if (bpw > CTX_BP_WORDS)
			e[CTX_BP_WORDS] = bp->on == ENGINE_BP_ON_MPC;
		if (bp->cores != NULL) {
			size_t off = r->nbps * bpw + nsets++ * setw;

			e[CTX_BP_SET] = (uint32_t)off;
			for (uint32_t c = 0; c < o->ncores; c++)
				if (bp->cores[c])
					w[off + c / 32] |= 1u << (c % 32);
		}
	}
	o->nbps = r->nbps;
	if (nw != o->bp_nwords || (nw > 0 &&
	    memcmp(w, o->bp_words, nw * 4) != 0)) {
		if (nw > o->bp_cap) {
			cl_int err;

			/* until the kernels hold the new buffer, none: a
			 * failure here leaves the next run to try again */
			if (o->b_bps != NULL)
				clReleaseMemObject(o->b_bps);
			o->b_bps = NULL;
			o->bp_cap = 0;
			if (ocl_mkbuf(o, &o->b_bps, nw * 4, CL_MEM_READ_ONLY,
			    cause) != 0) {
				free(w);
				return -1;
			}
			err = clSetKernelArg(o->kern, 9, sizeof o->b_bps,
			    &o->b_bps);
			if (err == CL_SUCCESS && o->kern1 != NULL)
				err = clSetKernelArg(o->kern1, 9,
				    sizeof o->b_bps, &o->b_bps);
			if (err != CL_SUCCESS) {
				*cause = ocl_cl_failure(o, "clSetKernelArg",
				    err);
				free(w);
				return -1;
			}
			o->bp_cap = nw;
		}
		if (ocl_write_buf(o, o->b_bps, 0, nw * 4, w, cause) != 0) {
			free(w);
			return -1;
		}
		free(o->bp_words);
		o->bp_words = w;
		o->bp_nwords = nw;
	} else {
		free(w);
	}
	if (r->mask != NULL && (!o->mask_valid ||
	    memcmp(r->mask, o->mask_host, o->ncores) != 0)) {
		memcpy(o->mask_host, r->mask, o->ncores);
		if (ocl_write_buf(o, o->b_mask, 0, o->ncores, o->mask_host,
		    cause) != 0)
			return -1;
		o->mask_valid = 1;
	}
	return 0;
}

/* The engine's counts (ref_count's, kept by the engine) as the stop
 * rules take them (engine_step_stop). */
static void
run_summary(const struct ocl_engine *o, uint32_t executed,
    struct ref_summary *sum)
{
	sum->running = o->cnt[CORE_RUNNING];
	sum->waiting = o->cnt[CORE_WAITING];
	sum->halted = o->cnt[CORE_HALTED];
	sum->faulted = o->cnt[CORE_ERROR];
	sum->joining = o->cnt[CORE_JOINING];
	sum->executed = executed;
}

static int
run_launches(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct machine *m = e->m;
	struct ref_summary sum;
	uint32_t faulted_before;

	engine_stop_reset(e, stop);
	o->tr_base = m->step;
	o->tr_done = 0;
	run_summary(o, 0, &sum);
	if (!engine_live(&sum)) {
		stop->reason = STOP_DONE;
		return 0;
	}
	if (upload_run_tables(o, r, cause) != 0)
		return -1;
	o->ck.valid = 0;	/* host edits since the last run */
	while (stop->steps_run < r->max_steps) {
		struct engine_run rb;
		uint64_t ran;
		int stopped;

		faulted_before = o->cnt[CORE_ERROR];
		if (r->interrupt != NULL && *r->interrupt) {
			stop->reason = STOP_INTERRUPT;
			return 0;
		}
		if (!ocl_any_runnable(o, r->mask)) {
			/* A step in which nothing can execute: the
			 * reference completes a barrier if it can and
			 * calls it a deadlock. */
			ocl_release_barrier(o);
			m->step++;
			stop->steps_run++;
			run_summary(o, 0, &sum);
			(void)engine_step_stop(e, r, stop, &sum,
			    faulted_before, o->seen, 0, o->lv->bp_on);
			return 0;
		}
		if (advance(o, r, ocl_choose_k(o,
		    r->max_steps - stop->steps_run), &ran, &stopped,
		    cause) != 0)
			return -1;
		stop->steps_run += ran;
		o->tr_done = m->step - o->tr_base;
		/* A quiet launch with the checks on: no core stopped
		 * running, faulted or met a breakpoint at any boundary. */
		if (o->quiet)
			continue;
		/* The breakpoints: the kernel looked at every boundary of
		 * the launch of every core it ran, and one that met a
		 * breakpoint left a stop record; only the cores that a
		 * barrier's or join's release lets go at the launch's end
		 * were not looked at there.  Without either, the host's
		 * check would find nothing: a launch with news (a core
		 * halted, output) then converts no core for it, which
		 * with input breakpoints was every launch's conversion of
		 * every core (doc/performance.md section 25.4). */
		rb = *r;
		if (!stopped && o->pending_release == 0)
			rb.nbps = 0;
		/* The fault's and the breakpoints' checks look at the
		 * cores' registers: those that ran must be converted
		 * first. */
		if ((o->cnt[CORE_ERROR] > faulted_before || rb.nbps > 0) &&
		    ocl_sync_cores(o, cause) != 0)
			return -1;
		run_summary(o, 1, &sum);
		if (engine_step_stop(e, &rb, stop, &sum, faulted_before,
		    o->seen, 1, o->lv->bp_on))
			return 0;
	}
	stop->reason = STOP_STEPS;
	return 0;
}

/* Launches may leave m->cores behind; what run() returns never is, but
 * for the cores r->current leaves out after STOP_STEPS (engine.h): a
 * traced run ends wherever the records are full, and there the trace
 * reads only its cores (doc/performance.md section 25.4). */
int
ocl_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct ocl_engine *o = e->impl;
	struct engine_run rt;

	/* a trace's records fit tr_cap steps a run */
	if (o->tracing && r->max_steps > o->tr_cap) {
		rt = *r;
		rt.max_steps = o->tr_cap;
		r = &rt;
	}
	if (run_launches(e, r, stop, cause) != 0)
		return -1;
	if (r->current != NULL && stop->reason == STOP_STEPS)
		return ocl_sync_some(o, r->current, r->ncurrent, cause);
	return ocl_sync_cores(o, cause);
}

/* engine.h sync_cores */
int
ocl_sync_op(struct engine *e, char **cause)
{
	return ocl_sync_cores(e->impl, cause);
}
