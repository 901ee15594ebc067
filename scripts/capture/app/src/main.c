/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * irqcov: a root task that drives the exits of PR #1227's IRQ fastpath on a
 * single-core MCS kernel (qemu-arm-virt), for scripts/capture/capture.sh.
 *
 * The IRQ source is the EL1 physical timer (PPI 30), exported to user level
 * (KernelArmExportPTMRUser/PCNTUser). Each phase programs it ITER times
 * while a spinner thread S runs, so that the interrupt finds the state the
 * phase set up:
 *   switch     handler H above S, waiting on the IRQ's notification
 *   append     H at S's priority
 *   enqueue    H below S
 *   ntfn_idle  nobody waits on the notification
 *   ntfn_active  the notification is already active (signalled before)
 *   bound      H bound to the notification, blocked receiving on an endpoint
 *   passive    H has no SC; the notification has one to donate
 *   no_sc      H has no SC and the notification none (slowpath)
 *   unsched    H's SC is not configured (woken, not schedulable)
 *   sporadic   H on a sporadic SC that overruns its budget (refills in the
 *              future, release queue non-empty)
 *   undelivered  the IRQ handler has no notification
 *   periodic   switch again with a periodic background thread in the
 *              release queue
 *   cbs        switch to a handler on a constant-bandwidth SC (budget <
 *              period, not sporadic) whose head refill is ready (F7)
 *   idle       a priority-0 handler woken while the idle thread runs (F5)
 *   refill     a passive handler takes the notification's SC whose head
 *              refill is in the future (slow_refill)
 *   asid       a handler whose vspace's ASID pool was deleted (slow_asid)
 *   release    the IRQ is taken just before a thread's release, and the
 *              kernel reads the clock after it (F3)
 * The app-vtable build runs only vtable (an empty VTable slot; the debug
 * kernel halts).
 * With several domains (KernelNumDomains > 1, the app-dom build) only:
 *   domain     the woken handler is in another domain (slow_domain_core)
 *   domain_end the IRQ comes in the last MIN_BUDGET of the domain (F2)
 * The root thread runs at the lowest priority of all, so it runs only when
 * every other thread is blocked.
 */
#include <stddef.h>
#include <stdint.h>
#include <sel4/sel4.h>
#include <sel4runtime.h>
#include <autoconf.h>

#ifndef CONFIG_NUM_DOMAINS
#define CONFIG_NUM_DOMAINS 1
#endif

#define IRQ_TIMER 30
#define ITER 20
#define PRIO_ROOT 10
#define PRIO_S 100
#define D_US 200 /* timer delay after S starts spinning */

/* ---- output without libc stdio ---- */
static void puts_(const char *s)
{
    for (; *s; s++)
        seL4_DebugPutChar(*s);
}

static void putn(uint64_t n)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n && i);
    puts_(b + i);
}

static void check(seL4_Error e, const char *what)
{
    if (e != seL4_NoError) {
        puts_("irqcov: error ");
        putn((uint64_t)e);
        puts_(" in ");
        puts_(what);
        puts_("\n");
        seL4_DebugHalt();
    }
}

/* ---- the exported EL1 physical timer ---- */
static inline uint64_t now(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntpct_el0" : "=r"(v));
    return v;
}

static inline uint64_t freq(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}

static inline void timer_at(uint64_t t)
{
    __asm__ volatile("msr cntp_cval_el0, %0; msr cntp_ctl_el0, %1; isb" ::"r"(t), "r"((uint64_t)1));
}

static inline void timer_off(void)
{
    __asm__ volatile("msr cntp_ctl_el0, %0; isb" ::"r"((uint64_t)0));
}

static uint64_t ticks_per_us;

static void spin_us(uint64_t us)
{
    uint64_t t0 = now();
    while (now() - t0 < us * ticks_per_us)
        ;
}

/* ---- objects ---- */
static seL4_BootInfo *bi;
static seL4_CPtr next_slot, untyped;

static seL4_CPtr make(seL4_Word type, seL4_Word bits)
{
    seL4_CPtr slot = next_slot++;
    check(seL4_Untyped_Retype(untyped, type, bits, seL4_CapInitThreadCNode, 0, 0, slot, 1), "retype");
    return slot;
}

