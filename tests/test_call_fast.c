/*
 * Master's fastpath_call (sim/call_fast.c) against slowpath(SysCall), and
 * the slowpath pieces it needs (sim/endpoint.c, sim/reply.c, SysCall and
 * SysReplyRecv in sim/syscall.c), on hand-built states. Expected values
 * are read from master (1326364bc): src/fastpath/fastpath.c:19-233,
 * src/object/endpoint.c:20-118, src/object/reply.c, src/kernel/thread.c
 * doReplyTransfer, src/api/syscall.c handleInvocation and handleRecv.
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
#include "call_fast.h"
#include "diff.h"
#include "ipc.h"
#include "print.h"
#include "reply.h"
#include "scenario.h"
#include "schedcontext.h"
#include "syscall.h"
#include "target.h"

#define RIGHTS_CALL (EPR(EPR_SEND) | EPR(EPR_GRANT))

/* A master state: client cl (prio 100, round-robin SC, running) about to
 * seL4_Call endpoint ep on which server srv (prio 100, passive, reply rp)
 * waits; badge 7, two message words. */
struct fx {
    struct tc_run *f;
    int cl, srv, ep, rp, sc;
};

static void fx_make(struct fx *x)
{
    x->f = tc_run_new();
    struct kstate *ks = x->f->in;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    cfg_set_kernel(&ks->cfg, KS_KERNEL_MASTER);
    x->cl = build_thread(ks, "cl", 100, 0);
    x->sc = build_sc(ks, "sc_cl", x->cl, 20000, 0, 0);
    build_run(ks, x->cl);
    x->ep = build_ep(ks, "ep");
    x->srv = build_thread(ks, "srv", 100, 0);
    x->rp = ks_add_reply(ks, "rp");
    build_recv_ep(ks, x->srv, x->ep, x->rp);
    ks->active_irq = KS_IRQ_INVALID;
    ks_sysin_clear(&ks->sys);
    ks->sys.entry = ENTRY_CALL;
    ks->sys.cap = SCAP_EP;
    ks->sys.ntfn = KS_NONE;
    ks->sys.ep = (int8_t)x->ep;
    ks->sys.rights = RIGHTS_CALL;
    ks->sys.badge = 7;
    ks->sys.length = 2;
    build_fpu_owners(ks); /* master: the running thread owns its core's FPU */
}

/* Both paths; the exit expected; the verdict (agree unless told). */
static void fx_run(struct fx *x, int variant, int exit, bool agree)
{
    tc_assert_valid(x->f->in, INV_AT_ENTRY);
    diff_run(x->f->in, variant, true, &x->f->v, x->f->slow, x->f->fast);
    if (x->f->v.agree != agree)
        diff_report(stderr, &x->f->v, x->f->slow, x->f->fast);
    assert_string_equal(call_exit_name(x->f->v.exit), call_exit_name(exit));
    assert_int_equal(x->f->v.agree, agree);
    tc_assert_no_asserts(x->f->slow);
    tc_assert_no_asserts(x->f->fast);
}

/* a client c blocked on reply r heading sc's call stack */
static int push_client(struct kstate *ks, const char *name, int sc)
{
    return build_call_push(ks, build_thread(ks, name, 50, 0), sc, NULL);
}

/* The commit (fastpath.c:168-232): the server dequeued (the endpoint idle
 * behind it), the client blocked on the server's reply, the SC donated
 * and pushed on its call stack, the server switched to with the badge. */
static void test_commit(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    int old = push_client(x.f->in, "c0", x.sc); /* the client is itself a server */
    fx_run(&x, CALL_MERGED, CALL_EXIT, true);
    const struct kstate *o = x.f->fast;
    assert_int_equal(o->cur_thread, x.srv);
    assert_int_equal(o->vspace, x.srv);
    assert_int_equal(o->tcbs[x.cl].state, TS_BlockedOnReply);
    assert_int_equal(o->tcbs[x.cl].reply, x.rp);
    assert_int_equal(o->tcbs[x.cl].sc, KS_NONE);
    assert_int_equal(o->tcbs[x.srv].state, TS_Running);
    assert_int_equal(o->tcbs[x.srv].sc, x.sc);
    assert_int_equal(o->tcbs[x.srv].badge_reg, 7);
    assert_int_equal(o->scs[x.sc].tcb, x.srv);
    assert_int_equal(o->scs[x.sc].reply, x.rp);
    assert_int_equal(o->replies[x.rp].tcb, x.cl);
    assert_int_equal(o->replies[x.rp].prev, old);
    assert_int_equal(o->replies[x.rp].sc_head, x.sc);
    assert_int_equal(o->replies[old].next, x.rp);
    assert_int_equal(o->replies[old].sc_head, KS_NONE);
    assert_int_equal(o->eps[x.ep].state, EP_Idle);
    assert_int_equal(o->eps[x.ep].q_head, KS_NONE);
    tc_assert_valid(o, INV_AT_EXIT);
    tc_run_free(x.f);
}

