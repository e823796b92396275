#!/usr/bin/env python3
# genentities.py: write lib/html_entities.c, the table of HTML5 named
# character references, from Python's html.entities.html5 (the WHATWG list).
#	python3 tools/genentities.py >lib/html_entities.c
import html.entities

names = sorted(html.entities.html5)
print("/*")
print(" * html_entities.c: the HTML5 named character references, sorted by name")
print(" * (as bytes), from Python's html.entities.html5. Generated, do not edit:")
print(" *\tpython3 tools/genentities.py >lib/html_entities.c")
print(" */")
print('#include "html_entities.h"')
print()
print("const struct entity entities[] = {")
for n in names:
    v = html.entities.html5[n].encode("utf-8")
    print('\t{"%s", "%s"},' % (n, "".join("\\x%02x" % b for b in v)))
print("};")
print()
print("const size_t nentities = sizeof entities / sizeof entities[0];")
print("const size_t entity_maxlen = %d;" % max(len(n) for n in names))
print("const size_t entity_maxlegacy = %d;" % max(len(n) for n in names if not n.endswith(";")))
