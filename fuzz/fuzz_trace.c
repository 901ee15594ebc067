/* fuzz_trace: libFuzzer target for the trace reader (check/trace.c) and
 * what `irqsim replay` does with a record. The input is a trace file,
 * plain or gzip (the bytes go through zlib as a file's would). Any input
 * must be read or refused without a memory error or a hang; each record's
 * scenarios are parsed, an entry state the invariants admit (as replay
 * admits it) is run through both fastpaths and the slowpath, and the
 * outcome is compared with the captured exit with the differences printed
 * (diff_compare, print_refills). */
#define _GNU_SOURCE /* memfd_create */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "scenario.h"
#include "target.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* records per input: enough for the reader's state across records
 * (the header, the entry's object order), few enough to stay fast */
#define FUZZ_TRACE_RECORDS 8

/* allocated on the first input and kept: the states and a record are large */
static struct kstate *in, *model, *real;
static struct trace_rec *rec;
static FILE *sink;
static int mem = -1; /* the memory file the input is written to */

static void setup(void)
{
    in = calloc(1, sizeof *in);
    model = calloc(1, sizeof *model);
    real = calloc(1, sizeof *real);
    rec = calloc(1, sizeof *rec);
    sink = fopen("/dev/null", "w");
    mem = memfd_create("fuzz_trace", 0);
    if (!in || !model || !real || !rec || !sink || mem < 0)
        __builtin_trap();
}

/* One record as replay takes it: refused unless the invariants admit the
 * entry state (what PR #1227's fastpath leaves admitted), then each path. */
static void replay_record(void)
{
    struct scen_error err;
    struct inv_report rep;
    if (scenario_parse(rec->entry, strlen(rec->entry), "entry", in, &err) != 0 ||
        scenario_parse(rec->exit, strlen(rec->exit), "exit", real, &err) != 0)
        return;
    /* a trace is of PR #1227's kernel taking device interrupts: the IRQ
     * entry's target as written (replay.c, traced_admit) */
    if (kstate_check_admit(in, INV_AT_ENTRY, target_admit_left_by(target_get(ENTRY_IRQ), FP_PR1227), &rep) != 0)
        return;
    for (int v = -1; v < FP_VARIANT_COUNT; v++) {
        ks_copy(model, in);
        if (v < 0)
            handleInterruptEntry(model);
        else
            fastpath_irq(model, v);
        if (trace_same_objects(model, real))
            diff_compare(model, real, sink);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (mem < 0)
        setup();
    if (ftruncate(mem, 0) != 0 || pwrite(mem, data, size, 0) != (ssize_t)size || lseek(mem, 0, SEEK_SET) != 0)
        __builtin_trap();
    int fd = dup(mem); /* the reader closes its own */
    struct trace_reader r;
    char err[400];
    if (fd < 0 || trace_open_fd(&r, fd, "fuzz", err, sizeof err) != 0)
        __builtin_trap();
    for (int n = 0; n < FUZZ_TRACE_RECORDS && trace_next(&r, rec, err, sizeof err) == 1; n++)
        replay_record();
    trace_close(&r);
    return 0;
}
