/*
 * The Mic-1 translation into x86-64 code (mic1-jit.h; doc/performance.md
 * section 24.4), emitted with x64.h.
 *
 * Host registers while the code runs: the core's H, MAR, MDR, PC, SP, LV,
 * TOS, OPC and MBR's byte each in one (REG_*; CPP, which only LDC_W and
 * INVOKEVIRTUAL read, in the frame), the last cycle's ALU output (N and
 * Z are derived from it only when written back), the budget, and the
 * pending READ's word; rax, rcx and r14 are the scratch.  rsp points at
 * the frame, a copy of struct mic1_jx on the host stack (F(field)),
 * where the latches, the boundary count and the last word run live.
 *
 * The buffer holds, in order: the entry (pushes the callee-saved
 * registers, copies the struct into the frame, loads the registers and
 * jumps to the code of (mpc, pend)); the exit (copies the frame and the
 * registers back, returns), reached with eax = mpc | pend << 16, the
 * state at the start of that cycle; one stub per (word, set), "exit at
 * the start of this cycle" (SX); and one block per translated (word,
 * set).  A block first does every test that can send the cycle back to
 * the interpreter - a pending FETCH outside the text, a READ outside the
 * stack and the constant pool, a WRITE outside the stack's first wwords
 * words (a private run's bound, mic1-jit.h) - jumping to
 * its SX with nothing changed, then writes the cycle's results in
 * engine-mic1-fast.c's order (C bus, the READ completing, the WRITE,
 * the FETCH completing, the new latches), counts the budget down and
 * jumps to its successor: a constant one directly, JAMN/JAMZ as a test
 * and two jumps, JMPC through the table of the set it leaves.  The
 * budget's end jumps to the successor's SX.
 *
 * Every jump to a block is a fixup kept per target, and the table holds
 * the same targets: a trapped word (a breakpoint) or the halt word gets
 * its SX instead, and mic1_jit_traps repoints them when traps change,
 * the buffer writable only meanwhile.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "memmap.h"
#include "mic1-jit.h"
#include "mic1.h"
#include "par.h"
#include "util.h"
#include "x64.h"

/* The cycles translated code ran, all translations together: a
 * window's private runs add at the same time (par.h). */
static struct par_count mic1_jit_ran;

uint64_t
mic1_jit_cycles(void)
{
	return par_count_sum(&mic1_jit_ran);
}

/* (word, pending set) as one index. */
#define NPEND		4
#define ID(w, p)	((w) * NPEND + (p))
#define NID		(MIC1_STORE_WORDS * NPEND)

/* Host registers of the core (see above). */
enum {
	REG_H = X64_R8, REG_MAR = X64_R9, REG_MDR = X64_R10, REG_PC = X64_R11,
	REG_SP = X64_R12, REG_LV = X64_R13, REG_TOS = X64_R15,
	REG_OPC = X64_RSI, REG_MBRU = X64_RDI, REG_OUT = X64_RBX,
	REG_LEFT = X64_RBP, REG_RDP = X64_RDX,
	T0 = X64_RAX, T1 = X64_RCX, T2 = X64_R14,
	REG_CPP = -2	/* in the frame */
};

/* The frame: struct mic1_jx at rsp, then the struct's own address. */
#define F(field)	X64_M(X64_RSP, (int32_t)offsetof(struct mic1_jx, field))
#define F_SELF		((int32_t)sizeof(struct mic1_jx))
#define F_SIZE		(F_SELF + 8)
_Static_assert(sizeof(struct mic1_jx) % 8 == 0, "mic1_jx: whole qwords");

/* The registers as struct mic1_jx holds them. */
#define JR(r, field)	{ r, offsetof(struct mic1_jx, field) }
static const struct {
	int		reg;
	uint32_t	off;
} jit_regs[] = {
	JR(REG_H, h), JR(REG_MAR, mar), JR(REG_MDR, mdr), JR(REG_PC, pc),
	JR(REG_SP, sp), JR(REG_LV, lv), JR(REG_TOS, tos), JR(REG_OPC, opc),
	JR(REG_OUT, out),
};

