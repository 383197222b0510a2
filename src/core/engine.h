/*
 * The engine contract: something that steps a struct machine at one level
 * (ISA, Mic-1 or PMIC).  The reference engine lives in src/model
 * (engine-ref.c), the host engines in src/host (engine-native.c for the
 * ISA level, engine-micro.c for the micro levels over the golden
 * models), the OpenCL engine in src/ocl; the debugger session, micdb run,
 * bench and every front end drive any of them through this interface and
 * never ask which one runs: what differs between engines is an operation
 * or a field of struct engine_ops, never a name to compare
 * (doc/architecture.md).
 *
 * The machine (e->m) is the host copy of the state.  After every run() its
 * registers (struct core; but see engine_run.current), counters, step and
 * console output are current;
 * memory regions (stacks, globals, heap) are current only after
 * read_words()/sync_memory(), because copying them back is what would make
 * a many-core step slow.  Host-side edits (set var, input) go down with
 * write_word() and add_input().
 *
 * Stops are consistent cuts (doc/manycore.md section 4): whatever an engine
 * does inside, run() returns with every core having executed exactly the
 * same global steps, as if the machine had been stepped one step at a
 * time.  Breakpoints are checked at every step boundary after the first:
 * a run never stops on a breakpoint at the boundary it starts from, which
 * is how `continue` steps off the breakpoint it is stopped at.
 */
#ifndef MICDB_ENGINE_H
#define MICDB_ENGINE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

/* The level an engine steps (doc/mic1.md section 5). */
enum level { LEVEL_ISA, LEVEL_MIC, LEVEL_PMIC };
#define NLEVEL 3

/* Which implementation: ENGINE_DEFAULT is only a request (the user named
 * none: the fastest one this build has, levels.h), never an engine's. */
enum engine_kind { ENGINE_DEFAULT, ENGINE_REF, ENGINE_OPENCL, ENGINE_NATIVE };

/*
 * One warp's divergence record as an engine that groups cores into
 * hardware warps keeps it (doc/manycore.md section 3), totals since the
 * machine started.  A kernel path is one handler of the kernel's dispatch
 * that a warp ran in a step: k paths in one step cost k passes.
 */
struct engine_warp_record {
	uint64_t	steps;            /* steps with at least one active lane */
	uint64_t	active;           /* sum of active lanes over them */
	uint64_t	kpaths;           /* sum of k (kernel handlers run) */
	uint64_t	last_active;      /* the last such step: active lanes */
	uint64_t	last_converged;   /* largest group on one PC */
	uint64_t	last_divergent;   /* active and not converged */
	uint32_t	last_paths;       /* distinct PCs */
	uint32_t	last_k;           /* distinct handlers */
	uint64_t	hist[64];         /* hist[n-1]: handler paths of n lanes */
};

enum stop_reason {
	STOP_STEPS,        /* ran the requested number of steps */
	STOP_BREAKPOINT,   /* some cores are at a breakpoint (not executed) */
	STOP_FAULT,        /* some cores faulted in the last step */
	STOP_DONE,         /* no core is running or waiting */
	STOP_DEADLOCK,     /* cores wait but none can run */
	STOP_INTERRUPT,    /* *interrupt became non-zero */
};

/* What a breakpoint's pc is compared with: the ISA PC or the MPC. */
enum engine_bp_on { ENGINE_BP_ON_PC, ENGINE_BP_ON_MPC };

/*
 * A breakpoint as engines check it: an address on a set of cores.  The
 * debugger keeps conditions, hit counts and the rest.  A PC breakpoint
 * stops an ISA-level core about to execute the opcode at pc, and a
 * micro-level core when it reaches its instruction boundary with PC = pc
 * (ops->at_boundary); an MPC breakpoint stops only micro-level cores,
 * about to execute the micro-instruction at control-store address pc.
 */
struct engine_bp {
	uint32_t	 id;
	int32_t		 pc;        /* byte address of an opcode, or an MPC */
	const uint8_t	*cores;     /* per core: 1 if it applies; NULL: all */
	uint8_t		 on;        /* enum engine_bp_on; 0 (PC) by default */
};

