/*
 * The message line under the panes (message.c).
 */
#ifndef MICDB_UI_MESSAGE_H
#define MICDB_UI_MESSAGE_H

#include "util.h"

struct tui;

/* --- message.c: the message line ------------------------------------- */

/* Show a note (error 0) or an error (1, also logged) at the message
 * line: one line, the text up to its first newline. */
void	 tui_message(struct tui *t, int error, const char *fmt, ...)
	    PRINTFLIKE(3, 4);
#endif
