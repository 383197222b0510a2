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
 *
 * The native kind watches (ops->watch): the fast loops look for a change
 * only after a WRITE to a watched word, a cycle of the golden model or
 * a watching core's LV below its frame (struct micro_fast_watch), and
 * the run ends after the step that left a watched word changed, naming
 * that step's writers as the debugger's one-step watch does
 * (mic1_writers; at the PMIC level it names none).  While something is
 * watched, many cores step in lockstep, not by windows; a fork-join
 * machine runs one golden-model step at a time.
 *
 * The native kind's windows run their private runs on the engine's
 * host threads (ops->set_threads, ahead.c): results are the same at any
 * thread count.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ahead.h"
#include "engine-micro.h"
#include "mic1.h"
#include "micro-fast.h"
#include "micro-sim.h"
#include "par.h"
#include "ref.h"

struct engine_micro {
	const struct micro_model	*md;
	void				*st;       /* md->state_size bytes */
	uint8_t				*seen;     /* per core: fault reported */
	const struct micro_fast		*fast;     /* native kind only */
	void				*fx;       /* its decoded store */
	struct ahead			 ahead;    /* its windows */
	struct par_pool			*pool;     /* their threads (NULL:
						      one) */
	struct micro_fast_watch		 watch;    /* the run's, for fx */
	struct engine_writer		*writers;  /* of a watched stop */
	size_t				 nwriters, capwriters;
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

/* The watch record of a run of r for the fast loops. */
static void
micro_watch_begin(struct engine_micro *em, const struct machine *m,
    const struct engine_run *r)
{
	struct micro_fast_watch *w = &em->watch;

	w->r = r->nwatches > 0 ? r : NULL;
	w->nword = 0;
	w->every = 0;
	w->hit = 0;
	if (w->r == NULL)
		return;
	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		w->frame[c] = INT32_MIN;
	for (size_t i = 0; i < r->nwatches; i++) {
		const struct engine_watch *ew = &r->watches[i];
		const int32_t *word;
		int writable;

		if (ew->frame > w->frame[ew->core])
			w->frame[ew->core] = ew->frame;
		word = machine_word_at(m, ew->core, ew->addr, &writable);
		if (word == NULL || w->nword == MF_NWATCH)
			w->every = 1;
		else
			w->word[w->nword++] = word;
	}
}

/* The end of a run: a watched word changed in its last step? */
static void
micro_watch_end(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop)
{
	struct engine_micro *em = e->impl;

	em->watch.r = NULL;
	if (r->nwatches == 0 || !engine_watch_changed(e->m, r))
		return;
	stop->watched = 1;
	em->nwriters = 0;
	if (em->md->level == LEVEL_MIC)
		mic1_writers(em->st, e->m, r->mask, &em->writers,
		    &em->nwriters, &em->capwriters);
	stop->writers = em->writers;
	stop->nwriters = em->nwriters;
}

/* A fork-join machine with a watch: one golden-model step per run. */
static int
micro_forkjoin_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct engine_run one = *r;
	uint64_t steps = 0;

	one.max_steps = 1;
	do {
		if (micro_run(e, &one, stop, cause) != 0)
			return -1;
		steps += stop->steps_run;
	} while (stop->reason == STOP_STEPS && steps < r->max_steps &&
	    !engine_watch_changed(e->m, r));
	stop->steps_run = steps;
	micro_watch_end(e, r, stop);
	return 0;
}

