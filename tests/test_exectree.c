/* test_exectree: the tree engine of `irqsim exhaust --executions`
 * (check/exectree.c) against the restart engine (check/executions.c):
 * the same distinct entry states (the sets, not only their sizes), the
 * same divergence classes and refusals, every workload of the space
 * covered, the GIC's reruns alike; its visited set skipping where it must
 * and changing no answer; the state hash agreeing with ks_same
 * (check/statehash.c). */
#include "tcommon.h"

#include "classify.h"
#include "executions.h"
#include "exectree.h"
#include "statehash.h"
#include "target.h"

static struct exec_result *result(void)
{
    struct exec_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    return r;
}

static void done(struct exec_result *r)
{
    exec_free(r);
    free(r);
}

static struct exec_opts opts(int depth, int cores, bool signal_fastpath, int variant)
{
    return (struct exec_opts){.depth = depth, .cores = cores, .signal_fastpath = signal_fastpath,
                              .target = &target_irq, .variant = variant, .shard_k = 1, .shard_n = 1};
}

static bool has_class(const struct exec_result *r, const struct dclass *cl)
{
    for (int i = 0; i < r->n_classes; i++)
        if (dclass_same(&r->classes[i].cl, cl))
            return true;
    return false;
}

/* every hash of a's set in b's (with equal sizes: the same set) */
static void assert_same_set(const struct exec_set *a, const struct exec_set *b)
{
    assert_int_equal(a->n, b->n);
    struct exec_set copy = {NULL, 0, 0};
    for (size_t i = 0; i < b->cap; i++)
        if (b->slot[i])
            exec_set_add(&copy, b->slot[i]);
    for (size_t i = 0; i < a->cap; i++)
        if (a->slot[i])
            assert_int_equal(exec_set_add(&copy, a->slot[i]), 0); /* there already */
    exec_set_free(&copy);
}

/* The verdicts of two runs of one space: the same distinct entry states,
 * classes, refusals and whether anything diverged. */
static void assert_same_answers(const struct exec_result *a, const struct exec_result *b)
{
    assert_true(a->distinct > 0);
    assert_int_equal(a->distinct, b->distinct);
    assert_same_set(&a->seen, &b->seen);
    assert_int_equal(a->n_classes, b->n_classes);
    for (int i = 0; i < a->n_classes; i++)
        assert_true(has_class(b, &a->classes[i].cl));
    assert_int_equal(a->refused > 0, b->refused > 0);
    assert_int_equal(a->diverged > 0, b->diverged > 0);
    assert_int_equal(a->setup_refused, b->setup_refused);
}

static void engines_agree(const struct exec_opts *o, int min_classes)
{
    struct exec_result *old = result(), *tree = result();
    struct exec_tree_opts t = {.remember = true, .full_bytes = (size_t)1 << 30};
    assert_int_equal(exec_run(o, old, NULL, NULL, NULL), 0);
    assert_int_equal(exec_tree_run(o, &t, tree, NULL, NULL, NULL), 0);
    assert_same_answers(old, tree);
    assert_true(old->n_classes >= min_classes);
    /* every workload covered, every rerun in another GIC order too */
    assert_false(tree->tree.cut);
    assert_int_equal(tree->tree.covered, old->space);
    assert_int_equal(old->simulated, old->space);
    assert_int_equal(tree->tree.covered_reruns, (uint64_t)(EXEC_GIC_ORDERS - 1) * old->gic_reruns);
    assert_int_equal(tree->gic_reruns, old->gic_reruns);
    /* no more executions than workloads and reruns, fewer kernel entries
     * simulated: the prefixes shared */
    assert_true(tree->tree.leaves <= old->simulated + (EXEC_GIC_ORDERS - 1) * old->gic_reruns);
    assert_true(tree->entries < old->entries);
    assert_int_equal(tree->tree.collisions, 0);
    done(old);
    done(tree);
}

/* depth 1, one core: 490 workloads; the proposal diverges (F4 at least) */
static void test_same_answers_one_core(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 1, false, FP_PR1227);
    engines_agree(&o, 1);
}

/* depth 1, two cores, KernelSignalFastpath beside, the IPI latency
 * enumerated: 980 workloads, lock waits, the GIC's reruns, F10 */
static void test_same_answers_two_cores(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 2, true, FP_PR1227);
    o.ipi_latency = true;
    engines_agree(&o, 5);
}

