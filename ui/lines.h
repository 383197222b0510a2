/*
 * A bounded list of text lines (lines.c): the command window's
 * transcript and the stack pane's frames.
 */
#ifndef MICDB_UI_LINES_H
#define MICDB_UI_LINES_H

#include <stddef.h>
#include "util.h"

/* --- text lines (the log, the stack pane) ----------------------------- */

struct lines {
	char		**v;
	size_t		  n;
	size_t		  cap;
	size_t		  max;      /* oldest lines are dropped beyond it */
};
void	 lines_add(struct lines *l, const char *text, size_t len);
void	 lines_addf(struct lines *l, const char *fmt, ...) PRINTFLIKE(2, 3);
void	 lines_clear(struct lines *l);
void	 lines_free(struct lines *l);
/* The first line at or after from (then from the top) that contains pat,
 * ignoring case; returns its index + 1, 0 if none (the pager's search). */
size_t	 lines_find(const struct lines *l, const char *pat, size_t from);
#endif
