/*
 * covrun: a run of a kernel's coverage build, shared by `irqsim kernel
 * coverage` (kcovcmd.c) and review's change measure (review.c): the
 * coverage build of a build's configuration (build-kernel.sh --coverage,
 * cached), a child process whose exit writes gcov's counters into a
 * folder of its own (GCOV_PREFIX), gcov's JSON of them, and the states
 * per function: after each state the child compares each function's
 * counters (gcc's `__gcov0.NAME` arrays, found in the shared object's
 * symbol table) with their values before it, so "entered on N states"
 * is exact where gcov's own counts are executions.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_COVRUN_H
#define IRQSIM_COVRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rk_change.h"
#include "rk_load.h"

/* Where the harness enters the kernel (real/glue/hk_glue.c, hk_syscall.c):
 * the call graph's roots (c_handle_interrupt: a tree without the IRQ
 * fastpath, whose entry runs handleInterruptEntry itself). */
#define COVRUN_ROOTS 7
extern const char *const covrun_roots[COVRUN_ROOTS];

/* kernel.info's value of key, into out ("" when absent) */
void covrun_info(const char *build, const char *key, char *out, size_t n);
/* The coverage build of BUILD's configuration (itself when it is one),
 * of tree (NULL: kernel.info's source=), into cov; 0, or the exit status
 * to return (said on stderr as prog). */
int covrun_build(const char *prog, const char *build, const char *tree, char *cov, size_t n);
/* Runs child(arg, res) in a child process with GCOV_PREFIX=tmp; res
 * (res_len bytes) comes back through a pipe. 0, or the exit status
 * (EXIT_USAGE when the child said so, else EXIT_DIVERGE). */
int covrun_fork(const char *prog, const char *tmp, int (*child)(void *arg, void *res), void *arg, void *res,
                size_t res_len);
/* The folder under dir holding host_all.gcda (GCOV_PREFIX puts it under
 * the build's whole path), into out */
bool covrun_find_gcda(const char *dir, char *out, size_t n, int depth);
/* gcov's JSON of the run (the build's notes beside the run's counters);
 * NULL when gcov failed */
char *covrun_gcov_json(const char *cov, const char *dir);
void covrun_rm_tree(const char *dir);

/* The states per function, in the child. */
struct covrun_fns {
    int n;
    char **names;
    const unsigned char **ctr; /* the function's counters in the loaded object */
    size_t *size;
    unsigned char **seen;      /* their values after the last state */
    uint64_t *states;
};
/* The counters of k's shared object (`nm -S`). 0, or -1 (no symbol
 * table, out of memory). */
int covrun_fns_open(struct covrun_fns *f, const struct rk_kernel *k);
/* After a state: each function whose counters moved was entered. */
void covrun_fns_state(struct covrun_fns *f);
/* "NAME STATES" per line into path; 0 or -1. */
int covrun_fns_write(const struct covrun_fns *f, const char *path);
void covrun_fns_free(struct covrun_fns *f);
/* The file covrun_fns_write wrote, into s (rk_change.h). 0 or -1. */
int covrun_fns_read(struct rk_fn_states *s, const char *path);
void covrun_fn_states_free(struct rk_fn_states *s);

#endif
