/*
 * endpoint: the send side of endpoints (kernel src/object/endpoint.c):
 * sendIPC, as a fault (handleTimeout) and as seL4_Send and seL4_Call
 * issue it.
 */
#ifndef IRQSIM_ENDPOINT_H
#define IRQSIM_ENDPOINT_H

#include "kstate.h"

void sendIPC(struct kstate *ks, int t, int e);

#endif
