/*
 * html_int.h: the html module's internals, shared by its own files only
 * (the parser and the extraction); callers use html.h. The tree is an
 * array of nodes in document order, each subtree a run of them.
 */
#ifndef HTML_INT_H
#define HTML_INT_H

#include <stddef.h>
#include <stdint.h>

#include "html.h"
#include "util.h"

/* Elements nested deeper than this are flattened into the last one. */
#define HTML_MAXDEPTH 256

struct hnode {
	uint32_t parent, first, next;
	uint32_t end;		/* the subtree is the nodes [this, end) */
	uint32_t off, len;	/* text nodes: their bytes in text; elements: off numbers them */
	uint32_t klass;		/* elements: hash of the class attribute, 0 if none */
	uint8_t tag, flags;
	int8_t hint;		/* class, id and role: below 0 boilerplate, above 0 content */
};

struct hopen {			/* an open element */
	uint8_t tag, flags;
	int8_t hint;
	uint32_t klass;
	uint32_t node;		/* its node, 0 until it has content */
	uint32_t last;		/* its last child */
	uint32_t host;		/* the entry whose node takes its children */
};

struct html {
	struct hnode *n;	/* node 0 is the document */
	size_t nn, ncap;
	struct obuf text;	/* the text of the text nodes, decoded */
	struct hopen st[HTML_MAXDEPTH + 1];
	size_t depth;		/* open elements: st[0] is the document */
	size_t overflow;	/* start tags past HTML_MAXDEPTH still open */
	uint32_t nopen[128];	/* open elements by tag: most searches end at once */
	struct obuf conv;	/* the document in UTF-8, when it was not */
	size_t ne;		/* elements, numbered 1..ne in off (the document is 0) */
	size_t maxnodes;	/* past this many nodes, elements melt into their parent */
	void *x;		/* extraction's working arrays (html_extract) */
	size_t xcap;
	unsigned char *skip;	/* extraction: 1 for the nodes it drops */
	size_t skipcap;
	uint32_t *tl;		/* text nodes: length and commas (textlen), when known */
	size_t tlcap;
	uint32_t *para;		/* the paragraph of each node (skipcap of them) */
	void *lost;		/* extraction's stack of lost stats */
	size_t lostcap;
};

enum {
	HF_TEXT = 1,		/* a text node */
	HF_INLINK = 2,		/* text inside <a> */
	HF_BLOCKKID = 4,	/* element with a block element among its children */
	HF_PRE = 8,		/* text inside <pre> */
	HF_HIDDEN = 16,		/* open element: hidden (hidden, aria-hidden, display:none) */
	HF_MAIN = 32		/* element declared the main content: <main>, role=main, itemprop=articleBody */
};

/* Tag properties. */
enum {
	TP_BLOCK = 1,		/* a paragraph of its own */
	TP_VOID = 2,		/* no content, no end tag */
	TP_RAW = 4,		/* raw text, skipped */
	TP_SPECIAL = 8,		/* stops the search of an inline end tag */
	TP_CLOSEP = 16,		/* closes an open <p> */
	TP_KEEP = 32,		/* a node even when inline (counted by extraction) */
	TP_CELL = 64		/* td, th */
};

enum tag {
#define T(id, name, props) id,
#include "html_tags.h"
#undef T
	TAG_N
};

extern const unsigned char html_tagprops[TAG_N];

/* Render nodes [from, to) to out, skipping subtrees where skip[i] (may be NULL). */
void html_render(const struct html *h, uint32_t from, uint32_t to,
    const unsigned char *skip, struct obuf *out);

#endif
