/*
 * Tests of another core's VCPU (issue 29, item 4): the per-core
 * armHSCurVCPU, armHSVCPUActive, VGIC registers and virtual timer mask of
 * kstate.h (core_vcpu and the fields beside it), swapped in by
 * smp_swap_core so that core 1's code is core 0's; what core 0's
 * operations leave on core 1 and the other way round; the checker's vcpu
 * invariant across cores; the scenario line vgic_core. Expected values
 * are the kernel's, lines of master 1326364bc: src/arch/arm/object/vcpu.c
 * is "vcpu.c", include/arch/arm/armv/armv8-a/64/armv/vcpu.h "armv/vcpu.h".
 *
 * Board imx8mm (tcount.h): MIN_BUDGET 160 ticks, maxIRQ 160.
 */
#include "tcount.h"

#include "classify.h"
#include "defect.h"
#include "diff.h"
#include "gen.h"
#include "print.h"
#include "scenario.h"
#include "sched.h"
#include "schedcontext.h"
#include "sig_fast.h"
#include "situation.h"
#include "smp.h"
#include "target.h"
#include "vcpu.h"

/* Core 0 runs a (priority 100, SC a_sc); core 1 runs b (priority 50, SC
 * b_sc of 8000 ticks), with its idle thread and idle SC; a hypervisor
 * build whose boot reserved the two PPIs of each core
 * (arm/kernel/boot.c:128-129 for core 0, :284-287 for core 1). VCPU v1
 * with list registers {pending, active+EOI} is bound to b on core 1
 * (associateVCPUTCB of that core's current thread switches to it at once,
 * vcpu.c:303-305: vcpu_restore then vcpu_enable, :84-104, 244-245). */
struct hyp2 {
    struct kstate *ks;
    int a, b, idle1, idle_sc1, v1;
};

static struct hyp2 hyp_two_cores(bool vppi_masked)
{
    struct hyp2 x;
    struct kstate *ks = tc_running("a", "a_sc", &x.a, NULL);
    x.ks = ks;
    ks->cfg.hyp = true;
    build_irq_state(ks, INTERRUPT_VGIC_MAINTENANCE, IRQ_Reserved);
    build_irq_state(ks, INTERRUPT_VTIMER_EVENT, IRQ_Reserved);
    x.idle1 = tc_core1_idle(ks, &x.idle_sc1);
    x.b = build_thread(ks, "b", 50, 0);
    ks->tcbs[x.b].affinity = 1;
    int b_sc = build_sc(ks, "b_sc", x.b, 8000, 0, 0);
    x.v1 = ks_add_vcpu(ks, "v1");
    ks->vcpus[x.v1].lr[0] = 1;
    ks->vcpus[x.v1].lr[1] = 2 | VGIC_LR_EOI;
    ks->vcpus[x.v1].vppi_masked = vppi_masked;
    smp_swap_core(ks, 1);
    ks->cur_time = 900;
    build_run(ks, x.b);
    associateVCPUTCB(ks, x.v1, x.b);
    smp_swap_core(ks, 1);
    assert_int_equal(ks->core_cur[1], x.b);
    assert_int_equal(ks->core_sc[1], b_sc);
    return x;
}

/* seL4_ARM_VCPU_InjectIRQ from core 0 (invokeVCPUInjectIRQ, vcpu.c:
 * 395-410, and handleVCPUInjectInterruptIPI, :600-607): v1, bound to b on
 * core 1 and loaded there, gets it in core 1's VGIC by the remote call,
 * its saved copy and core 0's VGIC untouched; after b's VCPU is unloaded
 * there (vcpu_flush on core 1), the remote call writes the copy; a
 * VCPU bound to a thread of core 0 but not loaded, and one bound to none
 * (the case d26f1ff4d guarded), get their copies written on core 0. */
