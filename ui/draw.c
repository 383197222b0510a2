/*
 * The frame around the panes: windows per layout rectangle, the title
 * rows, the status bar, the message line and the command line, the pane
 * table, and draw_all(), the one place that writes to the terminal.
 * What the panes themselves draw with (colours by role, clipped text) is
 * paint.c's, below the panes.
 *
 * Drawing only reads the model (struct tui, the session's machine) and
 * acts on redraw flags set anywhere: each dirty pane is erased, drawn and
 * queued with wnoutrefresh, then one doupdate() sends the difference;
 * the command line goes last so that the terminal's cursor ends at the
 * readline point.  During a run draw_all is called about every 70 ms
 * by the main loop, which is how the warps pane refreshes >= 10 times a
 * second without drawing faster than a terminal can show.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "census.h"
#include "layout.h"
#include "pager.h"
#include "pane.h"
#include "session.h"
#include "term.h"
#include "title.h"
#include "tui.h"

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

/*
 * The title row: "> Code" (the marker reads without colour: the focused
 * pane) and the pane's caption fields, fitted by title.c so that a
 * narrow pane drops whole fields and never cuts a number.
 */
static void
draw_title(struct tui *t, enum pane_id id, WINDOW *w, int width)
{
	const struct pane_ops *ops = pane_table[id];
	int focused = t->focus == id;
	unsigned long attr = draw_attr(t, focused ? ROLE_TITLE_FOCUS :
	    ROLE_TITLE);
	struct title tt;
	char text[512];

	title_init(&tt);
	title_add(&tt, TP_NAME, "%s%s", focused ? "> " : "  ", ops->title);
	if (ops->caption != NULL)
		ops->caption(t, &tt);
	title_fit(&tt, width, text, sizeof text);
	wattrset(w, (attr_t)attr);
	mvwhline(w, 0, 0, ' ', width);
	wattrset(w, A_NORMAL);
	draw_text(w, 0, 0, width, attr, text);
}

/*
 * Columns of a pane's window that its title and contents may use: all
 * but the last when another pane sits to its right, which holds a
 * vertical rule, so that no pane's text ever touches its neighbour's
 * ("[asm" then "st running" would read as one word).  Panes draw only
 * inside the width they are given (paint.c clips every write to it).
 */
