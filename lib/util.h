/* util.h: diagnostics, checked allocation, number parsing, output shutdown. */
#ifndef UTIL_H
#define UTIL_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * Ask for the cache line at p before it is read, so that the misses of
 * independent look-ups overlap; a hint only, nothing without gcc or clang.
 */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p)	__builtin_prefetch(p)
#else
#define PREFETCH(p)	((void)(p))
#endif

/* Exit statuses shared by every tool. */
enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

extern const char *argv0;

/* Print "argv0: message" on stderr; a format ending in ':' appends strerror(errno). */
void weprintf(const char *fmt, ...);
_Noreturn void eprintf(const char *fmt, ...);		/* weprintf, then exit 1 */
_Noreturn void enprintf(int status, const char *fmt, ...);	/* weprintf, then exit status */

/*
 * A name for a message (a path, an operand, a state, an option's value):
 * written with the field escape of simrec(5) (esc_encode), as in a
 * record, so that a message stays one line and two names never read
 * alike. Every message passes every name it quotes through escname.
 * The result is valid until the fourth call after (a message may name a
 * few); not for threads.
 */
const char *escname(const char *s);

void *emalloc(size_t size);
void *ecalloc(size_t n, size_t size);
void *erealloc(void *p, size_t size);
void *ereallocarray(void *p, size_t n, size_t size);
char *estrdup(const char *s);

/* Grow *p (holding *cap elements of size) to hold at least need elements. */
void egrow(void *p, size_t *cap, size_t need, size_t size);

/*
 * Parse a decimal integer in [min, max] like OpenBSD strtonum(3): digits only
 * (no sign, space or hex), leading zeros allowed. On failure returns 0 and
 * sets *errstr to "invalid", "too small" or "too large".
 */
long long parsenum(const char *s, long long min, long long max, const char **errstr);

/* parsenum of the n bytes at s (a field of a record: a NUL among them is invalid). */
long long parsenumn(const char *s, size_t n, long long min, long long max,
    const char **errstr);

/* parsenum, or a usage error naming what the number is for. */
long long estrtonum(const char *s, long long min, long long max, const char *what);
/*
 * part/parts (docsplit -p, wordfreq -c): parts 1 to 4096, part 0 to
 * parts - 1; else a usage error.
 */
void estrtopart(const char *s, unsigned *part, unsigned *parts);

/*
 * A decimal fraction from 0 to 1 of the n bytes at s: decimal digits with
 * at most one '.', at least one digit, at most 15 decimals ("0.5", ".75",
 * "1", "1.000"); no sign, blank, exponent or hexadecimal. Returns it
 * exactly, in units of FRAC_ONE; on failure 0, and *errstr is "invalid".
 */
#define FRAC_ONE 1000000000000000ULL
unsigned long long parsefracn(const char *s, size_t n, const char **errstr);

/* parsefracn of a string, or a usage error naming what the fraction is for. */
unsigned long long estrtofrac(const char *s, const char *what);

/*
 * estrtofrac as a double: the exact decimal divided by FRAC_ONE, both
 * exact in a double, rounds as strtod would.
 */
double estrtofracd(const char *s, const char *what);

/* Seconds on the monotonic clock, for rates and progress. */
double monoseconds(void);

/* Flush and close fp; report a failure naming name. Returns 0 or 1 (for the exit status). */
int fshut(FILE *fp, const char *name);

/*
 * An output file that appears whole or not at all: afile_open creates a
 * temporary file beside path (reporting a failure and returning NULL);
 * afile_close flushes and closes it, gives it the mode a new file would
 * get (the umask), and renames it to path, or with abort set, or on any
 * failure, removes it. Returns 0 or 1 (for the exit status).
 *
 * A symbolic link at path is written through: the file it names (a
 * dangling link: the file it would name) is replaced, beside itself, and
 * the link stays. A path that is, or names, an existing file that is not
 * regular, a device or a FIFO, is not replaced but written directly, as
 * output comes (a FIFO waits for its reader as any writer does): there
 * the output is not whole on failure, which the status still reports.
 * A path that names a descriptor of the process (/dev/stdout, /dev/fd/N,
 * /proc/self/fd/N, or a link to one) is written through a copy of that
 * descriptor, as standard output is: nothing is replaced or truncated,
 * and a descriptor closed or open only for reading is an error (EBADF).
 * A directory is an error. The descriptor is never one of 0 to 2, even
 * if those are closed, so stdout and stderr cannot write into it.
 *
 * While it is open, SIGHUP, SIGINT, SIGPIPE (a reader of stdout gone),
 * SIGQUIT and SIGTERM, where their action is the default one, remove the
 * temporary file before they end the process as they would have (a
 * forked child removes only its own): an interrupted run leaves the old
 * file and nothing beside it. (SIGKILL cannot.)
 */
