/* smp: the model of one core acting on another. */
#include "smp.h"

#include "irqc.h"
#include "sched.h"
#include "vcpuswitch.h"

#define SWAP(type, a, b) \
    do {                 \
        type t_ = (a);   \
        (a) = (b);       \
        (b) = t_;        \
    } while (0)

static uint8_t swap_bits(uint8_t mask, int c)
{
    uint8_t b0 = mask & 1u, bc = (uint8_t)((mask >> c) & 1u);
    mask = (uint8_t)(mask & ~(1u | (1u << c)));
    return (uint8_t)(mask | (uint8_t)(b0 << c) | bc);
}

/* two cores: every core id is 0 or c */
_Static_assert(KS_MAX_CORES == 2, "smp_swap_core relabels a two-core state");

static uint8_t swap_core_id(uint8_t core, int c)
{
    return (uint8_t)(core == CUR_CORE ? c : CUR_CORE);
}

/* the per-node state (NODE_STATE) of the two cores */
static void swap_node(struct kstate *ks, int c)
{
    SWAP(int8_t, ks->cur_thread, ks->core_cur[c]);
    SWAP(int8_t, ks->idle_thread, ks->core_idle[c]);
    SWAP(int8_t, ks->cur_sc, ks->core_sc[c]);
    SWAP(int8_t, ks->idle_sc, ks->core_idle_sc[c]);
    SWAP(int8_t, ks->vspace, ks->core_vspace[c]);
    SWAP(int16_t, ks->sched_action, ks->core_action[c]);
    SWAP(bool, ks->reprogram, ks->core_reprogram[c]);
    SWAP(ticks_t, ks->cur_time, ks->core_time[c]);
    SWAP(ticks_t, ks->consumed, ks->core_consumed[c]);
    SWAP(ticks_t, ks->deadline, ks->core_deadline[c]);
    SWAP(int8_t, ks->release_head[CUR_CORE], ks->release_head[c]);
    for (int d = 0; d < KS_MAX_DOMAINS; d++) {
        SWAP(uint64_t, ks->l1[CUR_CORE][d], ks->l1[c][d]);
        for (int w = 0; w < KS_L2_SIZE; w++)
            SWAP(uint64_t, ks->l2[CUR_CORE][d][w], ks->l2[c][d][w]);
    }
}

/* the hypervisor's per-core state (ARCH_NODE_STATE armHSCurVCPU and
 * armHSVCPUActive, the VGIC's banked virtual interface, the core's own
 * virtual timer PPI): kstate.h's core_vcpu and the fields beside it. The
 * shared gic_vcpu_num_list_regs and the VCPU objects stay. */
static void swap_vcpu_node(struct kstate *ks, int c)
{
    if (!ks->cfg.hyp)
        return;
    SWAP(int8_t, ks->cur_vcpu, ks->core_vcpu[c]);
    SWAP(bool, ks->vcpu_active, ks->core_vcpu_active[c]);
    SWAP(bool, ks->vgic_misr_eoi, ks->core_vgic_misr_eoi[c]);
    SWAP(uint64_t, ks->vgic_eisr, ks->core_vgic_eisr[c]);
    for (int i = 0; i < KS_VGIC_MAX_LRS; i++)
        SWAP(uint8_t, ks->vgic_lr[i], ks->core_vgic_lr[c][i]);
    ks_irq_touch(ks, INTERRUPT_VTIMER_EVENT); /* a hypervisor build's table has it (boot reserves it) */
    SWAP(bool, ks->irq_masked[INTERRUPT_VTIMER_EVENT], ks->core_vtimer_masked[c]);
}

/* a table flag and bit i of a word exchanged */
static void swap_flag_bit(bool *flag, uint32_t *word, int i)
{
    bool was = *flag;
    *flag = (*word >> i) & 1u;
    *word = (*word & ~(1u << i)) | (uint32_t)was << i;
}

/* each core's own SGIs and PPIs (INTID below KS_NUM_PPI, IRQ_IS_PPI):
 * their enable and active bits, core 0's in the IRQ table, core c's in
 * core_ppi_masked and core_ppi_active; on a hypervisor build the virtual
 * timer's mask is swap_vcpu_node's (core_vtimer_masked), and that bit of
 * core_ppi_masked stays */
