/* sim: the workload simulator (two kernels side by side). */
#include "sim.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "refill.h"
#include "sched.h"
#include "schedcontext.h"
#include "smp.h"
#include "syscall.h"
#include "target.h"
#include "tcbops.h"
#include "vcpuswitch.h"

#define NEVER UINT64_MAX
#define SYS_TICKS 1           /* user time before each system call */
#define ROOT_PRIO 255
#define BOOT_SLICE_US 5000    /* CONFIG_BOOT_THREAD_TIME_SLICE (ms 5) */
#define DEFAULT_MAX_EVENTS 2000000u

/* ---- growable records ---- */

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 256;
    void *q = realloc(p, c * size);
    if (!q)
        abort(); /* out of memory: nothing sensible to report */
    *cap = c;
    return q;
}

/* core c's current thread and SC (core 0's are the node
 * state; another core's are kept aside until it enters, see smp.h) */
static int cur_of(const struct kstate *ks, int c)
{
    return c == 0 ? ks->cur_thread : ks->core_cur[c];
}

static int sc_of(const struct kstate *ks, int c)
{
    return c == 0 ? ks->cur_sc : ks->core_sc[c];
}

static int n_cores(const struct sim *s)
{
    return s->w->cores;
}

static void add_seg(const struct sim *s, struct sim_kernel *k, int c, ticks_t t0, ticks_t t1)
{
    if (t1 <= t0 || s->no_record)
        return;
    int tcb = cur_of(&k->ks, c), sc = sc_of(&k->ks, c);
    struct sim_seg *last = k->last_seg[c] ? &k->segs[k->last_seg[c] - 1] : NULL;
    if (last && last->t1 == t0 && last->tcb == tcb && last->sc == sc) {
        last->t1 = t1;
        return;
    }
    k->segs = grow(k->segs, &k->cap_segs, k->n_segs, sizeof *k->segs);
    k->segs[k->n_segs++] = (struct sim_seg){t0, t1, (int8_t)tcb, (int8_t)sc, (uint8_t)c};
    k->last_seg[c] = k->n_segs;
}

/* at an entry of core c, which the model runs as core 0 */
static void add_mark(const struct sim *s, struct sim_kernel *k, int kind, int irq, int c)
{
    if (s->no_record)
        return;
    k->marks = grow(k->marks, &k->cap_marks, k->n_marks, sizeof *k->marks);
    k->marks[k->n_marks++] = (struct sim_mark){k->now, (uint8_t)kind, (int16_t)irq, k->ks.deadline, (uint8_t)c};
}

/* ---- user programs ---- */

static int wl_thread_of(const struct sim *s, int tcb)
{
    for (int i = 0; i < s->w->n_threads; i++)
        if (s->tcb_of[i] == tcb)
            return i;
    return -1;
}

/* time the instruction at pc takes before it acts */
static ticks_t insn_ticks(const struct wl_thread *t, int pc)
{
    if (pc < t->n_prog && t->prog[pc].op == OP_COMPUTE)
        return t->prog[pc].n;
    return SYS_TICKS;
}

/* An open program's instruction at n_prog is not decided yet (sim.h,
 * open): pc stops there with no time left, which nothing reads until the
 * thread is current, and sim_undecided asks for it before that. */
static void set_pc(const struct sim *s, struct sim_kernel *k, const struct wl_thread *t, int tcb, int pc)
{
    if (pc < t->n_prog && t->prog[pc].op == OP_LOOP)
        pc = (int)t->prog[pc].n;
    k->pc[tcb] = pc;
    k->left[tcb] = pc >= t->n_prog && s->open >> (t - s->w->threads) & 1u ? 0 : insn_ticks(t, pc);
}

/* ---- arrivals of device interrupts ---- */

static ticks_t next_arrival(const struct sim *s, const struct sim_kernel *k, int q)
{
    const struct wl_irq *irq = &s->w->irqs[q];
    ticks_t t = k->at_idx[q] < irq->n_at ? irq->at[k->at_idx[q]] : NEVER;
    return k->next_periodic[q] < t ? k->next_periodic[q] : t;
}

static void take_arrival(const struct sim *s, struct sim_kernel *k, int q)
{
    const struct wl_irq *irq = &s->w->irqs[q];
    ticks_t t = next_arrival(s, k, q);
    if (k->at_idx[q] < irq->n_at && irq->at[k->at_idx[q]] == t)
        k->at_idx[q]++;
    if (k->next_periodic[q] == t)
        k->next_periodic[q] += irq->period;
    k->arrived[q]++;
    int loaded = irq->vtimer ? vcpu_node_of(&k->ks, irq->core).cur : KS_NONE;
    if (irq->vtimer && loaded == KS_NONE && !k->pending[q]) {
        k->vtimer_dropped++; /* no guest's timer is loaded on its core to fire */
        return;
    }
    if (irq->vtimer && !k->pending[q])
        k->vtimer_vcpu[q] = (int8_t)loaded;
    if (k->pending[q]) {
        k->coalesced[q]++; /* one pending bit at the GIC */
        return;
    }
    k->pending[q] = true;
    k->pending_since[q] = t;
}

/* the core whose GIC interface takes line q: a vtimer line's own (the
 * PPI is banked per core), core 0 for a device line (an SPI) */
static int line_core(const struct sim *s, int q)
{
    return q != SIM_Q_MAINT && s->w->irqs[q].vtimer ? s->w->irqs[q].core : 0;
}

static ticks_t core_deadline(const struct sim_kernel *k, int c)
{
    return c ? k->ks.core_deadline[c] : k->ks.deadline;
}

/* Whether line q is pending at core c's GIC interface. The VGIC's
 * maintenance line is each core's: raised while the VCPU loaded there is
 * enabled (ICH_HCR_EL2.En, GICH_HCR.En: vcpu_disable clears it) and
 * MISR.EOI is set (an LR invalid with EOI maintenance, vgic_hw_sync). A
 * vtimer line is its core's, for the VCPU it fired for (the timer's
 * registers are that VCPU's). A device line (an SPI) is core 0's. */
static bool line_pending(const struct sim *s, const struct sim_kernel *k, int q, int c)
{
    if (q == SIM_Q_MAINT) {
        struct vcpu_node v = vcpu_node_of(&k->ks, c);
        return s->w->hyp && v.active && v.misr_eoi;
    }
    if (s->w->irqs[q].vtimer)
        return k->pending[q] && s->w->irqs[q].core == c && vcpu_node_of(&k->ks, c).cur == k->vtimer_vcpu[q];
    return k->pending[q] && c == 0;
}

static int line_irq(const struct sim *s, int q)
{
    return q == SIM_Q_MAINT ? INTERRUPT_VGIC_MAINTENANCE : s->w->irqs[q].irq;
}

/* Whether core c's GIC interface would signal line q's IRQ: not masked
 * (the virtual timer's PPI by core c's own mask, vcpu_node_of), and not
 * active (under master's GICv3 split EOI a signal stays active until the
 * handler's IRQHandler_Ack; a PPI the kernel handles is deactivated
 * before the entry returns, ackInterrupt) */
static bool line_signals(const struct sim *s, const struct sim_kernel *k, int q, int c)
{
    int irq = line_irq(s, q);
    if (irq >= k->ks.n_irqs)
        return true;
    bool masked = irq == INTERRUPT_VTIMER_EVENT && s->w->hyp ? vcpu_node_of(&k->ks, c).vtimer_masked
                                                              : k->ks.irq_masked[irq];
    return !masked && !k->ks.irq_active[irq];
}

/* a pending IRQ core c's GIC interface would raise now (line_signals):
 * the first declared, or the last with gic_devices reversed; *n counts
 * them (the GIC's choice among them) */
