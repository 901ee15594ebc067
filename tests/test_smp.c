/*
 * The second core acting (sim/smp.c and the SMP branches it brings to the
 * invocations, the checker and the corrected fastpath). Expected values
 * follow the kernel at 43607edb6 (MCS, SMP):
 *
 *   remoteTCBStall             src/object/tcb.c:464-476 (tcbSchedContext,
 *                              affinity, NODE_STATE_ON_CORE(ksCurThread))
 *   ipiStallCoreCallback       src/smp/ipi.c:67-79 (irqPath: enqueue the
 *                              current thread, switchToIdleThread,
 *                              commitTime, ksCurSC = idle SC, Resume)
 *   migrateTCB                 src/model/smp.c:13-31
 *   schedContext_bindTCB       src/object/schedcontext.c:295-318
 *   invokeSchedControl_ConfigureFlags  src/object/schedcontrol.c:13-76
 *   decodeTCBInvocation        src/object/tcb.c:797-800 (stall first)
 *   decodeSchedContextInvocation  src/object/schedcontext.c:251-255
 *   commitTime (round robin)   src/kernel/thread.c (head -= ksConsumed,
 *                              tail += ksConsumed, scConsumed +=)
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks.
 */
#include "tcount.h"

#include "domain.h"
#include "scenario.h"
#include "schedcontext.h"
#include "schedcontrol.h"
#include "sim.h"
#include "smp.h"
#include "syscall.h"

/* Core 0 runs a (priority 100, SC a_sc); core 1 runs b (priority 50, round
 * robin SC b_sc of 8000 ticks) since its last clock read at 900, having
 * used 50 ticks not yet committed. Core 1 has its idle thread and idle SC. */
struct two {
    struct kstate *ks;
    int a, b, a_sc, b_sc, idle1, idle_sc1;
};

static struct two two_cores(void)
{
    struct two x;
    x.ks = tc_running("a", "a_sc", &x.a, &x.a_sc);
    struct kstate *ks = x.ks;
    x.idle1 = tc_core1_idle(ks, &x.idle_sc1);
    x.b = build_thread(ks, "b", 50, 0);
    ks->tcbs[x.b].affinity = 1;
    x.b_sc = build_sc(ks, "b_sc", x.b, 8000, 0, 0);
    /* b becomes core 1's current thread the way core 1 would run it */
    smp_swap_core(ks, 1);
    ks->cur_time = 900;
    build_run(ks, x.b);
    ks->consumed = 50;
    smp_swap_core(ks, 1);
    assert_int_equal(ks->core_cur[1], x.b);
    assert_int_equal(ks->core_sc[1], x.b_sc);
    assert_int_equal(ks->tcbs[x.b].affinity, 1);
    assert_int_equal(ks->scs[x.b_sc].core, 1);
    return x;
}

static void test_swap_is_a_relabelling(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *before = tc_state();
    ks_copy(before, x.ks);
    x.ks->ipi_sent = 1u << 1;
    before->ipi_sent = 1u << 1;
    smp_swap_core(x.ks, 1);
    /* core 1's node state is in core 0's place, and every core id swapped */
    assert_int_equal(x.ks->cur_thread, x.b);
    assert_int_equal(x.ks->core_cur[1], x.a);
    assert_int_equal(x.ks->cur_sc, x.b_sc);
    assert_int_equal(x.ks->idle_thread, x.idle1);
    assert_int_equal(x.ks->cur_time, 900);
    assert_int_equal(x.ks->consumed, 50);
    assert_int_equal(x.ks->tcbs[x.b].affinity, 0);
    assert_int_equal(x.ks->tcbs[x.a].affinity, 1);
    assert_int_equal(x.ks->scs[x.a_sc].core, 1);
    assert_int_equal(x.ks->ipi_sent, 1u);
    tc_assert_valid(x.ks, INV_AT_EXIT); /* core 1 seen as the current core is a valid state too */
    smp_swap_core(x.ks, 1);
    assert_true(ks_same(x.ks, before));
    smp_swap_core(x.ks, 0); /* core 0 on core 0: nothing */
    assert_true(ks_same(x.ks, before));
    free(before);
    free(x.ks);
}

/* Each core's SGIs and PPIs are its own (IRQ_IS_PPI, banked in the GIC):
 * the relabelling swaps core 0's mask and active bits (its IRQ table's
 * first 32 entries) with core 1's (core_ppi_masked, core_ppi_active); a
 * bit of core 1's past the table grows it; on a hypervisor build the
 * virtual timer's mask is core_vtimer_masked's, which the VCPU swap
 * takes, and bit 27 of core 1's mask stays. Twice is the identity. */
