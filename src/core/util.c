/*
 * Allocation, strings, files and byte buffers.  Allocation failures abort
 * with a message: no caller could recover, and checking every small
 * allocation would bury the real error paths.
 */
#include <errno.h>
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

int
write_file(const char *path, const uint8_t *data, size_t len, char **cause)
{
	struct stat st;
	char *tmp;
	FILE *f;

	if (strcmp(path, "-") == 0) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
			*cause = xasprintf("cannot write to standard output: %s",
			    strerror(errno));
			return -1;
		}
		return 0;
	}
	/* Only a regular file (or a new one) is replaced by rename: renaming
	 * over /dev/null or a FIFO would put a regular file in its place. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((f = fopen(path, "wb")) == NULL) {
			*cause = xasprintf("cannot open %s: %s", path,
			    strerror(errno));
			return -1;
		}
		int bad = fwrite(data, 1, len, f) != len;

		if (fclose(f) != 0 || bad) {
			*cause = xasprintf("cannot write %s: %s", path,
			    strerror(errno));
			return -1;
		}
		return 0;
	}
	tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	if ((f = fopen(tmp, "wb")) == NULL) {
		*cause = xasprintf("cannot create %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	if (fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		*cause = xasprintf("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		*cause = xasprintf("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
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
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	buf_put(b, s, strlen(s));
	free(s);
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

int
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int *row, d;

	if (la > 64 || lb > 64)
		return 1000;
	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		int prev = row[0];

		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			int cur = row[j];
			int cost = a[i - 1] == b[j - 1] ? 0 : 1;
			int best = prev + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
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