static void test_inject_irq_two_cores(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    ks->cfg.smp = true;
    ks->vgic_num_lr = 4;
    uint64_t lr2 = 2ull << 32; /* vid 0, priority 0, group 0, list register 2 */
    assert_int_equal(decodeVCPUInjectIRQ(ks, x.v1, 1, lr2), SYSERR_NONE);
    assert_int_equal(ks->core_vgic_lr[1][2], 1 | VGIC_LR_EOI);
    assert_int_equal(ks->vcpus[x.v1].lr[2], 0);
    assert_int_equal(ks->vgic_lr[2], 0);
    assert_int_equal(ks->tcbs[x.a].state, TS_Restart);
    smp_swap_core(ks, 1);
    vcpu_flush(ks);
    smp_swap_core(ks, 1);
    uint64_t lr3 = 3ull << 32;
    assert_int_equal(decodeVCPUInjectIRQ(ks, x.v1, 1, lr3), SYSERR_NONE);
    assert_int_equal(ks->vcpus[x.v1].lr[3], 1 | VGIC_LR_EOI);
    assert_int_equal(ks->core_vgic_lr[1][3], 0);
    int w = ks_add_vcpu(ks, "w"), u = ks_add_vcpu(ks, "u");
    associateVCPUTCB(ks, w, x.a);
    vcpu_flush(ks); /* a's VCPU bound, not loaded (a disabled one stays loaded: vcpu_switch(NULL)) */
    assert_int_equal(decodeVCPUInjectIRQ(ks, w, 1, lr3), SYSERR_NONE);
    assert_int_equal(ks->vcpus[w].lr[3], 1 | VGIC_LR_EOI);
    assert_int_equal(decodeVCPUInjectIRQ(ks, u, 1, lr3), SYSERR_NONE);
    assert_int_equal(ks->vcpus[u].lr[3], 1 | VGIC_LR_EOI);
    assert_int_equal(ks->vgic_lr[3], 0);
    free(ks);
}

static bool has_inv(const struct kstate *ks, int id)
{
    struct inv_report r;
    kstate_check(ks, INV_AT_ENTRY, &r);
    return inv_has(&r, id);
}

/* The binding on core 1 loaded and enabled v1 there: core 1's VGIC holds
 * its list registers, its virtual timer mask is v1's flag
 * (restore_virt_timer, generic_timer.c:128-135); core 0's VCPU state and
 * virtual timer are as they were. The swap puts core 1's in core 0's
 * place and back. */
static void test_swap_vcpu_node(void **state)
{
    (void)state;
    for (int masked = 0; masked < 2; masked++) {
        struct hyp2 x = hyp_two_cores(masked);
        struct kstate *ks = x.ks, *before = tc_state();
        assert_int_equal(ks->core_vcpu[1], x.v1);
        assert_true(ks->core_vcpu_active[1]);
        assert_int_equal(ks->core_vgic_lr[1][0], 1);
        assert_int_equal(ks->core_vgic_lr[1][1], 2 | VGIC_LR_EOI);
        assert_int_equal(ks->core_vtimer_masked[1], masked);
        assert_int_equal(ks->cur_vcpu, KS_NONE);
        assert_false(ks->vcpu_active);
        assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
        assert_int_equal(ks->vgic_lr[0], 0);
        tc_assert_valid(ks, INV_AT_ENTRY);
        ks_copy(before, ks);
        ks->core_vgic_eisr[1] = 1u << 3;
        ks->core_vgic_misr_eoi[1] = true;
        before->core_vgic_eisr[1] = 1u << 3;
        before->core_vgic_misr_eoi[1] = true;
        smp_swap_core(ks, 1);
        assert_int_equal(ks->cur_vcpu, x.v1);
        assert_true(ks->vcpu_active);
        assert_int_equal(ks->vgic_lr[1], 2 | VGIC_LR_EOI);
        assert_int_equal(ks->vgic_eisr, 1u << 3);
        assert_true(ks->vgic_misr_eoi);
        assert_int_equal(ks->irq_masked[INTERRUPT_VTIMER_EVENT], masked);
        assert_int_equal(ks->core_vcpu[1], KS_NONE);
        assert_false(ks->core_vtimer_masked[1]);
        smp_swap_core(ks, 1);
        assert_true(ks_same(ks, before));
        free(before);
        free(ks);
    }
}

/* Without hypervisor support there is no VCPU state to swap: the fields
 * stay where they are */
static void test_swap_no_hyp(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    ks->cfg.hyp = false;
    smp_swap_core(ks, 1);
    assert_int_equal(ks->core_vcpu[1], x.v1);
    assert_int_equal(ks->cur_vcpu, KS_NONE);
    assert_int_equal(ks->core_vgic_lr[1][1], 2 | VGIC_LR_EOI);
    free(ks);
}

/* Core 0 stalls b on core 1 (remoteTCBStall, src/object/tcb.c:464-476):
 * core 1 runs ipiStallCoreCallback, whose switch to its idle thread runs
 * vcpu_switch(NULL) there (Arch_switchToIdleThread, src/arch/arm/64/
 * kernel/thread.c:28-34): v1 stays loaded on core 1, disabled, core 1's
 * virtual timer masked (vcpu_disable, armv/vcpu.h:708), its list
 * registers not saved (vcpu.c:246-253 saves nothing). Core 0's VCPU
 * state and virtual timer are untouched. */
