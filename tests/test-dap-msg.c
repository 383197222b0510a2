/*
 * The DAP message reader (src/dap/dap-msg.c), fed hostile bytes under
 * ASan/UBSan: a bad or missing Content-Length, truncated and malformed
 * JSON, a message larger than the limit, a header that never ends, bytes
 * split at every position, and random garbage.  Each must give a clear
 * error and leave the reader able to read the next good message; none may
 * crash or leak.
 */
#include <stdlib.h>
#include <string.h>

#include "dap-msg.h"
#include "tap.h"

static const char good[] =
    "{\"seq\":1,\"type\":\"request\",\"command\":\"initialize\"}";

/* Feed text, then collect: messages read, errors (their texts, one a
 * line, in *last, freed by the caller). */
static void
feed_all(struct dap_reader *r, const void *p, size_t n, int *msgs,
    int *errs, char **last)
{
	json_object *o;
	char *cause = NULL;
	int rc;

	dap_reader_feed(r, p, n);
	while ((rc = dap_reader_next(r, &o, &cause)) != 0) {
		if (rc == 1) {
			(*msgs)++;
			json_object_put(o);
		} else {
			/* every error, one per line */
			char *all = xasprintf("%s%s%s", *last ? *last : "",
			    *last ? "\n" : "", cause);

			(*errs)++;
			free(*last);
			free(cause);
			*last = all;
			cause = NULL;
		}
	}
}

static char *
frame(const char *body)
{
	return xasprintf("Content-Length: %zu\r\n\r\n%s", strlen(body), body);
}

/* One case: text, then a good message; want msgs good ones and an error
 * containing want_err (NULL: none). */
static void
check(const char *name, const char *text, size_t len, int want_msgs,
    const char *want_err)
{
	struct dap_reader r;
	char *last = NULL, *g = frame(good);
	int msgs = 0, errs = 0;

	dap_reader_init(&r);
	feed_all(&r, text, len, &msgs, &errs, &last);
	feed_all(&r, g, strlen(g), &msgs, &errs, &last);
	if (want_err == NULL)
		ok(errs == 0 && msgs == want_msgs, "%s: %d messages, no error",
		    name, want_msgs);
	else if (!ok(errs >= 1 && msgs == want_msgs && last != NULL &&
	    strstr(last, want_err) != NULL, "%s: error '%s', then the next "
	    "message", name, want_err))
		printf("#   %d messages, %d errors: %s\n", msgs, errs,
		    last ? last : "(none)");
	free(last);
	free(g);
	dap_reader_free(&r);
}

