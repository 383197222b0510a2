/*
 * Screen layouts (layout.c, pure): the panes, the named layouts and the
 * rectangles a layout gives them at a size.  doc/debugger.md section 2.
 */
#ifndef MICDB_UI_LAYOUT_H
#define MICDB_UI_LAYOUT_H


/* --- layout (layout.c, pure) ------------------------------------------ */

enum pane_id {
	PANE_CODE,
	PANE_CORES,
	PANE_WARPS,
	PANE_REGS,
	PANE_STACK,
	PANE_OUTPUT,
	PANE_LOG,        /* the command window: transcript above the prompt */
	PANE_DATAPATH,   /* micro level: the Mic-1 diagram */
	PANE_MICRO,      /* micro level: the microprogram around MPC */
	PANE_COUNT
};

enum layout_id {
	LAYOUT_DEFAULT,  /* every pane */
	LAYOUT_CODE,     /* code large, registers and stack beside it */
	LAYOUT_CORES,    /* the cores grid large, warps below */
	LAYOUT_WARPS,    /* warps large, code and registers below */
	LAYOUT_MICRO,    /* datapath, microcode and code, registers */
	LAYOUT_COUNT
};

struct rect {
	int	y, x;        /* top left, screen coordinates */
	int	h, w;        /* 0 x 0: not shown */
};

struct screen_layout {
	struct rect	 pane[PANE_COUNT];
	struct rect	 status;      /* top row: program, machine, run state */
	struct rect	 msg;         /* message line above the prompt */
	struct rect	 cmd;         /* the readline line, bottom row */
	int		 too_small;   /* only status, msg and cmd are shown */
};

#define LAYOUT_MIN_ROWS 10
#define LAYOUT_MIN_COLS 40

void	 layout_compute(enum layout_id id, int rows, int cols,
	    struct screen_layout *out);
/* Layout by name ("default", "code", "src", "asm", ...); -1 if none. */
int	 layout_find(const char *name);
const char *layout_name(enum layout_id id);
/* The names, for help and completion (NULL-terminated). */
extern const char *const layout_names[];
/* Panes by name ("code", "regs", "cmd", ...; gdb's "src", "asm" too). */
extern const char *const pane_names[];
int	 pane_find(const char *name);
#endif
