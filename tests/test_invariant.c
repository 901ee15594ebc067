/*
 * Invariant-checker tests. Every invariant id of INV_LIST is exercised:
 * start from a valid state (the irquser benchmark preset on imx8mm, plus
 * objects built with build.h where needed), check that it is valid, break
 * exactly one thing, and check that kstate_check reports that invariant
 * with a message naming the object. Where the one change can only break
 * that invariant, the test also checks that nothing else is reported.
 * A last test checks that every id was covered, so a new invariant cannot
 * go untested.
 *
 * Also: with garbage object indices the checker reports INV_INDEX and
 * stops before following them (the build runs under ASan/UBSan, which
 * turns any out-of-bounds read into a failure).
 *
 * The preset (check/presets.c): idle/idle_sc; spinner (253, round-robin
 * sc_spin) running; handler (254, round-robin sc_handler) waiting on
 * irq_ntfn; IRQ 40 signals irq_ntfn; ksCurTime = PRESET_T0 = 1000000,
 * hardware clock 8000 ticks later.
 */
#include "tcommon.h"
#include "target.h"

#include "gen.h"
#include "sig_fast.h"

static struct kstate g_ks;
static bool covered[INV_COUNT];

#define T0 PRESET_T0
#define INV_ALL_BUT(bit) (INV_ADMIT_ALL & ~(unsigned)(bit))

static int find_sc(const struct kstate *ks, const char *name)
{
    for (int i = 0; i < ks->n_scs; i++)
        if (strcmp(ks->scs[i].name, name) == 0)
            return i;
    fail_msg("no SC %s", name);
    return KS_NONE;
}

/* The valid starting point. */
static struct kstate *valid(void)
{
    struct kstate *ks = &g_ks;
    memset(ks, 0, sizeof *ks);
    assert_int_equal(preset_irquser(ks, "imx8mm"), 0);
    tc_assert_valid(ks, INV_AT_ENTRY);
    tc_assert_valid(ks, INV_AT_EXIT);
    return ks;
}

/* The spinner's SC holding ksConsumed from before its head refill began
 * (what PR #1227's F2 switch leaves: INV_ADMIT_INHERITED). */
static struct kstate *inherited(void)
{
    struct kstate *ks = valid();
    int sc = ks->cur_sc;
    /* a periodic SC (the preset's is round robin, period 0): one full
     * refill of its budget, so only the rule below is at stake */
    ks->scs[sc].period = 2 * ks->scs[sc].budget;
    ks->scs[sc].refills[ks->scs[sc].head].amount = ks->scs[sc].budget;
    ks->scs[sc].tail = ks->scs[sc].head;
    ks->consumed = 10;
    ks->scs[sc].refills[ks->scs[sc].head].time = ks->cur_time - 5;
    return ks;
}

static void dump(const struct inv_report *r)
{
    for (int i = 0; i < r->n && i < INV_MAX_ITEMS; i++)
        print_error("  reported %s: %s\n", inv_name(r->items[i].id), r->items[i].msg);
}

/* kstate_check must report invariant id with a message containing name;
 * with only, nothing else may be reported. */
static void expect_at(const struct kstate *ks, enum inv_when when, int id, const char *name, bool only)
{
    struct inv_report r;
    int n = kstate_check(ks, when, &r);
    assert_int_equal(n, r.n);
    bool found = false, other = false;
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++) {
        if (r.items[i].id == id && strstr(r.items[i].msg, name))
            found = true;
        if (r.items[i].id != id)
            other = true;
    }
    if (!found || (only && other)) {
        print_error("expected invariant %s naming \"%s\"%s\n", inv_name(id), name,
                    only ? " and nothing else" : "");
        dump(&r);
    }
    assert_true(found);
    if (only)
        assert_false(other);
    covered[id] = true;
}

#define EXPECT(ks, id, name) expect_at((ks), INV_AT_ENTRY, (id), (name), false)
#define EXPECT_ONLY(ks, id, name) expect_at((ks), INV_AT_ENTRY, (id), (name), true)

/* ---- extra objects on top of the preset ---- */

/* A ready thread with a round-robin SC of 8000 ticks. */
static int add_ready(struct kstate *ks, const char *name, int prio)
{
    int t = build_thread(ks, name, prio, 0);
    char scn[KS_NAME_LEN];
    snprintf(scn, sizeof scn, "sc_%s", name);
    build_sc(ks, scn, t, 8000, 0, 0);
    build_ready(ks, t);
    return t;
}

/* A thread waiting in the release queue: periodic SC (1000 of 100000)
 * whose refill starts at T0 + delay. */
static int add_release(struct kstate *ks, const char *name, int prio, ticks_t delay)
{
    int t = build_thread(ks, name, prio, 0);
    char scn[KS_NAME_LEN];
    snprintf(scn, sizeof scn, "sc_%s", name);
    build_sc(ks, scn, t, 1000, 100000, T0 + delay);
    build_release(ks, t);
    ks->reprogram = false; /* the kernel reprograms before it exits */
    return t;
}

/* An SC bound to nothing: periodic, budget 2000 of 10000, two refills
 * [{T0,1000},{T0+5000,1000}]. */
static int add_periodic_sc(struct kstate *ks, const char *name)
{
    int s = build_sc(ks, name, KS_NONE, 2000, 10000, T0);
    struct ks_sc *sc = &ks->scs[s];
    sc->refills[0].amount = 1000;
    sc->refills[1].time = T0 + 5000;
    sc->refills[1].amount = 1000;
    sc->tail = 1;
    return s;
}

/* A thread blocked receiving on endpoint e (round-robin SC). */
static int add_receiver(struct kstate *ks, const char *name, int prio, int e, int reply)
{
    int t = build_thread(ks, name, prio, 0);
    build_sc(ks, NULL, t, 8000, 0, 0);
    build_recv_ep(ks, t, e, reply);
    return t;
}

/* The base states with extra objects are valid too. */
static void test_valid_bases(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    add_ready(ks, "r1", 100);
    add_ready(ks, "r2", 100);
    add_release(ks, "rel1", 50, 100000);
    add_release(ks, "rel2", 60, 200000);
    add_periodic_sc(ks, "sp");
    int e = build_ep(ks, "ep");
    int r = ks_add_reply(ks, "r");
    add_receiver(ks, "rcv", 10, e, r);
    add_receiver(ks, "rcv2", 5, e, KS_NONE);
    tc_assert_valid(ks, INV_AT_ENTRY);
    build_core1(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);
    /* and the checker reports the count it returns, and is quiet */
    struct inv_report rep;
    assert_int_equal(kstate_check(ks, INV_AT_EXIT, &rep), 0);
    assert_int_equal(rep.n, 0);
}

/* ---- config ---- */

static void test_inv_config(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    ks->cfg.min_budget = 161; /* derived constant no longer matches */
    EXPECT_ONLY(ks, INV_CONFIG, "config");

    ks = valid();
    ks->cfg.gic_version = 4;
    EXPECT_ONLY(ks, INV_CONFIG, "GIC");

    ks = valid();
    ks->cfg.timer_hz = 500000;
    EXPECT(ks, INV_CONFIG, "timer frequency");

    ks = valid();
    ks->cfg.max_release += 1;
    EXPECT_ONLY(ks, INV_CONFIG, "derived");
}

/* ---- index ---- */

