/*
 * hk_fixed: irqsim's corrected IRQ fastpath as kernel C. Compiled into the
 * host kernel's translation unit (build-kernel.sh includes it before
 * hk_glue.c), so it calls the kernel's own types, accessors and helpers.
 *
 * It is a step-by-step translation of irqsim's model, sim/irq_fast.c
 * (fastpath_irq_fixes with FIX_ALL, i.e. fastpath_irq(ks, FP_FIXED)), not
 * of the proposal's source: every step's comment names the model function
 * it translates and, where it differs from the proposal, the FIX bit
 * (docs/FINDINGS.md explains each). Where the model falls back
 * (slowpath_irq in the model), this calls the kernel's slowpath_irq();
 * where the model leaves through mask_ack or handleSpuriousIRQ, this
 * returns to user level with restore_user_context(), as the kernel's
 * interrupt exits do.
 *
 * Kernel interfaces used (all of the tree being tested): updateTimestamp,
 * refill_sufficient, refill_ready, isCurDomainExpired, getActiveIRQ,
 * handleSpuriousIRQ, maskInterrupt, ackInterrupt, intStateIRQTable,
 * intStateIRQNode, the cap/notification/thread-state accessors,
 * ntfn_set_active, isValidVTableRoot_fp, cap_vtable_cap_get_vspace_root_fp,
 * findMapForASID, cancelIPC_fp, ntfn_queue_dequeue_fp,
 * maybeDonateSchedContext_fp, setRegister, sc_sporadic,
 * refill_unblock_check, checkBudget, commitTime, isSchedulable,
 * tcbSchedEnqueue, tcbSchedAppend, switchToThread_fp, Arch_switchToThread,
 * sc_constant_bandwidth, getNextInterrupt, getTimerPrecision, setDeadline,
 * slowpath_irq, restore_user_context. The *_fp helpers and
 * getNextInterrupt are the ones PR #1227 adds; on a tree without them the
 * proposal's fastpath does not build either.
 *
 * On master (and PR #1227 rebased onto it) the release queue's head is
 * ksReleaseQueue.head (686bba4d2) and a waiter leaves the notification's
 * queue through tcbNTFNDequeue (7c11116b6): the two steps below take the
 * tree's name. A tree without the IRQ fastpath gets none of this file.
 *
 * HK_FIXED_OFF_<FIX> (ENTRY_TIME, ENTRY_BUDGET, ENTRY_DOMAIN,
 * ENTRY_RELEASE, IDLE_SWITCH, CB_UNBLOCK, DEADLINE, REPROGRAM_FLAG,
 * RESWITCH), when
 * defined, turns that one fix off: the step is then the proposal's, as
 * fastpath_irq_fixes without that FIX bit. HK_FIXED_ONE_CLOCK drops the
 * switch's second updateTimestamp (the entry already read the clock; in
 * the model the second read is a no-op). None is defined by irqsim's own
 * builds; scripts/bench-qemu.sh --fixes uses them to price each fix.
 *
 * Own code; no kernel source.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifdef CONFIG_IRQ_FASTPATH

/* model: keep_unmasked (FIX split_eoi). A tree with GICv3 split EOI
 * (HK_GICV3_SPLIT_EOI: master, a4b0c8d36) built for a GICv3 board leaves
 * a signal IRQ unmasked and active in handleInterrupt until the
 * handler's IRQHandler_Ack deactivates it; that ack never unmasks, so a
 * mask here would be for good. Elsewhere the slowpath masks, as here. */
#if defined(HK_GICV3_SPLIT_EOI) && defined(CONFIG_ARM_GIC_V3_SUPPORT)
#define HK_FIXED_KEEP_SIGNAL true
#else
#define HK_FIXED_KEEP_SIGNAL false
#endif

/* model: mask_ack, the common tail of every exit that handled the IRQ:
 * mask unless keep (a signal IRQ under split EOI), and ack */
