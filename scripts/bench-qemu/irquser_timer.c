/*
 * irquser_timer: what the kernel's own timer interrupt costs a running
 * thread, for the fallback overhead of a non-signal IRQ (issue 22 item 3).
 * A root task for sel4bench's irquser slot (scripts/bench-qemu.sh writes
 * it over apps/irquser/src/main.c in the build workspace only).
 *
 * One spinner thread at priority 254 with sel4bench's round-robin
 * scheduling context (budget = period = the boot time slice, 5 ms) and no
 * user-level timer: every 5 ms its budget runs out, the kernel timer IRQ
 * (an IRQTimer, never IRQSignal) is taken, the kernel charges the budget,
 * refills it and, the spinner being alone at its priority, resumes it.
 * On a kernel with the IRQ fastpath the fastpath's checks run first and
 * then fall back to the slowpath. The spinner records each gap between
 * two reads of the cycle counter longer than GAP_MIN.
 *
 * The gaps go where sel4bench's irquser puts its samples
 * (irquser_results_t: thread_results and process_results), so
 * sel4bench's own processing prints them.
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
#include <sel4bench/arch/sel4bench.h>
#include <benchmark.h>
#include <irq.h>

/* a gap longer than this many counter units is an interrupt: one loop
 * iteration is a few instructions (under QEMU -icount shift=3, 8 units
 * each), an interrupt's round trip hundreds */
#define GAP_MIN 200

void abort(void)
{
    benchmark_finished(EXIT_FAILURE);
}

static seL4_CPtr done_ep;

static void tm_spinner_fn(ccnt_t *gaps, void *unused)
{
    ccnt_t last, now;
    int n = 0;

    (void) unused;
    SEL4BENCH_READ_CCNT(last);
    while (n < N_RUNS) {
        SEL4BENCH_READ_CCNT(now);
        if (now - last > GAP_MIN) {
            gaps[n++] = now - last;
            SEL4BENCH_READ_CCNT(now);
        }
        last = now;
    }
    seL4_Send(done_ep, seL4_MessageInfo_new(0, 0, 0, 0));
}

static env_t *env;

void CONSTRUCTOR(MUSLCSYS_WITH_VSYSCALL_PRIORITY) init_env(void)
{
    static size_t object_freq[seL4_ObjectTypeCount] = {
        [seL4_TCBObject] = 1,
        [seL4_EndpointObject] = 1,
#ifdef CONFIG_KERNEL_MCS
        [seL4_SchedContextObject] = 1,
        [seL4_ReplyObject] = 1
#endif
    };

    env = benchmark_get_env(sel4runtime_argc(), sel4runtime_argv(), sizeof(irquser_results_t), object_freq);
}

int main(int argc, char **argv)
{
    irquser_results_t *results;
    vka_object_t endpoint = {0};

    results = (irquser_results_t *) env->results;
    if (vka_alloc_endpoint(&env->slab_vka, &endpoint) != 0) {
        ZF_LOGF("Failed to allocate endpoint");
    }
    done_ep = endpoint.cptr;

    sel4bench_init();
    ccnt_t start, end;
    for (int i = 0; i < N_RUNS; i++) {
        SEL4BENCH_READ_CCNT(start);
        SEL4BENCH_READ_CCNT(end);
        results->overheads[i] = end - start;
    }
    results->overhead_min = getMinOverhead(results->overheads, N_RUNS);

    sel4utils_thread_t spinner;
    benchmark_configure_thread(env, endpoint.cptr, seL4_MaxPrio - 1, "spinner", &spinner);
    int error = sel4utils_start_thread(&spinner, (sel4utils_thread_entry_fn) tm_spinner_fn,
                                       (void *) results->thread_results, NULL, true);
    ZF_LOGF_IF(error, "Failed to start the spinner");
    benchmark_wait_children(endpoint.cptr, "child of irq-user", 1);
    error = seL4_TCB_Suspend(spinner.tcb.cptr);
    ZF_LOGF_IF(error, "Failed to stop the spinner");

    ccnt_t sum = 0, sum2 = 0;
    for (int i = 0; i < N_RUNS; i++) {
        results->process_results[i] = results->thread_results[i];
        if (i >= N_IGNORED) {
            ccnt_t s = results->thread_results[i] - results->overhead_min;
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
