/*
 * The situations a search cannot draw and the exits argued unreachable
 * (check/situation.c, check/target.c): each reason holds where it is
 * printed. The owed reschedule IPI's rule is checked against the generator
 * (it draws one exactly when the rule says it can) and against the kernel
 * (the slowpath's schedule() leaves none, thread.c:400-401 at 43607edb6).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "tcommon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "invariant.h"
#include "irq_fast.h"
#include "sig_fast.h"
#include "situation.h"
#include "target.h"

static void why_for(const char **why, const struct target *t, int v, int kernel)
{
    situation_why_states(why, kernel, true, false, target_admit_beside(t) & INV_ADMIT_IPI,
                         target_admit_left_by(t, v) & INV_ADMIT_IPI);
}

/* The IRQ target may have fastpath_signal beside (it leaves the IPI, S9):
 * drawable. The signal target has nothing beside: the corrected one
 * leaves nothing, the merged one leaves it itself. */
static void test_why_ipi_owed(void **state)
{
    (void)state;
    const char *why[SIT_COUNT];
    why_for(why, &target_irq, FP_FIXED, KS_KERNEL_BASE);
    assert_null(why[SIT_IPI_OWED]);
    assert_non_null(why[SIT_SPLIT_EOI]);
    why_for(why, &target_irq, FP_FIXED, KS_KERNEL_MASTER);
    assert_null(why[SIT_SPLIT_EOI]);
    why_for(why, &target_signal, SIG_FIXED, KS_KERNEL_MASTER);
    assert_non_null(strstr(why[SIT_IPI_OWED], "no fastpath of this configuration leaves it"));
    why_for(why, &target_signal, SIG_MERGED, KS_KERNEL_MASTER);
    assert_non_null(strstr(why[SIT_IPI_OWED], "left only by the fastpath under check"));
    /* one core: every two-core situation, whatever the target */
    situation_why_states(why, KS_KERNEL_BASE, false, false, true, false);
    assert_non_null(why[SIT_SMP]);
    assert_non_null(why[SIT_IPI_OWED]);
    assert_non_null(why[SIT_STALLED]);
    assert_null(why[SIT_DOMAINS]);
    assert_non_null(strstr(why[SIT_VCPU_CORE1], "one core"));
    assert_non_null(strstr(why[SIT_CORE1_THREAD], "one core"));
    /* two cores: core 1's VCPU needs --vcpus; its own thread nothing */
    situation_why_states(why, KS_KERNEL_MASTER, true, false, true, false);
    assert_non_null(strstr(why[SIT_VCPU_CORE1], "--vcpus"));
    assert_null(why[SIT_CORE1_THREAD]);
    situation_why_states(why, KS_KERNEL_MASTER, true, true, true, false);
    assert_null(why[SIT_VCPU_CORE1]);
    situation_why_workloads(why, KS_KERNEL_BASE, 2, false, false);
    assert_non_null(strstr(why[SIT_VCPU_CORE1], "guests on core 0"));
    assert_null(why[SIT_SMP]);
    assert_non_null(why[SIT_DOMAINS]);
    assert_non_null(why[SIT_IPI_OWED]);
    situation_why_workloads(why, KS_KERNEL_BASE, 2, true, false);
    assert_null(why[SIT_IPI_OWED]);
}

/* Over generated states of each target (two cores allowed): the generator
 * draws an owed IPI at entry exactly where the rule says it can, and the
 * slowpath from every such state leaves none (schedule() sends and clears
 * it). */
static void test_generator_agrees(void **state)
{
    (void)state;
    const struct target *ts[] = {&target_irq, &target_signal};
    struct kstate *ks = tc_state();
    for (int ti = 0; ti < 2; ti++) {
        struct gen_bounds b;
        gen_bounds_default(&b);
        b.target = ts[ti];
        uint64_t counts[SIT_COUNT] = {0};
        for (uint64_t seed = 0; seed < 20000; seed++) {
            struct gen_src src;
            gen_src_seed(&src, seed);
            assert_int_equal(gen_state(ks, &src, &b), 0);
            situation_tally(ks, counts);
            ts[ti]->slow(ks);
            if (ks->ipi_pending)
                fail_msg("%s seed %llu: the slowpath left ipiReschedulePending %u", ts[ti]->name,
                         (unsigned long long)seed, ks->ipi_pending);
        }
        const char *why[SIT_COUNT];
        why_for(why, ts[ti], FP_FIXED, KS_KERNEL_BASE);
        if ((counts[SIT_IPI_OWED] != 0) == (why[SIT_IPI_OWED] != NULL))
            fail_msg("%s: %llu owed IPIs drawn, the rule says %s", ts[ti]->name,
                     (unsigned long long)counts[SIT_IPI_OWED], why[SIT_IPI_OWED] ? why[SIT_IPI_OWED] : "drawable");
        /* drawable on two cores (no rule excuses it), and drawn */
        assert_null(why[SIT_CORE1_THREAD]);
        assert_true(counts[SIT_CORE1_THREAD] > 0);
    }
    free(ks);
}