/* C field bit i's register (mic1-word.h's enum mic1_cbit order). */
static const int jit_creg[MIC1_SIZE_C] = {
	[MIC1_CB_MAR] = REG_MAR, [MIC1_CB_MDR] = REG_MDR, [MIC1_CB_PC] = REG_PC,
	[MIC1_CB_SP] = REG_SP, [MIC1_CB_LV] = REG_LV, [MIC1_CB_CPP] = REG_CPP,
	[MIC1_CB_TOS] = REG_TOS, [MIC1_CB_OPC] = REG_OPC, [MIC1_CB_H] = REG_H,
};

typedef void jit_enter_fn(struct mic1_jx *x, uintptr_t code);

struct mic1_jit {
	struct x64_buf	 b;
	jit_enter_fn	*enter;
	size_t		 exit;             /* the exit's offset */
	uint32_t	 sx[NID];          /* each pair's stub */
	uint32_t	 blk[NID];         /* its block, 0: none */
	uint8_t		 trap[MIC1_STORE_WORDS];
	/* the static jumps to each pair: fix_head[id] - 1 indexes fix,
	 * whose next - 1 is the next one (0: the end) */
	uint32_t	 fix_head[NID];
	struct jit_fix { uint32_t at, next; } *fix;
	size_t		 nfix, capfix;
	uintptr_t	 tab[NPEND][MIC1_STORE_WORDS];  /* JMPC's targets */
};

/* The code a jump to pair id reaches now. */
static uint32_t
jit_target(const struct mic1_jit *j, uint32_t id)
{
	uint32_t w = id / NPEND;

	return j->blk[id] != 0 && !j->trap[w] && w != MIC1_HALT_MPC ?
	    j->blk[id] : j->sx[id];
}

/* A jump to pair id: recorded, pointed at it when resolved. */
static void
jit_jmp(struct mic1_jit *j, uint32_t id)
{
	size_t at = x64_jmp(&j->b, X64_FWD);

	if (j->nfix == j->capfix) {
		j->capfix = j->capfix ? 2 * j->capfix : 1024;
		j->fix = xrealloc(j->fix, j->capfix * sizeof *j->fix);
	}
	j->fix[j->nfix].at = (uint32_t)at;
	j->fix[j->nfix].next = j->fix_head[id];
	j->fix_head[id] = (uint32_t)++j->nfix;
}

/* Point every jump to pair id, and its table entry, at its target. */
static void
jit_resolve(struct mic1_jit *j, uint32_t id)
{
	uint32_t t = jit_target(j, id);

	for (uint32_t k = j->fix_head[id]; k != 0; k = j->fix[k - 1].next)
		x64_patch(&j->b, j->fix[k - 1].at, t);
	j->tab[id % NPEND][id / NPEND] = (uintptr_t)(j->b.mem + t);
}

