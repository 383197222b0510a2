/*
 * Allocation, strings, files and byte buffers.  Allocation failures abort
 * with a message: no caller could recover, and checking every small
 * allocation would bury the real error paths.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static void
oom(size_t n)
{
	fprintf(stderr, "micdb: out of memory allocating %zu bytes\n", n);
	abort();
}

void
free_all(void *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		oom(n);
	return q;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *p;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		oom(0);
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

int
read_file(const char *path, uint8_t **data, size_t *len, char **cause)
{
	FILE *f;
	struct buf b = { 0 };
	uint8_t chunk[65536];
	size_t n;

	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((f = fopen(path, "rb")) == NULL) {
		*cause = xasprintf("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_put(&b, chunk, n);
	if (ferror(f)) {
		*cause = xasprintf("cannot read %s: %s", path, strerror(errno));
		if (f != stdin)
			fclose(f);
		buf_free(&b);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	buf_put_u8(&b, 0);	/* callers may treat text as a C string */
	*data = b.data;
	*len = b.len - 1;
	return 0;
}

/*
 * Files written whole or not at all (struct atomic_file).  The temporary
 * is PATH.tmp-PID-N in PATH's own directory, so that rename(2) replaces
 * the old file in one step; it is created with O_EXCL (never follows a
 * planted link) and gets the mode the old file had.  Names of the
 * temporaries still open sit in a small table that a signal handler may
 * walk: it only calls unlink(2), which is async-signal-safe.
 */
#define ATOMIC_SLOTS	8
static char *volatile atomic_tmp[ATOMIC_SLOTS];

static void
atomic_forget(struct atomic_file *af)
{
	if (af->slot >= 0)
		atomic_tmp[af->slot] = NULL;
	af->slot = -1;
}

int
atomic_open(struct atomic_file *af, const char *path, char **cause)
{
	static unsigned serial;
	struct stat st;
	mode_t mode = 0666;
	int fd = -1, have = 0;

	memset(af, 0, sizeof *af);
	af->slot = -1;
	af->path = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		af->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0) {
		have = 1;
		mode = st.st_mode & 07777;
	}
	/* Only a regular file (or a new one) is replaced by rename: renaming
	 * over /dev/null or a FIFO would put a regular file in its place. */
	if (have && !S_ISREG(st.st_mode)) {
		if ((af->f = fopen(path, "wb")) == NULL) {
			*cause = xasprintf("cannot open %s: %s", path,
			    strerror(errno));
			free(af->path);
			return -1;
		}
		return 0;
	}
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		free(af->tmp);
		af->tmp = xasprintf("%s.tmp-%ld-%u", path, (long)getpid(),
		    serial++);
		fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int err = errno;

		*cause = xasprintf("cannot create %s: %s", path,
		    strerror(err));
		free(af->tmp);
		free(af->path);
		errno = err;	/* for a caller that words its own message */
		return -1;
	}
	/* a file that was there keeps its mode (O_CREAT applied umask) */
	if (have)
		(void)fchmod(fd, mode);
	if ((af->f = fdopen(fd, "wb")) == NULL) {
		*cause = xasprintf("cannot create %s: %s", path,
		    strerror(errno));
		close(fd);
		unlink(af->tmp);
		free(af->tmp);
		free(af->path);
		return -1;
	}
	for (int i = 0; i < ATOMIC_SLOTS; i++)
		if (atomic_tmp[i] == NULL) {
			atomic_tmp[i] = af->tmp;
			af->slot = i;
			break;
		}
	return 0;
}

