/*
 * What the assembler's test programs share (test-asm.c, test-asm-errors.c):
 * assembling a source with or without an instruction set, comparing the
 * text with the bytes it must hold, comparing every error message as an
 * exact "file:line:column: message" string, and the golden program.
 */
#ifndef MICDB_ASM_TEST_UTIL_H
#define MICDB_ASM_TEST_UTIL_H

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
static inline void
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

static inline int
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

static inline int
assemble(const char *src, struct program *p, struct asm_errors *e)
{
	return assemble_set(src, NULL, p, e);
}

static inline void
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
static inline void
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
static inline void
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

/* The golden program: test-asm.c checks its bytes, test-asm-errors.c
 * mutates it. */
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

#endif
