/*
 * Cost model tests (sim/cost_hooks.h, check/cost.h): counting never changes what a path does,
 * and the counts follow from the kernel code the model mirrors: the
 * fastpath's no-switch exit does no time accounting or timer work, the
 * slowpath's switch does both, a fallback costs the fastpath's checks on
 * top of the slowpath (less the GIC read the slowpath then skips), and the
 * counts describe the kernel's O(1) queue operations, not the model's scans.
 */
#include "tcommon.h"

#include "cost.h"
#include "gen.h"

static const char *const boards[] = {"imx8mm", "imx8mq", "odroidc4", "tqma", "tx1", "zcu106"};

struct two {
    struct kstate *in, *out, *plain;
};

static struct two *two_new(void)
{
    struct two *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->in = tc_state();
    t->out = tc_state();
    t->plain = tc_state();
    return t;
}

static void two_free(struct two *t)
{
    free(t->in);
    free(t->out);
    free(t->plain);
    free(t);
}

static int run_plain(const struct kstate *in, int path, struct kstate *out)
{
    ks_copy(out, in);
    if (path == CP_SLOW) {
        handleInterruptEntry(out);
        return -1;
    }
    return fastpath_irq(out, path == CP_PR1227 ? FP_PR1227 : FP_FIXED);
}

/* With and without a recorder: same exit, same outcome state. */
static void assert_counting_neutral(struct two *t)
{
    for (int p = 0; p < CP_COUNT; p++) {
        struct cost_result r;
        cost_run(t->in, p, t->out, &r);
        int exit = run_plain(t->in, p, t->plain);
        assert_int_equal(r.exit, exit);
        assert_true(ks_same(t->out, t->plain));
        assert_int_equal(t->out->deadline_writes, t->plain->deadline_writes);
        assert_null(t->out->cost);
    }
}

static void test_counting_neutral_presets(void **state)
{
    (void)state;
    struct two *t = two_new();
    for (unsigned b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        for (int s = 0; s < CS_COUNT; s++) {
            assert_int_equal(cost_situation_build(t->in, s, boards[b]), 0);
            tc_assert_valid(t->in, INV_AT_ENTRY);
            assert_counting_neutral(t);
        }
        for (int c = 0; c < CC_COUNT; c++) {
            assert_int_equal(cost_case_build(t->in, c, boards[b]), 0);
            tc_assert_valid(t->in, INV_AT_ENTRY);
            assert_counting_neutral(t);
        }
    }
    two_free(t);
}

/* Generated states reach every exit, refill merging, charging, releases. */
static void test_counting_neutral_generated(void **state)
{
    (void)state;
    struct two *t = two_new();
    struct gen_bounds b;
    gen_bounds_default(&b);
    for (uint64_t seed = 1; seed <= 3000; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        assert_int_equal(gen_state(t->in, &src, &b), 0);
        assert_counting_neutral(t);
    }
    two_free(t);
}

/* A copy does not count into the original's recorder, and ks_same does
 * not look at it. */
static void test_recorder_not_state(void **state)
{
    (void)state;
    struct two *t = two_new();
    assert_int_equal(preset_noswitch(t->in, "imx8mm"), 0);
    struct cost_rec rec;
    cost_reset(&rec);
    t->in->cost = &rec;
    ks_copy(t->out, t->in);
    assert_null(t->out->cost);
    assert_true(ks_same(t->in, t->out));
    handleInterruptEntry(t->out);
    assert_int_equal(cost_all(&rec.c), 0);
    two_free(t);
}

static void run_all(struct two *t, struct cost_result res[CP_COUNT])
{
    for (int p = 0; p < CP_COUNT; p++)
        cost_run(t->in, p, t->out, &res[p]);
}

/* The proposal's no-switch exit appends or enqueues the handler: it reads
 * no clock, charges nothing and leaves the timer alone. The corrected one
 * reads the clock at entry (time) but still programs no timer. */
