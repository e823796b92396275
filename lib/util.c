/* util.c: diagnostics, checked allocation, number parsing, output shutdown. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "esc.h"
#include "util.h"

const char *argv0 = "simtool";

static void
vwarn(const char *fmt, va_list ap)
{
	int saved = errno, len;
	size_t n = strlen(fmt);
	const char *err = n > 0 && fmt[n - 1] == ':' ? strerror(saved) : NULL;
	char *msg = NULL;
	va_list aq;

	/*
	 * One fprintf, so one write to the unbuffered stderr: the lines of
	 * tools run side by side (simtool's stages) never mix.
	 */
	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len >= 0 && (msg = malloc((size_t)len + 1)))
		vsnprintf(msg, (size_t)len + 1, fmt, ap);
	if (msg) {
		fprintf(stderr, "%s: %s%s%s\n", argv0, msg, err ? " " : "", err ? err : "");
		free(msg);
		return;
	}
	fprintf(stderr, "%s: ", argv0);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, " %s", err);
	fputc('\n', stderr);
}

const char *
escname(const char *s)
{
	static struct obuf ring[4];
	static unsigned next;
	struct obuf *b = &ring[next++ % 4];
	size_t n = strlen(s);

	b->n = 0;
	/* obuf_room leaves a byte more than asked: the NUL fits */
	b->n = esc_encode(obuf_room(b, 2 * n), s, n);
	b->p[b->n] = '\0';
	return b->p;
}

void
weprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

_Noreturn void
eprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(EXIT_DATA);
}

_Noreturn void
enprintf(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

void *
emalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		eprintf("malloc:");
	return p;
}

void *
ecalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		eprintf("calloc:");
	return p;
}

void *
erealloc(void *p, size_t size)
{
	if (!(p = realloc(p, size ? size : 1)))
		eprintf("realloc:");
	return p;
}

void *
ereallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		eprintf("reallocarray:");
	}
	return erealloc(p, n * size);
}

char *
estrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(emalloc(n), s, n);
}

void
egrow(void *p, size_t *cap, size_t need, size_t size)
{
	void **pp = p;
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return;
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			n = need;
			break;
		}
		n *= 2;
	}
	*pp = ereallocarray(*pp, n, size);
	*cap = n;
}

long long
parsenum(const char *s, long long min, long long max, const char **errstr)
{
	return parsenumn(s, strlen(s), min, max, errstr);
}

long long
parsenumn(const char *s, size_t n, long long min, long long max, const char **errstr)
{
	unsigned long long v = 0;
	const char *p;

	*errstr = NULL;
	if (n == 0) {
		*errstr = "invalid";
		return 0;
	}
	for (p = s; p < s + n; p++) {
		if (*p < '0' || *p > '9') {
			*errstr = "invalid";
			return 0;
		}
		if (v > (ULLONG_MAX - (unsigned)(*p - '0')) / 10)
			v = ULLONG_MAX;	/* saturate; reported as too large */
		else
			v = v * 10 + (unsigned)(*p - '0');
	}
	if (v > (unsigned long long)LLONG_MAX || (long long)v > max) {
		*errstr = "too large";
		return 0;
	}
	if ((long long)v < min) {
		*errstr = "too small";
		return 0;
	}
	return (long long)v;
}

long long
estrtonum(const char *s, long long min, long long max, const char *what)
{
	const char *errstr;
	long long v = parsenum(s, min, max, &errstr);

	if (errstr)
		enprintf(EXIT_USAGE, "%s '%s' is %s (allowed: %lld to %lld)",
		    what, escname(s), errstr, min, max);
	return v;
}

void
estrtopart(const char *s, unsigned *part, unsigned *parts)
{
	char *p = estrdup(s), *slash;

	if (!(slash = strchr(p, '/')))
		enprintf(EXIT_USAGE, "part '%s' is invalid (part/parts)", escname(s));
	*slash = '\0';
	*parts = (unsigned)estrtonum(slash + 1, 1, 4096, "parts");
	*part = (unsigned)estrtonum(p, 0, *parts - 1, "part");
	free(p);
}

