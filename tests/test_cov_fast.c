/*
 * Coverage tests of sim/irq_fast.c: every decision of the fastpath model,
 * in the proposal (no fixes), in the corrected fastpath (FIX_ALL) and with
 * single fixes left out, each condition shown to change the exit taken on
 * its own (MC/DC, .ci/mcdc.sh). Each test states the kernel behaviour it
 * checks: fastpath_irq in src/fastpath/fastpath.c of seL4 PR #1227 at
 * 2b302023d, and handleInterruptEntry / sendSignal / schedule of the
 * slowpath for the fallbacks and the corrected fastpath's agreement.
 *
 * States are built from the seL4Bench presets (check/presets.c: imx8mm,
 * 8 MHz, MIN_BUDGET 160 ticks; a spinner at 253 ran 8000 ticks since T0 and
 * a handler at 254 waits on IRQ 40's notification) and checked against the
 * entry invariants, except where a test says it builds a state the kernel
 * cannot reach to exercise a defensive check.
 */
#include "tcommon.h"

#include "cost.h"
#include "print.h"

/* Counting the work (sim/cost_hooks.h) never changes an outcome: the path run
 * with a cost recorder leaves the same state and takes the same exit as
 * without one. slow: the slowpath, else the fastpath with these fixes. */
static void counted_same(const struct kstate *in, bool slow, unsigned fixes)
{
    struct kstate *plain = tc_state(), *counted = tc_state();
    struct cost_rec rec;
    cost_reset(&rec);
    ks_copy(plain, in);
    ks_copy(counted, in);
    counted->cost = &rec;
    int e1 = -1, e2 = -1;
    if (slow) {
        handleInterruptEntry(plain);
        handleInterruptEntry(counted);
    } else {
        e1 = fastpath_irq_fixes(plain, fixes);
        e2 = fastpath_irq_fixes(counted, fixes);
    }
    counted->cost = NULL;
    assert_int_equal(e1, e2);
    assert_true(ks_same(plain, counted));
    assert_true(cost_all(&rec.c) > 0);
    free(plain);
    free(counted);
}

/* Both paths from f->in; the verdict is shown when they disagree. */
static void both(struct tc_run *f, int variant)
{
    counted_same(f->in, true, 0);
    counted_same(f->in, false, fp_variant_fixes(variant));
    diff_run(f->in, variant, true, &f->v, f->slow, f->fast);
    if (!f->v.agree)
        diff_report(stderr, &f->v, f->slow, f->fast);
}

/* A valid entry state, both paths, the exit expected, full agreement and
 * a valid outcome without kernel assertions. */
static void agree(struct tc_run *f, int variant, int exit)
{
    tc_assert_valid(f->in, INV_AT_ENTRY);
    both(f, variant);
    assert_string_equal(fp_exit_name(f->v.exit), fp_exit_name(exit));
    assert_true(f->v.agree);
    tc_assert_no_asserts(f->slow);
    tc_assert_no_asserts(f->fast);
    tc_assert_valid(f->slow, INV_AT_EXIT);
}

/* The fastpath alone with a given fix set, on f->fast. */
static int fast_only(struct tc_run *f, unsigned fixes)
{
    counted_same(f->in, false, fixes);
    ks_copy(f->fast, f->in);
    return fastpath_irq_fixes(f->fast, fixes);
}

static void irquser(struct tc_run *f)
{
    assert_int_equal(preset_irquser(f->in, "imx8mm"), 0);
}

static void noswitch(struct tc_run *f)
{
    assert_int_equal(preset_noswitch(f->in, "imx8mm"), 0);
}

/* Make the handler passive: its SC moves to the IRQ's notification. */
static int make_passive(struct kstate *ks)
{
    int h = tc_tid(ks, "handler");
    int sc = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[sc].tcb = KS_NONE;
    build_bind_sc_ntfn(ks, sc, 0);
    return sc;
}

/* ---- names and variants ---- */

static void test_exit_names(void **state)
{
    (void)state;
    for (int e = 0; e < FP_EXIT_COUNT; e++) {
        assert_string_not_equal(fp_exit_name(e), "?");
        assert_string_not_equal(fp_exit_what(e), "?");
        /* the fallbacks are exactly the slow_* exits */
        assert_int_equal(fp_exit_is_fallback(e), strncmp(fp_exit_name(e), "slow_", 5) == 0);
    }
    assert_string_equal(fp_exit_name(FP_EXIT_SWITCH), "switch");
    assert_true(fp_exit_is_fallback(FP_SLOW_BUDGET));
    assert_false(fp_exit_is_fallback(FP_EXIT_SPURIOUS));
    static const int bad[] = {-1, FP_EXIT_COUNT, 1000};
    for (unsigned i = 0; i < 3; i++) {
        assert_string_equal(fp_exit_name(bad[i]), "?");
        assert_string_equal(fp_exit_what(bad[i]), "?");
        assert_false(fp_exit_is_fallback(bad[i]));
    }
}

