/*
 * Fuzz index files of kept sketches (skidx(5)): part 0 is the index, part
 * 1 a batch of sketch records. skidx_open on any bytes must refuse the
 * file with a diagnostic or give an index that every use keeps in
 * bounds: its records dumped, the batch queried against it (pairs, and
 * with bit 4 of OPT1 the clusters of -u; OPT2 % 32 the minimum size), and
 * appended to it, the result opened again. The seeds are index files
 * written by skidx -o and -a, with a batch.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "join.h"
#include "skidx.h"
#include "util.h"

static void
pair(uint32_t a, uint32_t b, double sim, void *ctx)
{
	(void)a, (void)b, (void)sim, (void)ctx;
}

static void
doc(uint32_t d, uint32_t root, void *ctx)
{
	(void)d, (void)root, (void)ctx;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct join_opt opt = { 0.25, -1, 2, 10 };
	struct fuzzin in;
	struct obuf out = { 0 };
	struct skidx *x, *y;
	struct join *b, *j;
	struct rdr r;
	FILE *null;
	unsigned size, maxwhole;
	uint64_t len;
	int fd;

	fuzz_begin(&in, data, n, 2);
	if ((fd = open(in.path[0], O_RDWR)) < 0)
		abort();
	if (!(x = skidx_open(fd, in.path[0], 0))) {
		close(fd);
		return 0;	/* refused, with a diagnostic */
	}
	null = fopen("/dev/null", "w");
	(void)skidx_dump(x, &out, null);
	b = join_new(&opt);
	skidx_size(x, &size, &maxwhole);
	join_setsize(b, size, maxwhole);
	if (rdr_open(&r, in.path[1]) == 0) {
		join_read(b, &r);
		rdr_close(&r);
	}
	join_end(b);
	opt.minsize = in.o2 % 32;
	if ((j = skidx_query(x, b, &opt))) {
		if (in.o1 & 16)
			join_clusters(j, 1, doc, NULL);
		else
			join_pairs(j, pair, NULL);
		join_free(j);
	}
	len = skidx_append(x, fd, in.path[0], b);
	skidx_close(x);
	/* (a forged index's counts may make its extension refused: no check) */
	if (len && (y = skidx_open(fd, in.path[0], len)))
		skidx_close(y);
	join_free(b);
	close(fd);
	fclose(null);
	free(out.p);
	return 0;
}
