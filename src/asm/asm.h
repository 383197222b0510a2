/*
 * The IJVM assembler (doc/ijvm.md section 4): .jas text in, a struct program
 * out (text, constant pool, method and label symbols, line table).
 *
 * Output equals the standard assembler's for the same source: constant
 * pool = declared constants in order, then one slot per method in
 * definition order; main at text offset 0 with no header; every other
 * method with a header (u16 nargs counting OBJREF, u16 number of .var
 * locals); branch offsets relative to the branch's opcode byte; a local
 * index > 255 gets an automatic WIDE.
 *
 * All errors of a file are collected, each "file:line:column: message".
 */
#ifndef MICDB_ASM_H
#define MICDB_ASM_H

#include <stddef.h>

#include "ijvm.h"
#include "program.h"

struct asm_errors {
	char	**msg;      /* "file:line:column: message" */
	size_t	  count;
};

/*
 * Assemble src (len bytes, need not be NUL-terminated).  path names the
 * file in messages.  set may be NULL for the built-in instruction set.
 * Returns 0 and fills prog, or -1 with errs filled (prog untouched).
 */
int	asm_assemble(const char *path, const char *src, size_t len,
	    const struct ijvm_opset *set, struct program *prog,
	    struct asm_errors *errs);
void	asm_errors_free(struct asm_errors *errs);

/*
 * Load a program from a file (load.c): .jas sources are assembled (with
 * the built-in instruction set), anything else is read as .ijvm
 * (program_load_ijvm).  0, or -1 + *cause.
 */
int	program_load_file(struct program *prog, const char *path,
	    char **cause);

#endif
