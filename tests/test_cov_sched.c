/*
 * Coverage tests of sim/sched.c beyond tests/test_sched.c: queue
 * operations on every shape of queue, run with and without a cost recorder
 * (tests/tcount.h); remoteQueueUpdate on a second core; and the kernel's
 * asserts and NULL dereferences on states it cannot reach (each test says
 * so), where the model records the assertion and goes on as its comment
 * in sim/sched.c says. Kernel functions (src/kernel/thread.c,
 * src/object/tcb.c, MCS):
 *
 *   tcbSchedDequeue(t)     unlink t; the bitmap bit goes when its queue
 *                          empties (t had no neighbour)
 *   tcbReleaseRemove(t)    unlink t from the release queue; removing the
 *                          head sets ksReprogram
 *   remoteQueueUpdate(t)   t queued for another core, in the current
 *                          domain: IPI that core if it idles, if t
 *                          outranks its current thread, or if it must
 *                          reprogram its timer
 *   scheduleTCB(t)         rescheduleRequired() only if t is ksCurThread,
 *                          the action is ResumeCurrentThread and t is not
 *                          schedulable
 *   possibleSwitchTo(t)    nothing for a thread without an SC or in the
 *                          release queue
 *   endTimeslice(f)        timeout fault only for a non-round-robin SC
 *                          with a handler; else append the thread if its
 *                          head refill is ready and sufficient; else
 *                          postpone
 *   activateThread()       fail("Current thread is blocked") for any
 *                          state but Running, Restart and IdleThreadState
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks, timer precision 0.
 */
#include "budget.h"
#include "tcount.h"

/* A Running thread with an SC: round robin when period is 0. */
static int thread_sc(struct kstate *ks, const char *name, int prio, ticks_t budget, ticks_t period,
                     ticks_t start)
{
    int t = build_thread(ks, name, prio, 0);
    assert_int_not_equal(t, KS_NONE);
    assert_int_not_equal(build_sc(ks, NULL, t, budget, period, start), KS_NONE);
    ks->tcbs[t].state = TS_Running;
    return t;
}

static void clear_asserts(struct kstate *ks)
{
    ks->n_asserts = 0;
    memset(ks->asserts, 0, sizeof ks->asserts);
}

static void op_dequeue(struct kstate *ks, void *arg)
{
    tcbSchedDequeue(ks, *(int *)arg);
}

static void op_release_remove(struct kstate *ks, void *arg)
{
    tcbReleaseRemove(ks, *(int *)arg);
}

/* ---- ready and release queues, each position ---- */

/* Ready queue at priority 100 holding a, b, c (appended in that order).
 * Removing b links a and c; removing the head a makes b the head (no
 * prev); removing the tail c ends the queue at b; the bit of priority 100
 * stays set in all three. Removing a thread alone in its queue clears the
 * bits (L2 bit 100 & 63 = 36 of word 3 - 1 = 2, and L1 bit 1). */
static void test_dequeue_positions(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int a = thread_sc(in, "a", 100, 1000, 0, 0);
    int b = thread_sc(in, "b", 100, 1000, 0, 0);
    int c = thread_sc(in, "c", 100, 1000, 0, 0);
    build_ready(in, a);
    build_ready(in, b);
    build_ready(in, c);
    assert_true(tc_counted(in, out, op_dequeue, &b) > 0);
    assert_int_equal(out->tcbs[a].sched_next, c);
    assert_int_equal(out->tcbs[c].sched_prev, a);
    assert_false(out->tcbs[b].queued);
    assert_int_equal(out->l1[0][0], 1ull << 1);
    tc_counted(in, out, op_dequeue, &a);
    assert_int_equal(ready_queue_head(out, 0, 0, 100), b);
    assert_int_equal(out->tcbs[b].sched_prev, KS_NONE);
    assert_int_equal(out->l1[0][0], 1ull << 1);
    tc_counted(in, out, op_dequeue, &c);
    assert_int_equal(ready_queue_tail(out, 0, 0, 100), b);
    assert_int_equal(out->tcbs[b].sched_next, KS_NONE);
    assert_int_equal(out->l2[0][0][2], 1ull << 36);
    tc_assert_no_asserts(out);
    /* alone */
    struct kstate *one = tc_imx8mm(0);
    int d = thread_sc(one, "d", 100, 1000, 0, 0);
    build_ready(one, d);
    assert_int_equal(one->l2[0][0][2], 1ull << 36);
    tc_counted(one, out, op_dequeue, &d);
    assert_int_equal(out->l1[0][0], 0);
    assert_int_equal(out->l2[0][0][2], 0);
    assert_int_equal(ready_queue_head(out, 0, 0, 100), KS_NONE);
    /* not queued: nothing */
    ks_copy(one, out);
    tc_counted(one, out, op_dequeue, &d);
    assert_true(ks_same(one, out));
    free(one);
    free(in);
    free(out);
}