int
atomic_write(struct atomic_file *af, const void *p, size_t n)
{
	if (fwrite(p, 1, n, af->f) != n) {
		if (af->err == 0)
			af->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int
atomic_printf(struct atomic_file *af, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(af->f, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (af->err == 0)
			af->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int
atomic_failed(struct atomic_file *af)
{
	if (af->err == 0 && ferror(af->f))
		af->err = errno ? errno : EIO;
	return af->err != 0;
}

static void
atomic_free(struct atomic_file *af)
{
	atomic_forget(af);
	free(af->tmp);
	free(af->path);
	af->tmp = af->path = NULL;
	af->f = NULL;
}

int
atomic_commit(struct atomic_file *af, char **cause)
{
	int err = af->err;

	if (af->f == NULL)
		return 0;
	errno = 0;
	if (fflush(af->f) != 0 && err == 0)
		err = errno ? errno : EIO;
	if (err == 0 && ferror(af->f))
		err = EIO;
	/* on disk before it replaces the old file: a crash after the
	 * rename must not leave an empty file where a good one was */
	if (err == 0 && af->tmp != NULL && fsync(fileno(af->f)) != 0)
		err = errno;
	if (af->f == stdout) {
		if (err != 0)
			*cause = xasprintf("cannot write to standard output: "
			    "%s", strerror(err));
		atomic_free(af);
		return err != 0 ? -1 : 0;
	}
	if (fclose(af->f) != 0 && err == 0)
		err = errno ? errno : EIO;
	if (err == 0 && af->tmp != NULL && rename(af->tmp, af->path) != 0)
		err = errno;
	if (err != 0) {
		*cause = xasprintf("cannot write %s: %s", af->path,
		    strerror(err));
		if (af->tmp != NULL)
			unlink(af->tmp);
		atomic_free(af);
		return -1;
	}
	atomic_free(af);
	return 0;
}

void
atomic_abort(struct atomic_file *af)
{
	if (af->f == NULL)
		return;
	if (af->f != stdout)
		fclose(af->f);
	if (af->tmp != NULL)
		unlink(af->tmp);
	atomic_free(af);
}

void
atomic_cleanup_signal(void)
{
	for (int i = 0; i < ATOMIC_SLOTS; i++) {
		char *tmp = atomic_tmp[i];

		if (tmp != NULL)
			unlink(tmp);
	}
}

static void
atomic_on_signal(int sig)
{
	atomic_cleanup_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

void
atomic_cleanup_on_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGHUP, SIGQUIT };

	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa, old;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = atomic_on_signal;
		sigemptyset(&sa.sa_mask);
		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int
write_file(const char *path, const uint8_t *data, size_t len, char **cause)
{
	struct atomic_file af;

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	/* a failed write is kept in af; the commit reports it and removes
	 * the temporary */
	(void)atomic_write(&af, data, len);
	return atomic_commit(&af, cause);
}

void
buf_put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < b->len + n)
			cap *= 2;
		b->data = xrealloc(b->data, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

void
buf_put_u8(struct buf *b, uint8_t v)
{
	buf_put(b, &v, 1);
}

void
buf_put_be16(struct buf *b, uint16_t v)
{
	uint8_t p[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	buf_put(b, p, 2);
}

void
buf_put_be32(struct buf *b, uint32_t v)
{
	uint8_t p[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 8), (uint8_t)v };

	buf_put(b, p, 4);
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	char *s = xvasprintf(fmt, ap);

	buf_put(b, s, strlen(s));
	free(s);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

const char *
show_bytes(const char *p, size_t len, char *out, size_t outsize)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < len && o + 8 < outsize; i++) {
		unsigned char c = (unsigned char)p[i];

		if (i == 40) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (c < 0x20 || c >= 0x7f) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	return out;
}

/*
 * Damerau-Levenshtein distance in its optimal-string-alignment form: an
 * insertion, a deletion, a substitution or a swap of two neighbours each
 * cost 1, so that "contniue" is as near "continue" as a one-letter typo
 * is.  Three rows of the table suffice.
 */
int
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *prev2, *prev, *row, *t, d;

	if (la > 64 || lb > 64)
		return 1000;
	prev2 = xcalloc(lb + 1, sizeof *prev2);
	prev = xcalloc(lb + 1, sizeof *prev);
	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (i = 1; i <= la; i++) {
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			row[j] = best;
		}
		t = prev2;
		prev2 = prev;
		prev = row;
		row = t;
	}
	d = prev[lb];
	free(prev2);
	free(prev);
	free(row);
	return d;
}

int
spelling_near(const char *typed, const char *cand)
{
	size_t n = strlen(typed);
	int d = edit_distance(typed, cand);
	int limit = n <= 2 ? 0 : n <= 4 ? 1 : n <= 8 ? 2 : 3;

	return d <= limit ? d : -1;
}

int
parse_uint_option(const char *text, unsigned long min, unsigned long max,
    unsigned long *out)
{
	char *end;
	unsigned long v;

	if (text == NULL || *text == '\0' || *text == '-' || *text == '+')
		return -1;
	errno = 0;
	v = strtoul(text, &end, 0);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

int
parse_range(const char **p, unsigned long max, unsigned long *a,
    unsigned long *b)
{
	const char *q = *p;
	char *end;

	if (*q < '0' || *q > '9')
		return -1;
	*a = *b = strtoul(q, &end, 10);
	q = end;
	if (*q == '-') {
		q++;
		if (*q < '0' || *q > '9')
			return -1;
		*b = strtoul(q, &end, 10);
		q = end;
	}
	if (*a > *b)
		return -2;
	if (*b > max)
		return -3;
	*p = q;
	return 0;
}

int
option_number(const char *opt, const char *arg, unsigned long min,
    unsigned long max, unsigned long *v, char **cause)
{
	if (parse_uint_option(arg, min, max, v) != 0) {
		*cause = xasprintf("--%s needs a whole number from %lu to %lu, "
		    "not '%s'", opt, min, max, arg);
		return -1;
	}
	return 0;
}

const char *
stdout_failed(void)
{
	/* the error flag too: a write that failed before left fflush
	 * nothing to fail on, and no errno */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return NULL;
	return errno != 0 ? strerror(errno) : "write error";
}

int
stdout_done(const char *prog, int rc)
{
	const char *why = stdout_failed();

	if (why != NULL && rc == 0) {
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    prog, why);
		rc = 2;
	}
	return rc;
}
