/*
 * target_signal: master's fastpath_signal (PR #793, KernelSignalFastpath)
 * against slowpath(SysSend): its exits and fixes (sim/sig_fast.h), the
 * order classify drops the fixes in, its defects (S1-S6, S9-S11:
 * defect_ids lists them)
 * (docs/FINDINGS-signal.md) and what the reports call it; its entry (the
 * scenario line, the generator's draw) is in target_signal_entry.c.
 */
#include "target_signal.h"

#include <string.h>

#include "classify.h"
#include "config.h"
#include "defect.h"
#include "exhaust.h"
#include "gen.h"
#include "invariant.h"
#include "irq_fast.h"
#include "sig_fast.h"

_Static_assert(SFIX_ALL < CLASS_NO_FIX, "CLASS_NO_FIX (classify.h) must not be a fix set");

_Static_assert((int)FP_PR1227 == (int)SIG_MERGED && (int)FP_FIXED == (int)SIG_FIXED, "variant numbers are shared by the targets");
_Static_assert(SIG_EXIT_COUNT <= TARGET_MAX_EXITS, "TARGET_MAX_EXITS");

/* entry_time goes before entry_domain: with the clock read, the merged
 * domain guard already sees the expiry, so a domain-expiry divergence would
 * otherwise be charged to entry_time (the stale-clock defect) */
static const int sig_order[SFIX_COUNT] = {
    SFIX_OUTRANKED_BIT, /* a fallback on states only SMP reaches */
    SFIX_MSG_INFO_BIT,   SFIX_ENTRY_RELEASE_BIT, SFIX_ENTRY_TIME_BIT,
    SFIX_ENTRY_DOMAIN_BIT, SFIX_ENTRY_BUDGET_BIT, SFIX_REPROGRAM_BIT, SFIX_IPI_BIT,
    SFIX_RESWITCH_BIT, /* a state repair on the append and enqueue exits only */
};

#define SIG_ENTRY_CHECKS (SFIX(SFIX_ENTRY_BUDGET) | SFIX(SFIX_ENTRY_RELEASE))

/* Master's signal fastpath (fastpath_signal); wording from
 * docs/FINDINGS-signal.md, change both together. */
