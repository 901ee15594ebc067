#define _POSIX_C_SOURCE 200809L
/*
 * Hypervisor workloads in the workload simulator (issue 29 item 4): VCPU
 * threads from boot, the guest's virtual timer and the VGIC maintenance
 * interrupt taken through handleReservedIRQ, VPPIEvent and
 * VGICMaintenance, faults to the VMM and its replies. The example
 * workloads examples/vcpu-*.wl; each figure is argued from the kernel
 * (master 1326364bc, base 43607edb6: src/arch/arm/object/vcpu.c).
 */
#include "tcommon.h"

#include "scenario.h"
#include "sim.h"
#include "target.h"
#include "vcpu.h"

#define EX(name) IRQSIM_SRC "/examples/" name

static struct workload w;

static struct sim *start(const char *file, int kernel)
{
    struct scen_error err;
    assert_int_equal(workload_load(file, &w, &err), 0);
    if (kernel >= 0)
        w.kernel = (uint8_t)kernel;
    struct sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    assert_int_equal(sim_init(s, &w, FP_FIXED), 0);
    return s;
}

static struct sim *run(const char *file, int kernel)
{
    struct sim *s = start(file, kernel);
    sim_run(s);
    return s;
}

/* a workload's text parsed and set up: sim_init's status in *rc */
static struct sim *start_text(const char *text, int *rc)
{
    struct scen_error err;
    assert_int_equal(workload_parse(text, strlen(text), "t.wl", &w, &err), 0);
    struct sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    *rc = sim_init(s, &w, FP_FIXED);
    return s;
}

static void done(struct sim *s)
{
    sim_free(s);
    free(s);
}

/* every state admitted, no kernel assertion, the two kernels alike */
static void assert_clean(const struct sim *s)
{
    assert_true(sim_all_admitted(s));
    assert_int_equal(s->k[0].asserts + s->k[1].asserts, 0);
    assert_false(s->diverged);
    assert_false(s->drift);
}

/* Boot: the two PPIs reserved and unmasked (boot.c:128-129), the kernel's
 * timer the hypervisor timer's PPI 26; the guest's VCPU bound both ways
 * (associateVCPUTCB), its fault handler the VMM's endpoint, no VCPU
 * loaded before the guest first runs. */
static void test_boot(void **state)
{
    (void)state;
    struct sim *s = start(EX("vcpu-maintenance.wl"), -1);
    const struct kstate *ks = &s->k[0].ks;
    assert_true(ks->cfg.hyp);
    assert_int_equal(w.timer_irq, 26);
    assert_int_equal(ks->irq_state[26], IRQ_Timer);
    assert_int_equal(ks->irq_state[INTERRUPT_VTIMER_EVENT], IRQ_Reserved);
    assert_int_equal(ks->irq_state[INTERRUPT_VGIC_MAINTENANCE], IRQ_Reserved);
    assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    int g = tc_tcb_named(ks, "g");
    assert_int_equal(ks->n_vcpus, 1);
    assert_int_equal(ks->tcbs[g].vcpu, 0);
    assert_int_equal(ks->vcpus[0].tcb, g);
    assert_int_equal(ks->vcpus[0].lr[0], VGIC_LR_EOI | 1); /* lr=5: pending, EOI maintenance */
    assert_int_equal(ks->tcbs[g].fault_ep, 0);
    assert_int_equal(ks->cur_vcpu, KS_NONE);
    done(s);
}

/* Three timer events on master, each while the guest runs with its VCPU
 * enabled: VPPIEvent masks the PPI, sets vppi_masked and sends the VMM a
 * VPPIEvent fault (vcpu.c:106-142); the VMM acks (vppi_masked cleared,
 * vcpu.c:551-555) and replies, which restarts the guest; its VCPU enabled
 * again unmasks the PPI (restore_virt_timer). The event at 50010 finds the
 * guest back (the VMM's two calls take a few ticks), so all three are
 * delivered, none coalesced; the VMM makes 1 + 2 x 3 system calls. */
