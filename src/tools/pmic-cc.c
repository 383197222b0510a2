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

static const struct ucode_cli cli = {
	"pmic-cc", usage, ".pm", ".pmic", 1
};

int
main(int argc, char **argv)
{
	struct ucode_cli_args a;
	struct mal_errors errs;
	struct mal_syms syms;
	struct pmic_store cs;
	struct buf store = { 0 }, listing = { 0 };
	uint8_t *src;
	size_t len;
	int rc;

	if ((rc = ucode_cli_start(&cli, argc, argv, &a, &src, &len)) >= 0)
		return rc;
	rc = pmc_compile(a.in, (const char *)src, len, &cs, &syms, &errs);
	free(src);
	if (rc != 0)
		return ucode_cli_fail(&cli, &errs);
	pmic_store_write(&cs, &store);
	if (a.listing != NULL)
		pmc_listing(&cs, &syms, &listing);
	return ucode_cli_write(&cli, &a, &store, &listing, &syms);
}
