/*
 * Unit tests of the debugger engine (src/dbg): core sets, command lookup, breakpoint bookkeeping, debug names from
 * the source, and a session driven command by command over the
 * reference engine, checking the text it returns.
 *
 * The session tests assemble small sources in memory (asm.h), so they
 * need no files; the batch transcripts (tests/batch.sh) cover the rest.
 * The expression language has its own program (tests/test-expr.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "bp.h"
#include "cmd.h"
#include "coreset.h"
#include "dbg.h"
#include "dsym.h"
#include "expr.h"
#include "levels.h"
#include "session.h"
#include "tap.h"
#include "util.h"

/* --- core sets ---------------------------------------------------------- */

static char *
fmt_bits(const uint8_t *bits, uint32_t n, size_t max)
{
	struct buf b = { 0 };
	char *s;

	coreset_format_bits(&b, bits, n, max);
	buf_put_u8(&b, 0);
	s = xstrdup((char *)b.data);
	buf_free(&b);
	return s;
}

static void
test_coreset(void)
{
	uint8_t *bits;
	char *cause = NULL, *s;
	uint32_t list[] = { 3, 8, 9, 10, 11, 17, 49 };
	struct buf b = { 0 };

	ok(coreset_parse("0-7,12", 16, &bits, &cause) == 0, "coreset: 0-7,12");
	is_int(coreset_count(bits, 16), 9, "coreset: 9 cores");
	ok(bits[0] && bits[7] && !bits[8] && bits[12] && !bits[13],
	    "coreset: the right cores");
	s = fmt_bits(bits, 16, 8);
	is_str(s, "0-7, 12", "coreset: formats back as ranges");
	free(s);
	free(bits);
	ok(coreset_parse("all", 5, &bits, &cause) == 0 &&
	    coreset_count(bits, 5) == 5, "coreset: all");
	free(bits);
	ok(coreset_parse("3", 4, &bits, &cause) == 0 &&
	    coreset_count(bits, 4) == 1 && bits[3], "coreset: one core");
	free(bits);
	ok(coreset_parse("4", 4, &bits, &cause) == -1, "coreset: core 4 of 4");
	is_str(cause, "core 4 is out of range: the machine has 4 cores (0-3)",
	    "coreset: ... says the range");
	free(cause);
	cause = NULL;
	ok(coreset_parse("7-3", 8, &bits, &cause) == -1 && strstr(cause,
	    "lower core first") != NULL, "coreset: reversed range");
	free(cause);
	cause = NULL;
	ok(coreset_parse("1,,2", 8, &bits, &cause) == -1 && strstr(cause,
	    "bad core set '1,,2'") != NULL, "coreset: empty item");
	free(cause);
	cause = NULL;
	ok(coreset_parse("x", 8, &bits, &cause) == -1, "coreset: not a number");
	free(cause);
	cause = NULL;
	ok(coreset_parse("", 8, &bits, &cause) == -1, "coreset: empty");
	free(cause);
	cause = NULL;
	ok(coreset_parse("1,", 8, &bits, &cause) == -1, "coreset: trailing ,");
	free(cause);

	coreset_format_cores(&b, list, 7, 8);
	buf_put_u8(&b, 0);
	is_str((char *)b.data, "cores 3, 8-11, 17, 49", "coreset: core list");
	b.len = 0;
	coreset_format_cores(&b, list, 1, 8);
	buf_put_u8(&b, 0);
	is_str((char *)b.data, "core 3", "coreset: one core, singular");
	b.len = 0;
	coreset_format_list(&b, list, 7, 2);
	buf_put_u8(&b, 0);
	is_str((char *)b.data, "3, 8-11, ... (2 more ranges)",
	    "coreset: long lists are abbreviated");
	buf_free(&b);
}

/* --- command lookup ------------------------------------------------------ */

static const char *
find(const char *word, char **msg)
{
	const struct cmd_entry *e;
	char *cause = NULL;

	if (cmd_find(cmd_table, word, "command", &e, &cause) != 0) {
		if (msg)
			*msg = cause;
		else
			free(cause);
		return NULL;
	}
	return e->name;
}

