/* cli: the board list and the comment block every command writes alike. */
#include "cli.h"

#include "config.h"

const char *cli_boards(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; cfg_preset_name(i); i++) {
        int n = snprintf(buf + at, len - at, "%s%s", i ? " " : "", cfg_preset_name(i));
        if (n < 0 || (size_t)n >= len - at)
            break;
        at += (size_t)n;
    }
    return buf;
}

void cli_commented(FILE *f, const char *text)
{
    fputs("# ", f);
    for (const char *p = text; *p; p++) {
        fputc(*p, f);
        if (*p == '\n' && p[1])
            fputs("# ", f);
    }
}
