/*
 * Memory views: info globals, info heap and x.  Words are read through
 * the engine in one call per view (an OpenCL engine copies them from the
 * device), and every address is shown with the region it lies in, since
 * the memory map (memmap.h) is what students are learning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "dsym.h"
#include "loc.h"

#define MAX_UNNAMED  64    /* nonzero unnamed globals listed */
#define MAX_ARRAYS   32    /* arrays listed by info heap */
#define SHOW_ELEMS   8     /* elements shown per array */
#define MAX_X        4096  /* words x reads at most */

/* A .global name of slot g in any program, or NULL. */
static const char *
global_name(const struct session *s, uint32_t g)
{
	for (size_t i = 0; i < s->m.nprogs; i++)
		if (g < s->dsyms[i].nglobals)
			return s->dsyms[i].globals[g];
	return NULL;
}

static int
cmd_info_globals_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	int32_t *g = xcalloc(MM_GLOBALS_WORDS, sizeof *g);
	uint32_t unnamed = 0, shown = 0;

	(void)c;
	if (session_read(s, s->focus, MM_GLOBALS_BASE, MM_GLOBALS_WORDS, g,
	    cause) != 0) {
		free(g);
		return -1;
	}
	for (uint32_t i = 0; i < MM_GLOBALS_WORDS; i++) {
		const char *name = global_name(s, i);

		if (name == NULL && g[i] == 0)
			continue;
		if (name == NULL && unnamed++ >= MAX_UNNAMED)
			continue;
		buf_printf(out, "global[%u]%*s %-16s = %d", i,
		    i < 10 ? 4 : i < 100 ? 3 : i < 1000 ? 2 : i < 10000 ? 1 : 0,
		    "", name ? name : "", g[i]);
		if (g[i] >= MM_HEAP_BASE || g[i] < 0)
			buf_printf(out, " (0x%x)", (uint32_t)g[i]);
		buf_printf(out, "\n");
		shown++;
	}
	if (unnamed > MAX_UNNAMED)
		buf_printf(out, "... %u more nonzero globals (x/N 0x%x reads "
		    "them)\n", unnamed - MAX_UNNAMED, MM_GLOBALS_BASE);
	if (shown == 0)
		buf_printf(out, "no named globals, and every global is 0\n");
	free(g);
	return 0;
}

const struct cmd_entry cmd_info_globals_entry = {
	.name = "globals",
	.usage = "info globals",
	.summary = "named and nonzero globals",
	.help = "the globals that have a .global name, and every other global\n"
	    "that is not 0 (globals are shared by all cores)",
	.arg = ARG_NONE,
	.exec = cmd_info_globals_exec,
};

static int
cmd_info_heap_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	int32_t addr = MM_HEAP_BASE, end = MM_HEAP_BASE +
	    (int32_t)s->m.cfg.heap_words, hdr[2], el[SHOW_ELEMS];
	uint32_t n = 0;

	(void)c;
	while (addr + MM_ARRAY_HDR <= end) {
		int32_t len, shown;

		if (session_read(s, s->focus, addr, 2, hdr, cause) != 0)
			return -1;
		if (hdr[0] != MM_ARRAY_TAG || hdr[1] < 0 ||
		    hdr[1] > end - addr - MM_ARRAY_HDR)
			break;
		len = hdr[1];
		if (n++ < MAX_ARRAYS) {
			shown = len < SHOW_ELEMS ? len : SHOW_ELEMS;
			if (shown > 0 && session_read(s, s->focus,
			    addr + MM_ARRAY_HDR, (uint32_t)shown, el,
			    cause) != 0)
				return -1;
			buf_printf(out, "ref 0x%x (%d): length %d, elements at "
			    "0x%x:", (uint32_t)addr, addr, len,
			    (uint32_t)(addr + MM_ARRAY_HDR));
			for (int32_t i = 0; i < shown; i++)
				buf_printf(out, " %d", el[i]);
			buf_printf(out, "%s\n", len > shown ? " ..." : "");
		}
		addr += MM_ARRAY_HDR + len;
	}
	if (n > MAX_ARRAYS)
		buf_printf(out, "... %u more arrays\n", n - MAX_ARRAYS);
	buf_printf(out, "%u array%s, %d of %u heap words used\n", n,
	    n == 1 ? "" : "s", addr - MM_HEAP_BASE, s->m.cfg.heap_words);
	return 0;
}

