/*
 * Coverage tests of sim/ipc.c: the receive side of notifications and
 * endpoints, each operation run with and without a cost recorder
 * (tests/tcount.h). Kernel functions (seL4 43607edb6, MCS) and what they
 * do on the inputs used here:
 *
 *   maybeReturnSchedContext(n, t)  include/object/notification.h:23-36: if
 *                     n's SC is t's SC, unbind it from t, and if t is
 *                     ksCurThread call rescheduleRequired()
 *   receiveSignal(t, n, blocking)  src/object/notification.c:190-241:
 *                     Active: badge to t, n Idle, maybeDonateSchedContext,
 *                     refill_unblock_check if t's SC is sporadic and not
 *                     ksCurSC (:235-237); Idle/Waiting and blocking: block
 *                     on n, then maybeReturnSchedContext (:217); not
 *                     blocking: doNBRecvFailedTransfer (badge register 0,
 *                     src/kernel/thread.c:296-300)
 *   completeSignal(n, t)  notification.c:297-324: badge, n Idle,
 *                     maybeDonateSchedContext, refill_unblock_check only
 *                     for a sporadic SC that came from n and is not
 *                     ksCurSC (:307-319); a non-active n is fail()
 *   receiveIPC(t, e, blocking, r)  src/object/endpoint.c:118-272: a reply
 *                     object held by another thread is cancelled (:139-145);
 *                     a bound active notification is completed instead
 *                     (:149-150); a blocking receive returns a bound
 *                     notification's SC (:159-161); Send: take the head
 *                     sender (:196-265); Idle/Recv: block, or
 *                     doNBRecvFailedTransfer
 *
 * refill_unblock_check (src/kernel/sporadic.c) on a non-round-robin SC
 * whose head is ready sets the head's rTime to ksCurTime and ksReprogram:
 * the tests see that as head time 0 -> 1000 and reprogram set.
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks. ksCurTime 1000 throughout.
 */
#include "tcount.h"

#include "ipc.h"

struct arg {
    int t, n, e, r;
    bool blocking;
};

static void op_maybe_return(struct kstate *ks, void *p)
{
    struct arg *a = p;
    maybeReturnSchedContext(ks, a->n, a->t);
}

static void op_recv_signal(struct kstate *ks, void *p)
{
    struct arg *a = p;
    receiveSignal(ks, a->t, a->n, a->blocking);
}

static void op_complete(struct kstate *ks, void *p)
{
    struct arg *a = p;
    completeSignal(ks, a->n, a->t);
}

static void op_recv_ipc(struct kstate *ks, void *p)
{
    struct arg *a = p;
    receiveIPC(ks, a->t, a->e, a->r, a->blocking);
}

/* The current thread srv without an SC of its own while ksCurSC is still
 * the SC it ran on, now held by another thread: the state the send half of
 * seL4_NBSendWait / seL4_NBSendRecv leaves when it donated srv's SC
 * (sendIPC, endpoint.c:91-92 schedContext_donate), before the receive
 * half runs. */
static struct kstate *donated_away(int *srv, int *client)
{
    int sc;
    struct kstate *ks = tc_running("srv", "sc_srv", srv, &sc);
    *client = build_thread(ks, "client", 90, 0);
    ks->tcbs[*srv].sc = KS_NONE;
    ks->tcbs[*client].sc = (int8_t)sc;
    ks->tcbs[*client].state = TS_Running;
    ks->scs[sc].tcb = (int8_t)*client;
    return ks;
}

/* An SC bound to no thread, configured 1000 per 10000 from time 0 (ready
 * at 1000), sporadic or not, bound to notification n. */
static int ntfn_sc(struct kstate *ks, int n, bool sporadic)
{
    int sc = build_sc(ks, "nsc", KS_NONE, 1000, 10000, 0);
    ks->scs[sc].sporadic = sporadic;
    build_bind_sc_ntfn(ks, sc, n);
    return sc;
}

/* ---- maybeReturnSchedContext ---- */

