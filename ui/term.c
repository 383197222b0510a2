/*
 * The terminal: the one file of the UI with static state, because
 * signal handlers, atexit and readline's callbacks can reach nothing
 * else (readline's callback interface inside ncurses, cgdb's recipe).
 *
 * Ownership: curses owns the terminal from term_start to term_stop;
 * readline only edits a line.  Readline is initialised first (so its
 * termcap look-ups cannot replace curses' terminal), with its signal
 * handling, terminal preparation and output switched off: keys come from
 * wgetch through a small queue (rl_getc_function), the line is drawn by
 * the command-line pane (rl_redisplay_function only marks it dirty) and
 * completion lists go to the transcript (display-matches hook).  The
 * user's ~/.inputrc is read as usual (rl_readline_name "micdb").
 *
 * Signals: handlers only write a byte to a self-pipe that the main loop
 * polls, and set the session's interrupt flag for SIGINT during a run
 * (a sig_atomic_t store, which a handler may do).  SIGTERM, SIGHUP and
 * SIGQUIT end the main loop, which restores the terminal and re-raises;
 * a second one while the loop is stuck restores the terminal from the
 * handler.  Crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: an OpenCL
 * driver's bugs land here) restore it from the handler with only
 * async-signal-safe calls: the saved termios, the terminal's own
 * "leave the alternate screen, show the cursor, plain attributes"
 * strings computed at start, then the default action.
 *
 * The UI above gets readline's lines, completions and redraws through
 * struct term_hooks, given to term_start: this file calls nothing of
 * tui.c, which sits on top of it.
 *
 * Nothing may write to the terminal behind curses' back, so while the
 * screen is up fd 2 is a pipe: the main loop shows what arrives (a
 * driver's warnings) in the transcript, and whatever is left is written
 * to the real stderr when the terminal is given back.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <curses.h>
#include <readline/history.h>
#include <readline/readline.h>

#include "lines.h"
#include "term.h"

/* the UI the callbacks serve (one per process); arg NULL: none */
static struct term_hooks	 g_hooks;
/* signals: the self-pipe, the run's interrupt flag */
static int			 sig_pipe[2] = { -1, -1 };
static volatile sig_atomic_t	*sig_interrupt;
static volatile sig_atomic_t	 sig_running;
static volatile sig_atomic_t	 sig_quit;     /* the ending signal */
/* what restoring the terminal needs, ready before any signal */
static volatile sig_atomic_t	 curses_up;
static struct termios		 saved_tio;
static int			 have_tio;
static char			 reset_seq[256];
static size_t			 reset_len;
static SCREEN			*screen;
/* stderr while the screen is up */
static int			 saved_err = -1;
static int			 err_read = -1;
static struct buf		 err_partial;
/* readline */
static FILE			*rl_null;
static unsigned char		 keyq[256];
static size_t			 keyq_head, keyq_n;
static char			**comp_words;
static size_t			 comp_idx;
static int			 atexit_done;

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH,
    SIGCONT };
static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

/* --- restoring the terminal ------------------------------------------- */

/* Async-signal-safe: write(2), tcsetattr(3), read(2), dup2(2) only. */
static void
emergency_restore(void)
{
	char b[512];
	ssize_t n;

	if (!curses_up)
		return;
	curses_up = 0;
	if (reset_len > 0 && write(STDOUT_FILENO, reset_seq, reset_len) < 0)
		reset_len = 0;
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tio);
	if (saved_err >= 0) {
		while (err_read >= 0 && (n = read(err_read, b, sizeof b)) > 0)
			if (write(saved_err, b, (size_t)n) < 0)
				break;
		dup2(saved_err, STDERR_FILENO);
	}
}

/* The terminal's strings for leaving curses mode, without the padding
 * delays ("$<5>") that only tputs would interpret. */
static void
build_reset(void)
{
	static const char *const caps[] = { "sgr0", "cnorm", "rmkx",
	    "rmcup" };

	reset_len = 0;
	for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
		const char *s = tigetstr(caps[i]);

		if (s == NULL || s == (char *)-1)
			continue;
		for (; *s != '\0' && reset_len < sizeof reset_seq - 2; s++) {
			if (s[0] == '$' && s[1] == '<' && strchr(s, '>')) {
				s = strchr(s, '>');
				continue;
			}
			reset_seq[reset_len++] = *s;
		}
	}
	reset_seq[reset_len++] = '\r';
	reset_seq[reset_len++] = '\n';
}