const struct cmd_entry cmd_info_heap_entry = {
	.name = "heap",
	.usage = "info heap",
	.summary = "arrays on the shared heap",
	.help = "the arrays allocated on the shared heap, in allocation order:\n"
	    "reference, length and the first elements",
	.arg = ARG_NONE,
	.exec = cmd_info_heap_exec,
};

/* "<region+offset>" for a word address, as x labels its rows. */
static void
region(const struct session *s, int32_t a, struct buf *out)
{
	const struct program *p = session_prog(s, s->focus);
	const char *name;

	if (a >= MM_CPP && a < MM_CPP + (int32_t)p->cp_size) {
		name = dsym_constant_name(session_dsym(s, s->focus),
		    (uint32_t)(a - MM_CPP));
		/* after the constants, a method's slot holds its address */
		for (size_t i = 0; name == NULL && p->source != NULL &&
		    i < p->nmethods; i++)
			if ((int32_t)p->methods[i].addr == p->cp[a - MM_CPP])
				name = p->methods[i].name;
		if (name != NULL)
			buf_printf(out, "<cp+%d %s>", a - MM_CPP, name);
		else
			buf_printf(out, "<cp+%d>", a - MM_CPP);
	} else if (a >= MM_STACK_BASE &&
	    a < MM_STACK_BASE + (int32_t)s->m.cfg.stack_words)
		buf_printf(out, "<stack+%d, core %u>", a - MM_STACK_BASE,
		    s->focus);
	else if (a >= MM_GLOBALS_BASE &&
	    a < MM_GLOBALS_BASE + MM_GLOBALS_WORDS) {
		name = global_name(s, (uint32_t)(a - MM_GLOBALS_BASE));
		if (name != NULL)
			buf_printf(out, "<%s>", name);
		else
			buf_printf(out, "<global[%d]>", a - MM_GLOBALS_BASE);
	} else if (a >= MM_HEAP_BASE &&
	    a < MM_HEAP_BASE + (int32_t)s->m.cfg.heap_words)
		buf_printf(out, "<heap+%d>", a - MM_HEAP_BASE);
	else
		buf_printf(out, "<outside memory>");
}

/* "<loop>", "<loop+3>", "<main+2>" for a text address, as gdb labels
 * code: the nearest label of the method at or before it. */
static void
text_symbol(const struct program *p, uint32_t a, struct buf *out)
{
	const struct symbol *m = program_method_at(p, a);
	const char *name = m != NULL ? m->name : "main";
	uint32_t base = m != NULL ? m->addr : 0;
	char tmp[128];

	for (size_t i = 0; i < p->nlabels; i++) {
		const char *l;

		if (p->labels[i].addr < base || p->labels[i].addr > a)
			continue;
		if ((l = loc_label_name(p, p->labels[i].addr, tmp,
		    sizeof tmp)) != NULL) {
			base = p->labels[i].addr;
			name = l;
		}
	}
	if (a == base)
		buf_printf(out, "<%s>", name);
	else
		buf_printf(out, "<%s+%u>", name, a - base);
}

/* What x/FMT asked for: a count, a format letter, a unit. */
struct xfmt {
	unsigned long	 n;
	char		 fmt;      /* CMD_FORMATS or 'i' */
	char		 size;     /* 'w' data words, 'b' text bytes */
};

static int
parse_xfmt(const char *f, struct xfmt *x, char **cause)
{
	const char *typed = f;
	char *end;

	x->n = 1;
	x->fmt = 0;
	x->size = 0;
	if (f == NULL)
		goto done;
	if (*f >= '0' && *f <= '9') {
		x->n = strtoul(f, &end, 10);
		f = end;
	}
	for (; *f != '\0'; f++) {
		if ((*f == 'b' || *f == 'w') && x->size == 0)
			x->size = *f;
		else if (*f != '\0' && (strchr(CMD_FORMATS, *f) != NULL ||
		    *f == 'i') && x->fmt == 0)
			x->fmt = *f;
		else
			break;
	}
	if (*f != '\0' || x->n == 0 || (x->fmt == 'i' && x->size != 0)) {
		*cause = xasprintf("bad format '/%s' (write x/N[FMT][SIZE]: FMT "
		    "x d u o t c, or i for instructions; SIZE w data words, b "
		    "code bytes)", typed);
		return -1;
	}
	if (x->n > MAX_X) {
		*cause = xasprintf("x reads at most %d units at a time", MAX_X);
		return -1;
	}
done:
	if (x->size == 0)
		x->size = x->fmt == 'i' ? 'b' : 'w';
	if (x->fmt == 0)
		x->fmt = x->size == 'b' ? 'x' : 'd';
	return 0;
}

