/*
 * The PMIC microcode compiler (see pmc.h and man/pmic-cc.1).
 *
 * Three passes:
 *
 *   parse    the whole file is tokenised (a block may span lines), each
 *            block and micro-instruction is recorded; a syntax error is
 *            reported and parsing resumes after the next ';' or '}', so
 *            one run reports every error;
 *   place    opcode blocks at their opcodes, then the conditionals (the
 *            taken target T and the fall-through F at T xor 0x100), then
 *            every other micro-instruction at the first free address,
 *            preferring addresses that no opcode dispatches to, so that
 *            an unimplemented opcode lands on an empty word and faults;
 *   encode   next-address words from the placement.
 *
 * Nothing is written to cs or syms unless every pass succeeded.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc.h"

/* ---- the opcode table ------------------------------------------------- */

static const struct {
	const char	*name;
	uint8_t		 code;
} pmc_ops[] = {
#define IJVM_OP(sym, code, k1, k2, pops, pushes, cls, desc) { #sym, code },
#include "ijvm-ops.def"
#undef IJVM_OP
};
#define PMC_NOPS (sizeof pmc_ops / sizeof pmc_ops[0])

static int
pmc_ieq(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen; i++)
		if (b[i] == '\0' || tolower((unsigned char)a[i]) !=
		    tolower((unsigned char)b[i]))
			return 0;
	return b[i] == '\0';
}

/* The opcode of a mnemonic, or -1. */
static int
pmc_opcode(const char *s, size_t n)
{
	for (size_t i = 0; i < PMC_NOPS; i++)
		if (pmc_ieq(s, n, pmc_ops[i].name))
			return pmc_ops[i].code;
	return -1;
}

static int
pmc_is_opcode_addr(int x)
{
	for (size_t i = 0; i < PMC_NOPS; i++)
		if (pmc_ops[i].code == (x & 0xFF))
			return 1;
	return 0;
}

/* ---- tokens ------------------------------------------------------------- */

enum pmc_tok {
	T_EOF, T_IDENT, T_NUM, T_LBRACE, T_RBRACE, T_SEMI, T_COLON, T_SEP,
	T_COMMA, T_EQ, T_PLUS, T_MINUS, T_SHL, T_SHR, T_LPAREN, T_RPAREN,
};

struct pmc_token {
	enum pmc_tok	 t;
	int		 line, col;
	const char	*s;
	size_t		 len;
	long		 num;
};

/* Control of a micro-instruction. */
enum pmc_ctl {
	C_NONE, C_GOTO, C_IF_N, C_IF_Z, C_DISPATCH, C_WIDE,
};

struct pmc_mi {
	int		 line, col;
	char		*text;
	int		 block;       /* index into blocks */
	int		 last;        /* the last of its block */
	int		 ncu;
	uint32_t	 cu[PMIC_NCU];
	uint32_t	 cbits[PMIC_NCU];
	int		 flags_only;  /* CU0 writes nothing: n = / z = */
	uint32_t	 mem;         /* bit k: CU k's memory operation */
	enum pmc_ctl	 ctl;
	char		*target;      /* C_GOTO, C_IF_*: block name */
	int		 tline, tcol;
	int		 tblock;      /* resolved, -1 */
	int		 addr;
};

struct pmc_block {
	char		*name;        /* as written */
	int		 line, col;
	int		 first, count;  /* micro-instructions */
	int		 fixed;         /* address, -1: free */
};

struct pmc {
	const char		*path;
	struct mal_errors	*errs;
	struct pmc_token	*tk;
	size_t			 ntk, pos;
	struct pmc_mi		*mi;
	size_t			 nmi, capmi;
	struct pmc_block	*blk;
	size_t			 nblk, capblk;
	int			 used[PMIC_STORE_WORDS];   /* mi index, -1 */
};

static void PRINTFLIKE(4, 5)
pmc_error(struct pmc *p, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mal_errors_vadd(p->errs, p->path, line, col, "", fmt, ap);
	va_end(ap);
}

static void
pmc_push(struct pmc *p, size_t *cap, enum pmc_tok t, int line, int col,
    const char *s, size_t len)
{
	struct pmc_token *k;

	if (p->ntk == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		p->tk = xreallocarray(p->tk, *cap, sizeof *p->tk);
	}
	k = &p->tk[p->ntk++];
	k->t = t;
	k->line = line;
	k->col = col;
	k->s = s;
	k->len = len;
	k->num = 0;
}

