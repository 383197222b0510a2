/*
 * The session object (see session.h): creation and restart of the
 * machine and engine, the focus, and the names of the expression
 * language.  What a core holds (memory through the engine, its method,
 * its frames, a PC described) is session-read.c, below this file and
 * the level and view files, which read through it too.
 *
 * Name lookup for expressions (print, set var, x, conditions), for the
 * core the expression is evaluated on:
 *   $name  a register ($pc, $tos: any case), $core, $warp, $lane, $mask
 *          (the RUNNING lanes of the core's warp, low 32 lanes), $ncores,
 *          $step (global steps), $N / $ / $$ / $$N (print history)
 *   name   a local of the core's current method (by its .jas name), then
 *          a .global name, then a register (PC, TOS, n, ...: any case).
 *          A local or global spelled like a register hides it; $name
 *          always means the register.
 *   local[N], global[N]  by number
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "dis.h"
#include "history.h"
#include "ijvm.h"
#include "regs.h"

static int
session_start(struct session *s, char **cause)
{
	if (machine_init(&s->m, &s->cfg.machine, s->cfg.progs,
	    s->cfg.nprogs, s->core_prog, cause) != 0)
		return -1;
	if (s->cfg.fork_join)
		machine_fork_join(&s->m);
	s->have_machine = 1;
	if (session_open_engine(s, cause) != 0) {
		machine_free(&s->m);
		s->have_machine = 0;
		return -1;
	}
	s->have_engine = 1;
	if (s->input != NULL && s->cfg.input_len > 0)
		s->e.ops->add_input(&s->e, 0, s->input, s->cfg.input_len);
	s->dirty = 0;
	return 0;
}

static void
session_stop_machine(struct session *s)
{
	if (s->have_engine)
		engine_free(&s->e);
	if (s->have_machine)
		machine_free(&s->m);
	s->have_engine = s->have_machine = 0;
}

int
session_create(struct session **sp, const struct session_config *cfg,
    char **cause)
{
	struct session *s;
	uint32_t n = cfg->machine.ncores;

	*sp = NULL;
	if (cfg->nprogs == 0) {
		*cause = xasprintf("no program to debug");
		return -1;
	}
	if ((unsigned)cfg->level >= NLEVEL) {
		*cause = xasprintf("no such level (use isa, mic or pmic)");
		return -1;
	}
	s = xcalloc(1, sizeof *s);
	s->cfg = *cfg;
	s->level = cfg->level;
	if (cfg->core_prog != NULL) {
		s->core_prog = xcalloc(n, sizeof *s->core_prog);
		memcpy(s->core_prog, cfg->core_prog, n * sizeof *s->core_prog);
	}
	if (cfg->input != NULL && cfg->input_len > 0) {
		s->input = xmalloc(cfg->input_len);
		memcpy(s->input, cfg->input, cfg->input_len);
	}
	s->dsyms = xcalloc(cfg->nprogs, sizeof *s->dsyms);
	for (size_t i = 0; i < cfg->nprogs; i++)
		dsym_load(&s->dsyms[i], cfg->progs[i]);
	if (cfg->nprogs > 1) {
		s->prog_masks = xcalloc(cfg->nprogs, sizeof *s->prog_masks);
		for (size_t i = 0; i < cfg->nprogs; i++)
			s->prog_masks[i] = xcalloc(n, 1);
		for (uint32_t c = 0; c < n; c++)
			s->prog_masks[s->core_prog ? s->core_prog[c] : 0][c] = 1;
	}
	bp_table_init(&s->bps);
	s->lockmask = xcalloc(n, 1);
	s->at_bp = xcalloc(n, 1);
	s->run.core_mask = xcalloc(n, 1);
	s->stop_on_fault = 1;
	s->list_next = -1;
	s->list_first = -1;
	div_init(&s->div, cfg->machine.warp_width);
	s->hist = history_create(n);
	/* A microprogram named on the command line is loaded now, so that
	 * its errors end the start rather than a later set level. */
	for (int l = 0; l < NLEVEL; l++) {
		const struct microcode *mc;

		if (l != LEVEL_ISA && cfg->microcode[l] != NULL &&
		    session_load_microcode(s, (enum level)l, &mc, cause) != 0) {
			session_free(s);
			return -1;
		}
	}
	if (session_start(s, cause) != 0) {
		session_free(s);
		return -1;
	}
	*sp = s;
	return 0;
}

