/*
 * The IJVM assembler: .jas text (doc/ijvm.md section 4, doc/manycore.md section
 * 2) to a struct program laid out byte for byte as goJASM lays it out.
 *
 * One pass over the lines emits the text directly.  Every instruction's
 * size is known when its line is read (locals are declared before the
 * code, and a local index > 255 decides an automatic WIDE there and
 * then), so addresses are final at once; names that may be defined later
 * (labels, methods) or that live in another namespace (constants,
 * globals) leave a fixup, a 16-bit hole resolved after the last line.
 *
 * Sections form a small state machine (top level, .constant, .global, a
 * method, its .var).  A directive that cannot appear in the open section
 * reports the missing end, closes the section and is read again at the
 * outer level, so one slip does not hide the rest of the file.  Any line
 * that fails is skipped whole: every error of the file is reported, each
 * at its token, and nothing is produced when there was one.
 *
 * Names live in one hash table keyed by (namespace, scope, name): the
 * constant pool namespace (constants and methods, as in goJASM), globals,
 * and per-method locals and labels.
 *
 * Ownership: the assembler state owns everything it allocates and frees
 * it before returning; only a successful run hands a fresh program to the
 * caller.  Tokens point into the caller's source, which outlives the run.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "memmap.h"
#include "util.h"

/* Past this many, further errors would only repeat the same mistake
 * (typically a file that is not assembly at all). */
#define ASM_MAX_ERRORS	1000
/* Names compared for all "did you mean" suggestions of one run. */
#define ASM_SUGGEST_BUDGET 1000000
/* Room for a token shown in a message: 40 bytes, each maybe \xHH, "...". */
#define SHOW_SIZE	176
#define SUGGEST_SIZE	96

enum tok_type {
	T_WORD,		/* name or mnemonic */
	T_DIR,		/* .directive */
	T_MACRO,	/* #print */
	T_NUM,		/* number, possibly malformed */
	T_CHAR,		/* 'c', quotes included */
	T_STR,		/* "text", quotes included */
	T_PUNCT,	/* ( ) , : */
};

struct tok {
	enum tok_type	 type;
	const char	*p;	/* into the source */
	size_t		 len;
	uint32_t	 col;	/* 1-based byte column */
};

enum ns { NS_CPOOL, NS_GLOBAL, NS_LOCAL, NS_LABEL };
enum sym_kind { SK_CONST, SK_METHOD, SK_OTHER };

struct sym {
	char		*name;
	size_t		 len;
	uint8_t		 ns;	/* enum ns */
	uint8_t		 kind;	/* enum sym_kind */
	uint32_t	 scope;	/* method index for locals and labels, else 0 */
	uint32_t	 value;	/* constant ordinal, method index, global or
				   local index, or label address */
	uint32_t	 line;	/* where it was defined */
};

struct symtab {
	struct sym	*v;	/* in definition order */
	size_t		 n;
	size_t		 cap;
	uint32_t	*slot;	/* index into v plus one; 0 is empty */
	size_t		 nslot;	/* power of two, at least twice n */
};

struct method {
	const char	*name;	/* owned by the symbol table; NULL if unusable */
	uint32_t	 addr;	/* header address (main: its first byte, 0) */
	uint32_t	 nargs;	/* parameters plus OBJREF; 0 for main */
	uint32_t	 nlocals; /* next free local index */
	uint32_t	 nvars;	/* .var variables, the header's second word */
	uint32_t	 line;	/* opening directive, for "missing .end-..." */
	uint32_t	 col;
	int		 is_main;
	uint32_t	 ordinal; /* constant-pool slot among the methods */
	int		 had_insn; /* .var may only come before these */
	int		 had_var;
};

/* A 16-bit operand named by something resolved after the last line. */
struct fixup {
	uint8_t		 kind;	/* enum ijvm_opk: LABEL, INDEX, METHOD, GLOBAL */
	uint32_t	 at;	/* text offset of the operand */
	uint32_t	 insn;	/* address of the instruction's opcode byte */
	uint32_t	 method;
	struct tok	 name;
	uint32_t	 line;
	const char	*mnemonic;
};

struct asm_err {
	uint32_t	 line;
	uint32_t	 col;
	size_t		 seq;	/* report order, to sort stably */
	char		*msg;
};

enum state { S_TOP, S_CONSTANT, S_GLOBAL, S_METHOD, S_VAR };

enum directive {
	D_NONE, D_UNKNOWN, D_CONSTANT, D_END_CONSTANT, D_GLOBAL, D_END_GLOBAL,
	D_MAIN, D_END_MAIN, D_METHOD, D_END_METHOD, D_VAR, D_END_VAR,
};

static const struct {
	const char	*name;
	enum directive	 d;
} directives[] = {
	{ ".constant", D_CONSTANT }, { ".end-constant", D_END_CONSTANT },
	{ ".global", D_GLOBAL },     { ".end-global", D_END_GLOBAL },
	{ ".main", D_MAIN },         { ".end-main", D_END_MAIN },
	{ ".method", D_METHOD },     { ".end-method", D_END_METHOD },
	{ ".var", D_VAR },           { ".end-var", D_END_VAR },
};

struct assembler {
	const char	*path;
	const struct ijvm_opset *set;
	struct ijvm_opset builtin;	/* the set when the caller gave none */

	uint32_t	 line;		/* current line, 1-based */
	struct tok	*toks;		/* tokens of the current line */
	size_t		 ntoks;
	size_t		 captoks;

	enum state	 state;
	uint32_t	 sec_line;	/* directive that opened the .constant, */
	uint32_t	 sec_col;	/* .global or .var section */
	int		 seen_constant;
	int		 seen_global;
	int		 seen_main;
	int		 seen_method;
	int		 wide;		/* an explicit WIDE awaits its insn */
	size_t		 suggest_budget; /* edit distances left to try */

	struct symtab	 syms;
	struct method	*methods;	/* in definition order; cur is last */
	size_t		 nmethods;
	size_t		 capmethods;
	uint32_t	 nslots;	/* methods that take a cp slot */
	int32_t		*consts;	/* declared constant values */
	size_t		 nconsts;
	size_t		 capconsts;
	uint32_t	 nglobals;

	struct buf	 text;
	struct fixup	*fix;
	size_t		 nfix;
	size_t		 capfix;
	struct line_info *lines;
	size_t		 nlines;
	size_t		 caplines;

	struct asm_err	*errs;
	size_t		 nerrs;
	size_t		 caperrs;
	size_t		 dropped;	/* errors past ASM_MAX_ERRORS */
};

static void	dispatch(struct assembler *);

/* --- small helpers ------------------------------------------------------ */

static void *
grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	return xreallocarray(p, *cap, size);
}

static int
is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_wordc(int c)
{
	return is_alpha(c) || is_digit(c) || c == '.' || c == '-';
}

