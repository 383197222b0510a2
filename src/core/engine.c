/*
 * What every engine shares (engine.h): the stop arrays, the breakpoint
 * and fault checks with which each engine reports stops exactly as the
 * reference does, and the run loop of the host engines, which step the
 * machine in place one global step at a time (engine-ref.c at the ISA
 * level, engine-micro.c at the micro levels).  The run loop checks the
 * stop conditions at every step boundary: that is the definition the
 * OpenCL engine is tested against.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "memmap.h"
#include "ijvm.h"

static const char *const level_names[NLEVEL] = { "isa", "mic", "pmic" };

const char *
level_name(enum level level)
{
	return (unsigned)level < NLEVEL ? level_names[level] : "?";
}

int
level_parse(const char *name, enum level *out)
{
	for (int i = 0; i < NLEVEL; i++)
		if (strcmp(name, level_names[i]) == 0) {
			*out = (enum level)i;
			return 0;
		}
	return -1;
}

static const char *const kind_names[] = {
	[ENGINE_DEFAULT] = "default", [ENGINE_REF] = "ref",
	[ENGINE_OPENCL] = "opencl", [ENGINE_NATIVE] = "native",
};

const char *
engine_kind_name(enum engine_kind kind)
{
	return (unsigned)kind < sizeof kind_names / sizeof *kind_names ?
	    kind_names[kind] : "?";
}

int
engine_kind_parse(const char *name, enum engine_kind *out)
{
	for (size_t i = 0; i < sizeof kind_names / sizeof *kind_names; i++)
		if (i != ENGINE_DEFAULT && strcmp(name, kind_names[i]) == 0) {
			*out = (enum engine_kind)i;
			return 0;
		}
	return -1;
}

void
engine_stop_reset(struct engine *e, struct engine_stop *stop)
{
	memset(stop, 0, sizeof *stop);
	stop->cores = e->stop_cores;
	stop->bp_ids = e->stop_bps;
}

void
engine_stop_add(struct engine *e, struct engine_stop *stop, uint32_t core,
    uint32_t bp_id)
{
	/* capacity: one entry per core at most, allocated on first use */
	if (e->stop_cores == NULL) {
		e->stop_cores = xcalloc(e->m->cfg.ncores, sizeof *e->stop_cores);
		e->stop_bps = xcalloc(e->m->cfg.ncores, sizeof *e->stop_bps);
		stop->cores = e->stop_cores;
		stop->bp_ids = e->stop_bps;
	}
	if (stop->ncores >= e->m->cfg.ncores)
		return;
	stop->cores[stop->ncores] = core;
	stop->bp_ids[stop->ncores] = bp_id;
	stop->ncores++;
}

void
engine_release(struct engine *e)
{
	free(e->stop_cores);
	free(e->stop_bps);
	memset(e, 0, sizeof *e);
}

uint32_t
engine_runnable(const struct machine *m, const uint8_t *mask, uint32_t *solo)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < m->cfg.ncores; i++)
		if (m->cores[i].status == CORE_RUNNING &&
		    (mask == NULL || mask[i])) {
			if (k++ == 0)
				*solo = i;
		}
	return k;
}

int
engine_bp_hit(struct engine *e, const struct engine_run *r, uint32_t c,
    enum engine_bp_on level, uint32_t *id)
{
	const struct core *core = &e->m->cores[c];
	int boundary = -1;      /* not asked yet */

	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];

		if (bp->cores != NULL && !bp->cores[c])
			continue;
		if (bp->on == ENGINE_BP_ON_MPC) {
			if (level != ENGINE_BP_ON_MPC ||
			    (int32_t)core->mpc != bp->pc)
				continue;
		} else {
			if (core->pc != bp->pc)
				continue;
			if (level == ENGINE_BP_ON_MPC) {
				if (boundary < 0)
					boundary = e->ops->at_boundary != NULL &&
					    e->ops->at_boundary(e, c);
				if (!boundary)
					continue;
			}
		}
		*id = bp->id;
		return 1;
	}
	return 0;
}

