/*
 * The OpenCL engine: struct engine (src/core/engine.h) over the ISA kernel
 * (kernels/isa.cl), plus what only the OpenCL engines have: the per-warp
 * divergence records (doc/manycore.md section 3), the steps-per-launch
 * knob and the launch counts, which the tests call by name and front ends
 * reach through the contract (engine.h: warps, set_steps_per_launch,
 * stats).  One host engine serves every
 * level (engine-ocl-mic.h, engine-ocl-pmic.h create the others); the
 * functions below that take an engine work on any of them.
 */
#ifndef MICDB_ENGINE_OCL_H
#define MICDB_ENGINE_OCL_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/*
 * An engine on the device chosen by device_sel (NULL: MICDB_DEVICE, else
 * the default, see ocl.h) over m, which it uploads whole.  0, or -1 with
 * *cause (no device, kernel missing or failing to build, not enough
 * device memory).
 */
int	engine_ocl_create(struct engine *e, struct machine *m,
	    const char *device_sel, char **cause);
/* What the default engine's rule (levels.h) reads of the device
 * device_sel picks (as engine_ocl_create would): whether it is a CPU
 * (POCL), its compute units, and the cores of the work-groups the
 * engine gives it.  0, or -1 when there is no usable device
 * (engine_ocl_create then says why). */
int	engine_ocl_device_props(const char *device_sel, int *cpu,
	    uint32_t *units, uint32_t *group);
/* The records of every warp after the last run; nwarps may be NULL.  The
 * functions from here on work on the engine of any level. */
const struct engine_warp_record *engine_ocl_warps(struct engine *e,
	    size_t *nwarps);
/* Steps per launch: 0 adapts to the device (the default; for tests
 * MICDB_OCL_TEST's k sets it at creation). */
void	engine_ocl_set_steps_per_launch(struct engine *e, uint64_t k);
void	engine_ocl_stats(struct engine *e, struct engine_stats *st);
/*
 * Memory an engine over a machine of cfg with these programs needs, as
 * engine_ocl_create would lay it out on a device of the given kind (gpu:
 * GPU layouts) and largest work-group; bench refuses core counts with it
 * before allocating anything.  Bytes.
 */
struct ocl_mem_need {
	uint64_t	ctx;       /* context: core blocks, warp records */
	uint64_t	stacks;
	uint64_t	io;        /* per-core output and input areas, mask */
	uint64_t	shared;    /* globals, heap, text, constant pools */
	uint64_t	ckpt;      /* checkpoint copy (taken when K > 1) */
	uint64_t	host;      /* the engine's host memory: output staging
				      and, off zero-copy devices, the
				      context's copy */
	int		stacks_shared; /* the stack buffers are the
					  machine's own pages (ocl-engine.h
					  shared_stacks): counted once */
};
void	engine_ocl_mem_need(const struct machine_config *cfg,
	    const struct program *const *progs, size_t nprogs, int gpu,
	    size_t max_wg, struct ocl_mem_need *need);
/* The same for a level whose kernel adds sec_fields words per core to
 * the context (engine_ocl_mem_need: 0, the ISA level). */
void	engine_ocl_mem_need_fields(const struct machine_config *cfg,
	    const struct program *const *progs, size_t nprogs, int gpu,
	    size_t max_wg, uint32_t sec_fields, struct ocl_mem_need *need);
/*
 * Where the engine's buffers live decides what limits them
 * (doc/manycore.md, "Where memory is judged"): on a zero-copy device (a CPU
 * device: POCL) they are the process's own pages, and the limit is what
 * the host can give now (hostmem.h: MemAvailable, the cgroup's room,
 * strict overcommit), whatever the device reports as its global memory;
 * elsewhere (a GPU) the device's global memory.  One buffer is always
 * bounded by the device's largest allocation, which POCL enforces too
 * (shared stacks are cut into chunks of it).  The engine's plan and
 * micdb bench both decide by this.
 */
struct ocl_mem_bound {
	uint64_t	 bytes;
	const char	*name;     /* "MemAvailable", "the cgroup's memory.max",
				      ..., "the device's global memory" */
	int		 host;     /* 1: the host's memory */
};
struct ocl_mem_limit {
	struct ocl_mem_bound buffers;   /* the engine's buffers in all */
	struct ocl_mem_bound host;      /* what the host can give (bytes
					   UINT64_MAX where /proc could not
					   be read) */
	uint64_t	 max_alloc;     /* one buffer */
};
/* The limits on a device of this kind (gpu as for engine_ocl_mem_need)
 * that reports global_mem and max_alloc, with MICDB_OCL_TEST's device_mib,
 * alloc_kib and host_mib applied as engine_ocl_create applies them. */
void	engine_ocl_mem_limit(int gpu, uint64_t global_mem, uint64_t max_alloc,
	    struct ocl_mem_limit *lim);
/* need bytes for ncores cores against a bound: NULL where they fit, else
 * the refusal, which names the bound, its size and what to lower
 * (malloc'd). */
char	*engine_ocl_mem_refusal(const struct ocl_mem_bound *b,
	    uint32_t ncores, uint64_t need);
/* "platform / device" of the engine. */
const char *engine_ocl_device_name(struct engine *e);

#endif
