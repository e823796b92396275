#!/usr/bin/env bats
# skidx: kept sketches as an index file (skidx(5)); simjoin -x answers from
# it as simjoin over the kept sketches and the batch; neardup keeps its
# state as one (issue 22).

load helper

u='usage: skidx [-c] [-L length] -a index [file ...]\n       skidx [-L length] -d index\n       skidx -o index [file ...]\n'

# rename FROM: the records on stdin with IDs cN, N counting from FROM (exact copies).
rename() {
	awk -F'\t' -v n="$1" 'BEGIN { OFS = "\t" } { $1 = "c" n++; print }'
}

# keep TEXT BATCH: the sketch records of a text state after adding BATCH
# (as neardup -a kept them): those of other IDs, then the batch.
keep() {
	awk -F'\t' 'NR == FNR { q[$1]; next } !($1 in q)' "$2" "$1" >"$1.new"
	cat "$2" >>"$1.new"
	mv "$1.new" "$1"
}

# same TEXT INDEX QUERIES: simjoin -x on INDEX answers as simjoin on TEXT,
# with each set of options.
same() {
	local o st
	for o in '-d 0' '-d 2' '-d 5 -m 150' '-u -d 2' '-t 0.9 -c 0.5' '-d 1 -t 0.1'; do
		st=0
		# shellcheck disable=SC2086
		simjoin $o -q "$3" "$1" >want.pairs 2>want.err || st=$?
		# shellcheck disable=SC2086
		cmpout "$st" want.pairs want.err simjoin $o -x "$2" -q "$3" || return 1
	done
}

@test "skidx: usage" {
	check 0 "$u" '' skidx -h
	check 2 '' "$u" skidx
	check 2 '' "$u" skidx -d i x
	check 2 '' "$u" skidx -L 8 -o i
	check 2 '' "$u" skidx -c -o i
	check 2 '' "$u" skidx -a i -o j
	check 2 '' "skidx: length '0' is too small (allowed: 1 to 9223372036854775807)\n" skidx -L 0 -d i
}

@test "skidx -o, -d: the kept records, as given; duplicate IDs said and skipped" {
	gensketch -c 3 -p 5 -n 32 300 >all
	check 0 '' '' sh -c 'skidx -o i all >len'
	check 0 "$(stat -c %s i)\n" '' cat len
	check 0 '' '' sh -c 'skidx -d i | cmp - all'
	head -2 all >two
	head -1 all >>two
	run --separate-stderr skidx -o j two
	[ "$status" -eq 1 ]
	[ "$stderr" = "skidx: two:3: duplicate ID (first at two:1): skipped" ]
	check 0 "$(head -2 all)\n" '' skidx -d j
	# an empty collection is an index too
	check 0 '' '' sh -c 'skidx -o e </dev/null >/dev/null'
	check 0 '' '' skidx -d e
	head -3 all >q
	simjoin -q q /dev/null >want
	[ -s want ]
	: >none
	cmpout 0 want none simjoin -x e -q q
}

@test "skidx -o, -a -c: a new index replaces the old one whole, or not at all" {
	gensketch -c 3 -p 5 -n 32 2000 >all
	skidx -o i all >/dev/null
	cp i i.old
	# an input that cannot be opened: no index written, the old one kept
	check 1 '' 'skidx: nope: No such file or directory\n' skidx -o i nope
	cmp i i.old
	check 1 '' 'skidx: nope: No such file or directory\n' skidx -c -a i nope
	cmp i i.old
	check 0 'i\ni.old\n' '' sh -c 'ls -d i*'
	# an index is written by offset: not through a descriptor (a >> would lose the file)
	seq 5 >log
	check 1 '' 'skidx: /dev/fd/5: names a descriptor: an index is written by offset, to a file by its name\n' \
		sh -c 'skidx -o /dev/fd/5 all 5>>log'
	check 1 '' 'skidx: /dev/stdout: names a descriptor: an index is written by offset, to a file by its name\n' \
		sh -c 'skidx -c -a /dev/stdout all >>log'
	check 1 '' 'skidx: /dev/fd/5: names a descriptor: an index is written by offset, to a file by its name\n' \
		sh -c 'skidx -a /dev/fd/5 all 5<>i'
	cmp i i.old
	check 0 '1\n2\n3\n4\n5\n' '' cat log
	# a SIGKILL at any moment leaves the old index or the new one (and
	# maybe a temporary file beside them)
	gensketch -c 3 -p 5 -n 32 10000 >big
	n=$(loops 20)
	k=0 new=0
	while [ "$k" -lt "$n" ]; do
		skidx -o i big >/dev/null 2>&1 &
		sleep "0.0$((k % 10))"
		kill -KILL $! 2>/dev/null || :
		wait $! || :
		if ! cmp -s i i.old; then
			skidx -d i | cmp - big
			new=$((new + 1))
			cp i i.old
		fi
		rm -f i.??????
		k=$((k + 1))
	done
	echo "$new of $n runs ended before the kill" >&3
	# a link is written through; a device is written to, not replaced
	ln -s real l
	check 0 '' '' sh -c 'skidx -o l all >/dev/null'
	[ -L l ]
	check 0 '' '' sh -c 'skidx -d real | cmp - all'
	check 0 "$(stat -c %s real)\n" '' skidx -o /dev/null all
	[ -c /dev/null ]
}

