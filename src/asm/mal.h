/*
 * MAL, the Mic-1 micro-assembly language (doc/mic1.md section 3): .mal text
 * in, a control store (mic1-enc.h) and its symbols out.  The dialect is the
 * one of the textbook's mic1ijvm.mal, which assembles unchanged:
 *
 *   [label] statement {; statement}        // comment
 *
 *   C1 = C2 = ... = expr     targets MAR MDR PC SP LV CPP TOS OPC H, or
 *   N = expr, Z = expr       a flag alone (the ALU runs, nothing stored)
 *   rd  wr  fetch  nop
 *   goto L   goto (MBR)   goto (MBR OR 0x100)
 *   if (N) goto L1; else goto L2          (also if (Z))
 *   .label name 0xADDR       anchor a label at an address
 *   .default statement       fill every unused word with it
 *   .reserve 0xFIRST 0xLAST  (extension) keep these addresses for
 *                            anchors, if targets and .default
 *
 * expr is a function of the ALU's A input (always H) and one B source
 * (MDR PC MBR MBRU SP LV CPP TOS OPC), with << 8 or >> 1 after it: the
 * book's 16 (H, B, NOT H, NOT B, H + B, H + B + 1, H + 1, B + 1, B - H,
 * B - 1, -H, H AND B, H OR B, 0, 1, -1; operands in either order) and
 * B - H - 1, which the same ALU computes.  Registers and keywords are
 * case-insensitive; labels are not.  A word without a goto continues at
 * the next line's word.
 *
 * Placement: anchored labels at their address; the two targets of an if
 * at X (false) and X | 0x100 (true) for the lowest free X; every other
 * word at the lowest free address, in source order (so the textbook
 * program's Main1 lands at 0x02).  Unused words hold the .default
 * statement, or nothing (executing them faults).
 *
 * Classroom variants of mic1ijvm.mal write things the hardware cannot
 * take literally; they assemble with a warning: an if target that
 * cannot sit at X / X | 0x100 (e.g. "if (Z) goto err1", err1 at 0xFE)
 * is reached through an added word "goto target"; a .label whose label
 * is never defined anchors nothing, and its address is kept for the
 * .default word.
 *
 * .reserve is micdb's one extension to the textbook dialect: a range it
 * names receives only anchored words, the false targets of ifs (which
 * must lie below 0x100) and .default words.  microcode/mic1.mal reserves
 * the dispatch table 0x00-0xFF, so that an unknown opcode lands on a
 * .default word (and faults) rather than inside some routine.
 *
 * Errors are "file:line:column: message", all of a file in one run.
 *
 * Symbols: one entry per word the source defines (and one per word the
 * .default statement fills), with the label, the source line and the
 * statement text, so that a debugger can show MAL for an MPC.  The text
 * file format (mic1-as -s):
 *
 *   # mic1-as symbols 1                  (comment lines start with #)
 *   file<TAB>PATH                        the .mal source
 *   main1<TAB>0x002                      address of Main1
 *   0x002<TAB>45<TAB>Main1<TAB>PC = PC + 1; fetch; goto (MBR)
 *   0x003<TAB>47<TAB>-<TAB>goto Main1    ADDR LINE LABEL TEXT; - = no label
 *   0x0a0<TAB>12<TAB>.default<TAB>goto err1     a word .default filled
 */
#ifndef MICDB_MAL_H
#define MICDB_MAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "mic1-enc.h"
#include "util.h"

struct mal_errors {
	char	**msg;      /* "file:line:column: message" */
	size_t	  count;
};

struct mal_sym {
	uint16_t	 addr;
	uint32_t	 line;      /* 1-based source line */
	char		*label;     /* NULL: none */
	char		*text;      /* the statement(s), whitespace collapsed */
	uint8_t		 is_default;/* filled by .default */
};

struct mal_syms {
	char		*file;      /* the .mal source, NULL if unknown */
	uint16_t	 main1;
	struct mal_sym	*sym;       /* sorted by address */
	size_t		 n;
};

/*
 * Assemble src (len bytes, need not be NUL-terminated); path names the
 * file in messages.  Returns 0 with cs (and syms, which may be NULL)
 * filled, or -1 with errs filled and cs/syms untouched.
 */
int	mal_assemble(const char *path, const char *src, size_t len,
	    struct mic1_store *cs, struct mal_syms *syms,
	    struct mal_errors *errs);
/* The same, with warnings (work-arounds the assembler made for textbook
 * dialect oddities: an anchored label never defined, an if target that
 * needed an added "goto" word) in *warns when it is not NULL, on success
 * and on failure; the caller frees them with mal_errors_free. */
int	mal_assemble_warn(const char *path, const char *src, size_t len,
	    struct mic1_store *cs, struct mal_syms *syms,
	    struct mal_errors *errs, struct mal_errors *warns);
void	mal_errors_free(struct mal_errors *errs);
/* Append "path:line:col: KIND MESSAGE" to errs (kind "" for an error,
 * "warning: " for a note): the form of every microcode translator's
 * messages (mal.c, pmc.c). */
void	mal_errors_vadd(struct mal_errors *errs, const char *path, int line,
	    int col, const char *kind, const char *fmt, va_list ap);
/* Every message of errs, one per line, in one string the caller frees;
 * errs is freed.  What microcode_load puts in *cause. */
char	*mal_errors_join(struct mal_errors *errs);

/* The first two lines of every translator's listing: "TITLE listing of
 * FILE" and the column heads. */
void	mal_listing_head(struct buf *out, const char *title,
	    const struct mal_syms *syms, const char *columns);
/* The listing: one line per word the source defines, "ADDR WORD LINE
 * LABEL TEXT", in address order; runs of .default words are one line. */
void	mal_listing(const struct mic1_store *cs, const struct mal_syms *syms,
	    struct buf *out);

/* The symbol file (format above). */
void	mal_syms_write(const struct mal_syms *syms, struct buf *out);
int	mal_syms_parse(struct mal_syms *syms, const char *path,
	    const char *text, size_t len, char **cause);
int	mal_syms_load_file(struct mal_syms *syms, const char *path,
	    char **cause);
void	mal_syms_free(struct mal_syms *syms);
/* Sort syms by address, the order every reader of it expects. */
void	mal_syms_sort(struct mal_syms *syms);
/* The entry of a control-store address, NULL if none. */
const struct mal_sym *mal_syms_at(const struct mal_syms *syms,
	    uint32_t addr);
/* The address of a label; 0, or -1 if there is no such label. */
int	mal_syms_find(const struct mal_syms *syms, const char *label,
	    uint32_t *addr);

#endif
