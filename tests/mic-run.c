/*
 * mic-run: a small driver of the micro levels' host engine
 * (src/host/engine-micro.c, its reference kind) for the shell tests.  It
 * adds to `micdb run --level mic --engine ref` what a test of the engine
 * needs and a user does not: --break below.  It runs like micdb run:
 * output passes through with one core,
 * as "[core N] line" with more; faults are one line on stderr; exit 0
 * when every core halted, 1 when one faulted, 2 on bad usage or input,
 * 3 when stopped (step limit, deadlock).
 *
 *   mic-run [--level isa|mic] [--microcode FILE] [--cores N]
 *           [--program FILE:A-B ...] [--input FILE] [--max-steps N]
 *           [--break MPC] [--fork-join] [PROGRAM]
 *
 * --break stops at every micro-step where a core is about to run the
 * micro-instruction at MPC, prints "break MPC core C step S" on stderr
 * and goes on; it exercises the engine's breakpoints.  Input for core 0
 * is read whole before the run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "engine-micro.h"
#include "microcode.h"
#include "engine.h"
#include "ijvm.h"
#include "machine.h"
#include "program.h"

#define MAX_PROGS 8

static int
usage(const char *why)
{
	fprintf(stderr, "mic-run: %s\nusage: mic-run [--level isa|mic] "
	    "[--microcode FILE] [--cores N] [--program FILE:A-B] "
	    "[--input FILE] [--max-steps N] [--break MPC] [--fork-join] "
	    "[PROGRAM]\n", why);
	return 2;
}

static void
drain(struct machine *m, int final)
{
	for (uint32_t c = 0; c < m->cfg.ncores; c++) {
		struct buf *out = &m->io[c].out;
		size_t start = 0;

		if (m->cfg.ncores == 1) {
			fwrite(out->data, 1, out->len, stdout);
			out->len = 0;
			continue;
		}
		for (size_t i = 0; i < out->len; i++)
			if (out->data[i] == '\n') {
				printf("[core %u] %.*s\n", c, (int)(i - start),
				    (const char *)out->data + start);
				start = i + 1;
			}
		if (final && start < out->len) {
			printf("[core %u] %.*s\n", c, (int)(out->len - start),
			    (const char *)out->data + start);
			start = out->len;
		}
		memmove(out->data, out->data + start, out->len - start);
		out->len -= start;
	}
}

int
main(int argc, char **argv)
{
	const char *microcode = NULL, *input = NULL, *level = "mic";
	const char *paths[MAX_PROGS];
	uint32_t first[MAX_PROGS], last[MAX_PROGS], ncores = 0;
	struct program progs[MAX_PROGS];
	const struct program *ptrs[MAX_PROGS];
	size_t nprogs = 0;
	uint64_t max_steps = 2000000000;
	struct machine_config cfg = { 0, MM_DEFAULT_STACK_WORDS,
	    MM_DEFAULT_HEAP_WORDS, 32 };
	struct machine m;
	struct microcode mc = { .level = LEVEL_MIC };
	struct engine e;
	struct engine_bp bp = { 1, -1, NULL, ENGINE_BP_ON_MPC };
	struct engine_run er;
	struct engine_stop stop;
	uint16_t *core_prog;
	char *cause = NULL;
	int rc = 0, any_fault = 0, fork_join = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--level") == 0 && v) {
			level = v;
			i++;
		} else if (strcmp(a, "--microcode") == 0 && v) {
			microcode = v;
			i++;
		} else if (strcmp(a, "--cores") == 0 && v) {
			ncores = (uint32_t)strtoul(v, NULL, 10);
			i++;
		} else if (strcmp(a, "--input") == 0 && v) {
			input = v;
			i++;
		} else if (strcmp(a, "--max-steps") == 0 && v) {
			max_steps = strtoull(v, NULL, 0);
			i++;
		} else if (strcmp(a, "--fork-join") == 0) {
			fork_join = 1;
		} else if (strcmp(a, "--break") == 0 && v) {
			bp.pc = (int32_t)strtol(v, NULL, 0);
			i++;
		} else if (strcmp(a, "--program") == 0 && v &&
		    nprogs < MAX_PROGS) {
			char *s = xstrdup(v), *colon = strrchr(s, ':'), *dash;

			if (colon == NULL)
				return usage("--program needs FILE:RANGE");
			*colon = '\0';
			paths[nprogs] = s;
			first[nprogs] = (uint32_t)strtoul(colon + 1, &dash, 10);
			last[nprogs] = *dash == '-' ?
			    (uint32_t)strtoul(dash + 1, NULL, 10) :
			    first[nprogs];
			if (last[nprogs] + 1 > ncores)
				ncores = last[nprogs] + 1;
			nprogs++;
			i++;
		} else if (a[0] != '-' && nprogs < MAX_PROGS) {
			paths[nprogs] = a;
			first[nprogs] = 0;
			last[nprogs] = UINT32_MAX;
			nprogs++;
		} else {
			return usage("bad arguments");
		}
	}
	if (nprogs == 0)
		return usage("no program");
	if (strcmp(level, "isa") != 0 && strcmp(level, "mic") != 0)
		return usage("--level is isa or mic");
	cfg.ncores = ncores ? ncores : 1;
	for (size_t i = 0; i < nprogs; i++) {
		if (program_load_file(&progs[i], paths[i], &cause) != 0) {
			fprintf(stderr, "mic-run: %s\n", cause);
			return 2;
		}
		ptrs[i] = &progs[i];
	}
	core_prog = xcalloc(cfg.ncores, sizeof *core_prog);
	for (uint32_t c = 0; c < cfg.ncores; c++)
		for (size_t i = 0; i < nprogs; i++)
			if (c >= first[i] && c <= last[i]) {
				core_prog[c] = (uint16_t)i;
				break;
			}
	if (machine_init(&m, &cfg, ptrs, nprogs, core_prog, &cause) != 0) {
		fprintf(stderr, "mic-run: %s\n", cause);
		return 2;
	}
	if (fork_join)
		machine_fork_join(&m);
	free(core_prog);
	if (input != NULL) {
		uint8_t *data;
		size_t len;

		if (read_file(input, &data, &len, &cause) != 0) {
			fprintf(stderr, "mic-run: %s\n", cause);
			return 2;
		}
		machine_add_input(&m, 0, data, len);
		free(data);
	}
	if (strcmp(level, "mic") == 0) {
		if (microcode_load(&mc, LEVEL_MIC, microcode, &cause) != 0) {
			fprintf(stderr, "mic-run: %s\n", cause);
			return 2;
		}
		rc = engine_micro_create(&e, &m, LEVEL_MIC, &mc.cs, &cause);
	} else {
		rc = engine_ref_create(&e, &m, &cause);
	}
	if (rc != 0) {
		fprintf(stderr, "mic-run: %s\n", cause);
		return 2;
	}

	memset(&er, 0, sizeof er);
	er.max_steps = max_steps;
	er.stop_on_fault = 0;
	if (bp.pc >= 0) {
		er.bps = &bp;
		er.nbps = 1;
	}
	for (;;) {
		if (e.ops->run(&e, &er, &stop, &cause) != 0) {
			fprintf(stderr, "mic-run: %s\n", cause);
			rc = 3;
			break;
		}
		drain(&m, 0);
		er.max_steps -= stop.steps_run;
		if (stop.reason == STOP_BREAKPOINT) {
			for (size_t i = 0; i < stop.ncores; i++)
				fprintf(stderr, "break 0x%03x core %u step %llu\n",
				    (unsigned)bp.pc, stop.cores[i],
				    (unsigned long long)m.step);
			continue;
		}
		if (stop.reason == STOP_DONE)
			break;
		fprintf(stderr, "mic-run: stopped (%s) after %llu steps\n",
		    stop.reason == STOP_DEADLOCK ? "deadlock" : "step limit",
		    (unsigned long long)m.step);
		rc = 3;
		break;
	}
	drain(&m, 1);
	for (uint32_t c = 0; c < m.cfg.ncores; c++) {
		const struct core *k = &m.cores[c];

		if (k->status != CORE_ERROR)
			continue;
		any_fault = 1;
		fprintf(stderr, "micdb: core %u: %s at pc 0x%04x (opcode "
		    "0x%02x)%s\n", c, ijvm_fault_message(k->fault),
		    (uint32_t)k->fault_pc, k->fault_op, rc == 0 &&
		    strcmp(level, "mic") == 0 ? " [micro level]" : "");
	}
	if (rc == 0 && any_fault)
		rc = 1;
	fflush(stdout);
	engine_free(&e);
	microcode_free(&mc);
	machine_free(&m);
	for (size_t i = 0; i < nprogs; i++)
		program_free(&progs[i]);
	return rc;
}
