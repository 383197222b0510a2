/*
 * Debug names that struct program does not keep: the names of every
 * method's locals, of the .global slots and of the .constant entries,
 * and the #print directives behind the instructions they became.  The assembler resolves them
 * to numbers and forgets them, so they are read back from the .jas source
 * that the program keeps (prog->source): a small scanner for the
 * .global, .main, .method and .var lines, which the assembler has already
 * checked, so it only has to be right for valid sources.
 *
 * Local numbering follows the assembler: in main the .var names are
 * locals 0, 1, ...; in a method local 0 is OBJREF (the link pointer once
 * the frame is built), the parameters are 1..n and the .var names follow.
 * A program loaded from .ijvm has no source: no names, and the debugger
 * falls back to local[N] and global[N].
 */
#ifndef MICDB_DSYM_H
#define MICDB_DSYM_H

#include <stddef.h>
#include <stdint.h>

#include "program.h"

struct dsym_method {
	char		 *name;      /* "main" or the .method name */
	uint32_t	  nparams;   /* parameters without OBJREF; 0 for main */
	char		**locals;    /* by local index; NULL: no name */
	uint32_t	  nlocals;
};

struct dsym {
	struct dsym_method	 *methods;
	size_t			  nmethods;
	char			**globals;    /* by slot */
	size_t			  nglobals;
	char			**constants;  /* by constant-pool index */
	size_t			  nconstants;
};

/* Names of prog (none when it has no source).  Never fails. */
void	 dsym_load(struct dsym *d, const struct program *prog);
void	 dsym_free(struct dsym *d);
const struct dsym_method *dsym_method(const struct dsym *d,
	    const char *name);
/* Index of a local by name, or -1. */
int	 dsym_local(const struct dsym_method *m, const char *name);
/* Name of local idx, or NULL. */
const char *dsym_local_name(const struct dsym_method *m, uint32_t idx);
/* Slot of a global by name, or -1. */
int	 dsym_global(const struct dsym *d, const char *name);
/* Name of constant-pool entry idx (a .constant; the assembler numbers
 * them in source order, the methods after them), or NULL. */
const char *dsym_constant_name(const struct dsym *d, uint32_t idx);
/*
 * A directive that the assembler expanded into several instructions
 * (#print "text": BIPUSH/OUT pairs, all on its line): when addr is one
 * of them, 1 with [*first, *end) the byte addresses of the expansion and
 * the directive as the source wrote it in text (no label, no comment);
 * else 0.  The code listings show the directive, the bytes on request.
 */
int	 dsym_macro_at(const struct program *prog, uint32_t addr,
	    uint32_t *first, uint32_t *end, char *text, size_t size);
/*
 * The instruction at pc disassembled with the source's names in d
 * (ILOAD 1 -> ILOAD n, GETSTATIC 0 -> GETSTATIC total, LDC_W 0 ->
 * LDC_W OBJREF): its size, or 0 with "(outside the text)".  The one
 * naming that list, x/i and the screen's code pane all show.
 */
int	 dsym_insn(const struct program *p, const struct dsym *d, int32_t pc,
	    char *text, size_t size);

#endif
