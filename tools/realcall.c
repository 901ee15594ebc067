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

static int refused(const struct real_opts *o, const struct real_run *r)
{
    if (r->k.info.call_fastpath)
        return 0;
    fprintf(stderr, "irqsim %s: %s has no call fastpath (CONFIG_FASTPATH)\n", o->cmd, o->build);
    return -1;
}

/* ---- fuzz: the real fastpath_call against the real syscall slowpath ---- */

/* A state whose call the build cannot hold (rk_sys_of_model, a path the
 * build lacks) is counted and said, never dropped silently. */
static int fuzz(const struct real_opts *o, struct real_run *r)
{
    uint64_t i = 0, ran = 0, unfit = 0;
    struct progress pr;
    progress_init(&pr, o->progress, 1.0);
    for (; !real_done(o, r, i); i++) {
        if (!real_next_state(o, r, o->seed + i)) {
            progress_end(&pr, false);
            return EXIT_USAGE;
        }
        struct rk_syscall sys;
        struct rk_extra xs, xf;
        int ws = -1, wf = -1;
        if (rk_sys_of_model(&r->in, &sys) == 0) {
            ws = rk_run_sys(&r->k, &r->in, &sys, RK_CALL_SLOW, &r->a, &xs);
            wf = rk_run_sys(&r->k, &r->in, &sys, RK_CALL_FAST, &r->b, &xf);
        }
        if (ws < 0 || wf < 0) {
            if (unfit++ < 3)
                fprintf(stderr, "irqsim fuzz: seed %" PRIu64 ": the call does not fit the build: %s\n", o->seed + i,
                        rk_error(&r->k));
            continue;
        }
        ran++;
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
    r->checks = ran; /* what the command's "nothing checked" rule and its JSON count */
    printf("fuzz --real --target call: %" PRIu64 " seL4_Call, real fastpath_call against the real syscall "
           "slowpath: %" PRIu64 " diverged in %d kinds, %" PRIu64 " halts; %" PRIu64 " of %" PRIu64
           " states did not fit the build\n",
           ran, r->diverged, r->n_classes, r->halts, unfit, i);
    return r->diverged || unfit ? EXIT_DIVERGE : EXIT_AGREE;
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
    .validate = real_sys_validate,
    .fuzz = fuzz,
    .check = check,
    .paths = {RK_CALL_SLOW, RK_CALL_FAST, -1},
    .path_names = {"syscall slowpath", "fastpath_call", NULL},
    .fastpath_flag = offsetof(struct hk_info, call_fastpath),
    .run = run,
};
