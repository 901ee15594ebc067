/*
 * The master kernel (1326364bc) on the interrupt path: GICv3 split EOI
 * (a4b0c8d36, docs/model.md "Master", rows 1 and 2), by GIC version.
 *
 * Kernel facts the expected values follow from (1326364bc unless said):
 *   handleInterrupt, IRQSignal  masks only without GICv3
 *                               (src/object/interrupt.c:232-235); base
 *                               43607edb6 masks always (:221)
 *   ackInterrupt (gic_v3.h)     writes ICC_EOIR1 (with EOImode set by
 *                               cpu_iface_init, gic_v3.c:350, a priority
 *                               drop only) and deactivates (ICC_DIR)
 *                               unless the IRQ is <= maxIRQ and IRQSignal
 *                               (:345-367)
 *   ackInterrupt (gic_v2.h)     EOI write, EOImode 0: deactivates
 *   getActiveIRQ                the IAR read makes the IRQ active
 *   invokeIRQHandler_AckIRQ     GICv3: deactivateInterrupt, mask untouched;
 *                               otherwise maskInterrupt(false)
 *                               (interrupt.c:159-163; base :152 unmasks)
 * imx8mm and qemu-arm-virt3 are GICv3 boards, odroidc4 and qemu-arm-virt
 * GICv2 (their config.cmake).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "tcount.h"

#include "classify.h"
#include "gen.h"
#include "irqc.h"
#include "irqhandler.h"
#include "print.h"
#include "reply.h"
#include "schedcontext.h"
#include "smp.h"
#include "scenario.h"
#include "syscall.h"

/* The irquser preset (a spinner at 253 runs, a handler at 254 waits on
 * IRQ 40's notification) on a board, under a kernel version. */
static struct kstate *irquser(const char *board, int kernel)
{
    struct kstate *ks = tc_state();
    assert_int_equal(preset_irquser(ks, board), 0);
    ks->cfg.kernel = (uint8_t)kernel;
    /* on master the running spinner owns the FPU (its switch gave it) */
    ks->tcbs[tc_tid(ks, "spinner")].fpu_live = kernel == KS_KERNEL_MASTER;
    tc_assert_valid(ks, INV_AT_ENTRY);
    return ks;
}

static struct kstate *slow_of(const struct kstate *in)
{
    struct kstate *out = tc_state();
    ks_copy(out, in);
    handleInterruptEntry(out);
    tc_assert_no_asserts(out);
    return out;
}

/* The same irquser state: on master with GICv3 the delivered IRQ stays
 * unmasked and active after the slowpath (one EOI, no ICC_DIR); on master
 * with GICv2 and on base with either GIC it is masked and deactivated.
 * The handler runs in every case (the signal is the same). */
static void test_slowpath_by_gic(void **state)
{
    (void)state;
    static const struct {
        const char *board;
        int kernel;
        bool masked, active;
    } cases[] = {
        {"imx8mm", KS_KERNEL_MASTER, false, true},  {"qemu-arm-virt3", KS_KERNEL_MASTER, false, true},
        {"odroidc4", KS_KERNEL_MASTER, true, false}, {"qemu-arm-virt", KS_KERNEL_MASTER, true, false},
        {"imx8mm", KS_KERNEL_BASE, true, false},     {"odroidc4", KS_KERNEL_BASE, true, false},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct kstate *in = irquser(cases[i].board, cases[i].kernel);
        assert_false(in->irq_active[PRESET_IRQ]);
        struct kstate *out = slow_of(in);
        tc_assert_valid(out, INV_AT_EXIT);
        assert_int_equal(out->cur_thread, tc_tid(in, "handler"));
        assert_int_equal(out->irq_acks[PRESET_IRQ], 1);
        assert_int_equal(out->irq_masked[PRESET_IRQ], cases[i].masked);
        assert_int_equal(out->irq_active[PRESET_IRQ], cases[i].active);
        free(out);
        free(in);
    }
}

/* A signal IRQ whose cap cannot deliver goes to user level all the same
 * (ackInterrupt tests only the IRQ state): on master GICv3 not masked and
 * left active. */
