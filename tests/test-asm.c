/*
 * Unit tests of the IJVM assembler and instruction sets: a golden program
 * whose bytes were worked out by hand from the layout rules (doc/ijvm.md
 * section 4), every directive, operand kind and number syntax, automatic
 * and explicit WIDE, symbols and the line table, configuration files and
 * the instruction tables; every error message is test-asm-errors.c's.
 */
#include "asm-test-util.h"

/* --- the golden program (asm-test-util.h) -------------------------------- */

static void
test_golden(void)
{
	/*
	 * cp: one, big, then add and neg.  main at 0, 22 bytes; add's
	 * header at 22 (nargs 2 = OBJREF + a, nlocals 1 = t), its code 26..34;
	 * neg's header at 35 (nargs 2, nlocals 0).  IFEQ at 10 to end at
	 * 21: +11; GOTO at 18 to start at 0: -18 = 0xFFEE.
	 */
	static const uint8_t text[] = {
		0x13, 0x00, 0x00,	/*  0 LDC_W one */
		0x36, 0x00,		/*  3 ISTORE x */
		0x10, 0x07,		/*  5 BIPUSH 7 */
		0xB6, 0x00, 0x02,	/*  7 INVOKEVIRTUAL add */
		0x99, 0x00, 0x0B,	/* 10 IFEQ end */
		0x10, 0xFF,		/* 13 BIPUSH -1 */
		0xB6, 0x00, 0x03,	/* 15 INVOKEVIRTUAL neg */
		0xA7, 0xFF, 0xEE,	/* 18 GOTO start */
		0xFF,			/* 21 HALT */
		0x00, 0x02, 0x00, 0x01,	/* 22 add header */
		0x15, 0x01,		/* 26 ILOAD a */
		0x10, 0x01,		/* 28 BIPUSH 1 */
		0x60,			/* 30 IADD */
		0x59,			/* 31 DUP */
		0x36, 0x02,		/* 32 ISTORE t */
		0xAC,			/* 34 IRETURN */
		0x00, 0x02, 0x00, 0x00,	/* 35 neg header */
		0x10, 0x00,		/* 39 BIPUSH 0 */
		0x15, 0x01,		/* 41 ILOAD v */
		0x64,			/* 43 ISUB */
		0xAC,			/* 44 IRETURN */
	};
	static const uint32_t lines[][2] = {
		{ 0, 11 }, { 3, 12 }, { 5, 13 }, { 7, 14 }, { 10, 15 },
		{ 13, 16 }, { 15, 17 }, { 18, 18 }, { 21, 19 }, { 26, 25 },
		{ 28, 26 }, { 30, 27 }, { 31, 28 }, { 32, 29 }, { 34, 30 },
		{ 39, 33 }, { 41, 34 }, { 43, 35 }, { 44, 36 },
	};
	struct program p;
	struct asm_errors e;
	size_t i;
	int same;

	if (!ok(assemble(golden_src, &p, &e) == 0, "golden: assembles")) {
		asm_errors_free(&e);
		return;
	}
	is_bytes(p.text, p.text_size, text, sizeof text, "golden: text");
	is_int(p.cp_size, 4, "golden: cp size");
	is_int(p.cp[0], 1, "golden: cp[0] = one");
	is_int(p.cp[1], 0x7FFFFFFF, "golden: cp[1] = big");
	is_int(p.cp[2], 22, "golden: cp[2] = add's header");
	is_int(p.cp[3], 35, "golden: cp[3] = neg's header");
	is_int(p.nmethods, 3, "golden: method symbols");
	is_str(p.methods[0].name, "main", "golden: main symbol");
	is_int(p.methods[0].addr, 0, "golden: main at 0");
	is_str(p.methods[1].name, "add", "golden: add symbol");
	is_int(p.methods[1].addr, 22, "golden: add at 22");
	is_str(p.methods[2].name, "neg", "golden: neg symbol");
	is_int(p.methods[2].addr, 35, "golden: neg at 35");
	is_int(p.nlabels, 2, "golden: label symbols");
	is_str(p.labels[0].name, "main#start", "golden: start label");
	is_int(p.labels[0].addr, 0, "golden: start alone on its line");
	is_str(p.labels[1].name, "main#end", "golden: end label");
	is_int(p.labels[1].addr, 21, "golden: end at HALT");
	is_int(p.nlines, sizeof lines / sizeof lines[0], "golden: lines");
	same = p.nlines == sizeof lines / sizeof lines[0];
	for (i = 0; same && i < p.nlines; i++) {
		same = p.lines[i].addr == lines[i][0] &&
		    p.lines[i].line == lines[i][1];
	}
	ok(same, "golden: line table");
	is_str(p.path, F, "golden: path");
	ok(p.source != NULL && strcmp(p.source, golden_src) == 0,
	    "golden: source copy");
	is_int(p.main_nlocals, 1, "golden: main_nlocals");
	prog_free(&p);
}