static void test_swap_ppis(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks, *before = tc_state();
    ks->n_irqs = 20;
    ks->irq_masked[19] = ks->irq_active[17] = true;
    ks->core_ppi_masked[1] = 1u << 18 | 1u << 27;
    ks->core_ppi_active[1] = 1u << 16;
    ks_copy(before, ks);
    smp_swap_core(ks, 1);
    assert_true(ks->irq_masked[18] && !ks->irq_masked[19] && ks->irq_active[16] && !ks->irq_active[17]);
    assert_int_equal(ks->n_irqs, 28); /* bit 27 of core 1's mask: the table grew to it */
    assert_true(ks->irq_masked[27]);
    assert_int_equal(ks->core_ppi_masked[1], 1u << 19);
    assert_int_equal(ks->core_ppi_active[1], 1u << 17);
    smp_swap_core(ks, 1);
    assert_int_equal(ks->core_ppi_masked[1], before->core_ppi_masked[1]);
    assert_int_equal(ks->core_ppi_active[1], before->core_ppi_active[1]);
    assert_true(ks->irq_masked[19] && ks->irq_active[17] && !ks->irq_masked[18] && !ks->irq_active[16]);
    /* a hypervisor build: the virtual timer's mask goes with the VCPU state */
    ks->cfg.hyp = true;
    ks->irq_masked[27] = false;
    ks->core_vtimer_masked[1] = true;
    smp_swap_core(ks, 1);
    assert_true(ks->irq_masked[27]); /* core 1's virtual timer mask */
    assert_false(ks->core_vtimer_masked[1]);
    assert_int_equal(ks->core_ppi_masked[1] & 1u << 27, 1u << 27); /* stays */
    smp_swap_core(ks, 1);
    assert_false(ks->irq_masked[27]);
    free(before);
    free(x.ks);
}

static void test_remote_stall(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    ticks_t head = ks->scs[x.b_sc].refills[ks->scs[x.b_sc].head].amount;
    remoteTCBStall(ks, x.b);
    /* core 1 went to its idle thread on its idle SC; b is back in core 1's
     * ready queue, charged the 50 ticks core 1 had not committed */
    assert_int_equal(ks->core_cur[1], x.idle1);
    assert_int_equal(ks->core_sc[1], x.idle_sc1);
    assert_int_equal(ks->core_action[1], KS_SA_RESUME);
    assert_int_equal(ks->core_consumed[1], 0);
    assert_true(ks->tcbs[x.b].queued);
    assert_int_equal(ks->tcbs[x.b].affinity, 1);
    assert_true(ks->l1[1][0] != 0 && ks->l1[0][0] == 0);
    assert_int_equal(ks->scs[x.b_sc].consumed, 50);
    assert_int_equal(ks->scs[x.b_sc].refills[ks->scs[x.b_sc].head].amount, head - 50);
    /* the remote call IPI was acknowledged there; this core owes core 1 a
     * reschedule IPI at its exit; core 0 itself did not change */
    assert_int_equal(ks->irq_acks[KS_IRQ_REMOTE_CALL_IPI], 1);
    assert_int_equal(ks->ipi_pending, 1u << 1);
    assert_int_equal(ks->cur_thread, x.a);
    assert_int_equal(ks->n_asserts, 0);
    free(ks);
}

/* Each condition of remoteTCBStall that leaves everything as it was. */
static void test_no_stall(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks, *before = tc_state();
    ks_copy(before, ks);
    remoteTCBStall(ks, x.a); /* runs on this core */
    assert_true(ks_same(ks, before));
    ks->tcbs[x.idle1].sc = KS_NONE; /* no SC: core 1's idle thread here */
    ks_copy(before, ks);
    remoteTCBStall(ks, x.idle1);
    assert_true(ks_same(ks, before));
    int c = build_thread(ks, "c", 10, 0);
    ks->tcbs[c].affinity = 1;
    build_sc(ks, "c_sc", c, 8000, 0, 0);
    ks_copy(before, ks);
    remoteTCBStall(ks, c); /* on core 1 but not running there */
    assert_true(ks_same(ks, before));
    ks->cfg.smp = false;
    ks_copy(before, ks);
    remoteTCBStall(ks, x.b); /* no SMP: SMP_COND_STATEMENT compiles it out */
    assert_true(ks_same(ks, before));
    free(before);
    free(ks);
}

