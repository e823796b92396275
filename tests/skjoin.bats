#!/usr/bin/env bats
# skjoin: simjoin's join as map and reduce steps over sortable records;
# the steps run by hand, with sort(1) as the shuffle, give simjoin's
# pairs, clusters and unique documents for any number of shards.

load helper

u='usage: skjoin -D i/n -k key [-o dir] [file]
       skjoin -R n [-o dir] [file]
       skjoin -Q n sample
       skjoin -M i/n [-m minsize] [-o dir] -q ranges [-x repeats] [file]
       skjoin -N i/n [file]
       skjoin -S [file]
       skjoin -C n [file]
       skjoin -K i/n -b bases [-d rarity] -r reach -T totals [-o dir] [file]
       skjoin -A n -T totals [-o dir] [file]
       skjoin -B [-c containment] [-d rarity] [-m minsize] [-t threshold] -p sent -T totals [file]
       skjoin -g | -u -p pairs -T totals [file]\n'

# shards SKETCHES N [OPTIONS]: the steps over N shards dealt in turn (as
# docsplit -p deals files), into s/; s/out.pairs, s/out.g and s/out.u are
# the outputs of simjoin, simjoin -g and simjoin -u with OPTIONS.
shards() {
	local sk=$1 n=$2 i p q f x

	shift 2
	rm -rf s
	mkdir s
	for ((i = 0; i < n; i++)); do
		awk -v i="$i" -v n="$n" '(NR - 1) % n == i' "$sk" >"s/sk.$i"
		mkdir "s/dig.$i" "s/dup.$i" "s/map.$i" "s/red.$i"
		skjoin -D "$i/$n" -k 0123456789abcdef0123456789abcdef -o "s/dig.$i" "s/sk.$i"
	done
	for ((p = 0; p < n; p++)); do
		sort -m s/dig.*/digests."$p" | skjoin -R "$n" -o "s/dup.$p"
	done
	sort -m s/dig.*/sample >s/sample
	skjoin -Q "$n" s/sample >s/ranges
	for ((i = 0; i < n; i++)); do
		sort -m s/dup.*/repeats."$i" | sort >s/rep
		skjoin -M "$i/$n" "$@" -x s/rep -q s/ranges -o "s/map.$i" "s/sk.$i"
	done
	cat s/map.*/totals | skjoin -S >s/totals
	cat s/map.*/rcount | skjoin -C "$n" >s/bases
	for ((p = 0; p < n; p++)); do
		sort -m s/map.*/reach."$p" >s/reach
		sort -m s/map.*/keys."$p" |
		    skjoin -K "$p/$n" "$@" -T s/totals -r s/reach -b s/bases -o "s/red.$p"
		for f in "s/red.$p"/*; do sort -o "$f" "$f"; done
	done
	for ((q = 0; q < n; q++)); do
		mkdir "s/send.$q"
		skjoin -N "$q/$n" "s/sk.$q" | sort -m - s/red.*/weights."$q" s/red.*/pairs."$q" |
		    skjoin -A "$n" "$@" -T s/totals -o "s/send.$q"
	done
	for ((q = 0; q < n; q++)); do
		sort -m s/send.*/sent."$q" >s/sent
		skjoin -N "$q/$n" "s/sk.$q" | sort -m - s/red.*/weights."$q" |
		    skjoin -B "$@" -T s/totals -p s/sent >"s/ver.$q"
	done
	sort -m s/ver.* >s/ver
	cut -f3- s/ver >s/out.pairs
	sort -m s/map.*/ids | skjoin -g -T s/totals -p s/ver >s/out.g
	sort -m s/map.*/ids | skjoin -u -T s/totals -p s/ver >s/out.u
}

# sketches: 150 documents of 60 to 600 words from 40 bases, so that many
# are near one another, some whole sketches (-n 256) and some cut; 300
# exact copies of one (more than the cap of 128 a run) and 20 of a short
# one (below the minimum size).
sketches() {
	awk 'BEGIN {
		x = 7
		for (d = 0; d < 150; d++) {
			base = d % 40; n = d % 50 == 3 ? 8 : 60 + (d * 37) % 540
			printf "d%d\t", d
			y = base + 1
			for (i = 0; i < n; i++) {
				y = y * 16807 % 2147483647
				x = x * 16807 % 2147483647
				printf "%sw%d", i ? " " : "", (x % 100 < 8) ? 5000 + x % 977 : y % 3000
			}
			printf "\n"
		}
	}' | sketch -n 256 >base.sk
	awk -F'\t' 'NR == 7 { for (i = 0; i < 300; i++) print "c" i "\t" $2 "\t" $3 }
	    $2 < 10 && !s++ { for (i = 0; i < 20; i++) print "s" i "\t" $2 "\t" $3 }
	    { print }' base.sk >all.sk
}

