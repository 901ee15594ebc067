/* invariant: checks a kernel state against the kernel's invariants. */
#include "invariant.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "irq_fast.h"
#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "target.h"
#include "vcpu.h"
#include "vspace.h"

static const struct { const char *name, *what; } inv_text[] = {
#define INV_TEXT(id, name, what) {name, what},
    INV_LIST(INV_TEXT)
#undef INV_TEXT
};

const char *inv_name(int id)
{
    return id >= 0 && id < INV_COUNT ? inv_text[id].name : "?";
}

const char *inv_what(int id)
{
    return id >= 0 && id < INV_COUNT ? inv_text[id].what : "?";
}

bool inv_has(const struct inv_report *r, int id)
{
    int kept = r->n < INV_MAX_ITEMS ? r->n : INV_MAX_ITEMS;
    for (int i = 0; i < kept; i++)
        if (r->items[i].id == id)
            return true;
    return false;
}

struct ctx {
    const struct kstate *ks;
    struct inv_report *r;
    unsigned admit; /* enum inv_admit */
    /* the IRQs in use (find_irqs): every other one is inactive, not active
     * at the GIC and has a null cap, which every IRQ-table check passes;
     * a state uses a few of its n_irqs, and this checker runs at every
     * kernel entry of an enumeration */
    int n_used;
    uint16_t used[KS_MAX_IRQS];
};

/* cold: a failed invariant is the rare case, and GCC then lays every check's
 * report out of the hot path (the checker runs at every kernel entry of an
 * enumeration: 1.25x on `exhaust --executions --depth 2 --cores 2`, bench/ab.sh,
 * docs/results/executions-depth3.md "Ninth pass") */
__attribute__((format(printf, 3, 4), cold)) static void fail(struct ctx *c, int id, const char *fmt, ...)
{
    if (c->r->n < INV_MAX_ITEMS) {
        struct inv_item *it = &c->r->items[c->r->n];
        it->id = id;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(it->msg, sizeof it->msg, fmt, ap);
        va_end(ap);
    }
    c->r->n++;
}

#define T(i) ks_tcb_name(c->ks, (i))
#define SC(i) ks_sc_name(c->ks, (i))
#define N(i) ks_ntfn_name(c->ks, (i))

static bool in_range(int v, int n)
{
    return v == KS_NONE || (v >= 0 && v < n);
}

static const struct ks_refill *rhead(const struct kstate *ks, int sc)
{
    return &ks->scs[sc].refills[ks->scs[sc].head];
}

static bool ready_at(const struct kstate *ks, int sc, ticks_t now)
{
    return rhead(ks, sc)->time <= now;
}

static bool sufficient0(const struct kstate *ks, int sc)
{
    return rhead(ks, sc)->amount >= ks->cfg.min_budget;
}

/* A pending fault is set only by sendFaultIPC, right before sendIPC blocks
 * the thread sending it, or on its reply, or makes it Inactive (check_thread
 * gives the lines); none of those states is in a ready queue
 * (tcbSchedEnqueue and tcbSchedAppend assert isSchedulable: thread.c, the
 * A_ENQ/A_APP assertions) or the release queue (tcbReleaseEnqueue only
 * from postpone of a runnable thread's SC), and sendIPC dequeues nothing.
 * So the thread must leave its queues before the fault is sent: what
 * VPPIEvent and VGICMaintenance test first on MCS, since the entry's budget
 * check may just have queued the current thread (base vcpu.c:121, 140,
 * c64867ebd: tcbQueued; master vcpu.c:123-124, 152-153, 232471e90:
 * tcbQueued or not isSchedulable, which covers the release queue,
 * include/kernel/thread.h:152-158). The trees between 6dbe58ef0 and
 * 232471e90 leave a round-robined thread in its ready queue blocked on its
 * fault (seL4 issue 1645); base leaves a postponed one in the release
 * queue (6dbe58ef0: "simultaneously BlockedOnReply and in the release
 * queue"). */
static void check_fault_queued(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (t->fault != FAULT_None && (t->queued || t->in_release))
            fail(c, INV_FAULT, "thread %s: a pending %s fault while %s and in the %s queue", t->name,
                 ks_fault_name(t->fault), ks_ts_name(t->state), t->queued ? "ready" : "release");
    }
}

/* Where the kernel leaves a VCPU (src/arch/arm/object/vcpu.c at 1326364bc,
 * the same lines in base less 4 to 19):
 * - VCPU objects exist only on a hypervisor build (seL4_ARM_VCPUObject is
 *   an object type of CONFIG_ARM_HYPERVISOR_SUPPORT only), and a thread and
 *   its VCPU name each other: associateVCPUTCB and dissociateVCPUTCB set
 *   both links together (:292-326).
 * - A core's VCPU is active only when one is loaded: vcpu_switch sets
 *   armHSVCPUActive only with a VCPU (:244-245, 257), vcpu_invalidate_active
 *   clears both (:261-268). Both are node state (ARCH_NODE_STATE), written
 *   by the core's own code only, so this holds on every core.
 * - On one core, at user level the current thread's VCPU is the loaded,
 *   active one, and a thread without one runs with none active: every
 *   switch runs vcpu_switch(tcb->tcbArch.tcbVCPU) (Arch_switchToThread,
 *   src/arch/arm/64/kernel/thread.c:14-20; switchToThread_fp,
 *   mode/fastpath/fastpath.h:35-37) or vcpu_switch(NULL) (the idle thread,
 *   thread.c:28-34); binding the current thread switches at once
 *   (:303-305), unbinding the loaded VCPU invalidates it (:316-318); master's
 *   vcpu_flush at a domain's end is followed by that switch too. With two
 *   cores the kernel does not keep this for any core: VCPU_SetTCB
 *   (decodeVCPUSetTCB, :557-575, no remoteTCBStall) run on the other core
 *   binds this core's running thread without a switch here (:303 compares
 *   the invoking core's ksCurThread), and unbinds a VCPU loaded and active
 *   here without invalidating it (:313 compares the invoking core's
 *   armHSCurVCPU). Nor is a VCPU loaded on one core only: after that
 *   unbinding the other core may bind it to its current thread and load it
 *   (:303-305), and a thread that ran on core 1 and migrates to core 0
 *   (migrateTCB, src/model/smp.c:13-31, leaves the VCPU alone) is loaded
 *   here by vcpu_restore while core 1's armHSCurVCPU still names it,
 *   disabled (its switch to idle ran vcpu_switch(NULL), :246-253).
 * - A loaded VCPU that is not active leaves its core's virtual timer
 *   masked: vcpu_switch(NULL) disables it with vcpu_disable(VCPU), which
 *   masks the core's own PPI (CORE_IRQ_TO_IRQT(CURRENT_CPU_INDEX(), ...),
 *   armv/vcpu.h:708), and only vcpu_enable on that core unmasks it
 *   (restore_virt_timer, generic_timer.c:128-135), as the VCPU becomes
 *   active there. An active VCPU whose VPPI is masked has its core's IRQ
 *   masked: VPPIEvent sets both (:131-132), restore_virt_timer copies the
 *   flag, invokeVCPUAckVPPI clears only the flag (:551-555). The flag is the
 *   VCPU's, the mask the core's: a VCPU active on both cores (above) has
 *   its flag set by either core's VPPIEvent, and stays flagged after that
 *   core unloads it, so the second rule holds on one core only. No
 *   IRQHandler cap reaches a reserved IRQ.
 * - A fault's list register is a VGICMaintenance fault's (idxValid). */
static void check_vcpu_binding(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int v = 0; v < ks->n_vcpus; v++) {
        int t = ks->vcpus[v].tcb;
        if (t != KS_NONE && ks->tcbs[t].vcpu != v)
            fail(c, INV_VCPU, "VCPU %s names thread %s, whose VCPU is %s", ks->vcpus[v].name, T(t),
                 ks_vcpu_name(ks, ks->tcbs[t].vcpu));
    }
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (t->vcpu != KS_NONE && ks->vcpus[t->vcpu].tcb != i)
            fail(c, INV_VCPU, "thread %s names VCPU %s, which names %s", t->name, ks_vcpu_name(ks, t->vcpu),
                 T(ks->vcpus[t->vcpu].tcb));
        if (t->fault_lr != KS_NONE && t->fault != FAULT_VGICMaintenance)
            fail(c, INV_VCPU, "thread %s: a fault list register without a VGICMaintenance fault", t->name);
    }
}

/* the rules of every core (the comment above) */
static void check_vcpu_core(struct ctx *c, int k, int cores)
{
    const struct kstate *ks = c->ks;
    struct vcpu_node x = vcpu_node_of(ks, k);
    if (x.active && x.cur == KS_NONE) {
        fail(c, INV_VCPU, "core %d: a VCPU active, none loaded", k);
        return;
    }
    if (x.cur != KS_NONE && !x.active && !x.vtimer_masked)
        fail(c, INV_VCPU, "core %d: VCPU %s loaded but disabled, the virtual timer unmasked", k,
             ks_vcpu_name(ks, x.cur));
    if (cores == 1 && x.cur != KS_NONE && x.active && ks->vcpus[x.cur].vppi_masked && !x.vtimer_masked)
        fail(c, INV_VCPU, "core %d: VCPU %s's VPPI masked, the virtual timer not", k, ks_vcpu_name(ks, x.cur));
}

