/*
 * schedcontext: the scheduling-context invocations (kernel
 * src/object/schedcontrol.c and src/object/schedcontext.c):
 * SchedControl_ConfigureFlags, SchedContext_Bind, _Unbind and
 * _UnbindObject, each as its decode (the checks that make the kernel
 * refuse it, returning a syscall error and changing nothing) and its
 * invoke, with the binding helpers they share. On SMP they stall a core
 * running an affected thread (remoteTCBStall) and move a thread to its
 * SC's core (migrateTCB), as the kernel does (sim/smp.h).
 */
#ifndef IRQSIM_SCHEDCONTEXT_H
#define IRQSIM_SCHEDCONTEXT_H

#include "kstate.h"

/* seL4 syscall errors the model's decodes return */
enum ks_syserr { SYSERR_NONE, SYSERR_ILLEGAL_OPERATION, SYSERR_RANGE, SYSERR_INVALID_CAP, SYSERR_INVALID_ARGUMENT,
                 SYSERR_COUNT };
const char *ks_syserr_name(int e);

#define SC_FLAG_SPORADIC 1u /* seL4_SchedContext_Sporadic */

void schedContext_donate(struct kstate *ks, int sc, int to);
void schedContext_resume(struct kstate *ks, int sc);
void schedContext_bindTCB(struct kstate *ks, int sc, int t);
void schedContext_unbindTCB(struct kstate *ks, int sc, int t);
void schedContext_unbindAllTCBs(struct kstate *ks, int sc);
void schedContext_bindNtfn(struct kstate *ks, int sc, int n);
void schedContext_unbindNtfn(struct kstate *ks, int sc);

/* budget and period in ticks (the kernel converts from microseconds); core
 * is the SchedControl cap's (capSchedControlCore: 0 without SMP) */
/* bind sc to thread t or notification n (the other KS_NONE) */
int decodeSchedContext_Bind(struct kstate *ks, int sc, int t, int n);
int decodeSchedContext_UnbindObject(struct kstate *ks, int sc, int t, int n);
int decodeSchedContext_Unbind(struct kstate *ks, int sc);

#endif