static void
pmc_tokenize(struct pmc *p, const char *src, size_t n)
{
	size_t i = 0, cap = 0, bol = 0;
	int line = 1;

	while (i < n) {
		char ch = src[i];
		int col = (int)(i - bol) + 1;
		size_t j;

		if (ch == '\n') {
			line++;
			bol = ++i;
			continue;
		}
		if (ch == '\0') {
			pmc_error(p, line, col, "NUL byte in the source: not a "
			    "text file?");
			i++;
			continue;
		}
		if (isspace((unsigned char)ch)) {
			i++;
			continue;
		}
		if (ch == '#') {
			while (i < n && src[i] != '\n')
				i++;
			continue;
		}
		if (isalpha((unsigned char)ch) || ch == '_') {
			for (j = i; j < n && (isalnum((unsigned char)src[j]) ||
			    src[j] == '_'); j++)
				;
			pmc_push(p, &cap, T_IDENT, line, col, src + i, j - i);
			i = j;
			continue;
		}
		if (isdigit((unsigned char)ch)) {
			long v = 0;

			for (j = i; j < n && isalnum((unsigned char)src[j]);
			    j++)
				v = v < 100000 ? v * 10 + (src[j] - '0') : v;
			pmc_push(p, &cap, T_NUM, line, col, src + i, j - i);
			p->tk[p->ntk - 1].num = v;
			for (size_t k = i; k < j; k++)
				if (!isdigit((unsigned char)src[k])) {
					pmc_error(p, line, col, "bad number "
					    "'%.*s' (decimal digits only)",
					    (int)(j - i), src + i);
					break;
				}
			i = j;
			continue;
		}
		j = i + 1;
		switch (ch) {
		case '{': pmc_push(p, &cap, T_LBRACE, line, col, src + i, 1); break;
		case '}': pmc_push(p, &cap, T_RBRACE, line, col, src + i, 1); break;
		case ';': pmc_push(p, &cap, T_SEMI, line, col, src + i, 1); break;
		case ':': pmc_push(p, &cap, T_COLON, line, col, src + i, 1); break;
		case ',': pmc_push(p, &cap, T_COMMA, line, col, src + i, 1); break;
		case '=': pmc_push(p, &cap, T_EQ, line, col, src + i, 1); break;
		case '+': pmc_push(p, &cap, T_PLUS, line, col, src + i, 1); break;
		case '-': pmc_push(p, &cap, T_MINUS, line, col, src + i, 1); break;
		case '(': pmc_push(p, &cap, T_LPAREN, line, col, src + i, 1); break;
		case ')': pmc_push(p, &cap, T_RPAREN, line, col, src + i, 1); break;
		case '/':
			if (i + 1 < n && src[i + 1] == '/') {
				pmc_push(p, &cap, T_SEP, line, col, src + i, 2);
				j = i + 2;
			} else
				pmc_error(p, line, col, "unexpected character "
				    "'/' (// separates compute units; comments "
				    "start with #)");
			break;
		case '<':
		case '>':
			if (i + 1 < n && src[i + 1] == ch) {
				pmc_push(p, &cap, ch == '<' ? T_SHL : T_SHR,
				    line, col, src + i, 2);
				j = i + 2;
			} else
				pmc_error(p, line, col, "unexpected character "
				    "'%c' (the shifts are << and >>)", ch);
			break;
		default:
			if (isprint((unsigned char)ch))
				pmc_error(p, line, col, "unexpected character "
				    "'%c'", ch);
			else
				pmc_error(p, line, col, "unexpected byte "
				    "0x%02x", (unsigned)(unsigned char)ch);
			break;
		}
		i = j;
	}
	pmc_push(p, &cap, T_EOF, line, (int)(n - bol) + 1, src + n, 0);
}

/* ---- parsing ------------------------------------------------------------ */

static const struct pmc_token *
pmc_peek(const struct pmc *p)
{
	return &p->tk[p->pos];
}

static const struct pmc_token *
pmc_next(struct pmc *p)
{
	const struct pmc_token *k = &p->tk[p->pos];

	if (k->t != T_EOF)
		p->pos++;
	return k;
}

static int
tk_is(const struct pmc_token *k, const char *word)
{
	return k->t == T_IDENT && pmc_ieq(k->s, k->len, word);
}

/* The end of an item: a separator of items or micro-instructions. */
static int
tk_ends_item(const struct pmc_token *k)
{
	return k->t == T_COLON || k->t == T_SEP || k->t == T_SEMI ||
	    k->t == T_RBRACE || k->t == T_EOF;
}

