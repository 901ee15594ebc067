/* syscall: model of the MCS system-call entry and exit. */
#include "syscall.h"

#include "budget.h"
#include "domain.h"
#include "endpoint.h"
#include "faulthandler.h"
#include "ipc.h"
#include "irqhandler.h"
#include "ntfn.h"
#include "refill.h"
#include "schedcontext.h"
#include "sched.h"
#include "schedcontrol.h"
#include "smp.h"
#include "tcbops.h"
#include "vcpu.h"

struct ks_call ks_call_new(int sys, int inv)
{
    struct ks_call c = {.sys = (uint8_t)sys, .inv = (uint8_t)inv};
    c.tcb = c.sc = c.ntfn = c.ep = c.reply = c.irq = c.vcpu = KS_NONE;
    return c;
}

/* the invocation of each IRQ cap kind (SCAP_IRQ_ACK .. SCAP_IRQ_CONTROL):
 * a handler cap's by its label, the control cap's */
static const uint8_t irq_cap_inv[] = {CALL_IRQHandler_Ack, CALL_IRQHandler_SetNotification, CALL_IRQHandler_Clear,
                                      CALL_IRQControl_Get};

/* what a cptr resolving to cap invokes: a notification, else an endpoint
 * (a null cap or a failed lookup is refused before either) */
static int inv_of_cap(int cap)
{
    return cap == SCAP_NTFN || cap == SCAP_NTFN_NO_SEND ? CALL_Signal : CALL_Endpoint;
}

/* the system call of each entry kind but the interrupt, and what it
 * invokes (for a SysCall, the cap the cptr names) */
