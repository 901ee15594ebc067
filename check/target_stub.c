/*
 * target_stub: a test-only target, built only with -DIRQSIM_STUB_TARGET=ON
 * (CTest stub_target, tests/stub_target.sh). Its "fastpath" of the
 * interrupt entry is the slowpath itself, and it is registered as the
 * second target of that entry kind, beside PR #1227's: the proof that a
 * target is this one file, its model stub and one registration line, and
 * that a state tells two fastpaths of one entry apart (kstate sys.target).
 * Every command that takes --target then builds, prints, parses,
 * generates, enumerates and simulates it, and it must agree everywhere.
 */
#include "target.h"

#include <stdio.h>
#include <string.h>

#include "build.h"
#include "exhaust.h"
#include "irq_fast.h"
#include "irq_slow.h"

enum { STUB_EXIT_SLOW, STUB_EXIT_COUNT };

/* the model stub: handleInterruptEntry whatever the fixes (none) */
static int stub_fast_tested(struct kstate *ks, unsigned fixes, unsigned *tested)
{
    (void)fixes;
    *tested = 0;
    handleInterruptEntry(ks);
    return STUB_EXIT_SLOW;
}

static int stub_irq_fast(struct kstate *ks, int variant)
{
    unsigned tested;
    return stub_fast_tested(ks, (unsigned)variant, &tested);
}

static const char *stub_exit_name(int e)
{
    return e == STUB_EXIT_SLOW ? "slow" : "?";
}

static const char *stub_exit_what(int e)
{
    return e == STUB_EXIT_SLOW ? "the slowpath, always" : "?";
}

static bool stub_exit_is_fallback(int e)
{
    return e == STUB_EXIT_SLOW;
}

static const char *stub_fix_name(int bit)
{
    (void)bit;
    return "?";
}

static const char *stub_variant_name(int v)
{
    return v == FP_FIXED ? "fixed" : "written";
}

static int stub_variant_parse(const char *s)
{
    return !strcmp(s, "written") ? FP_PR1227 : !strcmp(s, "fixed") ? FP_FIXED : -1;
}

/* the IRQ is already drawn (gen.c): every generated state is an entry */
static int stub_gen_entry(struct kstate *ks, struct gen_src *src)
{
    (void)ks;
    (void)src;
    return 0;
}

/* the enumeration: any current thread, a spurious IRQ or one that signals
 * (exh_plan entry[0]) */
enum { STUB_SPURIOUS, STUB_SIGNAL };
static int stub_current(struct exh_walk *w, int left)
{
    return exh_choose(w, left >= 1 ? CUR_KINDS : 1);
}

static void stub_plan(struct exh_walk *w, struct exh_plan *p)
{
    p->entry[0] = exh_choose(w, 2) ? STUB_SIGNAL : STUB_SPURIOUS;
}

static bool stub_timer(const struct exh_plan *p)
{
    (void)p;
    return false;
}

static bool stub_signals(const struct exh_plan *p)
{
    return p->entry[0] == STUB_SIGNAL;
}

static void stub_build(struct kstate *ks, const struct exh_plan *p, int n)
{
    ks->active_irq = KS_IRQ_INVALID;
    if (p->entry[0] != STUB_SIGNAL)
        return;
    build_irq_signal(ks, 20, n, 1, true);
    ks->active_irq = 20;
}

static const char *stub_text(const struct exh_plan *p, char *buf, size_t len)
{
    snprintf(buf, len, "irq=%s", p->entry[0] == STUB_SIGNAL ? "signal" : "spurious");
    return buf;
}

static const struct exh_ops stub_exh = {stub_current, stub_plan, stub_timer, stub_signals, stub_signals,
                                        false, false, stub_build, stub_text};

const struct target target_stub = {
    .name = "stub",
    .entry = ENTRY_IRQ,
    .kernel = -1,
    .fastpath = "the stub fastpath (the slowpath)",
    .fast_fn = "fastpath_stub",
    .slowpath = "handleInterruptEntry",
    .exits = STUB_EXIT_COUNT,
    .exit_name = stub_exit_name,
    .exit_what = stub_exit_what,
    .exit_is_fallback = stub_exit_is_fallback,
    .fix_name = stub_fix_name,
    .fix_what = stub_fix_name,
    .variants = "written|fixed",
    .variant_name = stub_variant_name,
    .variant_parse = stub_variant_parse,
    .slow = handleInterruptEntry,
    .fast_tested = stub_fast_tested,
    .gen_entry = stub_gen_entry,
    .exh = &stub_exh,
    .sim = {.irq_fast = stub_irq_fast},
    .words =
        {
            .entry_a = "an interrupt",
            .mismatch_hint = "",
            .checked_one = "device interrupt",
            .checked_many = "device interrupts",
            .agreed = "device interrupt",
            .json_checked = "device_interrupts_checked",
            .by = "",
            .label = "stub",
            .slow_short = "slowpath",
            .subject = "the stub fastpath",
            .fast_intro = "the stub fastpath",
            .event = "one IRQ",
            .fast_label = "stub",
            .preface = "",
            .fuzz_args = "--target stub ",
            .space = "the entry clock placed on both sides of every budget, domain and release edge",
            .verdict_fast = " stub fastpath",
            .verdict_slow = "the slowpath",
        },
};
