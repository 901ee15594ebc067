/*
 * realirq: the IRQ target's real-kernel driver (realdrv.h): an interrupt
 * through the bridge's interrupt glue. It owns validate --real (the
 * model's handleInterruptEntry and fastpath_irq against the real ones),
 * fuzz --real (the real fastpath_irq, as built or the kernel-C corrected
 * one, against the real slowpath, each divergence named by the model's
 * cause), check --real of an IRQ scenario, bench --real, and the refusal
 * of a build without fastpath_irq.
 */
#define _POSIX_C_SOURCE 200809L
#include "realdrv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "rk_diff.h"

/* What needs fastpath_irq on a build without it (kernel.info
 * irq_fastpath=0: the tree has no KernelIRQFastpath) is refused, with that
 * reason: fuzz and bench compare a fastpath, --fastpath asks for one.
 * validate runs the slowpath alone and says so; check refuses an IRQ
 * scenario (check). 0, or -1 after the message. */
static int refused(const struct real_opts *o, const struct real_run *r)
{
    if (r->k.info.irq_fastpath)
        return 0;
    const char *what = o->fastpath_set ? (o->fixed ? "--fastpath fixed" : "--fastpath as-built")
                       : !strcmp(o->cmd, "fuzz") || !strcmp(o->cmd, "bench") ? "fastpath to compare"
                                                                               : NULL;
    if (!what)
        return 0;
    fprintf(stderr,
            "irqsim %s: %s has no IRQ fastpath (kernel.info irq_fastpath=0: its tree has no KernelIRQFastpath), so "
            "there is no %s; `irqsim validate --real` checks its slowpath against the model\n",
            o->cmd, o->build, what);
    return -1;
}

/* ---- validate: the model against the real kernel ---- */

static void model_path(struct kstate *ks, int path)
{
    if (path == RK_SLOW)
        handleInterruptEntry(ks);
    else
        fastpath_irq(ks, path == RK_FAST ? FP_PR1227 : FP_FIXED);
}

/* One path on one state: returns false when the build cannot run it. */
/* a known finding's halts, by finding (REAL_MAX_KNOWN kinds; the others
 * are in r->known only, and the summary says how many) */
static void count_known(struct real_run *r, const char *what)
{
    for (int i = 0; i < REAL_MAX_KNOWN; i++) {
        if (!r->known_what[i])
            r->known_what[i] = what;
        if (r->known_what[i] == what) {
            r->known_n[i]++;
            return;
        }
    }
}

static bool validate_path(const struct real_opts *o, struct real_run *r, int path, uint64_t seed)
{
    struct rk_extra x;
    int why = rk_run_x(&r->k, &r->in, path, &r->b, &x);
    if (why < 0)
        return false;
    ks_copy(&r->a, &r->in);
    model_path(&r->a, path);
    struct rclass key = {.path = path, .first_seed = seed};
    if (why == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s", x.text);
        r->halts++;
        const char *what = rk_known_halt(x.text);
        if (what) {
            r->known++;
            count_known(r, what);
            return true;
        }
        if (real_halt_predicted(o, r, &r->a, x.text, path, seed))
            return true;
    } else {
        key.fields = real_compare(&r->a, &r->b, r->k.info.debug);
        real_check_exit(o, r, &r->b, path, &r->a, seed);
        if (!key.fields)
            return true;
    }
    r->diverged++;
    real_count(o, r, &key, &r->a, &r->b, "model", "real kernel");
    return true;
}

/* the situations drawn; what the build's configuration fixes is said as
 * not drawable here, not as never drawn */
static void print_situations(const struct real_opts *o, const struct real_run *r)
{
    const char *why[SIT_COUNT];
    situation_why_build(why, &r->k.cfg, r->k.info.signal_fastpath);
    situation_print_why(stdout, r->sits, r->generated, !o->target->syscall_entry, why);
}