static int deliverable(const struct sim *s, const struct sim_kernel *k, int c, int *n)
{
    int first = -1;
    *n = 0;
    for (int i = 0; i <= s->w->n_irqs; i++) {
        int q = i == s->w->n_irqs ? SIM_Q_MAINT : s->w->gic_devices_reversed ? s->w->n_irqs - 1 - i : i;
        if (!line_pending(s, k, q, c) || !line_signals(s, k, q, c))
            continue;
        if (first < 0)
            first = q;
        ++*n;
    }
    return first;
}

/* getActiveIRQ (include/arch/arm/arch/machine/gic_v2.h, gic_v3.h): an
 * acknowledge that reads a special ID (from SPECIAL_IRQ_START up, such as
 * the spurious 1023) is irqInvalid */
static int active_irq_of(const struct sim *s, int q)
{
    int irq = line_irq(s, q);
    return irq >= WL_SPECIAL_ID_START ? KS_IRQ_INVALID : irq;
}

/* ---- events ---- */


/* The interrupt of n candidates the GIC gives first: the earliest; among
 * those due at once, the workload's order (gic_rank, workload.h). Taken
 * if not later than e (the thread's next step, an arrival, the end). */
static struct sim_ev gic_pick(const struct sim *s, const struct sim_ev *cand, const int *kind, int n, struct sim_ev e)
{
    int best = -1, at_once = 0;
    for (int i = 0; i < n; i++) {
        if (best >= 0 && cand[i].t > cand[best].t)
            continue;
        at_once = best >= 0 && cand[i].t == cand[best].t ? at_once + 1 : 1;
        if (best < 0 || cand[i].t < cand[best].t || s->w->gic_rank[kind[i]] < s->w->gic_rank[kind[best]])
            best = i;
    }
    if (best < 0 || cand[best].t > e.t)
        return e;
    struct sim_ev x = cand[best];
    x.choice = at_once > 1;
    return x;
}

/* another core's next event, if earlier than e (on a tie, core 0 goes
 * first); among its own, as on core 0, a due timer goes before an IPI and
 * an IPI before the thread's next step */
/* Core c's timer fell due while another core was in the kernel (before
 * now, when that entry ended): core c was at user level with nothing else
 * pending, took the timer IRQ at once and waits for the big lock with it
 * (c_handle_interrupt), so it goes before what that entry left pending
 * (its reschedule IPI), in every GIC order; the order decides only among
 * interrupts pending together. */
static bool timer_in_lock_wait(const struct sim *s, const struct sim_kernel *k, int c, ticks_t deadline)
{
    return n_cores(s) > 1 && k->entry_core != c && deadline < k->now;
}

/* when core c can take the reschedule IPI in flight to it: ipi_latency
 * after the entry that sent it, and not before now */
static ticks_t ipi_due(const struct sim *s, const struct sim_kernel *k, int c)
{
    ticks_t t = k->ipi_at[c] + s->w->ipi_latency;
    return t < k->now ? k->now : t;
}

static struct sim_ev peek_core(const struct sim *s, const struct sim_kernel *k, int c, struct sim_ev e, ticks_t end)
{
    struct sim_ev ce = {end, EV_END, -1, c, false}, cand[3];
    int kind[3], n = 0, devices = 0;
    int cur = k->ks.core_cur[c];
    if (wl_thread_of(s, cur) >= 0 && k->now + k->left[cur] < ce.t)
        ce = (struct sim_ev){k->now + k->left[cur], EV_USER, -1, c, false};
    if (k->ks.ipi_sent >> c & 1u) {
        cand[n] = (struct sim_ev){ipi_due(s, k, c), EV_IPI, -1, c, false};
        kind[n++] = WL_GIC_IPI;
    }
    /* its banked PPIs (line_pending): only a hypervisor build has any
     * line another core takes (devices are core 0's) */
    int dq = s->w->hyp ? deliverable(s, k, c, &devices) : -1;
    if (dq >= 0) {
        cand[n] = (struct sim_ev){k->now, EV_DEVICE, dq, c, false};
        kind[n++] = WL_GIC_DEVICE;
    }
    ticks_t dl = k->ks.core_deadline[c] < k->now ? k->now : k->ks.core_deadline[c];
    if (dl <= end) {
        cand[n] = (struct sim_ev){dl, EV_TIMER, -1, c, false};
        kind[n++] = WL_GIC_TIMER;
    }
    ce = timer_in_lock_wait(s, k, c, k->ks.core_deadline[c]) ? (struct sim_ev){k->now, EV_TIMER, -1, c, false}
                                                              : gic_pick(s, cand, kind, n, ce);
    ce.choice |= ce.kind == EV_DEVICE && devices > 1;
    return ce.kind != EV_END && ce.t < e.t ? ce : e;
}

/* A device IRQ that arrived while another core was in the kernel: core 0
 * (at user level) took it at once, read it (getActiveIRQ) and waits for
 * the big lock (c_handle_interrupt, src/arch/arm/c_traps.c:113), serving
 * remote calls meanwhile (clh_lock_acquire, include/smp/lock.h:104-116):
 * it is handled as soon as that entry ends, before a reschedule IPI the
 * entry sent or a timer that fired meanwhile. */
static bool arrived_in_lock_wait(const struct sim *s, const struct sim_kernel *k, int q)
{
    ticks_t t = next_arrival(s, k, q);
    int c = line_core(s, q);
    /* a timer of the line's core due before it arrived was taken then
     * (nothing else was pending; due at the same tick, the GIC's order
     * decides, gic_rank): the core waits for the lock with the timer IRQ,
     * interrupts masked, and the device IRQ stays pending at the GIC */
    ticks_t dl = core_deadline(k, c);
    bool before_timer = t < dl || (t == dl && s->w->gic_rank[WL_GIC_DEVICE] < s->w->gic_rank[WL_GIC_TIMER]);
    return n_cores(s) > 1 && k->entry_core != c && t >= k->entry_t0 && t < k->now && !k->pending[q] &&
           k->acked_q < 0 && before_timer;
}

/* A device IRQ arrived in a lock wait at the very tick core 0's timer
 * fell due: which of the two core 0 took first (and waits for the lock
 * with) is the GIC's order (arrived_in_lock_wait), a choice like any
 * other among interrupts pending at once, so that a run in the default
 * order says the other orders could differ (check/executions.c reruns
 * them; the enumeration forks there) */
static bool lock_wait_tie(const struct sim *s, const struct sim_kernel *k)
{
    for (int q = 0; q < s->w->n_irqs; q++) {
        ticks_t t = next_arrival(s, k, q);
        int c = line_core(s, q);
        if (n_cores(s) > 1 && k->entry_core != c && t >= k->entry_t0 && t < k->now && !k->pending[q] &&
            k->acked_q < 0 && t == core_deadline(k, c))
            return true;
    }
    return false;
}

