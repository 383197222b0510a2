/*
 * The reference interpreter: the golden model every kernel is checked
 * against.  Plain, readable, single-threaded C over struct machine.
 *
 * A global step runs one ISA instruction (WIDE and its instruction are
 * one) on every RUNNING core, in core-id order; then, if no core is left
 * RUNNING and some are WAITING at a barrier, the barrier completes and
 * they all become RUNNING for the next step.  Halted and faulted cores do
 * not count for a barrier.  A core that faults stops alone; the others go
 * on.
 *
 * Fork-join (forkjoin.h, doc/manycore.md section 1): a core that returns
 * from its forked method into main becomes CORE_JOINING.  It does not
 * count for a barrier, as a halted core; the join completes at the end
 * of a step in which no core is left RUNNING or WAITING at a barrier and
 * some are JOINING: they all become RUNNING for the next step.  So the
 * join waits for every core that has neither halted nor faulted to come
 * back from its fork, a core whose fork is still ahead included; it
 * depends on nothing but the machine's state at step boundaries.
 *
 * Faults (doc/ijvm.md section 3) leave the core's registers as they were
 * before the faulting instruction, with status CORE_ERROR, fault, fault_pc
 * and fault_op set.
 */
#ifndef MICDB_REF_H
#define MICDB_REF_H

#include <stdint.h>

#include "engine.h"
#include "machine.h"

/* Execute one instruction on one RUNNING core (no barrier release).
 * Returns 1 if it executed, 0 if the core was not RUNNING. */
int	ref_exec(struct machine *m, uint32_t core);
/* One global step (see above); the summary may be NULL. */
void	ref_step(struct machine *m, const struct ref_mask *mask,
	    struct ref_summary *sum);
/* Complete a barrier if every running core waits, else the join if no
 * core runs or waits at a barrier; returns 1 if it did either. */
int	ref_barrier_release(struct machine *m);
/*
 * The end of a host engine's step (or window of steps), the same for
 * every level: when a status changed (*changed) or no core ran (ran 0:
 * the barrier or the join may be what they all wait on) the barrier
 * release, after which a core it lets go may stand at a breakpoint, and
 * sum counted again (*changed set); then engine_step_stop's rules with
 * executed, faulted (sum->faulted before the step), seen, atbp and on.
 * Returns 1 when the run stops (stop->reason set).
 */
int	ref_step_end(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, struct ref_summary *sum, int *changed,
	    int ran, uint32_t executed, uint32_t faulted, uint8_t *seen,
	    int atbp, enum engine_bp_on on);
/* Fork-join: whether the instruction at the core's PC is one whose
 * effect the model changes (an INVOKEVIRTUAL in main, or the IRETURN of
 * the core's forked method into main); the micro levels let the machine
 * carry those out (micro-sim.c). */
int	ref_fork_insn(const struct machine *m, uint32_t core);
/* Stop a core with a fault at the instruction at pc; nothing else of the
 * core changes.  The micro levels stop a core so too, at the ISA
 * instruction its microcode is executing. */
void	ref_fault(struct machine *m, uint32_t core, int fault, int32_t pc);

/*
 * The frame rules that the ISA level checks, shared with the debugger
 * (frames pane) and the kernels' tests.  floor: the word address below
 * which a pop may not go (the operand stack of the current frame is
 * floor+1 .. SP).  nlocals: locals of the current frame.  Both return -1
 * when the frame's link pointer lies outside the stack region.
 */
int	ref_frame_floor(const struct machine *m, uint32_t core, int32_t *floor);
int	ref_frame_nlocals(const struct machine *m, uint32_t core,
	    int32_t *nlocals);
/* Both of the frame whose local 0 is at lv (the core's LV or one an
 * engine keeps in a register): the definition every engine uses. */
int	ref_frame_at(const struct machine *m, uint32_t core, int32_t lv,
	    int32_t *floor, int32_t *nlocals);

#endif
