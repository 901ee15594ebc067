/* build: helpers that construct states the kernel can reach. */
#include "build.h"

#include "refill.h"
#include "reply.h"
#include "sched.h"
#include "tcbqueue.h"
#include "vcpuswitch.h"
#include "vspace.h"

int build_thread(struct kstate *ks, const char *name, int prio, int dom)
{
    int t = ks_add_tcb(ks, name);
    if (t == KS_NONE)
        return t;
    ks->tcbs[t].prio = (uint8_t)prio;
    ks->tcbs[t].domain = (uint8_t)dom;
    return t;
}

static int new_sc(struct kstate *ks, const char *name, int t)
{
    int sc = ks_add_sc(ks, name);
    if (sc == KS_NONE || t == KS_NONE)
        return sc;
    ks->scs[sc].tcb = (int8_t)t;
    ks->tcbs[t].sc = (int8_t)sc;
    ks->scs[sc].core = ks->tcbs[t].affinity;
    return sc;
}

int build_sc(struct kstate *ks, const char *name, int t, ticks_t budget, ticks_t period, ticks_t start)
{
    int sc = new_sc(ks, name, t);
    if (sc != KS_NONE)
        refill_new(ks, sc, period == 0 ? MIN_REFILLS : KS_MAX_REFILLS, budget, period, start);
    return sc;
}

int build_sc_unconfigured(struct kstate *ks, const char *name, int t)
{
    return new_sc(ks, name, t);
}

int build_ntfn(struct kstate *ks, const char *name)
{
    return ks_add_ntfn(ks, name);
}

int build_ep(struct kstate *ks, const char *name)
{
    return ks_add_ep(ks, name);
}

void build_run(struct kstate *ks, int t)
{
    ks->tcbs[t].state = TS_Running;
    ks->cur_thread = (int8_t)t;
    ks->cur_sc = ks->tcbs[t].sc;
    /* TTBR0 as the switch that made t current left it (switchToThread ->
     * Arch_switchToThread): setVMRoot, which on a hyp build also gives the
     * thread's ASID a VMID */
    setVMRoot(ks, t);
}

void build_ready(struct kstate *ks, int t)
{
    ks->tcbs[t].state = TS_Running;
    tcbSchedAppend(ks, t);
}

void build_release(struct kstate *ks, int t)
{
    ks->tcbs[t].state = TS_Running;
    tcbReleaseEnqueue(ks, t);
}

void build_wait_ntfn(struct kstate *ks, int t, int n)
{
    struct ks_ntfn *ntfn = &ks->ntfns[n];
    tcbEPAppend(ks, t, &ntfn->q_head, &ntfn->q_tail);
    ntfn->state = NTFN_Waiting;
    ks->tcbs[t].state = TS_BlockedOnNotification;
    ks->tcbs[t].blocking = (int8_t)n;
}

static void block_on_ep(struct kstate *ks, int t, int e, int ep_state, int ts)
{
    struct ks_ep *ep = &ks->eps[e];
    tcbEPAppend(ks, t, &ep->q_head, &ep->q_tail);
    ep->state = (uint8_t)ep_state;
    ks->tcbs[t].state = (uint8_t)ts;
    ks->tcbs[t].blocking = (int8_t)e;
}

void build_recv_ep(struct kstate *ks, int t, int e, int r)
{
    block_on_ep(ks, t, e, EP_Recv, TS_BlockedOnReceive);
    if (r == KS_NONE)
        return;
    ks->tcbs[t].reply = (int8_t)r;
    ks->replies[r].tcb = (int8_t)t;
}

void build_send_ep(struct kstate *ks, int t, int e)
{
    block_on_ep(ks, t, e, EP_Send, TS_BlockedOnSend);
}

int build_call_push(struct kstate *ks, int t, int sc, const char *reply_name)
{
    int r = ks_add_reply(ks, reply_name);
    if (r == KS_NONE)
        return KS_NONE;
    call_stack_push(ks, r, sc);
    ks->replies[r].tcb = (int8_t)t;
    ks->tcbs[t].state = TS_BlockedOnReply;
    ks->tcbs[t].reply = (int8_t)r;
    return r;
}

void build_bind_ntfn(struct kstate *ks, int t, int n)
{
    ks->tcbs[t].bound_ntfn = (int8_t)n;
    ks->ntfns[n].bound_tcb = (int8_t)t;
}

