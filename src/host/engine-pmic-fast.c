/*
 * The fast PMIC level (micro-fast.h): pmic_cycle's semantics
 * (pmic-sim.c, doc/pmic.md) at the speed of a tuned interpreter.
 *
 * Every control-store word is decoded once into a struct mfp_op: per
 * compute unit its ALU operation, its two sources as indexes into a
 * register file and its C targets as a list of indexes; which unit
 * writes MAR and PC last (so that the addresses this cycle's memory
 * operations use are known before anything is written); and the
 * next-address bits apart.  The register file holds every readable
 * register as the A and B fields number them - the MBR views (MBR0,
 * MBR12S, ...) refreshed by each fetch, the constants, the core id and
 * 0 for the numbers that read nothing - and lives in locals during a
 * run, with N, Z, MPC and the side state.
 *
 * A cycle runs on the fast path when it can neither fault nor reach a
 * device: its word is present, its READ and WRITE address ordinary
 * words (machine_word_at), a JMPC dispatches on a valid MBR0 and an
 * entry has a valid opcode.  Otherwise the locals are written back and
 * pmic_cycle runs that one cycle, as engine-mic1-fast.c does.
 *
 * Breakpoints: a run marks each word an MPC breakpoint names; a PC
 * breakpoint marks every word, since a core is at its instruction
 * boundary on whichever word its opcode dispatches to, and the loop asks
 * engine_bp_hit there only when the core came by a dispatch and its PC
 * is one that a breakpoint names.
 */
#include <stdlib.h>
#include <string.h>

#include "micro-fast.h"
#include "pmic.h"

#ifdef __GNUC__
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif

/* The register file: enum pmic_reg's numbers, 24..31 reading 0, then
 * a sink that the unused first two C slots of a unit write. */
#define MFP_SINK	32
#define MFP_NREG	33
#define MFP_NONE	PMIC_NCU	/* no unit writes the register */

/* C field bit i's register. */
static const uint8_t mfp_cidx[PMIC_NC] = {
	[PMIC_CB_MAR] = PMIC_R_MAR, [PMIC_CB_MDR] = PMIC_R_MDR,
	[PMIC_CB_PC] = PMIC_R_PC, [PMIC_CB_SP] = PMIC_R_SP,
	[PMIC_CB_LV] = PMIC_R_LV, [PMIC_CB_CPP] = PMIC_R_CPP,
	[PMIC_CB_TOS] = PMIC_R_TOS, [PMIC_CB_OPC] = PMIC_R_OPC,
	[PMIC_CB_H] = PMIC_R_H, [PMIC_CB_G0] = PMIC_R_G0,
	[PMIC_CB_G1] = PMIC_R_G1,
};

struct mfp_cu {
	uint8_t		alu;
	uint8_t		a, b;
	uint8_t		nc;
	uint8_t		ct[PMIC_NC];
};

/* 64 bytes, one cache line: an address is a shift away. */
struct mfp_op {
	_Alignas(64) struct mfp_cu cu[PMIC_NCU];  /* the enabled units */
	uint8_t		ncu;
	uint8_t		en0;           /* CU0 computes: N and Z */
	uint8_t		mar_cu;        /* index in cu[] writing MAR last */
	uint8_t		pc_cu;         /* ... PC; MFP_NONE: none */
	uint8_t		fetch, read, write;
	uint8_t		jam;           /* any of: */
	uint8_t		jamn, jamz, jmpc;
	uint8_t		trap;          /* MF_TRAP_* */
	uint16_t	next;
};

struct mfp {
	struct mfp_op	op[PMIC_STORE_WORDS];
	struct micro_fast_pcs pcs;      /* of the current run */
	struct micro_fast_watch *watch; /* the engine's */
};

