/* util.h: diagnostics, checked allocation, number parsing, output shutdown. */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdio.h>

/* Exit statuses shared by every tool. */
enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

extern const char *argv0;

/* Print "argv0: message" on stderr; a format ending in ':' appends strerror(errno). */
void weprintf(const char *fmt, ...);
void eprintf(const char *fmt, ...);		/* weprintf, then exit 1 */
void enprintf(int status, const char *fmt, ...);	/* weprintf, then exit status */

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

/* parsenum, or a usage error naming what the number is for. */
long long estrtonum(const char *s, long long min, long long max, const char *what);

/* Flush and close fp; report a failure naming name. Returns 0 or 1 (for the exit status). */
int fshut(FILE *fp, const char *name);

/* Give stdout a large buffer; call before the first write. */
void setupstdout(void);

/* Write v in decimal. */
void putu(unsigned long long v, FILE *fp);

/* Usage handling: "usage: argv0 synopsis" on stderr and exit 2, or for -h on stdout and exit 0. */
void eusage(const char *synopsis);
int help(const char *synopsis);

#endif
