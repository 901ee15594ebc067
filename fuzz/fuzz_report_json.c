/* fuzz_report_json: libFuzzer target for the JSON reader behind `irqsim
 * report` (check/jval.c under report's limits) and what report does with
 * what it reads (tools/report.c, linked in): the input is a run's JSON
 * file. Any input must be rendered or refused (exit 2) without a memory
 * error or a hang; a reproducer it names is read only when it is a
 * regular scenario file (the fuzzer may name any path). */
#define _GNU_SOURCE /* memfd_create */

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int mem = -1; /* the memory file the input is written to */
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (mem < 0) {
        mem = memfd_create("fuzz_report_json", 0);
        if (mem < 0)
            __builtin_trap();
        snprintf(path, sizeof path, "/proc/self/fd/%d", mem);
    }
    if (ftruncate(mem, 0) != 0 || pwrite(mem, data, size, 0) != (ssize_t)size)
        __builtin_trap();
    char *argv[] = {"irqsim", "report", "-o", "/dev/null", path, NULL};
    int rc = report_main(5, argv);
    if (rc != 0 && rc != 2)
        __builtin_trap();
    return 0;
}
