/*
 * Locations, as break, tbreak, until and list take them:
 *
 *   (nothing)     the focused core's PC
 *   *EXPR         an address (any expression: *0x1a, *loop_start+3)
 *   NAME          a method (its first instruction, after the header), a
 *                 label, or METHOD#LABEL; a label that several methods
 *                 define resolves to the one in the selected frame's
 *                 method, else to all of them: one breakpoint with
 *                 several locations, as gdb makes (doc/debugger.md)
 *   LINE          a source line of the focused core's program
 *   FILE:LINE     a source line of the program loaded from FILE
 *
 * With several programs (MIMD) a location resolves in every program that
 * has it, one struct bp_loc each, so that `break loop` stops every core
 * whose program has a loop.  A line without code moves to the next line
 * that has some, as gdb does.
 *
 * Nothing here calls the session: the programs, the focused core's
 * place and the evaluation of *EXPR come in a struct loc_env (loc.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dis.h"
#include "loc.h"
#include "util.h"

/* The method symbol holding addr: [start, end) of its code. */
static void
method_bounds(const struct program *p, uint32_t addr, uint32_t *start,
    uint32_t *end)
{
	const struct symbol *m = program_method_at(p, addr);

	*start = 0;
	*end = p->text_size;
	if (m != NULL) {
		*start = m->addr == 0 ? 0 : m->addr + 4;
		if (addr < *start)	/* inside a header */
			*start = m->addr;
		for (size_t i = 0; i < p->nmethods; i++)
			if (p->methods[i].addr > m->addr) {
				*end = p->methods[i].addr;
				break;
			}
	} else if (p->nmethods == 0) {
		*end = program_main_end(p);
		if (addr >= *end) {
			*start = *end;
			*end = p->text_size;
		}
	}
}

size_t
loc_insns(const struct program *p, int32_t pc, uint32_t **addrs)
{
	uint32_t start, end, a;
	size_t n = 0, cap = 0;
	char tmp[96];
	int size;

	*addrs = NULL;
	if (pc < 0 || (uint32_t)pc >= p->text_size)
		return 0;
	method_bounds(p, (uint32_t)pc, &start, &end);
	for (a = start; a < end; a += (uint32_t)size) {
		if ((size = dis_insn(p, NULL, a, tmp, sizeof tmp)) <= 0)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			*addrs = xreallocarray(*addrs, cap, sizeof **addrs);
		}
		(*addrs)[n++] = a;
	}
	return n;
}

/* The part after '#', or the whole name. */
static const char *
short_name(const char *full)
{
	const char *h = strchr(full, '#');

	return h ? h + 1 : full;
}

static size_t
count_short(const struct program *p, const char *name)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nlabels; i++)
		if (strcmp(short_name(p->labels[i].name), name) == 0)
			n++;
	return n;
}

const char *
loc_label_name(const struct program *p, uint32_t addr, char *tmp,
    size_t tmpsize)
{
	const struct symbol *l = program_label_exact(p, addr);
	const char *s;

	if (l == NULL)
		return NULL;
	s = short_name(l->name);
	if (count_short(p, s) > 1)
		return l->name;
	snprintf(tmp, tmpsize, "%s", s);
	return tmp;
}

static int
is_insn_start(const struct program *p, int32_t pc)
{
	uint32_t *a;
	size_t n = loc_insns(p, pc, &a);
	int found = 0;

	for (size_t i = 0; i < n && !found; i++)
		found = a[i] == (uint32_t)pc;
	free(a);
	return found;
}

static void
add_loc(struct bp_loc **locs, size_t *n, uint16_t prog, int32_t pc)
{
	*locs = xreallocarray(*locs, *n + 1, sizeof **locs);
	(*locs)[*n].prog = prog;
	(*locs)[*n].pc = pc;
	(*locs)[*n].mask = NULL;
	(*locs)[*n].disabled = 0;
	(*n)++;
}

const char *
loc_file_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* First address of the first line >= line that has code; -1 if none. */
static int32_t
line_addr(const struct program *p, uint32_t line, uint32_t *got)
{
	uint32_t best = 0;
	int32_t addr = -1;

	for (size_t i = 0; i < p->nlines; i++) {
		const struct line_info *li = &p->lines[i];

		if (li->line < line)
			continue;
		if (addr < 0 || li->line < best ||
		    (li->line == best && li->addr < (uint32_t)addr)) {
			best = li->line;
			addr = (int32_t)li->addr;
		}
	}
	*got = best;
	return addr;
}

static int
resolve_line(const struct loc_env *env, const char *file, const char *num,
    struct bp_loc **locs, size_t *n, char **cause)
{
	unsigned long line;
	char *end;
	size_t matched = 0;

	line = strtoul(num, &end, 10);
	if (*end != '\0' || line == 0 || line > UINT32_MAX) {
		*cause = xasprintf("bad line number '%s' (a line is a number "
		    "from 1, as in main.jas:12)", num);
		return -1;
	}
	for (size_t i = 0; i < env->nprogs; i++) {
		const struct program *p = env->progs[i];
		uint32_t got;
		int32_t addr;

		if (file == NULL ? i != env->focus_prog :
		    strcmp(file, p->path) != 0 &&
		    strcmp(file, loc_file_name(p->path)) != 0)
			continue;
		matched++;
		if (p->nlines == 0) {
			*cause = xasprintf("%s has no line table (it was not "
			    "loaded from a .jas source): use *ADDR or a label",
			    loc_file_name(p->path));
			return -1;
		}
		if ((addr = line_addr(p, (uint32_t)line, &got)) < 0) {
			*cause = xasprintf("line %lu is past the last "
			    "instruction of %s (line %u)", line,
			    loc_file_name(p->path), p->lines[p->nlines - 1].line);
			return -1;
		}
		add_loc(locs, n, (uint16_t)i, addr);
	}
	if (matched == 0) {
		*cause = xasprintf("no program loaded from '%s' (loaded: %s%s)",
		    file, loc_file_name(env->progs[0]->path),
		    env->nprogs > 1 ? ", ..." : "");
		return -1;
	}
	return 0;
}

