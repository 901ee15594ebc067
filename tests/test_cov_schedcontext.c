/*
 * Coverage tests of sim/schedcontext.c: the scheduling-context
 * invocations, each decode's refusals (the kernel returns a syscall error
 * and changes nothing: not even the invoker's state, which is set to
 * Restart only after the checks) and each invoke's cases, run with and
 * without a cost recorder (tests/tcount.h). Kernel (seL4 43607edb6, MCS):
 *
 *   decodeSchedContext_Bind        src/object/schedcontext.c:87-140
 *   decodeSchedContext_UnbindObject  :29-69
 *   SchedContextUnbind             :266-274, invokeSchedContext_Unbind :142-151
 *   schedContext_bindTCB           :295-318
 *   schedContext_unbindTCB         :320-334, unbindAllTCBs :336-342
 *   schedContext_bindNtfn / unbindNtfn  :366-378
 *   decodeSchedControl_ConfigureFlags  src/object/schedcontrol.c:78-150
 *   invokeSchedControl_ConfigureFlags  :13-76
 *   refill_update / refill_new     src/kernel/sporadic.c:158-211
 *   sc_released                    include/kernel/sporadic.h:145-155
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks. ksCurTime 1000.
 */
#include "tcount.h"

#include "schedcontext.h"
#include "schedcontrol.h"

struct call {
    int sc, t, n, ret;
    ticks_t budget, period;
    unsigned extra, flags;
    int which;
};

enum { BIND, UNBIND_OBJECT, UNBIND, CONFIGURE, BIND_TCB, UNBIND_TCB };

static void op_call(struct kstate *ks, void *p)
{
    struct call *c = p;
    switch (c->which) {
    case BIND:
        c->ret = decodeSchedContext_Bind(ks, c->sc, c->t, c->n);
        break;
    case UNBIND_OBJECT:
        c->ret = decodeSchedContext_UnbindObject(ks, c->sc, c->t, c->n);
        break;
    case UNBIND:
        c->ret = decodeSchedContext_Unbind(ks, c->sc);
        break;
    case CONFIGURE:
        c->ret = decodeSchedControl_ConfigureFlags(ks, c->sc, 0, c->budget, c->period, c->extra, 0, c->flags);
        break;
    case BIND_TCB:
        schedContext_bindTCB(ks, c->sc, c->t);
        break;
    default:
        schedContext_unbindTCB(ks, c->sc, c->t);
    }
}

/* The call is refused with err and the state is exactly the input. */
static void refused(const struct kstate *in, struct call c, int err)
{
    struct kstate *out = tc_state();
    tc_counted(in, out, op_call, &c);
    assert_int_equal(c.ret, err);
    assert_true(ks_same(in, out));
    free(out);
}

/* The names of the model's syscall errors, after libsel4's seL4_Error
 * (seL4_NoError, seL4_IllegalOperation, seL4_RangeError,
 * seL4_InvalidCapability); anything else is "?". */
static void test_syserr_names(void **state)
{
    (void)state;
    assert_string_equal(ks_syserr_name(SYSERR_NONE), "none");
    assert_string_equal(ks_syserr_name(SYSERR_ILLEGAL_OPERATION), "illegal_operation");
    assert_string_equal(ks_syserr_name(SYSERR_RANGE), "range_error");
    assert_string_equal(ks_syserr_name(SYSERR_INVALID_CAP), "invalid_capability");
    assert_string_equal(ks_syserr_name(-1), "?");
    assert_string_equal(ks_syserr_name(SYSERR_COUNT), "?");
}

/* ---- SchedContext_Bind ---- */

/* Refusals, each seL4_IllegalOperation: an SC already bound to a thread
 * (:99-103), a thread that already has an SC (:105-109), a blocked thread
 * and an SC that is not released, here not configured (:111-115;
 * sc_released is false for an inactive SC, sporadic.h:147-153), an SC
 * already bound to a notification (:119-123), a notification that
 * already has an SC (:125-129). */
