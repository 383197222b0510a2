/*
 * The reference interpreter (ref.c) behind the engine contract: the ISA
 * level's golden model.  Memory is the machine's own, so reads and writes
 * are direct and there is nothing to synchronise; runs go through the
 * host engines' loop (engine.c), which checks the stop conditions at
 * every step boundary.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ref.h"

static void
ref_step_fn(void *arg, struct machine *m, const struct ref_mask *mask,
    struct ref_summary *sum)
{
	(void)arg;
	ref_step(m, mask, sum);
}

static int
ref_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	(void)cause;
	return engine_host_run(e, r, stop, ref_step_fn, NULL, e->impl,
	    ENGINE_BP_ON_PC);
}

static void
ref_free(struct engine *e)
{
	free(e->impl);
	engine_release(e);
}

/* The machine is the engine's whole state: only the faults already
 * reported need to match the restored cut. */
static int
ref_save(struct engine *e, void *out, size_t *bytes, char **cause)
{
	(void)e;
	(void)out;
	(void)cause;
	*bytes = 0;
	return 0;
}

static int
ref_load(struct engine *e, const void *side, char **cause)
{
	uint8_t *seen = e->impl;

	(void)side;
	(void)cause;
	for (uint32_t c = 0; c < e->m->cfg.ncores; c++)
		seen[c] = e->m->cores[c].status == CORE_ERROR;
	return 0;
}

static const struct engine_ops ref_ops = {
	.name = "ref",
	.kind = ENGINE_REF,
	.level = LEVEL_ISA,
	.run = ref_run,
	.read_words = engine_host_read_words,
	.write_word = engine_host_write_word,
	.push_cores = engine_host_nothing,
	.sync_memory = engine_host_nothing,
	.add_input = engine_host_add_input,
	.save = ref_save,
	.load = ref_load,
	.free = ref_free,
};

int
engine_ref_create(struct engine *e, struct machine *m, char **cause)
{
	(void)cause;
	memset(e, 0, sizeof *e);
	e->ops = &ref_ops;
	e->m = m;
	e->impl = xcalloc(m->cfg.ncores, 1);	/* faults already reported */
	return 0;
}