/* Release queue a (head refill at 1000), b (2000), c (3000), now 0.
 * Removing b links a and c, no reprogram; removing the head a makes b the
 * head and sets ksReprogram (the next release moved); removing the tail c
 * ends the queue at b; a thread not in the queue is left alone. */
static void test_release_remove_positions(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int a = thread_sc(in, "a", 10, 500, 10000, 1000);
    int b = thread_sc(in, "b", 10, 500, 10000, 2000);
    int c = thread_sc(in, "c", 10, 500, 10000, 3000);
    int d = thread_sc(in, "d", 10, 500, 10000, 0);
    build_release(in, a);
    build_release(in, b);
    build_release(in, c);
    in->reprogram = false;
    assert_int_equal(in->release_head[0], a);
    assert_true(tc_counted(in, out, op_release_remove, &b) > 0);
    assert_int_equal(out->tcbs[a].sched_next, c);
    assert_int_equal(out->tcbs[c].sched_prev, a);
    assert_int_equal(out->tcbs[b].sched_next, KS_NONE);
    assert_int_equal(out->tcbs[b].sched_prev, KS_NONE);
    assert_false(out->tcbs[b].in_release);
    assert_false(out->reprogram);
    tc_counted(in, out, op_release_remove, &a);
    assert_int_equal(out->release_head[0], b);
    assert_int_equal(out->tcbs[b].sched_prev, KS_NONE);
    assert_true(out->reprogram);
    tc_counted(in, out, op_release_remove, &c);
    assert_int_equal(out->tcbs[b].sched_next, KS_NONE);
    assert_int_equal(out->release_head[0], a);
    assert_false(out->reprogram);
    tc_counted(in, out, op_release_remove, &d);
    assert_true(ks_same(in, out));
    tc_assert_no_asserts(out);
    free(in);
    free(out);
}

/* ---- remoteQueueUpdate (SMP) ---- */

struct remote_case {
    int target_prio;      /* -1: core 1 idles; -2: no current thread recorded */
    bool reprogram1;      /* core 1's ksReprogram */
    bool ipi;             /* expected */
};

static void op_enqueue(struct kstate *ks, void *arg)
{
    sched_enqueue(ks, *(int *)arg);
}

/* t (priority 100, core 1, current domain) is enqueued from core 0. Core 1
 * runs its idle thread, or a thread at priority 50 (t outranks it), 100
 * (equal: does not) or 200, with or without its reprogram flag. The IPI
 * goes exactly when the kernel's condition holds. A core whose current
 * thread is not recorded (-2) is not a kernel state; the model treats it
 * as idle. */
