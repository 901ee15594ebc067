/* ntfn: model of signal delivery and the IPC cancellation it needs. */
#include "ntfn.h"

#include "cost_hooks.h"
#include "kassert.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "schedcontext.h"
#include "smp.h"

/* ntfn_set_active */
void ntfn_set_active(struct kstate *ks, int n, uint64_t badge)
{
    COST_W(ks, 2); /* state, ntfnMsgIdentifier */
    ks->ntfns[n].state = NTFN_Active;
    ks->ntfns[n].msg_id = badge;
}

/* cancelSignal */
void cancelSignal(struct kstate *ks, int t, int n)
{
    struct ks_ntfn *ntfn = &ks->ntfns[n];
    KASSERT(ks, ntfn->state == NTFN_Waiting, A_CANCELSIG_WAITING);
    tcbEPDequeue(ks, t, &ntfn->q_head, &ntfn->q_tail);
    COST(ks, 2, 2 + (ntfn->q_head == KS_NONE), 1); /* queue; queue, empty? state */
    if (ntfn->q_head == KS_NONE)
        ntfn->state = NTFN_Idle;
    setThreadState(ks, t, TS_Inactive);
}

/* cancelIPC; the IRQ path never reaches its BlockedOnReply case */
void cancelIPC(struct kstate *ks, int t)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    COST(ks, 1, 1, 1); /* tcbFault cleared; tsType */
    tcb->fault = FAULT_None;
    tcb->fault_lr = KS_NONE;
    switch (tcb->state) {
    case TS_BlockedOnSend:
    case TS_BlockedOnReceive: {
        if (!ks_check(ks, tcb->blocking >= 0 && tcb->blocking < ks->n_eps, A_MODEL_INDEX))
            return;
        struct ks_ep *ep = &ks->eps[tcb->blocking];
        KASSERT(ks, ep->state != EP_Idle, A_CANCEL_EP_IDLE);
        tcbEPDequeue(ks, t, &ep->q_head, &ep->q_tail);
        /* blockingObject, queue, replyObject; queue, empty? state, reply? */
        COST(ks, 4, 2 + (ep->q_head == KS_NONE), 2);
        if (ep->q_head == KS_NONE)
            ep->state = EP_Idle;
        /* master (4f4721706, endpoint.c:361-367): only a receiver's reply
         * is unlinked; a sender's reference is stale there */
        if (reply_ref_live(&ks->cfg, tcb->state) && tcb->reply != KS_NONE)
            reply_unlink(ks, tcb->reply, t);
        setThreadState(ks, t, TS_Inactive);
        return;
    }
    case TS_BlockedOnNotification:
        COST_R(ks, 1); /* blockingObject */
        cancelSignal(ks, t, tcb->blocking);
        return;
    case TS_BlockedOnReply:
        reply_remove_tcb(ks, t);
        return;
    default:
        return;
    }
}

/* maybeDonateSchedContext */
void maybeDonateSchedContext(struct kstate *ks, int t, int n)
{
    COST(ks, 1, 0, 1); /* tcbSchedContext */
    if (ks->tcbs[t].sc != KS_NONE)
        return;
    int sc = ks->ntfns[n].sc;
    COST(ks, 1 + (sc != KS_NONE), 0, 1 + (sc != KS_NONE)); /* ntfnSchedContext, scTcb */
    if (sc != KS_NONE && ks->scs[sc].tcb == KS_NONE) {
        schedContext_donate(ks, sc, t);
        schedContext_resume(ks, sc);
    }
}

/* The tail of both waking cases of sendSignal: MCS_DO_IF_SC, then the
 * sporadic unblock check. */
static void wake_signalled(struct kstate *ks, int t, int n, uint64_t badge)
{
    COST_SEC(ks, SEC_WAKE);
    setThreadState(ks, t, TS_Running);
    COST_W(ks, 1); /* badgeRegister */
    ks->tcbs[t].badge_reg = badge;
    maybeDonateSchedContext(ks, t, n);
    COST_SEC(ks, SEC_SCHED);
    COST_SCHEDULABLE(ks, t);
    if (isSchedulable(ks, t))
        possibleSwitchTo(ks, t);
    COST_SEC(ks, SEC_WAKE);
    int sc = ks->tcbs[t].sc;
    COST(ks, 1 + (sc != KS_NONE), 0, 1 + (sc != KS_NONE)); /* sc_sporadic: tcbSchedContext, scSporadic */
    if (sc_sporadic(ks, sc)) {
        COST(ks, 1, 0, 1); /* ksCurSC */
        KASSERT(ks, sc != ks->cur_sc, A_SIGNAL_SPORADIC_CUR);
        if (sc != ks->cur_sc)
            refill_unblock_check(ks, sc);
    }
}

/* sendSignal (no VTX on aarch64: the RunningVM case does not exist) */
void sendSignal(struct kstate *ks, int n, uint64_t badge)
{
    struct ks_ntfn *ntfn = &ks->ntfns[n];
    COST(ks, 1, 0, 1); /* state */
    switch (ntfn->state) {
    case NTFN_Idle: {
        int t = ntfn->bound_tcb;
        COST(ks, 1 + (t != KS_NONE), 0, 1 + (t != KS_NONE)); /* ntfnBoundTCB, its tsType */
        if (t != KS_NONE && ks->tcbs[t].state == TS_BlockedOnReceive) {
            cancelIPC(ks, t);
            wake_signalled(ks, t, n, badge);
        } else {
            ntfn_set_active(ks, n, badge);
        }
        return;
    }
    case NTFN_Waiting: {
        int t = ntfn->q_head;
        if (!ks_check(ks, t != KS_NONE, A_SIGNAL_WAIT_HEAD))
            return;
        tcbEPDequeue(ks, t, &ntfn->q_head, &ntfn->q_tail);
        COST(ks, 2, 2 + (ntfn->q_head == KS_NONE), 1); /* queue; queue, empty? state */
        if (ntfn->q_head == KS_NONE)
            ntfn->state = NTFN_Idle;
        wake_signalled(ks, t, n, badge);
        return;
    }
    case NTFN_Active:
        COST(ks, 1, 1, 0); /* ntfnMsgIdentifier |= badge */
        ntfn->msg_id |= badge;
        return;
    }
}
