/*
 * Breakpoint commands: break, tbreak, watch, delete, disable, enable,
 * condition, ignore and info break.
 *
 * break LOCATION [core SET] [if COND]: the location is resolved here,
 * once (loc.c), into one struct bp_loc per program (and per method, for
 * a label several methods define: gdb's breakpoint with several
 * locations, numbered N.M in info break, each enabled alone), each with
 * the mask
 * of cores it applies to (the SET, cut to the cores that run that
 * program), which is what the engine checks.  A condition is parsed now
 * and its names are checked against the locals of the breakpoint's
 * method, so that a typo is reported when it is typed, not at the first
 * hit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"

/* Split "LOC [core SET] [if COND]" (modifies args). */
static int
split_break_args(char *args, char **loc, char **set, char **cond,
    char **cause)
{
	char *p = args, *words[4];
	size_t n = 0;

	*loc = *set = *cond = NULL;
	while (*p != '\0') {
		char *w;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		w = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (p - w == 2 && strncmp(w, "if", 2) == 0) {
			*w = '\0';
			*cond = p;
			while (**cond == ' ')
				(*cond)++;
			if (**cond == '\0') {
				*cause = xasprintf("'if' needs a condition, e.g. "
				    "if TOS == 5");
				return -1;
			}
			break;
		}
		if (*p != '\0')
			*p++ = '\0';
		if (n == 4)
			goto bad;
		words[n++] = w;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(words[i], "core") == 0 ||
		    strcmp(words[i], "cores") == 0) {
			if (i + 1 >= n || *set != NULL) {
				*cause = xasprintf("'core' needs a core set, e.g. "
				    "core 0-7,12");
				return -1;
			}
			*set = words[++i];
		} else if (*loc == NULL)
			*loc = words[i];
		else
			goto bad;
	}
	if (*loc == NULL)
		*loc = "";
	return 0;
bad:
	*cause = xasprintf("expected LOCATION [core SET] [if COND] (see help "
	    "break)");
	return -1;
}

static void
describe_cores(const struct session *s, const struct bp *b, struct buf *out)
{
	uint32_t n = s->m.cfg.ncores;

	if (b->cores == NULL)
		return;
	buf_printf(out, " on %s ", coreset_count(b->cores, n) == 1 ? "core" :
	    "cores");
	coreset_format_bits(out, b->cores, n, 8);
}

static void
describe_locs(struct session *s, const struct bp *b, struct buf *out)
{
	if (b->on_mpc) {
		buf_printf(out, "MPC ");
		session_describe_mpc(s, (uint32_t)b->locs[0].pc, out);
		return;
	}
	for (size_t i = 0; i < b->nlocs; i++) {
		if (i > 0)
			buf_printf(out, ", ");
		session_describe_pc(s, session_prog_core(s, b->locs[i].prog),
		    b->locs[i].pc, out);
	}
}

/*
 * The control-store address of an MPC location: a number (0x0f2) or a
 * label of the micro level's microprogram (the current micro level's,
 * or mic's at the ISA level, loaded now if need be).
 */
