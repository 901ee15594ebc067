/*
 * exhaust: bounded-exhaustive enumeration of kernel states for the
 * differential check (`irqsim exhaust`, docs/EXHAUSTIVE.md).
 *
 * A state is described by a plan: one value for each dimension the
 * interrupt path branches on (the current thread and its SC, the entry
 * clock against each edge the kernel compares it with, the release and
 * ready queues, the IRQ, the notification, the woken thread and its SC,
 * priorities as relative orders, domains, cores). Plans are enumerated as
 * a choice sequence: each dimension's range may depend on the choices
 * before it, so values that cannot occur together are never enumerated,
 * and a dimension that does not apply takes no choice at all. Every plan
 * is a distinct state up to renaming of threads and relabelling of
 * priorities: each plan builds its objects in one canonical order, a queue
 * of interchangeable threads is a non-decreasing sequence, and a priority
 * is chosen among the distinct positions relative to the priorities
 * already present (docs/EXHAUSTIVE.md, "Symmetry").
 *
 * The plan walk is cheap (no kernel state), so a shard or a resumed run
 * skips plans without building them; exh_build() then makes the state with
 * the helpers of build.h.
 */
#ifndef IRQSIM_EXHAUST_H
#define IRQSIM_EXHAUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kstate.h"

struct target;

/* The bound. */
struct exh_bounds {
    int threads;       /* threads besides the idle thread(s), 1..EXH_MAX_THREADS */
    int ntfns;         /* notifications, 1..2 */
    int refills;       /* refills in a periodic SC's queue, 1..EXH_MAX_REFILLS (its
                          refill_max ranges over max(2, refills in it) .. max(2, this)) */
    int domains;       /* configured domains, 1..2 */
    const char *board; /* a preset of sim/config.c */
    int kernel;        /* enum ks_kernel: base (default) or master, whose
                          states add the master-only values (exh_build) */
    const struct target *target; /* PR #1227's fastpath_irq (default) or
                          master's fastpath_signal (the IRQ dimension becomes
                          the SysSend's inputs, docs/EXHAUSTIVE.md): its
                          descriptor's exh hooks */
};

#define EXH_MAX_THREADS 6
#define EXH_MAX_REFILLS 4
#define EXH_MAX_CHOICES 64
#define EXH_MAX_QUEUE 4 /* release and ready queue entries, notification waiters */

void exh_bounds_default(struct exh_bounds *b);
/* NULL when usable, else what is wrong. */
const char *exh_bounds_check(const struct exh_bounds *b);

/* ---- dimension values ---- */

#define EXH_ENTRY_DIMS 3

enum exh_cur { CUR_IDLE, CUR_RR, CUR_CB, CUR_CB_TH, CUR_SPOR, CUR_KINDS };
enum exh_ntfn {
    XN_ACTIVE, XN_IDLE_UNBOUND, XN_IDLE_BOUND_CUR, XN_IDLE_BOUND_INACTIVE, XN_IDLE_BOUND_WAITING_OTHER,
    XN_IDLE_RECV, XN_WAITING, XN_KINDS
};
/* the woken thread's SC */
enum exh_rsc {
    RSC_OWN_RR, RSC_OWN_CB, RSC_OWN_SPOR, RSC_OWN_UNCONF,
    RSC_NTFN_RR, RSC_NTFN_CB, RSC_NTFN_SPOR, RSC_NTFN_HELD, RSC_NONE, RSC_KINDS
};
/* a periodic head refill's time: own SCs (released: ready at ksCurTime) */
enum exh_rhead { RH_BEFORE, RH_AT_CUR, RH_AT_ENTRY, RH_AFTER_ENTRY, RH_KINDS };
/* the second refill against the head's end once stamped (refill_head_overlapping) */
enum exh_merge { RM_BOTH, RM_ENTRY_ONLY, RM_NEITHER, RM_KINDS };
enum exh_core { RC_UP, RC_OTHER_CORE, RC_FPU_LIVE, RC_KINDS };
enum exh_as { RA_OK, RA_VTABLE, RA_ASID, RA_KINDS };
enum exh_ready { RDY_OTHER_DOMAIN, RDY_EQUAL, RDY_BELOW, RDY_KINDS };

/* Offsets of an edge from the entry clock, in units the builder turns
 * into ticks (exh_edge_ticks): the values the kernel's comparisons make. */
enum exh_edge {
    E_FAR,        /* far beyond every other edge */
    E_MB_PLUS1,   /* edge - clock = MIN_BUDGET + 1 */
    E_MB,         /* = MIN_BUDGET */
    E_MB_MINUS1,  /* = MIN_BUDGET - 1 */
    E_PLUS1,      /* = 1 */
    E_ZERO,       /* = 0 */
    E_WINDOW,     /* = -(WCET - precision): the deadline is WCET before the clock */
    E_PAST_WINDOW,/* = -(WCET - precision) - 1: past the window (timer IRQ only) */
    E_KINDS
};

