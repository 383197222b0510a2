/*
 * The native ISA engine: the reference's semantics (ref.c) at the speed
 * of a tuned interpreter, for micdb run, the debugger and --batch on the
 * CPU.
 *
 * Each program is decoded once into one slot per text byte (a jump into
 * the middle of an instruction decodes from there, as the reference's
 * fetch does): a handler number and the operands ready to use (a local
 * index, a branch target as a slot, a constant-pool value, a callee's
 * header).  A slot whose instruction would fault whatever the registers
 * (an unknown opcode, a truncated instruction, a bad constant-pool
 * index, a branch out of the text) gets the SLOW handler.  Dispatch is
 * direct-threaded with GNU C's computed goto; other compilers get a
 * switch (NAT_CASE serves both, as Lua's vmdispatch/vmcase do).
 *
 * During a run PC (as a slot pointer), SP, LV and TOS live in locals, as
 * do the current frame's floor and local count, recomputed only by the
 * instructions that move or rewrite the frame.  Each handler checks, in
 * registers, the conditions under which the reference could fault; when
 * one holds it writes the registers back and the instruction runs in
 * ref_exec itself, so a fault, its PC and the registers it leaves are
 * the golden model's by construction.  The rare instructions (ATOMICADD,
 * NEWARRAY, IASTORE, ERR) always go that way.
 *
 * Breakpoints cost nothing where there is none: a run patches the
 * handler of each slot with a breakpoint to BP, which checks the
 * breakpoint's cores and otherwise runs the slot's real handler.
 *
 * A lone core's own run and each private run of a window (nothing
 * watched, no fork-join) go through a translation of the program into
 * x86-64 code (native-jit.c, doc/performance.md sections 24.6 and
 * 24.10) with the same checks, a private run's stack bound its window's:
 * it stops before every instruction it does not translate, whose checks
 * fail, or that a breakpoint patched when it was built, with the
 * registers written back, and this loop runs that one instruction and
 * enters it again.  A run whose breakpoints are not those it was built
 * with builds it again; where there is no executable memory (or no
 * x86-64), this interpreter runs alone.
 *
 * Cores and steps (doc/manycore.md section 4): when one core alone can run
 * (the others halted, faulted, waiting or masked), every step is one
 * instruction of that core and it runs a long slice in the threaded
 * loop.  When several can, each runs ahead in windows (native-ahead.c):
 * privately up to its next shared instruction, the shared ones in the
 * reference's order.  While something is watched, and to replay a
 * window that a stop cut short, each global step runs one instruction
 * of each running core in core-id order, then the barrier release,
 * exactly as ref_step: shared words (globals, heap, ATOMICADD) are then
 * seen in the reference's order without further proof.  Every stop is at
 * a step boundary.
 *
 * Watchpoints (ops->watch): a watched global or heap word can change
 * only in PUTSTATIC, ATOMICADD, IASTORE or NEWARRAY, which take the slow
 * path while such a watch exists and are compared after; on a core
 * with a watched local, so are the instructions that can store to a
 * local of a live frame or leave one (ISTORE, IINC, INVOKEVIRTUAL,
 * IRETURN and the slow path): the others store above the frame's
 * floor, which their checks keep at or above every local.  The run ends
 * after the step that changed a watched word, with that step's writers
 * (engine_insn_store, as the debugger's own watch): every core that
 * stored to a watched word in it, whatever value it stored.
 */
#include <stdlib.h>
#include <string.h>

#include "devword.h"
#include "engine.h"
#include "ijvm.h"
#include "par.h"
#include "ref.h"

#if defined(__GNUC__) && !defined(NATIVE_SWITCH)
#define NAT_GOTO 1
#endif

#include "native-int.h"
#include "util.h"

/* The instructions whose handler needs no operand and no check; the
 * others are decoded in nat_decode's switch, H_SLOW: ref_exec's. */
static const uint8_t plain_h[256] = {
	[OP_NOP] = H_NOP, [OP_GC] = H_NOP, [OP_POP] = H_POP,
	[OP_DUP] = H_DUP, [OP_SWAP] = H_SWAP, [OP_IADD] = H_IADD,
	[OP_ISUB] = H_ISUB, [OP_IAND] = H_IAND, [OP_IOR] = H_IOR,
	[OP_IRETURN] = H_IRETURN, [OP_IALOAD] = H_IALOAD,
	[OP_COREID] = H_COREID, [OP_NCORES] = H_NCORES, [OP_IN] = H_IN,
	[OP_OUT] = H_OUT, [OP_HALT] = H_HALT, [OP_BARRIER] = H_BARRIER,
};

