/*
 * What the trace formats share (trace-int.h): below trace.c, which
 * picks a format, and below each format's file, so that none of them
 * calls back into another (doc/architecture.md, "no circles"); and
 * the output buffer they all write through (trace-int.h says why).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbg.h"
#include "micro-sim.h"
#include "trace-int.h"
#include "tracebuf.h"

int
trace_at_boundary(const struct trace_view *v, uint32_t core)
{
	if (v->level == LEVEL_ISA)
		return 1;
	/* a step from the engine's records: the level state is the shadow
	 * machine's (trace.c), not the engine's after the run */
	if (v->counts != NULL && v->level_state != NULL)
		return micro_model_of(v->level)->at_boundary(v->level_state,
		    v->m, core);
	if (v->e == NULL ||
	    v->e->ops->at_boundary == NULL)
		return 1;
	return v->e->ops->at_boundary(v->e, core);
}

void
trace_warps_begin(const struct trace_view *v, struct trace_warps *tw)
{
	memset(tw, 0, sizeof *tw);
	if (v->counts != NULL)
		tw->have_k = 1;
	else if (v->e != NULL && v->e->ops->warps != NULL) {
		tw->rec = v->e->ops->warps(v->e, &tw->nrec);
		tw->have_k = tw->rec != NULL;
	}
}

int
trace_warp_machine(const struct trace_view *v, const struct trace_warps *tw,
    uint32_t i, uint32_t *nactive, uint32_t *npaths, uint32_t *k)
{
	struct warp_view w;

	div_warp_counts(v->m, i, trace_by_mpc(v), &w);
	*nactive = w.nactive;
	*npaths = w.npaths;
	*k = tw->rec != NULL && i < tw->nrec ? tw->rec[i].last_k : 0;
	return tw->rec != NULL && i < tw->nrec;
}

void
trace_warp_sums(const struct trace_view *v, const struct trace_warps *tw,
    struct trace_warp_sums *s)
{
	if (v->counts != NULL) {
		*s = v->counts->warps;
		return;
	}
	*s = trace_sums_empty;
	for (uint32_t i = 0, n = machine_nwarps(v->m); i < n; i++) {
		uint32_t na, np, k;

		(void)trace_warp_machine(v, tw, i, &na, &np, &k);
		trace_sums_add(s, na, np);
	}
}

void
trace_status(const struct trace_view *v, struct ref_summary *sum)
{
	if (v->counts != NULL)
		*sum = v->counts->sum;
	else
		ref_count(v->m, sum);
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