/* the one-core rule of the current thread's VCPU (the comment above) */
static void check_vcpu_current(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int mine = ks->tcbs[ks->cur_thread].vcpu;
    if (mine != KS_NONE && (!ks->vcpu_active || ks->cur_vcpu != mine))
        fail(c, INV_VCPU, "current thread %s's VCPU %s is not the core's active VCPU", T(ks->cur_thread),
             ks_vcpu_name(ks, mine));
    else if (mine == KS_NONE && ks->vcpu_active)
        fail(c, INV_VCPU, "VCPU %s active under %s, which has none", ks_vcpu_name(ks, ks->cur_vcpu), T(ks->cur_thread));
}

static void check_vcpus(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int cores = ks_cores(ks);
    bool any = ks->n_vcpus || ks->cur_vcpu != KS_NONE;
    for (int k = 1; k < KS_MAX_CORES; k++)
        any |= ks->core_vcpu[k] != KS_NONE || ks->core_vcpu_active[k];
    if (any && !ks->cfg.hyp)
        fail(c, INV_VCPU, "VCPUs in a build without hypervisor support");
    for (int k = cores; k < KS_MAX_CORES; k++)
        if (ks->core_vcpu[k] != KS_NONE || ks->core_vcpu_active[k])
            fail(c, INV_VCPU, "a VCPU loaded on core %d of %d", k, cores);
    check_vcpu_binding(c);
    for (int k = 0; k < cores; k++)
        check_vcpu_core(c, k, cores);
    if (cores == 1)
        check_vcpu_current(c);
}

static void check_config(struct ctx *c)
{
    const struct ks_config *cfg = &c->ks->cfg;
    const char *why = cfg_validate(cfg);
    if (why) {
        fail(c, INV_CONFIG, "config: %s", why);
        return;
    }
    if (cfg->min_budget != cfg_min_budget(cfg) || cfg->precision != cfg_timer_precision(cfg) ||
        cfg->max_release != cfg_max_release_time(cfg))
        fail(c, INV_CONFIG, "config: derived constants do not match the configuration");
}

static bool irq_in_use(const struct kstate *ks, int i)
{
    return ks->irq_state[i] != IRQ_Inactive || ks->irq_active[i] || ks->irq_cap[i].type != CAP_Null || ks->irq_cfg[i];
}

/* c->used: the IRQs in use in ascending order; eight at a time where the
 * state, active and configuration bytes of all eight are zero (the table is mostly
 * numbers between those in use) */
static void find_irqs(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int i = 0, n = ks->n_irqs;
    c->n_used = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t st, act, cfg;
        memcpy(&st, &ks->irq_state[i], sizeof st);
        memcpy(&act, &ks->irq_active[i], sizeof act);
        memcpy(&cfg, &ks->irq_cfg[i], sizeof cfg);
        unsigned caps = 0;
        for (int j = i; j < i + 8; j++)
            caps |= ks->irq_cap[j].type;
        if (!(st | act | cfg) && caps == CAP_Null)
            continue;
        for (int j = i; j < i + 8; j++)
            if (irq_in_use(ks, j))
                c->used[c->n_used++] = (uint16_t)j;
    }
    for (; i < n; i++)
        if (irq_in_use(ks, i))
            c->used[c->n_used++] = (uint16_t)i;
}

/* Every reference in range; when one is not, nothing else can be read. */
static bool check_indices(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int before = c->r->n, nt = ks->n_tcbs;
    if (ks->n_tcbs > KS_MAX_TCBS || ks->n_scs > KS_MAX_SCS || ks->n_ntfns > KS_MAX_NTFNS ||
        ks->n_eps > KS_MAX_EPS || ks->n_replies > KS_MAX_REPLIES || ks->n_irqs > KS_MAX_IRQS) {
        fail(c, INV_INDEX, "object counts exceed the model's capacity");
        return false;
    }
    find_irqs(c);
    for (int i = 0; i < nt; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        /* a woken thread keeps its old blocking object, of either kind; so
         * does one blocked on a reply (reply_push, src/object/reply.c:31, sets
         * the state only: blockingObject stays what its last block left) */
        int blk_n = t->state == TS_BlockedOnNotification                    ? ks->n_ntfns
                    : isBlocked(ks, i) && t->state != TS_BlockedOnReply ? ks->n_eps
                    : (ks->n_ntfns > ks->n_eps ? ks->n_ntfns : ks->n_eps);
        if (!in_range(t->sc, ks->n_scs) || !in_range(t->bound_ntfn, ks->n_ntfns) ||
            !in_range(t->blocking, blk_n) || !in_range(t->reply, ks->n_replies) ||
            !in_range(t->sched_next, nt) || !in_range(t->sched_prev, nt) ||
            !in_range(t->ep_next, nt) || !in_range(t->ep_prev, nt))
            fail(c, INV_INDEX, "thread %s refers to an object that does not exist", t->name);
    }
    for (int i = 0; i < ks->n_scs; i++)
        if (!in_range(ks->scs[i].tcb, nt) || !in_range(ks->scs[i].ntfn, ks->n_ntfns) ||
            !in_range(ks->scs[i].reply, ks->n_replies))
            fail(c, INV_INDEX, "SC %s refers to an object that does not exist", ks->scs[i].name);
    for (int i = 0; i < ks->n_ntfns; i++) {
        const struct ks_ntfn *n = &ks->ntfns[i];
        if (!in_range(n->q_head, nt) || !in_range(n->q_tail, nt) || !in_range(n->bound_tcb, nt) ||
            !in_range(n->sc, ks->n_scs))
            fail(c, INV_INDEX, "notification %s refers to an object that does not exist", n->name);
    }
    for (int i = 0; i < ks->n_eps; i++)
        if (!in_range(ks->eps[i].q_head, nt) || !in_range(ks->eps[i].q_tail, nt))
            fail(c, INV_INDEX, "endpoint %s refers to a thread that does not exist", ks->eps[i].name);
    for (int i = 0; i < ks->n_replies; i++) {
        const struct ks_reply *r = &ks->replies[i];
        if (!in_range(r->tcb, nt) || !in_range(r->prev, ks->n_replies) || !in_range(r->next, ks->n_replies) ||
            !in_range(r->sc_head, ks->n_scs))
            fail(c, INV_INDEX, "reply %s refers to an object that does not exist", r->name);
    }
    for (int u = 0; u < c->n_used; u++) {
        int i = c->used[u];
        if (ks->irq_cap[i].type == CAP_Notification &&
            (ks->irq_cap[i].ntfn < 0 || ks->irq_cap[i].ntfn >= ks->n_ntfns))
            fail(c, INV_INDEX, "IRQ %d handler cap names a notification that does not exist", i);
    }
    if (ks->cur_thread < 0 || ks->cur_thread >= nt || ks->idle_thread < 0 ||
        ks->idle_thread >= nt || ks->cur_sc < 0 || ks->cur_sc >= ks->n_scs || ks->idle_sc < 0 ||
        ks->idle_sc >= ks->n_scs)
        fail(c, INV_INDEX, "current/idle thread or SC missing or out of range");
    for (int k = 0; k < KS_MAX_CORES; k++)
        if (!in_range(ks->release_head[k], nt) || !in_range(ks->core_cur[k], nt) ||
            !in_range(ks->core_idle[k], nt))
            fail(c, INV_INDEX, "core %d: release head or current thread out of range", k);
    for (int i = 0; i < nt; i++)
        if (!in_range(ks->tcbs[i].vcpu, ks->n_vcpus) || !in_range(ks->tcbs[i].fault_ep, ks->n_eps) ||
            ks->tcbs[i].fault_lr < KS_NONE || ks->tcbs[i].fault_lr > 63)
            fail(c, INV_INDEX, "thread %s: VCPU, fault handler or fault list register out of range", T(i));
    if (ks->n_vcpus > KS_MAX_VCPUS || !in_range(ks->cur_vcpu, ks->n_vcpus) || ks->vgic_num_lr > KS_VGIC_MAX_LRS)
        fail(c, INV_INDEX, "VCPU count, current VCPU or number of list registers out of range");
    for (int k = 1; k < KS_MAX_CORES; k++)
        if (!in_range(ks->core_vcpu[k], ks->n_vcpus))
            fail(c, INV_INDEX, "core %d: current VCPU out of range", k);
    for (int i = 0; i < ks->n_vcpus && i < KS_MAX_VCPUS; i++)
        if (!in_range(ks->vcpus[i].tcb, nt))
            fail(c, INV_INDEX, "VCPU %s refers to a thread that does not exist", ks->vcpus[i].name);
    if (!in_range(ks->vspace, nt))
        fail(c, INV_INDEX, "the installed address space names a thread that does not exist");
    if (ks->sched_action != KS_SA_RESUME && ks->sched_action != KS_SA_CHOOSE &&
        (ks->sched_action < 0 || ks->sched_action >= nt))
        fail(c, INV_INDEX, "scheduler action names a thread that does not exist");
    for (int i = 0; i < ks->n_scs; i++)
        if (ks->scs[i].refill_max > KS_MAX_REFILLS || ks->scs[i].head >= KS_MAX_REFILLS ||
            ks->scs[i].tail >= KS_MAX_REFILLS)
            fail(c, INV_INDEX, "SC %s: refill indices beyond the model's capacity", ks->scs[i].name);
    for (int i = 0; i < nt; i++)
        if (ks->tcbs[i].affinity >= KS_MAX_CORES || ks->tcbs[i].domain >= KS_MAX_DOMAINS ||
            ks->tcbs[i].state >= TS_COUNT || ks->tcbs[i].fault >= FAULT_COUNT)
            fail(c, INV_INDEX, "thread %s: state, fault, core or domain out of range", ks->tcbs[i].name);
    for (int i = 0; i < ks->n_scs; i++)
        if (ks->scs[i].core >= KS_MAX_CORES)
            fail(c, INV_INDEX, "SC %s: core out of range", ks->scs[i].name);
    for (int i = 0; i < ks->n_ntfns; i++)
        if (ks->ntfns[i].state >= NTFN_COUNT)
            fail(c, INV_INDEX, "notification %s: state out of range", ks->ntfns[i].name);
    for (int i = 0; i < ks->n_eps; i++)
        if (ks->eps[i].state >= EP_COUNT)
            fail(c, INV_INDEX, "endpoint %s: state out of range", ks->eps[i].name);
    if (ks->cfg.num_domains > KS_MAX_DOMAINS || ks->cur_domain >= KS_MAX_DOMAINS ||
        ks->dom_len > KS_MAX_DOM_SCHED || ks->dom_len == 0 || ks->dom_idx >= ks->dom_len)
        fail(c, INV_INDEX, "domain schedule index or length out of range");
    return c->r->n == before;
}

