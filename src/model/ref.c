/*
 * The reference interpreter (see ref.h): one ISA instruction per call of
 * ref_exec, written for reading, not for speed.  Every kernel is compared
 * against it, so the order of the checks below is part of the contract:
 *
 *   1. fetch the opcode                     PC_RANGE (fault_pc = PC)
 *   2. WIDE: fetch the next opcode          PC_RANGE, BAD_WIDE
 *   3. opcode in ijvm-ops.def?              BAD_OPCODE
 *   4. all operand bytes inside the text    PC_RANGE
 *   5. IRETURN in main                      RETURN_MAIN
 *   6. frame, when the instruction pops or names a local
 *                                           STACK_ACCESS
 *   7. pops from ijvm-ops.def vs the floor  STACK_UNDERFLOW
 *      pushes - pops vs the region end      STACK_OVERFLOW
 *   8. the instruction's own checks         LOCAL_INDEX, CP_INDEX,
 *      (INVOKEVIRTUAL: CP_INDEX, METHOD_ADDR, BAD_ARGS, STACK_ACCESS,
 *      STACK_UNDERFLOW, STACK_OVERFLOW), array faults, HEAP_FULL
 *   9. effects
 *
 * Nothing is written before step 9, so a fault leaves registers and
 * memory exactly as they were; only status, fault, fault_pc, fault_op and
 * the step counter change.
 *
 * Memory is authoritative: the stack words live in the core's region and
 * TOS is reloaded from mem[SP] after every instruction.  The invariant
 * MM_STACK_BASE <= SP < region end holds between instructions (main's
 * floor is at least the base; every push is checked against the end;
 * IRETURN sets SP to an LV that step 6 proved inside the region), so the
 * handlers index the region directly without further checks.
 *
 * Frames (Tanenbaum's layout): local 0 of a method frame holds the link
 * pointer, the word address of the saved PC; the saved LV is the word
 * above it and is the frame's floor.  main's frame has LV ==
 * MM_STACK_BASE and no link.
 */
#include <stdint.h>

#include "devword.h"
#include "ijvm.h"
#include "machine.h"
#include "ref.h"

/* Operand bytes per kind, for the instruction lengths below. */
enum {
	OPSZ_NONE = 0, OPSZ_BYTE = 1, OPSZ_CONST = 1, OPSZ_VARNUM = 1,
	OPSZ_LABEL = 2, OPSZ_INDEX = 2, OPSZ_METHOD = 2, OPSZ_GLOBAL = 2,
};

/* What the generic checks need per opcode, straight from the .def. */
struct ref_opinfo {
	uint8_t	known;
	uint8_t	len;      /* bytes, opcode included, without WIDE */
	uint8_t	pops;
	uint8_t	pushes;
	uint8_t	cls;      /* enum ijvm_opclass */
};

