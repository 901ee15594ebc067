/*
 * irquser_noswitch: the no-switch situation of seL4 PR #1227's benchmark,
 * as a root task for sel4bench's irquser slot (scripts/bench-qemu.sh
 * writes it over apps/irquser/src/main.c in the build workspace only).
 *
 * A spinner at priority 254 in its own address space reads the cycle
 * counter in a loop; the IRQ handler ("ticker") at 253 waits on the
 * timer IRQ's notification. Both scheduling contexts have 5 s budget
 * and period (pr1227-benchmarks.md), so the kernel's own timer does not
 * fire in between. Each timer IRQ wakes the ticker without a switch (it
 * is enqueued below the spinner: the fastpath's "enqueue" exit); the
 * spinner sees the gap between two reads of the counter, which is the
 * time the interrupt took from it, records it, and blocks on a wake-up
 * notification so that the ticker can run: the ticker acks the IRQ and,
 * in one system call (seL4_NBSendWait), wakes the spinner and waits for
 * the next IRQ. Only the first gap of each period is recorded: the
 * spinner blocks right after it.
 *
 * The gaps go where sel4bench's irquser puts its samples
 * (irquser_results_t: thread_results and process_results, and the
 * early-processing sums), so sel4bench's own processing prints them.
 *
 * Own code (irqsim), written against sel4bench's libsel4benchsupport API.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include <autoconf.h>
#include <sel4benchirquser/gen_config.h>
#include <stdio.h>
#include <stdlib.h>
#include <sel4runtime.h>
#include <muslcsys/vsyscall.h>
#include <utils/attribute.h>
#include <utils/time.h>
#include <sel4platsupport/timer.h>
#include <sel4platsupport/irq.h>
#include <platsupport/irq.h>
#include <platsupport/ltimer.h>
#include <sel4bench/arch/sel4bench.h>
#include <sel4utils/process.h>
#include <benchmark.h>
#include <irq.h>

#define INTERRUPT_PERIOD_NS (10 * NS_IN_MS)
/* a gap longer than this many counter units is an interrupt: one loop
 * iteration is a few instructions (under QEMU -icount shift=3, 8 units
 * each), an interrupt's round trip hundreds */
#define GAP_MIN 200
/* 5 s budget and period, in microseconds (the MCS API's unit) */
#define NOSWITCH_SC_US (5 * US_IN_S)

void abort(void)
{
    benchmark_finished(EXIT_FAILURE);
}

/* the spinner process: argv = shared page address, wake notification slot */
static void ns_spinner_fn(int argc, char **argv)
{
    sel4bench_init();
    if (argc != 2) {
        abort();
    }
    volatile ccnt_t *gaps = (volatile ccnt_t *) atol(argv[0]);
    seL4_CPtr wake = (seL4_CPtr) atol(argv[1]);
    ccnt_t last, now;
    int n = 0;

    /* the ticker releases us once it waits for the first IRQ */
    seL4_Wait(wake, NULL);
    SEL4BENCH_READ_CCNT(last);
    while (1) {
        SEL4BENCH_READ_CCNT(now);
        if (now - last > GAP_MIN) {
            if (n < N_RUNS) {
                gaps[n++] = now - last;
            }
            /* let the ticker ack the IRQ; it wakes us when it waits again */
            seL4_Wait(wake, NULL);
            SEL4BENCH_READ_CCNT(now);
        }
        last = now;
    }
}

static seL4_CPtr done_ep;
static seL4_CPtr timer_signal;
static seL4_CPtr wake_ntfn;
static ps_irq_ops_t *irq_ops;
static ntfn_id_t timer_ntfn_id;

/* the handler thread: N_RUNS IRQs, each acked, then done */
static void ns_ticker_fn(int argc, char **argv)
{
    seL4_Word badge = 0;
    seL4_MessageInfo_t none = seL4_MessageInfo_new(0, 0, 0, 0);

    (void) argc;
    (void) argv;
    seL4_NBSendWait(wake_ntfn, none, timer_signal, &badge);
    for (int i = 0; i < N_RUNS; i++) {
        sel4platsupport_irq_handle(irq_ops, timer_ntfn_id, badge);
        if (i + 1 < N_RUNS) {
            seL4_NBSendWait(wake_ntfn, none, timer_signal, &badge);
        }
    }
    seL4_Send(done_ep, none);
}

static env_t *env;

void CONSTRUCTOR(MUSLCSYS_WITH_VSYSCALL_PRIORITY) init_env(void)
{
    static size_t object_freq[seL4_ObjectTypeCount] = {
        [seL4_TCBObject] = 2,
        [seL4_EndpointObject] = 1,
        [seL4_NotificationObject] = 1,
#ifdef CONFIG_KERNEL_MCS
        [seL4_SchedContextObject] = 2,
        [seL4_ReplyObject] = 2
#endif
    };

    env = benchmark_get_env(sel4runtime_argc(), sel4runtime_argv(), sizeof(irquser_results_t), object_freq);
}