unsigned long long
parsefracn(const char *s, size_t n, const char **errstr)
{
	const char *e = s + n;
	unsigned long long whole = 0, frac = 0, unit = FRAC_ONE;
	int digits = 0;

	*errstr = "invalid";
	for (; s < e && *s >= '0' && *s <= '9'; s++, digits++)
		if ((whole = whole * 10 + (unsigned)(*s - '0')) > 1)
			return 0;
	if (s < e && *s == '.')
		for (s++; s < e && *s >= '0' && *s <= '9'; s++, digits++) {
			if (unit == 1)
				return 0;
			unit /= 10;
			frac += (unsigned)(*s - '0') * unit;
		}
	if (s != e || digits == 0 || whole * FRAC_ONE + frac > FRAC_ONE)
		return 0;
	*errstr = NULL;
	return whole * FRAC_ONE + frac;
}

unsigned long long
estrtofrac(const char *s, const char *what)
{
	const char *errstr;
	unsigned long long v = parsefracn(s, strlen(s), &errstr);

	if (errstr)
		enprintf(EXIT_USAGE, "%s '%s' is %s (allowed: a decimal fraction from 0 "
		    "to 1, at most 15 decimals)", what, escname(s), errstr);
	return v;
}

double
estrtofracd(const char *s, const char *what)
{
	return (double)estrtofrac(s, what) / (double)FRAC_ONE;
}

double
monoseconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
fshut(FILE *fp, const char *name)
{
	int ret = 0;

	/* fflush first so that a write error is seen even if fclose hides it */
	if (fflush(fp) == EOF || ferror(fp)) {
		weprintf("%s: write error:", escname(name));
		ret = 1;
	}
	if (fclose(fp) == EOF && !ret) {
		weprintf("%s: close error:", escname(name));
		ret = 1;
	}
	return ret;
}

/* A descriptor's number as Linux names its entry: decimal, no leading 0; or -1. */
static int
fdnumber(const char *s)
{
	const char *errstr;
	long long fd;

	if (s[0] == '0' && s[1])
		return -1;
	fd = parsenum(s, 0, INT_MAX, &errstr);
	return errstr ? -1 : (int)fd;
}

/* Is the folder at path the one at other? */
static int
samedir(const char *path, const char *other)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat(other, &b) == 0 && S_ISDIR(a.st_mode) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * The descriptor of this process that p names, or -1. Such a path is the
 * descriptor's: Linux shows it as a link to the file the descriptor has
 * open, which is not ours to replace (a shell's >> would lose what it
 * held), and a pipe's "link" names no file at all. The usual names are
 * told by their spelling, so that one of a closed descriptor is one too
 * (EBADF); any other link (islink), by its folder: the process's
 * descriptors, /proc/self/fd or /proc/thread-self/fd, however reached.
 */
static int
fdpath(const char *p, int islink)
{
	static const char *const stdname[] = { "/dev/stdin", "/dev/stdout", "/dev/stderr" };
	const char *base = strrchr(p, '/');
	char self[40], *dir;
	size_t i, len, dirlen;
	int fd;

	for (i = 0; i < sizeof stdname / sizeof stdname[0]; i++)
		if (!strcmp(p, stdname[i]))
			return (int)i;
	len = (size_t)snprintf(self, sizeof self, "/proc/%ld/fd/", (long)getpid());
	if (!strncmp(p, "/dev/fd/", 8))
		return fdnumber(p + 8);
	if (!strncmp(p, "/proc/self/fd/", 14))
		return fdnumber(p + 14);
	if (!strncmp(p, self, len))
		return fdnumber(p + len);
	if (!islink || (fd = fdnumber(base ? base + 1 : p)) < 0)
		return -1;
	/* the link's folder: "/" for "/x", "." for "x" */
	dirlen = !base || base == p ? 1 : (size_t)(base - p);
	dir = emalloc(dirlen + 1);
	memcpy(dir, base ? p : ".", dirlen);
	dir[dirlen] = '\0';
	if (!samedir(dir, "/proc/self/fd") && !samedir(dir, "/proc/thread-self/fd"))
		fd = -1;
	free(dir);
	return fd;
}

