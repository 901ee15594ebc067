/*
 * Tests of sim/sig_fast.c, master's signal fastpath (fastpath_signal,
 * src/fastpath/fastpath.c:553-715 at 1326364bc), against slowpath(SysSend)
 * (handleSyscall, src/api/syscall.c; handleInvocation :300-386;
 * decodeInvocation on a notification cap, src/object/objecttype.c:678-690;
 * sendSignal, src/object/notification.c). Every decision of the model, as
 * merged and with the corrected fastpath's fixes, and the expected outcome
 * of each argued from those kernel lines.
 *
 * The base state is preset_noswitch (check/presets.c, imx8mm): a spinner
 * at 254 runs on a round-robin SC with most of its 5 s slice left, a
 * handler at 253 waits on notification irq_ntfn with its own SC; 1 ms has
 * passed since the last kernel exit. Here the spinner makes the SysSend on
 * irq_ntfn (no IRQ is taken).
 */
#define _POSIX_C_SOURCE 200809L
#include "tcommon.h"

#include "classify.h"
#include "defect.h"
#include "gen.h"
#include "print.h"
#include "scenario.h"
#include "sig_fast.h"
#include "syscall.h"
#include "target.h"

/* the noswitch preset as a SysSend entry on its notification, badge 4 */
static struct tc_run *sig_state(void)
{
    struct tc_run *f = tc_run_new();
    assert_int_equal(preset_noswitch(f->in, "imx8mm"), 0);
    f->in->active_irq = KS_IRQ_INVALID;
    f->in->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                   .entry = ENTRY_SIGNAL, .cap = SCAP_NTFN, .ntfn = 0, .ep = KS_NONE, .reply = KS_NONE,
                                   .tcb = KS_NONE, .badge = 4};
    return f;
}

static int tid(struct tc_run *f, const char *name)
{
    return tc_tid(f->in, name);
}

/* Both paths from f->in with a variant; the exit expected. */
static void run(struct tc_run *f, int variant, int exit)
{
    tc_assert_valid(f->in, INV_AT_ENTRY);
    diff_run(f->in, variant, true, &f->v, f->slow, f->fast);
    if (!f->v.agree)
        diff_report(stderr, &f->v, f->slow, f->fast);
    assert_string_equal(sig_exit_name(f->v.exit), sig_exit_name(exit));
    tc_assert_no_asserts(f->fast);
}

static unsigned cause_of(struct tc_run *f)
{
    struct classify_ws *ws = malloc(sizeof *ws);
    assert_non_null(ws);
    unsigned c = classify_cause(f->in, ws);
    free(ws);
    return c;
}

/* The receiver is below the caller (253 < 254): fastpath_signal dequeues it,
 * makes it Running with the badge, and SCHED_ENQUEUEs it (:706-707); the
 * slowpath's sendSignal -> possibleSwitchTo leaves SwitchToThread, and
 * schedule() keeps the higher caller and enqueues the handler. Agree. */
static void test_enqueue_agrees(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    int h = tid(f, "handler");
    assert_int_equal(f->fast->tcbs[h].state, TS_Running);
    assert_int_equal(f->fast->tcbs[h].badge_reg, 4);
    assert_true(f->fast->tcbs[h].queued);
    assert_int_equal(f->fast->ntfns[0].state, NTFN_Idle);
    assert_int_equal(f->slow->cur_thread, tid(f, "spinner"));
    tc_run_free(f);
}

/* Same priority: SCHED_APPEND (:708-709), as schedule() appends a
 * candidate that does not outrank the current thread. */
static void test_append_agrees(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->tcbs[tid(f, "handler")].prio = 254;
    run(f, SIG_MERGED, SIG_EXIT_APPEND);
    assert_true(f->v.agree);
    tc_run_free(f);
}

/* The receiver outranks the caller (preset_irquser: handler 254 above the
 * spinner at 253): fastpath_signal falls back before touching anything
 * (:652-654), so both run the slowpath, which switches to the handler. */
static void test_prio_falls_back(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->tcbs[tid(f, "handler")].prio = 255;
    run(f, SIG_MERGED, SIG_SLOW_PRIO);
    assert_true(f->v.agree);
    assert_int_equal(f->slow->cur_thread, tid(f, "handler"));
    tc_run_free(f);
}

