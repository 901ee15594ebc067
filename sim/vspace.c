/* vspace: model of the aarch64 address-space switch (setVMRoot and the
 * Arch_ switch functions). Kernel lines are of 43607edb6; PR #1227 does
 * not change these files. */
#include "vspace.h"

#include "vcpuswitch.h"

/* isValidNativeRoot (src/arch/arm/64/kernel/vspace.c:724-728), then
 * findVSpaceForASID of the cap's ASID giving that same root (:750-751) */
static bool native_root_ok(const struct ks_tcb *t)
{
    return t->vtable_ok && t->asid_ok;
}

int vspace_after_switch(const struct kstate *ks, int t)
{
    if (t == ks->idle_thread || !native_root_ok(&ks->tcbs[t]))
        return KS_NONE;
    return t;
}

/* getHWASID (vspace.c:857-871, hyp builds): the VMID stored in the ASID's
 * map entry, or a fresh one: findFreeHWASID (:827-855) and storeHWASID
 * (:811-825) set stored_vmid_valid. findFreeHWASID takes a VMID from another
 * ASID only when all 256 are in use; the model assumes a free one. */
static void getHWASID(struct kstate *ks, int t)
{
    ks->tcbs[t].vmid_ok = true;
}

/* armv_contextSwitch (include/arch/arm/armv/armv8-a/64/armv/context_switch.h:22-28):
 * on hyp the ASID becomes the VMID (getHWASID), then TTBR0 = (ASID, root) */
static void armv_contextSwitch(struct kstate *ks, int t)
{
    if (ks->cfg.hyp)
        getHWASID(ks, t);
    ks->vspace = (int8_t)t;
}

/* setVMRoot (vspace.c:735-758): a VTable cap that is not a mapped vspace cap
 * (:744-747), or whose ASID no longer maps that vspace (:750-755), gets the
 * global user vspace; else the thread's own (:757) */
void setVMRoot(struct kstate *ks, int t)
{
    const struct ks_tcb *x = &ks->tcbs[t];
    if (!x->vtable_ok) {
        ks->vspace = KS_NONE;
        return;
    }
    if (!x->asid_ok) {
        ks->vspace = KS_NONE;
        return;
    }
    armv_contextSwitch(ks, t);
}

/* Arch_switchToThread (src/arch/arm/64/kernel/thread.c:14-20): on a
 * hypervisor build, the thread's VCPU first (vcpu_switch) */
void Arch_switchToThread(struct kstate *ks, int t)
{
    if (ks->cfg.hyp)
        vcpu_switch(ks, ks->tcbs[t].vcpu);
    setVMRoot(ks, t);
}

/* Arch_switchToIdleThread (src/arch/arm/64/kernel/thread.c:28-34): the
 * global user vspace, directly (the idle thread has no VTable cap) */
void Arch_switchToIdleThread(struct kstate *ks)
{
    if (ks->cfg.hyp)
        vcpu_switch(ks, KS_NONE);
    ks->vspace = KS_NONE;
}
