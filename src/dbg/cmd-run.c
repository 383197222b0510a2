/*
 * Run control commands: run, continue, step, stepi, next, nexti, finish,
 * until, and the reverse commands.  Each forward command only checks
 * its arguments and begins a run (resume.c); the front end polls it to
 * the stop.  All of them step the whole machine (every core, unless
 * scheduler-locking limits it); next, finish and until are about the
 * focused core and stop when it gets where they go.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "history.h"
#include "reverse.h"
#include "ijvm.h"

static int
optional_count(const struct cmd_call *c, uint64_t *n, char **cause)
{
	*n = 1;
	if (*c->args == '\0')
		return 0;
	if (cmd_count(c->args, n, cause) != 0) {
		free(*cause);
		*cause = xasprintf("%s takes a count, not '%s' (e.g. %s 10)",
		    c->entry->name, c->args, c->entry->name);
		return -1;
	}
	if (*n == 0) {
		*cause = xasprintf("%s needs a count of at least 1",
		    c->entry->name);
		return -1;
	}
	return 0;
}

static int focus_can_step(struct session *s, const char *what, char **cause);

/*
 * N ISA instructions.  At a micro level an instruction takes several
 * micro-cycles, a different number on each core, so a step runs the
 * machine micro-cycle by micro-cycle until the focused core has reached
 * its next instruction boundary N times (the other cores run as many
 * cycles, and stop wherever they are: a consistent cut).
 */
static int
begin_isa_steps(struct session *s, uint64_t n, char **cause)
{
	if (s->level == LEVEL_ISA)
		return resume_begin(s, RESUME_STEP, n, cause);
	if (focus_can_step(s, "step to", cause) != 0 ||
	    resume_begin(s, RESUME_STEP, n, cause) != 0)
		return -1;
	s->run.boundaries = 1;
	return 0;
}

static int
cmd_step_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	uint64_t n;

	(void)out;
	if (optional_count(c, &n, cause) != 0)
		return -1;
	return begin_isa_steps(s, n, cause);
}

/* N micro-cycles at a micro level; at the ISA level an instruction is
 * the smallest step there is. */
static int
cmd_stepi_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint64_t n;

	(void)out;
	if (optional_count(c, &n, cause) != 0)
		return -1;
	return resume_begin(s, RESUME_STEP, n, cause);
}

const struct cmd_entry cmd_step_entry = {
	.name = "step",
	.alias = "s",
	.usage = "step [N]",
	.summary = "step the machine N instructions",
	.help = "execute N global steps (default 1): every core that can run\n"
	    "executes one ISA instruction per step (WIDE and its instruction\n"
	    "are one), or only the cores scheduler-locking allows.  At a micro\n"
	    "level, run micro-cycles until the focused core has reached its\n"
	    "next instruction boundary N times (the other cores run as many\n"
	    "cycles).  Stops early at breakpoints, watchpoints and faults.",
	.arg = ARG_COUNT,
	.exec = cmd_step_exec,
};

const struct cmd_entry cmd_stepi_entry = {
	.name = "stepi",
	.alias = "si ustep",
	.usage = "stepi [N]",
	.summary = "step the machine N micro-cycles",
	.help = "at a micro level (set level mic), execute N micro-cycles: every\n"
	    "core that can run executes one micro-instruction per cycle.  At\n"
	    "the ISA level a micro-step is one instruction, the same as step.",
	.arg = ARG_COUNT,
	.exec = cmd_stepi_exec,
};

static int
focus_can_step(struct session *s, const char *what, char **cause)
{
	const struct core *c = &s->m.cores[s->focus];

	if (c->status == CORE_RUNNING || c->status == CORE_WAITING ||
	    c->status == CORE_JOINING)
		return 0;
	*cause = xasprintf("core %u has %s: nothing to %s (focus another core "
	    "with core N, or use %s)", s->focus,
	    c->status == CORE_HALTED ? "halted" : "faulted", what,
	    s->level == LEVEL_ISA ? "step" : "stepi");
	return -1;
}

