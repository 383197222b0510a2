/*
 * Unit tests of the Mic-1 golden model (mic1.c): the word encoding, the
 * ALU and shifter, the B bus, the exact memory timing of doc/mic1.md section
 * 1, every device word, the faults, the barrier rule, the .mic1 loader's
 * hardening, instruction boundaries and level switching, and the
 * textbook-dialect microprogram (tests/textbook.mal) running real
 * programs like the ISA level.
 *
 * Fragments are written in MAL (test-mal tests the assembler) and run a
 * cycle at a time on a one-program machine whose registers the tests set
 * directly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ijvm.h"
#include "machine.h"
#include "mal.h"
#include "mic1.h"
#include "microcode.h"
#include "program.h"
#include "ref.h"
#include "micro-test-util.h"
#include "tap.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

#define T(...) (const uint8_t[]){ __VA_ARGS__ }, \
	sizeof((const uint8_t[]){ __VA_ARGS__ })

struct fix {
	struct program		 prog;
	const struct program	*progs[1];
	struct machine		 m;
	struct mic1_store	 cs;
	struct mic1_state	 st;
};

/* A machine of ncores running text, with microprogram mal. */
static int
fix_init(struct fix *f, const char *mal, const uint8_t *text, size_t n,
    uint32_t ncores)
{
	struct mal_errors errs;

	memset(f, 0, sizeof *f);
	if (micro_test_machine(&f->prog, f->progs, &f->m, text, n,
	    ncores) != 0)
		return -1;
	if (mal_assemble("frag.mal", mal, strlen(mal), &f->cs, NULL,
	    &errs) != 0) {
		micro_test_reject(&errs, &f->prog, &f->m);
		return -1;
	}
	mic1_state_init(&f->st, &f->m, &f->cs);
	return 0;
}

static void
fix_free(struct fix *f)
{
	mic1_state_free(&f->st);
	machine_free(&f->m);
	program_free(&f->prog);
}

static void
cycles(struct fix *f, uint32_t core, int n)
{
	while (n-- > 0)
		mic1_cycle(&f->st, &f->m, core);
}

static int32_t *
word(struct fix *f, uint32_t core, int32_t addr)
{
	return machine_stack_word(&f->m, core, addr);
}

/* ---- encoding ---------------------------------------------------------- */

static void
test_encoding(void)
{
	uint64_t w = 0;

	is_int(MIC1_POS_B, 0, "B at bits 3..0");
	is_int(MIC1_POS_MEM, 4, "MEM at bits 6..4");
	is_int(MIC1_POS_C, 7, "C at bits 15..7");
	is_int(MIC1_POS_ALU, 16, "ALU at bits 23..16");
	is_int(MIC1_POS_JAM, 24, "JAM at bits 26..24");
	is_int(MIC1_POS_NEXT, 27, "NEXT_ADDRESS at bits 35..27");
	is_int(MIC1_POS_NEXT + MIC1_SIZE_NEXT, MIC1_WORD_BITS, "36 bits");
	ok(MIC1_BIT_JMPC == 26 && MIC1_BIT_JAMN == 25 && MIC1_BIT_JAMZ == 24,
	    "JMPC JAMN JAMZ");
	ok(MIC1_BIT_SLL8 == 23 && MIC1_BIT_SRA1 == 22 && MIC1_BIT_F0 == 21 &&
	    MIC1_BIT_F1 == 20 && MIC1_BIT_ENA == 19 && MIC1_BIT_ENB == 18 &&
	    MIC1_BIT_INVA == 17 && MIC1_BIT_INC == 16, "the ALU bits");
	ok(MIC1_BIT_WRITE == 6 && MIC1_BIT_READ == 5 && MIC1_BIT_FETCH == 4,
	    "WRITE READ FETCH");
	is_int(mic1_set(&w, MIC1_POS_NEXT, MIC1_SIZE_NEXT, 0x1FF), 0,
	    "checked setter: 0x1FF fits NEXT_ADDRESS");
	is_int(mic1_set(&w, MIC1_POS_NEXT, MIC1_SIZE_NEXT, 0x200), -1,
	    "checked setter: 0x200 does not");
	is_int(mic1_next(w), 0x1FF, "and the word kept 0x1FF");
	w = MIC1_SET(w, B, MIC1_B_OPC);
	is_int(MIC1_GET(w, B), MIC1_B_OPC, "MIC1_SET/MIC1_GET B");
	is_int(mic1_next(w), 0x1FF, "MIC1_SET leaves other fields");
	ok(mic1_make(&w, 0, MIC1_JAM_PC, 0x35, MIC1_C_PC, MIC1_MEM_FETCH,
	    MIC1_B_PC) == 0 && w == 0x004350211, "mic1_make builds Main1");
	ok(mic1_make(&w, 0, 8, 0, 0, 0, 0) != 0, "mic1_make refuses JAM 8");
	ok(MIC1_TEST(UINT64_C(0x004350211), MIC1_BIT_JMPC) &&
	    MIC1_TEST(UINT64_C(0x004350211), MIC1_BIT_FETCH) &&
	    !MIC1_TEST(UINT64_C(0x004350211), MIC1_BIT_READ), "MIC1_TEST");
	is_str(mic1_b_name(MIC1_B_MBRU), "MBRU", "B name");
	is_str(mic1_b_name(12), "none", "B 9..15 drive nothing");
	is_str(mic1_c_name(8), "H", "C bit 8 is H");
}

/* ---- datapath ---------------------------------------------------------- */

