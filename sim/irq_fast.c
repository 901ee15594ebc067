/* irq_fast: model of fastpath_irq from seL4 PR #1227. */
#include "irq_fast.h"

#include <string.h>

#include "budget.h"
#include "cost_hooks.h"
#include "irq_slow.h"
#include "irqc.h"
#include "kassert.h"
#include "ntfn.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "vcpuswitch.h"
#include "vspace.h"

static const struct { const char *name, *what; bool fallback; } exits[] = {
#define FP_EXIT_TEXT(id, name, what) {name, what, #id[3] == 'S'},
    FP_EXIT_LIST(FP_EXIT_TEXT)
#undef FP_EXIT_TEXT
};

const char *fp_exit_name(int e)
{
    return e >= 0 && e < FP_EXIT_COUNT ? exits[e].name : "?";
}

const char *fp_exit_what(int e)
{
    return e >= 0 && e < FP_EXIT_COUNT ? exits[e].what : "?";
}

bool fp_exit_is_fallback(int e)
{
    return e >= 0 && e < FP_EXIT_COUNT && exits[e].fallback;
}

static const char *const variants[] = {"pr1227", "fixed"};

static const struct { const char *name, *what; } fixes_text[] = {
#define FP_FIX_TEXT(id, name, what) {name, what},
    FP_FIX_LIST(FP_FIX_TEXT)
#undef FP_FIX_TEXT
};

const char *fp_fix_name(int bit)
{
    return bit >= 0 && bit < FIX_COUNT ? fixes_text[bit].name : "?";
}

const char *fp_fix_what(int bit)
{
    return bit >= 0 && bit < FIX_COUNT ? fixes_text[bit].what : "?";
}

unsigned fp_variant_fixes(int variant)
{
    return variant == FP_FIXED ? FIX_ALL : 0;
}

const char *fp_variant_name(int v)
{
    return v >= 0 && v < FP_VARIANT_COUNT ? variants[v] : "?";
}

int fp_variant_parse(const char *s)
{
    for (int v = 0; v < FP_VARIANT_COUNT; v++)
        if (strcmp(s, variants[v]) == 0)
            return v;
    return -1;
}

/* slowpath_irq: the fallback runs the whole slowpath on the current state */
static int slowpath_irq(struct kstate *ks, int exit)
{
    COST_FALLBACK(ks);
    handleInterruptEntry(ks);
    return exit;
}

/* The common tail of every exit that handled the IRQ itself: mask unless
 * keep (a signal IRQ under split_eoi), and ack. */
static int mask_ack(struct kstate *ks, int irq, int exit, bool keep)
{
    COST_SEC(ks, SEC_EXIT);
    if (!keep)
        maskInterrupt(ks, true, irq);
    ackInterrupt(ks, irq);
    return exit;
}

/* cancelIPC_fp */
void cancelIPC_fp(struct kstate *ks, int dest)
{
    struct ks_tcb *t = &ks->tcbs[dest];
    struct ks_ep *ep = &ks->eps[t->blocking];
    tcbEPDequeue(ks, dest, &ep->q_head, &ep->q_tail);
    /* blockingObject, queue, replyObject; queue, empty? state, reply? */
    COST(ks, 4, 2 + (ep->q_head == KS_NONE), 2);
    if (ep->q_head == KS_NONE)
        ep->state = EP_Idle;
    if (t->reply != KS_NONE)
        reply_unlink(ks, t->reply, dest);
}

/* ntfn_queue_dequeue_fp */
void ntfn_queue_dequeue_fp(struct kstate *ks, int dest, int n)
{
    struct ks_ntfn *ntfn = &ks->ntfns[n];
    tcbEPDequeue(ks, dest, &ntfn->q_head, &ntfn->q_tail);
    COST(ks, 2, 2 + (ntfn->q_head == KS_NONE), 1); /* queue; queue, empty? state */
    if (ntfn->q_head == KS_NONE)
        ntfn->state = NTFN_Idle;
}

/* maybeDonateSchedContext_fp: schedContext_donate without migrateTCB */
void maybeDonateSchedContext_fp(struct kstate *ks, int dest, int sc)
{
    COST(ks, 1, 0, 1); /* tcbSchedContext */
    if (ks->tcbs[dest].sc == KS_NONE) {
        COST_W(ks, 2); /* scTcb, tcbSchedContext */
        ks->scs[sc].tcb = (int8_t)dest;
        ks->tcbs[dest].sc = (int8_t)sc;
    }
    COST_IF(ks, ks->cfg.smp, 1, 1, 0); /* scCore, tcbAffinity */
    if (ks->cfg.smp)
        ks->tcbs[dest].affinity = ks->scs[sc].core;
}