static void
on_fatal(int sig)
{
	emergency_restore();
	/* SA_RESETHAND made the action the default one again */
	raise(sig);
}

static void
on_signal(int sig)
{
	int saved = errno;
	char c;

	switch (sig) {
	case SIGINT:
		/* 'R': it stopped a run; 'I': at the prompt */
		c = 'I';
		if (sig_running && sig_interrupt != NULL) {
			*sig_interrupt = 1;
			c = 'R';
		}
		break;
	case SIGWINCH:
		c = 'W';
		break;
	case SIGCONT:
		c = 'C';
		break;
	default:
		if (sig_quit != 0) {
			/* the main loop did not get to it: give up */
			emergency_restore();
			signal(sig, SIG_DFL);
			raise(sig);
		}
		sig_quit = sig;
		if (sig_interrupt != NULL)
			*sig_interrupt = 1;
		c = 'Q';
		break;
	}
	if (sig_pipe[1] >= 0 && write(sig_pipe[1], &c, 1) < 0)
		c = 0;	/* full: a wake-up is already pending */
	errno = saved;
}

static void
set_handlers(int on)
{
	struct sigaction sa;

	for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) {
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on ? on_signal : SIG_DFL;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(caught[i], &sa, NULL);
	}
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on ? on_fatal : SIG_DFL;
		sa.sa_flags = SA_RESETHAND | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal[i], &sa, NULL);
	}
}