static void test_vtimer_master(void **state)
{
    (void)state;
    struct sim *s = run(EX("vcpu-vtimer.wl"), -1);
    assert_clean(s);
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        assert_int_equal(x->arrived[0], 3);
        assert_int_equal(x->delivered[0], 3);
        assert_int_equal(x->coalesced[0], 0);
        assert_int_equal(x->vtimer_dropped, 0);
        assert_false(x->pending[0]);
        assert_int_equal(x->entries[SE_DEVICE], 3);
        assert_int_equal(x->entries[SE_SYSCALL], 7);
        /* at the horizon the guest runs, its VCPU loaded and enabled, the
         * VPPI acked and unmasked */
        int g = tc_tcb_named(&x->ks, "g");
        assert_int_equal(x->ks.cur_thread, g);
        assert_int_equal(x->ks.cur_vcpu, 0);
        assert_true(x->ks.vcpu_active);
        assert_false(x->ks.vcpus[0].vppi_masked);
        assert_false(x->ks.irq_masked[INTERRUPT_VTIMER_EVENT]);
        assert_int_equal(x->ks.tcbs[g].fault, FAULT_None);
    }
    done(s);
}

/* examples/vcpu-smp.wl and its mirror: three timer events, each delivered;
 * the VMM's 7 system calls; 7 reschedule IPIs (below) */
static void assert_three_events_two_cores(const struct sim_kernel *x)
{
    assert_int_equal(x->arrived[0], 3);
    assert_int_equal(x->delivered[0], 3);
    assert_int_equal(x->vtimer_dropped, 0);
    assert_int_equal(x->entries[SE_DEVICE], 3);
    assert_int_equal(x->entries[SE_SYSCALL], 7);
    assert_int_equal(x->entries[SE_IPI], 7);
}

/* examples/vcpu-smp.wl: the guest on core 0, its VMM on core 1. Three
 * timer events, each delivered (as on one core, test_vtimer); the VMM
 * makes 7 system calls (its recv, then ackvppi and replyrecv per fault);
 * 7 reschedule IPIs: the VMM's resume at boot reaches core 1 by one (the
 * root thread runs on core 0), each fault wakes the VMM on core 1 and each
 * reply wakes g on core 0 (remoteQueueUpdate, tcb.c:442-458). At the
 * horizon g runs on core 0 with its VCPU active and its VPPI acked from
 * core 1; core 1 never loaded a VCPU (the VMM has none: vcpu_switch(NULL)
 * with none loaded does nothing, vcpu.c:246). */
static void test_vtimer_two_cores(void **state)
{
    (void)state;
    struct sim *s = run(EX("vcpu-smp.wl"), -1);
    assert_clean(s);
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        assert_three_events_two_cores(x);
        int g = tc_tcb_named(&x->ks, "g");
        assert_int_equal(x->ks.cur_thread, g);
        assert_int_equal(x->ks.tcbs[g].affinity, 0);
        assert_int_equal(x->ks.cur_vcpu, 0);
        assert_true(x->ks.vcpu_active);
        assert_false(x->ks.vcpus[0].vppi_masked);
        assert_false(x->ks.irq_masked[INTERRUPT_VTIMER_EVENT]);
        assert_int_equal(x->ks.core_vcpu[1], KS_NONE);
        assert_false(x->ks.core_vcpu_active[1]);
    }
    done(s);
    /* before the first event: core 1's switches (to the VMM, then to its
     * idle thread when the VMM waits) were core 1's own vcpu_switch, which
     * left core 0's VCPU, active under g, and its virtual timer alone */
    s = start(EX("vcpu-smp.wl"), -1);
    w.horizon = 4000;
    sim_run(s);
    for (int k = 0; k < 2; k++) {
        const struct kstate *ks = &s->k[k].ks;
        assert_int_equal(ks->core_cur[1], ks->core_idle[1]);
        assert_int_equal(ks->cur_thread, tc_tcb_named(ks, "g"));
        assert_int_equal(ks->cur_vcpu, 0);
        assert_true(ks->vcpu_active);
        assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    }
    done(s);
}