static void test_fix_names(void **state)
{
    (void)state;
    for (int b = 0; b < FIX_COUNT; b++) {
        assert_string_not_equal(fp_fix_name(b), "?");
        assert_string_not_equal(fp_fix_what(b), "?");
    }
    assert_string_equal(fp_fix_name(FIX_ENTRY_TIME_BIT), "entry_time");
    assert_string_equal(fp_fix_name(FIX_REPROGRAM_BIT), "reprogram_flag");
    assert_string_equal(fp_fix_name(-1), "?");
    assert_string_equal(fp_fix_name(FIX_COUNT), "?");
    assert_string_equal(fp_fix_what(-1), "?");
    assert_string_equal(fp_fix_what(FIX_COUNT), "?");
}

static void test_variants(void **state)
{
    (void)state;
    /* the proposal is no fix; the corrected fastpath is every fix */
    assert_int_equal(fp_variant_fixes(FP_PR1227), 0);
    assert_int_equal(fp_variant_fixes(FP_FIXED), FIX_ALL);
    for (int v = 0; v < FP_VARIANT_COUNT; v++)
        assert_int_equal(fp_variant_parse(fp_variant_name(v)), v);
    assert_string_equal(fp_variant_name(FP_PR1227), "pr1227");
    assert_string_equal(fp_variant_name(FP_FIXED), "fixed");
    assert_string_equal(fp_variant_name(-1), "?");
    assert_string_equal(fp_variant_name(FP_VARIANT_COUNT), "?");
    assert_int_equal(fp_variant_parse("PR1227"), -1);
    assert_int_equal(fp_variant_parse(""), -1);
    assert_int_equal(fp_variant_parse("fixed "), -1);
}

/* ---- the corrected fastpath's entry checks ---- */

/* The IRQ arrives when the spinner's slice is used up (the clock at the
 * deadline the slice programmed). handleInterruptEntry's checkBudget finds
 * refill_sufficient(ksCurSC, ksConsumed) false and charges the slice
 * (chargeBudget -> endTimeslice: the spinner goes to the back of its
 * queue); the handler then wins schedule(). The corrected fastpath leaves
 * this interrupt to the slowpath (entry_budget); without that fix it
 * switches directly, and its checkBudget() is false there: commitTime is
 * skipped because chargeBudget already charged. */
static void test_entry_budget(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    f->in->hw_clock = f->in->deadline;
    int h = tc_tid(f->in, "handler"), s = tc_tid(f->in, "spinner");
    agree(f, FP_FIXED, FP_SLOW_BUDGET);
    assert_int_equal(f->slow->cur_thread, h);
    assert_true(f->slow->tcbs[s].queued);
    assert_int_equal(ready_queue_tail(f->slow, 0, 0, 253), s);
    /* the entry_budget condition alone decides: without it, a switch */
    assert_int_equal(fast_only(f, FIX_ALL & ~FIX(FIX_ENTRY_BUDGET)), FP_EXIT_SWITCH);
    assert_int_equal(f->fast->cur_thread, h);
    assert_int_equal(fast_only(f, 0), FP_EXIT_SWITCH);
    /* with budget left (the preset's clock) the fixed fastpath switches */
    irquser(f);
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    tc_run_free(f);
}

/* The idle thread runs (the spinner is blocked) and a priority-0 handler
 * is woken. The idle SC is never charged (chargeBudget leaves it alone),
 * so the budget check does not apply to it; schedule() leaves the idle
 * thread for any runnable candidate, priority 0 included, which the
 * idle_switch fix mirrors. Without that fix the corrected fastpath appends
 * the handler behind the idle thread, as the proposal does. */
static void test_idle_switch(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int s = tc_tid(ks, "spinner"), h = tc_tid(ks, "handler");
    int ep = build_ep(ks, "ep");
    build_recv_ep(ks, s, ep, KS_NONE);
    ks->cur_thread = ks->idle_thread;
    ks->vspace = KS_NONE; /* Arch_switchToIdleThread */
    ks->cur_sc = ks->idle_sc;
    ks->consumed = 0;
    build_deadline(ks);
    ks->tcbs[h].prio = 0;
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    assert_int_equal(f->fast->cur_thread, h);
    assert_int_equal(f->fast->cur_sc, ks->tcbs[h].sc);
    /* the idle thread is not schedulable: it is not queued on the way out */
    assert_false(f->fast->tcbs[ks->idle_thread].queued);
    assert_int_equal(fast_only(f, FIX_ALL & ~FIX(FIX_IDLE_SWITCH)), FP_EXIT_APPEND);
    assert_int_equal(f->fast->cur_thread, ks->idle_thread);
    /* reswitch has nothing to switch to again from the idle thread (the
     * slowpath switches to the handler): TTBR0 stays the global vspace */
    assert_int_equal(f->fast->vspace, KS_NONE);
    assert_int_equal(fast_only(f, 0), FP_EXIT_APPEND);
    tc_run_free(f);
}

