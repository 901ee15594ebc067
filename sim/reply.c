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

/* the call stack's pointer words: call_stack_new(0, false) */
static void clear_links(struct ks_reply *r)
{
    r->prev = r->next = r->sc_head = KS_NONE;
}

void call_stack_push(struct kstate *ks, int r, int sc)
{
    int old = ks->scs[sc].reply;
    if (old != KS_NONE) {
        ks->replies[old].next = (int8_t)r;
        ks->replies[old].sc_head = KS_NONE;
    }
    ks->replies[r].prev = (int8_t)old;
    ks->replies[r].next = KS_NONE;
    ks->replies[r].sc_head = (int8_t)sc;
    ks->scs[sc].reply = (int8_t)r;
}

void call_stack_pop(struct kstate *ks, int r)
{
    struct ks_reply *reply = &ks->replies[r];
    int sc = reply->sc_head, prev = reply->prev;
    ks->scs[sc].reply = (int8_t)prev;
    if (prev != KS_NONE) {
        ks->replies[prev].next = KS_NONE;
        ks->replies[prev].sc_head = (int8_t)sc;
    }
    clear_links(reply);
}

/* reply_push. Base clears the callee's replyObject (reply.c:26); master
 * does not (4f4721706): it stays stale. With canDonate, a caller that has
 * an SC and a callee without one push the reply on the SC's call stack
 * and the SC moves to the callee (reply.c:35-52). */
void reply_push(struct kstate *ks, int caller, int callee, int r, bool can_donate)
{
    struct ks_reply *reply = &ks->replies[r];
    int sc = ks->tcbs[caller].sc;
    KASSERT(ks, reply->tcb == KS_NONE, A_REPLY_PUSH_FREE);
    KASSERT(ks, reply->prev == KS_NONE && reply->next == KS_NONE && reply->sc_head == KS_NONE, A_REPLY_PUSH_LINKS);
    if (!cfg_has(&ks->cfg, KF_STALE_REPLY_REF))
        ks->tcbs[callee].reply = KS_NONE;
    reply->tcb = (int8_t)caller;
    ks->tcbs[caller].reply = (int8_t)r;
    setThreadState(ks, caller, TS_BlockedOnReply);
    if (sc == KS_NONE || ks->tcbs[callee].sc != KS_NONE || !can_donate)
        return;
    int old = ks->scs[sc].reply;
    KASSERT(ks, old == KS_NONE || ks->replies[old].sc_head == sc, A_REPLY_PUSH_STACK);
    call_stack_push(ks, r, sc);
    schedContext_donate(ks, sc, callee);
}

/* reply_pop: the head of the stack goes; its SC goes back to the caller
 * unless the caller has been given another one (reply.c:56-84) */
static void reply_pop(struct kstate *ks, int r, int t)
{
    struct ks_reply *reply = &ks->replies[r];
    KASSERT(ks, reply->tcb == t && ks->tcbs[t].state == TS_BlockedOnReply && ks->tcbs[t].reply == r, A_REPLY_POP);
    int sc = reply->sc_head;
    call_stack_pop(ks, r);
    if (ks->tcbs[t].sc == KS_NONE)
        schedContext_donate(ks, sc, t);
    reply_unlink(ks, r, t);
}

/* reply_remove: pop the head, or break the chain around one in the middle
 * (reply.c:87-113) */
void reply_remove(struct kstate *ks, int r, int t)
{
    struct ks_reply *reply = &ks->replies[r];
    if (reply->sc_head != KS_NONE) {
        reply_pop(ks, r, t);
        return;
    }
    if (reply->next != KS_NONE)
        ks->replies[reply->next].prev = KS_NONE;
    if (reply->prev != KS_NONE)
        ks->replies[reply->prev].next = KS_NONE;
    clear_links(reply);
    reply_unlink(ks, r, t);
}

/* reply_remove_tcb: the thread's reply leaves the stack; a head's SC stays
 * where it is (reply.c:115-137) */
void reply_remove_tcb(struct kstate *ks, int t)
{
    KASSERT(ks, ks->tcbs[t].state == TS_BlockedOnReply, A_REPLY_REMOVE_TCB);
    int r = ks->tcbs[t].reply;
    struct ks_reply *reply = &ks->replies[r];
    if (reply->sc_head != KS_NONE)
        ks->scs[reply->sc_head].reply = KS_NONE;
    else if (reply->next != KS_NONE)
        ks->replies[reply->next].prev = KS_NONE;
    if (reply->prev != KS_NONE)
        ks->replies[reply->prev].next = KS_NONE;
    clear_links(reply);
    reply_unlink(ks, r, t);
}
