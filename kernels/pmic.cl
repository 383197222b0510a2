/*
 * The PMIC kernel: one work-item per emulated core, up to K global
 * steps per launch, one PMIC cycle of every running core per step.
 * Semantics, the end-of-cycle order and the faults are those of the
 * golden model (src/model/pmic-sim.c, pmic_cycle), cycle for cycle:
 * MIR = store[MPC]; the three CUs compute from the registers as they are
 * at the start of the cycle; then the ALU results are written (CU0
 * first), WRITE, READ, FETCH (the 4 bytes at PC), next MPC; memory
 * completes in the cycle that issues it, so nothing is in flight between
 * cycles.  The launch protocol (stop_at, consistent cuts by checkpoint
 * and replay on the host, barriers completed between launches, compact
 * I/O areas, header-only read-back) is isa.cl's and mic.cl's: the shared
 * host engine (src/ocl/ocl-run.c) drives all three.
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
 * MICDB_STACK_INTERLEAVED, MICDB_DIVERGENCE, MICDB_DIV_CHUNK,
 * MICDB_TRACE: a trace's records, launch-trace.h).
 */
#include "memmap.h"
#include "context.h"
#include "context-mic.h"
#include "context-pmic.h"
#include "pmic-word.h"
#include "launch.h"
#include "fork.h"

/* FETCH: the 4 bytes at pc into MBR, bit 3 - i of *valid set when byte
 * i is inside the text (bytes outside it read 0). */
static void
pmic_fetch4(__global const uchar *tx, uint tsize, int pc, uint *mbr,
    uint *valid)
{
	uint v = 0, val = 0;

	for (uint i = 0; i < 4; i++) {
		const uint a = (uint)pc + i;
		const uint in = a < tsize;

		v = v << 8 | (in ? tx[a] : 0u);
		val |= in << (3 - i);
	}
	*mbr = v;
	*valid = val;
}

/* The value of v when r == i, else 0. */
#define SEL(r, i, v) ((uint)(v) & (0u - (uint)((r) == (i))))

/* Readable register r (enum pmic_reg; 24..31 read 0). */
static uint
reg_read(uint r, uint mar, uint mdr, uint pc, uint mbr, uint sp, uint lv,
    uint cpp, uint tos, uint opc, uint h, uint g0, uint g1, uint sid)
{
	const uint b0 = mbr >> 24, b1 = (mbr >> 16) & 0xFFu;
	const uint b2 = (mbr >> 8) & 0xFFu, b3 = mbr & 0xFFu;
	const uint b12 = (mbr >> 8) & 0xFFFFu;

	return SEL(r, PMIC_R_MAR, mar) | SEL(r, PMIC_R_MDR, mdr) |
	    SEL(r, PMIC_R_PC, pc) | SEL(r, PMIC_R_MBR, mbr) |
	    SEL(r, PMIC_R_MBR0, b0) | SEL(r, PMIC_R_MBR1, b1) |
	    SEL(r, PMIC_R_MBR2, b2) | SEL(r, PMIC_R_MBR3, b3) |
	    SEL(r, PMIC_R_MBR1S, (uint)(int)(char)(uchar)b1) |
	    SEL(r, PMIC_R_MBR12, b12) |
	    SEL(r, PMIC_R_MBR12S, (uint)(int)(short)(ushort)b12) |
	    SEL(r, PMIC_R_SP, sp) | SEL(r, PMIC_R_LV, lv) |
	    SEL(r, PMIC_R_CPP, cpp) | SEL(r, PMIC_R_TOS, tos) |
	    SEL(r, PMIC_R_OPC, opc) | SEL(r, PMIC_R_H, h) |
	    SEL(r, PMIC_R_G0, g0) | SEL(r, PMIC_R_G1, g1) |
	    SEL(r, PMIC_R_C2, 2u) | SEL(r, PMIC_R_C3, 3u) |
	    SEL(r, PMIC_R_C4, 4u) | SEL(r, PMIC_R_C5, 5u) |
	    SEL(r, PMIC_R_SID, sid);
}

