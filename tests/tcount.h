/* tcount: run one model operation twice, without and with a cost recorder
 * (sim/cost_hooks.h), for the tests/test_cov_*.c files of the model's
 * helper modules. gcc counts a branch for the `if` inside each counting
 * macro, taken only with a recorder attached; the rule is that counting
 * never changes an outcome, so both runs must leave the same kernel state. */
#ifndef IRQSIM_TCOUNT_H
#define IRQSIM_TCOUNT_H

#include "tcommon.h"

#include "cost.h"

typedef void (*tc_op)(struct kstate *ks, void *arg);

/* out = op applied to a copy of in, with no recorder; a second copy runs op
 * with a recorder and must end the same (ks_same, which also compares the
 * failed-assertion record). Returns the number of reads, writes and
 * branches the recorder counted. */
static inline uint32_t tc_counted(const struct kstate *in, struct kstate *out, tc_op op, void *arg)
{
    struct kstate *counted = tc_state();
    struct cost_rec rec;
    cost_reset(&rec);
    ks_copy(out, in);
    ks_copy(counted, in);
    counted->cost = &rec;
    op(out, arg);
    op(counted, arg);
    assert_ptr_equal(counted->cost, &rec);
    counted->cost = NULL;
    assert_null(out->cost);
    assert_true(ks_same(out, counted));
    free(counted);
    return cost_all(&rec.c);
}

/* An imx8mm state (8 MHz: MIN_BUDGET 160 ticks, maxIRQ 160) whose clock
 * and ksCurTime are now: the idle thread runs. */
static inline struct kstate *tc_imx8mm(ticks_t now)
{
    struct kstate *ks = tc_state();
    assert_int_equal(ks_init(ks, "imx8mm"), 0);
    assert_int_equal(ks->cfg.min_budget, 160);
    assert_int_equal(ks->cfg.max_irq, 160);
    ks->cur_time = ks->hw_clock = now;
    return ks;
}

/* tc_imx8mm(1000) with thread name at priority 100 running on its SC
 * sc_name (8000 ticks per 80000, first refill at 0); *t and *sc are set
 * when not NULL. */
static inline struct kstate *tc_running(const char *name, const char *sc_name, int *t, int *sc)
{
    struct kstate *ks = tc_imx8mm(1000);
    int x = build_thread(ks, name, 100, 0), y = build_sc(ks, sc_name, x, 8000, 80000, 0);
    build_run(ks, x);
    if (t)
        *t = x;
    if (sc)
        *sc = y;
    return ks;
}

/* The one failed kernel assertion the run recorded must be id. */
static inline void tc_assert_one(const struct kstate *ks, int id)
{
    if (ks->n_asserts != 1 || ks->asserts[0].id != id)
        print_error("expected exactly the assertion %s (%s), have %d, first %s\n", kassert_msg(id),
                    kassert_fn(id), ks->n_asserts, ks->n_asserts ? kassert_msg(ks->asserts[0].id) : "-");
    assert_int_equal(ks->n_asserts, 1);
    assert_int_equal(ks->asserts[0].id, id);
}

/* Kernel assertion id is among those recorded. */
static inline bool tc_has_assert(const struct kstate *ks, int id)
{
    for (int i = 0; i < ks->n_asserts && i < KS_MAX_ASSERTS; i++)
        if (ks->asserts[i].id == id)
            return true;
    return false;
}

#endif
