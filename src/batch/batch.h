/*
 * micdb --batch FILE / -x FILE: the debugger driven by a script, without
 * a screen (doc/debugger.md sections 1 and 4).  The test suite's interface
 * to the debugger.
 */
#ifndef MICDB_BATCH_H
#define MICDB_BATCH_H

/* argv as micdb got it (argv[0] is the program name); returns the exit
 * status: 0, 1 if a command failed, 2 for bad usage or input. */
int	batch_main(int argc, char **argv);

#endif
