/*
 * How code is named on screen (names.c, pure): a PC as a label, and the
 * code pane's listing of a program.
 */
#ifndef MICDB_UI_NAMES_H
#define MICDB_UI_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "program.h"

/* --- names (names.c) -------------------------------------------------- */

/* "loop", "half#loop", "loop+3", "half+4", "0x001a": how a PC is named in
 * legends and titles (labels of main shown without "main#"). */
void	 names_pc(const struct program *p, int32_t pc, char *text,
	    size_t size);

/* One line of the code pane. */
/* ROW_DIRECTIVE: a source line the assembler expanded into several
 * instructions (#print "..."), shown as written above them. */
enum row_kind { ROW_INSN, ROW_LABEL, ROW_METHOD, ROW_DIRECTIVE };
struct code_row {
	uint32_t	 addr;       /* ROW_INSN: its address; others: next */
	uint8_t		 kind;
	const char	*name;       /* ROW_LABEL / ROW_METHOD: symbol;
					ROW_DIRECTIVE: its source text */
};
struct listing {
	struct code_row	*rows;
	size_t		 n;
	uint32_t	*src_addr;   /* per source line (1-based): first
				        address, UINT32_MAX: no code */
	size_t		 nsrc;       /* source lines + 1 */
	char		**src;       /* source lines, NUL-terminated */
	int		 fold;       /* built folded (see listing_build) */
};
/*
 * fold: a #print is one ROW_DIRECTIVE row (at its first byte) standing
 * for the instructions it became, as `list` shows it; else the directive
 * row stands above those instructions' rows.
 */
void	 listing_build(struct listing *l, const struct program *p, int fold);
void	 listing_free(struct listing *l);
/* Row index of addr (the instruction holding it, or in a folded
 * listing the #print row); 0 if none. */
size_t	 listing_row(const struct listing *l, uint32_t addr);

#endif
