/*
 * hk_glue: the machine under the host kernel. Appended to the kernel's
 * translation unit by build-kernel.sh, so it sees the kernel's types,
 * static functions and globals. Provides what the linker script, the
 * assembly files and the excluded C files provided, the system register
 * and GIC model, the exit back to the host, and the interrupt entry.
 * Own code; no kernel source.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "../hostkernel.h"

/* ---- symbols of the linker script and of assembly files: never reached ---- */
char ki_boot_end[1], ki_end[1];
char arm_vector_table[1];
void lockTLBEntry(vptr_t vaddr)
{
    (void)vaddr;
}
#ifdef HK_IDLE_ASM
/* master defines the idle loop in src/arch/arm/64/idle.S (5de930983); the
 * host kernel never runs user or idle code: running it ends the entry */
void NORETURN idle_thread(void)
{
    hk_exit(HK_EXIT_HALT);
}
#endif

/* ---- kernel output: the serial driver is excluded; text goes to a buffer ---- */
static char hk_text[HK_TEXT_LEN];
static word_t hk_text_len;

/* A full buffer keeps its newer half: what halts the kernel (a failed
 * assertion, fail()) is printed last, after what led to it (a fault's
 * register and stack dump can fill the buffer first), and the host reads
 * the function it names (rk_predicted_halt). */
void uart_drv_putchar(unsigned char c)
{
    if (hk_text_len >= HK_TEXT_LEN - 1) {
        word_t keep = HK_TEXT_LEN / 2 - 1;
        for (word_t i = 0; i < keep; i++)
            hk_text[i] = hk_text[hk_text_len - keep + i];
        hk_text_len = keep;
    }
    hk_text[hk_text_len++] = (char)c;
}

unsigned char uart_drv_getchar(void)
{
    return 0;
}

/* ---- GIC in host memory (shim gic_v2.h / gic_v3.h) ---- */
struct gic_dist_map hk_gicd;
#if HK_GIC_VERSION == 2
struct gic_cpu_iface_map hk_gicc;
#else
static struct gic_rdist_sgi_ppi_map hk_gicr_sgi[CONFIG_MAX_NUM_NODES];
#endif

/* ---- system register model ---- */
word_t hk_cpu;                  /* getCurrentCPUIndex() on SMP builds */
static ticks_t hk_now;          /* the clock */
static ticks_t hk_cval;         /* timer compare value */
static word_t hk_iar;           /* what the next IAR read returns */
static word_t hk_eoi_irq[4];    /* EOIR writes of this entry, in order */
static int hk_eoi_n;
static word_t hk_ttbr0;
static int hk_ttbr0_n;
static int hk_fpu_en;           /* -1: no CPACR/CPTR write this entry */
static word_t hk_ipi_sent;      /* cores sent a reschedule SGI this entry */
static int hk_sgi_other;        /* SGIs of another kind (remote calls) this entry */
static int hk_remote_calls;     /* remote calls the other core ran this entry */
/* The GIC's active state per INTID. An IRQ becomes active when the kernel
 * acknowledges it (the IAR read) and inactive when it is deactivated: by
 * the EOIR write, or, with split EOI (GICv3 EOImode=1, set by master's
 * cpu_iface_init, src/arch/arm/machine/gic_v3.c), only by an ICC_DIR_EL1
 * write (deactivateInterrupt, include/arch/arm/arch/machine/gic_v3.h). */
static unsigned char hk_irq_active[HK_MAX_IRQS];
#ifdef HK_GICV3_SPLIT_EOI
#define HK_SPLIT_EOI 1
#else
#define HK_SPLIT_EOI 0
#endif

/* Another core's SGIs and PPIs (INTID < 32) are its own: their active
 * bits are its CPU interface's, their enable bits its redistributor's
 * (GICv3) or its bank of the distributor's first enable word (GICv2). A
 * remote call runs on that core (hk_other_core_step), whose writes land
 * here: bit i is INTID i; index 0 unused (core 0's are hk_irq_active and
 * hk_en_*). The active bits are loaded with the state (hk_load_irqs), the
 * enable writes seen as core 0's are (hk_gic_sample). */