static int
resolve_mpc(struct session *s, const char *spec, int32_t *mpc,
    char **cause)
{
	enum level l = session_level(s) == LEVEL_ISA ? LEVEL_MIC :
	    session_level(s);
	const struct microcode *mc;
	const char *best = NULL;
	uint32_t addr;
	int bestd = 3;
	char *end;

	if (*spec == '\0') {
		*cause = xasprintf("break mpc needs an address or a label of the "
		    "microprogram, e.g. break mpc Main1");
		return -1;
	}
	if (*spec == '*')
		spec++;
	if (*spec >= '0' && *spec <= '9') {
		unsigned long v = strtoul(spec, &end, 0);

		if (*end != '\0' || v >= MIC1_STORE_WORDS) {
			*cause = xasprintf("'%s' is not a control-store address "
			    "(0 to 0x%x)", spec, MIC1_STORE_WORDS - 1);
			return -1;
		}
		*mpc = (int32_t)v;
		return 0;
	}
	if (session_load_microcode(s, l, &mc, cause) != 0)
		return -1;
	if (mc->syms.n == 0) {
		*cause = xasprintf("the microprogram %s has no symbols: give an "
		    "address (break mpc 0x0f2), or load its .mal", mc->path);
		return -1;
	}
	if (mal_syms_find(&mc->syms, spec, &addr) == 0) {
		*mpc = (int32_t)addr;
		return 0;
	}
	for (size_t i = 0; i < mc->syms.n; i++) {
		const char *lab = mc->syms.sym[i].label;
		int d;

		if (lab != NULL && !mc->syms.sym[i].is_default &&
		    (d = edit_distance(spec, lab)) < bestd) {
			bestd = d;
			best = lab;
		}
	}
	if (best != NULL && bestd < (int)strlen(spec))
		*cause = xasprintf("no label '%s' in the microprogram (did you "
		    "mean '%s'?)", spec, best);
	else
		*cause = xasprintf("no label '%s' in the microprogram %s "
		    "(give one of its labels, or an address: mpc 0x1f)", spec,
		    mc->path);
	return -1;
}

/* break mpc ADDR|LABEL [core SET] [if COND] */
static int
make_break_mpc(struct session *s, const struct cmd_call *c, int temporary,
    struct buf *out, char **cause)
{
	char *args = xstrdup(c->args + 3), *loc, *set, *cond;
	uint32_t n = s->m.cfg.ncores;
	uint8_t *cores = NULL;
	struct bp tmp, *b;
	int32_t mpc;

	memset(&tmp, 0, sizeof tmp);
	if (split_break_args(args, &loc, &set, &cond, cause) != 0 ||
	    (set != NULL && coreset_parse(set, n, &cores, cause) != 0) ||
	    resolve_mpc(s, loc, &mpc, cause) != 0)
		goto fail;
	tmp.locs = xcalloc(1, sizeof *tmp.locs);
	tmp.nlocs = 1;
	tmp.locs[0].pc = mpc;
	if (cores != NULL) {
		tmp.locs[0].mask = xcalloc(n, 1);
		memcpy(tmp.locs[0].mask, cores, n);
	}
	if (cond != NULL && (bp_set_condition(&tmp, cond, cause) != 0 ||
	    session_check_names(s, tmp.cond, NULL, cause) != 0))
		goto fail;
	b = bp_add(&s->bps, BP_BREAK);
	tmp.id = b->id;
	tmp.kind = BP_BREAK;
	tmp.enabled = 1;
	tmp.temporary = (uint8_t)temporary;
	tmp.on_mpc = 1;
	tmp.what = xasprintf("mpc %s", loc);
	tmp.cores = cores;
	tmp.cores_text = set ? xstrdup(set) : NULL;
	*b = tmp;
	s->bps_dirty = 1;
	buf_printf(out, "%sbreakpoint %u at MPC ", temporary ? "temporary " :
	    "", b->id);
	session_describe_mpc(s, (uint32_t)mpc, out);
	describe_cores(s, b, out);
	if (b->cond_text != NULL)
		buf_printf(out, " if %s", b->cond_text);
	buf_printf(out, "\n");
	if (session_level(s) == LEVEL_ISA)
		buf_printf(out, "(MPC breakpoints take effect at the micro "
		    "level: set level mic)\n");
	free(args);
	return 0;
fail:
	bp_clear(&tmp);
	free(cores);
	free(args);
	return -1;
}

static int
make_break(struct session *s, const struct cmd_call *c, int temporary,
    struct buf *out, char **cause)
{
	char *args = xstrdup(c->args), *loc, *set, *cond;
	uint32_t n = s->m.cfg.ncores;
	uint8_t *cores = NULL;
	struct bp_loc *locs = NULL;
	size_t nlocs = 0, kept = 0;
	struct bp tmp, *b;

