/*
 * The ISA-level kernel: one work-item per emulated core, up to K global
 * steps per launch (doc/manycore.md).  Semantics and the order of the fault
 * checks are those of the reference interpreter (src/model/ref.c), bit for
 * bit; the decode table is expanded from ijvm-ops.def, the fault codes
 * from faults.def, the buffer layout from context.h.
 *
 * A launch runs steps 1 .. K (relative to the host's global step).  A
 * core keeps its registers in private variables for the whole launch and
 * writes them back once.  Before each step it reads the shared stop_at
 * word and does not execute a step past it; a core that meets a stop
 * condition (a breakpoint at a boundary, a fault with stop-on-fault, an
 * output area that is full or an input area that ran dry with more to
 * come) records the boundary and lowers stop_at with atomic_min.  Cores of
 * other work-groups may already have run past that boundary: the host
 * sees it (LAST_STEP) and replays from a checkpoint, so what the user sees
 * is always a consistent cut (src/ocl/ocl-run.c).
 *
 * BARRIER makes the core WAITING for the rest of the launch; the host
 * completes barriers between launches (CTX_F_RELEASE).  Shared globals are
 * plain loads and stores (programs that race get some interleaving),
 * ATOMICADD is atomic_add, NEWARRAY reserves heap words with a
 * compare-and-swap loop on heap_top, so a request that does not fit fails
 * without taking space from the next one, exactly as the reference.
 *
 * The launch protocol (prologue, step gate, divergence records,
 * epilogue) is launch.h's, shared with mic.cl and pmic.cl.
 *
 * Divergence records: each lane logs the handler it ran for every step
 * in local memory and keeps its last PC privately; every MICDB_DIV_CHUNK
 * steps the group meets at a barrier and the lanes of each warp fold the
 * log in parallel, one step each (launch.h).  Because every work-item of
 * a group must reach that barrier, lanes that stopped keep logging "did
 * not run" until no lane of the group can run (a flag decides that at
 * the same barrier).  A barrier per chunk rather than per step: POCL
 * pays for every barrier.
 *
 * The dispatch is a switch, one arm per handler.  With MICDB_ISA_PRED
 * (the host's choice on NVIDIA, see below) the frequent simple opcodes
 * (NOP, GC, BIPUSH, LDC_W, ILOAD, ISTORE, IINC, POP, DUP, the ALU
 * operations, the branches) are one handler, H_COMMON: a template step
 * whose fields the decode word gives, run without branches, so a warp
 * whose lanes sit at different opcodes runs them in one pass (k = 1
 * where the switch ran 7).  The rare opcodes keep their switch arms.  On
 * NVIDIA a warp whose lanes all sit at one PC when a chunk of steps
 * starts runs that chunk on the switch's arms (MICDB_ISA_VOTE); the
 * traced build votes at every step instead (below).
 *
 * Build-time defines, all passed by the host (src/ocl, the tuning
 * table): MICDB_WARP_W (W), MICDB_WG_SIZE (work-group size, a multiple
 * of W, or the core count when that is smaller), MICDB_STACK_INTERLEAVED
 * (0: word w of core c at c * stack_words + w, 1: at w * ncores + c),
 * MICDB_DIVERGENCE (1, or 2 for the one-step program with its fold
 * kernel isa_fold1), MICDB_DIV_WARPSYNC (launch.h), MICDB_ISA_PRED,
 * MICDB_ISA_VOTE, MICDB_PREFETCH and MICDB_HOST_MIRROR (below).
 *
 * Cost per step: no 64-bit arithmetic (steps are 32-bit and relative to
 * the launch; the divergence masks, up to 64 lanes, and the shift of
 * the text window are the exceptions), one decode word from a
 * __constant table, stack words at a base computed once per launch.
 */
#include "memmap.h"
#include "context.h"
#include "forkjoin.h"

#include "launch.h"

enum {
#define IJVM_OP(sym, code, k1, k2, pops, pushes, cls, desc) OP_##sym = code,
#include "ijvm-ops.def"
#undef IJVM_OP
};

/* Operand bytes per kind (doc/ijvm.md section 2). */
#define OPSZ_NONE   0
#define OPSZ_BYTE   1
#define OPSZ_CONST  1
#define OPSZ_VARNUM 1
#define OPSZ_LABEL  2
#define OPSZ_INDEX  2
#define OPSZ_METHOD 2
#define OPSZ_GLOBAL 2

/* Which classes name a local (and so need the frame check). */
#define ISLOCAL_MISC   0
#define ISLOCAL_PUSH   0
#define ISLOCAL_LOCAL  1
#define ISLOCAL_STACK  0
#define ISLOCAL_ALU    0
#define ISLOCAL_BRANCH 0
#define ISLOCAL_CALL   0
#define ISLOCAL_GLOBAL 0
#define ISLOCAL_PREFIX 0
#define ISLOCAL_ARRAY  0
#define ISLOCAL_CORE   0
#define ISLOCAL_IO     0
#define ISLOCAL_STOP   0

/*
 * MICDB_ISA_PRED: the frequent simple opcodes (the template group, T_ in
 * their decode words below) run as one handler, H_COMMON, instead of one
 * switch arm each, so that a warp whose lanes sit at different opcodes
 * runs them in one pass.  Each such opcode is one instance of a template
 * step whose shape its predecoded entry gives: at most one operand load
 * (a local or the word below the top), one reload of the new top (the
 * word below, or the one below that), an add, subtract, and or or of the
 * operand with zero, the top, or a constant of the entry, at most one
 * store (above the top, below it, or a local), and a branch on always,
 * top == operand, top < 0.  Every lane computes the same steps with its
 * own fields; nothing selects a pointer (the template's memory is the
 * stack alone: GETSTATIC, PUTSTATIC and SWAP keep their arms).
 * MICDB_ISA_VOTE (inline PTX, NVIDIA's compiler only): when a chunk of
 * steps starts (every step at one step a launch), a warp whose running
 * lanes all sit at one PC runs the chunk on the switch's arms instead of
 * H_COMMON, so a converged warp pays no template; a warp that diverges
 * inside such a chunk runs the arms apart, and its records count them
 * (test-ocl-diff models the chunks).  The traced build (launch-trace.h)
 * votes at every step, so that a trace's k does not change with where
 * launches start.  The host sets VOTE with PRED on NVIDIA.  The tests
 * run PRED=1 on POCL with the GPU layout (tests/ocl-diff-lib.c,
 * tests/test-ocl-diff.c), without VOTE.
 */