/* An Active notification: both OR the badge into ntfnMsgIdentifier
 * (fastpath :603-609, ntfn_set_active(badge | msgId); sendSignal's Active
 * case), nobody wakes. */
static void test_active_ors_badge(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    int h = tid(f, "handler");
    struct kstate *ks = f->in;
    /* the handler stops waiting: it is Inactive, the notification Active 0x3 */
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->tcbs[h].state = TS_Inactive;
    ks->tcbs[h].blocking = KS_NONE;
    ks->ntfns[0].state = NTFN_Active;
    ks->ntfns[0].msg_id = 3;
    run(f, SIG_MERGED, SIG_EXIT_ACTIVE);
    assert_true(f->v.agree);
    assert_int_equal(f->fast->ntfns[0].msg_id, 7);
    assert_int_equal(f->slow->ntfns[0].msg_id, 7);
    tc_run_free(f);
}

/* Idle, bound to a thread that is not receiving: made Active with the
 * badge (:610-620; sendSignal's Idle case, ntfn_set_active). */
static void test_idle_bound_not_receiving(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    int h = tid(f, "handler");
    struct kstate *ks = f->in;
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->ntfns[0].state = NTFN_Idle;
    ks->tcbs[h].state = TS_Inactive;
    ks->tcbs[h].blocking = KS_NONE;
    build_bind_ntfn(ks, h, 0);
    run(f, SIG_MERGED, SIG_EXIT_IDLE);
    assert_true(f->v.agree);
    assert_int_equal(f->fast->ntfns[0].state, NTFN_Active);
    assert_int_equal(f->fast->ntfns[0].msg_id, 4);
    tc_run_free(f);
}

/* The bound receiver blocked on an endpoint receive: cancelIPC_fp takes
 * it off the endpoint (:675-677) as sendSignal's cancelIPC does, its reply
 * is unlinked; then queued as a waiter would be. Agree. */
static void test_bound_receiver_woken(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    int h = tid(f, "handler");
    struct kstate *ks = f->in;
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    ks->ntfns[0].state = NTFN_Idle;
    ks->tcbs[h].state = TS_Inactive;
    int e = build_ep(ks, "ep");
    int r = ks_add_reply(ks, "r");
    build_recv_ep(ks, h, e, r);
    build_bind_ntfn(ks, h, 0);
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    assert_int_equal(f->fast->eps[e].state, EP_Idle);
    assert_int_equal(f->fast->replies[r].tcb, KS_NONE);
    tc_run_free(f);
}

/* No send right: decodeInvocation returns a syscall error (objecttype.c
 * :679-685); a send gets no reply, the caller keeps Running and nothing is
 * signalled. The fastpath falls back (:585-587). */
static void test_no_send_right(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->sys.cap = SCAP_NTFN_NO_SEND;
    run(f, SIG_MERGED, SIG_SLOW_NO_SEND);
    assert_true(f->v.agree);
    assert_int_equal(f->slow->tcbs[tid(f, "spinner")].state, TS_Running);
    assert_int_equal(f->slow->ntfns[0].state, NTFN_Waiting);
    tc_run_free(f);
}

/* A null cap: lookupCapAndSlot succeeds, decodeInvocation's default case
 * is an invalid-capability error: nothing changes, the caller runs on. */
static void test_null_cap(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->sys.cap = SCAP_NULL;
    f->in->sys.ntfn = KS_NONE;
    run(f, SIG_MERGED, SIG_SLOW_NOT_NTFN);
    assert_true(f->v.agree);
    assert_int_equal(f->slow->tcbs[tid(f, "spinner")].state, TS_Running);
    tc_run_free(f);
}

/* A lookup failure: handleInvocation's cap fault (syscall.c:322-330):
 * handleFault with no fault handler makes the caller Inactive
 * (faulthandler.c:15-22, 146-171), and schedule() runs the next thread:
 * no thread is ready, so the idle thread. */
static void test_lookup_failure_faults(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->sys.cap = SCAP_LOOKUP_FAIL;
    f->in->sys.ntfn = KS_NONE;
    run(f, SIG_MERGED, SIG_SLOW_NOT_NTFN);
    assert_true(f->v.agree);
    assert_int_equal(f->slow->tcbs[tid(f, "spinner")].state, TS_Inactive);
    assert_int_equal(f->slow->cur_thread, f->in->idle_thread);
    tc_run_free(f);
}

