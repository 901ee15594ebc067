/* ipc: model of the receive side of notifications and endpoints. */
#include "ipc.h"

#include "budget.h"
#include "kassert.h"
#include "ntfn.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "tcbqueue.h"

/* maybeReturnSchedContext: a passive server gives back the notification's SC */
void maybeReturnSchedContext(struct kstate *ks, int n, int t)
{
    int sc = ks->ntfns[n].sc;
    if (sc == KS_NONE || sc != ks->tcbs[t].sc)
        return;
    ks->tcbs[t].sc = KS_NONE;
    ks->scs[sc].tcb = KS_NONE;
    if (t == ks->cur_thread)
        rescheduleRequired(ks);
}

/* the sporadic unblock check of completeSignal: only for the SC the
 * notification donated, and not the current one */
static void unblock_donated(struct kstate *ks, int n, int t)
{
    int sc = ks->tcbs[t].sc;
    if (sc_sporadic(ks, sc) && sc == ks->ntfns[n].sc && sc != ks->cur_sc)
        refill_unblock_check(ks, sc);
}

/* completeSignal */
void completeSignal(struct kstate *ks, int n, int t)
{
    struct ks_ntfn *ntfn = &ks->ntfns[n];
    if (!ks_check(ks, ntfn->state == NTFN_Active, A_COMPLETE_SIGNAL))
        return;
    ks->tcbs[t].badge_reg = ntfn->msg_id;
    ntfn->state = NTFN_Idle;
    maybeDonateSchedContext(ks, t, n);
    unblock_donated(ks, n, t);
}

/* receiveSignal */
void receiveSignal(struct kstate *ks, int t, int n, bool is_blocking)
{
    struct ks_ntfn *ntfn = &ks->ntfns[n];
    if (ntfn->state == NTFN_Active) {
        ks->tcbs[t].badge_reg = ntfn->msg_id;
        ntfn->state = NTFN_Idle;
        maybeDonateSchedContext(ks, t, n);
        int sc = ks->tcbs[t].sc;
        if (sc != ks->cur_sc && sc_sporadic(ks, sc))
            refill_unblock_check(ks, sc);
        return;
    }
    if (!is_blocking) {
        ks->tcbs[t].badge_reg = 0; /* doNBRecvFailedTransfer */
        return;
    }
    ks->tcbs[t].state = TS_BlockedOnNotification;
    ks->tcbs[t].blocking = (int8_t)n;
    scheduleTCB(ks, t);
    tcbEPAppend(ks, t, &ntfn->q_head, &ntfn->q_tail);
    ntfn->state = NTFN_Waiting;
    maybeReturnSchedContext(ks, n, t);
}

/* receiveIPC, EPState_Send: take the head sender, with what it left in
 * its thread state (endpoint.c:189-240). A caller, or a faulter, waits on
 * the receiver's reply if the send could grant one; a caller with an SC
 * donates it, a timeout faulter never does. */
static void receive_from_sender(struct kstate *ks, int t, struct ks_ep *ep, int r)
{
    int sender = ep->q_head;
    if (!ks_check(ks, sender != KS_NONE, A_RECVIPC_SEND_HEAD))
        return;
    const struct ks_tcb *s = &ks->tcbs[sender];
    tcbEPDequeue(ks, sender, &ep->q_head, &ep->q_tail);
    if (ep->q_head == KS_NONE)
        ep->state = EP_Idle;
    ks->tcbs[t].badge_reg = s->ipc_badge; /* doIPCTransfer: the badge register */
    int ssc = s->sc;
    if (sc_sporadic(ks, ssc)) {
        KASSERT(ks, ssc != ks->cur_sc, A_RECVIPC_SENDER_SPORADIC_CUR);
        if (ssc != ks->cur_sc)
            refill_unblock_check(ks, ssc);
    }
    if (s->ipc_call || s->fault != FAULT_None) {
        if ((s->ipc_grant || s->ipc_grant_reply) && r != KS_NONE)
            reply_push(ks, sender, t, r, ssc != KS_NONE && s->fault != FAULT_Timeout);
        else
            setThreadState(ks, sender, TS_Inactive);
        return;
    }
    setThreadState(ks, sender, TS_Running);
    possibleSwitchTo(ks, sender);
    KASSERT(ks, ssc == KS_NONE || refill_sufficient(ks, ssc, 0), A_RECVIPC_SENDER_SUFFICIENT);
}

