/*
 * rk_demo: first comparison of irqsim's model with the real kernel. For N
 * generated states (restricted to the build), runs the model slowpath and
 * the real slowpath, and the model fastpath (pr1227) and the real
 * fastpath_irq, normalises each outcome (diff_normalise) and compares
 * (diff_compare). In the printed differences "slow" is the model and
 * "fast" the real kernel.
 *   rk_demo BUILD_DIR [N] [--bench] [--real-diff] [--fixed] [--dump] [--seed S] [--show K]
 * --real-diff compares the real slowpath with the real fastpath_irq instead.
 * --fixed checks the corrected fastpath written as kernel C
 * (real/glue/hk_fixed.c, path HK_PATH_FIXED): against the real slowpath
 * (the verdict diff_run gives, invariants included: it must agree), and
 * the model's corrected fastpath (FP_FIXED) against it (model validation).
 * --dump prints the state of --seed S (restricted to the build) as a scenario.
 * Exit 0 no mismatch, 1 mismatches, 2 usage or load error.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "print.h"
#include "progress.h"
#include "rk_diff.h"
#include "rk_load.h"

static struct kstate in, model, real, real2;
static struct rk_kernel k;

struct tally {
    long n, mismatch, halts, model_asserts, unchanged, switches, ipis, remote;
    long outcome[4];
    long by_field[DF_COUNT];
};

static const char *path_name(int path)
{
    return path == RK_SLOW ? "slowpath" : path == RK_FAST ? "fastpath" : "fixed fastpath";
}

/* the model side of one path: irq_slow.c handleInterruptEntry, or
 * irq_fast.c fastpath_irq with the proposal's fastpath (RK_FAST) or the
 * corrected one (RK_FIXED); returns the fastpath exit (-1 slowpath) */
static int run_model(int path)
{
    int fp_exit = -1;
    ks_copy(&model, &in);
    if (path == RK_SLOW)
        handleInterruptEntry(&model);
    else
        fp_exit = fastpath_irq(&model, path == RK_FIXED ? FP_FIXED : FP_PR1227);
    diff_normalise(&model);
    return fp_exit;
}

static long fixed_exits[FP_EXIT_COUNT];

static void compare_one(int path, uint64_t seed, struct tally *t, int *shown, int show)
{
    struct rk_extra x;
    int fp_exit = run_model(path);
    if (path == RK_FIXED && fp_exit >= 0 && fp_exit < FP_EXIT_COUNT)
        fixed_exits[fp_exit]++;
    int why = rk_run_x(&k, &in, path, &real, &x);
    t->n++;
    if (why >= 0 && why < 4)
        t->outcome[why]++;
    t->unchanged += ks_same(&in, &real); /* the kernel always reads the clock at least */
    t->switches += x.ttbr0_writes > 0;
    t->ipis += real.ipi_sent != 0; /* reschedule SGIs the real kernel sent */
    t->remote += x.remote_calls > 0; /* the other core ran a remote call */
    if (why < 0) {
        fprintf(stderr, "seed %" PRIu64 ": does not fit the build: %s\n", seed, rk_error(&k));
        exit(2);
    }
    if (why == HK_OUT_HALT) {
        t->halts++;
        if ((*shown)++ < show)
            printf("seed %" PRIu64 " %s: real kernel halted: %s\n", seed, path_name(path),
                   x.text[0] ? x.text : "(no text: release build)");
        return;
    }
    if (model.n_asserts)
        t->model_asserts++;
    diff_normalise(&real);
    uint32_t m = diff_compare(&model, &real, NULL);
    if (!m)
        return;
    t->mismatch++;
    for (int f = 0; f < DF_COUNT; f++)
        if (m & (1u << f))
            t->by_field[f]++;
    if ((*shown)++ < show) {
        printf("seed %" PRIu64 " %s: model (slow) vs real (fast) differ:\n", seed, path_name(path));
        diff_compare(&model, &real, stdout);
    }
}

