/*
 * What the cores and warps panes show (census.c, pure): a core's class,
 * the grid's cells, a warp's lanes and the whole machine's summary, from
 * the host copy of the machine.
 */
#ifndef MICDB_UI_CENSUS_H
#define MICDB_UI_CENSUS_H

#include <stddef.h>
#include <stdint.h>
#include "machine.h"

/* --- census (census.c, pure) ------------------------------------------ */

/* What a core shows as in the grid; "at a breakpoint" is a running core
 * whose PC is an enabled breakpoint that applies to it.  The classes a
 * running core may show (running, break, forked) are census_runs'. */
enum core_class {
	CLASS_RUNNING,
	CLASS_HALTED,
	CLASS_FAULTED,
	CLASS_WAITING,
	CLASS_BREAK,
	CLASS_FORKED,    /* fork-join: running inside its forked method */
	CLASS_JOINING,   /* fork-join: waiting at the join */
	CLASS_COUNT
};

/* Enabled breakpoint addresses, as the census tests them. */
struct bpmap {
	uint8_t		**at;       /* per program: text_size bytes; 0: none,
				       255: an enabled breakpoint for every
				       core, k: for the cores of mask[k-1] */
	uint8_t		**mask;     /* ncores bytes each */
	size_t		  nmask;
	size_t		  nprogs;
};

/* The class of one core (b may be NULL: no breakpoints). */
enum core_class census_class(const struct machine *m, const struct bpmap *b,
	    uint32_t core);
/* Whether a core of class k is running (running, break, forked). */
int	 census_runs(enum core_class k);

/* One cell of the cores grid: a core or a group of cores. */
struct grid_cell {
	uint32_t	 first, count;   /* the cores it covers */
	uint8_t		 cls;            /* majority enum core_class */
	uint32_t	 majority;       /* cores in that class */
	int		 opclass;        /* majority opcode class of its
					    running cores, -1: none run */
	uint32_t	 byclass[CLASS_COUNT];
};

/* Geometry of the grid inside a w x h area. */
struct grid_geom {
	uint32_t	 group;      /* cores per cell (power of two) */
	uint32_t	 per_row;    /* cells per row */
	uint32_t	 rows;       /* rows the whole machine needs */
	uint32_t	 top;        /* first row shown */
	uint32_t	 shown;      /* rows shown */
	int		 label_w;    /* width of the row labels, 0: none */
	int		 cell_w;     /* columns per cell */
};

/*
 * Fit ncores in w x h: one core per cell if they fit, else the smallest
 * power-of-two group that fits; zoom > 0 forces a group size (then the
 * grid scrolls so that focus is shown).
 */
void	 census_grid(uint32_t ncores, int w, int h, uint32_t zoom,
	    uint32_t focus, struct grid_geom *g);
void	 census_cell(const struct machine *m, const struct bpmap *b,
	    uint32_t first, uint32_t count, struct grid_cell *c);
/* Every cell g shows, row after row (g->shown x g->per_row), split over
 * host threads: with groups they cover the whole machine. */
void	 census_cells(const struct machine *m, const struct bpmap *b,
	    const struct grid_geom *g, struct grid_cell *cells);

/* Program paths of one warp (doc/manycore.md section 3). */
struct warp_paths {
	uint32_t	 first, lanes;   /* first core, cores in the warp */
	uint32_t	 nactive;        /* RUNNING lanes */
	uint32_t	 npaths;
	uint16_t	 prog[64];       /* path i: program and PC, */
	int32_t		 pc[64];         /* largest group first */
	uint32_t	 count[64];
	uint8_t		 lane_path[64];  /* per lane: path index, or 255 */
};
void	 census_warp(const struct machine *m, uint32_t w,
	    struct warp_paths *v);

/* The whole machine, one pass. */
struct census_totals {
	uint32_t	 byclass[CLASS_COUNT];
	uint64_t	 active;         /* running lanes, all warps */
	uint64_t	 paths;          /* sum over warps of distinct PCs */
	uint32_t	 busy_warps;     /* warps with an active lane */
	uint64_t	 hist[65];       /* [n]: paths that n active lanes share */
};
void	 census_totals(const struct machine *m, const struct bpmap *b,
	    struct census_totals *t);
/* "1:3 4-7:12 32:9" from hist, in power-of-two buckets (empty ones
 * left out; "-" when all are). */
void	 census_hist_text(const struct census_totals *t, uint32_t width,
	    char *text, size_t size);

/* The words of the classes ("run", "break", ...), and "33 run 31 break":
 * the classes that have cores, in enum order, as the cores pane's title
 * and the status bar both say it (one count, doc/debugger.md section 2). */
extern const char *const class_word[CLASS_COUNT];
void	 census_counts_text(const uint32_t *byclass, char *text, size_t size);
#endif