/*
 * MICDB_PREFETCH (D): with the CPU layout, before its first step core c
 * prefetches the stack top, frame and instruction entry of core c + D,
 * which the same thread runs a few work-items later, and the block of
 * core c + 2D, whose SP, LV and PC the prefetch reads D cores later.  A
 * launch of few steps is memory-bound there: a converged machine walks
 * its stacks at one stride, which the hardware prefetcher follows, but
 * cores at different depths defeat it.  The GPU layout needs none: a
 * warp's loads are one transaction.  The host sets D for CPU devices
 * with the CPU layout.
 */
#ifndef MICDB_PREFETCH
#define MICDB_PREFETCH 0
#endif
/* MICDB_HOST_MIRROR: the one-step program on a CPU device also writes
 * the host's struct core (context.h CTX_HC_*, src/ocl's mirror) */
#ifndef MICDB_HOST_MIRROR
#define MICDB_HOST_MIRROR 0
#endif
#if MICDB_PREFETCH
/* clang's builtin takes a generic pointer; a CPU device has one flat
 * address space (NVIDIA's clang refuses a __global one: the host sets
 * MICDB_PREFETCH for CPU devices only) */
#define ISA_PREFETCH(p) __builtin_prefetch((const void *)(size_t)(p))
#endif
/* the host's choices (the tuning table) */
#ifndef MICDB_ISA_PRED
#define MICDB_ISA_PRED 0
#endif
#ifndef MICDB_ISA_VOTE
#define MICDB_ISA_VOTE 0
#endif
/* the vote is PTX: NVIDIA's compiler (cl_nv_pragma_unroll is its mark),
 * the template group, and a hardware warp per emulated warp */
#if MICDB_ISA_VOTE && (!defined(cl_nv_pragma_unroll) || !MICDB_ISA_PRED || \
    MICDB_WARP_W != 32)
#undef MICDB_ISA_VOTE
#define MICDB_ISA_VOTE 0
#endif

/*
 * The kernel's handlers: the arms of the dispatch switch below, and
 * H_COMMON, the template group.  k of the divergence records counts
 * these, so merged opcodes count once: that is what the kernel runs.
 * With MICDB_ISA_PRED the template opcodes are one handler; without it
 * the four ALU operations, IFEQ/IFLT and NOP/GC share an arm each.
 * H_DECODE is the path of a core that faults before dispatch.
 */
enum {
	H_DECODE, H_NOP, H_BIPUSH, H_LDC_W, H_ILOAD, H_ISTORE, H_IINC, H_POP,
	H_DUP, H_SWAP, H_ALU, H_IF1, H_IF_ICMPEQ, H_GOTO, H_IRETURN,
	H_GETSTATIC, H_PUTSTATIC, H_ATOMICADD, H_INVOKE, H_NEWARRAY,
	H_IALOAD, H_IASTORE, H_COREID, H_NCORES, H_BARRIER, H_IN, H_OUT,
	H_ERR, H_HALT, H_COMMON,
	H_COUNT,               /* at most 32: k is counted in a 32-bit mask */
	H_NONE = 0xFF          /* lane did not run this step */
};

/*
 * A template opcode's fields (MICDB_ISA_PRED above; the switch arms read
 * OPR and BR too).  y is its entry's operand word (below):
 *   AM   the operand a: none (0), the local, the word below the top
 *   RL   the word the new top is reloaded from: none (the top stays),
 *        one below the top, two below
 *   TS   what a is combined with, one bit each (none set: zero): the
 *        top, y, y's IINC constant
 *   OPR  add, subtract (a - t), and, or: the value v
 *   ST   where a value is stored: nowhere, above the top (a push), the
 *        word below the top, the local; SV: it is the top, not v
 *   BR   branch to y: never, always, if the top equals a (a is 0
 *        without AM: IFEQ), if the top is negative
 * The new SP is SP + pushes - pops; the new top is the stored value
 * when the store lands on it, else the reloaded word, else the top.
 * The one-bit fields become masks with one shift pair and the step
 * combines them with and/or: no branch for the compiler to make of a
 * chain of selects, which would split a divergent warp again.
 */
enum { AM_NONE, AM_LOCAL, AM_BELOW };
enum { RL_NONE, RL_BELOW, RL_BELOW2 };
#define TS_ZERO 0u
#define TS_TOS  1u
#define TS_Y    2u
#define TS_C8   4u
enum { OPR_ADD, OPR_SUB, OPR_AND, OPR_OR };
/* where TS and OPR lie in the decode word: the template reads them a
 * bit at a time (OI_MASK) */
#define OI_TS_BIT  19
#define OI_OPR_BIT 22
enum { ST_NONE, ST_PUSH, ST_BELOW, ST_LOCAL };
enum { BR_NEVER, BR_ALWAYS, BR_EQ, BR_LT };
#define TM(h, am, rl, ts, opr, st, sv, br) \
	((uint)(h) << 9 | 1u << 14 | (uint)(am) << 15 | (uint)(rl) << 17 | \
	 (uint)(ts) << OI_TS_BIT | (uint)(opr) << OI_OPR_BIT | \
	 (uint)(st) << 24 | \
	 (uint)(sv) << 26 | (uint)(br) << 27)
#define RARE(h) ((uint)(h) << 9)

/* Every opcode of the .def needs a DEC_ line (a new opcode without one
 * does not compile, which is the point). */
