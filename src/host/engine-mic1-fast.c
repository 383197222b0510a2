/*
 * The fast Mic-1 level (micro-fast.h): mic1_cycle's semantics (mic1.c,
 * doc/mic1.md section 1) at the speed of a tuned interpreter.
 *
 * Every control-store word is decoded once into a struct mf1_op: the B
 * source as an index into a register file, the ALU as masks and a
 * two-bit function (a = (H & amask) ^ ainv, b = bus & bmask), the
 * shifter as two shift counts, the C targets as a list of indexes, and
 * the JAM bits apart.  The register file (MBR twice: sign- and
 * zero-extended, as the B bus reads it; a constant 0 for the B values
 * that drive nothing; a sink that the unused first two C slots write)
 * and every latch live in locals during a run.  The common cycle takes
 * no branch that its word does not decide: the ALU function is four
 * masks over the four results, the first two C targets are always
 * written (to the sink when absent), JMPC ORs MBR under a mask.
 *
 * A cycle runs on the fast path when it can neither fault nor reach a
 * device: its word is present, the READ completing and the READ/WRITE
 * issued address ordinary words (machine_word_at, the map itself), and
 * a JMPC dispatches on a valid MBR.  Those conditions are all known
 * before anything changes (the address is MAR as this cycle's C bus
 * leaves it), so otherwise the locals are written back and mic1_cycle
 * runs that one cycle: a fault, its PC and a device's side effects are
 * the golden model's own.
 *
 * Breakpoints cost nothing on the words without one: a run marks each
 * word an MPC breakpoint names, and Main1 for a PC breakpoint (only
 * there is a core at an instruction boundary), and the loop asks
 * engine_bp_hit only on a marked word - at Main1 only when PC is one
 * that a breakpoint names.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mic1.h"
#include "micro-fast.h"

#ifdef __GNUC__
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif

/* The register file: the B field's values first, so that a B field
 * indexes it directly (9..15 all read R_ZERO), then H and MAR. */
enum {
	R_MDR, R_PC, R_MBR, R_MBRU, R_SP, R_LV, R_CPP, R_TOS, R_OPC,
	R_ZERO, R_H, R_MAR, R_SINK, NREG
};

/* The B bus of the cycle in place: a struct core field, MBR's byte
 * either way, or nothing. */
enum { BK_FIELD, BK_MBR, BK_MBRU, BK_ZERO };

/* C field bit i's field of struct core. */
static const uint8_t mf1_coff[MIC1_SIZE_C] = {
	[MIC1_CB_MAR] = offsetof(struct core, mar),
	[MIC1_CB_MDR] = offsetof(struct core, mdr),
	[MIC1_CB_PC] = offsetof(struct core, pc),
	[MIC1_CB_SP] = offsetof(struct core, sp),
	[MIC1_CB_LV] = offsetof(struct core, lv),
	[MIC1_CB_CPP] = offsetof(struct core, cpp),
	[MIC1_CB_TOS] = offsetof(struct core, tos),
	[MIC1_CB_OPC] = offsetof(struct core, opc),
	[MIC1_CB_H] = offsetof(struct core, h),
};

/* B field value b's field of struct core (for BK_FIELD). */
static const uint8_t mf1_boff[MIC1_B_OPC + 1] = {
	[MIC1_B_MDR] = offsetof(struct core, mdr),
	[MIC1_B_PC] = offsetof(struct core, pc),
	[MIC1_B_SP] = offsetof(struct core, sp),
	[MIC1_B_LV] = offsetof(struct core, lv),
	[MIC1_B_CPP] = offsetof(struct core, cpp),
	[MIC1_B_TOS] = offsetof(struct core, tos),
	[MIC1_B_OPC] = offsetof(struct core, opc),
};