static void test_remote_queue_update(void **state)
{
    (void)state;
    static const struct remote_case cases[] = {
        {-1, false, true}, {-2, false, true}, {50, false, true}, {100, false, false},
        {200, false, false}, {200, true, true},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct kstate *in = tc_imx8mm(0), *out = tc_state();
        build_core1(in);
        if (cases[i].target_prio == -2)
            in->core_cur[1] = KS_NONE;
        if (cases[i].target_prio >= 0) {
            int o = build_thread(in, "other1", cases[i].target_prio, 0);
            in->tcbs[o].state = TS_Running;
            in->tcbs[o].affinity = 1;
            in->core_cur[1] = (int8_t)o;
        }
        in->core_reprogram[1] = cases[i].reprogram1;
        int t = build_thread(in, "t", 100, 0);
        in->tcbs[t].affinity = 1;
        int sc = build_sc(in, "sc", t, 1000, 0, 0);
        assert_int_equal(in->scs[sc].core, 1);
        in->tcbs[t].state = TS_Running;
        assert_true(tc_counted(in, out, op_enqueue, &t) > 0);
        tc_assert_no_asserts(out);
        assert_true(out->tcbs[t].queued);
        assert_int_equal(out->l1[1][0], 1ull << 1);
        assert_int_equal(out->ipi_pending, cases[i].ipi ? 1u << 1 : 0u);
        free(in);
        free(out);
    }
    /* The kernel's test of the domain (tcb.c:447, tcbDomain == ksCurDomain)
     * never decides on a reachable SMP state: an SMP build has one domain
     * (config.cmake). The model keeps the kernel's condition; this
     * two-domain SMP state (not a kernel state) exercises it: no IPI. */
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    build_core1(in);
    in->cfg.num_domains = 2;
    int t = build_thread(in, "t", 100, 1);
    in->tcbs[t].affinity = 1;
    build_sc(in, "sc", t, 1000, 0, 0);
    in->tcbs[t].state = TS_Running;
    tc_counted(in, out, op_enqueue, &t);
    assert_true(out->tcbs[t].queued);
    assert_int_equal(out->ipi_pending, 0u);
    free(in);
    free(out);
}

/* ---- scheduleTCB, possibleSwitchTo ---- */

struct state_arg {
    int t, ts;
};

static void op_set_state(struct kstate *ks, void *arg)
{
    struct state_arg *a = arg;
    setThreadState(ks, a->t, a->ts);
}

/* The current thread blocks while the scheduler action already names
 * another thread x: scheduleTCB does not call rescheduleRequired (the
 * action is not ResumeCurrentThread), so x stays the action and is not
 * enqueued. With ResumeCurrentThread it becomes ChooseNewThread. */
static void test_schedule_tcb_action_set(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int cur = thread_sc(in, "cur", 10, 1000, 0, 0);
    int x = thread_sc(in, "x", 20, 1000, 0, 0);
    build_run(in, cur);
    in->sched_action = (int16_t)x;
    struct state_arg a = {cur, TS_BlockedOnNotification};
    assert_true(tc_counted(in, out, op_set_state, &a) > 0);
    assert_int_equal(out->tcbs[cur].state, TS_BlockedOnNotification);
    assert_int_equal(out->sched_action, x);
    assert_false(out->tcbs[x].queued);
    in->sched_action = KS_SA_RESUME;
    tc_counted(in, out, op_set_state, &a);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    tc_assert_no_asserts(out);
    free(in);
    free(out);
}

static void op_possible_switch(struct kstate *ks, void *arg)
{
    possibleSwitchTo(ks, *(int *)arg);
}

/* possibleSwitchTo a thread without an SC, or one in the release queue:
 * nothing changes. */
static void test_possible_switch_skips(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int nosc = build_thread(in, "nosc", 200, 0);
    in->tcbs[nosc].state = TS_Running;
    int rel = thread_sc(in, "rel", 200, 1000, 10000, 5000);
    build_release(in, rel);
    assert_true(tc_counted(in, out, op_possible_switch, &nosc) > 0);
    assert_true(ks_same(in, out));
    assert_true(tc_counted(in, out, op_possible_switch, &rel) > 0);
    assert_true(ks_same(in, out));
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    free(in);
    free(out);
}

/* ---- endTimeslice ---- */

static void op_end_timeslice(struct kstate *ks, void *arg)
{
    endTimeslice(ks, *(bool *)arg);
}

