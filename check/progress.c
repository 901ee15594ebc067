/* progress: one progress printer, in place on a terminal, a line each
 * update elsewhere. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

double progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, bool on, double every)
{
    p->on = on;
    p->tty = isatty(STDERR_FILENO) == 1;
    p->every = every;
    p->last = progress_now();
    p->width = 0;
}

bool progress_due(struct progress *p)
{
    if (!p->on)
        return false;
    double t = progress_now();
    if (t - p->last < p->every)
        return false;
    p->last = t;
    return true;
}

void progress_print(struct progress *p, const char *fmt, ...)
{
    if (!p->on)
        return;
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (!p->tty) {
        fprintf(stderr, "%s\n", text);
        return;
    }
    /* pad over the longer line before, which '\r' does not erase */
    int len = n < (int)sizeof text ? n : (int)sizeof text - 1;
    fprintf(stderr, "\r%-*s", p->width > len ? p->width : len, text);
    p->width = len;
}

void progress_end(struct progress *p, bool clear)
{
    if (!p->on || !p->tty || !p->width)
        return;
    if (clear)
        fprintf(stderr, "\r%*s\r", p->width, "");
    else
        fputc('\n', stderr);
    p->width = 0;
}
