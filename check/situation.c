/* situation: configuration-dependent situations of entry states (situation.h). */
#include "situation.h"

#include <inttypes.h>
#include <string.h>

#include "config.h"
#include "sched.h"

static const struct {
    const char *name;
    bool irq_only;
} table[] = {
#define SIT_TEXT(id, name, irq_only, what) {name, irq_only},
    SIT_LIST(SIT_TEXT)
#undef SIT_TEXT
};

const char *situation_name(int i)
{
    return i >= 0 && i < SIT_COUNT ? table[i].name : "?";
}

bool situation_irq_only(int i)
{
    return i >= 0 && i < SIT_COUNT && table[i].irq_only;
}

/* the idle thread current while a thread is ready on this core: only a
 * remote stall (or remote queueing) leaves it, until the IPI is taken */
static bool stalled(const struct kstate *ks)
{
    if (!ks->cfg.smp || ks->cur_thread != ks->idle_thread)
        return false;
    for (int i = 0; i < ks->n_tcbs; i++)
        if (ks->tcbs[i].queued && ks->tcbs[i].affinity == CUR_CORE)
            return true;
    return false;
}

static const struct ks_refill *head_of(const struct kstate *ks, int sc)
{
    return &ks->scs[sc].refills[ks->scs[sc].head];
}

static bool refill_at_clock(const struct kstate *ks)
{
    int rh = ks->release_head[CUR_CORE];
    return rh != KS_NONE && ks->tcbs[rh].sc != KS_NONE && head_of(ks, ks->tcbs[rh].sc)->time == ks->hw_clock;
}

void situation_tally(const struct kstate *ks, uint64_t *counts)
{
    const struct ks_config *c = &ks->cfg;
    int64_t irq = ks->active_irq;
    bool on[SIT_COUNT] = {
        [SIT_SMP] = c->smp,
        [SIT_DOMAINS] = c->num_domains > 1,
        [SIT_HYP] = c->hyp,
        [SIT_NO_FPU] = !c->fpu,
        [SIT_GICV3] = c->gic_version == 3,
        [SIT_SPLIT_EOI] = cfg_split_eoi(c),
        [SIT_SIGNAL_FASTPATH] = c->signal_fastpath,
        [SIT_IPI_IN_FLIGHT] = c->smp && (ks->ipi_sent & (1u << CUR_CORE)),
        [SIT_IPI_OWED] = c->smp && (ks->ipi_pending || (ks->core_ipi_pending[1] & (1u << CUR_CORE))),
        [SIT_STALLED] = stalled(ks),
        [SIT_IRQ_ZERO] = irq == 0,
        [SIT_IRQ_MAX] = irq == (int64_t)c->max_irq,
        [SIT_IRQ_ABOVE_MAX] = irq == (int64_t)c->max_irq + 1,
        [SIT_IRQ_GIC_MAX] = irq == 1019,
        [SIT_MIN_BUDGET] = ks->cur_sc != ks->idle_sc && head_of(ks, ks->cur_sc)->amount == c->min_budget,
        [SIT_REFILL_AT_CLOCK] = refill_at_clock(ks),
        [SIT_VCPU_CORE1] = c->smp && c->hyp && ks->core_vcpu[1] != KS_NONE,
        [SIT_CORE1_THREAD] = c->smp && ks->core_cur[1] != KS_NONE && ks->core_cur[1] != ks->core_idle[1],
    };
    for (int i = 0; i < SIT_COUNT; i++)
        counts[i] += on[i];
}

static bool excused(const uint64_t *counts, const char *const *why, int i)
{
    return why && why[i] && !counts[i];
}

int situation_print(FILE *f, const uint64_t *counts, uint64_t n, bool irq_entry)
{
    return situation_print_why(f, counts, n, irq_entry, NULL);
}

int situation_print_why(FILE *f, const uint64_t *counts, uint64_t n, bool irq_entry, const char *const *why)
{
    fprintf(f, "situations drawn (configuration-dependent paths, share of checks):");
    int col = 0, never = 0;
    for (int i = 0; i < SIT_COUNT; i++) {
        if (table[i].irq_only && !irq_entry)
            continue;
        double share = n ? 100.0 * (double)counts[i] / (double)n : 0.0;
        fprintf(f, "%s%s %.2f%%", col++ % 6 ? "  " : "\n  ", table[i].name, share);
        if (counts[i] && share < 0.005) /* drawn, though the share rounds to 0.00%: the count says so */
            fprintf(f, " (%" PRIu64 ")", counts[i]);
    }
    fprintf(f, "\n  never drawn (their paths not exercised by this run):");
    for (int i = 0; i < SIT_COUNT; i++)
        if (!counts[i] && !(table[i].irq_only && !irq_entry) && !excused(counts, why, i))
            fprintf(f, " %s", table[i].name), never++;
    fprintf(f, "%s\n", never ? "" : " none");
    /* one line per reason, with every situation it excuses */
    bool done[SIT_COUNT] = {false};
    for (int i = 0, head = 0; i < SIT_COUNT; i++) {
        if (done[i] || !excused(counts, why, i) || (table[i].irq_only && !irq_entry))
            continue;
        fprintf(f, "%s    ", head++ ? "" : "  not drawable here (the run's configuration, or the search cannot build it):\n");
        for (int j = i; j < SIT_COUNT; j++)
            if (excused(counts, why, j) && !(table[j].irq_only && !irq_entry) && strcmp(why[j], why[i]) == 0) {
                fprintf(f, "%s ", table[j].name);
                done[j] = true;
            }
        fprintf(f, "(%s)\n", why[i]);
    }
    return never;
}

