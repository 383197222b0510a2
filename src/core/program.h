/*
 * A loaded IJVM program: text, constant pool, symbols and (when it came
 * from a .jas source) a line table.  The loader reads the standard .ijvm
 * format (doc/ijvm.md section 1) defensively: any byte string gives a program
 * or an error message, never a crash.  The writer produces the same format,
 * symbol blocks included, byte for byte as the standard assembler lays it
 * out.
 *
 * A program owns all its memory; program_free releases it.
 */
#ifndef MICDB_PROGRAM_H
#define MICDB_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#define IJVM_MAGIC          0x1DEADFAD
#define IJVM_SYM_METHODS    0xEEEEEEEE  /* block origin of method names */
#define IJVM_SYM_LABELS     0xFFFFFFFF  /* block origin of label names */
#define IJVM_MAX_TEXT       (1u << 24)  /* bytes; larger files are refused */
#define IJVM_MAX_CP         (1u << 16)  /* words: u16 indices reach no further */

struct symbol {
	uint32_t	 addr;   /* byte address in the text */
	char		*name;   /* methods: "name"; labels: "method#label" */
};

struct line_info {
	uint32_t	 addr;   /* byte address of an instruction */
	uint32_t	 line;   /* its source line (1-based) */
};

struct program {
	char		*path;           /* file it came from, for messages */
	uint8_t		*text;
	uint32_t	 text_size;
	int32_t		*cp;             /* constant pool words */
	uint32_t	 cp_size;
	struct symbol	*methods;        /* sorted by address */
	size_t		 nmethods;
	struct symbol	*labels;         /* sorted by address */
	size_t		 nlabels;
	struct line_info *lines;         /* sorted by address; .jas only */
	size_t		 nlines;
	char		*source;         /* .jas text, NUL-terminated; .jas only */
	uint32_t	 main_nlocals;   /* words reserved for main's locals (>= 1) */
};

/* Parse an .ijvm image.  path names it in messages.  0, or -1 + *cause. */
int	 program_load_ijvm(struct program *prog, const char *path,
	    const uint8_t *data, size_t len, char **cause);
/* Serialise to .ijvm; with_symbols adds the two symbol blocks. */
void	 program_write_ijvm(const struct program *prog, int with_symbols,
	    uint8_t **data, size_t *len);
void	 program_free(struct program *prog);
/* Sort symbols the way the loader does (by address, then name), so that
 * an assembled program and its .ijvm list them alike. */
void	 program_sort_symbols(struct symbol *syms, size_t n);

/*
 * Words main's locals need: one more than the highest local index that
 * main's code names (WIDE forms included), and at least 1.  Computed from
 * the text alone, so a .jas and its .ijvm start identically.
 */
uint32_t program_main_nlocals(const struct program *prog);
/* Byte address where main's code ends (the first method header, or the
 * text size). */
uint32_t program_main_end(const struct program *prog);

/* Symbol lookups; NULL when none. */
const struct symbol *program_method_at(const struct program *prog,
	    uint32_t addr);          /* the method containing addr */
const struct symbol *program_label_exact(const struct program *prog,
	    uint32_t addr);
/* Find a label ("loop" in any method, or "method#loop") or method by name;
 * returns 0 and the address, or -1. */
int	 program_find_symbol(const struct program *prog, const char *name,
	    uint32_t *addr);
/* Source line of the instruction at addr, 0 if unknown. */
uint32_t program_line_at(const struct program *prog, uint32_t addr);

#endif
