/*
 * The panes that are mostly text: registers, stack, output, the command
 * window's transcript, and the datapath hook.
 *
 * Registers: the focused core's, in two columns, from the host copy of
 * the machine (at the micro level also MIR, the word at MPC that the
 * next cycle loads, as `info registers` shows it, and the core's
 * micro-cycles), current after every poll, so they move during a run.  A
 * value that differs from the same core before the last run is marked
 * '*' after the name and highlighted (ROLE_CHANGED).  Addresses are hex,
 * data decimal; a wide pane shows both.
 *
 * Stack: the focused core's frames as `backtrace` gives them, each
 * "#N" row followed by the frame's details (names of locals and
 * parameters, link pointer, saved PC and LV, operand stack), read at
 * every stop; during a run the pane says that they are the last stop's.
 * The selected frame (up, down, frame N: the one print and x read) is
 * marked "> " and in reverse video, and the pane scrolls to show it.  Output: the focused core's console output (the tail the UI
 * keeps per core).  Both scroll with the arrows and pages.
 *
 * The datapath and microcode panes of the micro level are in
 * pane-micro.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "ijvm.h"
#include "layout.h"
#include "lines.h"
#include "names.h"
#include "pane.h"
#include "regs.h"
#include "session.h"
#include "title.h"
#include "tui.h"

/* --- registers ------------------------------------------------------------ */

static void
regs_caption(struct tui *t, struct title *tt)
{
	const struct machine *m = tui_machine(t);
	uint32_t f = tui_focus(t), W = m->cfg.warp_width;

	title_add(tt, TP_HIGH, "core %u (warp %u lane %u)", f, f / W, f % W);
	title_alt(tt, "core %u", f);
	if (tui_prev_core(t, f))
		title_add(tt, TP_LOW, "* changed by the last step");
}

static int
reg_is_address(int r)
{
	return r == REG_PC || r == REG_SP || r == REG_LV || r == REG_CPP ||
	    r == REG_MAR || r == REG_MBR || r == REG_MPC;
}

/*
 * One "NAME* value" cell at (y, x), cw columns, the last of them blank
 * so that the cell beside it never reads as part of the value.  A value
 * that does not fit is not cut (a number cut short is a wrong number):
 * it shows as "..", and a wider pane shows it.
 */
static void
reg_cell(struct tui *t, WINDOW *win, int y, int x, int cw, const char *name,
    const char *value, int changed)
{
	char head[16];
	int room;

	snprintf(head, sizeof head, "%-3s%c ", name, changed ? '*' : ' ');
	room = cw - 1 - (int)strlen(head);
	if ((int)strlen(value) > room)
		value = room >= 2 ? ".." : "";
	draw_text(win, y, x, x + cw, changed ? draw_attr(t, ROLE_CHANGED) :
	    A_BOLD, head);
	draw_text(win, y, x + (int)strlen(head), x + cw, changed ?
	    draw_attr(t, ROLE_CHANGED) : 0, value);
}

static void
reg_value(int r, int32_t v, int wide, char *text, size_t size)
{
	if (wide)
		snprintf(text, size, "0x%08x %11d", (uint32_t)v, v);
	else if (r == REG_N || r == REG_Z)
		snprintf(text, size, "%d", v);
	else if (r == REG_MBR)
		snprintf(text, size, "0x%02x", (uint32_t)v & 0xff);
	else if (reg_is_address(r) && v >= 0 && v <= 0xffffff)
		snprintf(text, size, "0x%04x", (uint32_t)v);
	else
		snprintf(text, size, "%d", v);
}

