/*
 * Unit tests of the machine state (machine.c) and the reference
 * interpreter (ref.c), the golden model of every other level: machine
 * set-up, the memory map, heap and input, then every instruction's
 * semantics one opcode at a time, and frames (invoke, return,
 * recursion).  Faults are test-ref-faults.c's; barriers, the active mask
 * and MIMD are test-ref-many.c's; ref-test-util.h holds the fixture and
 * the checks all three share.
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

/* The absurd --cores test needs calloc to return NULL under ASan rather
 * than abort the process; harmless without ASan. */
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* ---- machine_init, memory map, heap, input ---- */

static void
test_init_state(void)
{
	struct fix f;
	uint32_t i;
	int good = 1;
	int32_t floor, nlocals;

	setup(&f, T(OP_HALT), (struct opts){ .ncores = 3, .nlocals = 5 });
	for (i = 0; i < 3; i++) {
		const struct core *c = &f.m.cores[i];

		if (c->pc != 0 || c->lv != BASE || c->sp != BASE + 4 ||
		    c->tos != 0 || c->cpp != MM_CPP || c->mpc != 0 ||
		    c->status != CORE_RUNNING || c->fault != FAULT_NONE ||
		    c->prog != 0 || c->steps != 0)
			good = 0;
	}
	ok(good, "init: every core at main (LV base, SP = LV + 4, CPP, "
	    "PC 0, RUNNING)");
	is_int(f.m.heap_top, 0, "init: heap empty");
	is_int(f.m.step, 0, "init: step 0");
	ok(ref_frame_floor(&f.m, 1, &floor) == 0 && floor == BASE + 4,
	    "main frame floor = LV + nlocals - 1");
	ok(ref_frame_nlocals(&f.m, 1, &nlocals) == 0 && nlocals == 5,
	    "main frame nlocals = main_nlocals");
	teardown(&f);
}

static void
init_err(const struct machine_config *cfg, const struct program **progs,
    size_t nprogs, const uint16_t *core_prog, const char *want,
    const char *name)
{
	struct machine m;
	char *cause = NULL;
	int rc = machine_init(&m, cfg, progs, nprogs, core_prog, &cause);

	if (!ok(rc == -1 && cause != NULL && strstr(cause, want) != NULL,
	    "machine_init refuses %s", name))
		tap_diag("rc %d cause \"%s\", want \"%s\"", rc,
		    cause ? cause : "(null)", want);
	ok(m.cores == NULL && m.stacks == NULL && m.heap == NULL,
	    "machine_init %s: nothing left allocated", name);
	machine_free(&m);	/* must be harmless after a failure */
	free(cause);
}

static void
test_init_errors(void)
{
	struct program p, big;
	const struct program *progs[1] = { &p };
	const struct program *bigs[1] = { &big };
	struct machine_config good = { 4, 64, 256, 32 }, c;
	uint16_t cp2[4] = { 0, 0, 1, 0 };
	struct machine m;
	char *cause = NULL;
	const char *want = "not enough memory for 2147483647 cores x "
	    "1015808 stack words (";
	const char *tail = " MiB): lower --cores or --stack-words";

	prog_init(&p, T(OP_HALT), NULL, 0, 4);
	prog_init(&big, T(OP_HALT), NULL, 0, 64);

	c = good; c.ncores = 0;
	init_err(&c, progs, 1, NULL, "--cores", "0 cores");
	c = good; c.ncores = 0x80000000u;
	init_err(&c, progs, 1, NULL, "--cores", "2^31 cores");
	c = good; c.stack_words = 15;
	init_err(&c, progs, 1, NULL, "--stack-words", "15 stack words");
	c = good; c.stack_words = MM_MAX_STACK_WORDS + 1;
	init_err(&c, progs, 1, NULL, "--stack-words",
	    "a stack beyond the region");
	c = good; c.heap_words = MM_MAX_HEAP_WORDS + 1;
	init_err(&c, progs, 1, NULL, "--heap-words", "a heap too large");
	c = good; c.warp_width = 0;
	init_err(&c, progs, 1, NULL, "warp width", "warp width 0");
	c = good; c.warp_width = 65;
	init_err(&c, progs, 1, NULL, "warp width", "warp width 65");
	init_err(&good, progs, 0, NULL, "no program", "no programs");
	init_err(&good, progs, 1, cp2, "core 2 is given program 1",
	    "a core program index out of range");
	init_err(&good, bigs, 1, NULL, "raise --stack-words",
	    "main locals filling the stack");
	big.main_nlocals = 0;
	init_err(&good, bigs, 1, NULL, "main has no local words",
	    "main_nlocals 0");
	big.main_nlocals = 1;
	big.cp_size = MM_STACK_BASE - MM_CPP + 1;	/* never read */
	init_err(&good, bigs, 1, NULL, "constant pool",
	    "a constant pool overlapping the stack region");
	big.cp_size = 0;

	/* Absurd sizes: an error message, not an abort. */
	c = good; c.ncores = 0x7fffffff; c.stack_words = MM_MAX_STACK_WORDS;
	ok(machine_init(&m, &c, progs, 1, NULL, &cause) == -1 &&
	    cause != NULL && strncmp(cause, want, strlen(want)) == 0 &&
	    strlen(cause) > strlen(tail) &&
	    strcmp(cause + strlen(cause) - strlen(tail), tail) == 0,
	    "absurd cores x stack words: not-enough-memory message");
	tap_diag("%s", cause ? cause : "(null)");
	free(cause);
	cause = NULL;

	/* Limits that are allowed. */
	c = good; c.stack_words = 16; c.heap_words = 0; c.warp_width = 64;
	c.ncores = 1;
	ok(machine_init(&m, &c, progs, 1, NULL, &cause) == 0,
	    "stack 16, heap 0, warp 64 accepted");
	machine_free(&m);
	c.warp_width = 1;
	ok(machine_init(&m, &c, progs, 1, NULL, &cause) == 0,
	    "warp 1 accepted");
	machine_free(&m);
	prog_fini(&p);
	prog_fini(&big);
}

