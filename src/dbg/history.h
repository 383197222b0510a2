/*
 * The recorded history of reverse execution (doc/manycore.md section 4);
 * the reverse commands that search it are reverse.h's.  The session
 * records a bounded ring of snapshots of the whole machine - registers,
 * memory, input positions, the output produced so far, the engine's
 * state outside struct machine (engine.h save/load) - and reaches any
 * earlier consistent cut by restoring the nearest snapshot at or before
 * it and replaying forward with breakpoints and watchpoints off.  Replay is
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

/*
 * Going back (reverse.c searches with these).  The snapshots are
 * numbered 0 (the oldest) to history_nsnaps - 1.
 */
size_t	 history_nsnaps(const struct history *h);
uint64_t history_snap_step(const struct history *h, size_t i);
/* The scheduler-locking mask of the steps after snapshot i; NULL: all. */
const uint8_t *history_snap_mask(const struct history *h, size_t i);
/* The newest snapshot at or before step t, or -1. */
long	 history_find(const struct history *h, uint64_t t);
/* Make the machine snapshot i's cut.  0, or -1 + *cause. */
int	 history_restore(struct session *s, size_t i, char **cause);
/* Make the machine the cut at step t (a snapshot at or before it is
 * restored, and the steps after it replayed).  0, or -1 + *cause. */
int	 history_goto(struct session *s, uint64_t t, char **cause);
/* Count, without showing, the output of steps run again after going
 * back (the machine's output buffers are emptied). */
void	 history_count_output(struct session *s);
/* Is there recorded history before the present?  0, or -1 + *cause
 * saying why not, for the command what ("reverse-step"). */
int	 history_check_back(struct session *s, const char *what,
	    char **cause);

/* set history-size (MiB; 0 turns recording off), info history. */
void	 history_set_size(struct session *s, uint64_t mib);
uint64_t history_size_mib(const struct session *s);
void	 history_info(struct session *s, struct buf *out);

/* The command entries, for the set, show and info tables. */
extern const struct cmd_entry cmd_set_history_entry,
    cmd_show_history_entry, cmd_info_history_entry;

#endif
