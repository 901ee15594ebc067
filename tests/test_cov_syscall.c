/*
 * Coverage tests of sim/syscall.c beyond tests/test_ops.c: handleSyscall's
 * SysSend to the invocations the other tests call directly, and a refused
 * invocation. Kernel (seL4 43607edb6, MCS): handleSyscall
 * (src/api/syscall.c) runs the call when checkBudgetRestart holds, then
 * schedule() and activateThread(); handleInvocation (:260-345) returns on a
 * syscall error without touching the invoker's state (:325-330), and
 * otherwise sets an invoker left in Restart to Running (:332-338).
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks. ksCurTime 1000.
 */
#include "tcount.h"

#include "schedcontext.h"
#include "syscall.h"

struct sys {
    struct ks_call c;
    bool performed;
};

static void op_syscall(struct kstate *ks, void *p)
{
    struct sys *s = p;
    s->performed = handleSyscall(ks, &s->c);
}

/* cur at priority 100 runs on csc (8000 per 80000 from 0) at 1000; t, at
 * 50, is ready on tsc (1000 per 10000 from 0). */
static struct kstate *two_threads(int *cur, int *csc, int *t, int *tsc)
{
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks->cur_time = ks->hw_clock = 1000;
    *cur = build_thread(ks, "cur", 100, 0);
    *csc = build_sc(ks, "csc", *cur, 8000, 80000, 0);
    build_run(ks, *cur);
    *t = build_thread(ks, "t", 50, 0);
    *tsc = build_sc(ks, "tsc", *t, 1000, 10000, 0);
    build_ready(ks, *t);
    return ks;
}

/* SchedContext_Unbind of the invoker's own SC: refused (schedcontext.c:
 * 268-272); the call was performed (budget fine), the invoker stays
 * Running and current with its SC, nothing else changes. */
static void test_refused_invocation(void **state)
{
    (void)state;
    int cur, csc, t, tsc;
    struct kstate *in = two_threads(&cur, &csc, &t, &tsc), *out = tc_state();
    struct sys s = {.c = ks_call_new(SYS_Send, CALL_SchedContext_Unbind)};
    s.c.sc = csc;
    tc_counted(in, out, op_syscall, &s);
    tc_assert_no_asserts(out);
    assert_true(s.performed);
    assert_int_equal(out->cur_thread, cur);
    assert_int_equal(out->tcbs[cur].state, TS_Running);
    assert_int_equal(out->tcbs[cur].sc, csc);
    assert_int_equal(out->scs[csc].tcb, cur);
    assert_true(out->tcbs[t].queued);
    free(in);
    free(out);
}

/* SchedContext_UnbindObject of t's SC, then SchedContext_Unbind of an SC
 * bound to a notification: both unbind (schedcontext.c:13-27, 142-151),
 * and the invoker, left in Restart by the decode, runs again. */
static void test_unbind_calls(void **state)
{
    (void)state;
    int cur, csc, t, tsc;
    struct kstate *in = two_threads(&cur, &csc, &t, &tsc), *out = tc_state();
    int n = build_ntfn(in, "n");
    int nsc = build_sc(in, "nsc", KS_NONE, 1000, 10000, 0);
    build_bind_sc_ntfn(in, nsc, n);
    struct sys s = {.c = ks_call_new(SYS_Send, CALL_SchedContext_UnbindObject)};
    s.c.sc = tsc;
    s.c.tcb = t;
    tc_counted(in, out, op_syscall, &s);
    tc_assert_no_asserts(out);
    assert_int_equal(out->tcbs[t].sc, KS_NONE);
    assert_false(out->tcbs[t].queued);
    assert_int_equal(out->tcbs[cur].state, TS_Running);
    ks_copy(in, out);
    s.c = ks_call_new(SYS_Send, CALL_SchedContext_Unbind);
    s.c.sc = nsc;
    tc_counted(in, out, op_syscall, &s);
    tc_assert_no_asserts(out);
    assert_int_equal(out->ntfns[n].sc, KS_NONE);
    assert_int_equal(out->scs[nsc].ntfn, KS_NONE);
    assert_int_equal(out->tcbs[cur].state, TS_Running);
    free(in);
    free(out);
}

/* TCB_SetPriority raises t from 50 to 120, above the invoker's 100:
 * setPriority requeues it and asks for a reschedule (thread.c:488-495);
 * schedule() at the exit (thread.c, ChooseNewThread) enqueues the invoker
 * and picks the highest priority: t runs. */
