/*
 * Levels in a session (doc/mic1.md section 5): which engine runs the
 * machine, the switch between the ISA level and the micro levels, and
 * how a micro-level core is described (its MPC, the instruction it is
 * inside).
 *
 * Both levels share one architectural state, the machine (struct
 * machine): a switch syncs the old engine's memory into it, frees the
 * old engine and opens one of the new level over the same machine (the
 * factory of levels.h).  Entering a micro level puts every core that
 * has run at its instruction boundary (the engine does it: mic1_enter);
 * a core that has not run yet stays at the start of main, which at a
 * micro level is the microprogram's start state (MPC 0, PC -1).
 * Leaving needs every running core at a boundary, because the ISA level
 * has no place for a half-executed instruction; the cores inside one
 * are first run alone, micro-cycle by micro-cycle, to their next
 * boundary (to_boundary), and a core still in the micro start state is
 * simply at the start of main (PC 0).  Memory is authoritative: TOS is
 * taken from mem[SP] on the way out, as mic1_leave does.
 *
 * A switch never loses the machine: if the new level's engine cannot be
 * opened, the old level's engine is opened again over the unchanged
 * state.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "history.h"
#include "ijvm.h"
#include "micro-sim.h"

/* Micro-cycles a core may take to reach its next boundary before the
 * switch gives up (a looping student microprogram). */
#define BOUNDARY_CYCLES 100000

int
session_load_microcode(struct session *s, enum level level,
    const struct microcode **out, char **cause)
{
	struct microcode *mc = &s->mc[level];

	if (!mc->loaded && microcode_load(mc, level, s->cfg.microcode[level],
	    cause) != 0)
		return -1;
	*out = mc;
	return 0;
}

int
session_open_engine(struct session *s, char **cause)
{
	const struct microcode *mc = NULL;

	if (s->level == LEVEL_ISA && s->cfg.make_engine != NULL)
		return s->cfg.make_engine(s->cfg.engine_arg, &s->e, &s->m,
		    cause);
	if (s->level != LEVEL_ISA &&
	    session_load_microcode(s, s->level, &mc, cause) != 0)
		return -1;
	return level_engine_open(&s->e, &s->m, s->level, s->cfg.engine,
	    s->cfg.device, s->cfg.threads, mc, cause);
}

int
session_at_boundary(struct session *s, uint32_t core)
{
	if (s->level == LEVEL_ISA || s->e.ops->at_boundary == NULL)
		return 1;
	return s->e.ops->at_boundary(&s->e, core);
}

void
session_places(const struct session *s, struct places *v)
{
	v->m = &s->m;
	v->level = s->level;
	v->level_state = s->level == LEVEL_PMIC ?
	    (const void *)session_pmic_state(s) : s->level == LEVEL_MIC ?
	    session_level_state(s) : NULL;
	v->at_bp = s->at_bp;
	v->focus = s->focus;
}

int32_t
session_core_pc(const struct session *s, uint32_t core)
{
	struct places v;

	session_places(s, &v);
	return places_core_pc(&v, core);
}

int32_t
session_insn_pc(const struct session *s, uint32_t core)
{
	struct places v;

	session_places(s, &v);
	return places_insn_pc(&v, core);
}

static const struct mal_syms *
level_syms(const struct session *s)
{
	enum level l = s->level == LEVEL_ISA ? LEVEL_MIC : s->level;

	return s->mc[l].loaded ? &s->mc[l].syms : NULL;
}

void
session_describe_mpc(const struct session *s, uint32_t mpc, struct buf *out)
{
	const struct mal_syms *syms = level_syms(s);
	const struct mal_sym *sym, *lab = NULL;
	uint32_t off = 0;

	buf_printf(out, "0x%03x", mpc);
	if (syms == NULL || (sym = mal_syms_at(syms, mpc)) == NULL)
		return;
	if (sym->is_default) {
		lab = sym;
	} else if (sym->label != NULL) {
		lab = sym;
	} else {
		/* the nearest label above it in the source: label+words */
		for (size_t i = 0; i < syms->n; i++) {
			const struct mal_sym *t = &syms->sym[i];

			if (t->label != NULL && !t->is_default &&
			    t->line < sym->line &&
			    (lab == NULL || t->line > lab->line))
				lab = t;
		}
		for (size_t i = 0; lab != NULL && i < syms->n; i++)
			if (!syms->sym[i].is_default &&
			    syms->sym[i].line > lab->line &&
			    syms->sym[i].line <= sym->line)
				off++;
	}
	buf_printf(out, " (");
	if (lab != NULL && sym->is_default)
		buf_printf(out, ".default, ");
	else if (lab != NULL && off > 0)
		buf_printf(out, "%s+%u, ", lab->label, off);
	else if (lab != NULL)
		buf_printf(out, "%s, ", lab->label);
	buf_printf(out, "%s:%u)", syms->file ? loc_file_name(syms->file) : "?",
	    sym->line);
}

