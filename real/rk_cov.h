/*
 * rk_cov: branch coverage of the real kernel (irqsim kernel coverage,
 * docs/KERNEL-COVERAGE.md). Reads what gcov says of a coverage build's run
 * (`gcov -b -j -t`: per source line, every branch arc and its count;
 * per function, its line range), gcc's call graph of the unit
 * (`-fcallgraph-info`: host_all.ci) and the file of branches argued
 * unreachable, and works out per function on the path: branches,
 * reached, argued, and every branch neither reached nor argued.
 * No kernel text is kept or printed: a kernel line is named by its file,
 * number and a hash of its content (rk_cov_line_hash).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_RK_COV_H
#define IRQSIM_RK_COV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* One source line with branches: its arcs' counts, in gcov's order. */
struct cov_line {
    int file, line;
    int narcs;
    long long *arcs;
};

/* One function as gcov lists it (its definition's line range). */
struct cov_fn {
    char *name;
    int file, start, end;
    long long calls;           /* times entered */
    bool kernel;               /* defined in the kernel tree (not glue, shim, generated headers) */
    bool on_path;              /* reached in the call graph from the roots */
    int *callees, ncallees;    /* indices into fns */
};

/* An entry of the argued file (real/coverage-argued.txt). */
struct cov_argued {
    char *fn, *file, *why;     /* function, file relative to the tree, the argument */
    int line, arc, src_line;   /* line at the pinned commit, arc on it, line of the argued file */
    uint32_t hash;             /* rk_cov_line_hash of the kernel line */
    char when[64];             /* a configuration it is argued for ("domains=1", ...), "" always */
    /* resolved on a tree (rk_cov_apply): */
    int at_line;               /* the line it matched in this tree, 0 none */
    bool applies;              /* its configuration is this build's */
    bool stale;                /* it matched and the run reached it */
};

/* One source line with code, as gcov counts it (its execution count). */
struct cov_count {
    int file, line;
    long long count;
};

struct cov_data {
    char *root;                /* the kernel tree (kernel.info source=), with a trailing / */
    char *compiled;            /* where the build compiled it (compiled_source=), with a trailing /; NULL: root */
    char **files;
    int nfiles;
    struct cov_line *lines;
    int nlines;
    struct cov_count *counts;  /* every line with code, in gcov's order */
    int ncounts;
    struct cov_fn *fns;
    int nfns;
    struct cov_argued *argued;
    int nargued;
};

/* Per function, after rk_cov_apply. */
struct cov_fn_sum {
    int branches, reached, argued, unreached;
};

/* The reason into why (printf's format); -1, the error return of the
 * readers here and in rk_change */
int rk_cov_say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* gcov's JSON (gcov -j -t output, one document) into d. root: the
 * kernel tree; compiled: where the build compiled the same tree (gcov
 * names its files there; a cached build of that content may have been
 * made from a copy since gone), NULL or "" when the same. 0, or -1 with
 * why (a malformed document). */
int rk_cov_read_gcov(struct cov_data *d, const char *json, const char *root, const char *compiled, char *why,
                     size_t len);
/* gcc's call graph (-fcallgraph-info, VCG text) marks the functions the
 * roots reach through kernel functions (on_path). 0, or -1 with why. */
int rk_cov_read_graph(struct cov_data *d, FILE *ci, const char *const *roots, int nroots, char *why, size_t len);
/* Marks on_path every kernel function the run entered and what the call
 * graph reaches from it (the roots may be the glue's on a tree where the
 * kernel's entry is replaced: an entered function is on a path irqsim
 * runs whatever called it). After rk_cov_read_graph. */
void rk_cov_mark_entered(struct cov_data *d);
/* The argued file. 0, or -1 with "file:line: problem" in why. */
int rk_cov_read_argued(struct cov_data *d, FILE *f, const char *path, char *why, size_t len);
/* Matches the argued entries to this tree's lines (by hash: a line moved
 * within its function is found) and to the build's configuration (cfg:
 * "domains=N cores=N debug|release"), and flags the stale ones. */
void rk_cov_apply(struct cov_data *d, const char *cfg);
void rk_cov_free(struct cov_data *d);

int rk_cov_find(const struct cov_data *d, const char *name);
/* The function's branches; with out, each arc neither reached nor
 * argued is printed there (file:line hash arc). */
struct cov_fn_sum rk_cov_sum(const struct cov_data *d, int fn, FILE *out);
/* FNV-1a of a line's bytes other than blanks: the kernel line's identity
 * in the argued file, without its text. */
uint32_t rk_cov_line_hash(const char *line);
/* The hash of line n of the tree's file (relative to root); 0 when absent. */
uint32_t rk_cov_tree_hash(const struct cov_data *d, const char *file, int n);

#endif
