/* hix_file.c: index files (hixfile(5)): hix_save, hix_load, mapping and checking them. */
#include <sys/mman.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hix_int.h"
#include "util.h"

/*
 * The index file: a header, then the arrays, each at a multiple of 8
 * bytes, in the byte order of the machine that wrote it. The checksum
 * covers the whole file, its own field taken as zero.
 */
#define HIX_MAGIC	"\211HAMQIX\n"
#define HIX_VERSION	2
#define HIX_ORDER	UINT64_C(0x0102030405060708)

enum { S_FW, S_USTART, S_UPOS, S_IDBASE, S_IDREL, S_IDTEXT, S_GRP, S_TAB, S_CHILD,
	S_PERM, S_DIR, S_BITPOS, NSEC };

struct hixhdr {
	char magic[8];
	uint64_t version, order, size, sum;
	uint64_t m, nw, n, nu, idtextlen, hastab, tdist, ngrp, ntab, nchild, nperm, ndir;
	uint64_t off[NSEC];
};

_Static_assert(sizeof(struct hixhdr) == HIX_HDRSIZE &&
    offsetof(struct hixhdr, size) == HIX_OFFSIZE &&
    offsetof(struct hixhdr, sum) == HIX_OFFSUM, "index file header layout");

struct sum {
	uint64_t h, part;
	unsigned npart;
};

static void
sumword(struct sum *s, uint64_t w)
{
	s->h = (s->h ^ w) * UINT64_C(0x9e3779b97f4a7c15);
	s->h ^= s->h >> 29;
}

static void
sumbytes(struct sum *s, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t w;

	while (n > 0 && s->npart > 0) {
		s->part |= (uint64_t)*c++ << (8 * s->npart);
		n--;
		if (++s->npart == 8) {
			sumword(s, s->part);
			s->npart = 0;
			s->part = 0;
		}
	}
	for (; n >= 8; n -= 8, c += 8) {
		memcpy(&w, c, 8);
		/* Little-endian value of the bytes, whatever the machine. */
		w = (uint64_t)c[0] | (uint64_t)c[1] << 8 | (uint64_t)c[2] << 16 |
		    (uint64_t)c[3] << 24 | (uint64_t)c[4] << 32 | (uint64_t)c[5] << 40 |
		    (uint64_t)c[6] << 48 | (uint64_t)c[7] << 56;
		sumword(s, w);
	}
	for (; n > 0; n--) {
		s->part |= (uint64_t)*c++ << (8 * s->npart);
		if (++s->npart == 8) {
			sumword(s, s->part);
			s->npart = 0;
			s->part = 0;
		}
	}
}

uint64_t
hix_checksum(const void *file, size_t n)
{
	struct sum s = { 0, 0, 0 };
	struct hixhdr h;

	if (n < sizeof h)
		return 0;
	memcpy(&h, file, sizeof h);
	h.sum = 0;
	sumbytes(&s, &h, sizeof h);
	sumbytes(&s, (const char *)file + sizeof h, n - sizeof h);
	if (s.npart)
		sumword(&s, s.part);
	return s.h;
}

/* The lengths of the sections for the counts in h. */
static void
seclens(const struct hixhdr *h, uint64_t len[NSEC])
{
	len[S_FW] = h->nu * h->nw * 8;
	len[S_USTART] = (h->nu + 1) * 4;
	len[S_UPOS] = h->n * 4;
	len[S_IDBASE] = ((h->n >> HIX_IDGROUP) + 1) * 8;
	len[S_IDREL] = (h->n + 1) * 4;
	len[S_IDTEXT] = h->idtextlen;
	len[S_GRP] = h->ngrp * sizeof(struct hixgrp);
	len[S_TAB] = h->ntab * sizeof(struct hixtab);
	len[S_CHILD] = h->nchild * sizeof(struct hixchild);
	len[S_PERM] = h->nperm * 4;
	len[S_DIR] = h->ndir * 4;
	len[S_BITPOS] = FP_MAXBITS;
}

