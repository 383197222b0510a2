/*
 * What the two micro-level golden models (mic1.c, pmic-sim.c) share:
 * the ISA-level fault a micro-cycle raises, TOS as the ISA level keeps
 * it, leaving the micro level at an instruction boundary, and the step
 * of every core by one cycle.  The cycle itself stays in each model.
 *
 * Each model is also one interface, struct micro_model (mic1_model,
 * pmic_model): every engine of a micro level - the host engine of
 * engine-micro.c and the OpenCL engine's level in src/ocl - starts,
 * enters, leaves and asks boundaries through it, so a level's rules are
 * written once, in its model.
 */
#ifndef MICDB_MICRO_SIM_H
#define MICDB_MICRO_SIM_H

#include <stdint.h>

#include "engine.h"
#include "machine.h"
#include "mic1-word.h"
#include "pmic-word.h"
#include "ref.h"

/* TOS <- the word at SP, when SP can be read: the ISA level keeps TOS
 * in memory, the micro levels in a register. */
void	micro_load_tos(struct machine *m, uint32_t core);
/* Leave the micro level: -1 if a live core is not at_boundary (between
 * two ISA instructions), else 0 with TOS reloaded. */
int	micro_leave(struct machine *m, uint32_t core, int at_boundary);

/* A micro-level core that has not run: MPC 0 and PC -1 (doc/mic1.md
 * section 4), i.e. the start of main. */
static inline int
micro_start_state(const struct core *c)
{
	return c->steps == 0 && c->cycles == 0 && c->mpc == 0 && c->pc == -1;
}

struct micro_model;
/* Fork-join: the cycle in which the machine, not the microprogram,
 * carries out an instruction at a boundary (micro-sim.c); 1 if it did. */
int	micro_fork_cycle(const struct micro_model *md, void *st,
	    struct machine *m, uint32_t core);

/* One step of md: every core of mask (all if mask or mask->mask is
 * NULL) by one cycle (a fork-join cycle, else md->cycle), then the
 * barrier, then sum (which may be NULL). */
void	micro_step(const struct micro_model *md, void *st, struct machine *m,
	    const struct ref_mask *mask, struct ref_summary *sum);
/* The ISA instruction a core is executing (PFX_insn_pc): 0 for a core
 * that has not run, insn_pc (the level's record of it) inside an
 * instruction, else the PC (0 when it is negative). */
int32_t	micro_insn_pc(const struct core *c, int32_t insn_pc,
	    int at_boundary);

/*
 * A micro level's golden model.  st is the model's own state (struct
 * mic1_state, struct pmic_state: state_size bytes), cs its control store
 * (struct mic1_store, struct pmic_store).
 */
struct micro_model {
	enum level	 level;          /* LEVEL_MIC or LEVEL_PMIC */
	size_t		 state_size;
	void	 (*state_init)(void *st, const struct machine *m,
		    const void *cs);
	void	 (*state_free)(void *st);
	/* A core that never ran: the level's start state. */
	void	 (*start_core)(void *st, struct machine *m, uint32_t core);
	/* A core at an ISA boundary enters the level there. */
	void	 (*enter)(void *st, struct machine *m, uint32_t core);
	/* Back to the ISA level: -1 if the core is inside an instruction. */
	int	 (*leave)(void *st, struct machine *m, uint32_t core);
	int	 (*at_boundary)(const void *st, const struct machine *m,
		    uint32_t core);
	/* One global step of the cores of mask (engine_step_fn). */
	void	 (*step)(void *st, struct machine *m,
		    const struct ref_mask *mask, struct ref_summary *sum);
	/* One micro-cycle of one core: 1 if it executed one, 0 if not. */
	int	 (*cycle)(void *st, struct machine *m, uint32_t core);
	/* The per-core side state a snapshot keeps: its array in st and
	 * its bytes. */
	void	*(*side)(void *st, size_t *bytes);
	/* The words core's next cycle may store to: *n from the result
	 * (PFX_next_store). */
	int32_t	*(*next_store)(const void *st, struct machine *m,
		    uint32_t core, uint32_t *n);
};

/* The C bus of both levels writes the nine registers of struct core at
 * the same bit numbers (MAR bit 0 .. H bit 8; PMIC's G0 and G1 follow). */
#define MICRO_SAME_CB(r) ((int)PMIC_CB_##r == (int)MIC1_CB_##r)
_Static_assert(MICRO_SAME_CB(MAR) && MICRO_SAME_CB(MDR) && MICRO_SAME_CB(PC) &&
    MICRO_SAME_CB(SP) && MICRO_SAME_CB(LV) && MICRO_SAME_CB(CPP) &&
    MICRO_SAME_CB(TOS) && MICRO_SAME_CB(OPC) && MICRO_SAME_CB(H),
    "the C bus bits of struct core differ between the levels");
#undef MICRO_SAME_CB

static inline void
micro_cwrite(struct core *c, uint32_t cbits, int32_t v)
{
	if (cbits & MIC1_C_MAR) c->mar = v;
	if (cbits & MIC1_C_MDR) c->mdr = v;
	if (cbits & MIC1_C_PC)  c->pc = v;
	if (cbits & MIC1_C_SP)  c->sp = v;
	if (cbits & MIC1_C_LV)  c->lv = v;
	if (cbits & MIC1_C_CPP) c->cpp = v;
	if (cbits & MIC1_C_TOS) c->tos = v;
	if (cbits & MIC1_C_OPC) c->opc = v;
	if (cbits & MIC1_C_H)   c->h = v;
}