@test "simjoin -x: the answers of simjoin over the kept records and the batch, through additions and replacements" {
	local i
	# small sketches (every hash a candidate), long runs (a pool of 5 common hashes), edited copies
	gensketch -c 3 -p 5 -n 32 -s 1 1500 >text
	skidx -o i text >/dev/null
	for i in 1 2 3 4; do
		{
			gensketch -c 3 -p 5 -n 32 -s $((i + 10)) -f $((2000 * i)) 300
			# replacements of kept IDs, and exact copies of kept records
			gensketch -c 3 -p 5 -n 32 -s $((i + 20)) -f $((100 * i)) 50
			sed -n "$((i * 7)),$((i * 7 + 40))p" text | rename $((i * 1000))
		} >b$i
		keep text b$i
		skidx -a i b$i >len
		[ "$(cat len)" = "$(wc -c <i | tr -d ' ')" ]
		skidx -d i | cmp - text
		# queries: new ones, replacements, exact copies of kept and of batch records
		{
			gensketch -c 3 -p 5 -n 32 -s $((i + 30)) -f 90000 100
			gensketch -c 3 -p 5 -n 32 -s $((i + 40)) -f $((50 * i)) 30
			sed -n '5,30p' text | rename 50000
			tail -5 b$i | rename 60000
		} >q
		same text i q
	done
	check 0 '5\n' '' sh -c "skidx -d i >/dev/null; od -An -c i | tr -d ' \\n' | grep -o 'SKEND1' | wc -l | tr -d ' '"
}

# common: the records on stdin with the smallest hash 1 in each sketch and 2 in every other.
common() {
	awk -F'\t' 'BEGIN { OFS = "\t" }
	{
		n = split($3, h, " ")
		h[1] = "0000000000000001"
		if (NR % 2)
			h[2] = "0000000000000002"
		s = h[1]
		for (i = 2; i <= n; i++)
			s = s " " h[i]
		$3 = s
		print
	}'
}

# HCNT holds counts up to 254; larger ones, and those of hashes the
# segment only takes away, are in XCNT.
@test "simjoin -x: counts past an inline count, and of hashes only taken away, as simjoin's" {
	gensketch -c 3 -n 32 -s 7 300 | common >text
	{
		gensketch -c 3 -n 32 -s 10 -f 5000 40 | common
		gensketch -c 3 -n 32 -s 11 -f 6000 20
		sed -n '3,12p' text | rename 7000
	} >q
	skidx -o i text >/dev/null
	same text i q
	# 100 replaced by sketches without the common hashes: 300 down to 200
	gensketch -c 3 -n 32 -s 8 100 >b1
	keep text b1
	skidx -a i b1 >/dev/null
	same text i q
	# 200 more with them: 400
	gensketch -c 3 -n 32 -s 9 -f 1000 200 | common >b2
	keep text b2
	skidx -a i b2 >/dev/null
	same text i q
	# each common sketch replaced: the hashes only taken away
	awk -F'\t' '$3 ~ /^0000000000000001 / { print $1 }' text >ids
	gensketch -c 3 -n 32 -s 12 -f 9000 "$(wc -l <ids)" | cut -f 2- | paste ids - >b3
	keep text b3
	skidx -a i b3 >/dev/null
	same text i q
	skidx -d i | cmp - text
}

