/*
 * Shared by the Mic-1 and PMIC simulators (micro-sim.h), so that both
 * levels fault, step and hand back to the ISA level the same way.
 */
#include "ijvm.h"
#include "micro-sim.h"

void
micro_load_tos(struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	int32_t tos;

	if (machine_read_word(m, core, c->sp, &tos) == FAULT_NONE)
		c->tos = tos;
}

int
micro_leave(struct machine *m, uint32_t core, int at_boundary)
{
	const struct core *c = &m->cores[core];

	if ((c->status == CORE_RUNNING || c->status == CORE_WAITING ||
	    c->status == CORE_JOINING) &&
	    !at_boundary)
		return -1;
	micro_load_tos(m, core);
	return 0;
}

/*
 * Fork-join at a micro level (doc/manycore.md section 1): the fork
 * decision is the machine's, not the microprogram's (the textbook
 * control store has no room for it).  At an instruction boundary of a
 * fork-join core, an instruction whose effect the model changes
 * (ref_fork_insn: an INVOKEVIRTUAL in main, the IRETURN of the forked
 * method into main) is carried out by the machine in one cycle with the
 * ISA level's semantics, and the core enters the level again after it.
 * Returns 1 if it took the cycle, 0 if the microprogram runs it.
 */
int
micro_fork_cycle(const struct micro_model *md, void *st, struct machine *m,
    uint32_t core)
{
	struct core *c = &m->cores[core];

	if (!(c->fork & FJ_ON) || c->status != CORE_RUNNING ||
	    !md->at_boundary(st, m, core) || !ref_fork_insn(m, core))
		return 0;
	micro_load_tos(m, core);
	c->cycles++;
	ref_exec(m, core);	/* counts the step, as the boundary would */
	if (c->status == CORE_RUNNING || c->status == CORE_JOINING)
		md->enter(st, m, core);
	return 1;
}

void
micro_step(const struct micro_model *md, void *st, struct machine *m,
    const struct ref_mask *mask, struct ref_summary *sum)
{
	uint32_t executed = 0;

	for (uint32_t i = 0; i < m->cfg.ncores; i++) {
		if (mask != NULL && mask->mask != NULL && !mask->mask[i])
			continue;
		executed += (uint32_t)(micro_fork_cycle(md, st, m, i) ||
		    md->cycle(st, m, i));
	}
	ref_barrier_release(m);
	m->step++;
	if (sum != NULL) {
		ref_count(m, sum);
		sum->executed = executed;
	}
}

int32_t
micro_insn_pc(const struct core *c, int32_t insn_pc, int at_boundary)
{
	if (micro_start_state(c))
		return 0;
	if (insn_pc >= 0 && !at_boundary)
		return insn_pc;
	return c->pc < 0 ? 0 : c->pc;
}

void
micro_attach(const struct micro_model *md, void *st, struct machine *m,
    const void *cs, uint8_t *seen)
{
	md->state_init(st, m, cs);
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		const struct core *core = &m->cores[c];

		if (seen != NULL && core->status == CORE_ERROR)
			seen[c] = 1;
		if (core->steps == 0 && core->cycles == 0 &&
		    core->status == CORE_RUNNING)
			md->start_core(st, m, c);
		else
			md->enter(st, m, c);
	}
}
