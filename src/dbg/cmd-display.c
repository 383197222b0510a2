/*
 * Auto-display, as gdb has it: display[/FMT] EXPR, undisplay, delete
 * display, enable/disable display, info display, and what every stop
 * does besides its report (session_stopped).
 *
 * A display is shown as "1: EXPR = VALUE" after every stop, numbered
 * from 1 and never renumbered.  Its value is what print writes for the
 * same expression and format, taken from print itself (cmd-data.c) so
 * that the two cannot disagree on a format or an error; the history
 * entry ($N) print makes is taken back, because gdb's display makes
 * none.  A format that is x's (display/i $pc, display/4xw ADDR) shows
 * "N: x/FMT EXPR" and what x prints, as gdb does.  The text goes into the stop's own output buffer, which both
 * front ends write to their transcripts (batch.c after session_wait, the
 * TUI after session_poll), so a display reaches --batch and the screen
 * alike.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"

/* gdb's display/i $pc and display/4xw ADDR: a format with a count, a
 * unit or i (anything beyond print's letters) is x's, and the display
 * shows what x prints. */
static int
is_x_format(const char *fmt)
{
	return fmt != NULL && fmt[strspn(fmt, "xduotc")] != '\0';
}

/* The value print shows for d (x's rows for an x format), into out; 0,
 * or -1 + *cause. */
static int
display_value(struct session *s, const struct display *d, struct buf *out,
    char **cause)
{
	struct cmd_call c;
	struct buf tmp = { 0 };
	size_t nvalues = s->nvalues;
	const char *eq;
	int rc;

	memset(&c, 0, sizeof c);
	if (is_x_format(d->fmt))
		return cmd_x_show(s, d->fmt, d->expr, out, cause);
	c.entry = &cmd_print_entry;
	c.word = "print";
	c.fmt = d->fmt;
	c.args = d->expr;
	rc = cmd_print_entry.exec(s, &c, &tmp, cause);
	s->nvalues = nvalues;
	if (rc != 0) {
		buf_free(&tmp);
		return -1;
	}
	buf_put_u8(&tmp, 0);
	/* "$N = VALUE\n": the value */
	eq = strstr((char *)tmp.data, " = ");
	buf_printf(out, "%s", eq != NULL ? eq + 3 : (char *)tmp.data);
	buf_free(&tmp);
	return 0;
}

/* "1: x = 5", "2: /x y = 0x5" or "3: x/i $pc" over x's rows; an
 * expression that fails shows why. */
static void
display_show(struct session *s, const struct display *d, struct buf *out)
{
	char *cause = NULL;

	buf_printf(out, "%u: ", d->id);
	if (is_x_format(d->fmt)) {
		buf_printf(out, "x/%s %s\n", d->fmt, d->expr);
		if (display_value(s, d, out, &cause) != 0) {
			buf_printf(out, "<error: %s>\n", cause);
			free(cause);
		}
		return;
	}
	if (d->fmt != NULL)
		buf_printf(out, "/%s ", d->fmt);
	buf_printf(out, "%s = ", d->expr);
	if (display_value(s, d, out, &cause) != 0) {
		buf_printf(out, "<error: %s>\n", cause);
		free(cause);
	}
}

static void
display_show_all(struct session *s, struct buf *out)
{
	for (size_t i = 0; i < s->ndisplays; i++)
		if (s->displays[i].enabled)
			display_show(s, &s->displays[i], out);
}

void
session_stopped(struct session *s, struct buf *out)
{
	s->frame_sel = 0;
	display_show_all(s, out);
}

static int
cmd_display_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	struct display d;
	struct buf tmp = { 0 };

	if (*c->args == '\0') {		/* show them all now */
		display_show_all(s, out);
		return 0;
	}
	memset(&d, 0, sizeof d);
	d.id = s->next_display + 1;
	d.enabled = 1;
	d.fmt = c->fmt != NULL && *c->fmt != '\0' ? xstrdup(c->fmt) : NULL;
	d.expr = xstrdup(c->args);
	/* refused, as gdb refuses it, if it cannot be shown now */
	if (display_value(s, &d, &tmp, cause) != 0) {
		free(d.fmt);
		free(d.expr);
		return -1;
	}
	buf_free(&tmp);
	s->next_display = d.id;
	s->displays = xreallocarray(s->displays, s->ndisplays + 1,
	    sizeof *s->displays);
	s->displays[s->ndisplays++] = d;
	display_show(s, &s->displays[s->ndisplays - 1], out);
	return 0;
}

