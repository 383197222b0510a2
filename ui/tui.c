/*
 * micdb PROGRAM: the interactive debugger (doc/debugger.md sections 2-4).
 *
 * tui_main opens a session as the batch front end does
 * (src/dbg/session-open.c: options, programs, machine, engine), takes
 * over the terminal (term.c) and runs the main loop:
 *
 *   draw what is dirty -> poll(stdin, signal pipe; no wait while a run
 *   is in progress) -> signals -> keys -> lines readline accepted ->
 *   one slice of the run in progress
 *
 * The loop never blocks while the machine runs: a command that runs it
 * only begins a run, and each turn advances it with session_poll() by a
 * budget of global steps adapted so that a slice takes ~25 ms; the
 * screen is redrawn every ~70 ms, so the warps and cores panes move at
 * >= 10 frames a second with steps/s and cores running on the status
 * bar.  Ctrl-C (SIGINT sets the session's interrupt flag at once, even
 * inside a slice) or Esc stops the run at the next step boundary.
 *
 * Keys (doc/debugger.md section 3) follow gdb's TUI: the screen starts
 * at the prompt, and every printable key is typed there, so commands are
 * typed as in gdb.  Function keys work in every mode (F5 continue, F7
 * step, Shift-F7 reverse-step, F8 next, F6 stepi, F2 breakpoint at the
 * cursor, F3 view, F4 colour); with an empty line the arrows and pages
 * move in the focused pane and Tab changes pane (otherwise readline has
 * them: editing, history, completion).  SingleKey mode is the opt-in:
 * C-x s enters it (the C-x is held back from readline, whose own C-x
 * bindings still get C-x and the next key), q or C-x s leaves it; there
 * c s S n i run commands and [ ] { } move the focus, ':' opens the
 * prompt, and any other key drops into the prompt typed, for one command,
 * as in gdb.  Everything a key does is a command line run through
 * tui_command(), echoed in the transcript, so keys teach the commands.
 *
 * During a run keys are not commands: they are kept, in order, and fed
 * to the same key handling after the stop, so that what was typed ahead
 * runs as typed (a line that runs the machine again keeps the rest
 * waiting for its own stop).  Only Esc, and Ctrl-C as a signal, stop it.
 *
 * A few commands belong to the screen (cmd-screen.c, a table like the
 * session's) and are offered the line before the session sees it:
 * layout, focus (fs), colour, view, zoom, refresh, set level; help lists
 * them after the session's commands, in the pager (pager.c), which takes
 * the keys while it is open.  One ':' before a command is dropped.  The session is made
 * with repeat off: the UI repeats the last line on Enter itself, because
 * it also runs hidden commands (access.c) that must not be repeated.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "access.h"
#include "cmd.h"
#include "complete.h"
#include "dsym.h"
#include "engine.h"
#include "history.h"
#include "ijvm.h"
#include "layout.h"
#include "lines.h"
#include "message.h"
#include "names.h"
#include "pager.h"
#include "pane.h"
#include "screen.h"
#include "session-open.h"
#include "term.h"
#include "tui.h"

static const char tui_usage[] =
"usage: micdb [options] PROGRAM\n"
"The interactive debugger: a full-screen view of PROGRAM (.jas or .ijvm)\n"
"running on many IJVM cores, with gdb-style commands at the prompt.\n"
"Options are those of micdb run (micdb run --help): --cores N,\n"
"--warp-width W, --program FILE:RANGE, --input FILE, --max-steps N,\n"
"--stack-words N, --heap-words N, --engine ref|native|opencl,\n"
"--device SEL, --level isa|mic|pmic (start level), --microcode FILE,\n"
"--fork-join, --threads N, --trace FILE [--trace-format F]\n"
"[--trace-cores SET] (a trace from the start, as trace start);\n"
"--batch FILE (-x FILE) runs debugger commands without a screen.\n"
"Keys: typing goes to the command prompt.  F5 continue, F7 step, Shift-F7\n"
"reverse-step, F8 next, F6 stepi, F2 breakpoint at the code cursor (an MPC\n"
"breakpoint in the microcode pane), F4 colour, Tab next pane, arrows and\n"
"PgUp/PgDn move in it; C-x s SingleKey mode (c s S n i, [ ] core, { } warp;\n"
"q leaves); Ctrl-C or Esc stops a run, keys typed meanwhile run after the\n"
"stop; quit or Ctrl-D leaves.  `set level mic` switches to the micro\n"
"level (layout micro: datapath and microcode panes).  Type help at the\n"
"prompt.\n";

#define SLICE_TARGET  0.025   /* seconds of engine work per poll */
#define FRAME_TIME    0.070   /* frames in a run: ~14 a second */
#define LOG_LINES     4000
#define SNAPSHOT_MAX  (1u << 17)  /* cores copied for "changed" marks */
#define TYPEAHEAD_MAX 65536       /* keys kept during a run */

static double
tui_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --- model helpers --------------------------------------------------------- */

static void
log_buf(struct tui *t, const struct buf *b)
{
	if (b->len == 0)
		return;
	lines_add(&t->log, (const char *)b->data, b->len);
	t->log_scroll = 0;
	t->dirty |= DIRTY_PANE(PANE_LOG);
}