/* A round-robin SC never takes a timeout fault, handler or not: its
 * thread, ready and sufficient (1000 ticks at 0, now 0), is appended to
 * its ready queue. */
static void test_end_timeslice_round_robin(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int t = thread_sc(in, "t", 10, 1000, 0, 0);
    int other = thread_sc(in, "other", 10, 1000, 0, 0);
    build_ready(in, other);
    build_run(in, t);
    in->tcbs[t].timeout_handler = true;
    bool can_fault = true;
    assert_true(tc_counted(in, out, op_end_timeslice, &can_fault) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[t].fault, FAULT_None);
    assert_int_equal(out->tcbs[t].state, TS_Running);
    assert_true(out->tcbs[t].queued);
    assert_int_equal(ready_queue_tail(out, 0, 0, 10), t);
    assert_int_equal(out->tcbs[other].sched_next, t);
    free(in);
    free(out);
}

/* A head refill that is ready (at 0, now 0) but below MIN_BUDGET (100 <
 * 160): a state the kernel cannot reach (charging keeps the head at or
 * above MIN_BUDGET), built to take the refill_sufficient side of the
 * condition: the thread is postponed (release queue head, ksReprogram). */
static void test_end_timeslice_insufficient(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int t = thread_sc(in, "t", 10, 100, 10000, 0);
    build_run(in, t);
    bool can_fault = false;
    assert_true(tc_counted(in, out, op_end_timeslice, &can_fault) > 0);
    tc_assert_no_asserts(out);
    assert_false(out->tcbs[t].queued);
    assert_true(out->tcbs[t].in_release);
    assert_int_equal(out->release_head[0], t);
    assert_true(out->reprogram);
    free(in);
    free(out);
}

/* ---- states the kernel cannot reach ---- */

/* isBlocked holds for exactly the four blocked states. */
static void test_is_blocked(void **state)
{
    (void)state;
    struct kstate *ks = tc_imx8mm(0);
    int t = build_thread(ks, "t", 10, 0);
    for (int st = 0; st < TS_COUNT; st++) {
        ks->tcbs[t].state = (uint8_t)st;
        bool want = st == TS_BlockedOnReceive || st == TS_BlockedOnSend || st == TS_BlockedOnReply ||
                    st == TS_BlockedOnNotification;
        assert_int_equal(isBlocked(ks, t), want);
    }
    free(ks);
}

static void op_choose(struct kstate *ks, void *arg)
{
    (void)arg;
    chooseThread(ks);
}

/* Bitmaps out of step with the queues. getHighestPrio with an L1 bit whose
 * L2 word is empty: the kernel would take clzl(0) (undefined); the model
 * records A_HIGHEST_L2 and answers the group's lowest priority (bit 2:
 * 128). chooseThread with an L1/L2 bit for priority 100 and no thread in
 * that queue: the kernel asserts the head exists and would dereference
 * NULL; the model records A_CHOOSE_THREAD and switches to the idle
 * thread. */
static void test_bitmap_without_queue(void **state)
{
    (void)state;
    struct kstate *ks = tc_imx8mm(0);
    ks->l1[0][0] = 1ull << 2;
    assert_int_equal(getHighestPrio(ks, 0), 128);
    tc_assert_one(ks, A_HIGHEST_L2);
    free(ks);

    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int cur = thread_sc(in, "cur", 10, 1000, 0, 0);
    build_run(in, cur);
    in->l1[0][0] = 1ull << 1;
    in->l2[0][0][2] = 1ull << 36;
    tc_counted(in, out, op_choose, NULL);
    tc_assert_one(out, A_CHOOSE_THREAD);
    assert_int_equal(out->cur_thread, in->idle_thread);
    free(in);
    free(out);
}

static void op_enqueue_only(struct kstate *ks, void *arg)
{
    tcbSchedEnqueue(ks, *(int *)arg);
}

static void op_switch_to(struct kstate *ks, void *arg)
{
    switchToThread(ks, *(int *)arg);
}

