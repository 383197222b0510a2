/*
 * The TUI's off-screen render (render.c): the whole screen of a machine
 * drawn by the TUI's own panes on a curses screen of its own, at a fixed
 * 200x60 size, with no terminal output.  `micdb bench` times it as
 * render_ms (doc/bench.md); the UI declares it, and bench, a command above
 * the UI, takes it as a hook of these types: one draws a bare engine's
 * machine (the workloads), the other a debugger session (bench debugger).
 */
#ifndef MICDB_RENDER_H
#define MICDB_RENDER_H

struct engine;
struct session;
struct tui_render;

/*
 * A render hook: draw one screen of e->m off-screen, exactly what the TUI
 * does after a step (layout, every pane, no terminal output), and return
 * 0, or -1 with *cause.  arg is the hook's state (a struct tui_render).
 */
typedef int (*tui_render_fn)(void *arg, struct engine *e, char **cause);
/*
 * A session render hook: what the TUI does after a stop of session s
 * (the breakpoints and the focused core's frames read from the session,
 * then every pane drawn), off-screen.  0, or -1 with *cause.
 */
typedef int (*tui_render_session_fn)(void *arg, struct session *s,
    char **cause);

struct tui_render *tui_render_new(void);
void	 tui_render_free(struct tui_render *r);
/* The hook itself: arg is a tui_render_new() state. */
int	 tui_render_hook(void *arg, struct engine *e, char **cause);
/* The session hook: arg is a tui_render_new() state too. */
int	 tui_render_session_hook(void *arg, struct session *s, char **cause);

#endif