/* A TCB invocation from core 0 on core 1's running thread stalls core 1
 * first: TCB_SetPriority then finds b in core 1's ready queue. */
static void test_tcb_invocation_stalls(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    struct ks_call c = ks_call_new(SYS_Send, CALL_TCB_SetPriority);
    c.tcb = x.b;
    c.prio = 60;
    assert_int_equal(decodeInvocation(ks, &c), SYSERR_NONE);
    assert_int_equal(ks->core_cur[1], x.idle1);
    assert_int_equal(ks->tcbs[x.b].prio, 60);
    assert_true(ks->tcbs[x.b].queued);
    assert_true(ks->ipi_pending & (1u << 1));
    free(ks);
}

/* whether the state breaks the `smp` invariant's "core K's current
 * thread ... is not running there" (what else the bare invocation leaves
 * before its schedule(), the caller in Restart, is not asked) */
static bool breaks_smp(const struct kstate *ks)
{
    struct inv_report r;
    kstate_check(ks, INV_AT_EXIT, &r);
    for (int i = 0; i < r.n && i < INV_MAX_ITEMS; i++)
        if (r.items[i].id == INV_SMP && strstr(r.items[i].msg, "is not running there"))
            return true;
    return false;
}

/* K1 (docs/FINDINGS.md, "Not a divergence"): DomainSet_Set of the thread
 * core 1 runs takes no remoteTCBStall (43607edb6 tcb.c:1566-1607 and master
 * src/object/domain.c:24-60 call setDomain directly; decodeTCBInvocation
 * stalls first, master tcb.c:852), so setDomain's SCHED_ENQUEUE
 * (thread.c:493-503) queues b while core 1 runs it: the exit invariant
 * `smp` says so. When b then blocks on core 1, its schedule() finds b not
 * schedulable and its chooseThread takes the head of b's queue, b itself
 * (thread.c:447-456): the model fails the kernel's assert(isSchedulable),
 * and then activateThread's fail("Current thread is blocked")
 * (thread.c:67-68), which halts a release kernel too. */
static void test_domain_set_remote_running(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    assert_int_equal(decodeDomainSetSet(ks, x.b, 0, 1, 1), SYSERR_NONE);
    assert_int_equal(ks->core_cur[1], x.b); /* no stall: core 1 runs b on */
    assert_true(ks->tcbs[x.b].queued);
    assert_true(breaks_smp(ks));
    /* core 1: b blocks on a notification, its schedule() picks b, and
     * activateThread's fail() halts (release kernels too) */
    smp_swap_core(ks, 1);
    ks->n_asserts = 0;
    setThreadState(ks, x.b, TS_BlockedOnNotification);
    schedule(ks);
    assert_int_equal(ks->cur_thread, x.b);
    activateThread(ks);
    smp_swap_core(ks, 1);
    assert_int_equal(ks->n_asserts, 2);
    assert_int_equal(ks->asserts[0].id, A_CHOOSE_SCHEDULABLE);
    assert_int_equal(ks->asserts[1].id, A_ACTIVATE_BLOCKED);
    free(ks);
}

/* The same call on a thread of core 1 that does not run there: queued as
 * any move, no invariant broken (what the generator draws). */
static void test_domain_set_remote_ready(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    int c = build_thread(ks, "c", 40, 0);
    ks->tcbs[c].affinity = 1;
    int c_sc = build_sc(ks, "c_sc", c, 8000, 0, 0);
    ks->scs[c_sc].core = 1;
    build_ready(ks, c);
    assert_int_equal(decodeDomainSetSet(ks, c, 0, 1, 1), SYSERR_NONE);
    assert_true(ks->tcbs[c].queued);
    assert_int_equal(ks->core_cur[1], x.b);
    assert_false(breaks_smp(ks));
    free(ks);
}

/* SchedContext_Unbind of core 1's running thread's SC: maybeStallSC, then
 * the unbind takes b out of every queue. */
static void test_sc_invocation_stalls(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    struct ks_call c = ks_call_new(SYS_Send, CALL_SchedContext_Unbind);
    c.sc = x.b_sc;
    assert_int_equal(decodeInvocation(ks, &c), SYSERR_NONE);
    assert_int_equal(ks->core_cur[1], x.idle1);
    assert_int_equal(ks->tcbs[x.b].sc, KS_NONE);
    assert_false(ks->tcbs[x.b].queued);
    free(ks);
}

