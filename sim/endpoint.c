/* endpoint: model of the send side of endpoints. */
#include "endpoint.h"

#include "kassert.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "schedcontext.h"
#include "tcbqueue.h"

/* sendIPC with blocking set and no call, as sendFaultIPC issues it: the
 * handler cap grants (asserted by sendFaultIPC), the fault message and the
 * cap's badge (modelled 0) go to the receiver's registers */
void sendIPC(struct kstate *ks, int t, int e)
{
    struct ks_ep *ep = &ks->eps[e];
    if (ep->state != EP_Recv) {
        ks->tcbs[t].state = TS_BlockedOnSend;
        ks->tcbs[t].blocking = (int8_t)e;
        scheduleTCB(ks, t);
        tcbEPAppend(ks, t, &ep->q_head, &ep->q_tail);
        ep->state = EP_Send;
        return;
    }
    int dest = ep->q_head;
    if (!ks_check(ks, dest != KS_NONE, A_SENDIPC_RECV_HEAD))
        return;
    tcbEPDequeue(ks, dest, &ep->q_head, &ep->q_tail);
    if (ep->q_head == KS_NONE)
        ep->state = EP_Idle;
    ks->tcbs[dest].badge_reg = 0; /* doFaultTransfer: the handler cap's badge */
    int r = ks->tcbs[dest].reply;
    if (r != KS_NONE)
        reply_unlink(ks, r, dest);
    /* a fault is pending: reply_push with the receiver's reply, else Inactive */
    if (r != KS_NONE)
        reply_push(ks, t, dest, r);
    else
        setThreadState(ks, t, TS_Inactive);
    int sc = ks->tcbs[dest].sc;
    if (sc != KS_NONE) {
        KASSERT(ks, refill_sufficient(ks, sc, 0), A_SENDIPC_SUFFICIENT);
        KASSERT(ks, refill_ready(ks, sc), A_SENDIPC_READY);
    }
    setThreadState(ks, dest, TS_Running);
    if (sc_sporadic(ks, sc) && sc != ks->cur_sc)
        refill_unblock_check(ks, sc);
    possibleSwitchTo(ks, dest);
}
