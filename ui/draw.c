/*
 * The frame around the panes: windows per layout rectangle, the title
 * rows, the status bar, the message line and the command line, colours
 * by role, and draw_all(), the one place that writes to the terminal.
 *
 * Drawing only reads the model (struct tui, the session's machine) and
 * acts on redraw flags set anywhere: each dirty pane is erased, drawn and
 * queued with wnoutrefresh, then one doupdate() sends the difference;
 * the command line goes last so that the terminal's cursor ends at the
 * readline point.  During a run draw_all is called about every 70 ms
 * by the main loop, which is how the warps pane refreshes >= 10 times a
 * second without drawing faster than a terminal can show.
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

#include "session.h"
#include "tui.h"

const char class_glyph[CLASS_COUNT] = { '#', '.', '!', 'w', 'B' };
const char *const class_word[CLASS_COUNT] = { "run", "halt", "fault",
    "wait", "break" };

const struct pane_ops *const pane_table[PANE_COUNT] = {
	[PANE_CODE] = &pane_code_ops,
	[PANE_CORES] = &pane_cores_ops,
	[PANE_WARPS] = &pane_warps_ops,
	[PANE_REGS] = &pane_regs_ops,
	[PANE_STACK] = &pane_stack_ops,
	[PANE_OUTPUT] = &pane_output_ops,
	[PANE_LOG] = &pane_log_ops,
	[PANE_DATAPATH] = &pane_datapath_ops,
	[PANE_MICRO] = &pane_micro_ops,
};

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
	    COLOR_RED, COLOR_YELLOW, COLOR_MAGENTA };
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

/* --- windows ------------------------------------------------------------ */

void
draw_free_windows(struct tui *t)
{
	for (int i = 0; i < PANE_COUNT; i++) {
		if (t->win[i] != NULL)
			delwin((WINDOW *)t->win[i]);
		t->win[i] = NULL;
	}
	if (t->wstatus != NULL)
		delwin((WINDOW *)t->wstatus);
	if (t->wmsg != NULL)
		delwin((WINDOW *)t->wmsg);
	if (t->wcmd != NULL)
		delwin((WINDOW *)t->wcmd);
	t->wstatus = t->wmsg = t->wcmd = NULL;
}

static void *
make_win(const struct rect *r)
{
	WINDOW *w;

	if (r->h <= 0 || r->w <= 0)
		return NULL;
	if ((w = newwin(r->h, r->w, r->y, r->x)) != NULL)
		leaveok(w, TRUE);
	return w;
}

static void
relayout(struct tui *t)
{
	draw_free_windows(t);
	layout_compute(t->layout, t->rows, t->cols, &t->lay);
	for (int i = 0; i < PANE_COUNT; i++)
		if (!t->lay.too_small)
			t->win[i] = make_win(&t->lay.pane[i]);
	t->wstatus = make_win(&t->lay.status);
	t->wmsg = make_win(&t->lay.msg);
	t->wcmd = make_win(&t->lay.cmd);
	if (t->wcmd != NULL)
		leaveok((WINDOW *)t->wcmd, FALSE);
	/* a pane the layout hides cannot keep the focus (a terminal too
	 * small for any pane keeps it, for when it grows again) */
	if (!t->lay.too_small && t->win[t->focus] == NULL)
		t->focus = PANE_LOG;
}

/* --- the frame ------------------------------------------------------------ */

static void
draw_title(struct tui *t, enum pane_id id, WINDOW *w, int width)
{
	const struct pane_ops *ops = pane_table[id];
	int focused = t->focus == id;
	unsigned long attr = draw_attr(t, focused ? ROLE_TITLE_FOCUS :
	    ROLE_TITLE);
	char text[512];

	text[0] = '\0';
	if (ops->caption != NULL)
		ops->caption(t, text, sizeof text);
	wattrset(w, (attr_t)attr);
	mvwhline(w, 0, 0, ' ', width);
	wattrset(w, A_NORMAL);
	/* the marker reads without colour: "> Code" is the focused pane */
	draw_textf(w, 0, 0, width, attr, "%s%s%s%s", focused ? "> " : "  ",
	    ops->title, text[0] ? "  " : "", text);
}

static void
human_rate(double r, char *text, size_t size)
{
	if (r >= 1e9)
		snprintf(text, size, "%.2fG", r / 1e9);
	else if (r >= 1e6)
		snprintf(text, size, "%.2fM", r / 1e6);
	else if (r >= 1e4)
		snprintf(text, size, "%.1fk", r / 1e3);
	else
		snprintf(text, size, "%.0f", r);
}