static const char *
tk_desc(const struct pmc_token *k, char *buf, size_t n)
{
	if (k->t == T_EOF)
		return "the end of the file";
	snprintf(buf, n, "'%.*s'", (int)(k->len > 32 ? 32 : k->len), k->s);
	return buf;
}

static int
tk_is_one(const struct pmc_token *k)
{
	return tk_is(k, "one") || (k->t == T_NUM && k->num == 1 &&
	    k->len == 1);
}

/* A readable register operand; -1 after reporting why not. */
static int
pmc_operand(struct pmc *p, const struct pmc_token *k)
{
	char b[48];
	int r;

	if (k->t != T_IDENT) {
		if (k->t == T_NUM)
			pmc_error(p, k->line, k->col, "constant %.*s is not a "
			    "PMIC operand (use zero, one, -one, or the "
			    "constant registers c2..c5)", (int)k->len, k->s);
		else
			pmc_error(p, k->line, k->col, "expected a register, "
			    "found %s", tk_desc(k, b, sizeof b));
		return -1;
	}
	if ((r = pmic_reg_lookup(k->s, k->len)) < 0) {
		pmc_error(p, k->line, k->col, "unknown register '%.*s' "
		    "(readable: mar mdr pc mbr mbr0..mbr3 mbr1s mbr12 mbr12s "
		    "sp lv cpp tos opc h g0 g1 c2..c5 sid)", (int)k->len, k->s);
		return -1;
	}
	return r;
}

/*
 * rvalue: one ALU operation.  *w receives the CU word without C and EN.
 * 0, or -1 after reporting (tokens up to the end of the item are
 * skipped by the caller).
 */
static int
pmc_rvalue(struct pmc *p, uint32_t *alu, uint32_t *a, uint32_t *b)
{
	const struct pmc_token *k = pmc_next(p), *o, *x;
	char d[48];
	int ra, rb;

	*a = *b = PMIC_R_NONE;
	if (k->t == T_MINUS) {
		x = pmc_next(p);
		if (tk_is_one(x)) {
			*alu = PMIC_ALU_MINUS1;
			goto end;
		}
		if ((ra = pmc_operand(p, x)) < 0)
			return -1;
		*alu = PMIC_ALU_NEG;
		*a = (uint32_t)ra;
		goto end;
	}
	if (tk_is(k, "not")) {
		if ((ra = pmc_operand(p, pmc_next(p))) < 0)
			return -1;
		*alu = PMIC_ALU_NOT;
		*a = (uint32_t)ra;
		goto end;
	}
	if (tk_is(k, "zero") || (k->t == T_NUM && k->num == 0 &&
	    k->len == 1)) {
		*alu = PMIC_ALU_ZERO;
		goto end;
	}
	if (tk_is_one(k)) {
		*alu = PMIC_ALU_ONE;
		goto end;
	}
	if (tk_ends_item(k)) {
		pmc_error(p, k->line, k->col, "expected a value after '=', "
		    "found %s", tk_desc(k, d, sizeof d));
		return -1;
	}
	if ((ra = pmc_operand(p, k)) < 0)
		return -1;
	*a = (uint32_t)ra;
	o = pmc_peek(p);
	if (tk_ends_item(o)) {
		*alu = PMIC_ALU_A;
		return 0;
	}
	o = pmc_peek(p);
	if (o->t == T_IDENT && !tk_is(o, "and") && !tk_is(o, "or")) {
		pmc_error(p, o->line, o->col, "unexpected %s after the ALU "
		    "operation (one operation per compute unit: separate them "
		    "with //)", tk_desc(o, d, sizeof d));
		return -1;
	}
	if (o->t != T_IDENT && o->t != T_PLUS && o->t != T_MINUS &&
	    o->t != T_SHL && o->t != T_SHR) {
		pmc_error(p, o->line, o->col, "expected an operator (+ - and "
		    "or << >>) or the end of the operation, found %s",
		    tk_desc(o, d, sizeof d));
		return -1;
	}
	o = pmc_next(p);
	x = pmc_next(p);
	switch (o->t) {
	case T_PLUS:
	case T_MINUS:
		if (tk_is_one(x)) {
			*alu = o->t == T_PLUS ? PMIC_ALU_INC : PMIC_ALU_DEC;
			goto end;
		}
		if ((rb = pmc_operand(p, x)) < 0)
			return -1;
		*b = (uint32_t)rb;
		if (o->t == T_MINUS) {
			*alu = PMIC_ALU_SUB;
			goto end;
		}
		*alu = PMIC_ALU_ADD;
		if (pmc_peek(p)->t == T_PLUS) {
			pmc_next(p);
			x = pmc_next(p);
			if (!tk_is_one(x)) {
				pmc_error(p, x->line, x->col, "A+B+ takes "
				    "only one (A+B+one), found %s",
				    tk_desc(x, d, sizeof d));
				return -1;
			}
			*alu = PMIC_ALU_ADD1;
		}
		goto end;
	case T_SHL:
	case T_SHR:
		if (x->t != T_NUM || !(x->num == 8 || (o->t == T_SHR &&
		    x->num == 1))) {
			pmc_error(p, x->line, x->col, "the shifts are A<<8, "
			    "A>>8 and A>>1, not %s%s", o->t == T_SHL ? "<<" :
			    ">>", tk_desc(x, d, sizeof d));
			return -1;
		}
		*alu = o->t == T_SHL ? PMIC_ALU_SHL8 : x->num == 8 ?
		    PMIC_ALU_SRA8 : PMIC_ALU_SRA1;
		goto end;
	case T_IDENT:
		if (tk_is(o, "and") || tk_is(o, "or")) {
			if ((rb = pmc_operand(p, x)) < 0)
				return -1;
			*b = (uint32_t)rb;
			*alu = tk_is(o, "and") ? PMIC_ALU_AND : PMIC_ALU_OR;
			goto end;
		}
		/* FALLTHROUGH */
	default:
		return -1;	/* excluded above */
	}
end:
	k = pmc_peek(p);
	if (!tk_ends_item(k)) {
		pmc_error(p, k->line, k->col, "unexpected %s after the ALU "
		    "operation (one operation per compute unit: separate them "
		    "with //)", tk_desc(k, d, sizeof d));
		return -1;
	}
	return 0;
}

