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

#endif
