/*
 * The panes of the micro level (doc/debugger.md section 2): the microcode
 * pane, the microprogram around the focused core's MPC, and the datapath
 * pane, the Mic-1 diagram of what the micro-instruction at MPC does
 * (its contents come from datapath.c, pure and unit-tested).
 *
 * Microcode: one row per control-store word the source defines (words
 * that .default filled are left out unless a core is on one), as
 * "B> 0x002 Main1: PC = PC + 1; fetch; goto (MBR)" with the marks of the
 * code pane: column 0 'B'/'b' for an enabled/disabled MPC breakpoint,
 * column 1 '>' at MPC, the cursor row in reverse video.  The cursor
 * follows MPC after every stop; arrows and pages move it, and F2 sets or
 * deletes an MPC breakpoint there with the commands a user would type
 * (`break mpc 0x002`, `delete 3`).
 *
 * At the ISA level both panes say how to get to the micro level rather
 * than draw anything.  At the PMIC level the datapath is its three
 * compute units (dp_render_pmic): each unit's A and B registers with
 * their values, ALU operation and result, C targets and memory
 * operation, the shared next-address logic, and the registers tagged
 * rK/wK for the unit K that reads or writes them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "datapath.h"
#include "layout.h"
#include "pane.h"
#include "session.h"
#include "title.h"
#include "tui.h"

static const struct microcode *
micro_code(const struct tui *t)
{
	enum level lv = tui_level(t);

	if (t->s == NULL || lv == LEVEL_ISA)
		return NULL;
	return session_microcode(t->s, lv);
}

static int
word_present(const struct microcode *mc, uint32_t a)
{
	if (mc->level == LEVEL_PMIC)
		return pmic_present(&mc->pcs, a);
	return a < MIC1_STORE_WORDS && mc->cs.present[a];
}

static void
word_disasm(const struct microcode *mc, uint32_t a, char *text, size_t size)
{
	if (mc->level == LEVEL_PMIC)
		pmic_disasm(&mc->pcs.mi[a % PMIC_STORE_WORDS], text, size);
	else
		mic1_disasm(mc->cs.word[a % MIC1_STORE_WORDS], text, size);
}

/* The rows of mc: the words its source defines. */
static void
micro_rows(struct tui *t, const struct microcode *mc)
{
	if (t->urows_for == mc && t->urows != NULL)
		return;
	free(t->urows);
	t->urows = xcalloc(MIC1_STORE_WORDS, sizeof *t->urows);
	t->nurows = 0;
	for (uint32_t a = 0; a < MIC1_STORE_WORDS; a++) {
		const struct mal_sym *sym = mal_syms_at(&mc->syms, a);

		if (!word_present(mc, a))
			continue;
		if (sym != NULL && sym->is_default)
			continue;
		t->urows[t->nurows++] = (uint16_t)a;
	}
	if (t->nurows == 0)	/* a .mic1 without symbols: every word */
		for (uint32_t a = 0; a < MIC1_STORE_WORDS; a++)
			if (word_present(mc, a))
				t->urows[t->nurows++] = (uint16_t)a;
	t->urows_for = mc;
	t->ucode.follow = 1;
}

/* The row of addr, or the row before where it would be. */
static size_t
micro_row_of(const struct tui *t, uint32_t addr)
{
	size_t r = 0;

	for (size_t i = 0; i < t->nurows; i++)
		if (t->urows[i] <= addr)
			r = i;
	return r;
}

static void
micro_caption(struct tui *t, struct title *tt)
{
	const struct microcode *mc = micro_code(t);
	const struct machine *m = tui_machine(t);
	uint32_t f = tui_focus(t), mpc = m->cores[f].mpc;
	const struct mal_sym *sym;
	const char *base;

	if (mc == NULL) {
		title_add(tt, TP_HIGH, "(ISA level: set level mic)");
		return;
	}
	sym = mal_syms_at(&mc->syms, mpc);
	base = mc->path != NULL ? strrchr(mc->path, '/') : NULL;
	title_add(tt, TP_MID, "%s", base ? base + 1 : mc->path ? mc->path :
	    "microcode");
	title_add(tt, TP_HIGH, "core %u at MPC 0x%03x", f, mpc);
	if (sym != NULL && sym->label != NULL)
		title_add(tt, TP_HIGH - 10, "%s", sym->label);
	title_add(tt, TP_LOW, "[F2 break]");
}

