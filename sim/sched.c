/* sched: model of the kernel's MCS scheduler on the core taking the IRQ. */
#include "sched.h"

#include "cost_hooks.h"
#include "kassert.h"
#include "refill.h"
#include "tcbqueue.h"
#include "vcpuswitch.h"
#include "vspace.h"

/* ---- ready queues and bitmaps (src/object/tcb.c) ---- */

static bool in_queue(const struct ks_tcb *t, int core, int dom, int prio)
{
    return t->queued && t->affinity == core && t->domain == dom && t->prio == prio;
}

int ready_queue_head(const struct kstate *ks, int core, int dom, int prio)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (in_queue(&ks->tcbs[i], core, dom, prio) && ks->tcbs[i].sched_prev == KS_NONE)
            return i;
    return KS_NONE;
}

int ready_queue_tail(const struct kstate *ks, int core, int dom, int prio)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (in_queue(&ks->tcbs[i], core, dom, prio) && ks->tcbs[i].sched_next == KS_NONE)
            return i;
    return KS_NONE;
}

/* invert_l1index */
static unsigned invert_l1index(unsigned l1index)
{
    return KS_L2_SIZE - 1 - l1index;
}

/* addToBitmap */
static void addToBitmap(struct kstate *ks, int core, int dom, int prio)
{
    unsigned l1index = (unsigned)prio >> 6;
    COST(ks, 2, 2, 0); /* L1 |=, L2 |= */
    ks->l1[core][dom] |= 1ull << l1index;
    ks->l2[core][dom][invert_l1index(l1index)] |= 1ull << (prio & 63);
}

/* removeFromBitmap */
static void removeFromBitmap(struct kstate *ks, int core, int dom, int prio)
{
    unsigned l1index = (unsigned)prio >> 6;
    unsigned inv = invert_l1index(l1index);
    COST(ks, 1, 1, 1); /* L2 &=, L2 empty? */
    ks->l2[core][dom][inv] &= ~(1ull << (prio & 63));
    COST_IF(ks, !ks->l2[core][dom][inv], 1, 1, 0); /* L1 &= */
    if (!ks->l2[core][dom][inv])
        ks->l1[core][dom] &= ~(1ull << l1index);
}

/* getHighestPrio */
int getHighestPrio(struct kstate *ks, int dom)
{
    COST_R(ks, 2); /* L1, L2 words */
    uint64_t l1 = ks->l1[CUR_CORE][dom];
    if (!ks_check(ks, l1 != 0, A_HIGHEST_L1))
        return 0; /* clzl(0) is undefined in the kernel */
    unsigned l1index = 63u - (unsigned)__builtin_clzll(l1);
    uint64_t l2 = ks->l2[CUR_CORE][dom][invert_l1index(l1index)];
    if (!ks_check(ks, l2 != 0, A_HIGHEST_L2))
        return (int)(l1index << 6);
    return (int)((l1index << 6) | (63u - (unsigned)__builtin_clzll(l2)));
}

/* isHighestPrio */
bool isHighestPrio(struct kstate *ks, int dom, int prio)
{
    COST(ks, 1, 0, 1 + (ks->l1[CUR_CORE][dom] != 0)); /* L1 == 0, prio >= highest */
    return ks->l1[CUR_CORE][dom] == 0 || prio >= getHighestPrio(ks, dom);
}

/* isRunnable */
bool isRunnable(const struct kstate *ks, int t)
{
    int st = ks->tcbs[t].state;
    return st == TS_Running || st == TS_Restart;
}

/* isBlocked */
bool isBlocked(const struct kstate *ks, int t)
{
    int st = ks->tcbs[t].state;
    return st == TS_BlockedOnReceive || st == TS_BlockedOnSend ||
           st == TS_BlockedOnNotification || st == TS_BlockedOnReply;
}

/* isSchedulable */
bool isSchedulable(const struct kstate *ks, int t)
{
    const struct ks_tcb *tcb = &ks->tcbs[t];
    return isRunnable(ks, t) && tcb->sc != KS_NONE && ks->scs[tcb->sc].refill_max > 0 &&
           !tcb->in_release;
}

