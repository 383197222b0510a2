/*
 * micdb --dap: the Debug Adapter Protocol on standard input and output,
 * a third front end beside the screen (ui/) and --batch (src/batch/).
 *
 * The loop reads requests (dap-msg.c frames them), answers each at once,
 * and, while the machine runs, advances it in slices of DAP_SLICE global
 * steps between which it looks at standard input again, so that pause
 * (the session's interrupt flag), threads and disconnect are answered
 * during a long run.  Requests that need a stopped machine are refused
 * while it runs.  Standard output belongs to the protocol: fd 1 is moved
 * to a private descriptor and fd 1 itself points at stderr, so that
 * nothing a library prints can break the framing.
 *
 * Launch turns its attributes into the command line's options and parses
 * them with opts_parse, so that every bad argument gets the command
 * line's message, and opens the session with session_open, as the other
 * front ends do.  The initialized event follows the launch response;
 * configurationDone then starts the run (or stops on entry).
 *
 * What the adapter says back (messages, events, threads, the stop
 * report turned into a stopped event) is dap-talk.c, below this file.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dap-int.h"
#include "dap.h"
#include "session-open.h"

#define DAP_SLICE	4096   /* global steps between looks at stdin */

/* Advance the run by a slice; report its stop. */
static void
poll_run(struct dap *d)
{
	struct buf out = { 0 };
	char *cause = NULL;
	int rc;

	rc = session_poll(d->s, DAP_SLICE, &out, &cause);
	if (rc == 1) {
		buf_free(&out);
		return;
	}
	d->running = 0;
	if (rc == -1) {
		buf_printf(&out, "%s\n", cause);
		free(cause);
		dap_stopped(d, &out, "exception", 1);
	} else
		dap_stopped(d, &out, d->run_reason, 1);
	buf_free(&out);
}

/* ---- launch -------------------------------------------------------------- */

struct argv {
	char	**v;
	int	  n;
};

