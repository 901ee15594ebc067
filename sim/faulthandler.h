/*
 * faulthandler: the MCS fault delivery (kernel src/kernel/faulthandler.c):
 * handleFault, sendFaultIPC and handleNoFaultHandler. A thread's fault
 * handler cap is its fault_ep (a null cap when KS_NONE), the timeout
 * handler's its timeout_ep (sim/budget.c); both are modelled as an
 * endpoint cap with badge 0 and the grant right (validFaultHandler asks
 * for grant or grant-reply), the cap the real-kernel bridge gives.
 */
#ifndef IRQSIM_FAULTHANDLER_H
#define IRQSIM_FAULTHANDLER_H

#include "kstate.h"

/* The fault being delivered (current_fault): its type, for a
 * VGICMaintenance fault its list register (KS_NONE: idxValid 0), for a cap
 * fault the lookup fault with it (current_lookup_fault). */
struct ks_fault_msg {
    uint8_t type;   /* enum ks_fault */
    int8_t lr;
    uint8_t lookup; /* enum ks_lookup_fault */
};

/* sendFaultIPC: false (nothing done) when the handler cap is null, ep KS_NONE */
bool sendFaultIPC(struct kstate *ks, int t, struct ks_fault_msg f, int ep, bool can_donate);
/* handleNoFaultHandler: the thread becomes Inactive */
void handleNoFaultHandler(struct kstate *ks, int t);
/* handleFault: to the thread's fault handler, donating its SC if it has one */
void handleFault(struct kstate *ks, int t, struct ks_fault_msg f);

#endif
