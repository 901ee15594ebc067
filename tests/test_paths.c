/*
 * Scenario tests: hand-built states through both interrupt paths. Expected
 * outcomes are worked out from the kernel's code in the comments; where
 * the proposed fastpath departs from the slowpath, the test pins the
 * divergence (the proposal is modelled as proposed).
 */
#include "tcommon.h"

#include "print.h"

/* Check the entry state, run both paths, and show the verdict on failure. */
static void run_both(struct tc_run *r, int variant)
{
    tc_assert_valid(r->in, INV_AT_ENTRY);
    diff_run(r->in, variant, true, &r->v, r->slow, r->fast);
    if (!r->v.agree)
        diff_report(stderr, &r->v, r->slow, r->fast);
}

static void assert_agree(struct tc_run *r, int exit)
{
    assert_int_equal(r->v.exit, exit);
    assert_true(r->v.agree);
    tc_assert_no_asserts(r->slow);
    tc_assert_no_asserts(r->fast);
    tc_assert_valid(r->slow, INV_AT_EXIT);
}

/* irquser on imx8mm: 8 MHz, so 5 ms = 40000 ticks; the spinner's RR head
 * holds 30000, its tail 10000; it ran 1 ms = 8000 ticks since T0. */
static void test_irquser_slowpath(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    int h = tc_tid(r->in, "handler"), s = tc_tid(r->in, "spinner");
    int sc_s = r->in->tcbs[s].sc, sc_h = r->in->tcbs[h].sc;
    ks_copy(r->slow, r->in);
    handleInterruptEntry(r->slow);
    tc_assert_no_asserts(r->slow);
    /* sendSignal -> possibleSwitchTo(handler); schedule(): the spinner is
     * enqueued at the head of priority 253, the handler (254 > 253) is
     * switched to. */
    assert_int_equal(r->slow->cur_thread, h);
    assert_int_equal(r->slow->cur_sc, sc_h);
    assert_true(r->slow->tcbs[s].queued);
    assert_int_equal(ready_queue_head(r->slow, 0, 0, 253), s);
    assert_int_equal(r->slow->tcbs[h].state, TS_Running);
    assert_int_equal(r->slow->tcbs[h].badge_reg, 1);
    assert_int_equal(r->slow->ntfns[0].state, NTFN_Idle);
    /* switchSchedContext commits 8000 ticks to the spinner's RR SC: head
     * 30000 - 8000, tail 10000 + 8000 */
    assert_int_equal(r->slow->consumed, 0);
    assert_int_equal(refill_head(r->slow, sc_s)->amount, 22000);
    assert_int_equal(refill_tail(r->slow, sc_s)->amount, 18000);
    assert_int_equal(r->slow->scs[sc_s].consumed, 8000);
    /* setNextInterrupt: ksCurTime + the handler's 40000-tick head */
    assert_int_equal(r->slow->cur_time, PRESET_T0 + 8000);
    assert_int_equal(r->slow->deadline, PRESET_T0 + 8000 + 40000);
    assert_false(r->slow->reprogram);
    assert_true(r->slow->irq_masked[PRESET_IRQ]);
    assert_int_equal(r->slow->irq_acks[PRESET_IRQ], 1);
    tc_assert_valid(r->slow, INV_AT_EXIT);
    tc_run_free(r);
}

/* The proposal takes the direct switch and leaves the outcome equal but
 * for the timer: its getNextInterrupt before the switch is the spinner's
 * T0+8000+30000 (head not yet charged), after it T0+8000+40000, which is
 * not earlier, so it keeps the old deadline T0+30000 that the spinner's
 * slice had programmed. The timer fires 18000 ticks (2.25 ms) early. */
static void test_irquser_fastpath(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    assert_int_equal(r->in->deadline, PRESET_T0 + 30000);
    run_both(r, FP_PR1227);
    assert_int_equal(r->v.exit, FP_EXIT_SWITCH);
    assert_int_equal(r->v.fields, 1u << DF_DEADLINE);
    assert_int_equal(r->fast->deadline, PRESET_T0 + 30000);
    assert_int_equal(r->slow->deadline, PRESET_T0 + 48000);
    tc_assert_no_asserts(r->fast);
    run_both(r, FP_FIXED);
    assert_agree(r, FP_EXIT_SWITCH);
    tc_run_free(r);
}

/* No switch: the handler (253) is woken below the running 254. Slowpath:
 * schedule() enqueues the current thread, the candidate fails fast (lower
 * priority, not highest) and is enqueued at the head of 253; chooseThread
 * resumes the spinner. Fastpath: tcbSchedEnqueue(handler). Time is
 * committed lazily on both sides after normalisation. */
