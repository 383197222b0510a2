/*
 * Disassembler: round trips (assemble, disassemble, assemble again: same
 * text and constant pool) on sources that exercise every operand kind,
 * with and without symbols; single-instruction text for the debugger;
 * binaries that cannot be written as .jas.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "dis.h"
#include "tap.h"

static int
assemble(const char *src, struct program *p)
{
	struct asm_errors errs = { 0 };
	int rc = asm_assemble("t.jas", src, strlen(src), NULL, p, &errs);

	for (size_t i = 0; i < errs.count; i++)
		tap_diag("%s", errs.msg[i]);
	asm_errors_free(&errs);
	return rc;
}

static void
drop_symbols(struct program *p)
{
	for (size_t i = 0; i < p->nmethods; i++)
		free(p->methods[i].name);
	for (size_t i = 0; i < p->nlabels; i++)
		free(p->labels[i].name);
	free(p->methods);
	free(p->labels);
	p->methods = p->labels = NULL;
	p->nmethods = p->nlabels = 0;
}

static void
roundtrip(const char *name, const char *src)
{
	for (int sym = 1; sym >= 0; sym--) {
		struct program a, b;
		struct buf text = { 0 };
		char *cause = NULL;

		if (!ok(assemble(src, &a) == 0, "%s: assembles", name))
			return;
		if (!sym)
			drop_symbols(&a);
		if (!ok(dis_program(&a, NULL, &text, &cause) == 0,
		    "%s: disassembles (%s symbols)", name, sym ? "with" :
		    "without")) {
			tap_diag("%s", cause);
			free(cause);
			program_free(&a);
			return;
		}
		buf_put_u8(&text, 0);
		if (ok(assemble((char *)text.data, &b) == 0,
		    "%s: the disassembly assembles", name)) {
			ok(a.text_size == b.text_size && a.cp_size == b.cp_size &&
			    memcmp(a.text, b.text, a.text_size) == 0 &&
			    (a.cp_size == 0 || memcmp(a.cp, b.cp,
			    a.cp_size * sizeof *a.cp) == 0),
			    "%s: same text and constant pool (%s symbols)", name,
			    sym ? "with" : "without");
			program_free(&b);
		} else
			tap_diag("%s", (char *)text.data);
		buf_free(&text);
		program_free(&a);
	}
}

static const char prog_all[] =
    ".constant\nBIG 100000\nNEG -5\n.end-constant\n"
    ".global\ncount\nsum\n.end-global\n"
    ".main\n.var\na b\n.end-var\n"
    "\tBIPUSH -3\n\tISTORE a\n\tLDC_W BIG\n\tISTORE b\n"
    "loop:\tIINC a 1\n\tILOAD a\n\tIFLT loop\n"
    "\tBIPUSH 0\n\tILOAD b\n\tBIPUSH 2\n\tINVOKEVIRTUAL add\n"
    "\tPUTSTATIC sum\n\tGETSTATIC sum\n\tBIPUSH 1\n\tATOMICADD count\n"
    "\tIF_ICMPEQ done\n\tLDC_W add\n\tPOP\n\tCOREID\n\tNCORES\n\tIAND\n"
    "\tBARRIER\n\tIN\n\tIOR\n\tDUP\n\tSWAP\n\tISUB\n\tIFEQ done\n"
    "\tBIPUSH 4\n\tNEWARRAY\n\tDUP\n\tGC\n\tNOP\n\tPOP\n\tPOP\n"
    "done:\tLDC_W NEG\n\tOUT\n\tERR\n\tHALT\n.end-main\n"
    ".method add(x, y)\n.var\nt\n.end-var\n"
    "\tILOAD x\n\tILOAD y\n\tIADD\n\tDUP\n\tISTORE t\n\tIRETURN\n"
    ".end-method\n"
    ".method unused()\n\tBIPUSH 1\n\tIRETURN\n.end-method\n";

static void
wide_source(struct buf *b)
{
	buf_printf(b, ".main\n.var\n");
	for (int i = 0; i < 300; i++)
		buf_printf(b, "v%d\n", i);
	buf_printf(b, ".end-var\n\tBIPUSH 7\n\tISTORE v299\n\tIINC v299 -1\n"
	    "\tILOAD v299\n\tILOAD v3\n\tWIDE\n\tILOAD v4\n\tIADD\n\tOUT\n"
	    /* a lone WIDE before a wide index (found by fuzz-ijvm) */
	    "\tWIDE\n\tWIDE\n\tILOAD v299\n\tPOP\n"
	    "\tHALT\n.end-main\n");
	buf_put_u8(b, 0);
}