static void test_undelivered_stays_active(void **state)
{
    (void)state;
    struct kstate *in = irquser("imx8mm", KS_KERNEL_MASTER);
    in->irq_cap[PRESET_IRQ].can_send = false;
    struct kstate *out = slow_of(in);
    assert_int_equal(out->cur_thread, tc_tid(in, "spinner"));
    assert_false(out->irq_masked[PRESET_IRQ]);
    assert_true(out->irq_active[PRESET_IRQ]);
    free(out);
    free(in);
}

/* Not going to user level: a timer IRQ, an inactive IRQ and one above
 * maxIRQ are deactivated by ackInterrupt on master GICv3; the inactive one
 * and the one above maxIRQ are masked as on base. */
static void test_other_irqs_deactivated(void **state)
{
    (void)state;
    struct kstate *in = irquser("imx8mm", KS_KERNEL_MASTER);
    build_irq_state(in, 30, IRQ_Timer);
    in->active_irq = 30;
    struct kstate *out = slow_of(in);
    assert_false(out->irq_active[30]);
    assert_false(out->irq_masked[30]);
    assert_int_equal(out->irq_acks[30], 1);
    free(out);

    in->irq_state[PRESET_IRQ] = IRQ_Inactive;
    in->active_irq = PRESET_IRQ;
    out = slow_of(in);
    assert_false(out->irq_active[PRESET_IRQ]);
    assert_true(out->irq_masked[PRESET_IRQ]);
    free(out);

    in->active_irq = 170; /* maxIRQ 160 */
    out = slow_of(in);
    assert_int_equal(out->oor_irq, 170);
    assert_true(out->oor_masked);
    assert_false(out->oor_active);
    assert_int_equal(out->oor_acks, 1);
    tc_assert_valid(out, INV_AT_EXIT);
    free(out);
    free(in);
}

/* The GIC operations one by one: the IAR read activates (in the table and
 * above it), irqInvalid activates nothing, ICC_DIR deactivates. */
static void test_gic_ops(void **state)
{
    (void)state;
    struct kstate *ks = irquser("imx8mm", KS_KERNEL_MASTER);
    assert_int_equal(getActiveIRQ(ks), PRESET_IRQ);
    assert_true(ks->irq_active[PRESET_IRQ]);
    deactivateInterrupt(ks, PRESET_IRQ);
    assert_false(ks->irq_active[PRESET_IRQ]);
    ks->active_irq = 200;
    assert_int_equal(getActiveIRQ(ks), 200);
    assert_int_equal(ks->oor_irq, 200);
    assert_true(ks->oor_active);
    ackInterrupt(ks, 200); /* above maxIRQ: deactivated even under split EOI */
    assert_false(ks->oor_active);
    struct kstate *before = tc_state();
    ks_copy(before, ks);
    ks->active_irq = KS_IRQ_INVALID;
    before->active_irq = KS_IRQ_INVALID;
    assert_int_equal(getActiveIRQ(ks), KS_IRQ_INVALID);
    assert_true(ks_same(before, ks));
    free(before);
    free(ks);
}

/* IRQHandler_Ack: master GICv3 deactivates and leaves the mask as it is
 * (a masked IRQ stays masked: only the PR's fastpath masks one there);
 * GICv2 and base unmask and leave the active state alone. */
static void test_user_ack(void **state)
{
    (void)state;
    struct kstate *ks = irquser("imx8mm", KS_KERNEL_MASTER);
    ks->irq_active[PRESET_IRQ] = true;
    ks->irq_masked[PRESET_IRQ] = true;
    assert_int_equal(decodeIRQHandler_Ack(ks, PRESET_IRQ, 0), SYSERR_NONE);
    assert_false(ks->irq_active[PRESET_IRQ]);
    assert_true(ks->irq_masked[PRESET_IRQ]);
    free(ks);
    static const struct {
        const char *board;
        int kernel;
    } unmask[] = {{"odroidc4", KS_KERNEL_MASTER}, {"imx8mm", KS_KERNEL_BASE}};
    for (int i = 0; i < 2; i++) {
        ks = irquser(unmask[i].board, unmask[i].kernel);
        ks->irq_masked[PRESET_IRQ] = true;
        assert_int_equal(decodeIRQHandler_Ack(ks, PRESET_IRQ, 0), SYSERR_NONE);
        assert_false(ks->irq_masked[PRESET_IRQ]);
        assert_false(ks->irq_active[PRESET_IRQ]);
        free(ks);
    }
}