static int
cmd_next_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const struct core *core = &s->m.cores[s->focus];
	const struct program *p = session_prog(s, s->focus);
	int32_t pc = session_insn_pc(s, s->focus);
	uint64_t n;

	(void)out;
	if (optional_count(c, &n, cause) != 0)
		return -1;
	if (n != 1) {
		*cause = xasprintf("%s steps over one instruction at a time "
		    "(repeat the command)", c->entry->name);
		return -1;
	}
	if (focus_can_step(s, "step over", cause) != 0)
		return -1;
	if (s->level != LEVEL_ISA && c->entry == &cmd_nexti_entry)
		return resume_begin(s, RESUME_STEP, 1, cause);
	if (pc < 0 || (uint32_t)pc >= p->text_size ||
	    p->text[pc] != OP_INVOKEVIRTUAL)
		return begin_isa_steps(s, 1, cause);
	if (resume_begin(s, RESUME_NEXT, UINT64_MAX, cause) != 0)
		return -1;
	/* at a micro level inside the INVOKEVIRTUAL, LV may already be
	 * the callee's: the frame to come back to is the one it left */
	resume_add_ibp(s, pc + 3, s->level == LEVEL_ISA ||
	    session_at_boundary(s, s->focus) ? core->lv : -1, IBP_DONE);
	resume_add_halts(s);
	return 0;
}

const struct cmd_entry cmd_next_entry = {
	.name = "next",
	.alias = "n",
	.usage = "next",
	.summary = "step over a method call",
	.help = "step the machine over the focused core's instruction: over an\n"
	    "INVOKEVIRTUAL, run until that core is back in the same frame after\n"
	    "the call; any other instruction is one step.  Breakpoints,\n"
	    "watchpoints and faults on any core stop it earlier.",
	.arg = ARG_NONE,
	.exec = cmd_next_exec,
};

const struct cmd_entry cmd_nexti_entry = {
	.name = "nexti",
	.alias = "ni",
	.usage = "nexti",
	.summary = "step over a method call (micro level)",
	.help = "next at the micro-step granularity: one micro-cycle at a micro\n"
	    "level (a micro-instruction calls nothing); at the ISA level the\n"
	    "same as next",
	.arg = ARG_NONE,
	.exec = cmd_next_exec,
};

/* The saved PC and LV of the focused core's current frame. */
static int
caller_of(struct session *s, int32_t *pc, int32_t *lv, char **cause)
{
	const struct core *c = &s->m.cores[s->focus];
	int32_t nlocals, link, w[2];

	if (c->lv == MM_STACK_BASE) {
		*cause = xasprintf("\"finish\" not meaningful in the outermost "
		    "frame (main)");
		return -1;
	}
	if (session_frame(s, s->focus, c->lv, &nlocals, &link, cause) != 0 ||
	    session_read(s, s->focus, link, 2, w, cause) != 0)
		return -1;
	*pc = w[0];
	*lv = w[1];
	return 0;
}

static int
cmd_finish_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	const char *name;
	int32_t pc, lv;

	(void)out;
	if (*c->args != '\0') {
		*cause = xasprintf("finish takes no argument");
		return -1;
	}
	if (focus_can_step(s, "finish", cause) != 0 ||
	    caller_of(s, &pc, &lv, cause) != 0)
		return -1;
	name = session_method_name(s, s->focus, session_insn_pc(s, s->focus));
	if (resume_begin(s, RESUME_FINISH, UINT64_MAX, cause) != 0)
		return -1;
	s->run.what = xstrdup(name ? name : "the method");
	resume_add_ibp(s, pc, lv, IBP_DONE);
	resume_add_halts(s);
	return 0;
}

const struct cmd_entry cmd_finish_entry = {
	.name = "finish",
	.alias = "fin",
	.usage = "finish",
	.summary = "run until the current method returns",
	.help = "run until the focused core's current method returns, then\n"
	    "show the value it returned (kept as $N)",
	.arg = ARG_NONE,
	.exec = cmd_finish_exec,
};

