/* vcpuswitch: model of the VCPU switch and binding. Kernel lines are of
 * master 1326364bc unless base 43607edb6 is named; src/arch/arm/object/vcpu.c
 * is "vcpu.c", include/arch/arm/armv/armv8-a/64/armv/vcpu.h "armv/vcpu.h".
 * Below sched (Arch_switchToThread calls it), so it writes the GIC's mask
 * of the virtual timer itself rather than through irqc. */
#include "vcpuswitch.h"

/* maskInterrupt of the virtual timer's PPI (gic_v2.h / gic_v3.c; sim/irqc.c
 * does the same for any IRQ of the table) */
static void mask_vtimer(struct kstate *ks, bool disable)
{
    ks_irq_touch(ks, INTERRUPT_VTIMER_EVENT);
    ks->irq_masked[INTERRUPT_VTIMER_EVENT] = disable;
}

uint64_t vgic_eisr_of(const struct kstate *ks)
{
    uint64_t eisr = 0;
    for (int i = 0; i < ks->vgic_num_lr; i++)
        if (ks->vgic_lr[i] == VGIC_LR_EOI) /* invalid, EOI maintenance asked */
            eisr |= 1ull << i;
    return eisr;
}

struct vcpu_node vcpu_node_of(const struct kstate *ks, int c)
{
    if (c == 0)
        return (struct vcpu_node){ks->cur_vcpu, ks->vcpu_active, ks->vgic_misr_eoi,
                                  INTERRUPT_VTIMER_EVENT < ks->n_irqs && ks->irq_masked[INTERRUPT_VTIMER_EVENT]};
    return (struct vcpu_node){ks->core_vcpu[c], ks->core_vcpu_active[c], ks->core_vgic_misr_eoi[c],
                              ks->core_vtimer_masked[c]};
}

void vgic_hw_sync(struct kstate *ks)
{
    ks->vgic_eisr = vgic_eisr_of(ks);
    ks->vgic_misr_eoi = ks->vgic_eisr != 0;
}

/* the virtual timer's mask at a VCPU's enable (restore_virt_timer,
 * generic_timer.c:128-135): the VCPU's vppi_masked, if the IRQ is not
 * inactive (it is reserved at boot, arm/kernel/boot.c:129) */
static void restore_virt_timer(struct kstate *ks, int v)
{
    if (INTERRUPT_VTIMER_EVENT < ks->n_irqs && ks->irq_state[INTERRUPT_VTIMER_EVENT] != IRQ_Inactive)
        mask_vtimer(ks, ks->vcpus[v].vppi_masked);
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
        mask_vtimer(ks, true);
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

/* vcpu_flush (vcpu.c:270-276) with vcpu_invalidate_active (:261-268): the
 * loaded VCPU's list registers saved (vcpu_save; its timer disabled in
 * hardware when it was active, save_virt_timer, generic_timer.c:64-68),
 * then vcpu_disable(NULL), which masks no virtual timer (armv/vcpu.h:
 * 704-709 only for a VCPU), and no VCPU loaded */
void vcpu_flush(struct kstate *ks)
{
    if (ks->cur_vcpu == KS_NONE)
        return;
    vcpu_save(ks, ks->cur_vcpu);
    ks->vcpu_active = false;
    ks->cur_vcpu = KS_NONE;
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