/* isCurDomainExpired */
bool isCurDomainExpired(const struct kstate *ks)
{
    return ks->cfg.num_domains > 1 && ks->domain_time == 0;
}

/* The refill checks the queue operations assert; a thread without an SC
 * would be a NULL dereference in the kernel, reported as the same assert. */
static void assert_sc(struct kstate *ks, int t, int id_suff, int id_ready)
{
    int sc = ks->tcbs[t].sc;
    if (sc == KS_NONE) {
        KASSERT(ks, false, id_suff);
        return;
    }
    KASSERT(ks, refill_sufficient(ks, sc, 0), id_suff);
    if (id_ready != A_NONE)
        KASSERT(ks, refill_ready(ks, sc), id_ready);
}

/* tcbSchedEnqueue */
void tcbSchedEnqueue(struct kstate *ks, int t)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    KASSERT(ks, isSchedulable(ks, t), A_ENQ_SCHEDULABLE);
    assert_sc(ks, t, A_ENQ_SUFFICIENT, A_NONE);
    COST(ks, 1, 0, 1); /* tcbQueued */
    if (tcb->queued)
        return;
    int head = ready_queue_head(ks, tcb->affinity, tcb->domain, tcb->prio);
    /* domain, priority, affinity, queue head and end; empty?; links,
     * old head's prev, queue, tcbQueued */
    COST(ks, 5, 5 + (head != KS_NONE), 1);
    if (head == KS_NONE)
        addToBitmap(ks, tcb->affinity, tcb->domain, tcb->prio);
    else
        ks->tcbs[head].sched_prev = (int8_t)t;
    tcb->sched_prev = KS_NONE;
    tcb->sched_next = (int8_t)head;
    tcb->queued = true;
}

/* tcbSchedAppend */
void tcbSchedAppend(struct kstate *ks, int t)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    KASSERT(ks, isSchedulable(ks, t), A_APP_SCHEDULABLE);
    assert_sc(ks, t, A_APP_SUFFICIENT, A_APP_READY);
    COST(ks, 1, 0, 1); /* tcbQueued */
    if (tcb->queued)
        return;
    int tail = ready_queue_tail(ks, tcb->affinity, tcb->domain, tcb->prio);
    COST(ks, 5, 5 + (tail != KS_NONE), 1); /* as tcbSchedEnqueue, old tail's next */
    if (tail == KS_NONE)
        addToBitmap(ks, tcb->affinity, tcb->domain, tcb->prio);
    else
        ks->tcbs[tail].sched_next = (int8_t)t;
    tcb->sched_prev = (int8_t)tail;
    tcb->sched_next = KS_NONE;
    tcb->queued = true;
}

/* tcbSchedDequeue */
void tcbSchedDequeue(struct kstate *ks, int t)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    COST(ks, 1, 0, 1); /* tcbQueued */
    if (!tcb->queued)
        return;
    /* domain, priority, affinity, queue, links; prev?, (no prev: next?,) next?;
     * queue, tcbQueued, the neighbours' links */
    COST(ks, 7, 3 + COST_LINKS(tcb->sched_prev, tcb->sched_next), 2 + (tcb->sched_prev == KS_NONE));
    if (tcb->sched_prev != KS_NONE)
        ks->tcbs[tcb->sched_prev].sched_next = tcb->sched_next;
    else if (tcb->sched_next == KS_NONE)
        removeFromBitmap(ks, tcb->affinity, tcb->domain, tcb->prio);
    if (tcb->sched_next != KS_NONE)
        ks->tcbs[tcb->sched_next].sched_prev = tcb->sched_prev;
    tcb->queued = false;
}

static void set_reprogram(struct kstate *ks, int core)
{
    if (core == CUR_CORE)
        ks->reprogram = true;
    else
        ks->core_reprogram[core] = true;
}

