/*
 * An execution engine: something that steps a struct machine.  Two exist:
 * the reference interpreter (engine-ref.c) and the OpenCL kernels
 * (src/ocl/engine-ocl.c).  The debugger session and micdb run drive either
 * through this interface and never know which one runs.
 *
 * The machine (e->m) is the host copy of the state.  After every run() its
 * registers (struct core), counters, step and console output are current;
 * memory regions (stacks, globals, heap) are current only after
 * read_words()/sync_memory(), because copying them back is what would make
 * a many-core step slow.  Host-side edits (set var, input) go down with
 * write_word() and add_input().
 *
 * Stops are consistent cuts (manycore.md section 4): whatever an engine
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
#include "ref.h"

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

struct engine_run {
	uint64_t		 max_steps;     /* >= 1 */
	const struct engine_bp	*bps;
	size_t			 nbps;
	int			 stop_on_fault;
	const uint8_t		*mask;          /* cores allowed to run; NULL all */
	volatile sig_atomic_t	*interrupt;     /* may be NULL */
};

/* Filled by run(); the arrays belong to the engine until the next run. */
struct engine_stop {
	enum stop_reason	 reason;
	uint64_t		 steps_run;     /* global steps in this run */
	uint32_t		*cores;         /* cores that hit the stop */
	uint32_t		*bp_ids;        /* per hit core, for breakpoints */
	size_t			 ncores;
};

struct engine;

struct engine_ops {
	const char	*name;
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
	void	(*add_input)(struct engine *e, uint32_t core,
		    const uint8_t *data, size_t len);
	/* Micro-level engines: 1 if the core is at an ISA instruction
	 * boundary (mic1.md section 2).  NULL for ISA-level engines, whose
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

/*
 * Helpers engines share (engine-ref.c defines them), so that every engine
 * reports stops exactly as the reference does.
 */
void	engine_stop_reset(struct engine *e, struct engine_stop *stop);
void	engine_stop_add(struct engine *e, struct engine_stop *stop,
	    uint32_t core, uint32_t bp_id);

/* Add the running, unmasked cores at a breakpoint to stop; 1 if any.
 * level is what the engine steps: ENGINE_BP_ON_PC for the ISA level,
 * ENGINE_BP_ON_MPC for a micro level (see struct engine_bp). */
int	engine_check_bps(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, enum engine_bp_on on);
/* Mark cores that faulted since the last call in seen (one byte per
 * core) and, if report, add them to stop. */
void	engine_note_faults(struct engine *e, uint8_t *seen,
	    struct engine_stop *stop, int report);

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
/* read_words/write_word of host engines: straight through the map. */
int	engine_host_read_words(struct engine *e, uint32_t core, int32_t addr,
	    uint32_t nwords, int32_t *out, char **cause);
int	engine_host_write_word(struct engine *e, uint32_t core, int32_t addr,
	    int32_t val, char **cause);

static inline void
engine_free(struct engine *e)
{
	if (e->ops != NULL)
		e->ops->free(e);
}

#endif
