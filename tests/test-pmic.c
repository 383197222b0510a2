/*
 * Unit tests of the PMIC golden model (pmic-sim.c, pmic-enc.c): every ALU
 * operation, the readable registers, the end-of-cycle order (ALU writes,
 * then write, then read, then fetch), the flags and next-address rules,
 * every device word, the faults, the barrier rule, instruction
 * boundaries and level switching, and the thesis' IADD running a
 * hand-made program with a small microprogram.
 *
 * Fragments are PMIC source (test-pmc tests the compiler) run a cycle at
 * a time on a one-program machine whose registers the tests set.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "machine.h"
#include "mal.h"
#include "pmc.h"
#include "pmic.h"
#include "program.h"
#include "ref.h"
#include "micro-test-util.h"
#include "tap.h"

#define T(...) (const uint8_t[]){ __VA_ARGS__ }, \
	sizeof((const uint8_t[]){ __VA_ARGS__ })

struct fix {
	struct program		 prog;
	const struct program	*progs[1];
	struct machine		 m;
	struct pmic_store	 cs;
	struct pmic_state	 st;
};

static int
fix_init(struct fix *f, const char *pm, const uint8_t *text, size_t n,
    uint32_t ncores)
{
	struct mal_errors errs;

	memset(f, 0, sizeof *f);
	if (micro_test_machine(&f->prog, f->progs, &f->m, text, n,
	    ncores) != 0)
		return -1;
	if (pmc_compile("frag.pm", pm, strlen(pm), &f->cs, NULL, &errs) != 0) {
		micro_test_reject(&errs, &f->prog, &f->m);
		return -1;
	}
	pmic_state_init(&f->st, &f->m, &f->cs);
	for (uint32_t c = 0; c < ncores; c++)
		pmic_start_core(&f->st, &f->m, c);
	return 0;
}

static void
fix_free(struct fix *f)
{
	pmic_state_free(&f->st);
	machine_free(&f->m);
	program_free(&f->prog);
}

static void
cycles(struct fix *f, uint32_t core, int n)
{
	while (n-- > 0)
		pmic_cycle(&f->st, &f->m, core);
}

static int32_t *
word(struct fix *f, uint32_t core, int32_t addr)
{
	return machine_stack_word(&f->m, core, addr);
}

/* ---- ALU ---------------------------------------------------------------- */

static void
test_alu(void)
{
	const uint32_t a = 0x80001234u, b = 0x00000F0Fu;

	is_int(pmic_alu_eval(PMIC_ALU_ZERO, a, b), 0, "zero");
	is_int(pmic_alu_eval(PMIC_ALU_ONE, a, b), 1, "one");
	is_int(pmic_alu_eval(PMIC_ALU_MINUS1, a, b), 0xFFFFFFFFu, "-one");
	is_int(pmic_alu_eval(PMIC_ALU_A, a, b), a, "A");
	is_int(pmic_alu_eval(PMIC_ALU_ADD, a, b), a + b, "A+B");
	is_int(pmic_alu_eval(PMIC_ALU_ADD1, a, b), a + b + 1, "A+B+1");
	is_int(pmic_alu_eval(PMIC_ALU_INC, 0xFFFFFFFFu, b), 0, "A+1 wraps");
	is_int(pmic_alu_eval(PMIC_ALU_DEC, 0, b), 0xFFFFFFFFu, "A-1 wraps");
	is_int(pmic_alu_eval(PMIC_ALU_SUB, 5, 7), 0xFFFFFFFEu, "A-B");
	is_int(pmic_alu_eval(PMIC_ALU_NEG, 5, b), 0xFFFFFFFBu, "-A");
	is_int(pmic_alu_eval(PMIC_ALU_NOT, a, b), ~a, "not A");
	is_int(pmic_alu_eval(PMIC_ALU_AND, a, b), a & b, "A and B");
	is_int(pmic_alu_eval(PMIC_ALU_OR, a, b), a | b, "A or B");
	is_int(pmic_alu_eval(PMIC_ALU_SHL8, a, b), a << 8, "A<<8");
	is_int(pmic_alu_eval(PMIC_ALU_SRA8, a, b), 0xFF800012u,
	    "A>>8 keeps the sign");
	is_int(pmic_alu_eval(PMIC_ALU_SRA8, 0x1234u, b), 0x12u, "A>>8 positive");
	is_int(pmic_alu_eval(PMIC_ALU_SRA1, a, b), 0xC000091Au,
	    "A>>1 keeps the sign");
	is_int(pmic_alu_eval(PMIC_ALU_SRA1, 7, b), 3, "A>>1 positive");
}

