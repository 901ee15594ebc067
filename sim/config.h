/*
 * config: the kernel build configuration a state is simulated under
 * (timer, WCET, domains, IRQ range, SMP/FPU/hypervisor switches) and the
 * board presets of the PR #1227 benchmark table, with the constants the
 * kernel derives from them (MIN_BUDGET, timer precision, MAX_RELEASE_TIME).
 */
#ifndef IRQSIM_CONFIG_H
#define IRQSIM_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t ticks_t;

/* The kernel whose interrupt path is modelled: PR #1227's parent
 * (43607edb6, the default) or master (1326364bc), where the path differs
 * (docs/model.md, "Master"). */
enum ks_kernel { KS_KERNEL_BASE, KS_KERNEL_MASTER, KS_KERNEL_COUNT };

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
    /* derived by cfg_derive(); kept here so the paths need no division */
    ticks_t min_budget, precision, max_release;
};

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
/* GICv3 split EOI (master, a4b0c8d36): the EOIR write only drops the
 * priority; deactivation is a separate ICC_DIR write */
bool cfg_split_eoi(const struct ks_config *c);

ticks_t cfg_us_to_ticks(const struct ks_config *c, uint64_t us);
ticks_t cfg_min_budget(const struct ks_config *c);
ticks_t cfg_timer_precision(const struct ks_config *c);
ticks_t cfg_max_period_ticks(const struct ks_config *c);
ticks_t cfg_max_release_time(const struct ks_config *c);

#endif
