/*
 * The screen's own commands: layout, focus (fs), colour (color), view,
 * zoom, refresh and `set level` (which asks before running cores to a
 * boundary), one struct screen_cmd each in one table, as the session's
 * commands are (src/dbg/cmd.h, tmux's cmd_entry).  tui_command() offers
 * every line to screen_command() before the session sees it; help lists
 * these commands from the table after the session's.
 *
 * Lookup is by exact name or alias only, never by prefix: the screen's
 * table is searched before the session's, so a prefix would take the
 * session's abbreviations (c, s, f, ...).  A two-word name ("set level")
 * takes its line only when both words are there, so that every other
 * `set` reaches the session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "cmd.h"
#include "layout.h"
#include "lines.h"
#include "message.h"
#include "pane.h"
#include "screen.h"
#include "session.h"
#include "tui.h"

static void	cmd_layout(struct tui *, const char *, const char *);
static void	cmd_set_level(struct tui *, const char *, const char *);
static void	cmd_focus(struct tui *, const char *, const char *);
static void	cmd_colour(struct tui *, const char *, const char *);
static void	cmd_view(struct tui *, const char *, const char *);
static void	cmd_zoom(struct tui *, const char *, const char *);
static void	cmd_refresh(struct tui *, const char *, const char *);

/* In the order help lists them; the names are cmd_screen_names
 * (src/dbg/cmd-lookup.c). */
#define N(x) &cmd_screen_names[CMD_SCREEN_##x]
const struct screen_cmd screen_cmds[] = {
	{ N(LAYOUT), "layout NAME",
	  "default, code (src, asm), cores, warps,\n"
	  "micro (datapath, microcode; at micro levels)", cmd_layout },
	{ N(SET_LEVEL), "set level isa|mic",
	  "switch levels; asks (y/n) before running cores\n"
	  "that are inside an instruction to a boundary", cmd_set_level },
	{ N(FOCUS), "focus PANE (fs)",
	  "code cores warps regs stack output cmd, next,\n"
	  "microcode datapath (micro levels)", cmd_focus },
	{ N(COLOUR), "colour status|opcode",
	  "what the cores grid is coloured by (F4)", cmd_colour },
	{ N(VIEW), "view asm|bytes|source",
	  "the code pane's view (F3 cycles)", cmd_view },
	{ N(ZOOM), "zoom in|out|fit",
	  "cores per cell of the grid (+ and - there)", cmd_zoom },
	{ N(REFRESH), "refresh",
	  "repaint the screen (Ctrl-L)", cmd_refresh },
	{ NULL, NULL, NULL, NULL }
};
#undef N

/* What help adds after the commands. */
static const char screen_keys_help[] =
"keys: typing goes to the prompt  F5 continue  F7 step  Shift-F7 reverse-step\n"
"  F8 next  F6 stepi  F2 breakpoint at the cursor  F3 view  F4 colour; with\n"
"  an empty line arrows, PgUp/PgDn move in the focused pane, Tab: next pane\n"
"  Ctrl-C or Esc stops a run (keys typed meanwhile run after the stop)\n"
"  C-x s SingleKey mode: c s S n i, [ ] core, { } warp, + - zoom; q leaves\n";

/* --- panes -------------------------------------------------------- */

static int
pane_shown(const struct tui *t, int pane)
{
	struct screen_layout l;

	layout_compute(t->layout, t->rows, t->cols, &l);
	return l.pane[pane].h > 0;
}

void
screen_focus_pane(struct tui *t, int pane)
{
	t->focus = (enum pane_id)pane;
	t->dirty |= DIRTY_ALL & ~(DIRTY_LAYOUT | DIRTY_CLEAR);
}

/* Tab order: the panes of the layout, then the command window. */
void
screen_cycle_pane(struct tui *t, int dir)
{
	static const int ring[] = { PANE_MICRO, PANE_CODE, PANE_CORES,
	    PANE_WARPS, PANE_REGS, PANE_STACK, PANE_OUTPUT, PANE_LOG };
	int n = (int)(sizeof ring / sizeof *ring), at = 0;

	for (int i = 0; i < n; i++)
		if (ring[i] == (int)t->focus)
			at = i;
	for (int k = 1; k <= n; k++) {
		int p = ring[((at + dir * k) % n + n) % n];

		if (t->win[p] != NULL) {
			screen_focus_pane(t, p);
			return;
		}
	}
}