#define DEC_NOP       TM(H_NOP, AM_NONE, RL_NONE, TS_ZERO, OPR_ADD, \
	ST_NONE, 0, 0)
#define DEC_GC        DEC_NOP
#define DEC_BIPUSH    TM(H_BIPUSH, AM_NONE, RL_NONE, TS_Y, OPR_ADD, \
	ST_PUSH, 0, 0)
#define DEC_LDC_W     TM(H_LDC_W, AM_NONE, RL_NONE, TS_Y, OPR_ADD, \
	ST_PUSH, 0, 0)
#define DEC_ILOAD     TM(H_ILOAD, AM_LOCAL, RL_NONE, TS_ZERO, OPR_ADD, \
	ST_PUSH, 0, 0)
#define DEC_ISTORE    TM(H_ISTORE, AM_NONE, RL_BELOW, TS_ZERO, OPR_ADD, \
	ST_LOCAL, 1, 0)
#define DEC_IINC      TM(H_IINC, AM_LOCAL, RL_NONE, TS_C8, OPR_ADD, \
	ST_LOCAL, 0, 0)
#define DEC_POP       TM(H_POP, AM_NONE, RL_BELOW, TS_ZERO, OPR_ADD, \
	ST_NONE, 0, 0)
#define DEC_DUP       TM(H_DUP, AM_NONE, RL_NONE, TS_TOS, OPR_ADD, \
	ST_PUSH, 0, 0)
#define DEC_ALU(opr)  TM(H_ALU, AM_BELOW, RL_NONE, TS_TOS, opr, \
	ST_BELOW, 0, 0)
#define DEC_IADD      DEC_ALU(OPR_ADD)
#define DEC_ISUB      DEC_ALU(OPR_SUB)
#define DEC_IAND      DEC_ALU(OPR_AND)
#define DEC_IOR       DEC_ALU(OPR_OR)
#define DEC_IFEQ      TM(H_IF1, AM_NONE, RL_BELOW, TS_ZERO, OPR_ADD, \
	ST_NONE, 0, BR_EQ)
#define DEC_IFLT      TM(H_IF1, AM_NONE, RL_BELOW, TS_ZERO, OPR_ADD, \
	ST_NONE, 0, BR_LT)
#define DEC_IF_ICMPEQ TM(H_IF_ICMPEQ, AM_BELOW, RL_BELOW2, TS_ZERO, \
	OPR_ADD, ST_NONE, 0, BR_EQ)
#define DEC_GOTO      TM(H_GOTO, AM_NONE, RL_NONE, TS_ZERO, OPR_ADD, \
	ST_NONE, 0, BR_ALWAYS)
#define DEC_SWAP          RARE(H_SWAP)
#define DEC_GETSTATIC     RARE(H_GETSTATIC)
#define DEC_PUTSTATIC     RARE(H_PUTSTATIC)
#define DEC_IRETURN       RARE(H_IRETURN)
#define DEC_ATOMICADD     RARE(H_ATOMICADD)
#define DEC_INVOKEVIRTUAL RARE(H_INVOKE)
#define DEC_WIDE          RARE(H_DECODE)   /* a prefix, never dispatched */
#define DEC_NEWARRAY      RARE(H_NEWARRAY)
#define DEC_IALOAD        RARE(H_IALOAD)
#define DEC_IASTORE       RARE(H_IASTORE)
#define DEC_COREID        RARE(H_COREID)
#define DEC_NCORES        RARE(H_NCORES)
#define DEC_BARRIER       RARE(H_BARRIER)
#define DEC_IN            RARE(H_IN)
#define DEC_OUT           RARE(H_OUT)
#define DEC_ERR           RARE(H_ERR)
#define DEC_HALT          RARE(H_HALT)

/* Decode word per opcode: known, length, pops, pushes, names a local,
 * handler, the template's fields.  Zero for an opcode the .def does not
 * have. */
#define OI_KNOWN(i)   ((i) & 1u)
#define OI_LEN(i)     (((i) >> 1) & 7u)
#define OI_POPS(i)    ((int)(((i) >> 4) & 3u))
#define OI_PUSHES(i)  ((int)(((i) >> 6) & 3u))
#define OI_LOCAL(i)   (((i) >> 8) & 1u)
#define OI_HANDLER(i) (((i) >> 9) & 31u)
#define OI_TMPL(i)    (((i) >> 14) & 1u)
#define OI_AM(i)      (((i) >> 15) & 3u)
#define OI_RL(i)      (((i) >> 17) & 3u)
#define OI_ST(i)      (((i) >> 24) & 3u)
#define OI_SV(i)      (((i) >> 26) & 1u)
#define OI_BR(i)      (((i) >> 27) & 3u)
/* bit b of i as a mask: 0 or all ones */
#define OI_MASK(i, b) ((int)((i) << (31 - (b))) >> 31)
#define OI(len, pops, pushes, names_local, dec) \
	(1u | (uint)(len) << 1 | (uint)(pops) << 4 | (uint)(pushes) << 6 | \
	 (uint)(names_local) << 8 | (dec))

/* The ALU of IADD, ISUB, IAND and IOR: a (the word below the top) op t,
 * the operation from OPR's two bits as masks, so that the template step
 * (any lane, any of them) and the H_ALU arm compute it one way.  Bit 22
 * negates t for ISUB (without bit 23) and turns "and" into "or" (with
 * it); bit 23 takes the logical result instead of the sum. */
static inline int
isa_alu(int a, int t, uint info)
{
	const int m0 = OI_MASK(info, OI_OPR_BIT);
	const int m1 = OI_MASK(info, OI_OPR_BIT + 1);
	const int tn = (t ^ (m0 & ~m1)) - (m0 & ~m1);
	const int sum = (int)((uint)a + (uint)tn);
	const int lg = (a & t) | ((a ^ t) & m0);

	return (lg & m1) | (sum & ~m1);
}

/* Whether a branch of kind br is taken: always, if the top equals a
 * (IFEQ: a = 0), or if the top is negative (IFLT). */