/* schedContext_donate from core 1's running thread stalls core 1 too. */
static void test_donate_stalls(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    int d = build_thread(ks, "d", 70, 0);
    schedContext_donate(ks, x.b_sc, d);
    assert_int_equal(ks->core_cur[1], x.idle1);
    assert_int_equal(ks->tcbs[x.b].sc, KS_NONE);
    assert_int_equal(ks->tcbs[d].sc, x.b_sc);
    assert_int_equal(ks->tcbs[d].affinity, 1); /* migrateTCB to the SC's core */
    free(ks);
}

/* SchedControl_ConfigureFlags with core 1's cap on an SC whose thread is
 * ready on core 0: the thread moves to core 1 and is queued there, and
 * core 1 (idle) is owed a reschedule IPI (remoteQueueUpdate). */
static void test_configure_on_other_core(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    int t = build_thread(ks, "t", 30, 0);
    int sc = build_sc(ks, "t_sc", t, 4000, 0, 0);
    build_ready(ks, t);
    remoteTCBStall(ks, x.b); /* core 1 idle, b queued there */
    ks->ipi_pending = 0;
    assert_int_equal(decodeSchedControl_ConfigureFlags(ks, sc, 1, 2000, 8000, 0, 0, 0), SYSERR_NONE);
    assert_int_equal(ks->scs[sc].core, 1);
    assert_int_equal(ks->tcbs[t].affinity, 1);
    assert_true(ks->tcbs[t].queued);
    assert_true(ks->ipi_pending & (1u << 1));
    assert_int_equal(ks->l1[0][0], 0);
    /* no SchedControl cap names core 2, nor core 1 without SMP */
    assert_int_equal(decodeSchedControl_ConfigureFlags(ks, sc, 2, 2000, 8000, 0, 0, 0), SYSERR_INVALID_CAP);
    ks->cfg.smp = false;
    assert_int_equal(decodeSchedControl_ConfigureFlags(ks, sc, 1, 2000, 8000, 0, 0, 0), SYSERR_INVALID_CAP);
    free(ks);
}

/* Binding a thread to an SC of core 1 moves the thread there. */
static void test_bind_migrates(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    int t = build_thread(ks, "t", 30, 0);
    int sc = build_sc(ks, "t_sc", KS_NONE, 4000, 0, 0);
    ks->scs[sc].core = 1;
    assert_int_equal(decodeSchedContext_Bind(ks, sc, t, KS_NONE), SYSERR_NONE);
    assert_int_equal(ks->tcbs[t].affinity, 1);
    free(ks);
}

/* ---- the checker on states only the other core's actions create ---- */

/* core 0 runs a at priority 100; h (priority 120) is ready on core 0 */
static struct kstate *outranked(void)
{
    struct two x = two_cores();
    int h = build_thread(x.ks, "h", 120, 0);
    build_sc(x.ks, "h_sc", h, 4000, 0, 0);
    build_ready(x.ks, h);
    return x.ks;
}

static void test_outranked_only_with_ipi(void **state)
{
    (void)state;
    struct kstate *ks = outranked();
    struct inv_report r;
    assert_true(kstate_check(ks, INV_AT_ENTRY, &r) > 0); /* no IPI: unreachable */
    ks->ipi_sent = 1u << 0; /* core 1's remoteQueueUpdate sent one, pending at the GIC */
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 0);
    ks->ipi_sent = 0; /* the entry taking it */
    ks->active_irq = KS_IRQ_RESCHEDULE_IPI;
    build_irq_state(ks, KS_IRQ_RESCHEDULE_IPI, IRQ_IPI);
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 0);
    assert_true(kstate_check(ks, INV_AT_EXIT, &r) > 0); /* after it, schedule() ran */
    ks->cfg.smp = false;
    assert_true(kstate_check(ks, INV_AT_ENTRY, &r) > 0);
    free(ks);
}

/* No SMP build has domains (config.cmake: KernelMaxNumNodes depends on
 * KernelNumDomains EQUAL 1): the checker refuses such a state. */
static void test_no_domains_on_smp(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct inv_report r;
    assert_int_equal(kstate_check(x.ks, INV_AT_ENTRY, &r), 0);
    build_two_domains(x.ks);
    assert_true(kstate_check(x.ks, INV_AT_ENTRY, &r) > 0);
    assert_int_equal(r.items[0].id, INV_CONFIG);
    free(x.ks);
}

/* A thread core 1 queued on core 0 after finding its refill ready at core
 * 1's later clock read (1500): not ready at core 0's ksCurTime (1000). */
