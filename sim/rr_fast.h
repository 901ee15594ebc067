/*
 * rr_fast: master's fastpath_reply_recv on aarch64 with MCS
 * (src/fastpath/fastpath.c:240-550 at 1326364bc), the fastpath of every
 * SysReplyRecv, checked against slowpath(SysReplyRecv), which runs
 * handleSyscall on the state as left (the fastpath writes nothing before
 * its point of no return). Every way out has a name: RR_SLOW_* fall back,
 * RR_EXIT is the reply made directly (the server blocked receiving with
 * its reply object, the call stack popped, the SC back to the caller, the
 * caller switched to).
 *
 * The entry's inputs are ks->sys (kstate.h): the cap the receive cptr
 * resolves to, the endpoint and its rights, the reply cptr's cap and reply
 * object, the message info's length and extra caps.
 */
#ifndef IRQSIM_RR_FAST_H
#define IRQSIM_RR_FAST_H

#include "kstate.h"

#define RR_EXIT_LIST(X) \
    X(RR_SLOW_BUDGET, "slow_budget", "fixed only: the server's SC cannot pay the time consumed (checkBudget would charge)") \
    X(RR_SLOW_DOMAIN_EXPIRED, "slow_domain_expired", "fixed only: the current domain's time is up at the entry clock") \
    X(RR_SLOW_RELEASE, "slow_release", "fixed only: the release queue's head is ready (awaken would release it)") \
    X(RR_SLOW_MSGINFO, "slow_msginfo", "the message names extra caps or more words than the message registers hold") \
    X(RR_SLOW_FAULT, "slow_fault", "the server has a pending fault (tcbFault not null)") \
    X(RR_SLOW_CAP, "slow_cap", "the receive cptr names no endpoint cap with the receive right") \
    X(RR_SLOW_REPLY_CAP, "slow_reply_cap", "the reply cptr names no reply cap") \
    X(RR_SLOW_BOUND_ACTIVE, "slow_bound_active", "the server's bound notification is active") \
    X(RR_SLOW_SEND_QUEUED, "slow_send_queued", "a sender waits on the endpoint") \
    X(RR_SLOW_CALL_STACK, "slow_call_stack", "the reply has no caller, or does not head the call stack of the server's SC") \
    X(RR_SLOW_CALLER_FAULT, "slow_caller_fault", "the caller has a pending fault (a fault reply)") \
    X(RR_SLOW_VTABLE, "slow_vtable", "the caller's VTable cap is no valid vspace root") \
    X(RR_SLOW_ASID, "slow_asid", "the caller's ASID no longer maps its vspace") \
    X(RR_SLOW_VMID, "slow_vmid", "hypervisor builds: the caller's stored VMID is invalid") \
    X(RR_SLOW_PRIO, "slow_prio", "the caller is not the highest ready priority") \
    X(RR_SLOW_DOMAIN, "slow_domain", "the caller is in another domain") \
    X(RR_SLOW_CALLER_SC, "slow_caller_sc", "the caller has a scheduling context of its own") \
    X(RR_SLOW_AFFINITY, "slow_affinity", "SMP: the caller is on another core") \
    X(RR_EXIT, "reply_recv", "the reply made: the caller takes the SC back and runs, the server waits")

enum rr_exit {
#define RR_EXIT_ENUM(id, name, what) id,
    RR_EXIT_LIST(RR_EXIT_ENUM)
#undef RR_EXIT_ENUM
    RR_EXIT_COUNT
};

/* exits below this one are the corrected fastpath's own */
#define RR_FIRST_MERGED_EXIT RR_SLOW_MSGINFO

/* as enum fp_variant: as written, then fixed */
enum rr_variant { RR_MERGED, RR_FIXED, RR_VARIANT_COUNT };

#define RR_FIX_LIST(X) \
    X(RFIX_ENTRY_TIME, "entry_time", "read the clock at entry (updateTimestamp) before anything else") \
    X(RFIX_ENTRY_BUDGET, "entry_budget", "fall back when the server's SC cannot pay the time consumed") \
    X(RFIX_ENTRY_DOMAIN, "entry_domain", "fall back when the domain has expired at the entry clock") \
    X(RFIX_ENTRY_RELEASE, "entry_release", "fall back when the release queue's head is ready") \
    X(RFIX_IPI, "reschedule_ipi", "send the reschedule IPIs left pending at user level (doMaskReschedule, as schedule() does)") \
    X(RFIX_REPROGRAM, "reprogram_flag", "honour a pending ksReprogram as schedule() does: commit the time and program the timer")

enum rr_fix_bit {
#define RR_FIX_BIT(id, name, what) id##_BIT,
    RR_FIX_LIST(RR_FIX_BIT)
#undef RR_FIX_BIT
    RFIX_COUNT
};
#define RFIX_ALL ((1u << RFIX_COUNT) - 1)
#define RFIX(id) (1u << id##_BIT)

const char *rr_fix_name(int bit);
const char *rr_fix_what(int bit);
const char *rr_exit_name(int e);
const char *rr_exit_what(int e);
bool rr_exit_is_fallback(int e);
const char *rr_variant_name(int v);
int rr_variant_parse(const char *s); /* -1 when unknown */
unsigned rr_variant_fixes(int variant);

/* slowpath(SysReplyRecv): handleSyscall on the entry's inputs */
void slowpath_reply_recv(struct kstate *ks);
int fastpath_reply_recv_tested(struct kstate *ks, unsigned fixes, unsigned *tested);
int fastpath_reply_recv_performed(struct kstate *ks, int variant, bool *performed);
int fastpath_reply_recv(struct kstate *ks, int variant);

#endif