/* A second receiver stays queued: the endpoint stays Recv behind it. */
static void test_commit_queue(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    struct kstate *ks = x.f->in;
    int s2 = build_thread(ks, "srv2", 90, 0);
    build_recv_ep(ks, s2, x.ep, ks_add_reply(ks, "rp2"));
    fx_run(&x, CALL_MERGED, CALL_EXIT, true);
    assert_int_equal(x.f->fast->eps[x.ep].state, EP_Recv);
    assert_int_equal(x.f->fast->eps[x.ep].q_head, s2);
    assert_int_equal(x.f->fast->tcbs[s2].ep_prev, KS_NONE);
    tc_run_free(x.f);
}

/* Every fallback of the merged fastpath, each from one change to the
 * base state; the slowpath runs on both sides, so they agree. */
enum mut { M_EXTRA, M_LONG, M_NULL_CAP, M_NO_SEND, M_IDLE_EP, M_VTABLE, M_ASID, M_VMID, M_PRIO, M_GRANT, M_DOMAIN,
           M_ACTIVE, M_NO_REPLY, M_AFFINITY, M_GRANT_REPLY_ONLY, M_NTFN_CAP, M_LOOKUP_FAIL, M_COUNT };

static void mutate(struct fx *x, int m)
{
    struct kstate *ks = x->f->in;
    struct ks_tcb *srv = &ks->tcbs[x->srv];
    switch (m) {
    case M_EXTRA: ks->sys.extra_caps = 1; break;
    case M_LONG: ks->sys.length = KS_MSG_REGISTERS + 1; break;
    case M_NULL_CAP: ks->sys.cap = SCAP_NULL; ks->sys.ep = KS_NONE; ks->sys.rights = 0; break;
    case M_LOOKUP_FAIL: ks->sys.cap = SCAP_LOOKUP_FAIL; ks->sys.ep = KS_NONE; ks->sys.rights = 0; break;
    case M_NTFN_CAP:
        ks->sys.cap = SCAP_NTFN;
        ks->sys.ep = KS_NONE;
        ks->sys.rights = 0;
        ks->sys.ntfn = (int8_t)build_ntfn(ks, "n");
        break;
    case M_NO_SEND: ks->sys.rights = EPR(EPR_GRANT); break;
    case M_IDLE_EP: ks->sys.ep = (int8_t)build_ep(ks, "idle_ep"); break;
    case M_VTABLE: srv->vtable_ok = false; break;
    case M_ASID: srv->asid_ok = false; break;
    case M_VMID: ks->cfg.hyp = true; srv->vmid_ok = false; break;
    case M_PRIO: {
        srv->prio = 50; /* below the caller, and a ready thread above it */
        int r = build_thread(ks, "rdy", 60, 0);
        build_sc(ks, "sc_rdy", r, 8000, 0, 0);
        build_ready(ks, r);
        break;
    }
    case M_GRANT: ks->sys.rights = EPR(EPR_SEND); break;
    case M_GRANT_REPLY_ONLY: ks->sys.rights = EPR(EPR_SEND) | EPR(EPR_GRANT_REPLY); break;
    case M_DOMAIN: build_two_domains(ks); srv->domain = 1; break;
    case M_ACTIVE: build_sc(ks, "sc_srv", x->srv, 8000, 0, 0); break;
    case M_NO_REPLY:
        ks->replies[x->rp].tcb = KS_NONE;
        srv->reply = KS_NONE;
        break;
    default: /* M_AFFINITY */
        build_core1(ks);
        srv->affinity = 1;
        build_fpu_owners(ks);
        break;
    }
}