/* A passive server srv runs on n's SC (donated when n was signalled) and
 * waits on n again (seL4_Wait, n Idle): it blocks, then gives the SC back
 * (notification.h:27-34): srv and the SC are unbound; srv is the current
 * thread, so the action is ChooseNewThread. */
static void test_wait_returns_sc(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int n = build_ntfn(in, "n");
    build_bind_sc_ntfn(in, sc, n);
    struct arg a = {.t = srv, .n = n, .blocking = true};
    assert_true(tc_counted(in, out, op_recv_signal, &a) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[srv].state, TS_BlockedOnNotification);
    assert_int_equal(out->ntfns[n].state, NTFN_Waiting);
    assert_int_equal(out->ntfns[n].q_head, srv);
    assert_int_equal(out->tcbs[srv].sc, KS_NONE);
    assert_int_equal(out->scs[sc].tcb, KS_NONE);
    assert_int_equal(out->ntfns[n].sc, sc); /* the binding to n stays */
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    free(in);
    free(out);
}

/* maybeReturnSchedContext on a thread that is not ksCurThread. The kernel
 * only calls it for ksCurThread (handleRecv -> receiveSignal,
 * notification.c:217, and receiveIPC, endpoint.c:160), so this call is
 * made on purpose: the SC is unbound (:28-29) and, t not being current,
 * rescheduleRequired is not called (:32): the action stays
 * ResumeCurrentThread. */
static void test_return_sc_not_current(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0);
    int n = build_ntfn(in, "n");
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    build_bind_sc_ntfn(in, tsc, n);
    struct arg a = {.t = t, .n = n};
    tc_counted(in, out, op_maybe_return, &a);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[t].sc, KS_NONE);
    assert_int_equal(out->scs[tsc].tcb, KS_NONE);
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    free(in);
    free(out);
}

/* ---- receiveSignal ---- */

/* Non-blocking receive (seL4_Poll / NBWait: handleRecv(false, ...)) on an
 * idle and on a waiting notification: doNBRecvFailedTransfer only
 * (notification.c:219-221): badge register 0, nothing else changes. */
static void test_poll_signal(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int n = build_ntfn(in, "n");
    int w = build_thread(in, "w", 10, 0);
    in->tcbs[srv].badge_reg = 77;
    struct arg a = {.t = srv, .n = n, .blocking = false};
    for (int waiting = 0; waiting < 2; waiting++) {
        if (waiting)
            build_wait_ntfn(in, w, n);
        tc_counted(in, out, op_recv_signal, &a);
        tc_assert_no_asserts(out);
        assert_int_equal(out->tcbs[srv].badge_reg, 0);
        out->tcbs[srv].badge_reg = 77;
        assert_true(ks_same(in, out));
    }
    free(in);
    free(out);
}

/* seL4_Wait on an active notification by a thread with no SC of its own
 * (donated_away): maybeDonateSchedContext gives it n's SC
 * (notification.c:36-49); that SC is not ksCurSC, so a sporadic one gets
 * refill_unblock_check (:235-237): head time 0 -> 1000, ksReprogram set.
 * A non-sporadic one does not (head time stays 0). With no SC on n the
 * thread stays without one (sc_sporadic(NULL) is false). */
static void test_signal_donates_sporadic(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        int srv, client;
        struct kstate *in = donated_away(&srv, &client), *out = tc_state();
        int n = build_ntfn(in, "n");
        int nsc = kind < 2 ? ntfn_sc(in, n, kind == 0) : KS_NONE;
        ntfn_set_active(in, n, 5);
        struct arg a = {.t = srv, .n = n, .blocking = true};
        tc_counted(in, out, op_recv_signal, &a);
        tc_assert_no_asserts(out);
        assert_int_equal(out->tcbs[srv].badge_reg, 5);
        assert_int_equal(out->ntfns[n].state, NTFN_Idle);
        assert_int_equal(out->tcbs[srv].state, TS_Running);
        assert_int_equal(out->tcbs[srv].sc, nsc);
        if (nsc != KS_NONE) {
            assert_int_equal(out->scs[nsc].tcb, srv);
            assert_int_equal(refill_head(out, nsc)->time, kind == 0 ? 1000 : 0);
        }
        assert_int_equal(out->reprogram, kind == 0);
        free(in);
        free(out);
    }
}

