/*
 * The one place that makes an engine for a level (ISA, Mic-1, PMIC) and
 * kind (engine.h): micdb run, the debugger's front ends
 * (set level) and bench all go through level_engine_open, so that a new
 * engine for a level is one case here and nowhere else.
 */
#ifndef MICDB_LEVELS_H
#define MICDB_LEVELS_H

#include "engine.h"
#include "microcode.h"

/* The engine kind meant by kind at level: kind itself, or for
 * ENGINE_DEFAULT the one this build prefers (doc/debugger.md: opencl). */
enum engine_kind level_engine_kind(enum level level, enum engine_kind kind);

/*
 * The default engine's rule (micdb(1) under --engine, doc/debugger.md,
 * doc/performance.md section 23): what it reads of the OpenCL device
 * (ocl.h's struct ocl_device), and the core count from which it picks
 * the device's kernels over the native engines on threads host threads.
 * A CPU device (POCL) runs its kernels on the processors the native
 * threads would use, a work-group of cores at a time on each compute
 * unit, each unit running the GPU-shaped kernel LEVEL_CPU_RATIO times
 * slower than a native thread runs the level (many times more where the
 * native engines run translated into machine code, x64.h): its kernels
 * win only where its units outnumber that many times the threads and
 * the cores fill them.  A GPU's lane runs a core LEVEL_GPU_LANES times
 * slower than a native thread, and a GPU has lanes for far more cores
 * than these: its kernels win from LEVEL_GPU_LANES x threads cores.  Both
 * ratios are properties of the engines' code, not of one machine
 * (doc/performance.md sections 23 and 24.10 have them on two CPUs and a
 * GPU); micdb bench reports the crossover it measures beside the rule's.
 */
struct level_device {
	int		 present;    /* 0: no usable OpenCL device */
	int		 cpu;        /* CL_DEVICE_TYPE_CPU */
	uint32_t	 units;      /* CL_DEVICE_MAX_COMPUTE_UNITS */
	uint32_t	 group;      /* cores of its work-groups (ocl-engine.h) */
	int		 translated; /* the native engines run translated
				        here (x64_usable) */
};
#define LEVEL_CPU_RATIO(level, translated) ((translated) ?		\
	((level) == LEVEL_ISA ? 32u : 16u) : ((level) == LEVEL_ISA ? 4u : 2u))
#define LEVEL_GPU_LANES(level, translated) ((translated) ?		\
	((level) == LEVEL_ISA ? 128u : 256u) :				\
	((level) == LEVEL_ISA ? 64u : 32u))
/* The fewest cores for which the rule picks OpenCL at level on threads
 * (at least 1) host threads and dev; UINT32_MAX: never. */
uint32_t level_engine_crossover(enum level level, uint32_t threads,
	    const struct level_device *dev);
/* dev for device_sel (as engine_ocl_create reads it; present 0 without
 * one, or without OpenCL in this build). */
void	level_engine_device(const char *device_sel, struct level_device *dev);

/*
 * The engine that runs a machine of ncores at level on threads host
 * threads (0: par_cpus(), the threads this process may use): kind
 * itself, or for ENGINE_DEFAULT the native engines below
 * level_engine_crossover's core count for the device device_sel picks,
 * OpenCL from there (native at every count where this build has no
 * kernels for the level).
 */
enum engine_kind level_engine_choose(enum level level, enum engine_kind kind,
	    uint32_t ncores, uint32_t threads, const char *device_sel);

/*
 * Make the engine that runs m at level with kind (device: --device, may
 * be NULL) on threads host threads (--threads; 0: par_cpus()); mc is
 * the level's loaded microprogram (NULL at the ISA level) and must
 * outlive the engine.  0, or -1 + *cause saying what this build cannot
 * do and what to use instead.
 */
int	level_engine_open(struct engine *e, struct machine *m,
	    enum level level, enum engine_kind kind, const char *device,
	    uint32_t threads, const struct microcode *mc, char **cause);
/* The threads an engine of --threads threads runs on: threads, or for 0
 * the threads this process may use (par_cpus). */
uint32_t level_threads(uint32_t threads);

/*
 * The OpenCL engine's memory plan, for bench to refuse a core count
 * before it allocates anything (engine-ocl.h has the structs and the
 * rules, doc/manycore.md "Where memory is judged"), through the factory
 * so that no front end calls the engine by name: what an engine at level
 * over a machine of cfg needs on a device of this kind (the level's
 * engine, as level_engine_open makes it), the limits such a device sets,
 * and a need against one of them (NULL where it fits, else the refusal,
 * malloc'd).  Builds with the OpenCL engine only.
 */
struct ocl_mem_need;
struct ocl_mem_limit;
struct ocl_mem_bound;
void	level_ocl_mem_need(enum level level, const struct machine_config *cfg,
	    const struct program *const *progs, size_t nprogs, int gpu,
	    size_t max_wg, struct ocl_mem_need *need);
void	level_ocl_mem_limit(int gpu, uint64_t global_mem, uint64_t max_alloc,
	    struct ocl_mem_limit *lim);
char	*level_ocl_mem_refusal(const struct ocl_mem_bound *b, uint32_t ncores,
	    uint64_t need);

#endif
