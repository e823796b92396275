/*
 * docsplit: documents as users hold them (page files, one document per
 * file, JSON Lines, WARC; files, directories, lists of paths; gzip or
 * not) into page records "ID<TAB>TEXT".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "esc.h"
#include "json.h"
#include "pagefile.h"
#include "rdr.h"
#include "sniff.h"
#include "util.h"
#include "warc.h"
#include "wtab.h"

/* How a file is read. */
enum mode { PAGES, FILES, JSONL };

static enum mode mode = PAGES;
static int listdelim = -1;	/* -0, -l: the operands are lists of paths ended by it */
static int listonly;		/* -n: write the paths a run would read instead */
static int listsniff;		/* -s: with -n, only those that give a document */
/* -p: with -f, read files part, part + parts, ... only */
static struct {
	unsigned part, parts;
	int on;			/* mine() deals files out (not inside a list entry) */
	uintmax_t nfiles;	/* files met so far, read or not */
} deal = { 0, 1, 1, 0 };
/* -p with page files: read the pages that begin in byte range part of parts only */
static struct {
	unsigned part, parts;
} cut = { 0, 1 };
/* What is read as a document, what is skipped */
static struct {
	int all;		/* -a: read binary files too */
	int verbose;		/* -v: name what is skipped */
	uint64_t max;		/* -m: the cap on a decompressed file, a WARC record */
	uintmax_t nbinary, nrecskip;	/* binary files, WARC records skipped */
	struct obuf record;	/* a WARC record's text, held until it ended well */
} doc = { 0, 0, PAGEFILE_GZMAX, 0, 0, { 0 } };

/* -u: the paths read (or listed) so far, so that each is read once */
static struct {
	int on;
	struct wtab paths;
} once;

static struct obuf out;		/* page records, written a block at a time */
/* -o, -r: the records dealt out in turn to files prefix0, prefix1, ... */
static struct {
	const char *prefix;
	unsigned parts;		/* 0: all to standard output */
	unsigned next;		/* the part of the record being written */
	FILE **fp;
	char **name;
	char **buf;		/* the parts' block buffers, freed after fshut */
} deal_out;

/* JSON Lines (-j) */
static struct {
	const char *idname, *textname;	/* -i, -t: the members read */
	struct json json;
	struct obuf field;	/* a decoded JSON string */
} jl = { .idname = "id", .textname = "text" };

/*
 * Write the output block: to standard output, or a record to each part in
 * turn. An escaped record holds no LF but its last byte, so a record cut
 * by a block's end goes on in the same part.
 */
static void
flushout(void)
{
	const char *p, *end, *nl;

	if (deal_out.parts == 0) {
		obuf_flush(&out, stdout);
		return;
	}
	if (out.n == 0)
		return;
	for (p = out.p, end = out.p + out.n; p < end; p = nl + 1) {
		if (!(nl = memchr(p, '\n', (size_t)(end - p)))) {
			fwrite(p, 1, (size_t)(end - p), deal_out.fp[deal_out.next]);
			break;
		}
		fwrite(p, 1, (size_t)(nl + 1 - p), deal_out.fp[deal_out.next]);
		deal_out.next = (deal_out.next + 1) % deal_out.parts;
	}
	out.n = 0;
}

/* A write error: the output is lost, so reading stops. */
static int
outerror(void)
{
	unsigned i;

	for (i = 0; i < deal_out.parts; i++)
		if (ferror(deal_out.fp[i]))
			return 1;
	return ferror(stdout);
}

/* Append n bytes of s to the output, escaped. */
static void
putesc(const char *s, size_t n)
{
	out.n += esc_encode(obuf_room(&out, 2 * n), s, n);
	if (out.n >= 1 << 16)
		flushout();
}

/*
 * The bytes of an ID at most: a document with a longer one (a page file's
 * first line, a JSON Lines member) is reported and skipped, so that the
 * stages after docsplit read records whose ID is bounded (some awks take
 * time quadratic in a line's length).
 */
enum { IDMAX = 1 << 20 };

/* The page file being read, and whether its page's ID was too long (skip) */
static struct {
	struct rdr *r;
	int skip, bad;
} pg;

