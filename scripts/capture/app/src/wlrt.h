/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * wlrt.h: the run-time of a root task generated from an irqsim workload
 * file by scripts/capture/wl2app.py (docs/TRACES.md, "Applications
 * generated from workload files"). The generated file defines the objects,
 * the thread programs and wl_setup(); this header supplies what they share.
 *
 * Time: the workload's ticks (WL_HZ a second, the workload's board) are
 * converted to the counter of qemu-arm-virt (CNTFRQ_EL0, 62.5 MHz) at run
 * time. Time 0 of the workload is T0, the root's counter reading after it
 * resumed the threads (the simulated setup calls take a few ticks too), or
 * with a domain schedule a start of the schedule (wl_dom_sync), plus
 * WL_OFFSET_US (wl2app.py --offset-us).
 *
 * The workload's one device IRQ with arrivals is the EL1 physical timer
 * (PPI 30, exported to user level): the line is asserted at the arrival
 * (CNTP_CVAL_EL0 = T0 + arrival) and stays asserted, as a level-triggered
 * device's line does, until the driver acknowledges it: ack:N first
 * deasserts it (wl_deassert) and then calls IRQHandler_Ack.
 */
#ifndef WLRT_H
#define WLRT_H

#include <stddef.h>
#include <stdint.h>
#include <sel4/sel4.h>
#include <sel4runtime.h>
#include <autoconf.h>

/* ---- output without libc stdio ---- */
static void wl_puts(const char *s)
{
    for (; *s; s++)
        seL4_DebugPutChar(*s);
}

static void wl_putn(uint64_t n)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n && i);
    wl_puts(b + i);
}

static void wl_check(seL4_Error e, const char *what)
{
    if (e == seL4_NoError)
        return;
    wl_puts("irqcov: error ");
    wl_putn((uint64_t)e);
    wl_puts(" in ");
    wl_puts(what);
    wl_puts("\n");
    seL4_DebugHalt();
}

/* ---- the counter and the exported EL1 physical timer ---- */
static inline uint64_t wl_now(void)
{
    uint64_t v;
    __asm__ volatile("isb; mrs %0, cntpct_el0" : "=r"(v));
    return v;
}

static inline uint64_t wl_freq(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}

static inline void wl_timer_at(uint64_t t)
{
    __asm__ volatile("msr cntp_cval_el0, %0; msr cntp_ctl_el0, %1; isb" ::"r"(t), "r"((uint64_t)1));
}

static inline void wl_timer_off(void)
{
    __asm__ volatile("msr cntp_ctl_el0, %0; isb" ::"r"((uint64_t)0));
}

/* ---- the workload's clock ---- */
static uint64_t wl_t0, wl_cnt_hz, wl_end, wl_setup_end;

/* workload ticks -> counter ticks */
static uint64_t wl_ticks(uint64_t t)
{
    return (uint64_t)((__uint128_t)t * wl_cnt_hz / WL_HZ);
}

static int wl_past_end(void)
{
    return wl_now() >= wl_end;
}

/* compute:D, D ticks of the counter from now (not of the thread's own
 * time: a preempted thread's loop goes on counting) */
static void wl_compute(uint64_t d)
{
    uint64_t until = wl_now() + wl_ticks(d);
    while (wl_now() < until && !wl_past_end())
        ;
}

/* ---- the device IRQ: arrivals on the timer comparator ---- */
static const uint64_t wl_arrivals[WL_N_ARRIVALS + 1] = WL_ARRIVALS;
static volatile int wl_next_arrival; /* index of the armed arrival */
static volatile int wl_armed;

static void wl_arm_first(void)
{
    wl_timer_off();
    if (WL_N_ARRIVALS == 0)
        return;
    wl_next_arrival = 0;
    wl_armed = 1;
    wl_timer_at(wl_t0 + wl_ticks(wl_arrivals[0]));
}

/* ack:N on the device IRQ. The armed arrival, once passed, asserted the
 * line, and the kernel took it (and masked it) or will. An arrival that came
 * after it keeps the line asserted (a level-triggered device raises it again
 * while masked: pending at the unmask; several such arrivals make one IRQ,
 * as irqsim coalesces them): the comparator is left on the last one that
 * passed, which fires again at once. Otherwise the line is deasserted: the
 * comparator moves to the next arrival, or is disabled after the last. */
