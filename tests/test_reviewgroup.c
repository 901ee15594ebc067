/*
 * The defect groups of `irqsim review` (tools/reviewgroup.c, issue 30 item
 * 3): a configuration's new kinds, hand-built here as review.c would count
 * them, grouped by what behaves differently. Each case says why the kinds
 * belong together or apart; the counts asserted are sums worked out from
 * the kinds the case builds, not a run's output.
 */
#include "tcommon.h"

#include "classify.h"
#include "defect.h"
#include "review.h"
#include "reviewgroup.h"
#include "target.h"

/* A result against a baseline, with no kinds yet. */
static struct review_result *res_new(void)
{
    struct review_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->has_base = true;
    snprintf(r->side[0].build, sizeof r->side[0].build, "/cache/tree-build");
    return r;
}

/* Add a kind of the IRQ target: check, fields, states on the tree and on
 * the baseline, first seed. */
static struct review_kind *kind(struct review_result *r, int check, uint32_t fields, uint64_t tree, uint64_t base,
                                uint64_t seed)
{
    assert_true(r->n_kinds < REVIEW_MAX_KINDS);
    struct review_kind *k = &r->kinds[r->n_kinds++];
    memset(k, 0, sizeof *k);
    k->target = RV_T_FIRST;
    k->check = check;
    k->fields = fields;
    k->count[0] = tree;
    k->count[1] = base;
    k->seed[0] = seed;
    return k;
}

/* A kind the model's cause explains, marked known as review.c does. */
static struct review_kind *known_kind(struct review_result *r, uint32_t fields, unsigned cause, uint64_t tree,
                                      uint64_t base)
{
    struct review_kind *k = kind(r, RV_FUZZ, fields, tree, base, 1);
    k->cause = cause;
    k->known = cause_defects(&target_irq, cause) != 0;
    return k;
}

#define F(x) (1u << (x))

/* F6 is the deadline fix's defect (target_irq.c's table): the cause the
 * cases use for "a known defect". */
static unsigned f6_cause(void)
{
    unsigned cause = FIX(FIX_DEADLINE);
    assert_int_equal(cause_defects(&target_irq, cause), 1u << defect_index(&target_irq, "F6"));
    return cause;
}

/* An injected bug in fastpath_irq (the badge register left unset, say)
 * shows as many field combinations on three checks: the real fastpath
 * against the real slowpath (RV_FUZZ; unexplained, or with a defect the
 * baseline shows too on the same states, so only the fields are new), the
 * model of PR #1227 against it (RV_VAL_FAST) and the tree's fastpath
 * against the baseline's (RV_FAST_VS_BASE, diverging from the tree's
 * slowpath). Every one is about the tree's fastpath_irq: one group. */
