/*
 * The code pane: the focused core's program around its PC, as
 * disassembly (method headers, labels, one row per instruction with the
 * source's names) or as the .jas source; F3 (or `view`) cycles asm,
 * bytes and source.  In asm a #print "..." is one row as the source
 * wrote it, marked like the instructions it stands for (as `list` shows
 * it); bytes shows those BIPUSH/OUT instructions under it.
 *
 * Marks, so that it reads without colour: column 0 is 'B' for an enabled
 * breakpoint and 'b' for a disabled one, column 1 is '>' at the focused
 * core's PC; the cursor row is reverse video.  On the right, "xN" counts
 * the active lanes of the focused warp at that instruction, which is how
 * a warp's divergence looks in the code.
 *
 * The cursor follows the PC after every stop and focus change; arrows and
 * pages move it (follow off) and F2 toggles a breakpoint there, through
 * the same commands a user would type (`break *0x1a`, `break 47`,
 * `delete 3`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "census.h"
#include "dsym.h"
#include "layout.h"
#include "names.h"
#include "pane.h"
#include "session.h"
#include "title.h"
#include "tui.h"

static const struct program *
focus_prog(const struct tui *t, uint16_t *index)
{
	const struct machine *m = tui_machine(t);
	uint16_t i = m->cores[tui_focus(t)].prog;

	*index = i;
	return m->progs[i];
}

static void
code_caption(struct tui *t, struct title *tt)
{
	uint32_t focus = tui_focus(t);
	uint16_t pi;
	const struct program *p = focus_prog(t, &pi);
	int32_t pc = tui_core_pc(t, focus);
	const char *base = strrchr(p->path, '/');
	char where[96];
	uint32_t line = pc >= 0 ? program_line_at(p, (uint32_t)pc) : 0;

	names_pc(p, pc, where, sizeof where);
	title_add(tt, TP_MID, "%s", base ? base + 1 : p->path);
	title_add(tt, TP_HIGH, "core %u at %s", focus, where);
	if (line > 0)
		title_add(tt, TP_HIGH - 10, "line %u", line);
	title_add(tt, TP_LOW, "[%s, F3]", t->code.view == VIEW_ASM ? "asm" :
	    t->code.view == VIEW_BYTES ? "bytes" : "source");
}

/* Active lanes of the focused warp at pc (prog). */
static uint32_t
lanes_at(const struct warp_paths *v, uint16_t prog, uint32_t addr)
{
	for (uint32_t i = 0; i < v->npaths; i++)
		if (v->prog[i] == prog && v->pc[i] == (int32_t)addr)
			return v->count[i];
	return 0;
}

static void
draw_asm(struct tui *t, WINDOW *win, int h, int w, const struct program *p,
    uint16_t pi, int32_t pc, const struct warp_paths *v)
{
	struct listing *l = tui_listing(t, pi);
	size_t rows = (size_t)(h - 1);
	char insn[160];

	if (l->n == 0) {
		draw_text(win, 1, 1, w, draw_attr(t, ROLE_DIM),
		    "(no code)");
		return;
	}
	if (t->code.follow && pc >= 0 && (uint32_t)pc < p->text_size)
		t->code.cursor = listing_row(l, (uint32_t)pc);
	listing_scroll(&t->code, rows, l->n);
	for (size_t i = 0; i < rows && t->code.top + i < l->n; i++) {
		size_t r = t->code.top + i;
		const struct code_row *row = &l->rows[r];
		int y = 1 + (int)i;
		unsigned long base = listing_row_start(t, win, y, w,
		    r == t->code.cursor);

		if (row->kind == ROW_METHOD) {
			draw_textf(win, y, 2, w, base | draw_attr(t,
			    ROLE_LABEL), "%s %s", strcmp(row->name, "main") ?
			    ".method" : ".main", row->name);
			continue;
		}
		if (row->kind == ROW_DIRECTIVE && !l->fold) {
			/* #print "...": what the source wrote, the
			 * instructions it became below it */
			draw_text(win, y, 9, w, base | draw_attr(t,
			    ROLE_LABEL), row->name);
			continue;
		}
		if (row->kind == ROW_DIRECTIVE) {
			/* folded: the row stands for its instructions */
			uint32_t first = row->addr, end = row->addr + 1;
			const struct ui_bp *b = NULL;
			int at_pc;

			dsym_macro_at(p, row->addr, &first, &end, insn,
			    sizeof insn);
			for (uint32_t a = first; a < end && b == NULL; a++)
				b = access_bp_at(&t->bps, (int32_t)a);
			at_pc = pc >= (int32_t)first && pc < (int32_t)end;
			listing_row_marks(t, win, y, w, base, b == NULL ? NULL :
			    b->enabled ? "B" : "b", at_pc);
			draw_textf(win, y, 3, w, base | (at_pc ? draw_attr(t,
			    ROLE_PC) : draw_attr(t, ROLE_LABEL)), "%04x  %s",
			    row->addr, row->name);
			continue;
		}
		if (row->kind == ROW_LABEL) {
			draw_textf(win, y, 4, w, base | draw_attr(t,
			    ROLE_LABEL), "%s:", row->name);
			continue;
		}
		{
			const struct ui_bp *b = access_bp_at(&t->bps,
			    (int32_t)row->addr);
			int at_pc = (int32_t)row->addr == pc;
			uint32_t n = lanes_at(v, pi, row->addr);
			char lanes[16];

			listing_row_marks(t, win, y, w, base, b == NULL ? NULL :
			    b->enabled ? "B" : "b", at_pc);
			dsym_insn(p, &t->dsyms[pi], (int32_t)row->addr, insn,
			    sizeof insn);
			int end = 3 + draw_textf(win, y, 3, w, base |
			    (at_pc ? draw_attr(t, ROLE_PC) : 0), "%04x  %s",
			    row->addr, insn);

			if (n > 0 && v->lanes > 1) {
				int len = snprintf(lanes, sizeof lanes, "x%u",
				    n);

				/* never over the instruction's text */
				if (w - len - 1 > 30 && w - len - 1 > end + 1)
					draw_text(win, y, w - len - 1, w, base |
					    draw_attr(t, ROLE_DIM), lanes);
			}
		}
	}
}

