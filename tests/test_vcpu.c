/*
 * Tests of sim/vcpu.c and sim/faulthandler.c: the hypervisor's VCPU
 * interrupt path (VPPIEvent, VGICMaintenance, reached through
 * handleInterrupt's reserved-IRQ branch), the fault they send (handleFault,
 * sendFaultIPC, handleNoFaultHandler), the VCPU switch and binding, and the
 * checker's fault and vcpu invariants on the states the path leaves.
 * Expected values are the kernel's; lines of master 1326364bc unless base
 * 43607edb6 is named: src/arch/arm/object/vcpu.c is "vcpu.c",
 * src/kernel/faulthandler.c "faulthandler.c",
 * include/arch/arm/armv/armv8-a/64/armv/vcpu.h "armv/vcpu.h".
 *
 * Board imx8mm (tcount.h): MIN_BUDGET 160 ticks, maxIRQ 160.
 */
#include "tcount.h"

#include "fastpath.h"
#include "print.h"
#include "scenario.h"
#include "schedcontext.h"
#include "syscall.h"
#include "vcpu.h"

/* tc_running's thread "vm" (priority 100, 8000 of 80000 ticks) on a
 * hypervisor build of kernel k whose boot reserved the two PPIs
 * (arm/kernel/boot.c:128-129), with VCPU "v" bound to it: associateVCPUTCB
 * of the current thread switches to its VCPU at once (vcpu.c:303-305). */
static struct kstate *vm_state(int k, int *t, int *v)
{
    struct kstate *ks = tc_running("vm", "vmsc", t, NULL);
    ks->cfg.kernel = (uint8_t)k;
    ks->cfg.hyp = true;
    build_irq_state(ks, INTERRUPT_VGIC_MAINTENANCE, IRQ_Reserved);
    build_irq_state(ks, INTERRUPT_VTIMER_EVENT, IRQ_Reserved);
    *v = ks_add_vcpu(ks, "v");
    associateVCPUTCB(ks, *v, *t);
    assert_true(ks->vcpu_active);
    assert_int_equal(ks->cur_vcpu, *v);
    return ks;
}

/* A passive fault handler "h" (priority 200, no SC) waiting on endpoint
 * "fep" with reply object "r"; the thread's fault handler cap names fep. */
static int add_handler(struct kstate *ks, int t, int *r)
{
    int h = build_thread(ks, "h", 200, 0), e = build_ep(ks, "fep");
    *r = ks_add_reply(ks, "r");
    build_recv_ep(ks, h, e, *r);
    ks->tcbs[t].fault_ep = (int8_t)e;
    return h;
}

static void op_vppi(struct kstate *ks, void *arg)
{
    (void)arg;
    handleInterrupt(ks, INTERRUPT_VTIMER_EVENT);
}

static void op_vgic(struct kstate *ks, void *arg)
{
    (void)arg;
    handleInterrupt(ks, INTERRUPT_VGIC_MAINTENANCE);
}

static bool has_inv(const struct kstate *ks, int id)
{
    struct inv_report r;
    kstate_check(ks, INV_AT_ENTRY, &r);
    return inv_has(&r, id);
}

/* The virtual timer fires for a running, schedulable thread with its VCPU
 * active; its handler waits, passive, with a reply object. VPPIEvent
 * masks the IRQ and the VCPU's VPPI (vcpu.c:130-132) and sends the fault:
 * handleFault donates (the thread has an SC, faulthandler.c:18), sendIPC
 * finds the receiver and, for a fault, pushes the reply with donation
 * (endpoint.c:87-88): the thread waits on the reply, the handler runs on
 * its SC. The IRQ is acked (interrupt.c:259, handleInterrupt's end). */