/* reswitch: on the enqueue (noswitch preset) and append (the handler at
 * the spinner's priority) exits the slowpath's schedule() chooses the
 * spinner again and switches to it (switchToThread -> Arch_switchToThread
 * -> setVMRoot on every build, src/arch/arm/64/kernel/thread.c:14-20). A
 * spinner whose VTable cap was deleted while it ran moves to the global
 * vspace there (vspace.c:744-747); the corrected fastpath does the same,
 * without the fix it keeps the spinner's vspace. */
static void test_reswitch(void **state)
{
    (void)state;
    for (int append = 0; append < 2; append++) {
        struct tc_run *f = tc_run_new();
        noswitch(f);
        struct kstate *ks = f->in;
        int s = tc_tid(ks, "spinner"), h = tc_tid(ks, "handler");
        if (append)
            ks->tcbs[h].prio = ks->tcbs[s].prio;
        ks->tcbs[s].vtable_ok = false; /* still running on its vspace */
        assert_int_equal(ks->vspace, s);
        agree(f, FP_FIXED, append ? FP_EXIT_APPEND : FP_EXIT_ENQUEUE);
        assert_int_equal(f->slow->vspace, KS_NONE);
        assert_int_equal(f->fast->vspace, KS_NONE);
        assert_int_equal(fast_only(f, FIX_ALL & ~FIX(FIX_RESWITCH)), append ? FP_EXIT_APPEND : FP_EXIT_ENQUEUE);
        assert_int_equal(f->fast->vspace, s);
        assert_int_equal(fast_only(f, 0), append ? FP_EXIT_APPEND : FP_EXIT_ENQUEUE);
        assert_int_equal(f->fast->vspace, s);
        tc_run_free(f);
    }
}

/* Two domains; the current one has less left than the time since the last
 * entry plus MIN_BUDGET, so updateTimestamp zeroes ksDomainTime and the
 * slowpath's schedule() moves to domain 1 (nothing runs there: idle). The
 * corrected fastpath falls back (entry_domain). */
static void test_entry_domain(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    ks->cfg.num_domains = 2;
    ks->dom_len = 2;
    ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000));
    ks->domain_time = (ks->hw_clock - ks->cur_time) + ks->cfg.min_budget / 2;
    build_deadline(ks);
    agree(f, FP_FIXED, FP_SLOW_DOMAIN_EXPIRED);
    assert_int_equal(f->slow->cur_domain, 1);
    assert_int_equal(f->slow->dom_idx, 1);
    assert_int_equal(f->slow->cur_thread, ks->idle_thread);
    /* the handler was woken into domain 0's ready queue */
    assert_true(f->slow->tcbs[tc_tid(ks, "handler")].queued);
    assert_int_not_equal(fast_only(f, FIX_ALL & ~FIX(FIX_ENTRY_DOMAIN)), FP_SLOW_DOMAIN_EXPIRED);
    /* with time left in the domain, no fallback */
    ks->domain_time = 10 * (ks->hw_clock - ks->cur_time);
    build_deadline(ks);
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    tc_run_free(f);
}

/* A periodic thread sits in the release queue. When its head refill is
 * due by the entry clock, the slowpath's schedule() -> awaken releases it
 * into its ready queue; the corrected fastpath leaves that to the slowpath
 * (entry_release). When it is not yet due, the fastpath proceeds. */
static void test_entry_release(void **state)
{
    (void)state;
    for (int due = 0; due < 2; due++) {
        struct tc_run *f = tc_run_new();
        irquser(f);
        struct kstate *ks = f->in;
        ticks_t at = due ? ks->hw_clock - 1 : ks->hw_clock + 4000;
        int r = build_thread(ks, "rel", 100, 0);
        int sc = build_sc(ks, "sc_rel", r, 4000, 40000, at);
        assert_int_not_equal(sc, KS_NONE);
        build_release(ks, r);
        ks->reprogram = false; /* tcbReleaseEnqueue asked for it; the last exit did it */
        build_deadline(ks);
        if (due) {
            agree(f, FP_FIXED, FP_SLOW_RELEASE);
            assert_int_equal(f->slow->release_head[0], KS_NONE);
            assert_true(f->slow->tcbs[r].queued);
            assert_false(f->slow->tcbs[r].in_release);
            assert_int_equal(f->slow->cur_thread, tc_tid(ks, "handler"));
            assert_int_equal(fast_only(f, FIX_ALL & ~FIX(FIX_ENTRY_RELEASE)), FP_EXIT_SWITCH);
        } else {
            agree(f, FP_FIXED, FP_EXIT_SWITCH);
            assert_int_equal(f->fast->release_head[0], r);
        }
        tc_run_free(f);
    }
}

/* ---- exits before the notification ---- */

/* No valid IRQ (handleSpuriousIRQ only), an IRQ above maxIRQ (mask and ack
 * at the GIC), an IRQ whose state is not IRQSignal (the slowpath handles
 * timer, IPI, reserved and inactive IRQs). */