static void test_fallbacks(void **state)
{
    (void)state;
    static const int want[M_COUNT] = {
        [M_EXTRA] = CALL_SLOW_MSGINFO, [M_LONG] = CALL_SLOW_MSGINFO,     [M_NULL_CAP] = CALL_SLOW_CAP,
        [M_NO_SEND] = CALL_SLOW_CAP,   [M_IDLE_EP] = CALL_SLOW_NOT_RECV, [M_VTABLE] = CALL_SLOW_VTABLE,
        [M_ASID] = CALL_SLOW_ASID,     [M_VMID] = CALL_SLOW_VMID,        [M_PRIO] = CALL_SLOW_PRIO,
        [M_GRANT] = CALL_SLOW_GRANT,   [M_DOMAIN] = CALL_SLOW_DOMAIN,    [M_ACTIVE] = CALL_SLOW_ACTIVE,
        [M_NO_REPLY] = CALL_SLOW_NO_REPLY, [M_AFFINITY] = CALL_SLOW_AFFINITY, [M_GRANT_REPLY_ONLY] = CALL_EXIT,
        [M_NTFN_CAP] = CALL_SLOW_CAP,  [M_LOOKUP_FAIL] = CALL_SLOW_CAP,
    };
    for (int m = 0; m < M_COUNT; m++) {
        struct fx x;
        fx_make(&x);
        mutate(&x, m);
        fx_run(&x, CALL_MERGED, want[m], true);
        tc_run_free(x.f);
    }
}

/* A caller with a pending fault (unreachable on MCS: check/target_call.c
 * argues it) falls back before anything else is read. */
static void test_fault_exit(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    x.f->in->tcbs[x.cl].fault = FAULT_Timeout;
    assert_int_equal(fastpath_call(x.f->in, CALL_MERGED), CALL_SLOW_FAULT);
    tc_run_free(x.f);
}

/* The slowpath's outcomes on the fallbacks, from the kernel's lines. */
static void test_slowpath_outcomes(void **state)
{
    (void)state;
    struct fx x;
    /* no send right: an invalid capability, the error reply's badge 0
     * (replyFromKernel_error, endpoint.c:300-311); the caller runs on */
    fx_make(&x);
    mutate(&x, M_NO_SEND);
    x.f->in->tcbs[x.cl].badge_reg = 5;
    fx_run(&x, CALL_MERGED, CALL_SLOW_CAP, true);
    assert_int_equal(x.f->slow->tcbs[x.cl].state, TS_Running);
    assert_int_equal(x.f->slow->tcbs[x.cl].badge_reg, 0);
    tc_run_free(x.f);
    /* a failed lookup: a cap fault, no handler: Inactive */
    fx_make(&x);
    mutate(&x, M_LOOKUP_FAIL);
    fx_run(&x, CALL_MERGED, CALL_SLOW_CAP, true);
    assert_int_equal(x.f->slow->tcbs[x.cl].state, TS_Inactive);
    tc_run_free(x.f);
    /* an idle endpoint: blocked sending with the call's flags (endpoint.c:29-57) */
    fx_make(&x);
    mutate(&x, M_IDLE_EP);
    fx_run(&x, CALL_MERGED, CALL_SLOW_NOT_RECV, true);
    const struct ks_tcb *c = &x.f->slow->tcbs[x.cl];
    assert_int_equal(c->state, TS_BlockedOnSend);
    assert_true(c->ipc_call && c->ipc_grant && !c->ipc_grant_reply);
    assert_int_equal(c->ipc_badge, 7);
    assert_int_equal(x.f->slow->eps[x.f->in->sys.ep].state, EP_Send);
    tc_run_free(x.f);
    /* no grant: the caller cannot wait for a reply: Inactive (endpoint.c:85-91) */
    fx_make(&x);
    mutate(&x, M_GRANT);
    fx_run(&x, CALL_MERGED, CALL_SLOW_GRANT, true);
    assert_int_equal(x.f->slow->tcbs[x.cl].state, TS_Inactive);
    assert_int_equal(x.f->slow->tcbs[x.srv].state, TS_Running);
    tc_run_free(x.f);
    /* an active server: reply pushed, no donation (reply.c:35) */
    fx_make(&x);
    mutate(&x, M_ACTIVE);
    fx_run(&x, CALL_MERGED, CALL_SLOW_ACTIVE, true);
    assert_int_equal(x.f->slow->tcbs[x.cl].state, TS_BlockedOnReply);
    assert_int_equal(x.f->slow->tcbs[x.cl].sc, x.sc);
    assert_int_equal(x.f->slow->scs[x.sc].reply, KS_NONE);
    tc_run_free(x.f);
    /* a call on a notification cap signals it and completes (Restart -> Running, the success reply's badge 0) */
    fx_make(&x);
    mutate(&x, M_NTFN_CAP);
    fx_run(&x, CALL_MERGED, CALL_SLOW_CAP, true);
    assert_int_equal(x.f->slow->ntfns[x.f->in->sys.ntfn].state, NTFN_Active);
    assert_int_equal(x.f->slow->tcbs[x.cl].state, TS_Running);
    tc_run_free(x.f);
}

