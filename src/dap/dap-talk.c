/*
 * What the DAP adapter says to its client, below the request handlers
 * (dap.c, dap-bp.c, dap-view.c), which all call it and which it calls
 * back none of: the protocol's messages (responses, failures, events,
 * console output), the cores' output cut into lines, the bounded set of
 * cores shown as threads, and a stop turned into a stopped (or exited
 * and terminated) event from the session's stop report.  dap-int.h
 * describes the ids.
 *
 * A stop is reported from the session's stop report (the text --batch
 * prints, sent as console output too): a breakpoint hit, a watchpoint
 * change and a fault each have one line form (man micdb, Running), which
 * gives the stopped event's reason, the breakpoint numbers and the cores
 * to show as threads.  When every core has halted the debuggee has
 * exited: exited and terminated follow.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dap-int.h"

/* ---- messages ------------------------------------------------------------ */

void
dap_send(struct dap *d, json_object *o)
{
	json_object_object_add(o, "seq", json_object_new_int(++d->seq));
	if (dap_write(d->out, o) != 0)
		d->quit = 1;   /* the client is gone */
	json_object_put(o);
}

void
dap_event(struct dap *d, const char *event, json_object *body)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("event"));
	json_object_object_add(o, "event", json_object_new_string(event));
	if (body != NULL)
		json_object_object_add(o, "body", body);
	dap_send(d, o);
}

static json_object *
response(json_object *req, int success)
{
	json_object *o = json_object_new_object(), *v;
	const char *cmd = dap_arg_str(req, "command");

	json_object_object_add(o, "type", json_object_new_string("response"));
	v = dap_arg(req, "seq");
	json_object_object_add(o, "request_seq",
	    json_object_new_int(v != NULL ? json_object_get_int(v) : 0));
	json_object_object_add(o, "success", json_object_new_boolean(success));
	json_object_object_add(o, "command",
	    json_object_new_string(cmd != NULL ? cmd : ""));
	return o;
}

void
dap_respond(struct dap *d, json_object *req, json_object *body)
{
	json_object *o = response(req, 1);

	if (body != NULL)
		json_object_object_add(o, "body", body);
	dap_send(d, o);
}

void
dap_fail(struct dap *d, json_object *req, const char *fmt, ...)
{
	json_object *o = response(req, 0), *body, *err;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	/* one line a client can show: a control character in what the
	 * message quotes (a request name of "evalu\ne") becomes a space
	 * (found by tests/fuzz/fuzz-dap) */
	for (char *p = msg; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	json_object_object_add(o, "message", json_object_new_string(msg));
	body = json_object_new_object();
	err = json_object_new_object();
	json_object_object_add(err, "id", json_object_new_int(1));
	json_object_object_add(err, "format", json_object_new_string(msg));
	json_object_object_add(err, "showUser",
	    json_object_new_boolean(0));
	json_object_object_add(body, "error", err);
	json_object_object_add(o, "body", body);
	dap_send(d, o);
	free(msg);
}

static void
output_event(struct dap *d, const char *category, const char *text,
    size_t len)
{
	json_object *b = json_object_new_object();

	json_object_object_add(b, "category",
	    json_object_new_string(category));
	json_object_object_add(b, "output",
	    json_object_new_string_len(text, (int)len));
	dap_event(d, "output", b);
}

void
dap_console(struct dap *d, const char *text, size_t len)
{
	if (len > 0)
		output_event(d, "console", text, len);
}

json_object *
dap_arg(json_object *args, const char *name)
{
	json_object *v;

	if (args == NULL || !json_object_is_type(args, json_type_object) ||
	    !json_object_object_get_ex(args, name, &v) || v == NULL)
		return NULL;
	return v;
}

int
dap_arg_int(json_object *args, const char *name, int64_t *v)
{
	json_object *o = dap_arg(args, name);

	if (o == NULL || !json_object_is_type(o, json_type_int))
		return -1;
	*v = json_object_get_int64(o);
	return 0;
}

const char *
dap_arg_str(json_object *args, const char *name)
{
	json_object *o = dap_arg(args, name);

	if (o == NULL || !json_object_is_type(o, json_type_string))
		return NULL;
	return json_object_get_string(o);
}

char *
dap_abspath(const char *path)
{
	char *r = realpath(path, NULL);

	return r != NULL ? r : xstrdup(path);
}

/* ---- core output ------------------------------------------------------- */

/* A core's line, as micdb run prints it: "[core N] text". */
static void
core_line(void *arg, uint32_t core, const uint8_t *p, size_t n)
{
	struct dap *d = arg;
	char *t = xasprintf("[core %u] %.*s\n", core, (int)n, (const char *)p);

	output_event(d, "stdout", t, strlen(t));
	free(t);
}

void
dap_on_output(void *arg, uint32_t core, const uint8_t *data, size_t len)
{
	struct dap *d = arg;

	if (d->raw)
		output_event(d, "stdout", (const char *)data, len);
	else
		core_lines_put(&d->lines, core, data, len, core_line, d);
}

void
dap_flush_output(struct dap *d)
{
	core_lines_flush(&d->lines, core_line, d);
}

/* ---- threads ------------------------------------------------------------- */

static json_object *
thread_event(uint32_t core, const char *reason)
{
	json_object *b = json_object_new_object();

	json_object_object_add(b, "reason", json_object_new_string(reason));
	json_object_object_add(b, "threadId",
	    json_object_new_int64((int64_t)core + 1));
	return b;
}

static int
has_core(const uint32_t *v, size_t n, uint32_t c)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == c)
			return 1;
	return 0;
}

