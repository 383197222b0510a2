/*
 * The screen's own commands (cmd-screen.c), a table like the session's.
 */
#ifndef MICDB_UI_SCREEN_H
#define MICDB_UI_SCREEN_H

#include <stddef.h>

struct tui;

/* --- cmd-screen.c: the screen's own commands -------------------------- */

/* One command of the screen, tmux's cmd_entry style. */
struct screen_cmd {
	const struct cmd_screen_name *id;  /* its name and alias */
	const char	*usage;
	const char	*help;      /* one line for help's list (a long one
				       wraps at \n) */
	/* word: the command word as typed; arg: the rest, blanks skipped */
	void		(*exec)(struct tui *t, const char *word,
			    const char *arg);
};
/* The table, in help's order, ended by an entry with a NULL id. */
extern const struct screen_cmd screen_cmds[];
/* Run line if it is a screen command (or help for one); 1 if it was. */
int	 screen_command(struct tui *t, const char *line);
/* Does word name a one-word screen command (name or alias)? */
int	 screen_cmd_word(const char *word);
/* The screen's commands and keys, as help lists them, appended to out
 * (help shows it in the pager). */
struct buf;
void	 screen_help(struct tui *t, struct buf *out);
/* The focus to pane, or the next (dir 1) or previous (-1) pane shown. */
void	 screen_focus_pane(struct tui *t, int pane);
void	 screen_cycle_pane(struct tui *t, int dir);
#endif
