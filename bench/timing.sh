# shellcheck shell=sh
# bench/timing.sh: sourced by benches. timed KEY 'COMMAND' runs the shell
# command REPS times (default 3) and appends "KEY CPU WALL" to $times: the
# medians of its CPU seconds (user + system, its children included) and of
# its wall-clock seconds. CPU time is what the machine's other users disturb
# least; without /usr/bin/time, CPU is "-" and only the wall clock is kept.
# The command is given as a string so that each run writes its output afresh.
# timing_work NAME: a work directory $work, removed on exit (on SIGINT and
# SIGTERM too), and in it the timing file $times.
timing_work() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	times=$work/times
	: >"$times"
}

timed() {
	: "${times:?timing.sh: set times to a file name}"
	_key=$1 _cmd=$2 _i=0
	: >"$times.runs"
	while [ "$_i" -lt "${REPS:-3}" ]; do
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S %e' -o "$times.one" sh -c "$_cmd" || return 1
			awk '{ printf "%.2f %.2f\n", $1 + $2, $3 }' "$times.one" >>"$times.runs"
		else
			_s=$(date +%s.%N)
			sh -c "$_cmd" || return 1
			awk -v s="$_s" -v e="$(date +%s.%N)" 'BEGIN { printf "- %.2f\n", e - s }' >>"$times.runs"
		fi
		_i=$((_i + 1))
	done
	awk -v k="$_key" '{ c[NR] = $1; w[NR] = $2 }
		END { n = asortn(c); asortn(w); printf "%s %s %s\n", k, c[int((NR + 1) / 2)], w[int((NR + 1) / 2)] }
		function asortn(a,   i, j, t) { for (i = 2; i <= NR; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t } return NR }' \
		"$times.runs" >>"$times"
}

# cpu KEY: the median CPU seconds of KEY (wall if there is no CPU figure);
# wall KEY: its median wall-clock seconds.
cpu() { awk -v k="$1" '$1 == k { v = ($2 == "-" ? $3 : $2) } END { print v }' "$times"; }
wall() { awk -v k="$1" '$1 == k { v = $3 } END { print v }' "$times"; }
