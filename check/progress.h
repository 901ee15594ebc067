/*
 * progress: the progress line of the long commands (fuzz, the workload
 * fuzzer, exhaust, exhaust --executions, replay, the --real commands,
 * review), and the monotonic clock they time and pace themselves with.
 * On a terminal the line is rewritten in place with '\r'; into a file or
 * a pipe each update is a line of its own, one per interval, so a log
 * holds no carriage returns. A command's --quiet turns it off.
 */
#ifndef IRQSIM_PROGRESS_H
#define IRQSIM_PROGRESS_H

#include <stdbool.h>

/* Seconds on CLOCK_MONOTONIC: for intervals only. */
double progress_now(void);

struct progress {
    bool on;      /* false: no line at all (--quiet) */
    bool tty;     /* stderr is a terminal: the line is rewritten in place */
    double every; /* seconds between updates */
    double last;  /* when the last update was due (at first: progress_init) */
    int width;    /* length of the line on the terminal, 0: none open */
};

/* A progress line on stderr, updated every `every` seconds when on. */
void progress_init(struct progress *p, bool on, double every);
/* Whether an update is due now; when it is, the next is `every` later. */
bool progress_due(struct progress *p);
/* Print an update (printf-like, no newline), due or not; nothing when off. */
void progress_print(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The run's end: on a terminal, the line in place is ended (kept) with a
 * newline, or with clear, blanked so the next output starts clean. */
void progress_end(struct progress *p, bool clear);

#endif
