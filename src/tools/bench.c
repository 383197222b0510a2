/*
 * micdb bench (doc/bench.md): run the bundled workloads (programs/bench)
 * on the OpenCL engine and on the C reference interpreter, and report
 * emulated throughput, time per instruction, the kernel / reference
 * ratio, SIMD efficiency, interactive step latency and device memory, as
 * a table (stdout), CSV and an SVG plot.
 *
 * This file is the command: its options and the driver (bench_run), which runs every workload, level and core
 * count through bench_measure and then writes the report.  The rest:
 *   bench-work.c     the workloads and the machines they run on
 *   bench-measure.c  the timed measurements (budgets, pairing with the
 *                    reference, latency, memory, SIMD, cycles)
 *   bench-report.c   progress, table, CSV and SVG
 *   bench-debugger.c `micdb bench debugger`: the debugger's own figures
 *   bench-args.c     what both commands take: lists, cores, the device
 *   bench-int.h      what they share
 *
 * Nothing here is global: every measurement's state lives in struct
 * bench, which bench_run owns and frees.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-int.h"
#include "bench.h"
#include "memmap.h"
#include "par.h"
#include "util.h"

/* As micdb run's (run.h): 2 for what keeps micdb from measuring at all,
 * bad input or a device that fails, 1 for a workload that misbehaves. */
#define BENCH_EXIT_OK     0
#define BENCH_EXIT_FAILED 1   /* a workload failed its check */
#define BENCH_EXIT_USAGE  2   /* bad input, no device, a device that failed */


/* ---- options ---------------------------------------------------------- */

static const char bench_usage[] =
"usage: micdb bench [options]\n"
"       micdb bench debugger [options] [PROGRAM]   (see its --help)\n"
"Measure micdb: the bundled workloads on the OpenCL engine, the C reference\n"
"interpreter and the level's native engine (\"-\" and why where there is\n"
"none); a table on stdout, progress on stderr.\n"
"\n"
"  --workloads LIST       uniform,divergent,mimd,barrier,single (default all)\n"
"  --levels LIST          isa,mic,pmic (default isa)\n"
"  --cores LIST           core counts (default 1,32,1024,32768,1048576;\n"
"                         with --quick 1,32,1024); single always runs on\n"
"                         1, 2, 4 and 32 (the few-core figure)\n"
"  --steps-per-launch K|LIST\n"
"                         kernel steps per launch, or auto (default auto)\n"
"  --device SEL           OpenCL device (see micdb devices; default\n"
"                         MICDB_DEVICE, else the first GPU, else the CPU)\n"
"  --threads N            host threads of the native engines, 1..256\n"
"                         (default: the processors micdb may use)\n"
"  --reps N               timed repetitions, at least 5 (default 5)\n"
"  --run-seconds S        step budgets make a timed run last S to 2S\n"
"                         seconds (default 0.25, with --quick 0.05)\n"
"  --stack-words N        stack words per core (default 128)\n"
"  --heap-words N         shared heap words (default 1048576)\n"
"  --warp-width W         warp width, 1..64 (default 32)\n"
"  --csv FILE             write the figures as CSV\n"
"  --svg FILE             plot time per instruction against cores (SVG)\n"
"  --scaling              after the table, each row's native engine on 1,\n"
"                         2, 4, ... threads up to --threads, beside as\n"
"                         many one-thread runs at once (the host's ceiling)\n"
"  --scaling-svg FILE     plot that scaling (SVG; implies --scaling)\n"
"  --no-ref               do not run the reference interpreter\n"
"  --quick                a short run: default cores 1,32,1024, short budgets\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 measured, 1 a workload failed its own check (it printed\n"
"FAIL, faulted, deadlocked, or the engines disagree), 2 bad usage, an\n"
"unreadable workload, output that cannot be written, no OpenCL device, or\n"
"the device failed.\n";

