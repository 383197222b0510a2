/*
 * The launch protocol every level's kernel shares (isa.cl, mic.cl,
 * pmic.cl), which the shared host engine (src/ocl/ocl-*.c) drives:
 * the prologue that reads the header and finds the core's block, stack,
 * I/O areas and program; the step gate on stop_at; breakpoints at the
 * micro levels' boundaries; the per-warp divergence records; the
 * epilogue that writes the launch's stops, counters and the news word
 * back.  Macros and small functions, so that a kernel's step stays its
 * own and keeps its registers private.
 *
 * A kernel is:
 *
 *	LAUNCH_PROLOGUE;            ...its registers from F(...)...
 *	LAUNCH_ACTIVATE;
 *	LAUNCH_LOOP_BEGIN {
 *		LAUNCH_STEP_GATE;   ...one step of the core...
 *		LAUNCH_RECORD(program_path, kernel_path);
 *	} LAUNCH_LOOP_END(number_of_kernel_paths);
 *	LAUNCH_WRITE_RECORDS;
 *	if (!valid) return;
 *	LAUNCH_NOTE;                ...its registers back with F(...)...
 *	LAUNCH_WRITE_STOPS;
 *
 * Build-time defines, passed by the host: MICDB_WARP_W, MICDB_WG_SIZE,
 * MICDB_STACK_INTERLEAVED, MICDB_DIVERGENCE (1: the step loop keeps the
 * records; 2: a one-step program, whose records a second kernel folds:
 * see LAUNCH_RECORD below), MICDB_DIV_WARPSYNC (the records' fold,
 * below), MICDB_TRACE (1: the step loop fills a trace's buffer as well,
 * launch-trace.h).  MICDB_DIV_CHUNK is the steps recorded per chunk.
 */
#ifndef MICDB_LAUNCH_H
#define MICDB_LAUNCH_H

#ifndef MICDB_WARP_W
#define MICDB_WARP_W 32
#endif
#ifndef MICDB_WG_SIZE
#define MICDB_WG_SIZE 64
#endif
#ifndef MICDB_STACK_INTERLEAVED
#define MICDB_STACK_INTERLEAVED 0
#endif
#ifndef MICDB_DIVERGENCE
#define MICDB_DIVERGENCE 1
#endif
#if MICDB_DIVERGENCE != 1 && MICDB_DIVERGENCE != 2
#error "MICDB_DIVERGENCE is 1 (the step loop) or 2 (the one-step program)"
#endif
/* Steps of this launch.  The one-step program runs only launches of
 * K = 1 (src/ocl), and a constant lets the compiler drop the step loop:
 * with K read from the header, POCL kept the loop's carried registers in
 * per-work-item arrays on the stack. */
#if MICDB_DIVERGENCE == 2
#define LAUNCH_K(ctx) 1u
#else
#define LAUNCH_K(ctx) ((ctx)[CTX_H_STEPS])
#endif
/* Steps per chunk of the records: 32, half the barriers of 16. */
#define MICDB_DIV_CHUNK CTX_DIV_CHUNK
/* What a kernel does when a chunk of steps starts, where every lane of
 * the work-group is, before the first step's gate (isa.cl's vote):
 * redefined by a kernel before its step loop. */
#define LAUNCH_CHUNK_HOOK (void)0
#if MICDB_WG_SIZE < MICDB_WARP_W
#define LANES MICDB_WG_SIZE
#else
#define LANES MICDB_WARP_W
#endif

enum {
#define FAULT(sym, code, msg) FAULT_##sym = code,
#include "faults.def"
#undef FAULT
	FAULT_COUNT_
};

/* enum core_status of machine.h */
#define ST_RUNNING 0
#define ST_HALTED  1
#define ST_ERROR   2
#define ST_WAITING 3
#define ST_JOINING 4

#define P_NONE 0xFF            /* lane did not run this step */

/* An all-ones mask when bit i of x is set. */
#define BITMASK(x, i) (0u - (((uint)(x) >> (i)) & 1u))

static void
launch_add64(__global uint *p, uint v)
{
	uint lo = p[0] + v;

	if (lo < p[0])
		p[1]++;
	p[0] = lo;
}

static uint
launch_lowest_bit(ulong x)
{
	return 63 - (uint)clz(x & (0 - x));
}

/*
 * Where word address a lives for this core: 0 nowhere, 1 a writable word,
 * 2 the constant pool (read-only).  *p gets the word (a safe word when 0),
 * selected without branches.
 */
static uint
mem_where(int a, __global int *stk, uint sstride, uint sw,
    __global int *globals, __global int *heap, uint heap_words,
    __global const int *cp, uint cpsize, __global int **p)
{
	const uint os = (uint)(a - MM_STACK_BASE);
	const uint og = (uint)(a - MM_GLOBALS_BASE);
	const uint oh = (uint)(a - MM_HEAP_BASE);
	const uint oc = (uint)(a - MM_CPP);
	const int in_s = a >= MM_STACK_BASE && os < sw;
	const int in_g = a >= MM_GLOBALS_BASE && og < MM_GLOBALS_WORDS;
	const int in_h = a >= MM_HEAP_BASE && oh < heap_words;
	const int in_c = a >= MM_CPP && oc < cpsize;

	*p = in_s ? stk + os * sstride : in_g ? globals + og :
	    in_h ? heap + oh : in_c ? (__global int *)(cp + oc) : globals;
	return in_c ? 2u : (in_s | in_g | in_h) ? 1u : 0u;
}

/*
 * mem_where without branches, for the micro levels' step, where lanes of
 * a warp sit on different micro-instructions and address different
 * regions (a local, a constant, a global): the stack, globals and heap,
 * disjoint and in address order, are told apart by three comparisons
 * and their base, start and size chosen by selects, the constant pool
 * checked beside them (it may reach past the stack's start: there the
 * pointer is the stack's and the kind says constant, as in mem_where;
 * tests/test-mem-where compares the two).  mem_where's chain of choices was
 * compiled into a branch per region on an H200, which a warp whose
 * lanes sit in several regions runs one after another.
 */
