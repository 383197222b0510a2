/*
 * What the panes read: the machine, the focused core, the level, the
 * listings and the output up to the session's cut (tui_machine and the
 * other accessors at the end; without a session, as in bench's
 * off-screen render, the machine of t->m), and from the session: the
 * breakpoint list (code and microcode markers, the "at breakpoint"
 * status of cores), the focused core's frames with names (stack pane)
 * and the kernel path count k (warps pane).
 *
 * Breakpoints and frames come from the session's accessors
 * (session_breakpoints, session_frames), read while the machine is
 * stopped; the frames are formatted here the way `backtrace` prints
 * them (a "#N" row per frame), with the frame's locals and operand stack
 * below its row, and the selected frame (session_selected_frame) is
 * kept for the pane to mark.  k comes from the OpenCL engine's records through
 * session_engine(); the reference engine records no k.  With several
 * programs (MIMD) a PC breakpoint is marked in every program that has
 * code at its address.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "census.h"
#include "engine.h"
#include "lines.h"
#include "names.h"
#include "places.h"
#include "session.h"
#include "tui.h"

void
access_bps_free(struct ui_bps *bps)
{
	for (size_t i = 0; i < bps->n; i++) {
		free(bps->v[i].pcs);
		free(bps->v[i].cores);
	}
	free(bps->v);
	for (size_t i = 0; i < bps->map.nprogs; i++)
		free(bps->map.at[i]);
	free(bps->map.at);
	free(bps->map.mask);
	memset(bps, 0, sizeof *bps);
}

void
access_bps_from(const struct session_bp *v, size_t n, uint32_t ncores,
    struct ui_bps *bps)
{
	access_bps_free(bps);
	for (size_t i = 0; i < n; i++) {
		struct ui_bp *b = NULL;

		/* locations of one breakpoint come together */
		if (bps->n > 0 && bps->v[bps->n - 1].id == v[i].id)
			b = &bps->v[bps->n - 1];
		else {
			bps->v = xreallocarray(bps->v, bps->n + 1,
			    sizeof *bps->v);
			b = &bps->v[bps->n++];
			memset(b, 0, sizeof *b);
			b->id = v[i].id;
			b->enabled = v[i].enabled;
			b->on_mpc = v[i].on_mpc;
			if (v[i].cores != NULL && ncores > 0) {
				b->cores = xmalloc(ncores);
				memcpy(b->cores, v[i].cores, ncores);
			}
		}
		b->pcs = xreallocarray(b->pcs, b->npcs + 1, sizeof *b->pcs);
		b->pcs[b->npcs++] = v[i].addr;
	}
}

void
access_bps_map(struct ui_bps *bps, const struct machine *m)
{
	struct bpmap *map = &bps->map;

	for (size_t i = 0; i < map->nprogs; i++)
		free(map->at[i]);
	free(map->at);
	free(map->mask);
	memset(map, 0, sizeof *map);
	map->nprogs = m->nprogs;
	map->at = xcalloc(m->nprogs, sizeof *map->at);
	map->mask = xcalloc(bps->n + 1, sizeof *map->mask);
	for (size_t i = 0; i < m->nprogs; i++)
		map->at[i] = xcalloc(m->progs[i]->text_size + 1, 1);
	for (size_t i = 0; i < bps->n; i++) {
		const struct ui_bp *b = &bps->v[i];
		uint8_t v = 255;

		if (!b->enabled || b->watch || b->on_mpc)
			continue;
		if (b->cores != NULL && map->nmask < 254) {
			map->mask[map->nmask++] = b->cores;
			v = (uint8_t)map->nmask;
		}
		for (size_t k = 0; k < b->npcs; k++)
			for (size_t p = 0; p < m->nprogs; p++) {
				uint8_t *at = map->at[p];
				int32_t pc = b->pcs[k];

				if (pc < 0 || (uint32_t)pc >=
				    m->progs[p]->text_size)
					continue;
				/* two core sets at one address: any core */
				at[pc] = at[pc] == 0 ? v : 255;
			}
	}
}

int
access_read_breaks(struct session *s, struct ui_bps *bps, char **cause)
{
	const struct session_bp *v = NULL;
	const struct machine *m = session_machine(s);
	size_t n = session_breakpoints(s, &v);

	(void)cause;
	access_bps_from(v, n, m->cfg.ncores, bps);
	access_bps_map(bps, m);
	return 0;
}

static const struct ui_bp *
bp_at(const struct ui_bps *bps, int32_t addr, int on_mpc)
{
	const struct ui_bp *found = NULL;

	/* an enabled one wins over a disabled one at the same place */
	for (size_t i = 0; i < bps->n; i++)
		for (size_t k = 0; k < bps->v[i].npcs; k++)
			if (bps->v[i].on_mpc == on_mpc &&
			    bps->v[i].pcs[k] == addr && (found == NULL ||
			    (!found->enabled && bps->v[i].enabled)))
				found = &bps->v[i];
	return found;
}

const struct ui_bp *
access_bp_at(const struct ui_bps *bps, int32_t pc)
{
	return bp_at(bps, pc, 0);
}