static int broken(const struct kstate *ks, enum inv_when when, int id)
{
    struct inv_report r;
    int n = kstate_check(ks, when, &r), hits = 0;
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
        hits += r.items[i].id == id;
    return hits;
}

/* The checker: the IRQ taken is not active; nothing is active at user
 * level with EOImode 0; under split EOI only an IRQSignal or IRQInactive
 * IRQ within maxIRQ, and no signal IRQ is masked; nothing above maxIRQ is
 * left active. */
static void test_invariants(void **state)
{
    (void)state;
    struct kstate *ks = irquser("imx8mm", KS_KERNEL_MASTER);
    ks->irq_active[PRESET_IRQ] = true; /* the IRQ taken now */
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_ENTRY), 1);
    assert_int_equal(broken(ks, INV_AT_EXIT, INV_ENTRY), 0);
    ks->irq_active[PRESET_IRQ] = false;
    build_irq_state(ks, 50, IRQ_Signal);
    build_irq_state(ks, 51, IRQ_Inactive);
    ks->irq_active[50] = ks->irq_active[51] = true;
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 1); /* 51 unmasked: its deletion masked it */
    ks->irq_masked[51] = true;
    tc_assert_valid(ks, INV_AT_ENTRY);
    ks->cfg.gic_version = 2; /* EOImode 0 */
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 2);
    ks->cfg.gic_version = 3;
    ks->cfg.kernel = KS_KERNEL_BASE;
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 2);
    ks->cfg.kernel = KS_KERNEL_MASTER;
    build_irq_state(ks, 52, IRQ_Timer);
    ks->irq_active[52] = true;
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 1);
    ks->irq_active[52] = false;
    ks->irq_masked[50] = true; /* a masked signal IRQ */
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 1);
    ks->irq_masked[50] = false;
    ks->cfg.max_irq = 50; /* 51 now above maxIRQ, active */
    ks->irq_state[51] = IRQ_Inactive;
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 2); /* and IRQ 52 is a Timer above maxIRQ */
    ks->cfg.max_irq = 160;
    ks->oor_irq = 170;
    ks->oor_active = true;
    assert_int_equal(broken(ks, INV_AT_ENTRY, INV_IRQ), 1);
    free(ks);
}

/* kernel=master and the active flags are written and read back. */
static void test_scenario_round_trip(void **state)
{
    (void)state;
    struct kstate *ks = irquser("qemu-arm-virt3", KS_KERNEL_MASTER), *back = tc_state();
    build_irq_state(ks, 50, IRQ_Signal);
    ks->irq_active[50] = true;
    ks->oor_irq = 170;
    ks->oor_active = true;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    ks_print(f, ks);
    fclose(f);
    assert_non_null(strstr(text, " kernel=master\n"));
    assert_non_null(strstr(text, "irqent 50 state=Signal active=1\n"));
    assert_non_null(strstr(text, "irq_oor irq=170 masked=0 acks=0 active=1\n"));
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, "rt", back, &err), 0);
    assert_true(ks_same(ks, back));
    free(text);
    /* base is the default and is not written */
    ks->cfg.kernel = KS_KERNEL_BASE;
    f = open_memstream(&text, &len);
    ks_print(f, ks);
    fclose(f);
    assert_null(strstr(text, "kernel="));
    free(text);
    static const char bad[] = "board imx8mm\nconfig kernel=next\n";
    assert_int_equal(scenario_parse(bad, sizeof bad - 1, "bad", back, &err), -1);
    assert_non_null(strstr(err.msg, "kernel"));
    free(back);
    free(ks);
}

