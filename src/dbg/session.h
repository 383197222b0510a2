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
 * The session owns the machine and the engine, and makes the engine
 * itself through the factory of levels.h (level_engine_open) for the
 * level it runs at, with the engine kind and device of the config:
 * `run` restarts the machine by building a fresh machine and engine (an
 * OpenCL engine keeps device state that only it can reset), and `set
 * level` replaces the engine by one of another level over the same
 * machine (doc/mic1.md section 5).  A front end that still makes its own
 * ISA engine may pass make_engine; micro levels always come from the
 * factory.  The programs belong to the caller and must outlive the
 * session.
 */
#ifndef MICDB_SESSION_H
#define MICDB_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "levels.h"
#include "machine.h"
#include "util.h"

struct session;

/* Make an engine over m (e.g. engine_ref_create). 0, or -1 + *cause. */
typedef int (*session_engine_fn)(void *arg, struct engine *e,
    struct machine *m, char **cause);
/* Bytes a core wrote to its console, in the order the steps wrote them. */
typedef void (*session_output_fn)(void *arg, uint32_t core,
    const uint8_t *data, size_t len);

struct session_config {
	struct machine_config	  machine;
	const struct program	**progs;       /* not owned */
	size_t			  nprogs;
	const uint16_t		 *core_prog;   /* per core; NULL: progs[0] */
	enum level		  level;       /* the level to start at */
	enum engine_kind	  engine;      /* --engine (ENGINE_DEFAULT) */
	uint32_t		  threads;     /* --threads, set threads (0:
						  the default, par_cpus) */
	const char		 *device;      /* --device; NULL: default */
	const char		 *microcode[NLEVEL]; /* --microcode of each
						  micro level; NULL: the
						  level's default */
	session_engine_fn	  make_engine; /* NULL (preferred): the
						  factory; else it makes
						  the ISA-level engine */
	void			 *engine_arg;
	session_output_fn	  output;      /* NULL: output is dropped */
	void			 *output_arg;
	const uint8_t		 *input;       /* core 0's input (--input),
						  given again at every run */
	size_t			  input_len;
	uint64_t		  max_steps;   /* step limit; 0: none */
	int			  repeat;      /* an empty line repeats the
						  last command (not in batch) */
	int			  fork_join;   /* --fork-join (machine.h's
						  machine_fork_join) */
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
/* What Enter should run after the line session_execute just ran, when
 * not that line again (the caller owns it; NULL: the line itself): gdb's
 * list and x go on where they ended. */
char	*session_take_repeat(struct session *s);
/* Write and close the trace that --trace or trace start opened, if any:
 * 0, or -1 with *cause when it cannot be written.  Front ends call it at
 * their end, so that the user hears of a lost trace; session_free closes
 * a trace too, but cannot say so. */
int	 session_end_trace(struct session *s, char **cause);
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
/*
 * A number that changes whenever what a front end shows may have
 * changed (every command, every poll of a run, a level switch): a front
 * end keeps what it computed over every core (counts, summaries) until
 * it changes, instead of recomputing it for every frame.
 */
uint64_t session_generation(const struct session *s);

/* ---- levels (doc/mic1.md section 5) ---------------------------------------- */

/* The level the machine runs at now. */
enum level session_level(const struct session *s);
/* The note a session shows once, on its first switch to the Mic-1
 * level (session_switch_level prints it; a front end that switches with
 * session_set_level shows it when session_told_mic1 turns 1). */
extern const char session_mic1_note[];
int	 session_told_mic1(const struct session *s);
/*
 * Switch the machine to level.  ISA -> micro puts every core at its
 * instruction boundary.  Micro -> ISA needs every running core at a
 * boundary: with to_boundary set, the cores that are inside an
 * instruction (only those) first run micro-cycles to their next
 * boundary (their output goes to the output callback; a core may halt
 * or fault on the way); without it the switch is refused with a cause
 * that says how many cores are inside an instruction.  Loads the level's
 * microprogram on first use.  0, or -1 + *cause (the level is then
 * unchanged).  Not while a run is in progress.
 */
int	 session_set_level(struct session *s, enum level level,
	    int to_boundary, char **cause);
/* How many running or waiting cores are inside an instruction (0 at the
 * ISA level): what a front end asks about before a switch to the ISA
 * level with to_boundary. */
uint32_t session_cores_inside(const struct session *s);
/* The microprogram loaded for a micro level, NULL if none is loaded yet. */
const struct microcode *session_microcode(const struct session *s,
	    enum level level);
/*
 * The engine's own state of the level for the datapath pane: at
 * LEVEL_MIC on the Mic-1 simulator, its struct mic1_state (mic1.h: the
 * READ/FETCH in flight, MIR); NULL otherwise.
 */
struct pmic_state;
const void *session_level_state(const struct session *s);
/* At LEVEL_PMIC the engine's struct pmic_state (G0, G1, MBR validity);
 * NULL otherwise. */
const struct pmic_state *session_pmic_state(const struct session *s);
/* The PC to show for a core: a faulted core's faulting instruction, a
 * halted core's HALT (its PC has moved past it), inside an instruction
 * at a micro level the instruction the microcode is executing, else
 * PC. */
int32_t	 session_core_pc(const struct session *s, uint32_t core);
/* The engine (what only it knows: kernel divergence records, name). */
struct engine *session_engine(struct session *s);

/* ---- breakpoints and frames, for the panes ------------------------------ */

/* One location of a breakpoint (a breakpoint on a label that several
 * programs have is one entry per program).  Valid until the next
 * command or session_breakpoints call. */
struct session_bp {
	uint32_t	 id;
	int		 enabled;
	int		 temporary;   /* tbreak */
	int		 on_mpc;      /* 1: addr is an MPC; 0: a PC */
	int32_t		 addr;        /* byte address of an opcode, or MPC */
	uint16_t	 prog;        /* PC breakpoints: the program */
	const char	*label;       /* label at addr (MAL label for an MPC),
					 NULL if none */
	const uint8_t	*cores;       /* per core: applies; NULL all */
	uint32_t	 ncores_set;  /* cores it applies to */
	const char	*cond;        /* condition text, NULL: none */
	uint64_t	 hits;
};
/* Every breakpoint location, in breakpoint number order; *out is owned
 * by the session. */
size_t	 session_breakpoints(const struct session *s,
	    const struct session_bp **out);

#define SESSION_FRAME_LOCALS 256   /* locals kept per frame at most */

struct session_frame_local {
	const char	*name;        /* from the source; NULL: unnamed */
	int32_t		 value;
};

/* One call frame of a core, innermost first. */
struct session_frame {
	const char	*method;      /* NULL if unknown */
	int32_t		 pc;          /* where it executes (innermost) or
					 will return to */
	int32_t		 lv;
	int32_t		 nlocals;     /* locals in the frame (main: its count;
					 a method: link pointer included) */
	uint32_t	 nparams;     /* of those, arguments after the link */
	struct session_frame_local *locals; /* min(nlocals, SESSION_FRAME_
					 LOCALS) entries */
	int32_t		 link;        /* link pointer; -1 for main */
	int32_t		 saved_pc;    /* at link; -1 for main */
	int32_t		 saved_lv;    /* at link + 1; -1 for main */
	int32_t		 stack_lo;    /* operand stack: word addresses */
	int32_t		 stack_hi;    /* stack_lo .. stack_hi (empty if
					 hi < lo) */
	char		*note;        /* the walk ended here: why; or NULL */
};
/*
 * The call frames of core, innermost first (at most SESSION_MAX_FRAMES,
 * also the deepest frame the frame commands select).  A corrupted
 * frame ends the walk with its note set.  Free with
 * session_frames_free.  0, or -1 + *cause (no such core).
 */
#define SESSION_MAX_FRAMES 64
int	 session_frames(struct session *s, uint32_t core,
	    struct session_frame **out, size_t *n, char **cause);
void	 session_frames_free(struct session_frame *f, size_t n);
/*
 * The focused core's selected frame: an index into session_frames' array
 * for that core (0: the innermost), as up, down and frame move it and as
 * print and x read locals in it (the stack pane highlights it).  It goes
 * back to 0 at every stop and focus change, as in gdb.
 */
uint32_t session_selected_frame(const struct session *s);

#endif