static void test_vppi_fault_to_handler(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        int t, v, r;
        struct kstate *in = vm_state(k, &t, &v), *out = tc_state();
        int h = add_handler(in, t, &r), sc = in->tcbs[t].sc;
        tc_counted(in, out, op_vppi, NULL);
        assert_true(out->irq_masked[INTERRUPT_VTIMER_EVENT]);
        assert_true(out->vcpus[v].vppi_masked);
        assert_int_equal(out->irq_acks[INTERRUPT_VTIMER_EVENT], 1);
        assert_int_equal(out->tcbs[t].state, TS_BlockedOnReply);
        assert_int_equal(out->tcbs[t].fault, FAULT_VPPIEvent);
        assert_int_equal(out->tcbs[t].fault_lr, KS_NONE);
        assert_int_equal(out->tcbs[t].reply, r);
        assert_int_equal(out->tcbs[h].state, TS_Running);
        assert_int_equal(out->tcbs[h].sc, sc);
        assert_int_equal(out->tcbs[t].sc, KS_NONE);
        tc_assert_no_asserts(out);
        free(in);
        free(out);
    }
}

/* No fault handler (a null cap): sendFaultIPC sends nothing and
 * handleNoFaultHandler makes the thread Inactive (faulthandler.c:19-21,
 * base :170); tcbFault is not set (only sendFaultIPC sets it, :36). The
 * masking is left as VPPIEvent set it. */
static void test_vppi_no_handler(void **state)
{
    (void)state;
    int t, v;
    struct kstate *in = vm_state(KS_KERNEL_MASTER, &t, &v), *out = tc_state();
    tc_counted(in, out, op_vppi, NULL);
    assert_int_equal(out->tcbs[t].state, TS_Inactive);
    assert_int_equal(out->tcbs[t].fault, FAULT_None);
    assert_true(out->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_true(out->vcpus[v].vppi_masked);
    free(in);
    free(out);
}

/* A handler not waiting: the fault blocks the thread sending on the
 * handler's endpoint (sendIPC, endpoint.c:34-53), grant kept for it. */
static void test_vppi_handler_busy(void **state)
{
    (void)state;
    int t, v;
    struct kstate *in = vm_state(KS_KERNEL_BASE, &t, &v), *out = tc_state();
    int e = build_ep(in, "fep");
    in->tcbs[t].fault_ep = (int8_t)e;
    tc_counted(in, out, op_vppi, NULL);
    assert_int_equal(out->tcbs[t].state, TS_BlockedOnSend);
    assert_int_equal(out->tcbs[t].blocking, e);
    assert_int_equal(out->eps[e].state, EP_Send);
    assert_true(out->tcbs[t].ipc_grant);
    assert_false(out->tcbs[t].ipc_call);
    free(in);
    free(out);
}

/* The entry's budget check round-robined the thread into its ready queue
 * (endTimeslice's tcbSchedAppend). Base and master leave it alone
 * (tcbQueued: base vcpu.c:121, master :123): nothing changes but the ack.
 * A tree between 6dbe58ef0 and 232471e90 tests isSchedulable only, which
 * holds: the fault is sent to a thread still queued (seL4 issue 1645),
 * which the fault invariant refuses. */
static void test_vppi_round_robined(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        int t, v;
        struct kstate *in = vm_state(k == 2 ? KS_KERNEL_MASTER : k, &t, &v), *out = tc_state();
        if (k == 2)
            in->cfg.features = (ks_features)(cfg_kernel_features(KS_KERNEL_MASTER) | 1u << KF_VCPU_FAULT_UNQUEUED);
        int e = build_ep(in, "fep");
        in->tcbs[t].fault_ep = (int8_t)e;
        tcbSchedAppend(in, t);
        tc_counted(in, out, op_vppi, NULL);
        assert_int_equal(out->tcbs[t].state, k == 2 ? TS_BlockedOnSend : TS_Running);
        assert_int_equal(out->vcpus[v].vppi_masked, k == 2);
        assert_true(out->tcbs[t].queued);
        assert_int_equal(has_inv(out, INV_FAULT), k == 2);
        free(in);
        free(out);
    }
}

