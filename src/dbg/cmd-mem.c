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

	if (a >= MM_CPP && a < MM_CPP + (int32_t)p->cp_size)
		buf_printf(out, "<cp+%d>", a - MM_CPP);
	else if (a >= MM_STACK_BASE &&
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

static int
cmd_x_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	unsigned long n = 1;
	const char *f = c->fmt;
	char fmt = 'd';
	int32_t addr, *w;

	if (f != NULL) {
		char *end;

		if (*f >= '0' && *f <= '9') {
			n = strtoul(f, &end, 10);
			f = end;
		}
		if (*f != '\0')
			fmt = *f++;
		if (*f != '\0' || strchr("xduc", fmt) == NULL || n == 0) {
			*cause = xasprintf("bad format '/%s' (write x/N, x/Nx; "
			    "formats x d u c)", c->fmt);
			return -1;
		}
	}
	if (n > MAX_X) {
		*cause = xasprintf("x reads at most %d words at a time", MAX_X);
		return -1;
	}
	if (*c->args == '\0') {
		*cause = xasprintf("usage: %s", c->entry->usage);
		return -1;
	}
	if (session_eval_text(s, c->args, &addr, cause) != 0)
		return -1;
	w = xcalloc(n, sizeof *w);
	if (session_read(s, s->focus, addr, (uint32_t)n, w, cause) != 0) {
		free(w);
		return -1;
	}
	for (unsigned long i = 0; i < n; i++) {
		int32_t a = addr + (int32_t)i;

		if (i % 4 == 0) {
			if (i > 0)
				buf_printf(out, "\n");
			buf_printf(out, "0x%06x ", (uint32_t)a);
			region(s, a, out);
			buf_printf(out, ":");
		}
		switch (fmt) {
		case 'x': buf_printf(out, "  0x%08x", (uint32_t)w[i]); break;
		case 'u': buf_printf(out, "  %u", (uint32_t)w[i]); break;
		case 'c':
			if (w[i] >= 32 && w[i] < 127)
				buf_printf(out, "  %d '%c'", w[i], (char)w[i]);
			else
				buf_printf(out, "  %d", w[i]);
			break;
		default:  buf_printf(out, "  %d", w[i]); break;
		}
	}
	buf_printf(out, "\n");
	free(w);
	return 0;
}

const struct cmd_entry cmd_x_entry = {
	.name = "x",
	.usage = "x[/N[FMT]] ADDR",
	.summary = "examine memory words",
	.help = "examine N words of memory from word address ADDR (an\n"
	    "expression) as the focused core sees it: constant pool, its stack,\n"
	    "globals, heap.  FMT: d decimal (default), x hex, u unsigned, c\n"
	    "character.  Each row is labelled with its region.",
	.arg = ARG_EXPR,
	.exec = cmd_x_exec,
};