/* the signal target (its entries SysSends, checked at each) and the
 * master kernel with KernelSignalFastpath beside: the same answers */
static void test_same_answers_signal_master(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 2, false, 0);
    o.target = &target_signal;
    engines_agree(&o, 1);
    o = opts(1, 2, true, FP_PR1227);
    o.kernel = KS_KERNEL_MASTER;
    engines_agree(&o, 1);
}

/* the corrected fastpath: nothing diverges on either engine */
static void test_same_answers_fixed(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 2, true, FP_FIXED);
    struct exec_result *old = result(), *tree = result();
    struct exec_tree_opts t = {.remember = true, .full_bytes = (size_t)1 << 30};
    assert_int_equal(exec_run(&o, old, NULL, NULL, NULL), 0);
    assert_int_equal(exec_tree_run(&o, &t, tree, NULL, NULL, NULL), 0);
    assert_same_answers(old, tree);
    assert_int_equal(tree->diverged, 0);
    assert_int_equal(tree->refused, 0);
    done(old);
    done(tree);
}

/* Depth 2, one core: programs such as "yield,yield" run as "yield" does,
 * so the visited set must meet states again; each skip compared in full
 * (the copies fit), every workload still covered. */
static void test_visited_skips(void **st)
{
    (void)st;
    struct exec_opts o = opts(2, 1, false, FP_PR1227);
    struct exec_result *vis = result();
    struct exec_tree_opts on = {.remember = true, .full_bytes = (size_t)1 << 30};
    assert_int_equal(exec_tree_run(&o, &on, vis, NULL, NULL, NULL), 0);
    assert_true(vis->tree.skipped > 0);
    assert_int_equal(vis->tree.compared, vis->tree.skipped);
    assert_int_equal(vis->tree.hash_only, 0);
    assert_int_equal(vis->tree.collisions, 0);
    assert_true(vis->tree.skipped_covered > 0);
    assert_int_equal(vis->tree.covered, exec_space(&o));
    done(vis);
}

/* ... and the answers are those of the tree without the visited set,
 * which meets no state twice and runs more executions */
static void test_visited_same_answers(void **st)
{
    (void)st;
    struct exec_opts o = opts(2, 1, false, FP_PR1227);
    struct exec_result *all = result(), *vis = result();
    struct exec_tree_opts off = {.remember = false}, on = {.remember = true, .full_bytes = (size_t)1 << 30};
    assert_int_equal(exec_tree_run(&o, &off, all, NULL, NULL, NULL), 0);
    assert_int_equal(exec_tree_run(&o, &on, vis, NULL, NULL, NULL), 0);
    assert_int_equal(all->tree.skipped, 0);
    assert_true(vis->tree.leaves < all->tree.leaves);
    assert_int_equal(all->tree.covered, exec_space(&o));
    assert_int_equal(vis->tree.covered_reruns, all->tree.covered_reruns);
    assert_same_answers(all, vis);
    done(all);
    done(vis);
}

/* With no memory for full copies every skip is on the hash alone, and
 * said so; the answers stay. */
static void test_hash_only_said(void **st)
{
    (void)st;
    struct exec_opts o = opts(2, 1, false, FP_PR1227);
    struct exec_result *r = result();
    struct exec_tree_opts t = {.remember = true, .full_bytes = 0};
    assert_int_equal(exec_tree_run(&o, &t, r, NULL, NULL, NULL), 0);
    assert_true(r->tree.skipped > 0);
    assert_int_equal(r->tree.hash_only, r->tree.skipped);
    assert_int_equal(r->tree.compared, 0);
    assert_int_equal(r->tree.covered, exec_space(&o));
    done(r);
}

/* A stop request ends the tree early: said (cut), not everything covered */
static bool stop_now(void *ctx)
{
    (void)ctx;
    return true;
}

static void test_stop_said(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 1, false, FP_PR1227);
    struct exec_result *r = result();
    struct exec_tree_opts t = {.remember = true};
    assert_int_equal(exec_tree_run(&o, &t, r, NULL, stop_now, NULL), 0);
    assert_true(r->tree.cut);
    assert_true(r->tree.covered < exec_space(&o));
    done(r);
}

