/*
 * The breakpoint requests of the DAP front end: setBreakpoints (source
 * lines of the .jas programs, and of the loaded .mal or .pm microprogram
 * as MPC breakpoints), setFunctionBreakpoints (methods, labels, and "mpc
 * LABEL"), setInstructionBreakpoints (*ADDR), dataBreakpointInfo and
 * setDataBreakpoints (watch).  Each request replaces the breakpoints the
 * previous one of its kind (or source) set: they are deleted and set
 * again with break/watch, ignore and delete, so that numbering, messages
 * and hit counts are micdb's own.
 *
 * A breakpoint names its cores as `break ... core SET` does: either a
 * "cores" member of the breakpoint ("0-7,12"), or a condition that starts
 * with "core SET" (the rest, if any, is the condition: "core 8-15 if n >
 * 3", "core 3 n == 1").  hitCondition is a number N: stop from the Nth
 * hit on (micdb's ignore N-1).
 */
#define _GNU_SOURCE   /* memmem */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dap-int.h"
#include "mal.h"
#include "microcode.h"

static struct dap_bpset *
bpset(struct dap *d, const char *key)
{
	struct dap_bpset *b;

	for (size_t i = 0; i < d->nbpsets; i++)
		if (strcmp(d->bpsets[i].key, key) == 0)
			return &d->bpsets[i];
	d->bpsets = xreallocarray(d->bpsets, d->nbpsets + 1,
	    sizeof *d->bpsets);
	b = &d->bpsets[d->nbpsets++];
	b->key = xstrdup(key);
	b->ids = NULL;
	b->n = 0;
	return b;
}

/* Delete every breakpoint of the set. */
static void
bpset_clear(struct dap *d, struct dap_bpset *b)
{
	struct buf line = { 0 }, out = { 0 };
	char *cause = NULL;

	if (b->n == 0)
		return;
	buf_printf(&line, "delete");
	for (size_t i = 0; i < b->n; i++)
		buf_printf(&line, " %u", b->ids[i]);
	buf_put_u8(&line, 0);
	if (dap_exec(d, (const char *)line.data, &out, &cause) != 0)
		free(cause);   /* a temporary one may be gone already */
	buf_free(&line);
	buf_free(&out);
	free(b->ids);
	b->ids = NULL;
	b->n = 0;
}

void
dap_bp_free(struct dap *d)
{
	for (size_t i = 0; i < d->nbpsets; i++) {
		free(d->bpsets[i].key);
		free(d->bpsets[i].ids);
	}
	free(d->bpsets);
	d->bpsets = NULL;
	d->nbpsets = 0;
}

