/* parsplit: split page records into paragraph records and a paragraph map. */
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "esc.h"
#include "pagerec.h"
#include "rdr.h"
#include "util.h"

static size_t minsize = 100;	/* -n: paragraphs under this many bytes are merged */
static uint64_t key;		/* the last key given */
static FILE *mapf;		/* the map, written to a temporary name */
static struct obuf out;		/* paragraph records, a block at a time */
static struct obuf map;		/* map records, likewise */

/* A paragraph: text s[start..end) holding size bytes that are not white space. */
struct par {
	size_t start, end, size;
};

static int
isblankbyte(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Write paragraph number parno of the page whose escaped ID is id[0..idlen). */
static void
putpar(const char *id, size_t idlen, uint64_t parno, const char *s, const struct par *p)
{
	key++;
	obuf_addu(&out, key);
	obuf_addc(&out, '\t');
	out.n += esc_encode(obuf_room(&out, 2 * (p->end - p->start)), s + p->start,
	    p->end - p->start);
	obuf_addc(&out, '\n');
	obuf_addu(&map, key);
	obuf_addc(&map, '\t');
	obuf_add(&map, id, idlen);
	obuf_addc(&map, '\t');
	obuf_addu(&map, parno);
	obuf_addc(&map, '\t');
	obuf_addu(&map, p->size);
	obuf_addc(&map, '\n');
	if (out.n >= 1 << 16)
		obuf_flush(&out, stdout);
	if (map.n >= 1 << 16)
		obuf_flush(&map, mapf);
}

/*
 * The paragraphs of the decoded text s[0..n): runs of lines that are not
 * blank (white space only). A run of fewer than minsize bytes other than
 * white space is merged with the runs after it until the group reaches
 * minsize; a short group left at the end goes to the paragraph before it.
 * One paragraph is held back (last) so that it can still take that group.
 */
static void
split(const char *id, size_t idlen, const char *s, size_t n)
{
	struct par grp = { 0, 0, 0 }, last = { 0, 0, 0 };
	size_t i = 0, lstart, lsize;
	uint64_t parno = 0;
	int ingrp = 0, inpar = 0, havelast = 0;

	while (i < n) {
		/* one line: s[lstart..i), its LF after */
		lstart = i;
		lsize = 0;
		for (; i < n && s[i] != '\n'; i++)
			if (!isblankbyte((unsigned char)s[i]))
				lsize++;
		if (lsize) {
			if (!ingrp) {
				grp.start = lstart;
				grp.size = 0;
				ingrp = 1;
			}
			grp.end = i;
			grp.size += lsize;
			inpar = 1;
		} else if (inpar) {
			/* a paragraph ends: the group is done if it is large enough */
			inpar = 0;
			if (grp.size >= minsize) {
				if (havelast)
					putpar(id, idlen, ++parno, s, &last);
				last = grp;
				havelast = 1;
				ingrp = 0;
			}
		}
		if (i < n)
			i++;
	}
	if (ingrp && grp.size >= minsize) {
		if (havelast)
			putpar(id, idlen, ++parno, s, &last);
		last = grp;
		havelast = 1;
	} else if (ingrp && havelast) {
		last.end = grp.end;
		last.size += grp.size;
	} else if (ingrp) {
		last = grp;
		havelast = 1;
	}
	if (havelast)
		putpar(id, idlen, ++parno, s, &last);
}

static int
parsplit(const char *path)
{
	struct rdr r;
	char *line, *text;
	ptrdiff_t n, tn;
	size_t idlen;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if ((tn = pagerec_split(&r, line, (size_t)n, &idlen, &text)) < 0) {
			ret = 1;
			continue;
		}
		split(line, idlen, text, (size_t)tn);
	}
	return rdr_close(&r) | ret;
}

static const char synopsis[] = "-m map [-n minsize] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	struct afile mapfa;
	const char *mapfile = NULL;
	struct stat ms, os;
	int c, fd, ret = 0;

	argv0 = "parsplit";
	while ((c = getopt(argc, argv, "hm:n:")) != -1) {
		switch (c) {
		case 'h':
			return help(synopsis);
		case 'm':
			mapfile = optarg;
			break;
		case 'n':
			minsize = (size_t)estrtonum(optarg, 0, 1 << 30, "minimum size");
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!mapfile)
		eusagewhy(synopsis, "no map: -m is required");
	/* written through standard output's own file, the map would mix with the records */
	if ((fd = pathfd(mapfile)) >= 0 && fstat(fd, &ms) == 0 && fstat(STDOUT_FILENO, &os) == 0 &&
	    !S_ISCHR(ms.st_mode) && ms.st_dev == os.st_dev && ms.st_ino == os.st_ino)
		eusagewhy(synopsis, "-m %s: standard output's file, where the records go", escname(mapfile));

	/* the map is written beside its name, then renamed: never half a map */
	if (!(mapf = afile_open(&mapfa, mapfile)))
		return EXIT_DATA;
	setupstdout();
	if (argc == 0)
		ret |= parsplit("-");
	for (; argc > 0 && !ferror(stdout) && !ferror(mapf); argc--, argv++)
		ret |= parsplit(*argv);
	obuf_flush(&out, stdout);
	obuf_flush(&map, mapf);
	/* records lost on stdout: no map for them */
	if (fshut(stdout, "<stdout>")) {
		afile_close(&mapfa, 1);
		ret = 1;
	} else
		ret |= afile_close(&mapfa, 0);
	free(out.p);
	free(map.p);
	return ret;
}
