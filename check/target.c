/* target: the two fastpaths under check, as one table each. */
#include "target.h"

#include <string.h>

#include "irq_fast.h"
#include "irq_slow.h"
#include "sig_fast.h"

_Static_assert((int)FP_PR1227 == (int)SIG_MERGED && (int)FP_FIXED == (int)SIG_FIXED, "variant numbers are shared by the targets");
_Static_assert(FP_EXIT_COUNT <= TARGET_MAX_EXITS && SIG_EXIT_COUNT <= TARGET_MAX_EXITS, "TARGET_MAX_EXITS");

/* classify.c explains the order: fixes that change where the fastpath goes
 * first, so a divergence is charged to a state repair when one suffices */
static const int irq_order[FIX_COUNT] = {
    FIX_IDLE_SWITCH_BIT, FIX_ENTRY_RELEASE_BIT, FIX_ENTRY_DOMAIN_BIT, FIX_ENTRY_BUDGET_BIT,
    FIX_ENTRY_TIME_BIT,  FIX_REPROGRAM_BIT,     FIX_DEADLINE_BIT,     FIX_CB_UNBLOCK_BIT,
    FIX_SPLIT_EOI_BIT, /* last: on base it changes nothing, so every earlier decision is as before */
};

/* entry_time goes before entry_domain: with the clock read, the merged
 * domain guard already sees the expiry, so a domain-expiry divergence would
 * otherwise be charged to entry_time (the stale-clock defect) */
static const int sig_order[SFIX_COUNT] = {
    SFIX_MSG_INFO_BIT,   SFIX_ENTRY_RELEASE_BIT, SFIX_ENTRY_TIME_BIT,
    SFIX_ENTRY_DOMAIN_BIT, SFIX_ENTRY_BUDGET_BIT, SFIX_REPROGRAM_BIT, SFIX_IPI_BIT,
};

static const struct target targets[ENTRY_COUNT] = {
    {"irq", "fastpath_irq (PR #1227)", "handleInterruptEntry", FP_EXIT_COUNT, FP_SLOW_RELEASE + 1, fp_exit_name,
     fp_exit_what, fp_exit_is_fallback, FIX_COUNT, FIX_ALL, fp_fix_name, fp_fix_what, irq_order, "pr1227|fixed",
     fp_variant_name, fp_variant_parse, handleInterruptEntry, fastpath_irq_tested},
    {"signal", "fastpath_signal (master, PR #793)", "slowpath(SysSend)", SIG_EXIT_COUNT, SIG_FIRST_MERGED_EXIT,
     sig_exit_name, sig_exit_what, sig_exit_is_fallback, SFIX_COUNT, SFIX_ALL, sig_fix_name, sig_fix_what,
     sig_order, "merged|fixed", sig_variant_name, sig_variant_parse, slowpath_signal, fastpath_signal_tested},
};

const struct target *target_get(int entry)
{
    return entry == ENTRY_SIGNAL ? &targets[ENTRY_SIGNAL] : &targets[ENTRY_IRQ];
}

const struct target *target_of(const struct kstate *ks)
{
    return target_get(ks->sys.entry);
}

int target_parse(const char *s)
{
    for (int e = 0; e < ENTRY_COUNT; e++)
        if (strcmp(s, targets[e].name) == 0)
            return e;
    return -1;
}

unsigned target_variant_fixes(const struct target *t, int v)
{
    return v == FP_FIXED ? t->fix_all : 0;
}

int target_fast(const struct target *t, struct kstate *ks, int v)
{
    unsigned tested;
    return t->fast_tested(ks, target_variant_fixes(t, v), &tested);
}
