/* extract.c: the main content of a parsed page (html.h). */
#include "html.h"

void
html_extract(struct html *h, struct obuf *out)
{
	html_all(h, out);
}