@test "skjoin -h: usage on stdout" {
	check 0 "$u" '' skjoin -h
}

@test "skjoin: usage errors" {
	check 2 '' "$u" skjoin
	check 2 '' "$u" skjoin -M 0/2 -S
	check 2 '' "$u" skjoin -K 0/2 -T t -r r
	check 2 '' "$u" skjoin -M 0/2
	check 2 '' "$u" skjoin -D 0/2
	check 2 '' "$u" skjoin -Q 2
	check 2 '' "$u" skjoin -g -T t
	check 2 '' "$u" skjoin -S a b
	check 2 '' "skjoin: shard '2/2' is invalid (i/n, i below n)\n" skjoin -M 2/2
	check 2 '' "skjoin: shard '1' is invalid (i/n)\n" skjoin -M 1
	check 2 '' "skjoin: shards '0' is too small (allowed: 1 to 4096)\n" skjoin -A 0 -T t
	check 2 '' "skjoin: key '00' is invalid (32 hexadecimal digits)\n" skjoin -D 0/1 -k 00
}

@test "skjoin: the steps over 1, 2, 5 and 8 shards give simjoin's pairs, -g and -u; 3 with options" {
	sketches
	[ "$(wc -l <all.sk)" -eq 470 ]
	for opts in "" "-d 0" "-d 5 -t 0.5" "-c 0.6 -m 50"; do
		# shellcheck disable=SC2086
		simjoin $opts all.sk >want.pairs
		# shellcheck disable=SC2086
		simjoin -g $opts all.sk >want.g
		# shellcheck disable=SC2086
		simjoin -u $opts all.sk >want.u
		[ "$(wc -l <want.pairs)" -gt 30000 ]
		ns="1 2 5 8"
		[ -z "$opts" ] || ns=3
		for n in $ns; do
			# shellcheck disable=SC2086
			shards all.sk "$n" $opts
			cmp want.pairs s/out.pairs
			cmp want.g s/out.g
			cmp want.u s/out.u
		done
	done
}

@test "skjoin -M, -N: key records, IDs, reaches and totals; documents (simrec(5))" {
	printf 'a\t3\t0000000000000005 0000000000000011 0000000000000020\nb\t9\t0000000000000011 0000000000000016 0000000000000030\n' >sk
	printf '0000000000000000\n0000000000000016\n' >ranges
	printf '0000000003\n' >rep
	mkdir o
	check 0 '' '' skjoin -M 1/2 -m 0 -q ranges -o o sk
	# partitions by range: keys.1 the hashes from 16 on, sorted
	printf '0000000000000005\t0000000001\t1\n0000000000000011\t0000000001\t1\n0000000000000011\t0000000003\t1\n' >want.0
	printf '0000000000000016\t0000000003\t1\n0000000000000020\t0000000001\t1\n0000000000000030\t0000000003\t1\n' >want.1
	cmp want.0 o/keys.0
	cmp want.1 o/keys.1
	[ ! -e o/docs ]
	# the documents, made again from the sketches, numbered as the map numbers them
	check 0 '0000000001\t0\ta\t3\t0000000000000005 0000000000000011 0000000000000020\n0000000003\t0\tb\t9\t0000000000000011 0000000000000016 0000000000000030\n' '' \
		skjoin -N 1/2 sk
	printf '0000000001\ta\n0000000003\tb\n' >want
	cmp want o/ids
	cmpout 0 /dev/null /dev/null cat o/reach.0
	printf '0000000000000030\n' >want
	cmp want o/reach.1
	printf '0\n1\n' >want
	cmp want o/rcount
	printf '2\t3\t4\n' >want
	cmp want o/totals
	printf '3\t3\t8\n' | cat o/totals - >tt
	check 0 '5\t3\t8\n' '' skjoin -S tt
	printf '0\n1\n4\n2\n' >rc
	check 0 '0\n4\n' '' skjoin -C 2 rc
	# b is a repeat: flag 2, no reach, not counted
	rm -r o
	mkdir o
	check 0 '' '' skjoin -M 1/2 -m 0 -q ranges -x rep -o o sk
	printf '0000000000000016\t0000000003\t3\n0000000000000020\t0000000001\t1\n0000000000000030\t0000000003\t3\n' >want.1
	cmp want.1 o/keys.1
	printf '0\n0\n' >want
	cmp want o/rcount
	printf '1\t3\t4\n' >want
	cmp want o/totals
}

