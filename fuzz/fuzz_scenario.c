/* fuzz_scenario: libFuzzer target for the scenario parser. Any input must
 * parse or be rejected without a memory error; an accepted state must
 * print and parse back to the same state (ks_same). */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "print.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two states, allocated on the first input and kept: they are large. */
static struct kstate *first, *second;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct scen_error err;
    if (!first && (!(first = calloc(1, sizeof *first)) || !(second = calloc(1, sizeof *second))))
        __builtin_trap();
    if (scenario_parse((const char *)data, size, "fuzz", first, &err) != 0)
        return 0;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        __builtin_trap();
    ks_print(f, first);
    if (fclose(f) != 0)
        __builtin_trap();
    int rc = scenario_parse(text, len, "reprint", second, &err);
    if (rc != 0 || !ks_same(first, second)) {
        if (rc != 0)
            scen_error_print(stderr, &err);
        fprintf(stderr, "state did not round-trip; printed text:\n%s", text);
        __builtin_trap();
    }
    free(text);
    return 0;
}
