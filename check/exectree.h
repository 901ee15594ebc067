/*
 * exectree: the enumeration of executions from boot as a tree (issue 31),
 * the default engine of `irqsim exhaust --executions`. The space is
 * check/executions.h's, every workload and every run in another GIC
 * order; instead of simulating each from boot, the tree engine runs one
 * simulation and forks it where a choice first matters: a thread's next
 * instruction when the thread is about to run it, IRQ 40's arrival when
 * its time could be the next event, the GIC's order when the GIC first
 * chooses among interrupts pending at once. A fork copies the simulator
 * state (a plain struct) and runs each choice on from the copy, so no
 * execution re-simulates its prefix; a choice that never came to matter
 * stands for every value of it (an execution covers as many workloads).
 * At each choice point the whole simulator state is hashed (statehash.h:
 * both kernels as ks_same compares them, each thread's position, the
 * pending interrupts, what is left to decide); a state explored before is
 * not explored again, and stands for the workloads it covered.
 */
#ifndef IRQSIM_EXECTREE_H
#define IRQSIM_EXECTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "executions.h"

/* the slices of each root that `exhaust --executions --jobs` cuts */
#define EXEC_JOB_SLICES 16

struct exec_tree_opts {
    bool remember;      /* the visited set (false: every subtree explored) */
    size_t full_bytes;  /* memory for the remembered states' full copies (a
                           revisit is compared in full while they fit, on
                           the hash alone past it: said in r->tree) */
    size_t max_states;  /* the visited set's capacity (0: a default) */
    int jobs;           /* the roots in up to this many child processes at
                           once (exectree_jobs.c); 0 or 1: in this one */
    int slices;         /* with jobs: each root cut into this many slices at
                           its first choice point (0 or 1: whole roots) */
    int cut_levels;     /* with slices: the choice points cut, from the
                           root's first on (0 or 1: the first only; 2: the
                           first two, the paths through them cut into runs) */
};

/* The whole space (o's shard must be 1/1); progress(ctx, covered, space)
 * now and then, stop(ctx) polled (true: the run ends there, r->tree.cut).
 * 0, or -1 when the options are unusable. The totals count what was
 * explored (every explored execution's entries once); r->tree counts the
 * coverage. */
int exec_tree_run(const struct exec_opts *o, const struct exec_tree_opts *t, struct exec_result *r,
                  void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx);

/* The roots of the tree: one per entry latency and IPI latency, root i
 * at latency i % EXEC_LATENCIES and IPI latency i / EXEC_LATENCIES, in the
 * order a run explores them. */
unsigned exec_tree_roots(const struct exec_opts *o);
/* Root i explored into r (r as exec_begin left it, or with the roots
 * before i in it), with a visited set of its own; r->tree.cut when
 * stop(ctx) ended it. 0, or -1 when the tables could not be set up. */
int exec_tree_root(const struct exec_opts *o, const struct exec_tree_opts *t, unsigned i, struct exec_result *r,
                   void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx);
/* A slice of root i (slices 1: the whole root), with a visited set of its
 * own. The paths through the first t->cut_levels choice points are
 * numbered in the order one process explores them (a path that ends
 * before the last of them takes a number too). Cut at more than one, the
 * slice explores a run of consecutive numbers (a counting pass numbers
 * the paths first), so that the slices in order are one process's order;
 * cut at the first alone, those numbered k with k % slices == slice (one
 * choice each, in order, when slices is the choice point's width or
 * more). Every slice runs the stretches above the cut, each counted by
 * one slice only: the owner of the first number below it. The slices of a root together cover the root, with the
 * same distinct entry states, classes and refusals; a revisit across
 * slices is explored again, so their executions and entries add up to
 * more than the root's. Above the cut nothing is looked up or
 * remembered: a slice holds only part of what lies below there. */
int exec_tree_unit(const struct exec_opts *o, const struct exec_tree_opts *t, unsigned i, int slice, int slices,
                   struct exec_result *r, void (*progress)(void *ctx, uint64_t done, uint64_t of),
                   bool (*stop)(void *ctx), void *ctx);
/* After the last root: the workloads done, the GIC's reruns, from what
 * the tree covered. */
void exec_tree_finish(struct exec_result *r);
/* exec_tree_run with t->jobs > 1 (exectree_jobs.c): each root, or with
 * t->slices > 1 each slice of each root (exec_tree_unit), in a child
 * process, at most t->jobs at once, the results merged in that order
 * (exec_merge), so that the answers are those of one process (with
 * slices: not the executions and entry counts, see exec_tree_unit);
 * progress and stop as exec_tree_run's, in this process. */
int exec_tree_jobs(const struct exec_opts *o, const struct exec_tree_opts *t, struct exec_result *r,
                   void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx);

#endif
