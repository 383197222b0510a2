/*
 * Completion words for the command line, from the same tables that run
 * the commands: the session's command table (names, subcommand tables,
 * and each entry's argument kind, cmd.h) and the UI's own commands;
 * labels and methods of the loaded programs for locations; register
 * names (regs.h), $variables, globals and locals for expressions.
 *
 * Readline filters the words by the prefix typed; this file only decides
 * which words fit where the cursor is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "cmd.h"
#include "complete.h"
#include "dsym.h"
#include "layout.h"
#include "regs.h"
#include "screen.h"
#include "session.h"
#include "tui.h"

struct words {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

static void
add(struct words *w, const char *s)
{
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(w->v[i], s) == 0)
			return;
	if (w->n + 1 >= w->cap) {
		w->cap = w->cap ? w->cap * 2 : 32;
		w->v = xreallocarray(w->v, w->cap, sizeof *w->v);
	}
	w->v[w->n++] = xstrdup(s);
	w->v[w->n] = NULL;
}

static void
add_list(struct words *w, const char *const *list)
{
	for (size_t i = 0; list[i] != NULL; i++)
		add(w, list[i]);
}

static void
add_table(struct words *w, const struct cmd_entry *const *table)
{
	for (size_t i = 0; table[i] != NULL; i++)
		add(w, table[i]->name);
}

/* The screen's commands (cmd-screen.c), aliases too; not "set level",
 * whose first word the session's table gives. */
static void
add_screen(struct words *w)
{
	for (const struct screen_cmd *c = screen_cmds; c->id != NULL; c++) {
		if (strchr(c->id->name, ' ') != NULL)
			continue;
		add(w, c->id->name);
		if (c->id->alias != NULL)
			add(w, c->id->alias);
	}
}

static void
add_locations(struct tui *t, struct words *w)
{
	for (size_t p = 0; p < t->nprogs; p++) {
		const struct program *prog = t->progs[p];

		for (size_t i = 0; i < prog->nmethods; i++)
			add(w, prog->methods[i].name);
		for (size_t i = 0; i < prog->nlabels; i++) {
			const char *name = prog->labels[i].name;
			const char *hash = strchr(name, '#');

			add(w, name);
			/* "loop" alone resolves in the focused method */
			if (hash != NULL)
				add(w, hash + 1);
		}
	}
}

/*
 * The locals (and parameters) of the focused core's method only: print
 * evaluates a name in the focused frame, so another method's locals
 * would complete to an error.
 */
static void
add_frame_locals(struct tui *t, struct words *w)
{
	const struct machine *m = tui_machine(t);
	const struct core *c = &m->cores[tui_focus(t)];
	const struct program *p;
	const struct symbol *sym;
	const struct dsym_method *dm;
	int32_t pc;

	if (c->prog >= t->nprogs || t->dsyms == NULL)
		return;
	p = m->progs[c->prog];
	pc = tui_core_pc(t, tui_focus(t));
	sym = pc >= 0 ? program_method_at(p, (uint32_t)pc) : NULL;
	dm = dsym_method(&t->dsyms[c->prog], sym != NULL ? sym->name :
	    "main");
	if (dm == NULL)
		return;
	for (uint32_t k = 0; k < dm->nlocals; k++)
		if (dm->locals[k] != NULL)
			add(w, dm->locals[k]);
}

static void
add_names(struct tui *t, struct words *w)
{
	static const char *const vars[] = { "$core", "$warp", "$lane",
	    "$mask", "$ncores", "$step", NULL };

	for (int r = 0; r < REG_COUNT; r++)
		add(w, reg_name(r));
	add_list(w, vars);
	for (size_t p = 0; p < t->nprogs; p++) {
		const struct dsym *d = &t->dsyms[p];

		for (size_t i = 0; i < d->nglobals; i++)
			if (d->globals[i] != NULL)
				add(w, d->globals[i]);
	}
	add_frame_locals(t, w);
}

