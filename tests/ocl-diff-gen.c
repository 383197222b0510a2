/*
 * The differential tests' generated programs (ocl-diff-lib.h,
 * odiff_gen_program): random but well-formed IJVM assembly from a seed,
 * with loops, branches, method calls, arrays, globals, atomics, I/O
 * and the occasional fault, so that a failure can be reproduced
 * from its seed alone.  The generator is deterministic (xorshift) and
 * allocates its text with util.h's struct buf.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl-diff-lib.h"
#include "util.h"

/* A small deterministic generator (xorshift), so a failure can be
 * reproduced from its seed. */
static uint32_t
rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (uint32_t)(*st >> 16);
}

#define R(n) (rnd(st) % (n))
#define NVARS 6

static const char *const vars[NVARS] = { "a", "b", "c", "d", "e", "f" };

struct gen {
	struct buf	 b;
	uint64_t	*st;
	int		 label;
	int		 wide;       /* main has 300 locals: use w299 */
	int		 depth;
};

static void
emit(struct gen *g, const char *fmt, ...) PRINTFLIKE(2, 3);

static void
emit(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	buf_printf(&g->b, "\t%s\n", s);
	free(s);
}

/* Push one value onto the stack. */
static void
gen_push(struct gen *g)
{
	uint64_t *st = g->st;

	switch (R(7)) {
	case 0:
		emit(g, "BIPUSH %d", (int)R(256) - 128);
		break;
	case 1:
		emit(g, "LDC_W K%u", R(3));
		break;
	case 2:
		emit(g, "COREID");
		break;
	case 3:
		emit(g, "NCORES");
		break;
	case 4:
		if (g->wide) {
			emit(g, "ILOAD w299");
			break;
		}
		/* fall through */
	default:
		emit(g, "ILOAD %s", vars[R(NVARS)]);
		break;
	}
}

/* Straight-line arithmetic that leaves the stack as it found it. */
static void
gen_arith(struct gen *g)
{
	static const char *const ops[] = { "IADD", "ISUB", "IAND", "IOR" };
	uint64_t *st = g->st;

	gen_push(g);
	gen_push(g);
	switch (R(5)) {
	case 0:
		emit(g, "SWAP");
		emit(g, "POP");
		break;
	case 1:
		emit(g, "DUP");
		emit(g, "%s", ops[R(4)]);
		emit(g, "%s", ops[R(4)]);
		break;
	default:
		emit(g, "%s", ops[R(4)]);
		break;
	}
	if (g->wide && R(3) == 0)
		emit(g, "ISTORE w299");
	else
		emit(g, "ISTORE %s", vars[R(NVARS)]);
}

static void gen_block(struct gen *g, int phase);
static void gen_fault(struct gen *g);

static void
gen_loop(struct gen *g, int phase)
{
	uint64_t *st = g->st;
	int l = g->label++;

	emit(g, "BIPUSH %u", 1 + R(g->depth ? 6 : 25));
	emit(g, "ISTORE i%d", g->depth);
	buf_printf(&g->b, "L%d:\n", l);
	emit(g, "ILOAD i%d", g->depth);
	emit(g, "IFEQ E%d", l);
	g->depth++;
	for (uint32_t n = 1 + R(3); n > 0; n--)
		gen_block(g, phase);
	g->depth--;
	emit(g, "IINC i%d -1", g->depth);
	emit(g, "GOTO L%d", l);
	buf_printf(&g->b, "E%d:\n", l);
}