static int
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int
to_upper(int c)
{
	return (c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c;
}

static int
to_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int
hexval(int c)
{
	if (is_digit(c))
		return c - '0';
	c = to_lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int
tok_is(const struct tok *t, const char *s)
{
	return t->len == strlen(s) && memcmp(t->p, s, t->len) == 0;
}

static int
is_punct(const struct tok *t, char c)
{
	return t->type == T_PUNCT && t->p[0] == c;
}

/*
 * A token as it may appear in a message: the source is untrusted bytes,
 * so control and non-ASCII bytes are escaped and long tokens cut.
 */
static const char *
show(const struct tok *t, char *out)
{
	return show_bytes(t->p, t->len, out, SHOW_SIZE);
}

/* " (did you mean 'x'?)" or "", for the end of a message. */
static const char *
did_you_mean(const char *cand, char *out)
{
	if (cand == NULL)
		out[0] = '\0';
	else
		snprintf(out, SUGGEST_SIZE, " (did you mean '%s'?)", cand);
	return out;
}

/* Near enough to be a typo, and not a guess at a one-letter name. */
static int
close_enough(int d, const char *name)
{
	return d <= 2 && (size_t)d < strlen(name);
}

/* --- errors ------------------------------------------------------------- */

static void PRINTFLIKE(4, 5)
asm_error(struct assembler *a, uint32_t line, uint32_t col,
    const char *fmt, ...)
{
	struct asm_err *e;
	va_list ap;

	if (a->nerrs >= ASM_MAX_ERRORS) {
		a->dropped++;
		return;
	}
	a->errs = grow(a->errs, &a->caperrs, a->nerrs, sizeof *a->errs);
	e = &a->errs[a->nerrs];
	e->line = line;
	e->col = col;
	e->seq = a->nerrs++;
	va_start(ap, fmt);
	e->msg = xvasprintf(fmt, ap);
	va_end(ap);
}

#define tok_error(a, t, ...) asm_error((a), (a)->line, (t)->col, __VA_ARGS__)

static int
err_cmp(const void *va, const void *vb)
{
	const struct asm_err *ea = va, *eb = vb;

	if (ea->line != eb->line)
		return ea->line < eb->line ? -1 : 1;
	if (ea->col != eb->col)
		return ea->col < eb->col ? -1 : 1;
	return ea->seq < eb->seq ? -1 : (ea->seq > eb->seq);
}

/* Hand the errors over sorted by position, as compilers list them. */
static void
errors_out(struct assembler *a, struct asm_errors *errs)
{
	size_t i, n = a->nerrs + (a->dropped != 0);

	qsort(a->errs, a->nerrs, sizeof *a->errs, err_cmp);
	errs->msg = xreallocarray(NULL, n, sizeof *errs->msg);
	errs->count = n;
	for (i = 0; i < a->nerrs; i++) {
		errs->msg[i] = xasprintf("%s:%u:%u: %s", a->path,
		    a->errs[i].line, a->errs[i].col, a->errs[i].msg);
	}
	if (a->dropped != 0) {
		errs->msg[i] = xasprintf("%s:%u:1: too many errors (%zu more "
		    "not shown), stopping", a->path, a->line, a->dropped);
	}
}

void
asm_errors_free(struct asm_errors *errs)
{
	size_t i;

	if (errs == NULL)
		return;
	for (i = 0; i < errs->count; i++)
		free(errs->msg[i]);
	free(errs->msg);
	errs->msg = NULL;
	errs->count = 0;
}

/* --- symbols ------------------------------------------------------------ */

static uint32_t
sym_hash(int ns, uint32_t scope, const char *p, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	h = (h ^ (uint32_t)ns) * 16777619u;
	h = (h ^ scope) * 16777619u;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 16777619u;
	return h;
}

static void
sym_insert_slot(struct symtab *t, size_t idx)
{
	const struct sym *s = &t->v[idx];
	size_t i = sym_hash(s->ns, s->scope, s->name, s->len) & (t->nslot - 1);

	while (t->slot[i] != 0)
		i = (i + 1) & (t->nslot - 1);
	t->slot[i] = (uint32_t)(idx + 1);
}

static struct sym *
sym_find(struct symtab *t, int ns, uint32_t scope, const char *p, size_t len)
{
	size_t i;
	struct sym *s;

	if (t->nslot == 0)
		return NULL;
	i = sym_hash(ns, scope, p, len) & (t->nslot - 1);
	for (; t->slot[i] != 0; i = (i + 1) & (t->nslot - 1)) {
		s = &t->v[t->slot[i] - 1];
		if (s->ns == ns && s->scope == scope && s->len == len &&
		    memcmp(s->name, p, len) == 0)
			return s;
	}
	return NULL;
}

/* The caller has checked that the name is new.  Pointers into the table
 * die at the next add. */
static struct sym *
sym_add(struct symtab *t, int ns, uint32_t scope, const struct tok *name,
    int kind, uint32_t value, uint32_t line)
{
	struct sym *s;
	size_t i;

	if ((t->n + 1) * 2 > t->nslot) {
		free(t->slot);
		t->nslot = t->nslot ? t->nslot * 2 : 64;
		t->slot = xcalloc(t->nslot, sizeof *t->slot);
		for (i = 0; i < t->n; i++)
			sym_insert_slot(t, i);
	}
	t->v = grow(t->v, &t->cap, t->n, sizeof *t->v);
	s = &t->v[t->n];
	s->name = xstrndup(name->p, name->len);
	s->len = name->len;
	s->ns = (uint8_t)ns;
	s->kind = (uint8_t)kind;
	s->scope = scope;
	s->value = value;
	s->line = line;
	sym_insert_slot(t, t->n++);
	return s;
}

static void
sym_free(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	free(t->slot);
}

/* cand becomes *best when it is nearer to want than *bestd edits and
 * near enough to suggest (close_enough). */
static void
nearer(const char *want, const char *cand, const char **best, int *bestd)
{
	int d = edit_distance(want, cand);

	if (d < *bestd && close_enough(d, want)) {
		*best = cand;
		*bestd = d;
	}
}

/*
 * The nearest defined name in a namespace, for "did you mean".  The
 * search costs one edit distance per name, so it has a budget: a file
 * with a million labels and a thousand typos must still assemble fast.
 */
static const char *
sym_suggest(struct assembler *a, int ns, uint32_t scope,
    const struct tok *name)
{
	const struct symtab *t = &a->syms;
	const char *best = NULL;
	int bestd = 3;
	char *want;
	size_t i;

	if (a->nerrs >= ASM_MAX_ERRORS)
		return NULL;
	want = xstrndup(name->p, name->len);
	for (i = 0; i < t->n && a->suggest_budget > 0; i++) {
		/* The length difference bounds the distance: skip cheaply. */
		if (t->v[i].ns != ns || t->v[i].scope != scope ||
		    t->v[i].len + 2 < name->len || name->len + 2 < t->v[i].len)
			continue;
		a->suggest_budget--;
		nearer(want, t->v[i].name, &best, &bestd);
	}
	free(want);
	return best;
}

static const char *
op_suggest(const struct ijvm_opset *set, const struct tok *name)
{
	char *want = xstrndup(name->p, name->len);
	const char *best = NULL;
	int bestd = 3, i;
	size_t k;

	for (k = 0; want[k] != '\0'; k++)
		want[k] = (char)to_upper((unsigned char)want[k]);
	for (i = 0; i < 256; i++) {
		if (set->present[i])
			nearer(want, set->op[i].name, &best, &bestd);
	}
	free(want);
	return best;
}

/* --- lexer -------------------------------------------------------------- */

/* End of a quoted token starting at i, or 0 if the line ends first. */
static size_t
scan_quoted(const char *s, size_t len, size_t i)
{
	char q = s[i];

	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == q)
			return i + 1;
	}
	return 0;
}