static void
test_cmd_find(void)
{
	const struct cmd_entry *info = NULL, *e;
	char *msg = NULL;

	is_str(find("break", NULL), "break", "cmd: exact name");
	is_str(find("b", NULL), "break", "cmd: alias b");
	is_str(find("c", NULL), "continue", "cmd: alias c");
	is_str(find("s", NULL), "step", "cmd: alias s beats set/show prefixes");
	is_str(find("si", NULL), "stepi", "cmd: alias si");
	is_str(find("n", NULL), "next", "cmd: alias n");
	is_str(find("p", NULL), "print", "cmd: alias p");
	is_str(find("i", NULL), "info", "cmd: alias i");
	is_str(find("bt", NULL), "backtrace", "cmd: alias bt");
	is_str(find("r", NULL), "run", "cmd: alias r");
	is_str(find("q", NULL), "quit", "cmd: alias q");
	is_str(find("cont", NULL), "continue", "cmd: unique prefix");
	is_str(find("tb", NULL), "tbreak", "cmd: tb");
	is_str(find("wat", NULL), "watch", "cmd: prefix wat");
	is_str(find("x", NULL), "x", "cmd: x");
	ok(find("co", &msg) == NULL, "cmd: co is ambiguous");
	is_str(msg, "ambiguous command 'co': could be condition, continue, core",
	    "cmd: ... and lists the choices");
	free(msg);
	msg = NULL;
	ok(find("brek", &msg) == NULL, "cmd: unknown command");
	is_str(msg, "unknown command 'brek' (did you mean 'break'?)",
	    "cmd: ... suggests the nearest");
	free(msg);
	msg = NULL;
	ok(find("zzzzzz", &msg) == NULL && strstr(msg, "help lists them"),
	    "cmd: no suggestion for nonsense");
	free(msg);

	for (size_t i = 0; cmd_table[i] != NULL; i++)
		if (strcmp(cmd_table[i]->name, "info") == 0)
			info = cmd_table[i];
	ok(info != NULL && info->sub != NULL, "cmd: info has subcommands");
	ok(cmd_find(info->sub, "r", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "registers") == 0, "cmd: i r is info registers");
	ok(cmd_find(info->sub, "b", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "break") == 0, "cmd: i b is info break");
	ok(cmd_find(info->sub, "watchpoints", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "break") == 0, "cmd: info watchpoints is info break");
	ok(cmd_find(info->sub, "w", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "warps") == 0, "cmd: i w is info warps");
	ok(cmd_find(info->sub, "d", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "divergence") == 0, "cmd: i d is info divergence");
	ok(cmd_find(info->sub, "l", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "lanes") == 0, "cmd: i l is info lanes");
	ok(cmd_find(info->sub, "lanez", "info command", &e, &msg) == -1,
	    "cmd: unknown info command");
	is_str(msg, "unknown info command 'lanez' (did you mean 'lanes'?)",
	    "cmd: ... suggests the nearest subcommand");
	free(msg);
	msg = NULL;
	/* by spelling, not by whatever is nearest */
	ok(cmd_find(info->sub, "args", "info command", &e, &msg) == 0 &&
	    strcmp(e->name, "args") == 0, "cmd: info args exists");
	ok(cmd_find(info->sub, "lcoals", "info command", &e, &msg) == -1,
	    "cmd: a swapped pair of letters");
	is_str(msg, "unknown info command 'lcoals' (did you mean 'locals'?)",
	    "cmd: ... costs one edit");
	free(msg);
	msg = NULL;
	ok(find("wach", &msg) == NULL, "cmd: one letter missing");
	is_str(msg, "unknown command 'wach' (did you mean 'watch'?)",
	    "cmd: ... is suggested");
	free(msg);
	msg = NULL;
	ok(find("dwn", &msg) == NULL && strstr(msg, "'down'") != NULL,
	    "cmd: dwn suggests down");
	free(msg);
	msg = NULL;
	ok(find("zq", &msg) == NULL && strstr(msg, "did you mean") == NULL,
	    "cmd: two letters are never corrected");
	free(msg);
	is_int(edit_distance("contineu", "continue"), 1,
	    "edit distance: a swap of neighbours is one edit");
	is_int(edit_distance("kitten", "sitting"), 3,
	    "edit distance: substitutions and an insertion");
	is_int(spelling_near("args", "warps"), -1,
	    "spelling: 'warps' is too far from 'args'");
	is_int(spelling_near("locals", "globals"), 2,
	    "spelling: two edits are near for six letters");
	is_int(spelling_near("stepp", "step"), 1, "spelling: one extra letter");
	is_str(find("f", NULL), "frame", "cmd: f is frame, as in gdb");
	is_str(find("dis", NULL), "disable", "cmd: dis is disable, as in gdb");

	/* every entry is complete: the help and man page rely on it */
	for (size_t i = 0; cmd_table[i] != NULL; i++) {
		const struct cmd_entry *c = cmd_table[i];

		if (!ok(c->usage && c->summary && c->help && c->exec,
		    "cmd: %s has usage, summary, help, handler", c->name))
			break;
	}
}

/* --- breakpoint table ---------------------------------------------------- */

static void
test_bp_table(void)
{
	struct bp_table t;
	struct bp *b;
	uint32_t *ids;
	size_t n;
	char *cause = NULL;

	bp_table_init(&t);
	b = bp_add(&t, BP_BREAK);
	is_int(b->id, 1, "bp: numbers start at 1");
	ok(b->enabled, "bp: new entries are enabled");
	b = bp_add(&t, BP_WATCH);
	is_int(b->id, 2, "bp: numbers are shared with watchpoints");
	bp_add(&t, BP_BREAK);
	bp_add(&t, BP_BREAK);
	is_int(bp_count(&t, BP_BREAK, 0), 3, "bp: count breakpoints");
	is_int(bp_count(&t, BP_WATCH, 0), 1, "bp: count watchpoints");
	ok(bp_delete(&t, 3) == 0 && bp_find(&t, 3) == NULL, "bp: delete 3");
	ok(bp_delete(&t, 3) == -1, "bp: delete 3 again fails");
	b = bp_add(&t, BP_BREAK);
	is_int(b->id, 5, "bp: numbers are never reused");
	ok(bp_find(&t, 4) != NULL && bp_find(&t, 4)->id == 4,
	    "bp: find after a delete");
	bp_find(&t, 4)->enabled = 0;
	is_int(bp_count(&t, BP_BREAK, 1), 2, "bp: count enabled only");

	ok(bp_parse_ids(&t, "5 1 2-4", &ids, &n, &cause) == 0 && n == 4 &&
	    ids[0] == 1 && ids[1] == 2 && ids[2] == 4 && ids[3] == 5,
	    "bp: ids sorted, ranges skip deleted numbers");
	free(ids);
	ok(bp_parse_ids(&t, "", &ids, &n, &cause) == 0 && n == 0,
	    "bp: no ids");
	free(ids);
	ok(bp_parse_ids(&t, "3", &ids, &n, &cause) == -1, "bp: deleted id");
	is_str(cause, "no breakpoint number 3 (info break lists them)",
	    "bp: ... names it");
	free(cause);
	cause = NULL;
	ok(bp_parse_ids(&t, "7-9", &ids, &n, &cause) == -1,
	    "bp: a range with none");
	free(cause);
	cause = NULL;
	ok(bp_parse_ids(&t, "1x", &ids, &n, &cause) == -1 &&
	    strstr(cause, "bad breakpoint numbers") != NULL, "bp: junk");
	free(cause);
	cause = NULL;

	b = bp_find(&t, 1);
	ok(bp_set_condition(b, "TOS == 5", &cause) == 0 && b->cond != NULL &&
	    strcmp(b->cond_text, "TOS == 5") == 0, "bp: set a condition");
	ok(bp_set_condition(b, "TOS ==", &cause) == -1 && b->cond != NULL,
	    "bp: a bad condition keeps the old one");
	free(cause);
	cause = NULL;
	ok(bp_set_condition(b, "", &cause) == 0 && b->cond == NULL &&
	    b->cond_text == NULL, "bp: an empty condition removes it");

	/* a breakpoint with several locations: N.M */
	b = bp_find(&t, 5);
	b->nlocs = 2;
	b->locs = xcalloc(2, sizeof *b->locs);
	b->locs[0].pc = 0x10;
	b->locs[1].pc = 0xc6;
	is_int(bp_loc_at(b, 0, 0xc6), 1, "bp: the location at a PC");
	is_int(bp_loc_at(b, 1, 0xc6), 2, "bp: ... in its program only");
	ok(bp_enable_loc(&t, "5.2", 0, &cause) == 0 && b->locs[1].disabled &&
	    !b->locs[0].disabled && b->enabled, "bp: disable 5.2 only");
	ok(bp_enable_loc(&t, "5.2", 1, &cause) == 0 && !b->locs[1].disabled,
	    "bp: enable 5.2");
	ok(bp_enable_loc(&t, "5.3", 0, &cause) == -1, "bp: no location 3");
	is_str(cause, "breakpoint 5 has no location 3 (it has 2: info break "
	    "lists them)", "bp: ... says how many it has");
	free(cause);
	cause = NULL;
	ok(bp_enable_loc(&t, "5.", 0, &cause) == -1 &&
	    strstr(cause, "write N.M") != NULL, "bp: 5. is not a location");
	free(cause);
	cause = NULL;
	ok(bp_enable_loc(&t, "3.1", 0, &cause) == -1 &&
	    strstr(cause, "no breakpoint number 3") != NULL,
	    "bp: a deleted breakpoint has no locations");
	free(cause);
	cause = NULL;
	b = bp_find(&t, 5);
	b->hits = 0;
	b->ignore = 1;
	ok(hit_count(b, 0) == 0 && hit_count(b, 0) == 1 && b->hits == 2,
	    "bp: ignore and the hit count count the same stops");
	bp_table_free(&t);
}