/* The budget check postponed the thread's SC: the thread is in the
 * release queue, not queued. Base sends the fault (only tcbQueued tested,
 * base vcpu.c:121): the thread blocks sending while in the release queue
 * (6dbe58ef0's bug). Master: not schedulable, ignored (vcpu.c:123-124,
 * isSchedulable, include/kernel/thread.h:152-158). */
static void test_vppi_postponed(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        int t, v;
        struct kstate *in = vm_state(k, &t, &v), *out = tc_state();
        int e = build_ep(in, "fep");
        in->tcbs[t].fault_ep = (int8_t)e;
        tcbReleaseEnqueue(in, t);
        tc_counted(in, out, op_vppi, NULL);
        bool base = k == KS_KERNEL_BASE;
        assert_int_equal(out->tcbs[t].state, base ? TS_BlockedOnSend : TS_Running);
        assert_true(out->tcbs[t].in_release);
        assert_int_equal(has_inv(out, INV_FAULT), base);
        free(in);
        free(out);
    }
}

/* The budget check sent a timeout fault: the thread is blocked. Base
 * goes on with the VCPU active: masks, then its assertion that the thread
 * runs fails and no fault is sent (vcpu.c base :130-136). Master: not
 * schedulable, ignored. */
static void test_vppi_not_runnable(void **state)
{
    (void)state;
    for (int k = 0; k < KS_KERNEL_COUNT; k++) {
        int t, v;
        struct kstate *in = vm_state(k, &t, &v), *out = tc_state();
        in->tcbs[t].state = TS_BlockedOnSend;
        in->tcbs[t].fault = FAULT_Timeout;
        tc_counted(in, out, op_vppi, NULL);
        bool base = k == KS_KERNEL_BASE;
        assert_int_equal(out->vcpus[v].vppi_masked, base);
        assert_int_equal(out->tcbs[t].fault, FAULT_Timeout);
        if (base)
            tc_assert_one(out, A_VPPI_RUNNABLE);
        else
            assert_int_equal(out->n_asserts, 0);
        free(in);
        free(out);
    }
}

/* No VCPU active: VPPIEvent does nothing (vcpu.c:129), nor does
 * VGICMaintenance ("without active VCPU", :163-166); nor either on a build
 * without hypervisor support (handleReservedIRQ, interrupt.h:29-39), nor
 * for another reserved IRQ: each only acks. */
static void test_reserved_nothing(void **state)
{
    (void)state;
    int t, v;
    struct kstate *in = vm_state(KS_KERNEL_MASTER, &t, &v), *out = tc_state();
    vcpu_switch(in, KS_NONE);
    assert_false(in->vcpu_active);
    for (int i = 0; i < 4; i++) {
        struct kstate *x = tc_state();
        ks_copy(x, in);
        if (i == 2) {
            x->cfg.hyp = false;
            vcpu_switch(x, v); /* (not a hyp state: its active VCPU must not matter) */
        }
        int irq = i == 3 ? 26 : i % 2 ? INTERRUPT_VGIC_MAINTENANCE : INTERRUPT_VTIMER_EVENT;
        build_irq_state(x, irq, IRQ_Reserved);
        ks_copy(out, x);
        handleInterrupt(out, irq);
        assert_int_equal(out->irq_acks[irq], 1);
        out->irq_acks[irq] = 0;
        assert_true(ks_same(x, out));
        free(x);
    }
    free(in);
    free(out);
}

/* The guest EOIed list register 1, which asked for maintenance: the VGIC
 * shows EISR bit 1 and MISR.EOI. VGICMaintenance clears the LR's
 * EOIIRQEN in the VGIC and the VCPU's copy (vcpu.c:185-205) and sends
 * fault (idx 1, valid) (:208). With it cleared the VGIC shows no EISR bit. */