static void
nat_decode(const struct program *p, struct nat_prog *np)
{
	np->size = p->text_size;
	np->code = xcalloc((size_t)p->text_size + 1, sizeof *np->code);
	for (uint32_t pc = 0; pc <= p->text_size; pc++) {
		struct nat_insn *in = &np->code[pc];
		const uint8_t *t = p->text + pc;
		uint32_t left = p->text_size - pc, idx;
		int op, wide = 0, h = H_SLOW, len = 1;
		int32_t a = 0, b = 0, off;

		if (left == 0)
			goto done;
		op = t[0];
		if (op == OP_WIDE) {
			if (left < 2)
				goto done;
			op = t[1];
			if (op != OP_ILOAD && op != OP_ISTORE && op != OP_IINC)
				goto done;
			wide = 1;
		}
		if (ijvm_builtin((uint8_t)op) == NULL)
			goto done;
		len = ijvm_insn_size(ijvm_builtin((uint8_t)op), wide) + wide;
		if ((uint32_t)len > left)
			goto done;
		t += 1 + wide;
		switch (op) {
		case OP_BIPUSH:
			h = H_PUSHK;
			a = (int8_t)t[0];
			break;
		case OP_LDC_W:
			if ((idx = get_be16(t)) < p->cp_size) {
				h = H_PUSHK;
				a = p->cp[idx];
			}
			break;
		case OP_ILOAD:
		case OP_ISTORE:
		case OP_IINC:
			a = wide ? (int32_t)get_be16(t) : t[0];
			if (op == OP_ILOAD)
				h = H_ILOAD;
			else if (op == OP_ISTORE)
				h = a == 0 ? H_ISTORE0 : H_ISTORE;
			else {
				h = a == 0 ? H_IINC0 : H_IINC;
				b = (int8_t)t[1 + wide];
			}
			break;
		case OP_IFEQ:
		case OP_IFLT:
		case OP_IF_ICMPEQ:
		case OP_GOTO:
			/* a target outside the text: the reference's path */
			off = (int32_t)(int16_t)get_be16(t);
			a = (int32_t)pc + off;
			if (a < 0 || (uint32_t)a > p->text_size)
				break;
			h = op == OP_IFEQ ? H_IFEQ : op == OP_IFLT ? H_IFLT :
			    op == OP_GOTO ? H_GOTO : H_ICMPEQ;
			break;
		case OP_GETSTATIC: h = H_GETSTATIC; a = get_be16(t); break;
		case OP_PUTSTATIC: h = H_PUTSTATIC; a = get_be16(t); break;
		case OP_INVOKEVIRTUAL:
			/* the callee's faults that need no register */
			if ((idx = get_be16(t)) >= p->cp_size)
				break;
			a = p->cp[idx];
			if (a < 0 || (int64_t)a + 4 >= p->text_size)
				break;
			b = (int32_t)(get_be16(p->text + a) |
			    (uint32_t)get_be16(p->text + a + 2) << 16);
			if ((b & 0xffff) == 0)
				break;
			h = H_INVOKE;
			break;
		default:
			h = plain_h[op];
			break;
		}
done:
		in->h = in->real = (uint8_t)h;
		in->len = (uint8_t)len;
		in->a = a;
		in->b = b;
	}
	/* A private run stops before anything another core can see or
	 * change: shared words, the golden model.  HALT and BARRIER change
	 * only their core's status, which the window keeps from the others
	 * until the reference's order reaches that step (ahead.h,
	 * AHEAD_STATUS): a private run executes them and ends there. */
	np->pcode = xcalloc((size_t)p->text_size + 1, sizeof *np->pcode);
	for (uint32_t pc = 0; pc <= p->text_size; pc++) {
		struct nat_insn *in = &np->pcode[pc];

		*in = np->code[pc];
		switch (in->h) {
		case H_SLOW:
		case H_GETSTATIC:
		case H_PUTSTATIC:
		case H_IALOAD:
			in->h = in->real = H_SYNC;
			break;
		}
	}
}

/* A breakpoint of this run on core c at pc. */
static int
nat_bp_at(const struct engine_run *r, uint32_t c, int32_t pc)
{
	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];

		if (bp->on == ENGINE_BP_ON_PC && bp->pc == pc &&
		    (bp->cores == NULL || bp->cores[c]))
			return 1;
	}
	return 0;
}

static void
nat_patch(struct native *n, const struct machine *m,
    const struct engine_run *r, int on)
{
	for (size_t i = 0; i < r->nbps; i++) {
		const struct engine_bp *bp = &r->bps[i];

		if (bp->on != ENGINE_BP_ON_PC)
			continue;
		for (size_t k = 0; k < m->nprogs; k++) {
			struct nat_prog *np = &n->progs[k];

			if (bp->pc < 0 || (uint32_t)bp->pc > np->size)
				continue;
			np->code[bp->pc].h = on ? H_BP : np->code[bp->pc].real;
			np->pcode[bp->pc].h = on ? H_BP :
			    np->pcode[bp->pc].real;
		}
	}
	/* a translation stops at the breakpoints it was built with: built
	 * again, when used, for others (native-jit.c) */
	for (size_t k = 0; on && k < m->nprogs; k++) {
		struct nat_prog *np = &n->progs[k];

		if (np->jit != NULL && !nat_jit_fits(np->jit, np, r->nbps)) {
			nat_jit_free(np->jit);
			np->jit = NULL;
		}
	}
}