static void test_remote_stall_disables(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    ks->core_vgic_lr[1][0] = 0; /* the guest took the pending IRQ: not in v1's copy yet */
    remoteTCBStall(ks, x.b);
    assert_int_equal(ks->core_cur[1], x.idle1);
    assert_int_equal(ks->core_vcpu[1], x.v1);
    assert_false(ks->core_vcpu_active[1]);
    assert_true(ks->core_vtimer_masked[1]);
    assert_int_equal(ks->vcpus[x.v1].lr[0], 1);
    assert_int_equal(ks->core_vgic_lr[1][0], 0);
    assert_int_equal(ks->cur_vcpu, KS_NONE);
    assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_int_equal(ks->n_asserts, 0);
    assert_false(has_inv(ks, INV_VCPU));
    free(ks);
}

/* The virtual timer fires on core 1 (core 1's entry, run as core 0 by the
 * swap): VPPIEvent acts on core 1's current thread and VCPU (vcpu.c:
 * 106-142): core 1's virtual timer and v1's VPPI masked, b sent the fault
 * (no handler: Inactive, handleNoFaultHandler). Core 0's virtual timer
 * stays unmasked. */
static void test_vppi_on_core1(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    smp_swap_core(ks, 1);
    handleInterrupt(ks, INTERRUPT_VTIMER_EVENT);
    smp_swap_core(ks, 1);
    assert_true(ks->vcpus[x.v1].vppi_masked);
    assert_true(ks->core_vtimer_masked[1]);
    assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_int_equal(ks->tcbs[x.b].state, TS_Inactive);
    assert_int_equal(ks->tcbs[x.a].state, TS_Running);
    assert_int_equal(ks->n_asserts, 0);
    free(ks);
}

/* Core 0 unbinds v1, loaded and active on core 1, from b (VCPU_SetTCB of
 * another thread: associateVCPUTCB -> dissociateVCPUTCB): the kernel
 * compares v1 with core 0's armHSCurVCPU only (vcpu.c:313), so core 1
 * keeps it loaded and active under b, which has none now. Binding v1 to
 * a, core 0's current thread, loads it on core 0 too (vcpu.c:303-305). A
 * VPPIEvent on core 0 then masks v1's VPPI and core 0's virtual timer,
 * not core 1's (vcpu.c:131-132), and the flag stays after core 0 unloads
 * v1: all states the kernel reaches, which the checker admits. */