/* --- directives, sections, layout ---------------------------------------- */

static void
test_sections(void)
{
	struct program p;
	struct asm_errors e;

	TEXT_IS(".main\n.end-main\n", "empty main");
	TEXT_IS(".main\nHALT\n.end-main\n.method f()\nIRETURN\n.end-method\n",
	    "empty parameter list: nargs 1",
	    0xFF, 0x00, 0x01, 0x00, 0x00, 0xAC);
	TEXT_IS(".main\nHALT\n.end-main\n.method f // none\n.var\nx\n"
	    ".end-var\nILOAD x\nIRETURN\n.end-method\n",
	    "no parameter list (the course's dialect): as f()",
	    0xFF, 0x00, 0x01, 0x00, 0x01, 0x15, 0x01, 0xAC);
	TEXT_IS(".main\n.end-main\n.method f( a , b,c )\n.var\nx y\nz\n"
	    ".end-var\nILOAD c\nILOAD z\nIRETURN\n.end-method\n",
	    "params 1..n, vars follow, several per line",
	    0x00, 0x04, 0x00, 0x03, 0x15, 0x03, 0x15, 0x06, 0xAC);
	TEXT_IS(".main\n.var\na b\n.end-var\nILOAD b\nISTORE a\n.end-main\n",
	    "main locals start at 0", 0x15, 0x01, 0x36, 0x00);
	TEXT_IS("\n  // only comments\n.global // globals first\ng\n"
	    ".end-global\n.constant\nc 3\n.end-constant\n\n.main\n"
	    "LDC_W c // load\nPUTSTATIC g\n.end-main // done\n",
	    ".global before .constant, comments everywhere",
	    0x13, 0x00, 0x00, 0xB3, 0x00, 0x00);
	TEXT_IS(".main\r\nBIPUSH 1\r\nOUT\r\n.end-main\r\n", "CRLF lines",
	    0x10, 0x01, 0xFD);
	TEXT_IS(".main\n\tnop\n\tIaDd\n.end-main", "case-insensitive "
	    "mnemonics, no final newline", 0x00, 0x60);
	TEXT_IS(".main\nl:\n\n// gap\nNOP\nGOTO l\n.end-main\n",
	    "label alone, blank lines before its instruction",
	    0x00, 0xA7, 0xFF, 0xFF);
	TEXT_IS(".main\na: b: GOTO a\nGOTO b\n.end-main\n",
	    "two labels on one line", 0xA7, 0x00, 0x00, 0xA7, 0xFF, 0xFD);

	/* A label at the very end names the end of its method. */
	if (ok(assemble(".main\nNOP\nlast:\n.end-main\n.method f()\n"
	    "x: .end-method\n", &p, &e) == 0, "labels at method ends")) {
		is_int(p.nlabels, 2, "labels at method ends: count");
		is_str(p.labels[0].name, "main#last", "main#last");
		is_int(p.labels[0].addr, 1, "main#last at the end of main");
		is_str(p.labels[1].name, "f#x", "f#x");
		is_int(p.labels[1].addr, 5, "f#x after f's header");
		prog_free(&p);
	} else
		asm_errors_free(&e);

	/* Found by tests/fuzz/fuzz-jas: labels at one address come in the
	 * loader's order (address, then name), so that a program and its
	 * .ijvm list them alike. */
	if (ok(assemble(".main\np: O: HALT\n.end-main\n", &p, &e) == 0,
	    "two labels at one address")) {
		is_str(p.labels[0].name, "main#O", "... sorted by name: main#O");
		is_str(p.labels[1].name, "main#p", "... then main#p");
		prog_free(&p);
	} else
		asm_errors_free(&e);

	/* Labels are per method: the same name twice is fine. */
	if (ok(assemble(".main\nl: GOTO l\n.end-main\n.method f()\n"
	    "l: GOTO l\n.end-method\n.method g()\nNOP\nl: GOTO l\n"
	    ".end-method\n", &p, &e) == 0, "label scope is the method")) {
		static const uint8_t want[] = { 0xA7, 0x00, 0x00,
		    0x00, 0x01, 0x00, 0x00, 0xA7, 0x00, 0x00,
		    0x00, 0x01, 0x00, 0x00, 0x00, 0xA7, 0x00, 0x00 };

		is_bytes(p.text, p.text_size, want, sizeof want,
		    "label scope: text");
		is_int(p.nlabels, 3, "label scope: 3 labels");
		is_str(p.labels[2].name, "g#l", "label scope: g#l");
		is_int(p.labels[2].addr, 15, "label scope: g#l address");
		is_int(p.nmethods, 3, "label scope: methods");
		is_int(p.cp_size, 2, "label scope: one cp slot per method");
		is_int(p.cp[0], 3, "label scope: f at 3");
		is_int(p.cp[1], 10, "label scope: g at 10");
		prog_free(&p);
	} else
		asm_errors_free(&e);

	/* main_nlocals counts main's .var variables, at least 1. */
	if (ok(assemble(".main\n.var\na b c\n.end-var\n.end-main\n", &p,
	    &e) == 0, "main_nlocals")) {
		is_int(p.main_nlocals, 3, "main_nlocals = 3");
		is_int(p.text_size, 0, "no code");
		is_int(p.cp_size, 0, "no constants");
		prog_free(&p);
	} else
		asm_errors_free(&e);
}