/* The first line of text as the message (a stop report's headline). */
static void
message_first_line(struct tui *t, const struct buf *b)
{
	size_t n = 0;

	while (n < b->len && b->data[n] != '\n')
		n++;
	if (n > 0)
		tui_message(t, 0, "%.*s", (int)n, (const char *)b->data);
}

/* --- callbacks from the session ------------------------------------------- */

static void
on_output(void *arg, uint32_t core, const uint8_t *data, size_t len)
{
	struct tui *t = arg;
	struct buf *b;

	if (core >= t->out.ncores || len == 0)
		return;
	if ((b = t->out.core[core]) == NULL)
		b = t->out.core[core] = xcalloc(1, sizeof *b);
	buf_put(b, data, len);
	t->out.recv[core] += len;
	if (b->len > OUT_KEEP) {
		/* keep the tail, from a line start when there is one */
		size_t cut = b->len - OUT_KEEP;

		while (cut < b->len && b->data[cut - 1] != '\n')
			cut++;
		if (cut == b->len)
			cut = b->len - OUT_KEEP;
		memmove(b->data, b->data + cut, b->len - cut);
		b->len -= cut;
	}
	if (core == session_focus(t->s))
		t->dirty |= DIRTY_PANE(PANE_OUTPUT);
}

/* --- after a stop ------------------------------------------------------------ */

/*
 * Match the output buffers to the session's cut.  Bytes beyond the
 * session's high mark were discarded with the history (run, set var...):
 * drop them, the run will produce its own.  Bytes between the cut and the
 * high mark are the recorded future: hide them, the session will not send
 * them again when execution gets there.
 */
static void
sync_output(struct tui *t)
{
	for (uint32_t c = 0; c < t->out.ncores; c++) {
		struct buf *b = t->out.core[c];
		uint64_t high = history_output_high(t->s, c);
		uint64_t total = history_output_total(t->s, c);

		if (b == NULL)
			continue;
		if (t->out.recv[c] > high) {
			uint64_t drop = t->out.recv[c] - high;

			b->len = drop < b->len ? b->len - (size_t)drop : 0;
			t->out.recv[c] = high;
		}
		t->out.hide[c] = high > total ? high - total : 0;
	}
}

/* Refresh what the session only gives while stopped, and the prompt. */
static void
after_stop(struct tui *t, int ran)
{
	uint32_t focus = session_focus(t->s);
	char prompt[128];

	access_stopped(t);
	if (ran || focus != t->last_focus) {
		t->code.follow = 1;
		t->frames_scroll = 0;
		t->out_scroll = 0;
	}
	sync_output(t);
	t->last_focus = focus;
	snprintf(prompt, sizeof prompt, "%s ", session_prompt(t->s));
	term_rl_set_prompt(prompt);
	t->dirty |= DIRTY_ALL & ~(DIRTY_LAYOUT | DIRTY_CLEAR);
}

/* Copy the registers that the "changed" marks compare with. */
static void
snapshot(struct tui *t)
{
	const struct machine *m = session_machine(t->s);
	uint32_t n = m->cfg.ncores, first = 0, count = n;

	if (n > SNAPSHOT_MAX) {
		/* a huge machine: the focused warp is what is looked at */
		first = session_focus(t->s) / m->cfg.warp_width *
		    m->cfg.warp_width;
		count = n - first < m->cfg.warp_width ? n - first :
		    m->cfg.warp_width;
	}
	if (count != t->prev_n) {
		free(t->prev);
		t->prev = xcalloc(count, sizeof *t->prev);
	}
	memcpy(t->prev, m->cores + first, count * sizeof *t->prev);
	t->prev_first = first;
	t->prev_n = count;
}

/* --- running ------------------------------------------------------------------ */

static void	input_hint(struct tui *t);

static void
run_stopped(struct tui *t, int rc, struct buf *out, char *cause)
{
	t->running = 0;
	term_set_run(session_interrupt_flag(t->s), 0);
	log_buf(t, out);
	if (rc < 0) {
		tui_message(t, 1, "%s", cause ? cause : "the engine failed");
		free(cause);
	} else
		message_first_line(t, out);
	after_stop(t, 1);
	input_hint(t);
}

/* One slice of the run in progress. */
static void
run_slice(struct tui *t)
{
	const struct machine *m = session_machine(t->s);
	struct buf out = { 0 };
	char *cause = NULL;
	double t0 = tui_now(), dt, now;
	int rc;

	rc = session_poll(t->s, t->budget, &out, &cause);
	now = tui_now();
	dt = now - t0;
	if (dt < SLICE_TARGET / 3 && t->budget < ((uint64_t)1 << 30))
		t->budget *= 2;
	else if (dt > SLICE_TARGET * 2 && t->budget > 1)
		t->budget /= 2;
	if (now - t->rate_t >= 0.5) {
		t->rate = (double)(m->step - t->rate_step) / (now - t->rate_t);
		t->rate_t = now;
		t->rate_step = m->step;
	}
	t->dirty |= DIRTY_STATUS | DIRTY_PANE(PANE_CORES) |
	    DIRTY_PANE(PANE_WARPS) | DIRTY_PANE(PANE_REGS) |
	    DIRTY_PANE(PANE_CODE) | DIRTY_PANE(PANE_MICRO) |
	    DIRTY_PANE(PANE_DATAPATH);
	if (rc == 1) {
		log_buf(t, &out);
		buf_free(&out);
		return;
	}
	run_stopped(t, rc, &out, cause);
	buf_free(&out);
}

