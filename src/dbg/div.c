/*
 * Program divergence on the host (doc/manycore.md section 3): per warp, the
 * active lanes (RUNNING cores) and how many distinct PCs they are at.
 * Engines that record divergence themselves (the OpenCL kernels, with
 * their kernel path count k) will report through the engine; the
 * reference interpreter records nothing, so the session samples the PCs
 * at every stop instead: efficiency = sum(active) / (W * sum(paths)),
 * and a histogram of how many active lanes share a path.  That is the
 * program-divergence analogue of the kernel's SIMD efficiency; k itself
 * is not available from the reference engine and the commands say so.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

void
div_init(struct div_acc *d, uint32_t warp_width)
{
	memset(d, 0, sizeof *d);
	d->width = warp_width;
	d->hist = xcalloc(warp_width + 1, sizeof *d->hist);
}

void
div_free(struct div_acc *d)
{
	free(d->hist);
	memset(d, 0, sizeof *d);
}

void
div_reset(struct div_acc *d)
{
	memset(d->hist, 0, (d->width + 1) * sizeof *d->hist);
	d->samples = d->active = d->paths = 0;
}

uint32_t
div_nwarps(const struct machine *m)
{
	uint32_t w = m->cfg.warp_width;

	return (m->cfg.ncores + w - 1) / w;
}

/* A lane's program path (doc/manycore.md section 3): its PC at the ISA
 * level, its MPC at a micro level. */
static int32_t
path_of(const struct core *c, int by_mpc)
{
	return by_mpc ? (int32_t)c->mpc : c->pc;
}

void
div_warp(const struct machine *m, uint32_t w, int by_mpc,
    struct warp_view *v)
{
	uint32_t width = m->cfg.warp_width;
	uint32_t best = 0;

	memset(v, 0, sizeof *v);
	v->first = w * width;
	v->lanes = m->cfg.ncores - v->first < width ?
	    m->cfg.ncores - v->first : width;
	for (uint32_t l = 0; l < v->lanes; l++) {
		const struct core *c = &m->cores[v->first + l];
		uint32_t k;

		if (c->status != CORE_RUNNING)
			continue;
		v->active |= (uint64_t)1 << l;
		v->nactive++;
		for (k = 0; k < v->npaths && v->pc[k] != path_of(c, by_mpc);
		    k++)
			;
		if (k == v->npaths) {
			v->pc[k] = path_of(c, by_mpc);
			v->count[k] = 0;
			v->npaths++;
		}
		v->count[k]++;
	}
	/* Largest group first; insertion sort keeps first-seen (lowest
	 * lane) order among equal sizes, which is the cuda-gdb tie rule. */
	for (uint32_t i = 1; i < v->npaths; i++) {
		int32_t pc = v->pc[i];
		uint32_t n = v->count[i], j = i;

		for (; j > 0 && v->count[j - 1] < n; j--) {
			v->pc[j] = v->pc[j - 1];
			v->count[j] = v->count[j - 1];
		}
		v->pc[j] = pc;
		v->count[j] = n;
	}
	if (v->npaths > 0) {
		best = (uint32_t)v->pc[0];
		for (uint32_t l = 0; l < v->lanes; l++) {
			const struct core *c = &m->cores[v->first + l];

			if (c->status == CORE_RUNNING &&
			    (uint32_t)path_of(c, by_mpc) == best)
				v->converged |= (uint64_t)1 << l;
		}
	}
}

void
div_sample(struct div_acc *d, const struct machine *m, int by_mpc)
{
	uint32_t nw = div_nwarps(m);
	struct warp_view v;

	d->samples++;
	for (uint32_t w = 0; w < nw; w++) {
		div_warp(m, w, by_mpc, &v);
		if (v.nactive == 0)
			continue;
		d->active += v.nactive;
		d->paths += v.npaths;
		for (uint32_t k = 0; k < v.npaths; k++)
			d->hist[v.count[k]]++;
	}
}
