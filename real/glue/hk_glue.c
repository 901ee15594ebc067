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

/* ---- kernel output: the serial driver is excluded; text goes to a buffer ---- */
static char hk_text[HK_TEXT_LEN];
static word_t hk_text_len;

void uart_drv_putchar(unsigned char c)
{
    if (hk_text_len < HK_TEXT_LEN - 1)
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

static void hk_note_eoi(word_t v)
{
    if (hk_eoi_n < 4)
        hk_eoi_irq[hk_eoi_n] = v & IRQ_MASK;
    hk_eoi_n++;
}

unsigned long hk_mrs(int reg)
{
    switch (reg) {
    case HK_REG_CLOCK:
        return hk_now;
    case HK_REG_CVAL:
        return hk_cval;
    case HK_REG_IAR1: {
        word_t v = hk_iar;
        hk_iar = IRQ_NONE; /* acknowledged: the next read sees nothing pending */
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
    switch (reg) {
    case HK_REG_CVAL:
        hk_cval = v;
        break;
    case HK_REG_EOIR1:
        hk_note_eoi(v);
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

/* replaces restore_user_context (src/arch/arm/64/c_traps.c): its C part,
 * then back to the host instead of the register restore and eret */
void VISIBLE NORETURN restore_user_context(void)
{
    NODE_UNLOCK_IF_HELD;
    c_exit_hook();
#ifdef CONFIG_HAVE_FPU
    lazyFPURestore(NODE_STATE(ksCurThread));
#endif
    hk_exit(HK_EXIT_USER);
}

/* ---- build information ---- */
HK_API int hk_abi_version(void)
{
    return HK_ABI_VERSION;
}

HK_API void hk_info(struct hk_info *o)
{
    o->abi_version = HK_ABI_VERSION;
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
 * mask (clear-enable) or unmask (set-enable) done by that entry. */
static void hk_gic_reset(word_t irq)
{
    for (word_t i = 0; i < ARRAY_SIZE(hk_gicd.HK_GICD_SET); i++)
        hk_gicd.HK_GICD_SET[i] = hk_gicd.HK_GICD_CLR[i] = 0;
#if HK_GIC_VERSION == 2
    hk_gicc.int_ack = irq;   /* what GICC_IAR reads return */
    hk_gicc.eoi = HK_EOI_NONE;
#else
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++) {
        hk_gicr_sgi[c].isenabler0 = hk_gicr_sgi[c].icenabler0 = 0;
        gic_rdist_sgi_ppi_map[c] = &hk_gicr_sgi[c];
    }
    hk_iar = irq;            /* what ICC_IAR1_EL1 reads return */
#endif
}

/* 1 masked, 0 unmasked by this entry, -1 not written */
static int hk_gic_mask_written(word_t irq)
{
    word_t set, clr;
#if HK_GIC_VERSION == 3
    if (irq < SPI_START) {
        set = hk_gicr_sgi[0].isenabler0;
        clr = hk_gicr_sgi[0].icenabler0;
        return (clr >> irq) & 1 ? 1 : (set >> irq) & 1 ? 0 : -1;
    }
#endif
    if (irq / 32 >= ARRAY_SIZE(hk_gicd.HK_GICD_SET))
        return -1;
    set = hk_gicd.HK_GICD_SET[irq / 32];
    clr = hk_gicd.HK_GICD_CLR[irq / 32];
    return (clr >> (irq % 32)) & 1 ? 1 : (set >> (irq % 32)) & 1 ? 0 : -1;
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

/* ---- the interrupt entry ---- */

static void hk_entry_reset(word_t iar)
{
    hk_text_len = 0;
    hk_eoi_n = 0;
    hk_ttbr0_n = 0;
    hk_fpu_en = -1;
    hk_gic_reset(iar);
    for (word_t c = 0; c < CONFIG_MAX_NUM_NODES; c++)
        active_irq[c] = IRQ_NONE;
}

static void hk_run_path(int path)
{
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
    else
        slowpath_irq();
}

static word_t hk_entry_iar;

static void hk_fill_extra(struct hk_extra *x);

HK_API int hk_entry(int path, struct hk_extra *extra)
{
    if (path != HK_PATH_SLOW && path != HK_PATH_FAST)
        return -1;
    hk_cpu = 0;
    hk_entry_reset(hk_entry_iar);
    hk_outcome = HK_OUT_NONE;
    if (__builtin_setjmp(hk_jb) == 0)
        hk_run_path(path);
    if (extra)
        hk_fill_extra(extra);
    return hk_outcome;
}
