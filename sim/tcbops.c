/* tcbops: model of the scheduling-related thread invocations. */
#include "tcbops.h"

#include "ipc.h"
#include "ntfn.h"
#include "refill.h"
#include "schedcontext.h"
#include "sched.h"

/* setPriority (MCS): requeue a queued or current thread, reorder a
 * blocked one in its IPC queue */
void setPriority(struct kstate *ks, int t, int prio)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    switch (tcb->state) {
    case TS_Running:
    case TS_Restart:
        if (!tcb->queued && t != ks->cur_thread)
            break;
        tcbSchedDequeue(ks, t);
        tcb->prio = (uint8_t)prio;
        sched_enqueue(ks, t);
        rescheduleRequired(ks);
        return;
    case TS_BlockedOnReceive:
    case TS_BlockedOnSend:
        tcb->prio = (uint8_t)prio;
        if (tcb->blocking != KS_NONE) /* a generated timeout faulter names no endpoint */
            reorderEP(ks, tcb->blocking, t);
        return;
    case TS_BlockedOnNotification:
        tcb->prio = (uint8_t)prio;
        reorderNTFN(ks, tcb->blocking, t);
        return;
    default:
        break;
    }
    tcb->prio = (uint8_t)prio;
}

/* suspend (updateRestartPC and the yield-to changes no modelled state) */
void suspend(struct kstate *ks, int t)
{
    cancelIPC(ks, t);
    setThreadState(ks, t, TS_Inactive);
    tcbSchedDequeue(ks, t);
    tcbReleaseRemove(ks, t);
}

/* isStopped */
static bool isStopped(const struct kstate *ks, int t)
{
    int st = ks->tcbs[t].state;
    return st == TS_Inactive || isBlocked(ks, t);
}

/* restart (MCS) */
void restart(struct kstate *ks, int t)
{
    if (!isStopped(ks, t))
        return;
    cancelIPC(ks, t);
    setThreadState(ks, t, TS_Restart);
    int sc = ks->tcbs[t].sc;
    if (sc_sporadic(ks, sc) && sc != ks->cur_sc)
        refill_unblock_check(ks, sc);
    schedContext_resume(ks, sc);
    if (isSchedulable(ks, t))
        possibleSwitchTo(ks, t);
}

/* decodeSetSchedParams + invokeTCB_ThreadControlSched (priority and SC;
 * the fault handler cap is not modelled) */
int decodeSetSchedParams(struct kstate *ks, int t, int prio, int sc)
{
    if (sc != KS_NONE) {
        if (ks->tcbs[t].sc != KS_NONE || ks->scs[sc].tcb != KS_NONE)
            return SYSERR_ILLEGAL_OPERATION;
        if (isBlocked(ks, t) && !sc_released(ks, sc))
            return SYSERR_ILLEGAL_OPERATION;
    } else if (t == ks->cur_thread) {
        return SYSERR_ILLEGAL_OPERATION;
    }
    setThreadState(ks, ks->cur_thread, TS_Restart);
    setPriority(ks, t, prio);
    if (sc != KS_NONE)
        schedContext_bindTCB(ks, sc, t);
    else if (ks->tcbs[t].sc != KS_NONE)
        schedContext_unbindTCB(ks, ks->tcbs[t].sc, t);
    return SYSERR_NONE;
}

/* decodeSetPriority + invokeTCB_ThreadControlSched (priority only) */
int decodeSetPriority(struct kstate *ks, int t, int prio)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    setPriority(ks, t, prio);
    return SYSERR_NONE;
}

/* decodeSetTimeoutEndpoint + installTCBCap of tcbTimeoutHandler */
int decodeSetTimeoutEndpoint(struct kstate *ks, int t, int e)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    ks->tcbs[t].timeout_handler = e != KS_NONE;
    ks->tcbs[t].timeout_ep = (int8_t)e;
    return SYSERR_NONE;
}

/* invokeTCB_Suspend (decodeTCBInvocation sets the invoker to Restart first) */
int invokeTCB_Suspend(struct kstate *ks, int t)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    suspend(ks, t);
    return SYSERR_NONE;
}

/* invokeTCB_Resume */
int invokeTCB_Resume(struct kstate *ks, int t)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    restart(ks, t);
    return SYSERR_NONE;
}