static void test_early_exits(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct tc_run *f = tc_run_new();
        irquser(f);
        struct kstate *ks = f->in;
        static const int exits[] = {FP_EXIT_SPURIOUS, FP_EXIT_OUT_OF_RANGE, FP_SLOW_NOT_SIGNAL};
        if (k == 0)
            ks->active_irq = KS_IRQ_INVALID;
        else if (k == 1)
            ks->active_irq = (int32_t)ks->cfg.max_irq + 1;
        else
            build_irq_state(ks, PRESET_IRQ, IRQ_Reserved);
        for (int v = 0; v < FP_VARIANT_COUNT; v++) {
            agree(f, v, exits[k]);
            assert_int_equal(f->fast->ntfns[0].state, NTFN_Waiting);
            assert_int_equal(f->fast->cur_thread, tc_tid(ks, "spinner"));
        }
        if (k == 1) {
            assert_true(f->fast->oor_masked);
            assert_int_equal(f->fast->oor_acks, 1);
        }
        tc_run_free(f);
    }
}

/* A receiver whose SC is not configured (scRefillMax 0) is woken but not
 * scheduled: both paths leave it Running and unqueued. With the idle
 * thread running, the corrected fastpath's idle switch does not apply to
 * it either (schedule() would find no schedulable candidate). */
static void test_woken_unschedulable(void **state)
{
    (void)state;
    for (int idle = 0; idle < 2; idle++) {
        struct tc_run *f = tc_run_new();
        noswitch(f);
        struct kstate *ks = f->in;
        int h = tc_tid(ks, "handler"), s = tc_tid(ks, "spinner");
        int sc = ks->tcbs[h].sc;
        ks->scs[sc].refill_max = 0;
        ks->scs[sc].budget = 0;
        memset(ks->scs[sc].refills, 0, sizeof ks->scs[sc].refills);
        ks->scs[sc].head = ks->scs[sc].tail = 0;
        if (idle) {
            int ep = build_ep(ks, "ep");
            build_recv_ep(ks, s, ep, KS_NONE);
            ks->cur_thread = ks->idle_thread;
            ks->vspace = KS_NONE; /* Arch_switchToIdleThread */
            ks->cur_sc = ks->idle_sc;
            ks->consumed = 0;
            build_deadline(ks);
            ks->tcbs[h].prio = 0;
        }
        for (int v = 0; v < FP_VARIANT_COUNT; v++) {
            agree(f, v, FP_EXIT_NOT_SCHEDULABLE);
            assert_int_equal(f->fast->tcbs[h].state, TS_Running);
            assert_false(f->fast->tcbs[h].queued);
            assert_int_equal(f->fast->cur_thread, idle ? ks->idle_thread : s);
        }
        tc_run_free(f);
    }
}

/* Both fastpaths fall back on the refill check, before the point of no
 * return: the slowpath ran on the untouched state, so the outcomes are the
 * same. */
static void expect_refill_fallback(struct tc_run *f, const struct kstate *ks)
{
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        diff_run(ks, v, false, &f->v, f->slow, f->fast);
        assert_int_equal(f->v.exit, FP_SLOW_REFILL);
        assert_int_equal(diff_compare(f->slow, f->fast, NULL), 0);
    }
}

/* A woken thread whose head refill is not yet due: only in a state that
 * breaks released_ipc_queues (a blocked thread's refills are released
 * before it blocks), which the checker reports; the fastpath falls back. */
static void test_refill_not_ready(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    noswitch(f);
    struct kstate *ks = f->in;
    int sc = ks->tcbs[tc_tid(ks, "handler")].sc;
    ks->scs[sc].refills[0].time = ks->hw_clock + 1;
    ks->scs[sc].refills[1].time = ks->hw_clock + 1;
    struct inv_report rep;
    assert_int_not_equal(kstate_check(ks, INV_AT_ENTRY, &rep), 0);
    assert_true(inv_has(&rep, INV_RELEASED));
    expect_refill_fallback(f, ks);
    tc_run_free(f);
}

/* A switch needs the receiver's address space: a VTable cap that is a
 * mapped vspace, and an ASID that still maps it; otherwise the slowpath
 * switches (to the kernel's global vspace). */
static void test_vspace(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        struct tc_run *f = tc_run_new();
        irquser(f);
        struct ks_tcb *h = &f->in->tcbs[tc_tid(f->in, "handler")];
        if (k == 0)
            h->vtable_ok = false;
        else
            h->asid_ok = false;
        for (int v = 0; v < FP_VARIANT_COUNT; v++) {
            agree(f, v, k == 0 ? FP_SLOW_VTABLE : FP_SLOW_ASID);
            assert_int_equal(f->slow->cur_thread, tc_tid(f->in, "handler"));
        }
        tc_run_free(f);
    }
}

/* ---- IRQ and capability checks ---- */

/* The handler cap of a signal IRQ must be a notification cap that can
 * send; otherwise both paths only mask and ack the IRQ (handleInterrupt:
 * "Undelivered IRQ"). */