# tests/ref/skidx1.idx: an index of version 1 (two segments, two documents
# replaced), which simjoin -x reads and skidx -a writes anew as version 2.
@test "skidx: an index of version 1 is answered, and written anew by an addition" {
	cp "$BATS_TEST_DIRNAME/ref/skidx1.idx" old.idx
	skidx -d old.idx >text
	check 0 'd0 d1 d2 d3 d4 d5 d6 d7 d8 d9 \n' '' sh -c 'cut -f 1 text | tr "\n" " "; echo'
	skidx -o new.idx text >/dev/null
	for o in '' '-u' '-d 2 -t 0.3'; do
		# shellcheck disable=SC2086
		simjoin $o -x new.idx -q "$BATS_TEST_DIRNAME/ref/skidx1.q.sk" >want
		# shellcheck disable=SC2086
		cmpout 0 want /dev/null simjoin $o -x old.idx -q "$BATS_TEST_DIRNAME/ref/skidx1.q.sk"
	done
	run --separate-stderr skidx -a old.idx "$BATS_TEST_DIRNAME/ref/skidx1.q.sk"
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "$(wc -c <old.idx | tr -d ' ')" ]
	check 0 '\211SKIDX2\n' '' head -c 8 old.idx
	cp text want
	keep want "$BATS_TEST_DIRNAME/ref/skidx1.q.sk"
	cmpout 0 want /dev/null skidx -d old.idx
}

@test "simjoin -x: whole sketches and cut ones, sizes checked against the kept ones" {
	# size 200: pages of 100 to 200 shingles have whole sketches
	gensketch -c 4 -p 20 -n 200 -s 3 400 >text
	skidx -o i text >/dev/null
	gensketch -c 4 -p 20 -n 200 -s 4 -f 380 60 >q
	same text i q
	# a sketch of another size is refused, as simjoin refuses it
	gensketch -n 100 -s 5 -f 7000 3 >bad
	cat q bad >q2
	same text i q2
	run --separate-stderr skidx -a i bad
	[ "$status" -eq 1 ]
	[ "${#stderr_lines[@]}" -eq 3 ]
}

# 10,000 sketches of 128 hashes: more records than a map sorts in memory
# (262,144), HCNT in two chunks, directories through scratch files.
@test "skidx -o, -a: maps sorted by runs in scratch files answer as simjoin" {
	mkdir tmp
	gensketch -s 2 10500 >gen.sk
	head -n 10000 gen.sk >text
	TMPDIR=$PWD/tmp skidx -o i text >/dev/null
	# new documents, and replacements of kept IDs by other sketches
	{
		tail -n 400 gen.sk
		sed -n '10001,10100p' gen.sk | awk -F'\t' 'BEGIN { OFS = "\t" } { $1 = "d" NR * 7; print }'
	} >b
	keep text b
	TMPDIR=$PWD/tmp skidx -a i b >/dev/null
	skidx -d i | cmp - text
	[ -z "$(ls tmp)" ]
	{
		sed -n '10101,10150p' gen.sk
		sed -n '1,20p' text | rename 50000
	} >q
	simjoin -q q text >want
	[ "$(wc -l <want)" -ge 20 ]
	simjoin -x i -q q | cmp - want
}

@test "skidx -a: -c, and as many segments as an index holds, write it anew with the same answers" {
	local i
	gensketch -c 3 -p 5 -n 32 -s 1 300 >text
	skidx -o i text >/dev/null
	for ((i = 1; i <= 33; i++)); do
		gensketch -c 3 -p 5 -n 32 -s $((i + 100)) -f $((i * 10)) 15 >b
		keep text b
		skidx -a i b >/dev/null
	done
	# 32 segments at most: the 31st addition wrote it anew as one
	check 0 '3\n' '' sh -c "od -An -c i | tr -d ' \\n' | grep -o 'SKEND1' | wc -l | tr -d ' '"
	skidx -d i | cmp - text
	gensketch -c 3 -p 5 -n 32 -s 99 -f 5 40 >q
	same text i q
	skidx -c -a i /dev/null >/dev/null
	check 0 '1\n' '' sh -c "od -An -c i | tr -d ' \\n' | grep -o 'SKEND1' | wc -l | tr -d ' '"
	same text i q
}

