/*
 * Notification tests (model of src/object/notification.c, the cancelIPC
 * part of src/object/endpoint.c, include/object/reply.h and
 * schedContext_donate/resume in src/object/schedcontext.c).
 *
 * sendSignal, by notification state:
 *  - Active: the badge is ORed into the message identifier; nothing else.
 *  - Idle: if a bound TCB is BlockedOnReceive, cancelIPC it (unlink from
 *    the endpoint queue, endpoint Idle when that empties, unlink its reply
 *    object), then wake it: Running, badge register = badge, maybe donate
 *    the notification's SC (only to a thread without one, and only an SC
 *    bound to no thread: schedContext_donate + schedContext_resume), and
 *    possibleSwitchTo if schedulable; a sporadic SC other than ksCurSC
 *    gets refill_unblock_check. Otherwise the notification becomes Active
 *    with the badge (the old word is overwritten).
 *  - Waiting: dequeue the queue head; Idle only when the queue empties;
 *    then wake it exactly as above.
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks.
 */
#include "reply.h"
#include "tcommon.h"

static struct kstate g_ks, g_copy;

/* imx8mm at time now, with cur (100, round-robin 20000) running. */
static struct kstate *base(ticks_t now, int *cur)
{
    struct kstate *ks = &g_ks;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks->cur_time = ks->hw_clock = now;
    *cur = build_thread(ks, "cur", 100, 0);
    build_sc(ks, "sc_cur", *cur, 20000, 0, 0);
    build_run(ks, *cur);
    return ks;
}

static int rr_thread(struct kstate *ks, const char *name, int prio, ticks_t budget)
{
    int t = build_thread(ks, name, prio, 0);
    assert_int_not_equal(t, KS_NONE);
    assert_int_not_equal(build_sc(ks, NULL, t, budget, 0, 0), KS_NONE);
    return t;
}

/* ---- Active ---- */

static void test_signal_active_or(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    ks->ntfns[n].state = NTFN_Active;
    ks->ntfns[n].msg_id = 0x5;
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks_copy(&g_copy, ks);
    sendSignal(ks, n, 0x12);
    assert_int_equal(ks->ntfns[n].msg_id, 0x17);
    assert_int_equal(ks->ntfns[n].state, NTFN_Active);
    /* nothing else changed */
    g_copy.ntfns[n].msg_id = 0x17;
    assert_true(ks_same(ks, &g_copy));
    /* ORing a badge already there changes nothing */
    sendSignal(ks, n, 0x10);
    assert_int_equal(ks->ntfns[n].msg_id, 0x17);
    tc_assert_no_asserts(ks);
}

/* ---- Idle ---- */