static void test_cap_kinds(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct tc_run *f = tc_run_new();
        irquser(f);
        struct ks_irq_cap *cap = &f->in->irq_cap[PRESET_IRQ];
        if (k == 0) {
            cap->type = CAP_Null;
            cap->ntfn = KS_NONE;
        } else if (k == 1) {
            cap->type = CAP_Endpoint;
            cap->ntfn = KS_NONE;
        } else {
            cap->can_send = false;
        }
        for (int v = 0; v < FP_VARIANT_COUNT; v++) {
            agree(f, v, FP_EXIT_UNDELIVERED);
            assert_true(f->fast->irq_masked[PRESET_IRQ]);
            assert_int_equal(f->fast->irq_acks[PRESET_IRQ], 1);
            assert_int_equal(f->fast->ntfns[0].state, NTFN_Waiting);
        }
        tc_run_free(f);
    }
}

/* An idle notification delivers to its bound thread only when that thread
 * is blocked receiving (on an endpoint: cancelIPC); with no bound thread,
 * or a bound thread doing something else, it becomes active. */
static void test_idle_ntfn_bound(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct tc_run *f = tc_run_new();
        irquser(f);
        struct kstate *ks = f->in;
        int h = tc_tid(ks, "handler");
        ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
        ks->ntfns[0].state = NTFN_Idle;
        ks->tcbs[h].blocking = KS_NONE;
        int ep = build_ep(ks, "ep");
        if (k == 0) {
            /* unbound: the handler blocks on the endpoint instead */
            build_recv_ep(ks, h, ep, KS_NONE);
        } else if (k == 1) {
            /* bound, but blocked sending */
            build_bind_ntfn(ks, h, 0);
            build_send_ep(ks, h, ep);
        } else {
            build_bind_ntfn(ks, h, 0);
            build_recv_ep(ks, h, ep, KS_NONE);
        }
        agree(f, FP_FIXED, k < 2 ? FP_EXIT_IDLE : FP_EXIT_SWITCH);
        if (k < 2) {
            assert_int_equal(f->fast->ntfns[0].state, NTFN_Active);
            assert_int_equal(f->fast->ntfns[0].msg_id, 1);
            assert_int_equal(f->fast->tcbs[h].blocking, ep);
        } else {
            assert_int_equal(f->fast->eps[ep].state, EP_Idle);
            assert_int_equal(f->fast->cur_thread, h);
            assert_int_equal(f->fast->tcbs[h].badge_reg, 1);
        }
        tc_run_free(f);
    }
}

/* An active notification: the IRQ's badge is ORed into its word and the
 * IRQ masked and acked; nobody is woken (fastpath_irq's NtfnState_Active
 * case, sendSignal's likewise). */
static void test_active_ntfn(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->ntfns[0].state = NTFN_Active;
    ks->ntfns[0].msg_id = 0x4;
    ks->tcbs[h].blocking = KS_NONE;
    ks->tcbs[h].prio = 100;
    build_ready(ks, h);
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        agree(f, v, FP_EXIT_ACTIVE);
        assert_int_equal(f->fast->ntfns[0].msg_id, 0x5);
        assert_true(f->fast->irq_masked[PRESET_IRQ]);
        assert_int_equal(f->fast->cur_thread, tc_tid(ks, "spinner"));
    }
    tc_run_free(f);
}

/* Two threads wait on the notification: the queue is kept in priority
 * order (tcbEPAppend), the head (the handler at 254) is woken and the
 * notification stays Waiting with the other one. */
static void test_two_waiters(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int w = build_thread(ks, "waiter2", 100, 0);
    build_sc(ks, "sc_w2", w, 40000, 0, 0);
    build_wait_ntfn(ks, w, 0);
    int h = tc_tid(ks, "handler");
    assert_int_equal(ks->ntfns[0].q_head, h);
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    assert_int_equal(f->fast->ntfns[0].state, NTFN_Waiting);
    assert_int_equal(f->fast->ntfns[0].q_head, w);
    assert_int_equal(f->fast->ntfns[0].q_tail, w);
    assert_int_equal(f->fast->tcbs[w].ep_prev, KS_NONE);
    assert_int_equal(f->fast->cur_thread, h);
    tc_run_free(f);
}

/* The bound handler receives on an endpoint where a second thread also
 * waits: cancelIPC takes the handler out, the endpoint stays in Recv with
 * the other receiver, and the handler's reply object is unlinked. */
static void test_bound_recv_shared_ep(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->ntfns[0].state = NTFN_Idle;
    build_bind_ntfn(ks, h, 0);
    int ep = build_ep(ks, "ep");
    int rep = ks_add_reply(ks, "reply");
    int o = build_thread(ks, "other", 100, 0);
    build_sc(ks, "sc_other", o, 40000, 0, 0);
    build_recv_ep(ks, o, ep, KS_NONE);
    build_recv_ep(ks, h, ep, rep);
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    assert_int_equal(f->fast->eps[ep].state, EP_Recv);
    assert_int_equal(f->fast->eps[ep].q_head, o);
    assert_int_equal(f->fast->eps[ep].q_tail, o);
    assert_int_equal(f->fast->replies[rep].tcb, KS_NONE);
    assert_int_equal(f->fast->tcbs[h].reply, KS_NONE);
    assert_int_equal(f->fast->cur_thread, h);
    tc_run_free(f);
}

/* A passive receiver and no SC on the notification either: nothing to
 * run on, so the fastpath leaves it to the slowpath, which wakes the
 * handler (Running, no SC: not schedulable) and keeps the spinner. */
