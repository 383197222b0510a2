/*
 * info and its machine-wide views: cores, warps, lanes, divergence.  (The
 * focused core's registers and frames are in cmd-frame.c, memory in
 * cmd-mem.c, breakpoints in cmd-break.c; the table below lists them all.)
 *
 * Output is capped for huge machines: a million cores are summarised in
 * runs of equal status and PC, at most MAX_GROUPS lines, and the warp
 * views show a window around the focused warp unless given a range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "dbg.h"
#include "history.h"
#include "ref.h"

#define MAX_GROUPS  40     /* lines of info cores */
#define WARP_WINDOW 16     /* warps shown by info warps */

static const struct cmd_entry *const info_table[] = {
	&cmd_info_break_entry, &cmd_info_cores_entry, &cmd_info_warps_entry,
	&cmd_info_lanes_entry, &cmd_info_registers_entry,
	&cmd_info_frame_entry, &cmd_info_stack_entry, &cmd_info_locals_entry,
	&cmd_info_args_entry, &cmd_info_display_entry,
	&cmd_info_globals_entry, &cmd_info_heap_entry,
	&cmd_info_divergence_entry, &cmd_info_level_entry,
	&cmd_info_history_entry, &cmd_info_trace_entry, NULL
};

const struct cmd_entry cmd_info_entry = {
	.name = "info",
	.alias = "i",
	.usage = "info SUBCOMMAND",
	.summary = "show the state of the machine",
	.help = "show the machine's state (see the subcommands)",
	.arg = ARG_SUBCOMMAND,
	.exec = cmd_dispatch_sub,
	.sub = info_table,
};

static int
cmd_info_cores_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint8_t *sel = NULL;
	struct places v;
	uint32_t more;

	if (*c->args != '\0' && coreset_parse(c->args, s->m.cfg.ncores, &sel,
	    cause) != 0)
		return -1;
	session_places(s, &v);
	places_counts(&v, out);
	more = places_runs(&v, sel, MAX_GROUPS, out);
	if (more > 0)
		buf_printf(out, "  ... %u more groups (info cores SET shows a "
		    "part, e.g. info cores 0-63)\n", more);
	free(sel);
	return 0;
}

const struct cmd_entry cmd_info_cores_entry = {
	.name = "cores",
	.usage = "info cores [SET]",
	.summary = "cores by status and PC",
	.help = "count the cores by status, then list runs of consecutive cores\n"
	    "with the same status and PC (* marks the focused core)",
	.arg = ARG_CORE,
	.exec = cmd_info_cores_exec,
};

/* First and last warp to show: a range argument or a window. */
static int
warp_range(struct session *s, const char *args, uint32_t *first,
    uint32_t *last, char **cause)
{
	uint32_t nw = machine_nwarps(&s->m), fw = s->focus / s->m.cfg.warp_width;
	unsigned long a, b;
	const char *end = args;

	if (*args == '\0') {
		*first = fw >= WARP_WINDOW / 2 ? fw - WARP_WINDOW / 2 : 0;
		*last = *first + WARP_WINDOW - 1;
		if (*last >= nw) {
			*last = nw - 1;
			*first = nw > WARP_WINDOW ? nw - WARP_WINDOW : 0;
		}
		return 0;
	}
	if (parse_range(&end, nw - 1, &a, &b) != 0 || *end != '\0') {
		*cause = xasprintf("bad warp range '%s' (warps are 0-%u)", args,
		    nw - 1);
		return -1;
	}
	*first = (uint32_t)a;
	*last = (uint32_t)b;
	return 0;
}

static void
put_mask(struct buf *out, uint64_t mask, uint32_t width)
{
	buf_printf(out, "0x%0*llx", (int)((width + 3) / 4),
	    (unsigned long long)mask);
}

static const char *
k_note(const struct session *s)
{
	return s->e.ops->kind == ENGINE_REF ?
	    "k (kernel paths) is not available for the reference engine" :
	    s->e.ops->kind == ENGINE_NATIVE ?
	    "k (kernel paths) is not available for the native engine" :
	    "k (kernel paths) is not reported by this engine";
}

/* The engine's kernel divergence record of warp w, if it keeps them. */
static const struct engine_warp_record *
warp_record(struct session *s, uint32_t w)
{
	const struct engine_warp_record *r;
	size_t n;

	if (s->e.ops->warps == NULL ||
	    (r = s->e.ops->warps(&s->e, &n)) == NULL || w >= n)
		return NULL;
	return &r[w];
}

