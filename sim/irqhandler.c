/* irqhandler: model of the IRQ control and handler invocations. */
#include "irqhandler.h"

#include "irqc.h"
#include "schedcontext.h"
#include "sched.h"

/* setIRQState (one core: no remote PPI masking) */
void setIRQState(struct kstate *ks, int state, int irq)
{
    ks_irq_touch(ks, irq);
    ks->irq_state[irq] = (uint8_t)state;
    maskInterrupt(ks, state == IRQ_Inactive, irq);
}

/* decodeIRQControlInvocation (interrupt.c:23-73 at 1326364bc, the same
 * checks in the same order at 43607edb6): fewer than three words or no
 * extra cap is a truncated message, an IRQ above maxIRQ a range error
 * (Arch_checkIRQ), one already in use is refused (seL4_RevokeFirst), then
 * the destination slot must be found (lookupTargetSlot) and empty
 * (ensureEmptySlot). A SysSend replies no error, so the model tells them by
 * their order only. The handler cap goes to a slot of the caller's CNode,
 * which the model does not hold. */
int decodeIRQControl_Get(struct kstate *ks, int irq, unsigned length, unsigned extra_caps, int dest)
{
    if (length < 3 || extra_caps == 0)
        return SYSERR_INVALID_ARGUMENT;
    if (irq < 0 || irq > (int)ks->cfg.max_irq || irq >= KS_MAX_IRQS)
        return SYSERR_RANGE;
    if (irq_state_of(ks, irq) != IRQ_Inactive)
        return SYSERR_ILLEGAL_OPERATION;
    if (dest == IRQD_BAD)
        return SYSERR_INVALID_CAP; /* seL4_FailedLookup */
    if (dest == IRQD_FULL)
        return SYSERR_ILLEGAL_OPERATION; /* seL4_DeleteFirst */
    setThreadState(ks, ks->cur_thread, TS_Restart);
    setIRQState(ks, IRQ_Signal, irq); /* invokeIRQControl */
    return SYSERR_NONE;
}

/* IRQSetIRQHandler + invokeIRQHandler_SetIRQHandler: without an extra
 * cap a truncated message (interrupt.c:98-101 at 1326364bc), which the
 * model tells by its place only (a SysSend replies no error). The slot's
 * old cap goes by cteDeleteOne, which finalises nothing: the handler
 * slot's cap is a copy cteInsert made from the caller's cap
 * (interrupt.c:167-175), and the model holds no state in which that was
 * the object's last cap (the bridge gives each slot's cap its origin,
 * real/glue/hk_bridge.c), so it is not final (isFinalCapability,
 * src/object/cnode.c) */
int decodeIRQHandler_SetNotification(struct kstate *ks, int irq, int n, uint64_t badge, unsigned extra_caps)
{
    if (extra_caps == 0)
        return SYSERR_INVALID_ARGUMENT;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    ks_irq_touch(ks, irq);
    struct ks_irq_cap *cap = &ks->irq_cap[irq];
    cap->type = CAP_Notification;
    cap->can_send = true;
    cap->ntfn = (int8_t)n;
    cap->badge = badge;
    return SYSERR_NONE;
}

/* invokeIRQHandler_AckIRQ of another core's PPI (interrupt.c:146-157 at
 * 1326364bc): a remote call to that core, which deactivates it where the
 * local ack does (GICv3 with split EOI: doRemoteDeactivatePrivateInterrupt,
 * 2ec8c1547) and unmasks it otherwise (doRemoteMaskPrivateInterrupt; on
 * 43607edb6 always). The tree between split EOI and 2ec8c1547 (a4b0c8d36)
 * unmasked it with split EOI on, leaving it active for good: the model
 * takes the rule of the trees before and after, and that tree differs. */
static void ack_remote_ppi(struct kstate *ks, int irq, int core)
{
    uint32_t bit = 1u << irq;
    if (cfg_split_eoi(&ks->cfg))
        ks->core_ppi_active[core] &= ~bit;
    else
        ks->core_ppi_masked[core] &= ~bit;
}

/* IRQAckIRQ + invokeIRQHandler_AckIRQ: master on GICv3 deactivates the
 * IRQ its handleInterrupt left active and leaves the mask alone
 * (interrupt.c:159-163); GICv2 and 43607edb6 unmask. Another core's PPI
 * (SMP) is acked there (ack_remote_ppi). */
int decodeIRQHandler_Ack(struct kstate *ks, int irq, int core)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    if (ks->cfg.smp && irq < KS_NUM_PPI && core != CUR_CORE) {
        ack_remote_ppi(ks, irq, core);
        return SYSERR_NONE;
    }
    if (cfg_split_eoi(&ks->cfg))
        deactivateInterrupt(ks, irq);
    else
        maskInterrupt(ks, false, irq);
    return SYSERR_NONE;
}

/* IRQClearIRQHandler + invokeIRQHandler_ClearIRQHandler (interrupt.c:
 * 122-125, 177-183 at 1326364bc): the handler slot's cap deleted, not
 * final (as in decodeIRQHandler_SetNotification); the IRQ keeps its state
 * and its mask */
int decodeIRQHandler_Clear(struct kstate *ks, int irq)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    ks_irq_touch(ks, irq);
    ks->irq_cap[irq] = (struct ks_irq_cap){.type = CAP_Null, .ntfn = KS_NONE};
    return SYSERR_NONE;
}
