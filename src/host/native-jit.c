/*
 * The native ISA engine's translation of a program into x86-64 machine
 * code (doc/performance.md section 24.6), built with the shared emitter
 * (x64.h): a template per decoded slot, the interpreter's handler
 * (engine-native.c) spelled out in host instructions, with the core's
 * registers in host registers for the whole run:
 *
 *   rdi  the context (struct nat_jctx)    r8   the address of word 0
 *   r9   SP     r10  LV     r11  TOS      rcx  the frame's floor + 1
 *   rdx  the frame's local count          rsi  the steps left
 *   r12  the slots' entry table           r15  the last stack word a
 *                                              store may touch
 *   rax, rbx, r13, r14  scratch
 *
 * TOS is kept in memory as well (the interpreter's S(sp) == tos), so
 * that a stop writes back registers only.  Each slot's code starts by
 * taking its step from the budget; it then makes the interpreter's
 * checks, and where one fails (or the budget is spent) it leaves
 * through that slot's stop, which gives the step back and writes the
 * registers to the context: nat_exec then runs that one instruction
 * itself (a fault, a breakpoint, a device are the interpreter's and so
 * the golden model's) and enters again.  The slots translated are the
 * hot simple ones (constants, locals, the stack, arithmetic, branches,
 * calls and returns); every other slot, and one a breakpoint patched
 * when the code was built, is a stop.  A call needs no frame lookup:
 * the callee's header, decoded with the slot, gives its floor and local
 * count; a return looks the caller's frame up as ref_frame_at does and
 * stops where the frame is not the plain one the checks assume.
 *
 * Code is laid out in text order over the slots reached from 0 through
 * fall-throughs, branches and calls, so that a straight run of
 * instructions falls through; every other slot (the middle of an
 * instruction, a slot only a computed return reaches) has a stub that
 * stops there, so the entry table covers the whole text.
 */
#include <stddef.h>
#include <stdlib.h>

#include "memmap.h"
#include "native-int.h"
#include "par.h"
#include "x64.h"

/* The registers (see above). */
enum {
	R_CTX = X64_RDI, R_STK = X64_R8, R_SP = X64_R9, R_LV = X64_R10,
	R_TOS = X64_R11, R_FL1 = X64_RCX, R_NL = X64_RDX, R_LEFT = X64_RSI,
	R_TAB = X64_R12, R_END = X64_R15, R_T = X64_RAX, R_B = X64_RBX,
	R_C = X64_R13, R_D = X64_R14,
};

/* A slot's code at most (the return's, the longest, is about 150). */
#define JIT_SLOT_MAX	256

struct nat_jit {
	struct x64_buf	 buf;
	uintptr_t	*entry;    /* per slot: where its code starts */
	uint8_t		*bp;       /* per slot: a breakpoint stop */
	uint32_t	 nbp;      /* how many */
	void		(*run)(struct nat_jctx *x);
};

/* A jump to a slot's code not emitted yet. */
struct fixup {
	size_t		at;
	uint32_t	slot;
};

struct emit {
	struct x64_buf	*b;
	size_t		*code;     /* per slot: its code's offset */
	size_t		*stop;     /* per slot: its stop's offset */
	struct fixup	*fix;
	size_t		 nfix, capfix;
	uint32_t	 stack_words, main_n, size;
};

#define S_AT(d)		X64_MX(R_STK, R_SP, 4, (d))
#define LOCAL(a)	X64_MX(R_STK, R_LV, 4, 4 * (a))

/* A jump (cc, or always when cc < 0) to slot's code, patched later when
 * it is not emitted yet. */
static void
jump_slot(struct emit *e, int cc, uint32_t slot)
{
	size_t at, target = e->code[slot];

	at = cc < 0 ? x64_jmp(e->b, target) :
	    x64_jcc(e->b, (enum x64_cc)cc, target);
	if (target != X64_FWD)
		return;
	if (e->nfix == e->capfix) {
		e->capfix = e->capfix ? 2 * e->capfix : 256;
		e->fix = xreallocarray(e->fix, e->capfix, sizeof *e->fix);
	}
	e->fix[e->nfix].at = at;
	e->fix[e->nfix++].slot = slot;
}