static void
test_memory_map(void)
{
	int32_t cp[2] = { 111, 222 };
	struct fix f;
	int32_t v = 0;
	int32_t sw = 64;

	setup(&f, T(OP_NOP, OP_HALT), (struct opts){ .ncores = 2, .cp = cp,
	    .ncp = 2, .heap_words = 100 });
	ok(machine_read_word(&f.m, 0, MM_CPP + 1, &v) == FAULT_NONE &&
	    v == 222, "read constant pool word");
	is_int(machine_read_word(&f.m, 0, MM_CPP + 2, &v), FAULT_MEM_RANGE,
	    "read past the constant pool");
	is_int(machine_write_word(&f.m, 0, MM_CPP, 5), FAULT_MEM_RANGE,
	    "constant pool is read-only");
	is_int(f.prog.cp[0], 111, "constant pool untouched by the write");
	is_int(machine_write_word(&f.m, 1, BASE, 77), FAULT_NONE,
	    "core 1 writes its stack base");
	ok(machine_read_word(&f.m, 0, BASE, &v) == FAULT_NONE && v == 0,
	    "core 0's stack is private");
	ok(machine_read_word(&f.m, 1, BASE, &v) == FAULT_NONE && v == 77,
	    "core 1 reads its own word");
	is_int(machine_write_word(&f.m, 0, BASE + sw - 1, 9), FAULT_NONE,
	    "last stack word writable");
	is_int(machine_read_word(&f.m, 0, BASE + sw, &v), FAULT_MEM_RANGE,
	    "word after the stack region");
	is_int(machine_read_word(&f.m, 0, BASE - 1, &v), FAULT_MEM_RANGE,
	    "word below the stack region");
	is_int(machine_write_word(&f.m, 1, MM_GLOBALS_BASE + 65535, 3),
	    FAULT_NONE, "last global writable");
	ok(machine_read_word(&f.m, 0, MM_GLOBALS_BASE + 65535, &v) ==
	    FAULT_NONE && v == 3 && f.m.globals[65535] == 3,
	    "globals are shared");
	is_int(machine_read_word(&f.m, 0, MM_GLOBALS_BASE + 65536, &v),
	    FAULT_MEM_RANGE, "word after the globals");
	is_int(machine_write_word(&f.m, 0, MM_HEAP_BASE + 99, 4), FAULT_NONE,
	    "last heap word writable (above heap_top too)");
	is_int(machine_read_word(&f.m, 0, MM_HEAP_BASE + 100, &v),
	    FAULT_MEM_RANGE, "word after the heap");
	is_int(machine_read_word(&f.m, 0, 0, &v), FAULT_MEM_RANGE,
	    "text is not word-addressable");
	is_int(machine_read_word(&f.m, 0, MM_DEV_CONSOLE, &v),
	    FAULT_MEM_RANGE, "device words are not handled here");
	is_int(machine_write_word(&f.m, 0, INT32_MIN, 1), FAULT_MEM_RANGE,
	    "INT32_MIN");
	is_int(machine_read_word(&f.m, 0, INT32_MAX, &v), FAULT_MEM_RANGE,
	    "INT32_MAX");
	is_int(machine_fetch_byte(&f.m, 0, 1), OP_HALT, "fetch text byte");
	is_int(machine_fetch_byte(&f.m, 0, 2), -1, "fetch past the text");
	is_int(machine_fetch_byte(&f.m, 0, -1), -1, "fetch below the text");
	teardown(&f);
}

