/*
 * Where the cores are (places.h): the PC a core is shown at, how a PC is
 * named, the name of a core's status, and the census of `info cores`
 * in its two forms.  One
 * definition for the debugger and `micdb run`: the session's own
 * session_core_pc, session_describe_pc and `info cores` call these.
 *
 * Cost: places_runs is one pass; places_by_pc sorts the selected cores by
 * place (O(n log n), about 0.2 s for a million cores), which is paid once,
 * when a run stops, not while it runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "ijvm.h"
#include "loc.h"
#include "mic1.h"
#include "places.h"
#include "pmic.h"
#include "ref.h"

int32_t
places_insn_pc(const struct places *v, uint32_t core)
{
	const struct machine *m = v->m;

	if (v->level == LEVEL_PMIC && v->level_state != NULL)
		return pmic_insn_pc(v->level_state, m, core);
	if (v->level == LEVEL_MIC && v->level_state != NULL)
		return mic1_insn_pc(v->level_state, m, core);
	if (v->level == LEVEL_ISA)
		return m->cores[core].pc;
	/* PC -1: on the way from the start state to main's first opcode */
	return m->cores[core].pc < 0 ? 0 : m->cores[core].pc;
}

int32_t
places_core_pc(const struct places *v, uint32_t core)
{
	const struct core *c = &v->m->cores[core];
	const struct program *p = v->m->progs[c->prog];

	if (c->status == CORE_ERROR)
		return c->fault_pc;
	if (c->pc > 0 && (uint32_t)c->pc <= p->text_size &&
	    ((c->status == CORE_HALTED && p->text[c->pc - 1] == OP_HALT) ||
	    (c->status == CORE_WAITING && p->text[c->pc - 1] == OP_BARRIER)))
		return c->pc - 1;
	return places_insn_pc(v, core);
}

/* "breakpoint" for cores that stopped at one in the last stop, "forked"
 * for running cores inside their forked method (fork-join). */
const char *
places_state(const struct places *v, uint32_t core)
{
	const struct core *k = &v->m->cores[core];

	if (k->status == CORE_RUNNING && v->at_bp != NULL && v->at_bp[core])
		return "breakpoint";
	if (k->status == CORE_RUNNING && (k->fork & FJ_IN))
		return "forked";
	return session_status_name(k->status);
}

const char *
places_method_name(const struct program *p, int32_t pc)
{
	const struct symbol *m;

	if (pc < 0)
		return NULL;
	m = program_method_at(p, (uint32_t)pc);
	if (m == NULL && p->nmethods == 0 && (uint32_t)pc <
	    program_main_end(p))
		return "main";
	return m ? m->name : NULL;
}

void
places_describe_pc(const struct program *p, int32_t pc, struct buf *out)
{
	const char *name = NULL, *method;
	char tmp[128], sym[160];
	uint32_t line, off = 0;

	buf_printf(out, "0x%04x", (uint32_t)pc);
	if (pc < 0 || (uint32_t)pc >= p->text_size) {
		buf_printf(out, " (outside the text)");
		return;
	}
	if ((name = loc_label_name(p, (uint32_t)pc, tmp, sizeof tmp)) == NULL) {
		/* the nearest label before pc in the same method */
		const struct symbol *m = program_method_at(p, (uint32_t)pc);
		uint32_t start = m ? (m->addr ? m->addr + 4 : 0) : 0;

		if ((uint32_t)pc < start) {	/* a method header */
			buf_printf(out, " (header of %s)", m->name);
			return;
		}

		for (size_t i = 0; i < p->nlabels; i++) {
			if (p->labels[i].addr > (uint32_t)pc)
				break;
			if (p->labels[i].addr >= start) {
				name = loc_label_name(p, p->labels[i].addr, tmp,
				    sizeof tmp);
				off = (uint32_t)pc - p->labels[i].addr;
			}
		}
		if (name == NULL &&
		    (method = places_method_name(p, pc)) != NULL) {
			name = method;
			off = (uint32_t)pc - start;
		}
	}
	sym[0] = '\0';
	if (name != NULL && off > 0)
		snprintf(sym, sizeof sym, "%s+%u", name, off);
	else if (name != NULL)
		snprintf(sym, sizeof sym, "%s", name);
	line = program_line_at(p, (uint32_t)pc);
	if (sym[0] != '\0' && line != 0)
		buf_printf(out, " (%s, %s:%u)", sym, loc_file_name(p->path), line);
	else if (sym[0] != '\0')
		buf_printf(out, " (%s)", sym);
	else if (line != 0)
		buf_printf(out, " (%s:%u)", loc_file_name(p->path), line);
}

