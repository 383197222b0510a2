/*
 * The command table and dispatch (see cmd.h): session_execute, the
 * front ends' way in, beside the table it runs a line from, and the two
 * commands that belong to no family: help and quit.  The lookup and
 * word helpers every command file uses are cmd-lookup.c, below the
 * command files, so that no command file calls back up into this one.
 *
 * A command line is WORD[/FMT] [ARGS]: the word ends at a blank or '/'
 * (x/8x, p/x), the rest is handed to the handler with blanks trimmed.
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

/* --- the session's entry point ---------------------------------------- */

int
session_execute(struct session *s, const char *line, struct buf *out,
    char **cause)
{
	const char *p = line, *end;
	char *copy;
	int rc;

	if (s->running) {
		*cause = xasprintf("the machine is running: wait for it to stop "
		    "or interrupt it");
		return -1;
	}
	s->gen++;	/* any command may change what the front end shows */
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t' ||
	    end[-1] == '\n' || end[-1] == '\r'))
		end--;
	if (end == p) {
		if (!s->cfg.repeat || s->last_line == NULL)
			return 0;
		copy = xstrdup(s->last_line);
	} else {
		copy = xstrndup(p, (size_t)(end - p));
		free(s->last_line);
		s->last_line = xstrdup(copy);
	}
	free(s->repeat_as);
	s->repeat_as = NULL;
	rc = cmd_execute(s, copy, out, cause);
	free(copy);
	if (s->cfg.repeat && s->repeat_as != NULL && s->last_line != NULL) {
		free(s->last_line);
		s->last_line = session_take_repeat(s);
	}
	return rc;
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
