/*
 * endpoint: the send side of endpoints (kernel src/object/endpoint.c):
 * sendIPC, as a fault (handleTimeout), seL4_Send and seL4_Call issue it.
 * Message registers are not modelled: the transfer is the badge register.
 */
#ifndef IRQSIM_ENDPOINT_H
#define IRQSIM_ENDPOINT_H

#include "kstate.h"

/* sendIPC's arguments but the thread and the endpoint: blocking, do_call,
 * badge, canGrant, canGrantReply, canDonate */
struct ipc_send {
    bool blocking, call, grant, grant_reply, donate;
    uint64_t badge;
};

void sendIPC(struct kstate *ks, const struct ipc_send *s, int t, int e);
/* what a thread blocking on a send keeps in its thread state for the
 * receiver (blockingIPCBadge, CanGrant, CanGrantReply, IsCall) */
void ipc_keep_send(struct ks_tcb *tcb, const struct ipc_send *s);

#endif
