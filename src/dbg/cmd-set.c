/*
 * set and show: set var (assignments to registers, locals and globals
 * through the engine), scheduler-locking, level, stop-on-fault, threads.
 *
 * set var writes go down at once (write_word, push_cores), so the next
 * step sees them; TOS is a cache of the word at SP in this machine, so
 * writing TOS writes that word too, and writing SP (or the word at SP)
 * reloads TOS.  Watched words are re-read after a write, so a change
 * made at the prompt is not reported as one the program made.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "history.h"
#include "levels.h"
#include "par.h"
#include "regs.h"

static const struct cmd_entry *const set_table[];
static const struct cmd_entry *const show_table[];

static void
refresh_watches(struct session *s)
{
	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		char *err = NULL;

		if (b->kind == BP_WATCH &&
		    watch_value(s, b, &b->wvalue, &err) != 0)
			free(err);
	}
}

/* Reload TOS from the word at SP after memory or SP changed. */
static int
reload_tos(struct session *s, uint32_t core, char **cause)
{
	struct core *c = &s->m.cores[core];
	int32_t v;
	char *err = NULL;

	if (session_read(s, core, c->sp, 1, &v, &err) != 0) {
		free(err);	/* SP outside the stack: TOS keeps its value */
		return 0;
	}
	c->tos = v;
	return s->e.ops->push_cores(&s->e, cause);
}

static int
assign(struct session *s, const char *text, char **cause)
{
	const char *eq = strchr(text, '=');
	char *lhs, b1[64], b2[64], b3[8], *w1 = NULL, *w2 = NULL;
	const char *q;
	uint32_t core = s->focus;
	struct core *c = &s->m.cores[core];
	int32_t v, addr = 0, idx = -1, fpc, flv;
	int r = -1, rc = -1;

	/* locals are the selected frame's, as print reads them */
	session_selected_pc_lv(s, &fpc, &flv);
	if (eq == NULL || eq[1] == '=') {
		*cause = xasprintf("usage: set var NAME = EXPR");
		return -1;
	}
	if (session_eval_text(s, eq + 1, &v, cause) != 0)
		return -1;
	lhs = xstrndup(text, (size_t)(eq - text));
	q = lhs;
	if (cmd_word(&q, b1, sizeof b1))
		w1 = b1;
	if (w1 != NULL && cmd_word(&q, b2, sizeof b2))
		w2 = b2;
	if (w1 == NULL || (w2 != NULL && cmd_word(&q, b3, sizeof b3))) {
		*cause = xasprintf("usage: set var NAME = EXPR (NAME: a "
		    "register, local NAME, global NAME, local[N], global[N])");
		goto out;
	}
	if (w2 != NULL && strcmp(w1, "local") == 0) {
		idx = dsym_local(session_method_at(s, core, fpc), w2);
		if (idx < 0) {
			*cause = xasprintf("no local '%s' in the selected frame's "
			    "method (info locals lists them)", w2);
			goto out;
		}
	} else if (w2 != NULL && strcmp(w1, "global") == 0) {
		int g = -1;

		for (size_t i = 0; g < 0 && i < s->m.nprogs; i++)
			g = dsym_global(&s->dsyms[i], w2);
		if (g < 0) {
			*cause = xasprintf("no global '%s'", w2);
			goto out;
		}
		addr = MM_GLOBALS_BASE + g;
	} else if (w2 != NULL) {
		*cause = xasprintf("usage: set var NAME = EXPR");
		goto out;
	} else if (strncmp(w1, "local[", 6) == 0 ||
	    strncmp(w1, "global[", 7) == 0) {
		int local = w1[0] == 'l';
		char *end;
		long n = strtol(w1 + (local ? 6 : 7), &end, 0);

		if (strcmp(end, "]") != 0 || n < 0 ||
		    (!local && n >= MM_GLOBALS_WORDS)) {
			*cause = xasprintf("bad name '%s' (write local[N] "
			    "with N from 0, or global[N] with N from 0 to %d)",
			    w1, MM_GLOBALS_WORDS - 1);
			goto out;
		}
		if (local)
			idx = (int32_t)n;
		else
			addr = MM_GLOBALS_BASE + (int32_t)n;
	} else if (w1[0] == '$') {
		if ((r = reg_find(w1 + 1)) < 0) {
			*cause = xasprintf("no register '%s'", w1);
			goto out;
		}
	} else if ((idx = dsym_local(session_method_at(s, core, fpc),
	    w1)) >= 0)
		;
	else {
		int g = -1;

		for (size_t i = 0; g < 0 && i < s->m.nprogs; i++)
			g = dsym_global(&s->dsyms[i], w1);
		if (g >= 0)
			addr = MM_GLOBALS_BASE + g;
		else if ((r = reg_find(w1)) < 0) {
			*cause = xasprintf("no local, global or register '%s'",
			    w1);
			goto out;
		}
	}
	if (idx >= 0) {
		int32_t nlocals, link;

		if (session_frame(s, core, flv, &nlocals, &link, cause) != 0)
			goto out;
		if (idx >= nlocals) {
			*cause = xasprintf("local[%d] is out of range: the frame "
			    "of core %u has %d locals", idx, core, nlocals);
			goto out;
		}
		addr = flv + idx;
	}
	if (r >= 0) {
		reg_set(c, r, v);
		if (r == REG_TOS && session_write(s, core, c->sp, v,
		    cause) != 0)
			goto out;
		if (s->e.ops->push_cores(&s->e, cause) != 0)
			goto out;
		if (r == REG_SP && reload_tos(s, core, cause) != 0)
			goto out;
		s->dirty = 1;
		history_forget(s, "set var");
	} else {
		if (session_write(s, core, addr, v, cause) != 0)
			goto out;
		if (addr == c->sp && reload_tos(s, core, cause) != 0)
			goto out;
	}
	refresh_watches(s);
	rc = 0;
out:
	free(lhs);
	return rc;
}

