/*
 * Unit tests of the PMIC compiler (pmc.c) and the .pmic format (pmic-enc.c):
 * every construct of the language encodes as pmic-enc.h says, placement of
 * opcode blocks, wide_ blocks, free labels and conditional pairs, the
 * symbols and listing, every error message with its line and column,
 * and the .pmic loader's checks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "mal.h"
#include "pmc.h"
#include "pmic.h"
#include "tap.h"

/* Compile src; 0 or -1 (errors printed as diagnostics when want_ok). */
static int
compile(const char *src, struct pmic_store *cs, struct mal_syms *syms,
    int want_ok)
{
	struct mal_errors errs;
	int rc = pmc_compile("t.pm", src, strlen(src), cs, syms, &errs);

	if (rc != 0) {
		if (want_ok)
			for (size_t i = 0; i < errs.count; i++)
				tap_diag("%s", errs.msg[i]);
		mal_errors_free(&errs);
	}
	return rc;
}

/* src fails to compile with exactly msg among its messages. */
static void
error_is(const char *src, const char *msg, const char *what)
{
	struct pmic_store cs;
	struct mal_errors errs;
	int found = 0;

	if (pmc_compile("t.pm", src, strlen(src), &cs, NULL, &errs) == 0) {
		ok(0, "%s: rejected", what);
		return;
	}
	for (size_t i = 0; i < errs.count; i++)
		if (strncmp(errs.msg[i], msg, strlen(msg)) == 0)
			found = 1;
	if (!ok(found, "%s", what))
		for (size_t i = 0; i < errs.count; i++)
			tap_diag("got: %s", errs.msg[i]);
	mal_errors_free(&errs);
}

/* The micro-instruction at an address of a one-block program. */
static const struct pmic_mi *
at(const struct pmic_store *cs, int addr)
{
	return &cs->mi[addr];
}

