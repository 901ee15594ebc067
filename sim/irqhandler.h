/*
 * irqhandler: the IRQ control and handler invocations (kernel
 * src/object/interrupt.c): IRQControl_Get (the IRQ becomes IRQSignal and
 * is unmasked), IRQHandler_SetNotification, IRQHandler_Ack and
 * IRQHandler_Clear.
 */
#ifndef IRQSIM_IRQHANDLER_H
#define IRQSIM_IRQHANDLER_H

#include "kstate.h"

/* setIRQState */
void setIRQState(struct kstate *ks, int state, int irq);
/* decodeIRQControlInvocation (IRQIssueIRQHandler) + invokeIRQControl: a
 * message of length words with extra_caps extra caps (its CNode cap
 * first), the destination slot dest (enum ks_irq_dest) */
int decodeIRQControl_Get(struct kstate *ks, int irq, unsigned length, unsigned extra_caps, int dest);
/* IRQSetIRQHandler with a sendable notification cap (badge) as extra cap
 * 0 when extra_caps > 0 */
int decodeIRQHandler_SetNotification(struct kstate *ks, int irq, int n, uint64_t badge, unsigned extra_caps);
/* IRQClearIRQHandler */
int decodeIRQHandler_Clear(struct kstate *ks, int irq);
/* IRQAckIRQ of IRQ irq of core `core` (0 but for another core's PPI) */
int decodeIRQHandler_Ack(struct kstate *ks, int irq, int core);

#endif
