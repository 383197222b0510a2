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
 * The engine that runs a machine of ncores at level: kind itself, or
 * for ENGINE_DEFAULT the fastest for the core count and the OpenCL
 * device (device_sel as engine_ocl_create reads it): the native
 * engines, one host thread each, up to LEVEL_NATIVE_MAX_CORES_GPU, and
 * up to LEVEL_NATIVE_MAX_CORES when the device is a CPU, whose kernels
 * do not gain on them before the copies of the stacks the ISA engine's
 * run-ahead windows take grow too large; the kernels above.  micdb(1)
 * states the rule under --engine; doc/performance.md sections 15 and 18
 * have the measurements behind both limits.
 */
#define LEVEL_NATIVE_MAX_CORES 32768
#define LEVEL_NATIVE_MAX_CORES_GPU 512
enum engine_kind level_engine_choose(enum level level, enum engine_kind kind,
	    uint32_t ncores, const char *device_sel);

/*
 * Make the engine that runs m at level with kind (device: --device, may
 * be NULL); mc is the level's loaded microprogram (NULL at the ISA
 * level) and must outlive the engine.  0, or -1 + *cause saying what
 * this build cannot do and what to use instead.
 */
int	level_engine_open(struct engine *e, struct machine *m,
	    enum level level, enum engine_kind kind, const char *device,
	    const struct microcode *mc, char **cause);

#endif
