/*
 * warc.h: the records of a WARC 1.0 or 1.1 file (ISO 28500), read from a
 * struct rdr (decompressed by rdr_gunzip if it was gzip: a .warc.gz of
 * one gzip member per record reads as one stream).
 *
 *	warc_init(&w, &r, max);
 *	while ((k = warc_next(&w)) != WARC_END) {
 *		if (k == WARC_DOC) {
 *			while ((n = warc_read(&w, &p)) >= 0)
 *				keep(p, n);
 *			k = warc_done(&w);
 *		}
 *		(WARC_DOC: w.uri names the text kept; WARC_SKIP: w.why;
 *		 WARC_BAD: w.why, at w.off)
 *	}
 *	warc_free(&w);
 *
 * A record is a version line (WARC/1.0 or WARC/1.1), header lines
 * "Name: value" (names compared ignoring case), an empty line, a block of
 * Content-Length bytes and two line ends (CR LF CR LF; LF LF is taken).
 *
 * Documents: a conversion record (WET) is its block; a resource record
 * is its block if its Content-Type is text (below); a response record
 * whose Content-Type is application/http is an HTTP response: its
 * status must be 2xx, it must not be chunked or content-encoded, and
 * its payload (after the status line and the HTTP header) is the text
 * if its HTTP Content-Type is text or absent; any other response is
 * taken as a resource. Text: any text type but text/css, text/javascript and
 * text/dns; application/xhtml+xml; application/xml. The ID is the
 * WARC-Target-URI (angle brackets, as WARC 1.0 wrote it, dropped).
 * When an HTML payload's HTTP Content-Type names a charset, w.prefix
 * holds <!DOCTYPE html><meta charset="LABEL"> to put before it: an HTML
 * reader takes the first such tag, so the HTTP header wins over the
 * page's own, as HTML says it must (and the doctype makes it sniffed as
 * HTML). Other record types (warcinfo, request, metadata,
 * revisit, continuation) are skipped.
 *
 * Bad records: no version line where one is due, no Content-Length, one
 * over max (its block is skipped, read but not kept), a header line over 8 kB or a header over 64 kB, a block
 * cut short by the end of input, a block not followed by its two line
 * ends (a wrong Content-Length), a document without WARC-Target-URI.
 * After one the next record is looked for at the next line that is a
 * version line, within max bytes (else the rest of the input is given
 * up, reported as one more bad record). w.off is the record's offset in
 * the stream read (decompressed). Every byte is read once: time linear;
 * memory the header lines.
 */
#ifndef WARC_H
#define WARC_H

#include <stddef.h>
#include <stdint.h>

#include "rdr.h"
#include "util.h"

enum warc_kind { WARC_END, WARC_DOC, WARC_SKIP, WARC_BAD };

struct warc {
	struct rdr *r;
	uint64_t max;		/* the cap on a record's block */
	uintmax_t off;		/* where the record read last starts */
	char type[24];		/* its WARC-Type, cut to fit */
	const char *why;	/* WARC_SKIP: why, or NULL for its type; WARC_BAD: what */
	struct obuf uri;	/* its WARC-Target-URI, NUL-terminated */
	struct obuf prefix;	/* text to put before its payload */

	uint64_t left;		/* bytes of the block not read yet */
	int trunc;		/* the block was cut by the end of input */
	int lost;		/* after a bad record: the next must be looked for */
	int found;		/* the line just read is a version line */
	uintmax_t foundoff;	/* where that line starts */
	int dead;		/* input given up */
	char why_buf[96];
	struct obuf line;
	uint64_t hdr;		/* header bytes read */
};

/* Does a stream that starts with the n bytes at p hold WARC (its first line a version line)? */
int warc_is(const char *p, size_t n);

void warc_init(struct warc *w, struct rdr *r, uint64_t max);
void warc_free(struct warc *w);
/* The next record's kind (enum warc_kind). */
int warc_next(struct warc *w);
/* The next bytes of a document's text (> 0), or -1 at its end. */
ptrdiff_t warc_read(struct warc *w, const char **p);
/* After a document's text: WARC_DOC if the record ended well, else WARC_BAD. */
int warc_done(struct warc *w);

#endif
