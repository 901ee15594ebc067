/*
 * rk_demo: first comparison of irqsim's model with the real kernel. For N
 * generated states (restricted to the build), runs the model slowpath and
 * the real slowpath, and the model fastpath (pr1227) and the real
 * fastpath_irq, normalises each outcome (diff_normalise) and compares
 * (diff_compare). In the printed differences "slow" is the model and
 * "fast" the real kernel.
 *   rk_demo BUILD_DIR [N] [--bench] [--real-diff] [--seed S] [--show K]
 * --real-diff compares the real slowpath with the real fastpath_irq instead.
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
#include "rk_load.h"

static struct kstate in, model, real, real2;
static struct rk_kernel k;

struct tally {
    long n, mismatch, halts, model_asserts, unchanged, switches;
    long outcome[4];
    long by_field[DF_COUNT];
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the model side of one path: irq_slow.c handleInterruptEntry or
 * irq_fast.c fastpath_irq with the proposal's fastpath */
static void run_model(int path)
{
    ks_copy(&model, &in);
    if (path == RK_SLOW)
        handleInterruptEntry(&model);
    else
        fastpath_irq(&model, FP_PR1227);
    diff_normalise(&model);
}

static void compare_one(int path, uint64_t seed, struct tally *t, int *shown, int show)
{
    struct rk_extra x;
    run_model(path);
    int why = rk_run_x(&k, &in, path, &real, &x);
    t->n++;
    if (why >= 0 && why < 4)
        t->outcome[why]++;
    t->unchanged += ks_same(&in, &real); /* the kernel always reads the clock at least */
    t->switches += x.ttbr0_writes > 0;
    if (why < 0) {
        fprintf(stderr, "seed %" PRIu64 ": does not fit the build: %s\n", seed, rk_error(&k));
        exit(2);
    }
    if (why == HK_OUT_HALT) {
        t->halts++;
        if ((*shown)++ < show)
            printf("seed %" PRIu64 " %s: real kernel halted: %s\n", seed, path == RK_SLOW ? "slowpath" : "fastpath",
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
        printf("seed %" PRIu64 " %s: model (slow) vs real (fast) differ:\n", seed,
               path == RK_SLOW ? "slowpath" : "fastpath");
        diff_compare(&model, &real, stdout);
    }
}

static void report(const char *what, const struct tally *t)
{
    printf("%s: %ld states, %ld mismatches, %ld real-kernel halts, %ld with model asserts\n", what, t->n, t->mismatch,
           t->halts, t->model_asserts);
    printf("  exits: restore_user_context %ld, fastpath_restore %ld, halt %ld; unchanged states %ld; vspace switches %ld\n",
           t->outcome[HK_OUT_USER], t->outcome[HK_OUT_FASTPATH], t->outcome[HK_OUT_HALT], t->unchanged, t->switches);
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
        double a = now_s();
        for (long i = 0; i < n; i++)
            rk_run(&k, &pool[i & 255], path, &real);
        double s = now_s() - a;
        printf("bench %s: %ld states in %.3f s = %.0f states/s (load+run+save)\n",
               path == RK_SLOW ? "slowpath" : "fastpath", n, s, (double)n / s);
    }
    double a = now_s();
    for (long i = 0; i < n; i++)
        rk_roundtrip(&k, &pool[i & 255], &real);
    double s = now_s() - a;
    printf("bench load+save only: %.0f states/s\n", (double)n / s);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rk_demo BUILD_DIR [N] [--bench] [--seed S] [--show K]\n");
        return 2;
    }
    long n = 2000;
    int do_bench = 0, show = 3, real_diff = 0;
    uint64_t seed0 = 1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0)
            do_bench = 1;
        else if (strcmp(argv[i], "--real-diff") == 0)
            real_diff = 1;
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
    if (do_bench) {
        bench(n, seed0);
        return 0;
    }
    struct gen_bounds b;
    gen_bounds_default(&b);
    struct tally slow = {0}, fast = {0};
    int shown_s = 0, shown_f = 0;
    for (long i = 0; i < n; i++) {
        uint64_t seed = seed0 + (uint64_t)i;
        if (rk_gen_state(&k, &in, seed, &b) != 0) {
            fprintf(stderr, "rk_demo: the generator has no preset matching board %s\n", k.board);
            return 2;
        }
        compare_one(RK_SLOW, seed, &slow, &shown_s, show);
        compare_one(RK_FAST, seed, &fast, &shown_f, show);
    }
    report("slowpath model vs real", &slow);
    report("fastpath (pr1227) model vs real", &fast);
    return slow.mismatch || fast.mismatch || slow.halts || fast.halts ? 1 : 0;
}
