/*
 * How code is named on screen: a PC as a label ("loop", "half#loop",
 * "loop+3") and the listing the code pane scrolls through.  An
 * instruction is named by dsym_insn (src/dbg/dsym.h), the naming that
 * list and x/i show too (ILOAD 1 -> ILOAD n, LDC_W 0 -> LDC_W OBJREF).
 *
 * Pure functions over a struct program (and the debug names of
 * src/dbg/dsym.h, which reads them back from the .jas source).  Labels
 * of main are shown without "main#" because most programs keep their
 * main loop there and the legend must stay short; the labels of other
 * methods keep the method's name, so "loop" and "half#loop" differ.
 *
 * A listing is built once per program: a method header row, label rows,
 * then one row per instruction, decoded from each method's start so that
 * operands are never taken for opcodes; a directive that became several
 * instructions (#print "...") gets a row with its source text, so the
 * listing keeps what the student wrote: folded, that row stands for the
 * instructions (the code pane's asm view, like `list`); unfolded, they
 * follow it (the bytes view).  It owns its rows and the source
 * split into lines (for the source view).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dis.h"
#include "dsym.h"
#include "ijvm.h"
#include "names.h"

static const char *
short_label(const char *name)
{
	return strncmp(name, "main#", 5) == 0 ? name + 5 : name;
}

/* Where the code of the method holding pc starts (after its header). */
static uint32_t
method_start(const struct program *p, uint32_t pc,
    const struct symbol **method)
{
	const struct symbol *m = program_method_at(p, pc);

	*method = m;
	if (m == NULL)
		return 0;
	return m->addr == 0 ? 0 : m->addr + 4;
}

void
names_pc(const struct program *p, int32_t pc, char *text, size_t size)
{
	const struct symbol *m, *best = NULL;
	uint32_t start;

	if (pc < 0 || (uint32_t)pc >= p->text_size) {
		snprintf(text, size, "0x%04x", (uint32_t)pc);
		return;
	}
	start = method_start(p, (uint32_t)pc, &m);
	if ((uint32_t)pc < start) {
		snprintf(text, size, "%s(header)", m->name);
		return;
	}
	for (size_t i = 0; i < p->nlabels && p->labels[i].addr <= (uint32_t)pc;
	    i++)
		if (p->labels[i].addr >= start)
			best = &p->labels[i];
	if (best != NULL && best->addr == (uint32_t)pc)
		snprintf(text, size, "%s", short_label(best->name));
	else if (best != NULL)
		snprintf(text, size, "%s+%u", short_label(best->name),
		    (uint32_t)pc - best->addr);
	else if (m != NULL && (uint32_t)pc == start)
		snprintf(text, size, "%s", m->name);
	else if (m != NULL)
		snprintf(text, size, "%s+%u", m->name, (uint32_t)pc - start);
	else
		snprintf(text, size, "0x%04x", (uint32_t)pc);
}

/* --- listings ---------------------------------------------------------- */

static void
add_row(struct listing *l, size_t *cap, uint32_t addr, int kind,
    const char *name)
{
	if (l->n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		l->rows = xreallocarray(l->rows, *cap, sizeof *l->rows);
	}
	l->rows[l->n].addr = addr;
	l->rows[l->n].kind = (uint8_t)kind;
	l->rows[l->n].name = name;
	l->n++;
}

/*
 * The directive on source line `line` ("#print ..." after an optional
 * label), as the source wrote it, or NULL: the assembler expands it into
 * several instructions that the listing shows below it (the source, not
 * the bytes, says what the student wrote).
 */
static const char *
directive(const struct listing *l, uint32_t line)
{
	const char *s;

	if (l->src == NULL || line == 0 || line >= l->nsrc)
		return NULL;
	s = l->src[line];
	s += strspn(s, " ");
	if (*s != '#') {
		/* "label: #print ..." */
		const char *colon = strchr(s, ':');

		if (colon == NULL || strcspn(s, " \"") < (size_t)(colon - s))
			return NULL;
		s = colon + 1;
		s += strspn(s, " ");
	}
	return *s == '#' ? s : NULL;
}

