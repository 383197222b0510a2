/*
 * ocl-run: a small driver of an engine (ref or opencl) for the shell
 * tests, standing in for `micdb run` until that drives engines itself.
 * Runs one program on every core to completion and writes each core's
 * output in core order.  Errors are one line on stderr and exit 2, as
 * micdb's command line does; 1 when a core faulted, 3 when stopped.
 *
 *   ocl-run [--engine ref|opencl] [--device SEL] [--cores N]
 *           [--stack-words N] [--heap-words N] [--max-steps N]
 *           [--input FILE] PROGRAM
 *   ocl-run devices
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "devices.h"
#include "engine-ocl.h"
#include "engine.h"
#include "machine.h"
#include "ocl.h"
#include "program.h"

static int
fail(const char *msg)
{
	fprintf(stderr, "ocl-run: %s\n", msg);
	return 2;
}

int
main(int argc, char **argv)
{
	struct machine_config cfg = { 1, MM_DEFAULT_STACK_WORDS,
	    MM_DEFAULT_HEAP_WORDS, 32 };
	const char *engine = "opencl", *device = NULL, *path = NULL;
	const char *input = NULL;
	unsigned long long max_steps = 0;
	struct program prog;
	const struct program *progs[1];
	struct machine m;
	struct engine e;
	struct engine_run r;
	struct engine_stop st;
	char *cause = NULL;
	int rc, faulted = 0;

	if (argc > 1 && strcmp(argv[1], "devices") == 0)
		return devices_main(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (a[0] != '-') {
			path = a;
			continue;
		}
		if (v == NULL)
			return fail("option needs a value");
		i++;
		if (strcmp(a, "--engine") == 0)
			engine = v;
		else if (strcmp(a, "--device") == 0)
			device = v;
		else if (strcmp(a, "--cores") == 0)
			cfg.ncores = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--stack-words") == 0)
			cfg.stack_words = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--heap-words") == 0)
			cfg.heap_words = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--max-steps") == 0)
			max_steps = strtoull(v, NULL, 0);
		else if (strcmp(a, "--input") == 0)
			input = v;
		else
			return fail("unknown option");
	}
	if (path == NULL)
		return fail("no program");
	if (program_load_file(&prog, path, &cause) != 0)
		return fail(cause);
	progs[0] = &prog;
	if (machine_init(&m, &cfg, progs, 1, NULL, &cause) != 0)
		return fail(cause);
	if (strcmp(engine, "ref") == 0)
		rc = engine_ref_create(&e, &m, &cause);
	else
		rc = engine_ocl_create(&e, &m, device, &cause);
	if (rc != 0) {
		rc = fail(cause);
		free(cause);
		machine_free(&m);
		program_free(&prog);
		return rc;
	}
	if (input != NULL) {
		uint8_t *data;
		size_t len;

		if (read_file(input, &data, &len, &cause) != 0)
			return fail(cause);
		e.ops->add_input(&e, 0, data, len);
		free(data);
	}
	memset(&r, 0, sizeof r);
	r.max_steps = max_steps ? max_steps : UINT64_MAX;
	r.stop_on_fault = 0;
	if (e.ops->run(&e, &r, &st, &cause) != 0) {
		rc = fail(cause);
		free(cause);
	} else {
		for (uint32_t c = 0; c < m.cfg.ncores; c++) {
			fwrite(m.io[c].out.data, 1, m.io[c].out.len, stdout);
			if (m.cores[c].status == CORE_ERROR)
				faulted = 1;
		}
		rc = st.reason == STOP_DONE ? faulted : 3;
	}
	engine_free(&e);
	machine_free(&m);
	program_free(&prog);
	return rc;
}
