/*
 * micdb bench debugger (doc/bench.md, "The debugger set"): what a user of
 * the debugger waits for, on a real session (src/dbg session_open) of the
 * OpenCL engine with the debugger's default settings, at the core counts
 * of --cores, on the bundled collatz demo or a given program:
 *
 *   open s       session_open (programs, machine, engine, device
 *                buffers) and the first screen rendered
 *   RSS, HWM     the process's resident MiB after that (VmRSS), and its
 *                peak over the open and every command (VmHWM, reset
 *                before each core count through /proc/self/clear_refs)
 *   stepi        one `stepi` through session_execute and session_wait
 *                (step, read-back, history) plus one render of the screen
 *   render       one render of the screen alone: the TUI's after-stop
 *                refresh (breakpoints, frames) and every pane drawn,
 *                measured last, when the cores have diverged
 *   reverse-stepi  the same as stepi, going back one step
 *   continue     `continue` to a breakpoint (collatz: main#loop on the
 *                last core, one turn of its loop; else --break), plus
 *                one render, with the global steps it ran
 *
 * Renders go through the UI's hook (render.h, bench.h): the TUI's own
 * panes on an off-screen curses screen.  Every figure is the median of
 * --reps timed repetitions after a warm-up, with min and max; the
 * commands run one after the other on one session, as a user types them.
 * Nothing here is global.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "bench-int.h"
#include "bench.h"
#include "session-open.h"
#include "util.h"

/* doc/bench.md, "The debugger set": the CSV columns, in this order. */
static const char dbg_csv_header[] = "device,program,cores,open_s,rss_mib,"
    "hwm_mib,stepi_ms,render_ms,reverse_stepi_ms,continue_ms,"
    "continue_steps\n";

struct dbg_result {
	uint32_t	 ncores;
	char		*note;        /* skipped or failed: why */
	double		 open_s;
	double		 rss_mib, hwm_mib;
	int		 have_render;
	struct spread	 stepi, render, rstepi;
	int		 have_cont;
	char		*cont_note;   /* no continue figure: why */
	struct spread	 cont;
	double		 cont_steps;  /* median global steps of a continue */
};

struct dbg_bench {
	struct bench_opts	 o;           /* cores, device, reps, csv, quick */
	const struct bench_hooks *hooks;
	struct bench_device	 dev;
	char			*program;     /* the program debugged */
	const char		*brk;         /* --break, NULL: collatz's */
	int			 collatz;     /* the bundled demo */
	struct atomic_file	 csv;         /* csv.f NULL: no --csv */
	struct dbg_result	*res;
	size_t			 nres;
	/* the session could not open, a run's engine failed, a command
	 * failed after a device call did (dbg_device_failed) or a render
	 * could not read the machine: the device failed (or, for the open,
	 * the program is bad), exit status 2 as in micdb run; a command the
	 * session refused for its own reasons is 1 */
	int			 engine_failed;
};

static const char dbg_usage[] =
"usage: micdb bench debugger [options] [PROGRAM]\n"
"Measure the debugger itself: a session on the OpenCL engine with the\n"
"debugger's default settings, on PROGRAM (default: the bundled\n"
"collatz.jas), at each core count: open seconds, resident and peak host\n"
"MiB, stepi, render, reverse-stepi and continue to a breakpoint in ms\n"
"(each command with one render of the TUI's screen, off-screen).\n"
"\n"
"  --cores LIST           core counts (default 1024,65536,262144,1048576;\n"
"                         with --quick 32,1024); counts that do not fit\n"
"                         the device or the host are skipped\n"
"  --break LOCATION       the breakpoint continue runs to (default for\n"
"                         collatz: 'main#loop core N-1', one turn of the\n"
"                         last core's loop, or where that loop ends too\n"
"                         soon for the continues, the core of the last 64\n"
"                         whose loop turns most; other programs: none, no\n"
"                         continue figure)\n"
"  --device SEL           OpenCL device (see micdb devices)\n"
"  --reps N               timed repetitions, at least 5 (default 5)\n"
"  --csv FILE             write the figures as CSV\n"
"  --quick                default cores 32,1024\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 measured, 1 a command failed (the session refused it),\n"
"2 bad usage, an unreadable or bad PROGRAM, a table or CSV that cannot be\n"
"written, no OpenCL device, or the device failed (a command that fails\n"
"after a device call did included).\n";