static void test_inv_index(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int h = tc_tid(ks, "handler"), s = tc_tid(ks, "spinner");
    int sch = find_sc(ks, "sc_handler"), scs = find_sc(ks, "sc_spin");

    ks->tcbs[h].sc = 100;
    EXPECT_ONLY(ks, INV_INDEX, "thread handler");

    ks = valid();
    ks->ntfns[0].q_head = 99;
    EXPECT_ONLY(ks, INV_INDEX, "notification irq_ntfn");

    ks = valid();
    ks->ntfns[0].sc = 64;
    EXPECT_ONLY(ks, INV_INDEX, "notification irq_ntfn");

    ks = valid();
    ks->scs[scs].tcb = 64;
    EXPECT_ONLY(ks, INV_INDEX, "SC sc_spin");

    ks = valid();
    ks->scs[sch].ntfn = -7;
    EXPECT_ONLY(ks, INV_INDEX, "SC sc_handler");

    ks = valid();
    int e = build_ep(ks, "ep");
    ks->eps[e].q_head = 50;
    EXPECT_ONLY(ks, INV_INDEX, "endpoint ep");

    ks = valid();
    int r = ks_add_reply(ks, "rp");
    ks->replies[r].tcb = 70;
    EXPECT_ONLY(ks, INV_INDEX, "reply rp");

    ks = valid();
    ks->irq_cap[PRESET_IRQ].ntfn = 16;
    EXPECT_ONLY(ks, INV_INDEX, "IRQ 40");

    ks = valid();
    ks->cur_thread = 64;
    EXPECT_ONLY(ks, INV_INDEX, "current");

    ks = valid();
    ks->idle_sc = KS_NONE;
    EXPECT_ONLY(ks, INV_INDEX, "idle");

    ks = valid();
    ks->release_head[1] = 80;
    EXPECT_ONLY(ks, INV_INDEX, "core 1");

    ks = valid();
    ks->sched_action = 64;
    EXPECT_ONLY(ks, INV_INDEX, "scheduler action");

    ks = valid();
    ks->sched_action = -3;
    EXPECT_ONLY(ks, INV_INDEX, "scheduler action");

    ks = valid();
    ks->scs[sch].head = KS_MAX_REFILLS;
    EXPECT_ONLY(ks, INV_INDEX, "SC sc_handler");

    ks = valid();
    ks->scs[sch].refill_max = KS_MAX_REFILLS + 1;
    EXPECT_ONLY(ks, INV_INDEX, "SC sc_handler");

    ks = valid();
    ks->tcbs[s].state = 200;
    EXPECT_ONLY(ks, INV_INDEX, "thread spinner");

    ks = valid();
    ks->tcbs[h].domain = KS_MAX_DOMAINS;
    EXPECT_ONLY(ks, INV_INDEX, "thread handler");

    ks = valid();
    ks->tcbs[h].sched_next = -3;
    EXPECT_ONLY(ks, INV_INDEX, "thread handler");

    ks = valid();
    ks->tcbs[h].blocking = 1; /* one notification only */
    EXPECT_ONLY(ks, INV_INDEX, "thread handler");

    ks = valid();
    ks->scs[scs].core = KS_MAX_CORES;
    EXPECT_ONLY(ks, INV_INDEX, "SC sc_spin");

    ks = valid();
    ks->ntfns[0].state = NTFN_COUNT;
    EXPECT_ONLY(ks, INV_INDEX, "notification irq_ntfn");

    ks = valid();
    e = build_ep(ks, "ep");
    ks->eps[e].state = 7;
    EXPECT_ONLY(ks, INV_INDEX, "endpoint ep");

    ks = valid();
    ks->dom_idx = 3; /* dom_len 1 */
    EXPECT_ONLY(ks, INV_INDEX, "domain schedule");

    ks = valid();
    ks->n_tcbs = KS_MAX_TCBS + 1;
    EXPECT_ONLY(ks, INV_INDEX, "capacity");

    ks = valid();
    ks->n_irqs = KS_MAX_IRQS + 1;
    EXPECT_ONLY(ks, INV_INDEX, "capacity");
}

/* Garbage indices everywhere, several at once: INV_INDEX, nothing read out
 * of bounds (ASan), and the checker stops there (no other invariant is
 * evaluated on the garbage). */
static void test_inv_index_garbage(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int h = tc_tid(ks, "handler");
    ks->tcbs[h].sc = 100;
    ks->ntfns[0].q_head = 99;
    ks->ntfns[0].q_tail = -99;
    ks->tcbs[h].ep_next = 127;
    ks->tcbs[h].ep_prev = -128;
    ks->tcbs[h].reply = 40;
    ks->scs[0].tcb = 120;
    ks->release_head[0] = 90;
    ks->core_cur[1] = 77;
    ks->irq_cap[PRESET_IRQ].ntfn = -5;
    ks->scs[1].head = 200;
    ks->scs[1].tail = 255;
    ks->cur_sc = 99;
    struct inv_report r;
    int n = kstate_check(ks, INV_AT_ENTRY, &r);
    assert_true(n >= 8);
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
        assert_int_equal(r.items[i].id, INV_INDEX);
    covered[INV_INDEX] = true;
    n = kstate_check(ks, INV_AT_EXIT, &r);
    assert_true(n >= 8);
}

/* Random garbage in the index fields. Each field has a range the kernel
 * guarantees; a value outside it must be reported as INV_INDEX; a value
 * inside may break anything else, but the checker must never read outside
 * the state (ASan) nor loop forever. */
struct ifield {
    int8_t *p8;
    int16_t *p16;
    uint8_t *pu8;
    int lo, hi; /* valid range [lo, hi) */
};