static void swap_ppis(struct kstate *ks, int c)
{
    for (int i = 0; i < KS_NUM_PPI; i++) {
        if (((ks->core_ppi_masked[c] | ks->core_ppi_active[c]) >> i) & 1u)
            ks_irq_touch(ks, i);
        if (i >= ks->n_irqs)
            continue;
        if (!(ks->cfg.hyp && i == INTERRUPT_VTIMER_EVENT))
            swap_flag_bit(&ks->irq_masked[i], &ks->core_ppi_masked[c], i);
        swap_flag_bit(&ks->irq_active[i], &ks->core_ppi_active[c], i);
    }
}

void smp_swap_core(struct kstate *ks, int c)
{
    if (c == CUR_CORE)
        return;
    swap_node(ks, c);
    swap_vcpu_node(ks, c);
    swap_ppis(ks, c);
    /* ARCH_NODE_STATE(ipiReschedulePending) is per core */
    SWAP(uint8_t, ks->ipi_pending, ks->core_ipi_pending[c]);
    ks->ipi_pending = swap_bits(ks->ipi_pending, c);
    ks->core_ipi_pending[c] = swap_bits(ks->core_ipi_pending[c], c);
    ks->ipi_sent = swap_bits(ks->ipi_sent, c);
    for (int i = 0; i < ks->n_tcbs; i++)
        ks->tcbs[i].affinity = swap_core_id(ks->tcbs[i].affinity, c);
    for (int i = 0; i < ks->n_scs; i++)
        ks->scs[i].core = swap_core_id(ks->scs[i].core, c);
}

/* migrateTCB (src/model/smp.c): a thread whose FPU state is live on its
 * core releases that core's FPU first (switchFpuOwner(NULL, old core)), so
 * after the move no core holds its state: fpu_live is clear either way */
void migrateTCB(struct kstate *ks, int t, int core)
{
    /* master (c88c066a8, smp.c:15-17): no move, nothing released */
    if (cfg_has(&ks->cfg, KF_MIGRATE_ONLY_WHEN_NEEDED) && ks->tcbs[t].affinity == core)
        return;
    fpuRelease(ks, t);
    ks->tcbs[t].affinity = (uint8_t)core;
}

/* ipiStallCoreCallback. The irqPath branch (src/smp/ipi.c:67-79): a core
 * that took the request as an interrupt from user level holds no lock, so
 * handleInterruptEntry neither reads the clock nor schedules
 * (clh_is_self_in_queue() is false); one that takes it while waiting for
 * the lock with an IRQ acknowledged (clh_lock_acquire, include/smp/lock.h:
 * 104-116, irqPath true) goes on to handle that IRQ. Either way the time
 * since its last clock read is committed to no one but ksConsumed's
 * earlier part. The other branch (ipi.c:24-66), a system call waiting for
 * the lock: the current thread, if Running, restarts the call later; after
 * the lock the core runs the idle thread (activateThread,
 * restore_user_context) without handling the call. */
void ipiStallCoreCallback(struct kstate *ks, bool irqPath)
{
    if (!irqPath && ks->tcbs[ks->cur_thread].state == TS_Running)
        setThreadState(ks, ks->cur_thread, TS_Restart);
    tcbSchedEnqueue(ks, ks->cur_thread); /* SCHED_ENQUEUE_CURRENT_TCB */
    switchToIdleThread(ks);
    commitTime(ks);
    ks->cur_sc = ks->idle_sc;
    ks->sched_action = KS_SA_RESUME;
}

/* doRemoteStall: the remote call IPI, handled on core c before this core
 * goes on (ipi_wait): handleInterrupt -> handleIPI -> handleRemoteCall ->
 * ipiStallCoreCallback(true), then the GIC acknowledgement */
static void doRemoteStall(struct kstate *ks, int c)
{
    smp_swap_core(ks, c);
    ipiStallCoreCallback(ks, true);
    ackInterrupt(ks, KS_IRQ_REMOTE_CALL_IPI);
    smp_swap_core(ks, c);
}

/* remoteTCBStall (src/object/tcb.c): a thread with an SC running on
 * another core is taken off it; that core reschedules on the IPI this
 * entry sends at its exit */
void remoteTCBStall(struct kstate *ks, int t)
{
    const struct ks_tcb *x = &ks->tcbs[t];
    int core = x->affinity;
    if (!ks->cfg.smp || x->sc == KS_NONE || core == CUR_CORE || ks->core_cur[core] != t)
        return;
    doRemoteStall(ks, core);
    ks->ipi_pending |= (uint8_t)(1u << core);
}
