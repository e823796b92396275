/* warc.c: the records of a WARC 1.0 or 1.1 file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warc.h"

enum {
	LINEMAX = 8192,		/* a header line */
	HDRMAX = 65536		/* a record's header, or an HTTP header */
};

/* Line results. */
enum { L_LINE, L_END, L_LONG };

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Does the line s start with the name (any case) followed by a colon? Then its value, white space before it skipped. */
static const char *
field(const char *s, const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (lower((unsigned char)s[i]) != lower((unsigned char)name[i]))
			return NULL;
	if (s[i] != ':')
		return NULL;
	for (s += i + 1; *s == ' ' || *s == '\t'; s++)
		;
	return s;
}

/* Does s start with prefix, ignoring case? */
static int
startsci(const char *s, const char *prefix)
{
	for (; *prefix; s++, prefix++)
		if (lower((unsigned char)*s) != *prefix)
			return 0;
	return 1;
}

static int
isversion(const char *s)
{
	return !strcmp(s, "WARC/1.0") || !strcmp(s, "WARC/1.1");
}

int
warc_is(const char *p, size_t n)
{
	return n >= 9 && (!memcmp(p, "WARC/1.0", 8) || !memcmp(p, "WARC/1.1", 8)) &&
	    (p[8] == '\n' || (p[8] == '\r' && n >= 10 && p[9] == '\n'));
}

void
warc_init(struct warc *w, struct rdr *r, uint64_t max)
{
	memset(w, 0, sizeof *w);
	w->r = r;
	w->max = max;
}

void
warc_free(struct warc *w)
{
	free(w->uri.p);
	free(w->prefix.p);
	free(w->line.p);
}

/*
 * The next line, without its LF and a CR before it, NUL-terminated in
 * w->line; with budget, no more than *budget bytes, counted off it.
 * L_LONG: over LINEMAX bytes (the line is read up to there only).
 */
static int
hline(struct warc *w, uint64_t *budget)
{
	const char *p;
	ptrdiff_t n;
	size_t room;

	w->line.n = 0;
	for (;;) {
		room = LINEMAX + 1 - w->line.n;
		if (budget && *budget < room)
			room = (size_t)*budget;
		/* a line cut by the end of input or of the budget ends there */
		if (room == 0 || (n = rdr_take(w->r, '\n', room, &p)) < 0) {
			if (w->line.n == 0)
				return L_END;
			break;
		}
		obuf_add(&w->line, p, (size_t)n);
		w->hdr += (uint64_t)n;
		if (budget)
			*budget -= (uint64_t)n;
		if (p[n - 1] == '\n') {
			w->line.n--;
			break;
		}
		if (w->line.n > LINEMAX)
			return L_LONG;
	}
	if (w->line.n > 0 && w->line.p[w->line.n - 1] == '\r')
		w->line.n--;
	obuf_addc(&w->line, '\0');
	w->line.n--;
	return L_LINE;
}

static int
bad(struct warc *w, const char *why)
{
	w->why = why;
	w->lost = 1;
	return WARC_BAD;
}

/* A bad record whose end was found: the next follows it. */
static int
reject(struct warc *w, const char *why)
{
	w->why = why;
	return WARC_BAD;
}

static int
badn(struct warc *w, const char *fmt, unsigned long long v)
{
	snprintf(w->why_buf, sizeof w->why_buf, fmt, v);
	return bad(w, w->why_buf);
}

/* After a bad record: read up to the next version line, within max bytes. */
static int
resync(struct warc *w)
{
	uint64_t budget = w->max;
	int k;

	w->lost = 0;
	if (w->found)
		return 1;
	w->off = rdr_tell(w->r);
	for (;;) {
		w->foundoff = rdr_tell(w->r);
		if ((k = hline(w, &budget)) == L_END)
			break;
		if (k == L_LINE && isversion(w->line.p))
			return w->found = 1;
		if (budget == 0) {
			w->dead = 1;
			badn(w, "no record within %llu bytes; the rest is skipped",
			    (unsigned long long)w->max);
			w->lost = 0;
			return -1;
		}
	}
	return 0;
}

