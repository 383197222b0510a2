/*
 * print, input and list: evaluating expressions on the focused core,
 * giving cores console input, and the code listing.
 *
 * print keeps gdb's value history ($1, $2, ... usable in later
 * expressions).  list shows the instructions of the method around the
 * focused core's PC (or a location): marks "=>" for that PC and "B" for
 * enabled breakpoints, labels, local names and source lines; a second
 * list continues where the previous one stopped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "history.h"
#include "dis.h"
#include "dsym.h"

#define LIST_LINES 10

int
cmd_format_check(char fmt, const char *typed, char **cause)
{
	if (fmt == '\0' || strchr(CMD_FORMATS, fmt) == NULL) {
		*cause = xasprintf("bad format '/%s' (formats: x hex, d decimal, "
		    "u unsigned, o octal, t binary, c character)", typed);
		return -1;
	}
	return 0;
}

/* A character as gdb quotes it: 'A', '\n', '\033'. */
static void
quote_char(struct buf *out, int ch)
{
	static const char esc[][2] = { { '\a', 'a' }, { '\b', 'b' },
	    { '\f', 'f' }, { '\n', 'n' }, { '\r', 'r' }, { '\t', 't' },
	    { '\v', 'v' }, { '\\', '\\' }, { '\'', '\'' } };

	for (size_t i = 0; i < sizeof esc / sizeof esc[0]; i++)
		if (ch == esc[i][0]) {
			buf_printf(out, "'\\%c'", esc[i][1]);
			return;
		}
	if (ch >= 32 && ch < 127)
		buf_printf(out, "'%c'", ch);
	else
		buf_printf(out, "'\\%03o'", (unsigned)ch);
}

void
cmd_format_value(struct buf *out, char fmt, int32_t v)
{
	uint32_t u = (uint32_t)v;

	switch (fmt) {
	case 'x': buf_printf(out, "0x%x", u); break;
	case 'u': buf_printf(out, "%u", u); break;
	case 'o': buf_printf(out, u ? "0%o" : "0", u); break;
	case 't': {
		int bit = 31;

		while (bit > 0 && !(u >> bit & 1))
			bit--;
		for (; bit >= 0; bit--)
			buf_put_u8(out, (uint8_t)('0' + (u >> bit & 1)));
		break;
	}
	case 'c':
		/* gdb prints an int with /c as its low byte, a signed char */
		buf_printf(out, "%d ", (int)(int8_t)(uint8_t)u);
		quote_char(out, (int)(uint8_t)u);
		break;
	default:  buf_printf(out, "%d", v); break;
	}
}

static int
cmd_print_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	char fmt = c->fmt != NULL ? c->fmt[0] : 'd';
	int32_t v;

	if (c->fmt != NULL && cmd_format_check(c->fmt[0] != '\0' && c->fmt[1] == '\0' ? fmt :
	    '\0', c->fmt, cause) != 0)
		return -1;
	if (*c->args == '\0' && s->nvalues == 0) {
		*cause = xasprintf("print needs an expression, e.g. print TOS");
		return -1;
	}
	/* gdb: print alone shows the last value again, as a new $N */
	if (session_eval_text(s, *c->args != '\0' ? c->args : "$", &v,
	    cause) != 0)
		return -1;
	s->values = xreallocarray(s->values, s->nvalues + 1,
	    sizeof *s->values);
	s->values[s->nvalues++] = v;
	buf_printf(out, "$%zu = ", s->nvalues);
	cmd_format_value(out, fmt, v);
	buf_printf(out, "\n");
	return 0;
}

const struct cmd_entry cmd_print_entry = {
	.name = "print",
	.alias = "p inspect",
	.usage = "print[/FMT] [EXPR]",
	.summary = "evaluate an expression on the focused core",
	.help = "evaluate EXPR on the focused core and keep it as $N.  Names:\n"
	    "registers (PC SP LV CPP TOS OPC H MAR MDR MBR MPC N Z, any case,\n"
	    "or $pc...), locals of the core's method by name or local[N],\n"
	    "globals by .global name or global[N], NAME[i] of a heap array\n"
	    "reference, $core $warp $lane $mask $ncores $step, $N, $ (the\n"
	    "last), $$ and $$N (N back from the last) from history; print\n"
	    "alone shows the last value again.  Operators as in C on 32-bit words that wrap; << >> >>>\n"
	    "mask the count to 5 bits as Java does.  A local or global named\n"
	    "like a register hides it: write $n for the register.  FMT (gdb's):\n"
	    "x hex, d decimal, u unsigned, o octal, t binary, c character.",
	.arg = ARG_EXPR,
	.exec = cmd_print_exec,
};

