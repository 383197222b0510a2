/*
 * Unit tests of the reference interpreter's faults (ref.c): every fault
 * code, with its PC and opcode, from decoding, the stack, indices, calls
 * and arrays; and at the fault, nothing changed but the core's status
 * (run_fault in ref-test-util.h takes the snapshots).
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

/* ---- faults: code, PC, opcode, nothing changed ---- */

static void
test_faults_decode(void)
{
	struct opts o = { 0 };
	struct fix f;

	fault_case("ERR", T(OP_NOP, OP_ERR), o, FAULT_ERR, 1, OP_ERR);
	fault_case("opcode 0x01", T(OP_NOP, 0x01), o, FAULT_BAD_OPCODE, 1,
	    0x01);
	fault_case("opcode 0xFB", T(0xFB), o, FAULT_BAD_OPCODE, 0, 0xFB);
	fault_case("WIDE BIPUSH", T(OP_WIDE, OP_BIPUSH, 1, 0), o,
	    FAULT_BAD_WIDE, 0, OP_WIDE);
	fault_case("WIDE WIDE", T(OP_WIDE, OP_WIDE, OP_ILOAD, 0, 0), o,
	    FAULT_BAD_WIDE, 0, OP_WIDE);
	fault_case("WIDE GOTO", T(OP_NOP, OP_WIDE, OP_GOTO, 0, 0, 0), o,
	    FAULT_BAD_WIDE, 1, OP_WIDE);
	fault_case("WIDE as the last byte", T(OP_NOP, OP_WIDE), o,
	    FAULT_PC_RANGE, 1, OP_WIDE);
	fault_case("running off the end", T(OP_NOP), o, FAULT_PC_RANGE, 1, 0);

	setup(&f, NULL, 0, o);
	run_fault(&f, FAULT_PC_RANGE, 0, 0, "empty text");
	teardown(&f);

	fault_case("BIPUSH without its operand", T(OP_NOP, OP_BIPUSH), o,
	    FAULT_PC_RANGE, 1, OP_BIPUSH);
	fault_case("GOTO with half an offset", T(OP_GOTO, 0), o,
	    FAULT_PC_RANGE, 0, OP_GOTO);
	fault_case("IINC without its constant", T(OP_IINC, 0), o,
	    FAULT_PC_RANGE, 0, OP_IINC);
	fault_case("WIDE ILOAD with one index byte", T(OP_WIDE, OP_ILOAD, 0),
	    o, FAULT_PC_RANGE, 0, OP_WIDE);
	fault_case("WIDE IINC without its constant",
	    T(OP_WIDE, OP_IINC, 0, 1), o, FAULT_PC_RANGE, 0, OP_WIDE);
	fault_case("GOTO below the text", T(OP_NOP, OP_GOTO, W16(-100)), o,
	    FAULT_PC_RANGE, -99, 0);
	fault_case("GOTO past the text", T(OP_GOTO, W16(50)), o,
	    FAULT_PC_RANGE, 50, 0);
	fault_case("IFEQ to the end of the text",
	    T(OP_BIPUSH, 0, OP_IFEQ, W16(3)), o, FAULT_PC_RANGE, 5, 0);
}

