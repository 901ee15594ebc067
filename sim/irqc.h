/*
 * irqc: the interrupt controller (GICv2/v3) and IRQ table as the kernel sees
 * them: the IRQ state of a number, taking, masking, acknowledging and
 * deactivating an IRQ, and the generic timer's deadline acknowledgement.
 */
#ifndef IRQSIM_IRQC_H
#define IRQSIM_IRQC_H

#include "kstate.h"

/* intStateIRQTable[irq]; entries outside the modelled table are inactive */
int irq_state_of(const struct kstate *ks, int irq);
/* getActiveIRQ: the IAR read takes the IRQ, which makes it active */
int getActiveIRQ(struct kstate *ks);
void maskInterrupt(struct kstate *ks, bool disable, int irq);
void deactivateInterrupt(struct kstate *ks, int irq);
void ackInterrupt(struct kstate *ks, int irq);
void handleSpuriousIRQ(struct kstate *ks);
void ackDeadlineIRQ(struct kstate *ks);

#endif
