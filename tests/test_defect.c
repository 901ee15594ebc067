/* test_defect: the map from a class's cause (a minimal fix set) to the
 * defects of docs/FINDINGS.md and docs/FINDINGS-signal.md, and the defect
 * tables' texts. */
#include "tcommon.h"

#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "defect.h"
#include "sig_fast.h"
#include "target.h"

/* the IRQ target's defect Fn, found by its id (the table's order is its file's) */
#define D(n) (1u << defect_index(&target_irq, "F" #n))
#define DEF_COUNT (target_irq.n_defects)

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
    assert_int_equal(cause_defects(&target_irq, FIX(FIX_RESWITCH)), D(12));
    assert_int_equal(cause_defects(&target_signal, SFIX(SFIX_RESWITCH)),
                     1u << defect_index(&target_signal, "S11"));
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
    assert_int_equal(cause_defects(&target_irq, FIX_ALL), D(1) | D(2) | D(3) | D(5) | D(6) | D(7) | D(8) | D(9) | D(10) | D(11) | D(12));
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
        char id[16];
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
                {"S4", "Not shared"}, {"S5", "Goes beyond"}, {"S6", "Not a trade-off"}, {"S9", "Not shared"},
                {"S10", "Not a trade-off"}, {"S11", "Not a trade-off"}};
    assert_int_equal(target_signal.n_defects, sizeof want / sizeof want[0]);
    for (int d = 0; d < target_signal.n_defects; d++) {
        const struct defect_info *di = defect_info(&target_signal, d);
        assert_string_equal(di->id, want[d].id);
        assert_non_null(di->verdict);
        assert_non_null(strstr(di->verdict, want[d].says));
    }
}

/* One FINDINGS heading, "### F1. TITLE (fixes `a` + `b`)" or "### S1. TITLE
 * (`a+b`)", split into its title and its fixes as the table writes them
 * ("a+b"); false for another line. */
static bool findings_heading(const char *line, const char *id, char *title, size_t tlen, char *fixes, size_t flen)
{
    char head[16];
    snprintf(head, sizeof head, "### %s. ", id);
    if (strncmp(line, head, strlen(head)) != 0)
        return false;
    const char *t = line + strlen(head), *open = strrchr(t, '(');
    assert_non_null(open);
    size_t n = 0;
    for (const char *c = t; c < open - 1 && n + 1 < tlen; c++)
        if (*c != '`') /* the table writes identifiers without backticks */
            title[n++] = *c;
    title[n] = 0;
    n = 0;
    const char *c = open + 1;
    if (!strncmp(c, "fixes ", 6) || !strncmp(c, "fix ", 4))
        c = strchr(c, ' ') + 1;
    for (; *c && *c != ')' && n + 1 < flen; c++)
        if (*c != '`' && *c != ' ')
            fixes[n++] = *c;
    fixes[n] = 0;
    return true;
}

/* The defect tables are the one source of the defects' names: each
 * target's findings page has one section per defect of its table, headed
 * by the table's id, title and fixes, and none for a defect the table does
 * not have (checked both ways, so a renamed, added or dropped defect
 * fails here until both agree). */
static void test_findings_match_the_tables(void **state)
{
    (void)state;
    const struct target *t;
    for (int i = 0; (t = target_at(i)) != NULL; i++) {
        char path[512], line[512];
        snprintf(path, sizeof path, "%s/%s", IRQSIM_SRC, t->findings);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        int seen[DEFECT_MAX] = {0}, sections = 0;
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            char id[8];
            if (sscanf(line, "### %7[A-Z0-9].", id) != 1 || strchr(id, '.') || !strchr("FSCR", id[0]))
                continue;
            if (id[1] < '0' || id[1] > '9')
                continue;
            sections++;
            int d = defect_index(t, id);
            if (d < 0)
                fail_msg("%s: a section for %s, which target %s's table lacks", t->findings, id, t->name);
            char title[256], fixes[128];
            assert_true(findings_heading(line, id, title, sizeof title, fixes, sizeof fixes));
            if (strcmp(title, t->defects[d].title) || strcmp(fixes, t->defects[d].fixes))
                fail_msg("%s: %s is headed '%s' (%s), the table says '%s' (%s)", t->findings, id, title, fixes,
                         t->defects[d].title, t->defects[d].fixes);
            seen[d]++;
        }
        fclose(f);
        for (int d = 0; d < t->n_defects; d++)
            if (seen[d] != 1)
                fail_msg("%s: %d sections for %s", t->findings, seen[d], t->defects[d].id);
        assert_int_equal(sections, t->n_defects);
    }
}

