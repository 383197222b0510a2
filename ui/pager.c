/*
 * The help pager (doc/debugger.md section 3, "help"): `help` and `help
 * COMMAND` show their text over the panes, where it can be read whole,
 * instead of scrolling it through the command window three lines at a
 * time.  It is less(1) in small: q or Esc closes, Up/Down move a line,
 * PgUp/PgDn (and space, b) a page, Home/End the ends, `/` searches
 * (ignoring case) and n / N go to the next / previous match.
 *
 * While open it takes every key first, in the keys' order (tui.c's
 * key_stopped asks pager_key before anything else, for keys typed now
 * and keys kept during a run alike), so no key meant for it runs a
 * command; a
 * resize goes on to the frame, which lays out again and redraws the
 * pager at the new size.  The text is the one --batch prints for the
 * same command: the pager only shows it.
 */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "lines.h"
#include "pager.h"
#include "pane.h"
#include "title.h"
#include "tui.h"

#define KEY_ESC 27

void
pager_open(struct tui *t, const char *title, const char *text, size_t len)
{
	struct pager *p = &t->pager;

	lines_clear(&p->text);
	lines_add(&p->text, text, len);
	snprintf(p->title, sizeof p->title, "%s", title);
	p->open = 1;
	p->top = 0;
	p->typing = 0;
	p->hit = 0;
	p->note[0] = '\0';
	t->dirty |= DIRTY_ALL & ~DIRTY_LAYOUT;
}

void
pager_close(struct tui *t)
{
	struct pager *p = &t->pager;

	p->open = 0;
	p->typing = 0;
	lines_free(&p->text);
	/* the panes under it come back */
	t->dirty |= DIRTY_ALL & ~DIRTY_LAYOUT;
}

/* The rows the text gets: the body between the status bar and the
 * message line, less the pager's title and bottom rows. */
static size_t
pager_rows(const struct tui *t)
{
	int h = t->rows - 3 - 2;

	return h > 1 ? (size_t)h : 1;
}

static size_t
last_top(const struct pager *p, size_t rows)
{
	return p->text.n > rows ? p->text.n - rows : 0;
}

static void
search(struct tui *t, int dir)
{
	struct pager *p = &t->pager;
	size_t from, at;

	if (p->npat == 0) {
		snprintf(p->note, sizeof p->note, "no pattern yet: type / "
		    "and a word");
		return;
	}
	if (dir > 0)
		from = p->hit ? p->hit : p->top;
	else {
		/* backwards: the nearest line above the one shown that
		 * matches (a line i matches when the search from i finds i) */
		size_t cur = p->hit ? p->hit - 1 : p->top, n = p->text.n;

		from = cur;
		for (size_t k = 1; k <= n; k++) {
			size_t i = (cur + n - k) % n;

			if (lines_find(&p->text, p->pat, i) == i + 1) {
				from = i;
				break;
			}
		}
	}
	at = lines_find(&p->text, p->pat, from);
	if (at == 0) {
		snprintf(p->note, sizeof p->note, "pattern not found: %s",
		    p->pat);
		return;
	}
	if (dir > 0 && p->hit != 0 && at <= p->hit)
		snprintf(p->note, sizeof p->note, "search wrapped to the top");
	else
		p->note[0] = '\0';
	p->hit = at;
	p->top = at - 1;
	if (p->top > last_top(p, pager_rows(t)))
		p->top = last_top(p, pager_rows(t));
}

/* A key while a pattern is typed after '/'. */
static void
typing_key(struct tui *t, int key)
{
	struct pager *p = &t->pager;

	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		p->typing = 0;
		p->pat[p->npat] = '\0';
		p->hit = 0;
		search(t, 1);
	} else if (key == KEY_ESC || key == 7 /* C-g */) {
		p->typing = 0;
		p->note[0] = '\0';
	} else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (p->npat > 0)
			p->pat[--p->npat] = '\0';
		else
			p->typing = 0;
	} else if (key >= ' ' && key < 127 && p->npat + 1 < sizeof p->pat) {
		p->pat[p->npat++] = (char)key;
		p->pat[p->npat] = '\0';
	}
}

