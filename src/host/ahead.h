/*
 * Run-ahead windows (doc/manycore.md section 4), shared by the native
 * engines of every level: the ISA level's (native-ahead.c) and the micro
 * levels' (micro-ahead.c).  The window's schedule, its copy of what it
 * may change and the undo are here; what is private, what a shared step
 * may store and how a core runs are the level's, through struct
 * ahead_ops.
 */
#ifndef MICDB_AHEAD_H
#define MICDB_AHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "machine.h"
#include "par.h"

/* The lists of ahead's queue: a power of two, the steps ahead it tells
 * apart without looking at a core twice. */
#define AHEAD_QB 1024

/* The fewest steps worth a run-ahead window (its copy of the cores). */
#define AHEAD_MIN 64
/* Stack words a window copies above each core's SP or LV unless its
 * level sets fewer (struct ahead's margin: the ISA level copies 32 and
 * grows the copy in its private runs); a window of at least 4 x this
 * many steps pays for the copy (full windows are longer still:
 * AHEAD_WINDOW_MIN).  A shorter window copies as many as it has steps:
 * a private step pushes at most one word (a store beyond the copy is
 * correct anyway, as a shared step or after growing the copy), and
 * micdb run's engine runs at many cores are short windows
 * (doc/performance.md sections 19.3, 24.13). */
#define AHEAD_STACK_MARGIN 256

/* Cores per thread below which a round of private runs, or a window's
 * copy, stays on the calling thread: handing it out would cost more than
 * it saves (doc/performance.md section 19). */
#define AHEAD_PAR_ITEMS 16
/* That bound as the windows use it: AHEAD_PAR_ITEMS, which tests lower
 * to 1 so that their small machines' rounds go to the threads too. */
extern uint32_t ahead_par_items;

/* Why a private run stopped. */
enum ahead_ev {
	AHEAD_END,        /* it ran every step it was given */
	AHEAD_SYNC,       /* its next step is shared (not run) */
	AHEAD_BP,         /* it stands at a breakpoint (not run) */
	AHEAD_STATUS,     /* its last step changed its status, which no
			     other core sees before that step's end */
};

struct ahead_ops {
	/* Run core privately for at most budget steps, storing nothing
	 * outside its stack below ahead.lim[core] (first: its
	 * breakpoints where it stands were checked already); the steps
	 * run and *ev. */
	uint64_t (*priv)(void *arg, uint32_t core, uint64_t budget,
		    int first, enum ahead_ev *ev);
	/* Run core's next step, a shared one, after ahead_grow or
	 * ahead_note for whatever it may store. */
	void	 (*shared)(void *arg, uint32_t core);
};

/* A shared word as it was before a window's event changed it. */
struct ahead_undo {
	int32_t		*word;
	int32_t		 old;
};

/* A window's state, kept between windows (allocated by the first). */
struct ahead {
	uint32_t	 ncores;
	/* per core: its step in the window, what stops it there, the
	 * status its last private step set (AHEAD_STATUS) */
	uint64_t	*t;
	uint8_t		*at;
	uint8_t		*status;
	/* the window start's copy */
	struct core	*scores;
	int32_t		*sstacks;
	int32_t		*lim;          /* per core: sstacks holds words to */
	size_t		*sout;
	size_t		*sin;
	uint32_t	 sheap_top;
	uint8_t		*sside;        /* the level's side state */
	struct ahead_undo *undo;
	size_t		 nundo;
	size_t		 capundo;
	/* the private runs a round defers until its shared steps are done */
	uint32_t	*todo;
	uint32_t	 ntodo;
	/* the cores waiting for an event (a shared step, a breakpoint, a
	 * status), by its step: a list per step modulo AHEAD_QB (qhead,
	 * linked by qnext), a bit per non-empty list (qbits), how many
	 * wait (nq); the round's cores (cur, marked in curbits) */
	uint32_t	*qnext;
	uint32_t	*qhead;
	uint64_t	*qbits;
	uint32_t	 nq;
	uint32_t	*cur;
	uint64_t	*curbits;
	/* the threads that run private runs and copies (NULL: the
	 * caller's alone); the engine's, not owned */
	struct par_pool	*pool;
	/* the steps of the window in progress */
	uint64_t	 h;
	/* the stack words a copy holds above SP or LV (0: the default,
	 * AHEAD_STACK_MARGIN): a level whose private runs grow the copy
	 * themselves (ahead_grow) copies fewer */
	uint32_t	 margin;
	/* the round loops prefetch the next cores (ahead.c, AHEAD_AHEAD) */
	int		 prefetch;
};

