/*
 * Unit tests of the IJVM assembler and instruction sets: a golden program
 * whose bytes were worked out by hand from the layout rules (doc/ijvm.md
 * section 4), every directive, operand kind and number syntax, automatic
 * and explicit WIDE, symbols and the line table, configuration files, and
 * every error message, compared as exact "file:line:column: message"
 * strings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ijvm.h"
#include "util.h"
#include "tap.h"

#define F "t.jas"

/* program.c belongs to another module; free what asm_assemble made. */
static void
prog_free(struct program *p)
{
	size_t i;

	for (i = 0; i < p->nmethods; i++)
		free(p->methods[i].name);
	for (i = 0; i < p->nlabels; i++)
		free(p->labels[i].name);
	free(p->methods);
	free(p->labels);
	free(p->path);
	free(p->text);
	free(p->cp);
	free(p->lines);
	free(p->source);
	memset(p, 0, sizeof *p);
}

static int
assemble_set(const char *src, const struct ijvm_opset *set,
    struct program *p, struct asm_errors *e)
{
	int r = asm_assemble(F, src, strlen(src), set, p, e);

	if (r != 0) {
		size_t i;

		for (i = 0; i < e->count; i++)
			tap_diag("%s", e->msg[i]);
	}
	return r;
}

static int
assemble(const char *src, struct program *p, struct asm_errors *e)
{
	return assemble_set(src, NULL, p, e);
}

static void
is_bytes(const uint8_t *got, size_t ngot, const uint8_t *want, size_t nwant,
    const char *name)
{
	size_t i;
	int same = ngot == nwant && (nwant == 0 ||
	    memcmp(got, want, nwant) == 0);

	if (!ok(same, "%s", name)) {
		printf("#   got ");
		for (i = 0; i < ngot; i++)
			printf(" %02X", got[i]);
		printf("\n#  want ");
		for (i = 0; i < nwant; i++)
			printf(" %02X", want[i]);
		printf("\n");
	}
}

/* Assemble src, expect success, compare the text with the given bytes. */
static void
text_is(const char *src, const uint8_t *want, size_t n, const char *name)
{
	struct program p;
	struct asm_errors e;

	if (!ok(assemble(src, &p, &e) == 0, "%s: assembles", name)) {
		asm_errors_free(&e);
		return;
	}
	is_bytes(p.text, p.text_size, want, n, name);
	prog_free(&p);
}
#define TEXT_IS(src, name, ...) do { \
	static const uint8_t w_[] = { __VA_ARGS__ }; \
	text_is((src), w_, sizeof w_, (name)); \
} while (0)

/* Assemble src with set, expect failure with exactly the given messages
 * (NULL-terminated), and no change to the program. */
static void
errors_set(const char *name, const struct ijvm_opset *set, const char *src,
    ...)
{
	struct program p, before;
	struct asm_errors e;
	const char *want;
	size_t n = 0;
	va_list ap;
	int r;

	memset(&p, 0xAB, sizeof p);
	before = p;
	r = asm_assemble(F, src, strlen(src), set, &p, &e);
	ok(r == -1, "%s: fails", name);
	ok(memcmp(&p, &before, sizeof p) == 0, "%s: program untouched", name);
	va_start(ap, src);
	while ((want = va_arg(ap, const char *)) != NULL) {
		is_str(n < e.count ? e.msg[n] : NULL, want, "%s: error %zu",
		    name, n + 1);
		n++;
	}
	va_end(ap);
	if (!ok(e.count == n, "%s: error count %zu", name, n)) {
		size_t i;

		for (i = 0; i < e.count; i++)
			tap_diag("%s", e.msg[i]);
	}
	asm_errors_free(&e);
}
#define ERRORS(name, src, ...) errors_set((name), NULL, (src), __VA_ARGS__, \
	(const char *)NULL)

/* The same, for one error inside main. */
#define MAIN_ERR(name, body, want) \
	ERRORS((name), ".main\n" body "\n.end-main\n", (want))

/* --- the golden program ------------------------------------------------- */

