/*
 * The MAL micro-assembler (see mal.h for the language).
 *
 * Three passes over a small in-memory program:
 *
 *   parse    each line becomes a word (struct mal_insn: its fields, its
 *            control statement and the labels it names) or a directive;
 *            syntax errors are collected and parsing goes on at the next
 *            line, so a run reports all of them;
 *   place    anchors first, then the words an anchor forces (the other
 *            target of an if), then the remaining if pairs at the lowest
 *            X with X and X | 0x100 both free, then everything else at
 *            the lowest free address that .reserve does not keep, in
 *            source order;
 *   encode   NEXT_ADDRESS from the placement, the rest from the parse.
 *
 * Nothing is written to cs or syms unless every pass succeeded.
 *
 * Ownership: the assembler owns its parse (struct mal) and frees it; the
 * caller owns the store, the symbols and the error messages it gets.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mal.h"

/* ---- tokens --------------------------------------------------------- */

enum mal_tok {
	TK_EOL, TK_IDENT, TK_NUM, TK_DIRECTIVE, TK_EQ, TK_PLUS, TK_MINUS,
	TK_SEMI, TK_LPAREN, TK_RPAREN, TK_SHL, TK_SHR, TK_COLON, TK_BAD,
};

struct mal_token {
	enum mal_tok	 t;
	int		 col;     /* 1-based */
	const char	*s;       /* into the line */
	size_t		 len;
	int64_t		 num;     /* TK_NUM */
};

/* Control statements of a word. */
enum mal_ctl {
	CTL_NONE,      /* continue at the next line's word */
	CTL_GOTO,      /* goto L */
	CTL_IF_N,      /* if (N) goto to; else goto els */
	CTL_IF_Z,
	CTL_MBR,       /* goto (MBR): JMPC, NEXT_ADDRESS 0 */
	CTL_MBR100,    /* goto (MBR OR 0x100): JMPC, NEXT_ADDRESS 0x100 */
};

/* A label named by a statement, for "undefined label" messages. */
struct mal_ref {
	char		*name;    /* NULL: none */
	int		 line, col;
	int		 idx;     /* resolved word, -1 */
};

struct mal_insn {
	int		 line;
	char		*label;   /* NULL: none */
	int		 label_col;
	char		*text;    /* statement text, whitespace collapsed */
	uint32_t	 alu, cbits, mem, bsel;
	enum mal_ctl	 ctl;
	struct mal_ref	 to;      /* goto target, or the if's true target */
	struct mal_ref	 els;     /* the if's false target */
	int		 addr;    /* placed address, -1 before */
};

struct mal_anchor {
	char		*name;
	int		 addr;
	int		 line, col;
};

struct mal {
	const char		*path;
	struct mal_errors	*errs;
	struct mal_errors	*warns;     /* NULL: the caller wants none */
	struct mal_insn		*insn;
	size_t			 ninsn, cap;
	struct mal_anchor	*anchor;
	size_t			 nanchor;
	struct mal_insn		 def;       /* .default, if has_def */
	int			 has_def;
	int			 def_line;
	uint8_t			 reserved[MIC1_STORE_WORDS]; /* .reserve */
	uint8_t			 kept[MIC1_STORE_WORDS];  /* for .default */
	/* placement */
	int			 used[MIC1_STORE_WORDS];  /* word index, -1 */
	int			*role;      /* per word: 0, ROLE_LO, ROLE_HI */
	int			*partner;   /* the other target of its if */
};

#define ROLE_LO 1
#define ROLE_HI 2

static void PRINTFLIKE(4, 5)
mal_error(struct mal *a, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mal_errors_vadd(a->errs, a->path, line, col, "", fmt, ap);
	va_end(ap);
}

/* A note that does not stop assembly (a textbook-compatible oddity the
 * assembler worked around); dropped when the caller asked for none. */
static void PRINTFLIKE(4, 5)
mal_warn(struct mal *a, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (a->warns == NULL)
		return;
	va_start(ap, fmt);
	mal_errors_vadd(a->warns, a->path, line, col, "warning: ", fmt, ap);
	va_end(ap);
}

/* Tokenise one line (no newline in it); comments are dropped. */
static size_t
mal_tokenize(const char *s, size_t n, struct mal_token **out, size_t *cap)
{
	size_t i = 0, nt = 0;

	for (;;) {
		struct mal_token tk = { 0 };

		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
		    s[i] == '\f' || s[i] == '\v'))
			i++;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '/')
			i = n;
		tk.col = (int)i + 1;
		tk.s = s + i;
		if (i >= n) {
			tk.t = TK_EOL;
		} else if (isalpha((unsigned char)s[i]) || s[i] == '_' ||
		    s[i] == '.') {
			size_t j = i + 1;

			while (j < n && (isalnum((unsigned char)s[j]) ||
			    s[j] == '_' || s[j] == '.'))
				j++;
			tk.t = s[i] == '.' ? TK_DIRECTIVE : TK_IDENT;
			tk.len = j - i;
			i = j;
		} else if (isdigit((unsigned char)s[i])) {
			size_t j = i;
			int base = 10, bad = 0;
			uint64_t v = 0;

			if (s[i] == '0' && i + 1 < n &&
			    (s[i + 1] == 'x' || s[i + 1] == 'X')) {
				base = 16;
				j += 2;
			}
			while (j < n && isalnum((unsigned char)s[j])) {
				int d = isdigit((unsigned char)s[j]) ?
				    s[j] - '0' :
				    tolower((unsigned char)s[j]) - 'a' + 10;

				if (d >= base)
					bad = 1;
				else if ((v = v * (uint64_t)base + (uint64_t)d) >
				    0xFFFFFFFFu)
					bad = 1;
				j++;
			}
			if (base == 16 && j == i + 2)
				bad = 1;
			tk.t = bad ? TK_BAD : TK_NUM;
			tk.num = (int64_t)v;
			tk.len = j - i;
			i = j;
		} else {
			tk.len = 1;
			switch (s[i]) {
			case '=': tk.t = TK_EQ; break;
			case '+': tk.t = TK_PLUS; break;
			case '-': tk.t = TK_MINUS; break;
			case ';': tk.t = TK_SEMI; break;
			case '(': tk.t = TK_LPAREN; break;
			case ')': tk.t = TK_RPAREN; break;
			case ':': tk.t = TK_COLON; break;
			case '<':
			case '>':
				if (i + 1 < n && s[i + 1] == s[i]) {
					tk.t = s[i] == '<' ? TK_SHL : TK_SHR;
					tk.len = 2;
				} else {
					tk.t = TK_BAD;
				}
				break;
			default:
				tk.t = TK_BAD;
				break;
			}
			i += tk.len;
		}
		if (nt == *cap) {
			*cap = *cap ? 2 * *cap : 32;
			*out = xreallocarray(*out, *cap, sizeof **out);
		}
		(*out)[nt++] = tk;
		if (tk.t == TK_EOL)
			return nt;
	}
}

/* Is the token the word, case-insensitively?  (strncasecmp is POSIX,
 * not C11.) */
