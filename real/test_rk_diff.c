/*
 * test_rk_diff: rk_predicted_halt, which real kernel halts the model's own
 * failed assertion explains. No kernel is loaded: the halt texts are the
 * kernel's own formats (src/assert.c: _assert_fail prints "seL4 failed
 * assertion '%s' at %s:%u in function %s", _fail "seL4 called fail at
 * %s:%u in function %s, saying \"%s\""; a release kernel prints nothing,
 * and only fail() halts it: include/assert.h makes assert() nothing and
 * fail() halt()).
 * SPDX-License-Identifier: BSD-2-Clause
 */
#include "test_rk.h"
#include <stdio.h>
#include <string.h>

#include "kassert.h"
#include "rk_diff.h"


static struct kstate ks;

static void record(int id, int path)
{
    ks.asserts[ks.n_asserts++] = (struct ks_assert){.id = (uint16_t)id, .path = (uint8_t)path};
}

int main(void)
{
    static const char choose[] = "...\nseL4 failed assertion 'isSchedulable(thread)' at src/kernel/thread.c:431 "
                                 "in function chooseThread\n";
    static const char activate[] = "seL4 called fail at src/kernel/thread.c:68 in function activateThread, saying "
                                   "\"Current thread is blocked\"\n";
    /* no assertion of the model's: no halt explained */
    CHECK(rk_predicted_halt(&ks, choose) == -1);
    CHECK(rk_predicted_halt(&ks, "") == -1);
    /* the debug kernel's first failed assertion is in chooseThread; the
     * model failed that one and activateThread's fail after it */
    record(A_CHOOSE_SCHEDULABLE, PATH_SLOW);
    record(A_ACTIVATE_BLOCKED, PATH_SLOW);
    CHECK(rk_predicted_halt(&ks, choose) == A_CHOOSE_SCHEDULABLE);
    CHECK(rk_predicted_halt(&ks, activate) == A_ACTIVATE_BLOCKED);
    /* release: the assert is compiled out, the fail halts */
    CHECK(rk_predicted_halt(&ks, "") == A_ACTIVATE_BLOCKED);
    /* a halt in another function is not the model's */
    CHECK(rk_predicted_halt(&ks, "seL4 failed assertion 'x' at a.c:1 in function schedule\n") == -1);
    /* a name that only starts with the function's is another function */
    CHECK(rk_predicted_halt(&ks, "seL4 failed assertion 'x' at a.c:1 in function chooseThreadX\n") == -1);
    /* assertions of the normalisation (commitTime on an outcome) are not the path's */
    ks.n_asserts = 0;
    record(A_ACTIVATE_BLOCKED, PATH_NORM);
    CHECK(rk_predicted_halt(&ks, activate) == -1);
    CHECK(rk_predicted_halt(&ks, "") == -1);
    /* a release kernel does not halt on an assert() the model failed */
    ks.n_asserts = 0;
    record(A_CHOOSE_SCHEDULABLE, PATH_FAST);
    CHECK(rk_predicted_halt(&ks, "") == -1);
    CHECK(rk_predicted_halt(&ks, choose) == A_CHOOSE_SCHEDULABLE);
    if (rk_test_failures)
        fprintf(stderr, "test_rk_diff: %d checks failed\n", rk_test_failures);
    return rk_test_failures != 0;
}
