/*
 * reply: reply objects and the MCS call stack (kernel
 * include/object/reply.h, src/object/reply.c): a reply links a caller
 * blocked on it (replyTCB); the replies of one scheduling context's calls
 * form a stack (replyPrev, replyNext, scReply) along which the SC was
 * donated and goes back.
 */
#ifndef IRQSIM_REPLY_H
#define IRQSIM_REPLY_H

#include "kstate.h"

/* The states in which the kernel reads a thread's replyObject: blocked
 * receiving or on a reply (master reply_unlink asserts one,
 * include/object/reply.h:14-27). */
bool reply_ref_state(int ts);
/* The reply rule: whether a thread in state ts holds a reply reference
 * that means something (one the kernel unlinks, the reply names back):
 * in those states; in any state on a kernel that clears the reference
 * when it stops meaning anything (base reply.h:20, reply.c:26), not on one
 * that leaves it stale (KF_STALE_REPLY_REF, 4f4721706). */
bool reply_ref_live(const struct ks_config *c, int ts);
void reply_unlink(struct kstate *ks, int r, int t);
/* The call stack's push and pop as reply_push, reply_pop and the IPC
 * fastpaths write them (reply.c:43-48, 63-70; fastpath.c:190-198,
 * 497-506): reply r heads sc's stack above the old head; the head r
 * leaves it, the reply below (if any) heading it, r's links cleared. */
void call_stack_push(struct kstate *ks, int r, int sc);
void call_stack_pop(struct kstate *ks, int r);
/* reply_push (can_donate: canDonate) */
void reply_push(struct kstate *ks, int caller, int callee, int r, bool can_donate);
/* reply_remove: the caller t blocked on reply r stops waiting on it */
void reply_remove(struct kstate *ks, int r, int t);
void reply_remove_tcb(struct kstate *ks, int t);

#endif
