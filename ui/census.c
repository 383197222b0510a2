/*
 * What the cores and warps panes show, computed from the host copy of
 * the machine (never from device buffers): pure functions, so the unit
 * test checks them and measures them at 65,536 cores and more.
 *
 * Cost: the grid only looks at the cores of the cells on screen (all of
 * them when groups make the machine fit, which is what a summary is);
 * the warps pane looks at the warps on screen; the one whole-machine
 * pass (census_totals) is O(cores x paths per warp) with at most 64 lanes
 * per warp, done once per cut (the UI keeps its result until the
 * session's generation changes, access.c).  That pass and the grid's
 * cells, which cover the machine once groups kick in, are split over
 * host threads at large core counts (par.h); each thread sums its own
 * share, so the result is the same however many run.  Nothing here
 * allocates.
 *
 * Program paths follow doc/manycore.md section 3: a lane is active when its
 * core is RUNNING; its path is (program, PC); a warp's paths are ordered
 * by size, ties to the group holding the lowest lane (cuda-gdb's rule,
 * the same as `info warps`).
 */
#include <stdio.h>
#include <string.h>

#include "census.h"
#include "ijvm.h"
#include "par.h"
#include "places.h"
#include "util.h"

const char *const class_word[CLASS_COUNT] = { "run", "halt", "fault",
    "wait", "break", "forked", "join" };

/*
 * "33 run 31 break": the one way the screen counts cores, so that the
 * status bar and the cores pane's title can never disagree (a running
 * core at a breakpoint is counted once, as "break", by both).
 */
void
census_counts_text(const uint32_t *byclass, char *text, size_t size)
{
	size_t n = 0;

	if (size == 0)
		return;
	text[0] = '\0';
	for (int i = 0; i < CLASS_COUNT && n < size; i++)
		if (byclass[i] > 0) {
			int k = snprintf(text + n, size - n, "%s%u %s",
			    n ? " " : "", byclass[i], class_word[i]);

			if (k < 0)
				break;
			n += (size_t)k;
		}
	if (n == 0)
		snprintf(text, size, "no cores");
}

enum core_class
census_class(const struct machine *m, const struct bpmap *b, uint32_t core)
{
	const struct core *c = &m->cores[core];
	const uint8_t *at;
	uint8_t k;

	switch (c->status) {
	case CORE_HALTED:
		return CLASS_HALTED;
	case CORE_ERROR:
		return CLASS_FAULTED;
	case CORE_WAITING:
		return CLASS_WAITING;
	case CORE_JOINING:
		return CLASS_JOINING;
	default:
		break;
	}
	if (b == NULL || c->prog >= b->nprogs || (at = b->at[c->prog]) == NULL ||
	    c->pc < 0 || (uint32_t)c->pc >= m->progs[c->prog]->text_size ||
	    (k = at[c->pc]) == 0)
		return (c->fork & FJ_IN) ? CLASS_FORKED : CLASS_RUNNING;
	if (k == 255 || (b->mask != NULL && b->mask[k - 1] != NULL &&
	    b->mask[k - 1][core]))
		return CLASS_BREAK;
	return (c->fork & FJ_IN) ? CLASS_FORKED : CLASS_RUNNING;
}

int
census_runs(enum core_class k)
{
	return k == CLASS_RUNNING || k == CLASS_BREAK || k == CLASS_FORKED;
}

static int
opclass_of(const struct machine *m, uint32_t core)
{
	const struct core *c = &m->cores[core];
	const struct program *p = m->progs[c->prog];
	const struct ijvm_opinfo *info;
	uint8_t op;

	if (c->pc < 0 || (uint32_t)c->pc >= p->text_size)
		return -1;
	op = p->text[c->pc];
	if (op == OP_WIDE && (uint32_t)c->pc + 1 < p->text_size)
		op = p->text[c->pc + 1];
	info = ijvm_builtin(op);
	return info != NULL ? info->cls : OPC_CUSTOM;
}

void
census_grid(uint32_t ncores, int w, int h, uint32_t zoom, uint32_t focus,
    struct grid_geom *g)
{
	uint32_t avail, cells, frow;
	int label;

	memset(g, 0, sizeof *g);
	g->cell_w = 2;		/* glyph + separator (or the focus mark) */
	if (w < 2 || h < 1 || ncores == 0) {
		g->group = 1;
		return;
	}
	label = (int)decimal_digits(ncores - 1) + 1;
	if (w >= label + 8 * g->cell_w)
		g->label_w = label;
	avail = (uint32_t)(w - g->label_w) / (uint32_t)g->cell_w;
	if (avail < 1)
		avail = 1;
	/* rows of 8, 16, 32 ... cores line up with warps of those widths */
	if (avail >= 8)
		g->per_row = avail / 8 * 8;
	else
		g->per_row = avail;
	if (zoom > 0)
		g->group = zoom;
	else {
		g->group = 1;
		while ((uint64_t)(ncores + g->group - 1) / g->group >
		    (uint64_t)g->per_row * (uint32_t)h)
			g->group *= 2;
	}
	cells = (uint32_t)(((uint64_t)ncores + g->group - 1) / g->group);
	g->rows = (cells + g->per_row - 1) / g->per_row;
	g->shown = g->rows < (uint32_t)h ? g->rows : (uint32_t)h;
	frow = focus / g->group / g->per_row;
	if (g->rows > (uint32_t)h) {
		uint32_t half = (uint32_t)h / 2;

		g->top = frow > half ? frow - half : 0;
		if (g->top > g->rows - (uint32_t)h)
			g->top = g->rows - (uint32_t)h;
	}
}