static size_t
scan_token(const char *s, size_t len, size_t i, enum tok_type *type)
{
	int c = (unsigned char)s[i];

	if (is_alpha(c) || c == '.' || c == '#') {
		*type = c == '.' ? T_DIR : c == '#' ? T_MACRO : T_WORD;
		for (i++; i < len && is_wordc((unsigned char)s[i]); i++)
			;
		return i;
	}
	if (is_digit(c) || ((c == '-' || c == '+') && i + 1 < len &&
	    is_digit((unsigned char)s[i + 1]))) {
		*type = T_NUM;
		for (i++; i < len && (is_alpha((unsigned char)s[i]) ||
		    is_digit((unsigned char)s[i])); i++)
			;
		return i;
	}
	if (c == '\'' || c == '"') {
		*type = c == '"' ? T_STR : T_CHAR;
		return scan_quoted(s, len, i);
	}
	*type = T_PUNCT;
	if (c == '(' || c == ')' || c == ',' || c == ':')
		return i + 1;
	return 0;
}

/* Split a line into a->toks; -1 (reported) on a byte no token takes. */
static int
lex(struct assembler *a, const char *s, size_t len)
{
	enum tok_type type;
	size_t i = 0, end;
	struct tok *t;
	char shown[SHOW_SIZE];

	a->ntoks = 0;
	while (i < len) {
		if (is_space((unsigned char)s[i])) {
			i++;
			continue;
		}
		if (s[i] == '/' && i + 1 < len && s[i + 1] == '/')
			break;
		if ((end = scan_token(s, len, i, &type)) == 0) {
			if (type == T_STR)
				asm_error(a, a->line, (uint32_t)(i + 1),
				    "unterminated string");
			else if (type == T_CHAR) {
				asm_error(a, a->line, (uint32_t)(i + 1),
				    "unterminated character literal");
			} else {
				asm_error(a, a->line, (uint32_t)(i + 1),
				    "unexpected character '%s'",
				    show_bytes(s + i, 1, shown, sizeof shown));
			}
			return -1;
		}
		a->toks = grow(a->toks, &a->captoks, a->ntoks, sizeof *a->toks);
		t = &a->toks[a->ntoks++];
		t->type = type;
		t->p = s + i;
		t->len = end - i;
		t->col = (uint32_t)(i + 1);
		i = end;
	}
	return 0;
}

/* --- values ------------------------------------------------------------- */

/*
 * Decode the C escapes of a quoted token's body into out.  Reports the
 * first bad escape and returns -1.
 */
static int
unescape(struct assembler *a, const struct tok *t, struct buf *out)
{
	const char *p = t->p + 1, *end = t->p + t->len - 1;
	char shown[SHOW_SIZE];
	int v, d;

	while (p < end) {
		if (*p != '\\') {
			buf_put_u8(out, (uint8_t)*p++);
			continue;
		}
		switch (p[1]) {
		case 'n':  v = '\n'; break;
		case 't':  v = '\t'; break;
		case 'r':  v = '\r'; break;
		case '0':  v = '\0'; break;
		case '\\': v = '\\'; break;
		case '"':  v = '"'; break;
		case '\'': v = '\''; break;
		case 'x':
			if (p + 2 >= end || (v = hexval((unsigned char)p[2])) < 0) {
				asm_error(a, a->line, t->col + (uint32_t)(p - t->p),
				    "invalid escape '\\x' (expected \\x and "
				    "one or two hex digits)");
				return -1;
			}
			if (p + 3 < end && (d = hexval((unsigned char)p[3])) >= 0) {
				v = v * 16 + d;
				p++;
			}
			p++;
			break;
		default:
			asm_error(a, a->line, t->col + (uint32_t)(p - t->p),
			    "unknown escape '%s' (use \\n \\t \\r \\0 \\\\ "
			    "\\\" \\' or \\xHH)", show_bytes(p, 2, shown, sizeof shown));
			return -1;
		}
		buf_put_u8(out, (uint8_t)v);
		p += 2;
	}
	return 0;
}

/*
 * Parse a number token: optional sign, then 0x hex, 0b binary, 0o or a
 * leading 0 octal, or decimal.  Huge magnitudes saturate far outside any
 * range the callers accept, so they fail the range check with the token
 * in the message.
 */
static int
parse_number(const char *p, size_t len, int64_t *out)
{
	const uint64_t limit = UINT64_C(1) << 40;
	uint64_t mag = 0;
	size_t i = 0;
	int base = 10, neg = 0, d;

	if (p[0] == '-' || p[0] == '+') {
		neg = p[0] == '-';
		i++;
	}
	if (len - i > 2 && p[i] == '0' && strchr("xXbBoO", p[i + 1]) != NULL &&
	    p[i + 1] != '\0') {
		d = to_lower((unsigned char)p[i + 1]);
		base = d == 'x' ? 16 : d == 'b' ? 2 : 8;
		i += 2;
	} else if (len - i > 1 && p[i] == '0') {
		base = 8;
		i++;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		d = hexval((unsigned char)p[i]);
		if (d < 0 || d >= base)
			return -1;
		if (mag <= limit)
			mag = mag * (uint64_t)base + (uint64_t)d;
	}
	*out = neg ? -(int64_t)mag : (int64_t)mag;
	return 0;
}

/* A number or character literal operand; -1 (reported) if malformed. */
static int
tok_value(struct assembler *a, const struct tok *t, int64_t *v)
{
	struct buf b = { 0 };
	char shown[SHOW_SIZE];
	int r = 0;

	if (t->type == T_NUM) {
		if (parse_number(t->p, t->len, v) != 0) {
			tok_error(a, t, "invalid number '%s'", show(t, shown));
			return -1;
		}
		return 0;
	}
	if (unescape(a, t, &b) != 0)
		r = -1;
	else if (b.len != 1) {
		tok_error(a, t, "invalid character literal '%s' (one "
		    "character, e.g. 'A')", show(t, shown));
		r = -1;
	} else {
		/* A character is a signed byte, as goJASM reads it. */
		*v = b.data[0] < 0x80 ? b.data[0] : b.data[0] - 256;
	}
	buf_free(&b);
	return r;
}

