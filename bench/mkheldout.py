#!/usr/bin/env python3
"""mkheldout.py OUTDIR: the extraction and pair sets of bench/heldout.sh,
from Debian documentation packages that bench-quality does not use.

Writes OUTDIR/extract/pages and OUTDIR/extract/gold (page records
"SOURCE/NAME<TAB>TEXT", escaped as in simrec(5), as mkbench.py), and
OUTDIR/docs/SOURCE/... with OUTDIR/labels.tsv (paireval(1): ID_A, ID_B,
LABEL, KIND; KIND is SOURCE:KIND, with ":cjk" after it when the pair is
Japanese or Chinese). Sources, their group (TUNE or HELD) and the gold's
selector per generator: the table SOURCES below and bench/README.
Deterministic: fixed seeds, sorted file lists.
"""
import difflib
import glob
import gzip
import os
import random
import re
import shutil
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from goldlib import EXCLUDE, esc, gold  # noqa: E402

out = sys.argv[1]
DOCS = os.environ.get("BENCH_DOCS", "/usr/share/doc")
NPAGES = int(os.environ.get("HELDOUT_PAGES", "80"))


def cls(a):
    return (a.get("class") or "").split()


# The gold selectors, one per generator.
def sphinx(t, a):		# Sphinx basic layout: div.body[role=main]
    return t == "div" and "body" in cls(a) and a.get("role") == "main"


DOCBOOK = {"book", "part", "chapter", "sect1", "section", "preface", "appendix",
           "article", "refentry", "reference", "glossary", "index", "bibliography",
           "qandaset", "colophon"}


def docbook(t, a):		# DocBook XSL and Publican: the article divs, less the toc
    if t == "div" and "toc" in cls(a):
        return EXCLUDE
    return t == "div" and bool(DOCBOOK & set(cls(a)))


def asciidoc(t, a):		# AsciiDoc: div#content
    return t == "div" and a.get("id") == "content"


def texinfo(t, a):		# makeinfo HTML: the body less the navigation panels
    if t == "div" and ({"header", "nav-panel"} & set(cls(a))):
        return EXCLUDE
    return t == "body"


def mkdocs(t, a):		# mkdocs theme: div[role=main]
    return t == "div" and a.get("role") == "main"


def javadoc(t, a):		# javadoc 11+: main[role=main]
    return t == "main"


def doxygen(t, a):		# Doxygen: div.header (the title) and div.contents
    return t == "div" and bool({"headertitle", "contents"} & set(cls(a)))


def gidocgen(t, a):		# gi-docgen: section#main
    return t == "section" and a.get("id") == "main"


def rustdoc(t, a):		# rustdoc: section#main-content, less the lists of
    if t == "div" and a.get("id", "").endswith("-implementations-list"):
        return EXCLUDE		# trait impls every type shares
    return t == "section" and a.get("id") == "main-content"