static seL4_CPtr irq_handler, sched_control;

static seL4_CPtr new_sc(uint64_t budget_us, uint64_t period_us, seL4_Word flags)
{
    seL4_CPtr sc = make(seL4_SchedContextObject, seL4_MinSchedContextBits + 1);
    if (budget_us)
        check(seL4_SchedControl_ConfigureFlags(sched_control, sc, budget_us, period_us, 4, 0, flags), "sc configure");
    return sc;
}

/* Worker threads share the root's address space; they use only syscalls
 * that keep to registers (no IPC buffer, no TLS). */
struct worker {
    seL4_CPtr tcb, sc, ntfn, done, ep, reply;
    volatile uint64_t count;
    uint64_t spin;
    int mode;
    int stack;
};

#define STACK_WORDS 1024
static uint64_t stacks[16][STACK_WORDS] __attribute__((aligned(16)));
static int n_stacks;

static void wait_ntfn(seL4_CPtr n)
{
    seL4_Word badge;
    seL4_WaitWithMRs(n, &badge, NULL, NULL, NULL, NULL);
}

/* S: spin for the time it is told, then report and wait again */
static struct worker spinner;
static volatile uint64_t spin_for_us;

static void spinner_fn(struct worker *w)
{
    for (;;) {
        wait_ntfn(w->ntfn);
        spin_us(spin_for_us);
        seL4_Signal(w->done);
    }
}

enum { H_WAIT, H_RECV };

/* a periodic thread that never blocks: it sits in the release queue
 * whenever its budget is spent */
static void background_fn(struct worker *w)
{
    for (;;)
        w->count++;
}

static void handler_fn(struct worker *w)
{
    for (;;) {
        if (w->mode == H_RECV) {
            seL4_Word badge;
            seL4_RecvWithMRs(w->ep, &badge, w->reply, NULL, NULL, NULL, NULL);
        } else if (w->mode == H_WAIT) {
            wait_ntfn(w->ntfn);
        }
        timer_off();
        w->count++;
        if (w->spin)
            spin_us(w->spin);
        if (w->done)
            seL4_Signal(w->done);
    }
}

/* (re)start w at fn on its own stack */
static void resume_at(struct worker *w, void (*fn)(struct worker *))
{
    seL4_UserContext r = {0};
    r.pc = (seL4_Word)fn;
    r.sp = (seL4_Word)&stacks[w->stack][STACK_WORDS];
    r.x0 = (seL4_Word)w;
    check(seL4_TCB_WriteRegisters(w->tcb, 1, 0, sizeof r / sizeof(seL4_Word), &r), "write registers");
}

/* a new thread in domain dom (set before it first runs) */
static void start_in(struct worker *w, void (*fn)(struct worker *), seL4_Word prio, seL4_CPtr sc, seL4_Word dom)
{
    w->tcb = make(seL4_TCBObject, seL4_TCBBits);
    w->stack = n_stacks++;
    check(seL4_TCB_Configure(w->tcb, seL4_CapInitThreadCNode, 0, seL4_CapInitThreadVSpace, 0, 0, 0), "tcb configure");
    check(seL4_TCB_SetSchedParams(w->tcb, seL4_CapInitThreadTCB, prio, prio, sc, 0), "sched params");
    if (dom)
        check(seL4_DomainSet_Set(seL4_CapDomain, (seL4_Uint8)dom, w->tcb), "domain");
    resume_at(w, fn);
}

static void start(struct worker *w, void (*fn)(struct worker *), seL4_Word prio, seL4_CPtr sc)
{
    start_in(w, fn, prio, sc, 0);
}

/* One IRQ with S spinning: program the timer, let S spin past it, then (at
 * the root's low priority) everyone else is blocked again. */
static void one_irq(void)
{
    spin_for_us = 3 * D_US;
    timer_at(now() + D_US * ticks_per_us);
    seL4_Signal(spinner.ntfn);
    wait_ntfn(spinner.done);
    timer_off();
    check(seL4_IRQHandler_Ack(irq_handler), "ack");
}

