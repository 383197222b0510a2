/*
 * What a core holds, read through the session (see session.h): the
 * level, engine, microprogram and level state it runs under, its
 * program and debug names, its method, memory read and written through
 * the engine, its output drained to the front end, a PC described and an
 * instruction named, and the frame at an LV.  Below the rest of the
 * session (session.c, session-level.c, session-view.c) and the commands,
 * which all read through it; it calls none of them.
 *
 * Memory is always read through the engine, never from the host arrays,
 * because only the engine knows whether they are current.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dbg.h"
#include "history.h"
#include "ijvm.h"

const struct program *
session_prog(const struct session *s, uint32_t core)
{
	return s->m.progs[s->m.cores[core].prog];
}

uint32_t
session_prog_core(const struct session *s, uint16_t prog)
{
	for (uint32_t c = 0; c < s->m.cfg.ncores; c++)
		if (s->m.cores[c].prog == prog)
			return c;
	return 0;
}

const struct dsym *
session_dsym(const struct session *s, uint32_t core)
{
	return &s->dsyms[s->m.cores[core].prog];
}

const char *
session_method_name(const struct session *s, uint32_t core, int32_t pc)
{
	return places_method_name(session_prog(s, core), pc);
}

const struct dsym_method *
session_method_at(const struct session *s, uint32_t core, int32_t pc)
{
	const char *name = session_method_name(s, core, pc);

	return name ? dsym_method(session_dsym(s, core), name) : NULL;
}

int
session_read(struct session *s, uint32_t core, int32_t addr, uint32_t n,
    int32_t *out, char **cause)
{
	return s->e.ops->read_words(&s->e, core, addr, n, out, cause);
}

int
session_write(struct session *s, uint32_t core, int32_t addr, int32_t val,
    char **cause)
{
	if (s->e.ops->write_word(&s->e, core, addr, val, cause) != 0)
		return -1;
	s->dirty = 1;
	history_forget(s, "set var");
	return 0;
}

int
session_array_len(struct session *s, uint32_t core, int32_t ref,
    int32_t *len, char **cause)
{
	int32_t hdr[MM_ARRAY_HDR], end = MM_HEAP_BASE +
	    (int32_t)s->m.cfg.heap_words;

	if (ref >= MM_HEAP_BASE && ref <= end - MM_ARRAY_HDR &&
	    session_read(s, core, ref, MM_ARRAY_HDR, hdr, cause) != 0)
		return -1;
	if (ref < MM_HEAP_BASE || ref > end - MM_ARRAY_HDR ||
	    hdr[0] != MM_ARRAY_TAG || hdr[1] < 0 ||
	    hdr[1] > end - ref - MM_ARRAY_HDR) {
		*cause = xasprintf("0x%x is not an array reference (info heap "
		    "lists the arrays)", (uint32_t)ref);
		return -1;
	}
	*len = hdr[1];
	return 0;
}

void
session_drain_output(struct session *s)
{
	for (uint32_t c = 0; c < s->m.cfg.ncores; c++) {
		struct buf *b = &s->m.io[c].out;
		size_t shown;

		if (b->len == 0)
			continue;
		/* after going back, what was shown once is not news */
		shown = history_output(s->hist, c, b->len);
		if (s->cfg.output != NULL && shown < b->len)
			s->cfg.output(s->cfg.output_arg, c, b->data + shown,
			    b->len - shown);
		b->len = 0;
	}
}

void
session_describe_pc(const struct session *s, uint32_t core, int32_t pc,
    struct buf *out)
{
	places_describe_pc(session_prog(s, core), pc, out);
}

int
session_insn(const struct session *s, uint32_t core, int32_t pc, char *text,
    size_t size)
{
	return dsym_insn(session_prog(s, core), session_dsym(s, core), pc, text,
	    size);
}

static int
in_stack(const struct session *s, int64_t a)
{
	return a >= MM_STACK_BASE &&
	    a < MM_STACK_BASE + (int64_t)s->m.cfg.stack_words;
}

int
session_frame(struct session *s, uint32_t core, int32_t lv, int32_t *nlocals,
    int32_t *link, char **cause)
{
	int32_t l = 0;

	if (lv == MM_STACK_BASE) {
		*nlocals = (int32_t)session_prog(s, core)->main_nlocals;
		*link = -1;
		return 0;
	}
	if (in_stack(s, lv) &&
	    session_read(s, core, lv, 1, &l, cause) != 0)
		return -1;
	if (!in_stack(s, lv) || !in_stack(s, l) ||
	    !in_stack(s, (int64_t)l + 1) || l < lv) {
		*cause = xasprintf("core %u: the frame at LV 0x%x is corrupted "
		    "(its link pointer leaves the stack)", core, (uint32_t)lv);
		return -1;
	}
	*nlocals = l - lv;
	*link = l;
	return 0;
}

enum level
session_level(const struct session *s)
{
	return s->level;
}

struct engine *
session_engine(struct session *s)
{
	return &s->e;
}

const struct microcode *
session_microcode(const struct session *s, enum level level)
{
	if ((unsigned)level >= NLEVEL || level == LEVEL_ISA ||
	    !s->mc[level].loaded)
		return NULL;
	return &s->mc[level];
}

/* Every engine of a micro level keeps the level's state on the host
 * (engine.h level_state); the op is not const-qualified, it only reads. */
static void *
level_state(const struct session *s, enum level level)
{
	struct engine *e = (struct engine *)(uintptr_t)&s->e;

	if (s->level != level || !s->have_engine ||
	    e->ops->level != level || e->ops->level_state == NULL)
		return NULL;
	return e->ops->level_state(e);
}

const void *
session_level_state(const struct session *s)
{
	return level_state(s, LEVEL_MIC);
}

const struct pmic_state *
session_pmic_state(const struct session *s)
{
	return level_state(s, LEVEL_PMIC);
}
