/*
 * The OpenCL engine's block marks (context.h): after a launch the host
 * reads only the statuses of the blocks of 32 cores that had news, keeps
 * the status counts from them, and at the end of a run() converts only
 * the blocks that ran (or had news, or a barrier release).  Checked
 * against the reference engine on a program built to stress exactly
 * that bookkeeping: blocks that go quiet at once (every
 * core halts) next to blocks where some cores halt and others run, loop
 * lengths that differ per core so that cores stop in different launches,
 * a barrier (a release the host does before the device sees it), output
 * from a few cores, and one core that faults.  Machines of 1, 70 (a
 * partial last block) and 200 cores (a partial last work-group), both
 * context layouts, the mapped (zero-copy) and the copied host view,
 * fixed and adaptive steps per launch, with and without stop-on-fault
 * and breakpoints; every run() is a few steps long, so runs end at every
 * kind of boundary.  After every run: stop reason, steps, stop cores,
 * every register, status and counter of every core, output.
 *
 * The last check makes the proportionality observable: a register of a
 * core in a block that never runs again is changed on the host behind
 * the engine's back; the engine must leave it alone (it converts only
 * blocks that ran), where converting every core would overwrite it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "engine-ocl.h"
#include "engine.h"
#include "machine.h"
#include "ocl.h"
#include "program.h"
#include "tap.h"

/* Cores with me & 3 == 3 and cores 160 and up halt at once (blocks 5
 * and 6 of 200 cores go quiet), the others loop 4 (me & 7) + 3 times,
 * meet at a barrier, core me & 15 == 0 prints, core 37 faults, and the
 * rest loop (me & 31) + 1 times more. */
static const char program_src[] =
    ".main\n"
    ".var\n"
    "me\n"
    "n\n"
    ".end-var\n"
    "	COREID\n"
    "	ISTORE me\n"
    "	ILOAD me\n"
    "	BIPUSH 100\n"
    "	ISUB\n"
    "	BIPUSH 60\n"
    "	ISUB\n"
    "	IFLT LOW\n"
    "	GOTO QUIT\n"
    "LOW:	ILOAD me\n"
    "	BIPUSH 3\n"
    "	IAND\n"
    "	BIPUSH 3\n"
    "	ISUB\n"
    "	IFEQ QUIT\n"
    "	ILOAD me\n"
    "	BIPUSH 7\n"
    "	IAND\n"
    "	DUP\n"
    "	IADD\n"
    "	DUP\n"
    "	IADD\n"
    "	BIPUSH 3\n"
    "	IADD\n"
    "	ISTORE n\n"
    "L1:	IINC n -1\n"
    "	ILOAD n\n"
    "	IFEQ B1\n"
    "	GOTO L1\n"
    "B1:	BARRIER\n"
    "	ILOAD me\n"
    "	BIPUSH 15\n"
    "	IAND\n"
    "	IFEQ SAY\n"
    "	GOTO AFTER\n"
    "SAY:	BIPUSH 65\n"
    "	OUT\n"
    "AFTER:	ILOAD me\n"
    "	BIPUSH 37\n"
    "	ISUB\n"
    "	IFEQ BAD\n"
    "	ILOAD me\n"
    "	BIPUSH 31\n"
    "	IAND\n"
    "	BIPUSH 1\n"
    "	IADD\n"
    "	ISTORE n\n"
    "L2:	IINC n -1\n"
    "	ILOAD n\n"
    "	IFEQ QUIT\n"
    "	GOTO L2\n"
    "BAD:	ERR\n"
    "QUIT:	HALT\n"
    ".end-main\n";

#define MAX_RUNS 400

struct config {
	uint32_t	 ncores;
	const char	*layout;        /* MICDB_OCL_TEST layout */
	const char	*zero_copy;     /* MICDB_OCL_TEST zero_copy */
	uint64_t	 k;             /* steps per launch, 0 adaptive */
	int		 stop_on_fault;
	int		 bps;
};

/* The first difference between two cores, or NULL. */
static const char *
core_diff(const struct core *a, const struct core *b)
{
#define CMP(f) if (a->f != b->f) return #f
	CMP(pc); CMP(sp); CMP(lv); CMP(cpp); CMP(tos); CMP(opc); CMP(h);
	CMP(mar); CMP(mdr); CMP(mbr); CMP(mpc); CMP(n); CMP(z);
	CMP(status); CMP(fault); CMP(prog); CMP(fault_pc); CMP(fault_op);
	CMP(steps); CMP(cycles);
#undef CMP
	return NULL;
}

