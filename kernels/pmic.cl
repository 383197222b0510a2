/*
 * The PMIC kernel: one work-item per emulated core, up to K global
 * steps per launch, one PMIC cycle of every running core per step.
 * Semantics, the end-of-cycle order and the faults are those of the
 * golden model (src/core/pmic-sim.c, pmic_cycle), cycle for cycle:
 * MIR = store[MPC]; the three CUs compute from the registers as they are
 * at the start of the cycle; then the ALU results are written (CU0
 * first), WRITE, READ, FETCH (the 4 bytes at PC), next MPC; memory
 * completes in the cycle that issues it, so nothing is in flight between
 * cycles.  The launch protocol (stop_at, consistent cuts by checkpoint
 * and replay on the host, barriers completed between launches, compact
 * I/O areas, header-only read-back) is isa.cl's and mic.cl's: the shared
 * host engine (src/ocl/engine-ocl.c) drives all three.
 *
 * Branch-free step, as mic.cl's: every lane runs the same instruction
 * stream whatever its micro-instruction.  Registers are read by masks
 * (an OR of every readable register ANDed with a mask made from the A or
 * B field), the ALU computes by selects, the C bus writes are
 * bitselects, the next MPC is arithmetic, memory goes through addresses
 * computed the same way.  Device words with side effects and faults are
 * one guarded slow path (CTXP_PATH_SLOW in the divergence records).
 *
 * Build-time defines: those of isa.cl (MICDB_WARP_W, MICDB_WG_SIZE,
 * MICDB_STACK_INTERLEAVED, MICDB_DIVERGENCE, MICDB_DIV_CHUNK).
 */
#include "memmap.h"
#include "context.h"
#include "context-mic.h"
#include "context-pmic.h"
#include "launch.h"

/* pmic.h's bit positions (the header itself is C only) */
#define W_EN(w)    (((w) >> 26) & 1u)
#define W_MEM(w)   (((w) >> 25) & 1u)
#define W_ALU(w)   (((w) >> 21) & 0xFu)
#define W_C(w)     (((w) >> 10) & 0x7FFu)
#define W_B(w)     (((w) >> 5) & 0x1Fu)
#define W_A(w)     ((w) & 0x1Fu)
#define N_NEXT(w)  ((w) & 0x1FFu)
#define N_JAMZ(w)  (((w) >> 9) & 1u)
#define N_JAMN(w)  (((w) >> 10) & 1u)
#define N_JMPC(w)  (((w) >> 11) & 1u)
#define N_P(w)     ((w) >> 31)

/* The value of v when r == i, else 0. */
#define SEL(r, i, v) ((uint)(v) & (0u - (uint)((r) == (i))))

/* Readable register r (pmic.h enum pmic_reg; 24..31 read 0). */
static uint
reg_read(uint r, uint mar, uint mdr, uint pc, uint mbr, uint sp, uint lv,
    uint cpp, uint tos, uint opc, uint h, uint g0, uint g1, uint sid)
{
	const uint b0 = mbr >> 24, b1 = (mbr >> 16) & 0xFFu;
	const uint b2 = (mbr >> 8) & 0xFFu, b3 = mbr & 0xFFu;
	const uint b12 = (mbr >> 8) & 0xFFFFu;

	return SEL(r, 0, mar) | SEL(r, 1, mdr) | SEL(r, 2, pc) |
	    SEL(r, 3, mbr) | SEL(r, 4, b0) | SEL(r, 5, b1) | SEL(r, 6, b2) |
	    SEL(r, 7, b3) | SEL(r, 8, (uint)(int)(char)(uchar)b1) |
	    SEL(r, 9, b12) | SEL(r, 10, (uint)(int)(short)(ushort)b12) |
	    SEL(r, 11, sp) | SEL(r, 12, lv) | SEL(r, 13, cpp) |
	    SEL(r, 14, tos) | SEL(r, 15, opc) | SEL(r, 16, h) |
	    SEL(r, 17, g0) | SEL(r, 18, g1) | SEL(r, 19, 2u) |
	    SEL(r, 20, 3u) | SEL(r, 21, 4u) | SEL(r, 22, 5u) |
	    SEL(r, 23, sid);
}