static uint32_t hk_ppi_active[CONFIG_MAX_NUM_NODES];
static uint32_t hk_ppi_seen[CONFIG_MAX_NUM_NODES], hk_ppi_masked[CONFIG_MAX_NUM_NODES];

static void hk_set_active(word_t intid, unsigned char on)
{
    if (hk_cpu != 0 && intid < 32) {
        hk_ppi_active[hk_cpu] = on ? hk_ppi_active[hk_cpu] | BIT(intid) : hk_ppi_active[hk_cpu] & ~BIT(intid);
        return;
    }
    if (intid < HK_MAX_IRQS)
        hk_irq_active[intid] = on;
}

/* An SGI the entry sent to the cores of target (bit i: core i). */
static inline void hk_note_sgi(word_t intid, word_t targets)
{
#ifndef ENABLE_SMP_SUPPORT
    enum { irq_reschedule_ipi = -1 }; /* no IPIs on one core */
#endif
    if (intid == (word_t)irq_reschedule_ipi)
        hk_ipi_sent |= targets;
    else
        hk_sgi_other++;
}

#if HK_GIC_VERSION == 3 && defined(ENABLE_SMP_SUPPORT)
/* ICC_SGI1R_EL1: INTID 27:24, Aff1 23:16, target list 15:0 (Aff0 bits).
 * ipi_send_target builds it from mpidr_map (gic_v3.c), which the glue
 * fills with MPIDR = core index (Aff1 0, Aff0 the index), so a target
 * bit maps back to the core whose MPIDR has that Aff0 and Aff1. */
static void hk_note_sgi1r(word_t v)
{
    word_t aff1 = (v >> 16) & 0xff, targets = 0;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        if (((mpidr_map[c] >> 8) & 0xff) == aff1 && ((v & 0xffff) >> (mpidr_map[c] & 0xff)) & 1)
            targets |= BIT(c);
    hk_note_sgi((v >> 24) & 0xf, targets);
}
#endif

static void hk_note_eoi(word_t v)
{
    if (hk_eoi_n < 4)
        hk_eoi_irq[hk_eoi_n] = v & IRQ_MASK;
    hk_eoi_n++;
    if (!HK_SPLIT_EOI) /* EOImode=0: the EOIR write also deactivates */
        hk_set_active(v & IRQ_MASK, 0);
}

/* GICv3's virtual interface registers of a hypervisor build
 * (VGICMaintenance, vcpu_save, vcpu_restore): the list registers as
 * written, EISR and MISR as loaded (the hardware recomputes them from the
 * list registers: hk_vcpu.c's hk_vgic_sync, at the end of the entry, as
 * no path reads them after it writes a list register) */
static word_t hk_ich_lr[16], hk_ich_eisr, hk_ich_misr;

static void hk_gic_sample(void);

unsigned long hk_mrs(int reg)
{
    hk_gic_sample();
    if (reg >= HK_REG_ICH_LR0 && reg < HK_REG_ICH_LR0 + 16)
        return hk_ich_lr[reg - HK_REG_ICH_LR0];
    switch (reg) {
    case HK_REG_ICH_EISR:
        return hk_ich_eisr;
    case HK_REG_ICH_MISR:
        return hk_ich_misr;
    case HK_REG_CLOCK:
        return hk_now;
    case HK_REG_CVAL:
        return hk_cval;
    case HK_REG_IAR1: {
        word_t v = hk_iar;
        hk_iar = IRQ_NONE; /* acknowledged: the next read sees nothing pending */
        if (IS_IRQ_VALID(v))
            hk_set_active(v & IRQ_MASK, 1);
        return v;
    }
    case HK_REG_HPPIR1:
        return hk_iar;
    case HK_REG_TTBR0:
    case HK_REG_VTTBR:
        return hk_ttbr0;
    default:
        return 0;
    }
}

