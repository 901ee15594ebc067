/*
 * realrr: the reply_recv target's real-kernel driver (realdrv.h): a
 * seL4_ReplyRecv through the bridge's syscall glue (real/rk_sig.h,
 * rk_sys_of_model: the receive cap, and the reply cap the reply cptr in
 * replyRegister names). It owns validate --real --target reply_recv (the
 * model's slowpath(SysReplyRecv) and merged fastpath_reply_recv against the
 * real c_handle_syscall(SysReplyRecv) and c_handle_fastpath_reply_recv),
 * fuzz --real --target reply_recv (the real fastpath against the real
 * slowpath, no model in the verdict) and check --real of a reply_recv
 * scenario; the bodies are the system-call targets' shared ones (realdrv.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "realdrv.h"

static int check(struct real_run *r, const char *path)
{
    return real_sys_check(r, path, &realrr_driver);
}

/* the review's step */
static int run(struct rk_kernel *k, struct kstate *in, int path, struct kstate *out, struct rk_extra *x)
{
    return real_sys_run(k, in, path, out, x, ENTRY_REPLY_RECV);
}

const struct real_driver realrr_driver = {
    .name = "reply_recv",
    .refused = real_refused_unbuilt,
    .validate = real_sys_validate,
    .fuzz = real_sys_fuzz,
    .check = check,
    .paths = {RK_RR_SLOW, RK_RR_FAST, -1},
    .path_names = {"syscall slowpath", "fastpath_reply_recv", NULL},
    .fastpath_flag = offsetof(struct hk_info, call_fastpath),
    .run = run,
};
