/*
 * The OpenCL engine of the PMIC level (engine-ocl-pmic.h): the PMIC level
 * of the shared OpenCL host engine (src/ocl/ocl-*.c, ocl-level.h).  What is
 * the level's own: the section of struct pmic_core fields after the warp
 * records (context-pmic.h), the control store as the side buffer (the
 * .pmic words as they are), breakpoints on an MPC or on a PC at the
 * instruction boundary (context-mic.h's table), and a kernel that writes
 * back every register of struct core.
 */
#include <stddef.h>
#include <stdlib.h>

#include "context-mic.h"
#include "context-pmic.h"
#include "context.h"
#include "engine-ocl-pmic.h"
#include "ocl-level.h"

/* The level state: the PMIC side state (first, ocl-level.h) and the
 * control store as the kernel reads it. */
struct pmic_level_state {
	struct pmic_state	st;
	uint32_t		cs[CTXP_CS_WORDS * PMIC_STORE_WORDS];
};
_Static_assert(offsetof(struct pmic_level_state, st) == 0,
    "the model's state comes first");

static void
pmic_to_ctx(void *p, const struct ocl_section *s)
{
	struct pmic_level_state *ls = p;

	for (uint32_t i = 0; i < s->ncores; i++) {
		const struct pmic_core *k = &ls->st.core[i];

		OCL_SEC(s, i, CTXP_C_G0) = (uint32_t)k->g0;
		OCL_SEC(s, i, CTXP_C_G1) = (uint32_t)k->g1;
		OCL_SEC(s, i, CTXP_C_MBR_ADDR) = (uint32_t)k->mbr_addr;
		OCL_SEC(s, i, CTXP_C_INSN_PC) = (uint32_t)k->insn_pc;
		OCL_SEC(s, i, CTXP_C_NEW_REF) = (uint32_t)k->new_ref;
		OCL_SEC(s, i, CTXP_C_ATOM_ADDR) = (uint32_t)k->atom_addr;
		OCL_SEC(s, i, CTXP_C_ATOM_OLD) = (uint32_t)k->atom_old;
		OCL_SEC(s, i, CTXP_C_MBR_VALID) = k->mbr_valid;
		OCL_SEC(s, i, CTXP_C_ENTRY) = k->entry;
	}
}

/* Cores lo .. hi - 1, as mic_from_ctx. */
static void
pmic_from_ctx(void *p, const struct ocl_section *s, uint32_t lo, uint32_t hi)
{
	struct pmic_level_state *ls = p;
	const uint32_t *x = s->ctx + s->off;
	size_t cs, fs;

	ocl_sec_strides(s, &cs, &fs);
	for (size_t i = lo; i < hi; i++) {
		const uint32_t *w = x + i * cs;
		struct pmic_core *k = &ls->st.core[i];

		k->g0 = (int32_t)w[CTXP_C_G0 * fs];
		k->g1 = (int32_t)w[CTXP_C_G1 * fs];
		k->mbr_addr = (int32_t)w[CTXP_C_MBR_ADDR * fs];
		k->insn_pc = (int32_t)w[CTXP_C_INSN_PC * fs];
		k->new_ref = (int32_t)w[CTXP_C_NEW_REF * fs];
		k->atom_addr = (int32_t)w[CTXP_C_ATOM_ADDR * fs];
		k->atom_old = (int32_t)w[CTXP_C_ATOM_OLD * fs];
		k->mbr_valid = (uint8_t)w[CTXP_C_MBR_VALID * fs];
		k->entry = (uint8_t)w[CTXP_C_ENTRY * fs];
	}
}

static const void *
pmic_side(void *p, size_t *bytes)
{
	struct pmic_level_state *ls = p;

	for (int i = 0; i < PMIC_STORE_WORDS; i++) {
		const struct pmic_mi *mi = &ls->st.cs->mi[i];

		for (int u = 0; u < PMIC_NCU; u++)
			ls->cs[i * CTXP_CS_WORDS + u] = mi->cu[u];
		ls->cs[i * CTXP_CS_WORDS + PMIC_NCU] = mi->next;
	}
	*bytes = sizeof ls->cs;
	return ls->cs;
}

static void
pmic_free_op(void *p)
{
	struct pmic_level_state *ls = p;

	pmic_state_free(&ls->st);
	free(ls);
}

static const struct ocl_level pmic_level = {
	.name = "opencl-pmic",
	.level = LEVEL_PMIC,
	.model = &pmic_model,
	.kernel_file = "pmic.cl",
	.kernel_name = "pmic_run",
	.section_fields = CTXP_CORE_FIELDS,
	.bp_words = CTXM_BP_WORDS,
	.bp_on = ENGINE_BP_ON_MPC,
	.all_fields = 1,
	.old_faults_seen = 1,
	.whole_heap = 1,
	.side = pmic_side,
	.to_ctx = pmic_to_ctx,
	.from_ctx = pmic_from_ctx,
	.free_state = pmic_free_op,
};

int
engine_ocl_pmic_create(struct engine *e, struct machine *m,
    const struct pmic_store *cs, const char *device_sel, char **cause)
{
	struct pmic_level_state *ls = xcalloc(1, sizeof *ls);

	micro_attach(&pmic_model, &ls->st, m, cs, NULL);
	return ocl_engine_create(e, m, &pmic_level, ls, device_sel, cause);
}

void
engine_ocl_pmic_mem_need(const struct machine_config *cfg,
    const struct program *const *progs, size_t nprogs, int gpu,
    size_t max_wg, struct ocl_mem_need *need)
{
	engine_ocl_mem_need_fields(cfg, progs, nprogs, gpu, max_wg,
	    CTXP_CORE_FIELDS, need);
}