static void
nat_add_writer(struct native *n, uint32_t core, int32_t pc, int32_t addr)
{
	engine_writer_add(&n->writers, &n->nwriters, &n->capwriters, core,
	    pc, addr);
}

/* Before a step of core: it may write each of its watched locals. */
static void
nat_note_locals(struct native *n, const struct engine_run *r, uint32_t core,
    int32_t pc)
{
	for (size_t i = 0; i < r->nwatches; i++)
		if (r->watches[i].frame != INT32_MIN &&
		    r->watches[i].core == core)
			nat_add_writer(n, core, pc, r->watches[i].addr);
}

/* 1 if addr (engine_insn_store's) may be a watched global or heap word.
 * Its writer is named even when it stored the value the debugger saw:
 * another core's store in the same step may have changed it, as the
 * debugger's own one-step watch names every store before the step. */
static int
nat_watched_addr(const struct engine_run *r, int32_t addr)
{
	for (size_t i = 0; i < r->nwatches; i++) {
		const struct engine_watch *w = &r->watches[i];

		if (w->frame == INT32_MIN && (w->addr == addr ||
		    (addr == ENGINE_ANY_HEAP_WORD && w->addr >= MM_HEAP_BASE)))
			return 1;
	}
	return 0;
}

/*
 * Run core c for at most budget instructions (each a global step of its
 * own when c runs alone, or this core's part of one step).  first: the
 * first instruction is not checked for a breakpoint (engine.h).  priv:
 * a private run, which stops (EV_SYNC) before an instruction that reads
 * or writes a shared word or needs ref_exec, and after a HALT or BARRIER
 * (EV_STATUS: the window applies the status in the reference's order).
 * Returns the instructions executed; *ev says why it returned.
 */
uint64_t
nat_exec(struct engine *e, uint32_t core, uint64_t budget, int first,
    enum nat_ev *ev, int priv)
{
#ifdef NAT_GOTO
	static const void *const labels[] = {
		&&L_H_SLOW, &&L_H_BP, &&L_H_NOP, &&L_H_BIPUSH, &&L_H_PUSHK,
		&&L_H_ILOAD, &&L_H_ISTORE, &&L_H_ISTORE0, &&L_H_IINC,
		&&L_H_IINC0, &&L_H_POP, &&L_H_DUP, &&L_H_SWAP, &&L_H_IADD,
		&&L_H_ISUB, &&L_H_IAND, &&L_H_IOR, &&L_H_IFEQ, &&L_H_IFLT,
		&&L_H_ICMPEQ, &&L_H_GOTO, &&L_H_GETSTATIC, &&L_H_PUTSTATIC,
		&&L_H_INVOKE, &&L_H_IRETURN, &&L_H_IALOAD, &&L_H_COREID,
		&&L_H_NCORES, &&L_H_IN, &&L_H_OUT, &&L_H_HALT, &&L_H_BARRIER,
		&&L_H_SYNC,
	};
#define NAT_CASE(x)	case x: L_##x
#define DISPATCH()	goto *labels[ip->h]
#define DISPATCH_REAL()	goto *labels[ip->real]
#else
#define NAT_CASE(x)	case x
#define DISPATCH()	do { h = ip->h; goto dispatch; } while (0)
#define DISPATCH_REAL()	do { h = ip->real; goto dispatch; } while (0)
	int h;
#endif
	struct native *n = e->impl;
	struct machine *m = e->m;
	struct core *c = &m->cores[core];
	const struct nat_insn *code, *ip;
	const struct engine_run *r = n->r;
	int32_t *st = machine_stack_word(m, core, MM_STACK_BASE);
	/* a private run stores nothing above the window's copy */
	const int32_t end = priv ? n->ahead.lim[core] :
	    MM_STACK_BASE + (int32_t)m->cfg.stack_words - 1;
	int32_t sp, lv, tos, floor, v;
	uint32_t nlocals, size;
	/* the instructions ref_exec ran; the rest of those run here
	 * (FAST) are counted as the budget spent, not one by one */
	uint64_t left = budget, nslow = 0;
	int watchslow = n->wglobals || n->wheap, wloc = n->wlocal[core];
	const struct nat_insn *ip0;
	struct nat_prog *np = &n->progs[c->prog];
	/* The translated code runs a lone core's own run and a window's
	 * private run (native-jit.c): nothing watched, no fork-join.
	 * Between its stops, this loop runs one instruction with the rest
	 * of the budget (stash) held back, then enters it again.  A private
	 * run finds it built (nat_ahead) or none to be had: private runs
	 * run at the same time and must not build it. */
	int jit = !watchslow && !wloc && budget > 1 && !np->nojit &&
	    (c->fork & (FJ_ON | FJ_IN)) == 0 && (!priv || np->jit != NULL);
	uint64_t stash = 0;

/* Stack word a; the checks before each use keep it in the region. */
#define S(a) st[(a) - MM_STACK_BASE]
/* The frame of lv, as ref_frame sees it; a bad frame makes every check
 * that needs it fail, so ref_exec reports it. */
#define FRAME() do {							\
	int32_t fl_, nl_;						\
	if (ref_frame_at(m, core, lv, &fl_, &nl_) == 0) {		\
		floor = fl_;						\
		nlocals = nl_ > 0 ? (uint32_t)nl_ : 0;			\
	} else {							\
		floor = INT32_MAX;					\
		nlocals = 0;						\
	}								\
} while (0)
#define FAST()	(budget - left - nslow)
/* The next instruction: one step done. */
#define NEXT() do {							\
	if (UNLIKELY(--left == 0))					\
		goto out;						\
	DISPATCH();							\
} while (0)
/* After an instruction that may store to a local or leave its frame,
 * on a core with a watched local: stop after it if a watch changed. */