int
hix_save(const struct hix *ix, const char *path)
{
	static const char zero[8];
	struct hixhdr h;
	struct sum s = { 0, 0, 0 };
	uint64_t len[NSEC], at;
	const void *sec[NSEC];
	struct afile out;
	FILE *f;
	int i, pass;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, HIX_MAGIC, 8);
	h.version = HIX_VERSION;
	h.order = HIX_ORDER;
	h.m = ix->m;
	h.nw = ix->nw;
	h.n = ix->n;
	h.nu = ix->nu;
	h.idtextlen = ix->idtextlen;
	h.hastab = (uint64_t)ix->hastab;
	h.tdist = ix->tdist;
	if (ix->hastab) {
		h.ngrp = ix->ngrp;
		h.ntab = ix->ntab;
		h.nchild = ix->nchild;
		h.nperm = ix->nperm;
		h.ndir = ix->ndir;
	}
	seclens(&h, len);
	sec[S_FW] = ix->fw;
	sec[S_USTART] = ix->ustart;
	sec[S_UPOS] = ix->upos;
	sec[S_IDBASE] = ix->idbase;
	sec[S_IDREL] = ix->idrel;
	sec[S_IDTEXT] = ix->idtext;
	sec[S_GRP] = ix->grp;
	sec[S_TAB] = ix->tab;
	sec[S_CHILD] = ix->child;
	sec[S_PERM] = ix->perm;
	sec[S_DIR] = ix->dir;
	sec[S_BITPOS] = ix->bitpos;
	for (at = sizeof h, i = 0; i < NSEC; i++) {
		h.off[i] = at;
		at += (len[i] + 7) / 8 * 8;
	}
	h.size = at;
	/*
	 * written beside path, then renamed: never a half-written index file
	 * (through a symbolic link; a device or FIFO is written directly)
	 */
	if (!(f = afile_open(&out, path)))
		return -1;
	/* Pass 0 sums (the header with a zero sum, then the rest), pass 1 writes. */
	h.sum = 0;
	sumbytes(&s, &h, sizeof h);
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			h.sum = s.h;
			fwrite(&h, sizeof h, 1, f);
		}
		for (i = 0; i < NSEC; i++) {
			size_t pad = (size_t)((8 - len[i] % 8) % 8);

			if (pass == 0) {
				if (len[i])
					sumbytes(&s, sec[i], (size_t)len[i]);
				sumbytes(&s, zero, pad);
			} else {
				if (len[i])
					fwrite(sec[i], 1, (size_t)len[i], f);
				fwrite(zero, 1, pad, f);
			}
		}
	}
	return afile_close(&out, 0) ? -1 : 0;
}

