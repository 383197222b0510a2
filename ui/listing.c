/*
 * The listing panes' shared moves and marks: the code pane (pane-code.c)
 * and the microcode pane (pane-micro.c) scroll, page and mark their rows
 * the same way, so both call these.  Apart from both panes, so that
 * neither pane calls the other.
 */
#include <stdint.h>

#include <curses.h>

#include "pane.h"
#include "tui.h"

void
listing_scroll(struct code_state *c, size_t rows, size_t total)
{
	if (c->cursor >= total)
		c->cursor = total ? total - 1 : 0;
	if (c->cursor < c->top || c->cursor >= c->top + rows)
		c->top = c->cursor > rows / 3 ? c->cursor - rows / 3 : 0;
	if (c->top + rows > total)
		c->top = total > rows ? total - rows : 0;
}

int
listing_key(struct code_state *c, size_t page_rows, int key)
{
	size_t page = page_rows > 1 ? page_rows - 1 : 1;

	switch (key) {
	case KEY_UP:
		if (c->cursor > 0)
			c->cursor--;
		break;
	case KEY_DOWN:
		c->cursor++;	/* clamped when drawn */
		break;
	case KEY_PPAGE:
		c->cursor = c->cursor > page ? c->cursor - page : 0;
		break;
	case KEY_NPAGE:
		c->cursor += page;
		break;
	case KEY_HOME:
		c->cursor = 0;
		break;
	case KEY_END:
		c->cursor = SIZE_MAX / 2;
		break;
	default:
		return 0;
	}
	c->follow = 0;
	return 1;
}

unsigned long
listing_row_start(struct tui *t, void *vwin, int y, int w, int cur)
{
	WINDOW *win = vwin;
	unsigned long base = cur ? draw_attr(t, ROLE_CURSOR) : 0;

	if (cur) {
		wattrset(win, (attr_t)base);
		mvwhline(win, y, 0, ' ', w);
		wattrset(win, A_NORMAL);
	}
	return base;
}

void
listing_row_marks(struct tui *t, void *win, int y, int w, unsigned long base,
    const char *mark, int at)
{
	if (mark != NULL)
		draw_text(win, y, 0, w, base | draw_attr(t, ROLE_BREAK), mark);
	if (at)
		draw_text(win, y, 1, w, base | draw_attr(t, ROLE_PC), ">");
}