static void
run_begin(struct tui *t)
{
	const struct machine *m = session_machine(t->s);
	double now = tui_now();

	snapshot(t);
	t->running = 1;
	term_set_run(session_interrupt_flag(t->s), 1);
	t->run_t0 = t->rate_t = now;
	t->run_step0 = t->rate_step = m->step;
	t->rate = 0;
	t->frames_stale = 1;
	t->typeahead_lost = 0;
	if (t->budget == 0)
		t->budget = 64;
	t->dirty |= DIRTY_STATUS | DIRTY_CMD | DIRTY_PANE(PANE_STACK);
	/* a step finishes here, without a frame of "running" */
	run_slice(t);
}

static void
interrupt_run(struct tui *t)
{
	*session_interrupt_flag(t->s) = 1;
	tui_message(t, 0, "stopping...");
}

/* --- levels ---------------------------------------------------------------- */

static void
set_level_now(struct tui *t, enum level level)
{
	enum level was = session_level(t->s);
	int told = session_told_mic1(t->s);
	char *cause = NULL;

	if (session_set_level(t->s, level, 1, &cause) != 0) {
		tui_message(t, 1, "%s", cause);
		free(cause);
		after_stop(t, 0);
		return;
	}
	/* the micro panes come and go with the level */
	if (level != LEVEL_ISA && t->layout == LAYOUT_DEFAULT) {
		t->layout = LAYOUT_MICRO;
		t->dirty |= DIRTY_LAYOUT;
	} else if (level == LEVEL_ISA && t->layout == LAYOUT_MICRO) {
		t->layout = LAYOUT_DEFAULT;
		t->dirty |= DIRTY_LAYOUT;
	}
	t->urows_for = NULL;
	t->ucode.follow = 1;
	lines_addf(&t->log, "level %s (was %s), layout %s", level_name(level),
	    level_name(was), layout_name(t->layout));
	if (!told && session_told_mic1(t->s))
		lines_addf(&t->log, "%s", session_mic1_note);
	after_stop(t, 1);
	tui_message(t, 0, "level %s%s", level_name(level), level ==
	    LEVEL_ISA ? "" : ": stepi (F6) steps a micro-cycle, F2 in the "
	    "microcode pane breaks on an MPC");
}

/*
 * A key while a question is open: it goes to the command line, and the
 * line (Enter) answers, as gdb reads y, yes, n or no and Enter (a key
 * alone answered `y` to "yes" and ran "es").
 */
static void
answer(struct tui *t, int key)
{
	term_rl_key(key);
	t->dirty |= DIRTY_CMD;
}

/* The line typed at an open question: y/yes or n/no; anything else
 * (an empty line too, as gdb's query does) asks again. */
static void
answer_line(struct tui *t, const char *line)
{
	if (strcasecmp(line, "y") == 0 || strcasecmp(line, "yes") == 0) {
		t->ask = 0;
		lines_addf(&t->log, "(y) running cores to their boundaries");
		set_level_now(t, t->ask_level);
		return;
	}
	if (strcasecmp(line, "n") == 0 || strcasecmp(line, "no") == 0) {
		t->ask = 0;
		tui_message(t, 0, "level unchanged: still %s",
		    level_name(session_level(t->s)));
		return;
	}
	tui_message(t, 1, "please answer y or n (then Enter)");
}

/* The command word of line, as cmd_find resolves it: is it help? */
static int
is_help(const char *line)
{
	const struct cmd_entry *e;
	char word[64], *cause = NULL;
	size_t n = strcspn(line, " \t");

	if (n == 0 || n >= sizeof word)
		return 0;
	memcpy(word, line, n);
	word[n] = '\0';
	if (cmd_find(cmd_table, word, "command", &e, &cause) != 0) {
		free(cause);
		return 0;
	}
	return strcmp(e->name, "help") == 0;
}

/*
 * help and help COMMAND: the text --batch prints (the session's, then
 * the screen's commands and keys, or one screen command's usage), in the
 * pager over the panes where it can be read whole.
 */
static void
help_pager(struct tui *t, const char *line)
{
	const char *arg = line + strcspn(line, " \t");
	struct buf out = { 0 };
	char *cause = NULL, title[128];

	arg += strspn(arg, " \t");
	if (*arg != '\0' && strcspn(arg, " \t") == strlen(arg) &&
	    screen_cmd_word(arg))
		screen_help(t, &out);
	else if (session_execute(t->s, line, &out, &cause) != 0) {
		tui_message(t, 1, "%s", cause);
		free(cause);
		buf_free(&out);
		return;
	} else if (*arg == '\0')
		screen_help(t, &out);
	snprintf(title, sizeof title, "Help%s%s", *arg ? ": " : "", arg);
	pager_open(t, title, (const char *)out.data, out.len);
	lines_addf(&t->log, "(%s: in the pager over the panes; q closes)",
	    *arg ? "help" : "the command list");
	buf_free(&out);
}

