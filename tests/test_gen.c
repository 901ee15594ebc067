/*
 * The state generator: every state it builds, from seeds or from raw
 * bytes, under default and extreme bounds, passes the invariant checker
 * (a failure is a generator bug); and it reaches every fastpath exit that
 * a valid state can take.
 */
#include "tcommon.h"

#include "gen.h"
#include "print.h"
#include "target.h"

static void report_invalid(const struct kstate *ks, const struct inv_report *r, uint64_t seed)
{
    print_error("generated state (seed %llu) breaks %d invariant(s):\n", (unsigned long long)seed, r->n);
    for (int i = 0; i < r->n && i < INV_MAX_ITEMS; i++)
        print_error("  %s: %s\n", inv_name(r->items[i].id), r->items[i].msg);
    ks_print(stderr, ks);
}

static void check_many(const struct gen_bounds *b, int n)
{
    struct kstate *ks = tc_state();
    for (int i = 0; i < n; i++) {
        struct gen_src src;
        gen_src_seed(&src, (uint64_t)i);
        assert_int_equal(gen_state(ks, &src, b), 0);
        struct inv_report r;
        if (kstate_check(ks, INV_AT_ENTRY, &r) != 0) {
            report_invalid(ks, &r, (uint64_t)i);
            fail();
        }
    }
    free(ks);
}

static void test_default_bounds_valid(void **state)
{
    (void)state;
    struct gen_bounds b;
    gen_bounds_default(&b);
    check_many(&b, 20000);
}

static void test_extreme_bounds_valid(void **state)
{
    (void)state;
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.max_threads = 62;
    b.prios = 256;
    b.max_refills = 16;
    b.max_domains = 16;
    b.max_ntfns = 16;
    check_many(&b, 3000);
    gen_bounds_default(&b);
    b.max_threads = 1;
    b.prios = 1;
    b.max_refills = 1;
    b.max_domains = 1;
    b.max_ntfns = 1;
    b.allow_smp = false;
    b.edges = false;
    check_many(&b, 3000);
    gen_bounds_default(&b);
    b.realistic = true;
    check_many(&b, 5000);
}

/* libFuzzer hands arbitrary bytes: every byte string makes a valid state. */
/* A kernel build fixes its configuration at compile time: with
 * bounds.config every state carries exactly that configuration (board
 * name, timer, WCET, maxIRQ, GIC, domains, cores, FPU, hypervisor, and the
 * derived constants cfg_derive computes from them) and is valid. The
 * configurations: qemu-arm-virt's (62.5 MHz, maxIRQ 159, GICv2; not a
 * preset), and a 16-domain 2-core build without FPU. */
static void test_fixed_config(void **state)
{
    (void)state;
    struct ks_config cfg[3];
    assert_int_equal(cfg_preset(&cfg[0], "imx8mm"), 0);
    snprintf(cfg[0].board, sizeof cfg[0].board, "qemu-arm-virt");
    cfg[0].timer_hz = 62500000;
    cfg[0].max_irq = 159;
    cfg[0].gic_version = 2;
    cfg[1] = cfg[0];
    cfg[1].num_domains = 16;
    cfg[1].fpu = false;
    cfg[2] = cfg[0]; /* SMP: one domain (config.cmake) */
    cfg[2].smp = true;
    for (int k = 0; k < 3; k++) {
        cfg_derive(&cfg[k]);
        struct gen_bounds b;
        gen_bounds_default(&b);
        b.config = &cfg[k];
        check_many(&b, 2000);
        struct kstate *ks = tc_state();
        for (uint64_t seed = 0; seed < 200; seed++) {
            struct gen_src src;
            gen_src_seed(&src, seed);
            assert_int_equal(gen_state(ks, &src, &b), 0);
            assert_memory_equal(&ks->cfg, &cfg[k], sizeof cfg[k]);
        }
        free(ks);
    }
    struct gen_bounds b;
    gen_bounds_default(&b);
    cfg[0].timer_hz = 0; /* not usable: cfg_validate refuses it */
    b.config = &cfg[0];
    assert_string_equal(gen_bounds_check(&b), "the fixed configuration is not usable");
}