static void
draw_status(struct tui *t)
{
	WINDOW *w = t->wstatus;
	const struct machine *m = tui_machine(t);
	const struct census_totals *c = &t->totals;
	unsigned long attr = draw_attr(t, ROLE_STATUS);
	char text[512], rate[32];
	size_t n;

	if (w == NULL)
		return;
	wattrset(w, (attr_t)attr);
	mvwhline(w, 0, 0, ' ', t->cols);
	n = (size_t)snprintf(text, sizeof text, " micdb  %s  %u core%s W=%u "
	    "%s level %s  step %llu | ", t->title, m->cfg.ncores,
	    m->cfg.ncores == 1 ? "" : "s", m->cfg.warp_width, t->engine_name,
	    level_name(tui_level(t)), (unsigned long long)m->step);
	if (n >= sizeof text)
		n = sizeof text - 1;
	if (t->running) {
		human_rate(t->rate, rate, sizeof rate);
		snprintf(text + n, sizeof text - n, "RUNNING %s steps/s  %u "
		    "running %u halted | any key stops", rate,
		    c->byclass[CLASS_RUNNING] + c->byclass[CLASS_BREAK],
		    c->byclass[CLASS_HALTED]);
	} else
		snprintf(text + n, sizeof text - n, "stopped: %u running %u "
		    "halted %u faulted %u waiting | layout %s",
		    c->byclass[CLASS_RUNNING] + c->byclass[CLASS_BREAK],
		    c->byclass[CLASS_HALTED], c->byclass[CLASS_FAULTED],
		    c->byclass[CLASS_WAITING], layout_name(t->layout));
	if (t->lay.too_small)
		snprintf(text, sizeof text, " terminal too small: %dx%d at "
		    "least", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	draw_text(w, 0, 0, t->cols, attr, text);
	wnoutrefresh(w);
}

static void
draw_msg(struct tui *t)
{
	WINDOW *w = t->wmsg;

	if (w == NULL)
		return;
	werase(w);
	if (t->msg[0] != '\0')
		draw_text(w, 0, 0, t->cols, draw_attr(t, t->msg_error ?
		    ROLE_ERROR : ROLE_NORMAL), t->msg);
	else if (t->focus == PANE_LOG)
		draw_text(w, 0, 0, t->cols, draw_attr(t, ROLE_DIM),
		    "F5 continue  F7 step  F8 next  F6 stepi  F2 break  "
		    "Tab/empty line: next pane  Up/Down: history  help");
	else
		draw_text(w, 0, 0, t->cols, draw_attr(t, ROLE_DIM),
		    "c/F5 cont  s/F7 step  n/F8 next  i/F6 stepi  F2 break  "
		    "Tab pane  [ ] core  { } warp  F4 colour  : or space: "
		    "type a command");
	wnoutrefresh(w);
}

static void
draw_cmd(struct tui *t)
{
	WINDOW *w = t->wcmd;
	const char *prompt, *line;
	int point, end, plen, width = t->cols, col, off = 0;

	if (w == NULL)
		return;
	werase(w);
	if (t->running) {
		draw_text(w, 0, 0, width, draw_attr(t, ROLE_DIM),
		    "(running: press any key or Ctrl-C to stop)");
		wmove(w, 0, 0);
		wnoutrefresh(w);
		return;
	}
	term_rl_state(&prompt, &line, &point, &end);
	plen = (int)strlen(prompt);
	col = plen + point;
	/* scroll sideways so that the cursor stays on screen */
	if (col >= width - 1)
		off = col - (width - 1) + width / 4;
	if (off < plen) {
		draw_text(w, 0, 0, width, draw_attr(t, ROLE_PC),
		    prompt + off);
		mvwaddnstr(w, 0, plen - off, line, width - (plen - off));
	} else if (off - plen < end)
		mvwaddnstr(w, 0, 0, line + (off - plen), width);
	wmove(w, 0, col - off);
	wnoutrefresh(w);
}

void
draw_all(struct tui *t)
{
	const struct machine *m = tui_machine(t);
	unsigned dirty = t->dirty;

	if (dirty & DIRTY_LAYOUT) {
		relayout(t);
		dirty = DIRTY_ALL;
	}
	if (dirty & DIRTY_CLEAR)
		clearok(curscr, TRUE);
	if (dirty & (DIRTY_STATUS | DIRTY_PANE(PANE_CORES) |
	    DIRTY_PANE(PANE_WARPS)))
		census_totals(m, &t->bps.map, &t->totals);
	for (int i = 0; i < PANE_COUNT; i++) {
		WINDOW *w = t->win[i];
		int h, width;

		if (w == NULL || !(dirty & DIRTY_PANE(i)))
			continue;
		getmaxyx(w, h, width);
		werase(w);
		/* contents first: a caption may use what drawing computed
		 * (the grid's cells per group) */
		if (h > 1 && pane_table[i]->draw != NULL)
			pane_table[i]->draw(t, w, h, width);
		draw_title(t, (enum pane_id)i, w, width);
		wnoutrefresh(w);
	}
	if (dirty & DIRTY_STATUS)
		draw_status(t);
	if (dirty & DIRTY_MSG)
		draw_msg(t);
	/* last: the terminal's cursor stays on the command line */
	draw_cmd(t);
	doupdate();
	t->dirty = 0;
}
