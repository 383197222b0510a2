/*
 * Core output cut into lines (corelines.h).  Moved here from the batch
 * front end when the DAP front end needed the same cut.
 */
#include <stdlib.h>
#include <string.h>

#include "corelines.h"

void
core_lines_init(struct core_lines *cl, uint32_t ncores)
{
	cl->pending = xcalloc(ncores, sizeof *cl->pending);
	cl->ncores = ncores;
}

void
core_lines_free(struct core_lines *cl)
{
	for (uint32_t c = 0; cl->pending != NULL && c < cl->ncores; c++)
		buf_free(&cl->pending[c]);
	free(cl->pending);
	cl->pending = NULL;
	cl->ncores = 0;
}

void
core_lines_put(struct core_lines *cl, uint32_t core, const uint8_t *data,
    size_t len, core_line_fn fn, void *arg)
{
	struct buf *b = &cl->pending[core];
	size_t start = 0;

	buf_put(b, data, len);
	for (size_t i = 0; i < b->len; i++)
		if (b->data[i] == '\n') {
			fn(arg, core, b->data + start, i - start);
			start = i + 1;
		}
	memmove(b->data, b->data + start, b->len - start);
	b->len -= start;
}

void
core_lines_flush(struct core_lines *cl, core_line_fn fn, void *arg)
{
	for (uint32_t c = 0; cl->pending != NULL && c < cl->ncores; c++)
		if (cl->pending[c].len > 0) {
			fn(arg, c, cl->pending[c].data, cl->pending[c].len);
			cl->pending[c].len = 0;
		}
}
