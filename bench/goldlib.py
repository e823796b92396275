"""goldlib.py: the gold text of labelled pages, shared by mkbench.py and
mkheldout.py: esc (the escape of simrec(5)) and gold(doc, match), the text
inside the elements that match(tag, attrs) accepts (True), less those it
marks EXCLUDE, with the structure of blocks as paragraphs.
"""
import html.parser

EXCLUDE = "exclude"


def esc(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
            .replace("\r", "\\r").replace("\0", "\\0"))


BLOCK = {"p", "div", "section", "article", "li", "ul", "ol", "dl", "dt", "dd",
         "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "tr", "blockquote",
         "br", "td", "th", "figure", "figcaption", "aside", "header", "footer"}
SKIP = {"script", "style", "noscript", "template", "title", "svg"}
VOID = {"br", "img", "hr", "meta", "link", "input", "area", "base", "col",
        "embed", "param", "source", "track", "wbr"}


class Gold(html.parser.HTMLParser):
    """The text inside the elements that match(tag, attrs)."""

    def __init__(self, match):
        super().__init__(convert_charrefs=True)
        self.match = match
        self.stack = []     # (tag, inside) of open elements
        self.skip = 0
        self.parts = []
        self.ina = 0
        self.linktext = 0

    def inside(self):
        # the nearest decisive ancestor: EXCLUDE, or a match
        for _, i in reversed(self.stack):
            if i == EXCLUDE:
                return False
            if i:
                return True
        return False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in SKIP:
            self.skip += 1
        if tag in BLOCK and self.inside():
            self.parts.append("\n")
        if tag in VOID:
            return
        if tag == "a":
            self.ina += 1
        self.stack.append((tag, self.match(tag, a)))

    def handle_endtag(self, tag):
        if tag == "a" and self.ina:
            self.ina -= 1
        if tag in SKIP and self.skip:
            self.skip -= 1
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == tag:
                del self.stack[k:]
                break
        if tag in BLOCK and self.inside():
            self.parts.append("\n")

    def handle_data(self, data):
        if self.inside() and not self.skip:
            self.parts.append(data)
            if self.ina:
                self.linktext += len(data.strip())

    def text(self):
        t = "".join(self.parts)
        return "\n\n".join(" ".join(p.split()) for p in t.split("\n") if p.strip())


def gold(doc, match, links=False):
    """The gold text; "" for a page more than half link text (tables of
    contents and indexes are not articles) unless links is true."""
    g = Gold(match)
    g.feed(doc)
    g.close()
    t = g.text()
    if not links and g.linktext > 0.5 * len(t):
        return ""
    return t