/* The display list (cmd-display.c fills it). */
static void
free_displays(struct session *s)
{
	for (size_t i = 0; i < s->ndisplays; i++) {
		free(s->displays[i].fmt);
		free(s->displays[i].expr);
	}
	free(s->displays);
	s->displays = NULL;
	s->ndisplays = 0;
}

void
session_free(struct session *s)
{
	if (s == NULL)
		return;
	session_trace_free(s);	/* before the machine it reads goes */
	session_stop_machine(s);
	history_free(s->hist);
	for (int l = 0; l < NLEVEL; l++)
		microcode_free(&s->mc[l]);
	session_views_free(s);
	for (size_t i = 0; i < s->cfg.nprogs; i++) {
		dsym_free(&s->dsyms[i]);
		if (s->prog_masks != NULL)
			free(s->prog_masks[i]);
	}
	free(s->dsyms);
	free(s->prog_masks);
	bp_table_free(&s->bps);
	free(s->ebps);
	free(s->runbps);
	free(s->lockmask);
	free(s->at_bp);
	free(s->stop_cores);
	free(s->writers);
	free(s->runwatch);
	free(s->run.ibps);
	free(s->run.what);
	free(s->run.core_mask);
	free(s->values);
	free_displays(s);
	div_free(&s->div);
	free(s->last_line);
	free(s->repeat_as);
	free(s->core_prog);
	free(s->input);
	free(s);
}

int
session_restart(struct session *s, char **cause)
{
	history_restart(s);
	session_stop_machine(s);
	if (session_start(s, cause) != 0)
		return -1;
	memset(s->at_bp, 0, s->m.cfg.ncores);
	s->nstop_cores = 0;
	s->last_bp = 0;
	s->list_next = -1;
	s->frame_sel = 0;
	div_reset(&s->div);
	return 0;
}

void
session_where(struct session *s, uint32_t core, struct buf *out)
{
	const struct core *c = &s->m.cores[core];
	int32_t pc = session_core_pc(s, core);
	char insn[128];

	if (s->level != LEVEL_ISA) {
		session_where_micro(s, core, out);
		return;
	}
	buf_printf(out, "core %u", core);
	if (c->status == CORE_ERROR)
		buf_printf(out, " (faulted: %s)", ijvm_fault_message(c->fault));
	else if (c->status != CORE_RUNNING)
		buf_printf(out, " (%s)", session_status_name(c->status));
	buf_printf(out, " at ");
	session_describe_pc(s, core, pc, out);
	if (session_insn(s, core, pc, insn, sizeof insn) > 0)
		buf_printf(out, ": %s", insn);
	buf_printf(out, "\n");
}

void
session_set_focus(struct session *s, uint32_t core, struct buf *out)
{
	uint32_t w = s->m.cfg.warp_width;

	if (core == s->focus)
		return;
	s->focus = core;
	s->frame_sel = 0;
	s->list_next = -1;
	if (out != NULL)
		buf_printf(out, "[switching focus to core %u, warp %u lane %u]\n",
		    core, core / w, core % w);
}

const char *
session_prompt(struct session *s)
{
	uint32_t w = s->m.cfg.warp_width;

	if (s->m.cfg.ncores == 1)
		snprintf(s->prompt, sizeof s->prompt, "(micdb)");
	else
		snprintf(s->prompt, sizeof s->prompt,
		    "(micdb core %u warp %u lane %u)", s->focus, s->focus / w,
		    s->focus % w);
	return s->prompt;
}