/* The entry and the exit. */
static void
jit_frame_code(struct mic1_jit *j)
{
	struct x64_buf *b = &j->b;

	/* entry (rdi: the struct, rsi: the code) */
	x64_save_callee(b);
	x64_mov_rr(b, 1, T0, X64_RSI);
	x64_alu_ri(b, 1, X64_SUB, X64_RSP, F_SIZE);
	for (int32_t o = 0; o < F_SELF; o += 8) {
		x64_load(b, X64_LD_64, T1, X64_M(X64_RDI, o));
		x64_store(b, 64, X64_M(X64_RSP, o), T1);
	}
	x64_store(b, 64, X64_M(X64_RSP, F_SELF), X64_RDI);
	for (size_t i = 0; i < sizeof jit_regs / sizeof jit_regs[0]; i++)
		x64_load(b, X64_LD_32, jit_regs[i].reg, X64_M(X64_RSP,
		    (int32_t)jit_regs[i].off));
	x64_load(b, X64_LD_64, REG_LEFT, F(left));
	x64_load(b, X64_LD_64, REG_RDP, F(rdp));
	x64_load(b, X64_LD_32, REG_MBRU, F(mbru));
	x64_jmp_r(b, T0);

	/* exit (eax: mpc | pend << 16) */
	x64_align(b, 16);
	j->exit = x64_here(b);
	x64_load(b, X64_LD_64, T1, X64_M(X64_RSP, F_SELF));
	for (int32_t o = 0; o < F_SELF; o += 8) {
		x64_load(b, X64_LD_64, T2, X64_M(X64_RSP, o));
		x64_store(b, 64, X64_M(T1, o), T2);
	}
	for (size_t i = 0; i < sizeof jit_regs / sizeof jit_regs[0]; i++)
		x64_store(b, 32, X64_M(T1, (int32_t)jit_regs[i].off),
		    jit_regs[i].reg);
	x64_store(b, 32, X64_M(T1, offsetof(struct mic1_jx, mbru)), REG_MBRU);
	x64_store(b, 64, X64_M(T1, offsetof(struct mic1_jx, left)), REG_LEFT);
	x64_store(b, 64, X64_M(T1, offsetof(struct mic1_jx, rdp)), REG_RDP);
	x64_mov_rr(b, 0, T2, T0);
	x64_alu_ri(b, 0, X64_AND, T2, 0xffff);
	x64_store(b, 32, X64_M(T1, offsetof(struct mic1_jx, mpc)), T2);
	x64_shift_ri(b, 0, X64_SHR, T0, 16);
	x64_store(b, 32, X64_M(T1, offsetof(struct mic1_jx, pend)), T0);
	x64_alu_ri(b, 1, X64_ADD, X64_RSP, F_SIZE);
	x64_restore_ret(b);
}

/* Exit at the start of pair id (its SX stub). */
static void
jit_stub(struct mic1_jit *j, uint32_t id)
{
	j->sx[id] = (uint32_t)x64_here(&j->b);
	x64_mov_ri32(&j->b, T0, id / NPEND | (id % NPEND) << 16);
	x64_jmp(&j->b, j->exit);
}

/* The B bus into dst (T0): none, a register, MBR's byte either way or
 * CPP from the frame. */
static void
jit_bbus(struct x64_buf *b, uint32_t alu, uint32_t bsel, int dst)
{
	static const int breg[MIC1_B_OPC + 1] = {
		[MIC1_B_MDR] = REG_MDR, [MIC1_B_PC] = REG_PC,
		[MIC1_B_MBR] = REG_MBRU, [MIC1_B_MBRU] = REG_MBRU,
		[MIC1_B_SP] = REG_SP, [MIC1_B_LV] = REG_LV,
		[MIC1_B_CPP] = REG_CPP, [MIC1_B_TOS] = REG_TOS,
		[MIC1_B_OPC] = REG_OPC,
	};

	if (!(alu & MIC1_ALU_ENB) || bsel > MIC1_B_OPC)
		x64_mov_ri32(b, dst, 0);	/* flags untouched: no xor */
	else if (bsel == MIC1_B_MBR)
		x64_movx8_rr(b, 1, dst, REG_MBRU);
	else if (bsel == MIC1_B_CPP)
		x64_load(b, X64_LD_32, dst, F(cpp));
	else
		x64_mov_rr(b, 0, dst, breg[bsel]);
}

/* The ALU's output into T0 (mic1.c's mic1_alu_eval); T1 scratch. */
static void
jit_alu(struct x64_buf *b, uint32_t alu, uint32_t bsel)
{
	static const enum x64_alu fop[4] = { X64_AND, X64_OR, X64_XOR, X64_ADD };
	int fn = (int)MIC1_ALU_FN(alu), ena = (alu & MIC1_ALU_ENA) != 0;
	int inva = (alu & MIC1_ALU_INVA) != 0;

	jit_bbus(b, alu, bsel, T0);
	if (fn == 2)
		x64_unary(b, 0, X64_NOT, T0);		/* NOT B */
	else if (ena && !inva)
		x64_alu_rr(b, 0, fop[fn], T0, REG_H);
	else if (ena) {
		x64_mov_rr(b, 0, T1, REG_H);
		x64_unary(b, 0, X64_NOT, T1);
		x64_alu_rr(b, 0, fop[fn], T0, T1);
	} else if (inva)			/* A is ~0 */
		x64_alu_ri(b, 0, fop[fn], T0, -1);
	else if (fn == 0)			/* A is 0: AND gives 0 */
		x64_mov_ri32(b, T0, 0);
	if (alu & MIC1_ALU_INC)
		x64_alu_ri(b, 0, X64_ADD, T0, 1);
}

