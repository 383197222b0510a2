/*
 * Inside the session: the state every command file reads and changes,
 * and the helpers they share.  Only src/dbg includes this; front ends use
 * session.h.
 *
 * Ownership: the session owns the machine, the engine, the debug names,
 * the breakpoint table and every array below; the programs are the
 * caller's (session_config).
 *
 * Invariants: focus < ncores; engine bps (ebps) mirror the enabled
 * entries of bps whenever bps_dirty is 0; while running is 1 only
 * session_poll advances the machine.
 */
#ifndef MICDB_DBG_H
#define MICDB_DBG_H

#include <stdint.h>

#include "bp.h"
#include "coreset.h"
#include "dsym.h"
#include "engine.h"
#include "expr.h"
#include "loc.h"
#include "places.h"
#include "session.h"

enum lock_mode {
	LOCK_OFF,      /* every core steps */
	LOCK_WARP,     /* only the focused warp */
	LOCK_CORE,     /* only the focused core */
};

enum resume_kind {
	RESUME_STEP,       /* step/stepi N, next over a plain instruction */
	RESUME_CONTINUE,   /* continue, run */
	RESUME_NEXT,       /* over an INVOKEVIRTUAL */
	RESUME_FINISH,     /* out of the current method */
	RESUME_UNTIL,      /* past the current PC in this frame, or LOCATION */
};

/* A stop the session adds for next/finish/until: on the resume core, at
 * pc, with LV equal to lv (-1: any LV). */
struct ibp {
	int32_t		 pc;
	int32_t		 lv;
	uint8_t		 kind;     /* enum ibp_kind */
};

enum ibp_kind {
	IBP_DONE,        /* the command's goal */
	IBP_HALT,        /* the core is about to execute HALT */
};

#define IBP_ID   0x80000000u   /* engine_bp ids of internal stops */

/* Core ranges named in one line of a stop's report (hit.c, resume.c). */
#define DBG_MAX_LISTED 8

/* The run in progress. */
struct resume {
	enum resume_kind kind;      /* what the run is for */
	uint64_t	 left;      /* global steps still allowed */
	uint32_t	 core;      /* the focused core when it began */
	char		*what;      /* finish: the method being left */
	struct ibp	*ibps;      /* internal stops of next/finish/until */
	size_t		 nibps;
	size_t		 capibps;
	uint8_t		*core_mask; /* ncores bytes: only core is 1 */
	int		 boundaries;/* step at a micro level: left counts the
				       focused core's instruction boundaries
				       to reach, not global steps */
};

/* An auto-display expression (display EXPR): shown after every stop. */
struct display {
	uint32_t	 id;        /* from 1, never reused, as in gdb */
	int		 enabled;
	char		*fmt;       /* print's format letters, or NULL */
	char		*expr;      /* the expression as typed */
};

/* Host-side program divergence sampled at every stop (doc/manycore.md
 * section 3, for engines that record none themselves). */
struct div_acc {
	uint64_t	 samples;     /* stops sampled */
	uint64_t	 active;      /* sum of active lanes */
	uint64_t	 paths;       /* sum of distinct PCs over warps */
	uint64_t	*hist;        /* [1..W]: path groups of that size */
	uint32_t	 width;       /* W */
};

struct session {
	struct session_config	 cfg;         /* copy; arrays below own */
	uint16_t		*core_prog;   /* copy of cfg.core_prog */
	uint8_t			*input;       /* copy of cfg.input */
	struct machine		 m;           /* host copy of the state */
	struct engine		 e;           /* steps m */
	int			 have_machine; /* m is initialised */
	int			 have_engine; /* e is made */
	enum level		 level;       /* the level e runs */
	struct microcode	 mc[NLEVEL];  /* microprograms, loaded on
						 first use of a level */
	int			 dirty;       /* stepped or written since start */
	struct dsym		*dsyms;       /* per program */
	uint8_t		       **prog_masks;  /* per program if nprogs > 1 */

