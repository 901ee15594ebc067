/*
 * build: constructing valid kernel states step by step, the way the kernel
 * itself would have reached them (threads made runnable through the ready
 * queue operations, blocked through priority-ordered IPC queues, SCs
 * configured by refill_new). Used by the hand-written test scenarios and by
 * the state generator. Each call returns an object index, or KS_NONE when
 * the model's capacity is exhausted.
 */
#ifndef IRQSIM_BUILD_H
#define IRQSIM_BUILD_H

#include "kstate.h"

/* A thread in state Inactive with the given priority and domain. */
int build_thread(struct kstate *ks, const char *name, int prio, int dom);
/* A configured SC bound to thread t (t may be KS_NONE): round robin when
 * period is 0, else periodic; refills start at time start. */
int build_sc(struct kstate *ks, const char *name, int t, ticks_t budget, ticks_t period, ticks_t start);
/* An SC that is not configured (refill_max 0), bound to t or to nothing. */
int build_sc_unconfigured(struct kstate *ks, const char *name, int t);
int build_ntfn(struct kstate *ks, const char *name);
int build_ep(struct kstate *ks, const char *name);

/* Make t the running thread on core 0 (it must hold a configured SC), with
 * the address space setVMRoot(t) installs (its flags must be set first). */
void build_run(struct kstate *ks, int t);
/* Make t Running and queue it at the tail of its ready queue. */
void build_ready(struct kstate *ks, int t);
/* Make t Running and put it in the release queue of its core. */
void build_release(struct kstate *ks, int t);
/* Block t on notification n (queued by priority, as tcbEPAppend does). */
void build_wait_ntfn(struct kstate *ks, int t, int n);
/* Block t receiving on endpoint e, holding reply object r (KS_NONE: none). */
void build_recv_ep(struct kstate *ks, int t, int e, int r);
/* Block t sending on endpoint e. */
void build_send_ep(struct kstate *ks, int t, int e);
/* Thread t (Inactive, no SC) blocked on a new reply object that heads
 * sc's call stack, as a seL4_Call that donated sc left it (reply_push,
 * src/object/reply.c:31-52). Returns the reply, KS_NONE when full. */
int build_call_push(struct kstate *ks, int t, int sc, const char *reply_name);
void build_bind_ntfn(struct kstate *ks, int t, int n);
void build_bind_sc_ntfn(struct kstate *ks, int sc, int n);
/* IRQ irq in state IRQSignal with a notification cap to n. */
void build_irq_signal(struct kstate *ks, int irq, int n, uint64_t badge, bool can_send);
void build_irq_state(struct kstate *ks, int irq, int state);
/* a hypervisor build's boot (arm/kernel/boot.c:128-129 at 1326364bc): the
 * VGIC maintenance and virtual timer PPIs IRQReserved, unmasked
 * (setIRQState masks only an inactive IRQ, interrupt.c:287-297), their
 * handler slots empty */
void build_hyp_boot(struct kstate *ks);
/* The deadline the kernel would have programmed at its last exit, given
 * that ksConsumed ticks have passed since then. */
void build_deadline(struct kstate *ks);

/* An SMP build's second core: ENABLE_SMP_SUPPORT on, and core 1 running its
 * own idle thread ("idle1", as create_idle_thread makes one per core).
 * Returns that thread. */
int build_core1(struct kstate *ks);
/* SC sc configured as the kernel's boot configures an idle SC: round robin
 * with 5 ms (base) or MAX_PERIOD_TICKS (master) */
void build_idle_sc(struct kstate *ks, int sc);
/* Master with an FPU: each core's current thread (not idle) owns that
 * core's FPU, as lazyFPURestore at every switch leaves it (check/
 * invariant.c, check_fpu_owners); no FPU: nothing. */
void build_fpu_owners(struct kstate *ks);
/* Two domains of 10 ms each (ksDomSchedule), the first one current. */
void build_two_domains(struct kstate *ks);

#endif
