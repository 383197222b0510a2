/*
 * Command-line options of micdb and micdb run, and program loading.
 * They describe a session (the machine, its programs, level and engine),
 * so they live with the session in src/dbg; the front ends (ui, src/batch)
 * and micdb run (src/tools) parse them here, and session-open.c turns them
 * into a session.
 *
 * Every rejection says what was wrong and what to type instead; numbers
 * are range-checked here so that later layers can trust them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "opts.h"
#include "par.h"

enum {
	OPT_CORES = 256, OPT_WARP, OPT_LEVEL, OPT_MICROCODE, OPT_DEVICE,
	OPT_STACK, OPT_HEAP, OPT_PROGRAM, OPT_FORKJOIN, OPT_INPUT,
	OPT_MAXSTEPS, OPT_TRACE, OPT_OUTPUT, OPT_ENGINE, OPT_HELP,
	OPT_THREADS, OPT_TRACE_FORMAT, OPT_TRACE_CORES,
};

static const struct option longopts[] = {
	{ "cores",       required_argument, NULL, OPT_CORES },
	{ "warp-width",  required_argument, NULL, OPT_WARP },
	{ "level",       required_argument, NULL, OPT_LEVEL },
	{ "microcode",   required_argument, NULL, OPT_MICROCODE },
	{ "device",      required_argument, NULL, OPT_DEVICE },
	{ "stack-words", required_argument, NULL, OPT_STACK },
	{ "heap-words",  required_argument, NULL, OPT_HEAP },
	{ "program",     required_argument, NULL, OPT_PROGRAM },
	{ "fork-join",   no_argument,       NULL, OPT_FORKJOIN },
	{ "input",       required_argument, NULL, OPT_INPUT },
	{ "max-steps",   required_argument, NULL, OPT_MAXSTEPS },
	{ "batch",       required_argument, NULL, 'x' },
	{ "trace",       required_argument, NULL, OPT_TRACE },
	{ "trace-format", required_argument, NULL, OPT_TRACE_FORMAT },
	{ "trace-cores", required_argument, NULL, OPT_TRACE_CORES },
	{ "output",      required_argument, NULL, OPT_OUTPUT },
	{ "engine",      required_argument, NULL, OPT_ENGINE },
	{ "threads",     required_argument, NULL, OPT_THREADS },
	{ "help",        no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

void
opts_init(struct micdb_opts *o)
{
	memset(o, 0, sizeof *o);
	o->warp_width = 32;
	o->stack_words = MM_DEFAULT_STACK_WORDS;
	o->heap_words = MM_DEFAULT_HEAP_WORDS;
	o->level = LEVEL_ISA;
	o->engine = ENGINE_DEFAULT;
	o->output_raw = -1;
}

int
opts_output_raw(const struct micdb_opts *o, uint32_t ncores)
{
	return o->output_raw < 0 ? ncores == 1 : o->output_raw;
}

static void
opt_program_free(struct opt_program *p)
{
	free(p->path);
	free(p->first);
	free(p->last);
}

void
opts_free(struct micdb_opts *o)
{
	for (size_t i = 0; i < o->nprogs; i++)
		opt_program_free(&o->progs[i]);
	free(o->progs);
	memset(o, 0, sizeof *o);
}

int
parse_core_ranges(const char *text, uint32_t **first, uint32_t **last,
    size_t *n, char **cause)
{
	const char *p = text;

	*first = *last = NULL;
	*n = 0;
	if (*p == '\0')
		goto bad;
	while (*p) {
		unsigned long a, b;

		/* UINT32_MAX is the "no last core" of a program's range */
		if (parse_range(&p, UINT32_MAX - 1, &a, &b) != 0)
			goto bad;
		*first = xreallocarray(*first, *n + 1, sizeof **first);
		*last = xreallocarray(*last, *n + 1, sizeof **last);
		(*first)[*n] = (uint32_t)a;
		(*last)[*n] = (uint32_t)b;
		(*n)++;
		if (*p == ',')
			p++;
		else if (*p != '\0')
			goto bad;
	}
	return 0;
bad:
	free(*first);
	free(*last);
	*first = *last = NULL;
	*n = 0;
	*cause = xasprintf("bad core set '%s' (write ranges like 0-511 or "
	    "0-7,12)", text);
	return -1;
}

