/*
 * irq_slow: the interrupt slowpath of the pinned kernel, handleInterruptEntry
 * with MCS on aarch64 (src/api/syscall.c, src/object/interrupt.c): entry
 * time accounting and budget check, dispatch by IRQ state, schedule() and
 * activateThread().
 */
#ifndef IRQSIM_IRQ_SLOW_H
#define IRQSIM_IRQ_SLOW_H

#include "kstate.h"

void handleInterrupt(struct kstate *ks, int irq);
void handleInterruptEntry(struct kstate *ks);

#endif