const struct machine *
session_machine(const struct session *s)
{
	return &s->m;
}

uint64_t
session_generation(const struct session *s)
{
	return s->gen;
}

uint32_t
session_focus(const struct session *s)
{
	return s->focus;
}

int
session_running(const struct session *s)
{
	return s->running;
}

volatile sig_atomic_t *
session_interrupt_flag(struct session *s)
{
	return &s->interrupt;
}

/* --- expressions ---------------------------------------------------- */

/* Where names are looked up: a core and one of its frames (its PC
 * decides the method, its LV holds the locals). */
struct env_arg {
	struct session	*s;
	uint32_t	 core;
	int32_t		 pc;
	int32_t		 lv;
};

static int
read_local(const struct env_arg *ea, int32_t idx, const char *name,
    int32_t *val, char **cause)
{
	int32_t nlocals, link;

	if (session_frame(ea->s, ea->core, ea->lv, &nlocals, &link,
	    cause) != 0)
		return -1;
	if (idx < 0 || idx >= nlocals) {
		if (name != NULL)
			*cause = xasprintf("local '%s' is not in the current "
			    "frame of core %u", name, ea->core);
		else
			*cause = xasprintf("local[%d] is out of range: the "
			    "frame of core %u has %d local%s", idx, ea->core,
			    nlocals, nlocals == 1 ? "" : "s");
		return -1;
	}
	return session_read(ea->s, ea->core, ea->lv + idx, 1, val, cause);
}

static int
global_index(const struct session *s, uint32_t core, const char *name)
{
	int g = dsym_global(session_dsym(s, core), name);

	for (size_t i = 0; g < 0 && i < s->cfg.nprogs; i++)
		g = dsym_global(&s->dsyms[i], name);
	return g;
}

static int
dollar_value(struct session *s, uint32_t core, const char *name,
    int32_t *val, char **cause)
{
	uint32_t w = s->m.cfg.warp_width;
	char *end;
	int r;

	if (name[0] == '$') {
		/* gdb's $$N: N values back from the last ($$ is $$1) */
		unsigned long back = name[1] ? strtoul(name + 1, &end, 10) : 1;

		if (back >= s->nvalues) {
			*cause = xasprintf("history has no $%s: it holds %zu "
			    "value%s (print makes $1, $2, ...)", name,
			    s->nvalues, s->nvalues == 1 ? "" : "s");
			return -1;
		}
		*val = s->values[s->nvalues - 1 - back];
		return 0;
	}
	if (name[0] == '\0' || (name[0] >= '0' && name[0] <= '9')) {
		unsigned long k = name[0] ? strtoul(name, &end, 10) :
		    s->nvalues;

		if (s->nvalues == 0 || k == 0 || k > s->nvalues) {
			*cause = xasprintf("history is empty or has no $%s "
			    "(print makes $1, $2, ...)", name);
			return -1;
		}
		*val = s->values[k - 1];
		return 0;
	}
	if (strcmp(name, "core") == 0)
		*val = (int32_t)core;
	else if (strcmp(name, "warp") == 0)
		*val = (int32_t)(core / w);
	else if (strcmp(name, "lane") == 0)
		*val = (int32_t)(core % w);
	else if (strcmp(name, "ncores") == 0)
		*val = (int32_t)s->m.cfg.ncores;
	else if (strcmp(name, "step") == 0)
		*val = (int32_t)(uint32_t)s->m.step;
	else if (strcmp(name, "mask") == 0) {
		struct warp_view v;

		div_warp(&s->m, core / w, s->level != LEVEL_ISA, &v);
		*val = (int32_t)(uint32_t)v.active;
	} else if ((r = reg_find(name)) >= 0)
		*val = reg_get(&s->m.cores[core], r);
	else {
		*cause = xasprintf("unknown variable '$%s' (use $core, $warp, "
		    "$lane, $mask, $ncores, $step, a register like $pc, or "
		    "$N from print)", name);
		return -1;
	}
	return 0;
}

