/*
 * A micro level's microprogram, loaded (microcode.c): the control store
 * the level's engines run and the symbols the debugger shows.  Which
 * file a level loads by default, and how a .mal / .pm source or a
 * .mic1 / .pmic store is read, is written here once for every front end.
 */
#ifndef MICDB_MICROCODE_H
#define MICDB_MICROCODE_H

#include "engine.h"
#include "mal.h"
#include "mic1-enc.h"
#include "pmic-enc.h"

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
 * microcode_default_path).  A store file is recognised by its magic or
 * suffix (its symbols come from a sibling FILE.sym written by mic1-as or
 * pmic-cc -s, if any); anything else is a source, translated now.  0, or
 * -1 + *cause (every assembler error, one per line).  mc is zeroed
 * first; free with microcode_free.
 */
int	microcode_load(struct microcode *mc, enum level level,
	    const char *path, char **cause);
void	microcode_free(struct microcode *mc);
/* What mic1-as and pmic-cc do: a source of the level (MAL, PMIC) into the
 * bytes of its control store file (store), the listing and the symbols;
 * 0, or -1 with errs.  MAL's warnings are in warns either way. */
int	microcode_translate(enum level level, const char *path,
	    const char *src, size_t len, struct buf *store, struct buf *listing,
	    struct mal_syms *syms, struct mal_errors *errs,
	    struct mal_errors *warns);
/* The control store of a loaded microprogram (struct mic1_store or
 * struct pmic_store), as the level's engines take it. */
const void *microcode_store(const struct microcode *mc);
/*
 * Where micdb's data file rel is ("microcode/mic1.mal", "programs/bench":
 * the same under the source tree and $(pkgdatadir)), malloc'd: the
 * source tree's for a micdb run from the build tree (the file being
 * edited), else the installed one when it exists, else the source
 * tree's when it exists, else the installed path.
 */
char	*data_path(const char *rel);
/*
 * Path of a level's default microprogram (malloc'd): in
 * $MICDB_MICROCODE_DIR when the variable is set; the source tree's
 * microcode/ for a micdb run from the build tree (or when nothing is
 * installed); else $(pkgdatadir)/microcode.
 */
char	*microcode_default_path(enum level level);

#endif