/* Skip to the end of the current item. */
static void
pmc_skip_item(struct pmc *p)
{
	while (!tk_ends_item(pmc_peek(p)))
		pmc_next(p);
}

/* lvalue = rvalue, the next ALU operation of w. */
static void
pmc_assign(struct pmc *p, struct pmc_mi *w)
{
	const struct pmc_token *first = pmc_peek(p), *k;
	uint32_t cbits = 0, alu, a, b;
	int flags = 0, nnames = 0, bad = 0, cu = w->ncu;
	char d[48];

	for (;;) {
		uint32_t bit;

		k = pmc_next(p);
		if (k->t != T_IDENT) {
			pmc_error(p, k->line, k->col, "expected a register to "
			    "assign, found %s", tk_desc(k, d, sizeof d));
			pmc_skip_item(p);
			return;
		}
		nnames++;
		if (tk_is(k, "n") || tk_is(k, "z")) {
			flags = 1;
		} else if ((bit = pmic_c_lookup(k->s, k->len)) != 0) {
			if (cbits & bit) {
				pmc_error(p, k->line, k->col, "register '%.*s' "
				    "listed twice", (int)k->len, k->s);
				bad = 1;
			}
			cbits |= bit;
		} else if (pmic_reg_lookup(k->s, k->len) >= 0) {
			pmc_error(p, k->line, k->col, "'%.*s' is not writable "
			    "(writable: mar mdr pc sp lv cpp tos opc h g0 g1)",
			    (int)k->len, k->s);
			bad = 1;
		} else {
			pmc_error(p, k->line, k->col, "unknown register "
			    "'%.*s' (writable: mar mdr pc sp lv cpp tos opc h "
			    "g0 g1, or n / z for the flags alone)",
			    (int)k->len, k->s);
			bad = 1;
		}
		k = pmc_next(p);
		if (k->t == T_EQ)
			break;
		if (k->t != T_COMMA) {
			pmc_error(p, k->line, k->col, "expected ',' or '=' "
			    "after a register, found %s",
			    tk_desc(k, d, sizeof d));
			pmc_skip_item(p);
			return;
		}
	}
	if (flags && nnames > 1) {
		pmc_error(p, first->line, first->col, "n and z compute the "
		    "flags alone: they cannot be listed with registers (the "
		    "flags always come from CU0)");
		bad = 1;
	}
	if (pmc_rvalue(p, &alu, &a, &b) != 0) {
		pmc_skip_item(p);
		return;
	}
	if (cu >= PMIC_NCU) {
		pmc_error(p, first->line, first->col, "a fourth ALU operation: "
		    "PMIC has three compute units (CU0, CU1, CU2)");
		return;
	}
	w->ncu++;
	if (flags && cu != 0) {
		pmc_error(p, first->line, first->col, "'%.*s =' computes the "
		    "flags alone, which come from CU0: make it the first ALU "
		    "operation", (int)first->len, first->s);
		bad = 1;
	}
	for (int i = 0; i < cu; i++)
		if (w->cbits[i] & cbits) {
			uint32_t both = w->cbits[i] & cbits;
			int bit = 0;

			while (!(both & (UINT32_C(1) << bit)))
				bit++;
			pmc_error(p, first->line, first->col, "register '%s' "
			    "written by two compute units (CU%d and CU%d)",
			    pmic_c_name(bit), i, cu);
			bad = 1;
		}
	if (bad)
		return;
	w->cbits[cu] = cbits;
	w->cu[cu] = pmic_cu_make(1, alu, a, b, cbits, 0);
	if (flags)
		w->flags_only = 1;
}

