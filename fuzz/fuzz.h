/*
 * fuzz.h: what the libFuzzer harnesses share (see fuzz/README).
 *
 * A harness drives the library where the tool's work is there, or else
 * includes the tool's source with main renamed, so that it drives the
 * tool's own parser unchanged (fuzz/README). An input is
 *
 *	OPT1 OPT2 PART0 [SEP PART1 [SEP PART2 ...]]
 *
 * two option bytes, then the parts (separated by the line "%%"), each of
 * which the harness hands to the parser as a file. OPT1's low 4 bits pick the
 * size of the reader's buffer, so that records, words and escapes straddle
 * buffer boundaries; its high bits and OPT2 are the harness's own options.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "rdr.h"

#define FUZZ_SEP "\n%%\n"
#define FUZZ_MAXPART 4

struct fuzzin {
	unsigned o1, o2;
	const char *path[FUZZ_MAXPART];	/* part i as a file, empty when absent */
};

/* Split an input as described above into nparts files (at most FUZZ_MAXPART). */
void fuzz_begin(struct fuzzin *in, const uint8_t *d, size_t n, int nparts);

/* The reader's buffer size for this input; 0 leaves it as it is. */
extern size_t fuzz_cap;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

#endif
