/*
 * The Debug Adapter Protocol's wire format: messages framed by a
 * "Content-Length: N" header, a blank line and N bytes of JSON.  The
 * reader is fed whatever bytes arrive and hands back whole messages, so
 * that the adapter can poll standard input between slices of a run and a
 * test can feed it any bytes it likes (tests/test-dap-msg.c).
 *
 * A bad message is an error the adapter reports and goes on from: a
 * header without a usable Content-Length is dropped (the next header
 * starts over), a body larger than DAP_MSG_MAX is skipped without being
 * kept in memory, a body that is not one JSON object is dropped.  Only
 * the end of input inside a message is final (dap_reader_eof).
 *
 * JSON is json-c's (Debian's libjson-c-dev): a small C library, packaged
 * everywhere micdb builds, found by pkg-config as json-c; jansson would
 * do as well, cJSON is not packaged with a pkg-config file everywhere.
 */
#ifndef MICDB_DAP_MSG_H
#define MICDB_DAP_MSG_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "util.h"

#define DAP_MSG_MAX	(16u << 20)   /* bytes of one message's body */
#define DAP_HEADER_MAX	4096          /* bytes of one header block */

struct dap_reader {
	struct buf	 in;        /* bytes not yet made into messages */
	size_t		 skip;      /* bytes of an oversized body to drop */
	size_t		 want;      /* body length of the header read, or 0 */
	int		 have_header;
	unsigned long	 nmsgs;     /* messages read (for error messages) */
};

void	 dap_reader_init(struct dap_reader *r);
void	 dap_reader_free(struct dap_reader *r);
/* Bytes that arrived. */
void	 dap_reader_feed(struct dap_reader *r, const void *data, size_t len);
/*
 * The next whole message: 1 and *out (a JSON object the caller puts), 0
 * when more bytes are needed, -1 + *cause when a message was bad (it is
 * dropped; call again for the next one).
 */
int	 dap_reader_next(struct dap_reader *r, json_object **out,
	    char **cause);
/* Input ended: 0, or -1 + *cause when it ended inside a message. */
int	 dap_reader_eof(struct dap_reader *r, char **cause);

/* Frame o and write it to f (flushed).  0, or -1 if f failed. */
int	 dap_write(FILE *f, json_object *o);

#endif
