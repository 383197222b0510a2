/*
 * micdb bench (spec/bench.md): run the bundled workloads (programs/bench)
 * on the OpenCL engine and on the C reference interpreter, and report
 * emulated throughput, time per instruction, the kernel / reference
 * ratio, SIMD efficiency, interactive step latency and device memory, as
 * a table (stdout), CSV and an SVG plot.
 *
 * A measurement is one (workload, level, cores, steps per launch).  For
 * each engine it is a warm-up run on a fresh machine, then --reps timed
 * runs, each on a fresh machine: only the engine's run() is timed, never
 * program loading, machine set-up or engine creation.  Figures are the
 * median over the timed runs, with min and max.  The two engines' timed
 * runs alternate (paired_runs), for the first steps per launch.
 *
 * Step budgets.  Running every workload to completion is impossible at a
 * million cores on a two-core CPU and pointless to time at one core, so
 * the warm-up also chooses the budget: it runs in doubling chunks (1, 2,
 * 4, ... global steps in all) until the machine is done or the marginal
 * cost of the steps (the difference of two successive chunks, so that
 * what every run() pays once, such as a checkpoint, does not count; two
 * such estimates must agree) says that a run of that many steps lasts
 * --run-seconds, or calibrating took 8 times that; the timed runs then
 * run exactly that many steps (or to completion), so every repetition
 * retires the same instructions.  The single workload always runs to
 * completion (but with --quick): the whole program is the figure.
 * Instructions per second is a rate, so a bounded run measures the real
 * machine, not a subset of its cores, and nothing is extrapolated.  Each
 * engine gets its own budget (a GPU may run 2^12 steps of a million cores
 * in the time the reference runs 2^4).
 *
 * Correctness first.  A run that completes must have printed its
 * workload's "OK" lines; no run may print FAIL, fault or deadlock.  A
 * budgeted run cannot print OK, so the two engines check each other: the
 * instructions retired after 2^k steps (the warm-ups' chunk boundaries)
 * must be equal on both engines at the largest boundary both reached, and
 * every timed run must retire exactly what its warm-up did.  These counts
 * do not depend on the order in which cores run: every workload is
 * race-free in its control flow (atomics return values that it only
 * pops, checks for monotonicity or turns into one reporter per program).
 *
 * Memory.  Device bytes are the engine's own figures
 * (engine_ocl_mem_need); core counts whose need exceeds the device's global
 * memory, its largest buffer, or the host's memory are skipped with a
 * note.
 *
 * Nothing here is global: every measurement's state lives in struct
 * bench, which bench_run owns and frees.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "engine-ocl-mic.h"
#include "engine-ocl-pmic.h"
#include "engine-ocl.h"
#include "engine.h"
#include "ijvm.h"
#include "levels.h"
#include "machine.h"
#include "memmap.h"
#include "ocl.h"
#include "program.h"
#include "svg.h"
#include "util.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif
#ifndef MICDB_PKGDATADIR
#define MICDB_PKGDATADIR "/usr/local/share/micdb"
#endif

#define BENCH_EXIT_OK     0
#define BENCH_EXIT_FAILED 1   /* a workload failed its check, a device call */
#define BENCH_EXIT_USAGE  2   /* bad input, no device */

#define MIN_REPS          5   /* bench.md: at least five */
#define MAX_CHUNKS        63  /* doubling chunks: 2^62 steps is plenty */
#define DEFAULT_STACK     128 /* words per core: the workloads need < 64,
				 and 1,048,576 cores then fit in 512 MiB */
#define RUN_SECONDS       0.25
#define QUICK_SECONDS     0.05
#define CALIBRATE_MAX     8   /* a warm-up stops after 8 run_s at most */
#define LAT_SECONDS       0.4 /* latency samples: at least this long... */
#define QUICK_LAT_SECONDS 0.05
#define LAT_MIN           5   /* ... and this many, at most LAT_MAX */
#define LAT_MAX           101

/* ---- workloads and levels --------------------------------------------- */

struct workload {
	const char	*name;
	const char	*files[4];   /* in programs/bench; MIMD: one a warp */
	const char	*ok[4];      /* what program i prints when right */
	size_t		 nprogs;
	int		 one_core;   /* one core, whatever --cores says */
	int		 whole;      /* runs to completion, no budget (but with
					--quick): the whole program is what a
					student runs and compares */
};

static const struct workload workloads[] = {
	{ "uniform", { "uniform.jas" }, { "uniform OK" }, 1, 0, 0 },
	{ "divergent", { "divergent.jas" }, { "divergent OK" }, 1, 0, 0 },
	{ "mimd", { "mimd0.jas", "mimd1.jas", "mimd2.jas", "mimd3.jas" },
	    { "mimd0 OK", "mimd1 OK", "mimd2 OK", "mimd3 OK" }, 4, 0, 0 },
	{ "barrier", { "barrier.jas" }, { "barrier OK" }, 1, 0, 0 },
	{ "single", { "single.jas" }, { " OK" }, 1, 1, 1 },
};
#define NWORKLOADS (sizeof workloads / sizeof workloads[0])

/* Levels bench.md names; only those the OpenCL engine runs are usable. */
struct bench_level {
	const char	*name;
	int		 available;
	enum level	 level;
};

static const struct bench_level levels[] = {
	{ "isa", 1, LEVEL_ISA },
	{ "mic", 1, LEVEL_MIC },
	{ "pmic", 1, LEVEL_PMIC },
};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* ---- options ---------------------------------------------------------- */

struct bench_opts {
	size_t		 wl[NWORKLOADS];  /* indices into workloads, as given */
	size_t		 nwl;
	size_t		 lv[NLEVELS];     /* indices into levels */
	size_t		 nlv;
	uint32_t	*cores;
	size_t		 ncores;
	uint64_t	*spl;             /* steps per launch; 0: adaptive */
	size_t		 nspl;
	const char	*device;
	unsigned	 reps;
	const char	*csv_path;
	const char	*svg_path;
	int		 no_ref;
	int		 quick;
	uint32_t	 stack_words;
	uint32_t	 heap_words;
	uint32_t	 warp_width;
	double		 run_s;           /* a timed run lasts ~run_s */
	double		 lat_s;
};

/* ---- results ---------------------------------------------------------- */

struct spread {
	double	med;
	double	min;
	double	max;
};

/* Device bytes of one machine, and what the host needs besides. */
struct memuse {
	uint64_t	ctx;      /* context: core blocks, warp records */
	uint64_t	stacks;
	uint64_t	io;       /* per-core output and input areas, mask */
	uint64_t	shared;   /* globals, heap, text, constant pools */
	uint64_t	ckpt;     /* the engine's checkpoint copy (K > 1) */
	uint64_t	host;     /* host memory: machine + engine copies */
};