static void report(const char *what, const struct tally *t)
{
    printf("%s: %ld states, %ld mismatches, %ld real-kernel halts, %ld with model asserts\n", what, t->n, t->mismatch,
           t->halts, t->model_asserts);
    printf("  exits: restore_user_context %ld, fastpath_restore %ld, halt %ld; unchanged states %ld; vspace switches %ld; "
           "reschedule IPIs sent %ld; remote calls %ld\n",
           t->outcome[HK_OUT_USER], t->outcome[HK_OUT_FASTPATH], t->outcome[HK_OUT_HALT], t->unchanged, t->switches, t->ipis,
           t->remote);
    for (int f = 0; f < DF_COUNT; f++)
        if (t->by_field[f])
            printf("  %-20s %ld\n", diff_field_name(f), t->by_field[f]);
}

/* load + run + save per path, on pre-generated states */
static void bench(long n, uint64_t seed0)
{
    struct gen_bounds b;
    gen_bounds_default(&b);
    static struct kstate pool[256];
    for (int i = 0; i < 256; i++)
        rk_gen_state(&k, &pool[i], seed0 + (uint64_t)i, &b);
    for (int path = RK_SLOW; path <= RK_FAST; path++) {
        double a = progress_now();
        for (long i = 0; i < n; i++)
            rk_run(&k, &pool[i & 255], path, &real);
        double s = progress_now() - a;
        printf("bench %s: %ld states in %.3f s = %.0f states/s (load+run+save)\n",
               path == RK_SLOW ? "slowpath" : "fastpath", n, s, (double)n / s);
    }
    double a = progress_now();
    for (long i = 0; i < n; i++)
        rk_roundtrip(&k, &pool[i & 255], &real);
    double s = progress_now() - a;
    printf("bench load+save only: %.0f states/s\n", (double)n / s);
}

/* --fixed: the corrected kernel-C fastpath against the real slowpath, and
 * the model's corrected fastpath against it */
