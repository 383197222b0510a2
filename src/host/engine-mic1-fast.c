/*
 * The fast Mic-1 level (micro-fast.h): mic1_cycle's semantics (mic1.c,
 * doc/mic1.md section 1) at the speed of a tuned interpreter.
 *
 * Every control-store word is decoded once into a struct mf1_op: the B
 * source as an index into a register file (0 where ENB is off), the A
 * input as a mask and an inversion (a = (H & amask) ^ ainv), the ALU
 * function as the masks of a sum (mf1_alu), the shifter as two shift
 * counts, the C targets as a list of indexes, and the JAM bits apart.
 * The register file (MBR twice: sign- and zero-extended, as the B bus
 * reads it; a constant 0 for the B values that drive nothing; a sink
 * that the unused first two C slots write) and every latch live in one
 * record during a run (struct mf1_x).  Each word's memory operations
 * and next-address kind are its shape (MF1_SHAPE), and the shape with
 * the READ and FETCH pending picks a function (mf1_fns) that runs the
 * cycle with those as constants: no test of them is left at run time,
 * one indirect call decides them all; the rare words take the whole
 * cycle (mf1_any).  Each shape is a function of its own, not a case of
 * one switch, so that every function stays small: the sanitizer and
 * fuzzing builds of one huge loop took longer than the suite may
 * (doc/performance.md sections 24, 24.2).  N and Z are kept as the ALU
 * output they come from and derived only when written back, the cycles
 * as the budget spent.  A run with nothing watched (exec) calls one
 * word's function after another with no other test between cycles:
 * a word with a trap has a shape of its own (tshape, MF1_SHAPE_TRAP)
 * whose function runs nothing, which sends the loop back to its tests
 * (doc/performance.md section 24.3).  Where the store could be
 * translated into host code (mic1-jit.h, x86-64 with executable memory),
 * that loop hands the core to the translation after each cycle it runs
 * itself, and runs itself only the cycles the translation leaves to it
 * (doc/performance.md section 24.4).  A private run of a run-ahead
 * window (ahead) does the same with the translation's write bound at
 * the window's copy (pw), and interprets (mf1_any_ahead) only the
 * cycles the code stops before (doc/performance.md section 24.8).
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

#include "mic1-jit.h"
#include "mic1.h"
#include "micro-fast.h"
#include "util.h"

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

/*
 * A word's shape: its memory operations and next-address kind as one
 * number, which with the pending READ/FETCH (MIC1_PEND_*, the low two
 * bits) picks the loop's case - a copy of the cycle where all three are
 * constants, so it has no test of them.  Memory: one of mf1_mems' six
 * sets; next address: NEXT_ADDRESS alone (not the halt word), JAMN or
 * JAMZ, JMPC, or JMPC at Main1.  Any other word (READ and WRITE
 * together, JMPC with JAMN or JAMZ, NEXT_ADDRESS at the halt word, ...)
 * is MF1_SHAPE_ANY, the whole cycle with every test.
 */
enum { MF1_J_NEXT, MF1_J_NZ, MF1_J_PC, MF1_J_MAIN1, MF1_NJ };
#define MF1_MEM_0	0
#define MF1_MEM_1	MIC1_MEM_READ
#define MF1_MEM_2	MIC1_MEM_WRITE
#define MF1_MEM_3	MIC1_MEM_FETCH
#define MF1_MEM_4	(MIC1_MEM_READ | MIC1_MEM_FETCH)
#define MF1_MEM_5	(MIC1_MEM_WRITE | MIC1_MEM_FETCH)
static const uint8_t mf1_mems[] = {
	MF1_MEM_0, MF1_MEM_1, MF1_MEM_2, MF1_MEM_3, MF1_MEM_4, MF1_MEM_5,
};
#define MF1_NMEM	(sizeof mf1_mems / sizeof mf1_mems[0])
#define MF1_SHAPE(j, mi)	(((j) * MF1_NMEM + (mi)) << 2)
#define MF1_SHAPE_ANY	MF1_SHAPE(MF1_NJ, 0)
/* A word with a trap, in the run's own loop (mf1_op's tshape): its
 * function does nothing and says so (MF1_TRAP). */
#define MF1_SHAPE_TRAP	MF1_SHAPE(MF1_NJ, 1)

