/*
 * The OpenCL engine of the micro level: struct engine (src/core/engine.h)
 * over the branch-free Mic-1 kernel (kernels/mic.cl), one global step =
 * one micro-cycle of every running core, cycle for cycle what the C
 * simulator (src/model/mic1.c, engine-micro.c) does.  Breakpoints compare
 * an MPC, or a PC at the instruction boundary (engine_bp.on); the
 * divergence records use the MPC as the program path.
 */
#ifndef MICDB_ENGINE_OCL_MIC_H
#define MICDB_ENGINE_OCL_MIC_H

#include <stddef.h>
#include <stdint.h>

#include "engine-ocl.h"
#include "engine.h"
#include "mic1.h"

/*
 * An engine on the device chosen by device_sel (NULL: MICDB_DEVICE, else
 * the default, see ocl.h) over m with control store cs (neither owned;
 * cs must outlive the engine).  Cores start as micro_attach starts
 * them.  0, or -1 with *cause.
 */
int	engine_ocl_mic_create(struct engine *e, struct machine *m,
	    const struct mic1_store *cs, const char *device_sel,
	    char **cause);
/* engine_ocl_mem_need for this level (its context is larger). */
void	engine_ocl_mic_mem_need(const struct machine_config *cfg,
	    const struct program *const *progs, size_t nprogs, int gpu,
	    size_t max_wg, struct ocl_mem_need *need);

#endif