/* tcbReleaseRemove */
void tcbReleaseRemove(struct kstate *ks, int t)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    COST(ks, 1, 0, 1); /* tcbInReleaseQueue */
    if (!tcb->in_release)
        return;
    /* links; prev?, next?; neighbour or ksReleaseHead and ksReprogram,
     * next's prev, own links, the flag */
    COST(ks, 2, 4 + (tcb->sched_prev == KS_NONE) + (tcb->sched_next != KS_NONE), 2);
    if (tcb->sched_prev != KS_NONE) {
        ks->tcbs[tcb->sched_prev].sched_next = tcb->sched_next;
    } else {
        ks->release_head[tcb->affinity] = tcb->sched_next;
        set_reprogram(ks, tcb->affinity);
    }
    if (tcb->sched_next != KS_NONE)
        ks->tcbs[tcb->sched_next].sched_prev = tcb->sched_prev;
    tcb->sched_next = tcb->sched_prev = KS_NONE;
    tcb->in_release = false;
}

static ticks_t head_time(struct kstate *ks, int t)
{
    return refill_head(ks, ks->tcbs[t].sc)->time;
}

/* tcbReleaseEnqueue: sorted by head refill time, after equal times */
void tcbReleaseEnqueue(struct kstate *ks, int t)
{
    struct ks_tcb *tcb = &ks->tcbs[t];
    KASSERT(ks, !tcb->in_release, A_REL_ENQ_NOT_IN_RELEASE);
    KASSERT(ks, !tcb->queued, A_REL_ENQ_NOT_QUEUED);
    int before = KS_NONE, after = ks->release_head[tcb->affinity];
    while (after != KS_NONE && head_time(ks, t) >= head_time(ks, after)) {
        COST(ks, 7, 0, 2); /* both SCs' head rTime, the next link */
        before = after;
        after = ks->tcbs[after].sched_next;
    }
    /* ksReleaseHead, affinity, the loop test that ended it; head?, after? */
    COST(ks, 2 + 6 * (after != KS_NONE), 0, 3 + (after != KS_NONE));
    COST_W(ks, 4 + (before == KS_NONE) + (after != KS_NONE)); /* head+ksReprogram or before's next, ... */
    if (before == KS_NONE) {
        ks->release_head[tcb->affinity] = (int8_t)t;
        set_reprogram(ks, tcb->affinity);
    } else {
        ks->tcbs[before].sched_next = (int8_t)t;
    }
    if (after != KS_NONE)
        ks->tcbs[after].sched_prev = (int8_t)t;
    tcb->sched_next = (int8_t)after;
    tcb->sched_prev = (int8_t)before;
    tcb->in_release = true;
}

/* tcbReleaseDequeue */
int tcbReleaseDequeue(struct kstate *ks)
{
    int head = ks->release_head[CUR_CORE];
    if (!ks_check(ks, head != KS_NONE, A_REL_DEQ_NONEMPTY))
        return KS_NONE;
    struct ks_tcb *tcb = &ks->tcbs[head];
    KASSERT(ks, tcb->sched_prev == KS_NONE, A_REL_DEQ_HEAD_PREV);
    /* ksReleaseHead, its next; two next? tests; new head, flag, ksReprogram */
    COST(ks, 3, 3 + 3 * (tcb->sched_next != KS_NONE), 2);
    ks->release_head[CUR_CORE] = tcb->sched_next;
    if (tcb->sched_next != KS_NONE) {
        ks->tcbs[tcb->sched_next].sched_prev = KS_NONE;
        tcb->sched_next = KS_NONE;
    }
    tcb->in_release = false;
    ks->reprogram = true;
    return head;
}

/* remoteQueueUpdate: a thread queued on another core in the current domain
 * asks that core to reschedule when it would preempt or the core idles */
static void remoteQueueUpdate(struct kstate *ks, int t)
{
    const struct ks_tcb *tcb = &ks->tcbs[t];
    COST_IF(ks, ks->cfg.smp, 3, 0, 2); /* affinity, domain, ksCurDomain */
    if (!ks->cfg.smp || tcb->affinity == CUR_CORE || tcb->domain != ks->cur_domain)
        return;
    COST(ks, 5, 1, 3); /* target core's current and idle thread, priorities, ksReprogram (all counted) */
    int target = ks->core_cur[tcb->affinity];
    if (target == ks->core_idle[tcb->affinity] || target == KS_NONE ||
        tcb->prio > ks->tcbs[target].prio || ks->core_reprogram[tcb->affinity])
        ks->ipi_pending |= (uint8_t)(1u << tcb->affinity);
}

