/*
 * micdb bench's report: progress lines on stderr while it measures, the
 * table and the micro levels' figures on stdout at the end, the CSV
 * (one row per measurement, written as each finishes, so that an
 * interrupted run keeps what it measured) and the SVG plot (svg.c draws
 * it; this file only chooses its series).  The CSV columns are the ones
 * doc/bench.md names, in its order; tests/bench.sh checks them.
 *
 * Everything here reads struct bench and its results and changes
 * nothing but the output files and, for progress, nothing at all.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-int.h"
#include "levels.h"
#include "svg.h"
#include "util.h"

/* ---- small helpers ---------------------------------------------------- */

/* "12.3M": three significant digits and an SI suffix. */
static void
si(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	size_t i = 0;

	while (fabs(v) >= 999.5 && i + 1 < sizeof sfx / sizeof sfx[0]) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.*f%s", fabs(v) < 9.995 ? 2 : fabs(v) < 99.95 ?
	    1 : 0, v, sfx[i]);
}

/* Milliseconds with three significant digits. */
static void
ms(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f", v < 9.995 ? 2 : v < 99.95 ? 1 : 0, v);
}

/* "MED [MIN, MAX]" of s, each written by fmt (si, ms); "-" without a
 * figure (have 0). */
static void
spread_text(char *buf, size_t len, int have, const struct spread *s,
    void (*fmt)(char *, size_t, double))
{
	char x[3][24];

	if (!have) {
		snprintf(buf, len, "-");
		return;
	}
	fmt(x[0], sizeof x[0], s->med);
	fmt(x[1], sizeof x[1], s->min);
	fmt(x[2], sizeof x[2], s->max);
	snprintf(buf, len, "%s [%s, %s]", x[0], x[1], x[2]);
}

void
bench_report_rates(char *buf, size_t len, const struct spread *s)
{
	spread_text(buf, len, 1, s, si);
}

/* ---- output ----------------------------------------------------------- */

/*
 * The micro levels' own figures (doc/bench.md): micro-cycles per second and
 * cycles per instruction of every row, and the ratio of divergent to
 * uniform throughput per level, core count and K (in micro-cycles/s at
 * the micro levels, where the kernel's work is a cycle; in instr/s at
 * the ISA level), which shows what branch-free stepping buys.
 */
void
bench_report_micro(const struct bench *b)
{
	int head = 0;

	for (size_t i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];

		if (r->note != NULL || !isfinite(r->cpi))
			continue;
		if (!head)
			printf("\nmicro levels: %-5s %-9s %8s %14s %8s\n",
			    "level", "workload", "cores", "micro-cycles/s",
			    "CPI");
		head = 1;
		printf("              %-5s %-9s %8u %14.4g %8.3f\n",
		    bench_levels[r->lv].name, bench_workloads[r->wl].name,
		    r->ncores, r->ips.med * r->cpi, r->cpi);
	}
	head = 0;
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *d = &b->res[i];

		if (d->note != NULL || strcmp(bench_workloads[d->wl].name,
		    "divergent") != 0)
			continue;
		for (size_t j = 0; j < b->nres; j++) {
			const struct result *u = &b->res[j];
			double tu, td;

			if (u->note != NULL || u->lv != d->lv ||
			    u->ncores != d->ncores || u->spl != d->spl ||
			    strcmp(bench_workloads[u->wl].name, "uniform") != 0)
				continue;
			td = isfinite(d->cpi) ? d->ips.med * d->cpi :
			    d->ips.med;
			tu = isfinite(u->cpi) ? u->ips.med * u->cpi :
			    u->ips.med;
			if (!head)
				printf("\ndivergent / uniform throughput "
				    "(micro-cycles/s at micro levels, "
				    "instr/s at the ISA level):\n");
			head = 1;
			printf("  %-5s %8u cores  %.3f\n",
			    bench_levels[d->lv].name, d->ncores,
			    tu > 0 ? td / tu : NAN);
		}
	}
	/* The thesis' figure: Mic-1 cycles per PMIC cycle for the same
	 * instructions, which doc/pmic.md ("What the project must show")
	 * gives with the target it sets. */
	head = 0;
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *p = &b->res[i];

		if (p->note != NULL ||
		    bench_levels[p->lv].level != LEVEL_PMIC ||
		    !isfinite(p->cpi) || p->cpi <= 0)
			continue;
		for (size_t j = 0; j < b->nres; j++) {
			const struct result *m = &b->res[j];

			if (m->note != NULL || bench_levels[m->lv].level !=
			    LEVEL_MIC || m->wl != p->wl ||
			    m->ncores != p->ncores || m->spl != p->spl ||
			    !isfinite(m->cpi))
				continue;
			if (!head)
				printf("\nMic-1 / PMIC cycles per "
				    "instruction:\n");
			head = 1;
			printf("  %-9s %8u cores  %.3f / %.3f = %.3f\n",
			    bench_workloads[p->wl].name, p->ncores, m->cpi,
			    p->cpi, m->cpi / p->cpi);
		}
	}
}