/* Check what the lookups rely on, so that a bad file cannot crash them. */
static const char *
validate(struct hix *ix)
{
	uint64_t nslot, i, e, prev, s;
	uint32_t g, t, c, nt = ix->tdist + 1, *depth;
	const struct hixtab *tp;

	if (!hix_validbitpos(ix->bitpos, ix->m))
		return "bad bit order";
	if (ix->ustart[0] != 0 || ix->ustart[ix->nu] != ix->n)
		return "bad distinct-value table";
	for (i = 0; i < ix->nu; i++)
		if (ix->ustart[i] >= ix->ustart[i + 1])
			return "bad distinct-value table";
	for (i = 0; i < ix->n; i++)
		if (ix->upos[i] >= ix->n)
			return "bad position table";
	for (prev = 0, i = 0; i <= ix->n; i++) {
		s = ix->idbase[i >> HIX_IDGROUP] + ix->idrel[i];
		if (s < prev || s > ix->idtextlen)
			return "bad ID table";
		prev = s;
	}
	if (!ix->hastab)
		return NULL;
	/* -d 128 (FP_MAXBITS) builds no table: a scan answers it */
	if (ix->tdist > FP_MAXBITS || (ix->ngrp > 0 && (uint64_t)ix->ngrp * nt != ix->ntab))
		return "bad table counts";
	for (i = 0; i < ix->nperm; i++)
		if (ix->perm[i] >= ix->nu)
			return "bad table entry";
	for (g = 0; g < ix->ngrp; g++)
		if (ix->grp[g].tab != (uint64_t)g * nt || ix->grp[g].ntab != nt)
			return "bad group";
	for (t = 0; t < ix->ntab; t++) {
		tp = &ix->tab[t];
		if ((ix->m <= 64 && tp->mask[1]) ||
		    (ix->m < 64 && tp->mask[0] << ix->m) ||
		    (ix->m > 64 && ix->m < 128 && tp->mask[1] << (ix->m - 64)))
			return "table mask outside the fingerprint";
		if (tp->width != popcount64(tp->mask[0]) + popcount64(tp->mask[1]) ||
		    tp->width > 64 || tp->k > tp->width || tp->k > HIX_MAXK)
			return "bad table width";
		nslot = (uint64_t)1 << tp->k;
		if (tp->dir > ix->ndir || nslot + 1 > ix->ndir - tp->dir)
			return "table directory out of range";
		if (ix->dir[tp->dir] != 0 || ix->dir[tp->dir + nslot] != tp->size)
			return "bad table directory";
		for (i = 0; i < nslot; i++)
			if (ix->dir[tp->dir + i] > ix->dir[tp->dir + i + 1])
				return "bad table directory";
		e = tp->flags & HIX_IDENT ? ix->nu : ix->nperm;
		if ((tp->flags & ~(uint32_t)HIX_IDENT) || tp->off > e || tp->size > e - tp->off)
			return "table entries out of range";
		if (tp->child > ix->nchild || tp->nchild > ix->nchild - tp->child)
			return "table buckets out of range";
	}
	if (hix_mksegs(ix) < 0)
		return "table mask in too many pieces";
	/*
	 * A tree: every group but the first is reached from exactly one
	 * bucket of an earlier group, at most HIX_DEPTH levels down, so
	 * that one lookup visits each group at most once and its
	 * exclusions fit. depth[g] is g's level + 1, 0 while unreached.
	 */
	depth = ecalloc((size_t)ix->ngrp + 1, sizeof *depth);
	depth[0] = 1;
	for (t = 0; t < ix->ntab; t++) {
		tp = &ix->tab[t];
		g = t / nt;
		if (depth[g] == 0 || (tp->nchild > 0 && depth[g] > HIX_DEPTH)) {
			free(depth);
			return "bad bucket table";
		}
		for (c = tp->child; c < tp->child + tp->nchild; c++) {
			const struct hixchild *ch = &ix->child[c];

			if (ch->start >= ch->end || ch->end > tp->size ||
			    ch->grp <= g || ch->grp >= ix->ngrp || depth[ch->grp] != 0 ||
			    (c > tp->child && ch->start < ix->child[c - 1].end)) {
				free(depth);
				return "bad bucket table";
			}
			depth[ch->grp] = depth[g] + 1;
		}
	}
	free(depth);
	return NULL;
}

