/* runs.c: records sorted in bounded memory, by runs merged (runs.h). */
#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "radix.h"
#include "runs.h"
#include "util.h"

#define INMIN	64	/* records a run's buffer holds, merging, at least */
#define INMAX	4096	/* and at most */

/*
 * A run's next record in the tree of its matches: its key, and the run,
 * which breaks ties; a run read out (or a leaf without one) plays
 * UINT64_MAX and its leaf + leaves, after any run.
 */
struct player {
	uint64_t key;
	size_t run;
};

/* A run being merged: a buffer of its records, refilled from the file. */
struct runin {
	uint64_t *buf;		/* two words a record */
	size_t i, n;		/* the next record in buf; the records in buf */
	uint64_t at, end;	/* its records not read yet: [at, end), in the file */
};

struct runs {
	size_t max;		/* records a run holds */
	uint64_t *buf;		/* the run being filled, then the only one */
	size_t n, cap, next;	/* records in buf, its room, the next one out */
	FILE *tmp;		/* the runs written, back to back; NULL: buf is all */
	uint64_t written;	/* records in tmp */
	uint64_t *start;	/* where each run starts in tmp, and where the last ends */
	size_t nrun, startcap;
	struct runin *in;
	struct player *tree;	/* the loser of each match; tree[0], the next record out */
	size_t leaves;		/* a power of 2, at least nrun: the leaves of the tree */
	size_t room;		/* records a run's buffer holds */
};

struct runs *
runs_new(size_t max)
{
	struct runs *r = ecalloc(1, sizeof *r);

	r->max = max ? max : 1;
	return r;
}

void
runs_free(struct runs *r)
{
	size_t k;

	if (!r)
		return;
	free(r->buf);
	if (r->tmp)
		fclose(r->tmp);
	free(r->start);
	for (k = 0; r->in && k < r->nrun; k++)
		free(r->in[k].buf);
	free(r->in);
	free(r->tree);
	free(r);
}

/* Sort the run in buf and write it at the end of the file. */
static void
spill(struct runs *r)
{
	if (!r->tmp)
		r->tmp = etmpfile();
	radix_sort64kv(r->buf, r->n);
	if (fwrite(r->buf, 2 * sizeof *r->buf, r->n, r->tmp) != r->n)
		eprintf("temporary file:");
	egrow(&r->start, &r->startcap, r->nrun + 2, sizeof *r->start);
	r->start[r->nrun++] = r->written;
	r->written += r->n;
	r->start[r->nrun] = r->written;
	r->n = 0;
}

void
runs_add(struct runs *r, uint64_t key, uint64_t val)
{
	if (r->n == r->max)
		spill(r);
	if (r->n == r->cap)
		egrow(&r->buf, &r->cap, r->n + 1, 2 * sizeof *r->buf);
	r->buf[2 * r->n] = key;
	r->buf[2 * r->n + 1] = val;
	r->n++;
}

/* Read the next records of run in into its buffer (none: it is read out). */
static void
refill(struct runs *r, struct runin *in)
{
	uint64_t left = in->end - in->at;

	in->i = 0;
	in->n = left < r->room ? (size_t)left : r->room;
	if (in->n == 0)
		return;
	if (fseeko(r->tmp, (off_t)(in->at * 2 * sizeof *in->buf), SEEK_SET) < 0 ||
	    fread(in->buf, 2 * sizeof *in->buf, in->n, r->tmp) != in->n) {
		if (ferror(r->tmp))
			eprintf("temporary file:");
		eprintf("temporary file: truncated");
	}
	in->at += in->n;
}

static int
before(struct player a, struct player b)
{
	return a.key < b.key || (a.key == b.key && a.run < b.run);
}

/* Run k's next record, as it plays. */
static struct player
player(const struct runs *r, size_t k)
{
	struct player p;

	if (k < r->nrun && r->in[k].i < r->in[k].n) {
		p.key = r->in[k].buf[2 * r->in[k].i];
		p.run = k;
	} else {
		p.key = UINT64_MAX;
		p.run = r->leaves + k;
	}
	return p;
}

/* The winner of the matches under node t; the losers stay in their nodes. */
static struct player
play(struct runs *r, size_t t)
{
	struct player a, b;

	if (t >= r->leaves)
		return player(r, t - r->leaves);
	a = play(r, 2 * t);
	b = play(r, 2 * t + 1);
	if (before(a, b)) {
		r->tree[t] = b;
		return a;
	}
	r->tree[t] = a;
	return b;
}

void
runs_sort(struct runs *r)
{
	size_t k;

	if (!r->tmp) {
		radix_sort64kv(r->buf, r->n);
		return;
	}
	if (r->n)
		spill(r);
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
	radix_free();	/* the runs are sorted: their scratch goes before the buffers */
	if (fflush(r->tmp) == EOF)
		eprintf("temporary file:");
	r->room = r->max / r->nrun;
	r->room = r->room < INMIN ? INMIN : r->room > INMAX ? INMAX : r->room;
	r->in = ereallocarray(NULL, r->nrun, sizeof *r->in);
	for (r->leaves = 1; r->leaves < r->nrun; r->leaves *= 2)
		;
	r->tree = ereallocarray(NULL, r->leaves, sizeof *r->tree);
	for (k = 0; k < r->nrun; k++) {
		r->in[k].buf = ereallocarray(NULL, r->room, 2 * sizeof *r->in[k].buf);
		r->in[k].at = r->start[k];
		r->in[k].end = r->start[k + 1];
		refill(r, &r->in[k]);
	}
	r->tree[0] = play(r, 1);
}

int
runs_next(struct runs *r, uint64_t *key, uint64_t *val)
{
	struct player p, t;
	struct runin *in;
	uint64_t m, x;
	size_t node;

	if (!r->tmp) {
		if (r->next == r->n)
			return 0;
		*key = r->buf[2 * r->next];
		*val = r->buf[2 * r->next + 1];
		r->next++;
		return 1;
	}
	if (r->tree[0].run >= r->nrun)
		return 0;
	in = &r->in[r->tree[0].run];
	*key = in->buf[2 * in->i];
	*val = in->buf[2 * in->i + 1];
	if (++in->i == in->n)
		refill(r, in);
	/*
	 * Its next record plays the losers on its way up; the winner goes
	 * on. Without branches: which wins is a coin toss to the processor.
	 */
	p = player(r, r->tree[0].run);
	for (node = (r->leaves + r->tree[0].run) / 2; node >= 1; node /= 2) {
		t = r->tree[node];
		m = (uint64_t)0 - (uint64_t)((t.key < p.key) | ((t.key == p.key) & (t.run < p.run)));
		x = (t.key ^ p.key) & m;
		t.key ^= x;
		p.key ^= x;
		x = (t.run ^ p.run) & m;
		t.run ^= (size_t)x;
		p.run ^= (size_t)x;
		r->tree[node] = t;
	}
	r->tree[0] = p;
	return 1;
}
