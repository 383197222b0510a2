/*
 * What the panes read (access.c): breakpoints, frames and k from the
 * session's accessors in the forms the panes draw, and the machine, the
 * focused core, the level and the listings of the model.
 */
#ifndef MICDB_UI_ACCESS_H
#define MICDB_UI_ACCESS_H

#include <stddef.h>
#include <stdint.h>
#include "census.h"
#include "levels.h"
#include "lines.h"
#include "machine.h"

struct engine;
struct listing;
struct session;

/* --- access.c: breakpoints, frames and k from the session ------------- */

struct ui_bp {
	uint32_t	 id;
	int		 enabled;
	int		 watch;      /* a watchpoint: no address */
	int		 on_mpc;     /* pcs are control-store addresses */
	int32_t		*pcs;
	size_t		 npcs;
	uint8_t		*cores;      /* ncores bytes, or NULL: all cores */
};

struct ui_bps {
	struct ui_bp	*v;
	size_t		 n;
	struct bpmap	 map;
};

struct session_bp;
struct session_frame;
struct tui;
/* bps from the session's breakpoint locations (pure: the unit test
 * feeds it). */
void	 access_bps_from(const struct session_bp *v, size_t n,
	    uint32_t ncores, struct ui_bps *bps);
void	 access_bps_free(struct ui_bps *bps);
/* Rebuild the address maps from bps for the machine's programs. */
void	 access_bps_map(struct ui_bps *bps, const struct machine *m);
/* Breakpoints from the session (while stopped).  0 or -1 + cause. */
int	 access_read_breaks(struct session *s, struct ui_bps *bps,
	    char **cause);
/* The breakpoint at pc in any program, enabled or not; NULL if none. */
const struct ui_bp *access_bp_at(const struct ui_bps *bps, int32_t pc);
/* The MPC breakpoint at control-store address mpc; NULL if none. */
const struct ui_bp *access_mpc_bp_at(const struct ui_bps *bps, int32_t mpc);
/* The focused core's frames as text lines, as `backtrace` prints them
 * (with each frame's locals and operand stack below its row). */
int	 access_frames(struct session *s, struct lines *out, char **cause);
/* The formatting (pure): stack[d] holds the top words of frame d's
 * operand stack (up to 16, bottom first), or NULL. */
void	 access_format_frames(const struct session_frame *f, size_t n,
	    const int32_t *const *stack, struct lines *out);
/* After a stop, what the session only gives while stopped: its engine
 * (run and set level replace it), the breakpoints and the focused
 * core's frames (the TUI after every stop, bench's session render). */
void	 access_stopped(struct tui *t);
/* k of warp w when the engine records it; -1 when it does not. */
int	 access_warp_k(const struct engine *e, uint32_t w);
/* Whole-run SIMD efficiency with k (0..1), or -1 without records. */
double	 access_simd_efficiency(const struct engine *e, uint32_t width);

/* --- access.c: what the panes draw from ------------------------------ */

/* The machine and the focused core the panes draw: the session's, or
 * without a session (bench's off-screen render) t->m and core 0. */
const struct machine *tui_machine(const struct tui *t);
uint32_t tui_focus(const struct tui *t);
/* The instruction a core executes (places_core_pc, the one definition:
 * a faulted core's faulting instruction, a halted core's HALT, a waiting
 * core's BARRIER), or at the micro level
 * inside an instruction the one its microcode is running. */
int32_t	 tui_core_pc(const struct tui *t, uint32_t core);
/* The level the session runs at (ISA without a session). */
enum level tui_level(const struct tui *t);
/* Program prog's listing, built on first use. */
struct listing *tui_listing(struct tui *t, uint16_t prog);
/* The registers of core before the last run, or NULL if not kept. */
const struct core *tui_prev_core(const struct tui *t, uint32_t core);
/* t->totals and t->census.keff of the present cut (computed when the
 * cut changed since the last call). */
void	 tui_census(struct tui *t);
/* The cores grid's cells for geometry g (row r, column k at
 * [r * g->per_row + k]; a cell past the last core has count 0), computed
 * when the cut or g changed. */
const struct grid_cell *tui_grid_cells(struct tui *t,
	    const struct grid_geom *g);
/* Forget them (a new machine). */
void	 tui_census_free(struct tui *t);
#endif