struct exh_plan {
    const struct exh_ops *ops; /* the bound's target's */
    int ndom;
    int cur;            /* enum exh_cur */
    int cur_k;          /* refills in the current SC (periodic) */
    int cur_max;        /* its refill_max: max(2, cur_k) .. max(2, --refills) */
    int c_big, d_big;   /* pending consumption, clock advance: 0 or the non-zero value */
    /* the entry's own dimensions: the target's exh_ops choose them
     * (plan_entry) and read them (build, text); their values are the
     * target's (the IRQ taken, a SysSend's cap and message) */
    int entry[EXH_ENTRY_DIMS];
    int budget_edge;    /* enum exh_edge: current head refill's end - MIN_BUDGET ... see builder */
    int dom_edge;       /* enum exh_edge (ndom 2) */
    int ntfn;           /* enum exh_ntfn (where the entry signals a notification: exh_ops signals) */
    int waiters;        /* threads in the notification queue (XN_WAITING) */
    bool recv;          /* a thread is woken */
    bool recv_reply;    /* the bound receiver (XN_IDLE_RECV) holds a reply object */
    int recv_bound;     /* the waiting receiver (XN_WAITING) is bound to: 0 nothing,
                           1 the notification it waits on, 2 the second notification */
    int rsc;            /* enum exh_rsc */
    int r_k;            /* refills of the receiver's SC (periodic) */
    int r_max;          /* its refill_max, as cur_max */
    bool r_big;         /* head amount 20 x MIN_BUDGET instead of MIN_BUDGET */
    int r_head;         /* enum exh_rhead */
    int r_merge;        /* enum exh_merge (r_k >= 2) */
    int n_rel;
    int rel_time[EXH_MAX_QUEUE]; /* enum exh_edge, non-decreasing */
    int rel_prio[EXH_MAX_QUEUE];
    int n_rdy;
    int rdy[EXH_MAX_QUEUE];      /* enum exh_ready, non-decreasing */
    int r_prio;         /* the receiver's priority (a value on the ladder) */
    int r_dom;          /* 0 or 1 */
    int r_core;         /* enum exh_core */
    int r_as;           /* enum exh_as */
    bool r_stale;       /* master: the waiting receiver (XN_WAITING) holds a
                           stale reply reference (4f4721706) */
};

/* A target's part of the enumeration (its descriptor's exh, target.h): the
 * entry's own dimension and what depends on it, in the target's own files
 * (check/target_irq.c, check/target_signal_entry.c); they choose with
 * exh_choose and build with build.h. */
struct exh_walk;
/* A choice among n values of the plan being walked (0 .. n-1); a dimension
 * with one value takes no position. */
int exh_choose(struct exh_walk *w, int n);
struct exh_ops {
    /* the current thread: any kind, or one that can make a system call */
    int (*plan_current)(struct exh_walk *w, int threads_left);
    /* the entry's own dimension: the IRQ, or the SysSend's inputs */
    void (*plan_entry)(struct exh_walk *w, struct exh_plan *p);
    /* the timer IRQ: the edge values past the WCET window exist */
    bool (*timer)(const struct exh_plan *p);
    bool (*signals)(const struct exh_plan *p);    /* a notification is signalled */
    bool (*names_ntfn)(const struct exh_plan *p); /* a notification object is named */
    /* the fastpath compares the receiver with the current thread of its
     * SC's core (on the other core its idle thread, priority 0), so a
     * receiver of priority 0 is a value of its own */
    bool prio_vs_core;
    /* the fastpath never switches to the receiver: only the slowpath reads
     * the receiver's vspace, alike on both sides, so it is not varied */
    bool never_switches;
    void (*build)(struct kstate *ks, const struct exh_plan *p, int ntfn);
    const char *(*text)(const struct exh_plan *p, char *buf, size_t len);
};

/* ---- the iterator: one plan per step ---- */

struct exh_iter {
    struct exh_bounds b;
    uint8_t digit[EXH_MAX_CHOICES], radix[EXH_MAX_CHOICES];
    int len;            /* choices of the current plan */
    uint64_t ordinal;   /* index of the current plan in the whole space */
    bool done;
    struct exh_plan plan;
};

/* The first plan of the space (bounds must pass exh_bounds_check). */
void exh_begin(struct exh_iter *it, const struct exh_bounds *b);
/* The next plan; false when the space is exhausted. */
bool exh_next(struct exh_iter *it);
/* Continue from a saved position (digits of a plan and its ordinal);
 * -1 when the digits are not a plan of this space. */
int exh_seek(struct exh_iter *it, const struct exh_bounds *b, const uint8_t *digits, int len, uint64_t ordinal);
/* Plans in the whole space (walks it; no state is built). */
uint64_t exh_count(const struct exh_bounds *b);

/* Build the state of a plan. Returns 0, or -1 when the model's capacity is
 * exhausted (does not happen within EXH_MAX_*). */
int exh_build(const struct exh_plan *p, const struct exh_bounds *b, struct kstate *ks);

/* The plan as one line of text (dimension=value ...), into buf. */
const char *exh_plan_text(const struct exh_plan *p, char *buf, size_t len);

const char *exh_edge_name(int e);

#endif
