/*
 * The inspection requests of the DAP front end: stackTrace, scopes,
 * variables, setVariable, evaluate, disassemble, readMemory and
 * writeMemory.  What is read comes from the session's views (frames,
 * machine, microprogram); what is written or evaluated goes through
 * micdb's commands (set var, print), on the frame's core made the focus
 * first, so that values, names and messages are micdb's.
 *
 * Frames: at the ISA level a core's frames are session_frames'; at a
 * micro level frame 0 is the micro-instruction at MPC (its .mal or .pm
 * line) and the ISA frames follow.  Scopes of a frame: Locals, Operand
 * stack, Registers (with MIR at the Mic-1 level, G0/G1 at the PMIC
 * level) and Globals.
 *
 * Memory references are micdb's word addresses ("0x8000"): readMemory's
 * bytes are those words, four big-endian bytes each, as IJVM stores
 * them.  writeMemory writes whole words, to globals and to the focused
 * core's current locals (set var can name those), else it is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "dap-int.h"
#include "dis.h"
#include "loc.h"
#include "mal.h"
#include "memmap.h"
#include "mic1.h"
#include "microcode.h"
#include "pmic.h"
#include "regs.h"

#define GLOBALS_SHOWN	256   /* unnamed non-zero globals listed at most */

/* ---- ids ------------------------------------------------------------------ */

static int64_t
frame_id(uint32_t core, uint32_t index)
{
	return (int64_t)core * DAP_FRAMES + index + 1;
}

static int
frame_of(struct dap *d, json_object *args, uint32_t *core, uint32_t *index,
    char **cause)
{
	int64_t id;

	if (dap_arg_int(args, "frameId", &id) != 0 || id < 1 ||
	    (uint64_t)(id - 1) / DAP_FRAMES >= d->ncores) {
		*cause = xasprintf("no such frame (frameId)");
		return -1;
	}
	*core = (uint32_t)((id - 1) / DAP_FRAMES);
	*index = (uint32_t)((id - 1) % DAP_FRAMES);
	return 0;
}

static int64_t
var_ref(uint32_t core, uint32_t index, int kind)
{
	return (frame_id(core, index) - 1) * DAP_SCOPES + kind + 1;
}

static int
micro(struct dap *d)
{
	return session_level(d->s) != LEVEL_ISA;
}

/* ---- stackTrace ----------------------------------------------------------- */

/* The instruction start before pc (pc itself if none). */
static uint32_t
insn_before(const struct program *p, int32_t pc)
{
	uint32_t *a = NULL, best = (uint32_t)pc;
	size_t n = pc > 0 ? loc_insns(p, pc - 1, &a) : 0;

	for (size_t i = 0; i < n; i++)
		if (a[i] < (uint32_t)pc)
			best = a[i];
	free(a);
	return best;
}

static json_object *
isa_frame(struct dap *d, uint32_t core, uint32_t index,
    const struct session_frame *f)
{
	const struct machine *m = session_machine(d->s);
	uint16_t prog = m->cores[core].prog;
	const struct program *p = d->l.ptrs[prog];
	json_object *o = json_object_new_object();
	/* an outer frame is at its call, as gdb shows it: the line of the
	 * INVOKEVIRTUAL before the return address */
	uint32_t line = program_line_at(p, index > (micro(d) ? 1u : 0u) ?
	    insn_before(p, f->pc) : (uint32_t)f->pc);
	char *name, ref[16];

	name = xasprintf("%s (core %u)", f->method ? f->method : "??", core);
	json_object_object_add(o, "id",
	    json_object_new_int64(frame_id(core, index)));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "line", dap_line_out(d, line));
	json_object_object_add(o, "column", json_object_new_int(line ? 1 : 0));
	if (line > 0)
		json_object_object_add(o, "source",
		    dap_source(d->abspaths[prog]));
	snprintf(ref, sizeof ref, "0x%04x", (unsigned)f->pc);
	json_object_object_add(o, "instructionPointerReference",
	    json_object_new_string(ref));
	free(name);
	return o;
}

