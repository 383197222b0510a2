/*
 * The session's open trace (doc/debugger.md section 5): what a step,
 * a mark and the session's end write to it.  Below the level switch,
 * reverse execution and run control, which call it, and the trace
 * commands (cmd-trace.c), which open it; it calls only the trace writer
 * (trace.c) and what a core holds (session-read.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "trace.h"

void
session_trace_view(struct session *s, const uint8_t *at_bp,
    struct trace_view *v)
{
	const struct microcode *mc = session_microcode(s, s->level);

	memset(v, 0, sizeof *v);
	v->m = &s->m;
	v->level = s->level;
	/* the level's own state: at PMIC the struct pmic_state, whose G0,
	 * G1 and words the VCD shows */
	v->level_state = s->level == LEVEL_PMIC ?
	    (const void *)session_pmic_state(s) : s->level == LEVEL_MIC ?
	    session_level_state(s) : NULL;
	v->syms = mc != NULL ? &mc->syms : NULL;
	v->e = s->have_engine ? &s->e : NULL;
	v->at_bp = at_bp;
}

int
session_tracing(const struct session *s)
{
	return s->trace != NULL;
}

void
session_trace_step(struct session *s, int at_bp)
{
	struct trace_view v;

	if (s->trace == NULL)
		return;
	session_trace_view(s, at_bp ? s->at_bp : NULL, &v);
	/* a failed write is reported by trace stop (or lost with the
	 * session): the run itself goes on */
	(void)trace_record(s->trace, &v);
}

void
session_trace_mark(struct session *s, const char *fmt, ...)
{
	struct trace_view v;
	va_list ap;
	char *what;

	if (s->trace == NULL)
		return;
	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	session_trace_view(s, NULL, &v);
	(void)trace_mark(s->trace, &v, what);
	free(what);
}

int
session_end_trace(struct session *s, char **cause)
{
	int rc = 0;

	if (s->trace != NULL)
		rc = trace_close(s->trace, cause);
	s->trace = NULL;
	return rc;
}

void
session_trace_free(struct session *s)
{
	char *cause = NULL;

	if (s->trace == NULL)
		return;
	if (trace_close(s->trace, &cause) != 0)
		free(cause);
	s->trace = NULL;
}