void
census_cell(const struct machine *m, const struct bpmap *b, uint32_t first,
    uint32_t count, struct grid_cell *c)
{
	/* ties: what a user wants to notice first */
	static const uint8_t order[CLASS_COUNT] = { CLASS_BREAK, CLASS_FAULTED,
	    CLASS_WAITING, CLASS_JOINING, CLASS_FORKED, CLASS_RUNNING,
	    CLASS_HALTED };
	uint32_t ops[OPC_CUSTOM + 1], best = 0;

	memset(c, 0, sizeof *c);
	memset(ops, 0, sizeof ops);
	c->first = first;
	if (first >= m->cfg.ncores)
		return;
	if (count > m->cfg.ncores - first)
		count = m->cfg.ncores - first;
	c->count = count;
	for (uint32_t i = first; i < first + count; i++) {
		enum core_class k = census_class(m, b, i);

		c->byclass[k]++;
		if (census_runs(k)) {
			int oc = opclass_of(m, i);

			if (oc >= 0 && oc <= OPC_CUSTOM)
				ops[oc]++;
		}
	}
	c->cls = order[0];
	for (int i = 0; i < CLASS_COUNT; i++)
		if (c->byclass[order[i]] > c->byclass[c->cls])
			c->cls = order[i];
	c->majority = c->byclass[c->cls];
	c->opclass = -1;
	for (int i = 0; i <= OPC_CUSTOM; i++)
		if (ops[i] > best) {
			best = ops[i];
			c->opclass = i;
		}
}

void
census_warp(const struct machine *m, uint32_t w, struct warp_paths *v)
{
	uint32_t width = m->cfg.warp_width, remap[64];

	v->first = w * width;
	v->lanes = m->cfg.ncores - v->first < width ?
	    m->cfg.ncores - v->first : width;
	if (v->lanes > 64)
		v->lanes = 64;
	v->nactive = 0;
	v->npaths = 0;
	for (uint32_t l = 0; l < v->lanes; l++) {
		const struct core *c = &m->cores[v->first + l];
		uint32_t k;

		v->lane_path[l] = 255;
		if (c->status != CORE_RUNNING)
			continue;
		v->nactive++;
		for (k = 0; k < v->npaths; k++)
			if (v->pc[k] == c->pc && v->prog[k] == c->prog)
				break;
		if (k == v->npaths) {
			v->pc[k] = c->pc;
			v->prog[k] = c->prog;
			v->count[k] = 0;
			v->npaths++;
		}
		v->count[k]++;
		v->lane_path[l] = (uint8_t)k;
	}
	/* stable insertion sort by size: first seen (lowest lane) first
	 * among equals; remap[old] = new keeps lane_path right */
	{
		uint32_t idx[64];

		for (uint32_t i = 0; i < v->npaths; i++)
			idx[i] = i;
		for (uint32_t i = 1; i < v->npaths; i++) {
			uint32_t x = idx[i], j = i;

			for (; j > 0 && v->count[idx[j - 1]] < v->count[x]; j--)
				idx[j] = idx[j - 1];
			idx[j] = x;
		}
		if (v->npaths > 1) {
			int32_t pc[64];
			uint16_t prog[64];
			uint32_t count[64];

			for (uint32_t i = 0; i < v->npaths; i++) {
				pc[i] = v->pc[idx[i]];
				prog[i] = v->prog[idx[i]];
				count[i] = v->count[idx[i]];
				remap[idx[i]] = i;
			}
			memcpy(v->pc, pc, v->npaths * sizeof *pc);
			memcpy(v->prog, prog, v->npaths * sizeof *prog);
			memcpy(v->count, count, v->npaths * sizeof *count);
			for (uint32_t l = 0; l < v->lanes; l++)
				if (v->lane_path[l] != 255)
					v->lane_path[l] =
					    (uint8_t)remap[v->lane_path[l]];
		}
	}
}

/* A thread's share of census_totals. */
struct totals_part {
	struct par_part	 r;           /* warps */
	const struct machine *m;
	const struct bpmap *b;
	struct census_totals t;
};

