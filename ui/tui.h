/*
 * The TUI: an ncurses screen and a GNU readline command line over a
 * debugging session (src/dbg/session.h).  doc/debugger.md sections 2-4.
 *
 * This header is the model (struct tui) and tui_main; each module has a
 * header of its own, and each file includes the headers of what it uses:
 * layout.h, census.h, title.h, lines.h, names.h (with the listing),
 * datapath.h (the pure parts, which do not include this one), access.h,
 * message.h, pane.h (the pane interface, the frame and paint.c), pager.h,
 * complete.h, screen.h (cmd-screen.c) and term.h.
 *
 * Structure (the state is kept apart from the drawing, so that the pure
 * parts are tested without a terminal):
 *
 *   struct tui       the model: everything the screen shows that is not
 *                    in the session (focus pane, code cursor, log, core
 *                    output, caches of what the session only gives as
 *                    text) and the run-control state of the front end.
 *   layout.c         pure functions: screen size -> rectangles.
 *   census.c         pure functions: machine -> grid cells, warp lanes,
 *                    whole-machine summary.  Only what is visible is
 *                    computed per core, plus one pass for the totals.
 *   names.c          pure: a PC as a label, an instruction with local
 *                    names, the code pane's listing of a program.
 *   lines.c          the bounded line store of the transcript.
 *   access.c         what the panes draw from: the machine, focus,
 *                    level, listings, output (tui_machine, ...), and
 *                    breakpoints, frames and k from the session's
 *                    accessors, in the forms the panes draw.
 *   datapath.c       pure: the Mic-1 datapath pane's decoding and
 *                    diagram (a character canvas with roles).
 *   paint.c          what panes draw with: colours by role, clipped and
 *                    wrapped text, glyphs.
 *   listing.c        the cursor, paging and marks the code and microcode
 *                    panes share.
 *   pane-*.c, draw.c the panes (a small vtable each) and the frame
 *                    around them (draw.c calls the panes); drawing only
 *                    reads the model.
 *   title.c          pure: title rows and the status bar from fields
 *                    with priorities (what does not fit drops whole).
 *   pager.c          the help pager over the panes (keys while open).
 *   render.c         the off-screen render bench times (render.h).
 *   complete.c       completion words (commands, labels, registers).
 *   cmd-screen.c     the screen's own commands, a table like the
 *                    session's.
 *   term.c           the only file with static state: curses ownership,
 *                    signals (self-pipe), stderr capture and the readline
 *                    callbacks that readline's C API forces to be global;
 *                    it reaches the UI only through struct term_hooks.
 *   message.c        the message line (tui_message), below every file
 *                    that tells the user something.
 *   tui.c            tui_main: options, session, main loop, keys,
 *                    commands.  Nothing below calls it back: a pane's
 *                    key returns the command it wants and set level
 *                    leaves the switch to it (level_go), so the files
 *                    form a chain, not a circle.
 *
 * Dependencies point one way: ui -> dbg (session.h; cmd.h for the command
 * table; dsym.h and regs.h, pure helpers; session-open.h) -> core.  The
 * headers keep curses out (windows are void *), so the pure parts and
 * their unit test (ui/test-tui.c) build without it.  Nothing in ui/
 * writes to stdout or stderr while curses owns the terminal.
 */
#ifndef MICDB_TUI_H
#define MICDB_TUI_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "levels.h"
#include "machine.h"
#include "mic1.h"
#include "pmic.h"
#include "program.h"
#include "util.h"

#include "access.h"
#include "census.h"
#include "layout.h"
#include "lines.h"

struct session;
struct engine;
struct dsym;

/*
 * micdb [options] PROGRAM, interactive.  Returns the exit status, or
 * TUI_BATCH when the options name a script (--batch or -x in a form
 * micdb's dispatcher did not spot, such as an abbreviation): the caller
 * runs the batch front end, which the UI does not know.
 */
#define TUI_BATCH (-1)
int	tui_main(int argc, char **argv);

/* --- the model -------------------------------------------------------- */

/* asm: #print folded to its source row; bytes: every instruction. */
enum code_view { VIEW_ASM, VIEW_BYTES, VIEW_SOURCE };