static int
add_program(struct micdb_opts *o, const char *arg, char **cause)
{
	const char *colon = strrchr(arg, ':');
	struct opt_program p = { 0 };

	if (colon == NULL || colon == arg) {
		*cause = xasprintf("--program needs FILE:RANGE, e.g. "
		    "--program a.ijvm:0-511 (got '%s')", arg);
		return -1;
	}
	if (parse_core_ranges(colon + 1, &p.first, &p.last, &p.nranges,
	    cause) != 0)
		return -1;
	p.path = xstrndup(arg, (size_t)(colon - arg));
	o->progs = xreallocarray(o->progs, o->nprogs + 1, sizeof *o->progs);
	o->progs[o->nprogs++] = p;
	return 0;
}

int
opts_start(struct micdb_opts *o, int argc, char **argv, const char *usage,
    char **cause)
{
	int rc;

	opts_init(o);
	rc = opts_parse(o, argc, argv, usage, cause);
	if (rc == 1) {
		fputs(usage, stdout);
		opts_free(o);
	}
	return rc;
}

int
opts_parse(struct micdb_opts *o, int argc, char **argv, const char *usage,
    char **cause)
{
	unsigned long v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hx:", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CORES:
			if (option_number("cores", optarg, 1, 1u << 26, &v, cause))
				return -1;
			o->ncores = (uint32_t)v;
			break;
		case OPT_WARP:
			if (option_number("warp-width", optarg, 1, 64, &v, cause))
				return -1;
			o->warp_width = (uint32_t)v;
			break;
		case OPT_STACK:
			if (option_number("stack-words", optarg, 16,
			    MM_MAX_STACK_WORDS, &v, cause))
				return -1;
			o->stack_words = (uint32_t)v;
			break;
		case OPT_HEAP:
			if (option_number("heap-words", optarg, 0, MM_MAX_HEAP_WORDS,
			    &v, cause))
				return -1;
			o->heap_words = (uint32_t)v;
			break;
		case OPT_MAXSTEPS:
			if (option_number("max-steps", optarg, 1, ~0ul, &v, cause))
				return -1;
			o->max_steps = v;
			break;
		case OPT_LEVEL:
			if (level_parse(optarg, &o->level) != 0) {
				*cause = xasprintf("unknown level '%s' (use isa, "
				    "mic or pmic)", optarg);
				return -1;
			}
			break;
		case OPT_ENGINE:
			if (engine_kind_parse(optarg, &o->engine) != 0) {
				*cause = xasprintf("unknown engine '%s' (use ref, "
				    "native or opencl)", optarg);
				return -1;
			}
			break;
		case OPT_THREADS:
			if (option_number("threads", optarg, 1, PAR_POOL_MAX,
			    &v, cause))
				return -1;
			o->threads = (uint32_t)v;
			break;
		case OPT_OUTPUT:
			if (strcmp(optarg, "raw") == 0)
				o->output_raw = 1;
			else if (strcmp(optarg, "lines") == 0)
				o->output_raw = 0;
			else {
				*cause = xasprintf("unknown output mode '%s' (use "
				    "raw or lines)", optarg);
				return -1;
			}
			break;
		case OPT_MICROCODE:
			o->microcode = optarg;
			break;
		case OPT_DEVICE:
			o->device = optarg;
			break;
		case OPT_INPUT:
			o->input_path = optarg;
			break;
		case OPT_TRACE:
			o->trace_path = optarg;
			break;
		case OPT_TRACE_FORMAT:
			o->trace_format = optarg;
			break;
		case OPT_TRACE_CORES:
			o->trace_cores = optarg;
			break;
		case 'x':
			o->batch_path = optarg;
			break;
		case OPT_FORKJOIN:
			o->fork_join = 1;
			break;
		case OPT_PROGRAM:
			if (add_program(o, optarg, cause) != 0)
				return -1;
			break;
		case 'h':
			/* the front end prints usage: src/dbg never writes
			 * stdout */
			return 1;
		case ':':
			*cause = xasprintf("option %s needs a value (see --help)",
			    argv[optind - 1]);
			return -1;
		default:
			*cause = xasprintf("unknown option '%s' (see --help)",
			    argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		struct opt_program p = { 0 };

		p.path = xstrdup(argv[optind++]);
		o->progs = xreallocarray(o->progs, o->nprogs + 1,
		    sizeof *o->progs);
		o->progs[o->nprogs++] = p;
		o->have_positional = 1;
	}
	if (optind < argc) {
		*cause = xasprintf("unexpected argument '%s': give one PROGRAM "
		    "(use --program FILE:RANGE for more)", argv[optind]);
		return -1;
	}
	if (o->trace_path == NULL && (o->trace_format != NULL ||
	    o->trace_cores != NULL)) {
		/* said, not ignored: the user asked for a trace */
		*cause = xasprintf("%s needs --trace FILE (the file the trace "
		    "is written to)", o->trace_format != NULL ?
		    "--trace-format" : "--trace-cores");
		return -1;
	}
	if (o->nprogs == 0) {
		/* one line: the usage's first, which names the command */
		const char *u = usage, *nl;

		if (strncmp(u, "usage: ", 7) == 0)
			u += 7;
		nl = strchr(u, '\n');
		*cause = xasprintf("no program given (usage: %.*s)",
		    nl != NULL ? (int)(nl - u) : (int)strlen(u), u);
		return -1;
	}
	return 0;
}

