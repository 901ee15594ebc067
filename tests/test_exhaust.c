/* test_exhaust: the bounded-exhaustive enumeration (check/exhaust.c) and
 * `irqsim exhaust` (tools/exhaustcmd.c, driven in-process). */
#define _POSIX_C_SOURCE 200809L
#include "tcommon.h"
#include "target.h"

#include <stdbool.h>
#include <unistd.h>

#include "classify.h"
#include "defect.h"
#include "diff.h"
#include "exhaust.h"
#include "target_signal.h"
#include "sig_fast.h"
#include "exhaustcmd.h"
#include "scenario.h"
#include "jval.h"

/* the IRQ target's defects, found by id (their order is its file's) */
#define DEF_COUNT (target_irq.n_defects)
#define DEF_F2 defect_index(&target_irq, "F2")
#define DEF_F6 defect_index(&target_irq, "F6")
#define DEF_F9 defect_index(&target_irq, "F9")

static char dir[64];

static int setup(void **st)
{
    (void)st;
    snprintf(dir, sizeof dir, "/tmp/irqsim-exhaust-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *path(const char *name)
{
    static char buf[8][128];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* exhaust_main with a NULL-terminated argument list after "exhaust" */
static int run(const char *first, ...)
{
    char *argv[40];
    int n = 0;
    argv[n++] = (char *)"exhaust";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && n < 39; a = va_arg(ap, const char *))
        argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    return exhaust_main(n, argv);
}

/* ---- reading the JSON summary ---- */

struct summary {
    uint64_t space, shard_space, enumerated, skipped, checked, diverged;
    bool finished;
    int n_classes;
    char cls[64][160];
    uint64_t cls_count[64], cls_smallest[64];
    char exit[64][40];
    uint64_t defect[DEFECT_MAX], defect_smallest[DEFECT_MAX];
    uint64_t exits_slow_budget, exits_slow_domain, exits_slow_release;
};

static uint64_t u(const struct jval_doc *d, const struct jval *o, const char *key)
{
    const struct jval *v = jval_get(d, o, key);
    assert_non_null(v);
    return v->u;
}

static void load(const char *file, struct summary *s)
{
    memset(s, 0, sizeof *s);
    FILE *f = fopen(file, "r");
    assert_non_null(f);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    struct jval_doc d;
    jval_doc_init(&d);
    char err[128];
    const struct jval *root = jval_parse(&d, text, len, err, sizeof err);
    if (!root)
        fail_msg("%s: %s", file, err);
    s->space = u(&d, root, "space");
    s->shard_space = u(&d, root, "shard_space");
    s->enumerated = u(&d, root, "enumerated");
    s->skipped = u(&d, root, "skipped");
    s->checked = u(&d, root, "checked");
    s->diverged = u(&d, root, "diverged");
    s->finished = jval_get(&d, root, "finished")->u;
    const struct jval *ex = jval_get(&d, root, "exits");
    const struct jval *x;
    if ((x = jval_get(&d, ex, "slow_budget")))
        s->exits_slow_budget = x->u;
    if ((x = jval_get(&d, ex, "slow_domain_expired")))
        s->exits_slow_domain = x->u;
    if ((x = jval_get(&d, ex, "slow_release")))
        s->exits_slow_release = x->u;
    for (const struct jval *c = jval_first(&d, jval_get(&d, root, "classes")); c; c = jval_next(&d, c)) {
        assert_true(s->n_classes < 64);
        snprintf(s->cls[s->n_classes], sizeof s->cls[0], "%s", jval_get(&d, c, "class")->str);
        snprintf(s->exit[s->n_classes], sizeof s->exit[0], "%s", jval_get(&d, c, "exit")->str);
        s->cls_count[s->n_classes] = u(&d, c, "states");
        s->cls_smallest[s->n_classes] = u(&d, c, "smallest_state");
        s->n_classes++;
    }
    for (const struct jval *c = jval_first(&d, jval_get(&d, root, "defects")); c; c = jval_next(&d, c)) {
        const char *id = jval_get(&d, c, "id")->str;
        int k = id[1] - '1';
        assert_true(k >= 0 && k < DEF_COUNT);
        s->defect[k] = u(&d, c, "states");
        s->defect_smallest[k] = u(&d, c, "smallest_state");
    }
    jval_doc_free(&d);
}

static uint64_t class_count(const struct summary *s, const char *name)
{
    for (int i = 0; i < s->n_classes; i++)
        if (!strcmp(s->cls[i], name))
            return s->cls_count[i];
    return 0;
}

/* ---- the space ---- */

/* FNV-1a over the state as ks_same compares it */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t state_hash(const struct kstate *ks)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, ks, offsetof(struct kstate, deadline_writes));
    h = fnv(h, &ks->release_head, offsetof(struct kstate, tcbs) - offsetof(struct kstate, release_head));
    h = fnv(h, ks->tcbs, ks->n_tcbs * sizeof ks->tcbs[0]);
    h = fnv(h, ks->scs, ks->n_scs * sizeof ks->scs[0]);
    h = fnv(h, ks->ntfns, ks->n_ntfns * sizeof ks->ntfns[0]);
    h = fnv(h, ks->eps, ks->n_eps * sizeof ks->eps[0]);
    h = fnv(h, ks->replies, ks->n_replies * sizeof ks->replies[0]);
    h = fnv(h, ks->irq_state, ks->n_irqs);
    h = fnv(h, ks->irq_cap, ks->n_irqs * sizeof ks->irq_cap[0]);
    return h;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every plan builds a state that passes the entry invariants, and no two
 * plans build the same state: a dimension value the builder ignored, or a
 * choice offered where it changes nothing, would make two equal states. */
static void space_valid_distinct(const struct exh_bounds *b)
{
    uint64_t n = exh_count(b);
    assert_true(n > 1000);
    uint64_t *h = malloc(n * sizeof *h);
    struct exh_iter *it = malloc(sizeof *it);
    struct kstate *ks = tc_state();
    assert_non_null(h);
    assert_non_null(it);
    uint64_t k = 0;
    exh_begin(it, b);
    do {
        assert_int_equal(it->ordinal, k);
        assert_int_equal(exh_build(&it->plan, b, ks), 0);
        tc_assert_valid(ks, INV_AT_ENTRY);
        h[k++] = state_hash(ks);
    } while (exh_next(it));
    assert_int_equal(k, n);
    qsort(h, n, sizeof *h, cmp_u64);
    uint64_t dup = 0;
    for (uint64_t i = 1; i < n; i++)
        dup += h[i] == h[i - 1];
    assert_int_equal(dup, 0);
    free(ks);
    free(it);
    free(h);
}

static void test_space_one_thread(void **st)
{
    (void)st;
    struct exh_bounds b = {.target = &target_irq, .threads = 1, .ntfns = 2, .refills = 2, .domains = 2, .board = "imx8mm"};
    space_valid_distinct(&b);
}

static void test_space_two_threads(void **st)
{
    (void)st;
    /* odroidc4: a timer precision of 24 ticks, so the window edge is not WCET */
    struct exh_bounds b = {.target = &target_irq, .threads = 2, .ntfns = 1, .refills = 1, .domains = 1, .board = "odroidc4"};
    space_valid_distinct(&b);
}

/* The signal target: every plan is a SysSend the current thread can make,
 * valid at entry and distinct, on one domain (where the other core's values
 * are, S9's) and on two with two notifications. */
static void test_space_signal(void **st)
{
    (void)st;
    struct exh_bounds b = {.threads = 2, .ntfns = 1, .refills = 1, .domains = 1, .board = "imx8mm",
                           .target = &target_signal};
    space_valid_distinct(&b);
    b = (struct exh_bounds){.threads = 1, .ntfns = 2, .refills = 2, .domains = 2, .board = "imx8mm",
                            .target = &target_signal};
    space_valid_distinct(&b);
}

/* What each signal plan must be, by the kernel: a caller that is not idle,
 * no IRQ taken, no edge past the timer IRQ's window; extra caps only on a
 * notification cap with Send. And per state: on any other cap both variants
 * fall back before changing anything (fastpath.c:580-587), so they agree;
 * an unresolvable extra cap on a fastpath that finishes diverges under
 * merged (the slowpath faults the caller at lookupExtraCaps, syscall.c:335,
 * nothing is signalled; merged signals: S6). */
static void check_signal_plan(const struct exh_plan *p, const struct kstate *ks, struct kstate *slow,
                              struct kstate *fast)
{
    /* the plan's entry dimensions as the signal target chooses them
     * (check/target_signal_entry.c): the cap, the extra caps */
    const int scap = p->entry[0], extra = p->entry[1];
    assert_int_not_equal(p->cur, CUR_IDLE);
    assert_int_not_equal(p->budget_edge, E_PAST_WINDOW);
    assert_int_not_equal(p->dom_edge, E_PAST_WINDOW);
    for (int i = 0; i < p->n_rel; i++)
        assert_int_not_equal(p->rel_time[i], E_PAST_WINDOW);
    assert_true(scap == SCAP_NTFN || extra == XE_NONE);
    assert_int_equal(ks->sys.entry, ENTRY_SIGNAL);
    assert_int_equal(ks->active_irq, KS_IRQ_INVALID);
    struct diff_verdict v;
    diff_run(ks, FP_PR1227, true, &v, slow, fast);
    if (scap != SCAP_NTFN)
        assert_true(v.agree && sig_exit_is_fallback(v.exit));
    if (extra == XE_BAD && !sig_exit_is_fallback(v.exit))
        assert_false(v.agree);
    diff_run(ks, FP_FIXED, true, &v, slow, fast);
    assert_true(v.agree);
    if (extra != XE_NONE) /* slow_msginfo, or an entry check before it */
        assert_true(sig_exit_is_fallback(v.exit));
}

static void test_signal_plans(void **st)
{
    (void)st;
    struct exh_bounds b = {.threads = 2, .ntfns = 1, .refills = 1, .domains = 1, .board = "imx8mm",
                           .target = &target_signal};
    struct exh_iter *it = malloc(sizeof *it);
    struct kstate *ks = tc_state(), *slow = tc_state(), *fast = tc_state();
    assert_non_null(it);
    exh_begin(it, &b);
    do {
        assert_int_equal(exh_build(&it->plan, &b, ks), 0);
        check_signal_plan(&it->plan, ks, slow, fast);
    } while (exh_next(it));
    free(fast);
    free(slow);
    free(ks);
    free(it);
}

/* A larger bound holds every state of a smaller one: its space is larger. */
static void test_space_grows(void **st)
{
    (void)st;
    struct exh_bounds a = {.target = &target_irq, .threads = 1, .ntfns = 1, .refills = 1, .domains = 1, .board = "imx8mm"};
    uint64_t base = exh_count(&a);
    struct exh_bounds b = a;
    b.threads = 2;
    assert_true(exh_count(&b) > base);
    b = a;
    b.refills = 2;
    assert_true(exh_count(&b) > base);
    b = a;
    b.domains = 2;
    assert_true(exh_count(&b) > base);
    b = a;
    b.ntfns = 2;
    assert_true(exh_count(&b) > base);
}

static void test_seek(void **st)
{
    (void)st;
    struct exh_bounds b = {.target = &target_irq, .threads = 1, .ntfns = 1, .refills = 1, .domains = 1, .board = "imx8mm"};
    struct exh_iter *it = malloc(sizeof *it), *again = malloc(sizeof *again);
    exh_begin(it, &b);
    for (int i = 0; i < 777; i++)
        assert_true(exh_next(it));
    assert_int_equal(exh_seek(again, &b, it->digit, it->len, it->ordinal), 0);
    assert_memory_equal(&again->plan, &it->plan, sizeof it->plan);
    assert_true(exh_next(it) && exh_next(again));
    assert_memory_equal(&again->plan, &it->plan, sizeof it->plan);
    uint8_t junk[EXH_MAX_CHOICES];
    memset(junk, 200, sizeof junk);
    assert_int_equal(exh_seek(again, &b, junk, 8, 0), -1);
    free(it);
    free(again);
}

/* ---- the command ---- */

/* The proposal on the one-thread space. Expected from the kernel's
 * semantics (docs/FINDINGS.md), not from a run:
 * - F1: a running thread whose head refill ends MIN_BUDGET - 1 after the
 *   entry clock takes a spurious IRQ: the slowpath charges it
 *   (checkBudget), the proposal's spurious exit does not;
 * - F2: two domains and the domain's end MIN_BUDGET after the clock:
 *   updateTimestamp expires it; the proposal's exits ignore it;
 * - F3: a release-queue head due at the entry clock;
 * - F4, F7, F8: a sporadic (F4, F8) or constant-bandwidth (F7) receiver
 *   whose head refill starts before the entry clock, woken above the idle
 *   thread;
 * - F5: the idle thread runs, a priority-0 handler with a configured SC
 *   is woken: the proposal compares 0 >= 0 and appends;
 * - not F6: with one thread, a direct switch is only from the idle
 *   thread, whose next event (the idle SC's 5 ms or the domain's end) is
 *   never before the handler's, so the kept deadline is never the stale one;
 * - a fallback exit of the proposal happens before it writes anything,
 *   so the slowpath then runs on the entry state: fallbacks never diverge;
 * - every divergence is removed by the corrected fastpath's fixes. */
static void test_pr1227_one_thread(void **st)
{
    (void)st;
    const char *js = path("pr1.json");
    assert_int_equal(run("--fastpath", "pr1227", "--threads", "1", "--refills", "2", "--domains", "2", "--json", js,
                         "--quiet", NULL),
                     1);
    struct summary s;
    load(js, &s);
    assert_true(s.finished);
    assert_int_equal(s.skipped, 0);
    assert_int_equal(s.enumerated, s.space);
    assert_int_equal(s.checked, s.space);
    assert_true(s.diverged > 0 && s.diverged < s.checked);
    assert_true(class_count(&s, "spurious/entry_time+entry_budget") > 0);
    for (int d = 0; d < DEF_COUNT; d++)
        if (d == DEF_F6 || defect_info(&target_irq, d)->needs != KF_NONE || /* exhaust models base ... */
            defect_info(&target_irq, d)->min_cores > 1)                   /* ... on one core */
            assert_int_equal(s.defect[d], 0);
        else if (s.defect[d] == 0)
            fail_msg("defect %s not found", defect_info(&target_irq, d)->id);
    uint64_t sum = 0;
    for (int i = 0; i < s.n_classes; i++) {
        assert_null(strstr(s.cls[i], "unexplained"));
        assert_false(strncmp(s.exit[i], "slow_", 5) == 0);
        sum += s.cls_count[i];
    }
    assert_int_equal(sum, s.diverged);
}

/* F6 needs a direct switch away from a running thread whose deadline is
 * still the earlier one: two threads (the current one and the handler). */
static void test_pr1227_two_threads_f6(void **st)
{
    (void)st;
    const char *js = path("pr2.json");
    const char *out = path("pr2");
    assert_int_equal(run("--threads", "2", "--refills", "1", "--domains", "1", "--json", js, "--out", out, "--quiet",
                         NULL),
                     1);
    struct summary s;
    load(js, &s);
    assert_true(s.defect[DEF_F6] > 0);
    assert_true(class_count(&s, "switch/deadline") > 0);
    assert_int_equal(s.defect[DEF_F2], 0); /* one domain never expires (isCurDomainExpired) */
    /* the smallest state of F6 was written and diverges as said */
    struct kstate *ks = tc_state();
    struct scen_error err;
    char file[160];
    snprintf(file, sizeof file, "%s/F6.scen", out);
    assert_int_equal(scenario_load(file, ks, &err), 0);
    struct tc_run *r = tc_run_new();
    diff_run(ks, FP_PR1227, true, &r->v, r->slow, r->fast);
    assert_false(r->v.agree);
    assert_true(r->v.fields & (1u << DF_DEADLINE));
    diff_run(ks, FP_FIXED, true, &r->v, r->slow, r->fast);
    assert_true(r->v.agree);
    tc_run_free(r);
    free(ks);
}

/* The corrected fastpath: no divergence, and it falls back on the edge
 * states (the space has a current thread past its budget edge, a domain
 * at its end, a release head due at the clock). */
static void test_fixed(void **st)
{
    (void)st;
    const char *js = path("fx.json");
    assert_int_equal(run("--fastpath", "fixed", "--threads", "1", "--refills", "2", "--domains", "2", "--json", js,
                         "--quiet", NULL),
                     0);
    struct summary s;
    load(js, &s);
    assert_int_equal(s.diverged, 0);
    assert_int_equal(s.skipped, 0);
    assert_int_equal(s.checked, s.space);
    assert_true(s.exits_slow_budget > 0 && s.exits_slow_domain > 0 && s.exits_slow_release > 0);
    assert_int_equal(run("--fastpath", "fixed", "--threads", "2", "--refills", "1", "--domains", "1", "--quiet",
                         NULL),
                     0);
}

/* Master (--kernel master): its values (the current thread as FPU owner,
 * the receiver's FPU only under idle, a waiter's stale reply reference,
 * the idle SC at MAX_PERIOD_TICKS) give valid, distinct states. */
static void test_space_master(void **st)
{
    (void)st;
    struct exh_bounds b = {.target = &target_irq, .threads = 1, .ntfns = 2, .refills = 2, .domains = 2, .board = "imx8mm",
                           .kernel = KS_KERNEL_MASTER};
    space_valid_distinct(&b);
    struct exh_bounds base = b;
    base.kernel = KS_KERNEL_BASE;
    assert_true(exh_count(&b) > exh_count(&base)); /* the stale reply doubles the waiting receivers */
}

/* On master's GICv3 (imx8mm) the proposal masks a signalled IRQ that the
 * slowpath leaves unmasked and active until the user's ack (master
 * interrupt.c:232-235, gic_v3.h:345-367): F9, besides the base defects
 * one thread reaches. The smallest F9 state shows exactly that on IRQ 20
 * and agrees under the corrected fastpath (split_eoi fix). On a GICv2
 * board (odroidc4) master masks as base does: no F9. */
static void test_master_pr1227(void **st)
{
    (void)st;
    const char *js = path("m1.json"), *out = path("m1");
    assert_int_equal(run("--kernel", "master", "--threads", "1", "--json", js, "--out", out, "--quiet", NULL), 1);
    struct summary s;
    load(js, &s);
    assert_int_equal(s.skipped, 0);
    assert_int_equal(s.checked, s.space);
    assert_true(s.defect[DEF_F9] > 0);
    for (int d = 0; d < DEF_F9; d++)
        if (d != DEF_F6 && s.defect[d] == 0)
            fail_msg("defect %s not found on master", defect_info(&target_irq, d)->id);
    assert_true(class_count(&s, "ntfn_idle/split_eoi") > 0);
    struct kstate *ks = tc_state();
    struct scen_error err;
    char file[160];
    snprintf(file, sizeof file, "%s/F9.scen", out);
    assert_int_equal(scenario_load(file, ks, &err), 0);
    assert_int_equal(ks->cfg.kernel, KS_KERNEL_MASTER);
    assert_int_equal(ks->active_irq, 20);
    struct tc_run *r = tc_run_new();
    diff_run(ks, FP_PR1227, true, &r->v, r->slow, r->fast);
    assert_false(r->v.agree);
    assert_false(r->slow->irq_masked[20]);
    assert_true(r->slow->irq_active[20]);
    assert_true(r->fast->irq_masked[20]);
    diff_run(ks, FP_FIXED, true, &r->v, r->slow, r->fast);
    assert_true(r->v.agree);
    tc_run_free(r);
    free(ks);
    js = path("m2.json");
    assert_int_equal(run("--kernel", "master", "--board", "odroidc4", "--threads", "1", "--json", js, "--quiet", NULL),
                     1);
    load(js, &s);
    assert_int_equal(s.defect[DEF_F9], 0);
}

static void test_master_fixed(void **st)
{
    (void)st;
    const char *js = path("mf.json");
    assert_int_equal(run("--kernel", "master", "--fastpath", "fixed", "--threads", "1", "--json", js, "--quiet", NULL),
                     0);
    struct summary s;
    load(js, &s);
    assert_int_equal(s.diverged, 0);
    assert_int_equal(s.checked, s.space);
}

static void assert_same_totals(const struct summary *a, const struct summary *b)
{
    assert_int_equal(a->enumerated, b->enumerated);
    assert_int_equal(a->skipped, b->skipped);
    assert_int_equal(a->checked, b->checked);
    assert_int_equal(a->diverged, b->diverged);
    assert_int_equal(a->n_classes, b->n_classes);
    for (int i = 0; i < a->n_classes; i++) {
        assert_int_equal(class_count(b, a->cls[i]), a->cls_count[i]);
    }
    for (int d = 0; d < DEF_COUNT; d++) {
        assert_int_equal(a->defect[d], b->defect[d]);
        assert_int_equal(a->defect_smallest[d], b->defect_smallest[d]);
    }
}

/* The shards are disjoint and together the whole space: their counts add
 * up to the straight run's, class by class. */
static void test_shards(void **st)
{
    (void)st;
    const char *whole = path("whole.json");
    assert_int_equal(run("--threads", "1", "--refills", "1", "--domains", "2", "--json", whole, "--quiet", NULL), 1);
    struct summary w, s[3];
    load(whole, &w);
    uint64_t en = 0, ch = 0, dv = 0, sp = 0;
    for (int k = 0; k < 3; k++) {
        char shard[16], name[32];
        snprintf(shard, sizeof shard, "%d/3", k + 1);
        snprintf(name, sizeof name, "shard%d.json", k + 1);
        const char *js = path(name);
        int rc = run("--threads", "1", "--refills", "1", "--domains", "2", "--shard", shard, "--json", js, "--quiet",
                     NULL);
        assert_true(rc == 0 || rc == 1);
        load(js, &s[k]);
        assert_int_equal(s[k].space, w.space);
        assert_int_equal(s[k].enumerated, s[k].shard_space);
        en += s[k].enumerated;
        ch += s[k].checked;
        dv += s[k].diverged;
        sp += s[k].shard_space;
    }
    assert_int_equal(sp, w.space);
    assert_int_equal(en, w.enumerated);
    assert_int_equal(ch, w.checked);
    assert_int_equal(dv, w.diverged);
    for (int i = 0; i < w.n_classes; i++) {
        uint64_t c = 0;
        for (int k = 0; k < 3; k++)
            c += class_count(&s[k], w.cls[i]);
        assert_int_equal(c, w.cls_count[i]);
    }
}

/* Stopped and resumed (twice), a run ends with the straight run's totals;
 * resuming a finished run reports them again. */
static void test_resume(void **st)
{
    (void)st;
    const char *straight = path("straight.json"), *part = path("part.json"), *state = path("run.state");
    assert_int_equal(run("--threads", "1", "--refills", "2", "--domains", "2", "--json", straight, "--quiet", NULL),
                     1);
    struct summary a, b;
    load(straight, &a);
    int rc = run("--threads", "1", "--refills", "2", "--domains", "2", "--state", state, "--stop-after", "10000",
                 "--json", part, "--quiet", NULL);
    assert_true(rc == 0 || rc == 1);
    load(part, &b);
    assert_false(b.finished);
    assert_int_equal(b.enumerated, 10000);
    rc = run("--threads", "1", "--refills", "2", "--domains", "2", "--state", state, "--stop-after", "25000",
             "--quiet", NULL);
    assert_true(rc == 0 || rc == 1);
    assert_int_equal(run("--threads", "1", "--refills", "2", "--domains", "2", "--state", state, "--json", part,
                         "--quiet", NULL),
                     1);
    load(part, &b);
    assert_true(b.finished);
    assert_same_totals(&a, &b);
    assert_int_equal(run("--threads", "1", "--refills", "2", "--domains", "2", "--state", state, "--json", part,
                         "--quiet", NULL),
                     1);
    load(part, &b);
    assert_same_totals(&a, &b);
    /* the state file of this run does not resume another */
    assert_int_equal(run("--threads", "1", "--refills", "1", "--domains", "2", "--state", state, "--quiet", NULL), 2);
    FILE *f = fopen(state, "w");
    fputs("irqsim-exhaust-state 1\ngarbage here\n", f);
    fclose(f);
    assert_int_equal(run("--threads", "1", "--refills", "2", "--domains", "2", "--state", state, "--quiet", NULL), 2);
}

/* Bad input: exit 2 and a message naming the problem. */
static void expect_usage(const char *want, const char *a, const char *b, const char *c)
{
    const char *errf = path("stderr.txt");
    fflush(stderr);
    int saved = dup(2);
    assert_true(freopen(errf, "w", stderr) != NULL);
    int rc = run(a, b, c, NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(rc, 2);
    FILE *f = fopen(errf, "r");
    char text[2048] = "";
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    if (!strstr(text, want))
        fail_msg("expected '%s' in: %s", want, text);
}

static void test_bad_options(void **st)
{
    (void)st;
    expect_usage("unknown option '--frobnicate'", "--frobnicate", "1", NULL);
    expect_usage("--threads: expected a whole number from 1 to 6, got '0'", "--threads", "0", NULL);
    expect_usage("--threads: expected a whole number from 1 to 6, got '7'", "--threads", "7", NULL);
    expect_usage("--refills: expected a whole number from 1 to 4, got 'two'", "--refills", "two", NULL);
    expect_usage("--domains: expected a whole number from 1 to 2, got '3'", "--domains", "3", NULL);
    expect_usage("--kernel: expected base or master, got 'next'", "--kernel", "next", NULL);
    expect_usage("--ntfns: expected a whole number from 1 to 2, got '-1'", "--ntfns", "-1", NULL);
    expect_usage("--fastpath: the irq target's fastpaths are pr1227|fixed, got 'fast'", "--fastpath", "fast", NULL);
    expect_usage("--board: unknown board 'pc99'", "--board", "pc99", NULL);
    expect_usage("--shard: expected K/N with 1 <= K <= N, got '0/3'", "--shard", "0/3", NULL);
    expect_usage("--shard: expected K/N with 1 <= K <= N, got '4/3'", "--shard", "4/3", NULL);
    expect_usage("--shard: expected K/N with 1 <= K <= N, got '2'", "--shard", "2", NULL);
    expect_usage("--threads needs a value", "--threads", NULL, NULL);
    expect_usage("takes files only with --merge (got 'x.scen')", "x.scen", NULL, NULL);
    expect_usage("--stop-after: expected a whole number from 1, got '0'", "--stop-after", "0", NULL);
}

/* The cases that enumerate a whole bound (a second or more each under the
 * sanitizers): the campaign tier's (tests/CMakeLists.txt, issue 27); the
 * quick tier runs the rest, which still enumerate the smallest bounds. */
static bool campaign_case(const char *name)
{
    static const char *const slow[] = {"test_signal_plans", "test_master_pr1227", "test_space_signal",
                                       "test_fixed", "test_pr1227_two_threads_f6"};
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++)
        if (strcmp(name, slow[i]) == 0)
            return true;
    return false;
}

/* test_exhaust [--quick | --campaign]: one tier's cases, or all */
int main(int argc, char **argv)
{
    int tier = 0; /* 0 all, 1 quick, 2 campaign */
    if (argc == 2 && strcmp(argv[1], "--quick") == 0)
        tier = 1;
    else if (argc == 2 && strcmp(argv[1], "--campaign") == 0)
        tier = 2;
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--quick | --campaign]\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_one_thread),
        cmocka_unit_test(test_space_two_threads),
        cmocka_unit_test(test_space_grows),
        cmocka_unit_test(test_space_signal),
        cmocka_unit_test(test_signal_plans),
        cmocka_unit_test(test_seek),
        cmocka_unit_test(test_pr1227_one_thread),
        cmocka_unit_test(test_pr1227_two_threads_f6),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_space_master),
        cmocka_unit_test(test_master_pr1227),
        cmocka_unit_test(test_master_fixed),
        cmocka_unit_test(test_shards),
        cmocka_unit_test(test_resume),
        cmocka_unit_test(test_bad_options),
    };
    struct CMUnitTest chosen[sizeof tests / sizeof tests[0]];
    size_t n = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (tier == 0 || (tier == 2) == campaign_case(tests[i].name))
            chosen[n++] = tests[i];
    return _cmocka_run_group_tests("test_exhaust", chosen, n, setup, teardown);
}
