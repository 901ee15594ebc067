/*
 * fastpath: what the modelled system-call fastpaths share
 * (include/fastpath/fastpath.h is the kernel's): the entry work they skip
 * and their corrected variants do, in one definition each.
 */
#ifndef IRQSIM_FASTPATH_H
#define IRQSIM_FASTPATH_H

#include "kstate.h"

/* isCurDomainExpired() (thread.h:118-122) on ksDomainTime as it is, or,
 * with entry_clock, as updateTimestamp would leave it at the entry clock
 * (src/kernel/thread.c: the time since ksCurTime plus MIN_BUDGET reaching
 * it makes it 0) */
bool fp_domain_expired(const struct kstate *ks, bool entry_clock);

/* A run of a fastpath with fix bits: the fixes on, those the run tested
 * (the ones its outcome depended on), and whether the call was performed
 * (a fallback's checkBudgetRestart may refuse it). */
struct fp_run {
    unsigned on, tested;
    bool performed;
};
bool fp_fix_on(struct fp_run *f, unsigned bit);

/* The entry work an IPC fastpath skips and its corrected variant does, as
 * fix bits of that fastpath (0: the target has no such fix) and the exits
 * it falls back by: read the clock (updateTimestamp); fall back where
 * handleSyscall's checkBudgetRestart would charge (budget, then the
 * domain, include/kernel/thread.h:269-290) or schedule()'s awaken would
 * release a thread (thread.c:375). */
struct fp_entry {
    unsigned time, budget, domain, release;
    int exit_budget, exit_domain, exit_release, none;
};
/* the exit it falls back by, or e->none */
int fp_entry_checks(struct kstate *ks, struct fp_run *f, const struct fp_entry *e);
/* What schedule() does at the exit and an IPC fastpath does not, with
 * those fixes on: send the reschedule IPIs left owed at user level
 * (doMaskReschedule) and honour a pending ksReprogram (commitTime,
 * setNextInterrupt); both are left only by master's fastpath_signal
 * (docs/FINDINGS-signal.md, S5 and S9). Returns exit. */
int fp_finish(struct kstate *ks, struct fp_run *f, unsigned ipi_bit, unsigned reprogram_bit, int exit);

/* thread_state_ptr_set_tsType_np: the word tsType shares with
 * blockingObject is written whole, so the stale blocking object goes */
void thread_state_set_tsType_np(struct ks_tcb *t, int ts);
/* thread_state_ptr_set_replyObject_np: the reply's word is written whole,
 * clearing the flags that share it (structures_64.bf:329-345) */
void thread_state_set_replyObject_np(struct ks_tcb *t, int r);
/* switchToThread_fp (master include/arch/arm/arch/64/mode/fastpath/
 * fastpath.h): t's vspace root with the ASID the caller checked, the
 * FPU (lazyFPURestore), ksCurThread */
void switchToThread_fp(struct kstate *ks, int t);

/* A fastpath's table of exits or fixes: name, what it means, and for an
 * exit whether it falls back to the slowpath. The lookups give "?" (and
 * false) out of range. */
struct fp_text {
    const char *name, *what;
    bool fallback;
};
const char *fp_text_name(const struct fp_text *t, int n, int i);
const char *fp_text_what(const struct fp_text *t, int n, int i);
bool fp_text_fallback(const struct fp_text *t, int n, int i);
/* The variants of master's fastpaths (as enum fp_variant numbers them):
 * "merged" (as written) and "fixed"; -1 for an unknown name. */
const char *fp_merged_variant_name(int v);
int fp_merged_variant_parse(const char *s);

#endif