/* SCHED_ENQUEUE */
void sched_enqueue(struct kstate *ks, int t)
{
    tcbSchedEnqueue(ks, t);
    remoteQueueUpdate(ks, t);
}

/* SCHED_APPEND */
void sched_append(struct kstate *ks, int t)
{
    tcbSchedAppend(ks, t);
    remoteQueueUpdate(ks, t);
}

/* ---- thread state and the scheduler action (src/kernel/thread.c) ---- */

/* rescheduleRequired */
void rescheduleRequired(struct kstate *ks)
{
    int a = ks->sched_action;
    COST(ks, 1, 1, 1 + (a != KS_SA_RESUME)); /* ksSchedulerAction: read, two tests, write */
    COST_SCHEDULABLE(ks, a);
    if (a != KS_SA_RESUME && a != KS_SA_CHOOSE && isSchedulable(ks, a)) {
        assert_sc(ks, a, A_RESCHED_SUFFICIENT, A_RESCHED_READY);
        sched_enqueue(ks, a);
    }
    ks->sched_action = KS_SA_CHOOSE;
}

/* scheduleTCB */
void scheduleTCB(struct kstate *ks, int t)
{
    COST(ks, 1 + (t == ks->cur_thread), 0, 1 + (t == ks->cur_thread)); /* ksCurThread, action */
    COST_SCHEDULABLE(ks, t == ks->cur_thread && ks->sched_action == KS_SA_RESUME ? t : KS_NONE);
    if (t == ks->cur_thread && ks->sched_action == KS_SA_RESUME && !isSchedulable(ks, t))
        rescheduleRequired(ks);
}

/* setThreadState */
void setThreadState(struct kstate *ks, int t, int ts)
{
    COST_W(ks, 1); /* tsType */
    ks->tcbs[t].state = (uint8_t)ts;
    scheduleTCB(ks, t);
}

/* possibleSwitchTo */
void possibleSwitchTo(struct kstate *ks, int t)
{
    const struct ks_tcb *tcb = &ks->tcbs[t];
    COST(ks, 1 + (tcb->sc != KS_NONE), 0, 1 + (tcb->sc != KS_NONE)); /* tcbSchedContext, release flag */
    if (tcb->sc == KS_NONE || tcb->in_release)
        return;
    COST(ks, 2 + ks->cfg.smp, 0, 1 + ks->cfg.smp); /* ksCurDomain, tcbDomain (SMP: affinity) */
    if (ks->cur_domain != tcb->domain || (ks->cfg.smp && tcb->affinity != CUR_CORE)) {
        sched_enqueue(ks, t);
    } else if (ks->sched_action != KS_SA_RESUME) {
        COST(ks, 1, 0, 1); /* ksSchedulerAction */
        rescheduleRequired(ks);
        sched_enqueue(ks, t);
    } else {
        COST(ks, 1, 1, 1); /* ksSchedulerAction: test, set */
        ks->sched_action = (int16_t)t;
    }
}

/* doMaskReschedule (src/smp/ipi.c, as schedule() calls it): the
 * reschedule IPIs this core owes the others are sent */
void doMaskReschedule(struct kstate *ks)
{
    COST(ks, 1, 1, 1); /* ipiReschedulePending */
    ks->ipi_sent |= (uint8_t)(ks->ipi_pending & ~(1u << CUR_CORE));
    ks->ipi_pending = 0;
}

/* switchLocalFpuOwner (master src/machine/fpu.c:15): the current core's
 * FPU owner becomes t (KS_NONE: none); fpu_live marks the owner of each
 * thread's affinity core, and core 0 of the state is the current one */
static void switchLocalFpuOwner(struct kstate *ks, int t)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (ks->tcbs[i].affinity == CUR_CORE)
            ks->tcbs[i].fpu_live = i == t;
}