static void test_bind_refusals(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc);
    int t = build_thread(in, "t", 50, 0), u = build_thread(in, "u", 50, 0);
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    int free_sc = build_sc(in, "free", KS_NONE, 1000, 10000, 0);
    int unconf = build_sc_unconfigured(in, "unconf", KS_NONE);
    int n = build_ntfn(in, "n"), m = build_ntfn(in, "m");
    int bw = build_thread(in, "bw", 50, 0);
    build_wait_ntfn(in, bw, m);
    build_bind_sc_ntfn(in, tsc, n);
    refused(in, (struct call){.which = BIND, .sc = tsc, .t = u, .n = KS_NONE}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = BIND, .sc = free_sc, .t = t, .n = KS_NONE}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = BIND, .sc = unconf, .t = bw, .n = KS_NONE}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = BIND, .sc = tsc, .t = KS_NONE, .n = m}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = BIND, .sc = free_sc, .t = KS_NONE, .n = n}, SYSERR_ILLEGAL_OPERATION);
    free(in);
}

/* A blocked thread and a released SC (head at 0, ready at 1000,
 * sufficient): accepted; schedContext_resume does nothing for a thread
 * that is not schedulable (blocked), and it is not enqueued (:308-317).
 * The invoker is set to Restart (:138). */
static void test_bind_blocked_released(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0), n = build_ntfn(in, "n");
    build_wait_ntfn(in, t, n);
    int sc = build_sc(in, "sc", KS_NONE, 1000, 10000, 0);
    struct call c = {.which = BIND, .sc = sc, .t = t, .n = KS_NONE};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->tcbs[t].sc, sc);
    assert_int_equal(out->scs[sc].tcb, t);
    assert_int_equal(out->tcbs[t].state, TS_BlockedOnNotification);
    assert_false(out->tcbs[t].queued);
    assert_int_equal(out->tcbs[cur].state, TS_Restart);
    free(in);
    free(out);
}

/* A thread resumed without an SC (Restart, not schedulable) gets a
 * sporadic SC that is active and not ksCurSC: refill_unblock_check
 * (:305-307: head time 0 -> 1000, ksReprogram), schedContext_resume finds
 * it ready and sufficient, the thread is now schedulable: SCHED_ENQUEUE
 * and rescheduleRequired (:309-311). */
static void test_bind_runnable_sporadic(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0);
    in->tcbs[t].state = TS_Restart;
    int sc = build_sc(in, "sc", KS_NONE, 1000, 10000, 0);
    in->scs[sc].sporadic = true;
    struct call c = {.which = BIND, .sc = sc, .t = t, .n = KS_NONE};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_true(out->tcbs[t].queued);
    assert_int_equal(ready_queue_head(out, 0, 0, 50), t);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    assert_int_equal(refill_head(out, sc)->time, 1000);
    assert_true(out->reprogram);
    free(in);
    free(out);
}

/* schedContext_bindTCB on inputs its decodes never pass (built on
 * purpose):
 *   - an SC already bound, or a thread that already has an SC: the
 *     decodes refuse both (schedcontext.c:99-109, tcb.c:1335-1344); the
 *     kernel's asserts (:297-298) fail, the links are written anyway
 *     (:300-301);
 *   - an SC marked sporadic but not configured: scSporadic is only set by
 *     ConfigureFlags, after refill_new/refill_update (schedcontrol.c:33-73),
 *     so a sporadic SC is always active; the model's sc_sporadic records
 *     the assert and :305 stops at sc_active: no unblock check;
 *   - ksCurSC bound to no thread: ksCurSC is the current thread's SC, which
 *     every decode refuses to unbind (schedcontext.c:45-49, 268-272;
 *     tcb.c:1351-1356); :305 stops at sc != ksCurSC: head time stays 0. */