static uint
mem_where_sel(int a, __global int *stk, uint sstride, uint sw,
    __global int *globals, __global int *heap, uint heap_words,
    __global const int *cp, uint cpsize, __global int **p)
{
	const int ge_s = a >= MM_STACK_BASE;
	const int ge_g = a >= MM_GLOBALS_BASE;
	const int ge_h = a >= MM_HEAP_BASE;
	const int start = ge_h ? MM_HEAP_BASE : ge_g ? MM_GLOBALS_BASE :
	    MM_STACK_BASE;
	const uint lim = ge_h ? heap_words : ge_g ? MM_GLOBALS_WORDS : sw;
	const uint off = (uint)(a - start);
	const int r_ok = ge_s & (off < lim);
	const uint oc = (uint)(a - MM_CPP);
	const int in_c = (a >= MM_CPP) & (oc < cpsize);
	__global int *base = ge_h ? heap : ge_g ? globals : stk;
	const uint idx = ge_g ? off : off * sstride;

	*p = r_ok ? base + idx : in_c ? (__global int *)cp + oc : globals;
	return in_c ? 2u : r_ok ? 1u : 0u;	/* mem_where's precedence */
}

/*
 * A micro level's WRITE of v to device word a (a < 0): FAULT_NONE or the
 * fault; may change the status (halt, barrier).  As mic1.c and
 * pmic-sim.c do them.
 */
static int
device_write(int a, int v, uint *status, __global uchar *outa,
    uint *out_len, __global int *heap, uint heap_words,
    volatile __global uint *heap_top, int *new_ref, int *atom_addr,
    int *atom_old, __global int *stk, uint sstride, uint sw,
    __global int *globals, __global const int *cp, uint cpsize)
{
	switch (a) {
	case MM_DEV_HALT:
		*status = ST_HALTED;
		return FAULT_NONE;
	case MM_DEV_ERROR:
		/* the value names the fault */
		return v > FAULT_NONE && v < FAULT_COUNT_ ? v :
		    FAULT_ERR_DEVICE;
	case MM_DEV_CONSOLE:
		outa[(*out_len)++] = (uchar)v;
		return FAULT_NONE;
	case MM_DEV_BARRIER:
		*status = ST_WAITING;
		return FAULT_NONE;
	case MM_DEV_NEWARRAY: {
		uint need, old, prev;

		if (v < 0)
			return FAULT_ARRAY_SIZE;
		need = (uint)v + MM_ARRAY_HDR;
		old = *heap_top;
		for (;;) {
			if ((ulong)need > (ulong)(heap_words - old))
				return FAULT_HEAP_FULL;
			prev = atomic_cmpxchg(heap_top, old, old + need);
			if (prev == old)
				break;
			old = prev;
		}
		heap[old] = (int)MM_ARRAY_TAG;
		heap[old + 1] = v;
		for (uint i = 0; i < (uint)v; i++)
			heap[old + MM_ARRAY_HDR + i] = 0;
		*new_ref = MM_HEAP_BASE + (int)old;
		return FAULT_NONE;
	}
	case MM_DEV_ATOM_ADDR:
		*atom_addr = v;
		return FAULT_NONE;
	case MM_DEV_ATOM_ADD: {
		__global int *q;
		const int aa = *atom_addr;

		if (mem_where(aa, stk, sstride, sw, globals, heap, heap_words,
		    cp, cpsize, &q) != 1)
			return FAULT_MEM_RANGE;
		/* the core's own stack is private: no atomic needed */
		if (aa >= MM_STACK_BASE && (uint)(aa - MM_STACK_BASE) < sw) {
			*atom_old = *q;
			*q = (int)((uint)*q + (uint)v);
		} else {
			*atom_old = atomic_add((volatile __global int *)q, v);
		}
		return FAULT_NONE;
	}
	}
	return FAULT_MEM_RANGE;
}

/* A micro level's WRITE of v to a that is not a plain store (mem_where
 * said it is not a writable word): a device word, whose side effects
 * make *slow 1 (the level's slow kernel path), or a fault, a stack
 * overflow where a lies just above the core's stack.  FAULT_NONE or the
 * fault. */
static int
micro_write_other(int a, int v, int *slow, uint *status,
    __global uchar *outa, uint *out_len, __global int *heap,
    uint heap_words, volatile __global uint *heap_top, int *new_ref,
    int *atom_addr, int *atom_old, __global int *stk, uint sstride,
    uint sw, __global int *globals, __global const int *cp, uint cpsize)
{
	int flt = FAULT_MEM_RANGE;

	if (a < 0) {
		*slow = 1;
		flt = device_write(a, v, status, outa, out_len, heap,
		    heap_words, heap_top, new_ref, atom_addr, atom_old, stk,
		    sstride, sw, globals, cp, cpsize);
	}
	if (flt == FAULT_MEM_RANGE && (long)a >= (long)MM_STACK_BASE + sw &&
	    a < MM_GLOBALS_BASE)
		flt = FAULT_STACK_OVERFLOW;
	return flt;
}

/* A micro level's WRITE of v at a this cycle (wr: it has one), with
 * mem_where_sel's kind wh and word p: a plain store, predicated, or
 * micro_write_other, which may take the slow kernel path or fault.  Uses
 * the kernel's launch state (LAUNCH_PROLOGUE, the micro registers) and
 * its fault label. */
#define LAUNCH_MICRO_WRITE(a, v, p, wh, wr, slow_path) do { \
	const int plain_ = (wr) & ((a) >= 0) & ((wh) == 1); \
	if (plain_) \
		*(p) = (v); \
	if ((wr) & !plain_) { \
		int slow_ = 0; \
		flt = micro_write_other((a), (v), &slow_, &status, outa, \
		    &out_len, heap, heap_words, heap_top, &new_ref, \
		    &atom_addr, &atom_old, stk, sstride, sw, globals, cp, \
		    cpsize); \
		if (slow_) \
			path = (slow_path); \
		if (flt != FAULT_NONE) \
			goto fault; \
	} \
} while (0)

/* ---- prologue ----------------------------------------------------------- */

