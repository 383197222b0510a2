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
#include "par.h"

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

/* A lane's program path (doc/manycore.md section 3): its PC at the ISA
 * level, its MPC at a micro level. */
static int32_t
path_of(const struct core *c, int by_mpc)
{
	return by_mpc ? (int32_t)c->mpc : c->pc;
}

/* The active lanes of v's warp grouped by path, in order of first
 * appearance (v->first and v->lanes set): a lane mostly shares its
 * neighbour's path, so that one is tried first. */
static void
group_paths(const struct machine *m, int by_mpc, struct warp_view *v)
{
	uint32_t last = 0;

	for (uint32_t l = 0; l < v->lanes; l++) {
		const struct core *c = &m->cores[v->first + l];
		int32_t p;
		uint32_t k;

		if (c->status != CORE_RUNNING)
			continue;
		p = path_of(c, by_mpc);
		v->active |= (uint64_t)1 << l;
		v->nactive++;
		if (v->npaths > 0 && v->pc[last] == p) {
			v->count[last]++;
			continue;
		}
		for (k = 0; k < v->npaths && v->pc[k] != p; k++)
			;
		if (k == v->npaths) {
			v->pc[k] = p;
			v->count[k] = 0;
			v->npaths++;
		}
		v->count[k]++;
		last = k;
	}
}

static void
warp_start(const struct machine *m, uint32_t w, struct warp_view *v)
{
	uint32_t width = m->cfg.warp_width;

	v->first = w * width;
	v->lanes = m->cfg.ncores - v->first < width ?
	    m->cfg.ncores - v->first : width;
	v->active = v->converged = 0;
	v->nactive = v->npaths = 0;
}

void
div_warp(const struct machine *m, uint32_t w, int by_mpc,
    struct warp_view *v)
{
	uint32_t best = 0;

	memset(v, 0, sizeof *v);
	warp_start(m, w, v);
	group_paths(m, by_mpc, v);
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
div_warp_counts(const struct machine *m, uint32_t w, int by_mpc,
    struct warp_view *v)
{
	warp_start(m, w, v);
	group_paths(m, by_mpc, v);
}

/* A thread's share of div_sample. */
struct sample_part {
	struct par_part	 r;           /* warps */
	const struct machine *m;
	int		 by_mpc;
	uint64_t	 active, paths;
	uint64_t	 hist[65];
};

static void *
sample_part(void *arg)
{
	struct sample_part *p = arg;
	struct warp_view v;

	/* the sample needs the groups' sizes, not their order */
	for (uint32_t w = (uint32_t)p->r.lo; w < p->r.hi; w++) {
		warp_start(p->m, w, &v);
		group_paths(p->m, p->by_mpc, &v);
		p->active += v.nactive;
		p->paths += v.npaths;
		for (uint32_t k = 0; k < v.npaths; k++)
			p->hist[v.count[k]]++;
	}
	return NULL;
}

/* One pass over every core per stop, split over host threads (par.h). */
void
div_sample(struct div_acc *d, const struct machine *m, int by_mpc)
{
	uint32_t nw = machine_nwarps(m);
	uint32_t t = par_threads(m->cfg.ncores);
	struct sample_part part[PAR_MAX];

	for (uint32_t i = 0; i < t; i++)
		part[i] = (struct sample_part){ .m = m, .by_mpc = by_mpc };
	par_split(nw, t, sample_part, part, sizeof part[0]);
	d->samples++;
	for (uint32_t i = 0; i < t; i++) {
		d->active += part[i].active;
		d->paths += part[i].paths;
		for (uint32_t k = 1; k <= d->width && k <= 64; k++)
			d->hist[k] += part[i].hist[k];
	}
}
