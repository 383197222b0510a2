/*
 * The PMIC control store translated into x86-64 machine code
 * (doc/performance.md section 24.5), for the fast loop of
 * engine-pmic-fast.c: the record that loop and the translated code
 * share, and the translation's four calls.
 *
 * The loop keeps a core's state in one record (struct mfp_x: the
 * register file as the A and B fields number it, N, Z and the side
 * state).  The translated code runs from a word on, many cycles, with
 * the most used registers in host registers, and returns before the
 * first word it does not run - one with a trap (a breakpoint, an absent
 * word), a memory operation outside the core's stack and constant pool,
 * a WRITE above the stack words it may write, a FETCH at or past the
 * end of the text, or the end of the budget - with the record written
 * back as the loop would have left it there: the loop then runs that
 * word itself.  Where no executable memory can be had (not x86-64, a
 * kernel that refuses PROT_EXEC) the loop alone runs (pmic_jit_usable).
 *
 * The same code runs a lone core and a run-ahead window's private runs
 * (micro-ahead.c), on several threads at once: those may write only
 * the stack words below the window's pw, so the words it may write are
 * the caller's to say, and the translation is made beforehand on the
 * calling thread (pmic_jit_prepare), since a private run must not
 * translate (pmic_jit_ready).
 */
#ifndef MICDB_PMIC_JIT_H
#define MICDB_PMIC_JIT_H

#include <stdint.h>

#include "micro-fast.h"
#include "pmic.h"

/* The register file: enum pmic_reg's numbers, 24..31 reading 0, then
 * a sink that the unused first two C slots of a unit write. */
#define MFP_ZERO	31	/* reads 0: a sum's unused input */
#define MFP_SINK	32
#define MFP_NREG	33

/* C field bit i's register (enum pmic_cbit to enum pmic_reg). */
extern const uint8_t pmic_jit_creg[PMIC_NC];

/* What the translated code reads and writes besides the registers: set
 * by pmic_jit_run around each call. */
struct pmic_jit_io {
	int32_t		*stack;     /* the core's stack (swords 0: none) */
	const int32_t	*cp;        /* its program's constant pool */
	const uint8_t	*text;
	uint64_t	 left;      /* the budget, in and out */
	uint32_t	 swords, cpsize;
	uint32_t	 wwords;    /* a WRITE below this stack word */
	uint32_t	 flim;      /* a FETCH at PC <= flim reads 4 bytes */
	uint32_t	 nz;        /* N and Z as a value CU0 gives them */
	uint32_t	 mpc;       /* out: the word not run */
};

/* A core's state while the loop runs it, in one record that the loop,
 * the shape functions and the translated code share
 * (engine-mic1-fast.c's struct mf1_x). */
struct mfp_x {
	uint32_t	 R[MFP_NREG];
	uint32_t	 n, z, valid, entry;
	int32_t		 mbr_addr, insn_pc;
	struct micro_fast_ctx	 u;         /* what it looks up */
	struct pmic_jit_io	 j;
};

struct pmic_jit;

/* The translation of cs (not owned; must outlive it) with the words
 * whose trap bits trapped[a] (MF_TRAP_*) say so left to the loop, made
 * at its first run, or NULL off x86-64. */
struct pmic_jit *pmic_jit_new(const struct pmic_store *cs,
	    const uint8_t *trapped);
void	 pmic_jit_free(struct pmic_jit *j);
/* j is there and has not failed to translate (no executable memory):
 * the loop calls pmic_jit_run. */
int	 pmic_jit_usable(const struct pmic_jit *j);
/* Translate now, for the traps as they are, where that is still to do
 * (on the calling thread, before a window's private runs). */
void	 pmic_jit_prepare(struct pmic_jit *j);
/* j is usable and translated for the traps as they are: a private run,
 * which must not translate, may call pmic_jit_run. */
int	 pmic_jit_ready(const struct pmic_jit *j);
/* The words' trap bits now (the engine's patch): translated again
 * before the next run where they changed (the last two translations
 * kept). */
void	 pmic_jit_traps(struct pmic_jit *j, const uint8_t *trapped);
/*
 * Run x's core from word *mpc (not trapped, x->entry as the loop has
 * it) for at most *left cycles, storing only to the stack words below
 * wwords (the stack's, or a private run's pw): the cycles run, 0 where
 * the translation cannot start here (the loop runs the word).  *mpc and
 * *left come back as the loop goes on from; the registers in x->R, N,
 * Z, entry, mbr_addr, insn_pc and x->u.steps as the loop would leave
 * them, except the MBR views (R[PMIC_R_MBR0] ...), which the caller
 * derives from R[PMIC_R_MBR].
 */
uint64_t pmic_jit_run(struct pmic_jit *j, struct mfp_x *x, uint32_t *mpc,
	    uint64_t left, uint32_t wwords);
/* Cycles the translated code ran in this process (a test's proof that
 * it ran). */
uint64_t pmic_jit_cycles(void);

#endif