static int
pane_inner_width(const struct tui *t, enum pane_id id)
{
	const struct rect *r = &t->lay.pane[id];

	return r->x + r->w < t->cols && r->w > 1 ? r->w - 1 : r->w;
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

/*
 * The status bar, fitted as a title: the run state and its counts (the
 * cores pane's words, from census_counts_text: one count) and the step
 * go last to be dropped, the program and the layout first.
 */
static void
draw_status(struct tui *t)
{
	WINDOW *w = t->wstatus;
	const struct machine *m = tui_machine(t);
	const struct census_totals *c = &t->totals;
	unsigned long attr = draw_attr(t, ROLE_STATUS);
	char text[512], rate[32], counts[256];
	struct title tt;

	if (w == NULL)
		return;
	wattrset(w, (attr_t)attr);
	mvwhline(w, 0, 0, ' ', t->cols);
	title_init(&tt);
	if (t->lay.too_small) {
		title_add(&tt, TP_NAME, " terminal too small: %dx%d at least",
		    LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
		title_add(&tt, TP_LOW, "now %dx%d", t->cols, t->rows);
	} else {
		census_counts_text(c->byclass, counts, sizeof counts);
		title_add(&tt, TP_NAME, " micdb%s", t->key_mode == KEYS_PROMPT ?
		    "" : " (SingleKey)");
		title_add(&tt, TP_MID, "%s", t->title);
		title_add(&tt, TP_LOW, "%u core%s W=%u %s", m->cfg.ncores,
		    m->cfg.ncores == 1 ? "" : "s", m->cfg.warp_width,
		    t->engine_name);
		title_add(&tt, TP_MID, "level %s", level_name(tui_level(t)));
		title_add(&tt, TP_HIGH, "step %llu",
		    (unsigned long long)m->step);
		if (t->running) {
			human_rate(t->rate, rate, sizeof rate);
			title_add(&tt, TP_NAME, "RUNNING");
			title_add(&tt, TP_MID, "%s steps/s", rate);
			title_add(&tt, TP_HIGH, "%s", counts);
			title_add(&tt, TP_MID, "Ctrl-C or Esc stops");
		} else {
			title_add(&tt, TP_NAME, "stopped: %s", counts);
			title_add(&tt, TP_LOW, "layout %s",
			    layout_name(t->layout));
		}
	}
	title_fit(&tt, t->cols, text, sizeof text);
	draw_text(w, 0, 0, t->cols, attr, text);
	wnoutrefresh(w);
}

/*
 * Is the message already on screen as one of the transcript's last
 * lines (a stop report, an error: the command window shows them)?  Then
 * the message line says it a second time: show the keys instead.
 */
static int
msg_in_transcript(const struct tui *t)
{
	const struct rect *r = &t->lay.pane[PANE_LOG];
	size_t look, len = strlen(t->msg);

	if (t->win[PANE_LOG] == NULL || t->log_scroll != 0 || r->h < 2 ||
	    t->pager.open)
		return 0;
	look = (size_t)r->h - 1;
	for (size_t i = t->log.n; i-- > 0 && look-- > 0;) {
		const char *s = t->log.v[i];

		if (strncmp(s, "error: ", 7) == 0)
			s += 7;
		if (strlen(s) == len && memcmp(s, t->msg, len) == 0)
			return 1;
	}
	return 0;
}

static void
draw_msg(struct tui *t)
{
	WINDOW *w = t->wmsg;

	if (w == NULL)
		return;
	werase(w);
	if (t->pager.open)
		draw_text(w, 0, 0, t->cols, draw_attr(t, ROLE_DIM),
		    "help: q or Esc closes, PgUp/PgDn/arrows scroll, / "
		    "searches, n next match");
	else if (t->msg[0] != '\0' && !msg_in_transcript(t))
		draw_text(w, 0, 0, t->cols, draw_attr(t, t->msg_error ?
		    ROLE_ERROR : ROLE_NORMAL), t->msg);
	else if (t->key_mode == KEYS_SINGLE)
		draw_text(w, 0, 0, t->cols, draw_attr(t, ROLE_DIM),
		    "SingleKey: c cont  s step  S back  n next  i stepi  "
		    "[ ] core  { } warp  q leaves  other keys: a command");
	else if (t->key_mode == KEYS_ONE_COMMAND)
		draw_text(w, 0, 0, t->cols, draw_attr(t, ROLE_DIM),
		    "SingleKey: one command (Enter runs it, then single keys "
		    "again; Ctrl-C cancels, C-x s leaves the mode)");
	else
		draw_text(w, 0, 0, t->cols, draw_attr(t, ROLE_DIM),
		    t->focus == PANE_LOG ?
		    "type a command (help)  F5 continue  F7 step  F8 next  "
		    "F6 stepi  Tab pane  Up/Down history  C-x s SingleKey" :
		    "type a command (help)  F5 continue  F7 step  F8 next  "
		    "F6 stepi  F2 break  Tab pane  C-x s SingleKey");
	wnoutrefresh(w);
}

/* Columns a typed-ahead key takes on the command line: printable keys
 * one, Enter two ("; "), others none. */
static size_t
typed_width(int k)
{
	if (k == '\r' || k == '\n' || k == KEY_ENTER)
		return 2;
	return k >= ' ' && k < 127 ? 1 : 0;
}

/* The command line during a run: how to stop it, and what is typed
 * ahead, its end when it is long. */
static void
draw_running_cmd(struct tui *t, WINDOW *w, int width)
{
	char head[96], ahead[256];
	size_t n, len = 0, avail;
	int col;

	if (t->ntypeahead == 0)
		snprintf(head, sizeof head, "(running: Ctrl-C or Esc stops "
		    "it)");
	else
		snprintf(head, sizeof head, "(running: Ctrl-C or Esc stops it; "
		    "%zu key%s typed ahead) ", t->ntypeahead,
		    t->ntypeahead == 1 ? "" : "s");
	col = draw_text(w, 0, 0, width, draw_attr(t, ROLE_DIM), head);
	avail = width > col ? (size_t)(width - col) : 0;
	if (avail > sizeof ahead - 1)
		avail = sizeof ahead - 1;
	/* the last keys, as many as fit */
	for (n = t->ntypeahead; n > 0; n--) {
		size_t kw = typed_width(t->typeahead[n - 1]);

		if (len + kw > avail)
			break;
		len += kw;
	}
	len = 0;
	for (; n < t->ntypeahead; n++) {
		int k = t->typeahead[n];

		if (typed_width(k) == 2) {
			ahead[len++] = ';';
			ahead[len++] = ' ';
		} else if (typed_width(k) == 1)
			ahead[len++] = (char)k;
	}
	ahead[len] = '\0';
	if (len > 0)
		draw_text(w, 0, col, width - col, draw_attr(t, ROLE_NORMAL),
		    ahead);
	wmove(w, 0, 0);
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
		draw_running_cmd(t, w, width);
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
	unsigned dirty = t->dirty;

	if (dirty & DIRTY_LAYOUT) {
		relayout(t);
		dirty = DIRTY_ALL;
	}
	if (dirty & DIRTY_CLEAR)
		clearok(curscr, TRUE);
	if (dirty & (DIRTY_STATUS | DIRTY_PANE(PANE_CORES) |
	    DIRTY_PANE(PANE_WARPS)))
		tui_census(t);
	for (int i = 0; i < PANE_COUNT && !t->pager.open; i++) {
		WINDOW *w = t->win[i];
		int h, width, inner;

		if (w == NULL || !(dirty & DIRTY_PANE(i)))
			continue;
		getmaxyx(w, h, width);
		inner = pane_inner_width(t, (enum pane_id)i);
		werase(w);
		if (inner < width)
			mvwvline(w, 0, inner, '|', h);
		/* contents first: a caption may use what drawing computed
		 * (the grid's cells per group) */
		if (h > 1 && pane_table[i]->draw != NULL)
			pane_table[i]->draw(t, w, h, inner);
		draw_title(t, (enum pane_id)i, w, inner);
		wnoutrefresh(w);
	}
	if (t->pager.open && dirty != 0)
		pager_draw(t);
	if (dirty & DIRTY_STATUS)
		draw_status(t);
	/* the message line hides what the transcript already shows */
	if (dirty & (DIRTY_MSG | DIRTY_PANE(PANE_LOG)))
		draw_msg(t);
	/* last: the terminal's cursor stays on the command line */
	draw_cmd(t);
	doupdate();
	t->dirty = 0;
}
