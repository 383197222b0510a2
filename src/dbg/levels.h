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
 * The engine that runs a machine of ncores at level on threads host
 * threads (0: par_cpus(), the threads this process may use): kind
 * itself, or for ENGINE_DEFAULT the fastest for the core count, the
 * threads and the OpenCL device (device_sel as engine_ocl_create reads
 * it).  On a GPU: the native engines up to LEVEL_NATIVE_MAX_CORES_GPU,
 * the kernels above.  On a CPU device (POCL), whose kernels share the
 * same processors: the native engines at every core count when they
 * have two threads or more, and with one up to LEVEL_NATIVE_MAX_CORES,
 * where the copies of the stacks the run-ahead windows take grow too
 * large for one thread.  micdb(1) states the rule under --engine;
 * doc/performance.md sections 15, 18 and 19 have the measurements.
 */
#define LEVEL_NATIVE_MAX_CORES 32768
#define LEVEL_NATIVE_MAX_CORES_GPU 512
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
