/*
 * The micro level (Mic-1) behind the engine interface: the C simulator of
 * src/core/mic1.c, one global step = one micro-cycle of every running
 * core.  Also where microcode comes from: a .mal source (assembled on
 * the fly, with symbols) or a .mic1 control store, by default the
 * installed microcode/mic1.mal.
 *
 * Breakpoints: struct engine_bp's pc is compared with the core's MPC, not
 * its PC - an engine runs one level, and at this level the program path
 * is the MPC (manycore.md section 3).  A breakpoint stops the cores that
 * are about to execute the micro-instruction at that address.  For an
 * ISA-level breakpoint at the micro level, stop at MPC = Main1 and
 * compare PC in the debugger (or use engine_mic_at_boundary).
 *
 * The engine owns the per-core micro state (struct mic1_state); the
 * control store belongs to the caller and must outlive the engine.
 */
#ifndef MICDB_ENGINE_MIC_H
#define MICDB_ENGINE_MIC_H

#include "engine.h"
#include "mal.h"
#include "mic1.h"

/*
 * The Mic-1 simulator as an engine over m (not owned) with control store
 * cs (not owned).  Cores that never ran (steps and cycles 0) start in the
 * micro level's start state (MPC 0, PC -1); the others are taken to be at
 * an ISA boundary and enter the micro level there (mic1_enter).
 */
int	engine_mic_create(struct engine *e, struct machine *m,
	    const struct mic1_store *cs, char **cause);
/* The micro state of a mic engine (pending memory operations, device
 * latches), for the debugger's display and for switching levels. */
struct mic1_state *engine_mic_state(struct engine *e);
/* Switch every core to the ISA level: 0, or -1 with *cause naming the
 * first core that is not at an instruction boundary (nothing changes). */
int	engine_mic_leave_all(struct engine *e, char **cause);

/*
 * Load microcode: a .mic1 control store (recognised by its magic, or by
 * the .mic1 suffix) or a MAL source, assembled now.  syms may be NULL;
 * otherwise it receives the symbols (for a .mic1, those of a sibling
 * FILE.sym written by mic1-as -s, if there is one, else none).  0, or -1
 * with *cause (every assembler error, one per line).
 */
int	engine_mic_load_microcode(const char *path, struct mic1_store *cs,
	    struct mal_syms *syms, char **cause);
/*
 * Path of the default microprogram (malloc'd): $MICDB_MICROCODE_DIR/
 * mic1.mal when the variable is set; the source tree's microcode/mic1.mal
 * for a micdb run from the build tree (or when nothing is installed);
 * else $(pkgdatadir)/microcode/mic1.mal.
 */
char	*engine_mic_default_microcode(void);

#endif