static void phase(const char *name, struct worker *h)
{
    uint64_t c0 = h ? h->count : 0;
    puts_("irqcov: phase ");
    puts_(name);
    for (int i = 0; i < ITER; i++)
        one_irq();
    puts_(h ? " handler ran " : "");
    if (h)
        putn(h->count - c0);
    puts_("\n");
}

static struct worker h;

#if CONFIG_NUM_DOMAINS == 1
static struct worker hp, bg;
static seL4_CPtr psc;

/* cbs (F7): a direct switch to a handler whose SC is constant-bandwidth
 * (budget < period, not sporadic) with a ready head refill: the slowpath's
 * switchSchedContext runs refill_unblock_check on it, the PR's switch does
 * not. */
static void phase_cbs(void)
{
    static struct worker hc;
    hc.ntfn = make(seL4_NotificationObject, 0);
    hc.mode = H_WAIT;
    start(&hc, handler_fn, PRIO_S + 50, new_sc(1000, 10000, 0));
    check(seL4_IRQHandler_SetNotification(irq_handler, hc.ntfn), "set ntfn");
    phase("cbs", &hc);
}

/* idle (F5): a priority-0 handler woken while the idle thread runs. The
 * root waits for it, so every other thread is blocked except bg, the
 * periodic thread of the periodic phase, which never blocks: the root runs
 * only while bg is in the release queue, and the IRQ 50 us later finds the
 * idle thread. On the PR kernel the handler is appended behind the idle
 * thread and runs at bg's next release (up to one period, 5 ms, later). */
static void phase_idle(void)
{
    static struct worker h0;
    h0.ntfn = make(seL4_NotificationObject, 0);
    h0.done = make(seL4_NotificationObject, 0);
    h0.mode = H_WAIT;
    start(&h0, handler_fn, 0, new_sc(10000, 10000, 0));
    check(seL4_IRQHandler_SetNotification(irq_handler, h0.ntfn), "set ntfn");
    puts_("irqcov: phase idle");
    uint64_t c0 = h0.count;
    for (int i = 0; i < ITER / 2; i++) {
        timer_at(now() + 50 * ticks_per_us);
        wait_ntfn(h0.done);
        timer_off();
        check(seL4_IRQHandler_Ack(irq_handler), "ack");
    }
    puts_(" handler ran ");
    putn(h0.count - c0);
    puts_("\n");
}

/* refill (slow_refill): the passive handler hp takes the notification's SC,
 * whose head refill is in the future. A notification takes an SC whatever
 * its refills (SchedContext_Bind checks sc_released only for a blocked
 * thread), so: let a thread exhaust a periodic SC (100 us every 1 s; it is
 * postponed), unbind it, bind it to hp's notification. The slowpath donates
 * it and postpones hp; hp is then given back its own SC to wait again. */
static void phase_refill(void)
{
    static struct worker tb;
    seL4_CPtr s1 = new_sc(100, 1000000, 0);
    check(seL4_SchedContext_Unbind(psc), "unbind psc from ntfn");
    start(&tb, background_fn, PRIO_S + 60, s1); /* runs 100 us, then waits for its release */
    check(seL4_SchedContext_Unbind(s1), "unbind s1");
    check(seL4_IRQHandler_SetNotification(irq_handler, hp.ntfn), "set ntfn");
    puts_("irqcov: phase refill");
    uint64_t c0 = hp.count;
    for (int i = 0; i < ITER / 2; i++) {
        check(seL4_SchedContext_Bind(s1, hp.ntfn), "bind s1 to ntfn");
        one_irq(); /* hp woken with s1: not ready, postponed */
        check(seL4_SchedContext_Unbind(s1), "unbind s1");
        check(seL4_SchedContext_Bind(psc, hp.tcb), "bind psc"); /* hp runs, waits again */
        check(seL4_SchedContext_Unbind(psc), "unbind psc");
    }
    puts_(" handler ran ");
    putn(hp.count - c0);
    puts_("\n");
}

/* asid (slow_asid): a handler whose VTable cap is a mapped vspace cap whose
 * ASID pool was deleted afterwards (deleteASIDPool clears armKSASIDTable's
 * entry, the caps keep their ASID). The slowpath switches to it on the
 * global vspace; it faults at once and, with no fault handler, becomes
 * inactive. It is restarted in the root's vspace for the next IRQ. */