/* 64 bytes, one cache line: an address is a shift away. */
struct mf1_op {
	_Alignas(64) uint32_t amask;    /* ENA: ~0 */
	uint32_t	ainv;     /* INVA: ~0 */
	/* the ALU as sums (mf1_alu): AND, OR, A+B and NOT B */
	uint32_t	kxor, kand, kadd, inc;
	/* for the cycle in place: the B source and C targets as offsets
	 * into struct core (bkind: BK_*) */
	uint8_t		bkind, boff;
	uint8_t		coff[MIC1_SIZE_C];
	uint8_t		sh;       /* the shifter works: */
	uint8_t		sll;      /* 8 or 0 */
	uint8_t		sra;      /* 1 or 0 */
	uint8_t		b;        /* register of the B bus (R_ZERO: none) */
	uint8_t		nc;       /* C targets */
	uint8_t		ct[MIC1_SIZE_C];
	uint8_t		cmar;     /* the C bus writes MAR */
	uint8_t		mem;      /* MIC1_MEM_* */
	uint8_t		jam;      /* any of: */
	uint8_t		jamn, jamz, jmpc;
	uint8_t		main1;    /* this is Main1: a boundary may start */
	uint8_t		trap;     /* MF_TRAP_* */
	uint8_t		shape;    /* MF1_SHAPE(), MF1_SHAPE_ANY */
	uint8_t		tshape;   /* shape, MF1_SHAPE_TRAP with a trap */
	uint16_t	next;
};

_Static_assert(sizeof(struct mf1_op) == 64, "struct mf1_op: one cache line");

struct mf1 {
	const struct mic1_store	*cs;
	struct micro_fast_pcs	 pcs;      /* of the current run */
	struct micro_fast_watch	*watch;    /* the engine's */
	struct mic1_jit		*jit;      /* the store translated, or NULL
					      (mic1-jit.h) */
	struct mf1_op		 op[MIC1_STORE_WORDS];
};

/* A decoded word's shape (MF1_SHAPE). */
static uint8_t
mf1_shape(const struct mf1_op *op)
{
	int j = op->jmpc ? (op->main1 ? MF1_J_MAIN1 : MF1_J_PC) :
	    op->jam ? MF1_J_NZ : op->main1 ? MF1_NJ : MF1_J_NEXT;

	if ((op->jmpc && (op->jamn || op->jamz)) || (j == MF1_J_NEXT &&
	    (op->next & (MIC1_STORE_WORDS - 1)) == MIC1_HALT_MPC))
		return MF1_SHAPE_ANY;
	for (size_t i = 0; i < MF1_NMEM; i++)
		if (op->mem == mf1_mems[i])
			return (uint8_t)(j == MF1_NJ ? MF1_SHAPE_ANY :
			    MF1_SHAPE(j, i));
	return MF1_SHAPE_ANY;
}

/* Translate the words with a shape of their own (not MF1_SHAPE_ANY);
 * without a translation the loop interprets every cycle. */
static void
mf1_jit_create(struct mf1 *f)
{
	uint8_t ok[MIC1_STORE_WORDS];

	for (uint32_t a = 0; a < MIC1_STORE_WORDS; a++)
		ok[a] = f->op[a].trap == 0 && f->op[a].shape != MF1_SHAPE_ANY;
	f->jit = mic1_jit_create(f->cs, ok);
}

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
		switch (MIC1_ALU_FN(alu)) {
		case 0:		op->kand = ~0u; break;		/* A AND B */
		case 1:		op->kxor = op->kand = ~0u; break; /* A OR B */
		case 2:		/* NOT B: A reads ~0, whatever ENA says */
			op->amask = 0;
			op->ainv = op->kxor = ~0u;
			break;
		default:	op->kxor = op->kand = op->kadd = ~0u; break;
		}
		op->inc = (alu & MIC1_ALU_INC) ? 1 : 0;
		op->sll = (alu & MIC1_ALU_SLL8) ? 8 : 0;
		op->sra = (alu & MIC1_ALU_SRA1) ? 1 : 0;
		op->sh = op->sll | op->sra;
		if (!(alu & MIC1_ALU_ENB))
			b = MIC1_B_OPC + 1;	/* the B bus reads 0 */
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
		op->shape = mf1_shape(op);
		op->tshape = op->trap ? MF1_SHAPE_TRAP : op->shape;
	}
	mf1_jit_create(f);
	return f;
}

