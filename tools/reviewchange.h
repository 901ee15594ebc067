/*
 * reviewchange: `irqsim review`'s change measure (issue 30 item 2,
 * docs/REVIEW.md "The change, measured"). The kernel C the tree changes
 * against the baseline (rk_change), and per configuration what the
 * review's states executed of it: the same states again through the
 * tree's coverage build (covrun: a child process, gcov's counts, the
 * states per function), each changed line classified against the build
 * (rk_change_measure). Across configurations: the verdict's "M of K
 * changed lines executed; not executed: f() file:line, ...".
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_REVIEWCHANGE_H
#define IRQSIM_REVIEWCHANGE_H

#include <stdio.h>

#include "review.h"
#include "rk_change.h"

/* Measure res's configuration: the change c (read from the two builds'
 * trees on the first call: c->tree NULL) on the tree's coverage build.
 * Fills res->change; a failure is said there (why), never fatal. */
void review_change_measure(const struct review_opts *o, struct review_result *res, struct rk_change *c);

/* The change over every configuration: a changed line executed in any
 * of them is executed. */
struct review_change_total {
    bool any;            /* some configuration has a change to measure */
    int configs, failed; /* configurations measured, and those whose measure failed */
    int code, executed;  /* changed lines with code somewhere (or never compiled), executed somewhere */
    int deleted, deleted_run;
    int fns, fns_entered; /* changed functions, entered in some configuration */
    int comment, directive, nocode, other_files, removed_files;
};
void review_change_total(const struct review_result *res, int n, struct review_change_total *t);
/* Whether the change left code unrun (or unmeasured): exit 6. */
bool review_change_unrun(const struct review_change_total *t);
/* "3 of 4 changed lines executed; not executed: `f()` src/x.c:12 (...)"
 * into buf (at most max lines named). */
const char *review_change_text(const struct review_result *res, int n, const struct review_change_total *t,
                               const struct rk_change *c, int max, char *buf, size_t len);
/* The Markdown section and the JSON member of one configuration. */
void review_change_md(FILE *f, const struct review_result *res, const struct rk_change *c);
struct out;
void review_change_json(struct out *o, const struct review_result *res, const struct rk_change *c);

#endif