static int
cmd_set_var_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)out;
	return assign(s, c->args, cause);
}

static const struct cmd_entry set_var_entry = {
	.name = "var",
	.alias = "variable",
	.usage = "set var NAME = EXPR",
	.summary = "assign to a register, local or global",
	.help = "assign to a register of the focused core (PC, SP, TOS, ...),\n"
	    "a local of its selected frame (NAME, local NAME, local[N]: see\n"
	    "frame, up, down) or a global\n"
	    "(NAME, global NAME, global[N]).  set NAME = EXPR works too when\n"
	    "NAME is not a set subcommand.",
	.arg = ARG_ASSIGN,
	.exec = cmd_set_var_exec,
};

static int
on_off(const char *word, int *v, char **cause)
{
	if (strcmp(word, "on") == 0)
		*v = 1;
	else if (strcmp(word, "off") == 0)
		*v = 0;
	else {
		*cause = xasprintf("expected on or off, not '%s'", word);
		return -1;
	}
	return 0;
}

static const char *const lock_names[] = { "off", "warp", "core" };

static int
cmd_set_lock_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)out;
	for (int i = 0; i < 3; i++)
		if (strcmp(c->args, lock_names[i]) == 0) {
			s->lock = (enum lock_mode)i;
			return 0;
		}
	if (strcmp(c->args, "on") == 0) {
		s->lock = LOCK_CORE;
		return 0;
	}
	*cause = xasprintf("scheduler-locking takes off, warp or core, not "
	    "'%s'", c->args);
	return -1;
}

static const struct cmd_entry set_lock_entry = {
	.name = "scheduler-locking",
	.usage = "set scheduler-locking off|warp|core",
	.summary = "which cores run when stepping",
	.help = "which cores step and continue run: off, every core; warp, only\n"
	    "the focused warp; core (or on), only the focused core.  The others\n"
	    "keep their state (a barrier still waits for them).",
	.arg = ARG_TEXT,
	.exec = cmd_set_lock_exec,
};

/* "level: mic (microprogram microcode/mic1.mal)" */
static void
put_level(struct session *s, struct buf *out)
{
	enum level l = session_level(s);
	const struct microcode *mc = session_microcode(s, l);

	buf_printf(out, "level: %s", level_name(l));
	if (mc != NULL) {
		const char *base = strrchr(mc->path, '/');

		buf_printf(out, " (microprogram %s)", base ? base + 1 : mc->path);
	}
	buf_printf(out, "\n");
}

/*
 * The switch of doc/mic1.md section 5.  Here the cores inside an
 * instruction are always run to their boundary first (a script cannot
 * answer a question); the TUI asks, through session_set_level.
 */
static int
cmd_set_level_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	enum level l;

	if (*c->args == '\0') {
		*cause = xasprintf("usage: set level isa|mic|pmic");
		return -1;
	}
	if (level_parse(c->args, &l) != 0) {
		*cause = xasprintf("unknown level '%s' (use isa, mic or pmic)",
		    c->args);
		return -1;
	}
	if (l == session_level(s)) {
		buf_printf(out, "already at the %s level\n", level_name(l));
		return 0;
	}
	if (session_switch_level(s, l, 1, out, cause) != 0)
		return -1;
	put_level(s, out);
	session_where(s, s->focus, out);
	return 0;
}

static const struct cmd_entry set_level_entry = {
	.name = "level",
	.usage = "set level isa|mic|pmic",
	.summary = "the execution level",
	.help = "switch the machine between the ISA level and a micro level\n"
	    "(mic: Tanenbaum's Mic-1 running the microprogram of --microcode).\n"
	    "Going to a micro level puts every core at its instruction boundary\n"
	    "(MPC at Main1).  Going back to the ISA level first runs the cores\n"
	    "that are inside an instruction, alone, to their next boundary.\n"
	    "Running on gives the same results as never switching.",
	.arg = ARG_TEXT,
	.exec = cmd_set_level_exec,
};

static int
cmd_set_fault_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)out;
	return on_off(c->args, &s->stop_on_fault, cause);
}

static const struct cmd_entry set_fault_entry = {
	.name = "stop-on-fault",
	.usage = "set stop-on-fault on|off",
	.summary = "whether a fault stops the machine",
	.help = "stop when a core faults (on by default); off lets the other\n"
	    "cores run on",
	.arg = ARG_TEXT,
	.exec = cmd_set_fault_exec,
};