/* A page file's pages (pagefile.h) become records: ID, TAB, text, LF. */
static void
pageid(void *ctx, const char *id, size_t n)
{
	(void)ctx;
	if ((pg.skip = n > IDMAX)) {
		weprintf("%s: a page ID of %zu bytes (more than %d): skipped",
		    escname(pg.r->name), n, IDMAX);
		pg.bad = 1;
		return;
	}
	putesc(id, n);
	obuf_addc(&out, '\t');
}

static void
pagetext(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	if (!pg.skip)
		putesc(p, n);
}

static void
pageend(void *ctx)
{
	(void)ctx;
	if (!pg.skip)
		obuf_addc(&out, '\n');
	pg.skip = 0;
}

static const struct pagefile_sink pagesink = { pageid, pagetext, pageend, NULL };

/* One document: the ID is its path, the text all of its bytes. */
static void
wholefile(struct rdr *r, const char *id)
{
	const char *p;
	ptrdiff_t n;

	putesc(id, strlen(id));
	obuf_addc(&out, '\t');
	while ((n = rdr_block(r, &p)) >= 0)
		putesc(p, (size_t)n);
	obuf_addc(&out, '\n');
}

static int
blankline(const char *s, size_t n)
{
	for (; n > 0; s++, n--)
		if (*s != ' ' && *s != '\t' && *s != '\r')
			return 0;
	return 1;
}

/*
 * The bytes of the JSON string or number v, decoded (a number as written):
 * *p points to them, in jl.field for a string, until the next call.
 */
static size_t
jsonval(const struct json_val *v, const char **p)
{
	if (v->type == JSON_NUMBER) {
		*p = v->p;
		return v->n;
	}
	jl.field.n = 0;
	json_decode(v, &jl.field);
	*p = jl.field.p;
	return jl.field.n;
}

/* JSON Lines: a bad line is reported and skipped, the others still come out. */
static int
jsonlines(struct rdr *r)
{
	const char *names[2] = { jl.idname, jl.textname };
	struct json_val v[2];
	const char *f;
	char *line;
	ptrdiff_t n;
	size_t bom, fn;
	int ret = 0;

	while ((n = rdr_line(r, &line)) >= 0) {
		bom = r->lineno == 1 && n >= 3 && !memcmp(line, "\xef\xbb\xbf", 3) ? 3 : 0;
		if (blankline(line + bom, (size_t)n - bom))
			continue;
		json_init(&jl.json, line + bom, (size_t)n - bom);
		if (json_find(&jl.json, names, v, 2) < 0) {
			rdr_warn(r, "invalid JSON at byte %zu: %s",
			    bom + json_offset(&jl.json) + 1, jl.json.err);
			ret = 1;
		} else if (v[0].type == JSON_ERR || v[1].type == JSON_ERR) {
			rdr_warn(r, "no member \"%s\"",
			    escname(names[v[0].type == JSON_ERR ? 0 : 1]));
			ret = 1;
		} else if (v[0].type != JSON_STRING && v[0].type != JSON_NUMBER) {
			rdr_warn(r, "member \"%s\" is not a string or number", escname(jl.idname));
			ret = 1;
		} else if (v[1].type != JSON_STRING) {
			rdr_warn(r, "member \"%s\" is not a string", escname(jl.textname));
			ret = 1;
		} else if ((fn = jsonval(&v[0], &f)) > IDMAX) {
			rdr_warn(r, "an ID of %zu bytes (more than %d): skipped", fn, IDMAX);
			ret = 1;
		} else {
			/* the ID decoded once, written before the text is decoded */
			putesc(f, fn);
			obuf_addc(&out, '\t');
			fn = jsonval(&v[1], &f);
			putesc(f, fn);
			obuf_addc(&out, '\n');
		}
	}
	return ret;
}

/*
 * Is the next file of a -f run this process's to read? Counting every file
 * met, read or skipped, gives each of the parts the same numbering, so that
 * their outputs interleave back into the order of one run.
 */
static int
mine(void)
{
	return !deal.on || deal.nfiles++ % deal.parts == deal.part;
}

/*
 * -u: whether path was met before (said: a second reading would give a
 * second document of the same ID, which the join refuses); else it is now.
 */