static json_object *
micro_frame(struct dap *d, uint32_t core)
{
	const struct machine *m = session_machine(d->s);
	const struct microcode *mc = session_microcode(d->s,
	    session_level(d->s));
	uint32_t mpc = m->cores[core].mpc;
	const struct mal_sym *sym = mc ? mal_syms_at(&mc->syms, mpc) : NULL;
	json_object *o = json_object_new_object();
	char *name;

	name = xasprintf("MPC 0x%03x%s%s: %s", mpc,
	    sym && sym->label ? " " : "", sym && sym->label ? sym->label : "",
	    sym && sym->text ? sym->text : "");
	json_object_object_add(o, "id",
	    json_object_new_int64(frame_id(core, 0)));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "line", dap_line_out(d, sym ? sym->line : 0));
	json_object_object_add(o, "column", json_object_new_int(sym ? 1 : 0));
	if (sym != NULL && mc->syms.file != NULL) {
		char *path = dap_abspath(mc->syms.file);

		json_object_object_add(o, "source", dap_source(path));
		free(path);
	}
	free(name);
	return o;
}

static void
req_stack(struct dap *d, json_object *req, json_object *args)
{
	json_object *b, *a;
	struct session_frame *f;
	size_t n, base;
	int64_t start = 0, levels = 0;
	uint32_t core;
	char *cause = NULL;

	if (dap_thread_core(d, args, &core, &cause) != 0 ||
	    session_frames(d->s, core, &f, &n, &cause) != 0) {
		dap_fail(d, req, "%s", cause);
		free(cause);
		return;
	}
	dap_focus(d, core);
	(void)dap_arg_int(args, "startFrame", &start);
	(void)dap_arg_int(args, "levels", &levels);
	a = json_object_new_array();
	base = micro(d) ? 1 : 0;
	for (size_t i = 0; i < n + base; i++) {
		if ((int64_t)i < start)
			continue;
		if (levels > 0 && (int64_t)i >= start + levels)
			break;
		if (i < base)
			json_object_array_add(a, micro_frame(d, core));
		else
			json_object_array_add(a, isa_frame(d, core,
			    (uint32_t)i, &f[i - base]));
	}
	session_frames_free(f, n);
	b = json_object_new_object();
	json_object_object_add(b, "stackFrames", a);
	json_object_object_add(b, "totalFrames",
	    json_object_new_int64((int64_t)(n + base)));
	dap_respond(d, req, b);
}

/* ---- scopes and variables ------------------------------------------------- */

static json_object *
scope(const char *name, int64_t ref, int expensive)
{
	json_object *s = json_object_new_object();

	json_object_object_add(s, "name", json_object_new_string(name));
	json_object_object_add(s, "variablesReference",
	    json_object_new_int64(ref));
	json_object_object_add(s, "expensive",
	    json_object_new_boolean(expensive));
	return s;
}

static void
req_scopes(struct dap *d, json_object *req, json_object *args)
{
	json_object *b, *a;
	uint32_t core, index;
	char *cause = NULL;

	if (frame_of(d, args, &core, &index, &cause) != 0) {
		dap_fail(d, req, "%s", cause);
		free(cause);
		return;
	}
	a = json_object_new_array();
	if (micro(d) && index == 0) {
		json_object_array_add(a, scope(session_level(d->s) ==
		    LEVEL_PMIC ? "PMIC registers" : "Mic-1 registers",
		    var_ref(core, index, SCOPE_MICRO), 0));
	} else {
		json_object_array_add(a, scope("Locals",
		    var_ref(core, index, SCOPE_LOCALS), 0));
		json_object_array_add(a, scope("Operand stack",
		    var_ref(core, index, SCOPE_STACK), 0));
		json_object_array_add(a, scope("Registers",
		    var_ref(core, index, SCOPE_REGS), 0));
	}
	json_object_array_add(a, scope("Globals",
	    var_ref(core, index, SCOPE_GLOBALS), 0));
	b = json_object_new_object();
	json_object_object_add(b, "scopes", a);
	dap_respond(d, req, b);
}