/* --- operands and numbers ------------------------------------------------- */

static void
test_constants(void)
{
	static const int32_t want[] = { 10, 255, 8, 5, 15, -7, INT32_MIN,
	    -1, 65, 10, 39, 0, -1, 0 };
	struct program p;
	struct asm_errors e;
	size_t i;
	int same;

	if (!ok(assemble(".constant\n"
	    "dec 10\nhex 0xFf\noct 010\nbin 0b101\noct2 0o17\nneg -7\n"
	    "min -2147483648\nmax 4294967295\nch 'A'\nnl '\\n'\n"
	    "q '\\''\nzero 0\nhigh '\\xff'\nz2 -0\n"
	    ".end-constant\n.main\nLDC_W high\nLDC_W 65535\n.end-main\n",
	    &p, &e) == 0, "constants: number syntaxes")) {
		asm_errors_free(&e);
		return;
	}
	same = p.cp_size == sizeof want / sizeof want[0];
	for (i = 0; same && i < p.cp_size; i++)
		same = p.cp[i] == want[i];
	ok(same, "constants: values in declaration order");
	{
		static const uint8_t text[] = { 0x13, 0x00, 0x0C,
		    0x13, 0xFF, 0xFF };

		is_bytes(p.text, p.text_size, text, sizeof text,
		    "LDC_W by name and by number");
	}
	prog_free(&p);
}

