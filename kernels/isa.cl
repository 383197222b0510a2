/*
 * The ISA-level kernel: one work-item per emulated core, up to K global
 * steps per launch (manycore.md).  Semantics and the order of the fault
 * checks are those of the reference interpreter (src/core/ref.c), bit for
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
 * is always a consistent cut (src/ocl/engine-ocl.c).
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
 * Divergence records (MICDB_DIVERGENCE): each lane logs the handler it
 * ran for every step in local memory and keeps its last PC privately;
 * every MICDB_DIV_CHUNK steps the group meets at a barrier and the lanes
 * of each warp fold the log in parallel, one step each (launch.h).
 * Because every work-item of a group must reach that barrier, lanes
 * that stopped keep logging "did not run" until no lane of the group can
 * run (a flag decides that at the same barrier).  On POCL a barrier per
 * chunk instead of per step, and 32-lane groups, measured several times
 * faster.
 *
 * The dispatch is a switch, one arm per handler.  An alternative, off
 * by default (MICDB_ISA_PRED=1 in MICDB_OCL_OPTS, see below): the
 * frequent simple opcodes (NOP, GC, BIPUSH, LDC_W, ILOAD, ISTORE, IINC,
 * POP, DUP, SWAP, the ALU operations, the branches, GETSTATIC, PUTSTATIC) are one handler group,
 * H_COMMON, decoded into fields of the decode word (what it loads, what
 * it pushes, what else it writes, the ALU operation, the branch
 * condition) and run without branches: every lane computes every
 * candidate and selects, so a warp whose lanes sit at different opcodes
 * runs them in one pass (k = 1 where the switch ran 7).  The rare
 * opcodes keep their switch arms.  On NVIDIA, lanes that reach the
 * dispatch together and all run one arm take that arm (MICDB_ISA_VOTE).
 *
 * Throughput, kernel time only (H200, micdb bench --levels isa
 * --workloads divergent,uniform --cores 1048576 --no-ref with
 * MICDB_OCL_TIMING=1: steps x cores / kernel ms over the budget runs of
 * 2,048-8,192 steps, where every core runs), old and new kernels in the
 * same session: before 5.25e10 divergent (SIMD efficiency 0.134, 7.21
 * paths per warp-step), 1.38e11 uniform; now 7.7e10 divergent (0.962,
 * 1.00), 1.13e11 uniform.  The bench's own column (with the host's
 * per-run() cost): 33.3G -> 48.9G and 86.7G -> 78.0G.  By part
 * (divergent, uniform): the operand word (ow) alone on the switch
 * 5.78e10, 1.40e11; the select chain and ow on the switch 5.97e10,
 * 1.18e11; H_COMMON without the vote 7.77e10, 8.17e10 (a converged warp
 * pays every select: 28 bytes of spills at 64 registers, the switch 12).
 * What the uniform workload still loses is the select chain.  Then a
 * vote before the checks (a warp at one PC takes the branchy checks and
 * the switch arm), and the host's per-run() cost cut (engine-ocl.c);
 * the bench's columns, same session, one run each: PRED=1 divergent
 * 49.8G (SIMD efficiency 0.962), uniform 98.8G (kernel 175 ms a run);
 * PRED=0 45.7G (0.134), 113G (kernel 150 ms).  The vote did not win
 * uniform back (both check chains in one kernel: more registers at the
 * cap of 64).  Divergent +9%, uniform -13%: no gain overall, and the
 * switch keeps the ISA level's kernel divergence, which is what the
 * records show beside the micro levels' k = 1 (manycore.md section 3):
 * PRED stays off by default, for measuring.  Did not pay: H_COMMON
 * behind the branchy checks (4.23e10 divergent, worse than the switch:
 * the lanes split at the checks' divergent branches and run the rest of
 * the step apart, which is also what the switch pays for), the decode
 * table in a __local copy (7.7e10, 8.08e10, the same as __constant), a
 * cap of 128 registers instead of 64 (within the noise).  On POCL (CPU layout)
 * both measured slower (divergent at 4,096 cores, a loaded machine:
 * the switch 26-34M instructions/s, with the select chain 22-24M, with
 * H_COMMON too 20-23M): the CPU layout keeps the switch and the branchy
 * checks.
 * Earlier, measured without gain (no better than the noise, or worse):
 * the word under the top kept in a register (more spills: 40 bytes),
 * the push/pop stack accesses moved after the dispatch where a divergent
 * warp is together again, I/O area pointers recomputed in their
 * handlers, work-groups of 64 or 256, no register cap.
 * Then (2026-11-22) the predecoded text with main's one SP test (below):
 * the bench's column 46.7-48.7G -> 54.5-54.6G divergent, 106-111G ->
 * 133-136G uniform.  Where the rest goes, final code, one H200 session,
 * a million cores, the whole workload per run: kernel 177 of 242 ms
 * (divergent) and 116 of 163 ms (uniform), the host's conversions of
 * the cores that halt or wait at the final barrier most of the rest;
 * without the records (MICDB_OCL_DIVERGENCE=0) 74.8G and 171G.  A
 * minimal switch interpreter on the same workloads and GPU (no checks,
 * no records, no stop word) runs 1.7e11 and 5.9e11 kernel-only, 1.1e11
 * and 2.2e11 with these checks as steps 1-8 below, 1.2e11 and 2.4e11
 * with steps 1-4 predecoded; work-groups of 32 or 64 measured within
 * the noise of 128.  Later the same day, with the warp fold of the
 * records (launch.h): the word under the top loaded once at the start
 * of every step, for the handlers that read it or pop to it (one load
 * for a divergent warp's arms instead of one per arm), kernel time per
 * run 155 -> 149 ms divergent but 92 -> 97 ms uniform; loaded only where
 * the handler pops, 146 and 111: neither kept.
 *
 * Build-time defines (the host passes them): MICDB_WARP_W (W),
 * MICDB_WG_SIZE (work-group size, a multiple of W, or the core count when
 * that is smaller), MICDB_STACK_INTERLEAVED (0: word w of core c at
 * c * stack_words + w, 1: at w * ncores + c), MICDB_DIVERGENCE (0, 1,
 * or 2 for the one-step program with its fold kernel isa_fold1),
 * MICDB_DIV_CHUNK, MICDB_ISA_TEXT32 (see the text fetch below); the
 * kernel's own variants (MICDB_ISA_PRED and the others below) follow
 * them unless MICDB_OCL_OPTS sets them.
 *
 * Cost per step: no 64-bit arithmetic (steps are 32-bit and relative to
 * the launch; the divergence masks, up to 64 lanes, and the shift of
 * the text window are the exceptions), one decode word from a
 * __constant table, stack words at a base computed once per launch.
 */
