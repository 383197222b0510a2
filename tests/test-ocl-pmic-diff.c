/*
 * Differential test of the PMIC kernel (engine-ocl-pmic.c over
 * kernels/pmic.cl) against the PMIC C simulator (engine-micro.c over
 * pmic-sim.c, the golden model), with the project's microprogram
 * (microcode/pmic.pm): the shared harness of ocl-diff-lib.h, counted in
 * PMIC cycles, where this level adds
 *   - the PMIC side state to every full comparison (G0, G1, where MBR
 *     came from and which of its bytes are valid, the dispatch flag, the
 *     device latches), the registers of struct core being compared by
 *     the harness;
 *   - MPC breakpoints (on the microcode of GOTO, and of IADD on odd
 *     cores) next to the PC ones;
 *   - the divergence records' totals against the cycles run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-ocl-pmic.h"
#include "engine-ocl.h"
#include "engine-micro.h"
#include "microcode.h"
#include "engine.h"
#include "machine.h"
#include "mal.h"
#include "ocl-diff-lib.h"
#include "pmic.h"
#include "program.h"

/* The microprogram, compiled once by pmic_setup. */
struct pmic_test {
	struct microcode mc;
	const struct odiff_level *lv;	/* for the divergence checks */
};

/* ---- the engine pair -------------------------------------------------- */

static int
pmic_setup(void *ctx, const char *top, char **cause)
{
	struct pmic_test *t = ctx;
	char *path = odiff_path(top, "microcode/pmic.pm");
	int rc;

	rc = microcode_load(&t->mc, LEVEL_PMIC, path, cause);
	free(path);
	return rc;
}

static int
pmic_open_golden(void *ctx, struct engine *e, struct machine *m,
    char **cause)
{
	struct pmic_test *t = ctx;

	return engine_micro_create(e, m, LEVEL_PMIC, &t->mc.pcs, cause);
}

static int
pmic_open_kernel(void *ctx, struct engine *e, struct machine *m,
    char **cause)
{
	struct pmic_test *t = ctx;

	return engine_ocl_pmic_create(e, m, &t->mc.pcs, NULL, cause);
}

/* The PMIC side state of core c, beyond struct core. */
static int
pmic_cmp_side(void *ctx, struct engine *golden, struct engine *kernel,
    uint32_t c, const char *what)
{
	const struct pmic_core *u = &((struct pmic_state *)
	    golden->ops->level_state(golden))->core[c];
	const struct pmic_core *v = &((struct pmic_state *)
	    kernel->ops->level_state(kernel))->core[c];

	(void)ctx;
	if (u->g0 != v->g0 || u->g1 != v->g1 ||
	    u->mbr_addr != v->mbr_addr || u->insn_pc != v->insn_pc ||
	    u->new_ref != v->new_ref || u->atom_addr != v->atom_addr ||
	    u->atom_old != v->atom_old || u->mbr_valid != v->mbr_valid ||
	    u->entry != v->entry)
		return odiff_fail(what, "core %u: PMIC state differs (g0 "
		    "%d/%d g1 %d/%d mbr from %d/%d valid %x/%x entry %u/%u "
		    "insn_pc %d/%d new_ref %d/%d atom %d,%d/%d,%d)", c, u->g0,
		    v->g0, u->g1, v->g1, u->mbr_addr, v->mbr_addr,
		    u->mbr_valid, v->mbr_valid, u->entry, v->entry,
		    u->insn_pc, v->insn_pc, u->new_ref, v->new_ref,
		    u->atom_addr, u->atom_old, v->atom_addr, v->atom_old);
	return 1;
}

/* ---- divergence records ---------------------------------------------- */

/* A PMIC step has no bound on its paths: the three units' memory
 * operations take the slow path in more ways than Mic-1's one. */
static void
pmic_divergence(void *ctx, const char *top)
{
	odiff_micro_divergence_suite(((struct pmic_test *)ctx)->lv, top, 0);
}

int
main(int argc, char **argv)
{
	struct pmic_test t;
	const struct odiff_level pmic = {
		.name = "PMIC",
		.setup = pmic_setup,
		.open_golden = pmic_open_golden,
		.open_kernel = pmic_open_kernel,
		.set_steps_per_launch = engine_ocl_set_steps_per_launch,
		.stats = engine_ocl_stats,
		.cmp_side = pmic_cmp_side,
		.extra_bps = odiff_micro_mpc_bps,
		.extra_tests = pmic_divergence,
		.ctx = &t,
	};

	t.lv = &pmic;
	return odiff_main(&pmic, argc, argv);
}
