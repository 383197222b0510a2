/*
 * Options shared by `micdb`, `micdb run` (doc/debugger.md section 1), and the
 * loading of the programs they name into a machine.  Parsing reports
 * errors as messages; the caller prints them and exits 2.
 */
#ifndef MICDB_OPTS_H
#define MICDB_OPTS_H

#include <stdint.h>

#include "levels.h"
#include "machine.h"
#include "program.h"

/* --program FILE:RANGE (MIMD); the positional PROGRAM has no ranges and
 * runs on every core that no range covers. */
struct opt_program {
	char		*path;
	uint32_t	*first;      /* ranges first[i] .. last[i] */
	uint32_t	*last;
	size_t		 nranges;
};

struct micdb_opts {
	uint32_t	 ncores;         /* 0: not given */
	uint32_t	 warp_width;
	uint32_t	 stack_words;
	uint32_t	 heap_words;
	enum level	 level;
	enum engine_kind engine;
	uint32_t	 threads;        /* --threads; 0: the default */
	const char	*microcode;
	const char	*device;
	const char	*input_path;
	const char	*batch_path;
	const char	*trace_path;
	const char	*trace_format;   /* --trace-format; NULL: from the name */
	const char	*trace_cores;    /* --trace-cores; NULL: the first warp */
	uint64_t	 max_steps;      /* 0: no limit */
	int		 output_raw;     /* --output: 1 raw, 0 lines, -1 none */
	int		 fork_join;
	struct opt_program *progs;       /* --program entries, then PROGRAM */
	size_t		 nprogs;
	int		 have_positional;
};

/* Loaded programs and the core -> program map built from the options. */
struct loaded {
	struct program	 *progs;
	const struct program **ptrs;
	size_t		  nprogs;
	uint16_t	 *core_prog;    /* per core */
	uint32_t	  ncores;
};

void	opts_init(struct micdb_opts *o);
/* Whether core output passes through byte for byte: --output, else with
 * one core only (doc/debugger.md section 1). */
int	opts_output_raw(const struct micdb_opts *o, uint32_t ncores);
void	opts_free(struct micdb_opts *o);
/*
 * Parse argv (from argv[first]) into o.  Returns 0; 1 when --help was
 * asked for (the caller prints usage, the text for this command, whose
 * first line a missing PROGRAM's message quotes); -1 with *cause.
 */
int	opts_parse(struct micdb_opts *o, int argc, char **argv,
	    const char *usage, char **cause);
/* A command's start: opts_init and opts_parse; after --help the usage is
 * printed and o freed (1: the caller exits 0); else opts_parse's 0, or
 * -1 with *cause. */
int	opts_start(struct micdb_opts *o, int argc, char **argv,
	    const char *usage, char **cause);
/* Check combinations, load every program, map cores.  0 or -1 + *cause. */
int	opts_load(const struct micdb_opts *o, struct loaded *l, char **cause);
void	loaded_free(struct loaded *l);
/* Parse a core set "0-7,12" (cores < limit, or any when limit is 0). */
int	parse_core_ranges(const char *text, uint32_t **first,
	    uint32_t **last, size_t *n, char **cause);

#endif