static void
test_operands(void)
{
	TEXT_IS(".main\nBIPUSH 0\nBIPUSH 127\nBIPUSH 128\nBIPUSH 255\n"
	    "BIPUSH -1\nBIPUSH -128\nBIPUSH 0x41\nBIPUSH 'A'\nBIPUSH '\\t'\n"
	    "BIPUSH 0b11\nBIPUSH 017\n.end-main\n", "BIPUSH values",
	    0x10, 0x00, 0x10, 0x7F, 0x10, 0x80, 0x10, 0xFF, 0x10, 0xFF,
	    0x10, 0x80, 0x10, 0x41, 0x10, 0x41, 0x10, 0x09, 0x10, 0x03,
	    0x10, 0x0F);
	TEXT_IS(".main\n.var\ni\n.end-var\nIINC i 1\nIINC i -1\nIINC 0 255\n"
	    "IINC i 'a'\nIINC i, 2\n.end-main\n", "IINC operands",
	    0x84, 0x00, 0x01, 0x84, 0x00, 0xFF, 0x84, 0x00, 0xFF,
	    0x84, 0x00, 0x61, 0x84, 0x00, 0x02);
	TEXT_IS(".main\nILOAD 3\nISTORE 255\n.end-main\n", "numeric locals",
	    0x15, 0x03, 0x36, 0xFF);
	TEXT_IS(".main\nGOTO 0\nIFEQ -3\nIFLT 32767\nIF_ICMPEQ -32768\n"
	    ".end-main\n", "numeric branch offsets",
	    0xA7, 0x00, 0x00, 0x99, 0xFF, 0xFD, 0x9B, 0x7F, 0xFF,
	    0x9F, 0x80, 0x00);
	TEXT_IS(".main\nINVOKEVIRTUAL 7\nLDC_W 0x1234\n.end-main\n",
	    "numeric cp indices", 0xB6, 0x00, 0x07, 0x13, 0x12, 0x34);
	TEXT_IS(".main\nLDC_W f\nINVOKEVIRTUAL f\n.end-main\n"
	    ".method f()\nIRETURN\n.end-method\n",
	    "LDC_W and INVOKEVIRTUAL of a method",
	    0x13, 0x00, 0x00, 0xB6, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	    0xAC);
	TEXT_IS(".main\nGOTO fwd\nNOP\nfwd: GOTO fwd\nback: NOP\nGOTO back\n"
	    ".end-main\n", "branches forward, to self, backward",
	    0xA7, 0x00, 0x04, 0x00, 0xA7, 0x00, 0x00, 0x00, 0xA7, 0xFF,
	    0xFF);
	TEXT_IS(".main\nNOP\nIADD\nISUB\nIAND\nIOR\nDUP\nPOP\nSWAP\nIRETURN\n"
	    "IN\nOUT\nERR\nHALT\nNEWARRAY\nIALOAD\nIASTORE\nGC\nCOREID\n"
	    "NCORES\nBARRIER\n.end-main\n", "every instruction without "
	    "operands", 0x00, 0x60, 0x64, 0x7E, 0xB0, 0x59, 0x57, 0x5F,
	    0xAC, 0xFC, 0xFD, 0xFE, 0xFF, 0xD1, 0xD2, 0xD3, 0xD4, 0xF0,
	    0xF1, 0xF2);
}

static void
test_globals(void)
{
	TEXT_IS(".global\na b\nc\n.end-global\n.main\nGETSTATIC a\n"
	    "PUTSTATIC c\nATOMICADD b\nGETSTATIC 65535\nATOMICADD 0x100\n"
	    ".end-main\n", "globals by name and number",
	    0xB2, 0x00, 0x00, 0xB3, 0x00, 0x02, 0xF3, 0x00, 0x01,
	    0xB2, 0xFF, 0xFF, 0xF3, 0x01, 0x00);
}

static void
test_print(void)
{
	struct program p;
	struct asm_errors e;
	size_t i;
	int same;

	TEXT_IS(".main\n#print \"a\\n\\t\\\\\\\"\\'\\0\\x41\\x7\"\n.end-main\n",
	    "#print with escapes",
	    0x10, 'a', 0xFD, 0x10, '\n', 0xFD, 0x10, '\t', 0xFD,
	    0x10, '\\', 0xFD, 0x10, '"', 0xFD, 0x10, '\'', 0xFD,
	    0x10, 0x00, 0xFD, 0x10, 0x41, 0xFD, 0x10, 0x07, 0xFD);
	TEXT_IS(".main\n#print \"a // b\" // comment\n.end-main\n",
	    "#print keeps // inside its string",
	    0x10, 'a', 0xFD, 0x10, ' ', 0xFD, 0x10, '/', 0xFD,
	    0x10, '/', 0xFD, 0x10, ' ', 0xFD, 0x10, 'b', 0xFD);
	TEXT_IS(".main\n#print \"\"\nl: #print \"\\xff\"\nGOTO l\n.end-main\n",
	    "empty #print, label on #print, high byte",
	    0x10, 0xFF, 0xFD, 0xA7, 0xFF, 0xFD);
	if (!ok(assemble(".main\nNOP\n#print \"hi\"\nHALT\n.end-main\n", &p,
	    &e) == 0, "#print line table")) {
		asm_errors_free(&e);
		return;
	}
	same = p.nlines == 6;
	for (i = 0; same && i < 6; i++) {
		static const uint32_t addr[] = { 0, 1, 3, 4, 6, 7 };
		static const uint32_t line[] = { 2, 3, 3, 3, 3, 4 };

		same = p.lines[i].addr == addr[i] && p.lines[i].line == line[i];
	}
	ok(same, "#print: every generated instruction maps to its line");
	prog_free(&p);
}