static void test_no_sc_anywhere(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    ks->scs[ks->tcbs[h].sc].tcb = KS_NONE;
    ks->tcbs[h].sc = KS_NONE;
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        agree(f, v, FP_SLOW_NO_SC);
        assert_int_equal(f->slow->tcbs[h].state, TS_Running);
        assert_false(f->slow->tcbs[h].queued);
        assert_int_equal(f->slow->cur_thread, tc_tid(ks, "spinner"));
    }
    tc_run_free(f);
}

/* ---- the receiver's scheduling context ---- */

/* The receiver has no SC and the notification's SC is bound to another
 * thread: maybeDonateSchedContext donates nothing (scTcb != NULL), so the
 * fastpath falls back; the slowpath wakes the handler without an SC. */
static void test_ntfn_sc_taken(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    int hsc = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[hsc].tcb = KS_NONE;
    /* a third thread, ready at 100, whose SC is also bound to the ntfn */
    int o = build_thread(ks, "other", 100, 0);
    int osc = build_sc(ks, "sc_other", o, 40000, 0, 0);
    build_ready(ks, o);
    build_bind_sc_ntfn(ks, osc, 0);
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        agree(f, v, FP_SLOW_NO_SC);
        assert_int_equal(f->slow->tcbs[h].state, TS_Running);
        assert_int_equal(f->slow->tcbs[h].sc, KS_NONE);
        assert_int_equal(f->slow->scs[osc].tcb, o);
        assert_int_equal(f->slow->cur_thread, tc_tid(ks, "spinner"));
    }
    tc_run_free(f);
}

/* A passive handler receives the notification's SC (schedContext_donate)
 * and, at 254 over 253, runs at once on it. */
static void test_passive_switch(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    int sc = make_passive(f->in);
    int h = tc_tid(f->in, "handler");
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    assert_int_equal(f->fast->tcbs[h].sc, sc);
    assert_int_equal(f->fast->scs[sc].tcb, h);
    assert_int_equal(f->fast->cur_sc, sc);
    tc_run_free(f);
}

/* SMP builds: donation migrates the receiver to its new SC's core
 * (maybeDonateSchedContext_fp sets the affinity). The FPU check matters
 * only with an FPU and live FPU state; the core check falls back when the
 * SC belongs to core 1 (a remote wake-up needs an IPI). */
static void test_smp_donation(void **state)
{
    (void)state;
    /* no FPU in the build, FPU in the build but not live, FPU live */
    static const int exits[] = {FP_EXIT_ENQUEUE, FP_EXIT_ENQUEUE, FP_SLOW_FPU};
    for (int k = 0; k < 3; k++) {
        struct tc_run *f = tc_run_new();
        noswitch(f);
        struct kstate *ks = f->in;
        build_core1(ks);
        ks->cfg.fpu = k > 0;
        int sc = make_passive(ks);
        int h = tc_tid(ks, "handler");
        ks->tcbs[h].fpu_live = k == 2;
        agree(f, FP_FIXED, exits[k]);
        assert_int_equal(f->slow->tcbs[h].sc, sc);
        assert_int_equal(f->slow->tcbs[h].affinity, 0);
        assert_true(f->slow->tcbs[h].queued);
        tc_run_free(f);
    }
}

static void test_smp_remote_core(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    noswitch(f);
    struct kstate *ks = f->in;
    build_core1(ks);
    int h = tc_tid(ks, "handler");
    ks->tcbs[h].affinity = 1;
    ks->scs[ks->tcbs[h].sc].core = 1;
    agree(f, FP_FIXED, FP_SLOW_DOMAIN_CORE);
    /* the slowpath queues it on core 1 and asks that core to reschedule */
    assert_true(f->slow->tcbs[h].queued);
    assert_int_equal(f->slow->cur_thread, tc_tid(ks, "spinner"));
    tc_run_free(f);
}

/* A receiver in another domain: the slowpath only enqueues it (it cannot
 * run outside its domain); the fastpath leaves that to the slowpath. */
static void test_other_domain(void **state)
{
    (void)state;
    {   /* one core: no SMP build has domains (config.cmake) */
        struct tc_run *f = tc_run_new();
        irquser(f);
        struct kstate *ks = f->in;
        ks->cfg.num_domains = 2;
        ks->dom_len = 2;
        ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000));
        int h = tc_tid(ks, "handler");
        ks->tcbs[h].domain = 1;
        agree(f, FP_FIXED, FP_SLOW_DOMAIN_CORE);
        assert_true(f->slow->tcbs[h].queued);
        assert_int_equal(f->slow->cur_thread, tc_tid(ks, "spinner"));
        tc_run_free(f);
    }
}

/* refill_ready && refill_sufficient: a woken thread's head refill must be
 * due and at least MIN_BUDGET. A due head below MIN_BUDGET cannot occur in
 * a reachable state (refill_new and the charging code keep every head at
 * MIN_BUDGET or more: the checker's "refills" invariant); the fastpath
 * still tests it, and falls back, as the kernel's does. */