/* The fixes of a run, and those of them the run tested: a run of the same
 * state with an untested fix left out takes the same steps (the fixes are
 * not kernel state; classification uses this to skip runs). */
struct fp_fixes {
    unsigned on, tested;
};

/* Whether fix `bit` is on, noting that this run depends on it. */
static bool fp_fix_on(struct fp_fixes *f, unsigned bit)
{
    f->tested |= bit;
    return (f->on & bit) != 0;
}

/* FIX split_eoi: master on GICv3 leaves a signal IRQ unmasked and active
 * (handleInterrupt, a4b0c8d36, interrupt.c:232-235) until the handler's
 * IRQHandler_Ack deactivates it; the proposal masks it, and on master
 * nothing unmasks it again (IRQHandler_Ack only deactivates there). */
static bool keep_unmasked(const struct kstate *ks, struct fp_fixes *fixes)
{
    return cfg_split_eoi(&ks->cfg) && fp_fix_on(fixes, FIX(FIX_SPLIT_EOI));
}

/* The checks before the point of no return that need the receiver. */
struct fp_dest {
    int dest, sc, ntfn;
    bool idle, schedulable, context_switch;
};

/* FIX outranked: on SMP another core may have queued a thread here that
 * outranks this core's current one (remoteQueueUpdate, src/object/tcb.c:
 * 444-461) or moved the current one to its ready queue and this core to
 * the idle thread (remoteTCBStall, tcb.c:463-476, ipiStallCoreCallback,
 * src/smp/ipi.c:67-79, also while this core waits for the lock with an
 * IRQ already acknowledged); its reschedule IPI is still in flight. A
 * woken schedulable receiver goes to schedule() through possibleSwitchTo,
 * which then consults the ready queues (thread.c:376-384): from the idle
 * thread, any candidate that is not the highest ready priority; else a
 * candidate that does not outrank the current thread, whenever a ready
 * thread does. */
static bool outranked(struct kstate *ks, int dest_prio, struct fp_fixes *fixes)
{
    COST_IF(ks, (fixes->on & FIX(FIX_OUTRANKED)) && ks->cfg.smp, 1, 0, 1); /* the L1 bitmap */
    if (!ks->cfg.smp || !fp_fix_on(fixes, FIX(FIX_OUTRANKED)))
        return false;
    if (ks->cur_thread == ks->idle_thread)
        return !isHighestPrio(ks, ks->cur_domain, dest_prio);
    int cur = ks->tcbs[ks->cur_thread].prio;
    return dest_prio <= cur && !isHighestPrio(ks, ks->cur_domain, cur);
}