/* The PR's fastpath masks every IRQ it handles (maskInterrupt(true, irq)
 * on all its exits, kept when rebased): on master GICv3 that diverges from
 * the slowpath in the mask (F9), and the masked signal IRQ breaks the exit
 * invariant (nothing on master GICv3 unmasks it). The corrected fastpath's
 * split_eoi leaves it unmasked and active there and agrees. On master
 * GICv2 both mask, as on base. (irquser also shows F6, timer_deadline,
 * under the proposal.) */
static void test_fastpath_by_gic(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    struct kstate *in = irquser("imx8mm", KS_KERNEL_MASTER);
    ks_copy(r->in, in);
    diff_run(r->in, FP_PR1227, true, &r->v, r->slow, r->fast);
    assert_true(r->v.fields & (1u << DF_IRQ_MASK));
    assert_true(r->v.fields & (1u << DF_INVARIANT));
    assert_false(r->v.fields & (1u << DF_IRQ_ACTIVE));
    assert_true(r->fast->irq_masked[PRESET_IRQ]);
    assert_true(r->fast->irq_active[PRESET_IRQ]);
    struct classify_ws *ws = malloc(sizeof *ws);
    assert_non_null(ws);
    assert_int_equal(classify_cause(r->in, ws), FIX(FIX_DEADLINE) | FIX(FIX_SPLIT_EOI));
    diff_run(r->in, FP_FIXED, true, &r->v, r->slow, r->fast);
    assert_true(r->v.agree);
    assert_false(r->fast->irq_masked[PRESET_IRQ]);
    assert_true(r->fast->irq_active[PRESET_IRQ]);
    free(in);
    in = irquser("odroidc4", KS_KERNEL_MASTER);
    ks_copy(r->in, in);
    diff_run(r->in, FP_PR1227, true, &r->v, r->slow, r->fast);
    assert_false(r->v.fields & (1u << DF_IRQ_MASK));
    assert_int_equal(classify_cause(r->in, ws), FIX(FIX_DEADLINE));
    diff_run(r->in, FP_FIXED, true, &r->v, r->slow, r->fast);
    assert_true(r->v.agree);
    assert_true(r->fast->irq_masked[PRESET_IRQ]);
    assert_false(r->fast->irq_active[PRESET_IRQ]);
    free(ws);
    free(in);
    tc_run_free(r);
}

/* Generated master states pass the checker at entry, and on GICv3 boards
 * some hold active IRQs (signals not yet acked by their handler); base
 * states never do. */
static void test_generator(void **state)
{
    (void)state;
    struct gen_bounds b;
    gen_bounds_default(&b);
    struct kstate *ks = tc_state();
    int active[KS_KERNEL_COUNT] = {0}, boards_seen = 0;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        b.kernel = k;
        for (uint64_t seed = 1; seed <= 400; seed++) {
            struct gen_src src;
            gen_src_seed(&src, seed);
            assert_int_equal(gen_state(ks, &src, &b), 0);
            assert_int_equal(ks->cfg.kernel, k);
            tc_assert_valid(ks, INV_AT_ENTRY);
            for (int i = 0; i < ks->n_irqs; i++)
                active[k] += ks->irq_active[i];
            /* the idle SC as each kernel's boot configures it: 5 ms on
             * base, MAX_PERIOD_TICKS on master (3d449dba1) */
            ticks_t idle_budget = k == KS_KERNEL_MASTER ? cfg_max_period_ticks(&ks->cfg)
                                                        : cfg_us_to_ticks(&ks->cfg, 5000);
            assert_int_equal(ks->scs[ks->idle_sc].budget, idle_budget);
            assert_int_equal(ks->scs[ks->idle_sc].refills[ks->scs[ks->idle_sc].head].amount, idle_budget);
            boards_seen += strncmp(ks->cfg.board, "qemu", 4) == 0;
        }
    }
    assert_int_equal(active[KS_KERNEL_BASE], 0);
    assert_true(active[KS_KERNEL_MASTER] > 0);
    assert_true(boards_seen > 0); /* master draws the qemu presets too */
    b.kernel = KS_KERNEL_COUNT;
    assert_non_null(gen_bounds_check(&b));
    free(ks);
}


/* ---- master's reply references and FPU ownership (docs/model.md rows 5,
 * 8, 10, 11, 12) ---- */