static void phase_asid(void)
{
    static struct worker hv;
    seL4_CPtr ut = make(seL4_UntypedObject, seL4_ASIDPoolBits);
    seL4_CPtr pool = next_slot++;
    check(seL4_ARM_ASIDControl_MakePool(seL4_CapASIDControl, ut, seL4_CapInitThreadCNode, pool, seL4_WordBits),
          "make pool");
    seL4_CPtr vs = make(seL4_ARM_VSpaceObject, 0);
    check(seL4_ARM_ASIDPool_Assign(pool, vs), "assign asid");
    check(seL4_CNode_Delete(seL4_CapInitThreadCNode, pool, seL4_WordBits), "delete pool");
    hv.ntfn = make(seL4_NotificationObject, 0);
    hv.mode = H_WAIT;
    start(&hv, handler_fn, PRIO_S + 50, new_sc(10000, 10000, 0)); /* waits on hv.ntfn */
    check(seL4_IRQHandler_SetNotification(irq_handler, hv.ntfn), "set ntfn");
    puts_("irqcov: phase asid\n");
    for (int i = 0; i < ITER / 4; i++) {
        check(seL4_TCB_SetSpace(hv.tcb, 0, seL4_CapInitThreadCNode, 0, vs, 0), "set space");
        one_irq(); /* woken, switched to on the global vspace, faults */
        check(seL4_TCB_SetSpace(hv.tcb, 0, seL4_CapInitThreadCNode, 0, seL4_CapInitThreadVSpace, 0), "set space");
        resume_at(&hv, handler_fn); /* runs to its wait */
    }
}

#ifdef IRQCOV_VTABLE_HALT
/* vtable (slow_vtable, the app-vtable build only): the woken handler's
 * VTable slot is empty (the vspace cap it was given is revoked while it
 * waits). On aarch64 that slot holds either a mapped vspace cap or nothing
 * (TCB_SetSpace and TCB_Configure take only a mapped one, and no operation
 * unmaps a vspace cap in place), so isValidVTableRoot_fp fails only for a
 * null cap; the PR reads the vspace root from the cap first, and a debug
 * kernel halts there on the accessor's cap-type assertion. This phase shows
 * that halt on the running kernel; it ends the run. */
static void phase_vtable_halt(void)
{
    static struct worker hx;
    seL4_CPtr vs = make(seL4_ARM_VSpaceObject, 0);
    check(seL4_ARM_ASIDPool_Assign(seL4_CapInitThreadASIDPool, vs), "assign asid");
    hx.ntfn = make(seL4_NotificationObject, 0);
    hx.mode = H_WAIT;
    start(&hx, handler_fn, PRIO_S + 50, new_sc(10000, 10000, 0)); /* waits on hx.ntfn */
    check(seL4_TCB_SetSpace(hx.tcb, 0, seL4_CapInitThreadCNode, 0, vs, 0), "set space");
    check(seL4_CNode_Revoke(seL4_CapInitThreadCNode, vs, seL4_WordBits), "revoke"); /* empties hx's VTable slot */
    check(seL4_IRQHandler_SetNotification(irq_handler, hx.ntfn), "set ntfn");
    check(seL4_IRQHandler_Ack(irq_handler), "ack");
    puts_("irqcov: phase vtable (a debug kernel halts at the next IRQ)\n");
    one_irq();
    puts_("irqcov: vtable: the kernel did not halt\n");
}
#endif

/* release (F3): the device IRQ comes just before a release, so that the
 * kernel takes it before its timer fires but reads the clock after the
 * release is due. A thread xr spins on a periodic SC (100 us every 1 ms).
 * Each time the SC is unbound, configured (refill_new: one refill at the
 * kernel's clock C of that call, as the SC is not bound to a runnable
 * thread) and bound to xr again; xr runs its 100 us at once and is
 * postponed to C + 1 ms (refill_budget_check). C is the root's counter
 * before the call plus an unknown syscall latency, so the IRQ is swept
 * from 6 us before to 1 us after t0 + 1 ms (t0 the root's reading); the
 * entries with the release due at the clock read and no timer IRQ first
 * are the ones F3 needs. */