static int check_dest(struct kstate *ks, struct fp_dest *d, struct fp_fixes *fixes)
{
    const struct ks_tcb *dest = &ks->tcbs[d->dest];
    COST(ks, 3, 0, 1); /* ksCurThread, both priorities */
    d->context_switch = !(ks->tcbs[ks->cur_thread].prio >= dest->prio);
    COST(ks, 1, 0, 1); /* tcbSchedContext */
    d->sc = dest->sc;
    if (d->sc == KS_NONE) {
        d->sc = ks->ntfns[d->ntfn].sc;
        COST(ks, 1 + (d->sc != KS_NONE), 0, 1 + (d->sc != KS_NONE)); /* ntfnSchedContext, scTcb */
        if (d->sc == KS_NONE || ks->scs[d->sc].tcb != KS_NONE)
            return FP_SLOW_NO_SC;
        COST_IF(ks, ks->cfg.smp && ks->cfg.fpu, 1, 0, 1); /* nativeThreadUsingFPU */
        if (ks->cfg.smp && ks->cfg.fpu && dest->fpu_live)
            return FP_SLOW_FPU;
    }
    COST(ks, 2, 0, 1); /* ksCurDomain, tcbDomain */
    COST_IF(ks, ks->cfg.smp, 1, 0, 1); /* scCore (an SMP build has one domain: the domain test passed) */
    if (ks->cur_domain != dest->domain || (ks->cfg.smp && ks->scs[d->sc].core != CUR_CORE))
        return FP_SLOW_DOMAIN_CORE;
    COST(ks, 1, 0, 1); /* scRefillMax */
    if (ks->scs[d->sc].refill_max > 0) {
        COST_READY_SUFF(ks, d->sc);
        if (!(refill_ready(ks, d->sc) && refill_sufficient(ks, d->sc, 0)))
            return FP_SLOW_REFILL;
        d->schedulable = true;
    }
    if (d->schedulable && outranked(ks, dest->prio, fixes))
        return FP_SLOW_OUTRANKED;
    /* FIX idle_switch: schedule() leaves the idle thread for any
     * schedulable candidate, whatever its priority */
    COST_IF(ks, fixes->on & FIX(FIX_IDLE_SWITCH), 1, 0, 1 + (ks->cur_thread == ks->idle_thread)); /* ksIdleThread */
    if (fp_fix_on(fixes, FIX(FIX_IDLE_SWITCH)) && ks->cur_thread == ks->idle_thread && d->schedulable)
        d->context_switch = true;
    COST_B(ks); /* contextSwitch */
    if (d->context_switch) {
        COST(ks, 2, 0, 2); /* the VTable cap; isValidVTableRoot_fp */
        if (!dest->vtable_ok)
            return FP_SLOW_VTABLE;
        COST(ks, 2, 0, 3); /* findMapForASID: pool, entry; pool?, type, root */
        if (!dest->asid_ok)
            return FP_SLOW_ASID;
        COST_IF(ks, ks->cfg.hyp, 0, 0, 1); /* stored VMID valid */
        if (ks->cfg.hyp && !dest->vmid_ok)
            return FP_SLOW_VMID;
    }
    return FP_EXIT_COUNT;
}

/* The direct switch: account time, charge the current SC, requeue the
 * current thread, switch, and reprogram the timer only if it must fire
 * earlier than before. */
static void switch_direct(struct kstate *ks, int dest, struct fp_fixes *fixes)
{
    COST_SEC(ks, SEC_TIME);
    updateTimestamp(ks);
    COST_SEC(ks, SEC_TIMER);
    ticks_t prev = next_interrupt_time(ks);
    COST_SEC(ks, SEC_TIME);
    COST_B(ks); /* checkBudget() */
    if (checkBudget(ks))
        commitTime(ks);
    COST_SEC(ks, SEC_SCHED);
    COST_R(ks, 1); /* ksCurThread */
    COST_SCHEDULABLE(ks, ks->cur_thread);
    if (isSchedulable(ks, ks->cur_thread))
        tcbSchedEnqueue(ks, ks->cur_thread);
    /* switchToThread_fp (PR head include/arch/arm/arch/64/mode/fastpath/fastpath.h:30-45):
     * armv_contextSwitch_HWASID installs dest's vspace root with the ASID
     * (hyp: the stored VMID) check_dest found valid */
    COST_W(ks, 2); /* TTBR0 (armv_contextSwitch_HWASID), ksCurThread */
    if (ks->cfg.hyp) /* fastpath.h:35-37: the VCPU first */
        vcpu_switch(ks, ks->tcbs[dest].vcpu);
    ks->vspace = (int8_t)dest;
    lazyFPURestore(ks, dest); /* master's switchToThread_fp (fastpath.h:45-47) */
    ks->cur_thread = (int8_t)dest;
    int sc = ks->tcbs[dest].sc;
    /* FIX cb_unblock: what switchSchedContext does for a new SC */
    COST_SEC(ks, SEC_WAKE);
    COST_IF(ks, fixes->on & FIX(FIX_CB_UNBLOCK), 1, 0, 1); /* scSporadic */
    if (fp_fix_on(fixes, FIX(FIX_CB_UNBLOCK)) && sc_constant_bandwidth(ks, sc))
        refill_unblock_check(ks, sc);
    COST_SEC(ks, SEC_TIMER);
    ticks_t next = next_interrupt_time(ks);
    /* FIX deadline: the old deadline was for the old thread's budget */
    COST_IF(ks, !(fixes->on & FIX(FIX_DEADLINE)), 0, 0, 1); /* next < prev */
    if (next < prev || fp_fix_on(fixes, FIX(FIX_DEADLINE)))
        setDeadline(ks, next - ks->cfg.precision);
    COST_SEC(ks, SEC_SCHED);
    COST(ks, 1, 1, 0); /* tcbSchedContext; ksCurSC */
    ks->cur_sc = (int8_t)sc;
}