static int check_fixed(long n, uint64_t seed0, int show)
{
    struct gen_bounds b;
    gen_bounds_default(&b);
    struct tally model_v = {0};
    long disagree = 0, halts = 0, by[DF_COUNT] = {0};
    int shown_m = 0, shown_r = 0;
    double t0 = progress_now();
    for (long i = 0; i < n; i++) {
        uint64_t seed = seed0 + (uint64_t)i;
        if (rk_gen_state(&k, &in, seed, &b) != 0) {
            fprintf(stderr, "rk_demo: the generator cannot use the configuration of the %s build\n", k.board);
            return 2;
        }
        struct rk_extra xs, xf;
        int ws = rk_run_x(&k, &in, RK_SLOW, &real, &xs);
        int wf = rk_run_x(&k, &in, RK_FIXED, &real2, &xf);
        if (ws < 0 || wf < 0) {
            fprintf(stderr, "seed %" PRIu64 ": %s\n", seed, wf == -1 && ws >= 0 ? "the build has no HK_PATH_FIXED (rebuild it)" : rk_error(&k));
            return 2;
        }
        if (ws == HK_OUT_HALT || wf == HK_OUT_HALT) {
            if (halts++ < show)
                printf("seed %" PRIu64 ": real kernel halted (%s): %s\n", seed, ws == HK_OUT_HALT ? "slowpath" : "fixed fastpath",
                       ws == HK_OUT_HALT ? xs.text : xf.text);
            continue;
        }
        uint32_t m = rk_verdict(&real, &real2, true);
        if (m) {
            disagree++;
            for (int f = 0; f < DF_COUNT; f++)
                by[f] += (m >> f) & 1;
            if (shown_r++ < show) {
                printf("seed %" PRIu64 ": real slowpath vs corrected kernel-C fastpath differ:\n", seed);
                diff_compare(&real, &real2, stdout);
            }
        }
        compare_one(RK_FIXED, seed, &model_v, &shown_m, show);
    }
    double s = progress_now() - t0;
    printf("corrected kernel-C fastpath vs real slowpath: %ld states, %ld disagree, %ld real-kernel halts (%.0f states/s, "
           "each state: model + 3 real entries)\n", n, disagree, halts, (double)n / s);
    for (int f = 0; f < DF_COUNT; f++)
        if (by[f])
            printf("  %-20s %ld\n", diff_field_name(f), by[f]);
    report("fixed fastpath model (FP_FIXED) vs real kernel-C", &model_v);
    long own = 0;
    for (int e = 0; e < FP_EXIT_COUNT; e++)
        if (!fp_exit_is_fallback(e))
            own += fixed_exits[e];
    printf("  model exits (%ld finish by themselves, %.1f%%):", own, 100.0 * (double)own / (double)(n ? n : 1));
    for (int e = 0; e < FP_EXIT_COUNT; e++)
        if (fixed_exits[e])
            printf(" %s %ld", fp_exit_name(e), fixed_exits[e]);
    printf("\n");
    return disagree || halts || model_v.mismatch || model_v.halts ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rk_demo BUILD_DIR [N] [--bench] [--real-diff] [--fixed] [--dump] [--seed S] [--show K]\n");
        return 2;
    }
    long n = 2000;
    int do_bench = 0, show = 3, real_diff = 0, fixed = 0, dump = 0;
    uint64_t seed0 = 1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0)
            do_bench = 1;
        else if (strcmp(argv[i], "--real-diff") == 0)
            real_diff = 1;
        else if (strcmp(argv[i], "--fixed") == 0)
            fixed = 1;
        else if (strcmp(argv[i], "--dump") == 0)
            dump = 1;
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed0 = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--show") == 0 && i + 1 < argc)
            show = atoi(argv[++i]);
        else
            n = atol(argv[i]);
    }
    char err[512];
    if (rk_open(&k, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "rk_demo: %s\n", err);
        return 2;
    }
    if (real_diff) {
        /* real slowpath vs real fastpath_irq: the kernel's own differential */
        struct gen_bounds b;
        gen_bounds_default(&b);
        long diverge = 0, by[DF_COUNT] = {0};
        for (long i = 0; i < n; i++) {
            rk_gen_state(&k, &in, seed0 + (uint64_t)i, &b);
            rk_run(&k, &in, RK_SLOW, &real);
            rk_run(&k, &in, RK_FAST, &real2);
            diff_normalise(&real);
            diff_normalise(&real2);
            uint32_t m = diff_compare(&real, &real2, NULL);
            diverge += m != 0;
            for (int f = 0; f < DF_COUNT; f++)
                by[f] += (m >> f) & 1;
        }
        printf("real slowpath vs real fastpath_irq: %ld states, %ld diverge\n", n, diverge);
        for (int f = 0; f < DF_COUNT; f++)
            if (by[f])
                printf("  %-20s %ld\n", diff_field_name(f), by[f]);
        return 0;
    }
    if (dump) { /* the state of seed S as a scenario file */
        struct gen_bounds b;
        gen_bounds_default(&b);
        if (rk_gen_state(&k, &in, seed0, &b) != 0)
            return 2;
        ks_print(stdout, &in);
        return 0;
    }
    if (do_bench) {
        bench(n, seed0);
        return 0;
    }
    if (fixed)
        return check_fixed(n, seed0, show);
    struct gen_bounds b;
    gen_bounds_default(&b);
    struct tally slow = {0}, fast = {0};
    int shown_s = 0, shown_f = 0;
    for (long i = 0; i < n; i++) {
        uint64_t seed = seed0 + (uint64_t)i;
        if (rk_gen_state(&k, &in, seed, &b) != 0) {
            fprintf(stderr, "rk_demo: the generator cannot use the configuration of the %s build\n", k.board);
            return 2;
        }
        compare_one(RK_SLOW, seed, &slow, &shown_s, show);
        compare_one(RK_FAST, seed, &fast, &shown_f, show);
    }
    report("slowpath model vs real", &slow);
    report("fastpath (pr1227) model vs real", &fast);
    return slow.mismatch || fast.mismatch || slow.halts || fast.halts ? 1 : 0;
}