/* A timer event before the guest's VCPU was ever loaded has no guest
 * timer behind it: dropped, said. The VMM computes 100 ticks first. */
static void test_vtimer_before_any_vcpu(void **state)
{
    (void)state;
    static const char text[] = "kernel master\nhyp 1\nhorizon 20000\nep fep\nreply r0\n"
                               "sc gsc budget=8000 period=8000\nsc vsc budget=8000 period=8000\n"
                               "thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:1000,loop\n"
                               "thread vmm prio=200 sc=vsc prog=compute:100,recv:fep:r0,ackvppi:g,"
                               "replyrecv:fep:r0,loop:2\nvtimer at=50,5000\n";
    int rc;
    struct sim *s = start_text(text, &rc);
    assert_int_equal(rc, 0);
    sim_run(s);
    assert_clean(s);
    assert_int_equal(s->k[0].arrived[0], 2);
    assert_int_equal(s->k[0].vtimer_dropped, 1);
    assert_int_equal(s->k[0].delivered[0], 1);
    done(s);
}

/* The budget check of the IRQ entry at 3,900 (100 ticks before the
 * guest's 4,000 of budget end, within MIN_BUDGET) postpones the guest into
 * the release queue (sporadic, period 40,000). Master's VPPIEvent leaves
 * an unschedulable thread alone (vcpu.c:123-124): no fault, the PPI still
 * pending; the idle thread's vcpu_switch(NULL) masks it; at the guest's
 * refill (40,000 after its first run at t=1, less what the release of an
 * early refill allows) its VCPU is enabled, the PPI unmasked and taken
 * again, and the VMM gets its one fault then. */
static void test_release_queue_master(void **state)
{
    (void)state;
    struct sim *s = run(EX("vcpu-release-queue.wl"), KS_KERNEL_MASTER);
    assert_clean(s);
    const struct sim_kernel *x = &s->k[0];
    assert_int_equal(x->arrived[0], 1);
    assert_int_equal(x->delivered[0], 2);
    assert_int_equal(x->entries[SE_SYSCALL], 3); /* recv, then one ackvppi and one replyrecv */
    /* the second delivery came with the refill, not before */
    ticks_t second = 0;
    int n = 0;
    for (size_t i = 0; i < x->n_marks; i++)
        if (x->marks[i].kind == SE_DEVICE && ++n == 2)
            second = x->marks[i].t;
    assert_true(second >= 39000);
    assert_false(x->pending[0]);
    done(s);
}

/* The same on base: VPPIEvent tests tcbQueued only (base vcpu.c:121), and
 * a thread postponed into the release queue is not tcbQueued: it is sent
 * the fault, left blocked on its reply and in the release queue, which
 * the checker refuses at the very next entry (invariant thread). This is
 * the kernel's bug, fixed upstream by 6dbe58ef0 (2025): found from boot. */
static void test_release_queue_base(void **state)
{
    (void)state;
    struct sim *s = run(EX("vcpu-release-queue.wl"), KS_KERNEL_BASE);
    const struct sim_kernel *x = &s->k[0];
    assert_true(x->refused > 0);
    assert_int_equal(x->refusals[0].t, 3901);
    assert_int_equal(x->refusals[0].inv, INV_THREAD);
    assert_non_null(strstr(x->refusals[0].msg, "in the release queue while BlockedOnReply"));
    done(s);
}

/* The guest ends the virtual IRQ of LR 0 (veoi:0 after 100 ticks): the
 * LR goes from pending with EOI maintenance to invalid with it, the VGIC
 * sets EISR bit 0 and MISR.EOI and raises the maintenance PPI;
 * VGICMaintenance (vcpu.c:144-223) clears the LR's EOI bit in the VGIC
 * and the VCPU's copy and sends the VMM a fault naming LR 0; the VMM's
 * reply restarts the guest. Taken once: the LR no longer asks. */