static void *
mfp_create(const void *csv)
{
	const struct pmic_store *cs = csv;
	struct mfp *f = xcalloc(1, sizeof *f);

	for (uint32_t a = 0; a < PMIC_STORE_WORDS; a++) {
		const struct pmic_mi *mi = &cs->mi[a];
		struct mfp_op *op = &f->op[a];

		op->trap = pmic_present(cs, a) ? 0 : MF_TRAP_SLOW;
		op->mar_cu = op->pc_cu = MFP_NONE;
		for (int i = 0; i < PMIC_NCU; i++) {
			uint32_t w = mi->cu[i], cb = PMIC_CU_C(w);
			struct mfp_cu *u;

			if (!PMIC_CU_EN(w))
				continue;
			u = &op->cu[op->ncu];
			u->alu = (uint8_t)PMIC_CU_ALU(w);
			u->a = (uint8_t)PMIC_CU_A(w);
			u->b = (uint8_t)PMIC_CU_B(w);
			u->ct[0] = u->ct[1] = MFP_SINK;
			for (int j = 0; j < PMIC_NC; j++)
				if (cb & (1u << j))
					u->ct[u->nc++] = mfp_cidx[j];
			if (cb & PMIC_C_MAR)
				op->mar_cu = op->ncu;
			if (cb & PMIC_C_PC)
				op->pc_cu = op->ncu;
			if (i == 0)
				op->en0 = 1;
			op->ncu++;
		}
		op->fetch = (uint8_t)PMIC_CU_MEM(mi->cu[0]);
		op->read = (uint8_t)PMIC_CU_MEM(mi->cu[1]);
		op->write = (uint8_t)PMIC_CU_MEM(mi->cu[2]);
		op->jamn = (uint8_t)PMIC_BITV(mi->next, PMIC_BIT_JAMN);
		op->jamz = (uint8_t)PMIC_BITV(mi->next, PMIC_BIT_JAMZ);
		op->jmpc = (uint8_t)PMIC_BITV(mi->next, PMIC_BIT_JMPC);
		op->jam = op->jamn | op->jamz | op->jmpc;
		op->next = (uint16_t)PMIC_NEXT_ADDR(mi->next);
	}
	return f;
}

static void
mfp_free(void *fx)
{
	free(fx);
}

static void
mfp_set_watch(void *fx, struct micro_fast_watch *w)
{
	((struct mfp *)fx)->watch = w;
}

static void
mfp_patch(void *fx, const struct engine_run *r, int on)
{
	struct mfp *f = fx;
	int pcbp = 0;

	micro_fast_pcs_set(&f->pcs, on ? r : NULL);
	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];

		if (bp->on != ENGINE_BP_ON_MPC)
			pcbp = 1;
		else if (bp->pc >= 0 && bp->pc < PMIC_STORE_WORDS) {
			if (on)
				f->op[bp->pc].trap |= MF_TRAP_BP;
			else
				f->op[bp->pc].trap &= (uint8_t)~MF_TRAP_BP;
		}
	}
	for (uint32_t a = 0; pcbp && a < PMIC_STORE_WORDS; a++) {
		if (on)
			f->op[a].trap |= MF_TRAP_PCBP;
		else
			f->op[a].trap &= (uint8_t)~MF_TRAP_PCBP;
	}
}

/* The core stands on a marked word (engine_check_bps then decides). */
static inline int
mfp_marked(const void *fx, const struct core *c)
{
	const struct mfp *f = fx;

	return c->mpc >= PMIC_STORE_WORDS ||
	    (f->op[c->mpc].trap & (MF_TRAP_BP | MF_TRAP_PCBP)) != 0;
}

/* The MBR views of the register file from MBR (MBR0 in bits 31..24). */
static inline void
mfp_mbr_views(uint32_t *R, uint32_t mbr)
{
	uint32_t b1 = (mbr >> 16) & 0xFF, b2 = (mbr >> 8) & 0xFF;

	R[PMIC_R_MBR] = mbr;
	R[PMIC_R_MBR0] = mbr >> 24;
	R[PMIC_R_MBR1] = b1;
	R[PMIC_R_MBR2] = b2;
	R[PMIC_R_MBR3] = mbr & 0xFF;
	R[PMIC_R_MBR1S] = (uint32_t)(int32_t)(int8_t)b1;
	R[PMIC_R_MBR12] = b1 << 8 | b2;
	R[PMIC_R_MBR12S] = (uint32_t)(int32_t)(int16_t)(b1 << 8 | b2);
}

