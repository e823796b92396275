/*
 * radix.h: stable LSD radix sorts of 64-bit keys, a byte at a time, for the
 * large arrays of hashes where qsort's comparisons (and glibc's hidden copy)
 * cost most of the time. A byte that is the same in every key costs one
 * counting pass and no move.
 */
#ifndef RADIX_H
#define RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sort v[0..n) ascending. */
void radix_sort64(uint64_t *v, size_t n);

/*
 * Sort the n records of two words at v (key, then a value that travels
 * with it) by key, stably: records with equal keys keep their order.
 */
void radix_sort64kv(uint64_t *v, size_t n);

/* The first index of sorted v[0..n) holding a value >= x (n if none): a binary search. */
size_t radix_lowerbound64(const uint64_t *v, size_t n, uint64_t x);
size_t radix_lowerbound32(const uint32_t *v, size_t n, uint32_t x);

/*
 * The sorts keep their scratch array (8 bytes a key, 16 a record, of the
 * largest sort so far) for the next; this gives it back.
 */
void radix_free(void);

#endif
