/*
 * Differential test of the OpenCL ISA engine (src/ocl/ocl-*.c over
 * kernels/isa.cl) against the reference engine (engine-ref.c over ref.c,
 * the golden model): the shared harness of ocl-diff-lib.h (samples and
 * generated programs at 1, 33 and 1,000 cores, step by step, by whole
 * runs, with breakpoints, host edits, layouts, cuts and tiny I/O areas),
 * plus this level's own check: the divergence records against the
 * reference stepped one step at a time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "context.h"
#include "engine-ocl.h"
#include "engine.h"
#include "ijvm.h"
#include "machine.h"
#include "ocl-diff-lib.h"
#include "program.h"
#include "ref.h"

/* ---- divergence records ------------------------------------------------ */

/*
 * The handler the ISA kernel runs for a core's next instruction, as
 * kernels/isa.cl groups them (the ALU operations, IFEQ/IFLT and NOP/GC
 * share one), or -1 for the decode path.  Only valid for instructions
 * that do not fault before dispatch: the windows tested below have no
 * faults.
 */
static int
handler_of(const struct machine *m, uint32_t c, int pred)
{
	int op = machine_fetch_byte(m, c, m->cores[c].pc);

	if (op == OP_WIDE)
		op = machine_fetch_byte(m, c, m->cores[c].pc + 1);
	if (op < 0 || ijvm_builtin((uint8_t)op) == NULL)
		return -1;
	/* MICDB_ISA_PRED=1: H_COMMON, the template group (isa.cl's TM
	 * lines; an LDC_W whose index is outside the pool faults in its own
	 * arm, which these windows never reach).  The chunks that the vote
	 * of MICDB_ISA_VOTE gives to the switch's arms: see
	 * test_divergence. */
	if (pred)
		switch (op) {
		case OP_NOP: case OP_GC: case OP_BIPUSH: case OP_LDC_W:
		case OP_ILOAD: case OP_ISTORE: case OP_IINC: case OP_POP:
		case OP_DUP: case OP_IADD: case OP_ISUB: case OP_IAND:
		case OP_IOR: case OP_IFEQ: case OP_IFLT: case OP_IF_ICMPEQ:
		case OP_GOTO:
			return 0x100;
		}
	switch (op) {
	case OP_ISUB: case OP_IAND: case OP_IOR:
		return OP_IADD;
	case OP_IFLT:
		return OP_IFEQ;
	case OP_GC:
		return OP_NOP;
	}
	return op;
}

/* Fold one step of the reference machine m (before the step) into the
 * expected records. */
static void
expect_step(const struct machine *m, uint32_t W, int pred,
    const uint8_t *arms, struct engine_warp_record *rec)
{
	uint32_t nwarps = (m->cfg.ncores + W - 1) / W;

	for (uint32_t w = 0; w < nwarps; w++) {
		struct engine_warp_record *r = &rec[w];
		uint64_t act = 0, done = 0, best = 0;
		uint32_t bestn = 0, paths = 0, k = 0, nact = 0;

		for (uint32_t l = 0; l < W && w * W + l < m->cfg.ncores; l++)
			if (m->cores[w * W + l].status == CORE_RUNNING) {
				act |= (uint64_t)1 << l;
				nact++;
			}
		if (act == 0)
			continue;
		for (uint32_t l = 0; l < W; l++) {
			uint64_t grp = 0;
			uint32_t n = 0;

			if (!((act >> l) & 1) || ((done >> l) & 1))
				continue;
			for (uint32_t j = l; j < W; j++)
				if (((act >> j) & 1) && m->cores[w * W + j].pc ==
				    m->cores[w * W + l].pc) {
					grp |= (uint64_t)1 << j;
					n++;
				}
			done |= grp;
			paths++;
			if (n > bestn) {
				bestn = n;
				best = grp;
			}
		}
		done = 0;
		for (uint32_t l = 0; l < W; l++) {
			uint64_t grp = 0;
			uint32_t n = 0;
			int h;

			if (!((act >> l) & 1) || ((done >> l) & 1))
				continue;
			h = handler_of(m, w * W + l, pred && !arms[w]);
			for (uint32_t j = l; j < W; j++)
				if (((act >> j) & 1) &&
				    handler_of(m, w * W + j, pred && !arms[w]) ==
				    h) {
					grp |= (uint64_t)1 << j;
					n++;
				}
			done |= grp;
			r->hist[n - 1]++;
			k++;
		}
		r->steps++;
		r->active += nact;
		r->kpaths += k;
		r->last_active = act;
		r->last_converged = best;
		r->last_divergent = act & ~best;
		r->last_paths = paths;
		r->last_k = k;
	}
}

