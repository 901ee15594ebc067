/* cli: the board list every command gives alike. */
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
