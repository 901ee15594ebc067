/* reply: model of the reply objects and the MCS call stack. */
#include "reply.h"

#include "cost_hooks.h"
#include "kassert.h"
#include "schedcontext.h"
#include "sched.h"

bool reply_ref_state(int ts)
{
    return ts == TS_BlockedOnReceive || ts == TS_BlockedOnReply;
}

bool reply_ref_live(const struct ks_config *c, int ts)
{
    return reply_ref_state(ts) || !cfg_has(c, KF_STALE_REPLY_REF);
}

/* reply_unlink. Master (4f4721706, include/object/reply.h:14-27) asserts
 * the thread's state and no longer clears its replyObject: the reference
 * is left stale (base reply.h:20 cleared it). */
void reply_unlink(struct kstate *ks, int r, int t)
{
    KASSERT(ks, reply_ref_live(&ks->cfg, ks->tcbs[t].state), A_REPLY_UNLINK_STATE);
    KASSERT(ks, ks->replies[r].tcb == t && ks->tcbs[t].reply == r, A_REPLY_UNLINK);
    COST_W(ks, 2); /* replyObject, replyTCB */
    if (!cfg_has(&ks->cfg, KF_STALE_REPLY_REF))
        ks->tcbs[t].reply = KS_NONE;
    ks->replies[r].tcb = KS_NONE;
    setThreadState(ks, t, TS_Inactive);
}

/* reply_push without donation: the model's callers on a reply are timeout
 * faulters, whose fault IPC never donates (canDonate false: handleTimeout,
 * faulthandler.c:27; receiveIPC, endpoint.c:249-250) */
void reply_push(struct kstate *ks, int caller, int callee, int r)
{
    KASSERT(ks, ks->replies[r].tcb == KS_NONE, A_REPLY_PUSH_FREE);
    /* base clears the callee's replyObject (reply.c:26); master does not
     * (4f4721706): it stays stale */
    if (!cfg_has(&ks->cfg, KF_STALE_REPLY_REF))
        ks->tcbs[callee].reply = KS_NONE;
    ks->replies[r].tcb = (int8_t)caller;
    ks->tcbs[caller].reply = (int8_t)r;
    setThreadState(ks, caller, TS_BlockedOnReply);
}
