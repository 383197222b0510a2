/*
 * pmic-cc: compile a PMIC microprogram into a .pmic control store
 * (doc/pmic.md, man/pmic-cc.1), with an optional listing and symbol file
 * for the debugger.  Exit 0 on success, 1 when the source has errors (all
 * of them printed, one "file:line:column: message" per line) or an
 * output cannot be written, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mal.h"
#include "pmc.h"
#include "pmic.h"
#include "ucode-cli.h"
#include "util.h"

static const char usage[] =
"usage: pmic-cc FILE.pm [-o OUT.pmic] [-l[LISTING]] [-s SYMBOLS]\n"
"Compile a PMIC microprogram into a PMIC control store (default:\n"
"FILE.pmic).  Errors are printed as FILE:LINE:COLUMN: MESSAGE, all of\n"
"them; the exit status is 1 then, 2 on bad usage.\n"
"\n"
"  -o, --output OUT     write the control store to OUT ('-' for standard\n"
"                       output)\n"
"  -l, --listing[=FILE] write a listing (to standard output, or to FILE):\n"
"                       address, the four 32-bit words, source line,\n"
"                       label and micro-instruction of every word\n"
"  -s, --symbols FILE   write the symbol file the debugger reads (labels,\n"
"                       source lines and PMIC text by address)\n"
"  -h, --help           show this help\n";

/* PMIC microprogram into a PMIC store (ucode-cli.h). */
static int
compile(const char *path, const char *src, size_t len, struct buf *store,
    struct buf *listing, struct mal_syms *syms, struct mal_errors *errs)
{
	struct pmic_store cs;

	if (pmc_compile(path, src, len, &cs, syms, errs) != 0)
		return -1;
	pmic_store_write(&cs, store);
	if (listing != NULL)
		pmc_listing(&cs, syms, listing);
	return 0;
}

static const struct ucode_cli cli = {
	"pmic-cc", usage, ".pm", ".pmic", 1, compile
};

int
main(int argc, char **argv)
{
	return ucode_cli_main(&cli, argc, argv);
}