static void
test_heap(void)
{
	struct fix f;
	int fault = -1;
	int32_t r1, r2, r3, addr = 0;

	setup(&f, T(OP_HALT), (struct opts){ .heap_words = 16 });
	r1 = machine_new_array(&f.m, 3, &fault);
	ok(fault == FAULT_NONE && r1 == MM_HEAP_BASE, "first array at the "
	    "heap base");
	ok(f.m.heap[0] == MM_ARRAY_TAG && f.m.heap[1] == 3 &&
	    f.m.heap_top == 5, "tag, length, heap_top");
	f.m.heap[7] = 99;	/* dirty word above heap_top */
	r2 = machine_new_array(&f.m, 2, &fault);
	ok(fault == FAULT_NONE && r2 == MM_HEAP_BASE + 5 && f.m.heap[7] == 0
	    && f.m.heap[8] == 0, "second array follows, elements zeroed");
	r3 = machine_new_array(&f.m, 0, &fault);
	ok(fault == FAULT_NONE && r3 == MM_HEAP_BASE + 9 &&
	    f.m.heap_top == 11, "empty array takes its header");
	ok(machine_new_array(&f.m, -1, &fault) == 0 &&
	    fault == FAULT_ARRAY_SIZE, "negative size");
	ok(machine_new_array(&f.m, 4, &fault) == 0 && fault == FAULT_HEAP_FULL
	    && f.m.heap_top == 11, "heap full, heap_top unchanged");
	ok(machine_new_array(&f.m, INT32_MAX, &fault) == 0 &&
	    fault == FAULT_HEAP_FULL, "INT32_MAX elements: heap full");
	ok(machine_new_array(&f.m, 3, &fault) == MM_HEAP_BASE + 11 &&
	    fault == FAULT_NONE && f.m.heap_top == 16, "exact fit");

	ok(machine_array_elem(&f.m, r1, 2, &addr) == FAULT_NONE &&
	    addr == r1 + 4, "element address");
	is_int(machine_array_elem(&f.m, r1, 3, &addr), FAULT_ARRAY_BOUNDS,
	    "index = length");
	is_int(machine_array_elem(&f.m, r1, -1, &addr), FAULT_ARRAY_BOUNDS,
	    "index -1");
	is_int(machine_array_elem(&f.m, r3, 0, &addr), FAULT_ARRAY_BOUNDS,
	    "empty array");
	is_int(machine_array_elem(&f.m, r1 + 1, 0, &addr), FAULT_ARRAY_REF,
	    "reference into the middle");
	is_int(machine_array_elem(&f.m, 5, 0, &addr), FAULT_ARRAY_REF,
	    "small integer");
	is_int(machine_array_elem(&f.m, MM_HEAP_BASE - 1, 0, &addr),
	    FAULT_ARRAY_REF, "below the heap");
	is_int(machine_array_elem(&f.m, MM_HEAP_BASE + 15, 0, &addr),
	    FAULT_ARRAY_REF, "header would cross heap_top");
	is_int(machine_array_elem(&f.m, INT32_MAX, 0, &addr), FAULT_ARRAY_REF,
	    "INT32_MAX");
	f.m.heap[1] = 4;	/* length reaching into the next array: legal */
	is_int(machine_array_elem(&f.m, r1, 3, &addr), FAULT_NONE,
	    "length within heap_top accepted");
	f.m.heap[1] = 100;
	is_int(machine_array_elem(&f.m, r1, 0, &addr), FAULT_ARRAY_REF,
	    "length past heap_top");
	f.m.heap[1] = -1;
	is_int(machine_array_elem(&f.m, r1, 0, &addr), FAULT_ARRAY_REF,
	    "negative length");
	teardown(&f);

	/* A tag forged above heap_top is not an array. */
	setup(&f, T(OP_HALT), (struct opts){ .heap_words = 16 });
	f.m.heap[4] = MM_ARRAY_TAG;
	f.m.heap[5] = 1;
	is_int(machine_array_elem(&f.m, MM_HEAP_BASE + 4, 0, &addr),
	    FAULT_ARRAY_REF, "forged tag above heap_top");
	teardown(&f);
}

static void
test_input(void)
{
	struct fix f;

	setup(&f, T(OP_HALT), (struct opts){ .ncores = 2 });
	is_int(machine_take_input(&f.m, 0), -1, "no input");
	machine_add_input(&f.m, 0, (const uint8_t *)"ab", 2);
	is_int(machine_take_input(&f.m, 0), 'a', "first byte");
	machine_add_input(&f.m, 0, (const uint8_t *)"c\xff", 2);
	is_int(machine_take_input(&f.m, 0), 'b', "queued byte");
	is_int(machine_take_input(&f.m, 0), 'c', "appended byte");
	is_int(machine_take_input(&f.m, 0), 0xff, "byte 0xff is not EOF");
	is_int(machine_take_input(&f.m, 0), -1, "drained");
	is_int(machine_take_input(&f.m, 1), -1, "input is per core");
	teardown(&f);
}