static int
is_value(const struct tok *t)
{
	return t->type == T_NUM || t->type == T_CHAR;
}

/* --- sections ----------------------------------------------------------- */

static enum directive
directive_of(const struct tok *t)
{
	size_t i;

	if (t->type != T_DIR)
		return D_NONE;
	for (i = 0; i < sizeof directives / sizeof directives[0]; i++) {
		if (tok_is(t, directives[i].name))
			return directives[i].d;
	}
	return D_UNKNOWN;
}

static const char *
directive_suggest(const struct tok *t)
{
	char *want = xstrndup(t->p, t->len);
	const char *best = NULL;
	int d, bestd = 3;
	size_t i;

	for (i = 0; want[i] != '\0'; i++)
		want[i] = (char)to_lower((unsigned char)want[i]);
	for (i = 0; i < sizeof directives / sizeof directives[0]; i++) {
		d = edit_distance(want, directives[i].name);
		if (d < bestd && close_enough(d, want)) {
			best = directives[i].name;
			bestd = d;
		}
	}
	free(want);
	return best;
}

/* Anything after a directive that takes no arguments is a mistake. */
static void
no_more(struct assembler *a, size_t from, const char *after)
{
	char shown[SHOW_SIZE];

	if (from < a->ntoks) {
		tok_error(a, &a->toks[from], "unexpected '%s' after %s",
		    show(&a->toks[from], shown), after);
	}
}

static struct method *
cur_method(struct assembler *a)
{
	return &a->methods[a->nmethods - 1];
}

static void
open_method(struct assembler *a, int is_main)
{
	struct method *m;

	a->methods = grow(a->methods, &a->capmethods, a->nmethods,
	    sizeof *a->methods);
	m = &a->methods[a->nmethods++];
	memset(m, 0, sizeof *m);
	m->addr = (uint32_t)a->text.len;
	m->line = a->line;
	m->col = a->toks[0].col;
	m->is_main = is_main;
	if (is_main)
		m->name = "main";
	else {
		m->ordinal = a->nslots++;
		m->nargs = m->nlocals = 1;	/* OBJREF */
		buf_put_be32(&a->text, 0);	/* header, filled in at the end */
	}
	a->wide = 0;
	a->state = S_METHOD;
}

static void
close_method(struct assembler *a)
{
	struct method *m = cur_method(a);
	uint8_t *h;

	if (!m->is_main) {
		h = a->text.data + m->addr;
		h[0] = (uint8_t)(m->nargs >> 8);
		h[1] = (uint8_t)m->nargs;
		h[2] = (uint8_t)(m->nvars >> 8);
		h[3] = (uint8_t)m->nvars;
	}
	a->state = S_TOP;
}

/* Report what the open section lacks and close it, innermost first. */
static void
close_unterminated(struct assembler *a)
{
	struct method *m;

	switch (a->state) {
	case S_VAR:
		asm_error(a, a->sec_line, a->sec_col, "missing .end-var");
		a->state = S_METHOD;
		/* FALLTHROUGH */
	case S_METHOD:
		m = cur_method(a);
		asm_error(a, m->line, m->col, m->is_main ?
		    "missing .end-main" : "missing .end-method");
		close_method(a);
		break;
	case S_CONSTANT:
		asm_error(a, a->sec_line, a->sec_col, "missing .end-constant");
		break;
	case S_GLOBAL:
		asm_error(a, a->sec_line, a->sec_col, "missing .end-global");
		break;
	case S_TOP:
		break;
	}
	a->state = S_TOP;
}

static void
add_local(struct assembler *a, const struct tok *t, int is_param)
{
	struct method *m = cur_method(a);
	uint32_t scope = (uint32_t)(a->nmethods - 1);
	char shown[SHOW_SIZE];

	if (t->type != T_WORD) {
		tok_error(a, t, "expected a %s name, got '%s'",
		    is_param ? "parameter" : "variable", show(t, shown));
		return;
	}
	if (sym_find(&a->syms, NS_LOCAL, scope, t->p, t->len) != NULL) {
		tok_error(a, t, "duplicate local '%s'", show(t, shown));
		return;
	}
	if (m->nlocals > 0xffff) {
		tok_error(a, t, "too many locals (local indices stop at 65535)");
		return;
	}
	sym_add(&a->syms, NS_LOCAL, scope, t, SK_OTHER, m->nlocals++, a->line);
	if (is_param)
		m->nargs++;
	else
		m->nvars++;
}

/* Methods share the constants' namespace (goJASM puts both in the pool). */
static void
name_method(struct assembler *a, const struct tok *t)
{
	struct method *m = cur_method(a);
	char shown[SHOW_SIZE];
	struct sym *s;

	if (tok_is(t, "main")) {
		tok_error(a, t, "'main' is reserved for the .main section");
		return;
	}
	s = sym_find(&a->syms, NS_CPOOL, 0, t->p, t->len);
	if (s != NULL && s->kind == SK_CONST) {
		tok_error(a, t, "method name '%s' clashes with the constant "
		    "on line %u (rename one)", show(t, shown), s->line);
		return;
	}
	if (s != NULL) {
		tok_error(a, t, "duplicate method '%s' (first defined on line "
		    "%u)", show(t, shown), s->line);
		return;
	}
	s = sym_add(&a->syms, NS_CPOOL, 0, t, SK_METHOD,
	    (uint32_t)(a->nmethods - 1), a->line);
	m->name = s->name;
}

/* "(p1, p2)" from token i on; parameters become locals 1..n.  No list
 * at all (".method name") is a method with no parameters, as the
 * course's assembler accepts it (doc/ijvm.md section 4). */
static void
method_params(struct assembler *a, size_t i)
{
	char shown[SHOW_SIZE];
	const struct tok *t;

	if (i >= a->ntoks)
		return;
	if (!is_punct(&a->toks[i], '(')) {
		t = &a->toks[i - 1];
		tok_error(a, t, "expected '(' after method name '%s'",
		    show(t, shown));
		return;
	}
	for (i++; i < a->ntoks && !is_punct(&a->toks[i], ')'); i++) {
		if (cur_method(a)->nargs >= 0xffff) {
			tok_error(a, &a->toks[i], "too many parameters "
			    "(at most 65534)");
			return;
		}
		add_local(a, &a->toks[i], 1);
		if (a->toks[i].type != T_WORD)
			return;
		if (i + 1 >= a->ntoks || is_punct(&a->toks[i + 1], ')'))
			continue;
		t = &a->toks[++i];
		if (!is_punct(t, ',')) {
			tok_error(a, t, "expected ',' or ')' in the parameter "
			    "list, got '%s'", show(t, shown));
			return;
		}
		if (i + 1 < a->ntoks && is_punct(&a->toks[i + 1], ')')) {
			tok_error(a, &a->toks[i + 1], "expected a parameter "
			    "name, got ')'");
			return;
		}
	}
	if (i >= a->ntoks) {
		t = &a->toks[a->ntoks - 1];
		tok_error(a, t, "missing ')' at the end of the parameter list");
		return;
	}
	no_more(a, i + 1, "the parameter list");
}

