/*
 * The disassembler: program -> .jas that assembles back to the same text
 * and constant pool.
 *
 * The binary does not say which constant-pool words are methods, so the
 * methods are found from INVOKEVIRTUAL operands (and symbols): every
 * constant-pool word that some INVOKEVIRTUAL names and that points at a
 * header inside the text starts a method.  The standard assembler puts
 * one slot per method, in definition order, after the declared constants;
 * a pool that is not laid out that way cannot be written as .jas and is
 * reported instead of being written wrongly.
 *
 * Names come from the symbol blocks when present ("method#label" for
 * labels); otherwise methods are m<addr>, labels L<addr>, constants c<i>.
 * Branch targets that are not an instruction of the same method are kept
 * as numeric offsets, which the assembler accepts.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dis.h"

struct dmethod {
	uint32_t	 addr;      /* header address (0 for main) */
	uint32_t	 code;      /* first code byte */
	uint32_t	 end;       /* one past its last byte */
	uint16_t	 nargs;     /* with OBJREF; 0 for main */
	uint16_t	 nlocals;   /* .var count */
	char		*name;
	int		 slot;      /* constant-pool index, -1 for main */
};

struct dis {
	const struct program	*prog;
	const struct ijvm_opset	*set;
	struct ijvm_opset	 builtin;
	struct dmethod		*m;
	size_t			 nm;
	uint32_t		 nconst;     /* declared constants */
	uint8_t			*insn;       /* 1 where an instruction starts */
	uint8_t			*target;     /* 1 where a label goes */
};

/* A decoded instruction. */
struct dinsn {
	const struct ijvm_opinfo *info;
	int		 wide;
	uint32_t	 size;               /* with the WIDE prefix */
	int32_t		 operand[IJVM_MAX_OPERANDS];
};

static int
decode(const struct program *prog, const struct ijvm_opset *set,
    uint32_t addr, uint32_t end, struct dinsn *d)
{
	uint32_t a = addr;

	memset(d, 0, sizeof *d);
	if (a >= end)
		return -1;
	if (prog->text[a] == OP_WIDE && a + 1 < end) {
		const struct ijvm_opinfo *next = ijvm_opset_get(set,
		    prog->text[a + 1]);

		if (next != NULL && next->noperands > 0 &&
		    next->kind[0] == OPK_VARNUM) {
			d->wide = 1;
			a++;
		}
	}
	if ((d->info = ijvm_opset_get(set, prog->text[a])) == NULL)
		return -1;
	a++;
	for (int i = 0; i < d->info->noperands; i++) {
		int k = d->info->kind[i];
		int n = ijvm_opk_size(k, d->wide);

		if (a + (uint32_t)n > end)
			return -1;
		switch (k) {
		case OPK_BYTE:
		case OPK_CONST:
			d->operand[i] = (int8_t)prog->text[a];
			break;
		case OPK_VARNUM:
			d->operand[i] = n == 2 ? get_be16(prog->text + a) :
			    prog->text[a];
			break;
		case OPK_LABEL:
			d->operand[i] = (int16_t)get_be16(prog->text + a);
			break;
		default:
			d->operand[i] = get_be16(prog->text + a);
			break;
		}
		a += (uint32_t)n;
	}
	d->size = a - addr;
	return 0;
}

static int
valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static void
dis_free(struct dis *d)
{
	for (size_t i = 0; i < d->nm; i++)
		free(d->m[i].name);
	free(d->m);
	free(d->insn);
	free(d->target);
	ijvm_opset_free(&d->builtin);
}

static int
is_header(const struct program *prog, int32_t addr)
{
	return addr > 0 && (uint32_t)addr + 4 <= prog->text_size;
}

/* Does [from, to) decode into whole instructions? */
static int
decodes(const struct dis *d, uint32_t from, uint32_t to)
{
	struct dinsn in;

	while (from < to) {
		if (decode(d->prog, d->set, from, to, &in) != 0)
			return 0;
		from += in.size;
	}
	return 1;
}

/*
 * Can pool slots [k, cp_size) be the method slots?  Their addresses must
 * rise, each must be a header, and main and every method body must
 * decode into whole instructions up to the next method.
 */
static int
method_suffix_ok(const struct dis *d, uint32_t k)
{
	const struct program *prog = d->prog;
	uint32_t prev = 0;

	for (uint32_t i = k; i < prog->cp_size; i++) {
		int32_t a = prog->cp[i];

		if (!is_header(prog, a) || (uint32_t)a <= prev ||
		    get_be16(prog->text + a) == 0)
			return 0;
		if (!decodes(d, prev == 0 ? 0 : prev + 4, (uint32_t)a))
			return 0;
		prev = (uint32_t)a;
	}
	return decodes(d, prev == 0 ? 0 : prev + 4, prog->text_size);
}

