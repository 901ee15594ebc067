/*
 * Coverage of the call path's model (sim/call_fast.c, sim/endpoint.c,
 * sim/reply.c, the reply side of sim/ipc.c, SysCall and SysReplyRecv in
 * sim/syscall.c): every branch the matrix and test_call_fast do not take,
 * each from a hand-built state with the outcome master (1326364bc) gives:
 *
 *   sendIPC                 src/object/endpoint.c:20-118
 *   receiveIPC (senders)    src/object/endpoint.c:189-240
 *   reply_push, reply_pop, reply_remove, reply_remove_tcb
 *                           src/object/reply.c:9-137
 *   doReplyTransfer         src/kernel/thread.c:131-198
 *   handleInvocation, handleRecv  src/api/syscall.c:300-390, 448-518
 *
 * A failed kernel assertion is an outcome too: where the kernel asserts,
 * the test builds the state that breaks the assertion and checks the model
 * records it (kassert.h) instead of going on silently.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcommon.h"

#include "build.h"
#include "call_fast.h"
#include "endpoint.h"
#include "ipc.h"
#include "reply.h"
#include "syscall.h"

/* master on imx8mm; thread a (prio 100, round robin) runs */
static struct kstate *base(int *a)
{
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    cfg_set_kernel(&ks->cfg, KS_KERNEL_MASTER);
    *a = build_thread(ks, "a", 100, 0);
    build_sc(ks, "sc_a", *a, 20000, 0, 0);
    build_run(ks, *a);
    build_fpu_owners(ks);
    ks->active_irq = KS_IRQ_INVALID;
    return ks;
}

static bool asserted(const struct kstate *ks, int id)
{
    for (int i = 0; i < ks->n_asserts && i < KS_MAX_ASSERTS; i++)
        if (ks->asserts[i].id == id)
            return true;
    return false;
}

/* caller t blocked on reply r (no call stack) */
static int block_on_reply(struct kstate *ks, int t, const char *rname)
{
    int r = ks_add_reply(ks, rname);
    ks->tcbs[t].state = TS_BlockedOnReply;
    ks->tcbs[t].reply = (int8_t)r;
    ks->replies[r].tcb = (int8_t)t;
    return r;
}

static void test_names_out_of_range(void **state)
{
    (void)state;
    for (int e = -1; e <= CALL_EXIT_COUNT; e += CALL_EXIT_COUNT + 1) {
        assert_string_equal(call_exit_name(e), "?");
        assert_string_equal(call_exit_what(e), "?");
        assert_false(call_exit_is_fallback(e));
    }
    for (int b = -1; b <= CFIX_COUNT; b += CFIX_COUNT + 1) {
        assert_string_equal(call_fix_name(b), "?");
        assert_string_equal(call_fix_what(b), "?");
    }
    assert_string_equal(call_variant_name(-1), "?");
    assert_string_equal(ks_reply_cap_name(-1), "?");
}

/* fastpath_call on two cores with the server on the caller's core: the
 * call is made (fastpath.c:160-164 passes); an endpoint in Recv with an
 * empty queue (no kernel state has it) is the kernel's "dest != NULL"
 * the model records */
static void test_call_smp_and_empty_queue(void **state)
{
    (void)state;
    int a;
    struct kstate *ks = base(&a);
    build_core1(ks);
    build_fpu_owners(ks);
    int e = build_ep(ks, "ep"), s = build_thread(ks, "s", 100, 0), r = ks_add_reply(ks, "r");
    build_recv_ep(ks, s, e, r);
    ks_sysin_clear(&ks->sys);
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE, .entry = ENTRY_CALL, .cap = SCAP_EP, .ntfn = KS_NONE, .ep = (int8_t)e,
                                .rights = EPR(EPR_SEND) | EPR(EPR_GRANT), .reply = KS_NONE};
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_int_equal(fastpath_call(ks, CALL_MERGED), CALL_EXIT);
    assert_int_equal(ks->cur_thread, s);
    free(ks);
    ks = base(&a);
    e = build_ep(ks, "ep");
    ks->eps[e].state = EP_Recv;
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE, .entry = ENTRY_CALL, .cap = SCAP_EP, .ntfn = KS_NONE, .ep = (int8_t)e,
                                .rights = EPR(EPR_SEND) | EPR(EPR_GRANT), .reply = KS_NONE};
    assert_int_equal(fastpath_call(ks, CALL_MERGED), CALL_EXIT);
    assert_true(asserted(ks, A_CALL_DEST));
    free(ks);
}