/* --- debug names ---------------------------------------------------------- */

static const char names_src[] =
".constant\nOBJREF 0xCAFE\n.end-constant\n"
".global\ntotal   // the sum\ncount other\n.end-global\n"
".main\n.var\nme\nn   // a comment with .var in it\n.end-var\n"
"  #print \"// not a comment\"\n  HALT\n.end-main\n"
".method add(x, y)\n.var\nr\n.end-var\n  ILOAD x\n  IRETURN\n.end-method\n";

static int
assemble(const char *src, struct program *p)
{
	struct asm_errors errs = { 0 };
	int rc = asm_assemble("t.jas", src, strlen(src), NULL, p, &errs);

	for (size_t i = 0; i < errs.count; i++)
		tap_diag("%s", errs.msg[i]);
	asm_errors_free(&errs);
	return rc;
}

static void
test_dsym(void)
{
	struct program p;
	struct dsym d;
	const struct dsym_method *m;

	if (!ok(assemble(names_src, &p) == 0, "dsym: source assembles"))
		return;
	dsym_load(&d, &p);
	is_int(d.nglobals, 3, "dsym: three globals");
	is_int(dsym_global(&d, "other"), 2, "dsym: globals numbered in order");
	is_int(dsym_global(&d, "nosuch"), -1, "dsym: unknown global");
	m = dsym_method(&d, "main");
	ok(m != NULL && m->nlocals == 2, "dsym: main has two locals");
	is_int(dsym_local(m, "n"), 1, "dsym: main's locals start at 0");
	m = dsym_method(&d, "add");
	ok(m != NULL && m->nparams == 2 && m->nlocals == 4,
	    "dsym: add has OBJREF, x, y, r");
	is_int(dsym_local(m, "x"), 1, "dsym: parameters start at 1");
	is_int(dsym_local(m, "r"), 3, "dsym: vars follow the parameters");
	ok(dsym_local_name(m, 0) == NULL, "dsym: local 0 (link) has no name");
	dsym_free(&d);
	program_free(&p);
}

/* --- a session over the reference engine ---------------------------------- */

static const char loop_src[] =
".global\ntotal\n.end-global\n"
".main\n.var\ni\n.end-var\n"
"        BIPUSH 0\n"
"        ISTORE i\n"
"loop:   ILOAD i\n"                 /* line 10 */
"        BIPUSH 3\n"
"        IF_ICMPEQ done\n"
"        COREID\n"
"        ATOMICADD total\n"
"        POP\n"
"        IINC i 1\n"
"        GOTO loop\n"
"done:   HALT\n"
".end-main\n";

static int
make_ref(void *arg, struct engine *e, struct machine *m, char **cause)
{
	(void)arg;
	return engine_ref_create(e, m, cause);
}

struct tsess {
	struct program		 prog;
	const struct program	*progs[1];
	struct session		*s;
	struct buf		 out;
};

