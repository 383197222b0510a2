/*
 * The traced build of the step loop (launch.h, doc/performance.md
 * section 25.1): what the kernels add to fill the trace buffer
 * (src/core/tracebuf.h) when the host builds them with MICDB_TRACE=1.
 * Included by launch.h after its step loop's macros, whose names
 * (the chunk's s0, n, j and s, the lane's lid, lane, wbase and warp, the
 * log l_kp4) these use; a kernel that traces puts LAUNCH_TRACE_ARGS after
 * its arguments, defines before the loop LAUNCH_TRACE_PATH (its program
 * path), LAUNCH_TRACE_CW (its traced core's words, tracebuf.h
 * TB_CORE_WORDS), LAUNCH_TRACE_INSNS (the instructions it ran in the
 * launch so far) and LAUNCH_TRACE_LEVEL(r) (what its level adds to a
 * traced core's words at r: LAUNCH_TRACE_MICRO at a micro level, and its
 * own), and puts LAUNCH_TRACE_STEP after each step it runs and
 * LAUNCH_TRACE_END after the loop.
 */
#ifndef MICDB_LAUNCH_TRACE_H
#define MICDB_LAUNCH_TRACE_H

/*
 * A build for `micdb run --trace` through this engine (doc/performance.md
 * section 25.1): the step loop also fills the trace buffer (tracebuf.h)
 * with every step's counters of every warp and the registers of the
 * traced cores, so that the host reads back that buffer, not the
 * context, and keeps launches of many steps.  A build define and extra
 * arguments: a run without a trace runs the build without them.
 *
 * Each lane logs, per step of a chunk, its program path (PC or MPC: the
 * kernel's LAUNCH_TRACE_PATH) and status after the step in local memory;
 * the steps it did not run hold its state then (LAUNCH_TRACE_FILL).
 * After the chunk's barrier lane i folds the steps i, i + W, ... of its
 * warp (W: its lanes in the work-group, LANES, fewer in a machine of
 * less than a warp): statuses, kernel paths, and the program paths by
 * groups of lanes (also among the running and waiting or joining lanes,
 * the paths after a release that the host makes at a launch's end).  A
 * first version had each lane look back for an earlier lane on its
 * path, every step, which cost a third more (doc/performance.md section
 * 25.1).  A traced core writes its registers when it runs a step; the
 * steps after it stopped, and the steps after its work-group stopped,
 * are filled once after the loop (LAUNCH_TRACE_END).  At every level: a
 * micro level's traced core has more words (section 25.2). */
#ifndef MICDB_TRACE
#define MICDB_TRACE 0
#endif
#if MICDB_TRACE
#if MICDB_DIVERGENCE != 1
#error "MICDB_TRACE needs the step loop"
#endif
#include "tracebuf.h"

#define LAUNCH_TRACE_ARGS , __global uint *tbuf, \
	__global const uint *restrict tslot, const uint tcores
#define LAUNCH_TRACE_LOG(j_) ((j_) * MICDB_WG_SIZE + lid)
#define LAUNCH_TRACE_DECL \
	__local int l_tpc[MICDB_DIV_CHUNK * MICDB_WG_SIZE]; \
	__local uchar l_tst[MICDB_DIV_CHUNK * MICDB_WG_SIZE]; \
	__local uint l_tlast[TB_WARP_WORDS * (MICDB_WG_SIZE / LANES)]; \
	const uint t_nw = ctx[CTX_H_NWARPS]; \
	const uint t_sw = TB_STEP_WORDS(t_nw, tcores, LAUNCH_TRACE_CW); \
	const uint t_slot = valid ? tslot[c] : TB_NO_SLOT; \
	const ulong t_steps0 = (ulong)F(CTX_C_STEPS_HI) << 32 | \
	    F(CTX_C_STEPS_LO); \
	const ulong t_cycles0 = (ulong)F(CTX_C_CYCLES_HI) << 32 | \
	    F(CTX_C_CYCLES_LO); \
	uint t_j = 0, t_done = 0, t_folded = 0; \
	(void)t_cycles0;

