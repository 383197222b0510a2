/*
 * The launch protocol every level's kernel shares (isa.cl, mic.cl,
 * pmic.cl), which the shared host engine (src/ocl/engine-ocl.c) drives:
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
 * Build-time defines: MICDB_WARP_W, MICDB_WG_SIZE, MICDB_STACK_INTERLEAVED,
 * MICDB_DIVERGENCE, MICDB_DIV_CHUNK (steps recorded per chunk).
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
#ifndef MICDB_DIV_CHUNK
#define MICDB_DIV_CHUNK 16
#endif
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

#define P_NONE 0xFF            /* lane did not run this step */

/* An all-ones mask when bit i of x is set. */
#define BITMASK(x, i) (0u - (((uint)(x) >> (i)) & 1u))

static void
launch_hist_add(__global uint *rec, uint n)
{
	__global uint *h = rec + CTX_W_HIST + 2 * (n - 1);

	if (++h[0] == 0)
		h[1]++;
}

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

/* ---- prologue ----------------------------------------------------------- */

#if MICDB_STACK_INTERLEAVED
#define LAUNCH_STACK \
	const uint sstride = ncores; \
	__global int *stk = stacks + c
#else
#define LAUNCH_STACK \
	const uint sstride = 1; \
	__global int *stk = stacks + (size_t)c * sw
#endif

/* Header, the core's block (F(field)), stack, I/O areas, program, and
 * the launch's stop and I/O bookkeeping. */
#define LAUNCH_PROLOGUE \
	const uint gid = (uint)get_global_id(0); \
	const uint ncores = ctx[CTX_H_NCORES]; \
	const uint K = ctx[CTX_H_STEPS]; \
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
	const uint c = valid ? gid : 0;	/* loads stay in bounds */ \
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
	uint out_len = 0, in_pos = 0; \
	const uint in_len = core[CTX_C_IN_LEN * fs]; \
	const uint in_more = core[CTX_C_IN_MORE * fs]; \
	int active; \
	(void)heap_top; (void)sstride; (void)stk; (void)ina; (void)cp; \
	(void)cpsize; (void)nbps; (void)stop_on_fault
#define F(f) core[(f) * fs]

/* A barrier completed: waiting cores run again; the mask. */
#define LAUNCH_ACTIVATE \
	if (valid && (flags & CTX_F_RELEASE) && status == ST_WAITING) \
		status = ST_RUNNING; \
	active = valid && status == ST_RUNNING && \
	    (!(flags & CTX_F_MASK) || mask[c] != 0)

/* ---- the step loop and the divergence records --------------------------
 * Every lane records, per step of a chunk, its program path (PC or MPC)
 * and its kernel path (P_NONE: it did not run); lane 0 of every warp
 * folds them into the warp's record after the chunk. */
#if MICDB_DIVERGENCE
#define LAUNCH_LOOP_BEGIN \
	__local int l_pp[MICDB_DIV_CHUNK][MICDB_WG_SIZE]; \
	__local uchar l_kp[MICDB_DIV_CHUNK][MICDB_WG_SIZE]; \
	__local int l_alive[2]; \
	const uint lid = (uint)get_local_id(0); \
	const uint lane = lid % MICDB_WARP_W; \
	const uint warp = gid / MICDB_WARP_W; \
	const int recorder = lane == 0 && warp < ctx[CTX_H_NWARPS] && \
	    (flags & CTX_F_DIVERGENCE); \
	__global uint *wrec = ctx + ctx[CTX_H_WARPS_OFF] + \
	    (recorder ? warp : 0) * CTX_WARP_WORDS(MICDB_WARP_W); \
	uint w_steps = 0, w_active = 0, w_k = 0; \
	ulong last_act = 0, last_conv = 0; \
	uint last_paths = 0, last_k = 0; \
	if (lid == 0) \
		l_alive[0] = l_alive[1] = 0; \
	barrier(CLK_LOCAL_MEM_FENCE); \
	for (uint s0 = 0; s0 < K; s0 += MICDB_DIV_CHUNK) { \
	    const uint n = min(K - s0, (uint)MICDB_DIV_CHUNK); \
	    for (uint j = 0; j < n; j++) { \
		const uint s = s0 + j + 1;

/* Ends the core's steps for this launch once it is not active (or the
 * stop word is below this step). */
#define LAUNCH_STEP_GATE \
	if (active && watch_stop && s > *stop_at) \
		active = 0; \
	if (!active) { \
		for (; j < n; j++) \
			l_kp[j][lid] = P_NONE; \
		break; \
	}

#define LAUNCH_RECORD(pp, kp) do { \
	l_pp[j][lid] = (int)(pp); \
	l_kp[j][lid] = (uchar)(kp); \
} while (0)

#define LAUNCH_LOOP_END(npaths) \
	    } \
	    { \
		const uint q = (s0 / MICDB_DIV_CHUNK) & 1; \
		int alive; \
		if (active) \
			l_alive[q] = 1; \
		if (lid == 0) \
			l_alive[q ^ 1] = 0; \
		barrier(CLK_LOCAL_MEM_FENCE); \
		if (recorder) \
			launch_fold(l_pp, l_kp, lid, n, npaths, &w_steps, \
			    &w_active, &w_k, &last_act, &last_conv, \
			    &last_paths, &last_k, wrec); \
		alive = l_alive[q]; \
		barrier(CLK_LOCAL_MEM_FENCE); \
		if (!alive) \
			break; \
	    } \
	}

