/*
 * html.h: HTML documents to text. A tolerant parser builds a light tree
 * (block elements and text; inline elements melt into their text), which is
 * rendered whole (all visible text) or after choosing the main content.
 * A struct html holds one document at a time, and keeps its buffers from one
 * to the next.
 */
#ifndef HTML_H
#define HTML_H

#include <stddef.h>

#include "util.h"

struct html;

/* A parser with no document yet; html_free gives it and its buffers back. */
struct html *html_new(void);
void html_free(struct html *h);

/*
 * Does the document look like HTML (the WHATWG sniffing rule for text/html)?
 * It reads no further than HTML_SNIFFSPAN bytes past its leading byte order
 * mark and white space: the answer for a longer document is the answer
 * for those bytes.
 */
int html_sniff(const char *s, size_t n);

#define HTML_SNIFFSPAN	1100

/* Parse the n bytes at s (any charset, see htmltext(1)) into h's tree. */
void html_parse(struct html *h, const char *s, size_t n);

/* Append the text of the tree to out: all of it, or the main content. */
void html_all(struct html *h, struct obuf *out);
void html_extract(struct html *h, struct obuf *out);

#endif
