/*
 * Expressions (see expr.h): a recursive-descent parser with C's
 * precedence into a small tree, and its evaluator.
 *
 * Arithmetic is done on uint32_t and converted back, so overflow wraps as
 * IJVM's IADD does instead of being undefined behaviour in C; division
 * and remainder truncate toward zero as C's do, INT32_MIN / -1 wraps, and
 * a zero divisor is an error, not a crash.
 *
 * Error messages quote the text from the point where parsing stopped,
 * which is what a user needs to find the mistake in a one-line command.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "util.h"

enum node {
	N_NUM, N_NAME, N_INDEX, N_NEG, N_NOT, N_COMPL,
	N_MUL, N_DIV, N_MOD, N_ADD, N_SUB, N_SHL, N_SHR, N_USHR,
	N_LT, N_LE, N_GT, N_GE, N_EQ, N_NE,
	N_AND, N_XOR, N_OR, N_LAND, N_LOR,
};

struct expr {
	enum node	 kind;
	int32_t		 num;      /* N_NUM */
	char		*name;     /* N_NAME, N_INDEX (the base) */
	int		 dollar;   /* N_NAME: spelled with '$' */
	struct expr	*l, *r;    /* operands; N_INDEX: l is the index */
};

struct parser {
	const char	*text;     /* whole expression, for messages */
	const char	*p;        /* next character */
	char		*err;      /* first error, NULL while none */
};

static struct expr *parse_or(struct parser *ps);

static struct expr *
node(enum node kind, struct expr *l, struct expr *r)
{
	struct expr *e = xmalloc(sizeof *e);

	*e = (struct expr){ .kind = kind, .l = l, .r = r };
	return e;
}

void
expr_free(struct expr *e)
{
	if (e == NULL)
		return;
	expr_free(e->l);
	expr_free(e->r);
	free(e->name);
	free(e);
}

static void
skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static void
fail(struct parser *ps, const char *what)
{
	if (ps->err != NULL)
		return;
	if (*ps->p == '\0')
		ps->err = xasprintf("%s at the end of '%s'", what, ps->text);
	else
		ps->err = xasprintf("%s at '%s'", what, ps->p);
}

/* Does the input continue with op?  An operator must not take the first
 * part of a longer one ("|" of "||", "<" of "<=" or "<<", ">>" of ">>>"). */
static int
accept(struct parser *ps, const char *op)
{
	size_t n = strlen(op);

	skip_space(ps);
	if (strncmp(ps->p, op, n) != 0)
		return 0;
	if (n == 1 && (op[0] == '|' || op[0] == '&') && ps->p[1] == op[0])
		return 0;
	if (n == 1 && strchr("<>!", op[0]) != NULL && ps->p[1] == '=')
		return 0;
	if (n == 1 && strchr("<>", op[0]) != NULL && ps->p[1] == op[0])
		return 0;
	if (n == 2 && strcmp(op, ">>") == 0 && ps->p[2] == '>')
		return 0;
	ps->p += n;
	return 1;
}

static int
name_start(int c)
{
	return isalpha(c) || c == '_';
}

static int
name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

static int
char_escape(const char **pp, int32_t *v)
{
	const char *p = *pp;

	if (*p != '\\') {
		if (*p == '\0' || *p == '\'')
			return -1;
		*v = (unsigned char)*p;
		*pp = p + 1;
		return 0;
	}
	switch (p[1]) {
	case 'n':  *v = '\n'; break;
	case 't':  *v = '\t'; break;
	case 'r':  *v = '\r'; break;
	case '0':  *v = 0; break;
	case '\\': *v = '\\'; break;
	case '\'': *v = '\''; break;
	case '"':  *v = '"'; break;
	default:   return -1;
	}
	*pp = p + 2;
	return 0;
}

static struct expr *
parse_number(struct parser *ps)
{
	const char *start = ps->p;
	unsigned long long v;
	char *end;
	struct expr *e;

	if (start[0] == '0' && (start[1] == 'b' || start[1] == 'B'))
		v = strtoull(start + 2, &end, 2);
	else
		v = strtoull(start, &end, 0);
	if (name_char((unsigned char)*end)) {
		fail(ps, "bad number");
		return NULL;
	}
	if (v > UINT32_MAX) {
		fail(ps, "number does not fit in 32 bits");
		return NULL;
	}
	ps->p = end;
	e = node(N_NUM, NULL, NULL);
	e->num = (int32_t)(uint32_t)v;
	return e;
}