/* The location of breakpoint id (its first), or NULL (a watchpoint). */
static const struct session_bp *
find_bp(struct dap *d, uint32_t id)
{
	const struct session_bp *v;
	size_t n = session_breakpoints(d->s, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/* The number in "breakpoint 3 at ..." / "watchpoint 4: ...", or 0. */
static uint32_t
reported_id(const struct buf *res)
{
	const char *p = memmem(res->data, res->len, "point ", 6);

	if (p == NULL)
		return 0;
	return (uint32_t)strtoul(p + 6, NULL, 10);
}

/* " core SET if COND" from a DAP breakpoint's cores and condition. */
static void
suffix(json_object *bp, struct buf *line)
{
	const char *cond = dap_arg_str(bp, "condition");
	json_object *cores = dap_arg(bp, "cores");

	if (cores != NULL && json_object_is_type(cores, json_type_string))
		buf_printf(line, " core %s", json_object_get_string(cores));
	if (cond == NULL)
		return;
	while (*cond == ' ')
		cond++;
	if (strncmp(cond, "core ", 5) == 0 || strncmp(cond, "cores ", 6) == 0) {
		const char *set = cond + (cond[4] == 's' ? 6 : 5);
		size_t n = strcspn(set, " ");
		const char *rest = set + n;

		buf_printf(line, " core %.*s", (int)n, set);
		while (*rest == ' ')
			rest++;
		if (strncmp(rest, "if ", 3) == 0)
			rest += 3;
		if (*rest != '\0')
			buf_printf(line, " if %s", rest);
	} else if (*cond != '\0')
		buf_printf(line, " if %s", cond);
}

/*
 * Set one breakpoint with the command in line (its suffix added here),
 * then its hit condition; remember it in set.  Returns the DAP
 * Breakpoint object; the new micdb breakpoint in *out (NULL if none).
 */
static json_object *
set_one(struct dap *d, struct dap_bpset *set, json_object *bp,
    struct buf *line, const struct session_bp **out)
{
	json_object *r = json_object_new_object();
	const char *hit = dap_arg_str(bp, "hitCondition");
	struct buf res = { 0 };
	char *cause = NULL, *end;
	uint32_t id;
	long nhit = 0;

	*out = NULL;
	if (hit != NULL && *hit != '\0' &&
	    ((nhit = strtol(hit, &end, 10)) < 1 || *end != '\0')) {
		cause = xasprintf("hitCondition '%s': write a number N (stop "
		    "from the Nth hit on)", hit);
		goto fail;
	}
	if (strncmp((const char *)line->data, "watch", 5) != 0)
		suffix(bp, line);
	buf_put_u8(line, 0);
	if (dap_exec(d, (const char *)line->data, &res, &cause) != 0)
		goto fail;
	if ((id = reported_id(&res)) == 0) {
		cause = xasprintf("no breakpoint number in '%.*s'",
		    (int)res.len, (const char *)res.data);
		goto fail;
	}
	set->ids = xreallocarray(set->ids, set->n + 1, sizeof *set->ids);
	set->ids[set->n++] = id;
	json_object_object_add(r, "id", json_object_new_int64(id));
	if (nhit > 1) {
		char cmd[64];
		struct buf o = { 0 };

		snprintf(cmd, sizeof cmd, "ignore %u %ld",
		    set->ids[set->n - 1], nhit - 1);
		if (dap_exec(d, cmd, &o, &cause) != 0) {
			buf_free(&o);
			goto fail;
		}
		buf_free(&o);
	}
	json_object_object_add(r, "verified", json_object_new_boolean(1));
	if (res.len > 0 && res.data[res.len - 1] == '\n')
		res.len--;
	json_object_object_add(r, "message",
	    json_object_new_string_len((const char *)res.data, (int)res.len));
	buf_free(&res);
	*out = find_bp(d, id);
	return r;
fail:
	json_object_object_add(r, "verified", json_object_new_boolean(0));
	json_object_object_add(r, "message", json_object_new_string(cause));
	free(cause);
	buf_free(&res);
	return r;
}

/* Line and source of a PC breakpoint location. */
static void
add_location(struct dap *d, json_object *r, const struct session_bp *v)
{
	const struct program *p;
	uint32_t line;
	char ref[16];

	if (v == NULL || v->on_mpc || v->prog >= d->l.nprogs)
		return;
	p = d->l.ptrs[v->prog];
	snprintf(ref, sizeof ref, "0x%04x", (unsigned)v->addr);
	json_object_object_add(r, "instructionReference",
	    json_object_new_string(ref));
	if ((line = program_line_at(p, (uint32_t)v->addr)) == 0)
		return;
	json_object_object_add(r, "line", dap_line_out(d, line));
	json_object_object_add(r, "source", dap_source(d->abspaths[v->prog]));
}

static int
has_suffix(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);

	return n > e && strcasecmp(path + n - e, ext) == 0;
}

/* The loaded microprogram whose source is path (by real path, or by
 * base name), or NULL with *cause. */
static const struct microcode *
microcode_of(struct dap *d, const char *path, char **cause)
{
	enum level lv = has_suffix(path, ".pm") ? LEVEL_PMIC : LEVEL_MIC;
	const struct microcode *mc = session_microcode(d->s, lv);
	char *a, *b;
	const char *b1, *b2;
	int same;

	if (mc == NULL || mc->syms.file == NULL) {
		*cause = xasprintf("no %s microprogram is loaded (launch with "
		    "level %s, or set level %s, then set this breakpoint "
		    "again)", lv == LEVEL_PMIC ? "PMIC" : "Mic-1",
		    level_name(lv), level_name(lv));
		return NULL;
	}
	a = dap_abspath(path);
	b = dap_abspath(mc->syms.file);
	b1 = strrchr(a, '/');
	b2 = strrchr(b, '/');
	same = strcmp(a, b) == 0 || (b1 && b2 && strcmp(b1, b2) == 0);
	free(a);
	free(b);
	if (!same) {
		*cause = xasprintf("%s is not the loaded microprogram (%s)",
		    path, mc->syms.file);
		return NULL;
	}
	return mc;
}

/* The program whose source is path (real path, then base name), or -1. */
static int
program_of(struct dap *d, const char *path)
{
	char *a = dap_abspath(path);
	const char *base = strrchr(a, '/');
	int found = -1;

	for (size_t i = 0; i < d->l.nprogs && found < 0; i++)
		if (strcmp(d->abspaths[i], a) == 0)
			found = (int)i;
	for (size_t i = 0; i < d->l.nprogs && found < 0 && base; i++) {
		const char *b = strrchr(d->abspaths[i], '/');

		if (b != NULL && strcmp(b, base) == 0)
			found = (int)i;
	}
	free(a);
	return found;
}

static void
req_set_breakpoints(struct dap *d, json_object *req, json_object *args)
{
	json_object *src = dap_arg(args, "source"), *bps, *res, *body;
	const char *path = dap_arg_str(src, "path");
	const struct microcode *mc = NULL;
	struct dap_bpset *set;
	char *cause = NULL;
	int prog = -1;

	if (path == NULL) {
		dap_fail(d, req, "setBreakpoints: source.path is needed");
		return;
	}
	bps = dap_arg(args, "breakpoints");
	if (bps != NULL && !json_object_is_type(bps, json_type_array)) {
		dap_fail(d, req, "setBreakpoints: breakpoints must be an "
		    "array");
		return;
	}
	if (has_suffix(path, ".mal") || has_suffix(path, ".pm"))
		mc = microcode_of(d, path, &cause);
	else if ((prog = program_of(d, path)) < 0)
		cause = xasprintf("%s is not a program of this session", path);
	set = bpset(d, path);
	bpset_clear(d, set);
	res = json_object_new_array();
	for (size_t i = 0; bps != NULL && i < json_object_array_length(bps);
	    i++) {
		json_object *bp = json_object_array_get_idx(bps, i), *r;
		const struct session_bp *v;
		struct buf line = { 0 };
		int64_t ln;

		if (dap_arg_int(bp, "line", &ln) != 0 ||
		    (ln += 1 - d->line_base) < 1) {
			r = json_object_new_object();
			json_object_object_add(r, "verified",
			    json_object_new_boolean(0));
			json_object_object_add(r, "message",
			    json_object_new_string("a line number is needed"));
		} else if (cause != NULL) {
			r = json_object_new_object();
			json_object_object_add(r, "verified",
			    json_object_new_boolean(0));
			json_object_object_add(r, "message",
			    json_object_new_string(cause));
		} else if (mc != NULL) {
			const struct mal_sym *best = NULL;

			for (size_t k = 0; k < mc->syms.n; k++) {
				const struct mal_sym *m = &mc->syms.sym[k];

				if (!m->is_default && m->line >= ln &&
				    (best == NULL || m->line < best->line))
					best = m;
			}
			if (best == NULL) {
				r = json_object_new_object();
				json_object_object_add(r, "verified",
				    json_object_new_boolean(0));
				json_object_object_add(r, "message",
				    json_object_new_string("no micro-"
				    "instruction at or after this line"));
			} else {
				buf_printf(&line, "break mpc 0x%03x",
				    (unsigned)best->addr);
				r = set_one(d, set, bp, &line, &v);
				json_object_object_add(r, "line",
				    dap_line_out(d, best->line));
				json_object_object_add(r, "source",
				    dap_source(path));
			}
		} else {
			buf_printf(&line, "break %s:%lld",
			    d->l.ptrs[prog]->path, (long long)ln);
			r = set_one(d, set, bp, &line, &v);
			add_location(d, r, v);
		}
		buf_free(&line);
		json_object_array_add(res, r);
	}
	free(cause);
	body = json_object_new_object();
	json_object_object_add(body, "breakpoints", res);
	dap_respond(d, req, body);
}

/* setFunctionBreakpoints and setInstructionBreakpoints. */
static void
req_set_named(struct dap *d, json_object *req, json_object *args,
    int insn)
{
	json_object *bps = dap_arg(args, "breakpoints"), *res, *body;
	struct dap_bpset *set = bpset(d, insn ? "\001instruction" :
	    "\001function");

	if (bps == NULL || !json_object_is_type(bps, json_type_array)) {
		dap_fail(d, req, "breakpoints (an array) is needed");
		return;
	}
	bpset_clear(d, set);
	res = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(bps); i++) {
		json_object *bp = json_object_array_get_idx(bps, i), *r;
		const char *name = dap_arg_str(bp, insn ?
		    "instructionReference" : "name");
		const struct session_bp *v;
		struct buf line = { 0 };
		int64_t off = 0;

		if (name == NULL || *name == '\0') {
			r = json_object_new_object();
			json_object_object_add(r, "verified",
			    json_object_new_boolean(0));
			json_object_object_add(r, "message",
			    json_object_new_string(insn ?
			    "instructionReference is needed" :
			    "a name is needed"));
			json_object_array_add(res, r);
			continue;
		}
		if (insn) {
			(void)dap_arg_int(bp, "offset", &off);
			buf_printf(&line, "break *(%s)+%lld", name,
			    (long long)off);
		} else
			buf_printf(&line, "break %s", name);
		r = set_one(d, set, bp, &line, &v);
		add_location(d, r, v);
		buf_free(&line);
		json_object_array_add(res, r);
	}
	body = json_object_new_object();
	json_object_object_add(body, "breakpoints", res);
	dap_respond(d, req, body);
}