static const char golden_src[] =
    "// golden: constants, two methods, branches both ways\n"	/* 1 */
    ".constant\n"						/* 2 */
    "one 1\n"							/* 3 */
    "big 0x7FFFFFFF\n"						/* 4 */
    ".end-constant\n"						/* 5 */
    ".main\n"							/* 6 */
    ".var\n"							/* 7 */
    "x\n"							/* 8 */
    ".end-var\n"						/* 9 */
    "start:\n"							/* 10 */
    "    LDC_W one\n"						/* 11 */
    "    ISTORE x\n"						/* 12 */
    "    BIPUSH 7\n"						/* 13 */
    "    INVOKEVIRTUAL add\n"					/* 14 */
    "    IFEQ end\n"						/* 15 */
    "    BIPUSH -1\n"						/* 16 */
    "    INVOKEVIRTUAL neg\n"					/* 17 */
    "    GOTO start\n"						/* 18 */
    "end: HALT\n"						/* 19 */
    ".end-main\n"						/* 20 */
    ".method add(a)\n"						/* 21 */
    ".var\n"							/* 22 */
    "t\n"							/* 23 */
    ".end-var\n"						/* 24 */
    "    ILOAD a\n"						/* 25 */
    "    BIPUSH 1\n"						/* 26 */
    "    IADD\n"						/* 27 */
    "    DUP\n"							/* 28 */
    "    ISTORE t\n"						/* 29 */
    "    IRETURN\n"						/* 30 */
    ".end-method\n"						/* 31 */
    ".method neg(v)\n"						/* 32 */
    "    BIPUSH 0\n"						/* 33 */
    "    ILOAD v\n"						/* 34 */
    "    ISUB\n"						/* 35 */
    "    IRETURN\n"						/* 36 */
    ".end-method";						/* 37, no newline */

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

/* --- errors -------------------------------------------------------------- */

static void
test_lexer_errors(void)
{
	MAIN_ERR("stray character", "  BIPUSH @", F ":2:10: unexpected "
	    "character '@'");
	ERRORS("NUL byte", ".main\nNOP\x01\n.end-main\n",
	    F ":2:4: unexpected character '\\x01'");
	MAIN_ERR("unterminated string", "#print \"abc", F ":2:8: "
	    "unterminated string");
	MAIN_ERR("unterminated string ending in a backslash", "#print \"a\\",
	    F ":2:8: unterminated string");
	MAIN_ERR("unterminated char", "BIPUSH 'a", F ":2:8: unterminated "
	    "character literal");
	MAIN_ERR("invalid char literal", "BIPUSH 'ab'", F ":2:8: invalid "
	    "character literal ''ab'' (one character, e.g. 'A')");
	MAIN_ERR("empty char literal", "BIPUSH ''", F ":2:8: invalid "
	    "character literal '''' (one character, e.g. 'A')");
	MAIN_ERR("unknown escape", "#print \"a\\qb\"", F ":2:10: unknown "
	    "escape '\\q' (use \\n \\t \\r \\0 \\\\ \\\" \\' or \\xHH)");
	MAIN_ERR("unknown escape in a char", "BIPUSH '\\q'", F ":2:9: "
	    "unknown escape '\\q' (use \\n \\t \\r \\0 \\\\ \\\" \\' or "
	    "\\xHH)");
	MAIN_ERR("bad \\x escape", "#print \"\\xg\"", F ":2:9: invalid "
	    "escape '\\x' (expected \\x and one or two hex digits)");
	MAIN_ERR("invalid number", "BIPUSH 0x", F ":2:8: invalid number "
	    "'0x'");
	MAIN_ERR("invalid octal", "BIPUSH 09", F ":2:8: invalid number "
	    "'09'");
	MAIN_ERR("letters in a number", "BIPUSH 12ab", F ":2:8: invalid "
	    "number '12ab'");
}