/*
 * The file path names: symbolic links followed, at most 40 of them (as
 * Linux and the BSDs allow); a dangling one names the file to create.
 * One that names a descriptor (fdpath) is followed no further: *fd is
 * that descriptor, else -1. NULL, errno set, if a link cannot be read.
 */
static char *
linktarget(const char *path, int *fd)
{
	struct stat st;
	char *p = estrdup(path), *link = NULL, *slash, *np;
	size_t cap = 256, dirlen;
	ssize_t n;
	int hops;

	for (hops = 0; (*fd = fdpath(p, 0)) < 0 && lstat(p, &st) == 0 && S_ISLNK(st.st_mode) &&
	    (*fd = fdpath(p, 1)) < 0; hops++) {
		if (hops == 40) {
			errno = ELOOP;
			goto fail;
		}
		for (;;) {
			link = erealloc(link, cap);
			if ((n = readlink(p, link, cap)) < 0)
				goto fail;
			if ((size_t)n < cap)
				break;
			cap *= 2;
		}
		link[n] = '\0';
		/* a relative link is relative to the link's directory */
		dirlen = link[0] != '/' && (slash = strrchr(p, '/')) ? (size_t)(slash - p) + 1 : 0;
		np = emalloc(dirlen + (size_t)n + 1);
		memcpy(np, p, dirlen);
		memcpy(np + dirlen, link, (size_t)n + 1);
		free(p);
		p = np;
	}
	free(link);
	return p;
fail:
	free(link);
	free(p);
	return NULL;
}

int
pathfd(const char *path)
{
	char *p;
	int fd;

	if (!(p = linktarget(path, &fd)))
		return -1;
	free(p);
	return fd;
}

int
abovestd(int fd)
{
	int nfd;

	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	nfd = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
	close(fd);
	return nfd;
}

/*
 * The afiles open with a temporary file, for the handler of the signals
 * that end a process: it removes them. The list changes with those
 * signals blocked, so the handler never sees it half changed.
 */
static struct afile *pending;
static const int endsigs[] = { SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM };

static void
onendsig(int sig)
{
	int saved = errno;
	pid_t me = getpid();
	struct afile *a;

	for (a = pending; a; a = a->next)
		if (a->owner == me)
			unlink(a->tmp);
	/* blocked in here: the signal ends the process once this returns */
	signal(sig, SIG_DFL);
	raise(sig);
	errno = saved;
}