static void test_refill_insufficient(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    noswitch(f);
    struct kstate *ks = f->in;
    int sc = ks->tcbs[tc_tid(ks, "handler")].sc;
    ticks_t budget = ks->scs[sc].budget;
    ks->scs[sc].refills[0].amount = ks->cfg.min_budget - 1;
    ks->scs[sc].refills[1].amount = budget - (ks->cfg.min_budget - 1);
    struct inv_report rep;
    assert_int_not_equal(kstate_check(ks, INV_AT_ENTRY, &rep), 0);
    assert_true(inv_has(&rep, INV_REFILLS));
    expect_refill_fallback(f, ks);
    tc_run_free(f);
}

/* Hypervisor builds check the receiver's VMID before a switch. */
static void test_hyp_vmid(void **state)
{
    (void)state;
    for (int ok = 0; ok < 2; ok++) {
        struct tc_run *f = tc_run_new();
        irquser(f);
        f->in->cfg.hyp = true;
        f->in->tcbs[tc_tid(f->in, "handler")].vmid_ok = ok;
        agree(f, FP_FIXED, ok ? FP_EXIT_SWITCH : FP_SLOW_VMID);
        assert_int_equal(f->slow->cur_thread, tc_tid(f->in, "handler"));
        tc_run_free(f);
    }
}

/* ---- after the point of no return ---- */

/* A sporadic receiver SC gets refill_unblock_check when woken (both paths:
 * sendSignal and the fastpath), which moves a head refill that is due up to
 * the current time. On the switch, the cb_unblock fix applies only to
 * constant-bandwidth SCs, so a sporadic one is not checked twice. */
static void test_sporadic_receiver(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    int old = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[old].tcb = KS_NONE;
    int sc = build_sc(ks, "sc_spor", h, 20000, 80000, 0);
    ks->scs[sc].sporadic = true;
    agree(f, FP_FIXED, FP_EXIT_SWITCH);
    assert_int_equal(f->fast->cur_sc, sc);
    /* unblocked: the head refill now starts at the entry time */
    assert_int_equal(refill_head(f->fast, sc)->time, ks->hw_clock);
    assert_int_equal(refill_head(f->slow, sc)->time, ks->hw_clock);
    tc_run_free(f);
}

/* Unreachable: a sporadic receiver SC that is the current SC (the current
 * SC belongs to the running thread, which is not blocked). The fastpath's
 * assert(dest->tcbSchedContext != ksCurSC) fails, and the unblock check is
 * skipped as the kernel's if() says. */
static void test_sporadic_is_current(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    noswitch(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    ks->scs[ks->tcbs[h].sc].tcb = KS_NONE;
    ks->tcbs[h].sc = ks->cur_sc;
    ks->scs[ks->cur_sc].sporadic = true;
    struct ks_sc before = ks->scs[ks->cur_sc];
    assert_int_equal(fast_only(f, 0), FP_EXIT_ENQUEUE);
    assert_int_equal(f->fast->n_asserts, 1);
    assert_int_equal(f->fast->asserts[0].id, A_FP_SPORADIC_CUR);
    assert_int_equal(f->fast->asserts[0].path, PATH_FAST);
    assert_memory_equal(f->fast->scs[ks->cur_sc].refills, before.refills, sizeof before.refills);
    assert_int_equal(f->fast->scs[ks->cur_sc].head, before.head);
    tc_run_free(f);
}

/* The direct switch reprograms the timer in the proposal only when the new
 * thread's budget ends before the old deadline. A handler with a short
 * slice (1000 ticks) ends first: both paths program ksCurTime + 1000. With
 * the preset's equal slices the proposal keeps the old deadline (the
 * divergence test_paths pins), the deadline fix reprograms. */
static void test_switch_deadline(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    int old = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[old].tcb = KS_NONE;
    build_sc(ks, "sc_short", h, 1000, 0, 0);
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        agree(f, v, FP_EXIT_SWITCH);
        assert_int_equal(f->fast->deadline, ks->hw_clock + 1000 - ks->cfg.precision);
    }
    /* equal slices: the deadline fix alone makes the switch reprogram */
    irquser(f);
    assert_int_equal(fast_only(f, FIX(FIX_ENTRY_TIME) | FIX(FIX_DEADLINE)), FP_EXIT_SWITCH);
    assert_int_equal(f->fast->deadline, f->in->hw_clock + refill_head(f->in, f->in->tcbs[h].sc)->amount -
                                            f->in->cfg.precision);
    assert_int_equal(fast_only(f, 0), FP_EXIT_SWITCH);
    assert_int_equal(f->fast->deadline, f->in->deadline);
    tc_run_free(f);
}

/* fastpath_irq_tested names the fixes a run's steps depended on: those
 * whose test it reached, on or off (classification skips the runs that
 * differ from an agreeing one only in fixes it never tested). */