/* next TARGET */
static void
pmc_next_item(struct pmc *p, struct pmc_mi *w, const struct pmc_token *kw)
{
	const struct pmc_token *k = pmc_next(p), *f;
	enum pmc_ctl ctl = C_GOTO;
	char d[48];

	if (k->t == T_LPAREN) {
		f = pmc_next(p);
		if (!(tk_is(f, "n") || tk_is(f, "z")) ||
		    pmc_peek(p)->t != T_RPAREN) {
			pmc_error(p, f->line, f->col, "expected next (n) NAME "
			    "or next (z) NAME");
			pmc_skip_item(p);
			return;
		}
		pmc_next(p);
		ctl = tk_is(f, "n") ? C_IF_N : C_IF_Z;
		k = pmc_next(p);
	}
	if (k->t != T_IDENT) {
		pmc_error(p, k->line, k->col, "expected a label, dispatch or "
		    "wide after next, found %s", tk_desc(k, d, sizeof d));
		pmc_skip_item(p);
		return;
	}
	if (!tk_ends_item(pmc_peek(p))) {
		f = pmc_peek(p);
		pmc_error(p, f->line, f->col, "unexpected %s after the target "
		    "of next", tk_desc(f, d, sizeof d));
		pmc_skip_item(p);
		return;
	}
	if (w->ctl != C_NONE) {
		pmc_error(p, kw->line, kw->col, "two 'next' in one "
		    "micro-instruction");
		return;
	}
	if (ctl == C_GOTO && tk_is(k, "dispatch"))
		ctl = C_DISPATCH;
	else if (ctl == C_GOTO && tk_is(k, "wide"))
		ctl = C_WIDE;
	else if (tk_is(k, "dispatch") || tk_is(k, "wide")) {
		pmc_error(p, k->line, k->col, "a conditional next takes a "
		    "label, not %.*s", (int)k->len, k->s);
		return;
	} else {
		w->target = xstrndup(k->s, k->len);
		w->tline = k->line;
		w->tcol = k->col;
	}
	w->ctl = ctl;
}

/* The source text of tokens [from, to), whitespace collapsed. */
static char *
pmc_text(const struct pmc *p, size_t from, size_t to)
{
	struct buf b = { 0 };

	for (size_t i = from; i < to; i++) {
		const struct pmc_token *k = &p->tk[i];
		enum pmc_tok prev = i > from ? p->tk[i - 1].t : T_EOF;
		/* "mar,sp = sp-one", "h>>1", "next (z) L" */
		int op = k->t == T_PLUS || k->t == T_MINUS || k->t == T_SHL ||
		    k->t == T_SHR;
		int tight = k->t == T_COMMA || prev == T_COMMA ||
		    prev == T_LPAREN || k->t == T_RPAREN ||
		    (op && (prev == T_IDENT || prev == T_NUM)) ||
		    prev == T_PLUS || prev == T_MINUS || prev == T_SHL ||
		    prev == T_SHR;

		if (i > from && !tight)
			buf_put_u8(&b, ' ');
		buf_put(&b, k->s, k->len);
	}
	buf_put_u8(&b, 0);
	return (char *)b.data;
}

