#!/usr/bin/env python3
"""mkbench.py OUTDIR: the labelled pages of `make bench-extract`.

Writes OUTDIR/pages (page records "SOURCE/NAME<TAB>HTML") and OUTDIR/gold
(page records "SOURCE/NAME<TAB>main text"), both escaped as in simrec(5).

Sources: real HTML of the Debian doc packages when installed (linux-doc-6.1
Sphinx pages: the text of div[itemprop=articleBody]; python3.11-doc Sphinx
pages: div.body; postgresql-doc-15 DocBook pages: the body's divs but the
navigation header and footer), and generated pages: real paragraphs (from
the kernel's reST sources, or the licenses and READMEs of /usr/share) laid
out as blogs with comments, news pages with related lists and banners,
table layouts, div soup with meaningless classes, articles split across
sibling containers. The gold of a generated page is its paragraphs.
The sample is deterministic (a fixed seed, sorted file lists).
"""
import glob
import gzip
import html
import html.parser
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from goldlib import esc, gold  # noqa: E402

out = sys.argv[1]
NPAGES = int(os.environ.get("BENCH_PAGES", "150"))
# where the doc packages are (another place shows the run without them)
DOCS = os.environ.get("BENCH_DOCS", "/usr/share/doc")
rng = random.Random(20261123)


def sample(files, n):
    files = sorted(files)
    r = random.Random(len(files))
    r.shuffle(files)
    return sorted(files[:n])


records, golds = [], []


def add(name, doc, text):
    if len(text) < 200:
        return
    records.append("%s\t%s" % (name, esc(doc)))
    golds.append("%s\t%s" % (name, esc(text)))


def real(source, root, pattern, match, skipnames=()):
    files = [f for f in glob.glob(root + pattern, recursive=True)
             if os.path.basename(f) not in skipnames]
    for f in sample(files, NPAGES):
        with open(f, encoding="utf-8", errors="replace") as fp:
            doc = fp.read()
        add("%s/%s" % (source, os.path.relpath(f, root)), doc, gold(doc, match))


real("linux", DOCS + "/linux-doc-6.1/html/", "**/*.html",
     lambda t, a: a.get("itemprop") == "articleBody", ("genindex.html", "search.html"))
real("python", DOCS + "/python3.11/html/", "**/*.html",
     lambda t, a: t == "div" and a.get("class") == "body",
     ("genindex.html", "search.html", "genindex-all.html", "py-modindex.html"))
# PostgreSQL: the div right below <body> (class book, chapter, sect1, refentry...)
def pgreal():
    files = glob.glob(DOCS + "/postgresql-doc-15/html/*.html")
    for f in sample(files, NPAGES):
        with open(f, encoding="utf-8", errors="replace") as fp:
            doc = fp.read()
        m = re.search(r'<body[^>]*>\s*<div class="navheader">', doc)
        if not m:
            continue
        def match(tag, a):
            return tag == "div" and a.get("class") in (
                "book", "part", "chapter", "sect1", "sect2", "refentry", "preface",
                "appendix", "index", "reference", "bibliography", "glossary",
                "article", "set", "legalnotice", "sect3", "colophon")
        add("postgres/%s" % os.path.basename(f), doc, gold(doc, match))


pgreal()

# ---- generated pages ----


def paragraphs():
    """Prose paragraphs: kernel reST sources, else licenses and READMEs."""
    files = sorted(glob.glob(DOCS + "/linux-doc-6.1/Documentation/**/*.rst.gz",
                             recursive=True))
    if not files:
        files = sorted(glob.glob("/usr/share/common-licenses/*") +
                       glob.glob(DOCS + "/*/README*"))
    paras = []
    for f in files:
        try:
            op = gzip.open if f.endswith(".gz") else open
            with op(f, "rt", encoding="utf-8", errors="replace") as fp:
                t = fp.read()
        except (OSError, EOFError):
            continue
        for block in re.split(r"\n\s*\n", t):
            lines = block.strip().split("\n")
            p = " ".join(l.strip() for l in lines)
            if len(p) < 120 or len(p) > 1500:
                continue
            if re.search(r"[=~^*`|<>{}\[\]#_]{2}|^[-*+.:0-9]|::|\.\. |\t", p):
                continue
            letters = sum(c.isalpha() or c == " " for c in p)
            if letters < 0.9 * len(p) or not p.endswith("."):
                continue
            paras.append(p)
        if len(paras) > 20000:
            break
    return paras