static int
again(const char *path)
{
	size_t before = once.paths.n;

	if (!once.on)
		return 0;
	wtab_intern(&once.paths, path, strlen(path));
	if (once.paths.n > before)
		return 0;
	weprintf("%s: named again: read once", escname(path));
	return 1;
}

/* -n: the path of a file a run would read, ended by NUL, for -0. */
static int
putpath(const char *path)
{
	obuf_add(&out, path, strlen(path) + 1);
	if (out.n >= 1 << 16)
		flushout();
	return 0;
}

/*
 * Whether a file whose first bytes (decompressed) are p[0..n) is skipped
 * as binary (not with -a; a WARC file never is): counted, and named with
 * -v if say. A file of many documents (pages, JSON Lines) is told by its
 * magic number alone: a NUL byte there is one page's byte, or one line's
 * error, not the whole file's.
 */
static int
binaryfile(const struct rdr *r, const char *p, size_t n, int say)
{
	if (doc.all || warc_is(p, n) ||
	    !(mode == FILES ? sniff_binary(p, n) : sniff_format(p, n)))
		return 0;
	doc.nbinary++;
	if (doc.verbose && say)
		weprintf("%s: binary, skipped", escname(r->name));
	return 1;
}

/*
 * -n: list id, the name of the regular file path; with -s, only if a -f
 * run would read a document from it: it opens, and its first bytes
 * (decompressed) are not a binary file's, without -a. So the list numbers
 * documents as a shard of it numbers its own (ndshard); a WARC file, of
 * many, is listed once.
 */
static int
listpath(const char *path, const char *id)
{
	struct rdr r;
	const char *p;
	size_t n;
	int binary;

	if (!listsniff)
		return putpath(id);
	if (rdr_opendoc(&r, path, 0) < 0)
		return 1;
	rdr_gunzip(&r, doc.max);
	n = rdr_peek(&r, SNIFF_LEN, &p);
	binary = binaryfile(&r, p, n, 1);
	if (rdr_close(&r))
		return 1;
	return binary ? 0 : putpath(id);
}

/*
 * A WARC file: each document record comes out whole once its end was
 * found, the others are counted; the cap holds per record, not per file.
 */
static int
warcfile(struct rdr *r)
{
	struct warc w;
	const char *p;
	ptrdiff_t n;
	size_t i;
	int k, ret = 0;

	rdr_gzmax(r, UINT64_MAX);
	warc_init(&w, r, doc.max);
	while (!outerror() && (k = warc_next(&w)) != WARC_END) {
		if (k == WARC_DOC) {
			doc.record.n = 0;
			if (w.prefix.n > 0)	/* memcpy from a null pointer is undefined, even of 0 */
				obuf_add(&doc.record, w.prefix.p, w.prefix.n);
			while ((n = warc_read(&w, &p)) >= 0)
				obuf_add(&doc.record, p, (size_t)n);
			if ((k = warc_done(&w)) == WARC_DOC && !doc.all &&
			    sniff_binary(doc.record.p + w.prefix.n, doc.record.n - w.prefix.n)) {
				k = WARC_SKIP;
				w.why = "binary";
			}
		}
		switch (k) {
		case WARC_DOC:
			putesc(w.uri.p, w.uri.n);
			obuf_addc(&out, '\t');
			for (i = 0; i < doc.record.n; i += (size_t)n) {
				n = doc.record.n - i < 1 << 16 ? (ptrdiff_t)(doc.record.n - i) : 1 << 16;
				putesc(doc.record.p + i, (size_t)n);
			}
			obuf_addc(&out, '\n');
			break;
		case WARC_SKIP:
			doc.nrecskip++;
			if (doc.verbose && w.why)
				weprintf("%s: WARC record at byte %ju: %s, skipped", escname(r->name),
				    w.off, w.why);
			break;
		case WARC_BAD:
			/*
			 * a gzip error cutting the file was reported; a bad
			 * record counts as rdr_warn counts them
			 */
			if ((!r->err || strcmp(w.why, "truncated")) && said(&r->nbad))
				weprintf("%s: WARC record at byte %ju: %s", escname(r->name), w.off, w.why);
			ret = 1;
			break;
		}
	}
	warc_free(&w);
	/* a large record's memory goes back */
	if (doc.record.cap > 1 << 20) {
		free(doc.record.p);
		memset(&doc.record, 0, sizeof doc.record);
	}
	return ret;
}

