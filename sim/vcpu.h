/*
 * vcpu: the VCPU objects of a hypervisor build (CONFIG_ARM_HYPERVISOR_SUPPORT)
 * and what the interrupt path does with them (kernel
 * src/arch/arm/object/vcpu.c, include/arch/arm/armv/armv8-a/64/armv/vcpu.h,
 * restore_virt_timer in src/drivers/timer/generic_timer.c): the virtual
 * timer's PPI event (VPPIEvent) and the VGIC maintenance interrupt
 * (VGICMaintenance), which send the current thread a fault. The VCPU
 * switch, the binding and the VGIC's registers are sim/vcpuswitch.h's
 * (below the scheduler). Another core's VCPU state is kstate.h's
 * core_vcpu and the fields beside it, which smp_swap_core puts in core 0's
 * place for that core's code. The VCPU invocations modelled are AckVPPI
 * and InjectIRQ; guest registers and the other invocations are not
 * (docs/model.md, "VCPUs").
 */
#ifndef IRQSIM_VCPU_H
#define IRQSIM_VCPU_H

#include "kstate.h"
#include "vcpuswitch.h"

int irqVPPIEventIndex(int irq);
void VPPIEvent(struct kstate *ks, int irq);
void VGICMaintenance(struct kstate *ks);
/* decodeVCPUAckVPPI on VCPU v's cap with the IRQ number irq; returns enum
 * ks_syserr */
int decodeVCPUAckVPPI(struct kstate *ks, int v, int irq);
/* decodeVCPUInjectIRQ on VCPU v's cap with a message of length words whose
 * first is mr0 (vid, priority, group, list register); returns enum
 * ks_syserr */
int decodeVCPUInjectIRQ(struct kstate *ks, int v, unsigned length, uint64_t mr0);

#endif