/* Queue operations on a thread without an SC. tcbSchedEnqueue asserts
 * isSchedulable and then refill_sufficient of a NULL SC (a NULL
 * dereference in the kernel): the model records both and still queues
 * it. switchToThread asserts the SC exists and would dereference it in
 * the refill asserts; the model records the one and switches. */
static void test_no_sc(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int t = build_thread(in, "t", 30, 0);
    in->tcbs[t].state = TS_Running;
    tc_counted(in, out, op_enqueue_only, &t);
    assert_int_equal(out->n_asserts, 2);
    assert_int_equal(out->asserts[0].id, A_ENQ_SCHEDULABLE);
    assert_int_equal(out->asserts[1].id, A_ENQ_SUFFICIENT);
    assert_true(out->tcbs[t].queued);
    assert_int_equal(ready_queue_head(out, 0, 0, 30), t);

    tc_counted(in, out, op_switch_to, &t);
    tc_assert_one(out, A_SWITCH_HAS_SC);
    assert_int_equal(out->cur_thread, t);
    free(in);
    free(out);
}

static void op_schedule(struct kstate *ks, void *arg)
{
    (void)arg;
    schedule(ks);
}

/* schedule() with a current thread that has no SC and nothing to do
 * (ResumeCurrentThread, no reprogram): switchSchedContext finds ksCurSC
 * different from the thread's (absent) SC; the kernel would run
 * refill_unblock_check and the refill asserts on NULL. The model skips
 * those, records A_SWITCH_HAS_SC and leaves ksCurSC as it was. */
static void test_schedule_current_without_sc(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int t = build_thread(in, "t", 30, 0);
    in->tcbs[t].state = TS_Running;
    in->cur_thread = (int8_t)t;
    assert_int_equal(in->cur_sc, in->idle_sc);
    assert_true(tc_counted(in, out, op_schedule, NULL) > 0);
    tc_assert_one(out, A_SWITCH_HAS_SC);
    assert_int_equal(out->cur_sc, in->idle_sc);
    assert_int_equal(out->cur_thread, t);
    assert_false(out->reprogram);
    assert_int_equal(out->deadline, in->deadline);
    free(in);
    free(out);
}

static void op_activate(struct kstate *ks, void *arg)
{
    (void)arg;
    activateThread(ks);
}

/* activateThread on a current thread that is Inactive or blocked: the
 * kernel's fail("Current thread is blocked"), recorded; the state is
 * otherwise unchanged. */
static void test_activate_blocked(void **state)
{
    (void)state;
    static const int states[] = {TS_Inactive, TS_BlockedOnReceive, TS_BlockedOnSend, TS_BlockedOnReply,
                                 TS_BlockedOnNotification};
    for (unsigned i = 0; i < sizeof states / sizeof states[0]; i++) {
        struct kstate *in = tc_imx8mm(0), *out = tc_state();
        int t = thread_sc(in, "t", 10, 1000, 0, 0);
        build_run(in, t);
        in->tcbs[t].state = (uint8_t)states[i];
        assert_true(tc_counted(in, out, op_activate, NULL) > 0);
        tc_assert_one(out, A_ACTIVATE_BLOCKED);
        clear_asserts(out);
        assert_true(ks_same(in, out));
        free(in);
        free(out);
    }
}

/* ---- timeout faults: handleTimeout -> sendFaultIPC -> sendIPC ----
 * handleTimeout (src/kernel/faulthandler.c:24-28) sends the fault on the
 * timeout endpoint with sendIPC(blocking, no call, canDonate false)
 * (:30-49). sendIPC (src/object/endpoint.c:20-118), EPState_Recv:
 * dequeue the head receiver (:68-74), unlink its reply (:80-83); a fault
 * is pending, so reply_push(faulter, receiver, reply) or, without a reply,
 * the faulter becomes Inactive (:85-91); assert the receiver's SC is
 * sufficient and ready (:97-98), wake it (:99), refill_unblock_check if
 * its SC is sporadic and not ksCurSC (:100-102), possibleSwitchTo (:103).
 * Idle/Send: block the faulter sending (:28-55). */

