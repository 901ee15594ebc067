/*
 * target_irq: PR #1227's fastpath_irq against handleInterruptEntry, the
 * default target: its exits and fixes (sim/irq_fast.h), the order classify
 * drops the fixes in, its defects (F1-F12 of docs/FINDINGS.md, F9 on master
 * only: defect_ids lists them) and what the reports call it.
 */
#include "target.h"

#include <stdio.h>

#include "build.h"
#include "classify.h"
#include "config.h"
#include "defect.h"
#include "exhaust.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"

_Static_assert(FIX_ALL < CLASS_NO_FIX, "CLASS_NO_FIX (classify.h) must not be a fix set");

_Static_assert(FP_EXIT_COUNT <= TARGET_MAX_EXITS, "TARGET_MAX_EXITS");

/* classify.c explains the order: fixes that change where the fastpath goes
 * first, so a divergence is charged to a state repair when one suffices */
static const int irq_order[FIX_COUNT] = {
    FIX_OWED_IPI_BIT,    FIX_OUTRANKED_BIT, /* fallbacks on states only SMP reaches */
    FIX_IDLE_SWITCH_BIT, FIX_ENTRY_RELEASE_BIT, FIX_ENTRY_DOMAIN_BIT, FIX_ENTRY_BUDGET_BIT,
    FIX_ENTRY_TIME_BIT,  FIX_REPROGRAM_BIT,     FIX_DEADLINE_BIT,     FIX_CB_UNBLOCK_BIT,
    FIX_RESWITCH_BIT, /* a state repair on the append and enqueue exits only */
    FIX_SPLIT_EOI_BIT, /* last: on base it changes nothing, so every earlier decision is as before */
};

#define ENTRY_CHECKS (FIX(FIX_ENTRY_BUDGET) | FIX(FIX_ENTRY_DOMAIN) | FIX(FIX_ENTRY_RELEASE))