/* sendIPC without a call (endpoint.c:92-95): canDonate gives a passive
 * receiver the sender's SC; without it, or to a receiver with an SC of its
 * own, nothing moves. A receiver whose SC cannot pay breaks the kernel's
 * assertion (:97). Non-blocking on an idle endpoint: nothing (seL4_NBSend). */
static void test_send_without_call(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        int a;
        struct kstate *ks = base(&a);
        int e = build_ep(ks, "ep"), s = build_thread(ks, "s", 10, 0);
        int ssc = k == 2 ? build_sc(ks, "sc_s", s, 8000, 0, 0) : KS_NONE;
        build_recv_ep(ks, s, e, KS_NONE);
        struct ipc_send send = {.blocking = true, .donate = k != 1, .badge = 3};
        sendIPC(ks, &send, a, e);
        tc_assert_no_asserts(ks);
        assert_int_equal(ks->tcbs[s].state, TS_Running);
        assert_int_equal(ks->tcbs[s].badge_reg, 3);
        assert_int_equal(ks->tcbs[s].sc, k == 0 ? ks->cur_sc : ssc);
        assert_int_equal(ks->tcbs[a].state, TS_Running);
        free(ks);
    }
    int a;
    struct kstate *ks = base(&a);
    int e = build_ep(ks, "ep"), s = build_thread(ks, "s", 10, 0);
    build_sc(ks, "sc_s", s, 1000, 10000, 0);
    build_recv_ep(ks, s, e, KS_NONE);
    ks->scs[ks->tcbs[s].sc].refills[ks->scs[ks->tcbs[s].sc].head].time = 5000; /* not ready */
    struct ipc_send send = {.blocking = true};
    sendIPC(ks, &send, a, e);
    assert_true(asserted(ks, A_SENDIPC_DEST_SUFFICIENT));
    free(ks);
    /* a head refill below MIN_BUDGET: not sufficient */
    ks = base(&a);
    e = build_ep(ks, "ep");
    s = build_thread(ks, "s", 10, 0);
    build_sc(ks, "sc_s", s, 1000, 10000, 0);
    build_recv_ep(ks, s, e, KS_NONE);
    ks->scs[ks->tcbs[s].sc].refills[ks->scs[ks->tcbs[s].sc].head].amount = ks->cfg.min_budget - 1;
    sendIPC(ks, &send, a, e);
    assert_true(asserted(ks, A_SENDIPC_DEST_SUFFICIENT));
    free(ks);
    ks = base(&a);
    e = build_ep(ks, "ep");
    struct ipc_send nb = {.blocking = false};
    sendIPC(ks, &nb, a, e);
    assert_int_equal(ks->eps[e].state, EP_Idle);
    assert_int_equal(ks->tcbs[a].state, TS_Running);
    free(ks);
}

/* receiveIPC from a caller blocked sending (endpoint.c:214-226): grant
 * reply alone lets it wait on the reply; no reply object makes it
 * Inactive; a passive caller (its SC unbound while it waited) waits on the
 * reply without donating. */
static void test_receive_from_callers(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        int a;
        struct kstate *ks = base(&a);
        int e = build_ep(ks, "ep"), s = build_thread(ks, "s", 10, 0);
        if (k != 2)
            build_sc(ks, "sc_s", s, 8000, 0, 0);
        build_send_ep(ks, s, e);
        ks->tcbs[s].ipc_call = true;
        ks->tcbs[s].ipc_grant_reply = true;
        int r = k == 1 ? KS_NONE : ks_add_reply(ks, "r");
        int rcv = build_thread(ks, "rcv", 10, 0);
        receiveIPC(ks, rcv, e, r, true);
        tc_assert_no_asserts(ks);
        assert_int_equal(ks->tcbs[s].state, k == 1 ? TS_Inactive : TS_BlockedOnReply);
        assert_int_equal(ks->tcbs[rcv].sc, k == 0 ? 1 + ks->idle_sc + 1 : KS_NONE);
        free(ks);
    }
}