static void test_vgic_eoi(void **state)
{
    (void)state;
    int t, v, r;
    struct kstate *in = vm_state(KS_KERNEL_MASTER, &t, &v), *out = tc_state();
    add_handler(in, t, &r);
    in->vgic_lr[0] = 1 | VGIC_LR_EOI; /* pending, asks for maintenance at EOI */
    in->vgic_lr[1] = VGIC_LR_EOI;     /* invalid now: EOIed */
    vgic_hw_sync(in);
    assert_int_equal(in->vgic_eisr, 2);
    assert_true(in->vgic_misr_eoi);
    tc_counted(in, out, op_vgic, NULL);
    assert_int_equal(out->vgic_lr[1], 0);
    assert_int_equal(out->vcpus[v].lr[1], 0);
    assert_int_equal(out->vgic_lr[0], 1 | VGIC_LR_EOI);
    assert_int_equal(out->vcpus[v].lr[0], 0); /* not saved: the guest's copy is written at a switch only */
    assert_int_equal(out->vgic_eisr, 0);
    assert_false(out->vgic_misr_eoi);
    assert_int_equal(out->tcbs[t].fault, FAULT_VGICMaintenance);
    assert_int_equal(out->tcbs[t].fault_lr, 1);
    assert_int_equal(out->tcbs[t].state, TS_BlockedOnReply);
    tc_assert_no_asserts(out);
    free(in);
    free(out);
}

/* What the hardware reads are not trusted for (vcpu.c:170-184, 211-214):
 * the first EISR bit in EISR1 (idx 32 + bit), an index at or past the
 * number of list registers, MISR.EOI with no EISR bit, and no MISR.EOI:
 * fault (0, not valid), no list register written. A list register that
 * is pending and active has no case in the switch (:185-195): written
 * back as read, fault (idx, valid). */
static void test_vgic_untrusted(void **state)
{
    (void)state;
    static const struct {
        uint64_t eisr;
        bool misr;
        uint8_t lr2;
        int lr;
    } cases[] = {
        {1ull << 33, true, 0, KS_NONE}, {1ull << 5, true, 0, KS_NONE}, {0, true, 0, KS_NONE},
        {4, false, 0, KS_NONE},        {4, true, 3 | VGIC_LR_EOI, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int t, v;
        struct kstate *in = vm_state(KS_KERNEL_BASE, &t, &v), *out = tc_state();
        in->vgic_eisr = cases[i].eisr;
        in->vgic_misr_eoi = cases[i].misr;
        in->vgic_lr[2] = cases[i].lr2;
        tc_counted(in, out, op_vgic, NULL);
        assert_int_equal(out->tcbs[t].state, TS_Inactive); /* no handler */
        assert_int_equal(out->vgic_lr[2], cases[i].lr2);
        assert_int_equal(out->vcpus[v].lr[2], cases[i].lr2);
        free(in);
        free(out);
    }
}

/* VGICMaintenance's other exits: an unrunnable thread on base (its
 * assertion, vcpu.c base :211, no fault), a deferred one on master, and a
 * state the kernel never reaches (active without a VCPU: the assertion
 * at :202, no copy written). */
static void test_vgic_exits(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        int t, v;
        struct kstate *in = vm_state(k == 2 ? KS_KERNEL_BASE : k, &t, &v), *out = tc_state();
        in->vgic_lr[0] = VGIC_LR_EOI;
        vgic_hw_sync(in);
        if (k < 2)
            in->tcbs[t].state = TS_Inactive;
        else
            in->cur_vcpu = KS_NONE;
        tc_counted(in, out, op_vgic, NULL);
        if (k == KS_KERNEL_BASE)
            tc_assert_one(out, A_VGIC_RUNNABLE);
        else if (k == KS_KERNEL_MASTER)
            assert_true(ks_same(in, out) || out->irq_acks[INTERRUPT_VGIC_MAINTENANCE] == 1);
        else
            tc_assert_one(out, A_VGIC_CUR_VCPU);
        assert_int_equal(out->vcpus[v].lr[0], k == 0 ? 0 : 0); /* never written: the copy was 0 */
        free(in);
        free(out);
    }
}

