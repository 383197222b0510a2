/*
 * Local and global names from the .jas source (see dsym.h).  Lines are
 * split into words at blanks and at the punctuation of method headers;
 * comments and quoted text are dropped first, so a "//" inside #print
 * "..." does not cut a line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dis.h"
#include "dsym.h"
#include "ijvm.h"
#include "places.h"
#include "util.h"

#define MAXWORDS 64

/* Split one line (len bytes) into at most MAXWORDS words (copies). */
static size_t
split(const char *s, size_t len, char **words)
{
	size_t n = 0, i = 0;

	while (i < len) {
		size_t start;

		if (s[i] == '/' && i + 1 < len && s[i + 1] == '/')
			break;
		if (s[i] == '"' || s[i] == '\'') {
			char q = s[i++];

			while (i < len && s[i] != q)
				i += s[i] == '\\' ? 2 : 1;
			i++;
			continue;
		}
		if (strchr(" \t\r(),:", s[i]) != NULL) {
			i++;
			continue;
		}
		start = i;
		while (i < len && strchr(" \t\r(),:\"'", s[i]) == NULL &&
		    !(s[i] == '/' && i + 1 < len && s[i + 1] == '/'))
			i++;
		if (n < MAXWORDS)
			words[n++] = xstrndup(s + start, i - start);
	}
	return n;
}

static struct dsym_method *
new_method(struct dsym *d, const char *name)
{
	struct dsym_method *m;

	d->methods = xreallocarray(d->methods, d->nmethods + 1,
	    sizeof *d->methods);
	m = &d->methods[d->nmethods++];
	memset(m, 0, sizeof *m);
	m->name = xstrdup(name);
	return m;
}

static void
add_local(struct dsym_method *m, const char *name)
{
	m->locals = xreallocarray(m->locals, m->nlocals + 1,
	    sizeof *m->locals);
	m->locals[m->nlocals++] = name ? xstrdup(name) : NULL;
}

void
dsym_load(struct dsym *d, const struct program *prog)
{
	enum { TOP, CONSTANT, GLOBAL, METHOD, VAR } state = TOP;
	struct dsym_method *m = NULL;
	const char *p;

	memset(d, 0, sizeof *d);
	if (prog->source == NULL)
		return;
	for (p = prog->source; *p != '\0';) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *w[MAXWORDS];
		size_t n = split(p, len, w), i = 0;

		p += len + (eol != NULL);
		if (n == 0)
			continue;
		if (strcasecmp(w[0], ".global") == 0)
			state = GLOBAL, i = 1;
		else if (strcasecmp(w[0], ".constant") == 0)
			state = CONSTANT, i = n;
		else if (strcasecmp(w[0], ".end-global") == 0 ||
		    strcasecmp(w[0], ".end-constant") == 0 ||
		    strcasecmp(w[0], ".end-main") == 0 ||
		    strcasecmp(w[0], ".end-method") == 0)
			state = TOP, i = n;
		else if (strcasecmp(w[0], ".main") == 0) {
			m = new_method(d, "main");
			state = METHOD, i = n;
		} else if (strcasecmp(w[0], ".method") == 0 && n >= 2) {
			m = new_method(d, w[1]);
			add_local(m, NULL);	/* OBJREF, the link pointer */
			for (i = 2; i < n; i++, m->nparams++)
				add_local(m, w[i]);
			state = METHOD;
		} else if (strcasecmp(w[0], ".var") == 0 && m != NULL)
			state = VAR, i = 1;
		else if (strcasecmp(w[0], ".end-var") == 0 && m != NULL)
			state = METHOD, i = n;
		if (state == CONSTANT && i == 0) {
			/* NAME VALUE: one constant a line */
			d->constants = xreallocarray(d->constants,
			    d->nconstants + 1, sizeof *d->constants);
			d->constants[d->nconstants++] = xstrdup(w[0]);
			i = n;
		}
		for (; i < n; i++) {
			if (state == GLOBAL) {
				d->globals = xreallocarray(d->globals,
				    d->nglobals + 1, sizeof *d->globals);
				d->globals[d->nglobals++] = xstrdup(w[i]);
			} else if (state == VAR)
				add_local(m, w[i]);
		}
		for (i = 0; i < n; i++)
			free(w[i]);
	}
}

void
dsym_free(struct dsym *d)
{
	for (size_t i = 0; i < d->nmethods; i++) {
		for (uint32_t k = 0; k < d->methods[i].nlocals; k++)
			free(d->methods[i].locals[k]);
		free(d->methods[i].locals);
		free(d->methods[i].name);
	}
	for (size_t i = 0; i < d->nglobals; i++)
		free(d->globals[i]);
	for (size_t i = 0; i < d->nconstants; i++)
		free(d->constants[i]);
	free(d->methods);
	free(d->globals);
	free(d->constants);
	memset(d, 0, sizeof *d);
}

const struct dsym_method *
dsym_method(const struct dsym *d, const char *name)
{
	for (size_t i = 0; i < d->nmethods; i++)
		if (strcmp(d->methods[i].name, name) == 0)
			return &d->methods[i];
	return NULL;
}

int
dsym_local(const struct dsym_method *m, const char *name)
{
	if (m == NULL)
		return -1;
	for (uint32_t i = 0; i < m->nlocals; i++)
		if (m->locals[i] != NULL && strcmp(m->locals[i], name) == 0)
			return (int)i;
	return -1;
}

