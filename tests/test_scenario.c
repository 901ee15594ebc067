/* test_scenario: the scenario parser reads back what ks_print writes, the
 * convenience forms give the raw forms' links, and every class of bad
 * input is rejected at the right line with the offending token named. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irq_slow.h"
#include "kassert.h"
#include "presets.h"
#include "print.h"
#include "invariant.h"
#include "scenario.h"
#include "target.h"

struct fx {
    struct kstate a, b;
};

static int setup(void **state)
{
    *state = calloc(1, sizeof(struct fx));
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    free(*state);
    return 0;
}

static char *print_state(const struct kstate *ks, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    ks_print(f, ks);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static int parse_str(const char *text, struct kstate *out, struct scen_error *e)
{
    int rc = scenario_parse(text, strlen(text), "t.scn", out, e);
    if (rc != 0)
        scen_error_print(stderr, e);
    return rc;
}

/* print(s), parse into t, require ks_same and the same text again; returns
 * the text so the caller can check that the feature under test is in it. */
static char *round_trip(const struct kstate *s, struct kstate *t)
{
    size_t len, len2;
    struct scen_error e;
    char *text = print_state(s, &len);
    int rc = scenario_parse(text, len, "rt.scn", t, &e);
    if (rc != 0 || !ks_same(s, t)) {
        scen_error_print(stderr, &e);
        fputs(text, stderr);
    }
    assert_int_equal(rc, 0);
    assert_true(ks_same(s, t));
    char *again = print_state(t, &len2);
    assert_string_equal(text, again);
    free(again);
    return text;
}

static void expect_error(const char *text, int line, const char *needle);

static void assert_has(const char *text, const char *needle)
{
    assert_non_null(text);
    if (strstr(text, needle))
        return;
    fputs(text, stderr);
    fail_msg("'%s' not found in the text above", needle);
}

static int tcb_named(const struct kstate *ks, const char *name)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (strcmp(ks->tcbs[i].name, name) == 0)
            return i;
    fail_msg("no tcb %s", name);
    return -1;
}

/* ---- hand-built states ---- */

/* sel4bench irquser: handler blocked on the IRQ notification, spinner running */
static void build_irquser(struct kstate *ks)
{
    assert_int_equal(ks_init(ks, "odroidc4"), 0);
    int sp = ks_add_tcb(ks, "spinner"), h = ks_add_tcb(ks, "handler");
    int ssc = ks_add_sc(ks, "sc_spin"), hsc = ks_add_sc(ks, "sc_handler");
    int n = ks_add_ntfn(ks, "irq_ntfn");
    ks->tcbs[sp].state = TS_Running;
    ks->tcbs[sp].prio = 253;
    ks->tcbs[sp].sc = (int8_t)ssc;
    ks->tcbs[h].state = TS_BlockedOnNotification;
    ks->tcbs[h].prio = 254;
    ks->tcbs[h].sc = (int8_t)hsc;
    ks->tcbs[h].blocking = (int8_t)n;
    ks->ntfns[n].state = NTFN_Waiting;
    ks->ntfns[n].q_head = ks->ntfns[n].q_tail = (int8_t)h;
    for (int s = ssc; s <= hsc; s++) {
        ks->scs[s].budget = 120000;
        ks->scs[s].refill_max = 2;
        ks->scs[s].tail = 1;
        ks->scs[s].refills[0].amount = 120000;
        ks->scs[s].tcb = (int8_t)(s == ssc ? sp : h);
    }
    ks->scs[ssc].refills[0].amount = 90000;
    ks->scs[ssc].refills[1].amount = 30000;
    ks_irq_touch(ks, 40);
    ks->irq_state[40] = IRQ_Signal;
    /* field by field: ks_same compares padding bytes too */
    ks->irq_cap[40].type = CAP_Notification;
    ks->irq_cap[40].can_send = true;
    ks->irq_cap[40].ntfn = (int8_t)n;
    ks->irq_cap[40].badge = 1;
    ks->active_irq = 40;
    ks->cur_thread = (int8_t)sp;
    ks->vspace = (int8_t)sp; /* the node line's default: what setVMRoot(spinner) installs */
    ks->cur_sc = (int8_t)ssc;
    ks->cur_time = 1000000;
    ks->hw_clock = 1024000;
    ks->deadline = 1089976;
}

static void odd_threads(struct kstate *ks)
{
    int a = ks_add_tcb(ks, "a"), b = ks_add_tcb(ks, "b"), c = ks_add_tcb(ks, "c");
    int d = ks_add_tcb(ks, "d"), g = ks_add_tcb(ks, "g");
    ks->tcbs[a].prio = ks->tcbs[b].prio = 10;
    ks->tcbs[a].domain = ks->tcbs[b].domain = 1;
    ks->tcbs[a].queued = ks->tcbs[b].queued = true;
    ks->tcbs[a].sched_next = (int8_t)b;
    ks->tcbs[b].sched_prev = (int8_t)a;
    ks->tcbs[c].prio = 200;
    ks->tcbs[c].affinity = 1;
    ks->tcbs[c].queued = true;
    ks->tcbs[d].affinity = 1;
    ks->tcbs[d].in_release = true;
    ks->release_head[1] = (int8_t)d;
    struct ks_tcb *t = &ks->tcbs[g];
    t->fault = FAULT_Timeout;
    t->lookup_fault = LKF_STALE; /* a real kernel's outcome (the bridge's hk_lookup_h) */
    t->timeout_handler = t->fpu_live = true;
    t->vtable_ok = t->asid_ok = t->vmid_ok = false;
    t->badge_reg = 0xdeadbeefull;
    ks->sched_action = (int16_t)a;
}

static void odd_ipc(struct kstate *ks)
{
    int e = ks_add_tcb(ks, "e"), f = ks_add_tcb(ks, "f"), f2 = ks_add_tcb(ks, "f2");
    int ep = ks_add_ep(ks, "ep"), ep2 = ks_add_ep(ks, "ep2"), r = ks_add_reply(ks, "r");
    ks_add_reply(ks, "r_unused");
    ks->tcbs[e].state = TS_BlockedOnReceive;
    ks->tcbs[e].blocking = (int8_t)ep;
    ks->tcbs[e].reply = (int8_t)r;
    ks->replies[r].tcb = (int8_t)e;
    ks->eps[ep].state = EP_Recv;
    ks->eps[ep].q_head = ks->eps[ep].q_tail = (int8_t)e;
    ks->tcbs[f].state = ks->tcbs[f2].state = TS_BlockedOnSend;
    ks->tcbs[f].blocking = ks->tcbs[f2].blocking = (int8_t)ep2;
    ks->tcbs[f].ep_next = (int8_t)f2;
    ks->tcbs[f2].ep_prev = (int8_t)f;
    ks->eps[ep2].state = EP_Send;
    ks->eps[ep2].q_head = (int8_t)f;
    ks->eps[ep2].q_tail = (int8_t)f2;
}