/* The 16 operations of enum pmic_alu, by selects. */
static uint
alu_eval(uint op, uint a, uint b)
{
	uint v = (uint)((int)a >> 1);             /* PMIC_ALU_SRA1 */

	v = op == PMIC_ALU_SRA8 ? (uint)((int)a >> 8) : v;
	v = op == PMIC_ALU_SHL8 ? a << 8 : v;
	v = op == PMIC_ALU_OR ? (a | b) : v;
	v = op == PMIC_ALU_AND ? (a & b) : v;
	v = op == PMIC_ALU_NOT ? ~a : v;
	v = op == PMIC_ALU_NEG ? 0u - a : v;
	v = op == PMIC_ALU_SUB ? a - b : v;
	v = op == PMIC_ALU_DEC ? a - 1u : v;
	v = op == PMIC_ALU_INC ? a + 1u : v;
	v = op == PMIC_ALU_ADD1 ? a + b + 1u : v;
	v = op == PMIC_ALU_ADD ? a + b : v;
	v = op == PMIC_ALU_A ? a : v;
	v = op == PMIC_ALU_MINUS1 ? 0xFFFFFFFFu : v;
	v = op == PMIC_ALU_ONE ? 1u : v;
	v = op == PMIC_ALU_ZERO ? 0u : v;
	return v;
}

__kernel void
pmic_run(__global uint *ctx, __global int *stacks, __global int *globals,
    __global int *heap, __global const uchar *text,
    __global const int *cpool, __global const uint *progs,
    __global uchar *out_area, __global const uchar *in_area,
    __global const uint *bps, __global const uchar *mask,
    __global const uint *cstore, const uint pmic_off LAUNCH_TRACE_ARGS)
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
	uint fork = F(CTX_C_FORK);	/* forkjoin.h: read per launch */

	/* The control store in local memory, as mic.cl's: lanes on
	 * different MPCs gather from it. */
	__local uint4 l_cs[PMIC_STORE_WORDS];

	for (uint i = (uint)get_local_id(0); i < PMIC_STORE_WORDS;
	    i += (uint)get_local_size(0))
		l_cs[i] = vload4(i, cstore);
	barrier(CLK_LOCAL_MEM_FENCE);

	LAUNCH_ACTIVATE;
	/* a lane's program path and a traced core's words, for a trace
	 * (launch-trace.h) */
#define LAUNCH_TRACE_PATH mpc
#define LAUNCH_TRACE_CW TB_MICRO_WORDS
#define LAUNCH_TRACE_INSNS insns
#define LAUNCH_TRACE_LEVEL(r_) do { \
	LAUNCH_TRACE_MICRO(r_); \
	(r_)[TB_C_G0] = (uint)g0; \
	(r_)[TB_C_G1] = (uint)g1; \
	(r_)[TB_C_VALID] = mbr_valid | entry << 8; \
} while (0)
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
#define CU(w) (PMIC_CU_EN(w) ? alu_eval(PMIC_CU_ALU(w), \
	reg_read(PMIC_CU_A(w), ur, ud, up, mbr, us, ul, uc, ut, uo, uh, g0u, \
	    g1u, c), \
	reg_read(PMIC_CU_B(w), ur, ud, up, mbr, us, ul, uc, ut, uo, uh, g0u, \
	    g1u, c)) : 0u)
			r0 = CU(w0);
			r1 = CU(w1);
			r2 = CU(w2);
