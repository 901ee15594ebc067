/* schedcontext: model of scheduling contexts, their binding, donation and
 * invocations. */
#include "schedcontext.h"

#include "cost_hooks.h"
#include "kassert.h"
#include "refill.h"
#include "sched.h"
#include "smp.h"

/* schedContext_donate (migrateTCB moves the receiver to the SC's core) */
void schedContext_donate(struct kstate *ks, int sc, int to)
{
    KASSERT(ks, ks->tcbs[to].sc == KS_NONE, A_DONATE_TO_NO_SC);
    int from = ks->scs[sc].tcb;
    COST(ks, 1, 2, 1); /* scTcb; scTcb, tcbSchedContext */
    if (from != KS_NONE) {
        remoteTCBStall(ks, from);
        tcbSchedDequeue(ks, from);
        tcbReleaseRemove(ks, from);
        COST(ks, 1 + (from != ks->cur_thread), 1, 1 + (from != ks->cur_thread)); /* ksCurThread, action */
        ks->tcbs[from].sc = KS_NONE;
        if (from == ks->cur_thread || from == ks->sched_action)
            rescheduleRequired(ks);
    }
    ks->scs[sc].tcb = (int8_t)to;
    ks->tcbs[to].sc = (int8_t)sc;
    COST_IF(ks, ks->cfg.smp, 1, 1, 1); /* migrateTCB: scCore, tcbAffinity (FPU not counted) */
    if (ks->cfg.smp)
        migrateTCB(ks, to, ks->scs[sc].core);
}

/* schedContext_resume */
void schedContext_resume(struct kstate *ks, int sc)
{
    COST_B(ks); /* sc */
    if (sc == KS_NONE)
        return;
    int t = ks->scs[sc].tcb;
    if (!ks_check(ks, t != KS_NONE, A_RESUME_HAS_TCB))
        return;
    COST_R(ks, 1); /* scTcb */
    COST_SCHEDULABLE(ks, t);
    if (!isSchedulable(ks, t))
        return;
    COST_READY_SUFF(ks, sc);
    if (!(refill_ready(ks, sc) && refill_sufficient(ks, sc, 0))) {
        KASSERT(ks, !ks->tcbs[t].queued, A_RESUME_NOT_QUEUED);
        postpone(ks, sc);
    }
}


const char *ks_syserr_name(int e)
{
    static const char *const names[] = {"none", "illegal_operation", "range_error", "invalid_capability",
                                         "invalid_argument"};
    return e >= 0 && e < SYSERR_COUNT ? names[e] : "?";
}

/* schedContext_bindTCB */
void schedContext_bindTCB(struct kstate *ks, int sc, int t)
{
    KASSERT(ks, ks->scs[sc].tcb == KS_NONE && ks->tcbs[t].sc == KS_NONE, A_BIND_TCB);
    ks->tcbs[t].sc = (int8_t)sc;
    ks->scs[sc].tcb = (int8_t)t;
    if (ks->cfg.smp)
        migrateTCB(ks, t, ks->scs[sc].core);
    if (sc_sporadic(ks, sc) && sc_active(ks, sc) && sc != ks->cur_sc)
        refill_unblock_check(ks, sc);
    schedContext_resume(ks, sc);
    if (isSchedulable(ks, t)) {
        sched_enqueue(ks, t);
        rescheduleRequired(ks);
    }
}

/* schedContext_unbindTCB */
void schedContext_unbindTCB(struct kstate *ks, int sc, int t)
{
    KASSERT(ks, ks->scs[sc].tcb == t, A_UNBIND_TCB);
    if (t == ks->cur_thread)
        rescheduleRequired(ks);
    tcbSchedDequeue(ks, t);
    tcbReleaseRemove(ks, t);
    ks->tcbs[t].sc = KS_NONE;
    ks->scs[sc].tcb = KS_NONE;
}

/* schedContext_unbindAllTCBs */
void schedContext_unbindAllTCBs(struct kstate *ks, int sc)
{
    if (ks->scs[sc].tcb == KS_NONE)
        return;
    remoteTCBStall(ks, ks->scs[sc].tcb);
    schedContext_unbindTCB(ks, sc, ks->scs[sc].tcb);
}

/* schedContext_bindNtfn */
void schedContext_bindNtfn(struct kstate *ks, int sc, int n)
{
    ks->ntfns[n].sc = (int8_t)sc;
    ks->scs[sc].ntfn = (int8_t)n;
}

/* schedContext_unbindNtfn */
void schedContext_unbindNtfn(struct kstate *ks, int sc)
{
    int n = ks->scs[sc].ntfn;
    if (n == KS_NONE)
        return;
    ks->ntfns[n].sc = KS_NONE;
    ks->scs[sc].ntfn = KS_NONE;
}

/* decodeSchedContext_Bind + invokeSchedContext_Bind */
int decodeSchedContext_Bind(struct kstate *ks, int sc, int t, int n)
{
    if (t != KS_NONE) {
        if (ks->scs[sc].tcb != KS_NONE || ks->tcbs[t].sc != KS_NONE)
            return SYSERR_ILLEGAL_OPERATION;
        if (isBlocked(ks, t) && !sc_released(ks, sc))
            return SYSERR_ILLEGAL_OPERATION;
        setThreadState(ks, ks->cur_thread, TS_Restart);
        schedContext_bindTCB(ks, sc, t);
        return SYSERR_NONE;
    }
    /* notification: no sc_released check (schedcontext.c:118-130) */
    if (ks->scs[sc].ntfn != KS_NONE || ks->ntfns[n].sc != KS_NONE)
        return SYSERR_ILLEGAL_OPERATION;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    schedContext_bindNtfn(ks, sc, n);
    return SYSERR_NONE;
}

/* decodeSchedContext_UnbindObject + invokeSchedContext_UnbindObject */
int decodeSchedContext_UnbindObject(struct kstate *ks, int sc, int t, int n)
{
    if (t != KS_NONE) {
        if (ks->scs[sc].tcb != t || t == ks->cur_thread)
            return SYSERR_ILLEGAL_OPERATION;
        setThreadState(ks, ks->cur_thread, TS_Restart);
        schedContext_unbindTCB(ks, sc, t);
        return SYSERR_NONE;
    }
    if (ks->scs[sc].ntfn != n)
        return SYSERR_ILLEGAL_OPERATION;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    schedContext_unbindNtfn(ks, sc);
    return SYSERR_NONE;
}

/* schedContext_unbindReply: the SC's call stack loses its head's link to
 * it (schedcontext.c:407-414) */
static void schedContext_unbindReply(struct kstate *ks, int sc)
{
    int r = ks->scs[sc].reply;
    if (r == KS_NONE)
        return;
    ks->replies[r].sc_head = KS_NONE;
    ks->scs[sc].reply = KS_NONE;
}

/* SchedContextUnbind in decodeSchedContextInvocation + invokeSchedContext_Unbind */
int decodeSchedContext_Unbind(struct kstate *ks, int sc)
{
    if (ks->scs[sc].tcb == ks->cur_thread)
        return SYSERR_ILLEGAL_OPERATION;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    schedContext_unbindAllTCBs(ks, sc);
    schedContext_unbindNtfn(ks, sc);
    schedContext_unbindReply(ks, sc);
    return SYSERR_NONE;
}