static void odd_scs(struct kstate *ks)
{
    int s = ks_add_sc(ks, "spor"), u = ks_add_sc(ks, "unconf");
    int n = ks_add_ntfn(ks, "n"), n2 = ks_add_ntfn(ks, "n2");
    struct ks_sc *sc = &ks->scs[s];
    sc->period = 1000000;
    sc->budget = 250000;
    sc->refill_max = 4;
    sc->head = 2;
    sc->tail = 3;
    sc->sporadic = true;
    sc->core = 1;
    sc->consumed = 77;
    sc->badge = 5;
    for (int r = 0; r < 4; r++) {
        sc->refills[r].time = 1000u * (unsigned)r;
        sc->refills[r].amount = 100u + (unsigned)r;
    }
    sc->refills[10].time = 12345; /* stale slot past refill_max */
    sc->ntfn = (int8_t)n;
    ks->ntfns[n].sc = (int8_t)s;
    ks->ntfns[n].state = NTFN_Active;
    ks->ntfns[n].msg_id = UINT64_MAX;
    int g = tcb_named(ks, "g");
    ks->ntfns[n2].bound_tcb = (int8_t)g;
    ks->tcbs[g].bound_ntfn = (int8_t)n2;
    ks->tcbs[g].sc = (int8_t)u;
    ks->scs[u].tcb = (int8_t)g;
}

static void odd_node(struct kstate *ks)
{
    int c1 = ks_add_tcb(ks, "c1cur"), i1 = ks_add_tcb(ks, "idle1");
    ks->tcbs[c1].affinity = ks->tcbs[i1].affinity = 1;
    ks->tcbs[i1].state = TS_IdleThreadState;
    ks->core_cur[1] = (int8_t)c1;
    ks->core_idle[1] = (int8_t)i1;
    ks->core_reprogram[1] = true;
    ks->ipi_pending = 2;
    ks->core_ipi_pending[1] = 1; /* core 1 owes core 0 a reschedule IPI */
    ks->core_ppi_masked[1] = 1u << 16; /* core 1's own PPIs */
    ks->core_ppi_active[1] = 1u << 19;
    ks->ipi_sent = 3;
    ks->reprogram = true;
    ks->consumed = 4242;
    ks->deadline = 0;
    ks->hw_clock = UINT64_MAX;
    ks->cur_domain = 1;
    ks->domain_time = 123;
    ks->dom_idx = 2;
    ks->dom_len = 3;
    ks->dom_sched[0] = dschedule_make(0, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000)); /* zcu106's timer */
    ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, (uint64_t)10 * 1000));
    ks->dom_sched[2] = dschedule_make(3, cfg_us_to_ticks(&ks->cfg, (uint64_t)1 * 1000));
    ks->tcbs[0].fpu_live = true;
    ks->scs[0].budget = 1;
}

static void odd_irqs_bitmaps_asserts(struct kstate *ks)
{
    ks_irq_touch(ks, 999);
    ks->irq_state[27] = IRQ_Timer;
    ks->irq_masked[27] = true;
    ks->irq_state[5] = IRQ_IPI;
    ks->irq_acks[5] = 3;
    ks->irq_state[999] = IRQ_Reserved;
    ks->irq_cap[100].type = CAP_Endpoint;
    ks->irq_cap[100].badge = 7;
    ks->irq_cap[200].can_send = true;
    ks->active_irq = 999;
    /* (0,1) holds a and b at prio 10: say l1 bit 2 instead; (1,0) holds c
     * but is left empty; (1,3) holds nothing but has bits */
    ks->l1[0][1] = 1u << 2;
    ks->l2[0][1][3] = 1u << 10;
    ks->l1[1][3] = 0x8;
    ks->l2[1][3][0] = 1ull << 63;
    ks->path = PATH_SLOW;
    ks_check(ks, false, A_CHARGE_RR_SIZE);
    ks->path = PATH_FAST;
    ks_check(ks, false, A_FP_DEST);
    ks->path = PATH_NORM;
    ks_check(ks, false, A_MODEL_INDEX);
    ks->path = PATH_NONE;
    ks_check(ks, false, A_NONE);
}

static void build_odd(struct kstate *ks)
{
    assert_int_equal(ks_init(ks, "zcu106"), 0);
    ks->cfg.hyp = true; /* not SMP: the odd state has domains (config.cmake) */
    ks->cfg.fpu = false;
    ks->cfg.num_domains = 4;
    ks->cfg.wcet_us = 20;
    ks->cfg.timer_hz = 50000000;
    cfg_derive(&ks->cfg);
    odd_threads(ks);
    odd_ipc(ks);
    odd_scs(ks);
    odd_node(ks);
    odd_irqs_bitmaps_asserts(ks);
}

/* ---- round trips ---- */

static void rt_fresh(void **state)
{
    struct fx *x = *state;
    for (int i = 0; cfg_preset_name(i); i++) {
        assert_int_equal(ks_init(&x->a, cfg_preset_name(i)), 0);
        char *text = round_trip(&x->a, &x->b);
        assert_has(text, cfg_preset_name(i));
        free(text);
    }
}

static void rt_irquser(void **state)
{
    struct fx *x = *state;
    build_irquser(&x->a);
    char *text = round_trip(&x->a, &x->b);
    assert_has(text, "irqent 40 state=Signal cap=notification ntfn=irq_ntfn badge=1 send=1");
    assert_has(text, "refills=0:90000,0:30000");
    assert_int_equal(x->b.tcbs[2].blocking, 0);
    assert_int_equal(x->b.cur_thread, 1);
    free(text);
}

static void rt_odd(void **state)
{
    struct fx *x = *state;
    build_odd(&x->a);
    char *text = round_trip(&x->a, &x->b);
    assert_has(text, "smp=0 fpu=0 hyp=1");
    assert_has(text, "core 1 cur=c1cur idle=idle1 reprogram=1 ipi_pending=1 ppi_masked=0x10000 ppi_active=0x80000 "
                     "release_head=d");
    assert_has(text, "ipi pending=2 sent=3");
    assert_has(text, " fault=timeout lookup_fault=stale ");
    for (int i = 0; i < x->a.n_tcbs; i++)
        assert_int_equal(x->b.tcbs[i].lookup_fault, x->a.tcbs[i].lookup_fault);
    assert_int_equal(x->b.core_ipi_pending[1], 1);
    assert_int_equal(x->b.core_ppi_masked[1], 1u << 16);
    assert_int_equal(x->b.core_ppi_active[1], 1u << 19);
    assert_has(text, "bitmap core=0 dom=1 l1=0x4 l2=0,0,0,0x400");
    assert_has(text, "bitmap core=1 dom=0 l1=0 l2=0,0,0,0");
    assert_has(text, "bitmap core=1 dom=3 l1=0x8 l2=0x8000000000000000,0,0,0");
    char line[64];
    snprintf(line, sizeof line, "assert %d path=normalisation\n", A_MODEL_INDEX);
    assert_has(text, line);
    assert_has(text, "assert 0 path=-");
    assert_has(text, "vtable=0 asid=0 vmid=0 fpu_live=1 badge=3735928559");
    assert_has(text, ",0:0,0:0,0:0,0:0,0:0,12345:0\n");
    assert_has(text, "action=a ");
    assert_has(text, "schedule=0:10,1:10,3:1");
    assert_int_equal(x->b.n_asserts, 4);
    assert_int_equal(x->b.asserts[1].id, A_FP_DEST);
    assert_int_equal(x->b.asserts[1].path, PATH_FAST);
    free(text);
}

