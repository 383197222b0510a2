/*
 * The message line under the panes: one line of note or error, the
 * error also kept in the command window's log.  Below everything that
 * tells the user something (tui.c, the screen's commands, the panes),
 * so that none of them calls up into tui.c to say it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "lines.h"
#include "message.h"
#include "tui.h"

void
tui_message(struct tui *t, int error, const char *fmt, ...)
{
	va_list ap;
	char *nl;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof t->msg, fmt, ap);
	va_end(ap);
	if ((nl = strchr(t->msg, '\n')) != NULL)
		*nl = '\0';
	t->msg_error = error;
	if (error) {
		lines_addf(&t->log, "error: %s", t->msg);
		t->log_scroll = 0;
		t->dirty |= DIRTY_PANE(PANE_LOG);
	}
	t->dirty |= DIRTY_MSG;
}
