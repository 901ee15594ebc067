/*
 * realsignal: the signal target's real-kernel driver (realdrv.h): a
 * seL4_Send through the bridge's syscall glue (real/rk_sig.h). It owns
 * validate --real --target signal (the model's slowpath(SysSend) and
 * merged fastpath_signal against the real c_handle_syscall and
 * c_handle_fastpath_signal, with what each fastpath did), fuzz --real
 * --target signal (rk_sig_run: real against real, no model in the
 * verdict) and check --real of a signal scenario.
 */
#define _POSIX_C_SOURCE 200809L
#include "realdrv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "rk_sig.h"
#include "sig_fast.h"

/* validate: the model's SysSend against the real one (real_sys_validate),
 * on a build with the signal fastpath */
static int validate(const struct real_opts *o, struct real_run *r)
{
    if (!r->k.info.signal_fastpath) {
        fprintf(stderr, "irqsim validate: %s has no signal fastpath (CONFIG_SIGNAL_FASTPATH)\n", o->build);
        return EXIT_USAGE;
    }
    return real_sys_validate(o, r);
}

/* ---- fuzz: the real fastpath_signal against the real syscall slowpath ---- */

struct fuzz_ctx {
    const struct real_opts *o;
    struct real_run *r;
};

/* each call's two real outcomes held to the exit invariants; not a send on
 * an endpoint cap, which blocks the caller on an endpoint the bridge made
 * for the call and the model's state has no object for (it reads back as
 * "blocked on an endpoint but names none") */
static void fuzz_each(void *ctx, const struct kstate *in, int kind, const struct kstate *slow,
                      const struct kstate *fast, uint64_t seed)
{
    struct fuzz_ctx *c = ctx;
    if (kind == SIG_K_ENDPOINT) {
        c->r->inv.skipped += 2;
        c->r->inv.skip_why = "seL4_Send on an endpoint cap: the caller blocks on the bridge's endpoint, which the "
                             "model's state has no object for";
        return;
    }
    ks_copy(&c->r->in, in); /* the entry state the invariants' reproducers save */
    real_check_exit(c->o, c->r, slow, RK_SIG_SLOW, NULL, seed);
    real_check_exit(c->o, c->r, fast, RK_SIG_FAST, NULL, seed);
}

/* of the same seL4_Send (real/rk_sig.h), --checks states or --seconds
 * (default 60 s, as every --real run) from --seed; no model in the verdict */
static int fuzz(const struct real_opts *o, struct real_run *r)
{
    if (!r->k.info.signal_fastpath) {
        fprintf(stderr, "irqsim fuzz: %s has no signal fastpath (CONFIG_SIGNAL_FASTPATH)\n", o->build);
        return EXIT_USAGE;
    }
    struct rk_sig_tally t;
    struct fuzz_ctx c = {o, r};
    /* its calls are made apart from the state (rk_sig_make: caps the model
     * has no scenario line for), so a broken invariant is reproduced by its
     * --seed with --checks 1, not saved as a scenario */
    r->inv.out = NULL;
    int rc = rk_sig_run(&r->k, o->seed, o->checks, o->checks ? 0 : o->seconds, o->show, &t,
                        &(struct rk_sig_each){fuzz_each, &c});
    /* the calls that went through both paths: what the command's "nothing
     * checked" rule and its JSON count; a divergence of the real paths is
     * the command's exit 1, as the IRQ target's (the run's own rc is 1
     * when an expectation argued from the kernel failed: a finding too) */
    r->generated = r->checks = t.ran;
    r->diverged = t.diverged;
    return rc || t.diverged ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- check: a signal scenario (syscall line) ---- */

/* A build without the signal fastpath (a tree before it, or
 * KernelSignalFastpath off): the real syscall slowpath against the
 * model's, its outcome held to the exit invariants, as validate's
 * system-call pass runs it (the reproducers it saves) */
static int check_slow(struct real_run *r, const char *path, const struct rk_syscall *sys)
{
    struct rk_extra x;
    int w = rk_run_sys(&r->k, &r->in, sys, RK_SIG_SLOW, &r->a, &x);
    if (w >= 0 && w != HK_OUT_HALT) {
        ks_copy(&r->b, &r->in);
        target_of(&r->in)->slow(&r->b);
    }
    return real_check_slow_verdict(r, path, w, &x, &realsignal_driver, "signal");
}

/* the real fastpath_signal against the real syscall slowpath, the model's
 * verdict beside; the slowpath alone on a build without the fastpath */
static int check(struct real_run *r, const char *path)
{
    struct rk_syscall sys;
    if (rk_sig_of_model(&r->in, &sys) != 0) {
        fprintf(stderr, "%s: the syscall line names a notification the state does not have\n", path);
        return EXIT_USAGE;
    }
    if (!r->k.info.signal_fastpath)
        return check_slow(r, path, &sys);
    struct rk_extra xs, xf;
    int ws = rk_run_sys(&r->k, &r->in, &sys, RK_SIG_SLOW, &r->a, &xs);
    int wf = rk_run_sys(&r->k, &r->in, &sys, RK_SIG_FAST, &r->b, &xf);
    int done = real_pair_done(r, path, ws, wf, &xs, &xf);
    if (done >= 0)
        return done;
    uint32_t f = real_compare(&r->a, &r->b, false);
    real_check_pair_exit(r, &realsignal_driver);
    char text[200];
    printf("verdict (real kernel, fastpath_signal %s): %s%s\n",
           xf.fastpath_done < 0 ? "?" : xf.fastpath_done ? "finished" : "fell back", f ? "DIVERGE in " : "AGREE",
           f ? diff_fields_text(f, text, sizeof text) : "");
    diff_compare(&r->a, &r->b, stdout);
    uint32_t m = real_check_model_slow(r);
    struct diff_verdict v;
    diff_run(&r->in, SIG_MERGED, false, &v, &r->a, &r->b);
    printf("model (merged, kernel %s): %s%s\n", cfg_kernel_name(r->in.cfg.kernel), v.agree ? "AGREE" : "DIVERGE in ",
           v.agree ? "" : diff_fields_text(v.fields, text, sizeof text));
    return f || m ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- the review's step ---- */

/* The state's seL4_Send, in the bridge's CSpace (sets the badge register
 * of in), through path; -1 also when the state makes no call the bridge
 * can hold (rk_sig_of_model). */
static int run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x)
{
    struct rk_syscall sys;
    if (rk_sig_of_model(in, &sys) != 0)
        return -1;
    return rk_run_sys(k, in, &sys, path, out, x);
}

/* kernel coverage: from any generated state, a seL4_Send of every kind of
 * cap and message (rk_sig_make: endpoint caps, failed lookups, IPC buffers
 * the model's states do not carry) through both paths */
static int cover(struct rk_kernel *k, struct kstate *in, uint64_t seed, struct kstate *out)
{
    struct rk_syscall sys;
    int kind;
    if (rk_sig_make(in, seed, &sys, &kind) != SIG_FIT)
        return 0;
    rk_run_sys(k, in, &sys, RK_SIG_SLOW, out, NULL);
    rk_run_sys(k, in, &sys, RK_SIG_FAST, out, NULL);
    return 1;
}

const struct real_driver realsignal_driver = {
    .name = "signal",
    .validate = validate,
    .fuzz = fuzz,
    .check = check,
    .paths = {RK_SIG_SLOW, RK_SIG_FAST, -1},
    .path_names = {"syscall slowpath", "fastpath_signal", NULL},
    .fastpath_flag = offsetof(struct hk_info, signal_fastpath),
    .run = run,
    .cover = cover,
};