@test "skidx: a truncated index is refused in one line, at every length; -L names the version's bytes" {
	local n len i
	gensketch -c 3 -p 5 -n 16 -s 1 40 >a
	gensketch -c 3 -p 5 -n 16 -s 2 -f 20 40 >b
	skidx -o i a >/dev/null
	len=$(skidx -a i b)
	gensketch -n 16 -s 3 -f 10 5 >q
	simjoin -x i -q q >want
	check 0 '' '' sh -c "simjoin -L $len -x i -q q | cmp - want"
	check 1 '' "simjoin: i: truncated index ($len bytes, not $((len + 8)))\n" simjoin -L $((len + 8)) -x i -q q
	check 1 '' "skidx: i: truncated index ($len bytes, not $((len + 8)))\n" skidx -L $((len + 8)) -d i
	# standard input is named <stdin>, or the name -N gives (escaped)
	check 1 '' "simjoin: <stdin>: truncated index ($len bytes, not $((len + 8)))\n" \
		sh -c "simjoin -L $((len + 8)) -x - -q q <i"
	check 1 '' "simjoin: st\\\\tx/current/index: truncated index ($len bytes, not $((len + 8)))\n" \
		sh -c "simjoin -L $((len + 8)) -N 'st	x/current/index' -x - -q q <i"
	check 0 '' '' sh -c "simjoin -N st -x - -q q <i | cmp - want"
	# every cut: refused in one line, or a shorter index (the first segment's end)
	for ((n = 0; n < len; n += 1 + RANDOM % 997)); do
		head -c "$n" i >t
		run --separate-stderr simjoin -x t -q q
		if [ "$status" -eq 0 ]; then
			[ "$(skidx -d t)" = "$(cat a)" ]
		else
			[ "$status" -eq 1 ]
			[ "${#stderr_lines[@]}" -eq 1 ]
			case $stderr in
			"simjoin: t: not an index" | "simjoin: t: a forged or damaged index") ;;
			*) echo "$n: $stderr" >&2; false ;;
			esac
		fi
	done
	# what a killed writer leaves past the version's bytes is not read
	cp i j
	head -c 5000 /dev/urandom >>j
	check 0 '' '' sh -c "simjoin -L $len -x j -q q | cmp - want"
	gensketch -n 16 -s 4 -f 70 3 >c
	cp a text
	keep text b
	keep text c
	skidx -L "$len" -a j c >/dev/null
	skidx -d j | cmp - text
	cmp -n "$len" i j
}

@test "skidx: forged index files never crash or hang a query: refused in one line, or answered" {
	local round n off len
	gensketch -c 3 -p 5 -n 16 -s 1 60 >a
	gensketch -c 3 -p 5 -n 16 -s 2 -f 30 30 >b
	skidx -o i a >/dev/null
	len=$(skidx -a i b)
	gensketch -n 16 -s 3 -f 10 8 >q
	n=$(loops 100)
	for ((round = 0; round < n; round++)); do
		cp i f
		# a few bytes at random: the headers most often (where the offsets are)
		off=$((RANDOM % 4 ? RANDOM % 1400 : RANDOM * 32768 % len + RANDOM % 32768 % len))
		off=$((off % len))
		printf "\\$(printf %o $((RANDOM % 256)))\\$(printf %o $((RANDOM % 256)))" |
			dd of=f bs=1 seek="$off" conv=notrunc 2>/dev/null
		run --separate-stderr timeout 10 simjoin -x f -q q
		[ "$status" -le 1 ] || { echo "offset $off: status $status" >&2; false; }
		# refused in one line, or answered as the forged index says (its batch refused)
		[ "${#stderr_lines[@]}" -le 1 ] || [ -z "$(printf '%s\n' "$stderr" | grep -v '^simjoin: q:')" ] ||
			{ echo "offset $off: $stderr" >&2; false; }
		run --separate-stderr timeout 10 skidx -d f
		[ "$status" -le 1 ] || { echo "offset $off: status $status" >&2; false; }
		run --separate-stderr timeout 10 skidx -a f b
		[ "$status" -le 1 ] || { echo "offset $off: status $status" >&2; false; }
	done
	printf 'not an index at all\n' >g
	check 1 '' 'simjoin: g: not an index\n' simjoin -x g -q q
	check 1 '' 'skidx: g: not an index\n' skidx -a g b
	mkfifo p
	check 1 '' 'simjoin: p: not a regular file\n' timeout 10 simjoin -x p -q q 3<>p
}

