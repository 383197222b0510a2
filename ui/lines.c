/*
 * A bounded list of text lines: the command window's transcript and the
 * stack pane's frames.  Text is split at newlines; control characters
 * other than tabs (expanded to a space) are shown as '?', so nothing a
 * core or a driver writes can move the cursor or change the terminal.
 * When max is set the oldest lines go first.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"

static void
push(struct lines *l, char *line)
{
	if (l->max > 0 && l->n == l->max) {
		free(l->v[0]);
		memmove(l->v, l->v + 1, (l->n - 1) * sizeof *l->v);
		l->n--;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	l->v[l->n++] = line;
}

void
lines_add(struct lines *l, const char *text, size_t len)
{
	size_t start = 0;

	/* a final newline ends the last line; it does not open a new one */
	if (len > 0 && text[len - 1] == '\n')
		len--;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		{
			char *line = xstrndup(text + start, i - start);

			for (char *c = line; *c != '\0'; c++)
				if (*c == '\t' || *c == '\r')
					*c = ' ';
				else if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			push(l, line);
		}
		start = i + 1;
	}
}

void
lines_addf(struct lines *l, const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	/* an empty text is one empty line */
	lines_add(l, b.len > 0 ? (const char *)b.data : "", b.len);
	buf_free(&b);
}

void
lines_clear(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	l->n = 0;
}

void
lines_free(struct lines *l)
{
	lines_clear(l);
	free(l->v);
	l->v = NULL;
	l->cap = 0;
}

/* Does s contain pat, ignoring ASCII case? */
static int
contains_nocase(const char *s, const char *pat)
{
	size_t n = strlen(pat);

	for (; *s != '\0'; s++) {
		size_t i = 0;

		while (i < n && s[i] != '\0' &&
		    tolower((unsigned char)s[i]) ==
		    tolower((unsigned char)pat[i]))
			i++;
		if (i == n)
			return 1;
	}
	return 0;
}

size_t
lines_find(const struct lines *l, const char *pat, size_t from)
{
	if (pat == NULL || *pat == '\0' || l->n == 0)
		return 0;
	for (size_t k = 0; k < l->n; k++) {
		size_t i = (from + k) % l->n;

		if (contains_nocase(l->v[i], pat))
			return i + 1;
	}
	return 0;
}