static inline void NORETURN hk_fixed_mask_ack_keep(irq_t irq, bool_t keep)
{
    if (!keep) {
        maskInterrupt(true, irq);
    }
    ackInterrupt(irq);
    restore_user_context();
    UNREACHABLE();
}

/* every exit of a signal IRQ (in range, IRQSignal) */
static inline void NORETURN hk_fixed_mask_ack(irq_t irq)
{
    hk_fixed_mask_ack_keep(irq, HK_FIXED_KEEP_SIGNAL);
}

/* model: entry_checks. The entry work the proposal skips; the corrected
 * fastpath leaves every interrupt on which it would change something to
 * the slowpath (which repeats updateTimestamp harmlessly). */
static inline void hk_fixed_entry_checks(void)
{
#ifndef HK_FIXED_OFF_ENTRY_TIME
    /* FIX entry_time: read the clock before anything else */
    updateTimestamp();
#endif
#ifndef HK_FIXED_OFF_REPROGRAM_FLAG
    /* FIX reprogram_flag: a ksReprogram left at user level (another core's
     * tcbReleaseEnqueue/Remove, or the kernel's own fastpath_signal) is
     * honoured only by schedule()'s setNextInterrupt (slow_reprogram) */
    if (NODE_STATE(ksReprogram)) {
        slowpath_irq();
    }
#endif
#ifdef ENABLE_SMP_SUPPORT
    /* FIX owed_ipi: a reschedule IPI this core's fastpath_signal marked and
     * did not send; only schedule() sends it (slow_owed_ipi) */
    if (ARCH_NODE_STATE(ipiReschedulePending) != 0) {
        slowpath_irq();
    }
#endif
    /* FIX entry_budget: chargeBudget leaves the idle SC alone; a real SC
     * that cannot pay ksConsumed goes to the slowpath (slow_budget) */
#ifndef HK_FIXED_OFF_ENTRY_BUDGET
    if (NODE_STATE(ksCurSC) != NODE_STATE(ksIdleSC) &&
        !refill_sufficient(NODE_STATE(ksCurSC), NODE_STATE(ksConsumed))) {
        slowpath_irq();
    }
#endif
    /* FIX entry_domain: the current domain's time is up (slow_domain_expired) */
#ifndef HK_FIXED_OFF_ENTRY_DOMAIN
    if (isCurDomainExpired()) {
        slowpath_irq();
    }
#endif
    /* FIX entry_release: awaken would release the queue's head (slow_release) */
#ifndef HK_FIXED_OFF_ENTRY_RELEASE
#ifdef HK_RELEASE_QUEUE
    tcb_t *head = NODE_STATE(ksReleaseQueue.head);
#else
    tcb_t *head = NODE_STATE(ksReleaseHead);
#endif
    if (head != NULL && refill_ready(head->tcbSchedContext)) {
        slowpath_irq();
    }
#endif
}

/* model: struct fp_dest, what check_dest finds out about the receiver */
struct hk_fixed_dest {
    tcb_t *dest;
    sched_context_t *sc;
    notification_t *ntfn;
    vspace_root_t *vroot;
    pde_t stored_hw_asid;
    bool_t idle, schedulable, contextSwitch;
};

/* model: check_dest. Every check that needs the receiver, before the
 * point of no return; a failed one falls back. */
