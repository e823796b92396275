/*
 * Fuzz the record readers of the sharded join (lib/skjoin): each step of
 * skjoin(1) on any bytes. OPT2 % 10 picks the step: the digests of sketch
 * records (0), dedup of digest records (1), the plan from samples (2),
 * the map of sketch records with repeats (part 1) and ranges (part 2),
 * and their document records (3), totals summed (4), bases of reach counts (5), the keys with their
 * reaches (part 1) (6), send (7), verify with the sketches sent (part 1)
 * (8), clusters or unique documents (bit 4 of OPT2) of pairs with ID
 * records (part 1) (9). There are 1 + OPT1 >> 4 shards, this one OPT2 / 16
 * modulo them. The totals the reduce steps read are part 3 (else
 * defaults); the harness holds their limit to 65536 documents, as the
 * memory of a step grows with it by design (skjoin(1)). Round trips: the
 * plan's ranges load back, and summed totals read back the same.
 */
#include <assert.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "skjoin.h"
#include "util.h"

#define MAXLIMIT	65536

static char dir[64];

/* At exit: the directory and the files the steps wrote in it. */
static void
rmdir_out(void)
{
	struct dirent *e;
	DIR *dp;

	if ((dp = opendir(dir))) {
		while ((e = readdir(dp)))
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
				unlinkat(dirfd(dp), e->d_name, 0);
		closedir(dp);
	}
	rmdir(dir);
}

/* The directory the steps write to, made once. */
static const char *
outdir(void)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "%s/skjoin.XXXXXX",
		    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(dir))
			abort();
		atexit(rmdir_out);
	}
	return dir;
}

/* dir/name, for a file a step wrote or the harness writes */
static const char *
outpath(const char *name)
{
	static char path[128];

	snprintf(path, sizeof path, "%s/%s", outdir(), name);
	return path;
}

/* The plan of sample records at path: its ranges load back, n of them, ascending from 0. */
static void
plan(const char *path, unsigned n)
{
	FILE *fp;
	uint64_t *low = NULL;
	unsigned p;

	if (!(fp = fopen(outpath("ranges"), "w")))
		abort();
	skj_plan(path, n, fp);
	if (fclose(fp) != 0)
		abort();
	if (skj_loadranges(outpath("ranges"), n, &low) != 0)
		abort();
	assert(low[0] == 0);
	for (p = 1; p < n; p++)
		assert(low[p - 1] <= low[p]);
	free(low);
}

/* Sum the totals records of path: what is written reads back the same. */
static void
sum(const char *path)
{
	struct skj_totals t = { 0, 0, 0 }, back = { 0, 0, 0 };
	struct rdr r;
	FILE *fp;

	if (rdr_open(&r, path) < 0)
		return;
	skj_sum(&r, &t);
	rdr_close(&r);
	if (t.limit > UINT32_MAX)
		return;
	if (!(fp = fopen(outpath("totals"), "w")))
		abort();
	skj_puttotals(&t, fp);
	if (fclose(fp) != 0)
		abort();
	if (skj_loadtotals(outpath("totals"), &back) != 0)
		abort();
	assert(back.ndocs == t.ndocs && back.size == t.size && back.limit == t.limit);
}

/* The ranges of the map: part 2 if it holds n of them, else n even ones. */
static uint64_t *
ranges(const char *path, unsigned n)
{
	uint64_t *low = NULL;
	unsigned p;

	if (skj_loadranges(path, n, &low) == 0)
		return low;
	for (p = 0; p < n; p++)
		low[p] = p * (UINT64_MAX / n);
	return low;
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const uint64_t key[2] = { 0x0706050403020100, 0x0f0e0d0c0b0a0908 };
	struct join_opt opt = { 0.25, -1, 2, 10 };
	struct skj_totals t = { 20, 0, 20 };
	struct fuzzin in;
	struct rdr r0, r1;
	uint64_t *low;
	unsigned shards, shard, step;

	fuzz_begin(&in, d, n, 4);
	shards = 1 + (in.o1 >> 4);
	shard = in.o2 / 16 % shards;
	step = in.o2 % 10;
	if (step == 2) {
		plan(in.path[0], shards);
		return 0;
	}
	if (step == 4) {
		sum(in.path[0]);
		return 0;
	}
	if (skj_loadtotals(in.path[3], &t) != 0)
		t = (struct skj_totals){ 20, 0, 20 };
	if (t.limit > MAXLIMIT)
		t.limit = MAXLIMIT;
	if (rdr_open(&r0, in.path[0]) < 0)
		abort();
	if (rdr_open(&r1, in.path[1]) < 0)
		abort();
	switch (step) {
	case 0:
		skj_digest(&r0, shard, shards, key, outdir());
		break;
	case 1:
		skj_dedup(&r0, shards, outdir());
		break;
	case 3:
		low = ranges(in.path[2], shards);
		skj_map(&r0, in.o1 & 8 ? &r1 : NULL, low, shard, shards, in.o2 >> 5, outdir());
		free(low);
		rdr_close(&r0);
		if (rdr_open(&r0, in.path[0]) < 0)
			abort();
		skj_docs(&r0, shard, shards, stdout);
		break;
	case 5:
		skj_bases(&r0, shards, stdout);
		break;
	case 6:
		skj_keys(&r0, &r1, in.o1 & 8, &t, in.o2 >> 6, shards, outdir());
		break;
	case 7:
		skj_send(&r0, &t, shards, outdir());
		break;
	case 8:
		skj_verify(&r0, &r1, &t, &opt, stdout);
		break;
	default:
		skj_clusters(&r0, &r1, &t, in.o2 & 16, stdout);
		break;
	}
	rdr_close(&r0);
	rdr_close(&r1);
	fflush(stdout);
	return 0;
}
