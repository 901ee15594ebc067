/* defect: the review texts of F1-F9 and the map from a cause to them. */
#include "defect.h"

#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "irq_fast.h"
#include "sig_fast.h"

#define ENTRY_CHECKS (FIX(FIX_ENTRY_BUDGET) | FIX(FIX_ENTRY_DOMAIN) | FIX(FIX_ENTRY_RELEASE))

/* Wording from docs/FINDINGS.md ("The defects"); change both together. */
static const struct defect_info defects[DEF_COUNT] = {
    {"F1", "The budget check at entry is skipped", FIX(FIX_ENTRY_BUDGET), 0, "entry_time+entry_budget",
     "The current thread (not the idle thread) has less than MIN_BUDGET (2 x the kernel WCET) left in its head "
     "refill at the entry clock: refill_sufficient(ksCurSC, ksConsumed) fails after updateTimestamp.",
     "checkBudget -> chargeBudget: the budget is charged, the timeslice ends (a round-robin thread is appended to "
     "its ready queue, a periodic one postponed into the release queue, a thread with a timeout handler takes a "
     "timeout fault), rescheduleRequired, and schedule() picks the next thread and reprograms the timer.",
     "On every exit that finishes by itself except switch, none of that happens: the thread keeps running. On "
     "switch it calls checkBudget, which charges and ends the timeslice and sets ChooseNewThread and ksReprogram, "
     "and then switches directly anyway, leaving both set at user level.",
     "A thread overruns into the MIN_BUDGET reserve the kernel keeps for its own WCET (a budget overrun of up to "
     "one WCET per event); a round-robin peer or a released thread runs late, a timeout fault is delivered late. "
     "On switch the kernel returns to user level with ksSchedulerAction = ChooseNewThread and ksReprogram set, "
     "which every later kernel path assumes cannot happen.", false, NULL},
    {"F2", "Domain expiry is ignored", FIX(FIX_ENTRY_DOMAIN), 0, "entry_time+entry_domain",
     "More than one domain, and the current domain's time is up at the entry clock (updateTimestamp sets "
     "ksDomainTime to 0 when the time consumed plus MIN_BUDGET reaches it).",
     "checkBudget returns false without charging; schedule() -> checkDomainTime -> rescheduleRequired; nextDomain "
     "switches domain and the highest thread of the new domain (or idle) runs.",
     "Non-switch exits: the old domain keeps running. switch: checkBudget returns false for the domain, so "
     "commitTime is skipped, and ksCurSC becomes the new thread's SC with the old thread's ksConsumed still "
     "pending: the interrupted thread's time is later charged to the handler's SC, which runs in a domain whose "
     "time has expired.",
     "Temporal isolation between domains is broken for up to MIN_BUDGET; on switch, budget accounting is wrong "
     "for two SCs.", false, NULL},
    {"F3", "Released threads are not woken", FIX(FIX_ENTRY_RELEASE), 0, "entry_time+entry_release",
     "The head of the release queue is ready at the entry clock.",
     "schedule() -> awaken() moves it to the ready queue (possibleSwitchTo), possibly switching to it.",
     "Leaves it in the release queue; switch may run the handler although a released thread of higher priority "
     "is ready.",
     "A released thread runs one kernel entry late (a short priority inversion); nothing is lost.", false, NULL},
    {"F4", "The sporadic unblock check uses a stale clock", FIX(FIX_ENTRY_TIME), ENTRY_CHECKS, "entry_time",
     "The woken thread's SC is sporadic and its head refill is ready.",
     "refill_unblock_check stamps the head refill with now (the entry clock) and merges refills that overlap it.",
     "Runs the same check before reading the clock, so the head is stamped with the time of the previous kernel "
     "entry, and merging is decided on that earlier time.",
     "The sporadic server's replenishment is scheduled earlier than the slowpath would, by the time since the "
     "last kernel entry: over a window of one period the thread can get more than its budget, which weakens the "
     "guarantee the sporadic flag exists for.", false, NULL},
    {"F5", "The idle thread is not switched away from", FIX(FIX_IDLE_SWITCH), 0, "idle_switch",
     "The idle thread runs and the woken thread has priority 0 (the idle thread's priority).",
     "schedule() treats the idle thread as never runnable and switches to any schedulable candidate.",
     "Compares priorities only (0 >= 0: no switch), appends the woken thread to its ready queue and returns to "
     "the idle thread.",
     "A lost wake-up: the woken thread waits until the next kernel entry (the idle thread's next timer: up to its "
     "timeslice, the domain end or the next release).", false, NULL},
    {"F6", "The timer is not reprogrammed on a direct switch", FIX(FIX_DEADLINE), 0, "deadline",
     "Any direct switch after which the new thread's next event is not earlier than the old thread's (the "
     "sel4bench irquser situation itself).",
     "switchSchedContext sets ksReprogram; setNextInterrupt programs the timer for the new thread.",
     "Computes the next event before and after the switch and reprograms only if it moved earlier, so the "
     "deadline programmed for the interrupted thread stays.",
     "The timer fires early while the handler runs: one extra, useless timer interrupt (a kernel entry and a "
     "reprogram) per switch in which the handler outlives the old deadline. The deadline is never late, so "
     "budgets are still enforced, but it costs cycles in exactly the case the fastpath optimises.", false, NULL},
    {"F7", "The constant-bandwidth unblock check is skipped on a switch", FIX(FIX_CB_UNBLOCK), 0, "cb_unblock",
     "A direct switch to a thread whose SC is periodic and not sporadic (constant bandwidth), with a ready head "
     "refill.",
     "switchSchedContext runs refill_unblock_check on the new SC for constant-bandwidth SCs: the head refill is "
     "stamped with now and overlapping refills merged.",
     "Sets ksCurSC directly and skips it.",
     "As F4: the refill keeps an earlier start time, so its replenishment comes back earlier than configured "
     "(more bandwidth than the SC's budget/period over a window).", false, NULL},
    {"F8", "ksReprogram is left set", FIX(FIX_REPROGRAM), 0, "reprogram_flag",
     "The woken thread's SC is sporadic and ready, so its unblock check sets ksReprogram.",
     "schedule() commits time, reprograms the timer, clears the flag.",
     "Returns to user level with the flag set.",
     "Mostly benign: the next schedule() does the deferred commit and reprogram. It is still a state the kernel "
     "never otherwise leaves at user level.", false, NULL},
    {"F9", "The IRQ is masked for good on master's GICv3", FIX(FIX_SPLIT_EOI), 0, "split_eoi",
     "The master kernel (1326364bc) on a GICv3 board (imx8mm, imx8mq, tqma, qemu-arm-virt with GICv3): a signal "
     "IRQ the fastpath handles itself, rebased onto master.",
     "handleInterrupt leaves the IRQ unmasked and active (split EOI, a4b0c8d36: the EOI write only drops the "
     "priority); the handler's IRQHandler_Ack deactivates it.",
     "maskInterrupt(true, irq) on every exit, as on base; the ack leaves it active.",
     "On master the handler's IRQHandler_Ack only deactivates (interrupt.c:159-163) and nothing else unmasks a "
     "signal IRQ: after the first interrupt the fastpath handles, the device's interrupts never arrive again.",
     KF_SPLIT_EOI, NULL},
};