void hk_msr(int reg, unsigned long v)
{
    hk_gic_sample();
    if (reg >= HK_REG_ICH_LR0 && reg < HK_REG_ICH_LR0 + 16) {
        hk_ich_lr[reg - HK_REG_ICH_LR0] = v;
        return;
    }
    switch (reg) {
    case HK_REG_CVAL:
        hk_cval = v;
        break;
    case HK_REG_EOIR1:
        hk_note_eoi(v);
        break;
    case HK_REG_DIR:
        hk_set_active(v & IRQ_MASK, 0);
        break;
    case HK_REG_TTBR0:
    case HK_REG_VTTBR:
        hk_ttbr0 = v;
        hk_ttbr0_n++;
        break;
    case HK_REG_CPACR: /* FPEN bits 21:20 = 3: FPU on */
        hk_fpu_en = ((v >> 20) & 3) == 3;
        break;
    case HK_REG_CPTR:  /* TFP bit 10 clear: FPU on */
        hk_fpu_en = !((v >> 10) & 1);
        break;
#if HK_GIC_VERSION == 3 && defined(ENABLE_SMP_SUPPORT)
    case HK_REG_SGI1R:
        hk_note_sgi1r(v);
        break;
#endif
    default:
        break;
    }
}

/* ---- leaving the kernel: back to the entry harness ---- */
static void *hk_jb[5];
static int hk_outcome;

void hk_exit(int why)
{
    hk_outcome = why;
    __builtin_longjmp(hk_jb, 1);
}

/* A host signal in the kernel's code (real/rk_fault.c calls this from its
 * handler): the text, then out as a halt, as fail() leaves */
HK_API void hk_fault(const char *text)
{
    for (word_t i = 0; text[i]; i++)
        uart_drv_putchar((unsigned char)text[i]);
    hk_exit(HK_EXIT_HALT);
}

/* replaces restore_user_context (src/arch/arm/64/c_traps.c): its C part,
 * then back to the host instead of the register restore and eret */
void VISIBLE NORETURN restore_user_context(void)
{
    NODE_UNLOCK_IF_HELD;
    c_exit_hook();
#if defined(CONFIG_HAVE_FPU) && defined(HK_FPU_EXIT_RESTORE)
    /* not on master (c4501d5ed moved it into switchToThread) */
    lazyFPURestore(NODE_STATE(ksCurThread));
#endif
    hk_exit(HK_EXIT_USER);
}

/* ---- the other core: its side of a blocking remote call ---- */

#ifdef ENABLE_SMP_SUPPORT

/* The lock's per-core IPI flag, the remote call asked for and the IPI
 * barrier: master (81679f2b9 and the SMP lock rework after it) keeps them
 * in big_kernel_lock.node[] and big_kernel_lock.ipi, and its ipi_wait is a
 * sense-reversing barrier; before, node_owners[], the global remoteCall
 * and ipiSyncBarrier. */
#ifdef HK_SMP_LOCK_NODE
#define HK_IPI_FLAG(c) (big_kernel_lock.node[c].ipi)
#define HK_REMOTE_CALL (big_kernel_lock.ipi.remoteCall)
#define HK_IPI_BARRIER_COUNT (big_kernel_lock.ipi.count)
#else
#define HK_IPI_FLAG(c) (big_kernel_lock.node_owners[c].ipi)
#define HK_REMOTE_CALL (remoteCall)
#define HK_IPI_BARRIER_COUNT (ipiSyncBarrier.count)
#endif

/* Called from arch_pause (shim arch/machine.h) in every spin loop. A core
 * with an IPI pending in the lock (ipi_send_mask for a blocking call sets
 * node_owners[c].ipi) takes it: handleIPI as that core, as the core does
 * when the SGI arrives. Its ipi_wait meets the caller's, which has
 * already counted itself in, so both leave. The stall call (remoteTCBStall)
 * makes the target core leave the kernel, which one host thread cannot
 * show: the entry halts with a note instead. */
