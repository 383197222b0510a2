/*
 * Traces of a run for viewers outside micdb (doc/debugger.md section 5):
 * one writer that `micdb run --trace`, the debugger's `trace start` and
 * DAP (through the debugger command) all use, so that the same run gives
 * the same file whichever front end drove it.
 *
 * A trace is opened on a machine (trace_open), given the machine after
 * every global step (trace_record: an ISA step or a micro-cycle) and
 * closed (trace_close).  The bytes go through struct atomic_file
 * (util.h): the file appears whole at trace_close, or not at all, and a
 * failed write (a full disk) stops the writer and is reported then.
 *
 * Formats (enum trace_format), each in its own file:
 *   jsonl     one JSON line per step with the traced cores' registers
 *             (trace.c; the form `micdb run --trace` always wrote);
 *   perfetto  the Trace Event Format JSON that ui.perfetto.dev and
 *             chrome://tracing open: divergence counters, method frames,
 *             waits, breakpoints and faults (trace-perfetto.c);
 *   vcd       an IEEE 1364 value change dump of the traced cores'
 *             registers for GTKWave or Surfer (trace-vcd.c);
 *   svg       a timeline of the divergence and the cores' status over the
 *             run, drawn as the bench plot is (trace-svg.c).
 *
 * The traced cores (--trace-cores, `trace start FILE FORMAT CORES`) get
 * the per-core data: registers, tracks, signals.  Per-warp counters are
 * kept for every warp of a machine of at most TRACE_ALL_WARPS warps, else
 * for the warps of the traced cores, with min/mean/max over all warps
 * beside them, so that a million cores stay a bounded file.
 *
 * An engine that keeps trace records (engine.h trace_start: the OpenCL
 * engine, at every level) runs many steps a launch; its records of a
 * run's steps go to the file through trace_record_engine, which writes
 * each step as trace_record writes it from the machine, byte for byte
 * (doc/performance.md section 25.1).
 */
#ifndef MICDB_TRACE_H
#define MICDB_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "machine.h"
#include "mal.h"
#include "util.h"

enum trace_format {
	TRACE_JSONL,
	TRACE_PERFETTO,
	TRACE_VCD,
	TRACE_SVG,
};

/* Machines of at most this many warps get a counter track per warp. */
#define TRACE_ALL_WARPS	32

/* Over all warps after a step: the active lanes' and program paths'
 * totals, minima and maxima. */
struct trace_warp_sums {
	uint64_t		 active, paths;
	uint32_t		 amin, amax, pmin, pmax;
};

/* A step's counters from an engine's trace records (tracebuf.h) instead
 * of the machine: per warp its record's words and k, the kernel paths of
 * the last step a lane of it ran (as the engine's warp records keep it),
 * the cores per status and the sums over the warps, made in one pass
 * over the records (doc/performance.md section 25.4). */
struct trace_counts {
	const uint32_t		*warp;
	const uint32_t		*k;
	struct ref_summary	 sum;
	struct trace_warp_sums	 warps;
};

/* The machine as the writer reads it after a step. */
struct trace_view {
	const struct machine	*m;
	enum level		 level;
	const void		*level_state; /* struct mic1_state or struct
					         pmic_state; NULL at the ISA
					         level */
	const struct mal_syms	*syms;        /* micro-level labels, or NULL */
	struct engine		*e;           /* kernel path records, or NULL */
	const uint8_t		*at_bp;       /* per core: stopped at a
					         breakpoint in this step; NULL */
	const struct trace_counts *counts;    /* the warps' and statuses'
					         counters; NULL: the
					         machine's */
};

struct trace;

/* "jsonl", "perfetto", "vcd" or "svg" into *f; -1 + *cause for anything
 * else. */
int	 trace_format_parse(const char *name, enum trace_format *f,
	    char **cause);
const char *trace_format_name(enum trace_format f);
/* The format a file name asks for: .json Perfetto, .vcd VCD, .svg SVG,
 * anything else (.jsonl) JSON lines. */
enum trace_format trace_format_of(const char *path);
/*
 * Open a trace of v's machine at path.  format: a format name, or NULL
 * for the one the extension gives; cores: a core set (coreset.h), or
 * NULL for the first warp.  Writes the header and the state at the
 * current step.  0, or -1 + *cause (a bad format or core set, a file that
 * cannot be created).
 */
int	 trace_open(struct trace **tp, const char *path, const char *format,
	    const char *cores, const struct trace_view *v, char **cause);
/*
 * Record the machine after a step.  A step at or before the last one
 * recorded (the machine went back: reverse execution) is not recorded
 * again.  0, or -1 once a write has failed: trace_close says why.
 */
int	 trace_record(struct trace *t, const struct trace_view *v);
/*
 * Ask v's engine to keep trace records (engine.h trace_start) of t's
 * traced cores; *max_steps gets the most steps a run then records.  0,
 * or -1 where the engine keeps none (the caller records from the machine
 * after one-step runs, with trace_record).
 */
int	 trace_engine_start(struct trace *t, const struct trace_view *v,
	    uint32_t *max_steps);
/*
 * After a run of v's engine that keeps trace records: the steps it
 * recorded, then (through trace_record) any step it made past them, from
 * the machine, which v shows after the run.  0, or -1 once a write has
 * failed.
 */
int	 trace_record_engine(struct trace *t, const struct trace_view *v);
/* A mark at the current step ("reverse-stepi to step 12", "level mic"):
 * an instant event where the format has them. */
int	 trace_mark(struct trace *t, const struct trace_view *v,
	    const char *what);
/* Finish the file and put it in place; 0, or -1 + *cause.  Frees t. */
int	 trace_close(struct trace *t, char **cause);
/* Remove the temporary and free t (a run that failed). */
void	 trace_abort(struct trace *t);
/* "tracing to FILE (perfetto, cores 0-31): 120 steps, 2 marks". */
void	 trace_describe(const struct trace *t, struct buf *out);
const char *trace_path(const struct trace *t);
/* The traced cores, ascending, *n of them. */
const uint32_t *trace_cores(const struct trace *t, uint32_t *n);

#endif