/*
 * dataBreakpointInfo: a variable of the Locals scope (of the innermost
 * frame) or of Globals, or (without variablesReference) a watch
 * argument as micdb takes it: NAME, global[N], heap ADDR, local NAME
 * [core N].  The dataId is the watch command's argument.
 */
static void
req_data_info(struct dap *d, json_object *req, json_object *args)
{
	const char *name = dap_arg_str(args, "name");
	json_object *b = json_object_new_object(), *acc;
	int64_t ref;
	char *id = NULL, *desc = NULL;

	if (name == NULL) {
		json_object_put(b);
		dap_fail(d, req, "dataBreakpointInfo: name is needed");
		return;
	}
	if (dap_arg_int(args, "variablesReference", &ref) == 0 && ref > 0) {
		uint64_t r = (uint64_t)ref - 1;
		int kind = (int)(r % DAP_SCOPES);
		uint64_t frame = r / DAP_SCOPES;
		uint32_t core = (uint32_t)(frame / DAP_FRAMES);
		uint32_t index = (uint32_t)(frame % DAP_FRAMES);
		int micro = session_level(d->s) != LEVEL_ISA;

		if (kind == SCOPE_LOCALS && index == (micro ? 1u : 0u) &&
		    strchr(name, '[') == NULL) {
			id = xasprintf("local %s core %u", name, core);
			desc = xasprintf("%s of core %u", name, core);
		} else if (kind == SCOPE_GLOBALS) {
			id = xstrdup(name);
			desc = xasprintf("global %s", name);
		} else
			desc = xasprintf("micdb watches named locals of the "
			    "innermost frame, globals and heap words");
	} else {
		id = xstrdup(name);
		desc = xstrdup(name);
	}
	json_object_object_add(b, "dataId",
	    id ? json_object_new_string(id) : NULL);
	json_object_object_add(b, "description", json_object_new_string(desc));
	acc = json_object_new_array();
	json_object_array_add(acc, json_object_new_string("write"));
	json_object_object_add(b, "accessTypes", acc);
	json_object_object_add(b, "canPersist", json_object_new_boolean(0));
	free(id);
	free(desc);
	dap_respond(d, req, b);
}

