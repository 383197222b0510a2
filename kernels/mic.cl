/*
 * The Mic-1 kernel: one work-item per emulated core, up to K global
 * micro-steps per launch.  Semantics, the order of events inside a cycle
 * and the faults are those of the golden model (src/model/mic1.c,
 * mic1_cycle), cycle for cycle; the launch protocol (stop_at, consistent
 * cuts by checkpoint and replay on the host, barriers completed between
 * launches, compact I/O areas, header-only read-back) is launch.h's,
 * shared with isa.cl and pmic.cl, which the one host engine
 * (src/ocl/ocl-run.c) drives for every level.
 *
 * Branch-free step, as in the Monzali thesis: every lane runs the same
 * instruction stream whatever its micro-instruction.  The control store
 * is pre-decoded (mic1-word.h's device words: the fields plus a one-hot
 * B mask); bits come out by mic1-word.h's shifts and masks, the B bus
 * is an OR of registers ANDed with masks made from the one-hot bits, the
 * ALU computes its four functions and keeps one by mask, the shifter
 * shifts by amounts taken from the word (0 or 8, 0 or 1), the C bus
 * writes are bitselects, the next MPC is arithmetic.  Memory goes
 * through addresses computed the same way and predicated loads and
 * stores.  What cannot be data flow - device words with side effects
 * (console, barrier, allocation, atomic add) and faults - is one guarded
 * slow path that lanes enter only on those cycles; the divergence
 * records count it as a second kernel path (CTXM_PATH_SLOW), so k is 1
 * except in cycles where some but not all lanes of a warp took it.
 *
 * The memory stage decodes its address by selects (mem_where_sel), its
 * conditions are bitwise and its store predicated: as branches, a warp
 * whose lanes sit on different micro-instructions ran the paths of
 * several regions, and of writing and not writing, one after another.
 *
 * Build-time defines: those of isa.cl (MICDB_WARP_W, MICDB_WG_SIZE,
 * MICDB_STACK_INTERLEAVED, MICDB_DIVERGENCE, MICDB_DIV_CHUNK,
 * MICDB_TRACE: a trace's records, launch-trace.h).
 */
#include "memmap.h"
#include "context.h"
#include "context-mic.h"
#include "mic1-word.h"
#include "launch.h"
#include "fork.h"

/* The word's bits, from D0 and D1 (mic1-word.h), as all-ones masks: bit
 * x of the word, C bus register r, B bus source r. */
#define BIT_M(x) BITMASK(d0, MIC1_BIT_##x)
#define C_M(r) BITMASK(d0, MIC1_POS_C + MIC1_CB_##r)
#define B_M(r) BITMASK(d1, MIC1_D1_POS_ONEHOT + MIC1_B_##r)

__kernel void
mic_run(__global uint *ctx, __global int *stacks, __global int *globals,
    __global int *heap, __global const uchar *text,
    __global const int *cpool, __global const uint *progs,
    __global uchar *out_area, __global const uchar *in_area,
    __global const uint *bps, __global const uchar *mask,
    __global const uint *cstore, const uint mic_off, const uint main1
    LAUNCH_TRACE_ARGS)
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
	uint fork = F(CTX_C_FORK);	/* forkjoin.h: read per launch */

	/* The control store in local memory: lanes on different MPCs read
	 * different words every cycle, a gather that local memory serves
	 * without a global transaction per address.  Both words of an
	 * address in one 8-byte load. */
	__local uint2 l_cs[MIC1_STORE_WORDS];

	for (uint i = (uint)get_local_id(0); i < MIC1_STORE_WORDS;
	    i += (uint)get_local_size(0))
		l_cs[i] = (uint2)(cstore[i * CTXM_CS_WORDS + CTXM_CS_D0],
		    cstore[i * CTXM_CS_WORDS + CTXM_CS_D1]);
	barrier(CLK_LOCAL_MEM_FENCE);

	(void)mem_where(mar_latch, stk, sstride, sw, globals, heap, heap_words,
	    cp, cpsize, &rd_p);
	LAUNCH_ACTIVATE;
	/* a lane's program path and a traced core's words, for a trace
	 * (launch-trace.h): the MIR as the host's mic1_core holds it (the
	 * context's until the core runs a cycle), the latches that say
	 * whether it is at an instruction boundary */
#define LAUNCH_TRACE_PATH mpc
#define LAUNCH_TRACE_CW TB_MICRO_WORDS
#define LAUNCH_TRACE_INSNS insns
#define LAUNCH_TRACE_LEVEL(r_) do { \
	LAUNCH_TRACE_MICRO(r_); \
	(r_)[TB_C_MIR_LO] = mir_set ? \
	    MIC1_DW_LO(mir_d0, MIC1_D1_NEXT(mir_d1)) : M(CTXM_C_MIR_LO); \
	(r_)[TB_C_MIR_HI] = mir_set ? \
	    MIC1_DW_HI(MIC1_D1_NEXT(mir_d1)) : M(CTXM_C_MIR_HI); \
	(r_)[TB_C_LATCH] = pending | mbr_state << 8; \
} while (0)
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
			 * cycles does not pay its latency every cycle. */
			const int rv = *rd_p;
			const uint wr = MIC1_BITV(d0, MIC1_BIT_WRITE);
			const uint rd = MIC1_BITV(d0, MIC1_BIT_READ);
			const uint fe = MIC1_BITV(d0, MIC1_BIT_FETCH);
			uint a, b, bus, fsel, out, res, next, wh;
			int mdr1, mar1, flt = FAULT_NONE, io_stop = 0;
			__global int *wp;
			int bnd;

			/* I/O areas: a cycle that would write the console
			 * to a full area, or complete a console read from
			 * a dry one with more to come, is not run (the host
			 * drains or refills and goes on).  Conservative for
			 * writes: any WRITE when the area is full. */
			if ((wr && out_len >= out_cap) ||
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
			/* fork-join: the machine's cycle (fork.h), then
			 * mic1_enter at the new PC */
#define MIC_ENTER() do {						\
	mpc = main1;							\
	mbr = (uint)pc < tsize ? tx[pc] : 0u;				\
	mbr_state = (uint)pc < tsize ? CTXM_MBR_FETCHED : CTXM_MBR_INVALID; \
	mbr_addr = pc;							\
	pending = 0;							\
} while (0)
			if (bnd && (fork & FJ_ON))
				FORK_HOOK(mbr & 0xFFu, CTXM_PATH_SLOW,
				    MIC_ENTER());
