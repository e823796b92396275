/* rdr.c: buffered reading of line-oriented input in large blocks. */
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inflate.h"
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

/*
 * The gzip decoder of the reader closed last, and its input buffer, for
 * the next one: a tool that reads many gzip files (docsplit -f) took
 * them anew for each (174 kB, given back to the system between files),
 * fresh memory, a page fault for each 4 kB of it. (The 64 kB buffer of
 * every reader is taken again from the heap as it is.) Readers are
 * opened and closed by one thread.
 */
static struct {
	struct inflate *z;
	unsigned char *zin;
	size_t zincap;
} spare;

int
rdr_open(struct rdr *r, const char *path)
{
	int fd;

	if (!strcmp(path, "-"))
		fd = 0;
	else if ((fd = open(path, O_RDONLY)) < 0) {
		memset(r, 0, sizeof *r);
		r->fd = -1;
		weprintf("%s:", escname(path));
		return -1;
	}
	rdr_fdopen(r, fd, path);
	return 0;
}

/*
 * Set r up to read fd, named path; st: the file's status, NULL if it is
 * not known. A regular file is watched for changes, or refused if it is
 * standard output (rdr.h).
 */
static void
setup(struct rdr *r, int fd, const char *path, const struct stat *st)
{
	memset(r, 0, sizeof *r);
	r->atbol = 1;
	r->fd = fd;
	r->isstdin = !strcmp(path, "-");
	r->name = r->isstdin ? "<stdin>" : path;
	r->cap = BLOCK;
	r->buf = emalloc(r->cap + 1);
	if (!st || !S_ISREG(st->st_mode))
		return;
	if (st->st_size > 0 && isstdout(st)) {
		/* what it writes it would read again, without end */
		weprintf("%s: input file is output file", escname(r->name));
		r->err = r->eof = 1;
		return;
	}
	r->watch = 1;
	r->size0 = st->st_size;
	r->mtime0 = st->st_mtim;
}

int
rdr_opendoc(struct rdr *r, const char *path, int dirok)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-")) {
		rdr_fdopen(r, STDIN_FILENO, path);
		return 0;
	}
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) < 0) {
		weprintf("%s:", escname(path));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		weprintf("%s:", escname(path));
	} else if (S_ISDIR(st.st_mode) && dirok) {
		close(fd);
		return RDR_DIR;
	} else if (!S_ISREG(st.st_mode)) {
		weprintf("%s: not a regular file", escname(path));
	} else {
		setup(r, fd, path, &st);	/* O_NONBLOCK kept: see rawread */
		return 0;
	}
	close(fd);
	return -1;
}

void
rdr_fdopen(struct rdr *r, int fd, const char *path)
{
	struct stat st;

	setup(r, fd, path, fstat(fd, &st) == 0 ? &st : NULL);
}

int
rdr_close(struct rdr *r)
{
	saidcount(r->nbad, escname(r->name), "bad records");
	r->nbad = 0;
	if (r->fd >= 0 && !r->isstdin)
		close(r->fd);
	free(r->buf);
	if (r->z && !spare.z)
		spare.z = r->z;
	else
		free(r->z);
	if (r->zin && (!spare.zin || r->zincap > spare.zincap)) {
		free(spare.zin);
		spare.zin = r->zin;
		spare.zincap = r->zincap;
	} else {
		free(r->zin);
	}
	r->buf = NULL;
	r->z = NULL;
	r->zin = NULL;
	return r->err;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 0)))
