/*
 * hk_vcpu: the hypervisor's VCPUs and VGIC for the bridge (ABI 7), on
 * builds with CONFIG_ARM_HYPERVISOR_SUPPORT: VCPU objects bound to
 * threads (vcpuTCB, tcbVCPU), the virtual timer's vppi_masked, the list
 * registers a VCPU saves (vgic.lr), each core's armHSCurVCPU and
 * armHSVCPUActive (core 1's on a two-core build), and core 0's VGIC's virtual interface registers the
 * maintenance path reads: the list registers, EISR and MISR (GICv3: the
 * ICH_*_EL2 system registers, hk_glue.c's hk_ich_*; GICv2: the GICH
 * frame, gic_vcpu_ctrl, here host memory) and gic_vcpu_num_list_regs.
 * Appended to the kernel's translation unit after hk_bridge.c. Own code;
 * no kernel source.
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
static vcpu_t hk_vcpu_pool[HK_MAX_VCPUS] ALIGN(BIT(seL4_VCPUBits));
#if HK_GIC_VERSION == 2
static struct gich_vcpu_ctrl_map hk_gich;
#endif

/* virqType and virqEOIIRQEN of a list register: bits 63:62 and 41 of
 * GICv3's ICH_LR<n>_EL2, bits 29:28 and 19 of GICv2's GICH_LR<n> (the
 * virq blocks of the kernel's structures.bf, as the architecture lays
 * them out) */
#if HK_GIC_VERSION == 3
#define HK_LR_TYPE_SHIFT 62
#define HK_LR_EOI_SHIFT 41
#else
#define HK_LR_TYPE_SHIFT 28
#define HK_LR_EOI_SHIFT 19
#endif

static word_t hk_lr_word(unsigned char lr)
{
    return ((word_t)(lr & HK_LR_TYPE) << HK_LR_TYPE_SHIFT) | ((word_t)((lr & HK_LR_EOI) != 0) << HK_LR_EOI_SHIFT);
}

static unsigned char hk_lr_bits(word_t w)
{
    return (unsigned char)(((w >> HK_LR_TYPE_SHIFT) & HK_LR_TYPE) | (((w >> HK_LR_EOI_SHIFT) & 1) ? HK_LR_EOI : 0));
}

static int hk_vcpu_index(const vcpu_t *v)
{
    return v ? (int)(v - hk_vcpu_pool) : HK_NONE;
}

static word_t hk_vgic_lr_read(int j)
{
#if HK_GIC_VERSION == 3
    return hk_ich_lr[j];
#else
    return hk_gich.lr[j];
#endif
}

/* What the VGIC computes from its list registers (EISR, MISR): an LR in
 * the invalid state with its EOI maintenance bit set shows in EISR, and
 * MISR's EOI bit is set while EISR is not empty (GICv3 ICH_EISR_EL2,
 * ICH_MISR_EL2.EOI; GICv2 GICH_EISR0/1, GICH_MISR.EOI) */
static void hk_vgic_sync(void)
{
    word_t eisr = 0;
    for (word_t j = 0; j < gic_vcpu_num_list_regs && j < HK_VGIC_LRS; j++)
        if (hk_lr_bits(hk_vgic_lr_read((int)j)) == HK_LR_EOI)
            eisr |= BIT(j);
#if HK_GIC_VERSION == 3
    hk_ich_eisr = eisr;
    hk_ich_misr = eisr ? VGIC_MISR_EOI : 0;
#else
    hk_gich.eisr0 = (uint32_t)eisr;
    hk_gich.eisr1 = 0;
    hk_gich.misr = eisr ? VGIC_MISR_EOI : 0;
#endif
}

/* Another core's VGIC interface (banked per CPU: the GICH frame on GICv2,
 * ICH_*_EL2 on GICv3): its registers' words while core 0's are in the
 * registers, exchanged around a remote call that core runs
 * (hk_vgic_swap_core, from hk_other_core_step) */
static struct hk_vgic_bank {
    word_t lr[HK_VGIC_LRS], eisr, misr;
} hk_vgic_bank[HK_MAX_CORES];

