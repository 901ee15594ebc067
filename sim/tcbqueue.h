/*
 * tcbqueue: the priority-ordered queues of threads blocked on an endpoint
 * or a notification (kernel tcb_queue_t, src/object/tcb.c and
 * include/object/tcb.h): appending in priority order and dequeuing. A
 * queue is its head and tail indices; the threads carry the links. Below
 * sched in the include graph, so the scheduler's timeout-fault IPC can
 * queue a thread without an include circle.
 */
#ifndef IRQSIM_TCBQUEUE_H
#define IRQSIM_TCBQUEUE_H

#include "kstate.h"

/* tcbEPAppend (MCS): after the last thread of at least t's priority */
void tcbEPAppend(struct kstate *ks, int t, int8_t *head, int8_t *tail);
/* tcbEPDequeue: unlink t from the queue whose ends are *head and *tail */
void tcbEPDequeue(struct kstate *ks, int t, int8_t *head, int8_t *tail);

#endif
