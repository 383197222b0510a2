/*
 * Launches and run() (ocl-engine.h).
 *
 * Launches and consistent cuts (doc/manycore.md section 4).  A launch runs up
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

/* ---- one launch ------------------------------------------------------- */

/* Fill the input areas of cores whose pending input changed. */
static int
feed_input(struct ocl_engine *o, char **cause)
{
	struct machine *m = o->m;

	for (size_t i = 0; i < o->n_in_cores; i++) {
		uint32_t c = o->in_cores[i];
		const struct core_io *io = &m->io[c];
		size_t pending = io->in_len - io->in_pos;
		uint32_t n = pending > o->in_cap ? o->in_cap : (uint32_t)pending;

		if (!o->in_dirty[i])
			continue;
		if (ocl_write_buf(o, o->b_in, (size_t)c * o->in_cap, n,
		    io->in + io->in_pos, cause) != 0 ||
		    ocl_write_core_field(o, c, CTX_C_IN_LEN, n, cause) != 0 ||
		    ocl_write_core_field(o, c, CTX_C_IN_MORE, pending > n,
		    cause) != 0)
			return -1;
		o->in_dirty[i] = 0;
	}
	return 0;
}

/*
 * Run steps 1..K from the current state (m->step).  checks: breakpoints
 * and stop-on-fault cut the launch.  Reads back the header, and the
 * context only when a core has news (CTX_H_NOTE, or a stop), reading
 * then the news blocks' statuses and stop words alone: the launch leaves
 * the registers of the cores that ran behind on the host (o->since, the
 * stale blocks), and a quiet one sets o->quiet.
 */