static void phase_release(void)
{
    static struct worker xr;
    seL4_CPtr sx = new_sc(100, 1000, 0);
    start(&xr, background_fn, PRIO_ROOT + 20, sx); /* runs 100 us, postponed */
    check(seL4_IRQHandler_SetNotification(irq_handler, h.ntfn), "set ntfn");
    check(seL4_TCB_SetPriority(h.tcb, seL4_CapInitThreadTCB, PRIO_S + 50), "prio");
    puts_("irqcov: phase release");
    uint64_t c0 = h.count;
    for (int i = 0; i < 2 * ITER; i++) {
        int64_t before = (int64_t)(6 * ticks_per_us) - (int64_t)(i * 7 * ticks_per_us) / (2 * ITER);
        check(seL4_SchedContext_Unbind(sx), "unbind");
        uint64_t t0 = now();
        check(seL4_SchedControl_ConfigureFlags(sched_control, sx, 100, 1000, 4, 0, 0), "configure");
        check(seL4_SchedContext_Bind(sx, xr.tcb), "bind");
        /* xr has run its budget; it waits in the release queue until C + 1 ms */
        uint64_t t = t0 + 1000 * ticks_per_us - (uint64_t)before;
        if (now() + 20 * ticks_per_us > t)
            continue; /* too late for this release (gdb's stops stretch guest time) */
        spin_for_us = (t - now()) / ticks_per_us + 100;
        timer_at(t);
        seL4_Signal(spinner.ntfn);
        wait_ntfn(spinner.done);
        timer_off();
        check(seL4_IRQHandler_Ack(irq_handler), "ack");
    }
    check(seL4_SchedContext_Unbind(sx), "unbind"); /* xr stops */
    puts_(" handler ran ");
    putn(h.count - c0);
    puts_("\n");
}