static void check_idle(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    const struct ks_tcb *idle = &ks->tcbs[ks->idle_thread];
    const struct ks_sc *isc = &ks->scs[ks->idle_sc];
    if (idle->state != TS_IdleThreadState || idle->prio != 0 || idle->queued || idle->in_release)
        fail(c, INV_IDLE, "idle thread %s must be IdleThreadState, priority 0, in no queue", idle->name);
    if (idle->sc != ks->idle_sc || isc->tcb != ks->idle_thread)
        fail(c, INV_IDLE, "idle thread and idle SC must be bound to each other");
    if (isc->period != 0 || isc->refill_max != MIN_REFILLS || isc->sporadic)
        fail(c, INV_IDLE, "idle SC must be a round-robin SC with MIN_REFILLS refills");
    for (int i = 0; i < ks->n_tcbs; i++)
        if (i != ks->idle_thread && ks->tcbs[i].state == TS_IdleThreadState &&
            !(ks->cfg.smp && i == ks->core_idle[1]))
            fail(c, INV_IDLE, "thread %s is in IdleThreadState but is not the idle thread", T(i));
}

static void check_thread(struct ctx *c, int i)
{
    const struct kstate *ks = c->ks;
    const struct ks_tcb *t = &ks->tcbs[i];
    if (t->domain >= ks->cfg.num_domains)
        fail(c, INV_THREAD, "thread %s: domain %u >= number of domains %u", t->name, t->domain,
             ks->cfg.num_domains);
    bool on_ep = t->state == TS_BlockedOnReceive || t->state == TS_BlockedOnSend;
    if (t->state == TS_BlockedOnNotification && t->blocking == KS_NONE)
        fail(c, INV_THREAD, "thread %s: blocked on a notification but names none", t->name);
    if (on_ep && t->blocking == KS_NONE && !(t->state == TS_BlockedOnSend && t->fault == FAULT_Timeout))
        fail(c, INV_THREAD, "thread %s: blocked on an endpoint but names none", t->name);
    if (t->state == TS_BlockedOnSend && t->blocking == KS_NONE && t->fault != FAULT_Timeout)
        fail(c, INV_THREAD, "thread %s: blocked sending nowhere without a timeout fault", t->name);
    /* tcbFault is set only by sendFaultIPC (src/kernel/faulthandler.c:37 at
     * 43607edb6), right before sendIPC(blocking, do_call) on the handler's
     * endpoint, which leaves the thread BlockedOnSend there
     * (src/object/endpoint.c:34-53) or, when a receiver waits, BlockedOnReply
     * (reply_push, src/object/reply.c:31, via endpoint.c:87-88) or Inactive
     * (endpoint.c:90); a receiver that later takes it does the same
     * (endpoint.c:246-253). Every way out of those states clears the fault
     * first: cancelIPC (endpoint.c:312; under restart, thread.c:90-91, and
     * suspend, thread.c:70),
     * doReplyTransfer (src/kernel/thread.c:171), the reply fastpath
     * (src/fastpath/fastpath.c:528). So a thread running, restarting, or
     * blocked receiving or on a notification never has one. */
    if (t->fault != FAULT_None && t->state != TS_BlockedOnSend && t->state != TS_BlockedOnReply &&
        t->state != TS_Inactive)
        fail(c, INV_THREAD, "thread %s: a pending %s fault while %s (only blocked sending it, on reply, "
             "or inactive)", t->name, ks_fault_name(t->fault), ks_ts_name(t->state));
    /* master leaves the reference stale (reply_unlink, reply_push:
     * 4f4721706); check_replies */
    if (t->reply != KS_NONE && !reply_ref_state(t->state) && !cfg_has(&ks->cfg, KF_STALE_REPLY_REF))
        fail(c, INV_THREAD, "thread %s: holds reply %s while %s", t->name,
             ks_reply_name(ks, t->reply), ks_ts_name(t->state));
    if (t->in_release && !isRunnable(ks, i))
        fail(c, INV_THREAD, "thread %s: in the release queue while %s", t->name, ks_ts_name(t->state));
    if (t->fpu_live && !ks->cfg.fpu)
        fail(c, INV_THREAD, "thread %s: FPU state live in a build without an FPU", t->name);
}

/* TTBR0 changes only when a thread is switched to: to what setVMRoot
 * gives it (switchToThread -> Arch_switchToThread, src/kernel/thread.c:453,
 * src/arch/arm/64/kernel/vspace.c:735-758) or, for the idle thread, to the
 * global user vspace (Arch_switchToIdleThread, src/arch/arm/64/kernel/thread.c:28-34);
 * deleteASID, deleteASIDPool and the cache flushes that borrow another
 * vspace re-run setVMRoot(ksCurThread) (vspace.c:1051, 1073, 1133, 1221).
 * So it holds the current thread's vspace or the global one. Neither
 * direction is tied to the thread's VTable at an entry: a running thread
 * whose VTable cap copy is deleted while another copy keeps the vspace
 * mapped (no deleteASID) keeps running on it; and a thread that gives
 * itself a new VSpace (seL4_TCB_SetSpace on itself, invokeTCB_ThreadControlCaps,
 * src/object/tcb.c:1703-1720, 1751-1760) whose old VTable cap was the last
 * one runs deleteASID's setVMRoot(ksCurThread) with the old cap still in
 * the slot (vspace.c:1170-1187), so it returns on the global vspace under
 * a valid new VTable, with neither setVMRoot nor a reschedule after, and
 * enters the kernel so (its next instruction faults, or an interrupt
 * comes first). The global vspace under a user thread with a valid VTable
 * is therefore a state the kernel reaches, and not refused here. */
static void check_vspace(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int cur = ks->cur_thread;
    if (ks->vspace != KS_NONE && ks->vspace != cur)
        fail(c, INV_CURRENT, "TTBR0 holds thread %s's vspace while %s runs", T(ks->vspace), T(cur));
    else if (ks->vspace != KS_NONE && cur == ks->idle_thread)
        fail(c, INV_CURRENT, "the idle thread runs on a thread's vspace, not the global one");
}

static void check_current(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int cur = ks->cur_thread;
    const struct ks_tcb *t = &ks->tcbs[cur];
    if (t->state != TS_Running && t->state != TS_IdleThreadState && t->state != TS_Restart)
        fail(c, INV_CURRENT, "current thread %s is %s", t->name, ks_ts_name(t->state));
    if (t->queued || t->in_release)
        fail(c, INV_CURRENT, "current thread %s is in a ready or release queue", t->name);
    if (t->sc != ks->cur_sc)
        fail(c, INV_CURRENT, "current SC %s is not the current thread %s's SC (%s)", SC(ks->cur_sc),
             t->name, SC(t->sc));
    if (t->affinity != 0)
        fail(c, INV_CURRENT, "current thread %s is not on core 0", t->name);
    int sc = ks->cur_sc;
    if (ks->scs[sc].refill_max == 0)
        fail(c, INV_CURRENT, "current SC %s is not configured", SC(sc));
    else if (!ready_at(ks, sc, ks->cur_time))
        fail(c, INV_CURRENT, "current SC %s's head refill is not ready at ksCurTime", SC(sc));
    else if (!sufficient0(ks, sc))
        fail(c, INV_CURRENT, "current SC %s's head refill is below MIN_BUDGET", SC(sc));
    /* The kernel commits the old SC's time before a new one becomes current
     * (switchSchedContext, thread.c). PR #1227's switch does not when
     * checkBudget returned false for the domain's end (F2): the handler's SC
     * then holds the interrupted thread's ksConsumed (INV_ADMIT_INHERITED). */
    else if (sc != ks->idle_sc && ks->scs[sc].period != 0 && ks->consumed <= ks->cur_time &&
             rhead(ks, sc)->time > ks->cur_time - ks->consumed && !(c->admit & INV_ADMIT_INHERITED))
        fail(c, INV_CURRENT, "current SC %s's head refill starts after the pending consumption began "
             "(commitTime would leave it not ready)", SC(sc));
    if (cur != ks->idle_thread && t->domain != ks->cur_domain)
        fail(c, INV_CURRENT, "current thread %s is not in the current domain", t->name);
    check_vspace(c);
}