#define WCHECK() do {							\
	if (UNLIKELY(wloc)) {						\
		c->pc = (int32_t)(ip - code);				\
		c->sp = sp;						\
		c->lv = lv;						\
		c->tos = tos;						\
		if (engine_watch_changed(m, r)) {				\
			nat_note_locals(n, r, core,			\
			    (int32_t)(ip0 - code));			\
			left--;						\
			*ev = EV_WATCH;					\
			goto out;					\
		}							\
	}								\
} while (0)
/* pops words needed, the frame is valid, no overflow after pushes. */
#define NEED(pops, grow) do {						\
	if (UNLIKELY(sp - (pops) < floor ||				\
	    sp + (grow) > end))						\
		goto slow;						\
} while (0)
/* The one instruction between two of the translated code's has run (or
 * stopped the run): the budget held back is the run's again, and at its
 * end the translated code goes on (again: its state in the locals or,
 * after ref_exec, in the core). */
#define UNSTASH(again) do {						\
	if (stash > 0) {						\
		budget += stash;					\
		left += stash;						\
		stash = 0;						\
		if (*ev == EV_BUDGET)					\
			goto again;					\
	}								\
} while (0)

	*ev = EV_BUDGET;
	code = priv ? n->progs[c->prog].pcode : n->progs[c->prog].code;
	size = n->progs[c->prog].size;
	if (n->fvalid[core]) {
		floor = n->floor[core];
		nlocals = n->nlocals[core];
	} else
		floor = INT32_MAX, nlocals = 0;
	sp = c->sp;
	lv = c->lv;
	tos = S(sp);
	if (!n->fvalid[core])
		goto frame;
	goto go;
reload:
	sp = c->sp;
	lv = c->lv;
	tos = S(sp);
frame:
	FRAME();
go:
	if (c->pc < 0 || (uint32_t)c->pc > size) {
		ip = NULL;
		goto slow_pc;
	}
	ip = code + c->pc;
	if (jit)
		goto translated;
	if (first) {
		first = 0;
		DISPATCH_REAL();
	}
	DISPATCH();

translated:
	/* ip, sp, lv, tos, floor and nlocals hold the core's state */
	if (!first && left > 1) {
		struct nat_jctx x;

		if (floor == INT32_MAX || sp < floor || sp > end ||
		    (c->fork & (FJ_ON | FJ_IN)) != 0)
			jit = 0;	/* the interpreter's from here */
		else if (!nat_jit_ready(np, m->progs[c->prog]->main_nlocals,
		    m->cfg.stack_words))
			jit = 0;
		if (!jit)
			goto interp;
		x.stk = (uintptr_t)st - (uintptr_t)MM_STACK_BASE * sizeof *st;
		x.left = left;
		x.sp = sp;
		x.lv = lv;
		x.tos = tos;
		x.floor1 = floor + 1;
		x.nlocals = (int32_t)nlocals;
		x.pc = (int32_t)(ip - code);
		x.end = end;
		nat_jit_run(np->jit, &x);
		ip = code + x.pc;
		sp = x.sp;
		lv = x.lv;
		tos = x.tos;
		floor = x.floor1 - 1;
		nlocals = (uint32_t)x.nlocals;
		left = x.left;
		if (left == 0)
			goto out;
	}
	stash = left - 1;
	budget -= stash;
	left = 1;
