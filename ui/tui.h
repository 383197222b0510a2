/*
 * The TUI: an ncurses screen and a GNU readline command line over a
 * debugging session (src/dbg/session.h).  doc/debugger.md sections 2-4.
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
 * table; dsym.h and regs.h, pure helpers; session-open.h) -> core.  This header
 * keeps curses out (windows are void *), so the pure parts and their unit
 * test (ui/test-tui.c) build without it.  Nothing in ui/ writes to stdout
 * or stderr while curses owns the terminal.
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

/* --- titles (title.c, pure) ------------------------------------------- */

/* Field priorities: the lowest is dropped first. */
enum { TP_LOW = 10, TP_MID = 50, TP_HIGH = 80, TP_NAME = 100 };
#define TITLE_FIELDS 16
struct title {
	int		 n;
	struct {
		int	 prio;
		char	 text[192];
		char	 alt[96];   /* shorter form, tried before dropping */
	}		 f[TITLE_FIELDS];
};
void	 title_init(struct title *tt);
/* Add a field (an empty one is not added). */
void	 title_add(struct title *tt, int prio, const char *fmt, ...)
	    PRINTFLIKE(3, 4);
/* One line of text in width columns: whole, or cut at a blank and ended
 * with "..." (never inside a word or a number), or nothing. */
size_t	 title_clip(const char *s, int width, char *out, size_t size);
/* A shorter form of the last field added ("" : none). */
void	 title_alt(struct title *tt, const char *fmt, ...) PRINTFLIKE(2, 3);
/* The fields that fit in width columns, two blanks apart, in the order
 * added (a field with a shorter form takes it before it is dropped);
 * returns the length of out. */
size_t	 title_fit(const struct title *tt, int width, char *out,
	    size_t size);

/* --- text lines (the log, the stack pane) ----------------------------- */

struct lines {
	char		**v;
	size_t		  n;
	size_t		  cap;
	size_t		  max;      /* oldest lines are dropped beyond it */
};
void	 lines_add(struct lines *l, const char *text, size_t len);
void	 lines_addf(struct lines *l, const char *fmt, ...) PRINTFLIKE(2, 3);
void	 lines_clear(struct lines *l);
void	 lines_free(struct lines *l);
/* The first line at or after from (then from the top) that contains pat,
 * ignoring case; returns its index + 1, 0 if none (the pager's search). */
size_t	 lines_find(const struct lines *l, const char *pat, size_t from);

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

/* --- datapath.c: the Mic-1 datapath pane's contents (pure) ------------ */

/* What the diagram is drawn from: the focused core about to execute the
 * micro-instruction word at its MPC. */
struct dp_input {
	const struct core	*c;
	const struct core	*prev;    /* before the last run; NULL: none */
	const struct mic1_core	*mc;      /* pending READ/FETCH; NULL: unknown */
	const struct program	*prog;    /* the byte a pending FETCH gets */
	uint64_t		 word;    /* control_store[MPC] */
	int			 present; /* 0: no word there (it faults) */
	const char		*label;   /* MAL symbols; NULL: none */
	const char		*text;
};

/* The cycle, decoded, with the values it computes. */
struct dp_decode {
	int		 present;
	uint32_t	 mpc, bsel, f, cmask, mem, next, mpc_next;
	const char	*bname, *func;       /* func NULL: not a book function */
	int		 ena, enb, inva, inc, sll8, sra1;
	int32_t		 bval, aval, alu_out, shifted;
	int		 n, z;                /* of the ALU output */
	int		 jmpc, jamn, jamz;
	uint32_t	 jmpc_mbr;            /* MBR as JMPC ORs it in */
	int		 jmpc_known;          /* 0: a FETCH outside the text */
	uint8_t		 pending;             /* MIC1_PEND_* */
	int		 pend_known;
};
void	 dp_decode(const struct dp_input *in, struct dp_decode *d);

/* A character canvas with a role per cell (enum dp_role). */
enum dp_role { DPR_TEXT, DPR_ACTIVE, DPR_DIM, DPR_CHANGED, DPR_LABEL,
    DPR_ERROR };
#define DP_MAX_ROWS  64
#define DP_MAX_COLS  256
/* From this size on the full diagram, below it the compact form. */
#define DP_FULL_ROWS 11
#define DP_FULL_COLS 70
struct dp_canvas {
	int		 h, w;
	char		 ch[DP_MAX_ROWS][DP_MAX_COLS];
	uint8_t		 role[DP_MAX_ROWS][DP_MAX_COLS];
};
void	 dp_canvas_init(struct dp_canvas *cv, int h, int w);
void	 dp_render(const struct dp_input *in, struct dp_canvas *cv);
/* PMIC (doc/pmic.md): the three compute units of the word at MPC. */
struct dp_pmic_input {
	const struct core	*c;
	uint32_t		 core;    /* SID */
	const struct pmic_core	*pc;      /* G0, G1; NULL: unknown */
	const struct pmic_mi	*mi;
	int			 present;
	const char		*label, *text;
};
struct dp_pmic_cu {
	int		 en, mem, uses_a, uses_b, known;
	uint32_t	 alu, a, b, c;
	int32_t		 aval, bval, out;
};
struct dp_pmic_decode {
	struct dp_pmic_cu cu[PMIC_NCU];
	uint32_t	 next;
	int		 jamn, jamz, jmpc, n, z;
};
void	 dp_decode_pmic(const struct dp_pmic_input *in,
	    struct dp_pmic_decode *d);