static inline int
isa_taken(uint br, int tos, int a)
{
	return (br == BR_ALWAYS) | ((br == BR_EQ) & (tos == a)) |
	    ((br == BR_LT) & (tos < 0));
}

__constant uint op_info[256] = {
#define IJVM_OP(sym, code, k1, k2, npops, npushes, klass, desc) \
	[code] = OI(1 + OPSZ_##k1 + OPSZ_##k2, npops, npushes, \
	    ISLOCAL_##klass, DEC_##sym),
#include "ijvm-ops.def"
#undef IJVM_OP
};

/*
 * Predecoded text:
 * what steps 1-4 of an instruction find depends on the PC alone (the text
 * and the constant pool are read-only), so isa_predec works it out once
 * per PC when the programs are loaded, into the side buffer: program p's
 * entries for PC 0 .. tsize start at its text offset + p, entry tsize
 * being "PC out of range" (a step clamps its PC into 0 .. tsize, so any
 * PC outside has that entry).  An entry is four words:
 *   x  op_info[op] with the instruction's whole length (WIDE included)
 *      in its length field, bit 29 PD_CPBAD (an LDC_W whose index is
 *      outside the pool: its arm faults, and it is no template opcode),
 *      bits 30-31 the fault of steps 1-4 (PD_F_*), x's other bits
 *      meaningless when that is not 0;
 *   y  the operand, ready for use: a local's index (16 bits after WIDE),
 *      IINC's index and its constant byte in bits 16-23, BIPUSH's value
 *      sign-extended, LDC_W's constant, a branch's target PC, a global's
 *      or the constant pool's index;
 *   z, w  in main, whose frame is known (main's locals, the stack
 *      size), steps 5-8 pass exactly for the SPs z .. z + w - 1 (w = 0:
 *      never, as for IRETURN, a local index past main's locals or a
 *      fault of steps 1-4).
 * A step then makes one 16-byte load from the read-only cache where it
 * made two or four text loads, a 64-bit shift, a __constant load (which
 * a warp whose lanes sit at k opcodes makes k times) and five checks;
 * in main one test of its SP replaces all the checks, and only a step
 * that fails it (or a step in a method) walks them in ref.c's order to
 * find its fault.  Operand decoding (WIDE, byte order, sign) and LDC_W's
 * pool load are gone from the handlers too.
 */
enum { PD_F_NONE, PD_F_PC, PD_F_WIDE, PD_F_OPCODE };
#define PD_CPBAD    (1u << 29)
#define PD_FAULT(x) ((x) >> 30)
/* a local's index, or IINC's */
#define PD_LIDX(y)  ((y) & 0xFFFFu)
/* IINC's constant, which stays 8 bits after WIDE */
#define PD_C8(y)    ((int)(char)((y) >> 16))

/* The entry of PC pc of a program of tsize bytes at tx with a constant
 * pool of cpsize words at cp, main_nl locals in main, sw stack words. */
static uint4
isa_predecode(__global const uchar *tx, uint tsize,
    __global const int *cp, uint cpsize, uint pc, int main_nl, int sw)
{
	uint op = 0, wide = 0, info = 0, f = PD_F_NONE, y = 0, len;
	int lo = 0, hi = -1;

	if (pc >= tsize) {
		f = PD_F_PC;
	} else {
		op = tx[pc];
		if (op == OP_WIDE) {
			if (pc + 1 >= tsize)
				f = PD_F_PC;
			else {
				op = tx[pc + 1];
				if (op != OP_ILOAD && op != OP_ISTORE &&
				    op != OP_IINC)
					f = PD_F_WIDE;
				wide = 1;
			}
		}
	}
	if (f == PD_F_NONE) {
		uint ob[3] = { 0, 0, 0 };

		info = op_info[op];
		len = OI_LEN(info) + 2 * wide;
		if (!OI_KNOWN(info))
			f = PD_F_OPCODE;
		else if (pc + len > tsize)
			f = PD_F_PC;
		info = (info & ~(7u << 1)) | len << 1;
		/* the operand bytes after the opcode (and WIDE) */
		for (uint k = 0; k < 3; k++) {
			const uint b = pc + 1 + wide + k;

			if (b < tsize)
				ob[k] = tx[b];
		}
		if (OI_LOCAL(info))
			y = wide ? ob[0] << 8 | ob[1] : ob[0];
		if (op == OP_IINC)
			y |= ob[1 + wide] << 16;
		else if (op == OP_BIPUSH)
			y = (uint)(int)(char)ob[0];
		else if (!OI_LOCAL(info) && len == 3)
			y = ob[0] << 8 | ob[1];	/* 16-bit operands */
		if (op == OP_LDC_W) {
			if (y < cpsize)
				y = (uint)cp[y];
			else	/* its arm faults */
				info = (info & ~(1u << 14)) | PD_CPBAD;
		} else if (OI_BR(info) != 0) {
			y = (uint)((int)pc + (int)(short)y);
		}
	}
	if (f == PD_F_NONE && op != OP_IRETURN) {
		/* main's frame is known: the SPs that pass 5-8 there */
		const int pops = OI_POPS(info), pushes = OI_PUSHES(info);
		const int end = MM_STACK_BASE + sw - 1;
		const uint idx = PD_LIDX(y);

		lo = MM_STACK_BASE;
		if (pops > 0 || OI_LOCAL(info))
			lo = max(lo, MM_STACK_BASE + main_nl - 1 + pops);
		hi = min(end, end + pops - pushes);
		if (OI_LOCAL(info) && (main_nl <= 0 || idx >= (uint)main_nl))
			hi = lo - 1;
	}
	return (uint4)(info | f << 30, y, (uint)lo,
	    hi >= lo ? (uint)(hi - lo) + 1 : 0u);
}

/* One work-item per entry of the side buffer (above); nprogs programs. */
__kernel void
isa_predec(__global const uchar *restrict text,
    __global const int *restrict cpool,
    __global const uint *restrict progs, uint nprogs, uint nentries,
    uint sw, __global uint4 *pre)
{
	const uint i = (uint)get_global_id(0);

	if (i >= nentries)
		return;
	pre[i] = (uint4)(PD_F_PC << 30, 0, 0, 0);
	for (uint p = 0; p < nprogs; p++) {
		__global const uint *pt = progs + p * CTX_PROG_WORDS;
		const uint base = pt[CTX_P_TEXT_OFF] + p;
		const uint tsize = pt[CTX_P_TEXT_SIZE];

		if (i >= base && i <= base + tsize) {
			pre[i] = isa_predecode(text + pt[CTX_P_TEXT_OFF],
			    tsize, cpool + pt[CTX_P_CP_OFF],
			    pt[CTX_P_CP_SIZE], i - base,
			    (int)pt[CTX_P_MAIN_NLOCALS], (int)sw);
			return;
		}
	}
}

/* Stack word a of this core (a checked to lie in the region).
 * Interleaved, the whole index is 32-bit (the host interleaves only
 * stacks of fewer than 2^32 words), so an access is one multiply-add and
 * one widening multiply-add; through stk (stacks + c) NVIDIA's compiler
 * added in 64 bits and shifted, four more instructions an access. */
#if MICDB_STACK_INTERLEAVED
#define S(a) stacks[(uint)((a) - MM_STACK_BASE) * sstride + c]
#else
#define S(a) stk[(a) - MM_STACK_BASE]
#endif


/* Push x / pop one word: the stack and the cached top. */
#define PUSH(x) do { \
	const int x_ = (x); \
	S(++nsp) = x_; \
	tos = x_; \
} while (0)
#define POP1() do { \
	nsp--; \
	tos = S(nsp); \
} while (0)

