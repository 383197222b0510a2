/*
 * Loader and writer of .ijvm images: every hardening rule of doc/ijvm.md
 * section 1, symbol blocks, the byte-exact writer, main's local count and
 * the symbol/line lookups.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "ijvm.h"
#include "program.h"
#include "tap.h"
#include "util.h"

/* An image: magic, cp block, text block, then optional extra bytes. */
static void
image(struct buf *b, const int32_t *cp, uint32_t ncp, const uint8_t *text,
    uint32_t ntext)
{
	memset(b, 0, sizeof *b);
	buf_put_be32(b, 0x1DEADFAD);
	buf_put_be32(b, 0x10000);
	buf_put_be32(b, ncp * 4);
	for (uint32_t i = 0; i < ncp; i++)
		buf_put_be32(b, (uint32_t)cp[i]);
	buf_put_be32(b, 0);
	buf_put_be32(b, ntext);
	buf_put(b, text, ntext);
}

static int
load(const struct buf *b, struct program *p, char **cause)
{
	*cause = NULL;
	return program_load_ijvm(p, "t.ijvm", b->data, b->len, cause);
}

/* Expect a load failure whose message contains want. */
static void
bad(const uint8_t *data, size_t len, const char *want, const char *what)
{
	struct program p;
	char *cause = NULL;
	int rc = program_load_ijvm(&p, "t.ijvm", data, len, &cause);

	ok(rc == -1 && cause != NULL && strstr(cause, want) != NULL &&
	    strstr(cause, "t.ijvm") != NULL, "rejects %s", what);
	if (cause && !strstr(cause, want))
		tap_diag("message: %s", cause);
	free(cause);
}

static void
test_hardening(void)
{
	static const uint8_t text[] = { 0x10, 0x05, 0xFF };
	static const int32_t cp[] = { 7, -1 };
	struct buf b;
	uint8_t swapped[] = { 0xAD, 0xDF, 0xEA, 0x1D, 0, 1, 0, 0, 0, 0, 0, 0 };
	uint8_t wrong[] = { 0xCA, 0xFE, 0xBA, 0xBE };

	bad((const uint8_t *)"", 0, "too short", "an empty file");
	bad((const uint8_t *)"\x1d\xea", 2, "too short", "a 2-byte file");
	bad(wrong, sizeof wrong, "not an IJVM binary", "a wrong magic");
	bad(swapped, sizeof swapped, "byte-swapped", "the byte-swapped magic");

	image(&b, cp, 2, text, 3);
	bad(b.data, 4 + 5, "truncated block header", "a truncated header");
	bad(b.data, 4, "constant pool block missing", "no blocks at all");
	bad(b.data, 4 + 8 + 8, "text block missing", "a missing text block");
	bad(b.data, b.len - 1, "claims 3 bytes", "a text size past the end");
	b.data[11] = 7;			/* cp size 7: not a multiple of 4 */
	bad(b.data, b.len, "not a multiple of 4", "a cp size of 7");
	b.data[11] = 0xF0;		/* cp size larger than the file */
	bad(b.data, b.len, "remain in the file", "a cp size past the end");
	b.data[8] = 0x7F;		/* huge size field */
	bad(b.data, b.len, "claims", "a 2 GiB size field");
	buf_free(&b);
}

static void
test_load_and_write(void)
{
	static const uint8_t text[] = { 0x10, 0x05, 0xFD, 0xFF };
	static const int32_t cp[] = { 0x12345678, -2 };
	struct program p;
	struct buf b;
	uint8_t *out;
	size_t outlen;
	char *cause;

	image(&b, cp, 2, text, 4);
	ok(load(&b, &p, &cause) == 0, "loads a minimal image");
	is_int(p.cp_size, 2, "cp size");
	is_int(p.cp[0], 0x12345678, "cp[0] big-endian");
	is_int(p.cp[1], -2, "cp[1] negative");
	is_int(p.text_size, 4, "text size");
	ok(memcmp(p.text, text, 4) == 0, "text bytes");
	is_int(p.nmethods, 0, "no symbols");
	is_int(p.main_nlocals, 1, "main gets at least one local");
	program_write_ijvm(&p, 0, &out, &outlen);
	ok(outlen == b.len && memcmp(out, b.data, b.len) == 0,
	    "writer reproduces the image byte for byte");
	free(out);
	program_free(&p);

	/* Unknown extra blocks are skipped. */
	buf_put_be32(&b, 0x12340000);
	buf_put_be32(&b, 3);
	buf_put(&b, "abc", 3);
	ok(load(&b, &p, &cause) == 0, "skips an unknown trailing block");
	program_free(&p);
	buf_free(&b);
}

