/*
 * statefile: what the state files of `irqsim exhaust --state` (exhaustcmd.c)
 * and `irqsim exhaust --executions --state` (execstate.c) share: a first
 * line naming the format, a "run" line naming the run the file belongs
 * to, "key values" lines, "end". Written through a temporary (out.h);
 * read line by line (lineread.h), each line at most a format's bound,
 * every refusal as "WHO: FILE:LINE: problem" and nothing used before the
 * whole file is checked (docs/inputs.md, "Exhaust state files" and
 * "Executions state files"). What each key holds and how the parts check
 * against each other is each format's own.
 */
#ifndef IRQSIM_STATEFILE_H
#define IRQSIM_STATEFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "out.h"
#include "target.h"

/* One state file format. */
struct sf_format {
    const char *who;      /* the command, as its messages begin: "irqsim exhaust" */
    const char *magic;    /* the first line, without its end */
    const char *stem;     /* another format of this file begins so (NULL: not told apart) */
    const char *stem_why; /* why that one cannot resume: "start the run afresh" */
    int line_max;         /* a line is at most line_max - 2 bytes, its end not counted */
    /* refuse a last line without its end and an empty line; without:
     * the last line may lack its end, an empty line is passed over (the
     * exhaust state file, as it was). A NUL byte is refused in both. */
    bool strict;
};

/* A refusal: the line (0: the file as a whole) and why. */
struct sf_err {
    int line;
    char why[300];
};

/* A key that appears once: where (0 not yet); needed: in every file. */
struct sf_key {
    const char *name;
    int *at;
    bool needed;
};

/* How a format reads: its once-keys (with "end" among them), each line
 * after the first, and the checks once every line is read. */
struct sf_reader {
    const struct sf_format *fmt;
    const struct sf_key *keys;
    int n_keys;
    const char *incomplete; /* the refusal when a needed key is missing */
    int (*line)(void *ctx, int lineno, const char *key, const char *v, struct sf_err *e);
    int (*check)(void *ctx, struct sf_err *e);
    void *ctx;
};

int sf_fail(struct sf_err *e, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The file at path through a temporary, its first line and "run RUN"
 * written: NULL with the message printed when it cannot be opened. */
struct out *sf_create(const struct sf_format *fmt, const char *path, const char *run);
/* "end", and the file into place: 0, or -1 with the message printed. */
int sf_finish(struct out *out);
/* "tag v0 v1 ..." */
void sf_put_list(FILE *f, const char *tag, const uint64_t *v, int n);

/* Read and check path: 1 read and every check passed, 0 no such file (a
 * new run), -1 refused with the message printed. */
int sf_load(const struct sf_reader *rd, const char *path);
/* The refusal, as sf_load prints it; -1. */
int sf_refuse(const struct sf_format *fmt, const char *path, const struct sf_err *e);

/* One whole decimal number at *s (after spaces); *s moves past it. */
int sf_read_u64(const char **s, uint64_t *v);
/* nothing but spaces before the end of the line */
bool sf_at_eol(const char *s);
/* exactly n numbers and the end of the line */
int sf_read_list(const char *s, uint64_t *v, int n);
/* "elapsed SECONDS" into *elapsed, or the refusal */
int sf_read_elapsed(const char *v, double *elapsed, int lineno, struct sf_err *e);
/* The run line's value v against this run's want, or the refusal: fields
 * names the words of a run (with ": "), width how much of each is shown. */
int sf_run_line(const char *v, const char *want, const char *fields, int width, int lineno, struct sf_err *e);
/* A class's cause as this run classifies: only the fastpath as written
 * (as_written) has causes other than CLASS_NO_FIX, sets of t's fixes. */
bool sf_cause_ok(const struct target *t, bool as_written, unsigned cause);
/* fields names only fields the differential check compares */
bool sf_fields_ok(uint64_t fields);

#endif