static inline void hk_fixed_check_dest(struct hk_fixed_dest *d)
{
    tcb_t *dest = d->dest;
    /* model: context_switch = !(cur prio >= dest prio) */
    d->contextSwitch = !(NODE_STATE(ksCurThread)->tcbPriority >= dest->tcbPriority);
    /* model: the receiver's SC, else one the notification can donate (slow_no_sc) */
    d->sc = dest->tcbSchedContext;
    if (d->sc == NULL) {
        d->sc = SC_PTR(notification_ptr_get_ntfnSchedContext(d->ntfn));
        if (d->sc == NULL || d->sc->scTcb != NULL) {
            slowpath_irq();
        }
#if defined(ENABLE_SMP_SUPPORT) && defined(CONFIG_HAVE_FPU)
        /* model: slow_fpu, a donation to a thread whose FPU state is live on a core */
        if (nativeThreadUsingFPU(dest)) {
            slowpath_irq();
        }
#endif
    }
    /* model: slow_domain_core */
    if (ksCurDomain != dest->tcbDomain SMP_COND_STATEMENT( || d->sc->scCore != getCurrentCPUIndex())) {
        slowpath_irq();
    }
    /* model: slow_refill, a configured SC whose head refill is not ready or not sufficient */
    if (d->sc->scRefillMax > 0) {
        if (!(refill_ready(d->sc) && refill_sufficient(d->sc, 0))) {
            slowpath_irq();
        }
        d->schedulable = true;
    }
#ifdef ENABLE_SMP_SUPPORT
    /* FIX outranked: a ready thread another core queued outranks the thread
     * schedule() would keep: from the idle thread, the receiver; else the
     * current thread, when the receiver does not outrank it (slow_outranked) */
    if (d->schedulable) {
        word_t cur = NODE_STATE(ksCurThread)->tcbPriority;
        bool_t from_idle = NODE_STATE(ksCurThread) == NODE_STATE(ksIdleThread);
        if (from_idle ? !isHighestPrio(ksCurDomain, dest->tcbPriority)
                      : (dest->tcbPriority <= cur && !isHighestPrio(ksCurDomain, cur))) {
            slowpath_irq();
        }
    }
#endif
    /* FIX idle_switch: schedule() leaves the idle thread for any schedulable candidate */
#ifndef HK_FIXED_OFF_IDLE_SWITCH
    if (NODE_STATE(ksCurThread) == NODE_STATE(ksIdleThread) && d->schedulable) {
        d->contextSwitch = true;
    }
#endif
    if (d->contextSwitch) {
        cap_t vtable = TCB_PTR_CTE_PTR(dest, tcbVTable)->cap;
        /* model: slow_vtable. Checked before the cap is read as a vspace cap
         * (a null cap would fail the bitfield accessor's assertion) */
        if (unlikely(!isValidVTableRoot_fp(vtable))) {
            slowpath_irq();
        }
        d->vroot = cap_vtable_cap_get_vspace_root_fp(vtable);
        /* model: slow_asid, the ASID no longer maps this vspace */
        asid_t asid = cap_vspace_cap_get_capVSMappedASID(vtable);
        asid_map_t asid_map = findMapForASID(asid);
        if (unlikely(asid_map_get_type(asid_map) != asid_map_asid_map_vspace ||
                     VSPACE_PTR(asid_map_asid_map_vspace_get_vspace_root(asid_map)) != d->vroot)) {
            slowpath_irq();
        }
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
        /* model: slow_vmid */
        if (unlikely(!asid_map_asid_map_vspace_get_stored_vmid_valid(asid_map))) {
            slowpath_irq();
        }
        d->stored_hw_asid.words[0] = asid_map_asid_map_vspace_get_stored_hw_vmid(asid_map);
#else
        d->stored_hw_asid.words[0] = asid;
#endif
    }
}

/* model: switch_direct. Account time, charge the current SC, requeue the
 * current thread, switch, reprogram the timer for the new thread. */