static void test_unbind_from_other_core(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    associateVCPUTCB(ks, x.v1, x.a);
    assert_int_equal(ks->tcbs[x.b].vcpu, KS_NONE);
    assert_int_equal(ks->tcbs[x.a].vcpu, x.v1);
    assert_int_equal(ks->core_vcpu[1], x.v1);
    assert_true(ks->core_vcpu_active[1]);
    assert_int_equal(ks->cur_vcpu, x.v1);
    assert_true(ks->vcpu_active);
    tc_assert_valid(ks, INV_AT_ENTRY);
    handleInterrupt(ks, INTERRUPT_VTIMER_EVENT);
    assert_true(ks->vcpus[x.v1].vppi_masked);
    assert_true(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_false(ks->core_vtimer_masked[1]);
    assert_int_equal(ks->tcbs[x.a].state, TS_Inactive);
    assert_false(has_inv(ks, INV_VCPU));
    /* core 0 switches to another VCPU's thread: v1 saved and unloaded
     * there, still flagged, still active on core 1 with its timer unmasked */
    int w = ks_add_vcpu(ks, "w");
    vcpu_switch(ks, w);
    assert_int_equal(ks->cur_vcpu, w);
    assert_true(ks->vcpus[x.v1].vppi_masked);
    assert_true(ks->core_vcpu_active[1]);
    assert_false(ks->core_vtimer_masked[1]);
    assert_false(has_inv(ks, INV_VCPU));
    free(ks);
}

/* b ran on core 1 and was stalled there (v1 loaded, disabled on core 1),
 * then moved to core 0 (migrateTCB, src/model/smp.c:13-31, leaves VCPUs
 * alone): core 0's switch to it restores v1 from its saved copy
 * (vcpu_switch, vcpu.c:238-245; vcpu_restore, :84-104), not from core 1's
 * VGIC, and core 1's armHSCurVCPU still names v1. */
static void test_migrated_vcpu_thread(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    ks->core_vgic_lr[1][0] = 3;
    remoteTCBStall(ks, x.b);
    tcbSchedDequeue(ks, x.b);
    migrateTCB(ks, x.b, 0);
    vcpu_switch(ks, x.v1);
    assert_int_equal(ks->cur_vcpu, x.v1);
    assert_true(ks->vcpu_active);
    assert_int_equal(ks->vgic_lr[0], 1);
    assert_int_equal(ks->core_vgic_lr[1][0], 3);
    assert_int_equal(ks->core_vcpu[1], x.v1);
    assert_false(ks->core_vcpu_active[1]);
    free(ks);
}

/* The shrinker's deletion of a VCPU loaded on core 1 unloads it there; a
 * later VCPU loaded there shifts down */
static void test_remove_vcpu_loaded_on_core1(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    int v0 = ks_add_vcpu(ks, "v2");
    ks_remove(ks, KIND_VCPU, v0);
    assert_int_equal(ks->core_vcpu[1], x.v1);
    assert_true(ks->core_vcpu_active[1]);
    int v2 = ks_add_vcpu(ks, "v3");
    (void)v2;
    ks->vcpus[x.v1].tcb = KS_NONE;
    ks->tcbs[x.b].vcpu = KS_NONE;
    ks_remove(ks, KIND_VCPU, x.v1);
    assert_int_equal(ks->core_vcpu[1], KS_NONE);
    assert_false(ks->core_vcpu_active[1]);
    assert_int_equal(ks->n_vcpus, 1);
    free(ks);
}

/* The same core_vcpu shifted when an earlier VCPU goes */
static void test_remove_earlier_vcpu(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    ks_remove(ks, KIND_VCPU, x.v1); /* v1 is index 0 */
    assert_int_equal(ks->core_vcpu[1], KS_NONE);
    free(ks);
    x = hyp_two_cores(false);
    ks = x.ks;
    int w = ks_add_vcpu(ks, "w");
    smp_swap_core(ks, 1);
    vcpu_switch(ks, w); /* a switch to w's thread on core 1: v1 saved, w loaded */
    smp_swap_core(ks, 1);
    ks_remove(ks, KIND_VCPU, x.v1);
    assert_int_equal(ks->core_vcpu[1], w - 1);
    assert_true(ks->core_vcpu_active[1]);
    free(ks);
}

/* What the kernel never leaves on core 1: a VCPU active with none loaded
 * (vcpu.c:244-245, 257, 261-268); a loaded, disabled VCPU with core 1's
 * virtual timer unmasked (armv/vcpu.h:708); core 1's VCPU state on one
 * core, or without hypervisor support; an index past the VCPUs. An active
 * VCPU whose VPPI is masked with the core's timer unmasked is a state the
 * kernel reaches on two cores (test_unbind_from_other_core). */
static void test_invariants(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks;
    ks->core_vcpu_active[1] = false;
    assert_true(has_inv(ks, INV_VCPU)); /* loaded, disabled, unmasked */
    ks->core_vtimer_masked[1] = true;
    assert_false(has_inv(ks, INV_VCPU));
    ks->core_vcpu[1] = KS_NONE;
    ks->core_vcpu_active[1] = true;
    assert_true(has_inv(ks, INV_VCPU)); /* active, none loaded */
    ks->core_vcpu[1] = (int8_t)x.v1;
    ks->core_vtimer_masked[1] = false;
    ks->vcpus[x.v1].vppi_masked = true;
    assert_false(has_inv(ks, INV_VCPU)); /* VPPI masked, timer not: core 0's VPPIEvent may have set the flag */
    ks->vcpus[x.v1].vppi_masked = false;
    assert_false(has_inv(ks, INV_VCPU));
    ks->cfg.hyp = false;
    assert_true(has_inv(ks, INV_VCPU));
    ks->cfg.hyp = true;
    ks->core_vcpu[1] = 7;
    assert_true(has_inv(ks, INV_INDEX));
    free(ks);
    /* one core: core 1's fields must be ks_init's */
    ks = tc_imx8mm(0);
    ks->cfg.hyp = true;
    assert_false(has_inv(ks, INV_VCPU));
    ks->core_vcpu_active[1] = true;
    assert_true(has_inv(ks, INV_VCPU));
    ks->core_vcpu_active[1] = false;
    ks->core_vcpu[1] = (int8_t)ks_add_vcpu(ks, "v");
    assert_true(has_inv(ks, INV_VCPU));
    free(ks);
}

static char *print_state(const struct kstate *ks, size_t *len)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    ks_print(f, ks);
    *len = (size_t)ftell(f);
    char *text = calloc(1, *len + 1);
    rewind(f);
    assert_int_equal(fread(text, 1, *len, f), *len);
    fclose(f);
    return text;
}

static int parse_with(const char *text, const char *extra, char *msg, size_t n)
{
    size_t len = strlen(text) + strlen(extra) + 1;
    char *all = calloc(1, len);
    snprintf(all, len, "%s%s", text, extra);
    struct kstate *ks = tc_state();
    struct scen_error err;
    int rc = scenario_parse(all, strlen(all), NULL, ks, &err);
    if (rc)
        snprintf(msg, n, "%s", err.msg);
    free(all);
    free(ks);
    return rc;
}