static void
regs_draw(struct tui *t, void *vwin, int h, int w)
{
	WINDOW *win = vwin;
	const struct machine *m = tui_machine(t);
	uint32_t f = tui_focus(t);
	const struct core *c = &m->cores[f], *old = tui_prev_core(t, f);
	int cw = w / 2, wide = cw >= 28, y = 1;
	/* the order of the rows: pairs, then N and Z together */
	static const int order[] = { REG_PC, REG_SP, REG_LV, REG_CPP, REG_TOS,
	    REG_OPC, REG_H, REG_MAR, REG_MDR, REG_MBR, REG_MPC };
	char value[64];
	size_t i;

	for (i = 0; i < sizeof order / sizeof *order && y < h; i++) {
		int r = order[i], x = (int)(i % 2) * cw;
		int32_t v = reg_get(c, r);

		reg_value(r, v, wide, value, sizeof value);
		reg_cell(t, win, y, x, cw, reg_name(r), value,
		    old != NULL && reg_get(old, r) != v);
		if (i % 2 == 1)
			y++;
	}
	/* MPC shares its row with N and Z */
	if (y < h) {
		int changed = old != NULL && (old->n != c->n || old->z != c->z);

		snprintf(value, sizeof value, "%d  Z %d", c->n, c->z);
		reg_cell(t, win, y, cw, cw, "N", value, changed);
		y++;
	}
	if (y < h) {
		const char *st = c->status == CORE_RUNNING ? "running" :
		    c->status == CORE_HALTED ? "halted" :
		    c->status == CORE_ERROR ? "faulted" :
		    c->status == CORE_JOINING ? "joining" : "waiting";

		reg_cell(t, win, y, 0, cw, "st", st, old != NULL &&
		    old->status != c->status);
		snprintf(value, sizeof value, "%llu",
		    (unsigned long long)c->steps);
		reg_cell(t, win, y, cw, cw, "stp", value, old != NULL &&
		    old->steps != c->steps);
		y++;
	}
	if (y < h && tui_level(t) == LEVEL_MIC && t->s != NULL) {
		/* MIR: the word at MPC, which the next cycle loads into
		 * MIR, as `info registers` shows it (one fact, one value;
		 * the datapath pane decodes the same word) */
		const struct microcode *mc = session_microcode(t->s,
		    LEVEL_MIC);

		if (mc != NULL && c->mpc < MIC1_STORE_WORDS &&
		    mc->cs.present[c->mpc])
			snprintf(value, sizeof value, "0x%09llx",
			    (unsigned long long)mc->cs.word[c->mpc]);
		else
			snprintf(value, sizeof value, "none");
		if ((int)strlen(value) + 6 <= cw) {
			reg_cell(t, win, y, 0, cw, "MIR", value, 0);
			snprintf(value, sizeof value, "%llu",
			    (unsigned long long)c->cycles);
			reg_cell(t, win, y, cw, cw, "cyc", value, old != NULL &&
			    old->cycles != c->cycles);
			y++;
		} else {
			/* a narrow pane: MIR's 36 bits get the whole row */
			reg_cell(t, win, y, 0, w, "MIR", value, 0);
			y++;
			snprintf(value, sizeof value, "%llu",
			    (unsigned long long)c->cycles);
			if (y < h)
				reg_cell(t, win, y, 0, w, "cyc", value,
				    old != NULL && old->cycles != c->cycles);
			y++;
		}
	}
	if (y < h) {
		const struct program *p = m->progs[c->prog];
		int32_t pc = tui_core_pc(t, f);
		char where[96];
		uint32_t line = pc >= 0 ? program_line_at(p, (uint32_t)pc) : 0;

		struct title tt;
		char text[256];

		/* fitted as a title: no line number is ever cut */
		names_pc(p, pc, where, sizeof where);
		title_init(&tt);
		if (c->status == CORE_ERROR)
			title_add(&tt, TP_NAME, "fault: %s",
			    ijvm_fault_message(c->fault));
		title_add(&tt, TP_HIGH, "at %s", where);
		if (line > 0)
			title_add(&tt, TP_MID, "line %u", line);
		title_fit(&tt, w, text, sizeof text);
		draw_text(win, y, 0, w, draw_attr(t, c->status == CORE_ERROR ?
		    ROLE_ERROR : ROLE_DIM), text);
	}
}

const struct pane_ops pane_regs_ops = {
	.name = "regs",
	.title = "Registers",
	.caption = regs_caption,
	.draw = regs_draw,
};

/* --- scrolling helpers ------------------------------------------------------ */

/* Arrows and pages for a pane whose text is scrolled by *scroll rows. */
static int
scroll_key(struct tui *t, int key, size_t *scroll, int back, int pane)
{
	size_t page = 5;

	switch (key) {
	case KEY_UP:
		*scroll = back ? *scroll + 1 : *scroll ? *scroll - 1 : 0;
		break;
	case KEY_DOWN:
		*scroll = back ? (*scroll ? *scroll - 1 : 0) : *scroll + 1;
		break;
	case KEY_PPAGE:
		*scroll = back ? *scroll + page : *scroll > page ?
		    *scroll - page : 0;
		break;
	case KEY_NPAGE:
		*scroll = back ? (*scroll > page ? *scroll - page : 0) :
		    *scroll + page;
		break;
	case KEY_HOME:
		*scroll = back ? SIZE_MAX / 4 : 0;
		break;
	case KEY_END:
		*scroll = back ? 0 : SIZE_MAX / 4;
		break;
	default:
		return 0;
	}
	t->dirty |= DIRTY_PANE(pane);
	return 1;
}

/* --- stack ---------------------------------------------------------------- */

static void
stack_caption(struct tui *t, struct title *tt)
{
	title_add(tt, TP_HIGH, "core %u", tui_focus(t));
	if (t->frames_stale)
		title_add(tt, TP_MID, "(as at the last stop)");
}