/* FIX reprogram_flag, when the current thread keeps running: the unblock
 * check of a sporadic receiver asked for a reprogram (refill_unblock_check,
 * src/kernel/sporadic.c). The slowpath's schedule() honours it in
 * switchSchedContext, which then commits the current SC's time, and by
 * setNextInterrupt (src/kernel/thread.c). Doing both here, not just
 * clearing the flag, charges ksConsumed now as the slowpath does:
 * charged later in one piece, refill_budget_check would split the
 * refills differently. (A switch does both in switch_direct.) */
static void honour_reprogram(struct kstate *ks, struct fp_fixes *fixes)
{
    COST_IF(ks, fixes->on & FIX(FIX_REPROGRAM), 1, 0, 1); /* ksReprogram */
    if (!ks->reprogram || !fp_fix_on(fixes, FIX(FIX_REPROGRAM)))
        return;
    commitTime(ks);
    COST_SEC(ks, SEC_TIMER);
    setNextInterrupt(ks);
    COST_W(ks, 1); /* ksReprogram */
    ks->reprogram = false;
    COST_SEC(ks, SEC_SCHED);
}

/* FIX reswitch: Arch_switchToThread(ksCurThread) as schedule() runs it on
 * these exits. The slowpath's possibleSwitchTo makes the receiver the
 * candidate; schedule() enqueues the current thread, appends the receiver
 * (same priority) or enqueues it (below: the fastfail branch), and
 * ChooseNewThread picks the current thread again and switches to it
 * (src/kernel/thread.c: schedule, chooseThread, switchToThread). Its
 * Arch_switchToThread (src/arch/arm/64/kernel/thread.c:14-20) runs on a
 * hypervisor build vcpu_switch(its VCPU), which disables a VCPU this core
 * keeps active for a thread another core's VCPU_SetTCB re-bound
 * (dissociateVCPUTCB compares that core's armHSCurVCPU only,
 * src/arch/arm/object/vcpu.c:236-259, 313: F12), and on every build
 * setVMRoot, which moves a thread whose VTable cap no longer names a
 * mapped vspace to the global one (vspace.c:735-758; "TTBR0 on the append
 * and enqueue exits", docs/FINDINGS.md). From the idle thread (the
 * proposal's F5) schedule() switches to the receiver instead: nothing to
 * switch to again. */
static void reswitch(struct kstate *ks, struct fp_fixes *fixes)
{
    COST_IF(ks, fixes->on & FIX(FIX_RESWITCH), 2, 0, 1); /* ksCurThread, ksIdleThread */
    if (!fp_fix_on(fixes, FIX(FIX_RESWITCH)) || ks->cur_thread == ks->idle_thread)
        return;
    COST(ks, 4, 1, 6); /* Arch_switchToThread: setVMRoot's VTable cap, ASID map, TTBR0 */
    Arch_switchToThread(ks, ks->cur_thread);
}

/* After the point of no return: wake dest and place it. */
static int deliver(struct kstate *ks, const struct fp_dest *d, int irq, uint64_t badge, struct fp_fixes *fixes)
{
    int dest = d->dest;
    COST_SEC(ks, SEC_NTFN);
    COST_B(ks); /* idle */
    if (d->idle)
        cancelIPC_fp(ks, dest);
    else
        ntfn_queue_dequeue_fp(ks, dest, d->ntfn);
    COST_SEC(ks, SEC_WAKE);
    COST_W(ks, 2); /* badgeRegister; the thread state word */
    ks->tcbs[dest].badge_reg = badge;
    ks->tcbs[dest].state = TS_Running; /* thread_state_ptr_set_tsType_np */
    ks->tcbs[dest].blocking = KS_NONE; /* ... which also clears the object */
    maybeDonateSchedContext_fp(ks, dest, d->sc);
    int sc = ks->tcbs[dest].sc;
    COST(ks, 2, 0, 2); /* sc_sporadic: tcbSchedContext, scSporadic */
    if (sc_sporadic(ks, sc)) {
        COST(ks, 1, 0, 1); /* ksCurSC */
        KASSERT(ks, sc != ks->cur_sc, A_FP_SPORADIC_CUR);
        if (sc != ks->cur_sc)
            refill_unblock_check(ks, sc);
    }
    COST_SEC(ks, SEC_SCHED);
    COST_B(ks); /* schedulable */
    if (!d->schedulable)
        return mask_ack(ks, irq, FP_EXIT_NOT_SCHEDULABLE, keep_unmasked(ks, fixes));
    COST_B(ks); /* contextSwitch */
    if (d->context_switch) {
        switch_direct(ks, dest, fixes);
        COST_SEC(ks, SEC_TIMER);
        COST_IF(ks, fixes->on & FIX(FIX_REPROGRAM), 0, 1, 0); /* ksReprogram */
        if (fp_fix_on(fixes, FIX(FIX_REPROGRAM)))
            ks->reprogram = false;
        return mask_ack(ks, irq, FP_EXIT_SWITCH, keep_unmasked(ks, fixes));
    }
    honour_reprogram(ks, fixes);
    COST(ks, 2, 0, 1); /* both priorities */
    int exit = FP_EXIT_ENQUEUE;
    if (ks->tcbs[ks->cur_thread].prio == ks->tcbs[dest].prio) {
        tcbSchedAppend(ks, dest);
        exit = FP_EXIT_APPEND;
    } else {
        tcbSchedEnqueue(ks, dest);
    }
    reswitch(ks, fixes);
    return mask_ack(ks, irq, exit, keep_unmasked(ks, fixes));
}