/*
 * Find the methods.  Slots named by INVOKEVIRTUAL are methods for sure;
 * the method slots are a suffix of the pool (declared constants come
 * first), so without symbols the suffix starts at the first called slot.
 * An uncalled method defined before every called one is then taken for
 * code of the method before it, which fails to decode and is reported:
 * guessing further back would take constants for methods.  Symbols
 * settle it when present.
 */
static int
find_methods(struct dis *d, char **cause)
{
	const struct program *prog = d->prog;
	uint32_t end = prog->text_size, first_called = prog->cp_size, k;
	size_t nslots;

	for (uint32_t a = 0; a < end;) {
		struct dinsn in;

		if (decode(prog, d->set, a, end, &in) != 0) {
			a++;
			continue;
		}
		if (in.info->noperands > 0 && in.info->kind[0] == OPK_METHOD &&
		    (uint32_t)in.operand[0] < prog->cp_size &&
		    is_header(prog, prog->cp[in.operand[0]]) &&
		    (uint32_t)in.operand[0] < first_called)
			first_called = (uint32_t)in.operand[0];
		a += in.size;
	}
	k = first_called;
	if (prog->nmethods > 0) {
		/* symbols: the suffix holds exactly the named methods */
		size_t named = 0;

		for (size_t i = 0; i < prog->nmethods; i++)
			if (prog->methods[i].addr > 0)
				named++;
		if (named <= prog->cp_size && prog->cp_size - named <= k &&
		    method_suffix_ok(d, prog->cp_size - (uint32_t)named))
			k = prog->cp_size - (uint32_t)named;
	}
	if (k < prog->cp_size && !method_suffix_ok(d, k)) {
		*cause = xasprintf("constant-pool slot %u is called as a method "
		    "but the slots after it are not methods in address order: "
		    "the standard .jas layout puts method slots last", k);
		return -1;
	}
	nslots = prog->cp_size - k;
	d->nconst = k;
	d->nm = nslots + 1;
	d->m = xcalloc(d->nm, sizeof *d->m);
	d->m[0].slot = -1;
	for (size_t i = 0; i < nslots; i++) {
		struct dmethod *m = &d->m[i + 1];

		m->slot = (int)(k + i);
		m->addr = (uint32_t)prog->cp[m->slot];
	}
	for (size_t i = 0; i < d->nm; i++) {
		struct dmethod *m = &d->m[i];

		m->end = i + 1 < d->nm ? d->m[i + 1].addr : prog->text_size;
		if (i == 0) {
			m->code = 0;
			continue;
		}
		m->nargs = get_be16(prog->text + m->addr);
		m->nlocals = get_be16(prog->text + m->addr + 2);
		m->code = m->addr + 4;
		if (m->nargs == 0) {
			*cause = xasprintf("method at 0x%04X has nargs 0 "
			    "(OBJREF is always counted)", m->addr);
			return -1;
		}
		/* .jas gives every parameter and variable one index of
		 * 0..65535; the header's two u16 counts can ask for more
		 * (found by tests/fuzz/fuzz-ijvm) */
		if ((uint32_t)m->nargs + m->nlocals > 0x10000) {
			*cause = xasprintf("method at 0x%04X has %u arguments "
			    "and %u locals, more than the 65536 slots .jas "
			    "can declare: it cannot be disassembled",
			    m->addr, m->nargs, m->nlocals);
			return -1;
		}
	}
	return 0;
}

static void
name_methods(struct dis *d)
{
	const struct program *prog = d->prog;

	d->m[0].name = xstrdup("main");
	for (size_t k = 1; k < d->nm; k++) {
		const char *sym = NULL;

		for (size_t i = 0; i < prog->nmethods; i++)
			if (prog->methods[i].addr == d->m[k].addr)
				sym = prog->methods[i].name;
		if (sym != NULL && valid_name(sym) && strcmp(sym, "main") != 0)
			d->m[k].name = xstrdup(sym);
		else
			d->m[k].name = xasprintf("m%04x", d->m[k].addr);
		for (size_t j = 1; j < k; j++)
			if (strcmp(d->m[j].name, d->m[k].name) == 0) {
				free(d->m[k].name);
				d->m[k].name = xasprintf("m%04x", d->m[k].addr);
			}
	}
}

