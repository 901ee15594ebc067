/*
 * A reschedule IPI in flight on two cores (issue 19): the states another
 * core's kernel entry leaves on this core until this core takes the IPI,
 * and what the corrected fastpaths do there (sim/irq_fast.c FIX outranked
 * and owed_ipi, sim/sig_fast.c SFIX outranked, sim/smp.c
 * ipiStallCoreCallback). Expected outcomes follow the kernel:
 *
 *   schedule()             src/kernel/thread.c:351-412 at 2b302023d: with a
 *                          candidate, fastfail (the idle thread current, or
 *                          the candidate below the current thread) asks
 *                          isHighestPrio and then chooses the highest ready
 *                          thread (376-384); else the candidate is switched
 *                          to (392-394). ipiReschedulePending is sent and
 *                          cleared (399-402).
 *   remoteQueueUpdate      src/object/tcb.c:444-461 (1326364bc)
 *   ipiStallCoreCallback   src/smp/ipi.c:22-80: !irqPath in the lock queue
 *                          (a system call): Running -> Restart, then both
 *                          branches enqueue, switch to idle, commitTime,
 *                          ksCurSC = idle SC, ResumeCurrentThread.
 *
 * The state: two cores (tx1: 12 MHz), core 1 idle. On core 0 a receiver
 * rx waits on ntfn0 (IRQ 27's notification), a thread q sits in the ready
 * queue (queued there by the other core: the IPI in flight, ipi sent=1),
 * and either the idle thread or a thread cur runs.
 */
#include "tcommon.h"

#include "diff.h"
#include "irq_fast.h"
#include "scenario.h"
#include "sig_fast.h"
#include "smp.h"

struct shape {
    bool smp, from_idle, signal_fastpath, syscall, rx_on_core1;
    int cur, rx, q;     /* priorities */
    unsigned pending, sent;
};

static struct kstate *state_of(const struct shape *s)
{
    char text[4096];
    int n = snprintf(text, sizeof text,
                     "board tx1\n"
                     "config timer_hz=12000000 wcet_us=10 wcet_scale=1 precision_us=0 overhead_ticks=0 domains=1 "
                     "max_irq=224 gic=2 smp=%d fpu=1 hyp=0 signal_fastpath=%d\n"
                     "clock 1000500\n"
                     "%s"
                     "ipi pending=%u sent=%u\n"
                     "node cur=%s cur_sc=%s idle=idle idle_sc=idle_sc action=resume time=1000000 deadline=1060000\n"
                     "domain cur=0 time=108000 idx=0 schedule=0:9\n"
                     "%s"
                     "tcb idle state=IdleThreadState prio=0 sc=idle_sc\n"
                     "%s"
                     "tcb rx state=BlockedOnNotification prio=%d sc=rx_sc blocking=ntfn0%s\n"
                     "tcb q state=Running prio=%d sc=q_sc queued=1\n"
                     "tcb cur state=%s prio=%d sc=cur_sc\n"
                     "sc idle_sc period=0 budget=60000 max=2 head=0 tail=1 tcb=idle refills=0:60000,0:0\n"
                     "sc rx_sc period=0 budget=2000 max=2 head=0 tail=1 tcb=rx refills=1000000:2000,0:0%s\n"
                     "sc q_sc period=0 budget=2000 max=2 head=0 tail=1 tcb=q refills=1000000:2000,0:0\n"
                     "sc cur_sc period=0 budget=60000 max=2 head=0 tail=1 tcb=cur refills=1000000:60000,0:0\n"
                     "ntfn ntfn0 state=Waiting head=rx tail=rx\n"
                     "irqs 48\n"
                     "irqent 27 state=Signal cap=notification ntfn=ntfn0 badge=2 send=1\n"
                     "%s",
                     s->smp, s->signal_fastpath, s->syscall ? "" : "irq 27\n", s->pending, s->sent,
                     s->from_idle ? "idle" : "cur", s->from_idle ? "idle_sc" : "cur_sc",
                     s->smp ? "core 1 cur=idle1 idle=idle1\n" : "",
                     s->smp ? "tcb idle1 state=IdleThreadState prio=0 core=1\n" : "", s->rx,
                     s->rx_on_core1 ? " core=1" : "", s->q, s->from_idle ? "Inactive" : "Running", s->cur,
                     s->rx_on_core1 ? " core=1" : "", s->syscall ? "syscall send cap=ntfn ntfn=ntfn0 badge=1\n" : "");
    assert_true(n > 0 && n < (int)sizeof text);
    struct kstate *ks = tc_state();
    struct scen_error err;
    if (scenario_parse(text, (size_t)n, "inflight", ks, &err) != 0)
        fail_msg("%s:%d: %s", err.file, err.line, err.msg);
    return ks;
}

/* the exit of the corrected fastpath and whether it agrees with the
 * slowpath, whose next thread is returned in *next */
