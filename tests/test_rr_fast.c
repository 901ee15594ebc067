/*
 * Master's fastpath_reply_recv (sim/rr_fast.c) against
 * slowpath(SysReplyRecv) on hand-built states. Expected values are read
 * from master (1326364bc): src/fastpath/fastpath.c:240-550,
 * src/kernel/thread.c doReplyTransfer, src/api/syscall.c handleRecv.
 */
#define _GNU_SOURCE /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tcommon.h"

#include "build.h"
#include "diff.h"
#include "ntfn.h"
#include "print.h"
#include "rr_fast.h"
#include "scenario.h"
#include "syscall.h"

/* A master state: server srv (prio 100) runs on client cl's SC, donated
 * by cl's call (cl blocked on reply rp, heading the SC's call stack), and
 * answers with seL4_ReplyRecv on endpoint ep (idle) with reply rp. */
struct fx {
    struct tc_run *f;
    int srv, cl, ep, rp, sc;
};

static void fx_make_below(struct fx *x, bool below);

static void fx_make(struct fx *x)
{
    fx_make_below(x, false);
}

/* below: a first caller's reply lies under cl's on the stack */
static void fx_make_below(struct fx *x, bool below)
{
    x->f = tc_run_new();
    struct kstate *ks = x->f->in;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    cfg_set_kernel(&ks->cfg, KS_KERNEL_MASTER);
    x->srv = build_thread(ks, "srv", 100, 0);
    x->sc = build_sc(ks, "sc_cl", x->srv, 20000, 0, 0);
    build_run(ks, x->srv);
    if (below)
        build_call_push(ks, build_thread(ks, "below", 10, 0), x->sc, "rb");
    x->cl = build_thread(ks, "cl", 100, 0);
    x->rp = build_call_push(ks, x->cl, x->sc, "rp");
    x->ep = build_ep(ks, "ep");
    ks->active_irq = KS_IRQ_INVALID;
    ks_sysin_clear(&ks->sys);
    ks->sys.entry = ENTRY_REPLY_RECV;
    ks->sys.cap = SCAP_EP;
    ks->sys.ntfn = KS_NONE;
    ks->sys.ep = (int8_t)x->ep;
    ks->sys.rights = EPR(EPR_RECV);
    ks->sys.reply_cap = RCAP_REPLY;
    ks->sys.reply = (int8_t)x->rp;
    ks->sys.length = 1;
    build_fpu_owners(ks);
}

static void fx_run(struct fx *x, int variant, int exit, bool agree)
{
    tc_assert_valid(x->f->in, INV_AT_ENTRY);
    diff_run(x->f->in, variant, true, &x->f->v, x->f->slow, x->f->fast);
    if (x->f->v.agree != agree)
        diff_report(stderr, &x->f->v, x->f->slow, x->f->fast);
    assert_string_equal(rr_exit_name(x->f->v.exit), rr_exit_name(exit));
    assert_int_equal(x->f->v.agree, agree);
    tc_assert_no_asserts(x->f->slow);
    tc_assert_no_asserts(x->f->fast);
}

/* The commit (fastpath.c:432-547): the server blocked receiving with its
 * reply (the endpoint Recv), the stack popped to the reply below, the SC
 * back to the caller, which runs with badge 0. */
static void test_commit(void **state)
{
    (void)state;
    struct fx x;
    fx_make_below(&x, true);
    int rb = x.rp - 1, rp = x.rp;
    fx_run(&x, RR_MERGED, RR_EXIT, true);
    const struct kstate *o = x.f->fast;
    assert_int_equal(o->cur_thread, x.cl);
    assert_int_equal(o->tcbs[x.cl].state, TS_Running);
    assert_int_equal(o->tcbs[x.cl].sc, x.sc);
    assert_int_equal(o->tcbs[x.cl].badge_reg, 0);
    assert_int_equal(o->tcbs[x.srv].state, TS_BlockedOnReceive);
    assert_int_equal(o->tcbs[x.srv].blocking, x.ep);
    assert_int_equal(o->tcbs[x.srv].reply, rp);
    assert_int_equal(o->tcbs[x.srv].sc, KS_NONE);
    assert_int_equal(o->replies[rp].tcb, x.srv);
    assert_int_equal(o->replies[rp].sc_head, KS_NONE);
    assert_int_equal(o->scs[x.sc].reply, rb);
    assert_int_equal(o->replies[rb].sc_head, x.sc);
    assert_int_equal(o->scs[x.sc].tcb, x.cl);
    assert_int_equal(o->eps[x.ep].state, EP_Recv);
    assert_int_equal(o->eps[x.ep].q_head, x.srv);
    tc_assert_valid(o, INV_AT_EXIT);
    tc_run_free(x.f);
}