#ifdef CONFIG_ARM_HYPERVISOR_SUPPORT
/* hk_vcpu.c, appended after this file: the VGIC is banked per core */
static void hk_vgic_enter_core(word_t c);
static void hk_vgic_leave_core(word_t c);
#define HK_VGIC_ENTER_CORE(c) hk_vgic_enter_core(c)
#define HK_VGIC_LEAVE_CORE(c) hk_vgic_leave_core(c)
#else
#define HK_VGIC_ENTER_CORE(c) ((void)(c))
#define HK_VGIC_LEAVE_CORE(c) ((void)(c))
#endif

void hk_other_core_step(void)
{
    word_t me = hk_cpu;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
        if (c == me || HK_IPI_FLAG(c) != 1)
            continue;
        if ((IpiRemoteCall_t)HK_REMOTE_CALL == IpiRemoteCall_Stall) {
            static const char msg[] = "hk: remote stall of another core is not emulated\n";
            for (word_t i = 0; msg[i]; i++)
                uart_drv_putchar((unsigned char)msg[i]);
            hk_exit(HK_EXIT_HALT);
        }
        int fpu_en = hk_fpu_en; /* the other core's CPACR is not this one's */
        hk_gic_sample();        /* the GIC writes so far are this core's, those of the call the other's */
        hk_cpu = c;
        HK_VGIC_ENTER_CORE(c);
        handleIPI(CORE_IRQ_TO_IRQT(c, irq_remote_call_ipi), true);
        HK_VGIC_LEAVE_CORE(c);
        hk_gic_sample();
        hk_cpu = me;
        hk_fpu_en = fpu_en;
        hk_remote_calls++;
    }
}
#endif

/* ---- build information ---- */
HK_API int hk_abi_version(void)
{
    return HK_ABI_VERSION;
}

HK_API void hk_info(struct hk_info *o)
{
    o->abi_version = HK_ABI_VERSION;
    o->state_size = (unsigned)sizeof(struct hk_state);
    o->timer_hz = TIMER_CLOCK_HZ;
    o->wcet_us = (unsigned)getKernelWcetUs();
    o->wcet_scale = CONFIG_KERNEL_WCET_SCALE;
    o->precision_us = TIMER_PRECISION;
    o->overhead_ticks = TIMER_OVERHEAD_TICKS;
    o->max_irq = maxIRQ;
    o->gic_version = HK_GIC_VERSION;
    o->num_domains = CONFIG_NUM_DOMAINS;
    o->cores = CONFIG_MAX_NUM_NODES;
    o->num_prios = CONFIG_NUM_PRIORITIES;
    o->min_refills = MIN_REFILLS;
    o->debug = config_set(CONFIG_DEBUG_BUILD);
    o->fpu = config_set(CONFIG_HAVE_FPU);
    o->hyp = config_set(CONFIG_ARM_HYPERVISOR_SUPPORT);
    o->irq_fastpath = config_set(CONFIG_IRQ_FASTPATH);
    o->signal_fastpath = config_set(CONFIG_SIGNAL_FASTPATH);
    o->call_fastpath = config_set(CONFIG_FASTPATH);
    o->gic_split_eoi = HK_GIC_VERSION == 3 && HK_SPLIT_EOI;
}

/* ---- GIC enable state and acks, per GIC version ---- */

#if HK_GIC_VERSION == 2
#define HK_GICD_SET enable_set
#define HK_GICD_CLR enable_clr
#define HK_EOI_NONE 0xffffffffu
#else
#define HK_GICD_SET isenablern
#define HK_GICD_CLR icenablern
#endif

/* The enable registers are write-one-to-set/clear; in host memory a write
 * just lands. Cleared before an entry, a bit found set afterwards is a
 * mask (clear-enable) or unmask (set-enable) done by that entry. An entry
 * may mask an IRQ and unmask it later (VPPIEvent masks the virtual timer,
 * a switch to a VCPU thread restores its mask: restore_virt_timer), so the
 * registers are sampled at every system register access and at the end
 * (hk_gic_sample): the last write seen of each IRQ is its state. Two
 * writes to one IRQ with no system register access between them would
 * read as a mask. */