static char *unreached_text(const struct target *t, int v, const uint64_t *exits, int *never)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    *never = target_print_unreached(f, t, v, exits);
    fclose(f);
    return text;
}

/* slow_fault is argued unreachable (the invariant checker refuses a
 * running thread with a pending fault): said on its own line, never in
 * "never reached"; reached, it is a stale argument, said as such. */
static void test_unreached_argued(void **state)
{
    (void)state;
    uint64_t exits[TARGET_MAX_EXITS] = {0};
    for (int e = 0; e < target_signal.exits; e++)
        exits[e] = e != SIG_SLOW_FAULT && e != SIG_SLOW_PRIO;
    int never;
    char *t = unreached_text(&target_signal, SIG_FIXED, exits, &never);
    assert_int_equal(never, 1);
    assert_non_null(strstr(t, "  never reached: slow_prio\n"));
    assert_non_null(strstr(t, "  not reachable (argued): slow_fault: on MCS"));
    assert_null(strstr(t, "REACHED"));
    free(t);
    exits[SIG_SLOW_FAULT] = 1;
    exits[SIG_SLOW_PRIO] = 1;
    t = unreached_text(&target_signal, SIG_FIXED, exits, &never);
    assert_int_equal(never, 0);
    assert_non_null(strstr(t, "  never reached: none\n"));
    assert_non_null(strstr(t, "REACHED though argued unreachable (a stale argument): slow_fault:"));
    free(t);
    /* the IRQ target argues none; the merged variant's tally leaves out the fix's own exits */
    memset(exits, 0, sizeof exits);
    t = unreached_text(&target_irq, FP_PR1227, exits, &never);
    assert_int_equal(never, target_irq.exits - target_irq.first_merged_exit);
    assert_null(strstr(t, "argued"));
    free(t);
}

/* A situation drawn so rarely that its share rounds to 0.00% shows its
 * count, so that it does not read as never drawn. */
static void test_print_rare(void **state)
{
    (void)state;
    uint64_t counts[SIT_COUNT] = {0};
    counts[SIT_SMP] = 1000000;
    counts[SIT_IPI_IN_FLIGHT] = 3;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    situation_print(f, counts, 1000000, true);
    fclose(f);
    assert_non_null(strstr(text, "ipi_in_flight 0.00% (3)"));
    assert_non_null(strstr(text, "smp 100.00%  "));
    assert_null(strstr(text, "smp 100.00% ("));
    char *never = strstr(text, "never drawn");
    assert_non_null(never);
    *strchr(never, '\n') = 0;
    assert_null(strstr(never, "ipi_in_flight"));
    assert_null(strstr(never, "smp"));
    assert_non_null(strstr(never, "hyp"));
    free(text);
}

/* A run on one kernel build (validate, fuzz --real): what the build's
 * configuration fixes is not drawable, with the build option that would
 * change it; what it allows stays drawable (NULL). */
static void test_why_build(void **state)
{
    (void)state;
    struct ks_config c;
    assert_int_equal(cfg_preset(&c, "imx8mm"), 0);
    cfg_set_kernel(&c, KS_KERNEL_MASTER);
    c.smp = false, c.hyp = false, c.fpu = true, c.num_domains = 1;
    const char *why[SIT_COUNT];
    situation_why_build(why, &c, true);
    assert_non_null(strstr(why[SIT_SMP], "--cores 2"));
    assert_non_null(strstr(why[SIT_CORE1_THREAD], "--cores 2"));
    assert_non_null(strstr(why[SIT_DOMAINS], "--domains"));
    assert_non_null(strstr(why[SIT_HYP], "KernelArmHypervisorSupport"));
    assert_non_null(why[SIT_NO_FPU]);
    assert_null(why[SIT_GICV3]);      /* imx8mm: GICv3 */
    assert_null(why[SIT_SPLIT_EOI]);  /* master on GICv3 */
    assert_null(why[SIT_SIGNAL_FASTPATH]);
    assert_null(why[SIT_MIN_BUDGET]);
    situation_why_build(why, &c, false);
    assert_non_null(strstr(why[SIT_SIGNAL_FASTPATH], "KernelSignalFastpath"));
    c.smp = true, c.hyp = true;
    situation_why_build(why, &c, true);
    assert_null(why[SIT_SMP]);
    assert_null(why[SIT_VCPU_CORE1]);
    assert_null(why[SIT_CORE1_THREAD]);
    assert_null(why[SIT_HYP]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_why_ipi_owed),
        cmocka_unit_test(test_generator_agrees),
        cmocka_unit_test(test_unreached_argued),
        cmocka_unit_test(test_print_rare),
        cmocka_unit_test(test_why_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