/* Map the index file open on fd (closing fd); NULL after a diagnostic. */
static struct hix *
map(int fd, const char *path)
{
	struct hixhdr h;
	struct stat st;
	uint64_t len[NSEC];
	const char *err = NULL, *base;
	struct hix *ix = hix_alloc(0);
	void *map = NULL;
	int i;

	if (fstat(fd, &st) < 0) {
		weprintf("%s:", escname(path));
		close(fd);
		goto fail;
	}
	if ((uint64_t)st.st_size < sizeof h) {
		close(fd);
		weprintf("%s: index file truncated (%ju bytes, less than its header)", escname(path),
		    (uintmax_t)st.st_size);
		goto fail;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		weprintf("%s: mmap:", escname(path));
		goto fail;
	}
	ix->map = map;
	ix->maplen = (size_t)st.st_size;
	base = map;
	memcpy(&h, base, sizeof h);
	if (memcmp(h.magic, HIX_MAGIC, 8))
		err = "not an index file (bad magic number)";
	else if (h.order != HIX_ORDER)
		err = "index file written on a machine of another byte order";
	else if (h.version != HIX_VERSION)
		err = "index file version not supported";
	else if (h.size != (uint64_t)st.st_size)
		err = h.size > (uint64_t)st.st_size ? "index file truncated" :
		    "index file has trailing bytes";
	if (err)
		goto bad;
	if (h.m > FP_MAXBITS || h.nw != (h.m + 63) / 64 || h.n >= UINT32_MAX ||
	    h.nu > h.n || (h.n == 0) != (h.m == 0 && h.nu == 0) || h.hastab > 1 ||
	    h.tdist > FP_MAXBITS || (h.tdist == FP_MAXBITS && h.ngrp != 0) ||
	    h.ngrp >= UINT32_MAX || h.ntab >= UINT32_MAX ||
	    h.nchild >= UINT32_MAX || h.nperm > h.size || h.ndir > h.size ||
	    h.idtextlen > h.size) {
		err = "bad counts in index file header";
		goto bad;
	}
	seclens(&h, len);
	for (i = 0; i < NSEC; i++)
		if (h.off[i] % 8 || h.off[i] < sizeof h || h.off[i] > h.size ||
		    len[i] > h.size - h.off[i]) {
			err = "index file section out of range";
			goto bad;
		}
	/* every section is padded to whole words */
	if ((h.size - sizeof h) % 8 || hix_checksum(base, (size_t)h.size) != h.sum) {
		err = "index file corrupt (checksum mismatch)";
		goto bad;
	}
	ix->m = (unsigned)h.m;
	ix->nw = (unsigned)h.nw;
	ix->n = (uint32_t)h.n;
	ix->nu = (uint32_t)h.nu;
	ix->idtextlen = h.idtextlen;
	ix->fw = (const uint64_t *)(const void *)(base + h.off[S_FW]);
	ix->ustart = (const uint32_t *)(const void *)(base + h.off[S_USTART]);
	ix->upos = (const uint32_t *)(const void *)(base + h.off[S_UPOS]);
	ix->idbase = (const uint64_t *)(const void *)(base + h.off[S_IDBASE]);
	ix->idrel = (const uint32_t *)(const void *)(base + h.off[S_IDREL]);
	ix->idtext = base + h.off[S_IDTEXT];
	ix->hastab = (int)h.hastab;
	ix->tdist = (unsigned)h.tdist;
	ix->ngrp = (uint32_t)h.ngrp;
	ix->ntab = (uint32_t)h.ntab;
	ix->nchild = (uint32_t)h.nchild;
	ix->nperm = h.nperm;
	ix->ndir = h.ndir;
	ix->grp = (const struct hixgrp *)(const void *)(base + h.off[S_GRP]);
	ix->tab = (const struct hixtab *)(const void *)(base + h.off[S_TAB]);
	ix->child = (const struct hixchild *)(const void *)(base + h.off[S_CHILD]);
	ix->perm = (const uint32_t *)(const void *)(base + h.off[S_PERM]);
	ix->dir = (const uint32_t *)(const void *)(base + h.off[S_DIR]);
	ix->bitpos = (const unsigned char *)(base + h.off[S_BITPOS]);
	if ((err = validate(ix)))
		goto bad;
	hix_derive(ix);
	return ix;
bad:
	weprintf("%s: %s", escname(path), err);
fail:
	hix_free(ix);
	return NULL;
}

struct hix *
hix_load(const char *path)
{
	struct stat st;
	struct rdr r;
	struct hix *ix;
	const char *line;
	char buf[8];
	int fd, bad;

	if (!strcmp(path, "-"))
		fd = 0;
	else if ((fd = open(path, O_RDONLY)) < 0) {
		weprintf("%s:", escname(path));
		return NULL;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 8 &&
	    pread(fd, buf, 8, 0) == 8 && !memcmp(buf, HIX_MAGIC, 8))
		return map(fd, path);
	/* Records, read through the one descriptor: a FIFO is opened once. */
	rdr_fdopen(&r, fd, path);
	if (rdr_peekline(&r, &line) == 7 && !memcmp(line, HIX_MAGIC, 7)) {
		weprintf("%s: an index file must be a regular file", escname(r.name));
		rdr_close(&r);
		return NULL;
	}
	ix = hix_new();
	bad = hix_read(ix, &r) < 0;
	if (rdr_close(&r) || bad) {
		hix_free(ix);
		return NULL;
	}
	hix_finish(ix);
	return ix;
}