/* The word's decoded fields that a block needs. */
struct jit_word {
	uint32_t	alu, bsel, cbus, mem, jam, next;
	int		shift, main1;
};

/* Can the code run word w at all (beyond what the caller's ok says)? */
static int
jit_can(const struct jit_word *d)
{
	/* the shifter's output and the ALU's both live with an address */
	if (d->shift && (d->mem & (MIC1_MEM_READ | MIC1_MEM_WRITE)))
		return 0;
	if ((d->mem & MIC1_MEM_READ) && (d->mem & MIC1_MEM_WRITE))
		return 0;
	if ((d->jam & MIC1_JAM_PC) && (d->jam & (MIC1_JAM_N | MIC1_JAM_Z)))
		return 0;
	return 1;
}

/* The end of a cycle that goes to pair id: the budget, then the jump. */
static void
jit_goto(struct mic1_jit *j, uint32_t id)
{
	x64_incdec(&j->b, 1, 1, REG_LEFT);
	x64_jcc(&j->b, X64_CC_Z, j->sx[id]);
	jit_jmp(j, id);
}

/* The block of word w with pending set p. */
static void
jit_block(struct mic1_jit *j, uint32_t w, uint32_t p,
    const struct jit_word *d)
{
	struct x64_buf *b = &j->b;
	uint32_t id = ID(w, p), sx = j->sx[id];
	uint32_t np = ((d->mem & MIC1_MEM_READ) ? MIC1_PEND_READ : 0) |
	    ((d->mem & MIC1_MEM_FETCH) ? MIC1_PEND_FETCH : 0);
	int res = d->shift ? T1 : T0, rw = (d->mem & (MIC1_MEM_READ |
	    MIC1_MEM_WRITE)) != 0, mar1 = (d->cbus & MIC1_C_MAR) ? res :
	    REG_MAR;
	size_t cold = 0, back = 0;

	x64_align(b, 16);
	j->blk[id] = (uint32_t)x64_here(b);
	/* the tests, nothing written yet */
	if (p & MIC1_PEND_FETCH) {	/* a fetch outside the text */
		x64_load(b, X64_LD_32, T1, F(pc_latch));
		x64_alu_rm(b, 0, X64_CMP, T1, F(tsize));
		x64_jcc(b, X64_CC_AE, sx);
	}
	jit_alu(b, d->alu, d->bsel);
	if (d->shift) {
		x64_mov_rr(b, 0, T1, T0);
		if (d->alu & MIC1_ALU_SLL8)
			x64_shift_ri(b, 0, X64_SHL, T1, 8);
		if (d->alu & MIC1_ALU_SRA1)
			x64_shift_ri(b, 0, X64_SAR, T1, 1);
	}
	if (rw) {	/* the word MAR names: the stack's, else cold */
		x64_lea(b, 0, T1, X64_M(mar1, -MM_STACK_BASE));
		x64_alu_rm(b, 0, X64_CMP, T1, (d->mem & MIC1_MEM_WRITE) ?
		    F(wwords) : F(swords));
		cold = x64_jcc(b, X64_CC_AE, X64_FWD);
		x64_load(b, X64_LD_64, T2, F(stack));
		x64_lea(b, 1, T2, X64_MX(T2, T1, 4, 0));
		back = x64_here(b);
	}
	if (d->main1 && p == 0) {	/* an instruction boundary */
		size_t skip;

		x64_alu_rm(b, 0, X64_CMP, REG_PC, F(mbr_addr));
		skip = x64_jcc(b, X64_CC_NE, X64_FWD);
		x64_alu_mi(b, 1, X64_ADD, F(steps), 1);
		x64_store(b, 32, F(insn_pc), REG_PC);
		x64_patch(b, skip, x64_here(b));
	}
	/* the cycle's results */
	for (int i = 0; i < MIC1_SIZE_C; i++)
		if (d->cbus & (1u << i)) {
			if (jit_creg[i] == REG_CPP)
				x64_store(b, 32, F(cpp), res);
			else
				x64_mov_rr(b, 0, jit_creg[i], res);
		}
	x64_mov_rr(b, 0, REG_OUT, T0);
	if ((p & MIC1_PEND_READ) && (d->mem & MIC1_MEM_WRITE)) {
		x64_load(b, X64_LD_32, T0, X64_M(REG_RDP, 0));
		x64_store(b, 32, X64_M(T2, 0), REG_MDR);
		x64_mov_rr(b, 0, REG_MDR, T0);
	} else if (d->mem & MIC1_MEM_WRITE)
		x64_store(b, 32, X64_M(T2, 0), REG_MDR);
	else if (p & MIC1_PEND_READ)
		x64_load(b, X64_LD_32, REG_MDR, X64_M(REG_RDP, 0));
	if (p & MIC1_PEND_FETCH) {
		x64_load(b, X64_LD_32, T1, F(pc_latch));
		x64_store(b, 32, F(mbr_addr), T1);
		x64_load(b, X64_LD_64, T0, F(text));
		x64_load(b, X64_LD_U8, REG_MBRU, X64_MX(T0, T1, 1, 0));
	}
	if (d->mem & MIC1_MEM_READ) {
		x64_mov_rr(b, 1, REG_RDP, T2);
		x64_store(b, 32, F(mar_latch), REG_MAR);
	}
	if (d->mem & MIC1_MEM_FETCH)
		x64_store(b, 32, F(pc_latch), REG_PC);
	x64_store_i(b, 0, F(last), (int32_t)w);
	/* the successor */
	if (d->jam & MIC1_JAM_PC) {
		size_t out;

		x64_mov_rr(b, 0, T1, REG_MBRU);
		if (d->next != 0)
			x64_alu_ri(b, 0, X64_OR, T1, (int32_t)d->next);
		x64_incdec(b, 1, 1, REG_LEFT);
		out = x64_jcc(b, X64_CC_Z, X64_FWD);
		x64_mov_ri(b, 1, T0, (uint64_t)(uintptr_t)j->tab[np]);
		x64_jmp_m(b, X64_MX(T0, T1, 8, 0));
		x64_patch(b, out, x64_here(b));	/* the budget's end */
		x64_mov_rr(b, 0, T0, T1);
		x64_alu_ri(b, 0, X64_OR, T0, (int32_t)(np << 16));
		x64_jmp(b, j->exit);
	} else if (d->jam & (MIC1_JAM_N | MIC1_JAM_Z)) {
		uint32_t nt = (d->next | 1u << MIC1_BIT_NEXT_JAM) &
		    (MIC1_STORE_WORDS - 1);
		enum x64_cc cc = !(d->jam & MIC1_JAM_Z) ? X64_CC_S :
		    !(d->jam & MIC1_JAM_N) ? X64_CC_Z : X64_CC_LE;
		size_t taken;

		x64_test_rr(b, 0, REG_OUT, REG_OUT);
		taken = x64_jcc(b, cc, X64_FWD);
		jit_goto(j, ID(d->next & (MIC1_STORE_WORDS - 1), np));
		x64_patch(b, taken, x64_here(b));
		jit_goto(j, ID(nt, np));
	} else
		jit_goto(j, ID(d->next & (MIC1_STORE_WORDS - 1), np));
	if (rw) {	/* cold: a READ of the constant pool, else exit */
		x64_patch(b, cold, x64_here(b));
		if (d->mem & MIC1_MEM_READ) {
			x64_lea(b, 0, T1, X64_M(mar1, -MM_CPP));
			x64_alu_rm(b, 0, X64_CMP, T1, F(cpsize));
			x64_jcc(b, X64_CC_AE, sx);
			x64_load(b, X64_LD_64, T2, F(cp));
			x64_lea(b, 1, T2, X64_MX(T2, T1, 4, 0));
			x64_jmp(b, back);
		} else
			x64_jmp(b, sx);
	}
}