PARAS = paragraphs()


def words(n):
    p = rng.choice(PARAS).split()
    i = rng.randrange(max(1, len(p) - n))
    return " ".join(p[i:i + n]).strip(".,;:").capitalize()


def sentence():
    s = re.split(r"(?<=\.) ", rng.choice(PARAS))
    return s[0]


def rclass():
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rng.randint(3, 8)))


def cls(meaningful):
    """A class name: the meaningful one, or a random one half the time."""
    return meaningful if rng.random() < 0.5 else rclass()


def h(s):
    return html.escape(s, quote=False)


def links(n, li=True):
    items = ['<a href="/%s">%s</a>' % (rclass(), h(words(rng.randint(1, 4)))) for _ in range(n)]
    if li:
        return "<ul>" + "".join("<li>%s</li>" % i for i in items) + "</ul>"
    return " | ".join(items)


def teasers(n):
    return "".join('<li><a href="/%s">%s</a><p>%s</p></li>' % (rclass(), h(words(rng.randint(5, 10))),
                   h(sentence()[:140])) for _ in range(n))


def head(title):
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>%s | Site</title>'
            '<script>window.dataLayer=[];function g(){return "<p>not text</p>"}</script>'
            '<style>.a{color:red}</style></head>\n' % h(title))


def linked(p):
    """The paragraph's HTML, with a few of its words in links now and then."""
    w = h(p).split(" ")
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(w))
            k = min(len(w), i + rng.randint(1, 4))
            w[i:k] = ['<a href="/%s">%s</a>' % (rclass(), " ".join(w[i:k]))]
    return " ".join(w)


def body_paras(paras, subheads=True):
    out = []
    for i, p in enumerate(paras):
        if subheads and i > 0 and rng.random() < 0.12:
            hd = words(rng.randint(2, 6))
            out.append(("<h2>%s</h2>" % h(hd), hd))
        out.append(("<p>%s</p>" % linked(p), p))
        if rng.random() < 0.08:
            out.append(('<figure><img src="/i.jpg" alt="x"><figcaption>%s</figcaption></figure>'
                        % h(words(6)), None))
    return out


def article_parts(n):
    ps = [rng.choice(PARAS) for _ in range(n)]
    return body_paras(ps)


def cookie():
    return ('<div class="%s" id="%s"><p>We use cookies to improve your experience on our site. By continuing '
            'to browse you agree to our use of cookies and our privacy policy, which explains how '
            'we collect data.</p><button>Accept</button></div>' % (cls("cookie-banner"), rclass()))


def share():
    return '<div class="%s">Share: %s</div>' % (cls("share-buttons"), links(4, False))


def footer():
    return ('<footer class="%s"><p>Copyright 2024 %s. All rights reserved.</p>%s<p>%s</p></footer>'
            % (cls("site-footer"), h(words(2)), links(6), h(sentence())))


def blog():
    title = words(6)
    parts = article_parts(rng.randint(3, 14))
    comments = "".join('<div class="%s"><span class="%s">%s</span> said:<p>%s</p><a href="#">Reply</a></div>'
                       % (cls("comment"), cls("author"), h(words(2)), h(sentence()))
                       for _ in range(rng.randint(0, 8)))
    body = "\n".join(x for x, _ in parts)
    doc = (head(title) + '<body><div class="%s"><h1 class="%s"><a href="/">%s</a></h1>%s</div>\n'
           % (cls("header"), cls("site-title"), h(words(2)), links(6)) +
           '<div class="%s"><div class="%s"><h2>%s</h2><div class="%s">Posted on May 3 by %s</div>'
           '<div class="%s">%s</div>%s<div class="%s">Tags: %s</div></div>\n'
           % (cls("main"), cls("post"), h(title), cls("meta"), h(words(2)), cls("entry-content"),
              body, share(), cls("tags"), links(3, False)) +
           '<div id="%s"><h3>%d Comments</h3>%s<form><textarea>Leave a reply</textarea><input type=submit></form></div></div>\n'
           % (cls("comments"), 3, comments) +
           '<div class="%s"><h3>Recent posts</h3>%s<h3>About</h3><p>%s</p></div>%s</body></html>'
           % (cls("sidebar"), links(8), h(sentence()), footer()))
    return doc, "\n\n".join(t for _, t in parts if t)


