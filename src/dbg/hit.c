/*
 * What a breakpoint stop is made of, for the two places that find stops:
 * run control going forward (resume.c, watch.c) and the reverse search
 * over recorded history (reverse.c).  Both must agree on when a core
 * stops at a breakpoint, or reverse-continue would stop where continue
 * does not (or miss where it does), so the test is here, once:
 *
 *   - the engine's breakpoint list mirrors the enabled table entries
 *     (session_sync_bps): engines know a breakpoint only as a PC (or an
 *     MPC) on a set of cores;
 *   - hit_test decides for one core at the present cut: a location of
 *     the breakpoint on that core (its core set is the location's mask),
 *     a PC breakpoint only at an instruction boundary, an MPC breakpoint
 *     only at a micro level, and the condition true in that core's
 *     context (an error evaluating it stops, so that it is seen);
 *   - hit_count applies the hit and ignore counts of a forward stop: a
 *     step in which any number of cores hit a breakpoint is one hit, and
 *     one of the crossings ignore skips (doc/debugger.md), so that the
 *     two counts agree on a machine of many cores.  The reverse search
 *     does not count: going back does not execute anything, and the
 *     counts stay those of the present;
 *   - hit_report writes the report line both directions show and notes
 *     the cores as the stop's.
 *
 * This sits below resume.c, watch.c and reverse.c and calls only the
 * session's read side (evaluation, boundaries, descriptions).
 */
#include <stdlib.h>

#include "dbg.h"

void
session_sync_bps(struct session *s)
{
	if (!s->bps_dirty)
		return;
	s->nebps = 0;
	for (size_t i = 0; i < s->bps.n; i++) {
		const struct bp *b = &s->bps.v[i];

		if (b->kind != BP_BREAK || !b->enabled)
			continue;
		for (size_t k = 0; k < b->nlocs; k++) {
			if (b->locs[k].disabled)
				continue;
			if (s->nebps == s->capebps) {
				s->capebps = s->capebps ? s->capebps * 2 : 16;
				s->ebps = xreallocarray(s->ebps, s->capebps,
				    sizeof *s->ebps);
			}
			s->ebps[s->nebps].id = b->id;
			s->ebps[s->nebps].pc = b->locs[k].pc;
			s->ebps[s->nebps].cores = b->locs[k].mask;
			s->ebps[s->nebps].on = b->on_mpc ? ENGINE_BP_ON_MPC :
			    ENGINE_BP_ON_PC;
			s->nebps++;
		}
	}
	s->bps_dirty = 0;
}

void
stop_note_cores(struct session *s, const uint32_t *cores, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s->nstop_cores == s->capstop_cores) {
			s->capstop_cores = s->capstop_cores ?
			    s->capstop_cores * 2 : 16;
			s->stop_cores = xreallocarray(s->stop_cores,
			    s->capstop_cores, sizeof *s->stop_cores);
		}
		s->stop_cores[s->nstop_cores++] = cores[i];
	}
}

int
hit_test(struct session *s, const struct bp *b, uint32_t c, char **err)
{
	const struct core *core = &s->m.cores[c];
	char *msg = NULL;
	int32_t v = 1;
	size_t k;

	if (b->kind != BP_BREAK || !b->enabled ||
	    (b->on_mpc && s->level == LEVEL_ISA) ||
	    (!b->on_mpc && !session_at_boundary(s, c)))
		return 0;
	for (k = 0; k < b->nlocs; k++)
		if ((b->on_mpc ? b->locs[k].pc == (int32_t)core->mpc :
		    b->locs[k].prog == core->prog &&
		    b->locs[k].pc == core->pc) &&
		    (b->locs[k].mask == NULL || b->locs[k].mask[c]) &&
		    !b->locs[k].disabled)
			break;
	if (k == b->nlocs)
		return 0;
	if (b->cond != NULL && session_eval(s, c, b->cond, &v, &msg) != 0)
		v = 1;
	if (v == 0) {
		free(msg);
		return 0;
	}
	if (err != NULL)
		*err = msg;
	else
		free(msg);
	return 1;
}

int
hit_count(struct bp *b, int error)
{
	b->hits++;
	if (b->ignore > 0 && !error) {
		b->ignore--;
		return 0;
	}
	return 1;
}

void
hit_report(struct session *s, const struct bp *b, const uint32_t *cores,
    size_t n, int32_t pc, struct buf *out)
{
	size_t loc = bp_loc_at(b, b->on_mpc ? 0 : s->m.cores[cores[0]].prog,
	    pc);

	buf_printf(out, "%sbreakpoint %u", b->temporary ? "temporary " : "",
	    b->id);
	if (b->nlocs > 1 && loc < b->nlocs)	/* gdb's N.M */
		buf_printf(out, ".%zu", loc + 1);
	buf_printf(out, " hit by ");
	coreset_format_cores(out, cores, n, DBG_MAX_LISTED);
	buf_printf(out, " [%zu of %u] at ", n, s->m.cfg.ncores);
	if (b->on_mpc) {
		buf_printf(out, "MPC ");
		session_describe_mpc(s, (uint32_t)pc, out);
	} else
		session_describe_pc(s, cores[0], pc, out);
	buf_printf(out, "\n");
	for (size_t k = 0; k < n; k++)
		s->at_bp[cores[k]] = 1;
	stop_note_cores(s, cores, n);
	s->last_bp = b->id;
}
