/*
 * Coverage tests of sim/ntfn.c beyond tests/test_ntfn.c: the kernel
 * functions the IRQ path calls, run directly with and without a cost
 * recorder (tests/tcount.h), including the cases the IRQ path itself never
 * reaches. Kernel (MCS) functions and what they do:
 *
 *   cancelSignal(t, n)        dequeue t from n's queue; an emptied queue
 *                             makes n Idle; t becomes Inactive
 *   cancelIPC(t)              clear t's fault; by thread state: unlink from
 *                             the endpoint or notification, else nothing
 *   schedContext_donate(sc,to) from = sc->scTcb: if any, dequeue it from
 *                             the ready and release queues, take its SC
 *                             away, and if it is ksCurThread or the
 *                             scheduler action call rescheduleRequired();
 *                             then bind sc and to
 *   schedContext_resume(sc)   if sc and isSchedulable(sc->scTcb) and not
 *                             (refill_ready && refill_sufficient(sc, 0)):
 *                             postpone(sc)
 *   sendSignal(n, badge)      switch on n's state: Idle, Waiting, Active
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks.
 */
#include "schedcontext.h"
#include "tcount.h"

/* ---- cancelSignal / cancelIPC ---- */

static void op_cancel_ipc(struct kstate *ks, void *arg)
{
    cancelIPC(ks, *(int *)arg);
}

/* Two threads wait on n (priority order: a at 20 before b at 10).
 * cancelIPC(a): the queue keeps b, n stays Waiting; then cancelIPC(b):
 * the queue empties and n becomes Idle. Each thread ends Inactive with its
 * fault cleared. */
static void test_cancel_signal_counted(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int n = build_ntfn(in, "n");
    int a = build_thread(in, "a", 20, 0), b = build_thread(in, "b", 10, 0);
    build_wait_ntfn(in, b, n);
    build_wait_ntfn(in, a, n);
    assert_int_equal(in->ntfns[n].q_head, a);
    in->tcbs[a].fault = FAULT_Timeout;
    assert_true(tc_counted(in, out, op_cancel_ipc, &a) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->ntfns[n].state, NTFN_Waiting);
    assert_int_equal(out->ntfns[n].q_head, b);
    assert_int_equal(out->ntfns[n].q_tail, b);
    assert_int_equal(out->tcbs[b].ep_prev, KS_NONE);
    assert_int_equal(out->tcbs[a].state, TS_Inactive);
    assert_int_equal(out->tcbs[a].fault, FAULT_None);
    ks_copy(in, out);
    assert_true(tc_counted(in, out, op_cancel_ipc, &b) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->ntfns[n].state, NTFN_Idle);
    assert_int_equal(out->ntfns[n].q_head, KS_NONE);
    assert_int_equal(out->ntfns[n].q_tail, KS_NONE);
    assert_int_equal(out->tcbs[b].state, TS_Inactive);
    free(in);
    free(out);
}

/* A state the kernel cannot reach: a thread blocked on an endpoint whose
 * index is no endpoint (none, or past the last). The kernel would follow
 * a bad blockingObject pointer; the model records A_MODEL_INDEX and leaves
 * everything but the cleared fault (done first, as in the kernel) alone.
 * (The model's handleTimeout leaves a faulted thread BlockedOnSend with no
 * endpoint; the kernel's would be queued on its fault endpoint.) */
static void test_cancel_ipc_bad_index(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    build_ep(in, "e");
    int t = build_thread(in, "t", 10, 0);
    static const int bad[] = {KS_NONE, 1, 7};
    for (unsigned i = 0; i < 3; i++) {
        for (int st = TS_BlockedOnReceive; st <= TS_BlockedOnSend; st++) {
            in->tcbs[t].state = (uint8_t)st;
            in->tcbs[t].blocking = (int8_t)bad[i];
            in->tcbs[t].fault = FAULT_Timeout;
            tc_counted(in, out, op_cancel_ipc, &t);
            tc_assert_one(out, A_MODEL_INDEX);
            assert_int_equal(out->tcbs[t].fault, FAULT_None);
            out->tcbs[t].fault = FAULT_Timeout;
            out->n_asserts = 0;
            memset(out->asserts, 0, sizeof out->asserts);
            assert_true(ks_same(in, out));
        }
    }
    free(in);
    free(out);
}

/* ---- schedContext_donate ---- */