#include "memmap.h"
#include "context.h"

#include "launch.h"

enum {
#define IJVM_OP(sym, code, k1, k2, pops, pushes, cls, desc) OP_##sym = code,
#include "ijvm-ops.def"
#undef IJVM_OP
};

/* Operand bytes per kind (ijvm.md section 2). */
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
 * MICDB_ISA_PRED: the frequent simple opcodes (H_COMMON below) run as one
 * branch-free handler group instead of one switch arm each, so that a
 * warp whose lanes sit at different opcodes runs them in one pass; with
 * it the checks before dispatch are one chain of selects
 * (MICDB_ISA_SELCHECK), without which a divergent warp splits before
 * the dispatch and the group does not pay.  MICDB_ISA_VOTE (inline PTX,
 * NVIDIA's compiler only): the lanes that reach the dispatch together
 * vote, and when they all run one arm they take it instead of H_COMMON,
 * so a converged warp pays no predication; it also sends a warp whose
 * lanes all sit at one PC through the branchy checks.  PRED is off
 * unless MICDB_OCL_OPTS=-DMICDB_ISA_PRED=1 (see the header for why),
 * VOTE follows PRED on NVIDIA (cl_nv_pragma_unroll is its compiler's
 * mark).  The tests run PRED=1 on POCL with the GPU layout
 * (tests/ocl-diff-lib.c, tests/test-ocl-diff.c), without VOTE, whose
 * arms are the plain switch's.
 */
#ifndef MICDB_ISA_TEXT32
#define MICDB_ISA_TEXT32 0
#endif

/*
 * MICDB_PREFETCH (D): with the CPU layout, before its first step core c
 * prefetches the stack top, frame and instruction entry of core c + D,
 * which the same thread runs a few work-items later.  A launch of few steps is
 * memory-bound there: a converged machine walks its stacks at one
 * stride, which the hardware prefetcher follows, but cores at different
 * depths defeat it, and on POCL one interactive step of 65,536 divergent
 * cores took 3.8-5.2 ms against 2.3-3.3 ms with D = 8 or 12 (this
 * machine, alternated runs; uniform and long launches unchanged).  The
 * GPU layout needs none: a warp's loads are one transaction.  The host
 * sets D for CPU devices with the CPU layout (engine-ocl.c).
 */
#ifndef MICDB_PREFETCH
#define MICDB_PREFETCH 0
#endif
#if MICDB_PREFETCH
/* clang's builtin takes a generic pointer; a CPU device has one flat
 * address space (NVIDIA's clang refuses a __global one: the host sets
 * MICDB_PREFETCH for CPU devices only) */
#define ISA_PREFETCH(p) __builtin_prefetch((const void *)(size_t)(p))
#endif
#ifndef MICDB_ISA_PRED
#define MICDB_ISA_PRED 0
#endif
#ifndef MICDB_ISA_SELCHECK
#define MICDB_ISA_SELCHECK MICDB_ISA_PRED
#endif
#ifndef MICDB_ISA_PREDEC
#define MICDB_ISA_PREDEC 1
#endif
#ifndef MICDB_ISA_VOTE
#if defined(cl_nv_pragma_unroll) && MICDB_ISA_PRED
#define MICDB_ISA_VOTE 1
#else
#define MICDB_ISA_VOTE 0
#endif
#endif

/*
 * The kernel's handlers: the arms of the dispatch switch below, and
 * H_COMMON, the predicated group.  k of the divergence records counts
 * these, so merged opcodes count once: that is what the kernel runs.
 * With MICDB_ISA_PRED the opcodes of H_COMMON are one handler; without
 * it the four ALU operations, IFEQ/IFLT and NOP/GC share an arm each.
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
 * What an H_COMMON opcode does, as fields of its decode word (pops and
 * pushes come from the .def: SP moves by pushes - pops, a pop-only
 * opcode's new top is the word below, IF_ICMPEQ's the one below that):
 *   A_  the one memory operand it loads (besides the word below the top)
 *   R_  the value it writes on the new top, when it pushes
 *   X_  the one other word it writes, and with what
 *   ALU_ the operation of R_ALU (the word below OP the top)
 *   C_  its branch condition (taken: PC + the signed 16-bit operand)
 */
enum { A_NONE, A_CP, A_LOCAL, A_GLOBAL, A_BELOW2 };
enum { R_NONE, R_IMM8, R_A, R_TOS, R_B, R_ALU };
enum { X_NONE, X_LOCAL_TOS, X_LOCAL_INC, X_BELOW_TOS, X_GLOBAL_TOS };
enum { ALU_ADD, ALU_SUB, ALU_AND, ALU_OR };
enum { C_NEVER, C_ALWAYS, C_EQ0, C_LT0, C_EQ };

/* A common opcode: its switch arm h and its fields (the switch still
 * runs it without MICDB_ISA_PRED, or with MICDB_ISA_VOTE in a warp
 * whose lanes all run h); a rare one: its arm. */
#define CM(h, a, r, x, alu, cond) \
	((uint)(h) << 9 | 1u << 14 | (uint)(a) << 15 | (uint)(r) << 18 | \
	 (uint)(x) << 21 | (uint)(alu) << 24 | (uint)(cond) << 26)
#define RARE(h) ((uint)(h) << 9)

/* Every opcode of the .def needs a DEC_ line (a new opcode without one
 * does not compile, which is the point). */
#define DEC_NOP       CM(H_NOP, A_NONE, R_NONE, X_NONE, 0, C_NEVER)
#define DEC_GC        CM(H_NOP, A_NONE, R_NONE, X_NONE, 0, C_NEVER)
#define DEC_BIPUSH    CM(H_BIPUSH, A_NONE, R_IMM8, X_NONE, 0, C_NEVER)
#define DEC_LDC_W     CM(H_LDC_W, A_CP, R_A, X_NONE, 0, C_NEVER)
#define DEC_ILOAD     CM(H_ILOAD, A_LOCAL, R_A, X_NONE, 0, C_NEVER)
#define DEC_ISTORE    CM(H_ISTORE, A_NONE, R_NONE, X_LOCAL_TOS, 0, C_NEVER)
#define DEC_IINC      CM(H_IINC, A_LOCAL, R_NONE, X_LOCAL_INC, 0, C_NEVER)
#define DEC_POP       CM(H_POP, A_NONE, R_NONE, X_NONE, 0, C_NEVER)
#define DEC_DUP       CM(H_DUP, A_NONE, R_TOS, X_NONE, 0, C_NEVER)
#define DEC_SWAP      CM(H_SWAP, A_NONE, R_B, X_BELOW_TOS, 0, C_NEVER)
#define DEC_IADD      CM(H_ALU, A_NONE, R_ALU, X_NONE, ALU_ADD, C_NEVER)
#define DEC_ISUB      CM(H_ALU, A_NONE, R_ALU, X_NONE, ALU_SUB, C_NEVER)
#define DEC_IAND      CM(H_ALU, A_NONE, R_ALU, X_NONE, ALU_AND, C_NEVER)
#define DEC_IOR       CM(H_ALU, A_NONE, R_ALU, X_NONE, ALU_OR, C_NEVER)
#define DEC_IFEQ      CM(H_IF1, A_NONE, R_NONE, X_NONE, 0, C_EQ0)
#define DEC_IFLT      CM(H_IF1, A_NONE, R_NONE, X_NONE, 0, C_LT0)
#define DEC_IF_ICMPEQ CM(H_IF_ICMPEQ, A_BELOW2, R_NONE, X_NONE, 0, C_EQ)
#define DEC_GOTO      CM(H_GOTO, A_NONE, R_NONE, X_NONE, 0, C_ALWAYS)
#define DEC_GETSTATIC CM(H_GETSTATIC, A_GLOBAL, R_A, X_NONE, 0, C_NEVER)
#define DEC_PUTSTATIC CM(H_PUTSTATIC, A_NONE, R_NONE, X_GLOBAL_TOS, 0, \
	C_NEVER)
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
 * handler, the H_COMMON fields.  Zero for an opcode the .def does not
 * have. */