/* lazyFPURestore as master calls it at every switch (1bd0e3b78,
 * c4501d5ed: switchToThread, thread.c:477; switchToThread_fp,
 * mode/fastpath/fastpath.h:45-47; include/machine/fpu.h:29-38): a thread
 * without seL4_TCBFlag_fpuDisabled becomes the core's FPU owner; one with
 * it disables the FPU and leaves the owner (the enable bit is not
 * modelled). The idle threads carry the flag (configureIdleThread, master
 * thread.c:33), and switchToIdleThread does not call it; a user thread
 * carries it after TCB_SetFlags (fpu_disabled). Base moves no ownership
 * at a switch (docs/model.md). */
void lazyFPURestore(struct kstate *ks, int t)
{
    if (!cfg_has(&ks->cfg, KF_FPU_OWNER_AT_SWITCH) || !ks->cfg.fpu || ks->tcbs[t].fpu_disabled)
        return;
    switchLocalFpuOwner(ks, t);
}

/* fpuRelease (master src/machine/fpu.c:42-49): a thread whose FPU state is
 * live on its core switches that core's owner to none (switchFpuOwner, a
 * remote call for another core), so afterwards no core holds it: one owner
 * per core, so fpu_live clear is the whole effect, as in migrateTCB */
void fpuRelease(struct kstate *ks, int t)
{
    ks->tcbs[t].fpu_live = false;
}

/* switchToThread */
void switchToThread(struct kstate *ks, int t)
{
    const struct ks_tcb *tcb = &ks->tcbs[t];
    KASSERT(ks, tcb->sc != KS_NONE, A_SWITCH_HAS_SC);
    KASSERT(ks, !tcb->in_release, A_SWITCH_NOT_RELEASE);
    if (tcb->sc != KS_NONE) {
        KASSERT(ks, refill_sufficient(ks, tcb->sc, 0), A_SWITCH_SUFFICIENT);
        KASSERT(ks, refill_ready(ks, tcb->sc), A_SWITCH_READY);
    }
    COST(ks, 4, 1, 6); /* Arch_switchToThread: setVMRoot's VTable cap, ASID map, TTBR0 */
    Arch_switchToThread(ks, t);
    lazyFPURestore(ks, t);
    tcbSchedDequeue(ks, t);
    COST_W(ks, 1); /* ksCurThread */
    ks->cur_thread = (int8_t)t;
}

/* switchToIdleThread */
void switchToIdleThread(struct kstate *ks)
{
    COST(ks, 1, 2, 0); /* ksIdleThread; TTBR0, ksCurThread */
    Arch_switchToIdleThread(ks);
    ks->cur_thread = ks->idle_thread;
}

/* chooseThread */
void chooseThread(struct kstate *ks)
{
    int dom = ks->cfg.num_domains > 1 ? ks->cur_domain : 0;
    COST(ks, 1 + (ks->cfg.num_domains > 1), 0, 1); /* ksCurDomain, L1 bitmap */
    if (!ks->l1[CUR_CORE][dom]) {
        switchToIdleThread(ks);
        return;
    }
    int prio = getHighestPrio(ks, dom);
    int t = ready_queue_head(ks, CUR_CORE, dom, prio);
    COST_R(ks, 1); /* ksReadyQueues[idx].head */
    if (!ks_check(ks, t != KS_NONE, A_CHOOSE_THREAD)) {
        switchToIdleThread(ks); /* the kernel would dereference NULL */
        return;
    }
    KASSERT(ks, isSchedulable(ks, t), A_CHOOSE_SCHEDULABLE);
    assert_sc(ks, t, A_CHOOSE_SUFFICIENT, A_CHOOSE_READY);
    switchToThread(ks, t);
}

/* nextDomain: base wraps past the last entry to entry 0 (thread.c:302-318,
 * lengths in ms converted by usToTicks, here at load); master wraps at an
 * end marker to ksDomScheduleStart (master thread.c:326-338) */