struct donate_arg {
    int sc, to;
};

static void op_donate(struct kstate *ks, void *arg)
{
    struct donate_arg *d = arg;
    schedContext_donate(ks, d->sc, d->to);
}

/* From, at 100, holds a round-robin SC of 1000 ticks; to, at 50, has none. */
static struct kstate *donation_state(int *from, int *to, int *sc)
{
    struct kstate *ks = tc_imx8mm(0);
    *from = build_thread(ks, "from", 100, 0);
    *sc = build_sc(ks, "sc", *from, 1000, 0, 0);
    *to = build_thread(ks, "to", 50, 0);
    return ks;
}

/* The SC taken from the running thread: it keeps running until the next
 * schedule, which rescheduleRequired() now asks for (ResumeCurrentThread
 * becomes ChooseNewThread; nothing is enqueued). ksCurSC is not touched. */
static void test_donate_from_current(void **state)
{
    (void)state;
    int from, to, sc;
    struct kstate *in = donation_state(&from, &to, &sc), *out = tc_state();
    build_run(in, from);
    struct donate_arg d = {sc, to};
    assert_true(tc_counted(in, out, op_donate, &d) > 0);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[from].sc, KS_NONE);
    assert_int_equal(out->scs[sc].tcb, to);
    assert_int_equal(out->tcbs[to].sc, sc);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    assert_int_equal(out->cur_sc, sc);
    assert_int_equal(out->l1[0][0], 0);
    assert_false(out->tcbs[from].queued);
    free(in);
    free(out);
}

/* The SC taken from the scheduler action's thread: rescheduleRequired()
 * finds the action no longer schedulable (no SC), so it is not enqueued;
 * the action becomes ChooseNewThread. */
static void test_donate_from_action(void **state)
{
    (void)state;
    int from, to, sc;
    struct kstate *in = donation_state(&from, &to, &sc), *out = tc_state();
    in->tcbs[from].state = TS_Running;
    in->sched_action = (int16_t)from;
    struct donate_arg d = {sc, to};
    tc_counted(in, out, op_donate, &d);
    tc_assert_no_asserts(out);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    assert_false(out->tcbs[from].queued);
    assert_int_equal(out->l1[0][0], 0);
    assert_int_equal(out->tcbs[to].sc, sc);
    free(in);
    free(out);
}

/* The SC taken from a thread in the ready queue (neither current nor the
 * action): tcbSchedDequeue empties its queue and clears the bitmaps; the
 * scheduler action stays ResumeCurrentThread. */
static void test_donate_from_ready(void **state)
{
    (void)state;
    int from, to, sc;
    struct kstate *in = donation_state(&from, &to, &sc), *out = tc_state();
    build_ready(in, from);
    assert_true(in->tcbs[from].queued);
    assert_int_not_equal(in->l1[0][0], 0);
    struct donate_arg d = {sc, to};
    assert_true(tc_counted(in, out, op_donate, &d) > 0);
    tc_assert_no_asserts(out);
    assert_false(out->tcbs[from].queued);
    assert_int_equal(out->l1[0][0], 0);
    assert_int_equal(out->l2[0][0][KS_L2_SIZE - 1 - (100 >> 6)], 0);
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    assert_int_equal(out->cur_thread, in->idle_thread);
    assert_int_equal(out->tcbs[from].sc, KS_NONE);
    assert_int_equal(out->scs[sc].tcb, to);
    free(in);
    free(out);
}

/* The SC taken from a thread in the release queue (periodic SC whose head
 * refill is at 5000, now 0): tcbReleaseRemove unlinks the head of the
 * release queue and sets ksReprogram. On an SMP build the receiver
 * migrates to the SC's core, and migrateTCB first releases the FPU of its
 * old core when its FPU state is live there (src/model/smp.c:23-25), so
 * the receiver no longer owns an FPU. */
static void test_donate_from_release(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int from = build_thread(in, "from", 100, 0);
    int sc = build_sc(in, "sc", from, 1000, 10000, 5000);
    int to = build_thread(in, "to", 50, 0);
    build_release(in, from);
    in->reprogram = false;
    assert_int_equal(in->release_head[0], from);
    in->cfg.smp = true;
    in->cfg.fpu = true;
    in->tcbs[to].fpu_live = true;
    in->scs[sc].core = 1;
    struct donate_arg d = {sc, to};
    tc_counted(in, out, op_donate, &d);
    tc_assert_no_asserts(out);
    assert_int_equal(out->release_head[0], KS_NONE);
    assert_false(out->tcbs[from].in_release);
    assert_true(out->reprogram);
    assert_int_equal(out->tcbs[to].affinity, 1);
    assert_false(out->tcbs[to].fpu_live);
    assert_int_equal(out->tcbs[to].sc, sc);
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    free(in);
    free(out);
}