# name, group, generator, root, glob, selector, language, sources dir (for pairs)
SOURCES = [
    ("sphinx", "TUNE", "Sphinx (sphinx13 theme)", "sphinx-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("flask", "TUNE", "Sphinx (pallets theme)", "python-flask-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("cmake", "TUNE", "Sphinx (cmake theme)", "cmake-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("faq", "TUNE", "DocBook XSL (debian-faq)", "debian/FAQ", "*.en.html", docbook, "en", None),
    ("maint", "TUNE", "DocBook XSL (maint-guide)", "maint-guide/html", "*.en.html", docbook, "en", None),
    ("maint-ja", "TUNE", "DocBook XSL (maint-guide)", "maint-guide-ja/html", "*.ja.html", docbook, "ja", None),
    ("jsoncpp", "TUNE", "Doxygen", "libjsoncpp-doc", "*.html", doxygen, "en", None),
    ("junit", "TUNE", "javadoc", "junit4-doc/doc/javadoc_40/org", "**/*.html", javadoc, "en", None),
    ("handbook", "HELD", "Publican", "debian-handbook/html/en-US", "*.html", docbook, "en", None),
    ("handbook-ja", "HELD", "Publican", "debian-handbook/html/ja-JP", "*.html", docbook, "ja", None),
    ("handbook-zh", "HELD", "Publican", "debian-handbook/html/zh-CN", "*.html", docbook, "zh", None),
    ("dref", "HELD", "DocBook XSL (debian-reference)", "debian-reference-common/docs", "*.en.html", docbook, "en", None),
    ("dref-ja", "HELD", "DocBook XSL (debian-reference)", "debian-reference-common/docs", "*.ja.html", docbook, "ja", None),
    ("dref-zh", "HELD", "DocBook XSL (debian-reference)", "debian-reference-common/docs", "*.zh-cn.html", docbook, "zh", None),
    ("maint-zh", "HELD", "DocBook XSL (maint-guide)", "maint-guide-zh-cn/html", "*.zh-cn.html", docbook, "zh", None),
    ("llvm", "HELD", "Sphinx (llvm theme)", "llvm-14-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("devref", "HELD", "Sphinx (classic)", "developers-reference/docs", "*.html", sphinx, "en", "_sources"),
    ("devref-ja", "HELD", "Sphinx (classic)", "developers-reference-ja/docs", "*.html", sphinx, "ja", "_sources"),
    ("requests", "HELD", "Sphinx (alabaster)", "python-requests-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("click", "HELD", "Sphinx (pallets theme)", "python-click-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("jinja", "HELD", "Sphinx (pallets theme)", "python-jinja2-doc/html", "**/*.html", sphinx, "en", "_sources"),
    ("git", "HELD", "AsciiDoc", "git-doc", "*.html", asciidoc, "en", None),
    ("mkdocs", "HELD", "mkdocs", "mkdocs/html", "**/*.html", mkdocs, "en", None),
    ("gcrypt", "HELD", "texinfo (makeinfo HTML)", "libgcrypt20-doc/html", "*.html", texinfo, "en", None),
    ("glib", "TUNE", "gtk-doc", "libglib2.0-doc/glib", "*.html", docbook, "en", None),
    ("gio", "HELD", "gtk-doc", "libglib2.0-doc/gio", "*.html", docbook, "en", None),
    ("json-glib", "TUNE", "gi-docgen", "json-glib-1.0", "*.html", gidocgen, "en", None),
    ("pixbuf", "HELD", "gi-docgen", "libgdk-pixbuf2.0-doc/html/gdk-pixbuf", "*.html", gidocgen, "en", None),
    ("syn", "HELD", "rustdoc", "cargo/doc/syn", "**/*.html", rustdoc, "en", None),
]
SKIPNAMES = {"genindex.html", "search.html", "404.html", "py-modindex.html"}


def read(f):
    with open(f, encoding="utf-8", errors="replace") as fp:
        return fp.read()


def files(src):
    root = os.path.join(DOCS, src[3])
    fs = [f for f in glob.glob(os.path.join(root, src[4]), recursive=True)
          if os.path.basename(f) not in SKIPNAMES and "/_" not in f[len(root):]
          and "src-html" not in f and "class-use" not in f
          and os.path.getsize(f) >= 1024]	# redirects
    return root, sorted(fs)


def sample(fs, n, seed):
    fs = list(fs)
    random.Random(seed).shuffle(fs)
    return sorted(fs[:n])


def pagekey(f, root):
    """The page's path less its language: ch01.en.html and ch01.ja.html are one."""
    k = os.path.relpath(f, root)[:-5]
    for lang in (".en", ".ja", ".zh-cn"):
        if k.endswith(lang):
            return k[:-len(lang)]
    return k


def cjkshare(t):
    """The share of CJK characters among the tokens of t (tokens(): a word
    or a CJK character): a Japanese or Chinese page has most, one in
    English few."""
    w = tokens(t)
    return sum(1 for x in w if len(x) == 1 and CJKRE.match(x)) / len(w) if w else 0

GOLD = {}
ORIGIN = {}	# a document of the set: the file it is a copy of


def goldof(f, sel):
    """The gold text of file f (all of it for plain text), with link text."""
    if (f, sel) not in GOLD:
        GOLD[f, sel] = gold(read(f), sel, links=True) if sel else read(f)
    return GOLD[f, sel]


CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
TOKEN = re.compile(r"&#?\w+;|[%s]|[^\W_%s]+" % (CJK, CJK))
CJKRE = re.compile("[%s]" % CJK)


def tokens(t):
    """Words (lower case, letters and digits) and single CJK characters."""
    return [w.lower() for w in TOKEN.findall(t) if w[0] != "&"]


def shingles(t):
    w = tokens(t)
    return {tuple(w[i:i + 5]) for i in range(max(1, len(w) - 4))} if w else set()


def jaccard(a, b):
    """0 when a side is empty: pages without text are not copies."""
    return len(a & b) / len(a | b) if a and b else 0


# Controlled edits of a page, in the text between its tags (not inside
# script or style): replace, delete or insert a share of the words (CJK:
# characters) with words of the same page, or rotate three paragraphs.
EDITS = [("replace", 3), ("delete", 5), ("insert", 5), ("replace", 8), ("reorder", 0)]


def rotate3(doc, ps, rng):
    """Rotate three of the paragraphs ps (matches in doc), chosen by rng."""
    k = sorted(rng.sample(range(len(ps)), 3))
    body = [ps[i].group(0) for i in k]
    body = body[1:] + body[:1]
    for i, b in sorted(zip(k, body), reverse=True):
        doc = doc[:ps[i].start()] + b + doc[ps[i].end():]
    return doc


def edit(doc, how, pct, rng):
    if how == "reorder":
        ps = list(re.finditer(r"<p\b[^>]*>.*?</p>", doc, re.S))
        if len(ps) >= 4:
            return rotate3(doc, ps, rng)
        how, pct = "replace", 5
    parts = re.split(r"(<[^>]*>)", doc)
    vocab, skip = [], False
    spots = []
    for i, p in enumerate(parts):
        if p.startswith("<"):
            t = p[1:].split(None, 1)[0].lower() if len(p) > 2 else ""
            if t in ("script", "style"):
                skip = True
            elif t in ("/script", "/style"):
                skip = False
            continue
        if skip:
            continue
        for m in TOKEN.finditer(p):
            if m.group(0)[0] != "&":
                vocab.append(m.group(0))
                spots.append((i, m.start(), m.end()))
    if not vocab:
        return doc
    chosen = [x for x in spots if rng.random() < pct / 100]
    for i, a, b in reversed(chosen):
        w = parts[i][a:b]
        sep = "" if re.match("[%s]" % CJK, w) else " "
        if how == "replace":
            w = rng.choice(vocab)
        elif how == "delete":
            w = ""
        else:
            w = w + sep + rng.choice(vocab)
        parts[i] = parts[i][:a] + w + parts[i][b:]
    return "".join(parts)


def chapters(txt):
    """A DocBook book's plain-text rendering cut at its chapter and appendix
    headings: {heading less blanks: text}."""
    lines = txt.splitlines(keepends=True)
    head = re.compile(r"^(Chapter\s\d+\.|Appendix\s[A-Z]\.|第\s?\d+\s?章|附录\s[A-Z]\.|付録\s?[A-Z]\.)")
    cut = [i for i, l in enumerate(lines) if head.match(l)]
    out = {}
    for j, i in enumerate(cut):
        end = cut[j + 1] if j + 1 < len(cut) else len(lines)
        out["".join(lines[i].split())] = "".join(lines[i:end])
    return out


# Plain-text renderings that the packages ship, cut into chapters and
# paired with the chapter's page (matched by its heading, the first line of
# its gold): source, the .txt.gz under DOCS.
TEXTS = [("dref", "debian-reference-common/docs/debian-reference.en.txt.gz"),
         ("dref-ja", "debian-reference-common/docs/debian-reference.ja.txt.gz"),
         ("dref-zh", "debian-reference-common/docs/debian-reference.zh-cn.txt.gz"),
         ("maint", "maint-guide/maint-guide.en.txt.gz"),
         ("maint-zh", "maint-guide-zh-cn/maint-guide.zh-cn.txt.gz")]
NEDIT = {"en": 6, "ja": 16, "zh": 16}


SAME = 0.5	# gold 5-shingle Jaccard of one text: label 1
GRAY = 0.3	# from here to SAME: neither label (gray.tsv)


def complete(labels, sels):
    """The labels decided by the gold text of both documents (their gold
    for pages, all of a plain-text file), never by a detector's output:
    - a pair made as one text (page and source, text rendering, version,
      edit) whose documents are not of one script (one side's tokens at
      least half CJK, the other's under a tenth) is a translation: 0;
    - the pairs made as one text or as an edit are closed transitively:
      1 (an edited page and the text rendering of the page), but for the
      gray rule below;
    - any pair of the set, labelled or not, whose gold 5-shingle Jaccard
      (tokens(): words, CJK characters) is SAME or more is one text: 1
      (a template or translation pair so is a copy: KIND-copy; one no rule
      made: SOURCE:gold-copy);
    - a pair labelled 0 from GRAY to SAME, and one labelled 1 as one text
      or by closure (not an edit) under GRAY (an API page and its autodoc
      directives, a page made of includes) lose their label: they and the unlabelled pairs
      from GRAY to SAME are gray (gray.tsv: ID_A, ID_B, Jaccard, KIND);
    - ":cjk" is appended to the KIND of a pair with a side at least half
      CJK."""
    ids = sorted(set(x for a, b, _, _ in labels for x in (a, b)) |
                 set("docs/" + os.path.relpath(os.path.join(d, f), os.path.join(out, "docs"))
                     for d, _, fs in os.walk(os.path.join(out, "docs")) for f in fs))
    sh, cs = {}, {}
    for i in ids:
        sel = sels.get(i.split("/")[1]) if i.endswith(".html") else None
        t = goldof(ORIGIN.get(i, os.path.join(out, i)), sel)
        sh[i], cs[i] = shingles(t), cjkshare(t)
    lab = {}
    for a, b, lb, k in labels:
        lab.setdefault(tuple(sorted((a, b))), [lb, k])
    ntr = 0
    for key, v in lab.items():
        a, b = key
        lo, hi = sorted((cs[a], cs[b]))
        if v[0] == 1 and hi >= 0.5 and lo < 0.1:
            v[0], v[1] = 0, v[1].split(":")[0] + ":translation"
            ntr += 1
    # transitive closure of "one text"
    up = {}

    def find(x):
        while up.get(x, x) != x:
            x = up[x]
        return x
    for (a, b), (lb, k) in sorted(lab.items()):
        if lb == 1:
            up[find(a)] = find(b)
    comp = {}
    for x in ids:
        comp.setdefault(find(x), []).append(x)
    nclo = 0
    for c in comp.values():
        for i, a in enumerate(c):
            for b in c[i + 1:]:
                key = tuple(sorted((a, b)))
                if key not in lab:
                    lab[key] = [1, a.split("/")[1] + ":closure"]
                    nclo += 1
    # candidates: a pair sharing one of the 40 least shingles of a side
    low, byh = {}, {}
    for i in ids:
        hs = sorted(zlib.crc32("\x1f".join(x).encode()) for x in sh[i])[:40]
        for h in hs:
            byh.setdefault(h, []).append(i)
    cand = set(lab)
    for h, l in byh.items():
        if len(l) <= 200:
            for j, a in enumerate(l):
                for b in l[j + 1:]:
                    cand.add(tuple(sorted((a, b))))
    nflip = ncopy = nlow = nmid = 0
    gray = []
    for key in sorted(cand):
        a, b = key
        if a == b:
            continue
        j = jaccard(sh[a], sh[b])
        v = lab.get(key)
        if j >= SAME:
            if v is None:
                lab[key] = [1, a.split("/")[1] + ":gold-copy"]
                ncopy += 1
            elif v[0] == 0:
                v[0], v[1] = 1, v[1] + "-copy"
                nflip += 1
        elif (v is None and j >= GRAY or v is not None and v[0] == 0 and j >= GRAY
              or v is not None and v[0] == 1 and ":edit" not in v[1] and j < GRAY):
            # gray, or made as one text and not one by content
            gray.append("%s\t%s\t%.4f\t%s\n" % (a, b, j, v[1] if v else "-"))
            if v is not None:
                nlow += v[0]
                nmid += 1 - v[0]
                del lab[key]
    with open(os.path.join(out, "gray.tsv"), "w") as fp:
        fp.write("".join(gray))
    print("mkheldout: %d pairs made as one text are translations, %d by closure, "
          "%d labelled 0 are copies, %d more copies, %d made as one text are not "
          "(under %.1f), %d labelled 0 are gray, %d gray in all"
          % (ntr, nclo, nflip, ncopy, nlow, GRAY, nmid, len(gray)), file=sys.stderr)
    res = []
    for (a, b), (lb, k) in sorted(lab.items(), key=lambda x: (x[1][1].split(":")[0], x[0])):
        if max(cs[a], cs[b]) >= 0.5:
            k += ":cjk"
        res.append((a, b, lb, k))
    return res


def main():
    os.makedirs(os.path.join(out, "extract"), exist_ok=True)
    pages, golds, labels, have = [], [], [], []
    docs = os.path.join(out, "docs")

    def put(f, name, sub):
        dst = os.path.join(docs, sub, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(f, dst)
        ORIGIN["docs/%s/%s" % (sub, name)] = f
        return "docs/%s/%s" % (sub, name)

    def putdoc(text, name, sub):
        dst = os.path.join(docs, sub, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w", encoding="utf-8") as fp:
            fp.write(text)
        return "docs/%s/%s" % (sub, name)

    bylang, sels = {}, {"llvm15": sphinx}
    for src in SOURCES:
        name, group, gen, rootrel, pat, sel, lang, srcdir = src
        root, fs = files(src)
        if not fs:
            print("mkheldout: %s: no pages under %s, skipped" % (name, root), file=sys.stderr)
            continue
        have.append(src)
        # extraction: pages with a gold of 200 characters or more
        for f in sample(fs, NPAGES, name):
            doc = read(f)
            g = gold(doc, sel)
            if len(g) < 200:
                continue
            rel = os.path.relpath(f, root)
            pages.append("%s/%s\t%s" % (name, rel, esc(doc)))
            golds.append("%s/%s\t%s" % (name, rel, esc(g)))
        rng = random.Random("pairs" + name)
        used = set()
        # a page and its source (Sphinx _sources), of 2 kB or more
        if srcdir:
            cand = []
            for f in fs:
                rel = os.path.relpath(f, root)[:-5]
                for ext in (".rst.txt", ".txt", ".md.txt"):
                    s = os.path.join(root, srcdir, rel + ext)
                    if os.path.exists(s) and os.path.getsize(s) >= 2048:
                        cand.append((f, s, rel + ext))
                        break
            for f, s, rs in sample(cand, 40, name + "src"):
                used.add(f)
                a = put(f, os.path.relpath(f, root), name + "/html")
                b = put(s, rs, name + "/src")
                labels.append((a, b, 1, "%s:html-src" % name))
        if name == "git":	# AsciiDoc: the .txt source beside the page
            cand = [(f, f[:-5] + ".txt") for f in fs
                    if os.path.exists(f[:-5] + ".txt") and os.path.getsize(f[:-5] + ".txt") >= 2048]
            for f, s in sample(cand, 40, "gitsrc"):
                used.add(f)
                a = put(f, os.path.basename(f), "git/html")
                b = put(s, os.path.basename(s), "git/src")
                labels.append((a, b, 1, "git:html-src"))
        # pages of one template: adjacent pages in name order (hard negatives)
        rest = [f for f in fs if f not in used]
        if len(rest) >= 2:
            starts = sorted(rng.sample(range(len(rest) - 1), min(20, len(rest) - 1)))
            for i in starts:
                a = put(rest[i], os.path.relpath(rest[i], root), name + "/html")
                b = put(rest[i + 1], os.path.relpath(rest[i + 1], root), name + "/html")
                if a != b:
                    labels.append((a, b, 0, "%s:template" % name))
        # controlled edits of whole pages (of the language of the source)
        cand = []
        for f in sample(fs, 10**6, name + "edit"):
            if len(cand) >= NEDIT[lang]:
                break
            if f not in used and os.path.getsize(f) <= 200000 and len(goldof(f, sel)) >= 500 and \
                    (cjkshare(goldof(f, sel)) >= 0.5) == (lang in ("ja", "zh")):
                cand.append(f)
        for j, f in enumerate(cand):
            how, pct = EDITS[j % len(EDITS)]
            rel = os.path.relpath(f, root)
            a = put(f, rel, name + "/html")
            b = putdoc(edit(read(f), how, pct, random.Random(name + rel)), rel, name + "/edit")
            labels.append((a, b, 1, "%s:edit-%s%s" % (name, how, pct or "")))
        bylang.setdefault(rootrel.split("/")[0] + gen, {})[lang] = (name, root, fs)
        sels[name] = sel

    # the chapters of a book's plain-text rendering and their pages
    for name, txt in TEXTS:
        src = [x for x in have if x[0] == name]
        if not src or not os.path.exists(os.path.join(DOCS, txt)):
            continue
        root, fs = files(src[0])
        with gzip.open(os.path.join(DOCS, txt), "rt", encoding="utf-8", errors="replace") as fp:
            ch = chapters(fp.read())
        for f in fs:
            g = goldof(f, src[0][5])
            k = "".join(g.split("\n", 1)[0].split())
            if k in ch and len(ch[k]) >= 2048:
                rel = os.path.relpath(f, root)
                a = put(f, rel, name + "/html")
                b = putdoc(ch.pop(k), rel[:-5] + ".txt", name + "/txt")
                labels.append((a, b, 1, "%s:html-txt" % name))

    # translations of one page are not near-duplicates (hard negatives)
    def trans(a, b, key, sel):
        na, ra, fa = a
        nb, rb, fb = b
        ka = {pagekey(f, ra): f for f in fa}
        kb = {pagekey(f, rb): f for f in fb}
        n = m = 0
        for k in sample(sorted(set(ka) & set(kb)), 10**6, key):
            if n >= 30 and m >= 10:
                break
            # a page left untranslated (English in the translation) is a
            # copy: up to 10 of those, labelled 1 by the content rule below
            if cjkshare(goldof(kb[k], sel)) < 0.5:
                if m >= 10:
                    continue
                m += 1
            elif n >= 30:
                continue
            else:
                n += 1
            x = put(ka[k], os.path.relpath(ka[k], ra), na + "/html")
            y = put(kb[k], os.path.relpath(kb[k], rb), nb + "/html")
            labels.append((x, y, 0, "%s:translation" % nb))
    langsets, tsels = {}, {}
    for src in have:
        key = src[2] + "|" + src[0].split("-")[0]
        langsets.setdefault(key, {})[src[6]] = (src[0], *files(src))
        tsels[key] = src[5]
    for key, ls in sorted(langsets.items()):
        if "en" in ls:
            for lang in ("ja", "zh"):
                if lang in ls:
                    trans(ls["en"], ls[lang], key + lang, tsels[key])

    # two releases: llvm 14 and 15, judged on their sources' changed lines
    l14 = os.path.join(DOCS, "llvm-14-doc/html")
    l15 = os.path.join(DOCS, "llvm-15-doc/html")
    if os.path.isdir(l15):
        srcs = sorted(glob.glob(l14 + "/_sources/**/*.rst.txt", recursive=True))
        npos = nneg = 0
        for s in sample(srcs, 400, "llvmver"):
            rel = os.path.relpath(s, l14 + "/_sources")[:-8]
            t = os.path.join(l15, "_sources", rel + ".rst.txt")
            if not os.path.exists(t) or not os.path.exists(os.path.join(l15, rel + ".html")):
                continue
            if os.path.join(l14, rel + ".html") in used:
                continue
            x, y = read(s).splitlines(), read(t).splitlines()
            ch = sum(1 for d in difflib.unified_diff(x, y, n=0, lineterm="")
                     if d[:1] in "+-" and d[:3] not in ("+++", "---"))
            share = ch / max(1, len(x) + len(y))
            lab = 1 if 0 < share <= 0.10 else 0 if 0.30 <= share <= 0.50 else None
            if lab is None or (lab and npos >= 40) or (not lab and nneg >= 20):
                continue
            npos += lab
            nneg += 1 - lab
            a = put(os.path.join(l14, rel + ".html"), rel + ".html", "llvm/html")
            b = put(os.path.join(l15, rel + ".html"), rel + ".html", "llvm15/html")
            labels.append((a, b, lab, "llvm:version"))

    labels = complete(labels, sels)

    with open(os.path.join(out, "extract", "pages"), "w", encoding="utf-8",
              errors="surrogateescape") as fp:
        fp.write("".join(p + "\n" for p in pages))
    with open(os.path.join(out, "extract", "gold"), "w", encoding="utf-8") as fp:
        fp.write("".join(g + "\n" for g in golds))
    with open(os.path.join(out, "labels.tsv"), "w") as fp:
        for a, b, lab, kind in labels:
            fp.write("%s\t%s\t%d\t%s\n" % (a, b, lab, kind))
    with open(os.path.join(out, "sources.tsv"), "w") as fp:
        for src in have:
            fp.write("%s\t%s\t%s\t%s\n" % (src[0], src[1], src[2], src[6]))


main()
