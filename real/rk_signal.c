/*
 * rk_signal: the real signal fastpath against the real syscall slowpath
 * (rk_sig.h) on N generated states of a build with the signal fastpath.
 *   rk_signal BUILD_DIR [N] [--seed S] [--show]
 * Prints the kinds of call, what the fastpath did, and each divergence
 * class (fields, count, first seed; `--seed S 1 --show` prints a state's
 * fields). Exit 1 when an expectation argued from the kernel fails:
 *  - no entry halts (a failed assertion or fail()),
 *  - an entry the fastpath left to slowpath(SysSend) agrees with the
 *    slowpath (it is the same code on the same state),
 *  - a Send whose message names an extra cap that does not resolve,
 *    finished by the fastpath, diverges in a thread state: the slowpath
 *    either skips the send (checkBudgetRestart: caller Restart) or looks up
 *    the extra caps before decoding (handleInvocation, src/api/syscall.c)
 *    and faults the caller, which has no fault handler (Inactive), while
 *    fastpath_signal never reads the message info and leaves it Running,
 *  - on a debug build (where ksKernelEntry tells), the fastpath finishes
 *    some calls itself and falls back on others.
 * Exit 2 on usage or load errors, or a build without the signal fastpath.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_sig.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rk_signal BUILD_DIR [N] [--seed S] [--show]\n");
        return 2;
    }
    uint64_t n = 20000, first = 1;
    bool show = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            first = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--show"))
            show = true;
        else
            n = strtoull(argv[i], NULL, 10);
    }
    static struct rk_kernel k;
    char err[600];
    if (rk_open(&k, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "rk_signal: %s\n", err);
        return 2;
    }
    if (!k.info.signal_fastpath) {
        fprintf(stderr, "rk_signal: %s has no signal fastpath (CONFIG_SIGNAL_FASTPATH)\n", argv[1]);
        return 2;
    }
    int rc = rk_sig_run(&k, first, n ? n : 1, 0, show, NULL, NULL);
    rk_close(&k);
    return rc;
}
