/* `micdb run`: batch execution to completion (doc/debugger.md section 1). */
#ifndef MICDB_RUN_H
#define MICDB_RUN_H

/* Exit codes of micdb run, as the spec fixes them. */
#define EXIT_ALL_HALTED  0
#define EXIT_FAULTED     1
#define EXIT_USAGE       2
#define EXIT_STOPPED     3   /* step limit, deadlock or interrupt */

int	run_main(int argc, char **argv);

#endif
