/*
 * rk_roundtrip: the bridge property test. For N generated states (the
 * generator restricted to the build's configuration), kstate -> real
 * kernel objects -> kstate must give the same state, with no kernel code
 * run. Exit 0 all same, 1 a state differed, 2 usage or load error.
 *   rk_roundtrip BUILD_DIR [N] [FIRST_SEED]
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "print.h"
#include "rk_load.h"

static struct kstate in, out;
static struct hk_state poisoned;
static struct kstate out2;

/* hk_save must write every field the kernel holds: save over a poisoned
 * image (all but vmid_ok, which a non-hyp kernel does not hold); the
 * state read back must still be the input. */
static int poisoned_save_differs(struct rk_kernel *k)
{
    memcpy(&poisoned, &k->hin, sizeof poisoned);
    for (int i = 0; i < poisoned.n_tcbs; i++) {
        unsigned char v = poisoned.tcbs[i].vmid_ok;
        memset(&poisoned.tcbs[i], 0x5a, sizeof poisoned.tcbs[i]);
        poisoned.tcbs[i].vmid_ok = v;
    }
    for (int i = 0; i < poisoned.n_scs; i++) {
        unsigned m = poisoned.scs[i].refill_max;
        memset(&poisoned.scs[i], 0x5a, sizeof poisoned.scs[i]);
        for (unsigned r = m; r < HK_MAX_REFILLS; r++) /* past refill_max: not held */
            poisoned.scs[i].r_time[r] = k->hin.scs[i].r_time[r], poisoned.scs[i].r_amount[r] = k->hin.scs[i].r_amount[r];
    }
    memset(poisoned.ntfns, 0x5a, sizeof poisoned.ntfns[0] * poisoned.n_ntfns);
    memset(poisoned.eps, 0x5a, sizeof poisoned.eps[0] * poisoned.n_eps);
    memset(poisoned.replies, 0x5a, sizeof poisoned.replies[0] * poisoned.n_replies);
    memset(poisoned.irq_state, 0x5a, poisoned.n_irqs);
    poisoned.cur_thread = poisoned.cur_sc = 0x5a;
    poisoned.sched_action = 0x5a;
    poisoned.reprogram = 0x5a;
    poisoned.cur_time = poisoned.consumed = poisoned.deadline = poisoned.hw_clock = 0x5a5a;
    poisoned.cur_domain = poisoned.dom_idx = 0x5a;
    poisoned.domain_time = 0x5a5a;
    for (unsigned d = 0; d < k->info.num_domains; d++) { /* the build holds these domains */
        poisoned.l1[0][d] = 0x5a;
        memset(poisoned.l2[0][d], 0x5a, sizeof poisoned.l2[0][d]);
    }
    poisoned.release_head[0] = 0x5a;
    k->save(&poisoned);
    ks_copy(&out2, &in);
    rk_from_hk(&poisoned, &out2);
    if (getenv("RK_DEBUG") && !ks_same(&in, &out2))
        diff_compare(&in, &out2, stderr);
    return !ks_same(&in, &out2);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rk_roundtrip BUILD_DIR [N] [FIRST_SEED]\n");
        return 2;
    }
    long n = argc > 2 ? atol(argv[2]) : 10000;
    uint64_t seed0 = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
    static struct rk_kernel k;
    char err[512];
    if (rk_open(&k, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "rk_roundtrip: %s\n", err);
        return 2;
    }
    struct gen_bounds b;
    gen_bounds_default(&b);
    long bad = 0, unfit = 0;
    for (long i = 0; i < n; i++) {
        uint64_t seed = seed0 + (uint64_t)i;
        if (rk_gen_state(&k, &in, seed, &b) != 0) {
            fprintf(stderr, "rk_roundtrip: the generator cannot use the configuration of the %s build\n", k.board);
            return 2;
        }
        if (rk_roundtrip(&k, &in, &out) != 0) {
            if (unfit++ < 3)
                fprintf(stderr, "seed %" PRIu64 ": does not fit the build: %s\n", seed, rk_error(&k));
            continue;
        }
        if (poisoned_save_differs(&k)) {
            if (bad++ < 3)
                printf("seed %" PRIu64 ": hk_save over a poisoned image does not restore the input\n", seed);
            continue;
        }
        if (ks_same(&in, &out))
            continue;
        if (bad++ < 3) {
            printf("seed %" PRIu64 ": round trip differs\n", seed);
            diff_compare(&in, &out, stdout);
        }
    }
    printf("rk_roundtrip: %ld states, %ld differ, %ld do not fit (%s, %s)\n", n, bad, unfit, k.board, k.dir);
    return bad || unfit ? 1 : 0;
}
