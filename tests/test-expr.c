/*
 * Unit tests of the expression language (src/dbg/expr.c) against a fake
 * environment: literals, C's precedence with the shifts (Java's count,
 * masked to 5 bits), indexing, short-circuits, every parse and
 * evaluation error with its message, and the name walk that checks a
 * breakpoint condition when it is set.  A program of its own because
 * expr.c needs nothing else of the debugger.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "tap.h"
#include "util.h"

/* --- expressions ------------------------------------------------------ */

/* Fake environment: a = 7, b = -3, TOS = 5, $core = 12, local[i] = 100+i,
 * global[i] = 200+i, the array v = { 10, 20, 30 }; anything else is an
 * error. */
static int
fake_name(void *arg, const char *name, int dollar, int32_t *val,
    char **cause)
{
	int *lookups = arg;

	(*lookups)++;
	if (!dollar && strcmp(name, "a") == 0)
		*val = 7;
	else if (!dollar && strcmp(name, "b") == 0)
		*val = -3;
	else if (strcmp(name, "TOS") == 0 || (dollar && strcmp(name, "tos") == 0))
		*val = 5;
	else if (dollar && strcmp(name, "core") == 0)
		*val = 12;
	else {
		*cause = xasprintf("no '%s'", name);
		return -1;
	}
	return 0;
}

static int
fake_indexed(void *arg, const char *base, int32_t index, int32_t *val,
    char **cause)
{
	(void)arg;
	if (strcmp(base, "local") == 0)
		*val = 100 + index;
	else if (strcmp(base, "global") == 0)
		*val = 200 + index;
	else if (strcmp(base, "v") == 0 && index >= 0 && index < 3)
		*val = 10 * (index + 1);
	else if (strcmp(base, "v") == 0) {
		*cause = xasprintf("index %d is outside v (length 3)", index);
		return -1;
	} else {
		*cause = xasprintf("no array '%s'", base);
		return -1;
	}
	return 0;
}

/* Evaluate text; returns the value, or INT32_MIN+1 on any error (with
 * the message in *msg when msg is given). */
static int32_t
ev(const char *text, char **msg)
{
	int lookups = 0;
	struct expr_env env = { &lookups, fake_name, fake_indexed };
	struct expr *e;
	char *cause = NULL;
	int32_t v;

	if (expr_parse(text, &e, &cause) != 0) {
		if (msg)
			*msg = cause;
		else
			free(cause);
		return INT32_MIN + 1;
	}
	if (expr_eval(e, &env, &v, &cause) != 0) {
		v = INT32_MIN + 1;
		if (msg)
			*msg = cause;
		else
			free(cause);
	}
	expr_free(e);
	return v;
}

