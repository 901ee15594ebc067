/*
 * Coverage tests of sim/irqhandler.c beyond tests/test_ops.c: the range
 * checks of IRQControl_Get, _GetTrigger and _GetTriggerCore, run with and without a cost recorder
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
    int method, edge, core; /* enum ks_irq_method (0: IRQControl_Get), the trigger and target words */
};

static void op_get(struct kstate *ks, void *p)
{
    struct get *g = p;
    g->ret = decodeIRQControlInvocation(ks, &(struct irqc_get){.method = g->method, .irq = g->irq, .dest = g->dest,
                                                               .length = g->length, .extra_caps = g->extra_caps,
                                                               .edge = g->edge != 0, .core = g->core});
}

/* a message the label `method` refuses, and with which error; refused,
 * nothing changes (the invoker is not set to Restart) */
struct refusal {
    int irq;
    unsigned length, extra_caps;
    int dest, ret;
};

static void expect_refused(const struct kstate *in, struct kstate *out, const struct refusal *r, size_t n, int method)
{
    for (size_t i = 0; i < n; i++) {
        struct get g = {r[i].irq, 0, r[i].length, r[i].extra_caps, r[i].dest, method, method != IRQM_GET, 0};
        tc_counted(in, out, op_get, &g);
        assert_int_equal(g.ret, r[i].ret);
        assert_true(ks_same(in, out));
    }
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
    static const struct refusal cases[] = {
        {40, 2, 1, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT}, {40, 3, 0, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT},
        {-1, 2, 1, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT}, {-1, 3, 1, IRQD_BAD, SYSERR_RANGE},
        {40, 3, 1, IRQD_BAD, SYSERR_INVALID_CAP},        {40, 3, 1, IRQD_FULL, SYSERR_ILLEGAL_OPERATION},
    };
    expect_refused(in, out, cases, sizeof cases / sizeof cases[0], IRQM_GET);
    struct get g = {40, 0, 3, 1, IRQD_EMPTY, IRQM_GET, 0, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[40], IRQ_Signal);
    assert_false(out->irq_masked[40]);
    free(in);
    free(out);
}

/* IRQControl_GetTrigger (ARMIRQIssueIRQHandlerTrigger,
 * arm/object/interrupt.c:35-90 at 1326364bc): fewer than four words or no
 * extra cap is truncated (:36-39) before the range (:55-58); on one core
 * a PPI may be asked for; the destination's checks as Get's. Taken, the
 * IRQ is IRQSignal and unmasked, and setIRQTrigger (gic_v3.c:360-396) set
 * the upper bit of its ICFGR field for edge (1) and cleared it for level
 * (0); GICv3 leaves an SGI's field alone (:368-370). Refused, nothing
 * changes. */
static void test_trigger(void **state)
{
    (void)state;
    struct kstate *in = tc_running("cur", "csc", NULL, NULL), *out = tc_state();
    static const struct refusal refused[] = {
        {40, 3, 1, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT}, {40, 4, 0, IRQD_EMPTY, SYSERR_INVALID_ARGUMENT},
        {161, 4, 1, IRQD_EMPTY, SYSERR_RANGE},           {40, 4, 1, IRQD_BAD, SYSERR_INVALID_CAP},
        {40, 4, 1, IRQD_FULL, SYSERR_ILLEGAL_OPERATION},
    };
    expect_refused(in, out, refused, sizeof refused / sizeof refused[0], IRQM_TRIGGER);
    struct get g = {40, 0, 4, 1, IRQD_EMPTY, IRQM_TRIGGER, 1, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[40], IRQ_Signal);
    assert_false(out->irq_masked[40]);
    assert_int_equal(out->irq_cfg[40], KS_IRQ_EDGE);
    /* level clears the bit an earlier edge set (the IRQ Inactive again, as
     * after its last handler cap's deletion) */
    ks_copy(in, out);
    in->irq_state[40] = IRQ_Inactive;
    g = (struct get){40, 0, 4, 1, IRQD_EMPTY, IRQM_TRIGGER, 0, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_cfg[40], 0);
    /* a PPI on one core; an SGI's field stays as it was on GICv3 */
    g = (struct get){20, 0, 4, 1, IRQD_EMPTY, IRQM_TRIGGER, 1, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_cfg[20], KS_IRQ_EDGE);
    g = (struct get){5, 0, 4, 1, IRQD_EMPTY, IRQM_TRIGGER, 1, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[5], IRQ_Signal);
    assert_int_equal(out->irq_cfg[5], 0);
    /* GICv2 writes an SGI's field like any other (gic_v2.c:150-163) */
    in->cfg.gic_version = 2;
    tc_counted(in, out, op_get, &g);
    assert_int_equal(out->irq_cfg[5], KS_IRQ_EDGE);
    free(in);
    free(out);
}

/* On two cores _GetTrigger refuses a PPI (:60-66: IllegalOperation, use
 * _GetTriggerCore); _GetTriggerCore (:150-200) checks the range, then the
 * target core (:164-168: InvalidArgument beyond CONFIG_MAX_NUM_NODES),
 * and sets an SPI's target core (setIRQTarget, :197-199) and its trigger;
 * a PPI of core 0 gets its trigger, no target. Without extra cap 0 the
 * kernel reads its cap through NULL (K3); the model refuses the message as
 * truncated, changing nothing. */
static void test_trigger_core(void **state)
{
    (void)state;
    struct kstate *in = tc_running("cur", "csc", NULL, NULL), *out = tc_state();
    in->cfg.smp = true;
    struct get g = {20, 0, 4, 1, IRQD_EMPTY, IRQM_TRIGGER, 1, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_ILLEGAL_OPERATION);
    assert_true(ks_same(in, out));
    static const struct {
        int irq;
        unsigned extra_caps;
        int core, ret;
    } refused[] = {
        {40, 0, 1, SYSERR_INVALID_ARGUMENT},
        {161, 1, 1, SYSERR_RANGE},
        {40, 1, 2, SYSERR_INVALID_ARGUMENT},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        g = (struct get){refused[i].irq, 0, 5, refused[i].extra_caps, IRQD_EMPTY, IRQM_TRIGGER_CORE, 1, refused[i].core};
        tc_counted(in, out, op_get, &g);
        assert_int_equal(g.ret, refused[i].ret);
        assert_true(ks_same(in, out));
    }
    /* an SPI by _GetTrigger on two cores: taken, its core as it was */
    g = (struct get){41, 0, 4, 1, IRQD_EMPTY, IRQM_TRIGGER, 1, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[41], IRQ_Signal);
    assert_int_equal(out->irq_cfg[41], KS_IRQ_EDGE);
    /* the message's length is not checked: two words are enough */
    g = (struct get){40, 0, 2, 1, IRQD_EMPTY, IRQM_TRIGGER_CORE, 1, 1};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_state[40], IRQ_Signal);
    assert_int_equal(out->irq_cfg[40], KS_IRQ_EDGE | 1u << KS_IRQ_CORE_SHIFT);
    assert_int_equal(ks_irq_core(out->irq_cfg[40]), 1);
    g = (struct get){20, 0, 5, 1, IRQD_EMPTY, IRQM_TRIGGER_CORE, 1, 0};
    tc_counted(in, out, op_get, &g);
    assert_int_equal(g.ret, SYSERR_NONE);
    assert_int_equal(out->irq_cfg[20], KS_IRQ_EDGE);
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_negative),
        cmocka_unit_test(test_get_beyond_table),
        cmocka_unit_test(test_get_refused),
        cmocka_unit_test(test_trigger),
        cmocka_unit_test(test_trigger_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
