/*
 * Unit tests of the TUI's pure parts, without a terminal: layouts at
 * every size that matters, the census (grid groups, warp paths, totals;
 * at 262,144 cores the passes split over threads against a walk core by
 * core), PC names and
 * listings, the transcript's line store, and the parsing of `info
 * break` that access.c falls back on.  tests/tui.sh covers the screen.
 * The test links the real session (src/dbg), which access.c reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "access.h"
#include "census.h"
#include "datapath.h"
#include "dsym.h"
#include "ijvm.h"
#include "layout.h"
#include "lines.h"
#include "names.h"
#include "places.h"
#include "session.h"
#include "tap.h"
#include "title.h"

/* --- helpers ---------------------------------------------------------- */

static int
inside(const struct rect *r, int rows, int cols)
{
	return r->y >= 0 && r->x >= 0 && r->y + r->h <= rows &&
	    r->x + r->w <= cols;
}

static int
overlap(const struct rect *a, const struct rect *b)
{
	if (a->h == 0 || b->h == 0)
		return 0;
	return a->x < b->x + b->w && b->x < a->x + a->w &&
	    a->y < b->y + b->h && b->y < a->y + a->h;
}

static void
test_layouts(void)
{
	static const int sizes[][2] = { { 24, 80 }, { 40, 120 }, { 60, 200 },
	    { 10, 40 }, { 100, 300 }, { 25, 81 }, { 50, 149 }, { 50, 150 } };

	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
		for (int id = 0; id < LAYOUT_COUNT; id++) {
			int rows = sizes[s][0], cols = sizes[s][1], bad = 0;
			struct screen_layout l;

			layout_compute((enum layout_id)id, rows, cols, &l);
			for (int i = 0; i < PANE_COUNT; i++) {
				if (l.pane[i].h == 0)
					continue;
				bad |= !inside(&l.pane[i], rows, cols);
				bad |= l.pane[i].h < 2;
				bad |= overlap(&l.pane[i], &l.status) ||
				    overlap(&l.pane[i], &l.msg) ||
				    overlap(&l.pane[i], &l.cmd);
				for (int k = i + 1; k < PANE_COUNT; k++)
					bad |= overlap(&l.pane[i], &l.pane[k]);
			}
			bad |= l.status.y != 0 || l.cmd.y != rows - 1 ||
			    l.msg.y != rows - 2;
			bad |= l.pane[PANE_LOG].h < 3;
			if (id != LAYOUT_MICRO)
				bad |= l.pane[PANE_DATAPATH].h != 0 ||
				    l.pane[PANE_MICRO].h != 0;
			ok(!bad && !l.too_small, "layout %s at %dx%d: panes inside, "
			    "no overlap, fixed rows in place", layout_name(
			    (enum layout_id)id), cols, rows);
		}
	{
		struct screen_layout l;
		int all = 1;

		layout_compute(LAYOUT_DEFAULT, 24, 80, &l);
		for (int i = 0; i < PANE_COUNT; i++)
			if (i != PANE_DATAPATH && i != PANE_MICRO)
				all &= l.pane[i].h >= 3;
		ok(all, "80x24: the default layout shows every pane");
		all &= l.pane[PANE_REGS].h >= 8 && l.pane[PANE_CODE].h >= 6;
		ok(all, "80x24: registers and code keep readable heights");
		layout_compute(LAYOUT_DEFAULT, 60, 200, &l);
		ok(l.pane[PANE_CODE].y == l.pane[PANE_WARPS].y &&
		    l.pane[PANE_WARPS].x > l.pane[PANE_CODE].x &&
		    l.pane[PANE_REGS].x > l.pane[PANE_WARPS].x,
		    "200x60: three columns (code | warps | registers)");
		ok(l.pane[PANE_WARPS].w >= 4 + 64 + 19,
		    "200x60: a warp of 64 lanes fits with its numbers");
		layout_compute(LAYOUT_DEFAULT, 9, 80, &l);
		ok(l.too_small && l.cmd.y == 8 && l.pane[PANE_CODE].h == 0,
		    "too small: only the status and command lines");
		layout_compute(LAYOUT_CORES, 40, 120, &l);
		ok(l.pane[PANE_CORES].w == 120 && l.pane[PANE_REGS].h == 0,
		    "layout cores: the grid takes the width");
		layout_compute(LAYOUT_MICRO, 24, 80, &l);
		ok(l.pane[PANE_DATAPATH].h == 6 && l.pane[PANE_DATAPATH].w == 80,
		    "micro 80x24: the compact datapath across the screen");
		ok(l.pane[PANE_MICRO].h >= 4 && l.pane[PANE_CODE].h >= 3 &&
		    l.pane[PANE_REGS].h >= 9, "micro 80x24: microcode, code and "
		    "registers (with MIR) readable");
		layout_compute(LAYOUT_MICRO, 40, 120, &l);
		ok(l.pane[PANE_DATAPATH].h == DP_FULL_ROWS + 1 &&
		    l.pane[PANE_DATAPATH].w >= DP_FULL_COLS,
		    "micro 120x40: room for the full diagram");
	}
	is_int(layout_find("default"), LAYOUT_DEFAULT, "layout_find default");
	is_int(layout_find("src"), LAYOUT_CODE, "layout_find src (gdb)");
	is_int(layout_find("asm"), LAYOUT_CODE, "layout_find asm (gdb)");
	is_int(layout_find("warps"), LAYOUT_WARPS, "layout_find warps");
	is_int(layout_find("micro"), LAYOUT_MICRO, "layout_find micro");
	is_int(layout_find("datapath"), LAYOUT_MICRO, "layout datapath is micro");
	is_int(pane_find("microcode"), PANE_MICRO, "pane_find microcode");
	is_int(pane_find("registers"), PANE_REGS, "pane_find registers");
	is_int(pane_find("cmd"), PANE_LOG, "pane_find cmd");
	is_int(pane_find("nope"), -1, "pane_find unknown");
}

