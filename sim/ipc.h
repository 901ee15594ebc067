/*
 * ipc: the receive side of notifications and endpoints, as a thread's
 * seL4_Wait / seL4_Recv reaches it (kernel src/object/notification.c and
 * src/object/endpoint.c): receiveSignal, completeSignal,
 * maybeReturnSchedContext, receiveIPC with a reply object, and the
 * priority reordering of a blocked thread's queue (reorderEP,
 * reorderNTFN). No message registers beyond the badge are modelled.
 */
#ifndef IRQSIM_IPC_H
#define IRQSIM_IPC_H

#include "kstate.h"

void maybeReturnSchedContext(struct kstate *ks, int n, int t);
void completeSignal(struct kstate *ks, int n, int t);
void receiveSignal(struct kstate *ks, int t, int n, bool is_blocking);
/* r: the reply object of the call (KS_NONE: none) */
void receiveIPC(struct kstate *ks, int t, int e, int r, bool is_blocking);
/* doReplyTransfer: sender replies through reply object r */
void doReplyTransfer(struct kstate *ks, int sender, int r);
void reorderEP(struct kstate *ks, int e, int t);
void reorderNTFN(struct kstate *ks, int n, int t);

#endif