/* No bound TCB: Active with exactly the badge (the stale word is gone). */
static void test_signal_idle_unbound(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    ks->ntfns[n].msg_id = 0xff;
    ks_copy(&g_copy, ks);
    sendSignal(ks, n, 0x4);
    assert_int_equal(ks->ntfns[n].state, NTFN_Active);
    assert_int_equal(ks->ntfns[n].msg_id, 0x4);
    g_copy.ntfns[n].state = NTFN_Active;
    g_copy.ntfns[n].msg_id = 0x4;
    assert_true(ks_same(ks, &g_copy));
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* A bound TCB that is not blocked on receive (running, or blocked
 * sending): the notification just becomes Active; the thread is left. */
static void test_signal_idle_bound_not_receiving(void **state)
{
    (void)state;
    for (int variant = 0; variant < 2; variant++) {
        int cur;
        struct kstate *ks = base(1000, &cur);
        int n = build_ntfn(ks, "n");
        int h = rr_thread(ks, "h", 50, 1000);
        build_bind_ntfn(ks, h, n);
        if (variant == 0) {
            build_ready(ks, h);
        } else {
            int e = build_ep(ks, "ep");
            build_send_ep(ks, h, e);
        }
        tc_assert_valid(ks, INV_AT_ENTRY);
        ks_copy(&g_copy, ks);
        sendSignal(ks, n, 0x9);
        g_copy.ntfns[n].state = NTFN_Active;
        g_copy.ntfns[n].msg_id = 0x9;
        assert_true(ks_same(ks, &g_copy));
        tc_assert_valid(ks, INV_AT_EXIT);
    }
}

/* Bound TCB h (150) BlockedOnReceive on an endpoint behind nobody, in
 * front of o (60) (MCS endpoint queues are priority ordered), holding a
 * reply object. (It has no pending fault: a thread blocked receiving
 * cannot have one, see check_thread; test_cancel_ipc_clears_fault has the
 * reachable case.) cancelIPC: h unlinked (the endpoint keeps
 * o and stays Recv), the reply unlinked both ways. Woken: Running, badge
 * 7; it has an SC, so possibleSwitchTo makes it the candidate. The
 * notification stays Idle. schedule() switches to it (150 > 100). */
static void test_signal_bound_recv_cancel(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int e = build_ep(ks, "ep");
    int r = ks_add_reply(ks, "reply");
    int o = rr_thread(ks, "o", 60, 1000);
    int h = rr_thread(ks, "h", 150, 1000);
    build_recv_ep(ks, o, e, KS_NONE);
    build_recv_ep(ks, h, e, r);
    build_bind_ntfn(ks, h, n);
    assert_int_equal(ks->eps[e].q_head, h);
    assert_int_equal(ks->eps[e].q_tail, o);
    tc_assert_valid(ks, INV_AT_ENTRY);

    sendSignal(ks, n, 7);
    assert_int_equal(ks->tcbs[h].state, TS_Running);
    assert_int_equal(ks->tcbs[h].badge_reg, 7);
    assert_int_equal(ks->tcbs[h].fault, FAULT_None);
    assert_int_equal(ks->eps[e].state, EP_Recv);
    assert_int_equal(ks->eps[e].q_head, o);
    assert_int_equal(ks->eps[e].q_tail, o);
    assert_int_equal(ks->tcbs[o].ep_prev, KS_NONE);
    assert_int_equal(ks->tcbs[h].reply, KS_NONE);
    assert_int_equal(ks->replies[r].tcb, KS_NONE);
    assert_int_equal(ks->ntfns[n].state, NTFN_Idle);
    assert_int_equal(ks->sched_action, h);
    tc_assert_no_asserts(ks);
    schedule(ks);
    assert_int_equal(ks->cur_thread, h);
    assert_true(ks->tcbs[cur].queued);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* The only receiver: the endpoint becomes Idle with an empty queue. A
 * thread without a reply object needs no reply_unlink. */
static void test_signal_bound_recv_empties_ep(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int e = build_ep(ks, "ep");
    int h = rr_thread(ks, "h", 50, 1000);
    build_recv_ep(ks, h, e, KS_NONE);
    build_bind_ntfn(ks, h, n);
    tc_assert_valid(ks, INV_AT_ENTRY);
    sendSignal(ks, n, 3);
    assert_int_equal(ks->eps[e].state, EP_Idle);
    assert_int_equal(ks->eps[e].q_head, KS_NONE);
    assert_int_equal(ks->eps[e].q_tail, KS_NONE);
    assert_int_equal(ks->tcbs[h].state, TS_Running);
    assert_int_equal(ks->tcbs[h].badge_reg, 3);
    assert_int_equal(ks->sched_action, h);
    schedule(ks); /* 50 < 100: fastfail, enqueued */
    assert_int_equal(ks->cur_thread, cur);
    assert_true(ks->tcbs[h].queued);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* A passive bound server (no SC) receiving on an endpoint: the
 * notification's SC is donated to it and it becomes schedulable. */
static void test_signal_bound_recv_donation(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int e = build_ep(ks, "ep");
    int h = build_thread(ks, "h", 150, 0);
    int s = build_sc(ks, "sc_n", KS_NONE, 4000, 0, 0);
    build_bind_sc_ntfn(ks, s, n);
    build_recv_ep(ks, h, e, KS_NONE);
    build_bind_ntfn(ks, h, n);
    tc_assert_valid(ks, INV_AT_ENTRY);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[h].sc, s);
    assert_int_equal(ks->scs[s].tcb, h);
    assert_int_equal(ks->sched_action, h);
    schedule(ks);
    assert_int_equal(ks->cur_thread, h);
    assert_int_equal(ks->cur_sc, s);
    assert_int_equal(ks->deadline, 1000 + 4000);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* ---- Waiting ---- */

/* Waiters 10, 30, 20 are queued by priority (build_wait_ntfn as
 * tcbEPAppend does): 30, 20, 10. Each signal wakes the head; the
 * notification stays Waiting until the last one. The first becomes the
 * candidate (action was ResumeCurrentThread); the second finds an action
 * set, so rescheduleRequired enqueues the first and the second is
 * enqueued; the third is enqueued. */
static void test_signal_waiting_order(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int t10 = rr_thread(ks, "t10", 10, 1000), t30 = rr_thread(ks, "t30", 30, 1000),
        t20 = rr_thread(ks, "t20", 20, 1000);
    build_wait_ntfn(ks, t10, n);
    build_wait_ntfn(ks, t30, n);
    build_wait_ntfn(ks, t20, n);
    assert_int_equal(ks->ntfns[n].q_head, t30);
    assert_int_equal(ks->tcbs[t30].ep_next, t20);
    assert_int_equal(ks->tcbs[t20].ep_next, t10);
    assert_int_equal(ks->ntfns[n].q_tail, t10);
    tc_assert_valid(ks, INV_AT_ENTRY);

    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[t30].state, TS_Running);
    assert_int_equal(ks->tcbs[t30].badge_reg, 1);
    assert_int_equal(ks->ntfns[n].state, NTFN_Waiting);
    assert_int_equal(ks->ntfns[n].q_head, t20);
    assert_int_equal(ks->tcbs[t20].ep_prev, KS_NONE);
    assert_int_equal(ks->ntfns[n].q_tail, t10);
    assert_int_equal(ks->sched_action, t30);
    assert_int_equal(ks->ntfns[n].msg_id, 0);

    sendSignal(ks, n, 2);
    assert_int_equal(ks->tcbs[t20].badge_reg, 2);
    assert_int_equal(ks->ntfns[n].state, NTFN_Waiting);
    assert_int_equal(ks->ntfns[n].q_head, t10);
    assert_int_equal(ks->ntfns[n].q_tail, t10);
    assert_int_equal(ks->sched_action, KS_SA_CHOOSE);
    assert_true(ks->tcbs[t30].queued);
    assert_true(ks->tcbs[t20].queued);

    sendSignal(ks, n, 4);
    assert_int_equal(ks->tcbs[t10].badge_reg, 4);
    assert_int_equal(ks->ntfns[n].state, NTFN_Idle);
    assert_int_equal(ks->ntfns[n].q_head, KS_NONE);
    assert_int_equal(ks->ntfns[n].q_tail, KS_NONE);
    assert_true(ks->tcbs[t10].queued);
    tc_assert_no_asserts(ks);

    /* the next signal finds it Idle and unbound: Active */
    sendSignal(ks, n, 8);
    assert_int_equal(ks->ntfns[n].state, NTFN_Active);
    assert_int_equal(ks->ntfns[n].msg_id, 8);

    schedule(ks); /* all three below cur: cur goes on */
    assert_int_equal(ks->cur_thread, cur);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* Equal priorities keep FIFO order among themselves. */
static void test_signal_waiting_fifo(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int a = rr_thread(ks, "a", 20, 1000), b = rr_thread(ks, "b", 20, 1000);
    build_wait_ntfn(ks, a, n);
    build_wait_ntfn(ks, b, n);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[a].state, TS_Running);
    assert_int_equal(ks->tcbs[b].state, TS_BlockedOnNotification);
    assert_int_equal(ks->ntfns[n].q_head, b);
}

/* ---- donation ---- */

/* A waiter without an SC receives the notification's SC: donate binds
 * both ways (the SC stays bound to the notification), resume finds it
 * ready and sufficient (nothing to postpone), and possibleSwitchTo makes
 * the waiter the candidate. */
static void test_signal_donation(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int w = build_thread(ks, "w", 150, 0);
    int s = build_sc(ks, "sc_n", KS_NONE, 5000, 0, 0);
    build_bind_sc_ntfn(ks, s, n);
    build_wait_ntfn(ks, w, n);
    tc_assert_valid(ks, INV_AT_ENTRY);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[w].sc, s);
    assert_int_equal(ks->scs[s].tcb, w);
    assert_int_equal(ks->scs[s].ntfn, n);
    assert_int_equal(ks->ntfns[n].sc, s);
    assert_false(ks->tcbs[w].in_release);
    assert_int_equal(ks->sched_action, w);
    schedule(ks);
    assert_int_equal(ks->cur_thread, w);
    assert_int_equal(ks->cur_sc, s);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* schedContext_resume postpones a donated SC that is not ready: the
 * thread goes to the release queue and is not switched to. (The entry
 * state breaks released_ipc_queues, so the kernel never meets it; the
 * operation is still the kernel's.) */
static void test_signal_donation_postponed(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int w = build_thread(ks, "w", 150, 0);
    int s = build_sc(ks, "sc_n", KS_NONE, 500, 5000, 3000);
    build_bind_sc_ntfn(ks, s, n);
    build_wait_ntfn(ks, w, n);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[w].sc, s);
    assert_true(ks->tcbs[w].in_release);
    assert_int_equal(ks->release_head[0], w);
    assert_true(ks->reprogram);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    assert_false(ks->tcbs[w].queued);
    tc_assert_no_asserts(ks);
}

/* No donation when the notification's SC is bound to another TCB: the
 * waiter wakes without an SC, is not schedulable and nothing is queued. */
static void test_signal_no_donation_sc_taken(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int x = rr_thread(ks, "x", 40, 1000);
    int s = ks->tcbs[x].sc;
    build_ready(ks, x);
    build_bind_sc_ntfn(ks, s, n);
    int w = build_thread(ks, "w", 150, 0);
    build_wait_ntfn(ks, w, n);
    tc_assert_valid(ks, INV_AT_ENTRY);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[w].state, TS_Running);
    assert_int_equal(ks->tcbs[w].sc, KS_NONE);
    assert_int_equal(ks->scs[s].tcb, x);
    assert_int_equal(ks->tcbs[x].sc, s);
    assert_true(ks->tcbs[x].queued);
    assert_false(ks->tcbs[w].queued);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* No donation to a thread that has its own SC, even if the
 * notification's SC is free. */
static void test_signal_no_donation_has_sc(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int w = rr_thread(ks, "w", 50, 1000);
    int own = ks->tcbs[w].sc;
    int s = build_sc(ks, "sc_n", KS_NONE, 5000, 0, 0);
    build_bind_sc_ntfn(ks, s, n);
    build_wait_ntfn(ks, w, n);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[w].sc, own);
    assert_int_equal(ks->scs[s].tcb, KS_NONE);
    assert_int_equal(ks->sched_action, w);
    tc_assert_no_asserts(ks);
}

/* A waiter whose SC is not configured (scRefillMax 0) wakes Running but
 * is not schedulable (MCS_DO_IF_SC): no possibleSwitchTo, nothing queued,
 * and no donation (it has an SC). */
static void test_signal_unconfigured_sc(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int w = build_thread(ks, "w", 150, 0);
    int own = build_sc_unconfigured(ks, "sc_w", w);
    int s = build_sc(ks, "sc_n", KS_NONE, 5000, 0, 0);
    build_bind_sc_ntfn(ks, s, n);
    build_wait_ntfn(ks, w, n);
    tc_assert_valid(ks, INV_AT_ENTRY);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->tcbs[w].state, TS_Running);
    assert_int_equal(ks->tcbs[w].sc, own);
    assert_int_equal(ks->scs[s].tcb, KS_NONE);
    assert_int_equal(ks->sched_action, KS_SA_RESUME);
    assert_false(ks->tcbs[w].queued);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* ---- sporadic unblock check on wake ---- */

/* w (50) has a sporadic periodic SC [{500,300},{1200,200}], period 5000,
 * woken at 1000: after possibleSwitchTo, refill_unblock_check moves the
 * ready head to ksCurTime (1000), sets ksReprogram, and merges the next
 * refill, which starts (1200) before the moved head ends (1300):
 * {1000,500}. A constant-bandwidth SC is left alone by sendSignal. */
static void test_signal_sporadic_unblock(void **state)
{
    (void)state;
    for (int sporadic = 0; sporadic < 2; sporadic++) {
        int cur;
        struct kstate *ks = base(1000, &cur);
        int n = build_ntfn(ks, "n");
        int w = build_thread(ks, "w", 50, 0);
        int s = build_sc(ks, "sc_w", w, 500, 5000, 500);
        struct ks_sc *sc = &ks->scs[s];
        sc->refills[0].amount = 300;
        sc->refills[1].time = 1200;
        sc->refills[1].amount = 200;
        sc->tail = 1;
        sc->sporadic = sporadic;
        build_wait_ntfn(ks, w, n);
        tc_assert_valid(ks, INV_AT_ENTRY);
        sendSignal(ks, n, 1);
        assert_int_equal(ks->sched_action, w);
        if (sporadic) {
            assert_int_equal(refill_size(sc), 1);
            assert_int_equal(refill_head(ks, s)->time, 1000);
            assert_int_equal(refill_head(ks, s)->amount, 500);
            assert_true(ks->reprogram);
        } else {
            assert_int_equal(refill_size(sc), 2);
            assert_int_equal(refill_head(ks, s)->time, 500);
            assert_int_equal(refill_head(ks, s)->amount, 300);
            assert_false(ks->reprogram);
        }
        tc_assert_no_asserts(ks);
        schedule(ks);
        assert_int_equal(ks->cur_thread, cur);
        assert_true(ks->tcbs[w].queued);
        tc_assert_no_asserts(ks);
        tc_assert_valid(ks, INV_AT_EXIT);
    }
}

/* The kernel asserts the woken sporadic SC is not ksCurSC, and skips the
 * unblock check if it is: recorded, head untouched. */
static void test_signal_sporadic_cur_sc_assert(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int w = build_thread(ks, "w", 50, 0);
    int s = build_sc(ks, "sc_w", w, 500, 5000, 500);
    ks->scs[s].sporadic = true;
    build_wait_ntfn(ks, w, n);
    ks->cur_sc = (int8_t)s;
    sendSignal(ks, n, 1);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_SIGNAL_SPORADIC_CUR);
    assert_int_equal(refill_head(ks, s)->time, 500);
}

