/*
 * cost_hooks: the counting calls the kernel-model files carry, and the
 * recorder they count into: how much work each interrupt path does, per
 * section. The model functions carry one-line counting calls (COST,
 * COST_SEC) beside the kernel code they mirror; they record into the recorder a state points at
 * (ks->cost) and do nothing when it is NULL, so they never change an
 * outcome. What is counted is the kernel's work, not the model's: a read or
 * write of a kernel object field, node-state variable, IRQ table entry,
 * handler cap word, GIC or timer register, and each conditional branch the
 * kernel's C code takes (each operand of && and || evaluated). Assertions
 * (debug builds only) and the model's own bookkeeping are not counted;
 * configuration tests (numDomains, SMP, FPU, hypervisor) are compile-time
 * in the kernel and count no branch. docs/COST.md explains the method.
 * Depends on kstate alone: what is measured with these counts (situations,
 * tables) is check/cost.h.
 */
#ifndef IRQSIM_COST_HOOKS_H
#define IRQSIM_COST_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

#include "kstate.h"

#define COST_SECTION_LIST(X) \
    X(SEC_ENTRY, "entry", "entry checks: active IRQ, its range, state and cap; the fastpath's checks before its point of no return") \
    X(SEC_NTFN, "notification", "notification state, queue dequeue or IPC cancel, badge") \
    X(SEC_WAKE, "donation+unblock", "thread state and badge register, SC donation, refill unblock check") \
    X(SEC_SCHED, "scheduling", "release queue and domain checks, possibleSwitchTo, schedule, queues, thread switch") \
    X(SEC_TIME, "time", "updateTimestamp, checkBudget, commitTime, budget charging") \
    X(SEC_TIMER, "timer", "next interrupt time and the timer compare register, the reprogram flag") \
    X(SEC_EXIT, "exit", "IRQ mask and ack, activateThread")

enum cost_section {
#define COST_SEC_ENUM(id, name, what) id,
    COST_SECTION_LIST(COST_SEC_ENUM)
#undef COST_SEC_ENUM
    SEC_COUNT
};

enum cost_kind { CK_R, CK_W, CK_B, CK_COUNT };

struct cost_counts {
    uint32_t n[SEC_COUNT][CK_COUNT];
};

/* A recorder: point ks->cost at one to count a run (cost_run does). */
struct cost_rec {
    int sec;                 /* section the next counts go to */
    bool irq_latched;        /* getActiveIRQ has read the GIC this entry */
    bool fell_back;          /* the fastpath handed over to the slowpath */
    struct cost_counts c;
    struct cost_counts at_fallback; /* counts when it did */
};

void cost_reset(struct cost_rec *r);

static inline void cost_add(struct cost_rec *r, unsigned reads, unsigned writes, unsigned branches)
{
    r->c.n[r->sec][CK_R] += reads;
    r->c.n[r->sec][CK_W] += writes;
    r->c.n[r->sec][CK_B] += branches;
}

/* The counting calls. With no recorder each is one predictable test of a
 * pointer in the state's header; the arguments are not evaluated. */
#define COST_ON(ks) __builtin_expect((ks)->cost != NULL, 0)
#define COST(ks, r, w, b)                              \
    do {                                               \
        if (COST_ON(ks))                               \
            cost_add((ks)->cost, (r), (w), (b));       \
    } while (0)
#define COST_IF(ks, cond, r, w, b)                     \
    do {                                               \
        if (COST_ON(ks) && (cond))                     \
            cost_add((ks)->cost, (r), (w), (b));       \
    } while (0)
#define COST_R(ks, n) COST(ks, n, 0, 0)
#define COST_W(ks, n) COST(ks, 0, n, 0)
#define COST_B(ks) COST(ks, 0, 0, 1)
#define COST_SEC(ks, s)                                \
    do {                                               \
        if (COST_ON(ks))                               \
            (ks)->cost->sec = (s);                     \
    } while (0)
#define COST_CALL(ks, call)                            \
    do {                                               \
        if (COST_ON(ks))                               \
            call;                                      \
    } while (0)

/* Shorthands for counting lines: numDomains > 1 (a compile-time constant
 * in the kernel); how many of a TCB's two queue neighbours exist; how many
 * of commitTime's SC tests (sc != ksIdleSC, ksConsumed > 0) it reaches */
#define COST_DOMAINS(ks) ((ks)->cfg.num_domains > 1)
#define COST_LINKS(prev, next) (((prev) != KS_NONE) + ((next) != KS_NONE))
#define COST_ACTIVE(ks, sc) \
    (!!(ks)->scs[sc].refill_max * (1 + ((sc) != (ks)->idle_sc)))

/* isSchedulable(t) as the kernel evaluates it, short-circuit: one read
 * and one branch per operand (nothing for a scheduler action that is not
 * a thread) */
#define COST_SCHEDULABLE(ks, t) COST_CALL(ks, cost_schedulable(ks, t))
/* refill_ready(sc) && refill_sufficient(sc, 0), short-circuit */
#define COST_READY_SUFF(ks, sc) COST_CALL(ks, cost_ready_sufficient(ks, sc))
/* getActiveIRQ: the first call of an entry reads the GIC (ICC_IAR1) and
 * keeps the IRQ in active_irq; later calls read the kept value */
#define COST_ACTIVE_IRQ(ks) COST_CALL(ks, cost_active_irq(ks))
/* the fastpath hands over to the slowpath: note what it had done */
#define COST_FALLBACK(ks) COST_CALL(ks, cost_fallback(ks))

void cost_schedulable(const struct kstate *ks, int t);
void cost_ready_sufficient(const struct kstate *ks, int sc);
void cost_active_irq(const struct kstate *ks);
void cost_fallback(const struct kstate *ks);

const char *cost_section_name(int s);
const char *cost_section_what(int s);
const char *cost_kind_name(int k);

#endif