/* Does a breakpoint sit on source line `line`? 'B', 'b' or 0. */
static char
line_mark(const struct tui *t, const struct program *p, uint32_t line)
{
	char mark = 0;

	for (size_t i = 0; i < t->bps.n; i++)
		for (size_t k = 0; k < t->bps.v[i].npcs; k++) {
			int32_t a = t->bps.v[i].pcs[k];

			if (a >= 0 && program_line_at(p, (uint32_t)a) == line) {
				if (t->bps.v[i].enabled)
					return 'B';
				mark = 'b';
			}
		}
	return mark;
}

static void
draw_source(struct tui *t, WINDOW *win, int h, int w, const struct program *p,
    uint16_t pi, int32_t pc)
{
	struct listing *l = tui_listing(t, pi);
	size_t rows = (size_t)(h - 1);
	uint32_t pcline = pc >= 0 ? program_line_at(p, (uint32_t)pc) : 0;

	if (l->src == NULL || l->nsrc < 2) {
		draw_text(win, 1, 1, w, draw_attr(t, ROLE_DIM),
		    "(no source: the program was loaded from .ijvm; F3 shows "
		    "the disassembly)");
		return;
	}
	/* the source view's rows are lines 1 .. nsrc-1: row = line - 1 */
	if (t->code.follow && pcline > 0)
		t->code.cursor = pcline - 1;
	listing_scroll(&t->code, rows, l->nsrc - 1);
	for (size_t i = 0; i < rows && t->code.top + i + 1 < l->nsrc; i++) {
		uint32_t line = (uint32_t)(t->code.top + i + 1);
		int y = 1 + (int)i;
		unsigned long base = listing_row_start(t, win, y, w,
		    t->code.top + i == t->code.cursor);
		char mark = line_mark(t, p, line), m[2] = { mark, 0 };

		listing_row_marks(t, win, y, w, base, mark ? m : NULL,
		    line == pcline);
		draw_textf(win, y, 2, w, base | (line == pcline ?
		    draw_attr(t, ROLE_PC) : 0), "%4u  %s", line, l->src[line]);
	}
}

static void
code_draw(struct tui *t, void *vwin, int h, int w)
{
	const struct machine *m = tui_machine(t);
	uint32_t focus = tui_focus(t);
	uint16_t pi;
	const struct program *p = focus_prog(t, &pi);
	int32_t pc = tui_core_pc(t, focus);
	struct warp_paths v;

	if (pi != t->code.prog) {
		t->code.prog = pi;
		t->code.follow = 1;
	}
	t->code_page = (size_t)(h - 1);
	census_warp(m, focus / m->cfg.warp_width, &v);
	if (t->code.view == VIEW_SOURCE)
		draw_source(t, vwin, h, w, p, pi, pc);
	else
		draw_asm(t, vwin, h, w, p, pi, pc, &v);
}

static int
code_key(struct tui *t, int key, char *cmd, size_t size)
{
	(void)cmd;
	(void)size;
	if (!listing_key(&t->code, t->code_page, key))
		return 0;
	t->dirty |= DIRTY_PANE(PANE_CODE);
	return 1;
}

void
code_break_command(struct tui *t, char *line, size_t size)
{
	uint16_t pi;
	const struct program *p = focus_prog(t, &pi);
	struct listing *l = tui_listing(t, pi);

	if (t->code.view == VIEW_SOURCE) {
		uint32_t src = (uint32_t)t->code.cursor + 1;
		char mark = line_mark(t, p, src);

		if (mark) {
			/* delete the breakpoints whose address is on it */
			for (size_t i = 0; i < t->bps.n; i++)
				for (size_t k = 0; k < t->bps.v[i].npcs; k++)
					if (t->bps.v[i].pcs[k] >= 0 &&
					    program_line_at(p, (uint32_t)
					    t->bps.v[i].pcs[k]) == src) {
						snprintf(line, size,
						    "delete %u",
						    t->bps.v[i].id);
						return;
					}
		}
		snprintf(line, size, "break %u", src);
		return;
	}
	if (l->n == 0)
		return;
	{
		size_t r = t->code.cursor < l->n ? t->code.cursor : l->n - 1;
		const struct ui_bp *b;

		/* on a label or header row: the instruction it names (a
		 * #print row: its first) */
		while (r + 1 < l->n && l->rows[r].kind != ROW_INSN &&
		    l->rows[r].kind != ROW_DIRECTIVE)
			r++;
		b = access_bp_at(&t->bps, (int32_t)l->rows[r].addr);
		if (b != NULL)
			snprintf(line, size, "delete %u", b->id);
		else
			snprintf(line, size, "break *0x%04x",
			    l->rows[r].addr);
	}
}

const struct pane_ops pane_code_ops = {
	.name = "code",
	.title = "Code",
	.caption = code_caption,
	.draw = code_draw,
	.key = code_key,
};