static void test_injected_fastpath_bug(void **state)
{
    (void)state;
    struct review_result *r = res_new();
    unsigned f6 = f6_cause();
    /* 10 unexplained fuzz kinds: badge_register with one other field each,
     * 10 + 11 + ... + 19 = 145 states */
    static const int other[10] = {DF_CUR_THREAD, DF_SCHED_ACTION, DF_READY_QUEUES, DF_THREAD_STATE, DF_REFILLS,
                                  DF_DEADLINE, DF_NTFN, DF_TCB_SC, DF_IRQ_MASK, DF_IRQ_ACK};
    for (int i = 0; i < 10; i++)
        kind(r, RV_FUZZ, F(DF_BADGE_REG) | F(other[i]), (uint64_t)(10 + i), 0, (uint64_t)(100 + i));
    /* 5 fuzz kinds the model puts on F6, whose fields (deadline with the
     * badge) the baseline never showed, though it shows F6 (below):
     * 5 states each, 25 */
    for (int i = 0; i < 5; i++)
        known_kind(r, F(DF_DEADLINE) | F(DF_BADGE_REG) | F(other[i]), f6, 5, 0);
    /* the baseline's own F6 divergence, the tree no longer shows in these
     * fields: gone, not new, in no group; the baseline's states on F6 */
    known_kind(r, F(DF_DEADLINE), f6, 0, 40);
    r->side[1].t_defects[RV_T_FIRST][defect_index(&target_irq, "F6")] = 40;
    /* 10 mismatches of the model with the tree's fastpath: 10 x 16 = 160 states */
    for (int i = 0; i < 10; i++)
        kind(r, RV_VAL_FAST, F(DF_BADGE_REG) | F(other[i]) | F(DF_CONSUMED), 16, 0, (uint64_t)(200 + i));
    /* 5 changes against the baseline's fastpath: 5 x 20 = 100 states */
    for (int i = 0; i < 5; i++)
        kind(r, RV_FAST_VS_BASE, F(DF_BADGE_REG), 20, 0, (uint64_t)(300 + i))->change = RV_CH_DIVERGES;
    r->t_changed[RV_T_FIRST][1] = 100;
    struct review_group g[REVIEW_MAX_GROUPS];
    int left;
    assert_int_equal(review_groups(r, 0, g, REVIEW_MAX_GROUPS, &left), 1);
    assert_int_equal(left, 0);
    assert_int_equal(g[0].key.by, RG_PATH);
    assert_int_equal(g[0].key.path, RG_FAST);
    assert_int_equal(g[0].kinds, 30);
    /* per check: fuzz 145 + 25 = 170, validate 160, against the baseline
     * 100; a state is in one kind per check, so at least 170 states */
    assert_int_equal(g[0].states, 170);
    /* badge_register is in every kind: 170 + 160 + 100 = 430 states; the
     * next, node_consumed, in the 160 of the model's */
    char text[400];
    assert_string_equal(review_group_fields(&g[0], 2, text, sizeof text),
                        "badge_register, node_consumed +10 more");
    /* the third, timer_deadline, is in 15 + 16 + 25 = 56 states, under a
     * quarter of badge_register's 430: counted, not named */
    assert_string_equal(review_group_fields(&g[0], 3, text, sizeof text),
                        "badge_register, node_consumed +10 more");
    review_group_label(&g[0], text, sizeof text);
    assert_non_null(strstr(text, "unexplained: the tree's fastpath_irq differs from its slowpath, the baseline's "
                                 "and the model in badge_register"));
    assert_int_equal(g[0].first_seed, 1);
    free(r);
}

/* The smallest reproducer is a divergence of the tree's fastpath from its
 * own slowpath no known defect explains, then the smallest state: a model
 * mismatch's smaller state is not replayed by check --real (it does not
 * run the model's fastpath against the kernel's), a change against the
 * baseline's is replayed but unclassified, and the smallest state of all
 * shows F6 mixed with the group's difference: all lose to the next
 * smallest. */
static void test_smallest_reproducer(void **state)
{
    (void)state;
    struct review_result *r = res_new();
    char a[] = "out/a.scen", b[] = "out/b.scen", c[] = "out/c.scen", cmd[300];
    struct review_kind *k = kind(r, RV_FUZZ, F(DF_BADGE_REG), 30, 0, 5);
    k->reproducer = a, k->size = 9;
    k = kind(r, RV_FUZZ, F(DF_BADGE_REG) | F(DF_NTFN), 3, 0, 8);
    k->reproducer = b, k->size = 6;
    k = kind(r, RV_VAL_FAST, F(DF_BADGE_REG), 30, 0, 2);
    k->reproducer = c, k->size = 2;
    kind(r, RV_FUZZ, F(DF_BADGE_REG) | F(DF_CUR_THREAD), 1, 0, 9); /* no reproducer (past a failed write) */
    /* smaller, replayed, but the tree against the baseline: no cause is
     * computed for it, the state may show a known defect too */
    k = kind(r, RV_FAST_VS_BASE, F(DF_BADGE_REG), 30, 0, 3);
    k->reproducer = c, k->size = 3;
    /* the smallest of all, but F6 beside the group's difference */
    k = known_kind(r, F(DF_BADGE_REG) | F(DF_DEADLINE), f6_cause(), 2, 0);
    k->reproducer = a, k->size = 1;
    r->side[1].t_defects[RV_T_FIRST][defect_index(&target_irq, "F6")] = 2; /* the baseline shows F6: in the group */
    struct review_group g[4];
    int left;
    assert_int_equal(review_groups(r, 0, g, 4, &left), 1);
    assert_ptr_equal(g[0].repro.kind, &r->kinds[1]);
    assert_string_equal(review_group_replay(&g[0], cmd, sizeof cmd), "irqsim check --real /cache/tree-build out/b.scen");
    /* without --out no kind has one: no command, the writers say how */
    for (int i = 0; i < r->n_kinds; i++)
        r->kinds[i].reproducer = NULL;
    review_groups(r, 0, g, 4, &left);
    assert_null(g[0].repro.kind);
    assert_string_equal(review_group_replay(&g[0], cmd, sizeof cmd), "");
    free(r);
}