static int collect_fields(struct kstate *ks, struct ifield *f, int max)
{
    int n = 0, nt = ks->n_tcbs, ns = ks->n_scs, nn = ks->n_ntfns, ne = ks->n_eps, nr = ks->n_replies;
#define ADD8(ptr, a, b) \
    do { if (n < max) f[n++] = (struct ifield){.p8 = (ptr), .lo = (a), .hi = (b)}; } while (0)
#define ADDU8(ptr, a, b) \
    do { if (n < max) f[n++] = (struct ifield){.pu8 = (ptr), .lo = (a), .hi = (b)}; } while (0)
    for (int i = 0; i < nt; i++) {
        struct ks_tcb *t = &ks->tcbs[i];
        ADD8(&t->sc, -1, ns);
        ADD8(&t->bound_ntfn, -1, nn);
        ADD8(&t->reply, -1, nr);
        ADD8(&t->sched_next, -1, nt);
        ADD8(&t->sched_prev, -1, nt);
        ADD8(&t->ep_next, -1, nt);
        ADD8(&t->ep_prev, -1, nt);
        /* blocking: the notification count while blocked on one; any
         * object otherwise (a woken thread keeps its old one) */
        int blk = t->state == TS_BlockedOnNotification ? nn
                  : (t->state == TS_BlockedOnReceive || t->state == TS_BlockedOnSend ||
                     t->state == TS_BlockedOnReply)
                      ? ne
                      : (nn > ne ? nn : ne);
        ADD8(&t->blocking, -1, blk);
        ADDU8(&t->state, 0, TS_COUNT);
        ADDU8(&t->affinity, 0, KS_MAX_CORES);
        ADDU8(&t->domain, 0, KS_MAX_DOMAINS);
        ADDU8(&t->fault, 0, FAULT_COUNT);
    }
    for (int i = 0; i < ns; i++) {
        struct ks_sc *s = &ks->scs[i];
        ADD8(&s->tcb, -1, nt);
        ADD8(&s->ntfn, -1, nn);
        ADDU8(&s->head, 0, KS_MAX_REFILLS);
        ADDU8(&s->tail, 0, KS_MAX_REFILLS);
        ADDU8(&s->refill_max, 0, KS_MAX_REFILLS + 1);
        ADDU8(&s->core, 0, KS_MAX_CORES);
    }
    for (int i = 0; i < nn; i++) {
        struct ks_ntfn *x = &ks->ntfns[i];
        ADD8(&x->q_head, -1, nt);
        ADD8(&x->q_tail, -1, nt);
        ADD8(&x->bound_tcb, -1, nt);
        ADD8(&x->sc, -1, ns);
        ADDU8(&x->state, 0, NTFN_COUNT);
    }
    for (int i = 0; i < ne; i++) {
        ADD8(&ks->eps[i].q_head, -1, nt);
        ADD8(&ks->eps[i].q_tail, -1, nt);
        ADDU8(&ks->eps[i].state, 0, EP_COUNT);
    }
    for (int i = 0; i < nr; i++)
        ADD8(&ks->replies[i].tcb, -1, nt);
    for (int k = 0; k < KS_MAX_CORES; k++) {
        ADD8(&ks->release_head[k], -1, nt);
        ADD8(&ks->core_cur[k], -1, nt);
        ADD8(&ks->core_idle[k], -1, nt);
    }
    ADD8(&ks->cur_thread, 0, nt);
    ADD8(&ks->idle_thread, 0, nt);
    ADD8(&ks->cur_sc, 0, ns);
    ADD8(&ks->idle_sc, 0, ns);
    ADD8(&ks->irq_cap[PRESET_IRQ].ntfn, 0, nn);
    ADDU8(&ks->dom_idx, 0, ks->dom_len);
    if (n < max)
        f[n++] = (struct ifield){.p16 = &ks->sched_action, .lo = KS_SA_CHOOSE, .hi = nt};
#undef ADD8
#undef ADDU8
    return n;
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

static bool field_out(const struct ifield *f)
{
    int v = f->p8 ? *f->p8 : f->p16 ? *f->p16 : *f->pu8;
    return v < f->lo || v >= f->hi;
}

static struct kstate g_base;

static void test_inv_index_random(void **state)
{
    (void)state;
    static struct ifield fields[1024], after[1024];
    struct kstate *b = valid();
    add_ready(b, "r1", 100);
    add_release(b, "rel1", 50, 100000);
    int e = build_ep(b, "ep");
    int r = ks_add_reply(b, "rp");
    add_receiver(b, "rcv", 10, e, r);
    build_bind_sc_ntfn(b, add_periodic_sc(b, "sp"), 0);
    tc_assert_valid(b, INV_AT_ENTRY);
    ks_copy(&g_base, b);

    unsigned seed = 12345;
    int with_index = 0, without = 0;
    for (int iter = 0; iter < 4000; iter++) {
        struct kstate *ks = &g_ks;
        ks_copy(ks, &g_base);
        int nf = collect_fields(ks, fields, 1024);
        assert_true(nf > 100 && nf < 1024);
        int k = 1 + (int)(rnd(&seed) % 3);
        for (int j = 0; j < k; j++) {
            struct ifield *f = &fields[rnd(&seed) % (unsigned)nf];
            bool near = rnd(&seed) % 4 != 0;
            int span = f->hi - f->lo + 4;
            int v = near ? f->lo - 2 + (int)(rnd(&seed) % (unsigned)span) : (int)(rnd(&seed) & 0xff);
            if (f->p8)
                *f->p8 = (int8_t)v;
            else if (f->p16)
                *f->p16 = (int16_t)(near ? v : v - 128);
            else
                *f->pu8 = (uint8_t)v;
        }
        /* ranges as they stand after all changes (a thread's state
         * decides which objects its blocking index may name) */
        int na = collect_fields(ks, after, 1024);
        assert_int_equal(na, nf);
        bool out = false;
        for (int i = 0; i < na; i++)
            out |= field_out(&after[i]);
        struct inv_report rep;
        int n = kstate_check(ks, INV_AT_ENTRY, &rep);
        assert_int_equal(n, rep.n);
        if (out != inv_has(&rep, INV_INDEX)) {
            print_error("iteration %d: out of range %d, INV_INDEX reported %d\n", iter, out,
                        inv_has(&rep, INV_INDEX));
            dump(&rep);
        }
        assert_int_equal(out, inv_has(&rep, INV_INDEX));
        (void)kstate_check(ks, INV_AT_EXIT, &rep);
        with_index += out;
        without += !out;
    }
    print_message("random index garbage: %d out of range, %d in range\n", with_index, without);
    /* both kinds were exercised */
    assert_true(with_index > 500);
    assert_true(without > 500);
    covered[INV_INDEX] = true;
}

/* ---- idle ---- */

static void test_inv_idle(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    ks->tcbs[ks->idle_thread].prio = 5;
    EXPECT_ONLY(ks, INV_IDLE, "idle thread idle");

    ks = valid();
    ks->scs[ks->idle_sc].period = 1000;
    EXPECT(ks, INV_IDLE, "idle SC");

    ks = valid();
    int g = build_thread(ks, "ghost", 0, 0);
    ks->tcbs[g].state = TS_IdleThreadState;
    EXPECT_ONLY(ks, INV_IDLE, "thread ghost");

    ks = valid();
    ks->tcbs[ks->idle_thread].sc = KS_NONE; /* the idle SC still names it */
    EXPECT(ks, INV_IDLE, "idle thread and idle SC");
}

/* ---- thread ---- */

static void test_inv_thread(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int h = tc_tid(ks, "handler");
    ks->tcbs[h].domain = 1; /* one domain configured */
    EXPECT_ONLY(ks, INV_THREAD, "thread handler");

    ks = valid();
    int t = build_thread(ks, "rt", 10, 0);
    int r = ks_add_reply(ks, "rp");
    ks->tcbs[t].reply = (int8_t)r;
    ks->replies[r].tcb = (int8_t)t;
    EXPECT_ONLY(ks, INV_THREAD, "thread rt");

    ks = valid();
    t = build_thread(ks, "bn", 10, 0);
    ks->tcbs[t].state = TS_BlockedOnNotification; /* but names none */
    EXPECT_ONLY(ks, INV_THREAD, "thread bn");

    ks = valid();
    t = build_thread(ks, "bs", 10, 0);
    ks->tcbs[t].state = TS_BlockedOnSend; /* nowhere, no timeout fault */
    EXPECT_ONLY(ks, INV_THREAD, "thread bs");
    ks->tcbs[t].fault = FAULT_Timeout; /* as handleTimeout leaves it */
    tc_assert_valid(ks, INV_AT_ENTRY);

    ks = valid();
    t = add_release(ks, "rel", 10, 5000);
    ks->tcbs[t].state = TS_BlockedOnReply;
    EXPECT_ONLY(ks, INV_THREAD, "thread rel");

    /* tcbFault and the thread state. Reachable: a pending timeout fault
     * while blocked sending it on the handler's endpoint (sendIPC,
     * src/object/endpoint.c:34-53 at 43607edb6), waiting on the reply
     * (reply_push, src/object/reply.c:31) or inactive (endpoint.c:90, no
     * reply object). */
    ks = valid();
    int fe = build_ep(ks, "hep");
    int ft = build_thread(ks, "flt", 10, 0);
    build_send_ep(ks, ft, fe);
    ks->tcbs[ft].fault = FAULT_Timeout;
    tc_assert_valid(ks, INV_AT_ENTRY);
    int fr = ks_add_reply(ks, "frp");
    cancelIPC(ks, ft); /* out of the endpoint queue (clears the fault) */
    ks->tcbs[ft].fault = FAULT_Timeout;
    tc_assert_valid(ks, INV_AT_ENTRY); /* Inactive with the fault */
    ks->tcbs[ft].state = TS_BlockedOnReply;
    ks->tcbs[ft].reply = (int8_t)fr;
    ks->replies[fr].tcb = (int8_t)ft;
    tc_assert_valid(ks, INV_AT_ENTRY);

    /* Unreachable: the state irqsim once accepted and then reported as a
     * divergence of the corrected fastpath (cancelIPC_fp does not clear
     * tcbFault, cancelIPC does). A thread blocked receiving has no pending
     * fault: the fault is set only by sendFaultIPC (faulthandler.c:37),
     * which blocks the thread sending it, and every way back to a receive
     * goes through Restart/Running, reached only after cancelIPC
     * (endpoint.c:312) or doReplyTransfer (src/kernel/thread.c:171)
     * cleared it. */
    ks = valid();
    int re = build_ep(ks, "rep");
    int rt = build_thread(ks, "frcv", 10, 0);
    build_recv_ep(ks, rt, re, KS_NONE);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->tcbs[rt].fault = FAULT_Timeout;
    EXPECT_ONLY(ks, INV_THREAD, "thread frcv: a pending timeout fault while BlockedOnReceive");

    /* Unreachable likewise: waiting on a notification, or running. */
    ks = valid();
    ks->tcbs[h].fault = FAULT_Timeout;
    EXPECT_ONLY(ks, INV_THREAD, "thread handler: a pending timeout fault while BlockedOnNotification");
    ks = valid();
    ks->tcbs[ks->cur_thread].fault = FAULT_Timeout;
    EXPECT_ONLY(ks, INV_THREAD, "thread spinner: a pending timeout fault while Running");

    ks = valid();
    ks->cfg.fpu = false;
    ks->tcbs[h].fpu_live = true;
    EXPECT_ONLY(ks, INV_THREAD, "thread handler");
}

/* ---- current ---- */

static void test_inv_current(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int s = tc_tid(ks, "spinner");
    int scs = find_sc(ks, "sc_spin"), sch = find_sc(ks, "sc_handler");
    ks->tcbs[s].state = TS_BlockedOnReply;
    EXPECT_ONLY(ks, INV_CURRENT, "current thread spinner");

    ks = valid();
    ks->cur_sc = (int8_t)sch;
    EXPECT_ONLY(ks, INV_CURRENT, "sc_handler");

    ks = valid();
    ks->scs[scs].refills[ks->scs[scs].head].time = T0 + 1; /* not ready */
    EXPECT_ONLY(ks, INV_CURRENT, "current SC sc_spin");

    ks = valid();
    ks->scs[scs].refill_max = 0;
    EXPECT_ONLY(ks, INV_CURRENT, "current SC sc_spin");

    ks = valid();
    ks->cfg.num_domains = 2;
    ks->tcbs[s].domain = 1;
    EXPECT_ONLY(ks, INV_CURRENT, "current thread spinner");

    ks = valid();
    ks->tcbs[s].in_release = true; /* also breaks the release queue */
    EXPECT(ks, INV_CURRENT, "current thread spinner");

    /* time consumed since before the head refill began: commitTime would
     * charge the SC for time that was not its own */
    ks = inherited();
    EXPECT_ONLY(ks, INV_CURRENT, "pending consumption");
}

/* ---- ready queues ---- */

static void test_inv_ready_queue(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int r1 = add_ready(ks, "r1", 100), r2 = add_ready(ks, "r2", 100);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->tcbs[r1].state = TS_Inactive; /* queued but not schedulable */
    EXPECT_ONLY(ks, INV_READY_QUEUE, "queued thread r1");

    ks = valid();
    r1 = add_ready(ks, "r1", 100);
    r2 = add_ready(ks, "r2", 100);
    ks->scs[ks->tcbs[r2].sc].refills[ks->scs[ks->tcbs[r2].sc].head].time = T0 + 1;
    EXPECT_ONLY(ks, INV_READY_QUEUE, "queued thread r2");

    ks = valid();
    r1 = add_ready(ks, "r1", 100);
    r2 = add_ready(ks, "r2", 100);
    ks->tcbs[r2].sched_prev = KS_NONE; /* a second head */
    EXPECT_ONLY(ks, INV_READY_QUEUE, "r2");

    ks = valid();
    r1 = add_ready(ks, "r1", 100);
    r2 = add_ready(ks, "r2", 100);
    ks->tcbs[r1].sched_next = (int8_t)tc_tid(ks, "spinner");
    EXPECT_ONLY(ks, INV_READY_QUEUE, "spinner");

    ks = valid();
    r1 = add_ready(ks, "r1", 100);
    r2 = add_ready(ks, "r2", 100);
    ks->tcbs[r2].sched_next = (int8_t)r1; /* a cycle */
    ks->tcbs[r1].sched_prev = (int8_t)r2;
    EXPECT(ks, INV_READY_QUEUE, "r");

    ks = valid();
    r1 = add_ready(ks, "r1", 100);
    ks->tcbs[r1].in_release = true; /* in both queues */
    EXPECT(ks, INV_READY_QUEUE, "r1");
}

/* ---- bitmaps ---- */

static void test_inv_bitmap(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    add_ready(ks, "r1", 100);
    /* 100: L1 bit 1, L2 word 3 - 1 = 2, bit 36 */
    assert_int_equal(ks->l2[0][0][2], 1ull << 36);
    ks->l2[0][0][2] = 0;
    EXPECT_ONLY(ks, INV_BITMAP, "core 0 domain 0");

    ks = valid();
    add_ready(ks, "r1", 100);
    ks->l1[0][0] |= 1ull << 2;
    EXPECT_ONLY(ks, INV_BITMAP, "core 0 domain 0");

    ks = valid();
    ks->l2[0][3][1] = 1; /* a bit for an empty queue of domain 3 */
    EXPECT_ONLY(ks, INV_BITMAP, "domain 3");

    ks = valid();
    ks->l1[1][0] = 1;
    EXPECT_ONLY(ks, INV_BITMAP, "core 1");
}

/* ---- release queue ---- */

static void test_inv_release_queue(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int a = add_release(ks, "rel1", 50, 100000), b = add_release(ks, "rel2", 60, 200000);
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_int_equal(ks->release_head[0], a);
    ks->scs[ks->tcbs[a].sc].refills[0].time = T0 + 300000; /* now after rel2 */
    EXPECT_ONLY(ks, INV_RELEASE_QUEUE, "rel1 before rel2");

    ks = valid();
    a = add_release(ks, "rel1", 50, 100000);
    b = add_release(ks, "rel2", 60, 200000);
    ks->tcbs[b].in_release = false; /* linked but not flagged */
    EXPECT_ONLY(ks, INV_RELEASE_QUEUE, "rel2");

    ks = valid();
    a = add_release(ks, "rel1", 50, 100000);
    int x = build_thread(ks, "x", 10, 0);
    build_sc(ks, NULL, x, 1000, 100000, T0 + 5000);
    ks->tcbs[x].state = TS_Running;
    ks->tcbs[x].in_release = true; /* flagged but not linked */
    EXPECT_ONLY(ks, INV_RELEASE_QUEUE, "core 0");

    ks = valid();
    x = build_thread(ks, "rr", 10, 0);
    build_sc(ks, NULL, x, 1000, 0, 0);
    build_release(ks, x);
    ks->reprogram = false;
    EXPECT_ONLY(ks, INV_RELEASE_QUEUE, "thread rr");

    ks = valid();
    a = add_release(ks, "rel1", 50, 100000);
    b = add_release(ks, "rel2", 60, 200000);
    ks->tcbs[a].sched_prev = (int8_t)b; /* the head has a predecessor */
    EXPECT_ONLY(ks, INV_RELEASE_QUEUE, "rel1");

    ks = valid();
    a = add_release(ks, "rel1", 50, 100000);
    ks->scs[ks->tcbs[a].sc].refill_max = 0;
    EXPECT(ks, INV_RELEASE_QUEUE, "thread rel1");

    ks = valid();
    a = add_release(ks, "rel1", 50, 100000);
    ks->release_head[0] = KS_NONE; /* queue lost */
    EXPECT_ONLY(ks, INV_RELEASE_QUEUE, "core 0");
}

/* ---- refills ---- */

static void test_inv_refills(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int s = add_periodic_sc(ks, "sp");
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->scs[s].budget = 2500;
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    s = add_periodic_sc(ks, "sp");
    ks->scs[s].refills[1].time = T0 + 500; /* the head ends at T0 + 1000 */
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    s = add_periodic_sc(ks, "sp");
    ks->scs[s].refills[0].amount = 100; /* < MIN_BUDGET 160 */
    ks->scs[s].refills[1].amount = 1900;
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    int sch = find_sc(ks, "sc_handler");
    ks->scs[sch].refill_max = 3;
    ks->scs[sch].tail = 2; /* a third, empty refill */
    ks->scs[sch].refills[2].time = 0;
    ks->scs[sch].refills[2].amount = 0;
    EXPECT_ONLY(ks, INV_REFILLS, "SC sc_handler");

    ks = valid();
    s = add_periodic_sc(ks, "sp");
    ks->scs[s].period = 1500;
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    s = add_periodic_sc(ks, "sp");
    ks->scs[s].refill_max = 1; /* tail 1 is outside */
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    s = add_periodic_sc(ks, "sp");
    ks->scs[s].refills[1].time = ks->cfg.max_release - 500;
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    s = add_periodic_sc(ks, "sp");
    ks->scs[s].refills[0].amount = 2000;
    ks->scs[s].refills[1].amount = 0;
    EXPECT_ONLY(ks, INV_REFILLS, "SC sp");

    ks = valid();
    s = build_sc_unconfigured(ks, "su", KS_NONE);
    ks->scs[s].sporadic = true;
    EXPECT_ONLY(ks, INV_REFILLS, "SC su");
}

/* ---- bindings ---- */

static void test_inv_binding(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int h = tc_tid(ks, "handler");
    int scs = find_sc(ks, "sc_spin"), sch = find_sc(ks, "sc_handler");
    ks->tcbs[h].sc = (int8_t)scs;
    EXPECT_ONLY(ks, INV_BINDING, "thread handler names SC sc_spin");

    ks = valid();
    ks->ntfns[0].bound_tcb = (int8_t)h;
    EXPECT_ONLY(ks, INV_BINDING, "notification irq_ntfn");

    ks = valid();
    ks->tcbs[h].bound_ntfn = 0;
    EXPECT_ONLY(ks, INV_BINDING, "thread handler");

    ks = valid();
    ks->scs[sch].ntfn = 0;
    EXPECT_ONLY(ks, INV_BINDING, "SC sc_handler");

    ks = valid();
    ks->ntfns[0].sc = (int8_t)scs;
    EXPECT_ONLY(ks, INV_BINDING, "notification irq_ntfn");

    ks = valid();
    build_core1(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->scs[sch].core = 1; /* the handler stays on core 0 */
    EXPECT_ONLY(ks, INV_BINDING, "thread handler");
}

/* ---- notifications ---- */

static void test_inv_ntfn(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int h = tc_tid(ks, "handler"), s = tc_tid(ks, "spinner");
    ks->ntfns[0].state = NTFN_Idle;
    EXPECT_ONLY(ks, INV_NTFN, "irq_ntfn is Idle");

    ks = valid();
    ks->ntfns[0].state = NTFN_Active;
    EXPECT_ONLY(ks, INV_NTFN, "irq_ntfn is Active");

    ks = valid();
    ks->ntfns[0].q_head = ks->ntfns[0].q_tail = KS_NONE;
    EXPECT_ONLY(ks, INV_NTFN, "irq_ntfn is Waiting");

    ks = valid();
    int n2 = build_ntfn(ks, "n2");
    ks->tcbs[h].blocking = (int8_t)n2;
    EXPECT_ONLY(ks, INV_NTFN, "queued thread handler");

    ks = valid();
    int w = build_thread(ks, "w2", 255, 0); /* higher, but queued last */
    ks->tcbs[w].state = TS_BlockedOnNotification;
    ks->tcbs[w].blocking = 0;
    ks->tcbs[h].ep_next = (int8_t)w;
    ks->tcbs[w].ep_prev = (int8_t)h;
    ks->ntfns[0].q_tail = (int8_t)w;
    EXPECT_ONLY(ks, INV_NTFN, "priority order at w2");

    ks = valid();
    ks->ntfns[0].q_tail = KS_NONE;
    EXPECT_ONLY(ks, INV_NTFN, "irq_ntfn: queue tail");

    ks = valid();
    build_bind_ntfn(ks, s, 0);
    EXPECT_ONLY(ks, INV_NTFN, "bound to spinner");

    ks = valid();
    ks->tcbs[h].ep_prev = (int8_t)s;
    EXPECT_ONLY(ks, INV_NTFN, "badly linked at handler");

    ks = valid();
    w = build_thread(ks, "w3", 10, 0); /* blocked on it, not queued */
    ks->tcbs[w].state = TS_BlockedOnNotification;
    ks->tcbs[w].blocking = 0;
    EXPECT_ONLY(ks, INV_NTFN, "notification irq_ntfn: 2 threads blocked");
}

/* ---- endpoints ---- */

static void test_inv_ep(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int e = build_ep(ks, "ep");
    int a = add_receiver(ks, "rcv", 10, e, KS_NONE);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->eps[e].state = EP_Idle;
    EXPECT_ONLY(ks, INV_EP, "endpoint ep is Idle");

    ks = valid();
    e = build_ep(ks, "ep");
    a = add_receiver(ks, "rcv", 10, e, KS_NONE);
    ks->eps[e].state = EP_Send;
    EXPECT_ONLY(ks, INV_EP, "queued thread rcv");

    ks = valid();
    e = build_ep(ks, "ep");
    a = add_receiver(ks, "rcv", 10, e, KS_NONE);
    ks->eps[e].q_head = ks->eps[e].q_tail = KS_NONE;
    EXPECT_ONLY(ks, INV_EP, "endpoint ep");

    ks = valid();
    e = build_ep(ks, "ep");
    a = add_receiver(ks, "rcv", 10, e, KS_NONE);
    int b = add_receiver(ks, "rcv2", 5, e, KS_NONE);
    ks->tcbs[b].ep_prev = KS_NONE;
    EXPECT_ONLY(ks, INV_EP, "badly linked at rcv2");

    ks = valid();
    e = build_ep(ks, "ep");
    a = add_receiver(ks, "rcv", 10, e, KS_NONE);
    b = add_receiver(ks, "rcv2", 5, e, KS_NONE);
    ks->tcbs[a].prio = 1; /* now below the one behind it */
    EXPECT_ONLY(ks, INV_EP, "priority order at rcv2");
    (void)a;
}

/* ---- released ---- */

static void test_inv_released(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int sch = find_sc(ks, "sc_handler");
    ks->scs[sch].refills[ks->scs[sch].head].time = T0 + 1;
    EXPECT_ONLY(ks, INV_RELEASED, "blocked thread handler");

    /* Reachable: an SC bound to a notification with its head refill in
     * the future. decodeSchedContext_Bind (src/object/schedcontext.c:111
     * at 43607edb6) checks sc_released only for a thread cap; a periodic
     * SC postponed with its thread, unbound (schedContext_unbindTCB keeps
     * the refills, :320-334) and bound to irq_ntfn is this state. */
    ks = valid();
    int s = add_periodic_sc(ks, "sp");
    build_bind_sc_ntfn(ks, s, 0);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->scs[s].refills[0].time = T0 + 1; /* ends T0 + 1001 <= T0 + 5000 */
    tc_assert_valid(ks, INV_AT_ENTRY);
    tc_assert_valid(ks, INV_AT_EXIT);

    /* Reachable: a thread blocked sending a timeout fault with its SC not
     * ready. endTimeslice (src/kernel/thread.c:623-625) calls handleTimeout
     * right after chargeBudget moved the head refill into the future,
     * without postponing; sendIPC queues it on the handler's endpoint. */
    ks = valid();
    int fe = build_ep(ks, "hep");
    int ft = build_thread(ks, "flt", 10, 0);
    build_sc(ks, "sc_flt", ft, 1000, 10000, T0 + 20);
    build_send_ep(ks, ft, fe);
    ks->tcbs[ft].fault = FAULT_Timeout;
    tc_assert_valid(ks, INV_AT_ENTRY);

    ks = valid();
    int e = build_ep(ks, "ep");
    int rc = add_receiver(ks, "rcv", 10, e, KS_NONE);
    int rsc = ks->tcbs[rc].sc;
    ks->scs[rsc].refills[0].time = T0 + 10;
    EXPECT_ONLY(ks, INV_RELEASED, "blocked thread rcv");

    ks = valid();
    e = build_ep(ks, "ep");
    int sd = build_thread(ks, "snd", 10, 0);
    build_sc(ks, "sc_snd", sd, 1000, 10000, T0 + 20);
    build_send_ep(ks, sd, e);
    EXPECT_ONLY(ks, INV_RELEASED, "blocked thread snd");
}

/* ---- replies ---- */

static void test_inv_reply(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int e = build_ep(ks, "ep");
    int r = ks_add_reply(ks, "rp");
    int t = add_receiver(ks, "rcv", 10, e, r);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->replies[r].tcb = KS_NONE;
    EXPECT_ONLY(ks, INV_REPLY, "thread rcv holds reply rp");

    ks = valid();
    e = build_ep(ks, "ep");
    r = ks_add_reply(ks, "rp");
    t = add_receiver(ks, "rcv", 10, e, r);
    int r2 = ks_add_reply(ks, "rp2");
    ks->replies[r2].tcb = (int8_t)t;
    EXPECT_ONLY(ks, INV_REPLY, "reply rp2 names rcv");
}

/* ---- the call stack ---- */

/* a client blocked on a new reply that heads sc's call stack (reply_push
 * with donation: the client's SC went to the callee) */
static int push_client(struct kstate *ks, const char *name, int sc)
{
    char rn[KS_NAME_LEN];
    snprintf(rn, sizeof rn, "r_%s", name);
    return build_call_push(ks, build_thread(ks, name, 10, 0), sc, rn);
}

static void test_inv_call_stack(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int sc = ks->cur_sc;
    int r0 = push_client(ks, "c0", sc), r1 = push_client(ks, "c1", sc);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->scs[sc].reply = (int8_t)r0; /* the SC names the older reply */
    expect_at(ks, INV_AT_ENTRY, INV_CALL_STACK, "call stack head r_c0 does not name it back", false);
    ks->scs[sc].reply = (int8_t)r1;
    ks->replies[r0].next = KS_NONE; /* the chain broken on one side only */
    expect_at(ks, INV_AT_ENTRY, INV_CALL_STACK, "predecessor r_c0 does not name it back", false);
    ks->replies[r0].next = (int8_t)r1;
    ks->replies[r1].prev = KS_NONE;
    expect_at(ks, INV_AT_ENTRY, INV_CALL_STACK, "successor r_c1 does not name it back", false);
    ks->replies[r1].prev = (int8_t)r0;
    ks->replies[r0].sc_head = (int8_t)sc; /* a head with a successor */
    expect_at(ks, INV_AT_ENTRY, INV_CALL_STACK, "which has another head or successor", false);
    ks->replies[r0].sc_head = KS_NONE;
    tc_assert_valid(ks, INV_AT_ENTRY);
    /* the older caller woken behind the stack's back */
    ks->tcbs[ks->replies[r0].tcb].state = TS_Inactive;
    ks->tcbs[ks->replies[r0].tcb].reply = KS_NONE;
    expect_at(ks, INV_AT_ENTRY, INV_CALL_STACK, "r_c0 is on a call stack without a caller blocked on it", false);
}

/* ---- time ---- */

static void test_inv_time(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    ks->hw_clock = ks->cur_time - 1;
    EXPECT_ONLY(ks, INV_TIME, "ksCurTime");

    ks = valid();
    ks->hw_clock = ks->cfg.max_release; /* (also far past the deadline) */
    EXPECT(ks, INV_TIME, "hardware clock");

    ks = valid();
    ks->consumed = ks->cur_time + 1;
    EXPECT_ONLY(ks, INV_TIME, "ksConsumed");
}

/* ---- domains ---- */

static void test_inv_domain(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    ks->domain_time = 0;
    EXPECT_ONLY(ks, INV_DOMAIN, "domain time");

    ks = valid();
    ks->dom_sched[0] = 0;
    EXPECT_ONLY(ks, INV_DOMAIN, "domain schedule entry 0");

    ks = valid();
    ks->cfg.num_domains = 2;
    ks->dom_len = 2;
    ks->dom_sched[1] = dschedule_make(3, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000)); /* >= number of domains */
    EXPECT_ONLY(ks, INV_DOMAIN, "domain schedule entry 1");

    ks = valid();
    ks->cur_domain = 1; /* one domain */
    EXPECT(ks, INV_DOMAIN, "current domain 1");

    ks = valid();
    ks->cfg.num_domains = 2;
    ks->dom_len = 2;
    ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000));
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->dom_idx = 1; /* the schedule says domain 1, domain 0 runs */
    EXPECT_ONLY(ks, INV_DOMAIN, "current domain 0");
}