static void
argv_add(struct argv *a, const char *s)
{
	a->v = xreallocarray(a->v, (size_t)a->n + 2, sizeof *a->v);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void
argv_free(struct argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
}

/* Launch attribute name -> option, for numbers and strings alike. */
static const struct {
	const char	*attr;
	const char	*opt;
} launch_opts[] = {
	{ "cores",	"--cores" },
	{ "warpWidth",	"--warp-width" },
	{ "level",	"--level" },
	{ "engine",	"--engine" },
	{ "device",	"--device" },
	{ "hostThreads", "--threads" },
	{ "microcode",	"--microcode" },
	{ "stackWords",	"--stack-words" },
	{ "heapWords",	"--heap-words" },
	{ "input",	"--input" },
	{ "maxSteps",	"--max-steps" },
	{ "trace",	"--trace" },
	{ "traceFormat", "--trace-format" },
	{ "traceCores",	"--trace-cores" },
	{ "output",	"--output" },
};

/* An attribute as an option value: strings as they are, numbers in
 * decimal (so that the option's own check judges them). */
static int
attr_value(json_object *v, const char *attr, char **out, char **cause)
{
	if (json_object_is_type(v, json_type_string))
		*out = xstrdup(json_object_get_string(v));
	else if (json_object_is_type(v, json_type_int))
		*out = xasprintf("%lld", (long long)json_object_get_int64(v));
	else if (json_object_is_type(v, json_type_double))
		*out = xasprintf("%s", json_object_get_string(v));
	else {
		*cause = xasprintf("launch: %s must be a number or a string, "
		    "not %s", attr,
		    json_type_to_name(json_object_get_type(v)));
		return -1;
	}
	return 0;
}

/* The launch attributes as micdb's argv. */
static int
launch_argv(json_object *args, struct argv *a, char **cause)
{
	json_object *v, *progs;
	char *s;

	argv_add(a, "micdb");
	for (size_t i = 0; i < sizeof launch_opts / sizeof *launch_opts; i++) {
		if ((v = dap_arg(args, launch_opts[i].attr)) == NULL)
			continue;
		if (attr_value(v, launch_opts[i].attr, &s, cause) != 0)
			return -1;
		argv_add(a, launch_opts[i].opt);
		argv_add(a, s);
		free(s);
	}
	if ((v = dap_arg(args, "forkJoin")) != NULL &&
	    json_object_get_boolean(v))
		argv_add(a, "--fork-join");
	if ((progs = dap_arg(args, "programs")) != NULL) {
		if (!json_object_is_type(progs, json_type_array)) {
			*cause = xasprintf("launch: programs must be an array "
			    "of {\"program\": FILE, \"cores\": RANGE}");
			return -1;
		}
		for (size_t i = 0; i < json_object_array_length(progs); i++) {
			json_object *e = json_object_array_get_idx(progs, i);
			const char *path = dap_arg_str(e, "program");
			json_object *cv = dap_arg(e, "cores");
			char *range;

			if (path == NULL || cv == NULL) {
				*cause = xasprintf("launch: programs[%zu] needs "
				    "\"program\" (a file) and \"cores\" (a "
				    "range such as \"0-511\")", i);
				return -1;
			}
			if (attr_value(cv, "cores", &range, cause) != 0)
				return -1;
			s = xasprintf("%s:%s", path, range);
			argv_add(a, "--program");
			argv_add(a, s);
			free(s);
			free(range);
		}
	}
	if ((v = dap_arg(args, "program")) != NULL) {
		if (!json_object_is_type(v, json_type_string)) {
			*cause = xasprintf("launch: program must be a file "
			    "name (.jas or .ijvm)");
			return -1;
		}
		/* "--" so that a program named -x is a program */
		argv_add(a, "--");
		argv_add(a, json_object_get_string(v));
	}
	return 0;
}

static const char dap_usage[] =
"usage: micdb --dap\n"
"Speak the Debug Adapter Protocol on standard input and output, for an\n"
"editor (VS Code with editors/vscode, Neovim's nvim-dap, Emacs' dape).\n"
"The program, cores, level, engine and the other options of micdb come\n"
"with the editor's launch request; see DEBUG ADAPTER in micdb(1).\n";

/* What a launch without a program is told (one line: a message). */
static const char dap_launch_usage[] =
"launch {\"program\": FILE} or {\"programs\": [{\"program\": FILE, "
"\"cores\": RANGE}...]}, see DEBUG ADAPTER in micdb(1)";

static void
req_launch(struct dap *d, json_object *req, json_object *args)
{
	struct argv a = { NULL, 0 };
	struct session_frontend fe;
	json_object *v;
	char *cause = NULL;
	int rc;

	if (d->s != NULL) {
		dap_fail(d, req, "launch: a program is running already (one "
		    "launch per session)");
		return;
	}
	if (launch_argv(args, &a, &cause) != 0)
		goto fail;
	opts_init(&d->o);
	memset(&d->l, 0, sizeof d->l);
	if ((rc = opts_parse(&d->o, a.n, a.v, dap_launch_usage, &cause)) == 1)
		cause = xasprintf("launch: --help is not a launch attribute");
	if (rc != 0)
		goto fail_opts;
	memset(&fe, 0, sizeof fe);
	fe.output = dap_on_output;
	fe.output_arg = d;
	if (session_open(&d->s, &d->l, &d->o, &fe, &cause) != 0)
		goto fail_opts;
	d->ncores = d->l.ncores;
	d->raw = opts_output_raw(&d->o, d->ncores);
	if (!d->raw)
		core_lines_init(&d->lines, d->ncores);
	d->dsyms = xcalloc(d->l.nprogs, sizeof *d->dsyms);
	d->abspaths = xcalloc(d->l.nprogs, sizeof *d->abspaths);
	for (size_t i = 0; i < d->l.nprogs; i++) {
		dsym_load(&d->dsyms[i], d->l.ptrs[i]);
		d->abspaths[i] = dap_abspath(d->l.ptrs[i]->path);
	}
	d->stop_on_entry = (v = dap_arg(args, "stopOnEntry")) != NULL &&
	    json_object_get_boolean(v);
	if ((v = dap_arg(args, "threads")) != NULL &&
	    json_object_is_type(v, json_type_array))
		for (size_t i = json_object_array_length(v); i-- > 0;) {
			int64_t c = json_object_get_int64(
			    json_object_array_get_idx(v, i));

			if (c >= 0 && (uint64_t)c < d->ncores)
				dap_pin(d, (uint32_t)c);
		}
	dap_pin(d, session_focus(d->s));
	argv_free(&a);
	dap_respond(d, req, NULL);
	dap_update_threads(d);
	dap_event(d, "initialized", NULL);
	return;
fail_opts:
	opts_free(&d->o);
fail:
	argv_free(&a);
	dap_fail(d, req, "%s", cause);
	free(cause);
}

/* ---- run control --------------------------------------------------------- */

/* Start a command that runs (or moves) the machine for a request. */
static void
run_command(struct dap *d, json_object *req, json_object *args,
    const char *line, const char *reason)
{
	struct buf out = { 0 };
	char *cause = NULL;
	uint32_t core;
	int faulted;

	if (dap_arg(args, "threadId") != NULL) {
		if (dap_thread_core(d, args, &core, &cause) != 0) {
			dap_fail(d, req, "%s", cause);
			free(cause);
			return;
		}
		dap_focus(d, core);
	}
	if (strncmp(line, "reverse", 7) != 0 && dap_all_done(d, &faulted)) {
		/* nothing can run: the debuggee has ended */
		dap_respond(d, req, NULL);
		dap_terminate(d, faulted);
		return;
	}
	if (dap_exec(d, line, &out, &cause) != 0) {
		dap_fail(d, req, "%s", cause);
		free(cause);
		buf_free(&out);
		return;
	}
	if (strcmp(line, "continue") == 0) {
		json_object *b = json_object_new_object();

		json_object_object_add(b, "allThreadsContinued",
		    json_object_new_boolean(1));
		dap_respond(d, req, b);
	} else
		dap_respond(d, req, NULL);
	if (session_running(d->s)) {
		dap_console(d, (const char *)out.data, out.len);
		dap_run_started(d, reason);
	} else
		dap_stopped(d, &out, reason, 1);
	buf_free(&out);
}

static int
instruction_granularity(json_object *args)
{
	const char *g = dap_arg_str(args, "granularity");

	return g != NULL && strcmp(g, "instruction") == 0;
}

static void
req_config_done(struct dap *d, json_object *req)
{
	if (d->configured) {
		dap_fail(d, req, "configurationDone came twice");
		return;
	}
	d->configured = 1;
	if (d->stop_on_entry) {
		json_object *b = json_object_new_object();

		dap_respond(d, req, NULL);
		json_object_object_add(b, "reason",
		    json_object_new_string("entry"));
		json_object_object_add(b, "threadId",
		    json_object_new_int64((int64_t)session_focus(d->s) + 1));
		json_object_object_add(b, "allThreadsStopped",
		    json_object_new_boolean(1));
		dap_event(d, "stopped", b);
		return;
	}
	run_command(d, req, NULL, "continue", "pause");
}

static void
req_initialize(struct dap *d, json_object *req, json_object *args)
{
	static const char *const caps[] = {
		"supportsConfigurationDoneRequest",
		"supportsStepBack",
		"supportsConditionalBreakpoints",
		"supportsHitConditionalBreakpoints",
		"supportsFunctionBreakpoints",
		"supportsInstructionBreakpoints",
		"supportsDataBreakpoints",
		"supportsSetVariable",
		"supportsReadMemoryRequest",
		"supportsWriteMemoryRequest",
		"supportsDisassembleRequest",
		"supportsSteppingGranularity",
		"supportsEvaluateForHovers",
		"supportsTerminateRequest",
	};
	json_object *b = json_object_new_object(), *v;

	v = dap_arg(args, "linesStartAt1");
	d->line_base = v != NULL && !json_object_get_boolean(v) ? 0 : 1;
	for (size_t i = 0; i < sizeof caps / sizeof *caps; i++)
		json_object_object_add(b, caps[i], json_object_new_boolean(1));
	dap_respond(d, req, b);
}

static void
req_threads(struct dap *d, json_object *req)
{
	json_object *b = json_object_new_object(), *a = json_object_new_array();
	uint32_t w = d->s != NULL ?
	    session_machine(d->s)->cfg.warp_width : 1;

	for (size_t i = 0; d->s != NULL && i < d->nthreads; i++) {
		json_object *t = json_object_new_object();
		uint32_t c = d->threads[i];
		char *name = xasprintf("core %u (warp %u, lane %u)", c, c / w,
		    c % w);

		json_object_object_add(t, "id",
		    json_object_new_int64((int64_t)c + 1));
		json_object_object_add(t, "name", json_object_new_string(name));
		json_object_array_add(a, t);
		free(name);
	}
	json_object_object_add(b, "threads", a);
	dap_respond(d, req, b);
}

/* Requests that may come while the machine runs. */
static int
while_running(const char *cmd)
{
	return strcmp(cmd, "pause") == 0 || strcmp(cmd, "threads") == 0 ||
	    strcmp(cmd, "disconnect") == 0 || strcmp(cmd, "terminate") == 0;
}

/* The requests handled after launch. */
static int
known(const char *cmd)
{
	static const char *const names[] = {
		"configurationDone", "pause", "continue", "next", "stepIn",
		"stepOut", "stepBack", "reverseContinue", "setBreakpoints",
		"setFunctionBreakpoints", "setInstructionBreakpoints",
		"dataBreakpointInfo", "setDataBreakpoints", "stackTrace",
		"scopes", "variables", "setVariable", "evaluate",
		"disassemble", "readMemory", "writeMemory",
		"setExceptionBreakpoints",
	};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(cmd, names[i]) == 0)
			return 1;
	return 0;
}

