/*
 * The command table, lookup and dispatch (see cmd.h), and the two
 * commands that belong to no family: help and quit.
 *
 * A command line is WORD[/FMT] [ARGS]: the word ends at a blank or '/'
 * (x/8x, p/x), the rest is handed to the handler with blanks trimmed.
 * Aliases are tried before prefixes so that gdb's one-letter
 * abbreviations keep working even where they are ambiguous prefixes (s is
 * step although set and show start with s too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_break_entry, &cmd_tbreak_entry, &cmd_watch_entry,
	&cmd_delete_entry, &cmd_disable_entry, &cmd_enable_entry,
	&cmd_condition_entry, &cmd_ignore_entry,
	&cmd_run_entry, &cmd_continue_entry, &cmd_step_entry,
	&cmd_stepi_entry, &cmd_next_entry, &cmd_nexti_entry,
	&cmd_finish_entry, &cmd_until_entry,
	&cmd_reverse_step_entry, &cmd_reverse_stepi_entry,
	&cmd_reverse_continue_entry,
	&cmd_core_entry, &cmd_warp_entry, &cmd_lane_entry,
	&cmd_frame_entry, &cmd_up_entry, &cmd_down_entry,
	&cmd_info_entry, &cmd_backtrace_entry, &cmd_print_entry, &cmd_x_entry,
	&cmd_display_entry, &cmd_undisplay_entry,
	&cmd_list_entry, &cmd_input_entry, &cmd_set_entry, &cmd_show_entry,
	&cmd_trace_entry, &cmd_help_entry, &cmd_quit_entry,
	NULL
};

/* Is word one of the blank-separated aliases? */
static int
has_alias(const char *aliases, const char *word)
{
	size_t n = strlen(word);
	const char *p = aliases;

	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, ' ');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int
cmd_find(const struct cmd_entry *const *table, const char *word,
    const char *what, const struct cmd_entry **out, char **cause)
{
	const struct cmd_entry *found = NULL, *best = NULL;
	size_t n = strlen(word), nfound = 0;
	struct buf b = { 0 };
	int bestd = 1000;

	*out = NULL;
	for (size_t i = 0; table[i] != NULL; i++)
		if (strcmp(table[i]->name, word) == 0) {
			*out = table[i];
			return 0;
		}
	for (size_t i = 0; table[i] != NULL; i++)
		if (table[i]->alias != NULL &&
		    has_alias(table[i]->alias, word)) {
			*out = table[i];
			return 0;
		}
	for (size_t i = 0; n > 0 && table[i] != NULL; i++)
		if (strncmp(table[i]->name, word, n) == 0) {
			found = table[i];
			nfound++;
		}
	if (nfound == 1) {
		*out = found;
		return 0;
	}
	if (nfound > 1) {
		for (size_t i = 0; table[i] != NULL; i++)
			if (strncmp(table[i]->name, word, n) == 0)
				buf_printf(&b, "%s%s", b.len ? ", " : "",
				    table[i]->name);
		buf_put_u8(&b, 0);
		*cause = xasprintf("ambiguous %s '%s': could be %s", what, word,
		    (char *)b.data);
		buf_free(&b);
		return -1;
	}
	/* by spelling: the nearest name within a typo's reach, so that
	 * `info args` does not suggest 'warps' */
	for (size_t i = 0; table[i] != NULL; i++) {
		int d = spelling_near(word, table[i]->name);

		if (d >= 0 && d < bestd) {
			bestd = d;
			best = table[i];
		}
	}
	if (best != NULL)
		*cause = xasprintf("unknown %s '%s' (did you mean '%s'?)", what,
		    word, best->name);
	else if (strcmp(what, "command") == 0)
		*cause = xasprintf("unknown command '%s' (help lists them)",
		    word);
	else	/* "info command": help info lists them */
		*cause = xasprintf("unknown %s '%s' (help %.*s lists them)",
		    what, word, (int)strcspn(what, " "), what);
	return -1;
}

int
cmd_word(const char **p, char *word, size_t size)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (*s != '\0' && *s != ' ' && *s != '\t') {
		if (n + 1 < size)
			word[n++] = *s;
		s++;
	}
	word[n] = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	*p = s;
	return n > 0;
}

int
cmd_count(const char *text, uint64_t *n, char **cause)
{
	unsigned long long v;
	char *end;

	if (*text < '0' || *text > '9' ||
	    (v = strtoull(text, &end, 0), *end != '\0')) {
		*cause = xasprintf("expected a count, not '%s'", text);
		return -1;
	}
	*n = v;
	return 0;
}