/* ---- completeSignal through receiveIPC ---- */

/* seL4_Recv by srv, bound to n, with n active: completeSignal
 * (endpoint.c:149-150) instead of the endpoint: badge, n Idle, srv keeps
 * running and is not queued on e. The unblock check (notification.c:
 * 307-319) needs three things; each case takes one away or has them all:
 *   0: srv has no SC, n's sporadic SC is donated: not ksCurSC -> checked
 *   1: srv runs on its own sporadic SC (ksCurSC), n has another SC: the
 *      SC is not n's -> not checked
 *   2: srv runs on n's sporadic SC, which is ksCurSC (donated at an
 *      earlier signal) -> not checked
 *   3: srv's own SC is not sporadic -> not checked
 * "checked" shows as head time 0 -> 1000 and ksReprogram. */
static void test_recv_completes_bound_signal(void **state)
{
    (void)state;
    for (int kind = 0; kind < 4; kind++) {
        int srv, sc = KS_NONE, client;
        struct kstate *in = kind == 0 ? donated_away(&srv, &client) : tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
        int n = build_ntfn(in, "n"), e = build_ep(in, "e");
        build_bind_ntfn(in, srv, n);
        int watched = KS_NONE;
        if (kind == 0) {
            watched = ntfn_sc(in, n, true);
        } else if (kind == 1) {
            in->scs[sc].sporadic = true;
            ntfn_sc(in, n, true);
            watched = sc;
        } else if (kind == 2) {
            in->scs[sc].sporadic = true;
            build_bind_sc_ntfn(in, sc, n);
            watched = sc;
        } else {
            watched = sc;
        }
        ntfn_set_active(in, n, 9);
        struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
        tc_counted(in, out, op_recv_ipc, &a);
        tc_assert_no_asserts(out);
        assert_int_equal(out->tcbs[srv].badge_reg, 9);
        assert_int_equal(out->ntfns[n].state, NTFN_Idle);
        assert_int_equal(out->tcbs[srv].state, TS_Running);
        assert_int_equal(out->eps[e].state, EP_Idle);
        assert_int_equal(out->tcbs[srv].sc, watched);
        assert_int_equal(refill_head(out, watched)->time, kind == 0 ? 1000 : 0);
        assert_int_equal(out->reprogram, kind == 0);
        free(in);
        free(out);
    }
}

/* completeSignal on a notification that is not active: the kernel's
 * fail("tried to complete signal with inactive notification object")
 * (notification.c:321-323). Its only caller, receiveIPC, checks Active
 * first (endpoint.c:149), so the call is made on purpose: the model
 * records A_COMPLETE_SIGNAL and changes nothing else. */
static void test_complete_inactive(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int n = build_ntfn(in, "n");
    in->tcbs[srv].badge_reg = 3;
    struct arg a = {.t = srv, .n = n};
    tc_counted(in, out, op_complete, &a);
    tc_assert_one(out, A_COMPLETE_SIGNAL);
    out->n_asserts = 0;
    memset(out->asserts, 0, sizeof out->asserts);
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

/* ---- receiveIPC, bound notification not active ---- */

/* srv, bound to idle n and running on n's SC, does seL4_Recv on idle e:
 * blocking, so maybeReturnSchedContext (endpoint.c:159-161) takes the SC
 * away, then srv blocks receiving (:166-190). Non-blocking (NBRecv), the
 * SC stays and doNBRecvFailedTransfer sets the badge register to 0. */
static void test_recv_bound_idle(void **state)
{
    (void)state;
    for (int blocking = 0; blocking < 2; blocking++) {
        int srv, sc;
        struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
        int n = build_ntfn(in, "n"), e = build_ep(in, "e");
        build_bind_ntfn(in, srv, n);
        build_bind_sc_ntfn(in, sc, n);
        in->tcbs[srv].badge_reg = 4;
        struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = blocking};
        tc_counted(in, out, op_recv_ipc, &a);
        tc_assert_no_asserts(out);
        if (blocking) {
            assert_int_equal(out->tcbs[srv].sc, KS_NONE);
            assert_int_equal(out->scs[sc].tcb, KS_NONE);
            assert_int_equal(out->tcbs[srv].state, TS_BlockedOnReceive);
            assert_int_equal(out->eps[e].state, EP_Recv);
            assert_int_equal(out->eps[e].q_head, srv);
        } else {
            assert_int_equal(out->tcbs[srv].sc, sc);
            assert_int_equal(out->tcbs[srv].state, TS_Running);
            assert_int_equal(out->eps[e].state, EP_Idle);
            assert_int_equal(out->tcbs[srv].badge_reg, 0);
        }
        free(in);
        free(out);
    }
}