/* Lane 0's fold of a chunk of n steps: k and the histogram over every
 * step, the program paths of the last counted one (lanes grouped by
 * path, the largest group wins, ties to the group of the lowest lane). */
static void
launch_fold(__local int (*l_pp)[MICDB_WG_SIZE],
    __local uchar (*l_kp)[MICDB_WG_SIZE], uint lid, uint n, uint npaths,
    uint *w_steps, uint *w_active, uint *w_k, ulong *last_act,
    ulong *last_conv, uint *last_paths, uint *last_k, __global uint *wrec)
{
	uint lastr = CTX_NONE;

	for (uint r = 0; r < n; r++) {
		uint seen = 0, nact = 0, k = 0;
		uint cnt[32];
		ulong act = 0;

		for (uint i = 0; i < LANES; i++) {
			uint h = l_kp[r][lid + i];

			if (h == P_NONE || h >= npaths)
				continue;
			if (!((seen >> h) & 1)) {
				seen |= 1u << h;
				cnt[h] = 0;
			}
			cnt[h]++;
			act |= (ulong)1 << i;
			nact++;
		}
		if (nact == 0)
			continue;
		for (; seen != 0; seen &= seen - 1) {
			uint h = 31 - clz(seen & (0 - seen));

			launch_hist_add(wrec, cnt[h]);
			k++;
		}
		(*w_steps)++;
		*w_active += nact;
		*w_k += k;
		*last_act = act;
		*last_k = k;
		lastr = r;
	}
	if (lastr != CTX_NONE) {
		ulong todo, grp, best = 0;
		uint bestn = 0, paths = 0;

		for (todo = *last_act; todo != 0; todo &= ~grp) {
			uint i = launch_lowest_bit(todo), m;
			int pi = l_pp[lastr][lid + i];

			grp = 0;
			for (uint j = i; j < LANES; j++)
				if (((todo >> j) & 1) &&
				    l_pp[lastr][lid + j] == pi)
					grp |= (ulong)1 << j;
			m = popcount(grp);
			if (m > bestn) {
				bestn = m;
				best = grp;
			}
			paths++;
		}
		*last_conv = best;
		*last_paths = paths;
	}
}

#define LAUNCH_WRITE_RECORDS \
	if (recorder && w_steps > 0) { \
		launch_add64(wrec + CTX_W_STEPS_LO, w_steps); \
		launch_add64(wrec + CTX_W_ACTIVE_LO, w_active); \
		launch_add64(wrec + CTX_W_K_LO, w_k); \
		wrec[CTX_W_LAST_ACT_LO] = (uint)last_act; \
		wrec[CTX_W_LAST_ACT_HI] = (uint)(last_act >> 32); \
		wrec[CTX_W_LAST_CONV_LO] = (uint)last_conv; \
		wrec[CTX_W_LAST_CONV_HI] = (uint)(last_conv >> 32); \
		wrec[CTX_W_LAST_DIV_LO] = (uint)(last_act & ~last_conv); \
		wrec[CTX_W_LAST_DIV_HI] = \
		    (uint)((last_act & ~last_conv) >> 32); \
		wrec[CTX_W_LAST_PATHS] = last_paths; \
		wrec[CTX_W_LAST_K] = last_k; \
	}
#else
#define LAUNCH_LOOP_BEGIN \
	{ \
	    for (uint s = 1; s <= K; s++) {
#define LAUNCH_STEP_GATE \
	if (active && watch_stop && s > *stop_at) \
		active = 0; \
	if (!active) \
		break;
#define LAUNCH_RECORD(pp, kp) do { (void)(pp); (void)(kp); } while (0)
#define LAUNCH_LOOP_END(npaths) \
	    } \
	}
#define LAUNCH_WRITE_RECORDS
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
 * back only the header. */
#define LAUNCH_NOTE \
	if (stop_step != CTX_NONE || event_step != 0 || out_len != 0 || \
	    in_pos != 0) \
		atomic_or(ctx + CTX_H_NOTE, 1u)

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

#endif