#define OI_KNOWN(i)   ((i) & 1u)
#define OI_LEN(i)     (((i) >> 1) & 7u)
#define OI_POPS(i)    ((int)(((i) >> 4) & 3u))
#define OI_PUSHES(i)  ((int)(((i) >> 6) & 3u))
#define OI_LOCAL(i)   (((i) >> 8) & 1u)
#define OI_HANDLER(i) (((i) >> 9) & 31u)
#define OI_COMMON(i)  (((i) >> 14) & 1u)
#define OI_A(i)       (((i) >> 15) & 7u)
#define OI_R(i)       (((i) >> 18) & 7u)
#define OI_X(i)       (((i) >> 21) & 7u)
#define OI_ALU(i)     (((i) >> 24) & 3u)
#define OI_COND(i)    (((i) >> 26) & 7u)
#define OI(len, pops, pushes, names_local, dec) \
	(1u | (uint)(len) << 1 | (uint)(pops) << 4 | (uint)(pushes) << 6 | \
	 (uint)(names_local) << 8 | (dec))

__constant uint op_info[256] = {
#define IJVM_OP(sym, code, k1, k2, npops, npushes, klass, desc) \
	[code] = OI(1 + OPSZ_##k1 + OPSZ_##k2, npops, npushes, \
	    ISLOCAL_##klass, DEC_##sym),
#include "ijvm-ops.def"
#undef IJVM_OP
};

/*
 * Text fetch.  MICDB_ISA_TEXT32: the instruction's bytes come from two
 * aligned 32-bit loads (the host starts every program on a 4-byte
 * boundary and pads the buffer's end), a 5-byte window from the PC, the
 * longest instruction being WIDE IINC; otherwise one byte load each.
 * The host sets it with the GPU layout: on an H200 it cut the spills of
 * the 64-register build from 28 to 12 bytes (divergent 27.8e9 ->
 * 29.0e9, uniform 67.3e9 -> 68.7e9 instructions/s, within the noise of
 * one --quick run); on POCL the shifts cost more than the byte loads
 * they save (uniform at 65,536 cores about 8% slower).
 * TB(i) is the byte at pc + i, OB(k) operand byte k (after the opcode
 * and a WIDE prefix), with TEXT32 from ow, the 32-bit word of operand
 * bytes shifted out of the window once (one 64-bit shift, not one per
 * byte).  This is the fetch of MICDB_ISA_SELCHECK's select chain only:
 * the branchy checks take the instruction's entry (below), whose ow the
 * same OB reads.
 */
#if !MICDB_ISA_SELCHECK
#define ISA_TEXT32 0
#define OB(k) ((ow >> (8 * (k))) & 0xFFu)
#elif MICDB_ISA_TEXT32 && defined(__ENDIAN_LITTLE__)
#define ISA_TEXT32 1
#define TB(i) ((uint)(win >> (8 * (i))) & 0xFFu)
#define OB(k) ((ow >> (8 * (k))) & 0xFFu)
#else
#define ISA_TEXT32 0
#define TB(i) ((uint)tx[pcf + (i)])
#define OB(k) ((uint)tx[opnd + (k)])
#endif

/*
 * Predecoded text (MICDB_ISA_PREDEC, the default):
 * what steps 1-4 of an instruction find depends on the PC alone (the text
 * is read-only), so isa_predec works it out once per PC when the
 * programs are loaded, into the side buffer: program p's entries for PC
 * 0 .. tsize start at its text offset + p, entry tsize being "PC out of
 * range" (a step clamps its PC into 0 .. tsize, so any PC outside has
 * that entry).  An entry is four words:
 *   x  op_info[op] with the instruction's whole length (WIDE included)
 *      in its length field, bit 29 WIDE, bits 30-31 the fault of steps
 *      1-4 (PD_F_*), x's other bits meaningless when that is not 0;
 *   y  the three operand bytes after the opcode (and WIDE's prefix),
 *      first byte lowest, and the opcode in bits 24-31;
 *   z, w  in main, whose frame is known (main's locals, the stack
 *      size), steps 5-8 pass exactly for the SPs z .. z + w - 1 (w = 0:
 *      never, as for IRETURN or a local index past main's locals).
 * A step then makes one 16-byte load from the read-only cache where it
 * made two or four text loads, a 64-bit shift, a __constant load (which
 * a warp whose lanes sit at k opcodes makes k times) and five checks;
 * in main one test of its SP replaces the checks of 5-8, and only a
 * step that fails it (or a step in a method) walks them in ref.c's
 * order to find its fault.
 */
enum { PD_F_NONE, PD_F_PC, PD_F_WIDE, PD_F_OPCODE };
#define PD_WIDE(x)  (((x) >> 29) & 1u)
#define PD_FAULT(x) ((x) >> 30)
/* The local index of an instruction whose operand bytes are ow (an
 * entry's y, first byte lowest): one byte, two after WIDE. */
#define PD_LOCAL_IDX(ow, wide) ((wide) ? ((ow) & 0xFFu) << 8 | \
	((ow) >> 8 & 0xFFu) : (ow) & 0xFFu)