static void test_noswitch_no_timer_work(void **state)
{
    (void)state;
    struct two *t = two_new();
    for (unsigned b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        assert_int_equal(preset_noswitch(t->in, boards[b]), 0);
        struct cost_result res[CP_COUNT];
        run_all(t, res);
        assert_int_equal(res[CP_PR1227].exit, FP_EXIT_ENQUEUE);
        assert_int_equal(res[CP_FIXED].exit, FP_EXIT_ENQUEUE);
        assert_int_equal(cost_section_sum(&res[CP_PR1227].rec.c, SEC_TIMER), 0);
        assert_int_equal(cost_section_sum(&res[CP_PR1227].rec.c, SEC_TIME), 0);
        assert_int_equal(res[CP_FIXED].rec.c.n[SEC_TIMER][CK_R], 0);
        assert_int_equal(res[CP_FIXED].rec.c.n[SEC_TIMER][CK_B], 0);
        assert_true(cost_section_sum(&res[CP_FIXED].rec.c, SEC_TIME) > 0);
        /* the slowpath tests ksReprogram and finds nothing to do */
        assert_int_equal(res[CP_SLOW].rec.c.n[SEC_TIMER][CK_W], 0);
        assert_int_equal(res[CP_SLOW].rec.c.n[SEC_TIMER][CK_B], 1);
    }
    two_free(t);
}

/* The slowpath's switch changes the SC: switchSchedContext requests a
 * reprogram, commitTime charges the spinner, setNextInterrupt writes the
 * compare register (one write per setDeadline call). */
static void test_switch_slowpath_reprograms(void **state)
{
    (void)state;
    struct two *t = two_new();
    assert_int_equal(preset_irquser(t->in, "imx8mm"), 0);
    struct cost_result res[CP_COUNT];
    run_all(t, res);
    const struct cost_counts *slow = &res[CP_SLOW].rec.c;
    assert_true(slow->n[SEC_TIMER][CK_R] > 0);
    assert_true(slow->n[SEC_TIMER][CK_W] >= 1);
    cost_run(t->in, CP_SLOW, t->out, &res[CP_SLOW]);
    assert_int_equal(t->out->deadline_writes, t->in->deadline_writes + 1);
    /* commitTime: ksConsumed, the round-robin head and tail, scConsumed */
    assert_true(slow->n[SEC_TIME][CK_W] >= 5);
    /* both fastpaths take the direct switch and compute getNextInterrupt twice */
    assert_int_equal(res[CP_PR1227].exit, FP_EXIT_SWITCH);
    assert_int_equal(res[CP_FIXED].exit, FP_EXIT_SWITCH);
    assert_true(res[CP_PR1227].rec.c.n[SEC_TIMER][CK_R] >= 2 * 5);
    /* the proposal writes the timer only if the new deadline is earlier:
     * here it is later, so no write; the corrected one always writes */
    assert_int_equal(res[CP_PR1227].rec.c.n[SEC_TIMER][CK_W], 0);
    assert_true(res[CP_FIXED].rec.c.n[SEC_TIMER][CK_W] >= 1);
    two_free(t);
}

static uint32_t sum_sections(const struct cost_counts *c)
{
    uint32_t n = 0;
    for (int s = 0; s < SEC_COUNT; s++)
        n += cost_section_sum(c, s);
    return n;
}

/* Totals are the sum of the sections, and every path ends in its exit
 * section (mask and ack, or activateThread). */
static void test_totals_and_last_section(void **state)
{
    (void)state;
    struct two *t = two_new();
    for (int c = -CS_COUNT; c < CC_COUNT; c++) {
        if (c < 0)
            assert_int_equal(cost_situation_build(t->in, c + CS_COUNT, "imx8mm"), 0);
        else
            assert_int_equal(cost_case_build(t->in, c, "imx8mm"), 0);
        struct cost_result res[CP_COUNT];
        run_all(t, res);
        for (int p = 0; p < CP_COUNT; p++) {
            const struct cost_counts *k = &res[p].rec.c;
            assert_int_equal(cost_all(k), sum_sections(k));
            assert_int_equal(cost_total(k, CK_R) + cost_total(k, CK_W) + cost_total(k, CK_B), cost_all(k));
            assert_int_equal(res[p].rec.sec, SEC_EXIT);
            assert_true(cost_section_sum(k, SEC_EXIT) > 0);
            assert_true(cost_section_sum(k, SEC_ENTRY) > 0);
        }
    }
    two_free(t);
}

/* The fastpath saves work in both situations, more without a switch (as
 * the cycle counts of PR #1227 do: 9-54% with, 34-74% without). */