/* The corrected fastpath's own fallbacks and its two finishing fixes. */
static void test_fixed(void **state)
{
    (void)state;
    struct fx x;
    /* the SC cannot pay the time since the last entry: slow_budget; as
     * merged, the call is made on the overrun (C1) */
    fx_make(&x);
    x.f->in->hw_clock = 30000;
    fx_run(&x, CALL_FIXED, CALL_SLOW_BUDGET, true);
    fx_run(&x, CALL_MERGED, CALL_EXIT, false);
    tc_run_free(x.f);
    /* the domain's time is up at the entry clock (C2) */
    fx_make(&x);
    build_two_domains(x.f->in);
    x.f->in->domain_time = 100;
    x.f->in->hw_clock = 50;
    fx_run(&x, CALL_FIXED, CALL_SLOW_DOMAIN_EXPIRED, true);
    tc_run_free(x.f);
    /* a released thread is ready at the entry clock (C3) */
    fx_make(&x);
    int r = build_thread(x.f->in, "rel", 10, 0);
    build_sc(x.f->in, "sc_rel", r, 1000, 10000, 100);
    build_release(x.f->in, r);
    x.f->in->reprogram = false; /* the exit's schedule() programmed the timer */
    build_deadline(x.f->in);
    x.f->in->hw_clock = 100; /* the release time: ready, the timer not yet taken */
    fx_run(&x, CALL_FIXED, CALL_SLOW_RELEASE, true);
    tc_run_free(x.f);
}

/* Two cores: a thread the other core queued here outranks the server (C7);
 * an owed reschedule IPI and a pending ksReprogram (C6, C5), which only
 * the kernel's own fastpath_signal leaves (signal_fastpath built). */
static void test_fixed_smp(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    struct kstate *ks = x.f->in;
    build_core1(ks);
    build_fpu_owners(ks);
    int h = build_thread(ks, "high", 200, 0);
    build_sc(ks, "sc_high", h, 8000, 0, 0);
    build_ready(ks, h);
    ks->ipi_sent = 1u << CUR_CORE; /* core 1 queued it here, its IPI in flight */
    fx_run(&x, CALL_FIXED, CALL_SLOW_OUTRANKED, true);
    fx_run(&x, CALL_MERGED, CALL_EXIT, false);
    tc_run_free(x.f);
    fx_make(&x);
    ks = x.f->in;
    build_core1(ks);
    build_fpu_owners(ks);
    ks->cfg.signal_fastpath = true;
    ks->ipi_pending = 1u << 1;
    ks->reprogram = true;
    fx_run(&x, CALL_FIXED, CALL_EXIT, true);
    assert_int_equal(x.f->fast->ipi_pending, 0);
    assert_int_equal(x.f->fast->ipi_sent, 1u << 1);
    assert_false(x.f->fast->reprogram);
    fx_run(&x, CALL_MERGED, CALL_EXIT, false);
    assert_true(x.f->fast->reprogram);
    tc_run_free(x.f);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(call_exit_name(CALL_EXIT), "call");
    assert_string_equal(call_exit_name(-1), "?");
    assert_string_equal(call_exit_what(CALL_EXIT_COUNT), "?");
    assert_non_null(strstr(call_exit_what(CALL_SLOW_ACTIVE), "passive"));
    assert_true(call_exit_is_fallback(CALL_SLOW_CAP));
    assert_false(call_exit_is_fallback(CALL_EXIT));
    assert_false(call_exit_is_fallback(-1));
    assert_string_equal(call_fix_name(CFIX_OUTRANKED_BIT), "outranked");
    assert_string_equal(call_fix_name(CFIX_COUNT), "?");
    assert_non_null(strstr(call_fix_what(CFIX_IPI_BIT), "doMaskReschedule"));
    assert_string_equal(call_fix_what(-1), "?");
    assert_string_equal(call_variant_name(CALL_FIXED), "fixed");
    assert_string_equal(call_variant_name(CALL_VARIANT_COUNT), "?");
    assert_int_equal(call_variant_parse("merged"), CALL_MERGED);
    assert_int_equal(call_variant_parse("pr1227"), -1);
    assert_int_equal(call_variant_fixes(CALL_FIXED), CFIX_ALL);
    assert_int_equal(call_variant_fixes(CALL_MERGED), 0);
    assert_string_equal(ks_entry_name(ENTRY_CALL), "call");
    assert_string_equal(ks_reply_cap_name(RCAP_LOOKUP_FAIL), "lookup_fail");
    assert_string_equal(ks_reply_cap_name(RCAP_COUNT), "?");
}