static void
var(json_object *a, const char *name, const char *value, int32_t addr)
{
	json_object *v = json_object_new_object();

	json_object_object_add(v, "name", json_object_new_string(name));
	json_object_object_add(v, "value", json_object_new_string(value));
	json_object_object_add(v, "variablesReference",
	    json_object_new_int(0));
	if (addr != 0) {
		char ref[16];

		snprintf(ref, sizeof ref, "0x%06x", (unsigned)addr);
		json_object_object_add(v, "memoryReference",
		    json_object_new_string(ref));
	}
	json_object_array_add(a, v);
}

static void
var_int(json_object *a, const char *name, int32_t value, int32_t addr)
{
	char t[32];

	snprintf(t, sizeof t, "%d", value);
	var(a, name, t, addr);
}

static void
regs_vars(struct dap *d, json_object *a, uint32_t core, int with_micro)
{
	const struct machine *m = session_machine(d->s);
	const struct core *c = &m->cores[core];
	char t[64];

	for (int r = 0; r < REG_COUNT; r++) {
		if (!with_micro && (r == REG_MPC || r == REG_N || r == REG_Z))
			continue;
		var_int(a, reg_name(r), reg_get(c, r), 0);
	}
	static const char *const st[] = { "running", "halted", "faulted",
	    "waiting", "joining" };
	var(a, "status", c->status < CORE_NSTATUS ? st[c->status] : "?", 0);
	snprintf(t, sizeof t, "%llu", (unsigned long long)c->steps);
	var(a, "instructions", t, 0);
	if (!with_micro)
		return;
	snprintf(t, sizeof t, "%llu", (unsigned long long)c->cycles);
	var(a, "cycles", t, 0);
	if (session_level(d->s) == LEVEL_MIC) {
		const struct mic1_state *ms = session_level_state(d->s);

		if (ms != NULL) {
			snprintf(t, sizeof t, "0x%09llx",
			    (unsigned long long)ms->core[core].mir);
			var(a, "MIR", t, 0);
		}
	} else if (session_level(d->s) == LEVEL_PMIC) {
		const struct pmic_state *ps = session_pmic_state(d->s);

		if (ps != NULL) {
			var_int(a, "G0", ps->core[core].g0, 0);
			var_int(a, "G1", ps->core[core].g1, 0);
		}
	}
}

