/*
 * micdb bench's internal interface: what bench.c (options, device, the
 * driver), bench-work.c (the workloads and the machines they run on),
 * bench-measure.c (the timed measurements) and bench-report.c (table,
 * CSV, SVG) share.  The public interface is bench.h; nothing outside
 * src/tools/bench*.c includes this file.
 *
 * Ownership: struct bench is bench_run's (bench.c), on its stack; the
 * other files borrow it.  bench_measure appends to b->res, which
 * bench_run frees with everything else.  Nothing here is global but the
 * two constant tables of bench-work.c.
 */
#ifndef MICDB_BENCH_INT_H
#define MICDB_BENCH_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "levels.h"
#include "machine.h"
#include "microcode.h"
#include "program.h"

struct bench_hooks;

#define MIN_REPS          5   /* doc/bench.md: at least five */
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

/* bench_workloads (bench-work.c) has exactly NWORKLOADS entries. */
#define NWORKLOADS 5
extern const struct workload bench_workloads[NWORKLOADS];

/* The core counts of a one_core workload: one core (the whole program),
 * then the few-core figure (doc/bench.md), each core running it all. */
#define NFEW 4
extern const uint32_t bench_few_cores[NFEW];

/* The native engine is measured up to this many cores; its run-ahead
 * copy of the stacks makes more not worth the memory. */
#define BENCH_NATIVE_MAX_CORES 131072

/* Levels doc/bench.md names; only those the OpenCL engine runs are usable. */
struct bench_level {
	const char	*name;
	int		 available;
	enum level	 level;
};

extern const struct bench_level bench_levels[NLEVEL];

/* ---- options ---------------------------------------------------------- */

struct bench_opts {
	size_t		 wl[NWORKLOADS];  /* into bench_workloads, as given */
	size_t		 nwl;
	size_t		 lv[NLEVEL];     /* indices into bench_levels */
	size_t		 nlv;
	uint32_t	*cores;
	size_t		 ncores;
	uint64_t	*spl;             /* steps per launch; 0: adaptive */
	size_t		 nspl;
	const char	*device;
	uint32_t	 threads;         /* native engines'; 0: default */
	unsigned	 reps;
	const char	*csv_path;
	const char	*svg_path;
	int		 scaling;         /* --scaling: the thread table */
	const char	*scaling_svg_path;
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
	uint32_t	ncores;
	int		stacks_shared; /* the stack buffers are the
					  machine's pages (in host) */
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
	/* the native (fast host) engine: measured, or why not (note) */
	int		 have_native;
	int		 native_done;
	struct spread	 native_ips;
	char		*native_note;
	enum engine_kind chosen;      /* level_engine_choose's default */
	double		 simd;        /* sum active / (W sum k) */
	double		 kpaths;      /* sum k / sum warp-steps */
	double		 cpi;         /* micro levels: cycles per instruction */
	int		 have_lat;
	struct spread	 lat_ms;
	int		 have_render;
	struct spread	 render_ms;
	struct memuse	 mem;
};

/* A warm-up (bench-measure.c): instructions retired at every chunk
 * boundary 2^k, and the budget the timed runs then run. */
struct warm {
	uint64_t	marks[MAX_CHUNKS];
	int		nmarks;
	int		done;     /* ran to completion */
	uint64_t	steps;    /* global steps run (the budget if !done) */
	uint64_t	instr;
};

/* Thread scaling (--scaling, bench-scaling.c): one thread count of a
 * row, its native engine's rate on that many threads and, from two
 * threads on, the rate of as many one-thread runs at once in separate
 * processes: what the host gives that many independent jobs. */
#define SCALE_MAX_POINTS 10    /* 1, 2, 4, ..., 256 and --threads */
struct scale_point {
	uint32_t	 threads;
	struct spread	 ips;
	int		 have_copies;
	struct spread	 copies;
};

struct scale_row {
	size_t		   wl;
	size_t		   lv;
	uint32_t	   ncores;
	struct scale_point pts[SCALE_MAX_POINTS];
	size_t		   npts;
	char		  *note;   /* why a figure is missing, or NULL */
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
	FILE			*csv;         /* csv_file.f, NULL: none */
	FILE			*svg;         /* svg_file.f, NULL: none */
	struct atomic_file	 csv_file;    /* written whole or not at */
	struct atomic_file	 svg_file;    /* all (util.h) */
	FILE			*scaling_svg;
	struct atomic_file	 scaling_svg_file;
	struct result		*res;
	size_t			 nres;
	struct scale_row	*scale;       /* --scaling's rows */
	size_t			 nscale;
	size_t			 done;        /* measurements finished */
	size_t			 total;       /* measurements planned */
	int			 tty;         /* stderr is a terminal */
	struct microcode	 mc;          /* for the mic level */
	struct microcode	 pmc;         /* for the pmic level */
	size_t			 lv;          /* level being measured */
	/* a measurement failed because an engine did (its run, its
	 * creation, a read through it): the OpenCL device failed, which is
	 * exit status 2 as in micdb run, not a workload's failure (1) */
	int			 engine_failed;
	/* the table, the CSV or a plot could not be written (a full
	 * disk): exit status 2 as a file that cannot be opened, not a
	 * workload's failure (1) */
	int			 output_failed;
};

/* The device's bytes of a measurement's memory: what the report shows
 * and the limit judges (bench-measure.c, bench-report.c). */
static inline uint64_t
bench_measure_mem_device(const struct memuse *mu)
{
	return mu->ctx + mu->stacks + mu->io + mu->shared;
}

/* A list option of numbers 1 .. max separated by commas ("auto", 0,
 * where with_auto), and the words of its one error message:
 * "bad WHAT 'ARG': give ITEMS MAX separated by commas, e.g. EXAMPLE". */
