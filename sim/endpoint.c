/* endpoint: model of the send side of endpoints. */
#include "endpoint.h"

#include "kassert.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "schedcontext.h"
#include "tcbqueue.h"

void ipc_keep_send(struct ks_tcb *tcb, const struct ipc_send *s)
{
    tcb->ipc_badge = s->badge;
    tcb->ipc_grant = s->grant;
    tcb->ipc_grant_reply = s->grant_reply;
    tcb->ipc_call = s->call;
}

/* sendIPC, EPState_Idle or EPState_Send: block sending, keeping what the
 * receiver will need in the thread state (endpoint.c:29-57) */
static void block_send(struct kstate *ks, const struct ipc_send *s, int t, int e)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    struct ks_ep *ep = &ks->eps[e];
    tcb->state = TS_BlockedOnSend;
    tcb->blocking = (int8_t)e;
    ipc_keep_send(tcb, s);
    scheduleTCB(ks, t);
    tcbEPAppend(ks, t, &ep->q_head, &ep->q_tail);
    ep->state = EP_Send;
}

/* sendIPC, EPState_Recv: the queue's head receives (endpoint.c:59-111) */
static void send_to_receiver(struct kstate *ks, const struct ipc_send *s, int t, int e)
{
    struct ks_ep *ep = &ks->eps[e];
    int dest = ep->q_head;
    if (!ks_check(ks, dest != KS_NONE, A_SENDIPC_RECV_HEAD))
        return;
    tcbEPDequeue(ks, dest, &ep->q_head, &ep->q_tail);
    if (ep->q_head == KS_NONE)
        ep->state = EP_Idle;
    ks->tcbs[dest].badge_reg = s->badge; /* doIPCTransfer: the badge register */
    int r = ks->tcbs[dest].reply;
    if (r != KS_NONE)
        reply_unlink(ks, r, dest);
    if (s->call || ks->tcbs[t].fault != FAULT_None) {
        if (r != KS_NONE && (s->grant || s->grant_reply))
            reply_push(ks, t, dest, r, s->donate);
        else
            setThreadState(ks, t, TS_Inactive);
    } else if (s->donate && ks->tcbs[dest].sc == KS_NONE) {
        schedContext_donate(ks, ks->tcbs[t].sc, dest);
    }
    setThreadState(ks, dest, TS_Running);
    int sc = ks->tcbs[dest].sc;
    KASSERT(ks, sc == KS_NONE || (refill_sufficient(ks, sc, 0) && refill_ready(ks, sc)), A_SENDIPC_DEST_SUFFICIENT);
    if (sc_sporadic(ks, sc) && sc != ks->cur_sc)
        refill_unblock_check(ks, sc);
    possibleSwitchTo(ks, dest);
}

/* sendIPC */
void sendIPC(struct kstate *ks, const struct ipc_send *s, int t, int e)
{
    if (ks->eps[e].state == EP_Recv) {
        send_to_receiver(ks, s, t, e);
        return;
    }
    if (s->blocking)
        block_send(ks, s, t, e);
}
