/*
 * state.h: a kept neardup state on disk (neardup(1)): its versions, its
 * lock and its parameters.
 *
 * Version 3: STATE/ is a directory (followed if a link); STATE/lock the
 * lock file (a POSIX record lock on it, held by one writer); STATE/current
 * a symbolic link to STATE/v.N, the version, which holds the files params
 * and index (skidx(5)), whose first bytes, as many as params says, are
 * the version's (a later version appends to the same file, linked);
 * STATE/tmp.* a writer's work, removed by the next one. Version 2 holds
 * params and sketches (records) in its versions, version 1 in STATE
 * itself: both are read, and replaced by version 3 when written.
 *
 * Every function reports its failures (weprintf) and returns -1.
 */
#ifndef STATE_H
#define STATE_H

enum { STATE_VERSION = 3 };

/* The parameters a state was made with. */
struct stparams {
	unsigned words, size;	/* sketch -k and -n */
	char extract[5];	/* main, all or raw */
	unsigned long long index;	/* the index's length; 0: sketch records (version 1, 2) */
};

/*
 * One version of a state, opened for reading: its parameters and the
 * descriptor of its index (or sketches), from the same version whatever
 * is published meanwhile.
 */
struct stsnap {
	int sketches;
	struct stparams p;
};

/* Open the state directory (following links); -1 with errno set, silent. */
int st_open(const char *state);

/* Take snap of the state's current version (version 1 or 2). */
int st_snapshot(int statefd, const char *state, struct stsnap *snap);

/*
 * Whether the state may be replaced by -o: it is a state, or a
 * directory holding nothing but what a killed run of ours leaves.
 */
int st_replaceable(int statefd, const char *state);

/*
 * Take the state's lock, waiting for it with wait set. Returns the lock
 * file's descriptor (the lock lasts while the process lives and keeps it
 * open), -1 on failure, or -2 if the lock file was removed meanwhile
 * (open the state again).
 */
int st_lock(int statefd, const char *state, int wait);

/*
 * The name of the version current points to, in cur (of size n): "" for
 * a version 1 state or none. 0, or -1 (also for a malformed link).
 */
int st_current(int statefd, const char *state, char *cur, size_t n);

/* As the lock holder: remove what killed runs left, all but version cur. */
int st_clean(int statefd, const char *state, const char *cur);

/*
 * As the lock holder: make the directory newdir (a name in the state,
 * holding params and index, or sketches) the state's current version, if current
 * is still base (compare and swap), then remove base.
 */
int st_publish(int statefd, const char *state, const char *base, const char *newdir);

/*
 * As the lock holder of a state the caller created: remove it if it
 * holds no version (the run that was to make one failed).
 */
int st_unmake(int statefd, const char *state, int lockfd);

/* Remove name under dirfd (where in messages), a file or a whole tree. */
int st_remove(int dirfd, const char *where, const char *name);

/*
 * Remove the directories prefix.PID.* in dir that are ours and whose
 * process PID is gone (a temporary directory of a killed run). One whose
 * name ends in @HOST, HOST not this host's node name, is another host's:
 * kept.
 */
int st_cleantmp(const char *dir, const char *prefix);

#endif
