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

/* ---- the body of every host micro-level engine ---------------------------
 *
 * A micro level (Mic-1 here, PMIC in engine-pmic.c) is a descriptor: its
 * simulator's functions over an opaque per-level state, and its
 * engine_ops (ENGINE_MICRO_OPS, which differ only in the name).  The
 * engine body - creation with the start-or-enter rule, runs, leaving at
 * boundaries, microcode files - is written once, in engine-mic.c.
 */
struct engine_micro_level {
	const struct engine_ops	*ops;
	size_t	 state_size;
	void	 (*state_init)(void *st, const struct machine *m,
		    const void *cs);
	void	 (*state_free)(void *st);
	/* A core that never ran: the level's start state. */
	void	 (*start_core)(void *st, struct machine *m, uint32_t core);
	/* A core at an ISA boundary enters the level there. */
	void	 (*enter)(void *st, struct machine *m, uint32_t core);
	int	 (*leave)(void *st, struct machine *m, uint32_t core);
	int	 (*at_boundary)(const void *st, const struct machine *m,
		    uint32_t core);
	engine_step_fn	 step;
	/* The per-core side state (what a snapshot keeps): its array in
	 * st and its bytes. */
	void	*(*side)(void *st, size_t *bytes);
};

int	engine_micro_run(struct engine *e, const struct engine_run *r,
	    struct engine_stop *stop, char **cause);
int	engine_micro_nothing(struct engine *e, char **cause);
void	engine_micro_add_input(struct engine *e, uint32_t core,
	    const uint8_t *data, size_t len);
int	engine_micro_at_boundary(struct engine *e, uint32_t core);
void	engine_micro_free(struct engine *e);
int	engine_micro_save(struct engine *e, void *out, size_t *bytes,
	    char **cause);
int	engine_micro_load(struct engine *e, const void *side, char **cause);

/* The engine_ops of a micro level called name. */
#define ENGINE_MICRO_OPS(name_) {					\
	.name = (name_),						\
	.run = engine_micro_run,					\
	.read_words = engine_host_read_words,				\
	.write_word = engine_host_write_word,				\
	.push_cores = engine_micro_nothing,				\
	.sync_memory = engine_micro_nothing,				\
	.add_input = engine_micro_add_input,				\
	.at_boundary = engine_micro_at_boundary,			\
	.save = engine_micro_save,					\
	.load = engine_micro_load,					\
	.free = engine_micro_free,					\
}

/* engine_mic_create and the others, for level lv over store cs. */
int	engine_micro_create(struct engine *e,
	    const struct engine_micro_level *lv, struct machine *m,
	    const void *cs, char **cause);
void	*engine_micro_state(struct engine *e);
int	engine_micro_leave_all(struct engine *e, char **cause);

/* A control-store file format and the translator of its source. */
struct engine_micro_format {
	uint32_t	 magic, magic_swapped;
	const char	*suffix;        /* ".mic1" */
	int	(*parse)(void *cs, const char *path, const uint8_t *data,
		    size_t len, char **cause);
	int	(*translate)(const char *path, const char *src, size_t len,
		    void *cs, struct mal_syms *syms, struct mal_errors *errs);
	/* Symbols of a stored control store were found (NULL: ignore). */
	void	(*syms_loaded)(void *cs, const struct mal_syms *s);
};

/* engine_mic_load_microcode for format f. */
int	engine_micro_load_microcode(const struct engine_micro_format *f,
	    const char *path, void *cs, struct mal_syms *syms, char **cause);
/* engine_mic_default_microcode for the microprogram file (mic1.mal). */
char	*engine_micro_default_microcode(const char *file);

#endif