enum mut { M_EXTRA, M_NULL_CAP, M_NO_RECV, M_REPLY_NULL, M_BOUND_ACTIVE, M_SEND_QUEUED, M_NO_CALLER, M_VTABLE,
           M_ASID, M_VMID, M_PRIO, M_DOMAIN, M_CALLER_SC, M_AFFINITY, M_RECV_QUEUED, M_COUNT };

static void mutate(struct fx *x, int m)
{
    struct kstate *ks = x->f->in;
    struct ks_tcb *cl = &ks->tcbs[x->cl];
    switch (m) {
    case M_EXTRA: ks->sys.length = KS_MSG_REGISTERS + 1; break;
    case M_NULL_CAP: ks->sys.cap = SCAP_NULL; ks->sys.ep = KS_NONE; ks->sys.rights = 0; break;
    case M_NO_RECV: ks->sys.rights = EPR(EPR_SEND); break;
    case M_REPLY_NULL: ks->sys.reply_cap = RCAP_NULL; ks->sys.reply = KS_NONE; break;
    case M_BOUND_ACTIVE: {
        int n = build_ntfn(ks, "n");
        build_bind_ntfn(ks, x->srv, n);
        ntfn_set_active(ks, n, 2);
        break;
    }
    case M_SEND_QUEUED: {
        int s = build_thread(ks, "snd", 10, 0);
        build_sc(ks, "sc_snd", s, 8000, 0, 0);
        build_send_ep(ks, s, x->ep);
        break;
    }
    case M_NO_CALLER: ks->sys.reply = (int8_t)ks_add_reply(ks, "fresh"); break;
    case M_VTABLE: cl->vtable_ok = false; break;
    case M_ASID: cl->asid_ok = false; break;
    case M_VMID: ks->cfg.hyp = true; cl->vmid_ok = false; break;
    case M_PRIO: {
        int r = build_thread(ks, "rdy", 120, 0); /* a ready thread above the caller */
        build_sc(ks, "sc_rdy", r, 8000, 0, 0);
        build_ready(ks, r);
        ks->tcbs[x->srv].prio = 130; /* the server outranks it: a valid state */
        break;
    }
    case M_DOMAIN: build_two_domains(ks); cl->domain = 1; break;
    case M_CALLER_SC: build_sc(ks, "sc_own", x->cl, 8000, 0, 0); break;
    case M_AFFINITY: build_core1(ks); cl->affinity = 1; build_fpu_owners(ks); break;
    default: /* M_RECV_QUEUED: a receiver already waits; the server queues behind it */
        build_recv_ep(ks, build_thread(ks, "rcv", 10, 0), x->ep, KS_NONE);
        break;
    }
}

static void test_exits(void **state)
{
    (void)state;
    static const int want[M_COUNT] = {
        [M_EXTRA] = RR_SLOW_MSGINFO,       [M_NULL_CAP] = RR_SLOW_CAP,         [M_NO_RECV] = RR_SLOW_CAP,
        [M_REPLY_NULL] = RR_SLOW_REPLY_CAP, [M_BOUND_ACTIVE] = RR_SLOW_BOUND_ACTIVE,
        [M_SEND_QUEUED] = RR_SLOW_SEND_QUEUED, [M_NO_CALLER] = RR_SLOW_CALL_STACK, [M_VTABLE] = RR_SLOW_VTABLE,
        [M_ASID] = RR_SLOW_ASID,           [M_VMID] = RR_SLOW_VMID,            [M_PRIO] = RR_SLOW_PRIO,
        [M_DOMAIN] = RR_SLOW_DOMAIN,       [M_CALLER_SC] = RR_SLOW_CALLER_SC,  [M_AFFINITY] = RR_SLOW_AFFINITY,
        [M_RECV_QUEUED] = RR_EXIT,
    };
    for (int m = 0; m < M_COUNT; m++) {
        struct fx x;
        fx_make(&x);
        mutate(&x, m);
        fx_run(&x, RR_MERGED, want[m], true);
        tc_run_free(x.f);
    }
}

/* The two faults (argued unreachable by the descriptor): each falls back
 * before the commit. */