const struct ui_bp *
access_mpc_bp_at(const struct ui_bps *bps, int32_t mpc)
{
	return bp_at(bps, mpc, 1);
}

/* "name=value" of local i of f. */
static void
put_local(struct buf *b, const struct session_frame *f, int32_t i)
{
	const struct session_frame_local *l = &f->locals[i];

	if (l->name != NULL)
		buf_printf(b, "%s=%d", l->name, l->value);
	else
		buf_printf(b, "local[%d]=%d", i, l->value);
}

#define FRAME_WORDS_SHOWN 16

void
access_format_frames(const struct session_frame *f, size_t n,
    const int32_t *const *stack, struct lines *out)
{
	struct buf b = { 0 };

	lines_clear(out);
	for (size_t d = 0; d < n; d++) {
		const struct session_frame *fr = &f[d];
		int32_t kept = fr->nlocals < SESSION_FRAME_LOCALS ?
		    fr->nlocals : SESSION_FRAME_LOCALS;
		int32_t first = fr->link < 0 ? 0 : 1;
		int32_t np = fr->link < 0 ? 0 : (int32_t)fr->nparams;
		int32_t nstack = fr->stack_hi - fr->stack_lo + 1;

		b.len = 0;
		buf_printf(&b, "#%-2zu 0x%04x in %s", d, (uint32_t)fr->pc,
		    fr->method ? fr->method : "?");
		if (fr->link >= 0) {
			buf_printf(&b, "(");
			for (int32_t i = 1; i <= np && i < kept; i++) {
				buf_printf(&b, "%s", i > 1 ? ", " : "");
				put_local(&b, fr, i);
			}
			buf_printf(&b, ")");
		}
		buf_printf(&b, "  [LV 0x%x]", (uint32_t)fr->lv);
		lines_add(out, (const char *)b.data, b.len);
		if (first + np < kept) {
			b.len = 0;
			buf_printf(&b, "    locals:");
			for (int32_t i = first + np; i < kept; i++) {
				buf_printf(&b, " ");
				put_local(&b, fr, i);
			}
			if (fr->nlocals > kept)
				buf_printf(&b, " ...");
			lines_add(out, (const char *)b.data, b.len);
		}
		if (nstack > 0) {
			int32_t shown = nstack < FRAME_WORDS_SHOWN ? nstack :
			    FRAME_WORDS_SHOWN;

			b.len = 0;
			buf_printf(&b, "    stack (%d word%s, top last):%s",
			    nstack, nstack == 1 ? "" : "s",
			    nstack > shown ? " ..." : "");
			for (int32_t i = 0; stack != NULL && stack[d] != NULL &&
			    i < shown; i++)
				buf_printf(&b, " %d", stack[d][i]);
			lines_add(out, (const char *)b.data, b.len);
		}
		if (fr->link >= 0)
			lines_addf(out, "    link 0x%x: saved PC 0x%04x, saved "
			    "LV 0x%x", (uint32_t)fr->link,
			    (uint32_t)fr->saved_pc, (uint32_t)fr->saved_lv);
		if (fr->note != NULL)
			lines_addf(out, "    (%s)", fr->note);
	}
	buf_free(&b);
}

int
access_frames(struct session *s, struct lines *out, char **cause)
{
	struct session_frame *f = NULL;
	struct engine *e = session_engine(s);
	uint32_t core = session_focus(s);
	int32_t **stack;
	size_t n = 0;

	if (session_frames(s, core, &f, &n, cause) != 0)
		return -1;
	/* the top words of each operand stack, read from the engine */
	stack = xcalloc(n + 1, sizeof *stack);
	for (size_t d = 0; d < n; d++) {
		int32_t nw = f[d].stack_hi - f[d].stack_lo + 1;
		char *why = NULL;

		if (nw <= 0 || e == NULL || e->ops->read_words == NULL)
			continue;
		if (nw > FRAME_WORDS_SHOWN)
			nw = FRAME_WORDS_SHOWN;
		stack[d] = xcalloc((size_t)nw, sizeof **stack);
		if (e->ops->read_words(e, core, f[d].stack_hi - nw + 1,
		    (uint32_t)nw, stack[d], &why) != 0) {
			free(why);
			free(stack[d]);
			stack[d] = NULL;
		}
	}
	access_format_frames(f, n, (const int32_t *const *)stack, out);
	for (size_t d = 0; d < n; d++)
		free(stack[d]);
	free(stack);
	session_frames_free(f, n);
	return 0;
}