/* Whether every lane that runs this with this one has x (only with
 * MICDB_ISA_VOTE; otherwise "no", and H_COMMON runs): the lowest active
 * lane's x, shuffled to all, and a ballot of the lanes that agree.
 * Only where the emulated warp is the hardware warp (W = 32, the
 * work-groups whole warps or smaller): a vote of a hardware warp that
 * holds several emulated warps, or part of one, would make one of them
 * run a switch arm beside another's H_COMMON for the same opcodes. */
#if MICDB_ISA_PRED && MICDB_ISA_VOTE
static int
warp_same(uint x)
{
	uint m, x0, b;

	asm volatile("activemask.b32 %0;" : "=r"(m));
	asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, %3;" : "=r"(x0) :
	    "r"(x), "r"(popcount((m & (0u - m)) - 1u)), "r"(m));
	asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %1, %2;\n\t"
	    "vote.sync.ballot.b32 %0, p, %3;\n\t}" : "=r"(b) :
	    "r"(x), "r"(x0), "r"(m));
	return b == m;
}
#else
static int
warp_same(uint x)
{
	(void)x;
	return 0;
}
#endif

/* The read-only buffers are restrict: they alias nothing the kernel
 * writes, which lets a GPU compiler load them through its read-only
 * cache. */
__kernel void
isa_run(__global uint *ctx, __global int *stacks, __global int *globals,
    __global int *heap, __global const uchar *restrict text,
    __global const int *restrict cpool, __global const uint *restrict progs,
    __global uchar *out_area, __global const uchar *restrict in_area,
    __global const uint *restrict bps, __global const uchar *restrict mask,
    __global const uint4 *restrict pre, __global uchar *hcores
    LAUNCH_TRACE_ARGS)
{
	LAUNCH_PROLOGUE;
	const int end = MM_STACK_BASE + (int)sw - 1;
	const int main_nl = (int)pt[CTX_P_MAIN_NLOCALS];
	__global const uint4 *pd = pre + pt[CTX_P_TEXT_OFF] + prog;

	/* Registers, private for the launch. */
	int pc = (int)F(CTX_C_PC), sp = (int)F(CTX_C_SP);
	int lv = (int)F(CTX_C_LV), tos = (int)F(CTX_C_TOS);
	uint status = F(CTX_C_STATUS);
	uint fault = F(CTX_C_FAULT), fault_pc = F(CTX_C_FAULT_PC);
	uint fault_op = F(CTX_C_FAULT_OP);
	uint tos_dirty = 0;

	LAUNCH_ACTIVATE;
#if MICDB_PREFETCH
	/* Software prefetch (MICDB_PREFETCH above): the words core c + D
	 * will touch first.  prefetch() of OpenCL C is a no-op on POCL;
	 * clang's builtin is a real one.  Two stages: core c + 2D's block
	 * now, so that the reads of core c + D's block below hit the cache
	 * instead of stalling. */
	if (c + 2 * MICDB_PREFETCH < ncores) {
		__global const uint *core3 = core + 2 * MICDB_PREFETCH * cs;

		ISA_PREFETCH(core3);
		ISA_PREFETCH(core3 + CTX_CORE_FIELDS / 2 * fs);
	}
	if (c + MICDB_PREFETCH < ncores) {
		__global const uint *core2 = core + MICDB_PREFETCH * cs;
		__global const int *stk2 = stk + MICDB_PREFETCH * sw;
		const int sp2 = (int)core2[CTX_C_SP * fs];
		const int lv2 = (int)core2[CTX_C_LV * fs];
		const uint pc2 = core2[CTX_C_PC * fs];

		if (sp2 >= MM_STACK_BASE && sp2 <= end)
			ISA_PREFETCH(stk2 + (sp2 - MM_STACK_BASE));
		if (lv2 >= MM_STACK_BASE && lv2 <= end)
			ISA_PREFETCH(stk2 + (lv2 - MM_STACK_BASE));
		/* its instruction's entry, where the step reads it */
		ISA_PREFETCH(pd + min(pc2, tsize));
	}
#endif
	/* The memory is authoritative (the host may have written the top
	 * word); an SP outside the region is a host edit the reference
	 * would not survive: fault it at its first step instead. */
	if (active && sp >= MM_STACK_BASE && sp <= end)
		tos = S(sp);

#if MICDB_ISA_PRED
	/* the chunk's vote (MICDB_ISA_VOTE): lanes all at one PC run the
	 * switch's arms for the chunk.  At the chunk's head, not in its
	 * first step: a test every step costs the uniform workload.  But
	 * chunks start where launches start, and the traced build's k
	 * (launch-trace.h) must not depend on where launches or runs end
	 * (doc/debugger.md section 5): with a vote per chunk, two lanes at
	 * ILOAD and IADD count 2 kernel paths in a chunk that began
	 * converged and 1 (H_COMMON) in one that did not, so the same
	 * run's trace changed with the launches' K and the runs' lengths
	 * on NVIDIA.  The traced build votes at every step instead
	 * (ISA_VOTE_STEP), as the one-step launches that a trace without
	 * records reads have always done: its k is then that step's
	 * alone. */
	int conv = 0;
#if !MICDB_TRACE
#undef LAUNCH_CHUNK_HOOK
#define LAUNCH_CHUNK_HOOK do { \
	if (active) \
		conv = warp_same((uint)pc); \
} while (0)
#endif
#endif
#if MICDB_ISA_PRED && MICDB_TRACE
#define ISA_VOTE_STEP conv = warp_same((uint)pc)	/* the lanes that run it */
#else
#define ISA_VOTE_STEP (void)0
#endif

	/* a lane's program path and a traced core's words, for a trace
	 * (launch-trace.h) */