static void
test_section_errors(void)
{
	ERRORS("empty file", "", F ":1:1: no .main section");
	ERRORS("only a constant section", ".constant\nA 1\n.end-constant\n",
	    F ":1:1: no .main section");
	ERRORS("code outside sections", "IADD\n.main\n.end-main\n",
	    F ":1:1: unexpected 'IADD' outside a section (expected "
	    ".constant, .global, .main or .method)");
	ERRORS("unknown directive", ".main\n.mian\n.end-main\n.bogus\n",
	    F ":2:1: unknown directive '.mian' (did you mean '.main'?)",
	    F ":4:1: unknown directive '.bogus'");
	ERRORS("directives are case-sensitive", ".MAIN\n.main\n.end-main\n",
	    F ":1:1: unknown directive '.MAIN' (did you mean '.main'?)");
	ERRORS("method before main", ".method f()\n.end-method\n.main\n"
	    ".end-main\n", F ":1:1: .main must come before the other methods",
	    F ":3:1: .main must come before the other methods");
	ERRORS("duplicate main", ".main\n.end-main\n.main\n.end-main\n",
	    F ":3:1: duplicate .main section");
	ERRORS("constant after main", ".main\n.end-main\n.constant\n"
	    ".end-constant\n", F ":3:1: .constant must come before .main "
	    "and the methods");
	ERRORS("duplicate constant section", ".constant\n.end-constant\n"
	    ".constant\n.end-constant\n.main\n.end-main\n",
	    F ":3:1: duplicate .constant section (put all constants in one)");
	ERRORS("global after main", ".main\n.end-main\n.global\n"
	    ".end-global\n", F ":3:1: .global must come before .main and "
	    "the methods");
	ERRORS("duplicate global section", ".global\n.end-global\n.global\n"
	    ".end-global\n.main\n.end-main\n",
	    F ":3:1: duplicate .global section (put all globals in one)");
	ERRORS("missing .end-main", ".main\nNOP\n",
	    F ":1:1: missing .end-main");
	ERRORS("missing .end-method at a new method", ".main\n.end-main\n"
	    ".method f()\nNOP\n.method g()\n.end-method\n",
	    F ":3:1: missing .end-method");
	ERRORS("missing .end-method at end of file", ".main\n.end-main\n"
	    "  .method f()\n", F ":3:3: missing .end-method");
	ERRORS("missing .end-var", ".main\n.var\na\n.end-main\n",
	    F ":2:1: missing .end-var");
	ERRORS("missing .end-var and .end-main", ".main\n.var\na\n",
	    F ":1:1: missing .end-main", F ":2:1: missing .end-var");
	ERRORS("missing .end-constant", ".constant\nA 1\n.main\n.end-main\n",
	    F ":1:1: missing .end-constant");
	ERRORS("missing .end-global", ".global\na\n", F ":1:1: missing "
	    ".end-global", F ":1:1: no .main section");
	ERRORS("wrong end of main", ".main\n.end-method\n",
	    F ":2:1: expected .end-main, got '.end-method'");
	ERRORS("wrong end of method", ".main\n.end-main\n.method f()\n"
	    ".end-main\n", F ":4:1: expected .end-method, got '.end-main'");
	ERRORS("stray ends", ".end-main\n.end-method\n.end-var\n"
	    ".end-constant\n.end-global\n.main\n.end-constant\n.end-global\n"
	    ".end-var\n.end-main\n",
	    F ":1:1: '.end-main' without an open .main section",
	    F ":2:1: '.end-method' without an open .method section",
	    F ":3:1: '.end-var' without an open .var section",
	    F ":4:1: '.end-constant' without an open .constant section",
	    F ":5:1: '.end-global' without an open .global section",
	    F ":7:1: '.end-constant' without an open .constant section",
	    F ":8:1: '.end-global' without an open .global section",
	    F ":9:1: '.end-var' without an open .var section");
	ERRORS("var outside a method", ".var\n.end-var\n.main\n.end-main\n",
	    F ":1:1: '.var' outside a method (put it after .main or "
	    ".method)", F ":2:1: '.end-var' without an open .var section");
	ERRORS("var after code", ".main\nNOP\n.var\na\n.end-var\n"
	    ".end-main\n", F ":3:1: .var must come before the instructions "
	    "of the method");
	ERRORS("duplicate var", ".main\n.var\n.end-var\n.var\n.end-var\n"
	    ".end-main\n", F ":4:1: duplicate .var section (declare all "
	    "variables in one)");
	ERRORS("junk after directives", ".constant x\n.end-constant y\n"
	    ".global 1\n.end-global z\n.main now\n.var v\n.end-var w\n"
	    ".end-main q\n.method f() r\n.end-method s\n",
	    F ":1:11: unexpected 'x' after .constant",
	    F ":2:15: unexpected 'y' after .end-constant",
	    F ":3:9: unexpected '1' after .global",
	    F ":4:13: unexpected 'z' after .end-global",
	    F ":5:7: unexpected 'now' after .main",
	    F ":6:6: unexpected 'v' after .var",
	    F ":7:10: unexpected 'w' after .end-var",
	    F ":8:11: unexpected 'q' after .end-main",
	    F ":9:13: unexpected 'r' after the parameter list",
	    F ":10:13: unexpected 's' after .end-method");
}

