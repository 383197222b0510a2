/*
 * The native ISA engine's translation of a program into x86-64 code
 * (native-jit.c; doc/performance.md sections 24.6 and 24.10), as nat_exec
 * uses it: built for a program when a run first needs it, run for a
 * core's own run or a window's private run (nothing watched, no
 * fork-join), and left with the core's registers written back exactly
 * wherever it stops.
 */
#ifndef MICDB_NATIVE_JIT_H
#define MICDB_NATIVE_JIT_H

#include <stddef.h>
#include <stdint.h>

struct nat_prog;
struct nat_jit;

/* What the translated code reads on entry and writes back on exit. */
struct nat_jctx {
	uintptr_t	stk;      /* the address stack word 0 would have */
	uint64_t	left;     /* steps left in the budget */
	int32_t		sp, lv, tos;
	int32_t		floor1;   /* the frame's floor + 1 */
	int32_t		nlocals;  /* the frame's local count */
	int32_t		pc;       /* the slot it starts at, then stopped at */
	int32_t		end;      /* the last stack word a store may touch:
				     the region's, or a private run's copy */
};

/* np's translation (np->jit) built if there is none yet and none was
 * refused, as its slots' handlers are now (a patched breakpoint is a
 * stop), for frames whose main has main_nlocals locals in stacks of
 * stack_words words; 1 if np->jit is there (none off x86-64, where
 * executable memory is refused, or out of memory: np->nojit).  Private
 * runs may run at the same time and never build it: nat_ahead calls
 * this before the window. */
int	nat_jit_ready(struct nat_prog *np, uint32_t main_nlocals,
	    uint32_t stack_words);
/* 1 if j stops at exactly the slots np's breakpoints patch now (nbps:
 * the run's breakpoints; none, and none when j was built, is quick). */
int	nat_jit_fits(const struct nat_jit *j, const struct nat_prog *np,
	    size_t nbps);
/* Run from x->pc for at most x->left steps (x->left >= 1, sp and the
 * frame valid: nat_exec checks); it stops before an instruction it does
 * not translate, whose checks fail, or at the budget's end. */
void	nat_jit_run(const struct nat_jit *j, struct nat_jctx *x);
/* The steps translated code ran, all translations together (the
 * tests' proof that it did). */
uint64_t nat_jit_steps(void);
void	nat_jit_free(struct nat_jit *j);

#endif
