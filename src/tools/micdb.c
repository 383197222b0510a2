/*
 * micdb: the command dispatcher (doc/debugger.md section 1).  `micdb run`
 * executes a program to completion, `micdb --batch FILE PROGRAM` runs
 * debugger commands from a file, `micdb PROGRAM` opens the screen, `micdb
 * --dap` speaks the Debug Adapter Protocol to an editor, `micdb bench`
 * measures, `micdb devices` lists OpenCL devices.
 */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "dap.h"
#include "bench.h"
#include "devices.h"
#include "render.h"
#include "run.h"
#include "tui.h"

/* Is this a debugger invocation in batch mode (--batch/-x anywhere among
 * the options, which may come before it)? */
static int
is_batch(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "-x") == 0 ||
		    strcmp(argv[i], "--batch") == 0 ||
		    strncmp(argv[i], "--batch=", 8) == 0 ||
		    (strncmp(argv[i], "-x", 2) == 0 && argv[i][2] != '\0'))
			return 1;
	}
	return 0;
}

static const char usage[] =
"usage: micdb [options] PROGRAM      interactive debugger (its options and\n"
"                                    keys: micdb PROGRAM --help)\n"
"       micdb --batch FILE [options] PROGRAM\n"
"                                    debugger commands from FILE, transcript\n"
"                                    on stdout (see micdb --batch x --help)\n"
"       micdb --dap                  Debug Adapter Protocol on stdin/stdout\n"
"                                    (for editors; see micdb(1))\n"
"       micdb run [options] PROGRAM  run to completion (see micdb run --help)\n"
"       micdb bench [options]        measurements\n"
"       micdb bench debugger [options] [PROGRAM]\n"
"                                    the debugger's own figures\n"
"       micdb devices                list OpenCL devices\n"
"       micdb --version | --help\n";

static int
tool_main(int argc, char **argv)
{
	int rc;

	if (argc < 2) {
		fprintf(stderr, "%s", usage);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--dap") == 0)
		return dap_main(argc, argv);
	if (strcmp(argv[1], "run") == 0)
		return run_main(argc - 1, argv + 1);
	if (is_batch(argc, argv))
		return batch_main(argc, argv);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("micdb %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "devices") == 0)
		return devices_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "bench") == 0) {
		/* render_ms: bench times the TUI's own drawing, off-screen */
		struct tui_render *r = tui_render_new();
		struct bench_hooks hooks = { tui_render_hook, r,
		    tui_render_session_hook };
		rc = bench_run(argc - 1, argv + 1, &hooks);
		tui_render_free(r);
		return rc;
	}
	if ((rc = tui_main(argc, argv)) == TUI_BATCH)
		return batch_main(argc, argv);
	return rc;
}

int
main(int argc, char **argv)
{
	return stdout_done("micdb", tool_main(argc, argv));
}