enum {
	OPT_LEVELS = 256, OPT_WORKLOADS, OPT_CORES, OPT_SPL, OPT_DEVICE,
	OPT_REPS, OPT_CSV, OPT_SVG, OPT_NOREF, OPT_QUICK, OPT_RUNSEC,
	OPT_STACK, OPT_HEAP, OPT_WARP, OPT_THREADS, OPT_SCALING,
	OPT_SCALING_SVG,
};

static const struct option bench_longopts[] = {
	{ "levels",           required_argument, NULL, OPT_LEVELS },
	{ "workloads",        required_argument, NULL, OPT_WORKLOADS },
	{ "cores",            required_argument, NULL, OPT_CORES },
	{ "steps-per-launch", required_argument, NULL, OPT_SPL },
	{ "device",           required_argument, NULL, OPT_DEVICE },
	{ "threads",          required_argument, NULL, OPT_THREADS },
	{ "reps",             required_argument, NULL, OPT_REPS },
	{ "csv",              required_argument, NULL, OPT_CSV },
	{ "svg",              required_argument, NULL, OPT_SVG },
	{ "scaling",          no_argument,       NULL, OPT_SCALING },
	{ "scaling-svg",      required_argument, NULL, OPT_SCALING_SVG },
	{ "no-ref",           no_argument,       NULL, OPT_NOREF },
	{ "quick",            no_argument,       NULL, OPT_QUICK },
	{ "run-seconds",      required_argument, NULL, OPT_RUNSEC },
	{ "stack-words",      required_argument, NULL, OPT_STACK },
	{ "heap-words",       required_argument, NULL, OPT_HEAP },
	{ "warp-width",       required_argument, NULL, OPT_WARP },
	{ "help",             no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int
parse_workloads(struct bench_opts *o, const char *arg, char **cause)
{
	const char *p = arg;
	char *item;

	o->nwl = 0;
	while ((item = bench_next_item(&p)) != NULL) {
		size_t i;

		for (i = 0; i < NWORKLOADS; i++)
			if (strcmp(item, bench_workloads[i].name) == 0)
				break;
		if (i == NWORKLOADS) {
			*cause = xasprintf("unknown workload '%s' (use "
			    "uniform, divergent, mimd, barrier or single)",
			    item);
			free(item);
			return -1;
		}
		free(item);
		for (size_t j = 0; j < o->nwl; j++)
			if (o->wl[j] == i)
				goto dup;
		o->wl[o->nwl++] = i;
dup:		;
	}
	if (o->nwl == 0) {
		*cause = xasprintf("--workloads needs at least one of uniform, "
		    "divergent, mimd, barrier, single");
		return -1;
	}
	return 0;
}

static int
parse_levels(struct bench_opts *o, const char *arg, char **cause)
{
	const char *p = arg;
	char *item;

	o->nlv = 0;
	while ((item = bench_next_item(&p)) != NULL) {
		size_t i;

		for (i = 0; i < NLEVEL; i++)
			if (strcmp(item, bench_levels[i].name) == 0)
				break;
		if (i == NLEVEL) {
			*cause = xasprintf("unknown level '%s' (use isa, mic "
			    "or pmic)", item);
			free(item);
			return -1;
		}
		if (!bench_levels[i].available) {
			*cause = xasprintf("level '%s' cannot be measured: this "
			    "build has no OpenCL kernel for it", item);
			free(item);
			return -1;
		}
		free(item);
		for (size_t j = 0; j < o->nlv; j++)
			if (o->lv[j] == i)
				goto dup;
		o->lv[o->nlv++] = i;
dup:		;
	}
	if (o->nlv == 0) {
		*cause = xasprintf("--levels needs at least one level (isa)");
		return -1;
	}
	return 0;
}


static int
parse_spl(struct bench_opts *o, const char *arg, char **cause)
{
	static const struct bench_list spl = { "--steps-per-launch",
	    "auto or step counts from 1 to", "1,64,auto", 1ul << 22, 1 };

	return bench_parse_list(arg, &spl, &o->spl, &o->nspl, cause);
}

static int
parse_seconds(const char *arg, double *v, char **cause)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno != 0 || end == arg || *end != '\0' || !(*v > 0) ||
	    *v > 600) {
		*cause = xasprintf("--run-seconds needs a number of seconds "
		    "above 0 and at most 600, not '%s'", arg);
		return -1;
	}
	return 0;
}