/* The entry work the proposal skips: the slowpath accounts time and checks
 * the budget, the domain and the release queue on every interrupt. The
 * corrected fastpath reads the clock and leaves to the slowpath every
 * interrupt on which that work would change something. */
static int entry_checks(struct kstate *ks, struct fp_fixes *fixes)
{
    COST_SEC(ks, SEC_TIME);
    if (fp_fix_on(fixes, FIX(FIX_ENTRY_TIME)))
        updateTimestamp(ks);
    COST_SEC(ks, SEC_ENTRY);
    /* FIX reprogram_flag on SMP: another core set this core's ksReprogram
     * (tcbReleaseEnqueue/tcbReleaseRemove, src/object/tcb.c:268,299, no
     * IPI); only schedule()'s setNextInterrupt honours it */
    COST_IF(ks, fixes->on & FIX(FIX_REPROGRAM), 1, 0, 1); /* ksReprogram */
    if (ks->reprogram && fp_fix_on(fixes, FIX(FIX_REPROGRAM)))
        return FP_SLOW_REPROGRAM;
    /* FIX owed_ipi: the kernel's own fastpath_signal queued a thread on
     * another core and returned without sending the reschedule IPI
     * (SCHED_ENQUEUE's remoteQueueUpdate, src/object/tcb.c:444-461, then
     * restore_user_context); only schedule() sends it (thread.c:399-402) */
    COST_IF(ks, (fixes->on & FIX(FIX_OWED_IPI)) && ks->cfg.smp, 1, 0, 1); /* ipiReschedulePending */
    if (ks->cfg.smp && ks->ipi_pending && fp_fix_on(fixes, FIX(FIX_OWED_IPI)))
        return FP_SLOW_OWED_IPI;
    /* chargeBudget leaves the idle SC alone: only a real SC needs the slowpath */
    COST_IF(ks, fixes->on & FIX(FIX_ENTRY_BUDGET), 2, 0, 1); /* ksCurSC, ksIdleSC */
    COST_IF(ks, (fixes->on & FIX(FIX_ENTRY_BUDGET)) && ks->cur_sc != ks->idle_sc, 3, 0, 2); /* refill_sufficient */
    if (fp_fix_on(fixes, FIX(FIX_ENTRY_BUDGET)) && ks->cur_sc != ks->idle_sc &&
        !refill_sufficient(ks, ks->cur_sc, ks->consumed))
        return FP_SLOW_BUDGET;
    COST_IF(ks, (fixes->on & FIX(FIX_ENTRY_DOMAIN)) && ks->cfg.num_domains > 1, 1, 0, 1); /* ksDomainTime */
    if (fp_fix_on(fixes, FIX(FIX_ENTRY_DOMAIN)) && isCurDomainExpired(ks))
        return FP_SLOW_DOMAIN_EXPIRED;
    int rh = ks->release_head[CUR_CORE];
    COST_IF(ks, fixes->on & FIX(FIX_ENTRY_RELEASE), 1 + 4 * (rh != KS_NONE), 0, 1 + (rh != KS_NONE));
    if (fp_fix_on(fixes, FIX(FIX_ENTRY_RELEASE)) && rh != KS_NONE && refill_ready(ks, ks->tcbs[rh].sc))
        return FP_SLOW_RELEASE;
    return FP_EXIT_COUNT;
}