# rsscheck DOCS IDBYTES MAPPED: the peak of the last command (file rss,
# kB) within skidx(1)'s bound: 16 MB, 200 bytes a document, its ID twice,
# and the pages of the index it maps (MAPPED bytes).
rsscheck() {
	local bound=$(((16777216 + 200 * $1 + 2 * $2 + $3) / 1024))

	[ "$(cat rss)" -le "$bound" ] || { echo "peak $(cat rss) kB, bound $bound kB" >&2; false; }
}

# The writer sorted the counts and postings a sixteenth of the hashes at a
# time by their top bits, where the smallest hashes that bottom-k sketches
# keep crowd: 30,000 generated sketches of 128 hashes took 50 MB (1.7 kB a
# document), 1,000,000 took 1.27 GB. Sorted runs in a scratch file: 15 MB.
@test "skidx -o, -a: 30,000 sketches of 128 hashes take under 1 kB a document" {
	need_rss
	gensketch -s 1 31000 >gen.sk
	head -n 30000 gen.sk >coll.sk
	run --separate-stderr /usr/bin/time -f %M -o rss skidx -o coll.idx coll.sk
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "$(wc -c <coll.idx)" ]
	rsscheck 30000 "$(cut -f 1 coll.sk | wc -c)" 0
	skidx -d coll.idx | cmp - coll.sk
	# a batch of 30,000 added to 1000 kept documents: the same bound
	tail -n 1000 gen.sk >kept.sk
	skidx -o kept.idx kept.sk >/dev/null
	run --separate-stderr /usr/bin/time -f %M -o rss skidx -a kept.idx coll.sk
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
	[ "$output" = "$(wc -c <kept.idx)" ]
	rsscheck 30000 "$(cut -f 1 coll.sk | wc -c)" "$(wc -c <kept.idx)"
	cat kept.sk coll.sk >all.sk
	skidx -d kept.idx | cmp - all.sk
}

# A state of version 3 whose index is of version 1, as neardup wrote it
# before: its queries are answered, and an addition writes it anew.
@test "neardup: a state whose index is of version 1 is queried, and written anew by -a" {
	local len
	mkdir docs
	seq -s ' ' 1000 1150 >docs/p1.txt
	neardup -o st docs >/dev/null
	cp "$BATS_TEST_DIRNAME/ref/skidx1.idx" st/current/index
	len=$(wc -c <st/current/index | tr -d ' ')
	# (its sketches have 16 hashes)
	sed "s/^index .*/index $len/; s/^size .*/size 16/" st/current/params >params.new
	mv params.new st/current/params
	skidx -d st/current/index >kept
	check 0 '' '' neardup -q st docs
	seq -s ' ' 1000 1140 >q.txt
	run --separate-stderr neardup -a st q.txt
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$stderr" = "" ]
	check 0 '\211SKIDX2\n' '' head -c 8 st/current/index
	run --separate-stderr ndstate -d st
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 11 ]
	[ "$(printf '%s\n' "${lines[@]:0:10}")" = "$(cat kept)" ]
	[ "$(printf '%s\n' "${lines[10]}" | cut -f 1)" = q.txt ]
	docsplit -f docs/p1.txt | htmltext | sketch -n 16 >p1.sk
	ndstate -d st >all.sk
	simjoin -q p1.sk all.sk >want
	check 0 'docs/p1.txt\tq.txt\t0.9508\n' '' cat want
	cmpout 0 want /dev/null neardup -q st docs
}