/* ---- the reply side: SysReplyRecv and the call stack ---- */

/* The server srv, running on the client's SC after a call, answers with
 * seL4_ReplyRecv on ep with reply rp. */
static struct kstate *called(struct fx *x)
{
    fx_make(x);
    diff_run(x->f->in, CALL_MERGED, true, &x->f->v, x->f->slow, x->f->fast);
    assert_true(x->f->v.agree);
    struct kstate *ks = x->f->fast;
    ks->sys.entry = ENTRY_IRQ; /* no entry state: the calls below are made directly */
    return ks;
}

static struct ks_call reply_recv(const struct fx *x, int reply_cap)
{
    struct ks_call c = ks_call_new(SYS_ReplyRecv, CALL_Reply);
    c.cap = SCAP_EP;
    c.ep = x->ep;
    c.rights = EPR(EPR_RECV);
    c.reply = x->rp;
    c.reply_cap = (uint8_t)reply_cap;
    return c;
}

/* doReplyTransfer (thread.c:131-198): the call stack is popped, the SC
 * goes back to the client, which runs with badge 0; the server blocks
 * receiving again with its reply, passive. */
static void test_reply_recv(void **state)
{
    (void)state;
    struct fx x;
    struct kstate *ks = called(&x);
    struct ks_call c = reply_recv(&x, RCAP_REPLY);
    assert_true(handleSyscall(ks, &c));
    tc_assert_no_asserts(ks);
    assert_int_equal(ks->cur_thread, x.cl);
    assert_int_equal(ks->tcbs[x.cl].state, TS_Running);
    assert_int_equal(ks->tcbs[x.cl].sc, x.sc);
    assert_int_equal(ks->tcbs[x.cl].badge_reg, 0);
    assert_int_equal(ks->scs[x.sc].tcb, x.cl);
    assert_int_equal(ks->scs[x.sc].reply, KS_NONE);
    assert_int_equal(ks->tcbs[x.srv].state, TS_BlockedOnReceive);
    assert_int_equal(ks->tcbs[x.srv].sc, KS_NONE);
    assert_int_equal(ks->replies[x.rp].tcb, x.srv);
    assert_int_equal(ks->replies[x.rp].sc_head, KS_NONE);
    tc_assert_valid(ks, INV_AT_EXIT);
    /* a second reply on the same object finds no caller: nothing to do;
     * no reply cap in the reply slot: the receive is a cap fault */
    c = reply_recv(&x, RCAP_NULL);
    int cur = ks->cur_thread;
    assert_true(handleSyscall(ks, &c));
    assert_int_equal(ks->tcbs[cur].state, TS_Inactive);
    tc_run_free(x.f);
}