/* S6: seL4_Send with one extra cap that does not resolve. The slowpath's
 * lookupExtraCaps fails (syscall.c:335-343): the caller faults (Inactive),
 * nothing is signalled, the handler keeps waiting. The merged fastpath
 * never reads msgInfo: it signals, the handler wakes, the caller runs on.
 * The fix msg_info alone removes it; the fixed fastpath falls back. */
static void test_s6_extra_cap(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->sys.extra_caps = 1;
    f->in->sys.extra_bad = 1;
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_false(f->v.agree);
    int sp = tid(f, "spinner"), h = tid(f, "handler");
    assert_int_equal(f->slow->tcbs[sp].state, TS_Inactive);
    assert_int_equal(f->slow->tcbs[h].state, TS_BlockedOnNotification);
    assert_int_equal(f->fast->tcbs[sp].state, TS_Running);
    assert_int_equal(f->fast->tcbs[h].state, TS_Running);
    assert_int_equal(cause_of(f), SFIX(SFIX_MSG_INFO));
    assert_int_equal(cause_defects(&target_signal, SFIX(SFIX_MSG_INFO)), 1u << 5);
    run(f, SIG_FIXED, SIG_SLOW_MSGINFO);
    assert_true(f->v.agree);
    /* every extra cap resolving: the slowpath signals too */
    f->in->sys.extra_bad = 0;
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    tc_run_free(f);
}

/* S1: the caller's SC cannot pay the time since the last commit (the
 * head refill left is below it + MIN_BUDGET at the entry clock): the
 * slowpath's checkBudgetRestart charges and skips the send; the merged
 * fastpath signals. entry_time+entry_budget; the fixed one falls back. */
static void test_s1_entry_budget(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    int sc = ks->tcbs[tid(f, "spinner")].sc;
    ticks_t run_ticks = ks->hw_clock - ks->cur_time;
    ks->scs[sc].refills[ks->scs[sc].head].amount = run_ticks + ks->cfg.min_budget / 2;
    ks->scs[sc].refills[ks->scs[sc].tail].amount = ks->scs[sc].budget - (run_ticks + ks->cfg.min_budget / 2);
    build_deadline(ks);
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_false(f->v.agree);
    assert_int_equal(f->slow->tcbs[tid(f, "handler")].state, TS_BlockedOnNotification);
    assert_int_equal(cause_of(f), SFIX(SFIX_ENTRY_TIME) | SFIX(SFIX_ENTRY_BUDGET));
    run(f, SIG_FIXED, SIG_SLOW_BUDGET);
    assert_true(f->v.agree);
    tc_run_free(f);
}

/* S2: two domains, the domain's time runs out between the last entry and
 * this one. The merged guard (isCurDomainExpired on ksDomainTime as left)
 * passes; the slowpath's updateTimestamp zeroes it, checkBudgetRestart
 * fails and the domain switches. entry_domain alone removes it. */
static void test_s2_domain(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    build_two_domains(ks);
    ks->domain_time = ks->hw_clock - ks->cur_time + ks->cfg.min_budget / 2;
    build_deadline(ks);
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_false(f->v.agree);
    assert_int_equal(f->slow->cur_domain, 1);
    assert_int_equal(cause_of(f), SFIX(SFIX_ENTRY_DOMAIN));
    run(f, SIG_FIXED, SIG_SLOW_DOMAIN_EXPIRED);
    assert_true(f->v.agree);
    /* a domain time already 0 (not left so at user level by the kernel,
     * check/invariant.c admits it for a fastpath's leftovers only): the
     * merged guard falls back itself */
    ks->domain_time = 0;
    unsigned tested;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal_tested(f->fast, 0, &tested), SIG_SLOW_DOMAIN_EXPIRED);
    assert_true(tested & SFIX(SFIX_ENTRY_DOMAIN));
    /* with time left beyond the unread time and MIN_BUDGET: not expired */
    ks->domain_time = 10 * (ks->hw_clock - ks->cur_time);
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_FIXED), SIG_EXIT_ENQUEUE);
    tc_run_free(f);
}