/* A woken thread keeps the stale blockingObject (the slowpath's
 * setThreadState changes only the type): in irquser the handler leaves
 * irq_ntfn (notification 0) and there is no endpoint, so the stale object
 * names no endpoint. It is written as stale:N and reads back; a blocked
 * thread may not use that form, and N must name an object of some kind. */
static void rt_stale_blocking(void **state)
{
    struct fx *x = *state;
    assert_int_equal(preset_irquser(&x->a, "imx8mm"), 0);
    handleInterruptEntry(&x->a);
    int h = tcb_named(&x->a, "handler");
    assert_int_equal(x->a.tcbs[h].state, TS_Running);
    assert_int_equal(x->a.tcbs[h].blocking, 0);
    assert_int_equal(x->a.n_eps, 0);
    char *text = round_trip(&x->a, &x->b);
    assert_has(text, "tcb handler state=Running prio=254 sc=sc_handler blocking=stale:0 ");
    assert_null(strstr(text, "blocking=?"));
    free(text);
    expect_error("board tx1\nnode\nntfn n\ntcb t state=BlockedOnNotification blocking=stale:0\n", 4,
                 "stale:N only for a thread not blocked");
    expect_error("board tx1\nnode\nntfn n\ntcb t state=Running blocking=stale:1\n", 4, "out of range (0..0)");
    expect_error("board tx1\nnode\ntcb t state=Running blocking=stale:0\n", 3, "no notification or endpoint");
}

/* idle thread and SC at ks_add_* defaults: their lines must reset, not
 * keep ks_init's values; node fields all "-", action choose */
static void rt_idle_defaults(void **state)
{
    struct fx *x = *state;
    struct kstate *ks = &x->a;
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    ks->tcbs[0].state = TS_Inactive;
    ks->tcbs[0].sc = KS_NONE;
    memset(&ks->scs[0].refills, 0, sizeof ks->scs[0].refills);
    ks->scs[0].tcb = KS_NONE;
    ks->scs[0].refill_max = ks->scs[0].tail = 0;
    ks->scs[0].budget = 0;
    ks->cur_thread = ks->idle_thread = KS_NONE;
    ks->cur_sc = ks->idle_sc = KS_NONE;
    ks->sched_action = KS_SA_CHOOSE;
    char *text = round_trip(ks, &x->b);
    assert_has(text, "tcb idle state=Inactive prio=0\n");
    assert_has(text, "sc idle_sc period=0 budget=0 max=0 head=0 tail=0\n");
    assert_has(text, "node cur=- cur_sc=- idle=- idle_sc=- action=choose");
    free(text);
}

static void rt_full(void **state)
{
    struct fx *x = *state;
    struct kstate *ks = &x->a;
    assert_int_equal(ks_init(ks, "tqma"), 0);
    while (ks_add_tcb(ks, NULL) != KS_NONE)
        ;
    for (int i = 1; i < KS_MAX_SCS; i++) {
        char name[16];
        snprintf(name, sizeof name, "sc.%08d", i);
        assert_int_not_equal(ks_add_sc(ks, name), KS_NONE);
    }
    while (ks_add_ntfn(ks, NULL) != KS_NONE)
        ;
    while (ks_add_ep(ks, NULL) != KS_NONE)
        ;
    for (int i = 0; i < KS_MAX_REPLIES; i++) {
        char name[KS_NAME_LEN + 8];
        snprintf(name, sizeof name, "R-_.%07dxyz", i); /* cut to 11 characters */
        assert_int_not_equal(ks_add_reply(ks, name), KS_NONE);
    }
    ks_irq_touch(ks, KS_MAX_IRQS - 1);
    ks->irq_masked[KS_MAX_IRQS - 1] = true;
    for (int i = 0; i < KS_MAX_ASSERTS; i++)
        ks_check(ks, false, A_COUNT - 1 - i);
    ks->tcbs[KS_MAX_TCBS - 1].prio = 255;
    ks->tcbs[KS_MAX_TCBS - 1].queued = true;
    ks->l1[0][0] = 1u << 3;
    ks->l2[0][0][0] = 1ull << 63;
    char *text = round_trip(ks, &x->b);
    assert_null(strstr(text, "bitmap")); /* agrees with the queues: derived */
    assert_has(text, "tcb t63 ");
    assert_has(text, "sc sc.00000063 ");
    assert_has(text, "irqs 1024\nirqent 1023 state=Inactive masked=1\n");
    assert_int_equal(x->b.n_replies, KS_MAX_REPLIES);
    assert_string_equal(x->b.replies[15].name, "R-_.0000015");
    assert_int_equal(x->b.l2[0][0][0], 1ull << 63);
    free(text);
}

/* ---- hand-written text ---- */

static const char doc_example[] =
    "# sel4bench irquser: a handler waits on IRQ 40's notification while a spinner runs\n"
    "board odroidc4\n"
    "clock 1024000\n"
    "irq 40\n"
    "node cur=spinner cur_sc=sc_spin action=resume time=1000000 deadline=1089976\n"
    "tcb spinner state=Running prio=253 sc=sc_spin\n"
    "tcb handler state=BlockedOnNotification prio=254 sc=sc_handler blocking=irq_ntfn\n"
    "sc sc_spin period=0 budget=120000 max=2 head=0 tail=1 tcb=spinner refills=0:90000,0:30000\n"
    "sc sc_handler period=0 budget=120000 max=2 head=0 tail=1 tcb=handler refills=0:120000\n"
    "ntfn irq_ntfn state=Waiting queue=handler   # the handler is the only waiter\n"
    "irqent 40 state=Signal cap=notification ntfn=irq_ntfn badge=1 send=1\n";

/* the doc's example is the irquser state, defaults filled in */
static void doc_example_is_irquser(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    build_irquser(&x->a);
    assert_int_equal(parse_str(doc_example, &x->b, &e), 0);
    assert_true(ks_same(&x->a, &x->b));
}

static void comments_blank_crlf_hex(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    const char *a = "board tx1\nnode action=choose\ntcb w prio=0x1f badge=0XfF\n";
    const char *b = "# header\r\n\r\n\tboard  tx1 # trailing\r\n"
                    "node\taction=choose#glued comment\r\n"
                    "   \n# tcb w prio=3\ntcb w prio=31 badge=255 #\n";
    assert_int_equal(parse_str(a, &x->a, &e), 0);
    assert_int_equal(parse_str(b, &x->b, &e), 0);
    assert_true(ks_same(&x->a, &x->b));
    assert_int_equal(x->b.tcbs[1].prio, 31);
    assert_int_equal(x->b.tcbs[1].badge_reg, 255);
    assert_int_equal(x->b.sched_action, KS_SA_CHOOSE);
}

