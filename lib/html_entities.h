/*
 * html_entities.h: HTML character references, internal to the html module
 * (the table is html_entities.c, generated; the decoder html_charref.c).
 */
#ifndef HTML_ENTITIES_H
#define HTML_ENTITIES_H

#include <stddef.h>

struct entity {
	const char *name;	/* without '&'; with ';' unless a legacy name */
	const char *utf8;	/* what it stands for */
};

extern const struct entity entities[];
extern const size_t nentities, entity_maxlen, entity_maxlegacy;

/*
 * Decode the character reference at s (just after its '&'), n bytes
 * available, by the HTML5 rules: a named reference (with ';', or one of
 * the legacy names without it, longest first; in an attribute value a
 * legacy name followed by '=' or an alphanumeric is not a reference), or
 * &#NNN; / &#xHHH; (the ';' optional; 0, surrogates and code points past
 * U+10FFFF give U+FFFD, 0x80-0x9F the windows-1252 characters). Writes the
 * UTF-8 to out (room for 8 bytes) and its length to *outlen; returns the
 * bytes of s consumed, or 0 if s does not start a reference.
 */
size_t charref(const char *s, size_t n, int inattr, char *out, size_t *outlen);

/* Write code point c in UTF-8 at out (room for 4); returns the length. */
size_t utf8put(char *out, unsigned long c);

#endif