/* The native engines' host threads; the engine of every later level
 * switch gets them too (session_open_engine reads cfg.threads). */
static int
cmd_set_threads_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	unsigned long v;

	if (*c->args == '\0') {
		*cause = xasprintf("usage: set threads N (1 to %u)",
		    PAR_POOL_MAX);
		return -1;
	}
	if (parse_uint_option(c->args, 1, PAR_POOL_MAX, &v) != 0) {
		*cause = xasprintf("set threads needs a whole number from 1 to "
		    "%u, not '%s'", PAR_POOL_MAX, c->args);
		return -1;
	}
	s->cfg.threads = (uint32_t)v;
	if (s->have_engine)
		engine_set_threads(&s->e, (uint32_t)v);
	buf_printf(out, "threads: %lu\n", v);
	return 0;
}

static const struct cmd_entry set_threads_entry = {
	.name = "threads",
	.usage = "set threads N",
	.summary = "host threads of the native engines",
	.help = "run the native engines on N host threads (1 to 256; by\n"
	    "default the processors micdb may use, as --threads). Results,\n"
	    "stops and reverse execution are the same at every count.",
	.arg = ARG_TEXT,
	.exec = cmd_set_threads_exec,
};

static const struct cmd_entry *const set_table[] = {
	&set_var_entry, &set_lock_entry, &set_level_entry, &set_fault_entry,
	&set_threads_entry, &cmd_set_history_entry, NULL
};

static int
cmd_set_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const char *p = c->args;
	char word[64];

	/* set NAME = EXPR, as gdb allows, unless NAME is a subcommand */
	if (cmd_word(&p, word, sizeof word) && strchr(c->args, '=') != NULL) {
		int sub = 0;

		for (size_t i = 0; set_table[i] != NULL; i++)
			sub |= strcmp(word, set_table[i]->name) == 0 ||
			    (set_table[i]->alias != NULL &&
			    strcmp(word, set_table[i]->alias) == 0);
		if (!sub)
			return assign(s, c->args, cause);
	}
	return cmd_dispatch_sub(s, c, out, cause);
}

const struct cmd_entry cmd_set_entry = {
	.name = "set",
	.usage = "set SUBCOMMAND ...",
	.summary = "change a variable or a setting",
	.help = "change a variable or a setting (see the subcommands)",
	.arg = ARG_SUBCOMMAND,
	.exec = cmd_set_exec,
	.sub = set_table,
};

static int
cmd_show_lock_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	buf_printf(out, "scheduler-locking: %s\n", lock_names[s->lock]);
	return 0;
}

static int
cmd_show_level_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	put_level(s, out);
	return 0;
}

const struct cmd_entry cmd_info_level_entry = {
	.name = "level",
	.usage = "info level",
	.summary = "the execution level",
	.help = "the level the machine runs at (isa, mic or pmic) and the\n"
	    "microprogram of a micro level; set level switches",
	.arg = ARG_NONE,
	.exec = cmd_show_level_exec,
};

static int
cmd_show_fault_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	buf_printf(out, "stop-on-fault: %s\n", s->stop_on_fault ? "on" : "off");
	return 0;
}

static const struct cmd_entry show_lock_entry = {
	.name = "scheduler-locking",
	.usage = "show scheduler-locking",
	.summary = "which cores run when stepping",
	.help = "which cores run when the machine steps",
	.exec = cmd_show_lock_exec,
};

static const struct cmd_entry show_level_entry = {
	.name = "level",
	.usage = "show level",
	.summary = "the execution level",
	.help = "the level the machine runs at and its microprogram",
	.exec = cmd_show_level_exec,
};

static const struct cmd_entry show_fault_entry = {
	.name = "stop-on-fault",
	.usage = "show stop-on-fault",
	.summary = "whether a fault stops the machine",
	.help = "whether a fault stops the machine",
	.exec = cmd_show_fault_exec,
};

static int
cmd_show_threads_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	buf_printf(out, "threads: %u%s\n", level_threads(s->cfg.threads),
	    s->cfg.threads == 0 ? " (default)" : "");
	return 0;
}

static const struct cmd_entry show_threads_entry = {
	.name = "threads",
	.usage = "show threads",
	.summary = "host threads of the native engines",
	.help = "the host threads the native engines run on",
	.exec = cmd_show_threads_exec,
};

static const struct cmd_entry *const show_table[] = {
	&show_lock_entry, &show_level_entry, &show_fault_entry,
	&show_threads_entry, &cmd_show_history_entry, NULL
};

static int
cmd_show_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	if (*c->args == '\0') {
		for (size_t i = 0; show_table[i] != NULL; i++)
			if (show_table[i]->exec(s, c, out, cause) != 0)
				return -1;
		return 0;
	}
	return cmd_dispatch_sub(s, c, out, cause);
}

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.usage = "show [SETTING]",
	.summary = "show settings",
	.help = "show a setting (none: all of them)",
	.arg = ARG_SUBCOMMAND,
	.exec = cmd_show_exec,
	.sub = show_table,
};