/* Mark instruction starts and branch targets; fail on undecodable code. */
static int
scan_code(struct dis *d, char **cause)
{
	const struct program *prog = d->prog;

	d->insn = xcalloc(prog->text_size + 1, 1);
	d->target = xcalloc(prog->text_size + 1, 1);
	for (size_t k = 0; k < d->nm; k++) {
		const struct dmethod *m = &d->m[k];

		for (uint32_t a = m->code; a < m->end;) {
			struct dinsn in;

			if (decode(prog, d->set, a, m->end, &in) != 0) {
				*cause = xasprintf("byte 0x%02X at 0x%04X in %s "
				    "is not an instruction (or is cut off by "
				    "the end of the method)", prog->text[a], a,
				    m->name);
				return -1;
			}
			d->insn[a] = 1;
			a += in.size;
		}
	}
	for (size_t k = 0; k < d->nm; k++) {
		const struct dmethod *m = &d->m[k];

		for (uint32_t a = m->code; a < m->end;) {
			struct dinsn in;

			decode(prog, d->set, a, m->end, &in);
			for (int i = 0; i < in.info->noperands; i++) {
				int64_t t = (int64_t)a + in.operand[i];

				if (in.info->kind[i] == OPK_LABEL &&
				    t >= m->code && t < m->end && d->insn[t])
					d->target[t] = 1;
			}
			a += in.size;
		}
	}
	return 0;
}

/* Is "METHOD#name" label i of prog one of method m's? */
static int
label_of(const struct program *prog, const struct dmethod *m, size_t i)
{
	const char *s = prog->labels[i].name;
	size_t lm = strlen(m->name);

	return strncmp(s, m->name, lm) == 0 && s[lm] == '#' &&
	    valid_name(s + lm + 1) && s[lm + 1] != 'L';
}

/*
 * Name of the label at addr in method m (caller frees): its symbol, unless
 * the symbols give that name to another address of the method too (a
 * binary's symbols need not be those of an assembler), where the output
 * would not assemble: then L<addr>, as without symbols.
 */
static char *
label_name(const struct dis *d, const struct dmethod *m, uint32_t addr)
{
	const struct program *prog = d->prog;

	for (size_t i = 0; i < prog->nlabels; i++) {
		if (prog->labels[i].addr != addr || !label_of(prog, m, i))
			continue;
		for (size_t j = 0; j < prog->nlabels; j++)
			if (prog->labels[j].addr != addr &&
			    label_of(prog, m, j) &&
			    strcmp(prog->labels[j].name,
			    prog->labels[i].name) == 0)
				return xasprintf("L%04x", addr);
		return xstrdup(prog->labels[i].name + strlen(m->name) + 1);
	}
	return xasprintf("L%04x", addr);
}

static const struct dmethod *
method_of_slot(const struct dis *d, int32_t slot)
{
	for (size_t k = 1; k < d->nm; k++)
		if (d->m[k].slot == slot)
			return &d->m[k];
	return NULL;
}

static void
local_name(const struct dis *d, const struct dmethod *m, int32_t idx,
    char *out, size_t size)
{
	/* main: every declared index is named; one past main_nlocals (a
	 * malformed binary whose symbols end main early) keeps its number,
	 * as in a method, so that .var stays main_nlocals long and the
	 * text still assembles (found by tests/fuzz/fuzz-ijvm) */
	if (m->slot < 0) {
		if ((uint32_t)idx < d->prog->main_nlocals)
			snprintf(out, size, "l%d", idx);
		else
			snprintf(out, size, "%d", idx);
		return;
	}
	if (idx >= 1 && idx < m->nargs)
		snprintf(out, size, "p%d", idx);
	else if (idx >= m->nargs && idx < m->nargs + m->nlocals)
		snprintf(out, size, "v%d", idx - m->nargs);
	else
		snprintf(out, size, "%d", idx);
}

static void
put_insn(const struct dis *d, const struct dmethod *m, uint32_t a,
    const struct dinsn *in, struct buf *out)
{
	char tmp[64];

	/* the assembler adds WIDE by itself to an index > 255, unless an
	 * explicit WIDE stands just before: after a lone WIDE (WIDE WIDE
	 * ILOAD) the prefix must be spelt out too, or one byte is lost
	 * (found by tests/fuzz/fuzz-ijvm) */
	if (in->wide && (in->operand[0] <= 255 || (a > 0 &&
	    d->prog->text[a - 1] == OP_WIDE && d->insn[a - 1])))
		buf_printf(out, "\tWIDE\n");
	buf_printf(out, "\t%s", in->info->name);
	for (int i = 0; i < in->info->noperands; i++) {
		int32_t v = in->operand[i];
		int64_t t;
		const struct dmethod *callee;

		switch (in->info->kind[i]) {
		case OPK_VARNUM:
			local_name(d, m, v, tmp, sizeof tmp);
			buf_printf(out, " %s", tmp);
			break;
		case OPK_LABEL:
			t = (int64_t)a + v;
			if (t >= m->code && t < m->end && d->target[t]) {
				char *l = label_name(d, m, (uint32_t)t);

				buf_printf(out, " %s", l);
				free(l);
			} else
				buf_printf(out, " %d", v);
			break;
		case OPK_INDEX:
		case OPK_METHOD:
			if ((callee = method_of_slot(d, v)) != NULL)
				buf_printf(out, " %s", callee->name);
			/* a call of a slot that holds no method keeps its
			 * number, which the assembler takes ("c2" it
			 * refuses): found by tests/fuzz/fuzz-ijvm */
			else if ((uint32_t)v < d->nconst &&
			    in->info->kind[i] == OPK_INDEX)
				buf_printf(out, " c%d", v);
			else
				buf_printf(out, " %d", v);
			break;
		default:
			buf_printf(out, " %d", v);
			break;
		}
	}
	buf_printf(out, "\n");
}

