/*
 * target_rr: master's fastpath_reply_recv (aarch64, MCS) against
 * slowpath(SysReplyRecv): its exits and fixes (sim/rr_fast.h), the order
 * classify drops the fixes in, its defects (R1-R6, docs/FINDINGS-reply_recv.md)
 * and what the reports call it; its entry is in target_rr_entry.c.
 */
#include "target_rr.h"

#include "classify.h"
#include "config.h"
#include "defect.h"
#include "invariant.h"
#include "irq_fast.h"
#include "rr_fast.h"
#include "workload.h"

_Static_assert(RFIX_ALL < CLASS_NO_FIX, "CLASS_NO_FIX (classify.h) must not be a fix set");
_Static_assert((int)FP_PR1227 == (int)RR_MERGED && (int)FP_FIXED == (int)RR_FIXED,
               "variant numbers are shared by the targets");
_Static_assert(RR_EXIT_COUNT <= TARGET_MAX_EXITS, "TARGET_MAX_EXITS");

static const int rr_order[RFIX_COUNT] = {RFIX_ENTRY_RELEASE_BIT, RFIX_ENTRY_TIME_BIT, RFIX_ENTRY_DOMAIN_BIT,
                                         RFIX_ENTRY_BUDGET_BIT, RFIX_IPI_BIT, RFIX_REPROGRAM_BIT};

#define RR_ENTRY_CHECKS (RFIX(RFIX_ENTRY_BUDGET) | RFIX(RFIX_ENTRY_DOMAIN) | RFIX(RFIX_ENTRY_RELEASE))

/* Master's fastpath_reply_recv; wording from docs/FINDINGS-reply_recv.md,
 * change both together. */
enum { RDEF_R1, RDEF_R2, RDEF_R3, RDEF_R4, RDEF_R5, RDEF_R6, RDEF_COUNT };
_Static_assert(RDEF_COUNT <= DEFECT_MAX, "DEFECT_MAX (defect.h)");
static const struct defect_info rr_defects[RDEF_COUNT] = {
    {"R1", "No budget check at entry", RFIX(RFIX_ENTRY_BUDGET), 0, "entry_time+entry_budget",
     "The server's head refill (the caller's donated SC) cannot pay the time consumed since the last commit at the "
     "entry clock.",
     "handleSyscall's checkBudgetRestart charges it: the server's timeslice ends, it is left in Restart and neither "
     "the reply nor the receive is made.",
     "Replies and switches to the caller on the overrun budget.",
     "The overrun is carried into the caller's run on the returned SC; the timer interrupt already due catches it.",
     KF_NONE, "The lazy accounting every MCS fastpath shares (C1, S1).", 0, 0, false},
    {"R2", "No domain check at entry", RFIX(RFIX_ENTRY_DOMAIN), 0, "entry_domain",
     "More than one domain; the domain's time is up at the entry clock.",
     "checkBudget returns false for the expired domain: the server restarts; schedule() switches domain.",
     "Has no domain guard: the caller runs in a domain whose time is up.",
     "Up to MIN_BUDGET of work past the domain's end (C2's size).", KF_NONE,
     "The lazy accounting again, as fastpath_call (C2).", .max_cores = 1},
    {"R3", "Released threads are not woken", RFIX(RFIX_ENTRY_RELEASE), 0, "entry_time+entry_release",
     "The head of the release queue is ready at the entry clock.",
     "schedule() -> awaken() readies it before choosing.",
     "Switches to the caller; the released thread waits one more kernel entry.",
     "A released thread runs one kernel entry late; its timer interrupt is due and catches it.", KF_NONE,
     "Shared with the other fastpaths (C3, S3).", 0, 0, false},
    {"R4", "The entry clock is not read", RFIX(RFIX_ENTRY_TIME), RR_ENTRY_CHECKS, "entry_time",
     "Two cores; time has passed since this core's last entry.",
     "updateTimestamp at entry.",
     "Leaves ksCurTime at the last entry's clock.",
     "On two cores another core's remote stall charges this core's ksConsumed without a clock read: the unread "
     "time is charged to no one.", KF_NONE, "Shared by every fastpath that does not read the clock (C4).",
     .min_cores = 2},
    {"R5", "A pending ksReprogram is not honoured", RFIX(RFIX_REPROGRAM), 0, "reprogram_flag",
     "ksReprogram set at user level: left by master's own fastpath_signal (S5) on a KernelSignalFastpath build.",
     "schedule() commits the time and programs the timer, then clears the flag.",
     "Switches to the caller with the flag still set and the old deadline.",
     "Inherited from S5: the deferred commit and reprogram wait one more kernel entry.", KF_NONE,
     "Not fastpath_reply_recv's own defect: it shows only after fastpath_signal's S5.", 0, 0, false},
    {"R6", "Owed reschedule IPIs are left unsent", RFIX(RFIX_IPI), 0, "reschedule_ipi",
     "Two cores; this core owes a reschedule IPI at user level: left by master's own fastpath_signal (S9).",
     "schedule() sends it (doMaskReschedule).",
     "Returns without it: the IPI waits for this core's next schedule().",
     "Inherited from S9: the other core reschedules one more kernel entry late.", KF_NONE,
     "Not fastpath_reply_recv's own defect: it shows only after fastpath_signal's S9.", .min_cores = 2},
};

