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

# badopt USAGE CMD [ARG ...]: a usage error from getopt: exit 2, no stdout,
# stderr one diagnostic line (its text is the libc's) and then USAGE.
badopt() {
	local usage=$1

	shift
	run -2 --separate-stderr "$@"
	[ "$output" = "" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	case ${stderr_lines[0]} in
	"$1: "*) ;;
	*) false ;;
	esac
	[ "${stderr_lines[1]}" = "$usage" ]
}

# n copies of byte c (a letter).
repeat() {
	head -c "$2" /dev/zero | tr '\0' "$1"
}