/* The entry of PC pc of a program of tsize bytes at tx, main_nl locals
 * in main, sw stack words. */
static uint4
isa_predecode(__global const uchar *tx, uint tsize, uint pc, int main_nl,
    int sw)
{
	uint op = 0, wide = 0, info = 0, f = PD_F_NONE, ow = 0, len;
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
		info = op_info[op];
		len = OI_LEN(info) + 2 * wide;
		if (!OI_KNOWN(info))
			f = PD_F_OPCODE;
		else if (pc + len > tsize)
			f = PD_F_PC;
		info = (info & ~(7u << 1)) | len << 1;
		for (uint k = 0; k < 3; k++) {
			const uint b = pc + 1 + wide + k;

			if (b < tsize)
				ow |= (uint)tx[b] << (8 * k);
		}
	}
	if (f == PD_F_NONE && op != OP_IRETURN) {
		/* main's frame is known: the SPs that pass 5-8 there */
		const int pops = OI_POPS(info), pushes = OI_PUSHES(info);
		const int end = MM_STACK_BASE + sw - 1;
		const uint idx = PD_LOCAL_IDX(ow, wide);

		lo = MM_STACK_BASE;
		if (pops > 0 || OI_LOCAL(info))
			lo = max(lo, MM_STACK_BASE + main_nl - 1 + pops);
		hi = min(end, end + pops - pushes);
		if (OI_LOCAL(info) && (main_nl <= 0 || idx >= (uint)main_nl))
			hi = lo - 1;
	}
	return (uint4)(info | wide << 29 | f << 30, ow | op << 24, (uint)lo,
	    hi >= lo ? (uint)(hi - lo) + 1 : 0u);
}