/* C field bit i's register. */
static const uint8_t mf1_cidx[MIC1_SIZE_C] = {
	[MIC1_CB_MAR] = R_MAR, [MIC1_CB_MDR] = R_MDR, [MIC1_CB_PC] = R_PC,
	[MIC1_CB_SP] = R_SP, [MIC1_CB_LV] = R_LV, [MIC1_CB_CPP] = R_CPP,
	[MIC1_CB_TOS] = R_TOS, [MIC1_CB_OPC] = R_OPC, [MIC1_CB_H] = R_H,
};

/* 64 bytes, one cache line: an address is a shift away. */
struct mf1_op {
	_Alignas(64) uint32_t amask;    /* ENA: ~0 */
	/* for the cycle in place: the B source and C targets as offsets
	 * into struct core (bkind: BK_*) */
	uint8_t		bkind, boff;
	uint8_t		coff[MIC1_SIZE_C];
	uint32_t	ainv;     /* INVA: ~0 */
	uint32_t	bmask;    /* ENB: ~0 */
	uint32_t	fand, f_or, fnot, fsum;  /* the function's mask: ~0 */
	uint8_t		inc;
	uint8_t		sll;      /* 8 or 0 */
	uint8_t		sra;      /* 1 or 0 */
	uint8_t		b;        /* register of the B bus */
	uint8_t		nc;       /* C targets */
	uint8_t		ct[MIC1_SIZE_C];
	uint8_t		cmar;     /* the C bus writes MAR */
	uint8_t		mem;      /* MIC1_MEM_* */
	uint8_t		jam;      /* any of: */
	uint8_t		jamn, jamz, jmpc;
	uint8_t		main1;    /* this is Main1: a boundary may start */
	uint8_t		trap;     /* MF_TRAP_* */
	uint16_t	next;
};

struct mf1 {
	const struct mic1_store	*cs;
	struct micro_fast_pcs	 pcs;      /* of the current run */
	struct micro_fast_watch	*watch;    /* the engine's */
	struct mf1_op		 op[MIC1_STORE_WORDS];
};

static void *
mf1_create(const void *csv)
{
	const struct mic1_store *cs = csv;
	struct mf1 *f = xcalloc(1, sizeof *f);

	f->cs = cs;
	for (uint32_t a = 0; a < MIC1_STORE_WORDS; a++) {
		struct mf1_op *op = &f->op[a];
		uint64_t w = cs->word[a];
		uint32_t alu = mic1_alu(w), cb = mic1_cbus(w);
		uint32_t jam = mic1_jam(w), b = mic1_bsel(w);

		op->trap = cs->present[a] ? 0 : MF_TRAP_SLOW;
		op->amask = (alu & MIC1_ALU_ENA) ? ~0u : 0;
		op->ainv = (alu & MIC1_ALU_INVA) ? ~0u : 0;
		op->bmask = (alu & MIC1_ALU_ENB) ? ~0u : 0;
		switch (MIC1_ALU_FN(alu)) {
		case 0:  op->fand = ~0u; break;
		case 1:  op->f_or = ~0u; break;
		case 2:  op->fnot = ~0u; break;
		default: op->fsum = ~0u; break;
		}
		op->inc = (uint8_t)(alu & MIC1_ALU_INC);
		op->sll = (alu & MIC1_ALU_SLL8) ? 8 : 0;
		op->sra = (alu & MIC1_ALU_SRA1) ? 1 : 0;
		op->b = (uint8_t)(b <= MIC1_B_OPC ? b : R_ZERO);
		op->bkind = b == MIC1_B_MBR ? BK_MBR : b == MIC1_B_MBRU ?
		    BK_MBRU : b <= MIC1_B_OPC ? BK_FIELD : BK_ZERO;
		op->boff = op->bkind == BK_FIELD ? mf1_boff[b] : 0;
		op->ct[0] = op->ct[1] = R_SINK;
		for (int i = 0; i < MIC1_SIZE_C; i++)
			if (cb & (1u << i)) {
				op->coff[op->nc] = mf1_coff[i];
				op->ct[op->nc++] = mf1_cidx[i];
			}
		op->cmar = (cb & MIC1_C_MAR) != 0;
		op->mem = (uint8_t)mic1_mem(w);
		op->jam = jam != 0;
		op->jamn = (jam & MIC1_JAM_N) != 0;
		op->jamz = (jam & MIC1_JAM_Z) != 0;
		op->jmpc = (jam & MIC1_JAM_PC) != 0;
		op->main1 = a == cs->main1;
		op->next = (uint16_t)mic1_next(w);
	}
	return f;
}

