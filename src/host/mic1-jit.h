/*
 * The Mic-1 control store translated into x86-64 code (mic1-jit.c,
 * doc/performance.md section 24.4), which the fast loop of
 * engine-mic1-fast.c runs where it would otherwise call one shape
 * function a cycle: a lone core with nothing watched, and a core's
 * private run in a run-ahead window (micro-ahead.c; doc/performance.md
 * section 24.8).
 *
 * The translation is of (word, pending READ/FETCH set) pairs: the set a
 * word starts with is its predecessor's memory operations, so a word
 * whose successor is a constant (NEXT_ADDRESS, either side of JAMN or
 * JAMZ) jumps straight to that pair's code, and a JMPC through a table
 * of the 512 words' code for the set it leaves.  The registers of the
 * core live in host registers while it runs; struct mic1_jx carries
 * them in and out.
 *
 * The code runs only cycles the interpreter's fast path would run
 * (engine-mic1-fast.c's MF1_CYCLE) and leaves, with the state written
 * back as it was at the start of that cycle, before anything else: a
 * word it does not translate (mic1_jit_create's ok), a trapped word
 * (mic1_jit_traps), the halt word, a READ of a word that is neither
 * one of the core's stack (swords) nor of its constant pool, a WRITE of
 * a word that is not one of its stack below wwords, a FETCH outside the
 * text, or the end of the budget.  The caller then runs that cycle its
 * own way.  A lone core may write its whole stack (wwords = swords); a
 * private run only the part the window copied (wwords = pw), so that a
 * WRITE above it stops the run as micro_fast.ahead's path does.  It is
 * entered only with MBR fetched (the MBR state MIC1_MBR_FETCHED, MBR its
 * byte) and a pending READ's word known (in a private run, a word it may
 * read), which it keeps so.
 *
 * Private runs run on several threads at once: a run writes only its
 * struct mic1_jx, its core's stack below wwords and, at each entry, its
 * thread's slot of the count of cycles (mic1_jit_cycles, par.h's
 * par_count); the code and its tables are only
 * read, and change (mic1_jit_traps) only between windows.
 *
 * None of it exists off x86-64 or where executable memory is refused:
 * mic1_jit_create returns NULL and the interpreter runs.
 */
#ifndef MICDB_MIC1_JIT_H
#define MICDB_MIC1_JIT_H

#include <stdint.h>

#include "mic1-enc.h"

/* A core as the translated code takes and leaves it. */
struct mic1_jx {
	uint32_t	 h, mar, mdr, pc, sp, lv, tos, opc, cpp;
	uint32_t	 mbru;       /* MBR's byte (MBR is its sign extension) */
	uint32_t	 out;        /* the last cycle's ALU output (N, Z) */
	int32_t		 pc_latch, mar_latch, mbr_addr, insn_pc;
	int32_t		 last;       /* out: the last word run, -1: none */
	uint32_t	 mpc;        /* in: where to start; out: where it
					stopped (MIC1_HALT_MPC: halted) */
	uint32_t	 pend;       /* MIC1_PEND_* at mpc */
	int32_t		*rdp;        /* the pending READ's word */
	int32_t		*stack;      /* the core's stack (NULL: none) */
	const int32_t	*cp;         /* its program's constant pool */
	const uint8_t	*text;
	uint32_t	 swords;     /* stack words (0 with no stack) */
	uint32_t	 cpsize;     /* constant pool words */
	uint32_t	 tsize;      /* text bytes */
	uint32_t	 wwords;     /* stack words it may write (<= swords) */
	uint64_t	 left;       /* in: cycles allowed (>= 1); out: left */
	uint64_t	 steps;      /* out: instruction boundaries passed */
};

struct mic1_jit;

/* Translate the words of store cs for which ok[a] (MIC1_STORE_WORDS
 * entries) is set; NULL where no code can run (off x86-64, executable
 * memory refused, out of memory), and the caller interprets. */
struct mic1_jit *mic1_jit_create(const struct mic1_store *cs,
	    const uint8_t *ok);
void	 mic1_jit_free(struct mic1_jit *j);
/* Leave the code at the words with trap[a] set, enter it again at those
 * without: 0, or -1 when the code could not be patched (then it must not
 * run again: free it). */
int	 mic1_jit_traps(struct mic1_jit *j, const uint8_t *trap);
/* Run x's core from x->mpc with pending set x->pend (x->left >= 1
 * cycles at most): the cycles run. */
uint64_t mic1_jit_run(const struct mic1_jit *j, struct mic1_jx *x);
/* The cycles the translated code of every translation ran so far in
 * this process (the tests' proof that it ran). */
uint64_t mic1_jit_cycles(void);

#endif