static int
tsess_open(struct tsess *t, const char *src, uint32_t ncores, int repeat)
{
	struct session_config cfg;
	char *cause = NULL;

	memset(t, 0, sizeof *t);
	if (assemble(src, &t->prog) != 0)
		return -1;
	t->progs[0] = &t->prog;
	memset(&cfg, 0, sizeof cfg);
	cfg.machine.ncores = ncores;
	cfg.machine.stack_words = 256;
	cfg.machine.heap_words = 256;
	cfg.machine.warp_width = 4;
	cfg.progs = t->progs;
	cfg.nprogs = 1;
	cfg.make_engine = make_ref;
	cfg.repeat = repeat;
	if (session_create(&t->s, &cfg, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		program_free(&t->prog);
		return -1;
	}
	return 0;
}

static void
tsess_close(struct tsess *t)
{
	session_free(t->s);
	program_free(&t->prog);
	buf_free(&t->out);
}

/* Run a command to its stop; the output as a string (static buffer of t),
 * or the error prefixed with "error: ". */
static const char *
cmd(struct tsess *t, const char *line)
{
	char *cause = NULL;
	int rc;

	t->out.len = 0;
	rc = session_execute(t->s, line, &t->out, &cause);
	if (rc == 0 && session_running(t->s))
		rc = session_wait(t->s, &t->out, &cause);
	if (rc == -1) {
		t->out.len = 0;
		buf_printf(&t->out, "error: %s", cause);
		free(cause);
	}
	buf_put_u8(&t->out, 0);
	t->out.len--;
	return (const char *)t->out.data;
}

static int
has(const char *text, const char *part)
{
	if (strstr(text, part) != NULL)
		return 1;
	tap_diag("in: %s", text);
	return 0;
}

static void
test_session(void)
{
	struct tsess t;
	const char *o;

	if (!ok(tsess_open(&t, loop_src, 8, 0) == 0, "session: created"))
		return;
	is_str(session_prompt(t.s), "(micdb core 0 warp 0 lane 0)",
	    "session: prompt shows the focus");
	o = cmd(&t, "break loop core 4-7");
	ok(has(o, "breakpoint 1 at 0x0004 (loop, t.jas:10) on cores 4-7"),
	    "session: break on a label for a core set");
	o = cmd(&t, "continue");
	ok(has(o, "breakpoint 1 hit by cores 4-7 [4 of 8] at 0x0004 "
	    "(loop, t.jas:10)"), "session: every hit core is named");
	ok(has(o, "[switching focus to core 4, warp 1 lane 0]"),
	    "session: focus moves to a hit core");
	is_str(session_prompt(t.s), "(micdb core 4 warp 1 lane 0)",
	    "session: the prompt follows");
	o = cmd(&t, "print i");
	is_str(o, "$1 = 0\n", "session: print a local by name");
	o = cmd(&t, "condition 1 $core % 2 == 1 && i == 2");
	is_str(o, "", "session: condition set silently");
	o = cmd(&t, "continue");
	ok(has(o, "breakpoint 1 hit by cores 5, 7 [2 of 8]"),
	    "session: conditions are per core");
	o = cmd(&t, "print i + $core");
	is_str(o, "$2 = 7\n", "session: the hit core's locals");
	o = cmd(&t, "info break");
	ok(has(o, "stop only if $core % 2 == 1 && i == 2") &&
	    has(o, "breakpoint already hit 2 times"),
	    "session: hits count steps with a core whose condition held");
	o = cmd(&t, "condition 1 nosuch == 1");
	ok(has(o, "error: no local, global or register 'nosuch'"),
	    "session: names in a condition are checked when set");
	o = cmd(&t, "condition 1");
	is_str(o, "breakpoint 1 now unconditional\n",
	    "session: remove a condition");
	o = cmd(&t, "ignore 1 1");
	is_str(o, "will ignore next 1 crossings of breakpoint 1\n",
	    "session: ignore count");
	o = cmd(&t, "continue");
	ok(has(o, "all cores halted"),
	    "session: the last crossing was ignored, the run ends");
	o = cmd(&t, "print total");
	is_str(o, "$3 = 84\n", "session: print a global by name (3 x 28)");
	o = cmd(&t, "continue");
	ok(has(o, "error: no core can run"), "session: nothing to continue");
	o = cmd(&t, "run");
	ok(has(o, "starting again") && has(o, "breakpoint 1 hit by cores 4-7"),
	    "session: run restarts and stops at the breakpoint");
	o = cmd(&t, "delete 1");
	o = cmd(&t, "tbreak done");
	ok(has(o, "temporary breakpoint 2 at 0x0016 (done, t.jas:18)"),
	    "session: tbreak");
	o = cmd(&t, "watch total");
	is_str(o, "watchpoint 3: global total = 0\n", "session: watch a global");
	o = cmd(&t, "continue");
	ok(has(o, "watchpoint 3: global total changed by cores 0-7 [8 of 8]") &&
	    has(o, "old value = 0\n  new value = 28\n"),
	    "session: watchpoint names every writer");
	o = cmd(&t, "delete 3");
	o = cmd(&t, "continue");
	ok(has(o, "temporary breakpoint 2 hit by cores 0-7"),
	    "session: tbreak stops");
	o = cmd(&t, "info break");
	is_str(o, "no breakpoints or watchpoints\n",
	    "session: the tbreak is gone");
	o = cmd(&t, "core 9");
	is_str(o, "error: core 9 is out of range: the machine has 8 cores "
	    "(0-7)", "session: focus out of range");
	o = cmd(&t, "warp 1 lane 2");
	ok(has(o, "core 6 at 0x0016 (done, t.jas:18): HALT"),
	    "session: warp W lane L");
	o = cmd(&t, "set var i = 11");
	o = cmd(&t, "p/x i");
	is_str(o, "$4 = 0xb\n", "session: set var, then print/x");
	o = cmd(&t, "frobnicate");
	ok(has(o, "error: unknown command 'frobnicate'"),
	    "session: an unknown command is an error, not the end");
	o = cmd(&t, "set level pdp11");
	is_str(o, "error: unknown level 'pdp11' (use isa, mic or pmic)",
	    "session: set level takes a level name");
	ok(session_execute(t.s, "quit", &t.out, NULL) == SESSION_QUIT,
	    "session: quit");
	tsess_close(&t);
}

/* An empty line repeats the last command when the front end asks for
 * it (the TUI), except commands like run; in batch it does nothing. */
static void
test_repeat(void)
{
	struct tsess t;
	const char *o;

	if (!ok(tsess_open(&t, loop_src, 1, 1) == 0, "repeat: created"))
		return;
	o = cmd(&t, "step 2");
	ok(has(o, "core 0 at 0x0004 (loop, t.jas:10)"), "repeat: step 2");
	o = cmd(&t, "");
	ok(has(o, "core 0 at 0x0008 (loop+4, t.jas:12)"),
	    "repeat: an empty line steps 2 again");
	o = cmd(&t, "   ");
	ok(has(o, "core 0 at 0x000c (loop+8, t.jas:14)"),
	    "repeat: blanks are an empty line");
	/* gdb: after x and list an empty line goes on where they ended */
	o = cmd(&t, "x/1xb 0");
	ok(has(o, "0x0000 <main>:"), "repeat: x/1xb 0");
	o = cmd(&t, "");
	ok(has(o, "0x0001 <main+1>:"), "repeat: Enter after x reads on");
	o = cmd(&t, "list loop");
	o = cmd(&t, "");
	ok(has(o, "0x0016  done:") && !has(o, "loop:"),
	    "repeat: Enter after list lists on");
	/* a display shown by the command is not a typed x: Enter runs the
	 * command again, not x */
	o = cmd(&t, "display/i $pc");
	o = cmd(&t, "");
	ok(has(o, "x/i $pc"), "repeat: Enter after display/i is display");
	o = cmd(&t, "quit");
	o = cmd(&t, "");
	is_str(o, "", "repeat: quit is not repeated");
	tsess_close(&t);
	if (!ok(tsess_open(&t, loop_src, 1, 0) == 0, "repeat: batch session"))
		return;
	o = cmd(&t, "step");
	o = cmd(&t, "");
	is_str(o, "", "repeat: off in batch");
	tsess_close(&t);
}

/* --- the session API of the panes ----------------------------------------- */

static const char call_src[] =
".constant\nOBJREF 0xCAFE\n.end-constant\n"
".main\n.var\nr\n.end-var\n"
"        LDC_W OBJREF\n"
"        BIPUSH 2\n"
"        BIPUSH 3\n"
"        INVOKEVIRTUAL add\n"
"        ISTORE r\n"
"        HALT\n"
".end-main\n"
".method add(x, y)\n.var\nt\n.end-var\n"
"inside: ILOAD x\n"
"        ILOAD y\n"
"        IADD\n"
"        IRETURN\n"
".end-method\n";

static void
test_api(void)
{
	struct tsess t;
	const struct session_bp *bps;
	struct session_frame *f;
	const struct microcode *mc;
	size_t n, nf;
	char *cause = NULL;
	const char *o;

	if (!ok(tsess_open(&t, call_src, 2, 0) == 0, "api: created"))
		return;
	ok(session_level(t.s) == LEVEL_ISA, "api: starts at the ISA level");
	ok(session_microcode(t.s, LEVEL_MIC) == NULL &&
	    session_level_state(t.s) == NULL,
	    "api: no microprogram before the micro level is used");
	o = cmd(&t, "break inside");
	o = cmd(&t, "break mpc iadd1 core 1");
	ok(has(o, "breakpoint 2 at MPC 0x") && has(o, "(iadd1, mic1.mal:") &&
	    has(o, "on core 1") && has(o, "take effect at the micro level"),
	    "api: break mpc at the ISA level says when it applies");
	n = session_breakpoints(t.s, &bps);
	ok(n == 2 && bps[0].id == 1 && !bps[0].on_mpc &&
	    strcmp(bps[0].label, "inside") == 0 && bps[0].cores == NULL &&
	    bps[0].ncores_set == 2, "api: a PC breakpoint as data");
	ok(n == 2 && bps[1].id == 2 && bps[1].on_mpc &&
	    bps[1].label != NULL && strcmp(bps[1].label, "iadd1") == 0 &&
	    bps[1].cores != NULL && bps[1].cores[1] && !bps[1].cores[0] &&
	    bps[1].ncores_set == 1, "api: an MPC breakpoint as data");
	mc = session_microcode(t.s, LEVEL_MIC);
	ok(mc != NULL && mc->loaded && n == 2 &&
	    mc->cs.present[bps[1].addr],
	    "api: the microprogram was loaded to resolve the label");
	o = cmd(&t, "continue");
	ok(has(o, "breakpoint 1 hit by cores 0-1"), "api: stopped in add");
	ok(session_frames(t.s, 0, &f, &nf, &cause) == 0 && nf == 2,
	    "api: two frames");
	ok(nf == 2 && f[0].method != NULL && strcmp(f[0].method, "add") == 0 &&
	    f[0].nparams == 2 && f[0].nlocals == 4 &&
	    f[0].locals[1].name != NULL &&
	    strcmp(f[0].locals[1].name, "x") == 0 &&
	    f[0].locals[1].value == 2 && f[0].locals[2].value == 3 &&
	    f[0].saved_pc > 0 && f[0].saved_lv == MM_STACK_BASE &&
	    f[0].note == NULL, "api: the method's frame, names and values");
	ok(nf == 2 && f[1].method != NULL &&
	    strcmp(f[1].method, "main") == 0 && f[1].link == -1 &&
	    f[1].pc == f[0].saved_pc, "api: main's frame is the caller");
	session_frames_free(f, nf);
	/* the selected frame: what print reads, what the pane highlights */
	is_int(session_selected_frame(t.s), 0, "api: frame 0 after a stop");
	o = cmd(&t, "print x");
	is_str(o, "$1 = 2\n", "api: print reads the innermost frame");
	o = cmd(&t, "up");
	ok(has(o, "#1  0x") && has(o, " in main () at t.jas:"),
	    "api: up shows the caller as gdb does");
	is_int(session_selected_frame(t.s), 1, "api: ... and selects it");
	o = cmd(&t, "print r + 1");
	is_str(o, "$2 = 1\n", "api: print reads the selected frame's locals");
	o = cmd(&t, "print x");
	ok(has(o, "error: no local, global or register 'x'"),
	    "api: ... and not the callee's");
	o = cmd(&t, "core 1");
	is_int(session_selected_frame(t.s), 0,
	    "api: a change of focus selects frame 0");
	o = cmd(&t, "frame 1");
	o = cmd(&t, "core 0");
	o = cmd(&t, "down");
	ok(has(o, "error: bottom (innermost) frame selected"),
	    "api: down at frame 0");
	ok(session_frames(t.s, 7, &f, &nf, &cause) == -1 &&
	    strstr(cause, "out of range") != NULL, "api: frames of no core");
	free(cause);
	cause = NULL;
	ok(session_set_level(t.s, LEVEL_MIC, 0, &cause) == 0 &&
	    session_level(t.s) == LEVEL_MIC, "api: ISA -> mic");
	ok(session_level_state(t.s) != NULL,
	    "api: the Mic-1 state for the datapath pane");
	ok(session_engine(t.s) != NULL &&
	    session_engine(t.s)->ops->level == LEVEL_MIC,
	    "api: the engine is the Mic-1 one");
	is_int(session_cores_inside(t.s), 0, "api: at the boundary after the "
	    "switch");
	o = cmd(&t, "stepi");
	is_int(session_cores_inside(t.s), 2, "api: a micro-step later both "
	    "cores are inside an instruction");
	ok(session_set_level(t.s, LEVEL_ISA, 0, &cause) == -1 &&
	    cause != NULL && strstr(cause, "2 cores are inside an "
	    "instruction") != NULL && session_level(t.s) == LEVEL_MIC,
	    "api: mic -> ISA refused mid-instruction without to_boundary");
	free(cause);
	cause = NULL;
	o = cmd(&t, "continue");
	ok(has(o, "breakpoint 2 hit by core 1 [1 of 2] at MPC 0x") &&
	    has(o, "core 1 at MPC"),
	    "api: the MPC breakpoint stops only its core set");
	ok(session_set_level(t.s, LEVEL_ISA, 1, &cause) == 0 &&
	    session_level(t.s) == LEVEL_ISA && session_level_state(t.s) == NULL,
	    "api: mic -> ISA with to_boundary");
	o = cmd(&t, "info registers 1");
	ok(has(o, "PC   0x") && has(o, "(inside+5,"),
	    "api: core 1 ran to the boundary after IADD");
	o = cmd(&t, "continue");
	ok(has(o, "all cores halted"), "api: an MPC breakpoint does not stop "
	    "the ISA level");
	o = cmd(&t, "print r");
	is_str(o, "$3 = 5\n", "api: the result");
	tsess_close(&t);
}

/* --- switching levels (doc/mic1.md section 5) ------------------------------- */

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

/* Per-core console output, as the session hands it out. */
struct outs {
	struct buf	*core;
	uint32_t	 n;
	unsigned	 levels;     /* bit per level the run reached */
	unsigned	 failed;     /* switches that failed */
};

static void
collect(void *arg, uint32_t core, const uint8_t *data, size_t len)
{
	struct outs *o = arg;

	if (core < o->n)
		buf_put(&o->core[core], data, len);
}

/* The final state a switch must not change: what doc/mic1.md section 2
 * compares (memory, PC, SP, LV, status) and the output. */
struct final {
	struct machine	*m;
	struct outs	 out;
};

static uint32_t
rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (uint32_t)(*x >> 11);
}

