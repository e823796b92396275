/* json.c: a small pull reader of one JSON text held in memory (json.h). */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

void
json_init(struct json *j, const char *s, size_t n)
{
	j->s = j->p = s;
	j->end = s + n;
	j->err = NULL;
	j->first = 0;
}

void
json_free(struct json *j)
{
	free(j->open);
	j->open = NULL;
	j->opencap = 0;
	free(j->key.p);
	memset(&j->key, 0, sizeof j->key);
}

size_t
json_offset(const struct json *j)
{
	return (size_t)(j->p - j->s);
}

static enum json_type
fail(struct json *j, const char *what)
{
	j->err = what;
	return JSON_ERR;
}

static int
failn(struct json *j, const char *what)
{
	j->err = what;
	return -1;
}

static void
skipws(struct json *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' ||
	    *j->p == '\r'))
		j->p++;
}

/* A string, j->p at its opening quote. */
static enum json_type
string(struct json *j, struct json_val *v)
{
	const unsigned char *p = (const unsigned char *)j->p + 1;
	const unsigned char *end = (const unsigned char *)j->end;
	int i;

	v->type = JSON_STRING;
	v->p = (const char *)p;
	v->escaped = 0;
	for (;;) {
		/* plain bytes, the usual case, in a tight loop */
		while (p < end && *p != '"' && *p != '\\' && *p >= 0x20)
			p++;
		j->p = (const char *)p;
		if (p == end)
			return fail(j, "unterminated string");
		if (*p == '"')
			break;
		if (*p < 0x20)
			return fail(j, "control character in string");
		/* a backslash */
		v->escaped = 1;
		if (++p == end) {
			j->p = (const char *)p;
			return fail(j, "unterminated string");
		}
		switch (*p) {
		case '"': case '\\': case '/':
		case 'b': case 'f': case 'n': case 'r': case 't':
			p++;
			break;
		case 'u':
			for (i = 1; i <= 4; i++) {
				if (end - p <= i || hexval(p[i]) < 0) {
					j->p = (const char *)p - 1;
					return fail(j, "bad \\u escape");
				}
			}
			p += 5;
			break;
		default:
			j->p = (const char *)p - 1;
			return fail(j, "bad escape");
		}
	}
	v->n = (size_t)((const char *)p - v->p);
	j->p = (const char *)p + 1;
	return JSON_STRING;
}

static int
isdigitbyte(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static enum json_type
number(struct json *j, struct json_val *v)
{
	const char *p = j->p, *end = j->end;

	v->p = p;
	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (isdigitbyte(p, end))
		while (isdigitbyte(p, end))
			p++;
	else
		goto bad;
	if (p < end && *p == '.') {
		if (!isdigitbyte(++p, end))
			goto bad;
		while (isdigitbyte(p, end))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!isdigitbyte(p, end))
			goto bad;
		while (isdigitbyte(p, end))
			p++;
	}
	v->type = JSON_NUMBER;
	v->n = (size_t)(p - v->p);
	j->p = p;
	return JSON_NUMBER;
bad:
	j->p = p;
	return fail(j, "bad number");
}

static enum json_type
literal(struct json *j, struct json_val *v, const char *word, enum json_type t)
{
	size_t n = strlen(word);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n))
		return fail(j, "expected a value");
	v->type = t;
	v->p = j->p;
	v->n = n;
	j->p += n;
	return t;
}

/* A value other than an array or object, j->p at its first byte. */
static enum json_type
scalar(struct json *j, struct json_val *v)
{
	v->escaped = 0;
	if (j->p == j->end)
		return fail(j, "expected a value");
	switch (*j->p) {
	case '"':
		return string(j, v);
	case 't':
		return literal(j, v, "true", JSON_TRUE);
	case 'f':
		return literal(j, v, "false", JSON_FALSE);
	case 'n':
		return literal(j, v, "null", JSON_NULL);
	default:
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
			return number(j, v);
		return fail(j, "expected a value");
	}
}

/*
 * An array or object, j->p at its opening bracket: checked and skipped
 * with a stack of the open brackets (1 for an object) instead of
 * recursion, so depth costs a byte of memory per level, never the stack.
 */
static enum json_type
container(struct json *j, struct json_val *v)
{
	struct json_val sv;
	size_t depth = 0;
	int obj;

	v->type = *j->p == '{' ? JSON_OBJECT : JSON_ARRAY;
	v->p = j->p;
	v->escaped = 0;
open:
	egrow(&j->open, &j->opencap, depth + 1, 1);
	obj = j->open[depth++] = *j->p++ == '{';
	skipws(j);
	if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
		j->p++;
		goto close;
	}
	for (;;) {
		/* an element, or a member */
		if (obj) {
			if (j->p == j->end || *j->p != '"')
				return fail(j, "expected a member name");
			if (string(j, &sv) == JSON_ERR)
				return JSON_ERR;
			skipws(j);
			if (j->p == j->end || *j->p != ':')
				return fail(j, "expected ':'");
			j->p++;
			skipws(j);
		}
		if (j->p < j->end && (*j->p == '[' || *j->p == '{'))
			goto open;
		if (scalar(j, &sv) == JSON_ERR)
			return JSON_ERR;
		for (;;) {
			/* after a value: a comma, or the end of one or more containers */
			skipws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				skipws(j);
				break;
			}
			if (j->p == j->end || *j->p != (obj ? '}' : ']'))
				return fail(j, obj ? "expected ',' or '}'" : "expected ',' or ']'");
			j->p++;
close:
			if (--depth == 0) {
				v->n = (size_t)(j->p - v->p);
				return v->type;
			}
			obj = j->open[depth - 1];
		}
	}
}