static void
test_alu_ops(void)
{
	static const struct {
		const char	*rv;
		uint32_t	 alu, a, b;
	} t[] = {
		{ "zero",	PMIC_ALU_ZERO,	 PMIC_R_NONE, PMIC_R_NONE },
		{ "0",		PMIC_ALU_ZERO,	 PMIC_R_NONE, PMIC_R_NONE },
		{ "one",	PMIC_ALU_ONE,	 PMIC_R_NONE, PMIC_R_NONE },
		{ "1",		PMIC_ALU_ONE,	 PMIC_R_NONE, PMIC_R_NONE },
		{ "-one",	PMIC_ALU_MINUS1, PMIC_R_NONE, PMIC_R_NONE },
		{ "-1",		PMIC_ALU_MINUS1, PMIC_R_NONE, PMIC_R_NONE },
		{ "tos",	PMIC_ALU_A,	 PMIC_R_TOS, PMIC_R_NONE },
		{ "mdr+tos",	PMIC_ALU_ADD,	 PMIC_R_MDR, PMIC_R_TOS },
		{ "h+opc+one",	PMIC_ALU_ADD1,	 PMIC_R_H, PMIC_R_OPC },
		{ "h + opc + 1", PMIC_ALU_ADD1,	 PMIC_R_H, PMIC_R_OPC },
		{ "sp+one",	PMIC_ALU_INC,	 PMIC_R_SP, PMIC_R_NONE },
		{ "sp+1",	PMIC_ALU_INC,	 PMIC_R_SP, PMIC_R_NONE },
		{ "sp-one",	PMIC_ALU_DEC,	 PMIC_R_SP, PMIC_R_NONE },
		{ "sp-1",	PMIC_ALU_DEC,	 PMIC_R_SP, PMIC_R_NONE },
		{ "tos-mdr",	PMIC_ALU_SUB,	 PMIC_R_TOS, PMIC_R_MDR },
		{ "-g0",	PMIC_ALU_NEG,	 PMIC_R_G0, PMIC_R_NONE },
		{ "not g1",	PMIC_ALU_NOT,	 PMIC_R_G1, PMIC_R_NONE },
		{ "h and mbr3",	PMIC_ALU_AND,	 PMIC_R_H, PMIC_R_MBR3 },
		{ "h or c5",	PMIC_ALU_OR,	 PMIC_R_H, PMIC_R_C5 },
		{ "mbr1<<8",	PMIC_ALU_SHL8,	 PMIC_R_MBR1, PMIC_R_NONE },
		{ "mbr12s>>8",	PMIC_ALU_SRA8,	 PMIC_R_MBR12S, PMIC_R_NONE },
		{ "sid >> 1",	PMIC_ALU_SRA1,	 PMIC_R_SID, PMIC_R_NONE },
		{ "MBR1S",	PMIC_ALU_A,	 PMIC_R_MBR1S, PMIC_R_NONE },
		{ "mbr0",	PMIC_ALU_A,	 PMIC_R_MBR0, PMIC_R_NONE },
		{ "mbr2",	PMIC_ALU_A,	 PMIC_R_MBR2, PMIC_R_NONE },
		{ "mbr12",	PMIC_ALU_A,	 PMIC_R_MBR12, PMIC_R_NONE },
		{ "mbr",	PMIC_ALU_A,	 PMIC_R_MBR, PMIC_R_NONE },
		{ "c2 or c3",	PMIC_ALU_OR,	 PMIC_R_C2, PMIC_R_C3 },
		{ "c4 and lv",	PMIC_ALU_AND,	 PMIC_R_C4, PMIC_R_LV },
		{ "cpp+pc",	PMIC_ALU_ADD,	 PMIC_R_CPP, PMIC_R_PC },
		{ "mar",	PMIC_ALU_A,	 PMIC_R_MAR, PMIC_R_NONE },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct pmic_store cs;
		char src[128];
		uint32_t w;

		snprintf(src, sizeof src, "nop { h = %s }", t[i].rv);
		if (compile(src, &cs, NULL, 1) != 0) {
			ok(0, "'h = %s' compiles", t[i].rv);
			continue;
		}
		w = at(&cs, OP_NOP)->cu[0];
		ok(pmic_cu_en(w) && pmic_cu_alu(w) == t[i].alu &&
		    pmic_cu_c(w) == PMIC_C_H &&
		    (!(pmic_alu_inputs(t[i].alu) & 1) ||
		    pmic_cu_a(w) == t[i].a) &&
		    (!(pmic_alu_inputs(t[i].alu) & 2) ||
		    pmic_cu_b(w) == t[i].b),
		    "'h = %s': ALU %u, A %u, B %u", t[i].rv, t[i].alu, t[i].a,
		    t[i].b);
	}
}

