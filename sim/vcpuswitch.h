/*
 * vcpuswitch: the core's VCPU switch at every thread switch (vcpu_switch,
 * with vcpu_save, vcpu_restore, vcpu_enable, vcpu_disable and the virtual
 * timer's mask they leave), the binding of VCPUs to threads
 * (associateVCPUTCB, dissociateVCPUTCB), invokeVCPUAckVPPI, and the VGIC's
 * EISR/MISR as the hardware computes them. Apart from sim/vcpu.h (the
 * interrupt handlers, which send faults above the scheduler) because
 * Arch_switchToThread, below the scheduler, calls vcpu_switch.
 */
#ifndef IRQSIM_VCPUSWITCH_H
#define IRQSIM_VCPUSWITCH_H

#include "kstate.h"

/* the PPIs of every board modelled (their device trees' arm,gic maintenance
 * interrupt, PPI 9, and arm,armv8-timer's virtual timer, PPI 11; the kernel's
 * hardware_gen.h gives them as INTERRUPT_VGIC_MAINTENANCE and
 * INTERRUPT_VTIMER_EVENT), core 0's */
#define INTERRUPT_VGIC_MAINTENANCE 25
#define INTERRUPT_VTIMER_EVENT 27

/* VPPIEventIRQ_t (include/arch/arm/arch/object/vcpu.h:67-71) */
enum { VPPIEventIRQ_VTimer, n_VPPIEventIRQ, VPPIEventIRQ_invalid = n_VPPIEventIRQ };

/* vcpu_switch: v is the next thread's VCPU, KS_NONE for none */
void vcpu_switch(struct kstate *ks, int v);
/* vcpu_flush: the loaded VCPU saved and unloaded, none left active */
void vcpu_flush(struct kstate *ks);
void associateVCPUTCB(struct kstate *ks, int v, int t);
void dissociateVCPUTCB(struct kstate *ks, int v, int t);
void invokeVCPUAckVPPI(struct kstate *ks, int v, int vppi);

/* Core c's hypervisor node state as that core's own code reads it: its
 * armHSCurVCPU and armHSVCPUActive, its VGIC's MISR.EOI (the maintenance
 * PPI raised while the VCPU is enabled) and its virtual timer PPI's mask.
 * Core 0's are the state's own fields, another core's the banked copies
 * (kstate.h core_vcpu) outside its kernel entries. */
struct vcpu_node {
    int cur;
    bool active, misr_eoi, vtimer_masked;
};
struct vcpu_node vcpu_node_of(const struct kstate *ks, int c);

/* What the VGIC computes from its list registers (GICv2 architecture,
 * GICH_EISR0/1, GICH_MISR.EOI; GICv3 ICH_EISR_EL2, ICH_MISR_EL2.EOI): an
 * LR in the invalid state asking for a maintenance interrupt at EOI. Writes
 * to the list registers update them (vgic_hw_sync). */
uint64_t vgic_eisr_of(const struct kstate *ks);
void vgic_hw_sync(struct kstate *ks);

#endif