void
places_counts(const struct places *v, struct buf *out)
{
	const struct machine *m = v->m;
	uint32_t n = m->cfg.ncores, atbp = 0;
	struct ref_summary sum;

	ref_count(m, &sum);
	for (uint32_t k = 0; v->at_bp != NULL && k < n; k++)
		atbp += v->at_bp[k] && m->cores[k].status == CORE_RUNNING;
	buf_printf(out, "%u core%s: %u running", n, n == 1 ? "" : "s",
	    sum.running - atbp);
	if (atbp > 0)
		buf_printf(out, ", %u at a breakpoint", atbp);
	buf_printf(out, ", %u waiting, %u halted, %u faulted", sum.waiting,
	    sum.halted, sum.faulted);
	if (m->fork_join) {
		uint32_t in = 0;

		for (uint32_t k = 0; k < n; k++)
			in += (m->cores[k].fork & FJ_IN) != 0;
		buf_printf(out, "; fork-join: %u forked, %u joining", in,
		    sum.joining);
	}
	buf_printf(out, "\n");
}

/* Two cores at the same place: state, program, PC (and MPC below ISA). */
static int
same_place(const struct places *v, uint32_t a, uint32_t b)
{
	const struct core *ca = &v->m->cores[a], *cb = &v->m->cores[b];

	return ca->prog == cb->prog &&
	    places_core_pc(v, a) == places_core_pc(v, b) &&
	    (v->level == LEVEL_ISA || ca->mpc == cb->mpc) &&
	    strcmp(places_state(v, a), places_state(v, b)) == 0;
}

/* " 0x0ab 0x001a (loop, sum.jas:14)": the MPC below the ISA level. */
static void
describe_core(const struct places *v, uint32_t core, struct buf *out)
{
	const struct core *c = &v->m->cores[core];

	if (v->level != LEVEL_ISA)
		buf_printf(out, "0x%03x ", (unsigned)c->mpc);
	places_describe_pc(v->m->progs[c->prog], places_core_pc(v, core), out);
}

uint32_t
places_runs(const struct places *v, const uint8_t *sel, uint32_t max,
    struct buf *out)
{
	uint32_t n = v->m->cfg.ncores, groups = 0, more = 0;

	if (v->level == LEVEL_ISA)
		buf_printf(out, "  %-15s %-10s %s\n", "cores", "status", "pc");
	else
		buf_printf(out, "  %-15s %-10s %-5s %s\n", "cores", "status",
		    "mpc", "pc (instruction)");
	for (uint32_t k = 0; k < n;) {
		uint32_t e = k + 1;
		char range[32];

		if (sel != NULL && !sel[k]) {
			k++;
			continue;
		}
		while (e < n && (sel == NULL || sel[e]) && same_place(v, e, k))
			e++;
		if (groups++ >= max) {
			more++;
			k = e;
			continue;
		}
		if (e - k == 1)
			snprintf(range, sizeof range, "%u", k);
		else
			snprintf(range, sizeof range, "%u-%u", k, e - 1);
		buf_printf(out, "%c %-15s %-10s ",
		    v->focus >= k && v->focus < e ? '*' : ' ', range,
		    places_state(v, k));
		describe_core(v, k, out);
		buf_printf(out, "\n");
		k = e;
	}
	return more;
}

/* A core and its place, for sorting by place. */
struct place_key {
	const char	*state;
	int32_t		 pc;
	int32_t		 mpc;
	uint32_t	 prog;
	uint32_t	 core;
};