/* The id lists usage texts print (defect_ids): runs of three or more
 * consecutive ids as a range, two as a list, other letters apart; the
 * defects a kernel cannot show left out. */
static void test_defect_ids(void **state)
{
    (void)state;
    static const struct defect_info made[] = {{.id = "A1"}, {.id = "A2"}, {.id = "A3"}, {.id = "A5"},
                                              {.id = "A6"}, {.id = "B7"}, {.id = "B8"}, {.id = "B9"},
                                              {.id = "A10"}};
    struct target t = {.defects = made, .n_defects = (int)(sizeof made / sizeof made[0])};
    char buf[128];
    assert_string_equal(defect_ids(&t, -1, buf, sizeof buf), "A1-A3, A5, A6, B7-B9, A10");
    assert_string_equal(defect_ids(&t, -1, buf, 8), "A1-A3"); /* truncated: the items that fit */
    /* the real tables: F9 needs master's split EOI */
    assert_string_equal(defect_ids(&target_irq, -1, buf, sizeof buf), "F1-F12");
    assert_string_equal(defect_ids(&target_irq, KS_KERNEL_BASE, buf, sizeof buf), "F1-F8, F10-F12");
    assert_string_equal(defect_ids(&target_irq, KS_KERNEL_MASTER, buf, sizeof buf), "F1-F12");
    assert_string_equal(defect_ids(&target_signal, -1, buf, sizeof buf), "S1-S6, S9-S11");
}

/* Where a defect can show (defect_possible_here, what a search's "not
 * found" reads): F10 on two cores; F12 and S11 (another core's
 * VCPU_SetTCB) only on two cores with VCPU threads; F9 on master only;
 * S2 (domains) on one core only. */
static void test_possible_here(void **state)
{
    (void)state;
    int f9 = defect_index(&target_irq, "F9"), f10 = defect_index(&target_irq, "F10");
    int f12 = defect_index(&target_irq, "F12"), s2 = defect_index(&target_signal, "S2");
    int s11 = defect_index(&target_signal, "S11");
    assert_true(defect_possible_here(&target_irq, f10, KS_KERNEL_BASE, 2, false));
    assert_false(defect_possible_here(&target_irq, f10, KS_KERNEL_BASE, 1, true));
    assert_true(defect_possible_here(&target_irq, f12, KS_KERNEL_BASE, 2, true));
    assert_true(defect_possible_here(&target_irq, f12, KS_KERNEL_MASTER, 2, true));
    assert_false(defect_possible_here(&target_irq, f12, KS_KERNEL_MASTER, 2, false));
    assert_false(defect_possible_here(&target_irq, f12, KS_KERNEL_MASTER, 1, true));
    assert_true(defect_possible_here(&target_signal, s11, KS_KERNEL_MASTER, 2, true));
    assert_false(defect_possible_here(&target_signal, s11, KS_KERNEL_MASTER, 2, false));
    assert_false(defect_possible_here(&target_irq, f9, KS_KERNEL_BASE, 2, true));
    assert_true(defect_possible_here(&target_irq, f9, KS_KERNEL_MASTER, 1, false));
    assert_true(defect_possible_here(&target_signal, s2, KS_KERNEL_MASTER, 1, false));
    assert_false(defect_possible_here(&target_signal, s2, KS_KERNEL_MASTER, 2, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_fixes),
        cmocka_unit_test(test_entry_time_belongs_to_the_entry_checks),
        cmocka_unit_test(test_combinations),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_findings_match_the_tables),
        cmocka_unit_test(test_defect_ids),
        cmocka_unit_test(test_possible_here),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
