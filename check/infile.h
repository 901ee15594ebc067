/*
 * infile: the one loader of a whole input file (a scenario, a workload, a
 * fuzz run's JSON, a reproducer it names): at most a limit's bytes,
 * counted while reading (a /proc file says its size is 0), into a fresh
 * NUL-terminated buffer. A path that is not a regular file is refused
 * unless the caller reads any kind: a directory opens and reads as nothing
 * (or fails), a FIFO blocks, /dev/zero never ends. Each refusal has one
 * wording, without the path: the caller names the file as its messages do
 * (docs/inputs.md).
 */
#ifndef IRQSIM_INFILE_H
#define IRQSIM_INFILE_H

#include <stddef.h>

enum infile_flags {
    INFILE_STDIN = 1, /* "-" reads standard input (whatever it is) */
    INFILE_ANY = 2,   /* any kind of file, opened as it comes (a FIFO blocks) */
};

/* path's bytes (free them) with *len, or NULL with why: "cannot open: E",
 * "not a regular file", "larger than MAX bytes", "read error: E", "out of
 * memory". */
char *infile_read(const char *path, size_t max, unsigned flags, size_t *len, char *why, size_t whylen);

#endif
