/*
 * The off-screen render that `micdb bench` times (doc/bench.md: render_ms,
 * doc/debugger.md: "at 65,536 cores a step redraws the screen within 50
 * ms"), declared in render.h.
 *
 * The panes read the machine and the focused core through tui_machine()
 * and tui_focus() (access.c), never the session directly, so that the
 * same drawing code runs here without a session: bench has only an
 * engine over a machine.  The off-screen render is the real thing, not a model of it: ncurses on
 * a screen of its own (newterm) whose output goes to /dev/null, a fixed
 * size, the default layout, every pane drawn and doupdate() computing
 * and writing the difference, as after every step in the TUI.  With an
 * engine only (the workloads), what needs a session (breakpoint list,
 * frames) is absent; with a session (`micdb bench debugger`), the
 * render reads them as the TUI does after a stop (access_stopped).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "access.h"
#include "dsym.h"
#include "engine.h"
#include "layout.h"
#include "lines.h"
#include "names.h"
#include "pane.h"
#include "render.h"
#include "session.h"
#include "tui.h"

/* --- the off-screen render ------------------------------------------------- */

/* A large terminal: what a teacher shows on a projector. */
#define RENDER_ROWS 60
#define RENDER_COLS 200

struct tui_render {
	struct tui	 t;
	SCREEN		*scr;
	FILE		*out, *in;
	const struct machine *m;    /* the machine t's caches were made for */
	struct session	*s;         /* ... and its session, NULL: none */
	uint64_t	 step;      /* its step count at the last render */
};

struct tui_render *
tui_render_new(void)
{
	return xcalloc(1, sizeof(struct tui_render));
}

/* Drop what was built for the last machine. */
static void
render_forget(struct tui_render *r)
{
	struct tui *t = &r->t;

	for (size_t i = 0; i < t->nprogs; i++) {
		dsym_free(&t->dsyms[i]);
		listing_free(&t->listings[i]);
	}
	free(t->dsyms);
	free(t->listings);
	free(t->out.core);
	t->dsyms = NULL;
	t->listings = NULL;
	t->out.core = NULL;
	t->nprogs = 0;
	tui_census_free(t);
	t->s = NULL;
	t->m = NULL;
	r->m = NULL;
	r->s = NULL;
}

void
tui_render_free(struct tui_render *r)
{
	if (r == NULL)
		return;
	if (r->scr != NULL) {
		draw_free_windows(&r->t);
		endwin();
		delscreen(r->scr);
	}
	render_forget(r);
	lines_free(&r->t.log);
	lines_free(&r->t.frames);      /* the session render's */
	free(r->t.title);
	access_bps_free(&r->t.bps);
	if (r->out != NULL)
		fclose(r->out);
	if (r->in != NULL)
		fclose(r->in);
	free(r);
}

static int
render_open(struct tui_render *r, char **cause)
{
	static const char *const terms[] = { "xterm-256color", "xterm",
	    "vt100", "ansi" };
	const char *env = getenv("TERM");

	if ((r->out = fopen("/dev/null", "w")) == NULL ||
	    (r->in = fopen("/dev/null", "r")) == NULL) {
		*cause = xasprintf("render: cannot open /dev/null: %s",
		    strerror(errno));
		return -1;
	}
	if (env != NULL && *env != '\0')
		r->scr = newterm(env, r->out, r->in);
	for (size_t i = 0; r->scr == NULL && i < sizeof terms / sizeof *terms;
	    i++)
		r->scr = newterm(terms[i], r->out, r->in);
	if (r->scr == NULL) {
		*cause = xasprintf("render: no terminal description (terminfo) "
		    "for TERM, xterm or vt100: install ncurses-base");
		return -1;
	}
	set_term(r->scr);
	resize_term(RENDER_ROWS, RENDER_COLS);
	r->t.rows = RENDER_ROWS;
	r->t.cols = RENDER_COLS;
	r->t.layout = LAYOUT_DEFAULT;
	r->t.focus = PANE_CODE;
	r->t.code.follow = 1;
	r->t.log.max = 64;
	r->t.title = xstrdup("bench");
	draw_setup_colours(&r->t);
	lines_addf(&r->t.log, "micdb bench: off-screen render");
	return 0;
}

/* The caches the panes keep per machine (listings, names, output): of
 * the session s, or without one of the engine e's machine. */
static void
render_adopt(struct tui_render *r, struct session *s, struct engine *e)
{
	struct tui *t = &r->t;
	const struct machine *m = s != NULL ? session_machine(s) : e->m;

	render_forget(r);
	r->m = m;
	r->s = s;
	r->step = 0;
	t->s = s;
	t->m = s != NULL ? NULL : m;
	t->engine = e;
	t->engine_name = e != NULL ? e->ops->name : "?";
	t->engine_warps = e != NULL && e->ops->warps != NULL;
	t->progs = m->progs;
	t->nprogs = m->nprogs;
	t->dsyms = xcalloc(m->nprogs, sizeof *t->dsyms);
	t->listings = xcalloc(m->nprogs, sizeof *t->listings);
	for (size_t i = 0; i < m->nprogs; i++)
		dsym_load(&t->dsyms[i], m->progs[i]);
	t->out.ncores = m->cfg.ncores;
	t->out.core = xcalloc(m->cfg.ncores, sizeof *t->out.core);
	t->dirty = DIRTY_ALL;
}

int
tui_render_hook(void *arg, struct engine *e, char **cause)
{
	struct tui_render *r = arg;

	if (r->scr == NULL && render_open(r, cause) != 0)
		return -1;
	/*
	 * bench makes each machine in the same stack slot, so its address
	 * does not tell machines apart; a machine only steps forward, so a
	 * step count that did not grow is a new machine (whose programs may
	 * sit where the freed ones were)
	 */
	if (r->s != NULL || r->m != e->m || r->t.engine != e ||
	    e->m->step <= r->step || e->m->nprogs != r->t.nprogs)
		render_adopt(r, NULL, e);
	else
		r->t.dirty |= DIRTY_ALL & ~(DIRTY_LAYOUT | DIRTY_CLEAR);
	r->step = e->m->step;
	draw_all(&r->t);
	return 0;
}

int
tui_render_session_hook(void *arg, struct session *s, char **cause)
{
	struct tui_render *r = arg;
	const struct machine *m = session_machine(s);

	if (r->scr == NULL && render_open(r, cause) != 0)
		return -1;
	/* a session keeps its machine where it is; run may load it anew */
	if (r->s != s || r->m != m || m->nprogs != r->t.nprogs ||
	    m->cfg.ncores != r->t.out.ncores)
		render_adopt(r, s, NULL);
	else
		r->t.dirty |= DIRTY_ALL & ~(DIRTY_LAYOUT | DIRTY_CLEAR);
	access_stopped(&r->t);
	draw_all(&r->t);
	return 0;
}