static void
test_reset_core(void)
{
	struct fix f;
	const struct core *c;

	setup(&f, T(OP_BIPUSH, 7, OP_BIPUSH, 8, OP_HALT), (struct opts){ 0 });
	run_n(&f, 10);
	machine_reset_core(&f.m, 0);
	c = &f.m.cores[0];
	ok(c->status == CORE_RUNNING && c->pc == 0 && c->sp == BASE + 3 &&
	    c->lv == BASE && c->tos == 0 && c->steps == 0 &&
	    mem(&f, 0, BASE + 4) == 0 && mem(&f, 0, BASE + 5) == 0,
	    "reset core: registers and stack back to the start");
	teardown(&f);
}

/* ---- one opcode at a time ---- */

static void
test_push(void)
{
	int32_t cp[2] = { 0x12345678, 7 };
	struct fix f;
	const struct core *c;

	setup(&f, T(OP_BIPUSH, 5, OP_BIPUSH, NB(-3), OP_LDC_W, W16(1),
	    OP_NOP, OP_GC, OP_HALT), (struct opts){ .cp = cp, .ncp = 2 });
	c = &f.m.cores[0];
	step_check(&f, 2, BASE + 4, 5, "BIPUSH 5");
	step_check(&f, 4, BASE + 5, -3, "BIPUSH -3 sign-extends");
	step_check(&f, 7, BASE + 6, 7, "LDC_W 1");
	step_check(&f, 8, BASE + 6, 7, "NOP");
	step_check(&f, 9, BASE + 6, 7, "GC does nothing");
	ok(ref_exec(&f.m, 0) == 1 && c->status == CORE_HALTED &&
	    c->pc == 10 && c->fault == FAULT_NONE && c->sp == BASE + 6,
	    "HALT: HALTED, PC past it");
	is_int(c->steps, 6, "steps count HALT");
	ok(ref_exec(&f.m, 0) == 0 && c->steps == 6 && c->pc == 10,
	    "a halted core does not execute");
	teardown(&f);
}

static void
test_locals(void)
{
	struct fix f;

	setup(&f, T(OP_BIPUSH, 9, OP_ISTORE, 2, OP_ILOAD, 2, OP_IINC, 2,
	    NB(-5), OP_ILOAD, 2, OP_IINC, 3, 127, OP_ILOAD, 3, OP_HALT),
	    (struct opts){ 0 });
	step_check(&f, 2, BASE + 4, 9, "BIPUSH 9");
	step_check(&f, 4, BASE + 3, 0, "ISTORE 2 pops, TOS reloaded");
	is_int(mem(&f, 0, BASE + 2), 9, "ISTORE 2 wrote local 2");
	step_check(&f, 6, BASE + 4, 9, "ILOAD 2");
	step_check(&f, 9, BASE + 4, 9, "IINC 2 -5 leaves the stack");
	is_int(mem(&f, 0, BASE + 2), 4, "IINC 2 -5");
	step_check(&f, 11, BASE + 5, 4, "ILOAD 2 after IINC");
	step_check(&f, 14, BASE + 5, 4, "IINC 3 127");
	step_check(&f, 16, BASE + 6, 127, "ILOAD 3 (last local)");
	teardown(&f);
}

static void
test_stack_ops(void)
{
	struct fix f;

	setup(&f, T(OP_BIPUSH, 1, OP_BIPUSH, 2, OP_SWAP, OP_DUP, OP_POP,
	    OP_POP, OP_HALT), (struct opts){ 0 });
	step_check(&f, 2, BASE + 4, 1, "BIPUSH 1");
	step_check(&f, 4, BASE + 5, 2, "BIPUSH 2");
	step_check(&f, 5, BASE + 5, 1, "SWAP: top 1");
	is_int(mem(&f, 0, BASE + 4), 2, "SWAP: below 2");
	step_check(&f, 6, BASE + 6, 1, "DUP");
	is_int(mem(&f, 0, BASE + 5), 1, "DUP copied");
	step_check(&f, 7, BASE + 5, 1, "POP");
	step_check(&f, 8, BASE + 4, 2, "POP");
	teardown(&f);
}