json_object *
dap_line_out(struct dap *d, uint32_t line)
{
	return json_object_new_int64(line == 0 ? 0 :
	    (int64_t)line - 1 + d->line_base);
}

int
dap_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

json_object *
dap_source(const char *path)
{
	json_object *s = json_object_new_object();
	const char *base = strrchr(path, '/');

	json_object_object_add(s, "name",
	    json_object_new_string(base ? base + 1 : path));
	json_object_object_add(s, "path", json_object_new_string(path));
	return s;
}

/*
 * The cores shown as threads: the focus, the cores of the last stop and
 * the pinned ones (focused before, or named by launch's threads), at
 * most DAP_THREADS, in core order.  A core that halted leaves the list
 * (thread exited) unless it is the focus; one that enters it is started.
 */
void
dap_update_threads(struct dap *d)
{
	const struct machine *m = session_machine(d->s);
	uint32_t v[DAP_THREADS], focus = session_focus(d->s);
	size_t n = 0;

	v[n++] = focus;
	for (size_t i = 0; i < d->nstopcores; i++)
		if (!has_core(v, n, d->stopcores[i]))
			v[n++] = d->stopcores[i];
	for (size_t i = 0; i < d->npinned; i++) {
		uint32_t c = d->pinned[i];

		if (has_core(v, n, c) ||
		    m->cores[c].status == CORE_HALTED)
			continue;
		v[n++] = c;
	}
	qsort(v, n, sizeof *v, dap_cmp_u32);
	for (size_t i = 0; i < d->nthreads; i++)
		if (!has_core(v, n, d->threads[i]))
			dap_event(d, "thread", thread_event(d->threads[i],
			    "exited"));
	for (size_t i = 0; i < n; i++)
		if (!has_core(d->threads, d->nthreads, v[i]))
			dap_event(d, "thread", thread_event(v[i], "started"));
	memcpy(d->threads, v, n * sizeof *v);
	d->nthreads = n;
}

void
dap_pin(struct dap *d, uint32_t core)
{
	size_t i;

	for (i = 0; i < d->npinned && d->pinned[i] != core; i++)
		;
	if (i == d->npinned) {
		if (d->npinned == DAP_PINNED)
			i = --d->npinned;
		d->npinned++;
	}
	/* the most recent first */
	memmove(d->pinned + 1, d->pinned, i * sizeof *d->pinned);
	d->pinned[0] = core;
}

void
dap_focus(struct dap *d, uint32_t core)
{
	char line[32], *cause = NULL;
	struct buf out = { 0 };

	if (session_focus(d->s) != core) {
		snprintf(line, sizeof line, "core %u", core);
		if (session_execute(d->s, line, &out, &cause) != 0)
			free(cause);
		buf_free(&out);
	}
	dap_pin(d, core);
}

int
dap_thread_core(struct dap *d, json_object *args, uint32_t *core,
    char **cause)
{
	int64_t id;

	if (dap_arg_int(args, "threadId", &id) != 0) {
		*cause = xasprintf("threadId (a number) is missing");
		return -1;
	}
	if (id < 1 || (uint64_t)id > d->ncores) {
		*cause = xasprintf("no thread %lld: threads are cores 0 to %u "
		    "as threadId 1 to %u", (long long)id, d->ncores - 1,
		    d->ncores);
		return -1;
	}
	*core = (uint32_t)(id - 1);
	return 0;
}

/* ---- stops --------------------------------------------------------------- */

/* Cores of "core 5", "cores 3-5, 9, ... (12 more)" at p, into the stop's
 * cores (bounded). */
static void
note_cores(struct dap *d, const char *p)
{
	if (strncmp(p, "cores ", 6) == 0)
		p += 6;
	else if (strncmp(p, "core ", 5) == 0)
		p += 5;
	else
		return;
	while (*p >= '0' && *p <= '9') {
		unsigned long a = strtoul(p, (char **)&p, 10), b = a;

		if (*p == '-' && p[1] >= '0' && p[1] <= '9')
			b = strtoul(p + 1, (char **)&p, 10);
		for (unsigned long c = a; c <= b && c < d->ncores &&
		    d->nstopcores < DAP_STOPCORES; c++)
			if (!has_core(d->stopcores, d->nstopcores, (uint32_t)c))
				d->stopcores[d->nstopcores++] = (uint32_t)c;
		if (strncmp(p, ", ", 2) != 0)
			break;
		p += 2;
	}
}

