/*
 * Fork-join at the micro levels, on the device (doc/manycore.md section
 * 1; the host's definition is micro_fork_cycle in src/model/micro-sim.c
 * over ref_exec, and this is compared with it by the micro levels'
 * differential tests).  The fork decision is the machine's: at an
 * instruction boundary of a fork-join core (forkjoin.h's FJ_ON), an
 * INVOKEVIRTUAL in main, or the IRETURN of the core's forked method into
 * main, is carried out in one cycle with the ISA level's semantics and
 * fault order (src/model/ref.c), instead of by the microprogram; then the
 * core enters the level again at its new PC (the kernel's own part, as
 * mic1_enter / pmic_enter).  Included by mic.cl and pmic.cl after
 * launch.h; isa.cl has the same rules in its INVOKEVIRTUAL and IRETURN
 * handlers.
 */
#ifndef MICDB_KERNEL_FORK_H
#define MICDB_KERNEL_FORK_H

#include "forkjoin.h"

enum {
#define IJVM_OP(sym, code, k1, k2, pops, pushes, cls, desc) FJOP_##sym = code,
#include "ijvm-ops.def"
#undef IJVM_OP
};

/* Stack word a of the core (ref.c's S), a checked to be in the region. */
#define FJ_S(a) stk[(uint)((a) - MM_STACK_BASE) * sstride]

/*
 * Whether the instruction op at *pc is one the machine carries out
 * (ref_fork_insn); if so, carry it out: the new registers, status and
 * fork word, or *flt with nothing else changed.  fk: the core's fork
 * word (FJ_ON set), main_nl: main's locals.
 */
static int
fork_insn(__global int *stk, uint sstride, uint sw,
    __global const uchar *tx, uint tsize, __global const int *cp,
    uint cpsize, uint main_nl, uint c, uint op, uint *fk, int *pc,
    int *sp, int *lv, int *tos, uint *status, int *flt)
{
	const int end = MM_STACK_BASE + (int)sw - 1;
	int link, saved;

	if (op == FJOP_INVOKEVIRTUAL) {
		uint idx, nargs, nloc;
		int addr, newlv, p = *pc, s = *sp;

		if (*lv != MM_STACK_BASE)
			return 0;
		/* ref.c steps 4 and 7, then the call's own checks */
		if (p + 3 > (int)tsize) {
			*flt = FAULT_PC_RANGE;
			return 1;
		}
		if (s > end) {
			*flt = FAULT_STACK_OVERFLOW;
			return 1;
		}
		idx = (uint)tx[p + 1] << 8 | tx[p + 2];
		if (idx >= cpsize) {
			*flt = FAULT_CP_INDEX;
			return 1;
		}
		addr = cp[idx];
		if (addr < 0 || addr + 4 >= (int)tsize) {
			*flt = FAULT_METHOD_ADDR;
			return 1;
		}
		nargs = (uint)tx[addr] << 8 | tx[addr + 1];
		nloc = (uint)tx[addr + 2] << 8 | tx[addr + 3];
		if (nargs == 0) {
			*flt = FAULT_BAD_ARGS;
			return 1;
		}
		if (s - (int)nargs < MM_STACK_BASE + (int)main_nl - 1) {
			*flt = FAULT_STACK_UNDERFLOW;
			return 1;
		}
		newlv = s - (int)nargs + 1;
		if (!FJ_MINE(*fk, c)) {
			/* another core's call: skipped */
			*fk = FJ_COUNT(*fk);
			FJ_S(newlv) = 0;
			*sp = newlv;
			*pc = p + 3;
		} else {
			link = s + (int)nloc + 1;
			if (link + 1 > end) {
				*flt = FAULT_STACK_OVERFLOW;
				return 1;
			}
			*fk = FJ_COUNT(*fk) | FJ_IN;
			FJ_S(newlv) = link;
			FJ_S(link) = p + 3;
			FJ_S(link + 1) = MM_STACK_BASE;
			*sp = link + 1;
			*lv = newlv;
			*pc = addr + 4;
		}
		*tos = FJ_S(*sp);
		return 1;
	}
	/* IRETURN of the forked method into main: its frame must be valid
	 * (ref_frame_at) and its saved LV main's */
	if (op != FJOP_IRETURN || !(*fk & FJ_IN) || *lv == MM_STACK_BASE ||
	    *lv < MM_STACK_BASE || *lv > end)
		return 0;
	link = FJ_S(*lv);
	if (link < MM_STACK_BASE || link + 1 > end)
		return 0;
	saved = FJ_S(link + 1);
	if (saved != MM_STACK_BASE)
		return 0;
	if (*sp - 1 < link + 1) {
		*flt = FAULT_STACK_UNDERFLOW;
		return 1;
	}
	*pc = FJ_S(link);
	FJ_S(*lv) = FJ_S(*sp);
	*sp = *lv;
	*lv = saved;
	*tos = FJ_S(*sp);
	*fk &= ~FJ_IN;
	*status = ST_JOINING;
	return 1;
}

#undef FJ_S

/*
 * The hook of a micro-level kernel at an instruction boundary of a
 * fork-join core: fork_insn on opcode op over the kernel's locals (by
 * their names in mic.cl and pmic.cl); when the machine carried the
 * instruction out, the cycle is counted on slow path P and either faults
 * (at the PC; the model's insn_pc stays) or stores the fork word and
 * runs ENTER, the level's entry at the new PC.  Either way the core's
 * cycle is over (goto done).
 */
#define FORK_HOOK(op, P, ENTER) do {					\
	uint fk_ = fork;						\
									\
	if (fork_insn(stk, sstride, sw, tx, tsize, cp, cpsize,		\
	    pt[CTX_P_MAIN_NLOCALS], c, (op), &fk_, &pc, &sp, &lv,	\
	    &tos, &status, &flt)) {					\
		path = (P);						\
		insns++;						\
		cycles++;						\
		if (flt != FAULT_NONE) {				\
			const int ip_ = insn_pc;			\
									\
			insn_pc = pc;					\
			LAUNCH_MICRO_FAULT(P);				\
			insn_pc = ip_;					\
			goto done;					\
		}							\
		fork = fk_;						\
		F(CTX_C_FORK) = fk_;					\
		ENTER;							\
		insn_pc = pc;						\
		goto done;						\
	}								\
} while (0)

#endif