static void ns_long_sc(seL4_CPtr sc)
{
#ifdef CONFIG_KERNEL_MCS
    int error = seL4_SchedControl_ConfigureFlags(simple_get_sched_ctrl(&env->simple, 0), sc,
                                                 NOSWITCH_SC_US, NOSWITCH_SC_US, 0, 0, 0);
    ZF_LOGF_IF(error, "Failed to configure a 5 s scheduling context");
#else
    (void) sc;
#endif
}

int main(int argc, char **argv)
{
    irquser_results_t *results;
    vka_object_t endpoint = {0}, wake = {0};

    benchmark_init_timer(env);
    results = (irquser_results_t *) env->results;
    if (vka_alloc_endpoint(&env->slab_vka, &endpoint) != 0) {
        ZF_LOGF("Failed to allocate endpoint");
    }
    if (vka_alloc_notification(&env->slab_vka, &wake) != 0) {
        ZF_LOGF("Failed to allocate notification");
    }
    done_ep = endpoint.cptr;
    wake_ntfn = wake.cptr;
    timer_signal = env->ntfn.cptr;
    irq_ops = &env->io_ops.irq_ops;
    timer_ntfn_id = env->ntfn_id;

    int error = ltimer_reset(&env->ltimer);
    ZF_LOGF_IF(error, "Failed to reset timer");

    sel4bench_init();
    ccnt_t start, end;
    for (int i = 0; i < N_RUNS; i++) {
        SEL4BENCH_READ_CCNT(start);
        SEL4BENCH_READ_CCNT(end);
        results->overheads[i] = end - start;
    }
    results->overhead_min = getMinOverhead(results->overheads, N_RUNS);

    ccnt_t *gaps = (ccnt_t *) vspace_new_pages(&env->vspace, seL4_AllRights, 1, seL4_PageBits);
    ZF_LOGF_IF(gaps == NULL, "Failed to allocate page");

    sel4utils_thread_t ticker;
    benchmark_configure_thread(env, endpoint.cptr, seL4_MaxPrio - 2, "ticker", &ticker);
    ns_long_sc(ticker.sched_context.cptr);

    sel4utils_process_t spinner;
    benchmark_shallow_clone_process(env, &spinner, seL4_MaxPrio - 1, ns_spinner_fn, "spinner");
    ns_long_sc(spinner.thread.sched_context.cptr);
    void *gaps_remote = vspace_share_mem(&env->vspace, &spinner.vspace, gaps, 1, seL4_PageBits,
                                         seL4_AllRights, true);
    ZF_LOGF_IF(gaps_remote == NULL, "Failed to share the page");
    seL4_CPtr wake_remote = sel4utils_copy_cap_to_process(&spinner, &env->slab_vka, wake.cptr);
    ZF_LOGF_IF(wake_remote == 0, "Failed to copy the wake-up notification");

    char strings[2][WORD_STRING_SIZE];
    char *spinner_argv[2];
    sel4utils_create_word_args(strings, spinner_argv, 2, (seL4_Word) gaps_remote, (seL4_Word) wake_remote);
    error = benchmark_spawn_process(&spinner, &env->slab_vka, &env->vspace, 2, spinner_argv, 1);
    ZF_LOGF_IF(error, "Failed to start the spinner");
    error = sel4utils_start_thread(&ticker, (sel4utils_thread_entry_fn) ns_ticker_fn, NULL, NULL, true);
    ZF_LOGF_IF(error, "Failed to start the ticker");

    /* the first IRQ comes a period after both threads are in place: they
     * run (spinner, then ticker) as soon as this thread blocks */
    error = ltimer_set_timeout(&env->ltimer, INTERRUPT_PERIOD_NS, TIMEOUT_PERIODIC);
    ZF_LOGF_IF(error, "Failed to configure timer");

    benchmark_wait_children(endpoint.cptr, "child of irq-user", 1);
    error = seL4_TCB_Suspend(spinner.thread.tcb.cptr);
    ZF_LOGF_IF(error, "Failed to stop the spinner");

    ccnt_t sum = 0, sum2 = 0;
    for (int i = 0; i < N_RUNS; i++) {
        results->thread_results[i] = gaps[i];
        results->process_results[i] = gaps[i];
        if (i >= N_IGNORED) {
            ccnt_t s = gaps[i] - results->overhead_min;
            sum += s;
            sum2 += s * s;
        }
    }
    results->thread_results_ep_sum = results->process_results_ep_sum = sum;
    results->thread_results_ep_sum2 = results->process_results_ep_sum2 = sum2;
    results->thread_results_ep_num = results->process_results_ep_num = N_RUNS - N_IGNORED;

    benchmark_finished(EXIT_SUCCESS);
    return 0;
}