/*
 * A watched word, for an engine whose ops->watch is set: the run ends
 * after the first step after which the word (read through core's view)
 * differs from value, or, for a local (frame != INT32_MIN), after the
 * step that left core's LV below frame (the frame returned); such a
 * word is one of that frame's locals.  The
 * debugger decides what a change means (watch.c); the engine only stops
 * at the right cut and names the writers of that step.
 */
struct engine_watch {
	int32_t		addr;
	uint32_t	core;       /* whose view; a local's own core */
	int32_t		value;      /* the value the debugger last saw */
	int32_t		frame;      /* a local's frame LV; INT32_MIN: none */
};

/* A core that may have stored to a watched word in a step: its PC
 * before the step and the word (ENGINE_ANY_HEAP_WORD: NEWARRAY, which
 * writes heap words no address names before it runs). */
struct engine_writer {
	uint32_t	 core;
	int32_t		 pc;
	int32_t		 addr;
};
#define ENGINE_ANY_HEAP_WORD INT32_MIN

struct engine_run {
	uint64_t		 max_steps;     /* >= 1 */
	const struct engine_bp	*bps;
	size_t			 nbps;
	int			 stop_on_fault;
	const uint8_t		*mask;          /* cores allowed to run; NULL all */
	volatile sig_atomic_t	*interrupt;     /* may be NULL */
	/* only for engines with ops->watch; NULL/0 otherwise */
	const struct engine_watch *watches;
	size_t			 nwatches;
	/* NULL: every core's registers are current after the run.  Else
	 * the cores (ascending) the caller reads after a run that ends
	 * with STOP_STEPS: an engine with ops->sync_cores may leave the
	 * others behind in e->m->cores until the caller calls it, as it
	 * must before it reads those cores or edits or saves the machine
	 * (micdb run's engine runs under a trace, doc/performance.md
	 * section 25.4). */
	const uint32_t		*current;
	size_t			 ncurrent;
};

/* Filled by run(); the arrays belong to the engine until the next run. */
struct engine_stop {
	enum stop_reason	 reason;
	uint64_t		 steps_run;     /* global steps in this run */
	uint32_t		*cores;         /* cores that hit the stop */
	uint32_t		*bp_ids;        /* per hit core, for breakpoints */
	size_t			 ncores;
	/* ops->watch engines: 1 if a watched word changed (or a watched
	 * frame returned) in the last step; the writers of that step */
	int			 watched;
	const struct engine_writer *writers;
	size_t			 nwriters;
};

struct engine;

/* What an engine that runs in launches (the OpenCL engine) has counted
 * since it was made: bench's figures, and a front end telling the
 * device's failure from its own refusal. */
struct engine_stats {
	uint64_t	launches;         /* kernel launches */
	uint64_t	launch_steps;     /* steps they were asked to run */
	uint64_t	checkpoints;      /* checkpoints taken */
	uint64_t	restores;         /* cuts overshot: restored and replayed */
	uint64_t	failures;         /* device calls that failed, those
					     with a fallback included: a
					     front end whose command failed
					     tells the device's failure from
					     its own refusal by it */
};