static void single_domain(void)
{
#ifdef IRQCOV_VTABLE_HALT
    phase_vtable_halt();
#endif
    /* switch, append, enqueue: one handler, three priorities */
    h.ntfn = make(seL4_NotificationObject, 0);
    h.mode = H_WAIT;
    start(&h, handler_fn, PRIO_S + 50, new_sc(10000, 10000, 0));
    check(seL4_IRQHandler_SetNotification(irq_handler, h.ntfn), "set ntfn");
    check(seL4_IRQHandler_Ack(irq_handler), "ack");
    phase("switch", &h);
    check(seL4_TCB_SetPriority(h.tcb, seL4_CapInitThreadTCB, PRIO_S), "prio");
    phase("append", &h);
    check(seL4_TCB_SetPriority(h.tcb, seL4_CapInitThreadTCB, PRIO_S - 50), "prio");
    phase("enqueue", &h);

    /* ntfn_idle and ntfn_active: a notification nobody waits on */
    seL4_CPtr lone = make(seL4_NotificationObject, 0);
    check(seL4_IRQHandler_SetNotification(irq_handler, lone), "set ntfn");
    puts_("irqcov: phase ntfn_idle/ntfn_active\n");
    for (int i = 0; i < ITER; i++) {
        seL4_Word badge;
        one_irq();
        seL4_Poll(lone, &badge); /* consume: Active -> Idle */
        seL4_Signal(lone);       /* Active before the next IRQ */
        one_irq();
        seL4_Poll(lone, &badge);
    }

    /* bound: the notification's bound TCB blocked receiving on an endpoint */
    static struct worker hb;
    hb.ntfn = make(seL4_NotificationObject, 0);
    hb.ep = make(seL4_EndpointObject, 0);
    hb.reply = make(seL4_ReplyObject, 0);
    hb.mode = H_RECV;
    start(&hb, handler_fn, PRIO_S + 50, new_sc(10000, 10000, 0)); /* blocks receiving on hb.ep */
    check(seL4_TCB_BindNotification(hb.tcb, hb.ntfn), "bind ntfn");
    check(seL4_IRQHandler_SetNotification(irq_handler, hb.ntfn), "set ntfn");
    phase("bound", &hb);

    /* passive: no SC of its own; the notification donates one */
    hp.ntfn = make(seL4_NotificationObject, 0);
    hp.mode = H_WAIT;
    psc = new_sc(10000, 10000, 0);
    start(&hp, handler_fn, PRIO_S + 50, psc); /* runs to its first wait */
    check(seL4_SchedContext_Unbind(psc), "unbind");
    check(seL4_SchedContext_Bind(psc, hp.ntfn), "bind sc to ntfn");
    check(seL4_IRQHandler_SetNotification(irq_handler, hp.ntfn), "set ntfn");
    phase("passive", &hp);

    /* no_sc: neither the handler nor the notification has an SC */
    static struct worker hn;
    hn.ntfn = make(seL4_NotificationObject, 0);
    hn.mode = H_WAIT;
    seL4_CPtr nsc = new_sc(10000, 10000, 0);
    start(&hn, handler_fn, PRIO_S + 50, nsc);
    check(seL4_SchedContext_Unbind(nsc), "unbind");
    check(seL4_IRQHandler_SetNotification(irq_handler, hn.ntfn), "set ntfn");
    puts_("irqcov: phase no_sc\n");
    for (int i = 0; i < ITER; i++) {
        one_irq(); /* the slowpath wakes hn; it cannot run */
        check(seL4_SchedContext_Bind(nsc, hn.tcb), "bind");   /* runs, waits again */
        check(seL4_SchedContext_Unbind(nsc), "unbind");
    }

    /* unsched: the notification donates an SC that is not configured (the
     * kernel refuses to bind one to a blocked thread directly) */
    static struct worker hu;
    hu.ntfn = make(seL4_NotificationObject, 0);
    hu.mode = H_WAIT;
    seL4_CPtr usc = new_sc(10000, 10000, 0);
    start(&hu, handler_fn, PRIO_S + 50, usc);
    check(seL4_SchedContext_Unbind(usc), "unbind");
    check(seL4_IRQHandler_SetNotification(irq_handler, hu.ntfn), "set ntfn");
    puts_("irqcov: phase unsched\n");
    for (int i = 0; i < ITER / 2; i++) {
        seL4_CPtr fresh = new_sc(0, 0, 0); /* not configured */
        check(seL4_SchedContext_Bind(fresh, hu.ntfn), "bind unconfigured to ntfn");
        one_irq(); /* woken with the donated SC, not schedulable */
        check(seL4_SchedControl_ConfigureFlags(sched_control, fresh, 10000, 10000, 4, 0, 0), "configure");
        /* hu ran and waits again: the SC went back to the notification */
        check(seL4_SchedContext_Unbind(fresh), "unbind");
    }

    /* sporadic: the handler overruns a small sporadic budget */
    static struct worker hs;
    hs.ntfn = make(seL4_NotificationObject, 0);
    hs.mode = H_WAIT;
    start(&hs, handler_fn, PRIO_S + 50, new_sc(300, 20000, seL4_SchedContext_Sporadic));
    check(seL4_IRQHandler_SetNotification(irq_handler, hs.ntfn), "set ntfn");
    for (uint64_t spin = 100; spin <= 500; spin += 200) {
        hs.spin = spin;
        phase(spin == 100 ? "sporadic 100us" : spin == 300 ? "sporadic 300us" : "sporadic 500us", &hs);
    }
    hs.spin = 0;

    /* undelivered: the handler has no notification (the IRQ is masked) */
    check(seL4_IRQHandler_Clear(irq_handler), "clear");
    phase("undelivered", NULL);

    /* periodic: switch again, with a periodic spinner in the release queue */
    start(&bg, background_fn, PRIO_ROOT + 10, new_sc(200, 5000, 0));
    check(seL4_TCB_SetPriority(h.tcb, seL4_CapInitThreadTCB, PRIO_S + 50), "prio");
    check(seL4_IRQHandler_SetNotification(irq_handler, h.ntfn), "set ntfn");
    phase("periodic", &h);
    check(seL4_TCB_SetPriority(h.tcb, seL4_CapInitThreadTCB, PRIO_S), "prio");
    phase("periodic append", &h);

    phase_cbs();
    phase_idle();
    phase_refill();
    phase_asid();
    phase_release();
}
#endif

#if CONFIG_NUM_DOMAINS > 1
/* The app-dom build's schedule (domain_schedule.c): domain 0 for DOM_MS,
 * then domain 1 for DOM_MS. The root, the spinner and h run in domain 0. */