@test "neardup: a document of an empty ID is kept, queried and dumped as any other" {
	local t u
	t=$(seq -s ' ' 1000 1080)
	u=$(seq -s ' ' 5000 5080)
	printf '{"id":"a","text":"%s"}\n{"id":"b","text":"%s"}\n' "$t" "$u" >good.jsonl
	printf '{"id":"","text":"%s x"}\n' "$t" >empty.jsonl
	check 0 'a\t\t0.9872\n' '' neardup -j good.jsonl empty.jsonl
	check 0 '' '' neardup -j -o st good.jsonl
	check 0 '\ta\t0.9872\n' '' neardup -j -a st empty.jsonl
	check 0 '\ta\t0.9872\n' '' neardup -j -q st empty.jsonl
	check 0 'a\t\t0.9872\n' '' neardup -j -q st good.jsonl
	check 0 'a\nb\n\n' '' sh -c 'ndstate -d st | cut -f 1'
	check 0 'a\t\t0.9872\n' '' neardup -j -o st2 good.jsonl empty.jsonl
	check 0 'a\nb\n\n' '' sh -c 'ndstate -d st2 | cut -f 1'
}

@test "neardup -a: a copy of the state made with hard links is not written through" {
	local i b
	for b in 0 1 2; do
		mkdir "b$b"
		for i in 1 2 3; do
			seq -s ' ' $((b * 10000 + i * 1000)) $((b * 10000 + i * 1000 + 80)) >"b$b/d$i.txt"
		done
	done
	neardup -o seen b0
	cp -R -P -l seen fork
	check 0 '' '' neardup -a fork b1
	check 0 '' '' neardup -a seen b2
	check 0 'b0/d1.txt\nb0/d2.txt\nb0/d3.txt\nb1/d1.txt\nb1/d2.txt\nb1/d3.txt\n' '' sh -c 'ndstate -d fork | cut -f 1'
	check 0 'b0/d1.txt\nb0/d2.txt\nb0/d3.txt\nb2/d1.txt\nb2/d2.txt\nb2/d3.txt\n' '' sh -c 'ndstate -d seen | cut -f 1'
}

@test "neardup -a on an index: the next writer waits for the appender of a killed one" {
	local w i
	command -v pgrep >/dev/null || skip "no pgrep"
	mkdir small one
	for i in 1 2 3 4 5 6; do
		seq -s ' ' $((i * 1000)) $((i * 1000 + 80)) >"small/s$i.txt"
	done
	seq -s ' ' 90000 90080 >one/new.txt
	# a batch whose skidx -a takes a while
	awk 'BEGIN { srand(7); for (i = 0; i < 60000; i++) { printf "{\"id\":\"big%d\",\"text\":\"", i
		for (j = 0; j < 120; j++) printf "%sw%d", j ? " " : "", int(rand() * 50000); print "\"}" } }' >big.jsonl
	neardup -o st small
	neardup -j -a st big.jsonl >/dev/null 2>&1 3>&- &
	w=$!	# ndstate: neardup becomes it
	for ((i = 0; i < 3000; i++)); do
		pgrep -f '^skidx -L [0-9]+ -a ' >/dev/null && break
		sleep 0.01
	done
	[ "$i" -lt 3000 ]
	kill -KILL "$w"
	wait "$w" || :
	# the next writer, done while the killed one's skidx -a runs on
	check 0 '' '' neardup -a st one
	while pgrep -f '^skidx -L [0-9]+ -a ' >/dev/null; do sleep 0.1; done
	check 0 '' '' neardup -q st one
	run ndstate -d st
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 7 ]
}

