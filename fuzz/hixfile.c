/*
 * Fuzz hamq's index files: hix_load on any bytes must refuse the file with
 * a diagnostic, or give an index whose lookups stay in bounds; a file it
 * accepts as it is must answer like a scan. Part 0 is the file; the seeds
 * are real index files written by hamq -o. With bit 4 of OPT1 set, the
 * harness first re-seals the header's size and checksum, so that mutations
 * reach the checks behind the checksum: such a forged file must not crash
 * hamq, but its answers are its own (the checksum guards against damage,
 * not forgery); the work of each of its lookups stays within the bound
 * hixfile(5) states, linear in the size of the file. OPT2 % 129 is the
 * distance of the lookups, at most the file's own.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "fp.h"
#include "hix_int.h"
#include "util.h"

/* Rewrite the size and checksum words of the header of the file at path. */
static void
reseal(const char *path)
{
	static unsigned char *buf;
	static size_t cap;
	struct stat st;
	uint64_t w;
	size_t n;
	int fd;

	if ((fd = open(path, O_RDWR)) < 0 || fstat(fd, &st) < 0)
		abort();
	n = (size_t)st.st_size;
	if (n >= HIX_HDRSIZE) {
		egrow(&buf, &cap, n, 1);
		if (pread(fd, buf, n, 0) != (ssize_t)n)
			abort();
		w = n;
		memcpy(buf + HIX_OFFSIZE, &w, 8);
		w = hix_checksum(buf, n);
		memcpy(buf + HIX_OFFSUM, &w, 8);
		if (pwrite(fd, buf, HIX_OFFSUM + 8, 0) != HIX_OFFSUM + 8)
			abort();
	}
	close(fd);
}

/* The hits of h as sorted "unique << 8 | dist" keys. */
static void
keys(const struct hixhits *h, uint64_t **key, size_t *cap)
{
	size_t i, j;
	uint64_t t;

	egrow(key, cap, h->n + 1, sizeof **key);
	for (i = 0; i < h->n; i++)
		(*key)[i] = (uint64_t)h->u[i] << 8 | h->dist[i];
	for (i = 1; i < h->n; i++)
		for (j = i; j > 0 && (*key)[j - 1] > (*key)[j]; j--) {
			t = (*key)[j];
			(*key)[j] = (*key)[j - 1];
			(*key)[j - 1] = t;
		}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	static struct hixhits scan, tab;
	static uint64_t *ks, *kt;
	static size_t ksc, ktc;
	struct fuzzin in;
	struct hix *ix;
	struct fp q;
	size_t len;
	uint64_t bound = 0;
	uint32_t u, i, t;
	unsigned d;

	fuzz_begin(&in, data, n, 1);
	if (in.o1 & 16)
		reseal(in.path[0]);
	if (!(ix = hix_load(in.path[0])))
		return 0;	/* refused, with a diagnostic */
	d = in.o2 % (FP_MAXBITS + 1);
	if (ix->hastab && d > ix->tdist)
		d = ix->tdist;	/* the file's own tables, not new ones */
	hix_plan(ix, d, 0, HIX_INDEX, 1);
	for (i = 0; i < ix->n; i++)
		(void)hix_id(ix, i, &len);
	/* each table looked up once, each of its entries checked once */
	for (t = 0; t < ix->ntab; t++)
		bound += 40 + 4 * (uint64_t)ix->tab[t].size;
	/* look up every distinct value, and it with its first bit flipped */
	for (u = 0; u < ix->nu && u < 64; u++) {
		hix_ufp(ix, u, &q);
		if (in.o1 & 32)
			q.w[0] ^= (uint64_t)1 << 63;
		scan.n = tab.n = 0;
		tab.work = 0;
		hix_lookup(ix, &q, 0, &scan);
		hix_lookup(ix, &q, 1, &tab);
		if (tab.work > bound)
			abort();
		if (in.o1 & 16)
			continue;	/* forged: memory safety and work are all there is to check */
		if (scan.n != tab.n)
			abort();
		keys(&scan, &ks, &ksc);
		keys(&tab, &kt, &ktc);
		if (scan.n && memcmp(ks, kt, scan.n * sizeof *ks))
			abort();
	}
	hix_free(ix);
	return 0;
}
