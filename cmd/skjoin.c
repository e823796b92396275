/*
 * skjoin: the steps of simjoin's join as map and reduce filters over
 * sortable records, for a join spread over shards (skjoin.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "skjoin.h"
#include "util.h"

static struct join_opt opt = { 0.25, -1, 2, 10 };	/* -t, -c, -d, -m */
static int step;		/* D, R, Q, M, N, S, C, K, A, B, g, u */
static unsigned shard, nshards;	/* -D i/n, -M i/n, -N i/n, -K i/n, -R n, -Q n, -C n, -A n */
static uint64_t key[2];		/* -k */
static int kflag;
static const char *repeats;	/* -x */
static const char *ranges;	/* -q */
static const char *bases;	/* -b */
static const char *dir = ".";	/* -o */
static const char *reach;	/* -r */
static const char *totals;	/* -T */
static const char *pairs;	/* -p: the pairs (-g, -u) or the sketches sent (-B) */

/* Line i + 1 of the bases file: the reaches below range i. */
static int
loadbase(const char *path, unsigned i, uint64_t *v)
{
	struct rdr r;
	ptrdiff_t len;
	char *line;
	const char *err = "missing";
	unsigned k = 0;

	if (rdr_open(&r, path) < 0)
		return 1;
	while ((len = rdr_line(&r, &line)) >= 0)
		if (k++ == i) {
			*v = (uint64_t)parsenumn(line, (size_t)len, 0, UINT32_MAX, &err);
			break;
		}
	if (err)
		weprintf("%s:%u: base %s", escname(path), i + 1, err);
	return rdr_close(&r) | (err != NULL);
}

/* -D i/n, -K i/n, -M i/n, -N i/n */
static void
shardof(const char *s)
{
	const char *slash = strchr(s, '/'), *err;
	char num[32];

	if (!slash || (size_t)(slash - s) >= sizeof num)
		enprintf(EXIT_USAGE, "shard '%s' is invalid (i/n)", escname(s));
	memcpy(num, s, (size_t)(slash - s));
	num[slash - s] = '\0';
	nshards = (unsigned)estrtonum(slash + 1, 1, SKJ_MAXSHARDS, "shards");
	shard = (unsigned)parsenum(num, 0, nshards - 1, &err);
	if (err)
		enprintf(EXIT_USAGE, "shard '%s' is invalid (i/n, i below n)", escname(s));
}

/* -k: 32 hexadecimal digits */
static void
keyof(const char *s)
{
	int i, v;

	if (strlen(s) != 32)
		enprintf(EXIT_USAGE, "key '%s' is invalid (32 hexadecimal digits)", escname(s));
	for (i = 0; i < 32; i++) {
		if ((v = hexval((unsigned char)s[i])) < 0)
			enprintf(EXIT_USAGE, "key '%s' is invalid (32 hexadecimal digits)", escname(s));
		key[i / 16] = key[i / 16] << 4 | (unsigned)v;
	}
	kflag = 1;
}

static const char synopsis[] =
    "-D i/n -k key [-o dir] [file]\n"
    "       skjoin -R n [-o dir] [file]\n"
    "       skjoin -Q n sample\n"
    "       skjoin -M i/n [-m minsize] [-o dir] -q ranges [-x repeats] [file]\n"
    "       skjoin -N i/n [file]\n"
    "       skjoin -S [file]\n"
    "       skjoin -C n [file]\n"
    "       skjoin -K i/n -b bases [-d rarity] -r reach -T totals [-o dir] [file]\n"
    "       skjoin -A n -T totals [-o dir] [file]\n"
    "       skjoin -B [-c containment] [-d rarity] [-m minsize] [-t threshold] -p sent -T totals [file]\n"
    "       skjoin -g | -u -p pairs -T totals [file]";

/*
 * A step writes a file a shard (two with -K) at once: the soft limit on
 * open files is raised as far as the hard one allows, if it is below.
 */
static void
openfiles(unsigned n)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)2 * n + 16;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want ? rl.rlim_max : want;
	setrlimit(RLIMIT_NOFILE, &rl);
}

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

static void
setstep(int c)
{
	if (step)
		usage();
	step = c;
}