static void
test_symbols(void)
{
	/* main: BIPUSH 0, INVOKEVIRTUAL 0, HALT; f at 6: header, IRETURN */
	static const uint8_t text[] = { 0x10, 0x00, 0xB6, 0x00, 0x00, 0xFF,
	    0x00, 0x01, 0x00, 0x00, 0x10, 0x01, 0xAC };
	static const int32_t cp[] = { 6 };
	struct program p;
	struct buf b;
	uint8_t *out;
	size_t outlen;
	uint32_t addr;
	char *cause;

	image(&b, cp, 1, text, sizeof text);
	buf_put_be32(&b, 0xEEEEEEEE);
	buf_put_be32(&b, 9 + 6);
	buf_put_be32(&b, 0);
	buf_put(&b, "main", 5);
	buf_put_be32(&b, 6);
	buf_put(&b, "f", 2);
	buf_put_be32(&b, 0xFFFFFFFF);
	buf_put_be32(&b, 4 + 7);
	buf_put_be32(&b, 10);
	buf_put(&b, "f#body", 7);
	if (!ok(load(&b, &p, &cause) == 0, "loads symbol blocks")) {
		tap_diag("%s", cause);
		exit(done_testing() | 1);
	}
	is_int(p.nmethods, 2, "two method symbols");
	is_str(p.methods[1].name, "f", "method name");
	is_int(p.nlabels, 1, "one label");
	is_str(p.labels[0].name, "f#body", "label name keeps method#label");
	ok(program_find_symbol(&p, "body", &addr) == 0 && addr == 10,
	    "finds a label by its short name");
	ok(program_find_symbol(&p, "f#body", &addr) == 0 && addr == 10,
	    "finds a label by its full name");
	ok(program_find_symbol(&p, "f", &addr) == 0 && addr == 10,
	    "a method name means its first instruction");
	ok(program_find_symbol(&p, "nope", &addr) == -1, "unknown symbol");
	ok(program_method_at(&p, 12) == &p.methods[1], "method at 12 is f");
	ok(program_method_at(&p, 5) == &p.methods[0], "method at 5 is main");
	ok(program_label_exact(&p, 10) == &p.labels[0], "label at 10");
	ok(program_label_exact(&p, 11) == NULL, "no label at 11");
	is_int(program_main_end(&p), 6, "main ends at the first method");
	program_write_ijvm(&p, 1, &out, &outlen);
	ok(outlen == b.len && memcmp(out, b.data, b.len) == 0,
	    "writer reproduces symbol blocks");
	free(out);
	program_free(&p);

	/* A symbol block cut in the middle of a name. */
	{
		struct buf c = { 0 };

		image(&c, cp, 1, text, sizeof text);
		buf_put_be32(&c, 0xEEEEEEEE);
		buf_put_be32(&c, 6);
		buf_put_be32(&c, 0);
		buf_put(&c, "ma", 2);
		bad(c.data, c.len, "unterminated name", "a cut symbol name");
		buf_free(&c);
		image(&c, cp, 1, text, sizeof text);
		buf_put_be32(&c, 0xFFFFFFFF);
		buf_put_be32(&c, 3);
		buf_put(&c, "abc", 3);
		bad(c.data, c.len, "truncated label symbol block",
		    "a 3-byte symbol block");
		buf_free(&c);
	}
	buf_free(&b);
}

static void
test_main_nlocals(void)
{
	/* ILOAD 3; WIDE ISTORE 0x0120; IINC 7 1; HALT; then a "method"
	 * whose ILOAD 200 must not count */
	static const uint8_t text[] = { 0x15, 0x03, 0xC4, 0x36, 0x01, 0x20,
	    0x84, 0x07, 0x01, 0xB6, 0x00, 0x00, 0xFF,
	    0x00, 0x01, 0x00, 0x00, 0x15, 0xC8, 0xAC };
	static const int32_t cp[] = { 13 };
	struct program p;
	struct buf b;
	char *cause;

	image(&b, cp, 1, text, sizeof text);
	ok(load(&b, &p, &cause) == 0, "loads a program with a method");
	is_int(program_main_end(&p), 13,
	    "main ends where its INVOKEVIRTUAL target starts");
	is_int(p.main_nlocals, 0x121, "main_nlocals = highest index + 1 "
	    "(WIDE form counted, callee not)");
	program_free(&p);
	buf_free(&b);
}

/* Found by tests/fuzz/fuzz-ijvm: a WIDE before an instruction it cannot
 * widen ended the scan of main, so the locals after it were not counted
 * (and the disassembly named undeclared ones). */
static void
test_main_nlocals_bad_wide(void)
{
	/* BIPUSH 1; WIDE; IADD; ISTORE 9; HALT */
	static const uint8_t text[] = { 0x10, 0x01, 0xC4, 0x60, 0x36, 0x09,
	    0xFF };
	struct program p;
	struct buf b;
	char *cause;

	image(&b, NULL, 0, text, sizeof text);
	ok(load(&b, &p, &cause) == 0, "loads a program with a stray WIDE");
	is_int(p.main_nlocals, 10, "main_nlocals counts the locals after a "
	    "WIDE that widens nothing");
	program_free(&p);
	buf_free(&b);
}

static void
test_lines(void)
{
	struct program p;
	struct line_info li[] = { { 0, 3 }, { 2, 4 }, { 5, 9 } };

	memset(&p, 0, sizeof p);
	p.lines = li;
	p.nlines = 3;
	is_int(program_line_at(&p, 0), 3, "line of addr 0");
	is_int(program_line_at(&p, 5), 9, "line of addr 5");
	is_int(program_line_at(&p, 4), 0, "no line inside an instruction");
}

static void
test_load_file(void)
{
	struct program p;
	char *cause = NULL;

	ok(program_load_file(&p, "/nonexistent/x.ijvm", &cause) == -1 &&
	    strstr(cause, "cannot open /nonexistent/x.ijvm") != NULL,
	    "a missing file names the file");
	free(cause);
}

int
main(void)
{
	test_hardening();
	test_load_and_write();
	test_symbols();
	test_main_nlocals();
	test_main_nlocals_bad_wide();
	test_lines();
	test_load_file();
	return done_testing();
}
