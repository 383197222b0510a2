/*
 * The Mic-1 micro-architecture (doc/mic1.md): the C simulator that is
 * the golden model of the micro level (one micro-cycle of one core with
 * the book's memory timing).  The word and the control store it runs are
 * mic1-enc.h's (src/core).
 *
 * The simulator steps the same struct machine as the reference
 * interpreter: registers, MPC, N and Z live in struct core, memory goes
 * through machine_read_word/machine_write_word.  What struct core has no
 * field for yet - the READ/FETCH in flight, where MBR came from, the
 * device-word latches - lives in struct mic1_state, one struct mic1_core
 * per core, owned by whoever drives the level (the mic engine).  Those
 * fields are machine state, not simulator bookkeeping: a checkpoint or a
 * context buffer must carry them.
 */
#ifndef MICDB_MIC1_H
#define MICDB_MIC1_H

#include <stddef.h>
#include <stdint.h>

#include "devword.h"
#include "machine.h"
#include "mic1-enc.h"
#include "ref.h"
#include "util.h"

/* ---- the simulator ---------------------------------------------------- */

/* A READ or FETCH in flight (mic1_core.pending). */
#define MIC1_PEND_READ		0x1
#define MIC1_PEND_FETCH		0x2

/* Where MBR's byte came from (mic1_core.mbr_state). */
enum mic1_mbr {
	MIC1_MBR_RESET = 0,   /* never fetched: the start value 0, dispatchable */
	MIC1_MBR_FETCHED,     /* fetched from text byte mbr_addr */
	MIC1_MBR_INVALID,     /* fetched from outside the text: reads 0,
				 dispatching on it faults */
};

/*
 * Per-core state of the micro level that struct core has no field for.
 * Everything here is architectural (it changes what the core does next),
 * so it belongs in struct core eventually; see the report to the lead.
 */
struct mic1_core {
	int32_t		mar_latch;   /* MAR when the pending READ was issued */
	int32_t		pc_latch;    /* PC when the pending FETCH was issued */
	int32_t		mbr_addr;    /* byte address MBR was fetched from */
	int32_t		insn_pc;     /* PC at the last instruction boundary:
					the ISA instruction being executed,
					reported as fault_pc */
	DEV_LATCH_MEMBER;            /* devices -7, -8, -9 (devword.h) */
	uint8_t		pending;     /* MIC1_PEND_* in flight */
	uint8_t		mbr_state;   /* enum mic1_mbr */
	uint64_t	mir;         /* the last micro-instruction executed */
};

/* The micro level of one machine: the control store (not owned) and the
 * per-core side state (owned). */
struct mic1_state {
	const struct mic1_store	*cs;
	struct mic1_core	*core;     /* ncores entries */
	uint32_t		 ncores;
};

/* Side state for m's cores, all cleared (as after mic1_start_core). */
void	mic1_state_init(struct mic1_state *st, const struct machine *m,
	    const struct mic1_store *cs);
void	mic1_state_free(struct mic1_state *st);

/*
 * The micro level's start state of a core that machine_reset_core put at
 * the start of main (doc/mic1.md section 4): MPC 0, PC -1, MBR 0, nothing in
 * flight.  The microprogram's word 0 then reaches Main1, whose fetch
 * reads main's first opcode.
 */
void	mic1_start_core(struct mic1_state *st, struct machine *m,
	    uint32_t core);

/*
 * One micro-cycle of one RUNNING core, in the order of doc/mic1.md section 1:
 * MIR = store[MPC]; B bus; ALU; shifter; (1) C-bus writes; (2) the READ
 * or FETCH issued in the previous cycle completes (MDR <- mem[latched
 * MAR], MBR <- text[latched PC]); (3) a WRITE stores MDR at MAR (values
 * after step 1) and this cycle's READ/FETCH is issued, latching MAR/PC
 * after step 1; next MPC.  The B bus and ALU see MBR as held at the start
 * of the cycle (so goto3's H = MBR << 8 sees the byte fetched two cycles
 * earlier); JMPC ORs in MBR after step 2 (so wide1's goto (MBR OR 0x100)
 * dispatches on the byte that Main1 fetched).
 *
 * Faults (status ERROR, fault_pc = insn_pc): an absent word
 * (FAULT_NO_MICROINSTR), a READ or WRITE outside the memory map or of a
 * device word that does not take it, a WRITE to the constant pool
 * (FAULT_MEM_RANGE), JMPC on an invalid MBR (FAULT_PC_RANGE), the device
 * words' own faults.  A faulting cycle stops where it is: MPC stays at
 * the faulting word.  A core whose MPC becomes MIC1_HALT_MPC is HALTED.
 *
 * Returns 1 if the core ran a cycle (or faulted trying), 0 if it was not
 * RUNNING.
 */