@test "skjoin -D, -R, -Q: digests, repeats and ranges" {
	printf 'a\t3\t0000000000000005 0000000000000400 0000000000000800\nb\t3\t0000000000000005 0000000000000400 0000000000000800\nc\t3\t0000000000000005 0000000000000400 0000000000000c00\n' >sk
	mkdir o r
	check 0 '' '' skjoin -D 0/1 -k 000102030405060708090a0b0c0d0e0f -o o sk
	[ "$(wc -l <o/digests.0)" -eq 3 ]
	[ "$(cut -f1 o/digests.0 | sort -u | wc -l)" -eq 2 ]
	printf '0000000000000400\n0000000000000400\n0000000000000400\n0000000000000800\n0000000000000800\n0000000000000c00\n' >want
	cmp want o/sample
	check 0 '' '' skjoin -R 2 -o r o/digests.0
	printf '0000000001\n' >want
	cmp want r/repeats.1
	cmpout 0 /dev/null /dev/null cat r/repeats.0
	check 0 '0000000000000000\n0000000000000400\n0000000000000800\n' '' skjoin -Q 3 o/sample
	check 0 '0000000000000000\nffffffffffffffff\n' '' skjoin -Q 2 /dev/null
}

@test "skjoin: bad records are said, skipped, and exit 1" {
	printf '2\t0\t4\n' >t
	: >r
	mkdir o
	printf '0\n' >b
	check 1 '' 'skjoin: <stdin>:1: bad key record: skipped\n' skjoin -K 0/1 -T t -r r -b b -o o <<<'00zz'
	printf '0000000000000002\t0000000001\t1\n0000000000000001\t0000000000\t1\n' >k
	check 1 '' 'skjoin: k:2: key records out of order: skipped\n' skjoin -K 0/1 -T t -r r -b b -o o k
	check 1 '' 'skjoin: b:2: base missing\n' skjoin -K 1/2 -T t -r r -b b -o o k
	# reaches of more documents than the totals hold: said once, the rest done
	printf '0000000000000001\n%.0s' 1 2 3 >r3
	printf '0000000000000002\t0000000000\t1\n0000000000000002\t0000000001\t1\n0000000000000003\t0000000001\t1\n' >k3
	check 1 '' 'skjoin: r3: more reaches than documents\n' skjoin -K 0/1 -T t -r r3 -b b -o o k3
	run cat o/pairs.0
	[ "$status" -eq 0 ]
	[ "$output" = "0000000000	2	0000000001" ]
	check 1 '' 'skjoin: <stdin>:1: bad record: skipped\n' skjoin -A 1 -T t -o o <<<'0000000001	9	x'
	printf 'x\n' >bad
	check 1 '' 'skjoin: bad:1: bad totals record\n' skjoin -A 1 -T bad -o o </dev/null
	check 1 '' 'skjoin: /dev/stdin:1: bad pair record: skipped\n' skjoin -g -T t -p /dev/stdin <<<'0000000009	0000000001'
	# a sent record without its sketch: A, the weights, the partners
	printf '0000000001\tx\t0000000002\n' >sent
	check 1 '' 'skjoin: sent:1: bad sent record: skipped\n' skjoin -B -T t -p sent </dev/null
}

@test "skjoin -K: a hash held by 1.2 million documents: linear pairs, bounded memory" {
	[ -x /usr/bin/time ] || skip "GNU time not installed"
	n=1200000
	[ -z "${ASAN_OPTIONS-}" ] || n=300000
	awk -v n="$n" 'BEGIN { for (d = 0; d < n; d++) printf "00000000000000aa\t%010d\t1\n", d }' >k
	printf '%d\t128\t%d\n' "$n" "$n" >t
	: >r
	mkdir o
	printf '0\n' >b
	/usr/bin/time -f '%M' -o rss skjoin -K 0/1 -T t -r r -b b -o o k
	# the first 128 paired with every later one (join_candidates)
	[ "$(wc -l <o/pairs.0)" -eq $((128 * 127 / 2 + 128 * (n - 128))) ]
	# held by all of them: weight 2 / n, sent to each
	[ "$(wc -l <o/weights.0)" -eq "$n" ]
	[ "$(sed -n 1p o/weights.0)" = "0000000000	1	00000000000000aa	$n	$n" ]
	# (peak memory is not measured under the sanitizers, as need_rss
	# says: their own take some 20 MB on some kernels)
	if [ -z "${ASAN_OPTIONS-}" ]; then
		[ "$(cat rss)" -lt 20000 ]
	fi
}

@test "skjoin -K: 600 shards under a soft limit of 256 open files" {
	ulimit -Sn 256 || skip "cannot lower the limit on open files"
	[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -ge 1300 ] || skip "hard limit too low"
	printf '1\t0\t1\n' >t
	: >r
	mkdir o
	awk 'BEGIN { for (i = 0; i < 600; i++) print 0 }' >b
	check 0 '' '' skjoin -K 0/600 -T t -r r -b b -o o </dev/null
	[ -e o/pairs.599 ]
	[ -e o/weights.599 ]
}