static void
start_method(struct assembler *a)
{
	char shown[SHOW_SIZE];

	if (!a->seen_main)
		tok_error(a, &a->toks[0], ".main must come before the other "
		    "methods");
	a->seen_method = 1;
	open_method(a, 0);
	if (a->ntoks < 2) {
		tok_error(a, &a->toks[0], "missing method name after .method");
		return;
	}
	if (a->toks[1].type != T_WORD) {
		tok_error(a, &a->toks[1], "expected a method name, got '%s'",
		    show(&a->toks[1], shown));
		return;
	}
	name_method(a, &a->toks[1]);
	method_params(a, 2);
}

static void
start_main(struct assembler *a)
{
	if (a->seen_main)
		tok_error(a, &a->toks[0], "duplicate .main section");
	else if (a->seen_method) {
		tok_error(a, &a->toks[0], ".main must come before the other "
		    "methods");
	}
	a->seen_main = 1;
	open_method(a, 1);
	no_more(a, 1, ".main");
}

/* .constant and .global: one of each, before any code. */
static void
start_section(struct assembler *a, enum state state)
{
	int *seen = state == S_CONSTANT ? &a->seen_constant : &a->seen_global;
	const char *what = state == S_CONSTANT ? ".constant" : ".global";

	if (*seen) {
		tok_error(a, &a->toks[0], "duplicate %s section (put all %s in "
		    "one)", what, state == S_CONSTANT ? "constants" : "globals");
	} else if (a->seen_main || a->seen_method) {
		tok_error(a, &a->toks[0], "%s must come before .main and the "
		    "methods", what);
	}
	*seen = 1;
	a->sec_line = a->line;
	a->sec_col = a->toks[0].col;
	a->state = state;
	no_more(a, 1, what);
}

static void
constant_line(struct assembler *a)
{
	const struct tok *name = &a->toks[0], *val = &a->toks[1];
	char shown[SHOW_SIZE], shown2[SHOW_SIZE];
	struct sym *s;
	int64_t v;

	if (name->type != T_WORD) {
		tok_error(a, name, "expected a constant name, got '%s'",
		    show(name, shown));
		return;
	}
	if (a->ntoks < 2) {
		tok_error(a, name, "missing value for constant '%s'",
		    show(name, shown));
		return;
	}
	if (!is_value(val)) {
		tok_error(a, val, "expected a number for constant '%s', got "
		    "'%s'", show(name, shown), show(val, shown2));
		return;
	}
	if (tok_value(a, val, &v) != 0)
		return;
	if (v < INT32_MIN || v > UINT32_MAX) {
		tok_error(a, val, "value %s out of range for a constant "
		    "(-2147483648..4294967295)", show(val, shown));
		return;
	}
	if (a->ntoks > 2) {
		tok_error(a, &a->toks[2], "unexpected '%s' after the value of "
		    "'%s'", show(&a->toks[2], shown), show(name, shown2));
		return;
	}
	if ((s = sym_find(&a->syms, NS_CPOOL, 0, name->p, name->len)) != NULL) {
		tok_error(a, name, s->kind == SK_CONST ?
		    "duplicate constant '%s' (first defined on line %u)" :
		    "constant name '%s' clashes with the method on line %u "
		    "(rename one)", show(name, shown), s->line);
		return;
	}
	if (v > INT32_MAX)
		v -= INT64_C(1) << 32;
	sym_add(&a->syms, NS_CPOOL, 0, name, SK_CONST, (uint32_t)a->nconsts,
	    a->line);
	a->consts = grow(a->consts, &a->capconsts, a->nconsts,
	    sizeof *a->consts);
	a->consts[a->nconsts++] = (int32_t)v;
}

static void
global_line(struct assembler *a)
{
	char shown[SHOW_SIZE];
	const struct tok *t;
	struct sym *s;
	size_t i;

	for (i = 0; i < a->ntoks; i++) {
		t = &a->toks[i];
		if (t->type != T_WORD) {
			tok_error(a, t, "expected a global name, got '%s'",
			    show(t, shown));
		} else if ((s = sym_find(&a->syms, NS_GLOBAL, 0, t->p,
		    t->len)) != NULL) {
			tok_error(a, t, "duplicate global '%s' (first declared "
			    "on line %u)", show(t, shown), s->line);
		} else if (a->nglobals >= MM_GLOBALS_WORDS) {
			tok_error(a, t, "too many globals (at most %d)",
			    MM_GLOBALS_WORDS);
		} else {
			sym_add(&a->syms, NS_GLOBAL, 0, t, SK_OTHER,
			    a->nglobals++, a->line);
		}
	}
}

static void
start_var(struct assembler *a)
{
	struct method *m = cur_method(a);

	if (m->had_var) {
		tok_error(a, &a->toks[0], "duplicate .var section (declare all "
		    "variables in one)");
	} else if (m->had_insn) {
		tok_error(a, &a->toks[0], ".var must come before the "
		    "instructions of the method");
	}
	m->had_var = 1;
	a->sec_line = a->line;
	a->sec_col = a->toks[0].col;
	a->state = S_VAR;
	no_more(a, 1, ".var");
}

/* --- instructions ------------------------------------------------------- */

static void
add_line(struct assembler *a, uint32_t addr)
{
	a->lines = grow(a->lines, &a->caplines, a->nlines, sizeof *a->lines);
	a->lines[a->nlines].addr = addr;
	a->lines[a->nlines++].line = a->line;
}

/*
 * Emit one instruction.  val holds resolved operands; a non-NULL name[k]
 * leaves a fixup instead.  A local index > 255 gets a WIDE prefix unless
 * an explicit WIDE already stands before the instruction.
 */
static void
emit(struct assembler *a, const struct ijvm_opinfo *op, const int64_t *val,
    const struct tok *const *name)
{
	int k, wide = a->wide;
	uint32_t insn;
	struct fixup *f;

	for (k = 0; k < op->noperands; k++) {
		if (op->kind[k] == OPK_VARNUM && val[k] > 0xff && !wide) {
			add_line(a, (uint32_t)a->text.len);
			buf_put_u8(&a->text, OP_WIDE);
			wide = 1;
		}
	}
	insn = (uint32_t)a->text.len;
	add_line(a, insn);
	buf_put_u8(&a->text, op->opcode);
	for (k = 0; k < op->noperands; k++) {
		if (name[k] != NULL) {
			a->fix = grow(a->fix, &a->capfix, a->nfix,
			    sizeof *a->fix);
			f = &a->fix[a->nfix++];
			f->kind = op->kind[k];
			f->at = (uint32_t)a->text.len;
			f->insn = insn;
			f->method = (uint32_t)(a->nmethods - 1);
			f->name = *name[k];
			f->line = a->line;
			f->mnemonic = op->name;
		}
		if (ijvm_opk_size(op->kind[k], wide) == 1)
			buf_put_u8(&a->text, (uint8_t)val[k]);
		else
			buf_put_be16(&a->text, (uint16_t)val[k]);
	}
	a->wide = op->opcode == OP_WIDE && op->noperands == 0;
	cur_method(a)->had_insn = 1;
}