enum { SDEF_S1, SDEF_S2, SDEF_S3, SDEF_S4, SDEF_S5, SDEF_S6, SDEF_S9, SDEF_S10, SDEF_S11, SDEF_COUNT };
_Static_assert(SDEF_COUNT <= DEFECT_MAX, "DEFECT_MAX (defect.h)");
static const struct defect_info sig_defects[SDEF_COUNT] = {
    {"S1", "No budget check at entry", SFIX(SFIX_ENTRY_BUDGET), 0, "entry_time+entry_budget",
     "The caller's head refill cannot pay the time consumed since the last commit at the entry clock "
     "(refill_sufficient(ksCurSC, ksConsumed) fails after updateTimestamp).",
     "handleSyscall's checkBudgetRestart: chargeBudget ends the caller's timeslice (appended, postponed, or a "
     "timeout fault), the caller is left in Restart and the seL4_Send is not performed; schedule() picks the next "
     "thread.",
     "Signals, wakes and queues the receiver on the caller's overrun budget and returns to the caller.",
     "The caller overruns into the MIN_BUDGET reserve (up to one kernel WCET) and its signal takes effect before "
     "its next replenishment.", KF_NONE,
     "Design trade-off, not a bug: fastpath_call and fastpath_reply_recv skip updateTimestamp/checkBudget the "
     "same way; the timer interrupt that is already due catches the overrun.", 0, 0, false},
    {"S2", "Domain expiry judged on a stale clock", SFIX(SFIX_ENTRY_DOMAIN), 0, "entry_domain",
     "More than one domain; the domain's time is not 0 at the last kernel exit but is at the entry clock "
     "(updateTimestamp sets ksDomainTime to 0 when the time since plus MIN_BUDGET reaches it).",
     "checkBudgetRestart returns false for the expired domain: the caller restarts, nothing is signalled; "
     "schedule() switches domain.",
     "isCurDomainExpired() reads ksDomainTime without updateTimestamp, passes, and the signal is delivered and "
     "the caller resumed in a domain whose time is up.",
     "Up to MIN_BUDGET of work past the domain's end: a temporal-isolation leak of the same size as S1's. The "
     "guard as written never fires on a reachable state.", KF_NONE,
     "The shared lazy accounting (a trade-off): the IPC fastpaths have no domain guard at all. But a guard that "
     "is there to catch expiry could test it on the entry clock: the fix entry_domain asks whether the domain "
     "has expired as updateTimestamp would leave it.",
     /* domains: no SMP build has more than one (config.cmake, KernelMaxNumNodes) */
     .max_cores = 1},
    {"S3", "Released threads are not woken", SFIX(SFIX_ENTRY_RELEASE), 0, "entry_time+entry_release",
     "The head of the release queue is ready at the entry clock.",
     "schedule() -> awaken() moves it to its ready queue, where it may outrank or sit ahead of the receiver.",
     "Leaves it in the release queue until the next kernel entry.",
     "A released thread runs one kernel entry late; its timer interrupt is due and catches it.", KF_NONE,
     "Shared with the IPC fastpaths: a design trade-off.", 0, 0, false},
    {"S4", "The sporadic unblock check uses a stale clock", SFIX(SFIX_ENTRY_TIME), SIG_ENTRY_CHECKS, "entry_time",
     "The woken receiver's SC is sporadic and its head refill is ready.",
     "refill_unblock_check stamps the head refill with the entry clock and merges refills that overlap it.",
     "Runs the same check on ksCurTime of the previous kernel entry.",
     "The receiver's replenishment comes back earlier than the slowpath would give it, by the time since the "
     "last entry: more than its budget in a window of one period, which weakens what the sporadic flag is for.",
     KF_NONE,
     "Not shared: the IPC fastpaths run no unblock check. (Classes with entry_time alone and the single field "
     "current_time, all on two cores, are the unread clock itself, which every fastpath that does not read the "
     "clock shares.)", 0, 0, false},
    {"S5", "ksReprogram is left set", SFIX(SFIX_REPROGRAM), 0, "reprogram_flag",
     "S4's receiver: its SC is sporadic and ready, so its unblock check sets ksReprogram.",
     "schedule() commits the caller's time, programs the timer and clears the flag.",
     "Returns to user level with the flag set and the time uncommitted.",
     "Mostly benign: the next schedule() does the deferred commit and reprogram. Still a state the kernel "
     "otherwise never leaves at user level (the invariant `user` flags it).", KF_NONE,
     "Goes beyond the lazy accounting the MCS IPC fastpaths share, as they run no unblock check.", 0, 0, false},
    {"S6", "The message info is ignored", SFIX(SFIX_MSG_INFO), 0, "msg_info",
     "seL4_Send(ntfn, info) with extraCaps 1-3 and an IPC buffer in which an extra cap's cptr does not resolve "
     "(seL4_Signal always sends message info 0 and cannot show it).",
     "handleInvocation's lookupExtraCaps fails: handleFault faults the caller (with no fault handler it becomes "
     "Inactive) and nothing is signalled.",
     "Never reads msgInfo: it signals, wakes the receiver, and the caller keeps running.",
     "A difference of user-visible semantics, not of accounting: the same seL4_Send faults on a kernel without "
     "the signal fastpath and succeeds on one with it (with a fault handler, the handler sees a cap fault on one "
     "and nothing on the other).", KF_NONE,
     "Not a trade-off: fastpath_call checks extraCaps == 0 (fastpath_mi_check); the same check (fall back when "
     "extraCaps != 0) is the fix.", 0, 0, false},
    {"S9", "The reschedule IPI is left unsent on two cores", SFIX(SFIX_IPI), 0, "reschedule_ipi",
     "Two cores; the receiver's SC is on the other core and the receiver does not outrank that core's current "
     "thread (so no slow_prio), but remoteQueueUpdate still asks for an IPI: that core runs its idle thread and "
     "the receiver has priority 0, or that core's ksReprogram is set.",
     "SCHED_ENQUEUE marks ipiReschedulePending; schedule() sends the IPI (doMaskReschedule) and the other core "
     "reschedules at once.",
     "SCHED_ENQUEUE marks it and restore_user_context returns without schedule(): the IPI waits until this "
     "core's next schedule().",
     "The other core keeps running its idle thread (or keeps a timer deadline it was asked to reprogram) while "
     "the receiver is ready on it, until this core next enters the kernel: a delay bounded only by this core's "
     "next kernel entry.", KF_NONE,
     "Not shared: fastpath_call falls back on a destination on another core.", .min_cores = 2},
    {"S10", "A thread another core queued is passed over", SFIX(SFIX_OUTRANKED), 0, "outranked",
     "Two cores. Another core has just queued a thread on this core's ready queue that outranks the caller "
     "(remoteQueueUpdate); its reschedule IPI is still in flight when the caller's seL4_Signal enters the kernel. "
     "The signal wakes a schedulable receiver on this core, in the current domain.",
     "possibleSwitchTo makes the receiver the candidate; schedule() finds it is not the highest ready priority and "
     "chooses the highest ready thread, the one the other core queued.",
     "Queues the receiver and returns to the caller.",
     "A priority inversion until the reschedule IPI is taken: the caller keeps running although a thread that "
     "outranks it is ready on its core.", KF_NONE,
     "Not a trade-off: the IRQ fastpath has the same defect (F10), and the same check (the highest ready priority "
     "against the caller's, isHighestPrio) is the fix.", .min_cores = 2},
    {"S11", "A VCPU another core re-bound is left active", SFIX(SFIX_RESWITCH), 0, "reswitch",
     "A hypervisor build on two cores. This core's loaded VCPU is active for the caller; another core's "
     "VCPU_SetTCB bound that VCPU to another thread (associateVCPUTCB -> dissociateVCPUTCB, which invalidates "
     "only the invoking core's armHSCurVCPU), so this core keeps it loaded and active while the caller no longer "
     "has it. The signal wakes a schedulable receiver of this core and domain that does not outrank the caller "
     "(the append and enqueue exits).",
     "possibleSwitchTo makes the receiver the candidate; schedule() enqueues the caller, places the receiver and "
     "ChooseNewThread switches to the caller again: switchToThread -> Arch_switchToThread -> vcpu_switch(its "
     "VCPU, none), which disables the loaded VCPU (the virtual timer's PPI masked), then setVMRoot.",
     "Appends or enqueues the receiver and returns to the caller (restore_user_context): the VCPU stays active, "
     "its virtual timer's PPI unmasked.",
     "As the IRQ fastpath's F12: the VCPU stays enabled under a thread that is not its own, and its next timer "
     "event sends a VPPIEvent fault to this core's current thread, which has no such VCPU.", KF_NONE,
     "Not a trade-off: the kernel leaves this state itself (a hazard of VCPU_SetTCB on two cores); the slowpath "
     "clears it at its next switch, and the fastpath skips that switch. Shared with the IRQ fastpath (F12); the "
     "fix is the slowpath's re-switch, Arch_switchToThread(ksCurThread), on these exits.",
     .min_cores = 2, .vcpus = true},
};