struct code_state {
	enum code_view	 view;
	int		 follow;     /* cursor tracks the focused core's PC */
	uint16_t	 prog;       /* program the cursor is in */
	size_t		 cursor;     /* row (asm) or source line (source) */
	size_t		 top;        /* first row shown */
};
struct tui;
/* The listing panes (code, microcode) share their cursor, scrolling and
 * marks (listing.c), so that both read and move the same way. */
/* Clamp the cursor to total rows and keep it in view; a jump puts it a
 * third down. */
void	 listing_scroll(struct code_state *c, size_t rows, size_t total);
/* Arrows, pages, Home and End on c (follow off); 1 if key was one. */
int	 listing_key(struct code_state *c, size_t page_rows, int key);
/* Start row y: the cursor row is filled in reverse video; returns the
 * row's base attribute. */
unsigned long listing_row_start(struct tui *t, void *win, int y, int w,
	    int cur);
/* The row's marks: mark ("B"/"b", or NULL) in column 0, '>' in column 1
 * when at is set. */
void	 listing_row_marks(struct tui *t, void *win, int y, int w,
	    unsigned long base, const char *mark, int at);

/*
 * Core output: a bounded tail per core, allocated when a core writes.
 * After reverse execution the buffer still holds output of the recorded
 * future (the session does not send it again when the run passes that
 * point again), so the pane shows only the first len - hide[c] bytes:
 * what the present cut has produced.
 */
#define OUT_KEEP 8192
struct outstore {
	struct buf	**core;      /* ncores pointers, NULL until used */
	uint64_t	 *recv;      /* bytes ever put in core[c] */
	uint64_t	 *hide;      /* of them, produced after the cut */
	uint32_t	  ncores;
};
/* Output the focused core has produced up to the present cut (access.c). */
size_t	 tui_output_len(const struct tui *t, uint32_t core);

/*
 * What is computed over every core, kept for the present cut (access.c):
 * the whole-machine totals, the kernel's SIMD efficiency and the cores
 * grid's cells on screen are computed once per change of the key (the
 * session's generation; without a session the machine's step), not once
 * per frame, so that a frame costs what is on the screen.
 */
struct census_cache {
	int		  valid;
	uint64_t	  key;
	double		  keff;       /* access_simd_efficiency, -1: none */
	int		  cells_valid;
	uint64_t	  cells_key;
	struct grid_geom  geom;       /* of the cells */
	struct grid_cell *cells;      /* geom.shown x geom.per_row */
	size_t		  cap;
};

/*
 * Where keys go (doc/debugger.md section 3, gdb's TUI key modes): at the
 * prompt every printable key is typed; in SingleKey mode (C-x s) single
 * letters are commands; a key SingleKey does not bind drops into the
 * prompt for one command, typed, then SingleKey mode is back.
 */
enum key_mode {
	KEYS_PROMPT,
	KEYS_SINGLE,
	KEYS_ONE_COMMAND    /* SingleKey, typing one command line */
};

/* Redraw flags: set anywhere, acted on once per turn of the main loop
 * (draw_all).  One bit per pane, then the fixed rows. */
#define DIRTY_PANE(p)   (1u << (p))
#define DIRTY_STATUS    (1u << (PANE_COUNT + 0))
#define DIRTY_MSG       (1u << (PANE_COUNT + 1))
#define DIRTY_CMD       (1u << (PANE_COUNT + 2))
#define DIRTY_LAYOUT    (1u << (PANE_COUNT + 3))  /* size or layout */
#define DIRTY_CLEAR     (1u << (PANE_COUNT + 4))  /* repaint everything */
#define DIRTY_ALL       0xffffffffu

/* The help pager (pager.c): text over the panes until q or Esc. */
struct pager {
	int		 open;
	char		 title[128];
	struct lines	 text;        /* one line each, unwrapped */
	size_t		 top;         /* first line shown */
	size_t		 page;        /* lines shown, as last drawn */
	int		 typing;      /* '/' pressed: a pattern is typed */
	char		 pat[128];    /* the pattern (typed or last) */
	size_t		 npat;
	size_t		 hit;         /* line of the last match + 1; 0: none */
	char		 note[160];   /* "not found", ... on its bottom row */
};