void
bench_report_csv_field(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

const char bench_report_csv_header[] = "device,level,workload,cores,"
    "steps_per_launch,instr_per_s,ref_instr_per_s,ratio_vs_ref,"
    "step_latency_ms,render_ms,bytes_per_core,simd_efficiency,"
    "cycles_per_instr,native_instr_per_s,native_vs_ref,default_engine,"
    "native_threads\n";

static uint64_t
bytes_per_core(const struct result *r)
{
	return (r->mem.ctx + r->mem.stacks + r->mem.io + r->ncores / 2) /
	    r->ncores;
}

int
bench_report_csv_row(const struct bench *b, const struct result *r,
    char **cause)
{
	FILE *f = b->csv;

	bench_report_csv_field(f, b->dev.name);
	fprintf(f, ",%s,%s,%u,", bench_levels[r->lv].name,
	    bench_workloads[r->wl].name, r->ncores);
	if (r->spl != 0)
		fprintf(f, "%llu", (unsigned long long)r->spl);
	else if (isfinite(r->spl_used))
		fprintf(f, "%.0f", r->spl_used);
	fprintf(f, ",%.0f,", r->ips.med);
	if (r->have_ref)
		fprintf(f, "%.0f,%.4f", r->ref_ips.med, r->ips.med /
		    r->ref_ips.med);
	else
		fputc(',', f);
	fputc(',', f);
	if (r->have_lat)
		fprintf(f, "%.4f", r->lat_ms.med);
	fputc(',', f);
	if (r->have_render)
		fprintf(f, "%.4f", r->render_ms.med);
	fprintf(f, ",%llu,", (unsigned long long)bytes_per_core(r));
	if (isfinite(r->simd))
		fprintf(f, "%.4f", r->simd);
	/* cycles_per_instr: micro levels only */
	fputc(',', f);
	if (isfinite(r->cpi))
		fprintf(f, "%.4f", r->cpi);
	/* the native engine, and the one micdb run picks by default */
	fputc(',', f);
	if (r->have_native)
		fprintf(f, "%.0f", r->native_ips.med);
	fputc(',', f);
	if (r->have_native && r->have_ref)
		fprintf(f, "%.4f", r->native_ips.med / r->ref_ips.med);
	fprintf(f, ",%s,", engine_kind_name(r->chosen));
	if (r->have_native)
		fprintf(f, "%u", level_threads(b->o.threads));
	fputc('\n', f);
	if (fflush(f) != 0 || ferror(f)) {
		*cause = xasprintf("cannot write %s: %s", b->o.csv_path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
spl_text(char *buf, size_t len, const struct result *r)
{
	if (r->spl != 0)
		snprintf(buf, len, "%llu", (unsigned long long)r->spl);
	else if (isfinite(r->spl_used))
		snprintf(buf, len, "auto~%.0f", r->spl_used);
	else
		snprintf(buf, len, "auto");
}

void
bench_report_progress(struct bench *b, const struct result *r, int start)
{
	char kb[32], a[16], c[16];

	spl_text(kb, sizeof kb, r);
	if (start) {
		if (b->tty)
			fprintf(stderr, "\r\033[Kbench: [%zu/%zu] %s %s, %u "
			    "cores, K %s ...", b->done + 1, b->total,
			    bench_levels[r->lv].name,
			    bench_workloads[r->wl].name, r->ncores,
			    r->spl ? kb : "auto");
		return;
	}
	if (b->tty)
		fputs("\r\033[K", stderr);
	if (r->note != NULL) {
		fprintf(stderr, "bench: [%zu/%zu] %s %s, %u cores: skipped, "
		    "%s\n", b->done, b->total, bench_levels[r->lv].name,
		    bench_workloads[r->wl].name, r->ncores, r->note);
		return;
	}
	si(a, sizeof a, r->ips.med);
	fprintf(stderr, "bench: [%zu/%zu] %s %s, %u cores, K %s: %s instr/s",
	    b->done, b->total, bench_levels[r->lv].name,
	    bench_workloads[r->wl].name, r->ncores, kb, a);
	if (r->have_ref) {
		si(c, sizeof c, r->ref_ips.med);
		fprintf(stderr, ", reference %s, ratio %.2f", c,
		    r->ips.med / r->ref_ips.med);
	}
	if (r->have_native) {
		si(c, sizeof c, r->native_ips.med);
		fprintf(stderr, ", native %s", c);
	}
	fputc('\n', stderr);
}

/* Why the native column shows "-": each reason once, with its level. */
static void
bench_report_native_notes(const struct bench *b)
{
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];
		int seen = 0;

		if (r->note != NULL || r->native_note == NULL)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = b->res[j].native_note != NULL &&
			    b->res[j].lv == r->lv &&
			    strcmp(b->res[j].native_note, r->native_note) == 0;
		if (!seen)
			printf("native '-' at %s: %s\n",
			    bench_levels[r->lv].name, r->native_note);
	}
}

/* The default engine's crossover, the rule's and the measured one: per
 * level the core count from which levels.h picks OpenCL, and per level
 * and workload the smallest core count measured from which OpenCL's
 * median beats native's at every larger count measured (doc/bench.md). */
static void
bench_report_crossover(const struct bench *b)
{
	uint32_t t = level_threads(b->o.threads);
	struct level_device dev;

	level_engine_device(b->o.device, &dev);
	printf("\ncrossover (default: the rule of levels.h on %u thread%s "
	    "and this device; measured: OpenCL faster from):\n", t,
	    t == 1 ? "" : "s");
	for (size_t lv = 0; lv < NLEVEL; lv++) {
		uint32_t x = level_engine_crossover(bench_levels[lv].level, t,
		    &dev);
		int any = 0;

		for (size_t wl = 0; wl < NWORKLOADS; wl++) {
			uint32_t from = 0, last = 0, rows = 0;

			/* last: native's largest win; from: OpenCL's
			 * smallest above it */
			for (int pass = 0; pass < 2; pass++)
				for (size_t i = 0; i < b->nres; i++) {
					const struct result *r = &b->res[i];
					int ocl;

					if (r->lv != lv || r->wl != wl ||
					    r->note != NULL || !r->have_native)
						continue;
					ocl = r->ips.med > r->native_ips.med;
					rows += pass == 0;
					if (pass == 0 && !ocl && r->ncores > last)
						last = r->ncores;
					if (pass == 1 && ocl && r->ncores > last &&
					    (from == 0 || r->ncores < from))
						from = r->ncores;
				}
			if (rows == 0)
				continue;
			if (!any) {
				if (x == UINT32_MAX)
					printf("  %-5s default native at every "
					    "core count\n",
					    bench_levels[lv].name);
				else
					printf("  %-5s default OpenCL from %u "
					    "cores\n", bench_levels[lv].name,
					    x);
				any = 1;
			}
			printf("        %-9s measured: ",
			    bench_workloads[wl].name);
			if (from == 0)
				printf("native at every count measured\n");
			else if (last == 0)
				printf("OpenCL at every count measured\n");
			else
				printf("OpenCL from %u cores (native at %u)\n",
				    from, last);
		}
	}
}

void
bench_report_device(const char *what, const struct bench_device *dev)
{
	printf("micdb bench%s: %s (%s, %u compute units, %.1f GiB)\n", what,
	    dev->name, dev->type, dev->units, dev->global_mem / 1073741824.0);
	printf("  device version %s; driver %s\n", dev->version, dev->driver);
}

void
bench_report_table(const struct bench *b)
{
	int skipped = 0, budgeted = 0, native_dash = 0;

	bench_report_device("", &b->dev);
	printf("  warp width %u, %u stack words per core, %u timed runs after "
	    "a warm-up, each on a fresh machine; figures are medians [min, "
	    "max]\n\n", b->o.warp_width, b->o.stack_words, b->o.reps);
	printf("%-5s %-9s %8s %-10s %12s  %-26s %9s  %-26s %7s  %-26s %7s "
	    "%-7s %6s %6s  %-22s %7s %9s\n", "level", "workload", "cores",
	    "K/launch", "steps/run", "OpenCL instr/s [min, max]", "ns/instr",
	    "reference instr/s", "ratio", "native instr/s [min, max]",
	    "nat:ref", "default", "SIMD", "k/ws", "step ms [min, max]",
	    "B/core", "dev MiB");
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];
		char kb[32], steps[32], ocl[96], ref[96], lat[96], nat[96];

		if (r->note != NULL) {
			skipped = 1;
			printf("%-5s %-9s %8u  skipped: %s\n",
			    bench_levels[r->lv].name,
			    bench_workloads[r->wl].name, r->ncores, r->note);
			continue;
		}
		spl_text(kb, sizeof kb, r);
		if (r->done)
			snprintf(steps, sizeof steps, "all %llu",
			    (unsigned long long)r->steps);
		else {
			snprintf(steps, sizeof steps, "%llu",
			    (unsigned long long)r->steps);
			budgeted = 1;
		}
		spread_text(ocl, sizeof ocl, 1, &r->ips, si);
		spread_text(ref, sizeof ref, r->have_ref, &r->ref_ips, si);
		if (r->have_ref && !r->ref_done) {
			/* the reference ran out of its budget */
			strncat(ref, "*", sizeof ref - strlen(ref) - 1);
			budgeted = 1;
		}
		spread_text(lat, sizeof lat, r->have_lat, &r->lat_ms, ms);
		printf("%-5s %-9s %8u %-10s %12s  %-26s %9.2f  %-26s ",
		    bench_levels[r->lv].name, bench_workloads[r->wl].name,
		    r->ncores, kb, steps, ocl, 1e9 / r->ips.med, ref);
		if (r->have_ref)
			printf("%7.2f  ", r->ips.med / r->ref_ips.med);
		else
			printf("%7s  ", "-");
		spread_text(nat, sizeof nat, r->have_native, &r->native_ips,
		    si);
		native_dash |= !r->have_native;
		printf("%-26s ", nat);
		if (r->have_native && r->have_ref)
			printf("%7.2f ", r->native_ips.med / r->ref_ips.med);
		else
			printf("%7s ", "-");
		printf("%-7s ", engine_kind_name(r->chosen));
		if (isfinite(r->simd))
			printf("%6.3f %6.2f  ", r->simd, r->kpaths);
		else
			printf("%6s %6s  ", "-", "-");
		printf("%-22s %7llu %9.1f\n", lat,
		    (unsigned long long)bytes_per_core(r),
		    bench_measure_mem_device(&r->mem) / 1048576.0);
	}

	printf("\ndevice memory by core count (bytes; the checkpoint copy is "
	    "taken when K > 1 and fits):\n");
	printf("%8s %10s %10s %8s %10s %12s %14s %12s\n", "cores",
	    "context/c", "stack/c", "io/c", "total/c", "shared", "total",
	    "checkpoint");
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];
		int seen = 0;

		for (size_t j = 0; j < i; j++)
			if (b->res[j].ncores == r->ncores)
				seen = 1;
		if (seen)
			continue;
		printf("%8u %10.1f %10.1f %8.1f %10llu %12llu %14llu %12llu\n",
		    r->ncores, (double)r->mem.ctx / r->ncores,
		    (double)r->mem.stacks / r->ncores,
		    (double)r->mem.io / r->ncores,
		    (unsigned long long)bytes_per_core(r),
		    (unsigned long long)r->mem.shared,
		    (unsigned long long)bench_measure_mem_device(&r->mem),
		    (unsigned long long)r->mem.ckpt);
	}
	printf("\nsteps/run: 'all N' ran to completion in N steps; a plain "
	    "number is the step budget\nof every run (same instructions each "
	    "repetition)");
	if (budgeted)
		printf(";\n'*': the reference ran its own budget, checked "
		    "against OpenCL at a common 2^k steps");
	printf(".\nSIMD: sum active lanes / (W x sum kernel paths); k/ws: "
	    "kernel paths per warp-step.\nstep ms: one step of every core "
	    "(K = 1 launch) plus the full context read-back.\n");
	printf("native: the fastest host engine of the level, on %u host "
	    "thread%s (--threads);\ndefault: the engine micdb run picks for "
	    "the level, cores and threads\n(levels.h, micdb(1)).\n",
	    level_threads(b->o.threads),
	    level_threads(b->o.threads) == 1 ? "" : "s");
	if (skipped)
		printf("skipped core counts do not fit the device or the host "
		    "(lower --stack-words to fit more).\n");
	if (native_dash)
		bench_report_native_notes(b);
	bench_report_crossover(b);
}

