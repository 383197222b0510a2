/*
 * The PMIC simulator, the golden model of the PMIC level (doc/pmic.md):
 * the per-core state struct core has no field for and one cycle of one
 * core (pmic-sim.c).  The encoding and the control store it runs are
 * pmic-enc.h's (src/core).
 */
#ifndef MICDB_PMIC_H
#define MICDB_PMIC_H

#include <stddef.h>
#include <stdint.h>

#include "devword.h"
#include "machine.h"
#include "pmic-enc.h"
#include "ref.h"
#include "util.h"

/* ---- the simulator ---------------------------------------------------- */

/*
 * Per-core state of the PMIC level that struct core has no field for.
 * G0, G1 and the MBR validity are architectural; the device latches are
 * as in mic1_core.  struct core's mbr holds the 4 fetched bytes, MBR0 in
 * bits 31..24.
 */
struct pmic_core {
	int32_t		g0, g1;
	int32_t		mbr_addr;    /* byte address of MBR0 */
	int32_t		insn_pc;     /* PC of the ISA instruction running */
	DEV_LATCH_MEMBER;            /* devices -7, -8, -9 (devword.h) */
	uint8_t		mbr_valid;   /* bit i: MBRi came from the text */
	uint8_t		entry;       /* MPC was reached by a dispatch */
};

struct pmic_state {
	const struct pmic_store	*cs;
	struct pmic_core	*core;     /* ncores entries */
	uint32_t		 ncores;
};

void	pmic_state_init(struct pmic_state *st, const struct machine *m,
	    const struct pmic_store *cs);
void	pmic_state_free(struct pmic_state *st);

/* MBRi of a core (i 0..3), zero-extended. */
static inline uint32_t
pmic_mbr_byte(const struct core *c, int i)
{
	return ((uint32_t)c->mbr >> (24 - 8 * i)) & 0xFF;
}

/*
 * The start state of a core that machine_reset_core put at the start of
 * main: the instruction boundary for PC = 0 (pmic_enter).
 */
void	pmic_start_core(struct pmic_state *st, struct machine *m,
	    uint32_t core);

/*
 * One cycle of one RUNNING core (order above).  Faults (status ERROR,
 * fault_pc = the ISA instruction's PC): an absent word
 * (FAULT_NO_MICROINSTR), a READ or WRITE outside the map or of a device
 * word that does not take it (FAULT_MEM_RANGE; FAULT_STACK_OVERFLOW for
 * a write just past the stack region), JMPC on an invalid MBR0
 * (FAULT_PC_RANGE), the device words' own faults.  A faulting cycle
 * leaves MPC at the faulting word.  Returns 1 if the core ran (or
 * faulted), 0 if it was not RUNNING.
 */
int	pmic_cycle(struct pmic_state *st, struct machine *m, uint32_t core);
/* The compute units of word mi on core (c, k) as they are before the
 * cycle: each unit's A and B bus and its result (all 0 for a unit
 * without EN).  The golden model's cycle and the VCD trace's datapath
 * signals (doc/debugger.md section 5) both take them from here. */
struct pmic_dp {
	uint32_t	a[PMIC_NCU], b[PMIC_NCU], out[PMIC_NCU];
};
void	pmic_units_eval(const struct core *c, const struct pmic_core *k,
	    uint32_t core, const struct pmic_mi *mi, struct pmic_dp *d);
/* The words core's next pmic_cycle may store to (*n of them from the
 * result; 0: none), as mic1_next_store. */
int32_t	*pmic_next_store(const struct pmic_state *st, struct machine *m,
	    uint32_t core, uint32_t *n);
/* One global step: a cycle of every RUNNING core allowed by mask, then
 * the barrier rule; m->step counts it.  sum may be NULL. */
void	pmic_step(struct pmic_state *st, struct machine *m,
	    const struct ref_mask *mask, struct ref_summary *sum);

/* At an ISA instruction boundary: MPC was reached by a dispatch, MPC ==
 * MBR0 (valid), and MBR0 is the byte at PC. */
int	pmic_at_boundary(const struct pmic_state *st, const struct machine *m,
	    uint32_t core);
/* The ISA instruction core is executing (mic1_insn_pc). */
int32_t	pmic_insn_pc(const struct pmic_state *st, const struct machine *m,
	    uint32_t core);
/* ISA -> PMIC: MPC = MBR0, MBR = the 4 bytes at PC, TOS = mem[SP]. */
void	pmic_enter(struct pmic_state *st, struct machine *m, uint32_t core);
/* PMIC -> ISA: TOS = mem[SP].  0, or -1 when a RUNNING or WAITING core
 * is not at a boundary. */
int	pmic_leave(struct pmic_state *st, struct machine *m, uint32_t core);

#endif
