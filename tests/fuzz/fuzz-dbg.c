/*
 * Fuzz target: the debugger's command language, with its expressions
 * and core sets, driving a real session (session_create over a small
 * program of four cores on the reference engine).  The first byte picks
 * the level the session starts at (ISA, Mic-1, PMIC); the rest is
 * command lines, each run by session_execute and, when it starts a run,
 * polled with a step budget and then interrupted.  Properties: a failed
 * command says why in one line, an interrupt stops the run, and the
 * session survives every line (ASan/UBSan watch the rest).
 *
 * `trace start FILE ...` (cmd-trace.c) would write wherever the input
 * says: its FILE is always /dev/null, which is written in place, so the
 * trace's formats, core sets and recording are fuzzed and no file is
 * made.
 */
#include "asm.h"
#include "session.h"
#include "fuzz.h"

static const char prog_src[] =
".constant\n"
"  limit 40\n"
".end-constant\n"
".main\n"
".var\n"
"  i\n"
"  total\n"
".end-var\n"
"  BIPUSH 0\n"
"  ISTORE i\n"
"loop:\n"
"  ILOAD i\n"
"  LDC_W limit\n"
"  IF_ICMPEQ done\n"
"  ILOAD i\n"
"  INVOKEVIRTUAL twice\n"
"  ILOAD total\n"
"  IADD\n"
"  ISTORE total\n"
"  BIPUSH 65\n"
"  OUT\n"
"  IINC i 1\n"
"  GOTO loop\n"
"done:\n"
"  ILOAD total\n"
"  HALT\n"
".end-main\n"
".method twice(n)\n"
"  ILOAD n\n"
"  DUP\n"
"  IADD\n"
"  IRETURN\n"
".end-method\n";

static struct program prog;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct asm_errors errs = { 0 };

	(void)argc;
	(void)argv;
	if (asm_assemble("fuzz-dbg.jas", prog_src, sizeof prog_src - 1, NULL,
	    &prog, &errs) != 0) {
		fprintf(stderr, "fuzz-dbg: %s\n", errs.msg[0]);
		abort();
	}
	return 0;
}

static void
check_message(const char *line, const char *cause)
{
	fuzz_check(cause != NULL && cause[0] != '\0',
	    "'%s' failed without a message", line);
	fuzz_check(strchr(cause, '\n') == NULL,
	    "'%s' failed with a message of several lines: %s", line, cause);
}

/* line, with the FILE of a trace command (any unique prefix of "trace",
 * then any word, then FILE) replaced by /dev/null; malloc'd. */
static char *
safe_trace(const char *line)
{
	const char *p = line, *w;
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	for (w = p; *p != '\0' && *p != ' ' && *p != '\t'; p++)
		;
	n = (size_t)(p - w);
	if (n < 2 || n > 5 || strncmp(w, "trace", n) != 0)
		return xstrdup(line);
	for (int k = 0; k < 2; k++) {	/* the subcommand, then FILE */
		while (*p == ' ' || *p == '\t')
			p++;
		w = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
	}
	if (w == p)
		return xstrdup(line);	/* no FILE: nothing is written */
	return xasprintf("%.*s/dev/null%s", (int)(w - line), line, p);
}

/* Let a run go on for a budget of steps, then interrupt it. */
static void
finish_run(struct session *s, const char *line, struct buf *out)
{
	char *cause = NULL;
	int rc = 1;

	for (int i = 0; i < 20 && rc == 1; i++)
		rc = session_poll(s, 500, out, &cause);
	if (rc == 1) {
		*session_interrupt_flag(s) = 1;
		rc = session_poll(s, 500, out, &cause);
		fuzz_check(rc != 1, "'%s': the run ignores its interrupt",
		    line);
	}
	if (rc == -1) {
		check_message(line, cause);
		free(cause);
	}
	fuzz_check(!session_running(s), "'%s': still running", line);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct program *progs[1] = { &prog };
	struct session_config cfg;
	struct session *s;
	struct buf out = { 0 };
	char *text, *p, *cause = NULL;
	int nlines = 0;

	if (size == 0 || size > 4096)
		return 0;
	memset(&cfg, 0, sizeof cfg);
	cfg.machine.ncores = 4;
	cfg.machine.stack_words = 256;
	cfg.machine.heap_words = 256;
	cfg.machine.warp_width = 2;
	cfg.progs = progs;
	cfg.nprogs = 1;
	cfg.engine = ENGINE_REF;
	cfg.level = (enum level)(data[0] % NLEVEL);
	cfg.input = (const uint8_t *)"7\n";
	cfg.input_len = 2;
	cfg.max_steps = 100000;
	if (session_create(&s, &cfg, &cause) != 0)
		fuzz_fail("session_create: %s", cause);
	text = fuzz_cstring(data + 1, size - 1);
	for (p = text; *p != '\0' && nlines < 64; nlines++) {
		char *line, *eol = strchr(p, '\n');
		int rc;

		if (eol != NULL)
			*eol = '\0';
		line = safe_trace(p);
		p = eol ? eol + 1 : p + strlen(p);
		out.len = 0;
		rc = session_execute(s, line, &out, &cause);
		if (rc == SESSION_QUIT) {
			free(line);
			break;
		}
		if (rc == -1) {
			check_message(line, cause);
			free(cause);
			cause = NULL;
		} else
			fuzz_check(rc == 0, "'%s' returned %d", line, rc);
		if (session_running(s))
			finish_run(s, line, &out);
		(void)session_prompt(s);
		free(line);
	}
	buf_free(&out);
	free(text);
	session_free(s);
	return 0;
}