/* A state with core 1's VCPU prints a vgic_core line that reads back to
 * the same state; a state without prints none; bad lines are refused
 * with their reason */
static void test_scenario(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(true);
    struct kstate *ks = x.ks, *back = tc_state();
    ks->core_vgic_eisr[1] = 1u << 2;
    ks->core_vgic_misr_eoi[1] = true;
    size_t len;
    char *text = print_state(ks, &len);
    assert_non_null(strstr(text, "vgic_core 1 cur=v1 active=1 eisr=0x4 misr_eoi=1 vtimer_masked=1 lr=1,6\n"));
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, NULL, back, &err), 0);
    assert_true(ks_same(ks, back));
    char msg[256];
    assert_int_not_equal(parse_with(text, "vgic_core 1\n", msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "duplicate"));
    assert_int_not_equal(parse_with(text, "vgic_core 0 cur=v1\n", msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "vgic line"));
    assert_int_not_equal(parse_with(text, "vgic_core\n", msg, sizeof msg), 0);
    assert_int_not_equal(parse_with(text, "vgic_core 2\n", msg, sizeof msg), 0);
    free(text);
    /* active without a loaded VCPU */
    ks->core_vcpu[1] = KS_NONE;
    text = print_state(ks, &len);
    assert_int_not_equal(parse_with(text, "", msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "active=1 needs cur="));
    free(text);
    free(ks);
    ks = tc_imx8mm(0);
    text = print_state(ks, &len);
    assert_null(strstr(text, "vgic_core"));
    free(text);
    free(ks);
    free(back);
}

/* A VCPU_InjectIRQ entry (the syscall line's cap=vcpu, vcpu= and mr0=)
 * prints and reads back to the same state; a line that names no VCPU for
 * a VCPU cap, a VCPU for another cap, a VCPU the state lacks, or mr0= for
 * another cap is refused with its reason */
static void test_scenario_inject(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks, *back = tc_state();
    ks_sysin_clear(&ks->sys);
    ks->sys.ntfn = KS_NONE;
    ks->sys.entry = ENTRY_SIGNAL;
    ks->sys.cap = SCAP_VCPU;
    ks->sys.vcpu = (int8_t)x.v1;
    ks->sys.length = 1;
    ks->sys.mr0 = (2ull << 32) | 27;
    size_t len;
    char *text = print_state(ks, &len);
    assert_non_null(strstr(text, "syscall send cap=vcpu length=1 vcpu=v1 mr0=8589934619\n"));
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, NULL, back, &err), 0);
    assert_true(ks_same(ks, back));
    free(text);
    static const struct {
        const char *from, *to, *why;
    } bad[] = {
        {" vcpu=v1", "", "cap=vcpu needs vcpu="},
        {"cap=vcpu", "cap=null", "names no VCPU"},
        {"vcpu=v1", "vcpu=v9", "v9"},
        {"cap=vcpu length=1 vcpu=v1", "cap=null", "mr0= is for cap=vcpu"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        text = print_state(ks, &len);
        char *at = strstr(text, bad[i].from), edited[8192], msg[256];
        assert_non_null(at);
        snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - text), text, bad[i].to, at + strlen(bad[i].from));
        assert_int_not_equal(parse_with(edited, "", msg, sizeof msg), 0);
        if (!strstr(msg, bad[i].why))
            fail_msg("'%s' -> '%s': %s", bad[i].from, bad[i].to, msg);
        free(text);
    }
    free(ks);
    free(back);
}

/* The differential comparison (validate --real, fuzz) sees the VCPU state
 * of each core, of each VCPU and thread; a build without hypervisor
 * support has none to compare */
static void test_diff_vcpu(void **state)
{
    (void)state;
    struct hyp2 x = hyp_two_cores(false);
    struct kstate *ks = x.ks, *other = tc_state();
    ks_copy(other, ks);
    assert_int_equal(diff_compare(ks, other, NULL), 0);
    other->core_vcpu_active[1] = false;
    assert_int_equal(diff_compare(ks, other, NULL), 1u << DF_VCPU);
    ks_copy(other, ks);
    other->core_vcpu[1] = KS_NONE;
    assert_int_equal(diff_compare(ks, other, NULL), 1u << DF_VCPU);
    ks_copy(other, ks);
    other->vcpus[x.v1].lr[1] = 0;
    assert_int_equal(diff_compare(ks, other, NULL), 1u << DF_VCPU);
    ks_copy(other, ks);
    other->vgic_lr[0] = 3;
    assert_int_equal(diff_compare(ks, other, NULL), 1u << DF_VCPU);
    ks_copy(other, ks);
    other->core_vgic_lr[1][0] = 3; /* core 1's VGIC: a remote VCPU_InjectIRQ writes it */
    assert_int_equal(diff_compare(ks, other, NULL), 1u << DF_VCPU);
    ks_copy(other, ks);
    other->tcbs[x.b].vcpu = KS_NONE;
    assert_true(diff_compare(ks, other, NULL) & (1u << DF_VCPU));
    ks->cfg.hyp = other->cfg.hyp = false;
    ks_copy(other, ks);
    other->core_vcpu[1] = KS_NONE;
    assert_int_equal(diff_compare(ks, other, NULL), 0);
    free(other);
    free(ks);
}