static struct sim_ev peek(const struct sim *s, const struct sim_kernel *k)
{
    if (k->done)
        return (struct sim_ev){NEVER, EV_END, -1, 0, false};
    if (k->acked_q >= 0)
        return (struct sim_ev){k->now, EV_DEVICE, k->acked_q, line_core(s, k->acked_q), false};
    for (int q = 0; q < s->w->n_irqs; q++)
        if (arrived_in_lock_wait(s, k, q))
            return (struct sim_ev){k->now, EV_ARRIVAL, q, 0, lock_wait_tie(s, k)};
    if (timer_in_lock_wait(s, k, 0, k->ks.deadline))
        return (struct sim_ev){k->now, EV_TIMER, -1, 0, lock_wait_tie(s, k)};
    ticks_t dl = k->ks.deadline < k->now ? k->now : k->ks.deadline;
    /* (events that came while the kernel ran, entry_latency, happen when
     * it returns) */
    ticks_t end = s->w->horizon < k->now ? k->now : s->w->horizon;
    struct sim_ev e = {end, EV_END, -1, 0, false}, cand[3];
    int kind[3], n = 0, devices;
    int cur = k->ks.cur_thread;
    if (wl_thread_of(s, cur) >= 0 && k->now + k->left[cur] < e.t)
        e = (struct sim_ev){k->now + k->left[cur], EV_USER, -1, 0, false};
    for (int q = 0; q < s->w->n_irqs; q++)
        if (next_arrival(s, k, q) <= e.t)
            e = (struct sim_ev){next_arrival(s, k, q) < k->now ? k->now : next_arrival(s, k, q), EV_ARRIVAL, q, 0, false};
    if (k->ks.ipi_sent & 1u) {
        cand[n] = (struct sim_ev){ipi_due(s, k, 0), EV_IPI, -1, 0, false};
        kind[n++] = WL_GIC_IPI;
    }
    int dq = deliverable(s, k, 0, &devices);
    if (dq >= 0) {
        cand[n] = (struct sim_ev){k->now, EV_DEVICE, dq, 0, false};
        kind[n++] = WL_GIC_DEVICE;
    }
    if (dl <= end) {
        cand[n] = (struct sim_ev){dl, EV_TIMER, -1, 0, false};
        kind[n++] = WL_GIC_TIMER;
    }
    struct sim_ev x = gic_pick(s, cand, kind, n, e);
    x.choice |= x.kind == EV_DEVICE && devices > 1;
    /* a device that arrives when an interrupt is due (or arrived while
     * this core was in the kernel) is pending beside it: with an order
     * other than the default it is marked pending first, so that the
     * order decides. The default keeps the simulator's older order, one
     * the GIC may take: what is due goes before the arrival. */
    bool arrives_then = e.kind == EV_ARRIVAL && x.kind != EV_ARRIVAL && e.t == x.t;
    if (arrives_then && !wl_gic_default(s->w))
        x = e;
    x.choice |= arrives_then; /* the device was there to choose */
    e = x;
    for (int c = 1; c < n_cores(s); c++)
        e = peek_core(s, k, c, e, end);
    return e;
}

static void record_refusal(struct sim_kernel *k, int kind, const struct inv_report *r)
{
    if (k->refused < SIM_MAX_REFUSED) {
        struct sim_refusal *x = &k->refusals[k->refused];
        x->t = k->now;
        x->kind = (uint8_t)kind;
        x->inv = r->items[0].id;
        snprintf(x->msg, sizeof x->msg, "%s", r->items[0].msg);
    }
    k->refused++;
}

/* the checker on the state at entry (the fastpath kernel admits what its
 * fastpath leaves at user level) */
static void check_entry(const struct sim *s, struct sim_kernel *k, int kind)
{
    struct inv_report r;
    unsigned admit = k->fast ? target_admit_left_by(s->target, s->variant) : 0;
    k->checked++;
    k->ipi_raced += (k->ks.ipi_sent >> CUR_CORE) & 1u; /* the entering core is core 0 here (smp_swap_core) */
    if (kstate_check_admit(&k->ks, INV_AT_ENTRY, admit, &r) == 0)
        return; /* (a shadow passes too: an admission only leaves checks out, check/invariant.c) */
    record_refusal(k, kind, &r);
    /* the fastpath kernel shadowed by this one (s->shadow) meets the same
     * state here: its own admissions decide whether it refuses it */
    struct sim_kernel *k1 = k + 1;
    if (s->shadow && k == &s->k[0] &&
        kstate_check_admit(&k->ks, INV_AT_ENTRY, target_admit_left_by(s->target, s->variant), &r) > 0)
        record_refusal(k1, kind, &r);
}

/* the kernel's work after the clock read takes no time; the latency from
 * the event to the clock read is spent in the kernel: no thread runs */
static void leave_kernel(struct sim_kernel *k, ticks_t clock)
{
    k->now = clock;
}

/* The clock read of an interrupt its core took at `taken`: entry_latency
 * later, and not before now. A core that took it while the other core
 * held the big lock spent that wait inside its latency: it reads the
 * clock (updateTimestamp in handleInterruptEntry) right after it gets
 * the lock (c_handle_interrupt, NODE_LOCK_IRQ_IF, src/arch/arm/c_traps.c:106
 * and src/api/syscall.c:42-43 at 43607edb6), so the wait is not
 * added to the latency again. */
static ticks_t irq_clock(const struct sim *s, const struct sim_kernel *k, ticks_t taken)
{
    ticks_t t = taken + s->w->entry_latency;
    return t < k->now ? k->now : t;
}

static void irq_entry(const struct sim *s, struct sim_kernel *k, int kind, int irq, int c, ticks_t taken)
{
    k->ks.hw_clock = irq_clock(s, k, taken);
    k->ks.active_irq = irq;
    check_entry(s, k, kind);
    uint8_t before = k->ks.n_asserts;
    if (k->fast && s->target->sim.irq_fast)
        s->target->sim.irq_fast(&k->ks, s->variant);
    else /* the slowpath kernel, and a target without an IRQ fastpath */
        handleInterruptEntry(&k->ks);
    k->asserts += (uint8_t)(k->ks.n_asserts - before);
    k->entries[kind]++;
    add_mark(s, k, kind, irq, c);
    leave_kernel(k, k->ks.hw_clock);
}

/* workload thread i's VCPU (setup_vcpus adds them in thread order) */
static int k_vcpu_of(const struct sim *s, int i)
{
    int v = 0;
    for (int j = 0; j < i; j++)
        v += s->w->threads[j].vcpu;
    return v;
}

static struct ks_call call_of(const struct sim *s, const struct wl_thread *t, int tcb, int pc)
{
    if (pc >= t->n_prog) { /* the program ended: the thread suspends itself */
        struct ks_call c = ks_call_new(SYS_Send, CALL_TCB_Suspend);
        c.tcb = tcb;
        return c;
    }
    const struct wl_insn *in = &t->prog[pc];
    struct ks_call c = ks_call_new(SYS_Yield, 0);
    switch (in->op) {
    case OP_SIGNAL:
    case OP_SEND: /* seL4_Send(ntfn, info) with extraCaps 1: its cptr resolves, or not (badcap) */
        c = ks_call_new(SYS_Send, CALL_Signal);
        c.ntfn = in->a;
        c.badge = 1;
        c.extra_caps = in->op == OP_SEND;
        c.extra_bad = (uint8_t)(in->op == OP_SEND && in->n);
        return c;
    case OP_WAIT:
        c = ks_call_new(SYS_Wait, 0);
        c.ntfn = in->a;
        return c;
    case OP_RECV:
        c = ks_call_new(SYS_Recv, 0);
        c.ep = in->a;
        c.reply = in->b;
        return c;
    case OP_CALL: /* on an endpoint cap with every right, badged with the caller's thread number + 1 */
    case OP_REPLY_RECV:
        c = ks_call_new(in->op == OP_CALL ? SYS_Call : SYS_ReplyRecv, in->op == OP_CALL ? CALL_Endpoint : CALL_Reply);
        c.cap = SCAP_EP;
        c.ep = in->a;
        c.rights = (uint8_t)(EPR(EPR_SEND) | EPR(EPR_RECV) | EPR(EPR_GRANT) | EPR(EPR_GRANT_REPLY));
        c.badge = (uint64_t)(t - s->w->threads) + 1;
        c.reply = in->b;
        c.reply_cap = RCAP_REPLY;
        return c;
    case OP_ACK:
        c = ks_call_new(SYS_Send, CALL_IRQHandler_Ack);
        c.irq = (int)in->n;
        return c;
    case OP_SUSPEND:
    case OP_RESUME:
        c = ks_call_new(SYS_Send, in->op == OP_SUSPEND ? CALL_TCB_Suspend : CALL_TCB_Resume);
        c.tcb = s->tcb_of[in->a];
        return c;
    case OP_PRIO:
        c = ks_call_new(SYS_Send, CALL_TCB_SetPriority);
        c.tcb = s->tcb_of[in->a];
        c.prio = (int)in->n;
        return c;
    case OP_ACK_VPPI: /* seL4_ARM_VCPU_AckVPPI(vcpu, the virtual timer's IRQ) */
        c = ks_call_new(SYS_Send, CALL_VCPU_AckVPPI);
        c.vcpu = k_vcpu_of(s, in->a);
        c.irq = INTERRUPT_VTIMER_EVENT;
        return c;
    case OP_UNBIND: /* seL4_SchedContext_Unbind on an SC cap */
        c = ks_call_new(SYS_Send, CALL_SchedContext_Unbind);
        c.sc = s->sc_of[in->a];
        return c;
    default:
        return c;
    }
}