static void
mf1_free(void *fx)
{
	struct mf1 *f = fx;

	mic1_jit_free(f->jit);
	free(f);
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
		f->op[a].tshape = f->op[a].trap ? MF1_SHAPE_TRAP :
		    f->op[a].shape;
	}
	if (f->jit != NULL && r->nbps > 0) {
		uint8_t trap[MIC1_STORE_WORDS];

		for (uint32_t a = 0; a < MIC1_STORE_WORDS; a++)
			trap[a] = f->op[a].trap != 0;
		if (mic1_jit_traps(f->jit, trap) != 0) {
			/* the code could not be patched: interpret */
			mic1_jit_free(f->jit);
			f->jit = NULL;
		}
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

/*
 * The ALU's output for inputs a (H as ENA and INVA leave it) and b (the
 * B bus as ENB leaves it), with no branch: every function is a sum of
 * a ^ b and a & b, the carries (a ^ b and a & b share no bit, so their
 * sum is a | b; a + b is (a ^ b) + 2 (a & b); NOT B is a ^ b with a
 * ~0, which mf1_create sets).  A dispatch on the function was an
 * indirect jump a cycle that the host predicted poorly
 * (doc/performance.md section 24.3).
 */
static inline uint32_t
mf1_alu(const struct mf1_op *op, uint32_t a, uint32_t b)
{
	uint32_t t = a & b & op->kand;

	return ((a ^ b) & op->kxor) + t + (t & op->kadd) + op->inc;
}

/* The shifter's output, the C bus. */
static inline uint32_t
mf1_shift(const struct mf1_op *op, uint32_t out)
{
	uint32_t res;

	if (!op->sh)
		return out;
	res = out << op->sll;
	return (res >> op->sra) | (res & 0x80000000u);
}

/*
 * A core's state while the loop runs it: the register file, the latches
 * and what a cycle looks up, in one record that the loop and the shape
 * functions share (a shape function is called through a pointer, so
 * the state cannot live in the loop's locals; the register file never
 * could, being indexed by the word's fields).
 */
struct mf1_x {
	uint32_t	 R[NREG];
	uint32_t	 pend, mbr_state;
	uint32_t	 out;        /* the last cycle's ALU output: N, Z */
	int32_t		 mar_latch, pc_latch, mbr_addr, insn_pc, mbr;
	int32_t		*rdp;        /* the word the pending READ reads */
	struct micro_fast_ctx	 u;         /* what it looks up */
};

/* What a shape function returns besides the next MPC: nothing ran, the
 * golden model runs the cycle (a device, a fault, a private run's
 * sync); or the cycle ran and reached the halt word. */
#define MF1_SLOW	0x10000u
#define MF1_HALT	0x10001u
#define MF1_TRAP	0x10002u  /* a word with a trap: nothing ran */

/*
 * The body of a shape function: one cycle where the pending operations
 * (P), the word's memory operations (MEM) and its next-address kind (J)
 * are constants (MF1_SHAPE), the tests that they decide folded away;
 * with J MF1_NJ (MF1_SHAPE_ANY's words) the word's own JAM bits and
 * Main1 decide.  AH: a private run (micro_fast.ahead), which stops
 * before a cycle another core may see.  Every test that can send the
 * cycle to the golden model comes before anything is written.
 */
#define MF1_HAS_PC(J)	((J) == MF1_J_PC || (J) == MF1_J_MAIN1 ||	\
	((J) == MF1_NJ && op->jmpc))
#define MF1_HAS_NZ(J)	((J) == MF1_J_NZ ||				\
	((J) == MF1_NJ && (op->jamn | op->jamz)))
