/*
 * pmic-cc: compile a PMIC microprogram into a .pmic control store
 * (pmic.md, man/pmic-cc.1), with an optional listing and symbol file
 * for the debugger.  Exit 0 on success, 1 when the source has errors (all
 * of them printed, one "file:line:column: message" per line) or an
 * output cannot be written, 2 on bad usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mal.h"
#include "pmc.h"
#include "pmic.h"
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

static char *
default_output(const char *in)
{
	size_t n = strlen(in);

	if (n > 3 && strcmp(in + n - 3, ".pm") == 0)
		return xasprintf("%.*s.pmic", (int)(n - 3), in);
	return xasprintf("%s.pmic", in);
}

/* Write b to path; 0, or -1 after printing why. */
static int
put(const char *path, struct buf *b)
{
	char *cause = NULL;

	if (write_file(path, b->data, b->len, &cause) != 0) {
		fprintf(stderr, "pmic-cc: %s\n", cause);
		free(cause);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output",  required_argument, NULL, 'o' },
		{ "listing", optional_argument, NULL, 'l' },
		{ "symbols", required_argument, NULL, 's' },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *listing = NULL, *symbols = NULL;
	struct mal_errors errs;
	struct mal_syms syms;
	struct pmic_store cs;
	struct buf b = { 0 };
	uint8_t *src;
	size_t len;
	char *cause = NULL, *outpath;
	int c, rc = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:l::s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'l': listing = optarg ? optarg : "-"; break;
		case 's': symbols = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			fprintf(stderr, "pmic-cc: option %s needs a value\n%s",
			    argv[optind - 1], usage);
			return 2;
		default:
			fprintf(stderr, "pmic-cc: unknown option '%s'\n%s",
			    argv[optind - 1], usage);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmic-cc: %s\n%s", optind == argc ?
		    "no input file given" : "give exactly one input file",
		    usage);
		return 2;
	}
	if (read_file(argv[optind], &src, &len, &cause) != 0) {
		fprintf(stderr, "pmic-cc: %s\n", cause);
		free(cause);
		return 1;
	}
	if (pmc_compile(argv[optind], (const char *)src, len, &cs, &syms,
	    &errs) != 0) {
		for (size_t i = 0; i < errs.count; i++)
			fprintf(stderr, "%s\n", errs.msg[i]);
		fprintf(stderr, "pmic-cc: %zu error%s, no output written\n",
		    errs.count, errs.count == 1 ? "" : "s");
		mal_errors_free(&errs);
		free(src);
		return 1;
	}
	free(src);

	pmic_store_write(&cs, &b);
	outpath = out ? xstrdup(out) : default_output(argv[optind]);
	if (put(outpath, &b) != 0)
		rc = 1;
	free(outpath);
	if (rc == 0 && listing != NULL) {
		b.len = 0;
		pmc_listing(&cs, &syms, &b);
		if (put(listing, &b) != 0)
			rc = 1;
	}
	if (rc == 0 && symbols != NULL) {
		b.len = 0;
		mal_syms_write(&syms, &b);
		if (put(symbols, &b) != 0)
			rc = 1;
	}
	buf_free(&b);
	mal_syms_free(&syms);
	return rc;
}
