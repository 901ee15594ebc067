/*
 * gen: the state generator. Turns a byte string (so that libFuzzer and
 * AFL++ can steer it) or a seeded PRNG into a kernel state that satisfies
 * every invariant of the checker by construction, plus the active IRQ and
 * the hardware clock at entry. Choices lean towards the boundaries the
 * interrupt path branches on: equal priorities, budgets at MIN_BUDGET,
 * release heads and domain ends near the clock.
 */
#ifndef IRQSIM_GEN_H
#define IRQSIM_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "kstate.h"

struct target;

struct gen_bounds {
    int max_threads;   /* besides the idle thread(s), 1..KS_MAX_TCBS-2 */
    int prios;         /* distinct priorities in use, 1..256 */
    int max_refills;   /* refill_max of periodic SCs up to this (never below MIN_REFILLS), 1..16 */
    int max_domains;   /* 1..KS_MAX_DOMAINS */
    int max_ntfns;     /* 1..KS_MAX_NTFNS */
    bool allow_smp;
    bool edges;        /* entry clock drawn towards the budget, domain and
                          release edges (else uniform up to the deadline) */
    bool realistic;    /* timing as on a running system: budgets of 1-11 ms,
                          no pending consumption, domains and releases not
                          placed near the clock, uniform entry clock */
    int kernel;        /* enum ks_kernel of every state (base by default) */
    bool vcpus;        /* hypervisor builds with VCPU threads (gen_vcpus in
                          gen.c; `--vcpus`): off by default, and then no draw
                          of theirs is taken, so states stay as they were */
    const struct target *target; /* the entry drawn (its gen_entry): an IRQ
                          (default) or a SysSend by the current thread */
    const char *board; /* NULL: any preset (of the first six on base) */
    const struct ks_config *config; /* NULL: drawn per state; else every state
                                       has exactly this configuration (a
                                       kernel build's: its timer, WCET, maxIRQ,
                                       GIC, domains, cores, FPU, hypervisor) */
};

void gen_bounds_default(struct gen_bounds *b);
/* NULL when the bounds are usable, else what is wrong with them. */
const char *gen_bounds_check(const struct gen_bounds *b);

/* Where the generator's choices come from: data first, then a PRNG seeded
 * from what was read (or from seed when there is no data). */
struct gen_src {
    const uint8_t *data;
    size_t len, pos;
    uint64_t rng;
};

void gen_src_bytes(struct gen_src *s, const uint8_t *data, size_t len);
void gen_src_seed(struct gen_src *s, uint64_t seed);
/* A choice in [0, n) from s (0 when n <= 1): what a target's own draws
 * (its gen_entry hook, target.h) take, as the generator's own do. */
uint64_t gen_pick(struct gen_src *s, uint64_t n);
/* An endpoint of ks for a thread's fault handler cap, from s: any but one
 * whose waiting receiver has an SC not configured (a fault sent there
 * would donate to it); KS_NONE when none is. */
int gen_fault_handler_ep(const struct kstate *ks, struct gen_src *src);
/* A system call's caller t given a fault handler (1 in 2, when it has
 * none): a cap fault of the call then goes to it with its lookup fault
 * (sendFaultIPC's tcbLookupFailure), where without one the caller only
 * becomes Inactive. */
void gen_caller_fault_handler(struct kstate *ks, struct gen_src *src, int t);

/* Build a state into ks. Returns 0 (the state then passes kstate_check at
 * entry) or -1 if the bounds are unusable. States that cannot be b->target's entry
 * (its gen_entry: for a SysSend, those whose current thread cannot make a
 * system call) are drawn anew from the same source until one can. */
int gen_state(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b);

/* The refill histories of periodic SCs: GEN_HISTORIES per configuration,
 * each built by the kernel's refill functions (refill_new, then charges
 * through refill_budget_check and wake-ups through refill_unblock_check)
 * from a stream of its own, and drawn by index. gen_state builds the one
 * drawn every time; gen_state_cached keeps each built one in c (a worker's
 * own, from gen_cache_new), so the kernel's charges run once per history.
 * Both give the same state for the same source and bounds. */
#define GEN_HISTORIES 1024
struct gen_cache;
struct gen_cache *gen_cache_new(void);
void gen_cache_free(struct gen_cache *c);
int gen_state_cached(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b, struct gen_cache *c);

/* Why the state's current thread cannot make a system call (rk_sig.c's
 * `unfit`): "idle", "not running", "action pending"; NULL when it can. */
const char *gen_syscall_unfit(const struct kstate *ks);

/* Draw the entry clock (hw_clock) of a state from gen_state anew, as
 * gen_state's last step draws it from everything else in the state: the
 * state with the new clock has gen_state's distribution. The fuzzer checks
 * a few clocks per generated state (`irqsim fuzz --clocks`). */
void gen_reclock(struct kstate *ks, struct gen_src *src, const struct gen_bounds *b);

/* The IRQ numbers at the edges of the valid range that the generators draw
 * as lines with a fixed share (gen.c's states, the workload fuzzer's
 * device IRQs; one rule for both): edge i of GEN_IRQ_EDGES under c is the
 * first line a user can hold (0; 2 on SMP, where 0 and 1 are the IPIs),
 * maxIRQ - 1 and maxIRQ (the last valid: Arch_checkIRQ and the fastpath
 * refuse irq > maxIRQ only). */
#define GEN_IRQ_EDGES 3
int gen_irq_edge(const struct ks_config *c, unsigned i);

#endif
