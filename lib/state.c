/* state.c: a kept neardup state on disk: its versions, lock and parameters. */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state.h"
#include "util.h"

/* Bounds: a params file's size; a version's name; a tree removed (depth). */
enum { PARAMSMAX = 256, NAMEMAX = 32, DEPTHMAX = 16 };

/*
 * A reader opens current's files one by one; a writer removes the old
 * version right after publishing. Each time the version vanished under
 * it, the reader starts again, as often as this.
 */
enum { SNAPTRIES = 100 };

static const char magic[] = "neardup-state";
static const char *const extracts[] = { "main", "all", "raw" };

int
st_open(const char *state)
{
	return open(state, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/*
 * Open name in dirfd (where in messages) for reading, never blocking: a
 * regular file or a diagnostic. Returns the descriptor, -1, or -2 if it
 * is not there (silent).
 */
static int
openreg(int dirfd, const char *name, const char *where)
{
	struct stat st;
	int fd, fl;

	if ((fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return -2;
		weprintf("%s/%s:", escname(where), escname(name));
		return -1;
	}
	if (fstat(fd, &st) < 0 || (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		weprintf("%s/%s:", escname(where), escname(name));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		weprintf("%s/%s: not a regular file", escname(where), escname(name));
		close(fd);
		return -1;
	}
	return fd;
}

/* The line of s (n bytes) that starts at *pos, without its LF; NULL at the end. */
static const char *
line(const char *s, size_t n, size_t *pos, size_t *len)
{
	const char *p = s + *pos, *lf;

	if (*pos >= n || !(lf = memchr(p, '\n', n - *pos)))
		return NULL;
	*len = (size_t)(lf - p);
	*pos += *len + 1;
	return p;
}

/* The number after key and a space on line s (n bytes), in [1, max]; 0 if none. */
static unsigned
keyed(const char *s, size_t n, const char *key, unsigned max)
{
	size_t k = strlen(key);
	const char *err;
	long long v;

	if (!s || n <= k + 1 || memcmp(s, key, k) || s[k] != ' ')
		return 0;
	v = parsenumn(s + k + 1, n - k - 1, 1, max, &err);
	return err ? 0 : (unsigned)v;
}

/*
 * Read the params file fd of a state of the version expected, named
 * where/params in messages, into p; the ranges are neardup's options'.
 */
static int
readparams(int fd, const char *where, int expected, struct stparams *p)
{
	char buf[PARAMSMAX + 1];
	const char *l[6], *err;
	size_t n = 0, len[6], pos = 0;
	ssize_t r;
	long long v;
	int i;

	while (n < sizeof buf && (r = read(fd, buf + n, sizeof buf - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			weprintf("%s/params:", escname(where));
			return -1;
		}
		n += (size_t)r;
	}
	for (i = 0; i < 6; i++)
		l[i] = line(buf, n, &pos, &len[i]);
	if (!l[0] || len[0] != sizeof magic - 1 || memcmp(l[0], magic, len[0])) {
		weprintf("%s/params: not a neardup state", escname(where));
		return -1;
	}
	v = l[1] ? parsenumn(l[1], len[1], 1, INT_MAX, &err) : 0;
	if (l[1] && !err && v > STATE_VERSION) {
		weprintf("%s: state version %lld, this neardup reads versions 1 to %d",
		    escname(where), v, STATE_VERSION);
		return -1;
	}
	p->words = keyed(l[2], len[2], "words", 16);
	p->size = keyed(l[3], len[3], "size", 256);
	p->extract[0] = '\0';
	for (i = 0; l[4] && i < 3; i++)
		if (len[4] == 8 + strlen(extracts[i]) && !memcmp(l[4], "extract ", 8) &&
		    !memcmp(l[4] + 8, extracts[i], len[4] - 8))
			memcpy(p->extract, extracts[i], len[4] - 7);
	p->index = 0;
	if (v == 3 && l[5] && len[5] > 6 && !memcmp(l[5], "index ", 6)) {
		const char *e;

		p->index = (unsigned long long)parsenumn(l[5] + 6, len[5] - 6, 1, LLONG_MAX, &e);
		if (e)
			p->index = 0;
	}
	if (!l[1] || err || (expected == 1 ? v != 1 : v != 2 && v != 3) || !p->words ||
	    !p->size || !p->extract[0] || (v == 3) != (p->index != 0) || (v != 3 && l[5]) ||
	    pos != n) {
		weprintf("%s/params: bad parameters", escname(where));
		return -1;
	}
	return 0;
}

/*
 * Open params and the index (or sketches) in dirfd, a version of the
 * state (1, or 2 or 3 in a directory); 1 if one is gone.
 */
static int
openversion(int dirfd, const char *where, int version, struct stsnap *snap)
{
	int pfd, sfd, r;

	if ((pfd = openreg(dirfd, "params", where)) < 0)
		return pfd == -2 ? 1 : -1;
	r = readparams(pfd, where, version, &snap->p);
	close(pfd);
	if (r < 0)
		return -1;
	if ((sfd = openreg(dirfd, snap->p.index ? "index" : "sketches", where)) < 0)
		return sfd == -2 ? 1 : -1;
	snap->sketches = sfd;
	return 0;
}

int
st_snapshot(int statefd, const char *state, struct stsnap *snap)
{
	char where[PATH_MAX], link[2][PATH_MAX];
	ssize_t len[2];
	int i, dirfd, version, r;

	for (i = 0; i < SNAPTRIES; i++) {
		version = 2;
		snprintf(where, sizeof where, "%s/current", state);
		len[0] = readlinkat(statefd, "current", link[0], sizeof link[0]);
		if ((dirfd = openat(statefd, "current", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			if (errno != ENOENT) {
				weprintf("%s/current:", escname(state));
				return -1;
			}
			/* version 1: the files in the state itself */
			version = 1;
			snprintf(where, sizeof where, "%s", state);
			if ((dirfd = openat(statefd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
				weprintf("%s:", escname(state));
				return -1;
			}
		}
		r = openversion(dirfd, where, version, snap);
		close(dirfd);
		if (r <= 0)
			return r;
		/* a version missing its files, and not replaced meanwhile: none */
		len[1] = readlinkat(statefd, "current", link[1], sizeof link[1]);
		if (version == 2 && len[0] == len[1] &&
		    (len[0] < 0 || !memcmp(link[0], link[1], (size_t)len[0]))) {
			weprintf("%s: not a neardup state (no params or sketches)", escname(where));
			return -1;
		}
		/* a version 1 state without its files is none, unless it became version 2 */
		if (version == 1 && faccessat(statefd, "current", F_OK, AT_EACCESS) < 0) {
			weprintf("%s: not a neardup state (no params or sketches)", escname(state));
			return -1;
		}
	}
	weprintf("%s: replaced too often while being read", escname(state));
	return -1;
}

int
st_current(int statefd, const char *state, char *cur, size_t n)
{
	ssize_t r;
	const char *err;

	if ((r = readlinkat(statefd, "current", cur, n - 1)) < 0) {
		cur[0] = '\0';
		if (errno == ENOENT)
			return 0;
		/* a directory, say: a writer could not replace it by a link */
		if (errno == EINVAL)
			weprintf("%s/current: not a symbolic link to a version", escname(state));
		else
			weprintf("%s/current:", escname(state));
		return -1;
	}
	cur[r] = '\0';
	if ((size_t)r < 3 || strncmp(cur, "v.", 2) ||
	    (parsenum(cur + 2, 1, LLONG_MAX - 1, &err), err) || cur[2] == '0') {
		weprintf("%s/current: not a version of the state", escname(state));
		return -1;
	}
	return 0;
}

/* Is name prefix and a decimal number, as a state names its versions (v.N) and work (tmp.PID)? */
static int
numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) || !name[n])
		return 0;
	for (name += n; *name; name++)
		if (*name < '0' || *name > '9')
			return 0;
	return 1;
}

/* Whether name is one a state holds besides a version 1's files. */
static int
ourname(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "lock") ||
	    !strcmp(name, "current") || numbered(name, "tmp.") || numbered(name, "v.");
}

/* A directory stream on dirfd, which stays open. */
static DIR *
opendirat(int dirfd, const char *where)
{
	int fd;
	DIR *d;

	if ((fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    !(d = fdopendir(fd))) {
		weprintf("%s:", escname(where));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	return d;
}

int
st_replaceable(int statefd, const char *state)
{
	char cur[NAMEMAX], head[sizeof magic];
	struct dirent *e;
	DIR *d;
	int fd, ret = 0, locked = 0, others = 0;
	ssize_t n;

	if (st_current(statefd, state, cur, sizeof cur) < 0)
		return -1;
	if (cur[0])
		return 0;
	fd = openat(statefd, "params", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		struct stat st;

		/* a version 1 state: its params begin with the magic */
		n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : -1;
		close(fd);
		if (n == (ssize_t)sizeof head && !memcmp(head, magic, sizeof magic - 1) &&
		    head[sizeof magic - 1] == '\n')
			return 0;
		weprintf("%s: not a neardup state: not replaced", escname(state));
		return -1;
	}
	/*
	 * No version published: a state's first run that did not end (its
	 * lock, work and versions) or an empty directory, nothing else;
	 * never a directory of someone's v.1 and tmp.2 without a lock.
	 */
	if (!(d = opendirat(statefd, state)))
		return -1;
	while ((e = readdir(d))) {
		if (!ourname(e->d_name)) {
			ret = -1;
			break;
		}
		if (!strcmp(e->d_name, "lock"))
			locked = 1;
		else if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			others = 1;
	}
	closedir(d);
	if (ret < 0 || (others && !locked)) {
		weprintf("%s: a directory that is not a neardup state: not replaced", escname(state));
		return -1;
	}
	return 0;
}

int
st_lock(int statefd, const char *state, int wait)
{
	struct flock fl, holder;
	struct stat a, b;
	int fd, r;

	if ((fd = openat(statefd, "lock", O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666)) < 0) {
		weprintf("%s/lock:", escname(state));
		return -1;
	}
	if (fstat(fd, &a) < 0 || !S_ISREG(a.st_mode)) {
		weprintf("%s/lock: not a regular file", escname(state));
		close(fd);
		return -1;
	}
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	while (fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EACCES) {
			holder = fl;
			if (fcntl(fd, F_GETLK, &holder) == 0 && holder.l_type != F_UNLCK)
				weprintf("%s: in use by another run (process %ld)", escname(state),
				    (long)holder.l_pid);
			else
				weprintf("%s: in use by another run", escname(state));
		} else {
			weprintf("%s/lock:", escname(state));
		}
		close(fd);
		return -1;
	}
	/* the file locked must still be the state's lock (st_unmake removes it) */
	if ((r = fstatat(statefd, "lock", &b, AT_SYMLINK_NOFOLLOW)) < 0 ||
	    a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
		close(fd);
		/* no run of ours makes one: no run will replace it */
		if (r == 0 && S_ISLNK(b.st_mode)) {
			weprintf("%s/lock: a symbolic link", escname(state));
			return -1;
		}
		return -2;
	}
	return fd;
}

/* Remove name in dirfd, a tree depth deep at most; -1 with errno set. */
static int
removetree(int dirfd, const char *name, int depth)
{
	struct dirent *e;
	DIR *d;
	int fd, i, saved;

	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	if (depth >= DEPTHMAX) {
		errno = ELOOP;
		return -1;
	}
	if ((fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!(d = fdopendir(fd))) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	/* a killed run's orphaned stage may still add a file: a few rounds */
	for (i = 0;; i++) {
		rewinddir(d);
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    removetree(fd, e->d_name, depth + 1) < 0)
				goto fail;
		if (unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			break;
		if ((errno != ENOTEMPTY && errno != EEXIST) || i == 3)
			goto fail;
	}
	closedir(d);
	return 0;
fail:
	saved = errno;
	closedir(d);
	errno = saved;
	return -1;
}

int
st_remove(int dirfd, const char *where, const char *name)
{
	if (removetree(dirfd, name, 0) < 0) {
		weprintf("%s/%s:", escname(where), escname(name));
		return -1;
	}
	return 0;
}

int
st_clean(int statefd, const char *state, const char *cur)
{
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (!(d = opendirat(statefd, state)))
		return -1;
	while ((e = readdir(d))) {
		const char *n = e->d_name;

		if (numbered(n, "tmp.") || (numbered(n, "v.") && strcmp(n, cur)) ||
		    (cur[0] && (!strcmp(n, "params") || !strcmp(n, "sketches"))))
			ret |= st_remove(statefd, state, n);
	}
	closedir(d);
	return ret;
}

/* Make path in dirfd (a regular file or directory) durable. */
static int
syncpath(int dirfd, const char *path, const char *state)
{
	int fd, r;

	if ((fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		weprintf("%s/%s:", escname(state), escname(path));
		return -1;
	}
	r = fsync(fd);
	/* (a directory may refuse fsync: nothing to do then) */
	if (r < 0 && errno != EINVAL)
		weprintf("%s/%s:", escname(state), escname(path));
	close(fd);
	return r < 0 && errno != EINVAL ? -1 : 0;
}

int
st_publish(int statefd, const char *state, const char *base, const char *work)
{
	char path[2 * NAMEMAX], cur[NAMEMAX], ver[NAMEMAX], where[PATH_MAX + 2 * NAMEMAX];
	struct stsnap snap;
	unsigned long long n = 1;
	const char *err;
	int dirfd, r;

	/* the new version is whole and valid on disk before anything names it */
	snprintf(path, sizeof path, "%s/new", work);
	snprintf(where, sizeof where, "%s/%s", state, path);
	if ((dirfd = openat(statefd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		weprintf("%s:", escname(where));
		return -1;
	}
	r = openversion(dirfd, where, STATE_VERSION, &snap);
	if (r == 0)
		close(snap.sketches);
	else if (r > 0)
		weprintf("%s: not a whole version", escname(where));
	if (r != 0 || syncpath(dirfd, "params", where) < 0 ||
	    syncpath(dirfd, snap.p.index ? "index" : "sketches", where) < 0 ||
	    syncpath(dirfd, ".", where) < 0) {
		close(dirfd);
		return -1;
	}
	close(dirfd);

	if (st_current(statefd, state, cur, sizeof cur) < 0)
		return -1;
	if (strcmp(cur, base)) {
		weprintf("%s: changed by another run: not replaced", escname(state));
		return -1;
	}
	/* (st_current checked it: v.N, N from 1 to LLONG_MAX - 1) */
	if (base[0]) {
		n = (unsigned long long)parsenum(base + 2, 1, LLONG_MAX - 1, &err) + 1;
		if (err) {
			weprintf("%s/%s: not a version", escname(state), escname(base));
			return -1;
		}
	}
	snprintf(ver, sizeof ver, "v.%llu", n);
	if (st_remove(statefd, state, ver) < 0)
		return -1;
	if (renameat(statefd, path, statefd, ver) < 0) {
		weprintf("%s/%s:", escname(state), escname(ver));
		return -1;
	}
	/* current is replaced whole: a new link renamed over it */
	snprintf(path, sizeof path, "%s/current", work);
	if (symlinkat(ver, statefd, path) < 0) {
		weprintf("%s/%s:", escname(state), escname(path));
		return -1;
	}
	if (syncpath(statefd, ".", state) < 0)
		return -1;
	if (renameat(statefd, path, statefd, "current") < 0) {
		weprintf("%s/current:", escname(state));
		return -1;
	}
	if (syncpath(statefd, ".", state) < 0)
		return -1;
	/* the old version; readers that opened it keep their files */
	if (base[0])
		return st_remove(statefd, state, base);
	r = 0;
	if (unlinkat(statefd, "params", 0) < 0 && errno != ENOENT)
		r = -1;
	if (unlinkat(statefd, "sketches", 0) < 0 && errno != ENOENT)
		r = -1;
	if (r < 0)
		weprintf("%s: the files of version 1:", escname(state));
	return r;
}

int
st_unmake(int statefd, const char *state, int lockfd)
{
	char cur[NAMEMAX];

	if (st_current(statefd, state, cur, sizeof cur) < 0 || cur[0] ||
	    faccessat(statefd, "params", F_OK, AT_EACCESS) == 0)
		return 0;
	/* still holding the lock: a run waiting for it sees its file gone */
	if (unlinkat(statefd, "lock", 0) < 0 || rmdir(state) < 0) {
		weprintf("%s:", escname(state));
		return -1;
	}
	close(lockfd);
	return 0;
}

int
st_cleantmp(const char *dir, const char *prefix)
{
	struct dirent *e;
	struct stat st;
	struct utsname u;
	const char *p, *dot, *at, *err;
	size_t k = strlen(prefix);
	long long pid;
	DIR *d;
	int ret = 0, named;

	/* an unreadable dir: the run's own mkdir there says why */
	if (!(d = opendir(dir)))
		return 0;
	named = uname(&u) == 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, k) || e->d_name[k] != '.')
			continue;
		p = e->d_name + k + 1;
		if (!(dot = strchr(p, '.')))
			continue;
		/* another host's (a directory all hosts share): its PID is not ours to look up */
		if ((at = strrchr(dot, '@')) && (!named || strcmp(at + 1, u.nodename)))
			continue;
		pid = parsenumn(p, (size_t)(dot - p), 1, INT_MAX, &err);
		if (err || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		/* gone for sure: another user's process (EPERM) counts as alive */
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (removetree(dirfd(d), e->d_name, 0) < 0) {
			weprintf("%s/%s:", escname(dir), escname(e->d_name));
			ret = -1;
		}
	}
	closedir(d);
	return ret;
}