/* ---- cancelSignal / cancelIPC / reply_unlink ---- */

static void test_cancel_signal(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    int a = rr_thread(ks, "a", 20, 1000), b = rr_thread(ks, "b", 10, 1000),
        c = rr_thread(ks, "c", 15, 1000);
    build_wait_ntfn(ks, a, n);
    build_wait_ntfn(ks, b, n);
    build_wait_ntfn(ks, c, n); /* a c b */
    assert_int_equal(ks->tcbs[a].ep_next, c);

    cancelSignal(ks, c, n); /* middle */
    assert_int_equal(ks->tcbs[c].state, TS_Inactive);
    assert_int_equal(ks->tcbs[a].ep_next, b);
    assert_int_equal(ks->tcbs[b].ep_prev, a);
    assert_int_equal(ks->ntfns[n].state, NTFN_Waiting);
    tc_assert_valid(ks, INV_AT_EXIT);

    cancelSignal(ks, b, n); /* tail */
    assert_int_equal(ks->ntfns[n].q_tail, a);
    assert_int_equal(ks->tcbs[a].ep_next, KS_NONE);
    assert_int_equal(ks->ntfns[n].state, NTFN_Waiting);

    /* via cancelIPC, which also clears the fault */
    ks->tcbs[a].fault = FAULT_Timeout;
    cancelIPC(ks, a); /* the last one: Idle */
    assert_int_equal(ks->tcbs[a].state, TS_Inactive);
    assert_int_equal(ks->tcbs[a].fault, FAULT_None);
    assert_int_equal(ks->ntfns[n].state, NTFN_Idle);
    assert_int_equal(ks->ntfns[n].q_head, KS_NONE);
    assert_int_equal(ks->ntfns[n].q_tail, KS_NONE);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);

    /* cancelSignal on a notification that is not Waiting: recorded */
    ks->tcbs[a].state = TS_BlockedOnNotification;
    cancelSignal(ks, a, n);
    assert_true(ks->n_asserts >= 1);
    assert_int_equal(ks->asserts[0].id, A_CANCELSIG_WAITING);
}