static void test_reply_recv_failures(void **state)
{
    (void)state;
    struct fx x;
    /* a reply cptr that does not resolve: no reply (not blocking), then
     * the receive's reply lookup faults the server */
    struct kstate *ks = called(&x);
    struct ks_call c = reply_recv(&x, RCAP_LOOKUP_FAIL);
    handleSyscall(ks, &c);
    assert_int_equal(ks->tcbs[x.cl].state, TS_BlockedOnReply);
    assert_int_equal(ks->tcbs[x.srv].state, TS_Inactive);
    tc_run_free(x.f);
    /* an endpoint cap without the receive right: the reply is made, the receive faults */
    ks = called(&x);
    c = reply_recv(&x, RCAP_REPLY);
    c.rights = EPR(EPR_SEND);
    handleSyscall(ks, &c);
    assert_int_equal(ks->tcbs[x.cl].state, TS_Running);
    assert_int_equal(ks->tcbs[x.srv].state, TS_Inactive);
    tc_run_free(x.f);
    /* the receive on a notification cap waits on it */
    ks = called(&x);
    c = reply_recv(&x, RCAP_REPLY);
    c.cap = SCAP_NTFN;
    c.ntfn = build_ntfn(ks, "n");
    handleSyscall(ks, &c);
    assert_int_equal(ks->tcbs[x.srv].state, TS_BlockedOnNotification);
    tc_run_free(x.f);
}

/* A caller with a timeout fault is replied to: restarted (label 0,
 * handleFaultReply, faults.c:135-137), its fault cleared; an SC that
 * cannot pay postpones it, or its timeout handler hears of it (thread.c:186-197). */
static void test_reply_fault_and_budget(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct fx x;
        struct kstate *ks = called(&x);
        int cl = x.cl, r = x.rp;
        if (k == 0)
            ks->tcbs[cl].fault = FAULT_Timeout;
        doReplyTransfer(ks, x.srv, r);
        tc_assert_no_asserts(ks);
        assert_int_equal(ks->tcbs[cl].fault, FAULT_None);
        assert_int_equal(ks->tcbs[cl].state, k == 0 ? TS_Restart : TS_Running);
        tc_run_free(x.f);
    }
    /* the SC's head refill not ready: postponed (release queue) */
    struct fx x;
    fx_make(&x);
    struct kstate *ks = x.f->in;
    int p = build_thread(ks, "p", 10, 0);
    int psc = build_sc(ks, "sc_p", p, 1000, 10000, 5000);
    int r = ks_add_reply(ks, "rp_p");
    ks->tcbs[p].state = TS_BlockedOnReply;
    ks->tcbs[p].reply = (int8_t)r;
    ks->replies[r].tcb = (int8_t)p;
    doReplyTransfer(ks, x.cl, r);
    assert_true(ks->tcbs[p].in_release);
    /* ... or with a timeout handler, a timeout fault */
    int q = build_thread(ks, "q", 10, 0);
    build_sc(ks, "sc_q", q, 1000, 10000, 5000);
    int rq = ks_add_reply(ks, "rp_q");
    ks->tcbs[q].state = TS_BlockedOnReply;
    ks->tcbs[q].reply = (int8_t)rq;
    ks->tcbs[q].timeout_handler = true;
    ks->replies[rq].tcb = (int8_t)q;
    doReplyTransfer(ks, x.cl, rq);
    assert_int_equal(ks->tcbs[q].fault, FAULT_Timeout);
    (void)psc;
    tc_run_free(x.f);
}

/* reply_remove of a reply in the middle of a stack breaks the chain on
 * both sides (reply.c:97-111); reply_remove_tcb of the head clears the
 * SC's head, of one in the middle its successor's link (reply.c:115-137);
 * SchedContext_Unbind unlinks the head (schedcontext.c:407-414). */
static void test_stack_surgery(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    struct kstate *ks = x.f->in;
    int r0 = push_client(ks, "c0", x.sc), r1 = push_client(ks, "c1", x.sc), r2 = push_client(ks, "c2", x.sc);
    tc_assert_valid(ks, INV_AT_ENTRY);
    int c1 = ks->replies[r1].tcb;
    reply_remove(ks, r1, c1);
    assert_int_equal(ks->replies[r0].next, KS_NONE);
    assert_int_equal(ks->replies[r2].prev, KS_NONE);
    assert_int_equal(ks->tcbs[c1].state, TS_Inactive);
    assert_int_equal(ks->replies[r1].tcb, KS_NONE);
    tc_assert_valid(ks, INV_AT_ENTRY);
    /* cancelIPC of the head's caller: reply_remove_tcb */
    cancelIPC(ks, ks->replies[r2].tcb);
    assert_int_equal(ks->scs[x.sc].reply, KS_NONE);
    assert_int_equal(ks->replies[r2].sc_head, KS_NONE);
    tc_assert_valid(ks, INV_AT_ENTRY);
    tc_run_free(x.f);

    fx_make(&x);
    ks = x.f->in;
    r0 = push_client(ks, "c0", x.sc);
    r1 = push_client(ks, "c1", x.sc);
    reply_remove_tcb(ks, ks->replies[r0].tcb); /* the bottom one: its successor's link */
    assert_int_equal(ks->replies[r1].prev, KS_NONE);
    tc_assert_valid(ks, INV_AT_ENTRY);
    int other = build_sc(ks, "sc_o", KS_NONE, 8000, 0, 0);
    ks->scs[other].reply = (int8_t)r1; /* move the stack to an SC no thread runs on */
    ks->replies[r1].sc_head = (int8_t)other;
    ks->scs[x.sc].reply = KS_NONE;
    assert_int_equal(decodeSchedContext_Unbind(ks, other), SYSERR_NONE);
    assert_int_equal(ks->scs[other].reply, KS_NONE);
    assert_int_equal(ks->replies[r1].sc_head, KS_NONE);
    tc_run_free(x.f);
}