/* len bounds the text: what follows is not read */
static void text_not_nul_terminated(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    const char text[] = "board tx1\nnode\nthis is not a scenario line";
    size_t len = strlen("board tx1\nnode\n");
    assert_int_equal(scenario_parse(text, len, "n", &x->a, &e), 0);
    assert_int_equal(x->a.n_tcbs, 1);
    assert_int_equal(scenario_parse(text, len + 4, "n", &x->a, &e), -1);
    assert_int_equal(e.line, 3);
}

/* a later line without the idle thread keeps ks_init's idle thread; a
 * `tcb idle` line anywhere updates tcb 0 instead of adding one */
static void idle_line_updates_tcb0(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    assert_int_equal(parse_str("board tx1\nnode\ntcb w\ntcb idle prio=3\n", &x->a, &e), 0);
    assert_int_equal(x->a.n_tcbs, 2);
    assert_string_equal(x->a.tcbs[0].name, "idle");
    assert_int_equal(x->a.tcbs[0].prio, 3);
    assert_int_equal(x->a.tcbs[0].state, TS_Inactive);
    assert_int_equal(x->a.tcbs[0].sc, KS_NONE);
    assert_int_equal(parse_str("board tx1\nnode\ntcb w\n", &x->b, &e), 0);
    assert_int_equal(x->b.tcbs[0].state, TS_IdleThreadState);
    assert_int_equal(x->b.tcbs[0].sc, 0);
    assert_int_equal(x->b.scs[0].tcb, 0);
}

/* node names forward; core 0's entries of core_cur/core_idle stay unused */
static void node_fields_forward(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    assert_int_equal(parse_str("board tx1\nnode cur=w idle=w2 cur_sc=s\ntcb w\ntcb w2\nsc s\n", &x->a, &e), 0);
    assert_int_equal(x->a.cur_thread, 1);
    assert_int_equal(x->a.idle_thread, 2);
    assert_int_equal(x->a.cur_sc, 1);
    assert_int_equal(x->a.core_cur[0], KS_NONE);
    assert_int_equal(x->a.core_idle[0], KS_NONE);
}

/* ---- convenience forms ---- */

static void same_texts(struct fx *x, const char *raw, const char *conv)
{
    struct scen_error e;
    assert_int_equal(parse_str(raw, &x->a, &e), 0);
    assert_int_equal(parse_str(conv, &x->b, &e), 0);
    assert_true(ks_same(&x->a, &x->b));
}

static void conv_ntfn_queue(void **state)
{
    struct fx *x = *state;
    same_texts(x,
               "board tx1\nnode\n"
               "tcb a state=BlockedOnNotification prio=5 blocking=n ep_next=b\n"
               "tcb b state=BlockedOnNotification prio=5 blocking=n ep_prev=a ep_next=c\n"
               "tcb c state=BlockedOnNotification prio=5 blocking=n ep_prev=b\n"
               "ntfn n state=Waiting head=a tail=c\n",
               "board tx1\nnode\n"
               "ntfn n state=Waiting queue=a,b,c\n"
               "tcb a state=BlockedOnNotification prio=5 blocking=n\n"
               "tcb b state=BlockedOnNotification prio=5 blocking=n\n"
               "tcb c state=BlockedOnNotification prio=5 blocking=n\n");
    assert_int_equal(x->b.ntfns[0].q_head, 1);
    assert_int_equal(x->b.ntfns[0].q_tail, 3);
    assert_int_equal(x->b.tcbs[2].ep_prev, 1);
    assert_int_equal(x->b.tcbs[2].ep_next, 3);
}

/* queue= overrides raw head/tail and links given anywhere */
static void conv_ep_queue_overrides_raw(void **state)
{
    struct fx *x = *state;
    same_texts(x,
               "board tx1\nnode\nep e state=Send head=p tail=q\n"
               "tcb p state=BlockedOnSend blocking=e ep_next=q\n"
               "tcb q state=BlockedOnSend blocking=e ep_prev=p\n",
               "board tx1\nnode\nep e state=Send head=q tail=p queue=p,q\n"
               "tcb p state=BlockedOnSend blocking=e ep_prev=q\n"
               "tcb q state=BlockedOnSend blocking=e ep_next=p ep_prev=q\n");
    assert_int_equal(x->b.eps[0].q_head, 1);
    assert_int_equal(x->b.tcbs[1].ep_prev, KS_NONE);
}

static void conv_empty_queue(void **state)
{
    struct fx *x = *state;
    same_texts(x, "board tx1\nnode\nep e\ntcb p\n", "board tx1\nnode\nep e head=p tail=p queue=-\ntcb p\n");
    assert_int_equal(x->b.eps[0].q_head, KS_NONE);
}

static void conv_ready(void **state)
{
    struct fx *x = *state;
    same_texts(x,
               "board tx1\nnode\ntcb a prio=70 dom=2 core=1 queued=1 sched_next=b\n"
               "tcb b prio=70 dom=2 core=1 queued=1 sched_prev=a\n",
               "board tx1\nnode\nready core=1 dom=2 prio=70 queue=a,b\n"
               "tcb a prio=70 dom=2 core=1\ntcb b prio=70 dom=2 core=1\n");
    assert_true(x->b.tcbs[1].queued);
    assert_int_equal(x->b.tcbs[1].sched_next, 2);
    assert_int_equal(x->b.l1[1][2], 1u << 1);
    assert_int_equal(x->b.l2[1][2][KS_L2_SIZE - 2], 1u << 6);
}

static void conv_release(void **state)
{
    struct fx *x = *state;
    same_texts(x,
               "board tx1\nnode\ncore 1 release_head=a\ntcb a core=1 in_release=1 sched_next=b\n"
               "tcb b core=1 in_release=1 sched_prev=a\n",
               "board tx1\nnode\nrelease core=1 queue=a,b\ntcb a core=1\ntcb b core=1\n");
    assert_int_equal(x->b.release_head[1], 1);
    assert_true(x->b.tcbs[2].in_release);
}

/* ---- errors ---- */

static void expect_error(const char *text, int line, const char *needle)
{
    struct kstate *ks = malloc(sizeof *ks);
    struct scen_error e;
    assert_non_null(ks);
    int rc = scenario_parse(text, strlen(text), "bad.scn", ks, &e);
    free(ks);
    assert_int_equal(rc, -1);
    assert_string_equal(e.file, "bad.scn");
    if (e.line != line || !strstr(e.msg, needle))
        fail_msg("got line %d '%s', want line %d mentioning '%s'", e.line, e.msg, line, needle);
}

static void err_unknown_directive(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\n\n# ok\nthread t1 prio=3\n", 5, "'thread'");
}