/*
 * Read the open file r in the chosen mode, decompressed if gzip, as a
 * collection if WARC; id is its path as given. A binary file is no
 * document.
 */
static int
readfile(struct rdr *r, const char *id)
{
	struct stat st;
	const char *p;
	size_t n;
	int ret = 0, gz, whole;

	if (r->err)	/* refused when opened: no record, not even an empty one */
		return rdr_close(r);
	gz = rdr_gunzip(r, doc.max);
	n = rdr_peek(r, SNIFF_LEN, &p);
	/* with -p, what cannot be cut into byte ranges is part 0's, whole */
	whole = cut.parts == 1 || gz || warc_is(p, n) || fstat(r->fd, &st) < 0 ||
	    !S_ISREG(st.st_mode);
	if (whole && cut.part > 0) {
		;
	} else if (warc_is(p, n)) {
		ret = warcfile(r);
	} else if (binaryfile(r, p, n, cut.part == 0)) {
		/* told by the file's first bytes, whatever the part: said by part 0 */
	} else switch (mode) {
	case PAGES:
		pg.r = r;
		pg.bad = 0;
		ret = pagefile_read(r, cut.part, cut.parts, gz, &pagesink) | pg.bad;
		break;
	case FILES:
		wholefile(r, id);
		break;
	case JSONL:
		ret = jsonlines(r);
		break;
	}
	flushout();
	return ret | rdr_close(r);
}

static int walk(const char *dir);

/*
 * A file met in a walk: directories are walked, regular files read;
 * symbolic links are followed to regular files only (never to a
 * directory, so a walk cannot loop); other kinds are not documents.
 */
