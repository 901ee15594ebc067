/*
 * irqhandler: the IRQ control and handler invocations (kernel
 * src/object/interrupt.c): IRQControl_Get (the IRQ becomes IRQSignal and
 * is unmasked), IRQHandler_SetNotification and IRQHandler_Ack.
 */
#ifndef IRQSIM_IRQHANDLER_H
#define IRQSIM_IRQHANDLER_H

#include "kstate.h"

/* setIRQState */
void setIRQState(struct kstate *ks, int state, int irq);
/* decodeIRQControlInvocation (IRQIssueIRQHandler) + invokeIRQControl */
int decodeIRQControl_Get(struct kstate *ks, int irq);
/* IRQSetIRQHandler with a sendable notification cap (badge) */
int decodeIRQHandler_SetNotification(struct kstate *ks, int irq, int n, uint64_t badge);
/* IRQAckIRQ */
int decodeIRQHandler_Ack(struct kstate *ks, int irq);

#endif