static void op_timeout(struct kstate *ks, void *arg)
{
    handleTimeout(ks, *(int *)arg);
}

/* The faulter f (priority 10, 1000 per 10000 from 0) runs at 1000 with a
 * timeout handler endpoint e. */
static struct kstate *faulter(int *f, int *e)
{
    struct kstate *ks = tc_imx8mm(1000);
    *f = thread_sc(ks, "f", 10, 1000, 10000, 0);
    build_run(ks, *f);
    *e = build_ep(ks, "fault_ep");
    ks->tcbs[*f].timeout_handler = true;
    ks->tcbs[*f].timeout_ep = (int8_t)*e;
    return ks;
}

/* Two handlers wait on e (h1 at 200 ahead of h2 at 150), each with a
 * reply object. h1 is taken: e stays Recv with h2 (:72-74 not taken); f
 * waits on h1's reply (reply_push: BlockedOnReply, reply.c:26-31); h1's
 * sporadic SC (not ksCurSC) gets refill_unblock_check: head time 0 ->
 * 1000, ksReprogram. f blocking made the action ChooseNewThread
 * (scheduleTCB, thread.c:558-565), so possibleSwitchTo enqueues h1
 * (:539-542). */
static void test_timeout_second_handler(void **state)
{
    (void)state;
    int f, e;
    struct kstate *in = faulter(&f, &e), *out = tc_state();
    int h1 = thread_sc(in, "h1", 200, 1000, 10000, 0), h2 = thread_sc(in, "h2", 150, 1000, 10000, 0);
    int r1 = ks_add_reply(in, "r1"), r2 = ks_add_reply(in, "r2");
    build_recv_ep(in, h2, e, r2);
    build_recv_ep(in, h1, e, r1);
    int h1sc = in->tcbs[h1].sc;
    in->scs[h1sc].sporadic = true;
    assert_true(tc_counted(in, out, op_timeout, &f) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[f].fault, FAULT_Timeout);
    assert_int_equal(out->tcbs[f].state, TS_BlockedOnReply);
    assert_int_equal(out->tcbs[f].reply, r1);
    assert_int_equal(out->replies[r1].tcb, f);
    assert_int_equal(out->eps[e].state, EP_Recv);
    assert_int_equal(out->eps[e].q_head, h2);
    assert_int_equal(out->tcbs[h1].state, TS_Running);
    assert_true(out->tcbs[h1].queued);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    assert_int_equal(refill_head(out, h1sc)->time, 1000);
    assert_true(out->reprogram);
    assert_int_equal(out->tcbs[h2].state, TS_BlockedOnReceive);
    free(in);
    free(out);
}

/* A passive handler (no SC) waiting without a reply: f becomes Inactive
 * (:89-90), the asserts on the receiver's SC do not apply (NULL, :97-98),
 * possibleSwitchTo does nothing for a thread without an SC
 * (thread.c:534): h is Running but not queued. */
static void test_timeout_passive_handler(void **state)
{
    (void)state;
    int f, e;
    struct kstate *in = faulter(&f, &e), *out = tc_state();
    int h = build_thread(in, "h", 200, 0);
    build_recv_ep(in, h, e, KS_NONE);
    assert_true(tc_counted(in, out, op_timeout, &f) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[f].state, TS_Inactive);
    assert_int_equal(out->tcbs[h].state, TS_Running);
    assert_false(out->tcbs[h].queued);
    assert_int_equal(out->eps[e].state, EP_Idle);
    free(in);
    free(out);
}

/* A waiting handler whose sporadic SC is ksCurSC. ksCurSC is the SC of
 * the faulting current thread (chargeBudget asserts it, thread.c:613), and
 * an SC has one TCB, so this state is built on purpose: the unblock check
 * is skipped (:100): head time stays 0, ksReprogram stays clear. */