static void test_ready_by_latest_clock(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    int t = build_thread(ks, "t", 10, 0);
    int sc = build_sc(ks, "t_sc", t, 4000, 40000, 1200);
    build_ready(ks, t);
    ks->hw_clock = 2000;
    struct inv_report r;
    assert_true(kstate_check(ks, INV_AT_ENTRY, &r) > 0);
    ks->core_time[1] = 1500;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 0);
    (void)sc;
    free(ks);
}

/* ---- the corrected fastpath's two SMP fallbacks ---- */

/* n waits with w (priority 120, which outranks a) behind IRQ 40 */
static struct kstate *waiting(struct two *x)
{
    *x = two_cores();
    struct kstate *ks = x->ks;
    int n = build_ntfn(ks, "n"), w = build_thread(ks, "w", 120, 0);
    build_sc(ks, "w_sc", w, 4000, 0, 0);
    build_wait_ntfn(ks, w, n);
    build_irq_signal(ks, 40, n, 1, true);
    ks->active_irq = 40;
    build_deadline(ks);
    return ks;
}

static int exit_of(const struct kstate *in, int variant, bool *agree)
{
    struct kstate *a = tc_state(), *b = tc_state();
    struct diff_verdict v;
    diff_run(in, variant, false, &v, a, b);
    free(a);
    free(b);
    *agree = v.agree;
    return v.exit;
}

/* Core 1 set core 0's ksReprogram (a release it queued here): the
 * corrected fastpath leaves the entry to the slowpath, which reprograms;
 * the proposal switches and drops the request with the old deadline. */
static void test_reprogram_pending(void **state)
{
    (void)state;
    struct two x;
    struct kstate *ks = waiting(&x);
    bool agree;
    assert_int_equal(exit_of(ks, FP_FIXED, &agree), FP_EXIT_SWITCH);
    assert_true(agree);
    ks->reprogram = true;
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_int_equal(exit_of(ks, FP_FIXED, &agree), FP_SLOW_REPROGRAM);
    assert_true(agree);
    assert_int_equal(exit_of(ks, FP_PR1227, &agree), FP_EXIT_SWITCH);
    free(ks);
}

/* ConfigureFlags on core 1's cap of an SC with no thread, and of one whose
 * thread is blocked: the SC moves; a blocked thread is migrated, not queued */
static void test_configure_unbound_and_blocked(void **state)
{
    (void)state;
    struct two x = two_cores();
    struct kstate *ks = x.ks;
    int sc = build_sc(ks, "u_sc", KS_NONE, 4000, 0, 0);
    assert_int_equal(decodeSchedControl_ConfigureFlags(ks, sc, 1, 2000, 8000, 0, 0, 0), SYSERR_NONE);
    assert_int_equal(ks->scs[sc].core, 1);
    int n = build_ntfn(ks, "n"), t = build_thread(ks, "t", 30, 0);
    int tsc = build_sc(ks, "t_sc", t, 4000, 0, 0);
    build_wait_ntfn(ks, t, n);
    assert_int_equal(decodeSchedControl_ConfigureFlags(ks, tsc, 1, 2000, 8000, 0, 0, 0), SYSERR_NONE);
    assert_int_equal(ks->tcbs[t].affinity, 1);
    assert_false(ks->tcbs[t].queued);
    assert_int_equal(ks->ipi_pending, 0);
    assert_int_equal(decodeSchedControl_ConfigureFlags(ks, tsc, -1, 2000, 8000, 0, 0, 0), SYSERR_INVALID_CAP);
    free(ks);
}

/* ---- two cores over time (irqsim sim) ---- */

static struct sim *simulate(const char *text, int variant)
{
    static struct workload w;
    struct scen_error err;
    assert_int_equal(workload_parse(text, strlen(text), "inline", &w, &err), 0);
    struct sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    assert_int_equal(sim_init(s, &w, variant), 0);
    sim_run(s);
    assert_true(sim_all_admitted(s));
    assert_false(s->diverged);
    assert_int_equal(s->k[0].asserts + s->k[1].asserts, 0);
    return s;
}

/* Core 1 signals a thread waiting on core 0 while core 0 idles: each
 * signal is a reschedule IPI to core 0 (possibleSwitchTo of a thread of
 * another core -> SCHED_ENQUEUE -> remoteQueueUpdate: the target runs its
 * idle thread; doMaskReschedule at the exit), and each thread runs only
 * on its SC's core. */
