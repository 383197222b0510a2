/*
 * SVG timelines (doc/debugger.md section 5): the whole run at a glance,
 * drawn with the bench plot's frame, text and palette (src/core/svg.h),
 * so that a report needs no plotting tool.  Time runs left to right in
 * at most SVG_COLS columns: when a run outgrows them, neighbouring
 * columns are merged (averaged), so any run length gives one page.
 *
 * Three bands, top to bottom:
 *   per warp, the SIMD efficiency active / (W x paths) as a heat row
 *   (white 0 %, dark blue 100 %), then per warp its program paths (the
 *   kernel paths k when the engine records them) as a heat row (white 1,
 *   dark orange W); one row a warp for up to TRACE_ALL_WARPS warps,
 *   beyond that three rows, the minimum, mean and maximum over all warps;
 *   the machine's SIMD efficiency, 0 to 100 %, as a line;
 *   the running, waiting, halted and faulted cores as lines.
 * Nothing is written until the trace closes: the file is the drawing.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "svg.h"
#include "trace-int.h"

#define SVG_COLS	600		/* time columns at most */
#define ROW_H		8.0		/* a heat row's height */
#define X0		110.0		/* left edge of the bands */
#define COL_W		1.0		/* a column's width */
#define LINE_H		120.0		/* height of a line band */
#define GAP		36.0

enum { ST_RUN, ST_WAIT, ST_HALT, ST_FAULT, NST };

struct svgt {
	uint32_t	 rows;       /* heat rows: warps, or min/mean/max */
	uint32_t	 ncols;      /* columns in use */
	uint64_t	 per;        /* steps a full column holds */
	uint64_t	 first;      /* the step of column 0's first sample */
	double		*eff;        /* per column and row: sums */
	double		*paths;
	double		 meff[SVG_COLS];      /* the machine's efficiency */
	double		 st[NST][SVG_COLS];   /* status counts */
	uint64_t	 n[SVG_COLS];         /* samples in the column */
	int		 kernel;     /* paths are the engine's k */
};

/* Merge column pairs: the run outgrew the page. */
static void
halve(struct svgt *g)
{
	uint32_t half = g->ncols / 2;

	for (uint32_t c = 0; c < half; c++) {
		uint32_t a = 2 * c, b = 2 * c + 1;

		for (uint32_t r = 0; r < g->rows; r++) {
			g->eff[c * g->rows + r] = g->eff[a * g->rows + r] +
			    g->eff[b * g->rows + r];
			g->paths[c * g->rows + r] = g->paths[a * g->rows + r] +
			    g->paths[b * g->rows + r];
		}
		g->meff[c] = g->meff[a] + g->meff[b];
		for (int s = 0; s < NST; s++)
			g->st[s][c] = g->st[s][a] + g->st[s][b];
		g->n[c] = g->n[a] + g->n[b];
	}
	g->ncols = half;
	g->per *= 2;
	memset(&g->n[half], 0, (SVG_COLS - half) * sizeof g->n[0]);
	for (uint32_t c = half; c < SVG_COLS; c++) {
		memset(&g->eff[c * g->rows], 0, g->rows * sizeof *g->eff);
		memset(&g->paths[c * g->rows], 0, g->rows * sizeof *g->paths);
		g->meff[c] = 0;
		for (int s = 0; s < NST; s++)
			g->st[s][c] = 0;
	}
}

