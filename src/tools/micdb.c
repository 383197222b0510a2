/*
 * micdb: the command dispatcher (debugger.md section 1).  `micdb run`
 * executes a program to completion; the interactive debugger, `micdb
 * bench` and `micdb devices` belong to the OpenCL engine and TUI work and
 * say so until they exist.
 */
#include <stdio.h>
#include <string.h>

#include "run.h"

static const char usage[] =
"usage: micdb [options] PROGRAM      interactive debugger\n"
"       micdb run [options] PROGRAM  run to completion (see micdb run --help)\n"
"       micdb bench [options]        measurements\n"
"       micdb devices                list OpenCL devices\n"
"       micdb --version | --help\n";

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "%s", usage);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "run") == 0)
		return run_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("micdb %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (strcmp(argv[1], "bench") == 0 || strcmp(argv[1], "devices") == 0) {
		fprintf(stderr, "micdb %s: needs the OpenCL engine, which is not "
		    "part of this build yet\n", argv[1]);
		return EXIT_USAGE;
	}
	fprintf(stderr, "micdb: the interactive debugger is not part of this "
	    "build yet; run the program with: micdb run %s\n",
	    argv[argc - 1]);
	return EXIT_USAGE;
}