static void
test_alu(void)
{
	static const struct {
		const char *expr;
		int32_t want;
	} t[] = {	/* H = 7, TOS = 100 */
		{ "H", 7 }, { "TOS", 100 }, { "NOT H", ~7 }, { "NOT TOS", ~100 },
		{ "H + TOS", 107 }, { "H + TOS + 1", 108 }, { "H + 1", 8 },
		{ "TOS + 1", 101 }, { "TOS - H", 93 }, { "TOS - 1", 99 },
		{ "-H", -7 }, { "H AND TOS", 4 }, { "H OR TOS", 103 },
		{ "0", 0 }, { "1", 1 }, { "-1", -1 }, { "TOS - H - 1", 92 },
	};
	struct fix f;
	char src[128];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		snprintf(src, sizeof src, "a MDR = %s; goto a\n", t[i].expr);
		if (fix_init(&f, src, T(0xFF), 1) != 0) {
			ok(0, "fixture");
			continue;
		}
		f.m.cores[0].h = 7;
		f.m.cores[0].tos = 100;
		cycles(&f, 0, 1);
		is_int(f.m.cores[0].mdr, t[i].want, "ALU: %s", t[i].expr);
		ok(f.m.cores[0].n == (t[i].want < 0) &&
		    f.m.cores[0].z == (t[i].want == 0), "N and Z of %s",
		    t[i].expr);
		fix_free(&f);
	}

	/* Shifter after the ALU; flags before it. */
	if (fix_init(&f, "a MDR = TOS << 8\nb OPC = TOS >> 1\nc H = TOS << 8; "
	    "goto c\n", T(0xFF), 1) == 0) {
		struct core *c = &f.m.cores[0];

		c->tos = 0x01020304;
		cycles(&f, 0, 1);
		is_int(c->mdr, 0x02030400, "SLL8");
		c->tos = -6;
		cycles(&f, 0, 1);
		is_int(c->opc, -3, "SRA1 keeps the sign");
		c->tos = 0x00800000;
		cycles(&f, 0, 1);
		ok((uint32_t)c->h == 0x80000000u && c->n == 0 && c->z == 0,
		    "N and Z come from the ALU output, before the shifter");
		fix_free(&f);
	}
	if (fix_init(&f, "a MDR = H + TOS; goto a\n", T(0xFF), 1) == 0) {
		f.m.cores[0].h = INT32_MAX;
		f.m.cores[0].tos = 1;
		cycles(&f, 0, 1);
		ok(f.m.cores[0].mdr == INT32_MIN && f.m.cores[0].n,
		    "addition wraps at 32 bits");
		fix_free(&f);
	}

	/* Every B source. */
	{
		static const char *const b[] = { "MDR", "PC", "MBR", "MBRU",
		    "SP", "LV", "CPP", "TOS", "OPC" };
		static const int32_t want[] = { 11, 12, -16, 240, 14, 15, 16,
		    17, 18 };

		for (int i = 0; i < 9; i++) {
			snprintf(src, sizeof src, "a H = %s; goto a\n", b[i]);
			if (fix_init(&f, src, T(0xFF), 1) != 0)
				continue;
			f.m.cores[0].mdr = 11;
			f.m.cores[0].pc = 12;
			f.m.cores[0].mbr = 0xF0;
			f.m.cores[0].sp = 14;
			f.m.cores[0].lv = 15;
			f.m.cores[0].cpp = 16;
			f.m.cores[0].tos = 17;
			f.m.cores[0].opc = 18;
			cycles(&f, 0, 1);
			is_int(f.m.cores[0].h, want[i], "B bus: %s", b[i]);
			fix_free(&f);
		}
	}
}

/* ---- timing ---------------------------------------------------------------- */

static void
test_timing(void)
{
	struct fix f;
	struct core *c;

	/* A read issued in cycle k is in MDR from cycle k + 2. */
	if (fix_init(&f, "a MAR = SP; rd\nb H = MDR\nc OPC = MDR; goto c\n",
	    T(0xFF), 1) == 0) {
		c = &f.m.cores[0];
		*word(&f, 0, c->sp) = 777;
		c->mdr = 5;
		cycles(&f, 0, 1);
		is_int(c->mdr, 5, "read: MDR unchanged at the end of cycle k");
		cycles(&f, 0, 1);
		is_int(c->h, 5, "read: cycle k + 1 still sees the old MDR");
		is_int(c->mdr, 777, "read: the data arrives at the end of k + 1");
		cycles(&f, 0, 1);
		is_int(c->opc, 777, "read: usable in cycle k + 2");
		fix_free(&f);
	}
	/* The read completes after the C bus: it wins over MDR = x. */
	if (fix_init(&f, "a MAR = SP; rd\nb MDR = 1\nc H = MDR; goto c\n",
	    T(0xFF), 1) == 0) {
		c = &f.m.cores[0];
		*word(&f, 0, c->sp) = 777;
		cycles(&f, 0, 3);
		is_int(c->h, 777, "a completing read overwrites a C-bus MDR");
		fix_free(&f);
	}
	/* In one cycle: the pending read completes, then the write stores
	 * MDR as the C bus left it. */
	if (fix_init(&f, "a MAR = SP; rd\nb MDR = TOS; wr\nc goto c\n",
	    T(0xFF), 1) == 0) {
		c = &f.m.cores[0];
		*word(&f, 0, c->sp) = 777;
		c->tos = 9;
		cycles(&f, 0, 2);
		is_int(*word(&f, 0, c->sp), 9, "wr stores MDR after the C bus");
		is_int(c->mdr, 777, "the read of that cycle saw memory before "
		    "the write");
		fix_free(&f);
	}
	/* wr uses MAR as this cycle's C bus leaves it. */
	if (fix_init(&f, "a MDR = TOS\nb MAR = SP - 1; wr; goto b\n", T(0xFF),
	    1) == 0) {
		c = &f.m.cores[0];
		c->tos = 31;
		cycles(&f, 0, 2);
		is_int(*word(&f, 0, c->sp - 1), 31, "wr uses the new MAR");
		fix_free(&f);
	}
	/* Fetch: MBR for the ALU is the value at the start of the cycle
	 * (goto3 sees the byte fetched two cycles earlier). */
	if (fix_init(&f, "a fetch\nb PC = PC + 1; fetch\nc H = MBRU\n"
	    "d OPC = MBRU; goto d\n", T(0x10, 0x20, 0x30), 1) == 0) {
		c = &f.m.cores[0];
		c->pc = 0;
		c->mbr = 0xAA;
		cycles(&f, 0, 1);
		is_int(c->mbr, 0xAA, "fetch: MBR unchanged at the end of cycle k");
		cycles(&f, 0, 1);
		is_int(c->mbr, 0x10, "fetch: the byte arrives at the end of k + 1");
		cycles(&f, 0, 1);
		is_int(c->h, 0x10, "goto3: H = MBR sees the byte fetched two "
		    "cycles earlier, not the one fetched in the cycle before");
		cycles(&f, 0, 1);
		is_int(c->opc, 0x20, "... and the next cycle sees the next byte");
		fix_free(&f);
	}
	/* JMPC dispatches on the byte arriving at the end of its cycle
	 * (wide1: goto (MBR OR 0x100) right after Main1's fetch). */
	if (fix_init(&f, ".label a 0x00\n.label x 0x105\n.label y 0x1AA\n"
	    "a fetch\nb goto (MBR OR 0x100)\nx goto x\ny goto y\n",
	    T(0x05), 1) == 0) {
		c = &f.m.cores[0];
		c->pc = 0;
		c->mbr = 0xAA;
		cycles(&f, 0, 2);
		is_int(c->mpc, 0x105, "JMPC ORs in the byte fetched in the cycle "
		    "before (0x105, not 0x1AA)");
		fix_free(&f);
	}
	/* Conditional jumps use this cycle's N and Z. */
	if (fix_init(&f, ".label a 0x00\na Z = TOS; if (Z) goto t; else goto e\n"
	    "t goto t\ne goto e\n", T(0xFF), 1) == 0) {
		c = &f.m.cores[0];
		c->tos = 0;
		cycles(&f, 0, 1);
		ok(c->mpc >= 0x100 && f.cs.present[c->mpc],
		    "if (Z): Z set, MPC = X | 0x100");
		fix_free(&f);
	}
	if (fix_init(&f, ".label a 0x00\na N = TOS; if (N) goto t; else goto e\n"
	    "t goto t\ne goto e\n", T(0xFF), 1) == 0) {
		c = &f.m.cores[0];
		c->tos = 5;
		cycles(&f, 0, 1);
		ok(c->mpc < 0x100, "if (N): N clear, MPC = X");
		fix_free(&f);
	}
}