/* --- WIDE ---------------------------------------------------------------- */

/* main with n variables v0..v(n-1) and the given code. */
static char *
many_vars(int n, const char *code)
{
	struct buf b = { 0 };
	int i;

	buf_printf(&b, ".main\n.var\n");
	for (i = 0; i < n; i++)
		buf_printf(&b, "v%d%s", i, i % 16 == 15 ? "\n" : " ");
	buf_printf(&b, "\n.end-var\n%s.end-main\n", code);
	buf_put_u8(&b, 0);
	return (char *)b.data;
}

static void
test_wide(void)
{
	struct program p;
	struct asm_errors e;
	char *src;

	src = many_vars(300, "ILOAD v255\nILOAD v256\nISTORE v299\n"
	    "l: IINC v299 -2\nIINC v1 5\nGOTO l\nILOAD 256\nILOAD 65535\n");
	if (ok(assemble(src, &p, &e) == 0, "auto WIDE: assembles")) {
		static const uint8_t want[] = {
			0x15, 0xFF,			/*  0 ILOAD v255 */
			0xC4, 0x15, 0x01, 0x00,		/*  2 ILOAD v256 */
			0xC4, 0x36, 0x01, 0x2B,		/*  6 ISTORE v299 */
			0xC4, 0x84, 0x01, 0x2B, 0xFE,	/* 10 IINC v299 -2 */
			0x84, 0x01, 0x05,		/* 15 IINC v1 5 */
			0xA7, 0xFF, 0xF8,		/* 18 GOTO l (10) */
			0xC4, 0x15, 0x01, 0x00,		/* 21 ILOAD 256 */
			0xC4, 0x15, 0xFF, 0xFF,		/* 25 ILOAD 65535 */
		};
		int line;

		is_bytes(p.text, p.text_size, want, sizeof want,
		    "auto WIDE: exact bytes");
		is_int(p.nlabels, 1, "auto WIDE: label");
		is_int(p.labels[0].addr, 10, "auto WIDE: label at the WIDE");
		line = (int)p.lines[3].line;
		is_int(p.lines[3].addr, 6, "auto WIDE: line entry at WIDE");
		is_int(p.lines[4].addr, 7, "auto WIDE: line entry at ISTORE");
		is_int(p.lines[4].line, line, "auto WIDE: same line");
		is_int(p.main_nlocals, 300, "auto WIDE: main_nlocals");
		prog_free(&p);
	} else
		asm_errors_free(&e);
	free(src);

	TEXT_IS(".main\nWIDE\nILOAD 5\nWIDE\nISTORE 0x102\nWIDE\nIINC 3 -1\n"
	    ".end-main\n", "explicit WIDE: 16-bit index, no second WIDE",
	    0xC4, 0x15, 0x00, 0x05, 0xC4, 0x36, 0x01, 0x02,
	    0xC4, 0x84, 0x00, 0x03, 0xFF);
	TEXT_IS(".main\nwide\nl:\n// label between\nILOAD 1\nILOAD 1\n"
	    ".end-main\n", "explicit WIDE applies to the next instruction only",
	    0xC4, 0x15, 0x00, 0x01, 0x15, 0x01);
	TEXT_IS(".main\nWIDE\nNOP\nILOAD 1\n.end-main\n",
	    "WIDE before another instruction is used up by it",
	    0xC4, 0x00, 0x15, 0x01);

	/* Method locals: OBJREF 0, params, then vars past 255. */
	src = xstrdup(".main\n.end-main\n.method f(p)\n.var\n"
	    "a b c\n.end-var\nILOAD c\nILOAD 300\nIRETURN\n.end-method\n");
	TEXT_IS(src, "method locals and WIDE", 0x00, 0x02, 0x00, 0x03,
	    0x15, 0x04, 0xC4, 0x15, 0x01, 0x2C, 0xAC);
	free(src);
}