static inline void hk_fixed_switch_direct(struct hk_fixed_dest *d)
{
#if !defined(HK_FIXED_ONE_CLOCK) || defined(HK_FIXED_OFF_ENTRY_TIME)
    /* model: updateTimestamp (a no-op after FIX entry_time; kept as the model has it) */
    updateTimestamp();
#endif
#ifdef HK_FIXED_OFF_DEADLINE
    /* the proposal: the deadline before the switch, compared below */
    ticks_t prev = getNextInterrupt();
#endif
    /* model: prev = next_interrupt_time() is only needed without FIX deadline: not read */
    /* model: if (checkBudget) commitTime; after the entry checks it always succeeds */
    if (checkBudget()) {
        commitTime();
    }
    /* model: a schedulable current thread goes back to its ready queue */
    if (isSchedulable(NODE_STATE(ksCurThread))) {
        tcbSchedEnqueue(NODE_STATE(ksCurThread));
    }
    /* model: cur_thread = dest (switchToThread_fp: the address space, then ksCurThread) */
    switchToThread_fp(d->dest, d->vroot, d->stored_hw_asid);
    sched_context_t *sc = d->dest->tcbSchedContext;
    /* FIX cb_unblock: what switchSchedContext does for a constant-bandwidth SC */
#ifndef HK_FIXED_OFF_CB_UNBLOCK
    if (sc_constant_bandwidth(sc)) {
        refill_unblock_check(sc);
    }
#endif
#ifdef HK_FIXED_OFF_DEADLINE
    /* the proposal: reprogram only if the timer must fire earlier */
    ticks_t next = getNextInterrupt();
    if (next < prev) {
        setDeadline(next - getTimerPrecision());
    }
#else
    /* FIX deadline: program the timer for the new thread unconditionally */
    setDeadline(getNextInterrupt() - getTimerPrecision());
#endif
    /* model: cur_sc = the new thread's SC */
    NODE_STATE(ksCurSC) = sc;
}

/* model: deliver. After the point of no return: wake the receiver, place it. */
static inline void NORETURN hk_fixed_deliver(struct hk_fixed_dest *d, irq_t irq, word_t badge)
{
    tcb_t *dest = d->dest;
    /* model: cancelIPC_fp (bound receiver) or ntfn_queue_dequeue_fp (waiter) */
    if (d->idle) {
        cancelIPC_fp(dest);
    } else {
#ifdef tcbEPNext
        tcbNTFNDequeue(dest, d->ntfn);
#else
        ntfn_queue_dequeue_fp(dest, d->ntfn);
#endif
    }
    /* model: badge_reg = badge; state = Running (and the blocking object cleared) */
    setRegister(dest, badgeRegister, badge);
    thread_state_ptr_set_tsType_np(&dest->tcbState, ThreadState_Running);
    /* model: maybeDonateSchedContext_fp */
    maybeDonateSchedContext_fp(dest, d->sc);
    /* model: the sporadic unblock check of the receiver's SC (now on the entry clock) */
    if (sc_sporadic(dest->tcbSchedContext)) {
        assert(dest->tcbSchedContext != NODE_STATE(ksCurSC));
        if (dest->tcbSchedContext != NODE_STATE(ksCurSC)) {
            refill_unblock_check(dest->tcbSchedContext);
        }
    }
    /* model: woken_unschedulable */
    if (!d->schedulable) {
        hk_fixed_mask_ack(irq);
    }
    /* model: switch */
    if (d->contextSwitch) {
        hk_fixed_switch_direct(d);
        /* FIX reprogram_flag: the switch programmed the timer for the new
         * thread; nothing is left to honour */
#ifndef HK_FIXED_OFF_REPROGRAM_FLAG
        NODE_STATE(ksReprogram) = false;
#endif
        hk_fixed_mask_ack(irq);
    }
    /* model: honour_reprogram. FIX reprogram_flag when the current thread
     * keeps running: the unblock check asked for a reprogram; schedule()
     * commits the current SC's time (switchSchedContext) and programs the
     * timer (setNextInterrupt), and so does this */
#ifndef HK_FIXED_OFF_REPROGRAM_FLAG
    if (NODE_STATE(ksReprogram)) {
        commitTime();
        setNextInterrupt();
        NODE_STATE(ksReprogram) = false;
    }
#endif
    /* model: append (same priority) or enqueue (lower) */
    if (NODE_STATE(ksCurThread)->tcbPriority == dest->tcbPriority) {
        tcbSchedAppend(dest);
    } else {
        tcbSchedEnqueue(dest);
    }
#ifndef HK_FIXED_OFF_RESWITCH
    /* model: reswitch. FIX reswitch: schedule() would choose the current
     * thread again and switch to it; its Arch_switchToThread disables a VCPU
     * another core re-bound (hypervisor builds) and re-runs setVMRoot. From
     * the idle thread (only with HK_FIXED_OFF_IDLE_SWITCH) schedule() would
     * switch to the receiver instead: nothing to switch to again */
    if (NODE_STATE(ksCurThread) != NODE_STATE(ksIdleThread)) {
        Arch_switchToThread(NODE_STATE(ksCurThread));
    }
#endif
    hk_fixed_mask_ack(irq);
}

