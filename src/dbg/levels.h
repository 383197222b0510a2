/*
 * Execution levels (ISA, Mic-1, PMIC) and engine kinds, and the one place
 * that makes an engine for a level: micdb run, the debugger's front ends
 * (set level) and bench all go through level_engine_open, so that a new
 * engine for a level is one case here and nowhere else.
 */
#ifndef MICDB_LEVELS_H
#define MICDB_LEVELS_H

#include "engine.h"
#include "mal.h"
#include "mic1.h"
#include "pmic.h"

/* ENGINE_DEFAULT: the user named none; the fastest engine this build has
 * for the level (debugger.md: opencl). */
enum engine_kind { ENGINE_DEFAULT, ENGINE_REF, ENGINE_OPENCL };
enum level { LEVEL_ISA, LEVEL_MIC, LEVEL_PMIC };
#define NLEVEL 3

/* The engine kind meant by kind at level: kind itself, or for
 * ENGINE_DEFAULT the one this build prefers. */
enum engine_kind level_engine_kind(enum level level, enum engine_kind kind);

/* "isa", "mic", "pmic". */
const char	*level_name(enum level level);
/* 0 and *out, or -1 if name is no level. */
int		 level_parse(const char *name, enum level *out);

/* A loaded microprogram for one micro level. */
struct microcode {
	enum level		 level;     /* LEVEL_MIC or LEVEL_PMIC */
	int			 loaded;
	char			*path;      /* where it came from */
	struct mic1_store	 cs;        /* LEVEL_MIC */
	struct pmic_store	 pcs;       /* LEVEL_PMIC */
	struct mal_syms		 syms;      /* of either level */
};

/*
 * Load the microprogram of level from path (NULL: the level's default,
 * the installed microcode/mic1.mal or microcode/pmic.pm).  0, or -1 + *cause (every
 * assembler error).  mc is zeroed first; free with microcode_free.
 */
int	microcode_load(struct microcode *mc, enum level level,
	    const char *path, char **cause);
void	microcode_free(struct microcode *mc);

/*
 * Make the engine that runs m at level with kind (device: --device, may
 * be NULL); mc is the level's loaded microprogram (NULL at the ISA
 * level) and must outlive the engine.  0, or -1 + *cause saying what
 * this build cannot do and what to use instead.
 */
int	level_engine_open(struct engine *e, struct machine *m,
	    enum level level, enum engine_kind kind, const char *device,
	    const struct microcode *mc, char **cause);

#endif