/* One work-item per entry of the side buffer (above); nprogs programs. */
__kernel void
isa_predec(__global const uchar *restrict text,
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
			    tsize, i - base, (int)pt[CTX_P_MAIN_NLOCALS],
			    (int)sw);
			return;
		}
	}
}

/* Stack word a of this core (a checked to lie in the region). */
#if MICDB_STACK_INTERLEAVED
#define S(a) stk[(uint)((a) - MM_STACK_BASE) * sstride]
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

/* Whether every lane that runs this with this one runs x (only with
 * MICDB_ISA_VOTE; otherwise "no", and H_COMMON runs). */
#if MICDB_ISA_PRED && MICDB_ISA_VOTE
static int
warp_same(uint x)
{
	uint m, d;

	asm volatile("activemask.b32 %0;" : "=r"(m));
	asm volatile("match.any.sync.b32 %0, %1, %2;" : "=r"(d) :
	    "r"(x), "r"(m));
	return d == m;
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
    __global const uint4 *restrict pre)
{
	LAUNCH_PROLOGUE;
	const int end = MM_STACK_BASE + (int)sw - 1;
	const int main_nl = (int)pt[CTX_P_MAIN_NLOCALS];
#if MICDB_ISA_PREDEC
	__global const uint4 *pd = pre + pt[CTX_P_TEXT_OFF] + prog;

	(void)pd;	/* MICDB_ISA_SELCHECK without the vote reads the text */
#else
	(void)pre;
#endif

	/* Registers, private for the launch. */
	int pc = (int)F(CTX_C_PC), sp = (int)F(CTX_C_SP);
	int lv = (int)F(CTX_C_LV), tos = (int)F(CTX_C_TOS);
	uint status = F(CTX_C_STATUS);
	uint fault = F(CTX_C_FAULT), fault_pc = F(CTX_C_FAULT_PC);
	uint fault_op = F(CTX_C_FAULT_OP);
	uint tos_dirty = 0;
#if ISA_TEXT32
	__global const uint *tw = (__global const uint *)tx;
#endif

	LAUNCH_ACTIVATE;
#if MICDB_PREFETCH
	/* Software prefetch (MICDB_PREFETCH above): the words core c + D
	 * will touch first.  prefetch() of OpenCL C is a no-op on POCL;
	 * clang's builtin is a real one. */
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
#if MICDB_ISA_PREDEC
		ISA_PREFETCH(pd + min(pc2, tsize));
#else
		if (pc2 < tsize)
			ISA_PREFETCH(tx + pc2);
#endif
		/* the second cache line of its block (AoS) */
		ISA_PREFETCH(core2 + CTX_CORE_FIELDS / 2 * fs);
	}