/* Every figure of two tree runs equal: the answers, the classes in the
 * order met with their hits and first workloads, the coverage and the
 * tree's own counts (not how a skip was compared: each process has its
 * own memory for full copies). */
static void assert_same_run(const struct exec_result *a, const struct exec_result *b)
{
    assert_same_answers(a, b);
    assert_int_equal(a->simulated, b->simulated);
    assert_int_equal(a->entries, b->entries);
    assert_int_equal(a->checks, b->checks);
    assert_int_equal(a->diverged, b->diverged);
    assert_int_equal(a->refused, b->refused);
    assert_int_equal(a->lock_waits, b->lock_waits);
    assert_int_equal(a->gic_reruns, b->gic_reruns);
    assert_memory_equal(a->exits, b->exits, sizeof a->exits);
    assert_memory_equal(a->sits, b->sits, sizeof a->sits);
    for (int i = 0; i < a->n_classes; i++) {
        assert_true(dclass_same(&a->classes[i].cl, &b->classes[i].cl));
        assert_int_equal(a->classes[i].hits, b->classes[i].hits);
        assert_int_equal(a->classes[i].first, b->classes[i].first);
        assert_int_equal(a->classes[i].first_order, b->classes[i].first_order);
    }
    assert_string_equal(a->refusal, b->refusal);
    assert_int_equal(a->tree.covered, b->tree.covered);
    assert_int_equal(a->tree.covered_reruns, b->tree.covered_reruns);
    assert_int_equal(a->tree.leaves, b->tree.leaves);
    assert_int_equal(a->tree.forks, b->tree.forks);
    assert_int_equal(a->tree.states, b->tree.states);
    assert_int_equal(a->tree.skipped, b->tree.skipped);
    assert_int_equal(a->tree.skipped_covered, b->tree.skipped_covered);
    assert_int_equal(a->tree.cut, b->tree.cut);
}

/* --jobs: the roots in child processes, merged in root order, give the
 * run of one process figure for figure */
static void jobs_agree(const struct exec_opts *o, int jobs)
{
    struct exec_result *one = result(), *par = result();
    struct exec_tree_opts t = {.remember = true, .full_bytes = (size_t)1 << 30};
    assert_int_equal(exec_tree_run(o, &t, one, NULL, NULL, NULL), 0);
    t.jobs = jobs;
    assert_int_equal(exec_tree_run(o, &t, par, NULL, NULL, NULL), 0);
    assert_same_run(one, par);
    assert_int_equal(par->tree.covered, exec_space(o));
    done(one);
    done(par);
}

/* one core: two roots, two jobs; the proposal's classes and their order */
static void test_jobs_same_run(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 1, false, FP_PR1227);
    jobs_agree(&o, 2);
}

/* two cores, the IPI latency enumerated: four roots, three jobs (a root
 * starts when one ends), lock waits, the GIC's reruns */
static void test_jobs_same_run_two_cores(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 2, true, FP_PR1227);
    o.ipi_latency = true;
    jobs_agree(&o, 3);
}

/* --jobs as the command runs it: each root cut at its first choice
 * point into slices, each in a child; the answers and the coverage are
 * one process's (a revisit across slices is explored again: the
 * executions may be more, never fewer) */
static void slices_agree(const struct exec_opts *o, const struct exec_result *one, int slices, int cut_levels)
{
    struct exec_result *par = result();
    struct exec_tree_opts t = {
        .remember = true, .full_bytes = (size_t)1 << 30, .jobs = 2, .slices = slices, .cut_levels = cut_levels};
    assert_int_equal(exec_tree_run(o, &t, par, NULL, NULL, NULL), 0);
    assert_same_answers(one, par);
    assert_int_equal(par->tree.covered, exec_space(o));
    assert_int_equal(par->gic_reruns, one->gic_reruns);
    assert_int_equal(par->tree.covered_reruns, one->tree.covered_reruns);
    assert_false(par->tree.cut);
    if (one->tree.leaves) { /* (a tree run: the restart engine has none) */
        assert_true(par->tree.leaves >= one->tree.leaves);
        assert_true(par->checks >= one->checks);
        /* merged in slice order, the slices runs of consecutive paths: the
         * classes in the order one process met them, its first refusal */
        for (int i = 0; i < one->n_classes; i++) {
            assert_true(dclass_same(&one->classes[i].cl, &par->classes[i].cl));
            assert_int_equal(one->classes[i].first, par->classes[i].first);
        }
        assert_string_equal(one->refusal, par->refusal);
    }
    if (par->tree.leaves == one->tree.leaves) { /* no revisit across slices: the stretch before the cut counted once */
        assert_int_equal(par->entries, one->entries);
        assert_int_equal(par->checks, one->checks);
        assert_int_equal(par->tree.forks, one->tree.forks);
    }
    done(par);
}