/* Reference and OpenCL agree after a run: 1, else a diagnostic and 0. */
static int
same_state(const char *name, int run, const struct machine *mr,
    const struct machine *mo, const struct engine_stop *sr,
    const struct engine_stop *so)
{
	if (sr->reason != so->reason || sr->steps_run != so->steps_run ||
	    sr->ncores != so->ncores || mr->step != mo->step) {
		tap_diag("%s, run %d: stop %d after %llu steps (%zu cores) "
		    "at step %llu, reference %d after %llu (%zu) at %llu",
		    name, run, (int)so->reason,
		    (unsigned long long)so->steps_run, so->ncores,
		    (unsigned long long)mo->step, (int)sr->reason,
		    (unsigned long long)sr->steps_run, sr->ncores,
		    (unsigned long long)mr->step);
		return 0;
	}
	for (size_t i = 0; i < sr->ncores; i++)
		if (sr->cores[i] != so->cores[i] ||
		    sr->bp_ids[i] != so->bp_ids[i]) {
			tap_diag("%s, run %d: stop core %zu is %u (bp %u), "
			    "reference %u (bp %u)", name, run, i, so->cores[i],
			    so->bp_ids[i], sr->cores[i], sr->bp_ids[i]);
			return 0;
		}
	for (uint32_t c = 0; c < mr->cfg.ncores; c++) {
		const char *f = core_diff(&mr->cores[c], &mo->cores[c]);
		const struct buf *br = &mr->io[c].out, *bo = &mo->io[c].out;

		if (f != NULL) {
			tap_diag("%s, run %d, step %llu: core %u differs in %s",
			    name, run, (unsigned long long)mr->step, c, f);
			return 0;
		}
		if (br->len != bo->len || (br->len > 0 &&
		    memcmp(br->data, bo->data, br->len) != 0)) {
			tap_diag("%s, run %d: core %u output differs (%zu "
			    "bytes, reference %zu)", name, run, c, bo->len,
			    br->len);
			return 0;
		}
	}
	return 1;
}