#define SIG_ENTRY_CHECKS (SFIX(SFIX_ENTRY_BUDGET) | SFIX(SFIX_ENTRY_RELEASE))

/* Master's signal fastpath (fastpath_signal); wording from
 * docs/FINDINGS-signal.md, change both together. */
enum { SDEF_S1, SDEF_S2, SDEF_S3, SDEF_S4, SDEF_S5, SDEF_S6, SDEF_S9, SDEF_COUNT };
_Static_assert(DEF_COUNT <= DEFECT_MAX && SDEF_COUNT <= DEFECT_MAX, "DEFECT_MAX (defect.h)");
static const struct defect_info sig_defects[SDEF_COUNT] = {
    {"S1", "No budget check at entry", SFIX(SFIX_ENTRY_BUDGET), 0, "entry_time+entry_budget",
     "The caller's head refill cannot pay the time consumed since the last commit at the entry clock "
     "(refill_sufficient(ksCurSC, ksConsumed) fails after updateTimestamp).",
     "handleSyscall's checkBudgetRestart: chargeBudget ends the caller's timeslice (appended, postponed, or a "
     "timeout fault), the caller is left in Restart and the seL4_Send is not performed; schedule() picks the next "
     "thread.",
     "Signals, wakes and queues the receiver on the caller's overrun budget and returns to the caller.",
     "The caller overruns into the MIN_BUDGET reserve (up to one kernel WCET) and its signal takes effect before "
     "its next replenishment.", false,
     "Design trade-off, not a bug: fastpath_call and fastpath_reply_recv skip updateTimestamp/checkBudget the "
     "same way; the timer interrupt that is already due catches the overrun."},
    {"S2", "Domain expiry judged on a stale clock", SFIX(SFIX_ENTRY_DOMAIN), 0, "entry_domain",
     "More than one domain; the domain's time is not 0 at the last kernel exit but is at the entry clock "
     "(updateTimestamp sets ksDomainTime to 0 when the time since plus MIN_BUDGET reaches it).",
     "checkBudgetRestart returns false for the expired domain: the caller restarts, nothing is signalled; "
     "schedule() switches domain.",
     "isCurDomainExpired() reads ksDomainTime without updateTimestamp, passes, and the signal is delivered and "
     "the caller resumed in a domain whose time is up.",
     "Up to MIN_BUDGET of work past the domain's end: a temporal-isolation leak of the same size as S1's. The "
     "guard as written never fires on a reachable state.", false,
     "The shared lazy accounting (a trade-off): the IPC fastpaths have no domain guard at all. But a guard that "
     "is there to catch expiry could test it on the entry clock: the fix entry_domain asks whether the domain "
     "has expired as updateTimestamp would leave it."},
    {"S3", "Released threads are not woken", SFIX(SFIX_ENTRY_RELEASE), 0, "entry_time+entry_release",
     "The head of the release queue is ready at the entry clock.",
     "schedule() -> awaken() moves it to its ready queue, where it may outrank or sit ahead of the receiver.",
     "Leaves it in the release queue until the next kernel entry.",
     "A released thread runs one kernel entry late; its timer interrupt is due and catches it.", false,
     "Shared with the IPC fastpaths: a design trade-off."},
    {"S4", "The sporadic unblock check uses a stale clock", SFIX(SFIX_ENTRY_TIME), SIG_ENTRY_CHECKS, "entry_time",
     "The woken receiver's SC is sporadic and its head refill is ready.",
     "refill_unblock_check stamps the head refill with the entry clock and merges refills that overlap it.",
     "Runs the same check on ksCurTime of the previous kernel entry.",
     "The receiver's replenishment comes back earlier than the slowpath would give it, by the time since the "
     "last entry: more than its budget in a window of one period, which weakens what the sporadic flag is for.",
     false,
     "Not shared: the IPC fastpaths run no unblock check. (Classes with entry_time alone and the single field "
     "current_time, all on two cores, are the unread clock itself, which every fastpath that does not read the "
     "clock shares.)"},
    {"S5", "ksReprogram is left set", SFIX(SFIX_REPROGRAM), 0, "reprogram_flag",
     "S4's receiver: its SC is sporadic and ready, so its unblock check sets ksReprogram.",
     "schedule() commits the caller's time, programs the timer and clears the flag.",
     "Returns to user level with the flag set and the time uncommitted.",
     "Mostly benign: the next schedule() does the deferred commit and reprogram. Still a state the kernel "
     "otherwise never leaves at user level (the invariant `user` flags it).", false,
     "Goes beyond the lazy accounting the MCS IPC fastpaths share, as they run no unblock check."},
    {"S6", "The message info is ignored", SFIX(SFIX_MSG_INFO), 0, "msg_info",
     "seL4_Send(ntfn, info) with extraCaps 1-3 and an IPC buffer in which an extra cap's cptr does not resolve "
     "(seL4_Signal always sends message info 0 and cannot show it).",
     "handleInvocation's lookupExtraCaps fails: handleFault faults the caller (with no fault handler it becomes "
     "Inactive) and nothing is signalled.",
     "Never reads msgInfo: it signals, wakes the receiver, and the caller keeps running.",
     "A difference of user-visible semantics, not of accounting: the same seL4_Send faults on a kernel without "
     "the signal fastpath and succeeds on one with it (with a fault handler, the handler sees a cap fault on one "
     "and nothing on the other).", false,
     "Not a trade-off: fastpath_call checks extraCaps == 0 (fastpath_mi_check); the same check (fall back when "
     "extraCaps != 0) is the fix."},
    {"S9", "The reschedule IPI is left unsent (SMP)", SFIX(SFIX_IPI), 0, "reschedule_ipi",
     "Two cores; the receiver's SC is on the other core and the receiver does not outrank that core's current "
     "thread (so no slow_prio), but remoteQueueUpdate still asks for an IPI: that core runs its idle thread and "
     "the receiver has priority 0, or that core's ksReprogram is set.",
     "SCHED_ENQUEUE marks ipiReschedulePending; schedule() sends the IPI (doMaskReschedule) and the other core "
     "reschedules at once.",
     "SCHED_ENQUEUE marks it and restore_user_context returns without schedule(): the IPI waits until this "
     "core's next schedule().",
     "The other core keeps running its idle thread (or keeps a timer deadline it was asked to reprogram) while "
     "the receiver is ready on it, until this core next enters the kernel: a delay bounded only by this core's "
     "next kernel entry.", false,
     "Not shared: fastpath_call falls back on a destination on another core."},
};