static void
test_declaration_errors(void)
{
	ERRORS("method names", ".constant\nk 1\n.end-constant\n.main\n"
	    ".end-main\n.method\n.end-method\n.method 5()\n.end-method\n"
	    ".method main()\n.end-method\n.method k()\n.end-method\n"
	    ".method f()\n.end-method\n.method f()\n.end-method\n",
	    F ":6:1: missing method name after .method",
	    F ":8:9: expected a method name, got '5'",
	    F ":10:9: 'main' is reserved for the .main section",
	    F ":12:9: method name 'k' clashes with the constant on line 2 "
	    "(rename one)",
	    F ":16:9: duplicate method 'f' (first defined on line 14)");
	ERRORS("constant clashing with a method", ".main\n.end-main\n"
	    ".method f()\n.end-method\n.constant\nf 1\n.end-constant\n",
	    F ":5:1: .constant must come before .main and the methods",
	    F ":6:1: constant name 'f' clashes with the method on line 3 "
	    "(rename one)");
	ERRORS("parameter lists", ".main\n.end-main\n"
	    ".method a\n.end-method\n"
	    ".method b(1)\n.end-method\n"
	    ".method c(x y)\n.end-method\n"
	    ".method d(x,\n.end-method\n"
	    ".method e(x,)\n.end-method\n"
	    ".method f(x, x)\n.end-method\n"
	    ".method g x\n.end-method\n",
	    F ":5:11: expected a parameter name, got '1'",
	    F ":7:13: expected ',' or ')' in the parameter list, got 'y'",
	    F ":9:12: missing ')' at the end of the parameter list",
	    F ":11:13: expected a parameter name, got ')'",
	    F ":13:14: duplicate local 'x'",
	    F ":15:9: expected '(' after method name 'g'");
	ERRORS("variables", ".main\n.end-main\n.method f(a)\n.var\nb 3 a\n"
	    "b\n.end-var\n.end-method\n",
	    F ":5:3: expected a variable name, got '3'",
	    F ":5:5: duplicate local 'a'",
	    F ":6:1: duplicate local 'b'");
	ERRORS("constants", ".constant\n1 2\nA\nB x\nC 4294967296\n"
	    "D -2147483649\nE 1 2\nF 1\nF 2\nG 'xy'\nH 0x\n.end-constant\n"
	    ".main\n.end-main\n",
	    F ":2:1: expected a constant name, got '1'",
	    F ":3:1: missing value for constant 'A'",
	    F ":4:3: expected a number for constant 'B', got 'x'",
	    F ":5:3: value 4294967296 out of range for a constant "
	    "(-2147483648..4294967295)",
	    F ":6:3: value -2147483649 out of range for a constant "
	    "(-2147483648..4294967295)",
	    F ":7:5: unexpected '2' after the value of 'E'",
	    F ":9:1: duplicate constant 'F' (first defined on line 8)",
	    F ":10:3: invalid character literal ''xy'' (one character, "
	    "e.g. 'A')",
	    F ":11:3: invalid number '0x'");
	ERRORS("huge constant", ".constant\nA "
	    "123456789012345678901234567890123456789012345678901234567890\n"
	    ".end-constant\n.main\n.end-main\n",
	    F ":2:3: value 1234567890123456789012345678901234567890... out "
	    "of range for a constant (-2147483648..4294967295)");
	ERRORS("globals", ".global\na b a\n5\n.end-global\n.main\n"
	    ".end-main\n",
	    F ":2:5: duplicate global 'a' (first declared on line 2)",
	    F ":3:1: expected a global name, got '5'");
}