static void
micro_draw(struct tui *t, void *vwin, int h, int w)
{
	WINDOW *win = vwin;
	const struct microcode *mc = micro_code(t);
	const struct machine *m = tui_machine(t);
	uint32_t f = tui_focus(t), mpc = m->cores[f].mpc;
	size_t rows = (size_t)(h - 1);
	struct code_state *c = &t->ucode;

	if (mc == NULL) {
		draw_text(win, 1, 1, w, draw_attr(t, ROLE_DIM), "the machine "
		    "runs at the ISA level: `set level mic` shows the "
		    "microprogram");
		return;
	}
	micro_rows(t, mc);
	t->ucode_page = rows;
	if (t->nurows == 0) {
		draw_text(win, 1, 1, w, draw_attr(t, ROLE_DIM), "(no words)");
		return;
	}
	if (c->follow)
		c->cursor = micro_row_of(t, mpc);
	listing_scroll(c, rows, t->nurows);
	for (size_t i = 0; i < rows && c->top + i < t->nurows; i++) {
		size_t r = c->top + i;
		uint32_t a = t->urows[r];
		const struct mal_sym *sym = mal_syms_at(&mc->syms, a);
		const struct ui_bp *b = access_mpc_bp_at(&t->bps, (int32_t)a);
		int y = 1 + (int)i, at = a == mpc;
		unsigned long base = listing_row_start(t, win, y, w,
		    r == c->cursor);
		char dis[160];
		int x;

		listing_row_marks(t, win, y, w, base, b == NULL ? NULL :
		    b->enabled ? "B" : "b", at);
		x = 3 + draw_textf(win, y, 3, w, base | (at ? draw_attr(t,
		    ROLE_PC) : 0), "0x%03x", a);
		if (sym != NULL && sym->label != NULL)
			x += 1 + draw_textf(win, y, x + 1, w, base |
			    draw_attr(t, ROLE_LABEL), "%s:", sym->label);
		if (sym != NULL && sym->text != NULL)
			draw_text(win, y, x + 1, w, base | (at ? draw_attr(t,
			    ROLE_PC) : 0), sym->text);
		else {
			word_disasm(mc, a, dis, sizeof dis);
			draw_text(win, y, x + 1, w, base | (at ? draw_attr(t,
			    ROLE_PC) : 0), dis);
		}
	}
}

static int
micro_key(struct tui *t, int key, char *cmd, size_t size)
{
	(void)cmd;
	(void)size;
	if (!listing_key(&t->ucode, t->ucode_page, key))
		return 0;
	t->dirty |= DIRTY_PANE(PANE_MICRO);
	return 1;
}

const char *
micro_break_command(struct tui *t, char *line, size_t size)
{
	const struct microcode *mc = micro_code(t);
	const struct ui_bp *b;
	uint32_t a;

	if (mc == NULL)
		return "no microcode at the ISA level: set level mic first";
	micro_rows(t, mc);
	if (t->nurows == 0)
		return NULL;
	a = t->urows[t->ucode.cursor < t->nurows ? t->ucode.cursor :
	    t->nurows - 1];
	b = access_mpc_bp_at(&t->bps, (int32_t)a);
	if (b != NULL)
		snprintf(line, size, "delete %u", b->id);
	else
		snprintf(line, size, "break mpc 0x%03x", a);
	return NULL;
}

static const char *
micro_unavailable(const struct tui *t)
{
	return tui_level(t) == LEVEL_ISA ? "the microcode pane shows the "
	    "micro level: set level mic first" : NULL;
}

const struct pane_ops pane_micro_ops = {
	.name = "microcode",
	.title = "Microcode",
	.caption = micro_caption,
	.draw = micro_draw,
	.key = micro_key,
	.unavailable = micro_unavailable,
};

/* --- datapath ---------------------------------------------------------------- */