/* fastpath_irq */
static int fastpath_irq_body(struct kstate *ks, struct fp_fixes *fixes)
{
    int fallback = entry_checks(ks, fixes);
    if (fallback != FP_EXIT_COUNT)
        return slowpath_irq(ks, fallback);
    COST_ACTIVE_IRQ(ks);
    COST_B(ks); /* irqInvalid */
    int irq = getActiveIRQ(ks);
    if (irq == KS_IRQ_INVALID) {
        handleSpuriousIRQ(ks);
        return FP_EXIT_SPURIOUS;
    }
    COST_B(ks); /* irq > maxIRQ */
    if (irq > (int)ks->cfg.max_irq)
        return mask_ack(ks, irq, FP_EXIT_OUT_OF_RANGE, false);
    COST(ks, 1, 0, 1); /* intStateIRQTable[irq] */
    if (irq_state_of(ks, irq) != IRQ_Signal)
        return slowpath_irq(ks, FP_SLOW_NOT_SIGNAL);
    const struct ks_irq_cap *cap = &ks->irq_cap[irq];
    COST(ks, 2, 0, 1 + (cap->type == CAP_Notification)); /* the cap; type, can send */
    if (cap->type != CAP_Notification || !cap->can_send)
        return mask_ack(ks, irq, FP_EXIT_UNDELIVERED, keep_unmasked(ks, fixes));

    struct fp_dest d = {.dest = KS_NONE, .ntfn = cap->ntfn};
    struct ks_ntfn *ntfn = &ks->ntfns[cap->ntfn];
    uint64_t badge = cap->badge;
    COST_SEC(ks, SEC_NTFN);
    COST(ks, 1, 0, 1); /* state */
    switch (ntfn->state) {
    case NTFN_Active:
        COST(ks, 1, 1, 0); /* ntfnMsgIdentifier |= badge */
        ntfn->msg_id |= badge;
        return mask_ack(ks, irq, FP_EXIT_ACTIVE, keep_unmasked(ks, fixes));
    case NTFN_Idle:
        d.dest = ntfn->bound_tcb;
        COST(ks, 1 + (d.dest != KS_NONE), 0, 1 + (d.dest != KS_NONE)); /* ntfnBoundTCB, its tsType */
        if (d.dest == KS_NONE || ks->tcbs[d.dest].state != TS_BlockedOnReceive) {
            ntfn_set_active(ks, cap->ntfn, badge);
            return mask_ack(ks, irq, FP_EXIT_IDLE, keep_unmasked(ks, fixes));
        }
        d.idle = true;
        break;
    case NTFN_Waiting:
        COST_R(ks, 1); /* ntfnQueue head */
        d.dest = ntfn->q_head;
        break;
    default:
        KASSERT(ks, false, A_NTFN_STATE);
        return mask_ack(ks, irq, FP_EXIT_ACTIVE, keep_unmasked(ks, fixes));
    }
    if (!ks_check(ks, d.dest != KS_NONE, A_FP_DEST))
        return mask_ack(ks, irq, FP_EXIT_ACTIVE, keep_unmasked(ks, fixes));

    COST_SEC(ks, SEC_ENTRY);
    fallback = check_dest(ks, &d, fixes);
    if (fallback != FP_EXIT_COUNT)
        return slowpath_irq(ks, fallback);
    return deliver(ks, &d, irq, badge, fixes);
}

/* c_handle_interrupt with CONFIG_IRQ_FASTPATH */
int fastpath_irq_tested(struct kstate *ks, unsigned fixes, unsigned *tested)
{
    struct fp_fixes f = {.on = fixes, .tested = 0};
    uint8_t saved = ks->path;
    ks->path = PATH_FAST;
    int exit = fastpath_irq_body(ks, &f);
    ks->path = saved;
    *tested = f.tested;
    return exit;
}

int fastpath_irq_fixes(struct kstate *ks, unsigned fixes)
{
    unsigned tested;
    return fastpath_irq_tested(ks, fixes, &tested);
}

int fastpath_irq(struct kstate *ks, int variant)
{
    return fastpath_irq_fixes(ks, fp_variant_fixes(variant));
}
