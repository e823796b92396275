/*
 * pagefile.h: the pages of a page file, as docsplit(1) reads them by
 * default (simrec(5), "Page files"): pages separated by form feeds, each
 * with its ID on its first non-blank line, trimmed of blanks; a page with
 * a blank ID vanishes. The pages come to a sink, raw: docsplit escapes
 * them into records, wordfreq -F tokenizes them as they are.
 */
#ifndef PAGEFILE_H
#define PAGEFILE_H

#include <stddef.h>
#include <stdint.h>

#include "rdr.h"

/* The cap on a page file's decompressed bytes (rdr_gunzip), unless set. */
#define PAGEFILE_GZMAX	((uint64_t)256 << 20)

struct pagefile_sink {
	/* a page starts: its ID (n > 0 bytes, no LF or form feed) */
	void (*id)(void *ctx, const char *id, size_t n);
	/* some of its text, in order; a page may have none */
	void (*text)(void *ctx, const char *p, size_t n);
	/* the page has ended */
	void (*end)(void *ctx);
	void *ctx;
};

/*
 * The pages of part of parts of r (0 of 1: all of it): with more parts,
 * the pages that start in the part-th of parts equal byte ranges of the
 * file from where r is (a page starts there or after a form feed;
 * standard input need not be at the file's start), read through a
 * descriptor of their own; part i ends where part i + 1 starts, so the
 * parts split the pages exactly. A file that cannot be cut (not regular,
 * or decompressed: gz set) is part 0's, whole. Returns 1 after a
 * diagnostic (an error of the cut; reading errors are rdr_close's).
 */
int pagefile_read(struct rdr *r, unsigned part, unsigned parts, int gz,
    const struct pagefile_sink *k);

#endif