static void
test_thesis_example(void)
{
	static const char src[] =
	    "# the thesis' IADD\n"
	    "add {\n"
	    "    mar,sp = sp-one : read;\n"
	    "    mdr,tos = mdr+tos // pc = pc+one : write // fetch\n"
	    "}\n"
	    "IADD { mar,sp = sp-one : read : next add }\n";
	struct pmic_store cs;
	struct mal_syms syms;
	const struct pmic_mi *mi, *m2;
	uint32_t a0;

	if (!ok(compile(src, &cs, &syms, 1) == 0, "the thesis example "
	    "compiles"))
		return;
	mi = at(&cs, OP_IADD);
	ok(pmic_present(&cs, OP_IADD), "IADD (upper case) at its opcode 0x60");
	ok(pmic_cu_alu(mi->cu[0]) == PMIC_ALU_DEC &&
	    pmic_cu_a(mi->cu[0]) == PMIC_R_SP &&
	    pmic_cu_c(mi->cu[0]) == (PMIC_C_MAR | PMIC_C_SP),
	    "mar,sp = sp-one on CU0");
	ok(pmic_cu_mem(mi->cu[1]) && !pmic_cu_mem(mi->cu[0]) &&
	    !pmic_cu_mem(mi->cu[2]), "read is CU1's memory bit");
	ok(!pmic_cu_en(mi->cu[1]) && !pmic_cu_en(mi->cu[2]),
	    "CU1 and CU2 compute nothing");
	a0 = pmic_next_addr(mi->next);
	ok(!PMIC_TEST(mi->next, PMIC_BIT_JMPC) &&
	    !PMIC_TEST(mi->next, PMIC_BIT_JAMZ), "next add: a plain goto");
	/* add's first word, then its second */
	m2 = at(&cs, (int)a0);
	ok(pmic_present(&cs, a0) && pmic_cu_c(m2->cu[0]) == (PMIC_C_MAR |
	    PMIC_C_SP), "the goto reaches add");
	m2 = at(&cs, (int)pmic_next_addr(m2->next));
	ok(pmic_cu_alu(m2->cu[0]) == PMIC_ALU_ADD &&
	    pmic_cu_c(m2->cu[0]) == (PMIC_C_MDR | PMIC_C_TOS) &&
	    pmic_cu_alu(m2->cu[1]) == PMIC_ALU_INC &&
	    pmic_cu_c(m2->cu[1]) == PMIC_C_PC, "mdr,tos = mdr+tos // "
	    "pc = pc+one on CU0, CU1");
	ok(pmic_cu_mem(m2->cu[2]) && pmic_cu_mem(m2->cu[0]) &&
	    !pmic_cu_mem(m2->cu[1]), "write // fetch: CU2 and CU0");
	ok(PMIC_TEST(m2->next, PMIC_BIT_JMPC) && pmic_next_addr(m2->next) == 0,
	    "the last of a block dispatches (JMPC, NEXT 0)");
	ok(PMIC_TEST(m2->next, PMIC_BIT_PRESENT), "present bit");
	is_int(syms.n, 3, "one symbol per micro-instruction");
	{
		const struct mal_sym *s = mal_syms_at(&syms, OP_IADD);
		uint32_t addr;

		ok(s && s->line == 6 && s->label &&
		    strcmp(s->label, "IADD") == 0 &&
		    strcmp(s->text, "mar,sp = sp-one : read : next add") == 0,
		    "symbol: line, label, text");
		ok(mal_syms_find(&syms, "add", &addr) == 0 && addr == a0,
		    "symbol: label add at its address");
	}
	{
		struct buf b = { 0 };

		pmc_listing(&cs, &syms, &b);
		buf_put_u8(&b, 0);
		ok(strstr((char *)b.data, "0x060  ") != NULL &&
		    strstr((char *)b.data, "IADD") != NULL &&
		    strstr((char *)b.data, "mdr,tos = mdr+tos // pc = pc+one : "
		    "write // fetch") != NULL, "listing lines");
		buf_free(&b);
	}
	mal_syms_free(&syms);
}