static void test_bind_tcb_unreachable(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0), u = build_thread(in, "u", 50, 0);
    int usc = build_sc(in, "usc", u, 1000, 10000, 0);
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    int v = build_thread(in, "v", 50, 0);
    /* bound SC */
    struct call c = {.which = BIND_TCB, .sc = usc, .t = v};
    tc_counted(in, out, op_call, &c);
    tc_assert_one(out, A_BIND_TCB);
    assert_int_equal(out->tcbs[v].sc, usc);
    assert_int_equal(out->scs[usc].tcb, v);
    /* thread with an SC */
    int fresh_sc = build_sc(in, "fresh", KS_NONE, 1000, 10000, 0);
    c = (struct call){.which = BIND_TCB, .sc = fresh_sc, .t = t};
    tc_counted(in, out, op_call, &c);
    tc_assert_one(out, A_BIND_TCB);
    assert_int_equal(out->tcbs[t].sc, fresh_sc);
    (void)tsc;
    /* sporadic, not configured */
    int unconf = build_sc_unconfigured(in, "unconf", KS_NONE);
    in->scs[unconf].sporadic = true;
    c = (struct call){.which = BIND_TCB, .sc = unconf, .t = v};
    tc_counted(in, out, op_call, &c);
    tc_assert_one(out, A_SPORADIC_ACTIVE);
    assert_int_equal(out->tcbs[v].sc, unconf);
    assert_false(out->reprogram);
    /* ksCurSC unbound, sporadic, bound to v */
    in->scs[csc].sporadic = true;
    in->scs[csc].tcb = KS_NONE;
    in->tcbs[cur].sc = KS_NONE;
    c = (struct call){.which = BIND_TCB, .sc = csc, .t = v};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[v].sc, csc);
    assert_int_equal(refill_head(out, csc)->time, 0);
    assert_false(out->reprogram);
    free(in);
    free(out);
}

/* A notification takes an SC (:118-130, 366-370). */
static void test_bind_ntfn(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int n = build_ntfn(in, "n"), sc = build_sc(in, "sc", KS_NONE, 1000, 10000, 0);
    struct call c = {.which = BIND, .sc = sc, .t = KS_NONE, .n = n};
    tc_counted(in, out, op_call, &c);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->ntfns[n].sc, sc);
    assert_int_equal(out->scs[sc].ntfn, n);
    free(in);
    free(out);
}

/* ---- SchedContext_UnbindObject and SchedContext_Unbind ---- */

/* Refusals (seL4_IllegalOperation): a thread the SC is not bound to
 * (:40-44), the current thread's own SC (:45-49), a notification the SC is
 * not bound to (:52-56); Unbind of the current thread's SC (:268-272). */
static void test_unbind_refusals(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc);
    int t = build_thread(in, "t", 50, 0), n = build_ntfn(in, "n");
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    refused(in, (struct call){.which = UNBIND_OBJECT, .sc = csc, .t = t, .n = KS_NONE}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = UNBIND_OBJECT, .sc = csc, .t = cur, .n = KS_NONE}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = UNBIND_OBJECT, .sc = tsc, .t = KS_NONE, .n = n}, SYSERR_ILLEGAL_OPERATION);
    refused(in, (struct call){.which = UNBIND, .sc = csc}, SYSERR_ILLEGAL_OPERATION);
    free(in);
}

/* UnbindObject of a ready thread (queued) and of a released one (in the
 * release queue): schedContext_unbindTCB (:320-334) dequeues it from both
 * queues and unlinks; it is not the current thread, so the action stays
 * ResumeCurrentThread. Then UnbindObject of the SC's notification
 * (:372-377). */
static void test_unbind_object(void **state)
{
    (void)state;
    for (int released = 0; released < 2; released++) {
        int cur, csc;
        struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
        int t = build_thread(in, "t", 50, 0), n = build_ntfn(in, "n");
        int tsc = build_sc(in, "tsc", t, 1000, 10000, released ? 5000 : 0);
        if (released)
            build_release(in, t);
        else
            build_ready(in, t);
        build_bind_sc_ntfn(in, tsc, n);
        struct call c = {.which = UNBIND_OBJECT, .sc = tsc, .t = t, .n = KS_NONE};
        tc_counted(in, out, op_call, &c);
        tc_assert_no_asserts(out);
        assert_int_equal(c.ret, SYSERR_NONE);
        assert_int_equal(out->tcbs[t].sc, KS_NONE);
        assert_int_equal(out->scs[tsc].tcb, KS_NONE);
        assert_false(out->tcbs[t].queued);
        assert_false(out->tcbs[t].in_release);
        assert_int_equal(out->sched_action, KS_SA_RESUME);
        assert_int_equal(out->scs[tsc].ntfn, n); /* the notification stays bound */
        ks_copy(in, out);
        c = (struct call){.which = UNBIND_OBJECT, .sc = tsc, .t = KS_NONE, .n = n};
        tc_counted(in, out, op_call, &c);
        assert_int_equal(c.ret, SYSERR_NONE);
        assert_int_equal(out->scs[tsc].ntfn, KS_NONE);
        assert_int_equal(out->ntfns[n].sc, KS_NONE);
        free(in);
        free(out);
    }
}