/* ---- device words ------------------------------------------------------------ */

/* Run "a rd" or "a wr" at MAR = addr (MDR = v) and two more cycles. */
static int
dev(struct fix *f, uint32_t core, int write, int32_t addr, int32_t v)
{
	struct core *c = &f->m.cores[core];

	c->mpc = write ? 0 : 1;
	c->mar = addr;
	c->mdr = v;
	cycles(f, core, 2);
	return c->mdr;
}

static const char dev_mal[] = ".label w 0x00\n.label r 0x01\n"
    "w wr; goto x\nr rd; goto x\nx goto x\n";

static void
test_devices(void)
{
	struct fix f;
	struct core *c;

	if (fix_init(&f, dev_mal, T(0xFF), 3) != 0) {
		ok(0, "device fixture");
		return;
	}
	c = &f.m.cores[0];
	dev(&f, 0, 1, MM_DEV_CONSOLE, 0x141);
	ok(f.m.io[0].out.len == 1 && f.m.io[0].out.data[0] == 0x41,
	    "-3 write: the low 8 bits are output");
	machine_add_input(&f.m, 0, (const uint8_t *)"xy", 2);
	is_int(dev(&f, 0, 0, MM_DEV_CONSOLE, 0), 'x', "-3 read: input byte");
	is_int(dev(&f, 0, 0, MM_DEV_CONSOLE, 0), 'y', "-3 read: next byte");
	is_int(dev(&f, 0, 0, MM_DEV_CONSOLE, 7), 0, "-3 read: 0 without input");
	is_int(dev(&f, 2, 0, MM_DEV_COREID, 0), 2, "-4 read: the core's id");
	is_int(dev(&f, 1, 0, MM_DEV_NCORES, 0), 3, "-5 read: number of cores");
	is_int(dev(&f, 0, 0, MM_DEV_GLOBALS, 0), MM_GLOBALS_BASE,
	    "-10 read: the globals base");
	is_int(dev(&f, 1, 0, MM_DEV_MAIN_LOCALS, 0),
	    (int32_t)f.m.progs[f.m.cores[1].prog]->main_nlocals,
	    "-11 read: main's locals");
	is_int(dev(&f, 1, 0, MM_DEV_TEXT_SIZE, 0),
	    (int32_t)f.m.progs[f.m.cores[1].prog]->text_size,
	    "-12 read: the text size");
	dev(&f, 0, 1, MM_DEV_NEWARRAY, 3);
	is_int(f.m.heap_top, 5, "-7 write: allocates tag, length, 3 words");
	is_int(dev(&f, 0, 0, MM_DEV_NEWARRAY, 0), MM_HEAP_BASE,
	    "-7 read: the reference");
	ok(f.m.heap[0] == MM_ARRAY_TAG && f.m.heap[1] == 3, "heap layout");
	is_int(dev(&f, 1, 0, MM_DEV_NEWARRAY, 0), 0,
	    "-7 read: per core (core 1 allocated nothing)");
	f.m.globals[5] = 40;
	dev(&f, 0, 1, MM_DEV_ATOM_ADDR, MM_GLOBALS_BASE + 5);
	dev(&f, 0, 1, MM_DEV_ATOM_ADD, 2);
	is_int(f.m.globals[5], 42, "-8/-9 write: atomic add");
	is_int(dev(&f, 0, 0, MM_DEV_ATOM_ADD, 0), 40, "-9 read: the old value");
	dev(&f, 1, 1, MM_DEV_HALT, 0);
	is_int(f.m.cores[1].status, CORE_HALTED, "-1 write: halts");
	is_int(c->status, CORE_RUNNING, "... that core only");
	fix_free(&f);

	/* The error word: the value names the fault. */
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		f.st.core[0].insn_pc = 0;
		dev(&f, 0, 1, MM_DEV_ERROR, FAULT_ARRAY_BOUNDS);
		ok(f.m.cores[0].status == CORE_ERROR &&
		    f.m.cores[0].fault == FAULT_ARRAY_BOUNDS,
		    "-2 write: error with the fault code written");
		is_int(f.m.cores[0].fault_op, 0xFF, "fault_op: the opcode at "
		    "the instruction's PC");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_DEV_ERROR, 0);
		is_int(f.m.cores[0].fault, FAULT_ERR_DEVICE,
		    "-2 write of 0: FAULT_ERR_DEVICE");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_DEV_ERROR, 1000);
		is_int(f.m.cores[0].fault, FAULT_ERR_DEVICE,
		    "-2 write of a non-code: FAULT_ERR_DEVICE");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_DEV_ERROR, FAULT_ERR);
		is_str(ijvm_fault_message(f.m.cores[0].fault), "ERR executed",
		    "-2 write of 1: \"ERR executed\"");
		fix_free(&f);
	}
	/* Device faults. */
	{
		static const struct {
			int write;
			int32_t addr, v;
			int fault;
			const char *what;
		} t[] = {
			{ 0, MM_DEV_HALT, 0, FAULT_MEM_RANGE, "read of -1" },
			{ 0, MM_DEV_ERROR, 0, FAULT_MEM_RANGE, "read of -2" },
			{ 0, MM_DEV_BARRIER, 0, FAULT_MEM_RANGE, "read of -6" },
			{ 0, MM_DEV_ATOM_ADDR, 0, FAULT_MEM_RANGE, "read of -8" },
			{ 1, MM_DEV_COREID, 0, FAULT_MEM_RANGE, "write of -4" },
			{ 1, MM_DEV_NCORES, 0, FAULT_MEM_RANGE, "write of -5" },
			{ 1, MM_DEV_GLOBALS, 0, FAULT_MEM_RANGE, "write of -10" },
			{ 1, MM_DEV_MAIN_LOCALS, 0, FAULT_MEM_RANGE,
			    "write of -11" },
			{ 1, MM_DEV_TEXT_SIZE, 0, FAULT_MEM_RANGE,
			    "write of -12" },
			{ 0, -13, 0, FAULT_MEM_RANGE, "read of -13" },
			{ 1, INT32_MIN, 0, FAULT_MEM_RANGE, "write of INT_MIN" },
			{ 1, MM_DEV_NEWARRAY, -1, FAULT_ARRAY_SIZE,
			    "-7 with a negative size" },
			{ 1, MM_DEV_NEWARRAY, 300, FAULT_HEAP_FULL,
			    "-7 beyond the heap" },
		};

		for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
			if (fix_init(&f, dev_mal, T(0xFF), 1) != 0)
				continue;
			dev(&f, 0, t[i].write, t[i].addr, t[i].v);
			ok(f.m.cores[0].status == CORE_ERROR &&
			    f.m.cores[0].fault == t[i].fault &&
			    f.m.cores[0].mpc == (t[i].write ? 0 : 1),
			    "device fault: %s (MPC stays at the word)",
			    t[i].what);
			fix_free(&f);
		}
	}
	/* Atomic add at a bad latched address. */
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_DEV_ATOM_ADDR, MM_CPP);
		dev(&f, 0, 1, MM_DEV_ATOM_ADD, 1);
		ok(f.m.cores[0].status == CORE_ERROR &&
		    f.m.cores[0].fault == FAULT_MEM_RANGE && f.prog.cp[0] == 100,
		    "-9 at a constant-pool address faults, the pool unchanged");
		fix_free(&f);
	}
}

