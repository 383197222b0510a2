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
 * 0 for the numbers that read nothing - and lives with N, Z and the
 * side state in one record during a run (struct mfp_x).  A unit whose
 * operation is a sum (11 of the 16: A, A+B, A-B, -A, not A, the
 * constants, ...) is decoded to two masked, maybe inverted inputs and
 * a carry, so that it costs no dispatch on its operation.  Each word's
 * unit count, memory operations and next-address kind are its shape
 * (MFP_SHAPE), which picks a function (mfp_fns) that runs the cycle with
 * those as constants: one indirect call decides them all, the units'
 * loop unrolls.  Each shape is a function of its own so that every
 * function stays small: the sanitizer and fuzzing builds of one huge
 * loop took longer than the suite may (doc/performance.md 24, 24.2).
 * As at Mic-1, a run with nothing watched calls one word's function
 * after another, a word with a trap having a shape whose function runs
 * nothing (tshape, MFP_SHAPE_TRAP; doc/performance.md 24.3).  On x86-64
 * such a run, and a run-ahead window's private run, hands the core,
 * after each word it runs itself, to the control store translated into
 * machine code (pmic-jit.c), which runs the words after it up to one it
 * leaves to this loop, in this loop's record (struct mfp_x, pmic-jit.h;
 * doc/performance.md 24.5, 24.9): a private run's code stores only to
 * the stack words below its pw and leaves before any cycle another core
 * may see, which this loop then stops before (MF_EV_SYNC).
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
#include "pmic-jit.h"
#include "pmic.h"
#include "util.h"

/* The register file: pmic-jit.h's MFP_NREG registers. */
#define MFP_NONE	PMIC_NCU	/* no unit writes the register */

/*
 * A word's shape: its enabled units, memory operations and next-address
 * kind as one number (MFP_SHAPE), which picks the cycle's function.
 * Next address: NEXT_ADDR alone, JAMN or JAMZ alone, or JMPC (with or
 * without them).
 */
enum { MFP_J_NEXT, MFP_J_NZ, MFP_J_PC };
#define MFP_SHAPE(ncu, f, rd, wr, j)					\
	(((((j) * 2 + (wr)) * 2 + (rd)) * 2 + (f)) * (PMIC_NCU + 1) + (ncu))
#define MFP_NSHAPE	MFP_SHAPE(0, 0, 0, 0, 3)
/* A word with a trap, in the run's own loop (mfp_op's tshape): its
 * function does nothing and says so (MFP_TRAP). */
#define MFP_SHAPE_TRAP	MFP_NSHAPE

/* A unit: a sum (mfp_unit; an input it does not read is MFP_ZERO) or
 * its operation itself. */
struct mfp_cu {
	uint32_t	ai, bi;          /* a sum's inversions, 0 or ~0 */
	uint8_t		alu;
	uint8_t		a, b;
	uint8_t		nc;
	uint8_t		sum;             /* (A ^ ai) + (B ^ bi) + cin */
	uint8_t		cin;
	uint8_t		ct[PMIC_NC];
};

/* 128 bytes, two cache lines: an address is a shift away. */
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
	uint8_t		shape;         /* MFP_SHAPE() */
	uint8_t		tshape;        /* shape, MFP_SHAPE_TRAP with a trap */
	uint8_t		wide;          /* a unit has more than 2 C targets */
	uint16_t	next;
};

struct mfp {
	struct mfp_op	op[PMIC_STORE_WORDS];
	struct micro_fast_pcs pcs;      /* of the current run */
	struct micro_fast_watch *watch; /* the engine's */
	struct pmic_jit	*jit;           /* NULL: the loop alone */
};

/* Unit u's operation as a sum, when it is one. */
static void
mfp_sum(struct mfp_cu *u)
{
	/* A's mask, A inverted, B's mask, B inverted, carry: */
	static const uint8_t sum[][5] = {
		[PMIC_ALU_ZERO] = { 0, 0, 0, 0, 0 },
		[PMIC_ALU_ONE] = { 0, 0, 0, 0, 1 },
		[PMIC_ALU_MINUS1] = { 0, 1, 0, 0, 0 },
		[PMIC_ALU_A] = { 1, 0, 0, 0, 0 },
		[PMIC_ALU_ADD] = { 1, 0, 1, 0, 0 },
		[PMIC_ALU_ADD1] = { 1, 0, 1, 0, 1 },
		[PMIC_ALU_INC] = { 1, 0, 0, 0, 1 },
		[PMIC_ALU_DEC] = { 1, 0, 0, 1, 0 },
		[PMIC_ALU_SUB] = { 1, 0, 1, 1, 1 },
		[PMIC_ALU_NEG] = { 1, 1, 0, 0, 1 },
		[PMIC_ALU_NOT] = { 1, 1, 0, 0, 0 },
	};

	if (u->alu > PMIC_ALU_NOT)
		return;
	u->sum = 1;
	if (!sum[u->alu][0])
		u->a = MFP_ZERO;
	u->ai = 0u - sum[u->alu][1];
	if (!sum[u->alu][2])
		u->b = MFP_ZERO;
	u->bi = 0u - sum[u->alu][3];
	u->cin = sum[u->alu][4];
}