static int
tk_is(const struct mal_token *tk, const char *word)
{
	if (tk->t != TK_IDENT || strlen(word) != tk->len)
		return 0;
	for (size_t i = 0; i < tk->len; i++)
		if (tolower((unsigned char)tk->s[i]) !=
		    tolower((unsigned char)word[i]))
			return 0;
	return 1;
}

static char *
tk_str(const struct mal_token *tk)
{
	return xstrndup(tk->s, tk->len);
}

/* ---- registers and reserved words ------------------------------------ */

/* B sources, in B-field order; MIC1_B_NONE if name is not one. */
static uint32_t
mal_bsource(const struct mal_token *tk)
{
	for (uint32_t b = 0; b <= MIC1_B_OPC; b++)
		if (tk_is(tk, mic1_b_name(b)))
			return b;
	return MIC1_B_NONE;
}

/* C-bus bit of a target; 0 if none. */
static uint32_t
mal_ctarget(const struct mal_token *tk)
{
	for (int i = 0; i < MIC1_SIZE_C; i++)
		if (tk_is(tk, mic1_c_name(i)))
			return 1u << i;
	return 0;
}

static int
mal_reserved(const struct mal_token *tk)
{
	static const char *const words[] = {
		"rd", "wr", "fetch", "goto", "if", "else", "nop", "AND", "OR",
		"NOT", "N", "Z", "H", "MBR", "MBRU",
	};

	if (mal_bsource(tk) != MIC1_B_NONE || mal_ctarget(tk) != 0)
		return 1;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (tk_is(tk, words[i]))
			return 1;
	return 0;
}

/* ---- expressions ------------------------------------------------------ */

/*
 * The right-hand side of an assignment: tokens [i, end).  Sets *alu (the
 * ALU field, shifter included) and *bsel.  Additive forms are read as a
 * set of signed terms {H, B, 1} and matched against the ALU's functions,
 * so "H + MBRU" and "MBRU + H" are the same word.
 */
static int
mal_expr(struct mal *a, int line, const struct mal_token *tk, size_t i,
    size_t end, uint32_t *alu, uint32_t *bsel)
{
	uint32_t func, b = MIC1_B_NONE, shift = 0;
	int ecol = i < end ? tk[i].col : tk[end].col;
	int h = 0, one = 0, bterm = 0;	/* each term's sign: +1, -1, 0 */

	/* A trailing shift. */
	if (end - i >= 2 && (tk[end - 2].t == TK_SHL ||
	    tk[end - 2].t == TK_SHR)) {
		const struct mal_token *op = &tk[end - 2], *n = &tk[end - 1];

		if (n->t != TK_NUM || (op->t == TK_SHL && n->num != 8) ||
		    (op->t == TK_SHR && n->num != 1)) {
			mal_error(a, line, op->col, "the shifter does only "
			    "<< 8 and >> 1");
			return -1;
		}
		shift = op->t == TK_SHL ? MIC1_ALU_SLL8 : MIC1_ALU_SRA1;
		end -= 2;
	}
	if (i >= end) {
		mal_error(a, line, ecol, "missing expression after '='");
		return -1;
	}
	/* NOT x */
	if (tk_is(&tk[i], "NOT")) {
		if (end - i != 2 || tk[i + 1].t != TK_IDENT)
			goto bad;
		if (tk_is(&tk[i + 1], "H")) {
			func = MIC1_F_NOT_A;
		} else if ((b = mal_bsource(&tk[i + 1])) != MIC1_B_NONE) {
			func = MIC1_F_NOT_B;
		} else {
			goto badreg;
		}
		goto done;
	}
	/* x AND y, x OR y */
	if (end - i == 3 && (tk_is(&tk[i + 1], "AND") ||
	    tk_is(&tk[i + 1], "OR"))) {
		const struct mal_token *x = &tk[i], *y = &tk[i + 2];
		const struct mal_token *other;

		if (tk_is(x, "H"))
			other = y;
		else if (tk_is(y, "H"))
			other = x;
		else {
			if (mal_bsource(x) != MIC1_B_NONE &&
			    mal_bsource(y) != MIC1_B_NONE) {
				mal_error(a, line, y->col, "two B sources (%.*s "
				    "and %.*s): the other ALU input is H",
				    (int)x->len, x->s, (int)y->len, y->s);
				return -1;
			}
			goto bad;
		}
		if (other->t != TK_IDENT)
			goto bad;
		if ((b = mal_bsource(other)) == MIC1_B_NONE) {
			if (tk_is(other, "H")) {
				mal_error(a, line, other->col, "H is the ALU's "
				    "only A input: it cannot be both operands");
				return -1;
			}
			i = (size_t)(other - tk);
			goto badreg;
		}
		func = tk_is(&tk[i + 1], "AND") ? MIC1_F_AND : MIC1_F_OR;
		goto done;
	}
	/* A lone 0. */
	if (end - i == 1 && tk[i].t == TK_NUM && tk[i].num == 0) {
		func = MIC1_F_ZERO;
		goto done;
	}
	/* [-] term {(+|-) term} */
	{
		int sign = 1;

		if (tk[i].t == TK_MINUS) {
			sign = -1;
			i++;
		}
		for (;;) {
			const struct mal_token *t = &tk[i];

			if (i >= end)
				goto bad;
			if (t->t == TK_NUM) {
				if (t->num != 1 || one != 0) {
					mal_error(a, line, t->col, "constant "
					    "%.*s: the ALU makes only 0, 1 and "
					    "-1", (int)t->len, t->s);
					return -1;
				}
				one = sign;
			} else if (tk_is(t, "H")) {
				if (h != 0) {
					mal_error(a, line, t->col, "H is the "
					    "ALU's only A input: it cannot be "
					    "both operands");
					return -1;
				}
				h = sign;
			} else if (t->t == TK_IDENT &&
			    mal_bsource(t) != MIC1_B_NONE) {
				if (bterm != 0) {
					mal_error(a, line, t->col, "two B "
					    "sources (%s and %.*s): the other "
					    "ALU input is H", mic1_b_name(b),
					    (int)t->len, t->s);
					return -1;
				}
				b = mal_bsource(t);
				bterm = sign;
			} else if (t->t == TK_IDENT) {
				goto badreg;
			} else {
				goto bad;
			}
			if (++i >= end)
				break;
			if (tk[i].t == TK_PLUS) {
				sign = 1;
			} else if (tk[i].t == TK_MINUS) {
				sign = -1;
			} else {
				mal_error(a, line, tk[i].col, "bad ALU "
				    "expression: an operator or ';' expected "
				    "before '%.*s'", (int)tk[i].len, tk[i].s);
				return -1;
			}
			i++;
		}
	}
	/* Match the term set against the functions. */
	if (h == 1 && bterm == 0 && one == 0)
		func = MIC1_F_A;
	else if (h == 0 && bterm == 1 && one == 0)
		func = MIC1_F_B;
	else if (h == 1 && bterm == 1 && one == 0)
		func = MIC1_F_A_ADD_B;
	else if (h == 1 && bterm == 1 && one == 1)
		func = MIC1_F_A_ADD_B_1;
	else if (h == 1 && bterm == 0 && one == 1)
		func = MIC1_F_A_INC;
	else if (h == 0 && bterm == 1 && one == 1)
		func = MIC1_F_B_INC;
	else if (h == -1 && bterm == 1 && one == 0)
		func = MIC1_F_B_SUB_A;
	else if (h == 0 && bterm == 1 && one == -1)
		func = MIC1_F_B_DEC;
	else if (h == -1 && bterm == 0 && one == 0)
		func = MIC1_F_NEG_A;
	else if (h == 0 && bterm == 0 && one == 1)
		func = MIC1_F_ONE;
	else if (h == 0 && bterm == 0 && one == -1)
		func = MIC1_F_MINUS1;
	else if (h == -1 && bterm == 1 && one == -1)
		func = MIC1_F_B_SUB_A_1;
	else if (h == 1 && bterm == -1) {
		mal_error(a, line, ecol, "the ALU subtracts H from B, not B "
		    "from H: write %s - H", mic1_b_name(b));
		return -1;
	} else {
		mal_error(a, line, ecol, "bad ALU expression: not one of the "
		    "ALU's functions (H, B, NOT H, NOT B, H + B, H + B + 1, "
		    "H + 1, B + 1, B - H, B - 1, -H, H AND B, H OR B, 0, 1, "
		    "-1, B - H - 1)");
		return -1;
	}
done:
	*alu = func | shift;
	*bsel = b == MIC1_B_NONE ? 0 : b;
	return 0;
badreg:
	if (tk_is(&tk[i], "MAR"))
		mal_error(a, line, tk[i].col, "MAR cannot be read: it only "
		    "addresses memory");
	else if (tk_is(&tk[i], "N") || tk_is(&tk[i], "Z"))
		mal_error(a, line, tk[i].col, "%.*s is a flag, not a register",
		    (int)tk[i].len, tk[i].s);
	else
		mal_error(a, line, tk[i].col, "unknown register '%.*s'",
		    (int)tk[i].len, tk[i].s);
	return -1;
bad:
	mal_error(a, line, ecol, "bad ALU expression");
	return -1;
}