int
main(int argc, char *argv[])
{
	struct skj_totals t = { 0, 0, 0 };
	struct rdr in, r, p;
	uint64_t *low = NULL, base = 0;
	int c, ret = 0;

	argv0 = "skjoin";
	while ((c = getopt(argc, argv, "A:BC:D:K:M:N:Q:R:ST:b:c:d:ghk:m:o:p:q:r:t:ux:")) != -1) {
		switch (c) {
		case 'A':
		case 'C':
		case 'Q':
		case 'R':
			setstep(c);
			nshards = (unsigned)estrtonum(optarg, 1, SKJ_MAXSHARDS, "shards");
			break;
		case 'D':
		case 'K':
		case 'M':
		case 'N':
			setstep(c);
			shardof(optarg);
			break;
		case 'b':
			bases = optarg;
			break;
		case 'q':
			ranges = optarg;
			break;
		case 'B':
		case 'S':
		case 'g':
		case 'u':
			setstep(c);
			break;
		case 'T':
			totals = optarg;
			break;
		case 'c':
			opt.cthresh = estrtofracd(optarg, "containment");
			break;
		case 'd':
			opt.rarity = (unsigned)estrtonum(optarg, 0, 1000000, "rarity");
			break;
		case 'h':
			return help(synopsis);
		case 'k':
			keyof(optarg);
			break;
		case 'm':
			opt.minsize = (unsigned)estrtonum(optarg, 0, UINT_MAX, "minimum size");
			break;
		case 'o':
			dir = optarg;
			break;
		case 'p':
			pairs = optarg;
			break;
		case 'r':
			reach = optarg;
			break;
		case 't':
			opt.thresh = estrtofracd(optarg, "threshold");
			break;
		case 'x':
			repeats = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!step || argc > 1)
		usage();
	if (!strchr("DRQMNSC", step) && !totals)
		usage();
	if ((step == 'D' && !kflag) || (step == 'M' && !ranges) || (step == 'Q' && argc != 1))
		usage();
	if ((step == 'K' && (!reach || !bases)) || (strchr("Bgu", step) && !pairs))
		usage();

	setupstdout();
	openfiles(nshards);
	if (totals && skj_loadtotals(totals, &t))
		return 1;
	if (ranges && skj_loadranges(ranges, nshards, &low))
		return 1;
	if (bases && loadbase(bases, shard, &base))
		return 1;
	if (step == 'Q')
		return skj_plan(argv[0], nshards, stdout) | fshut(stdout, "<stdout>");
	if (rdr_open(&in, argc ? argv[0] : "-") < 0)
		return 1;
	switch (step) {
	case 'D':
		ret = skj_digest(&in, shard, nshards, key, dir);
		break;
	case 'R':
		ret = skj_dedup(&in, nshards, dir);
		break;
	case 'M':
		if (repeats && rdr_open(&r, repeats) < 0)
			return 1;
		ret = skj_map(&in, repeats ? &r : NULL, low, shard, nshards, opt.minsize, dir);
		if (repeats)
			ret |= rdr_close(&r);
		break;
	case 'N':
		ret = skj_docs(&in, shard, nshards, stdout);
		break;
	case 'S':
		ret = skj_sum(&in, &t);
		skj_puttotals(&t, stdout);
		break;
	case 'C':
		ret = skj_bases(&in, nshards, stdout);
		break;
	case 'K':
		if (rdr_open(&r, reach) < 0)
			return 1;
		ret = skj_keys(&in, &r, base, &t, opt.rarity, nshards, dir) | rdr_close(&r);
		break;
	case 'A':
		ret = skj_send(&in, &t, nshards, dir);
		break;
	case 'B':
		if (rdr_open(&p, pairs) < 0)
			return 1;
		ret = skj_verify(&in, &p, &t, &opt, stdout) | rdr_close(&p);
		break;
	default:
		if (rdr_open(&p, pairs) < 0)
			return 1;
		ret = skj_clusters(&p, &in, &t, step == 'u', stdout) | rdr_close(&p);
		break;
	}
	ret |= rdr_close(&in);
	free(low);
	return ret | fshut(stdout, "<stdout>");
}