#endif
	/* The memory is authoritative (the host may have written the top
	 * word); an SP outside the region is a host edit the reference
	 * would not survive: fault it at its first step instead. */
	if (active && sp >= MM_STACK_BASE && sp <= end)
		tos = S(sp);

	LAUNCH_LOOP_BEGIN {
		uint hid = H_NONE;
		int pc0 = pc;

		LAUNCH_STEP_GATE;
		do {
			uint info, op, wide = 0, len, ow = 0, lidx;
#if MICDB_ISA_SELCHECK
			uint opnd, pcf;
#if ISA_TEXT32
			ulong win;
#endif
#endif
			int pops, pushes, flr = 0, nlocals = 0, lcl = 0;
			int next, nsp, v, a, link = 0;
			int flt = FAULT_NONE, io_stop = 0, conv = 0, fast = 0;

			hid = H_DECODE;
#if MICDB_ISA_SELCHECK
			/* A warp whose lanes all sit at one PC gains nothing
			 * from the select chain (it costs a converged warp
			 * ~16%): it takes the branchy checks and the switch
			 * arm.  conv is 0 without MICDB_ISA_VOTE. */
			conv = warp_same((uint)pc);
			if (!conv) {
			/* 1-8, the checks before dispatch, as one chain of
			 * selects in ref.c's order and one branch: a value
			 * that an earlier failed check makes meaningless
			 * (the opcode at a PC out of range, the link of a
			 * bad LV) is only computed from addresses clamped
			 * into the buffers, and its check never decides. */
			uint idx;
			int needf, inmain, lv_ok;

			pcf = (uint)pc < tsize ? (uint)pc : 0u;
#if ISA_TEXT32
			{
				const uint wi = pcf >> 2;
				const ulong w = (ulong)tw[wi + 1] << 32 |
				    tw[wi];

				win = w >> (8 * (pcf & 3));
			}
#endif
			op = TB(0);
			if (op == OP_WIDE) {
				/* the buffer's padding holds pc + 1 */
				op = TB(1);
				wide = 1;
			}
#if ISA_TEXT32
			ow = (uint)(win >> (8 * (1 + wide)));
#endif
			info = op_info[op];
			len = OI_LEN(info) + 2 * wide;
			opnd = pcf + 1 + wide;
			next = pc + (int)len;
			pops = OI_POPS(info);
			pushes = OI_PUSHES(info);
			needf = pops > 0 || OI_LOCAL(info);
			inmain = lv == MM_STACK_BASE;
			lv_ok = lv >= MM_STACK_BASE && lv <= end;
			if (needf && !inmain && lv_ok)
				link = S(lv);
			flr = inmain ? MM_STACK_BASE + main_nl - 1 : link + 1;
			nlocals = inmain ? main_nl : link - lv;
			idx = wide ? OB(0) << 8 | OB(1) : OB(0);
			lcl = lv + (int)idx;
			flt = (uint)pc >= tsize ? FAULT_PC_RANGE :
			    wide && (uint)pc + 1 >= tsize ? FAULT_PC_RANGE :
			    wide && op != OP_ILOAD && op != OP_ISTORE &&
			    op != OP_IINC ? FAULT_BAD_WIDE :
			    !OI_KNOWN(info) ? FAULT_BAD_OPCODE :
			    (uint)pc + len > tsize ? FAULT_PC_RANGE :
			    /* an SP outside: see above */
			    sp < MM_STACK_BASE || sp > end ?
			    FAULT_STACK_ACCESS :
			    op == OP_IRETURN && inmain ? FAULT_RETURN_MAIN :
			    needf && !inmain && (!lv_ok ||
			    link < MM_STACK_BASE || link > end - 1) ?
			    FAULT_STACK_ACCESS :
			    needf && sp - pops < flr ? FAULT_STACK_UNDERFLOW :
			    sp - pops + pushes > end ? FAULT_STACK_OVERFLOW :
			    OI_LOCAL(info) && (nlocals <= 0 ||
			    idx >= (uint)nlocals) ? FAULT_LOCAL_INDEX :
			    FAULT_NONE;
			if (flt != FAULT_NONE)
				goto done;
			}
#if MICDB_ISA_VOTE
			else
#endif
#endif
#if !MICDB_ISA_SELCHECK || MICDB_ISA_VOTE
			{
			/* 1-4 from the PC's entry: the predecoded one, or
			 * (MICDB_ISA_PREDEC=0, for measuring) the same
			 * worked out from the text now */
			{
#if MICDB_ISA_PREDEC
				const uint4 d = pd[min((uint)pc, tsize)];
#else
				const uint4 d = isa_predecode(tx, tsize,
				    (uint)pc, main_nl, (int)sw);
#endif

				info = d.x;
				ow = d.y & 0xFFFFFFu;
				op = d.y >> 24;
				wide = PD_WIDE(info);
				if (PD_FAULT(info) != PD_F_NONE) {
					flt = PD_FAULT(info) == PD_F_PC ?
					    FAULT_PC_RANGE :
					    PD_FAULT(info) == PD_F_WIDE ?
					    FAULT_BAD_WIDE : FAULT_BAD_OPCODE;
					goto done;
				}
				len = OI_LEN(info);
				next = pc + (int)len;
				fast = lv == MM_STACK_BASE &&
				    (uint)sp - d.z < d.w;
#if MICDB_ISA_SELCHECK
				/* the vote's way in: its arms read the
				 * operands as the select chain does */
				opnd = (uint)pc + 1 + wide;
#endif
			}
			pops = OI_POPS(info);
			pushes = OI_PUSHES(info);
			lidx = PD_LOCAL_IDX(ow, wide);
			if (fast) {
				/* in main, 5-8 passed: the entry's range */
				if (OI_LOCAL(info))
					lcl = lv + (int)lidx;
			} else {
			/* 5-7: frame and stack depth */
			if (sp < MM_STACK_BASE || sp > end) {
				flt = FAULT_STACK_ACCESS;  /* see above */
				goto done;
			}
			if (op == OP_IRETURN && lv == MM_STACK_BASE) {
				flt = FAULT_RETURN_MAIN;
				goto done;
			}
			if (pops > 0 || OI_LOCAL(info)) {
				if (lv == MM_STACK_BASE) {
					flr = MM_STACK_BASE + main_nl - 1;
					nlocals = main_nl;
				} else {
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
			if (OI_LOCAL(info)) {
				if (nlocals <= 0 || lidx >= (uint)nlocals) {
					flt = FAULT_LOCAL_INDEX;
					goto done;
				}
				lcl = lv + (int)lidx;
			}
			}
			}
#endif

#define U16(k) (OB(k) << 8 | OB((k) + 1))
#define S16(k) ((int)(short)U16(k))
			/* 8-9: the handlers.  nsp/tos are the new SP and
			 * top; nothing is committed before the end. */
			hid = OI_HANDLER(info);
			nsp = sp;
#if MICDB_ISA_PRED
			if (OI_COMMON(info) && !conv && !warp_same(hid)) {
				/* Every lane computes every field's value
				 * and selects; one load of a memory operand
				 * (pointer selected), one of the word below
				 * the top, at most two stores. */
				const uint ka = OI_A(info), kr = OI_R(info);
				const uint kx = OI_X(info), kc = OI_COND(info);
				const uint alu = OI_ALU(info);
				const uint u = U16(0);
				const int cpbad = ka == A_CP && u >= cpsize;
				const int stka = ka == A_LOCAL ||
				    ka == A_BELOW2;
				const int sa = ka == A_LOCAL ? lcl : sp - 2;
				__global const int *pa = stka ?
				    (__global const int *)&S(sa) :
				    ka == A_CP && !cpbad ? cp + u :
				    (__global const int *)globals + u;
				const int xl = kx == X_LOCAL_TOS ||
				    kx == X_LOCAL_INC;
				__global int *px = xl ? &S(lcl) :
				    kx == X_BELOW_TOS ? &S(sp - 1) : globals + u;
				int va = 0, vb = 0, r, vx, ntos;
				int taken;

				hid = H_COMMON;

				if (ka != A_NONE)
					va = *pa;
				/* a pop-only opcode's new top too */
				if (pops == 2 || (pops == 1 && pushes == 0))
					vb = S(sp - 1);
				v = alu == ALU_ADD ? (int)((uint)vb + (uint)tos) :
				    alu == ALU_SUB ? (int)((uint)vb - (uint)tos) :
				    alu == ALU_AND ? vb & tos : vb | tos;
				r = kr == R_IMM8 ? (int)(char)OB(0) :
				    kr == R_A ? va : kr == R_TOS ? tos :
				    kr == R_B ? vb : v;
				/* the constant stays 8 bits after WIDE */
				vx = kx == X_LOCAL_INC ? (int)((uint)va +
				    (uint)(int)(char)OB(1 + wide)) : tos;
				taken = kc == C_ALWAYS ||
				    (kc == C_EQ0 && tos == 0) ||
				    (kc == C_LT0 && tos < 0) ||
				    (kc == C_EQ && tos == vb);
				nsp = sp + pushes - pops;
				ntos = pushes > 0 ? r : pops == 0 ? tos :
				    pops == 2 ? va : vb;
				/* a local that is the new top word */
				if (xl && lcl == nsp)
					ntos = vx;
				if (cpbad) {
					flt = FAULT_CP_INDEX;
				} else {
					if (pushes > 0)
						S(nsp) = r;
					if (kx != X_NONE)
						*px = vx;
					tos = ntos;
					if (taken)
						next = pc + (int)(short)u;
				}
			} else
#endif
			switch (hid) {
#if !MICDB_ISA_PRED || MICDB_ISA_VOTE
			case H_NOP:
				break;
			case H_BIPUSH:
				PUSH((int)(char)OB(0));
				break;
			case H_LDC_W: {
				uint idx = U16(0);

				if (idx >= cpsize) {
					flt = FAULT_CP_INDEX;
					break;
				}
				PUSH(cp[idx]);
				break;
			}
			case H_ILOAD:
				PUSH(S(lcl));
				break;
			case H_ISTORE:
				S(lcl) = tos;
				POP1();
				break;
			case H_IINC:
				/* the constant stays 8 bits after WIDE */
				v = (int)((uint)S(lcl) +
				    (uint)(int)(char)OB(1 + wide));
				S(lcl) = v;
				if (lcl == nsp)
					tos = v;
				break;
			case H_POP:
				POP1();
				break;
			case H_DUP:
				PUSH(tos);
				break;
			case H_SWAP:
				v = S(nsp - 1);
				S(nsp - 1) = tos;
				S(nsp) = v;
				tos = v;
				break;
			case H_ALU: {
				int b = S(nsp - 1);

				a = tos;
				if (op == OP_IADD)
					v = (int)((uint)b + (uint)a);
				else if (op == OP_ISUB)
					v = (int)((uint)b - (uint)a);
				else if (op == OP_IAND)
					v = b & a;
				else
					v = b | a;
				S(--nsp) = v;
				tos = v;
				break;
			}
			case H_IF1:
				if (op == OP_IFEQ ? tos == 0 : tos < 0)
					next = pc + S16(0);
				POP1();
				break;
			case H_IF_ICMPEQ:
				if (tos == S(nsp - 1))
					next = pc + S16(0);
				nsp -= 2;
				tos = S(nsp);
				break;
			case H_GOTO:
				next = pc + S16(0);
				break;
			case H_GETSTATIC:
				PUSH(globals[U16(0)]);
				break;
			case H_PUTSTATIC:
				globals[U16(0)] = tos;
				POP1();
				break;
#endif
			case H_ATOMICADD:
				v = atomic_add((volatile __global int *)
				    &globals[U16(0)], tos);
				S(nsp) = v;
				tos = v;
				break;
			case H_INVOKE: {
				uint idx = U16(0), nargs, nloc;
				int addr, newlv, link, link_nl;

				if (idx >= cpsize) {
					flt = FAULT_CP_INDEX;
					break;
				}
				/* the header and one byte of code */
				addr = cp[idx];
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
				link = sp + (int)nloc + 1;
				if (link + 1 > end) {
					flt = FAULT_STACK_OVERFLOW;
					break;
				}
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
				int link = S(lv);	/* checked above */

				v = tos;
				next = S(link);
				a = S(link + 1);
				nsp = lv;
				S(nsp) = v;
				lv = a;
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
				break;
			case H_NCORES:
				PUSH((int)ncores);
				break;
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
#undef U16
#undef S16
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
			if (flt == FAULT_NONE) {
				pc = next;
				sp = nsp;
				tos_dirty = 1;
			}
done:
			/* steps run 1, 2, ... up to the one that stops the
			 * core: last_step is also how many it executed */
			last_step = s;
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

		LAUNCH_RECORD(pc0, hid);
	} LAUNCH_LOOP_END(H_COUNT);

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
#undef F
}

#if MICDB_DIVERGENCE == 2
LAUNCH_FOLD1_KERNEL(isa_fold1)
#endif
