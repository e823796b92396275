#!/usr/bin/env bats
# genedits: the seeded edits behind the labelled set of make bench-quality.

load helper

u='usage: genedits [-d donor] [-s seed] op rate file\n'

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'a b c d\n' >t
	printf 'x\n' >x
	printf 'p1\n\np2\n\np3\n' >pp
	printf 'd1\n\nd2\n' >dd
}

@test "genedits: usage errors" {
	check 2 '' "$u" genedits
	check 2 '' "$u" genedits del 1
	check 2 '' "genedits: unknown op 'foo' (subst, ins, del, mix, reorder, padd, pdel, trunc)\n" \
		genedits foo 1 t
	check 2 '' 'genedits: subst needs a donor (-d)\n' genedits subst 1 t
	check 2 '' "genedits: rate '101' is too large (allowed: 0 to 100)\n" genedits del 101 t
	check 1 '' 'genedits: nope: No such file or directory\n' genedits del 1 nope
}

@test "genedits: every word substituted, inserted after, deleted" {
	check 0 'x x x x\n' '' genedits -d x subst 100 t
	check 0 'a x b x c x d x\n' '' genedits -d x ins 100 t
	check 0 ' \n' '' genedits del 100 t
	check 0 'a b c d\n' '' genedits -d x subst 0 t
}

@test "genedits: the rate is a count of words, at least one" {
	printf 'w1 w2 w3 w4 w5 w6 w7 w8 w9 w10\n' >ten
	run genedits -s 3 -d x subst 30 ten
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | tr ' ' '\n' | grep -c '^x$')" -eq 3 ]
	run genedits -s 3 -d x subst 1 ten
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | tr ' ' '\n' | grep -c '^x$')" -eq 1 ]
	run genedits -s 3 del 50 ten
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | wc -w)" -eq 5 ]
}

@test "genedits: HTML tags, scripts and styles are not words" {
	printf '<p class="a b">hello world</p><script>var s</script><STYLE>p{}</STYLE>end\n' >h
	check 0 '<p class="a b">x x</p><script>var s</script><STYLE>p{}</STYLE>x\n' '' \
		genedits -d x subst 100 h
}

@test "genedits: the same seed, the same edit" {
	seq 1 200 | tr '\n' ' ' >n
	seq 500 700 >donor
	genedits -s 9 -d donor mix 20 n >a
	genedits -s 9 -d donor mix 20 n >b
	cmp a b
}

@test "genedits: paragraphs reordered, added, removed" {
	check 0 'p2\n\np1\n\np3\n' '' genedits -s 5 reorder 100 pp
	check 0 'd2\n\np1\n\nd1\n\np2\n\np3\n' '' genedits -d dd padd 50 pp
	check 0 'p1\n\n' '' genedits pdel 50 pp
	check 1 '' 'genedits: too few paragraphs (3) to pdel 100%%\n' genedits pdel 100 pp
	check 2 '' 'genedits: padd needs a donor (-d)\n' genedits padd 10 pp
}

@test "genedits: truncation at white space" {
	printf 'aaa bbb ccc ddd\n' >t2
	check 0 'aaa bbb \n' '' genedits trunc 50 t2
	check 0 'aaa bbb ccc ddd\n' '' genedits trunc 100 t2
	check 0 '\n' '' genedits trunc 0 t2
}