static void nextDomain(struct kstate *ks)
{
    /* index, length, entry; index, ksReprogram, work units, domain, time */
    COST(ks, 4, 5 + (ks->dom_idx + 1 >= ks->dom_len), 1);
    ks->dom_idx++;
    if (cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME)) {
        if (dschedule_is_end_marker(ks, ks->dom_idx))
            ks->dom_idx = ks->dom_start;
    } else if (ks->dom_idx >= ks->dom_len) {
        ks->dom_idx = 0;
    }
    ks->reprogram = true;
    ks->cur_domain = (uint8_t)dschedule_domain(ks->dom_sched[ks->dom_idx]);
    ks->domain_time = dschedule_duration(ks->dom_sched[ks->dom_idx]);
}

/* scheduleChooseNewThread */
static void scheduleChooseNewThread(struct kstate *ks)
{
    COST(ks, 1, 0, 1); /* ksDomainTime == 0 */
    if (ks->domain_time == 0) {
        /* prepareNextDomain (master thread.c:317-324): the core's VCPU
         * flushed (Arch_prepareNextDomain, e558631c7), its FPU state
         * saved and its owner released (35ec2554b) */
        if (cfg_has(&ks->cfg, KF_VCPU_FLUSH_AT_DOMAIN_END) && ks->cfg.hyp)
            vcpu_flush(ks);
        if (cfg_has(&ks->cfg, KF_FPU_RELEASE_AT_DOMAIN_END) && ks->cfg.fpu)
            switchLocalFpuOwner(ks, KS_NONE);
        nextDomain(ks);
    }
    chooseThread(ks);
}

/* switchSchedContext */
static void switchSchedContext(struct kstate *ks)
{
    int sc = ks->tcbs[ks->cur_thread].sc;
    COST(ks, 3, 0, 1); /* ksCurSC, ksCurThread, tcbSchedContext */
    if (ks->cur_sc != sc && sc != KS_NONE) {
        COST(ks, 1, 1, 1); /* ksReprogram; scSporadic */
        ks->reprogram = true;
        if (sc_constant_bandwidth(ks, sc)) {
            COST_SEC(ks, SEC_WAKE);
            refill_unblock_check(ks, sc);
            COST_SEC(ks, SEC_SCHED);
        }
        KASSERT(ks, refill_ready(ks, sc), A_SWITCHSC_READY);
        KASSERT(ks, refill_sufficient(ks, sc, 0), A_SWITCHSC_SUFFICIENT);
    }
    if (!ks_check(ks, sc != KS_NONE, A_SWITCH_HAS_SC))
        return;
    COST(ks, 1, 1, 1); /* ksReprogram; ksCurSC */
    if (ks->reprogram) {
        COST_SEC(ks, SEC_TIME);
        commitTime(ks);
        COST_SEC(ks, SEC_SCHED);
    }
    ks->cur_sc = (int8_t)sc;
}

/* schedule: the branch on a SwitchToThread candidate */
static void schedule_candidate(struct kstate *ks, bool was_runnable)
{
    int cand = ks->sched_action;
    int cur = ks->cur_thread;
    KASSERT(ks, isSchedulable(ks, cand), A_SCHED_CAND_SCHEDULABLE);
    bool fastfail = cur == ks->idle_thread || ks->tcbs[cand].prio < ks->tcbs[cur].prio;
    /* ksCurThread, ksIdleThread, both priorities, ksCurDomain; the fastfail tests */
    COST(ks, 2 + 2 * (cur != ks->idle_thread) + fastfail, 0, 2 + (cur != ks->idle_thread));
    if (fastfail && !isHighestPrio(ks, ks->cur_domain, ks->tcbs[cand].prio)) {
        sched_enqueue(ks, cand);
        COST_W(ks, 1); /* ksSchedulerAction */
        ks->sched_action = KS_SA_CHOOSE;
        scheduleChooseNewThread(ks);
    } else if (was_runnable && ks->tcbs[cand].prio == ks->tcbs[cur].prio) {
        COST(ks, 0, 1, 2); /* was_runnable, same priority; ksSchedulerAction */
        sched_append(ks, cand);
        ks->sched_action = KS_SA_CHOOSE;
        scheduleChooseNewThread(ks);
    } else {
        COST(ks, 0, 0, 1 + was_runnable);
        KASSERT(ks, cand != cur, A_SCHED_CAND_NOT_CUR);
        switchToThread(ks, cand);
    }
}