static void
test_grid(void)
{
	struct grid_geom g;

	census_grid(1024, 48, 8, 0, 0, &g);
	ok(g.group >= 1 && (uint64_t)g.per_row * g.shown * g.group >= 1024 &&
	    g.rows <= 8, "1024 cores fit 48x8 (%u per cell, %u per row)",
	    g.group, g.per_row);
	is_int(g.per_row % 8, 0, "rows of a multiple of 8 cells");
	census_grid(32, 80, 4, 0, 0, &g);
	is_int(g.group, 1, "32 cores: one cell each");
	census_grid(65536, 40, 10, 0, 40000, &g);
	ok((g.group & (g.group - 1)) == 0 && g.rows <= 10 && g.top == 0,
	    "65,536 cores: a power-of-two group (%u) fits the area", g.group);
	census_grid(65536, 40, 10, 1, 40000, &g);
	ok(g.group == 1 && 40000 / g.per_row >= g.top &&
	    40000 / g.per_row < g.top + g.shown,
	    "zoomed in: the grid scrolls to the focus");
	census_grid(1u << 20, 200, 50, 0, 0, &g);
	ok((uint64_t)g.group * g.per_row * 50 >= (1u << 20),
	    "1,048,576 cores fit 200x50 (%u per cell)", g.group);
}