static void test_maintenance(void **state)
{
    (void)state;
    struct sim *s = run(EX("vcpu-maintenance.wl"), -1);
    assert_clean(s);
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        assert_int_equal(x->delivered[SIM_Q_MAINT], 1);
        assert_int_equal(x->entries[SE_DEVICE], 1);
        assert_int_equal(x->entries[SE_SYSCALL], 2);
        assert_int_equal(x->ks.vgic_lr[0], 0);
        assert_int_equal(x->ks.vgic_eisr, 0);
        assert_false(x->ks.vgic_misr_eoi);
        int g = tc_tcb_named(&x->ks, "g");
        assert_int_equal(x->ks.cur_thread, g);
        assert_int_equal(x->ks.tcbs[g].fault, FAULT_None);
    }
    done(s);
}

/* What the simulator refuses at setup: more list registers than the
 * VGIC has. (On two cores a guest may run on either core: each core's
 * virtual timer and maintenance PPIs are delivered to it,
 * test_vtimer_core1.) */
static void test_setup_refusals(void **state)
{
    (void)state;
    int rc;
    struct sim *s = start_text("hyp 1\nthread g vcpu=1 lr=1,1,1,1,1 prog=compute:10\n", &rc);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(s->setup_error, "more lr= values than the VGIC's list registers"));
    done(s);
    static const char *const good[] = {
        "hyp 1\ncores 2\nthread g vcpu=1 prog=compute:10\n",
        "hyp 1\ncores 2\nsc s budget=1000 period=1000 core=1\nthread g vcpu=1 sc=s prog=compute:10\n",
        ("hyp 1\ncores 2\nsc s budget=1000 period=1000\nthread g vcpu=1 sc=s prog=compute:10\n"
         "thread h prio=1 prog=unbind:s\n"),
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        s = start_text(good[i], &rc);
        assert_int_equal(rc, 0);
        done(s);
    }
}

/* examples/vcpu-smp-core1.wl: examples/vcpu-smp.wl the other way round,
 * the guest on core 1 and the virtual timer core 1's (vtimer core=1). The
 * same figures by symmetry: three events, each core 1's VPPIEvent
 * (delivered, a device entry of core 1); 7 system calls of the VMM (its
 * recv, then ackvppi and replyrecv per fault); 7 reschedule IPIs: g's
 * resume at boot reaches core 1 by one (the root thread runs on core 0),
 * each fault wakes the VMM on core 0 and each reply wakes g on core 1
 * (remoteQueueUpdate). At the horizon g runs on core 1 with its VCPU
 * loaded and active there, the VPPI acked from core 0 and core 1's timer
 * unmasked
 * (restore_virt_timer at g's switch there); core 0 never loaded a VCPU, so
 * its own virtual timer mask was never touched (unmasked since boot). */
