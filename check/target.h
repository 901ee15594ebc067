/*
 * target: the fastpath under check, per kernel entry. `irq` is PR #1227's
 * fastpath_irq against handleInterruptEntry (sim/irq_fast.h), `signal` is
 * master's fastpath_signal against slowpath(SysSend) (sim/sig_fast.h). A
 * state names its entry (kstate sys.entry); the checking machinery reads
 * the exits, fixes, variants and the two paths of that entry from here, so
 * diff, classify, the fuzzer and the reports word both alike.
 */
#ifndef IRQSIM_TARGET_H
#define IRQSIM_TARGET_H

#include <stdbool.h>

#include "kstate.h"

#define TARGET_MAX_EXITS 32

struct target {
    const char *name;            /* "irq", "signal" */
    const char *fastpath;        /* the fastpath function modelled */
    const char *slowpath;        /* the slowpath it is checked against */
    int exits;                   /* exit count */
    int first_merged_exit;       /* exits below are the corrected fastpath's own */
    const char *(*exit_name)(int e);
    const char *(*exit_what)(int e);
    bool (*exit_is_fallback)(int e);
    int fixes;                   /* fix count */
    unsigned fix_all;
    const char *(*fix_name)(int bit);
    const char *(*fix_what)(int bit);
    const int *removal_order;    /* fix bits, the order classify drops them */
    const char *variants;        /* "pr1227|fixed" */
    const char *(*variant_name)(int v);
    int (*variant_parse)(const char *s);
    void (*slow)(struct kstate *ks);
    int (*fast_tested)(struct kstate *ks, unsigned fixes, unsigned *tested);
};

/* ENTRY_IRQ or ENTRY_SIGNAL; any other value gives the IRQ target. */
const struct target *target_get(int entry);
const struct target *target_of(const struct kstate *ks);
/* "irq" or "signal" to enum ks_entry; -1 when unknown. */
int target_parse(const char *s);
/* Run the fastpath of variant v (0: as written, 1: fixed) on ks. */
/* The fix set of a variant (enum fp_variant; the signal variants share
 * its numbers): none for the fastpath as written, all for fixed. */
unsigned target_variant_fixes(const struct target *t, int v);
int target_fast(const struct target *t, struct kstate *ks, int v);

#endif