int
opts_load(const struct micdb_opts *o, struct loaded *l, char **cause)
{
	uint32_t ncores = o->ncores;
	size_t i;

	memset(l, 0, sizeof *l);
	if (ncores == 0) {
		ncores = 1;
		for (i = 0; i < o->nprogs; i++)
			for (size_t r = 0; r < o->progs[i].nranges; r++)
				if (o->progs[i].last[r] + 1 > ncores)
					ncores = o->progs[i].last[r] + 1;
	}
	l->ncores = ncores;
	l->core_prog = calloc(ncores, sizeof *l->core_prog);
	if (l->core_prog == NULL) {
		*cause = xasprintf("not enough memory for %u cores", ncores);
		return -1;
	}
	/* 0xFFFF marks a core no program claims yet. */
	memset(l->core_prog, 0xFF, (size_t)ncores * sizeof *l->core_prog);
	if (o->nprogs > 0xFFFE) {
		*cause = xasprintf("too many programs (%zu --program options, "
		    "at most 65534): give cores running the same program one "
		    "--program with several ranges", o->nprogs);
		goto fail;
	}
	for (i = 0; i < o->nprogs; i++) {
		const struct opt_program *p = &o->progs[i];

		for (size_t r = 0; r < p->nranges; r++) {
			if (p->last[r] >= ncores) {
				*cause = xasprintf("--program %s: core %u is out "
				    "of range (the machine has %u cores: raise "
				    "--cores)", p->path, p->last[r], ncores);
				goto fail;
			}
			for (uint32_t c = p->first[r]; c <= p->last[r]; c++) {
				if (l->core_prog[c] != 0xFFFF) {
					*cause = xasprintf("core %u is given two "
					    "programs (%s and %s): make the "
					    "--program ranges disjoint", c,
					    o->progs[l->core_prog[c]].path,
					    p->path);
					goto fail;
				}
				l->core_prog[c] = (uint16_t)i;
			}
		}
	}
	for (uint32_t c = 0; c < ncores; c++) {
		if (l->core_prog[c] != 0xFFFF)
			continue;
		if (!o->have_positional) {
			*cause = xasprintf("core %u has no program: cover every "
			    "core with --program ranges or give a PROGRAM for "
			    "the rest", c);
			goto fail;
		}
		l->core_prog[c] = (uint16_t)(o->nprogs - 1);
	}
	l->progs = xcalloc(o->nprogs, sizeof *l->progs);
	l->ptrs = xcalloc(o->nprogs, sizeof *l->ptrs);
	for (i = 0; i < o->nprogs; i++) {
		if (program_load_file(&l->progs[i], o->progs[i].path,
		    cause) != 0)
			goto fail;
		l->nprogs++;
		l->ptrs[i] = &l->progs[i];
	}
	return 0;
fail:
	loaded_free(l);
	return -1;
}

void
loaded_free(struct loaded *l)
{
	for (size_t i = 0; i < l->nprogs; i++)
		program_free(&l->progs[i]);
	free(l->progs);
	free(l->ptrs);
	free(l->core_prog);
	memset(l, 0, sizeof *l);
}
