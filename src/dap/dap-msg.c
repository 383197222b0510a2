/*
 * DAP framing (dap-msg.h).  The header block is the bytes up to the first
 * blank line; of its lines only Content-Length matters (the protocol
 * defines no other header that a client must send; Content-Type is
 * ignored as the specification says it may be).  The body is parsed by
 * json-c's tokener with its length, so a NUL inside it or a second value
 * after the first is an error and not silently cut.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dap-msg.h"

void
dap_reader_init(struct dap_reader *r)
{
	memset(r, 0, sizeof *r);
}

void
dap_reader_free(struct dap_reader *r)
{
	buf_free(&r->in);
	memset(r, 0, sizeof *r);
}

/* Drop the first n bytes of the input buffer. */
static void
consume(struct dap_reader *r, size_t n)
{
	memmove(r->in.data, r->in.data + n, r->in.len - n);
	r->in.len -= n;
}

void
dap_reader_feed(struct dap_reader *r, const void *data, size_t len)
{
	const uint8_t *p = data;

	if (r->skip > 0) {
		size_t n = len < r->skip ? len : r->skip;

		r->skip -= n;
		p += n;
		len -= n;
	}
	if (len > 0)
		buf_put(&r->in, p, len);
}

/* Where the header block ends (after its blank line), or 0. */
static size_t
header_end(const struct dap_reader *r)
{
	for (size_t i = 0; i + 1 < r->in.len; i++) {
		if (r->in.data[i] != '\n')
			continue;
		if (r->in.data[i + 1] == '\n')
			return i + 2;
		if (i + 2 < r->in.len && r->in.data[i + 1] == '\r' &&
		    r->in.data[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/*
 * A header starts with Content-Length (a client may put other headers
 * first, which are ignored anyway): bytes before the next one are what
 * is left of a bad message, dropped with an error unless they are only
 * blanks.
 */
static int
resync(struct dap_reader *r, char **cause)
{
	static const char key[] = "content-length";
	size_t k = sizeof key - 1, at;
	int junk = 0;
	char tmp[64];

	for (at = 0; at + k <= r->in.len; at++)
		if (strncasecmp((const char *)r->in.data + at, key, k) == 0)
			break;
	if (at + k > r->in.len) {
		/* no header yet: keep a possible start of one */
		at = r->in.len > k ? r->in.len - k : 0;
		for (size_t i = 0; i < r->in.len; i++)
			if (!isspace(r->in.data[i]))
				return 0;   /* let the header rules judge */
	}
	for (size_t i = 0; i < at; i++)
		if (!isspace(r->in.data[i]))
			junk = 1;
	if (at == 0)
		return 0;
	if (junk)
		*cause = xasprintf("%zu bytes that are no message dropped: "
		    "'%s'", at, show_bytes((const char *)r->in.data, at, tmp,
		    sizeof tmp));
	consume(r, at);
	return junk ? -1 : 0;
}

/* Parse a header block of n bytes: 0 and *len, or -1 + *cause. */
static int
parse_header(const char *h, size_t n, size_t *len, char **cause)
{
	const char *p = h, *end = h + n;
	int found = 0;
	char tmp[64];

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t ll = eol ? (size_t)(eol - p) : (size_t)(end - p);
		const char *colon = memchr(p, ':', ll);

		if (ll > 0 && p[ll - 1] == '\r')
			ll--;
		if (colon != NULL && (size_t)(colon - p) == 14 &&
		    strncasecmp(p, "Content-Length", 14) == 0) {
			const char *v = colon + 1, *ve = p + ll;
			unsigned long long x = 0;
			int digits = 0;

			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			for (const char *q = v; q < ve; q++) {
				if (!isdigit((unsigned char)*q) ||
				    x > (1ull << 40)) {
					digits = -1;
					break;
				}
				x = x * 10 + (unsigned)(*q - '0');
				digits++;
			}
			if (digits <= 0) {
				*cause = xasprintf("bad Content-Length '%s' "
				    "(a number of bytes is needed)",
				    show_bytes(v, (size_t)(ve - v), tmp,
				    sizeof tmp));
				return -1;
			}
			*len = (size_t)x;
			found = 1;
		}
		p = eol ? eol + 1 : end;
	}
	if (!found) {
		*cause = xasprintf("message header without Content-Length: "
		    "'%s'", show_bytes(h, n, tmp, sizeof tmp));
		return -1;
	}
	return 0;
}

int
dap_reader_next(struct dap_reader *r, json_object **out, char **cause)
{
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	json_object *o;
	size_t n, end;
	uint8_t saved;

	*out = NULL;
	if (r->skip > 0)
		return 0;
	if (!r->have_header) {
		if (resync(r, cause) != 0)
			return -1;
		if ((n = header_end(r)) == 0) {
			if (r->in.len > DAP_HEADER_MAX) {
				r->in.len = 0;
				*cause = xasprintf("message header longer than "
				    "%d bytes without a blank line: dropped",
				    DAP_HEADER_MAX);
				return -1;
			}
			return 0;
		}
		r->nmsgs++;
		if (parse_header((const char *)r->in.data, n, &r->want,
		    cause) != 0) {
			consume(r, n);
			return -1;
		}
		consume(r, n);
		if (r->want > DAP_MSG_MAX) {
			size_t drop = r->in.len < r->want ? r->in.len : r->want;

			*cause = xasprintf("message %lu: Content-Length %zu is "
			    "more than the limit of %u bytes: skipped",
			    r->nmsgs, r->want, DAP_MSG_MAX);
			r->skip = r->want - drop;
			consume(r, drop);
			return -1;
		}
		r->have_header = 1;
	}
	if (r->in.len < r->want)
		return 0;
	r->have_header = 0;
	n = r->want;
	/* the terminating NUL tells the tokener that the input ends (so
	 * that "42" is a number and not the start of one); a NUL inside
	 * the body ends it early and is caught as trailing bytes */
	buf_put_u8(&r->in, 0);
	r->in.len--;
	saved = r->in.data[n];
	r->in.data[n] = 0;
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, (const char *)r->in.data, (int)n + 1);
	r->in.data[n] = saved;
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	while (o != NULL && end < n && isspace(r->in.data[end]))
		end++;
	if (o != NULL && jerr == json_tokener_success && end < n) {
		*cause = xasprintf("message %lu: bytes after the JSON value "
		    "(Content-Length %zu too large?)", r->nmsgs, n);
		goto bad;
	}
	if (o == NULL || jerr != json_tokener_success) {
		if (jerr == json_tokener_continue ||
		    jerr == json_tokener_error_parse_eof || n == 0)
			*cause = xasprintf("message %lu: truncated JSON "
			    "(%zu bytes end inside a value)", r->nmsgs, n);
		else
			*cause = xasprintf("message %lu: malformed JSON: %s "
			    "at byte %zu", r->nmsgs,
			    json_tokener_error_desc(jerr),
			    json_tokener_get_parse_end(tok));
		goto bad;
	}
	if (!json_object_is_type(o, json_type_object)) {
		*cause = xasprintf("message %lu: not a JSON object",
		    r->nmsgs);
		goto bad;
	}
	json_tokener_free(tok);
	consume(r, n);
	*out = o;
	return 1;
bad:
	json_object_put(o);
	json_tokener_free(tok);
	consume(r, n);
	return -1;
}

int
dap_reader_eof(struct dap_reader *r, char **cause)
{
	if (r->skip > 0) {
		*cause = xasprintf("input ended inside an oversized message "
		    "(%zu bytes missing)", r->skip);
		return -1;
	}
	if (r->have_header) {
		*cause = xasprintf("input ended inside message %lu: %zu of "
		    "its %zu bytes came", r->nmsgs, r->in.len, r->want);
		return -1;
	}
	for (size_t i = 0; i < r->in.len; i++)
		if (!isspace(r->in.data[i])) {
			*cause = xasprintf("input ended inside a message "
			    "header (%zu bytes)", r->in.len);
			return -1;
		}
	return 0;
}

int
dap_write(FILE *f, json_object *o)
{
	size_t n;
	const char *s = json_object_to_json_string_length(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &n);

	if (fprintf(f, "Content-Length: %zu\r\n\r\n", n) < 0 ||
	    fwrite(s, 1, n, f) != n || fflush(f) != 0)
		return -1;
	return 0;
}