#if MICDB_STACK_INTERLEAVED
#define LAUNCH_STACK \
	const uint sstride = ncores; \
	__global int *stk = stacks + c
#else
/* A launch may run one chunk of the cores over its own stack buffer
 * (ocl-buffers.c ocl_enqueue_run): the chunk starts at the global
 * offset, 0 when the stacks are one buffer. */
#define LAUNCH_STACK \
	const uint sstride = 1; \
	__global int *stk = stacks + \
	    (size_t)(c - (uint)get_global_offset(0)) * sw
#endif

/* Header, the core's block (F(field)), stack, I/O areas, program, and
 * the launch's stop and I/O bookkeeping. */
#define LAUNCH_PROLOGUE \
	const uint gid = (uint)get_global_id(0); \
	const uint ncores = ctx[CTX_H_NCORES]; \
	const uint K = LAUNCH_K(ctx); \
	const uint flags = ctx[CTX_H_FLAGS]; \
	const uint nbps = (flags & CTX_F_STOPS) ? ctx[CTX_H_NBPS] : 0; \
	const int stop_on_fault = (flags & (CTX_F_STOPS | \
	    CTX_F_STOP_ON_FAULT)) == (CTX_F_STOPS | CTX_F_STOP_ON_FAULT); \
	const uint sw = ctx[CTX_H_STACK_WORDS]; \
	const uint heap_words = ctx[CTX_H_HEAP_WORDS]; \
	volatile __global uint *stop_at = ctx + CTX_H_STOP_AT; \
	const int watch_stop = !(flags & CTX_F_DRIFT); \
	volatile __global uint *heap_top = ctx + CTX_H_HEAP_TOP; \
	const uint valid = gid < ncores; \
	/* loads stay in bounds, in the launch's chunk */ \
	const uint c = valid ? gid : (uint)get_global_offset(0); \
	const uint cs = ctx[CTX_H_CORE_STRIDE]; \
	const uint fs = ctx[CTX_H_FIELD_STRIDE]; \
	__global uint *core = ctx + CTX_CORE_WORD(ctx[CTX_H_CORES_OFF], cs, \
	    0u, c, 0u); \
	LAUNCH_STACK; \
	const uint out_cap = ctx[CTX_H_OUT_CAP]; \
	__global uchar *outa = out_area + (size_t)c * out_cap; \
	__global const uchar *ina = in_area + (size_t)c * ctx[CTX_H_IN_CAP]; \
	const uint prog = core[CTX_C_PROG * fs]; \
	__global const uint *pt = progs + prog * CTX_PROG_WORDS; \
	__global const uchar *tx = text + pt[CTX_P_TEXT_OFF]; \
	const uint tsize = pt[CTX_P_TEXT_SIZE]; \
	__global const int *cp = cpool + pt[CTX_P_CP_OFF]; \
	const uint cpsize = pt[CTX_P_CP_SIZE]; \
	uint stop_step = CTX_NONE, stop_bp = 0, stop_kind = 0; \
	uint event_step = 0, last_step = 0; \
	uint stop_seen = K; \
	uint out_len = 0, in_pos = 0; \
	const uint in_len = core[CTX_C_IN_LEN * fs]; \
	const uint in_more = core[CTX_C_IN_MORE * fs]; \
	int active; \
	(void)heap_top; (void)sstride; (void)stk; (void)ina; (void)cp; \
	(void)cpsize; (void)nbps; (void)stop_on_fault; (void)stop_seen
#define F(f) core[(f) * fs]

/* A barrier or the fork-join's join completed: waiting or joining cores
 * run again; the mask. */
#define LAUNCH_ACTIVATE \
	if (valid && (((flags & CTX_F_RELEASE) && status == ST_WAITING) || \
	    ((flags & CTX_F_JOIN) && status == ST_JOINING))) \
		status = ST_RUNNING; \
	active = valid && status == ST_RUNNING && \
	    (!(flags & CTX_F_MASK) || mask[c] != 0)

/* ---- the step loop and the divergence records --------------------------
 * Every lane logs, per step of a chunk, its kernel path (P_NONE: it did
 * not run) in local memory, and keeps privately the last step it ran in
 * the launch with its program path (PC or MPC) and kernel path.  After a
 * chunk the lanes of each warp fold the log in parallel, lane i the
 * steps i, i + W, ...: k and the active lanes for every step, the
 * histogram in per-warp local counters (on NVIDIA the warp folds its
 * chunk together with warp instructions instead: launch_fold_warp,
 * MICDB_DIV_WARPSYNC).  The grouping by program path is
 * done once per launch, for the warp's last counted step only, as only
 * that one is shown (lane 0 folding a chunk alone, with the grouping
 * per chunk, made the records cost more than the kernel).
 *
 * stop_at is read once per chunk by the step loop (the chunk's step
 * bound, lim), at its one step by the one-step program, not every step:
 * it is a volatile load that goes to L2 on a GPU and sat on the critical
 * path of every step.  A core that reads it late runs a few steps past a
 * cut, which cores of other work-groups do anyway: the host replays. */
#define LAUNCH_POLL_STOP \
	if (active && watch_stop && ((s - 1) % MICDB_DIV_CHUNK) == 0) \
		stop_seen = *stop_at; \
	if (active && watch_stop && s > stop_seen) \
		active = 0

#if MICDB_DIVERGENCE == 1
/*
 * The fold by warp operations (MICDB_DIV_WARPSYNC, launch_fold_warp
 * below), where a warp of W = 32 lanes is one hardware warp: 1, NVIDIA's
 * (PTX vote, match, shuffle and warp barrier), the default there; 0, the
 * SWAR fold between work-group barriers.  The host chooses (1 on NVIDIA,
 * 0 elsewhere); a geometry or compiler that does not fit falls back to
 * 0.
 */
#ifndef MICDB_DIV_WARPSYNC
#define MICDB_DIV_WARPSYNC 0
#endif
#if MICDB_DIV_WARPSYNC == 1 && (MICDB_WARP_W != 32 || \
    MICDB_WG_SIZE % 32 != 0 || !defined(cl_nv_pragma_unroll))