enum json_type
json_value(struct json *j, struct json_val *v)
{
	skipws(j);
	if (j->p < j->end && (*j->p == '[' || *j->p == '{'))
		return container(j, v);
	return scalar(j, v);
}

enum json_type
json_objbegin(struct json *j)
{
	skipws(j);
	if (j->p == j->end || *j->p != '{')
		return fail(j, "not an object");
	j->p++;
	j->first = 1;
	return JSON_OBJECT;
}

int
json_member(struct json *j, struct json_val *name, struct json_val *v)
{
	skipws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	if (!j->first) {
		if (j->p == j->end || *j->p != ',')
			return failn(j, "expected ',' or '}'");
		j->p++;
		skipws(j);
	}
	j->first = 0;
	if (j->p == j->end || *j->p != '"')
		return failn(j, "expected a member name");
	if (string(j, name) == JSON_ERR)
		return -1;
	skipws(j);
	if (j->p == j->end || *j->p != ':')
		return failn(j, "expected ':'");
	j->p++;
	return json_value(j, v) == JSON_ERR ? -1 : 1;
}

int
json_end(struct json *j)
{
	skipws(j);
	if (j->p != j->end)
		return failn(j, "more after the value");
	return 0;
}

/* Append code point c as UTF-8. */
static void
pututf8(struct obuf *b, unsigned long c)
{
	char *d = obuf_room(b, 4);

	if (c < 0x80) {
		d[0] = (char)c;
		b->n += 1;
	} else if (c < 0x800) {
		d[0] = (char)(0xc0 | c >> 6);
		d[1] = (char)(0x80 | (c & 0x3f));
		b->n += 2;
	} else if (c < 0x10000) {
		d[0] = (char)(0xe0 | c >> 12);
		d[1] = (char)(0x80 | (c >> 6 & 0x3f));
		d[2] = (char)(0x80 | (c & 0x3f));
		b->n += 3;
	} else {
		d[0] = (char)(0xf0 | c >> 18);
		d[1] = (char)(0x80 | (c >> 12 & 0x3f));
		d[2] = (char)(0x80 | (c >> 6 & 0x3f));
		d[3] = (char)(0x80 | (c & 0x3f));
		b->n += 4;
	}
}

/* The 4 hex digits at p (checked by the reader). */
static unsigned long
hex4(const char *p)
{
	return (unsigned long)(hexval(p[0]) << 12 | hexval(p[1]) << 8 |
	    hexval(p[2]) << 4 | hexval(p[3]));
}

void
json_decode(const struct json_val *v, struct obuf *b)
{
	const char *p = v->p, *end = v->p + v->n, *q;
	unsigned long c, lo;

	if (!v->escaped) {
		obuf_add(b, p, v->n);
		return;
	}
	while (p < end) {
		if (!(q = memchr(p, '\\', (size_t)(end - p)))) {
			obuf_add(b, p, (size_t)(end - p));
			break;
		}
		obuf_add(b, p, (size_t)(q - p));
		p = q + 2;
		switch (q[1]) {
		case 'b': obuf_addc(b, '\b'); break;
		case 'f': obuf_addc(b, '\f'); break;
		case 'n': obuf_addc(b, '\n'); break;
		case 'r': obuf_addc(b, '\r'); break;
		case 't': obuf_addc(b, '\t'); break;
		case 'u':
			c = hex4(p);
			p += 4;
			if (c >= 0xd800 && c <= 0xdbff && end - p >= 6 && p[0] == '\\' &&
			    p[1] == 'u' && (lo = hex4(p + 2)) >= 0xdc00 && lo <= 0xdfff) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				p += 6;
			} else if (c >= 0xd800 && c <= 0xdfff) {
				c = 0xfffd;	/* a lone surrogate */
			}
			pututf8(b, c);
			break;
		default:	/* " \ / */
			obuf_addc(b, q[1]);
		}
	}
}

int
json_find(struct json *j, const char *const *names, struct json_val *vals, size_t n)
{
	struct json_val name, v;
	const char *s;
	size_t i, len;
	int r;

	for (i = 0; i < n; i++)
		vals[i].type = JSON_ERR;
	if (json_objbegin(j) == JSON_ERR)
		return -1;
	while ((r = json_member(j, &name, &v)) > 0) {
		s = name.p;
		len = name.n;
		if (name.escaped) {
			j->key.n = 0;
			json_decode(&name, &j->key);
			s = j->key.p;
			len = j->key.n;
		}
		for (i = 0; i < n; i++)
			if (strlen(names[i]) == len && !memcmp(names[i], s, len))
				vals[i] = v;
	}
	if (r < 0)
		return -1;
	return json_end(j);
}