static void test_noswitch(void **state)
{
    (void)state;
    static const char *const boards[] = {"imx8mm", "imx8mq", "odroidc4", "tqma", "tx1", "zcu106"};
    for (unsigned b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        struct tc_run *r = tc_run_new();
        assert_int_equal(preset_noswitch(r->in, boards[b]), 0);
        int h = tc_tid(r->in, "handler"), s = tc_tid(r->in, "spinner");
        run_both(r, FP_PR1227);
        assert_agree(r, FP_EXIT_ENQUEUE);
        assert_int_equal(r->fast->cur_thread, s);
        assert_int_equal(ready_queue_head(r->fast, 0, 0, 253), h);
        assert_int_equal(r->fast->tcbs[h].badge_reg, 1);
        tc_run_free(r);
    }
}

/* An active notification ORs the IRQ badge into its word; both paths. */
static void test_active_ntfn(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    int h = tc_tid(r->in, "handler");
    /* the handler is not waiting: it runs (ready) and the word holds 0x2 */
    struct kstate *ks = r->in;
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->ntfns[0].state = NTFN_Active;
    ks->ntfns[0].msg_id = 0x2;
    ks->tcbs[h].blocking = KS_NONE;
    ks->tcbs[h].prio = 100;
    build_ready(ks, h);
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_ACTIVE);
    assert_int_equal(r->fast->ntfns[0].msg_id, 0x3);
    assert_int_equal(r->fast->ntfns[0].state, NTFN_Active);
    tc_run_free(r);
}

/* Idle notification and nobody waiting: it becomes active with the badge.
 * The same with a bound thread that is not blocked on receive. */
static void test_idle_ntfn(void **state)
{
    (void)state;
    for (int bound = 0; bound < 2; bound++) {
        struct tc_run *r = tc_run_new();
        assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
        struct kstate *ks = r->in;
        int h = tc_tid(ks, "handler");
        ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
        ks->ntfns[0].state = NTFN_Idle;
        ks->tcbs[h].blocking = KS_NONE;
        ks->tcbs[h].prio = 100;
        build_ready(ks, h);
        if (bound)
            build_bind_ntfn(ks, h, 0);
        run_both(r, FP_PR1227);
        assert_agree(r, FP_EXIT_IDLE);
        assert_int_equal(r->fast->ntfns[0].state, NTFN_Active);
        assert_int_equal(r->fast->ntfns[0].msg_id, 1);
        tc_run_free(r);
    }
}

/* A bound thread blocked receiving on an endpoint with a reply object:
 * cancelIPC dequeues it (endpoint goes idle), unlinks the reply, and the
 * signal wakes it; at 254 over 253 the fastpath switches directly. */
static void test_bound_recv_cancel(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    int h = tc_tid(ks, "handler");
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->ntfns[0].state = NTFN_Idle;
    build_bind_ntfn(ks, h, 0);
    int ep = build_ep(ks, "ep");
    int rep = ks_add_reply(ks, "reply");
    build_recv_ep(ks, h, ep, rep);
    run_both(r, FP_PR1227);
    assert_int_equal(r->v.exit, FP_EXIT_SWITCH);
    /* the same deadline divergence as irquser, nothing else */
    assert_int_equal(r->v.fields, 1u << DF_DEADLINE);
    assert_int_equal(r->fast->eps[ep].state, EP_Idle);
    assert_int_equal(r->fast->replies[rep].tcb, KS_NONE);
    assert_int_equal(r->fast->tcbs[h].reply, KS_NONE);
    assert_int_equal(r->slow->cur_thread, h);
    tc_run_free(r);
}

/* Passive server: the waiter has no SC; the notification's SC is donated.
 * Slowpath: maybeDonateSchedContext -> schedContext_donate + resume. */
static void test_passive_donation(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_noswitch(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    int h = tc_tid(ks, "handler");
    int sc = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[sc].tcb = KS_NONE;
    build_bind_sc_ntfn(ks, sc, 0);
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_ENQUEUE);
    assert_int_equal(r->fast->tcbs[h].sc, sc);
    assert_int_equal(r->fast->scs[sc].tcb, h);
    assert_true(r->fast->tcbs[h].queued);
    tc_run_free(r);
}

/* A woken thread whose SC is not configured is not schedulable: it runs
 * nowhere until it gets budget; both paths agree. */