/* vcpu_switch (vcpu.c:236-259) and the virtual timer's mask it leaves:
 * to another VCPU saves the loaded one's list registers (:32-54) and
 * restores the new one's, its VPPI mask copied to the IRQ
 * (restore_virt_timer, generic_timer.c:132-135); to none disables the
 * loaded one and masks the timer (armv/vcpu.h:708); to none again does
 * nothing; back to the loaded one enables it (:254-257); to the active
 * one does nothing. */
static void test_switch(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_MASTER, &t, &v);
    int w = ks_add_vcpu(ks, "w");
    ks->vcpus[w].lr[3] = 2;
    ks->vcpus[w].vppi_masked = true;
    ks->vgic_lr[1] = 1;
    vcpu_switch(ks, w);
    assert_int_equal(ks->vcpus[v].lr[1], 1);
    assert_int_equal(ks->vgic_lr[3], 2);
    assert_int_equal(ks->vgic_lr[1], 0);
    assert_true(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    assert_int_equal(ks->cur_vcpu, w);
    ks->vcpus[w].vppi_masked = false; /* invokeVCPUAckVPPI: the flag only */
    vcpu_switch(ks, KS_NONE);
    assert_false(ks->vcpu_active);
    assert_int_equal(ks->cur_vcpu, w);
    assert_true(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    vcpu_switch(ks, KS_NONE);
    assert_false(ks->vcpu_active);
    vcpu_switch(ks, w);
    assert_true(ks->vcpu_active);
    assert_false(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    vcpu_switch(ks, w);
    assert_true(ks->vcpu_active);
    /* an inactive virtual timer IRQ is not unmasked (generic_timer.c:132) */
    ks->irq_state[INTERRUPT_VTIMER_EVENT] = IRQ_Inactive;
    ks->irq_masked[INTERRUPT_VTIMER_EVENT] = true;
    vcpu_switch(ks, v);
    assert_true(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    free(ks);
}

/* associateVCPUTCB unbinds both first (vcpu.c:294-299): the thread's old
 * VCPU, loaded, is invalidated (none current, none active, the mask left:
 * vcpu_disable(NULL) masks nothing, :261-268); a thread that is not
 * current is not switched to. dissociateVCPUTCB of a VCPU loaded but not
 * active leaves nothing active. invokeVCPUAckVPPI clears the flag only. */
/* restore_virt_timer asks isIRQActive first (generic_timer.c:132): a
 * state whose IRQ table ends below the virtual timer's PPI holds it
 * Inactive, and the switch to a VCPU then writes no mask */
static void test_switch_vtimer_inactive(void **state)
{
    (void)state;
    int t = 0;
    struct kstate *ks = tc_running("vm", "vmsc", &t, NULL);
    ks->cfg.hyp = true;
    ks->n_irqs = INTERRUPT_VTIMER_EVENT; /* 0..26: the timer's PPI is past the table */
    int v = ks_add_vcpu(ks, "v");
    ks->vcpus[v].vppi_masked = true;
    associateVCPUTCB(ks, v, t);
    assert_int_equal(ks->cur_vcpu, v);
    assert_true(ks->vcpu_active);
    assert_int_equal(ks->n_irqs, INTERRUPT_VTIMER_EVENT); /* no mask written: the table did not grow */
    free(ks);
}

static void test_bind(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_BASE, &t, &v);
    int w = ks_add_vcpu(ks, "w"), u = build_thread(ks, "u", 50, 0);
    associateVCPUTCB(ks, w, u);
    assert_int_equal(ks->cur_vcpu, v);
    ks->irq_masked[INTERRUPT_VTIMER_EVENT] = false;
    associateVCPUTCB(ks, w, t); /* t's v dissociated and invalidated, w taken from u */
    assert_int_equal(ks->tcbs[u].vcpu, KS_NONE);
    assert_int_equal(ks->vcpus[v].tcb, KS_NONE);
    assert_int_equal(ks->tcbs[t].vcpu, w);
    assert_int_equal(ks->cur_vcpu, w);
    assert_true(ks->vcpu_active);
    vcpu_switch(ks, KS_NONE);
    dissociateVCPUTCB(ks, w, t);
    assert_int_equal(ks->cur_vcpu, KS_NONE);
    assert_false(ks->vcpu_active);
    ks->vcpus[w].vppi_masked = true;
    invokeVCPUAckVPPI(ks, w, VPPIEventIRQ_VTimer);
    assert_false(ks->vcpus[w].vppi_masked);
    assert_int_equal(irqVPPIEventIndex(INTERRUPT_VTIMER_EVENT), VPPIEventIRQ_VTimer);
    assert_int_equal(irqVPPIEventIndex(INTERRUPT_VGIC_MAINTENANCE), VPPIEventIRQ_invalid);
    free(ks);
}

/* seL4_ARM_VCPU_AckVPPI through the invocation's decode
 * (decodeVCPUAckVPPI, vcpu.c:523-549): an IRQ number above maxIRQ (160
 * here) fails Arch_checkIRQ with a range error, one that is no VPPI (the
 * maintenance PPI) is an invalid argument, both leaving the flag; the
 * virtual timer's clears it, the caller left to restart (Restart). */
static void test_ack_vppi_decode(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_MASTER, &t, &v);
    ks->vcpus[v].vppi_masked = true;
    assert_int_equal(decodeVCPUAckVPPI(ks, v, -1), SYSERR_RANGE);
    assert_int_equal(decodeVCPUAckVPPI(ks, v, 161), SYSERR_RANGE);
    assert_int_equal(decodeVCPUAckVPPI(ks, v, INTERRUPT_VGIC_MAINTENANCE), SYSERR_INVALID_ARGUMENT);
    assert_true(ks->vcpus[v].vppi_masked);
    assert_int_equal(ks->tcbs[t].state, TS_Running);
    assert_int_equal(decodeVCPUAckVPPI(ks, v, 160), SYSERR_INVALID_ARGUMENT); /* maxIRQ itself passes the range */
    assert_int_equal(decodeVCPUAckVPPI(ks, v, INTERRUPT_VTIMER_EVENT), SYSERR_NONE);
    assert_false(ks->vcpus[v].vppi_masked);
    assert_int_equal(ks->tcbs[t].state, TS_Restart);
    free(ks);
}

/* mr0 of seL4_ARM_VCPU_InjectIRQ on aarch64 (decodeVCPUInjectIRQ,
 * vcpu.c:426-430): vid 15:0, priority 23:16, group 31:24, list register
 * 39:32 */
static uint64_t inject_mr0(uint64_t vid, uint64_t prio, uint64_t group, uint64_t index)
{
    return vid | prio << 16 | group << 24 | index << 32;
}

/* seL4_ARM_VCPU_InjectIRQ (decodeVCPUInjectIRQ, vcpu.c:412-493): no
 * words is a truncated message; each field past its bound a range error
 * (vid 1023, priority 31, group 1, the list register below
 * gic_vcpu_num_list_regs, 4 on the boards modelled), checked before the
 * list register the VCPU's copy holds active (seL4_DeleteFirst); pending
 * and active is no reason to refuse (virq_virq_active only). Each refusal
 * leaves the caller running and every list register as it was. */
static void test_inject_irq_refusals(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_MASTER, &t, &v);
    ks->vgic_num_lr = 4;
    ks->vcpus[v].lr[2] = VGIC_LR_ACTIVE;
    ks->vcpus[v].lr[3] = 3;
    struct kstate *before = malloc(sizeof *before);
    ks_copy(before, ks);
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 0, inject_mr0(1, 1, 0, 0)), SYSERR_INVALID_ARGUMENT);
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(1024, 1, 0, 0)), SYSERR_RANGE);
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(1023, 32, 0, 0)), SYSERR_RANGE);
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(1023, 31, 2, 0)), SYSERR_RANGE);
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(1023, 31, 1, 4)), SYSERR_RANGE);
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(1023, 31, 1, 2)), SYSERR_INVALID_ARGUMENT);
    assert_true(ks_same(ks, before));
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(1023, 31, 1, 3)), SYSERR_NONE);
    free(before);
    free(ks);
}