static void
blockendsigs(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof endsigs / sizeof endsigs[0]; i++)
		sigaddset(&set, endsigs[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/* With the ending signals blocked (blockendsigs), so no signal comes between. */
static void
addpending(struct afile *a)
{
	static int handled;
	struct sigaction sa, cur;
	size_t i;

	if (!handled) {
		/* a signal ignored, or caught by the program, stays so */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = onendsig;
		sigemptyset(&sa.sa_mask);
		for (i = 0; i < sizeof endsigs / sizeof endsigs[0]; i++)
			if (sigaction(endsigs[i], NULL, &cur) == 0 && cur.sa_handler == SIG_DFL)
				sigaction(endsigs[i], &sa, NULL);
		handled = 1;
	}
	a->owner = getpid();
	a->next = pending;
	pending = a;
}

static void
droppending(struct afile *a)
{
	struct afile **pp;
	sigset_t old;

	blockendsigs(&old);
	for (pp = &pending; *pp; pp = &(*pp)->next)
		if (*pp == a) {
			*pp = a->next;
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

FILE *
afile_open(struct afile *a, const char *path)
{
	struct stat st;
	sigset_t old;
	int fd = -1, saved, desc, fl;

	memset(a, 0, sizeof *a);
	a->path = path;
	if (!(a->target = linktarget(path, &desc)))
		goto fail;
	/* a descriptor's path: written through a copy of it, as stdout is */
	if (desc >= 0) {
		if ((fl = fcntl(desc, F_GETFL)) < 0)
			goto fail;
		if ((fl & O_ACCMODE) == O_RDONLY) {
			errno = EBADF;
			goto fail;
		}
		if ((fd = fcntl(desc, F_DUPFD, STDERR_FILENO + 1)) < 0 || !(a->fp = fdopen(fd, "w")))
			goto fail;
		return a->fp;
	}
	/*
	 * A device or FIFO is written as it is: replacing it would break
	 * what it is for (as root, /dev/null became a file). A file that
	 * became regular since stat is not written in place, but replaced.
	 */
	if (stat(a->target, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((fd = abovestd(open(a->target, O_WRONLY | O_NOCTTY))) < 0)
			goto fail;
		if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
			if (!(a->fp = fdopen(fd, "w")))
				goto fail;
			return a->fp;
		}
		close(fd);
	}
	a->tmp = emalloc(strlen(a->target) + 8);
	sprintf(a->tmp, "%s.XXXXXX", a->target);
	/* the file is made and known to the handler with no signal between */
	blockendsigs(&old);
	if ((fd = mkstemp(a->tmp)) >= 0)
		addpending(a);
	saved = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = saved;	/* mkstemp's, for the message */
	if (fd < 0) {
		free(a->tmp);	/* not made: nothing to remove */
		a->tmp = NULL;
		goto fail;
	}
	if ((fd = abovestd(fd)) < 0)
		goto fail;	/* made: removed below */
	if ((a->fp = fdopen(fd, "w")))
		return a->fp;
fail:
	weprintf("%s:", escname(path));
	if (fd >= 0)
		close(fd);
	if (a->tmp) {
		unlink(a->tmp);
		droppending(a);
	}
	free(a->tmp);
	free(a->target);
	memset(a, 0, sizeof *a);
	return NULL;
}

int
afile_close(struct afile *a, int abort)
{
	mode_t m = umask(0);
	int ret = 0;

	umask(m);
	/* mkstemp makes files 0600: the file gets the mode of any new one */
	if (abort) {
		fclose(a->fp);
		ret = 1;
	} else if (fshut(a->fp, a->path))
		ret = 1;
	else if (a->tmp && (chmod(a->tmp, 0666 & ~m) < 0 || rename(a->tmp, a->target) < 0)) {
		weprintf("%s:", escname(a->path));
		ret = 1;
	}
	if (ret && a->tmp)
		unlink(a->tmp);
	if (a->tmp)
		droppending(a);
	free(a->tmp);
	free(a->target);
	memset(a, 0, sizeof *a);
	return ret;
}

/* The directory of scratch files: TMPDIR, else /tmp. */
static const char *
tmpdir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

FILE *
scratchfile(void)
{
	const char *dir = tmpdir();
	size_t n = strlen(dir) + sizeof "/simtool.XXXXXX";
	char *path = emalloc(n);
	FILE *fp;
	int fd, e;

	snprintf(path, n, "%s/simtool.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);	/* only a name mkstemp made is ours */
	free(path);
	if ((fd = abovestd(fd)) < 0)
		return NULL;
	if (!(fp = fdopen(fd, "w+"))) {
		e = errno;
		close(fd);
		errno = e;
	}
	return fp;
}

FILE *
etmpfile(void)
{
	FILE *fp = scratchfile();

	if (!fp)
		eprintf("%s: scratch file:", escname(tmpdir()));
	return fp;
}

/* standard output's file, if regular (setupstdout): no input may be it */
static int stdout_regular;
static dev_t stdout_dev;
static ino_t stdout_ino;

void
setupstdout(void)
{
	static char buf[1 << 16];
	struct stat st;

	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
		stdout_regular = 1;
		stdout_dev = st.st_dev;
		stdout_ino = st.st_ino;
	}
}

int
isstdout(const struct stat *st)
{
	return stdout_regular && st->st_dev == stdout_dev && st->st_ino == stdout_ino;
}

_Noreturn void
eusage(const char *synopsis)
{
	fprintf(stderr, "usage: %s %s\n", argv0, synopsis);
	exit(EXIT_USAGE);
}

_Noreturn void
eusagewhy(const char *synopsis, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	eusage(synopsis);
}

int
said(uintmax_t *n)
{
	return (*n)++ < SAID_MAX;
}

void
saidcount(uintmax_t n, const char *name, const char *what)
{
	if (n <= SAID_MAX)
		return;
	if (name)
		weprintf("%s: %ju %s, the first %d said", name, n, what, SAID_MAX);
	else
		weprintf("%ju %s, the first %d said", n, what, SAID_MAX);
}

int
help(const char *synopsis)
{
	printf("usage: %s %s\n", argv0, synopsis);
	return fshut(stdout, "<stdout>");
}

size_t
utoa(char *s, unsigned long long v)
{
	/* two digits at a time, written from the end: ids and counts alike */
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	    "8081828384858687888990919293949596979899";
	unsigned long long t;
	size_t n, r;
	char *p;

	if (v < 10) {	/* most counts */
		*s = (char)('0' + v);
		return 1;
	}
	/* the digits by comparison: a multiplication each, not a division */
	for (n = 2, t = 100; n < 20 && v >= t; n++)
		t *= 10;
	for (p = s + n; v >= 100; v /= 100) {
		r = (size_t)(v % 100);
		*--p = pairs[2 * r + 1];
		*--p = pairs[2 * r];
	}
	if (v >= 10) {
		*--p = pairs[2 * v + 1];
		*--p = pairs[2 * v];
	} else {
		*--p = (char)('0' + v);
	}
	return n;
}

void
putu(unsigned long long v, FILE *fp)
{
	char s[20];

	fwrite(s, 1, utoa(s, v), fp);
}

void
obuf_flush(struct obuf *b, FILE *fp)
{
	/* never fwrite from null (a buffer never written to), even 0 bytes */
	if (b->n > 0)
		fwrite(b->p, 1, b->n, fp);
	b->n = 0;
}

/*
 * The processors of a Linux CPU list line such as "0-3,8,10-11\n";
 * 0 if it is malformed.
 */
static long long
cpulist(const char *s)
{
	const char *err;
	long long a, b, count = 0;
	size_t n;

	for (;;) {
		n = strspn(s, "0123456789");
		a = b = parsenumn(s, n, 0, INT_MAX, &err);
		if (err)
			return 0;
		s += n;
		if (*s == '-') {
			n = strspn(++s, "0123456789");
			b = parsenumn(s, n, a, INT_MAX, &err);
			if (err)
				return 0;
			s += n;
		}
		count += b - a + 1;
		if (*s != ',')
			break;
		s++;
	}
	return *s == '\n' ? count : 0;
}

/*
 * The processors this process may run on, as Linux's affinity list (the
 * Cpus_allowed_list of /proc/self/status) says: a taskset, the cpuset of
 * a Slurm job or of a container narrows it. 0 if it is not known.
 */
static long long
allowedcpus(void)
{
	static const char key[] = "Cpus_allowed_list:";
	char line[8192];
	long long n = 0;
	FILE *fp;

	if (!(fp = fopen("/proc/self/status", "r")))
		return 0;
	while (fgets(line, sizeof line, fp))
		if (!strncmp(line, key, sizeof key - 1)) {
			n = cpulist(line + sizeof key - 1 + strspn(line + sizeof key - 1, " \t"));
			break;
		}
	fclose(fp);
	return n;
}

unsigned
nprocs(unsigned max)
{
	long long n = sysconf(_SC_NPROCESSORS_ONLN), allowed = allowedcpus();

	if (allowed > 0 && allowed < n)
		n = allowed;
	return n < 1 ? 1 : (unsigned long long)n > max ? max : (unsigned)n;
}