static int
walkentry(const char *path)
{
	struct stat st;
	struct rdr r;

	if (lstat(path, &st) < 0) {
		weprintf("%s:", escname(path));
		return 1;
	}
	if (S_ISDIR(st.st_mode))
		return walk(path);
	if (S_ISLNK(st.st_mode) && stat(path, &st) < 0) {
		weprintf("%s:", escname(path));
		return 1;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	if (again(path))
		return 1;
	if (!mine())
		return 0;
	if (listonly)
		return listpath(path, path);
	/* it may have changed since lstat: a FIFO now must not block the walk */
	if (rdr_opendoc(&r, path, 0) < 0)
		return 1;
	return readfile(&r, path);
}

static int
cmpname(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The entries of a directory in strcmp order of their names, each path
 * being dir/name. The names are read and the directory closed before going
 * down, so open directories do not pile up with depth.
 */
static int
walk(const char *dir)
{
	struct obuf path = { 0 };
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i, base;
	DIR *d;
	int ret = 0;

	if (!(d = opendir(dir))) {
		weprintf("%s:", escname(dir));
		return 1;
	}
	for (;;) {
		errno = 0;
		if (!(e = readdir(d))) {
			if (errno) {
				weprintf("%s:", escname(dir));
				ret = 1;
			}
			break;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		egrow(&names, &cap, n + 1, sizeof *names);
		names[n++] = estrdup(e->d_name);
	}
	closedir(d);
	if (n > 0)	/* qsort of a null array is undefined, even of none */
		qsort(names, n, sizeof *names, cmpname);
	obuf_add(&path, dir, strlen(dir));
	if (path.n == 0 || path.p[path.n - 1] != '/')
		obuf_addc(&path, '/');
	base = path.n;
	for (i = 0; i < n; i++) {
		path.n = base;
		obuf_add(&path, names[i], strlen(names[i]) + 1);
		/* after a write error the output is lost: stop reading */
		if (!outerror())
			ret |= walkentry(path.p);
		free(names[i]);
	}
	free(names);
	free(path.p);
	return ret;
}

/* A path given as an operand or in a list: followed if a symbolic link; id names it. */
static int
dopath(const char *path, const char *id)
{
	struct stat st;
	struct rdr r;
	int opened, dirok = 1;

	if (listonly) {
		if (stat(path, &st) < 0) {
			weprintf("%s:", escname(path));
			return 1;
		}
		if (S_ISDIR(st.st_mode))
			return walk(path);
		return again(id) ? 1 : listpath(path, id);
	}
	/*
	 * With parts, a directory is walked, a file numbered, and not opened
	 * if another part's; one that turned into a directory since is no
	 * file to read.
	 */
	if (deal.parts > 1 && deal.on) {
		if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return walk(path);
		if (!mine())
			return 0;
		dirok = 0;
	}
	if ((opened = rdr_opendoc(&r, path, dirok)) == RDR_DIR)
		return walk(path);
	if (opened < 0)
		return 1;
	if (again(id)) {
		rdr_close(&r);
		return 1;
	}
	return readfile(&r, id);
}

/*
 * A path of a list with parts: numbered as one file whatever it is when
 * opened, so that the numbering is the list's alone and the parts read
 * disjoint files even if a file turns into a directory under them; a
 * directory is walked whole by the part it falls to.
 */
static int
dealpath(const char *path, const char *id)
{
	int ret;

	if (!mine())
		return 0;
	deal.on = 0;
	ret = dopath(path, id);
	deal.on = 1;
	return ret;
}

/*
 * A list of paths, each ended by listdelim, read as it comes: lines lose
 * a CR before their LF (rdr_line), as every line read does; a path that
 * ends in CR is listed with -0.
 */
static int
readlist(const char *list)
{
	struct rdr r;
	char *path;
	ptrdiff_t n;
	int ret = 0;

	if (rdr_open(&r, list) < 0)
		return 1;
	while (!outerror() && (n = listdelim == '\n' ? rdr_line(&r, &path) :
	    rdr_record(&r, listdelim, &path)) >= 0) {
		if (n == 0)
			continue;
		if (memchr(path, '\0', (size_t)n)) {
			rdr_warn(&r, "NUL in a path (a list for -0?)");
			ret = 1;
			continue;
		}
		/* in a list, "-" is a file of that name, not standard input */
		ret |= (deal.parts > 1 ? dealpath : dopath)(strcmp(path, "-") ? path : "./-", path);
	}
	return ret | rdr_close(&r);
}

/* -o, -r: open the parts' files, each with a block buffer. */
static void
openparts(void)
{
	struct obuf name = { 0 };
	unsigned i;
	int fd;

	deal_out.fp = ecalloc(deal_out.parts, sizeof *deal_out.fp);
	deal_out.name = ecalloc(deal_out.parts, sizeof *deal_out.name);
	deal_out.buf = ecalloc(deal_out.parts, sizeof *deal_out.buf);
	for (i = 0; i < deal_out.parts; i++) {
		name.n = 0;
		obuf_add(&name, deal_out.prefix, strlen(deal_out.prefix));
		obuf_addu(&name, i);
		obuf_addc(&name, '\0');
		deal_out.name[i] = estrdup(name.p);
		/* (above 0 to 2: a closed standard output is not a part's) */
		fd = abovestd(open(deal_out.name[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
		if (fd < 0 || !(deal_out.fp[i] = fdopen(fd, "w")))
			eprintf("%s:", escname(deal_out.name[i]));
		deal_out.buf[i] = emalloc(1 << 16);
		setvbuf(deal_out.fp[i], deal_out.buf[i], _IOFBF, 1 << 16);
	}
	free(name.p);
}

static const char synopsis[] =
    "[-0afjlnsuv] [-i name] [-m max] [-o prefix -r parts] [-p part/parts] [-t name] [file ...]";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	int c, ret = 0, named = 0, lists = 0, modes = 0;

	argv0 = "docsplit";
	while ((c = getopt(argc, argv, "0afhi:jlm:no:p:r:st:uv")) != -1) {
		switch (c) {
		case '0':
			listdelim = '\0';
			lists |= 1;
			break;
		case 'a':
			doc.all = 1;
			break;
		case 'f':
			mode = FILES;
			modes |= 1;
			break;
		case 'h':
			return help(synopsis);
		case 'i':
			jl.idname = optarg;
			named = 1;
			break;
		case 'j':
			mode = JSONL;
			modes |= 2;
			break;
		case 'l':
			listdelim = '\n';
			lists |= 2;
			break;
		case 'm':
			/* a file is told by its first bytes, which the cap must allow */
			doc.max = (uint64_t)estrtonum(optarg, 65536, LLONG_MAX, "max");
			break;
		case 'n':
			listonly = 1;
			break;
		case 'o':
			deal_out.prefix = optarg;
			break;
		case 'p':
			estrtopart(optarg, &deal.part, &deal.parts);
			break;
		case 'r':
			deal_out.parts = (unsigned)estrtonum(optarg, 1, 64, "parts");
			break;
		case 's':
			listsniff = 1;
			break;
		case 't':
			jl.textname = optarg;
			named = 1;
			break;
		case 'u':
			once.on = 1;
			break;
		case 'v':
			doc.verbose = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	/* one kind of list, one mode; -i and -t name JSON members; -n walks for -f */
	if (lists == 3)
		eusagewhy(synopsis, "-0 cannot go with -l");
	if (modes == 3)
		eusagewhy(synopsis, "-f cannot go with -j");
	if (named && mode != JSONL)
		eusagewhy(synopsis, "-i and -t need -j");
	if (listonly && mode == JSONL)
		eusagewhy(synopsis, "-n cannot go with -j");
	if (deal.parts > 1 && mode == JSONL)
		eusagewhy(synopsis, "-p cannot go with -j");
	if (listonly && deal.parts > 1)
		eusagewhy(synopsis, "-n cannot go with -p");
	if (once.on && deal.parts > 1)
		eusagewhy(synopsis, "-u cannot go with -p");
	if (listsniff && !listonly)
		eusagewhy(synopsis, "-s needs -n");
	if (listonly && deal_out.parts)
		eusagewhy(synopsis, "-n cannot go with -r");
	if (!deal_out.prefix != !deal_out.parts)
		eusagewhy(synopsis, deal_out.parts ? "-r needs -o" : "-o needs -r");
	/* page files are cut into byte ranges, not dealt out whole */
	if (mode == PAGES) {
		cut.part = deal.part;
		cut.parts = deal.parts;
		deal.part = 0;
		deal.parts = 1;
	}
	/* a list of paths cannot name standard input: its data is no file */
	if (listonly && listdelim < 0) {
		if (argc == 0)
			enprintf(EXIT_USAGE, "-n: no file operand (standard input cannot be listed)");
		for (c = 0; c < argc; c++)
			if (!strcmp(argv[c], "-"))
				enprintf(EXIT_USAGE, "-n: standard input cannot be listed");
	}

	/*
	 * -u: a walk of one operand meets each path once (no link to a
	 * directory is followed): only several operands, or a list, can
	 * name a path again, and need the memory.
	 */
	if (once.on && argc < 2 && listdelim < 0)
		once.on = 0;
	if (once.on)
		wtab_init(&once.paths);
	setupstdout();
	openparts();
	if (argc == 0)
		ret |= listdelim >= 0 ? readlist("-") : dopath("-", "-");
	/* stop at a write error: the output is lost, and fshut still knows why */
	for (; argc > 0 && !outerror(); argc--, argv++)
		ret |= listdelim >= 0 ? readlist(*argv) : dopath(*argv, *argv);
	flushout();
	if (doc.verbose && (doc.nbinary || doc.nrecskip))
		weprintf("%ju binary file%s skipped, %ju WARC record%s skipped", doc.nbinary,
		    doc.nbinary == 1 ? "" : "s", doc.nrecskip, doc.nrecskip == 1 ? "" : "s");
	/* with parts, standard output is not written: it may be closed */
	if (deal_out.parts == 0)
		ret |= fshut(stdout, "<stdout>");
	for (c = 0; (unsigned)c < deal_out.parts; c++) {
		ret |= fshut(deal_out.fp[c], deal_out.name[c]);
		free(deal_out.buf[c]);
		free(deal_out.name[c]);
	}
	free(deal_out.buf);
	free(deal_out.name);
	free(deal_out.fp);
	return ret;
}
