/*
 * target_call: master's fastpath_call (aarch64, MCS) against
 * slowpath(SysCall): its exits and fixes (sim/call_fast.h), the order
 * classify drops the fixes in, and what the reports call it; its entry
 * (the scenario line, the generator's draw, the enumeration's part) is in
 * target_call_entry.c. Its defects (C1-C7) are docs/FINDINGS-call.md's.
 */
#include "target_call.h"

#include "call_fast.h"
#include "classify.h"
#include "config.h"
#include "defect.h"
#include "invariant.h"
#include "irq_fast.h"
#include "workload.h"

_Static_assert(CFIX_ALL < CLASS_NO_FIX, "CLASS_NO_FIX (classify.h) must not be a fix set");
_Static_assert((int)FP_PR1227 == (int)CALL_MERGED && (int)FP_FIXED == (int)CALL_FIXED,
               "variant numbers are shared by the targets");
_Static_assert(CALL_EXIT_COUNT <= TARGET_MAX_EXITS, "TARGET_MAX_EXITS");

/* entry_release first (a fallback on states with a ready release head),
 * then the clock, then the budget it pays for */
static const int call_order[CFIX_COUNT] = {CFIX_OUTRANKED_BIT, CFIX_ENTRY_RELEASE_BIT, CFIX_ENTRY_TIME_BIT,
                                           CFIX_ENTRY_DOMAIN_BIT, CFIX_ENTRY_BUDGET_BIT, CFIX_IPI_BIT,
                                           CFIX_REPROGRAM_BIT};

#define CALL_ENTRY_CHECKS (CFIX(CFIX_ENTRY_BUDGET) | CFIX(CFIX_ENTRY_DOMAIN) | CFIX(CFIX_ENTRY_RELEASE))

/* Master's fastpath_call; wording from docs/FINDINGS-call.md, change both
 * together. */
enum { CDEF_C1, CDEF_C2, CDEF_C3, CDEF_C4, CDEF_C5, CDEF_C6, CDEF_C7, CDEF_COUNT };
_Static_assert(CDEF_COUNT <= DEFECT_MAX, "DEFECT_MAX (defect.h)");
static const struct defect_info call_defects[CDEF_COUNT] = {
    {"C1", "No budget check at entry", CFIX(CFIX_ENTRY_BUDGET), 0, "entry_time+entry_budget",
     "The caller's head refill cannot pay the time consumed since the last commit at the entry clock "
     "(refill_sufficient(ksCurSC, ksConsumed) fails after updateTimestamp).",
     "handleSyscall's checkBudgetRestart: chargeBudget ends the caller's timeslice (appended, postponed, or a "
     "timeout fault), the caller is left in Restart and the seL4_Call is not performed; schedule() picks the next "
     "thread.",
     "Makes the call on the overrun budget: the server runs on the caller's SC with no budget left to pay for it.",
     "The caller's overrun (up to one kernel WCET past MIN_BUDGET) is carried into the server's run on the donated "
     "SC; the timer interrupt already due catches it.", KF_NONE,
     "Design trade-off, shared with fastpath_signal (S1) and fastpath_reply_recv: the lazy accounting of the MCS "
     "fastpaths.", 0, 0, false},
    {"C2", "No domain check at entry", CFIX(CFIX_ENTRY_DOMAIN), 0, "entry_domain",
     "More than one domain; the domain's time is up at the entry clock (updateTimestamp would set ksDomainTime "
     "to 0).",
     "checkBudgetRestart returns false for the expired domain: the caller restarts, nothing is sent; schedule() "
     "switches domain.",
     "Has no domain guard: the call is made and the server runs in a domain whose time is up.",
     "Up to MIN_BUDGET of work past the domain's end, done by another thread than the one whose domain it was: "
     "a temporal-isolation leak of S2's size.", KF_NONE,
     "The lazy accounting again (fastpath_signal has a guard, on a stale clock: S2).", .max_cores = 1},
    {"C3", "Released threads are not woken", CFIX(CFIX_ENTRY_RELEASE), 0, "entry_time+entry_release",
     "The head of the release queue is ready at the entry clock.",
     "schedule() -> awaken() moves it to its ready queue; the scheduler then picks the highest of it and the "
     "server.",
     "Leaves it in the release queue and switches to the server.",
     "A released thread runs one kernel entry late, even if it outranks the server; its timer interrupt is due "
     "and catches it.", KF_NONE, "Shared with the other fastpaths (S3): a design trade-off.", 0, 0, false},
    {"C4", "The entry clock is not read", CFIX(CFIX_ENTRY_TIME), CALL_ENTRY_CHECKS, "entry_time",
     "Two cores; time has passed since the last kernel entry of this core.",
     "updateTimestamp at entry: ksCurTime is the entry clock and ksConsumed holds the time since.",
     "Leaves ksCurTime at the last entry's clock.",
     "On one core the next entry reads the clock before anything charges the time (irqsim normalises this). On "
     "two cores another core's remote stall charges this core's ksConsumed without a clock read "
     "(ipiStallCoreCallback: commitTime), so the unread time is charged to no one.", KF_NONE,
     "Shared by every fastpath that does not read the clock (the signal target counts it with S4).",
     .min_cores = 2},
    {"C5", "A pending ksReprogram is not honoured", CFIX(CFIX_REPROGRAM), 0, "reprogram_flag",
     "ksReprogram set at user level: left by master's own fastpath_signal (S5) on a KernelSignalFastpath build.",
     "schedule() commits the time (switchSchedContext) and programs the timer for the server's budget "
     "(setNextInterrupt), then clears the flag.",
     "Switches to the server and returns with the flag still set, the time uncommitted and the old deadline.",
     "Inherited from S5: the deferred commit and reprogram wait one more kernel entry.", KF_NONE,
     "Not fastpath_call's own defect: it shows only after fastpath_signal's S5.", 0, 0, false},
    {"C6", "Owed reschedule IPIs are left unsent", CFIX(CFIX_IPI), 0, "reschedule_ipi",
     "Two cores; this core owes a reschedule IPI (ipiReschedulePending) at user level: left by master's own "
     "fastpath_signal (S9) on a KernelSignalFastpath build.",
     "schedule() sends it (doMaskReschedule).",
     "Returns without schedule(): the IPI waits for this core's next schedule().",
     "Inherited from S9: the other core reschedules one more kernel entry late.", KF_NONE,
     "Not fastpath_call's own defect: it shows only after fastpath_signal's S9.", .min_cores = 2},
    {"C7", "A thread another core queued is passed over", CFIX(CFIX_OUTRANKED), 0, "outranked",
     "Two cores. Another core has just queued a thread on this core's ready queue that outranks the server "
     "(remoteQueueUpdate); its reschedule IPI is still in flight when the seL4_Call enters the kernel. The server "
     "is at or above the caller's priority.",
     "The donation asks for a reschedule (schedContext_donate), possibleSwitchTo queues the server, and "
     "schedule() runs the highest ready thread: the one the other core queued.",
     "Tests isHighestPrio only for a server below the caller, and switches to the server.",
     "A priority inversion until the IPI is taken: the server runs although a thread that outranks it is ready "
     "on its core.", KF_NONE,
     "Not a trade-off: the IRQ and signal fastpaths have the same defect (F10, S10); testing isHighestPrio for "
     "every server is the fix.", .min_cores = 2},
};

