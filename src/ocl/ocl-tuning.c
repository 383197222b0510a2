/*
 * The tuning table (ocl-engine.h), below every other file of the engine.
 *
 * Every choice that differs by device is made once, here, in struct
 * ocl_tuning (ocl_tuning_init): layouts, zero-copy, work-group target,
 * the ISA kernel's dispatch, vote and register cap, the records' fold,
 * the prefetch, the mirror, the host's threads; MICDB_OCL_TEST overrides
 * entries for tests, so that POCL runs every device's paths.  Nothing
 * else in the engine reads the environment.  The creation (ocl-setup.c)
 * fills it for the device; the memory figures (ocl-buffers.c) fill it
 * for a kind of device before there is an engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl-engine.h"
#include "par.h"

/* ---- the tuning table ------------------------------------------------ */

/* The keys of MICDB_OCL_TEST, in struct ocl_tuning's order.  A key is
 * here only when some device takes its path by default and a test must
 * reach that path on POCL; the alternatives no device took (wg,
 * warpsync=2, share_stacks) are gone, doc/performance.md section 20. */
enum {
	TK_LAYOUT, TK_ZERO_COPY, TK_IO_CAP, TK_DISPATCH, TK_MIRROR,
	TK_HOST_THREADS, TK_CONVERT_MIN, TK_STEPS, TK_DRIFT, TK_DEVICE_MIB,
	TK_ALLOC_KIB, TK_HOST_MIB, TK_TRACE, TK_TRACE_STEPS, TK_N
};

static const struct tuning_key {
	const char	*name;
	const char	*words[2];     /* values 0 and 1 by name, or NULL */
	unsigned long	 min, max;
} tuning_keys[TK_N] = {
	[TK_LAYOUT] = { "layout", { "cpu", "gpu" }, 0, 1 },
	[TK_ZERO_COPY] = { "zero_copy", { NULL, NULL }, 0, 1 },
	[TK_IO_CAP] = { "io_cap", { NULL, NULL }, 1, 65536 },
	[TK_DISPATCH] = { "dispatch", { "switch", "template" }, 0, 1 },
	[TK_MIRROR] = { "mirror", { NULL, NULL }, 0, 1 },
	[TK_HOST_THREADS] = { "host_threads", { NULL, NULL }, 1,
	    PAR_MAX },
	[TK_CONVERT_MIN] = { "convert_min", { NULL, NULL }, 1, UINT32_MAX },
	[TK_STEPS] = { "k", { NULL, NULL }, 1, K_MAX },
	[TK_DRIFT] = { "drift", { NULL, NULL }, 0, 1 },
	[TK_DEVICE_MIB] = { "device_mib", { NULL, NULL }, 1, 1ul << 30 },
	[TK_ALLOC_KIB] = { "alloc_kib", { NULL, NULL }, 1, 1ul << 30 },
	[TK_HOST_MIB] = { "host_mib", { NULL, NULL }, 1, 1ul << 30 },
	[TK_TRACE] = { "trace", { NULL, NULL }, 0, 1 },
	[TK_TRACE_STEPS] = { "trace_steps", { NULL, NULL }, 1,
	    OCL_TRACE_STEPS },
};

/* "key=value,...": the values in v, the keys given in *set.  -1 with
 * *cause naming the key and what it takes. */
static int
tuning_parse(const char *spec, unsigned long *v, unsigned *set, char **cause)
{
	char *copy = xstrdup(spec), *p, *next, *item, *eq;
	char keys[256];
	int rc = 0;

	*set = 0;
	keys[0] = '\0';
	for (int k = 0; k < TK_N; k++)
		snprintf(keys + strlen(keys), sizeof keys - strlen(keys),
		    "%s%s", k ? ", " : "", tuning_keys[k].name);
	for (p = copy; rc == 0 && p != NULL; p = next) {
		const struct tuning_key *t = NULL;
		int k;

		item = p;
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		if (*item == '\0')
			continue;
		if ((eq = strchr(item, '=')) != NULL)
			*eq++ = '\0';
		for (k = 0; k < TK_N && t == NULL; k++)
			if (strcmp(item, tuning_keys[k].name) == 0)
				t = &tuning_keys[k];
		k--;
		if (t == NULL) {
			*cause = xasprintf("MICDB_OCL_TEST: unknown key \"%s\" "
			    "(the keys: %s)", item, keys);
			rc = -1;
		} else if (eq != NULL && t->words[0] != NULL &&
		    (strcmp(eq, t->words[0]) == 0 ||
		    strcmp(eq, t->words[1]) == 0)) {
			v[k] = strcmp(eq, t->words[1]) == 0;
			*set |= 1u << k;
		} else if (eq != NULL && t->words[0] == NULL &&
		    parse_uint_option(eq, t->min, t->max, &v[k]) == 0) {
			*set |= 1u << k;
		} else if (t->words[0] != NULL) {
			*cause = xasprintf("MICDB_OCL_TEST: %s takes %s or %s",
			    t->name, t->words[0], t->words[1]);
			rc = -1;
		} else {
			*cause = xasprintf("MICDB_OCL_TEST: %s takes a number "
			    "from %lu to %lu", t->name, t->min, t->max);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

int
ocl_tuning_init(struct ocl_tuning *t, int gpu, int cpu, int nv,
    char **cause)
{
	const char *spec = getenv("MICDB_OCL_TEST");
	unsigned long v[TK_N];
	unsigned set = 0;
	uint32_t cpus = par_cpus();
	int rc = 0;

	if (spec != NULL && tuning_parse(spec, v, &set, cause) != 0) {
		set = 0;
		rc = -1;
	}
#define PICK(k, def) ((set & (1u << (k))) ? v[k] : (unsigned long)(def))
	t->gpu_layout = (int)PICK(TK_LAYOUT, gpu);
	t->zero_copy = (int)PICK(TK_ZERO_COPY, cpu);
	t->wg_target = t->gpu_layout ? OCL_WG_GPU : OCL_WG_CPU;
	t->io_cap = (uint32_t)PICK(TK_IO_CAP, 0);
	t->isa_template = (int)PICK(TK_DISPATCH, nv);
	t->isa_vote = nv;
	t->isa_maxrreg = nv ? 64 : 0;
	t->warpsync = nv;
	t->prefetch = gpu ? 0 : 8;
	t->mirror = (int)PICK(TK_MIRROR, !gpu);
	t->host_threads = (uint32_t)PICK(TK_HOST_THREADS,
	    cpus > PAR_MAX ? PAR_MAX : cpus);
	t->convert_min = (uint32_t)PICK(TK_CONVERT_MIN,
	    (uint64_t)OCL_CONVERT_SHARE * t->host_threads);
	t->steps = PICK(TK_STEPS, 0);
	t->drift = (int)PICK(TK_DRIFT, 0);
	t->trace = (int)PICK(TK_TRACE, 1);
	t->trace_steps = (uint32_t)PICK(TK_TRACE_STEPS, OCL_TRACE_STEPS);
	t->device_mib = PICK(TK_DEVICE_MIB, 0);
	t->alloc_kib = PICK(TK_ALLOC_KIB, 0);
	t->host_mib = PICK(TK_HOST_MIB, 0);
#undef PICK
	return rc;
}