/* Is the media type at s (a Content-Type value) text? */
static int
istext(const char *s)
{
	if (startsci(s, "text/"))
		return !startsci(s, "text/css") && !startsci(s, "text/javascript") &&
		    !startsci(s, "text/dns");
	return startsci(s, "application/xhtml+xml") || startsci(s, "application/xml");
}

/* Set why to "not text (TYPE)" for the media type at s. */
static void
nottext(struct warc *w, const char *s)
{
	size_t n = strcspn(s, "; \t");

	snprintf(w->why_buf, sizeof w->why_buf, "not text (%.*s)", n > 40 ? 40 : (int)n, s);
	w->why = w->why_buf;
}

/* Can c be in a charset label? */
static int
labelchar(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    (c != '\0' && strchr("-_.:+()", c) != NULL);
}

/* For an HTML Content-Type value s that names a charset, the prefix that says it. */
static void
charset(struct warc *w, const char *s)
{
	const char *c, *e;

	if (!startsci(s, "text/html") && !startsci(s, "application/xhtml+xml"))
		return;
	for (c = s; *c; c++)
		if (startsci(c, "charset=") && (c == s || c[-1] == ';' || c[-1] == ' ' ||
		    c[-1] == '\t'))
			break;
	if (!*c)
		return;
	c += 8;
	if (*c == '"')
		c++;
	for (e = c; labelchar((unsigned char)*e); e++)
		;
	if (e == c || e - c > 40)
		return;
	obuf_set(&w->prefix, "<!DOCTYPE html><meta charset=\"", 30);
	obuf_add(&w->prefix, c, (size_t)(e - c));
	obuf_add(&w->prefix, "\">", 2);
}

/* Skip the rest of the block and read its two line ends: the record's kind, or WARC_BAD. */
static int
finish(struct warc *w, int kind)
{
	const char *p;
	ptrdiff_t n;
	int i;

	while (w->left > 0 && (n = rdr_take(w->r, -1, w->left > LINEMAX ? LINEMAX : (size_t)w->left, &p)) >= 0)
		w->left -= (uint64_t)n;
	if (w->left > 0 || w->trunc) {
		w->left = 0;
		w->trunc = 0;
		return bad(w, "truncated");
	}
	for (i = 0; i < 2; i++) {
		uint64_t budget = LINEMAX;

		w->foundoff = rdr_tell(w->r);
		if (hline(w, &budget) != L_LINE || w->line.n != 0) {
			w->found = w->line.p && isversion(w->line.p);
			return bad(w, "no CR LF CR LF after its block (a wrong Content-Length?)");
		}
	}
	return kind;
}

/* The HTTP response at the start of the block: whether its payload is a document. */
static int
http(struct warc *w)
{
	const char *v;
	int k, status = 0, i;

	if ((k = hline(w, &w->left)) != L_LINE || !startsci(w->line.p, "http/"))
		return w->why = "no HTTP status line", WARC_SKIP;
	v = strchr(w->line.p, ' ');
	for (i = 0; v && i < 3 && v[i + 1] >= '0' && v[i + 1] <= '9'; i++)
		status = status * 10 + v[i + 1] - '0';
	if (i != 3)
		return w->why = "no HTTP status", WARC_SKIP;
	if (status < 200 || status > 299) {
		snprintf(w->why_buf, sizeof w->why_buf, "HTTP status %d", status);
		w->why = w->why_buf;
		return WARC_SKIP;
	}
	w->why = NULL;
	w->hdr = 0;
	while ((k = hline(w, &w->left)) == L_LINE && w->line.n > 0) {
		if (w->hdr > HDRMAX)
			return w->why = "HTTP header over 64 kB", WARC_SKIP;
		if (w->why)
			continue;
		if ((v = field(w->line.p, "Content-Type"))) {
			if (!istext(v))
				nottext(w, v);
			else
				charset(w, v);
		} else if ((v = field(w->line.p, "Transfer-Encoding")) && strstr(v, "chunked")) {
			w->why = "chunked HTTP payload";
		} else if ((v = field(w->line.p, "Content-Encoding")) && *v &&
		    !startsci(v, "identity")) {
			w->why = "content-encoded HTTP payload";
		}
	}
	if (k != L_LINE)
		return w->why = "HTTP header cut short", WARC_SKIP;
	return w->why ? WARC_SKIP : WARC_DOC;
}