static void
test_alu(void)
{
	int32_t cp[2] = { INT32_MAX, INT32_MIN };
	struct fix f;

	setup(&f, T(OP_LDC_W, W16(0), OP_BIPUSH, 1, OP_IADD,
	    OP_BIPUSH, 1, OP_ISUB, OP_POP,
	    OP_BIPUSH, 10, OP_BIPUSH, 3, OP_ISUB,
	    OP_BIPUSH, 0x0C, OP_BIPUSH, 0x0A, OP_IAND,
	    OP_BIPUSH, 0x0C, OP_BIPUSH, 0x0A, OP_IOR,
	    OP_BIPUSH, NB(-1), OP_LDC_W, W16(1), OP_IAND,
	    OP_BIPUSH, NB(-128), OP_BIPUSH, 1, OP_ISUB, OP_HALT),
	    (struct opts){ .cp = cp, .ncp = 2 });
	run_n(&f, 2);
	step_check(&f, 6, BASE + 4, INT32_MIN, "IADD wraps");
	run_n(&f, 1);
	step_check(&f, 9, BASE + 4, INT32_MAX, "ISUB wraps");
	run_n(&f, 3);
	step_check(&f, 15, BASE + 4, 7, "ISUB: below - top");
	run_n(&f, 2);
	step_check(&f, 20, BASE + 5, 8, "IAND");
	run_n(&f, 2);
	step_check(&f, 25, BASE + 6, 14, "IOR");
	run_n(&f, 2);
	step_check(&f, 31, BASE + 7, INT32_MIN, "IAND with -1");
	run_n(&f, 2);
	step_check(&f, 36, BASE + 8, -129, "ISUB negative");
	teardown(&f);
}

/* Run a two-instruction branch program and check where it went. */
static void
branch_case(const uint8_t *text, size_t n, int steps, int32_t pc,
    int32_t sp, const char *name)
{
	struct fix f;
	const struct core *c;

	setup(&f, text, n, (struct opts){ 0 });
	c = &f.m.cores[0];
	ok(run_n(&f, steps) && c->status == CORE_RUNNING && c->pc == pc &&
	    c->sp == sp, "%s", name);
	if (c->pc != pc || c->sp != sp)
		tap_diag("status %d pc %d sp %#x", c->status, c->pc,
		    (unsigned)c->sp);
	teardown(&f);
}

static void
test_branches(void)
{
	branch_case(T(OP_BIPUSH, 0, OP_IFEQ, W16(5), OP_BIPUSH, 1, OP_HALT),
	    2, 7, BASE + 3, "IFEQ 0: taken, offset from the opcode");
	branch_case(T(OP_BIPUSH, 1, OP_IFEQ, W16(5), OP_BIPUSH, 1, OP_HALT),
	    2, 5, BASE + 3, "IFEQ 1: not taken");
	branch_case(T(OP_BIPUSH, NB(-1), OP_IFLT, W16(5), OP_BIPUSH, 1,
	    OP_HALT), 2, 7, BASE + 3, "IFLT -1: taken");
	branch_case(T(OP_BIPUSH, 0, OP_IFLT, W16(5), OP_BIPUSH, 1, OP_HALT),
	    2, 5, BASE + 3, "IFLT 0: not taken");
	branch_case(T(OP_BIPUSH, 4, OP_BIPUSH, 4, OP_IF_ICMPEQ, W16(-4),
	    OP_HALT), 3, 0, BASE + 3, "IF_ICMPEQ equal: taken backwards");
	branch_case(T(OP_BIPUSH, 4, OP_BIPUSH, 5, OP_IF_ICMPEQ, W16(-4),
	    OP_HALT), 3, 7, BASE + 3, "IF_ICMPEQ unequal: not taken");
	branch_case(T(OP_NOP, OP_GOTO, W16(-1), OP_HALT), 2, 0, BASE + 3,
	    "GOTO backwards");
	branch_case(T(OP_GOTO, W16(4), OP_NOP, OP_NOP, OP_HALT), 1, 4,
	    BASE + 3, "GOTO forwards");
	branch_case(T(OP_GOTO, W16(0)), 5, 0, BASE + 3, "GOTO 0 loops");
	branch_case(T(OP_NOP, OP_GOTO, W16(-100)), 2, -99, BASE + 3,
	    "GOTO out of the text does not fault by itself");
}

static void
test_globals(void)
{
	struct fix f;

	setup(&f, T(OP_BIPUSH, 42, OP_PUTSTATIC, W16(256),
	    OP_GETSTATIC, W16(256), OP_BIPUSH, NB(-7),
	    OP_PUTSTATIC, W16(65535), OP_GETSTATIC, W16(65535),
	    OP_GETSTATIC, W16(0), OP_HALT), (struct opts){ 0 });
	run_n(&f, 1);
	step_check(&f, 5, BASE + 3, 0, "PUTSTATIC 256 pops");
	is_int(f.m.globals[256], 42, "PUTSTATIC 256 stored");
	step_check(&f, 8, BASE + 4, 42, "GETSTATIC 256");
	run_n(&f, 1);
	step_check(&f, 13, BASE + 4, 42, "PUTSTATIC 65535");
	is_int(f.m.globals[65535], -7, "last global");
	step_check(&f, 16, BASE + 5, -7, "GETSTATIC 65535");
	step_check(&f, 19, BASE + 6, 0, "globals start zeroed");
	teardown(&f);
}