static void
req_variables(struct dap *d, json_object *req, json_object *args)
{
	const struct machine *m = session_machine(d->s);
	json_object *b, *a;
	struct session_frame *f = NULL;
	size_t n = 0;
	int64_t ref;
	uint32_t core, index, isa;
	int kind;
	char *cause = NULL;

	if (dap_arg_int(args, "variablesReference", &ref) != 0 || ref < 1 ||
	    (uint64_t)(ref - 1) / DAP_SCOPES / DAP_FRAMES >= d->ncores) {
		dap_fail(d, req, "variables: no such variablesReference");
		return;
	}
	kind = (int)((ref - 1) % DAP_SCOPES);
	core = (uint32_t)((ref - 1) / DAP_SCOPES / DAP_FRAMES);
	index = (uint32_t)((ref - 1) / DAP_SCOPES % DAP_FRAMES);
	isa = micro(d) ? index - 1 : index;
	a = json_object_new_array();
	if (kind == SCOPE_LOCALS || kind == SCOPE_STACK) {
		if (session_frames(d->s, core, &f, &n, &cause) != 0) {
			json_object_put(a);
			dap_fail(d, req, "%s", cause);
			free(cause);
			return;
		}
		if (isa < n && kind == SCOPE_LOCALS) {
			const struct session_frame *fr = &f[isa];
			int32_t nl = fr->nlocals < SESSION_FRAME_LOCALS ?
			    fr->nlocals : SESSION_FRAME_LOCALS;

			for (int32_t i = 0; i < nl; i++) {
				char tmp[32];
				const char *name = fr->locals[i].name;

				if (name == NULL) {
					snprintf(tmp, sizeof tmp, "local[%d]",
					    i);
					name = tmp;
				}
				var_int(a, name, fr->locals[i].value,
				    fr->lv + i);
			}
		} else if (isa < n) {
			const struct session_frame *fr = &f[isa];

			for (int32_t w = fr->stack_lo; w <= fr->stack_hi;
			    w++) {
				char name[32];
				int32_t v = 0;

				snprintf(name, sizeof name, "[%d]%s",
				    w - fr->stack_lo,
				    w == fr->stack_hi ? " top" : "");
				(void)machine_read_word(m, core, w, &v);
				var_int(a, name, v, w);
			}
		}
		session_frames_free(f, n);
	} else if (kind == SCOPE_REGS || kind == SCOPE_MICRO)
		regs_vars(d, a, core, kind == SCOPE_MICRO || micro(d));
	else if (kind == SCOPE_GLOBALS) {
		const struct dsym *ds = &d->dsyms[m->cores[core].prog];
		size_t shown = 0;

		for (size_t g = 0; g < MM_GLOBALS_WORDS; g++) {
			const char *name = g < ds->nglobals ?
			    ds->globals[g] : NULL;
			char tmp[32];

			if (name == NULL) {
				if (m->globals[g] == 0 ||
				    shown >= GLOBALS_SHOWN)
					continue;
				snprintf(tmp, sizeof tmp, "global[%zu]", g);
				name = tmp;
				shown++;
			}
			var_int(a, name, m->globals[g],
			    (int32_t)(MM_GLOBALS_BASE + g));
		}
	}
	b = json_object_new_object();
	json_object_object_add(b, "variables", a);
	dap_respond(d, req, b);
}

const char *
dap_print_value(const char *text)
{
	const char *eq = strstr(text, " = ");

	return text[0] == '$' && eq != NULL ? eq + 3 : text;
}

/* Run a command on core (made the focus); its output trimmed in *out. */
static int
exec_on(struct dap *d, uint32_t core, const char *line, char **out,
    char **cause)
{
	struct buf o = { 0 };

	dap_focus(d, core);
	if (dap_exec(d, line, &o, cause) != 0) {
		buf_free(&o);
		return -1;
	}
	while (o.len > 0 && o.data[o.len - 1] == '\n')
		o.len--;
	buf_put_u8(&o, 0);
	*out = (char *)o.data;
	return 0;
}