/* S3: a thread in the release queue whose refill is ready at the entry
 * clock: the slowpath's schedule() -> awaken() releases it; the merged
 * fastpath leaves it there. entry_time+entry_release. */
static void test_s3_release(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    int t = build_thread(ks, "sleeper", 10, 0);
    build_sc(ks, "sc_sleep", t, ks->cfg.min_budget * 4, ks->cfg.min_budget * 100, ks->hw_clock - 1);
    ks->tcbs[t].state = TS_Running;
    build_release(ks, t);
    ks->reprogram = false; /* the queue operation asks; a user-level state has it clear */
    build_deadline(ks);
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_false(f->v.agree);
    assert_false(f->slow->tcbs[t].in_release);
    assert_true(f->fast->tcbs[t].in_release);
    assert_int_equal(cause_of(f), SFIX(SFIX_ENTRY_TIME) | SFIX(SFIX_ENTRY_RELEASE));
    run(f, SIG_FIXED, SIG_SLOW_RELEASE);
    assert_true(f->v.agree);
    tc_run_free(f);
}

/* S4 and S5: a sporadic receiver's refill_unblock_check (:694-700) runs
 * on ksCurTime of the last entry (the slowpath's on the entry clock) and
 * sets ksReprogram, which the fastpath leaves set (no schedule()). */
static void test_s4_s5_sporadic(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    int h = tid(f, "handler"), old = ks->tcbs[h].sc;
    ks->scs[old].tcb = KS_NONE;
    ks->tcbs[h].sc = KS_NONE;
    int sc = build_sc(ks, "sc_spor", h, ks->cfg.min_budget * 4, ks->cfg.min_budget * 100, 0);
    ks->scs[sc].sporadic = true;
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_false(f->v.agree);
    assert_true(f->fast->reprogram);
    assert_false(f->slow->reprogram);
    assert_int_equal(f->slow->scs[sc].refills[f->slow->scs[sc].head].time, ks->hw_clock);
    assert_int_equal(f->fast->scs[sc].refills[f->fast->scs[sc].head].time, ks->cur_time);
    assert_int_equal(cause_of(f), SFIX(SFIX_ENTRY_TIME) | SFIX(SFIX_REPROGRAM));
    run(f, SIG_FIXED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    assert_false(f->fast->reprogram);
    tc_run_free(f);
}

/* S9 (two cores): the receiver's SC is on core 1, whose idle thread runs,
 * and it has priority 0 (so it does not outrank that core's idle thread:
 * no slow_prio); SCHED_ENQUEUE's remoteQueueUpdate marks the IPI (the
 * target core is idle, tcb.c remoteQueueUpdate), schedule() sends it; the
 * merged fastpath returns with it pending. reschedule_ipi. */
static void test_s9_ipi(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    build_core1(ks);
    int h = tid(f, "handler");
    ks->tcbs[h].affinity = 1;
    ks->tcbs[h].prio = 0;
    ks->scs[ks->tcbs[h].sc].core = 1;
    ks->hw_clock = ks->cur_time; /* no unread time: on SMP it shows by itself */
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_false(f->v.agree);
    assert_int_equal(f->fast->ipi_pending, 2);
    assert_int_equal(f->slow->ipi_sent, 2);
    assert_int_equal(cause_of(f), SFIX(SFIX_IPI));
    run(f, SIG_FIXED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    tc_run_free(f);
}

/* Receiver passive (no SC): donation from the notification when it has
 * a free SC (maybeDonateSchedContext_fp); none there: slow_no_sc; on SMP
 * with an FPU and the receiver's FPU state live: slow_fpu (:643-646). */
static void test_donation(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    int h = tid(f, "handler"), sc = ks->tcbs[h].sc;
    ks->tcbs[h].sc = KS_NONE;
    ks->scs[sc].tcb = KS_NONE;
    run(f, SIG_MERGED, SIG_SLOW_NO_SC);
    assert_true(f->v.agree);
    build_bind_sc_ntfn(ks, sc, 0);
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    assert_int_equal(f->fast->tcbs[h].sc, sc);
    /* the notification's SC is bound to a thread already */
    ks->scs[sc].tcb = (int8_t)tid(f, "spinner");
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_SLOW_NO_SC);
    ks->scs[sc].tcb = KS_NONE;
    build_core1(ks);
    ks->cfg.fpu = true;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_EXIT_ENQUEUE); /* FPU not live */
    ks->tcbs[h].fpu_live = true;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_SLOW_FPU);
    ks->cfg.fpu = false;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_EXIT_ENQUEUE);
    ks->cfg.smp = false;
    ks->cfg.fpu = true;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_EXIT_ENQUEUE);
    tc_run_free(f);
}