/* A reply object whose replyTCB is the receiver itself. The kernel links a
 * reply only to a thread blocked receiving or on the reply
 * (endpoint.c:176-178, reply.c:29), and the receiver here is running, so
 * this state is built on purpose: endpoint.c:141 finds replyTCB ==
 * thread, cancels nothing, and the receive links the reply again. */
static void test_recv_reply_own(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e"), r = ks_add_reply(in, "r");
    in->replies[r].tcb = (int8_t)srv;
    struct arg a = {.t = srv, .e = e, .r = r, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[srv].state, TS_BlockedOnReceive);
    assert_int_equal(out->tcbs[srv].reply, r);
    assert_int_equal(out->replies[r].tcb, srv);
    free(in);
    free(out);
}

/* ---- receiveIPC, EPState_Send ---- */

/* Two plain senders on e (s1 at 50 ahead of s2 at 40), seL4_Recv by srv
 * (endpoint.c:196-265): s1 is dequeued, e stays Send (s2 left, :211-213);
 * no call and no fault, so s1 is set Running and possibleSwitchTo(s1)
 * (:260-262): s1 has an SC, same domain, action ResumeCurrentThread ->
 * s1 becomes the action (thread.c:543-544). s1's SC is sporadic and not
 * ksCurSC: refill_unblock_check (:234-236). */
static void test_recv_plain_senders(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e");
    int s1 = build_thread(in, "s1", 50, 0), s2 = build_thread(in, "s2", 40, 0);
    int s1sc = build_sc(in, "s1sc", s1, 1000, 10000, 0);
    in->scs[s1sc].sporadic = true;
    build_send_ep(in, s2, e);
    build_send_ep(in, s1, e);
    assert_int_equal(in->eps[e].q_head, s1);
    in->tcbs[srv].badge_reg = 8;
    struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_no_asserts(out);
    assert_int_equal(out->eps[e].state, EP_Send);
    assert_int_equal(out->eps[e].q_head, s2);
    assert_int_equal(out->tcbs[s1].state, TS_Running);
    assert_int_equal(out->sched_action, s1);
    assert_int_equal(out->tcbs[srv].badge_reg, 0);
    assert_int_equal(out->tcbs[srv].state, TS_Running);
    assert_int_equal(refill_head(out, s1sc)->time, 1000);
    assert_true(out->reprogram);
    free(in);
    free(out);
}

/* A plain sender without an SC: woken (Running), possibleSwitchTo does
 * nothing for a thread without an SC (thread.c:534), the action stays;
 * the assert of :262 (sender SC NULL or sufficient) holds. e empties. */
static void test_recv_sender_without_sc(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e"), s = build_thread(in, "s", 50, 0);
    build_send_ep(in, s, e);
    struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[s].state, TS_Running);
    assert_int_equal(out->eps[e].state, EP_Idle);
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    assert_false(out->tcbs[s].queued);
    free(in);
    free(out);
}

