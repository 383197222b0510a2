/*
 * Fuzz target: --batch scripts, through batch_main as `micdb --batch
 * FILE --engine ref --max-steps N PROGRAM` runs them.  Properties: the
 * exit status is 0 or 1 (a script never makes a usage error), and when
 * it is 1 the transcript names the script's failing line
 * ("fuzz.cmd:LINE: message").  The transcript goes to a file, not to
 * the fuzzer's output.
 */
#include <fcntl.h>
#include <unistd.h>

#include "batch.h"
#include "fuzz.h"

static char script[64], transcript[64], program[4096];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *top = getenv("top_srcdir");

	(void)argc;
	(void)argv;
	snprintf(script, sizeof script, "/tmp/micdb-fuzz-%ld.cmd",
	    (long)getpid());
	snprintf(transcript, sizeof transcript, "/tmp/micdb-fuzz-%ld.out",
	    (long)getpid());
	snprintf(program, sizeof program, "%s/programs/collatz.jas",
	    top ? top : MICDB_SRCDIR);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[] = { "micdb", "--batch", script, "--engine", "ref",
	    "--cores", "4", "--max-steps", "20000", program, NULL };
	int fd, saved, rc;
	char *out;
	off_t len;

	if (size > 4096 || memchr(data, '\0', size) != NULL)
		return 0;
	fd = open(script, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || close(fd))
		fuzz_fail("cannot write %s", script);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(transcript, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (saved < 0 || fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		fuzz_fail("cannot redirect the transcript");
	rc = batch_main((int)(sizeof argv / sizeof *argv) - 1, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	fuzz_check(rc == 0 || rc == 1, "exit status %d", rc);
	len = lseek(fd, 0, SEEK_END);
	out = calloc(1, (size_t)len + 1);
	if (out == NULL || pread(fd, out, (size_t)len, 0) != len)
		fuzz_fail("cannot read the transcript back");
	close(fd);
	if (rc == 1)
		fuzz_check(strstr(out, script) != NULL,
		    "failed without naming a line of the script");
	free(out);
	return 0;
}
