/*
 * The warps pane: divergence as it happens (doc/manycore.md section 3).  One
 * row per warp around the focused one; its lanes drawn one by one, each
 * with the letter (and colour) of its program path, so a warp that has
 * split shows as "AAAABBAAAA.."; then active lanes, the number of paths,
 * the kernel's path count k, and the warp's efficiency.
 *
 * Letters are shared by every row on screen: A is the path most of the
 * shown lanes are on, B the next, ...; the legend names them by label
 * ("A loop  B even+3  C half").  Inactive lanes show their status ('.'
 * halted, '!' faulted, 'w' waiting).  Two kinds of divergence are side by
 * side: paths (program divergence, from the PCs) and k (kernel
 * divergence, how many handlers the interpreter kernel ran for the warp
 * in the last step), which only an engine that records it can give:
 * others (the reference and native engines) do not, the column shows
 * '-' and the title names the engine that runs.
 *
 * Efficiency per warp is active / (W x paths): the share of a SIMD unit's
 * lanes that do useful work when the paths run one after the other.  The
 * summary line gives it for the whole machine, with the histogram of how
 * many active lanes share a path; with k records it adds the kernel's
 * SIMD efficiency sum(active) / (W x sum(k)) over the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "census.h"
#include "names.h"
#include "pane.h"
#include "session.h"
#include "title.h"
#include "tui.h"
#include "util.h"

#define MAX_LETTERS 26

struct path_key {
	uint16_t	 prog;
	int32_t		 pc;
	uint32_t	 lanes;     /* shown lanes on it */
};

static void
warps_caption(struct tui *t, struct title *tt)
{
	const struct machine *m = tui_machine(t);
	uint32_t focus = tui_focus(t), W = m->cfg.warp_width;

	title_add(tt, TP_MID, "%u warp%s of %u", machine_nwarps(m),
	    machine_nwarps(m) == 1 ? "" : "s", W);
	title_add(tt, TP_HIGH, "focus warp %u lane %u", focus / W, focus % W);
	/* the engine that runs, by its name: only some record k */
	if (t->engine_warps)
		title_add(tt, TP_LOW, "k: kernel paths");
	else
		title_add(tt, TP_LOW, "k: - (the %s engine records no k)",
		    t->engine_name != NULL ? t->engine_name : "?");
}

static int
key_index(const struct path_key *k, size_t n, uint16_t prog, int32_t pc)
{
	for (size_t i = 0; i < n; i++)
		if (k[i].prog == prog && k[i].pc == pc)
			return (int)i;
	return -1;
}

static void
lane_glyph(const struct machine *m, uint32_t core, char *g, int *role)
{
	switch (m->cores[core].status) {
	case CORE_HALTED:
		*g = class_glyph[CLASS_HALTED];
		*role = ROLE_CLASS + CLASS_HALTED;
		break;
	case CORE_ERROR:
		*g = class_glyph[CLASS_FAULTED];
		*role = ROLE_CLASS + CLASS_FAULTED;
		break;
	case CORE_JOINING:
		*g = class_glyph[CLASS_JOINING];
		*role = ROLE_CLASS + CLASS_JOINING;
		break;
	default:
		*g = class_glyph[CLASS_WAITING];
		*role = ROLE_CLASS + CLASS_WAITING;
		break;
	}
}

