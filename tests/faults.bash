# faults.bash: helpers of the hardening tests (bad input, output faults,
# resource bounds) at the end of each tool's bats file; load after helper.

# devfull TOOL [ARG ...]: stdout cannot be written: one diagnostic, exit 1.
devfull() {
	check 1 '' "$1: <stdout>: write error: No space left on device\n" \
		sh -c 'exec "$@" >/dev/full' sh "$@"
}

# sigpipe TOOL [ARG ...]: the reader of stdout goes away early (the output
# must be well over a pipe's 64 kB). With SIGPIPE's default action the tool
# dies of it without a word (status 141); with SIGPIPE ignored the write
# fails with EPIPE, which it reports, and it exits 1.
sigpipe() {
	local st

	env --default-signal=PIPE "$@" 2>err | head -c 1 >/dev/null
	st=${PIPESTATUS[0]}
	[ "$st" -eq 141 ] || { echo "default SIGPIPE: exit status $st, want 141" >&2; return 1; }
	[ ! -s err ] || { echo "default SIGPIPE: stderr:" >&2; cat err >&2; return 1; }
	env --ignore-signal=PIPE "$@" 2>err | head -c 1 >/dev/null
	st=${PIPESTATUS[0]}
	[ "$st" -eq 1 ] || { echo "ignored SIGPIPE: exit status $st, want 1" >&2; return 1; }
	printf '%s: <stdout>: write error: Broken pipe\n' "$1" >want.err
	cmp err want.err
}

# asuser CMD [ARG ...]: run CMD under a user that file permissions apply to:
# as we are, or as nobody if we are root (skip if that cannot be done).
# As nobody, the pipeline scripts and the tools they run are copies in a
# directory of /tmp that nobody can read: the checkout may be under one
# only root can enter, as /root is.
asuser() {
	local tools st=0

	if [ "$(id -u)" -ne 0 ]; then
		"$@"
		return
	fi
	tools=$(mktemp -d /tmp/asuser.XXXXXX) || return 1
	# every tool, so that a stage added to a script is there too
	cp -- "$(dirname -- "$(command -v neardup)")"/* "$tools"/
	cp -- "$(dirname -- "$(command -v docsplit)")"/* "$tools"/
	chmod -R a+rX "$tools"
	PATH="$tools:$PATH" setpriv --reuid=65534 --regid=65534 --clear-groups "$@" || st=$?
	rm -rf -- "$tools"
	return "$st"
}

needasuser() {
	[ "$(id -u)" -ne 0 ] || command -v setpriv >/dev/null 2>&1 ||
		skip "running as root without setpriv(1)"
}

# An address space limit says nothing under the sanitizers, which reserve
# terabytes of it.
needvlimit() {
	[ -z "${SIMTOOL_SAN:-}" ] || skip "address space limit under sanitizers"
}

# words N: N bytes of text "ab cd ab cd ...", no newline.
words() {
	yes 'ab cd' | tr '\n' ' ' | head -c "$1"
}

# Blocks of equal length on which the word table's former hash, the sum
# h * 33 + c mod 2^64 over the bytes, is equal: every word made of k of
# them had one hash, so 2^k words all collided (hash flooding). ez and fY
# are bytes of any kind (IDs, word lists); the others, 16 letters, are
# words that the tokenizer finds in text.
collide_bytes='ez fY'
collide_letters='adaagcjaaagbccaa caajaaagibaaaafa'

# collide A B K: the 2^K words of K blocks, each A or B, one a line.
collide() {
	awk -v a="$1" -v b="$2" -v k="$3" 'BEGIN {
		w[0] = ""
		for (n = 1; k-- > 0; n *= 2)
			for (j = 0; j < n; j++) {
				w[j + n] = w[j] b
				w[j] = w[j] a
			}
		for (j = 0; j < n; j++)
			print w[j]
	}'
}

# withpath PATH CMD [ARG ...]: run CMD (at most 10 s), stdout discarded,
# with the argument OUT replaced by PATH.
withpath() {
	local path=$1 a
	local -a args=()

	shift
	for a in "$@"; do
		if [ "$a" = OUT ]; then
			args+=("$path")
		else
			args+=("$a")
		fi
	done
	timeout 10 "${args[@]}" >/dev/null
}

# outpath WANTFILE CMD [ARG ...]: CMD writes the file named by its
# argument OUT (util afile), the same as WANTFILE. A symbolic link is
# written through, a dangling one creates its file (beside the link if
# relative); a device and a FIFO are written, not replaced; a directory
# and a loop of links are errors; no temporary file is left. As root,
# /dev/null is tried only after a device node of our own survived: a
# regression must not replace the machine's.
outpath() {
	local want=$1

	shift
	printf 'old\n' >real
	ln -s real link
	withpath link "$@"
	[ -L link ]
	cmp real "$want"
	mkdir sub
	ln -s made sub/dangling
	withpath sub/dangling "$@"
	[ -L sub/dangling ]
	cmp sub/made "$want"
	mkfifo fifo
	{ timeout 10 cat fifo >got & } 2>/dev/null
	withpath fifo "$@"
	wait
	[ -p fifo ]
	cmp got "$want"
	if [ "$(id -u)" -ne 0 ]; then
		withpath /dev/null "$@"
	elif mknod nul c 1 3 2>/dev/null; then
		withpath nul "$@"
		[ -c nul ]
		withpath /dev/null "$@"
	fi
	[ -c /dev/null ]
	run -1 --separate-stderr withpath sub "$@"
	[ "$stderr" = "$1: sub: Is a directory" ]
	ln -s loop2 loop1
	ln -s loop1 loop2
	run -1 --separate-stderr withpath loop1 "$@"
	[ "$stderr" = "$1: loop1: Too many levels of symbolic links" ]
	run ls sub
	[ "$output" = "$(printf 'dangling\nmade')" ]
	run sh -c 'ls -a | grep -cE "\.[A-Za-z0-9]{6}\$"'
	[ "$output" = 0 ]
}