static void test_fault_exits(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    x.f->in->tcbs[x.srv].fault = FAULT_Timeout;
    assert_int_equal(fastpath_reply_recv(x.f->in, RR_MERGED), RR_SLOW_FAULT);
    tc_run_free(x.f);
    fx_make(&x);
    x.f->in->tcbs[x.cl].fault = FAULT_Timeout;
    assert_int_equal(fastpath_reply_recv(x.f->in, RR_MERGED), RR_SLOW_CALLER_FAULT);
    tc_run_free(x.f);
}

/* The call-stack check (fastpath.c:310-313) on the two other ways a reply
 * with a caller fails it: it lies below the head, or it heads another
 * SC's stack; and the one-domain guard (0 < maxDom) on a state no kernel
 * has (a domain past the only one). */
static void test_call_stack_and_domain(void **state)
{
    (void)state;
    struct fx x;
    fx_make_below(&x, true);
    x.f->in->sys.reply = (int8_t)(x.rp - 1); /* rb: a caller, not the head */
    fx_run(&x, RR_MERGED, RR_SLOW_CALL_STACK, true);
    tc_run_free(x.f);
    fx_make(&x);
    struct kstate *ks = x.f->in;
    int o = build_thread(ks, "other", 10, 0);
    int osc = build_sc(ks, "sc_o", o, 8000, 0, 0);
    build_ready(ks, o);
    ks->tcbs[o].prio = 10;
    int oc = build_thread(ks, "oc", 10, 0);
    ks->sys.reply = (int8_t)build_call_push(ks, oc, osc, "ro");
    fx_run(&x, RR_MERGED, RR_SLOW_CALL_STACK, true);
    tc_run_free(x.f);
    fx_make(&x);
    x.f->in->tcbs[x.cl].domain = 1;
    assert_int_equal(fastpath_reply_recv(x.f->in, RR_MERGED), RR_EXIT);
    tc_run_free(x.f);
}

/* The corrected fastpath's entry checks and its finish. */
static void test_fixed(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    x.f->in->hw_clock = 30000; /* past the SC's budget */
    fx_run(&x, RR_FIXED, RR_SLOW_BUDGET, true);
    fx_run(&x, RR_MERGED, RR_EXIT, false);
    tc_run_free(x.f);
    fx_make(&x);
    build_core1(x.f->in);
    build_fpu_owners(x.f->in);
    x.f->in->cfg.signal_fastpath = true;
    x.f->in->ipi_pending = 1u << 1;
    x.f->in->reprogram = true;
    fx_run(&x, RR_FIXED, RR_EXIT, true);
    assert_false(x.f->fast->reprogram);
    assert_int_equal(x.f->fast->ipi_sent, 1u << 1);
    tc_run_free(x.f);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(rr_exit_name(RR_EXIT), "reply_recv");
    assert_string_equal(rr_exit_name(RR_EXIT_COUNT), "?");
    assert_non_null(strstr(rr_exit_what(RR_SLOW_CALL_STACK), "call stack"));
    assert_true(rr_exit_is_fallback(RR_SLOW_PRIO));
    assert_false(rr_exit_is_fallback(RR_EXIT));
    assert_string_equal(rr_fix_name(RFIX_IPI_BIT), "reschedule_ipi");
    assert_non_null(strstr(rr_fix_what(RFIX_ENTRY_DOMAIN_BIT), "domain"));
    assert_string_equal(rr_variant_name(RR_MERGED), "merged");
    assert_int_equal(rr_variant_parse("fixed"), RR_FIXED);
    assert_int_equal(rr_variant_fixes(RR_FIXED), RFIX_ALL);
    assert_int_equal(rr_variant_fixes(RR_MERGED), 0);
    assert_string_equal(ks_entry_name(ENTRY_REPLY_RECV), "reply_recv");
}

/* The scenario line round-trips. */
static void test_scenario_round_trip(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    ks_print(mem, x.f->in);
    fclose(mem);
    assert_non_null(strstr(text, "syscall reply_recv cap=ep ep=ep rights=2 reply=rp length=1\n"));
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, "t", x.f->slow, &err), 0);
    assert_true(ks_same(x.f->slow, x.f->in));
    free(text);
    slowpath_reply_recv(x.f->slow);
    assert_int_equal(x.f->slow->cur_thread, x.cl);
    tc_run_free(x.f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit),
        cmocka_unit_test(test_exits),
        cmocka_unit_test(test_fault_exits),
        cmocka_unit_test(test_call_stack_and_domain),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_scenario_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