static void test_vtimer_core1(void **state)
{
    (void)state;
    struct sim *s = run(EX("vcpu-smp-core1.wl"), -1);
    assert_clean(s);
    assert_int_equal(s->sweep_checks, 3); /* the one-entry check of each, as core 1's state */
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        assert_three_events_two_cores(x);
        int g = tc_tcb_named(&x->ks, "g");
        assert_int_equal(x->ks.core_cur[1], g);
        assert_int_equal(x->ks.tcbs[g].affinity, 1);
        assert_int_equal(x->ks.core_vcpu[1], 0);
        assert_true(x->ks.core_vcpu_active[1]);
        assert_false(x->ks.core_vtimer_masked[1]);
        assert_false(x->ks.vcpus[0].vppi_masked);
        assert_int_equal(x->ks.tcbs[g].fault, FAULT_None);
        assert_int_equal(x->ks.cur_vcpu, KS_NONE);
        assert_false(x->ks.vcpu_active);
        assert_false(x->ks.irq_masked[INTERRUPT_VTIMER_EVENT]);
    }
    done(s);
    /* Mid-event: at 5000 + 1 the VMM has not run yet (the IPI to core 0
     * and its entries take ticks), so VPPIEvent on core 1 has masked core
     * 1's timer and g's VPPI and left core 0's mask alone. */
    s = start(EX("vcpu-smp-core1.wl"), -1);
    w.horizon = 5001;
    sim_run(s);
    for (int k = 0; k < 2; k++) {
        const struct kstate *ks = &s->k[k].ks;
        int g = tc_tcb_named(ks, "g");
        assert_int_equal(s->k[k].delivered[0], 1);
        assert_true(ks->vcpus[0].vppi_masked);
        assert_true(ks->core_vtimer_masked[1]);
        assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
        assert_int_equal(ks->tcbs[g].fault, FAULT_VPPIEvent);
    }
    done(s);
    /* The same workload with core 0's virtual timer (vtimer without
     * core=): core 0 never loads a VCPU, so its timer fires for no guest:
     * each arrival dropped, said, none delivered. */
    struct scen_error err;
    assert_int_equal(workload_load(EX("vcpu-smp-core1.wl"), &w, &err), 0);
    w.irqs[0].core = 0;
    s = calloc(1, sizeof *s);
    assert_non_null(s);
    assert_int_equal(sim_init(s, &w, FP_FIXED), 0);
    sim_run(s);
    assert_clean(s);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(s->k[k].arrived[0], 3);
        assert_int_equal(s->k[k].vtimer_dropped, 3);
        assert_int_equal(s->k[k].delivered[0], 0);
        assert_int_equal(s->k[k].entries[SE_DEVICE], 0);
    }
    done(s);
}

/* Core 1's virtual timer arriving while core 0 holds the big lock: core
 * 1, at user level (g computes), takes the PPI at once and waits for the
 * lock with it (c_handle_interrupt), as core 0 does with a device IRQ
 * (arrived_in_lock_wait): acknowledged in a lock wait, taken when core 0's
 * entry returns. Core 0's thread y makes one system call (yield) after
 * computing 4950 ticks from its first run at 81 (after the VMM's recv,
 * entry latency 40), so core 0 is in the kernel from 5031 for 40 ticks:
 * an arrival at 5050 falls in it, one at 5000 does not. */
static void test_vtimer_core1_lock_wait(void **state)
{
    (void)state;
    static const unsigned at[] = {5050, 5000};
    for (int i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "board imx8mm\nkernel master\nhyp 1\ncores 2\nhorizon 20000\nentry_latency 40\nep fep\nreply r0\n"
                 "sc gsc budget=8000 period=8000 core=1\nsc vsc budget=8000 period=8000\n"
                 "sc ysc budget=8000 period=8000\n"
                 "thread g prio=100 sc=gsc vcpu=1 fault_ep=fep prog=compute:1000,loop\n"
                 "thread vmm prio=200 sc=vsc prog=recv:fep:r0,ackvppi:g,replyrecv:fep:r0,loop:1\n"
                 "thread y prio=50 sc=ysc prog=compute:4950,yield,compute:100000\n"
                 "vtimer core=1 at=%u\n",
                 at[i]);
        int rc;
        struct sim *s = start_text(text, &rc);
        assert_int_equal(rc, 0);
        sim_run(s);
        assert_clean(s);
        for (int k = 0; k < 2; k++) {
            assert_int_equal(s->k[k].delivered[0], 1);
            assert_int_equal(s->k[k].lock_waits, i == 0);
            assert_int_equal(s->k[k].entries[SE_DEVICE], 1);
        }
        done(s);
    }
}

/* examples/vcpu-maintenance.wl on core 1: the guest g (lr=5: pending, EOI
 * maintenance) and its VMM on core 1's SCs. The guest's veoi:0 on core 1
 * sets core 1's VGIC MISR.EOI; the maintenance PPI is core 1's, taken
 * there (VGICMaintenance: the LR's EOI bit cleared in the VGIC and the
 * VCPU's copy, the VMM sent a fault naming LR 0), once; core 0's VGIC is
 * untouched (no VCPU ever loaded there). */
