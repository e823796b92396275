/* pagefile.c: the pages of a page file, raw, to a sink (pagefile.h). */
#include <sys/stat.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pagefile.h"
#include "util.h"

/* Where the splitter is within a page. */
enum state { SEEK_ID, IN_TEXT };

static int
isspacebyte(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v';
}

/* If the line gathered in idline is not blank, start a page with it, trimmed. */
static int
putid(struct obuf *idline, const struct pagefile_sink *k)
{
	size_t s = 0, e = idline->n;

	while (s < e && isspacebyte((unsigned char)idline->p[s]))
		s++;
	while (e > s && isspacebyte((unsigned char)idline->p[e - 1]))
		e--;
	idline->n = 0;
	if (s == e)
		return 0;
	k->id(k->ctx, idline->p + s, e - s);
	return 1;
}

/* The pages of r's next limit bytes, which start a page. */
static void
pages(struct rdr *r, uintmax_t limit, const struct pagefile_sink *k)
{
	enum state st = SEEK_ID;
	struct obuf idline = { 0 };	/* the line that may become the ID */
	const char *p, *end, *q;
	ptrdiff_t n;

	while (limit > 0 && (n = rdr_block(r, &p)) >= 0) {
		if ((uintmax_t)n > limit)
			n = (ptrdiff_t)limit;
		limit -= (uintmax_t)n;
		for (end = p + n; p < end;) {
			if (st == IN_TEXT) {
				if (!(q = memchr(p, '\f', (size_t)(end - p)))) {
					k->text(k->ctx, p, (size_t)(end - p));
					break;
				}
				k->text(k->ctx, p, (size_t)(q - p));
				k->end(k->ctx);
				st = SEEK_ID;
				p = q + 1;
				continue;
			}
			/* SEEK_ID: gather a line; blank lines and empty pages vanish */
			for (q = p; q < end && *q != '\n' && *q != '\f'; q++)
				;
			obuf_add(&idline, p, (size_t)(q - p));
			if (q == end)
				break;
			if (putid(&idline, k)) {
				if (*q == '\f')
					k->end(k->ctx);	/* an ID and no text */
				else
					st = IN_TEXT;
			}
			p = q + 1;
		}
	}
	/* end of file ends the last page */
	if (st == IN_TEXT || putid(&idline, k))
		k->end(k->ctx);
	free(idline.p);
}

/*
 * Set *start to the offset of the first page of the file fd of size bytes
 * that starts at from or after: base (where the reading began), or the
 * byte after a form feed; size if none does. Returns -1 on a read error.
 */
static int
pagestart(int fd, off_t base, off_t from, off_t size, off_t *start)
{
	char buf[1 << 16];
	const char *q;
	ssize_t n;
	off_t at;

	*start = from > base ? size : base;
	for (at = from - 1; from > base && at < size; at += n) {
		if ((n = pread(fd, buf, sizeof buf, at)) < 0)
			return -1;
		if (n == 0)
			break;
		if ((q = memchr(buf, '\f', (size_t)n))) {
			*start = at + (q - buf) + 1;
			break;
		}
	}
	return 0;
}

/* Where part of parts begins in size bytes (before its first page). */
static off_t
partbegin(off_t size, unsigned part, unsigned parts)
{
	return size / parts * part + size % parts * part / parts;
}

int
pagefile_read(struct rdr *r, unsigned part, unsigned parts, int gz,
    const struct pagefile_sink *k)
{
	struct rdr pr;
	struct stat st;
	off_t base = 0, len, from, to;
	int fd;

	if (parts <= 1 || gz || fstat(r->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (base = rdr_fileoffset(r)) < 0) {
		/* what cannot be cut is part 0's, whole */
		if (part == 0)
			pages(r, UINTMAX_MAX, k);
		return 0;
	}
	/* the parts cut what is left from where the reading began */
	len = st.st_size > base ? st.st_size - base : 0;
	if (pagestart(r->fd, base, base + partbegin(len, part, parts), st.st_size, &from) < 0 ||
	    pagestart(r->fd, base, base + partbegin(len, part + 1, parts), st.st_size, &to) < 0 ||
	    (fd = dup(r->fd)) < 0) {
		weprintf("%s:", escname(r->name));
		return 1;
	}
	if (lseek(fd, from, SEEK_SET) < 0) {
		weprintf("%s:", escname(r->name));
		close(fd);
		return 1;
	}
	rdr_fdopen(&pr, fd, r->name);
	pages(&pr, (uintmax_t)(to > from ? to - from : 0), k);
	return rdr_close(&pr);
}
