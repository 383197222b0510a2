/*
 * The Mic-1 golden model: the simulator of one micro-cycle (see mic1.h;
 * the word and the control store are mic1-enc.c's, src/core).
 *
 * The simulator is written for reading, like ref.c: one function per
 * stage of a cycle, in the order doc/mic1.md section 1 gives.  Every kernel
 * of the micro level is compared against it, so the order below is the
 * contract:
 *
 *   0. MIR = store[MPC]        absent word: FAULT_NO_MICROINSTR
 *      (at Main1 with nothing in flight: an ISA instruction starts,
 *      steps++ and insn_pc = PC)
 *   1. B bus, ALU, shifter, N/Z, C-bus writes
 *   2. the READ/FETCH of the previous cycle completes
 *   3. WRITE (MDR and MAR after step 1), then this cycle's READ/FETCH is
 *      issued (address checked now, data taken at step 2 of the next
 *      cycle)
 *   4. next MPC; JMPC on an invalid MBR: FAULT_PC_RANGE; MPC 0xFF halts
 *
 * Memory: word addresses >= 0 go to machine_read_word/machine_write_word,
 * which enforce the map; negative ones are the device words of doc/mic1.md
 * section 4, handled here because their side effects belong to this
 * level.  A device word that a table cell leaves empty (reading the halt
 * word, writing the core id) faults FAULT_MEM_RANGE like any other
 * address the core may not use.  Device reads take effect when the read
 * completes (the console byte is consumed then), so a microprogram that
 * issues a read and halts before it completes consumes nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "mic1.h"
#include "micro-sim.h"

/* ---- simulator state --------------------------------------------------- */

void
mic1_start_core(struct mic1_state *st, struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];

	memset(&st->core[core], 0, sizeof st->core[core]);
	st->core[core].insn_pc = -1;
	c->mpc = 0;
	c->pc = -1;
	c->mbr = 0;
}

/* Stop a core with a fault at the ISA instruction it is executing. */
static void
mic1_fault(struct mic1_state *st, struct machine *m, uint32_t core,
    int fault)
{
	ref_fault(m, core, fault, st->core[core].insn_pc);
}

/* ---- one micro-cycle ---------------------------------------------------- */

/* The B bus.  MBR is the byte as fetched; MBR sign-extends it. */
static uint32_t
mic1_bbus(const struct core *c, uint32_t b)
{
	switch (b) {
	case MIC1_B_MDR:  return (uint32_t)c->mdr;
	case MIC1_B_PC:   return (uint32_t)c->pc;
	case MIC1_B_MBR:  return (uint32_t)(int32_t)(int8_t)(uint8_t)c->mbr;
	case MIC1_B_MBRU: return (uint32_t)(uint8_t)c->mbr;
	case MIC1_B_SP:   return (uint32_t)c->sp;
	case MIC1_B_LV:   return (uint32_t)c->lv;
	case MIC1_B_CPP:  return (uint32_t)c->cpp;
	case MIC1_B_TOS:  return (uint32_t)c->tos;
	case MIC1_B_OPC:  return (uint32_t)c->opc;
	default:          return 0;
	}
}

/* ALU: a = ENA ? H : 0, inverted by INVA; b = ENB ? bus : 0; then INC
 * adds 1 to whichever function ran, as the textbook's own simulator does
 * (doc/mic1.md section 1): its assembler encodes the constant 1 as OR
 * with INC, and canonical words set INC only with the sum, where it
 * means the same.  Unsigned, so that the wraps are defined. */
uint32_t
mic1_alu_eval(uint32_t alu, uint32_t h, uint32_t bus)
{
	uint32_t a = (alu & MIC1_ALU_ENA) ? h : 0;
	uint32_t b = (alu & MIC1_ALU_ENB) ? bus : 0;
	uint32_t f;

	if (alu & MIC1_ALU_INVA)
		a = ~a;
	switch (MIC1_ALU_FN(alu)) {
	case 0:  f = a & b; break;
	case 1:  f = a | b; break;
	case 2:  f = ~b; break;
	default: f = a + b; break;
	}
	return f + (alu & MIC1_ALU_INC);
}

