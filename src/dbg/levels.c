/*
 * The engine factory of levels.h.
 */
#include <stdlib.h>
#include <string.h>

#include "engine-micro.h"
#include "levels.h"
#include "par.h"
#include "util.h"
#include "x64.h"
#ifdef HAVE_ENGINE_OCL
#include "engine-ocl.h"
#include "engine-ocl-mic.h"
#include "engine-ocl-pmic.h"
#endif

/* The OpenCL kernels are the default where this build has them for the
 * level; without them every level runs natively. */
enum engine_kind
level_engine_kind(enum level level, enum engine_kind kind)
{
	if (kind != ENGINE_DEFAULT)
		return kind;
#ifdef HAVE_ENGINE_OCL
	if (level == LEVEL_ISA || level == LEVEL_MIC || level == LEVEL_PMIC)
		return ENGINE_OPENCL;
#endif
	(void)level;
	return ENGINE_NATIVE;
}

uint32_t
level_threads(uint32_t threads)
{
	return threads > 0 ? threads : par_cpus();
}

uint32_t
level_engine_crossover(enum level level, uint32_t threads,
    const struct level_device *dev)
{
	uint64_t t = threads > 0 ? threads : 1, r;

	if (dev->present && dev->cpu) {
		/* native on min(t, cores / AHEAD_PAR_ITEMS) threads against
		 * POCL on min(units, cores / group) units, each worth
		 * 1 / LEVEL_CPU_RATIO of a thread: while the native side
		 * has cores for fewer than t threads, POCL has them for
		 * fewer units (its groups are larger), so it can win only
		 * where its full units outweigh the t threads */
		r = LEVEL_CPU_RATIO(level, dev->translated) * t;
		if (dev->units <= r)
			return UINT32_MAX;
		r = r * (dev->group > 0 ? dev->group : 1) + 1;
	} else	/* a GPU, another kind, or none (OpenCL then says why) */
		r = (uint64_t)LEVEL_GPU_LANES(level, dev->translated) * t;
	return r < UINT32_MAX ? (uint32_t)r : UINT32_MAX;
}

void
level_engine_device(const char *device_sel, struct level_device *dev)
{
	memset(dev, 0, sizeof *dev);
	dev->translated = x64_usable();
#ifdef HAVE_ENGINE_OCL
	{
		int cpu;
		uint32_t units, group;

		if (engine_ocl_device_props(device_sel, &cpu, &units,
		    &group) == 0) {
			dev->present = 1;
			dev->cpu = cpu;
			dev->units = units;
			dev->group = group;
		}
	}
#else
	(void)device_sel;
#endif
}

enum engine_kind
level_engine_choose(enum level level, enum engine_kind kind,
    uint32_t ncores, uint32_t threads, const char *device_sel)
{
	struct level_device dev;

	if (kind != ENGINE_DEFAULT)
		return kind;
	if (level_engine_kind(level, kind) == ENGINE_NATIVE)
		return ENGINE_NATIVE;
	/* below a GPU's crossover, the lower of the two, no device wins:
	 * only a machine that large asks the device (a small one opens no
	 * OpenCL platform) */
	if (ncores < level_engine_crossover(level, level_threads(threads),
	    &(struct level_device){ 0, 0, 0, 0, 0 }))
		return ENGINE_NATIVE;
	level_engine_device(device_sel, &dev);
	/* no OpenCL device and none asked for: the native engines run every
	 * size, where an error would leave a machine without OpenCL with
	 * nothing; a --device (or MICDB_DEVICE) that names none still
	 * fails, naming it */
	if (device_sel == NULL)
		device_sel = getenv("MICDB_DEVICE");
	if (!dev.present && (device_sel == NULL || *device_sel == '\0'))
		return ENGINE_NATIVE;
	if (ncores < level_engine_crossover(level, level_threads(threads),
	    &dev))
		return ENGINE_NATIVE;
	return level_engine_kind(level, kind);
}

/* The native engines run on the threads asked for. */
static int
level_threaded(struct engine *e, uint32_t threads, int rc)
{
	if (rc == 0)
		engine_set_threads(e, level_threads(threads));
	return rc;
}

int
level_engine_open(struct engine *e, struct machine *m, enum level level,
    enum engine_kind kind, const char *device, uint32_t threads,
    const struct microcode *mc, char **cause)
{
	kind = level_engine_choose(level, kind, m->cfg.ncores, threads,
	    device);
	if (level != LEVEL_ISA && (mc == NULL || !mc->loaded ||
	    mc->level != level)) {
		*cause = xasprintf("no microprogram is loaded for the %s level",
		    level_name(level));
		return -1;
	}
	switch (level) {
	case LEVEL_ISA:
		if (kind == ENGINE_REF)
			return engine_ref_create(e, m, cause);
		if (kind == ENGINE_NATIVE)
			return level_threaded(e, threads,
			    engine_native_create(e, m, cause));
#ifdef HAVE_ENGINE_OCL
		return engine_ocl_create(e, m, device, cause);
#else
		(void)device;
		*cause = xasprintf("the OpenCL engine is not part of this "
		    "build: use --engine ref");
		return -1;
#endif
	case LEVEL_MIC:
		if (kind == ENGINE_NATIVE)
			return level_threaded(e, threads,
			    engine_micro_native_create(e, m, level, &mc->cs,
			    cause));
		if (kind == ENGINE_REF)
			return engine_micro_create(e, m, level, &mc->cs, cause);
#ifdef HAVE_ENGINE_OCL
		return engine_ocl_mic_create(e, m, &mc->cs, device, cause);
#else
		*cause = xasprintf("the micro level runs on the reference "
		    "engine only in this build: use --engine ref");
		return -1;
#endif
	case LEVEL_PMIC:
		if (kind == ENGINE_NATIVE)
			return level_threaded(e, threads,
			    engine_micro_native_create(e, m, level, &mc->pcs,
			    cause));
		if (kind == ENGINE_REF)
			return engine_micro_create(e, m, level, &mc->pcs, cause);
#ifdef HAVE_ENGINE_OCL
		return engine_ocl_pmic_create(e, m, &mc->pcs, device, cause);
#else
		*cause = xasprintf("the PMIC level runs on the reference "
		    "engine only in this build: use --engine ref");
		return -1;
#endif
	}
	*cause = xasprintf("the %s level is not part of this build (use "
	    "--level isa or --level mic)", level_name(level));
	return -1;
}

#ifdef HAVE_ENGINE_OCL
void
level_ocl_mem_need(enum level level, const struct machine_config *cfg,
    const struct program *const *progs, size_t nprogs, int gpu,
    size_t max_wg, struct ocl_mem_need *need)
{
	switch (level) {
	case LEVEL_MIC:
		engine_ocl_mic_mem_need(cfg, progs, nprogs, gpu, max_wg, need);
		break;
	case LEVEL_PMIC:
		engine_ocl_pmic_mem_need(cfg, progs, nprogs, gpu, max_wg, need);
		break;
	case LEVEL_ISA:
		engine_ocl_mem_need(cfg, progs, nprogs, gpu, max_wg, need);
		break;
	}
}

void
level_ocl_mem_limit(int gpu, uint64_t global_mem, uint64_t max_alloc,
    struct ocl_mem_limit *lim)
{
	engine_ocl_mem_limit(gpu, global_mem, max_alloc, lim);
}

char *
level_ocl_mem_refusal(const struct ocl_mem_bound *b, uint32_t ncores,
    uint64_t need)
{
	return engine_ocl_mem_refusal(b, ncores, need);
}
#endif