static int
cmp_warps(const struct engine_warp_record *want, const struct engine_warp_record *got,
    size_t nwarps, uint32_t W, const char *what)
{
	for (size_t w = 0; w < nwarps; w++) {
		const struct engine_warp_record *a = &want[w], *b = &got[w];

		if (a->steps != b->steps || a->active != b->active ||
		    a->kpaths != b->kpaths || a->last_active != b->last_active ||
		    a->last_converged != b->last_converged ||
		    a->last_divergent != b->last_divergent ||
		    a->last_paths != b->last_paths || a->last_k != b->last_k)
			return odiff_fail(what, "warp %zu: steps %llu/%llu active "
			    "%llu/%llu k %llu/%llu last active %llx/%llx "
			    "converged %llx/%llx paths %u/%u k %u/%u", w,
			    (unsigned long long)a->steps,
			    (unsigned long long)b->steps,
			    (unsigned long long)a->active,
			    (unsigned long long)b->active,
			    (unsigned long long)a->kpaths,
			    (unsigned long long)b->kpaths,
			    (unsigned long long)a->last_active,
			    (unsigned long long)b->last_active,
			    (unsigned long long)a->last_converged,
			    (unsigned long long)b->last_converged,
			    a->last_paths, b->last_paths, a->last_k, b->last_k);
		for (uint32_t n = 0; n < W; n++)
			if (a->hist[n] != b->hist[n])
				return odiff_fail(what, "warp %zu: hist[%u] %llu "
				    "vs %llu", w, n, (unsigned long long)
				    a->hist[n], (unsigned long long)b->hist[n]);
	}
	return 1;
}

/* How test_divergence builds the kernel (MICDB_OCL_TEST): with its
 * template group (GPU layout, dispatch=template).  On NVIDIA the
 * records are folded by warp operations (the device's own default). */
#define DIV_PRED 1

/* The records after nsteps steps (run with K steps per launch) against
 * the reference stepped one step at a time. */
static void
test_divergence(const char *top, const char *file, uint32_t ncores,
    uint32_t W, uint64_t nsteps, uint64_t k, int how)
{
	const int pred = how & DIV_PRED;
	struct program prog;
	const struct program *progs[1] = { &prog };
	struct machine_config cfg = { ncores, ODIFF_STACK_WORDS,
	    ODIFF_HEAP_WORDS, W };
	struct machine mr, mo;
	struct engine eo;
	struct engine_run r = { .max_steps = nsteps };
	struct engine_stop st;
	struct engine_warp_record *want;
	const struct engine_warp_record *got;
	size_t nwarps = (ncores + W - 1) / W;
	char *path = odiff_path(top, file), *cause = NULL, what[160];
	uint64_t i;
	uint8_t *arms;
	int good = 0, rc, vote;

	snprintf(what, sizeof what, "divergence records: %s, %u cores, warp "
	    "width %u, K=%llu%s", file, ncores, W, (unsigned long long)k,
	    pred ? ", ISA_PRED" : "");
	if (program_load_file(&prog, path, &cause) != 0) {
		odiff_ok(0, "%s: %s", what, cause);
		free(cause);
		free(path);
		return;
	}
	free(path);
	machine_init(&mr, &cfg, progs, 1, NULL, &cause);
	machine_init(&mo, &cfg, progs, 1, NULL, &cause);
	want = xcalloc(nwarps, sizeof *want);
	arms = xcalloc(nwarps, 1);
	/* the switch alone unless pred: NVIDIA builds take the template
	 * group by default (the tuning table) */
	setenv("MICDB_OCL_TEST", pred ? "layout=gpu,dispatch=template" :
	    "dispatch=switch", 1);
	rc = engine_ocl_create(&eo, &mo, NULL, &cause);
	unsetenv("MICDB_OCL_TEST");
	/* isa.cl's chunk vote (MICDB_ISA_VOTE: NVIDIA, W = 32): a warp
	 * whose running lanes all sit at one PC when a chunk starts runs the
	 * chunk on the switch's arms.  Launches of k steps, chunks of
	 * CTX_DIV_CHUNK from each launch's start; one-step launches are a
	 * chunk each. */
	vote = rc == 0 && pred && W == 32 &&
	    strstr(engine_ocl_device_name(&eo), "NVIDIA") != NULL;
	for (i = 0; i < nsteps; i++) {
		struct ref_summary sum;

		if (vote && (i % k) % CTX_DIV_CHUNK == 0)
			for (size_t w = 0; w < nwarps; w++) {
				int pc = -1, one = 1;

				for (uint32_t l = 0; l < W &&
				    w * W + l < ncores; l++) {
					const struct core *cr =
					    &mr.cores[w * W + l];

					if (cr->status != CORE_RUNNING)
						continue;
					if (pc >= 0 && cr->pc != pc)
						one = 0;
					pc = cr->pc;
				}
				arms[w] = one;
			}
		expect_step(&mr, W, pred, arms, want);
		ref_step(&mr, NULL, &sum);
		if (sum.faulted > 0 || sum.running + sum.waiting == 0)
			break;
	}
	r.max_steps = i + 1 < nsteps ? i + 1 : nsteps;
	if (rc != 0) {
		odiff_fail(what, "%s", cause);
		free(cause);
	} else {
		engine_ocl_set_steps_per_launch(&eo, k);
		if (eo.ops->run(&eo, &r, &st, &cause) != 0) {
			odiff_fail(what, "%s", cause);
			free(cause);
		} else {
			size_t n;

			got = engine_ocl_warps(&eo, &n);
			good = n == nwarps && mo.step == mr.step &&
			    cmp_warps(want, got, nwarps, W, what);
		}
		engine_free(&eo);
	}
	odiff_ok(good, "%s (%llu steps)", what, (unsigned long long)mr.step);
	free(want);
	free(arms);
	machine_free(&mr);
	machine_free(&mo);
	program_free(&prog);
}