/* An unconfigured SC: woken, not queued (:703-705; sendSignal's
 * isSchedulable fails). A configured SC whose head refill is not ready:
 * slow_refill (:661-666). */
static void test_unschedulable_and_refill(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    int h = tid(f, "handler"), sc = ks->tcbs[h].sc;
    ks->scs[sc].refill_max = 0;
    run(f, SIG_MERGED, SIG_EXIT_UNSCHEDULABLE);
    assert_true(f->v.agree);
    assert_false(f->fast->tcbs[h].queued);
    ks->scs[sc].refill_max = 2;
    ks->scs[sc].refills[ks->scs[sc].head].time = ks->hw_clock * 2;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_SLOW_REFILL);
    ks->scs[sc].refills[ks->scs[sc].head].time = 0;
    ks->scs[sc].refills[ks->scs[sc].head].amount = 1;
    ks_copy(f->fast, ks);
    assert_int_equal(fastpath_signal(f->fast, SIG_MERGED), SIG_SLOW_REFILL);
    tc_run_free(f);
}

/* Cross-node: the receiver in another domain is enqueued whatever its
 * priority (:668-671, 706-707), as possibleSwitchTo does. On two cores the
 * priority is judged against the current thread of the SC's core (idle
 * there: prio 0 < 253 -> slow_prio). */
static void test_crossnode(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    int h = tid(f, "handler");
    build_two_domains(ks);
    ks->tcbs[h].domain = 1;
    ks->tcbs[h].prio = 254;
    ks->hw_clock = ks->cur_time;
    run(f, SIG_MERGED, SIG_EXIT_ENQUEUE);
    assert_true(f->v.agree);
    struct tc_run *g = sig_state();
    build_core1(g->in);
    g->in->scs[g->in->tcbs[h].sc].core = 1;
    g->in->tcbs[h].affinity = 1;
    g->in->core_cur[1] = (int8_t)build_thread(g->in, "low1", 1, 0);
    g->in->tcbs[g->in->core_cur[1]].state = TS_Running;
    g->in->tcbs[g->in->core_cur[1]].affinity = 1;
    ks_copy(g->fast, g->in);
    assert_int_equal(fastpath_signal(g->fast, SIG_MERGED), SIG_SLOW_PRIO);
    tc_run_free(f);
    tc_run_free(g);
}

/* Defensive checks on states the kernel does not reach: a pending fault
 * of the caller (tcbFault is null for a running thread on MCS:
 * check/invariant.c check_syscall_entry), a notification state out of
 * range (fail), a Waiting notification with no head (dest NULL), and a
 * sporadic receiver holding the current SC (assert :696). */
