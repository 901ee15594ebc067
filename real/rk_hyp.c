/*
 * rk_hyp: the VMIDs of a hypervisor build (CONFIG_ARM_HYPERVISOR_SUPPORT),
 * real, on generated states. On such a build an address space is tagged
 * with a VMID that the ASID's map entry stores (stored_hw_vmid, valid when
 * stored_vmid_valid): the slowpath's setVMRoot gives a thread whose entry
 * holds none a fresh one (armv_contextSwitch -> getHWASID, findFreeHWASID,
 * storeHWASID: src/arch/arm/64/kernel/vspace.c), fastpath_irq falls back to
 * the slowpath when the thread it switches to has none and otherwise tags
 * with the stored one (src/fastpath/fastpath.c, "Ensure the vmid is valid").
 * The bridge loads the model's per-thread vmid_ok as that flag (with a
 * VMID of its own per thread, never its ASID, and armKSHWASIDTable to
 * match) and reads it back; it reports TTBR's vspace as a thread's only
 * when the tag is the VMID that thread's ASID now stores
 * (hk_bridge.c hk_ttbr0_tag_ok, else HK_TTBR_BAD_TAG).
 *
 * For N generated states of the build, what must hold and is counted:
 *  - real slowpath: a switch installs the thread's vspace with a valid
 *    VMID (never a bad tag); a thread that had none now has one ("fresh");
 *    no other thread's vmid_ok changes (a VMID is free: nothing evicted);
 *  - real fastpath_irq (builds with it), beside the model's fastpath
 *    exit: where the model falls back on the VMID (slow_vmid) or switches
 *    directly (switch), the real kernel installs the vspace the model
 *    does, tagged with the VMID its ASID stores; counted: fallbacks whose
 *    slowpath installed a thread with a fresh VMID, direct switches (the
 *    receiver's stored VMID, valid before);
 *  - on a build with the signal fastpath: the state's current thread
 *    signals (rk_sig_make) through the real syscall slowpath and the real
 *    fastpath_signal, the same rules as the slowpath's; counted: fresh
 *    VMIDs (the slowpath's switch to a woken thread).
 * Exit 0 all held and each counted case was seen (not vacuous), 1 a state
 * broke a rule or a case was never seen, 2 usage, load error or not a
 * hypervisor build.
 *   rk_hyp BUILD_DIR [N]
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "irq_fast.h"
#include "rk_load.h"
#include "rk_sig.h"

static struct kstate in, out, model, sig_in;
static struct rk_kernel k;

static uint64_t bad;

static void broke(uint64_t seed, const char *path, const char *what, int t)
{
    if (bad++ < 5)
        fprintf(stderr, "seed %" PRIu64 " %s: %s (thread %d)\n", seed, path, what, t);
}

/* The rules of one real entry on in (the result in out, x): a switch
 * installs a vspace tagged with the VMID its thread's ASID stores, valid
 * (never a bad tag); no other thread's vmid_ok changes (a VMID is free:
 * nothing evicted). 1 when the installed thread had no valid VMID before
 * (the entry gave it a fresh one), else 0; *installed counts switches. */
static int check_entry(uint64_t seed, const char *path, const struct kstate *before, const struct rk_extra *x,
                       uint64_t *installed)
{
    int t = x->ttbr0_writes ? x->ttbr0_tcb : KS_NONE;
    if (t == HK_TTBR_BAD_TAG) {
        broke(seed, path, "a thread's vspace installed with a tag other than its stored VMID", -1);
        return 0;
    }
    for (int i = 0; i < before->n_tcbs; i++)
        if (i != t && before->tcbs[i].vmid_ok != out.tcbs[i].vmid_ok)
            broke(seed, path, "the VMID of a thread it did not install changed", i);
    if (t < 0)
        return 0;
    (*installed)++;
    if (!out.tcbs[t].vmid_ok)
        broke(seed, path, "the installed thread has no valid VMID", t);
    return !before->tcbs[t].vmid_ok;
}

/* the real slowpath of the interrupt */
static int slowpath(uint64_t seed, uint64_t *installed)
{
    struct rk_extra x;
    if (rk_run_x(&k, &in, RK_SLOW, &out, &x) < 0 || x.outcome == HK_OUT_HALT)
        return 0;
    return check_entry(seed, "slowpath", &in, &x, installed);
}

/* the state's current thread signals (rk_sig_make) through both real
 * system-call paths; returns the fresh VMIDs given */