static const char *
opk_wants(int kind)
{
	static const char *const wants[] = {
		[OPK_BYTE] = "a number", [OPK_CONST] = "a number",
		[OPK_VARNUM] = "a local variable or index",
		[OPK_LABEL] = "a label or offset",
		[OPK_INDEX] = "a constant or index",
		[OPK_METHOD] = "a method or index",
		[OPK_GLOBAL] = "a global or index",
	};

	return kind > OPK_NONE && kind <= OPK_GLOBAL ? wants[kind] : "nothing";
}

/* A numeric operand of a kind, range checked; -1 when reported. */
static int
operand_number(struct assembler *a, const struct ijvm_opinfo *op, int kind,
    const struct tok *t, int64_t *v)
{
	char shown[SHOW_SIZE];

	if (tok_value(a, t, v) != 0)
		return -1;
	switch (kind) {
	case OPK_BYTE:
	case OPK_CONST:
		if (*v >= -128 && *v <= 255)
			return 0;
		tok_error(a, t, "value %s out of range for %s (-128..255)",
		    show(t, shown), op->name);
		return -1;
	case OPK_VARNUM:
		if (*v >= 0 && *v <= 0xffff)
			return 0;
		tok_error(a, t, "local index %s out of range (0..65535)",
		    show(t, shown));
		return -1;
	case OPK_LABEL:
		if (*v >= INT16_MIN && *v <= INT16_MAX)
			return 0;
		tok_error(a, t, "offset %s out of range for %s "
		    "(-32768..32767)", show(t, shown), op->name);
		return -1;
	}
	if (*v >= 0 && *v <= 0xffff)
		return 0;
	tok_error(a, t, "index %s out of range for %s (0..65535)",
	    show(t, shown), op->name);
	return -1;
}

/*
 * Resolve operand k: numbers now, locals now (their size matters), every
 * other name later through a fixup (*name set).  -1 when reported.
 */
static int
operand(struct assembler *a, const struct ijvm_opinfo *op, int k,
    const struct tok *t, int64_t *v, const struct tok **name)
{
	char shown[SHOW_SIZE], mean[SUGGEST_SIZE];
	uint32_t scope = (uint32_t)(a->nmethods - 1);
	int kind = op->kind[k];
	struct sym *s;

	*v = 0;
	*name = NULL;
	if (is_value(t))
		return operand_number(a, op, kind, t, v);
	if (t->type != T_WORD || kind == OPK_BYTE || kind == OPK_CONST) {
		tok_error(a, t, "expected %s for %s, got '%s'", opk_wants(kind),
		    op->name, show(t, shown));
		return -1;
	}
	if (kind != OPK_VARNUM) {
		*name = t;
		return 0;
	}
	if ((s = sym_find(&a->syms, NS_LOCAL, scope, t->p, t->len)) == NULL) {
		tok_error(a, t, "unknown local '%s'%s", show(t, shown),
		    did_you_mean(sym_suggest(a, NS_LOCAL, scope, t),
		    mean));
		return -1;
	}
	*v = s->value;
	return 0;
}

/*
 * Operand tokens after the mnemonic at i, single commas between them
 * allowed.  opnd gets the first IJVM_MAX_OPERANDS + 1, so that a count
 * error can point at the first one too many.
 */
static int
collect_operands(struct assembler *a, const struct ijvm_opinfo *op, size_t i,
    const struct tok **opnd, size_t *n)
{
	char shown[SHOW_SIZE];
	const struct tok *t;
	int after_comma = 0;

	*n = 0;
	for (i++; i < a->ntoks; i++) {
		t = &a->toks[i];
		if (t->type != T_PUNCT) {
			if (*n <= IJVM_MAX_OPERANDS)
				opnd[*n] = t;
			(*n)++;
			after_comma = 0;
			continue;
		}
		if (is_punct(t, ',') && *n != 0 && !after_comma) {
			if (i + 1 == a->ntoks) {
				tok_error(a, t, "expected an operand after ','");
				return -1;
			}
			after_comma = 1;
			continue;
		}
		if (*n < op->noperands) {
			tok_error(a, t, "expected %s for %s, got '%s'",
			    opk_wants(op->kind[*n]), op->name, show(t, shown));
		} else {
			tok_error(a, t, "unexpected '%s' after the operands of "
			    "%s", show(t, shown), op->name);
		}
		return -1;
	}
	return 0;
}

static void
instruction(struct assembler *a, size_t i)
{
	const struct tok *mn = &a->toks[i], *opnd[IJVM_MAX_OPERANDS + 1];
	const struct tok *name[IJVM_MAX_OPERANDS] = { NULL, NULL, NULL };
	int64_t val[IJVM_MAX_OPERANDS] = { 0, 0, 0 };
	char shown[SHOW_SIZE], mean[SUGGEST_SIZE], *word;
	const struct ijvm_opinfo *op;
	size_t n;
	int k;

	word = xstrndup(mn->p, mn->len);
	op = ijvm_opset_find(a->set, word);
	free(word);
	cur_method(a)->had_insn = 1;
	if (op == NULL) {
		tok_error(a, mn, "unknown instruction '%s'%s", show(mn, shown),
		    did_you_mean(op_suggest(a->set, mn), mean));
		return;
	}
	if (collect_operands(a, op, i, opnd, &n) != 0)
		return;
	if (n != op->noperands) {
		tok_error(a, n > op->noperands ? opnd[op->noperands] : mn,
		    "expected %d operand%s for %s, got %zu", op->noperands,
		    op->noperands == 1 ? "" : "s", op->name, n);
		return;
	}
	for (k = 0; k < op->noperands; k++) {
		/* A bad operand still takes its room: later labels stay put. */
		if (operand(a, op, k, opnd[k], &val[k], &name[k]) != 0) {
			val[k] = 0;
			name[k] = NULL;
		}
	}
	emit(a, op, val, name);
}