int
ocl_launch(struct ocl_engine *o, const struct engine_run *r, uint32_t K,
    int checks, char **cause)
{
	struct machine *m = o->m;
	uint32_t *h = o->hdr;
	double t0 = ocl_now(), t_kernel;

	if (ocl_ctx_open(o, cause) != 0 || feed_input(o, cause) != 0)
		return -1;
	o->hctx[CTX_H_STEPS] = K;
	o->hctx[CTX_H_FLAGS] = CTX_F_DIVERGENCE |
	    (checks ? CTX_F_STOPS : 0) |
	    (r->stop_on_fault ? CTX_F_STOP_ON_FAULT : 0) |
	    (r->mask != NULL ? CTX_F_MASK : 0) |
	    (o->pending_release == CORE_WAITING ? CTX_F_RELEASE : 0) |
	    (o->pending_release == CORE_JOINING ? CTX_F_JOIN : 0) |
	    (o->tune.drift ? CTX_F_DRIFT : 0);
	o->hctx[CTX_H_NBPS] = (uint32_t)o->nbps;
	o->hctx[CTX_H_STOP_AT] = K;
	o->hctx[CTX_H_NOTE] = 0;
	/* words STEPS .. LAUNCH_ID, HEAP_TOP among them: the device's,
	 * which the host copy holds (m->heap_top is read back every
	 * launch) */
	o->hctx[CTX_H_HEAP_TOP] = m->heap_top;
	if (++o->launch_id == 0)
		o->launch_id = 1;
	o->hctx[CTX_H_LAUNCH_ID] = o->launch_id;
	if (o->since == 0)
		o->since = o->launch_id;
	if (ocl_ctx_put(o, CTX_H_STEPS, CTX_H_LAUNCH_ID - CTX_H_STEPS + 1,
	    cause) != 0 || ocl_ctx_close(o, cause) != 0)
		return -1;
	o->ctx_fresh = o->ctx_fresh_cores = 0;
	if (K == 1 && o->step1) {
		size_t nw = o->nwarps;

		cl_int err;

		if (ocl_mirror_unmap(o, cause) != 0)
			return -1;
		if (ocl_enqueue_run(o, o->kern1, cause) != 0) {
			ocl_mirror_reclaim(o);
			return -1;
		}
		err = clEnqueueNDRangeKernel(o->q, o->fold1, 1, NULL, &nw,
		    NULL, 0, NULL, NULL);
		if (err != CL_SUCCESS) {
			*cause = ocl_cl_failure(o, "clEnqueueNDRangeKernel",
			    err);
			ocl_mirror_reclaim(o);
			return -1;
		}
	} else if (ocl_enqueue_run(o, o->kern, cause) != 0)
		return -1;
	/* the in-order queue: this read waits for the kernel */
	if (ocl_read_buf(o, o->b_ctx, CTX_H_STEPS * 4,
	    (CTX_H_NOTE - CTX_H_STEPS + 1) * 4, h + CTX_H_STEPS,
	    cause) != 0) {
		ocl_mirror_reclaim(o);
		return -1;
	}
	if (o->mirror && K == 1) {
		if (ocl_mirror_map(o, cause) != 0)
			return -1;
		/* m->cores holds what this launch changed: behind only if
		 * an earlier launch left it so */
		if (o->since == o->launch_id)
			o->since = 0;
	}
	t_kernel = ocl_now() - t0;
	o->stats.launches++;
	o->stats.launch_steps += K;
	o->pending_release = 0;
	m->heap_top = h[CTX_H_HEAP_TOP];
	o->warps_fresh = 0;
	o->quiet = h[CTX_H_NOTE] == 0 && h[CTX_H_STOP_AT] == K;
	if (!o->quiet) {
		if (ocl_ctx_fetch_cores(o, cause) != 0)
			return -1;
		ocl_absorb_news(o);
		if (ocl_drain_output(o, cause) != 0)
			return -1;
	}
	for (size_t i = 0; i < o->n_in_cores && !o->quiet; i++) {
		uint32_t c = o->in_cores[i];
		uint32_t used = CF(o, c, CTX_C_IN_POS);

		if (used > 0) {
			m->io[c].in_pos += used;
			o->in_dirty[i] = 1;
		}
	}
	o->ck.age += ocl_now() - t0;
	/* Adapt K on full launches (short ones say nothing about speed),
	 * by the kernel's time alone: the read-back of a big context is a
	 * fixed cost that fewer steps would not shorten. */
	if (o->k_fixed == 0 && K == o->k_adapt) {
		/* Towards the middle of the band in one go where the launch
		 * was far too short (a GPU runs thousands of steps of a
		 * million cores in the band), by at most K_GROW. */
		if (t_kernel < LAUNCH_MIN_S && o->k_adapt < K_MAX) {
			double f = t_kernel > 0 ? LAUNCH_MID_S / t_kernel :
			    K_GROW;

			uint64_t k;

			f = f < 1.25 ? 1.25 : f > K_GROW ? K_GROW : f;
			k = (uint64_t)((double)o->k_adapt * f);
			o->k_adapt = k > o->k_adapt ? k : o->k_adapt + 1;
			if (o->k_adapt > K_MAX)
				o->k_adapt = K_MAX;
		} else if (t_kernel > LAUNCH_MAX_S && o->k_adapt > 1) {
			o->k_adapt /= 2;
		}
	}
	return 0;
}

/* Any core that may run (RUNNING and inside the mask)?  Statuses are
 * exact in stat, and counted. */
int
ocl_any_runnable(const struct ocl_engine *o, const uint8_t *mask)
{
	if (o->cnt[CORE_RUNNING] == 0)
		return 0;
	if (mask == NULL)
		return 1;
	for (uint32_t c = 0; c < o->ncores; c++)
		if (o->stat[c] == CORE_RUNNING && mask[c])
			return 1;
	return 0;
}

/* ref_barrier_release (a barrier, else the fork-join's join), from the
 * counts, in stat; m->cores follows at the next ocl_sync_cores (the
 * released cores' blocks are stale), the device at the next launch. */
