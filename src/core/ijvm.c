/*
 * IJVM instruction tables and instruction sets.
 *
 * The built-in table is ijvm-ops.def expanded once into a static array
 * indexed by opcode; nothing else in micdb spells an opcode.  An
 * instruction set (struct ijvm_opset) starts as a copy of that table and a
 * configuration file (doc/ijvm.md section 4) layers user lines on top:
 *
 *   0xOP MNEMONIC [kind ...]   // comment
 *
 * A line replaces whatever instruction had its opcode, and a mnemonic
 * names one instruction only, so defining it again removes its earlier
 * opcode.  User entries own their mnemonic (builtin == 0 means "free the
 * name"); descriptions and built-in names are static.
 *
 * A configuration file is checked completely before anything is applied,
 * so a set is either fully updated or untouched.
 */
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "util.h"

#define NKINDS(k1, k2) \
	((OPK_##k1 != OPK_NONE) + (OPK_##k2 != OPK_NONE))

static const struct ijvm_opinfo builtin_ops[256] = {
#define IJVM_OP(sym, code, k1, k2, po, pu, cl, ds) \
	[code] = { .name = #sym, .opcode = code, .noperands = NKINDS(k1, k2), \
	    .kind = { OPK_##k1, OPK_##k2, OPK_NONE }, .pops = po, \
	    .pushes = pu, .cls = OPC_##cl, .builtin = 1, .desc = ds },
#include "ijvm-ops.def"
#undef IJVM_OP
};

static const char *const fault_messages[FAULT_COUNT] = {
#define FAULT(sym, code, msg) [code] = msg,
#include "faults.def"
#undef FAULT
};

static const char *const fault_names[FAULT_COUNT] = {
#define FAULT(sym, code, msg) [code] = #sym,
#include "faults.def"
#undef FAULT
};

/* Config spellings; the first one of a kind is its canonical name. */
static const struct {
	const char	*word;
	enum ijvm_opk	 kind;
} opk_words[] = {
	{ "byte",     OPK_BYTE },
	{ "const",    OPK_CONST },
	{ "varnum",   OPK_VARNUM },
	{ "var",      OPK_VARNUM },
	{ "label",    OPK_LABEL },
	{ "offset",   OPK_METHOD },
	{ "method",   OPK_METHOD },
	{ "index",    OPK_INDEX },
	{ "constant", OPK_INDEX },
	{ "global",   OPK_GLOBAL },
};

#define CONFIG_KINDS "byte, varnum, label, offset, index, const, global"

const struct ijvm_opinfo *
ijvm_builtin(uint8_t opcode)
{
	if (builtin_ops[opcode].name == NULL)
		return NULL;
	return &builtin_ops[opcode];
}

int
ijvm_opk_size(enum ijvm_opk kind, int wide)
{
	switch (kind) {
	case OPK_BYTE:
	case OPK_CONST:
		return 1;
	case OPK_VARNUM:
		return wide ? 2 : 1;
	case OPK_LABEL:
	case OPK_INDEX:
	case OPK_METHOD:
	case OPK_GLOBAL:
		return 2;
	case OPK_NONE:
		break;
	}
	return 0;
}

int
ijvm_insn_size(const struct ijvm_opinfo *info, int wide)
{
	int i, n = 1;

	for (i = 0; i < info->noperands && i < IJVM_MAX_OPERANDS; i++)
		n += ijvm_opk_size(info->kind[i], wide);
	return n;
}

const char *
ijvm_opk_name(enum ijvm_opk kind)
{
	size_t i;

	for (i = 0; i < sizeof opk_words / sizeof opk_words[0]; i++) {
		if (opk_words[i].kind == kind)
			return opk_words[i].word;
	}
	return "none";
}

/* ASCII only: config files and sources are bytes, not locale text. */
static int
lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int
word_eq_nocase(const char *a, size_t alen, const char *b)
{
	size_t i;

	if (strlen(b) != alen)
		return 0;
	for (i = 0; i < alen; i++) {
		if (lower((unsigned char)a[i]) != lower((unsigned char)b[i]))
			return 0;
	}
	return 1;
}

static int
opk_lookup(const char *word, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof opk_words / sizeof opk_words[0]; i++) {
		if (word_eq_nocase(word, len, opk_words[i].word))
			return (int)opk_words[i].kind;
	}
	return -1;
}

int
ijvm_opk_parse(const char *word)
{
	return opk_lookup(word, strlen(word));
}

void
ijvm_opset_init(struct ijvm_opset *set)
{
	int i;

	memset(set, 0, sizeof *set);
	for (i = 0; i < 256; i++) {
		if (builtin_ops[i].name != NULL) {
			set->op[i] = builtin_ops[i];
			set->present[i] = 1;
		}
	}
}

static void
opset_clear(struct ijvm_opset *set, int opcode)
{
	if (set->present[opcode] && !set->op[opcode].builtin)
		free((char *)set->op[opcode].name);
	memset(&set->op[opcode], 0, sizeof set->op[opcode]);
	set->present[opcode] = 0;
}

void
ijvm_opset_free(struct ijvm_opset *set)
{
	int i;

	for (i = 0; i < 256; i++)
		opset_clear(set, i);
}

const struct ijvm_opinfo *
ijvm_opset_find(const struct ijvm_opset *set, const char *mnemonic)
{
	size_t len = strlen(mnemonic);
	int i;

	for (i = 0; i < 256; i++) {
		if (set->present[i] &&
		    word_eq_nocase(mnemonic, len, set->op[i].name))
			return &set->op[i];
	}
	return NULL;
}

const struct ijvm_opinfo *
ijvm_opset_get(const struct ijvm_opset *set, uint8_t opcode)
{
	return set->present[opcode] ? &set->op[opcode] : NULL;
}

const char *
ijvm_fault_message(int fault)
{
	if (fault < 0 || fault >= FAULT_COUNT || fault_messages[fault] == NULL)
		return "unknown fault";
	return fault_messages[fault];
}

const char *
ijvm_fault_name(int fault)
{
	if (fault < 0 || fault >= FAULT_COUNT || fault_names[fault] == NULL)
		return "UNKNOWN";
	return fault_names[fault];
}

/* --- configuration files ------------------------------------------------ */

struct cfg_word {
	const char	*p;
	size_t		 len;
	unsigned	 col;	/* 1-based */
};

/* One parsed, valid configuration line, applied only when all are valid. */
struct cfg_entry {
	uint8_t		 opcode;
	char		*name;	/* upper case, owned until applied */
	uint8_t		 noperands;
	uint8_t		 kind[IJVM_MAX_OPERANDS];
};

/*
 * Show a word from an untrusted file in a message: control and non-ASCII
 * bytes escaped, long words cut, so that a message stays one short line.
 */
static int
cfg_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split one line into words, dropping a // comment; returns the count. */
static size_t
cfg_split(const char *line, size_t len, struct cfg_word *w, size_t maxw)
{
	size_t i = 0, n = 0, start;

	while (i < len) {
		if (cfg_space((unsigned char)line[i])) {
			i++;
			continue;
		}
		if (line[i] == '/' && i + 1 < len && line[i + 1] == '/')
			break;
		start = i;
		while (i < len && !cfg_space((unsigned char)line[i]) &&
		    !(line[i] == '/' && i + 1 < len && line[i + 1] == '/'))
			i++;
		if (n < maxw) {
			w[n].p = line + start;
			w[n].len = i - start;
			w[n].col = (unsigned)(start + 1);
		}
		n++;
	}
	return n;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Opcodes are hex (0x..) as in every ijvm.conf, or plain decimal. */
static int
cfg_opcode(const struct cfg_word *w, uint8_t *out)
{
	unsigned v = 0;
	size_t i = 0;
	int base = 10, d;

	if (w->len > 2 && w->p[0] == '0' && lower((unsigned char)w->p[1]) == 'x') {
		base = 16;
		i = 2;
	}
	if (i == w->len)
		return -1;
	for (; i < w->len; i++) {
		d = hexval((unsigned char)w->p[i]);
		if (d < 0 || d >= base)
			return -1;
		v = v * (unsigned)base + (unsigned)d;
		if (v > 0xff)
			return -1;
	}
	*out = (uint8_t)v;
	return 0;
}

static int
cfg_mnemonic_ok(const struct cfg_word *w)
{
	size_t i;

	for (i = 0; i < w->len; i++) {
		int c = (unsigned char)w->p[i];
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    c == '_';

		if (!alpha && !(i > 0 && c >= '0' && c <= '9'))
			return 0;
	}
	return w->len > 0;
}

static char *
cfg_error(const char *path, unsigned line, unsigned col, const char *msg)
{
	return xasprintf("%s:%u:%u: %s", path, line, col, msg);
}

/* Parse one line into e; 0 for an entry, 1 for a blank line, -1 + *msg. */
static int
cfg_line(const char *path, unsigned lineno, const char *line, size_t len,
    struct cfg_entry *e, char **msg)
{
	struct cfg_word w[2 + IJVM_MAX_OPERANDS + 1];
	char shown[200], *text;
	size_t n, i;
	int k;

	n = cfg_split(line, len, w, sizeof w / sizeof w[0]);
	if (n == 0)
		return 1;
	if (cfg_opcode(&w[0], &e->opcode) != 0) {
		show_bytes(w[0].p, w[0].len, shown, sizeof shown);
		text = xasprintf("bad opcode '%s' (expected 0x00..0xFF)", shown);
		goto fail_at0;
	}
	if (n == 1) {
		show_bytes(w[0].p, w[0].len, shown, sizeof shown);
		text = xasprintf("missing mnemonic after opcode '%s'", shown);
		goto fail_at0;
	}
	if (!cfg_mnemonic_ok(&w[1])) {
		show_bytes(w[1].p, w[1].len, shown, sizeof shown);
		text = xasprintf("bad mnemonic '%s' (use letters, digits and _)",
		    shown);
		*msg = cfg_error(path, lineno, w[1].col, text);
		free(text);
		return -1;
	}
	if (n > 2 + IJVM_MAX_OPERANDS) {
		text = xasprintf("more than %d operands (an instruction takes "
		    "at most %d)", IJVM_MAX_OPERANDS, IJVM_MAX_OPERANDS);
		*msg = cfg_error(path, lineno, w[2 + IJVM_MAX_OPERANDS].col,
		    text);
		free(text);
		return -1;
	}
	e->noperands = (uint8_t)(n - 2);
	memset(e->kind, 0, sizeof e->kind);
	for (i = 2; i < n; i++) {
		if ((k = opk_lookup(w[i].p, w[i].len)) < 0) {
			show_bytes(w[i].p, w[i].len, shown, sizeof shown);
			text = xasprintf("unknown operand kind '%s' (expected "
			    CONFIG_KINDS ")", shown);
			*msg = cfg_error(path, lineno, w[i].col, text);
			free(text);
			return -1;
		}
		e->kind[i - 2] = (uint8_t)k;
	}
	e->name = xstrndup(w[1].p, w[1].len);
	for (i = 0; e->name[i] != '\0'; i++) {
		if (e->name[i] >= 'a' && e->name[i] <= 'z')
			e->name[i] = (char)(e->name[i] - 'a' + 'A');
	}
	return 0;

fail_at0:
	*msg = cfg_error(path, lineno, w[0].col, text);
	free(text);
	return -1;
}

/* BYTE and CONST encode identically: a redefinition that only swaps one
 * for the other (goJASM's "IINC var byte") is still the same instruction. */
static int
same_kinds(const struct ijvm_opinfo *a, const struct cfg_entry *e)
{
	int i, ka, kb;

	if (a->noperands != e->noperands)
		return 0;
	for (i = 0; i < a->noperands; i++) {
		ka = a->kind[i] == OPK_CONST ? OPK_BYTE : a->kind[i];
		kb = e->kind[i] == OPK_CONST ? OPK_BYTE : e->kind[i];
		if (ka != kb)
			return 0;
	}
	return 1;
}

static void
cfg_apply(struct ijvm_opset *set, struct cfg_entry *e)
{
	const struct ijvm_opinfo *old = ijvm_builtin(e->opcode);
	struct ijvm_opinfo *op;
	int i;

	for (i = 0; i < 256; i++) {
		if (set->present[i] && i != e->opcode &&
		    word_eq_nocase(e->name, strlen(e->name), set->op[i].name))
			opset_clear(set, i);
	}
	opset_clear(set, e->opcode);
	op = &set->op[e->opcode];
	op->name = e->name;
	op->opcode = e->opcode;
	op->noperands = e->noperands;
	memcpy(op->kind, e->kind, sizeof op->kind);
	op->cls = OPC_CUSTOM;
	if (old != NULL && same_kinds(old, e)) {
		op->pops = old->pops;
		op->pushes = old->pushes;
		op->cls = old->cls;
	}
	op->builtin = 0;
	op->desc = "user instruction";
	set->present[e->opcode] = 1;
	e->name = NULL;
}

int
ijvm_opset_load_config(struct ijvm_opset *set, const char *path,
    const char *text, size_t len, char **cause)
{
	struct cfg_entry *entries = NULL;
	size_t n = 0, cap = 0, pos = 0, i, linelen;
	const char *nl;
	unsigned lineno = 0;
	char *msg, *first = NULL;
	int r;

	while (pos < len) {
		nl = memchr(text + pos, '\n', len - pos);
		linelen = nl != NULL ? (size_t)(nl - (text + pos)) : len - pos;
		lineno++;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			entries = xreallocarray(entries, cap, sizeof *entries);
		}
		r = cfg_line(path, lineno, text + pos, linelen, &entries[n],
		    &msg);
		if (r == 0)
			n++;
		else if (r < 0) {
			if (first == NULL)
				first = msg;
			else
				free(msg);
		}
		pos += linelen + 1;
	}
	for (i = 0; i < n; i++) {
		if (first == NULL)
			cfg_apply(set, &entries[i]);
		free(entries[i].name);
	}
	free(entries);
	if (first != NULL) {
		*cause = first;
		return -1;
	}
	return 0;
}