/* Walk one ready queue from its head; returns its length or -1 if broken. */
static int walk_ready(struct ctx *c, int core, int dom, int prio, int head)
{
    const struct kstate *ks = c->ks;
    int len = 0, prev = KS_NONE;
    for (int t = head; t != KS_NONE; prev = t, t = ks->tcbs[t].sched_next) {
        const struct ks_tcb *x = &ks->tcbs[t];
        if (++len > ks->n_tcbs || x->sched_prev != prev || !x->queued || x->affinity != core ||
            x->domain != dom || x->prio != prio) {
            fail(c, INV_READY_QUEUE, "ready queue core %d domain %d priority %d is badly linked at %s",
                 core, dom, prio, x->name);
            return -1;
        }
    }
    return len;
}

/* The latest clock read of any core (ksCurTime is per core, all read the
 * one system counter). A thread another core queued here was found ready
 * by that core's clock (possibleSwitchTo -> SCHED_ENQUEUE after
 * schedContext_resume or refill_unblock_check there), which can be ahead
 * of this core's last read until this core's updateTimestamp. */
static ticks_t latest_clock(const struct kstate *ks)
{
    ticks_t t = ks->cur_time;
    for (int k = 1; k < KS_MAX_CORES && ks->cfg.smp; k++)
        t = ks->core_time[k] > t ? ks->core_time[k] : t;
    return t;
}

static void check_ready_queues(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int counted = 0, flagged = 0;
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (!t->queued)
            continue;
        flagged++;
        if (!isSchedulable(ks, i)) {
            fail(c, INV_READY_QUEUE, "queued thread %s is not schedulable", t->name);
            continue;
        }
        if (!ready_at(ks, t->sc, latest_clock(ks)) || !sufficient0(ks, t->sc))
            fail(c, INV_READY_QUEUE, "queued thread %s's head refill is not ready and sufficient", t->name);
        if (t->in_release)
            fail(c, INV_READY_QUEUE, "thread %s is in both a ready queue and the release queue", t->name);
        if (t->sched_prev != KS_NONE)
            continue;
        if (ready_queue_head(ks, t->affinity, t->domain, t->prio) != i) {
            fail(c, INV_READY_QUEUE, "ready queue of %s has two heads", t->name);
            return;
        }
        int len = walk_ready(c, t->affinity, t->domain, t->prio, i);
        if (len < 0)
            return;
        counted += len;
    }
    if (counted != flagged)
        fail(c, INV_READY_QUEUE, "%d threads flagged queued but %d reachable from queue heads", flagged, counted);
}

static void check_bitmaps(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    uint64_t l1[KS_MAX_CORES][KS_MAX_DOMAINS] = {{0}};
    uint64_t l2[KS_MAX_CORES][KS_MAX_DOMAINS][KS_L2_SIZE] = {{{0}}};
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (!t->queued)
            continue;
        unsigned l1i = t->prio >> 6;
        l1[t->affinity][t->domain] |= 1ull << l1i;
        l2[t->affinity][t->domain][KS_L2_SIZE - 1 - l1i] |= 1ull << (t->prio & 63);
    }
    /* whole-array compares first: they almost always match, and the
     * row-by-row walk below only names the rows that do not */
    if (memcmp(ks->l1, l1, sizeof l1) == 0 && memcmp(ks->l2, l2, sizeof l2) == 0)
        return;
    for (int k = 0; k < KS_MAX_CORES; k++)
        for (int d = 0; d < KS_MAX_DOMAINS; d++)
            if (ks->l1[k][d] != l1[k][d] || memcmp(ks->l2[k][d], l2[k][d], sizeof l2[k][d]) != 0)
                fail(c, INV_BITMAP, "core %d domain %d: bitmaps do not match the ready queues", k, d);
}

static void check_release_queue(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int k = 0; k < KS_MAX_CORES; k++) {
        int len = 0, prev = KS_NONE, flagged = 0;
        for (int i = 0; i < ks->n_tcbs; i++)
            flagged += ks->tcbs[i].in_release && ks->tcbs[i].affinity == k;
        for (int t = ks->release_head[k]; t != KS_NONE; prev = t, t = ks->tcbs[t].sched_next) {
            const struct ks_tcb *x = &ks->tcbs[t];
            if (++len > ks->n_tcbs || x->sched_prev != prev || !x->in_release || x->affinity != k) {
                fail(c, INV_RELEASE_QUEUE, "core %d release queue badly linked at %s", k, x->name);
                return;
            }
            if (x->sc == KS_NONE || ks->scs[x->sc].refill_max == 0) {
                fail(c, INV_RELEASE_QUEUE, "thread %s in the release queue has no configured SC", x->name);
                return;
            }
            if (ks->scs[x->sc].period == 0)
                fail(c, INV_RELEASE_QUEUE, "thread %s in the release queue has a round-robin SC", x->name);
            if (!sufficient0(ks, x->sc))
                fail(c, INV_RELEASE_QUEUE, "thread %s in the release queue: head refill below MIN_BUDGET", x->name);
            if (prev != KS_NONE && rhead(ks, ks->tcbs[prev].sc)->time > rhead(ks, x->sc)->time)
                fail(c, INV_RELEASE_QUEUE, "release queue not sorted: %s before %s", T(prev), x->name);
        }
        if (len != flagged)
            fail(c, INV_RELEASE_QUEUE, "core %d: %d threads flagged in the release queue, %d in it", k,
                 flagged, len);
    }
}

static void check_sc(struct ctx *c, int i)
{
    const struct kstate *ks = c->ks;
    const struct ks_sc *s = &ks->scs[i];
    if (s->refill_max == 0) {
        if (s->sporadic)
            fail(c, INV_REFILLS, "SC %s: sporadic but not configured", s->name);
        return;
    }
    if (s->refill_max < MIN_REFILLS)
        fail(c, INV_REFILLS, "SC %s: refill_max %u below MIN_REFILLS (extra refills + 2)", s->name, s->refill_max);
    if (s->head >= s->refill_max || s->tail >= s->refill_max) {
        fail(c, INV_REFILLS, "SC %s: head %u / tail %u outside refill_max %u", s->name, s->head, s->tail,
             s->refill_max);
        return;
    }
    if (s->period == 0 && (refill_size(s) != MIN_REFILLS || s->refill_max != MIN_REFILLS))
        fail(c, INV_REFILLS, "SC %s: round robin needs exactly %u refills", s->name, MIN_REFILLS);
    if (s->period != 0 && s->budget >= s->period)
        fail(c, INV_REFILLS, "SC %s: budget must be below the period (equal means round robin)", s->name);
    if (!refill_ordered(s))
        fail(c, INV_REFILLS, "SC %s: refills overlap or are out of order", s->name);
    if (refill_sum(s) != s->budget)
        fail(c, INV_REFILLS, "SC %s: refills sum to %llu, budget is %llu", s->name,
             (unsigned long long)refill_sum(s), (unsigned long long)s->budget);
    if (s->refills[s->head].amount < ks->cfg.min_budget)
        fail(c, INV_REFILLS, "SC %s: head refill %llu below MIN_BUDGET %llu", s->name,
             (unsigned long long)s->refills[s->head].amount, (unsigned long long)ks->cfg.min_budget);
    unsigned cur = s->head, size = refill_size(s);
    for (unsigned n = 0; n < size; n++, cur = refill_next(s, cur)) {
        const struct ks_refill *r = &s->refills[cur];
        if (r->time >= ks->cfg.max_release || r->amount >= ks->cfg.max_release - r->time)
            fail(c, INV_REFILLS, "SC %s: refill %u ends beyond MAX_RELEASE_TIME", s->name, cur);
        if (s->period != 0 && cur != s->head && r->amount == 0)
            fail(c, INV_REFILLS, "SC %s: empty refill %u", s->name, cur);
    }
}