/* The 16 operations of pmic.h (enum pmic_alu), by selects. */
static uint
alu_eval(uint op, uint a, uint b)
{
	uint v = (uint)((int)a >> 1);             /* 15: SRA1 */

	v = op == 14 ? (uint)((int)a >> 8) : v;
	v = op == 13 ? a << 8 : v;
	v = op == 12 ? (a | b) : v;
	v = op == 11 ? (a & b) : v;
	v = op == 10 ? ~a : v;
	v = op == 9 ? 0u - a : v;
	v = op == 8 ? a - b : v;
	v = op == 7 ? a - 1u : v;
	v = op == 6 ? a + 1u : v;
	v = op == 5 ? a + b + 1u : v;
	v = op == 4 ? a + b : v;
	v = op == 3 ? a : v;
	v = op == 2 ? 0xFFFFFFFFu : v;
	v = op == 1 ? 1u : v;
	v = op == 0 ? 0u : v;
	return v;
}

__kernel void
pmic_run(__global uint *ctx, __global int *stacks, __global int *globals,
    __global int *heap, __global const uchar *text,
    __global const int *cpool, __global const uint *progs,
    __global uchar *out_area, __global const uchar *in_area,
    __global const uint *bps, __global const uchar *mask,
    __global const uint *cstore, const uint pmic_off)
{
	LAUNCH_PROLOGUE;
	__global uint *pcore = ctx + CTXP_CORE_WORD(pmic_off, cs, fs, c, 0u);
	const uint pfs = cs == 1 ? fs : 1u;
#define P(f) pcore[(f) * pfs]

	/* Registers and side state, private for the launch. */
	LAUNCH_READ_MICRO_REGS;
	int g0 = (int)P(CTXP_C_G0), g1 = (int)P(CTXP_C_G1);
	int mbr_addr = (int)P(CTXP_C_MBR_ADDR);
	int insn_pc = (int)P(CTXP_C_INSN_PC);
	int new_ref = (int)P(CTXP_C_NEW_REF);
	int atom_addr = (int)P(CTXP_C_ATOM_ADDR);
	int atom_old = (int)P(CTXP_C_ATOM_OLD);
	uint mbr_valid = P(CTXP_C_MBR_VALID), entry = P(CTXP_C_ENTRY);
	uint insns = 0, cycles = 0;

	/* The control store in local memory, as mic.cl's: lanes on
	 * different MPCs gather from it. */
	__local uint4 l_cs[512];

	for (uint i = (uint)get_local_id(0); i < 512;
	    i += (uint)get_local_size(0))
		l_cs[i] = vload4(i, cstore);
	barrier(CLK_LOCAL_MEM_FENCE);

	LAUNCH_ACTIVATE;
	LAUNCH_LOOP_BEGIN {
		uint path = P_NONE;
		const uint mpc0 = mpc;

		LAUNCH_STEP_GATE;
		do {
			const uint4 mi = l_cs[mpc];
			const uint w0 = mi.x, w1 = mi.y, w2 = mi.z, nx = mi.w;
			const uint ur = (uint)mar, ud = (uint)mdr, up = (uint)pc;
			const uint us = (uint)sp, ul = (uint)lv, uc = (uint)cpp;
			const uint ut = (uint)tos, uo = (uint)opc, uh = (uint)h;
			const uint g0u = (uint)g0, g1u = (uint)g1;
			uint r0, r1, r2, c0, c1, c2, next;
			int mar1, flt = FAULT_NONE;
			int bnd;

			/* 1: the three CUs read the registers as they are
			 * now (pure: nothing is committed yet) */
#define CU(w) (W_EN(w) ? alu_eval(W_ALU(w), \
	reg_read(W_A(w), ur, ud, up, mbr, us, ul, uc, ut, uo, uh, g0u, g1u, c), \
	reg_read(W_B(w), ur, ud, up, mbr, us, ul, uc, ut, uo, uh, g0u, g1u, c)) \
	: 0u)
			r0 = CU(w0);
			r1 = CU(w1);
			r2 = CU(w2);
#undef CU
			c0 = W_C(w0) & (0u - W_EN(w0));
			c1 = W_C(w1) & (0u - W_EN(w1));
			c2 = W_C(w2) & (0u - W_EN(w2));
			/* MAR after the writes, for the I/O check */
			mar1 = (int)bitselect(bitselect(bitselect(ur, r0,
			    BITMASK(c0, 0)), r1, BITMASK(c1, 0)), r2,
			    BITMASK(c2, 0));

			/* I/O areas: a cycle that would write the console
			 * to a full area (conservative: any WRITE), or read
			 * it from a dry one with more to come, is not run. */
			if ((W_MEM(w2) && out_len >= out_cap) ||
			    (W_MEM(w1) && mar1 == MM_DEV_CONSOLE &&
			    in_pos >= in_len && in_more)) {
				path = P_NONE;
				active = 0;
				stop_step = s - 1;
				stop_kind = CTX_STOP_IO;
				atomic_min(stop_at, s - 1);
				break;
			}
			path = CTXP_PATH_CYCLE;

			/* 0: an instruction starts at a dispatch on a valid
			 * MBR0 fetched from PC */
			bnd = entry && (mbr_valid & 8u) && mbr_addr == pc &&
			    mpc == (mbr >> 24);
			insns += (uint)bnd;
			insn_pc = bnd ? pc : insn_pc;
			if (!bnd && entry && !(mbr_valid & 8u)) {
				/* entered with PC outside the text */
				insn_pc = pc;
				flt = FAULT_PC_RANGE;
				goto fault;
			}
			if (!N_P(nx)) {
				flt = FAULT_NO_MICROINSTR;
				goto fault;
			}
			cycles++;

			/* N and Z from CU0; the writes, CU0 first */
			nf = W_EN(w0) ? r0 >> 31 : nf;
			zf = W_EN(w0) ? (uint)(r0 == 0) : zf;
#define WR(reg, bit) do { \
	uint v_ = (uint)(reg); \
	v_ = bitselect(v_, r0, BITMASK(c0, bit)); \
	v_ = bitselect(v_, r1, BITMASK(c1, bit)); \
	v_ = bitselect(v_, r2, BITMASK(c2, bit)); \
	(reg) = (int)v_; \
} while (0)
			mar = mar1;
			WR(mdr, 1);
			WR(pc, 2);
			WR(sp, 3);
			WR(lv, 4);
			WR(cpp, 5);
			WR(tos, 6);
			WR(opc, 7);
			WR(h, 8);
			WR(g0, 9);
			WR(g1, 10);
