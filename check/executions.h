/*
 * executions: executions from boot enumerated (issue 19 item 3). A small
 * fixed system (a handler waiting on IRQ 40's notification, two threads
 * on one core or one on each of two) and every combination, within a
 * depth, of what its threads do (programs of up to `depth` operations
 * from a menu: compute, seL4_Signal on the IRQ's notification or another,
 * seL4_Wait, seL4_Yield, seL4_Send with an unresolvable extra cap, and a
 * TCB_SetPriority on the other thread, which stalls it remotely on two
 * cores), when IRQ 40 arrives and how long the kernel takes to read the
 * clock. Each such workload runs from boot on the workload simulator
 * (check/sim.c: the timer, the lock wait, the reschedule IPIs, every
 * enabled fastpath), every kernel entry through the invariant checker (a
 * refused reached state is an invariant bug), the one-entry differential
 * check at every device interrupt. The space, the bound statement and the
 * outputs are in docs/EXHAUSTIVE.md, "Executions".
 */
#ifndef IRQSIM_EXECUTIONS_H
#define IRQSIM_EXECUTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "classify.h"
#include "situation.h"
#include "target.h"

#define EXEC_MAX_DEPTH 3
#define EXEC_MAX_CLASSES 64

struct exec_opts {
    int depth;                   /* 1..EXEC_MAX_DEPTH operations per program */
    int cores;                   /* 1 or 2 */
    bool signal_fastpath;        /* KernelSignalFastpath beside (the IRQ target) */
    const struct target *target; /* the IRQ target (a SysSend target: the signals are its entries) */
    int variant;
    int kernel;
    uint64_t shard_k, shard_n;   /* workloads i with i % shard_n == shard_k - 1 */
};

/* The GIC's orders an execution runs in: the six orders of the three
 * kinds of interrupt (the workloads have one device line). 0 is the
 * default (timer, device, IPI), 1 its reverse as wl_gic_reverse makes it,
 * 2-5 the other four. */
#define EXEC_GIC_ORDERS 6
/* "timer,device,ipi" for 0 ...; "?" out of range */
const char *exec_gic_order_name(int order);
/* The suffix of a workload index run in that order: "" for 0, "r" for 1
 * (the reverse), "o2" to "o5"; "?" out of range. */
const char *exec_gic_order_suffix(int order);
/* " (the GIC's order reversed)", " (the GIC's order device,timer,ipi)"
 * ... in buf for a run in order 1-5; "" for the default (or out of range) */
const char *exec_gic_order_note(int order, char *buf, size_t len);
/* The note's buffer, and the refusal's: "t=" and a 64-bit time, the note,
 * ": " and a refused entry's message (struct sim_refusal's msg, 200) */
#define EXEC_NOTE_LEN 64
#define EXEC_REFUSAL_LEN (2 + 20 + (EXEC_NOTE_LEN - 1) + 2 + 200)
/* The order a suffix names ("", "r", "o1" to "o5"), or -1. */
int exec_gic_order_parse(const char *suffix);

struct exec_class {
    struct dclass cl;
    uint64_t hits, first;        /* the first workload's index */
    uint8_t first_order;         /* ... and the GIC's order of the run that met it first */
};

/* The distinct entry states: an open-addressed set of their hashes (odd:
 * 0 marks an empty slot), kept with the totals so that a state file can
 * carry it and a resumed run count exactly what a straight one does. */
struct exec_set {
    uint64_t *slot;
    size_t cap, n;
};

struct exec_result {
    uint64_t space, shard_space, simulated, setup_refused; /* simulated + setup_refused: the shard's workloads done */
    uint64_t entries, refused, asserts, drifts, lock_waits;
    uint64_t stopped;            /* runs stopped at the event limit, or reruns in another GIC order not set up */
    /* workloads where the GIC chose among interrupts pending at once, run
     * again in the five other orders (EXEC_GIC_ORDERS): every run's
     * figures are in the totals */
    uint64_t gic_reruns;
    uint64_t checks, distinct;   /* checked entries (the target's), distinct entry states among them (seen.n) */
    uint64_t exits[TARGET_MAX_EXITS];
    uint64_t sits[SIT_COUNT];
    uint64_t diverged;           /* checked entries that diverged */
    int n_classes;
    uint64_t classes_dropped;
    struct exec_class classes[EXEC_MAX_CLASSES];
    uint64_t first_refused;      /* the first workload whose entry was refused */
    char refusal[EXEC_REFUSAL_LEN];
    struct exec_set seen;        /* owned: exec_free */
};

/* The number of workloads of the space. */
uint64_t exec_space(const struct exec_opts *o);
/* Workload i of the space as text (the workload format), into buf;
 * _order: with the GIC's order (0 to EXEC_GIC_ORDERS - 1) named. */
int exec_workload_text(const struct exec_opts *o, uint64_t i, char *buf, size_t len);
int exec_workload_text_order(const struct exec_opts *o, uint64_t i, int order, char *buf, size_t len);
/* r as at the start of a run: nothing done, the space and the shard's
 * size. 0, or -1 when the options are unusable. */
int exec_begin(const struct exec_opts *o, struct exec_result *r);
/* The shard's workloads r has done, and the index of the next one (at or
 * past the space when the shard is done). */
uint64_t exec_done(const struct exec_result *r);
uint64_t exec_next(const struct exec_opts *o, const struct exec_result *r);
/* Run the shard's workloads from r's position (exec_begin's, or a state
 * file's) to the end; progress(ctx, done, of) now and then (may be NULL);
 * stop(ctx) before each workload, true ends the run there (NULL: never). */
void exec_continue(const struct exec_opts *o, struct exec_result *r,
                   void (*progress)(void *ctx, uint64_t done, uint64_t of), bool (*stop)(void *ctx), void *ctx);
/* exec_begin, then exec_continue. 0, or -1 when the options are unusable. */
int exec_run(const struct exec_opts *o, struct exec_result *r, void (*progress)(void *ctx, uint64_t done, uint64_t of),
             bool (*stop)(void *ctx), void *ctx);
/* h (odd) into the set: 1 when new, 0 when it was there already. */
int exec_set_add(struct exec_set *s, uint64_t h);
void exec_set_free(struct exec_set *s);
/* What r owns (its set); r's counts stay. */
void exec_free(struct exec_result *r);
/* The bound statement of a finished run, into buf. */
const char *exec_bound_text(const struct exec_opts *o, const struct exec_result *r, char *buf, size_t len);

#endif