interp:
	if (first) {
		first = 0;
		DISPATCH_REAL();
	}
	DISPATCH();

#ifndef NAT_GOTO
dispatch:
	switch (h) {
#else
	switch (ip->h) {
#endif
	NAT_CASE(H_BP):
		if (nat_bp_at(r, core, (int32_t)(ip - code))) {
			*ev = EV_BP;
			goto out;
		}
		DISPATCH_REAL();
	NAT_CASE(H_NOP):
		ip++;
		NEXT();
	NAT_CASE(H_BIPUSH):
	NAT_CASE(H_PUSHK):
		NEED(0, 1);
		S(++sp) = tos = ip->a;
		ip += ip->len;
		NEXT();
	NAT_CASE(H_ILOAD):
		NEED(0, 1);
		if (UNLIKELY((uint32_t)ip->a >= nlocals))
			goto slow;
		v = S(lv + ip->a);
		S(++sp) = tos = v;
		ip += ip->len;
		NEXT();
	NAT_CASE(H_ISTORE):
		NEED(1, -1);
		if (UNLIKELY((uint32_t)ip->a >= nlocals))
			goto slow;
		S(lv + ip->a) = tos;
		tos = S(--sp);
		ip0 = ip;
		ip += ip->len;
		WCHECK();
		NEXT();
	NAT_CASE(H_ISTORE0):
		/* local 0 of a method frame is its link */
		NEED(1, -1);
		if (UNLIKELY(nlocals == 0))
			goto slow;
		S(lv) = tos;
		tos = S(--sp);
		ip0 = ip;
		ip += ip->len;
		if (lv != MM_STACK_BASE)
			FRAME();
		WCHECK();
		NEXT();
	NAT_CASE(H_IINC):
		NEED(0, 0);
		if (UNLIKELY((uint32_t)ip->a >= nlocals))
			goto slow;
		S(lv + ip->a) = (int32_t)((uint32_t)S(lv + ip->a) +
		    (uint32_t)ip->b);
		tos = S(sp);	/* the local may be the top word */
		ip0 = ip;
		ip += ip->len;
		WCHECK();
		NEXT();
	NAT_CASE(H_IINC0):
		NEED(0, 0);
		if (UNLIKELY(nlocals == 0))
			goto slow;
		S(lv) = (int32_t)((uint32_t)S(lv) + (uint32_t)ip->b);
		tos = S(sp);
		ip0 = ip;
		ip += ip->len;
		if (lv != MM_STACK_BASE)
			FRAME();
		WCHECK();
		NEXT();
	NAT_CASE(H_POP):
		NEED(1, -1);
		tos = S(--sp);
		ip++;
		NEXT();
	NAT_CASE(H_DUP):
		NEED(1, 1);
		S(++sp) = tos;
		ip++;
		NEXT();
	NAT_CASE(H_SWAP):
		NEED(2, 0);
		v = S(sp - 1);
		S(sp - 1) = tos;
		S(sp) = tos = v;
		ip++;
		NEXT();
	NAT_CASE(H_IADD):
		NEED(2, -1);
		tos = (int32_t)((uint32_t)S(sp - 1) + (uint32_t)tos);
		S(--sp) = tos;
		ip++;
		NEXT();
	NAT_CASE(H_ISUB):
		NEED(2, -1);
		tos = (int32_t)((uint32_t)S(sp - 1) - (uint32_t)tos);
		S(--sp) = tos;
		ip++;
		NEXT();
	NAT_CASE(H_IAND):
		NEED(2, -1);
		tos = S(sp - 1) & tos;
		S(--sp) = tos;
		ip++;
		NEXT();
	NAT_CASE(H_IOR):
		NEED(2, -1);
		tos = S(sp - 1) | tos;
		S(--sp) = tos;
		ip++;
		NEXT();
	NAT_CASE(H_IFEQ):
		NEED(1, -1);
		v = tos;
		tos = S(--sp);
		ip = v == 0 ? code + ip->a : ip + ip->len;
		NEXT();
	NAT_CASE(H_IFLT):
		NEED(1, -1);
		v = tos;
		tos = S(--sp);
		ip = v < 0 ? code + ip->a : ip + ip->len;
		NEXT();
	NAT_CASE(H_ICMPEQ):
		NEED(2, -2);
		v = S(sp - 1);
		sp -= 2;
		ip = v == tos ? code + ip->a : ip + ip->len;
		tos = S(sp);
		NEXT();
	NAT_CASE(H_GOTO):
		ip = code + ip->a;
		NEXT();
	NAT_CASE(H_GETSTATIC):
		NEED(0, 1);
		S(++sp) = tos = m->globals[ip->a];
		ip += ip->len;
		NEXT();
	NAT_CASE(H_PUTSTATIC):
		NEED(1, -1);
		if (UNLIKELY(watchslow))
			goto slow;
		m->globals[ip->a] = tos;
		tos = S(--sp);
		ip += ip->len;
		NEXT();
	NAT_CASE(H_INVOKE): {
		int32_t nargs = ip->b & 0xffff, nloc = (int32_t)
		    ((uint32_t)ip->b >> 16), link = sp + nloc + 1;

		/* fork-join: main's calls are the reference's (forkjoin.h) */
		if (UNLIKELY(floor == INT32_MAX || sp - nargs < floor ||
		    link + 1 > end || (lv == MM_STACK_BASE &&
		    (c->fork & FJ_ON))))
			goto slow;
		v = (int32_t)(ip - code) + ip->len;	/* return address */
		S(link) = v;
		S(link + 1) = lv;
		lv = sp - nargs + 1;
		S(lv) = link;
		sp = link + 1;
		tos = S(sp);
		ip0 = ip;
		ip = code + ip->a + 4;
		FRAME();
		WCHECK();
		NEXT();
	}
	NAT_CASE(H_IRETURN): {
		int32_t link;

		if (UNLIKELY(lv == MM_STACK_BASE || sp - 1 < floor))
			goto slow;
		link = S(lv);
		/* FRAME proved the link in the region when it found the
		 * frame, but a push since may have overwritten it (after an
		 * ISTORE 0 of an address below LV, the floor is under it):
		 * the golden model's fault then */
		if (UNLIKELY((uint32_t)link - MM_STACK_BASE >=
		    m->cfg.stack_words - 1))
			goto slow;
		v = S(link);
		link = S(link + 1);	/* the saved LV, read before the store */
		if (UNLIKELY(link == MM_STACK_BASE && (c->fork & FJ_IN)))
			goto slow;	/* into main: the join (forkjoin.h) */
		S(lv) = tos;
		sp = lv;
		lv = link;
		FRAME();
		if (UNLIKELY(v < 0 || (uint32_t)v > size)) {
			/* the reference faults at the next fetch */
			left--;
			c->pc = v;
			c->sp = sp;
			c->lv = lv;
			c->tos = tos;
			if (wloc && engine_watch_changed(m, r)) {
				nat_note_locals(n, r, core,
				    (int32_t)(ip - code));
				*ev = EV_WATCH;
				goto out_regs_done;
			}
			if (left == 0)
				goto out_regs_done;
			goto reload;
		}
		ip0 = ip;
		ip = code + v;
		WCHECK();
		NEXT();
	}
	NAT_CASE(H_IALOAD): {
		int32_t addr;

		NEED(2, -1);
		if (UNLIKELY(machine_array_elem(m, tos, S(sp - 1), &addr) !=
		    FAULT_NONE))
			goto slow;
		tos = m->heap[addr - MM_HEAP_BASE];
		S(--sp) = tos;
		ip++;
		NEXT();
	}
	NAT_CASE(H_COREID):
		NEED(0, 1);
		S(++sp) = tos = (int32_t)core;
		ip++;
		NEXT();
	NAT_CASE(H_NCORES):
		NEED(0, 1);
		S(++sp) = tos = (int32_t)m->cfg.ncores;
		ip++;
		NEXT();
	NAT_CASE(H_IN):
		NEED(0, 1);
		S(++sp) = tos = devword_console_in(m, core);
		ip++;
		NEXT();
	NAT_CASE(H_OUT):
		NEED(1, -1);
		devword_console_out(m, core, tos);
		tos = S(--sp);
		ip++;
		NEXT();
	NAT_CASE(H_HALT):
		left--;
		c->status = CORE_HALTED;
		*ev = EV_STATUS;
		ip++;
		goto out;
	NAT_CASE(H_BARRIER):
		/* the step's end releases it (ref_barrier_release) */
		left--;
		c->status = CORE_WAITING;
		*ev = EV_STATUS;
		ip++;
		goto out;
	NAT_CASE(H_SYNC):
		*ev = EV_SYNC;
		goto out;
	NAT_CASE(H_SLOW):
	default:
		goto slow;
	}

slow:
	if (priv) {
		*ev = EV_SYNC;
		goto out;
	}
	/* The golden model runs this one instruction. */
	c->pc = (int32_t)(ip - code);
	c->sp = sp;
	c->lv = lv;
	if (FAST() > 0)
		c->tos = tos;
	goto slow_exec;
slow_pc:
	/* PC outside the text: ref_exec faults it, after a breakpoint */
	if (!first && nat_bp_at(r, core, c->pc)) {
		*ev = EV_BP;
		goto out_regs_done;
	}
	if (priv) {
		*ev = EV_SYNC;
		goto out;
	}
slow_exec: {
		int32_t waddr = 0, below, pc0 = c->pc;
		int w = 0;

		first = 0;
		if (watchslow) {
			const int32_t *bp = NULL;

			if (c->sp - 1 >= MM_STACK_BASE &&
			    c->sp - 1 <= end) {
				below = S(c->sp - 1);
				bp = &below;
			}
			w = engine_insn_store(m->progs[c->prog], c, bp,
			    n->wglobals, n->wheap, &waddr);
			if (w)
				nat_add_writer(n, core, pc0, waddr);
		}
		ref_exec(m, core);
		left--;
		nslow++;
		n->fvalid[core] = 0;
		if ((w || wloc) && engine_watch_changed(m, r)) {
			if (wloc)
				nat_note_locals(n, r, core, pc0);
			/* a status change first: the step's end (a join, a
			 * barrier) must run, and nat_run looks at the
			 * watch after it */
			*ev = c->status != CORE_RUNNING ? EV_STATUS :
			    EV_WATCH;
			goto out_regs_done;
		}
		if (w && !nat_watched_addr(r, waddr))
			n->nwriters--;	/* it stored nothing watched */
		if (c->status != CORE_RUNNING) {
			*ev = EV_STATUS;
			goto out_regs_done;
		}
		if (left == 0)
			goto out_regs_done;
		goto reload;
	}

out:
	UNSTASH(translated);
	if (ip != NULL)
		c->pc = (int32_t)(ip - code);
	c->sp = sp;
	c->lv = lv;
	if (FAST() > 0)
		c->tos = tos;
	n->floor[core] = floor;
	n->nlocals[core] = nlocals;
	n->fvalid[core] = 1;
out_regs_done:
	UNSTASH(reload);
	c->steps += FAST();
	return budget - left;
#undef S
#undef FRAME
#undef NEXT
#undef FAST
#undef NEED
#undef WCHECK
#undef UNSTASH
#undef NAT_CASE
#undef DISPATCH
#undef DISPATCH_REAL
}

