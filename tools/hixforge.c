/*
 * hixforge: forged index files for the tests of hamq(1)'s checks. It
 * builds the index of a file of fingerprint records with tables for
 * distance 3, rewires the buckets of its table groups, and writes it with
 * a valid checksum, so that only the structure checks can refuse it:
 *	reset	0 -> 1 -> 2 -> 5 -> 6 -> 7, and 4 (reached from no
 *		bucket) -> 5: a chain deeper than the limit, hidden by a
 *		group that nothing reaches
 *	fan	every table of group g leads to g + 1 (g < 3): one lookup
 *		would visit 4^3 groups
 *	share	two buckets lead to group 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hix_int.h"
#include "util.h"

static const char synopsis[] = "reset | fan | share fingerprints indexfile";

/* Give table t the one bucket leading to group g. */
static void
link1(struct hix *ix, struct hixtab *tab, struct hixchild *ch, uint32_t t, uint32_t g)
{
	ch[ix->nchild].start = 0;
	ch[ix->nchild].end = tab[t].size;
	ch[ix->nchild].grp = g;
	ch[ix->nchild].pad = 0;
	tab[t].child = ix->nchild++;
	tab[t].nchild = 1;
}

int
main(int argc, char *argv[])
{
	static const uint32_t reset[][2] = {
		{ 0, 1 }, { 1, 2 }, { 2, 5 }, { 4, 5 }, { 5, 6 }, { 6, 7 }
	};
	struct hix *ix;
	struct hixtab *tab;
	struct hixchild *ch;
	uint32_t t, g, nt;
	size_t i;
	int st;

	argv0 = "hixforge";
	if (argc != 4)
		eusage(synopsis);
	if (!(ix = hix_load(argv[2])))
		return EXIT_DATA;
	hix_plan(ix, 3, 0, HIX_INDEX, 1);
	nt = ix->tdist + 1;
	if (ix->ngrp < 8)
		eprintf("%s: %u table groups, not the 8 a forgery needs", escname(argv[2]), ix->ngrp);
	tab = (struct hixtab *)ix->tab;	/* ours: built, not mapped */
	ch = ecalloc((size_t)ix->ntab + 1, sizeof *ch);
	for (t = 0; t < ix->ntab; t++)
		tab[t].child = tab[t].nchild = 0;
	ix->nchild = 0;
	if (!strcmp(argv[1], "reset"))
		for (i = 0; i < sizeof reset / sizeof reset[0]; i++)
			link1(ix, tab, ch, reset[i][0] * nt, reset[i][1]);
	else if (!strcmp(argv[1], "fan"))
		for (g = 0; g < 3; g++)
			for (t = g * nt; t < (g + 1) * nt; t++)
				link1(ix, tab, ch, t, g + 1);
	else if (!strcmp(argv[1], "share")) {
		link1(ix, tab, ch, 0, 1);
		link1(ix, tab, ch, 1, 1);
	} else
		eusage(synopsis);
	ix->child = ch;
	st = hix_save(ix, argv[3]) < 0 ? EXIT_DATA : 0;
	free(ch);
	hix_free(ix);
	return st;
}