static void test_woken_unschedulable(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_noswitch(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    int h = tc_tid(ks, "handler");
    ks->scs[ks->tcbs[h].sc].refill_max = 0;
    ks->scs[ks->tcbs[h].sc].budget = 0;
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_NOT_SCHEDULABLE);
    assert_int_equal(r->fast->tcbs[h].state, TS_Running);
    assert_false(r->fast->tcbs[h].queued);
    tc_run_free(r);
}

/* ---- every fallback: the slowpath runs on the untouched state, so the
 * outcomes agree by construction; the test pins the exit taken ---- */

static void check_fallback(struct tc_run *r, int exit)
{
    run_both(r, FP_PR1227);
    assert_int_equal(r->v.exit, exit);
    assert_true(fp_exit_is_fallback(exit));
    assert_true(r->v.agree);
}

static void test_fallback_not_signal(void **state)
{
    (void)state;
    static const int states[] = {IRQ_Timer, IRQ_Reserved, IRQ_Inactive};
    for (unsigned i = 0; i < 3; i++) {
        struct tc_run *r = tc_run_new();
        assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
        build_irq_state(r->in, PRESET_IRQ, states[i]);
        check_fallback(r, FP_SLOW_NOT_SIGNAL);
        tc_run_free(r);
    }
}

/* The timer IRQ: ackDeadlineIRQ parks the compare value and forces a
 * reprogram; setNextInterrupt then programs ksCurTime + the spinner's head
 * (30000 - 8000 after commitTime) = T0 + 8000 + 22000. */
static void test_timer_irq(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    build_irq_state(r->in, PRESET_IRQ, IRQ_Timer);
    check_fallback(r, FP_SLOW_NOT_SIGNAL);
    assert_int_equal(r->slow->deadline, PRESET_T0 + 8000 + 22000);
    assert_false(r->slow->irq_masked[PRESET_IRQ]);
    assert_int_equal(r->slow->irq_acks[PRESET_IRQ], 1);
    assert_int_equal(r->slow->cur_thread, tc_tid(r->slow, "spinner"));
    tc_run_free(r);
}

static void test_fallback_no_sc(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    int h = tc_tid(ks, "handler");
    ks->scs[ks->tcbs[h].sc].tcb = KS_NONE;
    ks->tcbs[h].sc = KS_NONE;
    check_fallback(r, FP_SLOW_NO_SC);
    /* woken without an SC: Running but not schedulable, spinner goes on */
    assert_int_equal(r->slow->tcbs[h].state, TS_Running);
    assert_int_equal(r->slow->cur_thread, tc_tid(r->slow, "spinner"));
    tc_run_free(r);
}

static void test_fallback_fpu(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_noswitch(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    build_core1(ks);
    int h = tc_tid(ks, "handler");
    int sc = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[sc].tcb = KS_NONE;
    build_bind_sc_ntfn(ks, sc, 0);
    ks->tcbs[h].fpu_live = true;
    check_fallback(r, FP_SLOW_FPU);
    tc_run_free(r);
}

static void test_fallback_domain(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    ks->cfg.num_domains = 2;
    ks->dom_len = 2;
    ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000));
    ks->tcbs[tc_tid(ks, "handler")].domain = 1;
    check_fallback(r, FP_SLOW_DOMAIN_CORE);
    /* another domain: possibleSwitchTo only enqueues it */
    assert_true(r->slow->tcbs[tc_tid(r->slow, "handler")].queued);
    assert_int_equal(r->slow->cur_thread, tc_tid(r->slow, "spinner"));
    tc_run_free(r);
}

/* A woken thread whose head refill is not ready: only in a state that
 * breaks released_ipc_queues, which the checker reports. */
static void test_fallback_refill(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_noswitch(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    int sc = ks->tcbs[tc_tid(ks, "handler")].sc;
    ks->scs[sc].refills[0].time = ks->cur_time + 1;
    ks->scs[sc].refills[1].time = ks->cur_time + 1;
    struct inv_report rep;
    assert_int_not_equal(kstate_check(ks, INV_AT_ENTRY, &rep), 0);
    assert_true(inv_has(&rep, INV_RELEASED));
    diff_run(ks, FP_PR1227, false, &r->v, r->slow, r->fast);
    assert_int_equal(r->v.exit, FP_SLOW_REFILL);
    tc_run_free(r);
}

static void test_fallback_vspace(void **state)
{
    (void)state;
    static const int exits[] = {FP_SLOW_VTABLE, FP_SLOW_ASID, FP_SLOW_VMID};
    for (int i = 0; i < 3; i++) {
        struct tc_run *r = tc_run_new();
        assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
        struct kstate *ks = r->in;
        struct ks_tcb *h = &ks->tcbs[tc_tid(ks, "handler")];
        if (i == 0)
            h->vtable_ok = false;
        if (i == 1)
            h->asid_ok = false;
        if (i == 2) {
            ks->cfg.hyp = true;
            h->vmid_ok = false;
        }
        check_fallback(r, exits[i]);
        /* the slowpath switches anyway (to the kernel's global vspace) */
        assert_int_equal(r->slow->cur_thread, tc_tid(r->slow, "handler"));
        tc_run_free(r);
    }
}

/* Spurious: no valid IRQ; both paths change nothing but time. */
static void test_spurious(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    r->in->active_irq = KS_IRQ_INVALID;
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_SPURIOUS);
    assert_int_equal(r->slow->irq_acks[PRESET_IRQ], 0);
    assert_int_equal(r->slow->ntfns[0].state, NTFN_Waiting);
    tc_run_free(r);
}