static void
test_faults_stack(void)
{
	struct opts o = { 0 }, small = { .stack_words = 16 };
	int32_t cp[1] = { 1 };
	struct opts smallcp = { .stack_words = 16, .cp = cp, .ncp = 1 };

	/* Underflow: main's operand stack starts empty (SP = floor). */
	fault_case("POP on an empty stack", T(OP_POP), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_POP);
	fault_case("DUP on an empty stack", T(OP_DUP), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_DUP);
	fault_case("SWAP with one word", T(OP_BIPUSH, 1, OP_SWAP), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_SWAP);
	fault_case("IADD with one word", T(OP_BIPUSH, 1, OP_IADD), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_IADD);
	fault_case("ISUB with one word", T(OP_BIPUSH, 1, OP_ISUB), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_ISUB);
	fault_case("IAND with one word", T(OP_BIPUSH, 1, OP_IAND), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_IAND);
	fault_case("IOR with one word", T(OP_BIPUSH, 1, OP_IOR), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_IOR);
	fault_case("IFEQ on an empty stack", T(OP_IFEQ, W16(3), OP_HALT), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_IFEQ);
	fault_case("IFLT on an empty stack", T(OP_IFLT, W16(3), OP_HALT), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_IFLT);
	fault_case("IF_ICMPEQ with one word",
	    T(OP_BIPUSH, 1, OP_IF_ICMPEQ, W16(3), OP_HALT), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_IF_ICMPEQ);
	fault_case("ISTORE on an empty stack", T(OP_ISTORE, 0), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_ISTORE);
	fault_case("WIDE ISTORE on an empty stack",
	    T(OP_WIDE, OP_ISTORE, 0, 0), o, FAULT_STACK_UNDERFLOW, 0, OP_WIDE);
	fault_case("PUTSTATIC on an empty stack", T(OP_PUTSTATIC, 0, 0), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_PUTSTATIC);
	fault_case("ATOMICADD on an empty stack", T(OP_ATOMICADD, 0, 0), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_ATOMICADD);
	fault_case("NEWARRAY on an empty stack", T(OP_NEWARRAY), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_NEWARRAY);
	fault_case("IALOAD with one word", T(OP_BIPUSH, 0, OP_IALOAD), o,
	    FAULT_STACK_UNDERFLOW, 2, OP_IALOAD);
	fault_case("IASTORE with two words",
	    T(OP_BIPUSH, 1, OP_BIPUSH, 2, OP_IASTORE), o,
	    FAULT_STACK_UNDERFLOW, 4, OP_IASTORE);
	fault_case("OUT on an empty stack", T(OP_OUT), o,
	    FAULT_STACK_UNDERFLOW, 0, OP_OUT);

	/* Overflow: 16 words, 4 of them main's locals: 12 pushes fit. */
	fault_case("BIPUSH filling the stack", T(OP_BIPUSH, 1, OP_GOTO,
	    W16(-2)), small, FAULT_STACK_OVERFLOW, 0, OP_BIPUSH);
	fault_case("DUP filling the stack", T(OP_BIPUSH, 1, OP_DUP, OP_GOTO,
	    W16(-1)), small, FAULT_STACK_OVERFLOW, 2, OP_DUP);
	fault_case("ILOAD filling the stack", T(OP_ILOAD, 0, OP_GOTO,
	    W16(-2)), small, FAULT_STACK_OVERFLOW, 0, OP_ILOAD);
	fault_case("LDC_W filling the stack", T(OP_LDC_W, 0, 0, OP_GOTO,
	    W16(-3)), smallcp, FAULT_STACK_OVERFLOW, 0, OP_LDC_W);
	fault_case("GETSTATIC filling the stack", T(OP_GETSTATIC, 0, 0,
	    OP_GOTO, W16(-3)), small, FAULT_STACK_OVERFLOW, 0, OP_GETSTATIC);
	fault_case("IN filling the stack", T(OP_IN, OP_GOTO, W16(-1)), small,
	    FAULT_STACK_OVERFLOW, 0, OP_IN);
	fault_case("COREID filling the stack", T(OP_COREID, OP_GOTO,
	    W16(-1)), small, FAULT_STACK_OVERFLOW, 0, OP_COREID);
	fault_case("NCORES filling the stack", T(OP_NCORES, OP_GOTO,
	    W16(-1)), small, FAULT_STACK_OVERFLOW, 0, OP_NCORES);
}