static void test_unreachable(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in, *x = f->fast;
    ks_copy(x, ks);
    x->tcbs[tid(f, "spinner")].fault = FAULT_Timeout;
    assert_int_equal(fastpath_signal(x, SIG_MERGED), SIG_SLOW_FAULT);
    ks_copy(x, ks);
    x->ntfns[0].state = NTFN_COUNT;
    assert_int_equal(fastpath_signal(x, SIG_MERGED), SIG_EXIT_ACTIVE);
    assert_int_equal(x->asserts[0].id, A_SIG_NTFN_STATE);
    ks_copy(x, ks);
    x->ntfns[0].q_head = KS_NONE;
    assert_int_equal(fastpath_signal(x, SIG_MERGED), SIG_EXIT_ACTIVE);
    assert_int_equal(x->asserts[0].id, A_SIG_DEST);
    ks_copy(x, ks);
    int h = tid(f, "handler"), sc = x->tcbs[h].sc;
    x->scs[sc].sporadic = true;
    x->cur_sc = (int8_t)sc;
    fastpath_signal(x, SIG_MERGED);
    assert_int_equal(x->asserts[0].id, A_SIG_SPORADIC_CUR);
    tc_run_free(f);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(sig_exit_name(SIG_SLOW_PRIO), "slow_prio");
    assert_string_equal(sig_exit_name(-1), "?");
    assert_string_equal(sig_exit_name(SIG_EXIT_COUNT), "?");
    assert_string_equal(sig_exit_what(-1), "?");
    assert_false(sig_exit_is_fallback(SIG_EXIT_COUNT));
    assert_string_equal(sig_fix_name(-1), "?");
    assert_string_equal(sig_fix_what(SFIX_COUNT), "?");
    assert_string_equal(sig_variant_name(-1), "?");
    assert_string_equal(ks_entry_name(-1), "?");
    assert_string_equal(ks_sys_cap_name(-1), "?");
    assert_string_equal(sig_exit_what(SIG_EXIT_COUNT), "?");
    assert_string_not_equal(sig_exit_what(SIG_EXIT_APPEND), "?");
    assert_true(sig_exit_is_fallback(SIG_SLOW_FAULT));
    assert_false(sig_exit_is_fallback(SIG_EXIT_IDLE));
    assert_false(sig_exit_is_fallback(-1));
    assert_string_equal(sig_fix_name(SFIX_MSG_INFO_BIT), "msg_info");
    assert_string_equal(sig_fix_name(SFIX_COUNT), "?");
    assert_string_not_equal(sig_fix_what(SFIX_IPI_BIT), "?");
    assert_string_equal(sig_fix_what(-1), "?");
    assert_string_equal(sig_variant_name(SIG_MERGED), "merged");
    assert_string_equal(sig_variant_name(2), "?");
    assert_int_equal(sig_variant_parse("fixed"), SIG_FIXED);
    assert_int_equal(sig_variant_parse("pr1227"), -1);
    assert_int_equal(sig_variant_fixes(SIG_FIXED), SFIX_ALL);
    assert_int_equal(sig_variant_fixes(SIG_MERGED), 0);
    assert_string_equal(ks_entry_name(ENTRY_SIGNAL), "signal");
    assert_string_equal(ks_entry_name(ENTRY_COUNT), "?");
    assert_string_equal(ks_sys_cap_name(SCAP_LOOKUP_FAIL), "lookup_fail");
    assert_string_equal(ks_sys_cap_name(SCAP_COUNT), "?");
    /* every kind has what it invokes: a table entry each, none past the end */
    assert_string_equal(ks_sys_cap_invocation(SCAP_TCB), "TCB_SetFlags");
    assert_string_equal(ks_sys_cap_invocation(SCAP_DOMAIN), "DomainSet_Set");
    assert_string_equal(ks_sys_cap_invocation(SCAP_NULL), "");
    assert_string_equal(ks_sys_cap_invocation(SCAP_COUNT), "?");
    assert_string_equal(ks_sys_cap_invocation(-1), "?");
    assert_string_equal(ks_sys_cap_invocation(SCAP_IRQ_CONTROL), "IRQControl_Get, _GetTrigger[Core]");
    assert_string_equal(ks_irq_method_name(IRQM_TRIGGER_CORE), "trigger_core");
    assert_string_equal(ks_irq_method_name(IRQM_COUNT), "?");
    assert_string_equal(ks_irq_method_name(-1), "?");
    /* IRQControl_Get's destination slot kinds, as a scenario names them */
    assert_string_equal(ks_irq_dest_name(IRQD_FULL), "full");
    assert_string_equal(ks_irq_dest_name(IRQD_COUNT), "?");
    assert_string_equal(ks_irq_dest_name(-1), "?");
    assert_ptr_equal(target_by_name("signal"), &target_signal);
    assert_null(target_by_name("sig"));
}