static int validate(const struct real_opts *o, struct real_run *r)
{
    /* a build without fastpath_irq: its slowpath only, and said so */
    bool fast = r->k.info.irq_fastpath, fixed_ok = fast;
    uint64_t i = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    int more;
    for (; (more = real_loop_next(o, r, &pr, i)) > 0; i++) {
        validate_path(o, r, RK_SLOW, o->seed + i);
        if (fast)
            validate_path(o, r, RK_FAST, o->seed + i);
        if (fixed_ok)
            fixed_ok = validate_path(o, r, RK_FIXED, o->seed + i);
        real_progress(&pr, o, r, i);
    }
    if (more < 0)
        return EXIT_USAGE;
    progress_end(&pr, false);
    r->checks = i;
    double t = progress_now() - r->t0;
    printf("validate: %" PRIu64 " states in %.1f s (%.0f/s), each through the slowpath%s%s\n", i, t, (double)i / t,
           fast ? " and the fastpath as built" : " only (the build has no IRQ fastpath: kernel.info irq_fastpath=0)",
           fixed_ok ? " and the corrected fastpath" : "");
    printf("  model against real kernel: %" PRIu64 " unexplained mismatches; %" PRIu64 " real-kernel halts, %" PRIu64
           " of them known findings, %" PRIu64 " where the model's kernel fails its own assertion too\n",
           r->diverged, r->halts, r->known, r->predicted);
    uint64_t listed = 0;
    for (int k = 0; k < REAL_MAX_KNOWN && r->known_what[k]; k++) {
        printf("  known (%" PRIu64 "): %s\n", r->known_n[k], r->known_what[k]);
        listed += r->known_n[k];
    }
    if (listed < r->known)
        printf("  known (%" PRIu64 "): of further kinds, past the %d listed\n", r->known - listed, REAL_MAX_KNOWN);
    real_predicted_print(r);
    if (fast && !fixed_ok)
        printf("  (this build has no corrected kernel-C fastpath: not compared)\n");
    print_situations(o, r);
    return r->diverged ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- fuzz: real fastpath against real slowpath ---- */

/* One state through both real paths; -1 when the build cannot run it. */
static int fuzz_one(const struct real_opts *o, struct real_run *r, int fast, uint64_t seed)
{
    struct rk_extra xs, xf;
    int ws = rk_run_x(&r->k, &r->in, RK_SLOW, &r->a, &xs);
    int wf = rk_run_x(&r->k, &r->in, fast, &r->b, &xf);
    const char *const slow_name = real_path_name(o->driver, RK_SLOW), *fast_name = real_path_name(o->driver, fast);
    if (ws < 0 || wf < 0) {
        fprintf(stderr, "irqsim fuzz: %s: %s\n", ws < 0 ? slow_name : fast_name, rk_error(&r->k));
        return -1;
    }
    struct rclass key = {.path = -1, .first_seed = seed};
    if (ws == HK_OUT_HALT || wf == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s: %s", ws == HK_OUT_HALT ? slow_name : fast_name,
                 ws == HK_OUT_HALT ? xs.text : xf.text);
        r->halts++;
    } else {
        key.fields = real_compare(&r->a, &r->b, false);
        real_check_exit(o, r, &r->a, RK_SLOW, NULL, seed);
        real_check_exit(o, r, &r->b, fast, NULL, seed);
        if (!key.fields)
            return 0;
    }
    real_fuzz_divergence(o, r, &key, "real slowpath", o->fixed ? "corrected fastpath" : "real fastpath");
    return 0;
}