/* master's signal fastpath returns to user level after at most
 * SCHED_ENQUEUE or SCHED_APPEND with no schedule(): ksReprogram from the
 * receiver's refill_unblock_check (S5, fastpath.c:694-700) and the IPI that
 * remoteQueueUpdate marked (S9, fastpath.c:706-712) stay set; it never
 * changes ksSchedulerAction, and queues no thread above the caller on its
 * core (a receiver that outranks it is slow_prio) */
/* The caller's pending fault (fastpath.c:577 at 2b302023d): on MCS a
 * thread whose tcbFault is set never runs (real/coverage-argued.txt gives
 * the kernel lines; the invariant checker refuses such a state) */
static const char *sig_exit_unreachable(int e)
{
    if (e != SIG_SLOW_FAULT)
        return NULL;
    return target_fault_unreachable;
}

/* KernelSignalFastpath (config.cmake:306) */
static bool sig_built(const struct ks_config *c)
{
    return c->signal_fastpath;
}

static void sig_set_built(struct ks_config *c, bool on)
{
    c->signal_fastpath = on;
}

const struct target target_signal = {
    .name = "signal",
    .entry = ENTRY_SIGNAL,
    .kernel = -1,
    .is_default = false,
    .fastpath = "fastpath_signal (master, PR #793)",
    .fast_fn = "fastpath_signal",
    .slowpath = "slowpath(SysSend)",
    .exits = SIG_EXIT_COUNT,
    .first_merged_exit = SIG_FIRST_MERGED_EXIT,
    .exit_name = sig_exit_name,
    .exit_what = sig_exit_what,
    .exit_is_fallback = sig_exit_is_fallback,
    .exit_unreachable = sig_exit_unreachable,
    .fixes = SFIX_COUNT,
    .fix_all = SFIX_ALL,
    .fix_name = sig_fix_name,
    .fix_what = sig_fix_what,
    .removal_order = sig_order,
    .variants = "merged|fixed",
    .variant_name = sig_variant_name,
    .variant_parse = sig_variant_parse,
    .slow = slowpath_signal,
    .fast_tested = fastpath_signal_tested,
    .defects = sig_defects,
    .findings = "docs/FINDINGS-signal.md",
    .n_defects = SDEF_COUNT,
    .admit_as_written = INV_ADMIT_REPROGRAM | INV_ADMIT_IPI,
    .built = sig_built,
    .set_built = sig_set_built,
    /* the kernel's own fastpath_signal (43607edb6 and 1326364bc alike,
     * src/fastpath/fastpath.c:703,712-718 at base): refill_unblock_check
     * sets ksReprogram, SCHED_ENQUEUE marks ipiReschedulePending, and it
     * returns without schedule() (S5, S9) */
    .admit_built = INV_ADMIT_REPROGRAM | INV_ADMIT_IPI,
    .syscall_entry = true,
    .line = &sig_line,
    .gen_entry = sig_gen_entry,
    .gen_invocation = sig_gen_invocation,
    .exh = &sig_exh,
    .sim = {.irq_fast = NULL,
            .entry_call = sig_entry_call,
            .set_inputs = sig_set_inputs,
            .sys_fast = fastpath_signal_performed,
            .draw_insn = sig_draw_insn,
            .draw_thread = sig_draw_thread},
    .words =
        {
            .entry_a = "a SysSend",
            .mismatch_hint = "",
            .checked_one = "SysSend on a notification",
            .checked_many = "SysSends on a notification",
            .agreed = "signal",
            .json_checked = "signals_checked",
            .by = "signal",
            .label = "signal",
            .slow_short = "slowpath (SysSend)",
            .subject = "master's signal fastpath",
            .fast_intro = "master's `fastpath_signal` (merged from PR #793, `KernelSignalFastpath`)",
            .event = "one `SysSend`",
            .fast_label = "master",
            .preface = "This is a comment on a function already merged, not on a pull request; "
                       "docs/FINDINGS-signal.md gives the kernel lines behind each finding and the runs on the "
                       "real kernel that confirm them.\n\n",
            .fuzz_args = "--target signal ",
            .space = "the caller any thread that can make a system call, the entry clock placed on both sides of "
                     "every budget, domain and release edge the signal path compares it with, the SysSend's cptr "
                     "resolving to a notification cap with and without the send right, a null cap and nothing (a "
                     "lookup failure), and its message carrying no extra cap, one that resolves or one that does "
                     "not",
            .verdict_fast = " fastpath_signal (master)",
            .verdict_slow = "slowpath(SysSend)",
        },
};
