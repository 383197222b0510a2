/*
 * What the panes of a front end read as data rather than as command
 * text (session.h): the breakpoint locations and a core's call frames.
 * They are the same facts info break and info frame print, taken from
 * the same tables, so the screen and the transcript cannot disagree.
 *
 * session_breakpoints keeps its array (and the label strings it points
 * to) in the session, rebuilt on every call; session_frames gives the
 * caller its own array.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"

void
session_views_free(struct session *s)
{
	for (size_t i = 0; i < s->nview_labels; i++)
		free(s->view_labels[i]);
	free(s->view_labels);
	free(s->views);
	s->view_labels = NULL;
	s->views = NULL;
	s->nviews = s->nview_labels = 0;
}

static const char *
keep_label(struct session *s, const char *label)
{
	if (label == NULL)
		return NULL;
	s->view_labels = xreallocarray(s->view_labels, s->nview_labels + 1,
	    sizeof *s->view_labels);
	s->view_labels[s->nview_labels] = xstrdup(label);
	return s->view_labels[s->nview_labels++];
}

static const char *
mpc_label(const struct session *s, int32_t mpc)
{
	enum level l = s->level == LEVEL_ISA ? LEVEL_MIC : s->level;
	const struct mal_sym *sym;

	if (!s->mc[l].loaded || mpc < 0 ||
	    (sym = mal_syms_at(&s->mc[l].syms, (uint32_t)mpc)) == NULL)
		return NULL;
	return sym->label;
}

size_t
session_breakpoints(const struct session *cs, const struct session_bp **out)
{
	/* The array is a cache of the table, rebuilt here: logically const. */
	struct session *s = (struct session *)cs;
	uint32_t ncores = s->m.cfg.ncores;
	size_t n = 0;

	session_views_free(s);
	for (size_t i = 0; i < s->bps.n; i++)
		if (s->bps.v[i].kind == BP_BREAK)
			n += s->bps.v[i].nlocs;
	s->views = xcalloc(n ? n : 1, sizeof *s->views);
	for (size_t i = 0; i < s->bps.n; i++) {
		const struct bp *b = &s->bps.v[i];

		if (b->kind != BP_BREAK)
			continue;
		for (size_t k = 0; k < b->nlocs; k++) {
			struct session_bp *v = &s->views[s->nviews++];
			const struct bp_loc *l = &b->locs[k];
			char tmp[128];

			v->id = b->id;
			v->enabled = b->enabled && !l->disabled;
			v->temporary = b->temporary;
			v->on_mpc = b->on_mpc;
			v->addr = l->pc;
			v->prog = l->prog;
			if (b->on_mpc)
				v->label = keep_label(s, mpc_label(s, l->pc));
			else if (l->pc >= 0)
				v->label = keep_label(s, loc_label_name(
				    s->m.progs[l->prog], (uint32_t)l->pc, tmp,
				    sizeof tmp));
			v->cores = l->mask;
			v->ncores_set = l->mask ? coreset_count(l->mask,
			    ncores) : ncores;
			v->cond = b->cond_text;
			v->hits = b->hits;
		}
	}
	*out = s->views;
	return s->nviews;
}

void
session_frames_free(struct session_frame *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].locals);
		free(f[i].note);
	}
	free(f);
}

/* One frame at (pc, lv, sp); 1 to go on with the caller. */
static int
one_frame(struct session *s, uint32_t core, struct session_frame *f,
    int32_t *pc, int32_t *lv, int32_t *sp)
{
	const struct dsym_method *dm = session_method_at(s, core, *pc);
	int32_t nlocals, link, shown, *w, caller[2];
	char *cause = NULL;

	memset(f, 0, sizeof *f);
	f->method = session_method_name(s, core, *pc);
	f->pc = *pc;
	f->lv = *lv;
	f->link = f->saved_pc = f->saved_lv = -1;
	f->stack_lo = 0;
	f->stack_hi = -1;
	if (session_frame(s, core, *lv, &nlocals, &link, &cause) != 0) {
		f->note = cause;
		return 0;
	}
	f->nlocals = nlocals;
	f->link = link;
	f->nparams = link >= 0 && dm != NULL ? dm->nparams : 0;
	shown = nlocals < SESSION_FRAME_LOCALS ? nlocals :
	    SESSION_FRAME_LOCALS;
	if (shown > 0) {
		w = xcalloc((size_t)shown, sizeof *w);
		if (session_read(s, core, *lv, (uint32_t)shown, w,
		    &cause) != 0) {
			f->note = cause;
			free(w);
			return 0;
		}
		f->locals = xcalloc((size_t)shown, sizeof *f->locals);
		for (int32_t i = 0; i < shown; i++) {
			f->locals[i].name = dsym_local_name(dm, (uint32_t)i);
			f->locals[i].value = w[i];
		}
		free(w);
	}
	f->stack_lo = (link < 0 ? *lv + nlocals - 1 : link + 1) + 1;
	f->stack_hi = *sp;
	if (link < 0)
		return 0;
	if (session_read(s, core, link, 2, caller, &cause) != 0) {
		f->note = cause;
		return 0;
	}
	f->saved_pc = caller[0];
	f->saved_lv = caller[1];
	*sp = *lv - 1;
	*pc = caller[0];
	*lv = caller[1];
	return 1;
}

int
session_frames(struct session *s, uint32_t core, struct session_frame **out,
    size_t *n, char **cause)
{
	const struct core *c;
	int32_t pc, lv, sp;
	struct session_frame *f;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (core >= s->m.cfg.ncores) {
		*cause = xasprintf("core %u is out of range (0-%u)", core,
		    s->m.cfg.ncores - 1);
		return -1;
	}
	c = &s->m.cores[core];
	pc = session_core_pc(s, core);
	lv = c->lv;
	sp = c->sp;
	f = xcalloc(SESSION_MAX_FRAMES, sizeof *f);
	while (k < SESSION_MAX_FRAMES && one_frame(s, core, &f[k++], &pc, &lv, &sp))
		;
	*out = f;
	*n = k;
	return 0;
}

uint32_t
session_selected_frame(const struct session *s)
{
	return s->frame_sel;
}

void
session_selected_pc_lv(struct session *s, int32_t *pc, int32_t *lv)
{
	struct session_frame *f;
	size_t n;
	char *cause = NULL;

	*pc = session_core_pc(s, s->focus);
	*lv = s->m.cores[s->focus].lv;
	if (s->frame_sel == 0)
		return;
	if (session_frames(s, s->focus, &f, &n, &cause) != 0) {
		free(cause);
		s->frame_sel = 0;
		return;
	}
	if (s->frame_sel < n) {
		*pc = f[s->frame_sel].pc;
		*lv = f[s->frame_sel].lv;
	} else		/* the stack changed under it (set var) */
		s->frame_sel = 0;
	session_frames_free(f, n);
}
