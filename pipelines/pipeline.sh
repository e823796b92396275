# pipeline.sh: what the pipeline scripts (simtool, neardup) share, read
# with "." by each after it sets prog. POSIX sh; see simtool(7). (prog
# comes from the script, and _num and tmp go back to it.)
# shellcheck disable=SC2154,SC2034

# escname NAME: NAME as every message writes it: with the field escape
# of simrec(5) (a backslash \\, a TAB \t, a line break \n, a CR \r), as
# the tools' escname writes it (lib/util.c), so that a message stays one
# line and a name reads the same in every message.
escname() {
	printf '%s\n' "$1" | awk '{ gsub(/\\/, "&&"); gsub(/\t/, "\\t"); gsub(/\r/, "\\r")
		printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }'
}

# warn MESSAGE: "prog: MESSAGE" on stderr; each name in MESSAGE given
# through escname.
warn() {
	printf '%s: %s\n' "$prog" "$*" >&2
}

die() {
	warn "$@"
	exit 1
}

# number NAME VALUE MIN MAX [WHAT]: VALUE is a decimal number from MIN to
# MAX (digits only, leading zeros allowed, of any length), else a usage
# error naming NAME (and WHAT, what MAX is). An empty MAX, not known yet,
# checks the form alone. Sets _num to its value without leading zeros.
number() {
	_allowed="$3 to ${4:+$4${5:+, }}$5"
	case $2 in
	''|*[!0-9]*)
		warn "$1 '$(escname "$2")' is invalid (allowed: $_allowed)"
		exit 2 ;;
	esac
	_num=${2#"${2%%[!0]*}"}
	_num=${_num:-0}
	[ -n "$4" ] || return 0
	if [ ${#_num} -gt ${#4} ] || { [ ${#_num} -eq ${#4} ] && [ "$_num" -gt "$4" ]; } ||
	    [ "$_num" -lt "$3" ]; then
		warn "$1 '$(escname "$2")' is out of range (allowed: $_allowed)"
		exit 2
	fi
}

# fraction NAME VALUE: VALUE is a decimal fraction from 0 to 1 as the tools
# take it (estrtofrac, util.h): digits with at most one ".", at least one
# digit, at most 15 decimals, no sign or exponent; else a usage error.
fraction() {
	_whole=${2%%.*} _dec=
	case $2 in *.*) _dec=${2#*.} ;; esac
	case $_whole$_dec in
	''|*[!0-9]*) _bad=1 ;;
	*)
		_bad=
		_whole=${_whole#"${_whole%%[!0]*}"}
		case $_whole in
		'') ;;
		1) case $_dec in *[!0]*) _bad=1 ;; esac ;;
		*) _bad=1 ;;
		esac
		[ ${#_dec} -le 15 ] || _bad=1 ;;
	esac
	if [ -n "$_bad" ]; then
		warn "$1 '$(escname "$2")' is invalid (allowed: a decimal fraction from 0 to 1, at most 15 decimals)"
		exit 2
	fi
}

# maketemp [SUFFIX]: make the run's temporary directory, readable by the
# user only, in TMPDIR (default /tmp) as PROG.PID.NSUFFIX, N the first
# number free: mkdir makes it or fails, never taking an existing name or a
# planted link. Sets tmp to its path (with ./ before a TMPDIR that begins
# with -).
maketemp() {
	_dir=${TMPDIR:-/tmp}
	case $_dir in -*) _dir=./$_dir ;; esac
	[ -d "$_dir" ] && [ -w "$_dir" ] || die "$(escname "$_dir"): cannot make temporary files"
	_i=0
	# (umask, not mkdir -m alone: busybox's mkdir -m makes the directory
	# under the umask, then changes its mode; the subshell execs mkdir)
	until (umask 077 && exec mkdir -m 700 -- "$_dir/$prog.$$.$_i${1-}") 2>/dev/null; do
		_i=$((_i + 1))
		[ "$_i" -lt 100 ] || die "$(escname "$_dir"): cannot make temporary files"
	done
	tmp=$_dir/$prog.$$.$_i${1-}
}