static void
req_set_variable(struct dap *d, json_object *req, json_object *args)
{
	const char *name = dap_arg_str(args, "name");
	const char *value = dap_arg_str(args, "value");
	int64_t ref;
	uint32_t core, index;
	int kind;
	char *line, *out = NULL, *cause = NULL, *t;
	json_object *b;

	if (name == NULL || value == NULL ||
	    dap_arg_int(args, "variablesReference", &ref) != 0 || ref < 1 ||
	    (uint64_t)(ref - 1) / DAP_SCOPES / DAP_FRAMES >= d->ncores) {
		dap_fail(d, req, "setVariable: variablesReference, name and "
		    "value are needed");
		return;
	}
	kind = (int)((ref - 1) % DAP_SCOPES);
	core = (uint32_t)((ref - 1) / DAP_SCOPES / DAP_FRAMES);
	index = (uint32_t)((ref - 1) / DAP_SCOPES % DAP_FRAMES);
	if (kind == SCOPE_LOCALS && index != (micro(d) ? 1u : 0u)) {
		dap_fail(d, req, "setVariable: set var writes the locals of "
		    "the innermost frame only");
		return;
	}
	if (kind == SCOPE_STACK) {
		dap_fail(d, req, "setVariable: micdb cannot set operand stack "
		    "words (set var TOS writes the top one)");
		return;
	}
	if (kind == SCOPE_REGS || kind == SCOPE_MICRO)
		line = xasprintf("set var $%s = %s", name, value);
	else if (kind == SCOPE_GLOBALS)
		line = xasprintf("set var global %s = %s", name, value);
	else if (strncmp(name, "local[", 6) == 0)
		line = xasprintf("set var %s = %s", name, value);
	else
		line = xasprintf("set var local %s = %s", name, value);
	if (kind == SCOPE_GLOBALS && strncmp(name, "global[", 7) == 0) {
		free(line);
		line = xasprintf("set var %s = %s", name, value);
	}
	if (exec_on(d, core, line, &out, &cause) != 0) {
		free(line);
		dap_fail(d, req, "%s", cause);
		free(cause);
		return;
	}
	free(out);
	free(line);
	/* read it back as micdb prints it */
	t = kind == SCOPE_REGS || kind == SCOPE_MICRO ?
	    xasprintf("print $%s", name) : xasprintf("print %s", name);
	b = json_object_new_object();
	if (exec_on(d, core, t, &out, &cause) == 0) {
		json_object_object_add(b, "value",
		    json_object_new_string(dap_print_value(out)));
		free(out);
	} else {
		json_object_object_add(b, "value",
		    json_object_new_string(value));
		free(cause);
	}
	free(t);
	dap_respond(d, req, b);
}

/* ---- evaluate ------------------------------------------------------------- */

/*
 * In the repl context the text is a micdb command (info warps, break,
 * core 5, ...), its output the result; a command that runs the machine
 * runs as continue does.  Elsewhere (watch, hover) it is an expression,
 * printed on the frame's core.
 */
static void
req_evaluate(struct dap *d, json_object *req, json_object *args)
{
	const char *expr = dap_arg_str(args, "expression");
	const char *ctx = dap_arg_str(args, "context");
	json_object *b;
	struct buf o = { 0 };
	uint32_t core = session_focus(d->s), index;
	char *cause = NULL, *line, *out;

	if (expr == NULL) {
		dap_fail(d, req, "evaluate: expression is needed");
		return;
	}
	if (dap_arg(args, "frameId") != NULL &&
	    frame_of(d, args, &core, &index, &cause) != 0) {
		dap_fail(d, req, "%s", cause);
		free(cause);
		return;
	}
	if (ctx != NULL && strcmp(ctx, "repl") == 0) {
		uint32_t focus0;
		enum level level0 = session_level(d->s);
		uint64_t step0 = session_machine(d->s)->step;

		dap_focus(d, core);
		focus0 = session_focus(d->s);
		if (dap_exec(d, expr, &o, &cause) != 0) {
			buf_free(&o);
			dap_fail(d, req, "%s", cause);
			free(cause);
			return;
		}
		b = json_object_new_object();
		if (session_running(d->s)) {
			json_object_object_add(b, "result",
			    json_object_new_string(""));
			json_object_object_add(b, "variablesReference",
			    json_object_new_int(0));
			dap_respond(d, req, b);
			dap_console(d, (const char *)o.data, o.len);
			dap_run_started(d, "step");
		} else {
			size_t len = o.len;

			while (len > 0 && o.data[len - 1] == '\n')
				len--;
			json_object_object_add(b, "result",
			    json_object_new_string_len((const char *)o.data,
			    (int)len));
			json_object_object_add(b, "variablesReference",
			    json_object_new_int(0));
			dap_respond(d, req, b);
			/* the editor's views follow what the command did:
			 * went back (reverse-*), moved the focus (core,
			 * warp, lane), switched the level */
			if (session_machine(d->s)->step != step0)
				dap_stopped(d, &o, "step", 0);
			else if (session_focus(d->s) != focus0)
				dap_refocus(d, "focus", expr);
			else if (session_level(d->s) != level0)
				dap_refocus(d, "level", expr);
		}
		buf_free(&o);
		return;
	}
	line = xasprintf("print %s", expr);
	if (exec_on(d, core, line, &out, &cause) != 0) {
		free(line);
		dap_fail(d, req, "%s", cause);
		free(cause);
		return;
	}
	b = json_object_new_object();
	json_object_object_add(b, "result",
	    json_object_new_string(dap_print_value(out)));
	json_object_object_add(b, "variablesReference", json_object_new_int(0));
	free(out);
	free(line);
	dap_respond(d, req, b);
}