/* One micro-instruction, up to (not including) ';' or '}'. */
static void
pmc_microinstr(struct pmc *p, int block)
{
	const struct pmc_token *k = pmc_peek(p);
	size_t start = p->pos;
	struct pmc_mi *w;
	char d[48];

	if (p->nmi == p->capmi) {
		p->capmi = p->capmi ? 2 * p->capmi : 128;
		p->mi = xreallocarray(p->mi, p->capmi, sizeof *p->mi);
	}
	w = &p->mi[p->nmi++];
	memset(w, 0, sizeof *w);
	w->line = k->line;
	w->col = k->col;
	w->block = block;
	w->tblock = -1;
	w->addr = -1;
	for (;;) {
		k = pmc_peek(p);
		if (k->t == T_SEMI || k->t == T_RBRACE || k->t == T_EOF ||
		    k->t == T_COLON || k->t == T_SEP) {
			pmc_error(p, k->line, k->col, "expected an ALU "
			    "operation, fetch, read, write or next, found %s",
			    tk_desc(k, d, sizeof d));
			if (k->t != T_COLON && k->t != T_SEP)
				break;
			pmc_next(p);
			continue;
		}
		if (tk_is(k, "next")) {
			pmc_next(p);
			pmc_next_item(p, w, k);
		} else if ((tk_is(k, "fetch") || tk_is(k, "read") ||
		    tk_is(k, "write")) && tk_ends_item(&p->tk[p->pos + 1])) {
			int cu = tk_is(k, "fetch") ? 0 : tk_is(k, "read") ? 1 : 2;

			pmc_next(p);
			if (w->mem & (1u << cu))
				pmc_error(p, k->line, k->col, "'%s' twice in one "
				    "micro-instruction", pmic_mem_name(cu));
			w->mem |= 1u << cu;
		} else
			pmc_assign(p, w);
		k = pmc_peek(p);
		if (k->t == T_COLON || k->t == T_SEP) {
			pmc_next(p);
			continue;
		}
		break;
	}
	w->text = pmc_text(p, start, p->pos);
	for (int i = 0; i < PMIC_NCU; i++)
		if (w->mem & (1u << i))
			w->cu[i] |= UINT32_C(1) << PMIC_BIT_MEM;
}

/* Skip to just after the next ';' (stopping before '}') of a block. */
static void
pmc_resync(struct pmc *p)
{
	for (;;) {
		const struct pmc_token *k = pmc_peek(p);

		if (k->t == T_EOF || k->t == T_RBRACE)
			return;
		pmc_next(p);
		if (k->t == T_SEMI)
			return;
	}
}

static void
pmc_block(struct pmc *p)
{
	const struct pmc_token *name = pmc_next(p), *k;
	struct pmc_block *b;
	char d[48];
	int idx;

	if (name->t != T_IDENT || pmc_peek(p)->t != T_LBRACE) {
		k = name->t != T_IDENT ? name : pmc_peek(p);
		pmc_error(p, k->line, k->col, "expected NAME { ... }, found %s",
		    tk_desc(k, d, sizeof d));
		/* Skip this block, if there is one. */
		while (pmc_peek(p)->t != T_EOF && pmc_peek(p)->t != T_RBRACE)
			pmc_next(p);
		pmc_next(p);
		return;
	}
	pmc_next(p);
	if (p->nblk == p->capblk) {
		p->capblk = p->capblk ? 2 * p->capblk : 64;
		p->blk = xreallocarray(p->blk, p->capblk, sizeof *p->blk);
	}
	idx = (int)p->nblk++;
	b = &p->blk[idx];
	b->name = xstrndup(name->s, name->len);
	b->line = name->line;
	b->col = name->col;
	b->first = (int)p->nmi;
	b->fixed = -1;
	if (tk_is(name, "dispatch"))
		pmc_error(p, name->line, name->col, "'dispatch' is reserved "
		    "(next dispatch): choose another block name");
	for (;;) {
		size_t before = p->errs->count;

		k = pmc_peek(p);
		if (k->t == T_RBRACE) {
			if (p->nmi == (size_t)b->first)
				pmc_error(p, k->line, k->col, "block '%s' has "
				    "no micro-instructions", b->name);
			pmc_next(p);
			break;
		}
		if (k->t == T_EOF) {
			pmc_error(p, name->line, name->col, "block '%s' is not "
			    "closed: '}' missing", b->name);
			break;
		}
		pmc_microinstr(p, idx);
		k = pmc_peek(p);
		if (k->t == T_SEMI) {
			pmc_next(p);
			continue;
		}
		if (k->t == T_RBRACE || k->t == T_EOF)
			continue;
		if (p->errs->count == before)
			pmc_error(p, k->line, k->col, "expected ';' or '}' "
			    "after a micro-instruction, found %s",
			    tk_desc(k, d, sizeof d));
		pmc_resync(p);
	}
	b = &p->blk[idx];
	b->count = (int)p->nmi - b->first;
	if (b->count > 0)
		p->mi[p->nmi - 1].last = 1;
}

/* ---- placement -------------------------------------------------------- */

static int
pmc_find_block(const struct pmc *p, const char *name)
{
	for (size_t i = 0; i < p->nblk; i++)
		if (pmc_ieq(name, strlen(name), p->blk[i].name))
			return (int)i;
	return -1;
}