static void
handle(struct dap *d, json_object *msg)
{
	const char *type = dap_arg_str(msg, "type");
	const char *cmd = dap_arg_str(msg, "command");
	json_object *args = dap_arg(msg, "arguments");
	int64_t seq;

	if (type == NULL || strcmp(type, "request") != 0 || cmd == NULL ||
	    dap_arg_int(msg, "seq", &seq) != 0) {
		if (type != NULL && strcmp(type, "response") == 0)
			return;   /* an answer to a reverse request: none sent */
		fprintf(stderr, "micdb: dap: a message that is not a request "
		    "(type \"request\", seq and command are needed): ignored\n");
		if (cmd != NULL)
			dap_fail(d, msg, "not a request: type \"request\", seq "
			    "and command are needed");
		return;
	}
	if (strcmp(cmd, "initialize") == 0) {
		req_initialize(d, msg, args);
		return;
	}
	if (strcmp(cmd, "launch") == 0) {
		req_launch(d, msg, args);
		return;
	}
	if (strcmp(cmd, "attach") == 0) {
		dap_fail(d, msg, "attach: micdb starts its own machine; use "
		    "launch");
		return;
	}
	if (strcmp(cmd, "disconnect") == 0 || strcmp(cmd, "terminate") == 0) {
		char *cause = NULL;

		if (d->running)
			*session_interrupt_flag(d->s) = 1;
		/* the trace is written now, while the client still hears
		 * why it could not be */
		if (strcmp(cmd, "disconnect") == 0 && d->s != NULL &&
		    !d->running && session_end_trace(d->s, &cause) != 0) {
			char *text = xasprintf("micdb: %s\n", cause);

			dap_console(d, text, strlen(text));
			fputs(text, stderr);
			free(text);
			free(cause);
		}
		dap_respond(d, msg, NULL);
		if (strcmp(cmd, "terminate") == 0 && d->s != NULL)
			dap_terminate(d, 0);
		else
			d->quit = 1;
		return;
	}
	if (strcmp(cmd, "threads") == 0) {
		req_threads(d, msg);
		return;
	}
	if (!known(cmd)) {
		dap_fail(d, msg, "unknown request '%s'", cmd);
		return;
	}
	if (d->s == NULL) {
		dap_fail(d, msg, "%s: no program yet: send launch first", cmd);
		return;
	}
	if (d->running && !while_running(cmd)) {
		dap_fail(d, msg, "%s: the machine is running (pause first)",
		    cmd);
		return;
	}
	if (strcmp(cmd, "configurationDone") == 0)
		req_config_done(d, msg);
	else if (strcmp(cmd, "pause") == 0) {
		if (d->running)
			*session_interrupt_flag(d->s) = 1;
		dap_respond(d, msg, NULL);
	} else if (!d->configured && (strcmp(cmd, "continue") == 0 ||
	    strcmp(cmd, "next") == 0 || strcmp(cmd, "stepIn") == 0 ||
	    strcmp(cmd, "stepOut") == 0 || strcmp(cmd, "stepBack") == 0 ||
	    strcmp(cmd, "reverseContinue") == 0))
		dap_fail(d, msg, "%s: send configurationDone first", cmd);
	else if (strcmp(cmd, "continue") == 0)
		run_command(d, msg, args, "continue", "pause");
	else if (strcmp(cmd, "next") == 0)
		run_command(d, msg, args, instruction_granularity(args) ?
		    "nexti" : "next", "step");
	else if (strcmp(cmd, "stepIn") == 0)
		run_command(d, msg, args, instruction_granularity(args) ?
		    "stepi" : "step", "step");
	else if (strcmp(cmd, "stepOut") == 0)
		run_command(d, msg, args, "finish", "step");
	else if (strcmp(cmd, "stepBack") == 0)
		run_command(d, msg, args, instruction_granularity(args) ?
		    "reverse-stepi" : "reverse-step", "step");
	else if (strcmp(cmd, "reverseContinue") == 0)
		run_command(d, msg, args, "reverse-continue", "step");
	else if (strcmp(cmd, "setExceptionBreakpoints") == 0) {
		/* none are offered (a fault always stops, as set
		 * stop-on-fault says), but some clients send it anyway */
		json_object *b = json_object_new_object();

		json_object_object_add(b, "breakpoints",
		    json_object_new_array());
		dap_respond(d, msg, b);
	}
	else if (dap_bp_request(d, cmd, msg, args) == 0)
		;
	else
		(void)dap_view_request(d, cmd, msg, args);
}