/* The checks of NEED(pops, grow) in nat_exec, as far as they can fail
 * here: SP is at or above the floor and at or below the end on entry,
 * and every instruction translated keeps it so.  The end is the run's
 * (struct nat_jctx): a private run's is the window's copy, so one
 * translation serves both. */
static void
need(struct emit *e, size_t stop, int pops, int grow)
{
	if (pops > 0) {
		x64_alu_rr(e->b, 0, X64_CMP, R_SP, R_FL1);
		x64_jcc(e->b, pops == 1 ? X64_CC_L : X64_CC_LE, stop);
	}
	if (grow > 0) {
		/* SP + grow > end */
		x64_lea(e->b, 0, R_T, X64_M(R_SP, grow - 1));
		x64_alu_rr(e->b, 0, X64_CMP, R_T, R_END);
		x64_jcc(e->b, X64_CC_GE, stop);
	}
}

/* The return (H_IRETURN): the caller's frame as ref_frame_at finds it
 * (LV and its link in the region), the return address in the text, SP
 * (our LV) at or above the caller's floor; otherwise a stop, and the
 * interpreter returns. */
static void
emit_return(struct emit *e, size_t stop)
{
	struct x64_buf *b = e->b;
	size_t to_main;

	x64_alu_ri(b, 0, X64_CMP, R_LV, MM_STACK_BASE);
	x64_jcc(b, X64_CC_E, stop);
	need(e, stop, 1, 0);
	x64_load(b, X64_LD_32, R_T, LOCAL(0));                  /* link */
	/* in the region: a push may have overwritten it since the frame
	 * was found (engine-native.c's H_IRETURN) */
	x64_lea(b, 0, R_D, X64_M(R_T, -MM_STACK_BASE));
	x64_alu_ri(b, 0, X64_CMP, R_D, (int32_t)e->stack_words - 1);
	x64_jcc(b, X64_CC_AE, stop);
	x64_load(b, X64_LD_32, R_B, X64_MX(R_STK, R_T, 4, 0));  /* PC */
	x64_load(b, X64_LD_32, R_C, X64_MX(R_STK, R_T, 4, 4));  /* LV */
	x64_alu_ri(b, 0, X64_CMP, R_B, (int32_t)e->size);
	x64_jcc(b, X64_CC_A, stop);
	x64_alu_ri(b, 0, X64_CMP, R_C, MM_STACK_BASE);
	to_main = x64_jcc(b, X64_CC_E, X64_FWD);
	x64_lea(b, 0, R_D, X64_M(R_C, -MM_STACK_BASE));
	x64_alu_ri(b, 0, X64_CMP, R_D, (int32_t)e->stack_words);
	x64_jcc(b, X64_CC_AE, stop);
	x64_load(b, X64_LD_32, R_T, X64_MX(R_STK, R_C, 4, 0));  /* its link */
	x64_lea(b, 0, R_D, X64_M(R_T, -MM_STACK_BASE));
	x64_alu_ri(b, 0, X64_CMP, R_D, (int32_t)e->stack_words - 1);
	x64_jcc(b, X64_CC_AE, stop);
	x64_mov_rr(b, 0, R_D, R_T);                   /* link - LV >= 0 */
	x64_alu_rr(b, 0, X64_SUB, R_D, R_C);
	x64_jcc(b, X64_CC_L, stop);
	x64_alu_rr(b, 0, X64_CMP, R_LV, R_T);         /* SP above link */
	x64_jcc(b, X64_CC_LE, stop);
	x64_store(b, 32, LOCAL(0), R_TOS);
	x64_mov_rr(b, 0, R_SP, R_LV);
	x64_mov_rr(b, 0, R_LV, R_C);
	x64_lea(b, 0, R_FL1, X64_M(R_T, 2));
	x64_mov_rr(b, 0, R_NL, R_D);
	x64_jmp_m(b, X64_MX(R_TAB, R_B, 8, 0));
	/* into main's frame */
	x64_patch(b, to_main, x64_here(b));
	x64_alu_ri(b, 0, X64_CMP, R_LV,
	    MM_STACK_BASE + (int32_t)e->main_n - 1);
	x64_jcc(b, X64_CC_L, stop);
	x64_store(b, 32, LOCAL(0), R_TOS);
	x64_mov_rr(b, 0, R_SP, R_LV);
	x64_mov_ri(b, 0, R_LV, MM_STACK_BASE);
	x64_mov_ri(b, 0, R_FL1, (uint64_t)MM_STACK_BASE + e->main_n);
	x64_mov_ri(b, 0, R_NL, e->main_n);
	x64_jmp_m(b, X64_MX(R_TAB, R_B, 8, 0));
}

