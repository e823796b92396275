#!/usr/bin/env python3
"""stability.py [SET [HTMLTEXT [GROUP]]]: how much the main text htmltext
keeps moves when a page is edited a little (issue 18: "reordering 3
paragraphs changed the kept share from 93% to 13%").

For each page of GROUP (TUNE, HELD or all; default TUNE) of the held-out
extraction set SET (default build/heldout, bench/heldout-data.sh): the
page as it is, NR copies (default 3) with three paragraphs of its main
text rotated (<p> elements of 60 characters or more whose text is in the
gold: rotating a paragraph of the site's menu into the text changes what
the main text is), and NI copies (default 1) with 5% of the words
inserted, as mkheldout.py's edit() does. The kept share is the share of
the gold's tokens (a multiset) in htmltext's output; for each edit, the
change of the kept share against the page as it is. Prints per kind the
edits, the mean change, and how many changed by more than 0.05 and 0.2;
SHOW=N lists the N largest.
"""
import ast
import collections
import os
import random
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
setdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "build", "heldout")
htmltext = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "bin", "htmltext")
group = sys.argv[3] if len(sys.argv) > 3 else "TUNE"
NR = int(os.environ.get("NR", "3"))
NI = int(os.environ.get("NI", "1"))

# mkheldout.py's edit(), rotate3() and its tokens, without running its main()
tree = ast.parse(open(os.path.join(here, "mkheldout.py")).read())
keep = [n for n in tree.body if (isinstance(n, ast.FunctionDef) and n.name in ("edit", "rotate3")) or
        (isinstance(n, ast.Assign) and any(getattr(t, "id", "") in ("CJK", "TOKEN") for t in n.targets))]
mk = {"re": re}
exec(compile(ast.Module(body=keep, type_ignores=[]), "mkheldout.py", "exec"), mk)
UNESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\"}


def unesc(s):
    return re.sub(r"\\(.)", lambda m: UNESC.get(m.group(1), m.group(1)), s)


def esc(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r").replace("\0", "\\0"))


def records(data):
    d = {}
    for line in data.splitlines():
        k, _, v = line.partition("\t")
        d[k] = v
    return d


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return records(f.read())


def norm(t):
    return " ".join(t.split())


def rotate(doc, gold, rng):
    """Rotate three paragraphs of the main text; None if it has under four."""
    g = norm(gold)
    ps = []
    for m in re.finditer(r"<p\b[^>]*>.*?</p>", doc, re.S):
        t = norm(re.sub(r"<[^>]*>", "", m.group(0)))
        if len(t) >= 60 and t[:60] in g:
            ps.append(m)
    if len(ps) < 4:
        return None
    return mk["rotate3"](doc, ps, rng)


def tokens(s):
    return collections.Counter(w.lower() for w in mk["TOKEN"].findall(unesc(s)) if w[0] != "&")


grp = dict(line.split("\t")[:2] for line in open(os.path.join(setdir, "sources.tsv")))
pages = read(os.path.join(setdir, "extract", "pages"))
gold = read(os.path.join(setdir, "extract", "gold"))
ids = [k for k in pages if k in gold and group in ("all", grp.get(k.split("/")[0]))]
variants = [("orig", 0)] + [("reorder", s) for s in range(NR)] + [("insert5", s) for s in range(NI)]
inp = []
for k in ids:
    doc = unesc(pages[k])
    for how, seed in variants:
        rng = random.Random("%s%s%d" % (k, how, seed))
        d = doc if how == "orig" else rotate(doc, unesc(gold[k]), rng) if how == "reorder" \
            else mk["edit"](doc, "insert", 5, rng)
        if d is not None:
            inp.append("%s#%s%d\t%s\n" % (k, how, seed, esc(d)))
r = subprocess.run([htmltext], input="".join(inp).encode("utf-8", "surrogateescape"),
                   stdout=subprocess.PIPE, check=True)
out = records(r.stdout.decode("utf-8", "surrogateescape"))
res = collections.defaultdict(list)
for k in ids:
    g = tokens(gold[k])
    n = sum(g.values()) or 1
    share = {}
    for how, seed in variants:
        key = "%s#%s%d" % (k, how, seed)
        if key in out:
            share[how, seed] = sum((tokens(out[key]) & g).values()) / n
    for (how, seed), s in share.items():
        if how != "orig":
            res[how].append((abs(s - share["orig", 0]), k, share["orig", 0], s))
for how in ("reorder", "insert5"):
    v = res[how]
    if not v:
        continue
    print("%s %s: %d edits, mean change %.4f, over 0.05: %d, over 0.2: %d, max %.3f" % (
        group, how, len(v), sum(x[0] for x in v) / len(v), sum(x[0] > 0.05 for x in v),
        sum(x[0] > 0.2 for x in v), max(x[0] for x in v)))
    for x in sorted(v, reverse=True)[:int(os.environ.get("SHOW", "0"))]:
        print("   %.3f %s %.3f -> %.3f" % x)
