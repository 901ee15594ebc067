/* irqc: model of the GIC operations the interrupt path performs. */
#include "irqc.h"

#include "cost_hooks.h"
#include "sched.h"

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

/* ackInterrupt: counted, so a double or missing EOI shows in the outcome */
void ackInterrupt(struct kstate *ks, int irq)
{
    COST(ks, 1, 2, 0); /* active_irq to ICC_EOIR1, active_irq = none */
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
