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

#include "mal.h"
#include "util.h"

struct ucode_cli {
	const char	*prog;      /* the name messages start with */
	const char	*usage;     /* the --help text */
	const char	*in_ext;    /* ".mal": replaced by out_ext ... */
	const char	*out_ext;   /* ... to name the default output */
	int		 listing_optional; /* -l[FILE]: no FILE is "-" */
};

struct ucode_cli_args {
	const char	*in, *out, *listing, *symbols; /* NULL: not given */
};

/* Parse argv into a and read the input into *src (*len bytes, the
 * caller frees it): -1 to go on, else the exit status to return now (0
 * after --help, 2 after a usage error, 1 after an input that cannot be
 * read, each printed). */
int	ucode_cli_start(const struct ucode_cli *cli, int argc, char **argv,
	    struct ucode_cli_args *a, uint8_t **src, size_t *len);
/* The source did not translate: print every error and the count, free
 * errs.  Returns 1, the exit status. */
int	ucode_cli_fail(const struct ucode_cli *cli, struct mal_errors *errs);
/* Write store to the output (a->out, or the default name), then listing
 * and the symbol file of syms where a asks for them, stopping at the
 * first that cannot be written; store, listing and syms are freed.
 * Returns the exit status. */
int	ucode_cli_write(const struct ucode_cli *cli,
	    const struct ucode_cli_args *a, struct buf *store,
	    struct buf *listing, struct mal_syms *syms);

#endif