/* m->progs points at *p (a machine does not own its program table). */
static int
make_machine(const struct program **p, uint32_t n, struct machine *m)
{
	struct machine_config cfg = { n, 64, 1024, 32 };
	char *cause = NULL;

	if (machine_init(m, &cfg, p, 1, NULL, &cause) != 0) {
		tap_diag("machine_init: %s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* MICDB_OCL_TEST's other keys: the conversion's threads (see main). */
static const char *tune_threads = "";

/* The engine's layout and context copy (MICDB_OCL_TEST). */
static void
tune(const char *layout, const char *zero_copy)
{
	char *spec = xasprintf("layout=%s,zero_copy=%s%s", layout, zero_copy,
	    tune_threads);

	setenv("MICDB_OCL_TEST", spec, 1);
	free(spec);
}

/* Run both engines in runs of a few steps to the end; 1 if they agree
 * after every run. */
static int
compare(const struct program *p, const struct config *cf, const char *name)
{
	/* run lengths: 1, 2, 3, 1, 5, 8, 13, 1, ... (never the same
	 * boundaries twice in a row) */
	static const uint64_t lens[] = { 1, 2, 3, 1, 5, 8, 13, 1, 21, 4 };
	struct machine mr, mo;
	struct engine er, eo;
	struct engine_bp bps[2];
	uint8_t *odd;
	uint32_t a0 = 0, a1 = 0;
	char *cause = NULL;
	int good = 1, run;

	tune(cf->layout, cf->zero_copy);
	if (make_machine(&p, cf->ncores, &mr) != 0)
		return 0;
	if (make_machine(&p, cf->ncores, &mo) != 0) {
		machine_free(&mr);
		return 0;
	}
	if (engine_ref_create(&er, &mr, &cause) != 0 ||
	    engine_ocl_create(&eo, &mo, NULL, &cause) != 0) {
		tap_diag("%s: %s", name, cause);
		free(cause);
		machine_free(&mr);
		machine_free(&mo);
		return 0;
	}
	if (cf->k != 0)
		engine_ocl_set_steps_per_launch(&eo, cf->k);
	odd = xcalloc(cf->ncores, 1);
	for (uint32_t c = 1; c < cf->ncores; c += 2)
		odd[c] = 1;
	memset(bps, 0, sizeof bps);
	/* the barrier's next instruction on odd cores (released cores sit
	 * there), and the second loop on every core */
	bps[0].id = 1;
	bps[0].cores = odd;
	bps[1].id = 2;
	if (program_find_symbol(p, "B1", &a0) != 0 ||
	    program_find_symbol(p, "L2", &a1) != 0) {
		tap_diag("%s: labels B1 and L2 not found", name);
		good = 0;
	}
	bps[0].pc = (int32_t)a0 + 1;	/* BARRIER is one byte */
	bps[1].pc = (int32_t)a1;
	for (run = 0; good && run < MAX_RUNS; run++) {
		struct engine_run r;
		struct engine_stop sr, so;

		memset(&r, 0, sizeof r);
		r.max_steps = lens[run % (sizeof lens / sizeof lens[0])];
		r.stop_on_fault = cf->stop_on_fault;
		r.bps = bps;
		r.nbps = cf->bps ? 2 : 0;
		if (er.ops->run(&er, &r, &sr, &cause) != 0 ||
		    eo.ops->run(&eo, &r, &so, &cause) != 0) {
			tap_diag("%s, run %d: %s", name, run, cause);
			free(cause);
			cause = NULL;
			good = 0;
			break;
		}
		good = same_state(name, run, &mr, &mo, &sr, &so);
		if (sr.reason == STOP_DONE || sr.reason == STOP_DEADLOCK)
			break;
	}
	if (good && run >= MAX_RUNS) {
		tap_diag("%s: not done after %d runs", name, MAX_RUNS);
		good = 0;
	}
	free(odd);
	engine_free(&er);
	engine_free(&eo);
	machine_free(&mr);
	machine_free(&mo);
	return good;
}

/*
 * 200 cores; once cores 160.. have halted (blocks 5 and 6 never run
 * again), core 170's PC is changed on the host without push_cores.  The
 * runs after that (no stop cuts a launch, so no checkpoint restore
 * converts every core) must leave it as it is: 1 if they did.
 */
static int
quiet_blocks_untouched(const struct program *p, const char *layout,
    const char *zero_copy)
{
	struct machine m;
	struct engine e;
	struct engine_run r;
	struct engine_stop st;
	char *cause = NULL;
	int good = 1;

	tune(layout, zero_copy);
	if (make_machine(&p, 200, &m) != 0)
		return 0;
	if (engine_ocl_create(&e, &m, NULL, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		machine_free(&m);
		return 0;
	}
	memset(&r, 0, sizeof r);
	r.max_steps = 30;
	if (e.ops->run(&e, &r, &st, &cause) != 0 ||
	    m.cores[170].status != CORE_HALTED) {
		tap_diag("the first 30 steps: %s", cause ? cause :
		    "core 170 has not halted");
		good = 0;
	}
	m.cores[170].pc = 0x7777;
	for (int i = 0; good && i < 4; i++) {
		r.max_steps = i == 3 ? UINT64_MAX : 1 + 9 * (uint64_t)i;
		if (e.ops->run(&e, &r, &st, &cause) != 0) {
			tap_diag("%s", cause);
			good = 0;
		}
	}
	if (good && (st.reason != STOP_DONE || m.cores[170].pc != 0x7777)) {
		tap_diag("stop %d, core 170 at pc 0x%x", (int)st.reason,
		    (unsigned)m.cores[170].pc);
		good = 0;
	}
	free(cause);
	engine_free(&e);
	machine_free(&m);
	return good;
}

int
main(void)
{
	static const uint32_t cores[] = { 1, 70, 200 };
	static const char *const layouts[] = { "cpu", "gpu" };
	static const char *const copies[] = { "1", "0" };
	struct ocl_devices l;
	struct program p;
	struct asm_errors errs = { 0 };
	char *cause = NULL;

	if (ocl_devices_list(&l, &cause) != 0) {
		printf("1..0 # SKIP %s\n", cause);
		free(cause);
		return 77;
	}
	ocl_devices_free(&l);
	if (asm_assemble("marks.jas", program_src, strlen(program_src), NULL,
	    &p, &errs) != 0) {
		for (size_t i = 0; i < errs.count; i++)
			tap_diag("%s", errs.msg[i]);
		asm_errors_free(&errs);
		ok(0, "the test program assembles");
		return done_testing();
	}
	p.main_nlocals = program_main_nlocals(&p);
	/* thr: conversions split over 3 threads however small (the
	 * engine does that from 65,536 cores on) */
	for (int thr = 0; thr < 2; thr++) {
	if (thr)
		tune_threads = ",host_threads=3,convert_min=1";
	for (size_t ci = thr; ci < sizeof cores / sizeof cores[0]; ci++)
		for (int li = 0; li < 2; li++)
			for (int zi = 0; zi < 2; zi++)
				for (int v = 0; v < 4; v++) {
					struct config cf = {
						.ncores = cores[ci],
						.layout = layouts[li],
						.zero_copy = copies[zi],
						.k = v % 2 ? 0 : 3,
						.stop_on_fault = v >= 2,
						.bps = v == 1 || v == 3,
					};
					char *name = xasprintf("%u cores, %s "
					    "layout, %s, K %s, %s%s%s",
					    cf.ncores, cf.layout, zi ?
					    "copied context" : "mapped context",
					    cf.k ? "3" : "adaptive",
					    cf.stop_on_fault ?
					    "stop on fault" : "faults go on",
					    cf.bps ? ", breakpoints" : "",
					    thr ? ", 3 conversion threads" :
					    "");

					ok(compare(&p, &cf, name), "%s: every "
					    "run as the reference's", name);
					free(name);
				}
	}
	tune_threads = "";
	for (int li = 0; li < 2; li++)
		for (int zi = 0; zi < 2; zi++)
			ok(quiet_blocks_untouched(&p, layouts[li], copies[zi]),
			    "%s layout, %s context: blocks that do not run are "
			    "not converted", layouts[li], zi ? "copied" :
			    "mapped");
	unsetenv("MICDB_OCL_TEST");
	program_free(&p);
	return done_testing();
}