/* The generator's two-core hypervisor states (gen_core1_vcpu in
 * check/gen.c) reach each case of core 1 by the kernel's operations there,
 * and each passes the checker at entry: core 1's current thread with its
 * VCPU loaded and active (associateVCPUTCB of core 1's current thread
 * switches at once, vcpu.c:303-305), its virtual timer masked or not (the
 * VCPU's flag, restore_virt_timer); core 1's current thread bound from
 * core 0 (no switch on core 1: its VCPU not loaded there); a VCPU left
 * loaded and disabled by core 1's switch to its idle thread, core 1's
 * timer masked (armv/vcpu.h:708). Without --vcpus core 1 has none. */
static void test_gen_core1(void **state)
{
    (void)state;
    struct kstate *ks = tc_imx8mm(0), *cfg_src = tc_imx8mm(0);
    struct ks_config cfg = cfg_src->cfg;
    cfg.smp = true;
    cfg.hyp = true;
    cfg.kernel = KS_KERNEL_MASTER;
    struct gen_bounds b;
    gen_bounds_default(&b);
    b.kernel = KS_KERNEL_MASTER;
    b.config = &cfg;
    b.vcpus = true;
    int active_masked = 0, active_unmasked = 0, bound_not_loaded = 0, disabled_idle = 0, loaded = 0;
    uint64_t counts[SIT_COUNT] = {0};
    for (uint64_t seed = 0; seed < 400; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        assert_int_equal(gen_state(ks, &src, &b), 0);
        tc_assert_valid(ks, INV_AT_ENTRY);
        situation_tally(ks, counts);
        loaded += ks->core_vcpu[1] != KS_NONE;
        int cur1 = ks->core_cur[1], v = ks->core_vcpu[1];
        bool idle = cur1 == ks->core_idle[1];
        if (!idle && v != KS_NONE && ks->core_vcpu_active[1] && ks->tcbs[cur1].vcpu == v) {
            active_masked += ks->core_vtimer_masked[1];
            active_unmasked += !ks->core_vtimer_masked[1];
        }
        bound_not_loaded += !idle && ks->tcbs[cur1].vcpu != KS_NONE && ks->tcbs[cur1].vcpu != v;
        disabled_idle += idle && v != KS_NONE && !ks->core_vcpu_active[1] && ks->core_vtimer_masked[1];
    }
    assert_true(active_masked > 0);
    assert_true(active_unmasked > 0);
    assert_true(bound_not_loaded > 0);
    assert_true(disabled_idle > 0);
    assert_int_equal(counts[SIT_VCPU_CORE1], loaded); /* the situation validate --real reports */
    b.vcpus = false;
    cfg.hyp = false;
    for (uint64_t seed = 0; seed < 50; seed++) {
        struct gen_src src;
        gen_src_seed(&src, seed);
        assert_int_equal(gen_state(ks, &src, &b), 0);
        assert_int_equal(ks->core_vcpu[1], KS_NONE);
        assert_false(ks->core_vtimer_masked[1]);
    }
    free(cfg_src);
    free(ks);
}

/* F12 and S11: hyp_two_cores, and core 0 binds VCPU v0 to a, its current
 * thread (associateVCPUTCB switches at once, vcpu.c:303-305: v0 loaded and
 * active on core 0). Then core 1's VCPU_SetTCB binds v0 to c, a thread of
 * core 1 that does not run: dissociateVCPUTCB(v0, a) compares v0 with core
 * 1's armHSCurVCPU only (vcpu.c:313), so core 0 keeps v0 loaded and active
 * under a, which has no VCPU now, its virtual timer's PPI unmasked. r,
 * at priority prio, waits on notification n, which IRQ 40 signals. */
struct rebound {
    struct hyp2 x;
    int v0, c, r, n;
};