/* A sender whose SC's head refill is below MIN_BUDGET. Every refill is at
 * least MIN_BUDGET in a reachable state (refill_budget_check and
 * schedule_used keep them so), so this is built on purpose: the kernel's
 * assert(sender->tcbSchedContext == NULL || refill_sufficient(..., 0))
 * (endpoint.c:262) fails; the model records it after the wake. */
static void test_recv_sender_insufficient(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e"), s = build_thread(in, "s", 50, 0);
    int ssc = build_sc(in, "ssc", s, 1000, 10000, 0);
    refill_head(in, ssc)->amount = 100;
    build_send_ep(in, s, e);
    struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_one(out, A_RECVIPC_SENDER_SUFFICIENT);
    assert_int_equal(out->tcbs[s].state, TS_Running);
    free(in);
    free(out);
}

/* A timeout faulter blocked sending its fault, received without a reply
 * object: (canGrant || canGrantReply) && replyPtr fails, so the sender
 * becomes Inactive (endpoint.c:250-253); its fault stays recorded. */
static void test_recv_faulter_no_reply(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e"), f = build_thread(in, "f", 50, 0);
    build_sc(in, "fsc", f, 1000, 10000, 0);
    build_send_ep(in, f, e);
    in->tcbs[f].fault = FAULT_Timeout;
    struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[f].state, TS_Inactive);
    assert_int_equal(out->tcbs[f].fault, FAULT_Timeout);
    assert_int_equal(out->eps[e].state, EP_Idle);
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    free(in);
    free(out);
}

/* A sporadic sender holding ksCurSC. The kernel states it cannot happen
 * (endpoint.c:227-232: the SC is the current thread's, no thread's, or a
 * thread's that is not blocked), so the state is built on purpose: the
 * assert fails and, the SC being ksCurSC, no refill_unblock_check (head
 * time stays 0). */
static void test_recv_sporadic_sender_current_sc(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e"), s = build_thread(in, "s", 50, 0);
    int ssc = build_sc(in, "ssc", s, 1000, 10000, 0);
    in->scs[ssc].sporadic = true;
    in->cur_sc = (int8_t)ssc;
    build_send_ep(in, s, e);
    struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_one(out, A_RECVIPC_SENDER_SPORADIC_CUR);
    assert_int_equal(refill_head(out, ssc)->time, 0);
    assert_false(out->reprogram);
    free(in);
    free(out);
}

/* An endpoint in state Send with an empty queue, which no kernel
 * operation leaves (the last dequeue sets it Idle, endpoint.c:211-213):
 * built on purpose. assert(sender) fails (:205); the model records
 * A_RECVIPC_SEND_HEAD and stops there. */
static void test_recv_send_without_sender(void **state)
{
    (void)state;
    int srv, sc;
    struct kstate *in = tc_running("srv", "sc_srv", &srv, &sc), *out = tc_state();
    int e = build_ep(in, "e");
    in->eps[e].state = EP_Send;
    struct arg a = {.t = srv, .e = e, .r = KS_NONE, .blocking = true};
    tc_counted(in, out, op_recv_ipc, &a);
    tc_assert_one(out, A_RECVIPC_SEND_HEAD);
    out->n_asserts = 0;
    memset(out->asserts, 0, sizeof out->asserts);
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wait_returns_sc),
        cmocka_unit_test(test_return_sc_not_current),
        cmocka_unit_test(test_poll_signal),
        cmocka_unit_test(test_signal_donates_sporadic),
        cmocka_unit_test(test_recv_completes_bound_signal),
        cmocka_unit_test(test_complete_inactive),
        cmocka_unit_test(test_recv_bound_idle),
        cmocka_unit_test(test_recv_reply_own),
        cmocka_unit_test(test_recv_plain_senders),
        cmocka_unit_test(test_recv_sender_without_sc),
        cmocka_unit_test(test_recv_sender_insufficient),
        cmocka_unit_test(test_recv_faulter_no_reply),
        cmocka_unit_test(test_recv_sporadic_sender_current_sc),
        cmocka_unit_test(test_recv_send_without_sender),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
