/*
 * Title rows and the status bar (title.c, pure): fields with priorities,
 * dropped whole when they do not fit.
 */
#ifndef MICDB_UI_TITLE_H
#define MICDB_UI_TITLE_H

#include <stddef.h>
#include "util.h"

/* --- titles (title.c, pure) ------------------------------------------- */

/* Field priorities: the lowest is dropped first. */
enum { TP_LOW = 10, TP_MID = 50, TP_HIGH = 80, TP_NAME = 100 };
#define TITLE_FIELDS 16
struct title {
	int		 n;
	struct {
		int	 prio;
		char	 text[192];
		char	 alt[96];   /* shorter form, tried before dropping */
	}		 f[TITLE_FIELDS];
};
void	 title_init(struct title *tt);
/* Add a field (an empty one is not added). */
void	 title_add(struct title *tt, int prio, const char *fmt, ...)
	    PRINTFLIKE(3, 4);
/* One line of text in width columns: whole, or cut at a blank and ended
 * with "..." (never inside a word or a number), or nothing. */
size_t	 title_clip(const char *s, int width, char *out, size_t size);
/* A shorter form of the last field added ("" : none). */
void	 title_alt(struct title *tt, const char *fmt, ...) PRINTFLIKE(2, 3);
/* The fields that fit in width columns, two blanks apart, in the order
 * added (a field with a shorter form takes it before it is dropped);
 * returns the length of out. */
size_t	 title_fit(const struct title *tt, int width, char *out,
	    size_t size);
#endif