static int
exec_wait(struct session *s, const char *line, struct buf *b, char **cause)
{
	int rc = session_execute(s, line, b, cause);

	if (rc == 0 && session_running(s))
		rc = session_wait(s, b, cause);
	return rc;
}

static int
can_run(const struct machine *m)
{
	for (uint32_t c = 0; c < m->cfg.ncores; c++)
		if (m->cores[c].status == CORE_RUNNING ||
		    m->cores[c].status == CORE_WAITING)
			return 1;
	return 0;
}

/*
 * Run prog on ncores to its end.  seed 0: at the ISA level only;
 * otherwise from a random level, with random stepping (step, stepi)
 * and switches to random levels in between, both through set level and
 * through session_set_level.  Returns the session (the
 * caller compares and frees), NULL on failure.
 */
static struct session *
run_switching(const struct program **progs, uint32_t ncores,
    const char *input, uint64_t seed, struct outs *out, unsigned *switches)
{
	struct session_config cfg;
	struct session *s;
	struct buf b = { 0 };
	char *cause = NULL, line[64];
	uint64_t x = seed;
	int rounds = 0;

	memset(&cfg, 0, sizeof cfg);
	cfg.machine.ncores = ncores;
	cfg.machine.stack_words = 1024;
	cfg.machine.heap_words = 4096;
	cfg.machine.warp_width = 8;
	cfg.progs = progs;
	cfg.nprogs = 1;
	cfg.engine = ENGINE_REF;
	cfg.level = seed != 0 ? (enum level)(rng(&x) % NLEVEL) : LEVEL_ISA;
	cfg.output = collect;
	cfg.output_arg = out;
	cfg.input = (const uint8_t *)input;
	cfg.input_len = input ? strlen(input) : 0;
	out->n = ncores;
	out->core = xcalloc(ncores, sizeof *out->core);
	*switches = 0;
	if (session_create(&s, &cfg, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		return NULL;
	}
	while (can_run(session_machine(s)) && rounds++ < 100000) {
		uint32_t r = seed ? rng(&x) : 0;
		int rc = 0;

		b.len = 0;
		if (seed == 0) {
			rc = exec_wait(s, "continue", &b, &cause);
		} else if (r % 4 == 0) {
			/* to one of the two other levels */
			enum level to = (enum level)((session_level(s) + 1 +
			    rng(&x) % (NLEVEL - 1)) % NLEVEL);

			/* half through the command, half through the API
			 * (which runs mid-instruction cores on as well) */
			if (r % 8 == 0) {
				snprintf(line, sizeof line, "set level %s",
				    level_name(to));
				rc = exec_wait(s, line, &b, &cause);
			} else
				rc = session_set_level(s, to, 1, &cause);
			(*switches)++;
			if (rc != 0) {
				tap_diag("seed %llu: set level %s: %s",
				    (unsigned long long)seed, level_name(to),
				    cause);
				out->failed++;
			}
			out->levels |= 1u << session_level(s);
		} else if (r % 4 == 1) {
			snprintf(line, sizeof line, "stepi %u",
			    1 + rng(&x) % 97);
			rc = exec_wait(s, line, &b, &cause);
		} else {
			snprintf(line, sizeof line, "step %u", 1 + rng(&x) % 13);
			rc = exec_wait(s, line, &b, &cause);
		}
		if (rc != 0) {
			/* a step whose focused core has halted is refused at
			 * a micro level: move on with continue */
			free(cause);
			cause = NULL;
			b.len = 0;
			if (exec_wait(s, "continue", &b, &cause) != 0) {
				tap_diag("seed %llu: %s",
				    (unsigned long long)seed, cause);
				free(cause);
				cause = NULL;
				break;
			}
		}
	}
	buf_free(&b);
	return s;
}

static int
same_final(struct session *a, struct outs *oa, struct session *b,
    struct outs *ob, const char *name, uint64_t seed)
{
	const struct machine *ma = session_machine(a), *mb = session_machine(b);
	uint32_t n = ma->cfg.ncores;

	for (uint32_t c = 0; c < n; c++) {
		const struct core *x = &ma->cores[c], *y = &mb->cores[c];

		/* a fault stops a micro-level core inside its instruction
		 * (SP may have moved): compare where and why it faulted */
		if (x->status != y->status || x->fault != y->fault ||
		    (x->status == CORE_ERROR ? x->fault_pc != y->fault_pc :
		    x->sp != y->sp || x->lv != y->lv || x->pc != y->pc)) {
			tap_diag("%s seed %llu: core %u differs: status %d/%d pc "
			    "%d/%d sp %d/%d lv %d/%d", name,
			    (unsigned long long)seed, c, x->status, y->status,
			    x->pc, y->pc, x->sp, y->sp, x->lv, y->lv);
			return 0;
		}
		if (oa->core[c].len != ob->core[c].len ||
		    (oa->core[c].len > 0 && memcmp(oa->core[c].data,
		    ob->core[c].data, oa->core[c].len) != 0)) {
			tap_diag("%s seed %llu: core %u's output differs", name,
			    (unsigned long long)seed, c);
			return 0;
		}
		for (int32_t w = 0; x->status != CORE_ERROR &&
		    w <= x->sp - MM_STACK_BASE; w++)
			if (ma->stacks[(size_t)c * ma->cfg.stack_words + w] !=
			    mb->stacks[(size_t)c * mb->cfg.stack_words + w]) {
				tap_diag("%s seed %llu: core %u stack word %d "
				    "differs", name, (unsigned long long)seed,
				    c, w);
				return 0;
			}
	}
	if (memcmp(ma->globals, mb->globals, MM_GLOBALS_WORDS *
	    sizeof *ma->globals) != 0 || ma->heap_top != mb->heap_top ||
	    memcmp(ma->heap, mb->heap, ma->cfg.heap_words *
	    sizeof *ma->heap) != 0) {
		tap_diag("%s seed %llu: globals or heap differ", name,
		    (unsigned long long)seed);
		return 0;
	}
	return 1;
}

static void
outs_free(struct outs *o)
{
	for (uint32_t c = 0; c < o->n; c++)
		buf_free(&o->core[c]);
	free(o->core);
	memset(o, 0, sizeof *o);
}

/* Every sample program, switched at random points between the ISA,
 * Mic-1 and PMIC levels, ends exactly as a run that never switches. */
static void
test_level_switch(void)
{
	static const struct {
		const char	*name;
		uint32_t	 ncores;
		const char	*input;
	} samples[] = {
		{ "hello", 1, NULL }, { "fib", 1, NULL },
		{ "factorial", 1, NULL }, { "recsum", 1, NULL },
		{ "gcd", 1, NULL }, { "sieve", 1, NULL }, { "wide", 1, NULL },
		{ "bubble", 1, NULL }, { "decimal", 1, NULL },
		{ "multiply", 1, NULL }, { "echo", 1, "IJVM echo test.\n" },
		{ "reverse", 1, "stressed\n" }, { "parsum", 8, NULL },
		{ "matmul", 8, NULL }, { "workqueue", 8, NULL },
		{ "collatz", 32, NULL },
	};
	const int seeds = 6;

	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
		struct program p;
		const struct program *progs[1] = { &p };
		char *path = xasprintf("%s/programs/%s.jas", MICDB_SRCDIR,
		    samples[i].name), *cause = NULL;
		struct outs ref = { 0 };
		struct session *r;
		unsigned sw, total = 0, levels = 0;
		int good = 1;

		if (program_load_file(&p, path, &cause) != 0) {
			ok(0, "switch: %s loads (%s)", samples[i].name, cause);
			free(cause);
			free(path);
			continue;
		}
		free(path);
		r = run_switching(progs, samples[i].ncores, samples[i].input,
		    0, &ref, &sw);
		for (int k = 1; r != NULL && k <= seeds; k++) {
			uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)k +
			    i;
			struct outs o = { 0 };
			struct session *t = run_switching(progs,
			    samples[i].ncores, samples[i].input, seed, &o, &sw);

			total += sw;
			good &= t != NULL && o.failed == 0 && same_final(r,
			    &ref, t, &o, samples[i].name, seed);
			levels |= o.levels;
			session_free(t);
			outs_free(&o);
		}
		ok(r != NULL && good && total > 0 && levels == 7,
		    "switch: %s on %u core%s: "
		    "%d runs with random switches among isa, mic and pmic (%u in "
		    "all) end as the unswitched run", samples[i].name, samples[i].ncores,
		    samples[i].ncores == 1 ? "" : "s", seeds, total);
		session_free(r);
		outs_free(&ref);
		program_free(&p);
	}
}

