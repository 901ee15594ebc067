/*
 * classify: names a divergence. A class is the fastpath exit taken plus the
 * cause: a minimal set of fixes of the corrected fastpath that makes this
 * state agree, found by dropping fixes one by one from the full set, broad
 * entry fallbacks first. The differing fields are kept for the report.
 */
#ifndef IRQSIM_CLASSIFY_H
#define IRQSIM_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

#include "diff.h"
#include "kstate.h"

#define CLASS_NO_FIX 0x10000u /* divergence no combination of fixes removes: above every FIX() bit */
/* Not the fastpath's divergence: the kernel's own outcome (the slowpath's)
 * breaks an exit invariant or fails an assertion, and the fastpath's
 * outcome is the same in every field (diff_kernel_own). On a state the
 * kernel reaches (a workload from boot, a real kernel's entry) a kernel
 * bug; on a generated state, a bug of the generator or of an invariant. */
#define CLASS_KERNEL 0x20000u

/* a cause that is a set of the target's fixes (not 0, CLASS_NO_FIX or
 * CLASS_KERNEL) */
static inline bool cause_is_fixes(unsigned cause)
{
    return cause && cause < CLASS_NO_FIX;
}

struct dclass {
    int exit;
    unsigned cause;   /* FIX() bits, or CLASS_NO_FIX */
    uint32_t fields;  /* DF_* bits of the verdict */
    int target;       /* the target (target_at, target_index): whose exits and
                         fixes; last, so positional initialisers of the
                         default target's classes stay valid */
};

/* Scratch space for classification: three states, kept by the caller so
 * the fuzzer's hot path does not allocate. */
struct classify_ws {
    struct kstate a, b, c;
    ticks_t slow_cur_time; /* a's ksCurTime before the normalisation */
};

/* Run the check on in with the given fixes (of in's target: target.h) and
 * fill the class; returns false when the paths agree. */
bool classify_run(const struct kstate *in, unsigned fixes, struct classify_ws *ws, struct dclass *cl,
                  struct diff_verdict *v);
/* Cause of a divergence found with the proposal (fixes = 0). */
unsigned classify_cause(const struct kstate *in, struct classify_ws *ws);
/* The same, when ws->a already holds in's slowpath outcome as diff_run
 * leaves it on its slow side (normalised; v->slow_overrun when the
 * normalisation could not charge): the fuzzer has just run it. */
unsigned classify_cause_after(const struct kstate *in, const struct diff_verdict *v, struct classify_ws *ws);
/* The cause of the divergence verdict v of in (v as diff_run leaves it,
 * ws->a its slowpath outcome): CLASS_KERNEL when the kernel's own outcome
 * is at fault, else classify_cause_after for the fastpath as written
 * (variant FP_PR1227) and CLASS_NO_FIX for another variant. */
unsigned classify_verdict(const struct kstate *in, const struct diff_verdict *v, int variant,
                          struct classify_ws *ws);
bool dclass_same(const struct dclass *x, const struct dclass *y);
/* "switch/entry_time+deadline" */
const char *dclass_name(const struct dclass *cl, char *buf, size_t len);
/* "entry_time+deadline": a cause, a set of t's fixes ("unexplained" for
 * CLASS_NO_FIX, "kernel" for CLASS_KERNEL) */
struct target;
const char *cause_text(const struct target *t, unsigned cause, char *buf, size_t len);

#endif