int
engine_check_bps(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, enum engine_bp_on level)
{
	const struct machine *m = e->m;
	uint32_t id;

	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];

		if (core->status != CORE_RUNNING ||
		    (r->mask != NULL && !r->mask[c]))
			continue;
		if (engine_bp_hit(e, r, c, level, &id))
			engine_stop_add(e, stop, c, id);
	}
	return stop->ncores > 0;
}

void
engine_note_faults(struct engine *e, uint8_t *seen, struct engine_stop *stop,
    int report)
{
	for (uint32_t c = 0; c < e->m->cfg.ncores; c++)
		if (e->m->cores[c].status == CORE_ERROR && !seen[c]) {
			seen[c] = 1;
			if (report)
				engine_stop_add(e, stop, c, 0);
		}
}

int
engine_live(const struct ref_summary *sum)
{
	return sum->running + sum->waiting + sum->joining > 0;
}

int
engine_run_start(struct engine *e, struct engine_stop *stop,
    struct ref_summary *sum)
{
	engine_stop_reset(e, stop);
	ref_count(e->m, sum);
	if (!engine_live(sum)) {
		stop->reason = STOP_DONE;
		return 0;
	}
	return 1;
}

int
engine_step_stop(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, const struct ref_summary *sum,
    uint32_t faulted_before, uint8_t *seen, int atbp, enum engine_bp_on on)
{
	if (sum->faulted > faulted_before) {
		engine_note_faults(e, seen, stop, r->stop_on_fault);
		if (r->stop_on_fault) {
			stop->reason = STOP_FAULT;
			return 1;
		}
	}
	if (!engine_live(sum))
		stop->reason = STOP_DONE;
	else if (sum->executed == 0 && !atbp)
		stop->reason = STOP_DEADLOCK;
	else if (atbp && r->nbps > 0 && engine_check_bps(e, r, stop, on))
		stop->reason = STOP_BREAKPOINT;
	else
		return 0;
	return 1;
}

int
engine_host_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, engine_step_fn step, void *arg, uint8_t *seen,
    enum engine_bp_on on)
{
	struct machine *m = e->m;
	struct ref_mask mask = { r->mask };
	struct ref_summary sum;

	if (!engine_run_start(e, stop, &sum))
		return 0;
	while (stop->steps_run < r->max_steps) {
		uint32_t faulted_before = sum.faulted;

		if (r->interrupt != NULL && *r->interrupt) {
			stop->reason = STOP_INTERRUPT;
			return 0;
		}
		step(arg, m, r->mask ? &mask : NULL, &sum);
		stop->steps_run++;
		/* a step that executed nothing moved no core onto a
		 * breakpoint: it is a deadlock */
		if (engine_step_stop(e, r, stop, &sum, faulted_before, seen,
		    sum.executed > 0, on))
			return 0;
	}
	stop->reason = STOP_STEPS;
	return 0;
}

int
engine_insn_store(const struct program *p, const struct core *c,
    const int32_t *below, int globals, int heap, int32_t *addr)
{
	uint8_t op;

	if (c->pc < 0 || (uint32_t)c->pc >= p->text_size)
		return 0;
	op = p->text[c->pc];
	if (globals && (op == OP_PUTSTATIC || op == OP_ATOMICADD) &&
	    (uint32_t)c->pc + 2 < p->text_size) {
		*addr = MM_GLOBALS_BASE + get_be16(p->text + c->pc + 1);
		return 1;
	}
	if (heap && op == OP_NEWARRAY) {
		*addr = ENGINE_ANY_HEAP_WORD;
		return 1;
	}
	if (heap && op == OP_IASTORE && below != NULL) {
		/* ref = TOS, index below it: the element's word */
		*addr = (int32_t)((uint32_t)c->tos + MM_ARRAY_HDR +
		    (uint32_t)*below);
		return 1;
	}
	return 0;
}