static void test_bytes_valid(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    uint8_t buf[512];
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 5000; i++) {
        size_t len = (size_t)(i % 512);
        for (size_t k = 0; k < len; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[k] = (uint8_t)(i % 3 == 0 ? 0xff : x);
        }
        struct gen_src src;
        gen_src_bytes(&src, buf, len);
        assert_int_equal(gen_state(ks, &src, &b), 0);
        struct inv_report r;
        if (kstate_check(ks, INV_AT_ENTRY, &r) != 0) {
            report_invalid(ks, &r, (uint64_t)i);
            fail();
        }
    }
    free(ks);
}

/* The same seed gives the same state: a finding can be regenerated. */
static void test_deterministic(void **state)
{
    (void)state;
    struct kstate *a = tc_state(), *b2 = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    for (uint64_t seed = 0; seed < 200; seed++) {
        struct gen_src s1, s2;
        gen_src_seed(&s1, seed);
        gen_src_seed(&s2, seed);
        gen_state(a, &s1, &b);
        gen_state(b2, &s2, &b);
        assert_true(ks_same(a, b2));
    }
    free(a);
    free(b2);
}

/* A worker's memo of refill histories (gen_state_cached) changes no
 * state: for every seed, cached and uncached give the same bytes, while
 * one memo serves runs whose timer constants and bounds differ (its key
 * must hold all a history depends on: a missing one would hand a history
 * built under one configuration to another), and a history is read back
 * after it was built. Bounds: default; 16 refills; realistic; master
 * (8 boards); a fixed board; a kernel build's configuration. */
static void test_history_memo(void **state)
{
    (void)state;
    struct kstate *a = tc_state(), *b2 = tc_state();
    struct gen_cache *c = gen_cache_new();
    assert_non_null(c);
    struct ks_config build;
    assert_int_equal(cfg_preset(&build, "zcu106"), 0);
    build.timer_hz = 50000000;
    build.num_domains = 2;
    cfg_derive(&build);
    struct gen_bounds bs[6];
    for (int i = 0; i < 6; i++)
        gen_bounds_default(&bs[i]);
    bs[1].max_refills = 16;
    bs[2].realistic = true;
    bs[3].kernel = KS_KERNEL_MASTER;
    bs[4].board = "tx1";
    bs[5].config = &build;
    for (int round = 0; round < 2; round++) /* the second round reads back */
        for (uint64_t seed = 0; seed < 3000; seed++) {
            const struct gen_bounds *b = &bs[seed % 6];
            struct gen_src s1, s2;
            gen_src_seed(&s1, seed);
            gen_src_seed(&s2, seed);
            assert_int_equal(gen_state(a, &s1, b), 0);
            assert_int_equal(gen_state_cached(b2, &s2, b, c), 0);
            if (!ks_same(a, b2)) {
                print_error("seed %llu, bounds %d: cached state differs\n", (unsigned long long)seed, (int)(seed % 6));
                ks_print(stderr, a);
                ks_print(stderr, b2);
            }
            assert_true(ks_same(a, b2));
            assert_int_equal(s1.rng, s2.rng); /* the same choices were drawn */
        }
    gen_cache_free(c);
    free(a);
    free(b2);
}

static void test_bad_bounds(void **state)
{
    (void)state;
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.max_threads = 0;
    assert_non_null(gen_bounds_check(&b));
    struct kstate *ks = tc_state();
    struct gen_src src;
    gen_src_seed(&src, 1);
    assert_int_equal(gen_state(ks, &src, &b), -1);
    gen_bounds_default(&b);
    b.board = "nosuchboard";
    assert_non_null(gen_bounds_check(&b));
    free(ks);
}