/* invokeVCPUInjectIRQ (vcpu.c:395-410) on one core: the loaded VCPU's
 * list register is the VGIC's own (set_gic_vcpu_ctrl_lr), its saved copy
 * untouched; another VCPU, bound or not, gets its copy written. The virq
 * is pending with EOI maintenance (virq_virq_pending_new(group, priority,
 * 1, vid)); EISR counts invalid list registers asking for maintenance
 * only, so it stays 0. The caller restarts. */
static void test_inject_irq_one_core(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_MASTER, &t, &v);
    ks->vgic_num_lr = 4;
    int w = ks_add_vcpu(ks, "w");
    assert_int_equal(decodeVCPUInjectIRQ(ks, v, 1, inject_mr0(27, 0, 1, 1)), SYSERR_NONE);
    assert_int_equal(ks->vgic_lr[1], 1 | VGIC_LR_EOI);
    assert_int_equal(ks->vcpus[v].lr[1], 0);
    assert_int_equal(ks->vgic_eisr, 0);
    assert_false(ks->vgic_misr_eoi);
    assert_int_equal(ks->tcbs[t].state, TS_Restart);
    assert_int_equal(decodeVCPUInjectIRQ(ks, w, 1, inject_mr0(5, 0, 0, 3)), SYSERR_NONE);
    assert_int_equal(ks->vcpus[w].lr[3], 1 | VGIC_LR_EOI);
    assert_int_equal(ks->vgic_lr[3], 0);
    free(ks);
}

