/*
 * config: the kernel build configuration a state is simulated under
 * (timer, WCET, domains, IRQ range, SMP/FPU/hypervisor switches) and the
 * board presets of the PR #1227 benchmark table, with the constants the
 * kernel derives from them (MIN_BUDGET, timer precision, MAX_RELEASE_TIME).
 */
#ifndef IRQSIM_CONFIG_H
#define IRQSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t ticks_t;

/* The kernel whose interrupt path is modelled: PR #1227's parent
 * (43607edb6, the default) or master (1326364bc), where the path differs
 * (docs/model.md, "Master"). A version is data (scenario files, options):
 * the model asks only for the features below (cfg_has), as the kernel asks
 * for its config options. */
enum ks_kernel { KS_KERNEL_BASE, KS_KERNEL_MASTER, KS_KERNEL_COUNT };

/* What differs between the versions modelled, one behaviour each: X(name,
 * what the kernel does). The versions' rows (config.c) name the commit that
 * introduced each; docs/model.md, "Master", the table of changes. */
#define KS_FEATURES(X)                                                                   \
    X(SPLIT_EOI, "GICv3 EOImode 1: the EOIR write drops priority, ICC_DIR deactivates")   \
    X(STALE_REPLY_REF, "reply_unlink and reply_push leave the thread's reply reference")  \
    X(DOMAIN_SCHEDULE_RUNTIME, "the domain schedule is set by DomainSet invocations")     \
    X(FPU_RELEASE_AT_DOMAIN_END, "prepareNextDomain releases the core's FPU owner")        \
    X(FPU_OWNER_AT_SWITCH, "switchToThread makes the thread its core's FPU owner")        \
    X(MIGRATE_ONLY_WHEN_NEEDED, "migrateTCB to the thread's own core does nothing")       \
    X(IDLE_SC_MAX_PERIOD, "the idle SC's budget is MAX_PERIOD_TICKS")                      \
    X(QEMU_GICV3, "qemu-arm-virt builds GICv3 too (QEMU_GIC_VERSION)")                    \
    X(VCPU_FAULT_SCHEDULABLE, "VPPIEvent and VGICMaintenance ignore an unschedulable current thread") \
    X(VCPU_FAULT_UNQUEUED, "VPPIEvent and VGICMaintenance do not ask whether the current thread is queued") \
    X(VCPU_FLUSH_AT_DOMAIN_END, "prepareNextDomain flushes the core's VCPU (vcpu_flush)") \
    X(FPU_RELEASE_AT_SET_DOMAIN, "prepareSetDomain releases the thread's FPU state (fpuRelease)") \
    X(VCPU_FLUSH_AT_SET_DOMAIN, "prepareSetDomain flushes the thread's VCPU if loaded (vcpu_flush_if_current)") \
    X(TCB_FLAGS, "threads carry seL4_TCBFlag_fpuDisabled, set by TCB_SetFlags") \
    X(FPU_RESTORE_AT_SET_FLAGS, "TCB_SetFlags enabling the caller's own FPU restores it (lazyFPURestore)") \
    X(FAULT_LOOKUP_RECORDED, "sendFaultIPC records a cap fault's lookup failure in tcbLookupFailure")

/* KF_NONE: no feature, which every version has (a defect that needs none). */
#define KS_FEATURE_ENUM(name, text) KF_##name,
enum ks_feature { KF_NONE, KS_FEATURES(KS_FEATURE_ENUM) KF_COUNT };
#undef KS_FEATURE_ENUM
/* a set of features: bit KF_x for each */
typedef uint32_t ks_features;

/* No implicit padding: ks_same compares states byte by byte, and a struct
 * assigned whole (a compound literal, a copy of a local) leaves its padding
 * indeterminate; so every gap is a member, zeroed like the others. */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wpadded"
struct ks_config {
    char board[16];
    uint64_t timer_hz;          /* TIMER_FREQUENCY */
    uint32_t wcet_us;           /* KERNEL_WCET */
    uint32_t wcet_scale;        /* CONFIG_KERNEL_WCET_SCALE */
    uint32_t precision_us;      /* TIMER_PRECISION */
    uint32_t overhead_ticks;    /* TIMER_OVERHEAD_TICKS */
    uint32_t num_domains;       /* CONFIG_NUM_DOMAINS */
    uint32_t max_irq;           /* maxIRQ */
    uint8_t gic_version;        /* 2 or 3 */
    uint8_t kernel;             /* enum ks_kernel: the kernel version modelled */
    bool smp;                   /* ENABLE_SMP_SUPPORT (two cores modelled) */
    bool fpu;                   /* CONFIG_HAVE_FPU */
    bool hyp;                   /* CONFIG_ARM_HYPERVISOR_SUPPORT */
    /* The kernel's other fastpaths (the one under check is the target's):
     * CONFIG_SIGNAL_FASTPATH (KernelSignalFastpath, default OFF) builds
     * the kernel's own fastpath_signal, whose returns leave lazy state at
     * user level (check/invariant.c admits it exactly when this is set).
     * The IPC fastpaths (KernelFastpath, default ON) leave none:
     * fastpath_call and fastpath_reply_recv (src/fastpath/fastpath.c:19-554
     * at 1326364bc) write no ksReprogram, ipiReschedulePending,
     * ksSchedulerAction or ksCurSC, and queue no thread; so no field. */
    bool signal_fastpath;
    uint8_t pad0[2];
    /* The kernel's features (bit KF_x for each) where they are no
     * version's row: a tree between base and master, whose features are
     * probed one by one (real/build-kernel.sh, kernel.info model_features);
     * 0: the version's row (every preset and most files). kernel then
     * names the nearer version (its name in outputs, imx8mq's timer). */
    ks_features features;
    uint8_t pad1[4];
    /* derived by cfg_derive(); kept here so the paths need no division */
    ticks_t min_budget, precision, max_release;
};
#pragma GCC diagnostic pop

