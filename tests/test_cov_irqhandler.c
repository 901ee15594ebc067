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
};

static void op_get(struct kstate *ks, void *p)
{
    struct get *g = p;
    g->ret = decodeIRQControl_Get(ks, g->irq);
}

/* A negative IRQ number is, as the kernel's word irq_w, above maxIRQ:
 * seL4_RangeError, nothing changes (the invoker is not set to Restart).
 * IRQ 160 = maxIRQ is accepted: IRQSignal, unmasked (interrupt.c:78-84). */
static void test_get_negative(void **state)
{
    (void)state;
    struct kstate *in = tc_running("cur", "csc", NULL, NULL), *out = tc_state();
    struct get g = {.irq = -1};
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
    struct get g = {.irq = KS_MAX_IRQS + 26};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_RANGE);
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_negative),
        cmocka_unit_test(test_get_beyond_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