static int fuzz(const struct real_opts *o, struct real_run *r)
{
    int fast = o->fixed ? RK_FIXED : RK_FAST;
    uint64_t i = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    int more;
    for (; (more = real_loop_next(o, r, &pr, i)) > 0; i++) {
        if (fuzz_one(o, r, fast, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        real_progress(&pr, o, r, i);
    }
    if (more < 0)
        return EXIT_USAGE;
    progress_end(&pr, false);
    r->checks = i;
    double t = progress_now() - r->t0;
    printf("fuzz --real: %" PRIu64 " states in %.1f s (%.0f checks/s), real %s against the real slowpath: "
           "%" PRIu64 " diverge, %d kinds, %" PRIu64 " real-kernel halts\n",
           i, t, (double)i / t, real_path_name(o->driver, fast), r->diverged, r->n_classes, r->halts);
    print_situations(o, r);
    if (r->diverged)
        real_fuzz_summary(o, r);
    return r->diverged ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- check: an IRQ scenario through the real kernel ---- */

/* A build without fastpath_irq (every tree but PR #1227's): the real
 * slowpath against the model's, its outcome held to the exit invariants,
 * as validate runs it (so the reproducers validate saves there check) */
static int check_slow(struct real_run *r, const char *path)
{
    struct rk_extra x;
    int w = rk_run_x(&r->k, &r->in, RK_SLOW, &r->a, &x);
    if (w >= 0 && w != HK_OUT_HALT) {
        ks_copy(&r->b, &r->in);
        model_path(&r->b, RK_SLOW);
    }
    return real_check_slow_verdict(r, path, w, &x, &realirq_driver, "IRQ");
}

/* the real fastpath_irq against the real slowpath, the model's verdict
 * (pr1227) beside; the slowpath alone on a build without the fastpath */
static int check(struct real_run *r, const char *path)
{
    if (!r->k.info.irq_fastpath)
        return check_slow(r, path);
    struct rk_extra xs, xf;
    int ws = rk_run_x(&r->k, &r->in, RK_SLOW, &r->a, &xs), wf = rk_run_x(&r->k, &r->in, RK_FAST, &r->b, &xf);
    int done = real_pair_done(r, path, ws, wf, &xs, &xf);
    if (done >= 0)
        return done;
    uint32_t f = real_compare(&r->a, &r->b, false);
    real_check_pair_exit(r, &realirq_driver);
    char text[200];
    printf("verdict (real kernel): %s%s\n", f ? "DIVERGE in " : "AGREE", f ? diff_fields_text(f, text, sizeof text) : "");
    diff_compare(&r->a, &r->b, stdout);
    /* the model's verdict on the same state, for comparison */
    struct diff_verdict v;
    diff_run(&r->in, FP_PR1227, false, &v, &r->a, &r->b);
    printf("model (pr1227): %s%s\n", v.agree ? "AGREE" : "DIVERGE in ", v.agree ? "" : diff_fields_text(v.fields, text, sizeof text));
    return f ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- bench: where the time of a real differential check goes ---- */

#define BENCH_POOL 256

/* ns per state of one step over n states of a pool */
static double bench_step(struct real_run *r, struct kstate *pool, uint64_t n, int step)
{
    double t = progress_now();
    for (uint64_t i = 0; i < n; i++) {
        struct kstate *in = &pool[i % BENCH_POOL];
        if (step == 0)
            rk_run(&r->k, in, RK_SLOW, &r->a);
        else if (step == 1)
            rk_run(&r->k, in, RK_FAST, &r->b);
        else if (step == 2)
            rk_roundtrip(&r->k, in, &r->a);
        else
            diff_run(in, FP_PR1227, false, &(struct diff_verdict){0}, &r->a, &r->b);
    }
    return (progress_now() - t) * 1e9 / (double)n;
}

static int bench(const struct real_opts *o, struct real_run *r)
{
    uint64_t n = o->checks ? o->checks : 200000;
    struct kstate *pool = calloc(BENCH_POOL, sizeof *pool);
    if (!pool)
        return EXIT_USAGE;
    double t = progress_now();
    for (int i = 0; i < BENCH_POOL; i++)
        if (!real_next_state(o, r, o->seed + (uint64_t)i)) {
            free(pool);
            return EXIT_USAGE;
        }
        else
            ks_copy(&pool[i], &r->in);
    double gen = (progress_now() - t) * 1e9 / BENCH_POOL;
    double slow = bench_step(r, pool, n, 0), fast = bench_step(r, pool, n, 1);
    double bridge = bench_step(r, pool, n, 2), model = bench_step(r, pool, n, 3);
    /* the check as fuzz --real runs it: generate, both paths, compare */
    t = progress_now();
    uint64_t checks = 0;
    for (; checks < n; checks++) {
        if (!real_next_state(o, r, o->seed + checks))
            break;
        rk_run(&r->k, &r->in, RK_SLOW, &r->a);
        rk_run(&r->k, &r->in, RK_FAST, &r->b);
        real_compare(&r->a, &r->b, false);
    }
    double check_ns = (progress_now() - t) * 1e9 / (double)checks;
    printf("bench --real (%" PRIu64 " states, one core; ns per state):\n", n);
    printf("  generate a state of the build       %8.0f\n", gen);
    printf("  bridge only (load + save, no entry) %8.0f\n", bridge);
    printf("  real slowpath (load, entry, save)   %8.0f\n", slow);
    printf("  real fastpath (load, entry, save)   %8.0f\n", fast);
    printf("  real differential check             %8.0f  = %.0f checks/s (generate, both paths, normalise, compare)\n",
           check_ns, 1e9 / check_ns);
    printf("  model differential check            %8.0f  = %.0f checks/s (both model paths on a pooled state)\n",
           model, 1e9 / model);
    printf("  the real check costs %.1f model checks; the bridge is %.0f%% of a real path\n", check_ns / model,
           100.0 * bridge / ((slow + fast) / 2));
    free(pool);
    return 0;
}

/* ---- the review's step ---- */

static int run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x)
{
    return rk_run_x(k, in, path, out, x);
}

const struct real_driver realirq_driver = {
    .name = "irq",
    .refused = refused,
    .validate = validate,
    .fuzz = fuzz,
    .check = check,
    .bench = bench,
    .corrected_in_c = true,
    .paths = {RK_SLOW, RK_FAST, RK_FIXED},
    .path_names = {"slowpath", "fastpath (as built)", "corrected fastpath"},
    .fastpath_flag = offsetof(struct hk_info, irq_fastpath),
    .run = run,
};