static void
test_insn_text(void)
{
	struct program p;
	char text[64];

	if (assemble(prog_all, &p) != 0)
		return;
	is_int(dis_insn(&p, NULL, 0, text, sizeof text), 2, "BIPUSH is 2 bytes");
	is_str(text, "BIPUSH -3", "BIPUSH text");
	is_int(dis_insn(&p, NULL, 9, text, sizeof text), 3, "IINC is 3 bytes");
	is_str(text, "IINC 0 1", "IINC text");
	is_int(dis_insn(&p, NULL, 14, text, sizeof text), 3, "IFLT is 3 bytes");
	is_str(text, "IFLT loop", "branch shows its label");
	is_int(dis_insn(&p, NULL, 23, text, sizeof text), 3,
	    "INVOKEVIRTUAL is 3 bytes");
	is_str(text, "INVOKEVIRTUAL add", "call shows the method");
	is_int(dis_insn(&p, NULL, p.text_size, text, sizeof text), 0,
	    "outside the text");
	program_free(&p);
}

static void
test_unwritable(void)
{
	/* cp = { method, constant }: a called slot before a plain constant
	 * cannot come from a standard assembler. */
	static uint8_t text[] = { 0x10, 0x00, 0xB6, 0x00, 0x00, 0x13, 0x00,
	    0x01, 0xFF, 0x00, 0x01, 0x00, 0x00, 0x10, 0x01, 0xAC };
	static int32_t cp[] = { 9, 42 };
	static uint8_t junk[] = { 0x10, 0x01, 0x01, 0xFF };
	static uint8_t slots[] = { 0x10, 0x00, 0xB6, 0x00, 0x00, 0xFF,
	    0xFF, 0xFF, 0x00, 0x02, 0x10, 0x01, 0xAC };
	struct program p;
	struct buf out = { 0 };
	char *cause = NULL;

	memset(&p, 0, sizeof p);
	p.text = text;
	p.text_size = sizeof text;
	p.cp = cp;
	p.cp_size = 2;
	ok(dis_program(&p, NULL, &out, &cause) == -1 && cause &&
	    strstr(cause, "method slots last"), "a method slot before a "
	    "constant is reported");
	free(cause);
	cause = NULL;
	p.text = junk;
	p.text_size = sizeof junk;
	p.cp_size = 0;
	ok(dis_program(&p, NULL, &out, &cause) == -1 && cause &&
	    strstr(cause, "not an instruction"), "an unknown byte is reported");
	free(cause);
	/* a method of 65535 arguments and 2 locals: more slots than .jas
	 * can declare (found by tests/fuzz/fuzz-ijvm) */
	cause = NULL;
	p.text = slots;
	p.text_size = sizeof slots;
	p.cp = cp;
	p.cp_size = 1;
	cp[0] = 6;
	ok(dis_program(&p, NULL, &out, &cause) == -1 && cause &&
	    strstr(cause, "65536 slots"), "a method of more than 65536 "
	    "slots is reported");
	free(cause);
	buf_free(&out);
}

int
main(void)
{
	struct buf wide = { 0 };

	roundtrip("every instruction", prog_all);
	roundtrip("hello", ".main\n#print \"hi\\n\"\n\tHALT\n.end-main\n");
	roundtrip("small method", ".main\n\tBIPUSH 0\n\tINVOKEVIRTUAL f\n"
	    "\tHALT\n.end-main\n"
	    ".method f()\n\tBIPUSH 0\n\tIRETURN\n.end-method\n"
	    ".method g()\n\tBIPUSH 1\n\tIRETURN\n.end-method\n");
	roundtrip("backward and forward", ".main\nl0:\tGOTO l2\nl1:\tHALT\n"
	    "l2:\tGOTO l1\n.end-main\n");
	/* found by tests/fuzz/fuzz-ijvm: a call of a constant's slot */
	roundtrip("INVOKEVIRTUAL of a constant", ".constant\nk 5\n"
	    ".end-constant\n.main\n\tBIPUSH 1\n\tINVOKEVIRTUAL 0\n"
	    "\tLDC_W k\n\tHALT\n.end-main\n");
	wide_source(&wide);
	roundtrip("WIDE locals", (char *)wide.data);
	buf_free(&wide);
	test_insn_text();
	test_unwritable();
	return done_testing();
}
