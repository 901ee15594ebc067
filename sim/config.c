/* config: board presets and the kernel's derived time constants. */
#include "config.h"

#include <stdio.h>
#include <string.h>

struct preset {
    const char *name;
    uint64_t hz;
    uint32_t precision_us, overhead_ticks, max_irq;
    uint8_t gic;
};

/* Values of TIMER_FREQUENCY, TIMER_PRECISION, TIMER_OVERHEAD_TICKS, MAX_IRQ
 * and the interrupt controller in each board's config.cmake; KERNEL_WCET is
 * 10 us on all of them. The GIC: imx8m-evk, tqma8xqp1gb set KernelArmGicV3
 * (INTERRUPT_CONTROLLER gic_v3.h); odroidc4, tx1, zynqmp name gic_v2.h.
 * qemu-arm-virt (master src/plat/qemu-arm-virt/config.cmake:75-79, 220-228)
 * builds either GIC by QEMU_GIC_VERSION (default 2): 62.5 MHz, MAX_IRQ 159;
 * at 43607edb6 it is GICv2 only. The generator draws among the first six
 * for base and all eight for master (check/gen.c), so presets are only
 * ever added at the end. */
static const struct preset presets[] = {
    {"imx8mm", 8000000, 0, 0, 160, 3},
    {"imx8mq", 8000000, 0, 0, 160, 3},
    {"odroidc4", 24000000, 1, 0, 255, 2},
    {"tqma", 8000000, 0, 1, 511, 3},
    {"tx1", 12000000, 0, 0, 224, 2},
    {"zcu106", 100000000, 0, 0, 187, 2},
    {"qemu-arm-virt", 62500000, 0, 0, 159, 2},
    {"qemu-arm-virt3", 62500000, 0, 0, 159, 3},
};

#define N_PRESETS (sizeof presets / sizeof presets[0])

const char *cfg_preset_name(int i)
{
    if (i < 0 || (unsigned)i >= N_PRESETS)
        return NULL;
    return presets[i].name;
}

int cfg_preset(struct ks_config *c, const char *board)
{
    for (unsigned i = 0; i < N_PRESETS; i++) {
        const struct preset *p = &presets[i];
        if (strcmp(p->name, board) != 0)
            continue;
        memset(c, 0, sizeof *c);
        strncpy(c->board, p->name, sizeof c->board - 1);
        c->timer_hz = p->hz;
        c->wcet_us = 10;
        c->wcet_scale = 1;
        c->precision_us = p->precision_us;
        c->overhead_ticks = p->overhead_ticks;
        c->num_domains = 1;
        c->max_irq = p->max_irq;
        c->gic_version = p->gic;
        c->fpu = true;
        cfg_derive(c);
        return 0;
    }
    return -1;
}

const char *cfg_kernel_name(int k)
{
    static const char *const names[KS_KERNEL_COUNT] = {"base", "master"};
    return k >= 0 && k < KS_KERNEL_COUNT ? names[k] : NULL;
}

int cfg_kernel_parse(const char *s)
{
    for (int k = 0; k < KS_KERNEL_COUNT; k++)
        if (strcmp(s, cfg_kernel_name(k)) == 0)
            return k;
    return -1;
}

#define BIT(f) (1u << KF_##f)

/* One row per version: the features it has. Base (43607edb6) has none of
 * them; master (1326364bc) has each since the commit named (docs/model.md,
 * "Master"; the kernel lines in the trees at those commits). */