static void test_tested_fixes(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    unsigned tested;
    /* entry_checks reads the clock (entry_time), then the budget check
     * (entry_budget) sends the interrupt to the slowpath: nothing after it
     * is tested */
    irquser(f);
    f->in->hw_clock = f->in->deadline;
    ks_copy(f->fast, f->in);
    assert_int_equal(fastpath_irq_tested(f->fast, FIX_ALL, &tested), FP_SLOW_BUDGET);
    assert_int_equal(tested, FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_BUDGET));
    /* a direct switch with the preset's equal slices passes every test:
     * the four entry checks, idle_switch in check_dest, reprogram_flag in
     * deliver, cb_unblock and deadline (next < prev does not hold) in the
     * switch; the same with every fix off */
    irquser(f);
    ks_copy(f->fast, f->in);
    /* (split_eoi is looked at only on master's GICv3: not on the base
     * kernel; outranked and owed_ipi only on SMP: not on one core;
     * reswitch only on the append and enqueue exits) */
    unsigned on_base =
        FIX_ALL & ~(FIX(FIX_SPLIT_EOI) | FIX(FIX_OUTRANKED) | FIX(FIX_OWED_IPI) | FIX(FIX_RESWITCH));
    assert_int_equal(fastpath_irq_tested(f->fast, FIX_ALL, &tested), FP_EXIT_SWITCH);
    assert_int_equal(tested, on_base);
    ks_copy(f->fast, f->in);
    assert_int_equal(fastpath_irq_tested(f->fast, 0, &tested), FP_EXIT_SWITCH);
    assert_int_equal(tested, on_base);
    /* a handler whose short slice ends before the old deadline: next <
     * prev reprograms by itself, the deadline fix is not looked at */
    struct kstate *ks = f->in;
    int h = tc_tid(ks, "handler");
    int old = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[old].tcb = KS_NONE;
    build_sc(ks, "sc_short", h, 1000, 0, 0);
    ks_copy(f->fast, f->in);
    assert_int_equal(fastpath_irq_tested(f->fast, FIX_ALL, &tested), FP_EXIT_SWITCH);
    assert_int_equal(tested, on_base & ~FIX(FIX_DEADLINE));
    tc_run_free(f);
}

/* ---- states no kernel reaches: the model's record of failed asserts ---- */

/* fastpath_irq: default: fail("Invalid notification state"). The model
 * records the failure and masks and acks the IRQ so the run can end. */
static void test_invalid_ntfn_state(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    f->in->ntfns[0].state = NTFN_COUNT;
    assert_int_equal(fast_only(f, 0), FP_EXIT_ACTIVE);
    assert_int_equal(f->fast->n_asserts, 1);
    assert_int_equal(f->fast->asserts[0].id, A_NTFN_STATE);
    assert_int_equal(f->fast->asserts[0].path, PATH_FAST);
    assert_true(f->fast->irq_masked[PRESET_IRQ]);
    assert_int_equal(f->fast->irq_acks[PRESET_IRQ], 1);
    tc_run_free(f);
}

/* assert(dest != NULL): a waiting notification with an empty queue. */
static void test_waiting_without_waiter(void **state)
{
    (void)state;
    struct tc_run *f = tc_run_new();
    irquser(f);
    f->in->ntfns[0].q_head = f->in->ntfns[0].q_tail = KS_NONE;
    assert_int_equal(fast_only(f, FIX_ALL), FP_EXIT_ACTIVE);
    assert_int_equal(f->fast->n_asserts, 1);
    assert_int_equal(f->fast->asserts[0].id, A_FP_DEST);
    assert_true(f->fast->irq_masked[PRESET_IRQ]);
    assert_int_equal(f->fast->irq_acks[PRESET_IRQ], 1);
    tc_run_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_names),
        cmocka_unit_test(test_fix_names),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_entry_budget),
        cmocka_unit_test(test_idle_switch),
        cmocka_unit_test(test_reswitch),
        cmocka_unit_test(test_entry_domain),
        cmocka_unit_test(test_entry_release),
        cmocka_unit_test(test_early_exits),
        cmocka_unit_test(test_woken_unschedulable),
        cmocka_unit_test(test_refill_not_ready),
        cmocka_unit_test(test_vspace),
        cmocka_unit_test(test_cap_kinds),
        cmocka_unit_test(test_idle_ntfn_bound),
        cmocka_unit_test(test_active_ntfn),
        cmocka_unit_test(test_two_waiters),
        cmocka_unit_test(test_bound_recv_shared_ep),
        cmocka_unit_test(test_no_sc_anywhere),
        cmocka_unit_test(test_ntfn_sc_taken),
        cmocka_unit_test(test_passive_switch),
        cmocka_unit_test(test_smp_donation),
        cmocka_unit_test(test_smp_remote_core),
        cmocka_unit_test(test_other_domain),
        cmocka_unit_test(test_refill_insufficient),
        cmocka_unit_test(test_hyp_vmid),
        cmocka_unit_test(test_sporadic_receiver),
        cmocka_unit_test(test_sporadic_is_current),
        cmocka_unit_test(test_switch_deadline),
        cmocka_unit_test(test_tested_fixes),
        cmocka_unit_test(test_invalid_ntfn_state),
        cmocka_unit_test(test_waiting_without_waiter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
