/*
 * Finding a command and splitting its words (see cmd.h): lookup by
 * name, alias, prefix or near spelling, a line's first word, a count,
 * and a subcommand's dispatch.  Below every command file and the
 * table (cmd.c), which all use it.
 *
 * Aliases are tried before prefixes so that gdb's one-letter
 * abbreviations keep working even where they are ambiguous prefixes (s is
 * step although set and show start with s too).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"

const struct cmd_screen_name cmd_screen_names[CMD_SCREEN_N] = {
	[CMD_SCREEN_LAYOUT] = { "layout", NULL },
	[CMD_SCREEN_SET_LEVEL] = { "set level", NULL },
	[CMD_SCREEN_FOCUS] = { "focus", "fs" },
	[CMD_SCREEN_COLOUR] = { "colour", "color" },
	[CMD_SCREEN_VIEW] = { "view", NULL },
	[CMD_SCREEN_ZOOM] = { "zoom", NULL },
	[CMD_SCREEN_REFRESH] = { "refresh", NULL },
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
	/* set level is the session's too: only one-word names */
	for (size_t i = 0; strcmp(what, "command") == 0 && i < CMD_SCREEN_N;
	    i++)
		if (strcmp(cmd_screen_names[i].name, word) == 0 ||
		    (cmd_screen_names[i].alias != NULL &&
		    strcmp(cmd_screen_names[i].alias, word) == 0)) {
			*cause = xasprintf("'%s' works on the screen only (micdb "
			    "PROGRAM, without --batch or --dap)", word);
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
