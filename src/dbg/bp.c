/*
 * Breakpoint table (see bp.h).  Entries stay sorted by number because
 * numbers only grow, so appending keeps the order and lookups can
 * bisect.
 */
#include <stdlib.h>
#include <string.h>

#include "bp.h"
#include "util.h"

void
bp_table_init(struct bp_table *t)
{
	memset(t, 0, sizeof *t);
	t->next_id = 1;
}

void
bp_clear(struct bp *b)
{
	for (size_t i = 0; i < b->nlocs; i++)
		free(b->locs[i].mask);
	free(b->locs);
	free(b->what);
	free(b->cores);
	free(b->cores_text);
	expr_free(b->cond);
	free(b->cond_text);
	memset(b, 0, sizeof *b);
}

void
bp_table_free(struct bp_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		bp_clear(&t->v[i]);
	free(t->v);
	bp_table_init(t);
}

struct bp *
bp_add(struct bp_table *t, enum bp_kind kind)
{
	struct bp *b;

	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 8;
		t->v = xreallocarray(t->v, t->cap, sizeof *t->v);
	}
	b = &t->v[t->n++];
	memset(b, 0, sizeof *b);
	b->id = t->next_id++;
	b->kind = (uint8_t)kind;
	b->enabled = 1;
	return b;
}

static size_t
bp_index(const struct bp_table *t, uint32_t id)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].id == id)
			return mid;
		if (t->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

struct bp *
bp_find(struct bp_table *t, uint32_t id)
{
	size_t i = bp_index(t, id);

	return i == SIZE_MAX ? NULL : &t->v[i];
}

int
bp_delete(struct bp_table *t, uint32_t id)
{
	size_t i = bp_index(t, id);

	if (i == SIZE_MAX)
		return -1;
	bp_clear(&t->v[i]);
	memmove(&t->v[i], &t->v[i + 1], (t->n - i - 1) * sizeof *t->v);
	t->n--;
	return 0;
}

size_t
bp_count(const struct bp_table *t, enum bp_kind kind, int enabled)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].kind == kind && (!enabled || t->v[i].enabled))
			n++;
	return n;
}

static int
id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int
bp_parse_ids(const struct bp_table *t, const char *text, uint32_t **ids,
    size_t *n, char **cause)
{
	const char *p = text;
	uint32_t *v = NULL;
	size_t nv = 0, cap = 0;

	for (;;) {
		unsigned long a, b;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (parse_range(&p, UINT32_MAX, &a, &b) != 0 ||
		    (*p != '\0' && *p != ' ' && *p != '\t'))
			goto bad;
		size_t before = nv;

		for (unsigned long id = a; id <= b; id++) {
			if (bp_index(t, (uint32_t)id) == SIZE_MAX) {
				/* inside a range, gaps are deleted entries */
				if (a != b)
					continue;
				*cause = xasprintf("no breakpoint number %lu (info "
				    "break lists them)", id);
				free(v);
				return -1;
			}
			if (nv == cap) {
				cap = cap ? cap * 2 : 8;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[nv++] = (uint32_t)id;
		}
		if (nv == before) {
			*cause = xasprintf("no breakpoints numbered %lu-%lu (info "
			    "break lists them)", a, b);
			free(v);
			return -1;
		}
	}
	if (nv > 1) {
		size_t k = 1;

		qsort(v, nv, sizeof *v, id_cmp);
		for (size_t i = 1; i < nv; i++)
			if (v[i] != v[k - 1])
				v[k++] = v[i];
		nv = k;
	}
	*ids = v;
	*n = nv;
	return 0;
bad:
	free(v);
	*cause = xasprintf("bad breakpoint numbers '%s' (write numbers like "
	    "1 3 5-7)", text);
	return -1;
}

int
bp_set_condition(struct bp *b, const char *text, char **cause)
{
	struct expr *e = NULL;

	while (text != NULL && (*text == ' ' || *text == '\t'))
		text++;
	if (text != NULL && *text != '\0' &&
	    expr_parse(text, &e, cause) != 0)
		return -1;
	expr_free(b->cond);
	free(b->cond_text);
	b->cond = e;
	b->cond_text = e != NULL ? xstrdup(text) : NULL;
	return 0;
}

size_t
bp_loc_at(const struct bp *b, uint16_t prog, int32_t pc)
{
	size_t k;

	for (k = 0; k < b->nlocs; k++)
		if (b->locs[k].pc == pc && (b->on_mpc || b->locs[k].prog == prog))
			break;
	return k;
}

int
bp_enable_loc(struct bp_table *t, const char *text, int on, char **cause)
{
	unsigned long id, loc;
	char *end;
	struct bp *b;

	id = strtoul(text, &end, 10);
	if (text[0] < '0' || text[0] > '9' || *end != '.' ||
	    end[1] < '0' || end[1] > '9' ||
	    (loc = strtoul(end + 1, &end, 10), *end != '\0')) {
		*cause = xasprintf("bad breakpoint location '%s' (write N.M, "
		    "e.g. 1.2)", text);
		return -1;
	}
	if (id > UINT32_MAX || (b = bp_find(t, (uint32_t)id)) == NULL ||
	    b->kind != BP_BREAK) {
		*cause = xasprintf("no breakpoint number %lu (info break lists "
		    "them)", id);
		return -1;
	}
	if (loc == 0 || loc > b->nlocs) {
		*cause = xasprintf("breakpoint %lu has no location %lu (it has "
		    "%zu: info break lists them)", id, loc, b->nlocs);
		return -1;
	}
	if (b->nlocs == 1)	/* its one location is the breakpoint */
		b->enabled = (uint8_t)on;
	else
		b->locs[loc - 1].disabled = (uint8_t)!on;
	return 0;
}