#define MF1_HAS_MAIN1(J) ((J) == MF1_J_MAIN1 || ((J) == MF1_NJ && op->main1))
#define MF1_CYCLE(P, MEM, J, AH) {					\
	uint32_t alu, res, mar1 = 0, mdr1, next;			\
	int32_t *wp = NULL;						\
									\
	if ((P) & MIC1_PEND_READ) {					\
		if (UNLIKELY(x->rdp == NULL))				\
			return MF1_SLOW;	/* a device word */	\
		if ((AH) && !micro_fast_readable(&x->u,			\
		    (uint32_t)x->mar_latch))				\
			return MF1_SLOW;	/* a shared word */	\
	}								\
	alu = mf1_alu(op, (x->R[R_H] & op->amask) ^ op->ainv,		\
	    x->R[op->b]);						\
	res = mf1_shift(op, alu);					\
	if ((MEM) & (MIC1_MEM_READ | MIC1_MEM_WRITE)) {			\
		mar1 = op->cmar ? res : x->R[R_MAR];			\
		wp = micro_fast_word(x->u.m, x->u.core, x->u.stack, x->u.swords, \
		    mar1, ((MEM) & MIC1_MEM_WRITE) != 0);		\
		if (UNLIKELY(wp == NULL))				\
			return MF1_SLOW;	/* a device or a fault */ \
		if ((AH) && ((MEM) & MIC1_MEM_WRITE) &&			\
		    !micro_fast_private(x->u.stack, mar1, x->u.pw))		\
			return MF1_SLOW;	/* sync */		\
	}								\
	if (MF1_HAS_PC(J) && UNLIKELY(((P) & MIC1_PEND_FETCH) ?		\
	    (uint32_t)x->pc_latch >= x->u.tsize :				\
	    x->mbr_state == MIC1_MBR_INVALID))				\
		return MF1_SLOW;	/* JMPC on an invalid MBR faults */ \
	if (MF1_HAS_MAIN1(J) && (P) == 0 &&				\
	    x->mbr_state != MIC1_MBR_RESET &&				\
	    x->mbr_addr == (int32_t)x->R[R_PC]) {			\
		x->u.steps++;	/* the boundary */			\
		x->insn_pc = (int32_t)x->R[R_PC];			\
	}								\
	x->out = alu;							\
	x->R[op->ct[0]] = res;						\
	x->R[op->ct[1]] = res;						\
	for (uint32_t i_ = 2; UNLIKELY(i_ < op->nc); i_++)		\
		x->R[op->ct[i_]] = res;					\
	mdr1 = x->R[R_MDR];						\
	if ((P) & MIC1_PEND_READ)					\
		x->R[R_MDR] = (uint32_t)*x->rdp;			\
	if ((P) & MIC1_PEND_FETCH) {					\
		uint32_t mbru_ = 0;					\
									\
		x->mbr_state = MIC1_MBR_INVALID;			\
		if ((uint32_t)x->pc_latch < x->u.tsize) {			\
			mbru_ = x->u.text[x->pc_latch];			\
			x->mbr_state = MIC1_MBR_FETCHED;		\
		}							\
		x->R[R_MBRU] = mbru_;					\
		x->R[R_MBR] = (uint32_t)(int32_t)(int8_t)mbru_;		\
		x->mbr = (int32_t)mbru_;				\
		x->mbr_addr = x->pc_latch;				\
	}								\
	x->pend = (((MEM) & MIC1_MEM_READ) ? MIC1_PEND_READ : 0) |	\
	    (((MEM) & MIC1_MEM_FETCH) ? MIC1_PEND_FETCH : 0);		\
	if ((MEM) & MIC1_MEM_WRITE) {					\
		*wp = (int32_t)mdr1;					\
		if (UNLIKELY(x->u.mw != NULL) && micro_fast_watched(x->u.mw, wp)) \
			x->u.wnote = 1;					\
	}								\
	if ((MEM) & MIC1_MEM_READ) {					\
		x->mar_latch = (int32_t)mar1;				\
		x->rdp = wp;						\
	}								\
	if ((MEM) & MIC1_MEM_FETCH)					\
		x->pc_latch = (int32_t)x->R[R_PC];			\
	next = op->next;						\
	if (MF1_HAS_NZ(J) &&						\
	    ((op->jamn & (alu >> 31)) | (op->jamz & (alu == 0))))	\
		next |= 1u << MIC1_BIT_NEXT_JAM;			\
	if (MF1_HAS_PC(J))						\
		next |= x->R[R_MBRU];					\
	next &= MIC1_STORE_WORDS - 1;					\
	if ((J) != MF1_J_NEXT && UNLIKELY(next == MIC1_HALT_MPC))	\
		return MF1_HALT;					\
	return next;							\
}