/* The target whose fastpath the configuration builds beside the target
 * under check (target.h, built) and whose entry call c is: the kernel's own
 * code, as written, on both kernels alike, so the two differ in the
 * target's fastpath only. */
static const struct target *built_fast_for(const struct sim *s, const struct kstate *ks, const struct ks_call *c)
{
    for (int i = 0; target_at(i); i++) {
        const struct target *t = target_at(i);
        if (t != s->target && t->built && t->built(&ks->cfg) && t->sim.entry_call && t->sim.entry_call(c))
            return t;
    }
    return NULL;
}

/* the entry of target t: its inputs set (for the checker), the entry
 * checked, t's fastpath of variant v run (fast) or the slowpath, the inputs
 * cleared; returns whether the call was performed */
static bool target_entry(const struct sim *s, struct sim_kernel *k, const struct target *t, bool fast, int v,
                         const struct ks_call *c)
{
    t->sim.set_inputs(&k->ks, c);
    target_mark(t, &k->ks);
    check_entry(s, k, SE_SYSCALL);
    bool performed = true;
    if (fast)
        t->sim.sys_fast(&k->ks, v, &performed);
    else
        performed = handleSyscall(&k->ks, c);
    ks_sysin_clear(&k->ks.sys);
    return performed;
}

/* the system call on kernel k: a call that is the target's entry carries
 * its inputs (for the checker) and takes the target's fastpath on the
 * fastpath kernel; one that is the entry of a fastpath built beside takes
 * that on both; returns whether it was performed */
static bool syscall_on(const struct sim *s, struct sim_kernel *k, const struct ks_call *c)
{
    const struct target *built = built_fast_for(s, &k->ks, c);
    if (built)
        return target_entry(s, k, built, true, 0 /* as written */, c);
    const struct target *t = s->target;
    if (t->sim.entry_call && t->sim.entry_call(c))
        return target_entry(s, k, t, k->fast, s->variant, c);
    check_entry(s, k, SE_SYSCALL);
    return handleSyscall(&k->ks, c);
}

/* a SysSend on a notification (seL4_Signal, seL4_Send): its lookups may
 * fault the caller */
static bool is_send(const struct ks_call *c)
{
    return c->sys == SYS_Send && c->inv == CALL_Signal;
}

/* The guest of the current thread's VCPU takes and ends the virtual IRQ
 * of list register n (ICC_IAR1/ICC_EOIR1 at EL1, GICV_IAR/GICV_EOIR): the
 * VGIC moves the LR from pending to active to invalid, or from pending
 * and active to pending (the GIC architecture's LR state machine); an
 * invalid LR or one past the VGIC's is untouched. The hardware then
 * computes EISR and MISR (vgic_hw_sync). */
static void guest_eoi(struct kstate *ks, int n)
{
    static const uint8_t after_eoi[4] = {0, 0, 0, 1}; /* by virqType */
    if (!ks->vcpu_active || n >= ks->vgic_num_lr)
        return;
    uint8_t lr = ks->vgic_lr[n];
    ks->vgic_lr[n] = (uint8_t)((lr & ~VGIC_LR_TYPE) | after_eoi[lr & VGIC_LR_TYPE]);
    vgic_hw_sync(ks);
}

static void user_event(const struct sim *s, struct sim_kernel *k, int core)
{
    int tcb = k->ks.cur_thread;
    const struct wl_thread *t = &s->w->threads[wl_thread_of(s, tcb)];
    int pc = k->pc[tcb];
    if (pc < t->n_prog && t->prog[pc].op == OP_COMPUTE) {
        set_pc(s, k, t, tcb, pc + 1);
        return;
    }
    if (pc < t->n_prog && t->prog[pc].op == OP_VEOI) { /* at user level: no kernel entry */
        guest_eoi(&k->ks, (int)t->prog[pc].n);
        set_pc(s, k, t, tcb, pc + 1);
        return;
    }
    struct ks_call c = call_of(s, t, tcb, pc);
    k->ks.hw_clock = k->now + s->w->entry_latency;
    k->ks.active_irq = KS_IRQ_INVALID;
    uint8_t before = k->ks.n_asserts;
    bool performed = syscall_on(s, k, &c);
    /* a send whose lookups failed faulted the caller (handleFault, no
     * handler: Inactive); a resume restarts it at the same instruction
     * (restart -> Restart -> activateThread sets the restart PC) */
    if (is_send(&c) && (k->ks.tcbs[tcb].state == TS_Inactive || k->ks.tcbs[tcb].fault != FAULT_None))
        performed = false; /* (with a fault handler it waits for the reply, which restarts it) */
    k->asserts += (uint8_t)(k->ks.n_asserts - before);
    k->entries[SE_SYSCALL]++;
    add_mark(s, k, SE_SYSCALL, -1, core);
    leave_kernel(k, k->now + s->w->entry_latency);
    if (performed)
        set_pc(s, k, t, tcb, pc + 1);
    else
        k->left[tcb] = SYS_TICKS; /* restarts the call when it next runs */
}

/* every core's thread runs from now to t */
static void advance(const struct sim *s, struct sim_kernel *k, ticks_t t)
{
    for (int c = 0; c < n_cores(s); c++) {
        add_seg(s, k, c, k->now, t);
        int cur = cur_of(&k->ks, c);
        if (wl_thread_of(s, cur) >= 0)
            k->left[cur] -= t - k->now;
    }
    k->now = t;
}

/* When core e.core took the interrupt of event e: at e.t, or, for one it
 * took while the other core held the lock (an acknowledged device, a
 * timer that fell due in that entry), when it arrived. Before entry_on
 * moves entry_core (timer_in_lock_wait reads it). */
static ticks_t taken_at(const struct sim *s, const struct sim_kernel *k, struct sim_ev e)
{
    if (e.kind == EV_DEVICE && e.q == k->acked_q)
        return k->pending_since[e.q];
    ticks_t dl = e.core ? k->ks.core_deadline[e.core] : k->ks.deadline;
    if (e.kind == EV_TIMER && timer_in_lock_wait(s, k, e.core, dl) && dl >= k->entry_t0)
        return dl;
    return e.t;
}

/* The virtual timer's PPI is level triggered: the guest's timer stays
 * asserted until the guest handles the event, which it can only once
 * VPPIEvent has masked the PPI and sent its VMM the fault (vppi_masked
 * set). A VPPIEvent that sent nothing (the current thread queued or not
 * schedulable, master vcpu.c:123-124; no VCPU active) leaves the line
 * pending: the IRQ comes again when unmasked (232471e90's log). */
static bool vppi_consumed(const struct kstate *ks, int v, bool masked_before)
{
    return v != KS_NONE && !masked_before && ks->vcpus[v].vppi_masked;
}

/* After the entry of reserved PPI q: its handler ended it (ended), or it
 * sent nothing and the level-triggered line is raised again, to be taken
 * at once (a deferral; SIM_STORM_DEFERRALS in a row: a storm) */