static void
test_barrier(void)
{
	struct fix f;

	if (fix_init(&f, ".label w 0x00\n.label l 0x10\nw wr; goto x\n"
	    "x goto x\nl goto l\n", T(0xFF), 3) != 0) {
		ok(0, "barrier fixture");
		return;
	}
	for (uint32_t c = 0; c < 3; c++) {
		f.m.cores[c].mar = c < 2 ? MM_DEV_BARRIER : MM_DEV_HALT;
		f.m.cores[c].mpc = c < 2 ? 0 : 0x10;	/* core 2 loops */
	}
	mic1_step(&f.st, &f.m, NULL, NULL);
	ok(f.m.cores[0].status == CORE_WAITING &&
	    f.m.cores[1].status == CORE_WAITING, "-6 write: the core waits");
	mic1_step(&f.st, &f.m, NULL, NULL);
	ok(f.m.cores[0].status == CORE_WAITING, "... while a core runs");
	is_int(f.m.cores[0].cycles, 1, "a waiting core runs no cycles");
	f.m.cores[2].mpc = 0;			/* core 2 halts */
	mic1_step(&f.st, &f.m, NULL, NULL);
	ok(f.m.cores[2].status == CORE_HALTED &&
	    f.m.cores[0].status == CORE_RUNNING &&
	    f.m.cores[1].status == CORE_RUNNING,
	    "released at the end of the step in which no core runs");
	is_int(f.m.cores[0].mpc, mic1_next(f.cs.word[0]),
	    "the released core resumes after the write");
	fix_free(&f);

	/* A mask that runs no core executes nothing. */
	if (fix_init(&f, "a goto a\n", T(0xFF), 2) == 0) {
		uint8_t mask[2] = { 0, 1 };
		struct ref_mask rm = { mask };
		struct ref_summary sum;

		mic1_step(&f.st, &f.m, &rm, &sum);
		ok(f.m.cores[0].cycles == 0 && f.m.cores[1].cycles == 1 &&
		    sum.executed == 1 && f.m.step == 1,
		    "mic1_step honours the mask and counts the step");
		fix_free(&f);
	}
}

/* ---- faults -------------------------------------------------------------- */

static void
test_faults(void)
{
	struct fix f;
	struct core *c;

	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 0, 0x50000, 0);
		ok(f.m.cores[0].status == CORE_ERROR &&
		    f.m.cores[0].fault == FAULT_MEM_RANGE &&
		    f.m.cores[0].mpc == 1, "rd outside the map faults when "
		    "issued");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_CPP, 5);
		ok(f.m.cores[0].fault == FAULT_MEM_RANGE && f.prog.cp[0] == 100,
		    "wr to the constant pool faults");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, 0, 5);
		ok(f.m.cores[0].fault == FAULT_MEM_RANGE &&
		    f.prog.text[0] == 0xFF, "wr to the text (word 0) faults");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		is_int(dev(&f, 0, 0, MM_CPP + 2, 0), 300, "rd of the constant "
		    "pool works");
		dev(&f, 0, 0, MM_CPP + 3, 0);
		is_int(f.m.cores[0].fault, FAULT_MEM_RANGE, "rd past the pool "
		    "faults");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_STACK_BASE + 64, 5);
		is_int(f.m.cores[0].fault, FAULT_STACK_OVERFLOW, "wr just past "
		    "the stack region: stack overflow");
		fix_free(&f);
	}
	if (fix_init(&f, dev_mal, T(0xFF), 1) == 0) {
		dev(&f, 0, 1, MM_HEAP_BASE + 256, 5);
		is_int(f.m.cores[0].fault, FAULT_MEM_RANGE, "wr past the heap");
		dev(&f, 0, 0, MM_HEAP_BASE + 255, 0);
		fix_free(&f);
	}
	/* Absent word. */
	if (fix_init(&f, "a goto b\nb H = 1; goto c\n.label c 0x40\n"
	    "c goto c\n", T(0xFF), 1) == 0) {
		c = &f.m.cores[0];
		c->mpc = 0x30;
		cycles(&f, 0, 1);
		ok(c->status == CORE_ERROR && c->fault == FAULT_NO_MICROINSTR &&
		    c->mpc == 0x30 && c->cycles == 0, "an absent word faults "
		    "(MPC stays, no cycle counted)");
		fix_free(&f);
	}
	/* Dispatch on an invalid MBR. */
	if (fix_init(&f, ".label a 0x00\na fetch\nb nop\nc goto (MBR)\n",
	    T(0x00, 0x00), 1) == 0) {
		c = &f.m.cores[0];
		c->pc = 2;		/* past the text */
		f.st.core[0].insn_pc = 2;
		cycles(&f, 0, 2);
		ok(c->status == CORE_RUNNING && c->mbr == 0 &&
		    f.st.core[0].mbr_state == MIC1_MBR_INVALID,
		    "a fetch outside the text does not fault: MBR 0, invalid");
		cycles(&f, 0, 1);
		ok(c->status == CORE_ERROR && c->fault == FAULT_PC_RANGE &&
		    c->fault_pc == 2, "dispatching on it faults \"ran past "
		    "the end of the program\"");
		fix_free(&f);
	}
	/* MPC 0xFF halts. */
	if (fix_init(&f, ".label hlt 0xff\na goto hlt\nhlt goto hlt\n", T(0xFF),
	    1) == 0) {
		c = &f.m.cores[0];
		c->mpc = 0;
		cycles(&f, 0, 1);
		ok(c->status == CORE_HALTED && c->mpc == 0xFF, "reaching MPC "
		    "0xFF halts the core");
		is_int(mic1_cycle(&f.st, &f.m, 0), 0, "a halted core runs no "
		    "cycle");
		fix_free(&f);
	}
}

