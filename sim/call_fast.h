/*
 * call_fast: master's fastpath_call on aarch64 with MCS
 * (src/fastpath/fastpath.c:19-233 at 1326364bc), the fastpath of every
 * SysCall, checked against slowpath(SysCall), which runs handleSyscall
 * on the state as left (the fastpath writes nothing before its point of
 * no return). Every way out has a name: CALL_SLOW_* fall back, CALL_EXIT
 * is the call made directly (the caller blocked on the receiver's reply
 * object, its SC donated and pushed on the call stack, the receiver
 * switched to).
 *
 * The entry's inputs are ks->sys (kstate.h): the cap the cptr resolves
 * to, the endpoint, its badge and rights, the message info's length and
 * extra caps.
 */
#ifndef IRQSIM_CALL_FAST_H
#define IRQSIM_CALL_FAST_H

#include "kstate.h"

#define CALL_EXIT_LIST(X) \
    X(CALL_SLOW_BUDGET, "slow_budget", "fixed only: the caller's SC cannot pay the time consumed (checkBudget would charge)") \
    X(CALL_SLOW_DOMAIN_EXPIRED, "slow_domain_expired", "fixed only: the current domain's time is up at the entry clock") \
    X(CALL_SLOW_RELEASE, "slow_release", "fixed only: the release queue's head is ready (awaken would release it)") \
    X(CALL_SLOW_OUTRANKED, "slow_outranked", "fixed only: a ready thread outranks the receiver (another core queued it, SMP)") \
    X(CALL_SLOW_MSGINFO, "slow_msginfo", "the message names extra caps or more words than the message registers hold") \
    X(CALL_SLOW_FAULT, "slow_fault", "the caller has a pending fault (tcbFault not null)") \
    X(CALL_SLOW_CAP, "slow_cap", "the cptr names no endpoint cap with the send right") \
    X(CALL_SLOW_NOT_RECV, "slow_not_recv", "no thread waits to receive on the endpoint") \
    X(CALL_SLOW_VTABLE, "slow_vtable", "the receiver's VTable cap is no valid vspace root") \
    X(CALL_SLOW_ASID, "slow_asid", "the receiver's ASID no longer maps its vspace") \
    X(CALL_SLOW_VMID, "slow_vmid", "hypervisor builds: the receiver's stored VMID is invalid") \
    X(CALL_SLOW_PRIO, "slow_prio", "the receiver is below the caller and not the highest ready priority") \
    X(CALL_SLOW_GRANT, "slow_grant", "the endpoint cap has neither grant nor grant-reply") \
    X(CALL_SLOW_DOMAIN, "slow_domain", "the receiver is in another domain") \
    X(CALL_SLOW_ACTIVE, "slow_active", "the receiver has a scheduling context (only passive servers are called directly)") \
    X(CALL_SLOW_NO_REPLY, "slow_no_reply", "the receiver waits without a reply object") \
    X(CALL_SLOW_AFFINITY, "slow_affinity", "SMP: the receiver is on another core") \
    X(CALL_EXIT, "call", "the call made: the receiver takes the caller's SC and runs")

enum call_exit {
#define CALL_EXIT_ENUM(id, name, what) id,
    CALL_EXIT_LIST(CALL_EXIT_ENUM)
#undef CALL_EXIT_ENUM
    CALL_EXIT_COUNT
};

/* exits below this one are the corrected fastpath's own */
#define CALL_FIRST_MERGED_EXIT CALL_SLOW_MSGINFO

/* Which call fastpath: master's as merged, or irqsim's corrected one
 * (numbered as enum fp_variant: as written, then fixed). */
enum call_variant { CALL_MERGED, CALL_FIXED, CALL_VARIANT_COUNT };

/* The corrected fastpath is the merged one plus these independent
 * changes. */
#define CALL_FIX_LIST(X) \
    X(CFIX_ENTRY_TIME, "entry_time", "read the clock at entry (updateTimestamp) before anything else") \
    X(CFIX_ENTRY_BUDGET, "entry_budget", "fall back when the caller's SC cannot pay the time consumed") \
    X(CFIX_ENTRY_DOMAIN, "entry_domain", "fall back when the domain has expired at the entry clock") \
    X(CFIX_ENTRY_RELEASE, "entry_release", "fall back when the release queue's head is ready") \
    X(CFIX_OUTRANKED, "outranked", "fall back when a ready thread outranks the receiver (another core's queueing, its IPI in flight)") \
    X(CFIX_IPI, "reschedule_ipi", "send the reschedule IPIs left pending at user level (doMaskReschedule, as schedule() does)") \
    X(CFIX_REPROGRAM, "reprogram_flag", "honour a pending ksReprogram as schedule() does: commit the time and program the timer")

enum call_fix_bit {
#define CALL_FIX_BIT(id, name, what) id##_BIT,
    CALL_FIX_LIST(CALL_FIX_BIT)
#undef CALL_FIX_BIT
    CFIX_COUNT
};
#define CFIX_ALL ((1u << CFIX_COUNT) - 1)
#define CFIX(id) (1u << id##_BIT)

const char *call_fix_name(int bit);
const char *call_fix_what(int bit);
const char *call_exit_name(int e);
const char *call_exit_what(int e);
bool call_exit_is_fallback(int e);
const char *call_variant_name(int v);
int call_variant_parse(const char *s); /* -1 when unknown */
unsigned call_variant_fixes(int variant);

/* slowpath(SysCall): handleSyscall on the entry's inputs */
void slowpath_call(struct kstate *ks);
/* The SysCall entry with the merged fastpath plus the given fixes; *tested
 * gets the fixes whose setting the run depended on. Returns the exit. */
int fastpath_call_tested(struct kstate *ks, unsigned fixes, unsigned *tested);
/* The same with the fastpath of a variant, and whether the call was
 * performed (false: a fallback's checkBudgetRestart refused it). */
int fastpath_call_performed(struct kstate *ks, int variant, bool *performed);
int fastpath_call(struct kstate *ks, int variant);

#endif