static int signal_paths(uint64_t seed, uint64_t *installed)
{
    struct rk_syscall sys;
    int kind, fresh = 0;
    ks_copy(&sig_in, &in);
    if (rk_sig_make(&sig_in, seed, &sys, &kind) != SIG_FIT)
        return 0;
    static const int paths[] = {RK_SIG_SLOW, RK_SIG_FAST};
    for (int p = 0; p < 2; p++) {
        struct rk_extra x;
        if (rk_run_sys(&k, &sig_in, &sys, paths[p], &out, &x) < 0 || x.outcome == HK_OUT_HALT)
            continue;
        fresh += check_entry(seed, p ? "fastpath_signal" : "syscall slowpath", &sig_in, &x, installed);
    }
    return fresh;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rk_hyp BUILD_DIR [N]\n");
        return 2;
    }
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000;
    char err[600];
    if (rk_open(&k, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "rk_hyp: %s\n", err);
        return 2;
    }
    if (!k.info.hyp) {
        fprintf(stderr, "rk_hyp: %s is not a hypervisor build (kernel.info hyp=0; build it with "
                        "-D KernelArmHypervisorSupport=ON)\n", argv[1]);
        return 2;
    }
    k.cfg.kernel = (uint8_t)k.kernel;
    struct gen_bounds b;
    gen_bounds_default(&b);
    uint64_t states = 0, no_vmid = 0, installed = 0, fresh = 0, slow_vmid = 0, fast_switch = 0;
    uint64_t sig_installed = 0, sig_fresh = 0;
    for (uint64_t seed = 1; seed <= n; seed++) {
        if (rk_gen_state(&k, &in, seed, &b) != 0)
            continue;
        states++;
        for (int i = 0; i < in.n_tcbs; i++)
            if (!in.tcbs[i].vmid_ok && i != in.idle_thread) {
                no_vmid++;
                break;
            }
        fresh += (uint64_t)slowpath(seed, &installed);
        if (k.info.signal_fastpath)
            sig_fresh += (uint64_t)signal_paths(seed, &sig_installed);
        if (!k.info.irq_fastpath)
            continue;
        ks_copy(&model, &in);
        int e = fastpath_irq(&model, FP_PR1227);
        if (e != FP_SLOW_VMID && e != FP_EXIT_SWITCH)
            continue;
        struct rk_extra x;
        if (rk_run_x(&k, &in, RK_FAST, &out, &x) < 0 || x.outcome == HK_OUT_HALT)
            continue;
        /* TTBR's vspace after the entry: the last write's, else the entry's */
        int t = x.ttbr0_writes ? x.ttbr0_tcb : in.vspace;
        if (t == HK_TTBR_BAD_TAG || t != model.vspace) {
            broke(seed, "fastpath_irq", t == HK_TTBR_BAD_TAG ? "a vspace installed with a tag other than its stored VMID"
                                                             : "not the vspace the model installs",
                  t);
            continue;
        }
        if (t < 0)
            continue;
        if (e == FP_SLOW_VMID) {
            slow_vmid += !in.tcbs[t].vmid_ok; /* the slowpath gave it one */
        } else {
            if (!in.tcbs[t].vmid_ok)
                broke(seed, "fastpath_irq", "switched directly to a receiver without a valid VMID", t);
            fast_switch++;
        }
    }
    printf("rk_hyp: %" PRIu64 " states (%s, %s), %" PRIu64 " with a thread without a valid VMID; slowpath: %" PRIu64
           " vspaces installed, %" PRIu64 " with a fresh VMID",
           states, k.board, k.info.debug ? "debug" : "release", no_vmid, installed, fresh);
    if (k.info.irq_fastpath)
        printf("; fastpath_irq: %" PRIu64 " fell back on the VMID (slow_vmid), %" PRIu64
               " switched with the stored VMID",
               slow_vmid, fast_switch);
    if (k.info.signal_fastpath)
        printf("; seL4_Signal (both paths): %" PRIu64 " vspaces installed, %" PRIu64 " with a fresh VMID", sig_installed,
               sig_fresh);
    printf("; %" PRIu64 " broke a rule\n", bad);
    rk_close(&k);
    if (bad || !fresh || (k.info.irq_fastpath && (!slow_vmid || !fast_switch)) ||
        (k.info.signal_fastpath && !sig_fresh)) {
        if (!bad)
            printf("rk_hyp: vacuous: a case above was never seen\n");
        return 1;
    }
    return 0;
}