/* Rows for the code in [start, end), labels before their instruction. */
static void
add_code(struct listing *l, size_t *cap, const struct program *p,
    uint32_t start, uint32_t end, int fold)
{
	size_t li = 0;
	uint32_t last = 0;
	char tmp[128];

	while (li < p->nlabels && p->labels[li].addr < start)
		li++;
	for (uint32_t a = start; a < end;) {
		int n;

		uint32_t line = program_line_at(p, a);
		const char *dir;

		for (; li < p->nlabels && p->labels[li].addr <= a; li++)
			if (p->labels[li].addr == a)
				add_row(l, cap, a, ROW_LABEL,
				    short_label(p->labels[li].name));
		if (line != last && (dir = directive(l, line)) != NULL) {
			uint32_t mfirst, mend;

			add_row(l, cap, a, ROW_DIRECTIVE, dir);
			if (fold && dsym_macro_at(p, a, &mfirst, &mend, tmp,
			    sizeof tmp) && mfirst == a && mend > a) {
				/* the row stands for the expansion */
				last = line;
				a = mend;
				continue;
			}
		}
		last = line;
		add_row(l, cap, a, ROW_INSN, NULL);
		n = dis_insn(p, NULL, a, tmp, sizeof tmp);
		a += n > 0 ? (uint32_t)n : 1;
	}
}

static void
split_source(struct listing *l, const struct program *p)
{
	const char *s = p->source;
	size_t n = 1, cap = 64;

	if (s == NULL)
		return;
	l->src = xcalloc(cap, sizeof *l->src);
	while (*s != '\0') {
		const char *eol = strchr(s, '\n');
		size_t len = eol ? (size_t)(eol - s) : strlen(s);

		if (n == cap) {
			cap *= 2;
			l->src = xreallocarray(l->src, cap, sizeof *l->src);
		}
		l->src[n] = xstrndup(s, len);
		/* tabs would misalign the columns the pane draws */
		for (char *c = l->src[n]; *c != '\0'; c++)
			if (*c == '\t' || *c == '\r')
				*c = ' ';
		n++;
		s += len + (eol != NULL);
	}
	l->nsrc = n;
	l->src_addr = xcalloc(n, sizeof *l->src_addr);
	for (size_t i = 0; i < n; i++)
		l->src_addr[i] = UINT32_MAX;
	for (size_t i = 0; i < p->nlines; i++) {
		uint32_t line = p->lines[i].line;

		if (line < n && p->lines[i].addr < l->src_addr[line])
			l->src_addr[line] = p->lines[i].addr;
	}
}

void
listing_build(struct listing *l, const struct program *p, int fold)
{
	size_t cap = 0;
	uint32_t main_end = program_main_end(p);

	memset(l, 0, sizeof *l);
	/* the source first: directive rows point into its lines */
	split_source(l, p);
	l->fold = fold;
	if (p->nmethods == 0 || p->methods[0].addr != 0)
		add_row(l, &cap, 0, ROW_METHOD, "main");
	if (p->nmethods == 0 || p->methods[0].addr != 0)
		add_code(l, &cap, p, 0, main_end, fold);
	for (size_t i = 0; i < p->nmethods; i++) {
		uint32_t start = p->methods[i].addr, end = p->text_size;

		if (i + 1 < p->nmethods)
			end = p->methods[i + 1].addr;
		add_row(l, &cap, start, ROW_METHOD, p->methods[i].name);
		add_code(l, &cap, p, start == 0 ? 0 : start + 4, end,
		    fold);
	}
}

void
listing_free(struct listing *l)
{
	for (size_t i = 0; l->src != NULL && i < l->nsrc; i++)
		free(l->src[i]);
	free(l->src);
	free(l->src_addr);
	free(l->rows);
	memset(l, 0, sizeof *l);
}

size_t
listing_row(const struct listing *l, uint32_t addr)
{
	size_t lo = 0, hi = l->n;

	/* the last row with row.addr <= addr: label and header rows carry
	 * the address of the instruction after them, so it is that
	 * instruction's row */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->rows[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	lo--;
	while (lo > 0 && l->rows[lo].kind != ROW_INSN &&
	    l->rows[lo].kind != ROW_DIRECTIVE)
		lo--;
	return lo;
}