/* One block of main; phase 1 blocks may use the shared array. */
static void
gen_block(struct gen *g, int phase)
{
	uint64_t *st = g->st;
	int l;

	switch (R(g->depth < 2 ? 13 : 8)) {
	case 0:
	case 1:
	case 2:
		gen_arith(g);
		break;
	case 3:
		if (g->wide && R(2))
			emit(g, "IINC w299 %d", (int)R(256) - 128);
		else
			emit(g, "IINC %s %d", vars[R(NVARS)], (int)R(256) - 128);
		break;
	case 4:
		/* divergent branch on the core id */
		l = g->label++;
		emit(g, "COREID");
		emit(g, "BIPUSH %u", 1 + R(7));
		emit(g, "IAND");
		emit(g, R(2) ? "IFEQ S%d" : "IFLT S%d", l);
		gen_arith(g);
		buf_printf(&g->b, "S%d:\n", l);
		break;
	case 5:
		/* compare two values */
		l = g->label++;
		gen_push(g);
		gen_push(g);
		emit(g, "IF_ICMPEQ S%d", l);
		gen_arith(g);
		buf_printf(&g->b, "S%d:\n", l);
		break;
	case 6:
		/* a call, or a recursion of core-dependent depth */
		emit(g, "LDC_W OBJREF");
		if (R(2)) {
			gen_push(g);
			gen_push(g);
			emit(g, "INVOKEVIRTUAL f");
		} else {
			emit(g, "COREID");
			emit(g, "BIPUSH 7");
			emit(g, "IAND");
			emit(g, "INVOKEVIRTUAL rec");
		}
		emit(g, "ISTORE %s", vars[R(NVARS)]);
		break;
	case 7:
		/* print a digit */
		emit(g, "ILOAD %s", vars[R(NVARS)]);
		emit(g, "BIPUSH 7");
		emit(g, "IAND");
		emit(g, "BIPUSH 48");
		emit(g, "IADD");
		emit(g, "OUT");
		break;
	case 8:
	case 9:
		gen_loop(g, phase);
		break;
	case 10:
		if (phase == 1) {
			/* read my neighbour's element, written before the
			 * last barrier */
			emit(g, "ILOAD nb");
			emit(g, "GETSTATIC arr");
			emit(g, "IALOAD");
			emit(g, "ISTORE %s", vars[R(NVARS)]);
		} else {
			emit(g, "IN");
			emit(g, "ISTORE %s", vars[R(NVARS)]);
		}
		break;
	case 11:
		if (phase == 1 && R(2)) {
			gen_fault(g);
			break;
		}
		/* fall through */
	default:
		/* Atomics without races at any step boundary: in phase 0
		 * only core 0 adds, in phase 1 every core reads (adds 0). */
		l = g->label++;
		if (phase == 0) {
			emit(g, "ILOAD me");
			emit(g, "IFEQ A%d", l);
			emit(g, "GOTO S%d", l);
			buf_printf(&g->b, "A%d:\n", l);
			emit(g, "BIPUSH %u", R(100));
			emit(g, "ATOMICADD cnt");
			emit(g, "POP");
			buf_printf(&g->b, "S%d:\n", l);
		} else {
			emit(g, "BIPUSH 0");
			emit(g, "ATOMICADD cnt");
			emit(g, "ISTORE %s", vars[R(NVARS)]);
		}
		break;
	}
}

/* A fault on one core, sometimes. */
static void
gen_fault(struct gen *g)
{
	uint64_t *st = g->st;
	int l = g->label++;

	/* the cores whose id has some low bits set: a few, or many */
	emit(g, "COREID");
	emit(g, "BIPUSH %u", (1u << R(7)) - 1);
	emit(g, "IAND");
	emit(g, "BIPUSH %u", R(4));
	emit(g, "IF_ICMPEQ F%d", l);
	emit(g, "GOTO N%d", l);
	buf_printf(&g->b, "F%d:\n", l);
	switch (R(5)) {
	case 0:
		emit(g, "ERR");
		break;
	case 1:
		emit(g, "POP");
		emit(g, "POP");
		emit(g, "POP");
		break;
	case 2:
		emit(g, "NCORES");
		emit(g, "GETSTATIC arr");
		emit(g, "IALOAD");	/* index NCORES: out of bounds */
		break;
	case 3:
		emit(g, "BIPUSH -1");
		emit(g, "NEWARRAY");
		break;
	default:
		emit(g, "LDC_W OBJREF");
		emit(g, "BIPUSH 100");
		emit(g, "INVOKEVIRTUAL deep");	/* overflows the stack */
		break;
	}
	buf_printf(&g->b, "N%d:\n", l);
}