/* The divergence sample at every stop splits its pass over host
 * threads at large core counts (par.h): at 262,144 cores of scattered
 * PCs, MPCs and statuses it must add up to what a walk warp by warp
 * with div_warp gives, by PC and by MPC. */
static void
test_div(void)
{
	char *path = xasprintf("%s/programs/collatz.jas", MICDB_SRCDIR);
	struct machine_config cfg = { 1u << 18, 16, 64, 32 };
	struct program p;
	const struct program *progs[1] = { &p };
	struct machine m;
	char *cause = NULL;
	uint32_t seed = 777;

	if (program_load_file(&p, path, &cause) != 0 ||
	    machine_init(&m, &cfg, progs, 1, NULL, &cause) != 0) {
		ok(0, "a machine of 262,144 cores: %s", cause);
		free(cause);
		free(path);
		return;
	}
	for (uint32_t i = 0; i < cfg.ncores; i++) {
		seed = seed * 1103515245u + 12345u;
		m.cores[i].pc = (int32_t)((seed >> 16) % 6);
		m.cores[i].mpc = (uint16_t)((seed >> 4) % 3);
		if ((seed >> 8) % 40 == 0)
			m.cores[i].status = CORE_HALTED;
	}
	for (int by_mpc = 0; by_mpc <= 1; by_mpc++) {
		struct div_acc d, ref;
		struct warp_view v;
		int same;

		div_init(&d, cfg.warp_width);
		div_init(&ref, cfg.warp_width);
		div_sample(&d, &m, by_mpc);
		div_sample(&d, &m, by_mpc);
		for (int k = 0; k < 2; k++) {
			ref.samples++;
			for (uint32_t w = 0; w < machine_nwarps(&m); w++) {
				div_warp(&m, w, by_mpc, &v);
				ref.active += v.nactive;
				ref.paths += v.npaths;
				for (uint32_t j = 0; j < v.npaths; j++)
					ref.hist[v.count[j]]++;
			}
		}
		same = d.samples == 2 && d.active == ref.active &&
		    d.paths == ref.paths && memcmp(d.hist, ref.hist,
		    (cfg.warp_width + 1) * sizeof *d.hist) == 0;
		ok(same && ref.paths > 2 * machine_nwarps(&m),
		    "divergence sample of 262,144 cores by %s: the same as "
		    "warp by warp", by_mpc ? "MPC" : "PC");
		div_free(&d);
		div_free(&ref);
	}
	machine_free(&m);
	program_free(&p);
	free(path);
}