static int
cmd_until_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const struct core *core = &s->m.cores[s->focus];
	const struct program *p = session_prog(s, s->focus);
	struct bp_loc *locs = NULL;
	size_t nlocs = 0;
	int32_t pc = -1, lv = -1;
	char *err = NULL;

	(void)out;
	if (focus_can_step(s, "run until", cause) != 0)
		return -1;
	if (*c->args != '\0' &&
	    session_loc_resolve(s, c->args, &locs, &nlocs, cause) != 0)
		return -1;
	if (core->lv != MM_STACK_BASE && caller_of(s, &pc, &lv, &err) != 0) {
		free(err);
		pc = -1;
	}
	if (resume_begin(s, RESUME_UNTIL, UINT64_MAX, cause) != 0) {
		free(locs);
		return -1;
	}
	if (*c->args != '\0') {
		size_t added = 0;

		for (size_t i = 0; i < nlocs; i++)
			if (locs[i].prog == core->prog) {
				resume_add_ibp(s, locs[i].pc, -1, IBP_DONE);
				added++;
			}
		free(locs);
		if (added == 0) {
			resume_end(s);
			*cause = xasprintf("'%s' is not in the focused core's "
			    "program", c->args);
			return -1;
		}
	} else {
		uint32_t *a;
		int32_t at = session_insn_pc(s, s->focus);
		size_t n = loc_insns(p, at, &a);

		for (size_t i = 0; i < n; i++)
			if (a[i] > (uint32_t)at)
				resume_add_ibp(s, (int32_t)a[i], core->lv,
				    IBP_DONE);
		free(a);
	}
	if (pc >= 0)
		resume_add_ibp(s, pc, lv, IBP_DONE);
	resume_add_halts(s);
	return 0;
}

const struct cmd_entry cmd_until_entry = {
	.name = "until",
	.alias = "u",
	.usage = "until [LOCATION]",
	.summary = "run past the current instruction or to LOCATION",
	.help = "without LOCATION: run until the focused core reaches an\n"
	    "instruction after the current one in the same frame (so a loop\n"
	    "runs to its end), or its method returns.  With LOCATION: run until\n"
	    "the focused core reaches it (in any frame) or the method returns.",
	.arg = ARG_LOCATION,
	.exec = cmd_until_exec,
};

static int
cmd_continue_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint64_t n = 1;

	if (*c->args != '\0') {
		if (optional_count(c, &n, cause) != 0)
			return -1;
		if (s->last_bp != 0 && bp_find(&s->bps, s->last_bp) != NULL) {
			bp_find(&s->bps, s->last_bp)->ignore = n - 1;
			buf_printf(out, "will ignore next %llu crossings of "
			    "breakpoint %u\n", (unsigned long long)(n - 1),
			    s->last_bp);
		} else
			buf_printf(out, "not stopped at a breakpoint: the count "
			    "is ignored\n");
	}
	return resume_begin(s, RESUME_CONTINUE, UINT64_MAX, cause);
}

const struct cmd_entry cmd_continue_entry = {
	.name = "continue",
	.alias = "c",
	.usage = "continue [N]",
	.summary = "run until a stop",
	.help = "run until a stop: a breakpoint, a watchpoint, a fault, every\n"
	    "core halted, a deadlock, the step limit or an interrupt.  With N,\n"
	    "ignore the breakpoint it is stopped at N-1 more times (as gdb).",
	.arg = ARG_COUNT,
	.exec = cmd_continue_exec,
};

static int
cmd_run_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	if (*c->args != '\0') {
		*cause = xasprintf("run takes no arguments (the program and "
		    "options are given on the command line)");
		return -1;
	}
	if (s->dirty) {
		uint32_t *gone = NULL;
		size_t ngone = 0;

		if (session_restart(s, cause) != 0)
			return -1;
		buf_printf(out, "starting again: every core is back at the "
		    "start of its program\n");
		for (size_t i = 0; i < s->bps.n; i++) {
			struct bp *b = &s->bps.v[i];
			char *err = NULL;

			if (b->kind != BP_WATCH)
				continue;
			if (b->wkind == WATCH_LOCAL) {
				gone = xreallocarray(gone, ngone + 1,
				    sizeof *gone);
				gone[ngone++] = b->id;
			} else if (watch_value(s, b, &b->wvalue, &err) != 0)
				free(err);
		}
		for (size_t i = 0; i < ngone; i++) {
			buf_printf(out, "watchpoint %u deleted: its frame is "
			    "gone\n", gone[i]);
			bp_delete(&s->bps, gone[i]);
		}
		free(gone);
	}
	return resume_begin(s, RESUME_CONTINUE, UINT64_MAX, cause);
}

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.alias = "r",
	.usage = "run",
	.summary = "start the program again and run",
	.help = "start the machine again from the beginning (every core at the\n"
	    "start of main, memory cleared, --input given again) and continue;\n"
	    "breakpoints and watchpoints on globals and the heap stay",
	.arg = ARG_NONE,
	.flags = CMD_NOREPEAT,
	.exec = cmd_run_exec,
};

