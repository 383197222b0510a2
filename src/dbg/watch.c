/*
 * Watchpoints: a global, a heap word, or a local of one core's frame.
 * An engine that watches itself (ops->watch: the native engines) stops
 * after the step that changed a watched word and names that step's
 * writers (resume.c).  With any other engine, while a watchpoint is
 * enabled the run goes one global step per engine call; before each step watch_prepare notes which cores are about to store to
 * a watched word (PUTSTATIC/ATOMICADD to a global slot, IASTORE to a heap
 * element, NEWARRAY anywhere in the heap, any store of the watching core
 * to its own stack), and after it watch_check reads the watched words
 * through the engine and reports the ones that changed, naming those
 * cores.  A local watchpoint ends, and stops the run, when the frame it
 * belongs to returns (its core's LV drops below the frame's), as gdb's
 * do when their scope ends.
 *
 * At a micro level a store is a micro-instruction with WRITE, whose
 * address is MAR after the C bus: unknown before the cycle, but still in
 * MAR after it.  So there the writers are found after the step, from the
 * micro-instruction each core executed (mic1_state's MIR) and its MAR:
 * mic1_writers, which the native micro engine calls too.
 *
 * Run control (resume.c) calls watch_prepare, watch_micro_writers and
 * watch_check; this file
 * does not call it back: the stop's core list is hit.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "ijvm.h"
#include "mic1.h"


static void
add_writer(struct session *s, uint32_t core, int32_t pc, int32_t addr)
{
	engine_writer_add(&s->writers, &s->nwriters, &s->capwriters, core,
	    pc, addr);
}

int
watch_value(struct session *s, const struct bp *b, int32_t *v, char **cause)
{
	return session_read(s, b->wkind == WATCH_LOCAL ? b->wcore : 0,
	    b->waddr, 1, v, cause);
}

void
watch_prepare(struct session *s)
{
	int globals = 0, heap = 0;

	s->nwriters = 0;
	if (s->level != LEVEL_ISA)
		return;		/* watch_check finds them after the step */
	for (size_t i = 0; i < s->bps.n; i++) {
		const struct bp *b = &s->bps.v[i];
		const struct core *c;

		if (b->kind != BP_WATCH || !b->enabled)
			continue;
		if (b->wkind == WATCH_GLOBAL)
			globals = 1;
		else if (b->wkind == WATCH_HEAP)
			heap = 1;
		else {
			c = &s->m.cores[b->wcore];
			if (c->status == CORE_RUNNING)
				add_writer(s, b->wcore, c->pc, b->waddr);
		}
	}
	if (!globals && !heap)
		return;
	for (uint32_t k = 0; k < s->m.cfg.ncores; k++) {
		const struct core *c = &s->m.cores[k];
		const struct program *p;
		int32_t below, addr;
		const int32_t *bp = NULL;
		char *cause = NULL;

		if (c->status != CORE_RUNNING ||
		    (s->lock != LOCK_OFF && !s->lockmask[k]))
			continue;
		p = session_prog(s, k);
		if (heap && c->pc >= 0 && (uint32_t)c->pc < p->text_size &&
		    p->text[c->pc] == OP_IASTORE) {
			if (session_read(s, k, c->sp - 1, 1, &below,
			    &cause) == 0)
				bp = &below;
			free(cause);
		}
		if (engine_insn_store(p, c, bp, globals, heap, &addr))
			add_writer(s, k, c->pc, addr);
	}
}

static void
describe_watch(const struct bp *b, struct buf *out)
{
	buf_printf(out, "%s", b->what);
}

void
watch_micro_writers(struct session *s)
{
	const struct mic1_state *st = session_level_state(s);

	s->nwriters = 0;
	if (st != NULL)
		mic1_writers(st, &s->m, s->lock != LOCK_OFF ? s->lockmask :
		    NULL, &s->writers, &s->nwriters, &s->capwriters);
}

int
watch_check(struct session *s, struct buf *out)
{
	int reports = 0;
	uint32_t *del = NULL;
	size_t ndel = 0;

	for (size_t i = 0; i < s->bps.n; i++) {
		struct bp *b = &s->bps.v[i];
		uint32_t *cores;
		size_t n = 0;
		int32_t v, pc = -1;
		char *cause = NULL;

		if (b->kind != BP_WATCH || !b->enabled)
			continue;
		if (b->wkind == WATCH_LOCAL &&
		    s->m.cores[b->wcore].lv < b->wframe) {
			buf_printf(out, "watchpoint %u deleted: the frame of ",
			    b->id);
			describe_watch(b, out);
			buf_printf(out, " has returned\n");
			stop_note_cores(s, &b->wcore, 1);
			del = xreallocarray(del, ndel + 1, sizeof *del);
			del[ndel++] = b->id;
			reports++;
			continue;
		}
		if (watch_value(s, b, &v, &cause) != 0) {
			buf_printf(out, "watchpoint %u: %s\n", b->id, cause);
			free(cause);
			reports++;
			continue;
		}
		if (v == b->wvalue)
			continue;
		b->hits++;
		if (b->ignore > 0) {
			b->ignore--;
			b->wvalue = v;
			continue;
		}
		cores = xcalloc(s->nwriters + 1, sizeof *cores);
		for (size_t k = 0; k < s->nwriters; k++) {
			const struct engine_writer *w = &s->writers[k];

			if (w->addr == b->waddr || (w->addr == ENGINE_ANY_HEAP_WORD &&
			    b->wkind == WATCH_HEAP)) {
				if (n == 0)
					pc = w->pc;
				cores[n++] = w->core;
			}
		}
		buf_printf(out, "watchpoint %u: ", b->id);
		describe_watch(b, out);
		if (n > 0) {
			buf_printf(out, " changed by ");
			coreset_format_cores(out, cores, n, 8);
			if (s->m.cfg.ncores > 1)
				buf_printf(out, " [%zu of %u]", n,
				    s->m.cfg.ncores);
			buf_printf(out, " at ");
			session_describe_pc(s, cores[0], pc, out);
			buf_printf(out, "\n");
			stop_note_cores(s, cores, n);
		} else
			buf_printf(out, " changed\n");
		buf_printf(out, "  old value = %d\n  new value = %d\n",
		    b->wvalue, v);
		b->wvalue = v;
		free(cores);
		reports++;
	}
	for (size_t i = 0; i < ndel; i++)
		bp_delete(&s->bps, del[i]);
	free(del);
	return reports;
}
