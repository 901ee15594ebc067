/*
 * rk_change: the kernel C a tree changes against a baseline, and what a
 * run of the tree's coverage build executed of it (issue 30 item 2,
 * docs/REVIEW.md "The change, measured"). The change is the text diff of
 * the two trees (`diff -rN -U0`), per file: the tree's lines added or
 * modified, and the places where lines were deleted. Per configuration,
 * each changed line of the tree is classified against the build: a
 * comment, a preprocessor line, in a disabled #if (the preprocessor kept
 * no token of it: build-kernel.sh's compiled-lines.txt), in a file the
 * configuration does not build or irqsim's build replaces, compiled with
 * no code of its own, or code gcov counted, executed or not. Functions
 * come from gcov's ranges, their states from the run.
 * No kernel text is kept: lines are named by file and number.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_RK_CHANGE_H
#define IRQSIM_RK_CHANGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rk_cov.h"

/* One hunk of `diff -U0`: lines old_start.. (old_count of them) of the
 * baseline became new_start.. (new_count) of the tree. A pure deletion
 * (new_count 0) sits after the tree's line new_start. */
struct rk_hunk {
    int old_start, old_count, new_start, new_count;
};

struct rk_change_file {
    char *path;           /* relative to the tree's root */
    bool c_source;        /* .c or .h: measured; anything else is listed */
    bool added, removed;  /* only in the tree / only in the baseline */
    struct rk_hunk *hunks;
    int nhunks;
};

/* The text change of two trees, the same for every configuration. */
struct rk_change {
    char *tree, *base;    /* the roots, with a trailing / */
    struct rk_change_file *files;
    int nfiles;
};

/* What a changed line of the tree is, in one configuration's build. */
enum rk_line_kind {
    RL_EXEC,      /* code (gcov counts it) the run executed */
    RL_UNEXEC,    /* code the run did not execute */
    RL_NOCODE,    /* compiled, no code of its own (a declaration, a brace) */
    RL_COMMENT,   /* blank or comment only */
    RL_DIRECTIVE, /* a preprocessor line (#define, #if, ...): not measured */
    RL_DISABLED,  /* inside a #if this configuration leaves out */
    RL_NOTBUILT,  /* in a file this configuration does not compile */
    RL_EXCLUDED,  /* in a file irqsim's build replaces (build-kernel.sh "excluded") */
    RL_DELETED,   /* lines deleted here (line: the tree's line after which) */
    RL_KINDS
};

struct rk_change_line {
    int file;             /* index into the change's files */
    int line;             /* the tree's line (RL_DELETED: the line before the deletion) */
    int kind;             /* enum rk_line_kind; RL_DELETED of comments only is RL_COMMENT */
    long long count;      /* RL_EXEC: times executed (gcov) */
    int fn;               /* index into the measure's fns, -1: outside any function */
};

/* A function with a changed line (or a deletion) in this configuration. */
struct rk_change_fn {
    char *name;
    int file, start, end; /* file: index into the change's files */
    long long calls;      /* times entered (gcov) */
    uint64_t states;      /* states of the run that entered it */
    bool on_path;         /* reached from where irqsim enters the kernel (the call graph) */
    int code, executed;   /* its changed lines with code, and of them executed */
    int deletions;        /* deletions of code in it */
};

/* One configuration's measure of the change. */
struct rk_change_cfg {
    struct rk_change_line *lines;
    int nlines;
    struct rk_change_fn *fns;
    int nfns;
    int by_kind[RL_KINDS];
    int code, executed;   /* K changed lines with code (RL_EXEC + RL_UNEXEC), M of them executed */
    int deleted, deleted_run; /* deletions of code, and of them in a function the run entered */
    int other_files;      /* changed files that are not C (.bf, .cmake, .py, .S...): not measured */
    int removed_files;    /* C files only the baseline has */
    uint64_t states;      /* the run's states */
};

/* The change of tree against base (directories): `diff -rN -U0`. 0, or
 * -1 with why (diff could not run, its output unreadable). */
int rk_change_diff(struct rk_change *c, const char *tree, const char *base, char *why, size_t len);
/* The same from a diff's output (one file read; for the tests). */
int rk_change_read(struct rk_change *c, FILE *diff, const char *tree, const char *base, char *why, size_t len);
/* Whether c has any change of C (.c, .h) files. */
bool rk_change_has_c(const struct rk_change *c);
void rk_change_free(struct rk_change *c);

/* The preprocessor's ranges (compiled-lines.txt) of one build. */
struct rk_compiled {
    struct rk_crange { int file, first, last; } *r; /* file: index into names */
    int n;
    char **names;
    int nnames;
    char **excluded;      /* files the build replaces, relative to the root */
    int nexcluded;
};
/* compiled-lines.txt and host_all.c's "excluded" lines of a build
 * folder (root: the tree, to make the excluded paths relative). 0, or -1
 * with why. */
int rk_compiled_read(struct rk_compiled *p, const char *build, const char *root, char *why, size_t len);
void rk_compiled_free(struct rk_compiled *p);

/* The states that entered each function (by name), from the run. */
struct rk_fn_states {
    char **names;
    uint64_t *states;
    int n;
};
uint64_t rk_fn_states_of(const struct rk_fn_states *s, const char *name);

/* Classify every changed line of c for one configuration: p its compiled
 * lines, d gcov's counts of the run (with the call graph read: on_path),
 * s the states per function, states the run's total. 0, or -1 with why
 * (out of memory, a changed file unreadable). */
int rk_change_measure(struct rk_change_cfg *m, const struct rk_change *c, const struct rk_compiled *p,
                      const struct cov_data *d, const struct rk_fn_states *s, uint64_t states, char *why, size_t len);
void rk_change_cfg_free(struct rk_change_cfg *m);

/* "executed", "not executed", ...: a kind in the report */
const char *rk_line_kind_name(int kind);

#endif