	struct bp_table		 bps;         /* breakpoints, watchpoints */
	struct engine_bp	*ebps;        /* enabled breakpoint locations */
	size_t			 nebps;
	size_t			 capebps;
	int			 bps_dirty;   /* ebps must be rebuilt */
	struct engine_bp	*runbps;      /* ebps + internal, per run */
	size_t			 caprunbps;

	uint32_t		 focus;       /* the focused core */
	uint32_t		 frame_sel;   /* its selected frame (up, down,
					 frame; 0: innermost), reset at
					 every stop and focus change */
	enum lock_mode		 lock;        /* scheduler-locking */
	uint8_t			*lockmask;    /* ncores, for LOCK_WARP/CORE */
	int			 stop_on_fault; /* set stop-on-fault */

	int			 running;     /* a run is in progress */
	struct resume		 run;         /* that run */
	uint64_t		 gen;         /* session_generation */
	volatile sig_atomic_t	 interrupt;   /* ends the run when set */

	/* the last stop */
	uint8_t			*at_bp;       /* per core: stopped at a bp */
	uint32_t		 last_bp;     /* its breakpoint (continue N) */
	uint32_t		*stop_cores;  /* cores named by the report */
	size_t			 nstop_cores;
	size_t			 capstop_cores;

	/* watchpoint writers of the step in progress */
	struct engine_writer	*writers;
	size_t			 nwriters;
	size_t			 capwriters;
	struct engine_watch	*runwatch;    /* for a watching engine */

	int32_t			*values;      /* print history: $1, $2, ... */
	size_t			 nvalues;
	struct div_acc		 div;         /* divergence sampled at stops */
	char			*last_line;   /* for an empty line */
	/* what an empty line runs after the command just run, when not
	 * that command again (gdb: list and x go on where they ended) */
	char			*repeat_as;
	int32_t			 list_next;   /* list continues here; -1 */
	int32_t			 list_first;  /* list - ends before it; -1 */
	/* x with no address goes on from the last x: its next address,
	 * count, format and unit (valid 0: no x yet) */
	struct {
		int		 valid;
		uint16_t	 prog;    /* whose code a code x read */
		int32_t		 next;
		unsigned long	 n;
		char		 fmt, size;
	}			 x_last;
	int			 told_mic1;   /* the Mic-1 level's missing
					 checks were said (once) */
	uint32_t		 list_core;   /* ... for this core */
	char			 prompt[96];  /* session_prompt's text */
	struct session_bp	*views;       /* session_breakpoints' array */
	size_t			 nviews;
	char		       **view_labels; /* labels it points to, owned */
	size_t			 nview_labels;
	struct history		*hist;        /* reverse execution (history.h) */
	struct display		*displays;    /* display EXPR, by number */
	size_t			 ndisplays;
	uint32_t		 next_display;
	struct trace		*trace;       /* trace start; NULL: none */
};


/* session-trace.c: the trace being written (trace.h), if any.  Record
 * the step just run (at_bp: it stopped at a breakpoint), mark an event
 * (reverse execution, a level switch), close it at the session's end;
 * the view the trace writer reads (at_bp: the cores at a breakpoint). */
struct trace_view;
void	 session_trace_view(struct session *s, const uint8_t *at_bp,
	    struct trace_view *v);
int	 session_tracing(const struct session *s);
void	 session_trace_step(struct session *s, int at_bp);
void	 session_trace_mark(struct session *s, const char *fmt, ...)
	    PRINTFLIKE(2, 3);
void	 session_trace_free(struct session *s);

/* session.c */
/* What Enter runs after the command in progress, when not that command
 * again (session_take_repeat hands it to the front end). */
void	 session_set_repeat(struct session *s, const char *line);
const struct program *session_prog(const struct session *s, uint32_t core);
const struct dsym *session_dsym(const struct session *s, uint32_t core);
/* The first core that runs program prog (to describe its addresses). */
uint32_t session_prog_core(const struct session *s, uint16_t prog);
/* Names of the method that holds pc in core's program (NULL: unknown). */
const struct dsym_method *session_method_at(const struct session *s,
	    uint32_t core, int32_t pc);