struct ks_call ks_call_of_entry(const struct kstate *ks)
{
    int e = ks->sys.entry;
    struct ks_call c = e == ENTRY_CALL         ? ks_call_new(SYS_Call, inv_of_cap(ks->sys.cap))
                       : e == ENTRY_REPLY_RECV ? ks_call_new(SYS_ReplyRecv, CALL_Reply)
                       : ks->sys.cap == SCAP_DOMAIN ? ks_call_new(SYS_Send, CALL_DomainSet_Set)
                       : ks->sys.cap == SCAP_TCB    ? ks_call_new(SYS_Send, CALL_TCB_SetFlags)
                       : ks->sys.cap == SCAP_VCPU   ? ks_call_new(SYS_Send, CALL_VCPU_InjectIRQ)
                       : scap_is_irq(ks->sys.cap) ? ks_call_new(SYS_Send, irq_cap_inv[ks->sys.cap - SCAP_IRQ_ACK])
                                                    : ks_call_new(SYS_Send, CALL_Signal);
    c.ep = ks->sys.ep;
    c.reply = ks->sys.reply;
    c.reply_cap = ks->sys.reply_cap;
    c.rights = ks->sys.rights;
    c.ntfn = ks->sys.ntfn;
    c.badge = ks->sys.badge;
    c.cap = ks->sys.cap;
    c.extra_caps = ks->sys.extra_caps;
    c.extra_bad = ks->sys.extra_bad;
    c.length = ks->sys.length;
    c.domain = ks->sys.domain;
    if (c.inv == CALL_DomainSet_Set || c.inv == CALL_TCB_SetFlags)
        c.tcb = ks->sys.tcb;
    c.flags_clear = ks->sys.flags_clear;
    c.flags_set = ks->sys.flags_set;
    if (c.inv == CALL_VCPU_InjectIRQ)
        c.vcpu = ks->sys.vcpu;
    if (scap_is_irq(ks->sys.cap))
        c.irq = ks->sys.irq;
    c.dest = ks->sys.dest;
    c.core = ks->sys.irq_core;
    c.irq_method = ks->sys.irq_method;
    c.trigger = ks->sys.trigger;
    c.mr0 = ks->sys.mr0;
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

/* decodeInvocation on an endpoint cap (objecttype.c:660-676): without
 * the send right, an invalid capability; else Restart and
 * performInvocation_Endpoint's sendIPC, blocking, a call for SysCall,
 * which alone may donate (handleSyscall passes canDonate only there) */
static int invoke_endpoint(struct kstate *ks, const struct ks_call *c)
{
    if (c->cap != SCAP_EP || !(c->rights & EPR(EPR_SEND)))
        return SYSERR_INVALID_CAP;
    bool call = c->sys == SYS_Call;
    struct ipc_send s = {.blocking = true, .call = call, .grant = (c->rights & EPR(EPR_GRANT)) != 0,
                         .grant_reply = (c->rights & EPR(EPR_GRANT_REPLY)) != 0, .donate = call, .badge = c->badge};
    setThreadState(ks, ks->cur_thread, TS_Restart);
    sendIPC(ks, &s, ks->cur_thread, c->ep);
    return SYSERR_NONE;
}

/* decodeInvocation on SysReplyRecv's reply cptr (objecttype.c:642-700):
 * a reply cap sets Restart and replies (performInvocation_Reply ->
 * doReplyTransfer), a null cap is an invalid capability */
static int invoke_reply(struct kstate *ks, const struct ks_call *c)
{
    if (c->reply_cap != RCAP_REPLY)
        return SYSERR_INVALID_CAP;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    doReplyTransfer(ks, ks->cur_thread, c->reply);
    return SYSERR_NONE;
}

/* the first step of decodeTCBInvocation (every label) and of
 * decodeSchedContextInvocation (maybeStallSC): a core running the thread
 * is stalled before the invocation is even decoded */
static void stall_target(struct kstate *ks, const struct ks_call *c)
{
    int t = KS_NONE;
    if ((c->inv >= CALL_TCB_SetSchedParams && c->inv <= CALL_TCB_Resume) || c->inv == CALL_TCB_SetFlags)
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
        return decodeIRQControlInvocation(ks, &(struct irqc_get){.method = c->irq_method, .irq = c->irq, .dest = c->dest,
                                                                 .length = c->length, .extra_caps = c->extra_caps,
                                                                 .edge = c->trigger != 0, .core = c->core});
    case CALL_IRQHandler_SetNotification:
        return decodeIRQHandler_SetNotification(ks, c->irq, c->ntfn, c->badge, c->extra_caps);
    case CALL_IRQHandler_Clear:
        return decodeIRQHandler_Clear(ks, c->irq);
    case CALL_DomainSet_ScheduleConfigure:
        return decodeDomainScheduleConfigure(ks, c->dom_index, c->domain, c->budget);
    case CALL_DomainSet_ScheduleSetStart:
        return decodeDomainScheduleSetStart(ks, c->dom_index);
    case CALL_Endpoint:
        return invoke_endpoint(ks, c);
    case CALL_Reply:
        return invoke_reply(ks, c);
    case CALL_VCPU_AckVPPI:
        return decodeVCPUAckVPPI(ks, c->vcpu, c->irq);
    case CALL_DomainSet_Set:
        return decodeDomainSetSet(ks, c->tcb, c->domain, c->length, c->extra_caps);
    case CALL_TCB_SetFlags:
        return decodeSetFlags(ks, c->tcb, c->flags_clear, c->flags_set, c->length);
    case CALL_VCPU_InjectIRQ:
        return decodeVCPUInjectIRQ(ks, c->vcpu, c->length, c->mr0);
    default:
        return decodeIRQHandler_Ack(ks, c->irq, c->core);
    }
}

/* a cap fault (handleInvocation, handleRecv: current_fault =
 * seL4_Fault_CapFault_new, then handleFault, faulthandler.c:15-22) with
 * its lookup fault (enum ks_lookup_fault): to the thread's fault handler,
 * or Inactive without one */
static void cap_fault(struct kstate *ks, int t, uint8_t lookup)
{
    handleFault(ks, t, (struct ks_fault_msg){FAULT_CapFault, KS_NONE, lookup});
}

/* the invocations a SysSend or SysCall makes on the cap its cptr names
 * (a thread's struct ks_call from ks_call_of_entry, or a workload's with
 * cap and extra caps set): handleInvocation's lookups apply to them; the
 * root task's set-up calls (check/sim.c) never fail one */