static void
test_constructs(void)
{
	struct pmic_store cs;
	const struct pmic_mi *mi;
	uint32_t t, f;

	/* wide_ blocks, case, comments, next forms */
	ok(compile("wide_iload { h = mbr12 : next dispatch } # c\n"
	    "WIDE { pc = pc+one : fetch : next wide }\n"
	    "Wide_Istore { h = h }\n", &cs, NULL, 1) == 0,
	    "wide_ blocks, case-insensitive names, comments");
	ok(pmic_present(&cs, 0x100 + OP_ILOAD), "wide_iload at 0x115");
	ok(pmic_present(&cs, 0x100 + OP_ISTORE), "Wide_Istore at 0x136");
	mi = at(&cs, OP_WIDE);
	ok(PMIC_TEST(mi->next, PMIC_BIT_JMPC) &&
	    pmic_next_addr(mi->next) == 0x100, "next wide: JMPC 0x100");
	mi = at(&cs, 0x100 + OP_ILOAD);
	ok(PMIC_TEST(mi->next, PMIC_BIT_JMPC) &&
	    pmic_next_addr(mi->next) == 0, "next dispatch: JMPC 0");

	/* conditionals: taken target and fall-through xor 0x100 */
	ok(compile("pop { z = tos : next (z) zero_; h = one; h = zero }\n"
	    "zero_ { h = -one }\n"
	    "dup { n = tos : next (n) neg; h = one }\n"
	    "neg { h = tos }\n", &cs, NULL, 1) == 0, "conditionals compile");
	mi = at(&cs, OP_POP);
	ok(PMIC_TEST(mi->next, PMIC_BIT_JAMZ) &&
	    !PMIC_TEST(mi->next, PMIC_BIT_JAMN), "next (z): JAMZ");
	ok(pmic_cu_en(mi->cu[0]) && pmic_cu_c(mi->cu[0]) == 0 &&
	    pmic_cu_alu(mi->cu[0]) == PMIC_ALU_A, "z = tos: CU0 computes, "
	    "writes nothing");
	f = pmic_next_addr(mi->next);
	t = f ^ 0x100;
	ok(f < 0x100, "the fall-through below 0x100 (Mic-1's or works)");
	ok(pmic_cu_alu(at(&cs, (int)t)->cu[0]) == PMIC_ALU_MINUS1,
	    "the taken address holds zero_");
	ok(pmic_cu_alu(at(&cs, (int)f)->cu[0]) == PMIC_ALU_ONE,
	    "the fall-through holds the block's next micro-instruction");
	mi = at(&cs, OP_DUP);
	ok(PMIC_TEST(mi->next, PMIC_BIT_JAMN), "next (n): JAMN");

	/* a conditional to an opcode block: the fall-through at op + 0x100 */
	ok(compile("pop { z = tos : next (z) iadd; h = one }\n"
	    "iadd { h = zero }\n", &cs, NULL, 1) == 0,
	    "a conditional to an opcode block compiles");
	mi = at(&cs, OP_POP);
	is_int(pmic_next_addr(mi->next), 0x100 + OP_IADD,
	    "its fall-through lies at 0x160 (0x60 xor 0x100)");

	/* memory ops in any order, mixed separators, three CUs */
	ok(compile("nop { fetch // write // read : h = one // g0 = c2 // "
	    "g1 = c3 : next nop }", &cs, NULL, 1) == 0,
	    "memory ops first, in any order");
	mi = at(&cs, OP_NOP);
	ok(pmic_cu_mem(mi->cu[0]) && pmic_cu_mem(mi->cu[1]) &&
	    pmic_cu_mem(mi->cu[2]), "fetch read write set");
	ok(pmic_cu_c(mi->cu[0]) == PMIC_C_H && pmic_cu_c(mi->cu[1]) ==
	    PMIC_C_G0 && pmic_cu_c(mi->cu[2]) == PMIC_C_G1,
	    "ALU ops go to CU0, CU1, CU2 in order");
	is_int(pmic_next_addr(mi->next), OP_NOP, "next nop: to itself");
	ok(compile("nop { mar,mdr,pc,sp,lv,cpp,tos,opc,h,g0,g1 = zero; "
	    "fetch; }", &cs, NULL, 1) == 0, "all 11 writable registers; "
	    "a memory op alone; a trailing ';'");
	is_int(pmic_cu_c(at(&cs, OP_NOP)->cu[0]), 0x7FF, "C = 0x7FF");
	ok(compile("x { next y }\ny { h = h }", &cs, NULL, 1) == 0,
	    "a micro-instruction that is only a next");
	ok(compile("nop { h = h }\nunused_label { h = h }", &cs, NULL, 1) == 0,
	    "unreferenced labels are fine");
	ok(!pmic_present(&cs, OP_IADD), "opcodes without a block stay empty");
	ok(pmic_present(&cs, 0x101) && !pmic_present(&cs, 0x100),
	    "free words avoid addresses that an opcode dispatches to");
}

