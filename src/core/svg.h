/*
 * A log-log line plot as a standalone SVG 1.1 document, drawn by micdb
 * itself so that `micdb bench --svg FILE` needs no plotting tool: decade
 * ticks and labels on both axes, one polyline (with point markers) per
 * series, a legend and a title.  It knows nothing of benchmarks:
 * bench-report.c hands it numbers and labels.  The document's frame, its
 * escaped text and its palette are shared with the other drawing micdb
 * does, the trace timeline (src/dbg/trace-svg.c), so both look alike.
 */
#ifndef MICDB_SVG_H
#define MICDB_SVG_H

#include <stddef.h>
#include <stdio.h>

/* How an axis labels its decades. */
enum svg_axis_kind {
	SVG_AXIS_COUNT,     /* 1, 10, 100, 1k, 10k, ..., 1M */
	SVG_AXIS_SECONDS,   /* 1 ns, 10 ns, 100 ns, 1 µs, ... */
};

struct svg_series {
	const char	*label;
	const double	*x;         /* n points; points with x or y <= 0 */
	const double	*y;         /* are left out (no log of them) */
	size_t		 n;
	int		 dashed;    /* drawn dashed (e.g. a reference) */
	unsigned	 color;     /* palette index: series that belong
				       together share one */
};

struct svg_plot {
	const char		*title;
	const char		*subtitle;   /* may be NULL */
	const char		*xlabel;
	const char		*ylabel;
	enum svg_axis_kind	 xkind;
	enum svg_axis_kind	 ykind;
	const struct svg_series	*series;
	size_t			 nseries;
};

/*
 * Write the plot to f.  Every series gets exactly one <polyline> (even
 * with one point, so counting them counts series) and one legend entry.
 * 0, or -1 with *cause when writing fails.
 */
int	svg_write_loglog(FILE *f, const struct svg_plot *p, char **cause);

/* The pieces every micdb drawing shares: the document's start (XML
 * header, size, white background, a title and a subtitle, which may be
 * NULL) and end, text escaped for XML, the palette's colour i. */
void	svg_begin(FILE *f, double w, double h, const char *title,
	    const char *subtitle);
void	svg_end(FILE *f);
void	svg_text(FILE *f, const char *s);
const char *svg_color(unsigned i);
/* 0, or -1 + *cause when writing f failed. */
int	svg_check(FILE *f, char **cause);

#endif