static void
isa_divergence(void *ctx, const char *top)
{
	(void)ctx;
	test_divergence(top, "programs/bench/divergent.jas", 100, 32, 3000,
	    100000, 0);
	test_divergence(top, "programs/bench/divergent.jas", 100, 32, 500, 1,
	    0);
	test_divergence(top, "programs/bench/divergent.jas", 130, 64, 3000, 7,
	    0);
	test_divergence(top, "programs/bench/divergent.jas", 50, 7, 3000,
	    100000, 0);
	test_divergence(top, "programs/bench/divergent.jas", 5, 32, 3000,
	    100000, 0);
	test_divergence(top, "programs/collatz.jas", 32, 16, 20000, 100000, 0);
	test_divergence(top, "programs/bench/uniform.jas", 64, 32, 3000,
	    100000, 0);
	test_divergence(top, "programs/matmul.jas", 8, 4, 20000, 100000, 0);
	test_divergence(top, "programs/bench/divergent.jas", 100, 32, 3000,
	    100000, DIV_PRED);
	test_divergence(top, "programs/bench/divergent.jas", 130, 64, 3000, 7,
	    DIV_PRED);
	test_divergence(top, "programs/matmul.jas", 8, 4, 20000, 100000,
	    DIV_PRED);
	/* one-step launches: partial and odd warps, 64-bit masks, the
	 * predicated group */
	test_divergence(top, "programs/bench/divergent.jas", 130, 64, 400, 1,
	    0);
	test_divergence(top, "programs/bench/divergent.jas", 50, 7, 400, 1, 0);
	test_divergence(top, "programs/matmul.jas", 8, 4, 2000, 1, 0);
	test_divergence(top, "programs/bench/divergent.jas", 100, 32, 400, 1,
	    DIV_PRED);
	/* to the end: steps in which the whole warp is idle */
	test_divergence(top, "programs/collatz.jas", 40, 32, 20000, 100000,
	    0);
}

/* ---- decode faults ----------------------------------------------------
 * What the ISA kernel finds before dispatch (isa.cl's predecoded text):
 * every byte as
 * an opcode alone in a text (an unknown opcode, an instruction cut off
 * by the end of the text, or one that runs and leaves the PC at the
 * end), after WIDE (a bad WIDE target, or a cut-off one), with two zero
 * bytes after it (operands inside the text), with two 0xFF bytes after
 * it (a local index past main's locals, a branch to PC -1, a constant
 * index past the pool), three times (a second push, pop or local), and
 * WIDE alone; main with 4 locals in a stack of
 * 64 words, and with 15 in the smallest stack, 16 words (a second push
 * overflows).  One core
 * per text, one machine of them all, against the reference.  The
 * assembler makes neither unknown opcodes nor cut-off instructions, so
 * no sample reaches these; they are also the edges of the predecoded
 * entries' SP range in main.
 */
enum { DF_ALONE, DF_WIDE, DF_PADDED, DF_FF, DF_THRICE, DF_SETS };

