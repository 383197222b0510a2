/*
 * The fast host engines of the micro levels (doc/performance.md section
 * 18): each level decodes its control store once (engine-mic1-fast.c,
 * engine-pmic-fast.c) and runs many micro-cycles of one core with the
 * registers in one record of the loop's, each cycle a small function
 * that the word's shape picks (doc/performance.md section 24.2);
 * engine-micro.c's run loop drives either under the engine contract
 * (ENGINE_NATIVE at LEVEL_MIC and LEVEL_PMIC).
 *
 * A cycle runs fast only when it can neither fault nor touch a device
 * word; otherwise the golden model (mic1_cycle, pmic_cycle) runs that
 * one cycle on the written-back state, so faults, device side effects
 * and the registers they leave are the model's by construction.
 *
 * A private run (ahead, for micro-ahead.c's windows) is the same loop
 * with one more test where it already decides the slow path: a cycle
 * that would go to the golden model, complete a READ of a word outside
 * the core's stack, or WRITE outside the part of its stack the window
 * copied, is not run; the loop writes back and stops (MF_EV_SYNC).
 */
#ifndef MICDB_MICRO_FAST_H
#define MICDB_MICRO_FAST_H

#include <stdint.h>

#include "engine.h"
#include "machine.h"

/* Why exec returned. */
enum micro_fast_ev {
	MF_EV_BUDGET,     /* ran every cycle it was given */
	MF_EV_MARKED,     /* the same, and stands on a marked word (where
			     engine_check_bps decides) */
	MF_EV_STATUS,     /* the core stopped running (halt, barrier, fault) */
	MF_EV_BP,         /* it stands at a breakpoint (not executed) */
	MF_EV_SYNC,       /* a private run (ahead): its next cycle is
			     shared (not executed) */
};

/* A control-store word's trap bits: the fast loop leaves its path only
 * on a word that has one. */
#define MF_TRAP_SLOW	0x1   /* the golden model runs it (absent word) */
#define MF_TRAP_BP	0x2   /* an MPC breakpoint of this run names it */
#define MF_TRAP_PCBP	0x4   /* a core there may be at an instruction
				 boundary where a PC breakpoint holds */

/* The PCs of a run's PC breakpoints, a quick look before engine_bp_hit:
 * a core whose PC is none of them is at none of them. */
#define MF_NPCS		16
struct micro_fast_pcs {
	int32_t		pc[MF_NPCS];
	uint32_t	n;
	int		many;       /* more than MF_NPCS: ask every time */
};

static inline void
micro_fast_pcs_set(struct micro_fast_pcs *p, const struct engine_run *r)
{
	p->n = 0;
	p->many = 0;
	for (size_t i = 0; r != NULL && i < r->nbps; i++) {
		if (r->bps[i].on == ENGINE_BP_ON_MPC)
			continue;
		if (p->n == MF_NPCS)
			p->many = 1;
		else
			p->pc[p->n++] = r->bps[i].pc;
	}
}

static inline int
micro_fast_pc_listed(const struct micro_fast_pcs *p, int32_t pc)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->pc[i] == pc)
			return 1;
	return p->many;
}

/*
 * The watched words of a run (engine.h's struct engine_watch) as the
 * fast loops look at them.  On the fast path memory changes only in a
 * WRITE cycle, so a loop compares a WRITE's word with these pointers
 * and, only when one matches, asks engine_watch_changed; it asks after
 * every cycle the golden model runs (a device may store: the atomic
 * add, NEWARRAY) and when a core's LV drops below its highest watched
 * frame.  A change found sets hit, and a lone core's loop returns after
 * that cycle; the step's end decides (engine-micro.c), since a later
 * core of a lockstep step may put the word back.
 */
#define MF_NWATCH	8
struct micro_fast_watch {
	const struct engine_run	*r;        /* NULL: nothing is watched */
	const int32_t		*word[MF_NWATCH];
	uint32_t		 nword;
	int			 every;    /* ask at every WRITE: a word
					      with no place, or too many */
	int32_t			*frame;    /* per core; INT32_MIN: none */
	int			 hit;
};

