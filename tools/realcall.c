/*
 * realcall: the call target's real-kernel driver (realdrv.h): a seL4_Call
 * through the bridge's syscall glue (real/rk_sig.h, rk_sys_of_model). It
 * owns validate --real --target call (the model's slowpath(SysCall) and
 * merged fastpath_call against the real c_handle_syscall(SysCall) and
 * c_handle_fastpath_call, with what each fastpath did), fuzz --real
 * --target call (the real fastpath against the real slowpath on the
 * target's generated states, no model in the verdict) and check --real of
 * a call scenario.
 */
#define _POSIX_C_SOURCE 200809L
#include "realdrv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "call_fast.h"
#include "cli.h"
#include "rk_sig.h"

static const char exit_differs[] = "finished-or-fell-back differs";

struct call_tally {
    uint64_t exits[CALL_EXIT_COUNT]; /* the model's fastpath exits */
    uint64_t real_done[3];           /* the real fastpath: not tracked (release), fell back, finished */
};

/* ---- validate: the model's SysCall against the real one ---- */

/* The state's call entry (kstate.sys, drawn by the call target's
 * generator) becomes the bridge's system call; each real path is compared
 * with the model's, as realsignal.c does for a SysSend. */
static bool validate_path(const struct real_opts *o, struct real_run *r, struct call_tally *st,
                          const struct rk_syscall *sys, int path, uint64_t seed)
{
    struct rk_extra x;
    int why = rk_run_sys(&r->k, &r->in, sys, path, &r->b, &x);
    if (why < 0)
        return false;
    ks_copy(&r->a, &r->in);
    struct rclass key = {.path = path, .first_seed = seed};
    if (path == RK_CALL_SLOW) {
        slowpath_call(&r->a);
    } else {
        int e = fastpath_call(&r->a, CALL_MERGED);
        bool model_done = !call_exit_is_fallback(e);
        st->exits[e]++;
        st->real_done[x.fastpath_done + 1]++;
        key.note = x.fastpath_done >= 0 && x.fastpath_done != model_done ? exit_differs : NULL;
    }
    if (why == HK_OUT_HALT) {
        key.halt = true;
        snprintf(key.text, sizeof key.text, "%s", x.text);
        r->halts++;
    } else {
        key.fields = real_compare(&r->a, &r->b, r->k.info.debug);
        real_check_exit(o, r, &r->b, path, &r->a, seed);
        if (!key.fields && !key.note)
            return true;
    }
    r->diverged++;
    if (o->show && !key.halt) {
        printf("seed %" PRIu64 ", %s:\n", seed, real_path_name(o->driver, path));
        diff_compare(&r->a, &r->b, stdout);
    }
    real_count(o, r, &key, &r->a, &r->b, "model", "real kernel");
    return true;
}

static void validate_summary(const struct real_run *r, const struct call_tally *st, uint64_t states, uint64_t unfit)
{
    uint64_t model_done = 0;
    printf("  model fastpath exits:");
    for (int e = 0; e < CALL_EXIT_COUNT; e++) {
        if (st->exits[e])
            printf(" %s %" PRIu64, call_exit_name(e), st->exits[e]);
        model_done += call_exit_is_fallback(e) ? 0 : st->exits[e];
    }
    printf("\n  fastpath finished the call: model %" PRIu64 ", real %" PRIu64 "; fell back: model %" PRIu64
           ", real %" PRIu64 "%s\n",
           model_done, st->real_done[2], states - unfit - model_done, st->real_done[1],
           r->k.info.debug ? "" : " (release build: the real kernel does not tell, not compared)");
    printf("  %" PRIu64 " mismatches in %d kinds; %" PRIu64 " real-kernel halts\n", r->diverged, r->n_classes,
           r->halts);
}

static int refused(const struct real_opts *o, const struct real_run *r)
{
    if (r->k.info.call_fastpath)
        return 0;
    fprintf(stderr, "irqsim %s: %s has no call fastpath (CONFIG_FASTPATH)\n", o->cmd, o->build);
    return -1;
}

