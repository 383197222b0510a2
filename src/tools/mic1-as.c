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

/* MAL into a Mic-1 store; the warnings go to standard error as they
 * come (ucode-cli.h says the rest). */
static int
assemble(const char *path, const char *src, size_t len, struct buf *store,
    struct buf *listing, struct mal_syms *syms, struct mal_errors *errs)
{
	struct mal_errors warns;
	struct mic1_store cs;
	int rc = mal_assemble_warn(path, src, len, &cs, syms, errs, &warns);

	for (size_t i = 0; i < warns.count; i++)
		fprintf(stderr, "%s\n", warns.msg[i]);
	mal_errors_free(&warns);
	if (rc != 0)
		return -1;
	mic1_store_write(&cs, store);
	if (listing != NULL)
		mal_listing(&cs, syms, listing);
	return 0;
}

static const struct ucode_cli cli = {
	"mic1-as", usage, ".mal", ".mic1", 0, assemble
};

int
main(int argc, char **argv)
{
	return ucode_cli_main(&cli, argc, argv);
}