/* Recompute the derived constants after a field changed. */
void cfg_derive(struct ks_config *c);
/* NULL when the configuration is usable, else what is wrong with it. */
const char *cfg_validate(const struct ks_config *c);

/* Presets read from src/plat/<board>/config.cmake of the pinned kernel. */
int cfg_preset(struct ks_config *c, const char *board);
const char *cfg_preset_name(int i); /* NULL past the last preset */

/* "base", "master"; NULL for another value */
const char *cfg_kernel_name(int k);
/* enum ks_kernel of a name, -1 when unknown */
int cfg_kernel_parse(const char *s);
/* A preset's configuration for that kernel: sets c->kernel and the board
 * values that differ between the two trees (imx8mq's timer), re-deriving
 * the constants. For presets only: a scenario file's config line keeps its
 * own values. */
void cfg_set_kernel(struct ks_config *c, int kernel);
/* Whether kernel version k (enum ks_kernel) has feature f; false for an
 * unknown version. The configuration's form: */
bool cfg_kernel_has(int k, enum ks_feature f);
bool cfg_has(const struct ks_config *c, enum ks_feature f);
/* "SPLIT_EOI", ...; NULL for another value */
const char *cfg_feature_name(int f);
/* The features c has, as KF bits (bit KF_NONE always set). */
ks_features cfg_features(const struct ks_config *c);
/* The features of version k (enum ks_kernel), as KF bits; 0 for an
 * unknown version. */
ks_features cfg_kernel_features(int k);
/* Give c the features mask (KF bits; KF_NONE is added): the version
 * whose row has the most of them in common names it (base on a tie), and
 * features stays 0 when the mask is exactly that row. */
void cfg_set_features(struct ks_config *c, ks_features mask);
/* "SPLIT_EOI+STALE_REPLY_REF", the features of mask but KF_NONE, into
 * buf; "none" when it has no other. A buffer of CFG_FEATURES_TEXT_LEN
 * holds every feature (each name's terminating byte counts its "+"). */
const char *cfg_features_text(ks_features mask, char *buf, size_t len);
#define CFG_FEATURE_NAME_SIZE(name, text) +sizeof #name
#define CFG_FEATURES_TEXT_LEN (sizeof "none" KS_FEATURES(CFG_FEATURE_NAME_SIZE))
/* How mask differs from row: "without SPLIT_EOI, with X" into buf;
 * "nothing" when they are the same. */
const char *cfg_features_diff(ks_features mask, ks_features row, char *buf, size_t len);
/* A '+'-joined list of feature names (n bytes; "none": no feature) as KF
 * bits with KF_NONE set; -1 naming the first unknown name in why. */
int cfg_features_parse(const char *s, size_t n, ks_features *out, char *why, size_t len);
/* Base, the default: files, labels and JSON leave it out. */
bool cfg_kernel_is_default(int k);
/* GICv3 split EOI (KF_SPLIT_EOI on a GICv3 board): the EOIR write only
 * drops the priority; deactivation is a separate ICC_DIR write */
bool cfg_split_eoi(const struct ks_config *c);

ticks_t cfg_us_to_ticks(const struct ks_config *c, uint64_t us);
ticks_t cfg_min_budget(const struct ks_config *c);
/* The kernel's scaled WCET in ticks (getKernelWcetTicks() times
 * CONFIG_KERNEL_WCET_SCALE, half of MIN_BUDGET: kernel/sporadic.h): the
 * longest a kernel entry keeps interrupts off, so the bound this model puts
 * on how late a pending timer IRQ is taken (check/invariant.c, the
 * generators, the workload simulator's entry_latency). */
ticks_t cfg_wcet(const struct ks_config *c);
ticks_t cfg_timer_precision(const struct ks_config *c);
ticks_t cfg_max_period_ticks(const struct ks_config *c);
ticks_t cfg_max_release_time(const struct ks_config *c);

#endif