static void check_bindings(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (t->sc != KS_NONE && ks->scs[t->sc].tcb != i)
            fail(c, INV_BINDING, "thread %s names SC %s, which names %s", t->name, SC(t->sc),
                 T(ks->scs[t->sc].tcb));
        if (t->bound_ntfn != KS_NONE && ks->ntfns[t->bound_ntfn].bound_tcb != i)
            fail(c, INV_BINDING, "thread %s bound to notification %s, which is bound to %s", t->name,
                 N(t->bound_ntfn), T(ks->ntfns[t->bound_ntfn].bound_tcb));
        if (t->sc != KS_NONE && ks->cfg.smp && t->affinity != ks->scs[t->sc].core)
            fail(c, INV_BINDING, "thread %s is not on its SC's core", t->name);
    }
    for (int i = 0; i < ks->n_scs; i++) {
        const struct ks_sc *s = &ks->scs[i];
        if (s->tcb != KS_NONE && ks->tcbs[s->tcb].sc != i)
            fail(c, INV_BINDING, "SC %s names thread %s, which holds %s", s->name, T(s->tcb),
                 SC(ks->tcbs[s->tcb].sc));
        if (s->ntfn != KS_NONE && ks->ntfns[s->ntfn].sc != i)
            fail(c, INV_BINDING, "SC %s bound to notification %s, which names SC %s", s->name,
                 N(s->ntfn), SC(ks->ntfns[s->ntfn].sc));
    }
    for (int i = 0; i < ks->n_ntfns; i++) {
        const struct ks_ntfn *n = &ks->ntfns[i];
        if (n->bound_tcb != KS_NONE && ks->tcbs[n->bound_tcb].bound_ntfn != i)
            fail(c, INV_BINDING, "notification %s bound to %s, which is bound to %s", n->name,
                 T(n->bound_tcb), N(ks->tcbs[n->bound_tcb].bound_ntfn));
        if (n->sc != KS_NONE && ks->scs[n->sc].ntfn != i)
            fail(c, INV_BINDING, "notification %s names SC %s, which is bound to %s", n->name,
                 SC(n->sc), N(ks->scs[n->sc].ntfn));
    }
}

/* A thread queue (endpoint or notification): links, membership, MCS
 * priority order. Returns the number of members, or -1 if broken. */
static int walk_ipc_queue(struct ctx *c, int id, const char *what, const char *name, int head,
                          int tail, int state, int obj)
{
    const struct kstate *ks = c->ks;
    int len = 0, prev = KS_NONE;
    for (int t = head; t != KS_NONE; prev = t, t = ks->tcbs[t].ep_next) {
        const struct ks_tcb *x = &ks->tcbs[t];
        if (++len > ks->n_tcbs || x->ep_prev != prev) {
            fail(c, id, "%s %s: queue badly linked at %s", what, name, x->name);
            return -1;
        }
        if (x->state != state || x->blocking != obj)
            fail(c, id, "%s %s: queued thread %s is %s, not blocked on it", what, name, x->name,
                 ks_ts_name(x->state));
        if (prev != KS_NONE && ks->tcbs[prev].prio < x->prio)
            fail(c, id, "%s %s: queue not in priority order at %s", what, name, x->name);
    }
    if (prev != tail)
        fail(c, id, "%s %s: queue tail is not its last thread", what, name);
    return len;
}

static void check_ntfns(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int i = 0; i < ks->n_ntfns; i++) {
        const struct ks_ntfn *n = &ks->ntfns[i];
        int len = walk_ipc_queue(c, INV_NTFN, "notification", n->name, n->q_head, n->q_tail,
                                 TS_BlockedOnNotification, i);
        if (len < 0)
            continue;
        if ((n->state == NTFN_Waiting) != (len > 0))
            fail(c, INV_NTFN, "notification %s is %s with %d waiting threads", n->name,
                 ks_ntfn_state_name(n->state), len);
        int blocked = 0;
        for (int t = 0; t < ks->n_tcbs; t++) {
            const struct ks_tcb *x = &ks->tcbs[t];
            if (x->state != TS_BlockedOnNotification || x->blocking != i)
                continue;
            blocked++;
            if (n->bound_tcb != KS_NONE && n->bound_tcb != t)
                fail(c, INV_NTFN, "thread %s waits on %s, which is bound to %s", x->name, n->name,
                     T(n->bound_tcb));
        }
        if (blocked != len)
            fail(c, INV_NTFN, "notification %s: %d threads blocked on it, %d in its queue", n->name,
                 blocked, len);
    }
}

static void check_eps(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int i = 0; i < ks->n_eps; i++) {
        const struct ks_ep *e = &ks->eps[i];
        int state = e->state == EP_Recv ? TS_BlockedOnReceive : TS_BlockedOnSend;
        int len = walk_ipc_queue(c, INV_EP, "endpoint", e->name, e->q_head, e->q_tail, state, i);
        if (len < 0)
            continue;
        if ((e->state != EP_Idle) != (len > 0))
            fail(c, INV_EP, "endpoint %s is %s with %d queued threads", e->name,
                 ks_ep_state_name(e->state), len);
        int blocked = 0;
        for (int t = 0; t < ks->n_tcbs; t++) {
            const struct ks_tcb *x = &ks->tcbs[t];
            blocked += (x->state == TS_BlockedOnReceive || x->state == TS_BlockedOnSend) &&
                       x->blocking == i;
        }
        if (blocked != len)
            fail(c, INV_EP, "endpoint %s: %d threads blocked on it, %d in its queue", e->name, blocked, len);
    }
}

/* A thread blocks in an IPC queue only from a syscall that passed the
 * budget check (checkBudgetRestart, include/kernel/thread.h:289-297 at
 * 43607edb6), and a head refill that was ready stays ready; an SC is bound
 * to a blocked thread only if it is released (decodeSchedContext_Bind,
 * src/object/schedcontext.c:111; decodeTCB_Configure/SetSchedParams,
 * src/object/tcb.c:1345). Only SCs that are configured count.
 *
 * Two exceptions the kernel reaches:
 * - a thread blocked sending a timeout fault: endTimeslice
 *   (src/kernel/thread.c:623-625) calls handleTimeout right after
 *   chargeBudget charged the SC, without postponing it, so its head
 *   refill may lie in the future;
 * - an SC bound to a notification (and to no thread) need not be released
 *   at all: decodeSchedContext_Bind checks sc_released only for a thread
 *   cap (schedcontext.c:111), not for a notification cap (:118-128), so an
 *   SC postponed with its thread, then unbound (schedContext_unbindTCB,
 *   schedcontext.c:320-334, keeps the refills) and bound to a
 *   notification keeps a head refill in the future. Its head
 *   still holds MIN_BUDGET (INV_REFILLS). A passive handler woken by a
 *   signal then receives it through maybeDonateSchedContext, whose
 *   schedContext_resume postpones it (schedcontext.c:284-293). */
static void check_released(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int t = 0; t < ks->n_tcbs; t++) {
        const struct ks_tcb *x = &ks->tcbs[t];
        bool waiting = x->state == TS_BlockedOnNotification || x->state == TS_BlockedOnReceive ||
                       (x->state == TS_BlockedOnSend && x->fault == FAULT_None);
        if (!waiting || x->sc == KS_NONE || ks->scs[x->sc].refill_max == 0)
            continue;
        if (!ready_at(ks, x->sc, latest_clock(ks)) || !sufficient0(ks, x->sc))
            fail(c, INV_RELEASED, "blocked thread %s's SC %s is not ready and sufficient", x->name, SC(x->sc));
    }
}

static void check_replies(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int i = 0; i < ks->n_replies; i++) {
        int t = ks->replies[i].tcb;
        if (t != KS_NONE && ks->tcbs[t].reply != i)
            fail(c, INV_REPLY, "reply %s names %s, which holds reply %s", ks->replies[i].name, T(t),
                 ks_reply_name(ks, ks->tcbs[t].reply));
    }
    /* on master a thread not blocked receiving or on a reply may hold a
     * stale reference to any reply (reply_unlink and reply_push leave it,
     * 4f4721706); the kernel reads it only in those two states */
    for (int t = 0; t < ks->n_tcbs; t++) {
        int r = ks->tcbs[t].reply, st = ks->tcbs[t].state;
        if (r != KS_NONE && reply_ref_live(&ks->cfg, st) && ks->replies[r].tcb != t)
            fail(c, INV_REPLY, "thread %s holds reply %s, which names %s", T(t), ks_reply_name(ks, r),
                 T(ks->replies[r].tcb));
    }
}

/* The call stack (master src/object/reply.c): reply_push links a pushed
 * reply both ways with the SC's old head and the SC (:43-48), reply_pop
 * and reply_remove unlink it both ways (:66-70, :97-103), reply_remove_tcb
 * clears the SC's head or its successor's link to it (:121-131),
 * schedContext_unbindReply clears the head and the SC's link together
 * (schedcontext.c:409-413). Every path that unlinks a reply from its caller
 * (reply_unlink) clears its links first, and the ones that link it set
 * replyTCB to a caller it blocks on the reply (reply_push :32-33;
 * fastpath_call, fastpath.c:184-188). So the links are symmetric, and a
 * reply in a stack has a caller blocked on it. */