/* A receive finds a caller blocked sending (receiveIPC, endpoint.c:189-240):
 * it waits on the receiver's reply and, with an SC, donates it; a timeout
 * faulter never donates; a plain sender runs on. */
static void test_receive_from_caller(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        struct fx x;
        fx_make(&x);
        struct kstate *ks = x.f->in;
        int e = build_ep(ks, "ep2");
        int s = build_thread(ks, "snd", 10, 0);
        int ssc = build_sc(ks, "sc_snd", s, 8000, 0, 0);
        build_send_ep(ks, s, e);
        ks->tcbs[s].ipc_call = k != 2;
        ks->tcbs[s].ipc_grant = true;
        ks->tcbs[s].ipc_badge = 9;
        if (k == 1)
            ks->tcbs[s].fault = FAULT_Timeout;
        int r = ks_add_reply(ks, "rp2");
        int rcv = build_thread(ks, "rcv", 10, 0); /* passive: it can take a donation */
        receiveIPC(ks, rcv, e, r, true);
        tc_assert_no_asserts(ks);
        assert_int_equal(ks->tcbs[rcv].badge_reg, 9);
        if (k == 2) {
            assert_int_equal(ks->tcbs[s].state, TS_Running);
        } else {
            assert_int_equal(ks->tcbs[s].state, TS_BlockedOnReply);
            assert_int_equal(ks->scs[ssc].tcb, k == 0 ? rcv : s); /* donated unless a timeout fault */
        }
        tc_run_free(x.f);
    }
}

/* The scenario line and the new fields round-trip (print then read). */
static void test_scenario_round_trip(void **state)
{
    (void)state;
    struct fx x;
    fx_make(&x);
    struct kstate *ks = x.f->in;
    push_client(ks, "c0", x.sc);
    push_client(ks, "c1", x.sc);
    int e = build_ep(ks, "ep2");
    int s = build_thread(ks, "snd", 10, 0);
    build_sc(ks, "sc_snd", s, 8000, 0, 0);
    build_send_ep(ks, s, e);
    ks->tcbs[s].ipc_call = ks->tcbs[s].ipc_grant = ks->tcbs[s].ipc_grant_reply = true;
    ks->tcbs[s].ipc_badge = 3;
    ks->sys.length = 4;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    ks_print(mem, ks);
    fclose(mem);
    assert_non_null(strstr(text, "syscall call cap=ep ep=ep rights=5 badge=7 length=4\n"));
    assert_non_null(strstr(text, "sc_head=sc_cl"));
    assert_non_null(strstr(text, "ipc_call=1"));
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, "t", x.f->slow, &err), 0);
    assert_true(ks_same(x.f->slow, ks));
    free(text);
    tc_run_free(x.f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit),
        cmocka_unit_test(test_commit_queue),
        cmocka_unit_test(test_fallbacks),
        cmocka_unit_test(test_fault_exit),
        cmocka_unit_test(test_slowpath_outcomes),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_fixed_smp),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_reply_recv),
        cmocka_unit_test(test_reply_recv_failures),
        cmocka_unit_test(test_reply_fault_and_budget),
        cmocka_unit_test(test_stack_surgery),
        cmocka_unit_test(test_receive_from_caller),
        cmocka_unit_test(test_scenario_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