static struct pmic_jit *mfp_jit_traps(struct mfp *f, struct pmic_jit *j,
	    const struct pmic_store *cs);

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
			mfp_sum(u);
			u->ct[0] = u->ct[1] = MFP_SINK;
			for (int j = 0; j < PMIC_NC; j++)
				if (cb & (1u << j))
					u->ct[u->nc++] = pmic_jit_creg[j];
			if (cb & PMIC_C_MAR)
				op->mar_cu = op->ncu;
			if (cb & PMIC_C_PC)
				op->pc_cu = op->ncu;
			if (i == 0)
				op->en0 = 1;
			if (u->nc > 2)
				op->wide = 1;
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
		op->shape = (uint8_t)MFP_SHAPE(op->ncu, op->fetch != 0,
		    op->read != 0, op->write != 0, op->jmpc ? MFP_J_PC :
		    op->jam ? MFP_J_NZ : MFP_J_NEXT);
		op->tshape = op->trap ? MFP_SHAPE_TRAP : op->shape;
	}
	f->jit = mfp_jit_traps(f, NULL, cs);
	return f;
}

/* The words with a trap, to the translation (made where cs is not NULL:
 * the one at create, NULL off x86-64). */
static struct pmic_jit *
mfp_jit_traps(struct mfp *f, struct pmic_jit *j, const struct pmic_store *cs)
{
	uint8_t trapped[PMIC_STORE_WORDS];

	for (uint32_t a = 0; a < PMIC_STORE_WORDS; a++)
		trapped[a] = f->op[a].trap;
	if (cs != NULL)
		return pmic_jit_new(cs, trapped);
	pmic_jit_traps(j, trapped);
	return j;
}

static void
mfp_free(void *fx)
{
	struct mfp *f = fx;

	pmic_jit_free(f->jit);
	free(f);
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
	for (uint32_t a = 0; a < PMIC_STORE_WORDS; a++)
		f->op[a].tshape = f->op[a].trap ? MFP_SHAPE_TRAP :
		    f->op[a].shape;
	mfp_jit_traps(f, f->jit, NULL);
}

/* Before a window (micro_fast.prepare): the translation for the traps
 * as they are, which its private runs may not make (pmic_jit_ready). */