/* ---- the .mic1 loader ---------------------------------------------------- */

static void
test_loader(void)
{
	struct mic1_store cs, back;
	struct buf b = { 0 };
	char *cause = NULL;
	uint8_t *img;

	mic1_store_init(&cs);
	cs.word[2] = 0x004350211;
	cs.present[2] = 1;
	cs.word[0x1FF] = MIC1_WORD_MASK;
	cs.present[0x1FF] = 1;
	mic1_store_write(&cs, &b);
	ok(mic1_store_parse(&back, "t.mic1", b.data, b.len, &cause) == 0 &&
	    back.word[2] == 0x004350211 && back.present[2] &&
	    back.word[0x1FF] == MIC1_WORD_MASK && !back.present[3],
	    ".mic1 round trip");
	img = xmalloc(b.len + 1);

#define BAD(len, want, what) do { \
	cause = NULL; \
	ok(mic1_store_parse(&back, "t.mic1", img, (len), &cause) != 0 && \
	    cause != NULL && strstr(cause, (want)) != NULL, "loader: %s", \
	    (what)); \
	if (cause != NULL && strstr(cause, (want)) == NULL) \
		tap_diag("got: %s", cause); \
	free(cause); \
} while (0)

	memcpy(img, b.data, b.len);
	BAD(3, "t.mic1: not a .mic1 control store (3 bytes", "too short");
	img[0] = 0x1D;
	BAD(b.len, "t.mic1: not a .mic1 control store (magic 0x1d345678",
	    "wrong magic");
	memcpy(img, "\x78\x56\x34\x12", 4);
	BAD(b.len, "t.mic1: byte-swapped .mic1 magic", "byte-swapped magic");
	memcpy(img, b.data, b.len);
	BAD(b.len - 1, "is 2563: truncated", "truncated");
	img[b.len] = 0;
	BAD(b.len + 1, "is 2565: trailing data", "trailing data");
	img[4 + 5 * 7 + 4] = 0x03;
	BAD(b.len, "t.mic1: control-store word 0x007 has low bits 0x3",
	    "bad low nibble");
	memcpy(img, b.data, b.len);
	img[4 + 5 * 7] = 0x01;		/* absent marker with a word in it */
	BAD(b.len, "control-store word 0x007", "absent word with bits");
#undef BAD
	cause = NULL;
	ok(mic1_store_load_file(&back, "/nonexistent/x.mic1", &cause) != 0 &&
	    cause && strstr(cause, "/nonexistent/x.mic1") != NULL,
	    "loader: a missing file is named");
	free(cause);
	free(img);
	buf_free(&b);
}

/* ---- boundaries and switching ---------------------------------------------- */

static int
load_microcode(const char *rel, struct mic1_store *cs)
{
	char *path = xasprintf("%s/%s", MICDB_SRCDIR, rel), *cause = NULL;
	struct microcode mc;
	int rc = microcode_load(&mc, LEVEL_MIC, path, &cause);

	if (rc != 0) {
		tap_diag("%s", cause);
		free(cause);
	} else {
		*cs = mc.cs;
		microcode_free(&mc);
	}
	free(path);
	return rc;
}

static void
test_boundaries(void)
{
	/* BIPUSH 5; BIPUSH 7; IADD; HALT */
	static const uint8_t prog[] = { 0x10, 5, 0x10, 7, 0x60, 0xFF };
	static const char none[] = "a goto a\n";
	struct fix f;
	struct core *c;
	int n;

	if (fix_init(&f, none, prog, sizeof prog, 1) != 0 ||
	    load_microcode("microcode/mic1.mal", &f.cs) != 0) {
		ok(0, "boundary fixture");
		return;
	}
	c = &f.m.cores[0];
	mic1_start_core(&f.st, &f.m, 0);
	ok(c->pc == -1 && c->mpc == 0 && c->mbr == 0,
	    "start state: MPC 0, PC -1, MBR 0");
	ok(!mic1_at_boundary(&f.st, &f.m, 0), "the start is not a boundary");
	cycles(&f, 0, 1);
	ok(c->mpc == 2 && !mic1_at_boundary(&f.st, &f.m, 0),
	    "Main1 with PC -1 is not a boundary (MBR not fetched from PC)");
	for (n = 0; n < 10 && !mic1_at_boundary(&f.st, &f.m, 0); n++)
		cycles(&f, 0, 1);
	ok(mic1_at_boundary(&f.st, &f.m, 0) && c->pc == 0 && c->mbr == 0x10,
	    "first boundary: PC 0, MBR = main's first opcode");
	is_int(c->steps, 0, "no instruction counted before it");
	cycles(&f, 0, 1);
	is_int(c->steps, 1, "an instruction counts when Main1 dispatches it");
	ok(!mic1_at_boundary(&f.st, &f.m, 0) &&
	    mic1_leave(&f.st, &f.m, 0) != 0, "mid-instruction: not a "
	    "boundary, leave refused");
	for (n = 0; n < 20 && !mic1_at_boundary(&f.st, &f.m, 0); n++)
		cycles(&f, 0, 1);
	ok(c->pc == 2 && c->tos == 5 && c->sp == MM_STACK_BASE + 4,
	    "BIPUSH 5 done at the next boundary");
	is_int(mic1_leave(&f.st, &f.m, 0), 0, "leave at a boundary");
	/* ISA runs the next instruction, the micro level takes over. */
	ref_exec(&f.m, 0);
	is_int(c->pc, 4, "the ISA level ran BIPUSH 7");
	mic1_enter(&f.st, &f.m, 0);
	ok(c->mpc == f.cs.main1 && c->mbr == 0x60 && c->tos == 7 &&
	    mic1_at_boundary(&f.st, &f.m, 0), "enter: MPC Main1, MBR = IADD, "
	    "TOS = mem[SP], at a boundary");
	for (n = 0; n < 100 && c->status == CORE_RUNNING; n++)
		cycles(&f, 0, 1);
	ok(c->status == CORE_HALTED && c->tos == 12 && c->pc == 6 &&
	    c->steps == 4, "IADD and HALT at the micro level: 12, PC after "
	    "HALT, 4 instructions");
	ok(c->status == CORE_HALTED && mic1_leave(&f.st, &f.m, 0) == 0,
	    "a halted core can always leave");
	fix_free(&f);

	/* Entering outside the text: dispatch faults like the ISA. */
	if (fix_init(&f, none, prog, sizeof prog, 1) == 0 &&
	    load_microcode("microcode/mic1.mal", &f.cs) == 0) {
		c = &f.m.cores[0];
		c->pc = 6;
		mic1_enter(&f.st, &f.m, 0);
		ok(mic1_at_boundary(&f.st, &f.m, 0), "a PC past the text is "
		    "still a boundary");
		cycles(&f, 0, 1);
		ok(c->status == CORE_ERROR && c->fault == FAULT_PC_RANGE &&
		    c->fault_pc == 6 && c->steps == 1, "and faults at dispatch, "
		    "as ref.c does at that PC");
		fix_free(&f);
	}
}

