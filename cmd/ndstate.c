/*
 * ndstate: run a command on a kept neardup state, as a reader of one
 * version of it or as its one writer, and publish what the writer made.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skidx.h"
#include "state.h"
#include "util.h"

/*
 * The descriptors on which the command finds the kept index (or sketches), and a pipe
 * that ends when ndstate does (a writer's command, left running by a
 * killed ndstate, stops then: it can no longer publish).
 */
enum { SKETCHFD = 3, LIFEFD = 5 };

/* How often the lock file may vanish under a waiting run (st_lock). */
enum { LOCKTRIES = 16 };

static int wflag;
static volatile sig_atomic_t child;	/* the writer's command, while it runs */

/* Tell the command it is ndstate's: variables only the process pid can trust. */
static void
setvars(pid_t pid, const struct stparams *p, const char *work)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%ld", (long)pid);
	if (setenv("NDSTATE_PID", buf, 1) < 0)
		eprintf("setenv:");
	if (p) {
		snprintf(buf, sizeof buf, "%u %u %s", p->words, p->size, p->extract);
		if (setenv("NDSTATE_PARAMS", buf, 1) < 0)
			eprintf("setenv:");
	}
	/* the length of the index on descriptor 3; none: sketch records */
	snprintf(buf, sizeof buf, "%llu", p ? p->index : 0);
	if (p && p->index ? setenv("NDSTATE_INDEX", buf, 1) < 0 : unsetenv("NDSTATE_INDEX") < 0)
		eprintf("setenv:");
	if (work && setenv("NDSTATE_WORK", work, 1) < 0)
		eprintf("setenv:");
}

/* Put the kept sketches where the command reads them. */
static void
passsketches(int fd)
{
	if (fd != SKETCHFD && (dup2(fd, SKETCHFD) < 0 || close(fd) < 0))
		eprintf("dup2:");
}

static _Noreturn void
run(char *argv[])
{
	execvp(argv[0], argv);
	weprintf("%s:", escname(argv[0]));
	_exit(errno == ENOENT ? 127 : 126);
}

/* Open the state directory, making it with make: *created says so. */
static int
openstate(const char *state, int make, int *created)
{
	int fd;

	if ((fd = st_open(state)) >= 0)
		return fd;
	if (errno == ENOENT && make) {
		if (mkdir(state, 0777) == 0)
			*created = 1;
		else if (errno != EEXIST)
			eprintf("%s:", escname(state));
		if ((fd = st_open(state)) >= 0)
			return fd;
	}
	if (errno == ENOENT && !make)
		eprintf("%s: no such state directory", escname(state));
	if (errno == ENOTDIR)
		eprintf("%s: %s", escname(state), make ? "exists and is not a directory" : "not a directory");
	eprintf("%s:", escname(state));
}

static _Noreturn void
reader(const char *state, char *argv[])
{
	struct stsnap snap;
	int fd = openstate(state, 0, NULL);

	if (st_snapshot(fd, state, &snap) < 0)
		exit(1);
	close(fd);
	passsketches(snap.sketches);
	setvars(getpid(), &snap.p, NULL);
	run(argv);
}

/* -d: the kept sketch records of the current version, from its index or as kept. */
static _Noreturn void
dump(const char *state)
{
	struct stsnap snap;
	struct obuf out = { 0 };
	struct skidx *x;
	char *where;
	size_t n;
	ssize_t r;
	int fd = openstate(state, 0, NULL), ret = 0;

	if (st_snapshot(fd, state, &snap) < 0)
		exit(1);
	close(fd);
	setupstdout();
	if (snap.p.index) {
		n = strlen(state) + sizeof "/current/index";
		where = emalloc(n);
		snprintf(where, n, "%s/current/index", state);
		if (!(x = skidx_open(snap.sketches, where, snap.p.index)))
			exit(1);
		ret = skidx_dump(x, &out, stdout) < 0;
		skidx_close(x);
		free(where);
	} else {
		egrow(&out.p, &out.cap, 1 << 16, 1);
		while ((r = read(snap.sketches, out.p, out.cap)) != 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				eprintf("%s: sketches:", escname(state));
			out.n = (size_t)r;
			obuf_flush(&out, stdout);
		}
	}
	if (out.n)
		obuf_flush(&out, stdout);
	free(out.p);
	exit(ret | fshut(stdout, "<stdout>"));
}

static void
forward(int sig)
{
	if (child > 0)
		kill((pid_t)child, sig);
}

