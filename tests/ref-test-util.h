/*
 * What the reference interpreter's unit tests (test-ref.c, instruction
 * semantics and frames; test-ref-faults.c, faults; test-ref-many.c, many
 * cores) share: programs built by hand as byte arrays (T(...)) so that
 * the tests depend on neither the assembler nor the loader, a fixture
 * that copies the text and pool into exact-size heap blocks so that the
 * sanitizers catch any read past text_size or cp_size, and the checks
 * that step core 0.
 *
 * Fault cases run a program one instruction at a time with a snapshot
 * of the core, its stack region, the globals, the heap and the output
 * taken before each instruction: at the fault, everything must equal the
 * last snapshot except status, fault, fault_pc, fault_op and steps + 1.
 *
 * Every function is static inline: each test program includes this file
 * once and uses only some of them.
 */
#ifndef MICDB_REF_TEST_UTIL_H
#define MICDB_REF_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ijvm.h"
#include "machine.h"
#include "memmap.h"
#include "ref.h"
#include "tap.h"

/* A program text as (bytes, length) arguments. */
#define T(...) (const uint8_t[]){ __VA_ARGS__ }, \
	sizeof((const uint8_t[]){ __VA_ARGS__ })
/* A big-endian 16-bit operand (branch offset, index). */
#define W16(x) (uint8_t)((uint16_t)(x) >> 8), (uint8_t)(uint16_t)(x)
/* A negative byte operand. */
#define NB(x) (uint8_t)(x)

#define BASE MM_STACK_BASE

/* Fixture options; 0 means the default. */
struct opts {
	uint32_t	 ncores;       /* 1 */
	uint32_t	 stack_words;  /* 64 */
	uint32_t	 heap_words;   /* 256 */
	uint32_t	 nlocals;      /* 4 */
	const int32_t	*cp;
	size_t		 ncp;
};

struct fix {
	struct program		 prog;
	const struct program	*progs[1];
	struct machine		 m;
};

static inline void
prog_init(struct program *p, const uint8_t *text, size_t n,
    const int32_t *cp, size_t ncp, uint32_t nlocals)
{
	memset(p, 0, sizeof *p);
	p->path = xstrdup("test");
	p->text = xmalloc(n);
	if (n)
		memcpy(p->text, text, n);
	p->text_size = (uint32_t)n;
	p->cp = xmalloc(ncp * sizeof *cp);
	if (ncp)
		memcpy(p->cp, cp, ncp * sizeof *cp);
	p->cp_size = (uint32_t)ncp;
	p->main_nlocals = nlocals;
}

static inline void
prog_fini(struct program *p)
{
	free(p->path);
	free(p->text);
	free(p->cp);
}

static inline void
setup(struct fix *f, const uint8_t *text, size_t n, struct opts o)
{
	struct machine_config cfg = {
		.ncores = o.ncores ? o.ncores : 1,
		.stack_words = o.stack_words ? o.stack_words : 64,
		.heap_words = o.heap_words ? o.heap_words : 256,
		.warp_width = 32,
	};
	char *cause = NULL;

	prog_init(&f->prog, text, n, o.cp, o.ncp, o.nlocals ? o.nlocals : 4);
	f->progs[0] = &f->prog;
	if (machine_init(&f->m, &cfg, f->progs, 1, NULL, &cause) != 0) {
		printf("Bail out! machine_init: %s\n", cause);
		exit(1);
	}
}

static inline void
teardown(struct fix *f)
{
	machine_free(&f->m);
	prog_fini(&f->prog);
}

static inline int32_t
mem(struct fix *f, uint32_t core, int32_t addr)
{
	return *machine_stack_word(&f->m, core, addr);
}

/* Run up to n instructions on core 0; 1 if TOS == mem[SP] after each. */
static inline int
run_n(struct fix *f, int n)
{
	struct core *c = &f->m.cores[0];
	int i, good = 1;

	for (i = 0; i < n && c->status == CORE_RUNNING; i++) {
		ref_exec(&f->m, 0);
		if (c->status != CORE_ERROR && c->tos != mem(f, 0, c->sp))
			good = 0;
	}
	return good;
}

/* One instruction on core 0, then pc, sp and tos (== mem[sp]). */
static inline void
step_check(struct fix *f, int32_t pc, int32_t sp, int32_t tos,
    const char *what)
{
	struct core *c = &f->m.cores[0];
	int r = ref_exec(&f->m, 0);
	int good = r == 1 && c->status != CORE_ERROR && c->pc == pc &&
	    c->sp == sp && c->tos == tos && mem(f, 0, c->sp) == tos;

	if (!ok(good, "%s", what))
		tap_diag("status %d fault %d pc %d sp %#x tos %d mem[sp] %d",
		    c->status, c->fault, c->pc, (unsigned)c->sp, c->tos,
		    mem(f, 0, c->sp));
}

