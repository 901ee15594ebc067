/* vcpu: model of the hypervisor's VCPU interrupt path. Kernel lines are of
 * master 1326364bc unless base 43607edb6 is named; src/arch/arm/object/vcpu.c
 * is "vcpu.c", include/arch/arm/armv/armv8-a/64/armv/vcpu.h "armv/vcpu.h". */
#include "vcpu.h"

#include "faulthandler.h"
#include "irqc.h"
#include "kassert.h"
#include "sched.h"

/* irqVPPIEventIndex (include/arch/arm/arch/object/vcpu.h:196-205) */
int irqVPPIEventIndex(int irq)
{
    return irq == INTERRUPT_VTIMER_EVENT ? VPPIEventIRQ_VTimer : VPPIEventIRQ_invalid;
}

uint64_t vgic_eisr_of(const struct kstate *ks)
{
    uint64_t eisr = 0;
    for (int i = 0; i < ks->vgic_num_lr; i++)
        if (ks->vgic_lr[i] == VGIC_LR_EOI) /* invalid, EOI maintenance asked */
            eisr |= 1ull << i;
    return eisr;
}

void vgic_hw_sync(struct kstate *ks)
{
    ks->vgic_eisr = vgic_eisr_of(ks);
    ks->vgic_misr_eoi = ks->vgic_eisr != 0;
}

/* The MCS test both handlers open with, per version (docs/model.md,
 * "VCPUs"): a current thread in a ready queue (tcbQueued: c64867ebd, base
 * vcpu.c:121 and :140; dropped by 6dbe58ef0, restored by 232471e90) or
 * not schedulable (6dbe58ef0; master vcpu.c:123-124, 152-153) is left
 * alone, the level-triggered interrupt comes again. */
static bool vcpu_fault_deferred(const struct kstate *ks)
{
    int cur = ks->cur_thread;
    bool queued = !cfg_has(&ks->cfg, KF_VCPU_FAULT_UNQUEUED) && ks->tcbs[cur].queued;
    bool unschedulable = cfg_has(&ks->cfg, KF_VCPU_FAULT_SCHEDULABLE) && !isSchedulable(ks, cur);
    return queued || unschedulable;
}

/* the fault to the current thread, if it is runnable: "Current VCPU being
 * active should indicate that the current thread is runnable" (vcpu.c:
 * 134-140, 215-221), which the kernel asserts and then tests */
static void fault_current(struct kstate *ks, struct ks_fault_msg f, int assert_id)
{
    int cur = ks->cur_thread;
    KASSERT(ks, isRunnable(ks, cur), assert_id);
    if (isRunnable(ks, cur))
        handleFault(ks, cur, f);
}

/* VPPIEvent (vcpu.c:106-142; base vcpu.c:110-138) */
void VPPIEvent(struct kstate *ks, int irq)
{
    if (vcpu_fault_deferred(ks))
        return;
    if (!ks->vcpu_active)
        return;
    maskInterrupt(ks, true, irq);
    int vppi = irqVPPIEventIndex(irq);
    KASSERT(ks, vppi != VPPIEventIRQ_invalid, A_VPPI_INDEX);
    ks->vcpus[ks->cur_vcpu].vppi_masked = true; /* the one VPPI: vppi_masked[vppi] */
    fault_current(ks, (struct ks_fault_msg){FAULT_VPPIEvent, KS_NONE}, A_VPPI_RUNNABLE);
}

/* the list register VGICMaintenance names: the lowest EISR bit, of EISR0
 * then EISR1 (vcpu.c:171-178); -1 when none is set */
static int maintenance_lr(uint64_t eisr)
{
    uint32_t eisr0 = (uint32_t)eisr, eisr1 = (uint32_t)(eisr >> 32);
    if (eisr0)
        return __builtin_ctz(eisr0);
    if (eisr1)
        return __builtin_ctz(eisr1) + 32;
    return -1;
}

/* virqType whose case clears virqEOIIRQEN (vcpu.c:185-195): invalid,
 * pending, active; pending-and-active has no case and is written back as read */
static const bool clears_eoi[4] = {true, true, true, false};

/* the fault of an EOI for list register idx (vcpu.c:181-209): its EOI
 * maintenance turned off in the VGIC and in the VCPU's copy */
static struct ks_fault_msg eoi_fault(struct kstate *ks, int idx)
{
    if (idx == -1 || idx >= ks->vgic_num_lr) /* the hardware is not trusted that far */
        return (struct ks_fault_msg){FAULT_VGICMaintenance, KS_NONE};
    uint8_t virq = ks->vgic_lr[idx];
    if (clears_eoi[virq & VGIC_LR_TYPE])
        virq &= (uint8_t)~VGIC_LR_EOI;
    ks->vgic_lr[idx] = virq;
    vgic_hw_sync(ks);
    bool loaded = ks->cur_vcpu != KS_NONE && ks->vcpu_active;
    KASSERT(ks, loaded, A_VGIC_CUR_VCPU);
    if (loaded)
        ks->vcpus[ks->cur_vcpu].lr[idx] = virq;
    return (struct ks_fault_msg){FAULT_VGICMaintenance, (int8_t)idx};
}