void
ocl_release_barrier(struct ocl_engine *o)
{
	uint8_t from = o->cnt[CORE_WAITING] > 0 ? CORE_WAITING :
	    CORE_JOINING;

	if (o->cnt[CORE_RUNNING] > 0 || o->cnt[from] == 0)
		return;
	for (uint32_t c = 0; c < o->ncores; c++)
		if (o->stat[c] == from) {
			ocl_set_stat(o->stat, o->cnt, c, CORE_RUNNING);
			o->stale[c >> CTX_BLOCK_SHIFT] = 1;
		}
	o->any_stale = 1;
	o->pending_release = from;
}

/*
 * After a launch of K that had news: the boundary the machine really
 * reached (relative), and whether some core ran past it.  Stop records
 * give the cut; without any, a launch with cores still runnable reached
 * K, else it ended at the last step in which a core stopped running.
 * Every stop lowers stop_at (atomic_min), so with stop_at still K no
 * core stopped below K and none ran past K: the news blocks say it all.
 * Below K some core may have run past the cut, in any block: every core
 * is looked at (a breakpoint or fault stop, or an I/O area to serve).
 */
uint32_t
ocl_launch_end(const struct ocl_engine *o, const uint8_t *mask, uint32_t K,
    int *overshoot)
{
	uint32_t cut = o->news.cut, last = 0, event = o->news.event;

	*overshoot = 0;
	if (o->hdr[CTX_H_STOP_AT] < K) {
		for (uint32_t c = 0; c < o->ncores; c++) {
			uint32_t l = CF(o, c, CTX_C_LAST_STEP);

			if (l > last)
				last = l;
		}
		*overshoot = cut != CTX_NONE && last > cut;
	}
	if (cut != CTX_NONE)
		return cut;
	if (ocl_any_runnable(o, mask))
		return K;
	return event;
}

uint32_t
ocl_choose_k(const struct ocl_engine *o, uint64_t remaining)
{
	uint64_t k = o->k_fixed ? o->k_fixed : o->k_adapt;

	if (o->ckpt_ok < 0)
		k = 1;	/* no checkpoint: a launch must not overshoot */
	if (k > remaining)
		k = remaining;
	if (k > K_MAX)
		k = K_MAX;
	return k < 1 ? 1 : (uint32_t)k;
}

/*
 * One launch of at most K steps with the stop checks on, ending at a
 * consistent cut; *ran gets the steps the machine advanced.
 */
static int
advance(struct ocl_engine *o, const struct engine_run *r, uint32_t K,
    uint64_t *ran, char **cause)
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
	if (ocl_launch(o, r, K, 1, cause) != 0)
		return -1;
	if (o->quiet) {
		/* every running core ran K steps, nothing else changed */
		m->step = start + K;
		*ran = K;
		return 0;
	}
	end = ocl_launch_end(o, r->mask, K, &over);
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
	run_summary(o, 0, &sum);
	if (!engine_live(&sum)) {
		stop->reason = STOP_DONE;
		return 0;
	}
	if (upload_run_tables(o, r, cause) != 0)
		return -1;
	o->ck.valid = 0;	/* host edits since the last run */
	while (stop->steps_run < r->max_steps) {
		uint64_t ran;

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
		    r->max_steps - stop->steps_run), &ran, cause) != 0)
			return -1;
		stop->steps_run += ran;
		/* A quiet launch with the checks on: no core stopped
		 * running, faulted or met a breakpoint at any boundary. */
		if (o->quiet)
			continue;
		/* The fault's and the breakpoints' checks look at the
		 * cores' registers: those that ran must be converted
		 * first. */
		if ((o->cnt[CORE_ERROR] > faulted_before || r->nbps > 0) &&
		    ocl_sync_cores(o, cause) != 0)
			return -1;
		run_summary(o, 1, &sum);
		if (engine_step_stop(e, r, stop, &sum, faulted_before, o->seen,
		    1, o->lv->bp_on))
			return 0;
	}
	stop->reason = STOP_STEPS;
	return 0;
}

/* Launches may leave m->cores behind; what run() returns never is. */
int
ocl_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct ocl_engine *o = e->impl;

	return run_launches(e, r, stop, cause) != 0 ? -1 :
	    ocl_sync_cores(o, cause);
}