char *
odiff_gen_program(uint64_t seed, int wide)
{
	uint64_t state = seed * 2654435761u + 1, *st = &state;
	struct gen g = { .st = &state, .wide = wide };
	int blocks;

	buf_printf(&g.b, ".constant\nOBJREF 0xCAFE\nK0 %d\nK1 %d\nK2 %d\n"
	    ".end-constant\n.global\ncnt\narr\ng1\n.end-global\n.main\n.var\n"
	    "a b c d e f i0 i1 i2 i3 me nb\n", (int)rnd(st), -(int)R(1000),
	    (int)R(100000));
	if (wide)
		for (int i = 0; i < 300; i++)
			buf_printf(&g.b, "w%d\n", i);
	buf_printf(&g.b, ".end-var\n");
	emit(&g, "COREID");
	emit(&g, "ISTORE me");
	/* phase 0: private work; core 0 allocates the shared array */
	blocks = 3 + (int)R(8);
	for (int i = 0; i < blocks; i++)
		gen_block(&g, 0);
	emit(&g, "ILOAD me");
	emit(&g, "IFEQ ALLOC");
	emit(&g, "GOTO ALLOCATED");
	buf_printf(&g.b, "ALLOC:\n");
	emit(&g, "NCORES");
	emit(&g, "NEWARRAY");
	emit(&g, "PUTSTATIC arr");
	emit(&g, "BIPUSH %u", R(100));
	emit(&g, "PUTSTATIC g1");
	buf_printf(&g.b, "ALLOCATED:\n");
	emit(&g, "BARRIER");
	/* every core writes its element; nb = my right neighbour */
	emit(&g, "ILOAD a");
	emit(&g, "ILOAD me");
	emit(&g, "GETSTATIC arr");
	emit(&g, "IASTORE");
	emit(&g, "ILOAD me");
	emit(&g, "BIPUSH 1");
	emit(&g, "IADD");
	emit(&g, "DUP");
	emit(&g, "ISTORE nb");
	emit(&g, "NCORES");
	emit(&g, "IF_ICMPEQ WRAP");
	emit(&g, "GOTO WRAPPED");
	buf_printf(&g.b, "WRAP:\n");
	emit(&g, "BIPUSH 0");
	emit(&g, "ISTORE nb");
	buf_printf(&g.b, "WRAPPED:\n");
	emit(&g, "BARRIER");
	emit(&g, "GETSTATIC g1");
	emit(&g, "ISTORE b");
	if (R(3) == 0)
		gen_fault(&g);
	blocks = 3 + (int)R(8);
	for (int i = 0; i < blocks; i++)
		gen_block(&g, 1);
	emit(&g, "BARRIER");
	emit(&g, "GETSTATIC cnt");
	emit(&g, "ISTORE c");
	if (R(3) == 0)
		gen_fault(&g);
	emit(&g, "BIPUSH 10");
	emit(&g, "OUT");
	emit(&g, "HALT");
	buf_printf(&g.b, ".end-main\n\n");
	/* f(x, y): straight-line arithmetic on its arguments */
	buf_printf(&g.b, ".method f(x, y)\n.var\nt\n.end-var\n");
	emit(&g, "ILOAD x");
	emit(&g, "ILOAD y");
	emit(&g, R(2) ? "IADD" : "ISUB");
	emit(&g, "ISTORE t");
	emit(&g, "IINC t %d", (int)R(100));
	emit(&g, "ILOAD t");
	emit(&g, "ILOAD x");
	emit(&g, "IOR");
	emit(&g, "IRETURN");
	buf_printf(&g.b, ".end-method\n\n");
	/* rec(n) = n + rec(n - 1), rec(0) = 0 */
	buf_printf(&g.b, ".method rec(n)\n");
	emit(&g, "ILOAD n");
	emit(&g, "IFEQ ZERO");
	emit(&g, "LDC_W OBJREF");
	emit(&g, "ILOAD n");
	emit(&g, "BIPUSH 1");
	emit(&g, "ISUB");
	emit(&g, "INVOKEVIRTUAL rec");
	emit(&g, "ILOAD n");
	emit(&g, "IADD");
	emit(&g, "IRETURN");
	buf_printf(&g.b, "ZERO:\n");
	emit(&g, "BIPUSH 0");
	emit(&g, "IRETURN");
	buf_printf(&g.b, ".end-method\n\n");
	/* deep(n): recursion with big frames, for stack overflows */
	buf_printf(&g.b, ".method deep(n)\n.var\n");
	for (int i = 0; i < 20; i++)
		buf_printf(&g.b, "x%d\n", i);
	buf_printf(&g.b, ".end-var\n");
	emit(&g, "LDC_W OBJREF");
	emit(&g, "ILOAD n");
	emit(&g, "INVOKEVIRTUAL deep");
	emit(&g, "IRETURN");
	buf_printf(&g.b, ".end-method\n");
	buf_put_u8(&g.b, 0);
	return (char *)g.b.data;
}