static void
dap_free(struct dap *d)
{
	dap_bp_free(d);
	if (d->s != NULL) {
		session_free(d->s);
		for (size_t i = 0; i < d->l.nprogs; i++) {
			dsym_free(&d->dsyms[i]);
			free(d->abspaths[i]);
		}
		free(d->dsyms);
		free(d->abspaths);
		loaded_free(&d->l);
		opts_free(&d->o);
	}
	core_lines_free(&d->lines);
	dap_reader_free(&d->rd);
}

int
dap_main(int argc, char **argv)
{
	struct dap d;
	char *cause = NULL;
	uint8_t chunk[65536];
	int fd, rc = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			fputs(dap_usage, stdout);
			return 0;
		}
		if (strcmp(argv[i], "--dap") != 0) {
			fprintf(stderr, "micdb: --dap takes no other arguments "
			    "('%s'): the program and options come with the "
			    "launch request\n", argv[i]);
			return 2;
		}
	}
	memset(&d, 0, sizeof d);
	d.line_base = 1;
	dap_reader_init(&d.rd);
	/* stdout is the protocol's alone: libraries get stderr */
	if ((fd = dup(1)) == -1 || dup2(2, 1) == -1 ||
	    (d.out = fdopen(fd, "w")) == NULL) {
		fprintf(stderr, "micdb: --dap: %s\n", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	while (!d.quit) {
		struct pollfd pfd = { 0, POLLIN, 0 };
		json_object *msg;
		ssize_t n;

		if (d.running)
			poll_run(&d);
		if (poll(&pfd, 1, d.running ? 0 : -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd.revents == 0)
			continue;
		if ((n = read(0, chunk, sizeof chunk)) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			if (dap_reader_eof(&d.rd, &cause) != 0) {
				fprintf(stderr, "micdb: dap: %s\n", cause);
				free(cause);
				rc = 1;
			}
			break;
		}
		dap_reader_feed(&d.rd, chunk, (size_t)n);
		while (!d.quit) {
			int r = dap_reader_next(&d.rd, &msg, &cause);

			if (r == 0)
				break;
			if (r == -1) {
				fprintf(stderr, "micdb: dap: %s\n", cause);
				free(cause);
				continue;
			}
			handle(&d, msg);
			json_object_put(msg);
		}
	}
	dap_free(&d);
	fclose(d.out);
	return rc;
}
