/* irq_slow: model of the kernel's interrupt slowpath. */
#include "irq_slow.h"

#include "irqc.h"
#include "kassert.h"
#include "ntfn.h"
#include "sched.h"

/* handleIPI, as far as the model goes: a reschedule request */
static void handleIPI(struct kstate *ks)
{
    rescheduleRequired(ks);
}

/* handleInterrupt */
void handleInterrupt(struct kstate *ks, int irq)
{
    if (irq > (int)ks->cfg.max_irq) {
        maskInterrupt(ks, true, irq);
        ackInterrupt(ks, irq);
        return;
    }
    switch (irq_state_of(ks, irq)) {
    case IRQ_Signal: {
        const struct ks_irq_cap *cap = &ks->irq_cap[irq];
        if (cap->type == CAP_Notification && cap->can_send)
            sendSignal(ks, cap->ntfn, cap->badge);
        maskInterrupt(ks, true, irq);
        break;
    }
    case IRQ_Timer:
        ackDeadlineIRQ(ks);
        ks->reprogram = true;
        break;
    case IRQ_IPI:
        handleIPI(ks);
        break;
    case IRQ_Reserved:
        break; /* handleReservedIRQ: no PMU or VGIC maintenance modelled */
    case IRQ_Inactive:
        maskInterrupt(ks, true, irq);
        break;
    default:
        KASSERT(ks, false, A_IRQ_STATE);
    }
    ackInterrupt(ks, irq);
}

/* handleInterruptEntry (single core holds the lock: clh_is_self_in_queue) */
void handleInterruptEntry(struct kstate *ks)
{
    uint8_t saved = ks->path;
    ks->path = PATH_SLOW;
    updateTimestamp(ks);
    checkBudget(ks);
    if (ks->active_irq != KS_IRQ_INVALID)
        handleInterrupt(ks, ks->active_irq);
    else
        handleSpuriousIRQ(ks);
    schedule(ks);
    activateThread(ks);
    ks->path = saved;
}
