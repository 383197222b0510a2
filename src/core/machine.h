/*
 * The architectural state of an emulated many-core machine (doc/manycore.md,
 * doc/mic1.md sections 1 and 4), shared by every execution level: the
 * reference interpreter, the micro levels' simulators (mic1.c,
 * pmic-sim.c) and the native engines step its registers and memory, and
 * the OpenCL engines convert their context buffer into it.
 *
 * Memory is one map for all levels (memmap.h): the programs' text and
 * constant pools (read-only), one private stack region per core, the
 * shared globals and heap, and per-core device words.  All accesses that a
 * program can steer go through machine_read_word/machine_write_word, which
 * return a fault code instead of touching anything outside the map.
 *
 * A machine owns its stacks, globals, heap and I/O buffers; the programs
 * belong to the caller and must outlive the machine.
 */
#ifndef MICDB_MACHINE_H
#define MICDB_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include "forkjoin.h"
#include "memmap.h"
#include "program.h"
#include "util.h"

enum core_status {
	CORE_RUNNING = 0,   /* executes when stepped */
	CORE_HALTED  = 1,   /* HALT (or the halt device word) */
	CORE_ERROR   = 2,   /* faulted; see fault and fault_pc */
	CORE_WAITING = 3,   /* arrived at a BARRIER, waits for the others */
	CORE_JOINING = 4,   /* fork-join: back in main from its forked
			       method, waits at the join (forkjoin.h) */
};
#define CORE_NSTATUS 5

/* One core's registers.  MBR holds the byte 0..255; MBR (signed) and MBRU
 * views derive from it.  H, OPC, MAR, MDR are scratch at the ISA level. */
struct core {
	int32_t		pc;        /* byte address of the next opcode */
	int32_t		sp;        /* word address of the top of stack */
	int32_t		lv;        /* word address of local 0 */
	int32_t		cpp;       /* constant pool, always MM_CPP */
	int32_t		tos;       /* caches mem[sp] after every instruction */
	int32_t		opc;
	int32_t		h;
	int32_t		mar;
	int32_t		mdr;
	int32_t		mbr;
	uint16_t	mpc;       /* micro levels */
	uint8_t		n, z;      /* micro-level ALU flags */
	uint8_t		status;    /* enum core_status */
	uint8_t		fault;     /* enum ijvm_fault, FAULT_NONE unless ERROR */
	uint16_t	prog;      /* index into machine.progs */
	int32_t		fault_pc;  /* PC of the faulting instruction */
	uint8_t		fault_op;  /* its opcode (0 when it could not be read) */
	uint64_t	steps;     /* instructions this core retired */
	uint64_t	cycles;    /* micro-cycles this core ran */
	uint32_t	fork;      /* fork-join state (forkjoin.h), 0 in SPMD */
};

struct machine_config {
	uint32_t	ncores;       /* 1 .. */
	uint32_t	stack_words;  /* private stack region per core */
	uint32_t	heap_words;   /* shared heap */
	uint32_t	warp_width;   /* 1 .. 64, for divergence records */
};

/* Console I/O of one core: input not yet consumed, output not yet taken. */
struct core_io {
	uint8_t		*in;
	size_t		 in_len;
	size_t		 in_pos;
	struct buf	 out;
};

struct machine {
	struct machine_config	 cfg;
	const struct program	**progs;    /* not owned */
	size_t			 nprogs;
	struct core		*cores;     /* cfg.ncores */
	int32_t			*stacks;    /* ncores * stack_words */
	size_t			 stacks_bytes;  /* mapped (machine.c) */
	int32_t			*globals;   /* MM_GLOBALS_WORDS */
	int32_t			*heap;      /* heap_words */
	uint32_t		 heap_top;  /* words of heap allocated */
	struct core_io		*io;        /* per core */
	uint64_t		 step;      /* global steps executed */
	int			 fork_join; /* every core runs under the
					       fork-join model */
};

/*
 * Set up a machine with every core at the start of main.  core_prog[i]
 * names core i's program (NULL: all cores run progs[0]).  0, or -1 with
 * *cause (e.g. not enough memory for the stacks).
 */
int	 machine_init(struct machine *m, const struct machine_config *cfg,
	    const struct program **progs, size_t nprogs,
	    const uint16_t *core_prog, char **cause);
void	 machine_free(struct machine *m);
/* Warps of the machine: cores in groups of cfg.warp_width, the last
 * one partial when the width does not divide the cores. */
uint32_t machine_nwarps(const struct machine *m);
/* Put every core under the fork-join model (doc/manycore.md section 1,
 * forkjoin.h), from the start: right after machine_init. */