#define HK_EN_WORDS ARRAY_SIZE(hk_gicd.HK_GICD_SET)
static uint32_t hk_en_seen[HK_EN_WORDS], hk_en_masked[HK_EN_WORDS]; /* the distributor's */
static uint32_t hk_en_r_seen, hk_en_r_masked;                         /* core 0's PPIs and SGIs (GICv3) */

static void hk_en_take(uint32_t *seen, uint32_t *masked, uint32_t set, uint32_t clr)
{
    *seen |= set | clr;
    *masked = (*masked & ~set) | clr;
}

static void hk_gic_sample(void)
{
    for (word_t i = 0; i < HK_EN_WORDS; i++) {
        uint32_t set = hk_gicd.HK_GICD_SET[i], clr = hk_gicd.HK_GICD_CLR[i];
        if (!(set | clr))
            continue;
        if (i == 0 && hk_cpu != 0) /* GICv2: the first word is banked per core (GICv3: no PPI there) */
            hk_en_take(&hk_ppi_seen[hk_cpu], &hk_ppi_masked[hk_cpu], set, clr);
        else
            hk_en_take(&hk_en_seen[i], &hk_en_masked[i], set, clr);
        hk_gicd.HK_GICD_SET[i] = hk_gicd.HK_GICD_CLR[i] = 0;
    }
#if HK_GIC_VERSION == 3
    uint32_t set = hk_gicr_sgi[0].isenabler0, clr = hk_gicr_sgi[0].icenabler0;
    hk_en_take(&hk_en_r_seen, &hk_en_r_masked, set, clr);
    hk_gicr_sgi[0].isenabler0 = hk_gicr_sgi[0].icenabler0 = 0;
    for (word_t c = 1; c < CONFIG_MAX_NUM_NODES; c++) { /* another core's redistributor */
        hk_en_take(&hk_ppi_seen[c], &hk_ppi_masked[c], hk_gicr_sgi[c].isenabler0, hk_gicr_sgi[c].icenabler0);
        hk_gicr_sgi[c].isenabler0 = hk_gicr_sgi[c].icenabler0 = 0;
    }
#endif
}

static void hk_gic_reset(word_t irq)
{
    for (word_t i = 0; i < HK_EN_WORDS; i++) {
        hk_gicd.HK_GICD_SET[i] = hk_gicd.HK_GICD_CLR[i] = 0;
        hk_en_seen[i] = hk_en_masked[i] = 0;
    }
    hk_en_r_seen = hk_en_r_masked = 0;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        hk_ppi_seen[c] = hk_ppi_masked[c] = 0;
#if HK_GIC_VERSION == 2
    hk_gicc.int_ack = irq;   /* what GICC_IAR reads return */
    hk_gicc.eoi = HK_EOI_NONE;
    hk_gicd.sgi_control = 0; /* GICD_SGIR: no SGI has an empty target list */
#else
#ifdef ENABLE_SMP_SUPPORT
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        mpidr_map[c] = c;    /* MPIDR Aff0 = core index, as on the imx8mm's cluster */
#endif
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
        hk_gicr_sgi[c].isenabler0 = hk_gicr_sgi[c].icenabler0 = 0;
        gic_rdist_sgi_ppi_map[c] = &hk_gicr_sgi[c];
    }
    hk_iar = irq;            /* what ICC_IAR1_EL1 reads return */
#endif
}

/* The GIC's configuration of IRQ irq (< HK_MAX_IRQS) as hk_state holds it
 * (irq_cfg): the upper bit of its two-bit ICFGR field, which setIRQTrigger
 * sets for edge (GICv3: GICR_ICFGR1 of core 0 for a PPI; an SGI's is
 * read-only and not held), and on SMP an SPI's target core, which
 * setIRQTarget writes (GICD_IROUTER: Aff0 = the core, mpidr_map as
 * hk_gic_reset leaves it; GICv2: the ITARGETSR byte, one bit per core).
 * Plain registers in host memory: what is written is read back. */