static void test_fastpath_saves_work(void **state)
{
    (void)state;
    struct two *t = two_new();
    uint32_t slow[CS_COUNT], fast[CS_COUNT];
    for (int s = 0; s < CS_COUNT; s++) {
        assert_int_equal(cost_situation_build(t->in, s, "imx8mm"), 0);
        struct cost_result res[CP_COUNT];
        run_all(t, res);
        slow[s] = cost_all(&res[CP_SLOW].rec.c);
        fast[s] = cost_all(&res[CP_PR1227].rec.c);
        assert_true(fast[s] < slow[s]);
        /* the saving is in the scheduling decision above all */
        int32_t d = (int32_t)cost_section_sum(&res[CP_SLOW].rec.c, SEC_SCHED) -
                    (int32_t)cost_section_sum(&res[CP_PR1227].rec.c, SEC_SCHED);
        assert_true(d > 0);
        assert_true((uint32_t)d * 2 > slow[s] - fast[s]);
        /* and the fastpath's entry checks are the price */
        assert_true(cost_section_sum(&res[CP_PR1227].rec.c, SEC_ENTRY) >
                    cost_section_sum(&res[CP_SLOW].rec.c, SEC_ENTRY));
    }
    /* share saved: no switch > switch */
    assert_true((uint64_t)fast[CS_NOSWITCH] * slow[CS_SWITCH] < (uint64_t)fast[CS_SWITCH] * slow[CS_NOSWITCH]);
    two_free(t);
}

/* A fallback costs what the fastpath did before it (its checks), plus the
 * slowpath, less one GIC read and one store: the slowpath's getActiveIRQ
 * finds the IRQ the fastpath kept in active_irq. The proposal changes no
 * state before it falls back, so the outcome is the slowpath's. */
static void test_fallback_overhead(void **state)
{
    (void)state;
    struct two *t = two_new();
    int fell_back = 0;
    for (int c = 0; c < CC_COUNT; c++) {
        assert_int_equal(cost_case_build(t->in, c, "imx8mm"), 0);
        struct cost_result res[CP_COUNT];
        run_all(t, res);
        for (int p = CP_PR1227; p < CP_COUNT; p++) {
            const struct cost_rec *f = &res[p].rec;
            assert_int_equal(f->fell_back, fp_exit_is_fallback(res[p].exit));
            if (!f->fell_back)
                continue;
            int32_t over[CK_COUNT];
            cost_diff(&f->c, &res[CP_SLOW].rec.c, over);
            assert_true(over[CK_R] + over[CK_W] + over[CK_B] > 0);
            assert_true(over[CK_B] > 0);
            if (p != CP_PR1227)
                continue;
            fell_back++;
            assert_int_equal(over[CK_R], (int32_t)cost_total(&f->at_fallback, CK_R) - 1);
            assert_int_equal(over[CK_W], (int32_t)cost_total(&f->at_fallback, CK_W) - 1);
            assert_int_equal(over[CK_B], (int32_t)cost_total(&f->at_fallback, CK_B));
            cost_run(t->in, CP_SLOW, t->plain, &res[CP_SLOW]);
            cost_run(t->in, CP_PR1227, t->out, &res[CP_PR1227]);
            assert_true(ks_same(t->plain, t->out));
        }
    }
    assert_true(fell_back >= 5);
    two_free(t);
}

/* The corrected fastpath's entry checks send the budget, domain and
 * release cases to the slowpath; the proposal handles them itself. */
static void test_fixed_entry_fallbacks(void **state)
{
    (void)state;
    struct two *t = two_new();
    static const struct { int c, exit; } want[] = {
        {CC_BUDGET, FP_SLOW_BUDGET}, {CC_DOM_EXPIRED, FP_SLOW_DOMAIN_EXPIRED}, {CC_RELEASE, FP_SLOW_RELEASE},
        {CC_TIMER, FP_SLOW_NOT_SIGNAL}, {CC_NO_SC, FP_SLOW_NO_SC}, {CC_DOMAIN, FP_SLOW_DOMAIN_CORE},
        {CC_VTABLE, FP_SLOW_VTABLE}, {CC_ASID, FP_SLOW_ASID}, {CC_VMID, FP_SLOW_VMID},
    };
    for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(cost_case_build(t->in, want[i].c, "imx8mm"), 0);
        struct cost_result res[CP_COUNT];
        run_all(t, res);
        assert_int_equal(res[CP_FIXED].exit, want[i].exit);
        if (want[i].exit <= FP_SLOW_RELEASE)
            assert_false(fp_exit_is_fallback(res[CP_PR1227].exit));
        else
            assert_int_equal(res[CP_PR1227].exit, want[i].exit);
    }
    two_free(t);
}