enum {
	OPT_CORES = 256, OPT_BREAK, OPT_DEVICE, OPT_REPS, OPT_CSV, OPT_QUICK,
};

static const struct option dbg_longopts[] = {
	{ "cores",  required_argument, NULL, OPT_CORES },
	{ "break",  required_argument, NULL, OPT_BREAK },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "reps",   required_argument, NULL, OPT_REPS },
	{ "csv",    required_argument, NULL, OPT_CSV },
	{ "quick",  no_argument,       NULL, OPT_QUICK },
	{ "help",   no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* The bundled demo: next to the bench workloads' directory, else in the
 * source tree. */
static char *
collatz_path(void)
{
	char *dir = bench_work_dir(), *slash, *path;

	if ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		path = xasprintf("%s/collatz.jas", dir);
		if (access(path, R_OK) == 0) {
			free(dir);
			return path;
		}
		free(path);
	}
	free(dir);
	return xasprintf("%s/programs/collatz.jas", MICDB_SRCDIR);
}

/* 0, 1 after --help, -1 + *cause. */
static int
dbg_parse(struct dbg_bench *d, int argc, char **argv, char **cause)
{
	static const uint32_t dflt[] = { 1024, 65536, 262144, 1048576 };
	static const uint32_t quick[] = { 32, 1024 };
	int c, have_cores = 0;
	unsigned long v;

	d->o.reps = MIN_REPS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", dbg_longopts,
	    NULL)) != -1) {
		switch (c) {
		case OPT_CORES:
			if (bench_parse_cores(&d->o, optarg, cause) != 0)
				return -1;
			have_cores = 1;
			break;
		case OPT_BREAK:
			d->brk = optarg;
			break;
		case OPT_DEVICE:
			d->o.device = optarg;
			break;
		case OPT_REPS:
			if (option_number("reps", optarg, MIN_REPS, 1000, &v,
			    cause) != 0)
				return -1;
			d->o.reps = (unsigned)v;
			break;
		case OPT_CSV:
			d->o.csv_path = optarg;
			break;
		case OPT_QUICK:
			d->o.quick = 1;
			break;
		case 'h':
			fputs(dbg_usage, stdout);
			return 1;
		case ':':
			*cause = xasprintf("option %s needs a value (see micdb "
			    "bench debugger --help)", argv[optind - 1]);
			return -1;
		default:
			*cause = xasprintf("unknown option '%s' (see micdb "
			    "bench debugger --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind + 1 < argc) {
		*cause = xasprintf("unexpected argument '%s': micdb bench "
		    "debugger takes one PROGRAM (see --help)",
		    argv[optind + 1]);
		return -1;
	}
	if (optind < argc)
		d->program = xstrdup(argv[optind]);
	else {
		d->program = collatz_path();
		d->collatz = 1;
	}
	if (!have_cores) {
		const uint32_t *l = d->o.quick ? quick : dflt;
		size_t n = d->o.quick ? sizeof quick / sizeof *quick :
		    sizeof dflt / sizeof *dflt;

		d->o.cores = xcalloc(n, sizeof *d->o.cores);
		memcpy(d->o.cores, l, n * sizeof *l);
		d->o.ncores = n;
	}
	return 0;
}

/* ---- host memory --------------------------------------------------------- */

/* VmRSS and VmHWM of this process, in MiB (-1: unknown). */
static void
host_mib(double *rss, double *hwm)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long kb;

	*rss = *hwm = -1;
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "VmRSS: %lu kB", &kb) == 1)
			*rss = kb / 1024.0;
		else if (sscanf(line, "VmHWM: %lu kB", &kb) == 1)
			*hwm = kb / 1024.0;
	}
	fclose(f);
}