static void
cmd_layout(struct tui *t, const char *word, const char *arg)
{
	int id;

	(void)word;
	if (*arg == '\0') {
		lines_addf(&t->log, "layout %s (layouts: default code cores "
		    "warps micro; gdb's src and asm work too)",
		    layout_name(t->layout));
		t->dirty |= DIRTY_PANE(PANE_LOG);
		return;
	}
	if ((id = layout_find(arg)) < 0) {
		tui_message(t, 1, "unknown layout '%s' (layouts: default code "
		    "cores warps micro)", arg);
		return;
	}
	if (id == LAYOUT_MICRO && tui_level(t) == LEVEL_ISA) {
		tui_message(t, 1, "layout %s: the machine runs at the ISA "
		    "level; set level mic first", arg);
		return;
	}
	if (strcmp(arg, "src") == 0 || strcmp(arg, "source") == 0)
		t->code.view = VIEW_SOURCE;
	else if (strcmp(arg, "asm") == 0)
		t->code.view = VIEW_ASM;
	t->layout = (enum layout_id)id;
	t->dirty |= DIRTY_LAYOUT;
	tui_message(t, 0, "layout %s", layout_name(t->layout));
}

static void
cmd_focus(struct tui *t, const char *word, const char *arg)
{
	int p;

	(void)word;
	if (strcmp(arg, "next") == 0 || *arg == '\0') {
		screen_cycle_pane(t, 1);
		return;
	}
	if (strcmp(arg, "prev") == 0) {
		screen_cycle_pane(t, -1);
		return;
	}
	if ((p = pane_find(arg)) < 0) {
		tui_message(t, 1, "unknown pane '%s' (panes: code cores warps "
		    "regs stack output cmd microcode datapath)", arg);
		return;
	}
	if (pane_table[p]->unavailable != NULL &&
	    pane_table[p]->unavailable(t) != NULL) {
		tui_message(t, 1, "focus %s: %s", arg,
		    pane_table[p]->unavailable(t));
		return;
	}
	if (!pane_shown(t, p)) {
		tui_message(t, 1, "pane '%s' is not in layout %s (layout "
		    "default shows every pane)", arg, layout_name(t->layout));
		return;
	}
	screen_focus_pane(t, p);
}

static void
cmd_zoom(struct tui *t, const char *word, const char *arg)
{
	uint32_t g = t->grid.group ? t->grid.group : 1;
	uint32_t n = session_machine(t->s)->cfg.ncores;

	(void)word;
	if (strcmp(arg, "in") == 0)
		t->zoom = g > 1 ? g / 2 : 1;
	else if (strcmp(arg, "out") == 0)
		t->zoom = g < n ? g * 2 : g;
	else if (strcmp(arg, "fit") == 0 || *arg == '\0')
		t->zoom = 0;
	else {
		tui_message(t, 1, "zoom takes in, out or fit, not '%s'", arg);
		return;
	}
	tui_message(t, 0, "cores grid: %s", t->zoom ? "zoomed (cores per "
	    "cell fixed; the grid scrolls to the focus)" : "the whole machine");
	t->dirty |= DIRTY_PANE(PANE_CORES);
}

/* --- commands ------------------------------------------------------------ */

/*
 * set level: from a micro level, cores inside an instruction must first
 * run to their next boundary (doc/mic1.md section 5), which changes the
 * machine: ask before doing it, as gdb asks before killing a program.
 * The switch itself (the layout, the panes refreshed) is tui.c's, which
 * makes it when this command returns with level_go set or the question
 * is answered yes.
 */
static void
cmd_set_level(struct tui *t, const char *word, const char *arg)
{
	enum level level;
	uint32_t n;

	(void)word;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	if (*arg == '\0') {
		tui_message(t, 1, "set level takes isa, mic or pmic (now %s)",
		    level_name(session_level(t->s)));
		return;
	}
	if (level_parse(arg, &level) != 0) {
		tui_message(t, 1, "unknown level '%s' (levels: isa mic pmic)",
		    arg);
		return;
	}
	if (level == session_level(t->s)) {
		tui_message(t, 0, "the machine runs at level %s already",
		    level_name(level));
		return;
	}
	if (session_level(t->s) != LEVEL_ISA &&
	    (n = session_cores_inside(t->s)) > 0) {
		t->ask = 1;
		t->ask_level = level;
		/* short enough for 80 columns: the answer must show */
		tui_message(t, 0, "run %u core%s to the end of %s instruction "
		    "and switch to %s? (y/n)", n, n == 1 ? "" : "s",
		    n == 1 ? "its" : "their", level_name(level));
		return;
	}
	/* tui.c switches when the command returns */
	t->ask_level = level;
	t->level_go = 1;
}