#define LAUNCH_TRACE_PATH pc
#define LAUNCH_TRACE_CW TB_ISA_WORDS
#define LAUNCH_TRACE_INSNS last_step
#define LAUNCH_TRACE_LEVEL(r_) (void)0
	LAUNCH_LOOP_BEGIN {
		uint hid = H_NONE;
		int pc0 = pc;

		LAUNCH_STEP_GATE;
		ISA_VOTE_STEP;
		do {
			/* 1-4 from the PC's predecoded entry */
			const uint4 d = pd[min((uint)pc, tsize)];
			const uint info = d.x, y = d.y;
			/* a local's address (meaningless for the others) */
			const int lcl = lv + (int)PD_LIDX(y);
			int next = pc + (int)OI_LEN(info);
			int nsp = sp, v;
			int flt = FAULT_NONE, io_stop = 0;

			hid = H_DECODE;
			if (lv != MM_STACK_BASE || (uint)sp - d.z >= d.w) {
			/* Not main's entry range (see isa_predecode):
			 * steps 1-8 in ref.c's order, to find the fault if
			 * there is one. */
			const int pops = OI_POPS(info);
			const int pushes = OI_PUSHES(info);
			int flr, nlocals = 0;

			if (PD_FAULT(info) != PD_F_NONE) {
				flt = PD_FAULT(info) == PD_F_PC ?
				    FAULT_PC_RANGE :
				    PD_FAULT(info) == PD_F_WIDE ?
				    FAULT_BAD_WIDE : FAULT_BAD_OPCODE;
				goto done;
			}
			/* 5-7: frame and stack depth */
			if (sp < MM_STACK_BASE || sp > end) {
				flt = FAULT_STACK_ACCESS;  /* see above */
				goto done;
			}
			if (OI_HANDLER(info) == H_IRETURN &&
			    lv == MM_STACK_BASE) {
				flt = FAULT_RETURN_MAIN;
				goto done;
			}
			if (pops > 0 || OI_LOCAL(info)) {
				if (lv == MM_STACK_BASE) {
					flr = MM_STACK_BASE + main_nl - 1;
					nlocals = main_nl;
				} else {
					int link;

					if (lv < MM_STACK_BASE || lv > end) {
						flt = FAULT_STACK_ACCESS;
						goto done;
					}
					link = S(lv);
					if (link < MM_STACK_BASE ||
					    link > end - 1) {
						flt = FAULT_STACK_ACCESS;
						goto done;
					}
					flr = link + 1;
					nlocals = link - lv;
				}
				if (sp - pops < flr) {
					flt = FAULT_STACK_UNDERFLOW;
					goto done;
				}
			}
			if (sp - pops + pushes > end) {
				flt = FAULT_STACK_OVERFLOW;
				goto done;
			}
			/* 8: the local index */
			if (OI_LOCAL(info) && (nlocals <= 0 ||
			    PD_LIDX(y) >= (uint)nlocals)) {
				flt = FAULT_LOCAL_INDEX;
				goto done;
			}
			}

			/* 8-9: the handlers.  nsp/tos are the new SP and
			 * top; nothing is committed before the end. */
			hid = OI_HANDLER(info);
#if MICDB_ISA_PRED
			if (OI_TMPL(info) && !conv) {
				/* the template step (above): every lane the
				 * same instructions, its own fields */
				const uint am = OI_AM(info), rl = OI_RL(info);
				const uint st = OI_ST(info), br = OI_BR(info);
				const int t =
				    (tos & OI_MASK(info, OI_TS_BIT)) |
				    ((int)y & OI_MASK(info, OI_TS_BIT + 1)) |
				    (PD_C8(y) & OI_MASK(info, OI_TS_BIT + 2));
				const int w = st == ST_LOCAL ? lcl :
				    st == ST_PUSH ? sp + 1 : sp - 1;
				int a = 0, r = tos, sv;

				hid = H_COMMON;
				if (am != AM_NONE)
					a = S(am == AM_LOCAL ? lcl : sp - 1);
				if (rl != RL_NONE)
					r = S(sp - (int)rl);
				v = isa_alu(a, t, info);
				sv = OI_SV(info) ? tos : v;
				nsp = sp + OI_PUSHES(info) - OI_POPS(info);
				if (isa_taken(br, tos, a))
					next = (int)y;
				if (st != ST_NONE)
					S(w) = sv;
				tos = (st != ST_NONE) & (w == nsp) ? sv : r;
				goto commit;
			} else
#endif
			switch (hid) {
			case H_NOP:
				goto commit;
			case H_BIPUSH:
				PUSH((int)y);
				goto commit;
			case H_LDC_W:
				if (info & PD_CPBAD) {
					flt = FAULT_CP_INDEX;
					break;
				}
				PUSH((int)y);
				goto commit;
			case H_ILOAD:
				PUSH(S(lcl));
				goto commit;
			case H_ISTORE:
				S(lcl) = tos;
				POP1();
				goto commit;
			case H_IINC:
				v = (int)((uint)S(lcl) + (uint)PD_C8(y));
				S(lcl) = v;
				if (lcl == nsp)
					tos = v;
				goto commit;
			case H_POP:
				POP1();
				goto commit;
			case H_DUP:
				PUSH(tos);
				goto commit;
			case H_SWAP:
				v = S(nsp - 1);
				S(nsp - 1) = tos;
				S(nsp) = v;
				tos = v;
				goto commit;
			case H_ALU:
				v = isa_alu(S(nsp - 1), tos, info);
				S(--nsp) = v;
				tos = v;
				goto commit;
			case H_IF1:
				if (isa_taken(OI_BR(info), tos, 0))
					next = (int)y;
				POP1();
				goto commit;
			case H_IF_ICMPEQ:
				if (tos == S(nsp - 1))
					next = (int)y;
				nsp -= 2;
				tos = S(nsp);
				goto commit;
			case H_GOTO:
				next = (int)y;
				goto commit;
			case H_GETSTATIC:
				PUSH(globals[y]);
				goto commit;
			case H_PUTSTATIC:
				globals[y] = tos;
				POP1();
				goto commit;
			case H_ATOMICADD:
				v = atomic_add((volatile __global int *)
				    &globals[y], tos);
				S(nsp) = v;
				tos = v;
				break;
			case H_INVOKE: {
				uint nargs, nloc, fk;
				int addr, newlv, link, link_nl, flr;

				if (y >= cpsize) {
					flt = FAULT_CP_INDEX;
					break;
				}
				/* the header and one byte of code */
				addr = cp[y];
				if (addr < 0 || addr >= (int)tsize - 4) {
					flt = FAULT_METHOD_ADDR;
					break;
				}
				nargs = (uint)tx[addr] << 8 | tx[addr + 1];
				nloc = (uint)tx[addr + 2] << 8 | tx[addr + 3];
				if (nargs == 0) {
					flt = FAULT_BAD_ARGS;
					break;
				}
				if (lv == MM_STACK_BASE) {
					flr = MM_STACK_BASE + main_nl - 1;
				} else {
					if (lv < MM_STACK_BASE || lv > end) {
						flt = FAULT_STACK_ACCESS;
						break;
					}
					link_nl = S(lv);
					if (link_nl < MM_STACK_BASE ||
					    link_nl > end - 1) {
						flt = FAULT_STACK_ACCESS;
						break;
					}
					flr = link_nl + 1;
				}
				if (sp - (int)nargs < flr) {
					flt = FAULT_STACK_UNDERFLOW;
					break;
				}
				newlv = sp - (int)nargs + 1;
				fk = F(CTX_C_FORK);
				if ((fk & FJ_ON) && lv == MM_STACK_BASE &&
				    !FJ_MINE(fk, c)) {
					/* fork-join: another core's call */
					F(CTX_C_FORK) = FJ_COUNT(fk);
					nsp = newlv;
					S(nsp) = 0;
					tos = 0;
					break;
				}
				link = sp + (int)nloc + 1;
				if (link + 1 > end) {
					flt = FAULT_STACK_OVERFLOW;
					break;
				}
				if ((fk & FJ_ON) && lv == MM_STACK_BASE)
					F(CTX_C_FORK) = FJ_COUNT(fk) | FJ_IN;
				/* callee locals above the arguments are not
				 * zeroed, as the Mic-1 microprogram does */
				S(newlv) = link;
				S(link) = next;
				S(link + 1) = lv;
				nsp = link + 1;
				tos = lv;
				lv = newlv;
				next = addr + 4;
				break;
			}
			case H_IRETURN: {
				const int link = S(lv);	/* checked above */
				int a;

				v = tos;
				next = S(link);
				a = S(link + 1);
				nsp = lv;
				S(nsp) = v;
				lv = a;
				if (lv == MM_STACK_BASE &&
				    (F(CTX_C_FORK) & FJ_IN)) {
					/* into main: the join (forkjoin.h) */
					F(CTX_C_FORK) &= ~FJ_IN;
					status = ST_JOINING;
				}
				break;
			}
			case H_NEWARRAY: {
				uint need, old, prev;

				if (tos < 0) {
					flt = FAULT_ARRAY_SIZE;
					break;
				}
				need = (uint)tos + MM_ARRAY_HDR;
				old = *heap_top;
				for (;;) {
					if (need > heap_words - old) {
						flt = FAULT_HEAP_FULL;
						break;
					}
					prev = atomic_cmpxchg(heap_top, old,
					    old + need);
					if (prev == old)
						break;
					old = prev;
				}
				if (flt != FAULT_NONE)
					break;
				heap[old] = (int)MM_ARRAY_TAG;
				heap[old + 1] = tos;
				for (uint i = 0; i < (uint)tos; i++)
					heap[old + MM_ARRAY_HDR + i] = 0;
				v = MM_HEAP_BASE + (int)old;
				S(nsp) = v;
				tos = v;
				break;
			}
			case H_IALOAD:
			case H_IASTORE: {
				uint top = *heap_top, off, n;
				int ref = tos, i = S(nsp - 1);

				/* only allocated words count, as
				 * machine_array_elem */
				off = (uint)ref - MM_HEAP_BASE;
				if (ref < MM_HEAP_BASE || top < MM_ARRAY_HDR ||
				    off > top - MM_ARRAY_HDR ||
				    heap[off] != (int)MM_ARRAY_TAG) {
					flt = FAULT_ARRAY_REF;
					break;
				}
				n = (uint)heap[off + 1];
				if ((int)n < 0 ||
				    n > top - off - MM_ARRAY_HDR) {
					flt = FAULT_ARRAY_REF;
					break;
				}
				if (i < 0 || (uint)i >= n) {
					flt = FAULT_ARRAY_BOUNDS;
					break;
				}
				off += MM_ARRAY_HDR + (uint)i;
				if (hid == H_IALOAD) {
					v = heap[off];
					S(--nsp) = v;
					tos = v;
				} else {
					heap[off] = S(nsp - 2);
					nsp -= 3;
					tos = S(nsp);
				}
				break;
			}
			case H_COREID:
				PUSH((int)c);
				goto commit;
			case H_NCORES:
				PUSH((int)ncores);
				goto commit;
			case H_BARRIER:
				status = ST_WAITING;
				break;
			case H_IN:
				if (in_pos < in_len) {
					v = ina[in_pos++];
				} else if (in_more) {
					io_stop = 1;	/* host refills */
					break;
				} else {
					v = 0;
				}
				PUSH(v);
				break;
			case H_OUT:
				if (out_len >= out_cap) {
					io_stop = 1;	/* host drains */
					break;
				}
				outa[out_len++] = (uchar)tos;
				POP1();
				break;
			case H_ERR:
				flt = FAULT_ERR;
				break;
			case H_HALT:
				status = ST_HALTED;
				break;
			default:
				flt = FAULT_BAD_OPCODE;
				break;
			}
			if (io_stop) {
				/* Not executed: stop before this step.  s > 1
				 * because the areas start each launch empty
				 * (output) or non-empty (input with more). */
				hid = H_NONE;
				active = 0;
				stop_step = s - 1;
				stop_kind = CTX_STOP_IO;
				atomic_min(stop_at, s - 1);
				break;
			}
			/* a rare arm that ran (HALT and BARRIER change the
			 * status) */
			if (flt == FAULT_NONE) {
				pc = next;
				sp = nsp;
				tos_dirty = 1;
			}
done:
			/* steps run 1, 2, ... up to the one that stops the
			 * core: last_step is also how many it executed */
			last_step = s;
			LAUNCH_RAN(pc0, hid);
			if (flt != FAULT_NONE) {
				/* Registers stay as before the instruction. */
				status = ST_ERROR;
				fault = (uint)flt;
				fault_pc = (uint)pc;
				fault_op = (uint)pc < tsize ? tx[pc] : 0;
				/* Every handler checks before it writes, so
				 * tos still caches the old top. */
			}
			LAUNCH_STOP_IF_DONE
			goto bps;
commit:
			/* The template and the arms that can neither fault
			 * nor stop the core come here past those tests. */
			pc = next;
			sp = nsp;
			tos_dirty = 1;
			last_step = s;
			LAUNCH_RAN(pc0, hid);
bps:
			/* Breakpoints at the boundary after this step. */
			for (uint i = 0; i < nbps; i++) {
				__global const uint *e = bps + i * CTX_BP_WORDS;
				uint set;

				if ((int)e[CTX_BP_PC] != pc)
					continue;
				set = e[CTX_BP_SET];
				if (set != CTX_NONE &&
				    !((bps[set + (c >> 5)] >> (c & 31)) & 1))
					continue;
				active = 0;
				stop_step = s;
				stop_bp = e[CTX_BP_ID];
				stop_kind = CTX_STOP_BP;
				atomic_min(stop_at, s);
				break;
			}
		} while (0);

		LAUNCH_LOG(hid);
		LAUNCH_TRACE_STEP;
	} LAUNCH_LOOP_END(H_COUNT);

	LAUNCH_TRACE_END;
	LAUNCH_WRITE_RECORDS;
	if (!valid)
		return;
	LAUNCH_NOTE;
	F(CTX_C_PC) = (uint)pc;
	F(CTX_C_SP) = (uint)sp;
	F(CTX_C_LV) = (uint)lv;
	if (tos_dirty)
		F(CTX_C_TOS) = (uint)tos;
	F(CTX_C_STATUS) = status;
	F(CTX_C_FAULT) = fault;
	F(CTX_C_FAULT_PC) = fault_pc;
	F(CTX_C_FAULT_OP) = fault_op;
	LAUNCH_COUNT(CTX_C_STEPS_LO, CTX_C_STEPS_HI, last_step);
	LAUNCH_WRITE_STOPS;