	memset(&tmp, 0, sizeof tmp);
	if (strncmp(args, "mpc", 3) == 0 && (args[3] == ' ' ||
	    args[3] == '\0')) {
		free(args);
		return make_break_mpc(s, c, temporary, out, cause);
	}
	if (split_break_args(args, &loc, &set, &cond, cause) != 0 ||
	    (set != NULL && coreset_parse(set, n, &cores, cause) != 0) ||
	    session_loc_resolve(s, loc, &locs, &nlocs, cause) != 0)
		goto fail;
	/* Per program: the cores it applies to, or NULL for all. */
	for (size_t i = 0; i < nlocs; i++) {
		uint8_t *mask = NULL;
		uint32_t k, any = 0;

		if (cores != NULL || s->m.nprogs > 1) {
			mask = xcalloc(n, 1);
			for (k = 0; k < n; k++) {
				mask[k] = (cores == NULL || cores[k]) &&
				    (s->prog_masks == NULL ||
				    s->prog_masks[locs[i].prog][k]);
				any |= mask[k];
			}
			if (!any) {
				free(mask);
				continue;
			}
		}
		locs[kept] = locs[i];
		locs[kept++].mask = mask;
	}
	if (kept == 0) {
		*cause = xasprintf("no core in %s runs a program with '%s'", set,
		    loc);
		goto fail;
	}
	tmp.locs = locs;
	tmp.nlocs = kept;
	locs = NULL;
	if (cond != NULL && (bp_set_condition(&tmp, cond, cause) != 0 ||
	    session_check_names(s, tmp.cond, &tmp, cause) != 0))
		goto fail;
	b = bp_add(&s->bps, BP_BREAK);
	tmp.id = b->id;
	tmp.kind = BP_BREAK;
	tmp.enabled = 1;
	tmp.temporary = (uint8_t)temporary;
	if (*loc == '\0')
		tmp.what = xasprintf("*0x%04x", (uint32_t)tmp.locs[0].pc);
	else
		tmp.what = xstrdup(loc);
	tmp.cores = cores;
	tmp.cores_text = set ? xstrdup(set) : NULL;
	*b = tmp;
	s->bps_dirty = 1;
	buf_printf(out, "%sbreakpoint %u at ", temporary ? "temporary " : "",
	    b->id);
	if (b->nlocs > 1)	/* gdb's shape; info break lists them */
		buf_printf(out, "0x%04x: %s. (%zu locations)",
		    (uint32_t)b->locs[0].pc, b->what, b->nlocs);
	else
		describe_locs(s, b, out);
	describe_cores(s, b, out);
	if (b->cond_text != NULL)
		buf_printf(out, " if %s", b->cond_text);
	buf_printf(out, "\n");
	free(args);
	return 0;
fail:
	if (locs != NULL)
		for (size_t i = 0; i < nlocs; i++)
			free(locs[i].mask);
	free(locs);
	bp_clear(&tmp);
	free(cores);
	free(args);
	return -1;
}

static int
cmd_break_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	return make_break(s, c, 0, out, cause);
}

static int
cmd_tbreak_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	return make_break(s, c, 1, out, cause);
}

const struct cmd_entry cmd_break_entry = {
	.name = "break",
	.alias = "b br",
	.usage = "break [LOCATION | mpc ADDR|LABEL] [core SET] [if COND]",
	.summary = "set a breakpoint",
	.help = "stop before any core in SET (default: all) executes the\n"
	    "instruction at LOCATION, if COND holds on that core.  LOCATION is\n"
	    "a label, METHOD#LABEL, a method, LINE or FILE:LINE of the source,\n"
	    "or *ADDR; none means the focused core's PC.  SET is like 0-7,12 or\n"
	    "all.  COND is an expression on the core's registers, locals and\n"
	    "globals, $core, $warp, $lane (e.g. if TOS == 5, if $core % 2 == 0).\n"
	    "A stop names every core that hit the breakpoint in that step.\n"
	    "At a micro level a core stops at such a breakpoint at its\n"
	    "instruction boundary.  break mpc ADDR|LABEL stops micro-level\n"
	    "cores about to execute the micro-instruction at that control-store\n"
	    "address (a label of the microprogram, e.g. Main1); at the ISA\n"
	    "level it waits for set level mic.",
	.arg = ARG_LOCATION,
	.exec = cmd_break_exec,
};

