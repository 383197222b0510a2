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
	/* The translator: src (len bytes, read from path) into the store's
	 * bytes, the listing too when listing is not NULL, and syms; 0, or
	 * -1 with errs (the caller prints and frees them). */
	int		(*translate)(const char *path, const char *src,
			    size_t len, struct buf *store, struct buf *listing,
			    struct mal_syms *syms, struct mal_errors *errs);
};

struct ucode_cli_args {
	const char	*in, *out, *listing, *symbols; /* NULL: not given */
};

/* The whole command: parse argv, read the input, translate it and write
 * the store, the listing and the symbol file as asked.  Returns the exit
 * status, every error printed. */
int	ucode_cli_main(const struct ucode_cli *cli, int argc, char **argv);

#endif