int
main(void)
{
	struct dap_reader r;
	char *g = frame(good), *big, *cause = NULL, *last = NULL;
	int msgs, errs;
	size_t glen = strlen(g);

	check("a good message", "", 0, 1, NULL);
	check("bad Content-Length", "Content-Length: abc\r\n\r\n{}", 25, 1,
	    "bad Content-Length 'abc'");
	check("negative Content-Length", "Content-Length: -5\r\n\r\n", 22,
	    1, "bad Content-Length '-5'");
	check("no Content-Length", "Content-Type: x\r\n\r\n", 19, 1,
	    "without Content-Length");
	check("truncated JSON", "Content-Length: 10\r\n\r\n{\"seq\":1, ", 32,
	    1, "truncated JSON");
	check("malformed JSON", "Content-Length: 7\r\n\r\n{seq:1}", 28, 1,
	    "malformed JSON");
	check("not an object", "Content-Length: 2\r\n\r\n42", 23, 1,
	    "not a JSON object");
	check("two values", "Content-Length: 4\r\n\r\n{}{}", 25, 1,
	    "bytes after the JSON value");
	check("NUL in the body", "Content-Length: 3\r\n\r\n{\0}", 24, 1,
	    "JSON");
	check("LF-only header", "Content-Length: 2\n\n{}", 21, 2, NULL);
	check("huge Content-Length", "Content-Length: 99999999999999\r\n\r\n",
	    34, 1, "bad Content-Length");

	/* a body over the limit is skipped as it streams by */
	big = xmalloc(DAP_MSG_MAX + 100);
	memset(big, ' ', DAP_MSG_MAX + 100);
	{
		char *h = xasprintf("Content-Length: %u\r\n\r\n",
		    DAP_MSG_MAX + 100);

		dap_reader_init(&r);
		msgs = errs = 0;
		feed_all(&r, h, strlen(h), &msgs, &errs, &last);
		for (size_t i = 0; i < DAP_MSG_MAX + 100; i += 65536)
			feed_all(&r, big + i, DAP_MSG_MAX + 100 - i < 65536 ?
			    DAP_MSG_MAX + 100 - i : 65536, &msgs, &errs,
			    &last);
		feed_all(&r, g, glen, &msgs, &errs, &last);
		ok(errs == 1 && msgs == 1 && last != NULL &&
		    strstr(last, "more than the limit") != NULL &&
		    r.in.len == 0, "oversized message skipped, then the next");
		free(last);
		last = NULL;
		dap_reader_free(&r);
		free(h);
	}
	free(big);

	/* a header that never ends */
	big = xmalloc(DAP_HEADER_MAX * 2);
	memset(big, 'x', DAP_HEADER_MAX * 2);
	check("endless header", big, DAP_HEADER_MAX * 2, 1,
	    "message header longer than");
	free(big);

	/* split at every byte: the same message */
	{
		int all = 1;

		for (size_t cut = 0; cut <= glen; cut++) {
			dap_reader_init(&r);
			msgs = errs = 0;
			feed_all(&r, g, cut, &msgs, &errs, &last);
			feed_all(&r, g + cut, glen - cut, &msgs, &errs, &last);
			if (msgs != 1 || errs != 0)
				all = 0;
			dap_reader_free(&r);
		}
		ok(all, "a message split at any byte is read once");
	}

	/* end of input inside a message */
	dap_reader_init(&r);
	msgs = errs = 0;
	feed_all(&r, g, glen - 3, &msgs, &errs, &last);
	errs = dap_reader_eof(&r, &cause);
	ok(errs == -1 && cause != NULL &&
	    strstr(cause, "input ended inside message") != NULL,
	    "EOF inside a body: %s", cause ? cause : "no error");
	free(cause);
	cause = NULL;
	dap_reader_free(&r);
	dap_reader_init(&r);
	ok(dap_reader_eof(&r, &cause) == 0, "EOF between messages is fine");
	dap_reader_free(&r);

	/* random garbage, with good messages interleaved: no crash */
	{
		unsigned seed = 12345;
		uint8_t junk[512];
		int got = 0;

		dap_reader_init(&r);
		for (int round = 0; round < 2000; round++) {
			size_t n = (seed = seed * 1103515245 + 12345) % sizeof junk;

			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245 + 12345;
				junk[i] = (uint8_t)(seed >> 16);
				if (junk[i] % 7 == 0)
					junk[i] = "Content-Length: 12\r\n"[i % 20];
			}
			msgs = errs = 0;
			feed_all(&r, junk, n, &msgs, &errs, &last);
			got += msgs;
		}
		ok(1, "2000 rounds of random bytes: no crash (%d objects)",
		    got);
		free(last);
		last = NULL;
		dap_reader_free(&r);
	}

	/* the writer frames what it writes */
	{
		json_object *o = json_object_new_object();
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		json_object_object_add(o, "a",
		    json_object_new_string("x/y\"\n"));
		ok(dap_write(f, o) == 0, "dap_write");
		fclose(f);
		ok(strcmp(buf, "Content-Length: 15\r\n\r\n{\"a\":\"x/y\\\"\\n\"}")
		    == 0, "framed with its byte length");
		json_object_put(o);
		free(buf);
	}
	free(g);
	return done_testing();
}