/* The stack words above SP (or LV) that a copy holds for the private
 * steps to come: the level's margin (AHEAD_STACK_MARGIN unless it set
 * one), or in a shorter window its steps. */
static inline int64_t
ahead_margin(const struct ahead *a)
{
	uint32_t mg = a->margin != 0 ? a->margin : AHEAD_STACK_MARGIN;

	return a->h < mg ? (int64_t)a->h : (int64_t)mg;
}

void	ahead_free(struct ahead *a);
/* Grow core's stack copy to the word upto (clamped to its region).
 * Touches only core's copy and limit, so a private run may grow its own
 * core's on any thread: nothing stores above the limit (a shared step
 * grows the copy first), so the words there are still as they were at
 * the window's start. */
void	ahead_grow(struct ahead *a, struct machine *m, uint32_t core,
	    int64_t upto);
/* Before a shared step: the n words from w may change. */
void	ahead_note(struct ahead *a, int32_t *w, uint32_t n);
/*
 * One window of at most h steps of m's cores from a step boundary,
 * where breakpoints were checked already; side (side_bytes, may be
 * NULL) is the level's per-core state, copied and undone with the
 * cores.  Returns the steps it ran (all cores are at that cut), or 0
 * after undoing it: *stop_at steps from its start, in lockstep, reach
 * the stop the reference makes.  Private runs go to a->pool's threads
 * at the same time (ops->priv must then touch only its core's state:
 * see ahead.c); shared steps run on the calling thread.
 */
uint64_t ahead_window(struct ahead *a, struct machine *m,
	    const struct engine_run *r, const struct ahead_ops *ops,
	    void *arg, void *side, size_t side_bytes, uint64_t h,
	    uint64_t *stop_at);

/*
 * The host engines' window policy.  A run opens a window when more than
 * one core runs, no watch is set (a watch stops after the step that
 * wrote), at least AHEAD_MIN steps are left (left) and the lockstep after
 * an undone window (to step lockstep_to of the run; done so far) is over.
 */
static inline int
ahead_opens(uint32_t nrun, const struct engine_run *r, uint64_t left,
    uint64_t done, uint64_t lockstep_to)
{
	return nrun > 1 && r->nwatches == 0 && left >= AHEAD_MIN &&
	    done >= lockstep_to;
}

/* The shortest full window.  A window pays a fixed cost (its copy of the
 * cores, its rounds, the queue's pass) that many threads share badly, so
 * a full window is several times the 4 x AHEAD_STACK_MARGIN that pays
 * for the copy on one thread (doc/performance.md section 24.11 has the
 * lengths measured).  A run shorter than this is one window of its own
 * length, so the callers' runs, sized in time, still bound how long a
 * window lasts.  A run with breakpoints keeps AHEAD_WINDOW_BP: a hit
 * undoes the window and reruns it in lockstep up to the hit, many times
 * slower a step at many cores, and that is paid at every hit. */
#define AHEAD_WINDOW_MIN 4096
#define AHEAD_WINDOW_BP  1024

/* A window's length at most: 4 lone-core slices of slice steps over the
 * cores, at least AHEAD_WINDOW_MIN (AHEAD_WINDOW_BP for a run with
 * breakpoints). */
static inline uint64_t
ahead_window_steps(uint64_t slice, uint32_t ncores, int bps)
{
	uint64_t w = 4 * slice / ncores, least = bps ? AHEAD_WINDOW_BP :
	    AHEAD_WINDOW_MIN;

	return w < least ? least : w;
}

/*
 * The next window's steps, with left steps of the run to go and windows
 * of at most window steps: the steps split evenly over as few windows as
 * hold them.  A full window and the remainder would leave a last piece
 * shorter than AHEAD_MIN to run in lockstep, many times slower a step
 * at many cores (micdb run's runs of 1,040 steps at 65,536 cores spent a
 * third of their time in 16 such steps: doc/performance.md 24.10).
 */
static inline uint64_t
ahead_next_steps(uint64_t left, uint64_t window)
{
	uint64_t n;

	if (left <= window)
		return left;
	/* rounded up without left + window, which a run of every step
	 * (UINT64_MAX) overflows */
	n = left / window + (left % window != 0);
	return left / n + (left % n != 0);
}

#endif