static void
test_instruction_errors(void)
{
	MAIN_ERR("unknown instruction", "  IADDD", F ":2:3: unknown "
	    "instruction 'IADDD' (did you mean 'IADD'?)");
	MAIN_ERR("unknown instruction, lower case", "iadd2", F ":2:1: "
	    "unknown instruction 'iadd2' (did you mean 'IADD'?)");
	MAIN_ERR("unknown instruction, no suggestion", "FROBNICATE",
	    F ":2:1: unknown instruction 'FROBNICATE'");
	MAIN_ERR("not an instruction", "5", F ":2:1: expected an "
	    "instruction, got '5'");
	MAIN_ERR("label then junk", "l: (", F ":2:4: expected an "
	    "instruction, got '('");
	MAIN_ERR("too many operands", "ILOAD 1 2", F ":2:9: expected 1 "
	    "operand for ILOAD, got 2");
	MAIN_ERR("too few operands", "IINC 1", F ":2:1: expected 2 operands "
	    "for IINC, got 1");
	MAIN_ERR("operand for none", "IADD 1", F ":2:6: expected 0 "
	    "operands for IADD, got 1");
	MAIN_ERR("word for a byte", "BIPUSH x", F ":2:8: expected a number "
	    "for BIPUSH, got 'x'");
	MAIN_ERR("string for a label", "GOTO \"x\"", F ":2:6: expected a "
	    "label or offset for GOTO, got '\"x\"'");
	MAIN_ERR("string for a local", "ILOAD \"x\"", F ":2:7: expected a "
	    "local variable or index for ILOAD, got '\"x\"'");
	MAIN_ERR("macro for an index", "LDC_W #x", F ":2:7: expected a "
	    "constant or index for LDC_W, got '#x'");
	MAIN_ERR("directive for a method", "INVOKEVIRTUAL .x", F ":2:15: "
	    "expected a method or index for INVOKEVIRTUAL, got '.x'");
	MAIN_ERR("directive for a global", "GETSTATIC .x", F ":2:11: "
	    "expected a global or index for GETSTATIC, got '.x'");
	MAIN_ERR("punctuation for an operand", "ILOAD )", F ":2:7: expected "
	    "a local variable or index for ILOAD, got ')'");
	MAIN_ERR("punctuation after the operands", "ILOAD 1 :", F ":2:9: "
	    "unexpected ':' after the operands of ILOAD");
	MAIN_ERR("trailing comma", "IINC 1, 2,", F ":2:10: expected an "
	    "operand after ','");
	MAIN_ERR("double comma", "IINC 1,, 2", F ":2:8: expected a number "
	    "for IINC, got ','");
	MAIN_ERR("leading comma", "ILOAD ,1", F ":2:7: expected a local "
	    "variable or index for ILOAD, got ','");
	MAIN_ERR("byte too big", "BIPUSH 256", F ":2:8: value 256 out of "
	    "range for BIPUSH (-128..255)");
	MAIN_ERR("byte too small", "BIPUSH -129", F ":2:8: value -129 out "
	    "of range for BIPUSH (-128..255)");
	MAIN_ERR("IINC constant too big", "IINC 0 300", F ":2:8: value 300 "
	    "out of range for IINC (-128..255)");
	MAIN_ERR("BIPUSH 300", "BIPUSH 300", F ":2:8: value 300 out of "
	    "range for BIPUSH (-128..255)");
	MAIN_ERR("local index too big", "ILOAD 70000", F ":2:7: local index "
	    "70000 out of range (0..65535)");
	MAIN_ERR("negative local index", "ISTORE -1", F ":2:8: local index "
	    "-1 out of range (0..65535)");
	MAIN_ERR("offset too big", "GOTO 32768", F ":2:6: offset 32768 out "
	    "of range for GOTO (-32768..32767)");
	MAIN_ERR("index too big", "LDC_W 65536", F ":2:7: index 65536 out "
	    "of range for LDC_W (0..65535)");
	MAIN_ERR("negative index", "INVOKEVIRTUAL -1", F ":2:15: index -1 "
	    "out of range for INVOKEVIRTUAL (0..65535)");
	MAIN_ERR("global too big", "PUTSTATIC 0x10000", F ":2:11: index "
	    "0x10000 out of range for PUTSTATIC (0..65535)");
	MAIN_ERR("char literal as an index", "LDC_W '\\xff'", F ":2:7: "
	    "index '\\xff' out of range for LDC_W (0..65535)");
	ERRORS("unknown local", ".main\n.var\nx1\n.end-var\nILOAD x2\n"
	    "ILOAD y\n.end-main\n",
	    F ":5:7: unknown local 'x2' (did you mean 'x1'?)",
	    F ":6:7: unknown local 'y'");
	ERRORS("locals are per method", ".main\n.var\nm\n.end-var\n"
	    ".end-main\n.method f()\nILOAD m\n.end-method\n",
	    F ":7:7: unknown local 'm'");
	MAIN_ERR("unknown macro", "#prnt \"x\"", F ":2:1: unknown macro "
	    "'#prnt' (did you mean '#print'?)");
	MAIN_ERR("unknown macro, no suggestion", "#include \"x\"", F ":2:1: "
	    "unknown macro '#include'");
	MAIN_ERR("#print without a string", "#print", F ":2:1: expected a "
	    "string after #print, e.g. #print \"hello\"");
	MAIN_ERR("#print with a number", "#print 5", F ":2:8: expected a "
	    "string after #print, e.g. #print \"hello\"");
	MAIN_ERR("#print with two strings", "#print \"a\" \"b\"", F ":2:12: "
	    "unexpected '\"b\"' after the string");
	MAIN_ERR("duplicate label", "x: NOP\nx: NOP", F ":3:1: duplicate "
	    "label 'x' (first defined on line 2)");
}