/* model: fastpath_irq_body with FIX_ALL. Entered like fastpath_irq, from
 * c_handle_interrupt's prologue; never returns. */
static void NORETURN fastpath_irq_corrected(void)
{
    /* model: entry_checks (FIX entry_time, entry_budget, entry_domain, entry_release) */
    hk_fixed_entry_checks();
    irq_t irq = getActiveIRQ();
    /* model: spurious */
    if (unlikely(IRQT_TO_IRQ(irq) == IRQT_TO_IRQ(irqInvalid))) {
        handleSpuriousIRQ();
        restore_user_context();
        UNREACHABLE();
    }
    /* model: out_of_range, mask and ack (never kept: not a signal IRQ) */
    if (unlikely(IRQT_TO_IRQ(irq) > maxIRQ)) {
        hk_fixed_mask_ack_keep(irq, false);
    }
    /* model: slow_not_signal */
    if (unlikely(intStateIRQTable[IRQT_TO_IDX(irq)] != IRQSignal)) {
        slowpath_irq();
    }
    /* model: undelivered, the handler cap is not a sendable notification cap */
    cap_t cap = intStateIRQNode[IRQT_TO_IDX(irq)].cap;
    if (unlikely(cap_get_capType(cap) != cap_notification_cap || !cap_notification_cap_get_capNtfnCanSend(cap))) {
        hk_fixed_mask_ack(irq);
    }
    struct hk_fixed_dest d = {0};
    d.ntfn = NTFN_PTR(cap_notification_cap_get_capNtfnPtr(cap));
    word_t badge = cap_notification_cap_get_capNtfnBadge(cap);
    switch (notification_ptr_get_state(d.ntfn)) {
    case NtfnState_Active:
        /* model: ntfn_active, the badge ORed in */
        notification_ptr_set_ntfnMsgIdentifier(d.ntfn, badge | notification_ptr_get_ntfnMsgIdentifier(d.ntfn));
        hk_fixed_mask_ack(irq);
    case NtfnState_Idle:
        /* model: ntfn_idle unless a bound TCB is blocked on receive */
        d.dest = TCB_PTR(notification_ptr_get_ntfnBoundTCB(d.ntfn));
        if (d.dest == NULL || thread_state_ptr_get_tsType(&d.dest->tcbState) != ThreadState_BlockedOnReceive) {
            ntfn_set_active(d.ntfn, badge);
            hk_fixed_mask_ack(irq);
        }
        d.idle = true;
        break;
    case NtfnState_Waiting:
        /* model: the queue's head */
        d.dest = TCB_PTR(notification_ptr_get_ntfnQueue_head(d.ntfn));
        break;
    default:
        /* model: KASSERT A_NTFN_STATE */
        fail("invalid notification state");
    }
    /* model: KASSERT A_FP_DEST */
    assert(d.dest != NULL);
    /* model: check_dest (FIX idle_switch inside) */
    hk_fixed_check_dest(&d);
    /* model: deliver (FIX reprogram_flag, and switch_direct with FIX cb_unblock, deadline) */
    hk_fixed_deliver(&d, irq, badge);
}
#endif /* CONFIG_IRQ_FASTPATH */