static void
req_set_data(struct dap *d, json_object *req, json_object *args)
{
	json_object *bps = dap_arg(args, "breakpoints"), *res, *body;
	struct dap_bpset *set = bpset(d, "\001data");

	if (bps == NULL || !json_object_is_type(bps, json_type_array)) {
		dap_fail(d, req, "setDataBreakpoints: breakpoints (an array) "
		    "is needed");
		return;
	}
	bpset_clear(d, set);
	res = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(bps); i++) {
		json_object *bp = json_object_array_get_idx(bps, i), *r;
		const char *id = dap_arg_str(bp, "dataId");
		const char *acc = dap_arg_str(bp, "accessType");
		const struct session_bp *v;
		struct buf line = { 0 };

		if (id == NULL || (acc != NULL && strcmp(acc, "write") != 0)) {
			r = json_object_new_object();
			json_object_object_add(r, "verified",
			    json_object_new_boolean(0));
			json_object_object_add(r, "message",
			    json_object_new_string(id == NULL ?
			    "dataId is needed" : "micdb watches writes only"));
		} else {
			buf_printf(&line, "watch %s", id);
			r = set_one(d, set, bp, &line, &v);
		}
		buf_free(&line);
		json_object_array_add(res, r);
	}
	body = json_object_new_object();
	json_object_object_add(body, "breakpoints", res);
	dap_respond(d, req, body);
}

int
dap_bp_request(struct dap *d, const char *cmd, json_object *req,
    json_object *args)
{
	if (strcmp(cmd, "setBreakpoints") == 0)
		req_set_breakpoints(d, req, args);
	else if (strcmp(cmd, "setFunctionBreakpoints") == 0)
		req_set_named(d, req, args, 0);
	else if (strcmp(cmd, "setInstructionBreakpoints") == 0)
		req_set_named(d, req, args, 1);
	else if (strcmp(cmd, "dataBreakpointInfo") == 0)
		req_data_info(d, req, args);
	else if (strcmp(cmd, "setDataBreakpoints") == 0)
		req_set_data(d, req, args);
	else
		return -1;
	return 0;
}