static void
mf1_free(void *fx)
{
	free(fx);
}

static void
mf1_set_watch(void *fx, struct micro_fast_watch *w)
{
	((struct mf1 *)fx)->watch = w;
}

static void
mf1_patch(void *fx, const struct engine_run *r, int on)
{
	struct mf1 *f = fx;

	micro_fast_pcs_set(&f->pcs, on ? r : NULL);
	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];
		int mpc = bp->on == ENGINE_BP_ON_MPC;
		int32_t a = mpc ? bp->pc : (int32_t)f->cs->main1;
		uint8_t bit = mpc ? MF_TRAP_BP : MF_TRAP_PCBP;

		if (a < 0 || a >= MIC1_STORE_WORDS)
			continue;	/* no MPC reaches it */
		if (on)
			f->op[a].trap |= bit;
		else
			f->op[a].trap &= (uint8_t)~bit;
	}
}

/* The core stands on a marked word (engine_check_bps then decides). */
static inline int
mf1_marked(const void *fx, const struct core *c)
{
	const struct mf1 *f = fx;

	return c->mpc >= MIC1_STORE_WORDS ||
	    (f->op[c->mpc].trap & (MF_TRAP_BP | MF_TRAP_PCBP)) != 0;
}

MF_LOOP
mf1_loop(struct engine *e, void *fx, void *stv, const struct engine_run *r,
    uint32_t core, uint64_t budget, int first, int ahead, uint32_t pw,
    enum micro_fast_ev *ev)
{
	const struct mf1 *f = fx;
	struct machine *m = e->m;
	struct mic1_state *st = stv;
	struct core *c = &m->cores[core];
	struct mic1_core *k = &st->core[core];
	const uint8_t *text;
	const struct mf1_op *op, *last;
	uint32_t R[NREG], tsize, n, z, mpc, pend, mbr_state;
	int32_t mar_latch, pc_latch, mbr_addr, insn_pc, mbr;
	int32_t *rdp, *stack;
	uint32_t swords = m->cfg.stack_words;
	uint64_t left = budget, cycles, steps;
	uint32_t id;
	MF_WATCH_LOCALS;

#define SAVE() do {							\
	c->mdr = (int32_t)R[R_MDR]; c->pc = (int32_t)R[R_PC];		\
	c->sp = (int32_t)R[R_SP]; c->lv = (int32_t)R[R_LV];		\
	c->cpp = (int32_t)R[R_CPP]; c->tos = (int32_t)R[R_TOS];	\
	c->opc = (int32_t)R[R_OPC]; c->h = (int32_t)R[R_H];		\
	c->mar = (int32_t)R[R_MAR]; c->mbr = mbr;			\
	c->n = (uint8_t)n; c->z = (uint8_t)z; c->mpc = (uint16_t)mpc;	\
	c->cycles += cycles; c->steps += steps; cycles = steps = 0;	\
	k->pending = (uint8_t)pend; k->mbr_state = (uint8_t)mbr_state;	\
	k->mar_latch = mar_latch; k->pc_latch = pc_latch;		\
	k->mbr_addr = mbr_addr; k->insn_pc = insn_pc;			\
	if (last != NULL)						\
		k->mir = f->cs->word[last - f->op];			\
	last = NULL;							\
} while (0)

