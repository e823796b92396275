/* html_charref.c: HTML character references (html_entities.h). */
#include <string.h>

#include "html_entities.h"
#include "util.h"

/* What the numeric references 0x80-0x9F stand for (windows-1252). */
static const unsigned short c1[32] = {
	0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
	0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
};

size_t
utf8put(char *out, unsigned long c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3F));
	out[2] = (char)(0x80 | (c >> 6 & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

static int
isalnumc(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The entity named by the n bytes at s exactly, or NULL. */
static const struct entity *
lookup(const char *s, size_t n)
{
	size_t lo = 0, hi = nentities, mid, len;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		len = strlen(entities[mid].name);
		c = memcmp(s, entities[mid].name, n < len ? n : len);
		if (c == 0)
			c = n < len ? -1 : n > len;
		if (c == 0)
			return &entities[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static size_t
numeric(const char *s, size_t n, char *out, size_t *outlen)
{
	unsigned long v = 0;
	size_t i = 1, start;
	int hex = 0, d;

	if (i < n && (s[i] == 'x' || s[i] == 'X')) {
		hex = 1;
		i++;
	}
	start = i;
	for (; i < n; i++) {
		d = hex ? hexval((unsigned char)s[i]) :
		    (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
		if (d < 0)
			break;
		/* saturate: any longer number is past U+10FFFF anyway */
		if (v <= 0x10FFFF)
			v = v * (hex ? 16 : 10) + (unsigned long)d;
	}
	if (i == start)
		return 0;
	if (i < n && s[i] == ';')
		i++;
	if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		v = 0xFFFD;
	else if (v >= 0x80 && v <= 0x9F)
		v = c1[v - 0x80];
	*outlen = utf8put(out, v);
	return i;
}

size_t
charref(const char *s, size_t n, int inattr, char *out, size_t *outlen)
{
	const struct entity *e;
	size_t len, k;

	if (n == 0)
		return 0;
	if (s[0] == '#')
		return numeric(s, n, out, outlen);
	for (len = 0; len < n && len < entity_maxlen && isalnumc((unsigned char)s[len]); len++)
		;
	if (len == 0)
		return 0;
	if (len < n && s[len] == ';' && (e = lookup(s, len + 1))) {
		k = len + 1;
	} else {
		/* the legacy names, without ';': the longest that matches */
		for (k = len < entity_maxlegacy ? len : entity_maxlegacy; k > 0; k--)
			if ((e = lookup(s, k)))
				break;
		if (k == 0)
			return 0;
		if (inattr && k < n && (s[k] == '=' || isalnumc((unsigned char)s[k])))
			return 0;
	}
	len = strlen(e->utf8);
	memcpy(out, e->utf8, len);
	*outlen = len;
	return k;
}