/* The MAL text of the word at mpc: the source's, else disassembled. */
static void
mpc_text(const struct session *s, uint32_t mpc, char *text, size_t size)
{
	const struct mal_syms *syms = level_syms(s);
	const struct mal_sym *sym = syms ? mal_syms_at(syms, mpc) : NULL;
	enum level l = s->level == LEVEL_ISA ? LEVEL_MIC : s->level;

	if (sym != NULL && sym->text != NULL)
		snprintf(text, size, "%s", sym->text);
	else if (l == LEVEL_MIC && s->mc[l].loaded &&
	    mpc < MIC1_STORE_WORDS && s->mc[l].cs.present[mpc])
		mic1_disasm(s->mc[l].cs.word[mpc], text, size);
	else if (l == LEVEL_PMIC && s->mc[l].loaded &&
	    pmic_present(&s->mc[l].pcs, mpc))
		/* a .pmic without its symbols: the word, disassembled
		 * as the microcode pane shows it */
		pmic_disasm(&s->mc[l].pcs.mi[mpc], text, size);
	else
		snprintf(text, size, "(no micro-instruction)");
}

void
session_where_micro(struct session *s, uint32_t core, struct buf *out)
{
	const struct core *c = &s->m.cores[core];
	int32_t pc = session_core_pc(s, core);
	char text[160];

	buf_printf(out, "core %u", core);
	if (c->status == CORE_ERROR)
		buf_printf(out, " (faulted: %s)", ijvm_fault_message(c->fault));
	else if (c->status != CORE_RUNNING)
		buf_printf(out, " (%s)", session_status_name(c->status));
	buf_printf(out, " at MPC ");
	session_describe_mpc(s, c->mpc, out);
	mpc_text(s, c->mpc, text, sizeof text);
	buf_printf(out, ": %s\n", text);
	buf_printf(out, "  %s ", c->status == CORE_RUNNING &&
	    session_at_boundary(s, core) ? "next instruction" : "in");
	session_describe_pc(s, core, pc, out);
	if (session_insn(s, core, pc, text, sizeof text) > 0)
		buf_printf(out, ": %s", text);
	buf_printf(out, "\n");
}

/* Cores that can run and are inside an instruction. */
static uint32_t
cores_inside(struct session *s, uint8_t *mask, uint32_t *first)
{
	uint32_t n = 0;

	for (uint32_t c = 0; c < s->m.cfg.ncores; c++) {
		const struct core *k = &s->m.cores[c];
		int in = (k->status == CORE_RUNNING ||
		    k->status == CORE_WAITING) && !micro_start_state(k) &&
		    !session_at_boundary(s, c);

		if (mask != NULL)
			mask[c] = (uint8_t)in;
		if (in && n++ == 0 && first != NULL)
			*first = c;
	}
	return n;
}

uint32_t
session_cores_inside(const struct session *s)
{
	/* at_boundary only reads: the engine op is not const-qualified */
	if (s->level == LEVEL_ISA)
		return 0;
	return cores_inside((struct session *)s, NULL, NULL);
}

/* Run the cores inside an instruction, alone, to their next boundary. */
static int
run_to_boundary(struct session *s, struct buf *out, char **cause)
{
	uint32_t n = s->m.cfg.ncores, left;
	uint8_t *mask = xcalloc(n, 1);
	uint64_t cycles = 0;
	int rc = 0;

	left = cores_inside(s, mask, NULL);
	while (left > 0) {
		struct engine_run er;
		struct engine_stop st;

		if (cycles++ >= BOUNDARY_CYCLES) {
			*cause = xasprintf("%u core%s did not reach an instruction "
			    "boundary within %d micro-cycles (does the "
			    "microprogram loop?): still at the %s level",
			    left, left == 1 ? "" : "s", BOUNDARY_CYCLES,
			    level_name(s->level));
			rc = -1;
			break;
		}
		memset(&er, 0, sizeof er);
		er.max_steps = 1;
		er.stop_on_fault = 1;
		er.mask = mask;
		er.interrupt = &s->interrupt;
		if (s->e.ops->run(&s->e, &er, &st, cause) != 0) {
			rc = -1;
			break;
		}
		if (st.reason == STOP_INTERRUPT) {
			s->interrupt = 0;
			*cause = xasprintf("interrupted on the way to the "
			    "instruction boundary: still at the %s level",
			    level_name(s->level));
			rc = -1;
			break;
		}
		s->dirty = 1;
		session_drain_output(s);
		if (st.reason == STOP_FAULT && out != NULL)
			for (size_t i = 0; i < st.ncores; i++) {
				const struct core *k = &s->m.cores[st.cores[i]];

				buf_printf(out, "core %u faulted on the way to "
				    "its instruction boundary: %s at ",
				    st.cores[i], ijvm_fault_message(k->fault));
				session_describe_pc(s, st.cores[i], k->fault_pc,
				    out);
				buf_printf(out, "\n");
			}
		if (st.reason == STOP_DONE || st.reason == STOP_DEADLOCK)
			break;
		left = 0;
		for (uint32_t c = 0; c < n; c++) {
			const struct core *k = &s->m.cores[c];

			if (!mask[c])
				continue;
			if ((k->status != CORE_RUNNING &&
			    k->status != CORE_WAITING) ||
			    session_at_boundary(s, c))
				mask[c] = 0;
			else
				left++;
		}
	}
	free(mask);
	if (rc == 0 && (left = cores_inside(s, NULL, NULL)) > 0) {
		*cause = xasprintf("%u core%s cannot reach an instruction "
		    "boundary (a barrier waits for cores that are not inside "
		    "an instruction): continue first", left,
		    left == 1 ? "" : "s");
		rc = -1;
	}
	return rc;
}