static void test_maintenance_core1(void **state)
{
    (void)state;
    static const char text[] = "board imx8mm\nkernel master\nhyp 1\ncores 2\nhorizon 50000\nep fep\nreply r0\n"
                               "sc gsc budget=8000 period=8000 core=1\nsc vsc budget=8000 period=8000 core=1\n"
                               "thread g prio=100 sc=gsc vcpu=1 lr=5 fault_ep=fep "
                               "prog=compute:100,veoi:0,compute:100000\n"
                               "thread vmm prio=200 sc=vsc prog=recv:fep:r0,replyrecv:fep:r0,loop:1\n";
    int rc;
    struct sim *s = start_text(text, &rc);
    assert_int_equal(rc, 0);
    sim_run(s);
    assert_clean(s);
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        const struct kstate *ks = &x->ks;
        assert_int_equal(x->delivered[SIM_Q_MAINT], 1);
        assert_int_equal(x->entries[SE_DEVICE], 1);
        assert_int_equal(x->entries[SE_SYSCALL], 2);
        int g = tc_tcb_named(ks, "g");
        assert_int_equal(ks->core_cur[1], g);
        assert_int_equal(ks->tcbs[g].fault, FAULT_None);
        assert_int_equal(ks->core_vgic_lr[1][0], 0);
        assert_int_equal(ks->vcpus[0].lr[0] & VGIC_LR_EOI, 0);
        assert_false(ks->core_vgic_misr_eoi[1]);
        assert_int_equal(ks->cur_vcpu, KS_NONE);
        assert_false(ks->vgic_misr_eoi);
    }
    done(s);
}

/* examples/vcpu-storm.wl: a guest on a round-robin SC of budget
 * MIN_BUDGET, entries taking 20 ticks. From the timer event at 5,000 each
 * entry's budget check round-robins the guest (chargeBudget ->
 * endTimeslice -> tcbSchedAppend: the head less the 20 consumed is below
 * MIN_BUDGET), VPPIEvent finds it tcbQueued and sends nothing, the PPI
 * is taken again at the return: 1,000 entries 20 ticks apart, the storm
 * noted at 5,000 + 1,000 x 20. On base alike (vcpu.c:121 tests tcbQueued
 * too). With budget 320 the guest's head stays sufficient: the second
 * entry (the first round-robins it once the refill is used up, or not at
 * all) delivers the fault, no storm. */
static void test_storm(void **state)
{
    (void)state;
    for (int kernel = 0; kernel < KS_KERNEL_COUNT; kernel++) {
        struct sim *s = run(EX("vcpu-storm.wl"), kernel);
        assert_true(sim_all_admitted(s));
        assert_true(sim_stormed(s));
        for (int k = 0; k < 2; k++) {
            const struct sim_kernel *x = &s->k[k];
            assert_int_equal(x->vppi_deferred, SIM_STORM_DEFERRALS);
            assert_int_equal(x->storm_t, 5000 + SIM_STORM_DEFERRALS * 20);
            assert_int_equal(x->delivered[0], SIM_STORM_DEFERRALS);
            assert_int_equal(x->entries[SE_SYSCALL], 1); /* the VMM's recv: no fault came */
            assert_int_equal(x->ks.tcbs[tc_tcb_named(&x->ks, "g")].fault, FAULT_None);
        }
        char *json = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&json, &len);
        assert_int_equal(sim_json(f, s), 0);
        fclose(f);
        assert_non_null(strstr(json, "\"vtimer_taken\":1000,\"vtimer_dropped\":0,\"maintenance_taken\":0,"
                                     "\"storm_at\":25000,\"threads\":{"));
        free(json);
        done(s);
    }
    struct scen_error err;
    assert_int_equal(workload_load(EX("vcpu-storm.wl"), &w, &err), 0);
    w.scs[0].budget = w.scs[0].period = 320;
    struct sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    assert_int_equal(sim_init(s, &w, FP_FIXED), 0);
    sim_run(s);
    assert_clean(s);
    assert_false(sim_stormed(s));
    assert_true(s->k[0].delivered[0] <= 2);
    assert_int_equal(s->k[0].entries[SE_SYSCALL], 3); /* recv, ackvppi, replyrecv */
    done(s);
}

