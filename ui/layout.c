/*
 * Screen layouts: pure functions from (layout, rows, cols) to one
 * rectangle per pane, cgdb style, so that resizing is "compute again and
 * redraw" and the unit test can check every size without a terminal.
 *
 * Every layout keeps three fixed rows: the status bar on top, the message
 * line and the command line at the bottom.  The rest is split between
 * panes by weights with minimum heights; when a terminal is too small for
 * every pane the least important ones (last in each column) are dropped
 * rather than squeezed below a readable size.  Widths favour the left
 * column (code, warps: the wide contents); the right column gets what the
 * registers need and grows with the terminal.
 */
#include <string.h>

#include "datapath.h"
#include "layout.h"

const char *const layout_names[] = {
	"default", "code", "cores", "warps", "micro", NULL
};

/* Other spellings users bring from gdb's TUI. */
static const struct {
	const char	*name;
	enum layout_id	 id;
} layout_aliases[] = {
	{ "all", LAYOUT_DEFAULT }, { "split", LAYOUT_DEFAULT },
	{ "regs", LAYOUT_DEFAULT }, { "src", LAYOUT_CODE },
	{ "asm", LAYOUT_CODE }, { "source", LAYOUT_CODE },
	{ "grid", LAYOUT_CORES }, { "divergence", LAYOUT_WARPS },
	{ "mic", LAYOUT_MICRO }, { "datapath", LAYOUT_MICRO },
	{ "microcode", LAYOUT_MICRO },
};

const char *const pane_names[] = {
	[PANE_CODE] = "code", [PANE_CORES] = "cores", [PANE_WARPS] = "warps",
	[PANE_REGS] = "regs", [PANE_STACK] = "stack",
	[PANE_OUTPUT] = "output", [PANE_LOG] = "cmd",
	[PANE_DATAPATH] = "datapath", [PANE_MICRO] = "microcode", NULL
};

int
pane_find(const char *name)
{
	static const struct {
		const char	*name;
		int		 id;
	} alias[] = {
		{ "src", PANE_CODE }, { "asm", PANE_CODE },
		{ "source", PANE_CODE }, { "registers", PANE_REGS },
		{ "frames", PANE_STACK }, { "command", PANE_LOG },
		{ "log", PANE_LOG }, { "grid", PANE_CORES },
		{ "micro", PANE_MICRO }, { "ucode", PANE_MICRO },
		{ "mal", PANE_MICRO }, { "dp", PANE_DATAPATH },
	};

	for (int i = 0; i < PANE_COUNT; i++)
		if (strcmp(pane_names[i], name) == 0)
			return i;
	for (size_t i = 0; i < sizeof alias / sizeof *alias; i++)
		if (strcmp(alias[i].name, name) == 0)
			return alias[i].id;
	return -1;
}

int
layout_find(const char *name)
{
	for (int i = 0; layout_names[i] != NULL; i++)
		if (strcmp(layout_names[i], name) == 0)
			return i;
	for (size_t i = 0; i < sizeof layout_aliases / sizeof *layout_aliases;
	    i++)
		if (strcmp(layout_aliases[i].name, name) == 0)
			return (int)layout_aliases[i].id;
	return -1;
}

const char *
layout_name(enum layout_id id)
{
	return id < LAYOUT_COUNT ? layout_names[id] : "?";
}

static int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Split total rows (or columns) between n parts by weight, each at least
 * min[i]; parts that do not fit (from the end) get 0.
 */
static void
split(int total, int n, const int *weight, const int *min, int *out)
{
	int keep = n, need, wsum = 0, left, given = 0, big = 0;

	for (;;) {
		need = 0;
		for (int i = 0; i < keep; i++)
			need += min[i];
		if (need <= total || keep == 1)
			break;
		keep--;
	}
	for (int i = 0; i < n; i++)
		out[i] = 0;
	if (need > total) {		/* not even the first fits */
		out[0] = total > 0 ? total : 0;
		return;
	}
	for (int i = 0; i < keep; i++)
		wsum += weight[i];
	left = total - need;
	for (int i = 0; i < keep; i++) {
		int extra = wsum > 0 ? left * weight[i] / wsum : 0;

		out[i] = min[i] + extra;
		given += out[i];
		if (weight[i] > weight[big])
			big = i;
	}
	out[big] += total - given;	/* rounding: to the part that grows */
}

static void
place_column(struct screen_layout *out, int y, int x, int w, int h, int n,
    const enum pane_id *ids, const int *weight, const int *min)
{
	int hs[8];

	split(h, n, weight, min, hs);
	for (int i = 0; i < n; i++) {
		struct rect *r = &out->pane[ids[i]];

		/* a title alone shows nothing */
		if (hs[i] >= 2) {
			r->y = y;
			r->x = x;
			r->h = hs[i];
			r->w = w;
		}
		y += hs[i];
	}
}

/* Rows of the registers pane: a title and seven rows of two columns. */
#define REGS_ROWS 8
/* From this width on the default layout has three columns. */
#define WIDE_COLS 150

/* Two columns: code, warps, stack | registers, cores, output. */
static void
narrow_default(struct screen_layout *out, int top, int body, int lw, int rw)
{
	static const enum pane_id l[] = { PANE_CODE, PANE_WARPS, PANE_STACK };
	static const enum pane_id r[] = { PANE_REGS, PANE_CORES, PANE_OUTPUT };
	static const int lwt[] = { 45, 33, 22 }, lmin[] = { 4, 4, 3 };
	static const int rwt[] = { 0, 60, 40 }, rmin[] = { REGS_ROWS, 3, 3 };

	place_column(out, top, 0, lw, body, 3, l, lwt, lmin);
	place_column(out, top, lw, rw, body, 3, r, rwt, rmin);
}