static struct rebound rebound_state(int prio)
{
    struct rebound s;
    s.x = hyp_two_cores(false);
    struct kstate *ks = s.x.ks;
    s.v0 = ks_add_vcpu(ks, "v0");
    associateVCPUTCB(ks, s.v0, s.x.a);
    assert_int_equal(ks->cur_vcpu, s.v0);
    assert_true(ks->vcpu_active);
    s.c = build_thread(ks, "c", 30, 0);
    ks->tcbs[s.c].affinity = 1;
    smp_swap_core(ks, 1);
    associateVCPUTCB(ks, s.v0, s.c); /* VCPU_SetTCB on core 1 */
    smp_swap_core(ks, 1);
    assert_int_equal(ks->tcbs[s.x.a].vcpu, KS_NONE);
    assert_int_equal(ks->tcbs[s.c].vcpu, s.v0);
    assert_int_equal(ks->cur_vcpu, s.v0); /* still loaded on core 0 ... */
    assert_true(ks->vcpu_active);         /* ... and active */
    assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_int_equal(ks->core_vcpu[1], s.x.v1); /* core 1's own VCPU is untouched */
    s.n = build_ntfn(ks, "n");
    s.r = build_thread(ks, "r", prio, 0);
    build_sc(ks, "r_sc", s.r, 2000, 0, 0);
    build_wait_ntfn(ks, s.r, s.n);
    build_irq_signal(ks, 40, s.n, 1, true);
    ks->active_irq = 40;
    tc_assert_valid(ks, INV_AT_ENTRY); /* a state the kernel reaches */
    return s;
}

/* The slowpath's outcome from in: a runs on; v0 is still loaded on core 0
 * but disabled, the virtual timer's PPI masked (schedule() switches to a
 * again: Arch_switchToThread -> vcpu_switch(NULL), vcpu.c:246-253). */
static void assert_slowpath_disables(const struct kstate *in, void (*slow)(struct kstate *), int a, int v0)
{
    struct kstate *k = tc_state();
    ks_copy(k, in);
    slow(k);
    assert_int_equal(k->cur_thread, a);
    assert_int_equal(k->cur_vcpu, v0);
    assert_false(k->vcpu_active);
    assert_true(k->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_int_equal(k->n_asserts, 0);
    free(k);
}

/* The fastpath with fixes from in: its exit, the VCPU left active or not */
static int fast_leaves_active(const struct kstate *in, unsigned fixes, bool *active)
{
    struct kstate *k = tc_state();
    ks_copy(k, in);
    unsigned tested;
    int exit = target_of(in)->fast_tested(k, fixes, &tested);
    *active = k->vcpu_active && !k->irq_masked[INTERRUPT_VTIMER_EVENT];
    free(k);
    return exit;
}

/* The IRQ fastpath (F12): r at a's priority is appended (100), below it
 * enqueued (50). The slowpath re-switch disables v0; the proposal, and the
 * corrected fastpath without reswitch, leave it active; the corrected one
 * agrees with the slowpath; the proposal's divergence is F12 alone. */
static void test_rebound_vcpu_irq(void **state)
{
    (void)state;
    static const struct {
        int prio, exit;
    } cases[] = {{100, FP_EXIT_APPEND}, {50, FP_EXIT_ENQUEUE}};
    struct classify_ws *ws = calloc(1, sizeof *ws);
    assert_non_null(ws);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rebound s = rebound_state(cases[i].prio);
        struct kstate *ks = s.x.ks;
        assert_slowpath_disables(ks, handleInterruptEntry, s.x.a, s.v0);
        bool active;
        assert_int_equal(fast_leaves_active(ks, 0, &active), cases[i].exit);
        assert_true(active); /* the defect */
        assert_int_equal(fast_leaves_active(ks, FIX_ALL & ~FIX(FIX_RESWITCH), &active), cases[i].exit);
        assert_true(active);
        assert_int_equal(fast_leaves_active(ks, FIX_ALL, &active), cases[i].exit);
        assert_false(active);
        struct diff_verdict v;
        struct kstate *a = tc_state(), *b = tc_state();
        diff_run(ks, FP_FIXED, true, &v, a, b);
        assert_int_equal(v.exit, cases[i].exit);
        assert_true(v.agree);
        diff_run(ks, FP_PR1227, true, &v, a, b);
        assert_false(v.agree);
        assert_true(v.fields & (1u << DF_VCPU));
        assert_true(v.fields & (1u << DF_IRQ_MASK));
        unsigned cause = classify_cause(ks, ws);
        assert_int_equal(cause, FIX(FIX_RESWITCH));
        assert_int_equal(cause_defects(target_of(ks), cause), 1u << defect_index(target_of(ks), "F12"));
        free(a);
        free(b);
        free(ks);
    }
    free(ws);
}

/* The signal fastpath (S11): a signals n itself (seL4_Signal); r is
 * appended or enqueued on core 0, and the same holds. */
