/*
 * micdb bench --scaling (doc/bench.md): how the native engines scale
 * with host threads, and how far that is from what the host can give.
 *
 * For every row of the main table that has a native figure, the native
 * engine runs on 1, 2, 4, ... threads and on --threads, every count the
 * one-thread warm-up's budget (the same instructions: a budget of its own
 * would time a larger part of the program at more threads, its end
 * included, whose steps may be the serial ones: doc/performance.md
 * 24.14), and beside each count
 * from two on, as many one-thread runs of the same row at once, each in
 * a process of its own (bench_measure_copies).  Those copies share
 * nothing but the machine: their summed rate is what this host gives
 * that many independent jobs (clocks that drop as more cores run, a
 * last-level cache and memory bandwidth shared, or two hardware threads
 * on one core), so it is the ceiling of a thread speedup here, where
 * threads x one thread's rate is not.  The table shows both speedups
 * and their quotient, the share of that ceiling the threads reach; the
 * plot (--scaling-svg) draws the speedups against threads, with the
 * ideal line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"
#include "levels.h"
#include "svg.h"
#include "util.h"

size_t
bench_scaling_counts(uint32_t max, uint32_t *out)
{
	size_t n = 0;

	for (uint32_t t = 1; t < max && n + 1 < SCALE_MAX_POINTS; t *= 2)
		out[n++] = t;
	out[n++] = max;
	return n;
}

/*
 * A row's points; a point that fails (a copy that crashed or hung, fork
 * refused, copies that would not fit in memory) ends the row with a note
 * under the table instead of ending bench, whose main table is measured
 * already.
 */
int
bench_scaling_measure(struct bench *b, size_t wl, size_t lv, uint32_t n,
    const struct wl_progs *wp, char **cause)
{
	const struct workload *w = &bench_workloads[wl];
	uint32_t counts[SCALE_MAX_POINTS];
	size_t nc = bench_scaling_counts(level_threads(b->o.threads), counts);
	struct warm one, wu;
	struct scale_row *row;
	char *msg = NULL;
	int rc;

	(void)cause;
	b->scale = xreallocarray(b->scale, b->nscale + 1, sizeof *b->scale);
	row = &b->scale[b->nscale++];
	memset(row, 0, sizeof *row);
	row->wl = wl;
	row->lv = lv;
	row->ncores = n;
	b->lv = lv;
	for (size_t i = 0; i < nc; i++) {
		struct scale_point *pt = &row->pts[row->npts];

		if (b->tty)
			fprintf(stderr, "\r\033[Kbench: scaling %s %s, %u "
			    "cores: %u thread%s ...", bench_levels[lv].name,
			    w->name, n, counts[i], counts[i] == 1 ? "" : "s");
		pt->threads = counts[i];
		if (bench_measure_threads(b, w, wp, n, counts[i],
		    i == 0 ? NULL : &one, i == 0 ? &one : &wu, &pt->ips,
		    &msg) != 0)
			break;
		if (i > 0) {
			if (b->tty)
				fprintf(stderr, "\r\033[Kbench: scaling %s %s, "
				    "%u cores: %u one-thread copies ...",
				    bench_levels[lv].name, w->name, n,
				    counts[i]);
			rc = bench_measure_copies(b, w, wp, n, counts[i], &one,
			    row->pts[0].ips.med, &pt->copies, &msg);
			if (rc < 0)
				break;
			pt->have_copies = rc == 0;
			if (rc > 0 && row->note == NULL) {
				row->note = msg;
				msg = NULL;
			}
			free(msg);
			msg = NULL;
		}
		row->npts++;
	}
	if (msg != NULL) {
		row->note = xasprintf("at %u thread%s: %s", counts[row->npts],
		    counts[row->npts] == 1 ? "" : "s", msg);
		free(msg);
		b->engine_failed = 0;
	}
	if (b->tty)
		fputs("\r\033[K", stderr);
	return 0;
}