static int
cmd_info_warps_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint32_t first, last, width = s->m.cfg.warp_width;
	struct warp_view v;
	const struct engine_warp_record *rec;
	int have_k = 0, mw;

	if (warp_range(s, c->args, &first, &last, cause) != 0)
		return -1;
	mw = (int)((width + 3) / 4 + 2);
	if (mw < 6)
		mw = 6;
	buf_printf(out, "  %-5s %-*s %6s %5s %4s %5s  %s\n", "warp", mw,
	    "active", "lanes", "paths", "k", "eff", s->level == LEVEL_ISA ?
	    "pcs (lanes)" : "mpcs (lanes)");
	for (uint32_t w = first; w <= last; w++) {
		div_warp(&s->m, w, s->level != LEVEL_ISA, &v);
		buf_printf(out, "%c %-5u ", s->focus / width == w ? '*' : ' ', w);
		put_mask(out, v.active, width);
		buf_printf(out, "%*s", mw - (int)((width + 3) / 4 + 2), "");
		buf_printf(out, " %6u %5u ", v.nactive, v.npaths);
		if ((rec = warp_record(s, w)) != NULL) {
			buf_printf(out, "%4u ", rec->last_k);
			have_k = 1;
		} else
			buf_printf(out, "%4s ", "-");
		if (v.nactive > 0)
			buf_printf(out, "%4.0f%%  ", 100.0 * v.nactive /
			    ((double)width * v.npaths));
		else
			buf_printf(out, "%5s  ", "-");
		for (uint32_t k = 0; k < v.npaths && k < 4; k++)
			buf_printf(out, s->level == LEVEL_ISA ? "%s0x%04x(%u)" :
			    "%s0x%03x(%u)", k ? " " : "", (uint32_t)v.pc[k],
			    v.count[k]);
		if (v.npaths > 4)
			buf_printf(out, " +%u", v.npaths - 4);
		buf_printf(out, "\n");
	}
	buf_printf(out, "eff = active / (W x paths), program divergence at "
	    "this step; %s\n", have_k ? "k: kernel paths of the warp's last "
	    "step" : k_note(s));
	return 0;
}

const struct cmd_entry cmd_info_warps_entry = {
	.name = "warps",
	.usage = "info warps [W|W1-W2]",
	.summary = "warps: active lanes, paths, efficiency",
	.help = "per warp (around the focus, or the range given): the active\n"
	    "lanes (RUNNING cores) as a mask, how many, the distinct PCs\n"
	    "(program paths), the kernel path count k when the engine reports\n"
	    "it, the SIMD efficiency and the PCs with their lane counts",
	.arg = ARG_TEXT,
	.exec = cmd_info_warps_exec,
};

static int
cmd_info_lanes_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint32_t width = s->m.cfg.warp_width, w = s->focus / width;
	struct warp_view v;
	struct places where;

	if (*c->args != '\0') {
		uint64_t n;

		if (cmd_count(c->args, &n, cause) != 0)
			return -1;
		if (n >= machine_nwarps(&s->m)) {
			*cause = xasprintf("warp %llu is out of range (0-%u)",
			    (unsigned long long)n, machine_nwarps(&s->m) - 1);
			return -1;
		}
		w = (uint32_t)n;
	}
	div_warp(&s->m, w, s->level != LEVEL_ISA, &v);
	buf_printf(out, "warp %u: active ", w);
	put_mask(out, v.active, width);
	buf_printf(out, ", converged ");
	put_mask(out, v.converged, width);
	buf_printf(out, ", divergent ");
	put_mask(out, v.active & ~v.converged, width);
	if (s->level == LEVEL_ISA)
		buf_printf(out, "\n  %-4s %-7s %-10s %s\n", "lane", "core",
		    "status", "pc");
	else
		buf_printf(out, "\n  %-4s %-7s %-10s %-5s %s\n", "lane", "core",
		    "status", "mpc", "pc (instruction)");
	session_places(s, &where);
	for (uint32_t l = 0; l < v.lanes; l++) {
		uint32_t k = v.first + l;

		buf_printf(out, "%c %-4u %-7u %-10s ", k == s->focus ? '*' : ' ',
		    l, k, places_state(&where, k));
		if (s->level != LEVEL_ISA)
			buf_printf(out, "0x%03x ", (unsigned)s->m.cores[k].mpc);
		session_describe_pc(s, k, session_core_pc(s, k), out);
		buf_printf(out, "\n");
	}
	return 0;
}