/* One unit of x: hex and binary padded to the unit's width as gdb pads
 * them, the rest as print writes them. */
static void
x_value(struct buf *out, char fmt, int bits, int32_t v)
{
	uint32_t u = bits == 8 ? (uint8_t)v : (uint32_t)v;

	if (fmt == 'x')
		buf_printf(out, "0x%0*x", bits / 4, u);
	else if (fmt == 't')
		for (int b = bits - 1; b >= 0; b--)
			buf_put_u8(out, (uint8_t)('0' + (u >> b & 1)));
	else
		cmd_format_value(out, fmt, bits == 8 && fmt != 'u' ?
		    (int8_t)u : (int32_t)u);
}

/* x/Ni: the instructions from a, labelled, "=>" at the focused PC; the
 * first instruction of a #print says which directive it comes from. */
static int
x_insns(struct session *s, int32_t a, unsigned long n, struct buf *out,
    int32_t *next, char **cause)
{
	const struct program *p = session_prog(s, s->focus);
	int32_t here = session_core_pc(s, s->focus);

	for (unsigned long i = 0; i < n; i++) {
		char insn[128], mac[128];
		uint32_t first, end;
		int size;

		if (a < 0 || (uint32_t)a >= p->text_size) {
			if (i > 0)
				break;	/* the text ends: gdb stops too */
			*cause = xasprintf("0x%x is outside the text (0x0000-"
			    "0x%04x)", (uint32_t)a, p->text_size - 1);
			return -1;
		}
		size = session_insn(s, s->focus, a, insn, sizeof insn);
		buf_printf(out, "%s 0x%04x ", a == here ? "=>" : "  ",
		    (uint32_t)a);
		text_symbol(p, (uint32_t)a, out);
		buf_printf(out, ":\t%s", size > 0 ? insn : "(not an "
		    "instruction)");
		if (dsym_macro_at(p, (uint32_t)a, &first, &end, mac,
		    sizeof mac) && first == (uint32_t)a)
			buf_printf(out, "\t; %s", mac);
		buf_printf(out, "\n");
		a += size > 0 ? size : 1;
	}
	*next = a;
	return 0;
}

/* x/Nb: bytes of the text, 8 to a row. */
static int
x_bytes(struct session *s, int32_t a, const struct xfmt *x, struct buf *out,
    char **cause)
{
	const struct program *p = session_prog(s, s->focus);

	if (a < 0 || (uint32_t)a >= p->text_size ||
	    x->n > p->text_size - (uint32_t)a) {
		*cause = xasprintf("0x%x-0x%lx is outside the text (0x0000-"
		    "0x%04x)", (uint32_t)a, (unsigned long)(uint32_t)a + x->n -
		    1, p->text_size - 1);
		return -1;
	}
	for (unsigned long i = 0; i < x->n; i++) {
		if (i % 8 == 0) {
			if (i > 0)
				buf_printf(out, "\n");
			buf_printf(out, "0x%04lx ", (unsigned long)a + i);
			text_symbol(p, (uint32_t)a + (uint32_t)i, out);
			buf_printf(out, ":");
		}
		buf_printf(out, "  ");
		x_value(out, x->fmt, 8, p->text[(uint32_t)a + i]);
	}
	buf_printf(out, "\n");
	return 0;
}

static int
x_words(struct session *s, int32_t addr, const struct xfmt *x,
    struct buf *out, char **cause)
{
	const struct program *p = session_prog(s, s->focus);
	int32_t *w = xcalloc(x->n, sizeof *w);

	if (session_read(s, s->focus, addr, (uint32_t)x->n, w, cause) != 0) {
		free(w);
		if (addr >= 0 && addr < MM_CPP && (uint32_t)addr < p->text_size) {
			char *why = *cause;

			*cause = xasprintf("%s (the code is in bytes of its own: "
			    "x/%luxb or x/%lui reads it)", why, x->n, x->n);
			free(why);
		}
		return -1;
	}
	for (unsigned long i = 0; i < x->n; i++) {
		int32_t a = addr + (int32_t)i;

		if (i % 4 == 0) {
			if (i > 0)
				buf_printf(out, "\n");
			buf_printf(out, "0x%06x ", (uint32_t)a);
			region(s, a, out);
			buf_printf(out, ":");
		}
		buf_printf(out, "  ");
		x_value(out, x->fmt, 32, w[i]);
	}
	buf_printf(out, "\n");
	free(w);
	return 0;
}