/* The shape functions: each one small, so that no compiler (nor its
 * sanitizer builds) meets one huge function (doc/performance.md 24.2). */
typedef uint32_t mf1_fn(struct mf1_x *x, const struct mf1_op *op);
#define MF1_FN(J, MI, P)						\
static uint32_t								\
mf1_c_##J##_##MI##_##P(struct mf1_x *x, const struct mf1_op *op)	\
MF1_CYCLE(P, MF1_MEM_##MI, J, 0)
#define MF1_FNS(J, MI)							\
	MF1_FN(J, MI, 0) MF1_FN(J, MI, 1) MF1_FN(J, MI, 2) MF1_FN(J, MI, 3)
#define MF1_FNS_J(J)							\
	MF1_FNS(J, 0) MF1_FNS(J, 1) MF1_FNS(J, 2) MF1_FNS(J, 3)		\
	MF1_FNS(J, 4) MF1_FNS(J, 5)
MF1_FNS_J(0)
MF1_FNS_J(1)
MF1_FNS_J(2)
MF1_FNS_J(3)

/* Any word, any pending set: every test at run time. */
static uint32_t
mf1_any(struct mf1_x *x, const struct mf1_op *op)
MF1_CYCLE(x->pend, op->mem, MF1_NJ, 0)

/* The same in a private run: every cycle of one that the translation
 * does not run goes here (every cycle where there is none). */
static uint32_t
mf1_any_ahead(struct mf1_x *x, const struct mf1_op *op)
MF1_CYCLE(x->pend, op->mem, MF1_NJ, 1)

/* A word with a trap: the loop's MF_TRAPS decides it. */
static uint32_t
mf1_trapped(struct mf1_x *x, const struct mf1_op *op)
{
	(void)x;
	(void)op;
	return MF1_TRAP;
}

/* The shape functions by MF1_SHAPE() | pending set. */
#define MF1_TAB(J, MI)							\
	[MF1_SHAPE(J, MI) | 0] = mf1_c_##J##_##MI##_0,			\
	[MF1_SHAPE(J, MI) | 1] = mf1_c_##J##_##MI##_1,			\
	[MF1_SHAPE(J, MI) | 2] = mf1_c_##J##_##MI##_2,			\
	[MF1_SHAPE(J, MI) | 3] = mf1_c_##J##_##MI##_3
#define MF1_TAB_J(J)							\
	MF1_TAB(J, 0), MF1_TAB(J, 1), MF1_TAB(J, 2), MF1_TAB(J, 3),	\
	MF1_TAB(J, 4), MF1_TAB(J, 5)
static mf1_fn *const mf1_fns[MF1_SHAPE_TRAP + 4] = {
	MF1_TAB_J(0), MF1_TAB_J(1), MF1_TAB_J(2), MF1_TAB_J(3),
	[MF1_SHAPE_ANY | 0] = mf1_any, [MF1_SHAPE_ANY | 1] = mf1_any,
	[MF1_SHAPE_ANY | 2] = mf1_any, [MF1_SHAPE_ANY | 3] = mf1_any,
	[MF1_SHAPE_TRAP | 0] = mf1_trapped, [MF1_SHAPE_TRAP | 1] = mf1_trapped,
	[MF1_SHAPE_TRAP | 2] = mf1_trapped, [MF1_SHAPE_TRAP | 3] = mf1_trapped,
};

/*
 * Run x's core in the translated code (mic1-jit.h) from word mpc, at
 * most *left cycles: the word where it stopped (MIC1_HALT_MPC: the core
 * halted), the state in x as the interpreter would have left it there,
 * *left and *last updated.  Nothing runs unless MBR is fetched and a
 * pending READ's word known, as the code requires; the loop then runs
 * the cycle itself.  In a private run (ahead) the code writes the stack
 * only below x->u.pw and is not entered with a READ pending that
 * MF1_CYCLE's private path would not complete (a shared word): it
 * stops where that path stops, and the loop's mf1_any_ahead decides.
 */
static uint32_t
mf1_jit_go(const struct mf1 *f, struct mf1_x *x, uint32_t mpc,
    uint64_t *left, const struct mf1_op **last, int ahead)
{
	struct mic1_jx j;

	if (x->mbr_state != MIC1_MBR_FETCHED ||
	    x->mbr != (int32_t)x->R[R_MBRU] ||
	    ((x->pend & MIC1_PEND_READ) && (x->rdp == NULL || (ahead &&
	    !micro_fast_readable(&x->u, (uint32_t)x->mar_latch)))))
		return mpc;
	j.h = x->R[R_H]; j.mar = x->R[R_MAR]; j.mdr = x->R[R_MDR];
	j.pc = x->R[R_PC]; j.sp = x->R[R_SP]; j.lv = x->R[R_LV];
	j.tos = x->R[R_TOS]; j.opc = x->R[R_OPC]; j.cpp = x->R[R_CPP];
	j.mbru = x->R[R_MBRU]; j.out = x->out;
	j.pc_latch = x->pc_latch; j.mar_latch = x->mar_latch;
	j.mbr_addr = x->mbr_addr; j.insn_pc = x->insn_pc;
	j.mpc = mpc; j.pend = x->pend; j.rdp = x->rdp;
	j.stack = x->u.stack;
	j.swords = x->u.stack != NULL ? x->u.swords : 0;
	j.wwords = ahead && x->u.pw < j.swords ? x->u.pw : j.swords;
	j.cp = x->u.prog->cp; j.cpsize = x->u.prog->cp_size;
	j.text = x->u.text; j.tsize = x->u.tsize;
	j.left = *left; j.steps = 0;
	if (mic1_jit_run(f->jit, &j) == 0)
		return mpc;
	x->R[R_H] = j.h; x->R[R_MAR] = j.mar; x->R[R_MDR] = j.mdr;
	x->R[R_PC] = j.pc; x->R[R_SP] = j.sp; x->R[R_LV] = j.lv;
	x->R[R_TOS] = j.tos; x->R[R_OPC] = j.opc; x->R[R_CPP] = j.cpp;
	x->R[R_MBRU] = j.mbru;
	x->R[R_MBR] = (uint32_t)(int32_t)(int8_t)j.mbru;
	x->mbr = (int32_t)j.mbru; x->out = j.out;
	x->pc_latch = j.pc_latch; x->mar_latch = j.mar_latch;
	x->mbr_addr = j.mbr_addr; x->insn_pc = j.insn_pc;
	x->pend = j.pend; x->rdp = j.rdp;
	x->u.steps += j.steps;
	*left = j.left;
	*last = &f->op[j.last];
	return j.mpc;
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
	const struct mf1_op *op, *last;
	struct mf1_x x;
	uint32_t mpc;
	uint64_t left = budget, mark;
	uint32_t id;
	int stopped = 0;    /* a private run's translated code stopped at
			       mpc (the ahead branch below) */
	MF_WATCH_LOCALS;

	/* N and Z are the last cycle's ALU output's (x.out, while last
	 * says a cycle ran here); the cycles are those left went down by
	 * (mark: left at the last write-back). */
#define SAVE() do {							\
	c->mdr = (int32_t)x.R[R_MDR]; c->pc = (int32_t)x.R[R_PC];	\
	c->sp = (int32_t)x.R[R_SP]; c->lv = (int32_t)x.R[R_LV];		\
	c->cpp = (int32_t)x.R[R_CPP]; c->tos = (int32_t)x.R[R_TOS];	\
	c->opc = (int32_t)x.R[R_OPC]; c->h = (int32_t)x.R[R_H];		\
	c->mar = (int32_t)x.R[R_MAR]; c->mbr = x.mbr;			\
	c->mpc = (uint16_t)mpc;						\
	c->cycles += mark - left; c->steps += x.u.steps;			\
	mark = left; x.u.steps = 0;					\
	k->pending = (uint8_t)x.pend;					\
	k->mbr_state = (uint8_t)x.mbr_state;				\
	k->mar_latch = x.mar_latch; k->pc_latch = x.pc_latch;		\
	k->mbr_addr = x.mbr_addr; k->insn_pc = x.insn_pc;		\
	if (last != NULL) {						\
		c->n = (uint8_t)(x.out >> 31); c->z = x.out == 0;	\
		k->mir = f->cs->word[last - f->op];			\
	}								\
	last = NULL;							\
} while (0)

	micro_fast_ctx_init(&x.u, m, core, pw, watching ? mw : NULL);
reload:
	micro_fast_ctx_load(&x.u);
	for (int i = 0; i < MIC1_SIZE_C; i++)	/* the C bus's registers */
		x.R[mf1_cidx[i]] = *(const uint32_t *)(const void *)
		    ((const char *)c + mf1_coff[i]);
	x.mbr = c->mbr;	/* as set; the B bus and JMPC read its byte */
	x.R[R_MBRU] = (uint8_t)x.mbr;
	x.R[R_MBR] = (uint32_t)(int32_t)(int8_t)x.R[R_MBRU];
	x.R[R_ZERO] = x.R[R_SINK] = 0;
	x.out = 0;
	mpc = c->mpc;
	x.pend = k->pending; x.mbr_state = k->mbr_state;
	x.mar_latch = k->mar_latch; x.pc_latch = k->pc_latch;
	x.mbr_addr = k->mbr_addr; x.insn_pc = k->insn_pc;
	mark = left;
	last = NULL;
	x.rdp = (x.pend & MIC1_PEND_READ) ? micro_fast_word(m, core,
	    x.u.stack, x.u.swords, (uint32_t)x.mar_latch, 0) : NULL;
	if (mpc >= MIC1_STORE_WORDS)
		goto slow;

	while (left > 0) {
		uint32_t next;

		op = &f->op[mpc];
		MF_TRAPS(micro_fast_pc_listed(&f->pcs,
		    (int32_t)x.R[R_PC]));
		first = 0;
		if (!ahead && !watching) {
			/*
			 * The run's own words, one after another, until a
			 * word with a trap (its tshape's function returns
			 * MF1_TRAP, and MF_TRAPS above decides it), the
			 * golden model, the halt or the budget: nothing
			 * else to test between cycles (doc/performance.md
			 * section 24.3).  This word passed MF_TRAPS.
			 */
			next = mf1_fns[op->shape | x.pend](&x, op);
			while (next < MF1_SLOW) {
				last = op;
				op = &f->op[next];
				if (UNLIKELY(--left == 0))
					break;
				if (f->jit != NULL) {
					/* the translated code, as far as
					 * it goes (mic1-jit.h) */
					next = mf1_jit_go(f, &x, next, &left,
					    &last, 0);
					op = &f->op[next];
					if (UNLIKELY(next == MIC1_HALT_MPC)) {
						mpc = next;
						SAVE();
						c->status = CORE_HALTED;
						*ev = MF_EV_STATUS;
						return budget - left;
					}
					if (left == 0)
						break;
				}
				next = mf1_fns[op->tshape | x.pend](&x, op);
			}
			mpc = (uint32_t)(op - f->op);
			if (next < MF1_SLOW || next == MF1_TRAP)
				continue;
		} else if (ahead) {
			/*
			 * A private run: the translated code as far as it
			 * goes, which stops before every cycle this path
			 * would not run (mf1_jit_go); the loop's tests then
			 * look at the word it stopped at (stopped: the code
			 * would stop there again), and only a cycle the
			 * code did not run is interpreted here
			 * (doc/performance.md section 24.8).
			 */
			if (f->jit != NULL && !watching && !stopped) {
				uint64_t had = left;

				mpc = mf1_jit_go(f, &x, mpc, &left, &last, 1);
				if (left != had) {
					if (UNLIKELY(mpc == MIC1_HALT_MPC)) {
						SAVE();
						c->status = CORE_HALTED;
						*ev = MF_EV_STATUS;
						return budget - left;
					}
					stopped = 1;
					continue;
				}
			}
			stopped = 0;
			next = mf1_any_ahead(&x, op);
		} else
			next = mf1_fns[op->shape | x.pend](&x, op);
		if (UNLIKELY(next >= MF1_SLOW)) {
			if (next == MF1_SLOW)
				goto slow;
			last = op;
			mpc = MIC1_HALT_MPC;
			left--;
			SAVE();
			c->status = CORE_HALTED;
			*ev = MF_EV_STATUS;
			return budget - left;
		}
		last = op;
		mpc = next;
		left--;
		MF_WATCH_NOTE(x.R[R_LV]);
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
	out = mf1_alu(op, a, b);
	res = mf1_shift(op, out);
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
