/* irqhandler: model of the IRQ control and handler invocations. */
#include "irqhandler.h"

#include "irqc.h"
#include "schedcontext.h"
#include "sched.h"

/* setIRQState (one core: no remote PPI masking) */
void setIRQState(struct kstate *ks, int state, int irq)
{
    ks_irq_touch(ks, irq);
    ks->irq_state[irq] = (uint8_t)state;
    maskInterrupt(ks, state == IRQ_Inactive, irq);
}

/* decodeIRQControlInvocation: an IRQ above maxIRQ is a range error, one
 * already in use is refused (seL4_RevokeFirst, here an illegal operation) */
int decodeIRQControl_Get(struct kstate *ks, int irq)
{
    if (irq < 0 || irq > (int)ks->cfg.max_irq || irq >= KS_MAX_IRQS)
        return SYSERR_RANGE;
    if (irq_state_of(ks, irq) != IRQ_Inactive)
        return SYSERR_ILLEGAL_OPERATION;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    setIRQState(ks, IRQ_Signal, irq); /* invokeIRQControl */
    return SYSERR_NONE;
}

/* IRQSetIRQHandler + invokeIRQHandler_SetIRQHandler */
int decodeIRQHandler_SetNotification(struct kstate *ks, int irq, int n, uint64_t badge)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    ks_irq_touch(ks, irq);
    struct ks_irq_cap *cap = &ks->irq_cap[irq];
    cap->type = CAP_Notification;
    cap->can_send = true;
    cap->ntfn = (int8_t)n;
    cap->badge = badge;
    return SYSERR_NONE;
}

/* IRQAckIRQ + invokeIRQHandler_AckIRQ: master on GICv3 deactivates the
 * IRQ its handleInterrupt left active and leaves the mask alone
 * (interrupt.c:159-163); GICv2 and 43607edb6 unmask */
int decodeIRQHandler_Ack(struct kstate *ks, int irq)
{
    setThreadState(ks, ks->cur_thread, TS_Restart);
    if (cfg_split_eoi(&ks->cfg))
        deactivateInterrupt(ks, irq);
    else
        maskInterrupt(ks, false, irq);
    return SYSERR_NONE;
}
