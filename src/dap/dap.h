/*
 * micdb --dap: the debugger as a Debug Adapter Protocol server on
 * standard input and output (man micdb, DEBUG ADAPTER), for editors
 * (editors/vscode/, nvim-dap, dape).
 */
#ifndef MICDB_DAP_H
#define MICDB_DAP_H

/* argv as micdb got it; returns the exit status: 0, 1 when the input
 * ended inside a message, 2 for bad usage. */
int	dap_main(int argc, char **argv);

#endif
