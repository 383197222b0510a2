/*
 * test-native.c's generated programs: racy many-core ISA programs (spin
 * loops on flags, racing array references, atomics, barriers, early
 * halts, faults, input and output) that the native engines' run-ahead
 * windows must run in the reference's exact order: at the ISA level
 * instruction by instruction, at the micro levels (through each pass's
 * microprogram) micro-cycle by micro-cycle.  Included once by
 * test-native.c after the helpers it uses (doc/manycore.md section 4).
 */
#ifndef MICDB_TEST_NATIVE_GEN_H
#define MICDB_TEST_NATIVE_GEN_H

/* Point the branch at at to target. */
static void
gen_patch(struct buf *b, uint32_t at, uint32_t target)
{
	uint16_t off = (uint16_t)(target - at);

	b->data[at + 1] = (uint8_t)(off >> 8);
	b->data[at + 2] = (uint8_t)off;
}

/* A branch back to target. */
static void
gen_jump(struct buf *b, int op, uint32_t target)
{
	uint32_t at = (uint32_t)b->len;

	buf_put_u8(b, (uint8_t)op);
	buf_put_be16(b, 0);
	gen_patch(b, at, target);
}

/*
 * A generated racy program (seed): every core loops over random blocks
 * that mix private arithmetic, branches on its own running value (so
 * the cores drift apart by data they read from each other), and shared
 * accesses: globals written, read and added to atomically, one array
 * every core allocates and stores its reference to (racy), console
 * output and input, barriers and early halts.  A wrong interleaving of
 * the shared accesses shows in the registers, memory or output.
 * Labels at the blocks give test_bps its breakpoints.
 */
