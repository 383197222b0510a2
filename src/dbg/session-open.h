/*
 * From parsed options (opts.h) to an open session (session.h): the one
 * place that checks options for the debugger, loads the programs, reads
 * core 0's input and makes the session (machine, microcode and engine
 * through the level factory).  The screen (ui/tui.c) and the batch front
 * end (src/batch/batch.c) both open their session here and differ only
 * in what struct session_frontend gives.
 */
#ifndef MICDB_SESSION_OPEN_H
#define MICDB_SESSION_OPEN_H

#include "opts.h"
#include "session.h"

/* What a front end brings to its session. */
struct session_frontend {
	session_output_fn	 output;      /* core output; NULL: dropped */
	void			*output_arg;
	int			 repeat;      /* an empty line repeats the
						 last command */
};

/*
 * Can the debugger honour these options?  0, or -1 + *cause.
 * session_open() checks them first; a front end that reads files of its
 * own (the batch script) calls it before, so that a bad option is
 * reported before an unreadable file.
 */
int	session_open_check(const struct micdb_opts *o, char **cause);
/*
 * Check o, load its programs into l and open the session *sp over them.
 * The programs in l must outlive the session: free l (loaded_free) after
 * session_free.  0, or -1 + *cause with nothing left to free.
 */
int	session_open(struct session **sp, struct loaded *l,
	    const struct micdb_opts *o, const struct session_frontend *fe,
	    char **cause);

#endif