const char *session_method_name(const struct session *s, uint32_t core,
	    int32_t pc);
int	 session_read(struct session *s, uint32_t core, int32_t addr,
	    uint32_t n, int32_t *out, char **cause);
int	 session_write(struct session *s, uint32_t core, int32_t addr,
	    int32_t val, char **cause);
/* The length of the heap array that ref refers to (its header, as info
 * heap and IALOAD read it); -1 + *cause when ref is not an array. */
int	 session_array_len(struct session *s, uint32_t core, int32_t ref,
	    int32_t *len, char **cause);
void	 session_drain_output(struct session *s);
/* "0x001a (loop, sum.jas:14)" */
void	 session_describe_pc(const struct session *s, uint32_t core,
	    int32_t pc, struct buf *out);
/* "core 8 at 0x001a (loop, sum.jas:14): ILOAD i" */
void	 session_where(struct session *s, uint32_t core, struct buf *out);
/* Disassembly of one instruction with local names; its size or 0. */
int	 session_insn(const struct session *s, uint32_t core, int32_t pc,
	    char *text, size_t size);
const char *session_status_name(int status);
/* Switch the focus, with the cuda-gdb style note. */
void	 session_set_focus(struct session *s, uint32_t core, struct buf *out);
/* Rebuild the machine and engine from the start (run). */
int	 session_restart(struct session *s, char **cause);
int	 session_eval(struct session *s, uint32_t core, const struct expr *e,
	    int32_t *val, char **cause);
/* Parse and evaluate text for the focused core. */
int	 session_eval_text(struct session *s, const char *text, int32_t *val,
	    char **cause);
/* Check that every name of e can be looked up somewhere (when setting a
 * condition): in the methods of locs, or as a register/global/$var. */
int	 session_check_names(struct session *s, const struct expr *e,
	    const struct bp *b, char **cause);
/* Frame facts of a core's current frame: 0 or -1 + *cause. */
int	 session_frame(struct session *s, uint32_t core, int32_t lv,
	    int32_t *nlocals, int32_t *link, char **cause);
/* loc_resolve (loc.h) over the session's programs, for the focused
 * core's selected frame (its method decides a label several methods
 * have). */
int	 session_loc_resolve(struct session *s, const char *spec,
	    struct bp_loc **locs, size_t *nlocs, char **cause);

/* session-level.c */
/* Open the engine of s->level over s->m (loading its microprogram). */
int	 session_open_engine(struct session *s, char **cause);
/* The level's microprogram, loaded now if it is not yet. */
int	 session_load_microcode(struct session *s, enum level level,
	    const struct microcode **out, char **cause);
/* At an ISA instruction boundary (always at the ISA level). */
int	 session_at_boundary(struct session *s, uint32_t core);
/* The ISA instruction a core executes: at a micro level the PC of the
 * instruction it is inside (its PC moves during it), else its PC. */
int32_t	 session_insn_pc(const struct session *s, uint32_t core);
/* The session's machine, level and last stop, as places.h reads them. */
void	 session_places(const struct session *s, struct places *v);
/* session_set_level, with what the cores inside an instruction did on
 * the way to their boundary (faults) in out. */
int	 session_switch_level(struct session *s, enum level level,
	    int to_boundary, struct buf *out, char **cause);
/* session_where at a micro level: the MPC's word, then the instruction. */
void	 session_where_micro(struct session *s, uint32_t core,
	    struct buf *out);
/* "0x0f2 (barrier1, mic1.mal:407)" for a control-store address. */
void	 session_describe_mpc(const struct session *s, uint32_t mpc,
	    struct buf *out);

/* session-view.c */
void	 session_views_free(struct session *s);
/* PC and LV of the focused core's selected frame (frame 0 if the
 * selection no longer exists, which it then becomes): what print, x and
 * label lookup use. */
