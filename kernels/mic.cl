/*
 * The Mic-1 kernel: one work-item per emulated core, up to K global
 * micro-steps per launch.  Semantics, the order of events inside a cycle
 * and the faults are those of the golden model (src/core/mic1.c,
 * mic1_cycle), cycle for cycle; the launch protocol (stop_at, consistent
 * cuts by checkpoint and replay on the host, barriers completed between
 * launches, compact I/O areas, header-only read-back) is launch.h's,
 * shared with isa.cl and pmic.cl, which the one host engine
 * (src/ocl/engine-ocl.c) drives for every level.
 *
 * Branch-free step, as in the Monzali thesis: every lane runs the same
 * instruction stream whatever its micro-instruction.  The control store
 * is pre-decoded (context-mic.h: raw fields plus a one-hot B mask); fields
 * come out by shift and mask, the B bus is an OR of registers ANDed with
 * masks made from the one-hot bits, the ALU computes its four functions
 * and keeps one by mask, the shifter shifts by amounts taken from the
 * word (0 or 8, 0 or 1), the C bus writes are bitselects, the next MPC
 * is arithmetic.  Memory goes through addresses computed the same way
 * and predicated loads and stores.  What cannot be data flow - device
 * words with side effects (console, barrier, allocation, atomic add) and
 * faults - is one guarded slow path that lanes enter only on those
 * cycles; the divergence records count it as a second kernel path
 * (CTXM_PATH_SLOW), so k is 1 except in cycles where some but not all
 * lanes of a warp took it.
 *
 * Divergent against uniform (micdb bench, H200, every core doing the
 * same work, mic1.mal with its fault checks).  The memory stage was the
 * branchy part of the step: mem_where's chain of choices compiled into
 * a branch per region, and the WRITE, its fault checks and the READ's
 * check into more, so a warp whose lanes were on different
 * micro-instructions ran the paths of several regions and of writing
 * and not writing one after another.  Now the address is decoded by
 * selects (mem_where_sel), the conditions are bitwise, the store is
 * predicated and only device words and faults branch.  Same session,
 * steps per launch fixed at 2,048, micro-cycles/s divergent / uniform:
 *   before      1M cores 4.64-4.80e10 / 5.30-5.32e10 (0.88-0.90)
 *   now         1M cores 4.98e10 / 5.07e10 (0.98), 32K 2.82e10 / 3.24e10
 *   the plain mem_where with the rest as now: 1M 5.04e10 / 5.22e10,
 *               32K 2.80e10 / 3.26e10 (0.86)
 *   every region's address computed and masked: 1M 4.70e10 / 4.73e10
 *               (0.99, but uniform 9% slower: a million cores issue
 *               every instruction), 32K 2.91e10 / 3.31e10
 * A divergent warp-cycle still costs more where the GPU is not full (32K
 * cores, 8 warps per SM, latency-bound): lanes at different SPs and PCs
 * gather READs, WRITEs and text bytes over several lines where a uniform
 * warp touches one, and their MPCs meet bank conflicts in the local
 * control store.  Measured without gain: the bottom 16 or 32 stack
 * words of every core in local memory (one bank per lane, conflict-free
 * whatever the word; the global gathers were not what cost), the text in
 * local memory (slower), register caps of 128, 96, 64, stacks tiled by
 * 32 or 256 cores, the READ and the text byte loaded under their
 * conditions instead of every cycle, idle lanes' fetch and READ pointed
 * at one shared address, the control store split into two word arrays.
 * The records are a fixed per-cycle cost (without them both workloads
 * run 30% faster).
 *
 * Build-time defines: those of isa.cl (MICDB_WARP_W, MICDB_WG_SIZE,
 * MICDB_STACK_INTERLEAVED, MICDB_DIVERGENCE, MICDB_DIV_CHUNK).
 */
#include "memmap.h"
#include "context.h"
#include "context-mic.h"

#include "launch.h"

#define HALT_MPC 0xFF

