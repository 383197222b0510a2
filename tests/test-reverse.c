/*
 * Reverse execution, differentially: on sample programs, at every level,
 * on the reference engines and the OpenCL engine, at 1 and 33 cores, a
 * session that goes forward and back at random (stepi, reverse-stepi,
 * reverse-step, reverse-continue) and then forward to step S ends in the
 * same machine (registers, memory, output shown) as a session that ran
 * straight to step S.  Reverse-continue meets no breakpoint here: it goes
 * back to the oldest step (tests/batch/reverse.cmd has the stops).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "dbg.h"
#include "history.h"
#include "program.h"
#include "tap.h"

#ifndef MICDB_SRCDIR
#define MICDB_SRCDIR "."
#endif

struct outs {
	struct buf	 b[33];
};

static void
on_output(void *arg, uint32_t core, const uint8_t *data, size_t len)
{
	struct outs *o = arg;

	if (core < 33)
		buf_put(&o->b[core], data, len);
}

static struct session *
open_session(const struct program **progs, uint32_t n, enum level lv,
    enum engine_kind kind, int fj, const char *input, struct outs *o)
{
	struct session_config cfg;
	struct session *s;
	struct buf out = { 0 };
	char *cause = NULL;

	memset(&cfg, 0, sizeof cfg);
	cfg.machine.ncores = n;
	cfg.machine.stack_words = 512;
	cfg.machine.heap_words = 4096;
	cfg.machine.warp_width = 32;
	cfg.progs = progs;
	cfg.nprogs = 1;
	cfg.level = lv;
	cfg.engine = kind;
	cfg.fork_join = fj;
	cfg.output = on_output;
	cfg.output_arg = o;
	if (input != NULL) {
		cfg.input = (const uint8_t *)input;
		cfg.input_len = strlen(input);
	}
	if (session_create(&s, &cfg, &cause) != 0) {
		tap_diag("%s", cause);
		free(cause);
		return NULL;
	}
	if (session_execute(s, "set stop-on-fault off", &out, &cause) != 0) {
		free(cause);
		session_free(s);
		s = NULL;
	}
	buf_free(&out);
	return s;
}

/* Run a command to its stop; 0, or -1 (an error: the command refused). */
static int
cmd(struct session *s, const char *line)
{
	struct buf out = { 0 };
	char *cause = NULL;
	int rc = session_execute(s, line, &out, &cause);

	if (rc == 0 && session_running(s))
		rc = session_wait(s, &out, &cause);
	free(cause);
	buf_free(&out);
	return rc == 0 ? 0 : -1;
}

static int
same(struct session *a, struct outs *oa, struct session *b, struct outs *ob,
    const char *what)
{
	const struct machine *x = session_machine(a), *y = session_machine(b);
	char *cause = NULL;
	size_t sw = (size_t)x->cfg.ncores * x->cfg.stack_words;

	if (session_engine(a)->ops->sync_memory(session_engine(a),
	    &cause) != 0 || session_engine(b)->ops->sync_memory(
	    session_engine(b), &cause) != 0) {
		tap_diag("%s: %s", what, cause);
		free(cause);
		return 0;
	}
	if (x->step != y->step) {
		tap_diag("%s: step %llu vs %llu", what,
		    (unsigned long long)x->step, (unsigned long long)y->step);
		return 0;
	}
	/* b may have shown output past its cut before going back: the
	 * machine's output is what it produced up to the cut */
	for (uint32_t c = 0; c < x->cfg.ncores && c < 33; c++) {
		uint64_t t = history_output_total(b, c);

		if (t > ob->b[c].len || history_output_total(a, c) !=
		    oa->b[c].len) {
			tap_diag("%s: core %u: %llu bytes produced, %zu shown",
			    what, c, (unsigned long long)t, ob->b[c].len);
			return 0;
		}
		ob->b[c].len = (size_t)t;
	}
	for (uint32_t c = 0; c < x->cfg.ncores; c++)
		if (memcmp(&x->cores[c], &y->cores[c], sizeof x->cores[c]) != 0 ||
		    (c < 33 && (oa->b[c].len != ob->b[c].len ||
		    memcmp(oa->b[c].data, ob->b[c].data, oa->b[c].len) != 0))) {
			tap_diag("%s: core %u differs (pc %d/%d sp %d/%d tos "
			    "%d/%d status %u/%u steps %llu/%llu, output "
			    "%zu/%zu)", what, c, x->cores[c].pc,
			    y->cores[c].pc, x->cores[c].sp, y->cores[c].sp,
			    x->cores[c].tos, y->cores[c].tos,
			    x->cores[c].status, y->cores[c].status,
			    (unsigned long long)x->cores[c].steps,
			    (unsigned long long)y->cores[c].steps,
			    oa->b[c].len, ob->b[c].len);
			return 0;
		}
	if (memcmp(x->stacks, y->stacks, sw * 4) != 0 ||
	    memcmp(x->globals, y->globals, MM_GLOBALS_WORDS * 4) != 0 ||
	    memcmp(x->heap, y->heap, (size_t)x->cfg.heap_words * 4) != 0 ||
	    x->heap_top != y->heap_top) {
		tap_diag("%s: memory differs", what);
		return 0;
	}
	return 1;
}

