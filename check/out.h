/*
 * out: every file irqsim writes, and how. A file is written to a temporary
 * beside its destination and renamed onto it when every write, the flush
 * and the close succeeded, so a killed or failed run leaves either the
 * previous file or the whole new one, never half of one. Every failure
 * prints the path and the reason and is reported to the caller, which
 * exits with OUT_FAILED. Paths are of any length (allocated, no fixed
 * buffers). Also here: the one JSON string writer (jval_write_string)
 * as used on an output, and the one reproducer writer (a scenario or a
 * workload with its verdict on top as a "# " comment block).
 */
#ifndef IRQSIM_OUT_H
#define IRQSIM_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "kstate.h"

struct workload;

/* The exit status of a command when an output could not be written: the
 * engines here return it, the commands pass it on as EXIT_OUTPUT, one of
 * enum irqsim_exit (tools/cli.h, which checks the two are equal). */
#define OUT_FAILED 4

struct out {
    FILE *f;      /* write here */
    char *path;   /* the destination */
    char *tmp;    /* the temporary renamed onto path; NULL: written in place
                     (a device, a FIFO: /dev/null, /dev/stdout, /dev/full) */
    const char *who; /* the message prefix: "irqsim fuzz" */
    const char *why; /* a failure that is no errno (a string not UTF-8) */
};

/* Open path for writing (through a temporary). NULL, with the message
 * printed ("who: cannot write PATH: reason"), when it cannot be. */
struct out *out_open(const char *who, const char *path);
/* Flush, check, close and rename into place; frees o. 0, or -1 with the
 * message printed, the temporary removed and the destination untouched. */
int out_close(struct out *o);
/* Give up: the temporary is removed, the destination untouched; frees o. */
void out_discard(struct out *o);

/* s as a JSON string literal on o (jval_write_string); a string that is
 * not UTF-8 makes out_close fail (JSON cannot hold it faithfully). */
void out_string(struct out *o, const char *s);

/* The whole of text as the file path. 0 or -1 (message printed). */
int out_text(const char *who, const char *path, const char *text);

/* A reproducer: verdict (NULL: none) as a "# " comment block on top, then
 * the scenario ks or the workload w (exactly one of them non-NULL), in the
 * formats the readers take back. 0 or -1 (message printed). */
int out_reproducer(const char *who, const char *path, const char *verdict, const struct kstate *ks,
                   const struct workload *w);

/* text into f with every line prefixed by "# " (what the readers skip). */
void out_commented(FILE *f, const char *text);

/* "dir/name" in a new allocation (free it); name is a printf format.
 * NULL when out of memory (message printed). */
char *out_join(const char *dir, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Make the output folder dir (one level, as mkdir) or accept it when it
 * is one already. 0 or -1 (message printed: e.g. a file of that name). */
int out_dir(const char *who, const char *dir);

/* Standard output is an output too: a command's verdict is worth nothing
 * when the lines that state it were lost. out_stdout_open refuses a closed
 * standard output before the command runs (a file the command opens would
 * take descriptor 1 and receive what it prints): -1 with the message. */
int out_stdout_open(const char *who);
/* The command's end: flush, check and close standard output. rc when it was
 * written, else OUT_FAILED with the message naming standard output (2 and
 * 3 outrank it: bad input, the real kernel cannot be built here). */
int out_stdout_close(const char *who, int rc);

/* An output that is one of the command's inputs (the same file by device
 * and inode when both exist, else the same path) would destroy that input
 * (a trace replaced by the summary). Refused before the command runs: -1
 * with "who: OUTPUT is also an input (INPUT): not written over" printed.
 * NULL entries (an option not given) and "-" (standard input) are skipped;
 * a device or a FIFO (written in place, never replaced) is no clash. */
int out_not_input(const char *who, const char *const *outs, int n_outs, const char *const *ins, int n_ins);

#endif