struct engine_ops {
	const char	*name;       /* for messages ("ref", "opencl-mic") */
	enum engine_kind kind;       /* ENGINE_REF, _OPENCL or _NATIVE */
	enum level	 level;      /* what one step is */
	/* 1: run() takes engine_run.watches and stops at a change itself,
	 * so the debugger need not run one step per call to watch */
	int		 watch;
	int	(*run)(struct engine *e, const struct engine_run *r,
		    struct engine_stop *stop, char **cause);
	/* Copy nwords of a core's view of memory (memory-map addresses)
	 * into out; FAULT_MEM_RANGE-style failures return -1 + cause. */
	int	(*read_words)(struct engine *e, uint32_t core, int32_t addr,
		    uint32_t nwords, int32_t *out, char **cause);
	int	(*write_word)(struct engine *e, uint32_t core, int32_t addr,
		    int32_t val, char **cause);
	/* Registers of e->m->cores were edited on the host: send them. */
	int	(*push_cores)(struct engine *e, char **cause);
	/* Bring every memory region of e->m up to date. */
	int	(*sync_memory)(struct engine *e, char **cause);
	/* Every core's registers current again after a run given
	 * engine_run.current; NULL for an engine whose runs always leave
	 * them so. */
	int	(*sync_cores)(struct engine *e, char **cause);
	void	(*add_input)(struct engine *e, uint32_t core,
		    const uint8_t *data, size_t len);
	/* Micro-level engines: 1 if the core is at an ISA instruction
	 * boundary (doc/mic1.md section 2).  NULL for ISA-level engines, whose
	 * cores always are. */
	int	(*at_boundary)(struct engine *e, uint32_t core);
	/*
	 * Reverse execution (history.c).  save: copy the engine's state
	 * that lives outside e->m (a micro level's latches and memory
	 * operations in flight) to out, *bytes long; out NULL only asks
	 * the size (0: the engine keeps none).  load: e->m was
	 * replaced as a whole on the host (a snapshot restored, with side
	 * from save): make it the engine's state - registers, memory,
	 * input positions - as if the engine had been made at that cut;
	 * faults already there are not news.  0, or -1 + *cause.
	 */
	int	(*save)(struct engine *e, void *out, size_t *bytes,
		    char **cause);
	int	(*load)(struct engine *e, const void *side, char **cause);
	/*
	 * Stacks that live outside e->m (a GPU's), for snapshots that
	 * would otherwise copy every stack to the host: save_stacks sets
	 * slen[c] to the words in use of core c's stack (one past its last
	 * non-zero word) and *words to those words, core after core
	 * (malloc'd, *nwords of them); load_stacks makes the engine's
	 * stacks those words, zero beyond, before load, which then leaves
	 * the stacks alone.  Neither touches e->m->stacks, which is
	 * current only after sync_memory, as after any run.  NULL: a
	 * snapshot reads e->m->stacks after sync_memory, and load takes
	 * them from there.
	 */
	int	(*save_stacks)(struct engine *e, uint32_t *slen,
		    int32_t **words, size_t *nwords, char **cause);
	int	(*load_stacks)(struct engine *e, const uint32_t *slen,
		    const int32_t *words, char **cause);
	/* The divergence record of every warp after the last run, *nwarps
	 * of them; NULL for an engine that keeps none (the host engines
	 * step core after core: they have no kernel paths). */
	const struct engine_warp_record *(*warps)(struct engine *e,
		    size_t *nwarps);
	/* A micro level's state beside the machine, current after every
	 * run: struct mic1_state at LEVEL_MIC, struct pmic_state at
	 * LEVEL_PMIC (the golden model's own type, which every engine of
	 * the level keeps on the host).  NULL at the ISA level. */
	void	*(*level_state)(struct engine *e);
	/* Run on n host threads from now on (the native engines: their
	 * private run-ahead windows, ahead.h); NULL for an engine with
	 * one.  Results do not depend on n. */
	void	(*set_threads)(struct engine *e, uint32_t n);
	/* Steps per launch of an engine that runs in launches (0: adapt
	 * to the device, the default), and what it has counted; NULL for
	 * the host engines, which step core after core. */
	void	(*set_steps_per_launch)(struct engine *e, uint64_t k);
	void	(*stats)(struct engine *e, struct engine_stats *st);
	/* A trace through the engine (tracebuf.h, doc/performance.md
	 * section 25.1); NULL where the engine has none, and then the
	 * writer reads the machine after every one-step run.  trace_start:
	 * from now on every run keeps, per step, each warp's counters and
	 * the registers of the n cores of list (ascending); *max_steps
	 * gets the most steps a run records (a run asked for more stops
	 * there, STOP_STEPS).  0, or -1 + *cause: the engine cannot (the
	 * caller traces from the machine).  trace_steps: after a run, its
	 * records (tracebuf.h), *n of them for the steps *first + 1 on;
	 * steps the run made past them (a step in which no core ran, at
	 * its end) are the machine's. */
	int	(*trace_start)(struct engine *e, const uint32_t *list,
		    uint32_t n, uint32_t *max_steps, char **cause);
	const uint32_t *(*trace_steps)(struct engine *e, uint64_t *first,
		    uint64_t *n);
	void	(*free)(struct engine *e);
};