/* ---- statements --------------------------------------------------------- */

static void
mal_ref_set(struct mal_ref *r, const struct mal_token *tk, int line)
{
	r->name = tk_str(tk);
	r->line = line;
	r->col = tk->col;
	r->idx = -1;
}

/*
 * "goto" at tk[i].  dst receives the label (NULL: a plain goto, which may
 * also be a multiway branch and then sets w->ctl).  Returns the index
 * after the statement, or -1 after an error.
 */
static long
mal_goto(struct mal *a, int line, const struct mal_token *tk, size_t i,
    struct mal_insn *w, struct mal_ref *dst)
{
	const struct mal_token *g = &tk[i];

	i++;
	if (tk[i].t == TK_LPAREN) {
		if (dst != NULL) {
			mal_error(a, line, tk[i].col, "an if jumps to a label, "
			    "not to (MBR)");
			return -1;
		}
		if (!tk_is(&tk[i + 1], "MBR")) {
			mal_error(a, line, tk[i + 1].col, "goto ( must be "
			    "followed by MBR: goto (MBR) or goto (MBR OR 0x100)");
			return -1;
		}
		if (tk[i + 2].t == TK_RPAREN) {
			w->ctl = CTL_MBR;
			return (long)i + 3;
		}
		if (tk_is(&tk[i + 2], "OR") && tk[i + 3].t == TK_NUM &&
		    tk[i + 4].t == TK_RPAREN) {
			if (tk[i + 3].num != 0x100) {
				mal_error(a, line, tk[i + 3].col, "goto (MBR OR "
				    "x) takes 0x100 only");
				return -1;
			}
			w->ctl = CTL_MBR100;
			return (long)i + 5;
		}
		mal_error(a, line, tk[i].col, "bad multiway branch: write "
		    "goto (MBR) or goto (MBR OR 0x100)");
		return -1;
	}
	if (tk[i].t != TK_IDENT) {
		mal_error(a, line, g->col, "goto needs a label");
		return -1;
	}
	if (mal_reserved(&tk[i])) {
		mal_error(a, line, tk[i].col, "'%.*s' is a reserved word, not "
		    "a label", (int)tk[i].len, tk[i].s);
		return -1;
	}
	if (dst == NULL) {
		w->ctl = CTL_GOTO;
		dst = &w->to;
	}
	mal_ref_set(dst, &tk[i], line);
	return (long)i + 1;
}

/*
 * Parse the statements of one word: tokens from i to TK_EOL.  Returns 0,
 * or -1 after reporting an error (the word is then dropped).
 */