static const char *
suggest_name(struct session *s, uint32_t core, int32_t pc, const char *name)
{
	const struct dsym_method *dm = session_method_at(s, core, pc);
	const struct dsym *d = session_dsym(s, core);
	const char *best = NULL;
	int bestd = 3, dist;

	for (uint32_t i = 0; dm != NULL && i < dm->nlocals; i++)
		if (dm->locals[i] != NULL &&
		    (dist = edit_distance(name, dm->locals[i])) < bestd) {
			bestd = dist;
			best = dm->locals[i];
		}
	for (size_t i = 0; i < d->nglobals; i++)
		if ((dist = edit_distance(name, d->globals[i])) < bestd) {
			bestd = dist;
			best = d->globals[i];
		}
	for (int r = 0; r < REG_COUNT; r++)
		if ((dist = edit_distance(name, reg_name(r))) < bestd) {
			bestd = dist;
			best = reg_name(r);
		}
	return best != NULL && bestd < (int)strlen(name) ? best : NULL;
}

static int
env_name(void *arg, const char *name, int dollar, int32_t *val, char **cause)
{
	struct env_arg *ea = arg;
	struct session *s = ea->s;
	const struct core *c = &s->m.cores[ea->core];
	const struct dsym_method *dm;
	const char *near, *method;
	int idx;

	if (dollar)
		return dollar_value(s, ea->core, name, val, cause);
	/* the method of the frame (frame 0: session_core_pc, since a
	 * halted core's PC is past its HALT) */
	dm = session_method_at(s, ea->core, ea->pc);
	if ((idx = dsym_local(dm, name)) >= 0)
		return read_local(ea, idx, name, val, cause);
	if ((idx = global_index(s, ea->core, name)) >= 0)
		return session_read(s, ea->core, MM_GLOBALS_BASE + idx, 1, val,
		    cause);
	if ((idx = reg_find(name)) >= 0) {
		*val = reg_get(c, idx);
		return 0;
	}
	method = session_method_name(s, ea->core, ea->pc);
	near = suggest_name(s, ea->core, ea->pc, name);
	if (near != NULL)
		*cause = xasprintf("no local, global or register '%s' (did you "
		    "mean '%s'?)", name, near);
	else
		*cause = xasprintf("no local, global or register '%s' in %s on "
		    "core %u", name, method ? method : "this method", ea->core);
	return -1;
}

static int
env_indexed(void *arg, const char *base, int32_t index, int32_t *val,
    char **cause)
{
	struct env_arg *ea = arg;
	int32_t ref, len;
	char *why = NULL;

	if (strcmp(base, "local") == 0)
		return read_local(ea, index, NULL, val, cause);
	if (strcmp(base, "global") == 0) {
		if (index < 0 || index >= MM_GLOBALS_WORDS) {
			*cause = xasprintf("global[%d] is out of range (0-%d)",
			    index, MM_GLOBALS_WORDS - 1);
			return -1;
		}
		return session_read(ea->s, ea->core, MM_GLOBALS_BASE + index, 1,
		    val, cause);
	}
	/* a local or global that holds a heap array reference */
	if (env_name(arg, base, 0, &ref, cause) != 0)
		return -1;
	if (session_array_len(ea->s, ea->core, ref, &len, &why) != 0) {
		free(why);
		*cause = xasprintf("'%s' is %d, not an array reference (info "
		    "heap lists the arrays)", base, ref);
		return -1;
	}
	if (index < 0 || index >= len) {
		*cause = xasprintf("index %d is outside %s (length %d)", index,
		    base, len);
		return -1;
	}
	return session_read(ea->s, ea->core, ref + MM_ARRAY_HDR + index, 1,
	    val, cause);
}