/* The traced core's registers after step s_ (its kernel's names). */
#define LAUNCH_TRACE_CORE(s_) do { \
	__global uint *r_ = tbuf + TB_STEP_OFF(s_, t_sw) + \
	    TB_WARP_WORDS * t_nw + t_slot * LAUNCH_TRACE_CW; \
	const ulong n_ = t_steps0 + (LAUNCH_TRACE_INSNS); \
	r_[TB_C_PC] = (uint)pc; \
	r_[TB_C_SP] = (uint)sp; \
	r_[TB_C_LV] = (uint)lv; \
	r_[TB_C_TOS] = (uint)tos; \
	r_[TB_C_STATUS] = status; \
	r_[TB_C_FAULT] = fault; \
	r_[TB_C_STEPS_LO] = (uint)n_; \
	r_[TB_C_STEPS_HI] = (uint)(n_ >> 32); \
	LAUNCH_TRACE_LEVEL(r_); \
} while (0)

/* A micro level's words of struct core (LAUNCH_READ_MICRO_REGS' names;
 * cycles: the kernel's count in the launch) and the instruction
 * boundary's and PC's words that mic.cl and pmic.cl both have. */
#define LAUNCH_TRACE_MICRO(r_) do { \
	const ulong y_ = t_cycles0 + cycles; \
	(r_)[TB_C_MAR] = (uint)mar; \
	(r_)[TB_C_MDR] = (uint)mdr; \
	(r_)[TB_C_MBR] = mbr; \
	(r_)[TB_C_CPP] = (uint)cpp; \
	(r_)[TB_C_OPC] = (uint)opc; \
	(r_)[TB_C_H] = (uint)h; \
	(r_)[TB_C_MPC] = mpc; \
	(r_)[TB_C_NZ] = nf | zf << 1; \
	(r_)[TB_C_CYCLES_LO] = (uint)y_; \
	(r_)[TB_C_CYCLES_HI] = (uint)(y_ >> 32); \
	(r_)[TB_C_INSN_PC] = (uint)insn_pc; \
	(r_)[TB_C_MBR_ADDR] = (uint)mbr_addr; \
} while (0)

/* After a step the lane ran (j, s: the loop's). */
#define LAUNCH_TRACE_STEP do { \
	l_tpc[LAUNCH_TRACE_LOG(j)] = (int)(LAUNCH_TRACE_PATH); \
	l_tst[LAUNCH_TRACE_LOG(j)] = (uchar)status; \
	t_j = j + 1; \
	if (t_slot != TB_NO_SLOT) { \
		LAUNCH_TRACE_CORE(s); \
		t_done = s; \
	} \
} while (0)

/* The chunk's steps the lane did not run: its state; none for a lane
 * past the last core. */
#define LAUNCH_TRACE_FILL do { \
	for (uint j_ = t_j; j_ < n; j_++) { \
		l_tpc[LAUNCH_TRACE_LOG(j_)] = (int)(LAUNCH_TRACE_PATH); \
		l_tst[LAUNCH_TRACE_LOG(j_)] = valid ? (uchar)status : \
		    (uchar)0xFF; \
	} \
	t_j = 0; \
} while (0)

/* The distinct program paths among the lanes of mask (pp: the warp's
 * logged paths): a group's lanes found by compares over the warp that
 * vectorise, one group at a time (launch_converged's way). */
static uint
launch_trace_paths(__local const int *pp, ulong todo)
{
	uint n = 0;

	while (todo != 0) {
		const int pi = pp[launch_lowest_bit(todo)];
		ulong grp = 0;

		for (uint j = 0; j < LANES; j++)
			grp |= (ulong)(pp[j] == pi) << j;
		todo &= ~grp;
		n++;
	}
	return n;
}

/* The warp's words (tracebuf.h) for the steps lane, lane + W, ... of
 * the chunk that starts after step s0; the chunk's last into last[], for
 * the steps after the work-group stopped.  The paths among the running
 * and waiting (joining) lanes are counted only where some lane waits
 * (joins). */
