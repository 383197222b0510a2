/*
 * A debugging session: the machine, its engine, the loaded programs'
 * debug names, breakpoints, focus and run control, driven by command
 * lines.  The TUI and the batch front end (batch.c) both sit on this; the
 * session never prints and never draws.  Every command's text comes back
 * in a struct buf, errors as one-line messages (char **cause), and the
 * cores' console output through a callback as it arrives.
 *
 * Running is incremental so that a front end never blocks: a command
 * that runs the machine (step, continue, ...) only starts a run, and the
 * front end calls session_poll() with a step budget until it returns 0
 * (stopped); the stop report is appended to the poll's buffer.  A batch
 * front end simply calls session_wait().  Between polls the machine is at
 * a consistent cut and may be drawn; an interrupt flag (a SIGINT handler
 * or a key) ends the run at the next step boundary.
 *
 * The session owns the machine and the engine; it makes the engine
 * through a callback, because `run` restarts the machine by building a
 * fresh machine and engine (an OpenCL engine keeps device state that
 * only it can reset).  The programs belong to the caller and must outlive
 * the session.
 */
#ifndef MICDB_SESSION_H
#define MICDB_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "machine.h"
#include "util.h"

struct session;

/* Make an engine over m (e.g. engine_ref_create). 0, or -1 + *cause. */
typedef int (*session_engine_fn)(void *arg, struct engine *e,
    struct machine *m, char **cause);
/* Bytes a core wrote to its console, in the order the steps wrote them. */
typedef void (*session_output_fn)(void *arg, uint32_t core,
    const uint8_t *data, size_t len);

/*
 * Kernel divergence records of one warp (manycore.md section 3), from
 * engines that keep them; totals since the machine started.
 */
struct session_warp_record {
	uint64_t	 steps;      /* steps with an active lane */
	uint64_t	 active;     /* sum of active lanes */
	uint64_t	 kpaths;     /* sum of k, the kernel paths run */
	uint32_t	 last_k;     /* k of the last such step */
	const uint64_t	*hist;       /* hist[n-1]: kernel paths of n lanes;
					warp_width entries */
};
/* Fill *rec for warp w of engine e: 0, or -1 if the engine has none. */
typedef int (*session_warps_fn)(void *arg, struct engine *e, uint32_t w,
    struct session_warp_record *rec);

struct session_config {
	struct machine_config	  machine;
	const struct program	**progs;       /* not owned */
	size_t			  nprogs;
	const uint16_t		 *core_prog;   /* per core; NULL: progs[0] */
	session_engine_fn	  make_engine;
	void			 *engine_arg;
	session_output_fn	  output;      /* NULL: output is dropped */
	void			 *output_arg;
	const uint8_t		 *input;       /* core 0's input (--input),
						  given again at every run */
	size_t			  input_len;
	uint64_t		  max_steps;   /* step limit; 0: none */
	session_warps_fn	  warps;       /* NULL: the engine records no
						  kernel divergence */
	void			 *warps_arg;
	int			  repeat;      /* an empty line repeats the
						  last command (not in batch) */
};

/* session_execute() result besides 0 and -1. */
#define SESSION_QUIT 1

int	 session_create(struct session **sp, const struct session_config *cfg,
	    char **cause);
void	 session_free(struct session *s);

/*
 * Run one command line.  Output goes to out.  Returns 0, -1 with *cause
 * (one line; the session goes on), or SESSION_QUIT.  A command that runs
 * the machine leaves the session running: call session_poll().
 */
int	 session_execute(struct session *s, const char *line, struct buf *out,
	    char **cause);
/* Is a run in progress? */
int	 session_running(const struct session *s);
/*
 * Advance the run in progress by at most budget global steps.  Returns 1
 * while it goes on, 0 once it stopped (the report is in out), -1 + *cause
 * if the engine failed (the run is over).
 */
int	 session_poll(struct session *s, uint64_t budget, struct buf *out,
	    char **cause);
/* Poll until the run stops (batch). */
int	 session_wait(struct session *s, struct buf *out, char **cause);
/*
 * The flag that interrupts a run (set it from a signal handler or on a
 * key); the session clears it when it reports the interrupt.
 */
volatile sig_atomic_t *session_interrupt_flag(struct session *s);
/* "(micdb core 12 warp 0 lane 12)" for the focused core. */
const char *session_prompt(struct session *s);

/* What the front end draws from. */
const struct machine *session_machine(const struct session *s);
uint32_t session_focus(const struct session *s);

#endif
