/*
 * cost: counts of the work each interrupt path does, per section. The
 * model functions carry one-line counting calls (COST, COST_SEC) beside the
 * kernel code they mirror; they record into the recorder a state points at
 * (ks->cost) and do nothing when it is NULL, so they never change an
 * outcome. What is counted is the kernel's work, not the model's: a read or
 * write of a kernel object field, node-state variable, IRQ table entry,
 * handler cap word, GIC or timer register, and each conditional branch the
 * kernel's C code takes (each operand of && and || evaluated). Assertions
 * (debug builds only) and the model's own bookkeeping are not counted;
 * configuration tests (numDomains, SMP, FPU, hypervisor) are compile-time
 * in the kernel and count no branch. docs/COST.md explains the method.
 */
#ifndef IRQSIM_COST_H
#define IRQSIM_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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

/* ---- measuring ---- */

uint32_t cost_total(const struct cost_counts *c, int kind); /* over sections */
uint32_t cost_section_sum(const struct cost_counts *c, int sec); /* R + W + B */
uint32_t cost_all(const struct cost_counts *c);                  /* R + W + B, all sections */
void cost_diff(const struct cost_counts *a, const struct cost_counts *b, int32_t out[CK_COUNT]); /* a - b totals */

/* Which path a measurement runs. */
enum cost_path { CP_SLOW, CP_PR1227, CP_FIXED, CP_COUNT };
const char *cost_path_name(int p);

struct cost_result {
    int exit;             /* fastpath exit, or -1 for the slowpath */
    struct cost_rec rec;
};

/* Copy in to out, run one path on out with a recorder, and detach it. */
void cost_run(const struct kstate *in, int path, struct kstate *out, struct cost_result *res);

/* ---- the benchmark situations and the fallback cases built from them ---- */

enum cost_situation { CS_SWITCH, CS_NOSWITCH, CS_COUNT };
const char *cost_situation_name(int s);
const char *cost_situation_what(int s);
int cost_situation_build(struct kstate *ks, int s, const char *board);

#define COST_CASE_LIST(X) \
    X(CC_TIMER, "timer_irq", CS_NOSWITCH, "the active IRQ is the kernel's timer (IRQ state Timer)") \
    X(CC_INACTIVE, "inactive_irq", CS_NOSWITCH, "the active IRQ is not set up (IRQ state Inactive)") \
    X(CC_NO_SC, "no_sc", CS_NOSWITCH, "the handler is passive (no SC) and the notification has none") \
    X(CC_DOMAIN, "other_domain", CS_NOSWITCH, "the handler is in another domain (two domains)") \
    X(CC_VTABLE, "vtable", CS_SWITCH, "switch needed and the handler's VTable is not a mapped vspace") \
    X(CC_ASID, "asid", CS_SWITCH, "switch needed and the handler's ASID no longer maps its vspace") \
    X(CC_VMID, "vmid", CS_SWITCH, "hypervisor build: switch needed and the handler's VMID is not valid") \
    X(CC_BUDGET, "budget", CS_NOSWITCH, "the spinner's head refill cannot pay the time consumed (clock at the budget edge)") \
    X(CC_DOM_EXPIRED, "domain_expired", CS_NOSWITCH, "the current domain's time is up (two domains)") \
    X(CC_RELEASE, "release", CS_NOSWITCH, "a periodic thread's refill is due: release queue head ready")

enum cost_case {
#define COST_CASE_ENUM(id, name, base, what) id,
    COST_CASE_LIST(COST_CASE_ENUM)
#undef COST_CASE_ENUM
    CC_COUNT
};

const char *cost_case_name(int c);
const char *cost_case_what(int c);
int cost_case_base(int c);
/* Build the case from its situation's preset; 0, or -1 on a bad board. */
int cost_case_build(struct kstate *ks, int c, const char *board);

/* ---- printing ---- */

/* The table of one situation: sections by path, R W B, totals. */
void cost_print_table(FILE *f, const struct cost_result res[CP_COUNT]);

#endif