/* The call (H_INVOKE): the callee's frame from its header (in->b), as
 * FRAME would find it; then straight to its first instruction. */
static void
emit_call(struct emit *e, const struct nat_insn *in, uint32_t pc,
    size_t stop)
{
	struct x64_buf *b = e->b;
	int32_t nargs = in->b & 0xffff, nloc = (int32_t)((uint32_t)in->b >> 16);

	/* the new LV, SP - nargs + 1: at or above the floor + 1 and not
	 * main's; the link's two words at or below the end */
	x64_lea(b, 0, R_T, X64_M(R_SP, 1 - nargs));
	x64_alu_rr(b, 0, X64_CMP, R_T, R_FL1);
	x64_jcc(b, X64_CC_L, stop);
	x64_alu_ri(b, 0, X64_CMP, R_T, MM_STACK_BASE);
	x64_jcc(b, X64_CC_E, stop);
	x64_lea(b, 0, R_B, X64_M(R_SP, nloc + 2));      /* the link's top */
	x64_alu_rr(b, 0, X64_CMP, R_B, R_END);
	x64_jcc(b, X64_CC_G, stop);
	x64_lea(b, 0, R_B, X64_M(R_SP, nloc + 1));              /* link */
	x64_store_i(b, 0, X64_MX(R_STK, R_B, 4, 0), (int32_t)pc + in->len);
	x64_store(b, 32, X64_MX(R_STK, R_B, 4, 4), R_LV);
	x64_mov_rr(b, 0, R_TOS, R_LV);
	x64_mov_rr(b, 0, R_LV, R_T);
	x64_store(b, 32, LOCAL(0), R_B);
	x64_lea(b, 0, R_SP, X64_M(R_B, 1));
	x64_lea(b, 0, R_FL1, X64_M(R_B, 2));
	x64_mov_ri(b, 0, R_NL, (uint32_t)(nloc + nargs));
	jump_slot(e, -1, (uint32_t)in->a + 4);
}

/* What each translated handler pops and pushes at most (NEED's
 * arguments in nat_exec) and whether it reads or writes a local; the
 * other handlers are the interpreter's. */
static const struct shape {
	uint8_t	on;       /* translated */
	int8_t	pops, grow;
	uint8_t	local;    /* checks its local index */
} shapes[] = {
	[H_NOP] = { 1, 0, 0, 0 },	[H_BIPUSH] = { 1, 0, 1, 0 },
	[H_PUSHK] = { 1, 0, 1, 0 },	[H_ILOAD] = { 1, 0, 1, 1 },
	[H_ISTORE] = { 1, 1, 0, 1 },	[H_ISTORE0] = { 1, 1, 0, 1 },
	[H_IINC] = { 1, 0, 0, 1 },	[H_IINC0] = { 1, 0, 0, 1 },
	[H_POP] = { 1, 1, 0, 0 },	[H_DUP] = { 1, 1, 1, 0 },
	[H_SWAP] = { 1, 2, 0, 0 },	[H_IADD] = { 1, 2, 0, 0 },
	[H_ISUB] = { 1, 2, 0, 0 },	[H_IAND] = { 1, 2, 0, 0 },
	[H_IOR] = { 1, 2, 0, 0 },	[H_IFEQ] = { 1, 1, 0, 0 },
	[H_IFLT] = { 1, 1, 0, 0 },	[H_ICMPEQ] = { 1, 2, 0, 0 },
	[H_GOTO] = { 1, 0, 0, 0 },	[H_INVOKE] = { 1, 0, 0, 0 },
	[H_IRETURN] = { 1, 0, 0, 0 },	[H_SYNC] = { 0, 0, 0, 0 },
};