/* receiveIPC, EPState_Idle or EPState_Recv: block receiving */
static void block_receive(struct kstate *ks, int t, int e, int r)
{
    struct ks_ep *ep = &ks->eps[e];
    ks->tcbs[t].state = TS_BlockedOnReceive;
    ks->tcbs[t].blocking = (int8_t)e;
    ks->tcbs[t].reply = (int8_t)r;
    if (r != KS_NONE)
        ks->replies[r].tcb = (int8_t)t;
    scheduleTCB(ks, t);
    tcbEPAppend(ks, t, &ep->q_head, &ep->q_tail);
    ep->state = EP_Recv;
}

/* receiveIPC */
void receiveIPC(struct kstate *ks, int t, int e, int r, bool is_blocking)
{
    if (r != KS_NONE && ks->replies[r].tcb != KS_NONE && ks->replies[r].tcb != t)
        cancelIPC(ks, ks->replies[r].tcb); /* "Reply object already has unexecuted reply!" */
    int n = ks->tcbs[t].bound_ntfn;
    if (n != KS_NONE && ks->ntfns[n].state == NTFN_Active) {
        completeSignal(ks, n, t);
        return;
    }
    if (n != KS_NONE && is_blocking)
        maybeReturnSchedContext(ks, n, t);
    struct ks_ep *ep = &ks->eps[e];
    if (ep->state == EP_Send) {
        receive_from_sender(ks, t, ep, r);
        return;
    }
    if (is_blocking)
        block_receive(ks, t, e, r);
    else
        ks->tcbs[t].badge_reg = 0; /* doNBRecvFailedTransfer */
}

/* reorderEP */
void reorderEP(struct kstate *ks, int e, int t)
{
    tcbEPDequeue(ks, t, &ks->eps[e].q_head, &ks->eps[e].q_tail);
    tcbEPAppend(ks, t, &ks->eps[e].q_head, &ks->eps[e].q_tail);
}

/* reorderNTFN */
void reorderNTFN(struct kstate *ks, int n, int t)
{
    tcbEPDequeue(ks, t, &ks->ntfns[n].q_head, &ks->ntfns[n].q_tail);
    tcbEPAppend(ks, t, &ks->ntfns[n].q_head, &ks->ntfns[n].q_tail);
}

/* NODE_STATE_ON_CORE(ksCurSC, core) */
static int cur_sc_on(const struct kstate *ks, int core)
{
    return core == 0 ? ks->cur_sc : ks->core_sc[core];
}

/* doReplyTransfer's end (thread.c:185-198): a caller that runs again on an
 * SC is switched to if its refill can pay, else its timeout handler hears
 * of it or it waits for the refill. The kernel asks isRunnable too: the
 * model's caller always is here (Running, or Restart after a fault, the
 * reply's label modelled 0). */
static void resume_replied(struct kstate *ks, int t, int fault)
{
    int sc = ks->tcbs[t].sc;
    if (sc == KS_NONE)
        return;
    if (refill_ready(ks, sc) && refill_sufficient(ks, sc, 0)) {
        possibleSwitchTo(ks, t);
        return;
    }
    if (ks->tcbs[t].timeout_handler && fault != FAULT_Timeout)
        handleTimeout(ks, t);
    else
        postpone(ks, sc);
}

/* doReplyTransfer (MCS, thread.c:131-198): the caller blocked on reply r
 * leaves the call stack (its SC back), and runs again: with the reply
 * message, or, after a fault, restarted (the reply's label is modelled 0,
 * so a timeout fault's reply restarts it, handleFaultReply, faults.c:135-137) */
void doReplyTransfer(struct kstate *ks, int sender, int r)
{
    (void)sender;
    int t = ks->replies[r].tcb;
    if (t == KS_NONE || ks->tcbs[t].state != TS_BlockedOnReply)
        return;
    reply_remove(ks, r, t);
    int sc = ks->tcbs[t].sc;
    if (sc_sporadic(ks, sc) && sc != cur_sc_on(ks, ks->scs[sc].core))
        refill_unblock_check(ks, sc);
    int fault = ks->tcbs[t].fault;
    if (fault == FAULT_None) {
        ks->tcbs[t].badge_reg = 0; /* doIPCTransfer of a reply: badge 0 */
        setThreadState(ks, t, TS_Running);
    } else {
        ks->tcbs[t].fault = FAULT_None;
        ks->tcbs[t].fault_lr = KS_NONE;
        setThreadState(ks, t, TS_Restart);
    }
    resume_replied(ks, t, fault);
}