#undef MICDB_DIV_WARPSYNC
#define MICDB_DIV_WARPSYNC 0
#endif

#if MICDB_DIV_WARPSYNC == 1
#define LAUNCH_SYNC() asm volatile("bar.warp.sync -1;" ::: "memory")
#define LAUNCH_WBALLOT(p) launch_warp_ballot(p)
#define LAUNCH_WMATCH(x) launch_warp_match(x)
#define LAUNCH_WLANE0(x) launch_warp_lane0(x)
static uint
launch_warp_ballot(int p)
{
	uint r;

	asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.s32 q, %1, 0;\n\t"
	    "vote.sync.ballot.b32 %0, q, -1;\n\t}" : "=r"(r) : "r"(p));
	return r;
}
static uint
launch_warp_lane0(uint x)
{
	uint r;

	asm volatile("shfl.sync.idx.b32 %0, %1, 0, 31, -1;" : "=r"(r) :
	    "r"(x));
	return r;
}
static uint
launch_warp_match(uint x)
{
	uint r;

	asm volatile("match.any.sync.b32 %0, %1, -1;" : "=r"(r) : "r"(x));
	return r;
}
#else
#define LAUNCH_SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#endif
/* Whether a lane can still run: the warp's (a warp fold) or the
 * work-group's (l_alive, set by the lanes before the chunk's barrier). */
#if MICDB_DIV_WARPSYNC
#define LAUNCH_ALIVE(q_) (LAUNCH_WBALLOT(active) != 0)
#else
#define LAUNCH_ALIVE(q_) l_alive[q_]
#endif
/* The log, bytes packed four to a word.  Step-major for the SWAR fold,
 * which reads a warp's step in LANES / 4 loads and compares four lanes
 * at a time; lane-major for the warp fold (MICDB_DIV_WARPSYNC), so that
 * a lane reads its whole chunk in a few loads and a warp that ran one
 * path all chunk long is seen at once (an odd stride in words keeps the
 * lanes' byte stores on distinct banks). */
#define LAUNCH_KP_WORDS ((MICDB_WG_SIZE + 3) / 4)
#if MICDB_DIV_WARPSYNC
#define LAUNCH_KP_CWORDS ((MICDB_DIV_CHUNK + 3) / 4)
#define LAUNCH_KP_STRIDE (LAUNCH_KP_CWORDS | 1)
#define LAUNCH_KP_ALL (MICDB_WG_SIZE * LAUNCH_KP_STRIDE)
#define LAUNCH_KP(l_, j_, i_) \
	(((__local uchar *)(l_))[4 * LAUNCH_KP_STRIDE * (i_) + (j_)])
#else
#define LAUNCH_KP_ALL (MICDB_DIV_CHUNK * LAUNCH_KP_WORDS)
#define LAUNCH_KP(l_, j_, i_) \
	(((__local uchar *)(l_))[4 * LAUNCH_KP_WORDS * (j_) + (i_)])
#endif
#if LANES % 4 == 0 && (MICDB_WARP_W % 4 == 0 || MICDB_WG_SIZE <= MICDB_WARP_W)
#define LAUNCH_FOLD_SWAR 1
#else
#define LAUNCH_FOLD_SWAR 0
#endif

#define LAUNCH_LOOP_BEGIN \
	__local uint l_kp4[LAUNCH_KP_ALL]; \
	__local uint l_hist[MICDB_WG_SIZE]; \
	__local uint l_ls[MICDB_WG_SIZE]; \
	__local int l_lpp[MICDB_WG_SIZE]; \
	__local uint l_sum[3][MICDB_WG_SIZE]; \
	__local int l_alive[2]; \
	const uint lid = (uint)get_local_id(0); \
	const uint lane = lid % MICDB_WARP_W; \
	const uint wbase = lid - lane; \
	const uint warp = gid / MICDB_WARP_W; \
	const int recording = warp < ctx[CTX_H_NWARPS] && \
	    (flags & CTX_F_DIVERGENCE); \
	uint my_s = 0, my_kp = P_NONE; \
	int my_pp = 0; \
	l_hist[lid] = 0; \
	l_ls[lid] = 0; \
	l_lpp[lid] = 0; \
	l_sum[0][lid] = 0; \
	l_sum[1][lid] = 0; \
	l_sum[2][lid] = 0; \
	if (lid == 0) \
		l_alive[0] = l_alive[1] = 0; \
	LAUNCH_TRACE_DECL \
	LAUNCH_SYNC(); \
	for (uint s0 = 0; s0 < K; s0 += MICDB_DIV_CHUNK) { \
	    const uint n = min(K - s0, (uint)MICDB_DIV_CHUNK); \
	    uint lim = n; \
	    if (active && watch_stop) { \
		stop_seen = *stop_at; \
		lim = stop_seen > s0 ? min(n, stop_seen - s0) : 0u; \
	    } \
	    LAUNCH_CHUNK_HOOK; \
	    LAUNCH_KP_PREFILL; \
	    for (uint j = 0; j < n; j++) { \
		const uint s = s0 + j + 1;

/* The steps of a chunk that a lane does not run are P_NONE in the log.
 * On a CPU the log starts every chunk so: a loop in the step gate that
 * filled the rest, inside the step loop, made POCL's ISA kernel slower.
 * On NVIDIA the fill in the gate stays: the lane-major log's stores at
 * each chunk's start cost more there. */
#if MICDB_DIV_WARPSYNC
#define LAUNCH_KP_PREFILL (void)0
#define LAUNCH_KP_FILL_REST \
	for (; j < n; j++) \
		LAUNCH_KP(l_kp4, j, lid) = P_NONE;
#else
#define LAUNCH_KP_PREFILL \
	for (uint j = 0; j < n; j++) \
		LAUNCH_KP(l_kp4, j, lid) = P_NONE
#define LAUNCH_KP_FILL_REST
#endif

/* Ends the core's steps for this launch once it is not active or the
 * stop word, read at the start of the chunk, is below this step (j >= lim:
 * one compare a step where LAUNCH_POLL_STOP made three). */
#define LAUNCH_STEP_GATE \
	if (j >= lim) \
		active = 0; \
	if (!active) { \
		LAUNCH_KP_FILL_REST \
		break; \
	}

/* LAUNCH_RECORD's two halves, for a kernel that knows where a step
 * ran (isa.cl: its commit and its fault paths) and saves the selects of
 * a test on every step: LAUNCH_LOG(kernel_path) for every step,
 * LAUNCH_RAN(program_path, kernel_path) for the steps that ran. */
#define LAUNCH_LOG(kp) (LAUNCH_KP(l_kp4, j, lid) = (uchar)(kp))
#define LAUNCH_RAN(pp, kp) do { \
	my_s = s; \
	my_kp = (kp); \
	my_pp = (int)(pp); \
} while (0)
#define LAUNCH_RECORD(pp, kp) do { \
	const uint kp_ = (kp); \
	LAUNCH_LOG(kp_); \
	if (kp_ != P_NONE) \
		LAUNCH_RAN(pp, kp_); \
} while (0)