#endif
static void
vwarnat(struct rdr *r, uintmax_t lineno, const char *fmt, va_list ap)
{
	va_list aq;
	char *what;
	int n;

	if (!said(&r->nbad))
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	what = emalloc(n < 0 ? 1 : (size_t)n + 1);
	*what = '\0';
	if (n >= 0)
		vsnprintf(what, (size_t)n + 1, fmt, ap);
	/*
	 * A field quoted raw (a count, a label) may hold a TAB, CR or LF:
	 * escaped as the names are (escname, which left none), the message
	 * stays one line.
	 */
	if (n > 0 && strpbrk(what, "\t\n\r")) {
		char *raw = what, *p;
		size_t i;

		p = what = emalloc(2 * (size_t)n + 1);
		for (i = 0; i < (size_t)n; i++) {
			switch (raw[i]) {
			case '\t': *p++ = '\\'; *p++ = 't'; break;
			case '\n': *p++ = '\\'; *p++ = 'n'; break;
			case '\r': *p++ = '\\'; *p++ = 'r'; break;
			default: *p++ = raw[i]; break;
			}
		}
		*p = '\0';
		n = (int)(p - what);
		free(raw);
	}
	if (n > RDR_WHATMAX) {
		/*
		 * A record quoted whole (a page's text) would fill screens:
		 * its middle goes, the reason at the end stays. No UTF-8
		 * character is cut.
		 */
		size_t head = RDR_WHATMAX - RDR_WHATMAX / 4 - 3, tail = (size_t)n - RDR_WHATMAX / 4;

		while (head > 0 && ((unsigned char)what[head] & 0xc0) == 0x80)
			head--;
		while (((unsigned char)what[tail] & 0xc0) == 0x80)
			tail++;
		memcpy(what + head, "...", 3);
		memmove(what + head + 3, what + tail, (size_t)n + 1 - tail);
	}
	weprintf("%s:%ju: %s", escname(r->name), lineno, what);
	free(what);
}

void
rdr_warn(struct rdr *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnat(r, r->lineno, fmt, ap);
	va_end(ap);
}

void
rdr_warnat(struct rdr *r, uintmax_t lineno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnat(r, lineno, fmt, ap);
	va_end(ap);
}

/* At the end of a regular file: was it changed since it was opened? */
static void
changed(struct rdr *r)
{
	struct stat st;

	r->watch = 0;
	if (fstat(r->fd, &st) < 0 || (st.st_size == r->size0 &&
	    st.st_mtim.tv_sec == r->mtime0.tv_sec && st.st_mtim.tv_nsec == r->mtime0.tv_nsec))
		return;
	weprintf("%s: changed as it was read", escname(r->name));
	r->err = 1;
}

/*
 * read(2) of up to n bytes; 0 at end of input or after a read error
 * (reported, r->err set). A document of rdr_opendoc is a regular file
 * left O_NONBLOCK, which its reads do not heed (two system calls a file
 * saved); should a file system make one say EAGAIN all the same, the
 * flag is cleared and the read done again, blocking. Standard input's
 * flags are not ours to change.
 */
static size_t
rawread(struct rdr *r, void *p, size_t n)
{
	ssize_t k;
	int fl;

	while ((k = read(r->fd, p, n)) < 0) {
		if ((errno == EAGAIN || errno == EWOULDBLOCK) && !r->isstdin &&
		    (fl = fcntl(r->fd, F_GETFL)) >= 0 && (fl & O_NONBLOCK) &&
		    fcntl(r->fd, F_SETFL, fl & ~O_NONBLOCK) == 0)
			continue;
		if (errno != EINTR) {
			weprintf("%s: read error:", escname(r->name));
			r->err = 1;
			return 0;
		}
	}
	if (k == 0 && r->watch)
		changed(r);
	return (size_t)k;
}

/* The gzip input is at its end, or failed: report what is wrong, once. */
static void
gzend(struct rdr *r)
{
	char msg[128];

	if (r->z->err) {
		weprintf("%s: gzip: %s", escname(r->name), inf_strerror(r->z, msg, sizeof msg));
		r->err = 1;
	} else if (r->z->garbage) {
		weprintf("%s: gzip: trailing garbage at byte %ju ignored", escname(r->name),
		    (uintmax_t)(r->z->garbage - 1));
		r->err = 1;
	}
}

/* Decompress up to n bytes to p; 0 at the end of the gzip input or on an error. */
static size_t
gzread(struct rdr *r, char *p, size_t n)
{
	ptrdiff_t m;
	size_t k;

	while (r->zn == 0) {
		if ((m = inf_read(r->z, &r->zp)) > 0) {
			r->zn = (size_t)m;
			break;
		}
		if (m == 0 && !r->zeof) {
			if ((k = rawread(r, r->zin, BLOCK)) > 0)
				inf_input(r->z, r->zin, k);
			else if (r->err)
				return 0;	/* a read error, reported */
			else
				r->zeof = 1;
			continue;
		}
		if (m == 0)
			inf_finish(r->z);
		gzend(r);
		return 0;
	}
	k = r->zn < n ? r->zn : n;
	memcpy(p, r->zp, k);
	r->zp += k;
	r->zn -= k;
	return k;
}