static void
test_errors(void)
{
	error_is("x { h = h // h = tos }",
	    "t.pm:1:14: register 'h' written by two compute units (CU0 and "
	    "CU1)", "two CUs writing one register");
	error_is("x { h = h // g0 = h // g1 = h // opc = h }",
	    "t.pm:1:34: a fourth ALU operation: PMIC has three compute units",
	    "a 4th CU");
	error_is("x { h = h : read // read }",
	    "t.pm:1:21: 'read' twice in one micro-instruction",
	    "a memory op twice");
	error_is("x { fetch : fetch }",
	    "t.pm:1:13: 'fetch' twice in one micro-instruction", "fetch twice");
	error_is("x { write : write }",
	    "t.pm:1:13: 'write' twice in one micro-instruction", "write twice");
	error_is("x { h = foo }",
	    "t.pm:1:9: unknown register 'foo'", "unknown source register");
	error_is("x { foo = h }",
	    "t.pm:1:5: unknown register 'foo'", "unknown target register");
	error_is("x { mbr0 = h }",
	    "t.pm:1:5: 'mbr0' is not writable (writable: mar mdr pc sp lv cpp "
	    "tos opc h g0 g1)", "a non-writable target");
	error_is("x { sid, h = h }", "t.pm:1:5: 'sid' is not writable",
	    "sid is not writable");
	error_is("x { h = h : next nowhere }",
	    "t.pm:1:18: undefined label 'nowhere'", "undefined label");
	error_is("x { h = h }\n  X { h = h }",
	    "t.pm:2:3: duplicate label 'X' (first defined at line 1)",
	    "duplicate label (case-insensitive)");
	error_is("iadd { h = h }\niadd { h = h }",
	    "t.pm:2:1: duplicate label 'iadd'", "an opcode block twice");
	error_is("wide_iload { h = h }\niload { z = h : next (z) iload; "
	    "h = h }\nx { h = h : next (z) wide_iload; h = h }",
	    "t.pm:2:9: impossible conditional placement: the fall-through of "
	    "'next (z) iload' must go to 0x115", "conditional placement "
	    "impossible (address fixed)");
	error_is("a { z = h : next (z) t; h = h }\nb { z = h : next (z) t; "
	    "h = h }\nt { h = h }",
	    "t.pm:2:5: impossible conditional placement: the fall-through of "
	    "'next (z) t' must go to", "two conditionals to one label");
	error_is("x { h = h // n = h }",
	    "t.pm:1:14: 'n =' computes the flags alone, which come from CU0",
	    "flags-only target not on CU0");
	error_is("x { n, h = tos }",
	    "t.pm:1:5: n and z compute the flags alone", "n with registers");
	error_is("x { h, h = tos }", "t.pm:1:8: register 'h' listed twice",
	    "a register listed twice");
	error_is("x { z = h : next (z) x }",
	    "t.pm:1:5: a conditional next needs a following micro-instruction",
	    "a conditional with no fall-through");
	error_is("x { h = h : next y : next y }\ny { h = h }",
	    "t.pm:1:22: two 'next' in one micro-instruction", "two nexts");
	error_is("x { h = h : next (q) y; h = h }\ny { h = h }",
	    "t.pm:1:19: expected next (n) NAME or next (z) NAME",
	    "a bad condition");
	error_is("x { h = h : next (z) dispatch; h = h }",
	    "t.pm:1:22: a conditional next takes a label, not dispatch",
	    "a conditional dispatch");
	error_is("x { h = h : next 5 }",
	    "t.pm:1:18: expected a label, dispatch or wide after next",
	    "next without a label");
	error_is("x { h = h : next y z }\ny { h = h }",
	    "t.pm:1:20: unexpected 'z' after the target of next",
	    "junk after next");
	error_is("x { h = 5 }",
	    "t.pm:1:9: constant 5 is not a PMIC operand", "a constant");
	error_is("x { h = h + 2 }",
	    "t.pm:1:13: constant 2 is not a PMIC operand", "A + 2");
	error_is("x { h = h << 2 }",
	    "t.pm:1:14: the shifts are A<<8, A>>8 and A>>1, not <<'2'",
	    "a bad shift");
	error_is("x { h = h * h }",
	    "t.pm:1:11: unexpected character '*'", "an unknown operator ('*')");
	error_is("x { h = h xor h }",
	    "t.pm:1:11: unexpected 'xor' after the ALU operation",
	    "an unknown operator (xor)");
	error_is("x { h = h , h }",
	    "t.pm:1:11: expected an operator (+ - and or << >>) or the end of "
	    "the operation, found ','", "a punctuation after an operand");
	error_is("x { h = h+h+h }",
	    "t.pm:1:13: A+B+ takes only one (A+B+one)", "A+B+C");
	error_is("x { h = tos h }",
	    "t.pm:1:13: unexpected 'h' after the ALU operation",
	    "two ALU operations without //");
	error_is("x { h = }", "t.pm:1:9: expected a value after '='",
	    "missing rvalue");
	error_is("x { h h }", "t.pm:1:7: expected ',' or '=' after a register",
	    "missing '='");
	error_is("x { h = h ;; h = h }",
	    "t.pm:1:12: expected an ALU operation, fetch, read, write or next, "
	    "found ';'", "an empty micro-instruction");
	error_is("x { }", "t.pm:1:5: block 'x' has no micro-instructions",
	    "an empty block");
	error_is("x { h = h", "t.pm:1:1: block 'x' is not closed",
	    "an unclosed block");
	error_is("x h = h }", "t.pm:1:3: expected NAME { ... }, found 'h'",
	    "a block without '{'");
	error_is("dispatch { h = h }", "t.pm:1:1: 'dispatch' is reserved",
	    "'dispatch' as a block name");
	error_is("x { h = h $ }", "t.pm:1:11: unexpected character '$'",
	    "a bad character");
	error_is("x { h = h < 8 }", "t.pm:1:11: unexpected character '<' "
	    "(the shifts are << and >>)", "a lone '<'");
	error_is("x { h = h / h }", "t.pm:1:11: unexpected character '/' "
	    "(// separates compute units; comments start with #)",
	    "a lone '/'");
	error_is("x { h = 1x }", "t.pm:1:9: bad number '1x'", "a bad number");
	error_is("# nothing\n", "t.pm:1:1: no micro-instructions",
	    "an empty file");
	{
		static const char nul[] = "x { h = h }\0";
		struct pmic_store cs;
		struct mal_errors errs;
		int rc = pmc_compile("t.pm", nul, sizeof nul - 1, &cs, NULL,
		    &errs);

		ok(rc != 0 && errs.count >= 1 && strstr(errs.msg[0],
		    "t.pm:1:12: NUL byte") != NULL, "a NUL byte");
		mal_errors_free(&errs);
	}
	/* every error of a file in one run, in source positions */
	{
		struct pmic_store cs;
		struct mal_errors errs;
		const char *src = "x { h = foo }\ny { mbr0 = h }\nz { h = h : "
		    "next w }";

		ok(pmc_compile("t.pm", src, strlen(src), &cs, NULL, &errs) != 0 &&
		    errs.count == 3, "three errors of three lines in one run");
		mal_errors_free(&errs);
	}
	/* control store full: 513 words */
	{
		struct buf b = { 0 };

		for (int i = 0; i < 513; i++)
			buf_printf(&b, "l%d { h = h }\n", i);
		buf_put_u8(&b, 0);
		error_is((char *)b.data, "t.pm:513:8: control store full",
		    "control store full");
		buf_free(&b);
	}
	{
		struct buf b = { 0 };

		for (int i = 0; i < 257; i++)
			buf_printf(&b, "c%d { z = h : next (z) t%d; h = h }\n"
			    "t%d { h = h }\n", i, i, i);
		buf_put_u8(&b, 0);
		error_is((char *)b.data, "t.pm:513:8: control store full: no "
		    "free pair", "control store full (conditional pairs)");
		buf_free(&b);
	}
}