static int validate(const struct real_opts *o, struct real_run *r)
{
    struct call_tally st = {{0}, {0}};
    uint64_t i = 0, unfit = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    for (; !real_done(o, r, i); i++) {
        if (!real_next_state(o, r, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        struct rk_syscall sys;
        if (rk_sys_of_model(&r->in, &sys) != 0 || !validate_path(o, r, &st, &sys, RK_CALL_SLOW, o->seed + i) ||
            !validate_path(o, r, &st, &sys, RK_CALL_FAST, o->seed + i)) {
            if (unfit++ < 3)
                fprintf(stderr, "irqsim validate: seed %" PRIu64 ": the call does not fit the build: %s\n",
                        o->seed + i, rk_error(&r->k));
        }
        real_progress(&pr, o, r, i);
    }
    progress_end(&pr, false);
    r->checks = i;
    double t = progress_now() - r->t0;
    printf("validate --target call: %" PRIu64 " seL4_Call in %.1f s (%.0f/s), each through the syscall slowpath "
           "and fastpath_call, model (kernel %s) against real kernel; %" PRIu64 " did not fit the build\n",
           i, t, (double)i / t, cfg_kernel_name(r->k.cfg.kernel), unfit);
    validate_summary(r, &st, i, unfit);
    return r->diverged || unfit ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- fuzz: the real fastpath_call against the real syscall slowpath ---- */

static int fuzz(const struct real_opts *o, struct real_run *r)
{
    uint64_t i = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    for (; !real_done(o, r, i); i++) {
        if (!real_next_state(o, r, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        struct rk_syscall sys;
        struct rk_extra xs, xf;
        if (rk_sys_of_model(&r->in, &sys) != 0)
            continue;
        int ws = rk_run_sys(&r->k, &r->in, &sys, RK_CALL_SLOW, &r->a, &xs);
        int wf = rk_run_sys(&r->k, &r->in, &sys, RK_CALL_FAST, &r->b, &xf);
        if (ws < 0 || wf < 0)
            continue;
        struct rclass key = {.path = -1, .first_seed = o->seed + i};
        if (ws == HK_OUT_HALT || wf == HK_OUT_HALT) {
            key.halt = true;
            snprintf(key.text, sizeof key.text, "%s", ws == HK_OUT_HALT ? xs.text : xf.text);
            r->halts++;
        } else {
            key.fields = real_compare(&r->a, &r->b, false);
            real_check_exit(o, r, &r->a, RK_CALL_SLOW, NULL, o->seed + i);
            real_check_exit(o, r, &r->b, RK_CALL_FAST, NULL, o->seed + i);
            if (!key.fields) {
                real_progress(&pr, o, r, i);
                continue;
            }
        }
        r->diverged++;
        real_count(o, r, &key, &r->a, &r->b, "slowpath", "fastpath_call");
        real_progress(&pr, o, r, i);
    }
    progress_end(&pr, false);
    r->checks = i;
    printf("fuzz --real --target call: %" PRIu64 " seL4_Call, real fastpath_call against the real syscall "
           "slowpath: %" PRIu64 " diverged in %d kinds, %" PRIu64 " halts\n",
           i, r->diverged, r->n_classes, r->halts);
    return r->diverged ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- check: a call scenario (syscall line) ---- */

static int check(struct real_run *r, const char *path)
{
    struct rk_syscall sys;
    if (rk_sys_of_model(&r->in, &sys) != 0) {
        fprintf(stderr, "%s: the syscall line names an object the state does not have\n", path);
        return EXIT_USAGE;
    }
    struct rk_extra xs, xf;
    int ws = rk_run_sys(&r->k, &r->in, &sys, RK_CALL_SLOW, &r->a, &xs);
    int wf = rk_run_sys(&r->k, &r->in, &sys, RK_CALL_FAST, &r->b, &xf);
    int done = real_pair_done(r, path, ws, wf, &xs, &xf);
    if (done >= 0)
        return done;
    uint32_t f = real_compare(&r->a, &r->b, false);
    real_check_pair_exit(r, &realcall_driver);
    char text[200];
    printf("verdict (real kernel, fastpath_call %s): %s%s\n",
           xf.fastpath_done < 0 ? "?" : xf.fastpath_done ? "finished" : "fell back", f ? "DIVERGE in " : "AGREE",
           f ? diff_fields_text(f, text, sizeof text) : "");
    diff_compare(&r->a, &r->b, stdout);
    struct diff_verdict v;
    diff_run(&r->in, CALL_MERGED, false, &v, &r->a, &r->b);
    printf("model (merged, kernel %s): %s%s\n", cfg_kernel_name(r->in.cfg.kernel), v.agree ? "AGREE" : "DIVERGE in ",
           v.agree ? "" : diff_fields_text(v.fields, text, sizeof text));
    return f ? EXIT_DIVERGE : EXIT_AGREE;
}

/* ---- the review's step ---- */

static int run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x)
{
    struct rk_syscall sys;
    if (in->sys.entry != ENTRY_CALL || rk_sys_of_model(in, &sys) != 0)
        return -1;
    return rk_run_sys(k, in, &sys, path, out, x);
}

const struct real_driver realcall_driver = {
    .name = "call",
    .refused = refused,
    .validate = validate,
    .fuzz = fuzz,
    .check = check,
    .paths = {RK_CALL_SLOW, RK_CALL_FAST, -1},
    .path_names = {"syscall slowpath", "fastpath_call", NULL},
    .fastpath_flag = offsetof(struct hk_info, call_fastpath),
    .run = run,
};