/* #print "text": one BIPUSH/OUT pair per byte, all on this line. */
static void
macro(struct assembler *a, size_t i)
{
	const struct ijvm_opinfo *bipush = ijvm_builtin(OP_BIPUSH);
	const struct ijvm_opinfo *out = ijvm_builtin(OP_OUT);
	const struct tok *const none[IJVM_MAX_OPERANDS] = { NULL, NULL, NULL };
	const struct tok *t = &a->toks[i];
	char shown[SHOW_SIZE], mean[SUGGEST_SIZE];
	int64_t val[IJVM_MAX_OPERANDS] = { 0, 0, 0 };
	struct buf text = { 0 };
	size_t k;

	if (!tok_is(t, "#print")) {
		char *word = xstrndup(t->p, t->len);
		int near = close_enough(edit_distance(word, "#print"), word);

		free(word);
		tok_error(a, t, "unknown macro '%s'%s", show(t, shown),
		    did_you_mean(near ? "#print" : NULL, mean));
		return;
	}
	cur_method(a)->had_insn = 1;
	if (i + 1 >= a->ntoks || a->toks[i + 1].type != T_STR) {
		tok_error(a, i + 1 < a->ntoks ? &a->toks[i + 1] : t,
		    "expected a string after #print, e.g. #print \"hello\"");
		return;
	}
	if (i + 2 < a->ntoks) {
		tok_error(a, &a->toks[i + 2], "unexpected '%s' after the string",
		    show(&a->toks[i + 2], shown));
		return;
	}
	if (unescape(a, &a->toks[i + 1], &text) != 0) {
		buf_free(&text);
		return;
	}
	for (k = 0; k < text.len; k++) {
		val[0] = text.data[k];
		emit(a, bipush, val, none);
		emit(a, out, val, none);
	}
	buf_free(&text);
}

static void
define_label(struct assembler *a, const struct tok *t)
{
	uint32_t scope = (uint32_t)(a->nmethods - 1);
	char shown[SHOW_SIZE];
	struct sym *s;

	if ((s = sym_find(&a->syms, NS_LABEL, scope, t->p, t->len)) != NULL) {
		tok_error(a, t, "duplicate label '%s' (first defined on line "
		    "%u)", show(t, shown), s->line);
		return;
	}
	sym_add(&a->syms, NS_LABEL, scope, t, SK_OTHER, (uint32_t)a->text.len,
	    a->line);
}

/* A line of code: labels, then an instruction, a macro or nothing. */
static void
code_line(struct assembler *a)
{
	char shown[SHOW_SIZE];
	const struct tok *t;
	size_t i = 0;

	while (i + 1 < a->ntoks && a->toks[i].type == T_WORD &&
	    is_punct(&a->toks[i + 1], ':')) {
		define_label(a, &a->toks[i]);
		i += 2;
	}
	if (i == a->ntoks)
		return;
	t = &a->toks[i];
	switch (t->type) {
	case T_DIR:
		/* "end: .end-method": the label marks the method's end. */
		memmove(a->toks, t, (a->ntoks - i) * sizeof *a->toks);
		a->ntoks -= i;
		dispatch(a);
		break;
	case T_MACRO:
		macro(a, i);
		break;
	case T_WORD:
		instruction(a, i);
		break;
	default:
		tok_error(a, t, "expected an instruction, got '%s'",
		    show(t, shown));
		break;
	}
}

/* --- the section state machine ------------------------------------------ */

static void
stray_end(struct assembler *a, const char *what)
{
	char shown[SHOW_SIZE];

	tok_error(a, &a->toks[0], "'%s' without an open %s section",
	    show(&a->toks[0], shown), what);
}

/* The section an end directive closes (".constant" for .end-constant),
 * NULL for an opening one: directives[] pairs each opener with its end. */
static const char *
closes(enum directive d)
{
	for (size_t i = 1; i < sizeof directives / sizeof directives[0]; i += 2)
		if (directives[i].d == d)
			return directives[i - 1].name;
	return NULL;
}

static void
top_line(struct assembler *a, enum directive d)
{
	char shown[SHOW_SIZE];

	if (closes(d) != NULL)
		stray_end(a, closes(d));
	else if (d == D_CONSTANT || d == D_GLOBAL)
		start_section(a, d == D_CONSTANT ? S_CONSTANT : S_GLOBAL);
	else if (d == D_MAIN)
		start_main(a);
	else if (d == D_METHOD)
		start_method(a);
	else if (d == D_VAR)
		tok_error(a, &a->toks[0], "'.var' outside a method (put it "
		    "after .main or .method)");
	else
		tok_error(a, &a->toks[0], "unexpected '%s' outside a section "
		    "(expected .constant, .global, .main or .method)",
		    show(&a->toks[0], shown));
}

static void
method_directive(struct assembler *a, enum directive d)
{
	struct method *m = cur_method(a);
	char shown[SHOW_SIZE];

	switch (d) {
	case D_END_MAIN:
	case D_END_METHOD:
		if (m->is_main != (d == D_END_MAIN)) {
			tok_error(a, &a->toks[0], "expected %s, got '%s'",
			    m->is_main ? ".end-main" : ".end-method",
			    show(&a->toks[0], shown));
		}
		no_more(a, 1, show(&a->toks[0], shown));
		close_method(a);
		break;
	case D_VAR:
		start_var(a);
		break;
	case D_END_CONSTANT:
	case D_END_GLOBAL:
	case D_END_VAR:
		stray_end(a, closes(d));
		break;
	default:
		/* .main, .method, .constant, .global: this method ended. */
		close_unterminated(a);
		top_line(a, d);
		break;
	}
}

/* Handle a->toks, a non-empty line, in the current section. */
static void
dispatch(struct assembler *a)
{
	enum directive d = directive_of(&a->toks[0]);
	char shown[SHOW_SIZE], mean[SUGGEST_SIZE];
	enum directive end;

	if (d == D_UNKNOWN) {
		tok_error(a, &a->toks[0], "unknown directive '%s'%s",
		    show(&a->toks[0], shown),
		    did_you_mean(directive_suggest(&a->toks[0]), mean));
		return;
	}
	switch (a->state) {
	case S_TOP:
		top_line(a, d);
		return;
	case S_METHOD:
		if (d == D_NONE)
			code_line(a);
		else
			method_directive(a, d);
		return;
	case S_CONSTANT:
	case S_GLOBAL:
	case S_VAR:
		break;
	}
	end = a->state == S_CONSTANT ? D_END_CONSTANT :
	    a->state == S_GLOBAL ? D_END_GLOBAL : D_END_VAR;
	if (d == end) {
		no_more(a, 1, show(&a->toks[0], shown));
		a->state = a->state == S_VAR ? S_METHOD : S_TOP;
	} else if (d != D_NONE) {
		/* Only the section's own end can appear inside it. */
		if (a->state == S_VAR) {
			asm_error(a, a->sec_line, a->sec_col, "missing .end-var");
			a->state = S_METHOD;
		} else
			close_unterminated(a);
		dispatch(a);
	} else if (a->state == S_CONSTANT)
		constant_line(a);
	else if (a->state == S_GLOBAL)
		global_line(a);
	else {
		size_t i;

		for (i = 0; i < a->ntoks; i++)
			add_local(a, &a->toks[i], 0);
	}
}

/* --- after the last line ------------------------------------------------ */

