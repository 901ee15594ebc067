/* fuzz_workload: libFuzzer target for the workload simulator. The bytes
 * steer workload_from_bytes; the workload must print and parse back to
 * itself, and simulating it on both kernels, for both fastpaths, must
 * neither crash nor reach a kernel entry whose state the invariant checker
 * refuses (a checker or model error) nor fail a kernel assertion.
 * Hypervisor workloads run master's kernel (base's VPPIEvent bug, below). */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "irq_fast.h"
#include "scenario.h"
#include "sim.h"
#include "target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The simulator's event limit for fuzzing (sim_init sets 2,000,000, for
 * `irqsim sim`): a generated workload whose threads loop on system calls
 * reaches that limit before its 400,000-tick horizon and then takes
 * seconds to a minute under the sanitizers (a 53 s input was measured),
 * so the fuzzer ran 2-25 inputs a second. The first divergence, an
 * assertion or a refused state comes early or from the same loop again;
 * docs/FUZZING.md has the speeds before and after. */
#define FUZZ_WL_MAX_EVENTS 10000u

/* large: allocated on the first input and kept */
static struct workload *w, *back;
static struct sim *s;

/* the printed workload reads back to the same text (workload.h) */
static void round_trip(void)
{
    if (!workload_round_trips(w, back, stderr))
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!w && (!(w = calloc(1, sizeof *w)) || !(back = calloc(1, sizeof *back)) || !(s = calloc(1, sizeof *s))))
        __builtin_trap();
    /* the last byte's low bit picks a second core */
    /* ... and its next bit a hypervisor build (guests on either core) */
    workload_from_bytes(data, size, size && (data[size - 1] & 1) ? 2 : 1, target_default(), size && (data[size - 1] & 2),
                        w);
    round_trip();
    /* a kernel without VCPU_FAULT_SCHEDULABLE sends a fault to a thread in
     * the release queue, a state the checker refuses and base reaches (its
     * known bug, held by tests/test_sim_vcpu.c): hypervisor workloads run
     * a kernel with the fix, whose refusals would be ours */
    for (int k = 0; k < KS_KERNEL_COUNT && w->hyp && !cfg_kernel_has(w->kernel, KF_VCPU_FAULT_SCHEDULABLE); k++)
        if (cfg_kernel_has(k, KF_VCPU_FAULT_SCHEDULABLE))
            w->kernel = (uint8_t)k;
    for (int v = 0; v < FP_VARIANT_COUNT; v++) {
        if (sim_init(s, w, v) != 0) {
            sim_free(s);
            return 0; /* the kernel refused a setup call: not a workload */
        }
        s->max_events = FUZZ_WL_MAX_EVENTS;
        sim_run(s);
        if (!sim_all_admitted(s) || s->k[0].asserts || s->k[1].asserts) {
            workload_print(stderr, w);
            sim_report(stderr, s);
            __builtin_trap();
        }
        sim_free(s);
    }
    return 0;
}
