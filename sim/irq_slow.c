/* irq_slow: model of the kernel's interrupt slowpath. */
#include "irq_slow.h"

#include "budget.h"
#include "cost_hooks.h"
#include "irqc.h"
#include "kassert.h"
#include "ntfn.h"
#include "sched.h"
#include "vcpu.h"

/* handleIPI (src/smp/ipi.c): a reschedule request; the remote call's work
 * (stall, TLB maintenance, ...) on behalf of another core is not modelled */
static void handleIPI(struct kstate *ks, int irq)
{
    if (irq == KS_IRQ_RESCHEDULE_IPI)
        rescheduleRequired(ks);
    else if (irq != KS_IRQ_REMOTE_CALL_IPI)
        KASSERT(ks, false, A_IPI_INVALID);
}

/* handleReservedIRQ (include/arch/arm/arch/object/interrupt.h:22-52 at
 * 1326364bc, :20-45 at 43607edb6): on a hypervisor build the VGIC
 * maintenance interrupt and the virtual PPIs; the PMU overflow, the TK1's
 * SMMU and the report of other reserved IRQs are not modelled */
static void handleReservedIRQ(struct kstate *ks, int irq)
{
    if (!ks->cfg.hyp)
        return;
    if (irq == INTERRUPT_VGIC_MAINTENANCE) {
        VGICMaintenance(ks);
        return;
    }
    if (irqVPPIEventIndex(irq) != VPPIEventIRQ_invalid)
        VPPIEvent(ks, irq);
}

/* handleInterrupt */
void handleInterrupt(struct kstate *ks, int irq)
{
    COST_B(ks); /* irq > maxIRQ */
    if (irq > (int)ks->cfg.max_irq) {
        COST_SEC(ks, SEC_EXIT);
        maskInterrupt(ks, true, irq);
        ackInterrupt(ks, irq);
        return;
    }
    COST(ks, 1, 0, 1); /* intStateIRQTable[irq] */
    switch (irq_state_of(ks, irq)) {
    case IRQ_Signal: {
        const struct ks_irq_cap *cap = &ks->irq_cap[irq];
        COST(ks, 2, 0, 1 + (cap->type == CAP_Notification)); /* the cap; type, can send */
        if (cap->type == CAP_Notification && cap->can_send) {
            COST_SEC(ks, SEC_NTFN);
            sendSignal(ks, cap->ntfn, cap->badge);
        }
        COST_SEC(ks, SEC_EXIT);
        /* master (a4b0c8d36, interrupt.c:232-235): on GICv3 the IRQ is
         * left unmasked and active until user level acks it */
        if (!cfg_split_eoi(&ks->cfg))
            maskInterrupt(ks, true, irq);
        break;
    }
    case IRQ_Timer:
        COST_SEC(ks, SEC_TIMER);
        ackDeadlineIRQ(ks);
        COST_W(ks, 1); /* ksReprogram */
        ks->reprogram = true;
        break;
    case IRQ_IPI:
        COST_SEC(ks, SEC_SCHED);
        handleIPI(ks, irq);
        break;
    case IRQ_Reserved:
        handleReservedIRQ(ks, irq);
        break;
    case IRQ_Inactive:
        COST_SEC(ks, SEC_EXIT);
        maskInterrupt(ks, true, irq);
        break;
    default:
        KASSERT(ks, false, A_IRQ_STATE);
    }
    COST_SEC(ks, SEC_EXIT);
    ackInterrupt(ks, irq);
}

/* handleInterruptEntry (single core holds the lock: clh_is_self_in_queue) */
void handleInterruptEntry(struct kstate *ks)
{
    uint8_t saved = ks->path;
    ks->path = PATH_SLOW;
    COST_SEC(ks, SEC_TIME);
    updateTimestamp(ks);
    checkBudget(ks);
    COST_SEC(ks, SEC_ENTRY);
    COST_ACTIVE_IRQ(ks);
    COST_B(ks); /* irqInvalid */
    int irq = getActiveIRQ(ks);
    if (irq != KS_IRQ_INVALID)
        handleInterrupt(ks, irq);
    else
        handleSpuriousIRQ(ks);
    COST_SEC(ks, SEC_SCHED);
    schedule(ks);
    COST_SEC(ks, SEC_EXIT);
    activateThread(ks);
    ks->path = saved;
}
