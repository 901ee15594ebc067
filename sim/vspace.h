/*
 * vspace: the address space an aarch64 context switch installs (TTBR0, on a
 * hypervisor build the VMID it is tagged with), as the kernel decides it in
 * src/arch/arm/64/kernel/vspace.c and src/arch/arm/64/kernel/thread.c. The
 * model keeps no page tables: a thread's VTable cap and ASID lookups are
 * the flags vtable_ok, asid_ok and vmid_ok of its TCB, and TTBR0 is
 * ks->vspace, the thread whose vspace root it holds (KS_NONE: the global
 * user vspace, armKSGlobalUserVSpace). Each thread has a vspace of its own.
 */
#ifndef IRQSIM_VSPACE_H
#define IRQSIM_VSPACE_H

#include "kstate.h"

/* What TTBR0 holds after a switch to t: the global vspace for the idle
 * thread (Arch_switchToIdleThread), else what setVMRoot(t) installs.
 * Reads the state only (the scenario reader's default for ks->vspace). */
int vspace_after_switch(const struct kstate *ks, int t);

/* setVMRoot: t's vspace root with its ASID (and VMID), or the global one */
void setVMRoot(struct kstate *ks, int t);
/* Arch_switchToThread: vcpu_switch (hypervisor builds), setVMRoot */
void Arch_switchToThread(struct kstate *ks, int t);
/* Arch_switchToIdleThread: no VCPU (hypervisor builds), the global vspace */
void Arch_switchToIdleThread(struct kstate *ks);

#endif