static const ks_features kernel_rows[KS_KERNEL_COUNT] = {
    [KS_KERNEL_BASE] = BIT(NONE),
    [KS_KERNEL_MASTER] = BIT(NONE)
        /* a4b0c8d36 gicv3: Split EOI mode: cpu_iface_init sets
         * ICC_CTLR_EL1.EOImode (gic_v3.c:350; base gic_v3.c:281 clears it) */
        | BIT(SPLIT_EOI)
        /* 4f4721706 reply: do not assume replyObject NULL invariant:
         * reply_unlink (include/object/reply.h:14-27) and reply_push leave
         * replyObject; cancelIPC unlinks a receiver's only (endpoint.c:361-367) */
        | BIT(STALE_REPLY_REF)
        /* 27a52ddd4 Runtime Domain Schedules: src/object/domain.c, entries
         * in ticks with end markers, ksDomScheduleStart (thread.c:326-338),
         * the boot entry DSCHED_MAX_DURATION (boot.c:635-637) */
        | BIT(DOMAIN_SCHEDULE_RUNTIME)
        /* f1517d51d Domain: Avoid touching cross-domain FPU state:
         * prepareNextDomain (thread.c:317-324) */
        | BIT(FPU_RELEASE_AT_DOMAIN_END)
        /* 1bd0e3b78 ksCurFPUOwner, c4501d5ed FPU: Do lazyFPURestore in
         * switchToThread (thread.c:477; mode/fastpath/fastpath.h:45-47) */
        | BIT(FPU_OWNER_AT_SWITCH)
        /* c88c066a8 SMP: Only migrate when needed (src/model/smp.c:15-17) */
        | BIT(MIGRATE_ONLY_WHEN_NEEDED)
        /* 3d449dba1 mcs: idle threads should have maximum period
         * (boot.c:486-487; base boot.c:483-484 gives 5 ms) */
        | BIT(IDLE_SC_MAX_PERIOD)
        /* d500b9751 add GICv3 support and GIC_VERSION
         * (src/plat/qemu-arm-virt/config.cmake:75-79) */
        | BIT(QEMU_GICV3)
        /* 6dbe58ef0 Fix VGIC and VPPI maintenance handling: !isSchedulable
         * (src/arch/arm/object/vcpu.c:123-124, 152-153); its undoing of the
         * tcbQueued test of c64867ebd (base vcpu.c:121, 140), which trees
         * from 6dbe58ef0 to 232471e90 lack (VCPU_FAULT_UNQUEUED), was
         * itself undone by 232471e90 "try 3" */
        | BIT(VCPU_FAULT_SCHEDULABLE)
        /* e558631c7 arm: flush vcpu when switching domain (2024-09):
         * Arch_prepareNextDomain (src/arch/arm/kernel/thread.c:14-19) */
        | BIT(VCPU_FLUSH_AT_DOMAIN_END)
        /* 35ec2554b Domain: Save FPU state when changing domain:
         * prepareSetDomain's fpuRelease (thread.c:306-315, domain.c:20) */
        | BIT(FPU_RELEASE_AT_SET_DOMAIN)
        /* 01c3487ef arm: flush vcpu when setting domain of a thread:
         * Arch_prepareSetDomain (src/arch/arm/kernel/thread.c:21-26) */
        | BIT(VCPU_FLUSH_AT_SET_DOMAIN)
        /* 5035def0b FPU: Save and restore FPU state based on TCB flag:
         * tcbFlags, decodeSetFlags and invokeSetFlags (src/object/tcb.c:798-842) */
        | BIT(TCB_FLAGS)
        /* 78c3b11a0 FPU: Fix task enabling FPU for itself: invokeSetFlags'
         * lazyFPURestore of the current thread (tcb.c:811-814) */
        | BIT(FPU_RESTORE_AT_SET_FLAGS)
        /* c119df035 mcs: fix missing cap fault info in sendFaultIPC: MCS's
         * sendFaultIPC stores current_lookup_fault in tcbLookupFailure on a
         * cap fault (faulthandler.c:37-39); before it, MCS trees (base
         * faulthandler.c:30-51) leave the field as it was */
        | BIT(FAULT_LOOKUP_RECORDED),
};

/* The VCPU fault checks of the trees between and before (docs/model.md,
 * "VCPUs"): seL4 12.1 to 6dbe58ef0 (2021-2025) test tcbQueued only, as
 * base does; 6dbe58ef0 to 232471e90 (2025-2026) test isSchedulable only:
 * VCPU_FAULT_SCHEDULABLE + VCPU_FAULT_UNQUEUED; before c64867ebd neither:
 * VCPU_FAULT_UNQUEUED. */
_Static_assert(KF_COUNT <= 32, "ks_features is 32 bits");

