/*
 * The breakpoint and watchpoint table: numbering, enable/disable,
 * conditions, ignore and hit counts, as gdb keeps them.  Pure
 * bookkeeping: no machine, no engine, so the unit tests drive it
 * directly.  The session resolves locations into struct bp_loc and turns
 * the table into the engine's struct engine_bp list (session_sync_bps).
 *
 * Numbers are shared by breakpoints and watchpoints, start at 1 and are
 * never reused, as in gdb.  The table owns every string, mask and
 * condition of its entries.
 */
#ifndef MICDB_BP_H
#define MICDB_BP_H

#include <stddef.h>
#include <stdint.h>

#include "expr.h"

enum bp_kind {
	BP_BREAK,
	BP_WATCH,
};

enum watch_kind {
	WATCH_GLOBAL,    /* globals[addr - MM_GLOBALS_BASE] */
	WATCH_HEAP,      /* a heap word */
	WATCH_LOCAL,     /* a word of one core's stack, while its frame lives */
};

/* Where a breakpoint applies in one program (MIMD: one per program that
 * has the location). */
struct bp_loc {
	uint16_t	 prog;      /* index into machine.progs */
	int32_t		 pc;        /* byte address of an opcode (an MPC
				       for a bp with on_mpc) */
	uint8_t		*mask;      /* cores it applies to, or NULL: all the
				       cores of the machine; owned */
	uint8_t		 disabled;  /* disable N.M: this location only */
};

struct bp {
	uint32_t	 id;
	uint8_t		 kind;      /* enum bp_kind */
	uint8_t		 enabled;
	uint8_t		 temporary; /* tbreak: deleted when it stops */
	uint8_t		 on_mpc;    /* BP_BREAK: locs hold one MPC (prog
				       0) instead of PCs; it stops micro-
				       level cores only */
	char		*what;      /* location or watched word, as shown */
	struct bp_loc	*locs;      /* BP_BREAK */
	size_t		 nlocs;
	uint8_t		*cores;     /* core SET, or NULL for all; owned */
	char		*cores_text;
	struct expr	*cond;      /* NULL: unconditional */
	char		*cond_text;
	uint64_t	 hits;      /* breakpoints: steps in which cores hit
				       it with the condition true (several
				       cores in one step: one hit, the
				       unit ignore counts too); watch-
				       points: changes seen */
	uint64_t	 ignore;    /* hits still to ignore */
	/* BP_WATCH */
	uint8_t		 wkind;     /* enum watch_kind */
	uint32_t	 wcore;     /* WATCH_LOCAL: the core; else 0 */
	int32_t		 waddr;     /* word address */
	int32_t		 wframe;    /* WATCH_LOCAL: LV of the frame */
	int32_t		 wvalue;    /* value at the last look */
};

struct bp_table {
	struct bp	*v;         /* sorted by id */
	size_t		 n;
	size_t		 cap;
	uint32_t	 next_id;   /* starts at 1 */
};

void	 bp_table_init(struct bp_table *t);
void	 bp_table_free(struct bp_table *t);
/* A new enabled entry with the next number (pointer valid until the next
 * add or delete). */
struct bp *bp_add(struct bp_table *t, enum bp_kind kind);
struct bp *bp_find(struct bp_table *t, uint32_t id);
/* 0, or -1 if there is no such entry. */
int	 bp_delete(struct bp_table *t, uint32_t id);
/* Free what an entry owns (bp_delete does this). */
void	 bp_clear(struct bp *b);
size_t	 bp_count(const struct bp_table *t, enum bp_kind kind, int enabled);
/*
 * Parse breakpoint numbers "1 3 5-7" into a fresh sorted array; an empty
 * string gives n = 0.  Every number must exist in t.  0, or -1 + *cause.
 */
int	 bp_parse_ids(const struct bp_table *t, const char *text,
	    uint32_t **ids, size_t *n, char **cause);
/* The index of b's location at pc (in program prog; any for an MPC
 * breakpoint), or b->nlocs if none is. */
size_t	 bp_loc_at(const struct bp *b, uint16_t prog, int32_t pc);
/* enable/disable N.M: location M (from 1) of breakpoint N, as gdb
 * numbers a breakpoint's locations.  0, or -1 + *cause. */
int	 bp_enable_loc(struct bp_table *t, const char *text, int on,
	    char **cause);
/* Replace the condition (text NULL or "": none).  0, or -1 + *cause. */
int	 bp_set_condition(struct bp *b, const char *text, char **cause);

#endif
