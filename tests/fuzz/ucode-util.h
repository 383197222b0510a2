/*
 * Checks shared by the micro-level targets: a symbol table survives its
 * file format (write -> parse -> write gives the same bytes and the same
 * entries).
 */
#ifndef MICDB_FUZZ_UCODE_UTIL_H
#define MICDB_FUZZ_UCODE_UTIL_H

#include "mal.h"
#include "fuzz.h"

static inline int
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

static inline void
check_syms_round_trip(const struct mal_syms *syms)
{
	struct buf a = { 0 }, b = { 0 };
	struct mal_syms q;
	char *cause = NULL;

	mal_syms_write(syms, &a);
	memset(&q, 0, sizeof q);
	if (mal_syms_parse(&q, "fuzz.sym", (const char *)a.data, a.len,
	    &cause) != 0)
		fuzz_fail("written symbols do not parse: %s\n%.*s", cause,
		    (int)a.len, (const char *)a.data);
	fuzz_check(q.n == syms->n, "symbol count %zu became %zu", syms->n,
	    q.n);
	fuzz_check(q.main1 == syms->main1, "main1 changed");
	for (size_t i = 0; i < q.n; i++) {
		fuzz_check(q.sym[i].addr == syms->sym[i].addr &&
		    q.sym[i].line == syms->sym[i].line &&
		    q.sym[i].is_default == syms->sym[i].is_default &&
		    same_str(q.sym[i].label, syms->sym[i].label) &&
		    same_str(q.sym[i].text, syms->sym[i].text),
		    "symbol %zu (0x%03x) changed in the round trip", i,
		    syms->sym[i].addr);
	}
	mal_syms_write(&q, &b);
	fuzz_check(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
	    "symbol file differs when written again");
	mal_syms_free(&q);
	buf_free(&a);
	buf_free(&b);
}

#endif