/*
 * The first time the focused core has run a program that reads input
 * (an IN in its listing) with none queued, say how to give it some: on
 * the screen a program like echo.jas reads 0 and halts at once without
 * a word (doc/debugger.md section 3, `input`).  The session does not
 * report each IN, so this asks what the screen knows: the core stepped
 * in the last run, its program has an IN, and its queue is empty.
 */
static void
input_hint(struct tui *t)
{
	const struct machine *m = session_machine(t->s);
	uint32_t f = session_focus(t->s);
	const struct core *c = &m->cores[f], *old = tui_prev_core(t, f);
	const struct program *p = m->progs[c->prog];
	const struct listing *l;
	int reads = 0;

	if (t->in_hint || old == NULL || old->steps == c->steps ||
	    (m->io != NULL && m->io[f].in_pos < m->io[f].in_len))
		return;
	l = tui_listing(t, c->prog);
	for (size_t i = 0; i < l->n && !reads; i++)
		reads = l->rows[i].kind == ROW_INSN &&
		    l->rows[i].addr < p->text_size &&
		    p->text[l->rows[i].addr] == OP_IN;
	if (!reads)
		return;
	t->in_hint = 1;
	tui_message(t, 0, "core %u reads input: type input %u \"text\"", f, f);
}

/* Should an empty line repeat line?  As gdb: not run, quit, ... */
static int
repeatable(const char *line)
{
	const struct cmd_entry *e;
	char word[64], *cause = NULL, *slash;
	size_t n = strcspn(line, " \t");

	if (n >= sizeof word)
		return 0;
	memcpy(word, line, n);
	word[n] = '\0';
	if ((slash = strchr(word, '/')) != NULL)
		*slash = '\0';
	if (screen_cmd_word(word))
		return 0;
	if (cmd_find(cmd_table, word, "command", &e, &cause) != 0) {
		free(cause);
		return 0;
	}
	return !(e->flags & CMD_NOREPEAT);
}