#define DOM_MS 2

/* marker: spins in domain 1 writing the counter, so the last value it
 * wrote is (about) when domain 1 ended and domain 0 began */
static volatile uint64_t d1_last;

static void marker_fn(struct worker *w)
{
    (void)w;
    for (;;)
        d1_last = now();
}

/* domain_end (F2): the IRQ is timed for the last MIN_BUDGET (20 us) of
 * domain 0, when isCurDomainExpired holds at the entry clock. The end of
 * domain 0 is estimated from the marker (one period after domain 1 ended,
 * less the kernel's latency), so the timer is swept from 5 to 60 us before
 * that estimate; the IRQs in the window are the ones the trace needs. */
static void phase_domain_end(void)
{
    const uint64_t len = DOM_MS * 1000 * ticks_per_us;
    puts_("irqcov: phase domain_end");
    uint64_t c0 = h.count;
    for (int i = 0; i < 3 * ITER; i++) {
        uint64_t before = (5 + (uint64_t)(i % 12) * 5) * ticks_per_us;
        uint64_t t = now(), end = d1_last + len;
        while (end < t + before + 100 * ticks_per_us)
            end += 2 * len;
        spin_for_us = (end - t) / ticks_per_us + 100;
        timer_at(end - before);
        seL4_Signal(spinner.ntfn);
        wait_ntfn(spinner.done);
        timer_off();
        check(seL4_IRQHandler_Ack(irq_handler), "ack");
    }
    puts_(" handler ran ");
    putn(h.count - c0);
    puts_("\n");
}

/* domain (slow_domain_core): the handler is in domain 1, the spinner it
 * interrupts in domain 0; the slowpath queues it in domain 1's ready queue
 * and it runs (and waits again) in domain 1's next slot. */
static void several_domains(void)
{
    static struct worker marker, hd;
    start_in(&marker, marker_fn, PRIO_ROOT + 10, new_sc(10000, 10000, 0), 1);
    hd.ntfn = make(seL4_NotificationObject, 0);
    hd.mode = H_WAIT;
    start_in(&hd, handler_fn, PRIO_S + 50, new_sc(10000, 10000, 0), 1);
    check(seL4_IRQHandler_SetNotification(irq_handler, hd.ntfn), "set ntfn");
    check(seL4_IRQHandler_Ack(irq_handler), "ack");
    phase("domain", &hd);

    h.ntfn = make(seL4_NotificationObject, 0);
    h.mode = H_WAIT;
    start(&h, handler_fn, PRIO_S + 50, new_sc(10000, 10000, 0));
    check(seL4_IRQHandler_SetNotification(irq_handler, h.ntfn), "set ntfn");
    phase_domain_end();
}
#endif
int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    bi = sel4runtime_bootinfo();
    ticks_per_us = freq() / 1000000;
    next_slot = bi->empty.start;
    sched_control = bi->schedcontrol.start;
    /* the largest non-device untyped */
    seL4_Word best = 0;
    for (seL4_CPtr u = bi->untyped.start; u < bi->untyped.end; u++) {
        seL4_UntypedDesc *d = &bi->untypedList[u - bi->untyped.start];
        if (!d->isDevice && d->sizeBits > best) {
            best = d->sizeBits;
            untyped = u;
        }
    }
    puts_("irqcov: start\n");
    check(seL4_TCB_SetPriority(seL4_CapInitThreadTCB, seL4_CapInitThreadTCB, PRIO_ROOT), "root prio");
    irq_handler = next_slot++;
    check(seL4_IRQControl_Get(seL4_CapIRQControl, IRQ_TIMER, seL4_CapInitThreadCNode, irq_handler, seL4_WordBits),
          "irq get");
    timer_off();

    spinner.ntfn = make(seL4_NotificationObject, 0);
    spinner.done = make(seL4_NotificationObject, 0);
    start(&spinner, spinner_fn, PRIO_S, new_sc(10000, 10000, 0));

#if CONFIG_NUM_DOMAINS > 1
    several_domains();
#else
    single_domain();
#endif
    puts_("irqcov: done\n");
    seL4_DebugHalt();
    return 0;
}