#undef WR

			/* 2: WRITE mem[MAR] <- MDR, 3: READ MDR <- mem[MAR],
			 * on one address decoded without branches and with
			 * predicated accesses (mem_where_sel: lanes on
			 * different micro-instructions run one instruction
			 * stream); only device words and faults branch. */
			{
				__global int *p;
				const uint wh = mem_where_sel(mar, stk, sstride,
				    sw, globals, heap, heap_words, cp, cpsize,
				    &p);
				const int wr = W_MEM(w2) != 0;
				const int rd = W_MEM(w1) != 0;
				const int rd_mem = rd & (mar >= 0) & (wh != 0);

				LAUNCH_MICRO_WRITE(mar, mdr, p, wh, wr,
				    CTXP_PATH_SLOW);
				if (rd_mem)
					mdr = *p;
				if (rd & !rd_mem) {
					if (mar >= 0) {
						flt = FAULT_MEM_RANGE;
						goto fault;
					}
					path = CTXP_PATH_SLOW;
					switch (mar) {
					case MM_DEV_CONSOLE:
						mdr = in_pos < in_len ?
						    (int)ina[in_pos++] : 0;
						break;
					case MM_DEV_COREID:
						mdr = (int)c;
						break;
					case MM_DEV_NCORES:
						mdr = (int)ncores;
						break;
					case MM_DEV_NEWARRAY:
						mdr = new_ref;
						break;
					case MM_DEV_ATOM_ADD:
						mdr = atom_old;
						break;
					case MM_DEV_GLOBALS:
						mdr = MM_GLOBALS_BASE;
						break;
					case MM_DEV_MAIN_LOCALS:
						mdr = (int)pt[CTX_P_MAIN_NLOCALS];
						break;
					case MM_DEV_TEXT_SIZE:
						mdr = (int)tsize;
						break;
					default:
						flt = FAULT_MEM_RANGE;
						break;
					}
					if (flt != FAULT_NONE)
						goto fault;
				}
			}
			/* 4: FETCH MBR <- the 4 bytes at PC, MBR0 first;
			 * bytes outside the text read 0, invalid */
			if (W_MEM(w0)) {
				uint v = 0, val = 0;

				for (uint i = 0; i < 4; i++) {
					const uint a = (uint)pc + i;
					const uint in = a < tsize;

					v = v << 8 | (in ? tx[a] : 0u);
					val |= in << (3 - i);
				}
				mbr = v;
				mbr_valid = val;
				mbr_addr = pc;
			}

			/* 5: next MPC, arithmetic */
			if (N_JMPC(nx) && !(mbr_valid & 8u)) {
				flt = FAULT_PC_RANGE;
				goto fault;
			}
			next = N_NEXT(nx) | ((mbr >> 24) & (0u - N_JMPC(nx)));
			next ^= ((N_JAMN(nx) & nf) | (N_JAMZ(nx) & zf)) << 8;
			mpc = next & 0x1FFu;
			entry = N_JMPC(nx) && mpc == (mbr >> 24);
			goto done;