static void
test_faults_index(void)
{
	int32_t cp[1] = { 5 };
	struct opts o = { 0 }, one = { .cp = cp, .ncp = 1 };

	fault_case("LDC_W past the pool", T(OP_LDC_W, W16(1)), one,
	    FAULT_CP_INDEX, 0, OP_LDC_W);
	fault_case("LDC_W with no pool", T(OP_NOP, OP_LDC_W, W16(0)), o,
	    FAULT_CP_INDEX, 1, OP_LDC_W);
	fault_case("LDC_W 0xFFFF", T(OP_LDC_W, W16(0xFFFF)), one,
	    FAULT_CP_INDEX, 0, OP_LDC_W);
	fault_case("ILOAD = main's locals", T(OP_ILOAD, 3, OP_ILOAD, 4), o,
	    FAULT_LOCAL_INDEX, 2, OP_ILOAD);
	fault_case("ISTORE = main's locals", T(OP_BIPUSH, 1, OP_ISTORE, 4), o,
	    FAULT_LOCAL_INDEX, 2, OP_ISTORE);
	fault_case("IINC = main's locals", T(OP_IINC, 4, 1), o,
	    FAULT_LOCAL_INDEX, 0, OP_IINC);
	fault_case("ILOAD 255", T(OP_ILOAD, 255), o, FAULT_LOCAL_INDEX, 0,
	    OP_ILOAD);
	fault_case("WIDE ILOAD 256", T(OP_WIDE, OP_ILOAD, W16(256)), o,
	    FAULT_LOCAL_INDEX, 0, OP_WIDE);
	fault_case("WIDE ISTORE 4", T(OP_BIPUSH, 1, OP_WIDE, OP_ISTORE,
	    W16(4)), o, FAULT_LOCAL_INDEX, 2, OP_WIDE);
	fault_case("WIDE IINC 0xFFFF", T(OP_WIDE, OP_IINC, W16(0xFFFF), 1),
	    o, FAULT_LOCAL_INDEX, 0, OP_WIDE);
}

/* main: push OBJREF, call cp[0]; the callee at 6 has header h. */
#define CALL1(nargs, nloc, ...) T(OP_BIPUSH, 0, \
	OP_INVOKEVIRTUAL, W16(0), OP_HALT, 0, nargs, 0, nloc, __VA_ARGS__)

