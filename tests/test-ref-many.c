/*
 * Unit tests of the reference interpreter's many-core instructions
 * (ref.c, machine.c): barriers, the active mask, and MIMD machines that
 * run a different program on each core.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "machine.h"
#include "memmap.h"
#include "ref-test-util.h"
#include "ref.h"
#include "tap.h"

/* ---- many cores: barrier, mask, MIMD ---- */

static void
test_barrier(void)
{
	struct fix f;
	struct ref_summary s;
	const struct core *c;
	int i;

	/* Core i counts i down before the barrier: cores arrive at steps
	 * 4, 9 and 14. */
	setup(&f, T(OP_COREID, OP_DUP, OP_IFEQ, W16(10), OP_BIPUSH, 1,
	    OP_ISUB, OP_GOTO, W16(-7), OP_NOP,
	    OP_BARRIER, OP_COREID, OP_HALT),	/* 12 */
	    (struct opts){ .ncores = 3 });
	c = f.m.cores;
	for (i = 0; i < 4; i++)
		ref_step(&f.m, NULL, &s);
	ok(c[0].status == CORE_WAITING && c[0].pc == 13 && s.waiting == 1 &&
	    s.running == 2, "step 4: core 0 waits, PC past BARRIER");
	for (; i < 13; i++)
		ref_step(&f.m, NULL, &s);
	ok(c[0].status == CORE_WAITING && c[1].status == CORE_WAITING &&
	    c[2].status == CORE_RUNNING && s.waiting == 2 && s.running == 1,
	    "step 13: cores 0 and 1 wait for core 2");
	ok(c[0].steps == 4 && c[1].steps == 9 && c[2].steps == 13,
	    "waiting cores do not execute");
	ref_step(&f.m, NULL, &s);
	ok(s.running == 3 && s.waiting == 0 && s.executed == 1 &&
	    c[2].pc == 13, "step 14: released at the end of the step where "
	    "the last core arrives");
	ref_step(&f.m, NULL, &s);
	ok(s.executed == 3 && c[0].pc == 14 && c[1].pc == 14 &&
	    c[2].pc == 14 && c[1].tos == 1, "step 15: all run on together");
	teardown(&f);

	/* Core 0 halts at step 5 while 1 and 2 wait from step 3. */
	setup(&f, T(OP_COREID, OP_IFEQ, W16(5), OP_BARRIER, OP_HALT,
	    OP_NOP, OP_NOP, OP_HALT), (struct opts){ .ncores = 3 });
	c = f.m.cores;
	for (i = 0; i < 4; i++)
		ref_step(&f.m, NULL, &s);
	ok(c[1].status == CORE_WAITING && c[2].status == CORE_WAITING &&
	    c[0].status == CORE_RUNNING, "running core 0 holds the barrier");
	ref_step(&f.m, NULL, &s);
	ok(c[0].status == CORE_HALTED && c[1].status == CORE_RUNNING &&
	    c[2].status == CORE_RUNNING, "a halted core does not block it");
	teardown(&f);

	/* The same with a fault. */
	setup(&f, T(OP_COREID, OP_IFEQ, W16(5), OP_BARRIER, OP_HALT,
	    OP_NOP, OP_NOP, OP_ERR), (struct opts){ .ncores = 3 });
	c = f.m.cores;
	for (i = 0; i < 5; i++)
		ref_step(&f.m, NULL, &s);
	ok(c[0].status == CORE_ERROR && c[1].status == CORE_RUNNING &&
	    s.faulted == 1 && s.running == 2,
	    "a faulted core does not block it");
	teardown(&f);

	/* ref_exec alone never releases. */
	setup(&f, T(OP_BARRIER, OP_HALT), (struct opts){ 0 });
	c = f.m.cores;
	ref_exec(&f.m, 0);
	ok(c[0].status == CORE_WAITING && c[0].pc == 1,
	    "ref_exec: BARRIER waits");
	is_int(ref_exec(&f.m, 0), 0, "a waiting core does not execute");
	is_int(ref_barrier_release(&f.m), 1, "release with all waiting");
	is_int(c[0].status, CORE_RUNNING, "released");
	is_int(ref_barrier_release(&f.m), 0, "nothing to release");
	teardown(&f);
}