/* examples/vcpu-storm.wl's guest with the maintenance interrupt instead
 * of its timer: lr=5 (pending, EOI maintenance), the guest ends it
 * (veoi:0) after 4,000 ticks of its own; its SC of budget MIN_BUDGET is
 * round-robined by every entry's budget check, so VGICMaintenance finds
 * it queued and sends nothing (master vcpu.c:152-153), leaving the LR's
 * EOI bit and the level-triggered line, taken again at once: a storm,
 * stopped after SIM_STORM_DEFERRALS entries 20 ticks apart and named as
 * the maintenance line's. The guest reaches veoi at 4,522 (measured: its
 * 4,000 ticks, the 25 timer entries of its round robin, 20 ticks each, and
 * the setup's entries before it first ran); what the kernel decides is
 * the 1,000 entries 20 ticks apart from there. With budget 320 the second
 * entry delivers the fault (recv, replyrecv): no storm. */
static void test_storm_maintenance(void **state)
{
    (void)state;
    static const char text[] = "board imx8mm\nkernel master\nhyp 1\nentry_latency 20\nhorizon 100000\nep fep\n"
                               "reply r0\nsc gsc budget=160 period=160\nsc vsc budget=8000 period=8000\n"
                               "thread g prio=100 sc=gsc vcpu=1 lr=5 fault_ep=fep "
                               "prog=compute:4000,veoi:0,compute:100000\n"
                               "thread vmm prio=200 sc=vsc prog=recv:fep:r0,replyrecv:fep:r0,loop:1\n";
    int rc;
    struct sim *s = start_text(text, &rc);
    assert_int_equal(rc, 0);
    sim_run(s);
    assert_true(sim_all_admitted(s));
    assert_true(sim_stormed(s));
    for (int k = 0; k < 2; k++) {
        const struct sim_kernel *x = &s->k[k];
        assert_int_equal(x->storm_q, SIM_Q_MAINT);
        assert_int_equal(x->delivered[SIM_Q_MAINT], SIM_STORM_DEFERRALS);
        assert_int_equal(x->storm_t, 4522 + SIM_STORM_DEFERRALS * 20);
        assert_int_equal(x->entries[SE_SYSCALL], 1); /* the VMM's recv: no fault came */
        assert_int_equal(x->ks.tcbs[tc_tcb_named(&x->ks, "g")].fault, FAULT_None);
    }
    done(s);
    char two[sizeof text];
    snprintf(two, sizeof two, "%s", text);
    memcpy(strstr(two, "budget=160 period=160"), "budget=320 period=320", 21);
    s = start_text(two, &rc);
    assert_int_equal(rc, 0);
    sim_run(s);
    assert_clean(s);
    assert_false(sim_stormed(s));
    assert_int_equal(s->k[0].delivered[SIM_Q_MAINT], 2);
    assert_int_equal(s->k[0].entries[SE_SYSCALL], 2);
    done(s);
}

/* The workload fuzzer's hypervisor draw (workload_from_bytes with vcpus):
 * every workload a hypervisor build on one core with at least one guest
 * (a VCPU thread whose fault handler is the VMM's endpoint), a VMM on
 * that endpoint, and a vtimer line; it prints and parses back to itself
 * and boots. Without vcpus nothing of it is drawn. On two cores the same,
 * with one vtimer line of a drawn core or one per core; across the seeds
 * some guest runs on core 1's SC and some vtimer line is core 1's. */