struct tui {
	/* the session and what it was built from */
	struct session		*s;            /* NULL: off-screen render */
	const struct machine	*m;            /* drawn when s is NULL */
	const struct program	**progs;       /* not owned */
	size_t			 nprogs;
	struct dsym		*dsyms;        /* per program: local names */
	struct listing		*listings;     /* per program, built lazily */
	char			*title;        /* program file names */
	struct engine		*engine;       /* inside the session; for k */
	int			 engine_warps; /* it keeps warp records (k) */
	const char		*engine_name;
	const char		*device;       /* --device, for the engine */

	/* the screen */
	int			 rows, cols;
	struct screen_layout	 lay;
	void			*win[PANE_COUNT];  /* WINDOW *, NULL: hidden */
	void			*wstatus, *wmsg, *wcmd;
	enum layout_id		 layout;
	enum pane_id		 focus;        /* pane that arrows move in */
	unsigned		 dirty;        /* DIRTY_* bits */
	int			 colour;       /* colour pairs are set up */

	/* message line: the last error or stop, one line */
	char			 msg[512];
	int			 msg_error;

	/* command window transcript */
	struct lines		 log;
	size_t			 log_scroll;   /* rows scrolled back */

	struct outstore		 out;          /* per-core console output */
	size_t			 out_scroll;

	/* stack pane: the focused core's frames at the last stop */
	struct lines		 frames;
	size_t			 frames_scroll;
	int			 frames_stale; /* a run has moved on since */
	uint32_t		 frame_sel;    /* up/down/frame's selection */
	int			 frame_show;   /* scroll to it at the next draw */

	struct ui_bps		 bps;          /* breakpoints, for markers */
	struct code_state	 code;
	/* the microcode pane: rows are control-store addresses */
	struct code_state	 ucode;        /* cursor, top, follow */
	uint16_t		*urows;
	size_t			 nurows;
	const void		*urows_for;    /* the microcode they list */
	size_t			 ucode_page;
	struct pager		 pager;        /* help, over the panes */
	int			 in_hint;      /* the IN hint was given */
	/* a y/n question at the message line (set level): the next line
	 * typed answers it */
	int			 ask;
	enum level		 ask_level;    /* and the level set level
					          asked for */
	int			 level_go;     /* set level: switch to
					          ask_level now (no question) */
	size_t			 code_page;    /* code rows shown */
	uint32_t		 last_focus;   /* focus at the last stop */

	/* cores grid */
	int			 by_opcode;    /* colour by opcode class */
	uint32_t		 zoom;         /* cores per cell; 0: fit */
	struct grid_geom	 grid;         /* as last drawn, for keys */
	uint32_t		 warp_rows;    /* warp rows last drawn */
	struct census_totals	 totals;       /* of census.key's cut */
	struct census_cache	 census;

	/* registers before the last run, for "changed" highlights */
	struct core		*prev;         /* copy of cores[prev_first..] */
	uint32_t		 prev_first;
	uint32_t		 prev_n;

	/* run control */
	int			 running;
	uint64_t		 budget;       /* global steps per poll */
	double			 run_t0;       /* when the run began */
	uint64_t		 run_step0;
	double			 rate_t;       /* steps/s: last sample */
	uint64_t		 rate_step;
	double			 rate;
	double			 drawn_t;      /* last full draw */

	/* keys (tui.c): the mode, and what was typed during a run */
	enum key_mode		 key_mode;
	int			 ctl_x;        /* C-x came: the next key decides */
	int			*typeahead;    /* keys typed during a run, kept
					          in order for after the stop */
	size_t			 ntypeahead, typeahead_cap;
	size_t			 typeahead_lost; /* dropped in this run */

	/* the command line */
	char			*last_line;    /* Enter repeats it */
	char			**pending;     /* lines readline accepted */
	size_t			 npending;
	int			 quit;         /* leave the main loop */
	int			 quit_signal;  /* re-raised after cleanup */
	int			 exit_status;
};

#endif