/* The server's pending fault (fastpath.c:266-268), as for the call and
 * signal targets. The caller's (fastpath.c:342-344) is reached: a caller
 * with a cap fault whose handler received the donating fault IPC
 * (rr_gen_entry). */
static const char *rr_exit_unreachable(int e)
{
    return e == RR_SLOW_FAULT ? target_fault_unreachable : NULL;
}

const struct target target_reply_recv = {
    .name = "reply_recv",
    .entry = ENTRY_REPLY_RECV,
    .kernel = KS_KERNEL_MASTER, /* fastpath_reply_recv as master has it (docs/IPC-FASTPATHS.md) */
    .is_default = false,
    .fastpath = "fastpath_reply_recv (master, MCS)",
    .fast_fn = "fastpath_reply_recv",
    .slowpath = "slowpath(SysReplyRecv)",
    .exits = RR_EXIT_COUNT,
    .first_merged_exit = RR_FIRST_MERGED_EXIT,
    .exit_name = rr_exit_name,
    .exit_what = rr_exit_what,
    .exit_is_fallback = rr_exit_is_fallback,
    .exit_unreachable = rr_exit_unreachable,
    .fixes = RFIX_COUNT,
    .fix_all = RFIX_ALL,
    .fix_name = rr_fix_name,
    .fix_what = rr_fix_what,
    .removal_order = rr_order,
    .variants = "merged|fixed",
    .variant_name = rr_variant_name,
    .variant_parse = rr_variant_parse,
    .slow = slowpath_reply_recv,
    .fast_tested = fastpath_reply_recv_tested,
    .defects = rr_defects,
    .findings = "docs/FINDINGS-reply_recv.md",
    .n_defects = RDEF_COUNT,
    .admit_as_written = INV_ADMIT_DOMAIN_END, /* R2, as the call target's C2 */
    .syscall_entry = true,
    .line = &rr_line,
    .gen_entry = rr_gen_entry,
    .exh = &rr_exh,
    .sim = {.irq_fast = NULL,
            .entry_call = rr_entry_call,
            .set_inputs = rr_set_inputs,
            .sys_fast = fastpath_reply_recv_performed,
            .draw_thread = wl_draw_ipc_thread,
            .min_threads = 3},
    .words =
        {
            .entry_a = "a SysReplyRecv",
            .mismatch_hint = "",
            .checked_one = "SysReplyRecv",
            .checked_many = "SysReplyRecvs",
            .agreed = "reply_recv",
            .json_checked = "reply_recvs_checked",
            .by = "reply_recv",
            .label = "reply_recv",
            .slow_short = "slowpath (SysReplyRecv)",
            .subject = "master's reply-and-receive fastpath",
            .fast_intro = "master's `fastpath_reply_recv` (MCS)",
            .event = "one `SysReplyRecv`",
            .fast_label = "master",
            .preface = "This is a comment on a function already in the kernel, not on a pull request.\n\n",
            .fuzz_args = "--target reply_recv ",
            .space = "the server any thread that can make a system call, the entry clock placed on both sides of "
                     "every budget, domain and release edge, a caller heading its SC's call stack or none, below, "
                     "at or above the server's priority, and the endpoint idle or with a receiver waiting",
            .verdict_fast = " fastpath_reply_recv (master)",
            .verdict_slow = "slowpath(SysReplyRecv)",
        },
};
