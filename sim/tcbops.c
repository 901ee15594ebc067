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

/* invokeSetFlags (master src/object/tcb.c:798-824): the flags the mask
 * allows (seL4_TCBFlag_MASK: fpuDisabled on an FPU build, none without),
 * then, on an FPU build, a disabled thread's FPU state released, or the
 * caller's own FPU restored when it enabled it (78c3b11a0; before it the
 * FPU stayed as it was: no switchToThread follows); the caller Running.
 * The reply of a seL4_Call (the flags in its message) is not modelled. */
static void invokeSetFlags(struct kstate *ks, int t, unsigned clear, unsigned set)
{
    unsigned mask = ks->cfg.fpu ? 1u : 0u, flags = ks->tcbs[t].fpu_disabled;
    flags = (flags & ~clear) | (set & mask);
    ks->tcbs[t].fpu_disabled = flags & 1u;
    if (ks->cfg.fpu && ks->tcbs[t].fpu_disabled)
        fpuRelease(ks, t);
    else if (ks->cfg.fpu && t == ks->cur_thread && cfg_has(&ks->cfg, KF_FPU_RESTORE_AT_SET_FLAGS))
        lazyFPURestore(ks, t);
    setThreadState(ks, ks->cur_thread, TS_Running);
}

/* decodeSetFlags (tcb.c:826-842): two message words, clear and set; a
 * tree without TCB flags has no such label (decodeTCBInvocation's
 * default: an illegal operation) */
int decodeSetFlags(struct kstate *ks, int t, unsigned clear, unsigned set, unsigned length)
{
    if (!cfg_has(&ks->cfg, KF_TCB_FLAGS))
        return SYSERR_ILLEGAL_OPERATION;
    if (length < 2)
        return SYSERR_INVALID_ARGUMENT; /* seL4_TruncatedMessage */
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeSetFlags(ks, t, clear, set);
    return SYSERR_NONE;
}