/* cancelIPC of a sender: the endpoint queue is unlinked the same way. */
static void test_cancel_ipc_send(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int e = build_ep(ks, "ep");
    int a = rr_thread(ks, "a", 20, 1000), b = rr_thread(ks, "b", 30, 1000);
    build_send_ep(ks, a, e);
    build_send_ep(ks, b, e); /* b a */
    cancelIPC(ks, b);
    assert_int_equal(ks->eps[e].q_head, a);
    assert_int_equal(ks->eps[e].state, EP_Send);
    assert_int_equal(ks->tcbs[b].state, TS_Inactive);
    cancelIPC(ks, a);
    assert_int_equal(ks->eps[e].state, EP_Idle);
    tc_assert_no_asserts(ks);
    tc_assert_valid(ks, INV_AT_EXIT);
    /* a running thread: nothing but the fault */
    ks_copy(&g_copy, ks);
    cancelIPC(ks, cur);
    assert_true(ks_same(ks, &g_copy));
}

/* reply_unlink asserts that the reply and the TCB name each other; when
 * they disagree the assertion is recorded and both links are cleared. */
static void test_reply_unlink_assert(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int e = build_ep(ks, "ep");
    int r = ks_add_reply(ks, "r");
    int t = rr_thread(ks, "t", 20, 1000);
    build_recv_ep(ks, t, e, r);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->replies[r].tcb = KS_NONE; /* the reply no longer names t */
    cancelIPC(ks, t);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_REPLY_UNLINK);
    assert_string_equal(kassert_fn(ks->asserts[0].id), "reply_unlink");
    assert_int_equal(ks->tcbs[t].reply, KS_NONE);
    assert_int_equal(ks->tcbs[t].state, TS_Inactive);
    assert_int_equal(ks->eps[e].state, EP_Idle);

    /* directly: r2 names u, u holds no reply */
    int r2 = ks_add_reply(ks, "r2");
    int u = rr_thread(ks, "u", 20, 1000);
    ks->replies[r2].tcb = (int8_t)u;
    reply_unlink(ks, r2, u);
    assert_int_equal(ks->n_asserts, 2);
    assert_int_equal(ks->asserts[1].id, A_REPLY_UNLINK);
    assert_int_equal(ks->replies[r2].tcb, KS_NONE);

    /* consistent links: no assertion */
    int r3 = ks_add_reply(ks, "r3");
    ks->replies[r3].tcb = (int8_t)u;
    ks->tcbs[u].reply = (int8_t)r3;
    reply_unlink(ks, r3, u);
    assert_int_equal(ks->n_asserts, 2);
    assert_int_equal(ks->tcbs[u].reply, KS_NONE);
    assert_int_equal(ks->tcbs[u].state, TS_Inactive);
}