/* the whole tree in this process, with its visited set */
static struct exec_result *one_process(const struct exec_opts *o)
{
    struct exec_result *one = result();
    struct exec_tree_opts t = {.remember = true, .full_bytes = (size_t)1 << 30};
    assert_int_equal(exec_tree_run(o, &t, one, NULL, NULL, NULL), 0);
    return one;
}

/* one core: two roots in slices, against one process: cut at the first
 * choice point into its eight choices, and at the first two into 16 and
 * into 64 slices (more slices than paths: some slices empty) */
static void test_slices_same_answers(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 1, false, FP_PR1227);
    struct exec_result *one = one_process(&o);
    slices_agree(&o, one, EXEC_MENU + 1, 1);
    slices_agree(&o, one, 16, 2);
    slices_agree(&o, one, 64, 2);
    done(one);
}

/* depth 2, one core: the first two choice points cut into 16 slices,
 * where the visited set skips below the cut, against one process */
static void test_slices_two_levels_depth2(void **st)
{
    (void)st;
    struct exec_opts o = opts(2, 1, false, FP_PR1227);
    struct exec_result *one = one_process(&o);
    assert_true(one->tree.skipped > 0);
    slices_agree(&o, one, 16, 2);
    done(one);
}

/* two cores, the IPI latency enumerated: four roots in slices, against
 * the restart engine */
static void test_slices_same_answers_restart(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 2, true, FP_PR1227);
    o.ipi_latency = true;
    struct exec_result *old = result();
    assert_int_equal(exec_run(&o, old, NULL, NULL, NULL), 0);
    old->tree.covered_reruns = (uint64_t)(EXEC_GIC_ORDERS - 1) * old->gic_reruns; /* as the tree counts them */
    slices_agree(&o, old, EXEC_MENU + 1, 1);
    slices_agree(&o, old, 16, 2);
    done(old);
}

/* today's bound on two cores (depth 2, no IPI latency): 11 classes,
 * met in an order a slicing that dealt the paths out in turn would not
 * keep (seen: the 16 slices cut at two choice points, merged, against
 * one process) */
static void test_slices_order_two_cores(void **st)
{
    (void)st;
    struct exec_opts o = opts(2, 2, false, FP_PR1227);
    struct exec_result *one = one_process(&o);
    assert_true(one->n_classes >= 10);
    slices_agree(&o, one, 16, 2);
    done(one);
}

/* a stop request with jobs: said (cut), not everything covered */
static void test_jobs_stop_said(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 1, false, FP_PR1227);
    struct exec_result *r = result();
    struct exec_tree_opts t = {.remember = true, .jobs = 2};
    assert_int_equal(exec_tree_run(&o, &t, r, NULL, stop_now, NULL), 0);
    assert_true(r->tree.cut);
    assert_true(r->tree.covered < exec_space(&o));
    done(r);
}

/* exec_merge: counts summed, the sets united (a state in both counted
 * once), classes after the first run's with hits summed and the least
 * first workload, the first run's refusal kept */
static void test_merge(void **st)
{
    (void)st;
    struct exec_result *a = result(), *b = result();
    struct dclass x = {.exit = 1, .fields = 2}, y = {.exit = 3, .fields = 4};
    a->checks = 3;
    b->checks = 4;
    a->distinct += (uint64_t)exec_set_add(&a->seen, 11);
    a->distinct += (uint64_t)exec_set_add(&a->seen, 13);
    b->distinct += (uint64_t)exec_set_add(&b->seen, 13);
    b->distinct += (uint64_t)exec_set_add(&b->seen, 15);
    exec_add_class(a, &x, 50, 0);
    exec_add_class(b, &y, 7, 0);
    exec_add_class(b, &x, 20, 2);
    snprintf(a->refusal, sizeof a->refusal, "first");
    snprintf(b->refusal, sizeof b->refusal, "second");
    b->tree.cut = true;
    exec_merge(a, b);
    assert_int_equal(a->checks, 7);
    assert_int_equal(a->distinct, 3);
    assert_int_equal(a->seen.n, 3);
    assert_int_equal(a->n_classes, 2);
    assert_true(dclass_same(&a->classes[0].cl, &x));
    assert_int_equal(a->classes[0].hits, 2);
    assert_int_equal(a->classes[0].first, 20);
    assert_int_equal(a->classes[0].first_order, 2);
    assert_true(dclass_same(&a->classes[1].cl, &y));
    assert_string_equal(a->refusal, "first");
    assert_true(a->tree.cut);
    done(a);
    done(b);
}