static void err_unknown_key(void **state)
{
    /* core 0's PPIs are its IRQ table entries */
    expect_error("board tx1\nnode\ncore 0 ppi_active=1\n", 3, "core 0: ppi_active= is not allowed; core 0's is the irqent line's");
    (void)state;
    expect_error("board tx1\nnode\ntcb t prio=3 colour=red\n", 3, "colour");
    expect_error("board tx1\nnode colour=red\n", 2, "colour");
}

static void err_not_key_value(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb t prio\n", 3, "'prio'");
    expect_error("board tx1\nnode\ntcb t =3\n", 3, "'=3'");
}

static void err_duplicate_key(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb t prio=3 state=Running prio=4\n", 3, "'prio' given twice");
}

static void err_duplicate_name(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb worker\nsc worker\ntcb worker\n", 5, "duplicate tcb name 'worker'");
    expect_error("board tx1\nnode\ntcb idle\ntcb idle\n", 4, "'idle'");
}

static void err_undefined_reference(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb t sc=nosuch\n", 3, "nosuch");
    expect_error("board tx1\nnode cur=ghost\n", 2, "ghost");
    /* blocking= names an endpoint unless the thread waits on a notification */
    expect_error("board tx1\nnode\nntfn n\ntcb t state=BlockedOnReceive blocking=n\n", 4, "blocking=n");
    expect_error("board tx1\nnode\nready core=0 dom=0 prio=0 queue=idle,nobody\n", 3, "nobody");
    /* a reference to the right name of the wrong kind */
    expect_error("board tx1\nnode\ntcb t\nsc s tcb=t ntfn=t\n", 4, "ntfn=t");
}

static void err_bad_number(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb t prio=12x\n", 3, "'12x'");
    expect_error("board tx1\nnode\ntcb t prio=-1\n", 3, "'-1'");
    expect_error("board tx1\nclock 0x\nnode\n", 2, "'0x'");
    expect_error("board tx1\nnode\nsc s refills=1:2,3\n", 3, "'3'");
    expect_error("board tx1\nnode\nsc s refills=1:2,,3:4\n", 3, "''");
}

static void err_out_of_range(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb t prio=256\n", 3, "prio=256");
    expect_error("board tx1\nnode\ntcb t dom=16\n", 3, "dom=16");
    expect_error("board tx1\nnode\ntcb t core=2\n", 3, "core=2");
    expect_error("board tx1\nnode\ntcb t queued=2\n", 3, "queued=2");
    expect_error("board tx1\nnode\nsc s head=16\n", 3, "head=16");
    expect_error("board tx1\nnode\nsc s max=17\n", 3, "max=17");
    expect_error("board tx1\nclock 18446744073709551616\nnode\n", 2, "18446744073709551616");
    expect_error("board tx1\nnode\ndomain schedule=0:10,16:1\n", 3, "16");
    expect_error("board tx1\nnode\nirqent 3 acks=256\n", 3, "acks=256");
    expect_error("board tx1\nnode\ncore 2\n", 3, "number=2");
    char text[64];
    snprintf(text, sizeof text, "board tx1\nnode\nassert %d path=-\n", A_COUNT);
    char id[16];
    snprintf(id, sizeof id, "=%d", A_COUNT);
    expect_error(text, 3, id);
}

static void err_bad_enum(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb t state=Sleeping\n", 3, "Sleeping");
    expect_error("board tx1\nnode\ntcb t state=running\n", 3, "running");
    expect_error("board tx1\nnode\nirqent 3 cap=Notification\n", 3, "Notification");
    expect_error("board tx1\nnode\nassert 1 path=slow\n", 3, "slow");
}

static void err_missing_required(void **state)
{
    (void)state;
    expect_error("board tx1\nclock 5\ntcb t\n", 3, "'node'");
    expect_error("# nothing here\n", 1, "'board");
    expect_error("", 1, "'board");
    expect_error("clock 5\nboard tx1\n", 1, "'clock'");
    expect_error("board tx1\nnode\nbitmap dom=0 l1=1\n", 3, "core=");
    expect_error("board tx1\nnode\nready core=0 dom=0 queue=idle\n", 3, "prio=");
    expect_error("board tx1\nnode\nsc\n", 3, "sc: missing object name");
}

static void err_duplicate_line(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\nclock 1\nclock 2\n", 4, "'clock'");
    expect_error("board tx1\nnode\nnode\n", 3, "'node'");
    expect_error("board tx1\nboard tx1\nnode\n", 2, "'board'");
    expect_error("board tx1\nnode\ncore 1\ncore 1\n", 4, "core 1");
    expect_error("board tx1\nnode\nirqent 7\nirqent 7\n", 4, "irqent 7");
    expect_error("board tx1\nnode\nbitmap core=0 dom=3\nbitmap core=0 dom=3\n", 4, "dom=3");
}

static void err_unknown_board(void **state)
{
    (void)state;
    expect_error("board pc99\nnode\n", 1, "'pc99'");
    expect_error("board pc99\nnode\n", 1, "zcu106");
    expect_error("board\n", 1, "board NAME");
    /* a NUL byte does not end the token: "tx1\0x" is no board */
    struct kstate *ks = malloc(sizeof *ks);
    struct scen_error e;
    assert_non_null(ks);
    static const char text[] = "node\nboard tx1\0x\n";
    int rc = scenario_parse(text + 5, sizeof text - 6, "nul", ks, &e);
    free(ks);
    assert_int_equal(rc, -1);
    assert_int_equal(e.line, 1);
    assert_non_null(strstr(e.msg, "unknown board 'tx1"));
}

/* A board without a preset (a real kernel's platform: the reproducers of
 * `--real` runs on rockpro64, issue 21): its constants come from the
 * config line, it prints and reads back; without a config line it is
 * refused, at the board line, saying why. */
static void board_without_preset(void **state)
{
    struct fx *fx = *state;
    static const char text[] = "board rockpro64\n"
                               "config timer_hz=24000000 wcet_us=10 wcet_scale=1 precision_us=0 overhead_ticks=0 "
                               "domains=1 max_irq=181 gic=3 smp=0 fpu=1 hyp=0\n"
                               "clock 1000\nirq 37\nnode cur=idle cur_sc=idle_sc time=1000\n";
    struct scen_error e;
    assert_int_equal(parse_str(text, &fx->a, &e), 0);
    assert_string_equal(fx->a.cfg.board, "rockpro64");
    assert_int_equal(fx->a.cfg.timer_hz, 24000000);
    assert_int_equal(fx->a.cfg.max_irq, 181);
    free(round_trip(&fx->a, &fx->b));
    expect_error("board rockpro64\nnode\n", 1, "a board without a preset needs a config line");
    expect_error("board rock/pro\nnode\n", 1, "unknown board 'rock/pro'");
    expect_error("board a-board-name-too-long\nnode\n", 1, "unknown board");
}

static void err_name(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb abcdefghijkl\n", 3, "abcdefghijkl");
    expect_error("board tx1\nnode\nntfn a$b\n", 3, "a$b");
    expect_error("board tx1\nnode\nep -\n", 3, "'-'");
    expect_error("board tx1\nnode\ntcb resume\n", 3, "resume");
}