/* The shifter; both bits set shift left, then right.  SRA1 keeps the
 * sign bit (written out: >> of a negative int is implementation-defined). */
uint32_t
mic1_shifter(uint32_t alu, uint32_t v)
{
	if (alu & MIC1_ALU_SLL8)
		v <<= 8;
	if (alu & MIC1_ALU_SRA1)
		v = (v >> 1) | (v & 0x80000000u);
	return v;
}

void
mic1_dp_eval(const struct core *c, uint64_t w, struct mic1_dp *d)
{
	uint32_t alu = mic1_alu(w);

	d->a = (uint32_t)c->h;
	d->b = mic1_bbus(c, mic1_bsel(w));
	d->out = mic1_alu_eval(alu, d->a, d->b);
	d->n = (uint8_t)(d->out >> 31);
	d->z = (uint8_t)(d->out == 0);
	d->c = mic1_shifter(alu, d->out);
}

/* Step 1 of a cycle of word w: B bus, ALU, N and Z (from the ALU,
 * before the shifter), shifter, C-bus writes. */
static void
mic1_datapath(struct core *c, uint64_t w)
{
	struct mic1_dp d;

	mic1_dp_eval(c, w, &d);
	c->n = d.n;
	c->z = d.z;
	micro_cwrite(c, mic1_cbus(w), (int32_t)d.c);
}

static int
mic1_boundary(const struct mic1_store *cs, const struct core *c,
    const struct mic1_core *k)
{
	return c->mpc == cs->main1 && k->pending == 0 &&
	    k->mbr_state != MIC1_MBR_RESET && k->mbr_addr == c->pc;
}

int
mic1_cycle(struct mic1_state *st, struct machine *m, uint32_t core)
{
	const struct mic1_store *cs = st->cs;
	struct core *c = &m->cores[core];
	struct mic1_core *k = &st->core[core];
	uint64_t w;
	uint32_t mem, jam, next;
	int32_t mdr1, mar1;
	int fault, nz;

	if (c->status != CORE_RUNNING)
		return 0;
	/* 0: MIR.  An instruction starts where Main1 finds its opcode. */
	if (mic1_boundary(cs, c, k)) {
		c->steps++;
		k->insn_pc = c->pc;
	}
	if (c->mpc >= MIC1_STORE_WORDS || !cs->present[c->mpc]) {
		mic1_fault(st, m, core, FAULT_NO_MICROINSTR);
		return 1;
	}
	c->cycles++;
	w = cs->word[c->mpc];
	k->mir = w;
	mem = mic1_mem(w);
	jam = mic1_jam(w);

	/* 1: datapath. */
	mic1_datapath(c, w);
	mdr1 = c->mdr;
	mar1 = c->mar;

	/* 2: last cycle's memory operations complete. */
	if (k->pending & MIC1_PEND_READ)
		c->mdr = devword_read(m, core, &k->dev, k->mar_latch);
	if (k->pending & MIC1_PEND_FETCH) {
		int byte = machine_fetch_byte(m, core, k->pc_latch);

		c->mbr = byte < 0 ? 0 : byte;
		k->mbr_state = byte < 0 ? MIC1_MBR_INVALID : MIC1_MBR_FETCHED;
		k->mbr_addr = k->pc_latch;
	}
	k->pending = 0;

	/* 3: this cycle's.  A device write may stop the core; the cycle
	 * still completes (a WAITING core resumes after it). */
	if (mem & MIC1_MEM_WRITE) {
		if ((fault = devword_write(m, core, &k->dev, mar1, mdr1)) !=
		    FAULT_NONE) {
			mic1_fault(st, m, core, fault);
			return 1;
		}
	}
	if (mem & MIC1_MEM_READ) {
		if ((fault = devword_read_check(m, core, mar1)) != FAULT_NONE) {
			mic1_fault(st, m, core, fault);
			return 1;
		}
		k->pending |= MIC1_PEND_READ;
		k->mar_latch = mar1;
	}
	if (mem & MIC1_MEM_FETCH) {
		/* A prefetch never faults: the byte's validity is decided
		 * when it arrives. */
		k->pending |= MIC1_PEND_FETCH;
		k->pc_latch = c->pc;
	}

	/* 4: next MPC. */
	nz = ((jam & MIC1_JAM_N) && c->n) || ((jam & MIC1_JAM_Z) && c->z);
	next = mic1_next(w) | (nz ? 1u << MIC1_BIT_NEXT_JAM : 0);
	if (jam & MIC1_JAM_PC) {
		if (k->mbr_state == MIC1_MBR_INVALID) {
			/* "ran past the end of the program", as ref.c says
			 * when it fetches outside the text. */
			mic1_fault(st, m, core, FAULT_PC_RANGE);
			return 1;
		}
		next |= (uint8_t)c->mbr;
	}
	c->mpc = (uint16_t)(next & (MIC1_STORE_WORDS - 1));
	if (c->mpc == MIC1_HALT_MPC && c->status == CORE_RUNNING)
		c->status = CORE_HALTED;
	return 1;
}

