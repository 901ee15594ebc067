/*
 * Wraps the kernel's mode/fastpath/fastpath.h: its fastpath_restore loads
 * user registers into explicit register variables and erets. The kernel's
 * version is compiled under another name and never called; this one does
 * the C part of the exit (unlock, exit hook, lazy FPU restore) and returns
 * to the host.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#pragma once
#define fastpath_restore hk_unused_real_fastpath_restore
#include_next <mode/fastpath/fastpath.h>
#undef fastpath_restore

/* mirrors the C prologue of fastpath_restore (mode/fastpath/fastpath.h);
 * its assembly loads badge and msgInfo into x0 and x1 (badgeRegister,
 * msgInfoRegister) for the eret: written into the thread's saved context
 * here, where the bridge reads the registers back */
static inline void NORETURN fastpath_restore(word_t badge, word_t msgInfo, tcb_t *cur_thread)
{
    NODE_UNLOCK;
    c_exit_hook();
#ifdef CONFIG_HAVE_FPU
    lazyFPURestore(cur_thread);
#endif
    setRegister(cur_thread, badgeRegister, badge);
    setRegister(cur_thread, msgInfoRegister, msgInfo);
    hk_exit(HK_EXIT_FASTPATH);
}