/* a SysSend on VCPU v's cap with the message word mr0 and the extra caps
 * whose lookups fail in bad (of extra), as the signal target's entry */
static struct ks_call inject_entry(struct kstate *ks, int v, uint64_t mr0, int extra, int bad)
{
    ks_sysin_clear(&ks->sys);
    ks->sys.ntfn = KS_NONE;
    ks->sys.entry = ENTRY_SIGNAL;
    ks->sys.cap = SCAP_VCPU;
    ks->sys.vcpu = (int8_t)v;
    ks->sys.length = 1;
    ks->sys.mr0 = mr0;
    ks->sys.extra_caps = (uint8_t)extra;
    ks->sys.extra_bad = (uint8_t)bad;
    return ks_call_of_entry(ks);
}

/* The whole system call (handleSyscall, syscall.c): the SysSend on a VCPU
 * cap is a VCPU_InjectIRQ of that VCPU (decodeInvocation's cap type), the
 * caller restarting and then completed (handleInvocation) with the list
 * register written; an extra cap whose cptr fails its lookup faults the
 * caller before anything is decoded (lookupExtraCaps, syscall.c:320-343;
 * no fault handler: Inactive) and no list register is written. */
static void test_inject_irq_syscall(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_MASTER, &t, &v);
    ks->vgic_num_lr = 4;
    struct kstate *again = malloc(sizeof *again);
    ks_copy(again, ks);
    struct ks_call c = inject_entry(ks, v, 1ull << 32, 0, 0);
    assert_int_equal(c.inv, CALL_VCPU_InjectIRQ);
    assert_int_equal(c.vcpu, v);
    assert_true(handleSyscall(ks, &c));
    assert_int_equal(ks->vgic_lr[1], 1 | VGIC_LR_EOI);
    assert_int_equal(ks->tcbs[t].state, TS_Running);
    c = inject_entry(again, v, 1ull << 32, 1, 1);
    assert_true(handleSyscall(again, &c));
    assert_int_equal(again->vgic_lr[1], 0);
    assert_int_equal(again->tcbs[t].state, TS_Inactive);
    free(again);
    free(ks);
}

/* A switch to another thread through the scheduler switches VCPUs
 * (Arch_switchToThread, 64/kernel/thread.c:14-20), to the idle thread
 * disables the VCPU (:28-34); the fastpaths' switch as well
 * (switchToThread_fp, mode/fastpath/fastpath.h:35-37). */
