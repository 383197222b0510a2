/*
 * The log-log plot of svg.h.  Geometry is fixed (a plot area with the
 * legend to its right, so that no legend ever hides a line) and computed
 * in small pure functions; the writer only prints.  Ranges snap outward
 * to whole decades, so every tick is a power of ten and the reader can
 * compare two plots by eye.  Text from outside (device names, labels) is
 * escaped and reduced to printable ASCII: an SVG must stay well-formed
 * XML whatever an OpenCL driver calls itself.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "svg.h"
#include "util.h"

/* Geometry, in SVG user units (pixels). */
#define PLOT_X0     96.0     /* left edge of the plot area */
#define PLOT_Y0     72.0     /* top edge */
#define PLOT_W      560.0
#define PLOT_H      400.0
#define LEGEND_X    (PLOT_X0 + PLOT_W + 28.0)
#define LEGEND_ROW  20.0
#define DOC_W       (LEGEND_X + 300.0)
#define DOC_H_MIN   (PLOT_Y0 + PLOT_H + 64.0)

/* Colour-blind-safe palette (Okabe-Ito, then darker tones). */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
	"#56b4e9", "#000000", "#8c564b", "#7f7f7f", "#bcbd22",
};
#define NPALETTE (sizeof palette / sizeof palette[0])

/* A log axis: the decades lo .. hi (lo < hi) it spans. */
struct axis {
	int	lo;
	int	hi;
};

/* Decades that hold every positive value of the series, on x or y. */
static struct axis
axis_range(const struct svg_plot *p, int want_y)
{
	struct axis a = { 0, 1 };
	double mn = HUGE_VAL, mx = -HUGE_VAL;

	for (size_t s = 0; s < p->nseries; s++) {
		const struct svg_series *se = &p->series[s];

		for (size_t i = 0; i < se->n; i++) {
			double v = want_y ? se->y[i] : se->x[i];

			if (!(se->x[i] > 0) || !(se->y[i] > 0) || !isfinite(v))
				continue;
			if (v < mn)
				mn = v;
			if (v > mx)
				mx = v;
		}
	}
	if (mn > mx)
		return a;	/* nothing to draw: one decade, empty */
	/* A small epsilon keeps exact powers of ten on their own tick. */
	a.lo = (int)floor(log10(mn) + 1e-9);
	a.hi = (int)ceil(log10(mx) - 1e-9);
	if (a.hi <= a.lo)
		a.hi = a.lo + 1;
	return a;
}

static double
map_x(const struct axis *a, double x)
{
	return PLOT_X0 + (log10(x) - a->lo) / (a->hi - a->lo) * PLOT_W;
}

static double
map_y(const struct axis *a, double y)
{
	return PLOT_Y0 + PLOT_H - (log10(y) - a->lo) / (a->hi - a->lo) *
	    PLOT_H;
}

/* The label of decade e: "1k", "10 ns"; buf of at least 32 bytes. */
static void
decade_label(enum svg_axis_kind kind, int e, char *buf, size_t len)
{
	static const char *const count_sfx[] = { "", "k", "M", "G", "T" };
	static const char *const sec_pfx[] = {
		"f", "p", "n", "\xc2\xb5", "m", "", "k",   /* 1e-15 .. 1e3 */
	};
	int p = (int)floor(e / 3.0) * 3, m = e - p;
	const char *mant = m == 0 ? "1" : m == 1 ? "10" : "100";

	if (kind == SVG_AXIS_COUNT) {
		if (e >= 0 && p / 3 < 5)
			snprintf(buf, len, "%s%s", mant, count_sfx[p / 3]);
		else
			snprintf(buf, len, "1e%d", e);
		return;
	}
	if (p >= -15 && p <= 3)
		snprintf(buf, len, "%s %ss", mant, sec_pfx[(p + 15) / 3]);
	else
		snprintf(buf, len, "1e%d s", e);
}

/* Text content or attribute value, escaped; anything but printable
 * ASCII becomes '?' except the UTF-8 micro sign the labels use. */
void
svg_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == 0xc2 && (unsigned char)s[1] == 0xb5) {
			fputs("\xc2\xb5", f);
			s++;
		} else if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch < 0x20 || ch >= 0x7f)
			fputc('?', f);
		else
			fputc(ch, f);
	}
}

