/* mdtext: foreign strings pasted into Markdown (mdtext.h). */
#include "mdtext.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* The longest run of backticks in s. */
static size_t longest_ticks(const char *s)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return best;
}

/* A code span shows its text as written: GitHub renders no HTML, link or
 * mention inside one. Its fence is one backtick longer than any run in s,
 * with a space inside when s starts or ends with a backtick (CommonMark
 * strips one such space each side). */
static void md_code(FILE *out, const char *s)
{
    size_t fence = longest_ticks(s) + 1, n = strlen(s);
    bool pad = n && (s[0] == '`' || s[n - 1] == '`');
    for (size_t i = 0; i < fence; i++)
        fputc('`', out);
    if (pad)
        fputc(' ', out);
    for (; *s; s++)
        fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, out);
    if (pad)
        fputc(' ', out);
    for (size_t i = 0; i < fence; i++)
        fputc('`', out);
}

/* Running text: HTML's characters as entities; every ASCII punctuation
 * character that starts Markdown markup (emphasis, code, links, images,
 * headings, table cells, strikethrough, and the colon of an autolinked
 * URL) escaped by a backslash; an @ followed by a word joiner (U+2060,
 * invisible), since GitHub links @name in the rendered text, after
 * escapes are gone. */
static void md_plain(FILE *out, const char *s)
{
    for (const char *start = s; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        /* an _ inside a word (current_thread) is no emphasis in GFM: kept
         * as it is, so the names irqsim writes read as before */
        if (ch == '_' && s > start && isalnum((unsigned char)s[-1]) && isalnum((unsigned char)s[1])) {
            fputc(ch, out);
            continue;
        }
        if (ch == '<')
            fputs("&lt;", out);
        else if (ch == '>')
            fputs("&gt;", out);
        else if (ch == '&')
            fputs("&amp;", out);
        else if (ch == '@')
            fputs("@&#8288;", out);
        else if (ch < 0x20 || ch == 0x7f)
            fputc(' ', out);
        else if (strchr("\\`*_[]()!#|~:", ch))
            fprintf(out, "\\%c", ch);
        else
            fputc(ch, out);
    }
}

void md_paste(FILE *out, const char *s, enum md_ctx ctx)
{
    if (!s)
        s = "";
    if (ctx == MD_CODE)
        md_code(out, s);
    else
        md_plain(out, s);
}