/* SchedContext_Unbind (:142-151): the bound thread and notification are
 * both unbound; on an SC bound to neither it only restarts the invoker
 * (unbindAllTCBs and unbindNtfn find nothing, :338, 374). */
static void test_unbind_all(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0), n = build_ntfn(in, "n");
    int tsc = build_sc(in, "tsc", t, 1000, 10000, 0);
    build_bind_sc_ntfn(in, tsc, n);
    struct call c = {.which = UNBIND, .sc = tsc};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->tcbs[t].sc, KS_NONE);
    assert_int_equal(out->scs[tsc].tcb, KS_NONE);
    assert_int_equal(out->ntfns[n].sc, KS_NONE);
    assert_int_equal(out->scs[tsc].ntfn, KS_NONE);
    /* again, on the now unbound SC */
    ks_copy(in, out);
    tc_counted(in, out, op_call, &c);
    assert_int_equal(c.ret, SYSERR_NONE);
    in->tcbs[cur].state = TS_Restart;
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

/* schedContext_unbindTCB of the current thread. The kernel reaches it when
 * the current thread's SC is deleted (finaliseCap ->
 * schedContext_unbindAllTCBs, src/object/objecttype.c:221), which the
 * model has no operation for, and every modelled decode refuses it; the
 * call is made directly: rescheduleRequired (:325-327), the action is
 * ChooseNewThread. */
static void test_unbind_current(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    struct call c = {.which = UNBIND_TCB, .sc = csc, .t = cur};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    assert_int_equal(out->tcbs[cur].sc, KS_NONE);
    assert_int_equal(out->scs[csc].tcb, KS_NONE);
    free(in);
    free(out);
}

/* ---- SchedControl_ConfigureFlags ---- */

/* Range errors (schedcontrol.c:108-140): budget below MIN_BUDGET, period
 * below MIN_BUDGET, budget above period, and more refills than the SC
 * holds (refill_absolute_max; the model's capacity is KS_MAX_REFILLS =
 * 16, so 15 extra refills + MIN_REFILLS is one too many). 14 extra is
 * accepted: scRefillMax 16. */
static void test_configure_refusals(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int sc = build_sc_unconfigured(in, "sc", KS_NONE);
    refused(in, (struct call){.which = CONFIGURE, .sc = sc, .budget = 100, .period = 1000}, SYSERR_RANGE);
    refused(in, (struct call){.which = CONFIGURE, .sc = sc, .budget = 200, .period = 100}, SYSERR_RANGE);
    refused(in, (struct call){.which = CONFIGURE, .sc = sc, .budget = 4000, .period = 2000}, SYSERR_RANGE);
    refused(in, (struct call){.which = CONFIGURE, .sc = sc, .budget = 1000, .period = 10000, .extra = 15},
            SYSERR_RANGE);
    struct call c = {.which = CONFIGURE, .sc = sc, .budget = 1000, .period = 10000, .extra = 14};
    tc_counted(in, out, op_call, &c);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->scs[sc].refill_max, 16);
    free(in);
    free(out);
}

/* The current thread reconfigures its own SC (4000 per 40000, after 500
 * ticks used): the thread is taken out of the queues, then, the SC being
 * ksCurSC, checkBudget holds and commitTime bills the 500 ticks
 * (schedcontrol.c:24-30: scConsumed += ksConsumed, ksConsumed = 0). The
 * thread is runnable (Restart), so refill_update keeps the window; its
 * refills then sum to the new budget (REFILL_SANITY_CHECK, sporadic.c:210).
 * It is ksCurThread: no possibleSwitchTo, rescheduleRequired (:61-69). */