/* reply_push's assertions (reply.c:13-18, 39-40): a reply already on a
 * stack, and a stack whose head does not name the SC */
static void test_push_assertions(void **state)
{
    (void)state;
    for (int k = 0; k < 4; k++) {
        int a;
        struct kstate *ks = base(&a);
        int r = ks_add_reply(ks, "r"), o = ks_add_reply(ks, "o");
        int callee = build_thread(ks, "c", 10, 0);
        if (k == 0)
            ks->replies[r].prev = (int8_t)o;
        else if (k == 1)
            ks->replies[r].next = (int8_t)o;
        else if (k == 2)
            ks->replies[r].sc_head = (int8_t)ks->cur_sc;
        else
            ks->scs[ks->cur_sc].reply = (int8_t)o; /* o does not name the SC back */
        reply_push(ks, a, callee, r, true);
        assert_true(asserted(ks, k < 3 ? A_REPLY_PUSH_LINKS : A_REPLY_PUSH_STACK));
        free(ks);
    }
}

/* reply_pop's assertion (reply.c:58-61): each way the caller and the
 * reply may fail to name each other */
static void test_pop_assertion(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        int a;
        struct kstate *ks = base(&a);
        int c = build_thread(ks, "c", 10, 0);
        int r = block_on_reply(ks, c, "r");
        ks->replies[r].sc_head = (int8_t)ks->cur_sc;
        ks->scs[ks->cur_sc].reply = (int8_t)r;
        int other = build_thread(ks, "o", 10, 0);
        if (k == 0)
            reply_remove(ks, r, other); /* replyTCB is not that thread */
        else {
            if (k == 1)
                ks->tcbs[c].state = TS_BlockedOnReceive;
            else
                ks->tcbs[c].reply = KS_NONE;
            reply_remove(ks, r, c);
        }
        assert_true(asserted(ks, A_REPLY_POP));
        free(ks);
    }
}

/* A popped reply with a predecessor makes it the head again (reply.c:66-70);
 * a caller given another SC while it waited keeps it, the popped SC stays
 * (:72-80); reply_remove_tcb of a reply in the middle unlinks both sides. */
static void test_pop_and_remove(void **state)
{
    (void)state;
    int a;
    struct kstate *ks = base(&a);
    int sc = ks->cur_sc;
    int c0 = build_thread(ks, "c0", 10, 0), c1 = build_thread(ks, "c1", 10, 0), c2 = build_thread(ks, "c2", 10, 0);
    int r0 = block_on_reply(ks, c0, "r0"), r1 = block_on_reply(ks, c1, "r1"), r2 = block_on_reply(ks, c2, "r2");
    ks->replies[r0].next = (int8_t)r1;
    ks->replies[r1].prev = (int8_t)r0;
    ks->replies[r1].next = (int8_t)r2;
    ks->replies[r2].prev = (int8_t)r1;
    ks->replies[r2].sc_head = (int8_t)sc;
    ks->scs[sc].reply = (int8_t)r2;
    int own = build_sc(ks, "sc_c2", c2, 8000, 0, 0); /* c2 got an SC of its own while waiting */
    reply_remove(ks, r2, c2);
    tc_assert_no_asserts(ks);
    assert_int_equal(ks->scs[sc].reply, r1);
    assert_int_equal(ks->replies[r1].sc_head, sc);
    assert_int_equal(ks->replies[r1].next, KS_NONE);
    assert_int_equal(ks->tcbs[c2].sc, own);
    assert_int_equal(ks->scs[sc].tcb, a);
    /* the middle one, by its thread */
    int c3 = build_thread(ks, "c3", 10, 0), r3 = block_on_reply(ks, c3, "r3");
    ks->replies[r1].sc_head = KS_NONE;
    ks->replies[r1].next = (int8_t)r3;
    ks->replies[r3].prev = (int8_t)r1;
    ks->replies[r3].sc_head = (int8_t)sc;
    ks->scs[sc].reply = (int8_t)r3;
    reply_remove_tcb(ks, c1);
    assert_int_equal(ks->replies[r0].next, KS_NONE);
    assert_int_equal(ks->replies[r3].prev, KS_NONE);
    assert_int_equal(ks->tcbs[c1].state, TS_Inactive);
    tc_assert_no_asserts(ks);
    /* reply_remove_tcb of a thread not blocked on a reply: the kernel's assertion */
    ks->tcbs[c0].state = TS_Running;
    reply_remove_tcb(ks, c0);
    assert_true(asserted(ks, A_REPLY_REMOVE_TCB));
    free(ks);
}