/* The scenario line round-trips; a bad one names the problem. */
static void test_scenario_line(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    f->in->sys.extra_caps = 2;
    f->in->sys.extra_bad = 2;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    ks_print(mem, f->in);
    fclose(mem);
    assert_non_null(strstr(text, "syscall send cap=ntfn ntfn=irq_ntfn badge=4 extra_caps=2 extra_bad=2\n"));
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, "t", f->slow, &err), 0);
    assert_true(ks_same(f->slow, f->in));
    free(text);
    static const char *const bad[] = {
        "board imx8mm\nnode\nsyscall recv cap=ntfn\n",
        "board imx8mm\nnode\nsyscall send cap=ntfn\n",
        "board imx8mm\nntfn n\nnode\nsyscall send cap=null ntfn=n\n",
        "board imx8mm\nnode\nsyscall send cap=null extra_caps=1 extra_bad=2\n",
        "board imx8mm\nnode\nsyscall send\n",
        "board imx8mm\nnode\nsyscall send cap=null\nsyscall send cap=null\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(scenario_parse(bad[i], strlen(bad[i]), "t", f->slow, &err), -1);
    tc_run_free(f);
}

/* The entry rules of a SysSend (check/invariant.c): not the idle thread,
 * a Running caller, no IRQ taken, inputs in range. */
static void test_entry_rules(void **state)
{
    (void)state;
    struct tc_run *f = sig_state();
    struct kstate *ks = f->in;
    struct inv_report r;
    ks->active_irq = PRESET_IRQ;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 1);
    ks->active_irq = KS_IRQ_INVALID;
    ks->sys.extra_caps = 4;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 1);
    ks->sys.extra_caps = 0;
    ks->sys.ntfn = 5;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 1);
    ks->sys.ntfn = 0;
    ks->sys.cap = SCAP_COUNT;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 1);
    ks->sys.cap = SCAP_NTFN;
    ks->sys.entry = ENTRY_COUNT;
    assert_true(kstate_check(ks, INV_AT_ENTRY, &r) >= 1);
    ks->sys.entry = ENTRY_SIGNAL;
    ks->tcbs[ks->cur_thread].state = TS_Restart;
    assert_true(kstate_check(ks, INV_AT_ENTRY, &r) >= 1);
    ks->tcbs[ks->cur_thread].state = TS_Running;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &r), 0);
    tc_run_free(f);
}

/* The generator draws only callable states, with the kinds rk_sig draws;
 * every one passes the entry invariants. */
static void test_generator(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.target = &target_signal;
    int kinds[SCAP_COUNT] = {0}, extra = 0;
    for (uint64_t seed = 1; seed <= 400; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        assert_int_equal(gen_state(ks, &src, &b), 0);
        tc_assert_valid(ks, INV_AT_ENTRY);
        assert_null(gen_syscall_unfit(ks));
        kinds[ks->sys.cap]++;
        extra += ks->sys.extra_caps > 0;
    }
    for (int k = 0; k < SCAP_SEND_KINDS; k++)
        assert_true(kinds[k] > 0);
    /* a DomainSet cap (draw_domain_set), never an endpoint */
    assert_true(kinds[SCAP_DOMAIN] > 0);
    assert_int_equal(kinds[SCAP_EP], 0);
    assert_true(kinds[SCAP_NTFN] > 200 && extra > 40);
    free(ks);
}

/* The system-call pass's redraw (target_signal.gen_invocation, validate
 * --real without --target): a DomainSet_Set or, on master with an FPU
 * (TCB flags), a TCB_SetFlags, both seen, or one of the three IRQ handler
 * invocations or IRQControl_Get, each seen; the state still a valid entry
 * of the same target; on two cores too, never of the thread core 1 runs
 * (K1, docs/FINDINGS.md). */
