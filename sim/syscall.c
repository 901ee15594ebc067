/* syscall: model of the MCS system-call entry and exit. */
#include "syscall.h"

#include "budget.h"
#include "domain.h"
#include "ipc.h"
#include "irqhandler.h"
#include "ntfn.h"
#include "refill.h"
#include "schedcontext.h"
#include "sched.h"
#include "schedcontrol.h"
#include "smp.h"
#include "tcbops.h"

struct ks_call ks_call_new(int sys, int inv)
{
    struct ks_call c = {.sys = (uint8_t)sys, .inv = (uint8_t)inv};
    c.tcb = c.sc = c.ntfn = c.ep = c.reply = c.irq = KS_NONE;
    return c;
}

struct ks_call ks_call_of_entry(const struct kstate *ks)
{
    struct ks_call c = ks_call_new(SYS_Send, CALL_Signal);
    c.ntfn = ks->sys.ntfn;
    c.badge = ks->sys.badge;
    c.cap = ks->sys.cap;
    c.extra_caps = ks->sys.extra_caps;
    c.extra_bad = ks->sys.extra_bad;
    return c;
}

/* decodeInvocation on a notification cap (objecttype.c:678-690) and on a
 * null cap (the default case: invalid capability); a notification cap
 * with the send right sets Restart and runs performInvocation_Notification */
static int invoke_signal(struct kstate *ks, const struct ks_call *c)
{
    if (c->cap != SCAP_NTFN)
        return SYSERR_INVALID_CAP;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    sendSignal(ks, c->ntfn, c->badge);
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
        return invoke_signal(ks, c);
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

/* handleFault (MCS, faulthandler.c:15-22) with a null fault handler cap,
 * the only one the model holds: sendFaultIPC finds no endpoint and
 * handleNoFaultHandler makes the thread Inactive (no tcbFault is stored) */
static void handleFault(struct kstate *ks, int t)
{
    setThreadState(ks, t, TS_Inactive);
}

/* The lookups of handleInvocation (syscall.c:320-343) a SysSend on a
 * notification can fail: lookupCapAndSlot, then lookupExtraCaps, which
 * stops at the first extra cap that does not resolve. Either faults the
 * caller (isBlocking) and ends the invocation. */
static bool lookups_fail(const struct ks_call *c)
{
    if (c->inv != CALL_Signal)
        return false;
    unsigned named = (1u << c->extra_caps) - 1;
    return c->cap == SCAP_LOOKUP_FAIL || (c->extra_bad & named) != 0;
}

/* handleInvocation: a failed lookup faults the caller; an error changes
 * nothing (the reply registers are not modelled); a call that left the
 * invoker restarting completes it */
static void handleInvocation(struct kstate *ks, const struct ks_call *c)
{
    if (lookups_fail(c)) {
        handleFault(ks, ks->cur_thread);
        return;
    }
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