static void test_configure_own_sc(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    in->consumed = 500;
    struct call c = {.which = CONFIGURE, .sc = csc, .budget = 4000, .period = 40000, .flags = SC_FLAG_SPORADIC};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(out->scs[csc].consumed, 500);
    assert_int_equal(out->consumed, 0);
    assert_int_equal(out->scs[csc].period, 40000);
    assert_int_equal(out->scs[csc].refill_max, MIN_REFILLS);
    assert_int_equal(refill_sum(&out->scs[csc]), 4000);
    assert_int_equal(out->sched_action, KS_SA_CHOOSE);
    assert_true(out->scs[csc].sporadic);
    free(in);
    free(out);
}

/* An SC whose thread waits in the release queue for its head refill (2000
 * at 5000, now 1000) grows to 3000 per 30000: the thread is Running, so
 * refill_update (sporadic.c:173-211): the head is not ready (rTime kept,
 * :194-196), it is below the new budget, so the rest, 1000, comes one new
 * period after it, at 35000 (:202-207). schedContext_resume postpones the
 * thread again (schedcontext.c:287-291); possibleSwitchTo does nothing for
 * a released thread. */
static void test_configure_released_grows(void **state)
{
    (void)state;
    int cur, csc;
    struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
    int t = build_thread(in, "t", 50, 0);
    int sc = build_sc(in, "sc", t, 2000, 20000, 5000);
    build_release(in, t);
    struct call c = {.which = CONFIGURE, .sc = sc, .budget = 3000, .period = 30000};
    tc_counted(in, out, op_call, &c);
    tc_assert_no_asserts(out);
    assert_int_equal(c.ret, SYSERR_NONE);
    assert_int_equal(refill_size(&out->scs[sc]), 2);
    assert_int_equal(refill_head(out, sc)->time, 5000);
    assert_int_equal(refill_head(out, sc)->amount, 2000);
    assert_int_equal(refill_tail(out, sc)->time, 35000);
    assert_int_equal(refill_tail(out, sc)->amount, 1000);
    assert_true(out->tcbs[t].in_release);
    assert_false(out->tcbs[t].queued);
    assert_int_equal(out->sched_action, KS_SA_RESUME);
    free(in);
    free(out);
}

/* An SC bound to a blocked thread, and an unbound configured SC: not
 * runnable / no TCB, so refill_new from now (schedcontrol.c:44-48,
 * sporadic.c:158-171): one refill of the budget at ksCurTime. The blocked
 * thread stays blocked and unqueued (:61 false). */
static void test_configure_refill_new(void **state)
{
    (void)state;
    for (int bound = 0; bound < 2; bound++) {
        int cur, csc;
        struct kstate *in = tc_running("cur", "csc", &cur, &csc), *out = tc_state();
        int t = build_thread(in, "t", 50, 0), n = build_ntfn(in, "n");
        int sc = build_sc(in, "sc", bound ? t : KS_NONE, 2000, 20000, 0);
        if (bound)
            build_wait_ntfn(in, t, n);
        struct call c = {.which = CONFIGURE, .sc = sc, .budget = 3000, .period = 30000};
        tc_counted(in, out, op_call, &c);
        tc_assert_no_asserts(out);
        assert_int_equal(c.ret, SYSERR_NONE);
        assert_int_equal(refill_size(&out->scs[sc]), 1);
        assert_int_equal(refill_head(out, sc)->time, 1000);
        assert_int_equal(refill_head(out, sc)->amount, 3000);
        assert_int_equal(out->tcbs[t].state, bound ? TS_BlockedOnNotification : TS_Inactive);
        assert_false(out->tcbs[t].queued);
        free(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syserr_names),
        cmocka_unit_test(test_bind_refusals),
        cmocka_unit_test(test_bind_blocked_released),
        cmocka_unit_test(test_bind_runnable_sporadic),
        cmocka_unit_test(test_bind_tcb_unreachable),
        cmocka_unit_test(test_bind_ntfn),
        cmocka_unit_test(test_unbind_refusals),
        cmocka_unit_test(test_unbind_object),
        cmocka_unit_test(test_unbind_all),
        cmocka_unit_test(test_unbind_current),
        cmocka_unit_test(test_configure_refusals),
        cmocka_unit_test(test_configure_own_sc),
        cmocka_unit_test(test_configure_released_grows),
        cmocka_unit_test(test_configure_refill_new),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