static int
mal_statements(struct mal *a, int line, const struct mal_token *tk,
    size_t i, struct mal_insn *w)
{
	int assigned = 0;

	while (tk[i].t != TK_EOL) {
		const struct mal_token *s = &tk[i];
		long next;

		if (s->t == TK_SEMI) {		/* empty statement */
			i++;
			continue;
		}
		if (tk_is(s, "nop")) {
			i++;
		} else if (tk_is(s, "rd") || tk_is(s, "wr") ||
		    tk_is(s, "fetch")) {
			uint32_t bit = tk_is(s, "rd") ? MIC1_MEM_READ :
			    tk_is(s, "wr") ? MIC1_MEM_WRITE : MIC1_MEM_FETCH;

			if (w->mem & bit) {
				mal_error(a, line, s->col, "%.*s given twice",
				    (int)s->len, s->s);
				return -1;
			}
			w->mem |= bit;
			if ((w->mem & MIC1_MEM_READ) &&
			    (w->mem & MIC1_MEM_WRITE)) {
				mal_error(a, line, s->col, "READ with WRITE in "
				    "one micro-instruction: memory does one "
				    "of them per cycle");
				return -1;
			}
			i++;
		} else if (tk_is(s, "goto")) {
			if (w->ctl != CTL_NONE) {
				mal_error(a, line, s->col, "a second goto: a "
				    "micro-instruction has one next address");
				return -1;
			}
			if ((next = mal_goto(a, line, tk, i, w, NULL)) < 0)
				return -1;
			i = (size_t)next;
		} else if (tk_is(s, "if")) {
			enum mal_ctl kind;

			if (w->ctl != CTL_NONE) {
				mal_error(a, line, s->col, "an if after a goto: "
				    "a micro-instruction has one next address");
				return -1;
			}
			if (tk[i + 1].t != TK_LPAREN ||
			    !(tk_is(&tk[i + 2], "N") || tk_is(&tk[i + 2], "Z")) ||
			    tk[i + 3].t != TK_RPAREN || !tk_is(&tk[i + 4],
			    "goto")) {
				mal_error(a, line, s->col, "bad if: write "
				    "if (N) goto L1; else goto L2 (or Z)");
				return -1;
			}
			kind = tk_is(&tk[i + 2], "N") ? CTL_IF_N : CTL_IF_Z;
			if ((next = mal_goto(a, line, tk, i + 4, w,
			    &w->to)) < 0)
				return -1;
			i = (size_t)next;
			/* "; else goto L2" must follow. */
			if (tk[i].t != TK_SEMI || !tk_is(&tk[i + 1], "else") ||
			    !tk_is(&tk[i + 2], "goto")) {
				mal_error(a, line, tk[i].col, "an if needs "
				    "'; else goto LABEL' after it");
				return -1;
			}
			if ((next = mal_goto(a, line, tk, i + 2, w,
			    &w->els)) < 0)
				return -1;
			w->ctl = kind;
			i = (size_t)next;
		} else if (tk_is(s, "else")) {
			mal_error(a, line, s->col, "else without an if before it");
			return -1;
		} else if (s->t == TK_IDENT && tk[i + 1].t == TK_EQ) {
			/* C1 = C2 = ... = expr */
			size_t end = i;
			int flag = 0;

			if (assigned) {
				mal_error(a, line, s->col, "a second assignment: "
				    "the ALU computes one value per cycle; "
				    "chain the targets (A = B = expr)");
				return -1;
			}
			assigned = 1;
			while (tk[i].t == TK_IDENT && tk[i + 1].t == TK_EQ) {
				uint32_t bit = mal_ctarget(&tk[i]);

				if (tk_is(&tk[i], "N") || tk_is(&tk[i], "Z")) {
					flag = 1;
				} else if (bit != 0) {
					w->cbits |= bit;
				} else if (tk_is(&tk[i], "MBR") ||
				    tk_is(&tk[i], "MBRU")) {
					mal_error(a, line, tk[i].col, "MBR is "
					    "loaded by fetch only, not from "
					    "the C bus");
					return -1;
				} else {
					mal_error(a, line, tk[i].col, "unknown "
					    "register '%.*s'", (int)tk[i].len,
					    tk[i].s);
					return -1;
				}
				i += 2;
			}
			if (flag && w->cbits != 0) {
				mal_error(a, line, s->col, "N and Z are flags: "
				    "assign them alone (N = expr)");
				return -1;
			}
			for (end = i; tk[end].t != TK_SEMI &&
			    tk[end].t != TK_EOL; end++)
				;
			if (mal_expr(a, line, tk, i, end, &w->alu,
			    &w->bsel) != 0)
				return -1;
			i = end;
		} else if (s->t == TK_BAD) {
			mal_error(a, line, s->col, "unexpected '%.*s'",
			    (int)s->len, s->s);
			return -1;
		} else {
			mal_error(a, line, s->col, "unknown statement '%.*s'",
			    (int)s->len, s->s);
			return -1;
		}
		/* A statement ends at ';' or the end of the line. */
		if (tk[i].t == TK_SEMI)
			i++;
		else if (tk[i].t != TK_EOL) {
			mal_error(a, line, tk[i].col, "';' expected between "
			    "statements, found '%.*s'", (int)tk[i].len,
			    tk[i].s);
			return -1;
		}
	}
	return 0;
}

/* The statement text of a line from byte 'from': comment dropped,
 * whitespace runs collapsed, ends trimmed. */
static char *
mal_text(const char *s, size_t n, size_t from)
{
	char *out = xmalloc(n - from + 1);
	size_t k = 0;
	int space = 0;

	for (size_t i = from; i < n; i++) {
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '/')
			break;
		if (isspace((unsigned char)s[i])) {
			space = 1;
			continue;
		}
		if (space && k > 0)
			out[k++] = ' ';
		space = 0;
		out[k++] = s[i];
	}
	out[k] = '\0';
	return out;
}

static void
mal_insn_free(struct mal_insn *w)
{
	free(w->label);
	free(w->text);
	free(w->to.name);
	free(w->els.name);
}

static struct mal_insn *
mal_new_insn(struct mal *a)
{
	struct mal_insn *w;

	if (a->ninsn == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 256;
		a->insn = xreallocarray(a->insn, a->cap, sizeof *a->insn);
	}
	w = &a->insn[a->ninsn];
	memset(w, 0, sizeof *w);
	w->to.idx = w->els.idx = -1;
	w->addr = -1;
	return w;
}

/* One source line. */
static void
mal_line(struct mal *a, int line, const char *s, size_t n,
    struct mal_token **tkbuf, size_t *tkcap)
{
	struct mal_token *tk;
	struct mal_insn *w;
	size_t i = 0;

	mal_tokenize(s, n, tkbuf, tkcap);
	tk = *tkbuf;
	if (tk[0].t == TK_EOL)
		return;
	for (i = 0; tk[i].t != TK_EOL; i++)
		if (tk[i].t == TK_BAD) {
			mal_error(a, line, tk[i].col, "unexpected '%.*s'",
			    (int)tk[i].len, tk[i].s);
			return;
		}
	i = 0;
	if (tk[0].t == TK_DIRECTIVE) {
		if (tk[0].len == 6 && strncmp(tk[0].s, ".label", 6) == 0) {
			struct mal_anchor *an;

			if (tk[1].t != TK_IDENT || tk[2].t != TK_NUM ||
			    tk[3].t != TK_EOL) {
				mal_error(a, line, tk[0].col, "write .label NAME "
				    "0xADDR");
				return;
			}
			if (tk[2].num >= MIC1_STORE_WORDS) {
				mal_error(a, line, tk[2].col, "address 0x%llx is "
				    "outside the control store (0x000-0x1ff)",
				    (unsigned long long)tk[2].num);
				return;
			}
			a->anchor = xreallocarray(a->anchor, a->nanchor + 1,
			    sizeof *a->anchor);
			an = &a->anchor[a->nanchor++];
			an->name = tk_str(&tk[1]);
			an->addr = (int)tk[2].num;
			an->line = line;
			an->col = tk[1].col;
			return;
		}
		if (tk[0].len == 8 && strncmp(tk[0].s, ".default", 8) == 0) {
			struct mal_insn d;

			if (a->has_def) {
				mal_error(a, line, tk[0].col, ".default given "
				    "twice (first at line %d)", a->def_line);
				return;
			}
			memset(&d, 0, sizeof d);
			d.to.idx = d.els.idx = -1;
			d.addr = -1;
			d.line = line;
			if (tk[1].t == TK_EOL) {
				mal_error(a, line, tk[0].col, ".default needs a "
				    "statement, e.g. .default goto err1");
				return;
			}
			if (mal_statements(a, line, tk, 1, &d) != 0) {
				mal_insn_free(&d);
				return;
			}
			if (d.ctl == CTL_NONE) {
				mal_error(a, line, tk[0].col, ".default needs a "
				    "goto: the words it fills have no next "
				    "line");
				mal_insn_free(&d);
				return;
			}
			d.text = mal_text(s, n, (size_t)(tk[1].s - s));
			a->def = d;
			a->has_def = 1;
			a->def_line = line;
			return;
		}
		if (tk[0].len == 8 && strncmp(tk[0].s, ".reserve", 8) == 0) {
			if (tk[1].t != TK_NUM || tk[2].t != TK_NUM ||
			    tk[3].t != TK_EOL) {
				mal_error(a, line, tk[0].col, "write .reserve "
				    "0xFIRST 0xLAST");
				return;
			}
			if (tk[1].num > tk[2].num ||
			    tk[2].num >= MIC1_STORE_WORDS) {
				mal_error(a, line, tk[1].col, "bad range "
				    "0x%llx-0x%llx: the control store is "
				    "0x000-0x1ff", (unsigned long long)tk[1].num,
				    (unsigned long long)tk[2].num);
				return;
			}
			for (int64_t x = tk[1].num; x <= tk[2].num; x++)
				a->reserved[x] = 1;
			return;
		}
		mal_error(a, line, tk[0].col, "unknown directive '%.*s' (.label, "
		    ".default or .reserve)", (int)tk[0].len, tk[0].s);
		return;
	}

