/*
 * Coverage tests of sim/irqc.c: the interrupt controller (GICv3 on imx8mm,
 * maxIRQ 160) and the IRQ table as the kernel's src/object/interrupt.c and
 * src/arch/arm/machine/gic_v3.c use them.
 *
 *   intStateIRQTable[irq]   the model keeps entries 0..n_irqs-1; an entry
 *                           it never touched is IRQInactive (the table is
 *                           zeroed at boot), and so is any negative number
 *   maskInterrupt           sets or clears the enable bit of the IRQ
 *   ackInterrupt            one EOI write per call
 *   ackDeadlineIRQ          parks the compare value at UINT64_MAX
 *
 * Every operation runs with and without a cost recorder (tests/tcount.h).
 */
#include "tcount.h"

#include "irqc.h"

static void test_state_of(void **state)
{
    (void)state;
    struct kstate *ks = tc_imx8mm(0);
    build_irq_state(ks, 40, IRQ_Timer);
    assert_int_equal(ks->n_irqs, 41);
    assert_int_equal(irq_state_of(ks, 40), IRQ_Timer);
    assert_int_equal(irq_state_of(ks, 39), IRQ_Inactive); /* zeroed when the table grew */
    assert_int_equal(irq_state_of(ks, 41), IRQ_Inactive); /* past the modelled entries */
    assert_int_equal(irq_state_of(ks, 160), IRQ_Inactive);
    assert_int_equal(irq_state_of(ks, -1), IRQ_Inactive); /* irqInvalid has no entry */
    assert_int_equal(irq_state_of(ks, INT32_MIN), IRQ_Inactive);
    free(ks);
}

struct irq_arg {
    int irq;
    bool disable;
};

static void op_ack(struct kstate *ks, void *arg)
{
    ackInterrupt(ks, ((struct irq_arg *)arg)->irq);
}

static void op_mask(struct kstate *ks, void *arg)
{
    struct irq_arg *a = arg;
    maskInterrupt(ks, a->disable, a->irq);
}

/* The model counts EOIs per IRQ up to 255 and then stays there (a
 * uint8_t); that bound is the model's, the kernel writes EOI each time. */
static void test_ack_saturates(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    struct irq_arg a = {.irq = 40};
    assert_true(tc_counted(in, out, op_ack, &a) > 0);
    assert_int_equal(out->irq_acks[40], 1);
    assert_int_equal(out->n_irqs, 41); /* acking makes the entry part of the table */
    ks_irq_touch(in, 40);
    in->irq_acks[40] = UINT8_MAX - 1;
    tc_counted(in, out, op_ack, &a);
    assert_int_equal(out->irq_acks[40], UINT8_MAX);
    in->irq_acks[40] = UINT8_MAX;
    tc_counted(in, out, op_ack, &a);
    assert_int_equal(out->irq_acks[40], UINT8_MAX);
    /* above maxIRQ: no table entry; counted apart, also saturating */
    a.irq = 161;
    tc_counted(in, out, op_ack, &a);
    assert_int_equal(out->oor_irq, 161);
    assert_int_equal(out->oor_acks, 1);
    assert_int_equal(out->n_irqs, in->n_irqs);
    in->oor_acks = UINT8_MAX;
    tc_counted(in, out, op_ack, &a);
    assert_int_equal(out->oor_acks, UINT8_MAX);
    free(in);
    free(out);
}

/* maskInterrupt(true) then (false) on an entry, and on an IRQ number above
 * maxIRQ (recorded apart). maxIRQ itself is a table entry. */
static void test_mask(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    struct irq_arg a = {.irq = 160, .disable = true};
    tc_counted(in, out, op_mask, &a);
    assert_true(out->irq_masked[160]);
    assert_int_equal(out->n_irqs, 161);
    assert_int_equal(out->oor_irq, KS_IRQ_INVALID);
    ks_copy(in, out);
    a.disable = false;
    tc_counted(in, out, op_mask, &a);
    assert_false(out->irq_masked[160]);
    a.irq = 1000;
    a.disable = true;
    tc_counted(in, out, op_mask, &a);
    assert_true(out->oor_masked);
    assert_int_equal(out->oor_irq, 1000);
    free(in);
    free(out);
}

static void op_deadline_ack(struct kstate *ks, void *arg)
{
    (void)arg;
    ackDeadlineIRQ(ks);
    handleSpuriousIRQ(ks);
}

/* ackDeadlineIRQ writes the compare register once, to the far future;
 * handleSpuriousIRQ changes nothing. */
static void test_deadline_ack(void **state)
{
    (void)state;
    struct kstate *in = tc_imx8mm(0), *out = tc_state();
    in->deadline = 12345;
    assert_true(tc_counted(in, out, op_deadline_ack, NULL) > 0);
    assert_int_equal(out->deadline, UINT64_MAX);
    assert_int_equal(out->deadline_writes, in->deadline_writes + 1);
    out->deadline = in->deadline;
    out->deadline_writes = in->deadline_writes;
    assert_true(ks_same(in, out));
    free(in);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_state_of),
        cmocka_unit_test(test_ack_saturates),
        cmocka_unit_test(test_mask),
        cmocka_unit_test(test_deadline_ack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