struct engine {
	const struct engine_ops	*ops;
	struct machine		*m;       /* host copy; not owned */
	void			*impl;
	/* stop arrays, reused across runs */
	uint32_t		*stop_cores;
	uint32_t		*stop_bps;
};

/* The reference interpreter as an engine over m (not owned). */
int	engine_ref_create(struct engine *e, struct machine *m, char **cause);
/* The native ISA engine (engine-native.c): pre-decoded, threaded code
 * on the host, over m (not owned). */
int	engine_native_create(struct engine *e, struct machine *m,
	    char **cause);
/* The steps the native ISA engines' translated code has run in this
 * process (doc/performance.md section 24.6): 0 where there is none. */
uint64_t engine_native_translated(void);

/*
 * The watched word core's next instruction may store to, given which
 * kinds of words are watched (globals, heap): PUTSTATIC and ATOMICADD
 * name a global, IASTORE a heap element (TOS is the reference, below
 * the word under it: NULL when it cannot be read), NEWARRAY
 * ENGINE_ANY_HEAP_WORD.  1 and *addr, or 0.  Shared by
 * the debugger's one-step watch and the engines that watch themselves,
 * so that both name the same writers.
 */
/* 1 if a watched word of r differs from the value the debugger saw or
 * a watched frame has returned: the test every engine that watches
 * makes at the end of a step. */
int	engine_watch_changed(const struct machine *m,
	    const struct engine_run *r);
/* Append a writer to a growing list *v of *n entries (room for *cap). */
void	engine_writer_add(struct engine_writer **v, size_t *n, size_t *cap,
	    uint32_t core, int32_t pc, int32_t addr);
int	engine_insn_store(const struct program *p, const struct core *c,
	    const int32_t *below, int globals, int heap, int32_t *addr);

/*
 * Helpers engines share (engine.c), so that every engine reports stops
 * exactly as the reference does.
 */
void	engine_stop_reset(struct engine *e, struct engine_stop *stop);
void	engine_stop_add(struct engine *e, struct engine_stop *stop,
	    uint32_t core, uint32_t bp_id);
/* k steps done: the machine's step count and the run's move together. */
static inline void
engine_advance(struct machine *m, struct engine_stop *stop, uint64_t k)
{
	m->step += k;
	stop->steps_run += k;
}
/* The end of every engine's free: what engine_stop_add allocated, then e
 * cleared. */
void	engine_release(struct engine *e);

/* The running cores that mask (NULL: all) lets a step execute; *solo
 * is the first of them.  The host engines run one core alone in long
 * slices when it is the only one. */
uint32_t engine_runnable(const struct machine *m, const uint8_t *mask,
	    uint32_t *solo);
/* Does a breakpoint of r hold for core c, whatever its status?  1 and
 * *id (the first that holds), or 0. */
int	engine_bp_hit(struct engine *e, const struct engine_run *r,
	    uint32_t c, enum engine_bp_on on, uint32_t *id);
/* Add the running, unmasked cores at a breakpoint to stop; 1 if any.
 * level is what the engine steps: ENGINE_BP_ON_PC for the ISA level,
 * ENGINE_BP_ON_MPC for a micro level (see struct engine_bp). */
int	engine_check_bps(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, enum engine_bp_on on);
/* Mark cores that faulted since the last call in seen (one byte per
 * core) and, if report, add them to stop. */
void	engine_note_faults(struct engine *e, uint8_t *seen,
	    struct engine_stop *stop, int report);

