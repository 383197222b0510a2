/*
 * The OpenCL engine of the micro level (engine-ocl-mic.h): the Mic-1
 * level of the shared OpenCL host engine (src/ocl/ocl-*.c, ocl-level.h).
 * What is the level's own:
 *
 * - the context buffer has a micro-level section after the warp records
 *   (context-mic.h: the mic1_core side state and the MIR of every core),
 *   converted to and from the host's struct mic1_state with the core
 *   blocks, so that at_boundary answers from the host copy;
 * - the control store is the side buffer, pre-decoded for the
 *   branch-free kernel (context-mic.h), with Main1 as a kernel scalar;
 * - breakpoints say what they compare (engine_bp.on): an MPC, or a PC at
 *   the instruction boundary; the host reports stops with
 *   engine_check_bps(..., ENGINE_BP_ON_MPC), as engine-micro.c does;
 * - the kernel writes back every register of struct core.
 *
 * Launches, consistent cuts, barriers, I/O areas, checkpoints, replay,
 * header-only read-back and zero-copy are the shared engine's, in
 * micro-steps.
 */
#include <stddef.h>
#include <stdlib.h>

#include "context-mic.h"
#include "context.h"
#include "engine-ocl-mic.h"
#include "ocl-level.h"

/* The level state: the micro side state (first, ocl-level.h) and the
 * pre-decoded store. */
struct mic_level_state {
	struct mic1_state	st;
	uint32_t		cs[CTXM_CS_WORDS * MIC1_STORE_WORDS];
};
_Static_assert(offsetof(struct mic_level_state, st) == 0,
    "the model's state comes first");

/* The MIR goes both ways (a checkpoint restore brings it back); its
 * fields only up, for the datapath view. */
static void
mic_to_ctx(void *p, const struct ocl_section *s)
{
	struct mic_level_state *ls = p;

	for (uint32_t i = 0; i < s->ncores; i++) {
		const struct mic1_core *k = &ls->st.core[i];

		OCL_SEC(s, i, CTXM_C_MAR_LATCH) = (uint32_t)k->mar_latch;
		OCL_SEC(s, i, CTXM_C_PC_LATCH) = (uint32_t)k->pc_latch;
		OCL_SEC(s, i, CTXM_C_MBR_ADDR) = (uint32_t)k->mbr_addr;
		OCL_SEC(s, i, CTXM_C_INSN_PC) = (uint32_t)k->insn_pc;
		OCL_SEC(s, i, CTXM_C_NEW_REF) = (uint32_t)k->new_ref;
		OCL_SEC(s, i, CTXM_C_ATOM_ADDR) = (uint32_t)k->atom_addr;
		OCL_SEC(s, i, CTXM_C_ATOM_OLD) = (uint32_t)k->atom_old;
		OCL_SEC(s, i, CTXM_C_PENDING) = k->pending;
		OCL_SEC(s, i, CTXM_C_MBR_STATE) = k->mbr_state;
		OCL_SEC(s, i, CTXM_C_MIR_LO) = (uint32_t)k->mir;
		OCL_SEC(s, i, CTXM_C_MIR_HI) = (uint32_t)(k->mir >> 32);
		OCL_SEC(s, i, CTXM_C_MIR_NEXT) = mic1_next(k->mir);
		OCL_SEC(s, i, CTXM_C_MIR_JAM) = mic1_jam(k->mir);
		OCL_SEC(s, i, CTXM_C_MIR_ALU) = mic1_alu(k->mir);
		OCL_SEC(s, i, CTXM_C_MIR_C) = mic1_cbus(k->mir);
		OCL_SEC(s, i, CTXM_C_MIR_MEM) = mic1_mem(k->mir);
		OCL_SEC(s, i, CTXM_C_MIR_B) = mic1_bsel(k->mir);
	}
}

/* Cores lo .. hi - 1; strides in locals, one pass per core (this runs
 * after every run() over the cores that ran). */
