/*
 * The OpenCL engine of the PMIC level: struct engine (src/core/engine.h)
 * over the branch-free PMIC kernel (kernels/pmic.cl), one global step =
 * one PMIC cycle of every running core, cycle for cycle what the C
 * simulator (src/model/pmic-sim.c, engine-micro.c) does; a level of the
 * shared OpenCL host engine (engine-ocl.h: engine_ocl_warps,
 * engine_ocl_stats, engine_ocl_set_steps_per_launch work on it).
 * Breakpoints compare an MPC, or a PC at the instruction boundary; the
 * divergence records use the MPC as the program path.
 */
#ifndef MICDB_ENGINE_OCL_PMIC_H
#define MICDB_ENGINE_OCL_PMIC_H

#include <stddef.h>
#include <stdint.h>

#include "engine-ocl.h"
#include "engine.h"
#include "pmic.h"

/*
 * An engine on the device chosen by device_sel (NULL: MICDB_DEVICE, else
 * the default, see ocl.h) over m with control store cs (neither owned;
 * cs must outlive the engine).  Cores start as micro_attach starts
 * them.  0, or -1 with *cause.
 */
int	engine_ocl_pmic_create(struct engine *e, struct machine *m,
	    const struct pmic_store *cs, const char *device_sel,
	    char **cause);
/* engine_ocl_mem_need for this level. */
void	engine_ocl_pmic_mem_need(const struct machine_config *cfg,
	    const struct program *const *progs, size_t nprogs, int gpu,
	    size_t max_wg, struct ocl_mem_need *need);

#endif
