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
    /* ipi_latency enumerated: 0 and EXEC_IPI_LATENCY (issue 31); false:
     * 0 only, the space before (one core sends no IPI: the command
     * enumerates it on two) */
    bool ipi_latency;
    /* a hypervisor build (one core): thread a a guest with a VCPU whose
     * fault handler is a VMM thread v (priority 15) on endpoint fep, and
     * the guest's virtual timer firing at IRQ 40's arrival (docs/
     * EXHAUSTIVE.md, "Executions"); the space is the same */
    bool vcpus;
};

/* The enumerated IPI latency beside 0: the top of the workload fuzzer's
 * range (1 to 40 ticks, check/workload.c) */
#define EXEC_IPI_LATENCY 40
#define EXEC_IPI_LATENCY_TEXT "40"

/* The choices of the space, each an index: thread a's and thread b's
 * programs (0 .. exec_programs(depth) - 1), IRQ 40's arrival
 * (exec_arrival_at), the entry latency (exec_latency), the IPI latency
 * (0, or 1: EXEC_IPI_LATENCY). */
#define EXEC_MENU 7
#define EXEC_ARRIVALS 5
#define EXEC_LATENCIES 2
struct exec_point {
    uint64_t pa, pb;
    unsigned arrival, latency, ipi;
};
uint64_t exec_programs(int depth);
/* the workload index of x */
uint64_t exec_index(const struct exec_opts *o, const struct exec_point *x);
/* the k-th arrival of IRQ 40 in time order (k 0 .. EXEC_ARRIVALS - 1,
 * the last past the horizon: none) and its index in exec_point */
unsigned exec_arrival_time(unsigned k);
unsigned exec_arrival_index(unsigned k);

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
    /* the tree engine's (check/exectree.h); zero from the restart engine */
    struct exec_tree_counts {
        /* workloads of the space whose execution the tree covered (every
         * one when it finished), and their runs in the 5 other GIC
         * orders; explored or stood for by a state explored before */
        uint64_t covered, covered_reruns;
        uint64_t leaves;         /* executions simulated to their end */
        uint64_t forks;          /* choice points forked at */
        uint64_t states;         /* distinct simulator states remembered at choice points */
        uint64_t skipped;        /* choice points at a state explored before: not explored again */
        uint64_t skipped_covered, skipped_reruns; /* the workloads and reruns those stood for */
        uint64_t compared;       /* skips whose state was compared in full with the one remembered */
        uint64_t hash_only;      /* skips on the 128-bit hash alone (the copy past the memory cap) */
        uint64_t not_remembered; /* states past the visited set's capacity: explored, not remembered */
        uint64_t collisions;     /* a state's 128-bit hash equal to a remembered other state's: explored */
        bool cut;                /* stopped (--seconds, a signal) before the end */
    } tree;
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
/* A divergence of class cl met in workload wl (its run in GIC order
 * order): counted, and the least such workload kept. */
void exec_add_class(struct exec_result *r, const struct dclass *cl, uint64_t wl, int order);
/* from's totals added to into's, as if the run of into had gone on with
 * from's workloads: counts summed, the distinct entry states the union
 * of the two sets, from's classes after into's (hits summed, the least
 * first workload kept), from's refusal if into has none, the tree's
 * counts summed (cut if either was). The space stays into's. */
void exec_merge(struct exec_result *into, const struct exec_result *from);
/* h (odd) into the set: 1 when new, 0 when it was there already. */
int exec_set_add(struct exec_set *s, uint64_t h);
void exec_set_free(struct exec_set *s);
/* What r owns (its set); r's counts stay. */
void exec_free(struct exec_result *r);
/* The bound statement of a finished run, into buf. */
const char *exec_bound_text(const struct exec_opts *o, const struct exec_result *r, char *buf, size_t len);

#endif