/* A Waiting notification with an empty queue breaks the kernel's
 * assert(dest); recorded, nothing changes. */
static void test_signal_waiting_empty_assert(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int n = build_ntfn(ks, "n");
    ks->ntfns[n].state = NTFN_Waiting;
    ks_copy(&g_copy, ks);
    sendSignal(ks, n, 1);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_SIGNAL_WAIT_HEAD);
    g_copy.n_asserts = 1;
    g_copy.asserts[0].id = A_SIGNAL_WAIT_HEAD;
    assert_true(ks_same(ks, &g_copy));
}

/* cancelIPC clears a pending fault (src/object/endpoint.c:312 at
 * 43607edb6, "cancel ipc cancels all faults"). The reachable state: t took
 * a timeout fault while its handler's endpoint had no receiver, so
 * sendIPC left it BlockedOnSend there (endpoint.c:34-53) with tcbFault set
 * (faulthandler.c:37). cancelIPC (endpoint.c:316-343): t dequeued, the
 * queue empty so the endpoint Idle, no reply object, t Inactive; and the
 * fault cleared. */
static void test_cancel_ipc_clears_fault(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int e = build_ep(ks, "hep");
    int t = rr_thread(ks, "t", 20, 1000);
    build_send_ep(ks, t, e);
    ks->tcbs[t].fault = FAULT_Timeout;
    tc_assert_valid(ks, INV_AT_ENTRY);
    cancelIPC(ks, t);
    assert_int_equal(ks->tcbs[t].fault, FAULT_None);
    assert_int_equal(ks->tcbs[t].state, TS_Inactive);
    assert_int_equal(ks->eps[e].state, EP_Idle);
    assert_int_equal(ks->eps[e].q_head, KS_NONE);
    tc_assert_no_asserts(ks);
}

