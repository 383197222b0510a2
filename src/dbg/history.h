/*
 * Reverse execution (manycore.md section 4): the session records a
 * bounded ring of snapshots of the whole machine - registers, memory,
 * input positions, the output produced so far, the engine's state
 * outside struct machine (engine.h save/load) - and reaches any earlier
 * consistent cut by restoring the nearest snapshot at or before it and
 * replaying forward with breakpoints and watchpoints off.  Replay is
 * exact because every engine is deterministic.
 *
 * Snapshots are sparse: one when a forward command begins (if the last
 * is far enough behind or the scheduler-locking mask changed: the steps
 * between two snapshots are replayed with the mask of the first), and
 * every so many steps within a long run.  Their memory is stored with
 * trailing zero words trimmed (stacks per core, globals, heap), so a
 * shallow program on many cores keeps small snapshots.
 *
 * The ring is bounded in bytes (set history-size, MiB); the oldest
 * snapshots go first.  Editing the state (set var, input), a level
 * switch and run discard the whole history: the recorded future no
 * longer follows from the present.
 *
 * Output: a core's console output is counted per core; what was shown
 * once is not shown again when execution passes the same point again
 * after going back (gdb's replay does not repeat output either), unless
 * history was discarded meanwhile.
 */
#ifndef MICDB_HISTORY_H
#define MICDB_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct session;
struct history;

#define HISTORY_DEFAULT_MIB 256

struct history *history_create(uint32_t ncores);
void	 history_free(struct history *h);

/* A forward run begins / went on by some steps: maybe take a snapshot.
 * Failures are not the command's: recording stops with a note in
 * info history. */
void	 history_before_run(struct session *s);
void	 history_after_slice(struct session *s);
/* The state was edited or replaced: discard every snapshot.  why names
 * what did it ("set var"). */
void	 history_forget(struct session *s, const char *why);
/* len bytes of core's output were produced: how many of them were shown
 * already (the first ones), as described above. */
/* run: a new machine, whose output is all news. */
void	 history_restart(struct session *s);
size_t	 history_output(struct history *h, uint32_t core, size_t len);

/* Bytes of output a core has produced up to the present cut (after going
 * back, less than the front end was shown: it may hide the rest). */
uint64_t history_output_total(const struct session *s, uint32_t core);
/* Bytes of output sent to the front end so far (the high mark): more
 * than the total after going back; the front end's bytes beyond it were
 * discarded with the history (run, set var, input, set level). */
uint64_t history_output_high(const struct session *s, uint32_t core);

/* The commands (cmd-run.c): reverse-stepi N, reverse-step N,
 * reverse-continue; 0 with the report in out, or -1 + *cause with the
 * machine where it was. */
int	 history_reverse_steps(struct session *s, uint64_t n, struct buf *out,
	    char **cause);
int	 history_reverse_insns(struct session *s, uint64_t n, struct buf *out,
	    char **cause);
int	 history_reverse_continue(struct session *s, struct buf *out,
	    char **cause);

/* set history-size (MiB; 0 turns recording off), info history. */
void	 history_set_size(struct session *s, uint64_t mib);
uint64_t history_size_mib(const struct session *s);
void	 history_info(struct session *s, struct buf *out);

/* The command entries, for the set, show and info tables. */
extern const struct cmd_entry cmd_set_history_entry,
    cmd_show_history_entry, cmd_info_history_entry;

#endif
