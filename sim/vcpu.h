/*
 * vcpu: the VCPU objects of a hypervisor build (CONFIG_ARM_HYPERVISOR_SUPPORT)
 * and what the interrupt path does with them (kernel
 * src/arch/arm/object/vcpu.c, include/arch/arm/armv/armv8-a/64/armv/vcpu.h,
 * restore_virt_timer in src/drivers/timer/generic_timer.c): the virtual
 * timer's PPI event (VPPIEvent) and the VGIC maintenance interrupt
 * (VGICMaintenance), which send the current thread a fault; the core's
 * VCPU switch at every thread switch (vcpu_switch) with the virtual
 * timer's masking it leaves; and the operations that reach a VCPU state
 * (associateVCPUTCB, dissociateVCPUTCB, invokeVCPUAckVPPI). Owns the
 * VCPU objects, armHSCurVCPU / armHSVCPUActive of core 0 and the VGIC's
 * list registers, EISR and MISR. Guest registers, the VCPU's other
 * invocations and another core's VCPU are not modelled (docs/model.md,
 * "VCPUs").
 */
#ifndef IRQSIM_VCPU_H
#define IRQSIM_VCPU_H

#include "kstate.h"

/* the PPIs of every board modelled (their device trees' arm,gic maintenance
 * interrupt, PPI 9, and arm,armv8-timer's virtual timer, PPI 11; the kernel's
 * hardware_gen.h gives them as INTERRUPT_VGIC_MAINTENANCE and
 * INTERRUPT_VTIMER_EVENT), core 0's */
#define INTERRUPT_VGIC_MAINTENANCE 25
#define INTERRUPT_VTIMER_EVENT 27

/* VPPIEventIRQ_t (include/arch/arm/arch/object/vcpu.h:67-71) */
enum { VPPIEventIRQ_VTimer, n_VPPIEventIRQ, VPPIEventIRQ_invalid = n_VPPIEventIRQ };

int irqVPPIEventIndex(int irq);
void VPPIEvent(struct kstate *ks, int irq);
void VGICMaintenance(struct kstate *ks);
/* vcpu_switch: v is the next thread's VCPU, KS_NONE for none */
void vcpu_switch(struct kstate *ks, int v);
void associateVCPUTCB(struct kstate *ks, int v, int t);
void dissociateVCPUTCB(struct kstate *ks, int v, int t);
void invokeVCPUAckVPPI(struct kstate *ks, int v, int vppi);

/* What the VGIC computes from its list registers (GICv2 architecture,
 * GICH_EISR0/1, GICH_MISR.EOI; GICv3 ICH_EISR_EL2, ICH_MISR_EL2.EOI): an
 * LR in the invalid state asking for a maintenance interrupt at EOI. Writes
 * to the list registers update them (vgic_hw_sync). */
uint64_t vgic_eisr_of(const struct kstate *ks);
void vgic_hw_sync(struct kstate *ks);

#endif
