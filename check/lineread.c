/* lineread: one bounded line (lineread.h). */
#include "lineread.h"

enum line_status line_read(FILE *f, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    enum line_status st = LINE_OK;
    for (int c; (c = getc(f)) != EOF;) {
        if (n + 1 >= cap) {
            st = LINE_LONG;
            break;
        }
        buf[n++] = (char)c;
        if (c == '\n')
            break;
        if (c == 0) {
            st = LINE_NUL;
            break;
        }
    }
    buf[n] = 0;
    *len = n;
    if (st != LINE_OK)
        return st;
    if (ferror(f))
        return LINE_ERROR;
    if (n == 0)
        return LINE_EOF;
    return buf[n - 1] == '\n' ? LINE_OK : LINE_CUT;
}
