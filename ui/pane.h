/*
 * The pane interface: a small vtable per pane (pane-*.c), the frame
 * around them (draw.c), what they draw with (paint.c) and the commands
 * F2 asks the code and microcode panes for.
 */
#ifndef MICDB_UI_PANE_H
#define MICDB_UI_PANE_H

#include <stddef.h>
#include "census.h"
#include "layout.h"
#include "lines.h"
#include "title.h"
#include "util.h"

struct tui;

/* --- panes (pane-*.c) and the frame (draw.c) -------------------------- */

struct pane_ops {
	const char	*name;       /* for focus and layout */
	const char	*title;
	/* The fields after the title on the title row ("core 12", ...),
	 * with priorities: a narrow pane drops the least important. */
	void		(*caption)(struct tui *t, struct title *tt);
	/* Contents below the title row (win is a WINDOW *). */
	void		(*draw)(struct tui *t, void *win, int h, int w);
	/* Arrow/page keys while the pane has the focus; 1 if used.  A
	 * key that moves the focus or sets a breakpoint writes the
	 * command line it wants into cmd (size bytes, "" on entry), and
	 * tui.c runs it as if typed: a pane never calls up into the
	 * screen that drives it. */
	int		(*key)(struct tui *t, int key, char *cmd,
			    size_t size);
	/* NULL, or why the pane cannot be shown in this build. */
	const char	*(*unavailable)(const struct tui *t);
};
extern const struct pane_ops *const pane_table[PANE_COUNT];

extern const struct pane_ops pane_code_ops, pane_cores_ops,
    pane_warps_ops, pane_regs_ops, pane_stack_ops, pane_output_ops,
    pane_log_ops, pane_datapath_ops, pane_micro_ops;

/* Colours and attributes by role (paint.c, below the panes). */
enum role {
	ROLE_NORMAL, ROLE_TITLE, ROLE_TITLE_FOCUS, ROLE_STATUS, ROLE_ERROR,
	ROLE_CHANGED, ROLE_PC, ROLE_BREAK, ROLE_CURSOR, ROLE_DIM, ROLE_LABEL,
	ROLE_ACTIVE,     /* what the current micro-instruction uses */
	ROLE_CLASS,      /* + enum core_class */
	ROLE_PATH = ROLE_CLASS + CLASS_COUNT,   /* + path index 0..7 */
	ROLE_COUNT = ROLE_PATH + 8
};
void	 draw_setup_colours(struct tui *t);
/* Curses attributes of a role (an attr_t). */
unsigned long draw_attr(const struct tui *t, int role);
/* Write text clipped to the window width at (y, x); returns columns. */
int	 draw_text(void *win, int y, int x, int w, unsigned long attr,
	    const char *text);
int	 draw_textf(void *win, int y, int x, int w, unsigned long attr,
	    const char *fmt, ...) PRINTFLIKE(6, 7);
/* Wrapped tail of lines (the log, the output pane): rows scrolled back
 * by scroll; returns rows the text needs. */
size_t	 draw_wrapped(void *win, int y0, int h, int w, const struct lines *l,
	    size_t scroll, unsigned long attr);
/* The frame (draw.c): every dirty pane, then the terminal. */
void	 draw_all(struct tui *t);
void	 draw_free_windows(struct tui *t);
/* Per-pane glyphs shared by panes and the legend lines. */
extern const char class_glyph[CLASS_COUNT];
char	 opclass_glyph(int opclass);

/* --- pane-code.c, pane-micro.c: F2 ------------------------------------ */

/* The longest command a pane's key asks for. */
#define PANE_CMD_MAX	64
/* F2: the command that toggles a breakpoint at the code pane's cursor
 * (pane-code.c), into line; "" when there is none. */
void	 code_break_command(struct tui *t, char *line, size_t size);
/* F2 in the microcode pane: the command for an MPC breakpoint at its
 * cursor, into line; NULL, or why there is none (an error to show). */
const char *micro_break_command(struct tui *t, char *line, size_t size);
#endif
