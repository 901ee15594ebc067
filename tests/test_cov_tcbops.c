/*
 * Coverage tests of sim/tcbops.c: the thread invocations that change
 * scheduling, run with and without a cost recorder (tests/tcount.h).
 * Kernel (seL4 43607edb6, MCS):
 *
 *   setPriority      src/kernel/thread.c:484-511: Running/Restart: if
 *                    queued or ksCurThread, dequeue, set, SCHED_ENQUEUE,
 *                    rescheduleRequired, else only set; blocked on an
 *                    endpoint or a notification: set, reorder the queue;
 *                    any other state: set
 *   restart          thread.c:88-108: only a stopped thread (Inactive or
 *                    blocked, include/kernel/thread.h:97-110): cancelIPC,
 *                    Restart, refill_unblock_check for a sporadic SC that
 *                    is not ksCurSC, schedContext_resume, possibleSwitchTo
 *                    if schedulable
 *   decodeSetSchedParams  src/object/tcb.c:1283-1386 (the SC checks
 *                    :1331-1362), invokeTCB_ThreadControlSched :1848-1877
 *   decodeSetPriority     tcb.c:1163-1198
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks. ksCurTime 1000.
 */
#include "tcount.h"

#include "tcbops.h"
#include "schedcontext.h"

struct call {
    int t, prio, sc, ret, which;
};

enum { SET_PRIO, SET_SCHED_PARAMS, RESUME };

static void op_call(struct kstate *ks, void *p)
{
    struct call *c = p;
    if (c->which == SET_PRIO)
        c->ret = decodeSetPriority(ks, c->t, c->prio);
    else if (c->which == SET_SCHED_PARAMS)
        c->ret = decodeSetSchedParams(ks, c->t, c->prio, c->sc);
    else
        c->ret = invokeTCB_Resume(ks, c->t);
}

static void op_set_priority(struct kstate *ks, void *p)
{
    struct call *c = p;
    setPriority(ks, c->t, c->prio);
}

/* ---- setPriority ---- */

/* A ready thread (queued at 50) set to 60: requeued at 60 (the 50 queue
 * empties), rescheduleRequired. */
static void test_priority_ready(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0);
    build_sc(in, "tsc", t, 1000, 10000, 0);
    build_ready(in, t);
    struct call c = {.which = SET_PRIO, .t = t, .prio = 60};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->tcbs[t].prio, 60);
    assert_int_equal(ready_queue_head(out, 0, 0, 60), t);
    assert_int_equal(ready_queue_head(out, 0, 0, 50), KS_NONE);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    free(in);
    free(out);
}

/* The invoker sets its own priority: the decode made it Restart
 * (tcb.c:1189), it is ksCurThread, so it is enqueued at the new priority
 * and rescheduleRequired (thread.c:488-495). */
static void test_priority_self(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    struct call c = {.which = SET_PRIO, .t = cur, .prio = 120};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[cur].state, TS_Restart);
    assert_true(out->tcbs[cur].queued);
    assert_int_equal(ready_queue_head(out, 0, 0, 120), cur);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    free(in);
    free(out);
}

/* A Running thread that is neither queued nor current (waiting in the
 * release queue), an Inactive thread, and a thread blocked sending its
 * timeout fault on no endpoint (the model's handleTimeout for a thread
 * whose timeout endpoint is not in the state, sim/sched.c handleTimeout;
 * a kernel thread blocked sending always names its endpoint, so this is
 * the model's own abstraction, built on purpose): only the priority
 * changes (thread.c:496-498, 507-509; for the last, no queue to reorder). */
static void test_priority_only(void **state)
{
    (void)state;
    for (int kind = 0; kind < 3; kind++) {
        int cur, csc;
        struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
        int t = build_thread(in, "t", 50, 0);
        build_sc(in, "tsc", t, 1000, 10000, 5000);
        if (kind == 0)
            build_release(in, t);
        if (kind == 2) {
            in->tcbs[t].state = TS_BlockedOnSend;
            in->tcbs[t].fault = FAULT_Timeout;
        }
        struct call c = {.t = t, .prio = 7};
        tc_counted(in, out, op_set_priority, &c);
        tc_assert_no_asserts(out);
        assert_int_equal(out->tcbs[t].prio, 7);
        out->tcbs[t].prio = 50;
        assert_true(ks_same(in, out));
        free(in);
        free(out);
    }
}

/* Blocked on an endpoint, receiving or sending: a (10) behind b (20);
 * raised to 30, a moves to the head (reorderEP, endpoint.c, dequeue and
 * tcbEPAppend by priority). */
static void test_priority_reorders_ep(void **state)
{
    (void)state;
    for (int send = 0; send < 2; send++) {
        int cur, csc;
        struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
        int e = build_ep(in, "e");
        int a = build_thread(in, "a", 10, 0), b = build_thread(in, "b", 20, 0);
        if (send) {
            build_send_ep(in, a, e);
            build_send_ep(in, b, e);
        } else {
            build_recv_ep(in, a, e, KS_NONE);
            build_recv_ep(in, b, e, KS_NONE);
        }
        assert_int_equal(in->eps[e].q_head, b);
        struct call c = {.t = a, .prio = 30};
        tc_counted(in, out, op_set_priority, &c);
        tc_assert_no_asserts(out);
        assert_int_equal(out->eps[e].q_head, a);
        assert_int_equal(out->eps[e].q_tail, b);
        assert_int_equal(out->tcbs[a].prio, 30);
        free(in);
        free(out);
    }
}

/* ---- restart (TCB_Resume) ---- */