/* A machine of n cores on progs[0] (which must outlive it). */
static int
make_machine(struct machine *m, const struct program **progs, uint32_t n)
{
	struct machine_config cfg = { n, 16, 64, 32 };
	char *cause = NULL;

	if (machine_init(m, &cfg, progs, 1, NULL, &cause) != 0) {
		tap_diag("machine_init: %s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

static void
test_census(const char *collatz)
{
	struct program p;
	const struct program *progs[1] = { &p };
	struct machine m;
	struct census_totals tot;
	struct warp_paths v;
	struct grid_cell c;
	struct ui_bps bps;
	char *cause = NULL, hist[128];

	memset(&bps, 0, sizeof bps);
	if (program_load_file(&p, collatz, &cause) != 0) {
		ok(0, "load %s: %s", collatz, cause);
		free(cause);
		return;
	}
	if (make_machine(&m, progs, 65536) != 0) {
		ok(0, "a machine of 65,536 cores");
		program_free(&p);
		return;
	}
	/* warp 0: lanes 0-9 at 0x10, 10-19 at 0x2d, 20-23 halted after HALT,
	 * 24 faulted, 25 waiting, the rest at 0 */
	for (uint32_t l = 0; l < 10; l++)
		m.cores[l].pc = 0x10;
	for (uint32_t l = 10; l < 20; l++)
		m.cores[l].pc = 0x2d;
	for (uint32_t l = 20; l < 24; l++)
		m.cores[l].status = CORE_HALTED;
	m.cores[24].status = CORE_ERROR;
	m.cores[24].fault_pc = 0x12;
	m.cores[25].status = CORE_WAITING;
	census_warp(&m, 0, &v);
	is_int(v.nactive, 26, "warp 0: 26 active lanes");
	is_int(v.npaths, 3, "warp 0: three paths");
	ok(v.count[0] == 10 && v.pc[0] == 0x10 && v.count[1] == 10 &&
	    v.pc[1] == 0x2d && v.count[2] == 6 && v.pc[2] == 0,
	    "paths by size, ties to the lowest lane (cuda-gdb's rule)");
	ok(v.lane_path[0] == 0 && v.lane_path[15] == 1 && v.lane_path[30] == 2 &&
	    v.lane_path[20] == 255 && v.lane_path[24] == 255,
	    "each lane knows its path; inactive lanes have none");
	is_int(places_core_pc(&(struct places){ .m = &m, .level = LEVEL_ISA,
	    .focus = UINT32_MAX }, 24), 0x12, "a faulted core shows its fault PC");
	census_cell(&m, NULL, 18, 8, &c);
	ok(c.cls == CLASS_HALTED && c.majority == 4 && c.byclass[CLASS_RUNNING]
	    == 2 && c.byclass[CLASS_FAULTED] == 1 && c.count == 8,
	    "a group's majority status and counts");
	census_cell(&m, NULL, 16, 8, &c);
	is_int(c.cls, CLASS_RUNNING, "a tie goes to running over halted");
	census_cell(&m, NULL, 0, 8, &c);
	ok(c.cls == CLASS_RUNNING && c.opclass == OPC_LOCAL,
	    "opcode mode: cores at ILOAD are in the local class");
	census_totals(&m, NULL, &tot);
	ok(tot.byclass[CLASS_HALTED] == 4 && tot.byclass[CLASS_FAULTED] == 1 &&
	    tot.byclass[CLASS_WAITING] == 1 && tot.byclass[CLASS_RUNNING] ==
	    65530, "totals by status");
	is_int(tot.busy_warps, 2048, "every warp has active lanes");
	is_int(tot.paths, 2047 + 3, "paths over all warps");
	census_hist_text(&tot, 32, hist, sizeof hist);
	is_str(hist, "4-7:1 8-15:2 32:2047", "histogram of lanes per path");

	/* breakpoints: at 0x10 for cores 0-4, at 0x2d for all, an MPC one,
	 * a disabled one with two locations */
	{
		static uint8_t c04[65536];
		struct session_bp sb[5];

		memset(c04, 0, sizeof c04);
		memset(c04, 1, 5);
		memset(sb, 0, sizeof sb);
		sb[0] = (struct session_bp){ .id = 1, .enabled = 1,
		    .addr = 0x10, .cores = c04, .ncores_set = 5 };
		sb[1] = (struct session_bp){ .id = 2, .enabled = 1,
		    .addr = 0x2d };
		sb[2] = (struct session_bp){ .id = 3, .enabled = 1,
		    .on_mpc = 1, .addr = 0x10 };
		sb[3] = (struct session_bp){ .id = 4, .enabled = 0,
		    .addr = 0xba };
		sb[4] = (struct session_bp){ .id = 4, .enabled = 0,
		    .addr = 0x10 };
		access_bps_from(sb, 5, m.cfg.ncores, &bps);
	}
	is_int(bps.n, 4, "session breakpoints: four, locations grouped");
	ok(bps.v[0].id == 1 && bps.v[0].npcs == 1 && bps.v[0].pcs[0] == 0x10 &&
	    bps.v[0].cores != NULL && bps.v[0].cores[4] &&
	    !bps.v[0].cores[5], "a breakpoint on a core set (copied)");
	ok(bps.v[1].cores == NULL && bps.v[1].enabled,
	    "a breakpoint on every core");
	ok(bps.v[2].on_mpc && bps.v[2].pcs[0] == 0x10, "an MPC breakpoint");
	ok(!bps.v[3].enabled && bps.v[3].npcs == 2 && bps.v[3].pcs[1] == 0x10,
	    "two locations of one breakpoint");
	ok(access_mpc_bp_at(&bps, 0x10) == &bps.v[2] &&
	    access_mpc_bp_at(&bps, 0x2d) == NULL,
	    "MPC breakpoints are found by MPC only");
	ok(access_bp_at(&bps, 0x10) == &bps.v[0], "the enabled one at 0x10");
	ok(access_bp_at(&bps, 0xba) == &bps.v[3], "a disabled one at 0xba");
	access_bps_map(&bps, &m);
	ok(census_class(&m, &bps.map, 3) == CLASS_BREAK &&
	    census_class(&m, &bps.map, 7) == CLASS_RUNNING &&
	    census_class(&m, &bps.map, 12) == CLASS_BREAK,
	    "at a breakpoint: only the cores it applies to");

	machine_free(&m);

	/* 262,144 cores scattered over statuses and PCs, breakpoints set:
	 * the whole-machine passes split over threads (par.h) give what a
	 * core-by-core walk gives */
	if (make_machine(&m, progs, 1u << 18) == 0) {
		struct census_totals ref;
		struct grid_geom g;
		struct grid_cell *cells, one;
		uint32_t seed = 12345, bad = 0;

		for (uint32_t i = 0; i < m.cfg.ncores; i++) {
			struct core *k = &m.cores[i];
			static const uint8_t pcs[] = { 0, 0x10, 0x2d, 0xba, 0x12 };

			seed = seed * 1103515245u + 12345u;
			k->pc = pcs[(seed >> 16) % 5];
			if ((seed >> 8) % 50 == 0)
				k->status = CORE_HALTED;
			else if ((seed >> 8) % 50 == 1)
				k->status = CORE_WAITING;
			else if ((seed >> 8) % 97 == 2) {
				k->status = CORE_ERROR;
				k->fault_pc = 0x12;
			}
		}
		/* at 0x10 for cores 0-4 and 200,000, at 0x2d for all */
		{
			uint8_t *set = xcalloc(m.cfg.ncores, 1);
			struct session_bp sb[2];

			memset(set, 1, 5);
			set[200000] = 1;
			memset(sb, 0, sizeof sb);
			sb[0] = (struct session_bp){ .id = 1, .enabled = 1,
			    .addr = 0x10, .cores = set, .ncores_set = 6 };
			sb[1] = (struct session_bp){ .id = 2, .enabled = 1,
			    .addr = 0x2d };
			access_bps_from(sb, 2, m.cfg.ncores, &bps);
			free(set);
		}
		m.cores[200000].status = CORE_RUNNING;
		m.cores[200000].pc = 0x10;
		access_bps_map(&bps, &m);
		census_totals(&m, &bps.map, &tot);
		memset(&ref, 0, sizeof ref);
		for (uint32_t i = 0; i < m.cfg.ncores; i++)
			ref.byclass[census_class(&m, &bps.map, i)]++;
		for (uint32_t w = 0; w < machine_nwarps(&m); w++) {
			census_warp(&m, w, &v);
			if (v.nactive == 0)
				continue;
			ref.busy_warps++;
			ref.active += v.nactive;
			ref.paths += v.npaths;
			for (uint32_t k = 0; k < v.npaths; k++)
				ref.hist[v.count[k]]++;
		}
		ok(memcmp(&tot, &ref, sizeof tot) == 0 &&
		    ref.byclass[CLASS_BREAK] > 0 && ref.byclass[CLASS_HALTED] > 0,
		    "totals of 262,144 cores: the same as core by core");
		census_grid(m.cfg.ncores, 48, 12, 0, 0, &g);
		cells = xcalloc((size_t)g.shown * g.per_row, sizeof *cells);
		census_cells(&m, &bps.map, &g, cells);
		for (uint32_t k = 0; k < g.shown * g.per_row; k++) {
			uint64_t first = ((uint64_t)g.top * g.per_row + k) *
			    g.group;

			memset(&one, 0, sizeof one);
			if (first < m.cfg.ncores)
				census_cell(&m, &bps.map, (uint32_t)first,
				    g.group, &one);
			bad += memcmp(&one, &cells[k], sizeof one) != 0;
		}
		ok(bad == 0 && g.group > 1, "the grid's %u cells of %u cores: "
		    "the same as cell by cell (%u differ)", g.shown * g.per_row,
		    g.group, bad);
		free(cells);
		machine_free(&m);
	}
	access_bps_free(&bps);
	program_free(&p);
}

static void
test_names(const char *collatz)
{
	struct program p;
	struct dsym d;
	struct listing l;
	char *cause = NULL, text[128];
	size_t r;

	if (program_load_file(&p, collatz, &cause) != 0) {
		ok(0, "load %s: %s", collatz, cause);
		free(cause);
		return;
	}
	dsym_load(&d, &p);
	names_pc(&p, 0x10, text, sizeof text);
	is_str(text, "loop", "a label of main, without main#");
	names_pc(&p, 0x12, text, sizeof text);
	is_str(text, "loop+2", "after a label");
	names_pc(&p, 0xba, text, sizeof text);
	is_str(text, "half", "a method's first instruction");
	names_pc(&p, 0xc6, text, sizeof text);
	is_str(text, "half#loop", "a label of another method keeps its method");
	names_pc(&p, 0xb6, text, sizeof text);
	is_str(text, "half(header)", "a method header");
	names_pc(&p, 0x5000, text, sizeof text);
	is_str(text, "0x5000", "outside the text");
	dsym_insn(&p, &d, 0x10, text, sizeof text);
	is_str(text, "ILOAD n", "a local by its .var name");
	dsym_insn(&p, &d, 0xbc, text, sizeof text);
	is_str(text, "ISTORE r", "a method's local by name");
	is_int(dsym_insn(&p, &d, 0x14, text, sizeof text), 3,
	    "instruction sizes come back");
	{
		/* the text's edge: an ILOAD whose index is the last byte is
		 * named; one cut before its index is a .byte, not named */
		uint32_t size = p.text_size;

		p.text_size = 0x12;
		dsym_insn(&p, &d, 0x10, text, sizeof text);
		is_str(text, "ILOAD n", "an ILOAD ending the text is named");
		p.text_size = 0x11;
		dsym_insn(&p, &d, 0x10, text, sizeof text);
		ok(strncmp(text, ".byte", 5) == 0 && strstr(text, "n") == NULL,
		    "an ILOAD cut by the text's end is a .byte (got %s)",
		    text);
		p.text_size = size;
	}

	listing_build(&l, &p, 0);
	ok(l.n > 0 && l.rows[0].kind == ROW_METHOD &&
	    strcmp(l.rows[0].name, "main") == 0, "the listing opens with main");
	r = listing_row(&l, 0x10);
	ok(l.rows[r].kind == ROW_INSN && l.rows[r].addr == 0x10 &&
	    l.rows[r - 1].kind == ROW_LABEL &&
	    strcmp(l.rows[r - 1].name, "loop") == 0,
	    "a label row stands before its instruction");
	r = listing_row(&l, 0x13);
	is_int(l.rows[r].addr, 0x12, "an address inside an instruction");
	ok(l.src != NULL && l.nsrc > 47 && l.src_addr[47] == 0x10 &&
	    strstr(l.src[47], "ILOAD n") != NULL, "source lines and their code");
	{
		/* #print "...": one row as written, its instructions below */
		size_t dirs = 0, at = 0;

		for (size_t i = 0; i < l.n; i++)
			if (l.rows[i].kind == ROW_DIRECTIVE) {
				if (dirs++ == 0)
					at = i;
			}
		ok(dirs > 0 && strncmp(l.rows[at].name, "#print \"", 8) == 0 &&
		    at + 1 < l.n && l.rows[at + 1].kind == ROW_INSN &&
		    l.rows[at + 1].addr == l.rows[at].addr &&
		    p.text[l.rows[at].addr] == OP_BIPUSH,
		    "#print is a row as the source wrote it, above its "
		    "BIPUSH/OUT (%zu of them)", dirs);
		ok(listing_row(&l, l.rows[at].addr) == at + 1,
		    "the directive row is not an instruction's row");
	}
	{
		/* folded (the asm view): the row stands for the bytes */
		struct listing f;
		size_t at = 0;
		uint32_t first = 0, end = 0;
		char mac[128];

		listing_build(&f, &p, 1);
		while (at < f.n && f.rows[at].kind != ROW_DIRECTIVE)
			at++;
		ok(at + 1 < f.n && dsym_macro_at(&p, f.rows[at].addr, &first,
		    &end, mac, sizeof mac) && first == f.rows[at].addr &&
		    f.rows[at + 1].addr == end,
		    "folded: no rows for the bytes of a #print");
		ok(at < f.n && listing_row(&f, first + 2) == at,
		    "folded: a PC inside a #print is the directive's row");
		listing_free(&f);
	}
	for (size_t i = 0; i < p.nlabels; i++)
		if (strcmp(p.labels[i].name, "even") == 0 ||
		    strcmp(p.labels[i].name, "main#even") == 0) {
			dsym_insn(&p, &d, (int32_t)p.labels[i].addr, text,
			    sizeof text);
			is_str(text, "LDC_W OBJREF",
			    "a constant by its .constant name");
		}
	listing_free(&l);
	dsym_free(&d);
	program_free(&p);
}

static void
test_lines(void)
{
	struct lines l = { 0 };

	l.max = 3;
	lines_add(&l, "a\nb\n", 4);
	is_int(l.n, 2, "two lines; a final newline opens none");
	lines_add(&l, "c\td\x1b[2J\n", 8);
	is_str(l.v[2], "c d?[2J", "tabs and control characters are defused");
	lines_addf(&l, "%s", "e");
	ok(l.n == 3 && strcmp(l.v[0], "b") == 0, "the oldest line goes first");
	lines_free(&l);
}

/* A canvas row containing text, or -1. */
static int
canvas_find(const struct dp_canvas *cv, const char *text)
{
	char line[DP_MAX_COLS + 1];

	for (int y = 0; y < cv->h; y++) {
		dp_canvas_line(cv, y, line, sizeof line);
		if (strstr(line, text) != NULL)
			return y;
	}
	return -1;
}

static void
test_datapath(void)
{
	static struct dp_canvas cv;
	struct core c, prev;
	struct mic1_core mc;
	struct program prog;
	uint8_t text[8] = { 0x10, 0x59, 0x60, 0x57, 0x60, 0xa7, 0, 0 };
	struct dp_input in;
	struct dp_decode d;
	uint64_t w;
	int y;

	memset(&c, 0, sizeof c);
	memset(&mc, 0, sizeof mc);
	memset(&prog, 0, sizeof prog);
	prog.text = text;
	prog.text_size = sizeof text;
	c.pc = 5;
	c.mbr = 0x10;
	c.h = 3;
	c.sp = 0x8002;
	c.mpc = MIC1_MAIN1;
	prev = c;
	prev.pc = 4;
	memset(&in, 0, sizeof in);
	in.c = &c;
	in.prog = &prog;
	in.mc = &mc;
	/* Main1 as the .mic1 bytes of doc/mic1.md give it: 00 43 50 21 10 */
	in.word = UINT64_C(0x0043502110) >> 4;
	in.present = 1;

	dp_decode(&in, &d);
	is_int(d.bsel, MIC1_B_PC, "Main1: B bus from PC");
	is_str(d.func, "B+1", "Main1: the ALU computes B+1");
	is_int(d.alu_out, 6, "Main1: 5 + 1 = 6");
	is_int(d.cmask, MIC1_C_PC, "Main1: C bus writes PC only");
	is_int(d.mem, MIC1_MEM_FETCH, "Main1: FETCH");
	ok(d.jmpc && !d.jamn && !d.jamz, "Main1: JMPC alone");
	is_int(d.mpc_next, 0x10, "Main1: goto (MBR) with MBR 0x10 -> 0x010");
	ok(!d.n && !d.z, "Main1: N and Z of 6 are 0");

	/* a FETCH in flight: JMPC sees the byte at the latched PC */
	mc.pending = MIC1_PEND_FETCH;
	mc.pc_latch = 2;
	dp_decode(&in, &d);
	is_int(d.mpc_next, 0x60, "pending FETCH: JMPC uses the byte it brings");
	mc.pc_latch = 100;
	dp_decode(&in, &d);
	ok(!d.jmpc_known, "a FETCH outside the text: next MPC unknown");
	mc.pending = 0;

	/* B - H with SRA1, and a JAMZ that is taken */
	ok(mic1_make(&w, 0x05, MIC1_JAM_Z, MIC1_F_B_SUB_A | MIC1_ALU_SRA1,
	    MIC1_C_TOS | MIC1_C_H, MIC1_MEM_READ, MIC1_B_TOS) == 0,
	    "a test word");
	in.word = w;
	c.tos = 3;
	dp_decode(&in, &d);
	is_int(d.alu_out, 0, "B-A: TOS 3 - H 3 = 0");
	ok(d.z && !d.n, "Z from the ALU output");
	is_int(d.mpc_next, 0x105, "JAMZ taken: NEXT | 0x100");
	c.tos = 1;
	dp_decode(&in, &d);
	is_int(d.alu_out, -2, "B-A: 1 - 3 = -2");
	is_int(d.shifted, -1, "SRA1 is arithmetic: -2 >> 1 = -1");
	ok(d.n && !d.z, "N from the ALU output, before the shifter");
	is_int(d.mpc_next, 0x05, "JAMZ not taken");
	c.tos = 3;

	/* the full diagram of Main1 */
	in.word = UINT64_C(0x0043502110) >> 4;
	in.label = "Main1";
	in.text = "PC = PC + 1; fetch; goto (MBR)";
	in.prev = &prev;
	dp_canvas_init(&cv, 16, 90);
	dp_render(&in, &cv);
	ok(canvas_find(&cv, "MPC 0x002 Main1: PC = PC + 1; fetch; goto (MBR)")
	    == 0, "full: the header names MPC, label and MAL text");
	y = canvas_find(&cv, "PC  0x0005");
	ok(y > 0, "full: the PC row");
	ok(y > 0 && canvas_find(&cv, "PC  0x0005     B> <C addr") == y,
	    "full: PC drives B, is written by C and addresses the fetch");
	ok(y > 0 && cv.role[y][0] == DPR_ACTIVE, "full: the PC row is "
	    "highlighted");
	y = canvas_find(&cv, "SP  0x8002");
	ok(y > 0 && cv.role[y][0] == DPR_TEXT, "full: SP takes no part");
	ok(canvas_find(&cv, "H   3          A>") < 0,
	    "full: H is not the A input of B+1 (ENA 0)");
	ok(canvas_find(&cv, "B bus  PC = 5") > 0, "full: the B bus value");
	ok(canvas_find(&cv, "ALU    B+1 = 6") > 0, "full: the ALU function");
	ok(canvas_find(&cv, "F0F1 11 ENA 0 ENB 1 INVA 0 INC 1") > 0,
	    "full: the ALU control bits");
	ok(canvas_find(&cv, "C bus  PC") > 0, "full: the C bus targets");
	ok(canvas_find(&cv, "memory FETCH") > 0, "full: the memory operation");
	ok(canvas_find(&cv, "pending none") > 0, "full: nothing in flight");
	ok(canvas_find(&cv, "next   0x000 JMPC(MBR 0x10) -> 0x010") > 0,
	    "full: the next-address logic");

	mc.pending = MIC1_PEND_READ;
	mc.mar_latch = 0x8001;
	dp_canvas_init(&cv, 16, 90);
	dp_render(&in, &cv);
	ok(canvas_find(&cv, "pending READ of 0x8001") > 0,
	    "full: a pending READ and its latched address");
	ok(canvas_find(&cv, "<mem") > 0 && canvas_find(&cv, "MDR") ==
	    canvas_find(&cv, "<mem"), "full: MDR receives the READ");
	mc.pending = 0;

	/* 80x24: the compact form */
	dp_canvas_init(&cv, 5, 78);
	dp_render(&in, &cv);
	ok(canvas_find(&cv, "B=PC ALU B+1=6 N0 Z0 mem FETCH") == 1,
	    "compact: the cycle on one row");
	ok(canvas_find(&cv, "next 0x000 JMPC(MBR 0x10) -> 0x010") == 2,
	    "compact: the next address");
	ok(canvas_find(&cv, "PC 0x0005 B> <C addr") > 2,
	    "compact: register cells with their tags");

	/* an absent word */
	in.present = 0;
	dp_canvas_init(&cv, 16, 90);
	dp_render(&in, &cv);
	ok(canvas_find(&cv, "no micro-instruction here") == 0,
	    "absent word: said, not drawn");
	ok(canvas_find(&cv, "B>") < 0, "absent word: no tags");
}

static void
test_frames(void)
{
	struct session_frame_local l0[3] = { { NULL, 7 }, { "n", 5 },
	    { "acc", 1 } };
	struct session_frame_local l1[2] = { { "x", 3 }, { "y", 4 } };
	struct session_frame f[2];
	int32_t top[2] = { 9, 10 };
	const int32_t *stack[2] = { NULL, top };
	struct lines out = { 0 };

	memset(f, 0, sizeof f);
	f[0] = (struct session_frame){ .method = "fib", .pc = 0x42,
	    .lv = 0x8010, .nlocals = 3, .nparams = 1, .locals = l0,
	    .link = 0x8010, .saved_pc = 0x17, .saved_lv = 0x8000,
	    .stack_lo = 0x8014, .stack_hi = 0x8013 };
	f[1] = (struct session_frame){ .method = "main", .pc = 0x17,
	    .lv = 0x8000, .nlocals = 2, .locals = l1, .link = -1,
	    .saved_pc = -1, .saved_lv = -1, .stack_lo = 0x8002,
	    .stack_hi = 0x8001 };
	access_format_frames(f, 2, stack, &out);
	is_int(out.n, 5, "frames: five lines");
	if (out.n == 5) {
		is_str(out.v[0], "#0  0x0042 in fib(n=5)  [LV 0x8010]",
		    "frames: a method with its argument by name");
		is_str(out.v[1], "    locals: acc=1", "frames: its locals");
		is_str(out.v[2], "    link 0x8010: saved PC 0x0017, saved LV "
		    "0x8000", "frames: link, saved PC and LV");
		is_str(out.v[3], "#1  0x0017 in main  [LV 0x8000]",
		    "frames: main");
		is_str(out.v[4], "    locals: x=3 y=4", "frames: main's locals");
	}
	f[0].note = (char *)(uintptr_t)"link pointer 0x9999 is outside the stack";
	access_format_frames(f, 1, stack, &out);
	ok(out.n == 4 && strstr(out.v[3], "outside the stack") != NULL,
	    "frames: a broken walk says why");
	f[0].note = NULL;
	f[1].stack_hi = 0x8003;
	access_format_frames(f + 1, 1, stack + 1, &out);
	ok(out.n == 3 && strcmp(out.v[2], "    stack (2 words, top last): 9 "
	    "10") == 0, "frames: the operand stack, top last");
	lines_free(&out);
}

static void
test_datapath_pmic(void)
{
	static struct dp_canvas cv;
	struct core c;
	struct pmic_mi mi;
	struct dp_pmic_input in;
	struct dp_pmic_decode d;

	memset(&c, 0, sizeof c);
	memset(&mi, 0, sizeof mi);
	c.sp = 0x8004;
	c.pc = 1;
	c.mbr = 0x10016059;	/* MBR0 0x10, MBR1 0x01 */
	c.mpc = 0x10;
	/* CU0: mar,sp = sp + 1, fetch; CU1: tos = mbr1s; CU2: pc = pc + c2 */
	mi.cu[0] = pmic_cu_make(1, PMIC_ALU_INC, PMIC_R_SP, PMIC_R_NONE,
	    PMIC_C_SP | PMIC_C_MAR, 1);
	mi.cu[1] = pmic_cu_make(1, PMIC_ALU_A, PMIC_R_MBR1S, PMIC_R_NONE,
	    PMIC_C_TOS, 0);
	mi.cu[2] = pmic_cu_make(1, PMIC_ALU_ADD, PMIC_R_PC, PMIC_R_C2,
	    PMIC_C_PC, 0);
	mi.next = (UINT32_C(1) << PMIC_BIT_PRESENT) |
	    (UINT32_C(1) << PMIC_BIT_JMPC);
	memset(&in, 0, sizeof in);
	in.c = &c;
	in.core = 7;
	in.mi = &mi;
	in.present = 1;
	dp_decode_pmic(&in, &d);
	is_int(d.cu[0].out, 0x8005, "pmic: CU0 computes SP + 1");
	is_int(d.cu[1].out, 1, "pmic: CU1 reads MBR1 sign-extended");
	is_int(d.cu[2].out, 3, "pmic: CU2 adds the constant C2");
	ok(d.jmpc && !d.n && !d.z, "pmic: dispatch, N and Z from CU0");
	dp_canvas_init(&cv, 10, 100);
	dp_render_pmic(&in, &cv);
	ok(canvas_find(&cv, "CU0  A=sp(32772) A + 1 = 32773 -> sp mar  fetch")
	    == 1, "pmic: CU0's row: inputs, operation, targets, memory");
	ok(canvas_find(&cv, "CU2  A=pc(1) B=c2(2) A + B = 3 -> pc") == 3,
	    "pmic: CU2 with two inputs");
	ok(canvas_find(&cv, "pc 1 r2w2") > 4, "pmic: PC read and written by CU2");
	ok(canvas_find(&cv, "g0 ?") > 4, "pmic: G0 unknown without the state");
	mi.cu[1] = 0;
	dp_canvas_init(&cv, 10, 100);
	dp_render_pmic(&in, &cv);
	ok(canvas_find(&cv, "CU1  idle") == 2, "pmic: an idle unit says so");
}

/*
 * The title builder (title.c): whole fields drop, least important first;
 * a number is never cut (the issue's "line 9" for line 92).
 */
static void
test_titles(void)
{
	struct title tt;
	char out[256];
	int cut = 0;

	title_init(&tt);
	title_add(&tt, TP_NAME, "> Code");
	title_add(&tt, TP_MID, "collatz.jas");
	title_add(&tt, TP_HIGH, "core 4033 at finished+105");
	title_add(&tt, TP_HIGH - 10, "line 92");
	title_add(&tt, TP_LOW, "[asm, F3]");
	title_fit(&tt, 200, out, sizeof out);
	is_str(out, "> Code  collatz.jas  core 4033 at finished+105  line 92  "
	    "[asm, F3]", "title: everything fits at 200 columns");
	title_fit(&tt, 58, out, sizeof out);
	is_str(out, "> Code  collatz.jas  core 4033 at finished+105  line 92",
	    "title: the lowest priority goes first ([asm, F3])");
	title_fit(&tt, 50, out, sizeof out);
	is_str(out, "> Code  core 4033 at finished+105  line 92",
	    "title: then the file name");
	title_fit(&tt, 41, out, sizeof out);
	is_str(out, "> Code  core 4033 at finished+105",
	    "title: then the line, whole: never \"line 9\"");
	title_fit(&tt, 20, out, sizeof out);
	is_str(out, "> Code  core 4033...", "title: the last field alone is cut "
	    "at a blank, with an ellipsis");
	title_fit(&tt, 6, out, sizeof out);
	is_str(out, "> Code", "title: the pane's name alone");
	title_fit(&tt, 3, out, sizeof out);
	ok(strlen(out) <= 3, "title: never wider than the pane (%zu)",
	    strlen(out));
	/* every width: within it, and every number shown is whole */
	for (int w = 0; w <= 80; w++) {
		size_t n = title_fit(&tt, w, out, sizeof out);

		cut |= n > (size_t)(w > 0 ? w : 0) || n != strlen(out);
		cut |= strstr(out, "line ") != NULL &&
		    strstr(out, "line 92") == NULL;
		cut |= strstr(out, "core ") != NULL &&
		    strstr(out, "core 4033") == NULL;
	}
	ok(!cut, "title: at every width 0..80 within it, no number cut");

	/* equal priorities: the rightmost goes first; a short form is
	 * taken before a field is dropped */
	title_init(&tt);
	title_add(&tt, TP_NAME, "A");
	title_add(&tt, TP_LOW, "bb");
	title_add(&tt, TP_LOW, "cc");
	title_fit(&tt, 6, out, sizeof out);
	is_str(out, "A  bb", "title: of equal priorities the rightmost drops");
	title_init(&tt);
	title_add(&tt, TP_NAME, "Datapath");
	title_add(&tt, TP_HIGH, "core 7: the micro-instruction at MPC 0x002, "
	    "about to run");
	title_alt(&tt, "core 7 at MPC 0x002");
	title_fit(&tt, 40, out, sizeof out);
	is_str(out, "Datapath  core 7 at MPC 0x002",
	    "title: the short form before dropping");
	title_clip("locals: start=0 n=0 steps=0 peak=12", 34, out, sizeof out);
	is_str(out, "locals: start=0 n=0 steps=0...", "clip: cut at a blank, "
	    "never peak=1 for peak=12");
	title_clip("locals: n=4", 40, out, sizeof out);
	is_str(out, "locals: n=4", "clip: whole when it fits");
	title_clip("12345678", 5, out, sizeof out);
	is_str(out, "", "clip: nothing rather than a cut number");
	title_init(&tt);
	title_add(&tt, TP_NAME, "%s", "");
	is_int(tt.n, 0, "title: an empty field is not added");
	title_fit(&tt, 10, out, sizeof out);
	is_str(out, "", "title: no fields, empty");
}

/* One count: the words both the status bar and the cores pane use. */
static void
test_counts(void)
{
	uint32_t by[CLASS_COUNT] = { 0 };
	char text[128];

	by[CLASS_RUNNING] = 33;
	by[CLASS_BREAK] = 31;
	census_counts_text(by, text, sizeof text);
	is_str(text, "33 run 31 break", "counts: the classes that have cores, "
	    "a core at a breakpoint once, as break");
	memset(by, 0, sizeof by);
	census_counts_text(by, text, sizeof text);
	is_str(text, "no cores", "counts: none");
}

/* The pager's search: case-insensitive, from a line, wrapping. */
static void
test_find(void)
{
	struct lines l = { 0 };

	lines_add(&l, "break LOCATION\nwatch EXPR\ninfo break\n", 37);
	is_int((int)lines_find(&l, "Break", 0), 1, "find: ignores case");
	is_int((int)lines_find(&l, "break", 1), 3, "find: from a line");
	is_int((int)lines_find(&l, "watch", 2), 2, "find: wraps to the top");
	is_int((int)lines_find(&l, "nothing", 0), 0, "find: none");
	is_int((int)lines_find(&l, "", 0), 0, "find: an empty pattern");
	lines_free(&l);
}

int
main(void)
{
	char *collatz = xasprintf("%s/programs/collatz.jas", MICDB_SRCDIR);

	test_layouts();
	test_grid();
	test_census(collatz);
	test_names(collatz);
	test_lines();
	test_datapath();
	test_frames();
	test_datapath_pmic();
	test_titles();
	test_counts();
	test_find();
	free(collatz);
	return done_testing();
}
