/*
 * The reverse commands (cmd-run.c runs them): they move the machine to
 * an earlier cut of the recorded history (history.h) at once, with the
 * report of where it went in out; nothing runs for the front end to
 * poll.  On an error (-1 + *cause) the machine is where it was.
 */
#ifndef MICDB_REVERSE_H
#define MICDB_REVERSE_H

#include <stdint.h>

#include "util.h"

struct session;

/* reverse-stepi N: back N global steps. */
int	 reverse_stepi(struct session *s, uint64_t n, struct buf *out,
	    char **cause);
/* reverse-step N: back N ISA instructions of the focused core (at the
 * ISA level, N global steps). */
int	 reverse_step(struct session *s, uint64_t n, struct buf *out,
	    char **cause);
/* reverse-continue: back to the newest cut where a breakpoint or
 * watchpoint would have stopped, else to the oldest recorded one. */
int	 reverse_continue(struct session *s, struct buf *out, char **cause);

#endif