MF_LOOP
mfp_loop(struct engine *e, void *fx, void *stv, const struct engine_run *r,
    uint32_t core, uint64_t budget, int first, int ahead, uint32_t pw,
    enum micro_fast_ev *ev)
{
	const struct mfp *f = fx;
	struct machine *m = e->m;
	struct pmic_state *st = stv;
	struct core *c = &m->cores[core];
	struct pmic_core *k = &st->core[core];
	const uint8_t *text;
	const struct mfp_op *op;
	uint32_t R[MFP_NREG], tsize, n, z, mpc, valid, entry;
	int32_t mbr_addr, insn_pc;
	int32_t *stack;
	uint32_t swords = m->cfg.stack_words;
	uint64_t left = budget, cycles, steps;
	uint32_t id;
	MF_WATCH_LOCALS;

#define SAVE() do {							\
	c->mar = (int32_t)R[PMIC_R_MAR]; c->mdr = (int32_t)R[PMIC_R_MDR]; \
	c->pc = (int32_t)R[PMIC_R_PC]; c->mbr = (int32_t)R[PMIC_R_MBR];	\
	c->sp = (int32_t)R[PMIC_R_SP]; c->lv = (int32_t)R[PMIC_R_LV];	\
	c->cpp = (int32_t)R[PMIC_R_CPP]; c->tos = (int32_t)R[PMIC_R_TOS]; \
	c->opc = (int32_t)R[PMIC_R_OPC]; c->h = (int32_t)R[PMIC_R_H];	\
	k->g0 = (int32_t)R[PMIC_R_G0]; k->g1 = (int32_t)R[PMIC_R_G1];	\
	c->n = (uint8_t)n; c->z = (uint8_t)z; c->mpc = (uint16_t)mpc;	\
	c->cycles += cycles; c->steps += steps; cycles = steps = 0;	\
	k->mbr_valid = (uint8_t)valid; k->entry = (uint8_t)entry;	\
	k->mbr_addr = mbr_addr; k->insn_pc = insn_pc;			\
} while (0)

