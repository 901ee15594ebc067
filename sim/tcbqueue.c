/* tcbqueue: model of the kernel's IPC queues of threads. */
#include "tcbqueue.h"

#include "cost_hooks.h"

/* tcbEPAppend: start at the tail (FIFO is the common case) and step over
 * lower-priority threads */
void tcbEPAppend(struct kstate *ks, int t, int8_t *head, int8_t *tail)
{
    int before = *tail, after = KS_NONE;
    while (before != KS_NONE && ks->tcbs[t].prio > ks->tcbs[before].prio) {
        after = before;
        before = ks->tcbs[after].ep_prev;
    }
    if (before == KS_NONE)
        *head = (int8_t)t;
    else
        ks->tcbs[before].ep_next = (int8_t)t;
    if (after == KS_NONE)
        *tail = (int8_t)t;
    else
        ks->tcbs[after].ep_prev = (int8_t)t;
    ks->tcbs[t].ep_next = (int8_t)after;
    ks->tcbs[t].ep_prev = (int8_t)before;
}

/* tcbEPDequeue (the TCB's own links are left as they were, as in C) */
void tcbEPDequeue(struct kstate *ks, int t, int8_t *head, int8_t *tail)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    COST(ks, 2, 2, 2); /* tcbEPPrev, tcbEPNext; prev's next or head, next's prev or end */
    if (tcb->ep_prev != KS_NONE)
        ks->tcbs[tcb->ep_prev].ep_next = tcb->ep_next;
    else
        *head = tcb->ep_next;
    if (tcb->ep_next != KS_NONE)
        ks->tcbs[tcb->ep_next].ep_prev = tcb->ep_prev;
    else
        *tail = tcb->ep_prev;
}