static void
test_atomicadd(void)
{
	struct fix f;
	uint32_t i;
	int good = 1;

	setup(&f, T(OP_BIPUSH, 5, OP_ATOMICADD, W16(3), OP_BIPUSH, 1,
	    OP_ATOMICADD, W16(4), OP_HALT), (struct opts){ 0 });
	f.m.globals[3] = 10;
	f.m.globals[4] = INT32_MAX;
	run_n(&f, 1);
	step_check(&f, 5, BASE + 4, 10, "ATOMICADD pushes the old value");
	is_int(f.m.globals[3], 15, "ATOMICADD added");
	run_n(&f, 1);
	step_check(&f, 10, BASE + 5, INT32_MAX, "ATOMICADD old INT32_MAX");
	is_int(f.m.globals[4], INT32_MIN, "ATOMICADD wraps");
	teardown(&f);

	setup(&f, T(OP_BIPUSH, 1, OP_ATOMICADD, W16(0), OP_HALT),
	    (struct opts){ .ncores = 4 });
	ref_step(&f.m, NULL, NULL);
	ref_step(&f.m, NULL, NULL);
	for (i = 0; i < 4; i++)
		if (f.m.cores[i].tos != (int32_t)i)
			good = 0;
	ok(good && f.m.globals[0] == 4, "ATOMICADD on 4 cores: old values "
	    "0..3 in core order, total 4");
	teardown(&f);
}

static void
test_wide(void)
{
	struct fix f;
	const struct core *c;

	setup(&f, T(OP_BIPUSH, 33, OP_WIDE, OP_ISTORE, W16(300),
	    OP_WIDE, OP_ILOAD, W16(300), OP_WIDE, OP_IINC, W16(300), NB(-2),
	    OP_WIDE, OP_ILOAD, W16(300), OP_WIDE, OP_ILOAD, W16(0), OP_HALT),
	    (struct opts){ .nlocals = 301, .stack_words = 512 });
	c = &f.m.cores[0];
	run_n(&f, 1);
	/* SP is back on local 300, the floor of main's frame: TOS caches it. */
	step_check(&f, 6, BASE + 300, 33, "WIDE ISTORE 300");
	is_int(mem(&f, 0, BASE + 300), 33, "WIDE ISTORE 300 stored");
	is_int(c->steps, 2, "WIDE and its instruction are one step");
	step_check(&f, 10, BASE + 301, 33, "WIDE ILOAD 300");
	step_check(&f, 15, BASE + 301, 33, "WIDE IINC 300 -2 (8-bit const)");
	is_int(mem(&f, 0, BASE + 300), 31, "WIDE IINC stored");
	step_check(&f, 19, BASE + 302, 31, "WIDE ILOAD 300 after IINC");
	step_check(&f, 23, BASE + 303, 0, "WIDE ILOAD 0");
	teardown(&f);
}

static void
test_arrays(void)
{
	struct fix f;

	setup(&f, T(OP_BIPUSH, 3, OP_NEWARRAY, OP_ISTORE, 0,
	    OP_BIPUSH, 77, OP_BIPUSH, 2, OP_ILOAD, 0, OP_IASTORE,
	    OP_BIPUSH, 2, OP_ILOAD, 0, OP_IALOAD,
	    OP_BIPUSH, 0, OP_ILOAD, 0, OP_IALOAD,
	    OP_BIPUSH, 0, OP_NEWARRAY, OP_HALT), (struct opts){ 0 });
	run_n(&f, 1);
	step_check(&f, 3, BASE + 4, MM_HEAP_BASE, "NEWARRAY 3: reference");
	ok(f.m.heap[0] == MM_ARRAY_TAG && f.m.heap[1] == 3 &&
	    f.m.heap[2] == 0 && f.m.heap[4] == 0 && f.m.heap_top == 5,
	    "NEWARRAY 3: tag, length, zeroed elements");
	run_n(&f, 4);
	step_check(&f, 12, BASE + 3, 0, "IASTORE pops three");
	is_int(f.m.heap[4], 77, "IASTORE ref[2] = 77");
	run_n(&f, 2);
	step_check(&f, 17, BASE + 4, 77, "IALOAD ref[2]");
	run_n(&f, 2);
	step_check(&f, 22, BASE + 5, 0, "IALOAD ref[0]");
	run_n(&f, 1);
	step_check(&f, 25, BASE + 6, MM_HEAP_BASE + 5, "NEWARRAY 0");
	is_int(f.m.heap_top, 7, "empty array: header only");
	teardown(&f);
}