/* doReplyTransfer (thread.c:137-198): a reply whose thread waits receiving
 * is nothing to do; a caller on a sporadic SC of its own not current on
 * its core gets the unblock check (the other core's on SMP); a refill
 * ready but not sufficient postpones it, or, with a timeout handler after
 * a timeout fault, still postpones it (no second timeout fault) */
static void test_reply_transfer_branches(void **state)
{
    (void)state;
    int a;
    struct kstate *ks = base(&a);
    int e = build_ep(ks, "ep"), s = build_thread(ks, "s", 10, 0), r = ks_add_reply(ks, "r");
    build_recv_ep(ks, s, e, r);
    doReplyTransfer(ks, a, r);
    assert_int_equal(ks->tcbs[s].state, TS_BlockedOnReceive);
    doReplyTransfer(ks, a, ks_add_reply(ks, "unused")); /* a reply object no one waits on */
    tc_assert_no_asserts(ks);
    free(ks);
    /* the SC popped back is sporadic and the current one: no unblock check */
    ks = base(&a);
    int sc = ks->cur_sc;
    ks->scs[sc].sporadic = true;
    int c0 = build_thread(ks, "c0", 10, 0), r0 = block_on_reply(ks, c0, "r0");
    ks->tcbs[a].sc = KS_NONE; /* c0's SC, donated to a by the call */
    ks->tcbs[c0].sc = KS_NONE;
    ks->replies[r0].sc_head = (int8_t)sc;
    ks->scs[sc].reply = (int8_t)r0;
    ticks_t head = ks->scs[sc].refills[ks->scs[sc].head].time;
    ks->hw_clock = ks->cur_time = 700;
    doReplyTransfer(ks, a, r0);
    assert_int_equal(ks->tcbs[c0].sc, sc);
    assert_int_equal(ks->scs[sc].refills[ks->scs[sc].head].time, head);
    free(ks);
    for (int smp = 0; smp < 2; smp++) {
        ks = base(&a);
        if (smp)
            build_core1(ks);
        int c = build_thread(ks, "c", 10, 0);
        int csc = build_sc(ks, "sc_c", c, 1000, 10000, 0);
        ks->scs[csc].sporadic = true;
        if (smp) {
            ks->scs[csc].core = 1;
            ks->tcbs[c].affinity = 1;
        }
        build_fpu_owners(ks);
        int rc = block_on_reply(ks, c, "rc");
        ks->hw_clock = ks->cur_time = 500;
        doReplyTransfer(ks, a, rc);
        tc_assert_no_asserts(ks);
        assert_int_equal(ks->tcbs[c].state, TS_Running);
        assert_int_equal(ks->scs[csc].refills[ks->scs[csc].head].time, 500); /* refill_unblock_check */
        free(ks);
    }
    for (int k = 0; k < 2; k++) {
        ks = base(&a);
        int c = build_thread(ks, "c", 10, 0);
        int csc = build_sc(ks, "sc_c", c, 1000, 10000, 0);
        ks->scs[csc].refills[ks->scs[csc].head].amount = ks->cfg.min_budget - 1; /* ready, not sufficient */
        ks->tcbs[c].timeout_handler = k == 1;
        ks->tcbs[c].fault = k == 1 ? FAULT_Timeout : FAULT_None;
        int rc = block_on_reply(ks, c, "rc");
        doReplyTransfer(ks, a, rc);
        assert_true(ks->tcbs[c].in_release);
        assert_int_equal(ks->tcbs[c].fault, FAULT_None);
        free(ks);
    }
}

