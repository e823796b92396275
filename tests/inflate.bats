#!/usr/bin/env bats
# The inflater (lib/inflate) through gzcat, against gzip -dc.

load helper

# text of about 1.3 MB with short and long repeats, and 64 kB of random bytes
gendata() {
	seq 1 60000 | awk '{ print $1, $1 * $1 % 9973, "words that repeat", $1 % 7 }' >data
	head -c 65536 /dev/urandom >>data
}

# A gzip header with every flag (FTEXT FHCRC FEXTRA FNAME FCOMMENT) and
# its CRC-16, before the DEFLATE stream of file $1 and its trailer.
flagged() {
	printf '\037\213\010\037\0\0\0\0\0\003'
	printf '\006\0AB\002\0xy'
	printf 'dyn.txt\0a comment\0'
	printf '\371\162'
	gzip -n -c "$1" | tail -c +11
}

# A gzip member of the raw DEFLATE bytes given as printf format $1, with
# the trailer $2 (CRC-32 and size, a printf format).
member() {
	printf '\037\213\010\0\0\0\0\0\0\003'
	printf "$1"
	printf "$2"
}

@test "gzcat: usage" {
	check 2 '' 'usage: gzcat [-c chunk] [-m maxbytes] [file ...]\n' gzcat -x
	check 2 '' "gzcat: maxbytes '1k' is invalid (allowed: 0 to 9223372036854775807)\n" \
		gzcat -m 1k
	check 2 '' "gzcat: chunk '0' is too small (allowed: 1 to 1073741824)\n" gzcat -c 0
}

@test "gzcat: every .gz under /usr/share/doc as gzip -dc gives it" {
	find /usr/share/doc -name '*.gz' -type f 2>/dev/null | sort >list
	[ -s list ] || skip "no .gz files under /usr/share/doc"
	if [ -n "${ASAN_OPTIONS:-}" ]; then
		awk 'NR % 8 == 1' list >l && mv l list	# the sanitizer builds are slower
	fi
	n=$(wc -l <list)
	# all at once; file by file only if that differs
	tr '\n' '\0' <list | xargs -0 gzip -dc -- | cksum >want.sum
	tr '\n' '\0' <list | xargs -0 gzcat -- 2>err | cksum >got.sum
	bad=0
	if ! cmp -s got.sum want.sum || [ -s err ]; then
		while IFS= read -r f; do
			gzip -dc -- "$f" >want 2>/dev/null || true
			gzcat -- "$f" >got 2>/dev/null || true
			cmp -s got want || { bad=$((bad + 1)); echo "differs: $f"; }
		done <list
		if [ -s err ]; then
			cat err
			bad=$((bad + 1))
		fi
	fi
	echo "$n files, $bad mismatches"
	[ "$n" -gt 0 ]
	[ "$bad" -eq 0 ]
}

@test "gzcat: levels 1 to 9, whole and in chunks of 1, 7 and 4096 bytes" {
	gendata
	for l in 1 2 3 4 5 6 7 8 9; do
		gzip -"$l" -c data >d.gz
		cmpout 0 data /dev/null gzcat d.gz
		cmpout 0 data /dev/null gzcat -c 4096 d.gz
		case $l in
		1 | 9)
			cmpout 0 data /dev/null gzcat -c 1 d.gz
			cmpout 0 data /dev/null gzcat -c 7 d.gz
			;;
		esac
	done
	# the same through stdin
	cmpout 0 data /dev/null gzcat <d.gz
}

@test "gzcat: stored blocks (gzip -1 of random bytes), fixed and dynamic codes" {
	head -c 200000 /dev/urandom >rnd
	gzip -1 -c rnd >rnd.gz
	cmpout 0 rnd /dev/null gzcat rnd.gz
	cmpout 0 rnd /dev/null gzcat -c 3 rnd.gz
	# stored: no smaller than the data (a compressed block would be)
	[ "$(wc -c <rnd.gz)" -gt 200000 ]
	printf 'hello hello hello\n' >short
	gzip -9 -c short >short.gz
	cmpout 0 short /dev/null gzcat short.gz
}

@test "gzcat: empty data, empty input, not gzip" {
	: >empty
	gzip -c empty >empty.gz
	check 0 '' '' gzcat empty.gz
	check 0 '' '' gzcat -m 0 empty.gz
	check 1 '' 'gzcat: empty: gzip: unexpected end of input at byte 0\n' gzcat empty
	printf 'plain text\n' >plain
	check 1 '' 'gzcat: plain: gzip: not in gzip format at byte 0\n' gzcat plain
	printf '\037\000' >half
	check 1 '' 'gzcat: half: gzip: not in gzip format at byte 1\n' gzcat half
}