static void
launch_trace_warp(__global uint *tbuf, uint sw, uint warp, uint s0, uint n,
    __local const int *l_tpc, __local const uchar *l_tst,
    __local uint *l_kp4, uint wbase, uint lane, __local uint *last)
{
	for (uint r = lane; r < n; r += LANES) {
		__local const int *pp = l_tpc + r * MICDB_WG_SIZE + wbase;
		uint cnt[8] = { 0 }, paths[3], seen = 0, ran = 0;
		ulong run = 0, wait = 0, join = 0;
		uint w0, w1, w2;
		__global uint *rec = tbuf + TB_STEP_OFF(s0 + r + 1, sw) +
		    (size_t)warp * TB_WARP_WORDS;

		for (uint i = 0; i < LANES; i++) {
			const uint kp = LAUNCH_KP(l_kp4, r, wbase + i);
			const uint st = l_tst[r * MICDB_WG_SIZE + wbase + i];

			cnt[st & 7u]++;
			run |= (ulong)(st == ST_RUNNING) << i;
			wait |= (ulong)(st == ST_WAITING) << i;
			join |= (ulong)(st == ST_JOINING) << i;
			if (kp != P_NONE) {
				ran = 1;
				seen |= 1u << (kp & 31u);
			}
		}
		paths[0] = launch_trace_paths(pp, run);
		paths[1] = wait ? launch_trace_paths(pp, run | wait) : paths[0];
		paths[2] = join ? launch_trace_paths(pp, run | join) : paths[0];
		w0 = cnt[ST_RUNNING] | paths[0] << 8 |
		    (ran ? popcount(seen) : TB_K_NONE) << 16;
		w1 = cnt[ST_WAITING] | cnt[ST_HALTED] << 8 |
		    cnt[ST_ERROR] << 16 | cnt[ST_JOINING] << 24;
		w2 = paths[1] | paths[2] << 8;
		rec[TB_W_COUNTS] = w0;
		rec[TB_W_STATUS] = w1;
		rec[TB_W_RELEASE] = w2;
		if (r == n - 1) {
			last[TB_W_COUNTS] = w0;
			last[TB_W_STATUS] = w1;
			last[TB_W_RELEASE] = w2;
		}
	}
}

#define LAUNCH_TRACE_FOLD do { \
	if (warp < t_nw) \
		launch_trace_warp(tbuf, t_sw, warp, s0, n, l_tpc, l_tst, \
		    l_kp4, wbase, lane, \
		    l_tlast + TB_WARP_WORDS * (lid / LANES)); \
	t_folded = s0 + n; \
} while (0)

/* After the step loop: the steps after the work-group stopped (nothing
 * ran: the last chunk's state, no kernel path), and the traced core's
 * steps after it stopped. */
#define LAUNCH_TRACE_END do { \
	if (warp < t_nw) \
		for (uint s_ = t_folded + 1 + lane; s_ <= K; \
		    s_ += LANES) { \
			__global uint *rec_ = tbuf + TB_STEP_OFF(s_, t_sw) + \
			    (size_t)warp * TB_WARP_WORDS; \
			__local const uint *l_ = l_tlast + TB_WARP_WORDS * \
			    (lid / LANES); \
			rec_[TB_W_COUNTS] = (l_[TB_W_COUNTS] & 0xFFFFu) | \
			    TB_K_NONE << 16; \
			rec_[TB_W_STATUS] = l_[TB_W_STATUS]; \
			rec_[TB_W_RELEASE] = l_[TB_W_RELEASE]; \
		} \
	if (t_slot != TB_NO_SLOT) \
		for (uint s_ = t_done + 1; s_ <= K; s_++) \
			LAUNCH_TRACE_CORE(s_); \
} while (0)
#else
#define LAUNCH_TRACE_ARGS
#define LAUNCH_TRACE_DECL
#define LAUNCH_TRACE_STEP (void)0
#define LAUNCH_TRACE_FILL (void)0
#define LAUNCH_TRACE_FOLD (void)0
#define LAUNCH_TRACE_END (void)0
#endif

#endif