/* IRETURN in main faults "IRETURN from main" at its PC with mic1.mal,
 * before it changes anything (ref.c's check 5). */
static void
test_return_main(void)
{
	struct fix f;
	struct core *c;

	/* BIPUSH 7; IRETURN; HALT */
	if (fix_init(&f, "a goto a\n", T(0x10, 7, 0xAC, 0xFF), 1) != 0 ||
	    load_microcode("microcode/mic1.mal", &f.cs) != 0) {
		ok(0, "return-main fixture");
		return;
	}
	c = &f.m.cores[0];
	mic1_start_core(&f.st, &f.m, 0);
	for (int i = 0; i < 1000 && c->status == CORE_RUNNING; i++)
		cycles(&f, 0, 1);
	ok(c->status == CORE_ERROR && c->fault == FAULT_RETURN_MAIN &&
	    c->fault_pc == 2 && c->fault_op == 0xAC && c->lv == MM_STACK_BASE &&
	    c->sp == MM_STACK_BASE + 4 && *word(&f, 0, c->sp) == 7,
	    "mic1.mal: IRETURN in main faults at its PC, SP and LV untouched");
	fix_free(&f);
}

/* ---- the textbook dialect runs programs ------------------------------------- */

/* Run a .jas at both levels with the textbook microprogram; compare. */
static void
textbook_run(const struct mic1_store *cs, const char *name,
    const char *input)
{
	char *path = xasprintf("%s/programs/%s.jas", MICDB_SRCDIR, name);
	struct machine_config cfg = { 1, MM_DEFAULT_STACK_WORDS, 1024, 32 };
	struct program prog;
	const struct program *progs[1] = { &prog };
	struct machine a, b;
	struct mic1_state st;
	char *cause = NULL;
	int same;

	if (program_load_file(&prog, path, &cause) != 0 ||
	    machine_init(&a, &cfg, progs, 1, NULL, &cause) != 0 ||
	    machine_init(&b, &cfg, progs, 1, NULL, &cause) != 0) {
		ok(0, "textbook: %s: %s", name, cause);
		free(cause);
		free(path);
		return;
	}
	if (input != NULL) {
		machine_add_input(&a, 0, (const uint8_t *)input, strlen(input));
		machine_add_input(&b, 0, (const uint8_t *)input, strlen(input));
	}
	mic1_state_init(&st, &b, cs);
	mic1_start_core(&st, &b, 0);
	for (int i = 0; i < 10000000 && a.cores[0].status == CORE_RUNNING; i++)
		ref_exec(&a, 0);
	for (int i = 0; i < 100000000 && b.cores[0].status == CORE_RUNNING; i++)
		mic1_cycle(&st, &b, 0);
	same = a.cores[0].status == b.cores[0].status &&
	    a.io[0].out.len == b.io[0].out.len &&
	    memcmp(a.io[0].out.data, b.io[0].out.data, a.io[0].out.len) == 0 &&
	    a.cores[0].pc == b.cores[0].pc && a.cores[0].sp == b.cores[0].sp &&
	    a.cores[0].lv == b.cores[0].lv &&
	    memcmp(a.stacks, b.stacks, cfg.stack_words * sizeof *a.stacks) == 0;
	ok(same, "textbook microprogram runs %s like the ISA level (output, "
	    "registers, stack)", name);
	mic1_state_free(&st);
	machine_free(&a);
	machine_free(&b);
	program_free(&prog);
	free(path);
}

/* BIPUSH 'A'; OUT; ERR on store cs: ERR prints ERROR and halts. */
static void
textbook_err(const struct mic1_store *cs, const char *what)
{
	struct fix f;

	if (fix_init(&f, "a goto a\n", T(0x10, 'A', 0xFD, 0xFE), 1) != 0) {
		ok(0, "%s: fixture", what);
		return;
	}
	f.cs = *cs;
	mic1_start_core(&f.st, &f.m, 0);
	for (int i = 0; i < 1000 && f.m.cores[0].status == CORE_RUNNING; i++)
		cycles(&f, 0, 1);
	ok(f.m.cores[0].status == CORE_HALTED && f.m.io[0].out.len == 6 &&
	    memcmp(f.m.io[0].out.data, "AERROR", 6) == 0, "%s", what);
	fix_free(&f);
}

static void
test_textbook(void)
{
	struct mic1_store cs;

	if (load_microcode("tests/textbook.mal", &cs) != 0) {
		ok(0, "tests/textbook.mal assembles");
		return;
	}
	textbook_run(&cs, "hello", NULL);
	textbook_run(&cs, "decimal", NULL);
	textbook_run(&cs, "fib", NULL);
	textbook_run(&cs, "gcd", NULL);
	textbook_run(&cs, "echo", "textbook\n");
	textbook_run(&cs, "factorial", NULL);
	textbook_run(&cs, "multiply", NULL);
	textbook_run(&cs, "recsum", NULL);
	textbook_run(&cs, "reverse", "textbook\n");
	/* BIPUSH 'A'; OUT; ERR: its ERR prints ERROR and halts. */
	textbook_err(&cs, "textbook ERR prints ERROR and halts at 0xFF");
}