static void test_timeout_handler_holds_current_sc(void **state)
{
    (void)state;
    int f, e;
    struct kstate *in = faulter(&f, &e), *out = tc_state();
    int h = thread_sc(in, "h", 200, 1000, 10000, 0);
    build_recv_ep(in, h, e, KS_NONE);
    int hsc = in->tcbs[h].sc;
    in->scs[hsc].sporadic = true;
    in->cur_sc = (int8_t)hsc;
    tc_counted(in, out, op_timeout, &f);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[h].state, TS_Running);
    assert_int_equal(refill_head(out, hsc)->time, 0);
    assert_false(out->reprogram);
    free(in);
    free(out);
}

/* An endpoint in state Recv with an empty queue, which no kernel operation
 * leaves (the last dequeue sets it Idle, endpoint.c:72-74):
 * built on purpose. sendFaultIPC has set tcbFault (faulthandler.c:36),
 * then assert(dest) fails (endpoint.c:66); the model records
 * A_SENDIPC_RECV_HEAD and stops. */
static void test_timeout_recv_without_receiver(void **state)
{
    (void)state;
    int f, e;
    struct kstate *in = faulter(&f, &e), *out = tc_state();
    in->eps[e].state = EP_Recv;
    tc_counted(in, out, op_timeout, &f);
    tc_assert_one(out, A_SENDIPC_RECV_HEAD);
    assert_int_equal(out->tcbs[f].fault, FAULT_Timeout);
    clear_asserts(out);
    out->tcbs[f].fault = FAULT_None;
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

static void op_check_budget_restart(struct kstate *ks, void *arg)
{
    *(bool *)arg = checkBudgetRestart(ks);
}

/* checkBudgetRestart (include/kernel/thread.h:289-297) at a system-call
 * entry after the whole budget is used (ksConsumed 1000 of 1000):
 * checkBudget charges it, chargeBudget(.., true) -> endTimeslice
 * (thread.c:621-636). With a timeout handler the thread takes a timeout
 * fault and blocks sending on e (idle), so it is no longer runnable and
 * is not set to Restart (:293 false); without one it is postponed and set
 * to Restart. */
static void test_check_budget_restart_timeout(void **state)
{
    (void)state;
    for (int handler = 0; handler < 2; handler++) {
        int f, e;
        struct kstate *in = faulter(&f, &e), *out = tc_state();
        in->consumed = 1000;
        if (!handler) {
            in->tcbs[f].timeout_handler = false;
            in->tcbs[f].timeout_ep = KS_NONE;
        }
        bool performed = true;
        tc_counted(in, out, op_check_budget_restart, &performed);
        tc_assert_no_asserts(out);
        assert_false(performed);
        if (handler) {
            assert_int_equal(out->tcbs[f].state, TS_BlockedOnSend);
            assert_int_equal(out->tcbs[f].fault, FAULT_Timeout);
            assert_int_equal(out->eps[e].state, EP_Send);
            assert_int_equal(out->eps[e].q_head, f);
        } else {
            assert_int_equal(out->tcbs[f].state, TS_Restart);
            assert_true(out->tcbs[f].in_release);
        }
        free(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dequeue_positions),
        cmocka_unit_test(test_release_remove_positions),
        cmocka_unit_test(test_remote_queue_update),
        cmocka_unit_test(test_schedule_tcb_action_set),
        cmocka_unit_test(test_possible_switch_skips),
        cmocka_unit_test(test_end_timeslice_round_robin),
        cmocka_unit_test(test_end_timeslice_insufficient),
        cmocka_unit_test(test_is_blocked),
        cmocka_unit_test(test_bitmap_without_queue),
        cmocka_unit_test(test_no_sc),
        cmocka_unit_test(test_schedule_current_without_sc),
        cmocka_unit_test(test_activate_blocked),
        cmocka_unit_test(test_timeout_second_handler),
        cmocka_unit_test(test_timeout_passive_handler),
        cmocka_unit_test(test_timeout_handler_holds_current_sc),
        cmocka_unit_test(test_timeout_recv_without_receiver),
        cmocka_unit_test(test_check_budget_restart_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