/* ---- IRQs ---- */

/* The checker reads only the IRQs in use (check/invariant.c, find_irqs,
 * eight at a time where none is): a bad entry at any number of the table,
 * at the start, inside or at the end of a block of eight, or past the last
 * whole block, is still found. */
static void test_inv_irq_anywhere(void **state)
{
    (void)state;
    for (int i = 0; i < 99; i++) {
        struct kstate *ks = valid();
        ks_irq_touch(ks, 98); /* 99 IRQs: twelve blocks and three more */
        if (ks->irq_state[i] != IRQ_Inactive || ks->irq_cap[i].type != CAP_Null || ks->irq_active[i])
            continue; /* in use in the preset */
        char name[32];
        snprintf(name, sizeof name, "IRQ %d:", i);
        ks->irq_cap[i].type = CAP_TYPE_COUNT;
        EXPECT_ONLY(ks, INV_IRQ, name);
        ks = valid();
        ks_irq_touch(ks, 98);
        ks->irq_state[i] = IRQ_STATE_COUNT;
        EXPECT_ONLY(ks, INV_IRQ, name);
        ks = valid();
        ks_irq_touch(ks, 98);
        ks->irq_active[i] = true; /* the preset's GIC: EOImode 0 */
        snprintf(name, sizeof name, "IRQ %d is active", i);
        EXPECT_ONLY(ks, INV_IRQ, name);
        ks = valid();
        ks_irq_touch(ks, 98);
        ks->irq_cap[i].type = CAP_Notification;
        ks->irq_cap[i].ntfn = 16;
        snprintf(name, sizeof name, "IRQ %d handler", i);
        EXPECT_ONLY(ks, INV_INDEX, name);
    }
}

