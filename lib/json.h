/*
 * json.h: a small pull reader of one JSON text (RFC 8259) held in memory.
 *
 * The reader walks a byte range: json_value reads the next value whole
 * (objects and arrays are checked and skipped without recursion, to any
 * depth), json_objbegin and json_member step through an object's members,
 * json_end checks that only white space is left. A value is handed back as
 * its source text, so a number is as written and a string is decoded only
 * on demand (json_decode). On a syntax error a call returns JSON_ERR and
 * sets err, with the error's place at json_offset.
 *
 * Strings: every escape is decoded, \uXXXX to UTF-8 and surrogate pairs to
 * one code point; a lone surrogate becomes U+FFFD. Bytes >= 0x80 pass as
 * they are (invalid UTF-8 included); a raw control byte (< 0x20) is an
 * error, as the grammar says.
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>

#include "util.h"

enum json_type {
	JSON_ERR, JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
	JSON_ARRAY, JSON_OBJECT
};

struct json_val {
	enum json_type type;
	const char *p;	/* source text; for a string, between the quotes */
	size_t n;
	int escaped;	/* a string holding a backslash: decode before use */
};

struct json {
	const char *s, *p, *end;	/* the text, the next byte, the end */
	const char *err;		/* what was wrong after JSON_ERR */
	int first;			/* json_member: no member read yet */
	unsigned char *open;		/* while skipping: kinds of the open brackets */
	size_t opencap;
	struct obuf key;		/* json_find's decoded member names */
};

/* Start reading the n bytes at s; a struct json may be reused (json_free at the end). */
void json_init(struct json *j, const char *s, size_t n);
void json_free(struct json *j);

/* Read the next value into v; returns its type (JSON_ERR on an error). */
enum json_type json_value(struct json *j, struct json_val *v);

/* Read the '{' of an object; JSON_OBJECT, or JSON_ERR. */
enum json_type json_objbegin(struct json *j);

/*
 * The next member of the object begun: 1 with its name (a JSON_STRING) and
 * value, 0 after the closing '}', -1 on an error.
 */
int json_member(struct json *j, struct json_val *name, struct json_val *v);

/* Only white space is left: 0, else -1 with err set. */
int json_end(struct json *j);

/* Where the reader stopped (after an error: at the fault), from 0. */
size_t json_offset(const struct json *j);

/* Append the decoded bytes of the string v to b. */
void json_decode(const struct json_val *v, struct obuf *b);

/*
 * The whole text is one object: find the members called names[0..n-1]
 * (compared after decoding) and put them in vals[]; the type of one not
 * present is JSON_ERR. A name given twice: the last member wins. Returns 0,
 * or -1 on a syntax error (or if the text is not an object) with err set.
 */
int json_find(struct json *j, const char *const *names, struct json_val *vals, size_t n);

#endif
