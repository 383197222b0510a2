/*
 * Where the cores are: the census that `info cores` prints in the
 * debugger and that `micdb run` prints when it stops with cores still
 * running (doc/debugger.md sections 1 and 3).  It needs only the machine,
 * the level's host state and the last stop's breakpoint cores, not a
 * session, so that `micdb run`, which drives an engine without one,
 * names places exactly as the debugger does.
 */
#ifndef MICDB_PLACES_H
#define MICDB_PLACES_H

#include <stdint.h>

#include "engine.h"
#include "machine.h"
#include "util.h"

struct places {
	const struct machine *m;
	enum level	 level;
	const void	*level_state; /* the micro level's host state (engine
					 level_state); NULL at the ISA level
					 or when the engine keeps none */
	const uint8_t	*at_bp;       /* per core: stopped at a breakpoint in
					 the last stop; NULL: none did */
	uint32_t	 focus;       /* marked '*'; UINT32_MAX: no mark */
};

/* The ISA instruction the core executes (inside one at a micro level). */
int32_t	 places_insn_pc(const struct places *v, uint32_t core);
/* The PC shown for the core: a halted or waiting core at its HALT or
 * BARRIER, a faulted one at its fault. */
int32_t	 places_core_pc(const struct places *v, uint32_t core);
/* "running", "breakpoint", "forked", "halted", ... */
const char *places_state(const struct places *v, uint32_t core);
/* The name of the method that holds pc, or NULL. */
const char *places_method_name(const struct program *p, int32_t pc);
/* "0x001a (loop, sum.jas:14)" */
void	 places_describe_pc(const struct program *p, int32_t pc,
	    struct buf *out);
/* "N cores: R running, W waiting, H halted, F faulted" and a newline. */
void	 places_counts(const struct places *v, struct buf *out);
/*
 * The census as a table of runs of consecutive cores (of sel; NULL: all)
 * with the same state and PC, `info cores`'s own form, at most max lines.
 * Returns how many runs it left out.
 */
uint32_t places_runs(const struct places *v, const uint8_t *sel, uint32_t max,
	    struct buf *out);
/*
 * The census grouped by place: the cores of sel (NULL: all) with the same
 * state and PC, wherever they are in the machine, one line a group,
 * largest first ("79 cores running at 0x00c6 (half+12, collatz.jas:120):
 * cores 113383, 134379 and 77 more"), at most max lines.  Returns how many
 * groups it left out.
 */
uint32_t places_by_pc(const struct places *v, const uint8_t *sel, uint32_t max,
	    struct buf *out);

#endif
