/*
 * ijvm-dis: disassemble a .ijvm binary into .jas that ijvm-as turns back
 * into the same binary.  Exit 0, 1 when the binary cannot be written as
 * .jas, 2 when it cannot be loaded or on bad usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "dis.h"
#include "program.h"
#include "util.h"

static const char usage[] =
"usage: ijvm-dis FILE.ijvm [-o OUT.jas] [-c CONFIG]\n"
"Disassemble an IJVM binary into .jas source (default: standard output).\n"
"\n"
"  -o, --output OUT     write the source to OUT\n"
"  -c, --config CONFIG  instruction-set configuration file (as for ijvm-as)\n"
"  -h, --help           show this help\n";

static int
tool_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "config", required_argument, NULL, 'c' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = "-", *config = NULL;
	struct ijvm_opset set;
	struct program prog;
	struct buf text = { 0 };
	uint8_t *data;
	size_t len;
	char *cause = NULL;
	int c, rc = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'c': config = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		case ':':
			fprintf(stderr, "ijvm-dis: option %s needs a value\n%s",
			    argv[optind - 1], usage);
			return 2;
		default:
			fprintf(stderr, "ijvm-dis: unknown option '%s'\n%s",
			    argv[optind - 1], usage);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ijvm-dis: %s\n%s", optind == argc ?
		    "no input file given" : "give exactly one input file",
		    usage);
		return 2;
	}
	ijvm_opset_init(&set);
	if (config != NULL) {
		uint8_t *ctext;
		size_t clen;

		if (read_file(config, &ctext, &clen, &cause) != 0 ||
		    ijvm_opset_load_config(&set, config, (const char *)ctext,
		    clen, &cause) != 0) {
			fprintf(stderr, "ijvm-dis: %s\n", cause);
			free(cause);
			ijvm_opset_free(&set);
			return 2;
		}
		free(ctext);
	}
	if (read_file(argv[optind], &data, &len, &cause) != 0) {
		fprintf(stderr, "ijvm-dis: %s\n", cause);
		free(cause);
		ijvm_opset_free(&set);
		return 2;
	}
	rc = program_load_ijvm(&prog, argv[optind], data, len, &cause);
	free(data);
	if (rc != 0) {
		fprintf(stderr, "ijvm-dis: %s\n", cause);
		free(cause);
		ijvm_opset_free(&set);
		return 2;
	}
	if (dis_program(&prog, &set, &text, &cause) != 0) {
		fprintf(stderr, "ijvm-dis: %s: %s\n", argv[optind], cause);
		free(cause);
		rc = 1;
	} else if (write_file(out, text.data, text.len, &cause) != 0) {
		fprintf(stderr, "ijvm-dis: %s\n", cause);
		free(cause);
		rc = 2;
	}
	buf_free(&text);
	program_free(&prog);
	ijvm_opset_free(&set);
	return rc;
}

int
main(int argc, char **argv)
{
	return stdout_done("ijvm-dis", tool_main(argc, argv));
}