	w = mal_new_insn(a);
	w->line = line;
	/* A label: an identifier that is not a register or keyword and
	 * does not start an assignment. */
	if (tk[0].t == TK_IDENT && tk[1].t != TK_EQ && !mal_reserved(&tk[0])) {
		if (tk[1].t == TK_COLON) {
			mal_error(a, line, tk[1].col, "no colon after a label "
			    "in MAL: write '%.*s statement'", (int)tk[0].len,
			    tk[0].s);
			return;
		}
		w->label = tk_str(&tk[0]);
		w->label_col = tk[0].col;
		i = 1;
	}
	if (mal_statements(a, line, tk, i, w) != 0) {
		mal_insn_free(w);
		return;
	}
	w->text = mal_text(s, n, (size_t)(tk[i].s - s));
	a->ninsn++;
}

/* ---- placement ---------------------------------------------------------- */

static int
mal_find(const struct mal *a, const char *name)
{
	for (size_t i = 0; i < a->ninsn; i++)
		if (a->insn[i].label != NULL &&
		    strcmp(a->insn[i].label, name) == 0)
			return (int)i;
	return -1;
}

static void
mal_resolve(struct mal *a, struct mal_ref *r)
{
	if (r->name == NULL)
		return;
	if ((r->idx = mal_find(a, r->name)) < 0)
		mal_error(a, r->line, r->col, "undefined label '%s'", r->name);
}

static const char *
mal_name(const struct mal *a, int idx)
{
	const struct mal_insn *w = &a->insn[idx];
	static const char *const anon = "(a word without label)";

	return w->label ? w->label : anon;
}

/* Put word idx at addr; -1 (reported) if taken. */
static int
mal_put(struct mal *a, int idx, int addr, int line, int col,
    const char *why)
{
	if (a->used[addr] >= 0 && a->used[addr] != idx) {
		mal_error(a, line, col, "cannot place %s at 0x%03x (%s): "
		    "0x%03x already holds %s", mal_name(a, idx), addr, why,
		    addr, mal_name(a, a->used[addr]));
		return -1;
	}
	a->used[addr] = idx;
	a->insn[idx].addr = addr;
	return 0;
}

/* Record the pair constraint of one if (false target lo, true hi). */
static void
mal_pair(struct mal *a, const struct mal_insn *w)
{
	int lo = w->els.idx, hi = w->to.idx;

	if (lo < 0 || hi < 0)
		return;
	if (lo == hi) {
		mal_error(a, w->line, w->to.col, "both targets of the if are "
		    "'%s': they need addresses X and X + 0x100", w->to.name);
		return;
	}
	if (a->role[lo] == ROLE_HI || a->role[hi] == ROLE_LO) {
		int bad = a->role[lo] == ROLE_HI ? lo : hi;

		mal_error(a, w->line, w->to.col, "'%s' is the true target of "
		    "one if and the false target of another: an if needs its "
		    "false target at X and its true target at X + 0x100",
		    mal_name(a, bad));
		return;
	}
	if ((a->role[lo] == ROLE_LO && a->partner[lo] != hi) ||
	    (a->role[hi] == ROLE_HI && a->partner[hi] != lo)) {
		mal_error(a, w->line, w->to.col, "'%s' and '%s' cannot both "
		    "be placed: one of them already pairs with another "
		    "label in an earlier if", mal_name(a, hi), mal_name(a, lo));
		return;
	}
	a->role[lo] = ROLE_LO;
	a->role[hi] = ROLE_HI;
	a->partner[lo] = hi;
	a->partner[hi] = lo;
}

/* The lowest address that is free and not reserved, -1 if none. */
static int
mal_lowest_free(const struct mal *a)
{
	for (int x = 0; x < MIC1_STORE_WORDS; x++)
		if (a->used[x] < 0 && !a->reserved[x] && !a->kept[x])
			return x;
	return -1;
}

/* The address a .label gives word idx, -1 if none. */
static int
mal_anchor_of(const struct mal *a, int idx)
{
	const char *name = a->insn[idx].label;

	if (name == NULL)
		return -1;
	for (size_t i = 0; i < a->nanchor; i++)
		if (strcmp(a->anchor[i].name, name) == 0)
			return a->anchor[i].addr;
	return -1;
}

/* A new word "goto <target of r>" standing in for r as one target of
 * the if at word w; returns its index. */
static int
mal_trampoline(struct mal *a, size_t w, struct mal_ref *r, const char *why)
{
	struct mal_insn *t;
	int line = a->insn[w].line, col = r->col, target = r->idx;
	char *name = xstrdup(r->name);

	t = mal_new_insn(a);
	t->line = line;
	t->ctl = CTL_GOTO;
	t->text = xasprintf("goto %s", name);
	t->to.name = name;
	t->to.line = line;
	t->to.col = col;
	t->to.idx = target;
	a->ninsn++;
	mal_warn(a, line, col, "%s: the if reaches '%s' through an added "
	    "word 'goto %s' (one more cycle)", why, name, name);
	return (int)a->ninsn - 1;
}

/*
 * The hardware forces an if's targets to X (false) and X | 0x100
 * (true).  Where a source cannot meet that - a true target anchored
 * below 0x100 (a student's "if (Z) goto err1"), a false target anchored
 * above, both targets the same label, a label that two ifs want in
 * different pairs - the if jumps instead to a new word that holds only
 * "goto target", as a hand-written microprogram would.  Runs before
 * placement, on the anchors; indices, not pointers, since words are
 * added.
 */