reload:
	stack = micro_fast_stack(m, core);
	text = m->progs[c->prog]->text;
	tsize = m->progs[c->prog]->text_size;
	R[R_MDR] = (uint32_t)c->mdr;
	R[R_PC] = (uint32_t)c->pc;
	mbr = c->mbr;	/* as set; the B bus and JMPC read its byte */
	R[R_MBRU] = (uint8_t)mbr;
	R[R_MBR] = (uint32_t)(int32_t)(int8_t)R[R_MBRU];
	R[R_SP] = (uint32_t)c->sp;
	R[R_LV] = (uint32_t)c->lv;
	R[R_CPP] = (uint32_t)c->cpp;
	R[R_TOS] = (uint32_t)c->tos;
	R[R_OPC] = (uint32_t)c->opc;
	R[R_ZERO] = 0;
	R[R_SINK] = 0;
	R[R_H] = (uint32_t)c->h;
	R[R_MAR] = (uint32_t)c->mar;
	n = c->n;
	z = c->z;
	mpc = c->mpc;
	pend = k->pending;
	mbr_state = k->mbr_state;
	mar_latch = k->mar_latch;
	pc_latch = k->pc_latch;
	mbr_addr = k->mbr_addr;
	insn_pc = k->insn_pc;
	cycles = steps = 0;
	last = NULL;
	rdp = (pend & MIC1_PEND_READ) ?
	    micro_fast_word(m, core, stack, swords, (uint32_t)mar_latch, 0) :
	    NULL;
	if (mpc >= MIC1_STORE_WORDS)
		goto slow;

	while (left > 0) {
		uint32_t a, b, out, res, mar1, mdr1, next;
		int32_t *wp = NULL;

		op = &f->op[mpc];
		MF_TRAPS(micro_fast_pc_listed(&f->pcs,
		    (int32_t)R[R_PC]));
		first = 0;
		if (UNLIKELY((pend & MIC1_PEND_READ) && rdp == NULL))
			goto slow;	/* a device word completes */
		if (ahead && (pend & MIC1_PEND_READ) && !micro_fast_private(
		    stack, (uint32_t)mar_latch, swords) && !micro_fast_const(
		    m->progs[c->prog], (uint32_t)mar_latch))
			goto slow;	/* a shared word completes: sync */

		/* 1: datapath, nothing written yet */
		a = (R[R_H] & op->amask) ^ op->ainv;
		b = R[op->b] & op->bmask;
		out = ((a & b) & op->fand) | ((a | b) & op->f_or) |
		    (~b & op->fnot) | ((a + b) & op->fsum);
		out += op->inc;
		res = out << op->sll;
		res = (res >> op->sra) | (res & 0x80000000u);
		mar1 = op->cmar ? res : R[R_MAR];
		if (op->mem & (MIC1_MEM_READ | MIC1_MEM_WRITE)) {
			wp = micro_fast_word(m, core, stack, swords, mar1,
			    (op->mem & MIC1_MEM_WRITE) != 0);
			if (UNLIKELY(wp == NULL))
				goto slow;	/* a device or a fault */
			/* a READ issued reads nothing yet */
			if (ahead && (op->mem & MIC1_MEM_WRITE) &&
			    !micro_fast_private(stack, mar1, pw))
				goto slow;	/* sync */
		}
		if (UNLIKELY(op->jmpc && ((pend & MIC1_PEND_FETCH) ?
		    (uint32_t)pc_latch >= tsize :
		    mbr_state == MIC1_MBR_INVALID)))
			goto slow;	/* JMPC on an invalid MBR faults */

		/* the boundary (step 0) */
		if (op->main1 && pend == 0 && mbr_state != MIC1_MBR_RESET &&
		    mbr_addr == (int32_t)R[R_PC]) {
			steps++;
			insn_pc = (int32_t)R[R_PC];
		}
		cycles++;
		last = op;
		n = out >> 31;
		z = out == 0;
		R[op->ct[0]] = res;
		R[op->ct[1]] = res;
		for (uint32_t i = 2; UNLIKELY(i < op->nc); i++)
			R[op->ct[i]] = res;
		mdr1 = R[R_MDR];

		/* 2: last cycle's READ/FETCH complete */
		if (pend & MIC1_PEND_READ)
			R[R_MDR] = (uint32_t)*rdp;
		if (pend & MIC1_PEND_FETCH) {
			if ((uint32_t)pc_latch < tsize) {
				R[R_MBRU] = text[pc_latch];
				mbr_state = MIC1_MBR_FETCHED;
			} else {
				R[R_MBRU] = 0;
				mbr_state = MIC1_MBR_INVALID;
			}
			R[R_MBR] = (uint32_t)(int32_t)(int8_t)R[R_MBRU];
			mbr = (int32_t)R[R_MBRU];
			mbr_addr = pc_latch;
		}
		pend = 0;

		/* 3: this cycle's */
		if (op->mem & MIC1_MEM_WRITE) {
			*wp = (int32_t)mdr1;
			if (UNLIKELY(watching) && micro_fast_watched(mw, wp))
				wnote = 1;
		}
		if (op->mem & MIC1_MEM_READ) {
			pend = MIC1_PEND_READ;
			mar_latch = (int32_t)mar1;
			rdp = wp;
		}
		if (op->mem & MIC1_MEM_FETCH) {
			pend |= MIC1_PEND_FETCH;
			pc_latch = (int32_t)R[R_PC];
		}

		/* 4: next MPC */
		/* branches, not arithmetic: a predicted branch lets the
		 * next word load before this cycle's ALU is done */
		next = op->next;
		if (op->jam) {
			if ((op->jamn & n) | (op->jamz & z))
				next |= 1u << MIC1_BIT_NEXT_JAM;
			if (op->jmpc)
				next |= R[R_MBRU];
		}
		mpc = next & (MIC1_STORE_WORDS - 1);
		left--;
		if (UNLIKELY(mpc == MIC1_HALT_MPC)) {
			SAVE();
			c->status = CORE_HALTED;
			*ev = MF_EV_STATUS;
			return budget - left;
		}
		MF_WATCH_NOTE(R[R_LV]);
	}
	MF_LOOP_END(mic1_cycle, mf1_marked);