/* Slot pc's code; 0 if it falls through to pc + len. */
static int
emit_slot(struct emit *e, const struct nat_insn *in, uint32_t pc)
{
	struct x64_buf *b = e->b;
	size_t stop = e->stop[pc];
	const struct shape *sh = &shapes[in->h];
	enum x64_alu op;

	/* its step (a spent budget borrows: the stop gives it back) */
	x64_alu_ri(b, 1, X64_SUB, R_LEFT, 1);
	if (!sh->on) {
		/* the interpreter's (a patched breakpoint, a device, the
		 * golden model, ...) */
		x64_jmp(b, stop);
		return 1;
	}
	x64_jcc(b, X64_CC_B, stop);
	if (in->h == H_ISTORE0 || in->h == H_IINC0) {
		/* local 0 of main's frame only (a method's is its link: the
		 * interpreter's, which looks the frame up again) */
		x64_alu_ri(b, 0, X64_CMP, R_LV, MM_STACK_BASE);
		x64_jcc(b, X64_CC_NE, stop);
	}
	need(e, stop, sh->pops, sh->grow);
	if (sh->local) {
		x64_alu_ri(b, 0, X64_CMP, R_NL, in->a);
		x64_jcc(b, X64_CC_BE, stop);
	}
	switch (in->h) {
	case H_BIPUSH:
	case H_PUSHK:
		x64_incdec(b, 0, 0, R_SP);
		x64_store_i(b, 0, S_AT(0), in->a);
		x64_mov_ri32(b, R_TOS, (uint32_t)in->a);
		return 0;
	case H_ILOAD:
		x64_load(b, X64_LD_32, R_TOS, LOCAL(in->a));
		x64_incdec(b, 0, 0, R_SP);
		x64_store(b, 32, S_AT(0), R_TOS);
		return 0;
	case H_ISTORE:
	case H_ISTORE0:
		x64_store(b, 32, LOCAL(in->a), R_TOS);
		x64_incdec(b, 0, 1, R_SP);
		x64_load(b, X64_LD_32, R_TOS, S_AT(0));
		return 0;
	case H_IINC:
	case H_IINC0:
		x64_alu_mi(b, 0, X64_ADD, LOCAL(in->a), in->b);
		x64_load(b, X64_LD_32, R_TOS, S_AT(0));  /* it may be TOS */
		return 0;
	case H_POP:
		x64_incdec(b, 0, 1, R_SP);
		x64_load(b, X64_LD_32, R_TOS, S_AT(0));
		return 0;
	case H_DUP:
		x64_incdec(b, 0, 0, R_SP);
		x64_store(b, 32, S_AT(0), R_TOS);
		return 0;
	case H_SWAP:
		x64_load(b, X64_LD_32, R_T, S_AT(-4));
		x64_store(b, 32, S_AT(-4), R_TOS);
		x64_store(b, 32, S_AT(0), R_T);
		x64_mov_rr(b, 0, R_TOS, R_T);
		return 0;
	case H_IADD:
	case H_IAND:
	case H_IOR:
		op = in->h == H_IADD ? X64_ADD : in->h == H_IAND ? X64_AND :
		    X64_OR;
		x64_incdec(b, 0, 1, R_SP);
		x64_alu_rm(b, 0, op, R_TOS, S_AT(0));
		x64_store(b, 32, S_AT(0), R_TOS);
		return 0;
	case H_ISUB:
		/* tos = S(sp - 1) - tos */
		x64_unary(b, 0, X64_NEG, R_TOS);
		x64_incdec(b, 0, 1, R_SP);
		x64_alu_rm(b, 0, X64_ADD, R_TOS, S_AT(0));
		x64_store(b, 32, S_AT(0), R_TOS);
		return 0;
	case H_IFEQ:
	case H_IFLT:
		x64_mov_rr(b, 0, R_T, R_TOS);
		x64_incdec(b, 0, 1, R_SP);
		x64_load(b, X64_LD_32, R_TOS, S_AT(0));
		x64_test_rr(b, 0, R_T, R_T);
		jump_slot(e, in->h == H_IFEQ ? X64_CC_Z : X64_CC_S,
		    (uint32_t)in->a);
		return 0;
	case H_ICMPEQ:
		x64_load(b, X64_LD_32, R_T, S_AT(-4));
		x64_alu_ri(b, 0, X64_SUB, R_SP, 2);
		x64_alu_rr(b, 0, X64_CMP, R_T, R_TOS);
		x64_load(b, X64_LD_32, R_TOS, S_AT(0));  /* keeps the flags */
		jump_slot(e, X64_CC_E, (uint32_t)in->a);
		return 0;
	case H_GOTO:
		jump_slot(e, -1, (uint32_t)in->a);
		return 1;
	case H_INVOKE:
		emit_call(e, in, pc, stop);
		return 1;
	case H_IRETURN:
		emit_return(e, stop);
		return 1;
	}
	return 0;	/* H_NOP */
}