static void
test_faults_call(void)
{
	int32_t cp6[1] = { 6 }, cpm1[1] = { -1 }, cp10[1] = { 10 };
	int32_t cpmax[1] = { INT32_MAX }, cp8[1] = { 8 };
	int32_t cpend[2] = { 6, BASE + 63 }, cpbase[2] = { 6, BASE };
	struct opts o6 = { .cp = cp6, .ncp = 1 };
	struct opts small6 = { .stack_words = 16, .cp = cp6, .ncp = 1 };
	struct opts oend = { .cp = cpend, .ncp = 2 };
	struct opts obase = { .cp = cpbase, .ncp = 2 };
	struct fix f;
	const struct core *c;

	fault_case("INVOKEVIRTUAL past the pool",
	    T(OP_BIPUSH, 0, OP_INVOKEVIRTUAL, W16(1), OP_HALT), o6,
	    FAULT_CP_INDEX, 2, OP_INVOKEVIRTUAL);
	/* Header at 6, text ends at 10: no code after the header. */
	fault_case("method header at the end",
	    T(OP_BIPUSH, 0, OP_INVOKEVIRTUAL, W16(0), OP_HALT, 0, 1, 0, 0),
	    o6, FAULT_METHOD_ADDR, 2, OP_INVOKEVIRTUAL);
	fault_case("method address -1", CALL1(1, 0, OP_HALT),
	    (struct opts){ .cp = cpm1, .ncp = 1 }, FAULT_METHOD_ADDR, 2,
	    OP_INVOKEVIRTUAL);
	fault_case("method header 1 byte before the end", CALL1(1, 0, OP_HALT),
	    (struct opts){ .cp = cp10, .ncp = 1 }, FAULT_METHOD_ADDR, 2,
	    OP_INVOKEVIRTUAL);
	fault_case("method header crossing the end", CALL1(1, 0, OP_HALT),
	    (struct opts){ .cp = cp8, .ncp = 1 }, FAULT_METHOD_ADDR, 2,
	    OP_INVOKEVIRTUAL);
	fault_case("method address INT32_MAX", CALL1(1, 0, OP_HALT),
	    (struct opts){ .cp = cpmax, .ncp = 1 }, FAULT_METHOD_ADDR, 2,
	    OP_INVOKEVIRTUAL);
	fault_case("header with nargs 0", CALL1(0, 0, OP_HALT), o6,
	    FAULT_BAD_ARGS, 2, OP_INVOKEVIRTUAL);
	fault_case("nargs 3 with 2 words",
	    T(OP_BIPUSH, 0, OP_BIPUSH, 1, OP_INVOKEVIRTUAL, W16(0), OP_HALT,
	    0, 3, 0, 0, OP_HALT), (struct opts){ .cp = cp8, .ncp = 1 },
	    FAULT_STACK_UNDERFLOW, 4, OP_INVOKEVIRTUAL);
	fault_case("frame one word too big", CALL1(1, 10, OP_HALT), small6,
	    FAULT_STACK_OVERFLOW, 2, OP_INVOKEVIRTUAL);
	fault_case("header nlocals 0xFFFF", CALL1(1, 0xFF, OP_HALT),
	    small6, FAULT_STACK_OVERFLOW, 2, OP_INVOKEVIRTUAL);

	/* The largest frame that fits: SP = base + 4, link + 1 = last. */
	setup(&f, CALL1(1, 9, OP_HALT), small6);
	c = &f.m.cores[0];
	run_n(&f, 2);
	ok(c->status == CORE_RUNNING && c->pc == 10 && c->sp == BASE + 15,
	    "a frame ending on the last stack word fits");
	run_n(&f, 1);
	ok(c->status == CORE_HALTED, "and its code runs");
	teardown(&f);

	fault_case("IRETURN in main", T(OP_BIPUSH, 1, OP_IRETURN), o6,
	    FAULT_RETURN_MAIN, 2, OP_IRETURN);
	fault_case("IRETURN in main, empty stack", T(OP_IRETURN), o6,
	    FAULT_RETURN_MAIN, 0, OP_IRETURN);
	fault_case("IRETURN with no value", CALL1(1, 0, OP_IRETURN), o6,
	    FAULT_STACK_UNDERFLOW, 10, OP_IRETURN);
	fault_case("POP below the method frame", CALL1(1, 0, OP_POP), o6,
	    FAULT_STACK_UNDERFLOW, 10, OP_POP);
	fault_case("ILOAD = nargs + nlocals",
	    T(OP_BIPUSH, 0, OP_BIPUSH, 5, OP_INVOKEVIRTUAL, W16(0), OP_HALT,
	    0, 2, 0, 1, OP_ILOAD, 2, OP_ILOAD, 3),
	    (struct opts){ .cp = cp8, .ncp = 1 }, FAULT_LOCAL_INDEX, 14,
	    OP_ILOAD);

	/* A program may overwrite its link pointer (local 0). */
	fault_case("IRETURN with a corrupted link",
	    CALL1(1, 0, OP_BIPUSH, 5, OP_ISTORE, 0, OP_BIPUSH, 1, OP_IRETURN),
	    o6, FAULT_STACK_ACCESS, 16, OP_IRETURN);
	fault_case("ILOAD with a corrupted link",
	    CALL1(1, 0, OP_BIPUSH, 5, OP_ISTORE, 0, OP_ILOAD, 0), o6,
	    FAULT_STACK_ACCESS, 14, OP_ILOAD);
	fault_case("link on the last stack word",
	    CALL1(1, 0, OP_LDC_W, W16(1), OP_ISTORE, 0, OP_BIPUSH, 1,
	    OP_IRETURN), oend, FAULT_STACK_ACCESS, 17, OP_IRETURN);
	fault_case("link below LV: no locals",
	    CALL1(1, 0, OP_LDC_W, W16(1), OP_ISTORE, 0, OP_ILOAD, 0), obase,
	    FAULT_LOCAL_INDEX, 15, OP_ILOAD);
	fault_case("INVOKEVIRTUAL with a corrupted link",
	    CALL1(1, 0, OP_BIPUSH, 5, OP_ISTORE, 0, OP_BIPUSH, 0,
	    OP_INVOKEVIRTUAL, W16(0)), o6, FAULT_STACK_ACCESS, 16,
	    OP_INVOKEVIRTUAL);

	/* A corrupted saved LV: the return works, the next frame access
	 * faults. */
	setup(&f, T(OP_BIPUSH, 0, OP_INVOKEVIRTUAL, W16(0), OP_BIPUSH, 3,
	    OP_ILOAD, 0, OP_HALT, 0, 1, 0, 0, OP_BIPUSH, 1, OP_IRETURN),
	    (struct opts){ .cp = cp10, .ncp = 1 });
	c = &f.m.cores[0];
	run_n(&f, 2);
	ok(c->lv == BASE + 4 && mem(&f, 0, BASE + 6) == BASE,
	    "saved LV where expected");
	*machine_stack_word(&f.m, 0, BASE + 6) = 5;
	run_n(&f, 3);
	ok(c->status == CORE_RUNNING && c->lv == 5 && c->pc == 7 &&
	    c->sp == BASE + 5 && c->tos == 3, "IRETURN restores a bad LV; "
	    "BIPUSH does not look at the frame");
	{
		int32_t floor;

		is_int(ref_frame_floor(&f.m, 0, &floor), -1,
		    "ref_frame_floor reports the bad frame");
	}
	run_fault(&f, FAULT_STACK_ACCESS, 7, OP_ILOAD, "ILOAD after a "
	    "corrupted saved LV");
	teardown(&f);
}

