/*
 * sig_fast: master's signal fastpath (fastpath_signal in
 * src/fastpath/fastpath.c at 1326364bc, merged from seL4 PR #793; the
 * same function at base 43607edb6 but for the waiter's dequeue helper),
 * the fastpath of every SysSend on a KernelSignalFastpath build. Every way
 * out has a name: SIG_EXIT_* finish by themselves, SIG_SLOW_* fall back to
 * slowpath(SysSend), which runs handleSyscall on the state as left (the
 * fastpath changes nothing before its point of no return).
 *
 * The entry's inputs are ks->sys (kstate.h): the cap the cptr resolves to,
 * the notification and badge, the message info's extra caps.
 */
#ifndef IRQSIM_SIG_FAST_H
#define IRQSIM_SIG_FAST_H

#include "kstate.h"

#define SIG_EXIT_LIST(X) \
    X(SIG_SLOW_BUDGET, "slow_budget", "fixed only: the caller's SC cannot pay the time consumed (checkBudget would charge)") \
    X(SIG_SLOW_RELEASE, "slow_release", "fixed only: the release queue's head is ready (awaken would release it)") \
    X(SIG_SLOW_MSGINFO, "slow_msginfo", "fixed only: the message info names extra caps (lookupExtraCaps may fault)") \
    X(SIG_SLOW_OUTRANKED, "slow_outranked", "fixed only: a ready thread another core queued outranks the caller (SMP)") \
    X(SIG_SLOW_FAULT, "slow_fault", "the caller has a pending fault (tcbFault not null)") \
    X(SIG_SLOW_NOT_NTFN, "slow_not_ntfn", "the cptr does not name a notification cap (lookup failure, null cap)") \
    X(SIG_SLOW_NO_SEND, "slow_no_send", "the notification cap has no send right") \
    X(SIG_SLOW_DOMAIN_EXPIRED, "slow_domain_expired", "the current domain's time is up") \
    X(SIG_EXIT_ACTIVE, "ntfn_active", "active notification: badge ORed in") \
    X(SIG_EXIT_IDLE, "ntfn_idle", "idle notification, no bound TCB blocked on receive: made active") \
    X(SIG_SLOW_NO_SC, "slow_no_sc", "receiver has no SC and none can be donated from the notification") \
    X(SIG_SLOW_FPU, "slow_fpu", "donation to a receiver whose FPU state is live on a core (SMP)") \
    X(SIG_SLOW_PRIO, "slow_prio", "receiver outranks the current thread of its SC's core") \
    X(SIG_SLOW_REFILL, "slow_refill", "receiver's head refill not ready or not sufficient") \
    X(SIG_EXIT_UNSCHEDULABLE, "woken_unschedulable", "receiver woken, its SC is not configured") \
    X(SIG_EXIT_ENQUEUE, "enqueue", "receiver below the caller, or in another domain or on another core: enqueued") \
    X(SIG_EXIT_APPEND, "append", "receiver at the caller's priority, same domain and core: appended")

enum sig_exit {
#define SIG_EXIT_ENUM(id, name, what) id,
    SIG_EXIT_LIST(SIG_EXIT_ENUM)
#undef SIG_EXIT_ENUM
    SIG_EXIT_COUNT
};

/* exits below this one are the corrected fastpath's own */
#define SIG_FIRST_MERGED_EXIT SIG_SLOW_FAULT

/* Which signal fastpath: master's as merged, or irqsim's corrected one
 * (numbered as enum fp_variant: as written, then fixed). */
enum sig_variant { SIG_MERGED, SIG_FIXED, SIG_VARIANT_COUNT };

/* The corrected fastpath is the merged one plus these independent
 * changes (docs/FINDINGS-signal.md explains each). */
#define SIG_FIX_LIST(X) \
    X(SFIX_ENTRY_TIME, "entry_time", "read the clock at entry (updateTimestamp) before anything else") \
    X(SFIX_ENTRY_BUDGET, "entry_budget", "fall back when the caller's SC cannot pay the time consumed") \
    X(SFIX_ENTRY_DOMAIN, "entry_domain", "ask whether the domain has expired at the entry clock, not at the last entry's") \
    X(SFIX_ENTRY_RELEASE, "entry_release", "fall back when the release queue's head is ready") \
    X(SFIX_REPROGRAM, "reprogram_flag", "leave no ksReprogram request behind: commit the time and program the timer") \
    X(SFIX_MSG_INFO, "msg_info", "fall back when the message info names extra caps (as fastpath_call's extraCaps check)") \
    X(SFIX_IPI, "reschedule_ipi", "send the reschedule IPIs SCHED_ENQUEUE/APPEND left pending (doMaskReschedule, as schedule() does)") \
    X(SFIX_OUTRANKED, "outranked", "fall back when a ready thread outranks the caller (another core's queueing, its IPI in flight)") \
    X(SFIX_RESWITCH, "reswitch", "on the append and enqueue exits of a receiver of this core and domain switch to the caller again, as schedule() does (Arch_switchToThread: its VCPU, its vspace)")

enum sig_fix_bit {
#define SIG_FIX_BIT(id, name, what) id##_BIT,
    SIG_FIX_LIST(SIG_FIX_BIT)
#undef SIG_FIX_BIT
    SFIX_COUNT
};

#define SFIX_ALL ((1u << SFIX_COUNT) - 1)
#define SFIX(id) (1u << id##_BIT)

const char *sig_fix_name(int bit);
const char *sig_fix_what(int bit);
const char *sig_exit_name(int e);
const char *sig_exit_what(int e);
bool sig_exit_is_fallback(int e);
const char *sig_variant_name(int v);
int sig_variant_parse(const char *s); /* -1 when unknown */
/* The fix set of a variant: none for merged, all for fixed. */
unsigned sig_variant_fixes(int variant);

/* The SysSend entry with the merged fastpath plus the given fixes; *tested
 * gets the fixes whose setting the run depended on. */
int fastpath_signal_tested(struct kstate *ks, unsigned fixes, unsigned *tested);
/* The same with the fastpath of a variant; returns the exit taken (a
 * fallback has also run the slowpath). */
int fastpath_signal(struct kstate *ks, int variant);
/* The same, and whether the call was performed: true when the fastpath
 * finished it, else what handleSyscall returned (false: checkBudgetRestart
 * refused it and the caller makes it again), as the workload simulator
 * needs to move the caller on. */
int fastpath_signal_performed(struct kstate *ks, int variant, bool *performed);
/* slowpath(SysSend) from the entry state: handleSyscall on ks->sys. */
void slowpath_signal(struct kstate *ks);

#endif
