# neardup.mk: neardup(1) as make rules over named intermediate files, kept
# in OUT, so that every stage can be inspected and a changed parameter
# reruns only the stages after it:
#
#	make -f neardup.mk DOCS='dir ...' OUT=dir [E=main K=5 N=128 D=2 M=10 T=0.25]
#
# The stages, and the parameters each depends on (the flags of neardup):
#
#	OUT/pages.rec	docsplit $(SPLIT) $(DOCS)	page records ID<TAB>TEXT
#	OUT/text.rec	htmltext, by E (-e)		the text of each page
#	OUT/sketches	sketch, by K (-k) and N (-n)	sketch records
#	OUT/pairs	simjoin, by D (-d), M (-m),	ID_A<TAB>ID_B<TAB>SIM
#	OUT/clusters	  and T (-t)			ID<TAB>CLUSTER
#	OUT/unique					ID
#
# pairs, clusters and unique are byte for byte what neardup, neardup -c and
# neardup -u write with the same settings. A group of parameters is kept in
# a file (OUT/extract.param, sketch.param, join.param) rewritten only when
# its content changes, so a new T reruns simjoin only and a new K reruns
# sketch and simjoin. The documents are read again on every run (make
# cannot see inside a directory); pages.rec is replaced only when they
# changed, and then everything after it reruns. SPLIT=-j reads JSON Lines.
#
# make -f neardup.mk query Q='new ...' answers new documents against the
# collection, as neardup -q and neardup -u -q against a state made with
# neardup -o: OUT/query.pairs (QUERY<TAB>OTHER<TAB>SIM) and OUT/query.unique,
# through OUT/query.rec, query.text.rec and query.sketches; it says where
# the two results are, on standard output.

DOCS =
Q =
OUT = neardup.work
SPLIT = -uf
E = main
K = 5
N = 128
D = 2
M = 10
T = 0.25

EXTRACT_main = htmltext
EXTRACT_all = htmltext -a
EXTRACT_raw = cat
EXTRACT = $(EXTRACT_$(E))

# Every output is written to a temporary name, then renamed: none is ever
# half-written. A directory in a target's place is an error (mv would hide
# the file inside it).
NODIR = { test ! -d $@ || { echo "$@: is a directory" >&2; rm -f $@.tmp; exit 1; }; }
SAVE = >$@.tmp && $(NODIR) && mv -f $@.tmp $@ || { rm -f $@.tmp; exit 1; }

# UPDATE renames $@.tmp to the target only when it differs from what the
# target holds, so the target's time says when its content last changed;
# PARAM so keeps the values of a group of parameters.
UPDATE = $(NODIR); if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
PARAM = @mkdir -p $(OUT) && echo '$(1)' >$@.tmp && $(UPDATE)

all: $(OUT)/pairs $(OUT)/clusters $(OUT)/unique

$(OUT)/pages.rec: FORCE
	@test -n "$(DOCS)" || { echo "neardup.mk: no documents: set DOCS=" >&2; exit 2; }
	@mkdir -p $(OUT)
	docsplit $(SPLIT) $(DOCS) >$@.tmp || { rm -f $@.tmp; exit 1; }
	@$(UPDATE)

$(OUT)/extract.param: FORCE
	@test -n "$(EXTRACT)" || { echo "neardup.mk: E=$(E) is invalid (main, all or raw)" >&2; exit 2; }
	$(call PARAM,extract $(E))

$(OUT)/sketch.param: FORCE
	$(call PARAM,words $(K) size $(N))

$(OUT)/join.param: FORCE
	$(call PARAM,rarity $(D) minsize $(M) threshold $(T))

$(OUT)/text.rec: $(OUT)/pages.rec $(OUT)/extract.param
	$(EXTRACT) $(OUT)/pages.rec $(SAVE)

$(OUT)/sketches: $(OUT)/text.rec $(OUT)/sketch.param
	sketch -k $(K) -n $(N) $(OUT)/text.rec $(SAVE)

$(OUT)/pairs: $(OUT)/sketches $(OUT)/join.param
	simjoin -d $(D) -m $(M) -t $(T) $(OUT)/sketches $(SAVE)

$(OUT)/clusters: $(OUT)/sketches $(OUT)/join.param
	simjoin -g -d $(D) -m $(M) -t $(T) $(OUT)/sketches $(SAVE)

$(OUT)/unique: $(OUT)/sketches $(OUT)/join.param
	simjoin -u -d $(D) -m $(M) -t $(T) $(OUT)/sketches $(SAVE)

# The results are files the command line did not name: say where.
query: $(OUT)/query.pairs $(OUT)/query.unique
	@echo "neardup.mk: pairs in $(OUT)/query.pairs, new documents in $(OUT)/query.unique"

$(OUT)/query.rec: FORCE
	@test -n "$(Q)" || { echo "neardup.mk: no queries: set Q=" >&2; exit 2; }
	@mkdir -p $(OUT)
	docsplit $(SPLIT) $(Q) >$@.tmp || { rm -f $@.tmp; exit 1; }
	@$(UPDATE)

$(OUT)/query.text.rec: $(OUT)/query.rec $(OUT)/extract.param
	$(EXTRACT) $(OUT)/query.rec $(SAVE)

$(OUT)/query.sketches: $(OUT)/query.text.rec $(OUT)/sketch.param
	sketch -k $(K) -n $(N) $(OUT)/query.text.rec $(SAVE)

$(OUT)/query.pairs: $(OUT)/query.sketches $(OUT)/sketches $(OUT)/join.param
	simjoin -d $(D) -m $(M) -t $(T) -q $(OUT)/query.sketches $(OUT)/sketches $(SAVE)

$(OUT)/query.unique: $(OUT)/query.sketches $(OUT)/sketches $(OUT)/join.param
	simjoin -u -d $(D) -m $(M) -t $(T) -q $(OUT)/query.sketches $(OUT)/sketches $(SAVE)

clean:
	rm -rf $(OUT)

FORCE:
.PHONY: all query clean FORCE