/* A known defect the baseline never shows (a tree that brought F6 back,
 * against a baseline without it) is that defect's group, apart from an
 * unexplained divergence of the same fastpath; a defect the baseline
 * shows is not the tree's. */
static void test_known_defect_group(void **state)
{
    (void)state;
    struct review_result *r = res_new();
    unsigned f6 = f6_cause();
    known_kind(r, F(DF_DEADLINE), f6, 12, 0);
    known_kind(r, F(DF_DEADLINE) | F(DF_REPROGRAM), f6, 3, 0);
    kind(r, RV_FUZZ, F(DF_BADGE_REG), 4, 0, 7);
    struct review_group g[4];
    int left;
    assert_int_equal(review_groups(r, 0, g, 4, &left), 2);
    /* the most states first: F6's 12 + 3 */
    assert_int_equal(g[0].key.by, RG_DEFECT);
    assert_int_equal(g[0].key.defects, 1u << defect_index(&target_irq, "F6"));
    assert_int_equal(g[0].states, 15);
    assert_int_equal(g[0].kinds, 2);
    char text[400];
    assert_string_equal(review_group_id(&g[0], text, sizeof text), "irq:defect:F6");
    assert_non_null(strstr(review_group_label(&g[0], text, sizeof text), "model cause F6: "));
    assert_int_equal(g[1].key.by, RG_PATH);
    assert_int_equal(g[1].states, 4);
    /* the model puts a new kind on F4 alone, which the baseline shows only
     * beside F8 (no kind of its is F4 alone): F4 is no defect of the tree's
     * own, so the kind is the tree's fastpath's, with the unexplained one */
    unsigned f4 = cause_of_text(&target_irq, "entry_time");
    int i4 = defect_index(&target_irq, "F4"), i8 = defect_index(&target_irq, "F8");
    assert_int_equal(cause_defects(&target_irq, f4), 1u << i4);
    known_kind(r, F(DF_BADGE_REG), f4, 30, 0);
    r->side[1].t_defects[RV_T_FIRST][i4] = r->side[1].t_defects[RV_T_FIRST][i8] = 9;
    assert_int_equal(review_groups(r, 0, g, 4, &left), 2);
    assert_int_equal(g[0].key.by, RG_PATH);
    assert_int_equal(g[0].states, 34);
    assert_int_equal(g[1].key.by, RG_DEFECT);
    /* without a baseline a known kind is not new (review_kind_new): nothing
     * but the unexplained one is grouped */
    r->has_base = false;
    assert_int_equal(review_groups(r, 0, g, 4, &left), 1);
    assert_int_equal(g[0].key.by, RG_PATH);
    free(r);
}

/* A bug in the slowpath: the tree's slowpath differs from the baseline's
 * (RV_SLOW_VS_BASE) and from the model (RV_VAL_SLOW), and so the tree's
 * unchanged fastpath now diverges from it (new RV_FUZZ kinds) while its
 * own changes only follow the slowpath (a fallback). All of it is the
 * slowpath's: one group. With a change of the fastpath of its own beside
 * it, the fuzz kinds cannot be put on the slowpath: two groups. */