static void test_set_priority_call(void **state)
{
    (void)state;
    int cur, csc, t, tsc;
    struct kstate *in = two_threads(&cur, &csc, &t, &tsc), *out = tc_state();
    struct sys s = {.c = ks_call_new(SYS_Send, CALL_TCB_SetPriority)};
    s.c.tcb = t;
    s.c.prio = 120;
    tc_counted(in, out, op_syscall, &s);
    tc_assert_no_asserts(out);
    assert_true(s.performed);
    assert_int_equal(out->tcbs[t].prio, 120);
    assert_int_equal(out->cur_thread, t);
    assert_int_equal(out->cur_sc, tsc);
    assert_true(out->tcbs[cur].queued);
    assert_int_equal(out->tcbs[cur].state, TS_Running);
    free(in);
    free(out);
}

/* A cap fault's lookup fault (tcbLookupFailure), cur having a fault
 * handler on the idle endpoint fep and an endpoint ep it may receive on.
 * Master (1326364bc): sendFaultIPC stores current_lookup_fault with a cap
 * fault (faulthandler.c:37-39, since c119df035); handleRecv's lookupCap of
 * a cptr that does not resolve leaves resolveAddressBits' lookup fault
 * (syscall.c:458-464), a cap without the receive right gets missing
 * capability (:468-474), and so does lookupReply's reply cptr naming no
 * reply cap (:400-406, since 5d371316f), where a reply cptr that does not
 * resolve keeps lookupCap's (:392-398); handleInvocation's failed
 * lookupCapAndSlot keeps its own (:320-326). The base's sendFaultIPC
 * (faulthandler.c:30-51 at 43607edb6) stores none. Each case: cur blocks
 * sending on fep with a cap fault. */
struct lkf_case {
    int sys;
    uint8_t cap, rights, reply_cap;
    int kernel;
    uint8_t before, after;
};

static void test_cap_fault_lookup(void **state)
{
    (void)state;
    static const struct lkf_case cases[] = {
        {SYS_ReplyRecv, SCAP_EP, EPR(EPR_RECV), RCAP_NULL, KS_KERNEL_MASTER, LKF_NONE, LKF_MISSING},
        {SYS_ReplyRecv, SCAP_EP, EPR(EPR_RECV), RCAP_LOOKUP_FAIL, KS_KERNEL_MASTER, LKF_MISSING, LKF_RESOLVE},
        {SYS_ReplyRecv, SCAP_LOOKUP_FAIL, 0, RCAP_REPLY, KS_KERNEL_MASTER, LKF_NONE, LKF_RESOLVE},
        {SYS_ReplyRecv, SCAP_EP, EPR(EPR_SEND), RCAP_REPLY, KS_KERNEL_MASTER, LKF_RESOLVE, LKF_MISSING},
        {SYS_ReplyRecv, SCAP_NULL, 0, RCAP_REPLY, KS_KERNEL_MASTER, LKF_NONE, LKF_MISSING},
        {SYS_Call, SCAP_LOOKUP_FAIL, 0, RCAP_REPLY, KS_KERNEL_MASTER, LKF_MISSING, LKF_RESOLVE},
        {SYS_ReplyRecv, SCAP_EP, EPR(EPR_RECV), RCAP_NULL, KS_KERNEL_BASE, LKF_RESOLVE, LKF_RESOLVE},
        {SYS_Call, SCAP_LOOKUP_FAIL, 0, RCAP_REPLY, KS_KERNEL_BASE, LKF_NONE, LKF_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct lkf_case *k = &cases[i];
        int cur, csc, t, tsc;
        struct kstate *in = two_threads(&cur, &csc, &t, &tsc), *out = tc_state();
        cfg_set_kernel(&in->cfg, k->kernel);
        int ep = build_ep(in, "ep"), fep = build_ep(in, "fep");
        in->tcbs[cur].fault_ep = (int8_t)fep;
        in->tcbs[cur].lookup_fault = k->before;
        struct sys s = {.c = ks_call_new(k->sys, k->sys == SYS_Call ? CALL_Endpoint : CALL_Reply)};
        s.c.cap = k->cap;
        s.c.ep = k->cap == SCAP_EP ? ep : KS_NONE;
        s.c.rights = k->rights;
        s.c.reply_cap = k->reply_cap;
        s.c.reply = k->reply_cap == RCAP_REPLY ? ks_add_reply(in, "r") : KS_NONE;
        tc_counted(in, out, op_syscall, &s);
        tc_assert_no_asserts(out);
        assert_true(s.performed);
        assert_int_equal(out->tcbs[cur].state, TS_BlockedOnSend);
        assert_int_equal(out->tcbs[cur].blocking, fep);
        assert_int_equal(out->tcbs[cur].fault, FAULT_CapFault);
        assert_int_equal(out->tcbs[cur].lookup_fault, k->after);
        free(in);
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_invocation),
        cmocka_unit_test(test_unbind_calls),
        cmocka_unit_test(test_set_priority_call),
        cmocka_unit_test(test_cap_fault_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
