/*
 * mic1-as: assemble a MAL microprogram into a .mic1 control store
 * (doc/mic1.md sections 2 and 3), with an optional listing and symbol file
 * for the debugger.  Exit 0 on success, 1 when the source has errors (all
 * of them printed, one "file:line:column: message" per line) or an
 * output cannot be written, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mal.h"
#include "mic1.h"
#include "ucode-cli.h"
#include "util.h"

static const char usage[] =
"usage: mic1-as FILE.mal [-o OUT.mic1] [-l LISTING] [-s SYMBOLS]\n"
"Assemble a MAL microprogram into a Mic-1 control store (default:\n"
"FILE.mic1).\n"
"\n"
"  -o, --output OUT     write the control store to OUT ('-' for standard\n"
"                       output)\n"
"  -l, --listing FILE   write a listing: address, 36-bit word, source line,\n"
"                       label and statement of every word\n"
"  -s, --symbols FILE   write the symbol file the debugger reads (labels,\n"
"                       source lines and MAL text by address)\n"
"  -h, --help           show this help\n";

static const struct ucode_cli cli = {
	"mic1-as", usage, ".mal", ".mic1", 0
};

int
main(int argc, char **argv)
{
	struct ucode_cli_args a;
	struct mal_errors errs, warns;
	struct mal_syms syms;
	struct mic1_store cs;
	struct buf store = { 0 }, listing = { 0 };
	uint8_t *src;
	size_t len;
	int rc;

	if ((rc = ucode_cli_start(&cli, argc, argv, &a, &src, &len)) >= 0)
		return rc;
	rc = mal_assemble_warn(a.in, (const char *)src, len, &cs, &syms, &errs,
	    &warns);
	free(src);
	for (size_t i = 0; i < warns.count; i++)
		fprintf(stderr, "%s\n", warns.msg[i]);
	mal_errors_free(&warns);
	if (rc != 0)
		return ucode_cli_fail(&cli, &errs);
	mic1_store_write(&cs, &store);
	if (a.listing != NULL)
		mal_listing(&cs, &syms, &listing);
	return ucode_cli_write(&cli, &a, &store, &listing, &syms);
}
