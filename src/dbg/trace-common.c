/*
 * What the trace formats share (trace-int.h): below trace.c, which
 * picks a format, and below each format's file, so that none of them
 * calls back into another (doc/architecture.md, "no circles"); and
 * the output buffer they all write through (trace-int.h says why).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace-int.h"

int
trace_at_boundary(const struct trace_view *v, uint32_t core)
{
	if (v->level == LEVEL_ISA || v->e == NULL ||
	    v->e->ops->at_boundary == NULL)
		return 1;
	return v->e->ops->at_boundary(v->e, core);
}

void
trace_flush(struct trace *t)
{
	if (t->olen > 0)
		(void)atomic_write(&t->af, t->obuf, t->olen);
	t->olen = 0;
}

void
trace_putu(struct trace *t, uint64_t v)
{
	char d[20];
	size_t n = sizeof d;

	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	trace_put(t, d + n, sizeof d - n);
}

void
trace_puti(struct trace *t, int32_t v)
{
	if (v < 0)
		trace_putc(t, '-');
	trace_putu(t, v < 0 ? (uint64_t)-(int64_t)v : (uint64_t)v);
}

void
trace_putf(struct trace *t, const char *fmt, ...)
{
	char small[256], *big = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		trace_put(t, small, (size_t)n);
		return;
	}
	va_start(ap, fmt);
	big = xvasprintf(fmt, ap);
	va_end(ap);
	trace_put(t, big, (size_t)n);
	free(big);
}

void
trace_json_text(struct trace *t, const char *s)
{
	while (*s != '\0') {
		size_t n = 0;
		unsigned char ch;

		/* the plain run in one piece: a label is one as a rule */
		while ((ch = (unsigned char)s[n]) >= 0x20 && ch != '"' &&
		    ch != '\\')
			n++;
		trace_put(t, s, n);
		s += n;
		if (ch == '\0')
			break;
		if (ch == '"' || ch == '\\') {
			trace_putc(t, '\\');
			trace_putc(t, (char)ch);
		} else
			trace_putf(t, "\\u%04x", ch);
		s++;
	}
}
