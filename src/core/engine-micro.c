/*
 * The host engine of the micro levels (engine-micro.h).  Like the
 * reference engine, memory is the machine's own, so reads and writes are
 * direct and there is nothing to synchronise; a run steps micro-cycles
 * through the level's model and checks the stop conditions after every
 * one of them (engine.c), so that every stop is a consistent cut in
 * micro-steps.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine-micro.h"
#include "micro-sim.h"

struct engine_micro {
	const struct micro_model	*md;
	void				*st;       /* md->state_size bytes */
	uint8_t				*seen;     /* per core: fault reported */
};

static void *
micro_state(struct engine *e)
{
	return ((struct engine_micro *)e->impl)->st;
}

static int
micro_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct engine_micro *em = e->impl;

	(void)cause;
	return engine_host_run(e, r, stop, em->md->step, em->st, em->seen,
	    ENGINE_BP_ON_MPC);
}

static void
micro_free(struct engine *e)
{
	struct engine_micro *em = e->impl;

	if (em != NULL) {
		em->md->state_free(em->st);
		free(em->st);
		free(em->seen);
		free(em);
	}
	free(e->stop_cores);
	free(e->stop_bps);
	memset(e, 0, sizeof *e);
}

static int
micro_save(struct engine *e, void *out, size_t *bytes, char **cause)
{
	struct engine_micro *em = e->impl;
	void *side = em->md->side(em->st, bytes);

	(void)cause;
	if (out != NULL)
		memcpy(out, side, *bytes);
	return 0;
}

static int
micro_load(struct engine *e, const void *side, char **cause)
{
	struct engine_micro *em = e->impl;
	size_t bytes;
	void *st = em->md->side(em->st, &bytes);

	(void)cause;
	if (side != NULL)
		memcpy(st, side, bytes);
	for (uint32_t c = 0; c < e->m->cfg.ncores; c++)
		em->seen[c] = e->m->cores[c].status == CORE_ERROR;
	return 0;
}

static int
micro_at_boundary(struct engine *e, uint32_t core)
{
	struct engine_micro *em = e->impl;

	return em->md->at_boundary(em->st, e->m, core);
}

#define MICRO_OPS(name_, level_) {					\
	.name = (name_),						\
	.kind = ENGINE_REF,						\
	.level = (level_),						\
	.run = micro_run,						\
	.read_words = engine_host_read_words,				\
	.write_word = engine_host_write_word,				\
	.push_cores = engine_host_nothing,				\
	.sync_memory = engine_host_nothing,				\
	.add_input = engine_host_add_input,				\
	.at_boundary = micro_at_boundary,				\
	.save = micro_save,						\
	.load = micro_load,						\
	.level_state = micro_state,					\
	.free = micro_free,						\
}

static const struct engine_ops micro_ops[NLEVEL] = {
	[LEVEL_MIC] = MICRO_OPS("mic", LEVEL_MIC),
	[LEVEL_PMIC] = MICRO_OPS("pmic", LEVEL_PMIC),
};

int
engine_micro_create(struct engine *e, struct machine *m, enum level level,
    const void *cs, char **cause)
{
	const struct micro_model *md = micro_model_of(level);
	struct engine_micro *em;

	memset(e, 0, sizeof *e);
	if (md == NULL) {
		*cause = xasprintf("the %s level has no micro model",
		    level_name(level));
		return -1;
	}
	em = xcalloc(1, sizeof *em);
	em->md = md;
	em->st = xcalloc(1, md->state_size);
	em->seen = xcalloc(m->cfg.ncores, 1);
	micro_attach(md, em->st, m, cs, em->seen);
	e->ops = &micro_ops[level];
	e->m = m;
	e->impl = em;
	return 0;
}