__kernel void
mic_run(__global uint *ctx, __global int *stacks, __global int *globals,
    __global int *heap, __global const uchar *text,
    __global const int *cpool, __global const uint *progs,
    __global uchar *out_area, __global const uchar *in_area,
    __global const uint *bps, __global const uchar *mask,
    __global const uint *cstore, const uint mic_off, const uint main1)
{
	LAUNCH_PROLOGUE;
	__global uint *mcore = ctx + CTXM_CORE_WORD(mic_off, cs, fs, c, 0u);
	const uint mfs = cs == 1 ? fs : 1u;
#define M(f) mcore[(f) * mfs]

	/* Registers and side state, private for the launch. */
	LAUNCH_READ_MICRO_REGS;
	int mar_latch = (int)M(CTXM_C_MAR_LATCH);
	int pc_latch = (int)M(CTXM_C_PC_LATCH);
	int mbr_addr = (int)M(CTXM_C_MBR_ADDR);
	int insn_pc = (int)M(CTXM_C_INSN_PC);
	int new_ref = (int)M(CTXM_C_NEW_REF);
	int atom_addr = (int)M(CTXM_C_ATOM_ADDR);
	int atom_old = (int)M(CTXM_C_ATOM_OLD);
	uint pending = M(CTXM_C_PENDING), mbr_state = M(CTXM_C_MBR_STATE);
	__global int *rd_p;     /* where the pending READ loads from */
	uint mir_d0 = 0, mir_d1 = 0, mir_set = 0;
	uint insns = 0, cycles = 0;

	/* The control store in local memory: lanes on different MPCs read
	 * different words every cycle, a gather that local memory serves
	 * without a global transaction per address (on an H200 it gave
	 * about 5% more micro-cycles/s, uniform and divergent alike).  Both
	 * words of an address in one 8-byte load. */
	__local uint2 l_cs[512];

	for (uint i = (uint)get_local_id(0); i < 512;
	    i += (uint)get_local_size(0))
		l_cs[i] = (uint2)(cstore[i * CTXM_CS_WORDS + CTXM_CS_D0],
		    cstore[i * CTXM_CS_WORDS + CTXM_CS_D1]);
	barrier(CLK_LOCAL_MEM_FENCE);

	(void)mem_where(mar_latch, stk, sstride, sw, globals, heap, heap_words,
	    cp, cpsize, &rd_p);
	LAUNCH_ACTIVATE;
	LAUNCH_LOOP_BEGIN {
		uint path = P_NONE;
		const uint mpc0 = mpc;

		LAUNCH_STEP_GATE;
		do {
			const uint2 dw = l_cs[mpc];
			const uint d0 = dw.x, d1 = dw.y;
			/* Last cycle's READ, loaded whether there is one:
			 * its address is known at the top of the cycle, so
			 * the load overlaps the control-store and text
			 * loads, and a warp whose lanes read in different
			 * cycles does not pay its latency every cycle (on an
			 * H200, 32,768 cores: uniform +13%, divergent +6%
			 * against a load under `if (pending & READ)`). */
			const int rv = *rd_p;
			const uint alu = (d0 >> 16) & 0xFFu;
			const uint cb = (d0 >> 7) & 0x1FFu;
			const uint mem = (d0 >> 4) & 7u;
			const uint jam = (d0 >> 24) & 7u;
			const uint oh = d1 >> CTXM_CS_ONEHOT_POS;
			uint a, b, bus, fsel, out, res, next, wh;
			int mdr1, mar1, flt = FAULT_NONE, io_stop = 0;
			__global int *wp;
			int bnd;

			/* I/O areas: a cycle that would write the console
			 * to a full area, or complete a console read from
			 * a dry one with more to come, is not run (the host
			 * drains or refills and goes on).  Conservative for
			 * writes: any WRITE when the area is full. */
			if (((mem & 4u) && out_len >= out_cap) ||
			    ((pending & CTXM_PEND_READ) &&
			    mar_latch == MM_DEV_CONSOLE && in_pos >= in_len &&
			    in_more))
				io_stop = 1;
			if (io_stop) {
				path = P_NONE;
				active = 0;
				stop_step = s - 1;
				stop_kind = CTX_STOP_IO;
				atomic_min(stop_at, s - 1);
				break;
			}
			path = CTXM_PATH_CYCLE;

			/* 0: MIR; an instruction starts where Main1 finds
			 * its opcode. */
			bnd = mpc == main1 && pending == 0 &&
			    mbr_state != CTXM_MBR_RESET && mbr_addr == pc;
			insns += (uint)bnd;
			insn_pc = bnd ? pc : insn_pc;
			if (!(d1 & CTXM_CS_PRESENT)) {
				flt = FAULT_NO_MICROINSTR;
				goto fault;
			}
			cycles++;
			mir_d0 = d0;
			mir_d1 = d1;
			mir_set = 1;

			/* 1: B bus by masks, ALU, shifter, N/Z, C bus. */
			bus = ((uint)mdr & BITMASK(oh, 0)) |
			    ((uint)pc & BITMASK(oh, 1)) |
			    ((uint)(int)(char)(uchar)mbr & BITMASK(oh, 2)) |
			    ((mbr & 0xFFu) & BITMASK(oh, 3)) |
			    ((uint)sp & BITMASK(oh, 4)) |
			    ((uint)lv & BITMASK(oh, 5)) |
			    ((uint)cpp & BITMASK(oh, 6)) |
			    ((uint)tos & BITMASK(oh, 7)) |
			    ((uint)opc & BITMASK(oh, 8));
			a = ((uint)h & BITMASK(alu, 3)) ^ BITMASK(alu, 1);
			b = bus & BITMASK(alu, 2);
			fsel = (alu >> 4) & 3u;
			out = ((a & b) & (0u - (uint)(fsel == 0))) |
			    ((a | b) & (0u - (uint)(fsel == 1))) |
			    (~b & (0u - (uint)(fsel == 2))) |
			    ((a + b + (alu & 1u)) & (0u - (uint)(fsel == 3)));
			nf = out >> 31;
			zf = out == 0;
			res = out << ((alu >> 4) & 8u);
			res = (uint)((int)res >> ((alu >> 6) & 1u));
			h = (int)bitselect((uint)h, res, BITMASK(cb, 8));
			opc = (int)bitselect((uint)opc, res, BITMASK(cb, 7));
			tos = (int)bitselect((uint)tos, res, BITMASK(cb, 6));
			cpp = (int)bitselect((uint)cpp, res, BITMASK(cb, 5));
			lv = (int)bitselect((uint)lv, res, BITMASK(cb, 4));
			sp = (int)bitselect((uint)sp, res, BITMASK(cb, 3));
			pc = (int)bitselect((uint)pc, res, BITMASK(cb, 2));
			mdr = (int)bitselect((uint)mdr, res, BITMASK(cb, 1));
			mar = (int)bitselect((uint)mar, res, BITMASK(cb, 0));
			mdr1 = mdr;
			mar1 = mar;

			/* 2: last cycle's READ/FETCH complete. */
			{
				const int pf = (pending & CTXM_PEND_FETCH) != 0;
				const int inb = (uint)pc_latch < tsize;
				const uint byte = tx[inb ? pc_latch : 0];

				mbr = pf ? (inb ? byte : 0u) : mbr;
				mbr_state = pf ? (inb ? CTXM_MBR_FETCHED :
				    CTXM_MBR_INVALID) : mbr_state;
				mbr_addr = pf ? pc_latch : mbr_addr;
			}
			mdr = (pending & CTXM_PEND_READ) && mar_latch >= 0 ?
			    rv : mdr;
			if ((pending & CTXM_PEND_READ) && mar_latch < 0) {
				int v = 0;

				path = CTXM_PATH_SLOW;
				switch (mar_latch) {
				case MM_DEV_CONSOLE:
					v = in_pos < in_len ?
					    (int)ina[in_pos++] : 0;
					break;
				case MM_DEV_COREID:
					v = (int)c;
					break;
				case MM_DEV_NCORES:
					v = (int)ncores;
					break;
				case MM_DEV_NEWARRAY:
					v = new_ref;
					break;
				case MM_DEV_ATOM_ADD:
					v = atom_old;
					break;
				case MM_DEV_GLOBALS:
					v = MM_GLOBALS_BASE;
					break;
				case MM_DEV_MAIN_LOCALS:
					v = (int)pt[CTX_P_MAIN_NLOCALS];
					break;
				case MM_DEV_TEXT_SIZE:
					v = (int)tsize;
					break;
				}
				mdr = v;
			}
			pending = 0;

			/* 3: WRITE (MDR and MAR after step 1), then this
			 * cycle's READ/FETCH is issued. */
			/* One address decode for the WRITE and the READ
			 * issued, every cycle: in a warp whose lanes are on
			 * different micro-instructions both happen in most
			 * cycles, so decoding under each would cost twice. */
			wh = mem_where_sel(mar1, stk, sstride, sw, globals,
			    heap, heap_words, cp, cpsize, &wp);
			{
				/* bitwise, not short-circuit: conditions
				 * that differ between lanes are data here,
				 * and only the rare slow path branches */
				const int wr = (mem >> 2) & 1u;
				const int rd = (mem >> 1) & 1u;
				const int dev_ok = (mar1 == MM_DEV_CONSOLE) |
				    (mar1 == MM_DEV_COREID) |
				    (mar1 == MM_DEV_NCORES) |
				    (mar1 == MM_DEV_NEWARRAY) |
				    (mar1 == MM_DEV_ATOM_ADD) |
				    (mar1 == MM_DEV_GLOBALS) |
				    (mar1 == MM_DEV_MAIN_LOCALS) |
				    (mar1 == MM_DEV_TEXT_SIZE);
				const int ok = ((mar1 >= 0) & (wh != 0)) |
				    ((mar1 < 0) & dev_ok);

				LAUNCH_MICRO_WRITE(mar1, mdr1, wp, wh, wr,
				    CTXM_PATH_SLOW);
				if (rd & !ok) {
					flt = FAULT_MEM_RANGE;
					goto fault;
				}
				pending |= rd ? CTXM_PEND_READ : 0u;
				mar_latch = rd ? mar1 : mar_latch;
				rd_p = rd ? wp : rd_p;
			}
			pending |= (mem & 1u) ? CTXM_PEND_FETCH : 0u;
			pc_latch = (mem & 1u) ? pc : pc_latch;

			/* 4: next MPC, arithmetic. */
			next = (d1 & 0x1FFu) |
			    ((((jam >> 1) & nf) | (jam & zf)) << 8);
			if ((jam & 4u) && mbr_state == CTXM_MBR_INVALID) {
				flt = FAULT_PC_RANGE;
				goto fault;
			}
			next |= (mbr & 0xFFu) & BITMASK(jam, 2);
			mpc = next & 0x1FFu;
			if (mpc == HALT_MPC && status == ST_RUNNING)
				status = ST_HALTED;
			goto done;
fault:
			LAUNCH_MICRO_FAULT(CTXM_PATH_SLOW);
done:
			last_step = s;
			LAUNCH_STOP_IF_DONE
			/* Breakpoints at the boundary after this cycle: on
			 * the MPC, or on the PC at an instruction boundary. */
			bnd = mpc == main1 && pending == 0 &&
			    mbr_state != CTXM_MBR_RESET && mbr_addr == pc;
			LAUNCH_CHECK_BPS(mpc, bnd);
		} while (0);
		LAUNCH_RECORD(mpc0, path);
	} LAUNCH_LOOP_END(CTXM_NPATHS);

	LAUNCH_WRITE_RECORDS;
	if (!valid)
		return;
	LAUNCH_NOTE;
	LAUNCH_WRITE_MICRO_REGS;
	LAUNCH_COUNT(CTX_C_STEPS_LO, CTX_C_STEPS_HI, insns);
	LAUNCH_COUNT(CTX_C_CYCLES_LO, CTX_C_CYCLES_HI, cycles);
	LAUNCH_WRITE_STOPS;
	M(CTXM_C_MAR_LATCH) = (uint)mar_latch;
	M(CTXM_C_PC_LATCH) = (uint)pc_latch;
	M(CTXM_C_MBR_ADDR) = (uint)mbr_addr;
	M(CTXM_C_INSN_PC) = (uint)insn_pc;
	M(CTXM_C_NEW_REF) = (uint)new_ref;
	M(CTXM_C_ATOM_ADDR) = (uint)atom_addr;
	M(CTXM_C_ATOM_OLD) = (uint)atom_old;
	M(CTXM_C_PENDING) = pending;
	M(CTXM_C_MBR_STATE) = mbr_state;
	if (mir_set) {
		const uint next = mir_d1 & 0x1FFu;

		M(CTXM_C_MIR_LO) = (mir_d0 & 0x7FFFFFFu) | next << 27;
		M(CTXM_C_MIR_HI) = next >> 5;
		M(CTXM_C_MIR_NEXT) = next;
		M(CTXM_C_MIR_JAM) = (mir_d0 >> 24) & 7u;
		M(CTXM_C_MIR_ALU) = (mir_d0 >> 16) & 0xFFu;
		M(CTXM_C_MIR_C) = (mir_d0 >> 7) & 0x1FFu;
		M(CTXM_C_MIR_MEM) = (mir_d0 >> 4) & 7u;
		M(CTXM_C_MIR_B) = mir_d0 & 0xFu;
	}
#undef F
#undef M
}