static void
test_core_ops(void)
{
	struct fix f;
	uint32_t i;
	int good = 1;
	struct ref_summary s;

	setup(&f, T(OP_COREID, OP_NCORES, OP_HALT),
	    (struct opts){ .ncores = 3 });
	ref_step(&f.m, NULL, &s);
	ok(s.executed == 3 && s.running == 3, "step: 3 executed");
	ref_step(&f.m, NULL, NULL);
	for (i = 0; i < 3; i++) {
		const struct core *c = &f.m.cores[i];

		if (c->tos != 3 || mem(&f, i, c->sp - 1) != (int32_t)i ||
		    c->pc != 2)
			good = 0;
	}
	ok(good, "COREID pushes the id, NCORES the count");
	ref_step(&f.m, NULL, &s);
	ok(s.halted == 3 && s.running == 0 && s.executed == 3 &&
	    f.m.step == 3, "all halted after 3 steps");
	ref_step(&f.m, NULL, &s);
	ok(s.executed == 0 && f.m.step == 4, "a step with nothing to run");
	teardown(&f);
}

static void
test_io(void)
{
	int32_t cp[1] = { 0x141 };
	struct fix f;
	const struct core *c;

	setup(&f, T(OP_IN, OP_IN, OP_IN, OP_OUT, OP_OUT, OP_OUT,
	    OP_BIPUSH, NB(-1), OP_OUT, OP_LDC_W, W16(0), OP_OUT, OP_HALT),
	    (struct opts){ .ncores = 2, .cp = cp, .ncp = 1 });
	c = &f.m.cores[0];
	machine_add_input(&f.m, 0, (const uint8_t *)"AB", 2);
	machine_add_input(&f.m, 1, (const uint8_t *)"z", 1);
	step_check(&f, 1, BASE + 4, 'A', "IN: first byte");
	step_check(&f, 2, BASE + 5, 'B', "IN: second byte");
	step_check(&f, 3, BASE + 6, 0, "IN without input: 0");
	step_check(&f, 4, BASE + 5, 'B', "OUT pops");
	run_n(&f, 20);
	ok(c->status == CORE_HALTED && f.m.io[0].out.len == 5 &&
	    memcmp(f.m.io[0].out.data, "\0BA\xff" "A", 5) == 0,
	    "OUT writes the low byte of each word");
	while (f.m.cores[1].status == CORE_RUNNING)
		ref_exec(&f.m, 1);
	ok(f.m.io[1].out.len == 5 &&
	    memcmp(f.m.io[1].out.data, "\0\0z\xff" "A", 5) == 0,
	    "input and output are per core");
	teardown(&f);
}

static void
test_err(void)
{
	struct fix f;
	const struct core *c;

	setup(&f, T(OP_NOP, OP_ERR, OP_HALT), (struct opts){ 0 });
	c = &f.m.cores[0];
	run_n(&f, 5);
	ok(c->status == CORE_ERROR && c->fault == FAULT_ERR &&
	    c->pc == 1 && c->fault_pc == 1 && c->fault_op == OP_ERR &&
	    c->steps == 2, "ERR: status ERROR, PC stays on it");
	teardown(&f);
}

/* ---- frames ---- */

static void
test_invoke(void)
{
	int32_t cp[1] = { 10 };
	struct fix f;
	const struct core *c;
	int32_t floor = 0, nlocals = 0;

	setup(&f, T(OP_BIPUSH, 0, OP_BIPUSH, 7, OP_BIPUSH, 5,
	    OP_INVOKEVIRTUAL, W16(0), OP_HALT,
	    0, 3, 0, 2,			/* 10: nargs 3, nlocals 2 */
	    OP_ILOAD, 1, OP_ILOAD, 2, OP_ISUB, OP_IRETURN),
	    (struct opts){ .nlocals = 1, .cp = cp, .ncp = 1 });
	c = &f.m.cores[0];
	run_n(&f, 3);
	*machine_stack_word(&f.m, 0, BASE + 4) = 1234;	/* stale words */
	*machine_stack_word(&f.m, 0, BASE + 5) = 5678;
	step_check(&f, 14, BASE + 7, BASE, "INVOKEVIRTUAL: PC = header + 4, "
	    "SP on the saved LV");
	is_int(c->lv, BASE + 1, "INVOKEVIRTUAL: LV on OBJREF");
	is_int(mem(&f, 0, BASE + 1), BASE + 6, "link pointer at LV");
	is_int(mem(&f, 0, BASE + 6), 9, "saved PC = next instruction");
	is_int(mem(&f, 0, BASE + 7), BASE, "saved LV above it");
	ok(mem(&f, 0, BASE + 2) == 7 && mem(&f, 0, BASE + 3) == 5,
	    "arguments are locals 1 and 2");
	ok(mem(&f, 0, BASE + 4) == 1234 && mem(&f, 0, BASE + 5) == 5678,
	    "callee locals are not zeroed");
	ok(ref_frame_floor(&f.m, 0, &floor) == 0 && floor == BASE + 7,
	    "frame floor = link + 1");
	ok(ref_frame_nlocals(&f.m, 0, &nlocals) == 0 && nlocals == 5,
	    "frame locals = link - LV (nargs + nlocals)");
	step_check(&f, 16, BASE + 8, 7, "ILOAD 1 in the callee");
	step_check(&f, 18, BASE + 9, 5, "ILOAD 2 in the callee");
	step_check(&f, 19, BASE + 8, 2, "ISUB in the callee");
	step_check(&f, 9, BASE + 1, 2, "IRETURN: SP = old LV, PC restored");
	ok(c->lv == BASE && mem(&f, 0, BASE + 1) == 2,
	    "IRETURN: LV restored, value replaces OBJREF");
	ok(ref_exec(&f.m, 0) && c->status == CORE_HALTED, "HALT after return");
	teardown(&f);
}

