/* sniff.c: what a file holds, told by its first bytes. */
#include <string.h>

#include "sniff.h"

/*
 * Magic numbers of files that are not text (those holding a NUL need no
 * entry). A magic number of plain letters (plain) is one a text may begin
 * with ("ID3 tags hold...", "RIFF"): it counts only with a NUL byte in
 * the first PLAINNUL bytes, which those formats' headers hold (a
 * version, a size, a count) and text does not.
 */
enum { PLAINNUL = 32 };

static const struct {
	const char *what;
	const char *magic;
	size_t len;
	int plain;
} magics[] = {
	{ "PNG", "\x89PNG\r\n\x1a\n", 8, 0 },
	{ "JPEG", "\xff\xd8\xff", 3, 0 },
	{ "GIF", "GIF87a", 6, 1 },
	{ "GIF", "GIF89a", 6, 1 },
	{ "PDF", "%PDF-", 5, 0 },
	{ "ELF", "\x7f" "ELF", 4, 0 },
	{ "zip", "PK\x03\x04", 4, 0 },
	{ "zip", "PK\x05\x06", 4, 0 },
	{ "gzip", "\x1f\x8b", 2, 0 },
	{ "bzip2", "BZh91AY&SY", 10, 0 },
	{ "xz", "\xfd" "7zXZ", 5, 0 },
	{ "zstd", "\x28\xb5\x2f\xfd", 4, 0 },
	{ "7z", "7z\xbc\xaf\x27\x1c", 6, 0 },
	{ "Mach-O", "\xcf\xfa\xed\xfe", 4, 0 },
	{ "Mach-O", "\xce\xfa\xed\xfe", 4, 0 },
	{ "Java class", "\xca\xfe\xba\xbe", 4, 0 },
	{ "RIFF", "RIFF", 4, 1 },
	{ "Ogg", "OggS", 4, 1 },
	{ "FLAC", "fLaC", 4, 1 },
	{ "MP3", "ID3", 3, 1 },
	{ "WebAssembly", "\0asm", 4, 0 },
	{ "gettext catalog", "\xde\x12\x04\x95", 4, 0 },
	{ "gettext catalog", "\x95\x04\x12\xde", 4, 0 },
	{ "TIFF", "MM\0*", 4, 0 },
	{ "OpenType font", "OTTO", 4, 1 },
	{ "WOFF font", "wOFF", 4, 1 },
	{ "WOFF font", "wOF2", 4, 1 },
	{ "PostScript", "%!PS", 4, 0 },
};

static int
startsci(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s), i;

	if ((size_t)(e - p) < n)
		return 0;
	for (i = 0; i < n; i++)
		if ((p[i] | 0x20) != s[i])
			return 0;
	return 1;
}

/* Past the end of s (in p to e) if there, else e. */
static const char *
past(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);

	for (; (size_t)(e - p) >= n; p++)
		if (!memcmp(p, s, n))
			return p + n;
	return e;
}

/* Is the first element of the markup at p <svg>? */
static int
svg(const char *p, const char *e)
{
	if (e - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
			p++;
		if (p == e || *p != '<')
			return 0;
		if (startsci(p, e, "<!--"))
			p = past(p + 4, e, "-->");
		else if (startsci(p, e, "<?"))
			p = past(p + 2, e, "?>");
		else if (startsci(p, e, "<!doctype"))
			p = past(p, e, ">");	/* an internal subset is rare in SVG */
		else
			return startsci(p, e, "<svg") && e - p > 4 &&
			    strchr(" \t\r\n>/", p[4]) && p[4] != '\0';
	}
}

const char *
sniff_format(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof magics / sizeof magics[0]; i++)
		if (n >= magics[i].len && !memcmp(p, magics[i].magic, magics[i].len) &&
		    (!magics[i].plain || memchr(p, '\0', n < PLAINNUL ? n : PLAINNUL)))
			return magics[i].what;
	return NULL;
}

const char *
sniff_binary(const char *p, size_t n)
{
	const char *what;

	if (n > SNIFF_LEN)
		n = SNIFF_LEN;
	if ((what = sniff_format(p, n)))
		return what;
	if (n >= 2 && (!memcmp(p, "\xff\xfe", 2) || !memcmp(p, "\xfe\xff", 2)))
		return NULL;	/* UTF-16 text has NUL bytes */
	if (memchr(p, '\0', n))
		return "NUL bytes";
	if (svg(p, p + n))
		return "SVG";
	return NULL;
}