static void test_inv_irq(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    ks->irq_state[PRESET_IRQ] = IRQ_STATE_COUNT;
    EXPECT_ONLY(ks, INV_IRQ, "IRQ 40");

    ks = valid();
    ks->irq_cap[PRESET_IRQ].type = CAP_TYPE_COUNT;
    EXPECT_ONLY(ks, INV_IRQ, "IRQ 40");

    ks = valid();
    build_irq_signal(ks, 161, 0, 1, true); /* maxIRQ is 160 */
    EXPECT_ONLY(ks, INV_IRQ, "IRQ 161");

    ks = valid();
    build_irq_state(ks, 41, IRQ_IPI); /* single core */
    EXPECT_ONLY(ks, INV_IRQ, "IRQ 41");

    /* on two cores only IRQs 0 and 1 are IPIs (arm/kernel/boot.c:148-149) */
    ks = valid();
    build_core1(ks);
    build_irq_state(ks, KS_IRQ_RESCHEDULE_IPI, IRQ_IPI);
    build_irq_state(ks, KS_IRQ_REMOTE_CALL_IPI, IRQ_IPI);
    struct inv_report ipi_ok;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &ipi_ok), 0);
    build_irq_state(ks, 41, IRQ_IPI);
    EXPECT_ONLY(ks, INV_IRQ, "IRQ 41 is an IPI; the kernel makes only IRQs 0 and 1 IPIs");

    ks = valid();
    ks->active_irq = KS_MAX_IRQS;
    EXPECT_ONLY(ks, INV_IRQ, "active IRQ 1024");

    ks = valid();
    ks->active_irq = -2;
    EXPECT_ONLY(ks, INV_IRQ, "active IRQ -2");
}