/* Decode a "..." argument with C escapes. */
static int
unquote(const char *p, struct buf *b, char **cause)
{
	if (*p != '"')
		goto bad;
	for (p++; *p != '"'; p++) {
		int v;

		if (*p == '\0')
			goto bad;
		if (*p != '\\') {
			buf_put_u8(b, (uint8_t)*p);
			continue;
		}
		switch (*++p) {
		case 'n':  v = '\n'; break;
		case 't':  v = '\t'; break;
		case 'r':  v = '\r'; break;
		case '0':  v = 0; break;
		case '\\': v = '\\'; break;
		case '"':  v = '"'; break;
		case '\'': v = '\''; break;
		case 'x': {
			char hex[3] = { 0 }, *end;

			hex[0] = p[1];
			hex[1] = hex[0] ? p[2] : 0;
			v = (int)strtol(hex, &end, 16);
			if (end == hex) {
				*cause = xasprintf("\\x needs hex digits");
				return -1;
			}
			p += end - hex;
			break;
		}
		default:
			*cause = xasprintf("unknown escape '\\%c' (use \\n \\t "
			    "\\r \\0 \\\\ \\\" \\xHH)", *p ? *p : ' ');
			return -1;
		}
		buf_put_u8(b, (uint8_t)v);
	}
	if (p[1] != '\0')
		goto bad;
	return 0;
bad:
	*cause = xasprintf("usage: input CORE|SET \"text\" (C escapes like \\n "
	    "work)");
	return -1;
}

static int
cmd_input_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const char *p = c->args;
	char set[64];
	uint8_t *cores;
	struct buf text = { 0 };
	uint32_t n = 0;

	if (!cmd_word(&p, set, sizeof set)) {
		*cause = xasprintf("usage: %s", c->entry->usage);
		return -1;
	}
	if (unquote(p, &text, cause) != 0) {
		buf_free(&text);
		return -1;
	}
	if (coreset_parse(set, s->m.cfg.ncores, &cores, cause) != 0) {
		buf_free(&text);
		return -1;
	}
	for (uint32_t k = 0; k < s->m.cfg.ncores; k++)
		if (cores[k]) {
			s->e.ops->add_input(&s->e, k, text.data, text.len);
			n++;
		}
	buf_printf(out, "%zu byte%s of input queued for %s%s\n", text.len,
	    text.len == 1 ? "" : "s", n == 1 ? "core " : "cores ", set);
	s->dirty = 1;
	history_forget(s, "input");
	free(cores);
	buf_free(&text);
	return 0;
}

const struct cmd_entry cmd_input_entry = {
	.name = "input",
	.usage = "input CORE|SET \"text\"",
	.summary = "give console input to cores",
	.help = "queue bytes for the IN instructions of a core (or of every core\n"
	    "in SET, e.g. 0-7); C escapes work (\\n, \\t, \\xHH).  A core that\n"
	    "executes IN with no input queued reads 0.",
	.arg = ARG_TEXT,
	.exec = cmd_input_exec,
};

static int
has_bp(const struct session *s, uint16_t prog, uint32_t core, int32_t pc)
{
	for (size_t i = 0; i < s->bps.n; i++) {
		const struct bp *b = &s->bps.v[i];

		if (b->kind != BP_BREAK || !b->enabled)
			continue;
		for (size_t k = 0; k < b->nlocs; k++)
			if (b->locs[k].prog == prog && b->locs[k].pc == pc &&
			    (b->locs[k].mask == NULL || b->locs[k].mask[core]))
				return 1;
	}
	return 0;
}

