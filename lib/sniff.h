/* sniff.h: what a file holds, told by its first bytes. */
#ifndef SNIFF_H
#define SNIFF_H

#include <stddef.h>

/* How many first bytes sniff_binary looks at. */
enum { SNIFF_LEN = 8192 };

/*
 * Is a file that starts with the n bytes at p (its first SNIFF_LEN
 * bytes, or all of it if shorter) not a text document? Returns what it
 * is ("NUL bytes", "PNG", "ELF", ..., "SVG") or NULL for text.
 *
 * Binary: a NUL byte among those bytes (unless a UTF-16 byte order mark
 * starts them), or a known magic number at the start (images, archives
 * and compressed files, executables, PDF, fonts, audio and video; one of
 * plain letters, such as MP3's ID3, only with a NUL byte soon after it).
 * SVG is markup that draws and carries no prose: a file whose first
 * element (after a byte order mark, white space, the XML declaration,
 * comments, processing instructions and the DOCTYPE) is <svg> counts as
 * binary too. Other XML (DocBook, XHTML, feeds) holds prose and is text.
 * Invalid UTF-8 is not binary: Latin-1 text is text. An empty file is text.
 */
const char *sniff_binary(const char *p, size_t n);

/*
 * The magic numbers alone, for a file of many documents (a page file,
 * JSON Lines), where a NUL byte is one document's: a byte of a page's
 * text, an error of one line. The format's name, or NULL.
 */
const char *sniff_format(const char *p, size_t n);

#endif
