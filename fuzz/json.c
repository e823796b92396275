/*
 * Fuzz the JSON reader (lib/json): any bytes as one JSON text. Values must
 * stay inside the text, a container's text must read back as the same
 * container, the two ways through an object (json_value skipping it whole,
 * json_member stepping through it) must agree, decoding never grows a
 * string, and any decoded bytes written as a JSON string read back the
 * same. The first byte picks the member names json_find looks for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "json.h"

static struct json j, j2;
static struct obuf dec, dec2, enc;

static void
check(int ok)
{
	if (!ok)
		abort();
}

/* Write the bytes of b as a JSON string into enc, read it and decode it again. */
static void
roundtrip(const struct obuf *b)
{
	static const char hex[] = "0123456789abcdef";
	struct json_val v;
	size_t i;
	unsigned char c;

	enc.n = 0;
	obuf_addc(&enc, '"');
	for (i = 0; i < b->n; i++) {
		c = (unsigned char)b->p[i];
		if (c == '"' || c == '\\') {
			obuf_addc(&enc, '\\');
			obuf_addc(&enc, (char)c);
		} else if (c < 0x20) {
			obuf_add(&enc, "\\u00", 4);
			obuf_addc(&enc, hex[c >> 4]);
			obuf_addc(&enc, hex[c & 15]);
		} else {
			obuf_addc(&enc, (char)c);
		}
	}
	obuf_addc(&enc, '"');
	json_init(&j2, enc.p, enc.n);
	check(json_value(&j2, &v) == JSON_STRING);
	check(json_end(&j2) == 0);
	dec2.n = 0;
	json_decode(&v, &dec2);
	check(dec2.n == b->n && (b->n == 0 || !memcmp(dec2.p, b->p, b->n)));
}

/* A value read from the text s..s+n: inside it, and consistent. */
static void
value(const char *s, size_t n, const struct json_val *v)
{
	struct json_val w;

	check(v->p >= s && v->p + v->n <= s + n);
	switch (v->type) {
	case JSON_STRING:
		dec.n = 0;
		json_decode(v, &dec);
		check(dec.n <= v->n);
		check(v->escaped || (dec.n == v->n && (v->n == 0 || !memcmp(dec.p, v->p, v->n))));
		roundtrip(&dec);
		break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		json_init(&j2, v->p, v->n);
		check(json_value(&j2, &w) == v->type && w.p == v->p && w.n == v->n);
		check(json_end(&j2) == 0);
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const char *const namesets[4][2] = {
		{ "id", "text" }, { "", "a" }, { "\xc3\xa9", "\x01" }, { "text", "text" }
	};
	const char *s = (const char *)d + (n > 0), *const *names;
	struct json_val v, name, vals[2];
	int whole, members, r;
	size_t len = n - (n > 0), i;

	names = namesets[n > 0 ? d[0] & 3 : 0];

	/* the whole text as one value */
	json_init(&j, s, len);
	whole = json_value(&j, &v) != JSON_ERR;
	if (whole) {
		value(s, len, &v);
		whole = json_end(&j) == 0;
	}

	/* an object again, member by member */
	json_init(&j, s, len);
	if (json_objbegin(&j) != JSON_ERR) {
		while ((r = json_member(&j, &name, &v)) > 0) {
			check(name.type == JSON_STRING);
			value(s, len, &name);
			value(s, len, &v);
		}
		members = r == 0 && json_end(&j) == 0;
		check(members == whole);
	} else {
		check(json_offset(&j) <= len);
	}

	/* json_find agrees with both */
	json_init(&j, s, len);
	r = json_find(&j, names, vals, 2);
	check(json_offset(&j) <= len);
	if (r == 0) {
		check(whole);
		for (i = 0; i < 2; i++)
			if (vals[i].type != JSON_ERR)
				value(s, len, &vals[i]);
	}
	return 0;
}
