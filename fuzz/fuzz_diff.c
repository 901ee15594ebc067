/* fuzz_diff: libFuzzer / AFL++ target for the differential check.
 *
 * The input bytes steer the state generator (gen_src_bytes + gen_state,
 * default bounds); the state must satisfy the entry invariants (else the
 * generator has a bug: report and abort). Both interrupt paths then run on
 * it, and the verdict decides:
 *
 *   default (corrected fastpath, FP_FIXED): any divergence or failed kernel
 *   assertion aborts with the verdict and the state as a scenario file.
 *
 *   IRQSIM_FUZZ_VARIANT=pr1227 (in the environment, or -DIRQSIM_FUZZ_VARIANT=pr1227
 *   at build time; the environment wins): the proposal as written. Its divergences are the known
 *   findings (docs/FINDINGS.md), so they do not abort; only a generator bug
 *   does. The fuzzer then explores the proposal's exits for coverage.
 *
 * No allocation per input: the three states are allocated on the first call
 * and kept. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "gen.h"
#include "invariant.h"
#include "irq_fast.h"
#include "print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fuzz_diff_ws {
    struct kstate in, slow, fast;
    struct gen_bounds bounds;
    int variant;
} *ws;

static void setup(void)
{
    ws = calloc(1, sizeof *ws);
    if (!ws)
        abort();
    gen_bounds_default(&ws->bounds);
    const char *v = getenv("IRQSIM_FUZZ_VARIANT");
#ifdef IRQSIM_FUZZ_VARIANT
#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)
    if (!v || !*v)
        v = FUZZ_STR(IRQSIM_FUZZ_VARIANT);
#endif
    ws->variant = FP_FIXED;
    if (v && *v) {
        int p = fp_variant_parse(v);
        if (p < 0) {
            fprintf(stderr, "fuzz_diff: IRQSIM_FUZZ_VARIANT='%s': expected pr1227 or fixed\n", v);
            abort();
        }
        ws->variant = p;
    }
    if (ws->variant == FP_PR1227)
        fprintf(stderr, "fuzz_diff: fuzzing the proposal (pr1227): its divergences are expected findings "
                        "and do not abort; only a generator bug does\n");
}

static void print_state(const char *what)
{
    fprintf(stderr, "---- %s (scenario file; `irqsim check --fastpath %s FILE` reproduces) ----\n", what,
            fp_variant_name(ws->variant));
    ks_print(stderr, &ws->in);
    fprintf(stderr, "---- end ----\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ws)
        setup();
    struct gen_src src;
    gen_src_bytes(&src, data, size);
    if (gen_state(&ws->in, &src, &ws->bounds) != 0) {
        fprintf(stderr, "fuzz_diff: default bounds rejected: %s\n", gen_bounds_check(&ws->bounds));
        abort();
    }
    struct inv_report r;
    int n = kstate_check(&ws->in, INV_AT_ENTRY, &r);
    if (n != 0) {
        fprintf(stderr, "fuzz_diff: GENERATOR BUG: generated state breaks %d entry invariant%s\n", n,
                n == 1 ? "" : "s");
        for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
            fprintf(stderr, "  invariant %s: %s\n", inv_name(r.items[i].id), r.items[i].msg);
        print_state("generated state");
        abort();
    }
    struct diff_verdict v;
    diff_run(&ws->in, ws->variant, true, &v, &ws->slow, &ws->fast);
    bool asserts = v.slow_asserts || v.fast_asserts;
    if (ws->variant == FP_FIXED && (!v.agree || asserts)) {
        fprintf(stderr, "fuzz_diff: the corrected fastpath %s\n",
                v.agree ? "agrees but a kernel assertion failed" : "DIVERGES from the slowpath");
        diff_report(stderr, &v, &ws->slow, &ws->fast);
        print_state("entry state");
        abort();
    }
    return 0;
}