int
session_eval(struct session *s, uint32_t core, const struct expr *e,
    int32_t *val, char **cause)
{
	struct env_arg ea = { s, core, session_core_pc(s, core),
	    s->m.cores[core].lv };
	struct expr_env env = { &ea, env_name, env_indexed };

	return expr_eval(e, &env, val, cause);
}

/* e on the focused core, its locals those of the selected frame. */
static int
eval_selected(struct session *s, const struct expr *e, int32_t *val,
    char **cause)
{
	struct env_arg ea = { s, s->focus, 0, 0 };
	struct expr_env env = { &ea, env_name, env_indexed };

	session_selected_pc_lv(s, &ea.pc, &ea.lv);
	return expr_eval(e, &env, val, cause);
}

int
session_eval_text(struct session *s, const char *text, int32_t *val,
    char **cause)
{
	struct expr *e;
	int rc;

	if (*text == '\0') {
		*cause = xasprintf("expected an expression");
		return -1;
	}
	if (expr_parse(text, &e, cause) != 0)
		return -1;
	rc = eval_selected(s, e, val, cause);
	expr_free(e);
	return rc;
}

static int
loc_eval(void *arg, const char *text, int32_t *val, char **cause)
{
	return session_eval_text(arg, text, val, cause);
}

int
session_loc_resolve(struct session *s, const char *spec,
    struct bp_loc **locs, size_t *nlocs, char **cause)
{
	const struct core *c = &s->m.cores[s->focus];
	struct loc_env env = {
		.progs = s->m.progs,
		.nprogs = s->m.nprogs,
		.focus_prog = c->prog,
		.focus_pc = c->pc,
		.scope_pc = c->pc,
		.eval = loc_eval,
		.arg = s,
	};
	int32_t lv;

	/* no location is the core's PC; names prefer the selected frame's
	 * method */
	session_selected_pc_lv(s, &env.scope_pc, &lv);
	return loc_resolve(&env, spec, locs, nlocs, cause);
}

struct check_arg {
	struct session		*s;
	const struct bp		*b;
};

static int
check_name(void *arg, const char *name, int dollar, char **cause)
{
	struct check_arg *ca = arg;
	struct session *s = ca->s;
	int32_t v;

	if (dollar) {
		if (name[0] == '\0' || name[0] == '$' ||
		    (name[0] >= '0' && name[0] <= '9'))
			return 0;	/* history: checked when evaluated */
		return dollar_value(s, s->focus, name, &v, cause);
	}
	if (reg_find(name) >= 0 || global_index(s, s->focus, name) >= 0)
		return 0;
	if (ca->b == NULL) {
		const struct dsym_method *dm = session_method_at(s, s->focus,
		    s->m.cores[s->focus].pc);

		if (dsym_local(dm, name) >= 0)
			return 0;
	}
	for (size_t i = 0; ca->b != NULL && i < ca->b->nlocs; i++) {
		const struct bp_loc *l = &ca->b->locs[i];
		const struct program *p = s->m.progs[l->prog];
		const struct symbol *m = program_method_at(p, (uint32_t)l->pc);
		const char *mname = m ? m->name : "main";

		if (dsym_local(dsym_method(&s->dsyms[l->prog], mname),
		    name) >= 0)
			return 0;
	}
	*cause = xasprintf("no local, global or register '%s' where the "
	    "breakpoint is (locals are those of its method)", name);
	return -1;
}

int
session_check_names(struct session *s, const struct expr *e,
    const struct bp *b, char **cause)
{
	struct check_arg ca = { s, b };

	return expr_walk_names(e, check_name, &ca, cause);
}

void
session_set_repeat(struct session *s, const char *line)
{
	free(s->repeat_as);
	s->repeat_as = xstrdup(line);
}

char *
session_take_repeat(struct session *s)
{
	char *r = s->repeat_as;

	s->repeat_as = NULL;
	return r;
}