/* The kernel's ready queues have head and tail pointers: enqueueing does
 * not depend on how many threads exist, though the model finds a queue's
 * head by scanning. Threads that take no part change no count. */
static void test_counts_independent_of_bystanders(void **state)
{
    (void)state;
    struct two *t = two_new();
    for (int s = 0; s < CS_COUNT; s++) {
        assert_int_equal(cost_situation_build(t->in, s, "imx8mm"), 0);
        struct cost_result before[CP_COUNT], after[CP_COUNT];
        run_all(t, before);
        for (int i = 0; i < 40; i++) {
            int b = build_thread(t->in, NULL, 10 + i, 0);
            assert_int_not_equal(b, KS_NONE);
            t->in->tcbs[b].state = TS_Inactive;
        }
        tc_assert_valid(t->in, INV_AT_ENTRY);
        run_all(t, after);
        for (int p = 0; p < CP_COUNT; p++)
            assert_memory_equal(&before[p].rec.c, &after[p].rec.c, sizeof before[p].rec.c);
    }
    two_free(t);
}

/* Counting is deterministic: the same run counts the same. */
static void test_counts_repeatable(void **state)
{
    (void)state;
    struct two *t = two_new();
    assert_int_equal(preset_irquser(t->in, "tx1"), 0);
    struct cost_result a[CP_COUNT], b[CP_COUNT];
    run_all(t, a);
    run_all(t, b);
    for (int p = 0; p < CP_COUNT; p++)
        assert_memory_equal(&a[p].rec, &b[p].rec, sizeof a[p].rec);
    two_free(t);
}

/* The printed table: one row per section with the path's counts, and the
 * R+W+B line with the change against the slowpath. */
static void test_print_table(void **state)
{
    (void)state;
    struct two *t = two_new();
    assert_int_equal(preset_noswitch(t->in, "imx8mm"), 0);
    struct cost_result res[CP_COUNT];
    run_all(t, res);
    FILE *f = tmpfile();
    assert_non_null(f);
    cost_print_table(f, res);
    rewind(f);
    char line[256], want[64];
    int rows = 0;
    bool total = false;
    while (fgets(line, sizeof line, f)) {
        for (int s = 0; s < SEC_COUNT; s++) {
            char name[32];
            unsigned v[CP_COUNT][CK_COUNT];
            int n = sscanf(line, " %31s %u %u %u %u %u %u %u %u %u", name, &v[0][0], &v[0][1], &v[0][2], &v[1][0],
                           &v[1][1], &v[1][2], &v[2][0], &v[2][1], &v[2][2]);
            if (n != 10 || strcmp(name, cost_section_name(s)) != 0)
                continue;
            rows++;
            for (int p = 0; p < CP_COUNT; p++)
                for (int k = 0; k < CK_COUNT; k++)
                    assert_int_equal(v[p][k], res[p].rec.c.n[s][k]);
        }
        double slow = cost_all(&res[CP_SLOW].rec.c), fast = cost_all(&res[CP_PR1227].rec.c);
        snprintf(want, sizeof want, "%u (%+.0f%%)", (unsigned)fast, 100.0 * (fast / slow - 1.0));
        total |= strstr(line, "R+W+B") && strstr(line, want);
    }
    fclose(f);
    assert_int_equal(rows, SEC_COUNT);
    assert_true(total);
    assert_string_equal(cost_path_name(CP_FIXED), "fixed");
    assert_string_equal(cost_kind_name(CK_B), "B");
    assert_string_equal(cost_section_name(SEC_COUNT), "?");
    assert_string_equal(cost_case_name(CC_COUNT), "?");
    assert_int_equal(cost_case_build(t->in, CC_COUNT, "imx8mm"), -1);
    assert_int_equal(cost_case_build(t->in, CC_TIMER, "nosuchboard"), -1);
    two_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counting_neutral_presets),
        cmocka_unit_test(test_counting_neutral_generated),
        cmocka_unit_test(test_recorder_not_state),
        cmocka_unit_test(test_noswitch_no_timer_work),
        cmocka_unit_test(test_switch_slowpath_reprograms),
        cmocka_unit_test(test_totals_and_last_section),
        cmocka_unit_test(test_fastpath_saves_work),
        cmocka_unit_test(test_fallback_overhead),
        cmocka_unit_test(test_fixed_entry_fallbacks),
        cmocka_unit_test(test_counts_independent_of_bystanders),
        cmocka_unit_test(test_counts_repeatable),
        cmocka_unit_test(test_print_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