static void
test_faults_array(void)
{
	int32_t cp[2] = { MM_HEAP_BASE, INT32_MAX };
	struct opts o = { .cp = cp, .ncp = 2 };
	struct opts small = { .heap_words = 10, .cp = cp, .ncp = 2 };
	struct fix f;

	fault_case("IALOAD index = length", T(OP_BIPUSH, 3, OP_NEWARRAY,
	    OP_ISTORE, 0, OP_BIPUSH, 3, OP_ILOAD, 0, OP_IALOAD), o,
	    FAULT_ARRAY_BOUNDS, 9, OP_IALOAD);
	fault_case("IALOAD index -1", T(OP_BIPUSH, 3, OP_NEWARRAY,
	    OP_ISTORE, 0, OP_BIPUSH, NB(-1), OP_ILOAD, 0, OP_IALOAD), o,
	    FAULT_ARRAY_BOUNDS, 9, OP_IALOAD);
	fault_case("IASTORE index = length", T(OP_BIPUSH, 3, OP_NEWARRAY,
	    OP_ISTORE, 0, OP_BIPUSH, 9, OP_BIPUSH, 3, OP_ILOAD, 0,
	    OP_IASTORE), o, FAULT_ARRAY_BOUNDS, 11, OP_IASTORE);
	fault_case("NEWARRAY -1", T(OP_BIPUSH, NB(-1), OP_NEWARRAY), o,
	    FAULT_ARRAY_SIZE, 2, OP_NEWARRAY);
	fault_case("IALOAD on 5", T(OP_BIPUSH, 0, OP_BIPUSH, 5, OP_IALOAD),
	    o, FAULT_ARRAY_REF, 4, OP_IALOAD);
	fault_case("IASTORE on 5", T(OP_BIPUSH, 0, OP_BIPUSH, 0, OP_BIPUSH,
	    5, OP_IASTORE), o, FAULT_ARRAY_REF, 6, OP_IASTORE);
	fault_case("IALOAD on the empty heap", T(OP_BIPUSH, 0, OP_LDC_W,
	    W16(0), OP_IALOAD), o, FAULT_ARRAY_REF, 5, OP_IALOAD);
	fault_case("IALOAD inside an array", T(OP_BIPUSH, 3, OP_NEWARRAY,
	    OP_BIPUSH, 1, OP_IADD, OP_ISTORE, 0, OP_BIPUSH, 0, OP_ILOAD, 0,
	    OP_IALOAD), o, FAULT_ARRAY_REF, 12, OP_IALOAD);
	fault_case("NEWARRAY too big", T(OP_BIPUSH, 9, OP_NEWARRAY), small,
	    FAULT_HEAP_FULL, 2, OP_NEWARRAY);
	fault_case("NEWARRAY after an exact fit", T(OP_BIPUSH, 8,
	    OP_NEWARRAY, OP_BIPUSH, 0, OP_NEWARRAY), small, FAULT_HEAP_FULL,
	    5, OP_NEWARRAY);
	fault_case("NEWARRAY INT32_MAX", T(OP_LDC_W, W16(1), OP_NEWARRAY),
	    o, FAULT_HEAP_FULL, 3, OP_NEWARRAY);

	/* A tag forged in the heap above heap_top. */
	setup(&f, T(OP_BIPUSH, 0, OP_LDC_W, W16(0), OP_BIPUSH, 4, OP_IADD,
	    OP_IALOAD), o);
	f.m.heap[4] = MM_ARRAY_TAG;
	f.m.heap[5] = 1;
	run_fault(&f, FAULT_ARRAY_REF, 8, OP_IALOAD, "forged array");
	teardown(&f);
}

int
main(void)
{
	test_faults_decode();
	test_faults_stack();
	test_faults_index();
	test_faults_call();
	test_faults_array();
	return done_testing();
}