#undef MIC_ENTER
			insns += (uint)bnd;
			insn_pc = bnd ? pc : insn_pc;
			if (!(d1 & MIC1_D1_PRESENT)) {
				flt = FAULT_NO_MICROINSTR;
				goto fault;
			}
			cycles++;
			mir_d0 = d0;
			mir_d1 = d1;
			mir_set = 1;

			/* 1: B bus by masks, ALU, shifter, N/Z, C bus. */
			bus = ((uint)mdr & B_M(MDR)) |
			    ((uint)pc & B_M(PC)) |
			    ((uint)(int)(char)(uchar)mbr & B_M(MBR)) |
			    ((mbr & 0xFFu) & B_M(MBRU)) |
			    ((uint)sp & B_M(SP)) |
			    ((uint)lv & B_M(LV)) |
			    ((uint)cpp & B_M(CPP)) |
			    ((uint)tos & B_M(TOS)) |
			    ((uint)opc & B_M(OPC));
			a = ((uint)h & BIT_M(ENA)) ^ BIT_M(INVA);
			b = bus & BIT_M(ENB);
			fsel = MIC1_FIELD(d0, FN);
			/* INC after every function (doc/mic1.md section 1) */
			out = (((a & b) & (0u - (uint)(fsel == 0))) |
			    ((a | b) & (0u - (uint)(fsel == 1))) |
			    (~b & (0u - (uint)(fsel == 2))) |
			    ((a + b) & (0u - (uint)(fsel == 3)))) +
			    MIC1_BITV(d0, MIC1_BIT_INC);
			nf = out >> 31;
			zf = out == 0;
			res = out << MIC1_SLL8_SHIFT(d0);
			res = (uint)((int)res >> MIC1_BITV(d0, MIC1_BIT_SRA1));
			h = (int)bitselect((uint)h, res, C_M(H));
			opc = (int)bitselect((uint)opc, res, C_M(OPC));
			tos = (int)bitselect((uint)tos, res, C_M(TOS));
			cpp = (int)bitselect((uint)cpp, res, C_M(CPP));
			lv = (int)bitselect((uint)lv, res, C_M(LV));
			sp = (int)bitselect((uint)sp, res, C_M(SP));
			pc = (int)bitselect((uint)pc, res, C_M(PC));
			mdr = (int)bitselect((uint)mdr, res, C_M(MDR));
			mar = (int)bitselect((uint)mar, res, C_M(MAR));
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
			pending |= fe ? CTXM_PEND_FETCH : 0u;
			pc_latch = fe ? pc : pc_latch;

			/* 4: next MPC, arithmetic. */
			/* nf and zf are 0 or 1: each masks its JAM bit */
			next = MIC1_D1_NEXT(d1) |
			    ((((d0 >> MIC1_BIT_JAMN) & nf) |
			    ((d0 >> MIC1_BIT_JAMZ) & zf)) << MIC1_BIT_NEXT_JAM);
			if (MIC1_BITV(d0, MIC1_BIT_JMPC) &&
			    mbr_state == CTXM_MBR_INVALID) {
				flt = FAULT_PC_RANGE;
				goto fault;
			}
			next |= (mbr & 0xFFu) & BIT_M(JMPC);
			mpc = next & (MIC1_STORE_WORDS - 1);
			if (mpc == MIC1_HALT_MPC && status == ST_RUNNING)
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
		LAUNCH_TRACE_STEP;
	} LAUNCH_LOOP_END(CTXM_NPATHS);

	LAUNCH_TRACE_END;
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
		const uint next = MIC1_D1_NEXT(mir_d1);

		M(CTXM_C_MIR_LO) = MIC1_DW_LO(mir_d0, next);
		M(CTXM_C_MIR_HI) = MIC1_DW_HI(next);
		M(CTXM_C_MIR_NEXT) = next;
		M(CTXM_C_MIR_JAM) = MIC1_FIELD(mir_d0, JAM);
		M(CTXM_C_MIR_ALU) = MIC1_FIELD(mir_d0, ALU);
		M(CTXM_C_MIR_C) = MIC1_FIELD(mir_d0, C);
		M(CTXM_C_MIR_MEM) = MIC1_FIELD(mir_d0, MEM);
		M(CTXM_C_MIR_B) = MIC1_FIELD(mir_d0, B);
	}
#undef F
#undef M
#undef BIT_M
#undef C_M
#undef B_M
}
