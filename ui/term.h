/*
 * The terminal (term.c): curses ownership, signals, stderr capture and
 * readline's callbacks, reaching the UI only through struct term_hooks.
 */
#ifndef MICDB_UI_TERM_H
#define MICDB_UI_TERM_H

#include <signal.h>
#include <stddef.h>
#include "lines.h"

/* --- term.c: terminal, signals, readline ------------------------------ */

/* What readline's callbacks call in the UI above term.c (arg: its
 * model). */
struct term_hooks {
	void	 *arg;
	/* the line being edited changed: draw it */
	void	  (*redraw)(void *arg);
	/* readline accepted a line (NULL: end of file) */
	void	  (*line)(void *arg, const char *line);
	/* words that may complete the word at start of line, and how to
	 * free them (complete_words, complete_free) */
	char	**(*complete)(void *arg, const char *line, int start);
	void	  (*free_words)(char **words);
	/* readline wants to list completions */
	void	  (*show)(void *arg, char **matches, int n);
};
/* Take over the terminal (curses, signals, stderr) for hooks->arg's UI
 * and give its size.  0 or -1 + cause. */
int	 term_start(const struct term_hooks *hooks, int *rows, int *cols,
	    char **cause);
/* Give it back (idempotent; also run by atexit). */
void	 term_stop(void);
/* The self-pipe's read end and stdin, for poll(). */
int	 term_signal_fd(void);
/* Signals since the last call: a bit per kind. */
enum { TERM_SIG_INT = 1, TERM_SIG_WINCH = 2, TERM_SIG_QUIT = 4,
    TERM_SIG_CONT = 8, TERM_SIG_STOP = 16 /* SIGINT during a run */ };
unsigned term_take_signals(int *quit_signal);
/* The session's interrupt flag, set by SIGINT while running is 1. */
void	 term_set_run(volatile sig_atomic_t *interrupt, int running);
/* Read what was written to stderr since the last call (a driver's
 * messages) into l; returns bytes read. */
size_t	 term_drain_stderr(struct lines *l);
/* Size of the terminal now. */
void	 term_size(int *rows, int *cols);
/* Feed one curses key to readline. */
void	 term_rl_key(int key);
/* The line being edited. */
void	 term_rl_state(const char **prompt, const char **line, int *point,
	    int *end);
void	 term_rl_set_prompt(const char *prompt);
void	 term_rl_clear_line(void);
void	 term_rl_add_history(const char *line);
#endif