static struct expr *
parse_primary(struct parser *ps)
{
	struct expr *e;
	const char *start;

	skip_space(ps);
	if (accept(ps, "(")) {
		e = parse_or(ps);
		if (e != NULL && !accept(ps, ")")) {
			fail(ps, "expected ')'");
			expr_free(e);
			return NULL;
		}
		return e;
	}
	if (isdigit((unsigned char)*ps->p))
		return parse_number(ps);
	if (*ps->p == '\'') {
		const char *p = ps->p + 1;
		int32_t v;

		if (char_escape(&p, &v) != 0 || *p != '\'') {
			fail(ps, "bad character literal (write 'A' or '\\n')");
			return NULL;
		}
		ps->p = p + 1;
		e = node(N_NUM, NULL, NULL);
		e->num = v;
		return e;
	}
	if (*ps->p == '$') {
		start = ++ps->p;
		if (*ps->p == '$') {
			/* gdb's $$ and $$N: history counted back from the
			 * last value, passed on as "$" and "$N" */
			ps->p++;
			while (isdigit((unsigned char)*ps->p))
				ps->p++;
		} else
			while (name_char((unsigned char)*ps->p))
				ps->p++;
		e = node(N_NAME, NULL, NULL);
		e->name = xstrndup(start, (size_t)(ps->p - start));
		e->dollar = 1;
		return e;
	}
	if (name_start((unsigned char)*ps->p)) {
		start = ps->p;
		while (name_char((unsigned char)*ps->p))
			ps->p++;
		e = node(N_NAME, NULL, NULL);
		e->name = xstrndup(start, (size_t)(ps->p - start));
		if (accept(ps, "[")) {
			e->kind = N_INDEX;
			if ((e->l = parse_or(ps)) == NULL || !accept(ps, "]")) {
				fail(ps, "expected ']'");
				expr_free(e);
				return NULL;
			}
		}
		return e;
	}
	fail(ps, "expected a number, a name or '('");
	return NULL;
}

static struct expr *
parse_unary(struct parser *ps)
{
	struct expr *e;
	enum node kind;

	skip_space(ps);
	if (accept(ps, "-"))
		kind = N_NEG;
	else if (accept(ps, "!"))
		kind = N_NOT;
	else if (accept(ps, "~"))
		kind = N_COMPL;
	else if (accept(ps, "+"))
		return parse_unary(ps);
	else
		return parse_primary(ps);
	if ((e = parse_unary(ps)) == NULL)
		return NULL;
	return node(kind, e, NULL);
}

/* One precedence level: operand (op operand)*, left-associative. */
struct level {
	const char	*ops[4];
	enum node	 kinds[4];
};

static const struct level levels[] = {
	{ { "||" }, { N_LOR } },
	{ { "&&" }, { N_LAND } },
	{ { "|" }, { N_OR } },
	{ { "^" }, { N_XOR } },
	{ { "&" }, { N_AND } },
	{ { "==", "!=" }, { N_EQ, N_NE } },
	{ { "<=", ">=", "<", ">" }, { N_LE, N_GE, N_LT, N_GT } },
	{ { "<<", ">>>", ">>" }, { N_SHL, N_USHR, N_SHR } },
	{ { "+", "-" }, { N_ADD, N_SUB } },
	{ { "*", "/", "%" }, { N_MUL, N_DIV, N_MOD } },
};
#define NLEVELS (sizeof levels / sizeof levels[0])

static struct expr *
parse_level(struct parser *ps, size_t lv)
{
	struct expr *l, *r;

	if (lv == NLEVELS)
		return parse_unary(ps);
	if ((l = parse_level(ps, lv + 1)) == NULL)
		return NULL;
	for (;;) {
		size_t i;

		for (i = 0; i < 4 && levels[lv].ops[i] != NULL; i++)
			if (accept(ps, levels[lv].ops[i]))
				break;
		if (i == 4 || levels[lv].ops[i] == NULL)
			return l;
		if ((r = parse_level(ps, lv + 1)) == NULL) {
			expr_free(l);
			return NULL;
		}
		l = node(levels[lv].kinds[i], l, r);
	}
}

static struct expr *
parse_or(struct parser *ps)
{
	return parse_level(ps, 0);
}