#undef SAVE
}

/*
 * One cycle of a core in a lockstep step, on its struct core in place:
 * a step of many cores runs one cycle of each, where copying every
 * core's registers into locals and back would cost more than the cycle.
 * The same conditions as the loop's fast path, checked first; 0 when
 * one fails (nothing changed), and the loop runs the cycle.
 */
static inline int
mf1_direct(struct engine *e, void *fx, void *stv, uint32_t core,
    int *changed, int *atbp)
{
	const struct mf1 *f = fx;
	struct machine *m = e->m;
	struct mic1_state *st = stv;
	struct core *c = &m->cores[core];
	struct mic1_core *k = &st->core[core];
	const struct mf1_op *op;
	const struct program *p;
	char *base = (char *)c;
	uint32_t a, b, out, res, mar1, mdr1, next, mbru, tsize;
	int32_t *wp = NULL, *rdp = NULL, *stack;
	struct micro_fast_watch *mw = f->watch;

	if (c->mpc >= MIC1_STORE_WORDS || (op = &f->op[c->mpc])->trap != 0)
		return 0;
	p = m->progs[c->prog];
	tsize = p->text_size;
	stack = micro_fast_stack(m, core);
	if ((k->pending & MIC1_PEND_READ) && (rdp = micro_fast_word(m, core,
	    stack, m->cfg.stack_words, (uint32_t)k->mar_latch, 0)) == NULL)
		return 0;
	mbru = (uint8_t)c->mbr;
	switch (op->bkind) {
	case BK_FIELD:	b = *(uint32_t *)(void *)(base + op->boff); break;
	case BK_MBR:	b = (uint32_t)(int32_t)(int8_t)mbru; break;
	case BK_MBRU:	b = mbru; break;
	default:	b = 0; break;
	}
	a = ((uint32_t)c->h & op->amask) ^ op->ainv;
	b &= op->bmask;
	out = ((a & b) & op->fand) | ((a | b) & op->f_or) |
	    (~b & op->fnot) | ((a + b) & op->fsum);
	out += op->inc;
	res = out << op->sll;
	res = (res >> op->sra) | (res & 0x80000000u);
	mar1 = op->cmar ? res : (uint32_t)c->mar;
	if ((op->mem & (MIC1_MEM_READ | MIC1_MEM_WRITE)) && (wp =
	    micro_fast_word(m, core, stack, m->cfg.stack_words, mar1,
	    (op->mem & MIC1_MEM_WRITE) != 0)) == NULL)
		return 0;
	if (op->jmpc && ((k->pending & MIC1_PEND_FETCH) ?
	    (uint32_t)k->pc_latch >= tsize : k->mbr_state == MIC1_MBR_INVALID))
		return 0;

	if (op->main1 && k->pending == 0 && k->mbr_state != MIC1_MBR_RESET &&
	    k->mbr_addr == c->pc) {
		c->steps++;
		k->insn_pc = c->pc;
	}
	c->cycles++;
	k->mir = f->cs->word[c->mpc];
	c->n = (uint8_t)(out >> 31);
	c->z = out == 0;
	for (uint32_t i = 0; i < op->nc; i++)
		*(int32_t *)(void *)(base + op->coff[i]) = (int32_t)res;
	mdr1 = (uint32_t)c->mdr;
	if (k->pending & MIC1_PEND_READ)
		c->mdr = *rdp;
	if (k->pending & MIC1_PEND_FETCH) {
		if ((uint32_t)k->pc_latch < tsize) {
			c->mbr = p->text[k->pc_latch];
			k->mbr_state = MIC1_MBR_FETCHED;
		} else {
			c->mbr = 0;
			k->mbr_state = MIC1_MBR_INVALID;
		}
		k->mbr_addr = k->pc_latch;
	}
	k->pending = 0;
	if (op->mem & MIC1_MEM_WRITE)
		*wp = (int32_t)mdr1;
	if (op->mem & MIC1_MEM_READ) {
		k->pending = MIC1_PEND_READ;
		k->mar_latch = (int32_t)mar1;
	}
	if (op->mem & MIC1_MEM_FETCH) {
		k->pending |= MIC1_PEND_FETCH;
		k->pc_latch = c->pc;
	}
	next = op->next;
	if (op->jam) {
		if ((op->jamn & c->n) | (op->jamz & c->z))
			next |= 1u << MIC1_BIT_NEXT_JAM;
		if (op->jmpc)
			next |= (uint8_t)c->mbr;
	}
	c->mpc = (uint16_t)(next & (MIC1_STORE_WORDS - 1));
	if (c->mpc == MIC1_HALT_MPC) {
		c->status = CORE_HALTED;
		*changed = 1;
	} else if (mf1_marked(f, c))
		*atbp = 1;
	if (UNLIKELY(mw != NULL && mw->r != NULL) &&
	    (((op->mem & MIC1_MEM_WRITE) && micro_fast_watched(mw, wp)) ||
	    c->lv < mw->frame[core]))
		micro_fast_watch_note(mw, m);
	return 1;
}

MICRO_FAST_ENTRIES(mf1, mf1_loop, mf1_direct)

const struct micro_fast mic1_fast = {
	.create = mf1_create,
	.free = mf1_free,
	.patch = mf1_patch,
	.set_watch = mf1_set_watch,
	.exec = mf1_exec,
	.ahead = mf1_ahead,
	.lockstep = mf1_lockstep,
};