/* Wording from docs/FINDINGS.md ("The defects"); change both together. */
/* PR #1227's fastpath's defects, in the order of the table below */
enum { DEF_F1, DEF_F2, DEF_F3, DEF_F4, DEF_F5, DEF_F6, DEF_F7, DEF_F8, DEF_F9, DEF_F10, DEF_F11, DEF_F12, DEF_COUNT };
_Static_assert(DEF_COUNT <= DEFECT_MAX, "DEFECT_MAX (defect.h)");
static const struct defect_info irq_defects[DEF_COUNT] = {
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
     "which every later kernel path assumes cannot happen.", KF_NONE, NULL, 0, 0, false},
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
     "for two SCs.", KF_NONE, NULL, 0, 0, false},
    {"F3", "Released threads are not woken", FIX(FIX_ENTRY_RELEASE), 0, "entry_time+entry_release",
     "The head of the release queue is ready at the entry clock.",
     "schedule() -> awaken() moves it to the ready queue (possibleSwitchTo), possibly switching to it.",
     "Leaves it in the release queue; switch may run the handler although a released thread of higher priority "
     "is ready.",
     "A released thread runs one kernel entry late (a short priority inversion); nothing is lost.", KF_NONE, NULL, 0, 0, false},
    {"F4", "The sporadic unblock check uses a stale clock", FIX(FIX_ENTRY_TIME), ENTRY_CHECKS, "entry_time",
     "The woken thread's SC is sporadic and its head refill is ready.",
     "refill_unblock_check stamps the head refill with now (the entry clock) and merges refills that overlap it.",
     "Runs the same check before reading the clock, so the head is stamped with the time of the previous kernel "
     "entry, and merging is decided on that earlier time.",
     "The sporadic server's replenishment is scheduled earlier than the slowpath would, by the time since the "
     "last kernel entry: over a window of one period the thread can get more than its budget, which weakens the "
     "guarantee the sporadic flag exists for.", KF_NONE, NULL, 0, 0, false},
    {"F5", "The idle thread is not switched away from", FIX(FIX_IDLE_SWITCH), 0, "idle_switch",
     "The idle thread runs and the woken thread has priority 0 (the idle thread's priority).",
     "schedule() treats the idle thread as never runnable and switches to any schedulable candidate.",
     "Compares priorities only (0 >= 0: no switch), appends the woken thread to its ready queue and returns to "
     "the idle thread.",
     "A lost wake-up: the woken thread waits until the next kernel entry (the idle thread's next timer: up to its "
     "timeslice, the domain end or the next release).", KF_NONE, NULL, 0, 0, false},
    {"F6", "The timer is not reprogrammed on a direct switch", FIX(FIX_DEADLINE), 0, "deadline",
     "Any direct switch after which the new thread's next event is not earlier than the old thread's (the "
     "sel4bench irquser situation itself).",
     "switchSchedContext sets ksReprogram; setNextInterrupt programs the timer for the new thread.",
     "Computes the next event before and after the switch and reprograms only if it moved earlier, so the "
     "deadline programmed for the interrupted thread stays.",
     "The timer fires early while the handler runs: one extra, useless timer interrupt (a kernel entry and a "
     "reprogram) per switch in which the handler outlives the old deadline. The deadline is never late, so "
     "budgets are still enforced, but it costs cycles in exactly the case the fastpath optimises.", KF_NONE, NULL, 0, 0, false},
    {"F7", "The constant-bandwidth unblock check is skipped on a switch", FIX(FIX_CB_UNBLOCK), 0, "cb_unblock",
     "A direct switch to a thread whose SC is periodic and not sporadic (constant bandwidth), with a ready head "
     "refill.",
     "switchSchedContext runs refill_unblock_check on the new SC for constant-bandwidth SCs: the head refill is "
     "stamped with now and overlapping refills merged.",
     "Sets ksCurSC directly and skips it.",
     "As F4: the refill keeps an earlier start time, so its replenishment comes back earlier than configured "
     "(more bandwidth than the SC's budget/period over a window).", KF_NONE, NULL, 0, 0, false},
    {"F8", "ksReprogram is left set", FIX(FIX_REPROGRAM), 0, "reprogram_flag",
     "The woken thread's SC is sporadic and ready, so its unblock check sets ksReprogram.",
     "schedule() commits time, reprograms the timer, clears the flag.",
     "Returns to user level with the flag set.",
     "Mostly benign: the next schedule() does the deferred commit and reprogram. It is still a state the kernel "
     "never otherwise leaves at user level.", KF_NONE, NULL, 0, 0, false},
    {"F9", "The IRQ is masked for good on master's GICv3", FIX(FIX_SPLIT_EOI), 0, "split_eoi",
     "The master kernel (1326364bc) on a GICv3 board (imx8mm, imx8mq, tqma, qemu-arm-virt with GICv3): a signal "
     "IRQ the fastpath handles itself, rebased onto master.",
     "handleInterrupt leaves the IRQ unmasked and active (split EOI, a4b0c8d36: the EOI write only drops the "
     "priority); the handler's IRQHandler_Ack deactivates it.",
     "maskInterrupt(true, irq) on every exit, as on base; the ack leaves it active.",
     "On master the handler's IRQHandler_Ack only deactivates (interrupt.c:159-163) and nothing else unmasks a "
     "signal IRQ: after the first interrupt the fastpath handles, the device's interrupts never arrive again.",
     KF_SPLIT_EOI, NULL, 0, 0, false},
    {"F10", "A thread another core queued is passed over", FIX(FIX_OUTRANKED), 0, "outranked",
     "Two cores. Another core has just queued a thread on this core's ready queue that outranks this core's "
     "current thread (remoteQueueUpdate), or has moved this core's current thread back to its ready queue and this "
     "core to the idle thread (remoteTCBStall: ipiStallCoreCallback, also run while this core waits for the big "
     "lock with the device IRQ already acknowledged); its reschedule IPI is still in flight when the device IRQ "
     "is handled. The IRQ wakes a schedulable receiver that does not outrank that thread.",
     "possibleSwitchTo makes the receiver the candidate; schedule() sees that the candidate is not the highest "
     "ready priority (from the idle thread, or below the current thread) and chooses the highest ready thread.",
     "Compares the receiver with the current thread only: switches to the receiver from the idle thread, or "
     "queues it and keeps the current thread, while the thread the other core queued waits.",
     "A priority inversion until the reschedule IPI is taken, and the time in between is charged to the wrong "
     "scheduling context; the timer is programmed for the wrong thread.", KF_NONE, NULL, 2, 0, false},
    {"F11", "The reschedule IPI the signal fastpath left is not sent", FIX(FIX_OWED_IPI), 0, "owed_ipi",
     "Two cores and a kernel built with KernelSignalFastpath as well: a seL4_Signal on this core woke a thread "
     "whose SC is on the other core, and fastpath_signal queued it there (remoteQueueUpdate marks "
     "ipiReschedulePending) and returned to user level without sending the IPI (S9). The next kernel entry on "
     "this core is a device IRQ the fastpath handles itself.",
     "schedule() sends the reschedule IPIs this core owes (doMaskReschedule) and clears ipiReschedulePending.",
     "Never looks at ipiReschedulePending: the IPI stays unsent.",
     "The other core does not reschedule: the woken thread waits there until that core's next kernel entry, "
     "even if it outranks what runs there.", KF_NONE, NULL, 2, 0, false},
    {"F12", "A VCPU another core re-bound is left active", FIX(FIX_RESWITCH), 0, "reswitch",
     "A hypervisor build on two cores. This core's loaded VCPU is active for its current thread; another core's "
     "VCPU_SetTCB bound that VCPU to another thread (associateVCPUTCB -> dissociateVCPUTCB, which invalidates "
     "only the invoking core's armHSCurVCPU), so this core keeps it loaded and active while its current thread "
     "no longer has it. The IRQ wakes a schedulable receiver that does not outrank the current thread (the "
     "append and enqueue exits).",
     "schedule() enqueues the current thread, places the receiver and ChooseNewThread switches to the current "
     "thread again: switchToThread -> Arch_switchToThread -> vcpu_switch(its VCPU, none), which disables the "
     "loaded VCPU (the virtual timer's PPI masked), then setVMRoot.",
     "Appends or enqueues the receiver and returns to the current thread without a switch: the VCPU stays "
     "active, its virtual timer's PPI unmasked.",
     "The VCPU stays enabled on this core (its VGIC and virtual timer) under a thread that is not its own, with "
     "the virtual timer's PPI unmasked: the VCPU's next timer event enters VPPIEvent, which, the VCPU being "
     "active, masks the PPI, marks the VCPU's VPPI masked and sends the VPPIEvent fault to this core's current "
     "thread, which has no such VCPU. (The same re-switch's setVMRoot moves a thread whose VTable cap was "
     "deleted while it ran to the global vspace: the TTBR0 case, on any build.)", KF_NONE, NULL, 2, 0, true},
};