/* Read n words for the facts; 0, or -1 (the cause is dropped: a fact
 * that cannot be read is left out, the fault is still reported). */
static int
fact_read(struct engine *e, uint32_t core, int32_t addr, uint32_t n,
    int32_t *out)
{
	char *cause = NULL;

	if (e->ops->read_words(e, core, addr, n, out, &cause) == 0)
		return 0;
	free(cause);
	return -1;
}

/* Where word address a lies in the memory map (memmap.h). */
static const char *
fact_region(const struct machine *m, const struct program *p, int32_t a)
{
	if (a < 0)
		return "a device word that does not take this access";
	if (a < MM_CPP)
		return "below the constant pool";
	if (a < MM_CPP + (int32_t)p->cp_size)
		return "the constant pool, which is read-only";
	if (a < MM_STACK_BASE)
		return "between the constant pool and the stack region";
	if (a < MM_STACK_BASE + (int32_t)m->cfg.stack_words)
		return "the core's stack region";
	if (a < MM_GLOBALS_BASE)
		return "past the core's stack region";
	if (a < MM_GLOBALS_BASE + MM_GLOBALS_WORDS)
		return "the globals";
	if (a < MM_HEAP_BASE)
		return "past the globals";
	if (a < MM_HEAP_BASE + (int32_t)m->cfg.heap_words)
		return "the heap";
	return "past the heap";
}

/* INVOKEVIRTUAL's callee header at the faulting PC: 0 with its nargs
 * and nlocals (as ref.c reads them), or -1. */
static int
fact_callee(const struct program *p, const struct core *c, uint32_t *nargs,
    uint32_t *nloc)
{
	uint32_t idx;
	int32_t addr;

	if (c->fault_op != OP_INVOKEVIRTUAL || c->fault_pc < 0 ||
	    (int64_t)c->fault_pc + 3 > p->text_size)
		return -1;
	idx = get_be16(p->text + c->fault_pc + 1);
	if (idx >= p->cp_size || (addr = p->cp[idx]) < 0 ||
	    (int64_t)addr + 4 >= p->text_size)
		return -1;
	*nargs = get_be16(p->text + addr);
	*nloc = get_be16(p->text + addr + 2);
	return 0;
}

void
engine_fault_facts(struct engine *e, uint32_t core, int micro,
    struct buf *out)
{
	const struct machine *m = e->m;
	const struct core *c = &m->cores[core];
	const struct program *p = m->progs[c->prog];
	const struct ijvm_opinfo *info = ijvm_builtin(c->fault_op);
	int32_t w[2], floor, depth;
	uint32_t nargs, nloc;
	int array_op = c->fault_op == OP_IALOAD || c->fault_op == OP_IASTORE;