static int run_fixed(struct kstate *in, int *next)
{
    struct kstate *a = tc_state(), *b = tc_state();
    struct diff_verdict v;
    tc_assert_valid(in, INV_AT_ENTRY);
    diff_run(in, FP_FIXED, true, &v, a, b);
    *next = a->cur_thread;
    assert_true(v.agree);
    free(a);
    free(b);
    return v.exit;
}

static bool pr1227_agrees(struct kstate *in)
{
    struct kstate *a = tc_state(), *b = tc_state();
    struct diff_verdict v;
    diff_run(in, FP_PR1227, false, &v, a, b);
    free(a);
    free(b);
    return v.agree;
}

/* From the idle thread (the remote stall): schedule()'s fastfail asks
 * isHighestPrio(rx); q at 5 outranks rx at 0, so the slowpath runs q. */
static void test_idle_passed_over(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .from_idle = true, .rx = 0, .q = 5, .sent = 1};
    struct kstate *ks = state_of(&s);
    int next;
    assert_int_equal(run_fixed(ks, &next), FP_SLOW_OUTRANKED);
    assert_int_equal(next, tc_tid(ks, "q"));
    assert_false(pr1227_agrees(ks)); /* F10 */
    free(ks);
}

/* From the idle thread, rx at 10 is the highest ready priority: the
 * slowpath switches to it, and so does the fastpath. */
static void test_idle_receiver_highest(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .from_idle = true, .rx = 10, .q = 5, .sent = 1};
    struct kstate *ks = state_of(&s);
    int next;
    assert_int_equal(run_fixed(ks, &next), FP_EXIT_SWITCH);
    assert_int_equal(next, tc_tid(ks, "rx"));
    free(ks);
}

/* cur at 7, rx at 5 (fastfail: below cur), q at 9: chooseNewThread runs q. */
static void test_below_current_passed_over(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .cur = 7, .rx = 5, .q = 9, .sent = 1};
    struct kstate *ks = state_of(&s);
    int next;
    assert_int_equal(run_fixed(ks, &next), FP_SLOW_OUTRANKED);
    assert_int_equal(next, tc_tid(ks, "q"));
    assert_false(pr1227_agrees(ks));
    free(ks);
}

/* rx at 8 outranks cur at 7: no fastfail, schedule() switches to rx even
 * though q at 9 outranks it; the fastpath need not fall back. */
static void test_receiver_outranks_current(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .cur = 7, .rx = 8, .q = 9, .sent = 1};
    struct kstate *ks = state_of(&s);
    int next;
    assert_int_equal(run_fixed(ks, &next), FP_EXIT_SWITCH);
    assert_int_equal(next, tc_tid(ks, "rx"));
    free(ks);
}

/* q at 6 is below cur at 7: nothing outranks cur, rx is enqueued. */
static void test_nothing_outranks(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .cur = 7, .rx = 5, .q = 6};
    struct kstate *ks = state_of(&s);
    int next;
    assert_int_equal(run_fixed(ks, &next), FP_EXIT_ENQUEUE);
    assert_int_equal(next, tc_tid(ks, "cur"));
    free(ks);
}

/* The kernel's own fastpath_signal left ipiReschedulePending for core 1
 * (signal_fastpath=1 admits it): schedule() sends it, so the corrected
 * fastpath falls back, and the proposal leaves it unsent (F11). */
static void test_owed_ipi(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .signal_fastpath = true, .cur = 7, .rx = 5, .q = 6, .pending = 2};
    struct kstate *ks = state_of(&s);
    int next;
    assert_int_equal(run_fixed(ks, &next), FP_SLOW_OWED_IPI);
    struct kstate *a = tc_state(), *b = tc_state();
    struct diff_verdict v;
    diff_run(ks, FP_PR1227, false, &v, a, b);
    assert_false(v.agree);
    assert_true(v.fields & (1u << DF_IPI));
    assert_int_equal(a->ipi_pending, 0);
    assert_int_equal(a->ipi_sent & 2u, 2u);
    assert_int_equal(b->ipi_pending, 2);
    free(a);
    free(b);
    free(ks);
    /* without KernelSignalFastpath no kernel code leaves it: refused */
    s.signal_fastpath = false;
    ks = state_of(&s);
    struct inv_report r;
    assert_true(kstate_check(ks, INV_AT_ENTRY, &r) > 0);
    free(ks);
}

/* Each fix alone, on the states that need it (MC/DC of the conditions):
 * with the fix off the exit is the proposal's own. */