/* A running core stands where a breakpoint of this run may hold
 * (engine_check_bps decides): a patched slot, or outside the text. */
static int
nat_at_bp_slot(const struct native *n, const struct core *c)
{
	const struct nat_prog *np = &n->progs[c->prog];

	if (c->status != CORE_RUNNING)
		return 0;
	if (c->pc < 0 || (uint32_t)c->pc > np->size)
		return 1;
	return np->code[c->pc].h == H_BP;
}

/* Slices of a lone core between looks at the interrupt flag. */
#define NAT_SLICE (1u << 20)

static int
nat_run(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, char **cause)
{
	struct native *n = e->impl;
	struct machine *m = e->m;
	struct ref_summary sum;
	uint32_t solo = 0, nrun = 0;
	uint64_t lockstep_to = 0, window;
	int rc = 0, changed;

	(void)cause;
	if (!engine_run_start(e, stop, &sum))
		return 0;
	n->r = r;
	n->nwriters = 0;
	n->wglobals = n->wheap = 0;
	memset(n->wlocal, 0, m->cfg.ncores);
	for (size_t i = 0; i < r->nwatches; i++) {
		const struct engine_watch *w = &r->watches[i];

		if (w->frame != INT32_MIN)
			n->wlocal[w->core] = 1;
		else if (w->addr >= MM_HEAP_BASE)
			n->wheap = 1;
		else
			n->wglobals = 1;
	}
	memset(n->fvalid, 0, m->cfg.ncores);	/* the host may have edited */
	changed = 1;
	nat_patch(n, m, r, 1);
	window = ahead_window_steps(NAT_SLICE, m->cfg.ncores, r->nbps > 0);

	while (stop->steps_run < r->max_steps) {
		uint64_t left = r->max_steps - stop->steps_run, k;
		uint32_t executed = 0, faulted = sum.faulted;
		int atbp = 0, watched = 0, first = stop->steps_run == 0;
		enum nat_ev ev;

		if (r->interrupt != NULL && *r->interrupt) {
			stop->reason = STOP_INTERRUPT;
			goto done;
		}
		if (r->nwatches > 0 && first && engine_watch_changed(m, r))
			left = 1;	/* the debugger sees it after a step */
		if (changed) {
			/* the cores that run change only with a status */
			nrun = engine_runnable(m, r->mask, &solo);
			changed = 0;
		}
		if (ahead_opens(nrun, r, left, stop->steps_run, lockstep_to)) {
			uint64_t to = 0;

			k = nat_ahead(e, r, ahead_next_steps(left, window), &to);
			if (k == 0) {
				lockstep_to = stop->steps_run + to;
				continue;
			}
			engine_advance(m, stop, k);
			executed = changed = 1;
			for (uint32_t i = 0; i < m->cfg.ncores && r->nbps > 0;
			    i++)
				if ((r->mask == NULL || r->mask[i]) &&
				    nat_at_bp_slot(n, &m->cores[i]))
					atbp = 1;
		} else if (nrun == 1) {
			/* Each instruction of the lone core is a step. */
			if (left > NAT_SLICE)
				left = NAT_SLICE;
			k = nat_exec(e, solo, left, first, &ev, 0);
			engine_advance(m, stop, k);
			executed = k > 0;
			atbp = ev == EV_BP || (r->nbps > 0 &&
			    nat_at_bp_slot(n, &m->cores[solo]));
			changed = ev == EV_STATUS;
			watched = ev == EV_WATCH;
		} else {
			for (uint32_t i = 0; i < m->cfg.ncores; i++) {
				struct core *c = &m->cores[i];

				if (c->status != CORE_RUNNING ||
				    (r->mask != NULL && !r->mask[i]))
					continue;
				/* a later core of the step may put a
				 * watched word back: the step's end
				 * decides (engine_watch_changed below) */
				executed += (uint32_t)nat_exec(e, i, 1, 1,
				    &ev, 0);
				changed |= ev == EV_STATUS;
				if (r->nbps > 0 && nat_at_bp_slot(n, c))
					atbp = 1;
			}
			m->step++;
			stop->steps_run++;
		}
		if (ref_step_end(e, r, stop, &sum, &changed, nrun > 0, executed,
		    faulted, n->seen, atbp, ENGINE_BP_ON_PC))
			goto watch;
		if (r->nwatches > 0 && (watched || engine_watch_changed(m, r))) {
			stop->reason = STOP_STEPS;
			goto watch;
		}
		n->nwriters = 0;
	}
	stop->reason = STOP_STEPS;
watch:
	if (r->nwatches > 0 && engine_watch_changed(m, r)) {
		stop->watched = 1;
		stop->writers = n->writers;
		stop->nwriters = n->nwriters;
	}
done:
	nat_patch(n, m, r, 0);
	n->r = NULL;
	return rc;
}