static void
draw_axes(FILE *f, const struct svg_plot *p, const struct axis *ax,
    const struct axis *ay)
{
	char lab[32];

	fputs("<g class=\"grid\" stroke=\"#dddddd\" stroke-width=\"1\">\n", f);
	/* minor lines at 2..9 of every decade, then the decades */
	for (int e = ax->lo; e < ax->hi; e++)
		for (int k = 2; k <= 9; k++) {
			double x = map_x(ax, k * pow(10, e));

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\" stroke=\"#f0f0f0\"/>\n", x, PLOT_Y0, x,
			    PLOT_Y0 + PLOT_H);
		}
	for (int e = ay->lo; e < ay->hi; e++)
		for (int k = 2; k <= 9; k++) {
			double y = map_y(ay, k * pow(10, e));

			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\" stroke=\"#f0f0f0\"/>\n", PLOT_X0, y,
			    PLOT_X0 + PLOT_W, y);
		}
	for (int e = ax->lo; e <= ax->hi; e++) {
		double x = map_x(ax, pow(10, e));

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>\n", x, PLOT_Y0, x, PLOT_Y0 + PLOT_H);
	}
	for (int e = ay->lo; e <= ay->hi; e++) {
		double y = map_y(ay, pow(10, e));

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\"/>\n", PLOT_X0, y, PLOT_X0 + PLOT_W, y);
	}
	fputs("</g>\n", f);

	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	    "fill=\"none\" stroke=\"#000000\"/>\n", PLOT_X0, PLOT_Y0, PLOT_W,
	    PLOT_H);
	fputs("<g class=\"ticks\" font-family=\"sans-serif\" font-size=\"12\" "
	    "fill=\"#000000\">\n", f);
	for (int e = ax->lo; e <= ax->hi; e++) {
		double x = map_x(ax, pow(10, e));

		decade_label(p->xkind, e, lab, sizeof lab);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#000000\"/>\n", x,
		    PLOT_Y0 + PLOT_H, x, PLOT_Y0 + PLOT_H + 6);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" "
		    "text-anchor=\"middle\">", x, PLOT_Y0 + PLOT_H + 20);
		svg_text(f, lab);
		fputs("</text>\n", f);
	}
	for (int e = ay->lo; e <= ay->hi; e++) {
		double y = map_y(ay, pow(10, e));

		decade_label(p->ykind, e, lab, sizeof lab);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"#000000\"/>\n", PLOT_X0 - 6, y,
		    PLOT_X0, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
		    PLOT_X0 - 9, y + 4);
		svg_text(f, lab);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);

	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" "
	    "font-size=\"14\" text-anchor=\"middle\">", PLOT_X0 + PLOT_W / 2,
	    PLOT_Y0 + PLOT_H + 44);
	svg_text(f, p->xlabel);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" "
	    "font-size=\"14\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 %.1f %.1f)\">", 24.0, PLOT_Y0 + PLOT_H / 2,
	    24.0, PLOT_Y0 + PLOT_H / 2);
	svg_text(f, p->ylabel);
	fputs("</text>\n", f);
}

static void
draw_series(FILE *f, const struct svg_series *se, const struct axis *ax,
    const struct axis *ay)
{
	const char *col = palette[se->color % NPALETTE];

	fprintf(f, "<g class=\"series\">\n<title>");
	svg_text(f, se->label);
	fprintf(f, "</title>\n<polyline fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"2\"%s points=\"", col, se->dashed ?
	    " stroke-dasharray=\"6,4\"" : "");
	for (size_t i = 0, k = 0; i < se->n; i++) {
		if (!(se->x[i] > 0) || !(se->y[i] > 0) ||
		    !isfinite(se->x[i]) || !isfinite(se->y[i]))
			continue;
		fprintf(f, "%s%.1f,%.1f", k++ ? " " : "",
		    map_x(ax, se->x[i]), map_y(ay, se->y[i]));
	}
	fputs("\"/>\n", f);
	for (size_t i = 0; i < se->n; i++) {
		if (!(se->x[i] > 0) || !(se->y[i] > 0) ||
		    !isfinite(se->x[i]) || !isfinite(se->y[i]))
			continue;
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
		    "fill=\"%s\"/>\n", map_x(ax, se->x[i]),
		    map_y(ay, se->y[i]), se->dashed ? "#ffffff" : col);
		if (se->dashed)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
			    "fill=\"none\" stroke=\"%s\"/>\n",
			    map_x(ax, se->x[i]), map_y(ay, se->y[i]), col);
	}
	fputs("</g>\n", f);
}

static void
draw_legend(FILE *f, const struct svg_plot *p)
{
	fputs("<g class=\"legend\" font-family=\"sans-serif\" "
	    "font-size=\"12\">\n", f);
	for (size_t s = 0; s < p->nseries; s++) {
		const struct svg_series *se = &p->series[s];
		const char *col = palette[se->color % NPALETTE];
		double y = PLOT_Y0 + 10 + (double)s * LEGEND_ROW;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		    "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
		    LEGEND_X, y, LEGEND_X + 28, y, col, se->dashed ?
		    " stroke-dasharray=\"6,4\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", LEGEND_X + 36,
		    y + 4);
		svg_text(f, se->label);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

const char *
svg_color(unsigned i)
{
	return palette[i % NPALETTE];
}

void
svg_begin(FILE *f, double w, double h, const char *title,
    const char *subtitle)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
	    "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
	    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
	    w, h, w, h);
	fputs("<title>", f);
	svg_text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
	    w, h);
	fprintf(f, "<text x=\"%.1f\" y=\"28\" font-family=\"sans-serif\" "
	    "font-size=\"16\" font-weight=\"bold\" text-anchor=\"middle\">",
	    w / 2);
	svg_text(f, title);
	fputs("</text>\n", f);
	if (subtitle != NULL) {
		fprintf(f, "<text x=\"%.1f\" y=\"50\" "
		    "font-family=\"sans-serif\" font-size=\"12\" "
		    "text-anchor=\"middle\">", w / 2);
		svg_text(f, subtitle);
		fputs("</text>\n", f);
	}
}

void
svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

int
svg_check(FILE *f, char **cause)
{
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("cannot write the plot: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
svg_write_loglog(FILE *f, const struct svg_plot *p, char **cause)
{
	struct axis ax = axis_range(p, 0), ay = axis_range(p, 1);
	double h = PLOT_Y0 + 10 + (double)p->nseries * LEGEND_ROW + 20;

	if (h < DOC_H_MIN)
		h = DOC_H_MIN;
	svg_begin(f, DOC_W, h, p->title, p->subtitle);
	draw_axes(f, p, &ax, &ay);
	for (size_t s = 0; s < p->nseries; s++)
		draw_series(f, &p->series[s], &ax, &ay);
	draw_legend(f, p);
	svg_end(f);
	return svg_check(f, cause);
}