static void test_rebound_vcpu_signal(void **state)
{
    (void)state;
    static const struct {
        int prio, exit;
    } cases[] = {{100, SIG_EXIT_APPEND}, {50, SIG_EXIT_ENQUEUE}};
    struct classify_ws *ws = calloc(1, sizeof *ws);
    assert_non_null(ws);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rebound s = rebound_state(cases[i].prio);
        struct kstate *ks = s.x.ks;
        ks->active_irq = KS_IRQ_INVALID;
        ks->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                    .entry = ENTRY_SIGNAL, .cap = SCAP_NTFN, .ntfn = (int8_t)s.n, .ep = KS_NONE, .tcb = KS_NONE,
                                    .reply = KS_NONE, .badge = 1};
        tc_assert_valid(ks, INV_AT_ENTRY);
        assert_slowpath_disables(ks, slowpath_signal, s.x.a, s.v0);
        bool active;
        assert_int_equal(fast_leaves_active(ks, 0, &active), cases[i].exit);
        assert_true(active);
        assert_int_equal(fast_leaves_active(ks, SFIX_ALL & ~SFIX(SFIX_RESWITCH), &active), cases[i].exit);
        assert_true(active);
        assert_int_equal(fast_leaves_active(ks, SFIX_ALL, &active), cases[i].exit);
        assert_false(active);
        struct diff_verdict v;
        struct kstate *a = tc_state(), *b = tc_state();
        diff_run(ks, SIG_FIXED, true, &v, a, b);
        assert_true(v.agree);
        unsigned cause = classify_cause(ks, ws);
        assert_int_equal(cause, SFIX(SFIX_RESWITCH));
        assert_int_equal(cause_defects(target_of(ks), cause), 1u << defect_index(target_of(ks), "S11"));
        free(a);
        free(b);
        free(ks);
    }
    free(ws);
}

/* No re-switch where the slowpath has none: r on core 1 (the signal
 * fastpath queues it there, possibleSwitchTo's SCHED_ENQUEUE, and
 * schedule() keeps a without a switch), and on a state whose VCPU is the
 * current thread's (vcpu_switch of the loaded, active VCPU: nothing). */
static void test_rebound_vcpu_no_reswitch(void **state)
{
    (void)state;
    struct rebound s = rebound_state(50);
    struct kstate *ks = s.x.ks;
    int r_sc = ks->tcbs[s.r].sc;
    ks->tcbs[s.r].affinity = 1;
    ks->scs[r_sc].core = 1;
    ks->active_irq = KS_IRQ_INVALID;
    ks->sys = (struct ks_sysin){.vcpu = KS_NONE,
                                .entry = ENTRY_SIGNAL, .cap = SCAP_NTFN, .ntfn = (int8_t)s.n, .ep = KS_NONE, .tcb = KS_NONE,
                                .reply = KS_NONE, .badge = 1};
    tc_assert_valid(ks, INV_AT_ENTRY);
    struct kstate *k = tc_state();
    ks_copy(k, ks);
    slowpath_signal(k);
    assert_true(k->vcpu_active); /* the slowpath leaves it too */
    bool active;
    unsigned tested;
    ks_copy(k, ks);
    assert_int_equal(fastpath_signal_tested(k, SFIX_ALL, &tested), SIG_EXIT_ENQUEUE);
    assert_true(k->vcpu_active);
    assert_false(tested & SFIX(SFIX_RESWITCH)); /* never asked */
    free(ks);
    s = rebound_state(100);
    ks = s.x.ks;
    associateVCPUTCB(ks, s.v0, s.x.a); /* core 0 binds it back: a's again */
    assert_int_equal(fast_leaves_active(ks, FIX_ALL, &active), FP_EXIT_APPEND);
    assert_true(active);
    free(k);
    free(ks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_vcpu_node),
        cmocka_unit_test(test_swap_no_hyp),
        cmocka_unit_test(test_remote_stall_disables),
        cmocka_unit_test(test_vppi_on_core1),
        cmocka_unit_test(test_unbind_from_other_core),
        cmocka_unit_test(test_migrated_vcpu_thread),
        cmocka_unit_test(test_remove_vcpu_loaded_on_core1),
        cmocka_unit_test(test_remove_earlier_vcpu),
        cmocka_unit_test(test_invariants),
        cmocka_unit_test(test_scenario),
        cmocka_unit_test(test_diff_vcpu),
        cmocka_unit_test(test_gen_core1),
        cmocka_unit_test(test_rebound_vcpu_irq),
        cmocka_unit_test(test_rebound_vcpu_signal),
        cmocka_unit_test(test_rebound_vcpu_no_reswitch),
        cmocka_unit_test(test_inject_irq_two_cores),
        cmocka_unit_test(test_scenario_inject),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
