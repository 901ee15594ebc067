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

static int check(struct real_run *r, const char *path)
{
    return real_sys_check(r, path, &realcall_driver);
}

/* the review's step */
static int run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x)
{
    return real_sys_run(k, in, path, out, x, ENTRY_CALL);
}

const struct real_driver realcall_driver = {
    .name = "call",
    .refused = real_refused_unbuilt,
    .validate = real_sys_validate,
    .fuzz = real_sys_fuzz,
    .check = check,
    .paths = {RK_CALL_SLOW, RK_CALL_FAST, -1},
    .path_names = {"syscall slowpath", "fastpath_call", NULL},
    .fastpath_flag = offsetof(struct hk_info, call_fastpath),
    .run = run,
};