static void test_gen_invocation(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.target = &target_signal;
    b.kernel = KS_KERNEL_MASTER;
    b.allow_smp = true;
    int kinds[SCAP_COUNT] = {0}, smp = 0, remote = 0, methods[IRQM_COUNT] = {0}, routed = 0;
    /* 400 seeds, then on until five remote acks (some 3% of two-core
     * states) were seen */
    for (uint64_t seed = 1; seed <= 400 || (remote < 5 && seed <= 40000); seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        assert_int_equal(gen_state(ks, &src, &b), 0);
        struct ks_sysin before = ks->sys;
        assert_int_equal(target_signal.gen_invocation(ks, &src), 0);
        if (ks->cfg.smp) {
            smp++;
            assert_int_not_equal(ks->sys.tcb, ks->core_cur[1]);
        }
        int cap = ks->sys.cap;
        assert_true(cap == SCAP_DOMAIN || cap == SCAP_TCB || scap_is_irq(cap));
        assert_true(cap != SCAP_TCB || ks->cfg.fpu);
        assert_int_equal(ks->sys.entry, ENTRY_SIGNAL);
        assert_int_equal(ks->sys.target, before.target);
        /* an IRQ handler cap's IRQ is in state Signal (invokeIRQControl,
         * interrupt.c:75-82); only IRQHandler_SetNotification names a
         * notification, its extra cap's */
        if (scap_is_irq_handler(cap) && !ks->sys.irq_core)
            assert_int_equal(ks->irq_state[ks->sys.irq], IRQ_Signal);
        /* core 1's PPI (a remote ack): a PPI no configuration reserves,
         * never drawn active there (K2, docs/FINDINGS.md) */
        /* the IRQ control cap's labels: _GetTriggerCore only on two cores,
         * always with its CNode cap (without it the kernel reads extra cap
         * 0 through NULL: K3, docs/FINDINGS.md), never for another core's
         * PPI (that core's IRQ table is not held); an SPI's target core 0,
         * 1 or 2 (2: refused) */
        if (cap == SCAP_IRQ_CONTROL) {
            methods[ks->sys.irq_method]++;
            assert_true(ks->sys.irq_method != IRQM_TRIGGER_CORE || (ks->cfg.smp && ks->sys.extra_caps == 1));
            assert_true(!ks->sys.irq_core || (ks->sys.irq_method == IRQM_TRIGGER_CORE && ks->sys.irq >= 32 &&
                                              ks->sys.irq_core <= 2));
            assert_true(ks->sys.irq_method != IRQM_GET || !ks->sys.trigger);
            routed += ks->sys.irq < ks->n_irqs && ks_irq_core(ks->irq_cfg[ks->sys.irq]) != 0;
        }
        if (ks->sys.irq_core && cap != SCAP_IRQ_CONTROL) {
            remote++;
            assert_int_equal(cap, SCAP_IRQ_ACK);
            assert_true(ks->cfg.smp && ks->sys.irq >= 16 && ks->sys.irq < 24);
            assert_int_equal(ks->core_ppi_active[1], 0);
        }
        if (cap == SCAP_IRQ_SET)
            assert_in_range(ks->sys.ntfn, 0, ks->n_ntfns - 1);
        else
            assert_int_equal(ks->sys.ntfn, KS_NONE);
        assert_ptr_equal(target_of(ks), &target_signal);
        tc_assert_valid(ks, INV_AT_ENTRY);
        kinds[ks->sys.cap]++;
    }
    assert_true(smp > 0);
    assert_true(kinds[SCAP_DOMAIN] > 50 && kinds[SCAP_TCB] > 50);
    assert_true(kinds[SCAP_IRQ_ACK] > 10 && kinds[SCAP_IRQ_SET] > 5 && kinds[SCAP_IRQ_CLEAR] > 5 &&
                kinds[SCAP_IRQ_CONTROL] > 10);
    assert_true(remote >= 5);
    assert_true(methods[IRQM_GET] > 5 && methods[IRQM_TRIGGER] > 5 && methods[IRQM_TRIGGER_CORE] > 0 && routed > 0);

    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_enqueue_agrees),
        cmocka_unit_test(test_append_agrees),
        cmocka_unit_test(test_prio_falls_back),
        cmocka_unit_test(test_active_ors_badge),
        cmocka_unit_test(test_idle_bound_not_receiving),
        cmocka_unit_test(test_bound_receiver_woken),
        cmocka_unit_test(test_no_send_right),
        cmocka_unit_test(test_null_cap),
        cmocka_unit_test(test_lookup_failure_faults),
        cmocka_unit_test(test_s6_extra_cap),
        cmocka_unit_test(test_s1_entry_budget),
        cmocka_unit_test(test_s2_domain),
        cmocka_unit_test(test_s3_release),
        cmocka_unit_test(test_s4_s5_sporadic),
        cmocka_unit_test(test_s9_ipi),
        cmocka_unit_test(test_donation),
        cmocka_unit_test(test_unschedulable_and_refill),
        cmocka_unit_test(test_crossnode),
        cmocka_unit_test(test_unreachable),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_scenario_line),
        cmocka_unit_test(test_entry_rules),
        cmocka_unit_test(test_generator),
        cmocka_unit_test(test_gen_invocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