/* 0, 1 after --help, -1 + *cause. */
static int
parse_opts(struct bench_opts *o, int argc, char **argv, char **cause)
{
	static const uint32_t default_cores[] = { 1, 32, 1024, 32768,
	    1048576 };
	int c, have_cores = 0, have_runsec = 0;
	unsigned long v;

	memset(o, 0, sizeof *o);
	for (size_t i = 0; i < NWORKLOADS; i++)
		o->wl[o->nwl++] = i;
	o->lv[o->nlv++] = 0;
	o->reps = MIN_REPS;
	o->stack_words = DEFAULT_STACK;
	o->heap_words = MM_DEFAULT_HEAP_WORDS;
	o->warp_width = 32;
	o->run_s = RUN_SECONDS;
	o->lat_s = LAT_SECONDS;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", bench_longopts,
	    NULL)) != -1) {
		switch (c) {
		case OPT_WORKLOADS:
			if (parse_workloads(o, optarg, cause) != 0)
				return -1;
			break;
		case OPT_LEVELS:
			if (parse_levels(o, optarg, cause) != 0)
				return -1;
			break;
		case OPT_CORES:
			if (bench_parse_cores(o, optarg, cause) != 0)
				return -1;
			have_cores = 1;
			break;
		case OPT_SPL:
			if (parse_spl(o, optarg, cause) != 0)
				return -1;
			break;
		case OPT_DEVICE:
			o->device = optarg;
			break;
		case OPT_THREADS:
			if (option_number("threads", optarg, 1, PAR_POOL_MAX, &v,
			    cause) != 0)
				return -1;
			o->threads = (uint32_t)v;
			break;
		case OPT_REPS:
			if (option_number("reps", optarg, MIN_REPS, 1000, &v,
			    cause) != 0)
				return -1;
			o->reps = (unsigned)v;
			break;
		case OPT_CSV:
			o->csv_path = optarg;
			break;
		case OPT_SVG:
			o->svg_path = optarg;
			break;
		case OPT_SCALING:
			o->scaling = 1;
			break;
		case OPT_SCALING_SVG:
			o->scaling = 1;
			o->scaling_svg_path = optarg;
			break;
		case OPT_NOREF:
			o->no_ref = 1;
			break;
		case OPT_QUICK:
			o->quick = 1;
			break;
		case OPT_RUNSEC:
			if (parse_seconds(optarg, &o->run_s, cause) != 0)
				return -1;
			have_runsec = 1;
			break;
		case OPT_STACK:
			if (option_number("stack-words", optarg, 16,
			    MM_MAX_STACK_WORDS, &v, cause) != 0)
				return -1;
			o->stack_words = (uint32_t)v;
			break;
		case OPT_HEAP:
			if (option_number("heap-words", optarg, 0, MM_MAX_HEAP_WORDS,
			    &v, cause) != 0)
				return -1;
			o->heap_words = (uint32_t)v;
			break;
		case OPT_WARP:
			if (option_number("warp-width", optarg, 1, 64, &v,
			    cause) != 0)
				return -1;
			o->warp_width = (uint32_t)v;
			break;
		case 'h':
			fputs(bench_usage, stdout);
			return 1;
		case ':':
			*cause = xasprintf("option %s needs a value (see micdb "
			    "bench --help)", argv[optind - 1]);
			return -1;
		default:
			*cause = xasprintf("unknown option '%s' (see micdb "
			    "bench --help)", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		*cause = xasprintf("unexpected argument '%s': micdb bench "
		    "takes options only (see --help)", argv[optind]);
		return -1;
	}
	if (!have_cores) {
		size_t n = o->quick ? 3 : sizeof default_cores /
		    sizeof default_cores[0];

		o->cores = xcalloc(n, sizeof *o->cores);
		memcpy(o->cores, default_cores, n * sizeof *o->cores);
		o->ncores = n;
	}
	if (o->nspl == 0) {
		o->spl = xcalloc(1, sizeof *o->spl);
		o->nspl = 1;
	}
	if (o->scaling) {
		int many = 0, cores = 0;

		for (size_t i = 0; i < o->nwl; i++)
			many |= !bench_workloads[o->wl[i]].one_core;
		for (size_t i = 0; i < o->ncores; i++)
			cores |= o->cores[i] > 1;
		if (!many || !cores) {
			*cause = xasprintf("--scaling needs a workload of many "
			    "cores (uniform, divergent, mimd or barrier) and a "
			    "core count above 1");
			return -1;
		}
	}
	if (o->quick) {
		if (!have_runsec)
			o->run_s = QUICK_SECONDS;
		o->lat_s = QUICK_LAT_SECONDS;
	}
	return 0;
}


/* ---- the driver ------------------------------------------------------- */

static void
bench_free(struct bench *b)
{
	for (size_t i = 0; i < b->nres; i++) {
		free(b->res[i].note);
		free(b->res[i].native_note);
	}
	free(b->res);
	for (size_t i = 0; i < b->nscale; i++)
		free(b->scale[i].note);
	free(b->scale);
	free(b->o.cores);
	free(b->o.spl);
	free(b->dir);
	microcode_free(&b->mc);
	microcode_free(&b->pmc);
	bench_device_free(&b->dev);
	/* a bench that failed or was stopped leaves the old files */
	atomic_abort(&b->csv_file);
	atomic_abort(&b->svg_file);
	atomic_abort(&b->scaling_svg_file);
}

/* The CSV and the plot go to temporaries renamed into place when the
 * bench succeeds (commit_outputs), so that an interrupted or failed
 * bench never leaves half a file where a good one was. */
static int
open_output(const char *path, const char *what, struct atomic_file *af,
    FILE **f, char **cause)
{
	char *why = NULL;

	if (path == NULL)
		return 0;
	if (atomic_open(af, path, &why) != 0) {
		*cause = xasprintf("cannot write the %s to %s: %s", what, path,
		    strerror(errno));
		free(why);
		return -1;
	}
	*f = af->f;
	return 0;
}

static int
commit_outputs(struct bench *b, char **cause)
{
	if (b->csv != NULL && atomic_commit(&b->csv_file, cause) != 0)
		return -1;
	b->csv = NULL;
	if (b->svg != NULL && atomic_commit(&b->svg_file, cause) != 0)
		return -1;
	b->svg = NULL;
	if (b->scaling_svg != NULL &&
	    atomic_commit(&b->scaling_svg_file, cause) != 0)
		return -1;
	b->scaling_svg = NULL;
	return 0;
}

int
bench_run(int argc, char **argv, const struct bench_hooks *hooks)
{
	struct bench b;
	char *cause = NULL;
	const char *why;
	int rc;

	if (argc > 1 && strcmp(argv[1], "debugger") == 0)
		return bench_debugger(argc - 1, argv + 1, hooks);
	memset(&b, 0, sizeof b);
	b.hooks = hooks;
	rc = parse_opts(&b.o, argc, argv, &cause);
	if (rc == 1) {
		bench_free(&b);
		return BENCH_EXIT_OK;
	}
	if (rc != 0 || bench_device_open(&b.dev, b.o.device, &cause) != 0 ||
	    open_output(b.o.csv_path, "CSV", &b.csv_file, &b.csv,
	    &cause) != 0 ||
	    open_output(b.o.svg_path, "plot", &b.svg_file, &b.svg,
	    &cause) != 0 ||
	    open_output(b.o.scaling_svg_path, "scaling plot",
	    &b.scaling_svg_file, &b.scaling_svg, &cause) != 0)
		goto usage;
	if (b.csv != NULL && (fputs(bench_report_csv_header, b.csv) == EOF ||
	    fflush(b.csv) != 0)) {
		cause = xasprintf("cannot write %s: %s", b.o.csv_path,
		    strerror(errno));
		goto usage;
	}
	for (size_t l = 0; l < b.o.nlv; l++)
		if ((bench_levels[b.o.lv[l]].level == LEVEL_MIC &&
		    microcode_load(&b.mc, LEVEL_MIC, NULL, &cause) != 0) ||
		    (bench_levels[b.o.lv[l]].level == LEVEL_PMIC &&
		    microcode_load(&b.pmc, LEVEL_PMIC, NULL, &cause) != 0))
			goto usage;
	b.dir = bench_work_dir();
	b.tty = isatty(STDERR_FILENO);
	for (size_t i = 0; i < b.o.nwl; i++) {
		size_t per = bench_workloads[b.o.wl[i]].one_core ? NFEW :
		    b.o.ncores;

		b.total += per * b.o.nlv * b.o.nspl;
	}

	for (size_t i = 0; i < b.o.nwl; i++) {
		const struct workload *w = &bench_workloads[b.o.wl[i]];
		struct wl_progs wp;

		if (bench_work_load(&b, w, &wp, &cause) != 0)
			goto usage;
		/* a one-core workload: one core, then the few-core
		 * counts, whatever --cores says */
		for (size_t l = 0; l < b.o.nlv; l++)
			for (size_t c = 0; c < (w->one_core ? NFEW :
			    b.o.ncores); c++) {
				uint32_t n = w->one_core ? bench_few_cores[c] :
				    b.o.cores[c];

				if (bench_measure(&b, b.o.wl[i], b.o.lv[l], n,
				    &wp, &cause) != 0 ||
				    (b.o.scaling && !w->one_core && n > 1 &&
				    b.res[b.nres - 1].have_native &&
				    bench_scaling_measure(&b, b.o.wl[i],
				    b.o.lv[l], n, &wp, &cause) != 0)) {
					bench_work_free(&wp);
					goto failed;
				}
			}
		bench_work_free(&wp);
	}
	bench_report_table(&b);
	bench_report_micro(&b);
	bench_scaling_table(&b);
	if ((why = stdout_failed()) != NULL) {
		cause = xasprintf("cannot write the table: %s", why);
		b.output_failed = 1;
		goto failed;
	}
	if (b.scaling_svg != NULL && (rc = bench_scaling_svg(&b,
	    &cause)) != 0) {
		if (rc < 0) {
			b.output_failed = 1;
			goto failed;
		}
		/* nothing to plot (the table said why): no file */
		atomic_abort(&b.scaling_svg_file);
		b.scaling_svg = NULL;
		fprintf(stderr, "micdb bench: no thread scaling to plot: %s "
		    "not written\n", b.o.scaling_svg_path);
	}
	if ((b.svg != NULL && bench_report_svg(&b, &cause) != 0) ||
	    commit_outputs(&b, &cause) != 0) {
		b.output_failed = 1;
		goto failed;
	}
	bench_free(&b);
	return BENCH_EXIT_OK;
failed:
	if (b.tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "micdb bench: %s\n", cause);
	free(cause);
	rc = b.engine_failed || b.output_failed ? BENCH_EXIT_USAGE :
	    BENCH_EXIT_FAILED;
	bench_free(&b);
	return rc;
usage:
	fprintf(stderr, "micdb bench: %s\n", cause);
	free(cause);
	bench_free(&b);
	return BENCH_EXIT_USAGE;
}

int
bench_main(int argc, char **argv)
{
	return bench_run(argc, argv, NULL);
}
