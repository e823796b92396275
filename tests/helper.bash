# helper.bash: common setup of the bats tests; load it with "load helper".
#
# Every test runs in its own empty directory. check compares a command's
# exit status, stdout and stderr byte for byte (run's $output drops
# trailing newlines, so it cannot see them).

bats_require_minimum_version 1.5.0

shared="$BATS_TEST_DIRNAME/../../shared/data"

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# The course data (../shared) is not part of the project: skip without it.
need_shared() {
	[ -d "$shared/course" ] && [ -d "$shared/course-crlf" ] ||
		skip "../shared not present"
}

# cmpout STATUS OUTFILE ERRFILE CMD [ARG ...]: run CMD, with the caller's
# stdin, and check its exit status and that stdout and stderr are those files.
cmpout() {
	local want=$1 wantout=$2 wanterr=$3 st=0 bad=

	shift 3
	"$@" >got.out 2>got.err || st=$?
	[ "$st" -eq "$want" ] || bad="exit status $st, want $want"
	cmp -s got.out "$wantout" || bad="$bad${bad:+; }stdout differs"
	cmp -s got.err "$wanterr" || bad="$bad${bad:+; }stderr differs"
	[ -z "$bad" ] && return 0
	{
		printf '%s: %s\n' "$*" "$bad"
		echo "--- stdout, got:"; od -c got.out | head -20
		echo "--- stdout, want:"; od -c "$wantout" | head -20
		echo "--- stderr, got:"; od -c got.err | head -20
		echo "--- stderr, want:"; od -c "$wanterr" | head -20
	} >&2
	return 1
}

# check STATUS OUT ERR CMD [ARG ...]: cmpout with the expected stdout and
# stderr given as printf(1) formats (\t \n \r \\ \0 \ooo; %% for a percent).
check() {
	local want=$1

	# shellcheck disable=SC2059
	printf -- "$2" >want.out
	# shellcheck disable=SC2059
	printf -- "$3" >want.err
	shift 3
	cmpout "$want" want.out want.err "$@"
}

# capped FIRST LAST CMD [ARG ...]: CMD reads bad records only: exit 1, no
# stdout, and on stderr the first 10 said (FIRST the first line) and LAST,
# their count.
capped() {
	local first=$1 last=$2

	shift 2
	run --separate-stderr "$@"
	[ "$status" -eq 1 ]
	[ "$output" = "" ]
	[ "${#stderr_lines[@]}" -eq 11 ]
	[ "${stderr_lines[0]}" = "$first" ]
	[ "${stderr_lines[10]}" = "$last" ]
}

# badopt USAGE CMD [ARG ...]: a usage error from getopt: exit 2, no stdout,
# stderr one diagnostic line (its text is the libc's) and then USAGE (its
# lines, without the last newline).
badopt() {
	local usage=$1

	shift
	run -2 --separate-stderr "$@"
	[ "$output" = "" ]
	case ${stderr_lines[0]} in
	"$1: "*) ;;
	*) false ;;
	esac
	[ "${stderr#*$'\n'}" = "$usage" ]
}

# n copies of byte c (a letter).
repeat() {
	head -c "$2" /dev/zero | tr '\0' "$1"
}

# ---- Fixtures of the pipeline tests (simtool.bats, simtool.mk.bats) ----

# A small corpus, checked by hand. After stopwords the article has apple 2,
# banana 2, cherry 4, date 1, so the features for N=3 are cherry, apple,
# banana (hash rows 1, 2, 3). With M=4 (rows 1100, 1010, 0110):
#	A1 apple:2 banana:1	1010	S1 apple:2 banana:1	1010
#	A2 banana:1 cherry:1	0100	S2 no feature		0000
#	A3 cherry:3		1100
# so S1: A1 0, A3 2, A2 3; S2: A2 1, A1 2, A3 2. With M=8: A1 10100110,
# A2 01000010, A3 11001010; S1: A1 0, A2 4, A3 4; S2: A2 2, A1 4, A3 4.
small() {
	printf 'the a\n' >stopwords.txt
	printf 'A1\napple apple banana\n\fA2\nbanana cherry the\n\fA3\ncherry cherry cherry date\n' >article.txt
	printf '11001010\n10100110\n01100011\n00010000\n' >hashvalue.txt
	printf '\nS1\nApple BANANA apple\n\fS2\nnothing here\n\f' >sample.txt
	small4='S1\n0:A1 \n2:A3 \n3:A2 \nS2\n1:A2 \n2:A1 A3 \n'
	small8='S1\n0:A1 \nS2\n2:A2 \n'
}

# Copy the four inputs of a course directory here, writable.
course() {
	need_shared
	cp "$shared/$1/article.txt" "$shared/$1/sample.txt" \
		"$shared/$1/hashvalue.txt" "$shared/$1/stopwords.txt" .
	chmod u+w ./*.txt
}

# First block of a result file.
firstblock() {
	awk 'NR > 1 && !/^[0-9]+:/ { exit } { print }' "$1"
}

# ourprocs NAME: print the PIDs of live processes running a path that ends
# in /NAME in this test's working directory (read from Linux /proc; none
# where there is no /proc), so that a test can see what it left running.
ourprocs() {
	local d pid

	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		[ "$(readlink "$d/cwd" 2>/dev/null)" = "$BATS_TEST_TMPDIR" ] || continue
		[ "$(cut -d ' ' -f 3 "$d/stat" 2>/dev/null)" != Z ] || continue
		tr '\0' ' ' <"$d/cmdline" 2>/dev/null | grep -q -- "/$1 " || continue
		case $pid in "$$" | "$BASHPID") continue ;; esac
		echo "$pid"
	done
	return 0
}

# need_rss: skip a test of peak memory under the sanitizers, whose shadow
# memory and quarantine are not the tool's, and without /usr/bin/time.
need_rss() {
	if [ -n "${ASAN_OPTIONS-}" ] || [ -n "${UBSAN_OPTIONS-}" ]; then
		skip "peak memory is not measured under the sanitizers"
	fi
	[ -x /usr/bin/time ] || skip "/usr/bin/time not installed"
}

# faults NAME CMD: run the shell command CMD under GNU time, its minor page
# faults into NAME.faults; it must succeed, silently (need_rss first).
faults() {
	run --separate-stderr /usr/bin/time -f %R -o "$1.faults" sh -c "$2"
	[ "$status" -eq 0 ] || return 1
	[ "$stderr" = "" ] || return 1
}

# loops N: N rounds, a fifth of them under the sanitizers (ASAN_OPTIONS).
loops() {
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		echo $(($1 / 5))
	else
		echo "$1"
	fi
}