static void check_call_stack(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int s = 0; s < ks->n_scs; s++) {
        int r = ks->scs[s].reply;
        if (r != KS_NONE && ks->replies[r].sc_head != s)
            fail(c, INV_CALL_STACK, "SC %s's call stack head %s does not name it back", SC(s), ks_reply_name(ks, r));
    }
    for (int i = 0; i < ks->n_replies; i++) {
        const struct ks_reply *r = &ks->replies[i];
        if (r->sc_head != KS_NONE && (ks->scs[r->sc_head].reply != i || r->next != KS_NONE))
            fail(c, INV_CALL_STACK, "reply %s heads SC %s's call stack, which has another head or successor",
                 r->name, SC(r->sc_head));
        if (r->next != KS_NONE && ks->replies[r->next].prev != i)
            fail(c, INV_CALL_STACK, "reply %s's successor %s does not name it back", r->name,
                 ks_reply_name(ks, r->next));
        if (r->prev != KS_NONE && ks->replies[r->prev].next != i)
            fail(c, INV_CALL_STACK, "reply %s's predecessor %s does not name it back", r->name,
                 ks_reply_name(ks, r->prev));
        bool linked = r->prev != KS_NONE || r->next != KS_NONE || r->sc_head != KS_NONE;
        if (linked && (r->tcb == KS_NONE || ks->tcbs[r->tcb].state != TS_BlockedOnReply))
            fail(c, INV_CALL_STACK, "reply %s is on a call stack without a caller blocked on it", r->name);
    }
}

static void check_time(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    ticks_t max = ks->cfg.max_release;
    if (ks->cur_time > ks->hw_clock)
        fail(c, INV_TIME, "ksCurTime %llu is later than the hardware clock %llu",
             (unsigned long long)ks->cur_time, (unsigned long long)ks->hw_clock);
    if (ks->hw_clock >= max)
        fail(c, INV_TIME, "hardware clock %llu is not below MAX_RELEASE_TIME %llu",
             (unsigned long long)ks->hw_clock, (unsigned long long)max);
    if (ks->consumed > ks->cur_time)
        fail(c, INV_TIME, "ksConsumed %llu exceeds ksCurTime %llu", (unsigned long long)ks->consumed,
             (unsigned long long)ks->cur_time);
}

/* An entry of base's schedule is a domain and a whole number of ms above 0
 * (base src/config/default_domain.c; boot.c asserts ksDomainTime > 0);
 * master's durations are ticks, 0 only in an end marker, which is all
 * zero (decodeDomainScheduleConfigure, master src/object/domain.c) */
static void check_dom_entry(struct ctx *c, int i)
{
    const struct kstate *ks = c->ks;
    unsigned d = dschedule_domain(ks->dom_sched[i]);
    ticks_t t = dschedule_duration(ks->dom_sched[i]), tpm = cfg_us_to_ticks(&ks->cfg, 1000);
    if (d >= ks->cfg.num_domains)
        fail(c, INV_DOMAIN, "domain schedule entry %d: domain %u >= number of domains %u", i, d, ks->cfg.num_domains);
    if (cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME)) {
        if (t == 0 && d != 0)
            fail(c, INV_DOMAIN, "domain schedule entry %d: duration 0 with domain %u (only an end marker has 0)", i, d);
    } else if (t == 0 || tpm == 0 || t % tpm != 0) {
        fail(c, INV_DOMAIN, "domain schedule entry %d: %llu ticks is not a whole number of ms above 0 (base's lengths are ms)",
             i, (unsigned long long)t);
    }
}

/* Base: the current domain is the current entry's, and entry 0 starts
 * (thread.c nextDomain). Master: the start entry is never an end marker
 * (decodeDomainScheduleSetStart refuses one, decodeDomainScheduleConfigure
 * refuses to make it one; boot.c:637 sets entry 0 to DSCHED_MAX_DURATION),
 * and the current entry may have been reconfigured since nextDomain
 * read it ("the change will not apply until the next time this entry is
 * reached", libsel4 object-api.xml), so it says nothing of the domain. */
/* From a domain's end on, the kernel keeps no other domain's thread's FPU
 * or VCPU state on a core: prepareNextDomain releases the FPU owner
 * (f1517d51d, master src/kernel/thread.c:317-324) and flushes the VCPU
 * (e558631c7, src/arch/arm/kernel/thread.c:14-19); lazyFPURestore and
 * vcpu_switch then load only the thread switchToThread runs, which
 * schedule() took from ksCurDomain's queues. A thread leaves its domain
 * only by setDomain, which prepareSetDomain precedes with fpuRelease
 * (35ec2554b) and vcpu_flush_if_current (01c3487ef, thread.c:306-315):
 * the trees between, which lack those, are the bugs those two fixed. Two
 * domains or more, so one core (an SMP kernel has one domain, the
 * `config` rule). */
bool inv_domain_rule_fpu(const struct kstate *ks)
{
    return ks->cfg.num_domains > 1 && ks->cfg.fpu && cfg_has(&ks->cfg, KF_FPU_RELEASE_AT_DOMAIN_END);
}

bool inv_domain_rule_vcpu(const struct kstate *ks)
{
    return ks->cfg.num_domains > 1 && ks->cfg.hyp && cfg_has(&ks->cfg, KF_VCPU_FLUSH_AT_DOMAIN_END);
}

int inv_domain_vcpu_thread(const struct kstate *ks)
{
    int v = ks->cur_vcpu;
    if (v == KS_NONE || v >= ks->n_vcpus)
        return KS_NONE;
    int t = ks->vcpus[v].tcb;
    return t >= 0 && t < ks->n_tcbs && ks->tcbs[t].domain != ks->cur_domain ? t : KS_NONE;
}

static void check_domain_owners(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    if (inv_domain_rule_fpu(ks))
        for (int i = 0; i < ks->n_tcbs; i++)
            if (ks->tcbs[i].fpu_live && ks->tcbs[i].domain != ks->cur_domain)
                fail(c, INV_DOMAIN, "thread %s of domain %u owns the FPU in domain %u", T(i), ks->tcbs[i].domain,
                     ks->cur_domain);
    int t = inv_domain_rule_vcpu(ks) ? inv_domain_vcpu_thread(ks) : KS_NONE;
    if (t != KS_NONE)
        fail(c, INV_DOMAIN, "VCPU %s of thread %s (domain %u) loaded in domain %u", ks_vcpu_name(ks, ks->cur_vcpu),
             T(t), ks->tcbs[t].domain, ks->cur_domain);
}

static void check_domains(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    unsigned nd = ks->cfg.num_domains;
    if (ks->cur_domain >= nd)
        fail(c, INV_DOMAIN, "current domain %u >= number of domains %u", ks->cur_domain, nd);
    for (int i = 0; i < ks->dom_len; i++)
        check_dom_entry(c, i);
    if (cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME)) {
        if (dschedule_is_end_marker(ks, ks->dom_start))
            fail(c, INV_DOMAIN, "domain schedule start %u is an end marker", ks->dom_start);
    } else if (ks->dom_start != 0) {
        fail(c, INV_DOMAIN, "domain schedule start %u: base wraps to entry 0 (ksDomScheduleStart is master's)",
             ks->dom_start);
    } else if (dschedule_domain(ks->dom_sched[ks->dom_idx]) != ks->cur_domain) {
        fail(c, INV_DOMAIN, "current domain %u is not the schedule's entry %u (domain %u)", ks->cur_domain,
             ks->dom_idx, dschedule_domain(ks->dom_sched[ks->dom_idx]));
    }
    /* updateTimestamp zeroes ksDomainTime only when the domain ends, and
     * schedule() then switches domain (checkDomainTime,
     * include/kernel/thread.h:251-257; nextDomain refills it) before user
     * level runs; PR #1227's fastpath returns without it (F2) */
    if (ks->domain_time == 0 && !(c->admit & INV_ADMIT_DOMAIN_END))
        fail(c, INV_DOMAIN, "domain time is 0: the domain expired without a switch");
    check_domain_owners(c);
}

/* The GIC's active state and masks at user level. EOImode 0 (GICv2, and
 * GICv3 at 43607edb6): ackInterrupt's EOI write deactivates every IRQ the
 * kernel takes, so none is active. Master's GICv3 split EOI (a4b0c8d36)
 * deactivates in ackInterrupt unless the IRQ is in range and IRQSignal
 * (gic_v3.h:345-367): it stays active until IRQHandler_Ack's
 * deactivateInterrupt (interrupt.c:159-163). Its state can change from
 * IRQSignal only to IRQInactive (deletedIRQHandler, setIRQState; IRQTimer,
 * IRQIPI and IRQReserved are set at boot only), so an active IRQ is
 * IRQSignal or IRQInactive. There a signal IRQ is never masked:
 * setIRQState(IRQSignal) unmasks (interrupt.c:287-297, from invokeIRQControl),
 * handleInterrupt masks only without GICv3 (:232-235), IRQHandler_Ack
 * does not touch the mask; the other maskInterrupt(true) calls are for
 * IRQs above maxIRQ, IRQInactive ones, boot and VPPI events (vcpu.c:130).
 * An active IRQInactive one lost its handler (deletedIRQHandler ->
 * setIRQState(IRQInactive), which masks it) and only setIRQState to
 * another state unmasks it again, so it is masked. */