/* A handler blocked receiving on an endpoint with reply r0, bound to the
 * IRQ's notification (idle); a spinner at 253 runs. */
static struct kstate *bound_receiver(const char *board, int kernel)
{
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, board), 0);
    ks->cfg.kernel = (uint8_t)kernel;
    ks->cur_time = PRESET_T0;
    ks->hw_clock = PRESET_T0 + 100;
    ticks_t slice = cfg_us_to_ticks(&ks->cfg, 5000);
    int spin = build_thread(ks, "spinner", 253, 0);
    build_sc(ks, "sc_spin", spin, slice, 0, 0);
    int h = build_thread(ks, "handler", 254, 0);
    build_sc(ks, "sc_handler", h, slice, 0, 0);
    int n = build_ntfn(ks, "irq_ntfn");
    int e = build_ep(ks, "ep");
    int r = ks_add_reply(ks, "r0");
    build_recv_ep(ks, h, e, r);
    build_bind_ntfn(ks, h, n);
    build_irq_signal(ks, PRESET_IRQ, n, 1, true);
    ks->active_irq = PRESET_IRQ;
    build_run(ks, spin);
    ks->tcbs[spin].fpu_live = kernel == KS_KERNEL_MASTER;
    build_deadline(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);
    return ks;
}

/* The signal cancels the bound receiver's receive (sendSignal, Idle with
 * a bound TCB BlockedOnReceive: cancelIPC, endpoint.c:361-367, then
 * reply_unlink). Base clears the thread's replyObject (reply.h:20); master
 * leaves it stale (reply.h:14-27); both clear replyTCB. The PR's fastpath
 * (cancelIPC_fp calls the same reply_unlink) leaves it as the slowpath. */
static void test_reply_stale(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        struct kstate *in = bound_receiver("odroidc4", k);
        int h = tc_tid(in, "handler");
        struct kstate *out = slow_of(in);
        tc_assert_valid(out, INV_AT_EXIT);
        assert_int_equal(out->cur_thread, h);
        assert_int_equal(out->replies[0].tcb, KS_NONE);
        assert_int_equal(out->tcbs[h].reply, k == KS_KERNEL_MASTER ? 0 : KS_NONE);
        struct tc_run *r = tc_run_new();
        ks_copy(r->in, in);
        diff_run(r->in, FP_FIXED, true, &r->v, r->slow, r->fast);
        assert_true(r->v.agree);
        assert_int_equal(r->fast->tcbs[h].reply, out->tcbs[h].reply);
        tc_run_free(r);
        free(out);
        free(in);
    }
}

/* The reply rule, one definition for the model, the invariants and the
 * generators: the kernel reads replyObject blocked receiving or on a reply
 * (master reply.h:14-27 asserts one of them); elsewhere base has cleared
 * it (reply.h:20, reply.c:26), so a reference there is live (must match the
 * reply), and master leaves it stale (4f4721706), so it is not. */
static void test_reply_rule(void **state)
{
    (void)state;
    struct ks_config base, master;
    assert_int_equal(cfg_preset(&base, "imx8mm"), 0);
    master = base;
    cfg_set_kernel(&master, KS_KERNEL_MASTER);
    for (int ts = 0; ts < TS_COUNT; ts++) {
        bool read = ts == TS_BlockedOnReceive || ts == TS_BlockedOnReply;
        assert_int_equal(reply_ref_state(ts), read);
        assert_true(reply_ref_live(&base, ts));
        assert_int_equal(reply_ref_live(&master, ts), read);
    }
}

/* reply_unlink on master asserts that the thread is blocked receiving or
 * on a reply; base does not. reply_push on master leaves the callee's
 * reference (reply.c:9-33); base clears it (reply.c:26). */
