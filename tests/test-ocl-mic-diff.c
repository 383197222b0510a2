/*
 * Differential test of the MIC kernel (engine-ocl-mic.c over
 * kernels/mic.cl) against the Mic-1 C simulator (engine-micro.c over
 * mic1.c, the golden model), with the project's microprogram
 * (microcode/mic1.mal): the shared harness of ocl-diff-lib.h, counted in
 * micro-steps, where this level adds
 *   - the micro side state to every full comparison (READ/FETCH latches,
 *     MBR origin, device latches, the atomic's latches, the MIR), the
 *     registers of struct core (MPC, H, OPC, MAR, MDR, MBR, N, Z) being
 *     compared by the harness;
 *   - MPC breakpoints (on the microcode of GOTO, and of IADD on odd
 *     cores) next to the PC ones;
 *   - the divergence records' totals against the cycles run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine-micro.h"
#include "microcode.h"
#include "engine-ocl-mic.h"
#include "engine-ocl.h"
#include "engine.h"
#include "machine.h"
#include "mal.h"
#include "mic1.h"
#include "ocl-diff-lib.h"
#include "program.h"

/* The microprogram, loaded once by mic_setup. */
struct mic_test {
	struct microcode mc;
	const struct odiff_level *lv;	/* for the divergence checks */
};

/* ---- the engine pair -------------------------------------------------- */

static int
mic_setup(void *ctx, const char *top, char **cause)
{
	struct mic_test *t = ctx;
	char *path = odiff_path(top, "microcode/mic1.mal");
	int rc;

	rc = microcode_load(&t->mc, LEVEL_MIC, path, cause);
	free(path);
	return rc;
}

static int
mic_open_golden(void *ctx, struct engine *e, struct machine *m, char **cause)
{
	struct mic_test *t = ctx;

	return engine_micro_create(e, m, LEVEL_MIC, &t->mc.cs, cause);
}

static int
mic_open_kernel(void *ctx, struct engine *e, struct machine *m, char **cause)
{
	struct mic_test *t = ctx;

	return engine_ocl_mic_create(e, m, &t->mc.cs, NULL, cause);
}

/* The micro side state of core c, beyond struct core. */
static int
mic_cmp_side(void *ctx, struct engine *golden, struct engine *kernel,
    uint32_t c, const char *what)
{
	const struct mic1_core *u = &((struct mic1_state *)
	    golden->ops->level_state(golden))->core[c];
	const struct mic1_core *v = &((struct mic1_state *)
	    kernel->ops->level_state(kernel))->core[c];

	(void)ctx;
	if (u->mar_latch != v->mar_latch || u->pc_latch != v->pc_latch ||
	    u->mbr_addr != v->mbr_addr || u->insn_pc != v->insn_pc ||
	    u->new_ref != v->new_ref || u->atom_addr != v->atom_addr ||
	    u->atom_old != v->atom_old || u->pending != v->pending ||
	    u->mbr_state != v->mbr_state || u->mir != v->mir)
		return odiff_fail(what, "core %u: micro state differs (pending "
		    "%u/%u latches %d,%d/%d,%d mbr from %d/%d state %u/%u "
		    "insn_pc %d/%d mir %09llx/%09llx)", c, u->pending,
		    v->pending, u->mar_latch, u->pc_latch, v->mar_latch,
		    v->pc_latch, u->mbr_addr, v->mbr_addr, u->mbr_state,
		    v->mbr_state, u->insn_pc, v->insn_pc,
		    (unsigned long long)u->mir, (unsigned long long)v->mir);
	return 1;
}

/* ---- divergence records ---------------------------------------------- */

/* Every step counted has k 1 or 2: the branch-free cycle, and the slow
 * path of device words. */
static void
mic_divergence(void *ctx, const char *top)
{
	odiff_micro_divergence_suite(((struct mic_test *)ctx)->lv, top, 2);
}

int
main(int argc, char **argv)
{
	struct mic_test t;
	const struct odiff_level mic = {
		.name = "MIC",
		.setup = mic_setup,
		.open_golden = mic_open_golden,
		.open_kernel = mic_open_kernel,
		.set_steps_per_launch = engine_ocl_set_steps_per_launch,
		.stats = engine_ocl_stats,
		.cmp_side = mic_cmp_side,
		.extra_bps = odiff_micro_mpc_bps,
		.extra_tests = mic_divergence,
		.ctx = &t,
	};

	t.lv = &mic;
	return odiff_main(&mic, argc, argv);
}