/* ---- disassemble ----------------------------------------------------------- */

/* Every instruction start of p (main and each method), ascending. */
static size_t
all_insns(const struct program *p, uint32_t **out)
{
	uint32_t *v = NULL, *a;
	size_t n = 0, k, w = 0;

	k = loc_insns(p, 0, &a);
	v = xreallocarray(v, n + k + 1, sizeof *v);
	memcpy(v + n, a, k * sizeof *a);
	n += k;
	free(a);
	for (size_t i = 0; i < p->nmethods; i++) {
		k = loc_insns(p, (int32_t)p->methods[i].addr + 4, &a);
		v = xreallocarray(v, n + k + 1, sizeof *v);
		memcpy(v + n, a, k * sizeof *a);
		n += k;
		free(a);
	}
	qsort(v, n, sizeof *v, dap_cmp_u32);
	for (size_t i = 0; i < n; i++)
		if (w == 0 || v[w - 1] != v[i])
			v[w++] = v[i];
	*out = v;
	return w;
}

static void
req_disassemble(struct dap *d, json_object *req, json_object *args)
{
	const char *mref = dap_arg_str(args, "memoryReference");
	const struct machine *m = session_machine(d->s);
	uint16_t prog = m->cores[session_focus(d->s)].prog;
	const struct program *p = d->l.ptrs[prog];
	int64_t off = 0, ioff = 0, count;
	uint32_t *ins;
	size_t n, at = 0;
	long long addr;
	char *end;
	json_object *a, *b;

	if (mref == NULL || dap_arg_int(args, "instructionCount", &count) != 0
	    || count < 0 || count > 100000) {
		dap_fail(d, req, "disassemble: memoryReference and "
		    "instructionCount (0 to 100000) are needed");
		return;
	}
	addr = strtoll(mref, &end, 0);
	if (*end != '\0') {
		dap_fail(d, req, "disassemble: memoryReference '%s' is not an "
		    "address", mref);
		return;
	}
	(void)dap_arg_int(args, "offset", &off);
	(void)dap_arg_int(args, "instructionOffset", &ioff);
	addr += off;
	n = all_insns(p, &ins);
	while (at < n && ins[at] < addr)
		at++;
	a = json_object_new_array();
	for (int64_t i = 0; i < count; i++) {
		int64_t k = (int64_t)at + ioff + i;
		json_object *o = json_object_new_object();
		char ref[16], text[128], tmp[64];

		if (k < 0 || k >= (int64_t)n) {
			/* outside the text: placeholders, as DAP asks */
			snprintf(ref, sizeof ref, "0x%04llx", (unsigned long long)
			    (k < 0 ? 0 : p->text_size + (k - (int64_t)n)));
			json_object_object_add(o, "address",
			    json_object_new_string(ref));
			json_object_object_add(o, "instruction",
			    json_object_new_string("??"));
			json_object_object_add(o, "presentationHint",
			    json_object_new_string("invalid"));
		} else {
			uint32_t pc = ins[k];
			const char *label = loc_label_name(p, pc, tmp,
			    sizeof tmp);
			uint32_t line = program_line_at(p, pc);
			int size = dis_insn(p, NULL, pc, text, sizeof text);
			char bytes[64] = "";

			for (int j = 0; j < size && j < 8; j++)
				snprintf(bytes + strlen(bytes),
				    sizeof bytes - strlen(bytes), "%s%02x",
				    j ? " " : "", p->text[pc + (uint32_t)j]);
			snprintf(ref, sizeof ref, "0x%04x", pc);
			json_object_object_add(o, "address",
			    json_object_new_string(ref));
			json_object_object_add(o, "instruction",
			    json_object_new_string(size ? text : "??"));
			json_object_object_add(o, "instructionBytes",
			    json_object_new_string(bytes));
			if (label != NULL)
				json_object_object_add(o, "symbol",
				    json_object_new_string(label));
			if (line > 0) {
				json_object_object_add(o, "line",
				    dap_line_out(d, line));
				json_object_object_add(o, "location",
				    dap_source(d->abspaths[prog]));
			}
		}
		json_object_array_add(a, o);
	}
	free(ins);
	b = json_object_new_object();
	json_object_object_add(b, "instructions", a);
	dap_respond(d, req, b);
}