static void err_too_many_objects(void **state)
{
    (void)state;
    char text[2048] = "board tx1\nnode\n";
    for (int i = 1; i <= KS_MAX_TCBS; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "tcb w%d\n", i);
    /* idle is tcb 0, so w64 is the 65th */
    expect_error(text, 2 + KS_MAX_TCBS, "'w64'");
    expect_error("board tx1\nnode\nep a\nep b\nep c\nep d\nep e\nep f\nep g\nep h\nep i\n", 11, "'i'");
}

static void err_irq_range(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\nirqent 1024 state=Signal\n", 3, "1024");
    expect_error("board tx1\nirq 5000\nnode\n", 2, "5000");
    expect_error("board tx1\nirq -2\nnode\n", 2, "-2");
    expect_error("board tx1\nnode\nirqs 1025\n", 3, "1025");
}

static void err_refill_beyond_max(void **state)
{
    (void)state;
    char text[512] = "board tx1\nnode\nsc s refills=0:1";
    for (int i = 1; i <= KS_MAX_REFILLS; i++)
        strcat(text, ",0:1");
    strcat(text, "\n");
    expect_error(text, 3, "refills=");
    expect_error(text, 3, "16");
}

static void err_lists(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\nbitmap core=0 dom=0 l2=1,2,3\n", 3, "l2=");
    expect_error("board tx1\nnode\ndomain schedule=0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,0:1,"
                 "0:1\n",
                 3, "schedule=");
    expect_error("board tx1\nnode\ndomain schedule=\n", 3, "schedule");
    expect_error("board tx1\nnode\nsc s refills=5\n", 3, "'5'");
}

static void err_too_many_asserts(void **state)
{
    (void)state;
    char text[512] = "board tx1\nnode\n";
    for (int i = 0; i <= KS_MAX_ASSERTS; i++)
        strcat(text, "assert 3 path=slowpath\n");
    expect_error(text, 3 + KS_MAX_ASSERTS, "assert 3");
}

static void err_config(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\nconfig gic=4\n", 3, "GIC");
    /* would divide by zero in cfg_derive if not validated first */
    expect_error("board tx1\nconfig timer_hz=0\nnode\n", 2, "timer frequency");
    expect_error("board tx1\nconfig domains=4294967296\nnode\n", 2, "4294967296");
}

static void err_queues(void **state)
{
    (void)state;
    expect_error("board tx1\nnode\ntcb a prio=4\nready core=0 dom=0 prio=5 queue=a\n", 4, "'a'");
    expect_error("board tx1\nnode\ntcb a core=1 prio=5\nready core=0 dom=0 prio=5 queue=a\n", 4, "core=1");
    expect_error("board tx1\nnode\ntcb a\nntfn n queue=a,idle,a\n", 4, "'a'");
    expect_error("board tx1\nnode\ncore 0 cur=idle\n", 3, "cur=");
}

static void err_too_many_fields(void **state)
{
    (void)state;
    char text[1024] = "board tx1\nnode\ntcb t";
    for (int i = 0; i < 70; i++)
        strcat(text, " prio=1");
    expect_error(text, 3, "fields");
}

/* ---- files ---- */

static void load_file_and_stdin(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    char path[] = "/tmp/test_scenario_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(doc_example, f);
    fclose(f);
    assert_int_equal(scenario_load(path, &x->a, &e), 0);
    build_irquser(&x->b);
    assert_true(ks_same(&x->a, &x->b));
    assert_non_null(freopen(path, "r", stdin));
    memset(&x->a, 0, sizeof x->a);
    assert_int_equal(scenario_load("-", &x->a, &e), 0);
    assert_true(ks_same(&x->a, &x->b));
    unlink(path);
}

static void load_errors(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    assert_int_equal(scenario_load("/nonexistent/dir/x.scn", &x->a, &e), -1);
    assert_int_equal(e.line, 0);
    assert_string_equal(e.file, "/nonexistent/dir/x.scn");
    assert_non_null(strstr(e.msg, "cannot open"));
    /* a directory is refused as workload_load refuses it (infile.h) */
    assert_int_equal(scenario_load("/tmp", &x->a, &e), -1);
    assert_int_equal(e.line, 0);
    assert_non_null(strstr(e.msg, "not a regular file"));

    char path[] = "/tmp/test_scenario_big_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("board tx1\nnode\n", f);
    for (size_t i = 0; i < SCEN_MAX_FILE / 8; i++)
        fputs("#comment", f); /* 1 MiB + 15 bytes in all */
    fclose(f);
    assert_int_equal(scenario_load(path, &x->a, &e), -1);
    assert_int_equal(e.line, 0);
    assert_non_null(strstr(e.msg, "larger than 1048576 bytes"));
    unlink(path);
}

static void error_print_format(void **state)
{
    (void)state;
    struct kstate *ks = malloc(sizeof *ks);
    struct scen_error e;
    assert_non_null(ks);
    const char *text = "board tx1\nnode\ntcb t prio=300\n";
    assert_int_equal(scenario_parse(text, strlen(text), "my.scn", ks, &e), -1);
    free(ks);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    scen_error_print(f, &e);
    fclose(f);
    assert_string_equal(buf, "my.scn:3: tcb 't': prio=300 out of range (0..255)\n");
    free(buf);
}

/* A SysSend by the current thread: the line of the target whose keyword it
 * names (struct target_line; the signal target's: target_signal_entry.c).
 * The objects a line names may be declared after it. */
static const char syscall_base[] = "board tx1\n"
                                   "node cur=t cur_sc=sc action=resume time=1000 deadline=100000\n"
                                   "tcb t state=Running prio=10 sc=sc\n"
                                   "sc sc period=0 budget=50000 max=2 head=0 tail=1 tcb=t "
                                   "refills=1000:40000,41000:10000\n"
                                   "clock 1000\n";

static char *with_syscall(const char *line)
{
    size_t n = strlen(syscall_base) + strlen(line) + 16;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, "%s%sntfn n0\n", syscall_base, line);
    return text;
}