ks_features cfg_kernel_features(int k)
{
    return k >= 0 && k < KS_KERNEL_COUNT ? (ks_features)kernel_rows[k] : 0;
}

bool cfg_kernel_has(int k, enum ks_feature f)
{
    if ((unsigned)f >= KF_COUNT)
        return false;
    return (cfg_kernel_features(k) >> f) & 1u;
}

ks_features cfg_features(const struct ks_config *c)
{
    return c->features ? c->features : cfg_kernel_features(c->kernel);
}

bool cfg_has(const struct ks_config *c, enum ks_feature f)
{
    return (unsigned)f < KF_COUNT && (cfg_features(c) >> f) & 1u;
}

/* the features two masks agree on (set in both or in neither) */
static int agree(ks_features a, ks_features b)
{
    return __builtin_popcount(~(a ^ b) & (ks_features)((1ull << KF_COUNT) - 1));
}

void cfg_set_features(struct ks_config *c, ks_features mask)
{
    mask |= 1u << KF_NONE;
    int best = KS_KERNEL_BASE;
    for (int k = 1; k < KS_KERNEL_COUNT; k++)
        if (agree(mask, cfg_kernel_features(k)) > agree(mask, cfg_kernel_features(best)))
            best = k;
    cfg_set_kernel(c, best);
    c->features = mask == cfg_kernel_features(best) ? 0 : mask;
}

const char *cfg_features_text(ks_features mask, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = 0;
    for (int f = KF_NONE + 1; f < KF_COUNT && at < len; f++)
        if ((mask >> f) & 1u)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "+" : "", cfg_feature_name(f));
    if (!at)
        snprintf(buf, len, "none");
    return buf;
}

const char *cfg_features_diff(ks_features mask, ks_features row, char *buf, size_t len)
{
    char a[CFG_FEATURES_TEXT_LEN], b[CFG_FEATURES_TEXT_LEN];
    ks_features lack = row & ~mask, more = mask & ~row;
    if (!lack && !more)
        snprintf(buf, len, "nothing");
    else if (!more)
        snprintf(buf, len, "without %s", cfg_features_text(lack, a, sizeof a));
    else if (!lack)
        snprintf(buf, len, "with %s", cfg_features_text(more, b, sizeof b));
    else
        snprintf(buf, len, "without %s, with %s", cfg_features_text(lack, a, sizeof a),
                 cfg_features_text(more, b, sizeof b));
    return buf;
}

/* the feature named by the n bytes at s; -1 when none is */
static int feature_of(const char *s, size_t n)
{
    for (int f = KF_NONE + 1; f < KF_COUNT; f++)
        if (strlen(cfg_feature_name(f)) == n && memcmp(s, cfg_feature_name(f), n) == 0)
            return f;
    return -1;
}

int cfg_features_parse(const char *s, size_t n, ks_features *out, char *why, size_t len)
{
    *out = 1u << KF_NONE;
    if (n == 4 && memcmp(s, "none", 4) == 0)
        return 0;
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && s[j] != '+')
            j++;
        int f = feature_of(s + i, j - i);
        if (f < 0) {
            snprintf(why, len, "unknown feature '%.*s'", (int)(j - i < 40 ? j - i : 40), s + i);
            return -1;
        }
        *out |= (ks_features)1 << f;
        i = j + 1;
    }
    return 0;
}

const char *cfg_feature_name(int f)
{
#define KS_FEATURE_NAME(name, text) #name,
    static const char *const names[KF_COUNT] = {"NONE", KS_FEATURES(KS_FEATURE_NAME)};
#undef KS_FEATURE_NAME
    return f >= 0 && f < KF_COUNT ? names[f] : NULL;
}

bool cfg_kernel_is_default(int k)
{
    return k == KS_KERNEL_BASE;
}

/* The one preset value that moved between the trees: imx8mq-evk's timer
 * is 8,333,333 Hz on master (src/plat/imx8m-evk/config.cmake:33-45 at
 * 1326364bc, "per the DTS ... also per gpt_cnfrq") and 8,000,000 Hz at
 * 43607edb6 (:29, shared with imx8mm-evk). MAX_IRQ (160) and the GIC are
 * the same. */