/* A WRITE stored to *wp: may a watched word have changed? */
static inline int
micro_fast_watched(const struct micro_fast_watch *w, const int32_t *wp)
{
	for (uint32_t i = 0; i < w->nword; i++)
		if (w->word[i] == wp)
			return 1;
	return w->every;
}

/* After a cycle that may have changed a watched word: note a change. */
static inline int
micro_fast_watch_note(struct micro_fast_watch *w, const struct machine *m)
{
	if (!engine_watch_changed(m, w->r))
		return 0;
	w->hit = 1;
	return 1;
}

struct micro_fast {
	/* Decode the control store (struct mic1_store, struct pmic_store;
	 * not owned, must outlive the result). */
	void	*(*create)(const void *cs);
	void	 (*free)(void *fx);
	/* Mark (on) or unmark (!on) the words where a breakpoint of r may
	 * stop a core. */
	void	 (*patch)(void *fx, const struct engine_run *r, int on);
	/* The engine's watch record, which the loops read during every
	 * run (w->r NULL: no watch); set once. */
	void	 (*set_watch)(void *fx, struct micro_fast_watch *w);
	/*
	 * Up to budget micro-cycles of RUNNING core of e (st: the level's
	 * model state, e's level_state), stopping early when the core stops
	 * running or, unless first, stands at a breakpoint of r that holds
	 * (engine_bp_hit), or after a cycle that changed a watched word
	 * (struct micro_fast_watch's hit).  The number of cycles run.
	 */
	uint64_t (*exec)(struct engine *e, void *fx, void *st,
		    const struct engine_run *r, uint32_t core, uint64_t budget,
		    int first, enum micro_fast_ev *ev);
	/*
	 * A private run (micro-ahead.c): exec, stopping (MF_EV_SYNC)
	 * before a cycle another core may see or the golden model must
	 * run - one that completes a READ or WRITEs outside core's stack
	 * (micro_fast_private), stores to its stack at or above word pw,
	 * or goes to the golden model.  A cycle that halts the core runs
	 * (MF_EV_STATUS).
	 */
	uint64_t (*ahead)(struct engine *e, void *fx, void *st,
		    const struct engine_run *r, uint32_t core, uint64_t budget,
		    int first, uint32_t pw, enum micro_fast_ev *ev);
	/* Before a window, on the calling thread: make what its private
	 * runs use and, running at the same time, must not make
	 * themselves (a translation for the traps as they are); NULL
	 * where there is nothing to make. */
	void	 (*prepare)(void *fx);
	/* One global step's cycles: one of every RUNNING core that r's
	 * mask allows, in core order, as exec with budget 1 would run
	 * them (|= MF_EV_STATUS into *changed, MF_EV_MARKED into *atbp).
	 * The number of cores that ran. */
	uint32_t (*lockstep)(struct engine *e, void *fx, void *st,
		    const struct engine_run *r, int *changed, int *atbp);
};

/*
 * Where a READ (write 0) or WRITE (1) of addr by core lands when it
 * can neither fault nor reach a device: the word, or NULL.  stack and
 * swords are core's own stack region, or NULL when the constant pool
 * reaches into it (then machine_word_at decides every address): the
 * stack, where most accesses go, is tried first.
 */
static inline int32_t *
micro_fast_word(const struct machine *m, uint32_t core, int32_t *stack,
    uint32_t swords, uint32_t addr, int write)
{
	int32_t *w;
	int writable;

	if (stack != NULL && addr - MM_STACK_BASE < swords)
		return stack + (addr - MM_STACK_BASE);
	w = machine_word_at(m, core, (int32_t)addr, &writable);
	return w != NULL && (writable || !write) ? w : NULL;
}

/* A private run's test of a word it reads (lim: the stack's words) or
 * writes (lim: pw): one of core's stack (stack, from micro_fast_stack),
 * below word lim. */
static inline int
micro_fast_private(const int32_t *stack, uint32_t addr, uint32_t lim)
{
	return stack != NULL && addr - MM_STACK_BASE < lim;
}

/* A private run's test of a word it reads outside its stack: one of
 * the constant pool of core's program p, which no core can write
 * (machine_word_at), so it reads the same at any step. */
