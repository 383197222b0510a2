/*
 * Checks shared by the .ijvm and .jas targets: two programs hold the same
 * binary, the disassembly of a program assembles back to it, the .ijvm
 * writer's output loads back to it, and whatever loads runs a bounded
 * number of steps on the reference interpreter.
 */
#ifndef MICDB_FUZZ_IJVM_UTIL_H
#define MICDB_FUZZ_IJVM_UTIL_H

#include "asm.h"
#include "dis.h"
#include "machine.h"
#include "ref.h"
#include "fuzz.h"

static inline int
same_binary(const struct program *a, const struct program *b)
{
	return a->text_size == b->text_size && a->cp_size == b->cp_size &&
	    (a->text_size == 0 || memcmp(a->text, b->text, a->text_size) == 0) &&
	    (a->cp_size == 0 ||
	    memcmp(a->cp, b->cp, a->cp_size * sizeof *a->cp) == 0);
}

static inline int
same_symbols(const struct symbol *a, size_t na, const struct symbol *b,
    size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (a[i].addr != b[i].addr || strcmp(a[i].name, b[i].name) != 0)
			return 0;
	return 1;
}

/* write -> load gives the same program; write again the same bytes. */
static inline void
check_write_back(const struct program *p)
{
	uint8_t *img, *img2;
	size_t len, len2;
	struct program q;
	char *cause = NULL;

	program_write_ijvm(p, 1, &img, &len);
	if (program_load_ijvm(&q, "fuzz.ijvm", img, len, &cause) != 0)
		fuzz_fail("written image does not load: %s", cause);
	fuzz_check(same_binary(p, &q), "write-back changed the binary");
	fuzz_check(same_symbols(p->methods, p->nmethods, q.methods,
	    q.nmethods), "write-back changed the method symbols");
	fuzz_check(same_symbols(p->labels, p->nlabels, q.labels, q.nlabels),
	    "write-back changed the label symbols");
	program_write_ijvm(&q, 1, &img2, &len2);
	fuzz_check(len == len2 && memcmp(img, img2, len) == 0,
	    "writing twice gives different bytes");
	free(img);
	free(img2);
	program_free(&q);
}

/* The disassembly assembles to the same binary, or says why it cannot
 * be expressed as .jas. */
static inline void
check_disassembly(const struct program *p, const struct ijvm_opset *set)
{
	struct buf text = { 0 };
	struct program q;
	struct asm_errors errs = { 0 };
	char *cause = NULL, line[128];

	if (dis_program(p, set, &text, &cause) != 0) {
		fuzz_check(cause != NULL && cause[0] != '\0',
		    "disassembly refused silently");
		free(cause);
	} else {
		if (asm_assemble("fuzz.dis.jas", (const char *)text.data,
		    text.len, set, &q, &errs) != 0)
			fuzz_fail("disassembly does not assemble: %s\n%.*s",
			    errs.count ? errs.msg[0] : "?", (int)text.len,
			    (const char *)text.data);
		fuzz_check(same_binary(p, &q),
		    "disassembly assembles to another binary:\n%.*s",
		    (int)text.len, (const char *)text.data);
		program_free(&q);
	}
	buf_free(&text);
	for (uint32_t a = 0; a < p->text_size && a < 256; a++)
		(void)dis_insn(p, set, a, line, sizeof line);
}

/* A few hundred steps on two cores of a small machine. */
static inline void
check_bounded_run(const struct program *p)
{
	struct machine m;
	struct machine_config cfg = { 2, 64, 256, 2 };
	const struct program *progs[1] = { p };
	char *cause = NULL;

	if (machine_init(&m, &cfg, progs, 1, NULL, &cause) != 0) {
		fuzz_check(cause != NULL && cause[0] != '\0',
		    "machine refused the program silently");
		free(cause);
		return;
	}
	machine_add_input(&m, 0, (const uint8_t *)"42\n", 3);
	for (int i = 0; i < 300; i++)
		ref_step(&m, NULL, NULL);
	machine_free(&m);
}

#endif