static void ppi_after(const struct sim *s, struct sim_kernel *k, int q, bool ended)
{
    if (ended) {
        k->vppi_deferred = 0;
        return;
    }
    if (++k->vppi_deferred >= SIM_STORM_DEFERRALS) {
        k->done = true; /* a storm: the kernel would take it on and on */
        k->storm_t = k->now;
        k->storm_q = q;
    }
    /* past the horizon the level-triggered line would be taken for ever
     * (an event at the horizon is still taken, peek) */
    k->done |= k->now >= s->w->horizon;
}

static void device_entry(const struct sim *s, struct sim_kernel *k, struct sim_ev e, ticks_t taken)
{
    bool vtimer = e.q != SIM_Q_MAINT && s->w->irqs[e.q].vtimer;
    int v = k->ks.cur_vcpu;
    bool masked_before = v != KS_NONE && k->ks.vcpus[v].vppi_masked;
    k->pending[e.q] = false; /* (the maintenance line's is its VGIC's, line_pending) */
    k->delivered[e.q]++;
    irq_entry(s, k, SE_DEVICE, active_irq_of(s, e.q), e.core, taken);
    if (e.q == SIM_Q_MAINT) { /* still raised on this core (in core 0's place during its entry) */
        ppi_after(s, k, e.q, !line_pending(s, k, SIM_Q_MAINT, 0));
        return;
    }
    if (!vtimer)
        return;
    bool ended = vppi_consumed(&k->ks, v, masked_before);
    k->pending[e.q] = !ended;
    ppi_after(s, k, e.q, ended);
}

/* a kernel entry of core c, run by the model as core 0 (smp.h); the big
 * lock makes it atomic: the other core's events wait until it returns.
 * A reschedule IPI an entry sends (doMaskReschedule) stays pending at the
 * GIC, ipi_sent, until its core takes it (the entry's getActiveIRQ), from
 * the workload's ipi_latency after the send (ipi_at) */
static void entry_on(const struct sim *s, struct sim_kernel *k, struct sim_ev e)
{
    ticks_t taken = taken_at(s, k, e);
    k->entry_core = (uint8_t)e.core;
    k->entry_t0 = e.t;
    k->gic_choices += e.choice;
    if (e.kind == EV_DEVICE && e.q == k->acked_q) {
        k->acked_q = -1;
        k->lock_waits++;
    }
    if (e.kind == EV_IPI)
        k->ks.ipi_sent &= (uint8_t)~(1u << e.core);
    uint8_t sent = k->ks.ipi_sent;
    smp_swap_core(&k->ks, e.core);
    switch (e.kind) {
    case EV_TIMER:
        irq_entry(s, k, SE_TIMER, s->w->timer_irq, e.core, taken);
        break;
    case EV_DEVICE:
        device_entry(s, k, e, taken);
        break;
    case EV_IPI:
        irq_entry(s, k, SE_IPI, KS_IRQ_RESCHEDULE_IPI, e.core, taken);
        break;
    default:
        user_event(s, k, e.core);
    }
    smp_swap_core(&k->ks, e.core);
    for (int c = 0; c < n_cores(s); c++)
        if ((k->ks.ipi_sent & ~sent) >> c & 1u)
            k->ipi_at[c] = k->now;
}

static void step(const struct sim *s, struct sim_kernel *k, struct sim_ev e)
{
    advance(s, k, e.t);
    switch (e.kind) {
    case EV_ARRIVAL: {
        bool waits = arrived_in_lock_wait(s, k, e.q);
        k->gic_choices += waits && next_arrival(s, k, e.q) == core_deadline(k, line_core(s, e.q)); /* the GIC chose it over the timer */
        take_arrival(s, k, e.q);
        /* acknowledged only if its core's GIC interface would signal it
         * (pending there: a vtimer with no VCPU loaded fired none; not
         * masked, not active) */
        int c = line_core(s, e.q);
        if (waits && line_pending(s, k, e.q, c) && line_signals(s, k, e.q, c))
            k->acked_q = e.q;
        return;
    }
    case EV_END:
        k->done = true;
        return;
    default:
        entry_on(s, k, e);
    }
}

/* ---- setup ---- */

static int setup_call(struct sim *s, struct kstate *ks, struct ks_call c, const char *what)
{
    if (decodeInvocation(ks, &c) != SYSERR_NONE || ks->n_asserts) {
        snprintf(s->setup_error, sizeof s->setup_error, "the kernel refuses %s", what);
        return -1;
    }
    if (ks->tcbs[ks->cur_thread].state == TS_Restart)
        setThreadState(ks, ks->cur_thread, TS_Running);
    return 0;
}

/* every setup call through the full system call path */
static int root_call(struct sim *s, struct kstate *ks, struct ks_call c, const char *what)
{
    struct ks_call probe = c;
    struct kstate *tmp = malloc(sizeof *tmp);
    if (!tmp)
        abort();
    ks_copy(tmp, ks);
    int rc = setup_call(s, tmp, probe, what); /* refused calls are bad input */
    free(tmp);
    if (rc)
        return rc;
    handleSyscall(ks, &c);
    return 0;
}

/* the second core at boot (init_core_state, create_idle_thread): its idle
 * thread running on its idle SC, configured as core 0's (ks_init), the
 * two IPIs in state IRQIPI (arm/kernel/boot.c), its timer programmed */
static void boot_core1(struct kstate *ks)
{
    int idle1 = build_core1(ks);
    int isc = ks_add_sc(ks, "idle_sc1");
    struct ks_sc *sc = &ks->scs[isc];
    *sc = ks->scs[ks->idle_sc];
    snprintf(sc->name, sizeof sc->name, "idle_sc1");
    sc->tcb = (int8_t)idle1;
    sc->core = 1;
    ks->tcbs[idle1].sc = (int8_t)isc;
    ks->core_sc[1] = ks->core_idle_sc[1] = (int8_t)isc;
    build_irq_state(ks, KS_IRQ_REMOTE_CALL_IPI, IRQ_IPI);
    build_irq_state(ks, KS_IRQ_RESCHEDULE_IPI, IRQ_IPI);
    smp_swap_core(ks, 1);
    setNextInterrupt(ks);
    smp_swap_core(ks, 1);
}

static int boot(struct sim *s, struct kstate *ks)
{
    const struct workload *w = s->w;
    if (ks_init(ks, w->board) != 0) {
        snprintf(s->setup_error, sizeof s->setup_error, "unknown board %s", w->board);
        return -1;
    }
    cfg_set_kernel(&ks->cfg, w->kernel);
    ks->cfg.signal_fastpath = w->signal_fastpath;
    if (w->hyp)
        build_hyp_boot(ks);
    build_idle_sc(ks, ks->idle_sc); /* core 1's copies it (boot_core1) */
    build_irq_state(ks, w->timer_irq, IRQ_Timer);
    if (w->n_dom)
        ks->cfg.num_domains = (uint32_t)wl_num_domains(w);
    if (cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME)) {
        /* master boot.c:635-637: domain 0 for DSCHED_MAX_DURATION, the
         * rest of the schedule end markers; the root thread sets the
         * workload's schedule at run time (setup_domains) */
        ks->dom_len = 1;
        ks->dom_sched[0] = dschedule_make(0, DSCHED_MAX_DURATION);
        ks->dom_idx = ks->dom_start = 0;
        ks->cur_domain = 0;
        ks->domain_time = DSCHED_MAX_DURATION;
    } else if (w->n_dom) { /* base: ksDomSchedule, and the boot state of its first entry (boot.c:546) */
        ks->dom_len = w->n_dom;
        for (int i = 0; i < w->n_dom; i++)
            ks->dom_sched[i] = dschedule_make(w->dom[i].domain, cfg_us_to_ticks(&ks->cfg, (uint64_t)w->dom[i].ms * 1000));
        ks->dom_idx = 0;
        ks->cur_domain = w->dom[0].domain;
        ks->domain_time = dschedule_duration(ks->dom_sched[0]);
    }
    /* the initial thread runs in the first domain of the schedule */
    int root = build_thread(ks, "root", ROOT_PRIO, ks->cur_domain);
    build_sc(ks, "root_sc", root, cfg_us_to_ticks(&ks->cfg, BOOT_SLICE_US), 0, 0);
    build_run(ks, root);
    for (int i = 0; i < w->n_scs; i++)
        s->sc_of[i] = ks_add_sc(ks, w->scs[i].name);
    for (int i = 0; i < w->n_ntfns; i++)
        ks_add_ntfn(ks, w->ntfns[i].name);
    for (int i = 0; i < w->n_eps; i++)
        ks_add_ep(ks, w->eps[i].name);
    for (int i = 0; i < w->n_replies; i++)
        ks_add_reply(ks, w->replies[i].name);
    if (w->cores > 1)
        boot_core1(ks);
    for (int i = 0; i < w->n_threads; i++)
        /* DomainSet_Set on a thread that is still inactive
         * (invokeDomainSet_Set -> setDomain, src/kernel/thread.c) only
         * writes tcbDomain: the thread is created with it */
        s->tcb_of[i] = build_thread(ks, w->threads[i].name, 0, w->threads[i].domain);
    setNextInterrupt(ks);
    return 0;
}