static void check_irq_active(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    bool split = cfg_split_eoi(&ks->cfg);
    if (ks->oor_active)
        fail(c, INV_IRQ, "IRQ %d above maxIRQ is left active: ackInterrupt deactivates it", (int)ks->oor_irq);
    for (int u = 0; u < c->n_used; u++) {
        int i = c->used[u], st = ks->irq_state[i];
        if (split && st == IRQ_Signal && ks->irq_masked[i] && !(c->admit & INV_ADMIT_MASKED))
            fail(c, INV_IRQ, "IRQ %d is a masked signal IRQ: master on GICv3 never masks one", i);
        if (!ks->irq_active[i])
            continue;
        if (!split)
            fail(c, INV_IRQ, "IRQ %d is active at user level: the EOI write deactivates it (EOImode 0)", i);
        else if (i > (int)ks->cfg.max_irq || (st != IRQ_Signal && st != IRQ_Inactive))
            fail(c, INV_IRQ, "IRQ %d (%s) is active at user level: ackInterrupt deactivates it", i,
                 ks_irq_state_name(st));
        else if (st == IRQ_Inactive && !ks->irq_masked[i])
            fail(c, INV_IRQ, "IRQ %d is inactive, active at the GIC and unmasked: its deletion masked it", i);
    }
}

static void check_irqs(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    for (int u = 0; u < c->n_used; u++) {
        int i = c->used[u];
        /* an IRQ's target core is written only by setIRQTarget, which
         * _GetTriggerCore calls for an SPI with a target below
         * CONFIG_MAX_NUM_NODES (arm/object/interrupt.c:164-168, 197-199 at
         * 1326364bc); the trigger is the only other bit held */
        unsigned core = ks_irq_core(ks->irq_cfg[i]);
        if (core && (i < KS_NUM_PPI || core >= (ks->cfg.smp ? KS_MAX_CORES : 1u)))
            fail(c, INV_IRQ, "IRQ %d is routed to core %u: only an SPI of a two-core build is routed, to core 0 or 1", i,
                 core);
        /* GICv3's setIRQTrigger returns for an SGI (gic_v3.c:368-370) */
        if ((ks->irq_cfg[i] & KS_IRQ_EDGE) && ks->cfg.gic_version == 3 && i < KS_NUM_SGI)
            fail(c, INV_IRQ, "SGI %d is edge-triggered: GICv3's SGI configuration is read-only and never written", i);
        if (ks->irq_state[i] == IRQ_Inactive && ks->irq_cap[i].type == CAP_Null)
            continue;
        if (ks->irq_state[i] >= IRQ_STATE_COUNT || ks->irq_cap[i].type >= CAP_TYPE_COUNT) {
            fail(c, INV_IRQ, "IRQ %d: state or cap type out of range", i);
            continue;
        }
        if (i > (int)ks->cfg.max_irq && ks->irq_state[i] != IRQ_Inactive)
            fail(c, INV_IRQ, "IRQ %d above maxIRQ %u is %s", i, ks->cfg.max_irq,
                 ks_irq_state_name(ks->irq_state[i]));
        if (ks->irq_state[i] == IRQ_IPI && !ks->cfg.smp)
            fail(c, INV_IRQ, "IRQ %d is an IPI in a single-core build", i);
        /* setIRQState(IRQIPI, ...) only at boot, for irq_remote_call_ipi and
         * irq_reschedule_ipi (src/arch/arm/kernel/boot.c:148-149, 275-276);
         * IRQ control issues handlers in state IRQSignal only */
        else if (ks->irq_state[i] == IRQ_IPI && i != KS_IRQ_REMOTE_CALL_IPI && i != KS_IRQ_RESCHEDULE_IPI)
            fail(c, INV_IRQ, "IRQ %d is an IPI; the kernel makes only IRQs 0 and 1 IPIs", i);
    }
    check_irq_active(c);
    if (ks->oor_irq != KS_IRQ_INVALID && (ks->oor_irq <= (int)ks->cfg.max_irq || ks->oor_irq >= KS_MAX_IRQS))
        fail(c, INV_IRQ, "IRQ %d recorded as above maxIRQ %u is not", (int)ks->oor_irq, ks->cfg.max_irq);
    if (ks->active_irq < KS_IRQ_INVALID || ks->active_irq >= KS_MAX_IRQS)
        fail(c, INV_IRQ, "active IRQ %d out of range", (int)ks->active_irq);
}

/* fpu_live is nativeThreadUsingFPU(): the thread's FPU state is the one
 * ksActiveFPUState of its affinity core points at (include/machine/fpu.h:28),
 * one pointer per core, so at most one such thread per core. */
static void check_fpu_owners(struct ctx *c, int cores)
{
    const struct kstate *ks = c->ks;
    int owner[KS_MAX_CORES] = {KS_NONE, KS_NONE};
    for (int i = 0; i < ks->n_tcbs; i++) {
        int k = ks->tcbs[i].affinity;
        if (!ks->tcbs[i].fpu_live || k >= cores)
            continue;
        if (owner[k] != KS_NONE)
            fail(c, INV_SMP, "threads %s and %s both own the FPU of core %d", T(owner[k]), T(i), k);
        owner[k] = i;
    }
    /* seL4_TCBFlag_fpuDisabled is set only by invokeSetFlags, which
     * releases the thread's FPU state then (fpuRelease, master
     * src/object/tcb.c:808-810), and lazyFPURestore gives a flagged thread
     * none (include/machine/fpu.h:30-38); the mask lets no flag be set
     * without an FPU (seL4_TCBFlag_MASK, libsel4 constants.h:78-81). */
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (t->fpu_disabled && (!ks->cfg.fpu || !cfg_has(&ks->cfg, KF_TCB_FLAGS)))
            fail(c, INV_THREAD, "thread %s: fpuDisabled in a build without an FPU or TCB flags", t->name);
        else if (t->fpu_disabled && t->fpu_live)
            fail(c, INV_SMP, "thread %s: fpuDisabled, yet its FPU state is live", t->name);
    }
    /* Master: every switch to a thread without seL4_TCBFlag_fpuDisabled
     * makes it its core's FPU owner (lazyFPURestore in switchToThread,
     * thread.c:477, and switchToThread_fp, fastpath.h:45-47; c4501d5ed),
     * and the idle threads carry the flag. A running thread loses it only
     * by fpuRelease (migrateTCB to another core, after which it does not
     * run here; TCB_SetDomain of another domain, after which schedule()
     * does not pick it; TCB_SetFlags setting the flag) or
     * prepareNextDomain, which a switch follows; TCB_SetFlags clearing the
     * caller's own flag restores it at once (78c3b11a0, tcb.c:811-814: the
     * trees before it are the bug that commit fixed). So a core's current
     * thread, unless idle or flagged, owns it. */
    if (!cfg_has(&ks->cfg, KF_FPU_OWNER_AT_SWITCH) || !ks->cfg.fpu)
        return;
    for (int k = 0; k < cores; k++) {
        int cur = k ? ks->core_cur[k] : ks->cur_thread, idle = k ? ks->core_idle[k] : ks->idle_thread;
        if (cur != idle && cur != KS_NONE && !ks->tcbs[cur].fpu_live && !ks->tcbs[cur].fpu_disabled)
            fail(c, INV_SMP, "core %d's current thread %s does not own the FPU: master's switch gives it", k,
                 T(cur));
    }
}

static void check_smp(struct ctx *c)
{
    const struct kstate *ks = c->ks;
    int cores = ks_cores(ks);
    for (int i = 0; i < ks->n_tcbs; i++)
        if (ks->tcbs[i].affinity >= cores)
            fail(c, INV_SMP, "thread %s on core %u of %d", T(i), ks->tcbs[i].affinity, cores);
    for (int i = 0; i < ks->n_scs; i++)
        if (ks->scs[i].core >= cores)
            fail(c, INV_SMP, "SC %s on core %u of %d", SC(i), ks->scs[i].core, cores);
    for (int k = 1; k < cores; k++) {
        int cur = ks->core_cur[k], idle = ks->core_idle[k];
        if (cur == KS_NONE || idle == KS_NONE) {
            fail(c, INV_SMP, "core %d has no current or idle thread", k);
            continue;
        }
        if (ks->tcbs[cur].affinity != k || ks->tcbs[cur].queued)
            fail(c, INV_SMP, "core %d's current thread %s is not running there", k, T(cur));
    }
    check_fpu_owners(c, cores);
}

/* A reschedule IPI for this core is in flight: sent by another core's
 * doMaskReschedule (src/smp/ipi.c) and pending at the GIC (ipi_sent), or
 * being taken by this entry. Until it is taken this core runs on at user
 * level with the queues the other core changed: remoteQueueUpdate
 * (src/object/tcb.c:442-458) sends it exactly when the thread it queued
 * outranks this core's current one (or this core is idle), and
 * remoteTCBStall (tcb.c:464-476) after moving this core's thread back to
 * its ready queue and this core to its idle thread (ipiStallCoreCallback,
 * src/smp/ipi.c:67-79). */
static bool resched_ipi_in_flight(const struct kstate *ks, enum inv_when when)
{
    int a = ks->active_irq;
    bool taking = when == INV_AT_ENTRY && a == KS_IRQ_RESCHEDULE_IPI && a < ks->n_irqs && ks->irq_state[a] == IRQ_IPI;
    return ks->cfg.smp && ((ks->ipi_sent & (1u << CUR_CORE)) || taking);
}