/*
 * The textbook's Java assembler encodes the constant 1 as OR with INC and
 * -1 as NOT A with A disabled; its simulator adds INC after every
 * function, and so does micdb's ALU (doc/mic1.md section 1).  Rewrite
 * every canonical 1 and -1 of a store that way: what a .mic1 from the
 * textbook's tools holds.  Returns the words changed.
 */
static int
textbook_encodings(struct mic1_store *cs)
{
	int n = 0;

	for (int i = 0; i < MIC1_STORE_WORDS; i++) {
		uint32_t alu = mic1_alu(cs->word[i]);
		uint32_t fn = MIC1_ALU_FUNC(alu), to;

		if (!cs->present[i])
			continue;
		if (fn == MIC1_F_ONE)
			to = MIC1_F_ONE_OR;
		else if (fn == MIC1_F_MINUS1)
			to = MIC1_F_MINUS1_OR;
		else
			continue;
		cs->word[i] = MIC1_SET(cs->word[i], ALU, (alu & ~0x3Fu) | to);
		n++;
	}
	return n;
}

static void
test_textbook_encodings(void)
{
	static const struct {
		uint32_t alu;
		int32_t want;
		const char *what;
	} t[] = {	/* H = 7, TOS = 100 */
		{ MIC1_F_ONE_OR, 1, "OR with INC, A and B off: 1" },
		{ MIC1_F_MINUS1_OR, -1, "NOT A with A off (OR, INVA): -1" },
		{ MIC1_F_OR | MIC1_ALU_INC, 104, "H OR TOS, then INC" },
		{ MIC1_F_AND | MIC1_ALU_INC, 5, "H AND TOS, then INC" },
		{ MIC1_F_NOT_B | MIC1_ALU_INC, -100, "NOT TOS, then INC: -TOS" },
		{ MIC1_F_A_ADD_B_1, 108, "the sum's INC is unchanged" },
	};
	struct mic1_store cs;
	struct fix f;
	char text[64];
	int n;

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (fix_init(&f, "a MDR = H OR TOS; goto a\n", T(0xFF), 1) != 0) {
			ok(0, "fixture");
			continue;
		}
		for (int w = 0; w < MIC1_STORE_WORDS; w++)
			if (f.cs.present[w])
				f.cs.word[w] = MIC1_SET(f.cs.word[w], ALU, t[i].alu);
		f.m.cores[0].h = 7;
		f.m.cores[0].tos = 100;
		cycles(&f, 0, 1);
		is_int(f.m.cores[0].mdr, t[i].want, "ALU: %s", t[i].what);
		fix_free(&f);
	}
	is_str(mic1_func_name(MIC1_F_ONE_OR), "1",
	    "the textbook's 1 disassembles as 1");
	is_str(mic1_func_name(MIC1_F_MINUS1_OR), "-1",
	    "the textbook's -1 disassembles as -1");

	/* The standard microprogram as the textbook's tools write it. */
	if (load_microcode("tests/textbook.mal", &cs) != 0) {
		ok(0, "tests/textbook.mal assembles");
		return;
	}
	n = textbook_encodings(&cs);
	ok(n >= 6, "the textbook's encodings replace %d constants", n);
	mic1_disasm(cs.word[0xFE], text, sizeof text);
	ok(strstr(text, "-1") != NULL, "its ERR word reads %s", text);
	textbook_run(&cs, "hello", NULL);
	textbook_run(&cs, "fib", NULL);
	textbook_run(&cs, "echo", "textbook\n");
	textbook_run(&cs, "recsum", NULL);
	/* ERR builds its letters from 1 and -1. */
	textbook_err(&cs, "with the textbook's encodings ERR still prints "
	    "ERROR");
}

/* tests/textbook.mal with tests/textbook-variant.mal after it: the
 * shapes of classroom variants of mic1ijvm.mal (see that file). */
static void
test_textbook_variant(void)
{
	static const char *const rel[] = { "tests/textbook.mal",
	    "tests/textbook-variant.mal" };
	/* BIPUSH 5 NEGATE DUP OUT | INVERT DUP OUT | SHL8 HALVE HALVE
	 * BIPUSH 3 IADD DUP OUT | ISZERO DUP OUT | ISZERO DUP OUT |
	 * BIPUSH 7 OVER IADD DUP OUT | CHECK | BIPUSH 0 CHECK */
	static const uint8_t prog[] = { 0x10, 5, 0x74, 0x59, 0xFD,
	    0x70, 0x59, 0xFD, 0x02, 0x03, 0x03, 0x10, 3, 0x60, 0x59, 0xFD,
	    0x71, 0x59, 0xFD, 0x71, 0x59, 0xFD, 0x10, 7, 0x73, 0x60, 0x59,
	    0xFD, 0x72, 0x10, 0, 0x72 };
	static const uint8_t want[] = { 0xFB, 0x04, 0x03, 0x00, 0x01, 0x08,
	    'E', 'R', 'R', 'O', 'R' };
	struct mal_errors errs, warns;
	struct mic1_store cs;
	struct buf src = { 0 };
	struct fix f;
	int rc;

	for (size_t i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", MICDB_SRCDIR, rel[i]);
		char *cause = NULL;
		uint8_t *data;
		size_t len;

		if (read_file(path, &data, &len, &cause) != 0) {
			ok(0, "read %s: %s", rel[i], cause);
			free(cause);
			free(path);
			buf_free(&src);
			return;
		}
		buf_put(&src, data, len);
		free(data);
		free(path);
	}
	rc = mal_assemble_warn("variant.mal", (const char *)src.data, src.len,
	    &cs, NULL, &errs, &warns);
	buf_free(&src);
	if (rc != 0) {
		for (size_t i = 0; i < errs.count; i++)
			tap_diag("%s", errs.msg[i]);
		ok(0, "textbook.mal + textbook-variant.mal assemble");
		mal_errors_free(&errs);
		mal_errors_free(&warns);
		return;
	}
	ok(warns.count == 2 && strstr(warns.msg[0], "reaches 'err1' "
	    "through an added word") != NULL && strstr(warns.msg[1],
	    "'missing1' is never defined") != NULL, "variant: assembles, warning "
	    "about the missing routine and the if to err1");
	mal_errors_free(&warns);
	ok(cs.main1 != MIC1_MAIN1 && cs.present[cs.main1] &&
	    cs.word[cs.main1] == 0x004350211ull, "variant: Main1 moved off "
	    "0x02, which an opcode took");
	textbook_run(&cs, "hello", NULL);
	textbook_run(&cs, "fib", NULL);
	textbook_run(&cs, "recsum", NULL);
	textbook_run(&cs, "reverse", "variant\n");
	if (fix_init(&f, "a goto a\n", prog, sizeof prog, 1) == 0) {
		f.cs = cs;
		mic1_start_core(&f.st, &f.m, 0);
		for (int i = 0; i < 5000 && f.m.cores[0].status ==
		    CORE_RUNNING; i++)
			cycles(&f, 0, 1);
		ok(f.m.cores[0].status == CORE_HALTED &&
		    f.m.io[0].out.len == sizeof want &&
		    memcmp(f.m.io[0].out.data, want, sizeof want) == 0,
		    "variant instructions compute what they should (NEGATE "
		    "INVERT SHL8 HALVE ISZERO OVER CHECK)");
		if (f.m.io[0].out.len != sizeof want)
			tap_diag("output %zu bytes", f.m.io[0].out.len);
		fix_free(&f);
	}
	if (fix_init(&f, "a goto a\n", T(0x75), 1) == 0) {
		f.cs = cs;
		mic1_start_core(&f.st, &f.m, 0);
		for (int i = 0; i < 1000 && f.m.cores[0].status ==
		    CORE_RUNNING; i++)
			cycles(&f, 0, 1);
		ok(f.m.cores[0].status == CORE_HALTED &&
		    f.m.io[0].out.len == 5 &&
		    memcmp(f.m.io[0].out.data, "ERROR", 5) == 0,
		    "variant: the anchored, never written opcode runs .default "
		    "(goto err1)");
		fix_free(&f);
	}
}