/* A warm-up: instructions retired at every chunk boundary 2^k. */
struct warm {
	uint64_t	marks[MAX_CHUNKS];
	int		nmarks;
	int		done;     /* ran to completion */
	uint64_t	steps;    /* global steps run (the budget if !done) */
	uint64_t	instr;
};

struct result {
	size_t		 wl;
	size_t		 lv;
	uint32_t	 ncores;
	uint64_t	 spl;         /* asked; 0 adaptive */
	double		 spl_used;    /* launch_steps / launches */
	char		*note;        /* skipped: why; NULL when measured */
	int		 done;        /* timed runs ran to completion */
	uint64_t	 steps;       /* per timed OpenCL run */
	uint64_t	 instr;
	struct spread	 ips;         /* instructions per second */
	int		 have_ref;
	int		 ref_done;
	uint64_t	 ref_steps;
	uint64_t	 ref_instr;
	struct spread	 ref_ips;
	double		 simd;        /* sum active / (W sum k) */
	double		 kpaths;      /* sum k / sum warp-steps */
	double		 cpi;         /* micro levels: cycles per instruction */
	int		 have_lat;
	struct spread	 lat_ms;
	int		 have_render;
	struct spread	 render_ms;
	struct memuse	 mem;
};

/* The device, as the output names it. */
struct bench_device {
	char		*name;        /* "platform / device" */
	char		*version;     /* CL_DEVICE_VERSION */
	char		*driver;      /* CL_DRIVER_VERSION */
	const char	*type;
	unsigned	 units;
	uint64_t	 global_mem;
	uint64_t	 max_alloc;
	size_t		 max_wg;
	int		 is_gpu;
};

/* One workload's programs, loaded once for all its measurements. */
struct wl_progs {
	struct program		 progs[4];
	const struct program	*ptrs[4];
	size_t			 n;
};

struct bench {
	struct bench_opts	 o;
	const struct bench_hooks *hooks;
	struct bench_device	 dev;
	char			*dir;         /* programs/bench */
	FILE			*csv;
	FILE			*svg;
	struct result		*res;
	size_t			 nres;
	size_t			 done;        /* measurements finished */
	size_t			 total;       /* measurements planned */
	int			 tty;         /* stderr is a terminal */
	struct microcode	 mc;          /* for the mic level */
	struct microcode	 pmc;         /* for the pmic level */
	size_t			 lv;          /* level being measured */
};

/* ---- small helpers ---------------------------------------------------- */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of v[0..n-1] (n >= 1); sorts v. */
static struct spread
spread_of(double *v, size_t n)
{
	struct spread s;

	qsort(v, n, sizeof *v, cmp_double);
	s.min = v[0];
	s.max = v[n - 1];
	s.med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	return s;
}

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

/* Does the n bytes at p contain s? */
static int
contains(const uint8_t *p, size_t n, const char *s)
{
	size_t k = strlen(s);

	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (memcmp(p + i, s, k) == 0)
			return 1;
	return 0;
}

/* The next comma-separated item of *p, malloc'd; NULL at the end. */
static char *
next_item(const char **p)
{
	const char *s = *p, *e;

	if (*s == '\0')
		return NULL;
	e = strchr(s, ',');
	if (e == NULL)
		e = s + strlen(s);
	*p = *e == ',' ? e + 1 : e;
	return xstrndup(s, (size_t)(e - s));
}

/* ---- options ---------------------------------------------------------- */

static const char bench_usage[] =
"usage: micdb bench [options]\n"
"Measure micdb: the bundled workloads on the OpenCL engine and on the C\n"
"reference interpreter; a table on stdout, progress on stderr.\n"
"\n"
"  --workloads LIST       uniform,divergent,mimd,barrier,single (default all)\n"
"  --levels LIST          isa,mic,pmic (default isa)\n"
"  --cores LIST           core counts (default 1,32,1024,32768,1048576;\n"
"                         with --quick 1,32,1024); single always runs on 1\n"
"  --steps-per-launch K|LIST\n"
"                         kernel steps per launch, or auto (default auto)\n"
"  --device SEL           OpenCL device (see micdb devices; default\n"
"                         MICDB_DEVICE, else the first GPU, else the CPU)\n"
"  --reps N               timed repetitions, at least 5 (default 5)\n"
"  --run-seconds S        step budgets make a timed run last S to 2S\n"
"                         seconds (default 0.25, with --quick 0.05)\n"
"  --stack-words N        stack words per core (default 128)\n"
"  --heap-words N         shared heap words (default 1048576)\n"
"  --warp-width W         warp width, 1..64 (default 32)\n"
"  --csv FILE             write the figures as CSV\n"
"  --svg FILE             plot time per instruction against cores (SVG)\n"
"  --no-ref               do not run the reference interpreter\n"
"  --quick                a short run: default cores 1,32,1024, short budgets\n"
"  -h, --help             show this help\n"
"\n"
"Exit status: 0 measured, 1 a workload failed its own check or the device\n"
"failed, 2 bad usage or no OpenCL device.\n";

enum {
	OPT_LEVELS = 256, OPT_WORKLOADS, OPT_CORES, OPT_SPL, OPT_DEVICE,
	OPT_REPS, OPT_CSV, OPT_SVG, OPT_NOREF, OPT_QUICK, OPT_RUNSEC,
	OPT_STACK, OPT_HEAP, OPT_WARP,
};

