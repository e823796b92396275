#!/usr/bin/env bats
# gendocs: the seeded demo collection of neardup, with its truth.

load helper

u='usage: gendocs [-n pages] [-q queries] [-s seed] dir\n'

@test "gendocs: usage errors" {
	check 2 '' "$u" gendocs
	check 2 '' "$u" gendocs a b
	check 2 '' "$u" gendocs -x d
	check 2 '' "gendocs: pages '0' is too small (allowed: 1 to 100000)\n" gendocs -n 0 d
	check 2 '' "gendocs: queries '10001' is too large (allowed: 0 to 10000)\n" gendocs -q 10001 d
	check 2 '' "gendocs: seed 'x' is invalid (allowed: 0 to 9223372036854775807)\n" gendocs -s x d
	[ ! -e d ]
}

@test "gendocs: a tiny collection, exactly" {
	check 0 '' '' gendocs -n 6 -q 3 -s 1 t
	cd t
	run -0 sh -c 'find . -type f | LC_ALL=C sort | xargs cksum'
	want='3088960410 4104 ./docs/harbor/001-weekly-field.html
1737564046 3733 ./docs/lantern/002-visible-record.html
572347484 3137 ./docs/lantern/006-hidden-session.html
3055982501 3769 ./docs/lantern/archive/002-visible-record.html
1524962792 3431 ./docs/lantern/archive/006-hidden-session.html
894405503 2609 ./docs/meadow/003-busy-theme.html
1455072256 2609 ./docs/meadow/archive/003-busy-theme.html
2941968960 2467 ./docs/notes/001-weekly-field.txt
3059679078 1716 ./docs/notes/004-late-address.txt
2326429495 1612 ./docs/notes/005-late-address-part-2.txt
2859759889 509 ./labels.tsv
3955965138 151 ./new-labels.tsv
2289409776 3016 ./new/lantern-003-busy-theme.html
832190906 3053 ./new/lantern-009-careful-manual.html
209326818 1315 ./new/notes-003-busy-theme.txt'
	[ "$output" = "$want" ]
	check 0 'docs/harbor/001-weekly-field.html\tdocs/notes/001-weekly-field.txt\t1\ttext
docs/lantern/002-visible-record.html\tdocs/lantern/archive/002-visible-record.html\t1\tedit
docs/meadow/003-busy-theme.html\tdocs/meadow/archive/003-busy-theme.html\t1\treorder
docs/notes/004-late-address.txt\tdocs/notes/005-late-address-part-2.txt\t0\tneg-neighbour
docs/lantern/002-visible-record.html\tdocs/lantern/006-hidden-session.html\t0\tneg-template
docs/lantern/006-hidden-session.html\tdocs/lantern/archive/006-hidden-session.html\t1\tpadd
' '' cat labels.tsv
	check 0 'new/lantern-003-busy-theme.html\tdocs/meadow/003-busy-theme.html\t1\tquery-edit
new/notes-003-busy-theme.txt\tdocs/meadow/003-busy-theme.html\t1\tquery-text
' '' cat new-labels.tsv
}

@test "gendocs: a text page and its neighbour share the heading and introduction" {
	gendocs -n 6 -q 0 -s 1 .
	check 0 'Inside the late address
=======================

Each field before the session renames any network never. Each empty
battery often starts the record over every client.
' '' sed -n 1,5p docs/notes/004-late-address.txt
	check 0 'Inside the late address, part 2
===============================

Each field before the session renames any network never. Each empty
battery often starts the record over every client.

' '' sed -n 1,6p docs/notes/005-late-address-part-2.txt
	check 0 '' '' test ! -e new
}

@test "gendocs: the HTML pages have a template around the body" {
	gendocs -n 1 -q 0 -s 1 .
	check 0 '9:<div id="cookie-banner" class="cookie-banner">\n19:<nav class="sidebar">\n35:<h1>Replacing the weekly field</h1>\n90:<footer class="site-footer">\n' '' \
		grep -n 'cookie-banner"\|<nav\|<footer\|<h1>' docs/harbor/001-weekly-field.html
	check 0 'Replacing the weekly field\n' '' sed -n 1p docs/notes/001-weekly-field.txt
}

@test "gendocs: the same seed gives the same files, another seed others" {
	gendocs -s 7 a >/dev/null
	gendocs -s 7 b >/dev/null
	gendocs -s 8 c >/dev/null
	diff -r a b
	run -1 cmp -s a/labels.tsv c/labels.tsv
	[ -z "$(find a -name '.gendocs.*')" ]
}

@test "gendocs: the truth of the default collection" {
	gendocs -s 42 .
	check 0 '      4 0\tneg-edit40\n      4 0\tneg-neighbour\n     23 0\tneg-template\n      4 1\tedit\n      4 1\tpadd\n      4 1\tpdel\n      4 1\treorder\n      4 1\ttemplate\n      4 1\ttext\n      4 1\ttrunc\n' '' \
		sh -c 'cut -f3,4 labels.tsv | LC_ALL=C sort | uniq -c'
	check 0 '72\n' '' sh -c 'find docs -type f | wc -l | tr -d " "'
	# every labelled ID is a document
	run -0 sh -c 'cut -f1,2 labels.tsv new-labels.tsv | tr "\t" "\n" | while read -r f; do test -f "$f" || echo "$f"; done'
	[ "$output" = "" ]
}

@test "gendocs: neardup finds the planted pairs and no hard negative" {
	gendocs -s 42 .
	neardup docs >pairs
	run -0 paireval labels.tsv pairs
	[ "${lines[1]}" = "$(printf 'all\t28\t0\t0\t31\t1.0000\t1.0000\t1.0000')" ]
}

@test "gendocs: a file in the way of a directory" {
	printf 'x\n' >f
	check 1 '' 'gendocs: f/docs: Not a directory\n' gendocs f
	mkdir d
	printf 'x\n' >d/docs
	check 1 '' 'gendocs: d/docs/harbor: Not a directory\n' gendocs d
}
