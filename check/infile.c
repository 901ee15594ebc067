/* infile: the one loader of a whole input file (infile.h). */
#define _POSIX_C_SOURCE 200809L
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* At most max bytes of fd: max + 1 are asked for, so that a file that has
 * them is too large whatever its size says. */
static char *read_fd(int fd, size_t max, size_t *len, char *why, size_t whylen)
{
    char *buf = malloc(max + 1);
    if (!buf) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    size_t n = 0;
    ssize_t got;
    while (n <= max && (got = read(fd, buf + n, max + 1 - n)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(why, whylen, "read error: %s", strerror(errno));
            free(buf);
            return NULL;
        }
        n += (size_t)got;
    }
    if (n > max) {
        snprintf(why, whylen, "larger than %zu bytes", max);
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

char *infile_read(const char *path, size_t max, unsigned flags, size_t *len, char *why, size_t whylen)
{
    if ((flags & INFILE_STDIN) && strcmp(path, "-") == 0)
        return read_fd(STDIN_FILENO, max, len, why, whylen);
    bool any = flags & INFILE_ANY;
    /* without blocking: a FIFO is refused below, not waited on */
    int fd = open(path, O_RDONLY | O_CLOEXEC | (any ? 0 : O_NONBLOCK));
    if (fd < 0) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    char *buf = NULL;
    if (!any && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)))
        snprintf(why, whylen, "not a regular file");
    else
        buf = read_fd(fd, max, len, why, whylen);
    close(fd);
    return buf;
}
