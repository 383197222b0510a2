/*
 * Fuzz target: the expression language (expr.c) and core sets
 * (coreset.c) on their own, faster than through a session.  The first
 * byte picks the language.  Expressions: a rejection says where, what
 * parses evaluates against an environment (or says why not), and a
 * plain name is reported as one.  Core sets: a rejection says why, and
 * a set printed as ranges parses back to the same set.
 */
#include "coreset.h"
#include "expr.h"
#include "fuzz.h"

static int
env_name(void *arg, const char *name, int dollar, int32_t *val,
    char **cause)
{
	(void)arg;
	if (strcmp(name, "bad") == 0) {
		*cause = strdup("no symbol \"bad\" in current context");
		return -1;
	}
	*val = (int32_t)(strlen(name) * 7u + (unsigned)dollar);
	return 0;
}

static int
env_indexed(void *arg, const char *base, int32_t index, int32_t *val,
    char **cause)
{
	(void)arg;
	if (index < 0 || index > 15) {
		*cause = strdup("index out of range");
		return -1;
	}
	*val = index * (int32_t)strlen(base);
	return 0;
}

static int
walk(void *arg, const char *name, int dollar, char **cause)
{
	(void)dollar;
	(void)cause;
	++*(int *)arg;
	fuzz_check(name != NULL, "a NULL name");
	return 0;
}

static void
fuzz_expr(const char *text)
{
	struct expr *e;
	struct expr_env env = { NULL, env_name, env_indexed };
	char *cause = NULL;
	int32_t v;
	int names = 0, dollar;

	if (expr_parse(text, &e, &cause) != 0) {
		fuzz_check(cause != NULL && cause[0] != '\0',
		    "'%s' rejected silently", text);
		free(cause);
		return;
	}
	if (expr_eval(e, &env, &v, &cause) != 0) {
		fuzz_check(cause != NULL && cause[0] != '\0',
		    "'%s' failed silently", text);
		free(cause);
		cause = NULL;
	}
	fuzz_check(expr_walk_names(e, walk, &names, &cause) == 0,
	    "walk failed");
	if (expr_plain_name(e, &dollar) != NULL)
		fuzz_check(names == 1, "a plain name with %d names", names);
	expr_free(e);
}

static void
fuzz_coreset(const char *text, uint32_t ncores)
{
	uint8_t *bits, *again;
	char *cause = NULL, *q;
	struct buf b = { 0 };
	uint32_t n;

	if (coreset_parse(text, ncores, &bits, &cause) != 0) {
		fuzz_check(cause != NULL && cause[0] != '\0',
		    "'%s' rejected silently", text);
		free(cause);
		return;
	}
	n = coreset_count(bits, ncores);
	if (n > 0) {
		coreset_format_bits(&b, bits, ncores, SIZE_MAX);
		buf_put_u8(&b, 0);
		/* "8-15, 17" -> "8-15,17" */
		for (char *r = q = (char *)b.data; ; r++) {
			if (*r != ' ')
				*q++ = *r;
			if (*r == '\0')
				break;
		}
		if (coreset_parse((char *)b.data, ncores, &again, &cause) != 0)
			fuzz_fail("'%s' printed as '%s', which does not parse: "
			    "%s", text, (char *)b.data, cause);
		fuzz_check(memcmp(bits, again, ncores) == 0,
		    "'%s' printed as '%s', which is another set", text,
		    (char *)b.data);
		free(again);
	}
	buf_free(&b);
	free(bits);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 2 || size > 2048)
		return 0;
	text = fuzz_cstring(data + 2, size - 2);
	if (data[0] & 1)
		fuzz_coreset(text, 1 + (uint32_t)data[1] * 4);
	else
		fuzz_expr(text);
	free(text);
	return 0;
}