static void
sample(struct trace *t, const struct trace_view *v)
{
	struct svgt *g = t->st;
	struct trace_warps tw;
	uint64_t active = 0, paths = 0;
	double mn[2] = { 1e300, 1e300 }, mx[2] = { 0, 0 }, sum[2] = { 0, 0 };
	struct ref_summary rs;
	uint32_t c;

	if (g->ncols == SVG_COLS && g->n[SVG_COLS - 1] >= g->per)
		halve(g);
	c = g->ncols == 0 ? 0 : g->ncols - 1;
	if (g->ncols == 0 || g->n[c] >= g->per)
		c = g->ncols++;
	trace_warps_begin(v, &tw);
	g->kernel = tw.have_k;
	for (uint32_t i = 0; i < t->nwarps; i++) {
		uint32_t na, np, k;
		double e, p;

		p = trace_warp_at(v, &tw, i, &na, &np, &k) ? k : np;
		active += na;
		paths += np;
		e = np > 0 ? 100.0 * na / ((double)t->width * np) : 0;
		if (g->rows == t->nwarps) {
			g->eff[c * g->rows + i] += e;
			g->paths[c * g->rows + i] += p;
			continue;
		}
		mn[0] = e < mn[0] ? e : mn[0];
		mx[0] = e > mx[0] ? e : mx[0];
		sum[0] += e;
		mn[1] = p < mn[1] ? p : mn[1];
		mx[1] = p > mx[1] ? p : mx[1];
		sum[1] += p;
	}
	if (g->rows != t->nwarps) {
		double *row[2] = { &g->eff[c * 3], &g->paths[c * 3] };

		for (int k = 0; k < 2; k++) {
			row[k][0] += mn[k];
			row[k][1] += sum[k] / t->nwarps;
			row[k][2] += mx[k];
		}
	}
	g->meff[c] += paths > 0 ? 100.0 * (double)active /
	    ((double)t->width * (double)paths) : 0;
	trace_status(v, &rs);
	g->st[ST_RUN][c] += rs.running + rs.joining;
	g->st[ST_WAIT][c] += rs.waiting;
	g->st[ST_HALT][c] += rs.halted;
	g->st[ST_FAULT][c] += rs.faulted;
	g->n[c]++;
}

static void
svgt_start(struct trace *t, const struct trace_view *v)
{
	struct svgt *g = xcalloc(1, sizeof *g);

	t->st = g;
	g->rows = t->nwarps <= TRACE_ALL_WARPS ? t->nwarps : 3;
	g->per = 1;
	g->first = v->m->step;
	g->eff = xcalloc((size_t)SVG_COLS * g->rows, sizeof *g->eff);
	g->paths = xcalloc((size_t)SVG_COLS * g->rows, sizeof *g->paths);
	sample(t, v);
}

static void
svgt_record(struct trace *t, const struct trace_view *v)
{
	sample(t, v);
}

static void
svgt_mark(struct trace *t, const struct trace_view *v, const char *what)
{
	(void)t;
	(void)v;
	(void)what;	/* a timeline of averages has no place for them */
}

/* White to colour by x in 0..1: the heat rows. */
static void
heat(FILE *f, double x, unsigned r, unsigned g, unsigned b)
{
	x = x < 0 ? 0 : x > 1 ? 1 : x;
	fprintf(f, "#%02x%02x%02x", (unsigned)(255 - (255 - r) * x),
	    (unsigned)(255 - (255 - g) * x), (unsigned)(255 - (255 - b) * x));
}

static void
label(FILE *f, double x, double y, const char *anchor, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" "
	    "font-size=\"11\" text-anchor=\"%s\">", x, y, anchor);
	svg_text(f, text);
	fputs("</text>\n", f);
}

static double
heat_band(struct trace *t, double y, const double *v, double scale,
    unsigned r, unsigned gr, unsigned b, const char *what)
{
	struct svgt *g = t->st;
	FILE *f = t->af.f;
	char name[48];

	label(f, X0, y - 6, "start", what);
	y += 4;
	for (uint32_t row = 0; row < g->rows; row++) {
		if (g->rows == t->nwarps)
			snprintf(name, sizeof name, "warp %u", row);
		else
			snprintf(name, sizeof name, "%s", row == 0 ? "min" :
			    row == 1 ? "mean" : "max");
		if (g->rows <= TRACE_ALL_WARPS && (g->rows <= 8 || row % 4 == 0))
			label(f, X0 - 6, y + ROW_H * row + ROW_H - 1, "end",
			    name);
		for (uint32_t c = 0; c < g->ncols; c++) {
			double x = g->n[c] ? v[c * g->rows + row] / g->n[c] /
			    scale : 0;

			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\" fill=\"", X0 + c * COL_W,
			    y + ROW_H * row, COL_W, ROW_H);
			heat(f, x, r, gr, b);
			fputs("\"/>\n", f);
		}
	}
	return y + ROW_H * g->rows + GAP;
}