void cfg_set_kernel(struct ks_config *c, int kernel)
{
    c->kernel = (uint8_t)kernel;
    c->features = 0; /* the version's row */
    if (strcmp(c->board, "imx8mq") != 0)
        return;
    c->timer_hz = kernel == KS_KERNEL_MASTER ? 8333333 : 8000000;
    cfg_derive(c);
}

/* master gic_v3.c cpu_iface_init sets ICC_CTLR_EL1.EOImode (base clears
 * it, gic_v3.c:281); GICv2 runs EOImode 0 on both (gic_v2.c) */
bool cfg_split_eoi(const struct ks_config *c)
{
    return cfg_has(c, KF_SPLIT_EOI) && c->gic_version == 3;
}

/* usToTicks: whole-MHz clocks multiply; others go through kHz, as the
 * kernel's USE_KHZ branch does. */
ticks_t cfg_us_to_ticks(const struct ks_config *c, uint64_t us)
{
    if (c->timer_hz % 1000000 == 0)
        return us * (c->timer_hz / 1000000);
    return us * (c->timer_hz / 1000) / 1000;
}

ticks_t cfg_min_budget(const struct ks_config *c)
{
    return 2u * cfg_us_to_ticks(c, c->wcet_us) * c->wcet_scale;
}

/* getKernelWcetTicks() * CONFIG_KERNEL_WCET_SCALE (MIN_BUDGET / 2) */
ticks_t cfg_wcet(const struct ks_config *c)
{
    return c->min_budget / 2;
}

ticks_t cfg_timer_precision(const struct ks_config *c)
{
    return cfg_us_to_ticks(c, c->precision_us) + c->overhead_ticks;
}

/* MAX_PERIOD_TICKS = usToTicks(MAX_PERIOD_US), with MAX_PERIOD_US =
 * getMaxUsToTicks() / 8 (no static maximum configured; sporadic.h) */
ticks_t cfg_max_period_ticks(const struct ks_config *c)
{
    uint64_t div = c->timer_hz % 1000000 == 0 ? c->timer_hz / 1000000
                                               : c->timer_hz / 1000;
    uint64_t max_period_us = (UINT64_MAX / div) / 8;
    return cfg_us_to_ticks(c, max_period_us);
}

/* MAX_RELEASE_TIME = UINT64_MAX - 5 * MAX_PERIOD_TICKS */
ticks_t cfg_max_release_time(const struct ks_config *c)
{
    return UINT64_MAX - 5 * cfg_max_period_ticks(c);
}

void cfg_derive(struct ks_config *c)
{
    c->min_budget = cfg_min_budget(c);
    c->precision = cfg_timer_precision(c);
    c->max_release = cfg_max_release_time(c);
}

const char *cfg_validate(const struct ks_config *c)
{
    if (c->timer_hz < 1000000 || c->timer_hz > 10000000000ull)
        return "timer frequency must be between 1 MHz and 10 GHz";
    if (c->wcet_us == 0 || c->wcet_us > 100000)
        return "kernel WCET must be between 1 and 100000 us";
    if (c->wcet_scale == 0 || c->wcet_scale > 1000)
        return "WCET scale must be between 1 and 1000";
    if (c->precision_us > 100000)
        return "timer precision must be at most 100000 us";
    if (c->num_domains == 0 || c->num_domains > 16)
        return "number of domains must be between 1 and 16";
    if (c->max_irq == 0 || c->max_irq > 1000)
        return "max IRQ must be between 1 and 1000";
    if (c->gic_version != 2 && c->gic_version != 3)
        return "GIC version must be 2 or 3";
    if (c->kernel >= KS_KERNEL_COUNT)
        return "kernel must be base or master";
    /* config.cmake (43607edb6 and master): KernelMaxNumNodes DEPENDS
     * "${KernelNumDomains} EQUAL 1", so no SMP build has domains */
    if (c->smp && c->num_domains > 1)
        return "an SMP kernel has one domain (KernelMaxNumNodes depends on KernelNumDomains = 1)";
    return 0;
}