void
access_stopped(struct tui *t)
{
	char *cause = NULL;

	/* `run` and `set level` replace the engine: ask for it again */
	t->engine = session_engine(t->s);
	t->engine_name = t->engine != NULL && t->engine->ops != NULL ?
	    t->engine->ops->name : "?";
	t->engine_warps = t->engine != NULL && t->engine->ops != NULL &&
	    t->engine->ops->warps != NULL;
	if (access_read_breaks(t->s, &t->bps, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	if (access_frames(t->s, &t->frames, &cause) != 0) {
		lines_clear(&t->frames);
		lines_addf(&t->frames, "(%s)", cause);
		free(cause);
	}
	t->frames_stale = 0;
	/* up, down and frame N move the selection without a run: the pane
	 * scrolls to it once, then the arrows are the user's again */
	if (t->s != NULL && session_selected_frame(t->s) != t->frame_sel) {
		t->frame_sel = session_selected_frame(t->s);
		t->frame_show = 1;
	}
}

int
access_warp_k(const struct engine *e, uint32_t w)
{
	const struct engine_warp_record *r;
	size_t n = 0;

	if (e == NULL || e->ops == NULL || e->ops->warps == NULL)
		return -1;
	/* the op only reads: it is not const-qualified */
	r = e->ops->warps((struct engine *)(uintptr_t)e, &n);
	if (r != NULL && w < n && r[w].steps > 0)
		return (int)r[w].last_k;
	return -1;
}

double
access_simd_efficiency(const struct engine *e, uint32_t width)
{
	const struct engine_warp_record *r;
	uint64_t active = 0, k = 0;
	size_t n = 0;

	if (e == NULL || e->ops == NULL || e->ops->warps == NULL)
		return -1;
	r = e->ops->warps((struct engine *)(uintptr_t)e, &n);
	for (size_t i = 0; r != NULL && i < n; i++) {
		active += r[i].active;
		k += r[i].kpaths;
	}
	if (k > 0)
		return (double)active / ((double)width * (double)k);
	return -1;
}

/* --- what the panes draw from ------------------------------------- */

/*
 * The panes read the machine, the focused core, the level and the
 * session's cut through these, never the session directly, so that the
 * same drawing code runs without a session: bench's off-screen render
 * (render.c) has only an engine over a machine.
 */

const struct machine *
tui_machine(const struct tui *t)
{
	return t->s != NULL ? session_machine(t->s) : t->m;
}

uint32_t
tui_focus(const struct tui *t)
{
	return t->s != NULL ? session_focus(t->s) : 0;
}

int32_t
tui_core_pc(const struct tui *t, uint32_t core)
{
	/* inside an instruction at a micro level, PC has moved on (or
	 * carries a microprogram's mark): the session knows the
	 * instruction the microcode is executing */
	struct places v = { .m = tui_machine(t), .level = LEVEL_ISA,
	    .focus = UINT32_MAX };

	if (t->s != NULL)
		return session_core_pc(t->s, core);
	return places_core_pc(&v, core);
}

enum level
tui_level(const struct tui *t)
{
	return t->s != NULL ? session_level(t->s) : LEVEL_ISA;
}

struct listing *
tui_listing(struct tui *t, uint16_t prog)
{
	struct listing *l = &t->listings[prog];
	int fold = t->code.view != VIEW_BYTES;

	/* the view decides whether #print rows stand for their bytes */
	if (l->rows != NULL && l->fold != fold)
		listing_free(l);
	if (l->rows == NULL && prog < t->nprogs)
		listing_build(l, t->progs[prog], fold);
	return l;
}

const struct core *
tui_prev_core(const struct tui *t, uint32_t core)
{
	if (t->prev == NULL || core < t->prev_first ||
	    core - t->prev_first >= t->prev_n)
		return NULL;
	return &t->prev[core - t->prev_first];
}

size_t
tui_output_len(const struct tui *t, uint32_t core)
{
	const struct buf *b = core < t->out.ncores ? t->out.core[core] : NULL;

	if (b == NULL)
		return 0;
	return t->out.hide[core] < b->len ? b->len - (size_t)t->out.hide[core] :
	    0;
}

/* The present cut: the session's generation changes whenever it may
 * have; a bare machine (bench's render) only steps forward. */
static uint64_t
census_key(const struct tui *t)
{
	return t->s != NULL ? session_generation(t->s) : tui_machine(t)->step;
}

void
tui_census(struct tui *t)
{
	const struct machine *m = tui_machine(t);
	uint64_t key = census_key(t);

	if (t->census.valid && t->census.key == key)
		return;
	census_totals(m, &t->bps.map, &t->totals);
	t->census.keff = access_simd_efficiency(t->engine, m->cfg.warp_width);
	t->census.key = key;
	t->census.valid = 1;
}

const struct grid_cell *
tui_grid_cells(struct tui *t, const struct grid_geom *g)
{
	const struct machine *m = tui_machine(t);
	struct census_cache *c = &t->census;
	uint64_t key = census_key(t);
	size_t n = (size_t)g->shown * g->per_row;

	if (c->cells_valid && c->cells_key == key &&
	    c->geom.group == g->group &&
	    c->geom.per_row == g->per_row && c->geom.top == g->top &&
	    c->geom.shown == g->shown)
		return c->cells;
	if (n > c->cap) {
		free(c->cells);
		c->cells = xcalloc(n, sizeof *c->cells);
		c->cap = n;
	}
	census_cells(m, &t->bps.map, g, c->cells);
	c->geom = *g;
	c->cells_key = key;
	c->cells_valid = 1;
	return c->cells;
}

void
tui_census_free(struct tui *t)
{
	free(t->census.cells);
	memset(&t->census, 0, sizeof t->census);
}
