/*
 * Core sets (see coreset.h).  Parsing checks every number against the
 * machine so that a set, once made, never names a core that does not
 * exist; formatting merges consecutive cores into ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "coreset.h"

int
coreset_parse(const char *text, uint32_t ncores, uint8_t **bits,
    char **cause)
{
	const char *p = text;
	uint8_t *set;

	*bits = NULL;
	if (strcmp(text, "all") == 0) {
		set = xmalloc(ncores);
		memset(set, 1, ncores);
		*bits = set;
		return 0;
	}
	if (*p == '\0')
		goto bad;
	set = xcalloc(ncores, 1);
	while (*p != '\0') {
		unsigned long a, b;
		int rc = parse_range(&p, ncores - 1, &a, &b);

		if (rc == -2) {
			*cause = xasprintf("bad core range '%lu-%lu' in '%s' "
			    "(write the lower core first)", a, b, text);
			free(set);
			return -1;
		}
		if (rc == -3) {
			*cause = xasprintf("core %lu is out of range: the "
			    "machine has %u core%s (0-%u)", b, ncores,
			    ncores == 1 ? "" : "s", ncores - 1);
			free(set);
			return -1;
		}
		if (rc != 0)
			goto bad_free;
		memset(set + a, 1, (size_t)(b - a + 1));
		if (*p == ',' && p[1] != '\0')
			p++;
		else if (*p != '\0')
			goto bad_free;
	}
	*bits = set;
	return 0;
bad_free:
	free(set);
bad:
	*cause = xasprintf("bad core set '%s' (write ranges like 0-7,12 or "
	    "all)", text);
	return -1;
}

uint32_t
coreset_count(const uint8_t *bits, uint32_t ncores)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < ncores; c++)
		n += bits[c] != 0;
	return n;
}

/* Ranges from an iterator over ascending cores; shared by both forms. */
struct ranges {
	struct buf	*b;
	size_t		 max_items;
	size_t		 items;      /* ranges written */
	size_t		 skipped;    /* ranges not written */
	int		 open;       /* a range first..last is pending */
	uint32_t	 first, last;
};

static void
ranges_flush(struct ranges *r)
{
	if (!r->open)
		return;
	r->open = 0;
	if (r->items >= r->max_items) {
		r->skipped++;
		return;
	}
	if (r->items > 0)
		buf_printf(r->b, ", ");
	if (r->first == r->last)
		buf_printf(r->b, "%u", r->first);
	else
		buf_printf(r->b, "%u-%u", r->first, r->last);
	r->items++;
}

static void
ranges_add(struct ranges *r, uint32_t c)
{
	if (r->open && c == r->last + 1) {
		r->last = c;
		return;
	}
	ranges_flush(r);
	r->open = 1;
	r->first = r->last = c;
}

static void
ranges_end(struct ranges *r)
{
	ranges_flush(r);
	if (r->skipped > 0)
		buf_printf(r->b, ", ... (%zu more range%s)", r->skipped,
		    r->skipped == 1 ? "" : "s");
}

void
coreset_format_list(struct buf *b, const uint32_t *cores, size_t n,
    size_t max_items)
{
	struct ranges r = { b, max_items ? max_items : 1, 0, 0, 0, 0, 0 };

	for (size_t i = 0; i < n; i++)
		ranges_add(&r, cores[i]);
	ranges_end(&r);
}

void
coreset_format_bits(struct buf *b, const uint8_t *bits, uint32_t ncores,
    size_t max_items)
{
	struct ranges r = { b, max_items ? max_items : 1, 0, 0, 0, 0, 0 };

	for (uint32_t c = 0; c < ncores; c++)
		if (bits[c])
			ranges_add(&r, c);
	ranges_end(&r);
}

void
coreset_format_cores(struct buf *b, const uint32_t *cores, size_t n,
    size_t max_items)
{
	buf_printf(b, "%s ", n == 1 ? "core" : "cores");
	coreset_format_list(b, cores, n, max_items);
}