@test "neardup -a on an index: the appender of a killed writer that starts late writes nothing" {
	local w i real
	mkdir small one two late
	for i in 1 2 3 4 5 6; do
		seq -s ' ' $((i * 1000)) $((i * 1000 + 80)) >"small/s$i.txt"
	done
	seq -s ' ' 90000 90080 >one/new.txt
	seq -s ' ' 80000 80080 >two/other.txt
	# In the run with LATE set, skidx starts only once the file go is
	# there, with its index as it was: as a skidx -a that the scheduler
	# stops between its open and its lock. The wrapper holds the index
	# open meanwhile, and links it back to its path (gone with the killed
	# writer's tmp.PID) through Linux's /proc.
	[ -e /proc/self/fd/0 ] || skip "no /proc/PID/fd"
	real=$(command -v skidx)
	cat >late/skidx <<EOF
#!/bin/sh
[ -n "\${LATE-}" ] || exec "$real" "\$@"
prev=
for a do
	[ "\$prev" != -a ] || index=\$a
	prev=\$a
done
exec 7<>"\$index" || exit 1
: >"$PWD/waiting"
i=0
while [ ! -e "$PWD/go" ] && [ "\$i" -lt 3000 ]; do sleep 0.02; i=\$((i + 1)); done
[ -e "\$index" ] || { mkdir -p "\${index%/*}" && ln -L "/proc/\$\$/fd/7" "\$index"; } || exit 1
st=0
"$real" "\$@" 2>"$PWD/late.err" || st=\$?
echo "\$st" >"$PWD/done"
exit "\$st"
EOF
	chmod +x late/skidx
	neardup -o st small
	LATE=1 PATH=$PWD/late:$PATH neardup -a st one >/dev/null 2>&1 3>&- &
	w=$!	# ndstate: neardup becomes it
	for ((i = 0; i < 3000; i++)); do
		[ ! -e waiting ] || break
		sleep 0.01
	done
	[ "$i" -lt 3000 ]
	kill -KILL "$w"
	wait "$w" || :
	# the next writer publishes before the killed one's skidx -a starts
	check 0 '' '' neardup -a st two
	: >go
	for ((i = 0; i < 3000; i++)); do
		[ ! -e done ] || break
		sleep 0.01
	done
	# it reads its batch only once it holds the lock: gone with its tmp.PID,
	# which the next writer removed first, so it writes nothing
	check 0 '1\n' '' cat done
	check 0 '1\n' '' grep -c '^skidx: .*/tmp\.[0-9]*/batch: No such file or directory$' late.err
	check 0 '' '' neardup -q st one
	check 0 'small/s1.txt\nsmall/s2.txt\nsmall/s3.txt\nsmall/s4.txt\nsmall/s5.txt\nsmall/s6.txt\ntwo/other.txt\n' '' \
	    sh -c 'ndstate -d st | cut -f 1'
}

@test "neardup -a on an index: a SIGKILL at any point leaves the old state or the new one; readers all along" {
	local n i pid batch
	mkdir tmp q
	export TMPDIR=$PWD/tmp
	mkdir docs b
	for i in 1 2 3 4 5 6 7 8; do
		seq -s ' ' $((i * 1000)) $((i * 1000 + 150)) >"docs/p$i.txt"
		seq -s ' ' $((i * 1000 + 500)) $((i * 1000 + 650)) >"b/n$i.txt"
		docsplit -f "b/n$i.txt" | htmltext | sketch >"b/n$i.sk"
	done
	cp docs/p3.txt q/p3.txt
	neardup -o st docs >/dev/null
	want=$(neardup -q st q)
	[ -n "$want" ]
	# a reader, all along
	(
		while [ ! -e stop ] && [ "$SECONDS" -lt 300 ]; do
			neardup -q st q >rout 2>rerr || { cat rerr >failed; break; }
			[ "$(cat rout)" = "$want" ] || { cat rout rerr >failed; break; }
		done
	) 3>&- &
	local reader=$!
	n=$(loops 200)
	kept() { ndstate -d st; }
	kept >before
	for ((i = 0; i < n; i++)); do
		batch=b/n$((i % 8 + 1))
		cp before after
		keep after "$batch.sk"
		setsid neardup -a st "$batch.txt" >/dev/null 2>&1 3>&- &
		pid=$!
		sleep "0.$(printf '%03d' $((RANDOM % 150)))"
		# the whole run (neardup.bats kills ndstate alone too)
		kill -KILL -- "-$pid" 2>/dev/null || :
		wait "$pid" || :
		kept >got
		cmp -s got before || cmp got after
		mv got before
	done
	touch stop
	wait "$reader"
	[ ! -e failed ] || { cat failed >&2; false; }
	# the answer is that of the kept sketches joined anew
	neardup -q st q >got
	ndstate -d st >text
	docsplit -f q/p3.txt | htmltext | sketch >qs
	simjoin -d 2 -m 10 -t 0.25 -q qs text | cmp - got
}