/* Whether any core of sum is left to run: one running, waiting at a
 * barrier or standing at the join (which the next step lets go), the
 * opposite of STOP_DONE. */
int	engine_live(const struct ref_summary *sum);
/* The start of run() on the host: the stop record reset and sum counted
 * from e->m; 0 when no core is left to run (stop->reason STOP_DONE). */
int	engine_run_start(struct engine *e, struct engine_stop *stop,
	    struct ref_summary *sum);
/*
 * The stop rules of engine.h after a step (or a window of steps), in
 * this order, for every engine: a core faulted (sum->faulted grew past
 * faulted_before; reported in seen, a stop with stop_on_fault), no core
 * left to run (engine_live), nothing executed (sum->executed 0) and no
 * core moved onto a breakpoint (atbp 0), a core at a breakpoint (looked
 * for only when atbp).  Sets stop->reason and returns 1 when the run
 * stops, else 0.
 */
int	engine_step_stop(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, const struct ref_summary *sum,
	    uint32_t faulted_before, uint8_t *seen, int atbp,
	    enum engine_bp_on on);
/*
 * run() of an engine that steps e->m on the host, one global step per
 * call of step (ref_step, mic1_step): the stop rules of engine.h in one
 * place.  seen is the engine's faults-reported array.
 */
typedef void (*engine_step_fn)(void *arg, struct machine *m,
    const struct ref_mask *mask, struct ref_summary *sum);
int	engine_host_run(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, engine_step_fn step, void *arg,
	    uint8_t *seen, enum engine_bp_on on);
/*
 * The facts of core's fault that its state still holds, appended to out
 * as ": index 5, length 4" (nothing when the fault has none or they
 * cannot be read).  Every engine leaves a faulting core's registers and
 * stack as they were before the faulting instruction (doc/ijvm.md
 * section 3; the differential tests compare them), so the operands are
 * still on the stack and nothing has to be recorded at the fault: the
 * index and length of an array fault, the reference, the size asked of
 * NEWARRAY, the operand-stack depth of an underflow or overflow, and at
 * the micro levels (where MAR holds it) the address of a memory fault
 * with its region.  micro: the engine runs a micro level, where a stack
 * overflow stops inside the instruction (SP already moved) and MAR holds
 * the word that did not fit.  Memory is read through e->ops->read_words,
 * so it is right on an engine whose host copy of memory is stale.
 */
void	engine_fault_facts(struct engine *e, uint32_t core, int micro,
	    struct buf *out);
/* read_words/write_word of host engines: straight through the map. */
int	engine_host_read_words(struct engine *e, uint32_t core, int32_t addr,
	    uint32_t nwords, int32_t *out, char **cause);
int	engine_host_write_word(struct engine *e, uint32_t core, int32_t addr,
	    int32_t val, char **cause);
/* add_input of host engines: into the machine's input queue. */
void	engine_host_add_input(struct engine *e, uint32_t core,
	    const uint8_t *data, size_t len);
/* push_cores and sync_memory of engines whose state is the machine's
 * own: nothing to send. */
int	engine_host_nothing(struct engine *e, char **cause);

/* "isa", "mic", "pmic" (a level that does not exist: "?"). */
const char	*level_name(enum level level);
/* 0 and *out, or -1 if name is no level. */
int		 level_parse(const char *name, enum level *out);
/* "ref", "native", "opencl" as --engine names them; "default" for
 * ENGINE_DEFAULT. */
const char	*engine_kind_name(enum engine_kind kind);
/* 0 and *out, or -1 if name is no engine (--engine's names only). */
int		 engine_kind_parse(const char *name, enum engine_kind *out);

/* ops->set_threads where the engine has it. */
static inline void
engine_set_threads(struct engine *e, uint32_t n)
{
	if (e->ops != NULL && e->ops->set_threads != NULL)
		e->ops->set_threads(e, n);
}

static inline void
engine_free(struct engine *e)
{
	if (e->ops != NULL)
		e->ops->free(e);
}

#endif
