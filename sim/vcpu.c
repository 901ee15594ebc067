/* vcpu: model of the hypervisor's VCPU interrupt path. Kernel lines are of
 * master 1326364bc unless base 43607edb6 is named; src/arch/arm/object/vcpu.c
 * is "vcpu.c", include/arch/arm/armv/armv8-a/64/armv/vcpu.h "armv/vcpu.h". */
#include "vcpu.h"

#include "faulthandler.h"
#include "irqc.h"
#include "kassert.h"
#include "sched.h"
#include "schedcontext.h"
#include "smp.h"

/* irqVPPIEventIndex (include/arch/arm/arch/object/vcpu.h:196-205) */
int irqVPPIEventIndex(int irq)
{
    return irq == INTERRUPT_VTIMER_EVENT ? VPPIEventIRQ_VTimer : VPPIEventIRQ_invalid;
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
    fault_current(ks, (struct ks_fault_msg){FAULT_VPPIEvent, KS_NONE, LKF_NONE}, A_VPPI_RUNNABLE);
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
        return (struct ks_fault_msg){FAULT_VGICMaintenance, KS_NONE, LKF_NONE};
    uint8_t virq = ks->vgic_lr[idx];
    if (clears_eoi[virq & VGIC_LR_TYPE])
        virq &= (uint8_t)~VGIC_LR_EOI;
    ks->vgic_lr[idx] = virq;
    vgic_hw_sync(ks);
    /* the kernel tests armHSVCPUActive again (vcpu.c:202-203); it holds:
     * VGICMaintenance returned otherwise (vcpu.c:163-166) */
    bool loaded = ks->cur_vcpu != KS_NONE;
    KASSERT(ks, loaded, A_VGIC_CUR_VCPU);
    if (loaded)
        ks->vcpus[ks->cur_vcpu].lr[idx] = virq;
    return (struct ks_fault_msg){FAULT_VGICMaintenance, (int8_t)idx, LKF_NONE};
}

/* VGICMaintenance (vcpu.c:144-223; base vcpu.c:141-215) */
void VGICMaintenance(struct kstate *ks)
{
    if (vcpu_fault_deferred(ks))
        return;
    if (!ks->vcpu_active) /* "Received VGIC maintenance without active VCPU!" */
        return;
    struct ks_fault_msg f = {FAULT_VGICMaintenance, KS_NONE, LKF_NONE}; /* "an EOI for a LR that was not present" */
    if (ks->vgic_misr_eoi)
        f = eoi_fault(ks, maintenance_lr(ks->vgic_eisr));
    fault_current(ks, f, A_VGIC_RUNNABLE);
}

/* decodeVCPUAckVPPI (vcpu.c:523-549): the IRQ checked as any IRQ number
 * (Arch_checkIRQ: above maxIRQ a range error), then as a VPPI (else an
 * invalid argument); Restart, then the invocation */
int decodeVCPUAckVPPI(struct kstate *ks, int v, int irq)
{
    if (Arch_checkIRQ(ks, irq))
        return SYSERR_RANGE;
    int vppi = irqVPPIEventIndex(irq);
    if (vppi == VPPIEventIRQ_invalid)
        return SYSERR_INVALID_ARGUMENT;
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeVCPUAckVPPI(ks, v, vppi);
    return SYSERR_NONE;
}

/* the bits of the virq decodeVCPUInjectIRQ makes (virq_virq_pending_new(
 * group, priority, 1, vid), vcpu.c:489): pending, EOI maintenance asked */
#define INJECTED_LR (1u | VGIC_LR_EOI)

/* set_gic_vcpu_ctrl_lr on this core: the VGIC's list register, and EISR
 * and MISR as the hardware computes them from it */
static void set_hw_lr(struct kstate *ks, int index, uint8_t virq)
{
    ks->vgic_lr[index] = virq;
    vgic_hw_sync(ks);
}

/* handleVCPUInjectInterruptIPI (vcpu.c:600-607), on the core the remote
 * call reached (core 0's place: smp_swap_core) */
static void inject_on_this_core(struct kstate *ks, int v, int index, uint8_t virq)
{
    if (ks->cur_vcpu == v)
        set_hw_lr(ks, index, virq);
    else
        ks->vcpus[v].lr[index] = virq;
}

/* invokeVCPUInjectIRQ (vcpu.c:395-410): the VGIC's register when the VCPU
 * is this core's; on SMP a VCPU whose thread lives on another core gets
 * it there, by a blocking remote call (doRemoteOp3Arg: handleIPI ->
 * handleRemoteCall -> handleVCPUInjectInterruptIPI on that core); else
 * the VCPU's saved copy. The other core is taken to run the call from its
 * lock wait (clh_lock_acquire's poll of the IPI flag, include/smp/lock.h),
 * as the bridge runs it, which acknowledges nothing at the GIC; from user
 * level it would take the SGI as an interrupt, which handleInterrupt
 * acknowledges (interrupt.c:251-279): a count neither side holds, as for
 * the FPU release's remote call. The test of vcpuTCB came with d26f1ff4d
 * (2024): before it, a VCPU bound to no thread made the kernel read
 * through a NULL pointer there. */
static void invokeVCPUInjectIRQ(struct kstate *ks, int v, int index, uint8_t virq)
{
    int t = ks->vcpus[v].tcb;
    if (ks->cur_vcpu == v) {
        set_hw_lr(ks, index, virq);
        return;
    }
    if (ks->cfg.smp && t != KS_NONE && ks->tcbs[t].affinity != CUR_CORE) {
        int c = ks->tcbs[t].affinity;
        smp_swap_core(ks, c);
        inject_on_this_core(ks, v, index, virq);
        smp_swap_core(ks, c);
        return;
    }
    ks->vcpus[v].lr[index] = virq;
}

/* decodeVCPUInjectIRQ (vcpu.c:412-493, aarch64; the same in base): the
 * first word's fields checked in order (vid 15:0 below 1024, priority
 * 23:16 to 31, group 31:24 to 1, the list register 39:32 below
 * gic_vcpu_num_list_regs), a list register the VCPU's copy holds active is
 * refused (seL4_DeleteFirst); Restart, then the invocation */
int decodeVCPUInjectIRQ(struct kstate *ks, int v, unsigned length, uint64_t mr0)
{
    if (length < 1)
        return SYSERR_INVALID_ARGUMENT; /* seL4_TruncatedMessage */
    uint64_t vid = mr0 & 0xffff, priority = (mr0 >> 16) & 0xff, group = (mr0 >> 24) & 0xff,
             index = (mr0 >> 32) & 0xff;
    if (vid > (1u << 10) - 1 || priority > 31 || group > 1 || index >= ks->vgic_num_lr)
        return SYSERR_RANGE;
    if ((ks->vcpus[v].lr[index] & VGIC_LR_TYPE) == VGIC_LR_ACTIVE)
        return SYSERR_INVALID_ARGUMENT; /* seL4_DeleteFirst */
    setThreadState(ks, ks->cur_thread, TS_Restart);
    invokeVCPUInjectIRQ(ks, v, (int)index, INJECTED_LR);
    return SYSERR_NONE;
}
