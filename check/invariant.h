/*
 * invariant: the invariant checker. kstate_check() lists every kernel
 * invariant a state breaks, with a readable message naming the objects:
 * the structural ones (indices, queues, bitmaps, bindings, refills) that
 * hold at any kernel entry or exit, and, for a state handed to the paths,
 * the ones that hold whenever user level runs (at entry and at exit).
 */
#ifndef IRQSIM_INVARIANT_H
#define IRQSIM_INVARIANT_H

#include "kstate.h"

#define INV_LIST(X) \
    X(INV_CONFIG, "config", "configuration is usable and its derived constants match") \
    X(INV_INDEX, "index", "every object reference is in range") \
    X(INV_IDLE, "idle", "the idle thread and idle SC are as the kernel sets them up") \
    X(INV_THREAD, "thread", "thread fields are in range and consistent with the thread state; a pending timeout fault only while blocked sending it, on reply, or inactive") \
    X(INV_CURRENT, "current", "the current thread runs, holds the current SC and is not queued") \
    X(INV_READY_QUEUE, "ready_queue", "ready queues are well linked and hold schedulable threads with ready, sufficient refills") \
    X(INV_BITMAP, "bitmap", "ready-queue bitmaps match the queues") \
    X(INV_RELEASE_QUEUE, "release_queue", "release queue is well linked, sorted by head refill time, holds exactly the flagged threads") \
    X(INV_REFILLS, "refills", "refill queues are in range, ordered, sum to the budget, head >= MIN_BUDGET") \
    X(INV_BINDING, "binding", "TCB/SC/notification bindings are symmetric") \
    X(INV_NTFN, "notification", "notification state matches its queue of blocked threads") \
    X(INV_EP, "endpoint", "endpoint state matches its queue of blocked threads") \
    X(INV_RELEASED, "released", "threads blocked in IPC queues (other than by a timeout fault) hold ready and sufficient refills (released_ipc_queues); SCs parked on notifications need not") \
    X(INV_REPLY, "reply", "reply objects and their TCBs point at each other") \
    X(INV_CALL_STACK, "call_stack", "call-stack links (replyPrev, replyNext, scReply) are symmetric and every reply on a stack has a caller blocked on it") \
    X(INV_TIME, "time", "time values are ordered and below MAX_RELEASE_TIME") \
    X(INV_DOMAIN, "domain", "domain schedule, current domain and domain time are consistent; from a domain's end on, no core holds another domain's thread's FPU or VCPU state") \
    X(INV_IRQ, "irq", "IRQ table, handler caps and the active IRQ are valid") \
    X(INV_SMP, "smp", "cores and affinities are valid for the configuration") \
    X(INV_ENTRY, "user", "user level runs: scheduler action resume, no reprogram pending, no ready thread outranks the current one; at entry the active IRQ is unmasked") \
    X(INV_FAULT, "fault", "a thread with a pending fault (blocked sending it, on its reply, or inactive) is in no ready or release queue") \
    X(INV_VCPU, "vcpu", "VCPUs only on a hypervisor build, bound both ways; the current thread's VCPU is the core's active one; the virtual timer is masked where the kernel leaves it masked")

enum inv_id {
#define INV_ENUM(id, name, what) id,
    INV_LIST(INV_ENUM)
#undef INV_ENUM
    INV_COUNT
};

#define INV_MAX_ITEMS 32
#define INV_MSG_LEN 200

struct inv_item {
    int id;
    char msg[INV_MSG_LEN];
};

struct inv_report {
    int n;      /* broken invariants found (may exceed the items kept) */
    struct inv_item items[INV_MAX_ITEMS];
};

enum inv_when { INV_AT_ENTRY, INV_AT_EXIT };

/* Returns the number of broken invariants; the report keeps the first ones. */
int kstate_check(const struct kstate *ks, enum inv_when when, struct inv_report *r);
/* The domain rule of the FPU and VCPU owners (check/invariant.c, where it
 * is argued): whether it holds for ks's configuration, and the thread of
 * another domain whose VCPU this core has loaded (KS_NONE: none), for the
 * generator, which keeps to it */
bool inv_domain_rule_fpu(const struct kstate *ks);
bool inv_domain_rule_vcpu(const struct kstate *ks);
int inv_domain_vcpu_thread(const struct kstate *ks);

/* States a fastpath under review leaves at user level that the kernel
 * with the IRQ slowpath only never does at an interrupt entry (on one
 * core: schedule() runs at every exit, src/kernel/thread.c:398-410 at
 * 43607edb6; docs/model.md has the table). kstate_check_admit() with
 * these bits accepts them, so the entries that follow such a state can be
 * explored; kstate_check() is kstate_check_admit(..., 0, ...). */
enum inv_admit {
    INV_ADMIT_ACTION = 1u << 0,    /* ksSchedulerAction not ResumeCurrentThread (F1, switch) */
    INV_ADMIT_REPROGRAM = 1u << 1, /* ksReprogram set (F1, F8) */
    INV_ADMIT_OUTRANKED = 1u << 2, /* a ready thread outranks the running one (F5: the idle one) */
    INV_ADMIT_DOMAIN_END = 1u << 3, /* the domain's time is 0 without a domain switch (F2) */
    INV_ADMIT_MASKED = 1u << 4,     /* a signal IRQ masked on master's GICv3 (F9) */
    INV_ADMIT_INHERITED = 1u << 5,  /* the current SC holds time consumed before it was switched to (F2) */
    INV_ADMIT_IPI = 1u << 6,        /* a core's ipiReschedulePending left set (S9, the signal fastpath) */
    INV_ADMIT_ALL = (1u << 7) - 1,
};
int kstate_check_admit(const struct kstate *ks, enum inv_when when, unsigned admit, struct inv_report *r);
/* What a fastpath variant leaves behind is its target's (target.h,
 * target_admit_left_by; measured in tests/test_invariant.c,
 * test_admit_left_by, and test_sim_signal.c). */
/* Parses "none", "all", a variant name, or a comma list of
 * action,reprogram,outranked,domain_end,masked,inherited,ipi; -1 when
 * malformed. */
int inv_admit_parse(const char *s, unsigned *out);
const char *inv_name(int id);
const char *inv_what(int id);
/* True when the report holds an item with this id. */
bool inv_has(const struct inv_report *r, int id);

#endif
