/*
 * What every libFuzzer target of tests/fuzz shares.  A target checks
 * properties, not only survival: a broken one calls fuzz_fail(), which
 * prints the property and aborts, so that libFuzzer keeps the input as a
 * crash.  Each target is one LLVMFuzzerTestOneInput over the code that
 * reads a kind of user file (see tests/fuzz/README.md); run.sh runs them.
 */
#ifndef MICDB_FUZZ_H
#define MICDB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int	LLVMFuzzerInitialize(int *argc, char ***argv);

#define fuzz_fail(...) do {						\
	fprintf(stderr, "fuzz property failed at %s:%d: ", __FILE__,	\
	    __LINE__);							\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

#define fuzz_check(cond, ...) do {					\
	if (!(cond))							\
		fuzz_fail(__VA_ARGS__);					\
} while (0)

/*
 * A rejection's message: present, one line per message, naming the file
 * first ("fuzz.jas:3:1: ..." or "fuzz.ijvm: ...").
 */
static inline void
fuzz_check_cause(const char *cause, const char *path)
{
	size_t n = strlen(path);

	fuzz_check(cause != NULL && cause[0] != '\0', "rejected silently");
	fuzz_check(strncmp(cause, path, n) == 0 && cause[n] == ':',
	    "message does not name %s: %s", path, cause);
	fuzz_check(cause[strlen(cause) - 1] != '\n',
	    "message ends with a newline: %s", cause);
}

/* Inputs as NUL-free C strings, for the text languages whose readers
 * take a C string. */
static inline char *
fuzz_cstring(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