static void
mfp_prepare(void *fx)
{
	pmic_jit_prepare(((struct mfp *)fx)->jit);
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

#ifdef __GNUC__
#define MFP_INLINE static inline __attribute__((always_inline))
#define MFP_NOINLINE static __attribute__((noinline))
#else
#define MFP_INLINE static inline
#define MFP_NOINLINE static
#endif

/* A unit's operation that is no sum: rare, out of the cycle's way. */
MFP_NOINLINE uint32_t
mfp_alu(const struct mfp_cu *u, uint32_t a, uint32_t b)
{
	return pmic_alu_eval(u->alu, a, b);
}

/* One unit's output from the registers as they are now. */
MFP_INLINE uint32_t
mfp_unit(const struct mfp_cu *u, const uint32_t *R)
{
	uint32_t a = R[u->a], b = R[u->b];

	if (UNLIKELY(!u->sum))
		return mfp_alu(u, a, b);
	return (a ^ u->ai) + (b ^ u->bi) + u->cin;
}

/* A unit's output to its C targets (more than two: wide). */
MFP_INLINE void
mfp_store(uint32_t *R, const struct mfp_cu *u, uint32_t v, int wide)
{
	R[u->ct[0]] = v;
	R[u->ct[1]] = v;
	for (uint32_t j = 2; UNLIKELY(wide) && j < u->nc; j++)
		R[u->ct[j]] = v;
}

/* A FETCH of the four bytes at pc. */
MFP_INLINE void
mfp_fetch(struct mfp_x *x, uint32_t pc)
{
	uint32_t v = 0;

	if (pc < x->u.tsize && x->u.tsize - pc >= 4) {
		v = (uint32_t)x->u.text[pc] << 24 |
		    (uint32_t)x->u.text[pc + 1] << 16 |
		    (uint32_t)x->u.text[pc + 2] << 8 | x->u.text[pc + 3];
		x->valid = 0xF;
	} else {
		x->valid = 0;
		for (uint32_t i = 0; i < 4; i++) {
			v <<= 8;
			if (pc + i < x->u.tsize) {
				v |= x->u.text[pc + i];
				x->valid |= 8u >> i;
			}
		}
	}
	mfp_mbr_views(x->R, v);
	x->mbr_addr = (int32_t)pc;
}

/* What a shape function returns instead of the next MPC: nothing ran,
 * the golden model runs the cycle (a device, a fault, a sync). */
#define MFP_SLOW	0x10000u
#define MFP_TRAP	0x10001u  /* a word with a trap: nothing ran */

/*
 * The body of a shape function: one cycle of the word op at mpc with
 * NCU enabled units, FETCH (F), READ (RD), WRITE (WR) and next-address
 * kind J as constants; AH: a private run (micro_fast.ahead).  Every
 * test that can send the cycle to the golden model comes before
 * anything is written.
 */
_Static_assert(PMIC_NCU == 3, "MFP_CYCLE unrolls three units");
#define MFP_CYCLE(NCU, F, RD, WR, J, AH) {				\
	uint32_t res[PMIC_NCU] = { 0 }, mar1 = 0, pc1 = 0, next;	\
	int32_t *wp = NULL;						\
									\
	if ((NCU) > 0)	/* the units, unrolled */			\
		res[0] = mfp_unit(&op->cu[0], x->R);			\
	if ((NCU) > 1)							\
		res[1] = mfp_unit(&op->cu[1], x->R);			\
	if ((NCU) > 2)							\
		res[2] = mfp_unit(&op->cu[2], x->R);			\
	if ((RD) || (WR))						\
		mar1 = op->mar_cu < (NCU) ? res[op->mar_cu] :		\
		    x->R[PMIC_R_MAR];					\
	if ((F) || (J) == MFP_J_PC)					\
		pc1 = op->pc_cu < (NCU) ? res[op->pc_cu] :		\
		    x->R[PMIC_R_PC];					\
	if ((RD) || (WR)) {						\
		wp = micro_fast_word(x->u.m, x->u.core, x->u.stack, x->u.swords, \
		    mar1, (WR));					\
		if (UNLIKELY(wp == NULL))				\
			return MFP_SLOW;	/* a device or a fault */ \
		if ((AH) && ((WR) ? !micro_fast_private(x->u.stack,	\
		    mar1, x->u.pw) : !micro_fast_readable(&x->u, mar1)))	\
			return MFP_SLOW;	/* sync */		\
	}								\
	if ((J) == MFP_J_PC && UNLIKELY((F) ? pc1 >= x->u.tsize :		\
	    !(x->valid & 8)))						\
		return MFP_SLOW;	/* JMPC on an invalid MBR0 faults */ \
									\
	if (x->entry && x->mbr_addr == (int32_t)x->R[PMIC_R_PC] &&	\
	    mpc == x->R[PMIC_R_MBR0]) {					\
		x->u.steps++;	/* the boundary */			\
		x->insn_pc = (int32_t)x->R[PMIC_R_PC];			\
	}								\
	if ((NCU) > 0 && op->en0) {					\
		x->n = res[0] >> 31;					\
		x->z = res[0] == 0;					\
	}								\
	if ((NCU) > 0)							\
		mfp_store(x->R, &op->cu[0], res[0], op->wide);	\
	if ((NCU) > 1)							\
		mfp_store(x->R, &op->cu[1], res[1], op->wide);	\
	if ((NCU) > 2)							\
		mfp_store(x->R, &op->cu[2], res[2], op->wide);	\
	if (WR) {							\
		*wp = (int32_t)x->R[PMIC_R_MDR];			\
		if (UNLIKELY(x->u.mw != NULL) && micro_fast_watched(x->u.mw, wp)) \
			x->u.wnote = 1;					\
	}								\
	if (RD)								\
		x->R[PMIC_R_MDR] = (uint32_t)*wp;			\
	if (F)								\
		mfp_fetch(x, pc1);					\
	next = op->next;						\
	x->entry = 0;							\
	if ((J) == MFP_J_PC)						\
		next |= x->R[PMIC_R_MBR0];				\
	if ((J) != MFP_J_NEXT && ((op->jamn && x->n) ||			\
	    (op->jamz && x->z)))					\
		next ^= 1u << PMIC_BIT_NEXT_JAM;			\
	next &= PMIC_STORE_WORDS - 1;					\
	if ((J) == MFP_J_PC)						\
		x->entry = next == x->R[PMIC_R_MBR0];			\
	return next;							\
}

