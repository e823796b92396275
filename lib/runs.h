/*
 * runs.h: records of two words, a 64-bit key and a value that travels
 * with it, sorted by key stably (records of equal keys keep the order
 * they were added in) in bounded memory, for a writer that needs them in
 * order once: sorted runs of at most max records (radix.h), the runs
 * past the first written to a scratch file (etmpfile: in TMPDIR), then
 * merged.
 *
 * Use: runs_new; runs_add each record; runs_sort; runs_next until it
 * returns 0; runs_free. Memory: 32 bytes a record of the run being
 * filled (the run, and the sort's scratch while it is sorted); merging,
 * a buffer for each run: together at most max records, and never fewer
 * than 64 records (1 kB) a run. The scratch file holds 16 bytes a record.
 * Time: a radix sort of each run, and log2 of the runs' number a record
 * to merge them. An error of the scratch file ends the program.
 */
#ifndef RUNS_H
#define RUNS_H

#include <stddef.h>
#include <stdint.h>

struct runs;

struct runs *runs_new(size_t max);
void runs_free(struct runs *r);

void runs_add(struct runs *r, uint64_t key, uint64_t val);

/* The records are all added: sort them. */
void runs_sort(struct runs *r);

/* The next record in order into *key and *val: 1, or 0 past the last. */
int runs_next(struct runs *r, uint64_t *key, uint64_t *val);

#endif
