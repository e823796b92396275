/* fuzz.c: input splitting and reader set-up for the harnesses (fuzz.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "util.h"
static char fuzz_dir[64];
size_t fuzz_cap;

static void
fuzz_cleanup(void)
{
	char path[96];
	int i;

	for (i = 0; i < FUZZ_MAXPART; i++) {
		snprintf(path, sizeof path, "%s/%d", fuzz_dir, i);
		unlink(path);
	}
	rmdir(fuzz_dir);
}

/* Write part i to its file and return the file's name. */
static const char *
fuzz_file(int i, const uint8_t *p, size_t n)
{
	static char path[FUZZ_MAXPART][96];
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (!fuzz_dir[0]) {
		/* a file system in memory makes the runs several times faster */
		if (access("/dev/shm", W_OK) == 0)
			tmp = "/dev/shm";
		else if (!tmp || !*tmp)
			tmp = "/tmp";
		snprintf(fuzz_dir, sizeof fuzz_dir, "%s/fuzz.XXXXXX", tmp);
		if (!mkdtemp(fuzz_dir))
			abort();
		atexit(fuzz_cleanup);
		/* the tools' output is not looked at */
		if (!freopen("/dev/null", "w", stdout))
			abort();
	}
	snprintf(path[i], sizeof path[i], "%s/%d", fuzz_dir, i);
	if ((fd = open(path[i], O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		abort();
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			abort();
		p += w;
		n -= (size_t)w;
	}
	close(fd);
	return path[i];
}

void
fuzz_begin(struct fuzzin *in, const uint8_t *d, size_t n, int nparts)
{
	static const size_t caps[16] = {
		0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 100, 256, 1000, 4096
	};
	const uint8_t *end, *sep;
	int i;

	in->o1 = n > 0 ? d[0] : 0;
	in->o2 = n > 1 ? d[1] : 0;
	d += n < 2 ? n : 2;
	n -= n < 2 ? n : 2;
	fuzz_cap = caps[in->o1 & 15];
	end = d + n;
	for (i = 0; i < nparts; i++) {
		if (!d) {
			in->path[i] = fuzz_file(i, (const uint8_t *)"", 0);
			continue;
		}
		sep = memmem(d, (size_t)(end - d), FUZZ_SEP, 4);
		if (i == nparts - 1)
			sep = NULL;	/* the last part takes the rest */
		in->path[i] = fuzz_file(i, d, (size_t)((sep ? sep : end) - d));
		d = sep ? sep + 4 : NULL;
	}
}

/*
 * Every reader the tool or the library opens gets the buffer size of this
 * input (the harnesses link with -Wl,--wrap=rdr_open, and so on).
 */
int __real_rdr_open(struct rdr *r, const char *path);
int __wrap_rdr_open(struct rdr *r, const char *path);
void __real_rdr_fdopen(struct rdr *r, int fd, const char *path);
void __wrap_rdr_fdopen(struct rdr *r, int fd, const char *path);
int __real_rdr_opendoc(struct rdr *r, const char *path, int dirok);
int __wrap_rdr_opendoc(struct rdr *r, const char *path, int dirok);

static void
shrink(struct rdr *r)
{
	if (fuzz_cap && fuzz_cap < r->cap) {
		r->cap = fuzz_cap;
		r->buf = erealloc(r->buf, r->cap + 1);
	}
}

int
__wrap_rdr_open(struct rdr *r, const char *path)
{
	if (__real_rdr_open(r, path) < 0)
		return -1;
	shrink(r);
	return 0;
}

void
__wrap_rdr_fdopen(struct rdr *r, int fd, const char *path)
{
	__real_rdr_fdopen(r, fd, path);
	shrink(r);
}

int
__wrap_rdr_opendoc(struct rdr *r, const char *path, int dirok)
{
	int ret = __real_rdr_opendoc(r, path, dirok);

	if (ret == 0)
		shrink(r);
	return ret;
}