/* Start VmHWM again from the present RSS, so that each core count's peak
 * is its own (Linux: "5" to clear_refs); where that is refused the peak
 * is the process's so far, which the table says. */
static int
host_hwm_reset(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	int ok;

	if (f == NULL)
		return -1;
	ok = fputs("5", f) != EOF;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* ---- one core count ------------------------------------------------------ */

/* Does n cores of the program fit?  NULL, or why not (malloc'd). */
static char *
dbg_fit(const struct dbg_bench *d, uint32_t n)
{
	struct machine_config cfg;
	struct micdb_opts o;
	struct program p;
	const struct program *pp = &p;
	struct memuse mu;
	char *cause = NULL;

	if (program_load_file(&p, d->program, &cause) != 0) {
		/* session_open will say it the way the debugger does */
		free(cause);
		return NULL;
	}
	opts_init(&o);
	memset(&cfg, 0, sizeof cfg);
	cfg.ncores = n;
	cfg.stack_words = o.stack_words;
	cfg.heap_words = o.heap_words;
	cfg.warp_width = o.warp_width;
	bench_measure_mem_need(&d->dev, &cfg, LEVEL_ISA, &pp, 1, &mu);
	program_free(&p);
	opts_free(&o);
	return bench_measure_mem_refusal(&d->dev, &mu);
}

/* Open the session as `micdb --engine opencl --cores N PROGRAM` does. */
static int
dbg_open(const struct dbg_bench *d, uint32_t n, struct micdb_opts *o,
    struct loaded *l, struct session **s, char **cause)
{
	struct session_frontend fe;
	char cores[16];
	char *argv[8];
	int argc = 0, rc;

	snprintf(cores, sizeof cores, "%u", n);
	argv[argc++] = (char *)"micdb";
	argv[argc++] = (char *)"--engine=opencl";
	argv[argc++] = (char *)"--cores";
	argv[argc++] = cores;
	if (d->o.device != NULL) {
		argv[argc++] = (char *)"--device";
		argv[argc++] = (char *)d->o.device;
	}
	argv[argc++] = d->program;
	argv[argc] = NULL;
	opts_init(o);
	rc = opts_parse(o, argc, argv, dbg_usage, cause);
	if (rc != 0) {
		if (rc == 1)
			*cause = xasprintf("bad program name '%s'",
			    d->program);
		return -1;
	}
	memset(&fe, 0, sizeof fe);    /* the cores' output is dropped */
	return session_open(s, l, o, &fe, cause);
}

/*
 * Has a device call of the session's OpenCL engine failed?  A command
 * that fails says why but not whose fault it is: the device's, when it
 * failed inside the command (reverse-stepi's restore) or before it and
 * left it nothing to work with (history that stopped recording).
 */
static int
dbg_device_failed(struct session *s)
{
	struct engine *e = session_engine(s);
	struct engine_stats st;

	if (e == NULL || e->ops->stats == NULL)
		return 0;
	e->ops->stats(e, &st);
	return st.failures > 0;
}

/* Run one command line to its stop.  A run that fails is the engine's
 * failure (session_poll), a command refused is not, unless the device
 * failed. */
static int
dbg_command(struct dbg_bench *d, struct session *s, const char *line,
    char **cause)
{
	struct buf out = { 0 };
	int rc;

	rc = session_execute(s, line, &out, cause);
	if (rc == 0 && session_running(s) &&
	    (rc = session_wait(s, &out, cause)) < 0)
		d->engine_failed = 1;
	if (rc < 0 && dbg_device_failed(s))
		d->engine_failed = 1;
	buf_free(&out);
	if (rc != 0) {
		if (rc > 0)
			*cause = xasprintf("'%s' ended the session", line);
		else {
			char *why = *cause;

			*cause = xasprintf("%s: %s", line, why);
			free(why);
		}
		return -1;
	}
	return 0;
}

/* One render of the screen, which reads the machine through the engine. */
static int
dbg_render(struct dbg_bench *d, struct session *s, char **cause)
{
	if (d->hooks == NULL || d->hooks->render_session == NULL)
		return 0;
	if (d->hooks->render_session(d->hooks->arg, s, cause) != 0) {
		d->engine_failed = 1;
		return -1;
	}
	return 0;
}

/*
 * Time `line` (NULL: the render alone) reps times, each with one render;
 * steps: the global steps each ran, or NULL.
 */
static int
dbg_time(struct dbg_bench *d, struct session *s, const char *line,
    struct spread *sp, double *steps, char **cause)
{
	const struct machine *m = session_machine(s);
	double *v = xcalloc(d->o.reps, sizeof *v);
	double *k = xcalloc(d->o.reps, sizeof *k);

	for (unsigned i = 0; i < d->o.reps; i++) {
		uint64_t step0 = m->step;
		double t0 = bench_now();

		if ((line != NULL && dbg_command(d, s, line, cause) != 0) ||
		    dbg_render(d, s, cause) != 0) {
			free(v);
			free(k);
			return -1;
		}
		v[i] = (bench_now() - t0) * 1e3;
		/* session_machine may move with `run`; stepping does not */
		m = session_machine(s);
		k[i] = (double)(m->step - step0);
	}
	*sp = bench_spread(v, d->o.reps);
	if (steps != NULL)
		*steps = bench_spread(k, d->o.reps).med;
	free(v);
	free(k);
	return 0;
}

/* Turns of collatz.jas's main loop from start n: one per step to 1, and
 * the last test (it stops at the overflow bound too: at most `cap`). */
static uint64_t
collatz_turns(uint64_t n, uint64_t cap)
{
	uint64_t t = 1;

	for (; n > 1 && t < cap; t++)
		n = n % 2 == 0 ? n / 2 : 3 * n + 1;
	return t;
}

/* Cores looked at for the default breakpoint, from the last one down. */
#define DBG_BRK_CORES 64

/*
 * The core of collatz's default breakpoint: the last core (core k starts
 * from k + 1), whose loop a continue follows, unless its sequence is too
 * short for the warm-up's and the timed continues (a few cores: start 8
 * ends in 4 turns); then the core of the last DBG_BRK_CORES whose loop
 * turns most.  Returns its turns; fewer than need: no continue figure.
 */
static uint64_t
collatz_brk_core(uint32_t ncores, uint64_t need, uint32_t *core)
{
	uint64_t best = 0;

	*core = ncores - 1;
	for (uint32_t i = 0; i < DBG_BRK_CORES && i < ncores; i++) {
		uint32_t k = ncores - 1 - i;
		uint64_t t = collatz_turns((uint64_t)k + 1, need);

		if (t > best) {
			best = t;
			*core = k;
		}
		if (best >= need)
			break;
	}
	return best;
}

static int
dbg_measure(struct dbg_bench *d, struct dbg_result *r, char **cause)
{
	struct micdb_opts o;
	struct loaded l;
	struct session *s = NULL;
	char *brk = NULL;
	double t0, ignored;
	int rc = -1;

	host_hwm_reset();
	t0 = bench_now();
	if (dbg_open(d, r->ncores, &o, &l, &s, cause) != 0) {
		d->engine_failed = 1;
		opts_free(&o);
		return -1;
	}
	if (dbg_render(d, s, cause) != 0)
		goto out;
	r->open_s = bench_now() - t0;
	host_mib(&r->rss_mib, &ignored);
	r->have_render = d->hooks != NULL && d->hooks->render_session != NULL;

	/* warm-up: the first step builds what later steps reuse */
	if (dbg_command(d, s, "stepi", cause) != 0 ||
	    dbg_render(d, s, cause) != 0 ||
	    dbg_time(d, s, "stepi", &r->stepi, NULL, cause) != 0 ||
	    dbg_time(d, s, "reverse-stepi", &r->rstepi, NULL, cause) != 0)
		goto out;
	if (d->brk != NULL)
		brk = xasprintf("break %s", d->brk);
	else if (d->collatz) {
		uint32_t core;
		uint64_t need = (uint64_t)d->o.reps + 1;

		if (collatz_brk_core(r->ncores, need, &core) >= need)
			brk = xasprintf("break main#loop core %u", core);
		else
			r->cont_note = xasprintf("no core's loop turns %llu "
			    "times, as the continues need",
			    (unsigned long long)need);
	}
	if (brk != NULL) {
		if (dbg_command(d, s, brk, cause) != 0 ||
		    dbg_command(d, s, "continue", cause) != 0 ||
		    dbg_time(d, s, "continue", &r->cont, &r->cont_steps,
		    cause) != 0)
			goto out;
		r->have_cont = 1;
	}
	/* last: after the continues the cores have gone their own ways, as
	 * in a real session (a warp's paths are what the census counts) */
	if (dbg_time(d, s, NULL, &r->render, NULL, cause) != 0)
		goto out;
	host_mib(&ignored, &r->hwm_mib);
	rc = 0;
out:
	free(brk);
	session_free(s);
	loaded_free(&l);
	opts_free(&o);
	return rc;
}

/* ---- the report ------------------------------------------------------------ */

static void
spread_text(char *buf, size_t len, const struct spread *sp)
{
	snprintf(buf, len, "%.2f [%.2f, %.2f]", sp->med, sp->min, sp->max);
}

static void
dbg_table(const struct dbg_bench *d)
{
	const char *prog = strrchr(d->program, '/');

	prog = prog != NULL ? prog + 1 : d->program;
	bench_report_device(" debugger", &d->dev);
	printf("  %s on the OpenCL engine, the debugger's default settings; "
	    "continue to ", prog);
	if (d->brk != NULL)
		printf("'break %s'", d->brk);
	else if (d->collatz)
		printf("'break main#loop core N-1' (or, where its loop\n"
		    "  turns too few times, the core of the last %d whose loop "
		    "turns most)", DBG_BRK_CORES);
	else
		printf("no breakpoint (--break)");
	printf(";\n  %u timed repetitions after a warm-up, one session per "
	    "core count; figures are medians [min, max]\n\n", d->o.reps);
	printf("%8s %7s %8s %8s  %-24s %-24s %-24s %-24s %8s\n", "cores",
	    "open s", "RSS MiB", "HWM MiB", "stepi ms", "render ms",
	    "reverse-stepi ms", "continue ms", "steps");
	for (size_t i = 0; i < d->nres; i++) {
		const struct dbg_result *r = &d->res[i];
		char a[64], b[64], c[64], e[64];

		if (r->note != NULL) {
			printf("%8u  skipped: %s\n", r->ncores, r->note);
			continue;
		}
		spread_text(a, sizeof a, &r->stepi);
		if (r->have_render)
			spread_text(b, sizeof b, &r->render);
		else
			snprintf(b, sizeof b, "-");
		spread_text(c, sizeof c, &r->rstepi);
		if (r->have_cont)
			spread_text(e, sizeof e, &r->cont);
		else
			snprintf(e, sizeof e, "-");
		printf("%8u %7.2f %8.0f %8.0f  %-24s %-24s %-24s %-24s ",
		    r->ncores, r->open_s, r->rss_mib, r->hwm_mib, a, b, c, e);
		if (r->have_cont)
			printf("%8.0f\n", r->cont_steps);
		else
			printf("%8s\n", "-");
	}
	for (size_t i = 0, first = 1; i < d->nres; i++)
		if (d->res[i].note == NULL && d->res[i].cont_note != NULL) {
			printf("%s%u core%s: no continue figure: %s\n",
			    first ? "\n" : "", d->res[i].ncores,
			    d->res[i].ncores == 1 ? "" : "s",
			    d->res[i].cont_note);
			first = 0;
		}
	printf("\nopen s: session_open and the first screen.  RSS: resident "
	    "after it; HWM: the peak\nover the open and every command.  "
	    "stepi, reverse-stepi, continue: the command\nto its stop plus one "
	    "render of the screen; render: the screen alone (the TUI's\n"
	    "after-stop refresh and every pane, 200x60, off-screen); steps: "
	    "global steps of a\ncontinue (median).\n");
}

static void
csv_num(FILE *f, int have, double v)
{
	if (have)
		fprintf(f, ",%.6g", v);
	else
		fputc(',', f);
}

static int
dbg_csv(struct dbg_bench *d, char **cause)
{
	FILE *f = d->csv.f;
	const char *prog;

	if (f == NULL)
		return 0;
	prog = strrchr(d->program, '/');
	prog = prog != NULL ? prog + 1 : d->program;
	fputs(dbg_csv_header, f);
	for (size_t i = 0; i < d->nres; i++) {
		const struct dbg_result *r = &d->res[i];
		int ok = r->note == NULL;

		bench_report_csv_field(f, d->dev.name);
		fputc(',', f);
		bench_report_csv_field(f, prog);
		fprintf(f, ",%u", r->ncores);
		csv_num(f, ok, r->open_s);
		csv_num(f, ok && r->rss_mib >= 0, r->rss_mib);
		csv_num(f, ok && r->hwm_mib >= 0, r->hwm_mib);
		csv_num(f, ok, r->stepi.med);
		csv_num(f, ok && r->have_render, r->render.med);
		csv_num(f, ok, r->rstepi.med);
		csv_num(f, ok && r->have_cont, r->cont.med);
		csv_num(f, ok && r->have_cont, r->cont_steps);
		fputc('\n', f);
	}
	return atomic_commit(&d->csv, cause);
}

/* ---- the command ----------------------------------------------------------- */

static void
dbg_free(struct dbg_bench *d)
{
	for (size_t i = 0; i < d->nres; i++) {
		free(d->res[i].note);
		free(d->res[i].cont_note);
	}
	free(d->res);
	free(d->o.cores);
	free(d->program);
	bench_device_free(&d->dev);
	/* a bench that failed leaves the old file */
	atomic_abort(&d->csv);
}

int
bench_debugger(int argc, char **argv, const struct bench_hooks *hooks)
{
	struct dbg_bench d;
	char *cause = NULL;
	int rc;

	memset(&d, 0, sizeof d);
	d.hooks = hooks;
	rc = dbg_parse(&d, argc, argv, &cause);
	if (rc == 1) {
		dbg_free(&d);
		return 0;
	}
	if (rc != 0 || bench_device_open(&d.dev, d.o.device, &cause) != 0)
		goto usage;
	if (access(d.program, R_OK) != 0) {
		cause = xasprintf("cannot read %s", d.program);
		goto usage;
	}
	if (d.o.csv_path != NULL && atomic_open(&d.csv, d.o.csv_path,
	    &cause) != 0)
		goto usage;
	d.res = xcalloc(d.o.ncores, sizeof *d.res);
	for (size_t i = 0; i < d.o.ncores; i++) {
		struct dbg_result *r = &d.res[d.nres++];

		r->ncores = d.o.cores[i];
		fprintf(stderr, "bench debugger: [%zu/%zu] %u cores\n", i + 1,
		    d.o.ncores, r->ncores);
		if ((r->note = dbg_fit(&d, r->ncores)) != NULL)
			continue;
		if (dbg_measure(&d, r, &cause) != 0)
			goto failed;
	}
	dbg_table(&d);
	/* a table or CSV that cannot be written (a full disk) is exit 2,
	 * as a CSV that cannot be opened, not a failed command (1) */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		cause = xasprintf("cannot write the table: %s",
		    errno != 0 ? strerror(errno) : "write error");
		goto usage;
	}
	if (dbg_csv(&d, &cause) != 0)
		goto usage;
	dbg_free(&d);
	return 0;
failed:
	fprintf(stderr, "micdb bench debugger: %s\n", cause);
	free(cause);
	dbg_free(&d);
	return d.engine_failed ? 2 : 1;
usage:
	fprintf(stderr, "micdb bench debugger: %s\n", cause);
	free(cause);
	dbg_free(&d);
	return 2;
}