	if (c->status != CORE_ERROR)
		return;
	switch (c->fault) {
	case FAULT_ARRAY_BOUNDS:
		/* index under the reference; the length after the tag */
		if (!array_op || fact_read(e, core, c->sp - 1, 2, w) != 0)
			return;
		buf_printf(out, ": index %d", w[0]);
		if (fact_read(e, core, w[1] + 1, 1, &w[1]) == 0)
			buf_printf(out, ", length %d", w[1]);
		return;
	case FAULT_ARRAY_REF:
		if (array_op && fact_read(e, core, c->sp, 1, w) == 0)
			buf_printf(out, ": reference %d (0x%x)", w[0],
			    (uint32_t)w[0]);
		return;
	case FAULT_ARRAY_SIZE:
	case FAULT_HEAP_FULL:
		if (c->fault_op == OP_NEWARRAY &&
		    fact_read(e, core, c->sp, 1, w) == 0)
			buf_printf(out, ": size %d of a heap of %u words", w[0],
			    m->cfg.heap_words);
		return;
	case FAULT_STACK_OVERFLOW:
		if (micro) {
			/* the first word past the region that the
			 * microprogram wrote or read */
			buf_printf(out, ": depth %d of %u words (word 0x%x)",
			    c->mar - MM_STACK_BASE + 1, m->cfg.stack_words,
			    (uint32_t)c->mar);
			return;
		}
		depth = c->sp - MM_STACK_BASE + 1;
		buf_printf(out, ": depth %d of %u words", depth,
		    m->cfg.stack_words);
		if (fact_callee(p, c, &nargs, &nloc) == 0)
			/* the new frame: locals, then the link words */
			buf_printf(out, ", the call needs %u more", nloc + 2);
		else if (info != NULL && info->pushes > info->pops)
			buf_printf(out, ", %s pushes %d", info->name,
			    info->pushes - info->pops);
		return;
	case FAULT_STACK_UNDERFLOW:
		/* the frame's floor as ref.c finds it: main's locals, or
		 * the saved LV word a method's link pointer names */
		if (c->lv == MM_STACK_BASE)
			floor = MM_STACK_BASE + (int32_t)p->main_nlocals - 1;
		else if (fact_read(e, core, c->lv, 1, w) == 0)
			floor = w[0] + 1;
		else
			return;
		depth = c->sp - floor;
		buf_printf(out, ": depth %d word%s", depth, depth == 1 ? "" :
		    "s");
		if (fact_callee(p, c, &nargs, &nloc) == 0)
			buf_printf(out, ", the call takes %u argument%s", nargs,
			    nargs == 1 ? "" : "s");
		else if (info != NULL)
			buf_printf(out, ", %s pops %d", info->name, info->pops);
		return;
	case FAULT_MEM_RANGE:
		/* only the micro levels fault here, with MAR holding the
		 * word address of the READ or WRITE */
		buf_printf(out, ": address 0x%x, %s", (uint32_t)c->mar,
		    fact_region(m, p, c->mar));
		return;
	default:
		return;
	}
}

int
engine_host_read_words(struct engine *e, uint32_t core, int32_t addr,
    uint32_t nwords, int32_t *out, char **cause)
{
	for (uint32_t i = 0; i < nwords; i++) {
		if (machine_read_word(e->m, core, addr + (int32_t)i,
		    &out[i]) != FAULT_NONE) {
			*cause = xasprintf("address 0x%x is outside the memory "
			    "core %u can read", (uint32_t)(addr + (int32_t)i),
			    core);
			return -1;
		}
	}
	return 0;
}

int
engine_host_write_word(struct engine *e, uint32_t core, int32_t addr,
    int32_t val, char **cause)
{
	if (machine_write_word(e->m, core, addr, val) != FAULT_NONE) {
		*cause = xasprintf("address 0x%x is outside the memory core %u "
		    "can write", (uint32_t)addr, core);
		return -1;
	}
	return 0;
}


void
engine_host_add_input(struct engine *e, uint32_t core, const uint8_t *data,
    size_t len)
{
	machine_add_input(e->m, core, data, len);
}

int
engine_host_nothing(struct engine *e, char **cause)
{
	(void)e;
	(void)cause;
	return 0;
}

void
engine_writer_add(struct engine_writer **v, size_t *n, size_t *cap,
    uint32_t core, int32_t pc, int32_t addr)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	(*v)[*n].core = core;
	(*v)[*n].pc = pc;
	(*v)[*n].addr = addr;
	(*n)++;
}

int
engine_watch_changed(const struct machine *m, const struct engine_run *r)
{
	for (size_t i = 0; i < r->nwatches; i++) {
		const struct engine_watch *w = &r->watches[i];
		int32_t v;

		if (w->frame != INT32_MIN && m->cores[w->core].lv < w->frame)
			return 1;
		if (machine_read_word(m, w->core, w->addr, &v) != FAULT_NONE ||
		    v != w->value)
			return 1;
	}
	return 0;
}