/* The shape functions: each one small (engine-mic1-fast.c's). */
typedef uint32_t mfp_fn(struct mfp_x *x, const struct mfp_op *op,
    uint32_t mpc);
#define MFP_FN(NCU, F, RD, WR, J)					\
static uint32_t								\
mfp_c_##NCU##F##RD##WR##J(struct mfp_x *x, const struct mfp_op *op,	\
    uint32_t mpc)							\
MFP_CYCLE(NCU, F, RD, WR, J, 0)
#define MFP_FNS(F, RD, WR, J)						\
	MFP_FN(0, F, RD, WR, J) MFP_FN(1, F, RD, WR, J)			\
	MFP_FN(2, F, RD, WR, J) MFP_FN(3, F, RD, WR, J)
#define MFP_FNS_J(J)							\
	MFP_FNS(0, 0, 0, J) MFP_FNS(1, 0, 0, J) MFP_FNS(0, 1, 0, J)	\
	MFP_FNS(1, 1, 0, J) MFP_FNS(0, 0, 1, J) MFP_FNS(1, 0, 1, J)	\
	MFP_FNS(0, 1, 1, J) MFP_FNS(1, 1, 1, J)
MFP_FNS_J(0)
MFP_FNS_J(1)
MFP_FNS_J(2)

/* A private run's cycle: every test at run time. */
static uint32_t
mfp_any_ahead(struct mfp_x *x, const struct mfp_op *op, uint32_t mpc)
MFP_CYCLE(op->ncu, op->fetch, op->read, op->write, op->jmpc ? MFP_J_PC :
    op->jam ? MFP_J_NZ : MFP_J_NEXT, 1)

/* A word with a trap: the loop's MF_TRAPS decides it. */
static uint32_t
mfp_trapped(struct mfp_x *x, const struct mfp_op *op, uint32_t mpc)
{
	(void)x;
	(void)op;
	(void)mpc;
	return MFP_TRAP;
}

/* The shape functions by MFP_SHAPE(). */
#define MFP_TAB(F, RD, WR, J)						\
	[MFP_SHAPE(0, F, RD, WR, J)] = mfp_c_0##F##RD##WR##J,		\
	[MFP_SHAPE(1, F, RD, WR, J)] = mfp_c_1##F##RD##WR##J,		\
	[MFP_SHAPE(2, F, RD, WR, J)] = mfp_c_2##F##RD##WR##J,		\
	[MFP_SHAPE(3, F, RD, WR, J)] = mfp_c_3##F##RD##WR##J
#define MFP_TAB_J(J)							\
	MFP_TAB(0, 0, 0, J), MFP_TAB(1, 0, 0, J), MFP_TAB(0, 1, 0, J),	\
	MFP_TAB(1, 1, 0, J), MFP_TAB(0, 0, 1, J), MFP_TAB(1, 0, 1, J),	\
	MFP_TAB(0, 1, 1, J), MFP_TAB(1, 1, 1, J)
static mfp_fn *const mfp_fns[MFP_SHAPE_TRAP + 1] = {
	MFP_TAB_J(0), MFP_TAB_J(1), MFP_TAB_J(2),
	[MFP_SHAPE_TRAP] = mfp_trapped,
};

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
	const struct mfp_op *op;
	struct mfp_x x;
	uint32_t mpc;
	uint64_t left = budget, mark;
	uint32_t id;
	MF_WATCH_LOCALS;

	/* the cycles are those left went down by (mark: left at the last
	 * write-back) */
#define SAVE() do {							\
	c->mar = (int32_t)x.R[PMIC_R_MAR];				\
	c->mdr = (int32_t)x.R[PMIC_R_MDR];				\
	c->pc = (int32_t)x.R[PMIC_R_PC];				\
	c->mbr = (int32_t)x.R[PMIC_R_MBR];				\
	c->sp = (int32_t)x.R[PMIC_R_SP]; c->lv = (int32_t)x.R[PMIC_R_LV]; \
	c->cpp = (int32_t)x.R[PMIC_R_CPP];				\
	c->tos = (int32_t)x.R[PMIC_R_TOS];				\
	c->opc = (int32_t)x.R[PMIC_R_OPC]; c->h = (int32_t)x.R[PMIC_R_H]; \
	k->g0 = (int32_t)x.R[PMIC_R_G0]; k->g1 = (int32_t)x.R[PMIC_R_G1]; \
	c->n = (uint8_t)x.n; c->z = (uint8_t)x.z; c->mpc = (uint16_t)mpc; \
	c->cycles += mark - left; c->steps += x.u.steps;			\
	mark = left; x.u.steps = 0;					\
	k->mbr_valid = (uint8_t)x.valid; k->entry = (uint8_t)x.entry;	\
	k->mbr_addr = x.mbr_addr; k->insn_pc = x.insn_pc;		\
} while (0)

	micro_fast_ctx_init(&x.u, m, core, pw, watching ? mw : NULL);