const struct cmd_entry cmd_display_entry = {
	.name = "display",
	.usage = "display[/FMT] [EXPR]",
	.summary = "show an expression after every stop",
	.help = "evaluate EXPR as print does (FMT: print's formats) now and\n"
	    "after every stop, shown as \"1: EXPR = VALUE\" with its number;\n"
	    "a format of x (display/i $pc, display/4xw ADDR) shows what x\n"
	    "shows, under \"1: x/i $pc\".\n"
	    "An expression that cannot be evaluated now is refused; one that\n"
	    "fails at a later stop shows <error: why>.  Without EXPR, show\n"
	    "every enabled display now.  undisplay N deletes one, disable\n"
	    "display N and enable display N pause and resume it, info display\n"
	    "lists them.",
	.arg = ARG_EXPR,
	.exec = cmd_display_exec,
};

/*
 * Display numbers "1 3 5-7" into a per-display selection (sel[i] for
 * s->displays[i]); none: all of them.  0, or -1 + *cause.
 */
static int
pick(struct session *s, const char *args, uint8_t **sel, char **cause)
{
	const char *p = args;
	char word[32];

	*sel = xcalloc(s->ndisplays + 1, 1);
	if (*args == '\0') {
		memset(*sel, 1, s->ndisplays);
		return 0;
	}
	while (cmd_word(&p, word, sizeof word)) {
		unsigned long a, b;
		const char *end = word;
		size_t hit = 0;

		if (parse_range(&end, ULONG_MAX - 1, &a, &b) != 0 ||
		    *end != '\0') {
			*cause = xasprintf("bad display number '%s' (write "
			    "numbers like 1 3 5-7; info display lists them)",
			    word);
			goto fail;
		}
		for (size_t i = 0; i < s->ndisplays; i++)
			if (s->displays[i].id >= a && s->displays[i].id <= b) {
				(*sel)[i] = 1;
				hit++;
			}
		if (hit == 0) {
			*cause = xasprintf("no display number %s (info display "
			    "lists them)", word);
			goto fail;
		}
	}
	return 0;
fail:
	free(*sel);
	*sel = NULL;
	return -1;
}

int
display_delete(struct session *s, const char *args, char **cause)
{
	uint8_t *sel;
	size_t k = 0;

	if (pick(s, args, &sel, cause) != 0)
		return -1;
	for (size_t i = 0; i < s->ndisplays; i++) {
		if (sel[i]) {
			free(s->displays[i].fmt);
			free(s->displays[i].expr);
		} else
			s->displays[k++] = s->displays[i];
	}
	s->ndisplays = k;
	free(sel);
	return 0;
}

int
display_enable(struct session *s, const char *args, int on, char **cause)
{
	uint8_t *sel;

	if (pick(s, args, &sel, cause) != 0)
		return -1;
	for (size_t i = 0; i < s->ndisplays; i++)
		if (sel[i])
			s->displays[i].enabled = on;
	free(sel);
	return 0;
}

static int
cmd_undisplay_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)out;
	return display_delete(s, c->args, cause);
}

const struct cmd_entry cmd_undisplay_entry = {
	.name = "undisplay",
	.usage = "undisplay [N...]",
	.summary = "delete displays",
	.help = "delete displays N (e.g. 1 3 5-7); without numbers, all of them.\n"
	    "The same as delete display N.",
	.arg = ARG_TEXT,
	.flags = CMD_NOREPEAT,
	.exec = cmd_undisplay_exec,
};

static int
cmd_info_display_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	if (s->ndisplays == 0) {
		buf_printf(out, "There are no auto-display expressions now.\n");
		return 0;
	}
	buf_printf(out, "Auto-display expressions now in effect:\n"
	    "Num Enb Expression\n");
	for (size_t i = 0; i < s->ndisplays; i++) {
		const struct display *d = &s->displays[i];

		buf_printf(out, "%u:   %s  ", d->id, d->enabled ? "y" : "n");
		if (d->fmt != NULL)
			buf_printf(out, "/%s ", d->fmt);
		buf_printf(out, "%s\n", d->expr);
	}
	return 0;
}

const struct cmd_entry cmd_info_display_entry = {
	.name = "display",
	.usage = "info display",
	.summary = "list the auto-display expressions",
	.help = "list the displays: number, enabled, format and expression",
	.arg = ARG_NONE,
	.exec = cmd_info_display_exec,
};