/* the IRQ is already drawn (gen.c gen_irqs): every generated state is an entry */
static int irq_gen_entry(struct kstate *ks, struct gen_src *src)
{
    (void)ks;
    (void)src;
    return 0;
}

/* ---- the enumeration's part ---- */

/* the plan's entry dimension (exh_plan entry[0]): the IRQ taken */
enum exh_irq {
    XI_SPURIOUS, XI_OUT_OF_RANGE, XI_INACTIVE, XI_TIMER, XI_RESERVED,
    XI_NULL_CAP, XI_EP_CAP, XI_NO_SEND, XI_SIGNAL, XI_KINDS
};
#define P_IRQ(p) ((p)->entry[0])

/* Any current thread, the idle thread too when no thread is left. */
static int irq_current(struct exh_walk *w, int left)
{
    return exh_choose(w, left >= 1 ? CUR_KINDS : 1);
}

static void plan_irq(struct exh_walk *w, struct exh_plan *p)
{
    P_IRQ(p) = exh_choose(w, XI_KINDS);
}

/* the values past the WCET window exist for the timer IRQ only (its
 * deadline is compared with the clock less the window) */
static bool irq_timer(const struct exh_plan *p)
{
    return P_IRQ(p) == XI_TIMER;
}

/* A notification is signalled by the IRQ's cap with Send. */
static bool irq_signals(const struct exh_plan *p)
{
    return P_IRQ(p) == XI_SIGNAL;
}

/* A notification object is named by the IRQ's notification cap (with or
 * without Send). */
static bool irq_names_ntfn(const struct exh_plan *p)
{
    return P_IRQ(p) == XI_SIGNAL || P_IRQ(p) == XI_NO_SEND;
}