static void syscall_line_round_trip(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    char *text = with_syscall("syscall send cap=ntfn ntfn=n0 badge=7 extra_caps=2 extra_bad=2\n");
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    free(text);
    assert_int_equal(x->a.sys.entry, target_by_name("signal")->entry);
    assert_int_equal(x->a.sys.cap, SCAP_NTFN);
    assert_int_equal(x->a.sys.ntfn, 0);
    assert_int_equal(x->a.sys.badge, 7);
    assert_int_equal(x->a.sys.extra_caps, 2);
    assert_int_equal(x->a.sys.extra_bad, 2);
    char *out = round_trip(&x->a, &x->b);
    assert_non_null(strstr(out, "\nsyscall send cap=ntfn ntfn=n0 badge=7 extra_caps=2 extra_bad=2\n"));
    free(out);
    /* the required key is written whatever its value, the others only when
     * not 0 or a null reference */
    text = with_syscall("syscall send cap=lookup_fail\n");
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    free(text);
    out = round_trip(&x->a, &x->b);
    assert_non_null(strstr(out, "\nsyscall send cap=lookup_fail\n"));
    free(out);
    /* an IRQ handler cap's IRQ, in state Signal by a line after it: the
     * line's rule is checked once every line is read */
    text = with_syscall("syscall send cap=irq_set irq=40 ntfn=n0 badge=3 extra_caps=1\n"
                        "irqs 64\nirqent 40 state=Signal\n");
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    free(text);
    assert_int_equal(x->a.sys.cap, SCAP_IRQ_SET);
    assert_int_equal(x->a.sys.irq, 40);
    out = round_trip(&x->a, &x->b);
    assert_non_null(strstr(out, "\nsyscall send cap=irq_set ntfn=n0 badge=3 extra_caps=1 irq=40\n"));
    free(out);
    /* the IRQ control cap asks for any IRQ (one in use, or above maxIRQ,
     * is refused by the kernel, not the reader), into a destination slot */
    text = with_syscall("syscall send cap=irq_control irq=999 dest=bad length=3 extra_caps=1\n");
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    free(text);
    assert_int_equal(x->a.sys.dest, IRQD_BAD);
    out = round_trip(&x->a, &x->b);
    assert_non_null(strstr(out, "\nsyscall send cap=irq_control extra_caps=1 length=3 irq=999 dest=bad\n"));
    free(out);
    /* _GetTrigger: its label and trigger word, and the GIC configuration
     * of an IRQ (its trigger) on the irqent line; both round-trip */
    text = with_syscall("syscall send cap=irq_control irq=50 method=trigger trigger=1 length=4 extra_caps=1\n"
                        "irqs 64\nirqent 50 state=Inactive edge=1\n");
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    free(text);
    assert_int_equal(x->a.sys.irq_method, IRQM_TRIGGER);
    assert_int_equal(x->a.sys.trigger, 1);
    assert_int_equal(x->a.irq_cfg[50], KS_IRQ_EDGE);
    out = round_trip(&x->a, &x->b);
    assert_non_null(strstr(out, "\nsyscall send cap=irq_control extra_caps=1 length=4 irq=50 method=trigger trigger=1\n"));
    assert_non_null(strstr(out, "\nirqent 50 state=Inactive edge=1\n"));
    free(out);
    /* an interrupt entry has no syscall line */
    assert_int_equal(parse_str(syscall_base, &x->a, &e), 0);
    out = round_trip(&x->a, &x->b);
    assert_null(strstr(out, "syscall"));
    free(out);
}

static void err_syscall_line(void **state)
{
    (void)state;
    static const struct {
        const char *line, *needle;
    } cases[] = {
        {"syscall recv cap=ntfn\n", "expected 'syscall send cap=...' or 'syscall call cap=...' or 'syscall reply_recv cap=...'"},
        {"syscall\n", "expected 'syscall send cap=...' or 'syscall call cap=...' or 'syscall reply_recv cap=...'"},
        {"syscall call cap=ntfn\n", "syscall: cap=ntfn needs ntfn="},
        {"syscall call cap=ep\n", "syscall: cap=ep needs ep="},
        {"syscall call cap=null ep=e0\n", "refers to an undefined ep"},
        {"syscall call cap=null rights=1\n", "rights= is for cap=ep"},
        {"syscall send ntfn=n0\n", "missing required cap="},
        {"syscall send cap=ntfn\n", "syscall: cap=ntfn needs ntfn="},
        {"syscall send cap=ntfn_no_send\n", "syscall: cap=ntfn_no_send needs ntfn="},
        {"syscall send cap=null ntfn=n0\n", "cap=null names no notification"},
        {"syscall send cap=ntfn ntfn=n0 extra_caps=1 extra_bad=2\n", "extra_bad=0x2 names extra caps beyond extra_caps=1"},
        {"syscall send cap=ntfn ntfn=n0 extra_caps=4\n", "extra_caps=4 out of range"},
        {"syscall send cap=ep ntfn=n0\n", "cap kind ep is not one a send line takes"},
        {"syscall send cap=ntfn ntfn=n9\n", "refers to an undefined ntfn"},
        /* an IRQ handler cap exists only for an IRQ in state Signal */
        {"syscall send cap=irq_ack irq=40\n", "cap=irq_ack names IRQ 40, which is not in state Signal"},
        {"syscall send cap=irq_clear irq=40\nirqs 64\nirqent 40 state=Timer\n",
         "cap=irq_clear names IRQ 40, which is not in state Signal"},
        {"syscall send cap=ntfn ntfn=n0 irq=3\n", "irq= is for cap=irq_ack|irq_set|irq_clear"},
        {"syscall send cap=irq_set irq=40\nirqs 64\nirqent 40 state=Signal\n",
         "cap=irq_set needs ntfn= (extra cap 0's notification)"},
        {"syscall send cap=irq_ack irq=40 ntfn=n0\nirqs 64\nirqent 40 state=Signal\n", "cap=irq_ack names no notification"},
        {"syscall send cap=irq_ack irq=40 dest=full\nirqs 64\nirqent 40 state=Signal\n", "dest= is for cap=irq_control"},
        {"syscall send cap=irq_control irq=40 dest=nowhere\n", "unknown dest 'nowhere'"},
        /* another core's PPI: an ack, on two cores (board tx1 has one) */
        {"syscall send cap=irq_ack irq=19 irq_core=1\n", "irq_core= is for cap=irq_ack of a PPI (irq below 32) on two cores"},
        /* the IRQ control cap's labels and words */
        {"syscall send cap=irq_ack irq=40 method=trigger\nirqs 64\nirqent 40 state=Signal\n",
         "method= and trigger= are for cap=irq_control"},
        {"syscall send cap=irq_control irq=40 trigger=1\n", "trigger= is for method=trigger|trigger_core"},
        {"syscall send cap=irq_control irq=40 method=trigger_core\n", "method=trigger_core is a label of two-core builds only"},
        {"syscall send cap=irq_control irq=40 method=trigger irq_core=1\n",
         "irq_core= on cap=irq_control is method=trigger_core's target core"},
        {"syscall send cap=irq_control irq=40 method=gets\n", "unknown method 'gets'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = with_syscall(cases[i].line);
        expect_error(text, 6, cases[i].needle);
        free(text);
    }
    char *text = with_syscall("syscall send cap=null\nsyscall send cap=null\n");
    expect_error(text, 7, "syscall");
    free(text);
}

/* The invariant checker holds a state's inputs to the rule the reader
 * applies (the shrinker and the generators build states without reading
 * them): one rule, both places. */
static void syscall_inputs_checked(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    struct inv_report r;
    char *text = with_syscall("syscall send cap=ntfn ntfn=n0 badge=7\n");
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    free(text);
    assert_int_equal(kstate_check(&x->a, INV_AT_ENTRY, &r), 0);
    x->a.sys.cap = SCAP_NULL; /* a null cap that names a notification */
    assert_true(kstate_check(&x->a, INV_AT_ENTRY, &r) > 0);
    assert_true(inv_has(&r, INV_INDEX));
    assert_non_null(strstr(r.items[0].msg, "syscall: cap=null names no notification"));
    x->a.sys.cap = SCAP_NTFN;
    x->a.sys.ntfn = 3; /* past the state's notifications */
    assert_true(kstate_check(&x->a, INV_AT_ENTRY, &r) > 0);
    assert_non_null(strstr(r.items[0].msg, "syscall: cap=ntfn names notification 3 of 1"));
    x->a.sys.ntfn = 0;
    x->a.sys.extra_caps = 200; /* no shift past the word */
    assert_true(kstate_check(&x->a, INV_AT_ENTRY, &r) > 0);
    assert_non_null(strstr(r.items[0].msg, "beyond extra_caps=200 (at most 3)"));
    x->a.sys.extra_caps = 0;
    x->a.sys.cap = SCAP_EP;
    assert_true(kstate_check(&x->a, INV_AT_ENTRY, &r) > 0);
    assert_non_null(strstr(r.items[0].msg, "syscall: cap kind ep is not one a send line takes"));
}

/* A state carries its fastpath under check apart from its entry kind
 * (sys.target, the rank among the targets of that kind): the `target`
 * line names one, and only a state whose target is not its kind's first
 * needs it. */
static void target_line(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    struct inv_report r;
    for (int i = 0; target_at(i); i++) { /* rank and index agree with the registration */
        const struct target *t = target_at(i);
        assert_int_equal(target_index(t), i);
        assert_ptr_equal(target_get_rank(t->entry, target_rank(t)), t);
    }
    size_t n = strlen(syscall_base) + 32;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, "%starget irq\n", syscall_base);
    assert_int_equal(parse_str(text, &x->a, &e), 0);
    assert_ptr_equal(target_of(&x->a), target_by_name("irq"));
    assert_int_equal(x->a.sys.target, 0);
    char *out = round_trip(&x->a, &x->b);
    assert_null(strstr(out, "\ntarget ")); /* the kind's first: no line */
    free(out);
    snprintf(text, n, "%starget signal\n", syscall_base);
    expect_error(text, 6, "target: signal is an entry of kind signal, the state one of kind irq");
    snprintf(text, n, "%starget nope\n", syscall_base);
    expect_error(text, 6, "target: unknown target 'nope' (irq");
    snprintf(text, n, "%starget\n", syscall_base);
    expect_error(text, 6, "expected 'target NAME'");
    snprintf(text, n, "%starget irq\ntarget irq\n", syscall_base);
    expect_error(text, 7, "target");
    free(text);
    /* a rank no registered target has is refused by the checker */
    x->a.sys.target = 7;
    assert_true(kstate_check(&x->a, INV_AT_ENTRY, &r) > 0);
    assert_true(inv_has(&r, INV_INDEX));
    assert_non_null(strstr(r.items[0].msg, "entry kind irq has no fastpath under check of rank 7"));
}