def news():
    title = words(8)
    parts = article_parts(rng.randint(4, 20))
    # the body split across sibling containers, with boxes between them
    chunks, cur = [], []
    for x in parts:
        cur.append(x)
        if rng.random() < 0.3:
            chunks.append(cur)
            cur = []
    if cur:
        chunks.append(cur)
    bodyc = cls("article-body")
    inner = []
    for c in chunks:
        inner.append('<div class="%s">%s</div>' % (bodyc, "".join(x for x, _ in c)))
        r = rng.random()
        if r < 0.3:
            inner.append('<div class="%s"><h4>Related</h4><ul>%s</ul></div>' % (cls("related"), teasers(3)))
        elif r < 0.5:
            inner.append('<div class="%s"><span>Advertisement</span><iframe src="/ad"></iframe></div>' % cls("ad-slot"))
    doc = (head(title) + '<body>%s<header class="%s"><div class="%s">%s</div><nav>%s</nav></header>'
           % (cookie() if rng.random() < 0.6 else "", cls("masthead"), cls("logo"), h(words(2)), links(9)) +
           '<div class="%s">%s</div>' % (cls("breadcrumb"), links(3, False)) +
           '<main><article><h1>%s</h1><p class="%s">%s</p><div class="%s">By %s, %s</div>%s%s</article>'
           % (h(title), cls("standfirst"), h(sentence()[:150]), cls("byline"), h(words(2)), "June 4, 2024",
              "".join(inner), share()) +
           '<section class="%s"><h2>More stories</h2><ul>%s</ul></section></main>'
           % (cls("more-stories"), teasers(rng.randint(3, 8))) +
           '<div class="%s"><h3>Most read</h3><ol>%s</ol></div>' % (cls("most-read"), teasers(5)) +
           '<div class="%s"><p>Sign up for our newsletter to get the latest news in your inbox every morning.</p>'
           '<form><input type=email><button>Subscribe</button></form></div>' % cls("newsletter") +
           footer() + '</body></html>')
    return doc, "\n\n".join(t for _, t in parts if t)


def wordpress():
    title = words(7)
    parts = article_parts(rng.randint(3, 16))
    body = "".join(x for x, _ in parts)
    widgets = "".join('<section id="%s" class="widget %s"><h2 class="widget-title">%s</h2>%s</section>'
                      % (rclass(), cls("widget_recent_entries"), h(words(2)), links(5))
                      for _ in range(rng.randint(2, 4)))
    comments = "".join('<li class="comment"><article class="comment-body"><footer class="comment-meta">%s says:</footer>'
                       '<div class="comment-content"><p>%s</p></div><div class="reply"><a>Reply</a></div></article></li>'
                       % (h(words(2)), h(sentence())) for _ in range(rng.randint(0, 6)))
    side = '<aside id="secondary" class="widget-area">%s</aside>' % widgets
    doc = (head(title) + '<body class="post-template-default single single-post"><div id="page" class="site">'
           '<a class="skip-link screen-reader-text" href="#content">Skip to content</a>'
           '<header id="masthead" class="site-header"><p class="site-title"><a href="/">%s</a></p>'
           '<p class="site-description">%s</p><nav id="site-navigation" class="main-navigation">%s</nav></header>'
           '<div id="content" class="site-content">%s<div id="primary" class="content-area"><main id="main" class="site-main">'
           '<article id="post-%d" class="post-%d post type-post status-publish"><header class="entry-header">'
           '<h1 class="entry-title">%s</h1><div class="entry-meta"><span class="posted-on">Posted on May 4</span>'
           '<span class="byline"> by %s</span></div></header><div class="entry-content">%s'
           '<div class="sharedaddy sd-sharing-enabled"><h3 class="sd-title">Share this:</h3>%s</div></div>'
           '<footer class="entry-footer"><span class="cat-links">Posted in %s</span></footer></article>'
           '<nav class="navigation post-navigation"><a>%s</a><a>%s</a></nav>'
           '<div id="comments" class="comments-area"><h2 class="comments-title">%d thoughts on %s</h2><ol class="comment-list">%s</ol>'
           '<div id="respond"><h3>Leave a Reply</h3><form><p>Your email address will not be published.</p><textarea></textarea></form></div></div>'
           '</main></div>%s</div><footer id="colophon" class="site-footer"><div class="site-info">Proudly powered by WordPress</div></footer></div></body></html>'
           % (h(words(2)), h(words(5)), links(6), side if rng.random() < 0.3 else "", rng.randint(1, 999), 7, h(title),
              h(words(2)), body, links(4), h(words(1)), h(words(5)), h(words(5)), 3, h(title), comments,
              side if rng.random() < 0.7 else ""))
    return doc, "\n\n".join(t for _, t in parts if t)


