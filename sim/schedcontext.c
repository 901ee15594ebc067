/* schedcontext: model of the scheduling-context invocations. */
#include "schedcontext.h"

#include "kassert.h"
#include "ntfn.h"
#include "refill.h"
#include "sched.h"
#include "smp.h"

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

/* invokeSchedControl_ConfigureFlags, first part: take the bound thread
 * out of the queues and bill the current SC before the parameters change */
static void configure_detach(struct kstate *ks, int sc)
{
    int t = ks->scs[sc].tcb;
    if (t == KS_NONE)
        return;
    remoteTCBStall(ks, t);
    tcbReleaseRemove(ks, t);
    tcbSchedDequeue(ks, t);
    if (ks->cur_sc == sc) {
        KASSERT(ks, checkBudget(ks), A_CONFIGURE_BUDGET);
        commitTime(ks);
    }
}

/* invokeSchedControl_ConfigureFlags, last part: the bound thread resumes,
 * on this core directly, on another through its queue and an IPI */
static void configure_resume(struct kstate *ks, int sc, int core)
{
    int t = ks->scs[sc].tcb;
    if (t == KS_NONE)
        return;
    schedContext_resume(ks, sc);
    if (core == CUR_CORE) {
        if (isRunnable(ks, t) && t != ks->cur_thread)
            possibleSwitchTo(ks, t);
    } else if (isRunnable(ks, t)) {
        sched_enqueue(ks, t);
    }
    if (t == ks->cur_thread)
        rescheduleRequired(ks);
}

/* invokeSchedControl_ConfigureFlags; core is the SchedControl cap's core
 * (always CUR_CORE without SMP) */
static void invokeSchedControl_ConfigureFlags(struct kstate *ks, int sc, int core, ticks_t budget, ticks_t period,
                                              unsigned max_refills, uint64_t badge, unsigned flags)
{
    struct ks_sc *s = &ks->scs[sc];
    configure_detach(ks, sc);
    if (budget == period)
        refill_new(ks, sc, MIN_REFILLS, budget, 0, ks->cur_time); /* round robin */
    else if (core == s->core && s->refill_max > 0 && s->tcb != KS_NONE && isRunnable(ks, s->tcb))
        refill_update(ks, sc, period, budget, max_refills);
    else
        refill_new(ks, sc, max_refills, budget, period, ks->cur_time);
    if (ks->cfg.smp) {
        s->core = (uint8_t)core;
        if (s->tcb != KS_NONE)
            migrateTCB(ks, s->tcb, core);
    }
    configure_resume(ks, sc, core);
    s->badge = badge;
    s->sporadic = (flags & SC_FLAG_SPORADIC) != 0;
}

/* decodeSchedControl_ConfigureFlags (the microsecond range checks are on
 * ticks here; the refill count is bounded by the model's capacity) */
int decodeSchedControl_ConfigureFlags(struct kstate *ks, int sc, int core, ticks_t budget, ticks_t period,
                                      unsigned extra_refills, uint64_t badge, unsigned flags)
{
    ticks_t min = ks->cfg.min_budget;
    if (core < 0 || core >= (ks->cfg.smp ? KS_MAX_CORES : 1))
        return SYSERR_INVALID_CAP; /* no SchedControl cap names that core */
    if (budget < min || period < min || budget > period)
        return SYSERR_RANGE;
    if (extra_refills + MIN_REFILLS > KS_MAX_REFILLS)
        return SYSERR_RANGE;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeSchedControl_ConfigureFlags(ks, sc, core, budget, period, extra_refills + MIN_REFILLS, badge, flags);
    return SYSERR_NONE;
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

/* SchedContextUnbind in decodeSchedContextInvocation + invokeSchedContext_Unbind
 * (no reply call stack is modelled) */
int decodeSchedContext_Unbind(struct kstate *ks, int sc)
{
    if (ks->scs[sc].tcb == ks->cur_thread)
        return SYSERR_ILLEGAL_OPERATION;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    schedContext_unbindAllTCBs(ks, sc);
    schedContext_unbindNtfn(ks, sc);
    return SYSERR_NONE;
}