void	 dp_render_pmic(const struct dp_pmic_input *in, struct dp_canvas *cv);
/* Row y as a string without trailing blanks (for tests). */
void	 dp_canvas_line(const struct dp_canvas *cv, int y, char *text,
	    size_t size);

/* --- names (names.c) -------------------------------------------------- */

/* "loop", "half#loop", "loop+3", "half+4", "0x001a": how a PC is named in
 * legends and titles (labels of main shown without "main#"). */
void	 names_pc(const struct program *p, int32_t pc, char *text,
	    size_t size);

/* --- the model -------------------------------------------------------- */

/* One line of the code pane. */
/* ROW_DIRECTIVE: a source line the assembler expanded into several
 * instructions (#print "..."), shown as written above them. */
enum row_kind { ROW_INSN, ROW_LABEL, ROW_METHOD, ROW_DIRECTIVE };
struct code_row {
	uint32_t	 addr;       /* ROW_INSN: its address; others: next */
	uint8_t		 kind;
	const char	*name;       /* ROW_LABEL / ROW_METHOD: symbol;
					ROW_DIRECTIVE: its source text */
};
struct listing {
	struct code_row	*rows;
	size_t		 n;
	uint32_t	*src_addr;   /* per source line (1-based): first
				        address, UINT32_MAX: no code */
	size_t		 nsrc;       /* source lines + 1 */
	char		**src;       /* source lines, NUL-terminated */
	int		 fold;       /* built folded (see listing_build) */
};
/*
 * fold: a #print is one ROW_DIRECTIVE row (at its first byte) standing
 * for the instructions it became, as `list` shows it; else the directive
 * row stands above those instructions' rows.
 */
void	 listing_build(struct listing *l, const struct program *p, int fold);
void	 listing_free(struct listing *l);
/* Row index of addr (the instruction holding it, or in a folded
 * listing the #print row); 0 if none. */
size_t	 listing_row(const struct listing *l, uint32_t addr);

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

/* --- tui.c: the loop ---------------------------------------------------- */

/* --- message.c: the message line ------------------------------------- */

/* Show a note (error 0) or an error (1, also logged) at the message
 * line: one line, the text up to its first newline. */
void	 tui_message(struct tui *t, int error, const char *fmt, ...)
	    PRINTFLIKE(3, 4);

/* --- pane-code.c, pane-micro.c: F2 ------------------------------------ */

/* The longest command a pane's key asks for. */
#define PANE_CMD_MAX	64
/* F2: the command that toggles a breakpoint at the code pane's cursor
 * (pane-code.c), into line; "" when there is none. */
void	 code_break_command(struct tui *t, char *line, size_t size);
/* F2 in the microcode pane: the command for an MPC breakpoint at its
 * cursor, into line; NULL, or why there is none (an error to show). */
const char *micro_break_command(struct tui *t, char *line, size_t size);

/* --- pager.c: help over the panes ----------------------------------- */

/* Open the pager on text (lines split at newlines), titled title. */
void	 pager_open(struct tui *t, const char *title, const char *text,
	    size_t len);
void	 pager_close(struct tui *t);
/* A key while the pager is open: 1 if it took it (every key but a
 * resize while open), 0 when closed. */
int	 pager_key(struct tui *t, int key);
/* Draw it over the panes (draw.c, when open). */
void	 pager_draw(struct tui *t);

/* --- complete.c ------------------------------------------------------- */

/* Words that may complete the word at [start, end) of line; a
 * NULL-terminated malloc'd array of malloc'd strings. */
char	**complete_words(struct tui *t, const char *line, int start);
void	 complete_free(char **words);

/* --- cmd-screen.c: the screen's own commands -------------------------- */

/* One command of the screen, tmux's cmd_entry style. */
struct screen_cmd {
	const char	*name;      /* one word, or two ("set level") */
	const char	*alias;     /* one word, or NULL */
	const char	*usage;
	const char	*help;      /* one line for help's list (a long one
				       wraps at \n) */
	/* word: the command word as typed; arg: the rest, blanks skipped */
	void		(*exec)(struct tui *t, const char *word,
			    const char *arg);
};
/* The table, in help's order, ended by an entry with a NULL name. */
extern const struct screen_cmd screen_cmds[];
/* Run line if it is a screen command (or help for one); 1 if it was. */
int	 screen_command(struct tui *t, const char *line);
/* Does word name a one-word screen command (name or alias)? */
int	 screen_cmd_word(const char *word);
/* The screen's commands and keys, as help lists them, appended to out
 * (help shows it in the pager). */
struct buf;
void	 screen_help(struct tui *t, struct buf *out);
/* The focus to pane, or the next (dir 1) or previous (-1) pane shown. */
void	 screen_focus_pane(struct tui *t, int pane);
void	 screen_cycle_pane(struct tui *t, int dir);