int32_t *
mic1_next_store(const struct mic1_state *st, struct machine *m,
    uint32_t core, uint32_t *n)
{
	struct core after = m->cores[core];	/* step 1 runs on a copy */
	uint64_t w;

	*n = 0;
	if (after.mpc >= MIC1_STORE_WORDS || !st->cs->present[after.mpc])
		return NULL;
	w = st->cs->word[after.mpc];
	if (!(mic1_mem(w) & MIC1_MEM_WRITE))
		return NULL;
	/* MAR and MDR as step 1 leaves them (step 2 changes MDR after the
	 * WRITE's value was taken) */
	mic1_datapath(&after, w);
	return devword_write_span(m, core, &st->core[core].dev, after.mar,
	    after.mdr, n);
}

/* ---- switching levels --------------------------------------------------- */

int
mic1_at_boundary(const struct mic1_state *st, const struct machine *m,
    uint32_t core)
{
	return mic1_boundary(st->cs, &m->cores[core], &st->core[core]);
}

void
mic1_writers(const struct mic1_state *st, const struct machine *m,
    const uint8_t *mask, struct engine_writer **v, size_t *n, size_t *cap)
{
	for (uint32_t k = 0; k < m->cfg.ncores; k++) {
		int32_t addr = m->cores[k].mar;

		if ((mask != NULL && !mask[k]) ||
		    !(mic1_mem(st->core[k].mir) & MIC1_MEM_WRITE))
			continue;
		/* the device words that store: the atomic add, NEWARRAY */
		if (addr == MM_DEV_ATOM_ADD)
			addr = st->core[k].atom_addr;
		else if (addr == MM_DEV_NEWARRAY)
			addr = ENGINE_ANY_HEAP_WORD;
		else if (addr < 0)
			continue;
		engine_writer_add(v, n, cap, k, mic1_insn_pc(st, m, k), addr);
	}
}

void
mic1_enter(struct mic1_state *st, struct machine *m, uint32_t core)
{
	struct core *c = &m->cores[core];
	struct mic1_core *k = &st->core[core];
	int byte = machine_fetch_byte(m, core, c->pc);

	c->mpc = st->cs->main1;
	c->mbr = byte < 0 ? 0 : byte;
	k->mbr_state = byte < 0 ? MIC1_MBR_INVALID : MIC1_MBR_FETCHED;
	k->mbr_addr = c->pc;
	k->insn_pc = c->pc;
	k->pending = 0;
	micro_load_tos(m, core);
}

/* The model (micro-sim.h), with mic1_state_init, mic1_state_free,
 * mic1_step, mic1_insn_pc and mic1_leave. */
MICRO_MODEL(mic1_model, mic1, struct mic1_state, struct mic1_store,
    LEVEL_MIC);