/* Kernel paths are below 32 (k is counted in a 32-bit mask), so P_NONE
 * is the only byte of the log with bit 7 set. */
#define LAUNCH_LOOP_END(npaths) \
	    } \
	    { \
		const uint q = (s0 / MICDB_DIV_CHUNK) & 1; \
		int alive; \
		(void)(npaths); \
		if (!MICDB_DIV_WARPSYNC && active) \
			l_alive[q] = 1; \
		if (!MICDB_DIV_WARPSYNC && lid == 0) \
			l_alive[q ^ 1] = 0; \
		l_ls[lid] = my_s << 8 | (my_kp & 0xFFu); \
		l_lpp[lid] = my_pp; \
		LAUNCH_TRACE_FILL; \
		LAUNCH_SYNC(); \
		if (recording) \
			LAUNCH_FOLD(n); \
		LAUNCH_TRACE_FOLD; \
		alive = LAUNCH_ALIVE(q); \
		LAUNCH_SYNC(); \
		if (!alive) \
			break; \
	    } \
	}

/* A lane's share of the fold of a chunk of n steps: for its steps, the
 * active lanes, k (distinct kernel paths) and one histogram count per
 * path, in the warp's local counters. */
static void
launch_fold(__local uint *l_kp4, __local uint *l_hist,
    __local uint (*l_sum)[MICDB_WG_SIZE], uint lid, uint wbase, uint lane,
    uint n)
{
	uint w_steps = 0, w_active = 0, w_k = 0;

	for (uint r = lane; r < n; r += LANES) {
		uint nact = 0, k = 0;
#if LAUNCH_FOLD_SWAR
		/* A warp's step is LANES / 4 words of the log: the paths
		 * seen as a mask of bits (P_NONE, 0xFF, sets none), then
		 * per path the lanes on it, the zero bytes of x ^ path,
		 * word loops that a CPU runs as vector operations (a group
		 * loop that searched word by word for a lane not yet
		 * counted, once per path, was slower). */
		uint x[LANES / 4], seen = 0;

		for (uint w = 0; w < LANES / 4; w++) {
			x[w] = l_kp4[r * LAUNCH_KP_WORDS + wbase / 4 + w];
			nact += 4 - popcount(x[w] & 0x80808080u);
			for (uint j = 0; j < 32; j += 8) {
				const uint b = (x[w] >> j) & 0xFFu;

				seen |= b < 32u ? 1u << b : 0u;
			}
		}
		for (uint todo = seen; todo != 0; todo &= todo - 1) {
			const uint hh = (31 - clz(todo & (0 - todo))) *
			    0x01010101u;
			uint cnt = 0;

			for (uint w = 0; w < LANES / 4; w++) {
				const uint t = x[w] ^ hh;
				const uint z = ~(((t & 0x7F7F7F7Fu) +
				    0x7F7F7F7Fu) | t) & 0x80808080u;

				cnt += (z >> 7) * 0x01010101u >> 24;
			}
			atomic_inc(&l_hist[wbase + cnt - 1]);
			k++;
		}
#else
		for (uint i = 0; i < LANES; i++) {
			const uint h = LAUNCH_KP(l_kp4, r, wbase + i);
			uint cnt = 0, first = 1;

			if (h == P_NONE)
				continue;
			nact++;
			for (uint i2 = 0; i2 < i; i2++)
				if (LAUNCH_KP(l_kp4, r, wbase + i2) == h)
					first = 0;
			if (!first)
				continue;
			for (uint i2 = i; i2 < LANES; i2++)
				cnt += LAUNCH_KP(l_kp4, r, wbase + i2) == h;
			atomic_inc(&l_hist[wbase + cnt - 1]);
			k++;
		}
#endif
		if (nact > 0) {
			w_steps++;
			w_active += nact;
			w_k += k;
		}
	}
	l_sum[0][lid] += w_steps;
	l_sum[1][lid] += w_active;
	l_sum[2][lid] += w_k;
}


#if MICDB_DIV_WARPSYNC
/* The fold of a chunk by the warp's lanes together.  A warp whose lanes
 * ran one kernel path at every step of the chunk (or none: the steps
 * after the warp stopped) is seen from the lanes' logs at once: each
 * step in which they ran counts one path of all W lanes.  Otherwise a
 * step at a time: each lane takes its own entry, match.any gives the
 * lanes on its path and the lowest of them counts the group.  The SWAR
 * fold's cost on a GPU was its group loop, O(paths x W / 4) per step. */