/* With mic1.mal, an opcode the ISA does not know faults "unknown
 * opcode" through the error word, unless it is one of the few bytes
 * whose control-store word is the false target of an if (those must lie
 * below 0x100); .reserve keeps every other word of the table free. */
static void
test_unknown_opcodes(void)
{
	struct mic1_store cs;
	int faulted = 0, unknown = 0, exposed = 0;
	uint64_t deflt;

	if (load_microcode("microcode/mic1.mal", &cs) != 0) {
		ok(0, "mic1.mal assembles");
		return;
	}
	deflt = cs.word[0xE0];	/* not an opcode, not a pair address */
	for (int op = 0; op < 256; op++) {
		struct fix f;

		if (ijvm_builtin((uint8_t)op) != NULL)
			continue;
		/* Main1 is at 0x02 (doc/mic1.md): that opcode re-runs it */
		if (op == 0x02)
			continue;
		unknown++;
		if (cs.word[op] != deflt)
			exposed++;
		if (fix_init(&f, "a goto a\n", (const uint8_t[]){ (uint8_t)op,
		    0, 0, 0 }, 4, 1) != 0)
			continue;
		f.cs = cs;
		mic1_enter(&f.st, &f.m, 0);
		for (int i = 0; i < 100 && f.m.cores[0].status == CORE_RUNNING;
		    i++)
			cycles(&f, 0, 1);
		if (f.m.cores[0].status == CORE_ERROR &&
		    f.m.cores[0].fault == FAULT_BAD_OPCODE &&
		    f.m.cores[0].fault_pc == 0 && f.m.cores[0].fault_op == op)
			faulted++;
		fix_free(&f);
	}
	/* A dispatch-table word that is also an if's false target tells a
	 * dispatch from its if by a re-read (mic1.mal's header), so every
	 * unknown opcode but 0x02 faults as at the ISA level. */
	is_int(faulted, unknown, "every unknown opcode but 0x02 faults "
	    "\"unknown opcode\" at its PC (%d of them on words shared with "
	    "routine code)", exposed);
}

/* Random control stores on random registers: any word, any address,
 * any device access must leave the machine consistent (the -asan build
 * checks every memory access of the simulator). */
static void
test_random_stores(void)
{
	uint64_t x = 0x9E3779B97F4A7C15ull;
	int runs = 0, sane = 1;

#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	for (int r = 0; r < 200; r++) {
		struct fix f;

		if (fix_init(&f, "a goto a\n", T(0x10, 0x05, 0x60, 0xA7, 0xFF,
		    0xFC, 0xC4, 0x15), 3) != 0)
			continue;
		for (int w = 0; w < MIC1_STORE_WORDS; w++) {
			uint64_t v = RND() & MIC1_WORD_MASK;

			/* Addresses near the map's edges and the devices
			 * are more interesting than random ones. */
			f.cs.word[w] = v;
			f.cs.present[w] = (RND() % 16) != 0;
		}
		for (uint32_t c = 0; c < 3; c++) {
			struct core *k = &f.m.cores[c];
			static const int32_t near[] = { -11, -10, -9, -8, -7,
			    -6, -5, -4, -3, -2, -1, 0, MM_CPP, MM_CPP + 3,
			    MM_STACK_BASE, MM_STACK_BASE + 63, MM_STACK_BASE + 64,
			    MM_GLOBALS_BASE, MM_HEAP_BASE, MM_HEAP_BASE + 255,
			    INT32_MIN, INT32_MAX };

			k->mar = near[RND() % (sizeof near / sizeof near[0])];
			k->mdr = (int32_t)RND();
			k->h = (int32_t)RND();
			k->opc = near[RND() % (sizeof near / sizeof near[0])];
			k->tos = (int32_t)(RND() % 300) - 20;
			k->pc = (int32_t)(RND() % 12) - 2;
			k->mpc = (uint16_t)(RND() % MIC1_STORE_WORDS);
		}
		for (int i = 0; i < 500; i++)
			mic1_step(&f.st, &f.m, NULL, NULL);
		for (uint32_t c = 0; c < 3; c++) {
			const struct core *k = &f.m.cores[c];

			if (k->mpc >= MIC1_STORE_WORDS || k->status > 3 ||
			    (k->status == CORE_ERROR && (k->fault == 0 ||
			    k->fault >= FAULT_COUNT)) || k->mbr < 0 ||
			    k->mbr > 255 || f.m.heap_top > 256)
				sane = 0;
		}
		runs++;
		fix_free(&f);
	}
#undef RND
	ok(runs == 200 && sane, "random control stores: %d machines, 500 "
	    "steps each, state always consistent", runs);
}

int
main(void)
{
	test_encoding();
	test_alu();
	test_timing();
	test_devices();
	test_barrier();
	test_faults();
	test_loader();
	test_boundaries();
	test_return_main();
	test_textbook();
	test_textbook_variant();
	test_textbook_encodings();
	test_unknown_opcodes();
	test_random_stores();
	return done_testing();
}