static void hk_vgic_regs_get(struct hk_vgic_bank *b)
{
    for (int j = 0; j < HK_VGIC_LRS; j++)
        b->lr[j] = hk_vgic_lr_read(j);
#if HK_GIC_VERSION == 3
    b->eisr = hk_ich_eisr;
    b->misr = hk_ich_misr;
#else
    b->eisr = hk_gich.eisr0 | ((word_t)hk_gich.eisr1 << 32);
    b->misr = hk_gich.misr;
#endif
}

static void hk_vgic_regs_set(const struct hk_vgic_bank *b)
{
#if HK_GIC_VERSION == 3
    for (int j = 0; j < HK_VGIC_LRS; j++)
        hk_ich_lr[j] = b->lr[j];
    hk_ich_eisr = b->eisr;
    hk_ich_misr = b->misr;
#else
    for (int j = 0; j < HK_VGIC_LRS; j++)
        hk_gich.lr[j] = (uint32_t)b->lr[j];
    hk_gich.eisr0 = (uint32_t)b->eisr;
    hk_gich.eisr1 = (uint32_t)(b->eisr >> 32);
    hk_gich.misr = (uint32_t)b->misr;
#endif
}

/* core 0's registers while another core's are in them */
static struct hk_vgic_bank hk_vgic_home;

/* core c's VGIC registers in place of core 0's, for a remote call that
 * core runs */
static void hk_vgic_enter_core(word_t c)
{
    hk_vgic_regs_get(&hk_vgic_home);
    hk_vgic_regs_set(&hk_vgic_bank[c]);
}

/* and back: a list register the call wrote makes the hardware recompute
 * EISR and MISR (hk_vgic_sync) */
static void hk_vgic_leave_core(word_t c)
{
    struct hk_vgic_bank now;
    hk_vgic_regs_get(&now);
    bool_t written = false;
    for (int j = 0; j < HK_VGIC_LRS; j++)
        written |= now.lr[j] != hk_vgic_bank[c].lr[j];
    if (written) {
        hk_vgic_sync();
        hk_vgic_regs_get(&now);
    }
    hk_vgic_bank[c] = now;
    hk_vgic_regs_set(&hk_vgic_home);
}

/* Another core's armHSCurVCPU and armHSVCPUActive (node state, as
 * core 0's: ARCH_NODE_STATE_ON_CORE); a build of one core has none */
static int hk_load_core_vcpus(const struct hk_state *s)
{
    for (int c = 1; c < HK_MAX_CORES; c++) {
        if (s->core_vcpu[c] >= s->n_vcpus || (s->core_vcpu_active[c] && s->core_vcpu[c] < 0))
            return hk_fail("another core's VCPU is out of range, or active with none loaded");
#ifdef ENABLE_SMP_SUPPORT
        if ((word_t)c < CONFIG_MAX_NUM_NODES) {
            ARCH_NODE_STATE_ON_CORE(armHSCurVCPU, c) = s->core_vcpu[c] >= 0 ? &hk_vcpu_pool[s->core_vcpu[c]] : NULL;
            ARCH_NODE_STATE_ON_CORE(armHSVCPUActive, c) = s->core_vcpu_active[c];
            for (int j = 0; j < HK_VGIC_LRS; j++)
                hk_vgic_bank[c].lr[j] = hk_lr_word(s->core_vgic_lr[c][j]);
            hk_vgic_bank[c].eisr = s->core_vgic_eisr[c];
            hk_vgic_bank[c].misr = s->core_vgic_misr_eoi[c] ? VGIC_MISR_EOI : 0;
            continue;
        }
#endif
        if (s->core_vcpu[c] >= 0 || s->core_vcpu_active[c])
            return hk_fail("a VCPU on another core, and the build has one core");
    }
    return 0;
}

