/*
 * Coverage tests of sim/irqhandler.c beyond tests/test_ops.c: the range
 * checks of IRQControl_Get, run with and without a cost recorder
 * (tests/tcount.h). Kernel (seL4 43607edb6): decodeIRQControlInvocation
 * (src/object/interrupt.c:23-74) calls Arch_checkIRQ
 * (include/arch/arm/arch/object/interrupt.h:54-64), a range error for an
 * IRQ word above maxIRQ, before anything changes.
 *
 * Board imx8mm: maxIRQ 160.
 */
#include "tcount.h"

#include "irqhandler.h"
#include "schedcontext.h"

struct get {
    int irq, ret;
    unsigned length, extra_caps;
    int dest;
};

static void op_get(struct kstate *ks, void *p)
{
    struct get *g = p;
    g->ret = decodeIRQControl_Get(ks, g->irq, g->length, g->extra_caps, g->dest);
}

/* A negative IRQ number is, as the kernel's word irq_w, above maxIRQ:
 * seL4_RangeError, nothing changes (the invoker is not set to Restart).
 * IRQ 160 = maxIRQ is accepted: IRQSignal, unmasked (interrupt.c:78-84). */
static void test_get_negative(void **state)
{
    (void)state;
    struct kstate *in = tc_running("cur", "csc", NULL, NULL), *out = tc_state();
    struct get g = {.irq = -1, .length = 3, .extra_caps = 1};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_RANGE);
    assert_true(ks_same(in, out));
    g.irq = 160;
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[160], IRQ_Signal);
    assert_false(out->irq_masked[160]);
    free(in);
    free(out);
}

/* An IRQ within maxIRQ but beyond the model's IRQ table (KS_MAX_IRQS =
 * 1024). cfg_validate bounds maxIRQ by 1000, so no accepted configuration
 * reaches this; the configuration is made on purpose (maxIRQ 1100). The
 * kernel would accept IRQ 1050 (Arch_checkIRQ: 1050 <= maxIRQ); the model
 * cannot hold it and refuses it as out of range, changing nothing. */
static void test_get_beyond_table(void **state)
{
    (void)state;
    struct kstate *in = tc_running("cur", "csc", NULL, NULL), *out = tc_state();
    in->cfg.max_irq = 1100;
    assert_non_null(cfg_validate(&in->cfg));
    struct get g = {.irq = KS_MAX_IRQS + 26, .length = 3, .extra_caps = 1};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_RANGE);
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

/* The other refusals, in the kernel's order (interrupt.c:34-69 at
 * 1326364bc): fewer than three words or no extra cap (seL4_TruncatedMessage),
 * before the range check; a destination slot the lookup does not find
 * (seL4_FailedLookup) or that holds a cap (seL4_DeleteFirst), after the
 * IRQ's checks. Each changes nothing: the caller stays Running, the IRQ
 * Inactive and masked as it was. */
static void test_get_refused(void **state)
{
    (void)state;
    struct kstate *in = tc_running("cur", "csc", NULL, NULL), *out = tc_state();
    ks_irq_touch(in, 40);
    in->irq_masked[40] = true;
    static const struct {
        int irq;
        unsigned length, extra_caps;
        int dest, ret;
    } cases[] = {
        {40, 2, 1, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT}, {40, 3, 0, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT},
        {-1, 2, 1, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT}, {-1, 3, 1, IRQD_BAD, SYSERR_RANGE},
        {40, 3, 1, IRQD_BAD, SYSERR_INVALID_CAP},        {40, 3, 1, IRQD_FULL, SYSERR_ILLEGAL_OPERATION},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct get g = {cases[i].irq, 0, cases[i].length, cases[i].extra_caps, cases[i].dest};
        tc_counted(in, out, op_get, &g);
        assert_int_equal(g.ret, cases[i].ret);
        assert_true(ks_same(in, out));
    }
    struct get g = {40, 0, 3, 1, IRQD_EMPTY};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[40], IRQ_Signal);
    assert_false(out->irq_masked[40]);
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_negative),
        cmocka_unit_test(test_get_beyond_table),
        cmocka_unit_test(test_get_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