static uint64_t
rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return *st;
}

static void
outs_free(struct outs *o)
{
	for (int i = 0; i < 33; i++)
		buf_free(&o->b[i]);
}

static void
one(const char *name, const char *input, int fj, uint32_t n, enum level lv,
    enum engine_kind kind, uint64_t seed)
{
	static const char *const lvn[] = { "isa", "mic", "pmic" };
	struct program p;
	const struct program *progs[1] = { &p };
	char *path = xasprintf("%s/programs/%s.jas", MICDB_SRCDIR, name);
	char *cause = NULL, line[64];
	struct outs oa, ob;
	struct session *a = NULL, *b = NULL;
	int good = 0, backs = 0;
	struct buf log = { 0 };

	memset(&oa, 0, sizeof oa);
	memset(&ob, 0, sizeof ob);
	if (program_load_file(&p, path, &cause) != 0) {
		ok(0, "%s loads (%s)", name, cause);
		free(cause);
		free(path);
		return;
	}
	free(path);
	a = open_session(progs, n, lv, kind, fj, input, &oa);
	b = open_session(progs, n, lv, kind, fj, input, &ob);
	if (a != NULL && b != NULL) {
		for (int round = 0; round < 8; round++) {
			uint64_t f = 1 + rnd(&seed) % (lv == LEVEL_ISA ? 40 :
			    300), back = rnd(&seed) % (f + 20);
			const char *rev[] = { "reverse-stepi", "reverse-step",
			    "reverse-continue" };
			int r = (int)(rnd(&seed) % 3);

			snprintf(line, sizeof line, "stepi %llu",
			    (unsigned long long)f);
			(void)cmd(b, line);
			buf_printf(&log, "%s; ", line);
			if (r == 2)
				snprintf(line, sizeof line, "%s", rev[r]);
			else
				snprintf(line, sizeof line, "%s %llu", rev[r],
				    (unsigned long long)(back ? back : 1));
			backs += cmd(b, line) == 0;
			buf_printf(&log, "%s; ", line);
		}
		(void)cmd(b, "stepi 25");
		snprintf(line, sizeof line, "stepi %llu", (unsigned long long)
		    session_machine(b)->step);
		if (session_machine(b)->step == 0 || cmd(a, line) == 0)
			good = same(a, &oa, b, &ob, name);
		if (!good)
			tap_diag("after %.*s", (int)log.len, (char *)log.data);
	}
	buf_free(&log);
	ok(good && backs > 0, "%s, %s level, %s engine, %u core%s: forward, "
	    "%d times back, forward ends as the straight run", name, lvn[lv],
	    kind == ENGINE_REF ? "reference" : "OpenCL", n, n == 1 ? "" : "s",
	    backs);
	session_free(a);
	session_free(b);
	outs_free(&oa);
	outs_free(&ob);
	program_free(&p);
}

int
main(void)
{
	static const struct {
		const char	*name;
		const char	*input;
		int		 ocl;     /* also on the OpenCL engine */
		int		 fj;      /* --fork-join */
	} samples[] = {
		{ "hello", NULL, 1, 0 }, { "fib", NULL, 0, 0 },
		{ "factorial", NULL, 0, 0 }, { "recsum", NULL, 1, 0 },
		{ "gcd", NULL, 0, 0 }, { "sieve", NULL, 0, 0 },
		{ "wide", NULL, 0, 0 },
		{ "bubble", NULL, 0, 0 }, { "decimal", NULL, 0, 0 },
		{ "multiply", NULL, 0, 0 },
		{ "echo", "IJVM echo test.\n", 1, 0 },
		{ "reverse", "stressed\n", 0, 0 }, { "parsum", NULL, 1, 0 },
		/* workqueue's ATOMICADDs of one step race on a device (the
		 * OpenCL diff tests compare its output only): not replayed
		 * exactly there */
		{ "matmul", NULL, 0, 0 }, { "workqueue", NULL, 0, 0 },
		{ "collatz", NULL, 1, 0 },
		/* fork-join: back across forks, joins and the release */
		{ "forksum", NULL, 1, 1 }, { "forkcall", NULL, 1, 1 },
	};
	static const uint32_t ncores[] = { 1, 33 };
	size_t ns = sizeof samples / sizeof samples[0];

	for (size_t i = 0; i < ns; i++)
		for (int k = 0; k < 2; k++)
			for (int lv = 0; lv < NLEVEL; lv++)
				one(samples[i].name, samples[i].input,
				    samples[i].fj, ncores[k], (enum level)lv,
				    ENGINE_REF,
				    0x9e3779b97f4a7c15ull * (i + 1) + k + lv);
	for (size_t i = 0; i < ns; i++)
		for (int k = 0; k < 2 && samples[i].ocl; k++)
			for (int lv = 0; lv < NLEVEL; lv++)
				one(samples[i].name, samples[i].input,
				    samples[i].fj, ncores[k], (enum level)lv,
				    ENGINE_OPENCL,
				    0x51afd7ed558ccd1dull * (i + 1) + k + lv);
	return done_testing();
}