/* schedule */
void schedule(struct kstate *ks)
{
    awaken(ks);
    checkDomainTime(ks);
    COST(ks, 1, 0, 1); /* ksSchedulerAction */
    if (ks->sched_action != KS_SA_RESUME) {
        COST_R(ks, 1); /* ksCurThread */
        COST_SCHEDULABLE(ks, ks->cur_thread);
        bool was_runnable = isSchedulable(ks, ks->cur_thread);
        if (was_runnable)
            tcbSchedEnqueue(ks, ks->cur_thread);
        COST(ks, 1, 0, 1); /* ChooseNewThread? */
        if (ks->sched_action == KS_SA_CHOOSE)
            scheduleChooseNewThread(ks);
        else
            schedule_candidate(ks, was_runnable);
    }
    COST_W(ks, 1); /* ksSchedulerAction */
    ks->sched_action = KS_SA_RESUME;
    if (ks->cfg.smp)
        doMaskReschedule(ks);
    switchSchedContext(ks);
    COST_SEC(ks, SEC_TIMER);
    COST(ks, 1, 0, 1); /* ksReprogram */
    if (ks->reprogram) {
        setNextInterrupt(ks);
        COST_W(ks, 1); /* ksReprogram */
        ks->reprogram = false;
    }
}

/* activateThread (no yieldTo is modelled) */
void activateThread(struct kstate *ks)
{
    COST(ks, 3, 0, 2); /* ksCurThread, tcbYieldTo, tsType */
    switch (ks->tcbs[ks->cur_thread].state) {
    case TS_Running:
    case TS_IdleThreadState:
        return;
    case TS_Restart:
        COST(ks, 1, 1, 0); /* restart PC to next PC */
        setThreadState(ks, ks->cur_thread, TS_Running);
        return;
    default:
        KASSERT(ks, false, A_ACTIVATE_BLOCKED);
    }
}

/* ---- MCS time (include/kernel/thread.h, src/kernel/thread.c) ---- */

/* updateTimestamp */
void updateTimestamp(struct kstate *ks)
{
    /* ksCurTime, CNTVCT, ksConsumed (numDomains > 1: ksDomainTime); the same written */
    COST(ks, 3 + COST_DOMAINS(ks), 2 + COST_DOMAINS(ks), COST_DOMAINS(ks));
    ticks_t prev = ks->cur_time;
    ks->cur_time = ks->hw_clock;
    KASSERT(ks, ks->cur_time < ks->cfg.max_release, A_UPDATE_TS_MAX);
    ticks_t consumed = ks->cur_time - prev;
    ks->consumed += consumed;
    if (ks->cfg.num_domains > 1) {
        if (consumed + ks->cfg.min_budget >= ks->domain_time)
            ks->domain_time = 0;
        else
            ks->domain_time -= consumed;
    }
}

/* checkDomainTime */
void checkDomainTime(struct kstate *ks)
{
    COST_IF(ks, ks->cfg.num_domains > 1, 1, 0, 1); /* ksDomainTime == 0 */
    if (isCurDomainExpired(ks)) {
        COST_W(ks, 1); /* ksReprogram */
        ks->reprogram = true;
        rescheduleRequired(ks);
    }
}