int
pager_key(struct tui *t, int key)
{
	struct pager *p = &t->pager;
	size_t rows = pager_rows(t), end = last_top(p, rows);

	if (!p->open || key == KEY_RESIZE)
		return 0;
	t->dirty |= DIRTY_CMD;
	if (p->typing) {
		typing_key(t, key);
		return 1;
	}
	p->note[0] = '\0';
	switch (key) {
	case 'q': case 'Q': case KEY_ESC:
		pager_close(t);
		return 1;
	case KEY_UP: case 'k': case 'y':
		p->top = p->top > 0 ? p->top - 1 : 0;
		break;
	case KEY_DOWN: case 'j': case '\n': case '\r': case KEY_ENTER:
		p->top = p->top < end ? p->top + 1 : end;
		break;
	case KEY_PPAGE: case 'b':
		p->top = p->top > rows ? p->top - rows : 0;
		break;
	case KEY_NPAGE: case ' ': case 'f':
		p->top = p->top + rows < end ? p->top + rows : end;
		break;
	case KEY_HOME: case 'g': case '<':
		p->top = 0;
		break;
	case KEY_END: case 'G': case '>':
		p->top = end;
		break;
	case '/':
		p->typing = 1;
		p->npat = 0;
		p->pat[0] = '\0';
		break;
	case 'n':
		search(t, 1);
		break;
	case 'N':
		search(t, -1);
		break;
	default:
		snprintf(p->note, sizeof p->note, "q or Esc closes the help; "
		    "PgUp/PgDn, arrows, Home/End scroll; / searches");
		break;
	}
	return 1;
}

void
pager_draw(struct tui *t)
{
	struct pager *p = &t->pager;
	size_t rows = pager_rows(t);
	int w = t->cols, h = (int)rows + 2;
	unsigned long tattr = draw_attr(t, ROLE_TITLE_FOCUS);
	struct title tt;
	char text[512];
	WINDOW *win;

	if (t->rows < 5 || w < 10)
		return;
	if ((win = newwin(h, w, 1, 0)) == NULL)
		return;
	if (p->top > last_top(p, rows))
		p->top = last_top(p, rows);
	title_init(&tt);
	title_add(&tt, TP_NAME, "> %s", p->title);
	title_add(&tt, TP_HIGH, "lines %zu-%zu of %zu", p->text.n ? p->top +
	    1 : 0, p->top + rows < p->text.n ? p->top + rows : p->text.n,
	    p->text.n);
	title_add(&tt, TP_MID, "q closes");
	title_add(&tt, TP_LOW, "/ searches, n next");
	title_fit(&tt, w, text, sizeof text);
	wattrset(win, (attr_t)tattr);
	mvwhline(win, 0, 0, ' ', w);
	wattrset(win, A_NORMAL);
	draw_text(win, 0, 0, w, tattr, text);
	for (size_t i = 0; i < rows && p->top + i < p->text.n; i++) {
		size_t li = p->top + i;

		draw_text(win, 1 + (int)i, 0, w, p->hit == li + 1 ?
		    draw_attr(t, ROLE_PC) : 0, p->text.v[li]);
	}
	if (p->typing)
		snprintf(text, sizeof text, "/%s", p->pat);
	else if (p->note[0] != '\0')
		snprintf(text, sizeof text, "%s", p->note);
	else
		snprintf(text, sizeof text, "%s", p->top >= last_top(p, rows) ?
		    "(END) q or Esc closes" : "-- more: PgDn, space; q or "
		    "Esc closes --");
	draw_text(win, h - 1, 0, w, draw_attr(t, p->typing ? ROLE_NORMAL :
	    ROLE_DIM), text);
	wnoutrefresh(win);
	delwin(win);
}