/* Holds whenever user level runs: at entry and at exit of the kernel.
 * Every kernel exit of the slowpath runs schedule() (handleInterruptEntry
 * and the other entries end with schedule(); activateThread(),
 * src/api/syscall.c:61,224,236,253,627), which leaves ksSchedulerAction ResumeCurrentThread
 * (src/kernel/thread.c:398), ipiReschedulePending 0 after sending the IPIs
 * (thread.c:399-402) and ksReprogram clear (thread.c:407-410); the IPC
 * fastpaths (fastpath_call, fastpath_reply_recv) touch none of them. On one
 * core nothing else writes them between two entries. On SMP, another core
 * sets this core's ksReprogram while this one is at user level or waiting
 * for the lock, with no IPI (tcbReleaseRemove/tcbReleaseEnqueue,
 * src/object/tcb.c:268,299, and postpone, thread.c:572): admitted on SMP;
 * and it queues a thread here that outranks the current one only with a
 * reschedule IPI in flight (resched_ipi_in_flight): admitted then. (The base
 * kernel's optional signal fastpath, KernelSignalFastpath, default OFF,
 * leaves ksReprogram and ipiReschedulePending set too, src/fastpath/
 * fastpath.c:703,711-712.)
 * A fastpath under review may leave some of these: c->admit. */
static void check_user(struct ctx *c, enum inv_when when)
{
    const struct kstate *ks = c->ks;
    /* S9: the other core's signal fastpath marked this core's IPI and
     * returned without sending it; it is owed, not yet in flight */
    bool owed = (c->admit & INV_ADMIT_IPI) && (ks->core_ipi_pending[1] & (1u << CUR_CORE));
    bool ipi = resched_ipi_in_flight(ks, when) || owed;
    if (ks->sched_action != KS_SA_RESUME && !(c->admit & INV_ADMIT_ACTION))
        fail(c, INV_ENTRY, "scheduler action is not ResumeCurrentThread at a user-level boundary");
    if (ks->reprogram && !(c->admit & INV_ADMIT_REPROGRAM) && !ks->cfg.smp)
        fail(c, INV_ENTRY, "ksReprogram is left set at a user-level boundary");
    for (int k = 0; k < KS_MAX_CORES && !(c->admit & INV_ADMIT_IPI); k++) {
        uint8_t p = k == 0 ? ks->ipi_pending : ks->core_ipi_pending[k];
        if (p)
            fail(c, INV_ENTRY, "ipiReschedulePending %#x of core %d is left set at a user-level boundary", p, k);
    }
    if (ks->tcbs[ks->cur_thread].state == TS_Restart)
        fail(c, INV_ENTRY, "current thread %s is in Restart at a user-level boundary", T(ks->cur_thread));
    int dom = ks->cur_domain, cur = ks->cur_thread;
    for (int i = 0; i < ks->n_tcbs; i++) {
        const struct ks_tcb *t = &ks->tcbs[i];
        if (!t->queued || t->affinity != 0 || t->domain != dom || (c->admit & INV_ADMIT_OUTRANKED) || ipi)
            continue;
        if (cur == ks->idle_thread || t->prio > ks->tcbs[cur].prio)
            fail(c, INV_ENTRY, "ready thread %s (priority %u) outranks the running %s", t->name,
                 t->prio, T(cur));
    }
    int a = ks->active_irq;
    /* a device IRQ is taken past the deadline only within one kernel entry
     * (WCET): the GIC takes the timer PPI first at user level. The kernel
     * gives every IRQ one priority (gic_v2.c:75-81, gic_v3.c:158-162), so
     * that order is the GIC's among equals; docs/model.md, "GIC priorities",
     * and docs/results/reachability.md (a bound 16 times wider) */
    ticks_t wcet = cfg_wcet(&ks->cfg);
    bool timer = a >= 0 && a < ks->n_irqs && ks->irq_state[a] == IRQ_Timer;
    if (when == INV_AT_ENTRY && !timer && ks->deadline < ks->hw_clock && ks->hw_clock - ks->deadline > wcet)
        fail(c, INV_ENTRY, "entry clock %llu is %llu ticks past the timer deadline %llu: the timer IRQ would come first",
             (unsigned long long)ks->hw_clock, (unsigned long long)(ks->hw_clock - ks->deadline),
             (unsigned long long)ks->deadline);
    if (when == INV_AT_ENTRY && a >= 0 && a < ks->n_irqs && ks->irq_masked[a])
        fail(c, INV_ENTRY, "active IRQ %d is masked: the GIC would not deliver it", a);
    /* the GIC signals an IRQ only while it is pending and not active */
    if (when == INV_AT_ENTRY && a >= 0 && a < ks->n_irqs && ks->irq_active[a])
        fail(c, INV_ENTRY, "IRQ %d is taken while active at the GIC: the GIC would not deliver it", a);
}

/* The inputs of a system-call entry fit the state whenever a state carries
 * them (the shrinker may delete the notification they name): its target's
 * rule, the one the scenario reader applies (struct target_line). */
static void check_sysin(struct ctx *c)
{
    const struct target *t = target_get_rank(c->ks->sys.entry, c->ks->sys.target);
    if (!target_get(c->ks->sys.entry)) {
        fail(c, INV_INDEX, "entry kind %u out of range", c->ks->sys.entry);
        return;
    }
    if (!t) {
        fail(c, INV_INDEX, "entry kind %s has no fastpath under check of rank %u", ks_entry_name(c->ks->sys.entry),
             c->ks->sys.target);
        return;
    }
    char why[160];
    if (t->line && t->line->misfit(c->ks, why, sizeof why))
        fail(c, INV_INDEX, "syscall: %s", why);
}

/* A SysSend entry: the current thread made it from user level. Not the idle
 * thread (it runs idle_thread, a wfi loop, src/arch/arm/64/idle.S, and makes
 * no system call), Running (a thread in Restart is not at user level:
 * check_user), and no IRQ is taken (the svc is a synchronous exception;
 * c_handle_syscall reads no IRQ). A pending fault (tcbFault) is ruled out
 * by check_thread: on MCS it is set only by sendFaultIPC, which blocks the
 * thread, and cleared before it runs again (doReplyTransfer,
 * src/kernel/thread.c:173-174; cancelIPC, src/object/endpoint.c:331-333, on
 * restart; restart_thread_if_no_fault leaves a faulted thread Inactive). */
static void check_syscall_entry(struct ctx *c, enum inv_when when)
{
    const struct kstate *ks = c->ks;
    if (when != INV_AT_ENTRY || !target_of(ks)->syscall_entry)
        return;
    if (ks->cur_thread == ks->idle_thread)
        fail(c, INV_ENTRY, "syscall entry: the idle thread makes no system calls");
    else if (ks->tcbs[ks->cur_thread].state != TS_Running)
        fail(c, INV_ENTRY, "syscall entry: the caller %s is %s, not Running", T(ks->cur_thread),
             ks_ts_name(ks->tcbs[ks->cur_thread].state));
    if (ks->active_irq != KS_IRQ_INVALID)
        fail(c, INV_ENTRY, "syscall entry: IRQ %d is active; a system call takes no IRQ (irq none)",
             (int)ks->active_irq);
}

int inv_admit_parse(const char *s, unsigned *out)
{
    static const char *const names[] = {"action", "reprogram", "outranked", "domain_end", "masked", "inherited", "ipi"};
    int v = fp_variant_parse(s);
    *out = 0;
    if (v >= 0) { /* pr1227|fixed: PR #1227's variants, those of the IRQ entry's target */
        *out = target_admit_left_by(target_get(ENTRY_IRQ), v);
        return 0;
    }
    if (strcmp(s, "none") == 0)
        return 0;
    if (strcmp(s, "all") == 0) {
        *out = INV_ADMIT_ALL;
        return 0;
    }
    while (*s) {
        size_t n = strcspn(s, ",");
        unsigned bit = 0;
        for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i]) == n && strncmp(s, names[i], n) == 0)
                bit = 1u << i;
        if (!bit)
            return -1;
        *out |= bit;
        s += n;
        if (*s == ',' && *++s == '\0')
            return -1;
    }
    return 0;
}

int kstate_check(const struct kstate *ks, enum inv_when when, struct inv_report *r)
{
    return kstate_check_admit(ks, when, 0, r);
}

int kstate_check_admit(const struct kstate *ks, enum inv_when when, unsigned admit, struct inv_report *r)
{
    /* what the configuration's other fastpaths leave is always admitted */
    struct ctx c; /* (not zeroed: used[] is written before it is read, find_irqs) */
    c.ks = ks;
    c.r = r;
    c.admit = admit | target_admit_built(ks);
    c.n_used = 0;
    r->n = 0;
    check_config(&c);
    if (!check_indices(&c))
        return r->n;
    check_idle(&c);
    for (int i = 0; i < ks->n_tcbs; i++)
        check_thread(&c, i);
    check_current(&c);
    check_ready_queues(&c);
    check_bitmaps(&c);
    check_release_queue(&c);
    for (int i = 0; i < ks->n_scs; i++)
        check_sc(&c, i);
    check_bindings(&c);
    check_ntfns(&c);
    check_eps(&c);
    check_replies(&c);
    check_call_stack(&c);
    check_released(&c);
    check_time(&c);
    check_domains(&c);
    check_irqs(&c);
    check_smp(&c);
    check_user(&c, when);
    check_sysin(&c);
    check_syscall_entry(&c, when);
    check_fault_queued(&c);
    check_vcpus(&c);
    return r->n;
}
