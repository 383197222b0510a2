/*
 * The command line both microcode translators share (mic1-as, pmic-cc):
 * FILE [-o OUT] [-l LISTING] [-s SYMBOLS], their usage errors, the error
 * report of a source that does not translate, and the writing of the
 * store, the listing and the symbol file.  Exit statuses: 0 success, 1
 * source errors or an output that cannot be written, 2 bad usage.
 */
#ifndef MICDB_UCODE_CLI_H
#define MICDB_UCODE_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "microcode.h"
#include "util.h"

struct ucode_cli {
	const char	*prog;      /* the name messages start with */
	const char	*usage;     /* the --help text */
	const char	*in_ext;    /* ".mal": replaced by out_ext ... */
	const char	*out_ext;   /* ... to name the default output */
	int		 listing_optional; /* -l[FILE]: no FILE is "-" */
	enum level	 level;     /* microcode_translate's */
};

struct ucode_cli_args {
	const char	*in, *out, *listing, *symbols; /* NULL: not given */
};

/* Each translator's file defines its command line; ucode-cli.c's main
 * parses argv, reads the input, translates it (microcode_translate) and
 * writes the store, the listing and the symbol file as asked. */
extern const struct ucode_cli ucode_tool;

#endif