@test "gzcat: members concatenated are one stream; zero padding ignored" {
	printf 'first\n' >a
	printf 'second\n' >b
	gzip -c a >a.gz
	gzip -9 -c b >b.gz
	cat a.gz b.gz a.gz >m.gz
	check 0 'first\nsecond\nfirst\n' '' gzcat m.gz
	check 0 'first\nsecond\nfirst\n' '' gzcat -c 1 m.gz
	cat a.gz >z.gz
	head -c 1000 /dev/zero >>z.gz
	check 0 'first\n' '' gzcat z.gz
}

@test "gzcat: trailing garbage is reported and ignored, as gzip does" {
	printf 'first\n' >a
	gzip -c a >a.gz
	size=$(wc -c <a.gz)
	{ cat a.gz; printf 'junk'; } >g.gz
	check 1 'first\n' "gzcat: g.gz: gzip: trailing garbage ignored at byte $size\n" gzcat g.gz
	# zeros then something else are garbage too; a lone 1f 8b starts a member
	{ cat a.gz; printf '\0\0x'; } >g.gz
	check 1 'first\n' "gzcat: g.gz: gzip: trailing garbage ignored at byte $size\n" gzcat g.gz
	{ cat a.gz; printf '\037x'; } >g.gz
	check 1 'first\n' "gzcat: g.gz: gzip: trailing garbage ignored at byte $size\n" gzcat g.gz
	{ cat a.gz; printf '\037'; } >g.gz
	check 1 'first\n' "gzcat: g.gz: gzip: unexpected end of input at byte $((size + 1))\n" gzcat g.gz
	{ cat a.gz; printf '\037\213'; } >g.gz
	check 1 'first\n' "gzcat: g.gz: gzip: unexpected end of input at byte $((size + 2))\n" gzcat g.gz
}

# bombs: bomb.gz, 1 GB of zeros in under 1 MB (100 members of 10 MB), and
# one.gz, one member of 64 MB
bombs() {
	head -c 10000000 /dev/zero | gzip -9 >ten.gz
	for i in 0 1 2 3 4 5 6 7 8 9; do cat ten.gz ten.gz ten.gz ten.gz ten.gz \
		ten.gz ten.gz ten.gz ten.gz ten.gz; done >bomb.gz
	[ "$(wc -c <bomb.gz)" -lt 1000000 ]
	head -c 67108864 /dev/zero | gzip -9 >one.gz
}

@test "gzcat: a bomb stops at the cap" {
	bombs
	head -c 25000000 /dev/zero >want
	echo 'gzcat: bomb.gz: gzip: exceeds 25000000 bytes' >want.err
	cmpout 1 want want.err gzcat -m 25000000 bomb.gz
	head -c 1000 /dev/zero >want
	echo 'gzcat: one.gz: gzip: exceeds 1000 bytes' >want.err
	cmpout 1 want want.err gzcat -m 1000 one.gz
	# exactly the cap is not too much
	head -c 1000 /dev/zero | gzip >k.gz
	cmpout 0 want /dev/null gzcat -m 1000 k.gz
	check 1 '' 'gzcat: k.gz: gzip: exceeds 0 bytes\n' gzcat -m 0 k.gz
}

@test "gzcat: a bomb stops at the cap in bounded memory" {
	[ -x /usr/bin/time ] || skip "/usr/bin/time not installed"
	bombs
	# about 110 kB of stream and the 64 kB read buffer; sanitizers use more
	limit=4000
	[ -z "${ASAN_OPTIONS:-}" ] || limit=200000
	for a in '25000000 bomb.gz' '1000 one.gz'; do
		# shellcheck disable=SC2086
		/usr/bin/time -f %M -o rss gzcat -m $a >/dev/null 2>&1 && st=0 || st=$?
		[ "$st" -eq 1 ]
		[ "$(tail -n 1 rss)" -lt "$limit" ]
	done
}

@test "gzcat: a truncated member: the output so far, then the offset of the end" {
	gendata
	gzip -6 -c data >d.gz
	head -c 100000 d.gz >t.gz
	gzcat t.gz >got 2>err && st=0 || st=$?
	[ "$st" -eq 1 ]
	[ "$(cat err)" = "gzcat: t.gz: gzip: unexpected end of input at byte 100000" ]
	[ -s got ]
	head -c "$(wc -c <got)" data | cmp - got
	gzcat -c 1 t.gz >got1 2>err1 && st=0 || st=$?
	[ "$st" -eq 1 ]
	cmp got got1
	cmp err err1
	# in the header, and in the trailer
	head -c 5 d.gz >h.gz
	check 1 '' 'gzcat: h.gz: gzip: unexpected end of input at byte 5\n' gzcat h.gz
	size=$(wc -c <d.gz)
	head -c $((size - 3)) d.gz >tr.gz
	gzcat tr.gz >got 2>err && st=0 || st=$?
	[ "$st" -eq 1 ]
	cmp got data
	[ "$(cat err)" = "gzcat: tr.gz: gzip: unexpected end of input at byte $((size - 3))" ]
}

