/*
 * Fuzz target: Debug Adapter Protocol messages, through dap_main as
 * `micdb --dap` runs them (src/dap), on a real session.  The input is
 * one JSON message a line; each is framed with its Content-Length header
 * (the framing itself is test-dap-msg's) and the whole stream is the
 * adapter's standard input, its answers go to a file.
 *
 * "$PROG" in a line stands for the program, the project's tests/dap/sum.jas
 * (source paths of breakpoints name it so).  A launch is made safe
 * before it is sent: its program is sum.jas whatever the input names, at
 * most 16 cores on the reference engine, small memories and a step
 * limit; a launch that names other files (microcode, input) is kept as
 * it is only when the names hold no '/', so that the fuzzer reads
 * nothing outside its directory.  Everything else goes in unchanged,
 * bad JSON included.  The adapter reads the whole input at once, so the
 * requests after one that starts a run find the machine running (and
 * must be refused with a message); the seeds inspect the machine while
 * it is stopped on entry, before they run it.
 *
 * Properties: the answers are well framed (they read back through
 * dap_reader with no error); every response has a boolean success, and
 * a failed one a message that says why (a non-empty string, one line);
 * no more responses than requests.  Standard error (the adapter's notes)
 * goes to /dev/null unless MICDB_FUZZ_STDERR is set.
 */
#include <fcntl.h>
#include <unistd.h>

#include "dap-msg.h"
#include "dap.h"
#include "fuzz.h"

static char in_path[64], out_path[64], program[4096];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *top = getenv("top_srcdir");

	(void)argc;
	(void)argv;
	snprintf(in_path, sizeof in_path, "/tmp/micdb-fuzz-dap-%ld.in",
	    (long)getpid());
	snprintf(out_path, sizeof out_path, "/tmp/micdb-fuzz-dap-%ld.out",
	    (long)getpid());
	snprintf(program, sizeof program, "%s/tests/dap/sum.jas",
	    top ? top : MICDB_SRCDIR);
	return 0;
}

/* A number-or-string attribute clamped to max (strings: left to the
 * option parser, which refuses what is not a number). */
static void
clamp(json_object *args, const char *attr, int64_t max)
{
	json_object *v;

	if (!json_object_object_get_ex(args, attr, &v))
		return;
	if (json_object_is_type(v, json_type_int) &&
	    (json_object_get_int64(v) > max || json_object_get_int64(v) < 0))
		json_object_object_add(args, attr, json_object_new_int64(max));
	else if (json_object_is_type(v, json_type_string) &&
	    strlen(json_object_get_string(v)) > 4)
		json_object_object_add(args, attr, json_object_new_int64(max));
}

/* A file name attribute with a '/' in it: dropped. */
static void
local_only(json_object *args, const char *attr)
{
	json_object *v;

	if (json_object_object_get_ex(args, attr, &v) &&
	    (!json_object_is_type(v, json_type_string) ||
	    strchr(json_object_get_string(v), '/') != NULL))
		json_object_object_del(args, attr);
}

/* The launch request msg made safe (see the top of the file). */
static void
safe_launch(json_object *msg)
{
	json_object *args, *progs;

	if (!json_object_object_get_ex(msg, "arguments", &args) ||
	    !json_object_is_type(args, json_type_object))
		return;
	json_object_object_add(args, "program",
	    json_object_new_string(program));
	json_object_object_add(args, "engine", json_object_new_string("ref"));
	json_object_object_del(args, "device");
	/* "programs" ranges: each entry's program is sum.jas too */
	if (json_object_object_get_ex(args, "programs", &progs) &&
	    json_object_is_type(progs, json_type_array))
		for (size_t i = 0; i < json_object_array_length(progs); i++) {
			json_object *e = json_object_array_get_idx(progs, i);

			if (json_object_is_type(e, json_type_object))
				json_object_object_add(e, "program",
				    json_object_new_string(program));
		}
	clamp(args, "cores", 16);
	clamp(args, "stackWords", 4096);
	clamp(args, "heapWords", 65536);
	clamp(args, "maxSteps", 200000);
	if (!json_object_object_get_ex(args, "maxSteps", NULL))
		json_object_object_add(args, "maxSteps",
		    json_object_new_int(200000));
	local_only(args, "microcode");
	local_only(args, "input");
}