/* A line band: series s of ns, each v[s][c] / n[c], 0 .. top. */
static double
line_band(struct trace *t, double y, double (*v)[SVG_COLS], int ns,
    const char *const *names, double top, const char *what)
{
	struct svgt *g = t->st;
	FILE *f = t->af.f;
	char tick[32];

	label(f, X0, y - 6, "start", what);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	    "fill=\"none\" stroke=\"#000000\"/>\n", X0, y, SVG_COLS * COL_W,
	    LINE_H);
	snprintf(tick, sizeof tick, "%g", top);
	label(f, X0 - 6, y + 10, "end", tick);
	label(f, X0 - 6, y + LINE_H, "end", "0");
	for (int s = 0; s < ns; s++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" "
		    "stroke-width=\"1.5\" points=\"", svg_color((unsigned)s));
		for (uint32_t c = 0; c < g->ncols; c++) {
			double val = g->n[c] ? v[s][c] / g->n[c] : 0;

			fprintf(f, "%s%.1f,%.1f", c ? " " : "",
			    X0 + (c + 0.5) * COL_W, y + LINE_H - val / top *
			    LINE_H);
		}
		fputs("\"/>\n", f);
		if (names != NULL) {
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" "
			    "height=\"3\" fill=\"%s\"/>\n", X0 + SVG_COLS *
			    COL_W + 10, y + 12 + 16 * s, svg_color((unsigned)s));
			label(f, X0 + SVG_COLS * COL_W + 24, y + 16 + 16 * s,
			    "start", names[s]);
		}
	}
	return y + LINE_H + GAP;
}

static void
svgt_finish(struct trace *t)
{
	static const char *const st_names[NST] = {
		"running", "waiting", "halted", "faulted",
	};
	struct svgt *g = t->st;
	FILE *f = t->af.f;
	double y = 84, h = 84 + 2 * (ROW_H * g->rows + GAP + 4) +
	    2 * (LINE_H + GAP) + 20;
	char sub[160], steps[64];

	snprintf(sub, sizeof sub, "%u cores, %u warps of %u; steps %llu to "
	    "%llu, %llu a column", t->ncores, t->nwarps, t->width,
	    (unsigned long long)g->first, (unsigned long long)t->last_step,
	    (unsigned long long)g->per);
	svg_begin(f, X0 + SVG_COLS * COL_W + 110, h, "micdb trace: divergence "
	    "over the run", sub);
	y = heat_band(t, y, g->eff, 100.0, 0x00, 0x48, 0x90,
	    "SIMD efficiency per warp (white 0 %, blue 100 %)");
	y = heat_band(t, y, g->paths, (double)t->width, 0xb0, 0x40, 0x00,
	    g->kernel ? "kernel paths k per warp (white 0, orange W)" :
	    "program paths per warp (white 0, orange W)");
	y = line_band(t, y, &g->meff, 1, NULL, 100.0,
	    "SIMD efficiency of the machine (%)");
	snprintf(steps, sizeof steps, "cores by status (of %u)", t->ncores);
	line_band(t, y, g->st, NST, st_names, (double)t->ncores, steps);
	svg_end(f);
}

static void
svgt_free(struct trace *t)
{
	struct svgt *g = t->st;

	if (g == NULL)
		return;
	free(g->eff);
	free(g->paths);
	free(g);
	t->st = NULL;
}

const struct trace_fmt trace_fmt_svg = {
	.name = "svg",
	.start = svgt_start,
	.record = svgt_record,
	.mark = svgt_mark,
	.finish = svgt_finish,
	.free = svgt_free,
	.counters = TRACE_EVERY_K,
};