static void
test_file_format(void)
{
	struct pmic_store cs, cs2;
	struct buf b = { 0 };
	char *cause = NULL;

	if (compile("iadd { mar,sp = sp-one : read; mdr,tos = mdr+tos // "
	    "pc = pc+one : write // fetch }", &cs, NULL, 1) != 0) {
		ok(0, "compiles");
		return;
	}
	pmic_store_write(&cs, &b);
	is_int(b.len, PMIC_FILE_SIZE, ".pmic is 8196 bytes");
	is_int(get_be32(b.data), 0x504D4943, "magic PMIC");
	is_int(get_be32(b.data + 4 + 16 * OP_IADD), cs.mi[OP_IADD].cu[0],
	    "entry 0x60 word 0 is CU0, big-endian");
	is_int(get_be32(b.data + 4 + 16 * OP_IADD + 12), cs.mi[OP_IADD].next,
	    "word 3 is the next-address word");
	ok(pmic_store_parse(&cs2, "x.pmic", b.data, b.len, &cause) == 0 &&
	    memcmp(&cs, &cs2, sizeof cs) == 0, "write then parse round-trips");
	ok(pmic_store_parse(&cs2, "x.pmic", b.data, b.len - 1, &cause) != 0 &&
	    strstr(cause, "truncated") != NULL, "truncated file refused");
	free(cause);
	cause = NULL;
	b.data[0] ^= 0xFF;
	ok(pmic_store_parse(&cs2, "x.pmic", b.data, b.len, &cause) != 0 &&
	    strstr(cause, "magic") != NULL, "bad magic refused");
	free(cause);
	cause = NULL;
	b.data[0] = 0x43; b.data[1] = 0x49; b.data[2] = 0x4D; b.data[3] = 0x50;
	ok(pmic_store_parse(&cs2, "x.pmic", b.data, b.len, &cause) != 0 &&
	    strstr(cause, "byte-swapped") != NULL, "byte-swapped magic named");
	free(cause);
	cause = NULL;
	b.data[0] = 0x50; b.data[1] = 0x4D; b.data[2] = 0x49; b.data[3] = 0x43;
	b.data[4 + 16 * 5] = 0x80;	/* reserved bits of an absent word */
	ok(pmic_store_parse(&cs2, "x.pmic", b.data, b.len, &cause) != 0 &&
	    strstr(cause, "0x005") != NULL, "malformed word refused, named");
	free(cause);
	cause = NULL;
	ok(pmic_store_parse(&cs2, "x.pmic", b.data, 2, &cause) != 0,
	    "a 2-byte file refused");
	free(cause);
	buf_free(&b);
}

static void
test_disasm(void)
{
	struct pmic_store cs;
	char out[256];

	if (compile("pop { z = tos : next (z) t; mar,sp = sp-one // h = -one "
	    ": read // fetch }\nt { h = h }", &cs, NULL, 1) != 0) {
		ok(0, "compiles");
		return;
	}
	pmic_disasm(at(&cs, OP_POP), out, sizeof out);
	ok(strncmp(out, "z = tos : next (z) 0x1", 22) == 0,
	    "disasm of a conditional: %s", out);
	pmic_disasm(at(&cs, (int)pmic_next_addr(at(&cs, OP_POP)->next)), out,
	    sizeof out);
	is_str(out, "mar,sp = sp-one // h = -one : fetch // read : next "
	    "dispatch", "disasm of a dispatching word");
	pmic_disasm(at(&cs, 0), out, sizeof out);
	is_str(out, "(no micro-instruction)", "disasm of an empty word");
}

int
main(void)
{
	test_alu_ops();
	test_thesis_example();
	test_constructs();
	test_errors();
	test_file_format();
	test_disasm();
	return done_testing();
}