static void test_generator(void **state)
{
    (void)state;
    static struct workload back, plain;
    uint8_t bytes[256];
    for (int seed = 0; seed < 64; seed++) {
        for (size_t i = 0; i < sizeof bytes; i++)
            bytes[i] = (uint8_t)(seed * 131 + i * 29 + (i >> 3) * seed);
        assert_int_equal(workload_from_bytes(bytes, sizeof bytes, 1, target_default(), true, &w), 0);
        assert_true(w.hyp);
        assert_int_equal(w.timer_irq, 26);
        int guests = 0, vmm = -1, vt = 0;
        for (int t = 0; t < w.n_threads; t++) {
            guests += w.threads[t].vcpu;
            if (w.threads[t].vcpu)
                assert_int_equal(w.threads[t].fault_ep, w.n_eps - 1);
            if (!strcmp(w.threads[t].name, "vmm"))
                vmm = t;
        }
        for (int q = 0; q < w.n_irqs; q++) {
            vt += w.irqs[q].vtimer;
            assert_true(w.irqs[q].vtimer || (w.irqs[q].irq != 25 && w.irqs[q].irq != 26 && w.irqs[q].irq != 27));
        }
        assert_true(guests >= 1 && guests <= 2);
        assert_true(vmm >= 0);
        assert_int_equal(w.threads[vmm].prog[0].op, OP_RECV);
        assert_int_equal(w.threads[vmm].prog[0].a, w.n_eps - 1);
        assert_int_equal(vt, 1);
        assert_true(workload_round_trips(&w, &back, stderr));
        struct sim *s = calloc(1, sizeof *s);
        assert_non_null(s);
        assert_int_equal(sim_init(s, &w, FP_FIXED), 0);
        done(s);
        assert_int_equal(workload_from_bytes(bytes, sizeof bytes, 1, target_default(), false, &plain), 0);
        assert_false(plain.hyp);
        assert_int_equal(workload_from_bytes(bytes, sizeof bytes, 2, target_default(), false, &plain), 0);
        assert_false(plain.hyp);
    }
    int guest_core1 = 0, vt_core1 = 0, vt_both = 0;
    for (int seed = 0; seed < 64; seed++) {
        for (size_t i = 0; i < sizeof bytes; i++)
            bytes[i] = (uint8_t)(seed * 131 + i * 29 + (i >> 3) * seed);
        assert_int_equal(workload_from_bytes(bytes, sizeof bytes, 2, target_default(), true, &w), 0);
        assert_true(w.hyp);
        assert_int_equal(w.cores, 2);
        unsigned cores = 0;
        for (int q = 0; q < w.n_irqs; q++)
            if (w.irqs[q].vtimer) {
                assert_false(cores >> w.irqs[q].core & 1u); /* one line per core */
                cores |= 1u << w.irqs[q].core;
            }
        assert_true(cores != 0);
        vt_core1 += cores >> 1 & 1u;
        vt_both += cores == 3;
        for (int t = 0; t < w.n_threads; t++)
            guest_core1 += w.threads[t].vcpu && w.threads[t].sc >= 0 && w.scs[w.threads[t].sc].core == 1;
        assert_true(workload_round_trips(&w, &back, stderr));
        struct sim *s = calloc(1, sizeof *s);
        assert_non_null(s);
        assert_int_equal(sim_init(s, &w, FP_FIXED), 0);
        done(s);
    }
    assert_true(guest_core1 > 0);
    assert_true(vt_core1 > 0);
    assert_true(vt_both > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boot),
        cmocka_unit_test(test_vtimer_master),
        cmocka_unit_test(test_vtimer_before_any_vcpu),
        cmocka_unit_test(test_release_queue_master),
        cmocka_unit_test(test_release_queue_base),
        cmocka_unit_test(test_maintenance),
        cmocka_unit_test(test_setup_refusals),
        cmocka_unit_test(test_vtimer_two_cores),
        cmocka_unit_test(test_vtimer_core1),
        cmocka_unit_test(test_vtimer_core1_lock_wait),
        cmocka_unit_test(test_maintenance_core1),
        cmocka_unit_test(test_generator),
        cmocka_unit_test(test_storm),
        cmocka_unit_test(test_storm_maintenance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