static int
set_flags(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* --- readline ------------------------------------------------------------ */

static void
rl_noprep(int meta)
{
	(void)meta;
}

static void
rl_nodeprep(void)
{
}

static void
q_push(const char *s, size_t n)
{
	for (size_t i = 0; i < n && keyq_n < sizeof keyq; i++) {
		keyq[(keyq_head + keyq_n) % sizeof keyq] = (unsigned char)s[i];
		keyq_n++;
	}
}

/* A curses key as the bytes readline's default bindings expect. */
static void
q_push_key(int key)
{
	static const struct {
		int		 key;
		const char	*seq;
	} map[] = {
		{ KEY_UP, "\033[A" }, { KEY_DOWN, "\033[B" },
		{ KEY_RIGHT, "\033[C" }, { KEY_LEFT, "\033[D" },
		{ KEY_HOME, "\033[H" }, { KEY_END, "\033[F" },
		{ KEY_DC, "\033[3~" }, { KEY_BACKSPACE, "\177" },
		{ KEY_ENTER, "\r" },
	};
	char c;

	if (key >= 0 && key < 256) {
		c = (char)key;
		q_push(&c, 1);
		return;
	}
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (map[i].key == key) {
			q_push(map[i].seq, strlen(map[i].seq));
			return;
		}
	/* other function keys mean nothing to readline */
}

static int
q_getc(FILE *f)
{
	int c;

	(void)f;
	if (keyq_n == 0) {
		/* readline wants more than it was fed (the rest of a key
		 * sequence): wait for the terminal */
		int key;

		nodelay(stdscr, FALSE);
		key = wgetch(stdscr);
		nodelay(stdscr, TRUE);
		if (key != ERR)
			q_push_key(key);
		if (keyq_n == 0)
			return 0;
	}
	c = keyq[keyq_head];
	keyq_head = (keyq_head + 1) % sizeof keyq;
	keyq_n--;
	return c;
}

static int
q_avail(void)
{
	return keyq_n > 0;
}

static void
rl_redraw(void)
{
	if (g_hooks.arg != NULL)
		g_hooks.redraw(g_hooks.arg);
}

static void
rl_line(char *line)
{
	if (g_hooks.arg != NULL)
		g_hooks.line(g_hooks.arg, line);
	free(line);
}

static char *
comp_gen(const char *text, int state)
{
	size_t len = strlen(text);

	if (state == 0)
		comp_idx = 0;
	while (comp_words != NULL && comp_words[comp_idx] != NULL) {
		const char *w = comp_words[comp_idx++];

		if (strncmp(w, text, len) == 0)
			return xstrdup(w);
	}
	return NULL;
}

static char **
comp_hook(const char *text, int start, int end)
{
	(void)end;
	rl_attempted_completion_over = 1;	/* never file names */
	if (comp_words != NULL)
		g_hooks.free_words(comp_words);
	comp_words = g_hooks.arg != NULL ? g_hooks.complete(g_hooks.arg,
	    rl_line_buffer, start) : NULL;
	return rl_completion_matches(text, comp_gen);
}

static void
comp_show(char **matches, int num, int max)
{
	(void)max;
	if (g_hooks.arg != NULL)
		g_hooks.show(g_hooks.arg, matches + 1, num);
}

static void
rl_setup(const char *prompt)
{
	rl_readline_name = "micdb";
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_change_environment = 0;
	rl_prep_term_function = rl_noprep;
	rl_deprep_term_function = rl_nodeprep;
	rl_getc_function = q_getc;
	rl_input_available_hook = q_avail;
	rl_redisplay_function = rl_redraw;
	rl_completion_display_matches_hook = comp_show;
	rl_attempted_completion_function = comp_hook;
	if (rl_null == NULL)
		rl_null = fopen("/dev/null", "w");
	rl_outstream = rl_null;
	rl_instream = stdin;
	rl_callback_handler_install(prompt, rl_line);
}

void
term_rl_key(int key)
{
	q_push_key(key);
	while (keyq_n > 0)
		rl_callback_read_char();
}

void
term_rl_state(const char **prompt, const char **line, int *point, int *end)
{
	*prompt = rl_display_prompt ? rl_display_prompt :
	    rl_prompt ? rl_prompt : "";
	*line = rl_line_buffer ? rl_line_buffer : "";
	*point = rl_point;
	*end = rl_end;
}

void
term_rl_set_prompt(const char *prompt)
{
	if (rl_prompt == NULL || strcmp(rl_prompt, prompt) != 0)
		rl_set_prompt(prompt);
}

void
term_rl_clear_line(void)
{
	rl_replace_line("", 0);
	rl_point = rl_end = rl_mark = 0;
}

void
term_rl_add_history(const char *line)
{
	HIST_ENTRY *last = history_length > 0 ?
	    history_get(history_base + history_length - 1) : NULL;

	if (last == NULL || strcmp(last->line, line) != 0)
		add_history(line);
}

/* --- start and stop ------------------------------------------------------ */

static int
capture_stderr(void)
{
	int p[2];

	if ((saved_err = dup(STDERR_FILENO)) < 0)
		return -1;
	fcntl(saved_err, F_SETFD, FD_CLOEXEC);
	if (pipe(p) != 0) {
		close(saved_err);
		saved_err = -1;
		return -1;
	}
	set_flags(p[0]);
	set_flags(p[1]);
	fflush(stderr);
	dup2(p[1], STDERR_FILENO);
	close(p[1]);
	err_read = p[0];
	return 0;
}

static void
release_stderr(void)
{
	char b[512];
	ssize_t n;

	if (saved_err < 0)
		return;
	fflush(stderr);
	dup2(saved_err, STDERR_FILENO);
	close(saved_err);
	saved_err = -1;
	/* what nobody saw on the screen goes to the real stderr */
	if (err_partial.len > 0 && write(STDERR_FILENO, err_partial.data,
	    err_partial.len) < 0)
		err_partial.len = 0;
	err_partial.len = 0;
	while ((n = read(err_read, b, sizeof b)) > 0)
		if (write(STDERR_FILENO, b, (size_t)n) < 0)
			break;
	close(err_read);
	err_read = -1;
	buf_free(&err_partial);
}

int
term_start(const struct term_hooks *hooks, int *rows, int *cols,
    char **cause)
{
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		*cause = xasprintf("the debugger needs a terminal (for scripts "
		    "use micdb --batch FILE PROGRAM, or micdb run PROGRAM)");
		return -1;
	}
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		have_tio = 1;
	if (pipe(sig_pipe) != 0 || set_flags(sig_pipe[0]) != 0 ||
	    set_flags(sig_pipe[1]) != 0) {
		*cause = xasprintf("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	g_hooks = *hooks;
	/* readline before curses: see the comment at the top */
	rl_setup("(micdb) ");
	set_handlers(1);
	if ((screen = newterm(NULL, stdout, stdin)) == NULL) {
		set_handlers(0);
		rl_callback_handler_remove();
		*cause = xasprintf("cannot drive the terminal type '%s' (set "
		    "TERM, e.g. TERM=xterm)", term ? term : "");
		return -1;
	}
	set_term(screen);
	build_reset();
	curses_up = 1;
	if (!atexit_done) {
		atexit(term_stop);
		atexit_done = 1;
	}
	cbreak();		/* keep ISIG: Ctrl-C is a signal, even mid-poll */
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* The function keys micdb uses, as xterm-like terminals and tmux
	 * send them, for terminal types whose description lacks them (vt100
	 * has no F5, most stop before Shift-F7) */
	{
		static const struct {
			const char	*seq;
			int		 key;
		} fkeys[] = {
			{ "\033OQ", KEY_F(2) }, { "\033[12~", KEY_F(2) },
			{ "\033OR", KEY_F(3) }, { "\033[13~", KEY_F(3) },
			{ "\033OS", KEY_F(4) }, { "\033[14~", KEY_F(4) },
			{ "\033[15~", KEY_F(5) }, { "\033[17~", KEY_F(6) },
			{ "\033[18~", KEY_F(7) }, { "\033[19~", KEY_F(8) },
			{ "\033[18;2~", KEY_F(19) },
		};

		for (size_t i = 0; i < sizeof fkeys / sizeof *fkeys; i++)
			if (key_defined(fkeys[i].seq) <= 0)
				define_key(fkeys[i].seq, fkeys[i].key);
	}
	curs_set(1);
	/* stdscr is never drawn on, but getch() refreshes it when it is
	 * marked changed: refresh it once, blank, before the panes */
	refresh();
	capture_stderr();
	getmaxyx(stdscr, *rows, *cols);
	return 0;
}

void
term_stop(void)
{
	if (!curses_up) {
		release_stderr();
		return;
	}
	rl_callback_handler_remove();
	endwin();
	curses_up = 0;
	if (have_tio)
		tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tio);
	release_stderr();
	set_handlers(0);
	if (screen != NULL) {
		delscreen(screen);
		screen = NULL;
	}
	if (comp_words != NULL)
		g_hooks.free_words(comp_words);
	comp_words = NULL;
	memset(&g_hooks, 0, sizeof g_hooks);
	sig_interrupt = NULL;
}

int
term_signal_fd(void)
{
	return sig_pipe[0];
}

unsigned
term_take_signals(int *quit_signal)
{
	unsigned bits = 0;
	char b[64];
	ssize_t n;

	while (sig_pipe[0] >= 0 && (n = read(sig_pipe[0], b, sizeof b)) > 0)
		for (ssize_t i = 0; i < n; i++)
			switch (b[i]) {
			case 'I': bits |= TERM_SIG_INT; break;
			case 'R': bits |= TERM_SIG_STOP; break;
			case 'W': bits |= TERM_SIG_WINCH; break;
			case 'C': bits |= TERM_SIG_CONT; break;
			case 'Q': bits |= TERM_SIG_QUIT; break;
			}
	*quit_signal = sig_quit;
	return bits;
}

void
term_set_run(volatile sig_atomic_t *interrupt, int running)
{
	sig_interrupt = interrupt;
	sig_running = running;
}

size_t
term_drain_stderr(struct lines *l)
{
	char b[1024];
	ssize_t n;
	size_t total = 0, start = 0;

	while (err_read >= 0 && (n = read(err_read, b, sizeof b)) > 0) {
		buf_put(&err_partial, b, (size_t)n);
		total += (size_t)n;
	}
	for (size_t i = 0; i < err_partial.len; i++) {
		if (err_partial.data[i] == '\a') {
			beep();	/* readline's bell */
			err_partial.data[i] = '\n';
		}
		if (err_partial.data[i] != '\n')
			continue;
		if (i > start) {
			char *line = xasprintf("stderr: %.*s", (int)(i - start),
			    (char *)err_partial.data + start);

			lines_add(l, line, strlen(line));
			free(line);
		}
		start = i + 1;
	}
	if (start > 0) {
		memmove(err_partial.data, err_partial.data + start,
		    err_partial.len - start);
		err_partial.len -= start;
	}
	return total;
}

void
term_size(int *rows, int *cols)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
		/* resizeterm queues a KEY_RESIZE: only when it changed */
		if (curses_up && (*rows != LINES || *cols != COLS))
			resizeterm(*rows, *cols);
		return;
	}
	getmaxyx(stdscr, *rows, *cols);
}
