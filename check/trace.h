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
/* Limits on what a trace may hold (docs/inputs.md). The longest line of
 * the traces in tests/traces is 24 KB and the largest of them 20 MB
 * uncompressed: a line is held in memory whole, so its limit bounds the
 * memory a trace can take; the total bounds the time. */
#define TRACE_LINE_MAX (1u << 20)
#define TRACE_BYTES_MAX (4ull << 30)
#define TRACE_LINES_MAX 10000000L
#define TRACE_CHUNK (1u << 16)

struct trace_reader {
    void *gz;              /* gzFile */
    char *path;            /* as given, for messages */
    char shown[256];       /* the path as the scenarios' comment shows it: no control characters */
    long line;             /* line number of the record last read */
    unsigned long long total; /* uncompressed bytes read */
    char *in;              /* TRACE_CHUNK bytes read ahead */
    size_t in_pos, in_len;
    int format;            /* 0 or 1 */
    char kernel[64];       /* kernel commit named by the header, or "" */
    char config[256];      /* the scenario "board" and "config" lines */
    char *buf;             /* the current line and a NUL */
    size_t cap;            /* its size: at most TRACE_LINE_MAX + 1 */
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

/* What trace_open and trace_next return when a signal the command
 * catches cut an open or a read that was waiting (a FIFO, a pipe): EINTR,
 * not bad input; the caller's stop_requested() says which signal. */
#define TRACE_INTERRUPTED (-2)

/* Open a trace; -1 with err naming the file and the problem,
 * TRACE_INTERRUPTED. */
int trace_open(struct trace_reader *r, const char *path, char *err, size_t errlen);
/* The same for an open descriptor (the fuzz target's memory file), which
 * the reader owns: closed by trace_close, or here when the open fails;
 * name stands for the file in messages. */
int trace_open_fd(struct trace_reader *r, int fd, const char *name, char *err, size_t errlen);
/* The next record: 1, 0 at the end, -1 with err naming file:line,
 * TRACE_INTERRUPTED. */
int trace_next(struct trace_reader *r, struct trace_rec *rec, char *err, size_t errlen);
void trace_close(struct trace_reader *r);

/* Whether two states read from one record (its entry and its exit, or a
 * model's outcome and the captured exit) hold the same objects by name and
 * count, so that they can be compared field by field. */
bool trace_same_objects(const struct kstate *a, const struct kstate *b);

#endif
