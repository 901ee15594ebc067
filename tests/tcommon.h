/* tcommon: what every CMocka test file of irqsim includes. */
#ifndef IRQSIM_TCOMMON_H
#define IRQSIM_TCOMMON_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "build.h"
#include "diff.h"
#include "invariant.h"
#include "irq_fast.h"
#include "irq_slow.h"
#include "kassert.h"
#include "kstate.h"
#include "ntfn.h"
#include "presets.h"
#include "refill.h"
#include "sched.h"

/* States are ~100 KB: tests keep them on the heap. */
static inline struct kstate *tc_state(void)
{
    struct kstate *ks = calloc(1, sizeof *ks);
    assert_non_null(ks);
    return ks;
}

/* Fail the test with the checker's messages when ks breaks an invariant. */
static inline void tc_assert_valid(const struct kstate *ks, enum inv_when when)
{
    struct inv_report r;
    int n = kstate_check(ks, when, &r);
    for (int i = 0; i < n && i < INV_MAX_ITEMS; i++)
        print_error("invariant %s: %s\n", inv_name(r.items[i].id), r.items[i].msg);
    assert_int_equal(n, 0);
}

static inline void tc_assert_no_asserts(const struct kstate *ks)
{
    for (int i = 0; i < ks->n_asserts && i < KS_MAX_ASSERTS; i++)
        print_error("kernel assert: %s: %s\n", kassert_fn(ks->asserts[i].id), kassert_msg(ks->asserts[i].id));
    assert_int_equal(ks->n_asserts, 0);
}

#endif
