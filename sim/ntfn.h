/*
 * ntfn: notifications and what waking a thread through one touches
 * (kernel src/object/notification.c, endpoint.c, reply.h, schedcontext.c):
 * sendSignal, cancelIPC for a thread blocked on an endpoint, a notification
 * or a reply, and scheduling-context donation and resumption. (reply_unlink
 * is in sched, beside the timeout-fault IPC that also needs it.)
 */
#ifndef IRQSIM_NTFN_H
#define IRQSIM_NTFN_H

#include "kstate.h"
#include "tcbqueue.h"

void ntfn_set_active(struct kstate *ks, int n, uint64_t badge);
void sendSignal(struct kstate *ks, int n, uint64_t badge);
void cancelIPC(struct kstate *ks, int t);
void cancelSignal(struct kstate *ks, int t, int n);
void maybeDonateSchedContext(struct kstate *ks, int t, int n);

#endif