struct bench_list {
	const char	*what, *items, *example;
	unsigned long	 max;
	int		 with_auto;
};

/* bench-args.c: the next item of a comma-separated list (malloc'd, NULL
 * at the end); a list option into *v (the old array freed), *n;
 * --cores LIST into
 * o->cores; the device the output names */
char		*bench_next_item(const char **);
int		 bench_parse_list(const char *, const struct bench_list *,
		     uint64_t **, size_t *, char **);
int		 bench_parse_cores(struct bench_opts *, const char *, char **);
int		 bench_device_open(struct bench_device *, const char *,
		     char **);
void		 bench_device_free(struct bench_device *);

/* bench-debugger.c: `micdb bench debugger` (argv[0] "debugger"), with
 * bench_run's exit statuses */
int		 bench_debugger(int, char **, const struct bench_hooks *);

/* bench-work.c: the workloads and the machines they run on */
char		*bench_work_dir(void);
int		 bench_work_load(const struct bench *, const struct workload *,
		     struct wl_progs *, char **);
void		 bench_work_free(struct wl_progs *);
uint64_t	 bench_work_instructions(const struct machine *);
int		 bench_work_machine(const struct bench *,
		     const struct workload *, const struct wl_progs *,
		     uint32_t, struct machine *, char **);
int		 bench_work_engine(struct bench *, int, struct machine *,
		     uint64_t, struct engine *, char **);
int		 bench_work_engine_kind(struct bench *, enum engine_kind,
		     struct machine *, uint64_t, struct engine *, char **);
/* A machine of n cores for w and an engine of kind on it (K as
 * bench_work_engine_kind): 0; -1 when the machine, -2 when the engine
 * cannot be made (*cause; nothing is left).  bench_work_close frees both. */
int		 bench_work_open(struct bench *, const struct workload *,
		     const struct wl_progs *, uint32_t, enum engine_kind,
		     uint64_t, struct machine *, struct engine *, char **);
void		 bench_work_close(struct machine *, struct engine *);
int		 bench_work_check(const struct machine *,
		     const struct workload *, int, char **);

/* bench-measure.c: the timed measurements */
int		 bench_measure(struct bench *, size_t, size_t, uint32_t,
		     const struct wl_progs *, char **);
/* Device and host bytes of a machine of cfg at level: the engine's own
 * figures, and the host's machine on top. */
void		 bench_measure_mem_need(const struct bench_device *,
		     const struct machine_config *, enum level,
		     const struct program *const *, size_t, struct memuse *);
/* Why such a machine does not fit the device or the host (malloc'd), or
 * NULL. */
char		*bench_measure_mem_refusal(const struct bench_device *,
		     const struct memuse *);
/* Monotonic seconds. */
double		 bench_now(void);
/* Median, min and max of v[0..n-1] (n >= 1); sorts v. */
struct spread	 bench_spread(double *, size_t);

/* The native engine of a workload's level on n cores and `threads`
 * threads: --reps timed runs (*ips) of the budget of `given` (a warm-up
 * done already), or with none, of a warm-up's of its own (*wu). */
int		 bench_measure_threads(struct bench *, const struct workload *,
		     const struct wl_progs *, uint32_t, uint32_t,
		     const struct warm *given, struct warm *, struct spread *,
		     char **);
/* `copies` one-thread runs of that engine at once, each in a process of
 * its own, of wu's budget (a one-thread warm-up; one_ips its rate), each
 * repeated up to --run-seconds: their instructions over the time from
 * their common start to the last one's end, --reps times (*rate).  0;
 * 1 and *cause when they would not fit in memory (a note, no figure);
 * -1 and *cause when they failed. */
int		 bench_measure_copies(struct bench *, const struct workload *,
		     const struct wl_progs *, uint32_t, uint32_t,
		     const struct warm *, double, struct spread *, char **);

/* bench-scaling.c: --scaling's thread counts (1, 2, 4, ... below max,
 * then max: at most SCALE_MAX_POINTS), measurements, table and plot */
size_t		 bench_scaling_counts(uint32_t, uint32_t *);
int		 bench_scaling_measure(struct bench *, size_t, size_t,
		     uint32_t, const struct wl_progs *, char **);
void		 bench_scaling_table(const struct bench *);
/* The plot to b->scaling_svg: 0; 1 when no row has a figure (nothing
 * written); -1 and *cause when writing failed. */
int		 bench_scaling_svg(const struct bench *, char **);

/* bench-report.c: progress, table, CSV and SVG */
extern const char bench_report_csv_header[];
/* A CSV field, quoted when it has to be (RFC 4180). */
void		 bench_report_csv_field(FILE *, const char *);
int		 bench_report_csv_row(const struct bench *,
		     const struct result *, char **);
void		 bench_report_progress(struct bench *, const struct result *,
		     int);
void		 bench_report_table(const struct bench *);
/* A rate's "MED [MIN, MAX]", as the table writes it ("1.23G"). */
void		 bench_report_rates(char *, size_t, const struct spread *);
/* The table's first two lines: "micdb bench WHAT: DEVICE (...)" and
 * its version and driver (what: "" or " debugger"). */
void		 bench_report_device(const char *what,
		     const struct bench_device *dev);
void		 bench_report_micro(const struct bench *);
int		 bench_report_svg(const struct bench *, char **);
struct svg_plot;
/* Write p to f, then free what the plots allocate: p's series, title and
 * subtitle, each label of labels[0..nseries-1], labels, xs and ys. */
int		 bench_report_plot(FILE *, const struct svg_plot *, char **,
		     double *, double *, char **);

#endif