/* Which label a block is, and its fixed address. */
static void
pmc_labels(struct pmc *p)
{
	for (size_t i = 0; i < p->nblk; i++) {
		struct pmc_block *b = &p->blk[i];
		size_t n = strlen(b->name);
		int op;

		for (size_t j = 0; j < i; j++)
			if (pmc_ieq(b->name, n, p->blk[j].name)) {
				pmc_error(p, b->line, b->col, "duplicate label "
				    "'%s' (first defined at line %d)", b->name,
				    p->blk[j].line);
				break;
			}
		if ((op = pmc_opcode(b->name, n)) >= 0)
			b->fixed = op;
		else if (n > 5 && pmc_ieq(b->name, 5, "wide_") &&
		    (op = pmc_opcode(b->name + 5, n - 5)) >= 0)
			b->fixed = 0x100 + op;
	}
	for (size_t i = 0; i < p->nmi; i++) {
		struct pmc_mi *w = &p->mi[i];

		if (w->target == NULL)
			continue;
		if ((w->tblock = pmc_find_block(p, w->target)) < 0)
			pmc_error(p, w->tline, w->tcol, "undefined label '%s'",
			    w->target);
		if ((w->ctl == C_IF_N || w->ctl == C_IF_Z) && w->last)
			pmc_error(p, w->line, w->col, "a conditional next needs "
			    "a following micro-instruction in its block (the "
			    "one run when the flag is clear)");
	}
}

static void
pmc_put(struct pmc *p, int idx, int addr)
{
	p->mi[idx].addr = addr;
	p->used[addr] = idx;
}

/* A description of what holds address x, for messages. */
static char *
pmc_holder(const struct pmc *p, int x)
{
	const struct pmc_mi *w = &p->mi[p->used[x]];
	const struct pmc_block *b = &p->blk[w->block];

	return xasprintf("micro-instruction %d of '%s' (line %d)",
	    p->used[x] - b->first + 1, b->name, w->line);
}

/* The first free address in preference order: addresses no opcode
 * dispatches to first, upper half before lower (the lower half's free
 * words pair with the upper's for conditionals).  -1 when full. */
static int
pmc_free_single(const struct pmc *p)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int x = 0x100; x < PMIC_STORE_WORDS; x++)
			if (p->used[x] < 0 && (pass || !pmc_is_opcode_addr(x)))
				return x;
		for (int x = 0; x < 0x100; x++)
			if (p->used[x] < 0 && (pass || !pmc_is_opcode_addr(x)))
				return x;
	}
	return -1;
}

static void
pmc_place(struct pmc *p)
{
	for (int x = 0; x < PMIC_STORE_WORDS; x++)
		p->used[x] = -1;
	/* 1: the blocks fixed at opcodes. */
	for (size_t i = 0; i < p->nblk; i++)
		if (p->blk[i].fixed >= 0)
			pmc_put(p, p->blk[i].first, p->blk[i].fixed);
	/* 2: conditionals.  A target's fall-through address is unique, so
	 * two conditionals to one label cannot both be placed. */
	for (size_t i = 0; i < p->nmi; i++) {
		struct pmc_mi *w = &p->mi[i];
		int t, f = (int)i + 1, x = -1;

		if ((w->ctl != C_IF_N && w->ctl != C_IF_Z) || w->last)
			continue;
		t = p->blk[w->tblock].first;
		if (p->mi[t].addr >= 0) {
			int want = p->mi[t].addr ^ 0x100;

			if (p->used[want] >= 0) {
				char *h = pmc_holder(p, want);

				pmc_error(p, w->line, w->col, "impossible "
				    "conditional placement: the fall-through "
				    "of 'next (%c) %s' must go to 0x%03x "
				    "(%s xor 0x100), which holds %s",
				    w->ctl == C_IF_N ? 'n' : 'z', w->target,
				    want, w->target, h);
				free(h);
				continue;
			}
			pmc_put(p, f, want);
			continue;
		}
		for (int pass = 0; pass < 2 && x < 0; pass++)
			for (int y = 0; y < 0x100; y++)
				if (p->used[y] < 0 && p->used[y | 0x100] < 0 &&
				    (pass || !pmc_is_opcode_addr(y))) {
					x = y;
					break;
				}
		if (x < 0) {
			pmc_error(p, w->line, w->col, "control store full: no "
			    "free pair of addresses X, X + 0x100 for 'next "
			    "(%c) %s'", w->ctl == C_IF_N ? 'n' : 'z',
			    w->target);
			return;
		}
		pmc_put(p, t, x | 0x100);
		pmc_put(p, f, x);
	}
	/* 3: everything else, in source order. */
	for (size_t i = 0; i < p->nmi; i++) {
		int x;

		if (p->mi[i].addr >= 0)
			continue;
		if ((x = pmc_free_single(p)) < 0) {
			pmc_error(p, p->mi[i].line, p->mi[i].col, "control "
			    "store full: the program has more than %d "
			    "micro-instructions", PMIC_STORE_WORDS);
			return;
		}
		pmc_put(p, (int)i, x);
	}
}

