/*
 * What the shared OpenCL host engine (ocl-engine.h) needs to know about a
 * level (ISA, Mic-1, PMIC): its kernel, the per-core section it adds to
 * the context buffer after the warp records, its read-only side buffer
 * (a control store), the host state that goes with the machine (struct
 * mic1_state, ...) and how both convert.  Everything else -- buffers,
 * launches with adaptive K, consistent cuts by checkpoint and replay,
 * header-only read-back, zero-copy, I/O areas, barriers, breakpoint
 * table, divergence records, memory words -- is the engine's, once.
 *
 * Kernel arguments every level's kernel takes, in this order:
 *   0 ctx, 1 stacks, 2 globals, 3 heap, 4 text, 5 cp, 6 progs, 7 out,
 *   8 in, 9 bps, 10 mask
 * and, for a level with a side buffer (its own or a predecoded text),
 * 11 the side buffer; for a level with a section, then the section's
 * word offset and nscalars uint arguments; for a level with a mirror,
 * then the host's struct core array (NULL but in the one-step program
 * on a CPU device, context.h CTX_HC_*).
 *
 * Internal to src/ocl; callers use engine-ocl.h and the level headers.
 */
#ifndef MICDB_OCL_LEVEL_H
#define MICDB_OCL_LEVEL_H

#include <stddef.h>
#include <stdint.h>

#include "engine-ocl.h"
#include "engine.h"
#include "micro-sim.h"

/* Where the level's per-core section lives in the host view of the
 * context (context-mic.h's CTXM_CORE_WORD convention: it follows the
 * layout the context chose for the core blocks). */
struct ocl_section {
	uint32_t	*ctx;          /* host view of the context, open */
	uint32_t	 off;          /* word offset of the section */
	uint32_t	 core_stride;  /* the context's: 1 means SoA */
	uint32_t	 field_stride;
	uint32_t	 nfields;      /* level->section_fields */
	uint32_t	 ncores;
};

#define OCL_SEC_WORD(s, c, f) \
	((s)->core_stride == 1 ? (size_t)(s)->off + (c) + \
	    (size_t)(f) * (s)->field_stride : \
	    (size_t)(s)->off + (size_t)(c) * (s)->nfields + (f))
#define OCL_SEC(s, c, f) ((s)->ctx[OCL_SEC_WORD(s, c, f)])

/* The same as strides, for loops over many cores: field f of core c is
 * word off + c * *cs + f * *fs. */
static inline void
ocl_sec_strides(const struct ocl_section *s, size_t *cs, size_t *fs)
{
	*cs = s->core_stride == 1 ? 1 : s->nfields;
	*fs = s->core_stride == 1 ? s->field_stride : 1;
}

#define OCL_MAX_SCALARS 4

struct ocl_level {
	const char	*name;           /* engine_ops name */
	enum level	 level;          /* engine_ops level */
	/* A micro level's golden model (micro-sim.h): the rules of its
	 * start, boundaries and state, which the level state keeps as its
	 * first member (ops->level_state returns it).  NULL: ISA. */
	const struct micro_model *model;
	const char	*kernel_file;    /* in the kernel directory */
	const char	*kernel_name;
	const char	*fold1_name;     /* the one-step records' fold kernel
					    (launch.h), NULL: the level has
					    no one-step program */
	const char	*predec_name;    /* a kernel that fills the side
					    buffer from the text once the
					    programs are loaded (ocl-setup.c
					    predecode), NULL: none */
	uint32_t	 section_fields; /* per-core words after the warp
					    records, 0: none */
	uint32_t	 bp_words;       /* words of a breakpoint entry: 3
					    (context.h) or 4 (+ what it
					    compares, context-mic.h) */
	enum engine_bp_on bp_on;         /* engine_check_bps on the host */
	int		 all_fields;     /* the kernel writes back every
					    register of struct core, not
					    only the ISA kernel's few */
	int		 old_faults_seen; /* faults from before the engine
					     (another level) are not news */
	int		 whole_heap;     /* the kernel may write the heap above
					    heap_top: checkpoints copy it all */
	int		 mirror;         /* its one-step program can write the
					    registers it changes into struct
					    core (context.h CTX_HC_*) */

	/* The level's host state (owned by the engine once created). */
	/* Side buffer contents (bytes; NULL: the level has none). */
	const void	*(*side)(void *st, size_t *bytes);
	/* Scalar kernel arguments after the section offset. */
	uint32_t	 (*scalars)(void *st, uint32_t *v);
	/* Host state <-> section (section_fields > 0): every core down,
	 * cores lo .. hi - 1 up (the engine converts only the cores that
	 * changed, ranges of whole blocks of the context's block marks). */
	void		 (*to_ctx)(void *st, const struct ocl_section *s);
	void		 (*from_ctx)(void *st, const struct ocl_section *s,
			    uint32_t lo, uint32_t hi);
	void		 (*free_state)(void *st);
};

/* engine_ocl_create over a level; st is the level's state, which the
 * engine frees with level->free_state, also on failure. */
int	ocl_engine_create(struct engine *e, struct machine *m,
	    const struct ocl_level *level, void *st, const char *device_sel,
	    char **cause);

#endif
