/*
 * The signal target in the workload simulator (irqsim sim --target
 * signal): the fastpath kernel runs master's fastpath_signal on every
 * SysSend on a notification. The example workloads examples/signal-*.wl
 * show S4/S5, S9 and S6 over time on the merged fastpath and nothing on
 * the corrected one; the expected figures are argued from the kernel in
 * each test.
 */
#include "tcommon.h"

#include "classify.h"
#include "defect.h"
#include "invariant.h"
#include "refill.h"
#include "scenario.h"
#include "sig_fast.h"
#include "sim.h"
#include "target.h"

#define EX(name) IRQSIM_SRC "/examples/" name

static struct sim *run(const char *file, int variant)
{
    static struct workload w;
    struct scen_error err;
    assert_int_equal(workload_load(file, &w, &err), 0);
    struct sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    w.target = &target_signal;
    assert_int_equal(sim_init(s, &w, variant), 0);
    sim_run(s);
    /* every state either kernel reached passes the checker (the fastpath
     * kernel's with the admit bits of what the variant leaves) */
    assert_true(sim_all_admitted(s));
    assert_int_equal(s->k[0].asserts + s->k[1].asserts, 0);
    assert_false(s->drift);
    return s;
}

static void done(struct sim *s)
{
    sim_free(s);
    free(s);
}

static unsigned sfix(int bit)
{
    return 1u << bit;
}

/* the corrected fastpath agrees at every SysSend, in lockstep and sweep */
static void assert_fixed_agrees(const char *file)
{
    struct sim *s = run(file, SIG_FIXED);
    assert_false(s->diverged);
    assert_int_equal(s->n_found, 0);
    assert_true(s->sweep_checks > 0);
    done(s);
}

/* The sporadic receiver: tx's signal at t=101,501 (IRQ 40 at 100,000,
 * wait returns, 1,500 ticks of compute, the call's tick) wakes rx below
 * tx: enqueue. refill_unblock_check (sporadic.c) stamps rx's ready head
 * refill with ksCurTime: the entry clock on the slowpath (updateTimestamp
 * in handleSyscall), the IRQ entry's clock 100,000 on the fastpath
 * (fastpath.c:694-700): 1,501 ticks earlier (S4), and the fastpath
 * returns with ksReprogram set (S5). Both fixes are needed. */
static void test_sporadic_s4_s5(void **state)
{
    (void)state;
    struct sim *s = run(EX("signal-sporadic.wl"), SIG_MERGED);
    assert_true(s->diverged);
    assert_int_equal(s->div_time, 101501);
    assert_int_equal(s->div_class.target, ENTRY_SIGNAL);
    assert_int_equal(s->div_class.exit, SIG_EXIT_ENQUEUE);
    assert_int_equal(s->div_class.cause, sfix(SFIX_ENTRY_TIME_BIT) | sfix(SFIX_REPROGRAM_BIT));
    char defs[64];
    assert_string_equal(defects_text(&target_signal, cause_defects(&target_signal, s->div_class.cause), defs, sizeof defs),
                        "S4+S5");
    assert_string_equal(s->w->threads[s->div_caller].name, "tx");
    assert_int_equal(sim_found_class(s, &s->div_class), 0);
    /* the entry state, both paths */
    struct kstate *slow = tc_state(), *fast = tc_state();
    ks_copy(slow, s->div_state);
    ks_copy(fast, s->div_state);
    assert_int_equal(slow->sys.entry, ENTRY_SIGNAL);
    assert_int_equal(slow->hw_clock - slow->cur_time, 1501);
    slowpath_signal(slow);
    assert_int_equal(fastpath_signal(fast, SIG_MERGED), SIG_EXIT_ENQUEUE);
    int rx = tc_tcb_named(slow, "rx"), sc = slow->tcbs[rx].sc;
    assert_int_equal(refill_head(slow, sc)->time - refill_head(fast, sc)->time, 1501);
    assert_false(slow->reprogram);
    assert_true(fast->reprogram);
    free(slow);
    free(fast);
    done(s);
    assert_fixed_agrees(EX("signal-sporadic.wl"));
}

/* Two cores: rx (priority 0, SC on core 1) is enqueued on idling core 1;
 * remoteQueueUpdate marks the IPI (the target core runs its idle thread).
 * The slowpath's schedule() sends it at once: rx runs at 100,001. The
 * merged fastpath returns with it pending: tx computes 4,000 ticks and
 * its ack enters the kernel at 104,002, whose schedule() sends it: rx
 * first runs 4,001 ticks late (S9; the unread clock of two cores adds
 * entry_time, as for S4's SMP classes). */
static void test_smp_s9(void **state)
{
    (void)state;
    struct sim *s = run(EX("signal-smp-ipi.wl"), SIG_MERGED);
    assert_true(s->diverged);
    assert_int_equal(s->div_time, 100001);
    assert_int_equal(s->div_class.exit, SIG_EXIT_ENQUEUE);
    assert_true(s->div_class.cause & sfix(SFIX_IPI_BIT));
    char defs[64];
    assert_non_null(strstr(defects_text(&target_signal, cause_defects(&target_signal, s->div_class.cause), defs,
                                          sizeof defs), "S9"));
    struct sim_conseq c;
    sim_consequences(s, &c);
    assert_int_equal(c.late, 1);
    assert_int_equal(c.max_late, 4001);
    /* the fastpath kernel's entries after it were admitted with the ipi bit */
    assert_int_equal(target_admit_left_by(&target_signal, SIG_MERGED) & INV_ADMIT_IPI, INV_ADMIT_IPI);
    done(s);
    assert_fixed_agrees(EX("signal-smp-ipi.wl"));
}