static uint32_t
pmc_encode_next(const struct pmc *p, size_t i)
{
	const struct pmc_mi *w = &p->mi[i];
	uint32_t v = UINT32_C(1) << PMIC_BIT_PRESENT;

	switch (w->ctl) {
	case C_GOTO:
		return v | (uint32_t)p->mi[p->blk[w->tblock].first].addr;
	case C_IF_N:
	case C_IF_Z:
		return v | (UINT32_C(1) << (w->ctl == C_IF_N ? PMIC_BIT_JAMN :
		    PMIC_BIT_JAMZ)) | (uint32_t)p->mi[i + 1].addr;
	case C_DISPATCH:
		return v | (UINT32_C(1) << PMIC_BIT_JMPC);
	case C_WIDE:
		return v | (UINT32_C(1) << PMIC_BIT_JMPC) | 0x100;
	default:
		if (w->last)
			return v | (UINT32_C(1) << PMIC_BIT_JMPC);
		return v | (uint32_t)p->mi[i + 1].addr;
	}
}

static void
pmc_free(struct pmc *p)
{
	for (size_t i = 0; i < p->nmi; i++) {
		free(p->mi[i].text);
		free(p->mi[i].target);
	}
	free(p->mi);
	for (size_t i = 0; i < p->nblk; i++)
		free(p->blk[i].name);
	free(p->blk);
	free(p->tk);
}

int
pmc_compile(const char *path, const char *src, size_t len,
    struct pmic_store *cs, struct mal_syms *syms, struct mal_errors *errs)
{
	struct pmc p;

	memset(&p, 0, sizeof p);
	p.path = path;
	p.errs = errs;
	errs->msg = NULL;
	errs->count = 0;
	pmc_tokenize(&p, src, len);
	while (pmc_peek(&p)->t != T_EOF)
		pmc_block(&p);
	if (p.nmi == 0 && errs->count == 0)
		pmc_error(&p, 1, 1, "no micro-instructions (a block is NAME { "
		    "micro-instruction ; ... })");
	pmc_labels(&p);
	if (errs->count == 0)
		pmc_place(&p);
	if (errs->count != 0) {
		pmc_free(&p);
		return -1;
	}
	pmic_store_init(cs);
	for (size_t i = 0; i < p.nmi; i++) {
		struct pmic_mi *mi = &cs->mi[p.mi[i].addr];

		memcpy(mi->cu, p.mi[i].cu, sizeof mi->cu);
		mi->next = pmc_encode_next(&p, i);
	}
	if (syms != NULL) {
		memset(syms, 0, sizeof *syms);
		syms->file = xstrdup(path);
		syms->sym = xcalloc(p.nmi, sizeof *syms->sym);
		for (size_t i = 0; i < p.nmi; i++) {
			const struct pmc_mi *w = &p.mi[i];
			const struct pmc_block *b = &p.blk[w->block];
			struct mal_sym *s = &syms->sym[syms->n++];

			s->addr = (uint16_t)w->addr;
			s->line = (uint32_t)w->line;
			s->label = (int)i == b->first ? xstrdup(b->name) : NULL;
			s->text = xstrdup(w->text);
		}
		mal_syms_sort(syms);
	}
	pmc_free(&p);
	return 0;
}

void
pmc_listing(const struct pmic_store *cs, const struct mal_syms *syms,
    struct buf *out)
{
	mal_listing_head(out, "# pmic-cc", syms, "# addr  cu0      cu1      "
	    "cu2      next      line  label            micro-instruction");
	for (size_t i = 0; i < syms->n; i++) {
		const struct mal_sym *s = &syms->sym[i];
		const struct pmic_mi *mi = &cs->mi[s->addr];

		buf_printf(out, "0x%03x  %08x %08x %08x %08x %4u  %-16s %s\n",
		    s->addr, mi->cu[0], mi->cu[1], mi->cu[2], mi->next, s->line,
		    s->label ? s->label : "", s->text);
	}
}