/*
 * Reverse execution (reverse.c): the machine goes back through recorded
 * history at once; nothing runs for the front end to poll.
 */
static int
cmd_reverse_step_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint64_t n;

	if (optional_count(c, &n, cause) != 0)
		return -1;
	return reverse_step(s, n, out, cause);
}

static int
cmd_reverse_stepi_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint64_t n;

	if (optional_count(c, &n, cause) != 0)
		return -1;
	return reverse_stepi(s, n, out, cause);
}

static int
cmd_reverse_continue_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	if (*c->args != '\0') {
		*cause = xasprintf("reverse-continue takes no argument");
		return -1;
	}
	return reverse_continue(s, out, cause);
}

const struct cmd_entry cmd_reverse_step_entry = {
	.name = "reverse-step",
	.alias = "rs",
	.usage = "reverse-step [N]",
	.summary = "step backwards N instructions",
	.help = "go back through recorded history N ISA instructions: N global\n"
	    "steps at the ISA level; at a micro level, back to where the\n"
	    "focused core began its instruction, N times (the other cores go\n"
	    "back as many cycles).  Every core goes back at once.",
	.arg = ARG_COUNT,
	.exec = cmd_reverse_step_exec,
};

const struct cmd_entry cmd_reverse_stepi_entry = {
	.name = "reverse-stepi",
	.alias = "rsi",
	.usage = "reverse-stepi [N]",
	.summary = "step backwards N micro-cycles",
	.help = "go back N global steps through recorded history: N\n"
	    "micro-cycles at a micro level, N instructions at the ISA level",
	.arg = ARG_COUNT,
	.exec = cmd_reverse_stepi_exec,
};

const struct cmd_entry cmd_reverse_continue_entry = {
	.name = "reverse-continue",
	.alias = "rc",
	.usage = "reverse-continue",
	.summary = "run backwards to a breakpoint or watchpoint",
	.help = "go back to the most recent earlier step at which a breakpoint\n"
	    "(enabled, with its condition and cores) or a watchpoint would\n"
	    "have stopped the machine, or to the oldest recorded step",
	.arg = ARG_NONE,
	.exec = cmd_reverse_continue_exec,
};

static int
cmd_set_history_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint64_t mib;

	(void)out;
	if (cmd_count(c->args, &mib, cause) != 0) {
		free(*cause);
		*cause = xasprintf("set history-size takes a size in MiB, not "
		    "'%s' (e.g. set history-size 64; 0 turns recording off)",
		    c->args);
		return -1;
	}
	if (mib > (UINT64_MAX >> 21)) {
		*cause = xasprintf("history-size %llu MiB is too large",
		    (unsigned long long)mib);
		return -1;
	}
	history_set_size(s, mib);
	return 0;
}

const struct cmd_entry cmd_set_history_entry = {
	.name = "history-size",
	.usage = "set history-size MIB",
	.summary = "memory for reverse execution (MiB)",
	.help = "bound the recorded history of reverse execution to MIB MiB of\n"
	    "snapshots (default 256); the oldest go first.  0 turns recording\n"
	    "off and discards the history.",
	.arg = ARG_COUNT,
	.exec = cmd_set_history_exec,
};

static int
cmd_show_history_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	buf_printf(out, "history-size: %llu MiB\n",
	    (unsigned long long)history_size_mib(s));
	return 0;
}

const struct cmd_entry cmd_show_history_entry = {
	.name = "history-size",
	.usage = "show history-size",
	.summary = "memory for reverse execution (MiB)",
	.help = "the bound of the recorded history, in MiB (0: off)",
	.exec = cmd_show_history_exec,
};

static int
cmd_info_history_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)c;
	(void)cause;
	history_info(s, out);
	return 0;
}

const struct cmd_entry cmd_info_history_entry = {
	.name = "history",
	.usage = "info history",
	.summary = "recorded history of reverse execution",
	.help = "the snapshots of the recorded history: their steps and bytes,\n"
	    "and how far back reverse commands can go",
	.arg = ARG_NONE,
	.exec = cmd_info_history_exec,
};