/* equal under ks_same => equal hash: the report-only fields and the
 * bytes past the objects in use do not count; a compared field does */
static void test_hash_agrees_with_ks_same(void **st)
{
    (void)st;
    struct kstate *a = tc_state(), *b = tc_state();
    assert_int_equal(ks_init(a, "imx8mm"), 0);
    ks_add_ntfn(a, "n0");
    ks_copy(b, a);
    b->deadline_writes += 3;
    b->cost = (struct cost_rec *)b;
    b->path = PATH_FAST;
    memset(&b->tcbs[b->n_tcbs], 0x5a, sizeof b->tcbs[0]); /* past the threads in use */
    assert_true(ks_same(a, b));
    assert_int_equal(sh_kstate64(a), sh_kstate64(b));
    b->ntfns[0].msg_id = 7;
    assert_false(ks_same(a, b));
    assert_true(sh_kstate64(a) != sh_kstate64(b));
    free(a);
    free(b);
}

/* the space's index of a point, and its text, as the restart engine
 * names its workloads: the IPI latency's block after the rest */
static void test_index(void **st)
{
    (void)st;
    struct exec_opts o = opts(1, 2, true, FP_PR1227);
    o.ipi_latency = true;
    assert_int_equal(exec_space(&o), 980);
    struct exec_point x = {3, 6, 0, 1, 0}; /* a waits on n1, b raises a's priority, IRQ 40 never, latency 40 */
    char text[2048];
    uint64_t i = exec_index(&o, &x);
    assert_true(i < 490);
    assert_int_equal(exec_workload_text(&o, i, text, sizeof text), 0);
    assert_non_null(strstr(text, "prog=wait:n1,loop"));
    assert_non_null(strstr(text, "prog=prio:a:25,loop"));
    assert_non_null(strstr(text, "at=9000"));
    assert_non_null(strstr(text, "entry_latency 40"));
    assert_null(strstr(text, "ipi_latency"));
    x.ipi = 1;
    assert_int_equal(exec_index(&o, &x), i + 490);
    assert_int_equal(exec_workload_text(&o, i + 490, text, sizeof text), 0);
    assert_non_null(strstr(text, "ipi_latency " EXEC_IPI_LATENCY_TEXT));
}

/* the quick tier's cases, and (--campaign) those that enumerate bigger
 * spaces twice: under the sanitizers they take minutes */
int main(int argc, char **argv)
{
    const struct CMUnitTest quick[] = {
        cmocka_unit_test(test_hash_agrees_with_ks_same),
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_stop_said),
        cmocka_unit_test(test_same_answers_one_core),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_jobs_same_run),
        cmocka_unit_test(test_jobs_stop_said),
        cmocka_unit_test(test_slices_same_answers),
    };
    const struct CMUnitTest campaign[] = {
        cmocka_unit_test(test_visited_skips),
        cmocka_unit_test(test_same_answers_two_cores),
        cmocka_unit_test(test_same_answers_fixed),
        cmocka_unit_test(test_same_answers_signal_master),
        cmocka_unit_test(test_visited_same_answers),
        cmocka_unit_test(test_hash_only_said),
        cmocka_unit_test(test_jobs_same_run_two_cores),
        cmocka_unit_test(test_slices_same_answers_restart),
        cmocka_unit_test(test_slices_order_two_cores),
        cmocka_unit_test(test_slices_two_levels_depth2), /* (30 s of the quick tier's under the sanitizers) */
    };
    if (argc > 1 && strcmp(argv[1], "--campaign") == 0)
        return cmocka_run_group_tests(campaign, NULL, NULL);
    return cmocka_run_group_tests(quick, NULL, NULL);
}