static const struct ref_opinfo ref_ops[256] = {
#define IJVM_OP(sym, code, k1, k2, npops, npushes, klass, desc) \
	[code] = { 1, 1 + OPSZ_##k1 + OPSZ_##k2, npops, npushes, OPC_##klass },
#include "ijvm-ops.def"
#undef IJVM_OP
};

static int32_t
stack_end(const struct machine *m)
{
	/* The last word of the region (inclusive). */
	return MM_STACK_BASE + (int32_t)m->cfg.stack_words - 1;
}

static int
in_stack(const struct machine *m, int64_t addr)
{
	return addr >= MM_STACK_BASE && addr <= stack_end(m);
}

int
ref_frame_at(const struct machine *m, uint32_t core, int32_t lv,
    int32_t *floor, int32_t *nlocals)
{
	const struct core *c = &m->cores[core];
	int32_t link;

	if (lv == MM_STACK_BASE) {
		uint32_t n = m->progs[c->prog]->main_nlocals;

		*floor = MM_STACK_BASE + (int32_t)n - 1;
		*nlocals = (int32_t)n;
		return 0;
	}
	if (!in_stack(m, lv))
		return -1;
	link = m->stacks[(size_t)core * m->cfg.stack_words +
	    (uint32_t)(lv - MM_STACK_BASE)];
	if (!in_stack(m, link) || !in_stack(m, (int64_t)link + 1))
		return -1;
	*floor = link + 1;
	*nlocals = link - lv;
	return 0;
}

/* floor and locals of the core's current frame. */
static int
ref_frame(const struct machine *m, uint32_t core, int32_t *floor,
    int32_t *nlocals)
{
	return ref_frame_at(m, core, m->cores[core].lv, floor, nlocals);
}

int
ref_frame_floor(const struct machine *m, uint32_t core, int32_t *floor)
{
	int32_t nlocals;

	return ref_frame(m, core, floor, &nlocals);
}

int
ref_frame_nlocals(const struct machine *m, uint32_t core, int32_t *nlocals)
{
	int32_t floor;

	return ref_frame(m, core, &floor, nlocals);
}

void
ref_fault(struct machine *m, uint32_t core, int fault, int32_t pc)
{
	struct core *c = &m->cores[core];
	int op = machine_fetch_byte(m, core, pc);

	c->status = CORE_ERROR;
	c->fault = (uint8_t)fault;
	c->fault_pc = pc;
	c->fault_op = op < 0 ? 0 : (uint8_t)op;
}

int
ref_exec(struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	const struct program *p;
	const struct ref_opinfo *info;
	const uint8_t *opnd;	/* first operand byte */
	int32_t pc, sp, lv, next, floor = 0, nlocals = 0;
	int32_t *st;		/* st[a - MM_STACK_BASE] is stack word a */
	int32_t a, b, v, addr, ref, local = 0;
	uint32_t idx;
	int op, wide = 0, fault = FAULT_NONE;
	int64_t len;

	if (c->status != CORE_RUNNING)
		return 0;
	c->steps++;
	p = m->progs[c->prog];
	pc = c->pc;
	sp = c->sp;
	lv = c->lv;
	st = machine_stack_word(m, core, MM_STACK_BASE);

	/* 1-3: decode. */
	if ((op = machine_fetch_byte(m, core, pc)) < 0) {
		ref_fault(m, core, FAULT_PC_RANGE, pc);
		return 1;
	}
	if (op == OP_WIDE) {
		if ((op = machine_fetch_byte(m, core, pc + 1)) < 0) {
			ref_fault(m, core, FAULT_PC_RANGE, pc);
			return 1;
		}
		if (op != OP_ILOAD && op != OP_ISTORE && op != OP_IINC) {
			ref_fault(m, core, FAULT_BAD_WIDE, pc);
			return 1;
		}
		wide = 1;
	}
	info = &ref_ops[op];
	if (!info->known) {
		ref_fault(m, core, FAULT_BAD_OPCODE, pc);
		return 1;
	}

	/* 4: the whole instruction must be inside the text.  A WIDE form
	 * has the prefix and one more index byte. */
	len = info->len + 2 * wide;
	if ((int64_t)pc + len > p->text_size) {
		ref_fault(m, core, FAULT_PC_RANGE, pc);
		return 1;
	}
	opnd = p->text + pc + 1 + wide;
	next = pc + (int32_t)len;

	/* 5-7: generic frame and stack checks from the .def table. */
	if (op == OP_IRETURN && lv == MM_STACK_BASE) {
		ref_fault(m, core, FAULT_RETURN_MAIN, pc);
		return 1;
	}
	if (info->pops > 0 || info->cls == OPC_LOCAL) {
		if (ref_frame(m, core, &floor, &nlocals) != 0) {
			ref_fault(m, core, FAULT_STACK_ACCESS, pc);
			return 1;
		}
		if (sp - info->pops < floor) {
			ref_fault(m, core, FAULT_STACK_UNDERFLOW, pc);
			return 1;
		}
	}
	if ((int64_t)sp - info->pops + info->pushes > stack_end(m)) {
		ref_fault(m, core, FAULT_STACK_OVERFLOW, pc);
		return 1;
	}

/* Stack word a (checked above to lie in the region). */
#define S(a) st[(a) - MM_STACK_BASE]
/* A u16 / s16 operand at byte k of the operands. */
#define U16(k) ((uint32_t)get_be16(opnd + (k)))
#define S16(k) ((int32_t)(int16_t)get_be16(opnd + (k)))

	/* 8, ILOAD/ISTORE/IINC: the local index (u8, or u16 after WIDE)
	 * against this frame's locals; a corrupted link can make that
	 * count negative. */
	if (info->cls == OPC_LOCAL) {
		idx = wide ? U16(0) : opnd[0];
		if (nlocals <= 0 || idx >= (uint32_t)nlocals) {
			ref_fault(m, core, FAULT_LOCAL_INDEX, pc);
			return 1;
		}
		local = lv + (int32_t)idx;
	}

	/* 8-9: per-instruction checks, then effects.  Arithmetic is done in
	 * uint32_t: IJVM wraps, C's signed overflow would be undefined. */
	switch (op) {
	case OP_NOP:
	case OP_GC:		/* the heap is never collected */
		break;
	case OP_BIPUSH:
		S(++sp) = (int8_t)opnd[0];
		break;
	case OP_LDC_W:
		if ((idx = U16(0)) >= p->cp_size) {
			fault = FAULT_CP_INDEX;
			break;
		}
		S(++sp) = p->cp[idx];
		break;
	case OP_ILOAD:
		v = S(local);
		S(++sp) = v;
		break;
	case OP_ISTORE:
		S(local) = S(sp--);
		break;
	case OP_IINC:
		/* The constant stays 8 bits even after WIDE. */
		S(local) = (int32_t)((uint32_t)S(local) +
		    (uint32_t)(int32_t)(int8_t)opnd[1 + wide]);
		break;
	case OP_POP:
		sp--;
		break;
	case OP_DUP:
		v = S(sp);
		S(++sp) = v;
		break;
	case OP_SWAP:
		v = S(sp);
		S(sp) = S(sp - 1);
		S(sp - 1) = v;
		break;
	case OP_IADD:
	case OP_ISUB:
	case OP_IAND:
	case OP_IOR:
		a = S(sp);		/* top */
		b = S(sp - 1);		/* below */
		if (op == OP_IADD)
			v = (int32_t)((uint32_t)b + (uint32_t)a);
		else if (op == OP_ISUB)
			v = (int32_t)((uint32_t)b - (uint32_t)a);
		else if (op == OP_IAND)
			v = b & a;
		else
			v = b | a;
		S(--sp) = v;
		break;
	case OP_IFEQ:
		if (S(sp--) == 0)
			next = pc + S16(0);
		break;
	case OP_IFLT:
		if (S(sp--) < 0)
			next = pc + S16(0);
		break;
	case OP_IF_ICMPEQ:
		a = S(sp);
		b = S(sp - 1);
		sp -= 2;
		if (a == b)
			next = pc + S16(0);
		break;
	case OP_GOTO:
		/* A target outside the text faults at the next fetch. */
		next = pc + S16(0);
		break;
	case OP_GETSTATIC:
		S(++sp) = m->globals[U16(0)];
		break;
	case OP_PUTSTATIC:
		m->globals[U16(0)] = S(sp--);
		break;
	case OP_ATOMICADD:
		/* The atomic-add device's own add; a 16-bit index is
		 * always inside the globals. */
		fault = devword_atomic_add(m, core,
		    MM_GLOBALS_BASE + (int32_t)U16(0), S(sp), &v);
		if (fault != FAULT_NONE)
			break;
		S(sp) = v;
		break;
	case OP_INVOKEVIRTUAL: {
		uint32_t nargs, nloc;
		int64_t newlv, link;

		if ((idx = U16(0)) >= p->cp_size) {
			fault = FAULT_CP_INDEX;
			break;
		}
		/* The header and at least one byte of code. */
		addr = p->cp[idx];
		if (addr < 0 || (int64_t)addr + 4 >= p->text_size) {
			fault = FAULT_METHOD_ADDR;
			break;
		}
		nargs = get_be16(p->text + addr);
		nloc = get_be16(p->text + addr + 2);
		if (nargs == 0) {
			fault = FAULT_BAD_ARGS;
			break;
		}
		if (ref_frame(m, core, &floor, &nlocals) != 0) {
			fault = FAULT_STACK_ACCESS;
			break;
		}
		if ((int64_t)sp - nargs < floor) {
			fault = FAULT_STACK_UNDERFLOW;
			break;
		}
		newlv = (int64_t)sp - nargs + 1;
		if ((c->fork & FJ_ON) && lv == MM_STACK_BASE &&
		    !FJ_MINE(c->fork, core)) {
			/* fork-join: not this core's call (forkjoin.h) */
			c->fork = FJ_COUNT(c->fork);
			sp = (int32_t)newlv;
			S(sp) = 0;
			break;
		}
		link = (int64_t)sp + nloc + 1;
		if (link + 1 > stack_end(m)) {
			fault = FAULT_STACK_OVERFLOW;
			break;
		}
		if ((c->fork & FJ_ON) && lv == MM_STACK_BASE)
			c->fork = FJ_COUNT(c->fork) | FJ_IN;
		/* The callee's locals above the arguments are not zeroed,
		 * as the Mic-1 microprogram leaves them. */
		S((int32_t)newlv) = (int32_t)link;
		S((int32_t)link) = next;	/* return address */
		S((int32_t)link + 1) = lv;
		sp = (int32_t)link + 1;
		lv = (int32_t)newlv;
		next = addr + 4;
		break;
	}
	case OP_IRETURN: {
		int32_t link = S(lv);	/* ref_frame checked it */

		v = S(sp);
		next = S(link);
		a = S(link + 1);	/* saved LV; checked when next used */
		sp = lv;
		S(sp) = v;
		lv = a;
		if ((c->fork & FJ_IN) && lv == MM_STACK_BASE) {
			/* back in main from the forked method: the join */
			c->fork &= ~FJ_IN;
			c->status = CORE_JOINING;
		}
		break;
	}
	case OP_NEWARRAY:
		ref = machine_new_array(m, S(sp), &fault);
		if (fault != FAULT_NONE)
			break;
		S(sp) = ref;
		break;
	case OP_IALOAD:
		ref = S(sp);
		fault = machine_array_elem(m, ref, S(sp - 1), &addr);
		if (fault != FAULT_NONE)
			break;
		S(--sp) = m->heap[addr - MM_HEAP_BASE];
		break;
	case OP_IASTORE:
		ref = S(sp);
		fault = machine_array_elem(m, ref, S(sp - 1), &addr);
		if (fault != FAULT_NONE)
			break;
		m->heap[addr - MM_HEAP_BASE] = S(sp - 2);
		sp -= 3;
		break;
	case OP_COREID:
		S(++sp) = (int32_t)core;
		break;
	case OP_NCORES:
		S(++sp) = (int32_t)m->cfg.ncores;
		break;
	case OP_BARRIER:
		/* ref_barrier_release makes it RUNNING again. */
		c->status = CORE_WAITING;
		break;
	case OP_IN:
		S(++sp) = devword_console_in(m, core);
		break;
	case OP_OUT:
		devword_console_out(m, core, S(sp--));
		break;
	case OP_ERR:
		fault = FAULT_ERR;
		break;
	case OP_HALT:
		c->status = CORE_HALTED;
		break;
	default:
		/* A .def entry with no handler: a bug here, not in the
		 * guest, but the guest must not crash the emulator. */
		fault = FAULT_BAD_OPCODE;
		break;
	}
#undef S
#undef U16
#undef S16

	if (fault != FAULT_NONE) {
		ref_fault(m, core, fault, pc);
		return 1;
	}
	c->pc = next;
	c->sp = sp;
	c->lv = lv;
	c->tos = st[sp - MM_STACK_BASE];
	return 1;
}

int
ref_fork_insn(const struct machine *m, uint32_t core)
{
	const struct core *c = &m->cores[core];
	int op = machine_fetch_byte(m, core, c->pc);
	int32_t floor, nlocals, link;

	if (!(c->fork & FJ_ON))
		return 0;
	if (op == OP_INVOKEVIRTUAL)
		return c->lv == MM_STACK_BASE;
	if (op != OP_IRETURN || !(c->fork & FJ_IN) ||
	    c->lv == MM_STACK_BASE ||
	    ref_frame_at(m, core, c->lv, &floor, &nlocals) != 0)
		return 0;
	/* the saved LV, above the link (ref_frame_at checked both) */
	link = m->stacks[(size_t)core * m->cfg.stack_words +
	    (uint32_t)(c->lv - MM_STACK_BASE)];
	return m->stacks[(size_t)core * m->cfg.stack_words +
	    (uint32_t)(link + 1 - MM_STACK_BASE)] == MM_STACK_BASE;
}

int
ref_barrier_release(struct machine *m)
{
	struct ref_summary s;
	uint32_t i;
	uint8_t from;

	ref_count(m, &s);
	if (s.running > 0 || s.waiting + s.joining == 0)
		return 0;
	/* A barrier first: cores at the join do not count for it. */
	from = s.waiting > 0 ? CORE_WAITING : CORE_JOINING;
	for (i = 0; i < m->cfg.ncores; i++)
		if (m->cores[i].status == from)
			m->cores[i].status = CORE_RUNNING;
	return 1;
}

int
ref_step_end(struct engine *e, const struct engine_run *r,
    struct engine_stop *stop, struct ref_summary *sum, int *changed, int ran,
    uint32_t executed, uint32_t faulted, uint8_t *seen, int atbp,
    enum engine_bp_on on)
{
	if (*changed || !ran) {
		if (ref_barrier_release(e->m) && r->nbps > 0)
			atbp = 1;
		ref_count(e->m, sum);
		*changed = 1;
	}
	sum->executed = executed;
	return engine_step_stop(e, r, stop, sum, faulted, seen, atbp, on);
}

void
ref_step(struct machine *m, const struct ref_mask *mask,
    struct ref_summary *sum)
{
	uint32_t i, executed = 0;

	for (i = 0; i < m->cfg.ncores; i++) {
		if (mask != NULL && mask->mask != NULL && !mask->mask[i])
			continue;
		executed += (uint32_t)ref_exec(m, i);
	}
	ref_barrier_release(m);
	m->step++;
	if (sum != NULL) {
		ref_count(m, sum);
		sum->executed = executed;
	}
}