/* The constant-pool slot or global a name stands for; -1 when reported. */
static int
resolve_index(struct assembler *a, const struct fixup *f, int64_t *v)
{
	char shown[SHOW_SIZE], mean[SUGGEST_SIZE];
	const struct tok *t = &f->name;
	int ns = f->kind == OPK_GLOBAL ? NS_GLOBAL : NS_CPOOL;
	struct sym *s;

	s = sym_find(&a->syms, ns, 0, t->p, t->len);
	if (s == NULL) {
		asm_error(a, f->line, t->col, "%s '%s'%s",
		    f->kind == OPK_GLOBAL ? "unknown global" :
		    f->kind == OPK_METHOD ? "undefined method" :
		    "unknown constant", show(t, shown),
		    did_you_mean(sym_suggest(a, ns, 0, t), mean));
		return -1;
	}
	if (f->kind == OPK_METHOD && s->kind == SK_CONST) {
		asm_error(a, f->line, t->col, "'%s' is a constant, not a "
		    "method (%s needs a method)", show(t, shown), f->mnemonic);
		return -1;
	}
	if (s->kind == SK_METHOD)
		*v = (int64_t)a->nconsts + a->methods[s->value].ordinal;
	else
		*v = s->value;
	return 0;
}

static int
resolve_label(struct assembler *a, const struct fixup *f, int64_t *v)
{
	char shown[SHOW_SIZE], mean[SUGGEST_SIZE];
	const struct tok *t = &f->name;
	struct sym *s;

	s = sym_find(&a->syms, NS_LABEL, f->method, t->p, t->len);
	if (s == NULL) {
		asm_error(a, f->line, t->col, "undefined label '%s'%s",
		    show(t, shown), did_you_mean(sym_suggest(a,
		    NS_LABEL, f->method, t), mean));
		return -1;
	}
	*v = (int64_t)s->value - f->insn;
	if (*v < INT16_MIN || *v > INT16_MAX) {
		asm_error(a, f->line, t->col, "branch to '%s' is out of 16-bit "
		    "range (offset %lld)", show(t, shown), (long long)*v);
		return -1;
	}
	return 0;
}

static void
resolve(struct assembler *a)
{
	const struct fixup *f;
	int64_t v;
	size_t i;
	int r;

	for (i = 0; i < a->nfix; i++) {
		f = &a->fix[i];
		if (f->kind == OPK_LABEL)
			r = resolve_label(a, f, &v);
		else
			r = resolve_index(a, f, &v);
		if (r == 0) {
			a->text.data[f->at] = (uint8_t)((uint16_t)v >> 8);
			a->text.data[f->at + 1] = (uint8_t)v;
		}
	}
}

static void
check_limits(struct assembler *a)
{
	size_t ncp = a->nconsts + a->nslots;

	if (!a->seen_main)
		asm_error(a, 1, 1, "no .main section");
	if (a->text.len > IJVM_MAX_TEXT) {
		asm_error(a, 1, 1, "program text too large (%zu bytes, at most "
		    "%u)", a->text.len, IJVM_MAX_TEXT);
	}
	if (ncp > IJVM_MAX_CP) {
		asm_error(a, 1, 1, "too many constants and methods (%zu, the "
		    "constant pool holds %u)", ncp, IJVM_MAX_CP);
	}
}

static struct symbol *
method_symbols(struct assembler *a)
{
	struct symbol *v = xcalloc(a->nmethods, sizeof *v);
	size_t i;

	for (i = 0; i < a->nmethods; i++) {
		v[i].addr = a->methods[i].addr;
		v[i].name = xstrdup(a->methods[i].name);
	}
	return v;
}

/* Labels were defined at ever-growing addresses: already sorted. */
static struct symbol *
label_symbols(struct assembler *a, size_t *n)
{
	struct symbol *v = NULL;
	const struct sym *s;
	size_t i, cap = 0;

	*n = 0;
	for (i = 0; i < a->syms.n; i++) {
		s = &a->syms.v[i];
		if (s->ns != NS_LABEL)
			continue;
		v = grow(v, &cap, *n, sizeof *v);
		v[*n].addr = s->value;
		v[*n].name = xasprintf("%s#%s", a->methods[s->scope].name,
		    s->name);
		(*n)++;
	}
	return v;
}

static void
build(struct assembler *a, const char *src, size_t len, struct program *prog)
{
	struct program p;
	size_t i;

	memset(&p, 0, sizeof p);
	p.path = xstrdup(a->path);
	p.text_size = (uint32_t)a->text.len;
	p.text = xmalloc(a->text.len);
	if (a->text.len != 0)
		memcpy(p.text, a->text.data, a->text.len);
	p.cp_size = (uint32_t)(a->nconsts + a->nslots);
	p.cp = xcalloc(p.cp_size, sizeof *p.cp);
	if (a->nconsts != 0)
		memcpy(p.cp, a->consts, a->nconsts * sizeof *p.cp);
	for (i = 1; i < a->nmethods; i++)
		p.cp[a->nconsts + a->methods[i].ordinal] =
		    (int32_t)a->methods[i].addr;
	p.methods = method_symbols(a);
	p.nmethods = a->nmethods;
	p.labels = label_symbols(a, &p.nlabels);
	/* labels at one address (e.g. "p: O:") in the loader's order, not
	 * the source's: its write-back listed them differently (found by
	 * tests/fuzz/fuzz-jas) */
	program_sort_symbols(p.methods, p.nmethods);
	program_sort_symbols(p.labels, p.nlabels);
	p.lines = a->lines;
	p.nlines = a->nlines;
	a->lines = NULL;
	p.source = xmalloc(len + 1);
	if (len != 0)
		memcpy(p.source, src, len);
	p.source[len] = '\0';
	p.main_nlocals = a->methods[0].nvars > 1 ? a->methods[0].nvars : 1;
	*prog = p;
}

static void
asm_free(struct assembler *a)
{
	sym_free(&a->syms);
	for (size_t i = 0; i < a->nerrs; i++)
		free(a->errs[i].msg);
	free(a->errs);
	free(a->toks);
	free(a->methods);
	free(a->consts);
	buf_free(&a->text);
	free(a->fix);
	free(a->lines);
}

int
asm_assemble(const char *path, const char *src, size_t len,
    const struct ijvm_opset *set, struct program *prog,
    struct asm_errors *errs)
{
	struct assembler a;
	size_t pos = 0, linelen;
	const char *nl;
	int r = 0;

	memset(&a, 0, sizeof a);
	a.path = path;
	a.suggest_budget = ASM_SUGGEST_BUDGET;
	if (set == NULL) {
		ijvm_opset_init(&a.builtin);
		set = &a.builtin;
	}
	a.set = set;
	if (errs != NULL) {
		errs->msg = NULL;
		errs->count = 0;
	}
	while (pos < len) {
		nl = memchr(src + pos, '\n', len - pos);
		linelen = nl != NULL ? (size_t)(nl - (src + pos)) : len - pos;
		a.line++;
		if (lex(&a, src + pos, linelen) == 0 && a.ntoks != 0)
			dispatch(&a);
		pos += linelen + 1;
	}
	close_unterminated(&a);
	resolve(&a);
	check_limits(&a);
	if (a.nerrs != 0) {
		if (errs != NULL)
			errors_out(&a, errs);
		r = -1;
	} else
		build(&a, src, len, prog);
	asm_free(&a);
	return r;
}
