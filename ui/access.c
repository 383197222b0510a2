/*
 * What the screen needs from the session that session.h does not export
 * yet: the breakpoint list (code markers, the "at breakpoint" status of
 * cores), the focused core's frames with names (stack pane) and the
 * kernel path count k (warps pane).
 *
 * Each is a fallback kept in this one file so that the lead can replace
 * it by an accessor without touching the panes (the report lists the
 * exact functions wanted).  Breakpoints and frames are read back from the
 * session's own commands, `info break` and `info frame`, run while the
 * machine is stopped; the session is configured with repeat off and the
 * UI repeats lines itself, so these hidden commands never become the
 * line that Enter repeats.  k comes from the OpenCL engine's records
 * through the engine pointer that the session hands to the front end's
 * make_engine callback; the reference engine records no k.
 *
 * Limits of parsing `info break`: a core set longer than the eight ranges
 * that `info break` prints counts as "all cores", and with several
 * programs (MIMD) an address is marked in every program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "tui.h"
#ifdef HAVE_ENGINE_OCL
#include "engine-ocl.h"
#endif

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

/* "8-15, 17" into ncores bytes; NULL when abbreviated or not parsed. */
static uint8_t *
parse_cores(const char *text, uint32_t ncores)
{
	uint8_t *bits;
	const char *p = text;

	if (strstr(text, "...") != NULL || ncores == 0)
		return NULL;
	bits = xcalloc(ncores, 1);
	while (*p != '\0') {
		char *end;
		unsigned long a, b;

		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		a = strtoul(p, &end, 10);
		if (end == p)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1)
				goto bad;
			p = end;
		}
		for (unsigned long c = a; c <= b && c < ncores; c++)
			bits[c] = 1;
	}
	return bits;
bad:
	free(bits);
	return NULL;
}

static void
parse_what(struct ui_bp *b, const char *what, uint32_t ncores)
{
	const char *p = what;
	int depth = 0, at_item = 1;

	while (*p != '\0') {
		if (depth == 0 && strncmp(p, " on cores ", 10) == 0) {
			b->cores = parse_cores(p + 10, ncores);
			return;
		}
		if (depth == 0 && at_item && strncmp(p, "0x", 2) == 0) {
			char *end;
			long v = strtol(p, &end, 16);

			b->pcs = xreallocarray(b->pcs, b->npcs + 1,
			    sizeof *b->pcs);
			b->pcs[b->npcs++] = (int32_t)v;
			p = end;
			at_item = 0;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (depth == 0 && *p == ',')
			at_item = 1;
		else if (*p != ' ')
			at_item = 0;
		p++;
	}
}

void
access_parse_breaks(const char *text, uint32_t ncores, struct ui_bps *bps)
{
	const char *line = text;

	access_bps_free(bps);
	while (line != NULL && *line != '\0') {
		const char *eol = strchr(line, '\n');
		char *copy = eol ? xstrndup(line, (size_t)(eol - line)) :
		    xstrdup(line);
		unsigned id;
		char type[16], disp[8], enb[4];
		int off = 0;

		if (copy[0] >= '0' && copy[0] <= '9' &&
		    sscanf(copy, "%u %15s %7s %3s %n", &id, type, disp, enb,
		    &off) == 4 && off > 0) {
			struct ui_bp *b;

			bps->v = xreallocarray(bps->v, bps->n + 1,
			    sizeof *bps->v);
			b = &bps->v[bps->n++];
			memset(b, 0, sizeof *b);
			b->id = id;
			b->enabled = strcmp(enb, "y") == 0;
			b->watch = strcmp(type, "breakpoint") != 0;
			if (!b->watch)
				parse_what(b, copy + off, ncores);
		}
		free(copy);
		line = eol ? eol + 1 : NULL;
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

		if (!b->enabled || b->watch)
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
	struct buf out = { 0 };
	const struct machine *m = session_machine(s);

	if (session_execute(s, "info break", &out, cause) != 0) {
		buf_free(&out);
		return -1;
	}
	buf_put_u8(&out, 0);
	access_parse_breaks((const char *)out.data, m->cfg.ncores, bps);
	access_bps_map(bps, m);
	buf_free(&out);
	return 0;
}

const struct ui_bp *
access_bp_at(const struct ui_bps *bps, int32_t pc)
{
	const struct ui_bp *found = NULL;

	/* an enabled one wins over a disabled one at the same place */
	for (size_t i = 0; i < bps->n; i++)
		for (size_t k = 0; k < bps->v[i].npcs; k++)
			if (bps->v[i].pcs[k] == pc && (found == NULL ||
			    (!found->enabled && bps->v[i].enabled)))
				found = &bps->v[i];
	return found;
}

int
access_frames(struct session *s, struct lines *out, char **cause)
{
	struct buf b = { 0 };
	const char *text, *first;

	if (session_execute(s, "info frame", &b, cause) != 0) {
		buf_free(&b);
		return -1;
	}
	buf_put_u8(&b, 0);
	text = (const char *)b.data;
	/* the first line ("core N, running") is the pane's title */
	if ((first = strchr(text, '\n')) != NULL &&
	    strncmp(text, "core ", 5) == 0)
		text = first + 1;
	lines_clear(out);
	lines_add(out, text, strlen(text));
	buf_free(&b);
	return 0;
}

int
access_warp_k(const struct engine *e, int engine_ocl, uint32_t w)
{
#ifdef HAVE_ENGINE_OCL
	if (engine_ocl && e != NULL) {
		size_t n = 0;
		const struct ocl_warp_record *r =
		    engine_ocl_warps((struct engine *)(uintptr_t)e, &n);

		if (r != NULL && w < n && r[w].steps > 0)
			return (int)r[w].last_k;
	}
#else
	(void)e;
	(void)engine_ocl;
	(void)w;
#endif
	return -1;
}

double
access_simd_efficiency(const struct engine *e, int engine_ocl,
    uint32_t width)
{
#ifdef HAVE_ENGINE_OCL
	if (engine_ocl && e != NULL) {
		size_t n = 0;
		const struct ocl_warp_record *r =
		    engine_ocl_warps((struct engine *)(uintptr_t)e, &n);
		uint64_t active = 0, k = 0;

		for (size_t i = 0; r != NULL && i < n; i++) {
			active += r[i].active;
			k += r[i].kpaths;
		}
		if (k > 0)
			return (double)active / ((double)width * (double)k);
	}
#else
	(void)e;
	(void)engine_ocl;
	(void)width;
#endif
	return -1;
}