static void
tui_command(struct tui *t, const char *line)
{
	struct buf out = { 0 };
	char *text, *cause = NULL, *end;
	int rc;

	if (t->running) {
		tui_message(t, 1, "the machine is running: press Ctrl-C or "
		    "Esc to stop it first");
		return;
	}
	while (*line == ' ' || *line == '\t')
		line++;
	/* ":quit": gdb users and the old SingleKey habit type the colon */
	if (*line == ':')
		line++;
	while (*line == ' ' || *line == '\t')
		line++;
	text = xstrdup(line);
	end = text + strlen(text);
	while (end > text && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	if (t->ask) {
		answer_line(t, text);
		free(text);
		return;
	}
	if (*text == '\0') {
		free(text);
		if (t->last_line == NULL)
			return;
		text = xstrdup(t->last_line);
	} else {
		free(t->last_line);
		/* help is not repeated: Enter after closing the pager
		 * must not open it again */
		t->last_line = repeatable(text) && !is_help(text) ?
		    xstrdup(text) : NULL;
	}
	lines_addf(&t->log, "%s %s", session_prompt(t->s), text);
	t->log_scroll = 0;
	t->msg[0] = '\0';
	t->dirty |= DIRTY_PANE(PANE_LOG) | DIRTY_MSG;
	if (is_help(text)) {
		help_pager(t, text);
		free(text);
		after_stop(t, 0);
		return;
	}
	if (screen_command(t, text)) {
		free(text);
		if (t->level_go) {
			/* set level, asking nothing: switch now */
			t->level_go = 0;
			set_level_now(t, t->ask_level);
		}
		return;
	}
	/* a key pressed to stop the last run must not stop this one */
	*session_interrupt_flag(t->s) = 0;
	rc = session_execute(t->s, text, &out, &cause);
	if ((end = session_take_repeat(t->s)) != NULL) {
		/* Enter goes on where list or x ended, as in gdb */
		free(t->last_line);
		t->last_line = end;
	}
	log_buf(t, &out);
	buf_free(&out);
	if (rc == SESSION_QUIT)
		t->quit = 1;
	else if (rc != 0) {
		tui_message(t, 1, "%s", cause);
		free(cause);
	}
	free(text);
	if (t->quit)
		return;
	if (session_running(t->s))
		run_begin(t);
	else
		after_stop(t, 0);
}

/* term.c's hooks: readline's line, completions and redraws. */

static void
term_line(void *arg, const char *line)
{
	struct tui *t = arg;

	if (line == NULL) {
		/* Ctrl-D on an empty line */
		lines_addf(&t->log, "%s quit", session_prompt(t->s));
		t->quit = 1;
		return;
	}
	if (*line != '\0')
		term_rl_add_history(line);
	t->pending = xreallocarray(t->pending, t->npending + 1,
	    sizeof *t->pending);
	t->pending[t->npending++] = xstrdup(line);
	if (t->key_mode == KEYS_ONE_COMMAND) {
		/* the one command is typed: SingleKey mode again */
		t->key_mode = KEYS_SINGLE;
		t->dirty |= DIRTY_STATUS | DIRTY_MSG;
	}
}

static void
term_show(void *arg, char **matches, int n)
{
	struct tui *t = arg;
	struct buf b = { 0 };

	buf_printf(&b, "%d completions:", n);
	for (int i = 0; i < n && i < 200; i++)
		buf_printf(&b, " %s", matches[i]);
	if (n > 200)
		buf_printf(&b, " ...");
	lines_add(&t->log, (const char *)b.data, b.len);
	buf_free(&b);
	t->log_scroll = 0;
	t->dirty |= DIRTY_PANE(PANE_LOG) | DIRTY_CMD;
}

static void
term_redraw(void *arg)
{
	struct tui *t = arg;

	t->dirty |= DIRTY_CMD;
}

static char **
term_complete(void *arg, const char *line, int start)
{
	return complete_words(arg, line, start);
}

static const struct term_hooks tui_term_hooks = {
	NULL, term_redraw, term_line, term_complete, complete_free, term_show
};

/* --- keys ---------------------------------------------------------------------- */

static void
step_focus(struct tui *t, int64_t delta_core, int64_t delta_warp)
{
	const struct machine *m = session_machine(t->s);
	int64_t f = session_focus(t->s), n = m->cfg.ncores;
	int64_t W = m->cfg.warp_width, nw = machine_nwarps(m);
	char line[64];

	if (delta_core != 0) {
		int64_t to = f + delta_core;

		if (to < 0 || to >= n) {
			tui_message(t, 0, "core %lld is the %s core", (long long)f,
			    to < 0 ? "first" : "last");
			return;
		}
		snprintf(line, sizeof line, "core %lld", (long long)to);
	} else {
		int64_t w = f / W + delta_warp, lane = f % W;

		if (w < 0 || w >= nw) {
			tui_message(t, 0, "warp %lld is the %s warp",
			    (long long)(f / W), w < 0 ? "first" : "last");
			return;
		}
		if (w * W + lane >= n)
			lane = n - 1 - w * W;
		snprintf(line, sizeof line, "warp %lld lane %lld",
		    (long long)w, (long long)lane);
	}
	tui_command(t, line);
}

static void
set_key_mode(struct tui *t, enum key_mode mode)
{
	t->key_mode = mode;
	t->dirty |= DIRTY_STATUS | DIRTY_MSG | DIRTY_CMD;
	if (mode == KEYS_SINGLE)
		tui_message(t, 0, "SingleKey mode: c continue, s step, S "
		    "reverse-step, n next, i stepi, [ ] core, { } warp; q or "
		    "C-x s leaves, other keys type a command");
	else if (mode == KEYS_PROMPT)
		tui_message(t, 0, "SingleKey mode off: keys go to the prompt "
		    "(C-x s turns it on)");
}

/* C-x s: SingleKey mode on, or off.  With a line half typed, it is
 * finished first (one command, then the single keys). */
static void
toggle_single_key(struct tui *t, int end)
{
	if (t->key_mode != KEYS_PROMPT)
		set_key_mode(t, KEYS_PROMPT);
	else {
		set_key_mode(t, KEYS_SINGLE);
		if (end > 0)
			t->key_mode = KEYS_ONE_COMMAND;
	}
}

/* SingleKey mode's bindings (gdb's c s S n i, and micdb's focus keys);
 * 1 if key was one. */
static int
single_key(struct tui *t, int key)
{
	switch (key) {
	case 'c': tui_command(t, "continue"); return 1;
	case 's': tui_command(t, "step"); return 1;
	case 'S': tui_command(t, "reverse-step"); return 1;
	case 'n': tui_command(t, "next"); return 1;
	case 'i': tui_command(t, "stepi"); return 1;
	case '[': step_focus(t, -1, 0); return 1;
	case ']': step_focus(t, 1, 0); return 1;
	case '{': step_focus(t, 0, -1); return 1;
	case '}': step_focus(t, 0, 1); return 1;
	case 'q': set_key_mode(t, KEYS_PROMPT); return 1;
	case ':':
		/* the prompt for one command, nothing typed (the key that
		 * used to start a command line) */
		set_key_mode(t, KEYS_ONE_COMMAND);
		return 1;
	default: return 0;
	}
}

static int
is_move_key(int key)
{
	return key == KEY_UP || key == KEY_DOWN || key == KEY_LEFT ||
	    key == KEY_RIGHT || key == KEY_PPAGE || key == KEY_NPAGE ||
	    key == KEY_HOME || key == KEY_END;
}

/* The focused pane's own keys (arrows, pages, + and -); 1 if used. */
static int
pane_key(struct tui *t, int key)
{
	char cmd[PANE_CMD_MAX] = "";

	if (pane_table[t->focus]->key == NULL ||
	    !pane_table[t->focus]->key(t, key, cmd, sizeof cmd))
		return 0;
	if (cmd[0] != '\0')
		tui_command(t, cmd);
	return 1;
}

/* F2: the focused pane's breakpoint command at its cursor. */
static void
toggle_break(struct tui *t)
{
	char cmd[PANE_CMD_MAX] = "";
	const char *why = NULL;

	if (t->focus == PANE_MICRO)
		why = micro_break_command(t, cmd, sizeof cmd);
	else
		code_break_command(t, cmd, sizeof cmd);
	if (why != NULL)
		tui_message(t, 1, "%s", why);
	else if (cmd[0] != '\0')
		tui_command(t, cmd);
}

static void
readline_key(struct tui *t, int key)
{
	term_rl_key(key);
	t->dirty |= DIRTY_CMD;
	if (t->msg[0] != '\0' && !t->msg_error) {
		/* typing clears a note, not an error */
		t->msg[0] = '\0';
		t->dirty |= DIRTY_MSG;
	}
}

#define KEY_CTRL_X 24

/* One key while the machine is stopped, in its turn (typed now, or kept
 * during a run and replayed): the pager's while it is open. */
static void
key_stopped(struct tui *t, int key)
{
	const char *prompt, *line;
	int point, end;

	if (pager_key(t, key))
		return;
	if (t->ask) {
		answer(t, key);
		return;
	}
	term_rl_state(&prompt, &line, &point, &end);
	if (t->ctl_x) {
		t->ctl_x = 0;
		if (key == 's') {
			toggle_single_key(t, end);
			return;
		}
		/* readline's own C-x bindings (C-x C-u undo, ...) */
		readline_key(t, KEY_CTRL_X);
		readline_key(t, key);
		return;
	}
	if (key == 27 && end == 0)
		return;	/* Esc pressed to stop a run that had ended: it must
			 * not become readline's Meta prefix of the next key */
	switch (key) {
	case KEY_CTRL_X:
		/* held back until the next key says whether it is C-x s */
		t->ctl_x = 1;
		return;
	case KEY_F(5): tui_command(t, "continue"); return;
	case KEY_F(7): tui_command(t, "step"); return;
	case KEY_F(19): tui_command(t, "reverse-step"); return;
	case KEY_F(8): tui_command(t, "next"); return;
	case KEY_F(6): tui_command(t, "stepi"); return;
	case KEY_F(2):
		toggle_break(t);
		return;
	case KEY_F(3): tui_command(t, "view"); return;
	case KEY_F(4): tui_command(t, "colour"); return;
	case 12:	/* Ctrl-L */
		t->dirty |= DIRTY_ALL;
		return;
	case KEY_BTAB:
		screen_cycle_pane(t, -1);
		return;
	}
	if (end == 0) {
		if (key == '\t') {
			screen_cycle_pane(t, 1);
			return;
		}
		/* in the command window the arrows are readline's history */
		if (t->focus != PANE_LOG && is_move_key(key) &&
		    pane_key(t, key))
			return;
	}
	if (t->key_mode == KEYS_SINGLE) {
		if (single_key(t, key))
			return;
		if ((key == '+' || key == '-') && t->focus != PANE_LOG &&
		    pane_key(t, key))
			return;
		if (key >= KEY_F0 && key <= KEY_F(63))
			return;	/* a function key micdb does not bind */
		/* gdb: an unbound key drops into the prompt, typed, for one
		 * command */
		t->key_mode = KEYS_ONE_COMMAND;
		t->dirty |= DIRTY_STATUS | DIRTY_MSG;
	}
	/* pages always move the focused pane (readline has no use for
	 * them); in the command window they scroll the transcript */
	if ((key == KEY_PPAGE || key == KEY_NPAGE) &&
	    pane_table[t->focus]->key != NULL) {
		pane_key(t, key);
		return;
	}
	readline_key(t, key);
}

/* Keep a key typed during a run for after the stop; beyond
 * TYPEAHEAD_MAX keys are dropped, said once a run.  A key typed while
 * stopped, behind a line that waits for its turn (a paste at the
 * prompt), is never dropped: the cap bounds what a run's paste can pile
 * up, not what is typed at the prompt.  (Kept keys are replayed in the
 * loop's turn that stops a run, main_loop, so none wait when the screen
 * says "stopped".) */
static void
typeahead_push(struct tui *t, int key)
{
	if (t->running && t->ntypeahead >= TYPEAHEAD_MAX) {
		if (t->typeahead_lost++ == 0) {
			beep();
			tui_message(t, 1, "more than %d keys typed during the "
			    "run: the rest are dropped (Ctrl-C or Esc stops "
			    "it)", TYPEAHEAD_MAX);
		}
		return;
	}
	if (t->ntypeahead == t->typeahead_cap) {
		t->typeahead_cap = t->typeahead_cap ? 2 * t->typeahead_cap :
		    256;
		t->typeahead = xreallocarray(t->typeahead, t->typeahead_cap,
		    sizeof *t->typeahead);
	}
	t->typeahead[t->ntypeahead++] = key;
	t->dirty |= DIRTY_CMD;
}

/* A key from the terminal. */
static void
handle_key(struct tui *t, int key)
{
	if (key == KEY_RESIZE) {
		getmaxyx(stdscr, t->rows, t->cols);
		t->dirty |= DIRTY_LAYOUT | DIRTY_CLEAR;
		return;
	}
	if (key == 12 && t->running) {
		/* Ctrl-L repaints now, not after the run */
		t->dirty |= DIRTY_ALL;
		return;
	}
	if (t->running && key == 27) {
		/* Esc, alone (curses waited ESCDELAY for the rest of a key's
		 * sequence): stop the run, as Ctrl-C does */
		interrupt_run(t);
		return;
	}
	if (t->running || t->ntypeahead > 0 || t->npending > 0) {
		/* after the keys and lines typed before it */
		typeahead_push(t, key);
		return;
	}
	key_stopped(t, key);
}

/* --- the main loop ------------------------------------------------------------ */

static void
handle_signals(struct tui *t)
{
	const char *prompt, *line;
	int point, end, qsig = 0;
	unsigned bits = term_take_signals(&qsig);

	if (bits & TERM_SIG_QUIT) {
		t->quit = 1;
		t->quit_signal = qsig;
		return;
	}
	if (bits & TERM_SIG_WINCH) {
		term_size(&t->rows, &t->cols);
		t->dirty |= DIRTY_LAYOUT | DIRTY_CLEAR;
	}
	if (bits & TERM_SIG_CONT)
		t->dirty |= DIRTY_ALL;
	/* TERM_SIG_STOP: the handler has set the run's interrupt flag, and
	 * the run reports the stop itself */
	if (bits & TERM_SIG_INT) {
		if (t->running)
			interrupt_run(t);
		else {
			term_rl_state(&prompt, &line, &point, &end);
			if (end > 0)
				term_rl_clear_line();
			if (t->key_mode == KEYS_ONE_COMMAND) {
				t->key_mode = KEYS_SINGLE;
				t->dirty |= DIRTY_STATUS;
			}
			t->ctl_x = 0;
			tui_message(t, 0, "Quit (quit or Ctrl-D on an empty line "
			    "leaves micdb)");
			t->dirty |= DIRTY_CMD;
		}
	}
}

/* The lines readline accepted, in order, until one runs the machine. */
static void
run_pending(struct tui *t)
{
	while (!t->quit && t->npending > 0 && !t->running) {
		char *l = t->pending[0];

		memmove(t->pending, t->pending + 1,
		    (t->npending - 1) * sizeof *t->pending);
		t->npending--;
		tui_command(t, l);
		free(l);
	}
}

/*
 * After a stop, the keys typed during the run, as if typed now: one at a
 * time, each line run as soon as it is complete, until one runs the
 * machine again (the rest wait for that run's stop).  A line that opens
 * the pager ("help", then End read in the same batch of keys, as a
 * loaded machine delivers them) hands it the keys that follow
 * (key_stopped).
 */
static void
run_typeahead(struct tui *t)
{
	size_t used = 0;

	while (!t->quit && !t->running && used < t->ntypeahead) {
		key_stopped(t, t->typeahead[used++]);
		run_pending(t);
	}
	if (used > 0) {
		memmove(t->typeahead, t->typeahead + used,
		    (t->ntypeahead - used) * sizeof *t->typeahead);
		t->ntypeahead -= used;
		t->dirty |= DIRTY_CMD;
	}
}

static void
main_loop(struct tui *t)
{
	while (!t->quit) {
		struct pollfd fds[2];
		int key;

		if (t->dirty != 0 && (!t->running ||
		    tui_now() - t->drawn_t >= FRAME_TIME)) {
			draw_all(t);
			t->drawn_t = tui_now();
		}
		fds[0].fd = STDIN_FILENO;
		fds[0].events = POLLIN;
		fds[1].fd = term_signal_fd();
		fds[1].events = POLLIN;
		/* no wait while a run goes on or typed-ahead keys wait */
		if (poll(fds, 2, t->running || t->ntypeahead > 0 ? 0 : -1) < 0 &&
		    errno != EINTR)
			break;
		if ((fds[0].revents & (POLLHUP | POLLERR)) &&
		    !(fds[0].revents & POLLIN)) {
			/* the terminal is gone (and SIGHUP was ignored):
			 * polling it again would spin */
			t->quit = 1;
			break;
		}
		handle_signals(t);
		if (t->quit)
			break;
		while (!t->quit && (key = getch()) != ERR)
			handle_key(t, key);
		if (term_drain_stderr(&t->log) > 0)
			t->dirty |= DIRTY_PANE(PANE_LOG);
		/* the slice before the kept keys: a stop hands them over
		 * before the screen says "stopped", so that what is typed on
		 * seeing it comes after them */
		if (t->running && !t->quit)
			run_slice(t);
		run_pending(t);
		run_typeahead(t);
	}
}

/* --- setting up ------------------------------------------------------------- */

static char *
program_titles(const struct loaded *l)
{
	struct buf b = { 0 };
	char *s;

	for (size_t i = 0; i < l->nprogs; i++) {
		const char *base = strrchr(l->ptrs[i]->path, '/');

		buf_printf(&b, "%s%s", i ? "+" : "",
		    base ? base + 1 : l->ptrs[i]->path);
	}
	buf_put_u8(&b, 0);
	s = xstrdup((const char *)b.data);
	buf_free(&b);
	return s;
}

static void
tui_free(struct tui *t)
{
	for (size_t i = 0; i < t->nprogs; i++) {
		if (t->dsyms != NULL)
			dsym_free(&t->dsyms[i]);
		if (t->listings != NULL)
			listing_free(&t->listings[i]);
	}
	free(t->dsyms);
	free(t->listings);
	for (uint32_t c = 0; c < t->out.ncores; c++)
		if (t->out.core[c] != NULL) {
			buf_free(t->out.core[c]);
			free(t->out.core[c]);
		}
	free(t->out.core);
	free(t->out.recv);
	free(t->out.hide);
	lines_free(&t->log);
	lines_free(&t->frames);
	access_bps_free(&t->bps);
	tui_census_free(t);
	free(t->prev);
	free(t->title);
	free(t->last_line);
	free(t->urows);
	for (size_t i = 0; i < t->npending; i++)
		free(t->pending[i]);
	free(t->pending);
	free(t->typeahead);
}

int
tui_main(int argc, char **argv)
{
	struct micdb_opts o;
	struct loaded l;
	struct session_frontend fe;
	struct term_hooks hooks;
	struct tui t;
	char *cause = NULL;
	int rc;

	memset(&l, 0, sizeof l);
	memset(&t, 0, sizeof t);
	if ((rc = opts_start(&o, argc, argv, tui_usage, &cause)) == 1)
		return 0;
	if (rc == 0 && o.batch_path != NULL) {
		/* micdb -x FILE PROGRAM: the same debugger, without a screen */
		opts_free(&o);
		return TUI_BATCH;
	}
	/* repeat 0: the UI repeats lines itself */
	fe = (struct session_frontend){ .output = on_output, .output_arg = &t };
	/* the session needs on_output's t only once it runs */
	if (rc != 0 || session_open(&t.s, &l, &o, &fe, &cause) != 0)
		goto fail;
	t.device = o.device;

	t.progs = l.ptrs;
	t.nprogs = l.nprogs;
	t.title = program_titles(&l);
	t.dsyms = xcalloc(l.nprogs, sizeof *t.dsyms);
	t.listings = xcalloc(l.nprogs, sizeof *t.listings);
	for (size_t i = 0; i < l.nprogs; i++)
		dsym_load(&t.dsyms[i], l.ptrs[i]);
	t.out.ncores = l.ncores;
	t.out.core = xcalloc(l.ncores, sizeof *t.out.core);
	t.out.recv = xcalloc(l.ncores, sizeof *t.out.recv);
	t.out.hide = xcalloc(l.ncores, sizeof *t.out.hide);
	t.log.max = LOG_LINES;
	t.layout = LAYOUT_DEFAULT;
	t.focus = PANE_CODE;
	t.code.follow = 1;
	t.budget = 64;
	hooks = tui_term_hooks;
	hooks.arg = &t;
	if (term_start(&hooks, &t.rows, &t.cols, &cause) != 0) {
		session_free(t.s);
		t.s = NULL;
		goto fail;
	}
	draw_setup_colours(&t);
	t.engine = session_engine(t.s);
	if (session_level(t.s) != LEVEL_ISA)
		t.layout = LAYOUT_MICRO;
	lines_addf(&t.log, "micdb %s: %s on %u core%s (warp width %u), %s "
	    "engine, level %s", PACKAGE_VERSION, t.title, l.ncores,
	    l.ncores == 1 ? "" : "s", o.warp_width, t.engine != NULL &&
	    t.engine->ops != NULL ? t.engine->ops->name : "?",
	    level_name(session_level(t.s)));
	lines_addf(&t.log, "type commands at the prompt (help lists them); "
	    "F5 continue, F7 step, F8 next, F6 stepi, F2 breakpoint, Tab pane; "
	    "C-x s: SingleKey mode (c s n i ...); Ctrl-C or Esc stops a run");
	after_stop(&t, 1);
	t.dirty = DIRTY_ALL;
	main_loop(&t);

	draw_free_windows(&t);
	term_stop();
	if (session_end_trace(t.s, &cause) != 0) {
		/* the terminal is back: the message stays on it */
		fprintf(stderr, "micdb: %s\n", cause);
		free(cause);
		if (t.exit_status == 0)
			t.exit_status = 2;
	}
	session_free(t.s);
	tui_free(&t);
	loaded_free(&l);
	opts_free(&o);
	if (t.quit_signal != 0) {
		/* the terminal is back: now die of the signal as asked */
		signal(t.quit_signal, SIG_DFL);
		raise(t.quit_signal);
	}
	return t.exit_status;
fail:
	fprintf(stderr, "micdb: %s\n", cause);
	free(cause);
	tui_free(&t);
	loaded_free(&l);
	opts_free(&o);
	return 2;
}