static int setup_scs(struct sim *s, struct kstate *ks)
{
    const struct workload *w = s->w;
    for (int i = 0; i < w->n_scs; i++) {
        const struct wl_sc *x = &w->scs[i];
        struct ks_call c = ks_call_new(SYS_Send, CALL_SchedControl_ConfigureFlags);
        c.sc = s->sc_of[i];
        c.core = x->core;
        c.budget = x->budget;
        c.period = x->period;
        c.extra_refills = x->extra_refills;
        c.flags = x->sporadic ? SC_FLAG_SPORADIC : 0;
        /* budget 0: never configured, only bound to its notification (which
         * checks no sc_released, decodeSchedContext_Bind) */
        if (x->budget && root_call(s, ks, c, "SchedControl_ConfigureFlags (budget or period below MIN_BUDGET?)"))
            return -1;
        if (x->ntfn < 0)
            continue;
        c = ks_call_new(SYS_Send, CALL_SchedContext_Bind);
        c.sc = s->sc_of[i];
        c.ntfn = x->ntfn;
        if (root_call(s, ks, c, "SchedContext_Bind to a notification"))
            return -1;
    }
    return 0;
}

static int setup_irqs(struct sim *s, struct kstate *ks)
{
    for (int q = 0; q < s->w->n_irqs; q++) {
        const struct wl_irq *x = &s->w->irqs[q];
        if (x->irq == WL_SPURIOUS_ID || x->vtimer) /* no line to issue; reserved at boot */
            continue;
        struct ks_call c = ks_call_new(SYS_Send, CALL_IRQControl_Get);
        c.irq = x->irq;
        c.length = 3;     /* the IRQ, the slot's index and depth */
        c.extra_caps = 1; /* the root task's CNode cap; dest an empty slot */
        if (root_call(s, ks, c, "IRQControl_Get (IRQ above the board's maxIRQ?)"))
            return -1;
        if (x->ntfn < 0) /* the handler cap's slot stays empty, as after IRQHandler_Clear */
            continue;
        c = ks_call_new(SYS_Send, CALL_IRQHandler_SetNotification);
        c.irq = x->irq;
        c.ntfn = x->ntfn;
        c.badge = x->badge;
        c.extra_caps = 1; /* the notification cap */
        if (root_call(s, ks, c, "IRQHandler_SetNotification"))
            return -1;
    }
    return 0;
}

/* The VCPUs (VCPU_SetTCB: associateVCPUTCB, each thread still inactive,
 * so no switch) with the list registers VCPU_InjectIRQ wrote into a VCPU
 * not loaded (its saved copy), and the fault handler caps TCB_SetSpace
 * puts in tcbFaultHandler; neither invocation is modelled beyond this */
static int setup_vcpus(struct sim *s, struct kstate *ks)
{
    const struct workload *w = s->w;
    for (int i = 0; i < w->n_threads; i++) {
        const struct wl_thread *x = &w->threads[i];
        ks->tcbs[s->tcb_of[i]].fault_ep = x->fault_ep;
        if (!x->vcpu)
            continue;
        if (ks->n_vcpus == KS_MAX_VCPUS || x->n_lr > ks->vgic_num_lr) {
            snprintf(s->setup_error, sizeof s->setup_error, "thread %s: %s", x->name,
                     ks->n_vcpus == KS_MAX_VCPUS ? "more VCPU threads than irqsim models (4)"
                                                 : "more lr= values than the VGIC's list registers (4)");
            return -1;
        }
        int v = ks_add_vcpu(ks, x->name);
        memcpy(ks->vcpus[v].lr, x->lr, x->n_lr);
        associateVCPUTCB(ks, v, s->tcb_of[i]);
    }
    return 0;
}

static int setup_threads(struct sim *s, struct kstate *ks)
{
    const struct workload *w = s->w;
    if (setup_vcpus(s, ks))
        return -1;
    for (int i = 0; i < w->n_threads; i++) {
        const struct wl_thread *x = &w->threads[i];
        struct ks_call c = ks_call_new(SYS_Send, CALL_TCB_SetSchedParams);
        c.tcb = s->tcb_of[i];
        c.prio = x->prio;
        c.sc = x->sc >= 0 ? s->sc_of[x->sc] : KS_NONE;
        if (root_call(s, ks, c, "TCB_SetSchedParams"))
            return -1;
        if (x->timeout_ep >= 0) {
            c = ks_call_new(SYS_Send, CALL_TCB_SetTimeoutEndpoint);
            c.tcb = s->tcb_of[i];
            c.ep = x->timeout_ep;
            if (root_call(s, ks, c, "TCB_SetTimeoutEndpoint"))
                return -1;
        }
    }
    for (int i = 0; i < w->n_threads; i++) {
        struct ks_call c = ks_call_new(SYS_Send, CALL_TCB_Resume);
        c.tcb = s->tcb_of[i];
        if (root_call(s, ks, c, "TCB_Resume"))
            return -1;
    }
    return 0;
}

/* Master: the workload's schedule, set at run time as libsel4 documents
 * (object-api.xml, DomainSet_ScheduleConfigure): every entry, then
 * ScheduleSetStart(0), which ends the boot entry at once; the next
 * schedule() wraps to entry 0 (invokeDomainScheduleSetStart, nextDomain).
 * The lengths are the base form's ms in ticks. */
static int setup_domains(struct sim *s, struct kstate *ks)
{
    const struct workload *w = s->w;
    if (!cfg_has(&ks->cfg, KF_DOMAIN_SCHEDULE_RUNTIME) || !w->n_dom)
        return 0;
    for (int i = 0; i < w->n_dom; i++) {
        struct ks_call c = ks_call_new(SYS_Send, CALL_DomainSet_ScheduleConfigure);
        c.dom_index = (unsigned)i;
        c.domain = w->dom[i].domain;
        c.budget = cfg_us_to_ticks(&ks->cfg, (uint64_t)w->dom[i].ms * 1000);
        if (root_call(s, ks, c, "DomainSet_ScheduleConfigure"))
            return -1;
    }
    struct ks_call c = ks_call_new(SYS_Send, CALL_DomainSet_ScheduleSetStart);
    c.dom_index = 0;
    return root_call(s, ks, c, "DomainSet_ScheduleSetStart");
}

/* The root thread's last call: its own TCB_Suspend. On master, when the
 * schedule just started is not in domain 0, the root (domain 0, boot.c)
 * is left ready there and would make this call when domain 0 next runs;
 * the simulator takes it now (suspend, as the invocation does), so the
 * root never runs in the workload on either kernel. */