reload:
	stack = micro_fast_stack(m, core);
	text = m->progs[c->prog]->text;
	tsize = m->progs[c->prog]->text_size;
	memset(R, 0, sizeof R);
	R[PMIC_R_MAR] = (uint32_t)c->mar;
	R[PMIC_R_MDR] = (uint32_t)c->mdr;
	R[PMIC_R_PC] = (uint32_t)c->pc;
	mfp_mbr_views(R, (uint32_t)c->mbr);
	R[PMIC_R_SP] = (uint32_t)c->sp;
	R[PMIC_R_LV] = (uint32_t)c->lv;
	R[PMIC_R_CPP] = (uint32_t)c->cpp;
	R[PMIC_R_TOS] = (uint32_t)c->tos;
	R[PMIC_R_OPC] = (uint32_t)c->opc;
	R[PMIC_R_H] = (uint32_t)c->h;
	R[PMIC_R_G0] = (uint32_t)k->g0;
	R[PMIC_R_G1] = (uint32_t)k->g1;
	R[PMIC_R_C2] = 2;
	R[PMIC_R_C3] = 3;
	R[PMIC_R_C4] = 4;
	R[PMIC_R_C5] = 5;
	R[PMIC_R_SID] = core;
	n = c->n;
	z = c->z;
	mpc = c->mpc;
	valid = k->mbr_valid;
	entry = k->entry;
	mbr_addr = k->mbr_addr;
	insn_pc = k->insn_pc;
	cycles = steps = 0;
	if (mpc >= PMIC_STORE_WORDS)
		goto slow;

	while (left > 0) {
		uint32_t res[PMIC_NCU], mar1, pc1, next;
		int32_t *wp = NULL;

		op = &f->op[mpc];
		MF_TRAPS(entry && micro_fast_pc_listed(&f->pcs,
		    (int32_t)R[PMIC_R_PC]));
		first = 0;
		if (UNLIKELY(entry && !(valid & 8)))
			goto slow;	/* entered with PC outside the text */

		/* the units read the registers as they are now */
		for (uint32_t i = 0; i < op->ncu; i++)
			res[i] = pmic_alu_eval(op->cu[i].alu, R[op->cu[i].a],
			    R[op->cu[i].b]);
		mar1 = op->mar_cu != MFP_NONE ? res[op->mar_cu] :
		    R[PMIC_R_MAR];
		pc1 = op->pc_cu != MFP_NONE ? res[op->pc_cu] : R[PMIC_R_PC];
		if (op->write || op->read) {
			wp = micro_fast_word(m, core, stack, swords, mar1,
			    op->write);
			if (UNLIKELY(wp == NULL))
				goto slow;	/* a device or a fault */
			if (ahead && !micro_fast_private(stack, mar1,
			    op->write ? pw : swords) && (op->write ||
			    !micro_fast_const(m->progs[c->prog], mar1)))
				goto slow;	/* sync */
		}
		if (UNLIKELY(op->jmpc && (op->fetch ? pc1 >= tsize :
		    !(valid & 8))))
			goto slow;	/* JMPC on an invalid MBR0 faults */

		/* the boundary */
		if (entry && mbr_addr == (int32_t)R[PMIC_R_PC] &&
		    mpc == R[PMIC_R_MBR0]) {
			steps++;
			insn_pc = (int32_t)R[PMIC_R_PC];
		}
		cycles++;
		if (op->en0) {
			n = res[0] >> 31;
			z = res[0] == 0;
		}
		for (uint32_t i = 0; i < op->ncu; i++) {
			const struct mfp_cu *u = &op->cu[i];

			R[u->ct[0]] = res[i];
			R[u->ct[1]] = res[i];
			for (uint32_t j = 2; UNLIKELY(j < u->nc); j++)
				R[u->ct[j]] = res[i];
		}

		if (op->write) {
			*wp = (int32_t)R[PMIC_R_MDR];
			if (UNLIKELY(watching) && micro_fast_watched(mw, wp))
				wnote = 1;
		}
		if (op->read)
			R[PMIC_R_MDR] = (uint32_t)*wp;
		if (op->fetch) {
			uint32_t v = 0;

			if (pc1 < tsize && tsize - pc1 >= 4) {
				v = (uint32_t)text[pc1] << 24 |
				    (uint32_t)text[pc1 + 1] << 16 |
				    (uint32_t)text[pc1 + 2] << 8 |
				    text[pc1 + 3];
				valid = 0xF;
			} else {
				valid = 0;
				for (uint32_t i = 0; i < 4; i++) {
					uint32_t a = pc1 + i;

					v <<= 8;
					if (a < tsize) {
						v |= text[a];
						valid |= 8u >> i;
					}
				}
			}
			mfp_mbr_views(R, v);
			mbr_addr = (int32_t)pc1;
		}

		/* branches, not arithmetic: a predicted branch lets the
		 * next word load before this cycle's units are done */
		next = op->next;
		entry = 0;
		if (op->jam) {
			if (op->jmpc)
				next |= R[PMIC_R_MBR0];
			if ((op->jamn && n) || (op->jamz && z))
				next ^= 1u << PMIC_BIT_NEXT_JAM;
			entry = op->jmpc && (next & (PMIC_STORE_WORDS - 1)) ==
			    R[PMIC_R_MBR0];
		}
		mpc = next & (PMIC_STORE_WORDS - 1);
		left--;
		MF_WATCH_NOTE(R[PMIC_R_LV]);
	}
	MF_LOOP_END(pmic_cycle, mfp_marked);
#undef SAVE
}

/* No cycle in place yet: lockstep steps go through the loop. */
static inline int
mfp_direct(struct engine *e, void *fx, void *st, uint32_t core, int *changed,
    int *atbp)
{
	(void)e;
	(void)fx;
	(void)st;
	(void)core;
	(void)changed;
	(void)atbp;
	return 0;
}

MICRO_FAST_ENTRIES(mfp, mfp_loop, mfp_direct)

const struct micro_fast pmic_fast = {
	.create = mfp_create,
	.free = mfp_free,
	.patch = mfp_patch,
	.set_watch = mfp_set_watch,
	.exec = mfp_exec,
	.ahead = mfp_ahead,
	.lockstep = mfp_lockstep,
};