static const struct option bench_longopts[] = {
	{ "levels",           required_argument, NULL, OPT_LEVELS },
	{ "workloads",        required_argument, NULL, OPT_WORKLOADS },
	{ "cores",            required_argument, NULL, OPT_CORES },
	{ "steps-per-launch", required_argument, NULL, OPT_SPL },
	{ "device",           required_argument, NULL, OPT_DEVICE },
	{ "reps",             required_argument, NULL, OPT_REPS },
	{ "csv",              required_argument, NULL, OPT_CSV },
	{ "svg",              required_argument, NULL, OPT_SVG },
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
	while ((item = next_item(&p)) != NULL) {
		size_t i;

		for (i = 0; i < NWORKLOADS; i++)
			if (strcmp(item, workloads[i].name) == 0)
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
	while ((item = next_item(&p)) != NULL) {
		size_t i;

		for (i = 0; i < NLEVELS; i++)
			if (strcmp(item, levels[i].name) == 0)
				break;
		if (i == NLEVELS) {
			*cause = xasprintf("unknown level '%s' (use isa, mic "
			    "or pmic)", item);
			free(item);
			return -1;
		}
		if (!levels[i].available) {
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
parse_cores(struct bench_opts *o, const char *arg, char **cause)
{
	const char *p = arg;
	char *item;

	free(o->cores);
	o->cores = NULL;
	o->ncores = 0;
	while ((item = next_item(&p)) != NULL) {
		unsigned long v;

		if (parse_uint_option(item, 1, 1ul << 26, &v) != 0) {
			*cause = xasprintf("bad core list '%s': give core "
			    "counts from 1 to %lu separated by commas, e.g. "
			    "1,32,1024", arg, 1ul << 26);
			free(item);
			return -1;
		}
		free(item);
		o->cores = xreallocarray(o->cores, o->ncores + 1,
		    sizeof *o->cores);
		o->cores[o->ncores++] = (uint32_t)v;
	}
	if (o->ncores == 0 || arg[strlen(arg) - 1] == ',') {
		*cause = xasprintf("bad core list '%s': give core counts "
		    "separated by commas, e.g. 1,32,1024", arg);
		return -1;
	}
	return 0;
}

static int
parse_spl(struct bench_opts *o, const char *arg, char **cause)
{
	const char *p = arg;
	char *item;

	free(o->spl);
	o->spl = NULL;
	o->nspl = 0;
	while ((item = next_item(&p)) != NULL) {
		unsigned long v = 0;

		if (strcmp(item, "auto") != 0 &&
		    parse_uint_option(item, 1, 1ul << 22, &v) != 0) {
			*cause = xasprintf("bad --steps-per-launch '%s': give "
			    "auto or numbers of steps from 1 to %lu, e.g. "
			    "1,64,auto", arg, 1ul << 22);
			free(item);
			return -1;
		}
		free(item);
		o->spl = xreallocarray(o->spl, o->nspl + 1, sizeof *o->spl);
		o->spl[o->nspl++] = v;
	}
	if (o->nspl == 0 || arg[strlen(arg) - 1] == ',') {
		*cause = xasprintf("bad --steps-per-launch '%s': give auto or "
		    "a list of step counts, e.g. 1,64,auto", arg);
		return -1;
	}
	return 0;
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
			if (parse_cores(o, optarg, cause) != 0)
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
	if (o->quick) {
		if (!have_runsec)
			o->run_s = QUICK_SECONDS;
		o->lat_s = QUICK_LAT_SECONDS;
	}
	return 0;
}

/* ---- device, programs ------------------------------------------------- */

static int
device_open(struct bench_device *d, const char *sel, char **cause)
{
	struct ocl_devices l;
	const struct ocl_device *od;
	size_t i;

	if (ocl_devices_list(&l, cause) != 0)
		return -1;
	if (ocl_devices_select(&l, sel, &i, cause) != 0) {
		ocl_devices_free(&l);
		return -1;
	}
	od = &l.dev[i];
	d->name = xasprintf("%s / %s", od->platform_name, od->name);
	d->version = xstrdup(od->version);
	d->driver = xstrdup(od->driver);
	d->type = ocl_device_type_name(od->type);
	d->units = od->compute_units;
	d->global_mem = od->global_mem;
	d->max_alloc = od->max_alloc;
	d->max_wg = od->max_wg ? od->max_wg : 1;
	d->is_gpu = (od->type & CL_DEVICE_TYPE_GPU) != 0;
	ocl_devices_free(&l);
	return 0;
}

static void
device_free(struct bench_device *d)
{
	free(d->name);
	free(d->version);
	free(d->driver);
}

/*
 * The workloads' directory: $MICDB_BENCH_DIR, else the source tree's
 * programs/bench when this binary runs from it (so an edited workload is
 * what gets measured), else the installed copy, else the source tree's.
 */
static char *
bench_dir(void)
{
	const char *env = getenv("MICDB_BENCH_DIR");
	char exe[4096], *src, *dir;
	ssize_t n;
	int in_tree = 0;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	src = realpath(MICDB_SRCDIR, NULL);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (src != NULL && n > 0) {
		size_t k = strlen(src);

		exe[n] = '\0';
		in_tree = strncmp(exe, src, k) == 0 && exe[k] == '/';
	}
	free(src);
	if (!in_tree) {
		dir = xasprintf("%s/programs/bench", MICDB_PKGDATADIR);
		if (access(dir, R_OK) == 0)
			return dir;
		free(dir);
	}
	return xasprintf("%s/programs/bench", MICDB_SRCDIR);
}

static int
load_workload(const struct bench *b, const struct workload *w,
    struct wl_progs *wp, char **cause)
{
	memset(wp, 0, sizeof *wp);
	for (size_t i = 0; i < w->nprogs; i++) {
		char *path = xasprintf("%s/%s", b->dir, w->files[i]);
		char *msg = NULL;

		if (program_load_file(&wp->progs[i], path, &msg) != 0) {
			*cause = xasprintf("cannot load workload %s: %s (set "
			    "MICDB_BENCH_DIR to the directory holding %s)",
			    w->name, msg, w->files[i]);
			free(msg);
			free(path);
			for (size_t j = 0; j < wp->n; j++)
				program_free(&wp->progs[j]);
			return -1;
		}
		free(path);
		wp->ptrs[i] = &wp->progs[i];
		wp->n++;
	}
	return 0;
}

static void
wl_progs_free(struct wl_progs *wp)
{
	for (size_t i = 0; i < wp->n; i++)
		program_free(&wp->progs[i]);
	wp->n = 0;
}

/* ---- memory ----------------------------------------------------------- */

/* Device and host bytes of a machine of n cores: the engine's own
 * figures, and the host's machine on top. */
static void
mem_estimate(const struct bench *b, const struct wl_progs *wp, uint32_t n,
    struct memuse *mu)
{
	struct machine_config cfg;
	struct ocl_mem_need need;

	cfg.ncores = n;
	cfg.stack_words = b->o.stack_words;
	cfg.heap_words = b->o.heap_words;
	cfg.warp_width = b->o.warp_width;
	switch (levels[b->lv].level) {
	case LEVEL_MIC:
		engine_ocl_mic_mem_need(&cfg, wp->ptrs, wp->n, b->dev.is_gpu,
		    b->dev.max_wg, &need);
		break;
	case LEVEL_PMIC:
		engine_ocl_pmic_mem_need(&cfg, wp->ptrs, wp->n, b->dev.is_gpu,
		    b->dev.max_wg, &need);
		break;
	default:
		engine_ocl_mem_need(&cfg, wp->ptrs, wp->n, b->dev.is_gpu,
		    b->dev.max_wg, &need);
		break;
	}
	mu->ctx = need.ctx;
	mu->stacks = need.stacks;
	mu->io = need.io;
	mu->shared = need.shared;
	mu->ckpt = need.ckpt;
	/* host: the machine (cores, stacks, I/O, heap) and the engine's */
	mu->host = (uint64_t)n * (sizeof(struct core) +
	    sizeof(struct core_io) + 8) + mu->stacks + mu->shared + need.host;
}

static uint64_t
mem_device(const struct memuse *mu)
{
	return mu->ctx + mu->stacks + mu->io + mu->shared;
}

/* Why n cores do not fit (malloc'd), or NULL. */
static char *
mem_refusal(const struct bench *b, const struct memuse *mu)
{
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	uint64_t need = mem_device(mu);

	if (need > b->dev.global_mem)
		return xasprintf("needs %.0f MiB of device memory, the device "
		    "has %.0f MiB", need / 1048576.0,
		    b->dev.global_mem / 1048576.0);
	if (mu->stacks > b->dev.max_alloc || mu->ctx > b->dev.max_alloc)
		return xasprintf("needs a %.0f MiB buffer, the device allows "
		    "%.0f MiB", (mu->stacks > mu->ctx ? mu->stacks : mu->ctx) /
		    1048576.0, b->dev.max_alloc / 1048576.0);
	/* A CPU device's memory is the host's: both copies count. */
	if (pages > 0 && psize > 0) {
		uint64_t host = (uint64_t)pages * (uint64_t)psize, want;

		want = mu->host + (b->dev.is_gpu ? 0 : need + mu->ckpt);
		if (want > host / 10 * 8)
			return xasprintf("needs %.0f MiB of host memory, the "
			    "host has %.0f MiB", want / 1048576.0,
			    host / 1048576.0);
	}
	return NULL;
}

/* ---- one engine run --------------------------------------------------- */

static uint64_t
instructions(const struct machine *m)
{
	uint64_t n = 0;

	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		n += m->cores[c].steps;
	return n;
}

/* A fresh machine of n cores for workload w. */
static int
machine_make(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, struct machine *m, char **cause)
{
	struct machine_config cfg;
	uint16_t *core_prog = NULL;
	int rc;

	cfg.ncores = n;
	cfg.stack_words = b->o.stack_words;
	cfg.heap_words = b->o.heap_words;
	cfg.warp_width = b->o.warp_width;
	if (w->nprogs > 1) {
		/* MIMD: program (c / W) mod 4 on core c, four programs on
		 * interleaved warps */
		core_prog = xcalloc(n, sizeof *core_prog);
		for (uint32_t c = 0; c < n; c++)
			core_prog[c] = (uint16_t)(c / cfg.warp_width %
			    w->nprogs);
	}
	/* The machine keeps the array (it must outlive it: wp does); it
	 * never writes through it, but its type is not const all the way. */
	rc = machine_init(m, &cfg, (const struct program **)(uintptr_t)wp->ptrs,
	    wp->n, core_prog, cause);
	free(core_prog);
	return rc;
}

/* An engine over m: the reference, or OpenCL with K steps per launch. */
static int
engine_make(const struct bench *b, int ref, struct machine *m, uint64_t K,
    struct engine *e, char **cause)
{
	enum level lv = levels[b->lv].level;

	if (level_engine_open(e, m, lv, ref ? ENGINE_REF : ENGINE_OPENCL,
	    b->o.device, lv == LEVEL_MIC ? &b->mc : lv == LEVEL_PMIC ?
	    &b->pmc : NULL, cause) != 0)
		return -1;
	if (ref)
		return 0;
	/* 0 is the adaptive default: set it anyway, so that a k in
	 * MICDB_OCL_TEST cannot make "auto" a lie */
	engine_ocl_set_steps_per_launch(e, K);
	return 0;
}

/*
 * One run() of at most max steps (0: to completion), timed; *ran and
 * *done say how far it got.  Faults and deadlocks fail the workload.
 */
static int
drive(struct engine *e, uint64_t max, uint64_t *ran, int *done,
    double *secs, char **cause)
{
	struct engine_run r;
	struct engine_stop st;
	double t0;
	int rc;

	memset(&r, 0, sizeof r);
	r.max_steps = max ? max : UINT64_MAX;
	r.stop_on_fault = 1;
	t0 = now();
	rc = e->ops->run(e, &r, &st, cause);
	*secs = now() - t0;
	if (rc != 0)
		return -1;
	*ran = st.steps_run;
	*done = 0;
	switch (st.reason) {
	case STOP_STEPS:
		return 0;
	case STOP_DONE:
		*done = 1;
		return 0;
	case STOP_FAULT: {
		const struct core *c = &e->m->cores[st.ncores ? st.cores[0] :
		    0];

		*cause = xasprintf("core %u faulted at pc 0x%04x: %s",
		    st.ncores ? st.cores[0] : 0, (uint32_t)c->fault_pc,
		    ijvm_fault_message(c->fault));
		return -1;
	}
	case STOP_DEADLOCK:
		*cause = xasprintf("deadlock at step %llu: cores wait at a "
		    "barrier that cannot complete",
		    (unsigned long long)e->m->step);
		return -1;
	default:
		*cause = xasprintf("the engine stopped for no reason bench "
		    "knows (%d)", (int)st.reason);
		return -1;
	}
}

/*
 * The workload's own verdict on m: no core printed FAIL or faulted, and
 * when the run is complete every program that had cores printed its OK.
 */
static int
check_output(const struct machine *m, const struct workload *w, int done,
    char **cause)
{
	int ok[4] = { 0, 0, 0, 0 }, has[4] = { 0, 0, 0, 0 };

	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];
		const struct buf *out = &m->io[c].out;

		if (contains(out->data, out->len, "FAIL")) {
			*cause = xasprintf("core %u printed FAIL: the "
			    "workload's self-check failed", c);
			return -1;
		}
		if (core->status == CORE_ERROR) {
			*cause = xasprintf("core %u faulted: %s", c,
			    ijvm_fault_message(core->fault));
			return -1;
		}
		if (core->prog < w->nprogs) {
			has[core->prog] = 1;
			if (contains(out->data, out->len, w->ok[core->prog]))
				ok[core->prog] = 1;
		}
	}
	if (!done)
		return 0;
	for (size_t p = 0; p < w->nprogs; p++)
		if (has[p] && !ok[p]) {
			*cause = xasprintf("the run completed but no core "
			    "printed '%s': the workload's result is wrong",
			    w->ok[p]);
			return -1;
		}
	return 0;
}

/*
 * A warm-up on a fresh machine, which also sets the budget: doubling
 * chunks until done or a run of run_s seconds (see the top of the file).
 */
static int
warm_up(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, int ref, uint64_t K,
    struct warm *wu, char **cause)
{
	struct machine m;
	struct engine e;
	double elapsed = 0, prev = 0, prev_step = 0;
	int rc = -1;

	memset(wu, 0, sizeof *wu);
	if (machine_make(b, w, wp, n, &m, cause) != 0)
		return -1;
	if (engine_make(b, ref, &m, K, &e, cause) != 0) {
		machine_free(&m);
		return -1;
	}
	for (uint64_t boundary = 1;; boundary *= 2) {
		uint64_t ran;
		double secs, per_step;

		if (drive(&e, boundary - wu->steps, &ran, &wu->done, &secs,
		    cause) != 0)
			goto out;
		wu->steps += ran;
		/* The first step pays for what a device does once per
		 * configuration (POCL compiles the kernel for a new global
		 * size then, up to a second): it must not shrink the budget. */
		if (boundary > 1)
			elapsed += secs;
		if (wu->done) {
			wu->instr = instructions(&m);
			break;
		}
		wu->marks[wu->nmarks++] = instructions(&m);
		if (wu->nmarks == MAX_CHUNKS)
			break;
		if (w->whole && !b->o.quick)
			continue;
		/* Chunks of boundary / 2 and boundary / 4 steps: their
		 * difference is the cost of boundary / 4 steps without what
		 * every run() pays (a checkpoint, first launches).  Two
		 * successive estimates must agree, so that a one-time cost
		 * in one chunk (the first checkpoint's allocation) cannot end
		 * the calibration; stop when a run of `boundary` steps costs
		 * run_s by both, or when calibrating has taken long enough. */
		per_step = boundary >= 4 && secs > prev ? (secs - prev) /
		    (double)(boundary / 4) : 0;
		if ((per_step < prev_step ? per_step : prev_step) *
		    (double)boundary >= b->o.run_s ||
		    elapsed >= CALIBRATE_MAX * b->o.run_s)
			break;
		prev = secs;
		prev_step = per_step;
	}
	if (!wu->done)
		wu->instr = wu->marks[wu->nmarks - 1];
	rc = check_output(&m, w, wu->done, cause);
out:
	engine_free(&e);
	machine_free(&m);
	return rc;
}

/* Instructions after 2^k steps, or -1 when the warm-up did not get
 * there. */
static int64_t
warm_mark(const struct warm *wu, int k)
{
	if (k < wu->nmarks)
		return (int64_t)wu->marks[k];
	return wu->done ? (int64_t)wu->instr : -1;
}

/* The two engines' warm-ups must agree where both got (see the top). */
static int
cross_check(const struct warm *a, const struct warm *r, char **cause)
{
	int k;

	if (a->done && r->done) {
		if (a->instr != r->instr || a->steps != r->steps) {
			*cause = xasprintf("the OpenCL engine retired %llu "
			    "instructions in %llu steps, the reference %llu in "
			    "%llu: the engines disagree",
			    (unsigned long long)a->instr,
			    (unsigned long long)a->steps,
			    (unsigned long long)r->instr,
			    (unsigned long long)r->steps);
			return -1;
		}
		return 0;
	}
	k = a->done ? r->nmarks - 1 : r->done ? a->nmarks - 1 :
	    (a->nmarks < r->nmarks ? a->nmarks : r->nmarks) - 1;
	if (k < 0 || warm_mark(a, k) < 0 || warm_mark(r, k) < 0)
		return 0;
	if (warm_mark(a, k) != warm_mark(r, k)) {
		*cause = xasprintf("after %llu steps the OpenCL engine had "
		    "retired %lld instructions, the reference %lld: the "
		    "engines disagree", 1ull << k, (long long)warm_mark(a, k),
		    (long long)warm_mark(r, k));
		return -1;
	}
	return 0;
}

/* What the timed runs of one engine give. */
struct timed {
	struct spread	ips;
	double		simd;      /* OpenCL only */
	double		kpaths;
	double		spl_used;
	double		cpi;       /* micro levels */
};

/* SIMD efficiency and kernel paths per warp-step of the last run, which
 * ran `steps` global steps. */
static void
simd_figures(struct engine *e, uint32_t W, uint64_t steps_run,
    struct timed *t)
{
	size_t nw = 0;
	const struct engine_warp_record *wr = engine_ocl_warps(e, &nw);
	struct ocl_engine_stats st;
	uint64_t act = 0, k = 0, steps = 0;

	for (size_t i = 0; i < nw; i++) {
		act += wr[i].active;
		k += wr[i].kpaths;
		steps += wr[i].steps;
	}
	t->simd = k ? (double)act / ((double)W * (double)k) : NAN;
	t->kpaths = steps ? (double)k / (double)steps : NAN;
	engine_ocl_stats(e, &st);
	/* steps the machine advanced per launch: launch_steps counts what
	 * launches were asked for, more than a finishing machine runs */
	t->spl_used = st.launches ? (double)steps_run / (double)st.launches :
	    NAN;
}

/* Timed run i (of reps) on a fresh machine, of the warm-up's budget:
 * ips[i], and the SIMD and cycle figures into t. */
static int
timed_run(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, int ref, uint64_t K,
    const struct warm *wu, unsigned i, double *ips, struct timed *t,
    char **cause)
{
	struct machine m;
	struct engine e;
	uint64_t ran;
	int done, rc = -1;
	double secs;

	if (machine_make(b, w, wp, n, &m, cause) != 0)
		return -1;
	if (engine_make(b, ref, &m, K, &e, cause) != 0) {
		machine_free(&m);
		return -1;
	}
	if (drive(&e, wu->done ? 0 : wu->steps, &ran, &done, &secs,
	    cause) != 0 || check_output(&m, w, done, cause) != 0)
		goto out;
	if (done != wu->done || ran != wu->steps ||
	    instructions(&m) != wu->instr) {
		*cause = xasprintf("repetition %u ran %llu steps and retired "
		    "%llu instructions, the warm-up %llu and %llu: the %s "
		    "engine is not deterministic", i + 1,
		    (unsigned long long)ran,
		    (unsigned long long)instructions(&m),
		    (unsigned long long)wu->steps,
		    (unsigned long long)wu->instr,
		    ref ? "reference" : "OpenCL");
		goto out;
	}
	/* a run too short for the clock still counts, as a bound */
	ips[i] = (double)wu->instr / (secs > 1e-9 ? secs : 1e-9);
	if (!ref && i + 1 == b->o.reps)
		simd_figures(&e, b->o.warp_width, ran, t);
	t->cpi = NAN;
	if (e.ops->at_boundary != NULL && wu->instr > 0) {
		uint64_t cyc = 0;

		for (uint32_t c = 0; c < m.cfg.ncores; c++)
			cyc += m.cores[c].cycles;
		t->cpi = (double)cyc / (double)wu->instr;
	}
	rc = 0;
out:
	engine_free(&e);
	machine_free(&m);
	return rc;
}

/* reps timed runs of one engine. */
static int
timed_runs(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, int ref, uint64_t K,
    const struct warm *wu, struct timed *t, char **cause)
{
	double *ips = xcalloc(b->o.reps, sizeof *ips);
	int rc = -1;

	for (unsigned i = 0; i < b->o.reps; i++)
		if (timed_run(b, w, wp, n, ref, K, wu, i, ips, t, cause) != 0)
			goto out;
	t->ips = spread_of(ips, b->o.reps);
	rc = 0;
out:
	free(ips);
	return rc;
}

/*
 * The timed runs of both engines, paired: repetition i of the reference
 * and of OpenCL one after the other (in ABBA order), so that the ratio
 * compares runs made in the same seconds.  On a shared machine whose
 * speed drifts from minute to minute, the reference's five runs and
 * OpenCL's, made a minute apart, could fall in different periods: this
 * VM measured the same OpenCL binary at 50-74M instructions/s and the
 * reference at 24-38M within minutes (2026-11-22).  *ref_failed says
 * which one failed.
 */
static int
paired_runs(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, uint64_t K,
    const struct warm *rwu, struct timed *rt, const struct warm *owu,
    struct timed *ot, int *ref_failed, char **cause)
{
	double *rips = xcalloc(b->o.reps, sizeof *rips);
	double *oips = xcalloc(b->o.reps, sizeof *oips);
	int rc = -1;

	for (unsigned i = 0; i < b->o.reps; i++)
		for (int j = 0; j < 2; j++) {
			const int ref = (i % 2 == 0) == (j == 0);

			*ref_failed = ref;
			if (timed_run(b, w, wp, n, ref, ref ? 0 : K,
			    ref ? rwu : owu, i, ref ? rips : oips,
			    ref ? rt : ot, cause) != 0)
				goto out;
		}
	rt->ips = spread_of(rips, b->o.reps);
	ot->ips = spread_of(oips, b->o.reps);
	rc = 0;
out:
	free(rips);
	free(oips);
	return rc;
}

/*
 * Interactive step latency: one run() of one step (a K = 1 launch and
 * the full context read-back) on a fresh OpenCL machine, many times;
 * with a render hook, also one step plus one off-screen render.
 */
static int
latency(const struct bench *b, const struct workload *w,
    const struct wl_progs *wp, uint32_t n, struct result *r, char **cause)
{
	struct machine m;
	struct engine e;
	double step[LAT_MAX], both[LAT_MAX], spent = 0, secs;
	size_t ns = 0;
	uint64_t ran;
	int done = 0, rc = -1;
	int (*render)(void *, struct engine *, char **) =
	    b->hooks != NULL ? b->hooks->render : NULL;

	if (machine_make(b, w, wp, n, &m, cause) != 0)
		return -1;
	if (engine_make(b, 0, &m, 0, &e, cause) != 0) {
		machine_free(&m);
		return -1;
	}
	/* an untimed first step: the first launch of an engine pays for
	 * one-time set-up that an interactive user sees once */
	if (drive(&e, 1, &ran, &done, &secs, cause) != 0)
		goto out;
	while (!done && ns < LAT_MAX && (ns < LAT_MIN || spent < b->o.lat_s)) {
		double t0 = now();

		if (drive(&e, 1, &ran, &done, &secs, cause) != 0)
			goto out;
		step[ns] = secs * 1e3;
		if (render != NULL && render(b->hooks->arg, &e, cause) != 0)
			goto out;
		both[ns] = (now() - t0) * 1e3;
		spent += now() - t0;
		ns++;
	}
	if (check_output(&m, w, done, cause) != 0)
		goto out;
	if (ns > 0) {
		r->have_lat = 1;
		r->lat_ms = spread_of(step, ns);
		if (render != NULL) {
			r->have_render = 1;
			r->render_ms = spread_of(both, ns);
		}
	}
	rc = 0;
out:
	engine_free(&e);
	machine_free(&m);
	return rc;
}

/* ---- output ----------------------------------------------------------- */

/*
 * The micro levels' own figures (bench.md): micro-cycles per second and
 * cycles per instruction of every row, and the ratio of divergent to
 * uniform throughput per level, core count and K (in micro-cycles/s at
 * the micro levels, where the kernel's work is a cycle; in instr/s at
 * the ISA level), which shows what branch-free stepping buys.
 */
static void
print_micro(const struct bench *b)
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
		    levels[r->lv].name, workloads[r->wl].name, r->ncores,
		    r->ips.med * r->cpi, r->cpi);
	}
	head = 0;
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *d = &b->res[i];

		if (d->note != NULL || strcmp(workloads[d->wl].name,
		    "divergent") != 0)
			continue;
		for (size_t j = 0; j < b->nres; j++) {
			const struct result *u = &b->res[j];
			double tu, td;

			if (u->note != NULL || u->lv != d->lv ||
			    u->ncores != d->ncores || u->spl != d->spl ||
			    strcmp(workloads[u->wl].name, "uniform") != 0)
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
			printf("  %-5s %8u cores  %.3f\n", levels[d->lv].name,
			    d->ncores, tu > 0 ? td / tu : NAN);
		}
	}
	/* The thesis' figure: Mic-1 cycles per PMIC cycle for the same
	 * instructions (1.88 measured there, 2.56 in theory). */
	head = 0;
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *p = &b->res[i];

		if (p->note != NULL || levels[p->lv].level != LEVEL_PMIC ||
		    !isfinite(p->cpi) || p->cpi <= 0)
			continue;
		for (size_t j = 0; j < b->nres; j++) {
			const struct result *m = &b->res[j];

			if (m->note != NULL || levels[m->lv].level !=
			    LEVEL_MIC || m->wl != p->wl ||
			    m->ncores != p->ncores || m->spl != p->spl ||
			    !isfinite(m->cpi))
				continue;
			if (!head)
				printf("\nMic-1 / PMIC cycles per "
				    "instruction:\n");
			head = 1;
			printf("  %-9s %8u cores  %.3f / %.3f = %.3f\n",
			    workloads[p->wl].name, p->ncores, m->cpi, p->cpi,
			    m->cpi / p->cpi);
		}
	}
}