static void test_reply_unlink_push(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        struct kstate *ks = bound_receiver("imx8mm", k);
        int h = tc_tid(ks, "handler"), spin = tc_tid(ks, "spinner");
        ks->tcbs[h].state = TS_Running; /* linked, but not blocked */
        reply_unlink(ks, 0, h);
        assert_int_equal(tc_has_assert(ks, A_REPLY_UNLINK_STATE), k == KS_KERNEL_MASTER);
        assert_false(tc_has_assert(ks, A_REPLY_UNLINK));
        assert_int_equal(ks->tcbs[h].state, TS_Inactive);
        /* the handler (callee) holds r0 stale on master; the spinner calls */
        ks->tcbs[h].reply = 0;
        reply_push(ks, spin, h, 0, false);
        assert_int_equal(ks->tcbs[h].reply, k == KS_KERNEL_MASTER ? 0 : KS_NONE);
        assert_int_equal(ks->tcbs[spin].reply, 0);
        assert_int_equal(ks->tcbs[spin].state, TS_BlockedOnReply);
        assert_int_equal(ks->replies[0].tcb, spin);
        /* blocked on the reply: unlinked without an assertion */
        int before = ks->n_asserts;
        reply_unlink(ks, 0, spin);
        assert_int_equal(ks->n_asserts, before);
        assert_int_equal(ks->tcbs[spin].state, TS_Inactive);
        free(ks);
    }
}

/* cancelIPC of a sender on master does not touch its (stale) reply
 * reference (endpoint.c:361-367 unlinks only for BlockedOnReceive). */
static void test_cancel_sender_stale(void **state)
{
    (void)state;
    struct kstate *ks = bound_receiver("imx8mm", KS_KERNEL_MASTER);
    int h = tc_tid(ks, "handler");
    ks->tcbs[h].state = TS_BlockedOnSend; /* same endpoint queue, now sending */
    ks->eps[0].state = EP_Send;
    cancelIPC(ks, h);
    tc_assert_no_asserts(ks);
    assert_int_equal(ks->tcbs[h].state, TS_Inactive);
    assert_int_equal(ks->tcbs[h].reply, 0);
    assert_int_equal(ks->replies[0].tcb, h); /* not unlinked */
    assert_int_equal(ks->eps[0].state, EP_Idle);
    /* a stale reference is a reachable state on master only */
    ks->replies[0].tcb = KS_NONE;
    assert_int_equal(broken(ks, INV_AT_EXIT, INV_REPLY) + broken(ks, INV_AT_EXIT, INV_THREAD), 0);
    ks->cfg.kernel = KS_KERNEL_BASE;
    assert_int_equal(broken(ks, INV_AT_EXIT, INV_REPLY), 1);
    assert_int_equal(broken(ks, INV_AT_EXIT, INV_THREAD), 1);
    free(ks);
}

/* Master: the thread switched to becomes its core's FPU owner, on the
 * slowpath (switchToThread, thread.c:477) and on the fastpath's direct
 * switch (switchToThread_fp, fastpath.h:45-47); a thread of the other
 * core keeps its own core's FPU. Base and builds without an FPU move
 * nothing. */
static void test_fpu_switch(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        for (int fpu = 0; fpu < 2; fpu++) {
            struct kstate *in = irquser("imx8mm", k);
            int h = tc_tid(in, "handler"), spin = tc_tid(in, "spinner");
            in->cfg.fpu = fpu;
            in->tcbs[spin].fpu_live = fpu;
            bool moves = k == KS_KERNEL_MASTER && fpu;
            struct tc_run *r = tc_run_new();
            ks_copy(r->in, in);
            diff_run(r->in, FP_FIXED, true, &r->v, r->slow, r->fast);
            for (int p = 0; p < 2; p++) {
                const struct kstate *o = p ? r->fast : r->slow;
                assert_int_equal(o->cur_thread, h);
                assert_int_equal(o->tcbs[h].fpu_live, moves);
                assert_int_equal(o->tcbs[spin].fpu_live, fpu && !moves);
            }
            assert_false(r->v.fields & (1u << DF_FPU_OWNER));
            tc_run_free(r);
            free(in);
        }
    }
    /* two cores: the owner of core 1 stays */
    struct kstate *ks = irquser("imx8mm", KS_KERNEL_MASTER);
    ks->cfg.smp = true;
    build_core1(ks);
    int other = build_thread(ks, "other", 10, 0);
    ks->tcbs[other].affinity = 1;
    ks->tcbs[other].fpu_live = true;
    lazyFPURestore(ks, tc_tid(ks, "handler"));
    assert_true(ks->tcbs[other].fpu_live);
    assert_true(ks->tcbs[tc_tid(ks, "handler")].fpu_live);
    free(ks);
}

