/*
 * Unit tests of the reference interpreter's many-core instructions
 * (ref.c, machine.c): barriers, the active mask, MIMD machines that
 * run a different program on each core, and the fork-join model.
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

/* ---- fork-join (forkjoin.h, doc/manycore.md section 1) ---- */

/* main: BIPUSH 7, BIPUSH 5, INVOKEVIRTUAL m (fork 0), BIPUSH 7, BIPUSH 9,
 * INVOKEVIRTUAL m (fork 1), HALT; m(a): ILOAD 1, IRETURN, at 15. */
#define FJ_PROG T(OP_BIPUSH, 7, OP_BIPUSH, 5, OP_INVOKEVIRTUAL, W16(0), \
	OP_BIPUSH, 7, OP_BIPUSH, 9, OP_INVOKEVIRTUAL, W16(0), OP_HALT, \
	W16(2), W16(0), OP_ILOAD, 1, OP_IRETURN)
static const int32_t fj_cp[] = { 15 };

static void
fj_steps(struct fix *f, int n, struct ref_summary *s)
{
	for (int i = 0; i < n; i++)
		ref_step(&f->m, NULL, s);
}

static void
test_fork_join(void)
{
	struct fix f;
	struct ref_summary s;
	const struct core *c;

	setup(&f, FJ_PROG, (struct opts){ .ncores = 3, .cp = fj_cp,
	    .ncp = 1 });
	machine_fork_join(&f.m);
	c = f.m.cores;
	ok(c[0].fork == FJ_ON && c[2].fork == FJ_ON && f.m.fork_join,
	    "fork-join: every core starts with the model's bit, count 0");
	fj_steps(&f, 3, &s);
	ok(c[0].pc == 19 && c[0].lv == BASE + 4 && c[0].fork == (FJ_ON |
	    FJ_IN | 1), "fork 0: core 0 carries out the call, forked");
	ok(c[1].pc == 7 && c[1].sp == BASE + 4 && c[1].tos == 0 &&
	    mem(&f, 1, BASE + 4) == 0 && c[1].fork == (FJ_ON | 1) &&
	    c[2].fork == (FJ_ON | 1), "fork 0: cores 1 and 2 pop the "
	    "reference and the argument and push 0");
	fj_steps(&f, 2, &s);
	ok(c[0].status == CORE_JOINING && c[0].pc == 7 && c[0].tos == 5 &&
	    c[0].fork == (FJ_ON | 1) && s.joining == 1 && s.running == 2,
	    "back in main, core 0 waits at the join with its result");
	fj_steps(&f, 1, &s);
	ok(c[0].steps == 5 && c[1].pc == 19 && c[2].pc == 14 &&
	    c[1].fork == (FJ_ON | FJ_IN | 2) && c[2].fork == (FJ_ON | 2),
	    "fork 1: core 1 calls, core 2 skips, core 0 does not run");
	fj_steps(&f, 1, &s);
	ok(c[2].status == CORE_HALTED && c[0].status == CORE_JOINING &&
	    s.running == 1, "a halted core does not hold the join");
	fj_steps(&f, 1, &s);
	ok(s.running == 2 && s.joining == 0 && c[1].tos == 9 &&
	    c[1].pc == 14, "the join completes at the end of the step after "
	    "which no core runs");
	fj_steps(&f, 4, &s);
	ok(s.halted == 3 && c[0].fork == (FJ_ON | 2) && c[0].tos == 0 &&
	    c[1].fork == (FJ_ON | 2), "after the join core 0 skips fork 1");
	machine_reset_core(&f.m, 0);
	ok(c[0].fork == FJ_ON, "a reset core keeps the model, count 0");
	teardown(&f);

	/* One core: fork 1 is >= N, nobody's call. */
	setup(&f, FJ_PROG, (struct opts){ .cp = fj_cp, .ncp = 1 });
	machine_fork_join(&f.m);
	c = f.m.cores;
	fj_steps(&f, 5, &s);
	ok(c[0].status == CORE_RUNNING && c[0].pc == 7 && c[0].tos == 5,
	    "one core: the join completes in the step it returns");
	fj_steps(&f, 3, &s);
	ok(c[0].pc == 14 && c[0].tos == 0 && c[0].fork == (FJ_ON | 2),
	    "k >= N: every core skips the call");
	teardown(&f);

	/* Without the model every core calls. */
	setup(&f, FJ_PROG, (struct opts){ .ncores = 2, .cp = fj_cp,
	    .ncp = 1 });
	c = f.m.cores;
	fj_steps(&f, 3, &s);
	ok(c[0].pc == 19 && c[1].pc == 19 && c[1].fork == 0,
	    "SPMD: every core carries out every call");
	teardown(&f);

	/* A barrier does not wait for a core at the join: core 1 passes
	 * its BARRIER while core 0 joins, then core 0 meets it alone. */
	setup(&f, T(OP_BIPUSH, 7, OP_BIPUSH, 5, OP_INVOKEVIRTUAL, W16(0),
	    OP_POP, OP_BARRIER, OP_HALT,
	    W16(2), W16(0), OP_ILOAD, 1, OP_IRETURN),	/* m at 10 */
	    (struct opts){ .ncores = 2, .cp = (const int32_t[]){ 10 },
	    .ncp = 1 });
	machine_fork_join(&f.m);
	c = f.m.cores;
	fj_steps(&f, 5, &s);
	ok(c[0].status == CORE_JOINING && c[1].status == CORE_RUNNING &&
	    c[1].pc == 9, "the barrier completes without the joining core");
	fj_steps(&f, 1, &s);
	ok(c[1].status == CORE_HALTED && c[0].status == CORE_RUNNING,
	    "then the join completes");
	fj_steps(&f, 3, &s);
	ok(c[0].status == CORE_HALTED && c[0].steps == 8,
	    "core 0 passes its BARRIER alone");
	teardown(&f);

	/* A faulting INVOKEVIRTUAL changes nothing, the count included. */
	setup(&f, T(OP_BIPUSH, 7, OP_INVOKEVIRTUAL, W16(0), OP_HALT,
	    W16(2), W16(0), OP_ILOAD, 1, OP_IRETURN),
	    (struct opts){ .ncores = 2, .cp = (const int32_t[]){ 6 },
	    .ncp = 1 });
	machine_fork_join(&f.m);
	c = f.m.cores;
	fj_steps(&f, 2, &s);
	ok(c[0].fault == FAULT_STACK_UNDERFLOW &&
	    c[1].fault == FAULT_STACK_UNDERFLOW && c[0].fork == FJ_ON &&
	    c[1].fork == FJ_ON, "an underflowing fork or skip faults, count "
	    "unchanged");
	teardown(&f);
}

int
main(void)
{
	test_barrier();
	test_mask();
	test_mimd();
	test_fork_join();
	return done_testing();
}