static void
test_expr(void)
{
	char *msg = NULL;
	int lookups = 0;
	struct expr_env env = { &lookups, fake_name, fake_indexed };
	struct expr *e;
	int32_t v;

	is_int(ev("42", NULL), 42, "expr: decimal literal");
	is_int(ev("0x1f", NULL), 31, "expr: hex literal");
	is_int(ev("0b101", NULL), 5, "expr: binary literal");
	is_int(ev("017", NULL), 15, "expr: octal literal");
	is_int(ev("'A'", NULL), 65, "expr: character literal");
	is_int(ev("'\\n'", NULL), 10, "expr: character escape");
	is_int(ev("1 + 2 * 3", NULL), 7, "expr: * binds tighter than +");
	is_int(ev("(1 + 2) * 3", NULL), 9, "expr: parentheses");
	is_int(ev("10 - 4 - 3", NULL), 3, "expr: - is left-associative");
	is_int(ev("-7 / 2", NULL), -3, "expr: division truncates toward zero");
	is_int(ev("-7 % 2", NULL), -1, "expr: remainder has the dividend's sign");
	is_int(ev("2147483647 + 1", NULL), INT32_MIN, "expr: + wraps at 32 bits");
	is_int(ev("0xffffffff", NULL), -1, "expr: 0xffffffff is -1");
	is_int(ev("-2147483648 / -1", NULL), INT32_MIN,
	    "expr: INT32_MIN / -1 wraps instead of trapping");
	is_int(ev("3 < 4 && 4 <= 4 && 5 > 4 && 4 >= 5 == 0", NULL), 1,
	    "expr: comparisons");
	is_int(ev("1 == 1 != 0", NULL), 1, "expr: equality chains left to right");
	is_int(ev("!0 + !5", NULL), 1, "expr: logical not");
	is_int(ev("~0", NULL), -1, "expr: complement");
	is_int(ev("6 & 3 | 8 ^ 1", NULL), 11, "expr: bitwise operators, C precedence");
	is_int(ev("1 || 0 && 0", NULL), 1, "expr: && binds tighter than ||");
	is_int(ev("a * b", NULL), -21, "expr: names from the environment");
	is_int(ev("TOS == 5", NULL), 1, "expr: register name");
	is_int(ev("$core % 2 == 0", NULL), 1, "expr: $core");
	is_int(ev("$tos", NULL), 5, "expr: $register");
	is_int(ev("local[2] + global[1 + 1]", NULL), 304,
	    "expr: indexed locals and globals");
	is_int(ev("v[0] + v[a - 5]", NULL), 40,
	    "expr: an array name indexed by expressions");
	is_int(ev("v[v[0] / 10]", NULL), 20, "expr: nested indexing");
	is_int(ev("1 << 4", NULL), 16, "expr: <<");
	is_int(ev("-16 >> 2", NULL), -4, "expr: >> keeps the sign");
	is_int(ev("-16 >>> 28", NULL), 15, "expr: >>> shifts in zeros");
	is_int(ev("-1 >>> 0", NULL), -1, "expr: >>> 0 changes nothing");
	is_int(ev("1 << 32", NULL), 1,
	    "expr: the shift count is masked to 5 bits (32 is 0)");
	is_int(ev("1 << -1", NULL), INT32_MIN,
	    "expr: a negative count is masked too (-1 is 31)");
	is_int(ev("-1 >> 40", NULL), -1, "expr: >> by 40 is >> by 8");
	is_int(ev("0x40000000 << 1", NULL), INT32_MIN,
	    "expr: << wraps into the sign bit");
	is_int(ev("1 + 1 << 2", NULL), 8, "expr: + binds tighter than <<");
	is_int(ev("1 << 2 < 5", NULL), 1, "expr: << binds tighter than <");
	is_int(ev("8 >> 1 >> 1", NULL), 2, "expr: >> is left-associative");
	is_int(ev("3 <= 3 && 4 >= 4 && 1 < 2 && 2 > 1", NULL), 1,
	    "expr: <= >= < > still parse beside << >>");
	is_int(ev("0 && nosuch", NULL), 0, "expr: && short-circuits");
	is_int(ev("1 || nosuch", NULL), 1, "expr: || short-circuits");

	is_int(ev("1 / 0", &msg), INT32_MIN + 1, "expr: division by zero fails");
	is_str(msg, "division by zero", "expr: ... with a message");
	free(msg);
	msg = NULL;
	ev("5 % (a - 7)", &msg);
	is_str(msg, "division by zero", "expr: remainder by zero fails");
	free(msg);
	msg = NULL;
	ev("nosuch + 1", &msg);
	is_str(msg, "no 'nosuch'", "expr: an unknown name is the env's error");
	free(msg);
	msg = NULL;
	ev("(1 + 2", &msg);
	is_str(msg, "expected ')' at the end of '(1 + 2'",
	    "expr: missing ')' is reported");
	free(msg);
	msg = NULL;
	ev("1 + * 2", &msg);
	is_str(msg, "expected a number, a name or '(' at '* 2'",
	    "expr: a missing operand is reported where it is");
	free(msg);
	msg = NULL;
	ev("TOS = 5", &msg);
	ok(msg != NULL && strstr(msg, "write == to compare") != NULL,
	    "expr: '=' suggests ==");
	free(msg);
	msg = NULL;
	ev("1 2", &msg);
	is_str(msg, "unexpected text at '2'", "expr: trailing text is an error");
	free(msg);
	msg = NULL;
	ev("99999999999", &msg);
	ok(msg != NULL && strstr(msg, "32 bits") != NULL,
	    "expr: too large a literal is an error");
	free(msg);
	msg = NULL;
	ev("foo[1]", &msg);
	is_str(msg, "no array 'foo'", "expr: unknown array base");
	free(msg);
	msg = NULL;
	ev("v[3]", &msg);
	is_str(msg, "index 3 is outside v (length 3)",
	    "expr: the env's bounds error is the message");
	free(msg);
	msg = NULL;
	ev("v[1", &msg);
	is_str(msg, "expected ']' at the end of 'v[1'", "expr: missing ']'");
	free(msg);
	msg = NULL;
	ev("1 < < 2", &msg);
	is_str(msg, "expected a number, a name or '(' at '< 2'",
	    "expr: '< <' is not a shift");
	free(msg);
	msg = NULL;
	ev("1 <<", &msg);
	is_str(msg, "expected a number, a name or '(' at the end of '1 <<'",
	    "expr: a shift without its count");
	free(msg);

	ok(expr_parse("  a  ", &e, &msg) == 0, "expr: blanks around a name");
	{
		int dollar = -1;

		is_str(expr_plain_name(e, &dollar), "a", "expr: plain name");
		is_int(dollar, 0, "expr: plain name has no $");
		ok(expr_eval(e, &env, &v, &msg) == 0 && v == 7,
		    "expr: evaluates after parse");
	}
	expr_free(e);
	ok(expr_parse("a + 1", &e, &msg) == 0, "expr: parse a + 1");
	{
		int dollar;

		ok(expr_plain_name(e, &dollar) == NULL,
		    "expr: a + 1 is not a plain name");
	}
	expr_free(e);
}

static int
count_names(void *arg, const char *name, int dollar, char **cause)
{
	int *n = arg;

	(void)name;
	(void)cause;
	*n += dollar ? 10 : 1;
	return 0;
}

static int
reject_b(void *arg, const char *name, int dollar, char **cause)
{
	(void)arg;
	(void)dollar;
	if (strcmp(name, "b") == 0) {
		*cause = xasprintf("no b");
		return -1;
	}
	return 0;
}

static void
test_expr_walk(void)
{
	struct expr *e;
	char *cause = NULL;
	int n = 0;

	ok(expr_parse("a && (b || $core) + local[c]", &e, &cause) == 0,
	    "walk: parse");
	ok(expr_walk_names(e, count_names, &n, &cause) == 0 && n == 13,
	    "walk: visits a, b, c and $core");
	ok(expr_walk_names(e, reject_b, NULL, &cause) == -1 &&
	    strcmp(cause, "no b") == 0, "walk: stops at the first error");
	free(cause);
	expr_free(e);
	cause = NULL;
	n = 0;
	ok(expr_parse("arr[i] + local[0] + global[1]", &e, &cause) == 0,
	    "walk: parse indexing");
	ok(expr_walk_names(e, count_names, &n, &cause) == 0 && n == 2,
	    "walk: visits an array's name and its index, not local or global");
	expr_free(e);
}

int
main(void)
{
	test_expr();
	test_expr_walk();
	return done_testing();
}