int	mic1_cycle(struct mic1_state *st, struct machine *m, uint32_t core);
/* The words core's next mic1_cycle may store to (*n of them from the
 * result; 0: none): its WRITE's word, or what the device word it writes
 * changes (devword_write_span). */
int32_t	*mic1_next_store(const struct mic1_state *st, struct machine *m,
	    uint32_t core, uint32_t *n);

/* One global micro-step: a cycle of every RUNNING core allowed by mask,
 * in core order, then the barrier rule of ref_barrier_release; like
 * ref_step, m->step counts it.  sum may be NULL. */
void	mic1_step(struct mic1_state *st, struct machine *m,
	    const struct ref_mask *mask, struct ref_summary *sum);

/*
 * The core is at an ISA instruction boundary (doc/mic1.md section 2): MPC is
 * Main1, nothing is in flight, and MBR holds the byte fetched from
 * address PC.  The last condition is what "MBR holds the opcode at PC"
 * means; it excludes the start state (PC -1, MBR never fetched).
 */
int	mic1_at_boundary(const struct mic1_state *st, const struct machine *m,
	    uint32_t core);
/* The ISA instruction core is executing, as the debugger names it: the
 * PC of its last boundary inside an instruction, else PC (0 from the
 * start state, PC -1, on the way to main's first opcode). */
int32_t	mic1_insn_pc(const struct mic1_state *st, const struct machine *m,
	    uint32_t core);
/*
 * The stores of the step just run, as a watchpoint names its writers
 * (append to *v, *n entries, room for *cap): every core of mask (NULL:
 * all) whose last micro-instruction (MIR) had WRITE, with its
 * instruction's PC and the word, MAR - the atomic add's word for its
 * device, ENGINE_ANY_HEAP_WORD for NEWARRAY's, none for another device.
 * The debugger's one-step watch and the native engine that watches
 * itself (engine-micro.c) share it, so that both name the same cores.
 */
struct engine_writer;
void	mic1_writers(const struct mic1_state *st, const struct machine *m,
	    const uint8_t *mask, struct engine_writer **v, size_t *n,
	    size_t *cap);
/* ISA -> micro: MPC = Main1, MBR = text[PC], TOS = mem[SP], nothing in
 * flight.  Any core; an ISA core is always at a boundary. */
void	mic1_enter(struct mic1_state *st, struct machine *m, uint32_t core);
/* Micro -> ISA: TOS = mem[SP].  0, or -1 when a RUNNING or WAITING core
 * is not at a boundary (run it to one first). */
int	mic1_leave(struct mic1_state *st, struct machine *m, uint32_t core);

/* The ALU of a micro-instruction's ALU bits (SLL8 .. INC) over H and the
 * B bus: the function of F0 F1 on A = ENA ? H : 0 (inverted by INVA) and
 * B = ENB ? bus : 0, plus INC whatever the function (doc/mic1.md
 * section 1); and the shifter after it.  The golden model's and the
 * datapath pane's one definition. */
uint32_t	mic1_alu_eval(uint32_t alu, uint32_t h, uint32_t bus);
uint32_t	mic1_shifter(uint32_t alu, uint32_t v);

/* Step 1 of a cycle of word w on core c's registers as they are before
 * it: the ALU's inputs (A is H, B the B bus), its output with N and Z,
 * and the shifter's output that the C bus carries.  The golden model's
 * cycle and the VCD trace's datapath signals (doc/debugger.md section
 * 5) both take it from here. */
struct mic1_dp {
	uint32_t	a, b, out, c;
	uint8_t		n, z;
};
void	mic1_dp_eval(const struct core *c, uint64_t w, struct mic1_dp *d);

#endif
