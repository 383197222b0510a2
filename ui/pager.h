/*
 * The help pager over the panes (pager.c).
 */
#ifndef MICDB_UI_PAGER_H
#define MICDB_UI_PAGER_H

#include <stddef.h>

struct tui;

/* --- pager.c: help over the panes ----------------------------------- */

/* Open the pager on text (lines split at newlines), titled title. */
void	 pager_open(struct tui *t, const char *title, const char *text,
	    size_t len);
void	 pager_close(struct tui *t);
/* A key while the pager is open: 1 if it took it (every key but a
 * resize while open), 0 when closed. */
int	 pager_key(struct tui *t, int key);
/* Draw it over the panes (draw.c, when open). */
void	 pager_draw(struct tui *t);
#endif
