/*
 * The OpenCL engine of the micro level: struct engine (src/dbg/engine.h)
 * over the branch-free Mic-1 kernel (kernels/mic.cl), one global step =
 * one micro-cycle of every running core, cycle for cycle what the C
 * simulator (src/core/mic1.c, engine-mic.c) does.  Breakpoints compare
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
 * cs must outlive the engine).  Cores start as engine_mic_create starts
 * them.  0, or -1 with *cause.
 */
int	engine_ocl_mic_create(struct engine *e, struct machine *m,
	    const struct mic1_store *cs, const char *device_sel,
	    char **cause);
/* The records of every warp after the last run (program path = MPC;
 * kernel paths: the branch-free cycle, and the slow path of device words
 * and faults); nwarps may be NULL. */
const struct ocl_warp_record *engine_ocl_mic_warps(struct engine *e,
	    size_t *nwarps);
/* Micro-steps per launch: 0 adapts (MICDB_STEPS_PER_LAUNCH at creation). */
void	engine_ocl_mic_set_steps_per_launch(struct engine *e, uint64_t k);
void	engine_ocl_mic_stats(struct engine *e, struct ocl_engine_stats *st);
const char *engine_ocl_mic_device_name(struct engine *e);
/* engine_ocl_mem_need for this level (its context is larger). */
void	engine_ocl_mic_mem_need(const struct machine_config *cfg,
	    const struct program *const *progs, size_t nprogs, int gpu,
	    size_t max_wg, struct ocl_mem_need *need);
/* The host copy of the micro side state (current after every run), as
 * engine_mic_state. */
struct mic1_state *engine_ocl_mic_state(struct engine *e);

#endif