/* A CSV field, quoted when it has to be (RFC 4180). */
static void
csv_field(FILE *f, const char *s)
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

static const char csv_header[] = "device,level,workload,cores,"
    "steps_per_launch,instr_per_s,ref_instr_per_s,ratio_vs_ref,"
    "step_latency_ms,render_ms,bytes_per_core,simd_efficiency,"
    "cycles_per_instr\n";

static uint64_t
bytes_per_core(const struct result *r)
{
	return (r->mem.ctx + r->mem.stacks + r->mem.io + r->ncores / 2) /
	    r->ncores;
}

static int
csv_row(const struct bench *b, const struct result *r, char **cause)
{
	FILE *f = b->csv;

	csv_field(f, b->dev.name);
	fprintf(f, ",%s,%s,%u,", levels[r->lv].name, workloads[r->wl].name,
	    r->ncores);
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

static void
progress(struct bench *b, const struct result *r, int start)
{
	char kb[32], a[16], c[16];

	spl_text(kb, sizeof kb, r);
	if (start) {
		if (b->tty)
			fprintf(stderr, "\r\033[Kbench: [%zu/%zu] %s %s, %u "
			    "cores, K %s ...", b->done + 1, b->total,
			    levels[r->lv].name, workloads[r->wl].name,
			    r->ncores, r->spl ? kb : "auto");
		return;
	}
	if (b->tty)
		fputs("\r\033[K", stderr);
	if (r->note != NULL) {
		fprintf(stderr, "bench: [%zu/%zu] %s %s, %u cores: skipped, "
		    "%s\n", b->done, b->total, levels[r->lv].name,
		    workloads[r->wl].name, r->ncores, r->note);
		return;
	}
	si(a, sizeof a, r->ips.med);
	fprintf(stderr, "bench: [%zu/%zu] %s %s, %u cores, K %s: %s instr/s",
	    b->done, b->total, levels[r->lv].name, workloads[r->wl].name,
	    r->ncores, kb, a);
	if (r->have_ref) {
		si(c, sizeof c, r->ref_ips.med);
		fprintf(stderr, ", reference %s, ratio %.2f", c,
		    r->ips.med / r->ref_ips.med);
	}
	fputc('\n', stderr);
}

static void
print_table(const struct bench *b)
{
	char x[6][24];
	int skipped = 0, budgeted = 0;

	printf("micdb bench: %s (%s, %u compute units, %.1f GiB)\n",
	    b->dev.name, b->dev.type, b->dev.units,
	    b->dev.global_mem / 1073741824.0);
	printf("  device version %s; driver %s\n", b->dev.version,
	    b->dev.driver);
	printf("  warp width %u, %u stack words per core, %u timed runs after "
	    "a warm-up, each on a fresh machine; figures are medians [min, "
	    "max]\n\n", b->o.warp_width, b->o.stack_words, b->o.reps);
	printf("%-5s %-9s %8s %-10s %12s  %-26s %9s  %-26s %7s %6s %6s  "
	    "%-22s %7s %9s\n", "level", "workload", "cores", "K/launch",
	    "steps/run", "OpenCL instr/s [min, max]", "ns/instr",
	    "reference instr/s", "ratio", "SIMD", "k/ws", "step ms [min, max]",
	    "B/core", "dev MiB");
	for (size_t i = 0; i < b->nres; i++) {
		const struct result *r = &b->res[i];
		char kb[32], steps[32], ocl[96], ref[96], lat[96];

		if (r->note != NULL) {
			skipped = 1;
			printf("%-5s %-9s %8u  skipped: %s\n",
			    levels[r->lv].name, workloads[r->wl].name,
			    r->ncores, r->note);
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
		si(x[0], sizeof x[0], r->ips.med);
		si(x[1], sizeof x[1], r->ips.min);
		si(x[2], sizeof x[2], r->ips.max);
		snprintf(ocl, sizeof ocl, "%s [%s, %s]", x[0], x[1], x[2]);
		if (r->have_ref) {
			si(x[3], sizeof x[3], r->ref_ips.med);
			si(x[4], sizeof x[4], r->ref_ips.min);
			si(x[5], sizeof x[5], r->ref_ips.max);
			snprintf(ref, sizeof ref, "%s [%s, %s]%s", x[3], x[4],
			    x[5], r->ref_done ? "" : "*");
			if (!r->ref_done)
				budgeted = 1;
		} else
			snprintf(ref, sizeof ref, "-");
		if (r->have_lat) {
			ms(x[0], sizeof x[0], r->lat_ms.med);
			ms(x[1], sizeof x[1], r->lat_ms.min);
			ms(x[2], sizeof x[2], r->lat_ms.max);
			snprintf(lat, sizeof lat, "%s [%s, %s]", x[0], x[1],
			    x[2]);
		} else
			snprintf(lat, sizeof lat, "-");
		printf("%-5s %-9s %8u %-10s %12s  %-26s %9.2f  %-26s ",
		    levels[r->lv].name, workloads[r->wl].name, r->ncores, kb,
		    steps, ocl, 1e9 / r->ips.med, ref);
		if (r->have_ref)
			printf("%7.2f ", r->ips.med / r->ref_ips.med);
		else
			printf("%7s ", "-");
		if (isfinite(r->simd))
			printf("%6.3f %6.2f  ", r->simd, r->kpaths);
		else
			printf("%6s %6s  ", "-", "-");
		printf("%-22s %7llu %9.1f\n", lat,
		    (unsigned long long)bytes_per_core(r),
		    mem_device(&r->mem) / 1048576.0);
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
		    (unsigned long long)mem_device(&r->mem),
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
	if (skipped)
		printf("skipped core counts do not fit the device or the host "
		    "(lower --stack-words to fit more).\n");
}

/* Series of the plot: one per level, workload and K, plus the reference
 * per level and workload (dashed, in the workload's colour). */
static int
write_svg(const struct bench *b, char **cause)
{
	struct svg_series *se = xcalloc(2 * b->nres + 1, sizeof *se);
	double *xs = xcalloc(2 * b->nres + 1, sizeof *xs);
	double *ys = xcalloc(2 * b->nres + 1, sizeof *ys);
	char **labels = xcalloc(2 * b->nres + 1, sizeof *labels);
	size_t ns = 0, np = 0;
	struct svg_plot p;
	char *title, *sub;
	int rc;

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
				    "thread)", levels[r->lv].name,
				    workloads[r->wl].name);
			else if (b->o.nspl > 1 && r->spl != 0)
				labels[ns] = xasprintf("%s %s, OpenCL, K %llu",
				    levels[r->lv].name, workloads[r->wl].name,
				    (unsigned long long)r->spl);
			else
				labels[ns] = xasprintf("%s %s, OpenCL%s",
				    levels[r->lv].name, workloads[r->wl].name,
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
	memset(&p, 0, sizeof p);
	p.title = title;
	p.subtitle = sub;
	p.xlabel = "emulated cores N";
	p.ylabel = "time per instruction T(N) = t / instructions";
	p.xkind = SVG_AXIS_COUNT;
	p.ykind = SVG_AXIS_SECONDS;
	p.series = se;
	p.nseries = ns;
	rc = svg_write_loglog(b->svg, &p, cause);
	for (size_t i = 0; i < ns; i++)
		free(labels[i]);
	free(labels);
	free(se);
	free(xs);
	free(ys);
	free(title);
	free(sub);
	return rc;
}

/* ---- the measurements ------------------------------------------------- */

static struct result *
new_result(struct bench *b, size_t wl, size_t lv, uint32_t n, uint64_t K)
{
	struct result *r;

	b->res = xreallocarray(b->res, b->nres + 1, sizeof *b->res);
	r = &b->res[b->nres++];
	memset(r, 0, sizeof *r);
	r->wl = wl;
	r->lv = lv;
	r->ncores = n;
	r->spl = K;
	r->simd = r->kpaths = r->spl_used = r->cpi = NAN;
	return r;
}

/* Every K of one workload, level and core count: the reference and the
 * latency do not depend on K, so they are measured once. */
static int
measure(struct bench *b, size_t wl, size_t lv, uint32_t n,
    const struct wl_progs *wp, char **cause)
{
	const struct workload *w = &workloads[wl];
	struct memuse mu;
	struct warm rwarm, owarm;
	struct timed rt, ot;
	struct result lat;
	char *why, *msg = NULL;

	mem_estimate(b, wp, n, &mu);
	if ((why = mem_refusal(b, &mu)) != NULL) {
		for (size_t k = 0; k < b->o.nspl; k++) {
			struct result *r = new_result(b, wl, lv, n,
			    b->o.spl[k]);

			r->note = k ? xstrdup(why) : why;
			r->mem = mu;
			b->done++;
			progress(b, r, 0);
		}
		return 0;
	}
	b->lv = lv;
	memset(&rt, 0, sizeof rt);
	memset(&ot, 0, sizeof ot);
	memset(&rwarm, 0, sizeof rwarm);
	memset(&lat, 0, sizeof lat);
	if (!b->o.no_ref) {
		if (b->tty)
			fprintf(stderr, "\r\033[Kbench: [%zu/%zu] %s %s, %u "
			    "cores: reference ...", b->done + 1, b->total,
			    levels[lv].name, w->name, n);
		if (warm_up(b, w, wp, n, 1, 0, &rwarm, &msg) != 0)
			goto fail_ref;
	}
	for (size_t k = 0; k < b->o.nspl; k++) {
		struct result *r = new_result(b, wl, lv, n, b->o.spl[k]);
		int ref_failed = 0;

		progress(b, r, 1);
		r->mem = mu;
		if (warm_up(b, w, wp, n, 0, r->spl, &owarm, &msg) != 0 ||
		    (!b->o.no_ref && cross_check(&owarm, &rwarm, &msg) != 0))
			goto fail_ocl;
		/* the reference's runs are paired with the first steps
		 * per launch's; the other rows share its figure */
		if (k == 0 && !b->o.no_ref ?
		    paired_runs(b, w, wp, n, r->spl, &rwarm, &rt, &owarm,
		    &ot, &ref_failed, &msg) != 0 :
		    timed_runs(b, w, wp, n, 0, r->spl, &owarm, &ot,
		    &msg) != 0) {
			if (ref_failed)
				goto fail_ref;
			goto fail_ocl;
		}
		if (k == 0 && latency(b, w, wp, n, &lat, &msg) != 0)
			goto fail_ocl;
		r->done = owarm.done;
		r->steps = owarm.steps;
		r->instr = owarm.instr;
		r->ips = ot.ips;
		r->simd = ot.simd;
		r->kpaths = ot.kpaths;
		r->spl_used = ot.spl_used;
		r->cpi = ot.cpi;
		if (!b->o.no_ref) {
			r->have_ref = 1;
			r->ref_done = rwarm.done;
			r->ref_steps = rwarm.steps;
			r->ref_instr = rwarm.instr;
			r->ref_ips = rt.ips;
		}
		r->have_lat = lat.have_lat;
		r->lat_ms = lat.lat_ms;
		r->have_render = lat.have_render;
		r->render_ms = lat.render_ms;
		b->done++;
		progress(b, r, 0);
		if (b->csv != NULL && csv_row(b, r, cause) != 0)
			return -1;
	}
	return 0;
fail_ref:
	*cause = xasprintf("%s %s on %u cores, reference interpreter: %s",
	    levels[lv].name, w->name, n, msg);
	free(msg);
	return -1;
fail_ocl:
	*cause = xasprintf("%s %s on %u cores, OpenCL engine: %s",
	    levels[lv].name, w->name, n, msg);
	free(msg);
	return -1;
}

static void
bench_free(struct bench *b)
{
	for (size_t i = 0; i < b->nres; i++)
		free(b->res[i].note);
	free(b->res);
	free(b->o.cores);
	free(b->o.spl);
	free(b->dir);
	microcode_free(&b->mc);
	microcode_free(&b->pmc);
	device_free(&b->dev);
	if (b->csv != NULL)
		fclose(b->csv);
	if (b->svg != NULL)
		fclose(b->svg);
}

static int
open_output(const char *path, const char *what, FILE **f, char **cause)
{
	if (path == NULL)
		return 0;
	if ((*f = fopen(path, "w")) == NULL) {
		*cause = xasprintf("cannot write the %s to %s: %s", what, path,
		    strerror(errno));
		return -1;
	}
	return 0;
}

int
bench_run(int argc, char **argv, const struct bench_hooks *hooks)
{
	struct bench b;
	char *cause = NULL;
	int rc;

	memset(&b, 0, sizeof b);
	b.hooks = hooks;
	rc = parse_opts(&b.o, argc, argv, &cause);
	if (rc == 1) {
		bench_free(&b);
		return BENCH_EXIT_OK;
	}
	if (rc != 0 || device_open(&b.dev, b.o.device, &cause) != 0 ||
	    open_output(b.o.csv_path, "CSV", &b.csv, &cause) != 0 ||
	    open_output(b.o.svg_path, "plot", &b.svg, &cause) != 0)
		goto usage;
	if (b.csv != NULL && (fputs(csv_header, b.csv) == EOF ||
	    fflush(b.csv) != 0)) {
		cause = xasprintf("cannot write %s: %s", b.o.csv_path,
		    strerror(errno));
		goto usage;
	}
	for (size_t l = 0; l < b.o.nlv; l++)
		if ((levels[b.o.lv[l]].level == LEVEL_MIC &&
		    microcode_load(&b.mc, LEVEL_MIC, NULL, &cause) != 0) ||
		    (levels[b.o.lv[l]].level == LEVEL_PMIC &&
		    microcode_load(&b.pmc, LEVEL_PMIC, NULL, &cause) != 0))
			goto usage;
	b.dir = bench_dir();
	b.tty = isatty(STDERR_FILENO);
	for (size_t i = 0; i < b.o.nwl; i++) {
		size_t per = workloads[b.o.wl[i]].one_core ? 1 : b.o.ncores;

		b.total += per * b.o.nlv * b.o.nspl;
	}

	for (size_t i = 0; i < b.o.nwl; i++) {
		const struct workload *w = &workloads[b.o.wl[i]];
		struct wl_progs wp;

		if (load_workload(&b, w, &wp, &cause) != 0)
			goto usage;
		for (size_t l = 0; l < b.o.nlv; l++)
			for (size_t c = 0; c < b.o.ncores; c++) {
				uint32_t n = w->one_core ? 1 : b.o.cores[c];

				if (measure(&b, b.o.wl[i], b.o.lv[l], n, &wp,
				    &cause) != 0) {
					wl_progs_free(&wp);
					goto failed;
				}
				if (w->one_core)
					break;
			}
		wl_progs_free(&wp);
	}
	print_table(&b);
	print_micro(&b);
	if (fflush(stdout) != 0) {
		cause = xasprintf("cannot write the table: %s",
		    strerror(errno));
		goto failed;
	}
	if (b.svg != NULL && write_svg(&b, &cause) != 0)
		goto failed;
	bench_free(&b);
	return BENCH_EXIT_OK;
failed:
	if (b.tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "micdb bench: %s\n", cause);
	free(cause);
	bench_free(&b);
	return BENCH_EXIT_FAILED;
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
