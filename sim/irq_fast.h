/*
 * irq_fast: the IRQ fastpath of seL4 PR #1227 (fastpath_irq in
 * src/fastpath/fastpath.c at 2b302023d), modelled as proposed. Every way out
 * has a name: FP_EXIT_* finish by themselves, FP_SLOW_* fall back to the
 * slowpath, which then runs on the state as the fastpath left it.
 */
#ifndef IRQSIM_IRQ_FAST_H
#define IRQSIM_IRQ_FAST_H

#include "kstate.h"

#define FP_EXIT_LIST(X) \
    X(FP_SLOW_BUDGET, "slow_budget", "fixed only: the current (non-idle) SC cannot pay the time consumed (checkBudget would charge)") \
    X(FP_SLOW_DOMAIN_EXPIRED, "slow_domain_expired", "fixed only: the current domain's time is up") \
    X(FP_SLOW_REPROGRAM, "slow_reprogram", "fixed only: ksReprogram is set at entry (another core asked for it, SMP)") \
    X(FP_SLOW_RELEASE, "slow_release", "fixed only: the release queue's head is ready (awaken would release it)") \
    X(FP_SLOW_OUTRANKED, "slow_outranked", "fixed only: a ready thread another core queued outranks the thread schedule() would keep (SMP)") \
    X(FP_SLOW_OWED_IPI, "slow_owed_ipi", "fixed only: this core's ipiReschedulePending is set at entry (left by fastpath_signal, SMP)") \
    X(FP_EXIT_SPURIOUS, "spurious", "no valid IRQ: handleSpuriousIRQ only") \
    X(FP_EXIT_OUT_OF_RANGE, "out_of_range", "IRQ above maxIRQ: mask and ack") \
    X(FP_SLOW_NOT_SIGNAL, "slow_not_signal", "IRQ state is not IRQSignal (timer, IPI, reserved, inactive)") \
    X(FP_EXIT_UNDELIVERED, "undelivered", "handler cap is not a sendable notification cap: mask and ack") \
    X(FP_EXIT_ACTIVE, "ntfn_active", "active notification: badge ORed in") \
    X(FP_EXIT_IDLE, "ntfn_idle", "idle notification, no bound TCB blocked on receive: made active") \
    X(FP_SLOW_NO_SC, "slow_no_sc", "receiver has no SC and none can be donated from the notification") \
    X(FP_SLOW_FPU, "slow_fpu", "donation to a receiver whose FPU state is live on a core (SMP)") \
    X(FP_SLOW_DOMAIN_CORE, "slow_domain_core", "receiver in another domain, or its SC on another core") \
    X(FP_SLOW_REFILL, "slow_refill", "receiver's head refill not ready or not sufficient") \
    X(FP_SLOW_VTABLE, "slow_vtable", "switch needed and receiver's VTable is not a mapped vspace") \
    X(FP_SLOW_ASID, "slow_asid", "switch needed and receiver's ASID no longer maps its vspace") \
    X(FP_SLOW_VMID, "slow_vmid", "switch needed and receiver's VMID is not valid (hypervisor)") \
    X(FP_EXIT_NOT_SCHEDULABLE, "woken_unschedulable", "receiver woken, its SC is not configured") \
    X(FP_EXIT_SWITCH, "switch", "receiver outranks the current thread: direct switch") \
    X(FP_EXIT_APPEND, "append", "receiver at the current thread's priority: appended to its ready queue") \
    X(FP_EXIT_ENQUEUE, "enqueue", "receiver below the current thread: enqueued at its queue's head")

enum fp_exit {
#define FP_EXIT_ENUM(id, name, what) id,
    FP_EXIT_LIST(FP_EXIT_ENUM)
#undef FP_EXIT_ENUM
    FP_EXIT_COUNT
};

/* Which fastpath: the proposal as written, or irqsim's corrected one. */
enum fp_variant { FP_PR1227, FP_FIXED, FP_VARIANT_COUNT };

/* The corrected fastpath is the proposal plus these independent changes;
 * each can be applied alone, which is how a divergence is attributed to
 * the change that removes it. docs/FINDINGS.md explains each. */
#define FP_FIX_LIST(X) \
    X(FIX_ENTRY_TIME, "entry_time", "read the clock at entry (updateTimestamp) before anything else") \
    X(FIX_ENTRY_BUDGET, "entry_budget", "fall back when the current SC cannot pay the time consumed") \
    X(FIX_ENTRY_DOMAIN, "entry_domain", "fall back when the current domain has expired") \
    X(FIX_ENTRY_RELEASE, "entry_release", "fall back when the release queue's head is ready") \
    X(FIX_IDLE_SWITCH, "idle_switch", "always switch away from the idle thread") \
    X(FIX_DEADLINE, "deadline", "on a switch, program the timer for the new thread unconditionally") \
    X(FIX_CB_UNBLOCK, "cb_unblock", "on a switch, run the unblock check of a constant-bandwidth SC") \
    X(FIX_REPROGRAM, "reprogram_flag", "leave no ksReprogram request behind; fall back when one is pending at entry") \
    X(FIX_SPLIT_EOI, "split_eoi", "on master's GICv3 (split EOI) leave a signal IRQ unmasked and active, as handleInterrupt does") \
    X(FIX_OUTRANKED, "outranked", "fall back when a ready thread outranks the one schedule() would keep (another core's queueing, its IPI in flight)") \
    X(FIX_OWED_IPI, "owed_ipi", "fall back when this core's ipiReschedulePending is set at entry (schedule() sends it)") \
    X(FIX_RESWITCH, "reswitch", "on the append and enqueue exits switch to the current thread again, as schedule() does (Arch_switchToThread: its VCPU, its vspace)")

enum fp_fix_bit {
#define FP_FIX_BIT(id, name, what) id##_BIT,
    FP_FIX_LIST(FP_FIX_BIT)
#undef FP_FIX_BIT
    FIX_COUNT
};

#define FIX_ALL ((1u << FIX_COUNT) - 1)
#define FIX(id) (1u << id##_BIT)

const char *fp_fix_name(int bit);
const char *fp_fix_what(int bit);
/* The fix set of a variant: none for pr1227, all for fixed. */
unsigned fp_variant_fixes(int variant);
/* The interrupt entry with the proposal plus the given fixes. */
int fastpath_irq_fixes(struct kstate *ks, unsigned fixes);
/* The same; *tested gets the fixes whose setting the run depended on (a
 * fix it never tested could be toggled without changing a step). */
int fastpath_irq_tested(struct kstate *ks, unsigned fixes, unsigned *tested);

const char *fp_exit_name(int e);
const char *fp_exit_what(int e);
bool fp_exit_is_fallback(int e);
const char *fp_variant_name(int v);
int fp_variant_parse(const char *s); /* -1 when unknown */

/* Run the interrupt entry with the fastpath of the given variant; returns
 * the exit taken (a fallback has also run the slowpath). */
int fastpath_irq(struct kstate *ks, int variant);

/* The fastpath helpers of include/fastpath/fastpath.h that master's signal
 * fastpath shares (sim/sig_fast.c). ntfn_queue_dequeue_fp is base's; master
 * dequeues with tcbNTFNDequeue, which does the same (notification.c:398-409). */
void cancelIPC_fp(struct kstate *ks, int dest);
void ntfn_queue_dequeue_fp(struct kstate *ks, int dest, int n);
void maybeDonateSchedContext_fp(struct kstate *ks, int dest, int sc);

#endif
