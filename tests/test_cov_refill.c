/*
 * Coverage tests of sim/refill.c beyond tests/test_refill.c: the debug-build
 * checks of the kernel's src/kernel/sporadic.c (refill_ordered, the
 * REFILL_SANITY sum checks, the asserts of sc_sporadic and
 * refill_add_tail), the charging loop's MAX_RELEASE_TIME stop, and the
 * model's bound on that loop. Charging runs with and without a cost
 * recorder (tests/tcount.h). Several states here are ones the kernel
 * cannot reach; each test says so and checks what the kernel's code (or
 * the model's guard in its place) does there.
 *
 * Board imx8mm: 8 MHz, MIN_BUDGET 160 ticks.
 */
#include "tcount.h"

struct rq {
    ticks_t time, amount;
};

/* imx8mm, one SC that is ksCurSC: refills r[0..n-1] from slot 0, the
 * given period and scRefillMax. */
static struct kstate *setup(int *sc_out, ticks_t period, unsigned max, const struct rq *r, unsigned n)
{
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    assert_int_equal(ks->cfg.min_budget, 160);
    int sc = ks_add_sc(ks, "sc");
    struct ks_sc *s = &ks->scs[sc];
    s->period = period;
    s->refill_max = (uint8_t)max;
    s->head = 0;
    s->tail = (uint8_t)(n - 1);
    s->budget = 0;
    for (unsigned i = 0; i < n; i++) {
        s->refills[i].time = r[i].time;
        s->refills[i].amount = r[i].amount;
        s->budget += r[i].amount;
    }
    ks->cur_sc = (int8_t)sc;
    *sc_out = sc;
    return ks;
}

static void op_charge(struct kstate *ks, void *arg)
{
    refill_budget_check(ks, *(ticks_t *)arg);
}

static void op_unblock(struct kstate *ks, void *arg)
{
    refill_unblock_check(ks, *(int *)arg);
}

/* sc_sporadic: no SC is not sporadic; a sporadic SC must be active (the
 * kernel asserts it). A sporadic SC with scRefillMax 0 is a state the
 * kernel cannot reach (only a configured SC can be made sporadic): the
 * assertion is recorded and the flag still answers. */
static void test_sporadic_active_assert(void **state)
{
    (void)state;
    int sc;
    static const struct rq one[] = {{0, 1000}};
    struct kstate *ks = setup(&sc, 10000, 4, one, 1);
    assert_false(sc_sporadic(ks, KS_NONE));
    assert_false(sc_sporadic(ks, sc));
    ks->scs[sc].sporadic = true;
    assert_true(sc_sporadic(ks, sc));
    tc_assert_no_asserts(ks);
    ks->scs[sc].refill_max = 0;
    assert_true(sc_sporadic(ks, sc));
    tc_assert_one(ks, A_SPORADIC_ACTIVE);
    free(ks);
}

/* refill_ordered (the kernel's check, REFILL_SANITY_*: round robin or
 * each refill ends no later than the next starts). The model also counts
 * an end that wraps past 2^64 as out of order, where the kernel's unsigned
 * sum would wrap and pass: refill times that near 2^64 are past
 * MAX_RELEASE_TIME and not reached. */
static void test_ordered(void **state)
{
    (void)state;
    int sc;
    static const struct rq ok[] = {{0, 100}, {100, 100}, {5000, 200}};
    struct kstate *ks = setup(&sc, 10000, 4, ok, 3);
    assert_true(refill_ordered(&ks->scs[sc]));
    free(ks);
    static const struct rq overlap[] = {{0, 100}, {99, 100}};
    ks = setup(&sc, 10000, 4, overlap, 2);
    assert_false(refill_ordered(&ks->scs[sc]));
    ks->scs[sc].period = 0;
    assert_true(refill_ordered(&ks->scs[sc]));
    free(ks);
    /* UINT64_MAX - 5 + 10 wraps to 4: not after the next start (100), but
     * the end wrapped */
    static const struct rq wrap[] = {{UINT64_MAX - 5, 10}, {100, 10}};
    ks = setup(&sc, 10000, 4, wrap, 2);
    assert_false(refill_ordered(&ks->scs[sc]));
    free(ks);
}

/* refill_budget_check stops charging at a head refill whose time is
 * MAX_RELEASE_TIME or later (the kernel's loop condition rTime <
 * MAX_RELEASE_TIME, and the same test before the partial charge): usage
 * 300 against a head of 200 charges nothing, and nothing fails. */