const struct cmd_entry cmd_tbreak_entry = {
	.name = "tbreak",
	.alias = "tb",
	.usage = "tbreak [LOCATION | mpc ADDR|LABEL] [core SET] [if COND]",
	.summary = "set a breakpoint that stops once",
	.help = "a breakpoint that is deleted when it first stops the machine",
	.arg = ARG_LOCATION,
	.exec = cmd_tbreak_exec,
};

static int
parse_ids(struct session *s, const struct cmd_call *c, uint32_t **ids,
    size_t *n, char **cause)
{
	if (bp_parse_ids(&s->bps, c->args, ids, n, cause) != 0)
		return -1;
	if (*n == 0 && *c->args == '\0') {
		/* no numbers: every breakpoint and watchpoint */
		*ids = xcalloc(s->bps.n + 1, sizeof **ids);
		for (size_t i = 0; i < s->bps.n; i++)
			(*ids)[i] = s->bps.v[i].id;
		*n = s->bps.n;
	}
	return 0;
}

static int
cmd_delete_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	const char *p = c->args;
	char word[16];
	uint32_t *ids;
	size_t n;

	(void)out;
	if (cmd_word(&p, word, sizeof word) && strcmp(word, "display") == 0)
		return display_delete(s, p, cause);
	if (parse_ids(s, c, &ids, &n, cause) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		bp_delete(&s->bps, ids[i]);
	free(ids);
	s->bps_dirty = 1;
	return 0;
}

const struct cmd_entry cmd_delete_entry = {
	.name = "delete",
	.alias = "d",
	.usage = "delete [N...] | delete display [N...]",
	.summary = "delete breakpoints and watchpoints",
	.help = "delete breakpoints and watchpoints N (e.g. 1 3 5-7); without\n"
	    "numbers, all of them.  delete display N is undisplay N.",
	.arg = ARG_BPNUMS,
	.exec = cmd_delete_exec,
};

/*
 * enable/disable [N... | N.M... | display [N...]]: the locations N.M
 * (gdb's numbering of a breakpoint's locations) are taken out first, the
 * numbers go to parse_ids.
 */
static int
set_enabled(struct session *s, const struct cmd_call *c, int on,
    char **cause)
{
	struct cmd_call whole = *c;
	const char *p = c->args;
	char word[64];
	struct buf nums = { 0 };
	uint32_t *ids;
	size_t n;
	int dotted = 0;

	if (cmd_word(&p, word, sizeof word) && strcmp(word, "display") == 0)
		return display_enable(s, p, on, cause);
	p = c->args;
	while (cmd_word(&p, word, sizeof word)) {
		if (strchr(word, '.') == NULL) {
			buf_printf(&nums, "%s ", word);
			continue;
		}
		if (bp_enable_loc(&s->bps, word, on, cause) != 0) {
			buf_free(&nums);
			return -1;
		}
		dotted = 1;
	}
	buf_put_u8(&nums, 0);
	whole.args = (const char *)nums.data;
	s->bps_dirty = 1;
	if (dotted && nums.len == 1) {
		buf_free(&nums);
		return 0;
	}
	if (parse_ids(s, &whole, &ids, &n, cause) != 0) {
		buf_free(&nums);
		return -1;
	}
	buf_free(&nums);
	for (size_t i = 0; i < n; i++) {
		struct bp *b = bp_find(&s->bps, ids[i]);
		char *err = NULL;

		/* a watchpoint compares with what it sees from now on */
		if (on && !b->enabled && b->kind == BP_WATCH &&
		    watch_value(s, b, &b->wvalue, &err) != 0)
			free(err);
		b->enabled = (uint8_t)on;
	}
	free(ids);
	s->bps_dirty = 1;
	return 0;
}

