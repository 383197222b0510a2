/*
 * What every pane draws with: colours and attributes by role, the glyphs
 * of core classes and opcode classes, and text clipped or wrapped to a
 * window.  Split from the frame (draw.c), which calls the panes, so that
 * the panes call down to this file and never back up into draw.c.
 *
 * Without colour every role still reads: titles and the focused pane are
 * reverse video, changed values bold and underlined, the grid and lane
 * glyphs carry the status on their own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "census.h"
#include "lines.h"
#include "pane.h"
#include "tui.h"

const char class_glyph[CLASS_COUNT] = { '#', '.', '!', 'w', 'B', 'f', 'j' };

/* One letter per opcode class (enum ijvm_opclass order). */
char
opclass_glyph(int opclass)
{
	static const char g[] = "mplsabcgwrkixu";

	return opclass >= 0 && opclass < (int)sizeof g - 1 ? g[opclass] : '?';
}

/* --- colours -------------------------------------------------------- */

enum {
	PAIR_TITLE = 1, PAIR_TITLE_FOCUS, PAIR_STATUS, PAIR_ERROR,
	PAIR_CHANGED, PAIR_PC, PAIR_BREAK, PAIR_LABEL, PAIR_ACTIVE, PAIR_CLASS,
	PAIR_PATH = PAIR_CLASS + CLASS_COUNT,
	PAIR_COUNT = PAIR_PATH + 8
};

void
draw_setup_colours(struct tui *t)
{
	static const short cls[CLASS_COUNT] = { COLOR_GREEN, COLOR_BLUE,
	    COLOR_RED, COLOR_YELLOW, COLOR_MAGENTA, COLOR_CYAN, COLOR_WHITE };
	static const short path[8] = { COLOR_GREEN, COLOR_YELLOW, COLOR_CYAN,
	    COLOR_MAGENTA, COLOR_RED, COLOR_BLUE, COLOR_WHITE, COLOR_GREEN };
	short bg = -1;

	t->colour = 0;
	if (!has_colors() || getenv("NO_COLOR") != NULL || COLORS < 8 ||
	    COLOR_PAIRS < PAIR_COUNT)
		return;
	start_color();
	if (use_default_colors() != OK)
		bg = COLOR_BLACK;
	init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_TITLE_FOCUS, COLOR_BLACK, COLOR_YELLOW);
	init_pair(PAIR_STATUS, COLOR_WHITE, COLOR_BLUE);
	init_pair(PAIR_ERROR, COLOR_RED, bg);
	init_pair(PAIR_CHANGED, COLOR_YELLOW, bg);
	init_pair(PAIR_PC, COLOR_GREEN, bg);
	init_pair(PAIR_BREAK, COLOR_RED, bg);
	init_pair(PAIR_LABEL, COLOR_CYAN, bg);
	init_pair(PAIR_ACTIVE, COLOR_BLACK, COLOR_GREEN);
	for (int i = 0; i < CLASS_COUNT; i++)
		init_pair((short)(PAIR_CLASS + i), cls[i], bg);
	for (int i = 0; i < 8; i++)
		init_pair((short)(PAIR_PATH + i), path[i], bg);
	t->colour = 1;
}

unsigned long
draw_attr(const struct tui *t, int role)
{
	if (!t->colour) {
		switch (role) {
		case ROLE_TITLE: case ROLE_STATUS: case ROLE_CURSOR:
			return A_REVERSE;
		case ROLE_TITLE_FOCUS:
			return A_REVERSE | A_BOLD;
		case ROLE_ERROR: case ROLE_PC: case ROLE_BREAK:
			return A_BOLD;
		case ROLE_CHANGED:
			return A_BOLD | A_UNDERLINE;
		case ROLE_DIM:
			return A_DIM;
		case ROLE_ACTIVE:
			return A_REVERSE | A_BOLD;
		case ROLE_CLASS + CLASS_FAULTED:
		case ROLE_CLASS + CLASS_BREAK:
			return A_BOLD;
		case ROLE_CLASS + CLASS_HALTED:
			return A_DIM;
		default:
			return A_NORMAL;
		}
	}
	switch (role) {
	case ROLE_TITLE:	return COLOR_PAIR(PAIR_TITLE);
	case ROLE_TITLE_FOCUS:	return COLOR_PAIR(PAIR_TITLE_FOCUS) | A_BOLD;
	case ROLE_STATUS:	return COLOR_PAIR(PAIR_STATUS) | A_BOLD;
	case ROLE_ERROR:	return COLOR_PAIR(PAIR_ERROR) | A_BOLD;
	case ROLE_CHANGED:	return COLOR_PAIR(PAIR_CHANGED) | A_BOLD;
	case ROLE_PC:		return COLOR_PAIR(PAIR_PC) | A_BOLD;
	case ROLE_BREAK:	return COLOR_PAIR(PAIR_BREAK) | A_BOLD;
	case ROLE_CURSOR:	return A_REVERSE;
	case ROLE_DIM:		return A_DIM;
	case ROLE_LABEL:	return COLOR_PAIR(PAIR_LABEL);
	case ROLE_ACTIVE:	return COLOR_PAIR(PAIR_ACTIVE) | A_BOLD;
	default:
		break;
	}
	if (role >= ROLE_CLASS && role < ROLE_CLASS + CLASS_COUNT)
		return COLOR_PAIR(PAIR_CLASS + role - ROLE_CLASS) |
		    (role == ROLE_CLASS + CLASS_BREAK ? A_BOLD : 0);
	if (role >= ROLE_PATH && role < ROLE_PATH + 8)
		return COLOR_PAIR(PAIR_PATH + role - ROLE_PATH);
	return A_NORMAL;
}

/* --- text helpers ------------------------------------------------------ */

int
draw_text(void *win, int y, int x, int w, unsigned long attr,
    const char *text)
{
	int n = (int)strlen(text);

	if (x >= w || y < 0)
		return 0;
	if (n > w - x)
		n = w - x;
	if (n <= 0)
		return 0;
	wattrset((WINDOW *)win, (attr_t)attr);
	mvwaddnstr((WINDOW *)win, y, x, text, n);
	wattrset((WINDOW *)win, A_NORMAL);
	return n;
}

int
draw_textf(void *win, int y, int x, int w, unsigned long attr,
    const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	return draw_text(win, y, x, w, attr, text);
}

static size_t
rows_of(const char *s, int w)
{
	size_t n = strlen(s);

	return n == 0 ? 1 : (n + (size_t)w - 1) / (size_t)w;
}

size_t
draw_wrapped(void *win, int y0, int h, int w, const struct lines *l,
    size_t scroll, unsigned long attr)
{
	size_t r = 0, total = 0;

	if (w <= 0)
		return 0;
	for (size_t i = 0; i < l->n; i++)
		total += rows_of(l->v[i], w);
	for (size_t i = l->n; i-- > 0 && h > 0;) {
		const char *s = l->v[i];
		size_t nr = rows_of(s, w), len = strlen(s);

		for (size_t k = nr; k-- > 0;) {
			if (r >= scroll && r - scroll < (size_t)h) {
				int y = y0 + h - 1 - (int)(r - scroll);
				size_t off = k * (size_t)w;
				int n = (int)(len - off < (size_t)w ? len - off :
				    (size_t)w);

				wattrset((WINDOW *)win, (attr_t)attr);
				if (n > 0)
					mvwaddnstr((WINDOW *)win, y, 0, s + off,
					    n);
				wattrset((WINDOW *)win, A_NORMAL);
			}
			r++;
		}
		if (r >= scroll + (size_t)h)
			break;
	}
	return total;
}