/* Read more input after the r->end bytes kept at the front; 0 at end of input. */
static size_t
fill(struct rdr *r)
{
	size_t n;

	if (r->eof)
		return 0;
	if (r->end == r->cap) {	/* a line longer than the buffer */
		r->cap *= 2;
		r->buf = erealloc(r->buf, r->cap + 1);
	}
	if (r->z)
		n = gzread(r, r->buf + r->end, r->cap - r->end);
	else
		n = rawread(r, r->buf + r->end, r->cap - r->end);
	if (n == 0)
		r->eof = 1;
	r->end += n;
	return n;
}

/* Move unread bytes to the front of the buffer. */
static void
compact(struct rdr *r)
{
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->base += r->pos;
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
	ptrdiff_t n = rdr_record(r, '\n', line);

	if (n > 0 && (*line)[n - 1] == '\r')
		(*line)[--n] = '\0';
	return n;
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
	if (nl > *line && nl[-1] == '\r')
		nl--;
	return nl - *line;
}

ptrdiff_t
rdr_chunk(struct rdr *r, const char **p, int *eol)
{
	char *nl;
	size_t n;

	if (r->pos == r->end) {
		r->base += r->end;
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
	return rdr_take(r, -1, SIZE_MAX, p);
}

ptrdiff_t
rdr_take(struct rdr *r, int delim, size_t max, const char **p)
{
	const char *d;
	size_t n;

	if (r->pos == r->end) {
		r->base += r->end;
		r->pos = r->end = 0;
		if (!fill(r))
			return -1;
	}
	*p = r->buf + r->pos;
	n = r->end - r->pos;
	if (n > max)
		n = max;
	if (delim >= 0 && (d = memchr(*p, delim, n)))
		n = (size_t)(d - *p) + 1;
	r->pos += n;
	return (ptrdiff_t)n;
}

size_t
rdr_peek(struct rdr *r, size_t want, const char **p)
{
	if (want > BLOCK)
		want = BLOCK;
	if (r->cap - r->pos < want)
		compact(r);
	while (r->end - r->pos < want && fill(r))
		;
	*p = r->buf + r->pos;
	return r->end - r->pos;
}

uintmax_t
rdr_tell(const struct rdr *r)
{
	return r->base + r->pos;
}

off_t
rdr_fileoffset(const struct rdr *r)
{
	off_t at = lseek(r->fd, 0, SEEK_CUR);

	/* the bytes read ahead into the buffer are not read yet */
	return at < 0 ? -1 : at - (off_t)(r->end - r->pos);
}

int
rdr_gunzip(struct rdr *r, uint64_t max)
{
	const char *p;
	size_t n = rdr_peek(r, 3, &p);

	if (n < 3 || memcmp(p, "\x1f\x8b\x08", 3))
		return 0;
	if (spare.z) {
		r->z = spare.z;
		spare.z = NULL;
	} else {
		r->z = emalloc(sizeof *r->z);
	}
	inf_init(r->z, INF_GZIP, max);
	/* the bytes read so far are the first of the compressed input */
	n = r->end - r->pos;
	if (spare.zin && spare.zincap >= n && spare.zincap >= BLOCK) {
		r->zin = spare.zin;
		r->zincap = spare.zincap;
		spare.zin = NULL;
	} else {
		r->zincap = n > BLOCK ? n : BLOCK;
		r->zin = emalloc(r->zincap);
	}
	memcpy(r->zin, r->buf + r->pos, n);
	inf_input(r->z, r->zin, n);
	r->zeof = r->eof;
	r->eof = 0;
	r->base = 0;
	r->pos = r->end = 0;
	return 1;
}

void
rdr_gzmax(struct rdr *r, uint64_t max)
{
	if (r->z)
		r->z->max = max;
}
