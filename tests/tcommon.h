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

/* Core 1's idle thread (build_core1) with an idle SC of its own, a copy
 * of core 0's on core 1, as boot gives each core; its index in *idle_sc. */
static inline int tc_core1_idle(struct kstate *ks, int *idle_sc)
{
    int idle1 = build_core1(ks);
    int sc = ks_add_sc(ks, "idle_sc1");
    ks->scs[sc] = ks->scs[ks->idle_sc];
    snprintf(ks->scs[sc].name, KS_NAME_LEN, "idle_sc1");
    ks->scs[sc].tcb = (int8_t)idle1;
    ks->scs[sc].core = 1;
    ks->tcbs[idle1].sc = (int8_t)sc;
    ks->core_idle_sc[1] = (int8_t)sc;
    *idle_sc = sc;
    return idle1;
}

/* The TCB named name (the test fails when there is none). */
static inline int tc_tcb_named(const struct kstate *ks, const char *name)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (!strcmp(ks->tcbs[i].name, name))
            return i;
    fail();
    return -1;
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

/* One run of both paths: the entry state, the two outcomes, the verdict. */
struct tc_run {
    struct kstate *in, *slow, *fast;
    struct diff_verdict v;
};

static inline struct tc_run *tc_run_new(void)
{
    struct tc_run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    r->in = tc_state();
    r->slow = tc_state();
    r->fast = tc_state();
    return r;
}

static inline void tc_run_free(struct tc_run *r)
{
    free(r->in);
    free(r->slow);
    free(r->fast);
    free(r);
}

/* The index of the thread with this name; fails the test if none. */
static inline int tc_tid(const struct kstate *ks, const char *name)
{
    for (int i = 0; i < ks->n_tcbs; i++)
        if (strcmp(ks->tcbs[i].name, name) == 0)
            return i;
    fail_msg("no thread %s", name);
    return KS_NONE;
}

#endif