static void test_charge_past_max_release(void **state)
{
    (void)state;
    int sc;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    struct rq head[] = {{ks->cfg.max_release, 200}};
    free(ks);
    struct kstate *in = setup(&sc, 10000, 4, head, 1), *out = tc_state();
    ticks_t usage = 300;
    assert_true(tc_counted(in, out, op_charge, &usage) > 0);
    tc_assert_no_asserts(out);
    assert_true(ks_same(in, out));
    /* one tick earlier the whole head is charged (200 <= 300): a single
     * refill moves one period on, to past MAX_RELEASE_TIME, so the 100
     * ticks left are not charged */
    in->scs[sc].refills[0].time = in->cfg.max_release - 1;
    tc_counted(in, out, op_charge, &usage);
    tc_assert_no_asserts(out);
    assert_true(refill_single(&out->scs[sc]));
    assert_int_equal(out->scs[sc].refills[0].time, in->cfg.max_release - 1 + 10000);
    assert_int_equal(out->scs[sc].refills[0].amount, 200);
    free(in);
    free(out);
}

/* A state the kernel cannot reach: charging a periodic SC whose scRefillMax
 * is 0 though it holds two refills (slots 0 and 1). Charging 200 uses the
 * whole head {0, 200}: it is popped and re-scheduled at 0 + period = 1000;
 * the tail {500, 200} ends at 700 < 1000, so it cannot absorb it, and
 * refill_full sees 1 refill against a maximum of 0, "not full". The
 * kernel's refill_add_tail asserts refill_size < scRefillMax (and would
 * write past the queue); the model records that and drops the refill, and
 * then the sum check at the end of refill_budget_check fails (200 of 400
 * left). */
static void test_add_tail_full(void **state)
{
    (void)state;
    int sc;
    static const struct rq two[] = {{0, 200}, {500, 200}};
    struct kstate *in = setup(&sc, 1000, 2, two, 2), *out = tc_state();
    in->scs[sc].refill_max = 0;
    ticks_t usage = 200;
    assert_true(tc_counted(in, out, op_charge, &usage) > 0);
    assert_int_equal(out->n_asserts, 2);
    assert_int_equal(out->asserts[0].id, A_ADD_TAIL_FULL);
    assert_int_equal(out->asserts[1].id, A_REFILL_SUM);
    const struct ks_sc *s = &out->scs[sc];
    assert_int_equal(s->head, 1);
    assert_int_equal(s->tail, 1);
    assert_int_equal(s->refills[1].time, 500);
    assert_int_equal(s->refills[1].amount, 200);
    free(in);
    free(out);
}

/* The model's bound on the charging loop: an entry clock so far past the
 * SC's refills that the kernel would loop usage / amount times is not a
 * state the kernel reaches (the timer fires long before). A single refill
 * of 160 ticks, period 1000, charged 160 * 2^20 ticks: the kernel moves
 * the refill 2^20 periods on and is done (head {2^20 * 1000, 160}). The
 * model stops after 2^20 - 1 rounds and records A_MODEL_LOOP; the 160
 * ticks left then go through the partial charge, whose assert (head amount
 * > usage: 160 > 160) fails, and which leaves an empty head at 2^20 * 1000
 * - 1000 + 160 and the used 160 at 2^20 * 1000; the empty head is merged
 * into it (MIN_BUDGET loop). The outcome is the kernel's refill, with the
 * two failures recorded. */
static void test_charge_loop_bound(void **state)
{
    (void)state;
    int sc;
    static const struct rq one[] = {{0, 160}};
    struct kstate *in = setup(&sc, 1000, 16, one, 1), *out = tc_state();
    ticks_t usage = 160ull << 20;
    assert_true(tc_counted(in, out, op_charge, &usage) > 0);
    assert_int_equal(out->n_asserts, 2);
    assert_int_equal(out->asserts[0].id, A_MODEL_LOOP);
    assert_int_equal(out->asserts[1].id, A_REFILL_HEAD_GT_USAGE);
    const struct ks_sc *s = &out->scs[sc];
    assert_true(refill_single(s));
    assert_int_equal(s->refills[s->head].time, 1000ull << 20);
    assert_int_equal(s->refills[s->head].amount, 160);
    free(in);
    free(out);
}

/* refill_unblock_check on refills that are out of order on entry (a state
 * the kernel cannot reach: the sanity check at its start fails). Now 2000,
 * refills {0, 200} {5000, 100} {4000, 100}: the head is ready, so it
 * starts now (2000..2200, ksReprogram set); the next starts at 5000, no
 * overlap, no merge. The sum is unchanged but the queue is still out of
 * order, so the check at the end fails as well. */
static void test_unblock_unordered(void **state)
{
    (void)state;
    int sc;
    static const struct rq bad[] = {{0, 200}, {5000, 100}, {4000, 100}};
    struct kstate *in = setup(&sc, 10000, 4, bad, 3), *out = tc_state();
    in->cur_time = in->hw_clock = 2000;
    assert_true(tc_counted(in, out, op_unblock, &sc) > 0);
    assert_int_equal(out->n_asserts, 2);
    assert_int_equal(out->asserts[0].id, A_UNBLOCK_SUM);
    assert_int_equal(out->asserts[1].id, A_UNBLOCK_SUM);
    assert_true(out->reprogram);
    const struct ks_sc *s = &out->scs[sc];
    assert_int_equal(refill_size(s), 3);
    assert_int_equal(s->refills[0].time, 2000);
    assert_int_equal(s->refills[0].amount, 200);
    assert_int_equal(refill_sum(s), 400);
    free(in);
    free(out);
}

