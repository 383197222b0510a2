/*
 * Commands: one const struct cmd_entry per command, defined next to its
 * handler in a cmd-*.c file (one file per family), and one table in
 * cmd.c that lookup, help and a future completer all read, tmux style.
 *
 * Lookup (cmd_find), as gdb does it: the exact name, then an exact alias
 * (gdb's standard abbreviations: b, c, s, si, n, p, i, bt, ...), then a
 * unique prefix of a name; several prefixes are "ambiguous command 'co':
 * could be condition, continue, core", none is "unknown command" with the
 * name nearest by spelling suggested (util.h spelling_near: a Damerau-
 * Levenshtein distance within a typo's reach, so that a word that is
 * merely short is not "corrected" into another).  info, set and show
 * have subcommand tables looked up the same way (so `i r` is info
 * registers).
 */
#ifndef MICDB_CMD_H
#define MICDB_CMD_H

#include "session.h"
#include "util.h"

/* What a command's argument is, for help and for completion. */
enum cmd_arg {
	ARG_NONE,        /* no argument */
	ARG_COUNT,       /* an optional repeat count */
	ARG_LOCATION,    /* label, method, LINE, FILE:LINE, *ADDR */
	ARG_EXPR,        /* an expression */
	ARG_ASSIGN,      /* NAME = EXPR */
	ARG_BPNUMS,      /* breakpoint numbers */
	ARG_SUBCOMMAND,  /* a word from the entry's sub table */
	ARG_CORE,        /* a core number or set */
	ARG_COMMAND,     /* a command name (help) */
	ARG_WATCH,       /* what watch takes */
	ARG_TEXT,        /* anything else */
};

#define CMD_NOREPEAT   0x01   /* an empty line does not repeat it */

struct cmd_entry;

/* One parsed command line. */
struct cmd_call {
	const struct cmd_entry	*entry;
	const char		*word;   /* the command word as typed */
	const char		*fmt;    /* text after '/' ("8x"), or NULL */
	const char		*args;   /* the rest, blanks trimmed */
};

typedef int (*cmd_fn)(struct session *s, const struct cmd_call *c,
    struct buf *out, char **cause);

struct cmd_entry {
	const char		 *name;
	const char		 *alias;  /* blank-separated, or NULL */
	const char		 *usage;
	const char		 *summary; /* one line for help's list */
	const char		 *help;    /* the details */
	enum cmd_arg		  arg;
	int			  flags;
	cmd_fn			  exec;
	const struct cmd_entry *const *sub;   /* NULL-terminated, or NULL */
};

/* The top-level table, NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];
/* The names of the screen's own commands (ui/cmd-screen.c's table runs
 * them, in this order), here so that --batch and DAP can say where such
 * a command works instead of calling it unknown. */
struct cmd_screen_name {
	const char	*name;      /* one word, or two ("set level") */
	const char	*alias;     /* one word, or NULL */
};
enum cmd_screen {
	CMD_SCREEN_LAYOUT, CMD_SCREEN_SET_LEVEL, CMD_SCREEN_FOCUS,
	CMD_SCREEN_COLOUR, CMD_SCREEN_VIEW, CMD_SCREEN_ZOOM,
	CMD_SCREEN_REFRESH, CMD_SCREEN_N
};
extern const struct cmd_screen_name cmd_screen_names[CMD_SCREEN_N];

/*
 * Find word in table.  what names the table in messages ("command",
 * "info command").  0 and *out, or -1 + *cause.
 */
int	cmd_find(const struct cmd_entry *const *table, const char *word,
	    const char *what, const struct cmd_entry **out, char **cause);
/* Parse and run one line (not empty). */
int	cmd_execute(struct session *s, const char *line, struct buf *out,
	    char **cause);
/* Run c's first argument word as a subcommand of c->entry. */
int	cmd_dispatch_sub(struct session *s, const struct cmd_call *c,
	    struct buf *out, char **cause);
/* Split off the first blank-separated word of *p (copied into word). */
int	cmd_word(const char **p, char *word, size_t size);
/* Parse a whole non-negative count; 0, or -1 + *cause. */
int	cmd_count(const char *text, uint64_t *n, char **cause);
/*
 * gdb's print formats of one word (cmd-data.c): x hex, d signed, u
 * unsigned, o octal with a leading 0, t binary, c character
 * ("65 'A'").  cmd_format_check: 0 if fmt is one of them, else -1 +
 * *cause naming them.  cmd_format_value appends v in that format.
 */
#define CMD_FORMATS "xduotc"
int	cmd_format_check(char fmt, const char *typed, char **cause);
void	cmd_format_value(struct buf *out, char fmt, int32_t v);

/* The entries, defined in the cmd-*.c files. */
extern const struct cmd_entry cmd_run_entry, cmd_continue_entry,
    cmd_step_entry, cmd_stepi_entry, cmd_next_entry, cmd_nexti_entry,
    cmd_finish_entry, cmd_until_entry, cmd_reverse_step_entry,
    cmd_reverse_stepi_entry, cmd_reverse_continue_entry;
extern const struct cmd_entry cmd_break_entry, cmd_tbreak_entry,
    cmd_delete_entry, cmd_disable_entry, cmd_enable_entry,
    cmd_condition_entry, cmd_ignore_entry, cmd_watch_entry;
extern const struct cmd_entry cmd_info_entry, cmd_info_break_entry,
    cmd_info_cores_entry, cmd_info_warps_entry, cmd_info_lanes_entry,
    cmd_info_divergence_entry;
extern const struct cmd_entry cmd_info_registers_entry,
    cmd_info_frame_entry, cmd_backtrace_entry, cmd_info_stack_entry,
    cmd_frame_entry, cmd_up_entry, cmd_down_entry, cmd_info_locals_entry,
    cmd_info_args_entry;
extern const struct cmd_entry cmd_display_entry, cmd_undisplay_entry,
    cmd_info_display_entry;
extern const struct cmd_entry cmd_info_globals_entry, cmd_info_heap_entry,
    cmd_x_entry;
/* What x/FMT ARGS shows (fmt NULL: none given; ARGS "": on after the
 * last x), into out, and where the next x goes on; display shows x's
 * formats with it.  0, or -1 + *cause. */
int	cmd_x_show(struct session *s, const char *fmt, const char *args,
	    struct buf *out, char **cause);
extern const struct cmd_entry cmd_print_entry, cmd_input_entry,
    cmd_list_entry;
extern const struct cmd_entry cmd_core_entry, cmd_warp_entry,
    cmd_lane_entry;
extern const struct cmd_entry cmd_set_entry, cmd_show_entry,
    cmd_info_level_entry;
extern const struct cmd_entry cmd_help_entry, cmd_quit_entry;
extern const struct cmd_entry cmd_trace_entry, cmd_info_trace_entry;

#endif