static volatile uint32_t *hk_icfgr_of(word_t irq)
{
#if HK_GIC_VERSION == 3
    if (irq < NUM_PPI)
        return irq < PPI_START ? NULL : &hk_gicr_sgi[0].icfgr1;
    return &hk_gicd.icfgrn[irq / 16];
#else
    return &hk_gicd.config[irq / 16];
#endif
}

static void hk_gic_cfg_set(word_t irq, unsigned char cfg)
{
    volatile uint32_t *w = hk_icfgr_of(irq);
    uint32_t bit = BIT((irq % 16) * 2 + 1);
    if (w)
        *w = (cfg & HK_IRQ_EDGE) ? (*w | bit) : (*w & ~bit);
#ifdef ENABLE_SMP_SUPPORT
    if (irq < NUM_PPI)
        return;
    word_t core = cfg >> HK_IRQ_CORE_SHIFT;
#if HK_GIC_VERSION == 3
    hk_gicd.iroutern[irq - SPI_START] = core;
#else
    ((volatile uint8_t *)hk_gicd.targets)[irq] = (uint8_t)BIT(core);
#endif
#endif
}

static unsigned char hk_gic_cfg_get(word_t irq)
{
    volatile uint32_t *w = hk_icfgr_of(irq);
    unsigned cfg = w && (*w & BIT((irq % 16) * 2 + 1)) ? HK_IRQ_EDGE : 0;
#ifdef ENABLE_SMP_SUPPORT
    if (irq >= NUM_PPI) {
#if HK_GIC_VERSION == 3
        word_t core = hk_gicd.iroutern[irq - SPI_START] & 0xff;
#else
        uint8_t t = ((volatile uint8_t *)hk_gicd.targets)[irq];
        word_t core = t ? (word_t)__builtin_ctz(t) : 0;
#endif
        cfg |= (unsigned)core << HK_IRQ_CORE_SHIFT;
    }
#endif
    return (unsigned char)cfg;
}

/* 1 masked, 0 unmasked by this entry, -1 not written */
static int hk_gic_mask_written(word_t irq)
{
    hk_gic_sample();
#if HK_GIC_VERSION == 3
    if (irq < SPI_START)
        return (hk_en_r_seen >> irq) & 1 ? (int)((hk_en_r_masked >> irq) & 1) : -1;
#endif
    if (irq / 32 >= HK_EN_WORDS)
        return -1;
    return (hk_en_seen[irq / 32] >> (irq % 32)) & 1 ? (int)((hk_en_masked[irq / 32] >> (irq % 32)) & 1) : -1;
}

/* EOIs of this entry: GICv3 counts EOIR writes; GICv2's EOI register is
 * memory here, so it shows the last write only */
static int hk_gic_acks(word_t irq)
{
#if HK_GIC_VERSION == 2
    return hk_gicc.eoi != HK_EOI_NONE && (hk_gicc.eoi & IRQ_MASK) == irq;
#else
    int n = 0;
    for (int i = 0; i < hk_eoi_n && i < 4; i++)
        n += hk_eoi_irq[i] == irq;
    return n;
#endif
}

/* GICD_SGIR is memory here: the entry's last SGI write is visible. An
 * entry sends at most one reschedule IPI (doMaskReschedule, once from
 * schedule(), after the entry's work and so after any remote call's SGI),
 * and with two cores its target list names core 1 only: the reschedule
 * IPI, when there is one, is the last write. A remote call's SGI is seen
 * only when no reschedule IPI follows. Bit i of the target list is core i
 * (cpuIndexToID). GICv2's EOI register is memory too: the entry's last
 * EOI write deactivates that IRQ (the kernel's GICv2 driver keeps
 * EOImode 0). */