/* ---- memory ----------------------------------------------------------------- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *
base64(const uint8_t *p, size_t n)
{
	char *s = xmalloc((n + 2) / 3 * 4 + 1), *o = s;

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		*o++ = b64[v >> 18];
		*o++ = b64[(v >> 12) & 63];
		*o++ = i + 1 < n ? b64[(v >> 6) & 63] : '=';
		*o++ = i + 2 < n ? b64[v & 63] : '=';
	}
	*o = '\0';
	return s;
}

/* Decode; -1 on a bad character. */
static int
unbase64(const char *s, struct buf *out)
{
	uint32_t v = 0;
	int bits = 0;

	for (; *s != '\0' && *s != '='; s++) {
		const char *c = strchr(b64, *s);

		if (c == NULL || *s == '\0')
			return -1;
		v = (v << 6) | (uint32_t)(c - b64);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf_put_u8(out, (uint8_t)(v >> bits));
		}
	}
	return 0;
}

static int
mem_args(json_object *args, int64_t *word, int64_t *off, char **cause)
{
	const char *mref = dap_arg_str(args, "memoryReference");
	char *end;

	*off = 0;
	(void)dap_arg_int(args, "offset", off);
	if (mref == NULL ||
	    (*word = strtoll(mref, &end, 0), *end != '\0')) {
		*cause = xasprintf("memoryReference (a word address such as "
		    "0x8000) is needed");
		return -1;
	}
	/* word addresses are 32-bit; bounding both keeps word * 4 + off
	 * exact (found by tests/fuzz/fuzz-dap) */
	if (*word < INT32_MIN || *word > INT32_MAX ||
	    *off < -((int64_t)1 << 36) || *off > ((int64_t)1 << 36)) {
		*cause = xasprintf("memoryReference %s or offset %lld is "
		    "outside the machine's 32-bit word addresses", mref,
		    (long long)*off);
		return -1;
	}
	return 0;
}

static void
req_read_memory(struct dap *d, json_object *req, json_object *args)
{
	const struct machine *m = session_machine(d->s);
	uint32_t core = session_focus(d->s);
	int64_t word, off, count;
	struct buf bytes = { 0 };
	char *cause = NULL, *s, ref[24];
	json_object *b;
	int64_t first, unread = 0;

	if (mem_args(args, &word, &off, &cause) != 0 ||
	    dap_arg_int(args, "count", &count) != 0 || count < 0 ||
	    count > (1 << 20)) {
		dap_fail(d, req, "readMemory: %s", cause ? cause :
		    "count (0 to 1 MiB) is needed");
		free(cause);
		return;
	}
	first = word * 4 + off;
	for (int64_t byte = first; byte < first + count; byte++) {
		int32_t v;

		if (byte < 0 || byte / 4 > INT32_MAX || machine_read_word(m,
		    core, (int32_t)(byte / 4), &v) != 0) {
			unread = first + count - byte;
			break;
		}
		buf_put_u8(&bytes, (uint8_t)((uint32_t)v >> (8 * (3 -
		    byte % 4))));
	}
	b = json_object_new_object();
	snprintf(ref, sizeof ref, "0x%llx", (long long)(first / 4));
	json_object_object_add(b, "address", json_object_new_string(ref));
	s = base64(bytes.data, bytes.len);
	json_object_object_add(b, "data", json_object_new_string(s));
	if (unread > 0)
		json_object_object_add(b, "unreadableBytes",
		    json_object_new_int64(unread));
	free(s);
	buf_free(&bytes);
	dap_respond(d, req, b);
}

