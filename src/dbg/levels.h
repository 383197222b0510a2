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
 * for ENGINE_DEFAULT the fastest for the core count.  At the ISA level
 * the native engine (one host thread, its cores running ahead of each
 * other between shared instructions) beats the OpenCL kernels on POCL
 * at every count micdb bench measured it, up to LEVEL_NATIVE_MAX_CORES
 * (micdb(1) says how that was found, doc/performance.md section 15 has
 * the figures); above, the kernels use every thread of the device and
 * the native engine's copy of the stacks for its windows grows.
 */
#define LEVEL_NATIVE_MAX_CORES 32768
enum engine_kind level_engine_choose(enum level level, enum engine_kind kind,
	    uint32_t ncores);

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