# untilgone TENTHS PID...: wait until none of the PIDs runs, at most
# TENTHS tenths of a second (an ended process not yet waited for, a
# zombie, runs no more).
untilgone() {
	_t=$1
	shift
	while [ "$_t" -gt 0 ] && [ $# -gt 0 ] &&
	    ps -o stat= -p "$(echo "$@" | tr ' ' ,)" 2>/dev/null | grep -qv '^Z'; do
		sleep 0.1
		_t=$((_t - 1))
	done
}

# stopjobs: stop the background jobs in pids, and wait for them. A signal
# can come between a job's fork and its PID's entry in pids, so the job
# started last ($!) is stopped too, unless it was reaped (its PID then in
# reaped). A job forked just before the signal may also lose it (it
# catches it with the trap it was forked with, then drops it) and block
# for ever opening a named pipe: TERM, a moment for the jobs to stop on it
# when stopping (an interruption), then KILL to every job not yet reaped
# (so no PID can be another process's). A job in slowstop stops processes
# of its own first (ndshard): it is given up to 3 s.
stopjobs() {
	_last=
	[ -z "${!-}" ] || [ "$!" = "${reaped-}" ] || _last=$!
	if [ -n "$pids$_last" ]; then
		if [ -n "${stopping-}" ]; then
			# shellcheck disable=SC2086
			kill -TERM $pids $_last 2>/dev/null
			sleep 0.2
			[ -z "${slowstop-}" ] || untilgone 28 "$slowstop"
		fi
		# shellcheck disable=SC2086
		kill -KILL $pids $_last 2>/dev/null
		wait
	fi
	pids=
}

# cpulist LIST: in _c, the processors of a Linux CPU list such as
# 0-3,8,10-11; 0 if it is malformed.
cpulist() {
	_c=0
	_ifs=$IFS
	IFS=,
	for _r in $1; do
		case $_r in
		*[!0-9-]*|''|-*|*-|*-*-*) _c=0; break ;;
		*-*)
			[ "${_r#*-}" -ge "${_r%-*}" ] || { _c=0; break; }
			_c=$((_c + ${_r#*-} - ${_r%-*} + 1)) ;;
		*) _c=$((_c + 1)) ;;
		esac
	done
	IFS=$_ifs
}

# allowed: in _num, the processors this shell, and so what it starts, may
# run on (Linux's Cpus_allowed_list: a taskset, the cpuset of a Slurm job
# or of a container); 0 when that is not known.
allowed() {
	_num=0
	# (a simple command first: a loop whose redirection fails, out of
	# descriptors, would end the shell)
	read -r _k </proc/self/status 2>/dev/null || return 0
	while read -r _k _l; do
		[ "$_k" = Cpus_allowed_list: ] || continue
		cpulist "$_l"
		_num=$_c
		break
	done </proc/self/status
}

# cpus: in _num, the processors online that this shell may run on
# (allowed), 1 to 64 (in _n, not bounded by 64): Linux's list, else
# getconf; 1 when that is not known.
cpus() {
	_n=0
	if [ -r /sys/devices/system/cpu/online ] &&
	    read -r _l </sys/devices/system/cpu/online 2>/dev/null; then
		cpulist "$_l"
		_n=$_c
	fi
	[ "$_n" -gt 0 ] || _n=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || _n=1
	case $_n in ''|*[!0-9]*|0) _n=1 ;; esac
	allowed
	[ "$_num" -lt 1 ] || [ "$_num" -ge "$_n" ] || _n=$_num
	_num=$_n
	[ "$_num" -le 64 ] || _num=64
}

# idle: in _num, the processors idle now, 1 to 64: the processors online
# (cpus) less the processes running (the 4th field of Linux's
# /proc/loadavg, the calling shell one of them); 1 when that is not known.
idle() {
	cpus
	_busy=0
	if [ -r /proc/loadavg ] && read -r _ _ _ _l _ </proc/loadavg 2>/dev/null; then
		_busy=${_l%/*}
		case $_busy in ''|*[!0-9]*) _busy=1 ;; esac
		_busy=$((_busy - 1))
	fi
	_num=$((_n - _busy))
	[ "$_num" -ge 1 ] || _num=1
	[ "$_num" -le 64 ] || _num=64
}
