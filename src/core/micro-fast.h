/*
 * The fast host engines of the micro levels (doc/performance.md section
 * 16): each level decodes its control store once (engine-mic1-fast.c,
 * engine-pmic-fast.c) and runs many micro-cycles of one core with the
 * registers in locals; engine-micro.c's run loop drives either under the
 * engine contract (ENGINE_NATIVE at LEVEL_MIC and LEVEL_PMIC).
 *
 * A cycle runs fast only when it can neither fault nor touch a device
 * word; otherwise the golden model (mic1_cycle, pmic_cycle) runs that
 * one cycle on the written-back state, so faults, device side effects
 * and the registers they leave are the model's by construction.
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
};

/* A control-store word's trap bits: the fast loop leaves its path only
 * on a word that has one. */
#define MF_TRAP_SLOW	0x1   /* the golden model runs it (absent word) */
#define MF_TRAP_BP	0x2   /* a breakpoint of this run may hold there */

struct micro_fast {
	/* Decode the control store (struct mic1_store, struct pmic_store;
	 * not owned, must outlive the result). */
	void	*(*create)(const void *cs);
	void	 (*free)(void *fx);
	/* Mark (on) or unmark (!on) the words where a breakpoint of r may
	 * stop a core. */
	void	 (*patch)(void *fx, const struct engine_run *r, int on);
	/*
	 * Up to budget micro-cycles of RUNNING core of e (st: the level's
	 * model state, e's level_state), stopping early when the core stops
	 * running or, unless first, stands at a breakpoint of r that holds
	 * (engine_bp_hit).  The number of cycles run.
	 */
	uint64_t (*exec)(struct engine *e, void *fx, void *st,
		    const struct engine_run *r, uint32_t core, uint64_t budget,
		    int first, enum micro_fast_ev *ev);
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

/* core's stack for micro_fast_word. */
static inline int32_t *
micro_fast_stack(struct machine *m, uint32_t core)
{
	if (m->progs[m->cores[core].prog]->cp_size > MM_STACK_BASE - MM_CPP)
		return NULL;
	return machine_stack_word(m, core, MM_STACK_BASE);
}

extern const struct micro_fast mic1_fast;   /* engine-mic1-fast.c */
extern const struct micro_fast pmic_fast;   /* engine-pmic-fast.c */

#endif