static void
launch_fold_warp(__local uint *l_kp4, __local uint *l_hist,
    __local uint (*l_sum)[MICDB_WG_SIZE], uint lid, uint wbase, uint lane,
    uint n)
{
	__local const uint *mine = l_kp4 + LAUNCH_KP_STRIDE * lid;
	uint full = 0, w_steps = 0, w_active = 0, w_k = 0, same = 1, m = n;

	for (uint w = 0; w < LAUNCH_KP_CWORDS; w++) {
		const uint x = mine[w];
		const uint b = 4 * w;
		/* the bytes of steps below n: later ones are stale */
		const uint keep = b >= n ? 0u : n - b >= 4 ? 0xFFFFFFFFu :
		    (1u << (8 * (n - b))) - 1u;

		same &= ((x ^ LAUNCH_WLANE0(x)) & keep) == 0;
		full += popcount(~x & keep & 0x80808080u);
	}
	if (LAUNCH_WBALLOT(same) == 0xFFFFFFFFu)
		m = 0;
	/* No branch around the warp operations: every lane meets each
	 * one. */
	full = m == 0 ? full : 0;
	for (uint r = 0; r < m; r++) {
		const uint h = LAUNCH_KP(l_kp4, r, lid);
		const uint grp = LAUNCH_WMATCH(h);
		const uint act = LAUNCH_WBALLOT(h != P_NONE);
		const int lead = h != P_NONE && (grp & ((1u << lane) - 1u)) == 0;
		const uint kb = LAUNCH_WBALLOT(lead);
		const int one = grp == 0xFFFFFFFFu;	/* on one path, or none */

		if (lead && !one)
			atomic_inc(&l_hist[wbase + popcount(grp) - 1]);
		full += one && h != P_NONE;
		w_steps += !one;
		w_active += one ? 0 : popcount(act);
		w_k += one ? 0 : popcount(kb);
	}
	/* The totals are the warp's, the same in every lane, and every
	 * lane stores them: launch_records reads lane 0's (doc/performance.md
	 * section 3: lane 0 alone storing them came back as every lane's). */
	l_sum[0][lid] += w_steps + full;
	l_sum[1][lid] += w_active + 32 * full;
	l_sum[2][lid] += w_k + full;
	if (lane == 0 && full != 0)
		atomic_add(&l_hist[wbase + 31], full);
}
#define LAUNCH_FOLD(n_) launch_fold_warp(l_kp4, l_hist, l_sum, lid, wbase, \
	lane, n_)
#else
#define LAUNCH_FOLD(n_) launch_fold(l_kp4, l_hist, l_sum, lid, wbase, lane, \
	n_)
#endif

#endif

#if MICDB_DIVERGENCE
/* The lanes in act grouped by program path pp[lane]: the number of
 * groups, and the converged mask (the largest group, ties to the group
 * holding the lowest lane), doc/manycore.md section 3.  For program paths in
 * local memory (the step loop's records) and in private memory (the
 * one-step records' fold), from one body. */
#if LANES <= 32
#define LAUNCH_LMASK uint	/* a CPU's vector compares twice the lanes */
#else
#define LAUNCH_LMASK ulong
#endif
#define LAUNCH_CONVERGED(name, space) \
static ulong \
name(space const int *pp, ulong act, uint *paths) \
{ \
	LAUNCH_LMASK todo, grp, best = 0; \
	uint bestn = 0, n = 0; \
 \
	for (todo = (LAUNCH_LMASK)act; todo != 0; todo &= ~grp) { \
		const uint i = launch_lowest_bit(todo); \
		const int pi = pp[i]; \
		uint m; \
 \
		grp = 0; \
		for (uint j = 0; j < LANES; j++) \
			grp |= (LAUNCH_LMASK)(pp[j] == pi) << j; \
		grp &= todo; \
		m = popcount(grp); \
		if (m > bestn) { \
			bestn = m; \
			best = grp; \
		} \
		n++; \
	} \
	*paths = n; \
	return best; \
}
LAUNCH_CONVERGED(launch_converged, __local)
LAUNCH_CONVERGED(launch_converged_p, __private)

/* A launch's totals and last-step masks into the warp's record. */
static void
launch_write_warp(__global uint *wrec, uint steps, uint nact, uint ksum,
    ulong act, ulong conv, uint paths, uint k)
{
	launch_add64(wrec + CTX_W_STEPS_LO, steps);
	launch_add64(wrec + CTX_W_ACTIVE_LO, nact);
	launch_add64(wrec + CTX_W_K_LO, ksum);
	wrec[CTX_W_LAST_ACT_LO] = (uint)act;
	wrec[CTX_W_LAST_ACT_HI] = (uint)(act >> 32);
	wrec[CTX_W_LAST_CONV_LO] = (uint)conv;
	wrec[CTX_W_LAST_CONV_HI] = (uint)(conv >> 32);
	wrec[CTX_W_LAST_DIV_LO] = (uint)(act & ~conv);
	wrec[CTX_W_LAST_DIV_HI] = (uint)((act & ~conv) >> 32);
	wrec[CTX_W_LAST_PATHS] = paths;
	wrec[CTX_W_LAST_K] = k;
}

#endif

#if MICDB_DIVERGENCE == 1
/* Once per launch, per warp: lane i adds histogram bin i; lane 0 adds
 * the totals and groups the lanes that ran the warp's last counted step
 * by program path (the largest group wins, ties to the group holding
 * the lowest lane). */
static void
launch_records(__global uint *wrec, uint wbase, uint lane,
    __local uint *l_hist, __local uint *l_ls, __local int *l_lpp,
    __local uint (*l_sum)[MICDB_WG_SIZE])
{
	uint steps = 0, nact = 0, ksum = 0, last = 0, seen = 0, paths;
	ulong act = 0, best;

	if (l_hist[wbase + lane] != 0)
		launch_add64(wrec + CTX_W_HIST + 2 * lane,
		    l_hist[wbase + lane]);
	if (lane != 0)
		return;
	for (uint i = 0; i < LANES; i++) {
		/* the warp fold's totals are the warp's in every lane */
		if (!MICDB_DIV_WARPSYNC || i == 0) {
			steps += l_sum[0][wbase + i];
			nact += l_sum[1][wbase + i];
			ksum += l_sum[2][wbase + i];
		}
		last = max(last, l_ls[wbase + i] >> 8);
	}
	if (steps == 0)
		return;
	for (uint i = 0; i < LANES; i++)
		if (l_ls[wbase + i] >> 8 == last) {
			act |= (ulong)1 << i;
			seen |= 1u << (l_ls[wbase + i] & 0x1Fu);
		}
	best = launch_converged(l_lpp + wbase, act, &paths);
	launch_write_warp(wrec, steps, nact, ksum, act, best, paths,
	    popcount(seen));
}