static int
cmd_list_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	uint32_t core = s->focus, *a, i, first, shown = 0;
	const struct core *k = &s->m.cores[core];
	const struct program *p = session_prog(s, core);
	int32_t center, here = session_core_pc(s, core);
	int cont = 0, back = strcmp(c->args, "-") == 0;
	size_t n, stop;

	if (back) {
		/* gdb's list -: the lines before the last list's */
		if (s->list_first < 0 || s->list_core != core) {
			*cause = xasprintf("no list to go back from (list "
			    "LOCATION lists somewhere first)");
			return -1;
		}
		center = s->list_first;
	} else if (*c->args != '\0') {
		struct bp_loc *locs;
		size_t nlocs;

		if (session_loc_resolve(s, c->args, &locs, &nlocs, cause) != 0)
			return -1;
		center = locs[0].pc;
		for (size_t j = 0; j < nlocs; j++)
			if (locs[j].prog == k->prog)
				center = locs[j].pc;
		if (locs[0].prog != k->prog && nlocs == 1) {
			core = session_prog_core(s, locs[0].prog);
			p = session_prog(s, core);
		}
		free(locs);
	} else if (s->list_next >= 0 && s->list_core == core) {
		const struct symbol *m;

		center = s->list_next;
		cont = 1;
		m = center >= 0 ? program_method_at(p, (uint32_t)center) : NULL;
		if (m != NULL && m->addr != 0 && m->addr == (uint32_t)center)
			center += 4;	/* skip a method header */
		if (center < 0 || (uint32_t)center >= p->text_size) {
			*cause = xasprintf("no more instructions (list LOCATION "
			    "lists elsewhere)");
			return -1;
		}
	} else
		center = here;
	if ((n = loc_insns(p, center, &a)) == 0) {
		*cause = xasprintf("0x%04x is outside the text", (uint32_t)center);
		return -1;
	}
	for (i = 0; i < n && a[i] < (uint32_t)center; i++)
		;
	stop = n;
	if (back) {
		if (i == 0) {
			free(a);
			*cause = xasprintf("already at the start of the method "
			    "(list LOCATION lists elsewhere)");
			return -1;
		}
		/* LIST_LINES rows back, a #print's expansion one row */
		stop = i;
		for (first = i; first > 0 && i - first < 4 * LIST_LINES; ) {
			uint32_t mf, me;

			first--;
			if (dsym_macro_at(p, a[first], &mf, &me, NULL, 0))
				while (first > 0 && a[first - 1] >= mf)
					first--;
			if (++shown == LIST_LINES)
				break;
		}
		shown = 0;
	} else {
		first = cont ? i : i > LIST_LINES / 2 ? i - LIST_LINES / 2 :
		    0;
		if (!cont && n - first < LIST_LINES)
			first = n > LIST_LINES ? (uint32_t)n - LIST_LINES : 0;
	}
	for (i = first; i < stop && shown < LIST_LINES; i++, shown++) {
		char insn[128], tmp[128], lab[144];
		uint32_t at = a[i], mfirst, mend = a[i] + 1;
		const char *l = loc_label_name(p, a[i], tmp, sizeof tmp);
		uint32_t line = program_line_at(p, a[i]);
		int at_pc = core == s->focus && (int32_t)a[i] == here;
		int bp = has_bp(s, s->m.cores[core].prog, core, (int32_t)a[i]);

		session_insn(s, core, (int32_t)a[i], insn, sizeof insn);
		/* #print as the source wrote it: one row for its expansion
		 * (x/Ni ADDR shows the instructions behind it) */
		if (dsym_macro_at(p, a[i], &mfirst, &mend, insn, sizeof insn)) {
			at = mfirst;
			l = loc_label_name(p, mfirst, tmp, sizeof tmp);
			for (; i + 1 < stop && a[i + 1] < mend; i++)
				bp |= has_bp(s, s->m.cores[core].prog, core,
				    (int32_t)a[i + 1]);
			at_pc = core == s->focus && here >= (int32_t)at &&
			    here < (int32_t)mend;
		}
		if (shown == 0)	/* where list - goes back from */
			s->list_first = (int32_t)at;
		snprintf(lab, sizeof lab, "%s%s", l ? l : "", l ? ":" : "");
		buf_printf(out, "%c%-2s 0x%04x  %-12s %-24s", bp ? 'B' : ' ',
		    at_pc ? "=>" : "", at, lab, insn);
		if (line != 0)
			buf_printf(out, " %s:%u", loc_file_name(p->path), line);
		while (out->len > 0 && out->data[out->len - 1] == ' ')
			out->len--;
		buf_printf(out, "\n");
	}
	if (i < n)
		s->list_next = (int32_t)a[i];
	else {
		/* after the method: the next method's header, if any */
		char tmp[96];
		int size = dis_insn(p, NULL, a[n - 1], tmp, sizeof tmp);

		s->list_next = (int32_t)(a[n - 1] + (uint32_t)(size > 0 ?
		    size : 1));
	}
	s->list_core = core;
	free(a);
	/* Enter: on in the same direction, as in gdb */
	session_set_repeat(s, back ? "list -" : "list");
	return 0;
}

const struct cmd_entry cmd_list_entry = {
	.name = "list",
	.alias = "l",
	.usage = "list [LOCATION|-]",
	.summary = "list the code around the PC",
	.help = "the code around the focused core's PC (or LOCATION): address,\n"
	    "label, instruction with the source's names (locals, globals,\n"
	    "constants), source line; => marks the PC and B a breakpoint.  A\n"
	    "#print is one row as the source wrote it: x/Ni ADDR shows the\n"
	    "BIPUSH/OUT pairs behind it.  Again without LOCATION (or Enter):\n"
	    "the next lines; list -: the lines before the last list's.",
	.arg = ARG_LOCATION,
	.exec = cmd_list_exec,
};
