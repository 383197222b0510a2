/*
 * The batch front end: parse the usual options, open a session over them
 * (src/dbg/session-open.c, as the screen does), and run every line of
 * the script as a command, writing a transcript on stdout:
 *
 *   (micdb) break loop core 8-15        each command, echoed
 *   breakpoint 1 at 0x0012 (...)        then its output
 *   [core 3] collatz(4) = 2 steps ...   core output as it arrives
 *   cmds.cmd:7: no such label 'lop' ... an error: FILE:LINE: message
 *
 * Blank lines and lines starting with # are skipped (not echoed).  An
 * empty line never repeats a command here.  Core output is written as it
 * comes back from the engine: raw bytes for a one-core machine (or
 * --output raw), otherwise cut into lines, each "[core N] text"; the run
 * goes in fixed slices of steps, so the transcript is the same on every
 * run and every engine.  A partial line still pending at the end is
 * flushed.  The script ends at quit or at its end.
 *
 * Exit status: 0; 1 if any command failed; 2 for bad usage or input
 * (options, the script or a program that cannot be read) or a transcript
 * that cannot be written, which would otherwise pass for a whole one (a
 * full disk: the script stops at the first command after the failed
 * write, since what it would print is lost).  Core input:
 * --input FILE for core 0 (given again at every run), and the input
 * command; standard input is not read.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "corelines.h"
#include "engine.h"
#include "session-open.h"

static const char batch_usage[] =
"usage: micdb --batch FILE [options] PROGRAM\n"
"       micdb -x FILE [options] PROGRAM\n"
"Run the debugger commands of FILE on PROGRAM (.jas or .ijvm) and write a\n"
"transcript: each command after \"(micdb) \", then its output; errors as\n"
"FILE:LINE: message.  Options are those of micdb run (see micdb run --help):\n"
"--cores, --warp-width, --program FILE:RANGE, --input, --max-steps,\n"
"--stack-words, --heap-words, --engine ref|native|opencl, --device,\n"
"--output raw, --level isa|mic|pmic (the level to start at; set level\n"
"switches later), --microcode FILE (the micro level's microprogram:\n"
".mal or .mic1 for mic, .pm or .pmic for pmic),\n"
"--fork-join (the fork-join model), --threads N (the native engines'\n"
"host threads), --trace FILE with --trace-format and --trace-cores (a\n"
"trace from the first command on, as trace start; written at the end).\n"
"Exit status: 0, 1 if a command failed, 2 for bad usage or input or a\n"
"transcript that cannot be written.\n";

/* The transcript writer: where core output and messages meet. */
struct transcript {
	int		 raw;          /* core bytes pass through */
	int		 at_bol;       /* stdout is at the start of a line */
	int		 werr;         /* errno of the first failed write; 0 */
	struct core_lines lines;       /* unless raw */
};

/*
 * SIGINT must reach the session's interrupt flag; a signal handler can
 * only reach it through a static pointer, set while a session exists.
 * The first SIGINT stops the run at a step boundary ("interrupted", and
 * the script goes on); a second one ends micdb as usual.
 */
static volatile sig_atomic_t *batch_interrupt;

static void
on_sigint(int sig)
{
	if (batch_interrupt != NULL)
		*batch_interrupt = 1;
	signal(sig, SIG_DFL);
}

/* Keep the first write error (ok: the write's own verdict). */
static void
wrote(struct transcript *t, int ok)
{
	if (!ok && t->werr == 0)
		t->werr = errno != 0 ? errno : EIO;
}

static void
put(struct transcript *t, const void *data, size_t len)
{
	if (len == 0)
		return;
	errno = 0;
	wrote(t, fwrite(data, 1, len, stdout) == len);
	t->at_bol = ((const char *)data)[len - 1] == '\n';
}

static void
newline_if_needed(struct transcript *t)
{
	if (!t->at_bol)
		put(t, "\n", 1);
}

static void
core_line(void *arg, uint32_t core, const uint8_t *p, size_t n)
{
	struct transcript *t = arg;

	newline_if_needed(t);
	errno = 0;
	wrote(t, printf("[core %u] %.*s\n", core, (int)n,
	    (const char *)p) >= 0);
	t->at_bol = 1;
}

static void
on_output(void *arg, uint32_t core, const uint8_t *data, size_t len)
{
	struct transcript *t = arg;

	if (t->raw)
		put(t, data, len);
	else
		core_lines_put(&t->lines, core, data, len, core_line, t);
}