static void wl_deassert(void)
{
    if (!wl_armed)
        return;
    uint64_t t = wl_now();
    int k = wl_next_arrival;
    if (wl_t0 + wl_ticks(wl_arrivals[k]) > t)
        return; /* not arrived yet: the line is not asserted */
    int j = k;
    while (j + 1 < WL_N_ARRIVALS && wl_t0 + wl_ticks(wl_arrivals[j + 1]) <= t)
        j++;
    if (j > k) {
        wl_next_arrival = j; /* came while masked: still asserted */
        wl_timer_at(wl_t0 + wl_ticks(wl_arrivals[j]));
        return;
    }
    if (k + 1 == WL_N_ARRIVALS) {
        wl_armed = 0;
        wl_timer_off();
        return;
    }
    wl_next_arrival = k + 1;
    wl_timer_at(wl_t0 + wl_ticks(wl_arrivals[k + 1]));
}

static void wl_ack(seL4_CPtr handler, int device)
{
    if (device)
        wl_deassert();
    wl_check(seL4_IRQHandler_Ack(handler), "ack");
}

/* ---- objects ---- */
static seL4_BootInfo *wl_bi;
static seL4_CPtr wl_next_slot, wl_untyped;

static seL4_CPtr wl_make(seL4_Word type, seL4_Word bits)
{
    seL4_CPtr slot = wl_next_slot++;
    wl_check(seL4_Untyped_Retype(wl_untyped, type, bits, seL4_CapInitThreadCNode, 0, 0, slot, 1), "retype");
    return slot;
}

/* a badged copy of a notification cap (what IRQHandler_SetNotification
 * takes the badge from) */
static seL4_CPtr wl_mint(seL4_CPtr ntfn, seL4_Word badge)
{
    seL4_CPtr slot = wl_next_slot++;
    wl_check(seL4_CNode_Mint(seL4_CapInitThreadCNode, slot, seL4_WordBits, seL4_CapInitThreadCNode, ntfn,
                             seL4_WordBits, seL4_AllRights, badge),
             "mint");
    return slot;
}

static seL4_CPtr wl_sc(uint64_t budget_us, uint64_t period_us, seL4_Word extra, seL4_Word flags, int configure)
{
    seL4_CPtr sc = wl_make(seL4_SchedContextObject, seL4_MinSchedContextBits + 1);
    if (configure)
        wl_check(seL4_SchedControl_ConfigureFlags(wl_bi->schedcontrol.start, sc, budget_us, period_us, extra, 0, flags),
                 "sc configure");
    return sc;
}

/* ---- threads ---- */
#define WL_STACK_WORDS 1024
static uint64_t wl_stacks[WL_N_THREADS][WL_STACK_WORDS] __attribute__((aligned(16)));
static seL4_CPtr wl_tcb[WL_N_THREADS];
static int wl_finished;

/* A thread shares the root's CSpace, VSpace, IPC buffer and TLS (so that
 * libsel4's stubs work; the root is suspended while the threads run, and
 * every thread's extra cap is the same, the root's TCB cap). */
static void wl_thread_new(int i, seL4_Word prio, seL4_CPtr sc, void (*fn)(void))
{
    uint64_t tp;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
    wl_tcb[i] = wl_make(seL4_TCBObject, seL4_TCBBits);
    wl_check(seL4_TCB_Configure(wl_tcb[i], seL4_CapInitThreadCNode, 0, seL4_CapInitThreadVSpace, 0,
                                (seL4_Word)wl_bi->ipcBuffer, seL4_CapInitThreadIPCBuffer),
             "tcb configure");
    wl_check(seL4_TCB_SetSchedParams(wl_tcb[i], seL4_CapInitThreadTCB, prio, prio, sc, 0), "sched params");
    seL4_UserContext r = {0};
    r.pc = (seL4_Word)fn;
    r.sp = (seL4_Word)&wl_stacks[i][WL_STACK_WORDS];
    r.tpidr_el0 = tp; /* the TLS base: WriteRegisters sets it too */
    wl_check(seL4_TCB_WriteRegisters(wl_tcb[i], 0, 0, sizeof r / sizeof(seL4_Word), &r), "write registers");
}