static void test_thread_switch(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_MASTER, &t, &v);
    int u = build_thread(ks, "u", 100, 0), w = ks_add_vcpu(ks, "w");
    build_sc(ks, "usc", u, 8000, 80000, 0);
    associateVCPUTCB(ks, w, u);
    switchToThread(ks, u);
    assert_int_equal(ks->cur_vcpu, w);
    switchToIdleThread(ks);
    assert_false(ks->vcpu_active);
    assert_true(ks->irq_masked[INTERRUPT_VTIMER_EVENT]);
    switchToThread_fp(ks, t);
    assert_int_equal(ks->cur_vcpu, v);
    assert_true(ks->vcpu_active);
    ks->cfg.hyp = false; /* a build without: no VCPU switch */
    switchToThread_fp(ks, u);
    assert_int_equal(ks->cur_vcpu, v);
    free(ks);
}

/* The vcpu invariant's rules (check/invariant.c check_vcpus) each broken
 * once, and a VCPU state written and read back the same. */
static void test_invariant_and_scenario(void **state)
{
    (void)state;
    int t, v;
    struct kstate *ks = vm_state(KS_KERNEL_BASE, &t, &v), *back = tc_state();
    ks->vgic_lr[2] = VGIC_LR_EOI;
    vgic_hw_sync(ks);
    ks->tcbs[t].fault_ep = (int8_t)build_ep(ks, "fep");
    tc_assert_valid(ks, INV_AT_ENTRY);
    FILE *f = tmpfile();
    assert_non_null(f);
    ks_print(f, ks);
    size_t len = (size_t)ftell(f);
    char *text = calloc(1, len + 1);
    rewind(f);
    assert_int_equal(fread(text, 1, len, f), len);
    fclose(f);
    struct scen_error err;
    assert_int_equal(scenario_parse(text, len, NULL, back, &err), 0);
    assert_true(ks_same(ks, back));
    free(text);
    vcpu_switch(ks, KS_NONE); /* the current thread's VCPU not active */
    assert_true(has_inv(ks, INV_VCPU));
    vcpu_switch(ks, v);
    ks->irq_masked[INTERRUPT_VTIMER_EVENT] = false;
    ks->vcpus[v].vppi_masked = true;
    assert_true(has_inv(ks, INV_VCPU));
    ks->vcpus[v].vppi_masked = false;
    ks->cfg.hyp = false;
    assert_true(has_inv(ks, INV_VCPU));
    ks->cfg.hyp = true;
    ks->tcbs[t].fault_lr = 1;
    assert_true(has_inv(ks, INV_VCPU));
    ks->tcbs[t].fault_lr = KS_NONE;
    ks->vcpus[v].tcb = KS_NONE;
    assert_true(has_inv(ks, INV_VCPU));
    free(ks);
    free(back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vppi_fault_to_handler),
        cmocka_unit_test(test_vppi_no_handler),
        cmocka_unit_test(test_vppi_handler_busy),
        cmocka_unit_test(test_vppi_round_robined),
        cmocka_unit_test(test_vppi_postponed),
        cmocka_unit_test(test_vppi_not_runnable),
        cmocka_unit_test(test_reserved_nothing),
        cmocka_unit_test(test_vgic_eoi),
        cmocka_unit_test(test_vgic_untrusted),
        cmocka_unit_test(test_vgic_exits),
        cmocka_unit_test(test_switch),
        cmocka_unit_test(test_switch_vtimer_inactive),
        cmocka_unit_test(test_bind),
        cmocka_unit_test(test_ack_vppi_decode),
        cmocka_unit_test(test_inject_irq_refusals),
        cmocka_unit_test(test_inject_irq_one_core),
        cmocka_unit_test(test_inject_irq_syscall),
        cmocka_unit_test(test_thread_switch),
        cmocka_unit_test(test_invariant_and_scenario),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