static void
flush_pending(struct transcript *t)
{
	core_lines_flush(&t->lines, core_line, t);
	newline_if_needed(t);
}

/* Run the script's lines, up to one whose transcript could not be
 * written; returns 1 if a command failed. */
static int
run_script(struct session *s, struct transcript *t, const char *path,
    char *text)
{
	int failed = 0;
	unsigned line = 0;
	char *p = text;

	while (*p != '\0' && t->werr == 0) {
		char *eol = strchr(p, '\n'), *cmd = p, *cause = NULL;
		struct buf out = { 0 };
		int rc;

		if (eol != NULL)
			*eol = '\0';
		p = eol ? eol + 1 : p + strlen(p);
		line++;
		if (*cmd != '\0' && cmd[strlen(cmd) - 1] == '\r')
			cmd[strlen(cmd) - 1] = '\0';
		while (*cmd == ' ' || *cmd == '\t')
			cmd++;
		if (*cmd == '\0' || *cmd == '#')
			continue;
		newline_if_needed(t);
		errno = 0;
		wrote(t, printf("(micdb) %s\n", cmd) >= 0);
		t->at_bol = 1;
		rc = session_execute(s, cmd, &out, &cause);
		newline_if_needed(t);
		put(t, out.data, out.len);
		out.len = 0;
		if (rc == 0 && session_running(s)) {
			rc = session_wait(s, &out, &cause);
			newline_if_needed(t);
			put(t, out.data, out.len);
		}
		buf_free(&out);
		if (rc == -1) {
			newline_if_needed(t);
			errno = 0;
			wrote(t, printf("%s:%u: %s\n", path, line,
			    cause) >= 0);
			t->at_bol = 1;
			failed = 1;
		}
		free(cause);
		if (rc == SESSION_QUIT)
			break;
	}
	return failed;
}

int
batch_main(int argc, char **argv)
{
	struct micdb_opts o;
	struct loaded l;
	struct session_frontend fe;
	struct session *s = NULL;
	struct transcript t;
	uint8_t *script = NULL;
	size_t script_len;
	char *cause = NULL, *text;
	int rc;

	memset(&l, 0, sizeof l);
	memset(&t, 0, sizeof t);
	if ((rc = opts_start(&o, argc, argv, batch_usage, &cause)) == 1)
		return 0;
	if (rc == 0 && o.batch_path == NULL)
		cause = xasprintf("no script: give --batch FILE or -x FILE");
	/* the options before the script, the script before the programs */
	if (cause != NULL || session_open_check(&o, &cause) != 0 ||
	    read_file(o.batch_path, &script, &script_len, &cause) != 0)
		goto usage;
	/* an empty line of a script repeats nothing (repeat 0) */
	fe = (struct session_frontend){ .output = on_output, .output_arg = &t };
	/* no output comes before the first command: t is set up after */
	if (session_open(&s, &l, &o, &fe, &cause) != 0)
		goto usage;
	t.raw = opts_output_raw(&o, l.ncores);
	t.at_bol = 1;
	if (!t.raw)
		core_lines_init(&t.lines, l.ncores);
	batch_interrupt = session_interrupt_flag(s);
	signal(SIGINT, on_sigint);

	text = xmalloc(script_len + 1);
	memcpy(text, script, script_len);
	text[script_len] = '\0';
	rc = run_script(s, &t, o.batch_path, text) ? 1 : 0;
	free(text);
	flush_pending(&t);
	errno = 0;
	wrote(&t, fflush(stdout) == 0 && !ferror(stdout));
	if (t.werr != 0) {
		fprintf(stderr, "micdb: cannot write the transcript: %s "
		    "(it is incomplete: run the script again with standard "
		    "output where it can be written)\n", strerror(t.werr));
		rc = 2;
	}

	signal(SIGINT, SIG_DFL);
	batch_interrupt = NULL;
	if (session_end_trace(s, &cause) != 0) {
		fprintf(stderr, "micdb: %s\n", cause);
		free(cause);
		rc = 2;
	}
	session_free(s);
	core_lines_free(&t.lines);
	loaded_free(&l);
	free(script);
	opts_free(&o);
	return rc;
usage:
	fprintf(stderr, "micdb: %s\n", cause);
	free(cause);
	free(script);
	opts_free(&o);
	return 2;
}