def tables():
    title = words(6)
    ps = [rng.choice(PARAS) for _ in range(rng.randint(3, 12))]
    body = "<br><br>\n".join(h(p) for p in ps)
    doc = ('<html><head><title>%s</title></head><body bgcolor=white><table width=100%%><tr><td colspan=3>'
           '<font size=5>%s</font></td></tr><tr><td width=150 valign=top>%s</td><td valign=top>'
           '<font face=arial><b>%s</b><br><br>%s</font></td><td width=150 valign=top><font size=1>%s<br>%s</font></td></tr>'
           '<tr><td colspan=3><font size=1>%s | Copyright %s</font></td></tr></table></body></html>'
           % (h(title), h(words(3)), links(10, False).replace(" | ", "<br>"), h(title), body,
              h(sentence()), links(5, False), links(5, False), h(words(2))))
    return doc, "\n\n".join(ps)


def soup():
    title = words(7)
    ps = [rng.choice(PARAS) for _ in range(rng.randint(3, 15))]
    c = [rclass() for _ in range(8)]
    nav = "".join('<div class="%s"><a href="/%s">%s</a></div>' % (c[0], rclass(), h(words(2))) for _ in range(8))
    side = "".join('<div class="%s"><a href="/%s">%s</a><div class="%s">%s</div></div>'
                   % (c[1], rclass(), h(words(6)), c[2], h(sentence()[:100])) for _ in range(rng.randint(3, 7)))
    body = "".join('<div class="%s">%s</div>' % (c[3], h(p)) for p in ps)
    doc = ('<!doctype html><html><head><title>%s</title></head><body><div class="%s"><div class="%s">%s</div>'
           '<div class="%s"><div class="%s"><div class="%s">%s</div>%s</div><div class="%s">%s</div></div>'
           '<div class="%s">%s %s</div></div></body></html>'
           % (h(title), c[4], c[5], nav, c[6], c[7], c[5], h(title), body, c[6], side, c[2],
              h(sentence()), links(5, False)))
    return doc, "\n\n".join(ps)


def forum():
    title = words(6)
    posts = [[rng.choice(PARAS) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(2, 6))]
    pc = cls("post")
    body = "".join('<div class="%s"><div class="%s"><a href="/u/%s">%s</a><br>Posts: %d</div>'
                   '<div class="%s">%s</div><div class="%s">%s</div></div>'
                   % (pc, cls("user-info"), rclass(), h(words(1)), rng.randint(1, 900), cls("message"),
                      "".join("<p>%s</p>" % h(p) for p in ps), cls("signature"), h(words(6)))
                   for ps in posts)
    doc = (head(title) + '<body><div class="%s">%s</div><h1>%s</h1><div class="%s">%s</div>%s'
           '<div class="%s">Pages: %s</div>%s</body></html>'
           % (cls("navbar"), links(7), h(title), cls("thread"), body, "", cls("pagination"),
              links(5, False), footer()))
    return doc, "\n\n".join("\n\n".join(ps) for ps in posts)


if PARAS:
    for kind, fn in (("blog", blog), ("news", news), ("wordpress", wordpress), ("tables", tables), ("soup", soup), ("forum", forum)):
        for i in range(NPAGES // 3):
            doc, text = fn()
            add("%s/%03d" % (kind, i), doc, text)

with open(os.path.join(out, "pages"), "w", encoding="utf-8", errors="surrogateescape") as fp:
    fp.write("".join(r + "\n" for r in records))
with open(os.path.join(out, "gold"), "w", encoding="utf-8", errors="surrogateescape") as fp:
    fp.write("".join(g + "\n" for g in golds))
