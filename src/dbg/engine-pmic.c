/*
 * The PMIC C simulator behind the engine interface (see engine-pmic.h):
 * the PMIC level's descriptor over the micro engine body of engine-mic.c
 * (runs step cycles with pmic_step and check the stop conditions after
 * each; microcode is a .pmic store or PMIC source compiled by pmc.c).
 */
#include <stdint.h>

#include "engine-mic.h"
#include "engine-pmic.h"
#include "pmc.h"

static void
pmic_init(void *st, const struct machine *m, const void *cs)
{
	pmic_state_init(st, m, cs);
}

static void
pmic_fini(void *st)
{
	pmic_state_free(st);
}

static void
pmic_start(void *st, struct machine *m, uint32_t core)
{
	pmic_start_core(st, m, core);
}

static void
pmic_enter_core(void *st, struct machine *m, uint32_t core)
{
	pmic_enter(st, m, core);
}

static int
pmic_leave_core(void *st, struct machine *m, uint32_t core)
{
	return pmic_leave(st, m, core);
}

static int
pmic_boundary(const void *st, const struct machine *m, uint32_t core)
{
	return pmic_at_boundary(st, m, core);
}

static void
pmic_step_fn(void *st, struct machine *m, const struct ref_mask *mask,
    struct ref_summary *sum)
{
	pmic_step(st, m, mask, sum);
}

static void *
pmic_side(void *st, size_t *bytes)
{
	struct pmic_state *ps = st;

	*bytes = (size_t)ps->ncores * sizeof *ps->core;
	return ps->core;
}

static const struct engine_ops pmic_ops = ENGINE_MICRO_OPS("pmic");

static const struct engine_micro_level pmic_level = {
	.ops = &pmic_ops,
	.state_size = sizeof(struct pmic_state),
	.state_init = pmic_init,
	.state_free = pmic_fini,
	.start_core = pmic_start,
	.enter = pmic_enter_core,
	.leave = pmic_leave_core,
	.at_boundary = pmic_boundary,
	.step = pmic_step_fn,
	.side = pmic_side,
};

int
engine_pmic_create(struct engine *e, struct machine *m,
    const struct pmic_store *cs, char **cause)
{
	return engine_micro_create(e, &pmic_level, m, cs, cause);
}

struct pmic_state *
engine_pmic_state(struct engine *e)
{
	return engine_micro_state(e);
}

int
engine_pmic_leave_all(struct engine *e, char **cause)
{
	return engine_micro_leave_all(e, cause);
}

/* ---- microcode files ----------------------------------------------------- */

static int
pmic_parse(void *cs, const char *path, const uint8_t *data, size_t len,
    char **cause)
{
	return pmic_store_parse(cs, path, data, len, cause);
}

static int
pmic_translate(const char *path, const char *src, size_t len, void *cs,
    struct mal_syms *syms, struct mal_errors *errs)
{
	return pmc_compile(path, src, len, cs, syms, errs);
}

int
engine_pmic_load_microcode(const char *path, struct pmic_store *cs,
    struct mal_syms *syms, char **cause)
{
	static const struct engine_micro_format pmic_format = {
		.magic = PMIC_FILE_MAGIC,
		.magic_swapped = 0x43494D50u,
		.suffix = ".pmic",
		.parse = pmic_parse,
		.translate = pmic_translate,
		.syms_loaded = NULL,
	};

	return engine_micro_load_microcode(&pmic_format, path, cs, syms,
	    cause);
}

char *
engine_pmic_default_microcode(void)
{
	return engine_micro_default_microcode("pmic.pm");
}