static void hk_save_core_vcpus(struct hk_state *s)
{
    for (int c = 1; c < HK_MAX_CORES; c++) {
        s->core_vcpu[c] = HK_NONE;
        s->core_vcpu_active[c] = 0;
#ifdef ENABLE_SMP_SUPPORT
        if ((word_t)c < CONFIG_MAX_NUM_NODES) {
            s->core_vcpu[c] = (signed char)hk_vcpu_index(ARCH_NODE_STATE_ON_CORE(armHSCurVCPU, c));
            s->core_vcpu_active[c] = (unsigned char)ARCH_NODE_STATE_ON_CORE(armHSVCPUActive, c);
            for (int j = 0; j < HK_VGIC_LRS; j++)
                s->core_vgic_lr[c][j] = hk_lr_bits(hk_vgic_bank[c].lr[j]);
            s->core_vgic_eisr[c] = hk_vgic_bank[c].eisr;
            s->core_vgic_misr_eoi[c] = (hk_vgic_bank[c].misr & VGIC_MISR_EOI) != 0;
        }
#endif
    }
}

static int hk_load_vcpus(const struct hk_state *s)
{
    if (s->n_vcpus > HK_MAX_VCPUS || s->vgic_num_lr > HK_VGIC_LRS || s->vgic_num_lr > GIC_VCPU_MAX_NUM_LR)
        return hk_fail("more VCPUs or list registers than the bridge holds");
    for (int i = 0; i < s->n_vcpus; i++) {
        const struct hk_vcpu *x = &s->vcpus[i];
        vcpu_t *v = &hk_vcpu_pool[i];
        memzero(v, sizeof *v);
        v->vcpuTCB = hk_tcb(x->tcb);
        v->vppi_masked[VPPIEventIRQ_VTimer] = x->vppi_masked;
        for (int j = 0; j < HK_VGIC_LRS; j++)
            v->vgic.lr[j].words[0] = hk_lr_word(x->lr[j]);
    }
    for (int t = 0; t < s->n_tcbs; t++)
        hk_tcb(t)->tcbArch.tcbVCPU = s->tcbs[t].vcpu >= 0 ? &hk_vcpu_pool[s->tcbs[t].vcpu] : NULL;
    ARCH_NODE_STATE(armHSCurVCPU) = s->cur_vcpu >= 0 ? &hk_vcpu_pool[s->cur_vcpu] : NULL;
    ARCH_NODE_STATE(armHSVCPUActive) = s->vcpu_active;
    if (hk_load_core_vcpus(s) != 0)
        return -1;
    gic_vcpu_num_list_regs = s->vgic_num_lr;
#if HK_GIC_VERSION == 3
    for (int j = 0; j < HK_VGIC_LRS; j++)
        hk_ich_lr[j] = hk_lr_word(s->vgic_lr[j]);
    hk_ich_eisr = s->vgic_eisr;
    hk_ich_misr = s->vgic_misr_eoi ? VGIC_MISR_EOI : 0;
#else
    memzero((void *)&hk_gich, sizeof hk_gich);
    gic_vcpu_ctrl = &hk_gich;
    for (int j = 0; j < HK_VGIC_LRS; j++)
        hk_gich.lr[j] = (uint32_t)hk_lr_word(s->vgic_lr[j]);
    hk_gich.eisr0 = (uint32_t)s->vgic_eisr;
    hk_gich.eisr1 = (uint32_t)(s->vgic_eisr >> 32);
    hk_gich.misr = s->vgic_misr_eoi ? VGIC_MISR_EOI : 0;
#endif
    return 0;
}

static void hk_save_vcpus(struct hk_state *s)
{
    for (int i = 0; i < s->n_vcpus; i++) {
        struct hk_vcpu *x = &s->vcpus[i];
        const vcpu_t *v = &hk_vcpu_pool[i];
        x->tcb = (signed char)hk_tcb_index(v->vcpuTCB);
        x->vppi_masked = (unsigned char)v->vppi_masked[VPPIEventIRQ_VTimer];
        for (int j = 0; j < HK_VGIC_LRS; j++)
            x->lr[j] = hk_lr_bits(v->vgic.lr[j].words[0]);
    }
    for (int t = 0; t < s->n_tcbs; t++)
        s->tcbs[t].vcpu = (signed char)hk_vcpu_index(hk_tcb(t)->tcbArch.tcbVCPU);
    s->cur_vcpu = (signed char)hk_vcpu_index(ARCH_NODE_STATE(armHSCurVCPU));
    s->vcpu_active = (unsigned char)ARCH_NODE_STATE(armHSVCPUActive);
    hk_save_core_vcpus(s);
    hk_vgic_sync();
    for (int j = 0; j < HK_VGIC_LRS; j++)
        s->vgic_lr[j] = hk_lr_bits(hk_vgic_lr_read(j));
#if HK_GIC_VERSION == 3
    s->vgic_eisr = hk_ich_eisr;
    s->vgic_misr_eoi = (hk_ich_misr & VGIC_MISR_EOI) != 0;
#else
    s->vgic_eisr = hk_gich.eisr0 | ((unsigned long long)hk_gich.eisr1 << 32);
    s->vgic_misr_eoi = (hk_gich.misr & VGIC_MISR_EOI) != 0;
#endif
    /* the virtual timer's PPI: vcpu_switch masks or unmasks it at a switch
     * (vcpu_disable, vcpu_enable), whatever IRQ the entry took */
    if ((hk_entry_iar & IRQ_MASK) != INTERRUPT_VTIMER_EVENT)
        hk_save_gic_irq(s, INTERRUPT_VTIMER_EVENT);
}