static void
warps_draw(struct tui *t, void *vwin, int h, int w)
{
	WINDOW *win = vwin;
	const struct machine *m = tui_machine(t);
	uint32_t focus = tui_focus(t), W = m->cfg.warp_width;
	uint32_t nw = machine_nwarps(m), fw = focus / W, first, shown;
	int rows = h - 1, summary = rows >= 3, leg = rows >= 2;
	int idw = (int)decimal_digits(nw - 1), x;
	struct path_key keys[64 * 4];
	size_t nkeys = 0;
	struct warp_paths *v;
	char text[512], hist[256];

	rows -= summary + leg;
	if (rows < 1)
		rows = 1;
	if (rows > 256)
		rows = 256;
	shown = nw < (uint32_t)rows ? nw : (uint32_t)rows;
	first = fw > shown / 2 ? fw - shown / 2 : 0;
	if (first + shown > nw)
		first = nw - shown;
	t->warp_rows = shown;
	v = xcalloc(shown ? shown : 1, sizeof *v);
	/* paths of the shown warps, most lanes first, share the letters */
	for (uint32_t i = 0; i < shown; i++) {
		census_warp(m, first + i, &v[i]);
		for (uint32_t k = 0; k < v[i].npaths; k++) {
			int j = key_index(keys, nkeys, v[i].prog[k], v[i].pc[k]);

			if (j < 0 && nkeys < sizeof keys / sizeof *keys) {
				keys[nkeys].prog = v[i].prog[k];
				keys[nkeys].pc = v[i].pc[k];
				keys[nkeys].lanes = 0;
				j = (int)nkeys++;
			}
			if (j >= 0)
				keys[j].lanes += v[i].count[k];
		}
	}
	for (size_t i = 1; i < nkeys; i++) {	/* stable, by lanes */
		struct path_key k = keys[i];
		size_t j = i;

		for (; j > 0 && keys[j - 1].lanes < k.lanes; j--)
			keys[j] = keys[j - 1];
		keys[j] = k;
	}
	for (uint32_t i = 0; i < shown; i++) {
		const struct warp_paths *wp = &v[i];
		uint32_t wi = first + i;
		int y = 1 + (int)i, kk = access_warp_k(t->engine,
		    wi);
		char ks[16];
		double eff;

		draw_textf(win, y, 0, w, wi == fw ? draw_attr(t, ROLE_PC) : 0,
		    "%c%*u ", wi == fw ? '>' : ' ', idw, wi);
		x = idw + 2;
		for (uint32_t l = 0; l < W && x < w; l++, x++) {
			uint32_t core = wi * W + l;
			char g[2] = { ' ', 0 };
			int role = ROLE_NORMAL;
			unsigned long attr;

			if (l < wp->lanes && wp->lane_path[l] != 255) {
				int j = key_index(keys, nkeys,
				    wp->prog[wp->lane_path[l]],
				    wp->pc[wp->lane_path[l]]);

				g[0] = j >= 0 && j < MAX_LETTERS ?
				    (char)('A' + j) : '+';
				role = ROLE_PATH + (j >= 0 ? j % 8 : 7);
			} else if (l < wp->lanes)
				lane_glyph(m, core, &g[0], &role);
			attr = draw_attr(t, role);
			if (core == focus)
				attr |= A_REVERSE | A_UNDERLINE;
			draw_text(win, y, x, w, attr, g);
		}
		if (kk >= 0)
			snprintf(ks, sizeof ks, "%d", kk);
		else
			snprintf(ks, sizeof ks, "-");
		/* active/lanes, paths, k, efficiency; narrow: no lanes */
		eff = wp->npaths ? 100.0 * wp->nactive / ((double)W *
		    wp->npaths) : 0.0;
		if (w - x >= 19)
			draw_textf(win, y, x, w, 0, " %2u/%-2u %2up k%-2s "
			    "%3.0f%%", wp->nactive, wp->lanes, wp->npaths, ks,
			    eff);
		else {
			/* narrow: the figures that fit, each whole */
			struct title tt;
			char fig[64];

			title_init(&tt);
			title_add(&tt, TP_NAME, "%u", wp->nactive);
			title_add(&tt, TP_HIGH, "%up", wp->npaths);
			title_add(&tt, TP_LOW, "k%s", ks);
			title_add(&tt, TP_MID, "%.0f%%", eff);
			if (title_fit(&tt, w - x - 1, fig, sizeof fig) > 0)
				draw_textf(win, y, x, w, 0, " %s", fig);
		}
	}
	if (summary) {
		const struct census_totals *c = &t->totals;
		double eff = c->paths ? 100.0 * (double)c->active /
		    ((double)W * (double)c->paths) : 0.0;
		double keff = t->census.keff;
		int y = h - 1 - leg;

		struct title tt;

		/* fitted as a title: a narrow pane drops whole figures */
		census_hist_text(c, W, hist, sizeof hist);
		title_init(&tt);
		title_add(&tt, TP_NAME, "all: eff %.0f%%", eff);
		title_add(&tt, TP_MID, "active %llu",
		    (unsigned long long)c->active);
		title_add(&tt, TP_MID, "paths %llu",
		    (unsigned long long)c->paths);
		if (keff >= 0)
			title_add(&tt, TP_HIGH, "SIMD eff (k) %.0f%%",
			    100.0 * keff);
		title_add(&tt, TP_LOW, "lanes/path %s", hist);
		title_fit(&tt, w, text, sizeof text);
		draw_text(win, y, 0, w, A_BOLD, text);
	}
	if (leg) {
		int y = h - 1;

		x = 0;
		for (size_t i = 0; i < nkeys && i < MAX_LETTERS && x < w; i++) {
			char name[96];

			names_pc(m->progs[keys[i].prog], keys[i].pc, name,
			    sizeof name);
			x += draw_textf(win, y, x, w, draw_attr(t, ROLE_PATH +
			    (int)(i % 8)) | A_BOLD, "%c", (char)('A' + i));
			x += draw_textf(win, y, x, w, 0, " %s  ", name);
		}
		if (nkeys > MAX_LETTERS)
			x += draw_text(win, y, x, w, 0, "+ more  ");
		draw_textf(win, y, x, w, draw_attr(t, ROLE_DIM),
		    "%c halt %c fault %c wait", class_glyph[CLASS_HALTED],
		    class_glyph[CLASS_FAULTED], class_glyph[CLASS_WAITING]);
	}
	free(v);
}

static int
warps_key(struct tui *t, int key, char *cmd, size_t size)
{
	const struct machine *m = tui_machine(t);
	uint32_t focus = tui_focus(t), W = m->cfg.warp_width;
	int64_t wi = focus / W, lane = focus % W, nw = machine_nwarps(m);
	int64_t page = t->warp_rows > 1 ? t->warp_rows - 1 : 1;

	switch (key) {
	case KEY_UP:	wi--; break;
	case KEY_DOWN:	wi++; break;
	case KEY_PPAGE:	wi -= page; break;
	case KEY_NPAGE:	wi += page; break;
	case KEY_LEFT:	lane--; break;
	case KEY_RIGHT:	lane++; break;
	case KEY_HOME:	wi = 0; break;
	case KEY_END:	wi = nw - 1; break;
	default:
		return 0;
	}
	if (wi < 0)
		wi = 0;
	if (wi >= nw)
		wi = nw - 1;
	if (lane < 0)
		lane = 0;
	if (lane >= W)
		lane = W - 1;
	if (wi * W + lane >= m->cfg.ncores)
		lane = m->cfg.ncores - 1 - wi * W;
	if ((uint32_t)(wi * W + lane) != focus)
		snprintf(cmd, size, "warp %lld lane %lld",
		    (long long)wi, (long long)lane);
	return 1;
}

const struct pane_ops pane_warps_ops = {
	.name = "warps",
	.title = "Warps",
	.caption = warps_caption,
	.draw = warps_draw,
	.key = warps_key,
};