/* Master's prepareNextDomain (thread.c:317-324, 363-370) releases the
 * core's FPU before nextDomain; here the current thread has blocked and
 * the idle thread follows, so nothing takes the FPU after. */
static void test_fpu_domain_switch(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        for (int fpu = 0; fpu < 2; fpu++) {
            struct kstate *ks = irquser("imx8mm", k);
            int spin = tc_tid(ks, "spinner");
            ks->cfg.fpu = fpu;
            ks->tcbs[spin].fpu_live = fpu;
            ks->tcbs[spin].state = TS_Inactive;
            ks->domain_time = 0;
            ks->sched_action = KS_SA_CHOOSE;
            schedule(ks);
            assert_int_equal(ks->cur_thread, ks->idle_thread);
            assert_int_equal(ks->tcbs[spin].fpu_live, fpu && k == KS_KERNEL_BASE);
            free(ks);
        }
    }
}

/* TCB_SetFlags of thread t (a SysSend on its thread cap): the two words
 * clear and set, length words sent */
static void set_flags(struct kstate *ks, int t, unsigned clear, unsigned set, unsigned length)
{
    ks_sysin_clear(&ks->sys);
    ks->sys.entry = ENTRY_SIGNAL;
    ks->sys.cap = SCAP_TCB;
    ks->sys.ntfn = KS_NONE;
    ks->sys.tcb = (int8_t)t;
    ks->sys.flags_clear = (uint8_t)clear;
    ks->sys.flags_set = (uint8_t)set;
    ks->sys.length = (uint8_t)length;
    ks->active_irq = KS_IRQ_INVALID;
    struct ks_call c = ks_call_of_entry(ks);
    assert_int_equal(c.inv, CALL_TCB_SetFlags);
    ks->hw_clock = ks->cur_time + 1;
    handleSyscall(ks, &c);
}

/* master without one feature (a tree between: 78c3b11a0^ lacks the restore) */
static void without(struct kstate *ks, int feature)
{
    uint16_t bits = 0;
    for (int f = KF_NONE + 1; f < KF_COUNT; f++)
        if (cfg_has(&ks->cfg, f) && f != feature)
            bits |= (uint16_t)(1u << f);
    ks->cfg.features = bits;
}

/* TCB_SetFlags (master src/object/tcb.c:798-842): the running spinner
 * disables its own FPU (released, it keeps running: no reschedule) and
 * enables it again (restored at once, 78c3b11a0: no switchToThread
 * follows); a tree before that fix leaves it running without its FPU,
 * which the FPU rule reports. Another thread's flag is written without a
 * restore; a short message, base (no such label) and a build without an
 * FPU (the mask has no flag) change nothing. */
