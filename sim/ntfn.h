/*
 * ntfn: notifications and what waking a thread through one touches
 * (kernel src/object/notification.c, endpoint.c, reply.h, schedcontext.c):
 * sendSignal, cancelIPC for a thread blocked on an endpoint or notification,
 * reply_unlink, and scheduling-context donation and resumption.
 */
#ifndef IRQSIM_NTFN_H
#define IRQSIM_NTFN_H

#include "kstate.h"

/* tcbEPDequeue: unlink t from the queue whose ends are *head and *tail */
void tcbEPDequeue(struct kstate *ks, int t, int8_t *head, int8_t *tail);
void ntfn_set_active(struct kstate *ks, int n, uint64_t badge);
void sendSignal(struct kstate *ks, int n, uint64_t badge);
void cancelIPC(struct kstate *ks, int t);
void cancelSignal(struct kstate *ks, int t, int n);
void reply_unlink(struct kstate *ks, int r, int t);
void schedContext_donate(struct kstate *ks, int sc, int to);
void schedContext_resume(struct kstate *ks, int sc);
void maybeDonateSchedContext(struct kstate *ks, int t, int n);

#endif
