/* rdr.h: buffered reading of line-oriented input in large blocks. */
#ifndef RDR_H
#define RDR_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct inflate;

struct rdr {
	int fd;
	int isstdin;		/* opened as "-": rdr_close leaves fd open */
	const char *name;	/* for diagnostics: the path, or "<stdin>" */
	char *buf;
	size_t cap, pos, end;
	uintmax_t lineno;	/* number of the line being read, from 1 */
	int atbol;		/* the next byte starts a line */
	int eof, err;
	/* a regular file: its size and mtime when opened, checked at its end */
	int watch;
	off_t size0;
	struct timespec mtime0;
	uintmax_t base;		/* offset in the stream read of buf[0] */
	uintmax_t nbad;		/* bad records met (rdr_warn, or said() of it) */
	/* rdr_gunzip: the decompressor, its input and output not yet taken */
	struct inflate *z;
	unsigned char *zin;
	size_t zincap;
	const unsigned char *zp;
	size_t zn;
	int zeof;
};

/* Open path ("-" is stdin). On failure print a diagnostic and return -1. */
int rdr_open(struct rdr *r, const char *path);

enum { RDR_DIR = -2 };

/*
 * Open a document, a file that must be regular, to read with r, and
 * never block: a FIFO (or device) put in its place after the caller
 * looked would block open(2) for good, so it is opened O_NONBLOCK and
 * fstat(2)ed; a regular file is read with O_NONBLOCK still set (its
 * reads do not heed it; rdr's reads clear it should one say EAGAIN).
 * Returns 0, r open as rdr_fdopen opens it; "-" is standard input, taken
 * whatever it is; a directory, with dirok, gives RDR_DIR and is left
 * closed for the caller to walk; anything else is reported ("path: not
 * a regular file") and gives -1, as does a failure to open it.
 */
int rdr_opendoc(struct rdr *r, const char *path, int dirok);
/*
 * Read the open descriptor fd, named path, which rdr_close closes; path
 * "-" alone means standard input (named "<stdin>", left open), never the
 * number of fd: with descriptor 0 closed, open(2) gives 0 to a file.
 * A regular file whose size or modification time, at the end of its
 * reading, is not what it was when opened is reported ("name: changed
 * as it was read") and sets r->err: what was read of it may be of no
 * version the file ever had (a truncated file read past its new end).
 * A file that is standard output (as setupstdout saw it), and not
 * empty, is not read at all ("name: input file is output file"; r->err
 * set): a filter would read back what it writes, without end.
 */
void rdr_fdopen(struct rdr *r, int fd, const char *path);
/*
 * Close; returns 1 if a read error happened, else 0. Past SAID_MAX bad
 * records, says how many there were ("name: N bad records, the first 10
 * said"). Its gzip decoder is kept for the next reader opened, so that
 * reading many gzip files takes its memory once; readers are not for
 * threads.
 */
int rdr_close(struct rdr *r);

enum { RDR_WHATMAX = 200 };

/*
 * A bad record, the line being read: "name:lineno: what" (printf's fmt)
 * on standard error, for the first SAID_MAX of the input; the others are
 * counted, for rdr_close to say. A what longer than RDR_WHATMAX bytes
 * loses its middle to "...". A file of another kind (page records given
 * to topn) so costs 11 short lines, not one a record, each with its text.
 */
void rdr_warn(struct rdr *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The same of an earlier line of r, found late (a batch's lookups). */
void rdr_warnat(struct rdr *r, uintmax_t lineno, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * Next record line, without its LF and without a CR just before it (CR LF
 * input reads as LF input; a final line without LF counts, and so does a
 * CR at its end). The line is NUL-terminated in the buffer and valid until
 * the next call. Returns its length, or -1 at end of input or after a read
 * error (r->err is set). This is the one place where records lose their CR.
 */
ptrdiff_t rdr_line(struct rdr *r, char **line);

/*
 * Records ended by the byte delim (NUL for the lists of find -print0, LF
 * for lists of paths), every other byte kept, a CR too; lineno counts
 * records.
 */
ptrdiff_t rdr_record(struct rdr *r, int delim, char **rec);

/*
 * Streaming form for lines of any length: the bytes of the current line
 * that are in the buffer, up to its LF. Sets *eol when the line ends here
 * (its LF, or end of input, is consumed). Returns the number of bytes, or
 * -1 at end of input.
 */
ptrdiff_t rdr_chunk(struct rdr *r, const char **p, int *eol);

/*
 * The next line, as rdr_line would return it (without its LF, of any
 * length), but left unread: the next rdr_line, rdr_chunk or rdr_block
 * starts with it. Valid until the next call; -1 at end of input.
 */
ptrdiff_t rdr_peekline(struct rdr *r, const char **line);

/* Raw blocks: the next bytes of input, any length > 0; -1 at end. */
ptrdiff_t rdr_block(struct rdr *r, const char **p);

/*
 * The next bytes of input, at most max (> 0) of them, up to and
 * including the first byte delim if it is among them (delim -1: none);
 * never more than the buffer holds, so the buffer does not grow. The
 * caller looks at the last byte to know whether delim ended them.
 * Returns their number (> 0), or -1 at end of input.
 */
ptrdiff_t rdr_take(struct rdr *r, int delim, size_t max, const char **p);

/*
 * The first bytes not read yet, at least want of them (at most 64 kB)
 * unless the input ends first, left unread. Returns how many there are.
 */
size_t rdr_peek(struct rdr *r, size_t want, const char **p);

/* The offset in the stream read (decompressed, after rdr_gunzip) of the next byte. */
uintmax_t rdr_tell(const struct rdr *r);

/*
 * The offset in the file of the next byte not read yet, before
 * rdr_gunzip: where a descriptor of its own must start to go on from
 * here (standard input need not be at 0). -1 if the file cannot seek.
 */
off_t rdr_fileoffset(const struct rdr *r);

/*
 * If the input, from where it is read next, is gzip (it starts with the
 * bytes 1f 8b 08), read it decompressed from there on: every reader
 * above then gives the decompressed bytes, at most max of them. Call
 * before anything else is read. Returns 1 if gzip, else 0.
 *
 * A gzip error is reported once, "name: gzip: what at byte N", N the
 * offset in the compressed file (or "exceeds max bytes"); the input
 * ends there, after all the bytes decoded before it, and r->err is set.
 * Trailing garbage after the last member is reported the same way
 * ("trailing garbage at byte N ignored"), after all of the text.
 */
int rdr_gunzip(struct rdr *r, uint64_t max);
/* The cap on the decompressed bytes, changed (with rdr_gunzip only). */
void rdr_gzmax(struct rdr *r, uint64_t max);

#endif