#if MICDB_HOST_MIRROR
	/* The mirror (context.h CTX_HC_*): what the host's conversion
	 * of the block above would write, for a core that ran (a
	 * faulting core too: its block also has news, which the host
	 * converts).  A core that did not run changed nothing the host
	 * does not know: a barrier release is the host's own. */
	if (last_step != 0) {
		__global uchar *hc = hcores + (size_t)c * CTX_HC_BYTES;

		*(__global int *)(hc + CTX_HC_PC) = pc;
		*(__global int *)(hc + CTX_HC_SP) = sp;
		*(__global int *)(hc + CTX_HC_LV) = lv;
		if (tos_dirty)
			*(__global int *)(hc + CTX_HC_TOS) = tos;
		hc[CTX_HC_STATUS] = (uchar)status;
		hc[CTX_HC_FAULT] = (uchar)fault;
		*(__global uint *)(hc + CTX_HC_FAULT_PC) = fault_pc;
		hc[CTX_HC_FAULT_OP] = (uchar)fault_op;
		*(__global ulong *)(hc + CTX_HC_STEPS) =
		    (ulong)F(CTX_C_STEPS_HI) << 32 | F(CTX_C_STEPS_LO);
		*(__global uint *)(hc + CTX_HC_FORK) = F(CTX_C_FORK);
	}
#else
	(void)hcores;
#endif
#undef F
}

#if MICDB_DIVERGENCE == 2
LAUNCH_FOLD1_KERNEL(isa_fold1)
#endif