static void
test_link_errors(void)
{
	struct buf b = { 0 };
	int i;

	ERRORS("undefined labels", ".main\nloop1: GOTO loop2\nIFEQ done\n"
	    "GOTO l\n.end-main\n.method f()\nGOTO loop1\n.end-method\n",
	    F ":2:13: undefined label 'loop2' (did you mean 'loop1'?)",
	    F ":3:6: undefined label 'done'",
	    F ":4:6: undefined label 'l'",
	    F ":7:6: undefined label 'loop1'");
	ERRORS("undefined names", ".constant\nkonst 1\n.end-constant\n"
	    ".global\nglob\n.end-global\n.main\nLDC_W konst2\nLDC_W zz\n"
	    "INVOKEVIRTUAL fo\nINVOKEVIRTUAL konst\nGETSTATIC glob1\n"
	    "ATOMICADD q\n.end-main\n.method foo()\n.end-method\n",
	    F ":8:7: unknown constant 'konst2' (did you mean 'konst'?)",
	    F ":9:7: unknown constant 'zz'",
	    F ":10:15: undefined method 'fo' (did you mean 'foo'?)",
	    F ":11:15: 'konst' is a constant, not a method (INVOKEVIRTUAL "
	    "needs a method)",
	    F ":12:11: unknown global 'glob1' (did you mean 'glob'?)",
	    F ":13:11: unknown global 'q'");

	/* 11,000 BIPUSH/OUT pairs put "far" 33,004 bytes after the GOTO. */
	buf_printf(&b, ".main\nGOTO far\nback: NOP\n#print \"");
	for (i = 0; i < 11000; i++)
		buf_put_u8(&b, 'a');
	buf_printf(&b, "\"\nfar: GOTO back\nGOTO far\n.end-main\n");
	buf_put_u8(&b, 0);
	ERRORS("branch out of range", (char *)b.data,
	    F ":2:6: branch to 'far' is out of 16-bit range (offset 33004)",
	    F ":5:11: branch to 'back' is out of 16-bit range "
	    "(offset -33001)");
	buf_free(&b);
}

static void
test_many_errors(void)
{
	struct program p;
	struct asm_errors e;
	struct buf b = { 0 };
	int i;

	ERRORS("all errors of a file, in line order",
	    ".constant\nA 1\nA 2\n.end-constant\n"
	    ".main\n.var\nx\n.end-var\n"
	    "  GOTO nowhere\n  IADDD\n  BIPUSH 300\n  ILOAD y\n"
	    "ok: ILOAD x\n  #print \"bad\\q\"\n  INVOKEVIRTUAL nope\n"
	    ".end-main\n.method m(a, a)\n  GOTO ok\n",
	    F ":3:1: duplicate constant 'A' (first defined on line 2)",
	    F ":9:8: undefined label 'nowhere'",
	    F ":10:3: unknown instruction 'IADDD' (did you mean 'IADD'?)",
	    F ":11:10: value 300 out of range for BIPUSH (-128..255)",
	    F ":12:9: unknown local 'y'",
	    F ":14:14: unknown escape '\\q' (use \\n \\t \\r \\0 \\\\ \\\" "
	    "\\' or \\xHH)",
	    F ":15:17: undefined method 'nope'",
	    F ":17:1: missing .end-method",
	    F ":17:14: duplicate local 'a'",
	    F ":18:8: undefined label 'ok'");

	/* A file that is not assembly stops at 1000 errors. */
	for (i = 0; i < 1500; i++)
		buf_printf(&b, "junk%d\n", i);
	if (ok(asm_assemble(F, (char *)b.data, b.len, NULL, &p, &e) == -1,
	    "too many errors: fails")) {
		is_int(e.count, 1001, "too many errors: 1000 and a note");
		is_str(e.count == 1001 ? e.msg[1000] : NULL, F ":1500:1: too "
		    "many errors (501 more not shown), stopping",
		    "too many errors: the note");
	}
	asm_errors_free(&e);
	buf_free(&b);

	/* errs may be NULL when only success matters. */
	ok(asm_assemble(F, "x", 1, NULL, &p, NULL) == -1,
	    "errors without a list");
}