static void hk_gic_after(void)
{
#if HK_GIC_VERSION == 2
    word_t v = hk_gicd.sgi_control;
    if (v)
        hk_note_sgi(v & 0xf, (v >> 16) & 0xff);
    if (hk_gicc.eoi != HK_EOI_NONE)
        hk_set_active(hk_gicc.eoi & IRQ_MASK, 0);
#endif
}

/* ---- the kernel entries ---- */

static void hk_entry_reset(word_t iar)
{
    hk_text_len = 0;
    hk_eoi_n = 0;
    hk_ttbr0_n = 0;
    hk_fpu_en = -1;
    hk_ipi_sent = 0;
    hk_sgi_other = 0;
    hk_remote_calls = 0;
#ifdef ENABLE_SMP_SUPPORT
    HK_IPI_BARRIER_COUNT = 0;
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        HK_IPI_FLAG(c) = 0;
#endif
    hk_gic_reset(iar);
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        active_irq[c] = IRQ_NONE;
}

static void hk_run_irq(int path)
{
#ifndef CONFIG_IRQ_FASTPATH
    /* without PR #1227 c_handle_interrupt runs handleInterruptEntry itself */
    (void)path;
    c_handle_interrupt();
#else
    /* the prologue of c_handle_interrupt (src/arch/arm/c_traps.c) */
    NODE_LOCK_IRQ_IF(IRQT_TO_IRQ(getActiveIRQ()) != irq_remote_call_ipi);
    c_entry_hook();
#ifdef TRACK_KERNEL_ENTRIES
    ksKernelEntry.path = Entry_Interrupt;
    ksKernelEntry.word = IRQT_TO_IRQ(getActiveIRQ());
    ksKernelEntry.core = CURRENT_CPU_INDEX();
#endif
    if (path == HK_PATH_FAST)
        fastpath_irq();
    else if (path == HK_PATH_FIXED)
        fastpath_irq_corrected(); /* hk_fixed.c */
    else
        slowpath_irq();
#endif
}

static void hk_run_syscall(int path); /* hk_syscall.c */

static void hk_run_path(int path)
{
    if (path >= HK_PATH_SIG_SLOW)
        hk_run_syscall(path);
    hk_run_irq(path);
}

static bool_t hk_path_built(int path)
{
    switch (path) {
    case HK_PATH_SLOW:
    case HK_PATH_SIG_SLOW:
        return true;
    case HK_PATH_FAST:
    case HK_PATH_FIXED:
        return config_set(CONFIG_IRQ_FASTPATH);
    case HK_PATH_SIG_FAST:
        return config_set(CONFIG_SIGNAL_FASTPATH);
    case HK_PATH_CALL_SLOW:
    case HK_PATH_RR_SLOW:
        return true;
    case HK_PATH_CALL_FAST:
    case HK_PATH_RR_FAST:
        return config_set(CONFIG_FASTPATH);
    default:
        return false;
    }
}

static word_t hk_entry_iar;
static bool_t hk_syscall_entry; /* the entry running is a system call */

static void hk_fill_extra(struct hk_extra *x);

HK_API int hk_entry(int path, struct hk_extra *extra)
{
    if (!hk_path_built(path))
        return -1;
    bool_t irq = path < HK_PATH_SIG_SLOW;
    hk_syscall_entry = !irq;
    hk_cpu = 0;
    /* a system call finds no IRQ to acknowledge */
    hk_entry_reset(irq ? hk_entry_iar : IRQ_NONE);
#if HK_GIC_VERSION == 2
    /* GICC_IAR is memory: every interrupt entry reads it first (getActiveIRQ) */
    if (irq && IS_IRQ_VALID(hk_entry_iar))
        hk_set_active(hk_entry_iar & IRQ_MASK, 1);
#endif
    hk_outcome = HK_OUT_NONE;
    if (__builtin_setjmp(hk_jb) == 0)
        hk_run_path(path);
    hk_gic_after();
    if (extra)
        hk_fill_extra(extra);
    return hk_outcome;
}