/* The IRQ taken. */
static void build_irq(struct kstate *ks, const struct exh_plan *p, int n)
{
    const int irq = 20;
    switch (P_IRQ(p)) {
    case XI_SPURIOUS: ks->active_irq = KS_IRQ_INVALID; break;
    case XI_OUT_OF_RANGE: ks->active_irq = (int32_t)ks->cfg.max_irq + 1; break;
    case XI_INACTIVE: build_irq_state(ks, irq, IRQ_Inactive); break;
    case XI_TIMER: build_irq_state(ks, irq, IRQ_Timer); break;
    case XI_RESERVED: build_irq_state(ks, irq, IRQ_Reserved); break;
    case XI_NULL_CAP: build_irq_state(ks, irq, IRQ_Signal); break;
    case XI_EP_CAP:
        build_irq_state(ks, irq, IRQ_Signal);
        ks->irq_cap[irq].type = CAP_Endpoint;
        break;
    case XI_NO_SEND: build_irq_signal(ks, irq, n, 1, false); break;
    default: build_irq_signal(ks, irq, n, 1, true); break;
    }
    if (P_IRQ(p) >= XI_INACTIVE)
        ks->active_irq = irq;
}

static const char *irq_text(const struct exh_plan *p, char *buf, size_t len)
{
    static const char *const irq[] = {"spurious", "out_of_range", "inactive", "timer", "reserved",
                                      "null_cap", "endpoint_cap", "no_send_cap", "signal"};
    snprintf(buf, len, "irq=%s", irq[P_IRQ(p)]);
    return buf;
}

/* fastpath_irq compares the receiver with the current thread, and may
 * switch to it */
static const struct exh_ops irq_exh = {irq_current, plan_irq, irq_timer, irq_signals, irq_names_ntfn,
                                       false, false, build_irq, irq_text};

const struct target target_irq = {
    .name = "irq",
    .entry = ENTRY_IRQ,
    .kernel = -1,
    .is_default = true,
    .fastpath = "fastpath_irq (PR #1227)",
    .fast_fn = "fastpath_irq",
    .slowpath = "handleInterruptEntry",
    .exits = FP_EXIT_COUNT,
    .first_merged_exit = FP_SLOW_OWED_IPI + 1,
    .exit_name = fp_exit_name,
    .exit_what = fp_exit_what,
    .exit_is_fallback = fp_exit_is_fallback,
    .fixes = FIX_COUNT,
    .fix_all = FIX_ALL,
    .fix_name = fp_fix_name,
    .fix_what = fp_fix_what,
    .removal_order = irq_order,
    .variants = "pr1227|fixed",
    .variant_name = fp_variant_name,
    .variant_parse = fp_variant_parse,
    .slow = handleInterruptEntry,
    .fast_tested = fastpath_irq_tested,
    .defects = irq_defects,
    .findings = "docs/FINDINGS.md",
    .n_defects = DEF_COUNT,
    /* PR #1227's fastpath: F1, F2, F5, F8, F9 (test_admit_left_by):
     * everything but the reschedule IPI, which it never marks */
    .admit_as_written = INV_ADMIT_ALL & ~INV_ADMIT_IPI,
    .syscall_entry = false,
    .gen_entry = irq_gen_entry,
    .exh = &irq_exh,
    .sim = {.irq_fast = fastpath_irq},
    .words =
        {
            .entry_a = "an interrupt",
            .mismatch_hint = " (a signal scenario has a 'syscall send' line)",
            .checked_one = "device interrupt",
            .checked_many = "device interrupts",
            .agreed = "device interrupt",
            .json_checked = "device_interrupts_checked",
            .label = "IRQ",
            .slow_short = "slowpath",
            .subject = "the IRQ fastpath",
            .fast_intro = "the fastpath",
            .event = "one IRQ",
            .fast_label = "PR #1227",
            .preface = "",
            .fuzz_args = "",
            .space = "the entry clock placed on both sides of every budget, domain, release, deadline and "
                     "WCET-window edge the interrupt path compares it with",
            .verdict_fast = " fastpath",
            .verdict_slow = "the slowpath",
        },
};