/* VGICMaintenance (vcpu.c:144-223; base vcpu.c:141-215) */
void VGICMaintenance(struct kstate *ks)
{
    if (vcpu_fault_deferred(ks))
        return;
    if (!ks->vcpu_active) /* "Received VGIC maintenance without active VCPU!" */
        return;
    struct ks_fault_msg f = {FAULT_VGICMaintenance, KS_NONE}; /* "an EOI for a LR that was not present" */
    if (ks->vgic_misr_eoi)
        f = eoi_fault(ks, maintenance_lr(ks->vgic_eisr));
    fault_current(ks, f, A_VGIC_RUNNABLE);
}

/* the virtual timer's mask at a VCPU's enable (restore_virt_timer,
 * generic_timer.c:128-135): the VCPU's vppi_masked, if the IRQ is not
 * inactive (it is reserved at boot, arm/kernel/boot.c:129) */
static void restore_virt_timer(struct kstate *ks, int v)
{
    if (irq_state_of(ks, INTERRUPT_VTIMER_EVENT) != IRQ_Inactive)
        maskInterrupt(ks, ks->vcpus[v].vppi_masked, INTERRUPT_VTIMER_EVENT);
}

/* vcpu_enable (armv/vcpu.h:651-668): the VGIC on, the timer's mask restored */
static void vcpu_enable(struct kstate *ks, int v)
{
    restore_virt_timer(ks, v);
}

/* vcpu_disable (armv/vcpu.h:670-710): the VGIC off; for a VCPU, its timer
 * saved and the virtual timer's interrupt masked (:708) */
static void vcpu_disable(struct kstate *ks, int v)
{
    if (v != KS_NONE)
        maskInterrupt(ks, true, INTERRUPT_VTIMER_EVENT);
}

/* vcpu_save (vcpu.c:32-54): the list registers into the VCPU */
static void vcpu_save(struct kstate *ks, int v)
{
    for (int i = 0; i < ks->vgic_num_lr; i++)
        ks->vcpus[v].lr[i] = ks->vgic_lr[i];
}

/* vcpu_restore (vcpu.c:84-104): the VCPU's list registers into the VGIC, then enabled */
static void vcpu_restore(struct kstate *ks, int v)
{
    for (int i = 0; i < ks->vgic_num_lr; i++)
        ks->vgic_lr[i] = ks->vcpus[v].lr[i];
    vgic_hw_sync(ks);
    vcpu_enable(ks, v);
}

/* vcpu_switch (vcpu.c:236-259): a new VCPU is loaded and enabled; none
 * leaves the current one loaded but disabled */
void vcpu_switch(struct kstate *ks, int v)
{
    if (ks->cur_vcpu != v) {
        if (v != KS_NONE) {
            if (ks->cur_vcpu != KS_NONE)
                vcpu_save(ks, ks->cur_vcpu);
            vcpu_restore(ks, v);
            ks->cur_vcpu = (int8_t)v;
            ks->vcpu_active = true;
        } else if (ks->vcpu_active) {
            vcpu_disable(ks, ks->cur_vcpu);
            ks->vcpu_active = false;
        }
    } else if (!ks->vcpu_active && v != KS_NONE) {
        vcpu_enable(ks, v);
        ks->vcpu_active = true;
    }
}

/* vcpu_invalidate_active (vcpu.c:261-268): vcpu_disable(NULL) masks nothing */
static void vcpu_invalidate_active(struct kstate *ks)
{
    if (ks->vcpu_active) {
        vcpu_disable(ks, KS_NONE);
        ks->vcpu_active = false;
    }
    ks->cur_vcpu = KS_NONE;
}

/* dissociateVCPUTCB (vcpu.c:308-326), without its fail() on a pair that is
 * not associated (the callers' pairs are) */
void dissociateVCPUTCB(struct kstate *ks, int v, int t)
{
    if (v == ks->cur_vcpu)
        vcpu_invalidate_active(ks);
    ks->tcbs[t].vcpu = KS_NONE;
    ks->vcpus[v].tcb = KS_NONE;
}

/* associateVCPUTCB (vcpu.c:292-306): both unbound first; the current
 * thread's VCPU is switched to at once */
void associateVCPUTCB(struct kstate *ks, int v, int t)
{
    if (ks->tcbs[t].vcpu != KS_NONE)
        dissociateVCPUTCB(ks, ks->tcbs[t].vcpu, t);
    if (ks->vcpus[v].tcb != KS_NONE)
        dissociateVCPUTCB(ks, v, ks->vcpus[v].tcb);
    ks->tcbs[t].vcpu = (int8_t)v;
    ks->vcpus[v].tcb = (int8_t)t;
    if (t == ks->cur_thread)
        vcpu_switch(ks, v);
}

/* invokeVCPUAckVPPI (vcpu.c:551-555): the flag only; the IRQ stays masked
 * until the VCPU is next enabled */
void invokeVCPUAckVPPI(struct kstate *ks, int v, int vppi)
{
    (void)vppi; /* the one VPPI */
    ks->vcpus[v].vppi_masked = false;
}