/* every entry NULL, then what the kernel lacks */
static void why_kernel(const char **why, int kernel)
{
    for (int i = 0; i < SIT_COUNT; i++)
        why[i] = NULL;
    if (!cfg_kernel_has(kernel, KF_SPLIT_EOI))
        why[SIT_SPLIT_EOI] = "base has none: master's GICv3 kernel, --kernel master";
}

/* ipiReschedulePending is set by remoteQueueUpdate and remoteTCBStall only
 * (src/object/tcb.c:456,474 at 43607edb6) and cleared by the schedule()
 * that ends every slowpath exit (src/kernel/thread.c:400-401); of the
 * kernel's fastpaths only fastpath_signal queues a thread (fastpath.c:712) */
static void why_ipi(const char **why, bool ipi_beside, bool ipi_own)
{
    if (ipi_beside)
        return;
    why[SIT_IPI_OWED] = ipi_own ? "left only by the fastpath under check as written, and the states checked never "
                                  "follow a run of it: they are generated, or a slowpath kernel's"
                                : "no fastpath of this configuration leaves it: schedule() sends and clears it at "
                                  "every slowpath exit (thread.c:400-401 at 43607edb6), the corrected fastpath "
                                  "leaves nothing, and none built beside does";
}

void situation_why_workloads(const char **why, int kernel, int cores, bool ipi_beside, bool ipi_own)
{
    why_kernel(why, kernel);
    why[SIT_IRQ_ABOVE_MAX] = why[SIT_IRQ_GIC_MAX] =
        "above maxIRQ: the kernel never enables such a line: dist_init disables every line, "
        "Arch_checkIRQ refuses to issue it";
    if (cores == 1) {
        why[SIT_SMP] = why[SIT_IPI_IN_FLIGHT] = why[SIT_IPI_OWED] = why[SIT_STALLED] = why[SIT_VCPU_CORE1] =
            why[SIT_CORE1_THREAD] = "one core: --cores 2";
        return;
    }
    why[SIT_VCPU_CORE1] = "workloads run guests on core 0 (a two-core hypervisor workload keeps them there)";
    why[SIT_DOMAINS] = "no SMP build has domains: config.cmake, KernelMaxNumNodes depends on KernelNumDomains = 1";
    why[SIT_IRQ_ZERO] = "on SMP IRQ 0 is the remote-call IPI, which the simulator takes inside the entry "
                        "that sends it; IRQ 2 is drawn in its place, gen_irq_edge";
    why_ipi(why, ipi_beside, ipi_own);
}

void situation_why_states(const char **why, int kernel, bool smp, bool vcpus, bool ipi_beside, bool ipi_own)
{
    why_kernel(why, kernel);
    if (!vcpus)
        why[SIT_VCPU_CORE1] = "no VCPU threads: --vcpus";
    if (!smp) {
        why[SIT_SMP] = why[SIT_IPI_IN_FLIGHT] = why[SIT_IPI_OWED] = why[SIT_STALLED] = why[SIT_VCPU_CORE1] =
            why[SIT_CORE1_THREAD] = "one core: --no-smp";
        return;
    }
    why_ipi(why, ipi_beside, ipi_own);
}

void situation_why_build(const char **why, const struct ks_config *c, bool signal_fastpath)
{
    for (int i = 0; i < SIT_COUNT; i++)
        why[i] = NULL;
    if (!c->smp)
        why[SIT_SMP] = why[SIT_IPI_IN_FLIGHT] = why[SIT_IPI_OWED] = why[SIT_STALLED] = why[SIT_VCPU_CORE1] =
            why[SIT_CORE1_THREAD] = "a one-core build: kernel build --cores 2";
    if (c->num_domains < 2)
        why[SIT_DOMAINS] = "a one-domain build: kernel build --domains N";
    if (!c->hyp)
        why[SIT_HYP] = why[SIT_VCPU_CORE1] = "no hypervisor support: -D KernelArmHypervisorSupport=ON";
    if (c->fpu)
        why[SIT_NO_FPU] = "the build has an FPU";
    if (c->gic_version != 3)
        why[SIT_GICV3] = "a GICv2 board";
    if (!cfg_split_eoi(c))
        why[SIT_SPLIT_EOI] = "the build has no split EOI (GICv2, or a tree before a4b0c8d36)";
    if (!signal_fastpath)
        why[SIT_SIGNAL_FASTPATH] = "the build has no signal fastpath (KernelSignalFastpath)";
}

void situation_json(FILE *f, const uint64_t *counts, bool irq_entry)
{
    fprintf(f, "\"situations\": {");
    for (int i = 0, k = 0; i < SIT_COUNT; i++)
        if (!(table[i].irq_only && !irq_entry))
            fprintf(f, "%s\"%s\": %" PRIu64, k++ ? ", " : "", table[i].name, counts[i]);
    fprintf(f, "}");
}
