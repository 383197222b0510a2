/*
 * What the two micro-level golden models (mic1.c, pmic-sim.c) share:
 * the ISA-level fault a micro-cycle raises, TOS as the ISA level keeps
 * it, leaving the micro level at an instruction boundary, and the step
 * of every core by one cycle.  The cycle itself stays in each model.
 */
#ifndef MICDB_MICRO_SIM_H
#define MICDB_MICRO_SIM_H

#include <stdint.h>

#include "machine.h"
#include "ref.h"

/* Stop a core with fault at the ISA instruction at insn_pc, the one its
 * microcode is executing. */
void	micro_fault(struct machine *m, uint32_t core, int32_t insn_pc,
	    int fault);
/* TOS <- the word at SP, when SP can be read: the ISA level keeps TOS
 * in memory, the micro levels in a register. */
void	micro_load_tos(struct machine *m, uint32_t core);
/* Leave the micro level: -1 if a live core is not at_boundary (between
 * two ISA instructions), else 0 with TOS reloaded. */
int	micro_leave(struct machine *m, uint32_t core, int at_boundary);

/* One micro-cycle of one core: 1 if it executed one, 0 if not. */
typedef int	micro_cycle_fn(void *st, struct machine *m, uint32_t core);
/* One step: every core of mask (all if mask or mask->mask is NULL) by
 * one cycle, then the barrier, then sum (which may be NULL). */
void	micro_step(void *st, micro_cycle_fn *cycle, struct machine *m,
	    const struct ref_mask *mask, struct ref_summary *sum);

#endif
