/*
 * What the trace formats share (trace-int.h): below trace.c, which
 * picks a format, and below each format's file, so that none of them
 * calls back into another (doc/architecture.md, "no circles").
 */
#include <stdio.h>

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
trace_json_text(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
}