/* Closest label or method name to name over all programs, or NULL. */
static const char *
suggest(const struct loc_env *env, const char *name)
{
	const char *best = NULL;
	int bestd = 3;

	for (size_t i = 0; i < env->nprogs; i++) {
		const struct program *p = env->progs[i];

		for (size_t k = 0; k < p->nlabels + p->nmethods; k++) {
			const char *cand = k < p->nlabels ?
			    short_name(p->labels[k].name) :
			    p->methods[k - p->nlabels].name;
			int d = edit_distance(name, cand);

			if (d < bestd && d < (int)strlen(cand)) {
				bestd = d;
				best = cand;
			}
		}
	}
	return best;
}

/*
 * A name in one program: the locations it has there added to locs (a
 * method, METHOD#LABEL or a label in one method: one; a label several
 * methods define: the one in the selected frame's method, else all of
 * them, as gdb sets one breakpoint on every place a name matches).
 * Returns how many it added.
 */
static size_t
resolve_name_in(const struct loc_env *env, size_t pi, const char *name,
    struct bp_loc **locs, size_t *nlocs)
{
	const struct program *p = env->progs[pi];
	const struct symbol *here;
	size_t first = *nlocs;

	for (size_t i = 0; i < p->nmethods; i++)
		if (strcmp(p->methods[i].name, name) == 0) {
			add_loc(locs, nlocs, (uint16_t)pi,
			    (int32_t)p->methods[i].addr +
			    (p->methods[i].addr == 0 ? 0 : 4));
			return 1;
		}
	for (size_t i = 0; i < p->nlabels; i++)
		if (strcmp(p->labels[i].name, name) == 0) {
			add_loc(locs, nlocs, (uint16_t)pi,
			    (int32_t)p->labels[i].addr);
			return 1;
		}
	if (strchr(name, '#') != NULL)
		return 0;
	here = env->focus_prog == pi && env->scope_pc >= 0 ?
	    program_method_at(p, (uint32_t)env->scope_pc) : NULL;
	for (size_t i = 0; here != NULL && i < p->nlabels; i++) {
		const char *full = p->labels[i].name;
		size_t ml = strlen(here->name);

		if (strcmp(short_name(full), name) == 0 &&
		    strncmp(full, here->name, ml) == 0 && full[ml] == '#') {
			add_loc(locs, nlocs, (uint16_t)pi,
			    (int32_t)p->labels[i].addr);
			return 1;
		}
	}
	for (size_t i = 0; i < p->nlabels; i++)
		if (strcmp(short_name(p->labels[i].name), name) == 0)
			add_loc(locs, nlocs, (uint16_t)pi,
			    (int32_t)p->labels[i].addr);
	return *nlocs - first;
}

int
loc_resolve(const struct loc_env *env, const char *spec,
    struct bp_loc **locs, size_t *nlocs, char **cause)
{
	const char *colon;
	size_t found = 0;

	*locs = NULL;
	*nlocs = 0;
	while (*spec == ' ')
		spec++;
	if (*spec == '\0') {
		add_loc(locs, nlocs, env->focus_prog, env->focus_pc);
		return 0;
	}
	if (strncmp(spec, "mpc ", 4) == 0 || strcmp(spec, "mpc") == 0) {
		*cause = xasprintf("'mpc' names a microprogram address, which "
		    "only break and tbreak take (break mpc LABEL); here give "
		    "a program location: a line, a label, a method or "
		    "*ADDRESS");
		return -1;
	}
	if (*spec == '*') {
		int32_t pc;

		if (env->eval(env->arg, spec + 1, &pc, cause) != 0)
			return -1;
		for (size_t i = 0; i < env->nprogs; i++) {
			const struct program *p = env->progs[i];

			if (pc >= 0 && (uint32_t)pc < p->text_size &&
			    is_insn_start(p, pc))
				add_loc(locs, nlocs, (uint16_t)i, pc);
		}
		if (*nlocs == 0) {
			const struct program *p = env->progs[0];

			if (pc < 0 || (uint32_t)pc >= p->text_size)
				*cause = xasprintf("address 0x%04x is outside the "
				    "text (0x0000-0x%04x)", (uint32_t)pc,
				    p->text_size ? p->text_size - 1 : 0);
			else
				*cause = xasprintf("address 0x%04x is not the "
				    "start of an instruction (list *0x%04x shows "
				    "the instructions there)", (uint32_t)pc,
				    (uint32_t)pc);
			return -1;
		}
		return 0;
	}
	if (spec[0] >= '0' && spec[0] <= '9')
		return resolve_line(env, NULL, spec, locs, nlocs, cause);
	if ((colon = strrchr(spec, ':')) != NULL) {
		char *file = xstrndup(spec, (size_t)(colon - spec));
		int rc = resolve_line(env, file, colon + 1, locs, nlocs, cause);

		free(file);
		return rc;
	}
	for (size_t i = 0; i < env->nprogs; i++)
		found += resolve_name_in(env, i, spec, locs, nlocs);
	if (found == 0) {
		const char *near = suggest(env, spec);

		if (near != NULL)
			*cause = xasprintf("no such label or method '%s' (did "
			    "you mean '%s'?)", spec, near);
		else
			*cause = xasprintf("no such label or method '%s' (write "
			    "a label, a method, LINE, FILE:LINE or *ADDR)", spec);
		return -1;
	}
	return 0;
}