/* The slots to translate: those reached from 0 (fall-throughs, branch
 * targets, callees and return addresses); every slot's successors are
 * reached, the interpreter's included, since nat_exec enters again
 * after it. */
static uint8_t *
reached(const struct nat_prog *np)
{
	uint8_t *r = xcalloc((size_t)np->size + 1, 1);
	uint32_t *work = xcalloc((size_t)np->size + 1, sizeof *work), n = 0;

	r[0] = 1;
	work[n++] = 0;
	while (n > 0) {
		uint32_t pc = work[--n], next[2], k = 0;
		const struct nat_insn *in = &np->code[pc];

		if (pc == np->size)
			continue;
		next[k++] = pc + in->len;
		switch (in->real) {
		case H_IFEQ: case H_IFLT: case H_ICMPEQ: case H_GOTO:
			next[k++] = (uint32_t)in->a;
			break;
		case H_INVOKE:
			next[k++] = (uint32_t)in->a + 4;
			break;
		}
		for (uint32_t i = 0; i < k; i++)
			if (next[i] <= np->size && !r[next[i]]) {
				r[next[i]] = 1;
				work[n++] = next[i];
			}
	}
	free(work);
	return r;
}

/* The entry (rdi: the context), the common stop and each slot's stop:
 * stop[pc] records PC, and the common one gives the step back and
 * writes the registers. */
static void
emit_frame(struct emit *e, const struct nat_jit *j, size_t *entry)
{
	struct x64_buf *b = e->b;
	size_t common;

	*entry = x64_here(b);
	x64_save_callee(b);
	x64_load(b, X64_LD_64, R_STK,
	    X64_M(R_CTX, offsetof(struct nat_jctx, stk)));
	x64_load(b, X64_LD_64, R_LEFT,
	    X64_M(R_CTX, offsetof(struct nat_jctx, left)));
	x64_load(b, X64_LD_32, R_SP, X64_M(R_CTX, offsetof(struct nat_jctx, sp)));
	x64_load(b, X64_LD_32, R_LV, X64_M(R_CTX, offsetof(struct nat_jctx, lv)));
	x64_load(b, X64_LD_32, R_TOS,
	    X64_M(R_CTX, offsetof(struct nat_jctx, tos)));
	x64_load(b, X64_LD_32, R_FL1,
	    X64_M(R_CTX, offsetof(struct nat_jctx, floor1)));
	x64_load(b, X64_LD_32, R_NL,
	    X64_M(R_CTX, offsetof(struct nat_jctx, nlocals)));
	x64_load(b, X64_LD_32, R_END,
	    X64_M(R_CTX, offsetof(struct nat_jctx, end)));
	x64_mov_ri(b, 1, R_TAB, (uint64_t)(uintptr_t)j->entry);
	x64_load(b, X64_LD_32, R_T, X64_M(R_CTX, offsetof(struct nat_jctx, pc)));
	x64_jmp_m(b, X64_MX(R_TAB, R_T, 8, 0));

	common = x64_here(b);
	x64_alu_ri(b, 1, X64_ADD, R_LEFT, 1);
	x64_store(b, 64, X64_M(R_CTX, offsetof(struct nat_jctx, left)), R_LEFT);
	x64_store(b, 32, X64_M(R_CTX, offsetof(struct nat_jctx, sp)), R_SP);
	x64_store(b, 32, X64_M(R_CTX, offsetof(struct nat_jctx, lv)), R_LV);
	x64_store(b, 32, X64_M(R_CTX, offsetof(struct nat_jctx, tos)), R_TOS);
	x64_store(b, 32, X64_M(R_CTX, offsetof(struct nat_jctx, floor1)),
	    R_FL1);
	x64_store(b, 32, X64_M(R_CTX, offsetof(struct nat_jctx, nlocals)),
	    R_NL);
	x64_restore_ret(b);
	for (uint32_t pc = 0; pc <= e->size; pc++) {
		e->stop[pc] = x64_here(b);
		x64_store_i(b, 0, X64_M(R_CTX, offsetof(struct nat_jctx, pc)),
		    (int32_t)pc);
		x64_jmp(b, common);
	}
}

