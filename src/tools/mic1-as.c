/*
 * mic1-as: assemble a MAL microprogram into a .mic1 control store
 * (mic1.md sections 2 and 3), with an optional listing and symbol file
 * for the debugger.  Exit 0 on success, 1 when the source has errors (all
 * of them printed, one "file:line:column: message" per line) or an
 * output cannot be written, 2 on bad usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mal.h"
#include "mic1.h"
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

static char *
default_output(const char *in)
{
	size_t n = strlen(in);

	if (n > 4 && strcmp(in + n - 4, ".mal") == 0)
		return xasprintf("%.*s.mic1", (int)(n - 4), in);
	return xasprintf("%s.mic1", in);
}

/* Write b to path; 0, or -1 after printing why. */
static int
put(const char *path, struct buf *b)
{
	char *cause = NULL;

	if (write_file(path, b->data, b->len, &cause) != 0) {
		fprintf(stderr, "mic1-as: %s\n", cause);
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
		{ "listing", required_argument, NULL, 'l' },
		{ "symbols", required_argument, NULL, 's' },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *listing = NULL, *symbols = NULL;
	struct mal_errors errs, warns;
	struct mal_syms syms;
	struct mic1_store cs;
	struct buf b = { 0 };
	uint8_t *src;
	size_t len;
	char *cause = NULL, *outpath;
	int c, rc = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:l:s:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'l': listing = optarg; break;
		case 's': symbols = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			fprintf(stderr, "mic1-as: option %s needs a value\n%s",
			    argv[optind - 1], usage);
			return 2;
		default:
			fprintf(stderr, "mic1-as: unknown option '%s'\n%s",
			    argv[optind - 1], usage);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "mic1-as: %s\n%s", optind == argc ?
		    "no input file given" : "give exactly one input file",
		    usage);
		return 2;
	}
	if (read_file(argv[optind], &src, &len, &cause) != 0) {
		fprintf(stderr, "mic1-as: %s\n", cause);
		free(cause);
		return 1;
	}
	c = mal_assemble_warn(argv[optind], (const char *)src, len, &cs,
	    &syms, &errs, &warns);
	for (size_t i = 0; i < warns.count; i++)
		fprintf(stderr, "%s\n", warns.msg[i]);
	mal_errors_free(&warns);
	if (c != 0) {
		for (size_t i = 0; i < errs.count; i++)
			fprintf(stderr, "%s\n", errs.msg[i]);
		fprintf(stderr, "mic1-as: %zu error%s, no output written\n",
		    errs.count, errs.count == 1 ? "" : "s");
		mal_errors_free(&errs);
		free(src);
		return 1;
	}
	free(src);

	mic1_store_write(&cs, &b);
	outpath = out ? xstrdup(out) : default_output(argv[optind]);
	if (put(outpath, &b) != 0)
		rc = 1;
	free(outpath);
	if (rc == 0 && listing != NULL) {
		b.len = 0;
		mal_listing(&cs, &syms, &b);
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
