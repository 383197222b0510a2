/*
 * Focus, cuda-gdb style: core N, warp W [lane L], lane L.  The focused
 * core is the one that print, info registers/frame, list, next, finish
 * and until are about, and what scheduler-locking keeps running; the
 * prompt shows it (session_prompt).  Warps are W = --warp-width
 * consecutive cores: warp w, lane l is core w*W + l.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"

static int
number(const char *word, const char *what, uint64_t limit, uint32_t *v,
    char **cause)
{
	uint64_t n;

	if (cmd_count(word, &n, cause) != 0) {
		free(*cause);
		*cause = xasprintf("expected a %s number, not '%s'", what, word);
		return -1;
	}
	if (n >= limit) {
		*cause = xasprintf("%s %llu is out of range: %s %llu %s%s "
		    "(0-%llu)", what, (unsigned long long)n,
		    strcmp(what, "lane") == 0 ? "a warp has" : "the machine has",
		    (unsigned long long)limit, what, limit == 1 ? "" : "s",
		    (unsigned long long)limit - 1);
		return -1;
	}
	*v = (uint32_t)n;
	return 0;
}

static int
focus_to(struct session *s, uint32_t core, struct buf *out, char **cause)
{
	if (core >= s->m.cfg.ncores) {
		*cause = xasprintf("warp %u lane %u is core %u, which does not "
		    "exist (the machine has %u cores)",
		    core / s->m.cfg.warp_width, core % s->m.cfg.warp_width,
		    core, s->m.cfg.ncores);
		return -1;
	}
	session_set_focus(s, core, out);
	session_where(s, core, out);
	return 0;
}

static int
cmd_core_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const char *p = c->args;
	char word[32];
	uint32_t core;

	if (!cmd_word(&p, word, sizeof word)) {
		session_where(s, s->focus, out);
		return 0;
	}
	if (*p != '\0') {
		*cause = xasprintf("usage: %s", c->entry->usage);
		return -1;
	}
	if (number(word, "core", s->m.cfg.ncores, &core, cause) != 0)
		return -1;
	return focus_to(s, core, out, cause);
}

const struct cmd_entry cmd_core_entry = {
	.name = "core",
	.usage = "core [N]",
	.summary = "focus a core",
	.help = "focus core N (without N: where the focused core is)",
	.arg = ARG_CORE,
	.exec = cmd_core_exec,
};

static int
cmd_warp_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const char *p = c->args;
	uint32_t width = s->m.cfg.warp_width, w, l = 0;
	char word[32];

	if (!cmd_word(&p, word, sizeof word)) {
		buf_printf(out, "focus: warp %u lane %u (core %u)\n",
		    s->focus / width, s->focus % width, s->focus);
		return 0;
	}
	if (number(word, "warp", machine_nwarps(&s->m), &w, cause) != 0)
		return -1;
	if (cmd_word(&p, word, sizeof word)) {
		if (strcmp(word, "lane") != 0 || !cmd_word(&p, word,
		    sizeof word) || *p != '\0') {
			*cause = xasprintf("usage: %s", c->entry->usage);
			return -1;
		}
		if (number(word, "lane", width, &l, cause) != 0)
			return -1;
	}
	return focus_to(s, w * width + l, out, cause);
}

const struct cmd_entry cmd_warp_entry = {
	.name = "warp",
	.usage = "warp [W [lane L]]",
	.summary = "focus a warp and lane",
	.help = "focus lane L (default 0) of warp W, i.e. core W*width+L",
	.arg = ARG_CORE,
	.exec = cmd_warp_exec,
};

static int
cmd_lane_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	uint32_t width = s->m.cfg.warp_width, l;

	if (*c->args == '\0') {
		buf_printf(out, "focus: lane %u of warp %u (core %u)\n",
		    s->focus % width, s->focus / width, s->focus);
		return 0;
	}
	if (number(c->args, "lane", width, &l, cause) != 0)
		return -1;
	return focus_to(s, s->focus / width * width + l, out, cause);
}

const struct cmd_entry cmd_lane_entry = {
	.name = "lane",
	.usage = "lane [L]",
	.summary = "focus a lane of the focused warp",
	.help = "focus lane L of the focused warp",
	.arg = ARG_CORE,
	.exec = cmd_lane_exec,
};