static int suspend_root(struct sim *s, struct kstate *ks)
{
    int root = 0;
    while (strcmp(ks->tcbs[root].name, "root")) /* a workload cannot name a thread root */
        root++;
    if (ks->cur_thread != root) {
        suspend(ks, root);
        return 0;
    }
    struct ks_call c = ks_call_new(SYS_Send, CALL_TCB_Suspend);
    c.tcb = root;
    return root_call(s, ks, c, "the root thread's TCB_Suspend");
}

/* a workload latency above the kernel WCET: said in setup_error */
static bool over_wcet(struct sim *s, const char *what, ticks_t v)
{
    ticks_t wcet = cfg_wcet(&s->k[0].ks.cfg);
    if (v <= wcet)
        return false;
    snprintf(s->setup_error, sizeof s->setup_error, "%s %" PRIu64 " is above the kernel WCET (%" PRIu64 " ticks)", what,
             v, wcet);
    return true;
}

int sim_init(struct sim *s, const struct workload *w, int variant)
{
    memset(s, 0, sizeof *s);
    s->w = w;
    s->target = w->target;
    s->variant = variant;
    s->max_events = DEFAULT_MAX_EVENTS;
    s->sweep = true;
    if (target_kernel(s->target, w->kernel, w->kernel) < 0) {
        snprintf(s->setup_error, sizeof s->setup_error, "the %s target models %s's fastpath only, not kernel %s",
                 s->target->name, cfg_kernel_name(s->target->kernel), cfg_kernel_name(w->kernel));
        return -1;
    }
    struct sim_kernel *k0 = &s->k[0];
    if (boot(s, &k0->ks))
        return -1;
    /* entry_latency: the checker's bound, a device IRQ is taken at most one
     * WCET past the deadline; ipi_latency: the same bound, the simulator's
     * (the GIC gives none) */
    if (over_wcet(s, "entry_latency", w->entry_latency) || over_wcet(s, "ipi_latency", w->ipi_latency))
        return -1;
    for (int q = 0; q < w->n_irqs && w->cores > 1; q++)
        if (w->irqs[q].irq <= KS_IRQ_RESCHEDULE_IPI) {
            snprintf(s->setup_error, sizeof s->setup_error, "irq %u is an IPI of an SMP kernel", w->irqs[q].irq);
            return -1;
        }
    if (setup_scs(s, &k0->ks) || setup_irqs(s, &k0->ks) || setup_threads(s, &k0->ks) || setup_domains(s, &k0->ks) ||
        suspend_root(s, &k0->ks))
        return -1;
    for (int i = 0; i < w->n_threads; i++)
        set_pc(s, k0, &w->threads[i], s->tcb_of[i], 0);
    for (int q = 0; q < w->n_irqs; q++)
        k0->next_periodic[q] = w->irqs[q].period ? (w->irqs[q].start ? w->irqs[q].start : w->irqs[q].period)
                                                 : NEVER;
    k0->acked_q = -1;
    memset(k0->vtimer_vcpu, KS_NONE, sizeof k0->vtimer_vcpu);
    struct sim_kernel *k1 = &s->k[1];
    memcpy(k1, k0, sizeof *k1);
    k1->fast = true;
    return 0;
}

/* ---- running ---- */

static bool same_event(struct sim_ev a, struct sim_ev b)
{
    return a.t == b.t && a.kind == b.kind && a.q == b.q && a.core == b.core;
}

/* keep the first divergent entry state (the lockstep one replaces the sweep's) */
static void keep_state(struct sim *s, const struct kstate *in, bool lockstep)
{
    if (s->no_record || (s->div_state && !lockstep))
        return;
    if (!s->div_state && !(s->div_state = malloc(sizeof *s->div_state)))
        abort();
    ks_copy(s->div_state, in);
}

/* the entries the one-entry check runs at: the target's entry, a device
 * interrupt or the system calls its entry_call names */
static bool checked_entry(const struct sim *s, const struct sim_kernel *k, struct sim_ev e)
{
    if (!s->target->sim.entry_call)
        return e.kind == EV_DEVICE;
    if (e.kind != EV_USER)
        return false;
    int tcb = cur_of(&k->ks, e.core), i = wl_thread_of(s, tcb);
    const struct wl_thread *t = &s->w->threads[i];
    int pc = k->pc[tcb];
    if (pc >= t->n_prog || t->prog[pc].op == OP_COMPUTE) /* no call: the thread computes or has ended */
        return false;
    struct ks_call c = call_of(s, t, tcb, pc);
    return s->target->sim.entry_call(&c);
}

/* kernel k's state at entry e as the one-entry check takes it (a SysSend
 * on another core: that core's node state as core 0's, as entry_on runs
 * it); the workload thread of a SysSend, -1 for an interrupt */
static int entry_state(const struct sim *s, const struct sim_kernel *k, struct sim_ev e, struct kstate *in)
{
    ks_copy(in, &k->ks);
    in->hw_clock = e.t + s->w->entry_latency;
    smp_swap_core(in, e.core);
    if (e.kind != EV_USER) {
        in->active_irq = active_irq_of(s, e.q);
        target_mark(s->target, in); /* the target's, where its entry kind has several */
        return -1;
    }
    int tcb = in->cur_thread, i = wl_thread_of(s, tcb);
    struct ks_call c = call_of(s, &s->w->threads[i], tcb, k->pc[tcb]);
    in->active_irq = KS_IRQ_INVALID;
    s->target->sim.set_inputs(in, &c);
    target_mark(s->target, in);
    return i;
}

/* the one-entry differential check on the fastpath kernel's state */
static void diff_at_entry(struct sim *s, struct sim_ev e)
{
    static struct kstate in; /* large: not on the stack */
    static struct classify_ws ws;
    struct sim_kernel *k = &s->k[1];
    int caller = entry_state(s, k, e, &in);
    /* the outcomes in ws, so the classification starts from this run's
     * normalised slowpath outcome (classify_cause_after) */
    diff_run(&in, s->variant, true, &s->div_verdict, &ws.a, &ws.b);
    if (s->div_verdict.agree)
        return;
    s->diverged = true;
    s->div_time = e.t;
    s->div_irq = in.active_irq;
    s->div_caller = caller;
    keep_state(s, &in, true);
    s->div_class.exit = s->div_verdict.exit;
    s->div_class.fields = s->div_verdict.fields;
    s->div_class.cause = classify_verdict(&in, &s->div_verdict, FP_PR1227, &ws);
    s->div_class.target = target_index(s->target);
}

int sim_found_class(const struct sim *s, const struct dclass *cl)
{
    for (uint32_t i = 0; i < s->n_found; i++)
        if (dclass_same(&s->found[i].cl, cl))
            return (int)i;
    return -1;
}

/* the sweep: the one-entry check on the slowpath kernel's state at a
 * checked entry, classified as the fuzzer does */
static void sweep_at_entry(struct sim *s, struct sim_ev e)
{
    static struct kstate in;
    static struct classify_ws ws;
    int caller = entry_state(s, &s->k[0], e, &in);
    struct diff_verdict v;
    diff_run(&in, s->variant, true, &v, &ws.a, &ws.b); /* ws: as in diff_at_entry */
    s->sweep_checks++;
    if (v.exit >= 0 && v.exit < TARGET_MAX_EXITS)
        s->sweep_exits[v.exit]++;
    situation_tally(&in, s->sits);
    struct dclass cl = {0};
    if (!v.agree)
        cl = (struct dclass){.exit = v.exit, .fields = v.fields,
                             .cause = classify_verdict(&in, &v, s->variant, &ws),
                             .target = target_index(s->target)};
    if (s->on_sweep)
        s->on_sweep(s->on_sweep_ctx, &in, &v, v.agree ? NULL : &cl);
    if (v.agree)
        return;
    s->sweep_diverged++;
    keep_state(s, &in, false);
    int i = sim_found_class(s, &cl);
    if (i < 0 && s->n_found == SIM_MAX_FOUND) {
        s->found_dropped++;
        return;
    }
    if (i < 0) {
        i = (int)s->n_found++;
        s->found[i] = (struct sim_found){cl, e.t, in.active_irq, 0, caller};
    }
    s->found[i].hits++;
    s->found[i].cl.fields |= v.fields;
}

