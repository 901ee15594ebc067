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
/* decodeIRQControlInvocation (IRQIssueIRQHandler) + invokeIRQControl */
int decodeIRQControl_Get(struct kstate *ks, int irq);
/* IRQSetIRQHandler with a sendable notification cap (badge) as extra cap
 * 0 when extra_caps > 0 */
int decodeIRQHandler_SetNotification(struct kstate *ks, int irq, int n, uint64_t badge, unsigned extra_caps);
/* IRQClearIRQHandler */
int decodeIRQHandler_Clear(struct kstate *ks, int irq);
/* IRQAckIRQ */
int decodeIRQHandler_Ack(struct kstate *ks, int irq);

#endif