static void test_slowpath_change(void **state)
{
    (void)state;
    struct review_result *r = res_new();
    kind(r, RV_SLOW_VS_BASE, F(DF_DOMAIN) | F(DF_CUR_THREAD), 40, 0, 3);
    kind(r, RV_SLOW_VS_BASE, F(DF_DOMAIN), 25, 0, 4);
    kind(r, RV_VAL_SLOW, F(DF_DOMAIN), 65, 0, 3);
    kind(r, RV_FUZZ, F(DF_DOMAIN), 20, 0, 6);
    kind(r, RV_FAST_VS_BASE, F(DF_DOMAIN), 9, 0, 5)->change = RV_CH_FOLLOWS; /* not new */
    r->t_changed[RV_T_FIRST][0] = 65;
    r->t_changed[RV_T_FIRST][1] = 9;
    struct review_group g[4];
    int left;
    assert_int_equal(review_groups(r, 0, g, 4, &left), 1);
    assert_int_equal(g[0].key.path, RG_SLOW);
    assert_int_equal(g[0].kinds, 4);
    assert_int_equal(g[0].states, 65); /* slowpath vs baseline 40 + 25, the model 65, fuzz 20 */
    char text[400];
    assert_string_equal(review_group_id(&g[0], text, sizeof text), "irq:path:slowpath");
    kind(r, RV_FAST_VS_BASE, F(DF_BADGE_REG), 2, 0, 8); /* RV_CH_DIVERGES: the fastpath's own */
    assert_int_equal(review_groups(r, 0, g, 4, &left), 2);
    assert_int_equal(g[0].key.path, RG_SLOW);
    assert_int_equal(g[0].states, 65);
    assert_int_equal(g[1].key.path, RG_FAST);
    assert_int_equal(g[1].states, 20); /* fuzz 20, against the baseline 2 */
    free(r);
}

/* The same assertion, whichever real path of the tree halted in it and
 * whichever check saw it, is one group keyed by its text; another
 * assertion is another group; an assertion the baseline halts in too is
 * no new halt. */
static void test_halts(void **state)
{
    (void)state;
    struct review_result *r = res_new();
    struct review_kind *k = kind(r, RV_FUZZ, 0, 3, 0, 1);
    k->halt = true;
    snprintf(k->text, sizeof k->text, "fastpath: assertion 'x' failed at fastpath.c in function fastpath_irq");
    k = kind(r, RV_VAL_FAST, 0, 3, 0, 1);
    k->halt = true;
    snprintf(k->text, sizeof k->text, "assertion 'x' failed at fastpath.c in function fastpath_irq");
    k = kind(r, RV_SLOW_VS_BASE, 0, 1, 0, 2);
    k->halt = true;
    snprintf(k->text, sizeof k->text, "tree: assertion 'y' failed at sched.c in function f");
    struct review_group g[4];
    int left;
    assert_int_equal(review_groups(r, 0, g, 4, &left), 2);
    assert_int_equal(g[0].key.by, RG_HALT);
    assert_string_equal(g[0].key.text, "assertion 'x' failed at fastpath.c in function fastpath_irq");
    assert_int_equal(g[0].kinds, 2);
    assert_int_equal(g[0].states, 3);
    assert_string_equal(g[1].key.text, "assertion 'y' failed at sched.c in function f");
    /* the baseline's fastpath halts in 'x' too, on other states: the tree's
     * fastpath reaching it more often is the fastpath's group, not a halt's */
    k = kind(r, RV_FUZZ, 0, 0, 5, 1);
    k->halt = true;
    snprintf(k->text, sizeof k->text, "fastpath: assertion 'x' failed at fastpath.c in function fastpath_irq");
    assert_int_equal(review_groups(r, 0, g, 4, &left), 2);
    assert_int_equal(g[0].key.by, RG_PATH);
    assert_int_equal(g[0].key.path, RG_FAST);
    assert_int_equal(g[0].kinds, 2);
    assert_int_equal(g[1].key.by, RG_HALT);
    free(r);
}

