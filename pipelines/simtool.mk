# simtool.mk: the simtool pipeline as make rules over named intermediate
# files, for batch jobs that keep and inspect every stage and rerun only
# what changed. Run it in the directory that holds the inputs:
#
#	make -f simtool.mk N=1000 M=16
#
# Intermediates live in $(W): the article pages' counts of every word and
# their sums serve every N; a new M reuses the per-page counts, a new N
# recounts only the sample pages. result.txt is the same as simtool(1) writes.

N = 1000
M = 16
D = 3
W = simtool.work
STOPWORDS = stopwords.txt
HASHES = hashvalue.txt
ARTICLES = article.txt
SAMPLES = sample.txt
RESULT = result.txt

# Every target is written to a temporary name, then renamed: none is ever
# half-written. A directory in a target's place is an error (mv would hide
# the file inside it).
SAVE = >$@.tmp && { test ! -d $@ || { echo "$@: is a directory" >&2; false; }; } && \
	mv -f $@.tmp $@ || { rm -f $@.tmp; exit 1; }

all: $(RESULT)

$(W)/article.rec: $(ARTICLES)
	@mkdir -p $(W)
	docsplit $(ARTICLES) $(SAVE)

$(W)/sample.rec: $(SAMPLES)
	@mkdir -p $(W)
	docsplit $(SAMPLES) $(SAVE)

# The counts are written by wordfreq -T beside their name, then renamed.
$(W)/article.pages: $(W)/article.rec $(STOPWORDS)
	wordfreq -p -T $(W)/counts -s $(STOPWORDS) $(W)/article.rec $(SAVE)

$(W)/counts: $(W)/article.pages

$(W)/features-$(N): $(W)/counts
	topn $(N) $(W)/counts $(SAVE)

$(W)/sample.pages-$(N): $(W)/sample.rec $(W)/features-$(N) $(STOPWORDS)
	wordfreq -p -s $(STOPWORDS) -v $(W)/features-$(N) $(W)/sample.rec $(SAVE)

$(W)/article.fp-$(N)-$(M): $(W)/article.pages $(W)/features-$(N) $(HASHES)
	fphash -f $(W)/features-$(N) -m $(M) -n $(N) -t $(HASHES) $(W)/article.pages $(SAVE)

$(W)/sample.fp-$(N)-$(M): $(W)/sample.pages-$(N) $(W)/features-$(N) $(HASHES)
	fphash -f $(W)/features-$(N) -m $(M) -n $(N) -t $(HASHES) $(W)/sample.pages-$(N) $(SAVE)

$(W)/matches-$(N)-$(M)-$(D): $(W)/article.fp-$(N)-$(M) $(W)/sample.fp-$(N)-$(M)
	hamq -a -d $(D) $(W)/article.fp-$(N)-$(M) $(W)/sample.fp-$(N)-$(M) $(SAVE)

# Always rewritten (it is cheap): result.txt may come from another N or M.
# fmtresult -o replaces it whole, then shows the first sample's block.
$(RESULT): $(W)/matches-$(N)-$(M)-$(D) FORCE
	fmtresult -o $@ -t 1 $(W)/matches-$(N)-$(M)-$(D)

clean:
	rm -rf $(W)

FORCE:
.PHONY: all clean FORCE
