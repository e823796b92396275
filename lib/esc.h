/*
 * esc.h: the escape that lets any byte but LF travel in a TAB-separated
 * field (see simrec(5)): backslash, TAB, LF, CR and NUL are written as
 * \\ \t \n \r \0; every other byte stands for itself.
 */
#ifndef ESC_H
#define ESC_H

#include <stddef.h>
#include <stdio.h>

/* Escape n bytes of s into dst, which has room for 2 * n; returns the length. */
size_t esc_encode(char *dst, const char *s, size_t n);

/* Write n bytes of s to fp, escaped. */
void esc_write(const char *s, size_t n, FILE *fp);

/* The byte that escape letter c (the byte after a backslash) stands for, or -1. */
int esc_byte(int c);

/* 0 if the n bytes at s are a well-formed escaped field, else -1. */
int esc_check(const char *s, size_t n);

/*
 * 1 if the n bytes at s are a well-formed escaped field that esc_encode
 * gives back byte for byte from its decoding (no raw TAB, LF, CR or NUL), else
 * 0: a filter that passes text through may then copy it as it came.
 */
int esc_canonical(const char *s, size_t n);

/*
 * Decode the field s of length n in place; returns the decoded length, or
 * -1 if s holds a backslash not followed by one of \ t n r 0.
 */
ptrdiff_t esc_decode(char *s, size_t n);

#endif