static void
gen_subject(struct subject *g, uint64_t seed, int barriers)
{
	struct program *q;
	struct buf b = { 0 };
	uint64_t seed0 = seed;
	uint32_t loop, at, nb = 3 + rnd(&seed) % 6;

#define E1(x)		buf_put_u8(&b, (uint8_t)(x))
#define E2(x, y)	(E1(x), E1(y))
#define E3(x, y)	(E1(x), buf_put_be16(&b, (uint16_t)(y)))
	memset(g, 0, sizeof *g);
	g->name = xasprintf("generated~%llu%s", (unsigned long long)seed0,
	    barriers ? "+barriers" : "");
	g->progs = xcalloc(1, sizeof *g->progs);
	g->nprogs = 1;
	q = &g->progs[0];
	q->labels = xcalloc(nb + 1, sizeof *q->labels);
	/* each core's array, racing for global 7; local 2 its value */
	E2(OP_BIPUSH, 8), E1(OP_NEWARRAY), E3(OP_PUTSTATIC, 7);
	E2(OP_BIPUSH, 20 + rnd(&seed) % 40), E2(OP_ISTORE, 1);
	E1(OP_COREID), E2(OP_ISTORE, 2);
	loop = (uint32_t)b.len;
	for (uint32_t k = 0; k < nb; k++) {
		uint32_t g1 = rnd(&seed) % 4, c = rnd(&seed) % 100;

		q->labels[q->nlabels].addr = (uint32_t)b.len;
		q->labels[q->nlabels++].name = xasprintf("main#b%u", k);
		switch (rnd(&seed) % (barriers ? 12 : 11)) {
		case 0:		/* a private run as long as the value says */
			E2(OP_ILOAD, 2), E2(OP_BIPUSH, 1 + c % 7), E1(OP_IAND);
			at = (uint32_t)b.len;
			E3(OP_IFEQ, 0);
			for (uint32_t i = 0; i < 1 + c % 9; i++)
				E2(OP_ILOAD, 2), E2(OP_BIPUSH, c), E1(OP_IADD),
				    E2(OP_ISTORE, 2);
			gen_patch(&b, at, (uint32_t)b.len);
			break;
		case 1:
			E2(OP_ILOAD, 2), E3(OP_PUTSTATIC, g1);
			break;
		case 2:
			E3(OP_GETSTATIC, g1), E2(OP_ILOAD, 2), E1(OP_IADD),
			    E2(OP_ISTORE, 2);
			break;
		case 3:
			E2(OP_BIPUSH, 1), E3(OP_ATOMICADD, g1), E2(OP_ILOAD, 2),
			    E1(OP_IADD), E2(OP_ISTORE, 2);
			break;
		case 4:		/* value, index, reference */
			E2(OP_ILOAD, 2), E2(OP_BIPUSH, c % 8),
			    E3(OP_GETSTATIC, 7), E1(OP_IASTORE);
			break;
		case 5:
			E2(OP_BIPUSH, c % 8), E3(OP_GETSTATIC, 7),
			    E1(OP_IALOAD), E2(OP_ILOAD, 2), E1(OP_IADD),
			    E2(OP_ISTORE, 2);
			break;
		case 6:
			E2(OP_ILOAD, 2), E1(OP_OUT);
			break;
		case 7:
			E1(OP_IN), E2(OP_ILOAD, 2), E1(OP_IADD),
			    E2(OP_ISTORE, 2);
			break;
		case 8:		/* some cores stop early */
			E2(OP_ILOAD, 2), E2(OP_BIPUSH, 64), E1(OP_IAND);
			E3(OP_IFEQ, 4), E1(OP_HALT);
			break;
		case 9:		/* a fault on some cores, later */
			E2(OP_ILOAD, 1), E2(OP_BIPUSH, 3 + c % 5),
			    E1(OP_IF_ICMPEQ), buf_put_be16(&b, 6);
			E3(OP_GOTO, 4), E1(OP_ERR);
			break;
		case 10: {	/* core 0 sets a bit late; the others spin on it */
			uint32_t w, sp, out, done, d;

			E1(OP_COREID);
			w = (uint32_t)b.len, E3(OP_IFEQ, 0);
			E2(OP_BIPUSH, 60), E2(OP_ISTORE, 3);
			sp = (uint32_t)b.len;
			E2(OP_IINC, 3), E1(0xff), E2(OP_ILOAD, 3);
			out = (uint32_t)b.len, E3(OP_IFEQ, 0);
			E3(OP_GETSTATIC, g1), E2(OP_BIPUSH, 8), E1(OP_IAND);
			gen_jump(&b, OP_IFEQ, sp);
			gen_patch(&b, out, (uint32_t)b.len);
			E2(OP_ILOAD, 3), E2(OP_ILOAD, 2), E1(OP_IADD),
			    E2(OP_ISTORE, 2);
			done = (uint32_t)b.len, E3(OP_GOTO, 0);
			gen_patch(&b, w, (uint32_t)b.len);
			E2(OP_BIPUSH, 5 + c % 20), E2(OP_ISTORE, 3);
			d = (uint32_t)b.len;
			E2(OP_IINC, 3), E1(0xff), E2(OP_ILOAD, 3), E3(OP_IFEQ, 6);
			gen_jump(&b, OP_GOTO, d);
			E2(OP_ILOAD, 2), E2(OP_BIPUSH, 8), E1(OP_IOR),
			    E3(OP_PUTSTATIC, g1);
			gen_patch(&b, done, (uint32_t)b.len);
			break;
		}
		default:
			E1(OP_BARRIER);
			break;
		}
	}
	E2(OP_IINC, 1), E1(0xff);	/* IINC 1 -1 */
	E2(OP_ILOAD, 1), E3(OP_IFEQ, 6);
	gen_jump(&b, OP_GOTO, loop);
	E2(OP_ILOAD, 2), E1(OP_OUT), E1(OP_HALT);
#undef E1
#undef E2
#undef E3
	q->text = b.data;
	q->text_size = (uint32_t)b.len;
	q->cp = xcalloc(1, sizeof *q->cp);
	q->main_nlocals = 4;
	g->input = xcalloc(16, 1);
	g->input_len = 16;
	for (size_t i = 0; i < g->input_len; i++)
		g->input[i] = (uint8_t)rnd(&seed);
}

/*
 * Every core but 0 waits at a barrier at once; core 0 counts down and
 * halts, which lets them go.  At a micro level its halt is a private
 * cycle (MPC reaches the halt word), which a window runs long before
 * the others arrive: the barrier must still wait for the reference's
 * step of that halt.
 */
