/* rec.h: the fields of a record line (simrec(5)): TAB-separated. */
#ifndef REC_H
#define REC_H

#include <stddef.h>

/*
 * Cut the first max fields of the n bytes at line: field i is the len[i]
 * bytes at f[i]. Returns how many fields the line has, or max if it has
 * more (the rest of the line is not looked at).
 */
int rec_cut(const char *line, size_t n, const char **f, size_t *len, int max);

#endif