/* Every exit a reachable state can take is taken by some generated state,
 * with each fastpath, slow_refill included: an SC bound to a notification
 * need not be released (decodeSchedContext_Bind checks sc_released only
 * when binding a thread, src/object/schedcontext.c:111 at 43607edb6), so a
 * passive receiver can be donated one whose head refill is in the future. */
static void test_exits_reached(void **state)
{
    (void)state;
    struct kstate *in = tc_state(), *a = tc_state(), *b2 = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    for (int variant = 0; variant < FP_VARIANT_COUNT; variant++) {
        unsigned long seen[FP_EXIT_COUNT] = {0};
        for (uint64_t seed = 0; seed < 60000; seed++) {
            struct gen_src src;
            gen_src_seed(&src, seed);
            gen_state(in, &src, &b);
            struct diff_verdict v;
            diff_run(in, variant, false, &v, a, b2);
            seen[v.exit]++;
        }
        for (int e = 0; e < FP_EXIT_COUNT; e++) {
            bool fixed_only = e < target_irq.first_merged_exit;
            /* every exit: ksReprogram at entry too, which the kernel's
             * own signal fastpath leaves (gen_leftovers) */
            bool expect = variant == FP_FIXED || !fixed_only;
            if (expect != (seen[e] > 0))
                print_error("%s: exit %s taken %lu times\n", fp_variant_name(variant), fp_exit_name(e), seen[e]);
            assert_int_equal(expect, seen[e] > 0);
        }
    }
    free(in);
    free(a);
    free(b2);
}

/* The corrected fastpath agrees with the slowpath on generated states. */
static void test_fixed_agrees(void **state)
{
    (void)state;
    struct kstate *in = tc_state(), *a = tc_state(), *b2 = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    for (uint64_t seed = 0; seed < 20000; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        gen_state(in, &src, &b);
        struct diff_verdict v;
        diff_run(in, FP_FIXED, true, &v, a, b2);
        if (!v.agree) {
            ks_print(stderr, in);
            diff_report(stderr, &v, a, b2);
        }
        assert_true(v.agree);
    }
    free(in);
    free(a);
    free(b2);
}

/* Two cores: in about half the states core 1 runs a thread of its own,
 * picked as its chooseThread picks (gen_core1_thread): the highest
 * priority ready there, dequeued, Running, its SC core 1's; else its idle
 * thread. Every state valid. */
static void test_core1_thread(void **state)
{
    (void)state;
    struct kstate *ks = tc_state();
    struct gen_bounds b;
    gen_bounds_default(&b);
    int smp = 0, runs = 0;
    for (uint64_t seed = 0; seed < 3000; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        assert_int_equal(gen_state(ks, &src, &b), 0);
        if (!ks->cfg.smp)
            continue;
        smp++;
        tc_assert_valid(ks, INV_AT_ENTRY);
        int c1 = ks->core_cur[1];
        if (c1 == ks->core_idle[1])
            continue;
        runs++;
        const struct ks_tcb *t = &ks->tcbs[c1];
        assert_int_equal(t->affinity, 1);
        assert_false(t->queued);
        assert_int_equal(t->state, TS_Running);
        assert_int_equal(ks->core_sc[1], t->sc);
        for (int i = 0; i < ks->n_tcbs; i++)
            if (ks->tcbs[i].queued && ks->tcbs[i].affinity == 1 && ks->tcbs[i].domain == t->domain)
                assert_true(ks->tcbs[i].prio <= t->prio);
    }
    assert_true(smp > 100);
    assert_true(runs > smp / 4 && runs < smp * 3 / 4);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_bounds_valid),
        cmocka_unit_test(test_extreme_bounds_valid),
        cmocka_unit_test(test_fixed_config),
        cmocka_unit_test(test_bytes_valid),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_history_memo),
        cmocka_unit_test(test_bad_bounds),
        cmocka_unit_test(test_exits_reached),
        cmocka_unit_test(test_fixed_agrees),
        cmocka_unit_test(test_core1_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