/* Replace the engine by one of level; on failure reopen the old one. */
static int
reopen(struct session *s, enum level level, char **cause)
{
	enum level old = s->level;
	char *again = NULL;

	if (s->e.ops->sync_memory(&s->e, cause) != 0)
		return -1;
	engine_free(&s->e);
	s->have_engine = 0;
	s->level = level;
	if (session_open_engine(s, cause) == 0) {
		s->have_engine = 1;
		return 0;
	}
	s->level = old;
	if (session_open_engine(s, &again) != 0) {
		/* the machine is intact; only a run can make an engine */
		char *both = xasprintf("%s; and the %s engine could not be "
		    "opened again: %s", *cause, level_name(old), again);

		free(*cause);
		free(again);
		*cause = both;
		return -1;
	}
	s->have_engine = 1;
	return -1;
}

int
session_switch_level(struct session *s, enum level level, int to_boundary,
    struct buf *out, char **cause)
{
	const struct microcode *mc;
	uint32_t first = 0, n;

	if (s->running) {
		*cause = xasprintf("the machine is running: wait for it to stop "
		    "or interrupt it");
		return -1;
	}
	if ((unsigned)level >= NLEVEL) {
		*cause = xasprintf("no such level (use isa, mic or pmic)");
		return -1;
	}
	if (level == s->level)
		return 0;
	/* steps at another level are not the recorded ones */
	history_forget(s, "set level");
	if (!s->have_engine) {
		*cause = xasprintf("no engine runs the machine (run starts it "
		    "again)");
		return -1;
	}
	if (level != LEVEL_ISA &&
	    session_load_microcode(s, level, &mc, cause) != 0)
		return -1;
	if (s->level != LEVEL_ISA) {
		/* leaving a micro level: every running core at a boundary */
		if ((n = cores_inside(s, NULL, &first)) > 0) {
			if (!to_boundary) {
				*cause = xasprintf("%u core%s %s inside an "
				    "instruction (core %u at MPC 0x%03x): run "
				    "%s to the next instruction boundary first",
				    n, n == 1 ? "" : "s", n == 1 ? "is" : "are",
				    first, (unsigned)s->m.cores[first].mpc,
				    n == 1 ? "it" : "them");
				return -1;
			}
			if (run_to_boundary(s, out, cause) != 0)
				return -1;
		}
		for (uint32_t c = 0; c < s->m.cfg.ncores; c++) {
			struct core *k = &s->m.cores[c];
			int32_t tos;
			char *err = NULL;

			if (micro_start_state(k)) {
				k->pc = 0;	/* main's first opcode */
				k->mpc = 0;
			}
			if (session_read(s, c, k->sp, 1, &tos, &err) == 0)
				k->tos = tos;
			free(err);
		}
	}
	if (reopen(s, level, cause) != 0)
		return -1;
	session_trace_mark(s, "level %s", level_name(level));
	s->list_next = -1;
	s->list_first = -1;
	if (level == LEVEL_MIC && !s->told_mic1) {
		buf_printf(out, "%s\n", session_mic1_note);
		s->told_mic1 = 1;
	}
	return 0;
}

/* Once a session: what the ISA level checks and Mic-1 cannot (the
 * fault rule of doc/ijvm.md section 3). */
const char session_mic1_note[] =
    "note: at the Mic-1 level the microprogram does not check operand-stack "
    "underflow (except IRETURN in main) or local variable indices: the "
    "textbook's 512-word control store has no room for those checks; a "
    "program that breaks them runs on inside its stack region until it "
    "leaves it, and then the machine faults it";

int
session_set_level(struct session *s, enum level level, int to_boundary,
    char **cause)
{
	struct buf out = { 0 };
	int rc;

	s->gen++;
	rc = session_switch_level(s, level, to_boundary, &out, cause);
	buf_free(&out);
	return rc;
}

int
session_told_mic1(const struct session *s)
{
	return s->told_mic1;
}