/* the end of a program: the thread suspends itself (irqsim's end of a
 * program); the last one to finish ends the run */
static void wl_finish(int i)
{
    if (__atomic_add_fetch(&wl_finished, 1, __ATOMIC_SEQ_CST) == WL_N_THREADS) {
        /* the counter values of time 0 and of the arrivals, to compare
         * with the trace's entry_counter */
        wl_puts("irqcov: t0 ");
        wl_putn(wl_t0);
        wl_puts(" setup end ");
        wl_putn(wl_setup_end);
        wl_puts(" arrivals");
        for (int k = 0; k < WL_N_ARRIVALS; k++) {
            wl_puts(" ");
            wl_putn(wl_t0 + wl_ticks(wl_arrivals[k]));
        }
        wl_puts("\nirqcov: done\n");
        seL4_DebugHalt();
    }
    seL4_TCB_Suspend(wl_tcb[i]);
}

static void wl_setup(void);
static void wl_resume_all(void);

/* With a domain schedule, time 0 is the start of the schedule. The
 * kernel's domain time does not follow the root's first counter reading
 * closely (measured: the first domain ended 1.05 ms late), so the root
 * synchronises: it reads the counter in a loop until a gap of about
 * WL_DOM_GAP_US shows that its domain ran again after the other domains'
 * longest run, which ends WL_DOM_GAP_END_US into the schedule. */
static uint64_t wl_dom_sync(void)
{
    uint64_t us = wl_cnt_hz / 1000000, prev = wl_now();
    for (;;) {
        uint64_t t = wl_now();
        if (t - prev > WL_DOM_GAP_US * us / 2)
            return t - WL_DOM_GAP_END_US * us;
        prev = t;
    }
}

int main(int argc, char **argv)
{
    uint64_t boot = wl_now(); /* (kept for debugging) */
    (void)argc;
    (void)argv;
    wl_bi = sel4runtime_bootinfo();
    wl_cnt_hz = wl_freq();
    wl_next_slot = wl_bi->empty.start;
    /* the smallest non-device untyped of at least 256 KiB (the objects
     * need far less): the boot untypeds come with their free index at the
     * end (provide_untyped_cap, src/kernel/boot.c), so the first retype
     * from one clears all of it (resetUntypedCap, src/object/untyped.c);
     * measured: 3 s of guest time for qemu-arm-virt's largest. Time 0 must
     * come soon after boot for a domain schedule. */
    seL4_Word best = 64;
    for (seL4_CPtr u = wl_bi->untyped.start; u < wl_bi->untyped.end; u++) {
        seL4_UntypedDesc *d = &wl_bi->untypedList[u - wl_bi->untyped.start];
        if (!d->isDevice && d->sizeBits >= 18 && d->sizeBits < best) {
            best = d->sizeBits;
            wl_untyped = u;
        }
    }
    wl_timer_off();
    wl_puts("irqcov: workload " WL_NAME "\n");
    wl_setup();
    (void)boot;
    if (WL_T0_AT_BOOT)
        wl_t0 = wl_dom_sync(); /* a start of the schedule, before now */
    wl_resume_all();
    wl_setup_end = wl_now();
    if (!WL_T0_AT_BOOT)
        wl_t0 = wl_setup_end;
    wl_t0 += WL_OFFSET_US * wl_cnt_hz / 1000000;
    /* an arrival the setup has passed: whole cycles later, same phase */
    while (WL_T0_AT_BOOT && WL_N_ARRIVALS && wl_t0 + wl_ticks(wl_arrivals[0]) <= wl_setup_end) {
        wl_t0 += WL_DOM_CYCLE_US * wl_cnt_hz / 1000000;
        wl_puts("irqcov: time 0 moved by one schedule cycle\n");
    }
    wl_end = wl_t0 + wl_ticks(WL_END);
    if (WL_N_ARRIVALS && wl_t0 + wl_ticks(wl_arrivals[0]) <= wl_setup_end)
        wl_puts("irqcov: warning: the first arrival came during the setup\n");
    wl_arm_first();
    seL4_TCB_Suspend(seL4_CapInitThreadTCB);
    return 0;
}

#endif