static void *
totals_part(void *arg)
{
	struct totals_part *p = arg;
	const struct machine *m = p->m;
	const struct bpmap *b = p->b;
	struct census_totals *t = &p->t;
	uint32_t n = m->cfg.ncores, W = m->cfg.warp_width;

	if (W > 64)
		W = 64;		/* as census_warp: at most 64 lanes */
	/* warp by warp: the classes, and each warp's paths as census_warp
	 * finds them, without its order (the totals do not depend on it) */
	for (uint32_t w = (uint32_t)p->r.lo; w < p->r.hi; w++) {
		uint32_t first = w * m->cfg.warp_width;
		uint32_t lanes = n - first < W ? n - first : W;
		uint32_t count[64], npaths = 0, nactive = 0, last = 0;
		int32_t pc[64];
		uint16_t prog[64];

		for (uint32_t l = 0; l < lanes; l++) {
			const struct core *c = &m->cores[first + l];
			uint32_t k;

			t->byclass[census_class(m, b, first + l)]++;
			if (c->status != CORE_RUNNING)
				continue;
			nactive++;
			/* neighbours mostly share a path: try the last one */
			if (npaths > 0 && pc[last] == c->pc &&
			    prog[last] == c->prog) {
				count[last]++;
				continue;
			}
			for (k = 0; k < npaths; k++)
				if (pc[k] == c->pc && prog[k] == c->prog)
					break;
			if (k == npaths) {
				pc[k] = c->pc;
				prog[k] = c->prog;
				count[k] = 0;
				npaths++;
			}
			count[k]++;
			last = k;
		}
		/* lanes beyond 64 of a wider warp are not in its paths */
		for (uint32_t l = lanes; first + l < n &&
		    l < m->cfg.warp_width; l++)
			t->byclass[census_class(m, b, first + l)]++;
		if (nactive == 0)
			continue;
		t->busy_warps++;
		t->active += nactive;
		t->paths += npaths;
		for (uint32_t k = 0; k < npaths; k++)
			t->hist[count[k]]++;
	}
	return NULL;
}

/* One pass over every core, split over host threads (par.h). */
void
census_totals(const struct machine *m, const struct bpmap *b,
    struct census_totals *t)
{
	uint32_t nw = machine_nwarps(m), t_n = par_threads(m->cfg.ncores);
	struct totals_part part[PAR_MAX];

	for (uint32_t i = 0; i < t_n; i++)
		part[i] = (struct totals_part){ .m = m, .b = b };
	par_split(nw, t_n, totals_part, part, sizeof part[0]);
	memset(t, 0, sizeof *t);
	for (uint32_t i = 0; i < t_n; i++) {
		const struct census_totals *p = &part[i].t;

		for (int k = 0; k < CLASS_COUNT; k++)
			t->byclass[k] += p->byclass[k];
		t->active += p->active;
		t->paths += p->paths;
		t->busy_warps += p->busy_warps;
		for (int k = 0; k <= 64; k++)
			t->hist[k] += p->hist[k];
	}
}

/* A thread's share of census_cells. */
struct cells_part {
	struct par_part	 r;           /* cells */
	const struct machine *m;
	const struct bpmap *b;
	const struct grid_geom *g;
	struct grid_cell *cells;
};

static void *
cells_part(void *arg)
{
	struct cells_part *p = arg;
	const struct grid_geom *g = p->g;

	for (uint32_t i = (uint32_t)p->r.lo; i < p->r.hi; i++) {
		uint64_t first = ((uint64_t)g->top * g->per_row + i) * g->group;

		if (first >= p->m->cfg.ncores)
			memset(&p->cells[i], 0, sizeof p->cells[i]);
		else
			census_cell(p->m, p->b, (uint32_t)first, g->group,
			    &p->cells[i]);
	}
	return NULL;
}

void
census_cells(const struct machine *m, const struct bpmap *b,
    const struct grid_geom *g, struct grid_cell *cells)
{
	uint32_t n = g->shown * g->per_row;
	uint64_t cores = (uint64_t)n * g->group;
	uint32_t t = par_threads(cores < m->cfg.ncores ? cores :
	    m->cfg.ncores);
	struct cells_part part[PAR_MAX];

	if (t > n)
		t = n > 0 ? n : 1;
	for (uint32_t i = 0; i < t; i++) {
		part[i].m = m;
		part[i].b = b;
		part[i].g = g;
		part[i].cells = cells;
	}
	par_split(n, t, cells_part, part, sizeof part[0]);
}

void
census_hist_text(const struct census_totals *t, uint32_t width, char *text,
    size_t size)
{
	size_t len = 0;

	text[0] = '\0';
	for (uint32_t lo = 1; lo <= width && lo <= 64; lo *= 2) {
		uint32_t hi = lo * 2 - 1 < width ? lo * 2 - 1 : width;
		uint64_t n = 0;
		int k;

		for (uint32_t i = lo; i <= hi && i <= 64; i++)
			n += t->hist[i];
		if (n == 0)	/* short enough for one line */
			continue;
		if (lo == hi)
			k = snprintf(text + len, size - len, "%s%u:%llu",
			    len ? " " : "", lo, (unsigned long long)n);
		else
			k = snprintf(text + len, size - len, "%s%u-%u:%llu",
			    len ? " " : "", lo, hi, (unsigned long long)n);
		if (k < 0 || (size_t)k >= size - len)
			break;
		len += (size_t)k;
	}
	if (len == 0)
		snprintf(text, size, "-");
}