/* After the step loop, whose last barrier (every chunk ends with one)
 * made the lanes' last steps, totals and histogram counts visible: one
 * barrier fewer per launch, which is what a one-step launch pays for on
 * a CPU.  Steps fit 24 bits (K_MAX is 2^22), so the last step and its
 * kernel path share a word. */
#define LAUNCH_WRITE_RECORDS \
	if (recording) \
		launch_records(ctx + ctx[CTX_H_WARPS_OFF] + warp * \
		    CTX_WARP_WORDS(MICDB_WARP_W), wbase, lane, l_hist, l_ls, \
		    l_lpp, l_sum)
#else
#define LAUNCH_LOOP_BEGIN \
	LAUNCH_STEP_REC_DECL \
	{ \
	    for (uint s = 1; s <= K; s++) { \
		LAUNCH_CHUNK_HOOK;	/* every step a chunk of its own */
#define LAUNCH_STEP_GATE \
	LAUNCH_POLL_STOP; \
	if (!active) \
		break;
#define LAUNCH_LOOP_END(npaths) \
	    } \
	}
#if MICDB_DIVERGENCE == 2
/*
 * One-step records (MICDB_DIVERGENCE=2, launches of K = 1 only): no
 * barrier and no local memory in the step kernel.  Each core leaves the
 * kernel path and program path of its step in its one-step record
 * (context.h CTX_H_STEPREC_OFF),
 * and a second kernel, launch_fold1 (one work-item per warp), folds them
 * into the warp's record as the step loop's fold and launch_records do
 * for one step.  On POCL a barrier splits the kernel into loops over the
 * work-items that keep every live variable in memory, and the step
 * loop's fold is lane 0's alone.
 */
#define LAUNCH_STEP_REC_DECL uint step_rec = CTX_NONE;
#define LAUNCH_LOG(kp) ((void)(kp))
#define LAUNCH_RAN(pp, kp) \
	(step_rec = ((kp) & 0x1Fu) << 24 | ((uint)(pp) & 0xFFFFFFu))
#define LAUNCH_RECORD(pp, kp) do { \
	const uint kp_ = (kp); \
	if (kp_ != P_NONE) \
		LAUNCH_RAN(pp, kp_); \
} while (0)
#define LAUNCH_WRITE_RECORDS \
	if (valid) \
		ctx[ctx[CTX_H_STEPREC_OFF] + c] = step_rec

/* The fold of one step for warp w; lanes whose record is CTX_NONE did
 * not run.  Program paths (PCs, MPCs) fit 24 bits, kernel paths 5. */
static void
launch_fold1(__global uint *ctx, uint w)
{
	const uint ncores = ctx[CTX_H_NCORES];
	const uint c0 = w * MICDB_WARP_W;
	__global const uint *rec = ctx + ctx[CTX_H_STEPREC_OFF] + c0;
	const uint n = min((uint)MICDB_WARP_W, ncores - c0);
	__global uint *wrec = ctx + ctx[CTX_H_WARPS_OFF] +
	    w * CTX_WARP_WORDS(MICDB_WARP_W);
	int pp[MICDB_WARP_W];
	uint kp[MICDB_WARP_W];  /* kernel path, 32: did not run */
	ulong act = 0, conv;
	uint nact = 0, k = 0, seen = 0, paths;

	for (uint i = 0; i < n; i++) {
		const uint r = rec[i];

		pp[i] = (int)(r & 0xFFFFFFu);
		kp[i] = r != CTX_NONE ? r >> 24 : 32u;
		if (r != CTX_NONE) {
			act |= (ulong)1 << i;
			nact++;
			seen |= 1u << (r >> 24);
		}
	}
	for (uint i = n; i < MICDB_WARP_W; i++) {
		pp[i] = -1;
		kp[i] = 32u;
	}
	if (nact == 0)
		return;
	/* one histogram count per kernel path: the lanes on it, counted by
	 * compares that vectorise (a counter per path in memory was a
	 * chain of dependent increments) */
	for (uint todo = seen; todo != 0; todo &= todo - 1) {
		const uint h = 31 - clz(todo & (0 - todo));
		uint cnt = 0;

		for (uint i = 0; i < MICDB_WARP_W; i++)
			cnt += kp[i] == h;
		launch_add64(wrec + CTX_W_HIST + 2 * (cnt - 1), 1);
		k++;
	}
	conv = launch_converged_p(pp, act, &paths);
	launch_write_warp(wrec, 1, nact, k, act, conv, paths, k);
}

/* The fold kernel of a level's one-step program. */
#define LAUNCH_FOLD1_KERNEL(name) \
__kernel void \
name(__global uint *ctx) \
{ \
	const uint w = (uint)get_global_id(0); \
	if (w < ctx[CTX_H_NWARPS] && \
	    (ctx[CTX_H_FLAGS] & CTX_F_DIVERGENCE)) \
		launch_fold1(ctx, w); \
}
#endif
#endif

/* ---- the end of a step, every level ------------------------------------
 * A core that stopped running leaves the step loop; a fault stops the
 * whole machine when the host asked for it.  Not wrapped in do/while:
 * the break must leave the step loop. */
#define LAUNCH_STOP_IF_DONE \
	if (status != ST_RUNNING) { \
		active = 0; \
		event_step = s; \
		if (status == ST_ERROR && stop_on_fault) { \
			stop_step = s; \
			stop_kind = CTX_STOP_FAULT; \
			atomic_min(stop_at, s); \
		} \
		break; \
	}

/* A micro level's fault: the core stops where it is (MPC stays at the
 * word) and the fault names the instruction it was inside. */
#define LAUNCH_MICRO_FAULT(slow_path) do { \
	path = (slow_path); \
	status = ST_ERROR; \
	fault = (uint)flt; \
	fault_pc = (uint)insn_pc; \
	fault_op = (uint)insn_pc < tsize ? tx[insn_pc] : 0u; \
} while (0)