struct afile {
	FILE *fp;
	char *tmp;		/* the temporary file, or NULL when written directly */
	char *target;		/* what is replaced: path, links followed */
	const char *path;
	struct afile *next;	/* the open ones with a temporary file */
	pid_t owner;		/* the process that made it */
};
FILE *afile_open(struct afile *a, const char *path);
int afile_close(struct afile *a, int abort);

/*
 * The descriptor of this process that path names, links followed as
 * afile_open follows them (/dev/stdout, /dev/fd/N, a link to one), or -1.
 * A file written in place, by offset or with a truncation, cannot be one:
 * it is the shell's, opened perhaps with >>, or a pipe.
 */
int pathfd(const char *path);

/*
 * fd moved above the standard descriptors (closed and -1 on failure; -1
 * as it is): one of them closed is no place for output, which stdout's
 * own writes or fshut(stdout) would reach.
 */
int abovestd(int fd);

/*
 * A scratch file, read and written, already unlinked: in TMPDIR (else
 * /tmp), unlike tmpfile(3), so that a user can put it on a large disk.
 * scratchfile returns NULL (errno set) if it cannot be made; etmpfile
 * says so and ends the program.
 */
FILE *scratchfile(void);
FILE *etmpfile(void);

/*
 * Give stdout a large buffer, and note which file it is; call before the
 * first write, and before opening any file (with descriptor 1 closed, a
 * file opened later takes it, and is no output).
 */
void setupstdout(void);
struct stat;
/* Is st (of a regular file) standard output's file, as setupstdout saw it? */
int isstdout(const struct stat *st);

/* The processors online that this process may run on (its affinity), 1 to max. */
unsigned nprocs(unsigned max);

/* Write v in decimal. */
void putu(unsigned long long v, FILE *fp);

/*
 * Output records built in memory and written with one fwrite: growable
 * bytes. obuf_room makes room for n more bytes and returns where they go;
 * the caller then adds n (or fewer) to b->n.
 */
struct obuf {
	char *p;
	size_t n, cap;
};

static inline char *
obuf_room(struct obuf *b, size_t n)
{
	/* <= and + 1: an empty buffer is allocated too, never null + 0 */
	if (b->cap - b->n <= n)
		egrow(&b->p, &b->cap, b->n + n + 1, 1);
	return b->p + b->n;
}

static inline void
obuf_add(struct obuf *b, const void *s, size_t n)
{
	memcpy(obuf_room(b, n), s, n);
	b->n += n;
}

static inline void
obuf_addc(struct obuf *b, char c)
{
	*obuf_room(b, 1) = c;
	b->n++;
}

/* Make b hold the n bytes at s (b->p is never null after: a field may be empty). */
static inline void
obuf_set(struct obuf *b, const void *s, size_t n)
{
	b->n = 0;
	obuf_add(b, s, n);
}

/* The value of hexadecimal digit c, or -1. */
static inline int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Write v in decimal at s (room for 20 bytes); returns the length. */
size_t utoa(char *s, unsigned long long v);

static inline void
obuf_addu(struct obuf *b, unsigned long long v)
{
	b->n += utoa(obuf_room(b, 20), v);
}

/* Write the bytes of b to fp and empty b. */
void obuf_flush(struct obuf *b, FILE *fp);

/*
 * A run of like messages (bad records, duplicate IDs): the first SAID_MAX
 * are said, the others only counted. said counts one more in *n and tells
 * whether to say it; saidcount, at the run's end, says how many there were
 * past those ("[name: ]N what, the first 10 said").
 */
enum { SAID_MAX = 10 };
int said(uintmax_t *n);
void saidcount(uintmax_t n, const char *name, const char *what);

/* Usage handling: "usage: argv0 synopsis" on stderr and exit 2, or for -h on stdout and exit 0. */
_Noreturn void eusage(const char *synopsis);

/* A usage error getopt has not reported: why (weprintf), then eusage. */
_Noreturn void eusagewhy(const char *synopsis, const char *fmt, ...);
int help(const char *synopsis);

#endif