int
expr_parse(const char *text, struct expr **out, char **cause)
{
	struct parser ps = { text, text, NULL };
	struct expr *e;

	*out = NULL;
	e = parse_or(&ps);
	skip_space(&ps);
	if (e != NULL && *ps.p != '\0') {
		if (ps.p[0] == '=' && ps.p[1] != '=')
			ps.err = xasprintf("'=' in an expression: write == to "
			    "compare (set var NAME = EXPR assigns)");
		else
			fail(&ps, "unexpected text");
	}
	if (ps.err != NULL) {
		expr_free(e);
		*cause = ps.err;
		return -1;
	}
	*out = e;
	return 0;
}

static int32_t
wrap(uint32_t v)
{
	return (int32_t)v;
}

int
expr_eval(const struct expr *e, const struct expr_env *env, int32_t *val,
    char **cause)
{
	int32_t a, b;

	switch (e->kind) {
	case N_NUM:
		*val = e->num;
		return 0;
	case N_NAME:
		return env->name(env->arg, e->name, e->dollar, val, cause);
	case N_INDEX:
		if (expr_eval(e->l, env, &a, cause) != 0)
			return -1;
		return env->indexed(env->arg, e->name, a, val, cause);
	case N_LAND:
	case N_LOR:
		if (expr_eval(e->l, env, &a, cause) != 0)
			return -1;
		if ((e->kind == N_LAND) == (a == 0)) {
			*val = a != 0;
			return 0;
		}
		if (expr_eval(e->r, env, &b, cause) != 0)
			return -1;
		*val = b != 0;
		return 0;
	default:
		break;
	}
	if (expr_eval(e->l, env, &a, cause) != 0)
		return -1;
	switch (e->kind) {
	case N_NEG:
		*val = wrap(0u - (uint32_t)a);
		return 0;
	case N_NOT:
		*val = !a;
		return 0;
	case N_COMPL:
		*val = ~a;
		return 0;
	default:
		break;
	}
	if (expr_eval(e->r, env, &b, cause) != 0)
		return -1;
	switch (e->kind) {
	case N_MUL: *val = wrap((uint32_t)a * (uint32_t)b); break;
	case N_ADD: *val = wrap((uint32_t)a + (uint32_t)b); break;
	case N_SUB: *val = wrap((uint32_t)a - (uint32_t)b); break;
	case N_DIV:
	case N_MOD:
		if (b == 0) {
			*cause = xasprintf("division by zero");
			return -1;
		}
		if (a == INT32_MIN && b == -1)
			*val = e->kind == N_DIV ? INT32_MIN : 0;
		else
			*val = e->kind == N_DIV ? a / b : a % b;
		break;
	/* Java's ISHL/ISHR/IUSHR: the count is masked to 5 bits, so a
	 * negative or too large count is defined (doc/debugger.md). */
	case N_SHL:  *val = wrap((uint32_t)a << (b & 31)); break;
	case N_USHR: *val = wrap((uint32_t)a >> (b & 31)); break;
	case N_SHR:
		/* >> of a negative int is implementation-defined in C:
		 * shift the complement, which is not negative */
		*val = a < 0 ? ~(~a >> (b & 31)) : a >> (b & 31);
		break;
	case N_LT:  *val = a < b; break;
	case N_LE:  *val = a <= b; break;
	case N_GT:  *val = a > b; break;
	case N_GE:  *val = a >= b; break;
	case N_EQ:  *val = a == b; break;
	case N_NE:  *val = a != b; break;
	case N_AND: *val = a & b; break;
	case N_XOR: *val = a ^ b; break;
	case N_OR:  *val = a | b; break;
	default:
		*cause = xasprintf("internal error: bad expression node");
		return -1;
	}
	return 0;
}

int
expr_walk_names(const struct expr *e,
    int (*fn)(void *arg, const char *name, int dollar, char **cause),
    void *arg, char **cause)
{
	if (e == NULL)
		return 0;
	if (e->kind == N_NAME && fn(arg, e->name, e->dollar, cause) != 0)
		return -1;
	if (e->kind == N_INDEX && strcmp(e->name, "local") != 0 &&
	    strcmp(e->name, "global") != 0 && fn(arg, e->name, 0, cause) != 0)
		return -1;
	if (expr_walk_names(e->l, fn, arg, cause) != 0)
		return -1;
	return expr_walk_names(e->r, fn, arg, cause);
}

const char *
expr_plain_name(const struct expr *e, int *dollar)
{
	if (e->kind != N_NAME)
		return NULL;
	*dollar = e->dollar;
	return e->name;
}