/* ---- SMP ---- */

static void test_inv_smp(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    int h = tc_tid(ks, "handler"), s = tc_tid(ks, "spinner");
    ks->tcbs[h].affinity = 1; /* single core */
    EXPECT_ONLY(ks, INV_SMP, "thread handler");

    ks = valid();
    ks->scs[find_sc(ks, "sc_handler")].core = 1;
    EXPECT_ONLY(ks, INV_SMP, "SC sc_handler");

    ks = valid();
    ks->cfg.smp = true; /* but core 1 has no threads */
    EXPECT_ONLY(ks, INV_SMP, "core 1");

    ks = valid();
    build_core1(ks);
    ks->core_cur[1] = (int8_t)s; /* runs on core 0 */
    EXPECT_ONLY(ks, INV_SMP, "spinner");

    /* one ksActiveFPUState per core (include/machine/fpu.h:28): the handler
     * and the spinner, both on core 0, cannot both have live FPU state; one
     * per core can */
    ks = valid();
    int idle1 = build_core1(ks);
    ks->tcbs[h].fpu_live = ks->tcbs[idle1].fpu_live = true;
    struct inv_report fpu_ok;
    assert_int_equal(kstate_check(ks, INV_AT_ENTRY, &fpu_ok), 0);
    ks->tcbs[s].fpu_live = true;
    EXPECT_ONLY(ks, INV_SMP, "both own the FPU of core 0");
}

