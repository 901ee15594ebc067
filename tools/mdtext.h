/* mdtext: a string from outside irqsim (a JSON, a command line, a kernel's
 * halt text) pasted into a Markdown review comment. */
#ifndef IRQSIM_MDTEXT_H
#define IRQSIM_MDTEXT_H

#include <stdio.h>

/* Where in the Markdown the string goes. */
enum md_ctx {
    MD_TEXT, /* running text (a table cell too) */
    MD_CODE, /* a code span: md_paste writes its backticks */
};

/* The one way a foreign string reaches Markdown: s as it reads, with no
 * markup of its own (no HTML, image, link, emphasis, heading, table cell
 * break, @mention or autolinked URL) and control characters as spaces. */
void md_paste(FILE *out, const char *s, enum md_ctx ctx);

#endif
