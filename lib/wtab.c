/* wtab.c: word tables: open addressing with linear probing, one text arena. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rdr.h"
#include "siphash.h"
#include "util.h"
#include "wtab.h"

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p)	__builtin_prefetch(p)
#else
#define PREFETCH(p)	((void)(p))
#endif

/*
 * The hash key: 128 random bits for the process (wtab.h says why). It
 * comes from /dev/urandom; failing that (a chroot without /dev), from the
 * clock, the process id and the address space layout, which still differ
 * from run to run.
 */
static uint64_t sipk0, sipk1;
static int keyed;

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
setkey(void)
{
	unsigned char b[16];
	struct timespec ts;
	ssize_t got = -1;
	uint64_t z;
	int fd;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) >= 0) {
		got = read(fd, b, sizeof b);
		close(fd);
	}
	if (got == (ssize_t)sizeof b) {
		memcpy(&sipk0, b, 8);
		memcpy(&sipk1, b + 8, 8);
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		z = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		z ^= (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&z;
		sipk0 = mix64(z);
		sipk1 = mix64(z ^ (uint64_t)(uintptr_t)&sipk0);
	}
	keyed = 1;
}

/* The slot key of w: see struct wslot. */
static inline uint64_t
key(const char *w, size_t n)
{
	const unsigned char *p = (const unsigned char *)w;
	uint64_t k = (uint64_t)(n < 255 ? n : 255) << 56;

	if (n >= 8)
		return k | (sip_load64(p) & UINT64_C(0x00ffffffffffffff));
	return k | sip_loadtail(p, n);
}

/*
 * SipHash-1-3 of the n bytes at w (siphash.h), folded to 32 bits. Its last
 * block is the slot key k when n < 8.
 */
static inline uint32_t
hash(const char *w, size_t n, uint64_t k)
{
	uint64_t last = n < 8 ? k : sip_lastblock((const unsigned char *)w + (n & ~(size_t)7), n);
	uint64_t m = siphash_last(sipk0, sipk1, w, n, last, 1, 3, NULL);

	return (uint32_t)(m ^ m >> 32);
}

/* Whether n bytes at a and b are equal: inline, for short words. */
static int
same(const char *a, const char *b, size_t n)
{
	for (; n >= 8; a += 8, b += 8, n -= 8)
		if (memcmp(a, b, 8))
			return 0;
	for (; n; n--)
		if (*a++ != *b++)
			return 0;
	return 1;
}

void
wtab_init(struct wtab *t)
{
	if (!keyed)
		setkey();
	memset(t, 0, sizeof *t);
	t->mask = 1023;
	t->slot = ecalloc(t->mask + 1, sizeof *t->slot);
}

void
wtab_free(struct wtab *t)
{
	free(t->slot);
	free(t->text);
	free(t->ent);
	memset(t, 0, sizeof *t);
}

static void
rehash(struct wtab *t)
{
	size_t oldn = t->mask + 1, i, j;
	struct wslot *old = t->slot;

	t->mask = 2 * oldn - 1;
	t->slot = ecalloc(t->mask + 1, sizeof *t->slot);
	for (i = 0; i < oldn; i++) {
		if (!old[i].id1)
			continue;
		for (j = old[i].hash & t->mask; t->slot[j].id1; j = (j + 1) & t->mask)
			;
		t->slot[j] = old[i];
	}
	free(old);
}

/*
 * The slot holding w, or the empty slot where it belongs. Linear probing:
 * intern keeps the table at most half full, so an empty slot always ends
 * the search, even if every word had the same hash. Inline: it is most of
 * the work of counting words.
 */
static inline size_t
lookup(const struct wtab *t, const char *w, size_t n, uint32_t h, uint64_t k)
{
	const struct wslot *s;
	size_t i;
	uint32_t id;

	for (i = h & t->mask; (s = &t->slot[i])->id1; i = (i + 1) & t->mask) {
		if (s->hash != h || s->key != k)
			continue;
		if (n <= 7)
			break;	/* the key is the whole word */
		id = s->id1 - 1;
		if (t->ent[id].len == n && same(t->text + t->ent[id].off + 7, w + 7, n - 7))
			break;
	}
	return i;
}