static void
mal_trampolines(struct mal *a)
{
	size_t n0 = a->ninsn, cap = 3 * n0 + 1;
	int *role = xcalloc(cap, sizeof *role);
	int *partner = xcalloc(cap, sizeof *partner);

	for (size_t i = 0; i < n0; i++) {
		enum mal_ctl c = a->insn[i].ctl;
		int lo = a->insn[i].els.idx, hi = a->insn[i].to.idx;
		int alo, ahi;

		if ((c != CTL_IF_N && c != CTL_IF_Z) || lo < 0 || hi < 0)
			continue;
		alo = mal_anchor_of(a, lo);
		if (alo >= 0x100)
			lo = mal_trampoline(a, i, &a->insn[i].els, "the false "
			    "target is anchored at 0x100 or above");
		else if (role[lo] == ROLE_HI ||
		    (role[lo] == ROLE_LO && partner[lo] != hi))
			lo = mal_trampoline(a, i, &a->insn[i].els, "the false "
			    "target already pairs with another label");
		alo = mal_anchor_of(a, lo);
		ahi = mal_anchor_of(a, hi);
		if (ahi >= 0 && ahi < 0x100)
			hi = mal_trampoline(a, i, &a->insn[i].to, "the true "
			    "target is anchored below 0x100");
		else if (hi == lo)
			hi = mal_trampoline(a, i, &a->insn[i].to, "both "
			    "targets are one label");
		else if (ahi >= 0 && alo >= 0 && ahi != (alo | 0x100))
			hi = mal_trampoline(a, i, &a->insn[i].to, "the "
			    "anchors do not differ in bit 8 only");
		else if (role[hi] == ROLE_LO ||
		    (role[hi] == ROLE_HI && partner[hi] != lo))
			hi = mal_trampoline(a, i, &a->insn[i].to, "the true "
			    "target already pairs with another label");
		a->insn[i].els.idx = lo;
		a->insn[i].to.idx = hi;
		role[lo] = ROLE_LO;
		role[hi] = ROLE_HI;
		partner[lo] = hi;
		partner[hi] = lo;
	}
	free(role);
	free(partner);
}

static void
mal_place(struct mal *a)
{
	size_t i, n = a->ninsn;

	for (i = 0; i < MIC1_STORE_WORDS; i++)
		a->used[i] = -1;

	/* Labels: unique, resolvable. */
	for (i = 0; i < n; i++) {
		const struct mal_insn *w = &a->insn[i];
		int first;

		if (w->label != NULL && (first = mal_find(a, w->label)) !=
		    (int)i)
			mal_error(a, w->line, w->label_col, "label '%s' already "
			    "defined at line %d", w->label,
			    a->insn[first].line);
	}
	for (i = 0; i < n; i++) {
		mal_resolve(a, &a->insn[i].to);
		mal_resolve(a, &a->insn[i].els);
	}
	if (a->has_def) {
		mal_resolve(a, &a->def.to);
		mal_resolve(a, &a->def.els);
	}
	if (n > 0 && a->insn[n - 1].ctl == CTL_NONE)
		mal_error(a, a->insn[n - 1].line, 1, "the last micro-instruction "
		    "needs a goto: there is no next line to continue at");
	if (a->errs->count != 0)
		return;
	mal_trampolines(a);
	n = a->ninsn;
	a->role = xcalloc(n + 1, sizeof *a->role);
	a->partner = xcalloc(n + 1, sizeof *a->partner);

	/* 1: anchors. */
	for (i = 0; i < a->nanchor; i++) {
		const struct mal_anchor *an = &a->anchor[i];
		int idx = mal_find(a, an->name);

		if (idx < 0) {
			/* Classroom variants of mic1ijvm.mal anchor opcodes
			 * they never implement; the textbook tools accept
			 * that, and the opcode then runs the .default word. */
			mal_warn(a, an->line, an->col, "anchored label '%s' is "
			    "never defined: 0x%03x keeps the default word",
			    an->name, an->addr);
			/* Its opcode must not dispatch into other code. */
			if (a->used[an->addr] < 0)
				a->kept[an->addr] = 1;
			continue;
		}
		if (a->insn[idx].addr >= 0) {
			mal_error(a, an->line, an->col, "label '%s' is anchored "
			    "twice", an->name);
			continue;
		}
		(void)mal_put(a, idx, an->addr, an->line, an->col, "anchored");
	}

	/* 2: pair constraints, and the words an anchor forces. */
	for (i = 0; i < n; i++)
		if (a->insn[i].ctl == CTL_IF_N || a->insn[i].ctl == CTL_IF_Z)
			mal_pair(a, &a->insn[i]);
	if (a->has_def && (a->def.ctl == CTL_IF_N || a->def.ctl == CTL_IF_Z))
		mal_pair(a, &a->def);
	for (i = 0; i < n; i++) {
		struct mal_insn *w = &a->insn[i];
		int lo, hi;

		if (a->role[i] != ROLE_LO)
			continue;
		lo = (int)i;
		hi = a->partner[i];
		if (w->addr >= 0x100) {
			mal_error(a, w->line, w->label_col, "'%s' is the false "
			    "target of an if but anchored at 0x%03x: it must "
			    "be below 0x100", w->label, w->addr);
		} else if (w->addr >= 0) {
			if (a->insn[hi].addr < 0)
				(void)mal_put(a, hi, w->addr | 0x100, w->line,
				    w->label_col, "true target of an if");
			else if (a->insn[hi].addr != (w->addr | 0x100))
				mal_error(a, w->line, w->label_col, "the targets "
				    "of an if, '%s' (0x%03x) and '%s' "
				    "(0x%03x), must be X and X + 0x100",
				    w->label, w->addr, a->insn[hi].label,
				    a->insn[hi].addr);
		} else if (a->insn[hi].addr >= 0) {
			if (a->insn[hi].addr < 0x100)
				mal_error(a, a->insn[hi].line,
				    a->insn[hi].label_col, "'%s' is the true "
				    "target of an if but anchored at 0x%03x: "
				    "it must be at 0x100 or above",
				    a->insn[hi].label, a->insn[hi].addr);
			else
				(void)mal_put(a, lo, a->insn[hi].addr & 0xFF,
				    w->line, w->label_col,
				    "false target of an if");
		}
	}

	/* 3: the other pairs, at the lowest X with both words free. */
	for (i = 0; i < n; i++) {
		struct mal_insn *w = &a->insn[i];
		int x, hi;

		if (a->role[i] != ROLE_LO || w->addr >= 0 ||
		    a->insn[a->partner[i]].addr >= 0)
			continue;
		hi = a->partner[i];
		for (x = 0; x < 0x100; x++)
			if (a->used[x] < 0 && a->used[x | 0x100] < 0 &&
			    !a->kept[x] && !a->kept[x | 0x100])
				break;
		if (x == 0x100) {
			mal_error(a, w->line, w->label_col, "no free pair of "
			    "words X, X + 0x100 left for the targets '%s' and "
			    "'%s' of an if", w->label, a->insn[hi].label);
			continue;
		}
		(void)mal_put(a, (int)i, x, w->line, 1, "if pair");
		(void)mal_put(a, hi, x | 0x100, w->line, 1, "if pair");
	}

	/* 4: everything else, in source order. */
	for (i = 0; i < n; i++) {
		struct mal_insn *w = &a->insn[i];
		int x;

		if (w->addr >= 0 || a->role[i] != 0)
			continue;
		if ((x = mal_lowest_free(a)) < 0) {
			mal_error(a, w->line, 1, "control store full: no word "
			    "left for this micro-instruction (512 at most, "
			    "less what .reserve keeps)");
			return;
		}
		(void)mal_put(a, (int)i, x, w->line, 1, "free word");
	}
}

/* ---- encoding ------------------------------------------------------------ */

