/*
 * The PMIC level behind the engine interface: the C simulator of
 * src/core/pmic-sim.c, one global step = one cycle of every running
 * core.  Also where PMIC microcode comes from: a .pm source (compiled on
 * the fly, with symbols) or a .pmic control store, by default the
 * installed microcode/pmic.pm.
 *
 * Breakpoints are compared with the MPC (ENGINE_BP_ON_MPC) or, for PC
 * breakpoints, with the PC of a core at an instruction boundary
 * (pmic_at_boundary), as at the Mic-1 level.
 *
 * The engine owns the per-core PMIC state (struct pmic_state); the
 * control store belongs to the caller and must outlive the engine.
 */
#ifndef MICDB_ENGINE_PMIC_H
#define MICDB_ENGINE_PMIC_H

#include "engine.h"
#include "mal.h"
#include "pmic.h"

/*
 * The PMIC simulator as an engine over m (not owned) with control store
 * cs (not owned).  Cores that never ran start at the boundary of PC 0;
 * the others enter the level at their ISA boundary (pmic_enter).
 */
int	engine_pmic_create(struct engine *e, struct machine *m,
	    const struct pmic_store *cs, char **cause);
/* The PMIC state of a pmic engine (G0, G1, MBR validity, latches). */
struct pmic_state *engine_pmic_state(struct engine *e);
/* Switch every core to the ISA level: 0, or -1 with *cause naming the
 * first core that is not at an instruction boundary (nothing changes). */
int	engine_pmic_leave_all(struct engine *e, char **cause);

/*
 * Load PMIC microcode: a .pmic control store (recognised by its magic or
 * the .pmic suffix; symbols from a sibling FILE.sym written by pmic-cc
 * -s, if any) or a PMIC source, compiled now.  syms may be NULL.  0, or
 * -1 with *cause (every compiler error, one per line).
 */
int	engine_pmic_load_microcode(const char *path, struct pmic_store *cs,
	    struct mal_syms *syms, char **cause);
/*
 * Path of the default microprogram (malloc'd): $MICDB_MICROCODE_DIR/
 * pmic.pm when the variable is set; the source tree's microcode/pmic.pm
 * for a micdb run from the build tree (or when nothing is installed);
 * else $(pkgdatadir)/microcode/pmic.pm.
 */
char	*engine_pmic_default_microcode(void);

#endif
