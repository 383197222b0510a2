/*
 * The cores pane: the whole machine as a grid, one cell per core, or per
 * group of 2^k consecutive cores when they do not fit (census_grid), each
 * cell showing its majority status (or, F4 / `colour opcode`, the class
 * of the instruction most of its running cores are about to execute).
 *
 * A cell is two columns: the glyph, and '<' after the focused core's
 * cell.  Glyphs carry the status without colour: '#' running, '.'
 * halted, '!' faulted, 'w' waiting at a barrier, 'B' at a breakpoint,
 * and with --fork-join 'f' inside its forked method, 'j' at the join; a
 * group that is not unanimous is dimmed, and the line under the grid
 * counts the focused cell's cores by status.  Rows start with the number
 * of their first core.
 *
 * Only the cells on screen are computed (census_cell), once per cut
 * (tui_grid_cells keeps them until the session's generation or the
 * geometry changes), so a frame costs what is on the screen; `zoom`
 * (+ and - in this pane) trades the overview for single cores and
 * scrolls to the focus.  Arrows move the focus by a cell or a row, with
 * `core N`, so the transcript shows the command a key stands for.
 */
#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "census.h"
#include "pane.h"
#include "session.h"
#include "title.h"
#include "tui.h"

static void
cores_caption(struct tui *t, struct title *tt)
{
	const struct machine *m = tui_machine(t);
	char counts[160];

	census_counts_text(t->totals.byclass, counts, sizeof counts);
	/* the cell size first: it is what a narrow pane must still show */
	title_add(tt, TP_HIGH, "%u/cell%s", t->grid.group, t->zoom ?
	    " (zoom)" : "");
	title_add(tt, TP_HIGH, "%u: %s", m->cfg.ncores, counts);
	title_add(tt, TP_LOW, "[%s, F4]", t->by_opcode ? "opcode" : "status");
}

static int
cell_role(const struct tui *t, const struct grid_cell *c)
{
	if (t->by_opcode && c->opclass >= 0 && census_runs(c->cls))
		return ROLE_PATH + c->opclass % 8;
	return ROLE_CLASS + c->cls;
}

static char
cell_glyph(const struct tui *t, const struct grid_cell *c)
{
	if (t->by_opcode && c->opclass >= 0 && census_runs(c->cls))
		return opclass_glyph(c->opclass);
	return class_glyph[c->cls];
}

static void
legend(struct tui *t, WINDOW *win, int y, int w)
{
	char text[256];

	if (t->by_opcode)
		snprintf(text, sizeof text, "p push l local s stack a alu "
		    "b branch c call g global r array k core i io x stop; "
		    ". halt ! fault w wait");
	else
		snprintf(text, sizeof text, "%c run %c halt %c fault %c wait "
		    "%c break%s  < focus  dim: mixed group",
		    class_glyph[CLASS_RUNNING], class_glyph[CLASS_HALTED],
		    class_glyph[CLASS_FAULTED], class_glyph[CLASS_WAITING],
		    class_glyph[CLASS_BREAK], tui_machine(t)->fork_join ?
		    " f forked j join" : "");
	draw_text(win, y, 0, w, draw_attr(t, ROLE_DIM), text);
}

