/*
 * irqc: the interrupt controller (GICv2/v3) and IRQ table as the kernel sees
 * them: the IRQ state of a number, taking, masking, acknowledging and
 * deactivating an IRQ, and the generic timer's deadline acknowledgement.
 */
#ifndef IRQSIM_IRQC_H
#define IRQSIM_IRQC_H

#include "kstate.h"

/* Arch_checkIRQ (include/arch/arm/arch/object/interrupt.h:57-67 at
 * 1326364bc): true when the IRQ word is above maxIRQ (a negative one is a
 * huge word), which the kernel answers with seL4_RangeError */
bool Arch_checkIRQ(const struct kstate *ks, int irq);
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