static void
decode_faults(const char *layout, uint32_t stack_words)
{
	const uint32_t n = DF_SETS * 256 + 1;
	struct program *pg = calloc(n, sizeof *pg);
	const struct program **pp = calloc(n, sizeof *pp);
	uint16_t *cp = calloc(n, sizeof *cp);
	static int32_t pool[1];
	struct machine_config cfg = { n, stack_words, 256, 32 };
	struct machine mr, mo;
	struct engine er, eo;
	struct engine_run r = { .max_steps = 6, .stop_on_fault = 0 };
	struct engine_stop st;
	char *cause = NULL, what[96];
	int bad = 0;

	if (pg == NULL || pp == NULL || cp == NULL)
		abort();
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *t = calloc(3, 1);
		const uint32_t b = i % 256;

		if (t == NULL)
			abort();
		switch (i < n - 1 ? i / 256 : DF_SETS) {
		case DF_ALONE:
			t[0] = (uint8_t)b;
			pg[i].text_size = 1;
			break;
		case DF_WIDE:
			t[0] = OP_WIDE;
			t[1] = (uint8_t)b;
			pg[i].text_size = 2;
			break;
		case DF_PADDED:
			t[0] = (uint8_t)b;
			pg[i].text_size = 3;
			break;
		case DF_FF:
			t[0] = (uint8_t)b;
			t[1] = t[2] = 0xFF;
			pg[i].text_size = 3;
			break;
		case DF_THRICE:
			t[0] = t[1] = t[2] = (uint8_t)b;
			pg[i].text_size = 3;
			break;
		default:
			t[0] = OP_WIDE;
			pg[i].text_size = 1;
		}
		pg[i].text = t;
		pg[i].cp = pool;
		pg[i].cp_size = 1;
		pg[i].main_nlocals = stack_words == 16 ? 15 : 4;
		pp[i] = &pg[i];
		cp[i] = (uint16_t)i;
	}
	snprintf(what, sizeof what, "layout=%s", layout);
	setenv("MICDB_OCL_TEST", what, 1);
	snprintf(what, sizeof what, "decode faults, %s layout, %u stack words",
	    layout, stack_words);
	if (machine_init(&mr, &cfg, pp, n, cp, &cause) != 0 ||
	    machine_init(&mo, &cfg, pp, n, cp, &cause) != 0) {
		odiff_ok(0, "%s: %s", what, cause);
		exit(1);
	}
	if (engine_ref_create(&er, &mr, &cause) != 0 ||
	    engine_ocl_create(&eo, &mo, NULL, &cause) != 0) {
		odiff_ok(0, "%s: %s", what, cause);
		exit(1);
	}
	if (er.ops->run(&er, &r, &st, &cause) != 0 ||
	    eo.ops->run(&eo, &r, &st, &cause) != 0) {
		odiff_ok(0, "%s: run: %s", what, cause);
		exit(1);
	}
	for (uint32_t c = 0; c < n && bad < 5; c++) {
		const struct core *x = &mr.cores[c], *y = &mo.cores[c];

		if (x->status != y->status || x->fault != y->fault ||
		    x->fault_pc != y->fault_pc ||
		    x->fault_op != y->fault_op || x->pc != y->pc ||
		    x->sp != y->sp || x->steps != y->steps) {
			odiff_diag("%s: text %02x %02x %02x (%u bytes): status "
			    "%u/%u fault %u/%u at %d/%d op %u/%u pc %d/%d sp "
			    "%d/%d steps %llu/%llu", what, pg[c].text[0],
			    pg[c].text[1], pg[c].text[2], pg[c].text_size,
			    x->status, y->status, x->fault, y->fault,
			    x->fault_pc, y->fault_pc, x->fault_op,
			    y->fault_op, x->pc, y->pc, x->sp, y->sp,
			    (unsigned long long)x->steps,
			    (unsigned long long)y->steps);
			bad++;
		}
	}
	odiff_ok(bad == 0, "%s: %u texts, every core as the reference",
	    what, n);
	er.ops->free(&er);
	eo.ops->free(&eo);
	machine_free(&mr);
	machine_free(&mo);
	unsetenv("MICDB_OCL_TEST");
	for (uint32_t i = 0; i < n; i++)
		free(pg[i].text);
	free(pg);
	free(pp);
	free(cp);
}

static void
isa_extra(void *ctx, const char *top)
{
	isa_divergence(ctx, top);
	for (uint32_t sw = 16; sw <= 64; sw += 48) {
		decode_faults("cpu", sw);
		decode_faults("gpu", sw);
	}
}

/* ---- the engine pair -------------------------------------------------- */

static int
isa_open_golden(void *ctx, struct engine *e, struct machine *m, char **cause)
{
	(void)ctx;
	return engine_ref_create(e, m, cause);
}

static int
isa_open_kernel(void *ctx, struct engine *e, struct machine *m, char **cause)
{
	(void)ctx;
	return engine_ocl_create(e, m, NULL, cause);
}

int
main(int argc, char **argv)
{
	static const struct odiff_level isa = {
		.name = "ISA",
		.open_golden = isa_open_golden,
		.open_kernel = isa_open_kernel,
		.set_steps_per_launch = engine_ocl_set_steps_per_launch,
		.stats = engine_ocl_stats,
		.extra_tests = isa_extra,
	};

	return odiff_main(&isa, argc, argv);
}