/* Index in t->frames of frame d's "#N" row, or t->frames.n. */
static size_t
frame_row(const struct tui *t, uint32_t d)
{
	uint32_t seen = 0;

	for (size_t i = 0; i < t->frames.n; i++)
		if (t->frames.v[i][0] == '#' && seen++ == d)
			return i;
	return t->frames.n;
}

static void
stack_draw(struct tui *t, void *vwin, int h, int w)
{
	WINDOW *win = vwin;
	size_t rows = (size_t)(h - 1);
	size_t sel = frame_row(t, t->frame_sel);

	if (t->frames.n == 0) {
		draw_text(win, 1, 1, w, draw_attr(t, ROLE_DIM), "(no frames)");
		return;
	}
	if (t->frame_show && sel < t->frames.n && rows > 0) {
		/* the selected frame's row at the top, or in view */
		if (sel < t->frames_scroll || sel >= t->frames_scroll + rows)
			t->frames_scroll = sel;
		t->frame_show = 0;
	}
	if (t->frames_scroll + rows > t->frames.n)
		t->frames_scroll = t->frames.n > rows ? t->frames.n - rows : 0;
	for (size_t i = 0; i < rows && t->frames_scroll + i < t->frames.n;
	    i++) {
		size_t r = t->frames_scroll + i;
		const char *s = t->frames.v[r];
		char fit[512], marked[512];

		if (r == sel) {
			/* gdb's "#1" kept, with a mark that reads without
			 * colour */
			snprintf(marked, sizeof marked, "> %s", s);
			s = marked;
		}
		/* "peak=12" cut to "peak=1" would be a wrong value */
		title_clip(s, w, fit, sizeof fit);
		draw_text(win, 1 + (int)i, 0, w, r == sel ? A_REVERSE |
		    A_BOLD : s[0] == '#' ?
		    draw_attr(t, ROLE_LABEL) | A_BOLD : (t->frames_stale ?
		    draw_attr(t, ROLE_DIM) : 0), fit);
	}
}

static int
stack_key(struct tui *t, int key, char *cmd, size_t size)
{
	(void)cmd;
	(void)size;
	return scroll_key(t, key, &t->frames_scroll, 0, PANE_STACK);
}

const struct pane_ops pane_stack_ops = {
	.name = "stack",
	.title = "Stack",
	.caption = stack_caption,
	.draw = stack_draw,
	.key = stack_key,
};

/* --- output --------------------------------------------------------------- */

static void
output_caption(struct tui *t, struct title *tt)
{
	uint32_t f = tui_focus(t);

	title_add(tt, TP_HIGH, "core %u", f);
	if (tui_output_len(t, f) == 0)
		title_add(tt, TP_LOW, "(nothing yet)");
}

static void
output_draw(struct tui *t, void *vwin, int h, int w)
{
	uint32_t f = tui_focus(t);
	const struct buf *b = f < t->out.ncores ? t->out.core[f] : NULL;
	size_t len = tui_output_len(t, f);
	struct lines l = { 0 };
	size_t total;

	if (len == 0)
		return;
	lines_add(&l, (const char *)b->data, len);
	total = draw_wrapped(vwin, 1, h - 1, w, &l, t->out_scroll, 0);
	if (t->out_scroll > total)
		t->out_scroll = total;
	lines_free(&l);
}

static int
output_key(struct tui *t, int key, char *cmd, size_t size)
{
	(void)cmd;
	(void)size;
	return scroll_key(t, key, &t->out_scroll, 1, PANE_OUTPUT);
}

const struct pane_ops pane_output_ops = {
	.name = "output",
	.title = "Output",
	.caption = output_caption,
	.draw = output_draw,
	.key = output_key,
};

/* --- the command window ----------------------------------------------------- */

static void
log_caption(struct tui *t, struct title *tt)
{
	if (t->log_scroll)
		title_add(tt, TP_HIGH, "(scrolled back: PgDn)");
	else
		title_add(tt, TP_LOW, "help lists commands; Tab completes");
}

static void
log_draw(struct tui *t, void *vwin, int h, int w)
{
	size_t total = draw_wrapped(vwin, 1, h - 1, w, &t->log, t->log_scroll,
	    0);

	if (t->log_scroll > total)
		t->log_scroll = total;
}

static int
log_key(struct tui *t, int key, char *cmd, size_t size)
{
	(void)cmd;
	(void)size;
	/* the arrows edit the line and walk the history: pages only */
	if (key != KEY_PPAGE && key != KEY_NPAGE)
		return 0;
	return scroll_key(t, key, &t->log_scroll, 1, PANE_LOG);
}

const struct pane_ops pane_log_ops = {
	.name = "cmd",
	.title = "Command",
	.caption = log_caption,
	.draw = log_draw,
	.key = log_key,
};
