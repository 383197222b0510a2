/*
 * The cores' console output cut into lines, as micdb run prints it
 * ("[core N] text"): each core's bytes are kept until its newline comes,
 * so that a core's line is never split by another core's.  The front ends
 * that print core output line by line (src/batch, src/dap) share this;
 * where a line goes is theirs (a callback).
 */
#ifndef MICDB_CORELINES_H
#define MICDB_CORELINES_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* One whole line of a core, without its newline. */
typedef void (*core_line_fn)(void *arg, uint32_t core, const uint8_t *text,
    size_t len);

struct core_lines {
	struct buf	*pending;   /* per core: a line not finished */
	uint32_t	 ncores;
};

void	core_lines_init(struct core_lines *cl, uint32_t ncores);
void	core_lines_free(struct core_lines *cl);
/* Bytes core wrote: every line they finish goes to fn. */
void	core_lines_put(struct core_lines *cl, uint32_t core,
	    const uint8_t *data, size_t len, core_line_fn fn, void *arg);
/* The unfinished lines, in core order, as lines (at the end). */
void	core_lines_flush(struct core_lines *cl, core_line_fn fn, void *arg);

#endif