static void
test_mask(void)
{
	uint8_t mask01[2] = { 1, 0 };
	struct ref_mask m01 = { mask01 }, all = { NULL };
	struct fix f;
	struct ref_summary s;
	struct core before;
	const struct core *c;
	int i;

	setup(&f, T(OP_BIPUSH, 1, OP_GOTO, W16(-2)),
	    (struct opts){ .ncores = 2 });
	c = f.m.cores;
	before = c[1];
	for (i = 0; i < 3; i++)
		ref_step(&f.m, &m01, &s);
	ok(s.executed == 1 && c[0].steps == 3 && c[0].sp == BASE + 5,
	    "mask: core 0 steps");
	ok(memcmp(&before, &c[1], sizeof before) == 0 &&
	    mem(&f, 1, BASE + 4) == 0, "mask: core 1 keeps its state");
	is_int(f.m.step, 3, "masked steps count as global steps");
	teardown(&f);

	/* A masked-out running core holds a barrier. */
	setup(&f, T(OP_BARRIER, OP_HALT), (struct opts){ .ncores = 2 });
	c = f.m.cores;
	ref_step(&f.m, &m01, &s);
	ref_step(&f.m, &m01, &s);
	ok(c[0].status == CORE_WAITING && c[1].status == CORE_RUNNING &&
	    c[1].pc == 0 && s.executed == 0,
	    "masked running core holds the barrier");
	ref_step(&f.m, &all, &s);
	ok(c[0].status == CORE_RUNNING && c[1].status == CORE_RUNNING &&
	    c[0].pc == 1 && c[1].pc == 1, "unmasked: it arrives, release");
	teardown(&f);
}

static void
test_mimd(void)
{
	int32_t cpa[1] = { 'A' }, cpb[2] = { 'B', 'C' };
	struct program pa, pb;
	const struct program *progs[2] = { &pa, &pb };
	uint16_t core_prog[3] = { 0, 1, 0 };
	struct machine_config cfg = { 3, 64, 64, 32 };
	struct machine m;
	char *cause = NULL;
	int i;

	prog_init(&pa, T(OP_LDC_W, W16(0), OP_OUT, OP_COREID, OP_PUTSTATIC,
	    W16(0), OP_HALT), cpa, 1, 2);
	prog_init(&pb, T(OP_LDC_W, W16(1), OP_OUT, OP_COREID, OP_OUT,
	    OP_BIPUSH, 1, OP_ATOMICADD, W16(1), OP_HALT), cpb, 2, 5);
	if (!ok(machine_init(&m, &cfg, progs, 2, core_prog, &cause) == 0,
	    "MIMD machine"))
		tap_diag("%s", cause);
	ok(m.cores[0].prog == 0 && m.cores[1].prog == 1 &&
	    m.cores[2].prog == 0, "program per core");
	ok(m.cores[0].sp == BASE + 1 && m.cores[1].sp == BASE + 4,
	    "each core starts with its program's main locals");
	is_int(machine_fetch_byte(&m, 1, 6), OP_BIPUSH,
	    "fetch reads the core's own text");
	for (i = 0; i < 10; i++)
		ref_step(&m, NULL, NULL);
	ok(m.io[0].out.len == 1 && m.io[0].out.data[0] == 'A' &&
	    m.io[2].out.len == 1 && m.io[2].out.data[0] == 'A',
	    "cores 0 and 2 run program A with its pool");
	ok(m.io[1].out.len == 2 && memcmp(m.io[1].out.data, "C\1", 2) == 0,
	    "core 1 runs program B; core ids stay global");
	ok(m.globals[0] == 2 && m.globals[1] == 1,
	    "globals are shared between programs");
	machine_free(&m);
	prog_fini(&pa);
	prog_fini(&pb);
}

int
main(void)
{
	test_barrier();
	test_mask();
	test_mimd();
	return done_testing();
}
