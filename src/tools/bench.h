/*
 * `micdb bench` (doc/bench.md): the one place where micdb measures its
 * own performance.  bench_main is the command; bench_run is the same with
 * hooks for figures that need parts of micdb bench.c does not link by
 * itself (the TUI's off-screen rendering).
 */
#ifndef MICDB_BENCH_H
#define MICDB_BENCH_H

#include "render.h"

/*
 * Hooks a front end may give.  render: the UI's off-screen render
 * (ui/render.h: tui_render_hook, one screen of e->m).  With a render
 * hook, bench measures render_ms = one step (K = 1 launch + context
 * read-back) plus one render, median of many, as doc/bench.md asks; without
 * one the render_ms column stays empty.  bench never times anything it
 * cannot run for real.
 */
struct bench_hooks {
	tui_render_fn	 render;
	void		*arg;
	/* bench debugger: the TUI's render of a session's screen (the
	 * same arg); NULL: its render figures stay empty */
	tui_render_session_fn render_session;
};

/* argv[0] is "bench" (argv[1] "debugger": the debugger set,
 * bench-debugger.c).  Exit status: 0 measured, 1 a workload failed its
 * own check, 2 bad usage, no OpenCL device or the device failed. */
int	bench_main(int argc, char **argv);
int	bench_run(int argc, char **argv, const struct bench_hooks *hooks);

#endif
