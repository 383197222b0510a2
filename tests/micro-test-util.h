/*
 * What the unit tests of the two micro-level golden models (test-mic1,
 * test-pmic) share: the one-program machine their fragments run on, and
 * how a fragment that does not assemble is reported.  Header-only, like
 * tap.h, so that each test stays one source file.
 */
#ifndef MICDB_MICRO_TEST_UTIL_H
#define MICDB_MICRO_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"
#include "mal.h"
#include "program.h"
#include "tap.h"

/* A machine m of ncores, each running text (n bytes) with a constant
 * pool of 100, 200, 300 and 4 locals in main; prog and progs[0] are the
 * program.  0, or -1 after a diagnostic, with nothing left to free. */
static inline int
micro_test_machine(struct program *prog, const struct program **progs,
    struct machine *m, const uint8_t *text, size_t n, uint32_t ncores)
{
	static const int32_t cp[] = { 100, 200, 300 };
	struct machine_config cfg = { ncores, 64, 256, 32 };
	char *cause = NULL;

	prog->path = xstrdup("test");
	prog->text = xmalloc(n);
	memcpy(prog->text, text, n);
	prog->text_size = (uint32_t)n;
	prog->cp = xmalloc(sizeof cp);
	memcpy(prog->cp, cp, sizeof cp);
	prog->cp_size = 3;
	prog->main_nlocals = 4;
	progs[0] = prog;
	if (machine_init(m, &cfg, progs, 1, NULL, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		return -1;
	}
	return 0;
}

/* A fragment did not assemble: say why, free errs and the machine. */
static inline void
micro_test_reject(struct mal_errors *errs, struct program *prog,
    struct machine *m)
{
	for (size_t i = 0; i < errs->count; i++)
		tap_diag("%s", errs->msg[i]);
	mal_errors_free(errs);
	machine_free(m);
	program_free(prog);
}

#endif
