/* rdr.c: buffered reading of line-oriented input in large blocks. */
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdr.h"
#include "util.h"

/*
 * 64 kB: reads of this size cost no more per byte than larger ones, the
 * block stays in the cache while it is worked on, and a process touches
 * few fresh pages for it (a page fault costs some microseconds; a
 * 256 kB buffer took 64 of them per file, the most of any of the
 * filters' buffers on small inputs).
 */
enum { BLOCK = 1 << 16 };

int
rdr_open(struct rdr *r, const char *path)
{
	int fd;

	if (!strcmp(path, "-"))
		fd = 0;
	else if ((fd = open(path, O_RDONLY)) < 0) {
		memset(r, 0, sizeof *r);
		r->fd = -1;
		weprintf("%s:", path);
		return -1;
	}
	rdr_fdopen(r, fd, path);
	return 0;
}

int
rdr_opendoc(const char *path, int dirok)
{
	struct stat st;
	int fd, fl;

	if (!strcmp(path, "-"))
		return STDIN_FILENO;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) < 0) {
		weprintf("%s:", path);
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		weprintf("%s:", path);
	} else if (S_ISDIR(st.st_mode) && dirok) {
		close(fd);
		return RDR_DIR;
	} else if (!S_ISREG(st.st_mode)) {
		weprintf("%s: not a regular file", path);
	} else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		weprintf("%s:", path);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

void
rdr_fdopen(struct rdr *r, int fd, const char *path)
{
	memset(r, 0, sizeof *r);
	r->atbol = 1;
	r->fd = fd;
	r->isstdin = !strcmp(path, "-");
	r->name = r->isstdin ? "<stdin>" : path;
	r->cap = BLOCK;
	r->buf = emalloc(r->cap + 1);
}

int
rdr_close(struct rdr *r)
{
	if (r->fd >= 0 && !r->isstdin)
		close(r->fd);
	free(r->buf);
	r->buf = NULL;
	return r->err;
}

/* Read more input after the r->end bytes kept at the front; 0 at end of input. */
static size_t
fill(struct rdr *r)
{
	ssize_t n;

	if (r->eof)
		return 0;
	if (r->end == r->cap) {	/* a line longer than the buffer */
		r->cap *= 2;
		r->buf = erealloc(r->buf, r->cap + 1);
	}
	for (;;) {
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n >= 0)
			break;
		if (errno != EINTR) {
			weprintf("%s: read error:", r->name);
			r->err = 1;
			n = 0;
			break;
		}
	}
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return (size_t)n;
}

/* Move unread bytes to the front of the buffer. */
static void
compact(struct rdr *r)
{
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
	}
}

/*
 * Make the whole of the next record (a line for delim LF) readable in the
 * buffer; returns its end (its delim, or the end of input for a final
 * record without one), or NULL at end of input.
 */
static char *
lineend(struct rdr *r, int delim)
{
	size_t scanned = 0;
	char *nl;

	for (;;) {
		nl = memchr(r->buf + r->pos + scanned, delim, r->end - r->pos - scanned);
		if (nl)
			return nl;
		scanned = r->end - r->pos;
		compact(r);
		if (!fill(r))
			return r->pos == r->end ? NULL : r->buf + r->end;
	}
}

ptrdiff_t
rdr_line(struct rdr *r, char **line)
{
	return rdr_record(r, '\n', line);
}

ptrdiff_t
rdr_record(struct rdr *r, int delim, char **line)
{
	char *nl;

	if (!(nl = lineend(r, delim)))
		return -1;
	*nl = '\0';
	*line = r->buf + r->pos;
	r->lineno++;
	r->pos = nl < r->buf + r->end ? (size_t)(nl - r->buf) + 1 : r->end;
	return nl - *line;
}

ptrdiff_t
rdr_peekline(struct rdr *r, const char **line)
{
	char *nl;

	if (!(nl = lineend(r, '\n')))
		return -1;
	*line = r->buf + r->pos;
	return nl - *line;
}

ptrdiff_t
rdr_chunk(struct rdr *r, const char **p, int *eol)
{
	char *nl;
	size_t n;

	if (r->pos == r->end) {
		r->pos = r->end = 0;
		if (!fill(r)) {
			if (!r->atbol) {	/* final line without LF */
				r->atbol = 1;
				*p = r->buf;
				*eol = 1;
				return 0;
			}
			return -1;
		}
	}
	if (r->atbol) {
		r->lineno++;
		r->atbol = 0;
	}
	*p = r->buf + r->pos;
	if ((nl = memchr(*p, '\n', r->end - r->pos))) {
		n = (size_t)(nl - *p);
		r->pos += n + 1;
		r->atbol = *eol = 1;
	} else {
		n = r->end - r->pos;
		r->pos = r->end;
		*eol = 0;
	}
	return (ptrdiff_t)n;
}

ptrdiff_t
rdr_block(struct rdr *r, const char **p)
{
	size_t n;

	if (r->pos == r->end) {
		r->pos = r->end = 0;
		if (!fill(r))
			return -1;
	}
	*p = r->buf + r->pos;
	n = r->end - r->pos;
	r->pos = r->end;
	return (ptrdiff_t)n;
}
