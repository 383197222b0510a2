/*
 * One builder for every title row and the status bar (doc/debugger.md
 * section 2, "Titles"): a title is a list of fields, each with a
 * priority, and what does not fit the width drops whole fields, the
 * least important first (of equal ones the rightmost), so that a narrow
 * pane shows fewer facts rather than a wrong one: a number cut short
 * ("line 2" for line 20) is a wrong number.  Only when the most
 * important field alone is wider than the pane is it cut, at a blank
 * and never inside a word, and marked with "..." (or, when not even
 * that fits, it is left out).
 *
 * Pure (no curses), so the unit test checks every width.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "title.h"

#define TITLE_SEP "  "      /* between fields */

void
title_init(struct title *tt)
{
	tt->n = 0;
}

void
title_add(struct title *tt, int prio, const char *fmt, ...)
{
	va_list ap;

	if (tt->n >= TITLE_FIELDS)
		return;
	va_start(ap, fmt);
	vsnprintf(tt->f[tt->n].text, sizeof tt->f[tt->n].text, fmt, ap);
	va_end(ap);
	if (tt->f[tt->n].text[0] == '\0')
		return;
	tt->f[tt->n].prio = prio;
	tt->f[tt->n].alt[0] = '\0';
	tt->n++;
}

void
title_alt(struct title *tt, const char *fmt, ...)
{
	va_list ap;

	if (tt->n == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(tt->f[tt->n - 1].alt, sizeof tt->f[tt->n - 1].alt, fmt,
	    ap);
	va_end(ap);
}

/* The longest prefix of s, cut at a blank, that fits in room columns
 * with "..." after it; 0 if none. */
static size_t
cut_at_blank(const char *s, size_t room)
{
	size_t best = 0;

	if (room <= 3)
		return 0;
	for (size_t i = 1; s[i] != '\0' && i <= room - 3; i++)
		if (s[i] == ' ' && s[i - 1] != ' ')
			best = i;
	return best;
}

size_t
title_clip(const char *s, int width, char *out, size_t size)
{
	size_t len = strlen(s), cut;

	if (size == 0)
		return 0;
	out[0] = '\0';
	if (width <= 0)
		return 0;
	if (len <= (size_t)width) {
		snprintf(out, size, "%s", s);
		return strlen(out);
	}
	if ((cut = cut_at_blank(s, (size_t)width)) == 0)
		return 0;
	snprintf(out, size, "%.*s...", (int)cut, s);
	return strlen(out);
}

/* Is field i the last one kept? */
static int
is_last(const int *keep, int n, int i)
{
	for (int k = i + 1; k < n; k++)
		if (keep[k])
			return 0;
	return 1;
}

size_t
title_fit(const struct title *tt, int width, char *out, size_t size)
{
	int keep[TITLE_FIELDS];     /* 0: dropped, 1: text, 2: alt */
	size_t need = 0, n = 0, w;
	int nkeep = tt->n;

	if (size == 0)
		return 0;
	out[0] = '\0';
	if (width <= 0 || tt->n == 0)
		return 0;
	w = (size_t)width;
	for (int i = 0; i < tt->n; i++) {
		keep[i] = 1;
		need += strlen(tt->f[i].text) + (i ? strlen(TITLE_SEP) : 0);
	}
	while (need > w) {
		int drop = -1;

		for (int i = 0; i < tt->n; i++)
			if (keep[i] && (drop < 0 ||
			    tt->f[i].prio <= tt->f[drop].prio))
				drop = i;
		if (nkeep == 1 && (keep[drop] == 2 ||
		    tt->f[drop].alt[0] == '\0'))
			break;		/* the last field: cut below */
		if (tt->f[drop].prio >= TP_HIGH && is_last(keep, tt->n, drop) &&
		    (keep[drop] == 2 || tt->f[drop].alt[0] == '\0')) {
			/* an important field at the end: its first words
			 * rather than nothing (cut below) */
			size_t len = strlen(keep[drop] == 2 ?
			    tt->f[drop].alt : tt->f[drop].text);
			size_t room = w + len > need ? w + len - need : 0;

			if (cut_at_blank(keep[drop] == 2 ? tt->f[drop].alt :
			    tt->f[drop].text, room) > 0)
				break;
		}
		if (keep[drop] == 1 && tt->f[drop].alt[0] != '\0') {
			/* the short form first: fewer words, same facts */
			need -= strlen(tt->f[drop].text);
			need += strlen(tt->f[drop].alt);
			keep[drop] = 2;
			continue;
		}
		need -= strlen(keep[drop] == 2 ? tt->f[drop].alt :
		    tt->f[drop].text);
		keep[drop] = 0;
		nkeep--;
		/* the separator goes with the field (or, for the first one
		 * kept, with the field after it) */
		need -= strlen(TITLE_SEP);
	}
	for (int i = 0; i < tt->n; i++) {
		const char *s = keep[i] == 2 ? tt->f[i].alt : tt->f[i].text;
		size_t len = strlen(s);

		if (!keep[i])
			continue;
		if (n > 0)
			n += (size_t)snprintf(out + n, n < size ? size - n : 0,
			    "%s", TITLE_SEP);
		if (n >= size)
			break;
		if (len > w - (n < w ? n : w)) {
			/* the last field left, alone too wide */
			n += title_clip(s, (int)(w - (n < w ? n : w)), out + n,
			    size - n);
			break;
		}
		n += (size_t)snprintf(out + n, size - n, "%s", s);
		if (n >= size)
			break;
	}
	if (n >= size)
		n = size - 1;
	while (n > 0 && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return n;
}