/* --- configuration files ------------------------------------------------- */

static int
load(struct ijvm_opset *set, const char *text, char **cause)
{
	*cause = NULL;
	return ijvm_opset_load_config(set, "ops.conf", text, strlen(text),
	    cause);
}

static void
config_error(const char *text, const char *want, const char *name)
{
	struct ijvm_opset set;
	char *cause;
	int r;

	ijvm_opset_init(&set);
	r = load(&set, text, &cause);
	ok(r == -1, "%s: fails", name);
	is_str(cause, want, "%s: message", name);
	ok(ijvm_opset_find(&set, "IMUL") == NULL &&
	    ijvm_opset_get(&set, 0x60) == &set.op[0x60] &&
	    set.op[0x60].builtin, "%s: set untouched", name);
	free(cause);
	ijvm_opset_free(&set);
}

static void
test_config(void)
{
	const struct ijvm_opinfo *op;
	struct ijvm_opset set;
	struct program p;
	struct asm_errors e;
	char *cause;

	ijvm_opset_init(&set);
	ok(load(&set, "// student additions\n\n0x68 IMUL   // multiply\r\n"
	    "0x80 foo varnum byte label\n0x81 BAR var const offset\n"
	    "130 BAZ index constant global\n0x83 Qux method\n", &cause) == 0,
	    "config: loads");
	op = ijvm_opset_find(&set, "imul");
	ok(op != NULL && op->opcode == 0x68 && op->noperands == 0 &&
	    !op->builtin && op->cls == OPC_CUSTOM && op->pops == 0 &&
	    op->pushes == 0 && strcmp(op->desc, "user instruction") == 0,
	    "config: IMUL is a user instruction at 0x68");
	op = ijvm_opset_get(&set, 0x80);
	ok(op != NULL && strcmp(op->name, "FOO") == 0 && op->noperands == 3 &&
	    op->kind[0] == OPK_VARNUM && op->kind[1] == OPK_BYTE &&
	    op->kind[2] == OPK_LABEL, "config: FOO kinds, name upper-cased");
	op = ijvm_opset_get(&set, 0x81);
	ok(op != NULL && op->kind[0] == OPK_VARNUM &&
	    op->kind[1] == OPK_CONST && op->kind[2] == OPK_METHOD,
	    "config: var, const, offset");
	op = ijvm_opset_get(&set, 130);
	ok(op != NULL && strcmp(op->name, "BAZ") == 0 &&
	    op->kind[0] == OPK_INDEX && op->kind[1] == OPK_INDEX &&
	    op->kind[2] == OPK_GLOBAL, "config: decimal opcode, index kinds");
	op = ijvm_opset_get(&set, 0x83);
	ok(op != NULL && op->kind[0] == OPK_METHOD, "config: method alias");
	ok(ijvm_opset_find(&set, "IADD") != NULL, "config: built-ins stay");

	if (ok(assemble_set(".constant\nk 9\n.end-constant\n.global\ng\n"
	    ".end-global\n.main\n.var\nx\n.end-var\nIMUL\n"
	    "l: foo x -1 l\nbar 300 'A' m\nBAZ k m g\nqux 2\n.end-main\n"
	    ".method m()\nIRETURN\n.end-method\n", &set, &p, &e) == 0,
	    "config: user instructions assemble")) {
		static const uint8_t want[] = {
			0x68,					/* IMUL */
			0x80, 0x00, 0xFF, 0x00, 0x00,		/* 1 foo */
			0xC4, 0x81, 0x01, 0x2C, 0x41, 0x00, 0x01, /* bar */
			0x82, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, /* BAZ */
			0x83, 0x00, 0x02,			/* qux 2 */
			0x00, 0x01, 0x00, 0x00, 0xAC,
		};

		is_bytes(p.text, p.text_size, want, sizeof want,
		    "config: generic kinds encode");
		prog_free(&p);
	} else
		asm_errors_free(&e);
	ijvm_opset_free(&set);

	/* Overriding a built-in opcode. */
	ijvm_opset_init(&set);
	ok(load(&set, "0x60 ADD\n0x84 IINC var byte\n0x10 PUSH const\n",
	    &cause) == 0, "config: overrides load");
	op = ijvm_opset_get(&set, 0x60);
	ok(op != NULL && strcmp(op->name, "ADD") == 0 && !op->builtin &&
	    op->cls == OPC_ALU && op->pops == 2 && op->pushes == 1,
	    "config: same kinds keep the built-in semantics");
	ok(ijvm_opset_find(&set, "IADD") == NULL,
	    "config: the old mnemonic is gone");
	op = ijvm_opset_get(&set, 0x84);
	ok(op != NULL && op->cls == OPC_LOCAL && op->kind[1] == OPK_BYTE,
	    "config: byte for const still counts as the same kinds");
	errors_set("config: IADD gone", &set, ".main\nIADD\n.end-main\n",
	    F ":2:1: unknown instruction 'IADD' (did you mean 'ADD'?)",
	    (const char *)NULL);
	if (ok(assemble_set(".main\nADD\nPUSH 3\n.end-main\n", &set, &p,
	    &e) == 0, "config: overridden names assemble")) {
		static const uint8_t want[] = { 0x60, 0x10, 0x03 };

		is_bytes(p.text, p.text_size, want, sizeof want,
		    "config: override bytes");
		prog_free(&p);
	} else
		asm_errors_free(&e);
	ijvm_opset_free(&set);

	/* A mnemonic defined twice: the later line wins. */
	ijvm_opset_init(&set);
	ok(load(&set, "0x68 IMUL\n0x69 imul\n0x70 NOP\n0x00 IADD2 byte\n",
	    &cause) == 0, "config: redefinitions load");
	ok(ijvm_opset_get(&set, 0x68) == NULL, "config: first IMUL removed");
	op = ijvm_opset_find(&set, "IMUL");
	ok(op != NULL && op->opcode == 0x69, "config: IMUL at 0x69");
	op = ijvm_opset_find(&set, "NOP");
	ok(op != NULL && op->opcode == 0x70 && op->cls == OPC_CUSTOM,
	    "config: built-in NOP moved to 0x70");
	op = ijvm_opset_get(&set, 0x00);
	ok(op != NULL && strcmp(op->name, "IADD2") == 0 &&
	    op->cls == OPC_CUSTOM, "config: different kinds make it custom");
	ijvm_opset_free(&set);

	config_error("0x68 IMUL\n0x69 IDIV foo\n",
	    "ops.conf:2:11: unknown operand kind 'foo' (expected byte, "
	    "varnum, label, offset, index, const, global)",
	    "config: unknown kind");
	config_error("  0x100 IMUL\n", "ops.conf:1:3: bad opcode '0x100' "
	    "(expected 0x00..0xFF)", "config: opcode too big");
	config_error("IMUL 0x68\n", "ops.conf:1:1: bad opcode 'IMUL' "
	    "(expected 0x00..0xFF)", "config: opcode missing");
	config_error("0x\n", "ops.conf:1:1: bad opcode '0x' (expected "
	    "0x00..0xFF)", "config: empty hex opcode");
	config_error("0x68 IMUL\n0x69 // nothing\n", "ops.conf:2:1: missing "
	    "mnemonic after opcode '0x69'", "config: missing mnemonic");
	config_error("0x68 I-MUL\n", "ops.conf:1:6: bad mnemonic 'I-MUL' "
	    "(use letters, digits and _)", "config: bad mnemonic");
	config_error("0x68 IMUL byte byte byte byte\n", "ops.conf:1:26: more "
	    "than 3 operands (an instruction takes at most 3)",
	    "config: four operands");
	config_error("0x68 IMUL\n0x69 X \x01\n0xZZ Y\n",
	    "ops.conf:2:8: unknown operand kind '\\x01' (expected byte, "
	    "varnum, label, offset, index, const, global)",
	    "config: first of several errors, escaped");
}