/* "A-B" ranges (util.c's parse_range, under --cores' sets and the
 * breakpoint number lists): the edges of what is a range. */
static void
test_range(void)
{
	static const struct {
		const char *text;
		unsigned long max;
		int rc;
		unsigned long a, b;
		size_t used;      /* characters taken */
	} cases[] = {
		{ "7", 100, 0, 7, 7, 1 },
		{ "0-0", 100, 0, 0, 0, 3 },
		{ "3-5,8", 100, 0, 3, 5, 3 },
		{ "3-5 x", 100, 0, 3, 5, 3 },
		{ "100", 100, 0, 100, 100, 3 },
		{ "101", 100, -3, 0, 0, 0 },
		{ "5-101", 100, -3, 0, 0, 0 },
		{ "5-3", 100, -2, 0, 0, 0 },
		{ "5-", 100, -1, 0, 0, 0 },
		{ "-5", 100, -1, 0, 0, 0 },
		{ "+5", 100, -1, 0, 0, 0 },
		{ " 5", 100, -1, 0, 0, 0 },
		{ "5--6", 100, -1, 0, 0, 0 },
		{ "", 100, -1, 0, 0, 0 },
		{ "4294967295", UINT32_MAX, 0, UINT32_MAX, UINT32_MAX, 10 },
		{ "4294967295", 4294967294ul, -3, 0, 0, 0 },
		{ "0-4294967296", UINT32_MAX, -3, 0, 0, 0 },
		{ "99999999999999999999999", UINT32_MAX, -3, 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *p = cases[i].text;
		unsigned long a = 0, b = 0;
		int rc = parse_range(&p, cases[i].max, &a, &b);

		ok(rc == cases[i].rc && (size_t)(p - cases[i].text) ==
		    cases[i].used && (rc != 0 || (a == cases[i].a &&
		    b == cases[i].b)), "range '%s' up to %lu: %s", cases[i].text,
		    cases[i].max, cases[i].rc == 0 ? "taken" :
		    cases[i].rc == -1 ? "not a range" : cases[i].rc == -2 ?
		    "reversed" : "above the largest");
	}
}

/* --- the default engine's rule (levels.h) ---------------------------------- */

/* The CPU side's definition, which level_engine_crossover's closed form
 * must agree with: native on min(t, n / 16) threads (AHEAD_PAR_ITEMS)
 * against units of 1 / ratio of a thread, min(units, n / group). */
static int
rule_native(uint32_t ratio, uint32_t t, uint32_t n,
    const struct level_device *d)
{
	uint64_t th = (n + 15) / 16, un = (n + d->group - 1) / d->group;

	th = th < t ? th : t;
	un = un < d->units ? un : d->units;
	return ratio * th >= un;
}

static void
test_engine_rule(void)
{
	static const struct level_device xeon = { 1, 1, 16, 32, 0 },
	    epyc = { 1, 1, 2, 32, 0 }, h200 = { 1, 0, 132, 128, 0 },
	    none = { 0, 0, 0, 0, 0 }, xeon_tr = { 1, 1, 16, 32, 1 },
	    big_tr = { 1, 1, 64, 32, 1 }, h200_tr = { 1, 0, 132, 128, 1 };
	static const enum level lv[] = { LEVEL_ISA, LEVEL_MIC, LEVEL_PMIC };
	int agree = 1;

	/* a CPU device: the closed form is the definition's first loss */
	for (size_t l = 0; l < 3; l++)
		for (uint32_t t = 1; t <= 20; t++)
			for (int k = 0; k < 2; k++) {
				const struct level_device *d = k ? &big_tr :
				    &xeon;
				uint32_t x = level_engine_crossover(lv[l], t, d);

				for (uint32_t n = 1; n <= 4096; n++)
					agree &= rule_native(LEVEL_CPU_RATIO(
					    lv[l], d->translated), t, n, d) ==
					    (n < x);
			}
	ok(agree, "engine rule: a CPU device's crossover is where its full "
	    "units first outweigh the threads");
	ok(level_engine_crossover(LEVEL_ISA, 16, &xeon) == UINT32_MAX &&
	    level_engine_crossover(LEVEL_MIC, 16, &xeon) == UINT32_MAX &&
	    level_engine_crossover(LEVEL_PMIC, 2, &epyc) == UINT32_MAX &&
	    level_engine_crossover(LEVEL_ISA, 1, &epyc) == UINT32_MAX,
	    "engine rule: native at every count with the CPU's own threads");
	ok(level_engine_crossover(LEVEL_ISA, 1, &xeon) < 4096 &&
	    level_engine_crossover(LEVEL_MIC, 4, &xeon) < 4096 &&
	    level_engine_crossover(LEVEL_ISA, 4, &xeon) == UINT32_MAX,
	    "engine rule: POCL where its units outnumber the threads");
	ok(level_engine_crossover(LEVEL_ISA, 1, &xeon_tr) == UINT32_MAX &&
	    level_engine_crossover(LEVEL_MIC, 1, &xeon_tr) == UINT32_MAX &&
	    level_engine_crossover(LEVEL_PMIC, 1, &xeon_tr) == UINT32_MAX &&
	    level_engine_crossover(LEVEL_MIC, 2, &big_tr) < 4096 &&
	    level_engine_crossover(LEVEL_ISA, 2, &big_tr) == UINT32_MAX,
	    "engine rule: translated native engines, many times faster a "
	    "thread, keep even one thread ahead of 16 POCL units");
	ok(level_engine_crossover(LEVEL_ISA, 16, &h200) ==
	    16 * LEVEL_GPU_LANES(LEVEL_ISA, 0) &&
	    level_engine_crossover(LEVEL_MIC, 1, &h200) ==
	    LEVEL_GPU_LANES(LEVEL_MIC, 0) &&
	    level_engine_crossover(LEVEL_PMIC, 0, &none) ==
	    LEVEL_GPU_LANES(LEVEL_PMIC, 0) &&
	    level_engine_crossover(LEVEL_ISA, 16, &h200_tr) == 2048 &&
	    level_engine_crossover(LEVEL_MIC, 16, &h200_tr) == 4096,
	    "engine rule: a GPU (or none) from lanes x threads cores");
	ok(level_engine_crossover(LEVEL_ISA, UINT32_MAX, &h200) ==
	    UINT32_MAX, "engine rule: a crossover past 2^32 cores is never");
	ok(level_engine_choose(LEVEL_MIC, ENGINE_REF, 1u << 20, 1, NULL) ==
	    ENGINE_REF && level_engine_choose(LEVEL_ISA, ENGINE_DEFAULT,
	    1u << 20, 1, NULL) == level_engine_kind(LEVEL_ISA,
	    ENGINE_DEFAULT) && level_engine_choose(LEVEL_ISA,
	    ENGINE_DEFAULT, 1, 1, NULL) == ENGINE_NATIVE,
	    "engine rule: a named engine stays; one core runs natively");
}

int
main(void)
{
	test_range();
	test_coreset();
	test_cmd_find();
	test_bp_table();
	test_dsym();
	test_session();
	test_repeat();
	test_api();
	test_level_switch();
	test_div();
	test_engine_rule();
	return done_testing();
}
