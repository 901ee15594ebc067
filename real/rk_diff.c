/* rk_diff: diff_run's verdict on two outcomes computed elsewhere. */
#include "rk_diff.h"

#include "diff.h"
#include "invariant.h"

uint32_t rk_verdict(struct kstate *slow, struct kstate *fast, bool invariants)
{
    bool slow_overrun = !diff_normalise(slow);
    bool fast_overrun = !diff_normalise(fast);
    int slow_inv = 0, fast_inv = 0;
    if (invariants) {
        struct inv_report r;
        slow_inv = kstate_check(slow, INV_AT_EXIT, &r);
        fast_inv = kstate_check(fast, INV_AT_EXIT, &r);
    }
    uint32_t f = diff_compare(slow, fast, NULL);
    if (slow_overrun != fast_overrun)
        f |= 1u << DF_OVERRUN;
    if (slow->n_asserts != fast->n_asserts || slow->n_asserts)
        f |= 1u << DF_ASSERT;
    if (slow_inv != fast_inv || slow_inv)
        f |= 1u << DF_INVARIANT;
    return f;
}