void
bench_scaling_table(const struct bench *b)
{
	if (!b->o.scaling)
		return;
	if (b->nscale == 0) {
		printf("\nthread scaling: no row to scale (it needs a workload "
		    "of many cores, not single,\nwith a native figure: up to "
		    "%u cores)\n", BENCH_NATIVE_MAX_CORES);
		return;
	}
	printf("\nthread scaling of the native engines (--scaling; "
	    "instructions per second,\nmedians of %u runs):\n", b->o.reps);
	printf("level workload      cores threads  native [min, max]"
	    "             speedup  copies [min, max]             speedup"
	    "  share\n");
	for (size_t i = 0; i < b->nscale; i++) {
		const struct scale_row *r = &b->scale[i];
		double one = r->pts[0].ips.med;

		if (r->npts == 0)
			continue;
		for (size_t k = 0; k < r->npts; k++) {
			const struct scale_point *p = &r->pts[k];
			char cell[96];

			bench_report_rates(cell, sizeof cell, &p->ips);
			printf("%-5s %-10s %8u %7u  %-29s %7.2f", k ? "" :
			    bench_levels[r->lv].name, k ? "" :
			    bench_workloads[r->wl].name, r->ncores, p->threads,
			    cell, p->ips.med / one);
			if (p->have_copies) {
				bench_report_rates(cell, sizeof cell,
				    &p->copies);
				printf("  %-29s %7.2f  %5.2f", cell,
				    p->copies.med / one,
				    p->ips.med / p->copies.med);
			} else
				printf("  %-29s %7s  %5s", "-", "-", "-");
			putchar('\n');
		}
	}
	for (size_t i = 0; i < b->nscale; i++)
		if (b->scale[i].note != NULL)
			printf("%s %s, %u cores: %s\n",
			    bench_levels[b->scale[i].lv].name,
			    bench_workloads[b->scale[i].wl].name,
			    b->scale[i].ncores, b->scale[i].note);
	printf("speedup: against the same engine on one thread; copies: as "
	    "many one-thread runs\nof the row at once, each in a process of "
	    "its own (their instructions over the\ntime from their start to "
	    "the last one's end): what this host gives that many\n"
	    "independent jobs, the ceiling of the threads' speedup; share: "
	    "native / copies.\n");
}

/* Two series per row (the threads, solid; the copies, dashed, in the
 * same colour) and the ideal line. */
int
bench_scaling_svg(const struct bench *b, char **cause)
{
	size_t ns = 2 * b->nscale + 1, k = 0;
	struct svg_series *se = xcalloc(ns, sizeof *se);
	double *xs = xcalloc(ns * SCALE_MAX_POINTS, sizeof *xs);
	double *ys = xcalloc(ns * SCALE_MAX_POINTS, sizeof *ys);
	char **labels = xcalloc(ns, sizeof *labels);
	uint32_t tmax = 1;
	char *title, *sub;
	size_t rows = 0;

	for (size_t i = 0; i < b->nscale; i++)
		rows += b->scale[i].npts > 0;
	if (rows == 0) {
		free(se);
		free(xs);
		free(ys);
		free(labels);
		return 1;
	}

	for (size_t i = 0; i < b->nscale; i++) {
		const struct scale_row *r = &b->scale[i];
		double one = r->pts[0].ips.med;

		if (r->npts == 0)
			continue;
		for (int copies = 0; copies < 2; copies++) {
			double *x = xs + k * SCALE_MAX_POINTS;
			double *y = ys + k * SCALE_MAX_POINTS;
			size_t np = 0;

			for (size_t j = 0; j < r->npts; j++) {
				const struct scale_point *q = &r->pts[j];

				if (copies && j > 0 && !q->have_copies)
					continue;
				x[np] = q->threads;
				y[np++] = copies && j > 0 ? q->copies.med / one :
				    q->ips.med / one;
				if (q->threads > tmax)
					tmax = q->threads;
			}
			labels[k] = xasprintf("%s %s, %u cores: %s",
			    bench_levels[r->lv].name,
			    bench_workloads[r->wl].name, r->ncores, copies ?
			    "one-thread copies (the host's ceiling)" :
			    "native threads");
			se[k].label = labels[k];
			se[k].x = x;
			se[k].y = y;
			se[k].n = np;
			se[k].dashed = copies;
			se[k].color = (unsigned)i;
			k++;
		}
	}
	xs[k * SCALE_MAX_POINTS] = ys[k * SCALE_MAX_POINTS] = 1;
	xs[k * SCALE_MAX_POINTS + 1] = ys[k * SCALE_MAX_POINTS + 1] = tmax;
	labels[k] = xstrdup("ideal: speedup = threads");
	se[k].label = labels[k];
	se[k].x = xs + k * SCALE_MAX_POINTS;
	se[k].y = ys + k * SCALE_MAX_POINTS;
	se[k].n = 2;
	se[k].dashed = 1;
	se[k].color = (unsigned)b->nscale;
	k++;
	title = xasprintf("Thread scaling of the native engines: %u "
	    "host threads", tmax);
	sub = xasprintf("micdb bench --scaling; median of %u runs; solid: "
	    "the engine on N threads, dashed: N one-thread runs at once",
	    b->o.reps);
	return bench_report_plot(b->scaling_svg, &(struct svg_plot){ title,
	    sub, "host threads N", "speedup over one thread", SVG_AXIS_COUNT,
	    SVG_AXIS_COUNT, se, k }, labels, xs, ys, cause);
}