static int
cmd_disable_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)out;
	return set_enabled(s, c, 0, cause);
}

static int
cmd_enable_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	(void)out;
	return set_enabled(s, c, 1, cause);
}

const struct cmd_entry cmd_disable_entry = {
	.name = "disable",
	.alias = "dis disa",
	.usage = "disable [N... | N.M... | display [N...]]",
	.summary = "disable breakpoints and watchpoints",
	.help = "disable breakpoints and watchpoints N (none: all); they stay\n"
	    "listed and keep their hit counts.  N.M disables location M of\n"
	    "breakpoint N only (info break lists them as 1.1, 1.2, ...).\n"
	    "disable display N stops showing display N (none: all).",
	.arg = ARG_BPNUMS,
	.exec = cmd_disable_exec,
};

const struct cmd_entry cmd_enable_entry = {
	.name = "enable",
	.usage = "enable [N... | N.M... | display [N...]]",
	.summary = "enable breakpoints and watchpoints",
	.help = "enable breakpoints and watchpoints N (none: all), location M\n"
	    "of breakpoint N (N.M), or displays (enable display [N...])",
	.arg = ARG_BPNUMS,
	.exec = cmd_enable_exec,
};

/* The breakpoint number that starts c->args; *rest is after it. */
static struct bp *
bp_arg(struct session *s, const struct cmd_call *c, const char **rest,
    char **cause)
{
	const char *p = c->args;
	char word[32], *end;
	unsigned long id;
	struct bp *b;

	if (!cmd_word(&p, word, sizeof word)) {
		*cause = xasprintf("usage: %s", c->entry->usage);
		return NULL;
	}
	id = strtoul(word, &end, 10);
	if (*end != '\0' || word[0] < '0' || word[0] > '9') {
		*cause = xasprintf("'%s' is not a breakpoint number (usage: %s)",
		    word, c->entry->usage);
		return NULL;
	}
	if (id > UINT32_MAX || (b = bp_find(&s->bps, (uint32_t)id)) == NULL) {
		*cause = xasprintf("no breakpoint number %lu (info break lists "
		    "them)", id);
		return NULL;
	}
	*rest = p;
	return b;
}

static int
cmd_condition_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	const char *rest;
	struct bp *b, tmp;

	if ((b = bp_arg(s, c, &rest, cause)) == NULL)
		return -1;
	if (b->kind != BP_BREAK) {
		*cause = xasprintf("%u is a watchpoint: conditions apply to "
		    "breakpoints only", b->id);
		return -1;
	}
	memset(&tmp, 0, sizeof tmp);
	tmp.locs = b->locs;
	tmp.nlocs = b->nlocs;
	if (bp_set_condition(&tmp, rest, cause) != 0)
		return -1;
	if (tmp.cond != NULL &&
	    session_check_names(s, tmp.cond, b, cause) != 0) {
		expr_free(tmp.cond);
		free(tmp.cond_text);
		return -1;
	}
	expr_free(b->cond);
	free(b->cond_text);
	b->cond = tmp.cond;
	b->cond_text = tmp.cond_text;
	if (b->cond == NULL)
		buf_printf(out, "breakpoint %u now unconditional\n", b->id);
	return 0;
}

const struct cmd_entry cmd_condition_entry = {
	.name = "condition",
	.usage = "condition N [COND]",
	.summary = "set or remove the condition of a breakpoint",
	.help = "stop at breakpoint N only on cores where COND holds; without\n"
	    "COND, always",
	.arg = ARG_EXPR,
	.exec = cmd_condition_exec,
};