static void
nat_free(struct engine *e)
{
	struct native *n = e->impl;

	if (n != NULL) {
		for (size_t k = 0; k < e->m->nprogs; k++) {
			free(n->progs[k].code);
			free(n->progs[k].pcode);
			nat_jit_free(n->progs[k].jit);
		}
		ahead_free(&n->ahead);
		par_pool_free(n->pool);
		free(n->progs);
		free(n->seen);
		free(n->wlocal);
		free(n->floor);
		free(n->nlocals);
		free(n->fvalid);
		free(n->writers);
		free(n);
	}
	engine_release(e);
}

static int
nat_save(struct engine *e, void *out, size_t *bytes, char **cause)
{
	(void)e;
	(void)out;
	(void)cause;
	*bytes = 0;
	return 0;
}

static int
nat_load(struct engine *e, const void *side, char **cause)
{
	struct native *n = e->impl;

	(void)side;
	(void)cause;
	for (uint32_t c = 0; c < e->m->cfg.ncores; c++)
		n->seen[c] = e->m->cores[c].status == CORE_ERROR;
	return 0;
}

static void
nat_set_threads(struct engine *e, uint32_t t)
{
	struct native *n = e->impl;

	if (par_pool_threads(n->pool) == (t > 1 ? t : 1))
		return;
	par_pool_free(n->pool);
	n->pool = t > 1 ? par_pool_new(t) : NULL;
}

