/*
 * One launch (ocl-engine.h): the input areas fed, the kernel run for up
 * to K steps, the header and the news read back, where the launch ended
 * (ocl_launch_end), whether a core can still run, a completed barrier
 * released, and the K of the next launch.  Below the checkpoints'
 * replay (ocl-ckpt.c) and run() (ocl-run.c), which both launch; above
 * the read-back (ocl-readback.c) and the buffers.  doc/manycore.md
 * section 4 says how launches make consistent cuts.
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "engine-ocl.h"
#include "ocl-engine.h"
#include "ocl-level.h"
#include "ocl.h"
#include "ref.h"
#include "tracebuf.h"

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
	if (K == 1 && o->step1 && !o->tracing) {
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
	/* a trace's records of these steps, at their places in the run
	 * (a replay's launches write over the launch they replay) */
	if (o->tracing && ocl_read_buf(o, o->b_trace, 0, (size_t)K *
	    o->tr_sw * 4, o->tr_host + (size_t)(m->step - o->tr_base) *
	    o->tr_sw, cause) != 0)
		return -1;
	if (o->mirror && K == 1 && !o->tracing) {
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
 * A trace's record of the step at which ocl_release_barrier just
 * released (m->step): the released cores run again after that step, as
 * the reference completes a barrier or a join in the step the last core
 * arrives, where the kernel logged them waiting.  They count as active
 * lanes, and the paths are those among the running and released lanes
 * (tracebuf.h TB_W_RELEASE).
 */
void
ocl_trace_release(struct ocl_engine *o)
{
	uint64_t at = o->m->step - o->tr_base;
	uint32_t *r;

	if (!o->tracing || o->pending_release == 0 || at == 0 ||
	    at > o->tr_cap)
		return;
	r = o->tr_host + (size_t)(at - 1) * o->tr_sw;
	for (uint32_t w = 0; w < o->nwarps; w++, r += TB_WARP_WORDS) {
		uint32_t n, paths;

		if (o->pending_release == CORE_WAITING) {
			n = r[TB_W_STATUS] & 0xFF;
			r[TB_W_STATUS] &= ~0xFFu;
			paths = r[TB_W_RELEASE] & 0xFF;
		} else {
			n = r[TB_W_STATUS] >> 24;
			r[TB_W_STATUS] &= 0xFFFFFFu;
			paths = r[TB_W_RELEASE] >> 8 & 0xFF;
		}
		r[TB_W_COUNTS] = (r[TB_W_COUNTS] & 0xFF0000u) |
		    ((r[TB_W_COUNTS] & 0xFF) + n) | paths << 8;
	}
	/* r: the traced cores' registers */
	for (uint32_t i = 0; i < o->tr_cores; i++, r += o->tr_cw)
		if (r[TB_C_STATUS] == (uint32_t)o->pending_release)
			r[TB_C_STATUS] = CORE_RUNNING;
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