/* The matrix: the same bug in two configurations is one line naming both,
 * its states the sum (different configurations run different states); a
 * group of one configuration only stays its own. Too many groups for the
 * room given: the kinds left over are counted, never dropped silently. */
static void test_across_configurations(void **state)
{
    (void)state;
    struct review_result *r = calloc(2, sizeof *r);
    assert_non_null(r);
    for (int i = 0; i < 2; i++) {
        r[i].has_base = true;
        kind(&r[i], RV_FUZZ, F(DF_BADGE_REG), (uint64_t)(10 * (i + 1)), 0, 1);
    }
    kind(&r[1], RV_SLOW_VS_BASE, F(DF_DOMAIN), 4, 0, 1);
    struct review_group g[4];
    int left;
    assert_int_equal(review_groups_all(r, 2, g, 4, &left), 2);
    assert_int_equal(left, 0);
    assert_int_equal(g[0].key.path, RG_FAST);
    assert_int_equal(g[0].states, 30);
    assert_int_equal(g[0].configs, 3u);
    assert_int_equal(g[1].key.path, RG_SLOW);
    assert_int_equal(g[1].configs, 2u);
    assert_int_equal(review_groups_all(r, 2, g, 1, &left), 1);
    assert_int_equal(left, 1);
    free(r);
}

/* --configs: the matrix's options, hyp among them (issue 29 item 3:
 * KernelArmHypervisorSupport builds), and bad ones named */
static void test_parse_configs(void **state)
{
    (void)state;
    struct review_config c[4];
    char why[200], name[96];
    assert_int_equal(review_parse_configs("imx8mm-evk:debug:hyp,odroidc4:c2", c, 4, why, sizeof why), 2);
    assert_true(c[0].hyp && c[0].debug);
    assert_false(c[1].hyp);
    assert_int_equal(c[1].cores, 2);
    assert_string_equal(review_config_name(&c[0], name, sizeof name), "imx8mm-evk, debug, 1 core, 1 domain, hypervisor");
    assert_string_equal(review_config_name(&c[1], name, sizeof name), "odroidc4, release, 2 cores, 1 domain");
    assert_int_equal(review_parse_configs("imx8mm-evk:hypervisor", c, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "'hypervisor': a configuration's options are debug, release, hyp"));
}

/* RV_TARGETS is the number of registered targets with a real-kernel
 * driver: the review runs each, the first the default */
static void test_review_targets(void **state)
{
    (void)state;
    for (int t = 0; t < RV_TARGETS; t++)
        assert_non_null(review_target_of(t));
    assert_null(review_target_of(RV_TARGETS));
    assert_ptr_equal(review_target_of(RV_T_FIRST), target_default());
    char buf[120];
    assert_string_equal(review_check_name(RV_T_FIRST, RV_VAL_FAST, buf, sizeof buf),
                        "model of PR #1227 against the real fastpath_irq");
    assert_string_equal(review_check_name(RV_T_FIRST, RV_SLOW_VS_BASE, buf, sizeof buf),
                        "the tree's slowpath against the baseline's");
    const struct target *sig = target_by_name("signal");
    for (int t = 0; t < RV_TARGETS; t++)
        if (review_target_of(t) == sig) { /* no corrected fastpath in kernel C */
            assert_string_equal(review_check_name(t, RV_FUZZ_FIXED, buf, sizeof buf), "?");
            assert_string_equal(review_check_name(t, RV_SLOW_VS_BASE, buf, sizeof buf),
                                "the tree's slowpath (SysSend) against the baseline's");
        }
    assert_string_equal(review_check_name(RV_TARGETS, RV_FUZZ, buf, sizeof buf), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_injected_fastpath_bug), cmocka_unit_test(test_smallest_reproducer),
        cmocka_unit_test(test_known_defect_group),    cmocka_unit_test(test_slowpath_change),
        cmocka_unit_test(test_halts),                 cmocka_unit_test(test_across_configurations),
        cmocka_unit_test(test_parse_configs),
        cmocka_unit_test(test_review_targets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