/* a step of the slowpath kernel, swept at device interrupts */
static void step_slow(struct sim *s, struct sim_ev e)
{
    if (s->sweep && checked_entry(s, &s->k[0], e))
        sweep_at_entry(s, e);
    step(s, &s->k[0], e);
}

/* The run is in lockstep until the first divergence (or drift), both
 * kernels stepping the same event, each checked entry of the fastpath
 * kernel checked; then each kernel runs on its own, the earlier first. */
bool sim_plan(const struct sim *s, struct sim_plan *p)
{
    if (s->events >= s->max_events)
        return false;
    bool lockstep = !s->diverged && !s->k[0].done;
    if (!lockstep && s->k[0].done && s->k[1].done)
        return false;
    p->a = peek(s, &s->k[0]);
    p->b = s->shadow ? p->a : peek(s, &s->k[1]); /* (peek does not read fast) */
    p->lockstep = lockstep;
    p->drift = lockstep && !same_event(p->a, p->b);
    p->step_a = !p->drift && (lockstep || p->a.t <= p->b.t);
    p->step_b = !p->drift && (lockstep || p->a.t > p->b.t);
    return true;
}

/* The shadow (sim.h): while the two kernels are the same but for fast
 * (and the refusals, which their admissions may make differ), a step that
 * runs the same code on both (a system call that is not the target's
 * entry, an arrival, the end: no interrupt entry, where the fastpath
 * kernel takes the IRQ fastpath) is run on the slowpath kernel only; the
 * fastpath kernel is made its copy (sim_sync) before anything else reads
 * it. */
static bool mirrored(const struct sim *s, struct sim_ev e)
{
    return (e.kind == EV_USER && !checked_entry(s, &s->k[0], e)) || e.kind == EV_ARRIVAL || e.kind == EV_END;
}

/* kernel 1 the same as kernel 0 but for fast and the refusals: the
 * simulator's fields between fast and the counts (and the counts but
 * refused), and the kernel states as ks_same compares them */
static bool shadowable(const struct sim *s)
{
    const struct sim_kernel *k0 = &s->k[0], *k1 = &s->k[1];
    size_t from = offsetof(struct sim_kernel, now), to = offsetof(struct sim_kernel, refused);
    return s->no_record && !memcmp((const char *)k0 + from, (const char *)k1 + from, to - from) &&
           k0->asserts == k1->asserts && ks_same(&k0->ks, &k1->ks);
}

void sim_sync(struct sim *s)
{
    if (!s->shadow)
        return;
    struct sim_kernel *k0 = &s->k[0], *k1 = &s->k[1];
    uint32_t refused = k1->refused;
    struct sim_refusal refusals[SIM_MAX_REFUSED];
    memcpy(refusals, k1->refusals, sizeof refusals);
    size_t tail = offsetof(struct sim_kernel, ks) + sizeof k0->ks;
    ks_copy(&k1->ks, &k0->ks);
    memcpy((char *)k1 + tail, (const char *)k0 + tail, sizeof *k1 - tail);
    k1->fast = true;
    k1->refused = refused;
    memcpy(k1->refusals, refusals, sizeof refusals);
    s->shadow = false;
}

const struct sim_kernel *sim_kernel_of(const struct sim *s, int j)
{
    return s->shadow ? &s->k[0] : &s->k[j];
}

void sim_apply(struct sim *s, const struct sim_plan *p)
{
    struct sim_ev a = p->a, b = p->b;
    bool mirror = s->shadow && p->lockstep && !p->drift && mirrored(s, a);
    if (!mirror)
        sim_sync(s);
    if (p->drift) { /* no step: the next plan is the kernels' own */
        s->diverged = s->drift = true;
        s->div_time = a.t < b.t ? a.t : b.t;
        snprintf(s->drift_msg, sizeof s->drift_msg,
                 "next events differ without a divergence at an interrupt: slow t=%" PRIu64
                 " kind %d core %d, fast t=%" PRIu64 " kind %d core %d", a.t, a.kind, a.core, b.t, b.kind, b.core);
        return;
    }
    if (p->lockstep && checked_entry(s, &s->k[1], a))
        diff_at_entry(s, a);
    if (p->step_a)
        step_slow(s, a);
    if (p->step_b && !mirror)
        step(s, &s->k[1], b);
    s->events += p->lockstep ? 2 : 1;
    if (!mirror && p->lockstep && !s->diverged && s->no_record && shadowable(s))
        s->shadow = true;
}

void sim_run(struct sim *s)
{
    struct sim_plan p;
    while (sim_plan(s, &p))
        sim_apply(s, &p);
}

/* ---- the enumeration's hooks (check/executions.c) ---- */

int sim_undecided(const struct sim *s)
{
    for (int i = 0; i < s->w->n_threads; i++) {
        if (!(s->open >> i & 1u))
            continue;
        int tcb = s->tcb_of[i];
        for (int j = 0; j < 2; j++) {
            const struct sim_kernel *k = sim_kernel_of(s, j);
            for (int c = 0; c < n_cores(s) && !k->done; c++)
                if (cur_of(&k->ks, c) == tcb && k->pc[tcb] >= s->w->threads[i].n_prog)
                    return i;
        }
    }
    return -1;
}

void sim_decided(struct sim *s, int i, int slot)
{
    const struct wl_thread *t = &s->w->threads[i];
    int tcb = s->tcb_of[i];
    for (int j = 0; j < 2; j++)
        if (s->k[j].pc[tcb] == slot)
            set_pc(s, &s->k[j], t, tcb, slot);
}

void sim_copy(struct sim *dst, const struct sim *src)
{
    /* everything but the kernel states byte for byte, those as ks_copy
     * copies them (the used objects only: most of a kstate is unused
     * table); the records stay the source's (no_record: none) */
    size_t k0 = offsetof(struct sim, k), ks_end = offsetof(struct sim_kernel, ks) + sizeof src->k[0].ks;
    memcpy(dst, src, k0);
    for (int j = 0; j < 2; j++) {
        ks_copy(&dst->k[j].ks, &src->k[j].ks);
        memcpy((char *)&dst->k[j] + ks_end, (const char *)&src->k[j] + ks_end, sizeof src->k[j] - ks_end);
    }
    size_t after = k0 + sizeof src->k;
    memcpy((char *)dst + after, (const char *)src + after, sizeof *src - after);
    dst->div_state = NULL;
}

void sim_free(struct sim *s)
{
    free(s->div_state);
    s->div_state = NULL;
    for (int i = 0; i < 2; i++) {
        free(s->k[i].segs);
        free(s->k[i].marks);
        s->k[i].segs = NULL;
        s->k[i].marks = NULL;
    }
}

bool sim_kernel_stormed(const struct sim_kernel *k)
{
    return k->vppi_deferred >= SIM_STORM_DEFERRALS;
}

bool sim_stormed(const struct sim *s)
{
    return sim_kernel_stormed(&s->k[0]) || sim_kernel_stormed(&s->k[1]);
}

uint32_t sim_vtimer_taken(const struct sim *s, const struct sim_kernel *k)
{
    uint32_t n = 0;
    for (int q = 0; q < s->w->n_irqs; q++)
        n += s->w->irqs[q].vtimer ? k->delivered[q] : 0;
    return n;
}

bool sim_cut(const struct sim *s)
{
    return sim_stormed(s) || !s->k[0].done || !s->k[1].done;
}

bool sim_checked_none(const struct sim *s)
{
    return s->sweep && s->sweep_checks == 0; /* the sweep checks every target entry */
}

bool sim_all_admitted(const struct sim *s)
{
    return s->k[0].refused == 0 && s->k[1].refused == 0;
}