int
dis_program(const struct program *prog, const struct ijvm_opset *set,
    struct buf *out, char **cause)
{
	struct dis d;

	memset(&d, 0, sizeof d);
	d.prog = prog;
	ijvm_opset_init(&d.builtin);
	d.set = set ? set : &d.builtin;
	if (find_methods(&d, cause) != 0 || (name_methods(&d),
	    scan_code(&d, cause)) != 0) {
		dis_free(&d);
		return -1;
	}
	buf_printf(out, "// disassembled from %s by ijvm-dis\n",
	    prog->path ? prog->path : "(memory)");
	if (d.nconst > 0) {
		buf_printf(out, ".constant\n");
		for (uint32_t i = 0; i < d.nconst; i++)
			buf_printf(out, "c%u %d\n", i, prog->cp[i]);
		buf_printf(out, ".end-constant\n");
	}
	for (size_t k = 0; k < d.nm; k++) {
		const struct dmethod *m = &d.m[k];

		if (k == 0) {
			buf_printf(out, "\n.main\n.var\n");
			for (uint32_t i = 0; i < prog->main_nlocals; i++)
				buf_printf(out, "l%u\n", i);
			buf_printf(out, ".end-var\n");
		} else {
			buf_printf(out, "\n.method %s(", m->name);
			for (int i = 1; i < m->nargs; i++)
				buf_printf(out, "%sp%d", i > 1 ? ", " : "", i);
			buf_printf(out, ")\n");
			if (m->nlocals > 0) {
				buf_printf(out, ".var\n");
				for (int i = 0; i < m->nlocals; i++)
					buf_printf(out, "v%d\n", i);
				buf_printf(out, ".end-var\n");
			}
		}
		for (uint32_t a = m->code; a < m->end;) {
			struct dinsn in;

			decode(prog, d.set, a, m->end, &in);
			if (d.target[a]) {
				char *l = label_name(&d, m, a);

				buf_printf(out, "%s:\n", l);
				free(l);
			}
			put_insn(&d, m, a, &in, out);
			a += in.size;
		}
		buf_printf(out, k == 0 ? ".end-main\n" : ".end-method\n");
	}
	dis_free(&d);
	return 0;
}

int
dis_insn(const struct program *prog, const struct ijvm_opset *set,
    uint32_t addr, char *text, size_t textsize)
{
	struct ijvm_opset builtin;
	struct dinsn in;
	struct buf b = { 0 };
	const struct symbol *lab;
	int size;

	if (addr >= prog->text_size) {
		snprintf(text, textsize, "(outside the text)");
		return 0;
	}
	if (set == NULL) {
		ijvm_opset_init(&builtin);
		set = &builtin;
	}
	if (decode(prog, set, addr, prog->text_size, &in) != 0) {
		snprintf(text, textsize, ".byte 0x%02X", prog->text[addr]);
		size = 1;
		goto done;
	}
	if (in.wide)
		buf_printf(&b, "WIDE ");
	buf_printf(&b, "%s", in.info->name);
	for (int i = 0; i < in.info->noperands; i++) {
		int32_t v = in.operand[i];

		if (in.info->kind[i] == OPK_LABEL) {
			int64_t t = (int64_t)addr + v;

			lab = t >= 0 ? program_label_exact(prog, (uint32_t)t) :
			    NULL;
			if (lab != NULL)
				buf_printf(&b, " %s", strchr(lab->name, '#') ?
				    strchr(lab->name, '#') + 1 : lab->name);
			else
				buf_printf(&b, " 0x%04llx", (long long)t);
		} else if (in.info->kind[i] == OPK_METHOD &&
		    (uint32_t)v < prog->cp_size && prog->cp[v] > 0 &&
		    (lab = program_method_at(prog, (uint32_t)prog->cp[v])) !=
		    NULL && lab->addr == (uint32_t)prog->cp[v])
			buf_printf(&b, " %s", lab->name);
		else
			buf_printf(&b, " %d", v);
	}
	buf_put_u8(&b, 0);
	snprintf(text, textsize, "%s", (char *)b.data);
	buf_free(&b);
	size = (int)in.size;
done:
	if (set == &builtin)
		ijvm_opset_free(&builtin);
	return size;
}