/*
 * A wide terminal: code and stack | warps and cores | registers and
 * output, so that the warps get the width their lanes need and the code
 * does not take a half screen of blanks.
 */
static void
wide_default(struct screen_layout *out, int top, int body, int cols)
{
	static const enum pane_id l[] = { PANE_CODE, PANE_STACK };
	static const enum pane_id m[] = { PANE_WARPS, PANE_CORES };
	static const enum pane_id r[] = { PANE_REGS, PANE_OUTPUT };
	static const int lwt[] = { 60, 40 }, lmin[] = { 4, 3 };
	static const int mwt[] = { 45, 55 }, mmin[] = { 4, 3 };
	static const int rwt[] = { 0, 1 }, rmin[] = { REGS_ROWS + 1, 3 };
	int lw = clamp(cols * 27 / 100, 44, 80);
	int rw = clamp(cols * 7 / 25, 30, 64);
	int mw = cols - lw - rw;

	place_column(out, top, 0, lw, body, 2, l, lwt, lmin);
	place_column(out, top, lw, mw, body, 2, m, mwt, mmin);
	place_column(out, top, lw + mw, rw, body, 2, r, rwt, rmin);
}

void
layout_compute(enum layout_id id, int rows, int cols,
    struct screen_layout *out)
{
	int top = 1, h, body, log_h, lw, rw;

	memset(out, 0, sizeof *out);
	if (rows < 1 || cols < 1) {
		out->too_small = 1;
		return;
	}
	out->status = (struct rect){ 0, 0, 1, cols };
	if (rows >= 3) {
		out->msg = (struct rect){ rows - 2, 0, 1, cols };
		out->cmd = (struct rect){ rows - 1, 0, 1, cols };
	} else
		out->cmd = (struct rect){ rows - 1, 0, 1, cols };
	if (rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS) {
		out->too_small = 1;
		return;
	}
	h = rows - 3;
	log_h = clamp(h / 5, 3, 14);
	body = h - log_h;
	out->pane[PANE_LOG] = (struct rect){ top + body, 0, log_h, cols };

	/* the right column: wide enough for two register columns */
	rw = clamp(cols * 3 / 8, 30, 72);
	lw = cols - rw;

	switch (id) {
	case LAYOUT_CODE: {
		static const enum pane_id l[] = { PANE_CODE };
		static const enum pane_id r[] = { PANE_REGS, PANE_STACK,
		    PANE_OUTPUT };
		static const int lwt[] = { 1 }, lmin[] = { 3 };
		static const int rwt[] = { 0, 60, 40 };
		static const int rmin[] = { REGS_ROWS, 3, 3 };

		place_column(out, top, 0, lw, body, 1, l, lwt, lmin);
		place_column(out, top, lw, rw, body, 3, r, rwt, rmin);
		break;
	}
	case LAYOUT_CORES: {
		static const enum pane_id c[] = { PANE_CORES, PANE_WARPS };
		static const int wt[] = { 60, 40 }, min[] = { 4, 4 };

		place_column(out, top, 0, cols, body, 2, c, wt, min);
		break;
	}
	case LAYOUT_WARPS: {
		static const enum pane_id c[] = { PANE_WARPS };
		static const enum pane_id l[] = { PANE_CODE };
		static const enum pane_id r[] = { PANE_REGS };
		static const int one[] = { 1 }, min4[] = { 4 };
		int hw[2];
		static const int wt[] = { 60, 40 }, min[] = { 5, REGS_ROWS };

		split(body, 2, wt, min, hw);
		place_column(out, top, 0, cols, hw[0], 1, c, one, min4);
		if (hw[1] > 0) {
			place_column(out, top + hw[0], 0, lw, hw[1], 1, l, one,
			    min4);
			place_column(out, top + hw[0], lw, rw, hw[1], 1, r,
			    one, min4);
		}
		break;
	}
	case LAYOUT_MICRO: {
		/*
		 * The datapath across the top, full size (DP_FULL_ROWS rows
		 * and a title) when the body leaves the others room, else
		 * its compact form; below it the microcode above the ISA
		 * code, registers (with MIR) beside them.
		 */
		static const enum pane_id l[] = { PANE_MICRO, PANE_CODE };
		static const enum pane_id r[] = { PANE_REGS, PANE_CORES,
		    PANE_OUTPUT };
		static const int lwt[] = { 60, 40 }, lmin[] = { 4, 3 };
		static const int rwt[] = { 0, 50, 50 };
		static const int rmin[] = { REGS_ROWS + 1, 3, 3 };
		int dh = body >= DP_FULL_ROWS + 1 + 14 ? DP_FULL_ROWS + 1 : 6;

		if (dh > body - 4)
			dh = body - 4;
		out->pane[PANE_DATAPATH] = (struct rect){ top, 0, dh, cols };
		place_column(out, top + dh, 0, lw, body - dh, 2, l, lwt, lmin);
		place_column(out, top + dh, lw, rw, body - dh, 3, r, rwt,
		    rmin);
		break;
	}
	case LAYOUT_DEFAULT:
	default:
		if (cols >= WIDE_COLS)
			wide_default(out, top, body, cols);
		else
			narrow_default(out, top, body, lw, rw);
		break;
	}
}