static void test_fix_bits(void **st)
{
    (void)st;
    unsigned tested;
    struct shape s = {.smp = true, .cur = 7, .rx = 5, .q = 9, .sent = 1};
    struct kstate *ks = state_of(&s);
    struct kstate *w = tc_state();
    ks_copy(w, ks);
    assert_int_equal(fastpath_irq_tested(w, FIX_ALL & ~FIX(FIX_OUTRANKED), &tested), FP_EXIT_ENQUEUE);
    assert_true(tested & FIX(FIX_OUTRANKED));
    free(ks);
    s = (struct shape){.smp = true, .signal_fastpath = true, .cur = 7, .rx = 5, .q = 6, .pending = 2};
    ks = state_of(&s);
    ks_copy(w, ks);
    assert_int_equal(fastpath_irq_tested(w, FIX_ALL & ~FIX(FIX_OWED_IPI), &tested), FP_EXIT_ENQUEUE);
    assert_true(tested & FIX(FIX_OWED_IPI));
    /* an unschedulable receiver is never compared: no fallback */
    free(ks);
    s = (struct shape){.smp = true, .cur = 7, .rx = 5, .q = 9, .sent = 1};
    ks = state_of(&s);
    ks->scs[ks->tcbs[tc_tid(ks, "rx")].sc].refill_max = 0;
    ks_copy(w, ks);
    assert_int_equal(fastpath_irq_tested(w, FIX_ALL, &tested), FP_EXIT_NOT_SCHEDULABLE);
    free(ks);
    free(w);
}

/* The signal fastpath (SysSend by cur at 7 waking rx at 5 on its core):
 * q at 9 outranks the caller, so schedule() runs q (S10). */
static void test_signal_passed_over(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .syscall = true, .cur = 7, .rx = 5, .q = 9, .sent = 1};
    struct kstate *ks = state_of(&s);
    struct kstate *a = tc_state(), *b = tc_state();
    struct diff_verdict v;
    diff_run(ks, SIG_FIXED, true, &v, a, b);
    assert_int_equal(v.exit, SIG_SLOW_OUTRANKED);
    assert_true(v.agree);
    assert_int_equal(a->cur_thread, tc_tid(ks, "q"));
    diff_run(ks, SIG_MERGED, false, &v, a, b);
    assert_false(v.agree);
    assert_int_equal(b->cur_thread, tc_tid(ks, "cur"));
    /* each condition alone keeps the merged exit: no second core, the
     * receiver on the other core (crossnode), nothing above the caller,
     * the fix off */
    unsigned tested;
    struct shape off[] = {
        {.smp = true, .syscall = true, .cur = 7, .rx = 0, .q = 9, .sent = 1, .rx_on_core1 = true},
        {.smp = true, .syscall = true, .cur = 7, .rx = 5, .q = 6, .sent = 1},
        {.smp = false, .syscall = true, .cur = 7, .rx = 5, .q = 6},
    };
    static const int want[] = {SIG_EXIT_ENQUEUE, SIG_EXIT_ENQUEUE, SIG_EXIT_ENQUEUE};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        struct kstate *k = state_of(&off[i]);
        diff_run(k, SIG_FIXED, true, &v, a, b);
        assert_int_equal(v.exit, want[i]);
        assert_true(v.agree);
        free(k);
    }
    ks_copy(b, ks);
    assert_int_equal(fastpath_signal_tested(b, SFIX_ALL & ~SFIX(SFIX_OUTRANKED), &tested), SIG_EXIT_ENQUEUE);
    /* an unschedulable receiver: woken, never compared */
    ks->scs[ks->tcbs[tc_tid(ks, "rx")].sc].refill_max = 0;
    ks_copy(b, ks);
    assert_int_equal(fastpath_signal_tested(b, SFIX_ALL, &tested), SIG_EXIT_UNSCHEDULABLE);
    free(a);
    free(b);
    free(ks);
}

/* ipiStallCoreCallback from a system call's lock wait (!irqPath): a
 * Running current thread restarts its call later; one already in Restart
 * stays so. Both branches then queue it and run the idle thread. */
static void test_stall_syscall_path(void **st)
{
    (void)st;
    struct shape s = {.smp = true, .cur = 7, .rx = 5, .q = 6};
    struct kstate *ks = state_of(&s);
    int cur = tc_tid(ks, "cur");
    ipiStallCoreCallback(ks, false);
    assert_int_equal(ks->tcbs[cur].state, TS_Restart);
    assert_true(ks->tcbs[cur].queued);
    assert_int_equal(ks->cur_thread, ks->idle_thread);
    assert_int_equal(ks->cur_sc, ks->idle_sc);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    free(ks);
    ks = state_of(&s);
    ks->tcbs[cur].state = TS_Restart;
    ipiStallCoreCallback(ks, false);
    assert_int_equal(ks->tcbs[cur].state, TS_Restart);
    assert_true(ks->tcbs[cur].queued);
    free(ks);
    ks = state_of(&s); /* irqPath: the state is left as it was */
    ipiStallCoreCallback(ks, true);
    assert_int_equal(ks->tcbs[cur].state, TS_Running);
    assert_true(ks->tcbs[cur].queued);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_passed_over),       cmocka_unit_test(test_idle_receiver_highest),
        cmocka_unit_test(test_below_current_passed_over), cmocka_unit_test(test_receiver_outranks_current),
        cmocka_unit_test(test_nothing_outranks),       cmocka_unit_test(test_owed_ipi),
        cmocka_unit_test(test_fix_bits),               cmocka_unit_test(test_signal_passed_over),
        cmocka_unit_test(test_stall_syscall_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