static void
mic_from_ctx(void *p, const struct ocl_section *s, uint32_t lo, uint32_t hi)
{
	struct mic_level_state *ls = p;
	const uint32_t *x = s->ctx + s->off;
	size_t cs, fs;

	ocl_sec_strides(s, &cs, &fs);
	for (size_t i = lo; i < hi; i++) {
		const uint32_t *w = x + i * cs;
		struct mic1_core *k = &ls->st.core[i];

		k->mar_latch = (int32_t)w[CTXM_C_MAR_LATCH * fs];
		k->pc_latch = (int32_t)w[CTXM_C_PC_LATCH * fs];
		k->mbr_addr = (int32_t)w[CTXM_C_MBR_ADDR * fs];
		k->insn_pc = (int32_t)w[CTXM_C_INSN_PC * fs];
		k->new_ref = (int32_t)w[CTXM_C_NEW_REF * fs];
		k->atom_addr = (int32_t)w[CTXM_C_ATOM_ADDR * fs];
		k->atom_old = (int32_t)w[CTXM_C_ATOM_OLD * fs];
		k->pending = (uint8_t)w[CTXM_C_PENDING * fs];
		k->mbr_state = (uint8_t)w[CTXM_C_MBR_STATE * fs];
		k->mir = (uint64_t)w[CTXM_C_MIR_HI * fs] << 32 |
		    w[CTXM_C_MIR_LO * fs];
	}
}

/* The control store as the kernel reads it: each word split into D0
 * and D1 (mic1-word.h). */
static const void *
mic_side(void *p, size_t *bytes)
{
	struct mic_level_state *ls = p;
	const struct mic1_store *cs = ls->st.cs;

	for (int i = 0; i < MIC1_STORE_WORDS; i++) {
		uint64_t x = cs->word[i] & MIC1_WORD_MASK;

		ls->cs[i * CTXM_CS_WORDS + CTXM_CS_D0] = (uint32_t)MIC1_D0(x);
		ls->cs[i * CTXM_CS_WORDS + CTXM_CS_D1] = mic1_next(x) |
		    (cs->present[i] ? MIC1_D1_PRESENT : 0) |
		    MIC1_D1_ONEHOT(mic1_bsel(x));
	}
	*bytes = sizeof ls->cs;
	return ls->cs;
}

static uint32_t
mic_scalars(void *p, uint32_t *v)
{
	struct mic_level_state *ls = p;

	v[0] = ls->st.cs->main1;
	return 1;
}

static void
mic_free(void *p)
{
	struct mic_level_state *ls = p;

	mic1_state_free(&ls->st);
	free(ls);
}

static const struct ocl_level mic_level = {
	.name = "opencl-mic",
	.level = LEVEL_MIC,
	.model = &mic1_model,
	.kernel_file = "mic.cl",
	.kernel_name = "mic_run",
	.section_fields = CTXM_CORE_FIELDS,
	.bp_words = CTXM_BP_WORDS,
	.bp_on = ENGINE_BP_ON_MPC,
	.all_fields = 1,
	.old_faults_seen = 1,
	.whole_heap = 1,
	.side = mic_side,
	.scalars = mic_scalars,
	.to_ctx = mic_to_ctx,
	.from_ctx = mic_from_ctx,
	.free_state = mic_free,
};

int
engine_ocl_mic_create(struct engine *e, struct machine *m,
    const struct mic1_store *cs, const char *device_sel, char **cause)
{
	struct mic_level_state *ls = xcalloc(1, sizeof *ls);

	micro_attach(&mic1_model, &ls->st, m, cs, NULL);
	return ocl_engine_create(e, m, &mic_level, ls, device_sel, cause);
}
void
engine_ocl_mic_mem_need(const struct machine_config *cfg,
    const struct program *const *progs, size_t nprogs, int gpu,
    size_t max_wg, struct ocl_mem_need *need)
{
	engine_ocl_mem_need_fields(cfg, progs, nprogs, gpu, max_wg,
	    CTXM_CORE_FIELDS, need);
}
