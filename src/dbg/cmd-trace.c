/*
 * trace start FILE [FORMAT] [CORES], trace stop and info trace: the
 * debugger's way to the trace writer (trace.h) that micdb run --trace
 * uses, so that a session that steps and continues through a program
 * writes the file the run would (doc/debugger.md section 5).  DAP's
 * evaluate passes these commands through unchanged.
 *
 * While a trace is open every run goes one global step per engine call
 * (resume.c asks session_tracing) and each step is recorded after it;
 * reverse execution and a level switch are marks, and a step the user
 * runs again after going back is not recorded twice (trace_record).  The
 * trace is closed by trace stop, or when the session ends (quit, the end
 * of a batch file, a DAP disconnect), so a session never leaves half a
 * file.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "trace.h"

static int
trace_start(struct session *s, const char *args, struct buf *out,
    char **cause)
{
	char file[4096], format[64], cores[4096];
	const char *p = args, *fmt = NULL, *set = NULL;
	enum trace_format f;
	struct trace_view v;

	if (!cmd_word(&p, file, sizeof file)) {
		*cause = xasprintf("trace start needs a file (trace start FILE "
		    "[FORMAT] [CORES])");
		return -1;
	}
	if (s->trace != NULL) {
		*cause = xasprintf("a trace is being written to %s already "
		    "(trace stop ends it)", trace_path(s->trace));
		return -1;
	}
	/* FORMAT is optional: a word that is not one is the core set */
	if (cmd_word(&p, format, sizeof format)) {
		char *err = NULL;

		if (trace_format_parse(format, &f, &err) == 0)
			fmt = format;
		else if (strchr("0123456789a", format[0]) != NULL) {
			set = format;
		} else {
			*cause = err;
			return -1;
		}
		free(err);
	}
	if (set == NULL && cmd_word(&p, cores, sizeof cores))
		set = cores;
	if (*p != '\0') {
		*cause = xasprintf("unexpected '%s' after trace start FILE "
		    "[FORMAT] [CORES]", p);
		return -1;
	}
	session_trace_view(s, NULL, &v);
	if (trace_open(&s->trace, file, fmt, set, &v, cause) != 0)
		return -1;
	trace_describe(s->trace, out);
	return 0;
}

static int
cmd_trace_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	char word[16];
	const char *p = c->args;

	if (!cmd_word(&p, word, sizeof word)) {
		*cause = xasprintf("trace needs start or stop (trace start FILE "
		    "[FORMAT] [CORES], trace stop)");
		return -1;
	}
	if (strcmp(word, "start") == 0)
		return trace_start(s, p, out, cause);
	if (strcmp(word, "stop") == 0) {
		char *path;
		uint64_t last;

		if (s->trace == NULL) {
			*cause = xasprintf("no trace is being written (trace "
			    "start FILE begins one)");
			return -1;
		}
		if (*p != '\0') {
			*cause = xasprintf("unexpected '%s' after trace stop", p);
			return -1;
		}
		path = xstrdup(trace_path(s->trace));
		last = s->m.step;
		if (trace_close(s->trace, cause) != 0) {
			s->trace = NULL;
			free(path);
			return -1;
		}
		s->trace = NULL;
		buf_printf(out, "trace written to %s (to step %llu)\n", path,
		    (unsigned long long)last);
		free(path);
		return 0;
	}
	*cause = xasprintf("unknown trace command '%s' (use start or stop)",
	    word);
	return -1;
}

const struct cmd_entry cmd_trace_entry = {
	.name = "trace",
	.usage = "trace start FILE [FORMAT] [CORES] | trace stop",
	.summary = "write a trace of what runs for Perfetto or GTKWave",
	.help = "trace start FILE [FORMAT] [CORES] records every step the\n"
	    "machine runs from now on (step, next, continue, ...) into FILE:\n"
	    "FORMAT jsonl (one JSON line per step), perfetto (divergence\n"
	    "counters, method frames, waits, breakpoints and faults for\n"
	    "ui.perfetto.dev), vcd (the traced cores' registers for\n"
	    "GTKWave) or svg (a timeline of the warps' efficiency and paths\n"
	    "and the cores' status); the default comes from the name (.json\n"
	    "perfetto, .vcd vcd, .svg svg, else jsonl).  CORES (e.g. 0-7,12; default the first warp)\n"
	    "get their own tracks or signals.  Reverse execution and set\n"
	    "level are marked, not recorded again.  trace stop writes the\n"
	    "file; so does the end of the session",
	.arg = ARG_TEXT,
	.flags = CMD_NOREPEAT,
	.exec = cmd_trace_exec,
};

static int
cmd_info_trace_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	if (s->trace == NULL)
		buf_printf(out, "no trace is being written (trace start FILE "
		    "begins one)\n");
	else
		trace_describe(s->trace, out);
	return 0;
}

const struct cmd_entry cmd_info_trace_entry = {
	.name = "trace",
	.usage = "info trace",
	.summary = "the trace being written",
	.help = "the trace being written: its file, format, traced cores and\n"
	    "the steps recorded so far",
	.arg = ARG_NONE,
	.exec = cmd_info_trace_exec,
};