/* A group: where it starts in keys[], its size and its lowest core. */
struct place_group {
	size_t		 at;
	uint32_t	 count;
	uint32_t	 first;
};

static int
key_cmp(const void *pa, const void *pb)
{
	const struct place_key *a = pa, *b = pb;
	int d = strcmp(a->state, b->state);

	if (d != 0)
		return d;
	if (a->prog != b->prog)
		return a->prog < b->prog ? -1 : 1;
	if (a->pc != b->pc)
		return a->pc < b->pc ? -1 : 1;
	if (a->mpc != b->mpc)
		return a->mpc < b->mpc ? -1 : 1;
	return a->core < b->core ? -1 : a->core > b->core;
}

/* Largest first; equal sizes by their lowest core. */
static int
group_cmp(const void *pa, const void *pb)
{
	const struct place_group *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* ", 0-31, 64" ... : the group's cores as ranges, at most 4 of them. */
static void
group_cores(const struct place_key *k, uint32_t count, struct buf *out)
{
	uint32_t shown = 0, i = 0, ranges = 0;

	while (i < count && ranges < 4) {
		uint32_t j = i + 1;

		while (j < count && k[j].core == k[j - 1].core + 1)
			j++;
		if (j - i == 1)
			buf_printf(out, "%s%u", ranges ? ", " : "", k[i].core);
		else
			buf_printf(out, "%s%u-%u", ranges ? ", " : "",
			    k[i].core, k[j - 1].core);
		shown += j - i;
		ranges++;
		i = j;
	}
	if (shown < count)
		buf_printf(out, " and %u more", count - shown);
}

uint32_t
places_by_pc(const struct places *v, const uint8_t *sel, uint32_t max,
    struct buf *out)
{
	uint32_t n = v->m->cfg.ncores, more = 0;
	struct place_key *keys;
	struct place_group *groups;
	size_t nk = 0, ng = 0;

	keys = xcalloc(n ? n : 1, sizeof *keys);
	for (uint32_t c = 0; c < n; c++) {
		if (sel != NULL && !sel[c])
			continue;
		keys[nk].state = places_state(v, c);
		keys[nk].pc = places_core_pc(v, c);
		keys[nk].mpc = v->level == LEVEL_ISA ? 0 : v->m->cores[c].mpc;
		keys[nk].prog = v->m->cores[c].prog;
		keys[nk].core = c;
		nk++;
	}
	qsort(keys, nk, sizeof *keys, key_cmp);
	groups = xcalloc(nk ? nk : 1, sizeof *groups);
	for (size_t i = 0; i < nk; i++) {
		if (i > 0 && strcmp(keys[i].state, keys[i - 1].state) == 0 &&
		    keys[i].prog == keys[i - 1].prog &&
		    keys[i].pc == keys[i - 1].pc &&
		    keys[i].mpc == keys[i - 1].mpc) {
			groups[ng - 1].count++;
			continue;
		}
		groups[ng].at = i;
		groups[ng].count = 1;
		groups[ng].first = keys[i].core;	/* sorted by core within */
		ng++;
	}
	qsort(groups, ng, sizeof *groups, group_cmp);
	for (size_t g = 0; g < ng; g++) {
		const struct place_key *k = &keys[groups[g].at];
		uint32_t count = groups[g].count;

		if (g >= max) {
			more++;
			continue;
		}
		buf_printf(out, "  %u core%s %s at ", count,
		    count == 1 ? "" : "s", k->state);
		if (v->level != LEVEL_ISA)
			buf_printf(out, "MPC 0x%03x in ", (unsigned)k->mpc);
		places_describe_pc(v->m->progs[k->prog], k->pc, out);
		buf_printf(out, ": core%s ", count == 1 ? "" : "s");
		group_cores(k, count, out);
		buf_printf(out, "\n");
	}
	free(groups);
	free(keys);
	return more;
}

const char *
session_status_name(int status)
{
	switch (status) {
	case CORE_RUNNING: return "running";
	case CORE_HALTED:  return "halted";
	case CORE_ERROR:   return "faulted";
	case CORE_WAITING: return "waiting";
	case CORE_JOINING: return "joining";
	}
	return "?";
}
