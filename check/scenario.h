/*
 * scenario: the scenario-file reader, the inverse of ks_print() (print.c).
 * Owns the text format's grammar (docs/scenario-format.md): directives,
 * key=value fields, object names and their resolution to indices, range
 * checks against the model's capacities, and the hand-written convenience
 * forms (queue=, ready, release). It checks memory safety, not kernel
 * invariants: that is invariant.c's job.
 */
#ifndef IRQSIM_SCENARIO_H
#define IRQSIM_SCENARIO_H

#include <stddef.h>
#include <stdio.h>

#include "kstate.h"

/* Largest file scenario_load() accepts. */
#define SCEN_MAX_FILE (1024u * 1024u)

struct scen_error {
    char file[128]; /* file name as given */
    int line;       /* 1-based line; 0 for I/O errors */
    char msg[200];  /* reason, naming the offending key, value or object */
};

/* Parse len bytes of text (need not be NUL-terminated) into *out. Returns 0,
 * or -1 with *err filled; *out is then unspecified. */
int scenario_parse(const char *text, size_t len, const char *filename, struct kstate *out,
                   struct scen_error *err);

/* A scenario's or a workload's file whole ("-" is stdin; otherwise a
 * regular file only: infile.h) of at most SCEN_MAX_FILE bytes: the bytes
 * (free them), or NULL with *err naming path at line 0. */
char *scen_read_file(const char *path, struct scen_error *err, size_t *len);

/* Read a file (scen_read_file) and parse it; I/O errors are reported in
 * *err with line 0. */
int scenario_load(const char *path, struct kstate *out, struct scen_error *err);

/* Writes "file:line: message\n". */
void scen_error_print(FILE *f, const struct scen_error *e);

#endif