/* --- panes (pane-*.c) and the frame (draw.c) -------------------------- */

struct pane_ops {
	const char	*name;       /* for focus and layout */
	const char	*title;
	/* The fields after the title on the title row ("core 12", ...),
	 * with priorities: a narrow pane drops the least important. */
	void		(*caption)(struct tui *t, struct title *tt);
	/* Contents below the title row (win is a WINDOW *). */
	void		(*draw)(struct tui *t, void *win, int h, int w);
	/* Arrow/page keys while the pane has the focus; 1 if used.  A
	 * key that moves the focus or sets a breakpoint writes the
	 * command line it wants into cmd (size bytes, "" on entry), and
	 * tui.c runs it as if typed: a pane never calls up into the
	 * screen that drives it. */
	int		(*key)(struct tui *t, int key, char *cmd,
			    size_t size);
	/* NULL, or why the pane cannot be shown in this build. */
	const char	*(*unavailable)(const struct tui *t);
};
extern const struct pane_ops *const pane_table[PANE_COUNT];

extern const struct pane_ops pane_code_ops, pane_cores_ops,
    pane_warps_ops, pane_regs_ops, pane_stack_ops, pane_output_ops,
    pane_log_ops, pane_datapath_ops, pane_micro_ops;

/* Colours and attributes by role (paint.c, below the panes). */
enum role {
	ROLE_NORMAL, ROLE_TITLE, ROLE_TITLE_FOCUS, ROLE_STATUS, ROLE_ERROR,
	ROLE_CHANGED, ROLE_PC, ROLE_BREAK, ROLE_CURSOR, ROLE_DIM, ROLE_LABEL,
	ROLE_ACTIVE,     /* what the current micro-instruction uses */
	ROLE_CLASS,      /* + enum core_class */
	ROLE_PATH = ROLE_CLASS + CLASS_COUNT,   /* + path index 0..7 */
	ROLE_COUNT = ROLE_PATH + 8
};
void	 draw_setup_colours(struct tui *t);
/* Curses attributes of a role (an attr_t). */
unsigned long draw_attr(const struct tui *t, int role);
/* Write text clipped to the window width at (y, x); returns columns. */
int	 draw_text(void *win, int y, int x, int w, unsigned long attr,
	    const char *text);
int	 draw_textf(void *win, int y, int x, int w, unsigned long attr,
	    const char *fmt, ...) PRINTFLIKE(6, 7);
/* Wrapped tail of lines (the log, the output pane): rows scrolled back
 * by scroll; returns rows the text needs. */
size_t	 draw_wrapped(void *win, int y0, int h, int w, const struct lines *l,
	    size_t scroll, unsigned long attr);
/* The frame (draw.c): every dirty pane, then the terminal. */
void	 draw_all(struct tui *t);
void	 draw_free_windows(struct tui *t);
/* Per-pane glyphs shared by panes and the legend lines. */
extern const char class_glyph[CLASS_COUNT];
char	 opclass_glyph(int opclass);

/* --- term.c: terminal, signals, readline ------------------------------ */

/* What readline's callbacks call in the UI above term.c (arg: its
 * model). */
struct term_hooks {
	void	 *arg;
	/* the line being edited changed: draw it */
	void	  (*redraw)(void *arg);
	/* readline accepted a line (NULL: end of file) */
	void	  (*line)(void *arg, const char *line);
	/* words that may complete the word at start of line, and how to
	 * free them (complete_words, complete_free) */
	char	**(*complete)(void *arg, const char *line, int start);
	void	  (*free_words)(char **words);
	/* readline wants to list completions */
	void	  (*show)(void *arg, char **matches, int n);
};
/* Take over the terminal (curses, signals, stderr) for hooks->arg's UI
 * and give its size.  0 or -1 + cause. */
int	 term_start(const struct term_hooks *hooks, int *rows, int *cols,
	    char **cause);
/* Give it back (idempotent; also run by atexit). */
void	 term_stop(void);
/* The self-pipe's read end and stdin, for poll(). */
int	 term_signal_fd(void);
/* Signals since the last call: a bit per kind. */
enum { TERM_SIG_INT = 1, TERM_SIG_WINCH = 2, TERM_SIG_QUIT = 4,
    TERM_SIG_CONT = 8, TERM_SIG_STOP = 16 /* SIGINT during a run */ };
unsigned term_take_signals(int *quit_signal);
/* The session's interrupt flag, set by SIGINT while running is 1. */
void	 term_set_run(volatile sig_atomic_t *interrupt, int running);
/* Read what was written to stderr since the last call (a driver's
 * messages) into l; returns bytes read. */
size_t	 term_drain_stderr(struct lines *l);
/* Size of the terminal now. */
void	 term_size(int *rows, int *cols);
/* Feed one curses key to readline. */
void	 term_rl_key(int key);
/* The line being edited. */
void	 term_rl_state(const char **prompt, const char **line, int *point,
	    int *end);
void	 term_rl_set_prompt(const char *prompt);
void	 term_rl_clear_line(void);
void	 term_rl_add_history(const char *line);

#endif