/* Fault names from faults.def (ijvm.c is not linked into this test). */
static inline const char *
fault_sym(int fault)
{
	switch (fault) {
#define FAULT(sym, code, msg) case code: return #sym;
#include "faults.def"
#undef FAULT
	}
	return "?";
}

/* ---- snapshots for the unchanged-on-fault guarantee ---- */

struct snap {
	struct core	 c;
	int32_t		*stack;
	int32_t		*globals;
	int32_t		*heap;
	uint32_t	 heap_top;
	size_t		 out_len;
	size_t		 in_pos;
};

static inline void
snap_take(struct snap *s, struct machine *m, uint32_t core)
{
	size_t sw = m->cfg.stack_words, hw = m->cfg.heap_words;

	if (s->stack == NULL) {
		s->stack = xcalloc(sw, sizeof(int32_t));
		s->globals = xcalloc(MM_GLOBALS_WORDS, sizeof(int32_t));
		s->heap = xcalloc(hw ? hw : 1, sizeof(int32_t));
	}
	s->c = m->cores[core];
	memcpy(s->stack, machine_stack_word(m, core, BASE), sw * 4);
	memcpy(s->globals, m->globals, MM_GLOBALS_WORDS * 4);
	memcpy(s->heap, m->heap, hw * 4);
	s->heap_top = m->heap_top;
	s->out_len = m->io[core].out.len;
	s->in_pos = m->io[core].in_pos;
}

static inline void
snap_free(struct snap *s)
{
	free(s->stack);
	free(s->globals);
	free(s->heap);
}

/* Everything but status/fault/fault_pc/fault_op as in the snapshot, and
 * exactly one more step. */
static inline int
snap_unchanged(const struct snap *s, struct machine *m, uint32_t core)
{
	const struct core *a = &s->c, *b = &m->cores[core];
	int good = 1;

#define SAME(field) do { if (a->field != b->field) { \
	tap_diag(#field " changed: %lld -> %lld", (long long)a->field, \
	    (long long)b->field); good = 0; } } while (0)
	SAME(pc); SAME(sp); SAME(lv); SAME(cpp); SAME(tos); SAME(opc);
	SAME(h); SAME(mar); SAME(mdr); SAME(mbr); SAME(mpc); SAME(n);
	SAME(z); SAME(prog); SAME(cycles);
#undef SAME
	if (b->steps != a->steps + 1) {
		tap_diag("steps %llu, want %llu", (unsigned long long)b->steps,
		    (unsigned long long)a->steps + 1);
		good = 0;
	}
	if (memcmp(s->stack, machine_stack_word(m, core, BASE),
	    m->cfg.stack_words * 4) != 0) {
		tap_diag("stack region changed");
		good = 0;
	}
	if (memcmp(s->globals, m->globals, MM_GLOBALS_WORDS * 4) != 0 ||
	    memcmp(s->heap, m->heap, (size_t)m->cfg.heap_words * 4) != 0 ||
	    s->heap_top != m->heap_top) {
		tap_diag("globals or heap changed");
		good = 0;
	}
	if (s->out_len != m->io[core].out.len ||
	    s->in_pos != m->io[core].in_pos) {
		tap_diag("i/o changed");
		good = 0;
	}
	return good;
}

/* Run core 0 until it stops; check the fault and that the faulting
 * instruction changed nothing. */
static inline void
run_fault(struct fix *f, int fault, int32_t fault_pc, int fault_op,
    const char *name)
{
	struct core *c = &f->m.cores[0];
	struct snap s = { 0 };
	int i;

	for (i = 0; i < 10000 && c->status == CORE_RUNNING; i++) {
		snap_take(&s, &f->m, 0);
		ref_exec(&f->m, 0);
	}
	if (!ok(c->status == CORE_ERROR && c->fault == fault &&
	    c->fault_pc == fault_pc && c->fault_op == fault_op,
	    "%s: fault %s at %d", name, fault_sym(fault),
	    fault_pc))
		tap_diag("status %d fault %d fault_pc %d fault_op %#x",
		    c->status, c->fault, c->fault_pc, c->fault_op);
	ok(s.stack != NULL && snap_unchanged(&s, &f->m, 0),
	    "%s: state unchanged", name);
	snap_free(&s);
}

static inline void
fault_case(const char *name, const uint8_t *text, size_t n, struct opts o,
    int fault, int32_t fault_pc, int fault_op)
{
	struct fix f;

	setup(&f, text, n, o);
	run_fault(&f, fault, fault_pc, fault_op, name);
	teardown(&f);
}

#endif
