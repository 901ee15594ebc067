/* test_defect: the map from a class's cause (a minimal fix set) to the
 * defects F1-F8 of docs/FINDINGS.md, and the defect table's texts. */
#include "tcommon.h"
#include "target.h"

#include "classify.h"
#include "defect.h"

#define D(n) (1u << DEF_F##n)

/* Each fix alone names the defect FINDINGS gives it; entry_time alone is
 * F4 (the stale clock of the sporadic unblock check). */
static void test_single_fixes(void **state)
{
    (void)state;
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_TIME)), D(4));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_BUDGET)), D(1));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_DOMAIN)), D(2));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_RELEASE)), D(3));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_IDLE_SWITCH)), D(5));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_DEADLINE)), D(6));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_CB_UNBLOCK)), D(7));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_REPROGRAM)), D(8));
}

/* entry_time with an entry check is that check's defect (the check needs
 * the clock), not also F4. */
static void test_entry_time_belongs_to_the_entry_checks(void **state)
{
    (void)state;
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_BUDGET)), D(1));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_DOMAIN)), D(2));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_RELEASE)), D(3));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_TIME) | FIX(FIX_ENTRY_BUDGET) | FIX(FIX_REPROGRAM)),
                     D(1) | D(8));
}

/* Combination classes of the 900 s run in FINDINGS: each names every
 * defect its fixes stand for. */
static void test_combinations(void **state)
{
    (void)state;
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_ENTRY_TIME) | FIX(FIX_IDLE_SWITCH) | FIX(FIX_DEADLINE) | FIX(FIX_REPROGRAM)),
                     D(4) | D(5) | D(6) | D(8));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_DEADLINE) | FIX(FIX_CB_UNBLOCK) | FIX(FIX_REPROGRAM)), D(6) | D(7) | D(8));
    assert_int_equal(cause_defects(&target_irq, FIX_ALL), D(1) | D(2) | D(3) | D(5) | D(6) | D(7) | D(8) | D(9));
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_SPLIT_EOI)), D(9));
    assert_int_equal(cause_defects(&target_irq, CLASS_NO_FIX), 0);
}

static void test_table(void **state)
{
    (void)state;
    char buf[64];
    for (int d = 0; d < DEF_COUNT; d++) {
        const struct defect_info *di = defect_info(&target_irq, d);
        assert_non_null(di);
        char id[4];
        snprintf(id, sizeof id, "F%d", d + 1);
        assert_string_equal(di->id, id);
        /* the fixes it names are exactly the set that maps to it alone */
        assert_int_equal(cause_defects(&target_irq, di->need), 1u << d);
        assert_true(strlen(di->state) > 0 && strlen(di->slow) > 0 && strlen(di->fast) > 0 &&
                    strlen(di->consequence) > 0);
    }
    assert_null(defect_info(&target_irq, DEF_COUNT));
    assert_null(defect_info(&target_irq, -1));
    assert_string_equal(defects_text(&target_irq, D(1) | D(6), buf, sizeof buf), "F1+F6");
    assert_string_equal(defects_text(&target_irq, 0, buf, sizeof buf), "none");
}

/* The trade-off-or-not verdicts of docs/FINDINGS-signal.md: S1-S3 are the
 * lazy accounting the MCS IPC fastpaths share; S4 (no unblock check there),
 * S6 (fastpath_call checks extraCaps) and S9 (fastpath_call falls back on
 * another core) are not. The IRQ defects carry none, which keeps
 * `irqsim report` of an IRQ run as it was. */
static void test_verdicts(void **state)
{
    (void)state;
    for (int d = 0; d < DEF_COUNT; d++)
        assert_null(defect_info(&target_irq, d)->verdict);
    static const struct {
        const char *id, *says;
    } want[] = {{"S1", "Design trade-off, not a bug"}, {"S2", "(a trade-off)"}, {"S3", "a design trade-off"},
                {"S4", "Not shared"}, {"S5", "Goes beyond"}, {"S6", "Not a trade-off"}, {"S9", "Not shared"}};
    assert_int_equal(target_signal.n_defects, sizeof want / sizeof want[0]);
    for (int d = 0; d < target_signal.n_defects; d++) {
        const struct defect_info *di = defect_info(&target_signal, d);
        assert_string_equal(di->id, want[d].id);
        assert_non_null(di->verdict);
        assert_non_null(strstr(di->verdict, want[d].says));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_fixes),
        cmocka_unit_test(test_entry_time_belongs_to_the_entry_checks),
        cmocka_unit_test(test_combinations),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_verdicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
