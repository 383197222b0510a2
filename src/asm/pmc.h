/*
 * pmc, the compiler of the PMIC microcode language (doc/pmic.md, and the
 * project's completions documented in man/pmic-cc.1): .pm text in, a
 * PMIC control store (pmic-enc.h) and its symbols out.
 *
 *   NAME { microinstr ; microinstr ; ... }      # comment
 *   microinstr := item { (':' | '//') item }
 *   item       := lvalue = rvalue | fetch | read | write | next TARGET
 *
 * ALU assignments go to CU0, CU1, CU2 in source order; fetch is CU0's
 * memory operation, read CU1's, write CU2's.  NAME is an IJVM mnemonic
 * (placed at its opcode), wide_MNEMONIC (at 0x100 + opcode) or a free
 * label.  The grammar of the thesis (alu [: mem] [: addr]) is a subset.
 *
 * Symbols use struct mal_syms (one entry per micro-instruction, with the
 * block name on a block's first one and the source text), so that the
 * debugger shows PMIC source with the code it has for MAL; the symbol
 * file is mal_syms_write's format.  main1 is unused (0).
 */
#ifndef MICDB_PMC_H
#define MICDB_PMC_H

#include <stddef.h>

#include "mal.h"
#include "pmic-enc.h"
#include "util.h"

/*
 * Compile src (len bytes, need not be NUL-terminated); path names the
 * file in messages.  0 with cs (and syms, which may be NULL) filled, or
 * -1 with every error in errs ("file:line:column: message") and cs/syms
 * untouched.  Free errs with mal_errors_free.
 */
int	pmc_compile(const char *path, const char *src, size_t len,
	    struct pmic_store *cs, struct mal_syms *syms,
	    struct mal_errors *errs);
/* The listing: "ADDR CU0 CU1 CU2 NEXT LINE LABEL TEXT", one line per
 * micro-instruction, in address order. */
void	pmc_listing(const struct pmic_store *cs, const struct mal_syms *syms,
	    struct buf *out);

#endif
