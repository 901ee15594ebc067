/*
 * The change over every configuration of `irqsim review`
 * (tools/reviewchange.c, issue 30 item 2): hand-built measures of the
 * same two changed lines on two configurations, as rk_change_measure
 * would classify them, and what the verdict makes of them. Each case says
 * why a line counts as executed, unrun or without code; the figures
 * asserted follow from the measures the case builds.
 */
#include "tcommon.h"

#include "review.h"
#include "reviewchange.h"
#include "rk_change.h"

static char *dup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    assert_non_null(d);
    return strcpy(d, s);
}

/* Two configurations' results (large: calloc, not the stack) */
static struct review_result *results(void)
{
    struct review_result *r = calloc(2, sizeof *r);
    assert_non_null(r);
    return r;
}

static void results_free(struct review_result *r)
{
    review_free(&r[0]);
    review_free(&r[1]);
    free(r);
}

/* One function "f" (entered calls times) and lines of the given kinds in
 * it, in configuration r. */
static void measure(struct review_result *r, long long calls, const int *kinds, int n)
{
    r->ran = true;
    r->has_base = true;
    r->change.measured = true;
    struct rk_change_cfg *m = &r->change.m;
    m->fns = calloc(1, sizeof *m->fns);
    m->lines = calloc((size_t)n, sizeof *m->lines);
    assert_non_null(m->fns);
    assert_non_null(m->lines);
    m->fns[0] = (struct rk_change_fn){.name = dup("f"), .calls = calls, .states = (uint64_t)calls, .on_path = true};
    m->nfns = 1;
    for (int i = 0; i < n; i++)
        m->lines[i] = (struct rk_change_line){.file = 0, .line = 10 + i, .kind = kinds[i], .fn = 0};
    m->nlines = n;
}

static struct rk_change_file file = {.path = "src/kernel/thread.c", .c_source = true};
static struct rk_change change = {.files = &file, .nfiles = 1};

/* A line under #ifdef ENABLE_SMP_SUPPORT: disabled on one core, executed
 * on two: executed. A line compiled without code on two cores and left
 * out on one: no code, so not a line left unrun (the bug this caught:
 * "in a disabled #if" outranked "no code of its own"). */
static void test_smp_line(void **state)
{
    (void)state;
    struct review_result *r = results();
    measure(&r[0], 5, (const int[]){RL_DISABLED, RL_DISABLED}, 2);
    measure(&r[1], 5, (const int[]){RL_EXEC, RL_NOCODE}, 2);
    struct review_change_total t;
    review_change_total(r, 2, &t);
    assert_int_equal(t.code, 1);
    assert_int_equal(t.executed, 1);
    assert_int_equal(t.nocode, 1);
    assert_int_equal(t.fns, 1);
    assert_int_equal(t.fns_entered, 1);
    assert_false(review_change_unrun(&t));
    char buf[600];
    review_change_text(r, 2, &t, &change, 8, buf, sizeof buf);
    assert_non_null(strstr(buf, "1 of 1 changed line with code executed"));
    assert_null(strstr(buf, "not executed:"));
    results_free(r);
}

/* Code not executed anywhere, in a function no configuration entered:
 * unrun, named with its function, "never entered". */
static void test_never_entered(void **state)
{
    (void)state;
    struct review_result *r = results();
    measure(&r[0], 0, (const int[]){RL_UNEXEC, RL_COMMENT}, 2);
    measure(&r[1], 0, (const int[]){RL_DISABLED, RL_COMMENT}, 2);
    struct review_change_total t;
    review_change_total(r, 2, &t);
    assert_int_equal(t.code, 1);
    assert_int_equal(t.executed, 0);
    assert_int_equal(t.comment, 1);
    assert_int_equal(t.fns_entered, 0);
    assert_true(review_change_unrun(&t));
    char buf[600];
    review_change_text(r, 2, &t, &change, 8, buf, sizeof buf);
    assert_non_null(strstr(buf, "not executed: `f()` src/kernel/thread.c:10 (never entered)"));
    results_free(r);
}

/* A function entered, whose only change is a line with no code and a
 * comment: nothing left unrun. Then a configuration where the measure
 * failed: unrun (not measured is no pass), and the verdict says why. */
static void test_nocode_and_failed(void **state)
{
    (void)state;
    struct review_result *r = results();
    measure(&r[0], 3, (const int[]){RL_NOCODE, RL_COMMENT}, 2);
    struct review_change_total t;
    review_change_total(r, 1, &t);
    assert_int_equal(t.code, 0);
    assert_false(review_change_unrun(&t));
    r[1].ran = true;
    snprintf(r[1].change.why, sizeof r[1].change.why, "gcov gave no JSON");
    review_change_total(r, 2, &t);
    assert_int_equal(t.failed, 1);
    assert_true(review_change_unrun(&t));
    char buf[600];
    review_change_text(r, 2, &t, &change, 8, buf, sizeof buf);
    assert_non_null(strstr(buf, "not measured on 1 configuration (gcov gave no JSON)"));
    results_free(r);
}

/* A line replaced in place in a function no run entered: the deletion
 * and the new line (no code of its own) at one place of one function are
 * one entry of "not executed", not the same text twice (seen on a review
 * of a tree whose invokeIRQHandler_ClearIRQHandler line was replaced) */
static void test_replaced_line_once(void **state)
{
    (void)state;
    struct review_result *r = results();
    measure(&r[0], 0, (const int[]){RL_DELETED, RL_NOCODE}, 2);
    r[0].change.m.lines[1].line = r[0].change.m.lines[0].line; /* the same place */
    struct review_change_total t;
    review_change_total(r, 1, &t);
    assert_true(review_change_unrun(&t));
    char buf[600];
    review_change_text(r, 1, &t, &change, 8, buf, sizeof buf);
    const char *entry = "`f()` src/kernel/thread.c:10 (never entered)";
    const char *first = strstr(buf, entry);
    assert_non_null(first);
    assert_null(strstr(first + 1, entry));
    results_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smp_line),
        cmocka_unit_test(test_never_entered),
        cmocka_unit_test(test_nocode_and_failed),
        cmocka_unit_test(test_replaced_line_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