int defect_count_t(int target)
{
    return target == ENTRY_SIGNAL ? SDEF_COUNT : DEF_COUNT;
}

static const struct defect_info *table_of(int target)
{
    return target == ENTRY_SIGNAL ? sig_defects : defects;
}

const struct defect_info *defect_info_t(int target, int d)
{
    return d >= 0 && d < defect_count_t(target) ? &table_of(target)[d] : NULL;
}

const struct defect_info *defect_info(int d)
{
    return defect_info_t(ENTRY_IRQ, d);
}

bool defect_possible_t(int target, int d, int kernel)
{
    return cfg_kernel_has(kernel, table_of(target)[d].needs);
}

int defects_possible_t(int target, int kernel)
{
    int n = 0;
    for (int d = 0; d < defect_count_t(target); d++)
        n += defect_possible_t(target, d, kernel);
    return n;
}

unsigned cause_defects_t(int target, unsigned cause)
{
    if (cause == CLASS_NO_FIX)
        return 0;
    const struct defect_info *t = table_of(target);
    unsigned mask = 0;
    for (int d = 0; d < defect_count_t(target); d++)
        if ((cause & t[d].need) == t[d].need && !(cause & t[d].unless))
            mask |= 1u << d;
    return mask;
}

unsigned cause_defects(unsigned cause)
{
    return cause_defects_t(ENTRY_IRQ, cause);
}

static const char *defect_id(int d)
{
    return defects[d].id;
}

static const char *sig_defect_id(int d)
{
    return sig_defects[d].id;
}

const char *defects_text_t(int target, unsigned mask, char *buf, size_t len)
{
    if (target == ENTRY_SIGNAL)
        return ks_bits_text(mask, SDEF_COUNT, sig_defect_id, buf, len);
    return ks_bits_text(mask, DEF_COUNT, defect_id, buf, len);
}

const char *defects_text(unsigned mask, char *buf, size_t len)
{
    return defects_text_t(ENTRY_IRQ, mask, buf, len);
}
