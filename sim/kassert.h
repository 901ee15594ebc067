/*
 * kassert: the kernel assertions the model mirrors, one id each, with the
 * kernel function that holds the assert and what it states. A failed one is
 * recorded in the state (ks_check) and reported as a finding.
 */
#ifndef IRQSIM_KASSERT_H
#define IRQSIM_KASSERT_H

#define KASSERT_LIST(X) \
    X(A_NONE, "-", "no assertion") \
    X(A_UPDATE_TS_MAX, "updateTimestamp", "ksCurTime < MAX_RELEASE_TIME") \
    X(A_CHECKBUDGET_READY, "checkBudget", "refill_ready(ksCurSC)") \
    X(A_COMMIT_SUFFICIENT, "commitTime", "refill_sufficient(ksCurSC, ksConsumed) before charging") \
    X(A_COMMIT_READY, "commitTime", "refill_ready(ksCurSC) before charging") \
    X(A_COMMIT_RR_SIZE, "commitTime", "round-robin SC has exactly MIN_REFILLS refills") \
    X(A_COMMIT_SUFFICIENT_AFTER, "commitTime", "refill_sufficient(ksCurSC, 0) after charging") \
    X(A_COMMIT_READY_AFTER, "commitTime", "refill_ready(ksCurSC) after charging") \
    X(A_CHARGE_RR_SIZE, "chargeBudget", "round-robin SC has exactly MIN_REFILLS refills") \
    X(A_CHARGE_MIN_BUDGET, "chargeBudget", "head refill >= MIN_BUDGET after charging") \
    X(A_CHARGE_CUR_SC, "chargeBudget", "ksCurThread->tcbSchedContext == ksCurSC") \
    X(A_ENDTS_NOT_QUEUED, "endTimeslice", "current thread not already queued") \
    X(A_REFILL_NOT_RR, "refill_budget_check", "SC is not round robin") \
    X(A_REFILL_HEAD_GT_USAGE, "refill_budget_check", "head amount > remaining usage") \
    X(A_REFILL_SUM, "refill_budget_check", "refill sum unchanged and refills ordered") \
    X(A_UNBLOCK_SUFFICIENT, "refill_unblock_check", "refill_sufficient(sc, 0) after merging") \
    X(A_UNBLOCK_SUM, "refill_unblock_check", "refill sum unchanged and refills ordered") \
    X(A_POP_SINGLE, "refill_pop_head", "refill queue has more than one refill") \
    X(A_ADD_TAIL_FULL, "refill_add_tail", "refill queue not full") \
    X(A_SPORADIC_ACTIVE, "sc_sporadic", "a sporadic SC is active") \
    X(A_SC_RELEASED_SUFF, "sc_released", "refill_sufficient(sc, 0)") \
    X(A_ENQ_SCHEDULABLE, "tcbSchedEnqueue", "isSchedulable(tcb)") \
    X(A_ENQ_SUFFICIENT, "tcbSchedEnqueue", "refill_sufficient(tcb SC, 0)") \
    X(A_APP_SCHEDULABLE, "tcbSchedAppend", "isSchedulable(tcb)") \
    X(A_APP_SUFFICIENT, "tcbSchedAppend", "refill_sufficient(tcb SC, 0)") \
    X(A_APP_READY, "tcbSchedAppend", "refill_ready(tcb SC)") \
    X(A_REL_ENQ_NOT_IN_RELEASE, "tcbReleaseEnqueue", "thread not already in the release queue") \
    X(A_REL_ENQ_NOT_QUEUED, "tcbReleaseEnqueue", "thread not in a ready queue") \
    X(A_REL_DEQ_NONEMPTY, "tcbReleaseDequeue", "release queue not empty") \
    X(A_REL_DEQ_HEAD_PREV, "tcbReleaseDequeue", "release head has no predecessor") \
    X(A_HIGHEST_L1, "getHighestPrio", "L1 bitmap not zero") \
    X(A_HIGHEST_L2, "getHighestPrio", "L2 bitmap word not zero") \
    X(A_SCHED_CAND_SCHEDULABLE, "schedule", "isSchedulable(candidate)") \
    X(A_SCHED_CAND_NOT_CUR, "schedule", "candidate != ksCurThread") \
    X(A_CHOOSE_THREAD, "chooseThread", "ready queue head exists") \
    X(A_CHOOSE_SCHEDULABLE, "chooseThread", "isSchedulable(thread)") \
    X(A_CHOOSE_SUFFICIENT, "chooseThread", "refill_sufficient(thread SC, 0)") \
    X(A_CHOOSE_READY, "chooseThread", "refill_ready(thread SC)") \
    X(A_SWITCH_HAS_SC, "switchToThread", "thread has an SC") \
    X(A_SWITCH_NOT_RELEASE, "switchToThread", "thread not in the release queue") \
    X(A_SWITCH_SUFFICIENT, "switchToThread", "refill_sufficient(thread SC, 0)") \
    X(A_SWITCH_READY, "switchToThread", "refill_ready(thread SC)") \
    X(A_SWITCHSC_READY, "switchSchedContext", "refill_ready(new SC)") \
    X(A_SWITCHSC_SUFFICIENT, "switchSchedContext", "refill_sufficient(new SC, 0)") \
    X(A_RESCHED_SUFFICIENT, "rescheduleRequired", "refill_sufficient(action SC, 0)") \
    X(A_RESCHED_READY, "rescheduleRequired", "refill_ready(action SC)") \
    X(A_AWAKEN_NOT_CUR, "awaken", "awakened != ksCurThread") \
    X(A_AWAKEN_NOT_RR, "awaken", "awakened SC is not round robin") \
    X(A_AWAKEN_SUFFICIENT, "awaken", "refill_sufficient(awakened SC, 0)") \
    X(A_AWAKEN_AFFINITY, "awaken", "awakened thread is on this core") \
    X(A_NEXTIRQ_FUTURE, "setNextInterrupt", "next interrupt >= ksCurTime") \
    X(A_ACTIVATE_BLOCKED, "activateThread", "current thread is not blocked (fail)") \
    X(A_SIGNAL_WAIT_HEAD, "sendSignal", "waiting notification has a queue head") \
    X(A_SIGNAL_SPORADIC_CUR, "sendSignal", "woken sporadic SC is not ksCurSC") \
    X(A_CANCEL_EP_IDLE, "cancelIPC", "endpoint of a blocked thread is not idle") \
    X(A_CANCELSIG_WAITING, "cancelSignal", "notification is waiting") \
    X(A_REPLY_UNLINK, "reply_unlink", "reply and TCB linked to each other") \
    X(A_DONATE_TO_NO_SC, "schedContext_donate", "receiver has no SC") \
    X(A_RESUME_HAS_TCB, "schedContext_resume", "SC is bound to a TCB") \
    X(A_RESUME_NOT_QUEUED, "schedContext_resume", "postponed thread is not queued") \
    X(A_IRQ_STATE, "handleInterrupt", "valid IRQ state (fail)") \
    X(A_IPI_INVALID, "handleIPI", "the IRQ is a remote-call or reschedule IPI (fail)") \
    X(A_NTFN_STATE, "fastpath_irq", "valid notification state (fail)") \
    X(A_FP_DEST, "fastpath_irq", "dest != NULL") \
    X(A_FP_SPORADIC_CUR, "fastpath_irq", "woken sporadic SC is not ksCurSC") \
    X(A_MODEL_INDEX, "model", "object index in range (model integrity)") \
    X(A_MODEL_LOOP, "refill_budget_check", "charging loop ends within 2^20 refills (model bound)") \
    X(A_SENDIPC_RECV_HEAD, "sendIPC", "receiving endpoint has a queue head") \
    X(A_SENDIPC_SUFFICIENT, "sendIPC", "receiver's SC sufficient (blocked threads can leave the kernel)") \
    X(A_SENDIPC_READY, "sendIPC", "receiver's SC ready") \
    X(A_RECVIPC_SEND_HEAD, "receiveIPC", "sending endpoint has a queue head") \
    X(A_RECVIPC_SENDER_SPORADIC_CUR, "receiveIPC", "woken sporadic sender's SC is not ksCurSC") \
    X(A_RECVIPC_SENDER_SUFFICIENT, "receiveIPC", "woken sender's SC sufficient") \
    X(A_REPLY_PUSH_FREE, "reply_push", "reply object has no TCB") \
    X(A_COMPLETE_SIGNAL, "completeSignal", "notification active (fail)") \
    X(A_CHECKBUDGET_RESTART, "checkBudgetRestart", "current thread runnable") \
    X(A_CONFIGURE_BUDGET, "invokeSchedControl_ConfigureFlags", "checkBudget() of the current SC holds") \
    X(A_UNBIND_TCB, "schedContext_unbindTCB", "SC bound to that TCB") \
    X(A_BIND_TCB, "schedContext_bindTCB", "SC and TCB both unbound") \
    X(A_REFILL_UPDATE_ACTIVE, "refill_update", "SC is configured") \
    X(A_REPLY_UNLINK_STATE, "reply_unlink", "thread blocked on receive or on reply (master)") \
    X(A_SIG_NTFN_STATE, "fastpath_signal", "valid notification state (fail)") \
    X(A_SIG_DEST, "fastpath_signal", "dest != NULL") \
    X(A_SIG_SPORADIC_CUR, "fastpath_signal", "woken sporadic SC is not ksCurSC") \
    X(A_REPLY_PUSH_LINKS, "reply_push", "reply's call-stack links are clear") \
    X(A_REPLY_PUSH_STACK, "reply_push", "the SC's call-stack head names the SC back") \
    X(A_REPLY_POP, "reply_pop", "caller blocked on this reply, linked to it") \
    X(A_REPLY_POP_HEAD, "reply_pop", "the popped reply's predecessor is the new head") \
    X(A_REPLY_REMOVE_TCB, "reply_remove_tcb", "thread blocked on a reply") \
    X(A_SENDIPC_DEST_SUFFICIENT, "sendIPC", "receiver's SC sufficient and ready") \
    X(A_CALL_DEST, "fastpath_call", "the endpoint's queue head is a receiver") \
    X(A_VPPI_INDEX, "VPPIEvent", "irqVPPIEventIndex(irq) != VPPIEventIRQ_invalid") \
    X(A_VPPI_RUNNABLE, "VPPIEvent", "isRunnable(ksCurThread) with the VCPU active") \
    X(A_VGIC_CUR_VCPU, "VGICMaintenance", "armHSCurVCPU != NULL && armHSVCPUActive") \
    X(A_VGIC_RUNNABLE, "VGICMaintenance", "isRunnable(ksCurThread) with the VCPU active")

enum kassert_id {
#define KASSERT_ENUM(id, fn, msg) id,
    KASSERT_LIST(KASSERT_ENUM)
#undef KASSERT_ENUM
    A_COUNT
};

const char *kassert_fn(int id);
const char *kassert_msg(int id);

#endif
