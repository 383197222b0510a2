/*
 * Locations of break, tbreak, until and list (loc.c), resolved against
 * the loaded programs.  loc.c sits below the session: it reads only what
 * struct loc_env hands it, and evaluates the expression of *EXPR through
 * its callback, so that the session (which describes addresses with
 * loc_label_name) and loc.c do not call each other.  session.c fills one
 * in for the commands (session_loc_resolve).
 */
#ifndef MICDB_LOC_H
#define MICDB_LOC_H

#include <stddef.h>
#include <stdint.h>

#include "bp.h"
#include "program.h"

struct loc_env {
	const struct program *const *progs;  /* the machine's programs */
	size_t		 nprogs;
	uint16_t	 focus_prog;  /* the focused core's program and PC: */
	int32_t		 focus_pc;    /* no spec, LINE */
	int32_t		 scope_pc;    /* a PC of the selected frame (in
					 focus_prog): a label several
					 methods have resolves in its
					 method first */
	/* *EXPR: evaluate text for the focused core; 0 with *val, or -1
	 * + *cause. */
	int		(*eval)(void *arg, const char *text, int32_t *val,
			    char **cause);
	void		*arg;
};

/* A location spec into struct bp_loc's (the masks NULL): one per program
 * that has it, and one per method where a bare label is in several
 * methods and none of them is the selected frame's; 0, or -1 + *cause. */
int	 loc_resolve(const struct loc_env *env, const char *spec,
	    struct bp_loc **locs, size_t *nlocs, char **cause);
/* Label shown for an exact address ("loop", "half#loop"), or NULL. */
const char *loc_label_name(const struct program *p, uint32_t addr,
	    char *tmp, size_t tmpsize);
/* Instruction starts of the method holding pc, ascending; caller frees. */
/* A source file as a location names it, and as stops and listings show
 * it: the last part of its path ("sum.jas" of "programs/sum.jas"). */
const char *loc_file_name(const char *path);
size_t	 loc_insns(const struct program *p, int32_t pc, uint32_t **addrs);

#endif
