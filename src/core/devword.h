/*
 * The device words of the memory map (doc/mic1.md section 4, memmap.h) and
 * the word READ/WRITE of a micro level, in one place for every level
 * that drives them: the Mic-1 simulator (mic1.c), the PMIC simulator
 * (pmic-sim.c) and, for the console and the atomic add, the reference
 * interpreter (ref.c).  kernels/mic.cl mirrors this file cycle for cycle;
 * a change of meaning here is a change there too.
 *
 * The device words keep three latches per core between accesses
 * (struct dev_latch).  They are machine state: a context buffer or a
 * checkpoint carries them.
 */
#ifndef MICDB_DEVWORD_H
#define MICDB_DEVWORD_H

#include <stdint.h>

#include "machine.h"

struct dev_latch {
	int32_t		new_ref;     /* device -7: last allocated array */
	int32_t		atom_addr;   /* device -8: latched word address */
	int32_t		atom_old;    /* device -9: old value of the last add */
};

/*
 * The latches as a member of a level's per-core struct: reachable as a
 * whole (k->dev, what this file takes) and by field (k->new_ref), the
 * spelling the OpenCL engine's host code and its tests use.  One layout
 * either way: a union of a struct and an anonymous struct of the same
 * three words (C11 anonymous members).
 */
#define DEV_LATCH_MEMBER						\
	union {								\
		struct dev_latch dev;					\
		struct {						\
			int32_t new_ref;				\
			int32_t atom_addr;				\
			int32_t atom_old;				\
		};							\
	}

/*
 * May core READ addr?  FAULT_NONE, or FAULT_MEM_RANGE for a word outside
 * the map or a device word that does not take a read.  Checked when the
 * READ is issued; devword_read completes it (the same cycle at the PMIC
 * level, the next one at the Mic-1 level).
 */
int	devword_read_check(const struct machine *m, uint32_t core,
	    int32_t addr);
/* The word at an address devword_read_check accepted, with the device's
 * side effect (the console consumes a byte). */
int32_t	devword_read(struct machine *m, uint32_t core,
	    const struct dev_latch *d, int32_t addr);
/* READ in one go: devword_read_check, then devword_read.  FAULT_NONE
 * with *v, or the fault. */
int	devword_read_now(struct machine *m, uint32_t core,
	    const struct dev_latch *d, int32_t addr, int32_t *v);

/*
 * WRITE of v at addr.  FAULT_NONE, or the fault the level must raise at
 * the instruction being executed: FAULT_MEM_RANGE (outside the map, the
 * constant pool, a read-only device word), FAULT_STACK_OVERFLOW (a write
 * just past the stack region: a push or a frame that did not fit, as
 * the ISA level says), the allocation's and the atomic add's faults,
 * and for the error-stop word the fault its value names
 * (FAULT_ERR_DEVICE when it names none).  The halt and barrier words
 * change the core's status (HALTED, WAITING; ref_barrier_release makes
 * a WAITING core RUNNING again).
 */
int	devword_write(struct machine *m, uint32_t core, struct dev_latch *d,
	    int32_t addr, int32_t v);
/* The words devword_write(m, core, d, addr, v) may change, *n of them
 * from the result (0: none): the word at addr, the atomic add's word,
 * an allocation's header and elements; not the device latches, status,
 * console or heap_top. */
int32_t	*devword_write_span(struct machine *m, uint32_t core,
	    const struct dev_latch *d, int32_t addr, int32_t v, uint32_t *n);

/* Console input: the next byte, or 0 when none is pending. */
int32_t	devword_console_in(struct machine *m, uint32_t core);
/* Console output of the low byte of v. */
void	devword_console_out(struct machine *m, uint32_t core, int32_t v);
/* mem[addr] += v (wrapping), *old the value before.  FAULT_NONE or the
 * fault of reading or writing addr (nothing changes then). */
int	devword_atomic_add(struct machine *m, uint32_t core, int32_t addr,
	    int32_t v, int32_t *old);

#endif