/* A tree between base and master: the config line's features= (printed
 * only for a mask that is no version's row) reads back whole. */
static void config_features(void **state)
{
    struct fx *x = *state;
    struct scen_error e;
    assert_int_equal(parse_str("board tx1\nconfig timer_hz=8000000 wcet_us=10 wcet_scale=1 precision_us=0 "
                               "overhead_ticks=0 domains=1 max_irq=187 gic=2 smp=0 fpu=1 hyp=0 kernel=master "
                               "features=SPLIT_EOI+DOMAIN_SCHEDULE_RUNTIME\nnode\n",
                               &x->a, &e),
                     0);
    assert_false(cfg_has(&x->a.cfg, KF_STALE_REPLY_REF));
    assert_true(cfg_has(&x->a.cfg, KF_SPLIT_EOI));
    char *out = round_trip(&x->a, &x->b);
    assert_non_null(strstr(out, " kernel=master features=SPLIT_EOI+DOMAIN_SCHEDULE_RUNTIME\n"));
    free(out);
    /* master's own row is master: no features= written */
    assert_int_equal(parse_str("board tx1\nconfig timer_hz=8000000 wcet_us=10 wcet_scale=1 precision_us=0 "
                               "overhead_ticks=0 domains=1 max_irq=187 gic=2 smp=0 fpu=1 hyp=0 kernel=master "
                               "features=SPLIT_EOI+STALE_REPLY_REF+DOMAIN_SCHEDULE_RUNTIME+FPU_RELEASE_AT_DOMAIN_END+"
                               "FPU_OWNER_AT_SWITCH+MIGRATE_ONLY_WHEN_NEEDED+IDLE_SC_MAX_PERIOD+QEMU_GICV3+"
                               "VCPU_FAULT_SCHEDULABLE+VCPU_FLUSH_AT_DOMAIN_END+FPU_RELEASE_AT_SET_DOMAIN+"
                               "VCPU_FLUSH_AT_SET_DOMAIN+TCB_FLAGS+FPU_RESTORE_AT_SET_FLAGS+FAULT_LOOKUP_RECORDED\nnode\n",
                               &x->a, &e),
                     0);
    assert_int_equal(x->a.cfg.features, 0);
    out = round_trip(&x->a, &x->b);
    assert_null(strstr(out, "features="));
    free(out);
    expect_error("board tx1\nconfig timer_hz=8000000 wcet_us=10 wcet_scale=1 precision_us=0 overhead_ticks=0 "
                 "domains=1 max_irq=187 gic=2 smp=0 fpu=1 hyp=0 features=SPLIT_EOI+SOMETHING\nnode\n",
                 2, "config: features: unknown feature 'SOMETHING'");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(rt_fresh),
        T(rt_irquser),
        T(rt_odd),
        T(rt_idle_defaults),
        T(rt_stale_blocking),
        T(rt_full),
        T(doc_example_is_irquser),
        T(comments_blank_crlf_hex),
        T(text_not_nul_terminated),
        T(idle_line_updates_tcb0),
        T(node_fields_forward),
        T(conv_ntfn_queue),
        T(conv_ep_queue_overrides_raw),
        T(conv_empty_queue),
        T(conv_ready),
        T(conv_release),
        T(err_unknown_directive),
        T(err_unknown_key),
        T(err_not_key_value),
        T(err_duplicate_key),
        T(err_duplicate_name),
        T(err_undefined_reference),
        T(err_bad_number),
        T(err_out_of_range),
        T(err_bad_enum),
        T(err_missing_required),
        T(err_duplicate_line),
        T(err_unknown_board),
        T(board_without_preset),
        T(err_name),
        T(err_too_many_objects),
        T(err_irq_range),
        T(err_refill_beyond_max),
        T(err_lists),
        T(err_too_many_asserts),
        T(err_config),
        T(err_queues),
        T(err_too_many_fields),
        T(load_file_and_stdin),
        T(load_errors),
        T(error_print_format),
        T(syscall_line_round_trip),
        T(err_syscall_line),
        T(syscall_inputs_checked),
        T(target_line),
        T(config_features),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