/* Run argv as the state's writer; returns its status, or the publication's failure. */
static int
writer(int mode, const char *state, char *argv[])
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
	char cur[32], work[32], new[64], *workpath;
	struct sigaction sa;
	struct stsnap snap;
	struct stat st;
	sigset_t block, old;
	int statefd, lockfd = -1, created = 0, tries, status, ret, life[2];
	size_t i;
	pid_t pid;

	for (tries = 0; lockfd < 0; tries++) {
		statefd = openstate(state, mode == 'o', &created);
		if (mode == 'o' && st_replaceable(statefd, state) < 0)
			exit(1);
		/* no lock taken, nothing cleaned, in a folder that is no state */
		if (mode == 'a') {
			if (st_snapshot(statefd, state, &snap) < 0)
				exit(1);
			close(snap.sketches);
		}
		if ((lockfd = st_lock(statefd, state, wflag)) == -1)
			exit(1);
		if (lockfd < 0) {
			/* removed by the run that made the state and failed */
			close(statefd);
			if (tries == LOCKTRIES)
				eprintf("%s: its lock was removed too often", escname(state));
		}
	}
	/* as the lock holder: what others did before it is final now */
	if ((mode == 'o' && st_replaceable(statefd, state) < 0) ||
	    st_current(statefd, state, cur, sizeof cur) < 0 ||
	    st_clean(statefd, state, cur) < 0 ||
	    (mode == 'a' && st_snapshot(statefd, state, &snap) < 0))
		exit(1);
	snprintf(work, sizeof work, "tmp.%ld", (long)getpid());
	snprintf(new, sizeof new, "%s/new", work);
	workpath = emalloc(strlen(state) + sizeof work + 1);
	sprintf(workpath, "%s/%s", state, work);
	if (mkdirat(statefd, work, 0777) < 0)
		eprintf("%s:", escname(state));

	/* a signal before the command runs is forwarded to it once it does */
	sigemptyset(&block);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&block, sigs[i]);
	if (pipe(life) < 0 || fcntl(life[1], F_SETFD, FD_CLOEXEC) < 0)
		eprintf("pipe:");
	sigprocmask(SIG_BLOCK, &block, &old);
	fflush(NULL);
	if ((pid = fork()) < 0) {
		weprintf("fork:");
		ret = 1;
		goto done;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (mode == 'a')
			passsketches(snap.sketches);
		if (life[0] != LIFEFD && (dup2(life[0], LIFEFD) < 0 || close(life[0]) < 0))
			eprintf("dup2:");
		setvars(getpid(), mode == 'a' ? &snap.p : NULL, workpath);
		run(argv);
	}
	child = pid;
	close(life[0]);
	if (mode == 'a')
		close(snap.sketches);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			eprintf("waitpid:");
	child = 0;

	/* what a command that read the documents (status 0, or 1 for some bad ones) made */
	if (WIFEXITED(status)) {
		ret = WEXITSTATUS(status);
		if (ret <= 1 && fstatat(statefd, new, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st_publish(statefd, state, cur, work) < 0)
			ret = 1;
	} else {
		ret = 128 + WTERMSIG(status);
	}
done:
	if (st_remove(statefd, state, work) < 0 && ret == 0)
		ret = 1;
	if (created && st_unmake(statefd, state, lockfd) < 0 && ret == 0)
		ret = 1;
	free(workpath);
	return ret;
}

static const char synopsis[] =
    "[-w] -a state | -o state | -q state command [arg ...]\n"
    "       ndstate -d state | -t dir";

static _Noreturn void
usage(void)
{
	eusage(synopsis);
}

int
main(int argc, char *argv[])
{
	const char *state = NULL, *tmpdir = NULL;
	int c, mode = 0;

	argv0 = "ndstate";
	while ((c = getopt(argc, argv, "a:d:ho:q:t:w")) != -1) {
		switch (c) {
		case 'a':
		case 'd':
		case 'o':
		case 'q':
			if (mode)
				eusagewhy(synopsis, "-%c cannot go with -%c", c, mode);
			mode = c;
			state = optarg;
			break;
		case 'h':
			return help(synopsis);
		case 't':
			tmpdir = optarg;
			break;
		case 'w':
			wflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (tmpdir) {
		if (mode)
			eusagewhy(synopsis, "-t cannot go with -%c", mode);
		if (wflag)
			eusagewhy(synopsis, "-w cannot go with -t");
		if (argc > 0)
			eusagewhy(synopsis, "-t takes no command");
		return st_cleantmp(tmpdir, "neardup") < 0;
	}
	if (!mode)
		eusagewhy(synopsis, "no state: -a, -d, -o, -q or -t is needed");
	if (wflag && (mode == 'd' || mode == 'q'))
		eusagewhy(synopsis, "-w cannot go with -%c", mode);
	if (mode == 'd') {
		if (argc > 0)
			eusagewhy(synopsis, "-d takes no command");
		dump(state);
	}
	if (argc == 0)
		eusagewhy(synopsis, "no command");
	if (mode == 'q')
		reader(state, argv);
	return writer(mode, state, argv);
}