static inline uint32_t
find(const struct wtab *t, const char *w, size_t n, uint32_t h, uint64_t k)
{
	uint32_t id1 = t->slot[lookup(t, w, n, h, k)].id1;

	return id1 ? id1 - 1 : WTAB_NONE;
}

uint32_t
wtab_find_ref(const struct wtab *t, const struct wref *r, const char *w, size_t n)
{
	return find(t, w, n, r->hash, r->key);
}

uint32_t
wtab_find(const struct wtab *t, const char *w, size_t n)
{
	uint64_t k = key(w, n);

	return find(t, w, n, hash(w, n, k), k);
}

static inline uint32_t
intern(struct wtab *t, const char *w, size_t n, uint32_t h, uint64_t k)
{
	size_t i = lookup(t, w, n, h, k);

	if (t->slot[i].id1)
		return t->slot[i].id1 - 1;
	if (t->n >= UINT32_MAX - 1)
		eprintf("more than %lu distinct words", (unsigned long)UINT32_MAX - 1);
	egrow(&t->ent, &t->cap, t->n + 1, sizeof *t->ent);
	egrow(&t->text, &t->textcap, t->textlen + n + 1, 1);
	memcpy(t->text + t->textlen, w, n);
	t->text[t->textlen + n] = '\0';
	t->ent[t->n].off = t->textlen;
	t->ent[t->n].len = n;
	t->textlen += n + 1;
	t->slot[i].key = k;
	t->slot[i].hash = h;
	t->slot[i].id1 = (uint32_t)(t->n + 1);
	if (++t->n * 2 > t->mask)
		rehash(t);
	return (uint32_t)(t->n - 1);
}

uint32_t
wtab_intern_ref(struct wtab *t, const struct wref *r, const char *w, size_t n)
{
	return intern(t, w, n, r->hash, r->key);
}

uint32_t
wtab_intern(struct wtab *t, const char *w, size_t n)
{
	uint64_t k = key(w, n);

	return intern(t, w, n, hash(w, n, k), k);
}

void
wtab_prepare(const struct wtab *t, struct wref *r, const char *w, size_t n)
{
	r->key = key(w, n);
	r->hash = hash(w, n, r->key);
	PREFETCH(&t->slot[r->hash & t->mask]);
}

static void
lowercase(char *s, size_t n)
{
	for (; n--; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s += 'a' - 'A';
}

static int
isblankbyte(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int
wtab_load_words(struct wtab *t, const char *path)
{
	struct rdr r;
	char *line, *p, *end, *s;
	ptrdiff_t n;

	if (rdr_open(&r, path) < 0)
		return -1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		for (p = line, end = line + n; p < end;) {
			while (p < end && isblankbyte(*p))
				p++;
			for (s = p; p < end && !isblankbyte(*p); p++)
				;
			if (p > s) {
				lowercase(s, (size_t)(p - s));
				wtab_intern(t, s, (size_t)(p - s));
			}
		}
	}
	return rdr_close(&r) ? -1 : 0;
}

int
wtab_load_lines(struct wtab *t, const char *path, int unique)
{
	struct rdr r;
	char *line, *tab;
	ptrdiff_t n;
	size_t before;
	int ret = 0;

	if (rdr_open(&r, path) < 0)
		return -1;
	while ((n = rdr_line(&r, &line)) >= 0) {
		if ((tab = memchr(line, '\t', (size_t)n)))
			n = tab - line;
		else if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n == 0) {
			weprintf("%s:%ju: empty word", r.name, r.lineno);
			ret = -1;
			break;
		}
		lowercase(line, (size_t)n);
		before = t->n;
		wtab_intern(t, line, (size_t)n);
		if (unique && t->n == before) {
			weprintf("%s:%ju: duplicate word '%.*s'", r.name, r.lineno, (int)n, line);
			ret = -1;
			break;
		}
	}
	return rdr_close(&r) || ret ? -1 : 0;
}