static inline int
micro_fast_const(const struct program *p, uint32_t addr)
{
	return addr - (uint32_t)MM_CPP < p->cp_size;
}

/* core's stack for micro_fast_word. */
static inline int32_t *
micro_fast_stack(struct machine *m, uint32_t core)
{
	if (m->progs[m->cores[core].prog]->cp_size > MM_STACK_BASE - MM_CPP)
		return NULL;
	return machine_stack_word(m, core, MM_STACK_BASE);
}

/*
 * What a level's cycle looks up besides its registers, in the record
 * that its loop and its shape functions share (struct mf1_x, struct
 * mfp_x): set once a run (micro_fast_ctx_init) and again after the
 * golden model ran a cycle (micro_fast_ctx_load).
 */
struct micro_fast_ctx {
	int32_t			*stack;    /* micro_fast_word's */
	const uint8_t		*text;
	uint32_t		 tsize, swords, core;
	uint32_t		 pw;       /* a private run's (ahead) */
	uint64_t		 steps;    /* boundaries since the write-back */
	struct machine		*m;
	const struct program	*prog;
	struct micro_fast_watch	*mw;       /* NULL: nothing is watched */
	int			 wnote;    /* a WRITE stored to a watched
					      word */
};

/* A word a private run may read: one of its core's stack or of its
 * constant pool (what the level's loop and its translation both ask
 * before a READ completes in a private run). */
static inline int
micro_fast_readable(const struct micro_fast_ctx *u, uint32_t addr)
{
	return micro_fast_private(u->stack, addr, u->swords) ||
	    micro_fast_const(u->prog, addr);
}

static inline void
micro_fast_ctx_init(struct micro_fast_ctx *u, struct machine *m,
    uint32_t core, uint32_t pw, struct micro_fast_watch *mw)
{
	u->m = m;
	u->core = core;
	u->swords = m->cfg.stack_words;
	u->pw = pw;
	u->mw = mw;
	u->wnote = 0;
}

static inline void
micro_fast_ctx_load(struct micro_fast_ctx *u)
{
	u->stack = micro_fast_stack(u->m, u->core);
	u->prog = u->m->progs[u->m->cores[u->core].prog];
	u->text = u->prog->text;
	u->tsize = u->prog->text_size;
	u->steps = 0;
}

/*
 * The parts of a level's loop that do not depend on its datapath, over
 * the loop's locals by name (e, r, f, m, c, core, st, op, first, left,
 * budget, id, ev, ahead, the watch's mw, watching and wframe, and x, the
 * record with the struct micro_fast_ctx u) and
 * its SAVE(), which writes them back.
 *
 * MF_WATCH_LOCALS declares the watch's locals.  MF_TRAPS(pcbp) runs a
 * marked word's breakpoints (a PC breakpoint where pcbp says the core is
 * at one of its PCs) and sends a word the loop cannot run to slow.
 * MF_WATCH_NOTE(lv) ends the loop after a cycle that may have changed a
 * watched word, or whose LV dropped below the watched frame.
 * MF_LOOP_END(cycle, marked) ends the loop's function: the budget or a
 * watch ended the run, or at slow the golden model's cycle runs one
 * cycle (a private run stops before it instead).
 */
#define MF_WATCH_LOCALS							\
	struct micro_fast_watch *mw = f->watch;				\
	int watching = mw != NULL && mw->r != NULL;			\
	int32_t wframe = watching ? mw->frame[core] : INT32_MIN

#define MF_TRAPS(pcbp)							\
	if (UNLIKELY(op->trap != 0)) {					\
		if (!first && ((op->trap & MF_TRAP_BP) ||		\
		    ((op->trap & MF_TRAP_PCBP) && (pcbp)))) {		\
			SAVE();						\
			if (engine_bp_hit(e, r, core,			\
			    ENGINE_BP_ON_MPC, &id)) {			\
				*ev = MF_EV_BP;				\
				return budget - left;			\
			}						\
		}							\
		if (op->trap & MF_TRAP_SLOW)				\
			goto slow;					\
	}