/* --- instruction tables -------------------------------------------------- */

static void
test_tables(void)
{
	const struct ijvm_opinfo *op;
	struct ijvm_opset set;

	op = ijvm_builtin(OP_IINC);
	ok(op != NULL && strcmp(op->name, "IINC") == 0 &&
	    op->noperands == 2 && op->kind[0] == OPK_VARNUM &&
	    op->kind[1] == OPK_CONST && op->builtin && op->cls == OPC_LOCAL,
	    "builtin IINC");
	ok(ijvm_builtin(0x01) == NULL, "no instruction at 0x01");
	op = ijvm_builtin(OP_HALT);
	ok(op != NULL && op->noperands == 0 && op->cls == OPC_STOP,
	    "builtin HALT");
	is_int(ijvm_insn_size(ijvm_builtin(OP_IINC), 0), 3, "IINC size");
	is_int(ijvm_insn_size(ijvm_builtin(OP_IINC), 1), 4, "wide IINC size");
	is_int(ijvm_insn_size(ijvm_builtin(OP_GOTO), 0), 3, "GOTO size");
	is_int(ijvm_insn_size(ijvm_builtin(OP_ATOMICADD), 0), 3,
	    "ATOMICADD size");
	is_int(ijvm_insn_size(ijvm_builtin(OP_BIPUSH), 1), 2, "BIPUSH size");
	is_int(ijvm_opk_size(OPK_VARNUM, 0), 1, "varnum size");
	is_int(ijvm_opk_size(OPK_VARNUM, 1), 2, "wide varnum size");
	is_int(ijvm_opk_size(OPK_METHOD, 0), 2, "method size");
	is_int(ijvm_opk_size(OPK_NONE, 0), 0, "none size");
	is_int(ijvm_opk_parse("offset"), OPK_METHOD, "offset is a method");
	is_int(ijvm_opk_parse("METHOD"), OPK_METHOD, "kinds ignore case");
	is_int(ijvm_opk_parse("constant"), OPK_INDEX, "constant is an index");
	is_int(ijvm_opk_parse("var"), OPK_VARNUM, "var is a varnum");
	is_int(ijvm_opk_parse("global"), OPK_GLOBAL, "global");
	is_int(ijvm_opk_parse("const"), OPK_CONST, "const");
	is_int(ijvm_opk_parse("bogus"), -1, "unknown kind");
	is_str(ijvm_opk_name(OPK_METHOD), "offset", "name of method kind");
	is_str(ijvm_opk_name(OPK_INDEX), "index", "name of index kind");
	is_str(ijvm_opk_name(OPK_VARNUM), "varnum", "name of varnum kind");
	is_str(ijvm_opk_name(OPK_NONE), "none", "name of no kind");
	ijvm_opset_init(&set);
	ok(ijvm_opset_find(&set, "ldc_w") == ijvm_opset_get(&set, OP_LDC_W),
	    "find is case-insensitive");
	ok(ijvm_opset_find(&set, "LDC") == NULL, "find needs the whole name");
	ijvm_opset_free(&set);
	is_str(ijvm_fault_name(FAULT_ARRAY_BOUNDS), "ARRAY_BOUNDS",
	    "fault name");
	is_str(ijvm_fault_message(FAULT_RETURN_MAIN), "IRETURN from main",
	    "fault message");
	is_str(ijvm_fault_message(FAULT_COUNT), "unknown fault",
	    "fault out of range");
	is_str(ijvm_fault_name(-1), "UNKNOWN", "negative fault");
}

int
main(void)
{
	test_golden();
	test_sections();
	test_constants();
	test_operands();
	test_globals();
	test_print();
	test_wide();
	test_config();
	test_tables();
	return done_testing();
}
