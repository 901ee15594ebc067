/* irqc: model of the GIC operations the interrupt path performs. */
#include "irqc.h"

#include "cost_hooks.h"
#include "sched.h"

/* Arch_checkIRQ */
bool Arch_checkIRQ(const struct kstate *ks, int irq)
{
    return irq < 0 || irq > (int)ks->cfg.max_irq;
}

int irq_state_of(const struct kstate *ks, int irq)
{
    if (irq < 0 || irq >= ks->n_irqs)
        return IRQ_Inactive;
    return ks->irq_state[irq];
}

/* An IRQ number the kernel's table does not cover is recorded apart. */
static bool out_of_table(struct kstate *ks, int irq)
{
    if (irq <= (int)ks->cfg.max_irq)
        return false;
    ks->oor_irq = irq;
    return true;
}

/* The GIC's active flag of an IRQ, in the table or above maxIRQ. */
static void set_active(struct kstate *ks, int irq, bool active)
{
    if (out_of_table(ks, irq)) {
        ks->oor_active = active;
        return;
    }
    ks_irq_touch(ks, irq);
    ks->irq_active[irq] = active;
}

/* getActiveIRQ (gic_v2.h, gic_v3.h): the IAR read acknowledges the IRQ at
 * the GIC, which makes it active (pending to active); irqInvalid reads
 * none. The kernel reads IAR only while its active_irq is not valid, so a
 * second call (a fastpath falling back) takes nothing new. */
int getActiveIRQ(struct kstate *ks)
{
    int irq = ks->active_irq;
    if (irq != KS_IRQ_INVALID)
        set_active(ks, irq, true);
    return irq;
}

/* maskInterrupt */
void maskInterrupt(struct kstate *ks, bool disable, int irq)
{
    COST(ks, 0, 1, 1); /* SGI/PPI or SPI; GICD/GICR clear-enable */
    if (out_of_table(ks, irq)) {
        ks->oor_masked = disable;
        return;
    }
    ks_irq_touch(ks, irq);
    ks->irq_masked[irq] = disable;
}

/* deactivateInterrupt (master gic_v3.h:338-343): the ICC_DIR write */
void deactivateInterrupt(struct kstate *ks, int irq)
{
    set_active(ks, irq, false);
}

/* An IRQ the kernel passes to user level under split EOI: in range and
 * IRQSignal (master gic_v3.h:345-367, ackInterrupt's test). */
static bool goes_to_user(const struct kstate *ks, int irq)
{
    return irq <= (int)ks->cfg.max_irq && irq_state_of(ks, irq) == IRQ_Signal;
}

/* ackInterrupt: counted, so a double or missing EOI shows in the outcome.
 * The EOI write deactivates (EOImode 0: GICv2, and GICv3 at 43607edb6);
 * under master's split EOI it only drops the priority, and the IRQ is
 * deactivated here unless it goes to user level, whose IRQHandler_Ack
 * deactivates it. */
void ackInterrupt(struct kstate *ks, int irq)
{
    COST(ks, 1, 2, 0); /* active_irq to ICC_EOIR1, active_irq = none */
    if (!cfg_split_eoi(&ks->cfg) || !goes_to_user(ks, irq))
        deactivateInterrupt(ks, irq);
    if (out_of_table(ks, irq)) {
        ks->oor_acks += ks->oor_acks < UINT8_MAX;
        return;
    }
    ks_irq_touch(ks, irq);
    if (ks->irq_acks[irq] < UINT8_MAX)
        ks->irq_acks[irq]++;
}

/* handleSpuriousIRQ: nothing to do on the GIC */
void handleSpuriousIRQ(struct kstate *ks)
{
    (void)ks;
}

/* ackDeadlineIRQ (arm generic timer): park the compare value at the end */
void ackDeadlineIRQ(struct kstate *ks)
{
    setDeadline(ks, UINT64_MAX);
}
