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

const char *fp_exit_name(int e);
const char *fp_exit_what(int e);
bool fp_exit_is_fallback(int e);
const char *fp_variant_name(int v);
int fp_variant_parse(const char *s); /* -1 when unknown */

/* Run the interrupt entry with the fastpath of the given variant; returns
 * the exit taken (a fallback has also run the slowpath). */
int fastpath_irq(struct kstate *ks, int variant);

#endif