static void
gen_late_halt(struct subject *g)
{
	struct program *q;
	struct buf b = { 0 };
	uint32_t zero, loop, out;

	memset(g, 0, sizeof *g);
	g->name = xstrdup("generated~late-halt");
	g->progs = xcalloc(1, sizeof *g->progs);
	g->nprogs = 1;
	q = &g->progs[0];
	q->labels = xcalloc(1, sizeof *q->labels);
	buf_put_u8(&b, OP_COREID);
	zero = (uint32_t)b.len;
	buf_put_u8(&b, OP_IFEQ), buf_put_be16(&b, 0);
	buf_put_u8(&b, OP_BARRIER);
	buf_put_u8(&b, OP_COREID), buf_put_u8(&b, OP_OUT);
	buf_put_u8(&b, OP_HALT);
	gen_patch(&b, zero, (uint32_t)b.len);
	buf_put_u8(&b, OP_BIPUSH), buf_put_u8(&b, 40);
	buf_put_u8(&b, OP_ISTORE), buf_put_u8(&b, 1);
	loop = (uint32_t)b.len;
	q->labels[q->nlabels].addr = loop;
	q->labels[q->nlabels++].name = xstrdup("main#count");
	buf_put_u8(&b, OP_IINC), buf_put_u8(&b, 1), buf_put_u8(&b, 0xff);
	buf_put_u8(&b, OP_ILOAD), buf_put_u8(&b, 1);
	out = (uint32_t)b.len;
	buf_put_u8(&b, OP_IFEQ), buf_put_be16(&b, 0);
	gen_jump(&b, OP_GOTO, loop);
	gen_patch(&b, out, (uint32_t)b.len);
	buf_put_u8(&b, OP_HALT);
	q->text = b.data;
	q->text_size = (uint32_t)b.len;
	q->cp = xcalloc(1, sizeof *q->cp);
	q->main_nlocals = 2;
}

/*
 * Core 1 faults at once; every other core first pushes 300 words, far
 * above what a window copies of its stack (AHEAD_STACK_MARGIN over SP,
 * 32 words at the ISA level, whose private runs grow the copy), then
 * pops them.  The window that the fault undoes must take back the
 * pushes above its copy too: the reference has not made them yet.
 */
static void
gen_deep_stack(struct subject *g)
{
	struct program *q;
	struct buf b = { 0 };
	uint32_t err;

	memset(g, 0, sizeof *g);
	g->name = xstrdup("generated~deep-stack");
	g->progs = xcalloc(1, sizeof *g->progs);
	g->nprogs = 1;
	q = &g->progs[0];
	q->labels = xcalloc(1, sizeof *q->labels);
	buf_put_u8(&b, OP_COREID);
	buf_put_u8(&b, OP_BIPUSH), buf_put_u8(&b, 1);
	err = (uint32_t)b.len;
	buf_put_u8(&b, OP_IF_ICMPEQ), buf_put_be16(&b, 0);
	for (int i = 0; i < 300; i++)
		buf_put_u8(&b, OP_BIPUSH), buf_put_u8(&b, (uint8_t)(i | 1));
	for (int i = 0; i < 300; i++)
		buf_put_u8(&b, OP_POP);
	buf_put_u8(&b, OP_HALT);
	gen_patch(&b, err, (uint32_t)b.len);
	q->labels[q->nlabels].addr = (uint32_t)b.len;
	q->labels[q->nlabels++].name = xstrdup("main#err");
	buf_put_u8(&b, OP_ERR);
	q->text = b.data;
	q->text_size = (uint32_t)b.len;
	q->cp = xcalloc(1, sizeof *q->cp);
	q->main_nlocals = 1;
}

static void
test_generated(void)
{
	static const uint32_t counts[] = { 2, 4, 32, 33 };
	struct subject g;

	for (uint64_t seed = 1; seed <= GEN_SEEDS; seed++) {
		gen_subject(&g, seed, seed % 2 == 0);
		for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
			for (size_t t = 0; t < NTHREAD_COUNTS; t++) {
				if (!extra_threads && t != (seed + i) %
				    NTHREAD_COUNTS)
					continue;
				nthreads = thread_counts[t];
				test_runs(&g, counts[i]);
			}
			nthreads = thread_counts[(seed + i) % NTHREAD_COUNTS];
			test_bps(&g, counts[i]);
			test_mask(&g, counts[i]);
		}
		nthreads = thread_counts[seed % NTHREAD_COUNTS];
		test_edits(&g, 4);
		test_watch(&g, 4);
		if (level != LEVEL_ISA)
			test_switch(&g, 4);
		subject_free(&g);
	}
	for (int k = 0; k < 2; k++) {
		if (k == 0)
			gen_late_halt(&g);
		else
			gen_deep_stack(&g);
		for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
			nthreads = thread_counts[i % NTHREAD_COUNTS];
			test_step(&g, counts[i]);
			for (size_t t = 0; t < NTHREAD_COUNTS; t++) {
				nthreads = thread_counts[t];
				test_runs(&g, counts[i]);
			}
			test_bps(&g, counts[i]);
		}
		subject_free(&g);
	}
	nthreads = 1;
}

#endif