#undef CU
			c0 = PMIC_CU_C(w0) & (0u - PMIC_CU_EN(w0));
			c1 = PMIC_CU_C(w1) & (0u - PMIC_CU_EN(w1));
			c2 = PMIC_CU_C(w2) & (0u - PMIC_CU_EN(w2));
			/* MAR after the writes, for the I/O check */
			mar1 = (int)bitselect(bitselect(bitselect(ur, r0,
			    BITMASK(c0, PMIC_CB_MAR)), r1,
			    BITMASK(c1, PMIC_CB_MAR)), r2,
			    BITMASK(c2, PMIC_CB_MAR));

			/* I/O areas: a cycle that would write the console
			 * to a full area (conservative: any WRITE), or read
			 * it from a dry one with more to come, is not run. */
			if ((PMIC_CU_MEM(w2) && out_len >= out_cap) ||
			    (PMIC_CU_MEM(w1) && mar1 == MM_DEV_CONSOLE &&
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
			/* fork-join: the machine's cycle (fork.h), then
			 * pmic_enter at the new PC */
#define PMIC_ENTER() do {						\
	pmic_fetch4(tx, tsize, pc, &mbr, &mbr_valid);			\
	mbr_addr = pc;							\
	mpc = mbr >> 24;						\
	g0 = 0;								\
	g1 = 0;								\
	entry = 1;							\
} while (0)
			if (bnd && (fork & FJ_ON))
				FORK_HOOK(mbr >> 24, CTXP_PATH_SLOW,
				    PMIC_ENTER());
#undef PMIC_ENTER
			insns += (uint)bnd;
			insn_pc = bnd ? pc : insn_pc;
			if (!bnd && entry && !(mbr_valid & 8u)) {
				/* entered with PC outside the text */
				insn_pc = pc;
				flt = FAULT_PC_RANGE;
				goto fault;
			}
			if (!PMIC_BITV(nx, PMIC_BIT_PRESENT)) {
				flt = FAULT_NO_MICROINSTR;
				goto fault;
			}
			cycles++;

			/* N and Z from CU0; the writes, CU0 first */
			nf = PMIC_CU_EN(w0) ? r0 >> 31 : nf;
			zf = PMIC_CU_EN(w0) ? (uint)(r0 == 0) : zf;
#define WR(reg, r) do { \
	uint v_ = (uint)(reg); \
	v_ = bitselect(v_, r0, BITMASK(c0, PMIC_CB_##r)); \
	v_ = bitselect(v_, r1, BITMASK(c1, PMIC_CB_##r)); \
	v_ = bitselect(v_, r2, BITMASK(c2, PMIC_CB_##r)); \
	(reg) = (int)v_; \
} while (0)
			mar = mar1;
			WR(mdr, MDR);
			WR(pc, PC);
			WR(sp, SP);
			WR(lv, LV);
			WR(cpp, CPP);
			WR(tos, TOS);
			WR(opc, OPC);
			WR(h, H);
			WR(g0, G0);
			WR(g1, G1);
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
				const int wr = PMIC_CU_MEM(w2) != 0;
				const int rd = PMIC_CU_MEM(w1) != 0;
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
			if (PMIC_CU_MEM(w0)) {
				pmic_fetch4(tx, tsize, pc, &mbr, &mbr_valid);
				mbr_addr = pc;
			}

			/* 5: next MPC, arithmetic */
			if (PMIC_BITV(nx, PMIC_BIT_JMPC) && !(mbr_valid & 8u)) {
				flt = FAULT_PC_RANGE;
				goto fault;
			}
			next = PMIC_NEXT_ADDR(nx) |
			    ((mbr >> 24) & (0u - PMIC_BITV(nx, PMIC_BIT_JMPC)));
			next ^= ((PMIC_BITV(nx, PMIC_BIT_JAMN) & nf) |
			    (PMIC_BITV(nx, PMIC_BIT_JAMZ) & zf)) <<
			    PMIC_BIT_NEXT_JAM;
			mpc = next & (PMIC_STORE_WORDS - 1);
			entry = PMIC_BITV(nx, PMIC_BIT_JMPC) &&
			    mpc == (mbr >> 24);
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
		LAUNCH_TRACE_STEP;
	} LAUNCH_LOOP_END(CTXP_NPATHS);

	LAUNCH_TRACE_END;
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