/* handleSyscall's reply and receive for what the two cptrs resolve to
 * (syscall.c:300-390, 448-518) */
static void test_reply_recv_caps(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        int a;
        struct kstate *ks = base(&a);
        int e = build_ep(ks, "ep"), n = build_ntfn(ks, "n");
        int c = build_thread(ks, "c", 10, 0);
        int r = block_on_reply(ks, c, "r");
        struct ks_call call = ks_call_new(SYS_ReplyRecv, CALL_Reply);
        call.ep = e;
        call.reply = r;
        call.reply_cap = RCAP_REPLY;
        call.rights = EPR(EPR_RECV);
        if (k == 0) { /* a bad extra cap: no reply (not blocking), the receive goes on */
            call.cap = SCAP_EP;
            call.extra_caps = 1;
            call.extra_bad = 1;
        } else if (k == 1) { /* a notification cap without send: a wait on it */
            call.cap = SCAP_NTFN_NO_SEND;
            call.ntfn = n;
        } else { /* a null cap: a cap fault */
            call.cap = SCAP_NULL;
        }
        assert_true(handleSyscall(ks, &call));
        tc_assert_no_asserts(ks);
        /* k 0: not replied to, and the receive with the same reply object
         * cancels the caller ("Reply object already has unexecuted reply",
         * endpoint.c:150-156: cancelIPC -> reply_remove_tcb) */
        assert_int_equal(ks->tcbs[c].state, k == 0 ? TS_Inactive : TS_Running);
        static const int after[3] = {TS_BlockedOnReceive, TS_BlockedOnNotification, TS_Inactive};
        assert_int_equal(ks->tcbs[a].state, after[k]);
        free(ks);
    }
    /* seL4_Call on a notification cap without send: an invalid capability */
    int a;
    struct kstate *ks = base(&a);
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                .entry = ENTRY_CALL, .cap = SCAP_NTFN_NO_SEND, .ntfn = (int8_t)build_ntfn(ks, "n"),
                                .ep = KS_NONE, .reply = KS_NONE};
    ks->tcbs[a].badge_reg = 4;
    struct ks_call call = ks_call_of_entry(ks);
    assert_int_equal(call.inv, CALL_Signal);
    assert_true(handleSyscall(ks, &call));
    assert_int_equal(ks->tcbs[a].state, TS_Running);
    assert_int_equal(ks->tcbs[a].badge_reg, 0); /* replyFromKernel_error */
    free(ks);
}

/* With one domain the kernel's domain check is off (0 < maxDom fails,
 * fastpath.c:145) whatever a thread's domain field holds: the model's
 * condition is the kernel's, tested on a state no kernel has */
static void test_one_domain_guard(void **state)
{
    (void)state;
    int a;
    struct kstate *ks = base(&a);
    int e = build_ep(ks, "ep"), s = build_thread(ks, "s", 100, 0), r = ks_add_reply(ks, "r");
    build_recv_ep(ks, s, e, r);
    ks->tcbs[s].domain = 1;
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE, .entry = ENTRY_CALL, .cap = SCAP_EP, .ntfn = KS_NONE, .ep = (int8_t)e,
                                .rights = EPR(EPR_SEND) | EPR(EPR_GRANT), .reply = KS_NONE};
    assert_int_equal(fastpath_call(ks, CALL_MERGED), CALL_EXIT);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_out_of_range),
        cmocka_unit_test(test_call_smp_and_empty_queue),
        cmocka_unit_test(test_send_without_call),
        cmocka_unit_test(test_receive_from_callers),
        cmocka_unit_test(test_push_assertions),
        cmocka_unit_test(test_pop_assertion),
        cmocka_unit_test(test_pop_and_remove),
        cmocka_unit_test(test_reply_transfer_branches),
        cmocka_unit_test(test_reply_recv_caps),
        cmocka_unit_test(test_one_domain_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
