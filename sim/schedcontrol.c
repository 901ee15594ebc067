/* schedcontrol: model of the SchedControl invocation. */
#include "schedcontrol.h"

#include "budget.h"
#include "kassert.h"
#include "refill.h"
#include "schedcontext.h"
#include "sched.h"
#include "smp.h"

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
    if (core < 0 || core >= ks_cores(ks))
        return SYSERR_INVALID_CAP; /* no SchedControl cap names that core */
    if (budget < min || period < min || budget > period)
        return SYSERR_RANGE;
    if (extra_refills + MIN_REFILLS > KS_MAX_REFILLS)
        return SYSERR_RANGE;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeSchedControl_ConfigureFlags(ks, sc, core, budget, period, extra_refills + MIN_REFILLS, badge, flags);
    return SYSERR_NONE;
}