/* Series of the plot: one per level, workload and K, plus the reference
 * per level and workload (dashed, in the workload's colour). */
int
bench_report_svg(const struct bench *b, char **cause)
{
	struct svg_series *se = xcalloc(2 * b->nres + 1, sizeof *se);
	double *xs = xcalloc(2 * b->nres + 1, sizeof *xs);
	double *ys = xcalloc(2 * b->nres + 1, sizeof *ys);
	char **labels = xcalloc(2 * b->nres + 1, sizeof *labels);
	size_t ns = 0, np = 0;
	char *title, *sub;

	for (int ref = 0; ref < 2; ref++)
		for (size_t i = 0; i < b->nres; i++) {
			const struct result *r = &b->res[i];
			size_t start = np;

			if (r->note != NULL || (ref && !r->have_ref))
				continue;
			/* first result of its series? */
			for (size_t j = 0; j < i; j++)
				if (b->res[j].note == NULL &&
				    b->res[j].wl == r->wl &&
				    b->res[j].lv == r->lv &&
				    (ref || b->res[j].spl == r->spl))
					goto next;
			for (size_t j = i; j < b->nres; j++) {
				const struct result *q = &b->res[j];

				if (q->note != NULL || q->wl != r->wl ||
				    q->lv != r->lv ||
				    (!ref && q->spl != r->spl))
					continue;
				/* one point per core count: the reference
				 * does not depend on K */
				for (size_t k = start; k < np; k++)
					if (xs[k] == q->ncores)
						goto dup;
				xs[np] = q->ncores;
				ys[np++] = 1.0 / (ref ? q->ref_ips.med :
				    q->ips.med);
dup:				;
			}
			if (ref)
				labels[ns] = xasprintf("%s %s, reference (C, 1 "
				    "thread)", bench_levels[r->lv].name,
				    bench_workloads[r->wl].name);
			else if (b->o.nspl > 1 && r->spl != 0)
				labels[ns] = xasprintf("%s %s, OpenCL, K %llu",
				    bench_levels[r->lv].name,
				    bench_workloads[r->wl].name,
				    (unsigned long long)r->spl);
			else
				labels[ns] = xasprintf("%s %s, OpenCL%s",
				    bench_levels[r->lv].name,
				    bench_workloads[r->wl].name,
				    b->o.nspl > 1 ? ", K auto" : "");
			se[ns].label = labels[ns];
			se[ns].x = xs + start;
			se[ns].y = ys + start;
			se[ns].n = np - start;
			se[ns].dashed = ref;
			se[ns].color = (unsigned)(r->lv * NWORKLOADS + r->wl);
			ns++;
next:			;
		}
	title = xasprintf("Time per emulated instruction: %s", b->dev.name);
	sub = xasprintf("micdb bench, driver %s; median of %u runs; solid: "
	    "OpenCL engine, dashed: C reference interpreter", b->dev.driver,
	    b->o.reps);
	return bench_report_plot(b->svg, &(struct svg_plot){ title, sub,
	    "emulated cores N", "time per instruction T(N) = t / "
	    "instructions", SVG_AXIS_COUNT, SVG_AXIS_SECONDS, se, ns },
	    labels, xs, ys, cause);
}

int
bench_report_plot(FILE *f, const struct svg_plot *p, char **labels,
    double *xs, double *ys, char **cause)
{
	int rc = svg_write_loglog(f, p, cause);

	for (size_t i = 0; i < p->nseries; i++)
		free(labels[i]);
	free(labels);
	free((void *)p->series);
	free(xs);
	free(ys);
	free((void *)p->title);
	free((void *)p->subtitle);
	return rc;
}