const char *
dsym_local_name(const struct dsym_method *m, uint32_t idx)
{
	return m != NULL && idx < m->nlocals ? m->locals[idx] : NULL;
}

int
dsym_global(const struct dsym *d, const char *name)
{
	for (size_t i = 0; i < d->nglobals; i++)
		if (strcmp(d->globals[i], name) == 0)
			return (int)i;
	return -1;
}

const char *
dsym_constant_name(const struct dsym *d, uint32_t idx)
{
	return idx < d->nconstants ? d->constants[idx] : NULL;
}

/* Line number line of src (1-based): its start and length, or NULL. */
static const char *
source_line(const char *src, uint32_t line, size_t *len)
{
	const char *eol;

	for (uint32_t l = 1; l < line; l++)
		if ((src = strchr(src, '\n')) == NULL)
			return NULL;
		else
			src++;
	eol = strchr(src, '\n');
	*len = eol ? (size_t)(eol - src) : strlen(src);
	return src;
}

int
dsym_macro_at(const struct program *prog, uint32_t addr, uint32_t *first,
    uint32_t *end, char *text, size_t size)
{
	const char *s, *q;
	size_t len, i, lo, hi, n;
	uint32_t line;

	if (prog->source == NULL || (line = program_line_at(prog, addr)) == 0 ||
	    (s = source_line(prog->source, line, &len)) == NULL)
		return 0;
	/* skip a "label:" and blanks: the directive must start the rest */
	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	q = memchr(s, ':', len);
	if (q != NULL && memchr(s, '#', (size_t)(q - s)) == NULL &&
	    memchr(s, '"', (size_t)(q - s)) == NULL) {
		len -= (size_t)(q + 1 - s);
		s = q + 1;
		while (len > 0 && (*s == ' ' || *s == '\t'))
			s++, len--;
	}
	if (len < 6 || strncasecmp(s, "#print", 6) != 0)
		return 0;
	/* the end of the string: a comment may follow it */
	for (i = 6; i < len && s[i] != '"'; i++)
		;
	for (i++; i < len && s[i] != '"'; i += s[i] == '\\' ? 2 : 1)
		;
	n = i < len ? i + 1 : len;
	snprintf(text, size, "%.*s", (int)n, s);
	/* the instructions of that line around addr (the line table is
	 * sorted by address) */
	for (i = 0; i < prog->nlines && prog->lines[i].addr < addr; i++)
		;
	if (i == prog->nlines || prog->lines[i].addr != addr)
		return 0;
	for (lo = i; lo > 0 && prog->lines[lo - 1].line == line; lo--)
		;
	for (hi = i; hi + 1 < prog->nlines && prog->lines[hi + 1].line == line;
	    hi++)
		;
	*first = prog->lines[lo].addr;
	*end = hi + 1 < prog->nlines ? prog->lines[hi + 1].addr :
	    prog->text_size;
	return 1;
}

int
dsym_insn(const struct program *p, const struct dsym *d, int32_t pc,
    char *text, size_t size)
{
	const char *name = NULL, *num, *mname;
	uint32_t a, idx;
	int n, wide;
	uint8_t op;

	if (pc < 0 || (n = dis_insn(p, NULL, (uint32_t)pc, text, size)) <= 0) {
		snprintf(text, size, "(outside the text)");
		return 0;
	}
	if (d == NULL)
		return n;
	a = (uint32_t)pc;
	wide = p->text[a] == OP_WIDE;
	if (wide && a + 1 < p->text_size)
		a++;
	op = p->text[a];
	/* the index operand must lie inside the text: two bytes, or one
	 * for a local without WIDE (a cut instruction is a .byte, which
	 * has no number to name) */
	if (a + (op == OP_ILOAD || op == OP_ISTORE || op == OP_IINC ?
	    1u + (uint32_t)wide : 2u) >= p->text_size)
		return n;
	if (op == OP_GETSTATIC || op == OP_PUTSTATIC || op == OP_ATOMICADD) {
		idx = get_be16(p->text + a + 1);
		name = idx < d->nglobals ? d->globals[idx] : NULL;
	} else if (op == OP_LDC_W) {
		/* LDC_W 0 -> LDC_W OBJREF: the .constant name */
		idx = get_be16(p->text + a + 1);
		name = dsym_constant_name(d, idx);
	} else if (op == OP_ILOAD || op == OP_ISTORE || op == OP_IINC) {
		idx = wide ? get_be16(p->text + a + 1) : p->text[a + 1];
		mname = places_method_name(p, pc);
		name = mname ? dsym_local_name(dsym_method(d, mname), idx) :
		    NULL;
	}
	if (name == NULL || (num = strchr(text, ' ')) == NULL)
		return n;
	if (wide && (num = strchr(num + 1, ' ')) == NULL)
		return n;
	{
		/* replace the number after the mnemonic by the name */
		char head[64], rest[128];
		const char *after = strchr(num + 1, ' ');

		snprintf(head, sizeof head, "%.*s", (int)(num - text), text);
		snprintf(rest, sizeof rest, "%s", after ? after : "");
		snprintf(text, size, "%s %s%s", head, name, rest);
	}
	return n;
}
