/*
 * Coverage tests of sim/cost_hooks.c: the recorder the model's counting
 * calls write into, and the counting helpers. These count the kernel's
 * work by the method of sim/cost_hooks.h and docs/COST.md (one read and
 * one branch per operand the kernel's C evaluates, short-circuit), so the
 * expected counts below follow from the kernel expression each helper
 * stands for, worked out in the comments.
 */
#include "tcommon.h"

#include "cost.h"

static void test_names(void **state)
{
    (void)state;
    for (int s = 0; s < SEC_COUNT; s++) {
        assert_string_not_equal(cost_section_name(s), "?");
        assert_string_not_equal(cost_section_what(s), "?");
    }
    assert_string_equal(cost_section_name(SEC_ENTRY), "entry");
    assert_string_equal(cost_section_name(SEC_EXIT), "exit");
    assert_string_equal(cost_section_what(SEC_TIMER),
                        "next interrupt time and the timer compare register, the reprogram flag");
    static const int bad[] = {-1, SEC_COUNT, 99};
    for (unsigned i = 0; i < 3; i++) {
        assert_string_equal(cost_section_name(bad[i]), "?");
        assert_string_equal(cost_section_what(bad[i]), "?");
    }
    assert_string_equal(cost_kind_name(CK_R), "R");
    assert_string_equal(cost_kind_name(CK_W), "W");
    assert_string_equal(cost_kind_name(CK_B), "B");
    assert_string_equal(cost_kind_name(-1), "?");
    assert_string_equal(cost_kind_name(CK_COUNT), "?");
}

/* A recorder starts empty, counting into the entry section. */
static void test_reset(void **state)
{
    (void)state;
    struct cost_rec r;
    memset(&r, 0xff, sizeof r);
    cost_reset(&r);
    assert_int_equal(r.sec, SEC_ENTRY);
    assert_false(r.irq_latched);
    assert_false(r.fell_back);
    assert_int_equal(cost_all(&r.c), 0);
    assert_int_equal(cost_all(&r.at_fallback), 0);
    cost_add(&r, 1, 2, 3);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 1);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_W], 2);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 3);
}

/* isSchedulable(t) = isRunnable(t) && t->tcbSchedContext &&
 * sc_active(sc) && !t->tcbInReleaseQueue, short-circuit: one read and one
 * branch per operand reached. A scheduler action that is not a thread
 * (ResumeCurrentThread, ChooseNewThread: negative here) and any index past
 * the last TCB are no thread: nothing is counted. */
static void test_schedulable(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    struct cost_rec r;
    cost_reset(&r);
    ks->cost = &r;
    int t = build_thread(ks, "t", 10, 0);
    static const int none[] = {KS_SA_RESUME, KS_SA_CHOOSE, KS_NONE};
    for (unsigned i = 0; i < 3; i++)
        cost_schedulable(ks, none[i]);
    cost_schedulable(ks, ks->n_tcbs);
    cost_schedulable(ks, KS_MAX_TCBS);
    assert_int_equal(cost_all(&r.c), 0);
    /* Inactive: isRunnable fails, 1 operand */
    cost_schedulable(ks, t);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 1);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 1);
    /* Restart, no SC: 2 operands */
    ks->tcbs[t].state = TS_Restart;
    cost_reset(&r);
    cost_schedulable(ks, t);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 2);
    /* Running, unconfigured SC: 3 operands */
    ks->tcbs[t].state = TS_Running;
    int sc = build_sc_unconfigured(ks, "sc", t);
    cost_reset(&r);
    cost_schedulable(ks, t);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 3);
    /* configured SC: all 4 operands */
    refill_new(ks, sc, 2, 1000, 0, 0);
    cost_reset(&r);
    cost_schedulable(ks, t);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 4);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 4);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_W], 0);
    ks->cost = NULL;
    free(ks);
}

/* refill_ready(sc) && refill_sufficient(sc, 0): the readiness test reads
 * scRefillHead, rTime and ksCurTime and branches once; only a ready head
 * goes on to read rAmount and branch again. */
static void test_ready_sufficient(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    struct cost_rec r;
    cost_reset(&r);
    ks->cost = &r;
    int sc = build_sc(ks, "sc", KS_NONE, 1000, 5000, 100);
    ks->cur_time = 99; /* head at 100: not ready */
    cost_ready_sufficient(ks, sc);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 3);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 1);
    ks->cur_time = 100; /* ready */
    cost_reset(&r);
    cost_ready_sufficient(ks, sc);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 4);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 2);
    ks->cost = NULL;
    free(ks);
}

/* getActiveIRQ: the first call of a kernel entry reads ICC_IAR1 and keeps
 * the IRQ (3 reads, 1 write, 2 tests); later calls only test the kept
 * value (2 reads, 2 tests). */
static void test_active_irq(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    struct cost_rec r;
    cost_reset(&r);
    ks->cost = &r;
    cost_active_irq(ks);
    assert_true(r.irq_latched);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 3);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_W], 1);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 2);
    cost_active_irq(ks);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_R], 5);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_W], 1);
    assert_int_equal(r.c.n[SEC_ENTRY][CK_B], 4);
    ks->cost = NULL;
    free(ks);
}

/* The fastpath hands over to the slowpath once per entry: the counts at
 * that moment are kept; a second hand-over (not made by the model's
 * fastpath, which falls back at most once) keeps the first snapshot. */
static void test_fallback(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    struct cost_rec r;
    cost_reset(&r);
    ks->cost = &r;
    cost_add(&r, 2, 1, 1);
    cost_fallback(ks);
    assert_true(r.fell_back);
    assert_int_equal(cost_all(&r.at_fallback), 4);
    cost_add(&r, 5, 0, 0);
    cost_fallback(ks);
    assert_int_equal(cost_all(&r.at_fallback), 4);
    assert_int_equal(cost_all(&r.c), 9);
    ks->cost = NULL;
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_schedulable),
        cmocka_unit_test(test_ready_sufficient),
        cmocka_unit_test(test_active_irq),
        cmocka_unit_test(test_fallback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
