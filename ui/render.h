/*
 * The TUI's off-screen render (render.c): the whole screen of a machine
 * drawn by the TUI's own panes on a curses screen of its own, at a fixed
 * 200x60 size, with no terminal output.  `micdb bench` times it as
 * render_ms (doc/bench.md); the UI declares it, and bench, a command above
 * the UI, takes it as a hook of this type.
 */
#ifndef MICDB_RENDER_H
#define MICDB_RENDER_H

struct engine;
struct tui_render;

/*
 * A render hook: draw one screen of e->m off-screen, exactly what the TUI
 * does after a step (layout, every pane, no terminal output), and return
 * 0, or -1 with *cause.  arg is the hook's state (a struct tui_render).
 */
typedef int (*tui_render_fn)(void *arg, struct engine *e, char **cause);

struct tui_render *tui_render_new(void);
void	 tui_render_free(struct tui_render *r);
/* The hook itself: arg is a tui_render_new() state. */
int	 tui_render_hook(void *arg, struct engine *e, char **cause);

#endif