/* ---- user (kernel boundary) ---- */

static void test_inv_user(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    ks->sched_action = KS_SA_CHOOSE;
    EXPECT_ONLY(ks, INV_ENTRY, "scheduler action");

    ks = valid();
    ks->sched_action = (int16_t)tc_tid(ks, "handler");
    EXPECT(ks, INV_ENTRY, "scheduler action");

    ks = valid();
    ks->reprogram = true;
    EXPECT_ONLY(ks, INV_ENTRY, "ksReprogram");

    ks = valid();
    ks->tcbs[ks->cur_thread].state = TS_Restart;
    EXPECT_ONLY(ks, INV_ENTRY, "current thread spinner");

    ks = valid();
    add_ready(ks, "hi", 254);
    EXPECT_ONLY(ks, INV_ENTRY, "ready thread hi (priority 254) outranks the running spinner");

    /* an equal priority does not outrank */
    ks = valid();
    add_ready(ks, "eq", 253);
    tc_assert_valid(ks, INV_AT_ENTRY);

    /* the active IRQ masked: only at entry (the paths mask it on exit) */
    ks = valid();
    ks->irq_masked[PRESET_IRQ] = true;
    EXPECT_ONLY(ks, INV_ENTRY, "active IRQ 40");
    tc_assert_valid(ks, INV_AT_EXIT);
}

/* ipiReschedulePending is cleared by every schedule() (doMaskReschedule,
 * src/kernel/thread.c:399-402 at 43607edb6) and no fastpath of the model
 * sets it: a state with it set at a user-level boundary is unreachable. */
static void test_inv_user_ipi(void **state)
{
    (void)state;
    struct kstate *ks = valid();
    build_core1(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->ipi_pending = 2; /* a reschedule IPI for core 1 not yet sent */
    EXPECT_ONLY(ks, INV_ENTRY, "ipiReschedulePending 0x2");
    ks->ipi_pending = 0;
    ks->ipi_sent = 2; /* sent: core 1 takes it; core 0's state is clean */
    tc_assert_valid(ks, INV_AT_ENTRY);
}

/* The admit mode. Each bit accepts exactly its leftover and nothing else;
 * without it the state is rejected (unreachable at an entry of the kernel
 * with the IRQ slowpath only, on one core: schedule() clears them at every
 * exit, src/kernel/thread.c:398-410; checkDomainTime switches an expired
 * domain, include/kernel/thread.h:251-257). */
static void test_admit_bits(void **state)
{
    (void)state;
    struct inv_report r;
    struct kstate *ks = valid();
    ks->sched_action = KS_SA_CHOOSE; /* F1 on a switch */
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_ACTION, &r), 0);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_ACTION), &r), 1);
    ks = valid();
    ks->reprogram = true; /* F1, F8 */
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_REPROGRAM, &r), 0);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_REPROGRAM), &r), 1);
    ks = valid();
    add_ready(ks, "hi", 254); /* outranks the spinner (253) */
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_OUTRANKED, &r), 0);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_OUTRANKED), &r), 1);
    ks = valid();
    ks->domain_time = 0; /* F2 */
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_DOMAIN_END, &r), 0);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_DOMAIN_END), &r), 1);
    ks = inherited(); /* F2's switch */
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_INHERITED, &r), 0);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_INHERITED), &r), 1);
    /* a pending reschedule IPI (S9: master's signal fastpath returns to
     * user level with its own core's set), on this core or the other */
    ks = valid();
    build_core1(ks);
    ks->ipi_pending = 2;
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_IPI, &r), 0);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_IPI), &r), 1);
    assert_true(inv_has(&r, INV_ENTRY));
    ks->ipi_pending = 0;
    ks->core_ipi_pending[1] = 1;
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ALL_BUT(INV_ADMIT_IPI), &r), 1);
    assert_non_null(strstr(r.items[0].msg, "of core 1"));
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_IPI, &r), 0);
    /* and the thread it queued here outranks this core's current one: the
     * IPI to this core is owed by core 1, not yet in flight (S9) */
    add_ready(ks, "hi", 254);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, 0, &r), 2);
    assert_int_equal(kstate_check_admit(ks, INV_AT_ENTRY, INV_ADMIT_IPI, &r), 0);
}

