/* syscall: model of the MCS system-call entry and exit. */
#include "syscall.h"

#include "domain.h"
#include "ipc.h"
#include "irqhandler.h"
#include "ntfn.h"
#include "refill.h"
#include "schedcontext.h"
#include "sched.h"
#include "smp.h"
#include "tcbops.h"

struct ks_call ks_call_new(int sys, int inv)
{
    struct ks_call c = {.sys = (uint8_t)sys, .inv = (uint8_t)inv};
    c.tcb = c.sc = c.ntfn = c.ep = c.reply = c.irq = KS_NONE;
    return c;
}

/* performInvocation_Notification (decodeInvocation sets Restart first) */
static int invoke_signal(struct kstate *ks, int n, uint64_t badge)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    sendSignal(ks, n, badge);
    return SYSERR_NONE;
}

/* the first step of decodeTCBInvocation (every label) and of
 * decodeSchedContextInvocation (maybeStallSC): a core running the thread
 * is stalled before the invocation is even decoded */
static void stall_target(struct kstate *ks, const struct ks_call *c)
{
    int t = KS_NONE;
    if (c->inv >= CALL_TCB_SetSchedParams && c->inv <= CALL_TCB_Resume)
        t = c->tcb;
    else if (c->inv >= CALL_SchedContext_Bind && c->inv <= CALL_SchedContext_UnbindObject)
        t = ks->scs[c->sc].tcb;
    if (t != KS_NONE)
        remoteTCBStall(ks, t);
}

/* decodeInvocation, dispatched on the cap type and label */
int decodeInvocation(struct kstate *ks, const struct ks_call *c)
{
    stall_target(ks, c);
    switch (c->inv) {
    case CALL_Signal:
        return invoke_signal(ks, c->ntfn, c->badge);
    case CALL_SchedControl_ConfigureFlags:
        return decodeSchedControl_ConfigureFlags(ks, c->sc, c->core, c->budget, c->period, c->extra_refills,
                                                 c->badge, c->flags);
    case CALL_SchedContext_Bind:
        return decodeSchedContext_Bind(ks, c->sc, c->tcb, c->ntfn);
    case CALL_SchedContext_Unbind:
        return decodeSchedContext_Unbind(ks, c->sc);
    case CALL_SchedContext_UnbindObject:
        return decodeSchedContext_UnbindObject(ks, c->sc, c->tcb, c->ntfn);
    case CALL_TCB_SetSchedParams:
        return decodeSetSchedParams(ks, c->tcb, c->prio, c->sc);
    case CALL_TCB_SetPriority:
        return decodeSetPriority(ks, c->tcb, c->prio);
    case CALL_TCB_SetTimeoutEndpoint:
        return decodeSetTimeoutEndpoint(ks, c->tcb, c->ep);
    case CALL_TCB_Suspend:
        return invokeTCB_Suspend(ks, c->tcb);
    case CALL_TCB_Resume:
        return invokeTCB_Resume(ks, c->tcb);
    case CALL_IRQControl_Get:
        return decodeIRQControl_Get(ks, c->irq);
    case CALL_IRQHandler_SetNotification:
        return decodeIRQHandler_SetNotification(ks, c->irq, c->ntfn, c->badge);
    case CALL_DomainSet_ScheduleConfigure:
        return decodeDomainScheduleConfigure(ks, c->dom_index, c->domain, c->budget);
    case CALL_DomainSet_ScheduleSetStart:
        return decodeDomainScheduleSetStart(ks, c->dom_index);
    default:
        return decodeIRQHandler_Ack(ks, c->irq);
    }
}

/* handleInvocation: an error changes nothing (the reply registers are not
 * modelled); a call that left the invoker restarting completes it */
static void handleInvocation(struct kstate *ks, const struct ks_call *c)
{
    if (decodeInvocation(ks, c) != SYSERR_NONE)
        return;
    if (ks->tcbs[ks->cur_thread].state == TS_Restart)
        setThreadState(ks, ks->cur_thread, TS_Running);
}

/* handleYield (MCS): give up the rest of the head refill, counting only
 * the time used */
static void handleYield(struct kstate *ks)
{
    int sc = ks->cur_sc;
    ticks_t consumed = ks->scs[sc].consumed + ks->consumed;
    chargeBudget(ks, refill_head(ks, sc)->amount, false);
    ks->scs[sc].consumed = consumed;
}

/* handleSyscall (SysSend, SysWait, SysRecv, SysYield) */
bool handleSyscall(struct kstate *ks, const struct ks_call *c)
{
    uint8_t saved = ks->path;
    ks->path = PATH_SLOW;
    updateTimestamp(ks);
    bool performed = checkBudgetRestart(ks);
    if (performed) {
        int cur = ks->cur_thread;
        switch (c->sys) {
        case SYS_Send:
            handleInvocation(ks, c);
            break;
        case SYS_Wait:
            receiveSignal(ks, cur, c->ntfn, true); /* handleRecv(true, false) */
            break;
        case SYS_Recv:
            receiveIPC(ks, cur, c->ep, c->reply, true); /* handleRecv(true, true) */
            break;
        default:
            handleYield(ks);
        }
    }
    schedule(ks);
    activateThread(ks);
    ks->path = saved;
    return performed;
}
