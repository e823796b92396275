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
import os
import random
import shutil
import sys

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
]
SKIPNAMES = {"genindex.html", "search.html", "404.html", "py-modindex.html"}


def read(f):
    with open(f, encoding="utf-8", errors="replace") as fp:
        return fp.read()


def files(src):
    root = os.path.join(DOCS, src[3])
    fs = [f for f in glob.glob(os.path.join(root, src[4]), recursive=True)
          if os.path.basename(f) not in SKIPNAMES and "/_" not in f[len(root):]
          and "src-html" not in f and "class-use" not in f]
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
    """The share of CJK characters (kana, ideographs) among the letters of t."""
    c = sum(1 for ch in t if "\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff")
    n = sum(1 for ch in t if ch.isalpha())
    return c / n if n else 0


def main():
    os.makedirs(os.path.join(out, "extract"), exist_ok=True)
    pages, golds, labels, have = [], [], [], []
    docs = os.path.join(out, "docs")

    def put(f, name, sub):
        dst = os.path.join(docs, sub, name)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(f, dst)
        return "docs/%s/%s" % (sub, name)

    bylang = {}
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
        cjk = ":cjk" if lang in ("ja", "zh") else ""
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
                labels.append((a, b, 1, "%s:html-src%s" % (name, cjk)))
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
                    labels.append((a, b, 0, "%s:template%s" % (name, cjk)))
        bylang.setdefault(rootrel.split("/")[0] + gen, {})[lang] = (name, root, fs)

    # translations of one page are not near-duplicates (hard negatives)
    def trans(a, b, key, sel):
        na, ra, fa = a
        nb, rb, fb = b
        ka = {pagekey(f, ra): f for f in fa}
        kb = {pagekey(f, rb): f for f in fb}
        n = 0
        for k in sample(sorted(set(ka) & set(kb)), 10**6, key):
            if n >= 30:
                break
            # a page left untranslated (English in the translation) is a copy
            if cjkshare(gold(read(kb[k]), sel)) < 0.5:
                continue
            n += 1
            x = put(ka[k], os.path.relpath(ka[k], ra), na + "/html")
            y = put(kb[k], os.path.relpath(kb[k], rb), nb + "/html")
            labels.append((x, y, 0, "%s:translation:cjk" % nb))
    langsets, sels = {}, {}
    for src in have:
        key = src[2] + "|" + src[0].split("-")[0]
        langsets.setdefault(key, {})[src[6]] = (src[0], *files(src))
        sels[key] = src[5]
    for key, ls in sorted(langsets.items()):
        if "en" in ls:
            for lang in ("ja", "zh"):
                if lang in ls:
                    trans(ls["en"], ls[lang], key + lang, sels[key])

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
