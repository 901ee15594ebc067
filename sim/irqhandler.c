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

/* setIRQTrigger (gic_v3.c:360-396, gic_v2.c:150-163 at 1326364bc): the
 * upper bit of the IRQ's field of GICD_ICFGR (a PPI's: GICR_ICFGR1 of its
 * core on GICv3), set for edge, cleared for level. GICv3 leaves an SGI's
 * alone (read-only there); GICv2 writes it (its hardware ignores that). */
static void setIRQTrigger(struct kstate *ks, int irq, bool edge)
{
    if (ks->cfg.gic_version == 3 && irq < KS_NUM_SGI)
        return;
    uint8_t cfg = ks->irq_cfg[irq] & (uint8_t)~KS_IRQ_EDGE;
    ks->irq_cfg[irq] = edge ? (uint8_t)(cfg | KS_IRQ_EDGE) : cfg;
}

/* setIRQTarget (gic_v3.c:461-470, gic_v2.c:219-231 at 1326364bc): an
 * SPI's target core (GICD_IROUTER, GICD_ITARGETSR); a PPI is never asked
 * (decode_trigger_core) */
static void setIRQTarget(struct kstate *ks, int irq, int core)
{
    ks->irq_cfg[irq] = (uint8_t)((ks->irq_cfg[irq] & KS_IRQ_EDGE) | core << KS_IRQ_CORE_SHIFT);
}

/* the checks every label ends with, and the invocation: the IRQ already
 * in use is refused (isIRQActive: seL4_RevokeFirst), then the destination
 * slot must be found (lookupTargetSlot) and empty (ensureEmptySlot); then
 * Restart, the GIC's configuration the label asks for (Arch_invokeIRQControl)
 * and invokeIRQControl's setIRQState. A SysSend replies no error, so the
 * model tells them by their order only. The handler cap goes to a slot of
 * the caller's CNode, which the model does not hold. */
static int irq_control_invoke(struct kstate *ks, const struct irqc_get *a)
{
    if (irq_state_of(ks, a->irq) != IRQ_Inactive)
        return SYSERR_ILLEGAL_OPERATION;
    if (a->dest == IRQD_BAD)
        return SYSERR_INVALID_CAP; /* seL4_FailedLookup */
    if (a->dest == IRQD_FULL)
        return SYSERR_ILLEGAL_OPERATION; /* seL4_DeleteFirst */
    setThreadState(ks, ks->cur_thread, TS_Restart);
    ks_irq_touch(ks, a->irq);
    if (a->method == IRQM_TRIGGER_CORE && a->irq >= KS_NUM_PPI)
        setIRQTarget(ks, a->irq, a->core);
    if (a->method != IRQM_GET)
        setIRQTrigger(ks, a->irq, a->edge);
    setIRQState(ks, IRQ_Signal, a->irq);
    return SYSERR_NONE;
}

/* Arch_checkIRQ, and an IRQ beyond the model's table (maxIRQ within it
 * on every configuration cfg_validate takes) refused the same way */
static bool irq_out_of_range(const struct kstate *ks, int irq)
{
    return Arch_checkIRQ(ks, irq) || irq >= KS_MAX_IRQS;
}

/* Arch_decodeIRQControlInvocation, ARMIRQIssueIRQHandlerTrigger
 * (arm/object/interrupt.c:35-90 at 1326364bc, the same checks at 24-79 of
 * 43607edb6): fewer than four words or no extra cap is a truncated
 * message; every GIC has HAVE_SET_TRIGGER; the range; on SMP a PPI is
 * refused (IllegalOperation: it takes _GetTriggerCore) */
static int decode_trigger(struct kstate *ks, const struct irqc_get *a)
{
    if (a->length < 4 || a->extra_caps == 0)
        return SYSERR_INVALID_ARGUMENT;
    if (irq_out_of_range(ks, a->irq))
        return SYSERR_RANGE;
    if (ks->cfg.smp && a->irq < KS_NUM_PPI)
        return SYSERR_ILLEGAL_OPERATION;
    return irq_control_invoke(ks, a);
}

/* Arch_decodeIRQControlInvocation, ARMIRQIssueIRQHandlerTriggerCore (SMP
 * only; arm/object/interrupt.c:150-200 at 1326364bc, 81-131 at 43607edb6):
 * the range, then a target core beyond CONFIG_MAX_NUM_NODES is an invalid
 * argument; the IRQ in use is the target core's entry (an SPI's is the
 * one entry; another core's PPI is not held, and not drawn). The kernel
 * checks neither the length nor that extra cap 0 exists: it reads its cap
 * through NULL when the message has none (kernel finding K3,
 * docs/FINDINGS.md). The model refuses that message as truncated, as the
 * other two labels do; the generator never draws it. */
static int decode_trigger_core(struct kstate *ks, const struct irqc_get *a)
{
    if (a->extra_caps == 0)
        return SYSERR_INVALID_ARGUMENT;
    if (irq_out_of_range(ks, a->irq))
        return SYSERR_RANGE;
    if (a->core >= KS_MAX_CORES)
        return SYSERR_INVALID_ARGUMENT;
    return irq_control_invoke(ks, a);
}

/* decodeIRQControlInvocation (interrupt.c:23-73 at 1326364bc, the same
 * checks in the same order at 43607edb6): IRQIssueIRQHandler with fewer
 * than three words or no extra cap is a truncated message, an IRQ above
 * maxIRQ a range error (Arch_checkIRQ); the arch's labels otherwise */
int decodeIRQControlInvocation(struct kstate *ks, const struct irqc_get *a)
{
    if (a->method == IRQM_TRIGGER)
        return decode_trigger(ks, a);
    if (a->method == IRQM_TRIGGER_CORE)
        return decode_trigger_core(ks, a);
    if (a->length < 3 || a->extra_caps == 0)
        return SYSERR_INVALID_ARGUMENT;
    if (irq_out_of_range(ks, a->irq))
        return SYSERR_RANGE;
    return irq_control_invoke(ks, a);
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