static int
cmd_ignore_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	const char *rest;
	struct bp *b;
	uint64_t n;

	if ((b = bp_arg(s, c, &rest, cause)) == NULL)
		return -1;
	if (cmd_count(rest, &n, cause) != 0) {
		free(*cause);
		*cause = xasprintf("usage: %s", c->entry->usage);
		return -1;
	}
	b->ignore = n;
	if (n == 0)
		buf_printf(out, "will stop next time breakpoint %u is reached\n",
		    b->id);
	else
		buf_printf(out, "will ignore next %llu crossings of breakpoint "
		    "%u\n", (unsigned long long)n, b->id);
	return 0;
}

const struct cmd_entry cmd_ignore_entry = {
	.name = "ignore",
	.usage = "ignore N COUNT",
	.summary = "ignore the next COUNT hits of a breakpoint",
	.help = "do not stop the next COUNT times breakpoint N is hit.  A hit\n"
	    "is one step in which one or more cores reach it with its condition\n"
	    "true, the same unit info break counts (\"already hit 3 times\");\n"
	    "ignored hits are counted too.",
	.arg = ARG_BPNUMS,
	.exec = cmd_ignore_exec,
};

/* --- watch ------------------------------------------------------------ */

static int
watch_local(struct session *s, struct bp *b, const char *args, char **cause)
{
	char name[64], word[32];
	const char *p = args;
	uint32_t core = s->focus;
	const struct dsym_method *dm;
	int32_t nlocals, link, idx, pc, lv;
	const struct core *c;

	if (!cmd_word(&p, name, sizeof name)) {
		*cause = xasprintf("usage: watch local NAME [core N]");
		return -1;
	}
	if (cmd_word(&p, word, sizeof word)) {
		uint64_t n;

		if (strcmp(word, "core") != 0 || !cmd_word(&p, word,
		    sizeof word) || cmd_count(word, &n, cause) != 0 ||
		    *p != '\0') {
			free(*cause);
			*cause = xasprintf("usage: watch local NAME [core N]");
			return -1;
		}
		if (n >= s->m.cfg.ncores) {
			*cause = xasprintf("core %llu is out of range: the "
			    "machine has %u cores", (unsigned long long)n,
			    s->m.cfg.ncores);
			return -1;
		}
		core = (uint32_t)n;
	}
	c = &s->m.cores[core];
	pc = c->pc;
	lv = c->lv;
	if (core == s->focus)	/* the selected frame's, as print reads */
		session_selected_pc_lv(s, &pc, &lv);
	dm = session_method_at(s, core, pc);
	if (strncmp(name, "local[", 6) == 0) {
		char *end;

		idx = (int32_t)strtol(name + 6, &end, 0);
		if (strcmp(end, "]") != 0) {
			*cause = xasprintf("bad local '%s' (write local[N] or a "
			    "name)", name);
			return -1;
		}
	} else if ((idx = dsym_local(dm, name)) < 0) {
		const char *mn = session_method_name(s, core, pc);

		*cause = xasprintf("no local '%s' in %s, where core %u is", name,
		    mn ? mn : "this method", core);
		return -1;
	}
	if (session_frame(s, core, lv, &nlocals, &link, cause) != 0)
		return -1;
	if (idx < 0 || idx >= nlocals) {
		*cause = xasprintf("local %s is outside the frame of core %u "
		    "(%d locals)", name, core, nlocals);
		return -1;
	}
	b->wkind = WATCH_LOCAL;
	b->wcore = core;
	b->waddr = lv + idx;
	b->wframe = lv;
	b->what = xasprintf("local %s of core %u", name, core);
	return 0;
}