/* commitTime */
void commitTime(struct kstate *ks)
{
    int sc = ks->cur_sc;
    /* ksCurSC, scRefillMax, (ksIdleSC, (ksConsumed > 0)) */
    COST(ks, 2 + COST_ACTIVE(ks, sc), 0, 1 + COST_ACTIVE(ks, sc));
    if (ks->scs[sc].refill_max && sc != ks->idle_sc) {
        if (ks->consumed > 0) {
            KASSERT(ks, refill_sufficient(ks, sc, ks->consumed), A_COMMIT_SUFFICIENT);
            KASSERT(ks, refill_ready(ks, sc), A_COMMIT_READY);
            /* scPeriod (round robin: head and tail index and amount) */
            COST(ks, 1 + 4 * isRoundRobin(ks, sc), 2 * isRoundRobin(ks, sc), 1);
            if (isRoundRobin(ks, sc)) {
                KASSERT(ks, refill_size(&ks->scs[sc]) == MIN_REFILLS, A_COMMIT_RR_SIZE);
                refill_head(ks, sc)->amount -= ks->consumed;
                refill_tail(ks, sc)->amount += ks->consumed;
            } else {
                refill_budget_check(ks, ks->consumed);
            }
            KASSERT(ks, refill_sufficient(ks, sc, 0), A_COMMIT_SUFFICIENT_AFTER);
            KASSERT(ks, refill_ready(ks, sc), A_COMMIT_READY_AFTER);
        }
        COST(ks, 1, 1, 0); /* scConsumed += */
        ks->scs[sc].consumed += ks->consumed;
    }
    COST_W(ks, 1); /* ksConsumed */
    ks->consumed = 0;
}

/* postpone */
void postpone(struct kstate *ks, int sc)
{
    COST(ks, 2, 1, 0); /* scTcb, scCore; ksReprogram */
    int t = ks->scs[sc].tcb;
    tcbSchedDequeue(ks, t);
    tcbReleaseEnqueue(ks, t);
    set_reprogram(ks, ks->scs[sc].core);
}

/* awaken */
void awaken(struct kstate *ks)
{
    while (ks->release_head[CUR_CORE] != KS_NONE &&
           refill_ready(ks, ks->tcbs[ks->release_head[CUR_CORE]].sc)) {
        COST(ks, 5, 1, 2); /* the loop test that held: head, its SC's refill_ready; ksReprogram */
        int t = tcbReleaseDequeue(ks);
        int sc = ks->tcbs[t].sc;
        KASSERT(ks, t != ks->cur_thread, A_AWAKEN_NOT_CUR);
        KASSERT(ks, !isRoundRobin(ks, sc), A_AWAKEN_NOT_RR);
        KASSERT(ks, ks->tcbs[t].affinity == CUR_CORE, A_AWAKEN_AFFINITY);
        KASSERT(ks, refill_sufficient(ks, sc, 0), A_AWAKEN_SUFFICIENT);
        possibleSwitchTo(ks, t);
        ks->reprogram = true;
    }
    COST(ks, 1, 0, 1); /* the loop test that ended it: ksReleaseHead, */
    COST_IF(ks, ks->release_head[CUR_CORE] != KS_NONE, 4, 0, 1); /* its refill_ready */
}

/* getNextInterrupt (PR #1227) and the computation in setNextInterrupt */
ticks_t next_interrupt_time(struct kstate *ks)
{
    ticks_t next = ks->cur_time + refill_head(ks, ks->tcbs[ks->cur_thread].sc)->amount;
    if (ks->cfg.num_domains > 1 && ks->cur_time + ks->domain_time < next)
        next = ks->cur_time + ks->domain_time;
    int rh = ks->release_head[CUR_CORE];
    /* ksCurTime, ksCurThread, tcbSchedContext, scRefillHead, rAmount;
     * ksDomainTime, MIN; ksReleaseHead, null?; its head rTime, MIN */
    COST(ks, 6 + COST_DOMAINS(ks) + 3 * (rh != KS_NONE), 0, 1 + COST_DOMAINS(ks) + (rh != KS_NONE));
    if (rh != KS_NONE && refill_head(ks, ks->tcbs[rh].sc)->time < next)
        next = refill_head(ks, ks->tcbs[rh].sc)->time;
    return next;
}

/* setDeadline */
void setDeadline(struct kstate *ks, ticks_t deadline)
{
    COST_W(ks, 1); /* CNTV_CVAL */
    ks->deadline = deadline;
    ks->deadline_writes++;
}

/* setNextInterrupt */
void setNextInterrupt(struct kstate *ks)
{
    ticks_t next = next_interrupt_time(ks);
    KASSERT(ks, next >= ks->cur_time, A_NEXTIRQ_FUTURE);
    setDeadline(ks, next - ks->cfg.precision);
}