@test "gzcat: CRC and size mismatches in the trailer" {
	printf 'some text\n' >a
	gzip -c a >a.gz
	size=$(wc -c <a.gz)
	cp a.gz crc.gz
	printf 'X' | dd of=crc.gz bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
	check 1 'some text\n' "gzcat: crc.gz: gzip: CRC mismatch at byte $((size - 8))\n" gzcat crc.gz
	cp a.gz len.gz
	printf 'X' | dd of=len.gz bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
	check 1 'some text\n' "gzcat: len.gz: gzip: length mismatch at byte $((size - 4))\n" \
		gzcat len.gz
	# one bad file costs the others nothing
	check 1 'some text\nsome text\nsome text\n' \
		"gzcat: crc.gz: gzip: CRC mismatch at byte $((size - 8))\n" gzcat a.gz crc.gz a.gz
}

@test "gzcat: header flags: all of them read, reserved ones refused, header CRC checked" {
	gendata
	flagged data >f.gz
	cmpout 0 data /dev/null gzcat f.gz
	cmpout 0 data /dev/null gzcat -c 1 f.gz
	gzip -dc f.gz | cmp - data
	cp f.gz hcrc.gz
	printf '\0' | dd of=hcrc.gz bs=1 seek=37 conv=notrunc 2>/dev/null
	check 1 '' 'gzcat: hcrc.gz: gzip: header CRC mismatch at byte 36\n' gzcat hcrc.gz
	printf 'x\n' >x
	gzip -c x >r.gz
	for flag in 040 100 200; do
		cp r.gz r$flag.gz
		printf "\\$flag" | dd of=r$flag.gz bs=1 seek=3 conv=notrunc 2>/dev/null
		check 1 '' "gzcat: r$flag.gz: gzip: reserved header flags set at byte 3\n" \
			gzcat r$flag.gz
	done
	cp r.gz meth.gz
	printf '\007' | dd of=meth.gz bs=1 seek=2 conv=notrunc 2>/dev/null
	check 1 '' 'gzcat: meth.gz: gzip: unknown compression method at byte 2\n' gzcat meth.gz
}

@test "gzcat: invalid DEFLATE streams, with the offset of the bad field" {
	# a fixed block whose first code is a match at distance 1: nothing is behind it
	member '\003\002\0' '\0\0\0\0\0\0\0\0' >far.gz
	check 1 '' 'gzcat: far.gz: gzip: invalid distance too far back at byte 11\n' gzcat far.gz
	# a literal 'a' (fixed code 10010001), then a match of 3 at distance 1,
	# then the end of block
	member '\113\004\002\0' '\105\345\230\255\004\0\0\0' >ok.gz
	check 0 'aaaa' '' gzcat ok.gz
	# the same with distance code 30 (11110), which only the fixed code can say
	member '\113\004\076\0' '\0\0\0\0\0\0\0\0' >d30.gz
	check 1 'a' 'gzcat: d30.gz: gzip: invalid distance code at byte 12\n' gzcat d30.gz
	# literal/length code 286 (11000110)
	member '\033\003' '\0\0\0\0\0\0\0\0' >l286.gz
	check 1 '' 'gzcat: l286.gz: gzip: invalid literal/length code at byte 10\n' gzcat l286.gz
	member '\007' '' >bt.gz
	check 1 '' 'gzcat: bt.gz: gzip: invalid block type at byte 10\n' gzcat bt.gz
	# a stored block with LEN 5 and NLEN 0
	member '\001\005\0\0\0' '' >st.gz
	check 1 '' 'gzcat: st.gz: gzip: invalid stored block lengths at byte 11\n' gzcat st.gz
	# a dynamic block with HLIT 30 (287 codes)
	member '\365\0\0' '' >cnt.gz
	check 1 '' 'gzcat: cnt.gz: gzip: too many length or distance codes at byte 10\n' \
		gzcat cnt.gz
	# a dynamic block whose code length code has 4 lengths of 1: over-subscribed
	member '\005\0\222\004' '' >cl.gz
	check 1 '' 'gzcat: cl.gz: gzip: invalid code lengths set at byte 12\n' gzcat cl.gz
}