static const struct engine_ops nat_ops = {
	.name = "native",
	.kind = ENGINE_NATIVE,
	.level = LEVEL_ISA,
	.watch = 1,
	.run = nat_run,
	.read_words = engine_host_read_words,
	.write_word = engine_host_write_word,
	.push_cores = engine_host_nothing,
	.sync_memory = engine_host_nothing,
	.add_input = engine_host_add_input,
	.save = nat_save,
	.load = nat_load,
	.set_threads = nat_set_threads,
	.free = nat_free,
};

uint64_t
engine_native_translated(void)
{
	return nat_jit_steps();
}

int
engine_native_create(struct engine *e, struct machine *m, char **cause)
{
	struct native *n;

	(void)cause;
	memset(e, 0, sizeof *e);
	n = xcalloc(1, sizeof *n);
	n->exec = nat_exec;
	n->progs = xcalloc(m->nprogs, sizeof *n->progs);
	for (size_t k = 0; k < m->nprogs; k++)
		nat_decode(m->progs[k], &n->progs[k]);
	n->seen = xcalloc(m->cfg.ncores, 1);
	n->wlocal = xcalloc(m->cfg.ncores, 1);
	n->floor = xcalloc(m->cfg.ncores, sizeof *n->floor);
	n->nlocals = xcalloc(m->cfg.ncores, sizeof *n->nlocals);
	n->fvalid = xcalloc(m->cfg.ncores, 1);
	e->ops = &nat_ops;
	e->m = m;
	e->impl = n;
	return 0;
}