static int
micro_fast_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct engine_micro *em = e->impl;
	const struct micro_fast *mf = em->fast;
	struct machine *m = e->m;
	struct ref_summary sum;
	uint32_t solo = 0, nrun = 0;
	uint64_t max = r->max_steps, lockstep_to = 0, window;
	int changed = 1;

	/* The machine's fork-join cycles (micro_fork_cycle) come at the
	 * model's instruction boundaries, which the fast loops do not look
	 * for: a fork-join machine runs on the golden model's steps. */
	if (m->fork_join)
		return r->nwatches > 0 ? micro_forkjoin_run(e, r, stop, cause) :
		    micro_run(e, r, stop, cause);
	(void)cause;
	if (!engine_run_start(e, stop, &sum))
		return 0;
	/* a change already there: the debugger sees it after a step */
	if (r->nwatches > 0 && engine_watch_changed(m, r))
		max = 1;
	mf->patch(em->fx, r, 1);
	micro_watch_begin(em, m, r);
	window = ahead_window_steps(MICRO_SLICE, m->cfg.ncores, r->nbps > 0);
	while (stop->steps_run < max) {
		uint64_t left = max - stop->steps_run, k;
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
		if (ahead_opens(nrun, r, left, stop->steps_run, lockstep_to)) {
			uint64_t to = 0;

			em->ahead.pool = em->pool;
			k = micro_ahead(e, &em->ahead, em->md, em->st, mf,
			    em->fx, r, ahead_next_steps(left, window), &to);
			if (k == 0) {
				/* undone: lockstep up to the stop */
				lockstep_to = stop->steps_run + to;
				continue;
			}
			engine_advance(m, stop, k);
			executed = changed = 1;
			atbp = r->nbps > 0;
		} else if (nrun == 1) {
			/* Each cycle of the lone core is a step. */
			if (left > MICRO_SLICE)
				left = MICRO_SLICE;
			k = mf->exec(e, em->fx, em->st, r, solo, left,
			    stop->steps_run == 0, &ev);
			engine_advance(m, stop, k);
			executed = k > 0;
			atbp = ev == MF_EV_BP || ev == MF_EV_MARKED;
			changed = ev == MF_EV_STATUS;
		} else {
			executed = mf->lockstep(e, em->fx, em->st, r,
			    &changed, &atbp);
			m->step++;
			stop->steps_run++;
		}
		if (ref_step_end(e, r, stop, &sum, &changed, nrun > 0, executed,
		    faulted, em->seen, atbp, ENGINE_BP_ON_MPC))
			goto done;
		/* the step's end decides (micro-fast.h) */
		if (em->watch.hit || (changed && r->nwatches > 0)) {
			em->watch.hit = 0;
			if (engine_watch_changed(m, r))
				break;
		}
	}
	stop->reason = STOP_STEPS;
done:
	mf->patch(em->fx, r, 0);
	if (stop->reason != STOP_INTERRUPT)
		micro_watch_end(e, r, stop);
	em->watch.r = NULL;
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
		par_pool_free(em->pool);
		em->md->state_free(em->st);
		free(em->st);
		free(em->seen);
		free(em->watch.frame);
		free(em->writers);
		free(em);
	}
	engine_release(e);
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

static void
micro_set_threads(struct engine *e, uint32_t t)
{
	struct engine_micro *em = e->impl;

	/* the reference kind steps on one thread */
	if (em->fast == NULL || par_pool_threads(em->pool) ==
	    (t > 1 ? t : 1))
		return;
	par_pool_free(em->pool);
	em->pool = t > 1 ? par_pool_new(t) : NULL;
}

#define MICRO_OPS(name_, kind_, run_, level_, watch_) {		\
	.name = (name_),						\
	.kind = (kind_),						\
	.level = (level_),						\
	.watch = (watch_),						\
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
	.set_threads = micro_set_threads,				\
	.free = micro_free,						\
}

static const struct engine_ops micro_ops[NLEVEL] = {
	[LEVEL_MIC] = MICRO_OPS("mic", ENGINE_REF, micro_run, LEVEL_MIC, 0),
	[LEVEL_PMIC] = MICRO_OPS("pmic", ENGINE_REF, micro_run, LEVEL_PMIC,
	    0),
};

static const struct engine_ops micro_fast_ops[NLEVEL] = {
	[LEVEL_MIC] = MICRO_OPS("native-mic", ENGINE_NATIVE, micro_fast_run,
	    LEVEL_MIC, 1),
	[LEVEL_PMIC] = MICRO_OPS("native-pmic", ENGINE_NATIVE, micro_fast_run,
	    LEVEL_PMIC, 1),
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
	em->watch.frame = xcalloc(m->cfg.ncores, sizeof *em->watch.frame);
	em->fast->set_watch(em->fx, &em->watch);
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