static const bool sends_on_cptr[CALL_COUNT] = {
    [CALL_Signal] = true,       [CALL_Endpoint] = true,
    [CALL_DomainSet_Set] = true, [CALL_TCB_SetFlags] = true,
    [CALL_VCPU_InjectIRQ] = true, [CALL_IRQHandler_Ack] = true,
    [CALL_IRQHandler_SetNotification] = true, [CALL_IRQHandler_Clear] = true,
    [CALL_IRQControl_Get] = true,
};

/* The lookups of handleInvocation (syscall.c:320-343) a SysSend on a
 * notification can fail: lookupCapAndSlot, then lookupExtraCaps, which
 * stops at the first extra cap that does not resolve. Either faults the
 * caller (isBlocking) and ends the invocation. */
static bool lookups_fail(const struct ks_call *c)
{
    unsigned named = (1u << c->extra_caps) - 1;
    if (c->inv == CALL_Reply)
        return c->reply_cap == RCAP_LOOKUP_FAIL || (c->extra_bad & named) != 0;
    if (!sends_on_cptr[c->inv])
        return false;
    return c->cap == SCAP_LOOKUP_FAIL || (c->extra_bad & named) != 0;
}

/* replyFromKernel_error, replyFromKernel_success_empty
 * (endpoint.c:300-327): of the reply's registers, the model holds the
 * badge register */
static void replyFromKernel(struct kstate *ks, int t)
{
    ks->tcbs[t].badge_reg = 0;
}

/* handleInvocation (syscall.c:300-390): a failed lookup faults the
 * caller; an error changes nothing but a call's reply registers; a call
 * that left the invoker restarting completes it */
static void handleInvocation(struct kstate *ks, const struct ks_call *c)
{
    int cur = ks->cur_thread;
    bool call = c->sys == SYS_Call;
    if (lookups_fail(c)) {
        if (c->sys != SYS_ReplyRecv) /* isBlocking: not for SysReplyRecv's reply */
            cap_fault(ks, cur, LKF_RESOLVE); /* lookupCapAndSlot's, lookupExtraCaps' */
        return;
    }
    if (decodeInvocation(ks, c) != SYSERR_NONE) {
        if (call)
            replyFromKernel(ks, cur);
        return;
    }
    if (ks->tcbs[cur].state != TS_Restart)
        return;
    if (call)
        replyFromKernel(ks, cur);
    setThreadState(ks, cur, TS_Running);
}

/* The lookup fault of handleRecv's cap fault: lookupCap's own when the
 * receive cptr or (lookupReply) the reply cptr does not resolve; else
 * missing capability, which the kernel sets for a cap of the wrong kind
 * or rights (syscall.c:468-516) and, since 5d371316f, in lookupReply for
 * a reply cptr naming no reply cap (syscall.c:400-406). receives: the
 * receive cptr names an endpoint cap with the receive right. */
static uint8_t recv_lookup_fault(const struct ks_call *c, bool receives)
{
    if (c->cap == SCAP_LOOKUP_FAIL || (receives && c->reply_cap == RCAP_LOOKUP_FAIL))
        return LKF_RESOLVE;
    return LKF_MISSING;
}

/* handleRecv(isBlocking, canReply) of SysReplyRecv (syscall.c:448-518):
 * the cptr's endpoint cap with the receive right and a reply cap in the
 * reply cptr receive with it; a notification cap waits on it; anything
 * else is a cap fault */
static void handleRecv(struct kstate *ks, const struct ks_call *c)
{
    int cur = ks->cur_thread;
    if (c->cap == SCAP_NTFN || c->cap == SCAP_NTFN_NO_SEND) {
        receiveSignal(ks, cur, c->ntfn, true);
        return;
    }
    bool receives = c->cap == SCAP_EP && (c->rights & EPR(EPR_RECV));
    if (!receives || c->reply_cap != RCAP_REPLY) {
        cap_fault(ks, cur, recv_lookup_fault(c, receives));
        return;
    }
    receiveIPC(ks, cur, c->ep, c->reply, true);
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

/* handleSyscall (SysSend, SysCall, SysReplyRecv, SysWait, SysRecv, SysYield) */
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
        case SYS_Call:
            handleInvocation(ks, c);
            break;
        case SYS_ReplyRecv:
            handleInvocation(ks, c); /* the reply: handleInvocation(false, false, true, true, reply) */
            handleRecv(ks, c);
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
