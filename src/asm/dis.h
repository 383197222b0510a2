/*
 * The IJVM disassembler: a struct program back to .jas text that the
 * assembler turns into the same binary (text and constant pool), using
 * symbol names when the program has them and generated names otherwise.
 */
#ifndef MICDB_DIS_H
#define MICDB_DIS_H

#include "ijvm.h"
#include "program.h"
#include "util.h"

/* Write prog as .jas into out.  set may be NULL (built-in).  0, or -1 and
 * *cause when the program cannot be expressed as .jas. */
int	dis_program(const struct program *prog, const struct ijvm_opset *set,
	    struct buf *out, char **cause);

/* One instruction at addr as text ("BIPUSH 5", "GOTO loop"); returns its
 * size in bytes (WIDE prefix included), or 0 if addr is outside the text.
 * Used by the debugger's code pane as well. */
int	dis_insn(const struct program *prog, const struct ijvm_opset *set,
	    uint32_t addr, char *text, size_t textsize);

#endif