/* cancelIPC of a thread whose endpoint is Idle: the kernel's
 * "endpoint must not be idle" assert; recorded. */
static void test_cancel_ipc_idle_ep_assert(void **state)
{
    (void)state;
    int cur;
    struct kstate *ks = base(1000, &cur);
    int e = build_ep(ks, "ep");
    int t = rr_thread(ks, "t", 20, 1000);
    build_recv_ep(ks, t, e, KS_NONE);
    ks->eps[e].state = EP_Idle;
    cancelIPC(ks, t);
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, A_CANCEL_EP_IDLE);
    assert_int_equal(ks->tcbs[t].state, TS_Inactive);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signal_active_or),
        cmocka_unit_test(test_signal_idle_unbound),
        cmocka_unit_test(test_signal_idle_bound_not_receiving),
        cmocka_unit_test(test_signal_bound_recv_cancel),
        cmocka_unit_test(test_cancel_ipc_clears_fault),
        cmocka_unit_test(test_signal_bound_recv_empties_ep),
        cmocka_unit_test(test_signal_bound_recv_donation),
        cmocka_unit_test(test_signal_waiting_order),
        cmocka_unit_test(test_signal_waiting_fifo),
        cmocka_unit_test(test_signal_donation),
        cmocka_unit_test(test_signal_donation_postponed),
        cmocka_unit_test(test_signal_no_donation_sc_taken),
        cmocka_unit_test(test_signal_no_donation_has_sc),
        cmocka_unit_test(test_signal_unconfigured_sc),
        cmocka_unit_test(test_signal_sporadic_unblock),
        cmocka_unit_test(test_signal_sporadic_cur_sc_assert),
        cmocka_unit_test(test_cancel_signal),
        cmocka_unit_test(test_cancel_ipc_send),
        cmocka_unit_test(test_reply_unlink_assert),
        cmocka_unit_test(test_signal_waiting_empty_assert),
        cmocka_unit_test(test_cancel_ipc_idle_ep_assert),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
