/*
 * session_open: options -> session, for every front end (session-open.h).
 *
 * The order of the checks is the order of the error messages a user
 * sees, the same for the screen and --batch: options the debugger cannot
 * honour, then --input, then the programs (opts_load), then the machine
 * and engine (session_create).  The microprogram given with --microcode
 * goes to the level it is for: --level pmic's own, at the ISA level the
 * PMIC level's when its name says PMIC (.pm, .pmic), else the Mic-1
 * level's (so that `set level mic` or `set level pmic` from the ISA level
 * finds it).  --trace
 * (with --trace-format and --trace-cores) starts a trace as the command
 * trace start does, before the first command.
 */
#include <stdlib.h>
#include <string.h>

#include "dbg.h"
#include "session-open.h"
#include "trace.h"

int
session_open_check(const struct micdb_opts *o, char **cause)
{
	/* every level and option is accepted here: the engine factory
	 * (levels.c) says what this build cannot run when the session
	 * opens the engine */
	if (level_engine_kind(o->level, o->engine) == ENGINE_OPENCL) {
#ifndef HAVE_ENGINE_OCL
		*cause = xasprintf("the OpenCL engine is not part of this build "
		    "yet: use --engine ref");
		return -1;
#endif
	}
	(void)cause;	/* used only in builds without OpenCL */
	return 0;
}

int
session_open(struct session **sp, struct loaded *l,
    const struct micdb_opts *o, const struct session_frontend *fe,
    char **cause)
{
	struct session_config cfg;
	uint8_t *input = NULL;
	size_t input_len = 0;
	int rc;

	memset(l, 0, sizeof *l);
	if (session_open_check(o, cause) != 0)
		return -1;
	if (o->input_path != NULL && read_file(o->input_path, &input,
	    &input_len, cause) != 0)
		return -1;
	if (opts_load(o, l, cause) != 0) {
		loaded_free(l);     /* safe twice: it clears l */
		free(input);
		return -1;
	}

	memset(&cfg, 0, sizeof cfg);
	cfg.machine.ncores = l->ncores;
	cfg.machine.stack_words = o->stack_words;
	cfg.machine.heap_words = o->heap_words;
	cfg.machine.warp_width = o->warp_width;
	cfg.fork_join = o->fork_join;
	cfg.progs = l->ptrs;
	cfg.nprogs = l->nprogs;
	cfg.core_prog = l->core_prog;
	/* the session makes every engine through the level factory */
	cfg.level = o->level;
	cfg.engine = o->engine;
	cfg.threads = o->threads;
	cfg.device = o->device;
	/* at the ISA level a PMIC microprogram (.pm, .pmic) waits for set
	 * level pmic, any other for set level mic */
	cfg.microcode[o->level == LEVEL_PMIC || (o->level == LEVEL_ISA &&
	    o->microcode != NULL && (ends_with(o->microcode, ".pm") ||
	    ends_with(o->microcode, ".pmic"))) ? LEVEL_PMIC : LEVEL_MIC] =
	    o->microcode;
	cfg.output = fe->output;
	cfg.output_arg = fe->output_arg;
	cfg.input = input;          /* the session keeps a copy */
	cfg.input_len = input_len;
	cfg.max_steps = o->max_steps;
	cfg.repeat = fe->repeat;
	rc = session_create(sp, &cfg, cause);
	free(input);
	if (rc != 0) {
		loaded_free(l);
		return -1;
	}
	/* --trace opens the trace that trace start would open before the
	 * first command, so a script that continues writes the file micdb
	 * run --trace writes; the session's end (or trace stop) closes it */
	if (o->trace_path != NULL) {
		struct trace_view v;

		session_trace_view(*sp, NULL, &v);
		if (trace_open(&(*sp)->trace, o->trace_path, o->trace_format,
		    o->trace_cores, &v, cause) != 0) {
			session_free(*sp);
			*sp = NULL;
			loaded_free(l);
			return -1;
		}
	}
	return 0;
}