/* The pending sets each word can start with, as bits (1 << set): its
 * predecessors' memory operations, over every present word's successors
 * (a constant one, either side of a JAM, any of a JMPC's 256).  Only
 * those pairs get a block; the loop interprets any other that it meets
 * (a cycle, and the code takes over after it). */
static void
jit_reach(const struct mic1_store *cs, uint8_t *reach)
{
	memset(reach, 0, MIC1_STORE_WORDS);
	for (uint32_t w = 0; w < MIC1_STORE_WORDS; w++) {
		uint64_t v = cs->word[w];
		uint32_t mem = mic1_mem(v), jam = mic1_jam(v);
		uint32_t next = mic1_next(v) & (MIC1_STORE_WORDS - 1);
		uint8_t bit = (uint8_t)(1u << (((mem & MIC1_MEM_READ) ?
		    MIC1_PEND_READ : 0) | ((mem & MIC1_MEM_FETCH) ?
		    MIC1_PEND_FETCH : 0)));

		if (!cs->present[w])
			continue;
		for (uint32_t b = 0; b < ((jam & MIC1_JAM_PC) ? 256u : 1u); b++) {
			reach[next | b] |= bit;
			if (jam & (MIC1_JAM_N | MIC1_JAM_Z))
				reach[(next | b) | 1u << MIC1_BIT_NEXT_JAM] |=
				    bit;
		}
	}
}

