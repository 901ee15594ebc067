/*
 * rk_gic: the GIC's active state after the real slowpath. For N generated
 * states of the build, one interrupt through the kernel's slowpath; the
 * IRQ it delivered must be left active exactly where the kernel's ack
 * leaves it so:
 *  - split EOI (GICv3 on master, a4b0c8d36): handleInterrupt acks every
 *    IRQ (src/object/interrupt.c, "Every interrupt is ack'd"), and
 *    ackInterrupt (include/arch/arm/arch/machine/gic_v3.h) writes EOIR,
 *    a priority drop only, then deactivates (ICC_DIR_EL1) unless the IRQ
 *    is in range and in state IRQSignal. So a signal IRQ stays active until
 *    the user's IRQHandler_Ack; every other one is deactivated.
 *  - otherwise (GICv2, GICv3 before master): the EOIR/GICC_EOIR write of
 *    the ack deactivates: nothing stays active.
 * Exit 0 as expected (and, on a split-EOI build, both cases seen), 1 a
 * state broke it, 2 usage or load error.
 *   rk_gic BUILD_DIR [N]
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rk_load.h"

static struct kstate in, out;

/* the active state the kernel's ack leaves (header comment) */
static int expected_active(const struct rk_kernel *k, const struct kstate *ks)
{
    int irq = ks->active_irq;
    bool in_range = (unsigned)irq <= k->info.max_irq && irq < ks->n_irqs;
    return k->info.gic_split_eoi && in_range && ks->irq_state[irq] == IRQ_Signal;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rk_gic BUILD_DIR [N]\n");
        return 2;
    }
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 20000;
    static struct rk_kernel k;
    char err[600];
    if (rk_open(&k, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "rk_gic: %s\n", err);
        return 2;
    }
    struct gen_bounds b;
    gen_bounds_default(&b);
    uint64_t delivered = 0, left_active = 0, deactivated = 0, bad = 0, unfit = 0;
    for (uint64_t seed = 1; seed <= n; seed++) {
        if (rk_gen_state(&k, &in, seed, &b) != 0)
            continue;
        struct rk_extra x;
        if (rk_run_x(&k, &in, RK_SLOW, &out, &x) < 0) {
            unfit++;
            continue;
        }
        if (x.irq_active < 0 || x.outcome == HK_OUT_HALT)
            continue;
        delivered++;
        int want = expected_active(&k, &in);
        left_active += x.irq_active == 1;
        deactivated += x.irq_active == 0;
        if (x.irq_active != want && bad++ < 5)
            fprintf(stderr, "seed %" PRIu64 ": IRQ %d (state %d) left %s, the kernel's ack leaves it %s\n", seed,
                    in.active_irq, in.active_irq < in.n_irqs ? in.irq_state[in.active_irq] : -1,
                    x.irq_active ? "active" : "inactive", want ? "active" : "inactive");
    }
    printf("rk_gic: %" PRIu64 " IRQs delivered (%s EOI): %" PRIu64 " left active, %" PRIu64
           " deactivated, %" PRIu64 " not as the kernel's ack leaves them; %" PRIu64 " states do not fit\n",
           delivered, k.info.gic_split_eoi ? "split" : "combined", left_active, deactivated, bad, unfit);
    rk_close(&k);
    if (bad || !delivered)
        return 1;
    /* not vacuous: a split-EOI build shows both outcomes */
    if (k.info.gic_split_eoi && (!left_active || !deactivated))
        return 1;
    return 0;
}