/* Is no core left that could run (every one halted or faulted)? */
int
dap_all_done(struct dap *d, int *faulted)
{
	const struct machine *m = session_machine(d->s);
	int done = 1;

	*faulted = 0;
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		if (m->cores[c].status == CORE_RUNNING ||
		    m->cores[c].status == CORE_WAITING ||
		    m->cores[c].status == CORE_JOINING)
			done = 0;
		if (m->cores[c].status == CORE_ERROR)
			*faulted = 1;
	}
	return done;
}

void
dap_terminate(struct dap *d, int code)
{
	json_object *b;

	if (d->terminated)
		return;
	dap_flush_output(d);
	b = json_object_new_object();
	json_object_object_add(b, "exitCode", json_object_new_int(code));
	dap_event(d, "exited", b);
	dap_event(d, "terminated", NULL);
	d->terminated = 1;
}

/* The body of a stopped event on the focused core (its thread). */
static json_object *
stopped_body(struct dap *d, const char *reason, const char *desc)
{
	json_object *b = json_object_new_object();

	json_object_object_add(b, "reason", json_object_new_string(reason));
	json_object_object_add(b, "threadId",
	    json_object_new_int64((int64_t)session_focus(d->s) + 1));
	json_object_object_add(b, "allThreadsStopped",
	    json_object_new_boolean(1));
	if (desc != NULL)
		json_object_object_add(b, "description",
		    json_object_new_string(desc));
	return b;
}

void
dap_stopped(struct dap *d, struct buf *rep, const char *reason, int echo)
{
	json_object *b, *ids = json_object_new_array();
	char *text, *line, *save = NULL, *desc = NULL, *exc = NULL;
	int faulted;

	if (echo)
		dap_console(d, (const char *)rep->data, rep->len);
	buf_put_u8(rep, 0);
	text = xstrdup((const char *)rep->data);
	d->nstopcores = 0;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		const char *p = line, *by;
		unsigned id;

		if (strncmp(p, "temporary ", 10) == 0)
			p += 10;
		if (sscanf(p, "breakpoint %u hit by", &id) == 1 &&
		    (by = strstr(p, " hit by ")) != NULL) {
			reason = "breakpoint";
			json_object_array_add(ids, json_object_new_int64(id));
			note_cores(d, by + 8);
		} else if (sscanf(p, "watchpoint %u:", &id) == 1) {
			if (exc == NULL)
				reason = "data breakpoint";
			json_object_array_add(ids, json_object_new_int64(id));
			if ((by = strstr(p, " changed by ")) != NULL)
				note_cores(d, by + 12);
		} else if (strstr(p, " faulted: ") != NULL &&
		    strncmp(p, "core", 4) == 0) {
			reason = "exception";
			if (exc == NULL)
				exc = xstrdup(line);
			note_cores(d, p);
		} else if (strncmp(p, "deadlock", 8) == 0 ||
		    strncmp(p, "step limit", 10) == 0 ||
		    strncmp(p, "error in the condition", 22) == 0) {
			reason = "exception";
			if (exc == NULL)
				exc = xstrdup(line);
		} else if (strcmp(p, "interrupted") == 0)
			reason = "pause";
		if (desc == NULL)
			desc = xstrdup(line);
	}
	free(text);
	if (strcmp(reason, "exception") != 0 && dap_all_done(d, &faulted)) {
		json_object_put(ids);
		free(desc);
		free(exc);
		dap_update_threads(d);
		dap_terminate(d, faulted);
		return;
	}
	dap_update_threads(d);
	b = stopped_body(d, reason, desc);
	if (exc != NULL)
		json_object_object_add(b, "text", json_object_new_string(exc));
	if (json_object_array_length(ids) > 0)
		json_object_object_add(b, "hitBreakpointIds", ids);
	else
		json_object_put(ids);
	dap_event(d, "stopped", b);
	free(desc);
	free(exc);
}

void
dap_refocus(struct dap *d, const char *reason, const char *desc)
{
	json_object *b;

	dap_pin(d, session_focus(d->s));
	dap_update_threads(d);
	b = stopped_body(d, reason, desc);
	dap_event(d, "stopped", b);
}

void
dap_run_started(struct dap *d, const char *reason)
{
	d->running = 1;
	d->run_reason = reason;
}

int
dap_exec(struct dap *d, const char *line, struct buf *out, char **cause)
{
	int rc = session_execute(d->s, line, out, cause);

	if (rc == SESSION_QUIT) {
		*cause = xasprintf("quit: use disconnect to end the session");
		return -1;
	}
	return rc;
}