/* a thread's fault: the VPPI event's IRQ is the virtual timer's, the only
 * VPPI (n_VPPIEventIRQ); a maintenance fault's idx and idxValid */
static seL4_Fault_t hk_fault_hyp_k(const struct hk_tcb *x)
{
    if (x->fault == HK_FAULT_VPPIEvent)
        return seL4_Fault_VPPIEvent_new(INTERRUPT_VTIMER_EVENT);
    return seL4_Fault_VGICMaintenance_new(x->fault_lr >= 0 ? (word_t)x->fault_lr : 0, x->fault_lr >= 0);
}

static void hk_fault_hyp_h(struct hk_tcb *x, seL4_Fault_t f)
{
    if (seL4_Fault_get_seL4_FaultType(f) != seL4_Fault_VGICMaintenance)
        return;
    x->fault_lr = seL4_Fault_VGICMaintenance_get_idxValid(f) ? (signed char)seL4_Fault_VGICMaintenance_get_idx(f)
                                                               : HK_NONE;
}
/* a VCPU cap (HK_CAP_VCPU, its VCPU in the reply field) of a system call */
static cap_t hk_vcpu_cap_k(const struct hk_irq_cap *c)
{
    return c->reply >= 0 && c->reply < HK_MAX_VCPUS ? cap_vcpu_cap_new((word_t)&hk_vcpu_pool[c->reply])
                                                     : cap_null_cap_new();
}
#else
/* a build without hypervisor support has no VCPU caps: a null one */
static cap_t hk_vcpu_cap_k(const struct hk_irq_cap *c)
{
    (void)c;
    return cap_null_cap_new();
}

/* a build without hypervisor support has no VCPU, VGIC or their faults */
static int hk_load_vcpus(const struct hk_state *s)
{
    for (int t = 0; t < s->n_tcbs; t++)
        if (s->tcbs[t].vcpu >= 0 || s->tcbs[t].fault >= HK_FAULT_VPPIEvent)
            return hk_fail("a thread has a VCPU or a VCPU fault, and the build has no hypervisor support");
    for (int c = 1; c < HK_MAX_CORES; c++)
        if (s->core_vcpu[c] >= 0 || s->core_vcpu_active[c])
            return hk_fail("a VCPU on another core, and the build has no hypervisor support");
    return s->n_vcpus ? hk_fail("VCPUs, and the build has no hypervisor support") : 0;
}

/* none: every thread has no VCPU, none is loaded */
static void hk_save_vcpus(struct hk_state *s)
{
    for (int t = 0; t < s->n_tcbs; t++)
        s->tcbs[t].vcpu = HK_NONE;
    s->cur_vcpu = HK_NONE;
    s->vcpu_active = 0;
    for (int c = 0; c < HK_MAX_CORES; c++) {
        s->core_vcpu[c] = HK_NONE;
        s->core_vcpu_active[c] = 0;
    }
}

static seL4_Fault_t hk_fault_hyp_k(const struct hk_tcb *x)
{
    (void)x;
    return seL4_Fault_NullFault_new();
}

static void hk_fault_hyp_h(struct hk_tcb *x, seL4_Fault_t f)
{
    (void)x;
    (void)f;
}
#endif