static void
req_write_memory(struct dap *d, json_object *req, json_object *args)
{
	const struct machine *m = session_machine(d->s);
	uint32_t core = session_focus(d->s);
	const struct core *c = &m->cores[core];
	const char *data = dap_arg_str(args, "data");
	int64_t word, off;
	struct buf bytes = { 0 };
	char *cause = NULL;
	json_object *b;

	if (mem_args(args, &word, &off, &cause) != 0 || data == NULL ||
	    unbase64(data, &bytes) != 0 || off % 4 != 0 || bytes.len % 4 != 0) {
		dap_fail(d, req, "writeMemory: %s", cause ? cause :
		    "whole words (4 bytes each, from a word boundary) of "
		    "base64 data are needed");
		free(cause);
		buf_free(&bytes);
		return;
	}
	word += off / 4;
	for (size_t i = 0; i < bytes.len; i += 4) {
		int64_t w = word + (int64_t)i / 4;
		int32_t v = (int32_t)get_be32(bytes.data + i);
		char *line = NULL, *out;

		if (w >= MM_GLOBALS_BASE &&
		    w < MM_GLOBALS_BASE + MM_GLOBALS_WORDS)
			line = xasprintf("set var global[%lld] = %d",
			    (long long)(w - MM_GLOBALS_BASE), v);
		else if (w >= c->lv && w < c->lv + SESSION_FRAME_LOCALS)
			line = xasprintf("set var local[%lld] = %d",
			    (long long)(w - c->lv), v);
		if (line == NULL) {
			dap_fail(d, req, "writeMemory: word 0x%llx: micdb writes "
			    "globals and the focused core's locals (set var)",
			    (long long)w);
			buf_free(&bytes);
			return;
		}
		if (exec_on(d, core, line, &out, &cause) != 0) {
			dap_fail(d, req, "writeMemory: %s", cause);
			free(cause);
			free(line);
			buf_free(&bytes);
			return;
		}
		free(out);
		free(line);
	}
	b = json_object_new_object();
	json_object_object_add(b, "bytesWritten",
	    json_object_new_int64((int64_t)bytes.len));
	buf_free(&bytes);
	dap_respond(d, req, b);
}

int
dap_view_request(struct dap *d, const char *cmd, json_object *req,
    json_object *args)
{
	if (strcmp(cmd, "stackTrace") == 0)
		req_stack(d, req, args);
	else if (strcmp(cmd, "scopes") == 0)
		req_scopes(d, req, args);
	else if (strcmp(cmd, "variables") == 0)
		req_variables(d, req, args);
	else if (strcmp(cmd, "setVariable") == 0)
		req_set_variable(d, req, args);
	else if (strcmp(cmd, "evaluate") == 0)
		req_evaluate(d, req, args);
	else if (strcmp(cmd, "disassemble") == 0)
		req_disassemble(d, req, args);
	else if (strcmp(cmd, "readMemory") == 0)
		req_read_memory(d, req, args);
	else if (strcmp(cmd, "writeMemory") == 0)
		req_write_memory(d, req, args);
	else
		return -1;
	return 0;
}