static void
test_limits(void)
{
	struct buf b = { 0 };
	int i;

	buf_printf(&b, ".global\n");
	for (i = 0; i <= 65536; i++)
		buf_printf(&b, "g%d\n", i);
	buf_printf(&b, ".end-global\n.main\n.end-main\n");
	buf_put_u8(&b, 0);
	ERRORS("too many globals", (char *)b.data,
	    F ":65538:1: too many globals (at most 65536)");
	buf_free(&b);

	buf_printf(&b, ".constant\n");
	for (i = 0; i < 65536; i++)
		buf_printf(&b, "c%d %d\n", i, i);
	buf_printf(&b, ".end-constant\n.main\n.end-main\n.method f()\n"
	    ".end-method\n");
	buf_put_u8(&b, 0);
	ERRORS("constant pool overflow", (char *)b.data,
	    F ":1:1: too many constants and methods (65537, the constant "
	    "pool holds 65536)");
	buf_free(&b);

	buf_printf(&b, ".main\n.end-main\n.method f(");
	for (i = 0; i < 65535; i++)
		buf_printf(&b, "p%d, ", i);
	buf_printf(&b, "last)\n.end-method\n");
	buf_put_u8(&b, 0);
	ERRORS("too many parameters", (char *)b.data,
	    F ":3:513173: too many parameters (at most 65534)");
	buf_free(&b);

	buf_printf(&b, ".main\n.var\n");
	for (i = 0; i <= 65536; i++)
		buf_printf(&b, "v%d\n", i);
	buf_printf(&b, ".end-var\n.end-main\n");
	buf_put_u8(&b, 0);
	ERRORS("too many locals", (char *)b.data,
	    F ":65539:1: too many locals (local indices stop at 65535)");
	buf_free(&b);

	/* 5.6 million BIPUSH/OUT pairs make 16.8 MB of text. */
	buf_printf(&b, ".main\n#print \"");
	for (i = 0; i < 5600000; i++)
		buf_put_u8(&b, 'x');
	buf_printf(&b, "\"\n.end-main\n");
	buf_put_u8(&b, 0);
	ERRORS("text too large", (char *)b.data,
	    F ":1:1: program text too large (16800000 bytes, at most "
	    "16777216)");
	buf_free(&b);
}

/* Bytes that are not assembly give errors, never a crash. */
static void
test_robust(void)
{
	static const char junk[] = "\x00\xff\xfe.main\x00\n\"\'\\\r\r\n"
	    ".method (((\n:::,,,\n#print \"\\x\n'\\\n.end-main\x80";
	static const char nul[] = ".main\nNOP\x00\n.end-main\n";
	struct program p;
	struct asm_errors e;
	struct buf b = { 0 };
	uint32_t seed = 12345;
	int i, failures = 0;
	size_t k;

	ok(asm_assemble(F, junk, sizeof junk - 1, NULL, &p, &e) == -1,
	    "binary junk: errors");
	asm_errors_free(&e);
	ok(asm_assemble(F, nul, sizeof nul - 1, NULL, &p, &e) == -1 &&
	    e.count == 1, "NUL inside a line");
	asm_errors_free(&e);

	/* Random mutations of the golden program. */
	for (i = 0; i < 300; i++) {
		b.len = 0;
		buf_put(&b, golden_src, sizeof golden_src - 1);
		for (k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			b.data[(seed >> 8) % b.len] = (uint8_t)(seed >> 20);
		}
		if (asm_assemble(F, (char *)b.data, b.len, NULL, &p, &e) == 0)
			prog_free(&p);
		else {
			if (e.count == 0)
				failures++;
			asm_errors_free(&e);
		}
	}
	is_int(failures, 0, "mutations: every failure has a message");
	buf_free(&b);
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
	test_lexer_errors();
	test_section_errors();
	test_declaration_errors();
	test_instruction_errors();
	test_link_errors();
	test_many_errors();
	test_limits();
	test_robust();
	test_tables();
	return done_testing();
}