static void test_admit_parse(void **state)
{
    (void)state;
    unsigned a = 99;
    assert_int_equal(inv_admit_parse("none", &a), 0);
    assert_int_equal(a, 0);
    assert_int_equal(inv_admit_parse("all", &a), 0);
    assert_int_equal(a, INV_ADMIT_ALL);
    assert_int_equal(inv_admit_parse("pr1227", &a), 0);
    assert_int_equal(a, INV_ADMIT_ALL & ~INV_ADMIT_IPI);
    assert_int_equal(inv_admit_parse("ipi,reprogram", &a), 0);
    assert_int_equal(a, INV_ADMIT_IPI | INV_ADMIT_REPROGRAM);
    assert_int_equal(inv_admit_parse("fixed", &a), 0);
    assert_int_equal(a, 0);
    assert_int_equal(inv_admit_parse("reprogram,outranked", &a), 0);
    assert_int_equal(a, INV_ADMIT_REPROGRAM | INV_ADMIT_OUTRANKED);
    assert_int_equal(inv_admit_parse("action,domain_end", &a), 0);
    assert_int_equal(a, INV_ADMIT_ACTION | INV_ADMIT_DOMAIN_END);
    assert_int_equal(inv_admit_parse("masked", &a), 0);
    assert_int_equal(a, INV_ADMIT_MASKED);
    assert_int_equal(inv_admit_parse("inherited,masked", &a), 0);
    assert_int_equal(a, INV_ADMIT_INHERITED | INV_ADMIT_MASKED);
    assert_int_equal(inv_admit_parse("action,domain_end", &a), 0);
    assert_int_equal(a, INV_ADMIT_ACTION | INV_ADMIT_DOMAIN_END);
    assert_int_equal(inv_admit_parse("reprogram,", &a), -1);
    assert_int_equal(inv_admit_parse("colour", &a), -1);
    assert_int_equal(inv_admit_parse("", &a), 0);
    assert_int_equal(a, 0);
}

/* What each fastpath leaves at user level, over generated states: every
 * outcome of the corrected fastpath passes the plain exit check; every
 * outcome of PR #1227's passes with target_admit_left_by(irq, pr1227) (the F2
 * switch with the interrupted thread's ksConsumed pending on the handler's
 * SC included: INV_ADMIT_INHERITED), and each admit bit is needed by some
 * outcome. */
static void test_admit_left_by(void **state)
{
    (void)state;
    struct kstate *in = tc_state(), *out = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    unsigned needed = 0;
    /* base, then master (F9's mask shows only there) */
    for (uint64_t seed = 0; seed < 40000; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        b.kernel = seed < 30000 ? KS_KERNEL_BASE : KS_KERNEL_MASTER;
        gen_state(in, &src, &b);
        for (int v = 0; v < FP_VARIANT_COUNT; v++) {
            ks_copy(out, in);
            fastpath_irq(out, v);
            struct inv_report r;
            int n = kstate_check_admit(out, INV_AT_EXIT, target_admit_left_by(&target_irq, v), &r);
            for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
                fail_msg("seed %llu %s: %s", (unsigned long long)seed, fp_variant_name(v), r.items[i].msg);
            if (v != FP_PR1227)
                continue;
            for (unsigned bit = 1; bit & INV_ADMIT_ALL; bit <<= 1)
                if (kstate_check_admit(out, INV_AT_EXIT, INV_ALL_BUT(bit), &r) > n)
                    needed |= bit;
        }
    }
    assert_int_equal(needed, target_admit_left_by(&target_irq, FP_PR1227));
    assert_int_equal(needed, INV_ADMIT_ALL & ~INV_ADMIT_IPI);
    assert_int_equal(target_admit_left_by(&target_irq, FP_FIXED), 0);
    free(in);
    free(out);
}

/* The same for master's signal fastpath over generated SysSend states (one
 * and two cores): every outcome of the corrected one passes the plain exit
 * check; every outcome of the merged one passes with
 * target_admit_left_by(&target_signal, merged), and each of its bits is needed:
 * ksReprogram after the receiver's unblock check (S5) and the IPI
 * remoteQueueUpdate marked (S9), both left by restore_user_context without
 * schedule(). */
static void test_admit_left_by_signal(void **state)
{
    (void)state;
    struct kstate *in = tc_state(), *out = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.target = &target_signal;
    unsigned needed = 0;
    for (uint64_t seed = 0; seed < 40000; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        gen_state(in, &src, &b);
        for (int v = 0; v < SIG_VARIANT_COUNT; v++) {
            ks_copy(out, in);
            fastpath_signal(out, v);
            struct inv_report r;
            unsigned admit = target_admit_left_by(&target_signal, v);
            int n = kstate_check_admit(out, INV_AT_EXIT, admit, &r);
            for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
                fail_msg("seed %llu %s: %s", (unsigned long long)seed, sig_variant_name(v), r.items[i].msg);
            for (unsigned bit = 1; v == SIG_MERGED && (bit & INV_ADMIT_ALL); bit <<= 1)
                if ((admit & bit) && kstate_check_admit(out, INV_AT_EXIT, admit & ~bit, &r) > n)
                    needed |= bit;
        }
    }
    assert_int_equal(needed, INV_ADMIT_REPROGRAM | INV_ADMIT_IPI);
    assert_int_equal(target_admit_left_by(&target_signal, SIG_MERGED), needed);
    assert_int_equal(target_admit_left_by(&target_signal, SIG_FIXED), 0);
    free(in);
    free(out);
}

/* A thread blocked on a VPPIEvent fault still in its ready queue (the
 * trees between 6dbe58ef0 and 232471e90, docs/model.md "VCPUs"): fault;
 * a VCPU naming a thread that does not name it back (associateVCPUTCB
 * sets both, src/arch/arm/object/vcpu.c:300-301): vcpu. */
static void test_fault_and_vcpu(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks->cfg.hyp = true;
    int t = build_thread(ks, "q", 100, 0);
    build_sc(ks, "qsc", t, 8000, 80000, 0);
    build_ready(ks, t);
    ks->tcbs[t].state = TS_BlockedOnSend;
    ks->tcbs[t].fault = FAULT_VPPIEvent;
    ks->tcbs[t].blocking = (int8_t)build_ep(ks, "fep");
    expect_at(ks, INV_AT_ENTRY, INV_FAULT, "a pending vppi fault", false);
    ks->tcbs[t].state = TS_Running;
    ks->tcbs[t].fault = FAULT_None;
    ks->vcpus[ks_add_vcpu(ks, "v")].tcb = (int8_t)t;
    expect_at(ks, INV_AT_ENTRY, INV_VCPU, "whose VCPU is -", false);
    free(ks);
}

/* Every invariant id has been reported by some test above. */
static void test_all_ids_covered(void **state)
{
    (void)state;
    int missing = 0;
    for (int id = 0; id < INV_COUNT; id++) {
        if (!covered[id]) {
            print_error("invariant %s (%s) has no test\n", inv_name(id), inv_what(id));
            missing++;
        }
    }
    assert_int_equal(missing, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_bases),
        cmocka_unit_test(test_inv_call_stack),
        cmocka_unit_test(test_inv_config),
        cmocka_unit_test(test_inv_index),
        cmocka_unit_test(test_inv_index_garbage),
        cmocka_unit_test(test_inv_index_random),
        cmocka_unit_test(test_inv_idle),
        cmocka_unit_test(test_inv_thread),
        cmocka_unit_test(test_inv_current),
        cmocka_unit_test(test_inv_ready_queue),
        cmocka_unit_test(test_inv_bitmap),
        cmocka_unit_test(test_inv_release_queue),
        cmocka_unit_test(test_inv_refills),
        cmocka_unit_test(test_inv_binding),
        cmocka_unit_test(test_inv_ntfn),
        cmocka_unit_test(test_inv_ep),
        cmocka_unit_test(test_inv_released),
        cmocka_unit_test(test_inv_reply),
        cmocka_unit_test(test_inv_time),
        cmocka_unit_test(test_inv_domain),
        cmocka_unit_test(test_inv_irq),
        cmocka_unit_test(test_inv_irq_anywhere),
        cmocka_unit_test(test_inv_smp),
        cmocka_unit_test(test_inv_user),
        cmocka_unit_test(test_inv_user_ipi),
        cmocka_unit_test(test_admit_bits),
        cmocka_unit_test(test_admit_parse),
        cmocka_unit_test(test_admit_left_by),
        cmocka_unit_test(test_admit_left_by_signal),
        cmocka_unit_test(test_fault_and_vcpu),
        cmocka_unit_test(test_all_ids_covered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
