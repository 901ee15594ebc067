/* rk_diff: diff_run's verdict on two outcomes computed elsewhere. */
#include "rk_diff.h"

#include "diff.h"

uint32_t rk_verdict(struct kstate *slow, struct kstate *fast, bool invariants)
{
    struct diff_verdict v = {0};
    diff_judge(slow, fast, invariants, &v);
    return v.fields;
}