int
warc_next(struct warc *w)
{
	const char *v;
	int k, kind, haslen = 0, istextct = 1;
	const char *ct = NULL;
	const char *e;

	if (w->dead)
		return WARC_END;
	if (w->lost && (k = resync(w)) <= 0)
		return k < 0 ? WARC_BAD : WARC_END;
	w->why = NULL;
	w->uri.n = w->prefix.n = 0;
	w->type[0] = '\0';
	w->left = 0;
	w->trunc = 0;
	if (w->found) {
		w->found = 0;
		w->off = w->foundoff;
	} else {
		w->off = rdr_tell(w->r);
		if ((k = hline(w, NULL)) == L_END)
			return WARC_END;
		if (k != L_LINE || !isversion(w->line.p))
			return bad(w, "no WARC/1.0 or WARC/1.1 line");
	}
	w->hdr = 0;
	while ((k = hline(w, NULL)) == L_LINE && w->line.n > 0) {
		if (w->hdr > HDRMAX)
			return bad(w, "header over 64 kB");
		if ((v = field(w->line.p, "WARC-Type"))) {
			snprintf(w->type, sizeof w->type, "%s", v);
		} else if ((v = field(w->line.p, "WARC-Target-URI"))) {
			/* white space after the value is no part of it */
			for (e = v + strlen(v); e > v && (e[-1] == ' ' || e[-1] == '\t'); e--)
				;
			if (*v == '<' && e > v + 1 && e[-1] == '>')
				v++, e--;
			obuf_set(&w->uri, v, (size_t)(e - v));
		} else if ((v = field(w->line.p, "Content-Length"))) {
			const char *err;
			long long n = parsenum(v, 0, INT64_MAX, &err);

			if (err)
				return bad(w, "invalid Content-Length");
			w->left = (uint64_t)n;
			haslen = 1;
		} else if ((v = field(w->line.p, "Content-Type"))) {
			istextct = istext(v);
			if (!istextct)
				nottext(w, v);
			ct = startsci(v, "application/http") ? "http" : "";
		}
	}
	if (k == L_LONG)
		return bad(w, "header line over 8 kB");
	if (k == L_END)
		return bad(w, "truncated");
	if (!haslen)
		return bad(w, "no Content-Length");
	obuf_addc(&w->uri, '\0');
	w->uri.n--;
	/* its end is known: skip it, and the next one follows */
	if (w->left > w->max) {
		if (finish(w, WARC_SKIP) == WARC_BAD)
			return WARC_BAD;
		snprintf(w->why_buf, sizeof w->why_buf, "Content-Length exceeds %llu bytes",
		    (unsigned long long)w->max);
		return reject(w, w->why_buf);
	}
	if (!strcmp(w->type, "conversion")) {
		w->why = NULL;
		kind = WARC_DOC;
	} else if (!strcmp(w->type, "response") && ct && *ct) {
		kind = http(w);
	} else if (!strcmp(w->type, "response") || !strcmp(w->type, "resource")) {
		kind = istextct ? WARC_DOC : WARC_SKIP;
	} else {
		w->why = NULL;
		kind = WARC_SKIP;
	}
	if (kind == WARC_DOC && w->uri.n == 0)
		return finish(w, WARC_DOC) == WARC_BAD ? WARC_BAD : reject(w, "no WARC-Target-URI");
	if (kind == WARC_DOC)
		return kind;
	return finish(w, kind);
}

ptrdiff_t
warc_read(struct warc *w, const char **p)
{
	ptrdiff_t n;

	if (w->left == 0)
		return -1;
	if ((n = rdr_take(w->r, -1, w->left > SIZE_MAX ? SIZE_MAX : (size_t)w->left, p)) < 0) {
		w->trunc = 1;
		return -1;
	}
	w->left -= (uint64_t)n;
	return n;
}

int
warc_done(struct warc *w)
{
	return finish(w, WARC_DOC);
}
