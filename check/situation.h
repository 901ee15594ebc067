/*
 * situation: the configuration-dependent situations a search can draw
 * (more than one domain, two cores, the hypervisor, a reschedule IPI in
 * flight, IRQ == maxIRQ, ...), each a predicate on an entry state. The
 * searches tally them and print which they never drew, so that a run that
 * never exercised the paths of a situation says so instead of a silent
 * "no divergence" (issue 19).
 */
#ifndef IRQSIM_SITUATION_H
#define IRQSIM_SITUATION_H

#include <stdint.h>
#include <stdio.h>

#include "kstate.h"

#define SIT_LIST(X) \
    X(SIT_SMP, "smp", false, "two cores (ENABLE_SMP_SUPPORT)") \
    X(SIT_DOMAINS, "domains", false, "more than one domain (CONFIG_NUM_DOMAINS > 1)") \
    X(SIT_HYP, "hyp", false, "the hypervisor's VMID check (CONFIG_ARM_HYPERVISOR_SUPPORT)") \
    X(SIT_NO_FPU, "no_fpu", false, "no FPU (CONFIG_HAVE_FPU off)") \
    X(SIT_GICV3, "gicv3", false, "a GICv3 board") \
    X(SIT_SPLIT_EOI, "split_eoi", false, "master's split EOI (GICv3)") \
    X(SIT_SIGNAL_FASTPATH, "signal_fastpath", true, "the kernel's own fastpath_signal built beside (its leftovers)") \
    X(SIT_IPI_IN_FLIGHT, "ipi_in_flight", false, "a reschedule IPI to this core in flight") \
    X(SIT_IPI_OWED, "ipi_owed", false, "a reschedule IPI owed (ipiReschedulePending left set)") \
    X(SIT_STALLED, "stalled", true, "the idle thread current with a ready thread here (a remote stall)") \
    X(SIT_IRQ_ZERO, "irq_0", true, "IRQ 0") \
    X(SIT_IRQ_MAX, "irq_max", true, "IRQ == maxIRQ (the last valid line)") \
    X(SIT_IRQ_ABOVE_MAX, "irq_max_plus_1", true, "IRQ == maxIRQ + 1 (the first invalid one)") \
    X(SIT_IRQ_GIC_MAX, "irq_1019", true, "IRQ 1019 (the GIC's highest interrupt ID)") \
    X(SIT_MIN_BUDGET, "min_budget", false, "the current SC's head refill exactly MIN_BUDGET") \
    X(SIT_REFILL_AT_CLOCK, "refill_at_clock", false, "the release queue's head due exactly at the entry clock") \
    X(SIT_VCPU_CORE1, "vcpu_core1", false, "a VCPU loaded on core 1 (its armHSCurVCPU)") \
    X(SIT_CORE1_THREAD, "core1_thread", false, "core 1 runs a thread of its own, not its idle thread")

enum sit_id {
#define SIT_ENUM(id, name, irq_only, what) id,
    SIT_LIST(SIT_ENUM)
#undef SIT_ENUM
    SIT_COUNT
};

/* Add 1 to counts[i] for every situation i the entry state is in. */
void situation_tally(const struct kstate *ks, uint64_t *counts);
const char *situation_name(int i);
/* Whether situation i exists only at an interrupt entry: the IRQ number
 * ones; the stall (its idle thread makes no system call, idle.S); the
 * signal fastpath beside (at a SysSend it is the one under check). */
bool situation_irq_only(int i);
/* "situations drawn ...: smp 19.9% ...\n  never drawn: ...\n" over n
 * checks; irq_entry: the entries are interrupts (else SysSends: the IRQ
 * number situations are left out). Returns how many were never drawn. */
int situation_print(FILE *f, const uint64_t *counts, uint64_t n, bool irq_entry);
/* The same, for a search that cannot draw some situations by
 * construction: why[i], when not NULL, says why this run cannot draw
 * situation i (the kernel cannot reach it in the run's configuration, or
 * the search cannot express it); such a one, when not drawn, is left out
 * of "never drawn" and printed with its reason on a line of its own
 * ("  not drawable here: NAME (WHY); ..."). why NULL: situation_print. */
int situation_print_why(FILE *f, const uint64_t *counts, uint64_t n, bool irq_entry, const char *const *why);
/* The why[] of situation_print_why for the searches, one rule each. The
 * states they check never follow a run of the fastpath under check (the
 * generator's, a slowpath kernel's in a workload), so an owed reschedule
 * IPI at entry is there only as what a fastpath built beside leaves
 * (ipi_beside: one may; ipi_own: the fastpath under check, as run, would
 * leave one itself). _workloads: fuzz --mode workload on `cores` cores of
 * `kernel` (enum ks_kernel); _states: the one-entry generator (smp: it
 * may draw two cores; vcpus: VCPU threads, --vcpus). */
void situation_why_workloads(const char **why, int kernel, int cores, bool ipi_beside, bool ipi_own);
void situation_why_states(const char **why, int kernel, bool smp, bool vcpus, bool ipi_beside, bool ipi_own);
/* The why[] of a run on one kernel build (validate and fuzz --real):
 * every state has the build's configuration c, so what it fixes is not
 * drawable (one core: the two-core situations; one domain; no hypervisor;
 * an FPU; a GICv2 board; split EOI where the build has none; no signal
 * fastpath, signal_fastpath false, in the build); the rest NULL. */
void situation_why_build(const char **why, const struct ks_config *c, bool signal_fastpath);
/* "\"situations\": {\"smp\": N, ...}" */
void situation_json(FILE *f, const uint64_t *counts, bool irq_entry);

#endif