static void
cmd_colour(struct tui *t, const char *word, const char *arg)
{
	if (*arg == '\0')
		t->by_opcode = !t->by_opcode;
	else if (strcmp(arg, "opcode") == 0)
		t->by_opcode = 1;
	else if (strcmp(arg, "status") == 0)
		t->by_opcode = 0;
	else {
		tui_message(t, 1, "%s takes status or opcode, not '%s'",
		    word, arg);
		return;
	}
	tui_message(t, 0, "cores grid coloured by %s",
	    t->by_opcode ? "opcode class" : "status");
	t->dirty |= DIRTY_PANE(PANE_CORES);
}

static void
cmd_view(struct tui *t, const char *word, const char *arg)
{
	(void)word;
	/* asm shows a #print as the source wrote it; bytes, one key away,
	 * the BIPUSH/OUT pairs it became (doc/debugger.md) */
	if (*arg == '\0')
		t->code.view = t->code.view == VIEW_ASM ? VIEW_BYTES :
		    t->code.view == VIEW_BYTES ? VIEW_SOURCE : VIEW_ASM;
	else if (strcmp(arg, "asm") == 0)
		t->code.view = VIEW_ASM;
	else if (strcmp(arg, "bytes") == 0)
		t->code.view = VIEW_BYTES;
	else if (strcmp(arg, "source") == 0 || strcmp(arg, "src") == 0)
		t->code.view = VIEW_SOURCE;
	else {
		tui_message(t, 1, "view takes asm, bytes or source, not '%s'",
		    arg);
		return;
	}
	t->code.follow = 1;
	t->code.top = 0;
	t->dirty |= DIRTY_PANE(PANE_CODE);
}

static void
cmd_refresh(struct tui *t, const char *word, const char *arg)
{
	(void)word;
	(void)arg;
	t->dirty |= DIRTY_ALL;
}

/* --- lookup and help ---------------------------------------------------- */

static int
has_name(const struct screen_cmd *c, const char *word)
{
	return strcmp(c->id->name, word) == 0 ||
	    (c->id->alias != NULL && strcmp(c->id->alias, word) == 0);
}

int
screen_cmd_word(const char *word)
{
	for (const struct screen_cmd *c = screen_cmds; c->id != NULL; c++)
		if (strchr(c->id->name, ' ') == NULL && has_name(c, word))
			return 1;
	return 0;
}

/*
 * The entry for a line whose first word is word and whose rest (blanks
 * skipped) is arg; *rest is what the entry's exec gets.
 */
static const struct screen_cmd *
screen_cmd_find(const char *word, const char *arg, const char **rest)
{
	for (const struct screen_cmd *c = screen_cmds; c->id != NULL; c++) {
		const char *sp = strchr(c->id->name, ' ');
		size_t n;

		if (sp == NULL) {
			if (has_name(c, word)) {
				*rest = arg;
				return c;
			}
			continue;
		}
		/* two words: "set level" */
		n = strlen(sp + 1);
		if (strlen(word) == (size_t)(sp - c->id->name) &&
		    strncmp(c->id->name, word, (size_t)(sp - c->id->name)) == 0 &&
		    strncmp(arg, sp + 1, n) == 0 &&
		    (arg[n] == '\0' || arg[n] == ' ' || arg[n] == '\t')) {
			*rest = arg + n;
			return c;
		}
	}
	return NULL;
}

void
screen_help(struct tui *t, struct buf *out)
{
	struct buf b = { 0 };

	(void)t;
	buf_printf(&b, "screen commands (the TUI):\n");
	for (const struct screen_cmd *c = screen_cmds; c->id != NULL; c++) {
		const char *h = c->help;
		int first = 1;

		while (*h != '\0') {
			size_t n = strcspn(h, "\n");

			buf_printf(&b, "  %-25s%.*s\n", first ? c->usage : "",
			    (int)n, h);
			first = 0;
			h += n;
			if (*h == '\n')
				h++;
		}
	}
	buf_printf(&b, "%s", screen_keys_help);
	buf_put(out, b.data, b.len);
	buf_free(&b);
}

int
screen_command(struct tui *t, const char *line)
{
	const struct screen_cmd *c;
	char word[32];
	const char *arg = line, *rest;
	size_t n = strcspn(line, " \t");

	if (n >= sizeof word)
		return 0;
	memcpy(word, line, n);
	word[n] = '\0';
	arg += n;
	while (*arg == ' ' || *arg == '\t')
		arg++;
	if ((c = screen_cmd_find(word, arg, &rest)) == NULL)
		return 0;
	c->exec(t, word, rest);
	return 1;
}
