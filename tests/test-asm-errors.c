/*
 * Unit tests of the IJVM assembler's errors: every message of the lexer,
 * the sections, the declarations, the instructions and the linker, many
 * errors in one file, the limits of the format, and sources that must
 * not crash it, compared as exact "file:line:column: message" strings
 * (doc/ijvm.md section 4).
 */
#include "asm-test-util.h"

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

int
main(void)
{
	test_lexer_errors();
	test_section_errors();
	test_declaration_errors();
	test_instruction_errors();
	test_link_errors();
	test_many_errors();
	test_limits();
	test_robust();
	return done_testing();
}