static uint64_t
mal_encode(const struct mal *a, const struct mal_insn *w, int next_idx)
{
	uint32_t next = 0, jam = 0;
	uint64_t word;

	switch (w->ctl) {
	case CTL_NONE:
		next = next_idx >= 0 ? (uint32_t)a->insn[next_idx].addr : 0;
		break;
	case CTL_GOTO:
		next = (uint32_t)a->insn[w->to.idx].addr;
		break;
	case CTL_IF_N:
	case CTL_IF_Z:
		next = (uint32_t)a->insn[w->els.idx].addr;
		jam = w->ctl == CTL_IF_N ? MIC1_JAM_N : MIC1_JAM_Z;
		break;
	case CTL_MBR:
		jam = MIC1_JAM_PC;
		break;
	case CTL_MBR100:
		next = 0x100;
		jam = MIC1_JAM_PC;
		break;
	}
	(void)mic1_make(&word, next, jam, w->alu, w->cbits, w->mem, w->bsel);
	return word;
}

static int
mal_sym_cmp(const void *x, const void *y)
{
	const struct mal_sym *p = x, *q = y;

	return (int)p->addr - (int)q->addr;
}

static void
mal_free(struct mal *a)
{
	for (size_t i = 0; i < a->ninsn; i++)
		mal_insn_free(&a->insn[i]);
	free(a->insn);
	for (size_t i = 0; i < a->nanchor; i++)
		free(a->anchor[i].name);
	free(a->anchor);
	if (a->has_def)
		mal_insn_free(&a->def);
	free(a->role);
	free(a->partner);
}

int
mal_assemble(const char *path, const char *src, size_t len,
    struct mic1_store *cs, struct mal_syms *syms, struct mal_errors *errs)
{
	return mal_assemble_warn(path, src, len, cs, syms, errs, NULL);
}

int
mal_assemble_warn(const char *path, const char *src, size_t len,
    struct mic1_store *cs, struct mal_syms *syms, struct mal_errors *errs,
    struct mal_errors *warns)
{
	struct mal a;
	struct mal_token *tk = NULL;
	size_t tkcap = 0, pos = 0;
	int line = 0;
	uint64_t defword = 0;

	memset(&a, 0, sizeof a);
	a.path = path;
	a.errs = errs;
	a.warns = warns;
	errs->msg = NULL;
	errs->count = 0;
	if (warns != NULL) {
		warns->msg = NULL;
		warns->count = 0;
	}
	while (pos < len) {
		size_t end = pos;

		while (end < len && src[end] != '\n')
			end++;
		line++;
		if (memchr(src + pos, '\0', end - pos) != NULL)
			mal_error(&a, line, 1, "NUL byte in the source: not a "
			    "text file?");
		else
			mal_line(&a, line, src + pos, end - pos, &tk, &tkcap);
		pos = end + 1;
	}
	free(tk);
	if (a.ninsn == 0 && errs->count == 0)
		mal_error(&a, line > 0 ? line : 1, 1, "no micro-instructions");
	if (errs->count == 0)
		mal_place(&a);
	if (errs->count == 0 && a.has_def)
		defword = mal_encode(&a, &a.def, -1);
	if (errs->count != 0) {
		mal_free(&a);
		return -1;
	}

	mic1_store_init(cs);
	for (size_t i = 0; i < a.ninsn; i++) {
		const struct mal_insn *w = &a.insn[i];

		cs->word[w->addr] = mal_encode(&a, w,
		    i + 1 < a.ninsn ? (int)i + 1 : -1);
		cs->present[w->addr] = 1;
		if (w->label != NULL && strcmp(w->label, "Main1") == 0)
			cs->main1 = (uint16_t)w->addr;
	}
	if (a.has_def)
		for (int x = 0; x < MIC1_STORE_WORDS; x++)
			if (!cs->present[x]) {
				cs->word[x] = defword;
				cs->present[x] = 1;
			}
	if (syms != NULL) {
		memset(syms, 0, sizeof *syms);
		syms->file = xstrdup(path);
		syms->main1 = cs->main1;
		syms->sym = xcalloc(MIC1_STORE_WORDS, sizeof *syms->sym);
		for (size_t i = 0; i < a.ninsn; i++) {
			const struct mal_insn *w = &a.insn[i];
			struct mal_sym *s = &syms->sym[syms->n++];

			s->addr = (uint16_t)w->addr;
			s->line = (uint32_t)w->line;
			s->label = w->label ? xstrdup(w->label) : NULL;
			s->text = xstrdup(w->text);
		}
		if (a.has_def)
			for (int x = 0; x < MIC1_STORE_WORDS; x++)
				if (a.used[x] < 0) {
					struct mal_sym *s = &syms->sym[syms->n++];

					s->addr = (uint16_t)x;
					s->line = (uint32_t)a.def_line;
					s->text = xstrdup(a.def.text);
					s->is_default = 1;
				}
		mal_syms_sort(syms);
	}
	mal_free(&a);
	return 0;
}

char *
mal_errors_join(struct mal_errors *errs)
{
	struct buf b = { 0 };

	for (size_t i = 0; i < errs->count; i++)
		buf_printf(&b, "%s%s", i ? "\n" : "", errs->msg[i]);
	buf_put_u8(&b, 0);
	mal_errors_free(errs);
	return (char *)b.data;
}

void
mal_errors_vadd(struct mal_errors *errs, const char *path, int line,
    int col, const char *kind, const char *fmt, va_list ap)
{
	char *msg = xvasprintf(fmt, ap);

	errs->msg = xreallocarray(errs->msg, errs->count + 1,
	    sizeof *errs->msg);
	errs->msg[errs->count++] = xasprintf("%s:%d:%d: %s%s", path, line,
	    col, kind, msg);
	free(msg);
}

void
mal_errors_free(struct mal_errors *errs)
{
	for (size_t i = 0; i < errs->count; i++)
		free(errs->msg[i]);
	free(errs->msg);
	errs->msg = NULL;
	errs->count = 0;
}

/* ---- listing and symbols ----------------------------------------------- */

void
mal_syms_sort(struct mal_syms *syms)
{
	qsort(syms->sym, syms->n, sizeof *syms->sym, mal_sym_cmp);
}

void
mal_listing_head(struct buf *out, const char *title,
    const struct mal_syms *syms, const char *columns)
{
	buf_printf(out, "%s listing of %s\n%s\n", title,
	    syms->file ? syms->file : "(unknown)", columns);
}

void
mal_listing(const struct mic1_store *cs, const struct mal_syms *syms,
    struct buf *out)
{
	mal_listing_head(out, "; mic1-as", syms, "; addr  word         line  "
	    "label            statement");
	for (size_t i = 0; i < syms->n; i++) {
		const struct mal_sym *s = &syms->sym[i];
		size_t j = i;

		if (s->is_default) {
			/* A run of consecutive .default words: one line. */
			while (j + 1 < syms->n && syms->sym[j + 1].is_default &&
			    syms->sym[j + 1].addr == syms->sym[j].addr + 1)
				j++;
		}
		if (j > i)
			buf_printf(out, "0x%03x-0x%03x 0x%09llx %4u  %-16s %s\n",
			    s->addr, syms->sym[j].addr,
			    (unsigned long long)cs->word[s->addr], s->line,
			    ".default", s->text);
		else
			buf_printf(out, "0x%03x  0x%09llx %4u  %-16s %s\n",
			    s->addr, (unsigned long long)cs->word[s->addr],
			    s->line, s->is_default ? ".default" :
			    s->label ? s->label : "", s->text);
		i = j;
	}
}