/* sum(n) = n == 0 ? 0 : n + sum(n - 1), called with n (main pushes it). */
#define SUM_PROG(n) T(OP_BIPUSH, 0, OP_BIPUSH, n, \
	OP_INVOKEVIRTUAL, W16(0), OP_HALT, \
	0, 2, 0, 0,			/* 8: nargs 2, nlocals 0 */ \
	OP_ILOAD, 1, OP_IFEQ, W16(17), \
	OP_BIPUSH, 0, OP_ILOAD, 1, OP_BIPUSH, 1, OP_ISUB, \
	OP_INVOKEVIRTUAL, W16(0), OP_ILOAD, 1, OP_IADD, OP_IRETURN, \
	OP_BIPUSH, 0, OP_IRETURN)	/* 31 */

static void
test_recursion(void)
{
	int32_t cp[1] = { 8 };
	struct fix f;
	const struct core *c;
	int32_t lv, nlocals = 0;
	int depth = 0, good;

	setup(&f, SUM_PROG(10), (struct opts){ .nlocals = 1, .cp = cp,
	    .ncp = 1 });
	c = &f.m.cores[0];
	while (c->status == CORE_RUNNING && c->lv != BASE + 5)
		ref_exec(&f.m, 0);
	ok(mem(&f, 0, BASE + 1) == BASE + 3 && mem(&f, 0, BASE + 3) == 7 &&
	    mem(&f, 0, BASE + 4) == BASE, "depth 1 frame: link, saved PC "
	    "in main, saved LV");
	ok(mem(&f, 0, BASE + 5) == BASE + 7 && mem(&f, 0, BASE + 6) == 9 &&
	    mem(&f, 0, BASE + 7) == 27 && mem(&f, 0, BASE + 8) == BASE + 1,
	    "depth 2 frame: link, argument, saved PC in the method, saved LV");
	teardown(&f);

	setup(&f, SUM_PROG(10), (struct opts){ .nlocals = 1, .cp = cp,
	    .ncp = 1 });
	c = &f.m.cores[0];
	good = 1;
	while (c->status == CORE_RUNNING && c->pc != 31) {
		ref_exec(&f.m, 0);
		if (c->tos != mem(&f, 0, c->sp))
			good = 0;
	}
	for (lv = c->lv; lv != BASE && depth < 100; depth++)
		lv = mem(&f, 0, mem(&f, 0, lv) + 1);
	is_int(depth, 11, "11 frames deep at sum(0)");
	ok(ref_frame_nlocals(&f.m, 0, &nlocals) == 0 && nlocals == 2,
	    "recursive frame has 2 locals");
	while (c->status == CORE_RUNNING) {
		ref_exec(&f.m, 0);
		if (c->status == CORE_RUNNING && c->tos != mem(&f, 0, c->sp))
			good = 0;
	}
	ok(good, "TOS == mem[SP] after every instruction");
	ok(c->status == CORE_HALTED && c->tos == 55 && c->sp == BASE + 1 &&
	    c->lv == BASE && c->pc == 8, "sum(10) = 55, back in main");
	teardown(&f);

	setup(&f, SUM_PROG(100), (struct opts){ .nlocals = 1, .cp = cp,
	    .ncp = 1 });
	run_fault(&f, FAULT_STACK_OVERFLOW, 24, OP_INVOKEVIRTUAL,
	    "deep recursion");
	teardown(&f);
}

int
main(void)
{
	test_init_state();
	test_init_errors();
	test_memory_map();
	test_heap();
	test_input();
	test_reset_core();
	test_push();
	test_locals();
	test_stack_ops();
	test_alu();
	test_branches();
	test_globals();
	test_atomicadd();
	test_wide();
	test_arrays();
	test_core_ops();
	test_io();
	test_err();
	test_invoke();
	test_recursion();
	return done_testing();
}