/* The words of line before start (at most 4). */
static size_t
split_words(const char *line, int start, char words[4][64])
{
	size_t n = 0;
	const char *p = line, *end = line + start;

	while (p < end && n < 4) {
		size_t len = 0;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (n == 0 && p < end && *p == ':')
			p++;	/* ":print": the colon tui_command drops */
		if (p >= end)
			break;
		while (p < end && *p != ' ' && *p != '\t') {
			if (len + 1 < 64)
				words[n][len++] = *p;
			p++;
		}
		words[n][len] = '\0';
		/* only finished words count: the one being typed is text */
		if (p < end)
			n++;
		else
			break;
	}
	return n;
}

static void
by_arg(struct tui *t, struct words *w, enum cmd_arg arg)
{
	switch (arg) {
	case ARG_LOCATION:
		add_locations(t, w);
		add(w, "core");
		add(w, "if");
		break;
	case ARG_EXPR:
	case ARG_ASSIGN:
	case ARG_WATCH:
		add_names(t, w);
		if (arg == ARG_WATCH) {
			add(w, "local");
			add(w, "heap");
		}
		break;
	case ARG_COMMAND:
		add_table(w, cmd_table);
		add_screen(w);
		break;
	case ARG_BPNUMS:
		for (size_t i = 0; i < t->bps.n; i++) {
			char id[16];

			snprintf(id, sizeof id, "%u", t->bps.v[i].id);
			add(w, id);
		}
		break;
	default:
		break;
	}
}

char **
complete_words(struct tui *t, const char *line, int start)
{
	struct words w = { 0 };
	char words[4][64];
	size_t n = split_words(line, start, words);
	const struct cmd_entry *e;
	char *cause = NULL;

	if (n == 0) {
		add_table(&w, cmd_table);
		add_screen(&w);
		add(&w, "help");
		goto done;
	}
	if (strcmp(words[0], "layout") == 0) {
		if (n == 1)
			add_list(&w, layout_names);
		goto done;
	}
	if (strcmp(words[0], "focus") == 0 || strcmp(words[0], "fs") == 0) {
		if (n == 1) {
			add_list(&w, pane_names);
			add(&w, "next");
			add(&w, "prev");
		}
		goto done;
	}
	if (strcmp(words[0], "colour") == 0 || strcmp(words[0], "color") == 0 ||
	    strcmp(words[0], "view") == 0 || strcmp(words[0], "zoom") == 0) {
		static const char *const colour[] = { "status", "opcode", NULL };
		static const char *const view[] = { "asm", "source", NULL };
		static const char *const zoom[] = { "in", "out", "fit", NULL };

		if (n == 1)
			add_list(&w, words[0][0] == 'c' ? colour :
			    words[0][0] == 'v' ? view : zoom);
		goto done;
	}
	if (cmd_find(cmd_table, words[0], "command", &e, &cause) != 0) {
		free(cause);
		goto done;
	}
	if (e->sub != NULL) {
		const struct cmd_entry *sub;

		if (n == 1) {
			add_table(&w, e->sub);
			goto done;
		}
		if (cmd_find(e->sub, words[1], "command", &sub, &cause) != 0) {
			free(cause);
			goto done;
		}
		by_arg(t, &w, sub->arg);
		goto done;
	}
	if (e->arg == ARG_COMMAND && n == 1) {
		by_arg(t, &w, ARG_COMMAND);
		goto done;
	}
	/* after "break LOC core": a core set, nothing to offer */
	if (e->arg == ARG_LOCATION && strcmp(words[n - 1], "core") == 0)
		goto done;
	by_arg(t, &w, e->arg);
done:
	if (w.v == NULL)
		w.v = xcalloc(1, sizeof *w.v);
	return w.v;
}

void
complete_free(char **words)
{
	for (size_t i = 0; words != NULL && words[i] != NULL; i++)
		free(words[i]);
	free(words);
}