static void test_set_flags(void **state)
{
    (void)state;
    struct kstate *ks = irquser("imx8mm", KS_KERNEL_MASTER);
    int spin = tc_tid(ks, "spinner"), h = tc_tid(ks, "handler");
    set_flags(ks, spin, 0, 1, 2);
    assert_true(ks->tcbs[spin].fpu_disabled);
    assert_false(ks->tcbs[spin].fpu_live);
    assert_int_equal(ks->cur_thread, spin);
    assert_int_equal(ks->tcbs[spin].state, TS_Running);
    tc_assert_valid(ks, INV_AT_EXIT);
    set_flags(ks, spin, 1, 0, 2);
    assert_false(ks->tcbs[spin].fpu_disabled);
    assert_true(ks->tcbs[spin].fpu_live);
    tc_assert_valid(ks, INV_AT_EXIT);
    /* the handler (blocked) flagged and unflagged: no restore, not current */
    set_flags(ks, h, 0, 1, 2);
    assert_true(ks->tcbs[h].fpu_disabled);
    set_flags(ks, h, 1, 0, 2);
    assert_false(ks->tcbs[h].fpu_disabled);
    assert_false(ks->tcbs[h].fpu_live);
    assert_true(ks->tcbs[spin].fpu_live);
    free(ks);

    ks = irquser("imx8mm", KS_KERNEL_MASTER);
    without(ks, KF_FPU_RESTORE_AT_SET_FLAGS);
    set_flags(ks, spin, 0, 1, 2);
    set_flags(ks, spin, 1, 0, 2);
    assert_false(ks->tcbs[spin].fpu_disabled);
    assert_false(ks->tcbs[spin].fpu_live);
    struct inv_report r;
    int n = kstate_check(ks, INV_AT_EXIT, &r);
    assert_int_equal(n, 1);
    assert_int_equal(r.items[0].id, INV_SMP);
    assert_non_null(strstr(r.items[0].msg, "current thread spinner does not own the FPU"));
    free(ks);

    for (int k = 0; k < 3; k++) {
        ks = irquser("imx8mm", k == 0 ? KS_KERNEL_BASE : KS_KERNEL_MASTER);
        if (k == 2) {
            ks->cfg.fpu = false;
            ks->tcbs[spin].fpu_live = false;
        }
        struct kstate *before = tc_state();
        ks_copy(before, ks);
        set_flags(ks, spin, 0, 1, k == 1 ? 1 : 2); /* base: illegal; master: one word short; no FPU: masked */
        assert_false(ks->tcbs[spin].fpu_disabled);
        assert_int_equal(ks->tcbs[spin].fpu_live, before->tcbs[spin].fpu_live);
        assert_int_equal(ks->cur_thread, spin);
        free(before);
        free(ks);
    }
}

/* lazyFPURestore of a flagged thread (fpuDisabled): the FPU is disabled,
 * its owner stays (include/machine/fpu.h:30-38) */
static void test_switch_to_flagged(void **state)
{
    (void)state;
    struct kstate *ks = irquser("imx8mm", KS_KERNEL_MASTER);
    int spin = tc_tid(ks, "spinner"), h = tc_tid(ks, "handler");
    ks->tcbs[h].fpu_disabled = true;
    lazyFPURestore(ks, h);
    assert_true(ks->tcbs[spin].fpu_live);
    assert_false(ks->tcbs[h].fpu_live);
    free(ks);
}

/* migrateTCB: master returns at once when the core does not change
 * (c88c066a8, smp.c:15-17), so the thread keeps its FPU; a move releases
 * it (fpuRelease); base releases it either way. */
static void test_migrate_same_core(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        struct kstate *ks = irquser("imx8mm", k);
        ks->cfg.smp = true;
        int h = tc_tid(ks, "handler");
        ks->tcbs[h].fpu_live = true;
        migrateTCB(ks, h, 0);
        assert_int_equal(ks->tcbs[h].fpu_live, k == KS_KERNEL_MASTER);
        assert_int_equal(ks->tcbs[h].affinity, 0);
        ks->tcbs[h].fpu_live = true;
        migrateTCB(ks, h, 1);
        assert_false(ks->tcbs[h].fpu_live);
        assert_int_equal(ks->tcbs[h].affinity, 1);
        free(ks);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slowpath_by_gic),
        cmocka_unit_test(test_undelivered_stays_active),
        cmocka_unit_test(test_other_irqs_deactivated),
        cmocka_unit_test(test_gic_ops),
        cmocka_unit_test(test_user_ack),
        cmocka_unit_test(test_invariants),
        cmocka_unit_test(test_scenario_round_trip),
        cmocka_unit_test(test_fastpath_by_gic),
        cmocka_unit_test(test_generator),
        cmocka_unit_test(test_reply_stale),
        cmocka_unit_test(test_reply_rule),
        cmocka_unit_test(test_reply_unlink_push),
        cmocka_unit_test(test_cancel_sender_stale),
        cmocka_unit_test(test_fpu_switch),
        cmocka_unit_test(test_fpu_domain_switch),
        cmocka_unit_test(test_migrate_same_core),
        cmocka_unit_test(test_set_flags),
        cmocka_unit_test(test_switch_to_flagged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
