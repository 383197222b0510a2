/*
 * The host engine of the micro levels: a micro level's golden model
 * (micro-sim.h: mic1_model, pmic_model) behind the engine contract, one
 * global step = one micro-cycle of every running core.
 *
 * Breakpoints: struct engine_bp's pc is compared with the core's MPC
 * (ENGINE_BP_ON_MPC) - at this level the program path is the MPC
 * (doc/manycore.md section 3) - or, for a PC breakpoint, with the PC of a
 * core at an instruction boundary.
 *
 * The engine owns the model's per-core state (struct mic1_state, struct
 * pmic_state: ops->level_state); the control store belongs to the caller
 * and must outlive the engine.
 */
#ifndef MICDB_ENGINE_MICRO_H
#define MICDB_ENGINE_MICRO_H

#include "engine.h"

/*
 * The golden model of level (LEVEL_MIC, LEVEL_PMIC) as an engine over m
 * (not owned) with control store cs (struct mic1_store or struct
 * pmic_store, not owned).  Cores that never ran start in the level's
 * start state; the others enter it at their ISA boundary (micro_attach).
 * 0, or -1 + *cause.
 */
int	engine_micro_create(struct engine *e, struct machine *m,
	    enum level level, const void *cs, char **cause);

/*
 * The same with the level's fast loop (micro-fast.h, ENGINE_NATIVE):
 * the model's state and rules, cycles run with the registers in locals
 * and the control store decoded once; the golden model runs every cycle
 * that faults or reaches a device word.
 */
int	engine_micro_native_create(struct engine *e, struct machine *m,
	    enum level level, const void *cs, char **cause);
#endif