int
cmd_x_show(struct session *s, const char *fmt, const char *args,
    struct buf *out, char **cause)
{
	struct xfmt x;
	int32_t addr, next;
	int rc;

	if (parse_xfmt(fmt, &x, cause) != 0)
		return -1;
	if (*args == '\0') {
		/* gdb: x alone goes on after the last x, in its format
		 * unless one is given */
		if (!s->x_last.valid) {
			*cause = xasprintf("usage: %s (x alone goes on after "
			    "the last x)", cmd_x_entry.usage);
			return -1;
		}
		const char *f = fmt != NULL ? fmt : "";
		int gave_size = strpbrk(f, "bw") != NULL;

		if (fmt == NULL)
			x.n = s->x_last.n;
		/* what x/FMT leaves out is the last x's, as in gdb */
		if (strpbrk(f, "xduotci") == NULL)
			x.fmt = gave_size && x.size == 'w' &&
			    s->x_last.fmt == 'i' ? 'd' : s->x_last.fmt;
		if (!gave_size)
			x.size = x.fmt == 'i' ? 'b' : s->x_last.size;
		if (x.fmt == 'i' && x.size == 'w')
			x.size = 'b';
		if (x.size == 'b' &&
		    s->m.cores[s->focus].prog != s->x_last.prog) {
			*cause = xasprintf("core %u runs another program than "
			    "the one the last x read: give an address",
			    s->focus);
			return -1;
		}
		addr = s->x_last.next;
	} else if (session_eval_text(s, args, &addr, cause) != 0) {
		struct bp_loc *locs;
		size_t nlocs, i;
		char *why = NULL;
		uint16_t prog = s->m.cores[s->focus].prog;

		/* x/i loop: a label or method names a code address, found
		 * as break finds it (the selected frame's method first), in
		 * the focused core's program, whose code x reads */
		if (x.size != 'b' || session_loc_resolve(s, args, &locs,
		    &nlocs, &why) != 0) {
			free(why);
			return -1;
		}
		for (i = 0; i < nlocs && locs[i].prog != prog; i++)
			;
		if (i == nlocs) {
			free(locs);
			return -1;
		}
		addr = locs[i].pc;
		free(locs);
		free(*cause);
		*cause = NULL;
	}
	next = addr + (int32_t)x.n;
	if (x.fmt == 'i')
		rc = x_insns(s, addr, x.n, out, &next, cause);
	else if (x.size == 'b')
		rc = x_bytes(s, addr, &x, out, cause);
	else
		rc = x_words(s, addr, &x, out, cause);
	if (rc != 0)
		return rc;
	s->x_last.valid = 1;
	s->x_last.prog = s->m.cores[s->focus].prog;
	s->x_last.next = next;
	s->x_last.n = x.n;
	s->x_last.fmt = x.fmt;
	s->x_last.size = x.size;
	return 0;
}

static int
cmd_x_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	if (cmd_x_show(s, c->fmt, c->args, out, cause) != 0)
		return -1;
	session_set_repeat(s, "x");	/* Enter reads on, as in gdb */
	return 0;
}

const struct cmd_entry cmd_x_entry = {
	.name = "x",
	.usage = "x[/N[FMT][SIZE]] [ADDR]",
	.summary = "examine memory or code",
	.help = "examine N units from ADDR (an expression) as the focused core\n"
	    "sees them.  Two address spaces, as on a Harvard machine: data\n"
	    "words (SIZE w, the default) at word addresses: constant pool\n"
	    "($cpp, 0x4000), its stack, globals, heap; and code bytes (SIZE b,\n"
	    "or FMT i) at the byte addresses that $pc and list show.\n"
	    "FMT: d decimal (default for words), x hex (default for bytes), u\n"
	    "unsigned, o octal, t binary, c character, i instructions (x/5i\n"
	    "$pc; ADDR may be a label or method: x/4i loop).  Rows are\n"
	    "labelled with the region or <label+offset>.  Without ADDR (or\n"
	    "Enter after an x): the units after the last x, in its format\n"
	    "unless one is given.",
	.arg = ARG_EXPR,
	.exec = cmd_x_exec,
};
