/*
 * Inside the DAP front end (src/dap): the adapter's state and the helpers
 * its request files share.  dap.c owns the loop, launch and run
 * control; dap-bp.c the breakpoint requests; dap-view.c the inspection
 * requests (stack, scopes, variables, evaluate, disassemble,
 * memory).  All three call dap-talk.c, which holds what they share
 * (messages, events, threads, stops) and calls none of them back, so
 * that the files form a tree.  Everything goes through the session API (session.h); the
 * adapter adds no semantics of its own, and what it cannot express as a
 * command it refuses with a message.
 *
 * Ids: a thread is a core, threadId = core + 1 (some clients treat 0 as
 * "none"); a frame is (core, index), frameId = core * DAP_FRAMES + index
 * + 1; a variables reference is (scope kind, frame), DAP_SCOPES kinds per
 * frame; a breakpoint's id is micdb's breakpoint number.
 */
#ifndef MICDB_DAP_INT_H
#define MICDB_DAP_INT_H

#include <stdint.h>
#include <stdio.h>

#include "corelines.h"
#include "dap-msg.h"
#include "dsym.h"
#include "opts.h"
#include "session.h"

#define DAP_FRAMES	 128   /* frames per core: 64 ISA + the micro one */
#define DAP_SCOPES	 8     /* scope kinds per frame (enum dap_scope) */
#define DAP_PINNED	 16    /* cores kept as threads after a focus */
#define DAP_STOPCORES	 32    /* cores of one stop shown as threads */
#define DAP_THREADS	 (2 + DAP_PINNED + DAP_STOPCORES)

enum dap_scope {
	SCOPE_LOCALS = 1,
	SCOPE_STACK,
	SCOPE_REGS,
	SCOPE_GLOBALS,
	SCOPE_MICRO,
};

/* Breakpoints set by one request kind (or one source file), replaced as
 * a whole by the next such request, as DAP wants. */
struct dap_bpset {
	char		*key;       /* source path, "function", ... */
	uint32_t	*ids;       /* micdb breakpoint numbers */
	size_t		 n;
};

struct dap {
	FILE			*out;         /* the protocol's stdout */
	struct dap_reader	 rd;
	int			 seq;
	int			 quit;
	int			 line_base;   /* the client's first line: 1,
					         or 0 (linesStartAt1 false) */

	/* the session, after launch */
	struct micdb_opts	 o;
	struct loaded		 l;
	struct session		*s;
	uint32_t		 ncores;
	struct dsym		*dsyms;       /* per program */
	char		       **abspaths;    /* per program: realpath */
	int			 configured;  /* configurationDone came */
	int			 stop_on_entry;
	int			 terminated;  /* terminated was sent */

	/* core output, cut into lines as micdb run does */
	int			 raw;
	struct core_lines	 lines;       /* unless raw */

	/* the run in progress */
	int			 running;
	const char		*run_reason;  /* stopped reason if nothing
					         more specific */

	/* threads: the bounded set of cores shown */
	uint32_t		 pinned[DAP_PINNED];
	size_t			 npinned;
	uint32_t		 stopcores[DAP_STOPCORES];
	size_t			 nstopcores;
	uint32_t		 threads[DAP_THREADS];
	size_t			 nthreads;

	struct dap_bpset	*bpsets;
	size_t			 nbpsets;
};

/* dap-talk.c */
void	 dap_send(struct dap *d, json_object *o);
void	 dap_event(struct dap *d, const char *event, json_object *body);
void	 dap_respond(struct dap *d, json_object *req, json_object *body);
void	 dap_fail(struct dap *d, json_object *req, const char *fmt, ...)
	    PRINTFLIKE(3, 4);
void	 dap_console(struct dap *d, const char *text, size_t len);
/* Run a command line; 0 (output in out), or -1 + *cause. */
int	 dap_exec(struct dap *d, const char *line, struct buf *out,
	    char **cause);
/* Make core the focus (quietly) and keep it among the threads. */
void	 dap_focus(struct dap *d, uint32_t core);
/* A run began (a command left the session running): poll it. */
void	 dap_run_started(struct dap *d, const char *reason);
/* A command stopped the machine at once (reverse, or a finished run):
 * report rep as the stop (echo: also to the debug console). */
void	 dap_stopped(struct dap *d, struct buf *rep, const char *reason,
	    int echo);
/* A console command moved the focus or switched the level: the editor
 * shows the focus again (a stopped event that names it). */
void	 dap_refocus(struct dap *d, const char *reason, const char *desc);
/* Argument helpers: a member of args (NULL if absent). */
json_object *dap_arg(json_object *args, const char *name);
int	 dap_arg_int(json_object *args, const char *name, int64_t *v);
const char *dap_arg_str(json_object *args, const char *name);
/* The core of threadId (0 and *core, or -1 + *cause). */
int	 dap_thread_core(struct dap *d, json_object *args, uint32_t *core,
	    char **cause);
/* realpath of a path, or a copy of it. */
char	*dap_abspath(const char *path);
/* A DAP Source object for a file. */
json_object *dap_source(const char *path);
/* A source line (1-based; 0 unknown) as the client counts lines. */
json_object *dap_line_out(struct dap *d, uint32_t line);
/* qsort order of uint32_t. */
int	 dap_cmp_u32(const void *a, const void *b);
/* The session's output callback: core output as console events. */
void	 dap_on_output(void *arg, uint32_t core, const uint8_t *data,
	    size_t len);
/* Send what is left of the cores' unfinished lines. */
void	 dap_flush_output(struct dap *d);
/* Keep core among the threads (the most recent first). */
void	 dap_pin(struct dap *d, uint32_t core);
/* Send thread started/exited for the change in the cores shown. */
void	 dap_update_threads(struct dap *d);
/* Is no core left that could run?  *faulted: did one fault? */
int	 dap_all_done(struct dap *d, int *faulted);
/* The debuggee ended: exited (code) and terminated, once. */
void	 dap_terminate(struct dap *d, int code);

/* dap-bp.c */
int	 dap_bp_request(struct dap *d, const char *cmd, json_object *req,
	    json_object *args);
void	 dap_bp_free(struct dap *d);

/* dap-view.c */
int	 dap_view_request(struct dap *d, const char *cmd, json_object *req,
	    json_object *args);
/* "$1 = 5" -> "5" (the value part of print's output). */
const char *dap_print_value(const char *text);

#endif
