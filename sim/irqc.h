/*
 * irqc: the interrupt controller (GICv2/v3) and IRQ table as the kernel sees
 * them: the IRQ state of a number, masking and acknowledging, and the
 * generic timer's deadline acknowledgement.
 */
#ifndef IRQSIM_IRQC_H
#define IRQSIM_IRQC_H

#include "kstate.h"

/* intStateIRQTable[irq]; entries outside the modelled table are inactive */
int irq_state_of(const struct kstate *ks, int irq);
void maskInterrupt(struct kstate *ks, bool disable, int irq);
void ackInterrupt(struct kstate *ks, int irq);
void handleSpuriousIRQ(struct kstate *ks);
void ackDeadlineIRQ(struct kstate *ks);

#endif