/* the first sweep class whose cause is exactly S10's fix (outranked), or NULL */
static const struct sim_found *s10_class(const struct sim *s)
{
    for (uint32_t i = 0; i < s->n_found; i++)
        if (s->found[i].cl.cause == SFIX(SFIX_OUTRANKED))
            return &s->found[i];
    return NULL;
}

/* examples/signal-smp-ipi-race.wl: c1's first signal (core 1, after its
 * 3,000 ticks of compute; it first runs when core 0's boot IPI reaches
 * core 1, ipi_latency 40 after time 0) wakes hi on core 0 and sends the
 * reschedule IPI at t=3,041 (40 + 3,000 + the call's tick); core 0 can
 * take it from 3,081. lo makes a system call every tick, so one of its
 * signals enters in [3,041, 3,081) with hi queued above it: the slowpath
 * switches to hi; the merged fastpath appends r and returns to lo (S10,
 * exit append). With ipi_latency 0 the IPI is taken before any of lo's
 * calls: no entry races it and S10 is never shown. */
static void test_smp_s10_ipi_race(void **state)
{
    (void)state;
    struct sim *s = run(EX("signal-smp-ipi-race.wl"), SIG_MERGED);
    const struct sim_found *f = s10_class(s);
    assert_non_null(f);
    assert_int_equal(f->cl.exit, SIG_EXIT_APPEND);
    assert_true(f->t >= 3041 && f->t < 3081);
    assert_int_equal(f->caller, 2); /* lo, the workload's third thread */
    assert_true(s->k[0].ipi_raced > 0);
    done(s);
    assert_fixed_agrees(EX("signal-smp-ipi-race.wl"));
    /* the same workload with the IPI taken at once */
    static struct workload w;
    struct scen_error err;
    assert_int_equal(workload_load(EX("signal-smp-ipi-race.wl"), &w, &err), 0);
    w.ipi_latency = 0;
    s = calloc(1, sizeof *s);
    assert_non_null(s);
    assert_int_equal(sim_init(s, &w, SIG_MERGED), 0);
    sim_run(s);
    assert_true(sim_all_admitted(s));
    assert_int_equal(s->k[0].ipi_raced + s->k[1].ipi_raced, 0);
    assert_null(s10_class(s));
    done(s);
}

/* seL4_Send with an extra cap that does not resolve: the slowpath's
 * lookupExtraCaps fails, tx takes a cap fault with no handler and is left
 * Inactive at the send (a resume would make it again: the restart PC), so
 * rx is never woken and IRQ 40 stays masked; the merged fastpath signals
 * (S6) and tx goes on acking. The corrected fastpath falls back
 * (slow_msginfo) and faults tx too. */
static void test_badcap_s6(void **state)
{
    (void)state;
    struct sim *s = run(EX("signal-badcap.wl"), SIG_MERGED);
    assert_true(s->diverged);
    assert_int_equal(s->div_class.exit, SIG_EXIT_ENQUEUE);
    assert_int_equal(s->div_class.cause, sfix(SFIX_MSG_INFO_BIT));
    int tx = tc_tcb_named(&s->k[0].ks, "tx");
    assert_int_equal(s->k[0].ks.tcbs[tx].state, TS_Inactive);
    assert_int_equal(s->k[0].pc[tx], 2);
    assert_int_not_equal(s->k[1].ks.tcbs[tx].state, TS_Inactive);
    assert_true(s->k[0].ks.irq_masked[40]);
    assert_true(s->k[1].entries[SE_DEVICE] > s->k[0].entries[SE_DEVICE]);
    done(s);
    s = run(EX("signal-badcap.wl"), SIG_FIXED);
    assert_false(s->diverged);
    assert_int_equal(s->k[1].ks.tcbs[tx].state, TS_Inactive);
    assert_int_equal(s->k[1].pc[tx], 2);
    done(s);
}

/* The IRQ target's kernels are untouched by the signal instructions: a
 * send:NTFN:badcap faults the caller on both (no signal fastpath), and
 * signals take the slowpath on both. */
static void test_irq_target_sends_slow(void **state)
{
    (void)state;
    static struct workload w;
    struct scen_error err;
    assert_int_equal(workload_load(EX("signal-badcap.wl"), &w, &err), 0);
    struct sim *s = calloc(1, sizeof *s);
    w.target = &target_irq; /* the file names the signal target */
    assert_int_equal(sim_init(s, &w, FP_FIXED), 0);
    sim_run(s);
    assert_int_equal(s->target->entry, ENTRY_IRQ);
    int tx = tc_tcb_named(&s->k[0].ks, "tx");
    for (int k = 0; k < 2; k++)
        assert_int_equal(s->k[k].ks.tcbs[tx].state, TS_Inactive);
    assert_true(sim_all_admitted(s));
    done(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sporadic_s4_s5),
        cmocka_unit_test(test_smp_s9),
        cmocka_unit_test(test_smp_s10_ipi_race),
        cmocka_unit_test(test_badcap_s6),
        cmocka_unit_test(test_irq_target_sends_slow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