/* refill_new: a periodic SC gets one refill of the whole budget at now; a
 * round-robin SC also gets the empty tail refill the kernel adds
 * (maybe_add_empty_tail). A round-robin SC with room for fewer than
 * MIN_REFILLS refills is not something the kernel configures
 * (scRefillMax = extra_refills + MIN_REFILLS): the model then gives it the
 * single refill only. */
static void test_refill_new(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    int sc = ks_add_sc(ks, "sc");
    refill_new(ks, sc, 2, 1000, 0, 77);
    const struct ks_sc *s = &ks->scs[sc];
    assert_int_equal(refill_size(s), 2);
    assert_int_equal(s->refills[0].time, 77);
    assert_int_equal(s->refills[0].amount, 1000);
    assert_int_equal(s->refills[1].time, 77);
    assert_int_equal(s->refills[1].amount, 0);
    refill_new(ks, sc, 1, 1000, 0, 5);
    assert_int_equal(s->refill_max, 1);
    assert_true(refill_single(s));
    assert_int_equal(s->refills[0].time, 5);
    assert_int_equal(refill_sum(s), 1000);
    refill_new(ks, sc, 4, 300, 900, 6);
    assert_true(refill_single(s));
    assert_int_equal(s->period, 900);
    assert_int_equal(s->budget, 300);
    free(ks);
}

struct update_arg {
    int sc;
    ticks_t period, budget;
    unsigned max;
};

static void op_update(struct kstate *ks, void *arg)
{
    struct update_arg *u = arg;
    refill_update(ks, u->sc, u->period, u->budget, u->max);
}

/* refill_update with a new period of 0 (round robin). The kernel never
 * makes this call: invokeSchedControl_ConfigureFlags takes refill_new for
 * budget == period (src/object/schedcontrol.c:33-38) and the decode
 * refuses a period below MIN_BUDGET (:116-122), so refill_update always
 * gets a period >= MIN_BUDGET > 0; the call is made on purpose to run
 * maybe_add_empty_tail's round-robin case (src/kernel/sporadic.c:148-156,
 * called at :201). Head 1000 at 0, ksCurTime 1000, new budget 500: the
 * head is ready, so it moves to 1000 (:194-196), it is trimmed to 500
 * (:198-200), and the empty tail refill {rTime 1000, rAmount 0} is added:
 * MIN_REFILLS refills. */
static void test_update_round_robin(void **state)
{
    (void)state;
    int sc;
    static const struct rq r[] = {{0, 1000}};
    struct kstate *in = setup(&sc, 10000, 16, r, 1), *out = tc_state();
    in->cur_time = in->hw_clock = 1000;
    struct update_arg u = {.sc = sc, .period = 0, .budget = 500, .max = MIN_REFILLS};
    tc_counted(in, out, op_update, &u);
    tc_assert_no_asserts(out);
    assert_int_equal(refill_size(&out->scs[sc]), MIN_REFILLS);
    assert_int_equal(refill_head(out, sc)->time, 1000);
    assert_int_equal(refill_head(out, sc)->amount, 500);
    assert_int_equal(refill_tail(out, sc)->time, 1000);
    assert_int_equal(refill_tail(out, sc)->amount, 0);
    free(in);
    free(out);
}

/* sc_released (include/kernel/sporadic.h:145-155): false for an SC that is
 * not configured (scRefillMax 0) whatever its refills say; for an active
 * SC, refill_ready: head at 0 is released at 1000, head at 5000 is not. */
static void test_sc_released(void **state)
{
    (void)state;
    int sc;
    static const struct rq r[] = {{0, 1000}};
    struct kstate *ks = setup(&sc, 10000, 16, r, 1);
    ks->cur_time = 1000;
    assert_true(sc_released(ks, sc));
    ks->scs[sc].refill_max = 0;
    assert_false(sc_released(ks, sc));
    ks->scs[sc].refill_max = 16;
    ks->scs[sc].refills[0].time = 5000;
    assert_false(sc_released(ks, sc));
    tc_assert_no_asserts(ks);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sporadic_active_assert),
        cmocka_unit_test(test_ordered),
        cmocka_unit_test(test_charge_past_max_release),
        cmocka_unit_test(test_add_tail_full),
        cmocka_unit_test(test_charge_loop_bound),
        cmocka_unit_test(test_unblock_unordered),
        cmocka_unit_test(test_refill_new),
        cmocka_unit_test(test_update_round_robin),
        cmocka_unit_test(test_sc_released),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