struct mic1_jit *
mic1_jit_create(const struct mic1_store *cs, const uint8_t *ok)
{
	struct mic1_jit *j = xcalloc(1, sizeof *j);
	uint8_t reach[MIC1_STORE_WORDS];

	if (x64_buf_init(&j->b, (size_t)1 << 20) != 0) {
		free(j);
		return NULL;
	}
	jit_frame_code(j);
	jit_reach(cs, reach);
	for (uint32_t id = 0; id < NID; id++)
		jit_stub(j, id);
	for (uint32_t w = 0; w < MIC1_STORE_WORDS; w++) {
		uint64_t v = cs->word[w];
		struct jit_word d = {
			.alu = mic1_alu(v), .bsel = mic1_bsel(v),
			.cbus = mic1_cbus(v), .mem = mic1_mem(v),
			.jam = mic1_jam(v), .next = mic1_next(v),
			.main1 = w == cs->main1,
		};

		d.shift = (d.alu & (MIC1_ALU_SLL8 | MIC1_ALU_SRA1)) != 0;
		if (!ok[w] || !cs->present[w] || w == MIC1_HALT_MPC ||
		    !jit_can(&d))
			continue;
		for (uint32_t p = 0; p < NPEND; p++)
			if (reach[w] & (1u << p))
				jit_block(j, w, p, &d);
	}
	for (uint32_t id = 0; id < NID; id++)
		jit_resolve(j, id);
	if (x64_seal(&j->b) != 0) {
		mic1_jit_free(j);
		return NULL;
	}
	j->enter = (jit_enter_fn *)x64_fn_at(&j->b, 0);
	return j;
}

void
mic1_jit_free(struct mic1_jit *j)
{
	if (j != NULL) {
		x64_buf_free(&j->b);
		free(j->fix);
	}
	free(j);
}

int
mic1_jit_traps(struct mic1_jit *j, const uint8_t *trap)
{
	int open = 0;

	for (uint32_t w = 0; w < MIC1_STORE_WORDS; w++) {
		if (!trap[w] == !j->trap[w])
			continue;
		if (!open && x64_unseal(&j->b) != 0)
			return -1;
		open = 1;
		j->trap[w] = trap[w] != 0;
		for (uint32_t p = 0; p < NPEND; p++)
			jit_resolve(j, ID(w, p));
	}
	return open ? x64_seal(&j->b) : 0;
}

uint64_t
mic1_jit_run(const struct mic1_jit *j, struct mic1_jx *x)
{
	uint64_t left = x->left;

	x->last = -1;
	j->enter(x, j->tab[x->pend][x->mpc]);
	par_count_add(&mic1_jit_ran, left - x->left);
	return left - x->left;
}