const struct cmd_entry cmd_info_lanes_entry = {
	.name = "lanes",
	.alias = "l",	/* i l stayed info lanes when info level came */
	.usage = "info lanes [W]",
	.summary = "the lanes of the focused warp",
	.help = "the lanes of the focused warp (or warp W): active, converged\n"
	    "(the largest group on one PC) and divergent masks, then per lane\n"
	    "its core, status and PC with its label (at a micro level the\n"
	    "paths are MPCs, and each lane's MPC is shown too)",
	.arg = ARG_TEXT,
	.exec = cmd_info_lanes_exec,
};

/* Kernel divergence from the engine's records: SIMD efficiency
 * sum(active) / (W x sum(k)) and the histogram of active lanes per
 * kernel path, over the whole run. */
static void
kernel_divergence(struct session *s, struct buf *out)
{
	uint32_t nw = machine_nwarps(&s->m), width = s->m.cfg.warp_width;
	uint64_t active = 0, kpaths = 0, *hist;
	const struct engine_warp_record *rec;

	if (warp_record(s, 0) == NULL) {
		buf_printf(out, "%s\n", k_note(s));
		return;
	}
	hist = xcalloc(width + 1, sizeof *hist);
	for (uint32_t w = 0; w < nw; w++) {
		if ((rec = warp_record(s, w)) == NULL)
			continue;
		active += rec->active;
		kpaths += rec->kpaths;
		for (uint32_t k = 1; k <= width && k <= 64; k++)
			hist[k] += rec->hist[k - 1];
	}
	if (kpaths == 0)
		buf_printf(out, "kernel divergence (%s engine): no step run "
		    "yet\n", s->e.ops->name);
	else {
		buf_printf(out, "kernel divergence (%s engine, every step): "
		    "SIMD efficiency %.1f%%\n", s->e.ops->name,
		    100.0 * (double)active / ((double)width * (double)kpaths));
		buf_printf(out, "active lanes per kernel path:\n");
		for (uint32_t k = 1; k <= width; k++)
			if (hist[k] > 0)
				buf_printf(out, "  %3u lanes: %llu\n", k,
				    (unsigned long long)hist[k]);
	}
	free(hist);
}

static int
cmd_info_divergence_exec(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause)
{
	uint32_t nw = machine_nwarps(&s->m), width = s->m.cfg.warp_width;
	uint64_t active = 0, paths = 0, warps = 0;
	struct warp_view v;
	const struct div_acc *d = &s->div;

	(void)c;
	(void)cause;
	for (uint32_t w = 0; w < nw; w++) {
		div_warp(&s->m, w, s->level != LEVEL_ISA, &v);
		if (v.nactive == 0)
			continue;
		warps++;
		active += v.nactive;
		paths += v.npaths;
	}
	buf_printf(out, "program divergence, computed on the host from the "
	    "cores' %s (warp width %u, %u warp%s)\n", s->level == LEVEL_ISA ?
	    "PCs" : "MPCs", width, nw, nw == 1 ? "" : "s");
	if (paths > 0)
		buf_printf(out, "now: %llu warp%s with active lanes, %llu "
		    "active lanes on %llu paths, SIMD efficiency %.1f%%\n",
		    (unsigned long long)warps, warps == 1 ? "" : "s",
		    (unsigned long long)active, (unsigned long long)paths,
		    100.0 * (double)active / ((double)width * (double)paths));
	else
		buf_printf(out, "now: no active lanes\n");
	if (d->samples == 0 || d->paths == 0) {
		buf_printf(out, "over the run: no stop sampled yet\n");
	} else {
		buf_printf(out, "over the run (sampled at %llu stop%s): SIMD "
		    "efficiency %.1f%%\n", (unsigned long long)d->samples,
		    d->samples == 1 ? "" : "s", 100.0 * (double)d->active /
		    ((double)width * (double)d->paths));
		buf_printf(out, "active lanes per path:\n");
		for (uint32_t k = 1; k <= width; k++)
			if (d->hist[k] > 0)
				buf_printf(out, "  %3u lanes: %llu\n", k,
				    (unsigned long long)d->hist[k]);
	}
	kernel_divergence(s, out);
	return 0;
}

const struct cmd_entry cmd_info_divergence_entry = {
	.name = "divergence",
	.alias = "d",	/* i d stayed info divergence when info display came */
	.usage = "info divergence",
	.summary = "SIMD efficiency and divergence histogram",
	.help = "machine-wide SIMD efficiency, active / (W x paths), now and\n"
	    "accumulated over the stops of the run, with the histogram of\n"
	    "active lanes per path; kernel divergence (k) when the engine\n"
	    "records it",
	.arg = ARG_NONE,
	.exec = cmd_info_divergence_exec,
};