static int
cmd_watch_exec(struct session *s, const struct cmd_call *c, struct buf *out,
    char **cause)
{
	const char *p = c->args;
	char word[64];
	struct bp tmp, *b;
	int32_t v;
	int g = -1;

	memset(&tmp, 0, sizeof tmp);
	if (!cmd_word(&p, word, sizeof word)) {
		*cause = xasprintf("usage: %s", cmd_watch_entry.usage);
		return -1;
	}
	if (strcmp(word, "local") == 0) {
		if (watch_local(s, &tmp, p, cause) != 0)
			return -1;
	} else if (strcmp(word, "heap") == 0) {
		if (*p == '\0') {
			*cause = xasprintf("usage: watch heap ADDR (a word "
			    "address; info heap lists the arrays)");
			return -1;
		}
		if (session_eval_text(s, p, &v, cause) != 0)
			return -1;
		if (v < MM_HEAP_BASE ||
		    v >= MM_HEAP_BASE + (int32_t)s->m.cfg.heap_words) {
			*cause = xasprintf("0x%x is not a heap word (the heap is "
			    "0x%x-0x%x; info heap lists the arrays)",
			    (uint32_t)v, MM_HEAP_BASE, MM_HEAP_BASE +
			    s->m.cfg.heap_words - 1);
			return -1;
		}
		tmp.wkind = WATCH_HEAP;
		tmp.waddr = v;
		tmp.what = xasprintf("heap word 0x%x", (uint32_t)v);
	} else {
		/* a global by name or global[N]; a local name as a courtesy */
		if (*p != '\0') {
			*cause = xasprintf("usage: %s", cmd_watch_entry.usage);
			return -1;
		}
		if (strncmp(word, "global[", 7) == 0) {
			char *inner = xstrndup(word + 7, strlen(word + 7));
			size_t n = strlen(inner);

			if (n == 0 || inner[n - 1] != ']') {
				free(inner);
				*cause = xasprintf("bad global '%s' (write "
				    "global[N])", word);
				return -1;
			}
			inner[n - 1] = '\0';
			if (session_eval_text(s, inner, &v, cause) != 0) {
				free(inner);
				return -1;
			}
			free(inner);
			if (v < 0 || v >= MM_GLOBALS_WORDS) {
				*cause = xasprintf("global[%d] is out of range "
				    "(0-%d)", v, MM_GLOBALS_WORDS - 1);
				return -1;
			}
			g = v;
			tmp.what = xasprintf("global[%d]", g);
		} else {
			for (size_t i = 0; g < 0 && i < s->m.nprogs; i++)
				g = dsym_global(&s->dsyms[i], word);
			if (g < 0) {
				int32_t fpc, flv;

				session_selected_pc_lv(s, &fpc, &flv);
				if (dsym_local(session_method_at(s, s->focus,
				    fpc), word) >= 0) {
					if (watch_local(s, &tmp, word,
					    cause) != 0)
						return -1;
					goto made;
				}
				*cause = xasprintf("no global '%s' (watch takes "
				    "a .global name, global[N], heap ADDR or "
				    "local NAME)", word);
				return -1;
			}
			tmp.what = xasprintf("global %s", word);
		}
		tmp.wkind = WATCH_GLOBAL;
		tmp.waddr = MM_GLOBALS_BASE + g;
	}
made:
	if (watch_value(s, &tmp, &tmp.wvalue, cause) != 0) {
		free(tmp.what);
		return -1;
	}
	b = bp_add(&s->bps, BP_WATCH);
	tmp.id = b->id;
	tmp.kind = BP_WATCH;
	tmp.enabled = 1;
	*b = tmp;
	buf_printf(out, "watchpoint %u: %s = %d\n", b->id, b->what, b->wvalue);
	return 0;
}