static void test_sim_remote_signal(void **state)
{
    (void)state;
    static const char wl[] = "cores 2\nhorizon 2000000\nntfn n0\n"
                             "sc s0 budget=8000 period=8000\nsc s1 budget=8000 period=8000 core=1\n"
                             "thread waiter prio=100 sc=s0 prog=wait:n0,compute:500,loop\n"
                             "thread spinner prio=50 sc=s1 prog=compute:20000,signal:n0,loop\n";
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        struct sim *s = simulate(wl, v);
        const struct sim_kernel *k = &s->k[0];
        int waiter = tc_tcb_named(&k->ks, "waiter"), spinner = tc_tcb_named(&k->ks, "spinner");
        uint32_t signals = 0, ipis[2] = {0, 0};
        for (size_t i = 0; i < k->n_marks; i++) {
            signals += k->marks[i].kind == SE_SYSCALL && k->marks[i].core == 1;
            if (k->marks[i].kind != SE_IPI)
                continue;
            ipis[k->marks[i].core]++;
            if (k->marks[i].core == 1) /* the root's TCB_Resume of the spinner at boot */
                assert_int_equal(k->marks[i].t, 0);
        }
        assert_true(signals >= 99);
        assert_int_equal(ipis[0], signals);
        assert_int_equal(ipis[1], 1);
        for (size_t i = 0; i < k->n_segs; i++) {
            if (k->segs[i].tcb == waiter)
                assert_int_equal(k->segs[i].core, 0);
            if (k->segs[i].tcb == spinner)
                assert_int_equal(k->segs[i].core, 1);
        }
        sim_free(s);
        free(s);
    }
}

/* Core 1 suspends the thread core 0 runs: remoteTCBStall takes core 0 to
 * its idle thread at once (ipiStallCoreCallback), and the reschedule IPI
 * core 1 sends at its exit makes core 0 choose the next ready thread. */
static void test_sim_remote_stall(void **state)
{
    (void)state;
    static const char wl[] = "cores 2\nhorizon 40000\n"
                             "sc s0 budget=8000 period=8000\nsc s1 budget=8000 period=8000 core=1\n"
                             "sc s2 budget=2000 period=10000\n"
                             "thread victim prio=10 sc=s0 prog=compute:1000000,loop\n"
                             "thread low prio=5 sc=s2 prog=compute:300,yield,loop\n"
                             "thread killer prio=50 sc=s1 prog=compute:5000,suspend:victim,compute:1000000\n";
    struct sim *s = simulate(wl, FP_FIXED);
    const struct sim_kernel *k = &s->k[0];
    int victim = tc_tcb_named(&k->ks, "victim"), low = tc_tcb_named(&k->ks, "low");
    assert_int_equal(k->ks.tcbs[victim].state, TS_Inactive);
    /* the suspend: the first system call of core 1 */
    ticks_t t = 0;
    for (size_t i = 0; i < k->n_marks && !t; i++)
        if (k->marks[i].kind == SE_SYSCALL && k->marks[i].core == 1)
            t = k->marks[i].t;
    assert_true(t > 5000);
    bool victim_after = false, low_after = false, ipi_after = false;
    for (size_t i = 0; i < k->n_segs; i++)
        if (k->segs[i].core == 0 && k->segs[i].t0 >= t) {
            victim_after |= k->segs[i].tcb == victim;
            low_after |= k->segs[i].tcb == low;
        }
    for (size_t i = 0; i < k->n_marks; i++)
        ipi_after |= k->marks[i].kind == SE_IPI && k->marks[i].core == 0 && k->marks[i].t >= t;
    assert_false(victim_after);
    assert_true(low_after);
    assert_true(ipi_after);
    sim_free(s);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_ppis), cmocka_unit_test(test_swap_is_a_relabelling), cmocka_unit_test(test_remote_stall),
        cmocka_unit_test(test_no_stall),              cmocka_unit_test(test_tcb_invocation_stalls),
        cmocka_unit_test(test_domain_set_remote_running), cmocka_unit_test(test_domain_set_remote_ready),
        cmocka_unit_test(test_sc_invocation_stalls),  cmocka_unit_test(test_donate_stalls),
        cmocka_unit_test(test_configure_on_other_core), cmocka_unit_test(test_bind_migrates),
        cmocka_unit_test(test_outranked_only_with_ipi), cmocka_unit_test(test_no_domains_on_smp),
        cmocka_unit_test(test_ready_by_latest_clock), cmocka_unit_test(test_reprogram_pending),
        cmocka_unit_test(test_configure_unbound_and_blocked), cmocka_unit_test(test_sim_remote_signal),
        cmocka_unit_test(test_sim_remote_stall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