int
cmd_execute(struct session *s, const char *line, struct buf *out,
    char **cause)
{
	char word[64], *slash;
	const char *p = line;
	struct cmd_call c;

	memset(&c, 0, sizeof c);
	cmd_word(&p, word, sizeof word);
	if ((slash = strchr(word, '/')) != NULL) {
		*slash = '\0';
		c.fmt = line + (slash - word) + 1;
		/* fmt runs to the first blank of the line */
	}
	if (cmd_find(cmd_table, word, "command", &c.entry, cause) != 0)
		return -1;
	if (c.entry->flags & CMD_NOREPEAT) {
		free(s->last_line);
		s->last_line = NULL;
	}
	c.word = word;
	c.args = p;
	if (c.fmt != NULL) {
		char fmt[32];
		size_t n = strcspn(c.fmt, " \t");

		snprintf(fmt, sizeof fmt, "%.*s", (int)n, c.fmt);
		c.fmt = fmt;
		return c.entry->exec(s, &c, out, cause);
	}
	return c.entry->exec(s, &c, out, cause);
}

int
cmd_dispatch_sub(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	char word[64], what[64];
	struct cmd_call sub;
	const char *p = c->args;

	if (!cmd_word(&p, word, sizeof word)) {
		*cause = xasprintf("%s needs a subcommand (help %s lists them)",
		    c->entry->name, c->entry->name);
		return -1;
	}
	snprintf(what, sizeof what, "%s command", c->entry->name);
	memset(&sub, 0, sizeof sub);
	if (cmd_find(c->entry->sub, word, what, &sub.entry, cause) != 0)
		return -1;
	sub.word = word;
	sub.fmt = c->fmt;
	sub.args = p;
	return sub.entry->exec(s, &sub, out, cause);
}

/* --- help, quit ------------------------------------------------------- */

static void
help_line(struct buf *out, const struct cmd_entry *e)
{
	char names[48];

	if (e->alias != NULL)
		snprintf(names, sizeof names, "%s (%s)", e->name, e->alias);
	else
		snprintf(names, sizeof names, "%s", e->name);
	buf_printf(out, "  %-24s %s\n", names, e->summary);
}

static int
cmd_help_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const struct cmd_entry *e, *const *table = cmd_table;
	const char *p = c->args;
	char word[64];

	(void)s;
	if (!cmd_word(&p, word, sizeof word)) {
		buf_printf(out, "commands (abbreviations in parentheses; any "
		    "unique prefix works too):\n");
		for (size_t i = 0; cmd_table[i] != NULL; i++)
			help_line(out, cmd_table[i]);
		buf_printf(out, "help COMMAND shows its usage and details\n");
		return 0;
	}
	if (cmd_find(table, word, "command", &e, cause) != 0)
		return -1;
	/* help info registers */
	while (e->sub != NULL && cmd_word(&p, word, sizeof word)) {
		char what[64];

		snprintf(what, sizeof what, "%s command", e->name);
		if (cmd_find(e->sub, word, what, &e, cause) != 0)
			return -1;
	}
	buf_printf(out, "usage: %s\n%s\n", e->usage, e->help);
	if (e->alias != NULL)
		buf_printf(out, "abbreviation: %s\n", e->alias);
	if (e->sub != NULL) {
		buf_printf(out, "subcommands:\n");
		for (size_t i = 0; e->sub[i] != NULL; i++)
			help_line(out, e->sub[i]);
	}
	return 0;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.alias = "h",
	.usage = "help [COMMAND [SUBCOMMAND]]",
	.summary = "list commands or explain one",
	.help = "list the commands, or show one command's usage\n"
	    "Commands may be abbreviated to any unique prefix; the usual gdb\n"
	    "abbreviations (b, c, s, si, n, p, i, bt, ...) always work.",
	.arg = ARG_COMMAND,
	.exec = cmd_help_exec,
};

static int
cmd_quit_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	(void)s;
	(void)c;
	(void)out;
	(void)cause;
	return SESSION_QUIT;
}

const struct cmd_entry cmd_quit_entry = {
	.name = "quit",
	.alias = "q",
	.usage = "quit",
	.summary = "end the session",
	.help = "end the session (in a script: stop reading it)",
	.arg = ARG_NONE,
	.flags = CMD_NOREPEAT,
	.exec = cmd_quit_exec,
};
