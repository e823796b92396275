# simtool: near-duplicate detection as a toolkit of Unix filters.
#
# This Makefile needs GNU make: it uses pattern rules, $(wildcard),
# target-specific variables and ifeq.

PREFIX = /usr/local
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man
DATADIR = $(PREFIX)/share/simtool

CC = cc
CFLAGS = -O2 -g
WARN = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS = -D_POSIX_C_SOURCE=200809L -Ilib
LDFLAGS =
LDLIBS =
# The tools are linked statically where the C library allows it: a stage
# of a pipeline then starts without the dynamic linker, half the cost of
# its exec (bench/README). make STATIC= links them dynamically.
STATIC := $(shell printf 'int main(void) { return 0; }\n' | \
	$(CC) -static -x c -o /dev/null - 2>/dev/null && echo -static)

# Objects and the library are built under build/, the tools in bin/. Every
# lib/*.c is part of the library and every lib/*.h a dependency of it: a
# new file there needs no edit here.
BUILD = build
TOOLS = docsplit wordfreq topn fphash hamq fmtresult fpcluster htmltext paireval \
	parsplit parjoin sketch simjoin ndstate skidx skjoin
LIBSRC = $(wildcard lib/*.c)
LIBHDR = $(wildcard lib/*.h)
LIBOBJ = $(LIBSRC:%.c=$(BUILD)/obj/%.o)
LIBA = $(BUILD)/libsim.a
DEVTOOLS = gencorpus genhash genfp hixforge wtabstat genedits sipvec gendocs fifoflip skflood \
	gensketch \
	gzcat
MAN1 = man/docsplit.1 man/wordfreq.1 man/topn.1 man/fphash.1 man/hamq.1 \
	man/fmtresult.1 man/simtool.1 man/fpcluster.1 man/htmltext.1 \
	man/paireval.1 man/parsplit.1 man/parjoin.1 man/sketch.1 man/simjoin.1 \
	man/neardup.1 man/ndstate.1 man/skidx.1 man/skjoin.1
MAN5 = man/simrec.5 man/hixfile.5 man/skidx.5
MAN7 = man/simtool.7

BINS = $(TOOLS:%=bin/%)
# The pipelines: a shell script each, and its make file.
SCRIPTS = simtool neardup
DEVBINS = $(DEVTOOLS:%=bin/%)

all: $(BINS) $(DEVBINS)

bin/%: cmd/%.c $(LIBA) $(LIBHDR)
	@mkdir -p bin
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(STATIC) -o $@ $< $(LIBA) $(LDLIBS)

bin/%: tools/%.c tools/rng.h $(LIBA) $(LIBHDR)
	@mkdir -p bin
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

$(BUILD)/obj/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(BUILD)/obj/lib
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The index answers queries on two threads.
bin/hamq bin/fpcluster: LDLIBS += -pthread

$(LIBA): $(LIBOBJ)
	rm -f $@
	ar rcs $@ $(LIBOBJ)

# Tests run the freshly built tools first on PATH, in the C locale.
# make check SAN=1 runs them on the sanitizer builds instead (san-check).
ifeq ($(SAN),1)
check: san-check
else
check: all lint
	@PATH="$$(pwd)/bin:$$(pwd)/pipelines:$$PATH" LC_ALL=C sh tests/run
endif

# lint: the bats files hold no assertion that cannot fail (tests/lint-tests),
# the man pages are clean for mandoc, and the shell scripts for shellcheck
# (as POSIX sh, warnings and errors).
SHSCRIPTS = $(SCRIPTS:%=pipelines/%) pipelines/ndshard pipelines/pipeline.sh demo/neardup.sh tests/run tests/lint-tests \
	tests/valgrind fuzz/run
lint:
	@sh tests/lint-tests && echo "tests/lint-tests: clean"
	@if command -v mandoc >/dev/null 2>&1; then \
		mandoc -T lint -W warning $(MAN1) $(MAN5) $(MAN7) && echo "mandoc -T lint: clean"; \
	else echo "mandoc not installed: man pages not linted"; fi
	@if command -v shellcheck >/dev/null 2>&1; then \
		shellcheck -s sh -S warning $(SHSCRIPTS) && echo "shellcheck: clean"; \
	else echo "shellcheck not installed: shell scripts not linted"; fi

# The demo runs on data the project generates itself (no network, no ../shared):
# simtool on a course-format corpus (gencorpus), then neardup on a collection
# of HTML and text pages with planted near-duplicates (gendocs, demo/neardup.sh).
DEMO = demo/out
demo: all
	@rm -rf $(DEMO) && mkdir -p $(DEMO)
	bin/gencorpus -a 300 -q 8 -u 2 -s 42 $(DEMO)
	bin/genhash -s 7 2000 128 > $(DEMO)/hashvalue.txt
	cp demo/stopwords.txt $(DEMO)/
	cd $(DEMO) && PATH="$$(cd ../.. && pwd)/bin:$$(cd ../.. && pwd)/pipelines:$$PATH" \
		sh ../../pipelines/simtool 1000 64
	@echo "demo: full result in $(DEMO)/result.txt"
	@echo
	bin/gendocs -s 42 $(DEMO)
	@PATH="$$(pwd)/bin:$$(pwd)/pipelines:$$PATH" LC_ALL=C sh demo/neardup.sh $(DEMO)

# Benchmarks print their figures (bench/*.sh): simtool whole and every
# stage on a generated corpus of the size the course ranked (and the
# course data when ../shared has it); neardup the same way on a generated
# collection of HTML and text files (gendocs, part of all); the Hamming index.
# The yardsticks of bench/pipeline.sh: a byte scan, and the course task as
# one small C program.
BENCHBINS = $(BUILD)/bench/mono $(BUILD)/bench/scan

bench: bench-pipeline bench-hamq
bench: bench-ndspeed

bench-pipeline: all $(BENCHBINS)
	sh bench/pipeline.sh

# A kept state as an index file: build, one query, 10,000 queries and
# 10,000 additions at 1,000,000 documents (INDEX_N), generated (not part
# of bench: its minutes and 4 GB of disk in build/index-bench).
bench-index: all
	sh bench/index.sh

# (linked as the tools are: the yardstick starts as cheaply)
$(BUILD)/bench/%: bench/%.c
	@mkdir -p $(BUILD)/bench
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(STATIC) -o $@ $<

# simtool 10000 128 on 1,000,000 generated articles (1.25 GB): not part of
# bench, for its time (see bench/README).
bench-large: all $(BENCHBINS)
	sh bench/pipeline.sh large1m

bench-extract: bin/htmltext
	@sh bench/extract.sh

bench-hamq: bin/hamq bin/genfp
	@sh bench/hamq.sh

# neardup end to end on folders of small text and HTML files, against cat
# and wc -l of them, quiet and loaded (bench/ndspeed.sh).
bench-ndspeed: all
	@sh bench/ndspeed.sh
.PHONY: bench-ndspeed

# The labelled near-duplicate set (bench/README) and, on it, the scores of
# trivial baselines through paireval(1). QUALITY is the set's directory.
# Not part of bench or check: it needs the Debian documentation packages.
QUALITY = build/quality
bench-quality-data: all
	sh bench/quality-data.sh $(QUALITY)

bench-quality: all
	@QUALITY="$(QUALITY)" sh bench/quality.sh

# neardup's speed on a collection of about 235 MB of Debian documentation
# (bench/README); it skips when the packages are missing.
NDCORPUS = build/ndcorpus
bench-neardup: all
	@NDCORPUS="$(NDCORPUS)" sh bench/neardup.sh

# neardup against ssdeep, tlsh and Debian's simhash (bench/README): F1 and
# CPU time on the labelled set and a gendocs collection. Not part of bench
# or check: it needs those packages (each skips when missing).
bench-compare: all
	@QUALITY="$(QUALITY)" sh bench/compare.sh

install: $(BINS)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)
	cp $(BINS) $(DESTDIR)$(BINDIR)/
	for s in $(SCRIPTS); do \
		sed "s|^pipelib=''|pipelib='$(DATADIR)/pipeline.sh'|" pipelines/$$s \
			>$(DESTDIR)$(BINDIR)/$$s && chmod 755 $(DESTDIR)$(BINDIR)/$$s || exit 1; \
	done
	cp $(SCRIPTS:%=pipelines/%.mk) pipelines/pipeline.sh pipelines/ndshard $(DESTDIR)$(DATADIR)/
	cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp $(MAN5) $(DESTDIR)$(MANDIR)/man5/
	cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/

clean:
	rm -rf bin $(BUILD) $(DEMO)

.PHONY: all check lint demo install clean bench bench-pipeline bench-hamq bench-index bench-large \
	bench-extract bench-quality bench-quality-data bench-neardup bench-compare

# Hardening builds, each in its own directory under build/ (never in bin/).
# san-check: the whole test suite on tools built with AddressSanitizer,
# UndefinedBehaviorSanitizer and LeakSanitizer, once with each compiler of
# SANCCS (build/san-gcc/bin, build/san-clang/bin); any finding fails the
# run. make san SANCC=gcc builds one of them only. valgrind: the pipeline
# and the filters' error paths under valgrind.
# fuzz: each libFuzzer harness of fuzz/ for FUZZ_SECONDS (see fuzz/README);
# a new harness is fuzz/NAME.c plus NAME in FUZZ.
SANCCS = gcc clang
SANCC = clang
SANFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all -pthread
SANDIR = $(BUILD)/san-$(SANCC)
SANENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:allocator_may_return_null=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 SIMTOOL_SAN=1
SHARED = ../shared/data
FUZZ = docsplit wordfreq topn fphash hamq hixfile hixbuild fmtresult esc tok fpcluster json \
	parsplit parjoin wtab \
	html paireval sketch simjoin inflate warc skidx skjoin
FUZZCC = clang
# (a harness renames the main of the command it includes, which has no
# prototype: -Wno-missing-prototypes)
FUZZFLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-D_GNU_SOURCE -Ifuzz -Wl,--wrap=rdr_open -Wl,--wrap=rdr_fdopen -Wl,--wrap=rdr_opendoc -pthread \
	-Wno-missing-prototypes
FUZZDIR = $(BUILD)/fuzz
FUZZ_SECONDS = 10

san: $(TOOLS:%=$(SANDIR)/bin/%) $(DEVTOOLS:%=$(SANDIR)/bin/%)

# The library is compiled once for each sanitizer build, then linked.
SANLIB = $(SANDIR)/libsim.a
SANOBJ = $(LIBSRC:%.c=$(SANDIR)/obj/%.o)

$(SANDIR)/obj/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(SANDIR)/obj/lib
	$(SANCC) $(WARN) $(CPPFLAGS) $(SANFLAGS) -c -o $@ $<

$(SANLIB): $(SANOBJ)
	rm -f $@
	ar rcs $@ $(SANOBJ)

$(SANDIR)/bin/%: cmd/%.c $(SANLIB) $(LIBHDR)
	@mkdir -p $(SANDIR)/bin
	$(SANCC) $(WARN) $(CPPFLAGS) $(SANFLAGS) -o $@ $< $(SANLIB)

$(SANDIR)/bin/%: tools/%.c tools/rng.h $(SANLIB) $(LIBHDR)
	@mkdir -p $(SANDIR)/bin
	$(SANCC) $(WARN) $(CPPFLAGS) $(SANFLAGS) -o $@ $< $(SANLIB)

# One build and one run of the suite per compiler; both run, and a failure
# of either fails san-check.
san-check: lint
	@st=0; for c in $(SANCCS); do \
		$(MAKE) --no-print-directory -j"$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" \
			san SANCC=$$c || exit 1; \
		echo "san-check: the tests on the $$c sanitizer build ($(BUILD)/san-$$c/bin)"; \
		PATH="$$(pwd)/$(BUILD)/san-$$c/bin:$$(pwd)/pipelines:$$PATH" LC_ALL=C \
			$(SANENV) sh tests/run || { st=1; echo "san-check: $$c: failed"; }; \
	done; exit $$st

# valgrind replaces the C library's malloc only in a dynamically linked
# program: the tools it runs are built so, in $(VGDIR).
VGDIR = $(BUILD)/dyn
valgrind: $(TOOLS:%=$(VGDIR)/bin/%)
	@VGBIN="$$(pwd)/$(VGDIR)/bin" sh tests/valgrind "$(SHARED)" $(TOOLS)

$(VGDIR)/bin/%: cmd/%.c $(LIBA) $(LIBHDR)
	@mkdir -p $(VGDIR)/bin
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

$(VGDIR)/bin/hamq $(VGDIR)/bin/fpcluster: LDLIBS += -pthread

fuzz-build: $(FUZZ:%=$(FUZZDIR)/%)

$(FUZZDIR)/%: fuzz/%.c fuzz/fuzz.c fuzz/fuzz.h $(LIBSRC) $(LIBHDR) $(TOOLS:%=cmd/%.c)
	@mkdir -p $(FUZZDIR)
	$(FUZZCC) $(WARN) $(CPPFLAGS) $(FUZZFLAGS) -o $@ $< fuzz/fuzz.c $(LIBSRC)

fuzz: fuzz-build
	@sh fuzz/run $(FUZZDIR) $(FUZZ_SECONDS) $(FUZZ)

# A few seconds each, for CI.
fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=4

.PHONY: san san-check valgrind fuzz-build fuzz fuzz-smoke