const struct cmd_entry cmd_watch_entry = {
	.name = "watch",
	.usage = "watch GLOBAL | global[N] | heap ADDR | local NAME [core N]",
	.summary = "stop when a word changes",
	.help = "stop after the step that changes a word: a global (by its\n"
	    ".global name or number), a heap word (its address, as x shows it),\n"
	    "or a local of a core's current frame (default: the focused core's\n"
	    "selected frame; the watchpoint ends when that frame returns).\n"
	    "The report gives\n"
	    "the old and new values and the cores that stored to the word.\n"
	    "While watchpoints are enabled the machine runs one step at a time,\n"
	    "so continue is slower.",
	.arg = ARG_WATCH,
	.exec = cmd_watch_exec,
};

/* --- info break ------------------------------------------------------- */

static int
cmd_info_break_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	/* gdb's info watchpoints: the same table, watchpoints only */
	int watch_only = c->word != NULL &&
	    strcmp(c->word, "watchpoints") == 0;
	size_t shown = 0;

	(void)cause;
	for (size_t i = 0; i < s->bps.n; i++)
		if (!watch_only || s->bps.v[i].kind != BP_BREAK)
			shown++;
	if (shown == 0) {
		buf_printf(out, watch_only ? "no watchpoints\n" :
		    "no breakpoints or watchpoints\n");
		return 0;
	}
	buf_printf(out, "Num  Type        Disp  Enb  What\n");
	for (size_t i = 0; i < s->bps.n; i++) {
		const struct bp *b = &s->bps.v[i];

		if (watch_only && b->kind == BP_BREAK)
			continue;
		buf_printf(out, "%-4u %-11s %-5s %-4s ", b->id,
		    b->kind != BP_BREAK ? "watchpoint" : b->on_mpc ?
		    "mpc break" : "breakpoint",
		    b->temporary ? "del" : "keep", b->enabled ? "y" : "n");
		if (b->kind == BP_BREAK && b->nlocs > 1) {
			buf_printf(out, "<MULTIPLE> %s (%zu locations)", b->what,
			    b->nlocs);
			describe_cores(s, b, out);
		} else if (b->kind == BP_BREAK) {
			describe_locs(s, b, out);
			describe_cores(s, b, out);
		} else
			buf_printf(out, "%s (value %d)", b->what, b->wvalue);
		buf_printf(out, "\n");
		if (b->cond_text != NULL)
			buf_printf(out, "        stop only if %s\n", b->cond_text);
		if (b->hits > 0)
			buf_printf(out, "        %s already hit %llu time%s\n",
			    b->kind == BP_BREAK ? "breakpoint" : "watchpoint",
			    (unsigned long long)b->hits, b->hits == 1 ? "" : "s");
		if (b->ignore > 0)
			buf_printf(out, "        will ignore next %llu "
			    "crossings\n", (unsigned long long)b->ignore);
		/* gdb's location rows: N.M, its own enable flag */
		for (size_t k = 0; b->kind == BP_BREAK && b->nlocs > 1 &&
		    k < b->nlocs; k++) {
			char num[32];

			snprintf(num, sizeof num, "%u.%zu", b->id, k + 1);
			buf_printf(out, "%-4s %-11s %-5s %-4s ", num, "", "",
			    b->locs[k].disabled ? "n" : "y");
			session_describe_pc(s, session_prog_core(s,
			    b->locs[k].prog), b->locs[k].pc, out);
			buf_printf(out, "\n");
		}
	}
	return 0;
}

const struct cmd_entry cmd_info_break_entry = {
	.name = "break",
	.alias = "b breakpoints watchpoints",
	.usage = "info break",
	.summary = "list breakpoints and watchpoints",
	.help = "list breakpoints and watchpoints: number, kind, whether it is\n"
	    "deleted when hit, enabled, where, cores, condition, hits (steps in\n"
	    "which cores reached it with the condition true) and ignore count.\n"
	    "A breakpoint with several locations (a label several methods\n"
	    "define, a label of several programs) has a row N.M for each.\n"
	    "info watchpoints lists the watchpoints only, as gdb does.",
	.arg = ARG_NONE,
	.exec = cmd_info_break_exec,
};