/* The caller's pending fault (fastpath.c:40): on MCS a thread whose
 * tcbFault is set never runs (as for the signal target) */
static const char *call_exit_unreachable(int e)
{
    if (e != CALL_SLOW_FAULT)
        return NULL;
    return target_fault_unreachable;
}

const struct target target_call = {
    .name = "call",
    .entry = ENTRY_CALL,
    .kernel = KS_KERNEL_MASTER, /* fastpath_call as master has it (docs/IPC-FASTPATHS.md) */
    .is_default = false,
    .fastpath = "fastpath_call (master, MCS)",
    .fast_fn = "fastpath_call",
    .slowpath = "slowpath(SysCall)",
    .exits = CALL_EXIT_COUNT,
    .first_merged_exit = CALL_FIRST_MERGED_EXIT,
    .exit_name = call_exit_name,
    .exit_what = call_exit_what,
    .exit_is_fallback = call_exit_is_fallback,
    .exit_unreachable = call_exit_unreachable,
    .fixes = CFIX_COUNT,
    .fix_all = CFIX_ALL,
    .fix_name = call_fix_name,
    .fix_what = call_fix_what,
    .removal_order = call_order,
    .variants = "merged|fixed",
    .variant_name = call_variant_name,
    .variant_parse = call_variant_parse,
    .slow = slowpath_call,
    .fast_tested = fastpath_call_tested,
    .defects = call_defects,
    .findings = "docs/FINDINGS-call.md",
    .n_defects = CDEF_COUNT,
    /* with no domain check (C2) it returns to user level in a domain whose
     * time is 0 (ksDomainTime), which the slowpath never leaves: the real
     * kernel shows it (validate --real on a two-domain build) */
    .admit_as_written = INV_ADMIT_DOMAIN_END,
    .syscall_entry = true,
    .line = &call_line,
    .gen_entry = call_gen_entry,
    .exh = &call_exh,
    .sim = {.irq_fast = NULL,
            .entry_call = call_entry_call,
            .set_inputs = call_set_inputs,
            .sys_fast = fastpath_call_performed,
            .draw_thread = wl_draw_ipc_thread,
            .min_threads = 3},
    .words =
        {
            .entry_a = "a SysCall",
            .mismatch_hint = "",
            .checked_one = "SysCall",
            .checked_many = "SysCalls",
            .agreed = "call",
            .json_checked = "calls_checked",
            .by = "call",
            .label = "call",
            .slow_short = "slowpath (SysCall)",
            .subject = "master's call fastpath",
            .fast_intro = "master's `fastpath_call` (MCS)",
            .event = "one `SysCall`",
            .fast_label = "master",
            .preface = "This is a comment on a function already in the kernel, not on a pull request.\n\n",
            .fuzz_args = "--target call ",
            .space = "the caller any thread that can make a system call, the entry clock placed on both sides of "
                     "every budget, domain and release edge, and a server on the called endpoint: passive with a "
                     "reply object, without one, with an SC of its own, or none, below, at or above the caller's "
                     "priority, the cap with or without grant",
            .verdict_fast = " fastpath_call (master)",
            .verdict_slow = "slowpath(SysCall)",
        },
};