void	 session_selected_pc_lv(struct session *s, int32_t *pc, int32_t *lv);

/* cmd-display.c */
/* After every stop (resume.c, reverse.c): the frame selection goes back
 * to frame 0 and the displays are shown, as gdb does. */
void	 session_stopped(struct session *s, struct buf *out);
/* delete display N... (cmd-break.c's delete hands it on). */
int	 display_delete(struct session *s, const char *args, char **cause);
/* enable/disable display N... (cmd-break.c's enable and disable). */
int	 display_enable(struct session *s, const char *args, int on,
	    char **cause);

/* resume.c: run control */
int	 resume_begin(struct session *s, enum resume_kind kind, uint64_t steps,
	    char **cause);
void	 resume_add_ibp(struct session *s, int32_t pc, int32_t lv,
	    enum ibp_kind kind);
void	 resume_add_halts(struct session *s);
void	 resume_end(struct session *s);

/* hit.c: breakpoint stops, the same forward (resume.c) and back
 * (reverse.c) */
/* Rebuild the engine's breakpoint list if the table changed. */
void	 session_sync_bps(struct session *s);
/* Does core c stop at breakpoint b at the present cut (enabled, a
 * location on c, the right level, the condition true or failing)?  1 or
 * 0; with err, a condition's error message is returned in *err (the
 * caller frees it), else dropped.  Counts nothing. */
int	 hit_test(struct session *s, const struct bp *b, uint32_t c,
	    char **err);
/* A forward stop at b (any number of cores, at any of its locations):
 * count one hit; 0 if the ignore count takes it (not when a condition
 * failed: error), else 1. */
int	 hit_count(struct bp *b, int error);
/* "breakpoint N hit by CORES [n of N] at PLACE", the cores noted as the
 * stop's (at_bp, stop_cores, last_bp).  pc: the PC, or the MPC of an MPC
 * breakpoint. */
void	 hit_report(struct session *s, const struct bp *b,
	    const uint32_t *cores, size_t n, int32_t pc, struct buf *out);
/* Add cores to the stop's list (resume.c, watch.c, reverse.c). */
void	 stop_note_cores(struct session *s, const uint32_t *cores, size_t n);

/* watch.c */
void	 watch_prepare(struct session *s);
/* At a micro level, the writers of the step just run (mic1_writers:
 * none at the PMIC level), for watch_check. */
void	 watch_micro_writers(struct session *s);
/* Reports changes (and frames gone); returns how many stop the run. */
int	 watch_check(struct session *s, struct buf *out);
int	 watch_value(struct session *s, const struct bp *b, int32_t *v,
	    char **cause);

/* div.c: program divergence computed on the host */
struct warp_view {
	uint32_t	 first;      /* its first core */
	uint32_t	 lanes;      /* cores in it (the last may be short) */
	uint64_t	 active;     /* lane mask of RUNNING cores */
	uint32_t	 nactive;
	uint32_t	 npaths;     /* distinct paths (PCs, or MPCs at a
				        micro level) of the active lanes */
	int32_t		 pc[64];     /* paths by group size, largest first */
	uint32_t	 count[64];
	uint64_t	 converged;  /* the largest group (ties: lowest lane) */
};
void	 div_init(struct div_acc *d, uint32_t warp_width);
void	 div_free(struct div_acc *d);
void	 div_reset(struct div_acc *d);
/* by_mpc: the program path is the MPC (a micro level), else the PC */
void	 div_sample(struct div_acc *d, const struct machine *m, int by_mpc);
void	 div_warp(const struct machine *m, uint32_t w, int by_mpc,
	    struct warp_view *v);
/* Only warp w's active lanes and paths (v->nactive, v->npaths; pc and
 * count unordered, converged not set): what a trace's counters read
 * every step, without div_warp's ordering. */
void	 div_warp_counts(const struct machine *m, uint32_t w, int by_mpc,
	    struct warp_view *v);

#endif