static void
cores_draw(struct tui *t, void *vwin, int h, int w)
{
	WINDOW *win = vwin;
	const struct machine *m = tui_machine(t);
	uint32_t focus = tui_focus(t), n = m->cfg.ncores;
	/* the grid first; the lines under it only when it keeps 3 rows */
	int info = h - 1 >= 5, leg = h - 1 >= 4;
	int gh = h - 1 - info - leg;
	struct grid_geom *g = &t->grid;
	const struct grid_cell *cells;
	struct grid_cell fc;

	if (gh < 1) {
		gh = h - 1;
		info = leg = 0;
	}
	census_grid(n, w, gh, t->zoom, focus, g);
	cells = tui_grid_cells(t, g);
	memset(&fc, 0, sizeof fc);
	for (uint32_t r = 0; r < g->shown; r++) {
		uint64_t cell0 = (uint64_t)(g->top + r) * g->per_row;
		int y = 1 + (int)r;

		if (g->label_w > 0)
			draw_textf(win, y, 0, w, draw_attr(t, ROLE_DIM),
			    "%*llu", g->label_w - 1,
			    (unsigned long long)(cell0 * g->group));
		for (uint32_t k = 0; k < g->per_row; k++) {
			uint64_t first = (cell0 + k) * g->group;
			const struct grid_cell *c = &cells[(size_t)r *
			    g->per_row + k];
			int x = g->label_w + (int)k * g->cell_w;
			char glyph[2] = { 0, 0 };
			unsigned long attr;
			int here;

			if (first >= n)
				break;
			here = focus >= c->first && focus < c->first + c->count;
			glyph[0] = cell_glyph(t, c);
			attr = draw_attr(t, cell_role(t, c));
			if (c->majority < c->count)
				attr |= A_DIM;
			if (here) {
				attr |= A_REVERSE;
				fc = *c;
			}
			draw_text(win, y, x, w, attr, glyph);
			if (here)
				draw_text(win, y, x + 1, w, draw_attr(t,
				    ROLE_PC), "<");
		}
	}
	if (info) {
		if (fc.count == 0)
			census_cell(m, &t->bps.map, focus / g->group *
			    g->group, g->group, &fc);
		{
			char counts[160], text[256];
			struct title tt;

			/* fitted as a title: no count is cut short */
			title_init(&tt);
			if (fc.count > 1) {
				census_counts_text(fc.byclass, counts,
				    sizeof counts);
				title_add(&tt, TP_NAME, "cell %u-%u (focus %u): "
				    "%s", fc.first, fc.first + fc.count - 1,
				    focus, counts);
				title_alt(&tt, "cell %u-%u: %s", fc.first,
				    fc.first + fc.count - 1, counts);
			} else
				title_add(&tt, TP_NAME, "core %u: %s", focus,
				    class_word[census_class(m, &t->bps.map,
				    focus)]);
			title_fit(&tt, w, text, sizeof text);
			draw_text(win, h - 2, 0, w, A_NORMAL, text);
		}
	}
	if (leg)
		legend(t, win, h - 1, w);
}

static int
cores_key(struct tui *t, int key, char *cmd, size_t size)
{
	const struct machine *m = tui_machine(t);
	int64_t focus = tui_focus(t), n = m->cfg.ncores, to;
	int64_t cell = t->grid.group ? t->grid.group : 1;
	int64_t row = cell * (t->grid.per_row ? t->grid.per_row : 1);
	switch (key) {
	case KEY_LEFT:	to = focus - cell; break;
	case KEY_RIGHT:	to = focus + cell; break;
	case KEY_UP:	to = focus - row; break;
	case KEY_DOWN:	to = focus + row; break;
	case KEY_PPAGE:	to = focus - row * (t->grid.shown ? t->grid.shown : 1);
		break;
	case KEY_NPAGE:	to = focus + row * (t->grid.shown ? t->grid.shown : 1);
		break;
	case KEY_HOME:	to = 0; break;
	case KEY_END:	to = n - 1; break;
	case '+':
		snprintf(cmd, size, "zoom in");
		return 1;
	case '-':
		snprintf(cmd, size, "zoom out");
		return 1;
	default:
		return 0;
	}
	if (to < 0)
		to = 0;
	if (to >= n)
		to = n - 1;
	if (to != focus)
		snprintf(cmd, size, "core %lld", (long long)to);
	return 1;
}

const struct pane_ops pane_cores_ops = {
	.name = "cores",
	.title = "Cores",
	.caption = cores_caption,
	.draw = cores_draw,
	.key = cores_key,
};
