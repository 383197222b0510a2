/*
 * The shared command line of mic1-as and pmic-cc (ucode-cli.h), so that
 * both translators take the same options and fail the same way: their
 * main, which the tool's file (mic1-as.c, pmic-cc.c) gives ucode_tool.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucode-cli.h"

/* The options into a: -1 to go on, else the exit status. */
static int
parse(const struct ucode_cli *cli, int argc, char **argv,
    struct ucode_cli_args *a)
{
	const struct option longopts[] = {
		{ "output",  required_argument, NULL, 'o' },
		{ "listing", cli->listing_optional ? optional_argument :
		    required_argument, NULL, 'l' },
		{ "symbols", required_argument, NULL, 's' },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *optstr = cli->listing_optional ? ":o:l::s:h" : ":o:l:s:h";
	int c;

	memset(a, 0, sizeof *a);
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstr, longopts, NULL)) != -1) {
		switch (c) {
		case 'o': a->out = optarg; break;
		case 'l': a->listing = optarg ? optarg : "-"; break;
		case 's': a->symbols = optarg; break;
		case 'h': fputs(cli->usage, stdout); return 0;
		case ':':
			fprintf(stderr, "%s: option %s needs a value\n%s",
			    cli->prog, argv[optind - 1], cli->usage);
			return 2;
		default:
			fprintf(stderr, "%s: unknown option '%s'\n%s",
			    cli->prog, argv[optind - 1], cli->usage);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: %s\n%s", cli->prog, optind == argc ?
		    "no input file given" : "give exactly one input file",
		    cli->usage);
		return 2;
	}
	a->in = argv[optind];
	return -1;
}

/* Parse argv into a and read the input into *src (*len bytes, the
 * caller frees it): -1 to go on, else the exit status to return now (0
 * after --help, 2 after a usage error, 1 after an input that cannot be
 * read, each printed). */
static int
ucode_cli_start(const struct ucode_cli *cli, int argc, char **argv,
    struct ucode_cli_args *a, uint8_t **src, size_t *len)
{
	char *cause = NULL;
	int rc = parse(cli, argc, argv, a);

	if (rc >= 0)
		return rc;
	if (read_file(a->in, src, len, &cause) != 0) {
		fprintf(stderr, "%s: %s\n", cli->prog, cause);
		free(cause);
		return 1;
	}
	return -1;
}

/* The source did not translate: print every error and the count, free
 * errs.  Returns 1, the exit status. */
static int
ucode_cli_fail(const struct ucode_cli *cli, struct mal_errors *errs)
{
	for (size_t i = 0; i < errs->count; i++)
		fprintf(stderr, "%s\n", errs->msg[i]);
	fprintf(stderr, "%s: %zu error%s, no output written\n", cli->prog,
	    errs->count, errs->count == 1 ? "" : "s");
	mal_errors_free(errs);
	return 1;
}

/* Write b to path; 0, or -1 after printing why. */
static int
put(const struct ucode_cli *cli, const char *path, const struct buf *b)
{
	char *cause = NULL;

	if (write_file(path, b->data, b->len, &cause) != 0) {
		fprintf(stderr, "%s: %s\n", cli->prog, cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* FILE.in_ext -> FILE.out_ext; any other name gets out_ext appended. */
static char *
default_output(const struct ucode_cli *cli, const char *in)
{
	size_t n = strlen(in), e = strlen(cli->in_ext);

	if (n > e && strcmp(in + n - e, cli->in_ext) == 0)
		return xasprintf("%.*s%s", (int)(n - e), in, cli->out_ext);
	return xasprintf("%s%s", in, cli->out_ext);
}

/* Write store to the output (a->out, or the default name), then listing
 * and the symbol file of syms where a asks for them, stopping at the
 * first that cannot be written; store, listing and syms are freed.
 * Returns the exit status. */
static int
ucode_cli_write(const struct ucode_cli *cli, const struct ucode_cli_args *a,
    struct buf *store, struct buf *listing, struct mal_syms *syms)
{
	char *outpath = a->out ? xstrdup(a->out) : default_output(cli, a->in);
	int rc = put(cli, outpath, store) != 0;

	free(outpath);
	if (rc == 0 && a->listing != NULL && put(cli, a->listing, listing) != 0)
		rc = 1;
	if (rc == 0 && a->symbols != NULL) {
		struct buf b = { 0 };

		mal_syms_write(syms, &b);
		rc = put(cli, a->symbols, &b) != 0;
		buf_free(&b);
	}
	buf_free(store);
	buf_free(listing);
	mal_syms_free(syms);
	return rc;
}

static int
tool_main(int argc, char **argv)
{
	const struct ucode_cli *cli = &ucode_tool;
	struct ucode_cli_args a;
	struct mal_errors errs, warns;
	struct mal_syms syms;
	struct buf store = { 0 }, listing = { 0 };
	uint8_t *src;
	size_t len;
	int rc;

	if ((rc = ucode_cli_start(cli, argc, argv, &a, &src, &len)) >= 0)
		return rc;
	rc = microcode_translate(cli->level, a.in, (const char *)src, len,
	    &store, &listing, &syms, &errs, &warns);
	free(src);
	for (size_t i = 0; i < warns.count; i++)
		fprintf(stderr, "%s\n", warns.msg[i]);
	mal_errors_free(&warns);
	if (rc != 0)
		return ucode_cli_fail(cli, &errs);
	return ucode_cli_write(cli, &a, &store, &listing, &syms);
}

int
main(int argc, char **argv)
{
	return stdout_done(ucode_tool.prog, tool_main(argc, argv));
}