/* Out of range (above maxIRQ 160 on imx8mm): masked and acked by both. */
static void test_out_of_range(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    r->in->active_irq = 161;
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_OUT_OF_RANGE);
    assert_int_equal(r->fast->oor_irq, 161);
    assert_true(r->fast->oor_masked);
    assert_int_equal(r->fast->oor_acks, 1);
    assert_int_equal(r->slow->oor_irq, 161);
    assert_true(r->slow->oor_masked);
    assert_int_equal(r->slow->oor_acks, 1);
    tc_run_free(r);
}

/* A cap that cannot send: masked and acked, the notification untouched. */
static void test_undelivered(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    r->in->irq_cap[PRESET_IRQ].can_send = false;
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_UNDELIVERED);
    assert_int_equal(r->fast->ntfns[0].state, NTFN_Waiting);
    assert_true(r->fast->irq_masked[PRESET_IRQ]);
    tc_run_free(r);
}

/* Equal priority: the slowpath appends the woken thread behind the
 * current one (SCHED_APPEND), the fastpath tcbSchedAppend: agree. */
static void test_equal_priority_append(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    r->in->tcbs[tc_tid(r->in, "handler")].prio = 253;
    run_both(r, FP_PR1227);
    assert_agree(r, FP_EXIT_APPEND);
    assert_int_equal(ready_queue_tail(r->fast, 0, 0, 253), tc_tid(r->fast, "handler"));
    tc_run_free(r);
}

/* The idle thread runs and a priority-0 handler is woken: the slowpath's
 * schedule() switches to it (the idle thread is never "runnable"); the
 * proposal compares priorities only (0 >= 0), appends the handler and
 * leaves the system idle with a ready thread. */
static void test_idle_equal_priority(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    int s = tc_tid(ks, "spinner");
    int h = tc_tid(ks, "handler");
    /* the spinner blocks on an endpoint; idle runs */
    int ep = build_ep(ks, "ep");
    build_recv_ep(ks, s, ep, KS_NONE);
    ks->cur_thread = ks->idle_thread;
    ks->vspace = KS_NONE; /* Arch_switchToIdleThread */
    ks->cur_sc = ks->idle_sc;
    ks->consumed = 0;
    build_deadline(ks);
    ks->tcbs[h].prio = 0;
    run_both(r, FP_PR1227);
    assert_int_equal(r->v.exit, FP_EXIT_APPEND);
    assert_int_equal(r->slow->cur_thread, h);
    assert_int_equal(r->fast->cur_thread, ks->idle_thread);
    assert_true(r->v.fields & (1u << DF_CUR_THREAD));
    assert_true(r->v.fields & (1u << DF_INVARIANT));
    tc_run_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_irquser_slowpath),
        cmocka_unit_test(test_irquser_fastpath),
        cmocka_unit_test(test_noswitch),
        cmocka_unit_test(test_active_ntfn),
        cmocka_unit_test(test_idle_ntfn),
        cmocka_unit_test(test_bound_recv_cancel),
        cmocka_unit_test(test_passive_donation),
        cmocka_unit_test(test_woken_unschedulable),
        cmocka_unit_test(test_fallback_not_signal),
        cmocka_unit_test(test_timer_irq),
        cmocka_unit_test(test_fallback_no_sc),
        cmocka_unit_test(test_fallback_fpu),
        cmocka_unit_test(test_fallback_domain),
        cmocka_unit_test(test_fallback_refill),
        cmocka_unit_test(test_fallback_vspace),
        cmocka_unit_test(test_spurious),
        cmocka_unit_test(test_out_of_range),
        cmocka_unit_test(test_undelivered),
        cmocka_unit_test(test_equal_priority_append),
        cmocka_unit_test(test_idle_equal_priority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