/* A thread that is not stopped (Running, ready): restart does nothing
 * (thread.c:90); only the invoker was set to Restart by the decode. */
static void test_resume_running(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0);
    build_sc(in, "tsc", t, 1000, 10000, 0);
    build_ready(in, t);
    struct call c = {.which = RESUME, .t = t};
    tc_counted(in, out, op_call, &c);
    assert_int_equal(c.ret, SYSERR_NONE);
    in->tcbs[cur].state = TS_Restart;
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

/* An Inactive thread and a thread blocked on a notification, each with a
 * sporadic SC (not ksCurSC) whose head is ready: cancelIPC (the blocked one
 * leaves the queue: n Idle), Restart, refill_unblock_check (head time 0 ->
 * 1000, ksReprogram), schedulable, possibleSwitchTo: the action was
 * ResumeCurrentThread, so the thread becomes the action (thread.c:543-544). */
static void test_resume_stopped(void **state)
{
    (void)state;
    for (int blocked = 0; blocked < 2; blocked++) {
        int cur, csc;
        struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
        int t = build_thread(in, "t", 50, 0), n = build_ntfn(in, "n");
        int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
        in->scs[tsc].sporadic = true;
        if (blocked)
            build_wait_ntfn(in, t, n);
        struct call c = {.which = RESUME, .t = t};
        tc_counted(in, out, op_call, &c);
        tc_assert_no_asserts(out);
        assert_int_equal(out->tcbs[t].state, TS_Restart);
        assert_int_equal(out->ntfns[n].state, NTFN_Idle);
        assert_int_equal(out->ntfns[n].q_head, KS_NONE);
        assert_int_equal(refill_head(out, tsc)->time, 1000);
        assert_true(out->reprogram);
        assert_int_equal(out->sched_action, t);
        free(in);
        free(out);
    }
}

/* A stopped thread whose sporadic SC is ksCurSC. ksCurSC is the running
 * current thread's SC, and an SC has one TCB, so this is built on
 * purpose: thread.c:94-95 skips the unblock check (head time stays 0,
 * ksReprogram stays clear). */
static void test_resume_current_sc(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0);
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    in->scs[tsc].sporadic = true;
    in->cur_sc = (int8_t)tsc;
    struct call c = {.which = RESUME, .t = t};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[t].state, TS_Restart);
    assert_int_equal(refill_head(out, tsc)->time, 0);
    assert_false(out->reprogram);
    free(in);
    free(out);
}

/* ---- TCB_SetSchedParams ---- */

/* Refusals, each seL4_IllegalOperation, the state unchanged: the thread
 * already has an SC (tcb.c:1335-1339), the SC is bound (:1340-1344), the
 * thread is blocked and the SC not released, here its head refill is in
 * the future (:1345-1349; sc_released is refill_ready, sporadic.h:151),
 * the null SC cap for the current thread (:1351-1356). */
static void test_sched_params_refusals(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc);
    int t = build_thread(in, "t", 50, 0), b = build_thread(in, "b", 50, 0), n = build_ntfn(in, "n");
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    int later = build_sc(in, "later", KS_NONE, 1000, 10000, 5000);
    build_wait_ntfn(in, b, n);
    struct call c = {.which = SET_SCHED_PARAMS, .prio = 60};
    struct kstate *out = tc_state();
    struct call cases[] = {{.t = t, .sc = later}, {.t = b, .sc = tsc}, {.t = b, .sc = later}, {.t = cur, .sc = KS_NONE}};
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        c.t = cases[i].t;
        c.sc = cases[i].sc;
        tc_counted(in, out, op_call, &c);
        assert_int_equal(c.ret, SYSERR_ILLEGAL_OPERATION);
        assert_true(ks_same(in, out));
    }
    free(in);
    free(out);
}

/* The null SC cap for a ready thread that has an SC: setPriority first
 * (requeued at 70), then schedContext_unbindTCB (tcb.c:1873-1874): out of
 * the ready queue, unbound. A released SC (head at 0, ready) for a thread
 * blocked on a notification: accepted (:1345 false), the thread is
 * reordered in n's queue and bound, and stays blocked. */
static void test_sched_params_accepted(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0), b = build_thread(in, "b", 50, 0), n = build_ntfn(in, "n");
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    int ready = build_sc(in, "ready", KS_NONE, 1000, 10000, 0);
    build_ready(in, t);
    build_wait_ntfn(in, b, n);
    struct call c = {.which = SET_SCHED_PARAMS, .t = t, .prio = 70, .sc = KS_NONE};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->tcbs[t].prio, 70);
    assert_int_equal(out->tcbs[t].sc, KS_NONE);
    assert_int_equal(out->scs[tsc].tcb, KS_NONE);
    assert_false(out->tcbs[t].queued);
    assert_int_equal(ready_queue_head(out, 0, 0, 70), KS_NONE);
    c = (struct call){.which = SET_SCHED_PARAMS, .t = b, .prio = 40, .sc = ready};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->tcbs[b].sc, ready);
    assert_int_equal(out->tcbs[b].prio, 40);
    assert_int_equal(out->tcbs[b].state, TS_BlockedOnNotification);
    assert_int_equal(out->ntfns[n].q_head, b);
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priority_ready),
        cmocka_unit_test(test_priority_self),
        cmocka_unit_test(test_priority_only),
        cmocka_unit_test(test_priority_reorders_ep),
        cmocka_unit_test(test_resume_running),
        cmocka_unit_test(test_resume_stopped),
        cmocka_unit_test(test_resume_current_sc),
        cmocka_unit_test(test_sched_params_refusals),
        cmocka_unit_test(test_sched_params_accepted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