/* ---- registers, cycle order, flags ---------------------------------------- */

static void
test_registers(void)
{
	struct fix f;
	struct core *c;

	/* text: BIPUSH 0xFE (-2), then 0x81 0x23 */
	if (fix_init(&f, "bipush { h = mbr1s // opc = mbr12 // g0 = mbr12s;"
	    " h = mbr0 // opc = mbr3 // g1 = mbr;"
	    " h = c2 // opc = c3 // g0 = c4;"
	    " h = c5 // opc = sid // g1 = mbr2 : next bipush }",
	    T(0x10, 0xFE, 0x81, 0x23), 2) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[1];
	is_int(c->mpc, OP_BIPUSH, "start: MPC = the first opcode");
	is_int(c->mbr, 0x10FE8123, "start: MBR = the 4 bytes at PC 0");
	ok(pmic_at_boundary(&f.st, &f.m, 1), "start: at a boundary");
	cycles(&f, 1, 1);
	is_int(c->h, -2, "MBR1S sign-extends");
	is_int(c->opc, 0xFE81, "MBR12 is unsigned 16 bits");
	is_int(f.st.core[1].g0, (int16_t)0xFE81, "MBR12S is signed");
	cycles(&f, 1, 1);
	is_int(c->h, 0x10, "MBR0");
	is_int(c->opc, 0x23, "MBR3");
	is_int(f.st.core[1].g1, 0x10FE8123, "MBR");
	cycles(&f, 1, 1);
	ok(c->h == 2 && c->opc == 3 && f.st.core[1].g0 == 4, "C2 C3 C4");
	cycles(&f, 1, 1);
	ok(c->h == 5 && c->opc == 1 && f.st.core[1].g1 == 0x81,
	    "C5, SID (core 1), MBR2");
	is_int(c->cycles, 4, "four cycles counted");
	is_int(c->steps, 1, "one instruction started");
	fix_free(&f);

	/* all CUs read the start-of-cycle values: a swap in one cycle */
	if (fix_init(&f, "nop { h = opc // opc = h // g0 = h+opc : next nop }",
	    T(0x00), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	c->h = 7;
	c->opc = 9;
	cycles(&f, 0, 1);
	ok(c->h == 9 && c->opc == 7 && f.st.core[0].g0 == 16,
	    "the CUs read start-of-cycle values (H and OPC swap)");
	fix_free(&f);
}

static void
test_flags_and_next(void)
{
	struct fix f;
	struct core *c;

	if (fix_init(&f, "nop { z = tos : next (z) t; h = one : next nop }\n"
	    "t { h = c2 : next u }\n"
	    "u { n = tos : next (n) v; h = c3 : next u2 }\n"
	    "v { h = c4 : next u2 }\n"
	    "u2 { h = c5 : next (z) t2; h = zero : next nop }\n"
	    "t2 { h = c2 : next nop }\n",
	    T(0x00), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	c->tos = 0;
	cycles(&f, 0, 2);
	is_int(c->h, 2, "next (z) taken when Z");
	c->tos = -5;
	cycles(&f, 0, 1);
	ok(c->n == 1 && c->z == 0, "N and Z from CU0's result");
	cycles(&f, 0, 1);
	is_int(c->h, 4, "next (n) taken when N");
	cycles(&f, 0, 1);
	is_int(c->h, 5, "u2 reached");
	/* u2 has no ALU op on CU0... it has: h = c5 is CU0: flags of 5 */
	cycles(&f, 0, 1);
	is_int(c->h, 0, "Z of 5 is clear: fall-through");
	cycles(&f, 0, 1);
	c->tos = 1;
	cycles(&f, 0, 2);
	is_int(c->h, 1, "next (z) not taken: the fall-through");
	fix_free(&f);

	/* a word without a CU0 op keeps the flags */
	if (fix_init(&f, "nop { z = tos; fetch : next (z) t; h = one : "
	    "next nop }\nt { h = c2 : next nop }", T(0x00), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	c->tos = 0;
	cycles(&f, 0, 3);
	is_int(c->h, 2, "flags kept across a word without a CU0 operation");
	fix_free(&f);
}

/* ---- memory order and devices ---------------------------------------------- */

static void
test_memory(void)
{
	struct fix f;
	struct core *c;

	/* one cycle: ALU sets MAR and MDR, write stores them, read reads the
	 * word back, fetch reads at the new PC */
	if (fix_init(&f, "nop { mar = lv // mdr = c5 // pc = pc+one : write "
	    "// read // fetch : next nop }", T(0x00, 0x59, 0x60, 0x10, 0x20),
	    1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	cycles(&f, 0, 1);
	is_int(*word(&f, 0, MM_STACK_BASE), 5, "write stored MDR at MAR after "
	    "the ALU writes");
	is_int(c->mdr, 5, "read after write sees the new word");
	is_int(c->mbr, 0x59601020, "fetch used PC after the ALU write");
	is_int(f.st.core[0].mbr_addr, 1, "MBR came from byte 1");
	cycles(&f, 0, 1);
	is_int(c->mbr, 0x60102000, "bytes past the text read 0");
	is_int(f.st.core[0].mbr_valid, 0xE, "... and are invalid (MBR3)");
	fix_free(&f);

	/* read then overwrite in one cycle: write first, then read */
	if (fix_init(&f, "nop { mdr = tos : write // read : next nop }",
	    T(0x00), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	c->mar = MM_STACK_BASE + 1;
	c->tos = 77;
	*word(&f, 0, MM_STACK_BASE + 1) = 3;
	cycles(&f, 0, 1);
	ok(*word(&f, 0, MM_STACK_BASE + 1) == 77 && c->mdr == 77,
	    "write then read of one address: the read sees the write");
	fix_free(&f);
}

static void
test_devices(void)
{
	struct fix f;
	struct core *c;
	const char *dev = "nop { mdr = tos : write : next nop }\n"
	    "iadd { h = h : read : next nop }\n";

	if (fix_init(&f, dev, T(0x00), 3) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[2];
	/* reads */
	machine_add_input(&f.m, 2, (const uint8_t *)"A", 1);
	c->mpc = OP_IADD;
	c->mar = MM_DEV_CONSOLE;
	cycles(&f, 2, 1);
	is_int(c->mdr, 'A', "-3 read: next input byte");
	c->mpc = OP_IADD;
	cycles(&f, 2, 1);
	is_int(c->mdr, 0, "-3 read: 0 when none");
	c->mpc = OP_IADD;
	c->mar = MM_DEV_COREID;
	cycles(&f, 2, 1);
	is_int(c->mdr, 2, "-4 read: core id");
	c->mpc = OP_IADD;
	c->mar = MM_DEV_NCORES;
	cycles(&f, 2, 1);
	is_int(c->mdr, 3, "-5 read: number of cores");
	c->mpc = OP_IADD;
	c->mar = MM_DEV_GLOBALS;
	cycles(&f, 2, 1);
	is_int(c->mdr, MM_GLOBALS_BASE, "-10 read: globals base");
	c->mpc = OP_IADD;
	c->mar = MM_DEV_MAIN_LOCALS;
	cycles(&f, 2, 1);
	is_int(c->mdr, (int32_t)f.m.progs[c->prog]->main_nlocals,
	    "-11 read: main's locals");
	c->mpc = OP_IADD;
	c->mar = MM_DEV_TEXT_SIZE;
	cycles(&f, 2, 1);
	is_int(c->mdr, (int32_t)f.m.progs[c->prog]->text_size,
	    "-12 read: text size");
	/* writes */
	c->mar = MM_DEV_CONSOLE;
	c->tos = 'z' + 0x100;
	cycles(&f, 2, 1);
	ok(f.m.io[2].out.len == 1 && f.m.io[2].out.data[0] == 'z',
	    "-3 write: the low 8 bits output");
	c->mar = MM_DEV_NEWARRAY;
	c->tos = 4;
	cycles(&f, 2, 1);
	c->mpc = OP_IADD;
	cycles(&f, 2, 1);
	ok(c->mdr >= MM_HEAP_BASE, "-7: write allocates, read gives the "
	    "reference");
	c->mpc = OP_NOP;
	c->mar = MM_DEV_ATOM_ADDR;
	c->tos = MM_GLOBALS_BASE + 3;
	cycles(&f, 2, 1);
	f.m.globals[3] = 10;
	c->mar = MM_DEV_ATOM_ADD;
	c->tos = 5;
	cycles(&f, 2, 1);
	c->mpc = OP_IADD;
	cycles(&f, 2, 1);
	ok(f.m.globals[3] == 15 && c->mdr == 10, "-8/-9: atomic add, old "
	    "value read back");
	c->mpc = OP_NOP;
	c->mar = MM_DEV_BARRIER;
	f.m.cores[0].mar = f.m.cores[1].mar = MM_STACK_BASE;
	cycles(&f, 2, 1);
	is_int(c->status, CORE_WAITING, "-6 write: the core waits");
	pmic_step(&f.st, &f.m, NULL, NULL);
	ok(f.m.cores[0].status == CORE_RUNNING, "others still run");
	f.m.cores[0].mar = MM_DEV_BARRIER;
	f.m.cores[1].mar = MM_DEV_BARRIER;
	pmic_step(&f.st, &f.m, NULL, NULL);
	ok(c->status == CORE_RUNNING && f.m.cores[0].status == CORE_RUNNING,
	    "the barrier releases when every running core arrived");
	c->mar = MM_DEV_HALT;
	cycles(&f, 2, 1);
	is_int(c->status, CORE_HALTED, "-1 write: halt");
	c = &f.m.cores[1];
	c->mar = MM_DEV_ERROR;
	c->tos = FAULT_ARRAY_BOUNDS;
	cycles(&f, 1, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_ARRAY_BOUNDS,
	    "-2 write: error-stop with the fault named by the value");
	c = &f.m.cores[0];
	c->status = CORE_RUNNING;
	c->mar = MM_DEV_ERROR;
	c->tos = 9999;
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_ERR_DEVICE,
	    "-2 write: the device's own fault otherwise");
	fix_free(&f);
}

static void
test_faults(void)
{
	struct fix f;
	struct core *c;

	if (fix_init(&f, "nop { h = h : read : next nop }\n"
	    "iadd { mdr = h : write : next iadd }\n"
	    "pop { pc = pc+one : fetch }\n",
	    T(0x57, 0x00), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	c->mpc = OP_NOP;
	c->mar = MM_DEV_HALT;
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_MEM_RANGE &&
	    c->mpc == OP_NOP, "read of a write-only device word faults; MPC "
	    "stays");
	is_int(c->fault_pc, 0, "fault_pc is the instruction's PC");
	is_int(c->fault_op, OP_POP, "fault_op its opcode");
	c->status = CORE_RUNNING;
	c->mpc = OP_IADD;
	c->mar = MM_CPP;
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_MEM_RANGE,
	    "write to the constant pool faults");
	c->status = CORE_RUNNING;
	c->mar = MM_STACK_BASE + 64;
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_STACK_OVERFLOW,
	    "write just past the stack: stack overflow");
	c->status = CORE_RUNNING;
	c->mar = MM_DEV_COREID;
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_MEM_RANGE,
	    "write to a read-only device word faults");
	c->status = CORE_RUNNING;
	c->mpc = 0x1F0;
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_NO_MICROINSTR,
	    "an empty control-store word faults");
	fix_free(&f);

	/* POP at 0, NOP at 1, then past the end: dispatch faults */
	if (fix_init(&f, "pop { pc = pc+one : fetch }\nnop { pc = pc+one : "
	    "fetch }\n", T(0x57, 0x00), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	cycles(&f, 0, 1);
	ok(c->status == CORE_RUNNING && c->mpc == OP_NOP &&
	    pmic_at_boundary(&f.st, &f.m, 0), "dispatched to NOP, at a "
	    "boundary");
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_PC_RANGE,
	    "dispatch on a byte past the text: ran past the end");
	is_int(c->fault_pc, 1, "... reported at the last instruction");
	is_int(c->steps, 2, "two instructions started");
	fix_free(&f);
}

/* ---- boundaries, switching, the thesis example ---------------------------- */

static const char mini[] =
    "# BIPUSH, IADD (the thesis' example), OUT, HALT\n"
    "bipush { sp,mar = sp+one // tos,mdr = mbr1s // pc = pc+c2 : write "
    "// fetch }\n"
    "iadd {\n"
    "    mar,sp = sp-one : read;\n"
    "    mdr,tos = mdr+tos // pc = pc+one : write // fetch\n"
    "}\n"
    "out { mar = -c3 // mdr = tos // sp = sp-one : write;\n"
    "      mar = sp // pc = pc+one : read // fetch;\n"
    "      tos = mdr }\n"
    "halt { mar = -one : write : next halt }\n";

static void
test_program(void)
{
	struct fix f;
	struct core *c;
	int n = 0;

	/* BIPUSH 40, BIPUSH 25, IADD, OUT, HALT */
	if (fix_init(&f, mini, T(0x10, 40, 0x10, 25, 0x60, 0xFD, 0xFF), 1)
	    != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	cycles(&f, 0, 2);
	ok(pmic_at_boundary(&f.st, &f.m, 0) && c->pc == 4 && c->mpc == OP_IADD,
	    "two BIPUSH, one cycle each: at IADD");
	cycles(&f, 0, 1);
	ok(!pmic_at_boundary(&f.st, &f.m, 0), "inside IADD: no boundary");
	is_int(pmic_leave(&f.st, &f.m, 0), -1, "leaving inside refused");
	cycles(&f, 0, 1);
	ok(pmic_at_boundary(&f.st, &f.m, 0) && c->tos == 65 &&
	    *word(&f, 0, c->sp) == 65, "IADD in two cycles: 40 + 25");
	while (c->status == CORE_RUNNING && n++ < 100)
		pmic_step(&f.st, &f.m, NULL, NULL);
	ok(c->status == CORE_HALTED && f.m.io[0].out.len == 1 &&
	    f.m.io[0].out.data[0] == 65, "OUT printed 'A', HALT halted");
	is_int(c->cycles, 8, "2 + 2 + 3 + 1 cycles");
	is_int(c->steps, 5, "5 instructions");
	fix_free(&f);

	/* switch in from the ISA level after 2 instructions */
	if (fix_init(&f, mini, T(0x10, 40, 0x10, 25, 0x60, 0xFD, 0xFF), 1)
	    != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	machine_reset_core(&f.m, 0);
	ref_step(&f.m, NULL, NULL);
	ref_step(&f.m, NULL, NULL);
	c->tos = 12345;		/* stale: entering takes mem[SP] */
	c->mbr = 0;
	pmic_enter(&f.st, &f.m, 0);
	ok(c->mpc == OP_IADD && c->mbr == 0x60FDFF00 && c->tos == 25 &&
	    pmic_at_boundary(&f.st, &f.m, 0), "enter: MPC = MBR0, MBR = "
	    "the bytes at PC, TOS = mem[SP]");
	cycles(&f, 0, 2);
	is_int(pmic_leave(&f.st, &f.m, 0), 0, "leave at the boundary");
	ref_step(&f.m, NULL, NULL);
	ref_step(&f.m, NULL, NULL);
	ok(c->status == CORE_HALTED && f.m.io[0].out.len == 1 &&
	    f.m.io[0].out.data[0] == 65, "ISA, PMIC, ISA: the same result");
	fix_free(&f);

	/* entering past the text faults on the first cycle */
	if (fix_init(&f, mini, T(0xFF), 1) != 0) {
		ok(0, "fixture");
		return;
	}
	c = &f.m.cores[0];
	c->pc = 5;
	pmic_enter(&f.st, &f.m, 0);
	cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_PC_RANGE,
	    "entering with PC outside the text faults: ran past the end");
	fix_free(&f);
}

int
main(void)
{
	test_alu();
	test_registers();
	test_flags_and_next();
	test_memory();
	test_devices();
	test_faults();
	test_program();
	return done_testing();
}
