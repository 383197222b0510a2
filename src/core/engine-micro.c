/*
 * The host engines of the micro levels (engine-micro.h).  Like the
 * reference engine, memory is the machine's own, so reads and writes are
 * direct and there is nothing to synchronise.
 *
 * The reference kind steps micro-cycles through the level's model and
 * checks the stop conditions after every one of them (engine.c), so that
 * every stop is a consistent cut in micro-steps.
 *
 * The native kind keeps the same model state (so level switches, save
 * and load are the model's) but runs cycles with the level's fast loop
 * (micro-fast.h).  When one core alone can run, every step is one cycle
 * of that core and it runs a long slice in the fast loop, which stops by
 * itself at a breakpoint or when the core stops running.  With more,
 * the steps go by run-ahead windows (micro-ahead.c): each core runs its
 * private cycles alone and the shared ones in micro_step's order, so
 * a window ends where lockstep would; a window that a stop cut short is
 * undone and its steps up to the stop run in lockstep, each global step
 * one cycle of each running core in core-id order, then the barrier
 * release, exactly as micro_step.  Breakpoints are asked only of cores
 * on a marked word, so a breakpoint on a word the program never reaches
 * (micdb run's input breakpoint) costs nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ahead.h"
#include "engine-micro.h"
#include "micro-fast.h"
#include "micro-sim.h"

struct engine_micro {
	const struct micro_model	*md;
	void				*st;       /* md->state_size bytes */
	uint8_t				*seen;     /* per core: fault reported */
	const struct micro_fast		*fast;     /* native kind only */
	void				*fx;       /* its decoded store */
	struct ahead			 ahead;    /* its windows */
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

/* Cycles of a lone core between looks at the interrupt flag. */
#define MICRO_SLICE (1u << 20)

static int
micro_fast_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct engine_micro *em = e->impl;
	const struct micro_fast *mf = em->fast;
	struct machine *m = e->m;
	struct ref_summary sum;
	uint32_t solo = 0, nrun = 0;
	uint64_t lockstep_to = 0, window;
	int changed = 1;

	/* The machine's fork-join cycles (micro_fork_cycle) come at the
	 * model's instruction boundaries, which the fast loops do not look
	 * for: a fork-join machine runs on the golden model's steps. */
	if (m->fork_join)
		return micro_run(e, r, stop, cause);
	(void)cause;
	engine_stop_reset(e, stop);
	ref_count(m, &sum);
	if (sum.running + sum.waiting == 0) {
		stop->reason = STOP_DONE;
		return 0;
	}
	mf->patch(em->fx, r, 1);
	/* a window's copy costs the stacks: many steps pay for it */
	window = 4 * (uint64_t)MICRO_SLICE / m->cfg.ncores;
	if (window < 4 * AHEAD_STACK_MARGIN)
		window = 4 * AHEAD_STACK_MARGIN;
	while (stop->steps_run < r->max_steps) {
		uint64_t left = r->max_steps - stop->steps_run, k;
		uint32_t executed = 0, faulted = sum.faulted;
		int atbp = 0;
		enum micro_fast_ev ev;

		if (r->interrupt != NULL && *r->interrupt) {
			stop->reason = STOP_INTERRUPT;
			goto done;
		}
		if (changed) {
			/* the cores that run change only with a status */
			nrun = engine_runnable(m, r->mask, &solo);
			changed = 0;
		}
		/* a watch stops after the step that wrote: no window */
		if (nrun > 1 && r->nwatches == 0 && left >= AHEAD_MIN &&
		    stop->steps_run >= lockstep_to) {
			uint64_t to = 0;

			k = micro_ahead(e, &em->ahead, em->md, em->st, mf,
			    em->fx, r, left < window ? left : window, &to);
			if (k == 0) {
				/* undone: lockstep up to the stop */
				lockstep_to = stop->steps_run + to;
				continue;
			}
			m->step += k;
			stop->steps_run += k;
			executed = 1;
			changed = 1;
			atbp = r->nbps > 0;
		} else if (nrun == 1) {
			/* Each cycle of the lone core is a step. */
			if (left > MICRO_SLICE)
				left = MICRO_SLICE;
			k = mf->exec(e, em->fx, em->st, r, solo, left,
			    stop->steps_run == 0, &ev);
			m->step += k;
			stop->steps_run += k;
			executed = k > 0;
			atbp = ev == MF_EV_BP || ev == MF_EV_MARKED;
			changed = ev == MF_EV_STATUS;
		} else {
			executed = mf->lockstep(e, em->fx, em->st, r,
			    &changed, &atbp);
			m->step++;
			stop->steps_run++;
		}
		/* cores a barrier lets go may stand at a breakpoint */
		if (changed || nrun == 0) {
			if (ref_barrier_release(m) && r->nbps > 0)
				atbp = 1;
			ref_count(m, &sum);
			changed = 1;
		}
		if (sum.faulted > faulted) {
			engine_note_faults(e, em->seen, stop, r->stop_on_fault);
			if (r->stop_on_fault) {
				stop->reason = STOP_FAULT;
				goto done;
			}
		}
		if (sum.running + sum.waiting == 0) {
			stop->reason = STOP_DONE;
			goto done;
		}
		if (executed == 0 && !atbp) {
			stop->reason = STOP_DEADLOCK;
			goto done;
		}
		if (atbp && engine_check_bps(e, r, stop, ENGINE_BP_ON_MPC)) {
			stop->reason = STOP_BREAKPOINT;
			goto done;
		}
	}
	stop->reason = STOP_STEPS;
done:
	mf->patch(em->fx, r, 0);
	return 0;
}

static void
micro_free(struct engine *e)
{
	struct engine_micro *em = e->impl;

	if (em != NULL) {
		if (em->fast != NULL)
			em->fast->free(em->fx);
		ahead_free(&em->ahead);
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

#define MICRO_OPS(name_, kind_, run_, level_) {			\
	.name = (name_),						\
	.kind = (kind_),						\
	.level = (level_),						\
	.run = (run_),							\
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
	[LEVEL_MIC] = MICRO_OPS("mic", ENGINE_REF, micro_run, LEVEL_MIC),
	[LEVEL_PMIC] = MICRO_OPS("pmic", ENGINE_REF, micro_run, LEVEL_PMIC),
};

static const struct engine_ops micro_fast_ops[NLEVEL] = {
	[LEVEL_MIC] = MICRO_OPS("native-mic", ENGINE_NATIVE, micro_fast_run,
	    LEVEL_MIC),
	[LEVEL_PMIC] = MICRO_OPS("native-pmic", ENGINE_NATIVE, micro_fast_run,
	    LEVEL_PMIC),
};

int
engine_micro_native_create(struct engine *e, struct machine *m,
    enum level level, const void *cs, char **cause)
{
	struct engine_micro *em;

	if (engine_micro_create(e, m, level, cs, cause) != 0)
		return -1;
	em = e->impl;
	em->fast = level == LEVEL_MIC ? &mic1_fast : &pmic_fast;
	em->fx = em->fast->create(cs);
	e->ops = &micro_fast_ops[level];
	return 0;
}

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
