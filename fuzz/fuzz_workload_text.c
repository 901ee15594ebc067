/* fuzz_workload_text: libFuzzer target for the workload-file reader
 * (check/workload.c, workload_parse), which `irqsim sim` reads. Any text
 * must be read or refused without a memory error or a hang, and a text it
 * accepts must print and read back to the same workload (the identity
 * docs/workload-format.md promises). fuzz_workload fuzzes the simulator
 * on generated workloads; this one the reader on any text. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* large: allocated on the first input and kept */
static struct workload *w, *back;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!w && (!(w = calloc(1, sizeof *w)) || !(back = calloc(1, sizeof *back))))
        __builtin_trap();
    struct scen_error err;
    if (workload_parse((const char *)data, size, "fuzz", w, &err) != 0)
        return 0;
    if (!workload_round_trips(w, back, stderr)) /* the printed text reads back the same */
        __builtin_trap();
    return 0;
}