/* One input line, framed, onto f. */
static void
frame(FILE *f, const char *line, size_t len)
{
	json_object *msg = NULL;
	const char *cmd = NULL;
	char *text = fuzz_cstring((const uint8_t *)line, len), *at;
	json_object *v;

	while ((at = strstr(text, "$PROG")) != NULL) {
		char *t = xasprintf("%.*s%s%s", (int)(at - text), text,
		    program, at + 5);

		free(text);
		text = t;
	}

	if (strstr(text, "launch") != NULL &&
	    (msg = json_tokener_parse(text)) != NULL &&
	    json_object_is_type(msg, json_type_object) &&
	    json_object_object_get_ex(msg, "command", &v) &&
	    (cmd = json_object_get_string(v)) != NULL &&
	    strcmp(cmd, "launch") == 0) {
		safe_launch(msg);
		free(text);
		text = xstrdup(json_object_to_json_string_ext(msg,
		    JSON_C_TO_STRING_PLAIN));
	}
	json_object_put(msg);
	fprintf(f, "Content-Length: %zu\r\n\r\n%s", strlen(text), text);
	free(text);
}

/* The adapter's answers in out: the properties of the top of the file. */
static void
check_answers(const uint8_t *out, size_t len, size_t nrequests)
{
	struct dap_reader r;
	json_object *msg;
	char *cause = NULL;
	size_t nresp = 0;
	int rc;

	dap_reader_init(&r);
	dap_reader_feed(&r, out, len);
	while ((rc = dap_reader_next(&r, &msg, &cause)) != 0) {
		json_object *type, *success, *message;
		const char *m;

		fuzz_check(rc == 1, "the adapter wrote a bad message: %s",
		    cause);
		if (json_object_object_get_ex(msg, "type", &type) &&
		    strcmp(json_object_get_string(type), "response") == 0) {
			nresp++;
			fuzz_check(json_object_object_get_ex(msg, "success",
			    &success) && json_object_is_type(success,
			    json_type_boolean), "a response without success: "
			    "%s", json_object_to_json_string(msg));
			if (!json_object_get_boolean(success)) {
				fuzz_check(json_object_object_get_ex(msg,
				    "message", &message) &&
				    json_object_is_type(message,
				    json_type_string),
				    "a failed response without a message: %s",
				    json_object_to_json_string(msg));
				m = json_object_get_string(message);
				fuzz_check(*m != '\0' && strchr(m, '\n') ==
				    NULL, "a failed response's message is empty "
				    "or not one line: %s",
				    json_object_to_json_string(msg));
			}
		}
		json_object_put(msg);
	}
	fuzz_check(dap_reader_eof(&r, &cause) == 0,
	    "the adapter's output ends inside a message: %s", cause);
	dap_reader_free(&r);
	fuzz_check(nresp <= nrequests, "%zu responses to %zu messages", nresp,
	    nrequests);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[] = { "micdb", "--dap", NULL };
	int in, out, saved_in, saved_out, saved_err = -1, null;
	size_t nmsgs = 0;
	const uint8_t *p = data, *end = data + size, *nl;
	uint8_t *ans;
	off_t len;
	FILE *f;

	if (size > 8192 || memchr(data, '\0', size) != NULL)
		return 0;
	if ((f = fopen(in_path, "w")) == NULL)
		fuzz_fail("cannot write %s", in_path);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (nl > p) {
			frame(f, (const char *)p, (size_t)(nl - p));
			nmsgs++;
		}
		p = nl + 1;
	}
	if (fclose(f) != 0)
		fuzz_fail("cannot write %s", in_path);

	fflush(stdout);
	fflush(stderr);
	saved_in = dup(STDIN_FILENO);
	saved_out = dup(STDOUT_FILENO);
	in = open(in_path, O_RDONLY);
	out = open(out_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (saved_in < 0 || saved_out < 0 || in < 0 || out < 0 ||
	    dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
		fuzz_fail("cannot redirect the adapter's input and output");
	if (getenv("MICDB_FUZZ_STDERR") == NULL &&
	    (null = open("/dev/null", O_WRONLY)) >= 0) {
		saved_err = dup(STDERR_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	/* 1 (the input ended inside a message) cannot happen: every
	 * message is whole */
	fuzz_check(dap_main(2, argv) == 0, "dap_main failed");
	fflush(stdout);
	dup2(saved_in, STDIN_FILENO);
	dup2(saved_out, STDOUT_FILENO);
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	close(saved_in);
	close(saved_out);
	close(in);

	len = lseek(out, 0, SEEK_END);
	ans = malloc((size_t)len + 1);
	if (ans == NULL || pread(out, ans, (size_t)len, 0) != len)
		fuzz_fail("cannot read the answers back");
	close(out);
	check_answers(ans, (size_t)len, nmsgs);
	free(ans);
	return 0;
}
