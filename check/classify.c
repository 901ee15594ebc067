/* classify: divergence classes and their attribution to fixes. */
#include "classify.h"

#include <stdio.h>

#include "irq_fast.h"
#include "target.h"

/* Whether the fastpath with these fixes agrees with the slowpath outcome
 * already normalised in ws->a; *tested: the fixes the run depended on. */
static bool agrees_with(const struct kstate *in, unsigned fixes, struct classify_ws *ws, unsigned *tested)
{
    ks_copy(&ws->c, in);
    target_of(in)->fast_tested(&ws->c, fixes, tested);
    if (diff_unread_clock_shows(&ws->c, ws->slow_cur_time))
        return false;
    bool overrun = !diff_normalise(&ws->c);
    return !overrun && ws->c.n_asserts == 0 && diff_compare(&ws->a, &ws->c, NULL) == 0;
}

/* A minimal set of fixes that makes this state agree, found greedily from
 * the full set in the target's removal order (target.c). For the IRQ
 * fastpath, fixes that change where the fastpath goes are dropped first
 * (idle_switch can send a state to the slowpath through the VTable check,
 * the entry checks send it there outright), so a divergence is charged to
 * the state repair (deadline, cb_unblock, reprogram) when one suffices, and
 * a fallback is charged to the check that is about it. */

/* The greedy search, from the normalised slowpath outcome in ws->a. */
static unsigned cause_from_slow(const struct kstate *in, bool slow_payable, struct classify_ws *ws)
{
    const struct target *tg = target_of(in);
    if (!slow_payable || ws->a.n_asserts)
        return CLASS_NO_FIX;
    unsigned tested, t;
    if (!agrees_with(in, tg->fix_all, ws, &tested))
        return CLASS_NO_FIX;
    unsigned cause = tg->fix_all;
    for (int k = 0; k < tg->fixes; k++) {
        unsigned bit = 1u << tg->removal_order[k], without = cause & ~bit;
        /* the last agreeing run (with cause) never tested this fix: without
         * it the run takes the same steps, and agrees */
        if (!(tested & bit)) {
            cause = without;
            continue;
        }
        if (agrees_with(in, without, ws, &t)) {
            cause = without;
            tested = t;
        }
    }
    return cause ? cause : CLASS_NO_FIX;
}

unsigned classify_cause(const struct kstate *in, struct classify_ws *ws)
{
    ks_copy(&ws->a, in);
    target_of(in)->slow(&ws->a);
    ws->slow_cur_time = ws->a.cur_time;
    return cause_from_slow(in, diff_normalise(&ws->a), ws);
}

unsigned classify_cause_after(const struct kstate *in, const struct diff_verdict *v, struct classify_ws *ws)
{
    ws->slow_cur_time = v->slow_time;
    return cause_from_slow(in, !v->slow_overrun, ws);
}

unsigned classify_verdict(const struct kstate *in, const struct diff_verdict *v, int variant,
                          struct classify_ws *ws)
{
    if (diff_kernel_own(v))
        return CLASS_KERNEL;
    return variant == FP_PR1227 ? classify_cause_after(in, v, ws) : CLASS_NO_FIX;
}

bool classify_run(const struct kstate *in, unsigned fixes, struct classify_ws *ws, struct dclass *cl,
                  struct diff_verdict *v)
{
    int variant = fixes == target_of(in)->fix_all ? FP_FIXED : FP_PR1227;
    diff_run(in, variant, true, v, &ws->a, &ws->b);
    cl->target = target_index(target_of(in));
    cl->exit = v->exit;
    cl->fields = v->fields;
    cl->cause = 0;
    if (v->agree)
        return false;
    cl->cause = diff_kernel_own(v) ? CLASS_KERNEL : fixes ? CLASS_NO_FIX : classify_cause_after(in, v, ws);
    return true;
}

bool dclass_same(const struct dclass *x, const struct dclass *y)
{
    return x->exit == y->exit && x->cause == y->cause;
}

const char *cause_text(const struct target *t, unsigned cause, char *buf, size_t len)
{
    if (cause == CLASS_NO_FIX || cause == CLASS_KERNEL) {
        snprintf(buf, len, "%s", cause == CLASS_KERNEL ? "kernel" : "unexplained");
        return buf;
    }
    return ks_bits_text(cause, t->fixes, t->fix_name, buf, len);
}

const char *dclass_name(const struct dclass *cl, char *buf, size_t len)
{
    char cause[160];
    const struct target *t = target_at(cl->target);
    if (!t)
        t = target_default();
    snprintf(buf, len, "%s/%s", t->exit_name(cl->exit), cause_text(t, cl->cause, cause, sizeof cause));
    return buf;
}
