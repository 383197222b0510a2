/*
 * ijvm-as: assemble a .jas source into a standard .ijvm binary (doc/ijvm.md
 * section 4).  Exit 0 on success, 1 when the source has errors (all of
 * them printed, one "file:line:column: message" per line), 2 on bad usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "program.h"
#include "util.h"

static const char usage[] =
"usage: ijvm-as FILE.jas [-o OUT.ijvm] [-c CONFIG] [--no-symbols]\n"
"Assemble an IJVM .jas source into a .ijvm binary (default: FILE.ijvm).\n"
"\n"
"  -o, --output OUT     write the binary to OUT ('-' for standard output)\n"
"  -c, --config CONFIG  instruction-set configuration file: adds or\n"
"                       overrides instructions (\"0x68 IMUL\")\n"
"  --no-symbols         leave out the method and label symbol blocks\n"
"  -h, --help           show this help\n";

static char *
default_output(const char *in)
{
	size_t n = strlen(in);

	if (n > 4 && strcmp(in + n - 4, ".jas") == 0)
		return xasprintf("%.*s.ijvm", (int)(n - 4), in);
	return xasprintf("%s.ijvm", in);
}

static int
tool_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output",     required_argument, NULL, 'o' },
		{ "config",     required_argument, NULL, 'c' },
		{ "no-symbols", no_argument,       NULL, 'S' },
		{ "help",       no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *config = NULL;
	struct ijvm_opset set;
	struct asm_errors errs = { 0 };
	struct program prog;
	uint8_t *src, *bin;
	size_t len, binlen;
	char *cause = NULL, *outpath;
	int c, symbols = 1, rc = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'c': config = optarg; break;
		case 'S': symbols = 0; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			fprintf(stderr, "ijvm-as: option %s needs a value\n%s",
			    argv[optind - 1], usage);
			return 2;
		default:
			fprintf(stderr, "ijvm-as: unknown option '%s'\n%s",
			    argv[optind - 1], usage);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ijvm-as: %s\n%s", optind == argc ?
		    "no input file given" : "give exactly one input file",
		    usage);
		return 2;
	}
	ijvm_opset_init(&set);
	if (config != NULL) {
		uint8_t *text;
		size_t tlen;

		if (read_file(config, &text, &tlen, &cause) != 0 ||
		    ijvm_opset_load_config(&set, config, (const char *)text,
		    tlen, &cause) != 0) {
			if (cause == NULL)
				cause = xstrdup("bad configuration");
			fprintf(stderr, "ijvm-as: %s\n", cause);
			free(cause);
			ijvm_opset_free(&set);
			return 1;
		}
		free(text);
	}
	if (read_file(argv[optind], &src, &len, &cause) != 0) {
		fprintf(stderr, "ijvm-as: %s\n", cause);
		free(cause);
		ijvm_opset_free(&set);
		return 1;
	}
	if (asm_assemble(argv[optind], (const char *)src, len, &set, &prog,
	    &errs) != 0) {
		for (size_t i = 0; i < errs.count; i++)
			fprintf(stderr, "%s\n", errs.msg[i]);
		fprintf(stderr, "ijvm-as: %zu error%s, no output written\n",
		    errs.count, errs.count == 1 ? "" : "s");
		asm_errors_free(&errs);
		free(src);
		ijvm_opset_free(&set);
		return 1;
	}
	free(src);
	program_write_ijvm(&prog, symbols, &bin, &binlen);
	outpath = out ? xstrdup(out) : default_output(argv[optind]);
	if (write_file(outpath, bin, binlen, &cause) != 0) {
		fprintf(stderr, "ijvm-as: %s\n", cause);
		free(cause);
		rc = 1;
	}
	free(outpath);
	free(bin);
	program_free(&prog);
	ijvm_opset_free(&set);
	return rc;
}

int
main(int argc, char **argv)
{
	return stdout_done("ijvm-as", tool_main(argc, argv));
}