/*
 * Define the model name_ over a level's typed functions PFX_start_core,
 * PFX_enter, PFX_at_boundary, PFX_cycle, PFX_next_store and its state
 * type (cs, the store_t it runs; ncores; the per-core side state, the
 * array core, each with the insn_pc of the ISA instruction running):
 * the void * slots are written here once.  The typed functions that are
 * the same for every level are defined here too: PFX_state_init (no
 * instruction yet: insn_pc -1), PFX_state_free, PFX_step (micro_step),
 * PFX_insn_pc (the level's record counts inside an instruction, where a
 * microprogram may hold PC changed, e.g. pmic.pm's complemented unknown
 * opcode mark) and PFX_leave.
 */
#define MICRO_MODEL(name_, pfx, state_t, store_t, level_)		\
void									\
pfx##_state_init(state_t *st, const struct machine *m,			\
    const store_t *cs)							\
{									\
	st->cs = cs;							\
	st->ncores = m->cfg.ncores;					\
	st->core = xcalloc(st->ncores, sizeof *st->core);		\
	for (uint32_t i = 0; i < st->ncores; i++)			\
		st->core[i].insn_pc = -1;				\
}									\
void									\
pfx##_state_free(state_t *st)						\
{									\
	free(st->core);							\
	memset(st, 0, sizeof *st);					\
}									\
void									\
pfx##_step(state_t *st, struct machine *m,				\
    const struct ref_mask *mask, struct ref_summary *sum)		\
{									\
	micro_step(&name_, st, m, mask, sum);				\
}									\
int32_t									\
pfx##_insn_pc(const state_t *st, const struct machine *m,		\
    uint32_t core)							\
{									\
	return micro_insn_pc(&m->cores[core], st->core[core].insn_pc,	\
	    pfx##_at_boundary(st, m, core));				\
}									\
int									\
pfx##_leave(state_t *st, struct machine *m, uint32_t core)		\
{									\
	return micro_leave(m, core, pfx##_at_boundary(st, m, core));	\
}									\
static void								\
name_##_init(void *st, const struct machine *m, const void *cs)	\
{									\
	pfx##_state_init(st, m, cs);					\
}									\
static void								\
name_##_free(void *st)							\
{									\
	pfx##_state_free(st);						\
}									\
static void								\
name_##_start(void *st, struct machine *m, uint32_t core)		\
{									\
	pfx##_start_core(st, m, core);					\
}									\
static void								\
name_##_enter(void *st, struct machine *m, uint32_t core)		\
{									\
	pfx##_enter(st, m, core);					\
}									\
static int								\
name_##_leave(void *st, struct machine *m, uint32_t core)		\
{									\
	return pfx##_leave(st, m, core);				\
}									\
static int								\
name_##_boundary(const void *st, const struct machine *m,		\
    uint32_t core)							\
{									\
	return pfx##_at_boundary(st, m, core);				\
}									\
static void								\
name_##_step(void *st, struct machine *m,				\
    const struct ref_mask *mask, struct ref_summary *sum)		\
{									\
	pfx##_step(st, m, mask, sum);					\
}									\
static int								\
name_##_cycle(void *st, struct machine *m, uint32_t core)		\
{									\
	return pfx##_cycle(st, m, core);				\
}									\
static void *								\
name_##_side(void *st, size_t *bytes)					\
{									\
	state_t *s_ = st;						\
									\
	*bytes = (size_t)s_->ncores * sizeof *s_->core;			\
	return s_->core;						\
}									\
static int32_t *							\
name_##_next_store(const void *st, struct machine *m, uint32_t core,	\
    uint32_t *n)							\
{									\
	return pfx##_next_store(st, m, core, n);			\
}									\
const struct micro_model name_ = {					\
	.level = (level_),						\
	.state_size = sizeof(state_t),					\
	.state_init = name_##_init,					\
	.state_free = name_##_free,					\
	.start_core = name_##_start,					\
	.enter = name_##_enter,						\
	.leave = name_##_leave,						\
	.at_boundary = name_##_boundary,				\
	.step = name_##_step,						\
	.cycle = name_##_cycle,						\
	.side = name_##_side,						\
	.next_store = name_##_next_store,				\
}

extern const struct micro_model mic1_model;   /* mic1.c */
extern const struct micro_model pmic_model;   /* pmic-sim.c */

/* The model of a micro level; NULL for LEVEL_ISA. */
const struct micro_model *micro_model_of(enum level level);

/*
 * Initialise st over m with cs and put every core in the level: a core
 * that never ran starts in the level's start state, every other one
 * enters at its ISA boundary (doc/mic1.md section 5).  seen (may be NULL),
 * one byte per core, is set for cores that faulted before: a fault from
 * another level is not news.
 */
void	micro_attach(const struct micro_model *md, void *st,
	    struct machine *m, const void *cs, uint8_t *seen);

#endif