static void
datapath_caption(struct tui *t, struct title *tt)
{
	const struct machine *m = tui_machine(t);
	uint32_t f = tui_focus(t);

	if (tui_level(t) == LEVEL_ISA) {
		title_add(tt, TP_HIGH, "(ISA level: set level mic)");
		return;
	}
	title_add(tt, TP_HIGH, "core %u: the micro-instruction at MPC 0x%03x, "
	    "about to run", f, m->cores[f].mpc);
	title_alt(tt, "core %u at MPC 0x%03x", f, m->cores[f].mpc);
}

static unsigned long
dp_attr(const struct tui *t, int role)
{
	switch (role) {
	case DPR_ACTIVE:  return draw_attr(t, ROLE_ACTIVE);
	case DPR_DIM:     return draw_attr(t, ROLE_DIM);
	case DPR_CHANGED: return draw_attr(t, ROLE_CHANGED);
	case DPR_LABEL:   return draw_attr(t, ROLE_LABEL) | A_BOLD;
	case DPR_ERROR:   return draw_attr(t, ROLE_ERROR);
	default:          return 0;
	}
}

static void
datapath_draw(struct tui *t, void *vwin, int h, int w)
{
	WINDOW *win = vwin;
	const struct microcode *mc = micro_code(t);
	const struct machine *m = tui_machine(t);
	uint32_t f = tui_focus(t);
	const struct core *c = &m->cores[f];
	const struct mic1_state *st;
	const struct mal_sym *sym;
	struct dp_canvas *cv;
	struct dp_input in;

	if (mc == NULL) {
		draw_text(win, 1, 1, w, draw_attr(t, ROLE_DIM), "the machine "
		    "runs at the ISA level: `set level mic` switches to the "
		    "micro level");
		return;
	}
	cv = xmalloc(sizeof *cv);
	dp_canvas_init(cv, h - 1, w);
	sym = mal_syms_at(&mc->syms, c->mpc);
	if (mc->level == LEVEL_PMIC) {
		const struct pmic_state *pst;
		struct dp_pmic_input pin;

		memset(&pin, 0, sizeof pin);
		pin.c = c;
		pin.core = f;
		pst = session_pmic_state(t->s);
		pin.pc = pst != NULL && f < pst->ncores ? &pst->core[f] :
		    NULL;
		pin.mi = &mc->pcs.mi[c->mpc % PMIC_STORE_WORDS];
		pin.present = pmic_present(&mc->pcs, c->mpc);
		pin.label = sym != NULL ? sym->label : NULL;
		pin.text = sym != NULL ? sym->text : NULL;
		dp_render_pmic(&pin, cv);
		goto copy;
	}
	st = session_level_state(t->s);
	memset(&in, 0, sizeof in);
	in.c = c;
	in.prev = tui_prev_core(t, f);
	in.mc = st != NULL && f < st->ncores ? &st->core[f] : NULL;
	in.prog = m->progs[c->prog];
	in.word = mc->cs.word[c->mpc % MIC1_STORE_WORDS];
	in.present = mc->cs.present[c->mpc % MIC1_STORE_WORDS];
	in.label = sym != NULL ? sym->label : NULL;
	in.text = sym != NULL ? sym->text : NULL;
	dp_render(&in, cv);
copy:
	for (int y = 0; y < cv->h; y++)
		for (int x = 0; x < cv->w;) {
			int x0 = x, role = cv->role[y][x];
			char run[DP_MAX_COLS + 1];

			while (x < cv->w && cv->role[y][x] == role)
				x++;
			memcpy(run, &cv->ch[y][x0], (size_t)(x - x0));
			run[x - x0] = '\0';
			/* blanks keep no highlight: the text carries it */
			if (role == DPR_TEXT || strspn(run, " ") ==
			    (size_t)(x - x0))
				draw_text(win, 1 + y, x0, w, 0, run);
			else
				draw_text(win, 1 + y, x0, w, dp_attr(t, role),
				    run);
		}
	free(cv);
}

static const char *
datapath_unavailable(const struct tui *t)
{
	return tui_level(t) == LEVEL_ISA ? "the datapath pane shows the "
	    "micro level: set level mic first" : NULL;
}

const struct pane_ops pane_datapath_ops = {
	.name = "datapath",
	.title = "Datapath",
	.caption = datapath_caption,
	.draw = datapath_draw,
	.unavailable = datapath_unavailable,
};