fault:
			LAUNCH_MICRO_FAULT(CTXP_PATH_SLOW);
done:
			last_step = s;
			LAUNCH_STOP_IF_DONE
			/* Breakpoints at the boundary after this cycle: on
			 * the MPC, or on the PC at an instruction boundary. */
			bnd = entry && (mbr_valid & 8u) && mbr_addr == pc &&
			    mpc == (mbr >> 24);
			LAUNCH_CHECK_BPS(mpc, bnd);
		} while (0);
		LAUNCH_RECORD(mpc0, path);
	} LAUNCH_LOOP_END(CTXP_NPATHS);

	LAUNCH_WRITE_RECORDS;
	if (!valid)
		return;
	LAUNCH_NOTE;
	LAUNCH_WRITE_MICRO_REGS;
	LAUNCH_COUNT(CTX_C_STEPS_LO, CTX_C_STEPS_HI, insns);
	LAUNCH_COUNT(CTX_C_CYCLES_LO, CTX_C_CYCLES_HI, cycles);
	LAUNCH_WRITE_STOPS;
	P(CTXP_C_G0) = (uint)g0;
	P(CTXP_C_G1) = (uint)g1;
	P(CTXP_C_MBR_ADDR) = (uint)mbr_addr;
	P(CTXP_C_INSN_PC) = (uint)insn_pc;
	P(CTXP_C_NEW_REF) = (uint)new_ref;
	P(CTXP_C_ATOM_ADDR) = (uint)atom_addr;
	P(CTXP_C_ATOM_OLD) = (uint)atom_old;
	P(CTXP_C_MBR_VALID) = mbr_valid;
	P(CTXP_C_ENTRY) = entry;
#undef F
#undef P
}