/* ---- breakpoints at a micro level's boundary ---------------------------
 * (context-mic.h's table) on the MPC, or on the PC at an instruction
 * boundary; inside the step, after it ran.  Uses a loop of its own. */
#define LAUNCH_CHECK_BPS(mpc_, bnd_) \
	for (uint i_ = 0; i_ < nbps; i_++) { \
		__global const uint *e_ = bps + i_ * CTXM_BP_WORDS; \
		uint set_; \
		if (e_[CTXM_BP_ON] == CTXM_ON_MPC ? e_[CTXM_BP_ADDR] != \
		    (mpc_) : (!(bnd_) || (int)e_[CTXM_BP_ADDR] != pc)) \
			continue; \
		set_ = e_[CTXM_BP_SET]; \
		if (set_ != CTX_NONE && \
		    !((bps[set_ + (c >> 5)] >> (c & 31)) & 1)) \
			continue; \
		active = 0; \
		stop_step = s; \
		stop_bp = e_[CTXM_BP_ID]; \
		stop_kind = CTX_STOP_BP; \
		atomic_min(stop_at, s); \
		break; \
	}

/* ---- epilogue ----------------------------------------------------------- */

/* News for the host (context.h CTX_H_NOTE): without it the host reads
 * back only the header.  The block marks (context.h) say which cores
 * changed and which had news, so that the host converts and checks only
 * those: a core whose block did not change executed no step. */
#define LAUNCH_NOTE \
	if (last_step != 0) \
		ctx[ctx[CTX_H_BLOCKS_OFF] + (c >> CTX_BLOCK_SHIFT)] = \
		    ctx[CTX_H_LAUNCH_ID]; \
	if (stop_step != CTX_NONE || event_step != 0 || out_len != 0 || \
	    in_pos != 0) { \
		ctx[ctx[CTX_H_BLOCKS_OFF] + ctx[CTX_H_NBLOCKS] + \
		    (c >> CTX_BLOCK_SHIFT)] = ctx[CTX_H_LAUNCH_ID]; \
		atomic_or(ctx + CTX_H_NOTE, 1u); \
	}

/* A 64-bit counter of the core block, lo/hi, plus v. */
#define LAUNCH_COUNT(lo_, hi_, v_) do { \
	if ((v_) > 0) { \
		uint l_ = F(lo_) + (v_); \
		if (l_ < (v_)) \
			F(hi_) = F(hi_) + 1; \
		F(lo_) = l_; \
	} \
} while (0)

/* The registers of struct core a micro-level kernel keeps private (all
 * of them but the counters). */
#define LAUNCH_WRITE_MICRO_REGS \
	F(CTX_C_PC) = (uint)pc; \
	F(CTX_C_SP) = (uint)sp; \
	F(CTX_C_LV) = (uint)lv; \
	F(CTX_C_CPP) = (uint)cpp; \
	F(CTX_C_TOS) = (uint)tos; \
	F(CTX_C_OPC) = (uint)opc; \
	F(CTX_C_H) = (uint)h; \
	F(CTX_C_MAR) = (uint)mar; \
	F(CTX_C_MDR) = (uint)mdr; \
	F(CTX_C_MBR) = mbr; \
	F(CTX_C_MPC) = mpc; \
	F(CTX_C_N) = nf; \
	F(CTX_C_Z) = zf; \
	F(CTX_C_STATUS) = status; \
	F(CTX_C_FAULT) = fault; \
	F(CTX_C_FAULT_PC) = fault_pc; \
	F(CTX_C_FAULT_OP) = fault_op

/* The registers a micro-level kernel reads at the start of a launch. */
#define LAUNCH_READ_MICRO_REGS \
	int pc = (int)F(CTX_C_PC), sp = (int)F(CTX_C_SP); \
	int lv = (int)F(CTX_C_LV), cpp = (int)F(CTX_C_CPP); \
	int tos = (int)F(CTX_C_TOS), opc = (int)F(CTX_C_OPC); \
	int h = (int)F(CTX_C_H), mar = (int)F(CTX_C_MAR); \
	int mdr = (int)F(CTX_C_MDR); \
	uint mbr = F(CTX_C_MBR), mpc = F(CTX_C_MPC); \
	uint nf = F(CTX_C_N), zf = F(CTX_C_Z); \
	uint status = F(CTX_C_STATUS); \
	uint fault = F(CTX_C_FAULT), fault_pc = F(CTX_C_FAULT_PC); \
	uint fault_op = F(CTX_C_FAULT_OP)

#define LAUNCH_WRITE_STOPS \
	F(CTX_C_STOP_STEP) = stop_step; \
	F(CTX_C_STOP_BP) = stop_bp; \
	F(CTX_C_STOP_KIND) = stop_kind; \
	F(CTX_C_EVENT_STEP) = event_step; \
	F(CTX_C_LAST_STEP) = last_step; \
	F(CTX_C_OUT_LEN) = out_len; \
	F(CTX_C_IN_POS) = in_pos

/* ---- the stacks' words in use ------------------------------------------
 * For a history snapshot read from the device (ocl-ops.c): one more than
 * the highest non-zero stack word of any core, by atomic_max into *used,
 * which the host zeroes.  A work-item scans its core from the top down
 * and stops at its first non-zero word or where another core already
 * reached; on the interleaved layout a warp reads a row at once. */
__kernel void
launch_stack_used(__global const int *stacks, const uint ncores,
    const uint sw, volatile __global uint *used)
{
	const uint c = (uint)get_global_id(0);

	if (c >= ncores)
		return;
	for (uint w = sw; w > 0 && w > *used; w--)
		if (stacks[CTX_STACK_INDEX(MICDB_STACK_INTERLEAVED, (size_t)c,
		    (size_t)(w - 1), (size_t)ncores, (size_t)sw)] != 0) {
			atomic_max(used, w);
			return;
		}
}


/* ---- traces (MICDB_TRACE): launch-trace.h ---------------------------- */
#include "launch-trace.h"

#endif