void	 machine_fork_join(struct machine *m);
/* Put a core back at the start of its program (registers and stack). */
void	 machine_reset_core(struct machine *m, uint32_t core);

/* Words in use of w[0 .. n - 1]: the index past the last non-zero one
 * (a stack, globals or heap cut to what a snapshot must keep). */
uint32_t machine_words_used(const int32_t *w, uint32_t n);

/* The words in use of every core's stack into used[] (ncores of
 * them), reading only the pages that were ever written where the system
 * can tell which (mincore): snapshots, checkpoints and uploads of a
 * million mostly unused stacks cost what is used. */
void	 machine_stacks_used(const struct machine *m, uint32_t *used);

/* Append bytes to a core's pending input. */
void	 machine_add_input(struct machine *m, uint32_t core,
	    const uint8_t *data, size_t len);
/* Next input byte of a core, or -1 when none is pending. */
int	 machine_take_input(struct machine *m, uint32_t core);

/*
 * Word access by any level, through the memory map.  Returns FAULT_NONE or
 * FAULT_MEM_RANGE; device words are not handled here (they have side
 * effects that belong to the level that drives them).
 */
int	 machine_read_word(const struct machine *m, uint32_t core,
	    int32_t addr, int32_t *val);
int	 machine_write_word(struct machine *m, uint32_t core, int32_t addr,
	    int32_t val);
/* Text byte of a core's program; -1 when addr is outside the text. */
int	 machine_fetch_byte(const struct machine *m, uint32_t core,
	    int32_t addr);

/* Allocate an array of n words on the shared heap: its reference, or 0
 * with *fault set (FAULT_ARRAY_SIZE, FAULT_HEAP_FULL). */
int32_t	 machine_new_array(struct machine *m, int32_t n, int *fault);
/* Check ref and index; on success *word_addr is the element's word
 * address.  Returns FAULT_NONE, FAULT_ARRAY_REF or FAULT_ARRAY_BOUNDS. */
int	 machine_array_elem(const struct machine *m, int32_t ref, int32_t i,
	    int32_t *word_addr);

/*
 * Word address -> storage, or NULL outside the regions this core may
 * use.  Offsets are computed in 64 bits so no address can wrap into a
 * region.  *writable is 0 for the constant pool.  Inline, so that the
 * host engines' fast paths (engine-mic1-fast.c) use the map itself.
 */
static inline int32_t *
machine_word_at(const struct machine *m, uint32_t core, int32_t addr,
    int *writable)
{
	const struct program *p = m->progs[m->cores[core].prog];
	int64_t a = addr;

	*writable = 1;
	if (a >= MM_CPP && a < (int64_t)MM_CPP + p->cp_size) {
		*writable = 0;
		return &p->cp[a - MM_CPP];
	}
	if (a >= MM_STACK_BASE && a < (int64_t)MM_STACK_BASE +
	    m->cfg.stack_words)
		return &m->stacks[(size_t)core * m->cfg.stack_words +
		    (size_t)(a - MM_STACK_BASE)];
	if (a >= MM_GLOBALS_BASE && a < (int64_t)MM_GLOBALS_BASE +
	    MM_GLOBALS_WORDS)
		return &m->globals[a - MM_GLOBALS_BASE];
	if (a >= MM_HEAP_BASE && a < (int64_t)MM_HEAP_BASE + m->cfg.heap_words)
		return &m->heap[a - MM_HEAP_BASE];
	return NULL;
}

/* Stack word of a core by word address (no checks: callers check). */
static inline int32_t *
machine_stack_word(struct machine *m, uint32_t core, int32_t addr)
{
	return &m->stacks[(size_t)core * m->cfg.stack_words +
	    (uint32_t)(addr - MM_STACK_BASE)];
}

/*
 * A step's core mask and its summary: what every engine's step takes and
 * reports (engine.h), defined here, beside the core states it counts, so
 * that the engine contract does not depend on the reference interpreter
 * (ref.h, src/model) whose names they carry.
 */
/* Which cores a step may run: all, or only those with mask[core] != 0
 * (the debugger's scheduler locking); the others keep their state. */
struct ref_mask {
	const uint8_t	*mask;   /* NULL: every core */
};

/* Counts after a step. */
struct ref_summary {
	uint32_t	running;
	uint32_t	waiting;
	uint32_t	halted;
	uint32_t	faulted;
	uint32_t	joining;    /* fork-join: at the join */
	uint32_t	executed;   /* cores that executed an instruction */
};

/* Count cores by status (executed left 0). */
void	ref_count(const struct machine *m, struct ref_summary *sum);

#endif
