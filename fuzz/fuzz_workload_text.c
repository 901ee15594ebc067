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

static char *print_text(const struct workload *x, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        __builtin_trap();
    workload_print(f, x);
    if (fclose(f) != 0)
        __builtin_trap();
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!w && (!(w = calloc(1, sizeof *w)) || !(back = calloc(1, sizeof *back))))
        __builtin_trap();
    struct scen_error err;
    if (workload_parse((const char *)data, size, "fuzz", w, &err) != 0)
        return 0;
    size_t len, len2;
    char *text = print_text(w, &len);
    if (workload_parse(text, len, "reprint", back, &err) != 0) {
        fprintf(stderr, "printed workload does not parse (%d: %s):\n%s", err.line, err.msg, text);
        __builtin_trap();
    }
    char *again = print_text(back, &len2);
    if (len != len2 || memcmp(text, again, len) != 0) {
        fprintf(stderr, "workload did not round-trip; printed:\n%s\nreprinted:\n%s", text, again);
        __builtin_trap();
    }
    free(again);
    free(text);
    return 0;
}