void build_bind_sc_ntfn(struct kstate *ks, int sc, int n)
{
    ks->scs[sc].ntfn = (int8_t)n;
    ks->ntfns[n].sc = (int8_t)sc;
}

void build_irq_state(struct kstate *ks, int irq, int state)
{
    ks_irq_touch(ks, irq);
    ks->irq_state[irq] = (uint8_t)state;
}

void build_hyp_boot(struct kstate *ks)
{
    ks->cfg.hyp = true;
    for (int irq = INTERRUPT_VGIC_MAINTENANCE; irq <= INTERRUPT_VTIMER_EVENT; irq += 2) {
        build_irq_state(ks, irq, IRQ_Reserved);
        ks->irq_cap[irq].type = CAP_Null;
        ks->irq_cap[irq].ntfn = KS_NONE;
        ks->irq_masked[irq] = false;
        ks->irq_active[irq] = false;
    }
}

void build_irq_signal(struct kstate *ks, int irq, int n, uint64_t badge, bool can_send)
{
    build_irq_state(ks, irq, IRQ_Signal);
    struct ks_irq_cap *cap = &ks->irq_cap[irq];
    cap->type = CAP_Notification;
    cap->ntfn = (int8_t)n;
    cap->badge = badge;
    cap->can_send = can_send;
}

/* setNextInterrupt as evaluated at the last commit, ksConsumed ago: the
 * head amount counts from then, the domain time was longer by as much. */
void build_deadline(struct kstate *ks)
{
    ticks_t then = ks->cur_time - ks->consumed;
    ticks_t next = then + refill_head(ks, ks->tcbs[ks->cur_thread].sc)->amount;
    if (ks->cfg.num_domains > 1 && ks->cur_time + ks->domain_time < next)
        next = ks->cur_time + ks->domain_time;
    int rh = ks->release_head[0];
    if (rh != KS_NONE && refill_head(ks, ks->tcbs[rh].sc)->time < next)
        next = refill_head(ks, ks->tcbs[rh].sc)->time;
    ks->deadline = next - ks->cfg.precision;
}

int build_core1(struct kstate *ks)
{
    ks->cfg.smp = true;
    int idle1 = build_thread(ks, "idle1", 0, 0);
    ks->tcbs[idle1].state = TS_IdleThreadState;
    ks->tcbs[idle1].affinity = 1;
    ks->core_cur[1] = ks->core_idle[1] = (int8_t)idle1;
    return idle1;
}

/* configure_sched_context in create_idle_thread: the idle SC's budget is
 * usToTicks(BOOT_THREAD_TIME_SLICE ms), 5 ms, at 43607edb6 (boot.c:483-484,
 * ks_init) and MAX_PERIOD_TICKS on master (3d449dba1, boot.c:486-487) */
void build_idle_sc(struct kstate *ks, int sc)
{
    bool max = cfg_has(&ks->cfg, KF_IDLE_SC_MAX_PERIOD);
    ticks_t b = max ? cfg_max_period_ticks(&ks->cfg) : cfg_us_to_ticks(&ks->cfg, 5000);
    struct ks_sc *s = &ks->scs[sc];
    s->budget = b;
    s->refills[s->head].amount = b;
}

void build_two_domains(struct kstate *ks)
{
    ks->cfg.num_domains = 2;
    cfg_derive(&ks->cfg);
    ks->dom_len = 2;
    ks->dom_sched[0] = dschedule_make(0, cfg_us_to_ticks(&ks->cfg, 10 * 1000));
    ks->dom_sched[1] = dschedule_make(1, cfg_us_to_ticks(&ks->cfg, 10 * 1000));
    ks->dom_idx = 0;
    ks->cur_domain = 0;
}

void build_fpu_owners(struct kstate *ks)
{
    if (!ks->cfg.fpu)
        return;
    for (int k = 0; k < ks_cores(ks); k++) {
        int cur = k ? ks->core_cur[k] : ks->cur_thread, idle = k ? ks->core_idle[k] : ks->idle_thread;
        if (cur == idle || cur == KS_NONE)
            continue;
        for (int i = 0; i < ks->n_tcbs; i++)
            if (ks->tcbs[i].affinity == k)
                ks->tcbs[i].fpu_live = i == cur;
    }
}