#define MF_WATCH_NOTE(lv)						\
	if (UNLIKELY(watching) &&					\
	    UNLIKELY(x.u.wnote | ((int32_t)(lv) < wframe))) {		\
		x.u.wnote = 0;						\
		SAVE();							\
		if (micro_fast_watch_note(mw, m))			\
			break;						\
	}

#define MF_LOOP_END(cycle, marked)					\
	SAVE();								\
	*ev = marked(f, c) ? MF_EV_MARKED : MF_EV_BUDGET;		\
	return budget - left;						\
slow:									\
	SAVE();								\
	if (ahead) {							\
		*ev = MF_EV_SYNC;	/* a private run stops before it */ \
		return budget - left;					\
	}								\
	first = 0;							\
	cycle(st, m, core);						\
	left--;								\
	if (c->status != CORE_RUNNING) {				\
		*ev = MF_EV_STATUS;					\
		return budget - left;					\
	}								\
	if ((watching && micro_fast_watch_note(mw, m)) || left == 0) {	\
		*ev = marked(f, c) ? MF_EV_MARKED : MF_EV_BUDGET;	\
		return budget - left;					\
	}								\
	goto reload

/* The loop of a level's exec, inlined into exec, ahead and lockstep,
 * where ahead (a private run, with pw), budget 1 and first fold away;
 * the loop is small (a cycle is a call of the word's shape function),
 * so its three copies cost the compilers little. */
#ifdef __GNUC__
#define MF_LOOP static inline __attribute__((always_inline)) uint64_t
#else
#define MF_LOOP static inline uint64_t
#endif

/* Define a level's exec (name_##_exec), ahead (name_##_ahead) and
 * lockstep (name_##_lockstep) over its loop, loop_(e, fx, st, r, core,
 * budget, first, ahead, pw, ev), and its
 * cycle in place, direct_(e, fx, st, core, changed, atbp): 1 when it ran
 * the core's cycle on its own state, 0 (nothing changed) when the loop
 * must run it - a marked word, a device, a fault. */
#define MICRO_FAST_ENTRIES(name_, loop_, direct_)			\
static uint64_t								\
name_##_exec(struct engine *e, void *fx, void *st,			\
    const struct engine_run *r, uint32_t core, uint64_t budget,		\
    int first, enum micro_fast_ev *ev)					\
{									\
	return loop_(e, fx, st, r, core, budget, first, 0, 0, ev);	\
}									\
static uint64_t								\
name_##_ahead(struct engine *e, void *fx, void *st,			\
    const struct engine_run *r, uint32_t core, uint64_t budget,		\
    int first, uint32_t pw, enum micro_fast_ev *ev)			\
{									\
	return loop_(e, fx, st, r, core, budget, first, 1, pw, ev);	\
}									\
static uint32_t								\
name_##_lockstep(struct engine *e, void *fx, void *st,			\
    const struct engine_run *r, int *changed, int *atbp)		\
{									\
	struct machine *m_ = e->m;					\
	enum micro_fast_ev ev_;						\
	uint32_t n_ = 0;						\
									\
	for (uint32_t i_ = 0; i_ < m_->cfg.ncores; i_++) {		\
		if (m_->cores[i_].status != CORE_RUNNING ||		\
		    (r->mask != NULL && !r->mask[i_]))			\
			continue;					\
		if (direct_(e, fx, st, i_, changed, atbp)) {		\
			n_++;						\
			continue;					\
		}							\
		n_ += (uint32_t)loop_(e, fx, st, r, i_, 1, 1, 0, 0, &ev_); \
		*changed |= ev_ == MF_EV_STATUS;			\
		*atbp |= ev_ == MF_EV_MARKED;				\
	}								\
	return n_;							\
}

struct ahead;
struct micro_model;
/* One run-ahead window of the cores of e, a native micro engine, at
 * most h steps (micro-ahead.c; ahead_window's result and *stop_at). */
uint64_t micro_ahead(struct engine *e, struct ahead *a,
	    const struct micro_model *md, void *st, const struct micro_fast *mf,
	    void *fx, const struct engine_run *r, uint64_t h,
	    uint64_t *stop_at);

extern const struct micro_fast mic1_fast;   /* engine-mic1-fast.c */
extern const struct micro_fast pmic_fast;   /* engine-pmic-fast.c */

#endif
