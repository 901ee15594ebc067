/*
 * irqhandler: the IRQ control and handler invocations (kernel
 * src/object/interrupt.c, src/arch/arm/object/interrupt.c): IRQControl_Get,
 * _GetTrigger and _GetTriggerCore (the IRQ becomes IRQSignal and is
 * unmasked; the latter two set its trigger, the last an SPI's core),
 * IRQHandler_SetNotification, IRQHandler_Ack and IRQHandler_Clear.
 */
#ifndef IRQSIM_IRQHANDLER_H
#define IRQSIM_IRQHANDLER_H

#include "kstate.h"

/* setIRQState */
void setIRQState(struct kstate *ks, int state, int irq);
/* an IRQ control invocation: its label (enum ks_irq_method), a message
 * of length words with extra_caps extra caps (its CNode cap first) asking
 * for IRQ irq into the destination slot dest (enum ks_irq_dest); the
 * trigger (edge) of _GetTrigger and _GetTriggerCore, the target core of
 * _GetTriggerCore */
struct irqc_get {
    int method, irq, dest;
    unsigned length, extra_caps;
    bool edge;
    int core;
};
/* decodeIRQControlInvocation and Arch_decodeIRQControlInvocation (ARM:
 * GetTrigger, GetTriggerCore), then invokeIRQControl */
int decodeIRQControlInvocation(struct kstate *ks, const struct irqc_get *a);
/* IRQSetIRQHandler with a sendable notification cap (badge) as extra cap
 * 0 when extra_caps > 0 */
int decodeIRQHandler_SetNotification(struct kstate *ks, int irq, int n, uint64_t badge, unsigned extra_caps);
/* IRQClearIRQHandler */
int decodeIRQHandler_Clear(struct kstate *ks, int irq);
/* IRQAckIRQ of IRQ irq of core `core` (0 but for another core's PPI) */
int decodeIRQHandler_Ack(struct kstate *ks, int irq, int core);

#endif
