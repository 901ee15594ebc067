/*
 * tcbops: the thread invocations that change scheduling (kernel
 * src/object/tcb.c, src/kernel/thread.c): TCB_SetSchedParams,
 * TCB_SetPriority, TCB_SetTimeoutEndpoint, TCB_Suspend, TCB_Resume and
 * TCB_SetFlags (the FPU flag, master),
 * with setPriority, suspend and restart. Maximum controlled priorities
 * are not modelled (every invoker may set any priority).
 */
#ifndef IRQSIM_TCBOPS_H
#define IRQSIM_TCBOPS_H

#include "kstate.h"

void setPriority(struct kstate *ks, int t, int prio);
void suspend(struct kstate *ks, int t);
void restart(struct kstate *ks, int t);

/* sc KS_NONE: the null cap (unbind the thread's SC) */
int decodeSetSchedParams(struct kstate *ks, int t, int prio, int sc);
int decodeSetPriority(struct kstate *ks, int t, int prio);
/* e: the endpoint of the timeout handler cap (KS_NONE: the null cap) */
int decodeSetTimeoutEndpoint(struct kstate *ks, int t, int e);
int invokeTCB_Suspend(struct kstate *ks, int t);
int invokeTCB_Resume(struct kstate *ks, int t);
/* TCB_SetFlags of thread t: the message's clear and set words (the
 * fpuDisabled bit is the one modelled) and its length */
int decodeSetFlags(struct kstate *ks, int t, unsigned clear, unsigned set, unsigned length);

#endif