void
mal_syms_write(const struct mal_syms *syms, struct buf *out)
{
	buf_printf(out, "# mic1-as symbols 1\n");
	buf_printf(out, "# ADDR<TAB>LINE<TAB>LABEL<TAB>TEXT; LABEL - is none, "
	    ".default marks a word the .default statement filled\n");
	if (syms->file != NULL)
		buf_printf(out, "file\t%s\n", syms->file);
	buf_printf(out, "main1\t0x%03x\n", syms->main1);
	for (size_t i = 0; i < syms->n; i++) {
		const struct mal_sym *s = &syms->sym[i];

		buf_printf(out, "0x%03x\t%u\t%s\t%s\n", s->addr, s->line,
		    s->is_default ? ".default" : s->label ? s->label : "-",
		    s->text);
	}
}

void
mal_syms_free(struct mal_syms *syms)
{
	for (size_t i = 0; i < syms->n; i++) {
		free(syms->sym[i].label);
		free(syms->sym[i].text);
	}
	free(syms->sym);
	free(syms->file);
	memset(syms, 0, sizeof *syms);
}

/* Next TAB-separated field of [*p, end), or with last the rest of the
 * line; NULL when there is none. */
static char *
mal_field(const char **p, const char *end, int last)
{
	const char *s = *p, *t;

	if (s == NULL || s > end)
		return NULL;
	if (last) {
		*p = NULL;
		return xstrndup(s, (size_t)(end - s));
	}
	if ((t = memchr(s, '\t', (size_t)(end - s))) == NULL)
		return NULL;
	*p = t + 1;
	return xstrndup(s, (size_t)(t - s));
}

static int
mal_parse_num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (*s == '\0' || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -1;
	*v = strtoul(s, &end, 0);
	return *end == '\0' && *v <= max ? 0 : -1;
}

int
mal_syms_parse(struct mal_syms *syms, const char *path, const char *text,
    size_t len, char **cause)
{
	struct mal_syms s;
	size_t pos = 0;
	int line = 0, have_hdr = 0;

	memset(&s, 0, sizeof s);
	s.main1 = MIC1_MAIN1;
	s.sym = xcalloc(MIC1_STORE_WORDS, sizeof *s.sym);
	while (pos < len) {
		const char *ln = text + pos, *end = ln, *p;
		char *f1 = NULL, *f2 = NULL, *f3 = NULL, *f4 = NULL;
		unsigned long addr, num;

		while (end < text + len && *end != '\n')
			end++;
		pos = (size_t)(end - text) + 1;
		line++;
		/* CRLF files, and any run of CRs: the writer never puts a
		 * CR at the end of a field, so none may come back */
		while (end > ln && end[-1] == '\r')
			end--;
		if (line == 1 && !(end - ln >= 19 &&
		    strncmp(ln, "# mic1-as symbols 1", 19) == 0)) {
			*cause = xasprintf("%s:1: not a mic1-as symbol file "
			    "(it starts with '# mic1-as symbols 1')", path);
			goto fail;
		}
		have_hdr = 1;
		if (end == ln || *ln == '#')
			continue;
		/* a NUL would end a field early, leaving what precedes it
		 * (a CR, say) to change when the file is written back */
		if (memchr(ln, '\0', (size_t)(end - ln)) != NULL) {
			*cause = xasprintf("%s:%d: a NUL byte in a symbol line "
			    "(a symbol file is text)", path, line);
			goto fail;
		}
		p = ln;
		f1 = mal_field(&p, end, 0);
		if (f1 != NULL && strcmp(f1, "file") == 0) {
			free(s.file);
			s.file = mal_field(&p, end, 1);
			free(f1);
			continue;
		}
		if (f1 != NULL && strcmp(f1, "main1") == 0) {
			f2 = mal_field(&p, end, 1);
			if (f2 == NULL || mal_parse_num(f2, MIC1_STORE_WORDS - 1,
			    &addr) != 0) {
				*cause = xasprintf("%s:%d: bad main1 address",
				    path, line);
				free(f1);
				free(f2);
				goto fail;
			}
			s.main1 = (uint16_t)addr;
			free(f1);
			free(f2);
			continue;
		}
		f2 = mal_field(&p, end, 0);
		f3 = mal_field(&p, end, 0);
		f4 = mal_field(&p, end, 1);
		if (f1 == NULL || f2 == NULL || f3 == NULL || f4 == NULL ||
		    mal_parse_num(f1, MIC1_STORE_WORDS - 1, &addr) != 0 ||
		    mal_parse_num(f2, UINT32_MAX, &num) != 0 || *f3 == '\0' ||
		    s.n >= MIC1_STORE_WORDS ||
		    (s.n > 0 && s.sym[s.n - 1].addr >= addr)) {
			*cause = xasprintf("%s:%d: bad symbol line (want ADDR, "
			    "LINE, LABEL and TEXT separated by tabs, addresses "
			    "increasing)", path, line);
			free(f1);
			free(f2);
			free(f3);
			free(f4);
			goto fail;
		}
		s.sym[s.n].addr = (uint16_t)addr;
		s.sym[s.n].line = (uint32_t)num;
		s.sym[s.n].is_default = strcmp(f3, ".default") == 0;
		s.sym[s.n].label = strcmp(f3, "-") == 0 ||
		    s.sym[s.n].is_default ? NULL : xstrdup(f3);
		s.sym[s.n].text = f4;
		s.n++;
		free(f1);
		free(f2);
		free(f3);
	}
	if (!have_hdr) {
		*cause = xasprintf("%s: empty symbol file", path);
		goto fail;
	}
	*syms = s;
	return 0;
fail:
	mal_syms_free(&s);
	return -1;
}

int
mal_syms_load_file(struct mal_syms *syms, const char *path, char **cause)
{
	uint8_t *data;
	size_t len;
	int rc;

	if (read_file(path, &data, &len, cause) != 0)
		return -1;
	rc = mal_syms_parse(syms, path, (const char *)data, len, cause);
	free(data);
	return rc;
}

const struct mal_sym *
mal_syms_at(const struct mal_syms *syms, uint32_t addr)
{
	size_t lo = 0, hi = syms->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms->sym[mid].addr == addr)
			return &syms->sym[mid];
		if (syms->sym[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
mal_syms_find(const struct mal_syms *syms, const char *label,
    uint32_t *addr)
{
	for (size_t i = 0; i < syms->n; i++)
		if (syms->sym[i].label != NULL &&
		    strcmp(syms->sym[i].label, label) == 0) {
			*addr = syms->sym[i].addr;
			return 0;
		}
	return -1;
}