reload:
	micro_fast_ctx_load(&x.u);
	memset(x.R, 0, sizeof x.R);
	x.R[PMIC_R_MAR] = (uint32_t)c->mar;
	x.R[PMIC_R_MDR] = (uint32_t)c->mdr;
	x.R[PMIC_R_PC] = (uint32_t)c->pc;
	mfp_mbr_views(x.R, (uint32_t)c->mbr);
	x.R[PMIC_R_SP] = (uint32_t)c->sp;
	x.R[PMIC_R_LV] = (uint32_t)c->lv;
	x.R[PMIC_R_CPP] = (uint32_t)c->cpp;
	x.R[PMIC_R_TOS] = (uint32_t)c->tos;
	x.R[PMIC_R_OPC] = (uint32_t)c->opc;
	x.R[PMIC_R_H] = (uint32_t)c->h;
	x.R[PMIC_R_G0] = (uint32_t)k->g0;
	x.R[PMIC_R_G1] = (uint32_t)k->g1;
	x.R[PMIC_R_C2] = 2;
	x.R[PMIC_R_C3] = 3;
	x.R[PMIC_R_C4] = 4;
	x.R[PMIC_R_C5] = 5;
	x.R[PMIC_R_SID] = core;
	x.n = c->n;
	x.z = c->z;
	mpc = c->mpc;
	x.valid = k->mbr_valid;
	x.entry = k->entry;
	x.mbr_addr = k->mbr_addr;
	x.insn_pc = k->insn_pc;
	mark = left;
	if (mpc >= PMIC_STORE_WORDS)
		goto slow;

	while (left > 0) {
		uint32_t next;

		op = &f->op[mpc];
		MF_TRAPS(x.entry && micro_fast_pc_listed(&f->pcs,
		    (int32_t)x.R[PMIC_R_PC]));
		first = 0;
		if (UNLIKELY(x.entry && !(x.valid & 8)))
			goto slow;	/* entered with PC outside the text */
		if (!watching) {
			/*
			 * The run's own words, one after another, until a
			 * word with a trap (its tshape's function returns
			 * MFP_TRAP, and MF_TRAPS above decides it), the
			 * golden model or the budget (doc/performance.md
			 * section 24.3).  This word passed MF_TRAPS and the
			 * test above; a fast JMPC enters only with a valid
			 * MBR0, so the test holds for the words after it.
			 * A private run runs its words one by one, each
			 * through MF_TRAPS, where nothing is translated.
			 */
			next = ahead ? mfp_any_ahead(&x, op, mpc) :
			    mfp_fns[op->shape](&x, op, mpc);
			if (next < MFP_SLOW && left > 1 &&
			    !(f->op[next].trap & (x.entry ? 0xFF :
			    MF_TRAP_SLOW | MF_TRAP_BP)) &&
			    (ahead ? pmic_jit_ready(f->jit) :
			    pmic_jit_usable(f->jit))) {
				uint64_t ran;

				/* the words after it translated (pmic-jit.h),
				 * up to one the loop runs itself; not where
				 * that is the next one (its trap: a PC
				 * breakpoint's only after a dispatch).  A
				 * private run's code stores only below pw
				 * and leaves before every other cycle that
				 * mfp_any_ahead would not run (a sync) */
				mpc = next;
				left--;
				ran = pmic_jit_run(f->jit, &x, &mpc, left,
				    ahead ? pw : x.u.swords);
				if (ran > 0) {
					left -= ran;
					mfp_mbr_views(x.R, x.R[PMIC_R_MBR]);
				}
				continue;
			}
			while (next < MFP_SLOW) {
				mpc = next;
				if (UNLIKELY(--left == 0) || ahead)
					break;
				op = &f->op[mpc];
				next = mfp_fns[op->tshape](&x, op, mpc);
			}
			if (next == MFP_SLOW)
				goto slow;
			continue;
		}
		next = ahead ? mfp_any_ahead(&x, op, mpc) :
		    mfp_fns[op->shape](&x, op, mpc);
		if (UNLIKELY(next == MFP_SLOW))
			goto slow;
		mpc = next;
		left--;
		MF_WATCH_NOTE(x.R[PMIC_R_LV]);
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
	.prepare = mfp_prepare,
	.lockstep = mfp_lockstep,
};