/* ---- schedContext_resume ---- */

static void op_resume(struct kstate *ks, void *arg)
{
    schedContext_resume(ks, *(int *)arg);
}

/* No SC: nothing happens. */
static void test_resume_no_sc(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int none = KS_NONE;
    assert_true(tc_counted(in, out, op_resume, &none) > 0);
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

/* A state the kernel cannot reach: resuming an SC bound to no thread (the
 * kernel asserts sc->scTcb != NULL, then would dereference it in
 * isSchedulable). The model records the assertion and stops. */
static void test_resume_no_tcb(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int sc = build_sc(in, "lone", KS_NONE, 1000, 0, 0);
    tc_counted(in, out, op_resume, &sc);
    tc_assert_one(out, A_RESUME_HAS_TCB);
    out->n_asserts = 0;
    memset(out->asserts, 0, sizeof out->asserts);
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

/* The SC's thread is not schedulable (Inactive): nothing to postpone. */
static void test_resume_not_schedulable(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int t = build_thread(in, "t", 10, 0);
    int sc = build_sc(in, "sc", t, 1000, 10000, 5000); /* not ready either */
    assert_int_equal(in->tcbs[t].state, TS_Inactive);
    tc_counted(in, out, op_resume, &sc);
    assert_true(ks_same(in, out));
    assert_int_equal(out->release_head[0], KS_NONE);
    free(in);
    free(out);
}

/* Resumed threads that cannot run now are postponed: put in the release
 * queue (its head here, so ksReprogram is set). First a head refill that
 * is not ready (at 5000, now 0); then one that is ready (at 0) but below
 * MIN_BUDGET (100 < 160 ticks): a state the kernel cannot reach (an SC is
 * configured with at least MIN_BUDGET and charging keeps the head at or
 * above it), built to take refill_sufficient's side of the condition. */
static void test_resume_postpones(void **state)
{
    (void)state;
    static const struct { ticks_t budget, start; } cases[] = {{1000, 5000}, {100, 0}};
    for (unsigned i = 0; i < 2; i++) {
        struct kstate *in = tc_imx8mm(0), *out = tc_state();
        int t = build_thread(in, "t", 10, 0);
        int sc = build_sc(in, "sc", t, cases[i].budget, 10000, cases[i].start);
        in->tcbs[t].state = TS_Running;
        assert_true(tc_counted(in, out, op_resume, &sc) > 0);
        tc_assert_no_asserts(out);
        assert_int_equal(out->release_head[0], t);
        assert_true(out->tcbs[t].in_release);
        assert_false(out->tcbs[t].queued);
        assert_true(out->reprogram);
        free(in);
        free(out);
    }
}

/* ---- sendSignal ---- */

static void op_signal(struct kstate *ks, void *arg)
{
    sendSignal(ks, *(int *)arg, 0x10);
}

/* A state the kernel cannot reach: a notification state outside Idle,
 * Waiting and Active. sendSignal's switch has no default case in the
 * kernel: nothing happens, and the model does the same. */
static void test_signal_invalid_state(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    int n = build_ntfn(in, "n");
    in->ntfns[n].state = NTFN_COUNT;
    in->ntfns[n].msg_id = 1;
    assert_true(tc_counted(in, out, op_signal, &n) > 0);
    assert_true(ks_same(in, out));
    assert_int_equal(out->ntfns[n].msg_id, 1);
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cancel_signal_counted),
        cmocka_unit_test(test_cancel_ipc_bad_index),
        cmocka_unit_test(test_donate_from_current),
        cmocka_unit_test(test_donate_from_action),
        cmocka_unit_test(test_donate_from_ready),
        cmocka_unit_test(test_donate_from_release),
        cmocka_unit_test(test_resume_no_sc),
        cmocka_unit_test(test_resume_no_tcb),
        cmocka_unit_test(test_resume_not_schedulable),
        cmocka_unit_test(test_resume_postpones),
        cmocka_unit_test(test_signal_invalid_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