static struct nat_jit *
nat_jit_build(const struct nat_prog *np, uint32_t main_nlocals,
    uint32_t stack_words)
{
	struct nat_jit *j;
	struct x64_buf buf;
	struct emit e = { 0 };
	size_t entry;
	uint8_t *r;

	if (!X64_AVAILABLE || x64_buf_init(&buf, 4096 +
	    ((size_t)np->size + 1) * JIT_SLOT_MAX) != 0)
		return NULL;
	j = xcalloc(1, sizeof *j);
	j->buf = buf;
	j->entry = xcalloc((size_t)np->size + 1, sizeof *j->entry);
	j->bp = xcalloc((size_t)np->size + 1, 1);
	e.b = &j->buf;
	e.stack_words = stack_words;
	e.main_n = main_nlocals;
	e.size = np->size;
	e.code = xcalloc((size_t)np->size + 1, sizeof *e.code);
	e.stop = xcalloc((size_t)np->size + 1, sizeof *e.stop);
	for (uint32_t pc = 0; pc <= np->size; pc++) {
		e.code[pc] = X64_FWD;
		j->bp[pc] = np->code[pc].h == H_BP;
		j->nbp += j->bp[pc];
	}
	emit_frame(&e, j, &entry);
	r = reached(np);
	for (uint32_t pc = 0, next; pc <= np->size; pc = next) {
		const struct nat_insn *in = &np->code[pc];

		for (next = pc + 1; next <= np->size && !r[next]; next++)
			;
		if (!r[pc])
			continue;
		e.code[pc] = x64_here(&j->buf);
		if (!emit_slot(&e, in, pc) && pc + in->len != next)
			jump_slot(&e, -1, pc + in->len);
	}
	/* the slots not reached: a step, and their stop */
	for (uint32_t pc = 0; pc <= np->size; pc++)
		if (!r[pc]) {
			e.code[pc] = x64_here(&j->buf);
			x64_alu_ri(&j->buf, 1, X64_SUB, R_LEFT, 1);
			x64_jmp(&j->buf, e.stop[pc]);
		}
	for (size_t i = 0; i < e.nfix; i++)
		x64_patch(&j->buf, e.fix[i].at, e.code[e.fix[i].slot]);
	for (uint32_t pc = 0; pc <= np->size; pc++)
		j->entry[pc] = (uintptr_t)x64_fn_at(&j->buf, e.code[pc]);
	j->run = (void (*)(struct nat_jctx *))x64_fn_at(&j->buf, entry);
	free(r);
	free(e.code);
	free(e.stop);
	free(e.fix);
	if (x64_seal(&j->buf) != 0) {
		nat_jit_free(j);
		return NULL;
	}
	return j;
}

int
nat_jit_ready(struct nat_prog *np, uint32_t main_nlocals,
    uint32_t stack_words)
{
	if (np->jit == NULL && !np->nojit &&
	    (np->jit = nat_jit_build(np, main_nlocals, stack_words)) == NULL)
		np->nojit = 1;
	return np->jit != NULL;
}

int
nat_jit_fits(const struct nat_jit *j, const struct nat_prog *np,
    size_t nbps)
{
	if (j->nbp == 0 && nbps == 0)
		return 1;
	for (uint32_t pc = 0; pc <= np->size; pc++)
		if (j->bp[pc] != (np->code[pc].h == H_BP))
			return 0;
	return 1;
}

/* Steps of nat_jit_run: a window's private runs add at the same time
 * (par.h). */
static struct par_count nat_jit_ran;

void
nat_jit_run(const struct nat_jit *j, struct nat_jctx *x)
{
	uint64_t left = x->left;

	j->run(x);
	par_count_add(&nat_jit_ran, left - x->left);
}

uint64_t
nat_jit_steps(void)
{
	return par_count_sum(&nat_jit_ran);
}

void
nat_jit_free(struct nat_jit *j)
{
	if (j == NULL)
		return;
	x64_buf_free(&j->buf);
	free(j->entry);
	free(j->bp);
	free(j);
}
