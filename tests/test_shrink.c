/*
 * Classification and shrinking: a divergence is named by the fixes that
 * remove it, and the shrinker makes a state smaller without changing that
 * name or leaving the kernel's reachable states.
 */
#include "tcommon.h"
#include "target.h"

#include "classify.h"
#include "gen.h"
#include "shrink.h"

static struct classify_ws *ws_new(void)
{
    struct classify_ws *ws = calloc(1, sizeof *ws);
    assert_non_null(ws);
    return ws;
}

/* irquser: only the timer deadline differs (FINDINGS F6), so the deadline
 * fix alone is the cause; the corrected fastpath agrees. */
static void test_cause_irquser(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    struct classify_ws *ws = ws_new();
    assert_int_equal(preset_irquser(r->in, "imx8mm"), 0);
    assert_int_equal(classify_cause(r->in, ws), FIX(FIX_DEADLINE));
    struct dclass cl;
    assert_true(classify_run(r->in, 0, ws, &cl, &r->v));
    assert_int_equal(cl.exit, FP_EXIT_SWITCH);
    assert_int_equal(cl.cause, FIX(FIX_DEADLINE));
    char name[160];
    assert_string_equal(dclass_name(&cl, name, sizeof name), "switch/deadline");
    assert_false(classify_run(r->in, FIX_ALL, ws, &cl, &r->v));
    free(ws);
    tc_run_free(r);
}

/* The current thread's budget is short at the entry clock (F1): the
 * proposal's enqueue exit skips checkBudget; reading the clock and falling
 * back are both needed. */
static void test_cause_budget(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    struct classify_ws *ws = ws_new();
    assert_int_equal(preset_noswitch(r->in, "imx8mm"), 0);
    struct kstate *ks = r->in;
    /* leave the spinner 100 ticks (< MIN_BUDGET 160) at the entry clock:
     * it has run 8000 ticks since T0, so its head holds 8100 */
    int sc = ks->cur_sc;
    ticks_t total = ks->scs[sc].budget;
    ks->scs[sc].refills[0].amount = 8100;
    ks->scs[sc].refills[1].amount = total - 8100;
    build_deadline(ks);
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_int_equal(classify_cause(ks, ws), FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_BUDGET));
    free(ws);
    tc_run_free(r);
}

/* Agreement has no cause to find. */
static void test_cause_agree(void **state)
{
    (void)state;
    struct tc_run *r = tc_run_new();
    struct classify_ws *ws = ws_new();
    assert_int_equal(preset_noswitch(r->in, "imx8mm"), 0);
    struct dclass cl;
    assert_false(classify_run(r->in, 0, ws, &cl, &r->v));
    assert_int_equal(cl.cause, 0);
    char buf[64];
    assert_string_equal(cause_text(&target_irq, CLASS_NO_FIX, buf, sizeof buf), "unexplained");
    assert_string_equal(cause_text(&target_irq, 0, buf, sizeof buf), "none");
    free(ws);
    tc_run_free(r);
}

/* irquser plus bystanders: threads that play no part, an endpoint, a
 * reply object, a notification, a second IRQ. Shrinking removes them all
 * and keeps the class; the result is a valid entry state. */
static void test_shrink_bystanders(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct shrink_ws *ws = calloc(1, sizeof *ws);
    assert_non_null(ws);
    assert_int_equal(preset_irquser(ks, "imx8mm"), 0);
    int idle_before = ks->n_tcbs;
    for (int i = 0; i < 3; i++) {
        int t = build_thread(ks, NULL, 10 + i, 0);
        build_sc(ks, NULL, t, 40000, 0, 0);
        build_ready(ks, t);
    }
    int ep = build_ep(ks, "ep");
    int waiter = build_thread(ks, "waiter", 7, 0);
    build_recv_ep(ks, waiter, ep, ks_add_reply(ks, "r"));
    build_ntfn(ks, "spare");
    build_irq_signal(ks, 33, 1, 4, true);
    ks->tcbs[tc_tid(ks, "handler")].fpu_live = true;
    tc_assert_valid(ks, INV_AT_ENTRY);
    int before = shrink_size(ks);
    assert_true(shrink_state(ks, 0, ws) > 0);
    tc_assert_valid(ks, INV_AT_ENTRY);
    assert_true(shrink_size(ks) < before);
    assert_int_equal(ks->n_tcbs, idle_before);
    assert_int_equal(ks->n_eps, 0);
    assert_int_equal(ks->n_replies, 0);
    assert_int_equal(ks->n_ntfns, 1);
    assert_false(ks->tcbs[tc_tid(ks, "handler")].fpu_live);
    struct dclass cl;
    struct diff_verdict v;
    assert_true(classify_run(ks, 0, &ws->cws, &cl, &v));
    assert_int_equal(cl.exit, FP_EXIT_SWITCH);
    assert_int_equal(cl.cause, FIX(FIX_DEADLINE));
    free(ws);
    free(ks);
}

/* Shrinking generated divergent states never changes their class nor
 * makes them bigger or invalid. */
static void test_shrink_generated(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct shrink_ws *ws = calloc(1, sizeof *ws);
    assert_non_null(ws);
    struct gen_bounds b;
    gen_bounds_default(&b);
    int shrunk = 0;
    for (uint64_t seed = 0; seed < 400 && shrunk < 25; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        gen_state(ks, &src, &b);
        struct dclass before, after;
        struct diff_verdict v;
        if (!classify_run(ks, 0, &ws->cws, &before, &v))
            continue;
        int size = shrink_size(ks);
        shrink_state(ks, 0, ws);
        tc_assert_valid(ks, INV_AT_ENTRY);
        assert_true(shrink_size(ks) <= size);
        assert_true(classify_run(ks, 0, &ws->cws, &after, &v));
        assert_true(dclass_same(&before, &after));
        shrunk++;
    }
    assert_int_equal(shrunk, 25);
    free(ws);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cause_irquser),
        cmocka_unit_test(test_cause_budget),
        cmocka_unit_test(test_cause_agree),
        cmocka_unit_test(test_shrink_bystanders),
        cmocka_unit_test(test_shrink_generated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
