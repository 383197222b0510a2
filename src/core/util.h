/*
 * Small helpers every module uses: checked allocation (an allocation
 * failure aborts with a message; nothing in micdb can go on without
 * memory), formatted strings and whole-file reads that report errors as
 * messages instead of printing them.
 */
#ifndef MICDB_UTIL_H
#define MICDB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define PRINTFLIKE(a, b) __attribute__((format(printf, a, b)))
/* a branch the hot loops of the engines almost never take */
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PRINTFLIKE(a, b)
#define UNLIKELY(x) (x)
#endif

/* NULL when all that was written to standard output got there (it is
 * flushed); else why not (a full disk, a closed pipe). */
const char *stdout_failed(void);
/* A command's last word on standard output: rc, unless what it printed
 * cannot be written (a full disk, a closed pipe), which is said on
 * standard error as "prog: cannot write standard output: why" and exit
 * status 2; a command that already failed keeps its status. */
int stdout_done(const char *prog, int rc);

/* free() each of the n pointers of v; FREE_ALL(a, b, ...) lists a
 * destructor's arrays in one call. */
void	 free_all(void *const *v, size_t n);
#define FREE_ALL(...) free_all((void *const []){ __VA_ARGS__ },	\
	sizeof((void *const []){ __VA_ARGS__ }) / sizeof(void *))
void	*xmalloc(size_t n);
void	*xcalloc(size_t n, size_t size);
void	*xrealloc(void *p, size_t n);
void	*xreallocarray(void *p, size_t n, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
char	*xasprintf(const char *fmt, ...) PRINTFLIKE(1, 2);
char	*xvasprintf(const char *fmt, va_list ap);

/* Read a whole file ("-" is stdin).  Returns 0, or -1 with *cause set. */
int	 read_file(const char *path, uint8_t **data, size_t *len, char **cause);
/*
 * A file written whole or not at all, for everything the tools write
 * (assembled programs and stores, listings, symbol files, traces, bench
 * CSV and plots): the bytes go to a temporary file in PATH's directory,
 * which atomic_commit flushes, fsyncs, closes and renames over PATH, so
 * that Ctrl-C, a fault or a full disk never leaves a truncated file
 * where a good one was.  atomic_abort (and a failed commit) removes the
 * temporary.  "-" is standard output, and a path that exists but is not
 * a regular file (/dev/null, a FIFO, /dev/full) is written in place.
 *
 * Write with atomic_write/atomic_printf or straight to af->f; every
 * error is kept (the first errno) and reported by atomic_commit as
 * "cannot write PATH: No space left on device".  atomic_failed tells a
 * long writer to stop early.
 */
struct atomic_file {
	FILE	*f;        /* where the bytes go */
	char	*path;     /* the file to replace */
	char	*tmp;      /* the temporary; NULL when written in place */
	int	 err;      /* errno of the first failed write, or 0 */
	int	 slot;     /* in the table the signal cleanup walks; -1 */
};
int	 atomic_open(struct atomic_file *af, const char *path, char **cause);
int	 atomic_write(struct atomic_file *af, const void *p, size_t n);
int	 atomic_printf(struct atomic_file *af, const char *fmt, ...)
	    PRINTFLIKE(2, 3);
int	 atomic_failed(struct atomic_file *af);
int	 atomic_commit(struct atomic_file *af, char **cause);
void	 atomic_abort(struct atomic_file *af);
/* Unlink every temporary still open; async-signal-safe, for the signal
 * handler of a tool that writes for long (micdb run --trace). */
void	 atomic_cleanup_signal(void);
/* Handlers for SIGTERM, SIGHUP and SIGQUIT (unless ignored) that unlink
 * the temporaries and then die of the signal. */
void	 atomic_cleanup_on_signals(void);
/* One buffer as a whole file, through struct atomic_file. */
int	 write_file(const char *path, const uint8_t *data, size_t len,
	    char **cause);

/* Growable byte buffer. */
struct buf {
	uint8_t	*data;
	size_t	 len;
	size_t	 cap;
};
void	 buf_put(struct buf *b, const void *p, size_t n);
void	 buf_put_u8(struct buf *b, uint8_t v);
void	 buf_put_be16(struct buf *b, uint16_t v);
void	 buf_put_be32(struct buf *b, uint32_t v);
void	 buf_printf(struct buf *b, const char *fmt, ...) PRINTFLIKE(2, 3);
void	 buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void	 buf_free(struct buf *b);

static inline uint32_t
get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | p[3];
}

static inline uint16_t
get_be16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

/* How many decimal digits v takes: the width of a column of numbers. */
static inline uint32_t
decimal_digits(uint32_t v)
{
	uint32_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * Untrusted bytes made printable for a message: control and non-ASCII
 * bytes as \xHH, at most 40 bytes then "...".  outsize >= 8; returns out.
 */
const char *show_bytes(const char *p, size_t len, char *out, size_t outsize);

/* Whether s ends in suffix (a file name's ".mic1"). */
int	 ends_with(const char *s, const char *suffix);
/* Edit distance (Damerau-Levenshtein: a swap of neighbours costs 1), for
 * "did you mean" suggestions. */
int	 edit_distance(const char *a, const char *b);
/* The distance from typed to cand if cand is a plausible correction of
 * it (a typo, not another word): at most 1 edit for up to 4 letters, 2
 * up to 8, 3 beyond, none for 1 or 2 letters; else -1. */
int	 spelling_near(const char *typed, const char *cand);

/* Parse a non-negative decimal/hex integer option value with bounds. */
int	 parse_uint_option(const char *text, unsigned long min,
	    unsigned long max, unsigned long *out);
/* One range "A" or "A-B" of decimal numbers at *p (a core set's part,
 * a list of breakpoint, display or warp numbers): 0 with *a and *b
 * (B = A for one number) and *p moved past it.  Else *p stays and the
 * range is refused: -1 when *p starts none, -2 when A > B, -3 when
 * B > max (a number too large for unsigned long counts as above any max
 * below ULONG_MAX); *a and *b are set for -2 and -3, for the message.
 * What may follow the range is the caller's. */
int	 parse_range(const char **p, unsigned long max, unsigned long *a,
	    unsigned long *b);
/* The same for option --opt, with the message users see: 0, or -1 and
 * *cause ("--opt needs a whole number from MIN to MAX, not 'ARG'"). */
int	 option_number(const char *opt, const char *arg, unsigned long min,
	    unsigned long max, unsigned long *v, char **cause);

#endif
