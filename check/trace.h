/*
 * trace: captured traces of a running seL4 system. Reads JSONL traces, one
 * interrupt entry per line with the kernel state at entry and at the
 * return to user level (docs/TRACES.md), plain or gzip-compressed, and
 * turns each captured state into a scenario (the text format of
 * scenario.h), so a captured entry is a reproducer like any other. Two
 * formats: version 1 starts with a header line naming the kernel and its
 * configuration; version 0 (the proof of concept's, no header) is a
 * qemu-arm-virt debug kernel.
 */
#ifndef IRQSIM_TRACE_H
#define IRQSIM_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "jval.h"
#include "kstate.h"

#define TRACE_FORMAT 1
#define TRACE_SCEN_MAX (64u * 1024u)

struct trace_reader {
    void *gz;              /* gzFile */
    char path[256];
    long line;             /* line number of the record last read */
    int format;            /* 0 or 1 */
    char kernel[64];       /* kernel commit named by the header, or "" */
    char config[256];      /* the scenario "board" and "config" lines */
    char *buf;             /* the current line */
    size_t cap;
    struct jval_doc doc;
};

struct trace_rec {
    long seq;              /* the capture's sequence number */
    int irq;               /* the IRQ the kernel took */
    bool slowpath;         /* the kernel went straight to the slowpath */
    char exit_site[64];    /* where the kernel returned to user level */
    bool has_taken;        /* the capture read the counter at c_handle_interrupt */
    uint64_t taken;        /* that counter: when the kernel took the IRQ ("entry_counter") */
    char entry[TRACE_SCEN_MAX]; /* the entry state as a scenario */
    char exit[TRACE_SCEN_MAX];  /* the captured exit state as a scenario */
};

/* Open a trace; -1 with err naming the file and the problem. */
int trace_open(struct trace_reader *r, const char *path, char *err, size_t errlen);
/* The next record: 1, 0 at the end, -1 with err naming file:line. */
int trace_next(struct trace_reader *r, struct trace_rec *rec, char *err, size_t errlen);
void trace_close(struct trace_reader *r);

#endif
